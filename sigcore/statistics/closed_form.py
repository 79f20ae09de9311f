"""Closed-form paired tests on per-item values of two systems A and B (same items, same order).

Paired t-test (Student 1908), its normal approximation for large n (z-test), the Wilcoxon signed-rank
test (Wilcoxon 1945), the sign test (exact binomial on the non-zero differences) and McNemar's test on
binary correctness (McNemar 1947); Dror, Baumer, Shlomov & Reichart (2018) discuss when each one fits an
NLP comparison. Every number equals scipy.stats / statsmodels on ordinary data; what this module adds
is the statistical contract of the README for the cases where those libraries return nan or raise:

- Identical systems (all differences zero, no non-zero difference, no discordant pair) get p = 1 in
  every alternative, with statistic 0 (t, z, W) or the count of A wins (sign, McNemar).
- t/z with zero variance but a non-zero constant difference c (every item says A is better by c):
  the limit of the test as the spread goes to 0, i.e. statistic = copysign(inf, c), p = 0 in the
  direction of c and in "two-sided", p = 1 against it; the CI is [c, c]. This is also what scipy
  returns for that input, and what near-constant differences (float noise) tend to anyway.
- "greater" means A is better (d = a - b > 0, or A wins more discordant pairs), "less" the opposite;
  swapping A and B turns one into the other with the same p.
- Each test reports what it measures, with the interval that goes with its side (one-sided: a bound):
  t/z the mean difference (t / normal interval); Wilcoxon the Hodges-Lehmann pseudo-median of the non-zero
  differences (the interval that inverts the signed-rank test); sign test and McNemar A's share of the
  decided items or discordant pairs (Clopper-Pearson, the exact binomial test's dual).
- Differences within a relative 1e-9 of the values are zero: 0.1 + 0.2 against 0.3 is a tie, not a win.
- McNemar with ``exact=False``: chi2 = max(|b - c| - 1, 0)^2 / (b + c) for "two-sided" (statsmodels'
  ``mcnemar(exact=False, correction=True)``, except that b == c gives chi2 = 0 and p = 1 where
  statsmodels' correction overshoots zero); one-sided tests use the signed continuity-corrected
  z = sign(b - c) * max(|b - c| - 1, 0) / sqrt(b + c) with a normal tail, and report z as statistic.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .._lazy import stats
from ..contract import (
    DEFAULT_ALTERNATIVE,
    TIE,
    Changing,
    check_alternative,
    check_level,
    deprecated_default,
    sided_floor,
    sided_p,
)
from ..errors import InputError, SettingsError
from . import intervals

__all__ = ["ClosedFormResult", "paired_values", "differences", "values_scale", "H1", "paired_t", "paired_z",
           "WILCOXON_EXACT_MAX", "wilcoxon", "hodges_lehmann", "sign_test", "mcnemar"]


@dataclass(frozen=True)
class ClosedFormResult:
    """Outcome of one closed-form test.

    ``estimate`` is what the test measures (mean difference; pseudo-median; A's share of the decided items),
    with its interval ``ci_low``/``ci_high`` at ``confidence_level`` on the test's side (an open end is
    ``inf`` for a difference, 1 or 0 for a share). ``p_floor``: the smallest p this test can give for these
    n (0.0 when asymptotic, and ``exact`` is False). ``wins``/``losses``: what A and B each win: items (sign
    test), discordant pairs (McNemar), rank sums R+ and R- (Wilcoxon).
    """

    statistic: float
    p_value: float
    ci_low: float
    ci_high: float
    p_floor: float
    estimate: float = math.nan
    wins: float | None = None
    losses: float | None = None
    exact: bool = True  # p from the exact null distribution, not an asymptotic one

    def __repr__(self) -> str:
        return (f"ClosedFormResult(statistic={self.statistic:.4g}, p_value={self.p_value:.4g}, "
                f"estimate={self.estimate:.4g}, ci=[{self.ci_low:.4g}, {self.ci_high:.4g}])")


def paired_values(a, b, names: tuple[str, str] = ("a", "b"), min_n: int = 1) -> tuple[np.ndarray, ...]:
    """Validate two per-item value vectors and return them as float arrays."""
    arrays = []
    for x, name in zip((a, b), names):
        try:
            x = np.asarray(x, dtype=float)
        except (TypeError, ValueError) as exc:
            raise InputError(f"`{name}` must hold numbers ({exc})") from None
        if x.ndim != 1:
            raise InputError(f"`{name}` must be one value per item (1-D), got shape {x.shape}")
        if not np.isfinite(x).all():
            where = int(np.flatnonzero(~np.isfinite(x))[0])
            raise InputError(f"`{name}` has a missing (NaN) or infinite value at item {where + 1}",
                             hint="Score every item, or drop it from both systems.")
        arrays.append(x)
    if arrays[0].size != arrays[1].size:
        raise InputError(f"`{names[0]}` and `{names[1]}` have different lengths "
                         f"({arrays[0].size} and {arrays[1].size})",
                         hint="Both systems must be scored on the same items, in the same order.")
    if arrays[0].size < min_n:
        raise InputError(f"this test needs at least {min_n} item{'s' * (min_n > 1)}, "
                         f"got {arrays[0].size}")
    return arrays[0], arrays[1]


def differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a - b per item on the one tie rule (``TIE``, relative to the values): a difference within 1e-9 of its
    item's values is 0, and sizes |a - b| within 1e-9 of each other (of the larger of their items' values) are
    one size, so that ranks, ties and spreads see what the scores say: on a 0.1 grid 0.7 - 0.4 and 0.4 - 0.1
    (0.29999999999999993 and 0.30000000000000004) share one midrank, and a constant difference has no spread."""
    with np.errstate(over="ignore", invalid="ignore"):
        d = a - b
    bad = np.flatnonzero(~np.isfinite(d))
    if bad.size:  # 1e308 - (-1e308): no verdict may rest on an infinity
        i = int(bad[0])
        raise InputError(f"A - B overflows at item {i + 1} ({a[i]:g} - {b[i]:g})", line=i + 1,
                         hint="Rescale both systems' scores alike (e.g. divide them by 1e300).")
    scale = np.maximum(np.abs(a), np.abs(b))
    d[np.abs(d) <= TIE * scale] = 0.0
    return _same_sizes(d, scale)


def values_scale(a: np.ndarray, b: np.ndarray) -> float:
    """The largest |value| of either system: ``TIE`` times it is the tie tolerance of anything computed from all
    the differences at once (Walsh averages, a pseudo-median)."""
    return float(max(np.max(np.abs(a)), np.max(np.abs(b)))) if a.size else 0.0


def _same_sizes(d: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``d`` with non-zero sizes within ``TIE`` · ``scale`` of each other (the larger scale of the two items) made
    one size, the middle one of the group, each keeping its sign: a group is a run of sorted sizes each within the
    tolerance of the next, split where it spans more than the tolerance of its ends (float noise never does)."""
    nonzero = np.flatnonzero(d)
    order = nonzero[np.argsort(np.abs(d[nonzero]), kind="stable")]
    size, tol = np.abs(d[order]), TIE * scale[order]
    gaps = np.diff(size)
    near = gaps <= np.maximum(tol[:-1], tol[1:])
    if not np.any(near & (gaps > 0)):  # no two sizes differ by float noise only
        return d
    starts = np.flatnonzero(np.concatenate([[True], ~near]))
    stops = np.append(starts[1:], size.size)
    noisy = size[stops - 1] > size[starts]  # runs of one exact size are one size already
    for start, stop in zip(starts[noisy].tolist(), stops[noisy].tolist()):
        while start < stop:  # from the smallest size, every size within the tolerance of the pair joins it
            within = size[start:stop] - size[start] <= np.maximum(tol[start], tol[start:stop])
            end = stop if within.all() else start + int(np.argmin(within))
            size[start:end] = size[(start + end - 1) // 2]
            start = end
    out = d.copy()
    out[order] = np.copysign(size, d[order])
    return out


def _mean_test(a, b, alternative: str, confidence_level: float, normal: bool) -> ClosedFormResult:
    """t (or z): mean(d) / (sd(d) / sqrt(n)) with a t (normal) tail and the interval of the mean difference;
    the zero-variance limits where every difference is the same."""
    check_alternative(alternative)
    level = check_level(confidence_level)
    x, y = paired_values(a, b, min_n=2)  # a standard deviation needs two items
    d = differences(x, y)
    low, high = intervals.mean_interval(d, level, alternative, normal=normal)
    scaled, scale = intervals.power_scale(d)  # t is the same on d over a power of two; its mean is multiplied back
    if np.ptp(scaled) > 0:
        statistic = float(scaled.mean() / (scaled.std(ddof=1) / math.sqrt(d.size)))
        tail = stats.norm if normal else stats.t(d.size - 1)
        return ClosedFormResult(statistic, sided_p(tail, statistic, alternative), low, high, 0.0,
                                float(scaled.mean()) * scale, exact=False)
    c = float(d[0])
    if c == 0:  # identical systems: no evidence either way
        return ClosedFormResult(0.0, 1.0, low, high, 0.0, 0.0, exact=False)
    statistic = math.copysign(math.inf, c)  # the limit of mean/se as the spread goes to 0
    # any continuous null has tails 0 and 1 at +-inf, so the normal one stands in for t's
    return ClosedFormResult(statistic, sided_p(stats.norm, statistic, alternative), low, high, 0.0, c, exact=False)


# H1 of a test called directly: "greater" when left out, until 0.4.0 makes it two-sided, as everywhere else
H1 = Changing("alternative", "greater", DEFAULT_ALTERNATIVE, "0.4.0")


def _h1(alternative: str | Changing) -> str:
    return deprecated_default(alternative, stacklevel=4)  # the warning points at the caller of the public test


def paired_t(a, b, *, alternative: str = H1, confidence_level: float = 0.95) -> ClosedFormResult:
    """Paired t-test of mean(a - b) = 0 (Student 1908), equal to ``scipy.stats.ttest_rel``; the t interval of
    the mean difference on the test's side."""
    alternative = _h1(alternative)
    return _mean_test(a, b, alternative, confidence_level, normal=False)


def paired_z(a, b, *, alternative: str = H1, confidence_level: float = 0.95) -> ClosedFormResult:
    """Large-sample z-test z = mean(d) / (sd(d) / sqrt(n)) with a normal tail (statsmodels ``ztest``)."""
    alternative = _h1(alternative)
    return _mean_test(a, b, alternative, confidence_level, normal=True)


# Most non-zero differences whose signed-rank null is counted exactly, ties and zeros or not: the count below
# takes about 2 m^3 / 3 element updates (2e7 and 6 ms at m = 300; scipy enumerates 2^m sign flips, so it counts
# only up to 13 items with ties or zeros). Above, the normal approximation: on tied Likert-scale ratings its
# two-sided p is off the exact one by a median 0.0085 (at most 0.04) at n = 30, 0.00015 (at most 0.0012) at n = 300.
WILCOXON_EXACT_MAX = 300


def _signed_rank_tails(nonzero: np.ndarray) -> tuple[float, float]:
    """P(R+ >= observed) and P(R+ <= observed) over all 2^m equally likely sign flips, midranks kept.

    Counted by dynamic programming over doubled ranks (midranks are multiples of 1/2), smallest first so
    that each rank is added only over the sums reached so far: the same numbers as scipy's exact test (no
    ties) and its enumerating permutation test (ties, zeros), in milliseconds instead of 2^m steps. The
    counts are float sums of non-negative terms, so each is within m * 2^-53 of its integer (relative),
    and they stay below 2^m, far from overflow for m <= WILCOXON_EXACT_MAX. The lower tail is counted as
    the upper tail of the mirrored sum (the null is symmetric), so swapping A and B gives the same p to
    the last bit.
    """
    doubled = np.rint(2 * stats.rankdata(np.abs(nonzero))).astype(np.int64)
    observed, total = int(doubled[nonzero > 0].sum()), int(doubled.sum())
    counts = _null_counts(doubled)
    scale = 0.5 ** nonzero.size
    return (min(1.0, float(counts[observed:].sum()) * scale),
            min(1.0, float(counts[total - observed:].sum()) * scale))


# p of a discrete test from its two tails P(S >= s) and P(S <= s); two-sided doubles the smaller one.
_DISCRETE: dict[str, Callable[[float, float], float]] = {
    "greater": lambda ge, le: ge,
    "less": lambda ge, le: le,
    "two-sided": lambda ge, le: min(1.0, 2 * min(ge, le)),
}


def wilcoxon(a, b, *, alternative: str = H1, confidence_level: float = 0.95) -> ClosedFormResult:
    """Wilcoxon signed-rank test (Wilcoxon 1945), with the exact null wherever it can be counted.

    Zero differences are dropped (``zero_method='wilcox'``). Up to ``WILCOXON_EXACT_MAX`` (300) non-zero
    differences, ties and zeros or not, p is exact: all 2^m equally likely sign flips of the m non-zero
    differences, midranks kept (``exact`` True; ``p_floor`` from the all-same-sign flips, 2^-m a side). That is
    ``scipy.stats.wilcoxon`` with its defaults where scipy's ``method='auto'`` is exact (no ties or zeros
    and n <= 50, or n <= 13), and scipy's exact distribution where its default would approximate:
    ``method='exact'`` without ties or zeros, ``scipy.stats.permutation_test`` over sign flips
    (``permutation_type='samples'``, every flip enumerated) with them. Above 300, scipy's normal
    approximation, without continuity correction (``exact`` False, ``p_floor`` 0). ``statistic`` is scipy's:
    R+ one-sided, min(R+, R-) two-sided; ``wins`` and ``losses`` are R+ and R-, whose difference says which
    way the test points. ``estimate`` is the Hodges-Lehmann pseudo-median of the non-zero differences, with
    the interval that inverts this signed-rank test, ties and zeros as it takes them (:func:`hodges_lehmann`).
    Ties are decided by the one rule of :func:`differences`: a difference within 1e-9 of its item's values is 0,
    sizes within 1e-9 of the values are one size (one midrank), and so are Walsh averages (0 within it).
    """
    check_alternative(alternative := _h1(alternative))
    level = check_level(confidence_level)
    x, y = paired_values(a, b)
    d = differences(x, y)
    nonzero = d[d != 0]
    if nonzero.size == 0:  # identical systems: scipy returns nan or raises here
        lower, upper = intervals.tails(level, alternative)
        return ClosedFormResult(0.0, 1.0, -math.inf if lower is None else 0.0, math.inf if upper is None else 0.0,
                                1.0, 0.0, 0, 0)
    tails = _signed_rank_tails(nonzero) if nonzero.size <= WILCOXON_EXACT_MAX else None
    estimate, (low, high) = hodges_lehmann(nonzero, level, alternative, zero_tails=tails, scale=values_scale(x, y))
    ranks = stats.rankdata(np.abs(nonzero))
    r_plus = float(ranks[nonzero > 0].sum())
    r_minus = float(ranks.sum()) - r_plus
    if nonzero.size > WILCOXON_EXACT_MAX:
        res = stats.wilcoxon(d, alternative=alternative, zero_method="wilcox", method="asymptotic")
        p = res.pvalue
        if alternative == "less":  # as the upper tail of -d, so that swapping A and B gives the same p exactly
            p = stats.wilcoxon(-d, alternative="greater", zero_method="wilcox", method="asymptotic").pvalue
        return ClosedFormResult(float(res.statistic), float(p), low, high, 0.0, estimate, r_plus, r_minus, False)
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    p = _DISCRETE[alternative](*tails)
    p_floor = sided_floor(0.5 ** nonzero.size, alternative)  # only the all-same-sign flip is that extreme, ties or not
    return ClosedFormResult(statistic, p, low, high, p_floor, estimate, r_plus, r_minus)


def hodges_lehmann(d: np.ndarray, confidence_level: float, alternative: str, *,
                   zero_tails: tuple[float, float] | None = None,
                   scale: float | None = None) -> tuple[float, tuple[float, float]]:
    """The Hodges-Lehmann pseudo-median of ``d`` (the median of its Walsh averages (d_i + d_j) / 2, i <= j)
    and the interval that inverts the signed-rank test of :func:`wilcoxon`, ties and zeros as it takes them.

    A shift θ is kept when that test of d - θ (zero differences dropped, midranks) does not reject it on the
    interval's side. Between consecutive Walsh averages the test's statistic R+ is the number of Walsh averages
    above θ, so each end is a Walsh average (Hollander & Wolfe 1999, §3.2): up to ``WILCOXON_EXACT_MAX`` non-zero
    differences, found with the exact null of d - θ (the ties of equal differences, whose midranks move with
    θ) by bisection over the Walsh averages; beyond, the normal approximation with those ties' variance, as
    the test. At a Walsh average itself, dropping a zero difference can make the test keep a shift whose
    neighbours it rejects (Pratt 1959): 0 is checked there, so that the interval holds 0 whenever the test keeps
    it; an end at exactly 0 on a test that rejects 0 is open (the test keeps every shift beyond it, not 0).
    ``zero_tails``: the test's own tails at 0, when the caller has counted them. ``d``: non-zero differences as
    :func:`differences` gives them (sizes within the tie tolerance already one); ``scale``: the size of the
    values they come from (:func:`values_scale`; default the largest |d|), whose ``TIE`` share is the tolerance
    under which Walsh averages are one and the estimate and the ends are 0 (float noise, as for d itself)."""
    top = float(np.max(np.abs(d))) if scale is None else scale
    d, power = intervals.power_scale(d)  # (d_i + d_j) / 2 of huge values would overflow: a power of two down
    m = d.size
    d = np.sort(d)
    walsh = _Walsh(d)
    noise = TIE * top / power  # (0.7 - 0.4 + (0.1 - 0.4)) / 2 can come out as 2.8e-17

    def snap(x: float) -> float:
        return 0.0 if abs(x) <= noise else x
    estimate = snap((walsh.order((walsh.n + 1) // 2) + walsh.order(walsh.n // 2 + 1)) / 2)
    lower, upper = intervals.tails(confidence_level, alternative)
    kept_at_zero = _kept(zero_tails or _zero_tails(d), lower, upper)
    if m <= WILCOXON_EXACT_MAX and np.unique(d).size < m:  # tied differences: the null moves with θ
        low, high = _exact_dual(d, walsh, lower, upper, noise)
    else:
        low, high = (side * math.inf if tail is None else _dual_end(d, walsh, tail, side) for tail, side in
                     ((lower, -1), (upper, 1)))
    low, high = snap(low), snap(high)
    if kept_at_zero[0] and low > 0:  # the test keeps 0 while it rejects the shifts beside it
        low = 0.0
    if kept_at_zero[1] and high < 0:
        high = 0.0
    return float(estimate) * power, (low * power, high * power)


def _dual_end(d: np.ndarray, walsh: _Walsh, tail: float, side: int, normal: bool = False) -> float:
    """An end of the interval when the null of R+ is the same for every θ between Walsh averages (no tied
    differences, or the normal approximation, whose tie correction depends only on the ties' sizes): the Walsh
    average C + 1 (lower) or N - C (upper) in order, C the largest count with P(R+ <= C) <= ``tail``."""
    c = _critical_count(d, tail, normal)
    if c < 0:
        return side * math.inf
    return walsh.order(c + 1 if side < 0 else walsh.n - c)


def _critical_count(d: np.ndarray, tail: float, normal: bool = False) -> int:
    """The largest c with P(R+ <= c) <= tail (-1 if none) under the sign flips of m differences with the ties
    of ``d``'s equal values: exact up to WILCOXON_EXACT_MAX (no ties: ranks 1..m), else the normal
    approximation with their tie correction, as scipy's asymptotic test (no continuity correction)."""
    m = d.size
    if m <= WILCOXON_EXACT_MAX and not normal:
        return int(np.searchsorted(_untied_cdf(m), tail * (1 + 1e-12), side="right")) - 1
    _, sizes = np.unique(d, return_counts=True)
    n = m * (m + 1) / 2
    sd = math.sqrt(m * (m + 1) * (2 * m + 1) / 24 - float(np.sum(sizes ** 3 - sizes)) / 48)
    return math.floor(n / 2 - float(stats.norm.isf(tail)) * sd)  # p <= tail rejects: the bound is kept out


@functools.lru_cache(maxsize=64)
def _untied_cdf(m: int) -> np.ndarray:
    """P(R+ <= c), c = 0 .. m(m+1)/2, for m differences without ties (ranks 1..m), counted once per m."""
    cdf = np.cumsum(_null_counts(np.arange(1, m + 1))) * 0.5 ** m
    cdf.flags.writeable = False  # shared by every call
    return cdf


def _null_counts(doubled: np.ndarray) -> np.ndarray:
    """How many of the 2^m sign flips give each doubled R+ (0 .. sum of ``doubled``)."""
    counts = np.zeros(int(doubled.sum()) + 1)
    counts[0] = 1.0
    top = 0  # the largest sum reached so far
    for r in np.sort(doubled).tolist():  # each item adds its rank to R+ or not
        counts[r:r + top + 1] += counts[:top + 1].copy()
        top += r
    return counts


def _exact_dual(d: np.ndarray, walsh: _Walsh, lower: float | None, upper: float | None,
                noise: float) -> tuple[float, float]:
    """The interval's ends for tied differences (m <= WILCOXON_EXACT_MAX): the exact test of d - θ at one θ
    between each pair of consecutive distinct Walsh averages (a gap), searched from the normal approximation's
    end outwards, then by bisection (the test keeps a contiguous run of gaps: R+ falls as θ rises, and the p of
    each side moves monotonically with it)."""
    i, j = np.triu_indices(d.size)
    averages = np.sort((d[i] + d[j]) / 2)
    w = averages[np.concatenate([[True], np.diff(averages) > noise])]  # float noise is one average
    step = max(float(w[-1] - w[0]), noise, 1.0)

    def between(k: int) -> float:  # a θ inside gap k: below w[0], between w[k-1] and w[k], above w[-1]
        return w[0] - step if k == 0 else w[-1] + step if k == w.size else (w[k - 1] + w[k]) / 2

    def first(keeps, guess: int) -> int:
        """The first gap (0 .. w.size) where keeps() turns true (w.size + 1 if none), bracketed by steps doubling
        from ``guess``: the exact end lies a few gaps from the approximate one, so a few tests find it."""
        width = 1
        if keeps(guess):  # leftwards: low - 1 is not kept (or low is 0), high is
            low = high = guess
            while low > 0:
                probe = max(low - width, 0)
                if not keeps(probe):
                    low = probe + 1
                    break
                low = high = probe
                width *= 2
        else:  # rightwards: low - 1 is not kept, high is
            low = high = guess + 1
            while True:
                if low > w.size:
                    return w.size + 1
                high = min(low + width - 1, w.size)
                if keeps(high):
                    break
                low, width = high + 1, 2 * width
        while low < high:
            mid = (low + high) // 2
            low, high = (low, mid) if keeps(mid) else (mid + 1, high)
        return low

    ends = [-math.inf, math.inf]
    if lower is not None:  # kept: P(R+ >= r) > tail, from some gap upwards
        guess = int(np.searchsorted(w, _dual_end(d, walsh, lower, -1, normal=True) - noise)) + 1
        k = first(lambda k: _signed_rank_tails(d - between(k))[0] > lower, min(guess, w.size))
        ends[0] = -math.inf if k == 0 else float(w[k - 1])
    if upper is not None:  # kept: P(R+ <= r) > tail, up to some gap
        guess = int(np.searchsorted(w, _dual_end(d, walsh, upper, 1, normal=True) - noise)) + 1
        k = first(lambda k: not _signed_rank_tails(d - between(k))[1] > upper, min(guess, w.size)) - 1
        ends[1] = math.inf if k == w.size else float(w[k])
    return ends[0], ends[1]


def _zero_tails(d: np.ndarray) -> tuple[float, float]:
    """P(R+ >= r) and P(R+ <= r) of the test of ``d`` itself (non-zero differences), as :func:`wilcoxon`
    computes them."""
    if d.size <= WILCOXON_EXACT_MAX:
        return _signed_rank_tails(d)
    return tuple(float(stats.wilcoxon(d, alternative=side, zero_method="wilcox", method="asymptotic").pvalue)
                 for side in ("greater", "less"))


def _kept(zero_tails: tuple[float, float], lower: float | None, upper: float | None) -> tuple[bool, bool]:
    """Whether the test keeps θ = 0 on the interval's lower and upper side."""
    ge, le = zero_tails
    return lower is not None and ge > lower, upper is not None and le > upper


class _Walsh:
    """Order statistics of the Walsh averages (d_i + d_j) / 2, i <= j, of sorted ``d`` without listing all
    m(m+1)/2 of them: distinct values with multiplicities when there are few, else bisection on a count."""

    def __init__(self, d: np.ndarray):
        self.d, self.n = d, d.size * (d.size + 1) // 2
        values, counts = np.unique(d, return_counts=True)
        self.table = None
        if values.size <= 2_000:  # e.g. differences of right/wrong items: at most 3 distinct values
            i, j = np.triu_indices(values.size)
            weight = np.where(i == j, counts[i] * (counts[i] + 1) // 2, counts[i] * counts[j])
            averages = (values[i] + values[j]) / 2
            order = np.argsort(averages, kind="stable")
            self.table = averages[order], np.cumsum(weight[order])

    def order(self, rank: int) -> float:
        """The rank-th smallest Walsh average (1-based)."""
        if self.table is not None:
            averages, cumulative = self.table
            return float(averages[np.searchsorted(cumulative, rank)])
        low, high = float(self.d[0]), float(self.d[-1])
        for _ in range(200):  # bisection to adjacent floats
            mid = (low + high) / 2
            if mid in (low, high):
                break
            if self._at_most(mid) >= rank:
                high = mid
            else:
                low = mid
        return high

    def _at_most(self, t: float) -> int:
        """How many Walsh averages are <= t."""
        j = np.searchsorted(self.d, 2 * t - self.d, side="right")
        return int(np.maximum(j - np.arange(self.d.size), 0).sum())


def _binomial(wins: int, losses: int, alternative: str, level: float) -> ClosedFormResult:
    """Exact binomial test of A's share of the decided pairs against 1/2; ``statistic`` = wins, ``estimate``
    = wins / (wins + losses) with its Clopper-Pearson interval."""
    n = wins + losses
    if n == 0:  # nothing decided: scipy's binomtest refuses n = 0
        return ClosedFormResult(0.0, 1.0, *intervals.clopper_pearson(0, 0, level, alternative), 1.0, 0.5, 0, 0)
    ge, le = (float(stats.binom.sf(k - 1, n, 0.5)) for k in (wins, losses))  # P(wins >= w), P(losses >= l)
    p = _DISCRETE[alternative](ge, le)  # = scipy's binomtest, symmetric in A and B to the last bit
    return ClosedFormResult(float(wins), float(p), *intervals.clopper_pearson(wins, n, level, alternative),
                            sided_floor(0.5 ** n, alternative), wins / n, wins, losses)


def sign_test(a, b, *, alternative: str = H1, confidence_level: float = 0.95) -> ClosedFormResult:
    """Sign test: exact binomial on the non-zero differences; ``statistic`` is the number of A wins."""
    check_alternative(alternative := _h1(alternative))
    level = check_level(confidence_level)
    d = differences(*paired_values(a, b))
    return _binomial(int((d > 0).sum()), int((d < 0).sum()), alternative, level)


def mcnemar(a_correct, b_correct, *, alternative: str = H1, exact: bool = True,
            confidence_level: float = 0.95) -> ClosedFormResult:
    """McNemar's test (McNemar 1947) on the discordant pairs b (only A right) and c (only B right).

    ``exact=True``: binomial test of b out of b + c against 1/2; ``statistic`` = b.
    ``exact=False``: continuity-corrected chi-square (two-sided) or signed z (one-sided), see the module
    docstring; ``p_floor`` is then 0. Either way ``estimate`` = b / (b + c) with its Clopper-Pearson interval.
    """
    check_alternative(alternative := _h1(alternative))
    level = check_level(confidence_level)
    if not isinstance(exact, (bool, np.bool_)):
        raise SettingsError(f"`exact` must be True or False, not {exact!r}")
    names = ("a_correct", "b_correct")
    x, y = paired_values(a_correct, b_correct, names)
    for values, name in zip((x, y), names):
        if not np.isin(values, (0.0, 1.0)).all():
            bad = values[~np.isin(values, (0.0, 1.0))][0]
            raise InputError(f"`{name}` must be binary correctness (0/1 or True/False), found {bad:g}",
                             hint="McNemar's test needs right/wrong per item; use another test for scores.")
    b, c = int((x > y).sum()), int((x < y).sum())
    exact_result = _binomial(b, c, alternative, level)
    if exact or b + c == 0:
        return exact_result
    z = math.copysign(max(abs(b - c) - 1, 0), b - c) / math.sqrt(b + c)
    statistic, p = z, sided_p(stats.norm, z, alternative)
    if alternative == "two-sided":  # report the chi-square users know; same p as the two-sided z
        statistic, p = z * z, float(stats.chi2.sf(z * z, 1))
    return replace(exact_result, statistic=statistic, p_value=p, p_floor=0.0, exact=False)
