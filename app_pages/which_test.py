"""Which test? The seven paired tests: what each does, when it misleads, and a simulation that shows it."""

import streamlit as st

from sigcore.comparison import TESTS
from ui import test_guide

st.title("Which test?")
st.markdown(
    "Dror et al. (2018), *The Hitchhiker's Guide to Testing Statistical Significance in NLP*, choose the test from "
    "the data. Is the metric a mean of per-item scores (accuracy) or computed from totals (F1, BLEU)? Are the "
    "per-item differences normal (Shapiro–Wilk)? If they are, the paired t-test; if not, a non-parametric test, "
    "either without sampling (sign, Wilcoxon, and McNemar for right/wrong items) or with it (the paired bootstrap "
    "and the permutation test, the only ones for F1 and BLEU). Below, each test in SLP3 §4.11's terms, its "
    "formula, when it misleads, and a simulation where the truth is known. Every test here is one-sided, H1: A is "
    "better.")
st.caption("The Compare page's advisor (“Which test? Advised: …”, beside its Test box) walks this same tree on "
           "your data, and says why not the other tests; so do `sigcore.advisor.advise_outputs` and `sigcore advise`.")
test = st.selectbox("Test", list(TESTS), format_func=lambda t: f"{TESTS[t].title} ({t})", key="which-test")
test_guide.guide(test)
