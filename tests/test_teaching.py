"""Teaching numbers: the exact bootstrap p, simulated null p-values and power."""

import itertools
import math

import numpy as np
import pytest
import scipy.stats

import sigcore
from sigcore import SettingsError, teaching

SLP3_A = [1, 1, 1, 0, 1, 0, 1, 1, 0, 1]
SLP3_B = [1, 0, 1, 1, 0, 1, 0, 1, 0, 0]


def test_slp3_figure_4_11_exact_p():
    assert teaching.exact_bootstrap_p(SLP3_A, SLP3_B) == pytest.approx(0.2683568128, abs=1e-10)


@pytest.mark.parametrize("alternative", sigcore.ALTERNATIVES)
def test_exact_p_equals_brute_force_over_every_resample(alternative):
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 2, 6), rng.integers(0, 2, 6)
    delta = (a.sum() - b.sum()) / 6
    hits = 0
    for idx in itertools.product(range(6), repeat=6):  # all 6^6 equally likely resamples
        d = (a[list(idx)].sum() - b[list(idx)].sum()) / 6
        hits += {"greater": d >= 2 * delta - 1e-12, "less": d <= 2 * delta + 1e-12,
                 "two-sided": abs(d - delta) >= abs(delta) - 1e-12}[alternative]
    assert teaching.exact_bootstrap_p(a, b, alternative=alternative) == pytest.approx(hits / 6**6, abs=1e-12)


def test_monte_carlo_bootstrap_converges_to_the_exact_p():
    rng = np.random.default_rng(1)
    a, b = teaching.paired_outcomes(60, 0.75, 0.65, 0.8, rng)
    exact = teaching.exact_bootstrap_p(a, b)
    res = sigcore.compare([1] * 60, a, b, n_resamples=20_000, test="bootstrap", alternative="greater")
    assert abs(res.p_value - exact) < 4 * math.sqrt(exact * (1 - exact) / 20_000)


def test_identical_systems_have_exact_p_one():
    assert teaching.exact_bootstrap_p(SLP3_A, SLP3_A) == 1.0


def test_simulated_outcomes_have_the_asked_accuracies_and_agreement():
    a, b = teaching.paired_outcomes(200_000, 0.8, 0.7, 0.85, np.random.default_rng(2))
    assert a.mean() == pytest.approx(0.8, abs=0.005) and b.mean() == pytest.approx(0.7, abs=0.005)
    assert np.mean(a == b) == pytest.approx(0.85, abs=0.005)


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_null_p_values_reject_about_alpha(test):
    p = teaching.null_p_values(200, 0.7, 0.8, test=test, n_sims=300, n_resamples=500, seed=3)
    low, high = scipy.stats.binom.ppf([0.001, 0.999], 300, 0.05)
    assert low <= np.sum(p < 0.05) <= high


def test_power_grows_with_the_test_set_and_is_alpha_without_a_difference():
    curve = teaching.power([50, 400, 2000], 0.75, 0.70, 0.85, n_sims=100, n_resamples=500, seed=4)
    assert curve[0] < curve[1] < curve[2] and curve[2] > 0.9 and curve[0] < 0.5
    flat = teaching.power([300], 0.7, 0.7, 0.85, n_sims=300, n_resamples=500, seed=5)
    assert flat[0] <= scipy.stats.binom.ppf(0.999, 300, 0.05) / 300


def brute_power(n: int, accuracy_a: float, accuracy_b: float, agreement: float, alpha: float) -> float:
    """Every test set of n items as its counts (X only A right, Y only B right), weighed by its multinomial
    probability, each with the bootstrap p by enumeration: no search, no cut tails."""
    cells = teaching.outcome_probabilities(accuracy_a, accuracy_b, agreement)
    total = 0.0
    for x, y in itertools.product(range(n + 1), repeat=2):
        if x + y <= n:
            a, b = [1] * x + [0] * y + [1] * (n - x - y), [0] * x + [1] * y + [1] * (n - x - y)
            if teaching.exact_bootstrap_p(a, b) <= alpha:
                total += scipy.stats.multinomial.pmf([x, y, n - x - y], n, [cells[1], cells[2], cells[0] + cells[3]])
    return total


@pytest.mark.parametrize("n, a, b, agreement, alpha", [(12, 0.75, 0.70, 0.85, 0.05), (20, 0.8, 0.6, 0.7, 0.05),
                                                       (16, 0.7, 0.7, 0.6, 0.10), (25, 0.9, 0.8, 0.85, 0.01)])
def test_exact_power_is_the_sum_over_every_test_set(n, a, b, agreement, alpha):
    assert teaching.exact_power([n], a, b, agreement, alpha=alpha)[0] == pytest.approx(
        brute_power(n, a, b, agreement, alpha), abs=1e-9)


@pytest.mark.slow  # 1,200 simulated test sets of b = 2,000
def test_simulated_power_scatters_around_the_exact_power_and_the_smallest_n_is_stable():
    ns = (100, 400, 1_600)
    exact = teaching.exact_power(ns, 0.75, 0.70, 0.85)
    simulated = teaching.power(ns, 0.75, 0.70, 0.85, n_sims=400, n_resamples=2_000, seed=6)
    for e, s in zip(exact, simulated):
        assert abs(s - e) <= 4 * math.sqrt(e * (1 - e) / 400) + 0.01  # + 0.01: b = 2,000, not ∞
    # the normal approximation: n ≈ ((z_.95 + z_.80) · sd / δ)² = 365 items, so 400 is the first size of the grid
    sd, z = math.sqrt(0.15 - 0.05**2), scipy.stats.norm.ppf
    assert 200 < ((z(0.95) + z(0.8)) * sd / 0.05) ** 2 < 400
    grid = (25, 50, 100, 200, 400, 800)
    assert teaching.smallest_n(grid, teaching.exact_power(grid, 0.75, 0.70, 0.85)) == 400
    assert teaching.exact_power([300], 0.7, 0.7, 0.85)[0] <= 0.05  # no difference: at most α


def test_impossible_settings_are_refused():
    with pytest.raises(SettingsError, match="agree on 0.99 of the items"):
        teaching.paired_outcomes(10, 0.9, 0.7, 0.99, np.random.default_rng(0))
    with pytest.raises(SettingsError, match="equally long"):
        teaching.exact_bootstrap_p([1, 0], [1])


def test_drawn_test_sets_do_not_depend_on_how_many_are_drawn_at_a_time():
    whole = teaching.draw_test_sets(SLP3_A, SLP3_B, 2_111, seed=3)
    parts = [teaching.draw_test_sets(SLP3_A, SLP3_B, stop, start=start, seed=3)
             for start, stop in [(0, 1), (1, 11), (11, 111), (111, 2_111)]]
    assert [p.start for p in parts] == [0, 1, 11, 111]
    for field in ("documents", "score_a", "score_b", "delta", "counted"):
        assert np.array_equal(getattr(whole, field), np.concatenate([getattr(p, field) for p in parts]))
    assert not np.array_equal(whole.documents, teaching.draw_test_sets(SLP3_A, SLP3_B, 2_111, seed=4).documents)


def test_each_drawn_test_set_is_scored_like_figure_4_11():
    draws = teaching.draw_test_sets(SLP3_A, SLP3_B, 500, seed=0)
    a, b = np.array(SLP3_A), np.array(SLP3_B)
    assert draws.documents.shape == (500, 10) and draws.documents.min() == 0 and draws.documents.max() == 9
    for row, sa, sb, d, c in zip(draws.documents, draws.score_a, draws.score_b, draws.delta, draws.counted):
        assert (sa, sb) == (a[row].sum() / 10, b[row].sum() / 10)
        assert d == pytest.approx(sa - sb) and c == (round(d * 10) >= 4)  # 2·δ(x) = 0.4
    # documents are drawn uniformly with replacement: every one equally often
    counts = np.bincount(teaching.draw_test_sets(SLP3_A, SLP3_B, 10_000).documents.ravel(), minlength=10)
    assert scipy.stats.chisquare(counts).pvalue > 1e-4


def test_share_of_counted_draws_converges_to_the_exact_p():
    draws = teaching.draw_test_sets(SLP3_A, SLP3_B, 40_000, seed=7)
    exact = teaching.exact_bootstrap_p(SLP3_A, SLP3_B)
    assert abs(draws.counted.mean() - exact) < 4 * math.sqrt(exact * (1 - exact) / 40_000)


def test_drawing_needs_two_equally_long_lists():
    with pytest.raises(SettingsError, match="equally long"):
        teaching.draw_test_sets([1, 0, 1], [1, 0], 5)


def test_rejection_rate_counts_p_at_or_below_alpha_as_the_decision_does():
    assert teaching.rejection_rate([0.01, 0.05, 0.2, 0.04], 0.05) == 0.75


def test_smallest_n_is_the_first_size_reaching_the_target_or_none():
    assert teaching.smallest_n([50, 100, 200], [0.5, 0.8, 0.9]) == 100
    assert teaching.smallest_n([50, 100], [0.5, 0.7]) is None
