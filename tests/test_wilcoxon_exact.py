"""Wilcoxon's exact p with ties and zeros (issue 26, §3): every sign flip counted up to WILCOXON_EXACT_MAX non-zero
differences, where scipy's default takes the normal approximation beyond 13 items with ties or zeros."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from sigcore import compare
from sigcore.report import sentence
from sigcore.statistics.closed_form import WILCOXON_EXACT_MAX, wilcoxon

ALTS = ("greater", "less", "two-sided")


def _p(ge, le, alternative: str):
    return {"greater": ge, "less": le, "two-sided": min(1, 2 * min(ge, le))}[alternative]


def _doubled(d: np.ndarray) -> tuple[list[int], int]:
    """Doubled midranks of the non-zero |d| (integers) and the observed doubled R+."""
    nz = d[d != 0]
    doubled = np.rint(2 * stats.rankdata(np.abs(nz))).astype(int)
    return doubled.tolist(), int(doubled[nz > 0].sum())


def _enumerated(d: np.ndarray) -> tuple[float, float]:
    """P(R+ >= observed), P(R+ <= observed) from all 2^m sign flips, listed one by one (integer sums)."""
    doubled, observed = _doubled(d)
    m = len(doubled)
    flips = (np.arange(2 ** m)[:, None] >> np.arange(m)) & 1  # every sign pattern: 1 puts the rank in R+
    sums = flips @ np.array(doubled, dtype=np.int64)
    return float(np.mean(sums >= observed)), float(np.mean(sums <= observed))


def _exact(d: np.ndarray) -> tuple[Fraction, Fraction]:
    """The same two tails in integer arithmetic for any m: the generating polynomial prod (1 + x^r) evaluated at
    x = 2^(8k) (k bytes hold a count below 2^m), so each coefficient is a k-byte block of one big integer."""
    doubled, observed = _doubled(d)
    m, total = len(doubled), sum(doubled)
    k = m // 8 + 1
    poly = 1
    for r in doubled:
        poly += poly << (8 * k * r)
    raw = poly.to_bytes(k * (total + 1), "little")
    counts = [int.from_bytes(raw[i * k:(i + 1) * k], "little") for i in range(total + 1)]
    assert sum(counts) == 2 ** m
    return Fraction(sum(counts[observed:]), 2 ** m), Fraction(sum(counts[:observed + 1]), 2 ** m)


def _likert(rng, n: int, lift: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Ratings 1..5 of A and B on n items; B's nudged up a point on a share ``lift`` of them."""
    a = rng.integers(1, 6, n).astype(float)
    b = np.clip(rng.integers(1, 6, n) + (rng.random(n) < lift), 1, 5).astype(float)
    return a, b


@pytest.mark.parametrize("m", (1, 2, 5, 9, 13, 16))
def test_equals_enumeration_of_every_sign_flip_with_ties_and_zeros(m):
    rng = np.random.default_rng(m)
    for _ in range(4):
        d = rng.integers(1, 5, m) * rng.choice([-1.0, 1.0], m)  # |d| in 1..4: ties wherever m > 4
        d = np.concatenate([d, np.zeros(int(rng.integers(0, 4)))])  # and zeros, which are dropped
        rng.shuffle(d)
        ge, le = _enumerated(d)
        for alternative in ALTS:
            got = wilcoxon(d, np.zeros(d.size), alternative=alternative)
            assert got.exact
            assert got.p_value == pytest.approx(_p(ge, le, alternative), rel=1e-12, abs=1e-12)
            assert got.p_floor == min(1.0, (1 + (alternative == "two-sided")) * 0.5 ** m)


@pytest.mark.parametrize("n,alternatives", [(14, ALTS), (16, ("two-sided",))])  # scipy lists all 2^n flips
def test_equals_scipys_exact_permutation_test_with_ties(n, alternatives):
    a, b = _likert(np.random.default_rng(n), 3 * n, lift=0.3)
    d = (a - b)[a != b][:n]
    assert d.size == n and np.unique(np.abs(d)).size < n
    ranks = stats.rankdata(np.abs(d))

    def r_plus(x, axis):
        return np.sum(np.where(x > 0, ranks, 0), axis=axis)
    for alternative in alternatives:
        ref = stats.permutation_test((d,), r_plus, permutation_type="samples", n_resamples=np.inf,
                                     alternative=alternative, vectorized=True)
        assert wilcoxon(d, np.zeros(n), alternative=alternative).p_value == pytest.approx(ref.pvalue, rel=1e-12)


def test_likert_ratings_of_14_to_50_items_get_the_exact_p_where_the_normal_one_was_off():
    """The issue's case class: the normal approximation (what sigcore said here before, scipy's default) is off
    the exact p by a median 0.009, up to 0.11, and at α = 0.05 three of 300 decisions flip."""
    rng = np.random.default_rng(2026)
    off, flips = [], []
    for _ in range(300):
        a, b = _likert(rng, int(rng.integers(14, 51)), lift=rng.uniform(0, 0.6))
        exact = float(_p(*_exact(a - b), "two-sided"))
        got = wilcoxon(a, b, alternative="two-sided")
        assert got.exact and got.p_value == pytest.approx(exact, rel=1e-12)
        for alternative in ("greater", "less"):
            assert wilcoxon(a, b, alternative=alternative).p_value == pytest.approx(
                float(_p(*_exact(a - b), alternative)), rel=1e-12)
        normal = stats.wilcoxon(a, b).pvalue  # scipy's default with ties: the normal approximation
        off.append(abs(normal - exact))
        flips += [(a.size, normal, exact)] if (normal <= 0.05) != (exact <= 0.05) else []
    assert np.median(off) > 0.005 and max(off) > 0.05
    assert len(flips) >= 3 and all(normal <= 0.05 < exact for _, normal, exact in flips)  # it was liberal


def _tied(rng, m: int, zeros: int = 0) -> np.ndarray:
    d = np.concatenate([rng.integers(1, 5, m) * np.where(rng.random(m) < 0.6, 1.0, -1.0), np.zeros(zeros)])
    rng.shuffle(d)
    return d


def test_exact_up_to_the_bound_ties_zeros_and_tiny_p_kept_normal_beyond():
    rng = np.random.default_rng(300)
    m = WILCOXON_EXACT_MAX
    for d in (_tied(rng, m), _tied(rng, m, zeros=700), np.abs(_tied(rng, m)) - 0.5 * (np.arange(m) % 9 == 0)):
        ge, le = _exact(d)
        for alternative in ALTS:
            got = wilcoxon(d, np.zeros(d.size), alternative=alternative)
            want = _p(ge, le, alternative)
            assert got.exact and got.p_value == pytest.approx(float(want), rel=1e-12)  # even p of 1e-60
            assert got.p_floor == (1 + (alternative == "two-sided")) * 0.5 ** m
    assert float(_p(ge, le, "greater")) < 1e-50  # the last one: the float counts keep their precision down there
    d = _tied(rng, m + 1, zeros=5)
    for alternative in ALTS:
        got = wilcoxon(d, np.zeros(d.size), alternative=alternative)
        normal = stats.wilcoxon(d, alternative=alternative, method="asymptotic").pvalue
        assert not got.exact and got.p_floor == 0.0 and got.p_value == pytest.approx(normal, rel=1e-12)


def test_without_ties_the_exact_p_at_the_bound_is_close_to_the_normal_one():
    d = np.random.default_rng(1).normal(0.1, 1, WILCOXON_EXACT_MAX)
    for alternative in ALTS:
        exact = wilcoxon(d, np.zeros(d.size), alternative=alternative).p_value
        assert exact == pytest.approx(stats.wilcoxon(d, alternative=alternative, method="exact").pvalue, rel=1e-12)
        assert abs(exact - stats.wilcoxon(d, alternative=alternative, method="asymptotic").pvalue) < 1e-3


def test_the_method_says_normal_approximation_only_when_it_is_one():
    rng = np.random.default_rng(5)
    for m, exact in ((40, True), (WILCOXON_EXACT_MAX, True), (WILCOXON_EXACT_MAX + 1, False)):
        d = _tied(rng, m, zeros=10)
        res = compare(None, d, np.zeros(d.size), metric="mean", test="wilcoxon")
        assert res.exact is exact and res.p_floor > 0 if exact else res.p_floor == 0
        assert sentence.test_name(res) == "Wilcoxon signed-rank test" + ("" if exact else " (normal approximation)")


def test_holds_its_size_on_tied_ratings_under_the_null():
    """A and B rate each item from the same distribution: the exact test rejects at most α of the time."""
    rng = np.random.default_rng(20)
    n_sims, alpha = 2000, 0.05
    high = stats.binom.ppf(0.999, n_sims, alpha)
    data = [_likert(rng, 20) for _ in range(n_sims)]
    for alternative in ("greater", "two-sided"):
        rejections = sum(wilcoxon(a, b, alternative=alternative).p_value <= alpha for a, b in data)
        assert rejections <= high, (alternative, rejections, high)
