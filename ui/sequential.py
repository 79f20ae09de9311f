"""The Compare page's "stop early" view: the confidence sequence over these items in file order
(:mod:`sigcore.sequential`), where it would have decided, and what it costs against the fixed-n interval."""

from __future__ import annotations

import streamlit as st

from sigcore import SigcoreError, sequential
from sigcore.effects import item_values
from sigcore.io import align
from sigcore.metrics import METRICS
from sigcore.report.sequence_figure import sequence

from . import figure
from .run import Settings, inputs
from .safe import md


def show(data: align.Aligned, s: Settings) -> None:
    with st.expander("Could evaluating have stopped early? The anytime-valid confidence sequence"):
        gold, a, b, metric = inputs(data, s.metric)
        values = item_values(gold, a, b, metric=metric, **dict(s.options))
        if values is None:
            st.caption(f"The sequence accrues per-item values, so it needs a metric that is their mean (accuracy, "
                       f"exact match, per-item scores); {s.metric} is not one.")
            return
        st.caption("An interval for δ after every item, in the order of the file, that holds at all of them at once: "
                   "stopping the moment it excludes 0 keeps the error rate at α, where stopping at the first p < α of "
                   "a fixed-n test does not.")
        low, high = 0.0, 1.0
        if not METRICS[metric].binary:
            c1, c2, _ = st.columns([1, 1, 3])
            low = c1.number_input("Lowest score", value=None, key="sequence-low", placeholder="per item")
            high = c2.number_input("Highest score", value=None, key="sequence-high", placeholder="per item")
            if low is None or high is None:
                st.info("Give the range every per-item score can take (known before the data, e.g. 0 and 1): the "
                        "sequence is valid for bounded scores only.")
                return
        try:
            seq = sequential.run(*values, alpha=s.alpha, low=low, high=high)
        except SigcoreError as e:
            st.error(md(str(e)), icon="⚠️")
            return
        names = data.display_names
        st.markdown(md(sequential.sentence(seq, *names)))  # not a second verdict box: the verdict is above
        figure.show(sequence(seq), "confidence_sequence")
