import numpy as np
import pytest
from scipy.stats import _resampling as scipy_resampling

from sigcore import intervals


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
