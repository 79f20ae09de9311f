"""Multiple-comparison corrections: statsmodels' numbers, in the order given, monotone and capped at 1."""

import numpy as np
import pytest
import scipy.stats
from statsmodels.stats.multitest import multipletests

from sigcore import SettingsError, compare
from sigcore.statistics.multiple import METHODS, adjust, floor_reach

STATSMODELS = {"bonferroni": "bonferroni", "holm": "holm", "hochberg": "simes-hochberg", "bh": "fdr_bh",
               "by": "fdr_by"}
RNG = np.random.default_rng(0)
FAMILIES = {
    "uniform": RNG.uniform(size=12),
    "small and large": np.r_[RNG.uniform(0, 0.01, 5), RNG.uniform(0.2, 1, 5)],
    "ties": np.array([0.04, 0.01, 0.04, 0.2, 0.01, 0.04, 0.9, 0.2]),
    "floors and ones": np.array([1e-4, 1.0, 1e-4, 0.5, 1.0]),
    "one test": np.array([0.03]),
}


def test_every_method_is_checked_against_statsmodels():
    assert set(STATSMODELS) == set(METHODS)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("family", FAMILIES)
def test_equals_statsmodels_in_the_input_order(method, family):
    p = FAMILIES[family]
    expected = multipletests(p, method=STATSMODELS[method])[1]  # returned in the input order
    np.testing.assert_allclose(adjust(p, method), expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("method", ["bh", "by"])
@pytest.mark.parametrize("family", FAMILIES)
def test_false_discovery_rate_equals_scipy(method, family):
    p = FAMILIES[family]
    np.testing.assert_allclose(adjust(p, method), scipy.stats.false_discovery_control(p, method=method),
                               rtol=1e-12, atol=0)


def test_a_worked_family_by_hand():
    """p = .01, .04, .03, .005, .2, .5 (sorted .005, .01, .03, .04, .2, .5): BH multiplies the i-th smallest by
    6 / i and takes the running minimum from the top; BY multiplies that by 1 + 1/2 + ... + 1/6 = 2.45."""
    p = [0.01, 0.04, 0.03, 0.005, 0.2, 0.5]
    # sorted: .005·6 = .03, .01·3 = .03, .03·2 = .06, .04·1.5 = .06, .2·1.2, .5
    bh = [0.03, 0.06, 0.06, 0.03, 0.24, 0.5]
    np.testing.assert_allclose(adjust(p, "bh"), bh)
    np.testing.assert_allclose(adjust(p, "by"), np.minimum(np.array(bh) * 2.45, 1))


@pytest.mark.parametrize("method", METHODS)
def test_adjusted_p_follow_the_order_of_p_and_stay_in_range(method):
    p = np.random.default_rng(1).uniform(size=50) ** 3
    adjusted = adjust(list(p), method)
    order = np.argsort(p)
    assert np.all(np.diff(adjusted[order]) >= 0)  # a smaller p never gets a larger adjusted p
    assert np.all(adjusted >= p) and np.all(adjusted <= 1)


def test_holm_by_hand():
    # sorted: 0.01·3 = 0.03, 0.02·2 = 0.04, 0.04·1 = 0.04; input order 0.04, 0.01, 0.02
    np.testing.assert_allclose(adjust([0.04, 0.01, 0.02]), [0.04, 0.03, 0.04])
    np.testing.assert_allclose(adjust([0.5, 0.3, 0.02], "bonferroni"), [1.0, 0.9, 0.06])


@pytest.mark.parametrize("p_values, message", [
    ([], "non-empty"),
    ([[0.1, 0.2]], "flat list"),
    (0.3, "flat list"),
    ([0.1, float("nan")], "number 2 is nan"),
    ([0.1, 0.2, 1.5], "number 3 is 1.5"),
    ([-0.01], "number 1 is -0.01"),
    (["0.1", "low"], "numbers between 0 and 1"),
])
def test_bad_p_values_are_refused(p_values, message):
    with pytest.raises(SettingsError, match=message):
        adjust(p_values)


def test_a_zero_is_never_adjusted_as_zero():
    with pytest.raises(SettingsError, match=r"number 2 is 0, which a resampling test means as p < 1/b.*floors="):
        adjust([0.01, 0.0, 0.3])
    # 120 comparisons, each with no extreme resample of b = 1,000: p < 1/b is no evidence after Holm
    assert np.all(adjust(np.zeros(120), floors=1 / 1_001) > 0.05)
    np.testing.assert_allclose(adjust([0.0, 0.02], "bonferroni", floors=[0.01, 0.0]), [0.02, 0.04])


def test_results_are_adjusted_with_their_own_floors():
    gold = [1] * 200
    results = [compare(gold, [1] * 200, [0] * 200, n_resamples=100, seed=s, test="bootstrap", alternative="greater")
               for s in range(3)]
    assert all(r.n_extreme == 0 and r.p_value == r.p_floor == 0.01 for r in results)
    np.testing.assert_allclose(adjust(results), [0.03, 0.03, 0.03])


def test_unknown_method_is_refused_with_the_choices():
    with pytest.raises(SettingsError, match=r"unknown correction 'sidak'.*bonferroni, holm, hochberg, bh"):
        adjust([0.1], "sidak")


def test_a_closed_form_zero_is_a_real_zero_when_results_are_given():
    # a constant difference: the limit p = 0
    res = compare(None, [0.5] * 60, [0.25] * 60, metric="mean", test="t", alternative="greater")
    assert res.p_value == 0 and not res.resampled
    np.testing.assert_array_equal(adjust([res, res]), [0.0, 0.0])


@pytest.mark.slow  # 41 families of up to 3,000 p-values per method
@pytest.mark.parametrize("method", METHODS)
def test_the_resamples_a_family_needs_reach_alpha_and_a_thousand_fewer_do_not(method):
    """For random family sizes, α and b: the smallest corrected p of m p-values at the floor 1/b is statsmodels'
    of m copies of 1/b; where it is above α, the b said brings it to α (from the factor before the cap at 1: 2,940
    comparisons at b = 1,000 need 59,000, not the 20,000 a capped 1 would say) and 1,000 fewer do not."""
    rng = np.random.default_rng(7)
    for m, alpha, b in [(2_940, 0.05, 1_000), *zip(rng.integers(1, 3_000, 40), rng.choice([0.01, 0.05, 0.1], 40),
                                                    rng.integers(100, 20_000, 40))]:
        smallest, needed = floor_reach([1 / b] * m, method, alpha, b)
        assert smallest == pytest.approx(multipletests([1 / b] * m, method=STATSMODELS[method])[1].min(), rel=1e-12)
        assert (needed is None) == (smallest <= alpha)
        if needed is not None:
            assert needed % 1_000 == 0 and adjust([1 / needed] * m, method).min() <= alpha
            assert needed == 1_000 or adjust([1 / (needed - 1_000)] * m, method).min() > alpha
    assert floor_reach([1 / 1_000] * 2_940, "holm", 0.05, 1_000) == (1.0, 59_000)
