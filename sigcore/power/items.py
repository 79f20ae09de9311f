"""What a plan assumes about the items (right/wrong rates, or the pilot's per-item differences, shifted at will), the
test's settings, and the test sets drawn from the items in blocks of bounded memory."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..contract import TIE

__all__ = ["Settings", "Binary", "Scores", "Block", "blocks"]

_CELLS = 1 << 20  # largest (test sets x resamples) or (test sets x values) block: 8 MiB per float array


@dataclass(frozen=True)
class Settings:
    """The test planned for, its level, its alternative and its number of resamples."""

    test: str
    alpha: float
    alternative: str
    n_resamples: int


@dataclass(frozen=True)
class Binary:
    """Right/wrong items: only A right with probability p_a, only B right with p_b, else both alike."""

    p_a: float
    p_b: float

    @property
    def effect(self) -> float:
        return self.p_a - self.p_b

    @property
    def limit(self) -> float:
        return self.p_a + self.p_b  # the largest |delta| with as many discordant items

    spread, scale = 1.0, 1.0  # right/wrong items always vary when some are discordant

    def shifted(self, delta: float) -> Binary:
        q = self.p_a + self.p_b
        return Binary(max(0.0, (q + delta) / 2), max(0.0, (q - delta) / 2))


class Scores:
    """Per-item differences: the pilot's, every item equally likely, plus ``shift`` (B's scores moved).

    A shift moves every test set's differences, not which items it holds: the same seed draws the same sets.
    """

    def __init__(self, items: np.ndarray, shift: float = 0.0):
        self.items, self.shift = items, shift
        self.values, counts = np.unique(items, return_counts=True)
        self.probs = counts / len(items)
        self.effect = float(items.mean()) + shift
        self.spread, self.scale = float(items.std()), float(np.abs(items).max()) or 1.0
        self.limit = math.inf
        # lattices of the resampled sums: a bootstrap sum lies on n·(v_0 + shift) + h·Z, a permutation's on S + 2g·Z
        self.step = _lattice(self.values - self.values[0])
        self.sign_step = _lattice(self.values + shift)

    def shifted(self, delta: float) -> Scores:
        return Scores(self.items, delta - float(self.items.mean()))


def _lattice(values: np.ndarray) -> float:
    """The largest h with every value a multiple of h (to 1e-9 of the largest), 0 when only a tiny one would do
    (continuous values: no continuity correction)."""
    x = np.unique(np.abs(values[values != 0]))
    if not len(x):
        return 0.0
    scale = float(x[-1])
    tol, g = TIE * scale, float(x[0])
    for y in x[1:]:
        big, small = float(y), g
        while small > tol:
            rest = math.fmod(big, small)
            big, small = small, (0.0 if rest < tol or rest > small - tol else rest)
        g = big
        if g < 1e-7 * scale:
            return 0.0
    return g


class Block:
    """Simulated test sets of n items: a row of differences each (``w`` = 1), or, for n much larger than the
    pilot's distinct differences, a row of counts ``w`` over those values ``d``."""

    def __init__(self, w, d: np.ndarray, n: int):
        self.w, self.d, self.n = w, d, n
        self.total = self.sum(d)
        deviation = d - (self.total / n)[:, None]
        squared = deviation * deviation  # products, not powers: np.power is ten times slower
        self.squares = self.sum(squared)  # sum of squared deviations
        self.cubes = self.sum(squared * deviation)
        self.size = self.sum(np.abs(d))  # sum |d|, the scale of the tie tolerance
        self.constant = np.ptp(d, axis=1) == 0 if np.isscalar(w) else (w > 0).sum(axis=1) == 1

    def sum(self, x) -> np.ndarray:
        return np.sum(self.w * x, axis=1)

    def rows(self, which: np.ndarray):
        """The differences of each given test set (as a list), for exact enumeration."""
        for row in which:
            yield row, (self.d[row] if np.isscalar(self.w) else np.repeat(self.d[0], self.w[row].astype(int)))


def blocks(model: Scores, n: int, sims: int, rng: np.random.Generator, inner: int = 0):
    """The simulated test sets, in blocks of bounded size (with room for ``inner`` resamples of each); the draws do
    not depend on the shift, so every shift sees the same test sets (and resamples)."""
    k = len(model.values)
    by_item = n <= 8 * k or inner > 0  # drawing n items beats K binomials per set until n is about 8 K
    rows = max(1, _CELLS // (n * max(inner, 1) if by_item else k))
    for start in range(0, sims, rows):
        size = min(rows, sims - start)
        if by_item:
            yield Block(1.0, model.items[rng.integers(0, len(model.items), size=(size, n))] + model.shift, n)
        else:
            w = rng.multinomial(n, model.probs, size=size).astype(float)
            yield Block(w, np.broadcast_to(model.values + model.shift, w.shape), n)
