"""Classroom: hypothesis testing with the paired bootstrap, step by step, as in SLP3 §4.11."""

import streamlit as st

from sigcore import i18n
from sigcore.i18n import _
from ui import lessons, pitfalls, sections, terms, walkthrough
from ui.terms import heading, term

walkthrough.from_url()  # a link's language before the first text
i18n.use(terms.language())
presenter = walkthrough.presenter_mode()
if presenter:  # one section on one screen, chosen in the corner (?section=...); the others keep their state
    shown = sections.shown()
    a, b = walkthrough.test_set(presenter=True)
    sections.keep_hidden(shown)
    if shown == sections.WALK_THROUGH:
        walkthrough.draws(a, b, presenter=True)
    else:
        with sections.view():
            if shown == "p-values":
                lessons.p_values(presenter=True)
            elif shown == "power":
                lessons.power(presenter=True)
            elif shown == "three-tests":
                lessons.three_tests(a, b, presenter=True)
            else:
                pitfalls.mistake(shown)
    sections.switch(shown)
    walkthrough.link_taken()
    st.stop()

sections.shown()  # a link's section opens on the page too
sections.keep_closed()
st.title(_("Classroom: is A really better than B?"))
terms.switch()
st.markdown(_(
    "In the book's example, system A is right on 7 of 10 documents and system B on 5: δ(x) = M(A, x) − M(B, x) = .20 "
    "(eq. 4.45), the **{effect_size}**. Is A better, or was B just unlucky with these 10? Two hypotheses (eq. 4.46): "
    "**{h0}**: δ(x) ≤ 0, A is not better than B, and **{h1}**: δ(x) > 0, A is better. The **{p_value}** is "
    "P(δ(X) ≥ δ(x) | H0 is true) (eq. 4.47): how often a test set would show a δ as large as ours, or larger, if H0 "
    "were true. If it is at most a {threshold} α (.05 or .01), we reject H0. The {test} (Figures 4.11 and 4.12 of "
    "Jurafsky & Martin's *Speech and Language Processing*, §4.11) estimates it by drawing new test sets from x."
).format(effect_size=term("effect size"), h0=term("H0"), h1=term("H1"), p_value=term("p-value"),
         threshold=term("threshold"), test=term("paired bootstrap test")))
st.subheader(heading("1 · The test set x"))
a, b = walkthrough.test_set()
walkthrough.scores(a, b)

st.subheader(heading("2 · Bootstrap test sets x⁽ⁱ⁾"))
st.markdown(_(
    "Each x⁽ⁱ⁾ is drawn from x by **{sampling}**: 10 documents taken at random (a document can come twice, another "
    "not at all). We score A and B on it and keep δ(x⁽ⁱ⁾). After b draws, the p-value is the share s / b of test sets "
    "where δ(x⁽ⁱ⁾) ≥ 2·δ(x) (eq. 4.48):").format(sampling=term("sampling with replacement")))
walkthrough.equation(a, b)
walkthrough.draws(a, b)

st.subheader(heading("3 · What a p-value means"))
if lessons.when_reached("reach-p-values"):
    lessons.p_values()

st.subheader(heading("4 · Power: how big a test set do we need?"))
if lessons.when_reached("reach-power"):
    lessons.power()

st.subheader(heading("5 · Common mistakes"))
if lessons.when_reached("reach-mistakes"):
    pitfalls.section()

st.subheader(heading("6 · Bootstrap, permutation and t-test on the same data"))
if lessons.when_reached("reach-three-tests", simulations=False):  # its chart's code is 5 MB that the walk-through
    lessons.three_tests(a, b)  # would otherwise wait for
walkthrough.link_taken()
