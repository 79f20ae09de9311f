"""Three Classroom sections beyond SLP3 Figures 4.11/4.12: what a p-value means, power, and three tests side by side.

Each section goes under a heading the page writes; with ``presenter``, it is drawn alone at 24 px on one screen, its
settings above its chart and its numbers below (:mod:`ui.sections`), without prose. Widgets, words and layout only:
every number comes from ``sigcore`` (simulations in :mod:`sigcore.teaching.bootstrap`, tests from
:func:`sigcore.compare`, figures from :mod:`sigcore.teaching.lesson_figures`). Simulations are cached on their
settings, so moving a widget back is instant; the words are in the page's language (:mod:`sigcore.i18n`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

import sigcore
from sigcore import SigcoreError, teaching
from sigcore.contract import DEFAULT_ALPHA, DEFAULT_RESAMPLES, DEFAULT_SEED, SIMULATION_RESAMPLES
from sigcore.i18n import N_, _
from sigcore.report import TEST_NAMES
from sigcore.report.sentence import test_name
from sigcore.teaching import lesson_figures
from sigcore.teaching.lesson_figures import PRESENTER_FONT, shown_test_name

from . import sections
from .figure import show
from .safe import md
from .walkthrough import textbook_number

NULL_TESTS = ("bootstrap", "permutation", "t", "mcnemar")
NULL_ACCURACY, NULL_AGREEMENT = 0.7, 0.8  # both systems right on 70% of items, agreeing on 80% of them
POWER_NS = (25, 50, 100, 200, 400, 800, 1_600, 3_200)
POWER_SIMS, POWER_RESAMPLES = 200, SIMULATION_RESAMPLES  # 8 sizes × 200 test sets × b = 1,000: about 1.5 s
TARGET = 0.8
TYPICAL_N = 200  # a small but common test-set size
COPIES = (1, 2, 5, 10, 20)
RESAMPLES = DEFAULT_RESAMPLES
THREE = ("bootstrap", "permutation", "t")
HOW = {"bootstrap": N_("share of resamples with δ(x⁽ⁱ⁾) ≥ 2·δ(x)"),
       "permutation": N_("share of A ⇄ B swaps with δ ≥ δ(x)"),
       "t": N_("area of Student's t beyond the observed t")}


@st.cache_data(max_entries=64, show_spinner=False)
def _null_p_values(test: str, n: int, n_sims: int) -> np.ndarray:
    return teaching.null_p_values(n, NULL_ACCURACY, NULL_AGREEMENT, test=test, n_sims=n_sims, seed=DEFAULT_SEED)


@st.cache_data(max_entries=64, show_spinner=False)
def _power(accuracy_a: float, accuracy_b: float, agreement: float) -> tuple[np.ndarray, np.ndarray]:
    """The exact power (b → ∞), which decides, and the simulated one, which shows it is what a test does."""
    return (teaching.exact_power(POWER_NS, accuracy_a, accuracy_b, agreement),
            teaching.power(POWER_NS, accuracy_a, accuracy_b, agreement, n_sims=POWER_SIMS,
                           n_resamples=POWER_RESAMPLES, seed=DEFAULT_SEED))


@st.cache_data(max_entries=64, show_spinner=False)
def _three(a_correct: tuple, b_correct: tuple, copies: int) -> list[sigcore.Result]:
    a, b = list(a_correct) * copies, list(b_correct) * copies  # the same proportions, more documents
    return [sigcore.compare([1] * len(a), a, b, test=test, alternative="greater", n_resamples=RESAMPLES,
                           ci_method=None)
            for test in THREE]


def p_values(*, presenter: bool = False) -> None:
    """What a p-value means: under H0, p is uniform, so p ≤ α happens in a share α of test sets."""
    if not presenter:
        st.markdown(_(
            "Suppose A and B are **equally good** in truth: that is H0. On any one test set x, luck still puts one "
            "of them ahead, so δ(x) is rarely exactly 0. The **p-value** asks: *if H0 were true, how often would "
            "luck alone give a δ(x) at least as large as the one we saw?* We reject H0, and say A is better, "
            "when p ≤ α.\n\n"
            "Here we check it. We simulate many test sets of n items on which A and B are each right on "
            "{accuracy} of items (agreeing on {agreement}), run the test on each, and draw the p-values. When H0 is "
            "true every p is about equally likely, so the bars are about **flat**, and about a share **α** of the "
            "test sets has p ≤ α. Those are **false alarms**: at α = 0.05, about one test set in 20 makes a "
            "worthless difference look significant. That, and nothing more, is what α promises.").format(
                accuracy=f"{NULL_ACCURACY:.0%}", agreement=f"{NULL_AGREEMENT:.0%}"))
    c1, c2, c3, c4 = sections.controls(4) if presenter else st.columns(4)
    names = {t: shown_test_name(TEST_NAMES[t]) for t in NULL_TESTS}  # in this run's language (AppTest formats later)
    test = c1.selectbox(_("Test"), NULL_TESTS, format_func=names.get, key="pv-test")
    n = c2.select_slider(_("Items per test set, n"), (50, 100, 200, 500, 1_000), value=200, key="pv-n")
    n_sims = c3.select_slider(_("Test sets"), (200, 500, 1_000, 2_000), value=1_000, key="pv-sims")
    alpha = c4.select_slider("α", (0.01, 0.05, 0.10), value=DEFAULT_ALPHA, key="pv-alpha")
    with st.spinner(_("Simulating test sets where H0 is true…")):
        p = _null_p_values(test, n, n_sims)
    font = PRESENTER_FONT if presenter else None
    _figure(lesson_figures.p_value_histogram(p, alpha, test=test, font=font), "p_values_under_h0", presenter)
    m1, m2, m3 = sections.columns(3) if presenter else st.columns(3)
    m1.metric(_("Test sets where H0 is true"), f"{len(p):,}")
    m2.metric(_("Share with p ≤ α (false alarms)"), f"{teaching.rejection_rate(p, alpha):.1%}")
    m3.metric(_("What α promises"), _("at most {alpha}").format(alpha=f"{alpha:.0%}"))
    if not presenter:
        st.caption(_("Tests on counts (McNemar's exact test, or any test on a small n) can give only a few distinct "
                     "p-values, so their share of false alarms is often a little below α: they are conservative."))


def power(*, presenter: bool = False) -> None:
    """Power and test-set size: how often a real difference is detected, after Card et al. (2020)."""
    if not presenter:
        st.markdown(_(
            "A p-value guards against false alarms. **Power** is the other side: when A *really* is better (H1 is "
            "true), how often does the test say so, p ≤ α = 0.05? It grows with the true difference, with how often "
            "the systems agree (only items where exactly one of them is right move δ(x)), and above all with the "
            "size n of the test set.\n\n"
            "Card et al. (2020), *With Little Power Comes Great Responsibility* (EMNLP), found that many NLP test "
            "sets are too small to detect the improvements papers claim. An underpowered experiment usually misses "
            "a real gain, and when it does find one, it tends to overstate its size. The usual target is 80% power: "
            "pick n so that a difference you care about is found at least 4 times in 5."))
    c1, c2, c3 = sections.controls(3) if presenter else st.columns(3)
    accuracy_a = c1.slider(_("Accuracy of A (in truth)"), 0.50, 0.99, 0.75, 0.01, key="power-a")
    accuracy_b = c2.slider(_("Accuracy of B (in truth)"), 0.50, 0.99, 0.70, 0.01, key="power-b")
    agreement = c3.slider(_("Agreement of A and B") if presenter else
                          _("Agreement: share of items both get right or both get wrong"), 0.50, 1.00, 0.85, 0.01,
                          key="power-agreement", help=None if presenter else
                          _("The share of items both systems get right or both get wrong."))
    try:
        with st.spinner(_("Simulating test sets of each size…")):
            curve, simulated = _power(accuracy_a, accuracy_b, agreement)
    except SigcoreError as err:
        st.error(md(str(err)))
        return
    if accuracy_a <= accuracy_b:
        st.warning(_("A is not better than B here, so there is no true advantage to detect: the curve shows how "
                     "often the test wrongly says A is better."))
    if presenter:  # the sliders above say the settings
        title = _("Power of the paired bootstrap at α = 0.05")
    else:
        title = _("Power of the paired bootstrap at α = 0.05: A right on {a}, B on {b}, agreeing on {agree}").format(
            a=f"{accuracy_a:.0%}", b=f"{accuracy_b:.0%}", agree=f"{agreement:.0%}")
    _figure(lesson_figures.power_curve(POWER_NS, curve, target=TARGET, title=title, simulated=(simulated, POWER_SIMS),
                                       font=PRESENTER_FONT if presenter else None), "power_curve", presenter)
    enough = teaching.smallest_n(POWER_NS, curve, TARGET)
    m1, m2 = sections.columns(2) if presenter else st.columns(2)
    m1.metric(_("Smallest n with {target} power").format(target=f"{TARGET:.0%}"),
              f"{enough:,}" if enough is not None else _("more than {n}").format(n=f"{POWER_NS[-1]:,}"))
    m2.metric(_("Power with n = {n}").format(n=TYPICAL_N), f"{curve[POWER_NS.index(TYPICAL_N)]:.1%}")
    if not presenter:
        st.caption(_(
            "Power is the share of test sets with p ≤ 0.05. The line is exact: every possible test set of that size "
            "weighted by its probability, each with its exact bootstrap p (b → ∞), so the smallest n does not move "
            "from one visit to the next. The red points are a simulation: {sims} test sets of each size, each tested "
            "with the paired bootstrap (b = {b}), with 95% intervals; they scatter around the line as {sims} "
            "coin-flips would, which is why a simulated curve alone can put the smallest n one size off.").format(
                sims=POWER_SIMS, b=f"{POWER_RESAMPLES:,}"))


def when_reached(key: str, simulations: bool = True) -> bool:
    """Whether to show a section: when the class gets to it, not when the page opens, so the walk-through at the
    top is usable at once (its simulations are cached after the first time; its charts' code loads then)."""
    return st.toggle(_("Show this section (it simulates many test sets: a few seconds the first time)") if simulations
                     else _("Show this section (three tests on the walk-through's documents)"), key=key)


def three_tests(a_correct: Sequence[int], b_correct: Sequence[int], *, presenter: bool = False) -> None:
    """The same right/wrong data tested three ways; with more documents the three p-values agree."""
    if not presenter:
        st.markdown(_(
            "The paired bootstrap is not the only way to get a p-value. On the same documents:\n"
            "- **Paired bootstrap**: draw b resamples x⁽ⁱ⁾ of the test set; p is the share with "
            "δ(x⁽ⁱ⁾) ≥ 2·δ(x) (the resamples are centred on δ(x), not on 0, hence the 2).\n"
            "- **Permutation (approximate randomisation)**: if H0 holds, the names A and B are interchangeable on "
            "each document. Swap them at random per document; p is the share of swaps with δ ≥ δ(x), the observed "
            "assignment among them.\n"
            "- **Paired t-test**: assumes the per-document differences are roughly normal, turns δ(x) into "
            "t = δ(x) / its standard error, and reads p from Student's t with n − 1 degrees of freedom.\n\n"
            "On {n} documents they disagree: each makes different assumptions, and so few right/wrong answers are "
            "far from normal. Copy the test set to give it more documents: δ(x) stays the same, but the evidence "
            "grows, so every p shrinks and the three come together. (Copying is only for the lesson: a real test "
            "set needs new, independent documents.)").format(n=len(a_correct)))
    where = sections.controls(2)[0] if presenter else st  # a third of the row, as the other sections' settings
    copies = where.select_slider(_("Copies of the test set"), COPIES, value=1, key="three-copies")
    try:
        results = _three(tuple(a_correct), tuple(b_correct), copies)
    except SigcoreError as err:
        st.error(md(str(err)))
        return
    _figure(lesson_figures.three_tests(*results, font=PRESENTER_FONT if presenter else None), "three_tests", presenter)
    m1, m2 = sections.columns(2) if presenter else st.columns(2)
    m1.metric(_("Documents, n"), f"{results[0].n_items:,}")
    m2.metric(_("δ(x) = accuracy of A − accuracy of B"), textbook_number(results[0].delta))
    if presenter:  # each panel's title gives its p, its axis what p counts: the table is the page's
        return
    st.dataframe(pd.DataFrame({
        _("test"): [shown_test_name(test_name(res)) for res in results],  # as the panels name them
        _("p counts"): [_(HOW[res.test]) for res in results],
        "p": [lesson_figures.p_fraction(res) if math.isfinite(res.p_value) else _("undefined") for res in results],
    }), hide_index=True)
    permutation = results[1]
    values, red = lesson_figures.counted_values(permutation)
    if permutation.exact:
        st.caption(_("The permutation panel draws all {total} assignments of A and B to the documents, the observed "
                     "one among them: {red} of them have δ ≥ δ(x), so p = {red}/{total}.").format(
                         total=f"{len(values):,}", red=f"{int(red.sum()):,}"))
    if copies == 1:
        st.caption(_("The bootstrap p here and s / b in the walk-through above both estimate one exact value, "
                     "{exact} (every x⁽ⁱ⁾ counted): each from its own random test sets (here b = {b}, drawn by the "
                     "engine), so they differ by Monte-Carlo error, and both come closer to it as b grows.").format(
                         exact=f"{teaching.exact_bootstrap_p(a_correct, b_correct):.4f}", b=f"{RESAMPLES:,}"))


def _figure(fig, name: str, presenter: bool) -> None:
    if presenter:
        sections.chart(fig, name)
    else:
        show(fig, name)
