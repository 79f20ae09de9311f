"""The power at one size: exact on right/wrong items, else the share of simulated test sets of the pilot's items on
which each test rejects (resampled as the engine does on few items, its p in closed form beyond)."""

from __future__ import annotations

import math

import numpy as np

from .._lazy import stats
from ..contract import TIE, extreme, sided_p
from ..statistics import intervals
from .exact import exact_binary
from .items import Binary, Block, Scores, Settings, blocks
from .outcomes import Power
from .tails import Saddle, bootstrap_p, random_rejection

__all__ = ["MC_LEVEL", "power_of"]

MC_LEVEL = 0.95  # level of the Monte-Carlo interval of a simulated power
_NESTED = 50  # up to this many items a resampling test is simulated as run: no smooth approximation holds
_INNER = 2_000  # at most this many of its resamples (more only smooth its p's noise)
_SADDLE = 200  # up to this many items the resampling tests' p is a saddlepoint approximation, beyond it Edgeworth


def power_of(model, n: int, s: Settings, sims: int, seed: int, tag: int) -> Power:
    """The power on test sets of ``n`` items of ``model``: exact on right/wrong items, else over ``sims`` simulated
    test sets drawn from the stream seeded with (``seed``, ``tag``, n)."""
    if isinstance(model, Binary):
        p = float(np.clip(exact_binary(model, n, s), 0.0, 1.0))
        return Power(n, p, 0.0, p, p, True)
    rng = np.random.default_rng([seed, tag, n])
    inner = min(s.n_resamples, _INNER) if s.test != "t" and n <= _NESTED else 0
    test = _nested_scores if inner else _SCORE_TESTS[s.test]
    reject = np.concatenate([test(block, model, s, rng) for block in blocks(model, n, sims, rng, inner)])
    count = float(reject.sum())
    p = count / sims
    low, high = intervals.clopper_pearson(count, sims, MC_LEVEL)
    return Power(n, p, math.sqrt(p * (1 - p) / sims), low, high, False)


def _enumerated(s: Settings) -> int:
    """Up to how many moving items the permutation test's p is exact: the engine takes every assignment when
    2^M <= b (beyond 2^12 the Edgeworth p stands in for the exact one)."""
    return min(s.n_resamples.bit_length() - 1, 12) if s.test == "permutation" else -1


def _nested_scores(block: Block, model: Scores, s: Settings, rng: np.random.Generator) -> np.ndarray:
    """Few items: each test set resampled as the engine does (b resamples, at most ``_INNER``), where no smooth
    approximation of its lumpy resampling distribution holds."""
    d, n, total = block.d, block.n, block.total
    b = min(s.n_resamples, _INNER)
    tie = (TIE * block.size)[:, None]
    if s.test == "bootstrap":  # the engine's tails (contract.extreme), on sums n·δ: around n·δ(x), around 0
        star = d[np.arange(len(d))[:, None, None], rng.integers(0, n, size=(len(d), b, n))].sum(axis=2)
        counted = extreme(star, s.alternative, total[:, None], tie, centre=total[:, None])
    else:
        signs = 1 - 2 * rng.integers(0, 2, size=(len(d), b, n), dtype=np.int8)
        counted = extreme(np.einsum("rbn,rn->rb", signs, d), s.alternative, total[:, None], tie)
    count = counted.sum(axis=1)
    plus_one = s.test == "permutation"
    if b == s.n_resamples:  # the engine's own rule on its own count
        most = intervals.largest_count(s.alpha, b + plus_one) - plus_one
        reject = ((count <= most) & (most >= (0 if plus_one else 1))).astype(float)
    else:  # more resamples than simulated: the count's share stands for p
        reject = random_rejection(count / b, s.alpha, s.n_resamples, plus_one)
    if plus_one:
        for row, values in block.rows(np.flatnonzero(block.sum(d != 0) <= _enumerated(s))):
            reject[row] = float(_exact_permutation_p(values[values != 0], s.alternative) <= s.alpha)
    return reject


def _t_scores(block: Block, model: Scores, s: Settings, rng=None) -> np.ndarray:
    n = block.n
    mean = block.total / n
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(block.constant, np.sign(mean) * np.inf, mean / np.sqrt(block.squares / (n - 1) / n))
    p = sided_p(stats.t(n - 1), t, s.alternative)
    p = np.where(block.constant & (block.total == 0), 1.0, p)  # identical on every item: p = 1, as closed_form
    return (p <= s.alpha).astype(float)


def _bootstrap_scores(block: Block, model: Scores, s: Settings, rng=None) -> np.ndarray:
    n, tie = block.n, TIE * block.size
    base = n * (model.values[0] + model.shift)  # the resampled sum lies on base + step·Z
    p = bootstrap_p(block.total, block.squares, block.cubes, block.constant, tie, s.alternative, model.step, base)
    if n <= _SADDLE:  # few items: the saddlepoint's relative error, not Edgeworth's absolute one
        saddle = Saddle("bootstrap", block, model.step, base)
        twice = 2 * block.total
        if s.alternative == "greater":
            q = saddle.upper(twice)
        elif s.alternative == "less":
            q = saddle.lower(twice)
        else:
            zero = np.zeros(len(twice))
            q = np.where(block.total > 0, saddle.upper(twice) + saddle.lower(zero),
                         saddle.lower(twice) + saddle.upper(zero))
        p = np.where(np.isfinite(q) & ~block.constant & (np.abs(block.total) > tie), q, p)
    return random_rejection(np.clip(p, 0.0, 1.0), s.alpha, s.n_resamples, plus_one=False)


def _permutation_scores(block: Block, model: Scores, s: Settings, rng=None) -> np.ndarray:
    """The permutation test's p (b -> infinity): S* = sum of ±d is symmetric, with variance sum(d^2) and fourth
    cumulant -2 sum(d^4); saddlepoint (few items) or one-term Edgeworth on its lattice S + 2g·Z; exact where the
    engine enumerates every assignment."""
    n, g, total = block.n, model.sign_step, block.total
    d2 = block.d * block.d
    square, fourth = block.sum(d2), block.sum(d2 * d2)
    moving = ~(block.constant & (np.abs(total) <= TIE * block.size))  # else every d is 0
    with np.errstate(divide="ignore", invalid="ignore"):
        sd = np.where(moving, np.sqrt(square), 1.0)
        kurtosis = np.where(moving, -fourth / (12 * square**2), 0.0)  # kappa_4 / 24 of the standardised sum

    def upper(x):  # P(S* >= x), x on the lattice of S*
        z = (x - g) / sd
        return stats.norm.sf(z) + stats.norm.pdf(z) * kurtosis * (z**3 - 3 * z)
    threshold = {"greater": total, "less": -total, "two-sided": np.abs(total)}[s.alternative]
    p = upper(threshold)
    if n <= _SADDLE:
        q = Saddle("sign", block, 2 * g, 0.0).upper(threshold, corrected=threshold - g)
        p = np.where(np.isfinite(q), q, p)
    if s.alternative == "two-sided":  # S* is symmetric
        p = 2 * p
    p = np.clip(np.where(moving, p, 1.0), 0.0, 1.0)
    reject = random_rejection(p, s.alpha, s.n_resamples, plus_one=True)
    enumerated = _enumerated(s)
    for row, d in block.rows(np.flatnonzero(block.sum(block.d != 0) <= enumerated)):
        reject[row] = float(_exact_permutation_p(d[d != 0], s.alternative) <= s.alpha)  # the engine enumerates
    return reject


def _exact_permutation_p(d: np.ndarray, alternative: str) -> float:
    """The permutation p of a test set over all 2^M sign assignments of its non-zero differences ``d``."""
    signs = 1 - 2 * ((np.arange(2 ** len(d))[:, None] >> np.arange(len(d))) & 1)
    sums, total = signs @ d, float(d.sum())
    return float(extreme(sums, alternative, total, TIE * float(np.abs(d).sum())).mean())


_SCORE_TESTS = {"t": _t_scores, "bootstrap": _bootstrap_scores, "permutation": _permutation_scores}
