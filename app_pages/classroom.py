"""Classroom: hypothesis testing with the paired bootstrap, step by step, as in SLP3 §4.11."""

import streamlit as st

from ui import lessons, pitfalls, walkthrough

st.title("Classroom: is A really better than B?")
st.markdown(
    "System A is right on 7 of 10 documents and system B on 5. Is A better, or was B just unlucky with "
    "these 10? Two hypotheses: **H0**, A is not better than B (the difference δ is 0 or less), and **H1**, "
    "A is better. The **p-value** is the probability of a δ as large as the one we saw, or larger, *if H0 were "
    "true*. If it is small (below α, often 0.05), we reject H0. The paired bootstrap (Figures 4.11 and 4.12 of "
    "Jurafsky & Martin's *Speech and Language Processing*, §4.11) estimates it by drawing new test sets from x.")

st.subheader("1 · The test set x")
a, b = walkthrough.test_set()
walkthrough.scores(a, b)

st.subheader("2 · Bootstrap test sets x⁽ⁱ⁾")
st.markdown(
    "Each x⁽ⁱ⁾ takes 10 documents of x at random, **with replacement** (a document can come twice, another not "
    "at all). We score A and B on it and keep δ(x⁽ⁱ⁾). After b draws, the p-value is the share s / b of "
    "test sets where δ(x⁽ⁱ⁾) ≥ 2·δ(x) (eq. 4.48):")
st.latex(r"\text{p-value}(x) = \frac{1}{b}\sum_{i=1}^{b} \mathbb{1}\left(\delta(x^{(i)}) \ge 2\delta(x)\right)"
         r" = \frac{s}{b}")
walkthrough.draws(a, b)

st.subheader("3 · What a p-value means")
lessons.p_values()

st.subheader("4 · Power: how big a test set do we need?")
lessons.power()

st.subheader("5 · Common mistakes")
pitfalls.section()

st.subheader("6 · Bootstrap, permutation and t-test on the same data")
lessons.three_tests(a, b)
