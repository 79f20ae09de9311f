"""Compare two systems on a sample from sample_data/ (the full upload page comes with the dashboard issue)."""

from pathlib import Path

import pandas as pd
import streamlit as st

import sigcore
from sigcore.figures import delta_histogram
from sigcore.inputs import read_table
from sigcore.report import verdict

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data" / "slp3_fig4_11.csv"

st.title("Does system A really beat system B?")
st.caption("Paired bootstrap on the SLP3 Figure 4.11 example: 10 documents, A right on 7, B on 5.")

table = read_table(SAMPLE)
res = sigcore.compare(table["gold"], table["A"], table["B"], metric="accuracy", test="bootstrap", seed=0)

st.text(verdict(res))  # st.text: nothing here is rendered as Markdown or HTML
st.plotly_chart(delta_histogram(res), width="stretch")
st.dataframe(pd.DataFrame({
    "system": ["A", "B", "A − B"],
    "accuracy": [res.score_a, res.score_b, res.delta],
    f"{res.confidence_level:.0%} CI": [f"{lo:.3f} to {hi:.3f}" for lo, hi in (res.ci_a, res.ci_b, (res.ci_low, res.ci_high))],
}), hide_index=True)
st.code(res.signature, language=None)
