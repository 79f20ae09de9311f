"""Right/wrong items compared in pairs: only the discordant items (one system right, the other wrong) move δ.

Per item the chance of (both right, only A, only B, both wrong) from two accuracies and their agreement, and
the paired bootstrap's one-sided p as b → ∞ from the discordant counts alone (O(√n) terms, exact up to 1e-13
tails): what power planning and the Classroom's exact p and power compute from.
"""

from __future__ import annotations

import numpy as np

from .._lazy import stats
from ..errors import SettingsError

__all__ = ["support", "greater_p", "smallest_n", "outcome_probabilities"]


def support(n, p) -> tuple[np.ndarray, np.ndarray]:
    """The first and last values of Bin(n, p) but its far tails (8 sd and 10 more out: each below 1e-13)."""
    n, p = np.asarray(n), np.asarray(p, dtype=float)
    spread = 8 * np.sqrt(n * p * (1 - p)) + 10
    return np.maximum(0, np.floor(n * p - spread)).astype(int), np.minimum(n, np.ceil(n * p + spread)).astype(int)


def greater_p(n: int, only_a, only_b) -> np.ndarray:
    """The one-sided paired bootstrap p (b → ∞) of test sets of n right/wrong items where only A is right on
    ``only_a`` and only B on ``only_b`` (arrays): P(X* − Y* ≥ 2(only_a − only_b)) over resamples, summed over
    the resample's discordant count M* ~ Bin(n, m/n), given which X* ~ Bin(M*, only_a/m) (O(√n) terms each,
    where :func:`sigcore.teaching.exact_bootstrap_p` enumerates O(n²) cells)."""
    only_a, only_b = np.broadcast_arrays(np.asarray(only_a), np.asarray(only_b))
    m = only_a + only_b
    first, last = support(n, m / n)
    count = first[..., None] + np.arange(int(np.max(last - first)) + 1)
    weight = np.where(count <= last[..., None], stats.binom.pmf(np.minimum(count, n), n, (m / n)[..., None]), 0)
    count = np.minimum(count, n)
    share = np.divide(only_a, m, out=np.zeros(m.shape), where=m > 0)[..., None]
    need = np.ceil((2 * (only_a - only_b)[..., None] + count) / 2)  # X* − (M* − X*) ≥ 2(only_a − only_b)
    p = np.sum(weight * stats.binom.sf(need - 1, count, share), axis=-1)
    return np.where(m == 0, 1.0, np.minimum(1.0, p))


def smallest_n(ns, power, target: float = 0.8) -> int | None:
    """The smallest test-set size in ``ns`` whose power reaches ``target``; None if none does."""
    return min((int(n) for n, p in zip(ns, power) if p >= target), default=None)


def outcome_probabilities(accuracy_a: float, accuracy_b: float, agreement: float) -> np.ndarray:
    """Per item, the chance of (both right, only A, only B, both wrong) for these accuracies and agreement."""
    only_a = (1 - agreement + accuracy_a - accuracy_b) / 2
    only_b = (1 - agreement - accuracy_a + accuracy_b) / 2
    cells = np.array([accuracy_a - only_a, only_a, only_b, 1 - accuracy_a - only_b])
    if np.any(cells < -1e-12) or not all(0 <= v <= 1 for v in (accuracy_a, accuracy_b, agreement)):
        raise SettingsError(f"no two systems have accuracies {accuracy_a:g} and {accuracy_b:g} and agree on "
                            f"{agreement:g} of the items",
                            hint="Agreement can be at most 1 - |accuracy_a - accuracy_b|, and must leave room for "
                                 "the items both get right and both get wrong.")
    return np.clip(cells, 0, None) / np.clip(cells, 0, None).sum()
