"""The Classroom's common mistakes: the simulations agree with theory, the figures and the page show them.

Rates are checked within 4 binomial standard errors. The paired bootstrap (and the permutation test) on right/wrong
items is slightly conservative: ties count as extreme on a lattice of 1/n steps, so under H0 it rejects about 4%
of test sets at α = 5%. Checks that need a test of size exactly α use the z-test on 1,000 items (4.9%) instead.
"""

import math
from statistics import NormalDist

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore import SettingsError
from sigcore.teaching import pitfall_figures, pitfalls

ALPHA = 0.05


def se(rate: float, n: int) -> float:
    return math.sqrt(rate * (1 - rate) / n)


@pytest.mark.slow
def test_uncorrected_error_grows_like_one_minus_one_minus_alpha_to_the_k_and_holm_keeps_alpha():
    res = pitfalls.many_comparisons(5, test="z", n_sims=700, seed=1)
    for rate, theory in zip(res.uncorrected, res.independent):
        assert abs(rate - theory) <= 4 * se(theory, 700)  # two-sided tests sharing a baseline: nearly independent
    assert np.all(res.holm <= ALPHA + 4 * se(ALPHA, 700))
    assert res.uncorrected[-1] > ALPHA + 4 * se(ALPHA, 700)


def test_with_the_bootstrap_the_error_grows_too_but_stays_under_the_formula():
    res = pitfalls.many_comparisons(5, n_sims=400, seed=2)
    assert np.all(np.diff(res.uncorrected) >= 0) and res.holm[0] == res.uncorrected[0]
    assert np.all(res.holm <= res.uncorrected) and np.all(res.holm <= ALPHA + 4 * se(ALPHA, 400))
    assert np.all(res.uncorrected <= res.independent + 4 * np.sqrt(res.independent * (1 - res.independent) / 400))
    assert res.uncorrected[-1] > 3 * ALPHA


@pytest.mark.slow
def test_peeking_finds_more_than_testing_once_which_keeps_alpha():
    res = pitfalls.peeking(n_sims=400, seed=3)
    assert abs(res.once - ALPHA) <= 4 * se(ALPHA, 400)
    assert res.peeking > res.once + 4 * se(res.peeking, 400)
    assert np.all(res.stopped_at[res.p_once <= ALPHA] > 0)  # significant at the end means it stopped somewhere
    # the confidence sequence is watched after every item, far more often than peeking's every 50, and holds α
    assert res.sequence <= ALPHA + 2 * se(ALPHA, 400) and res.sequence < res.peeking


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_the_peeking_lessons_sequence_stops_where_the_engines_sequence_does(alternative):
    from sigcore import sequential

    rng = np.random.default_rng(5)
    a = (rng.random((40, 300)) < 0.75).astype(float)
    b = (rng.random((40, 300)) < {"greater": 0.6, "less": 0.9, "two-sided": 0.6}[alternative]).astype(float)
    stops = pitfalls._sequence_stops(a - b, 0.05, alternative)
    for row, stop in enumerate(stops):  # one-sided at α: the engine's two-sided sequence at 2α, on H1's side
        r = sequential.run(a[row], b[row], alpha=0.05 if alternative == "two-sided" else 0.1)
        low, high = r.lower, r.upper
        hits = {"greater": low > 0, "less": high < 0, "two-sided": (low > 0) | (high < 0)}[alternative]
        assert stop == (int(np.argmax(hits)) + 1 if hits.any() else 0)
    assert stops.any()  # a real difference: some stop


def test_the_peeking_example_stops_early_although_the_last_test_does_not_reject():
    res = pitfalls.peeking(n_sims=30, seed=4)
    stop, p = res.stopped_at[res.example], res.trajectory
    assert 0 < stop < res.looks[-1] and p[-1] == res.p_once[res.example] > ALPHA
    first = np.flatnonzero(p < ALPHA)[0]  # the trajectory is the same p the experiment stopped on
    assert res.looks[first] == stop
    assert list(res.looks) == list(range(50, 501, 50))


def test_not_significant_intervals_still_contain_the_true_difference():
    res = pitfalls.not_significant(n_sims=400, seed=5)
    missed = ~res.significant
    assert 0.1 < res.power < 0.45  # a true 5 points on 100 items is usually missed
    covers = res.contains(res.true_delta)
    assert abs(covers.mean() - 0.95) <= 4 * se(0.95, 400)
    assert abs(covers[missed].mean() - 0.95) <= 4 * se(0.95, missed.sum())
    assert res.true_delta == pytest.approx(0.05)


@pytest.mark.slow
def test_choosing_the_side_after_seeing_the_data_doubles_false_positives():
    res = pitfalls.one_sided(1_000, test="z", n_sims=1_000, seed=6)
    two, fixed, chosen = res.rates().values()
    assert abs(two - ALPHA) <= 4 * se(ALPHA, 1_000) and abs(fixed - ALPHA) <= 4 * se(ALPHA, 1_000)
    assert abs(chosen - 2 * ALPHA) <= 4 * se(2 * ALPHA, 1_000)


def test_with_the_bootstrap_the_chosen_side_doubles_the_fixed_side():
    res = pitfalls.one_sided(n_sims=400, seed=7)
    _, fixed, chosen = res.rates().values()
    assert abs(chosen - 2 * fixed) <= 4 * se(2 * fixed, 400)
    i = res.example
    assert res.p_chosen[i] < ALPHA <= res.p_two_sided[i]


def test_one_sided_p_is_about_half_the_two_sided_p_on_the_same_data():
    res = pitfalls.one_sided(n_sims=20, seed=8)
    a, b = pitfalls.simulate_test_sets(20, 200, 0.7, 0.7, 0.85, np.random.default_rng(8))  # as documented
    for s in np.flatnonzero(res.delta != 0):
        side = "greater" if res.delta[s] > 0 else "less"
        one, two = (sigcore.compare([1] * 200, a[s], b[s], alternative=alternative, n_resamples=20_000,
                                    ci_method=None, seed=int(s), test="bootstrap")
                    for alternative in (side, "two-sided"))
        assert res.delta[s] == one.delta
        assert one.p_value / two.p_value == pytest.approx(0.5, abs=0.1)
        # the demo's p (b = 1,000, other resamples) estimates the same p
        assert abs(res.p_chosen[s] - one.p_value) <= 4 * se(one.p_value, 1_000) + 4 * se(one.p_value, 20_000)
        assert abs(res.p_two_sided[s] - two.p_value) <= 4 * se(two.p_value, 1_000) + 4 * se(two.p_value, 20_000)


@pytest.mark.slow
def test_share_of_h0_among_significant_results_follows_bayes_rule_not_alpha():
    """With the z-test on 1,000 items (size α), power from the normal distribution of δ: P(H0 | p ≤ α) =
    α(1 − π) / (α(1 − π) + power · π), far from α when few ideas work."""
    n, share = 1_000, 0.2
    res = pitfalls.probability_of_h0(share, n=n, true_delta=0.03, test="z", n_sims=4_000, seed=12)
    both, only_a, only_b, neither = pitfalls.outcome_probabilities(0.73, 0.70, 0.85)
    spread = math.sqrt((only_a + only_b - 0.03**2) / n)  # sd of δ(x) on n items
    power = 1 - NormalDist().cdf(NormalDist().inv_cdf(1 - ALPHA) - 0.03 / spread)
    assert abs(res.power - power) <= 4 * se(power, res.real.sum())
    assert abs(res.false_alarms - ALPHA) <= 4 * se(ALPHA, (~res.real).sum())
    theory = ALPHA * (1 - share) / (ALPHA * (1 - share) + power * share)
    assert 0.15 < theory < 0.3 and abs(res.h0_among_significant - theory) <= 4 * se(theory, res.significant.sum())
    assert res.bayes == pytest.approx(theory, abs=0.05)


def test_share_of_h0_among_significant_counts_the_experiments():
    res = pitfalls.probability_of_h0(0.5, n_sims=200, seed=13)
    significant = res.p_value <= ALPHA
    assert res.h0_among_significant == np.sum(significant & ~res.real) / significant.sum()
    assert res.power == np.mean(significant[res.real]) and res.false_alarms == np.mean(significant[~res.real])
    assert abs(res.real.mean() - 0.5) <= 4 * se(0.5, 200)


def test_significant_is_not_important_on_a_large_test_set():
    res = pitfalls.not_important(n_sims=30, seed=14)  # 100,000 items, A better by 0.5 points, 1 point matters
    assert res.power >= 0.8 and res.below_what_matters.mean() >= 0.9
    assert res.true_delta == pytest.approx(0.005) and res.matters == 0.01
    assert np.array_equal(res.below_what_matters, res.ci_high < 0.01)
    small = pitfalls.not_important(1_000, n_sims=30, seed=14)  # the same gap on 1,000 items: rarely significant
    assert small.power < 0.3 and small.below_what_matters.mean() < 0.25  # about 7% and 6%: the interval is wide


SMALL = {
    "many_comparisons": dict(k_max=3, n_sims=40),
    "peeking": dict(n_max=100, step=25, n_sims=10),
    "not_significant": dict(n_sims=10),
    "one_sided": dict(n_sims=10),
    "probability_of_h0": dict(n_sims=60),
    "not_important": dict(n=10_000, n_sims=10),
}


@pytest.mark.parametrize("demo", SMALL)
def test_same_seed_same_numbers(demo):
    run = getattr(pitfalls, demo)
    first, again, other = run(**SMALL[demo], seed=9), run(**SMALL[demo], seed=9), run(**SMALL[demo], seed=10)
    fields = [name for name, value in vars(first).items() if isinstance(value, np.ndarray)]
    assert all(np.array_equal(getattr(first, f), getattr(again, f)) for f in fields)
    assert not all(np.array_equal(getattr(first, f), getattr(other, f)) for f in fields)


@pytest.mark.parametrize("call, message", [
    (lambda: pitfalls.many_comparisons(0), "`k_max` must be a positive integer, not 0"),
    (lambda: pitfalls.peeking(step=2.5), "`step` must be a positive integer"),
    (lambda: pitfalls.not_significant(alpha=5), "`alpha` must be a number strictly between 0 and 1, not 5"),
    (lambda: pitfalls.one_sided(n_sims=0), "`n_sims` must be a positive integer"),
    (lambda: pitfalls.one_sided(test="anova", n_sims=1), "unknown test 'anova'"),
    (lambda: pitfalls.not_significant(accuracy_a=0.99, accuracy_b=0.5, n_sims=1), "agree on 0.85"),
])
def test_bad_settings_are_refused(call, message):
    with pytest.raises(SettingsError, match=message):
        call()


@pytest.fixture(scope="module")
def results():
    return {demo: getattr(pitfalls, demo)(**settings, seed=11) for demo, settings in SMALL.items()}


def _lines(fig, axis):
    return sorted(shape[f"{axis}0"] for shape in fig.to_dict()["layout"]["shapes"] if shape[f"{axis}ref"] == axis)


def test_many_comparisons_figure(results):
    res = results["many_comparisons"]
    fig = pitfall_figures.many_comparisons(res)
    assert [t.name for t in fig.data] == ["no correction", "Holm", "1 − (1 − α)ᵏ"]
    for trace, y in zip(fig.data, (res.uncorrected, res.holm, res.independent)):
        assert list(trace.x) == [1, 2, 3] and np.allclose(trace.y, y)
    assert _lines(fig, "y") == [ALPHA]


def test_peeking_figure(results):
    res = results["peeking"]
    fig = pitfall_figures.peeking(res)
    assert list(fig.data[0].x) == [25, 50, 75, 100] and np.allclose(fig.data[0].y, res.trajectory)
    stop = res.stopped_at[res.example]
    assert len(fig.data) == 1 + bool(stop) and (not stop or fig.data[1].x == (stop,))
    assert _lines(fig, "y") == [ALPHA] and "every 25 items" in fig.layout.title.text


def test_not_significant_figure(results):
    res = results["not_significant"]
    fig = pitfall_figures.not_significant(res)
    missed, hit = fig.data
    assert len(hit.x) == res.significant.sum() and len(missed.x) + len(hit.x) == 10
    assert np.allclose(np.r_[missed.x - missed.error_x.arrayminus, hit.x - hit.error_x.arrayminus],
                       np.r_[res.ci_low[~res.significant], res.ci_low[res.significant]])
    assert _lines(fig, "x") == pytest.approx([0, 0.05])


def test_one_sided_figure(results):
    res = results["one_sided"]
    fig = pitfall_figures.one_sided(res)
    (bars,) = fig.data
    assert list(bars.y) == list(res.rates().values()) and len(bars.x) == 3
    assert _lines(fig, "y") == pytest.approx([ALPHA, 2 * ALPHA])


def test_probability_of_h0_figure(results):
    res = results["probability_of_h0"]
    fig = pitfall_figures.probability_of_h0(res)
    equal, better = fig.data
    assert sum(equal.y) == (~res.real).sum() and sum(better.y) == res.real.sum()
    assert equal.y[0] + better.y[0] == res.significant.sum()  # the first bar is p ≤ α
    assert _lines(fig, "x") == [ALPHA] and f"{res.h0_among_significant:.0%} had H0 true" in fig.layout.title.text


def test_not_important_figure(results):
    res = results["not_important"]
    fig = pitfall_figures.not_important(res)
    missed, hit = fig.data
    assert len(hit.x) == res.significant.sum() and np.allclose(hit.x + hit.error_x.array, res.ci_high[res.significant])
    assert _lines(fig, "x") == pytest.approx([0, 0.01])
    assert f"{res.below_what_matters.sum()} of 10" in fig.layout.title.text


@pytest.mark.parametrize("demo", SMALL)
def test_figures_are_slide_sized_and_need_no_mathjax(results, demo):
    fig = getattr(pitfall_figures, demo)(results[demo])
    assert fig.layout.height == 340 and fig.layout.title.text and "$" not in fig.to_json()
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text


@pytest.mark.slow
def test_the_section_shows_the_simulations_numbers_and_reruns_when_a_widget_moves():
    at = AppTest.from_string("from ui.pitfalls import section\nsection()", default_timeout=120).run()
    assert not at.exception and not at.error
    assert len(at.tabs) == 6 and len(at.get("plotly_chart")) == 6
    shown = {m.label: m.value for m in at.metric}
    many, peek = pitfalls.many_comparisons(10), pitfalls.peeking()
    absent, sides = pitfalls.not_significant(), pitfalls.one_sided()
    assert shown["Some p ≤ α among 10, no correction"] == f"{many.uncorrected[-1]:.0%}"
    assert shown["With Holm's correction"] == f"{many.holm[-1]:.0%}"
    assert shown["“Significant” with peeking"] == f"{peek.peeking:.0%}"
    assert shown["Testing once at n = 500"] == f"{peek.once:.0%}"
    assert shown["Confidence sequence, after every item"] == f"{peek.sequence:.0%}"
    assert shown["Significant (the power)"] == f"{absent.power:.0%}"
    for side, rate in sides.rates().items():
        assert shown[f"p ≤ α, {side}"] == f"{rate:.0%}"
    assert shown["Two-sided p"] == f"{sides.p_two_sided[sides.example]:.3f}"
    h0, important = pitfalls.probability_of_h0(0.2), pitfalls.not_important(100_000, matters=0.01)
    assert shown["Of the results with p ≤ α, H0 true"] == f"{h0.h0_among_significant:.0%}"
    assert shown["Bayes' rule with this power and false-alarm rate"] == f"{h0.bayes:.0%}"
    assert shown["Significant"] == f"{important.power:.0%}"
    assert shown["Intervals wholly below what matters"] == f"{important.below_what_matters.mean():.0%}"

    at.slider(key="pit-k").set_value(4).run()
    assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    assert shown["Some p ≤ α among 4, no correction"] == f"{pitfalls.many_comparisons(4).uncorrected[-1]:.0%}"


@pytest.mark.parametrize("demo", SMALL)
def test_presenter_figures_set_every_text_at_24_px(results, demo):
    from helpers.figures import assert_presenter_size

    assert_presenter_size(getattr(pitfall_figures, demo)(results[demo], font=24))


CHEAP = {"many-comparisons": {"pit-k": 3}, "peeking": {"pit-step": 250}, "not-significant": {},
         "one-sided": {"pit-side-n": 50}, "p-is-not-h0": {}, "not-important": {"pit-imp-n": 1_000}}


@pytest.mark.parametrize("name", CHEAP)
def test_each_mistake_alone_in_presenter_mode_shows_the_page_numbers_at_24_px(name):
    """In presenter mode a mistake is shown alone (the lecturer picks it in the corner): its settings, its chart with
    every text at 24 px, and the numbers its tab shows, without the paragraphs and captions."""
    import json

    import plotly.graph_objects as go

    from helpers.figures import assert_presenter_size

    def run(presenter: bool) -> AppTest:
        at = AppTest.from_string(f"from ui import pitfalls\npitfalls.DEMOS[{name!r}]({presenter})", default_timeout=60)
        for key, value in CHEAP[name].items():
            at.session_state[key] = value
        at.run()
        assert not at.exception and not at.error
        return at

    page, presenter = run(False), run(True)
    shown = {m.label: m.value for m in presenter.metric}
    assert len(shown) == 3 and shown.items() <= {m.label: m.value for m in page.metric}.items()
    assert page.markdown and page.caption and not presenter.markdown and not presenter.caption
    (chart,) = presenter.get("plotly_chart")
    assert_presenter_size(go.Figure(json.loads(chart.proto.spec)))
