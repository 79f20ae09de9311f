"""Closed-form paired tests on per-item values of two systems A and B (same items, same order).

Paired t-test (Student 1908), its normal approximation for large n (z-test), the Wilcoxon signed-rank
test (Wilcoxon 1945), the sign test (exact binomial on the non-zero differences) and McNemar's test on
binary correctness (McNemar 1947); Dror, Baumer, Shlomov & Reichart (2018) discuss when each one fits an
NLP comparison. Every number equals scipy.stats / statsmodels on ordinary data; what this module adds
is the contract of DESIGN.md for the cases where those libraries return nan or raise:

- Identical systems (all differences zero, no non-zero difference, no discordant pair) get p = 1 in
  every alternative, with statistic 0 (t, z, W) or the count of A wins (sign, McNemar).
- t/z with zero variance but a non-zero constant difference c (every item says A is better by c):
  the limit of the test as the spread goes to 0, i.e. statistic = copysign(inf, c), p = 0 in the
  direction of c and in "two-sided", p = 1 against it; the CI is [c, c]. This is also what scipy
  returns for that input, and what near-constant differences (float noise) tend to anyway.
- "greater" means A is better (d = a - b > 0, or A wins more discordant pairs), "less" the opposite;
  swapping A and B turns one into the other with the same p.
- McNemar with ``exact=False``: chi2 = max(|b - c| - 1, 0)^2 / (b + c) for "two-sided" (statsmodels'
  ``mcnemar(exact=False, correction=True)``, except that b == c gives chi2 = 0 and p = 1 where
  statsmodels' correction overshoots zero); one-sided tests use the signed continuity-corrected
  z = sign(b - c) * max(|b - c| - 1, 0) / sqrt(b + c) with a normal tail, and report z as statistic.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import stats

from sigcore.errors import InputError, SettingsError

ALTERNATIVES = ("greater", "less", "two-sided")

# Tail probability of a statistic s under a symmetric continuous null, per alternative.
_TAILS: dict[str, Callable[[object, float], float]] = {
    "greater": lambda dist, s: float(dist.sf(s)),
    "less": lambda dist, s: float(dist.cdf(s)),
    "two-sided": lambda dist, s: float(2 * dist.sf(abs(s))),
}
# Smallest p of an exact test whose most extreme outcome has probability `tail` on one side.
_FLOORS: dict[str, Callable[[float], float]] = {
    "greater": lambda tail: tail,
    "less": lambda tail: tail,
    "two-sided": lambda tail: min(1.0, 2 * tail),
}


@dataclass(frozen=True)
class ClosedFormResult:
    """Outcome of one closed-form test.

    ``ci_low``/``ci_high``: two-sided interval of the mean difference at ``confidence_level`` (t and z
    only, else None). ``p_floor``: the smallest p this test can give for these n (0.0 when asymptotic).
    """

    statistic: float
    p_value: float
    ci_low: float | None
    ci_high: float | None
    p_floor: float

    def __repr__(self) -> str:
        ci = "" if self.ci_low is None else f", ci=[{self.ci_low:.4g}, {self.ci_high:.4g}]"
        return f"ClosedFormResult(statistic={self.statistic:.4g}, p_value={self.p_value:.4g}{ci})"


def _check_alternative(alternative: str) -> str:
    if not isinstance(alternative, str) or alternative not in _TAILS:
        raise SettingsError(f"`alternative` must be one of {', '.join(map(repr, ALTERNATIVES))}, "
                            f"not {alternative!r}", hint="'greater' tests whether A beats B.")
    return alternative


def _check_confidence(confidence_level: float) -> float:
    ok = isinstance(confidence_level, numbers.Real) and not isinstance(confidence_level, bool)
    if not ok or not 0 < confidence_level < 1:
        raise SettingsError(f"`confidence_level` must be a number strictly between 0 and 1, "
                            f"not {confidence_level!r}", hint="Use e.g. 0.95 for a 95% interval.")
    return float(confidence_level)


def _paired_values(a, b, names: tuple[str, str] = ("a", "b"), min_n: int = 1) -> tuple[np.ndarray, ...]:
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


def _mean_test(a, b, alternative: str, confidence_level: float):
    """Shared part of t and z: validation, d = a - b, and the degenerate zero-variance results."""
    _check_alternative(alternative)
    level = _check_confidence(confidence_level)
    x, y = _paired_values(a, b, min_n=2)  # a standard deviation needs two items
    d = x - y
    if np.ptp(d) > 0:
        return d, level, None
    c = float(d[0])
    if c == 0:  # identical systems: no evidence either way
        return d, level, ClosedFormResult(0.0, 1.0, 0.0, 0.0, 0.0)
    statistic = math.copysign(math.inf, c)  # the limit of mean/se as the spread goes to 0
    # any continuous null has tails 0 and 1 at +-inf, so the normal one stands in for t's
    return d, level, ClosedFormResult(statistic, _TAILS[alternative](stats.norm, statistic), c, c, 0.0)


def _interval(d: np.ndarray, quantile: Callable[[float], float], level: float) -> tuple[float, float]:
    mean, se = float(d.mean()), float(d.std(ddof=1) / math.sqrt(d.size))
    half = float(quantile((1 + level) / 2)) * se
    return mean - half, mean + half


def paired_t(a, b, *, alternative: str = "greater", confidence_level: float = 0.95) -> ClosedFormResult:
    """Paired t-test of mean(a - b) = 0 (Student 1908), equal to ``scipy.stats.ttest_rel``."""
    d, level, degenerate = _mean_test(a, b, alternative, confidence_level)
    if degenerate is not None:
        return degenerate
    res = stats.ttest_rel(d, np.zeros_like(d), alternative=alternative)
    # the interval is two-sided whatever the test's alternative
    low, high = _interval(d, lambda q: stats.t.ppf(q, d.size - 1), level)
    return ClosedFormResult(float(res.statistic), float(res.pvalue), low, high, 0.0)


def paired_z(a, b, *, alternative: str = "greater", confidence_level: float = 0.95) -> ClosedFormResult:
    """Large-sample z-test z = mean(d) / (sd(d) / sqrt(n)) with a normal tail (statsmodels ``ztest``)."""
    d, level, degenerate = _mean_test(a, b, alternative, confidence_level)
    if degenerate is not None:
        return degenerate
    z = float(d.mean() / (d.std(ddof=1) / math.sqrt(d.size)))
    low, high = _interval(d, stats.norm.ppf, level)
    return ClosedFormResult(z, _TAILS[alternative](stats.norm, z), low, high, 0.0)


def _signed_rank_tails(nonzero: np.ndarray) -> tuple[float, float]:
    """P(R+ >= observed) and P(R+ <= observed) over all 2^m equally likely sign flips, midranks kept.

    Counted exactly by dynamic programming over doubled ranks (midranks are multiples of 1/2): the
    same numbers as scipy's exact test (no ties) and its enumerating permutation test (ties, zeros),
    in microseconds instead of seconds.
    """
    doubled = np.rint(2 * stats.rankdata(np.abs(nonzero))).astype(int)
    counts = np.zeros(doubled.sum() + 1)
    counts[0] = 1.0
    for r in doubled:  # each item adds its rank to R+ or not
        counts[r:] = counts[r:] + counts[:-r].copy()
    observed, total = int(doubled[nonzero > 0].sum()), 2.0 ** nonzero.size
    return float(counts[observed:].sum() / total), float(counts[:observed + 1].sum() / total)


# p of a discrete test from its two tails P(S >= s) and P(S <= s); two-sided doubles the smaller one.
_DISCRETE: dict[str, Callable[[float, float], float]] = {
    "greater": lambda ge, le: ge,
    "less": lambda ge, le: le,
    "two-sided": lambda ge, le: min(1.0, 2 * min(ge, le)),
}


def wilcoxon(a, b, *, alternative: str = "greater") -> ClosedFormResult:
    """Wilcoxon signed-rank test (Wilcoxon 1945), equal to ``scipy.stats.wilcoxon`` with its defaults.

    Zero differences are dropped (``zero_method='wilcox'``). Like scipy's ``method='auto'``: the exact
    null distribution without ties or zeros for n <= 50, or all sign flips with ties or zeros for
    n <= 13; else the normal approximation with continuity correction. ``statistic`` is scipy's:
    R+ one-sided, min(R+, R-) two-sided.
    """
    _check_alternative(alternative)
    x, y = _paired_values(a, b)
    d = x - y
    nonzero = d[d != 0]
    if nonzero.size == 0:  # identical systems: scipy returns nan or raises here
        return ClosedFormResult(0.0, 1.0, None, None, 1.0)
    clean = nonzero.size == d.size and np.unique(np.abs(nonzero)).size == nonzero.size
    if d.size > 50 or not (clean or d.size <= 13):
        res = stats.wilcoxon(d, alternative=alternative, zero_method="wilcox", method="asymptotic")
        return ClosedFormResult(float(res.statistic), float(res.pvalue), None, None, 0.0)
    ranks = stats.rankdata(np.abs(nonzero))
    r_plus = float(ranks[nonzero > 0].sum())
    r_minus = float(ranks.sum()) - r_plus
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    p = _DISCRETE[alternative](*_signed_rank_tails(nonzero))
    p_floor = _FLOORS[alternative](0.5 ** nonzero.size)  # only the all-same-sign flip is that extreme
    return ClosedFormResult(statistic, p, None, None, p_floor)


def _binomial(wins: int, losses: int, alternative: str) -> ClosedFormResult:
    """Exact binomial test of A's share of the decided pairs against 1/2; ``statistic`` = wins."""
    n = wins + losses
    if n == 0:  # nothing decided: scipy's binomtest refuses n = 0
        return ClosedFormResult(0.0, 1.0, None, None, 1.0)
    p = stats.binomtest(wins, n, 0.5, alternative=alternative).pvalue
    return ClosedFormResult(float(wins), float(p), None, None, _FLOORS[alternative](0.5 ** n))


def sign_test(a, b, *, alternative: str = "greater") -> ClosedFormResult:
    """Sign test: exact binomial on the non-zero differences; ``statistic`` is the number of A wins."""
    _check_alternative(alternative)
    x, y = _paired_values(a, b)
    return _binomial(int((x > y).sum()), int((x < y).sum()), alternative)


def mcnemar(a_correct, b_correct, *, alternative: str = "greater", exact: bool = True) -> ClosedFormResult:
    """McNemar's test (McNemar 1947) on the discordant pairs b (only A right) and c (only B right).

    ``exact=True``: binomial test of b out of b + c against 1/2; ``statistic`` = b.
    ``exact=False``: continuity-corrected chi-square (two-sided) or signed z (one-sided), see the module
    docstring; ``p_floor`` is then 0.
    """
    _check_alternative(alternative)
    if not isinstance(exact, (bool, np.bool_)):
        raise SettingsError(f"`exact` must be True or False, not {exact!r}")
    names = ("a_correct", "b_correct")
    x, y = _paired_values(a_correct, b_correct, names)
    for values, name in zip((x, y), names):
        if not np.isin(values, (0.0, 1.0)).all():
            bad = values[~np.isin(values, (0.0, 1.0))][0]
            raise InputError(f"`{name}` must be binary correctness (0/1 or True/False), found {bad:g}",
                             hint="McNemar's test needs right/wrong per item; use another test for scores.")
    b, c = int((x > y).sum()), int((x < y).sum())
    if exact or b + c == 0:
        return _binomial(b, c, alternative)
    z = math.copysign(max(abs(b - c) - 1, 0), b - c) / math.sqrt(b + c)
    if alternative == "two-sided":  # report the chi-square users know; same p as the two-sided z
        return ClosedFormResult(z * z, float(stats.chi2.sf(z * z, 1)), None, None, 0.0)
    return ClosedFormResult(z, _TAILS[alternative](stats.norm, z), None, None, 0.0)
