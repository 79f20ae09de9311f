"""The Classroom's "Common mistakes": six ways to misuse a significance test, each a live simulation.

Widgets, words and layout only: every number comes from :mod:`sigcore.teaching.pitfalls`, every figure from
:mod:`sigcore.teaching.pitfall_figures`. Simulations are cached on their settings, so moving a widget back is instant.
"""

from __future__ import annotations

import math

import streamlit as st

from sigcore.teaching import pitfall_figures, pitfalls

from .figure import show

ALPHAS = (0.01, 0.05, 0.10)
_CACHE = dict(max_entries=32, show_spinner="Simulating test sets…")
_many_comparisons = st.cache_data(pitfalls.many_comparisons, **_CACHE)
_peeking = st.cache_data(pitfalls.peeking, **_CACHE)
_not_significant = st.cache_data(pitfalls.not_significant, **_CACHE)
_one_sided = st.cache_data(pitfalls.one_sided, **_CACHE)
_probability_of_h0 = st.cache_data(pitfalls.probability_of_h0, **_CACHE)
_not_important = st.cache_data(pitfalls.not_important, **_CACHE)


def section() -> None:
    st.markdown(
        "Each tab is an experiment where we **know the truth**: we simulate many test sets, run the paired "
        "bootstrap on each, and count how often the conclusion is wrong. Remember what the test promises: if A and "
        "B are really equally good (H0), p ≤ α happens on only a share α of test sets, usually 1 in 20. Each "
        "mistake below quietly breaks that promise.")
    tabs = st.tabs(["Many comparisons", "Peeking", "“Not significant” ≠ “equal”", "One-sided or two-sided",
                    "p ≠ P(H0 is true)", "Significant ≠ important"])
    for tab, demo in zip(tabs, (_many, _peek, _absence, _sides, _h0, _important)):
        with tab:
            demo()


def _alpha(column, key: str) -> float:
    return column.select_slider("α", ALPHAS, value=0.05, key=key)


def _share(x: float) -> str:
    return f"{x:.0%}"


def _noise(rate: float, n: int) -> str:
    """The half-width of a simulated rate's 95% interval, in percentage points."""
    return f"{1.96 * math.sqrt(max(rate * (1 - rate), 0.05 * 0.95) / n):.0%}"


def _many() -> None:
    st.markdown(
        "You try 10 new systems, test each against the baseline, and report the one that wins “significantly”. "
        "But every test has a chance α of a false alarm, and with k tests the chance of **at least one** grows "
        "fast: about 1 − (1 − α)ᵏ, or 40% for 10 tests at α = 0.05. Here every system is exactly as good as the "
        "baseline, so each “significant” result is a false alarm.\n\n"
        "**Do instead**: correct the p-values for the number of tests. Holm's method multiplies the smallest p by "
        "k, the next by k − 1, and so on; then the chance of any false alarm stays at most α "
        "(`sigcore.statistics.multiple.adjust`).")
    c1, c2 = st.columns(2)
    k = c1.slider("Systems compared with the baseline, k", 2, 15, 10, key="pit-k")
    alpha = _alpha(c2, "pit-k-alpha")
    res = _many_comparisons(k, alpha=alpha)
    show(pitfall_figures.many_comparisons(res), "many_comparisons")
    m1, m2, m3 = st.columns(3)
    m1.metric(f"Some p ≤ α among {k}, no correction", _share(res.uncorrected[-1]))
    m2.metric("With Holm's correction", _share(res.holm[-1]))
    m3.metric("1 − (1 − α)ᵏ", _share(res.independent[-1]))
    st.caption(f"{res.n_sims} simulated experiments, each a baseline and {k} systems right on 70% of 1,000 items "
               "(each agreeing with the baseline on 90% of them), tested two-sided with the paired bootstrap, "
               "b = 1,000. The rate stays a little below the formula, which assumes independent tests that are "
               "each wrong exactly α of the time: these tests share the baseline, so they are a little alike, "
               f"and the bootstrap on right/wrong items is slightly cautious. With {res.n_sims} experiments each "
               f"point is itself uncertain by about ±{_noise(res.uncorrected[-1], res.n_sims)} (95%), so at small k "
               "a point can lie above α by chance.")


def _peek() -> None:
    st.markdown(
        "You test on the first items, then on more, and stop as soon as p ≤ α: the result you hoped for. But "
        "luck moves p up and down as items come in, and every look is one more chance for it to dip below α. "
        "Here A and B are equally good, so every stop is a false alarm.\n\n"
        "**Do instead**: fix the size of the test set before you look, and test once; or, to look as often as you "
        "like, use a confidence sequence (the Compare page's “Could evaluating have stopped early?”), which holds "
        "at every number of items at once.")
    c1, c2 = st.columns(2)
    step = c1.select_slider("Test after every … items", (25, 50, 100, 250), value=50, key="pit-step")
    alpha = _alpha(c2, "pit-peek-alpha")
    res = _peeking(step=step, alpha=alpha)
    show(pitfall_figures.peeking(res), "peeking")
    m1, m2, m3 = st.columns(3)
    m1.metric("“Significant” with peeking", _share(res.peeking))
    m2.metric(f"Testing once at n = {res.looks[-1]}", _share(res.once))
    m3.metric("Confidence sequence, after every item", _share(res.sequence),
              help="Waudby-Smith & Ramdas (2024): the same experiments, watched after every single item, stopped "
                   "the moment its one-sided bound passes 0; it may stop at any item and still holds α.")
    st.caption(f"{len(res.p_once)} simulated experiments of up to {res.looks[-1]} items, on which A and B are both "
               "right on 70% of items; one-sided paired bootstrap (H1: A is better), b = 1,000. The line follows "
               "one of them" + (", stopped by peeking though one test on all items finds nothing."
                                 if res.stopped_at[res.example] else "."))


def _absence() -> None:
    st.markdown(
        "Here A **is** better: right on 75% of items against 70% for B. Yet on small test sets most tests say "
        "“not significant”. That does not mean A and B are equal. Look at the intervals: nearly all contain the "
        "true difference, and most contain 0 as well. The data cannot tell the two apart. **Absence of evidence "
        "is not evidence of absence.**\n\n"
        "**Do instead**: report the interval of δ with p. A wide interval says the test set is too small to "
        "conclude either way (see the power section above).")
    c1, c2 = st.columns(2)
    n = c1.select_slider("Items per test set, n", (50, 100, 200, 500, 1_000), value=100, key="pit-n")
    gap = c2.select_slider("True advantage of A", (0.02, 0.05, 0.10), value=0.05, key="pit-gap",
                           format_func=lambda x: f"{x:.0%} points")
    res = _not_significant(n, 0.75, 0.75 - gap)
    show(pitfall_figures.not_significant(res), "not_significant")
    missed, covers = ~res.significant, res.contains(res.true_delta)
    m1, m2, m3 = st.columns(3)
    m1.metric("Significant (the power)", _share(res.power))
    m2.metric("Intervals containing the true δ", _share(covers.mean()))
    m3.metric("Not significant, yet containing the true δ", f"{(covers & missed).sum()} of {missed.sum()}")
    st.caption(f"{len(res.delta)} simulated test sets of {n} items, A and B agreeing on 85% of them; two-sided "
               "paired bootstrap with its 95% percentile interval, b = 1,000.")


def _sides() -> None:
    st.markdown(
        "A one-sided test asks only “is A better?”, so it counts one tail of the distribution: on the same data "
        "its p is about **half** the two-sided p. That is fair when the side was chosen **before** seeing the "
        "data. Choosing it afterwards (“B came out ahead, so let us test whether B is better”) lets both tails "
        "count and **doubles** the false alarms: about 2·α instead of α. Here A and B are equally good.\n\n"
        "**Do instead**: write down H1 before you run the test; when in doubt, test two-sided.")
    c1, c2 = st.columns(2)
    n = c1.select_slider("Items per test set, n", (50, 100, 200, 500, 1_000), value=200, key="pit-side-n")
    alpha = _alpha(c2, "pit-side-alpha")
    res = _one_sided(n, alpha=alpha)
    show(pitfall_figures.one_sided(res), "one_sided")
    for column, (side, rate) in zip(st.columns(3), res.rates().items()):
        column.metric(f"p ≤ α, {side}", _share(rate))
    i = res.example
    ahead = "A" if res.delta[i] >= 0 else "B"
    st.markdown(f"**The same data, two p-values.** On test set {i + 1}, δ(x) = {res.delta[i]:+.3f}, so the side "
                f"picked afterwards is “{ahead} is better”:")
    m1, m2 = st.columns(2)
    m1.metric("One-sided p, side picked after seeing δ(x)", f"{res.p_chosen[i]:.3f}")
    m2.metric("Two-sided p", f"{res.p_two_sided[i]:.3f}")
    st.caption(f"{len(res.delta)} simulated test sets of {n} items on which A and B are each right on 70% of "
               "items, each tested three ways with the same bootstrap resamples, b = 1,000.")


def _h0() -> None:
    st.markdown(
        "“p = .03, so there is a 3% chance that A is not better.” No: p is the probability of a δ as large as "
        "ours **if H0 were true**, P(δ(X) ≥ δ(x) | H0) (eq. 4.47), not the probability that H0 is true given our "
        "δ. How often a “significant” result has H0 true behind it depends on how many of the ideas we test "
        "really work, and on the power. Here some experiments compare an A truly better by 5 points, the others "
        "two equal systems; each is tested once, one-sided.\n\n"
        "**Do instead**: read p as how surprising δ(x) would be under H0. How likely it is that A is really "
        "better also needs the power and how often such ideas work (Bayes' rule), or a replication.")
    c1, c2 = st.columns(2)
    share = c1.select_slider("Experiments where A is truly better", (0.1, 0.2, 0.5, 0.8), value=0.2,
                             key="pit-h0-share", format_func=_share)
    alpha = _alpha(c2, "pit-h0-alpha")
    res = _probability_of_h0(share, alpha=alpha)
    show(pitfall_figures.probability_of_h0(res), "probability_of_h0")
    m1, m2, m3 = st.columns(3)
    m1.metric("Of the results with p ≤ α, H0 true", _share(res.h0_among_significant))
    m2.metric("α, which it is often taken for", f"{alpha:g}")
    m3.metric("Bayes' rule with this power and false-alarm rate", _share(res.bayes))
    st.caption(f"{len(res.p_value):,} simulated experiments of 200 items; B right on 70% of them, A on 75% where "
               f"it is truly better (power {res.power:.0%}) and on 70% where H0 holds (p ≤ α on {res.false_alarms:.1%} "
               "of those); one-sided paired bootstrap, b = 1,000. Bayes' rule: false alarms · (1 − π) / (false "
               "alarms · (1 − π) + power · π), with π the share of experiments where A is truly better.")


def _important() -> None:
    st.markdown(
        "On a large test set almost any difference is “significant”. Here A is better than B by only 0.5 "
        "points of accuracy, less than the smallest difference that would matter for the task, and yet most "
        "tests say “significant”. p says how sure we can be that there is **a** difference, not how **large** "
        "it is.\n\n"
        "**Do instead**: report δ with its interval (the effect size), and set it against the smallest "
        "difference that matters, fixed before the test. An interval wholly below it says: real, but too small "
        "to matter.")
    c1, c2 = st.columns(2)
    n = c1.select_slider("Items per test set, n", (1_000, 10_000, 100_000), value=100_000, key="pit-imp-n",
                         format_func=lambda x: f"{x:,}")
    matters = c2.select_slider("Smallest difference that matters", (0.01, 0.02), value=0.01, key="pit-imp-matters",
                               format_func=lambda x: f"{100 * x:g} point" + "s" * (x != 0.01))
    res = _not_important(n, matters=matters)
    show(pitfall_figures.not_important(res), "not_important")
    m1, m2, m3 = st.columns(3)
    m1.metric("Significant", _share(res.power))
    m2.metric("Intervals wholly below what matters", _share(res.below_what_matters.mean()))
    m3.metric("True δ", f"{100 * res.true_delta:.1f} points")
    st.caption(f"{len(res.delta)} simulated test sets of {n:,} items, B right on 70% of them and A on 70.5%, "
               "agreeing on 85%; two-sided paired bootstrap with its 95% interval, b = 1,000.")
