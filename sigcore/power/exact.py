"""The exact power on right/wrong items: every test set's discordant count and A's wins enumerated, each weighed by
the test's chance of rejecting it (McNemar, t, permutation and bootstrap)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._lazy import stats
from ..contract import TIE
from ..statistics.discordant import greater_p, support
from .items import Binary, Settings
from .tails import bootstrap_p, random_rejection

__all__ = ["exact_binary"]

_EPS = 1e-12  # rejection probabilities this close to 0 or 1 are 0 or 1 in the exact sums
_SMALL = 25  # right/wrong test sets with at most this many discordant items get the bootstrap's exact p


def exact_binary(model: Binary, n: int, s: Settings) -> float:
    """Right/wrong items: the sum over every test set (M discordant items, X of them A's) of its probability times
    the test's probability of rejecting it."""
    two = s.alternative == "two-sided"
    p_a, p_b = (model.p_b, model.p_a) if s.alternative == "less" else (model.p_a, model.p_b)  # each test is symmetric
    reject = _BINARY_TESTS[s.test](n, s, two)
    q = p_a + p_b
    share = p_a / q if q > 0 else 0.5
    first, last = support(n, q)
    m = np.arange(int(first), int(last) + 1)
    start = (m + 1) // 2 if two else np.zeros_like(m)  # two-sided: X and M - X reject alike; count the upper half
    lo = _first(m, start, lambda mm, xx: reject(mm, xx) > _EPS)
    hi = _first(m, lo, lambda mm, xx: reject(mm, xx) >= 1 - _EPS)
    total = stats.binom.sf(hi - 1, m, share)  # X >= hi: rejected for sure
    if two:  # its mirror, X <= M - hi, without counting X = M / 2 twice
        total = total + stats.binom.cdf(m - hi, m, share) - np.where(2 * hi == m, stats.binom.pmf(hi, m, share), 0)
    width = int(np.max(hi - lo)) if len(m) else 0
    if width > 0:  # the band where a rejection is a chance (random resamples), not a certainty
        x = lo[:, None] + np.arange(width)
        inside = x < hi[:, None]
        mm = np.broadcast_to(m[:, None], x.shape)
        x = np.where(inside, x, mm)
        weight = stats.binom.pmf(x, mm, share)
        if two:
            weight = weight + np.where(2 * x != mm, stats.binom.pmf(mm - x, mm, share), 0.0)
        total = total + np.sum(np.where(inside, weight * reject(mm, x), 0.0), axis=1)
    return float(np.sum(stats.binom.pmf(m, n, q) * total))


def _first(m: np.ndarray, start: np.ndarray, hit: Callable) -> np.ndarray:
    """For each M, the first X in [start, M] where ``hit`` (monotone in X) holds; M + 1 if none. All M at once."""
    low, high = start.copy(), m + 1
    while np.any(low < high):
        active = low < high
        mid = np.minimum((low + high) // 2, m)
        yes = hit(m, mid)
        low, high = np.where(active & ~yes, mid + 1, low), np.where(active & yes, mid, high)
    return low


def _mcnemar_rejects(n: int, s: Settings, two: bool):
    level = s.alpha / 2 if two else s.alpha  # 2p <= alpha exactly when p <= alpha / 2: doubling is exact

    def reject(m, x):  # the exact binomial p of closed_form.mcnemar; with no discordant pair p = 1
        return (stats.binom.sf(x - 1, m, 0.5) <= level).astype(float)
    return reject


def _t_rejects(n: int, s: Settings, two: bool):
    level = s.alpha / 2 if two else s.alpha

    def reject(m, x):  # differences: X of +1, M - X of -1, the rest 0
        mean = (2 * x - m) / n
        squares = np.maximum(m - n * mean * mean, 0.0)  # sum of squared deviations
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(squares > 0, mean / np.sqrt(squares / (n - 1) / n), np.sign(mean) * np.inf)
        return ((stats.t.sf(t, n - 1) <= level) & (m > 0)).astype(float)  # constant: the limit, as closed_form
    return reject


def _permutation_rejects(n: int, s: Settings, two: bool):
    enumerated = s.n_resamples.bit_length() - 1  # 2^M <= b: the engine takes every swap assignment

    def reject(m, x):
        p = stats.binom.sf(x - 1, m, 0.5)  # swapping M discordant pairs: A keeps X* ~ Bin(M, 1/2) of them
        if two:
            p = np.minimum(1.0, 2 * p)
        return np.where(m <= enumerated, (p <= s.alpha).astype(float),
                        random_rejection(p, s.alpha, s.n_resamples, plus_one=True))
    return reject


def _bootstrap_rejects(n: int, s: Settings, two: bool):
    def reject(m, x):
        y = m - x
        total = (x - y).astype(float)  # n·delta
        mean = total / n
        squares = np.maximum(m - total * mean, 0.0)
        cubes = x * (1 - mean) ** 3 + y * (-1 - mean) ** 3 - (n - m) * mean**3
        p = bootstrap_p(total, squares, cubes, squares == 0, TIE * m, "two-sided" if two else "greater",
                        1.0, -float(n))
        small = np.flatnonzero((m <= _SMALL) & (x > y))  # few discordant items: the expansion is off, sum exactly
        if len(small):
            xs, ys = x.ravel()[small], y.ravel()[small]
            exact = greater_p(n, xs, ys) + (_at_most_zero(n, xs, ys) if two else 0.0)
            p = p.copy()
            p.ravel()[small] = np.minimum(exact, 1.0)
        return random_rejection(np.clip(p, 0.0, 1.0), s.alpha, s.n_resamples, plus_one=False)
    return reject


def _at_most_zero(n: int, only_a: np.ndarray, only_b: np.ndarray) -> np.ndarray:
    """P(X* <= Y*) over bootstrap resamples of right/wrong items (the two-sided test's other tail), summed over
    the resample's discordant count M* ~ Bin(n, m/n) like statistics.discordant.greater_p."""
    m = only_a + only_b
    first, last = support(n, m / n)
    count = first[:, None] + np.arange(int(np.max(last - first)) + 1)
    weight = np.where(count <= last[:, None], stats.binom.pmf(np.minimum(count, n), n, (m / n)[:, None]), 0.0)
    count = np.minimum(count, n)
    share = np.divide(only_a, m, out=np.zeros(m.shape), where=m > 0)[:, None]
    return np.sum(weight * stats.binom.cdf(count // 2, count, share), axis=1)


_BINARY_TESTS = {"mcnemar": _mcnemar_rejects, "t": _t_rejects, "permutation": _permutation_rejects,
                 "bootstrap": _bootstrap_rejects}
