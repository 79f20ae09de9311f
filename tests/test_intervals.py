import numpy as np
import pytest
from scipy import stats
from scipy.stats import _resampling as scipy_resampling
from statsmodels.stats.proportion import proportion_confint

from sigcore.statistics import intervals


def test_percentile_is_the_equal_tailed_quantile_interval():
    values = np.arange(1, 1001, dtype=float)
    assert intervals.percentile(values, 0.95) == pytest.approx(tuple(np.quantile(values, [0.025, 0.975])))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bca_equals_scipy_on_the_same_bootstrap_distribution(seed):
    rng = np.random.default_rng(seed)
    x = rng.exponential(size=40)  # skewed, so bias correction and acceleration both matter
    boot = np.array([rng.choice(x, size=40).mean() for _ in range(5_000)])
    low_level, high_level, _ = scipy_resampling._bca_interval(
        (x,), lambda s, axis: np.mean(s, axis=axis), -1, 0.05, boot, None, np)
    expected = np.quantile(boot, [low_level, high_level])
    jack = (x.sum() - x) / 39
    got = intervals.bca(boot, x.mean(), jack, np.ones(40), 0.90)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_bca_with_weighted_jackknife_equals_repeated_values():
    rng = np.random.default_rng(3)
    boot = rng.normal(size=2_000)
    jack, weights = np.array([0.1, -0.2, 0.5]), np.array([3, 1, 2])
    assert intervals.bca(boot, 0.05, jack, weights, 0.95) == pytest.approx(
        intervals.bca(boot, 0.05, np.repeat(jack, weights), np.ones(6), 0.95), rel=1e-12)


def test_bca_falls_back_to_percentile_when_all_resamples_tie():
    boot = np.zeros(100)
    assert intervals.bca(boot, 0.0, np.zeros(5), np.ones(5), 0.95) == (0.0, 0.0)


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
@pytest.mark.parametrize("seed", range(40))
def test_the_basic_interval_excludes_zero_exactly_when_the_bootstrap_rejects(alternative, seed):
    """BK12 / SLP3 eq. 4.48 rejects when max(#extreme, 1) / b <= alpha; the dual interval excludes 0 then only."""
    rng = np.random.default_rng(seed)
    b = int(rng.choice([20, 99, 100, 1_000, 1_001]))
    delta = float(rng.choice([0.0, 0.01, -0.01, 0.05, -0.05]))
    values = np.round(rng.normal(delta, 0.03, b), 3)  # a lattice, so ties with 2·delta happen
    alpha = float(rng.choice([0.1, 0.05, 0.01]))
    extreme = {"greater": values >= 2 * delta, "less": values <= 2 * delta,
               "two-sided": np.abs(values - delta) >= abs(delta)}[alternative].sum()
    rejects = max(extreme, 1) / b <= alpha and (delta > 0 if alternative == "greater" else delta < 0 if
                                                alternative == "less" else delta != 0)
    low, high = intervals.basic(values, delta, alpha, alternative, tol=1e-12)
    if 1 / b > alpha:  # b resamples cannot reach alpha: no bound either
        assert not rejects and np.isnan(low if alternative != "less" else high)
        return
    assert (low > 0 or high < 0) == rejects
    assert low <= delta <= high  # never past the estimate
    assert (high == np.inf) == (alternative == "greater") and (low == -np.inf) == (alternative == "less")


def test_the_basic_interval_is_nan_where_b_cannot_reach_alpha():
    assert np.isnan(intervals.basic(np.ones(10), 1.0, 0.05, "greater", 1e-12)[0])
    assert intervals.largest_count(0.05, 20) == 1 and intervals.largest_count(0.05, 19) == 0
    assert intervals.largest_count(0.1, 30) == 3  # 0.1 * 30 is 3.0000000000000004 in floats


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_one_sided_intervals_equal_scipys(alternative):
    x = np.random.default_rng(1).normal(0.2, 1, 30)
    t = stats.ttest_1samp(x, 0, alternative=alternative).confidence_interval(0.9)
    assert intervals.mean_interval(x, 0.9, alternative) == pytest.approx((t.low, t.high), rel=1e-12)
    cp = stats.binomtest(7, 20, alternative=alternative).proportion_ci(0.9, method="exact")
    assert intervals.clopper_pearson(7, 20, 0.9, alternative) == pytest.approx((cp.low, cp.high), rel=1e-12)
    values = np.arange(1, 1001, dtype=float)
    want = {"greater": (np.quantile(values, 0.1), np.inf), "less": (-np.inf, np.quantile(values, 0.9)),
            "two-sided": tuple(np.quantile(values, [0.05, 0.95]))}[alternative]
    assert intervals.percentile(values, 0.9, alternative) == pytest.approx(want, rel=1e-12)


def test_wilson_equals_statsmodels_and_reaches_0_and_1_exactly():
    for right in (0, 1, 50, 99, 100):
        x = np.r_[np.ones(right), np.zeros(100 - right)]
        want = proportion_confint(right, 100, alpha=0.05, method="wilson")
        assert intervals.wilson(x, 0.95) == pytest.approx(want, abs=1e-12)
    assert intervals.wilson(np.ones(100), 0.95)[1] == 1.0 and intervals.wilson(np.zeros(100), 0.95)[0] == 0.0


@pytest.mark.parametrize("level, alternative, fewest", [(0.95, "two-sided", 40), (0.95, "greater", 20),
                                                        (0.95, "less", 20), (0.99, "two-sided", 200)])
def test_a_percentile_end_needs_one_resample_in_its_tail(level, alternative, fewest):
    """Fewer resamples than that and the "interval" is their range, which can exclude the estimate: nan."""
    rng = np.random.default_rng(0)
    for b in (1, 2, fewest - 1, fewest, fewest + 1):
        low, high = intervals.percentile(rng.normal(size=b), level, alternative)
        ends = [x for x, side in ((low, "greater"), (high, "less")) if alternative in (side, "two-sided")]
        assert all(np.isnan(x) for x in ends) == (b < fewest) and all(np.isfinite(x) for x in ends) == (b >= fewest)


@pytest.mark.parametrize("b", [1, 2, 5])
def test_bca_gives_no_interval_from_a_handful_of_resamples(b):
    values = np.random.default_rng(b).normal(size=b)
    assert np.isnan(intervals.bca(values, 0.0, np.array([0.1, -0.2, 0.3]), np.ones(3), 0.95)).all()


@pytest.mark.parametrize("b", [30, 1000])
def test_percentile_of_each_column_is_the_percentile_column_by_column(b):
    values = np.random.default_rng(b).normal(size=(b, 7))
    low, high = intervals.percentile(values, 0.95, axis=0)
    for k in range(7):
        expected = intervals.percentile(values[:, k], 0.95)
        assert np.array_equal([low[k], high[k]], expected, equal_nan=True)
