"""Classroom figures: bars, lines, tails and titles show exactly the numbers sigcore computed; at presenter size every
text is 24 px or more."""

import itertools

import numpy as np
import pytest
import scipy.stats

import sigcore
from sigcore import teaching
from sigcore.comparison import counted
from sigcore.i18n import speaking
from sigcore.report.figures import MARK, TAIL
from sigcore.result import mc_interval
from sigcore.teaching.lesson_figures import p_value_histogram, power_curve, three_tests

from helpers.figures import assert_presenter_size, text_sizes

SLP3_A = [1, 1, 1, 0, 1, 0, 1, 1, 0, 1]
SLP3_B = [1, 0, 1, 1, 0, 1, 0, 1, 0, 0]
P_VALUES = np.r_[np.random.default_rng(0).uniform(size=997), 0.0, 0.05, 1.0]  # both ends and an edge


def results(a, b, alternative="greater"):
    return [sigcore.compare([1] * len(a), a, b, test=test, n_resamples=2_000, alternative=alternative,
                            ci_method=None) for test in ("bootstrap", "permutation", "t")]


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.10])
def test_p_value_bars_are_numpy_histogram_with_the_part_at_or_below_alpha_red(alpha):
    fig = p_value_histogram(P_VALUES, alpha)
    tail, body = fig.data
    expected, edges = np.histogram(P_VALUES, bins=20, range=(0, 1))
    np.testing.assert_array_equal(np.asarray(tail.y) + np.asarray(body.y), expected)
    np.testing.assert_array_equal(tail.y, np.histogram(P_VALUES[P_VALUES <= alpha], bins=edges)[0])
    assert tail.marker.color == TAIL and sum(tail.y) == np.sum(P_VALUES <= alpha)
    assert f"{teaching.rejection_rate(P_VALUES, alpha):.1%} have p ≤ α = {alpha:g}" in fig.layout.title.text


def test_uniform_line_is_the_count_per_bar_if_every_p_were_equally_likely():
    fig = p_value_histogram(P_VALUES, 0.05, test="permutation")
    flat = next(s for s in fig.layout.shapes if s.yref == "y")
    assert flat.y0 == flat.y1 == len(P_VALUES) / 20
    assert "Approximate randomisation, 1,000 test sets" in fig.layout.title.text


def test_power_curve_draws_each_point_on_a_log_axis_with_the_80_percent_line():
    ns, power = [25, 100, 400, 1_600], [0.1, 0.35, 0.795, 0.99]
    fig = power_curve(ns, power)
    (curve,) = fig.data
    assert list(curve.x) == ns and list(curve.y) == power and list(curve.text) == ["10%", "35%", "79.5%", "99%"]
    assert fig.layout.xaxis.type == "log"
    (target,) = fig.layout.shapes
    assert target.y0 == target.y1 == 0.8 and target.line.dash == "dash"
    assert "n = 1,600 is the smallest here with 80% power" in fig.layout.title.text


def test_power_curve_shows_the_simulated_points_with_their_intervals_beside_the_exact_line():
    ns, exact, simulated = [100, 400, 1_600], [0.32, 0.82, 0.99], [0.275, 0.785, 1.0]
    fig = power_curve(ns, exact, simulated=(simulated, 200))
    line, points = fig.data
    assert list(line.y) == exact and list(points.y) == simulated and fig.layout.showlegend
    for s, up, down in zip(simulated, points.error_y.array, points.error_y.arrayminus):
        low, high = mc_interval(round(s * 200), 200)  # Clopper-Pearson, as for a p-value's Monte-Carlo error
        assert (s - down, s + up) == pytest.approx((low, high))
    assert "n = 400 is the smallest" in fig.layout.title.text  # the exact line decides, not the noisy points


def test_three_panels_are_titled_with_the_p_of_each_test():
    res = results(SLP3_A, SLP3_B)
    titles = [a.text for a in three_tests(*res).layout.annotations if a.text.startswith("<b>")]
    assert titles == [f"<b>{name}</b><br>{p}" for name, p in
                      zip(("Paired bootstrap", "Exact permutation test", "Paired t-test"),
                          (res[0].p_text, "p = 11/32 = 0.3438", res[2].p_text))]  # 22 of the 64 swaps
    assert res[1].p_value == 11 / 32
    assert res[2].p_text == "p = 0.2217"  # scipy.stats.ttest_rel(A, B, alternative="greater")


def test_red_bars_are_the_resamples_and_permutations_each_p_counts():
    """The bootstrap's b resamples, s of them red (p = s / b); the permutation test's R random swaps and the observed
    assignment, which p counts too: (count + 1) of R + 1 red, so that red / all is p itself."""
    bootstrap, permutation, _ = res = results(SLP3_A * 3, SLP3_B * 3)
    assert not permutation.exact and permutation.n_resamples == 2_000
    bars = [trace for trace in three_tests(*res).data if trace.type == "bar"]
    for r, (body, tail), axis, extra in zip((bootstrap, permutation), (bars[:2], bars[2:]), ("x", "x2"), (0, 1)):
        assert body.xaxis == tail.xaxis == axis and tail.marker.color == TAIL
        assert sum(body.y) + sum(tail.y) == len(r.distribution) + extra
        assert sum(tail.y) == counted(r).sum() + extra
        assert sum(tail.y) / (sum(body.y) + sum(tail.y)) == pytest.approx(r.p_value, rel=1e-12)


def test_the_permutation_panel_draws_all_64_assignments_that_p_counts_22_of():
    """SLP3's ten documents: A and B differ on six, so 2⁶ = 64 assignments of A and B, the observed one among them.
    Enumerated here, independently of the engine: 22 have δ ≥ δ(x) = .20, p = 22/64 = 11/32. A student counting the
    red bars gets 22 (the engine's distribution holds the 63 others; p adds the observed one)."""
    a, b = np.array(SLP3_A), np.array(SLP3_B)
    deltas = []
    for swap in itertools.product((False, True), repeat=10):  # every item swapped or not: each of the 64 16 times
        s = np.array(swap)
        deltas.append((np.where(s, b, a).sum() - np.where(s, a, b).sum()) / 10)
    deltas = np.sort(np.round(deltas, 10))
    delta = (a.sum() - b.sum()) / 10
    assert len(deltas) == 1024 and np.sum(deltas >= delta - 1e-9) / 16 == 22
    bootstrap, permutation, t = results(SLP3_A, SLP3_B)
    assert permutation.exact and permutation.p_value == 22 / 64
    body, tail = [trace for trace in three_tests(bootstrap, permutation, t).data if trace.xaxis == "x2"]
    assert sum(body.y) + sum(tail.y) == 64 and sum(tail.y) == 22
    drawn = sorted(np.repeat(body.x, body.y).tolist() + np.repeat(tail.x, tail.y).tolist())
    assert drawn == pytest.approx(deltas[::16].tolist())  # the same 64 values, bar by bar (a bar per value)
    assert np.repeat(tail.x, tail.y) == pytest.approx(deltas[deltas >= delta - 1e-9][::16])  # red: δ ≥ δ(x)
    assert "64" in three_tests(bootstrap, permutation, t).layout.xaxis2.title.text


def test_identical_systems_have_one_assignment_drawn_once_and_p_1():
    bootstrap, permutation, t = results(SLP3_A, SLP3_A)
    body, tail = [trace for trace in three_tests(bootstrap, permutation, t).data if trace.xaxis == "x2"]
    assert permutation.p_value == 1 and (sum(body.y), sum(tail.y)) == (0, 1)


def test_marks_are_delta_and_twice_delta_for_the_bootstrap_and_delta_for_permutation():
    bootstrap, permutation, t = res = results(SLP3_A, SLP3_B)
    lines = [(s.xref, s.x0) for s in three_tests(*res).layout.shapes]
    assert [ref for ref, _ in lines] == ["x", "x", "x2", "x3"]
    assert [x for _, x in lines] == pytest.approx([bootstrap.delta, bootstrap.threshold, permutation.delta,
                                                   t.statistic])
    assert bootstrap.threshold == pytest.approx(0.4)


@pytest.mark.parametrize("alternative", sigcore.ALTERNATIVES)
def test_t_panel_is_students_density_with_n_minus_1_df_and_its_shaded_tail_is_p(alternative):
    *_, t = res = results(SLP3_A * 2, SLP3_B * 2, alternative)
    density, *tails = [trace for trace in three_tests(*res).data if trace.type == "scatter"]
    np.testing.assert_allclose(density.y, scipy.stats.t.pdf(np.asarray(density.x), 19), rtol=1e-12)
    assert all(tail.fillcolor == TAIL and tail.xaxis == "x3" for tail in tails)
    shaded = sum(np.trapezoid(tail.y, tail.x) for tail in tails)
    assert shaded == pytest.approx(t.p_value, abs=2e-3)  # beyond the drawn range the area is < 1e-3
    assert density.line.color == MARK


def test_constant_and_zero_differences_draw_without_a_t_line():
    constant = results([1] * 10, [0] * 10)
    labels = [a.text for a in three_tests(*constant).layout.annotations]
    assert "t = ∞: no spread in the differences" in labels
    same = three_tests(*results(SLP3_A, SLP3_A))
    assert "<b>Paired t-test</b><br>p = 1" in [a.text for a in same.layout.annotations]


def test_panels_must_come_in_order():
    bootstrap, permutation, t = results(SLP3_A, SLP3_B)
    with pytest.raises(ValueError, match="in that order"):
        three_tests(permutation, bootstrap, t)


def test_power_curve_says_when_no_size_reaches_the_target():
    assert "no n here reaches 80% power" in power_curve([50, 100], [0.5, 0.7]).layout.title.text


# ------------------------------------------------------------------ presenter size


@pytest.mark.parametrize("language", ["en", "zh"])
def test_presenter_figures_set_every_text_at_24_px(language):
    bootstrap, permutation, t = results(SLP3_A, SLP3_B)
    constant = results([1] * 10, [0] * 10)  # t = ∞: a note instead of the t line
    with speaking(language):
        figures = [p_value_histogram(P_VALUES, 0.05, test="mcnemar", font=24),
                   power_curve([25, 100, 400], [0.1, 0.5, 0.85], simulated=([0.1, 0.45, 0.9], 200), font=24),
                   three_tests(bootstrap, permutation, t, font=24), three_tests(*constant, font=24)]
    for fig in figures:
        assert_presenter_size(fig)


def test_the_page_figures_are_unchanged_by_the_presenter_option():
    """The walker finds the page figures' small texts, so it is not blind: they keep the page's sizes."""
    sizes = text_sizes(p_value_histogram(P_VALUES, 0.05))
    assert sizes["xaxis.ticks"] is None and any(size == 0 for size in sizes.values())  # the <sup> subtitle
    assert p_value_histogram(P_VALUES, 0.05).layout.height == 340
