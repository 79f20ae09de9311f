"""Tests for sigcore.statistics.effect_sizes: each number against an independent reference (by hand, brute force,
scipy/statsmodels, simulation), the degenerate cases, the texts and input checks."""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from sigcore.errors import InputError, SettingsError
from sigcore.statistics.closed_form import wilcoxon
from sigcore.statistics.effect_sizes import (
    EffectSize,
    cohens_dz,
    discordant_odds_ratio,
    effect_sizes,
    hodges_lehmann_estimate,
)

ALTS = ("greater", "less", "two-sided")
MINUS = "\u2212"


# --- Cohen's d_z -------------------------------------------------------------------------------------------

def _nc_bisect(t: float, df: int, target: float) -> float:
    """The noncentrality nc with nct.cdf(t, df, nc) = target, by plain bisection (cdf falls as nc grows)."""
    low, high = (t - 60.0 if t < 100 else t / 100), t + 60.0 + 3 * t  # nc/t spans the quantiles of sqrt(V/df)
    assert stats.nct.cdf(t, df, low) > target > stats.nct.cdf(t, df, high)
    for _ in range(200):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if stats.nct.cdf(t, df, mid) > target:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _dz_reference(d: np.ndarray, level: float, alternative: str) -> tuple[float, float]:
    n = d.size
    t = d.mean() / d.std(ddof=1) * math.sqrt(n)
    alpha = 1 - level
    lower = {"greater": alpha, "less": None, "two-sided": alpha / 2}[alternative]
    upper = {"greater": None, "less": alpha, "two-sided": alpha / 2}[alternative]
    low = -math.inf if lower is None else _nc_bisect(t, n - 1, 1 - lower) / math.sqrt(n)
    high = math.inf if upper is None else _nc_bisect(t, n - 1, upper) / math.sqrt(n)
    return low, high


def test_dz_by_hand():
    a = [0.71, 0.64, 0.90, 0.55, 0.80, 0.62]
    b = [0.60, 0.66, 0.70, 0.50, 0.71, 0.58]
    d = [x - y for x, y in zip(a, b)]
    res = cohens_dz(a, b)
    assert res.value == pytest.approx(statistics.mean(d) / statistics.stdev(d), rel=1e-12)
    assert (res.name, res.title) == ("cohens_dz", "Cohen's d_z")
    assert res.text.startswith(f"d_z = {res.value:.2f} (95% CI ")


@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
@pytest.mark.parametrize("alternative", ALTS)
def test_dz_interval_equals_bisection_on_nct(level, alternative):
    rng = np.random.default_rng(int(level * 100) + len(alternative))
    for n, shift in ((5, 0.2), (20, 0.5), (60, -0.3), (200, 0.05)):
        a = rng.normal(shift, 1, n) + 3.0
        b = np.full(n, 3.0)
        res = cohens_dz(a, b, confidence_level=level, alternative=alternative)
        low, high = _dz_reference(a - b, level, alternative)
        assert res.ci_low == pytest.approx(low, rel=1e-9, abs=1e-9)
        assert res.ci_high == pytest.approx(high, rel=1e-9, abs=1e-9)
        assert res.ci_low <= res.value <= res.ci_high


def test_dz_interval_covers_the_truth_95_percent():
    rng = np.random.default_rng(2024)
    n, true_dz, runs = 20, 0.5, 2000
    covered = 0
    for _ in range(runs):
        d = rng.normal(true_dz, 1.0, n)  # sd 1, so the true d_z is the mean
        res = cohens_dz(d, np.zeros(n))
        covered += res.ci_low <= true_dz <= res.ci_high
    assert 0.93 <= covered / runs <= 0.97


def test_dz_interval_excludes_zero_exactly_when_the_t_test_rejects():
    # at nc = 0 the noncentral t is Student's t: the bound passes 0 where the paired t-test's p passes alpha
    rng = np.random.default_rng(7)
    for _ in range(40):
        n = int(rng.integers(3, 40))
        a, b = rng.normal(0.3, 1, n), rng.normal(0, 1, n)
        for alternative in ALTS:
            res = cohens_dz(a, b, alternative=alternative)
            p = stats.ttest_rel(a, b, alternative=alternative).pvalue
            excludes = res.ci_low > 0 or res.ci_high < 0
            assert excludes == (p < 0.05), (n, alternative, p, res)


def test_dz_one_sided_bound_is_the_two_sided_end_at_twice_the_tail():
    rng = np.random.default_rng(3)
    a, b = rng.normal(0.4, 1, 25), rng.normal(0, 1, 25)
    two = cohens_dz(a, b, confidence_level=0.90)
    assert cohens_dz(a, b, alternative="greater").ci_low == pytest.approx(two.ci_low, rel=1e-10)
    assert cohens_dz(a, b, alternative="less").ci_high == pytest.approx(two.ci_high, rel=1e-10)
    assert cohens_dz(a, b, alternative="greater").ci_high == math.inf
    assert cohens_dz(a, b, alternative="less").ci_low == -math.inf


@pytest.mark.parametrize("alternative", ALTS)
def test_dz_swapping_a_and_b_mirrors_it(alternative):
    rng = np.random.default_rng(11)
    a, b = rng.normal(0.2, 1, 15), rng.normal(0, 1, 15)
    mirror = {"greater": "less", "less": "greater", "two-sided": "two-sided"}[alternative]
    ab = cohens_dz(a, b, alternative=alternative)
    ba = cohens_dz(b, a, alternative=mirror)
    assert (ba.value, ba.ci_low, ba.ci_high) == (-ab.value, -ab.ci_high, -ab.ci_low)


@pytest.mark.parametrize("n", [3, 30, 100])
def test_dz_interval_is_continuous_where_scipy_nct_hands_over(n):
    # t = 1005, just past where the module integrates instead of calling scipy's nct (still exact there)
    z = np.random.default_rng(n).normal(0, 1, n)
    d = 1 + (z - z.mean()) / z.std(ddof=1) * math.sqrt(n) / 1005
    res = cohens_dz(d, np.zeros(n))
    assert res.value * math.sqrt(n) == pytest.approx(1005, rel=1e-9)
    low, high = _dz_reference(d, 0.95, "two-sided")
    assert (res.ci_low, res.ci_high) == pytest.approx((low, high), rel=1e-8)


def test_dz_huge_effect_where_scipy_nct_gives_nan():
    # t = 1e6 is beyond scipy's series; there Z is negligible beside nc, so T ~ nc / S with S^2 ~ chi2(df) / df
    # and the ends are d_z times the quantiles of S
    n = 1001
    a = np.r_[np.full(n - 1, 1.0), 1.001]
    res = cohens_dz(a, np.zeros(n))
    df = n - 1
    assert res.ci_low == pytest.approx(res.value * math.sqrt(stats.chi2.ppf(0.025, df) / df), rel=1e-4)
    assert res.ci_high == pytest.approx(res.value * math.sqrt(stats.chi2.ppf(0.975, df) / df), rel=1e-4)


def test_dz_without_spread():
    up = cohens_dz([1.0, 2.0, 3.0], [0.5, 1.5, 2.5])
    assert up.value == math.inf and math.isnan(up.ci_low) and math.isnan(up.ci_high)
    assert "A is ahead by the same 0.5 on every item" in up.text
    down = cohens_dz([0.5, 1.5, 2.5], [1.0, 2.0, 3.0])
    assert down.value == -math.inf and down.text.startswith(f"d_z = {MINUS}∞")
    same = cohens_dz([0.3, 0.5], [0.3, 0.5])
    assert math.isnan(same.value) and "same on every item" in same.text
    # 0.1 + 0.2 against 0.3 is float noise, not a difference
    assert math.isnan(cohens_dz([0.1 + 0.2, 1.0], [0.3, 1.0]).value)


def test_dz_text_uses_a_real_minus_and_keeps_tiny_values():
    rng = np.random.default_rng(5)
    b = rng.normal(0, 1, 30)
    res = cohens_dz(b - 0.5, b + rng.normal(0, 0.5, 30))
    assert res.value < 0 and res.text.startswith(f"d_z = {MINUS}") and "-" not in res.text
    tiny = cohens_dz([0.001, -0.0005, 0.0011, -0.0001], [0, 0, 0.0005, 0])
    assert tiny.value != 0 and not tiny.text.startswith("d_z = 0.00 ")
    bound = cohens_dz([1, 2, 4], [0, 0, 0], alternative="greater")
    assert bound.ci_low < 0
    assert bound.text == f"d_z = 1.53 (one-sided 95% bound: at least {MINUS}{abs(bound.ci_low):.2f})"


# --- Hodges-Lehmann ------------------------------------------------------------------------------------

def _walsh(d) -> list[float]:
    return sorted((x + y) / 2 for x, y in itertools.combinations_with_replacement(d, 2))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.floats(-50, 50, allow_nan=False).filter(lambda x: abs(x) > 1e-6), min_size=1, max_size=40),
       st.sampled_from(ALTS))
def test_hl_is_the_median_of_walsh_averages(d, alternative):
    res = hodges_lehmann_estimate(d, [0.0] * len(d), alternative=alternative)
    assert res.value == pytest.approx(statistics.median(_walsh(d)), rel=1e-12, abs=1e-12)
    assert res.ci_low <= res.value <= res.ci_high


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=30))
def test_hl_drops_tied_items_like_the_wilcoxon_test(pairs):
    a, b = (np.array(x, dtype=float) for x in zip(*pairs))
    res = hodges_lehmann_estimate(a, b)
    d = [x - y for x, y in pairs if x != y]
    if not d:
        assert (res.value, res.ci_low, res.ci_high) == (0.0, 0.0, 0.0)
        return
    assert res.value == pytest.approx(statistics.median(_walsh(d)), abs=1e-12)
    w = wilcoxon(a, b, alternative="two-sided")
    assert (res.value, res.ci_low, res.ci_high) == (w.estimate, w.ci_low, w.ci_high)
    assert f"over the {len(d)} item" in res.text


@pytest.mark.parametrize("m", [6, 8, 10])
def test_hl_interval_from_enumerated_sign_flips(m):
    # C = the largest c with P(R+ <= c) <= alpha / 2 over all 2^m sign flips; the interval is the Walsh averages
    # C + 1 and N - C (Hollander & Wolfe 1999, §3.2)
    rng = np.random.default_rng(m)
    d = rng.normal(0.5, 1, m)
    r_plus = [sum(r for r, s in zip(range(1, m + 1), signs) if s) for signs in itertools.product((0, 1), repeat=m)]
    walsh = _walsh(d)
    for alternative, tail in (("two-sided", 0.025), ("greater", 0.05), ("less", 0.05)):
        c = max(k for k in range(-1, m * (m + 1) // 2) if sum(r <= k for r in r_plus) / 2 ** m <= tail)
        res = hodges_lehmann_estimate(d, np.zeros(m), alternative=alternative)
        low = -math.inf if c < 0 or alternative == "less" else walsh[c]
        high = math.inf if c < 0 or alternative == "greater" else walsh[len(walsh) - 1 - c]
        assert (res.ci_low, res.ci_high) == pytest.approx((low, high), rel=1e-12)


def test_hl_text():
    res = hodges_lehmann_estimate([0.5, 0.2, 0.0, -0.1, 0.9, 0.4, 0.3, 0.6], [0.0] * 8)
    assert res.title == "Hodges–Lehmann estimate"
    assert res.text.startswith(f"Hodges–Lehmann estimate of A − B = {res.value:.4g} (95% CI ")
    assert res.text.endswith("over the 7 items where A and B differ")
    neg = hodges_lehmann_estimate([0.0] * 4, [0.5, 0.2, 0.25, 0.3])
    assert neg.value < 0 and f"= {MINUS}" in neg.text


# --- discordant pairs and the paired odds ratio -----------------------------------------------------------

def _odds(p: float) -> float:
    return math.inf if p == 1 else p / (1 - p)


def _correctness(n11: int, n10: int, n01: int, n00: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    a = np.array([1] * n11 + [1] * n10 + [0] * n01 + [0] * n00)
    b = np.array([1] * n11 + [0] * n10 + [1] * n01 + [0] * n00)
    order = np.random.default_rng(seed).permutation(a.size)
    return a[order], b[order]


def test_odds_ratio_counts_and_interval_against_statsmodels():
    a, b = _correctness(300, 41, 22, 137)
    res = discordant_odds_ratio(a, b)
    assert (res.n10, res.n01) == (41, 22)
    assert res.value == 41 / 22
    low, high = proportion_confint(41, 63, alpha=0.05, method="beta")
    assert (res.ci_low, res.ci_high) == pytest.approx((_odds(low), _odds(high)), rel=1e-12)
    assert res.text == (f"A right / B wrong on 41 items, B right / A wrong on 22 (paired odds ratio 1.86, "
                        f"95% CI {_odds(low):.2f} to {_odds(high):.2f})")
    assert "137 + 300" not in res.misleads and "437 of 500" in res.misleads
    # one-sided: the two-sided end at twice the tail, the other end open (0 or inf on the odds scale)
    low90, high90 = proportion_confint(41, 63, alpha=0.10, method="beta")
    greater = discordant_odds_ratio(a, b, alternative="greater")
    less = discordant_odds_ratio(a, b, alternative="less")
    assert (greater.ci_low, greater.ci_high) == (pytest.approx(_odds(low90), rel=1e-12), math.inf)
    assert (less.ci_low, less.ci_high) == (0.0, pytest.approx(_odds(high90), rel=1e-12))
    assert "one-sided 95% bound: at least" in greater.text


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60),
       st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_odds_ratio_matches_statsmodels_on_random_data(pairs, level):
    a, b = (list(x) for x in zip(*pairs))
    n10 = sum(x and not y for x, y in pairs)
    n01 = sum(y and not x for x, y in pairs)
    res = discordant_odds_ratio(a, b, confidence_level=level)
    assert (res.n10, res.n01) == (n10, n01)
    if n10 + n01 == 0:
        assert math.isnan(res.value) and math.isnan(res.ci_low) and math.isnan(res.ci_high)
        return
    assert res.value == (math.inf if n01 == 0 else n10 / n01)
    low, high = proportion_confint(n10, n10 + n01, alpha=1 - level, method="beta")
    assert res.ci_low == pytest.approx(_odds(low), rel=1e-10, abs=1e-300)
    assert res.ci_high == pytest.approx(_odds(high), rel=1e-10)
    assert res.ci_low <= res.value <= res.ci_high


def test_odds_ratio_edges():
    only_a = discordant_odds_ratio(*_correctness(10, 5, 0, 3))
    low, _ = proportion_confint(5, 5, alpha=0.05, method="beta")
    assert only_a.value == math.inf and only_a.ci_high == math.inf
    assert only_a.ci_low == pytest.approx(_odds(low), rel=1e-12)
    assert "paired odds ratio ∞" in only_a.text and "B is never right where A is wrong" in only_a.text
    only_b = discordant_odds_ratio(*_correctness(10, 0, 4, 3))
    assert (only_b.value, only_b.ci_low) == (0.0, 0.0) and math.isfinite(only_b.ci_high)
    none = discordant_odds_ratio(*_correctness(10, 0, 0, 3))
    assert math.isnan(none.value) and math.isnan(none.ci_low) and math.isnan(none.ci_high)
    assert "no discordant pairs" in none.text and (none.n10, none.n01) == (0, 0)
    one = discordant_odds_ratio([1, 0], [0, 0])
    assert one.text.startswith("A right / B wrong on 1 item, B right / A wrong on 0 (")


def test_odds_ratio_input_checks():
    with pytest.raises(InputError, match="binary correctness"):
        discordant_odds_ratio([1, 0, 2], [1, 0, 1])
    with pytest.raises(InputError, match="binary correctness"):
        discordant_odds_ratio([1, 0, 1], [1, 0.5, 1])
    with pytest.raises(InputError, match="different lengths"):
        discordant_odds_ratio([1, 0, 1], [1, 0])
    with pytest.raises(InputError, match="NaN"):
        discordant_odds_ratio([1, math.nan], [1, 0])
    with pytest.raises(SettingsError):
        discordant_odds_ratio([1, 0], [0, 1], alternative="bigger")
    with pytest.raises(SettingsError):
        discordant_odds_ratio([1, 0], [0, 1], confidence_level=95)
    assert discordant_odds_ratio([True, False, True], [False, False, True]).n10 == 1


# --- dispatch and the record ----------------------------------------------------------------------------------

def test_effect_sizes_dispatch():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0.3, 1, 30), rng.normal(0, 1, 30)
    scores = effect_sizes(a, b, binary=False, alternative="greater", confidence_level=0.9)
    assert [e.name for e in scores] == ["cohens_dz", "hodges_lehmann"]
    assert scores == [cohens_dz(a, b, alternative="greater", confidence_level=0.9),
                      hodges_lehmann_estimate(a, b, alternative="greater", confidence_level=0.9)]
    x, y = _correctness(40, 12, 5, 10)
    right = effect_sizes(x.astype(bool), y.astype(bool), binary=True)
    assert [e.name for e in right] == ["odds_ratio", "cohens_dz"]
    assert right == [discordant_odds_ratio(x, y), cohens_dz(x, y)]
    d = (x - y).astype(float)
    assert right[1].value == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)


@pytest.mark.parametrize("a, b, binary, error", [
    ([1.0, 2.0, 3.0], [1.0, 2.0], False, InputError),  # lengths differ
    ([1.0], [0.0], False, InputError),  # fewer than 2 items
    ([1], [0], True, InputError),
    ([1.0, math.inf], [0.0, 1.0], False, InputError),  # not finite
    ([1.0, 2.0], [0.0, math.nan], False, InputError),
    ([1, 0, 2], [0, 0, 1], True, InputError),  # not 0/1
    ([0.9, 0.1], [0.0, 1.0], True, InputError),
    ([1.0, 2.0], [0.0, 1.0], "yes", SettingsError),  # binary must be a bool
])
def test_effect_sizes_input_errors(a, b, binary, error):
    with pytest.raises(error):
        effect_sizes(a, b, binary=binary)


def test_effect_sizes_settings_errors():
    with pytest.raises(SettingsError):
        effect_sizes([1.0, 2.0], [0.0, 1.5], binary=False, alternative="two_sided")
    with pytest.raises(SettingsError):
        effect_sizes([1.0, 2.0], [0.0, 1.5], binary=False, confidence_level=1.0)


def test_effect_size_is_frozen_and_says_when_it_misleads():
    sizes = effect_sizes([0.2, 0.5, 0.4, 0.9], [0.1, 0.6, 0.2, 0.5], binary=False)
    sizes += effect_sizes([1, 0, 1, 1], [0, 0, 1, 0], binary=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sizes[0].value = 1.0
    for e in sizes:
        assert isinstance(e, EffectSize) and e.misleads.endswith(".") and e.misleads.count(". ") == 0
        assert "\n" not in e.text
    assert "correlated" in sizes[0].misleads and "unpaired" in sizes[0].misleads
    assert "concordant" in sizes[2].misleads or "both get right" in sizes[2].misleads
