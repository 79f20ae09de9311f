"""The Classroom's "Common mistakes": six ways to misuse a significance test, each a live simulation.

On the page, a tab each; in presenter mode, one at a time (:func:`mistake`), at 24 px on one screen, its settings above
its chart and its numbers below, without prose. Widgets, words and layout only: every number comes from
:mod:`sigcore.teaching.pitfalls`, every figure from :mod:`sigcore.teaching.pitfall_figures`. Simulations are cached on
their settings, so moving a widget back is instant; the words are in the page's language (:mod:`sigcore.i18n`).
"""

from __future__ import annotations

import math

import streamlit as st

from sigcore.contract import DEFAULT_ALPHA
from sigcore.i18n import _
from sigcore.teaching import pitfall_figures, pitfalls
from sigcore.teaching.lesson_figures import PRESENTER_FONT

from . import sections
from .figure import show

ALPHAS = (0.01, 0.05, 0.10)
_CACHE = dict(max_entries=32, show_spinner=False)  # the spinner's words are said in the page's language, below
_many_comparisons = st.cache_data(pitfalls.many_comparisons, **_CACHE)
_peeking = st.cache_data(pitfalls.peeking, **_CACHE)
_not_significant = st.cache_data(pitfalls.not_significant, **_CACHE)
_one_sided = st.cache_data(pitfalls.one_sided, **_CACHE)
_probability_of_h0 = st.cache_data(pitfalls.probability_of_h0, **_CACHE)
_not_important = st.cache_data(pitfalls.not_important, **_CACHE)


def section() -> None:
    st.markdown(_(
        "Each tab is an experiment where we **know the truth**: we simulate many test sets, run the paired "
        "bootstrap on each, and count how often the conclusion is wrong. Remember what the test promises: if A and "
        "B are really equally good (H0), p ≤ α happens on only a share α of test sets, usually 1 in 20. Each "
        "mistake below quietly breaks that promise."))
    tabs = st.tabs([_(label) for label in sections.MISTAKES.values()])
    for tab, name in zip(tabs, sections.MISTAKES):
        with tab:
            DEMOS[name](False)


def mistake(name: str) -> None:
    """One mistake (a key of :data:`ui.sections.MISTAKES`) alone, at presenter size."""
    DEMOS[name](True)


def _alpha(column, key: str) -> float:
    return column.select_slider("α", ALPHAS, value=DEFAULT_ALPHA, key=key)


def _share(x: float) -> str:
    return f"{x:.0%}"


def _noise(rate: float, n: int) -> str:
    """The half-width of a simulated rate's 95% interval, in percentage points."""
    return f"{1.96 * math.sqrt(max(rate * (1 - rate), 0.05 * 0.95) / n):.0%}"


def _simulating():
    return st.spinner(_("Simulating test sets…"))


def _show(fig, name: str, presenter: bool) -> None:
    if presenter:
        sections.chart(fig, name)
    else:
        show(fig, name)


def _font(presenter: bool) -> int | None:
    return PRESENTER_FONT if presenter else None


def _many(presenter: bool) -> None:
    if not presenter:
        st.markdown(_(
            "You try 10 new systems, test each against the baseline, and report the one that wins “significantly”. "
            "But every test has a chance α of a false alarm, and with k tests the chance of **at least one** grows "
            "fast: about 1 − (1 − α)ᵏ, or 40% for 10 tests at α = 0.05. Here every system is exactly as good as the "
            "baseline, so each “significant” result is a false alarm.\n\n"
            "**Do instead**: correct the p-values for the number of tests. Holm's method multiplies the smallest p "
            "by k, the next by k − 1, and so on; then the chance of any false alarm stays at most α "
            "(`sigcore.statistics.multiple.adjust`)."))
    c1, c2 = sections.controls(2) if presenter else st.columns(2)
    k = c1.slider(_("Systems compared with the baseline, k"), 2, 15, 10, key="pit-k")
    alpha = _alpha(c2, "pit-k-alpha")
    with _simulating():
        res = _many_comparisons(k, alpha=alpha)
    _show(pitfall_figures.many_comparisons(res, font=_font(presenter)), "many_comparisons", presenter)
    m1, m2, m3 = sections.columns(3) if presenter else st.columns(3)
    m1.metric(_("Some p ≤ α among {k}, no correction").format(k=k), _share(res.uncorrected[-1]))
    m2.metric(_("With Holm's correction"), _share(res.holm[-1]))
    m3.metric("1 − (1 − α)ᵏ", _share(res.independent[-1]))
    if not presenter:
        st.caption(_(
            "{sims} simulated experiments, each a baseline and {k} systems right on 70% of 1,000 items (each agreeing "
            "with the baseline on 90% of them), tested two-sided with the paired bootstrap, b = 1,000. The rate stays "
            "a little below the formula, which assumes independent tests that are each wrong exactly α of the time: "
            "these tests share the baseline, so they are a little alike, and the bootstrap on right/wrong items is "
            "slightly cautious. With {sims} experiments each point is itself uncertain by about ±{noise} (95%), so "
            "at small k a point can lie above α by chance.").format(
                sims=res.n_sims, k=k, noise=_noise(res.uncorrected[-1], res.n_sims)))


def _peek(presenter: bool) -> None:
    if not presenter:
        st.markdown(_(
            "You test on the first items, then on more, and stop as soon as p ≤ α: the result you hoped for. But "
            "luck moves p up and down as items come in, and every look is one more chance for it to dip below α. "
            "Here A and B are equally good, so every stop is a false alarm.\n\n"
            "**Do instead**: fix the size of the test set before you look, and test once; or, to look as often as "
            "you like, use a confidence sequence (the Compare page's “Could evaluating have stopped early?”), which "
            "holds at every number of items at once."))
    c1, c2 = sections.controls(2) if presenter else st.columns(2)
    step = c1.select_slider(_("Test after every … items"), (25, 50, 100, 250), value=50, key="pit-step")
    alpha = _alpha(c2, "pit-peek-alpha")
    with _simulating():
        res = _peeking(step=step, alpha=alpha)
    _show(pitfall_figures.peeking(res, font=_font(presenter)), "peeking", presenter)
    m1, m2, m3 = sections.columns(3) if presenter else st.columns(3)
    m1.metric(_("“Significant” with peeking"), _share(res.peeking))
    m2.metric(_("Testing once at n = {n}").format(n=res.looks[-1]), _share(res.once))
    m3.metric(_("Confidence sequence, after every item"), _share(res.sequence), help=None if presenter else _(
        "Waudby-Smith & Ramdas (2024): the same experiments, watched after every single item, stopped the moment its "
        "one-sided bound passes 0; it may stop at any item and still holds α."))
    if not presenter:
        stopped = res.stopped_at[res.example]
        st.caption((_(
            "{sims} simulated experiments of up to {n} items, on which A and B are both right on 70% of items; "
            "one-sided paired bootstrap (H1: A is better), b = 1,000. The line follows one of them, stopped by "
            "peeking though one test on all items finds nothing.") if stopped else _(
            "{sims} simulated experiments of up to {n} items, on which A and B are both right on 70% of items; "
            "one-sided paired bootstrap (H1: A is better), b = 1,000. The line follows one of them."))
            .format(sims=len(res.p_once), n=res.looks[-1]))  # both sentences filled in


def _absence(presenter: bool) -> None:
    if not presenter:
        st.markdown(_(
            "Here A **is** better: right on 75% of items against 70% for B. Yet on small test sets most tests say "
            "“not significant”. That does not mean A and B are equal. Look at the intervals: nearly all contain the "
            "true difference, and most contain 0 as well. The data cannot tell the two apart. **Absence of "
            "evidence is not evidence of absence.**\n\n"
            "**Do instead**: report the interval of δ with p. A wide interval says the test set is too small to "
            "conclude either way (see the power section above)."))
    c1, c2 = sections.controls(2) if presenter else st.columns(2)
    n = c1.select_slider(_("Items per test set, n"), (50, 100, 200, 500, 1_000), value=100, key="pit-n")
    gaps = {x: _("{points} points").format(points=f"{100 * x:g}") for x in (0.02, 0.05, 0.10)}  # this run's language
    gap = c2.select_slider(_("True advantage of A"), list(gaps), value=0.05, key="pit-gap", format_func=gaps.get)
    with _simulating():
        res = _not_significant(n, 0.75, 0.75 - gap)
    _show(pitfall_figures.not_significant(res, font=_font(presenter)), "not_significant", presenter)
    missed, covers = ~res.significant, res.contains(res.true_delta)
    m1, m2, m3 = sections.columns(3) if presenter else st.columns(3)
    m1.metric(_("Significant (the power)"), _share(res.power))
    m2.metric(_("Intervals containing the true δ"), _share(covers.mean()))
    m3.metric(_("Not significant, yet containing the true δ"),
              _("{count} of {total}").format(count=(covers & missed).sum(), total=missed.sum()))
    if not presenter:
        st.caption(_("{sims} simulated test sets of {n} items, A and B agreeing on 85% of them; two-sided paired "
                     "bootstrap with its 95% interval (the basic bootstrap's, the test's dual), b = 1,000.")
                   .format(sims=len(res.delta), n=n))


def _sides(presenter: bool) -> None:
    if not presenter:
        st.markdown(_(
            "A one-sided test asks only “is A better?”, so it counts one tail of the distribution: on the same data "
            "its p is about **half** the two-sided p. That is fair when the side was chosen **before** seeing the "
            "data. Choosing it afterwards (“B came out ahead, so let us test whether B is better”) lets both tails "
            "count and **doubles** the false alarms: about 2·α instead of α. Here A and B are equally good.\n\n"
            "**Do instead**: write down H1 before you run the test; when in doubt, test two-sided."))
    c1, c2 = sections.controls(2) if presenter else st.columns(2)
    n = c1.select_slider(_("Items per test set, n"), (50, 100, 200, 500, 1_000), value=200, key="pit-side-n")
    alpha = _alpha(c2, "pit-side-alpha")
    with _simulating():
        res = _one_sided(n, alpha=alpha)
    _show(pitfall_figures.one_sided(res, font=_font(presenter)), "one_sided", presenter)
    for column, (side, rate) in zip(sections.columns(3) if presenter else st.columns(3), res.rates().items()):
        column.metric(_("p ≤ α, {side}").format(side=_(side)), _share(rate))
    if presenter:
        return
    i = res.example
    said = (_("**The same data, two p-values.** On test set {i}, δ(x) = {delta}, so the side picked afterwards is "
              "“A is better”:") if res.delta[i] >= 0 else
            _("**The same data, two p-values.** On test set {i}, δ(x) = {delta}, so the side picked afterwards is "
              "“B is better”:"))
    st.markdown(said.format(i=i + 1, delta=f"{res.delta[i]:+.3f}"))
    m1, m2 = st.columns(2)
    m1.metric(_("One-sided p, side picked after seeing δ(x)"), f"{res.p_chosen[i]:.3f}")
    m2.metric(_("Two-sided p"), f"{res.p_two_sided[i]:.3f}")
    st.caption(_("{sims} simulated test sets of {n} items on which A and B are each right on 70% of items, each "
                 "tested three ways with the same bootstrap resamples, b = 1,000.").format(sims=len(res.delta), n=n))


def _h0(presenter: bool) -> None:
    if not presenter:
        st.markdown(_(
            "“p = .03, so there is a 3% chance that A is not better.” No: p is the probability of a δ as large as "
            "ours **if H0 were true**, P(δ(X) ≥ δ(x) | H0) (eq. 4.47), not the probability that H0 is true given "
            "our δ. How often a “significant” result has H0 true behind it depends on how many of the ideas we test "
            "really work, and on the power. Here some experiments compare an A truly better by 5 points, the others "
            "two equal systems; each is tested once, one-sided.\n\n"
            "**Do instead**: read p as how surprising δ(x) would be under H0. How likely it is that A is really "
            "better also needs the power and how often such ideas work (Bayes' rule), or a replication."))
    c1, c2 = sections.controls(2) if presenter else st.columns(2)
    share = c1.select_slider(_("Experiments where A is truly better"), (0.1, 0.2, 0.5, 0.8), value=0.2,
                             key="pit-h0-share", format_func=_share)
    alpha = _alpha(c2, "pit-h0-alpha")
    with _simulating():
        res = _probability_of_h0(share, alpha=alpha)
    _show(pitfall_figures.probability_of_h0(res, font=_font(presenter)), "probability_of_h0", presenter)
    m1, m2, m3 = sections.columns(3) if presenter else st.columns(3)
    m1.metric(_("Of the results with p ≤ α, H0 true"), _share(res.h0_among_significant))
    m2.metric(_("α, which it is often taken for"), f"{alpha:g}")
    m3.metric(_("Bayes' rule with this power and false-alarm rate"), _share(res.bayes))
    if not presenter:
        st.caption(_(
            "{sims} simulated experiments of 200 items; B right on 70% of them, A on 75% where it is truly better "
            "(power {power}) and on 70% where H0 holds (p ≤ α on {false_alarms} of those); one-sided paired "
            "bootstrap, b = 1,000. Bayes' rule: false alarms · (1 − π) / (false alarms · (1 − π) + power · π), with "
            "π the share of experiments where A is truly better.").format(
                sims=f"{len(res.p_value):,}", power=f"{res.power:.0%}", false_alarms=f"{res.false_alarms:.1%}"))


def _important(presenter: bool) -> None:
    if not presenter:
        st.markdown(_(
            "On a large test set almost any difference is “significant”. Here A is better than B by only 0.5 points "
            "of accuracy, less than the smallest difference that would matter for the task, and yet most tests say "
            "“significant”. p says how sure we can be that there is **a** difference, not how **large** it is.\n\n"
            "**Do instead**: report δ with its interval (the effect size), and set it against the smallest "
            "difference that matters, fixed before the test. An interval wholly below it says: real, but too small "
            "to matter."))
    c1, c2 = sections.controls(2) if presenter else st.columns(2)
    n = c1.select_slider(_("Items per test set, n"), (1_000, 10_000, 100_000), value=100_000, key="pit-imp-n",
                         format_func=lambda x: f"{x:,}")
    points = {0.01: _("{points} point").format(points=1), 0.02: _("{points} points").format(points=2)}
    matters = c2.select_slider(_("Smallest difference that matters"), list(points), value=0.01, key="pit-imp-matters",
                               format_func=points.get)
    with _simulating():
        res = _not_important(n, matters=matters)
    _show(pitfall_figures.not_important(res, font=_font(presenter)), "not_important", presenter)
    m1, m2, m3 = sections.columns(3) if presenter else st.columns(3)
    m1.metric(_("Significant"), _share(res.power))
    m2.metric(_("Intervals wholly below what matters"), _share(res.below_what_matters.mean()))
    m3.metric(_("True δ"), _("{points} points").format(points=f"{100 * res.true_delta:.1f}"))
    if not presenter:
        st.caption(_("{sims} simulated test sets of {n} items, B right on 70% of them and A on 70.5%, agreeing on "
                     "85%; two-sided paired bootstrap with its 95% interval, b = 1,000.").format(
                         sims=len(res.delta), n=f"{n:,}"))


DEMOS = {"many-comparisons": _many, "peeking": _peek, "not-significant": _absence, "one-sided": _sides,
         "p-is-not-h0": _h0, "not-important": _important}
