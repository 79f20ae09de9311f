"""Numbers for teaching the paired bootstrap (SLP3 §4.11): exact p-values, the null and power by simulation.

For two systems scored right/wrong per item only the discordant items move delta: a resample x^(i) of n items
holds X items where only A is right and Y where only B is, (X, Y, rest) ~ Multinomial(n, (p_A, p_B, rest)),
and delta(x^(i)) = (X - Y) / n. Enumerating (X, Y) gives the bootstrap p of eq. 4.48 exactly, which a class
can watch the Monte-Carlo estimate converge to.

Simulated test sets draw each item's (A right, B right) from four cells set by the two accuracies and the
agreement rate (the share of items where both are right or both wrong).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._lazy import stats
from ..comparison import compare
from ..contract import DEFAULT_ALPHA, DEFAULT_SEED, SIMULATION_RESAMPLES, check_alpha, check_alternative, extreme, tie
from ..errors import PARAMETER, SettingsError
from ..statistics.discordant import greater_p, outcome_probabilities, support

__all__ = ["Draws", "accuracies", "draw_test_sets", "exact_bootstrap_p", "nearest_exact_p", "paired_outcomes",
           "null_p_values", "power", "exact_power", "rejection_rate", "textbook_number"]

_BLOCK = 1_000  # test sets per seeded block, so drawing 1, then 10, then 100 gives the same x^(i) as 111 at once


@dataclass(frozen=True)
class Draws:
    """Bootstrap test sets x^(start+1) ... x^(stop) of Figure 4.11, one row each."""

    start: int
    documents: np.ndarray  # (draws, n) indices into x, with repeats
    score_a: np.ndarray  # accuracy of A on each x^(i)
    score_b: np.ndarray
    delta: np.ndarray  # delta(x^(i))
    counted: np.ndarray  # delta(x^(i)) >= 2·delta(x): what s counts in eq. 4.48


def accuracies(a_correct, b_correct) -> tuple[float, float, float]:
    """A%, B% and delta(x) = A% - B% on the test set x, as in Figure 4.11."""
    a, b = _right_wrong(a_correct, b_correct)
    return float(a.mean()), float(b.mean()), float(a.mean() - b.mean())


def draw_test_sets(a_correct, b_correct, stop: int, *, start: int = 0, seed: int = DEFAULT_SEED) -> Draws:
    """The paired bootstrap document by document, as Figure 4.12 writes it (the engine draws pattern counts
    instead, from the same distribution): each x^(i) takes n documents of x at random with replacement."""
    a, b = _right_wrong(a_correct, b_correct)
    n, blocks = len(a), range(start // _BLOCK, -(-stop // _BLOCK))
    drawn = np.concatenate([np.random.default_rng([seed, k]).integers(0, n, size=(_BLOCK, n)) for k in blocks]
                           or [np.empty((0, n), dtype=int)])
    documents = drawn[start - blocks.start * _BLOCK: stop - blocks.start * _BLOCK]
    score_a, score_b = a[documents].mean(axis=1), b[documents].mean(axis=1)
    delta, observed = score_a - score_b, a.mean() - b.mean()
    counted = extreme(delta, "greater", observed, tie(a.mean(), b.mean()), centre=observed)  # δ(x⁽ⁱ⁾) ≥ 2·δ(x)
    return Draws(start, documents, score_a, score_b, delta, counted)


def exact_bootstrap_p(a_correct, b_correct, *, alternative: str = "greater") -> float:
    """The paired bootstrap p of Berg-Kirkpatrick et al. (2012) for right/wrong items, by enumeration (O(n^2))."""
    a, b = _right_wrong(a_correct, b_correct)
    check_alternative(alternative)
    n, only_a, only_b = len(a), int(np.sum(a & ~b)), int(np.sum(~a & b))
    delta = (only_a - only_b) / n
    x, y = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    possible = x + y <= n
    x, y = x[possible], y[possible]
    probability = stats.multinomial.pmf(np.c_[x, y, n - x - y], n, [only_a / n, only_b / n, 1 - (only_a + only_b) / n])
    d = (x - y) / n
    counted = extreme(d, alternative, delta, tie(a.mean(), b.mean()), centre=delta)  # the engine's tail, exactly
    return float(min(1.0, probability[counted].sum()))


def nearest_exact_p(target: float, n: int, *, alternative: str = "greater") -> tuple[float, int, int]:
    """Of every test set of ``n`` right/wrong items, the exact bootstrap p nearest ``target``, with the numbers of
    items only A and only B gets right (p depends on nothing else: the items both or neither get right leave delta
    unchanged in every resample). What a class can reproduce with n items: SLP3's "47 of 10,000, p = .0047" is not
    the exact p of any test set of 10 documents."""
    if not (isinstance(n, (int, np.integer)) and n > 0):
        raise SettingsError(f"{PARAMETER} must be a positive whole number of items, not {n!r}", parameter="n")
    found = []
    for only_a in range(n + 1):
        for only_b in range(n + 1 - only_a):
            a = [True] * only_a + [False] * (n - only_a)
            b = [False] * only_a + [True] * only_b + [False] * (n - only_a - only_b)
            found.append((exact_bootstrap_p(a, b, alternative=alternative), only_a, only_b))
    return min(found, key=lambda found: abs(found[0] - target))


def paired_outcomes(n: int, accuracy_a: float, accuracy_b: float, agreement: float,
                    rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One simulated test set: per item, whether A and whether B is right."""
    cells = outcome_probabilities(accuracy_a, accuracy_b, agreement)
    kind = rng.choice(4, size=n, p=cells)  # 0: both right, 1: only A, 2: only B, 3: both wrong
    return np.isin(kind, (0, 1)).astype(int), np.isin(kind, (0, 2)).astype(int)


def null_p_values(n: int, accuracy: float, agreement: float, *, test: str = "bootstrap", n_sims: int = 200,
                  n_resamples: int = SIMULATION_RESAMPLES, alternative: str = "greater",
                  seed: int = DEFAULT_SEED) -> np.ndarray:
    """p-values of ``test`` on ``n_sims`` test sets where H0 is true (both systems equally accurate)."""
    return _simulate(n, accuracy, accuracy, agreement, test, n_sims, n_resamples, alternative, seed)


def power(ns, accuracy_a: float, accuracy_b: float, agreement: float, *, test: str = "bootstrap",
          alpha: float = DEFAULT_ALPHA, n_sims: int = 200, n_resamples: int = SIMULATION_RESAMPLES,
          seed: int = DEFAULT_SEED) -> np.ndarray:
    """The share of simulated test sets of each size in ``ns`` where ``test`` finds A better at ``alpha``
    (Card et al. 2020: small test sets rarely detect small true differences)."""
    check_alpha(alpha)
    return np.array([np.mean(_simulate(n, accuracy_a, accuracy_b, agreement, test, n_sims, n_resamples, "greater",
                                       seed + i) <= alpha) for i, n in enumerate(ns)])


def exact_power(ns, accuracy_a: float, accuracy_b: float, agreement: float, *,
                alpha: float = DEFAULT_ALPHA) -> np.ndarray:
    """The power of the one-sided paired bootstrap with b → ∞ (each test set's exact p) on test sets of each size
    in ``ns``: no simulation noise, so the smallest n with 80% power cannot flip from one run to the next.

    A test set of n items has M discordant items, M ~ Bin(n, p_A + p_B), of which X ~ Bin(M, p_A / (p_A + p_B))
    favour A. Its bootstrap p falls as X grows (M fixed), so for each M one binary search finds the smallest X with
    p ≤ α, and the power is the sum over M of P(M) · P(X ≥ that X | M). Tails below 1e-13 are left out.
    """
    check_alpha(alpha)
    _, p_a, p_b, _ = outcome_probabilities(accuracy_a, accuracy_b, agreement)
    return np.array([_exact_power(int(n), p_a, p_b, alpha) for n in ns])


def _exact_power(n: int, p_a: float, p_b: float, alpha: float) -> float:
    if p_a + p_b == 0:
        return 0.0  # no item ever separates A from B: delta(x) = 0 and p = 1
    first, last = support(n, p_a + p_b)
    m = np.arange(max(int(first), 1), int(last) + 1)  # discordant items; with none, p = 1
    share = p_a / (p_a + p_b)
    low, high = support(m, share)
    high = high + 1  # the smallest X in [low, high] with p <= alpha; high + 1 if none: all binary searches at once
    while np.any(low < high):
        active = low < high
        mid = (low + high) // 2
        above = greater_p(n, np.where(active, mid, 0), m - np.where(active, mid, 0)) > alpha
        low, high = np.where(active & above, mid + 1, low), np.where(active & ~above, mid, high)
    return float(np.sum(stats.binom.pmf(m, n, p_a + p_b) * stats.binom.sf(low - 1, m, share)))


def rejection_rate(p_values, alpha: float) -> float:
    """The share of p-values at or below ``alpha``: under H0, the false-alarm rate, about ``alpha`` for a
    calibrated test."""
    return float(np.mean(np.asarray(p_values) <= alpha))


def _right_wrong(a_correct, b_correct) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.asarray(a_correct, dtype=bool), np.asarray(b_correct, dtype=bool)
    if a.shape != b.shape or a.ndim != 1 or not len(a):
        raise SettingsError("a_correct and b_correct must be two equally long, non-empty lists of right/wrong")
    return a, b


def _simulate(n, accuracy_a, accuracy_b, agreement, test, n_sims, n_resamples, alternative, seed) -> np.ndarray:
    rng = np.random.default_rng(seed)
    gold = np.ones(n, dtype=int)
    p = np.empty(n_sims)
    for i in range(n_sims):
        a, b = paired_outcomes(n, accuracy_a, accuracy_b, agreement, rng)
        p[i] = compare(gold, a, b, test=test, n_resamples=n_resamples, alternative=alternative, seed=seed + i,
                       ci_method=None).p_value
    return p


def textbook_number(v: float) -> str:
    """.70 and −.20 (a minus sign, not a hyphen), as SLP3's figures write accuracies and their differences."""
    return f"{v:.2f}".replace("0.", ".", 1).replace("-", "−")
