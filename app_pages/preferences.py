"""Pairwise judgments (issue 42 §5): an LLM judge's or people's verdicts on two answers at a time, as arenas,
MT-Bench and AlpacaEval write them; the models' Bradley–Terry ratings with intervals and ranks from a bootstrap over
the items, every pair corrected, and the command line's downloads."""

import streamlit as st

from ui import preferences

st.title("Pairwise judgments: which model do the judges prefer?")
st.caption(preferences.ABOUT)
st.subheader("1 · Data")
files, shape = preferences.choose()
battles = preferences.load(files, shape)
if battles is None:
    st.stop()
preferences.preview(battles)

st.subheader("2 · Settings")
settings = preferences.settings(files, battles, shape)
res = preferences.compute(files, battles, settings)
if res is None:
    st.stop()
st.subheader("3 · Results")
preferences.show(res)
st.subheader("4 · Downloads")
preferences.downloads(res)
