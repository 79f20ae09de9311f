"""The resampling tests' p for b -> infinity without resampling: the bootstrap's Edgeworth expansion and the
saddlepoint tails of a resampled sum, continuity-corrected on its lattice, and the chance that b resamples reject."""

from __future__ import annotations

import math

import numpy as np

from .._lazy import stats
from ..statistics import intervals
from .items import Block

__all__ = ["bootstrap_p", "random_rejection", "Saddle"]


def _on_lattice(x: np.ndarray, base, step: float, up: bool) -> np.ndarray:
    """The half-way point below the first lattice point >= x (``up``) or above the last one <= x: the continuity
    correction of a tail that includes x. On no lattice, x itself."""
    if step == 0:
        return x
    if up:
        return base + step * np.ceil((x - base) / step - 1e-6) - step / 2
    return base + step * np.floor((x - base) / step + 1e-6) + step / 2


def bootstrap_p(total, squares, cubes, constant, tie, alternative: str, step: float, base) -> np.ndarray:
    """The paired bootstrap's p for b -> infinity: P(S* >= 2S) ("greater"), P(S* <= 2S) or P(|S* - S| >= |S|),
    where S is the test set's sum of differences and S* a resample's, with mean S, variance ``squares`` (the sum
    of squared deviations) and third cumulant ``cubes``: one-term Edgeworth, continuity-corrected on the lattice
    ``base + step·Z`` of S*. ``tie``: sums this close are equal."""
    with np.errstate(divide="ignore", invalid="ignore"):
        sd = np.where(constant, 1.0, np.sqrt(squares))
        skew = np.where(constant, 0.0, cubes / (6 * squares**1.5))  # gamma / 6 of the resampled sum

    def upper(x):  # P(S* >= x)
        z = (_on_lattice(x, base, step, True) - total) / sd
        return stats.norm.sf(z) + stats.norm.pdf(z) * skew * (z * z - 1)

    def lower(x):  # P(S* <= x)
        z = (_on_lattice(x, base, step, False) - total) / sd
        return stats.norm.cdf(z) - stats.norm.pdf(z) * skew * (z * z - 1)
    zero = np.zeros_like(total)
    if alternative == "greater":  # a constant set resamples to itself: S >= 2S only when S <= 0
        return np.where(constant, (total <= tie).astype(float), upper(2 * total))
    if alternative == "less":
        return np.where(constant, (total >= -tie).astype(float), lower(2 * total))
    p = np.where(total > 0, upper(2 * total) + lower(zero), lower(2 * total) + upper(zero))
    return np.where(constant | (np.abs(total) <= tie), (np.abs(total) <= tie).astype(float), p)


def random_rejection(p: np.ndarray, alpha: float, b: int, plus_one: bool) -> np.ndarray:
    """The chance that b resamples reject, their count of extreme ones ~ Bin(b, p): the bootstrap's p is
    max(count, 1) / b, the permutation test's (count + 1) / (b + 1)."""
    most = intervals.largest_count(alpha, b + 1) - 1 if plus_one else intervals.largest_count(alpha, b)
    if most < (0 if plus_one else 1):  # b too small for any p to reach alpha
        return np.zeros_like(p)
    return stats.binom.cdf(most, b, p)


class Saddle:
    """Tail probabilities of a resampled sum S* by the Lugannani-Rice saddlepoint approximation (Davison & Hinkley
    1988 for the bootstrap, Robinson 1982 for sign flips), with Daniels' (1987) continuity correction on a lattice
    of span ``step`` through ``base``. ``kind`` "bootstrap": S* is the sum of n draws from the row's differences;
    "sign": the sum of ±d. nan where the tail is not solved (then Edgeworth stands in)."""

    def __init__(self, kind: str, block: Block, step: float, base):
        self.kind, self.block, self.step, self.base = kind, block, step, base
        w, d = block.w, block.d
        present = np.broadcast_to(np.asarray(w) > 0, d.shape)
        if kind == "bootstrap":
            self.low = block.n * np.where(present, d, np.inf).min(axis=1)
            self.high = block.n * np.where(present, d, -np.inf).max(axis=1)
        else:
            self.high = block.sum(np.abs(d))
            self.low = -self.high
        self.present, self.d2 = present, d * d
        self.centre = block.total if kind == "bootstrap" else np.zeros(len(block.total))  # E S*: lambda = 0

    def cumulants(self, lam: np.ndarray):
        """K(lambda), K'(lambda), K''(lambda) of S*, one lambda per test set."""
        b = self.block
        y = lam[:, None] * b.d
        if self.kind == "sign":  # log cosh, written so that it does not overflow
            t, a = np.tanh(y), np.abs(y)
            return b.sum(a + np.log1p(np.exp(-2 * a)) - math.log(2)), b.sum(b.d * t), b.sum(self.d2 * (1 - t * t))
        top = np.where(self.present, y, -np.inf).max(axis=1)
        e = b.w * np.exp(np.where(self.present, y - top[:, None], -np.inf))
        z = e.sum(axis=1)
        mean = (e * b.d).sum(axis=1) / z
        spread = b.d - mean[:, None]
        var = (e * spread * spread).sum(axis=1) / z
        return b.n * (top + np.log(z / b.n)), b.n * mean, b.n * var

    def _solve(self, target: np.ndarray) -> np.ndarray:
        """The saddlepoint: K'(lambda) = target, by Newton's method kept inside a bracket."""
        _, k1, k2 = self.cumulants(np.zeros(len(target)))
        lam = np.where(k2 > 0, (target - k1) / np.where(k2 > 0, k2, 1.0), 0.0)
        low, high = np.full(len(target), -np.inf), np.full(len(target), np.inf)
        scale = 1.0 / np.maximum(np.abs(self.block.d).max(axis=1), 1e-300)  # a first step outwards
        for _ in range(100):
            _, k1, k2 = self.cumulants(lam)
            miss = k1 - target
            if np.all(np.abs(miss) <= 1e-10 * (np.abs(target) + self.high - self.low)):
                break
            low, high = np.where(miss < 0, lam, low), np.where(miss > 0, lam, high)
            with np.errstate(divide="ignore", invalid="ignore"):
                step = lam - miss / k2
            inside = np.isfinite(step) & (step > low) & (step < high)
            bounded = np.isfinite(low) & np.isfinite(high)
            outward = lam + np.sign(-miss) * np.maximum(np.abs(lam), scale)
            with np.errstate(invalid="ignore"):  # -inf + inf where unbounded, and not used there
                lam = np.where(inside, step, np.where(bounded, (low + high) / 2, outward))
        return lam

    def _tail(self, target: np.ndarray, upper: bool) -> np.ndarray:
        lam = self._solve(target)
        k0, k1, k2 = self.cumulants(lam)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            w = np.sign(lam) * np.sqrt(np.maximum(2 * (lam * target - k0), 0.0))
            u = (2 / self.step * np.sinh(lam * self.step / 2) if self.step else lam) * np.sqrt(k2)
            tail = stats.norm.sf(w) - stats.norm.pdf(w) * (1 / w - 1 / u)  # P(S* >= target)
        tail = tail if upper else 1 - tail
        near = np.abs(w) < 1e-2  # the formula's 0/0 at the mean: Edgeworth is exact enough there
        return np.where(near | ~np.isfinite(tail), np.nan, tail)

    def upper(self, x: np.ndarray, corrected: np.ndarray | None = None) -> np.ndarray:
        """P(S* >= x); ``corrected``: the continuity-corrected point, when the caller knows the lattice."""
        if corrected is None:
            corrected = _on_lattice(x, self.base, self.step, True)
        inside = (corrected > self.low) & (corrected < self.high)
        p = self._tail(np.where(inside, corrected, self.centre), upper=True)  # the rest is known without solving
        return np.where(corrected >= self.high, np.where(x > self.high, 0.0, np.nan),
                        np.where(corrected <= self.low, 1.0, p))

    def lower(self, x: np.ndarray) -> np.ndarray:
        """P(S* <= x)."""
        corrected = _on_lattice(x, self.base, self.step, False)
        inside = (corrected > self.low) & (corrected < self.high)
        p = self._tail(np.where(inside, corrected, self.centre), upper=False)
        return np.where(corrected <= self.low, np.where(x < self.low, 0.0, np.nan),
                        np.where(corrected >= self.high, 1.0, p))
