"""Tests for sigcore.statistics.closed_form: equality with scipy/statsmodels, exact enumeration, the contract, size."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.weightstats import zconfint, ztest

from sigcore.errors import InputError, SettingsError
from sigcore.statistics.closed_form import ClosedFormResult, mcnemar, paired_t, paired_z, sign_test, wilcoxon

ALTS = ("greater", "less", "two-sided")
SM_ALT = {"greater": "larger", "less": "smaller", "two-sided": "two-sided"}
TOL = dict(rel=1e-12, abs=1e-12)  # "equal to the reference" up to float noise
PER_ITEM = (paired_t, paired_z, wilcoxon, sign_test)


def _mcnemar_exact(a, b, *, alternative):
    return mcnemar(a, b, alternative=alternative, exact=True)


def _mcnemar_approx(a, b, *, alternative):
    return mcnemar(a, b, alternative=alternative, exact=False)


ALL_TESTS = PER_ITEM + (_mcnemar_exact, _mcnemar_approx)


def _datasets():
    rng = np.random.default_rng(20240601)
    out = {}
    for n in (7, 10, 30, 80):  # 10: scipy enumerates sign flips (ties); 80: asymptotic
        base = rng.normal(size=n)
        out[f"continuous-{n}"] = (base + 0.2 + rng.normal(size=n), base + rng.normal(size=n))
        out[f"ties-{n}"] = (rng.integers(0, 5, n).astype(float), rng.integers(0, 4, n).astype(float))
        out[f"binary-{n}"] = ((rng.random(n) < 0.75).astype(float), (rng.random(n) < 0.55).astype(float))
    # every data set has some spread in a - b, so the references are defined
    assert all(np.ptp(a - b) > 0 for a, b in out.values())
    return out


DATA = _datasets()
BINARY = {k: v for k, v in DATA.items() if k.startswith("binary")}
cases = pytest.mark.parametrize("name", sorted(DATA))
alts = pytest.mark.parametrize("alternative", ALTS)


# --- equality with the reference implementations ----------------------------------------------

@cases
@alts
def test_paired_t_equals_scipy(name, alternative):
    a, b = DATA[name]
    got, ref = paired_t(a, b, alternative=alternative, confidence_level=0.9), \
        stats.ttest_rel(a, b, alternative=alternative)
    assert (got.statistic, got.p_value) == pytest.approx((ref.statistic, ref.pvalue), **TOL)
    ci = ref.confidence_interval(0.9)  # one-sided for a one-sided test: a bound, the other end infinite
    assert (got.ci_low, got.ci_high) == pytest.approx((ci.low, ci.high), **TOL)
    assert got.estimate == pytest.approx(np.mean(a - b), **TOL)
    assert got.p_floor == 0.0


@cases
@alts
def test_paired_z_equals_statsmodels(name, alternative):
    a, b = DATA[name]
    got = paired_z(a, b, alternative=alternative, confidence_level=0.99)
    z, p = ztest(a - b, value=0, alternative=SM_ALT[alternative])
    assert (got.statistic, got.p_value) == pytest.approx((z, p), **TOL)
    low, high = zconfint(a - b, alpha=0.01, alternative=SM_ALT[alternative])
    assert (got.ci_low, got.ci_high) == pytest.approx((low, high), **TOL)


@cases
@alts
def test_wilcoxon_equals_scipy(name, alternative):
    """scipy's default where it counts the null exactly, its method='exact' where its default would approximate
    (no ties or zeros, n > 50); with ties or zeros beyond 13 items scipy's default is the normal approximation,
    and tests/test_wilcoxon_exact.py checks sigcore's exact p there against every sign flip."""
    a, b = DATA[name]
    d = a - b
    clean = np.all(d != 0) and np.unique(np.abs(d)).size == d.size
    method = "auto" if d.size <= 13 or (clean and d.size <= 50) else "exact" if clean else "asymptotic"
    got, ref = wilcoxon(a, b, alternative=alternative), stats.wilcoxon(a, b, alternative=alternative, method=method)
    assert got.exact
    assert got.statistic == pytest.approx(ref.statistic, **TOL)
    if method != "asymptotic":
        assert got.p_value == pytest.approx(ref.pvalue, **TOL)
    d = (a - b)[a != b]
    i, j = np.triu_indices(d.size)
    assert got.estimate == pytest.approx(np.median((d[i] + d[j]) / 2), **TOL)  # Hodges-Lehmann, by brute force


@pytest.mark.parametrize("seed", range(12))
@alts
def test_hodges_lehmann_interval_inverts_scipys_exact_wilcoxon(seed, alternative):
    """Without ties, the interval is exactly the set of shifts theta that scipy's test of d - theta keeps."""
    rng = np.random.default_rng(seed)
    d = np.round(rng.normal(0.4, 1, size=int(rng.integers(6, 40))), 6)
    got = wilcoxon(d, np.zeros(d.size), alternative=alternative, confidence_level=0.9)
    for bound, inward in ((got.ci_low, 1), (got.ci_high, -1)):
        if not math.isfinite(bound):
            continue
        step = 1e-7 * inward
        keep = stats.wilcoxon(d - (bound + step), alternative=alternative, method="exact").pvalue
        reject = stats.wilcoxon(d - (bound - step), alternative=alternative, method="exact").pvalue
        assert reject <= 0.1 < keep


def _kept_by_enumeration(x: np.ndarray) -> tuple[float, float]:
    """P(R+ >= r), P(R+ <= r) of the signed-rank test of x over all 2^m sign flips: zeros dropped, midranks."""
    x = x[x != 0]
    if x.size == 0:
        return 1.0, 1.0
    ranks = stats.rankdata(np.abs(x))
    sums = np.array(list(itertools.product((0, 1), repeat=x.size))) @ ranks
    observed = ranks[x > 0].sum()
    return float(np.mean(sums >= observed - 1e-9)), float(np.mean(sums <= observed + 1e-9))


def _tied_differences(rng, kind: int, n: int) -> np.ndarray:
    d = [rng.integers(-3, 4, n) + 0.5 * (rng.random() < 0.5),  # Likert ratings, some half-points
         rng.choice([-1.0, 0.0, 1.0], n, p=[0.3, 0.3, 0.4]),  # right/wrong items
         np.round(rng.normal(0.5, 1, n), 1),  # scores to one decimal
         rng.integers(-10, 11, n) / 4][kind % 4]
    return np.asarray(d, dtype=float)


@pytest.mark.parametrize("seed", range(40))
def test_hodges_lehmann_interval_with_ties_and_zeros_is_the_exact_test_s_dual(seed):
    """With ties and zeros the interval is every shift θ the exact test of d - θ keeps, by enumeration of every
    sign flip at one θ between each pair of consecutive Walsh averages (and at 0, which it holds when kept);
    the test is significant exactly when the interval excludes 0 or ends at 0 (an open end: 0 rejected)."""
    rng = np.random.default_rng(seed)
    d = _tied_differences(rng, seed, int(rng.integers(4, 12)))
    d = d[d != 0] if np.count_nonzero(d) >= 2 else np.array([1.0, -0.5, 1.0])
    alternative, level = ALTS[seed % 3], (0.9, 0.8, 0.95)[seed // 3 % 3]
    got = wilcoxon(d, np.zeros(d.size), alternative=alternative, confidence_level=level)
    lower = {"greater": 1 - level, "less": None, "two-sided": (1 - level) / 2}[alternative]
    upper = {"greater": None, "less": 1 - level, "two-sided": (1 - level) / 2}[alternative]
    i, j = np.triu_indices(d.size)
    w = np.unique((d[i] + d[j]) / 2)
    gaps = [(-np.inf, w[0], w[0] - 1), *((a, b, (a + b) / 2) for a, b in zip(w[:-1], w[1:])),
            (w[-1], np.inf, w[-1] + 1)]  # (from, to, a θ inside) between consecutive Walsh averages
    tails = [_kept_by_enumeration(d - theta) for _, _, theta in gaps]
    low = -np.inf if lower is None else min(a for (a, _, _), (ge, _) in zip(gaps, tails) if ge > lower)
    high = np.inf if upper is None else max(b for (_, b, _), (_, le) in zip(gaps, tails) if le > upper)
    ge0, le0 = _kept_by_enumeration(d)
    low = 0.0 if lower is not None and ge0 > lower and low > 0 else low
    high = 0.0 if upper is not None and le0 > upper and high < 0 else high
    assert (got.ci_low, got.ci_high) == pytest.approx((low, high), abs=1e-12), (d, alternative, level)
    significant = got.p_value <= 1 - level
    # significant exactly when the interval excludes 0, or ends at a rejected 0 (open there)
    assert significant == (got.ci_low > 0 or got.ci_high < 0 or 0.0 in (got.ci_low, got.ci_high) and significant)


@pytest.mark.parametrize("m, ties", [(120, False), (200, True), (420, True)])
def test_hodges_lehmann_ends_keep_the_shift_inside_and_reject_the_one_outside(m, ties):
    """Beyond enumeration: without ties the ends invert scipy's exact test (51 to 300 items were the normal
    approximation's before), with ties the test's own exact p (checked against enumeration above), and beyond 300
    non-zero differences scipy's asymptotic test, ties corrected: the gap just inside each end is kept, the gap
    just outside rejected."""
    rng = np.random.default_rng(m)
    d = rng.normal(0.15, 1, m) if not ties else rng.integers(-4, 5, m) + 0.5 * (rng.random(m) < 0.3)
    d = d[d != 0]
    i, j = np.triu_indices(d.size)
    w = np.unique((d[i] + d[j]) / 2)
    for alternative in ALTS:
        got = wilcoxon(d, np.zeros(d.size), alternative=alternative, confidence_level=0.9)
        tail = 0.1 if alternative != "two-sided" else 0.05
        for end, side in ((got.ci_low, "greater"), (got.ci_high, "less")):
            if not math.isfinite(end):
                continue
            k = int(np.argmin(np.abs(w - end)))
            assert w[k] == pytest.approx(end, abs=1e-12)  # an end is a Walsh average
            inside, outside = ((w[k] + w[k + 1]) / 2, (w[k - 1] + w[k]) / 2)[::1 if side == "greater" else -1]
            method = "exact" if not ties else "asymptotic"
            if ties and d.size <= 300:
                p_in, p_out = (wilcoxon(d - t, np.zeros(d.size), alternative=side).p_value for t in (inside, outside))
            else:
                p_in, p_out = (stats.wilcoxon(d - t, alternative=side, method=method).pvalue for t in (inside, outside))
            assert p_out <= tail < p_in, (alternative, side, p_in, p_out)


@cases
@alts
def test_sign_and_mcnemar_intervals_are_scipys_clopper_pearson(name, alternative):
    a, b = DATA[name]
    k, n = int((a > b).sum()), int((a != b).sum())
    ci = stats.binomtest(k, n, 0.5, alternative=alternative).proportion_ci(0.9, method="exact")
    got = sign_test(a, b, alternative=alternative, confidence_level=0.9)
    assert (got.estimate, got.ci_low, got.ci_high) == pytest.approx((k / n, ci.low, ci.high), **TOL)
    assert (got.wins, got.losses) == (k, n - k)


@cases
@alts
def test_sign_test_equals_binomtest(name, alternative):
    a, b = DATA[name]
    k, n = int((a > b).sum()), int((a != b).sum())
    got = sign_test(a, b, alternative=alternative)
    assert got.statistic == k
    assert got.p_value == pytest.approx(stats.binomtest(k, n, 0.5, alternative=alternative).pvalue, **TOL)


@pytest.mark.parametrize("name", sorted(BINARY))
@alts
def test_mcnemar_equals_references(name, alternative):
    a, b = BINARY[name]
    wins, losses = int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum())
    exact = mcnemar(a.astype(bool), b.astype(int), alternative=alternative)
    ref = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative).pvalue
    assert (exact.statistic, exact.p_value) == pytest.approx((wins, ref), **TOL)
    approx = mcnemar(a, b, alternative=alternative, exact=False)
    z = np.sign(wins - losses) * max(abs(wins - losses) - 1, 0) / math.sqrt(wins + losses)
    want = {"greater": stats.norm.sf(z), "less": stats.norm.cdf(z),
            "two-sided": sm_mcnemar([[0, wins], [losses, 0]], exact=False, correction=True).pvalue}
    if wins == losses:  # the one documented departure from statsmodels (see the next test)
        want["two-sided"] = 1.0
    assert approx.p_value == pytest.approx(want[alternative], **TOL)


def test_mcnemar_chi_square_statistic_and_balanced_case():
    a, b = np.array([1] * 9 + [0] * 3 + [1] * 5), np.array([0] * 9 + [1] * 3 + [1] * 5)
    sm = sm_mcnemar([[5, 9], [3, 0]], exact=False, correction=True)
    got = mcnemar(a, b, alternative="two-sided", exact=False)
    assert (got.statistic, got.p_value) == pytest.approx((sm.statistic, sm.pvalue), **TOL)
    # b == c: statsmodels' correction overshoots to chi2 = 1/(b+c); here no evidence means p = 1
    even = mcnemar([1, 0, 1, 0], [0, 1, 0, 1], alternative="two-sided", exact=False)
    assert (even.statistic, even.p_value) == (0.0, 1.0)


# --- exact enumeration for tiny n ---------------------------------------------------------------

def _tails(null: list[float], observed: float, center: float) -> dict[str, float]:
    """p of each alternative from the full, equally likely null distribution of a statistic."""
    ge = sum(s >= observed - 1e-9 for s in null) / len(null)
    le = sum(s <= observed + 1e-9 for s in null) / len(null)
    two = sum(abs(s - center) >= abs(observed - center) - 1e-9 for s in null) / len(null)
    return {"greater": ge, "less": le, "two-sided": two}


@pytest.mark.parametrize("n", range(1, 11))
def test_sign_test_equals_enumeration_of_sign_flips(n):
    null = [sum(signs) for signs in itertools.product((0, 1), repeat=n)]  # A wins under each flip
    for k in range(n + 1):
        a = np.array([1.0] * k + [0.0] * (n - k) + [0.5, 0.5])  # two ties, which the test ignores
        b = np.array([0.0] * k + [1.0] * (n - k) + [0.5, 0.5])
        want = _tails(null, k, n / 2)
        for alternative in ALTS:
            got = sign_test(a, b, alternative=alternative)
            assert got.p_value == pytest.approx(want[alternative], rel=1e-12)
            assert got.p_floor == pytest.approx(min(1.0, (1 + (alternative == "two-sided")) / 2 ** n))


@pytest.mark.parametrize("m", range(1, 16))
def test_exact_mcnemar_equals_binomial_sums(m):
    for wins in range(m + 1):
        a = [1] * wins + [0] * (m - wins) + [1, 0]  # plus one item both right, one both wrong
        b = [0] * wins + [1] * (m - wins) + [1, 0]
        greater = sum(math.comb(m, i) for i in range(wins, m + 1)) / 2 ** m
        less = sum(math.comb(m, i) for i in range(wins + 1)) / 2 ** m
        want = {"greater": greater, "less": less, "two-sided": min(1.0, 2 * min(greater, less))}
        for alternative in ALTS:
            got = mcnemar(a, b, alternative=alternative).p_value
            assert got == pytest.approx(want[alternative], rel=1e-12)


def _signed_rank_null(d: np.ndarray) -> tuple[list[float], float]:
    """All 2^m sign flips of the non-zero |d| with midranks; returns (null R+ values, observed R+)."""
    nz = d[d != 0]
    ranks = stats.rankdata(np.abs(nz))
    null = [float(np.dot(signs, ranks)) for signs in itertools.product((0, 1), repeat=nz.size)]
    return null, float(ranks[nz > 0].sum())


@pytest.mark.parametrize("n", range(1, 9))
def test_exact_wilcoxon_equals_enumeration_without_ties(n):
    rng = np.random.default_rng(n)
    for _ in range(5):
        d = rng.permutation(np.arange(1, n + 1)) * rng.choice([-1.0, 1.0], n) * 0.37
        null, observed = _signed_rank_null(d)
        want = _tails(null, observed, n * (n + 1) / 4)
        want["two-sided"] = min(1.0, 2 * min(want["greater"], want["less"]))  # scipy doubles the smaller tail
        for alternative in ALTS:
            got = wilcoxon(d, np.zeros(n), alternative=alternative)
            assert got.p_value == pytest.approx(want[alternative], rel=1e-12)


def test_wilcoxon_with_ties_and_zeros_equals_enumeration_of_sign_flips():
    d = np.array([0.0, 1.0, -1.0, 2.0, 2.0, 3.0, 0.0, -2.0, 4.0])
    null, observed = _signed_rank_null(d)
    want = _tails(null, observed, 7 * 8 / 4)
    for alternative in ("greater", "less"):
        got = wilcoxon(d, np.zeros(d.size), alternative=alternative).p_value
        assert got == pytest.approx(want[alternative], rel=1e-12)


def test_p_floor_is_the_most_extreme_outcome():
    a, b = np.arange(1.0, 9.0), np.zeros(8)
    assert wilcoxon(a, b).p_value == wilcoxon(a, b).p_floor == 2 ** -8
    assert wilcoxon(a, b, alternative="two-sided").p_floor == 2 ** -7
    assert wilcoxon(np.arange(1.0, 61.0), np.zeros(60)).p_floor == 2 ** -60  # exact up to 300 non-zero differences
    assert wilcoxon(np.arange(1.0, 302.0), np.zeros(301)).p_floor == 0.0  # asymptotic above
    assert sign_test(a, b).p_value == sign_test(a, b).p_floor == 2 ** -8
    assert mcnemar([1] * 5, [0] * 5, alternative="less").p_floor == 2 ** -5


# --- the contract -------------------------------------------------------------------------------

@pytest.mark.parametrize("test", ALL_TESTS)
@alts
def test_identical_systems_get_p_one(test, alternative):
    for a in (np.array([1.0, 0.0, 1.0, 1.0, 0.0, 1.0]), np.ones(40), np.zeros(3)):
        res = test(a, a.copy(), alternative=alternative)
        assert res.p_value == 1.0 and not math.isnan(res.statistic)
        assert isinstance(res, ClosedFormResult)


@pytest.mark.parametrize("test", ALL_TESTS)
@pytest.mark.parametrize("name", sorted(DATA))
def test_swapping_systems_swaps_greater_and_less(test, name):
    a, b = DATA[name]
    if test in (_mcnemar_exact, _mcnemar_approx) and name not in BINARY:
        return
    assert test(a, b, alternative="greater").p_value == test(b, a, alternative="less").p_value
    assert test(a, b, alternative="less").p_value == test(b, a, alternative="greater").p_value
    assert test(a, b, alternative="two-sided").p_value == test(b, a, alternative="two-sided").p_value


@pytest.mark.parametrize("test", ALL_TESTS)
def test_one_sided_p_follows_the_direction_of_the_effect(test):
    rng = np.random.default_rng(7)
    b = (rng.random(60) < 0.4).astype(float)
    a = np.maximum(b, rng.random(60) < 0.6)  # A is right wherever B is, and on many more items
    assert test(a, b, alternative="greater").p_value < 1e-4
    assert test(a, b, alternative="less").p_value > 0.99
    assert test(a, b, alternative="two-sided").p_value < 1e-4
    assert test(b, a, alternative="less").p_value < 1e-4  # the mirror image: B better
    assert test(b, a, alternative="greater").p_value > 0.99


@pytest.mark.parametrize("test", (paired_t, paired_z))
@pytest.mark.parametrize("c", (0.25, -0.5))
def test_constant_nonzero_difference_is_the_zero_variance_limit(test, c):
    b = np.arange(9) / 4
    a = b + c  # dyadic numbers: the difference is exactly c on every item
    want = {"greater": float(c < 0), "less": float(c > 0), "two-sided": 0.0}
    for alternative in ALTS:
        res = test(a, b, alternative=alternative)
        assert res.statistic == math.copysign(math.inf, c)
        assert res.p_value == want[alternative]
        bounds = {"greater": (c, math.inf), "less": (-math.inf, c), "two-sided": (c, c)}
        assert (res.ci_low, res.ci_high) == bounds[alternative]


@pytest.mark.parametrize("test", (paired_t, paired_z))
def test_a_constant_difference_up_to_float_noise_is_the_limit(test):
    """b + 0.1 - b is 0.1 only up to the last bit: the one tie rule makes it one size, so no spread."""
    b = np.linspace(0, 1, 9)
    a = b + 0.1
    assert np.ptp(a - b) > 0  # as floats the differences vary
    res = test(a, b, alternative="greater")
    assert res.statistic == math.inf and res.p_value == 0.0 and res.ci_low == pytest.approx(0.1, abs=1e-15)
    assert test(a, b, alternative="less").p_value == 1.0


@pytest.mark.parametrize("n", (40, 420))  # the exact test, and the normal approximation beyond 300
def test_decimal_scores_test_as_their_integer_multiples(n):
    """Scores on a 0.1 grid and the same scores times 10 (integers, no float noise in any difference): the same p,
    R+ and R- (the exact null, or the tie-corrected normal approximation: scipy's on the integers), and the
    pseudo-median and interval ten times smaller."""
    rng = np.random.default_rng(n)
    units = rng.integers(0, 11, size=(2, n))
    a, b = (np.array([f"{k / 10:.1f}" for k in row], dtype=float) for row in units)
    for alternative in ALTS:
        got, whole = wilcoxon(a, b, alternative=alternative), wilcoxon(units[0], units[1], alternative=alternative)
        assert got.p_value == pytest.approx(whole.p_value, rel=1e-12) and (got.wins, got.losses) == (
            whole.wins, whole.losses)
        if n > 300:
            ref = stats.wilcoxon(units[0] - units[1], alternative=alternative, method="asymptotic")
            assert not got.exact and got.p_value == pytest.approx(ref.pvalue, rel=1e-12)
        scaled = np.array([whole.estimate, whole.ci_low, whole.ci_high]) / 10
        assert [got.estimate, got.ci_low, got.ci_high] == pytest.approx(scaled, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=40))
def test_every_p_is_a_probability_and_swap_symmetric(pairs):
    a, b = (np.array(x, dtype=float) for x in zip(*pairs))
    for test in PER_ITEM:
        for alternative in ALTS:
            p = test(a, b, alternative=alternative).p_value
            assert 0.0 <= p <= 1.0
        assert test(a, b, alternative="greater").p_value == test(b, a, alternative="less").p_value


# --- size under the null ------------------------------------------------------------------------

N_SIM, N_ITEMS, ALPHA = 400, 200, 0.05
LOW, HIGH = stats.binom.ppf([0.001, 0.999], N_SIM, ALPHA)  # 99.8% band for the number of rejections


def _rejections(test, pairs) -> dict[str, int]:
    return {alt: sum(test(a, b, alternative=alt).p_value <= ALPHA for a, b in pairs) for alt in ALTS}


def _null_pairs(kind: str):
    rng = np.random.default_rng({"continuous": 11, "binary": 12}[kind])
    for _ in range(N_SIM):
        if kind == "continuous":  # A and B exchangeable per item: d symmetric around 0
            base = rng.normal(size=N_ITEMS)
            yield base + rng.normal(size=N_ITEMS), base + rng.normal(size=N_ITEMS)
        else:  # equal accuracy, independent errors: equal discordant rates
            yield (rng.random(N_ITEMS) < 0.7).astype(float), (rng.random(N_ITEMS) < 0.7).astype(float)


@pytest.mark.slow  # simulated null test sets per test
@pytest.mark.parametrize("test", (paired_t, paired_z, wilcoxon))
def test_asymptotic_tests_hold_their_size(test):
    for alternative, count in _rejections(test, list(_null_pairs("continuous"))).items():
        assert LOW <= count <= HIGH, (alternative, count, LOW, HIGH)


@pytest.mark.parametrize("test,kind", [(sign_test, "continuous"), (sign_test, "binary"),
                                       (_mcnemar_exact, "binary"), (_mcnemar_approx, "binary")])
def test_exact_and_corrected_tests_are_not_liberal(test, kind):
    for alternative, count in _rejections(test, list(_null_pairs(kind))).items():
        assert count <= HIGH, (alternative, count, HIGH)


# --- validation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("test", ALL_TESTS)
def test_bad_alternative_is_named(test):
    with pytest.raises(SettingsError, match=r"`alternative` must be one of greater, less, two-sided, not 'larger'"):
        test([1, 0], [0, 1], alternative="larger")
    with pytest.raises(SettingsError, match=r"`alternative` must be one of .*, not None"):
        test([1, 0], [0, 1], alternative=None)


@pytest.mark.parametrize("test", (paired_t, paired_z))
@pytest.mark.parametrize("level", (0, 1, 1.5, -0.1, "0.95", True, None))
def test_bad_confidence_level_is_named(test, level):
    with pytest.raises(SettingsError, match=r"`confidence_level` must be a number strictly between 0 and 1"):
        test([1.0, 2.0], [0.0, 0.5], confidence_level=level)


@pytest.mark.parametrize("test", PER_ITEM)
def test_bad_per_item_inputs(test):
    with pytest.raises(InputError, match=r"`a` and `b` have different lengths \(3 and 2\).*same items"):
        test([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match=r"`a` has a missing \(NaN\) or infinite value at item 2"):
        test([1.0, math.nan, 3.0], [1.0, 2.0, 3.0])
    with pytest.raises(InputError, match=r"`b` has a missing \(NaN\) or infinite value at item 1"):
        test([1.0, 2.0], [math.inf, 2.0])
    with pytest.raises(InputError, match=r"this test needs at least \d items?, got 0"):
        test([], [])
    with pytest.raises(InputError, match=r"`a` must be one value per item \(1-D\), got shape \(2, 2\)"):
        test([[1, 2], [3, 4]], [1, 2])
    with pytest.raises(InputError, match=r"`b` must hold numbers"):
        test([1, 2], ["x", "y"])


@pytest.mark.parametrize("test", (paired_t, paired_z))
def test_mean_tests_need_two_items(test):
    with pytest.raises(InputError, match=r"this test needs at least 2 items, got 1"):
        test([1.0], [0.0])


def test_bad_mcnemar_inputs():
    with pytest.raises(InputError, match=r"`b_correct` must be binary correctness \(0/1 or True/False\), "
                                         r"found 0.5.*use another test for scores"):
        mcnemar([1, 0, 1], [1, 0.5, 0])
    with pytest.raises(InputError, match=r"`a_correct` must be binary correctness .*found 2"):
        mcnemar([2, 0], [1, 0])
    with pytest.raises(InputError, match=r"`a_correct` and `b_correct` have different lengths \(2 and 1\)"):
        mcnemar([1, 0], [1])
    with pytest.raises(InputError, match=r"`a_correct` has a missing \(NaN\)"):
        mcnemar([math.nan, 1], [1, 0])
    with pytest.raises(InputError, match=r"needs at least 1 item, got 0"):
        mcnemar([], [])
    with pytest.raises(SettingsError, match=r"`exact` must be True or False, not 'yes'"):
        mcnemar([1, 0], [0, 1], exact="yes")
