"""Stop when the evidence is in: an anytime-valid comparison, item by item.

A fixed-n test looked at after every batch of items, and stopped as soon as p < α, rejects a true H0 far more
often than α (the Classroom's "peeking" lesson). A **confidence sequence** is an interval for δ at every number of
items t = 1, 2, ... that holds all of them at once with probability at least 1 − α: a user who evaluates an
expensive model item by item may stop the moment it excludes 0 (or −Δ) and still hold α.

The construction is the predictable plug-in empirical-Bernstein sequence of Waudby-Smith & Ramdas (2024,
"Estimating means of bounded random variables by betting", JRSS-B, Theorem 2), for per-item differences bounded in a
known range: d ∈ [−1, 1] for right/wrong items (accuracy, exact match), [lo − hi, hi − lo] for per-item scores in
[lo, hi]. With x = (d − low) / (high − low) in [0, 1]:

    λ_t = min(√(2 log(2/α) / (σ̂²_{t−1} t log(1 + t))), 1/2)      (σ̂²_0 = 1/4)
    C_t = Σ λ_i x_i / Σ λ_i ± (log(2/α) + Σ v_i ψ(λ_i)) / Σ λ_i,
    v_i = 4 (x_i − μ̂_{i−1})²,    ψ(λ) = (−log(1 − λ) − λ) / 4

with σ̂²_t = (1/4 + Σ (x_i − μ̂_i)²) / (t + 1), μ̂_t = (1/2 + Σ x_i) / (t + 1), and in v_i the plain mean of the
items before i (0 before the first), as the authors' package confseq computes it (any predictable centring keeps
the sequence valid); the running intersection of the C_t is reported (as valid, and never wider). It is for δ = the
mean of the per-item differences, that is metrics that are means (accuracy, exact match, per-item scores), the items
taken as a random sample in the order they were evaluated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .contract import DEFAULT_ALPHA, check_alpha
from .errors import InputError, SettingsError
from .words import in_text

__all__ = ["CAP", "CITATION", "bounds", "Sequential", "run", "Monitor", "sentence", "decimal"]

CAP = 0.5  # λ's cap: Waudby-Smith & Ramdas' choice (1/2 or 3/4)
CITATION = "Waudby-Smith & Ramdas (2024)"


def bounds(d, *, alpha: float = DEFAULT_ALPHA, low: float = -1.0, high: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The confidence sequence for the mean of ``d`` (in evaluation order, each in [low, high]): its lower and upper
    ends after 1, 2, ..., n items, each the running intersection, at level 1 − α for all n at once (each end at
    α / 2; the upper end is the lower end of 1 − x, as confseq takes it)."""
    x = _scaled(d, low, high)
    lower, upper = _lower(x, alpha / 2), 1 - _lower(1 - x, alpha / 2)
    return low + (high - low) * lower, low + (high - low) * upper


def _lower(x: np.ndarray, alpha: float) -> np.ndarray:
    """The one-sided lower sequence for the mean of x in [0, 1], its running maximum."""
    t = np.arange(1, len(x) + 1, dtype=np.float64)
    sums = np.cumsum(x)
    mean = (0.5 + sums) / (t + 1)  # μ̂_t, regularised towards 1/2
    spread = (0.25 + np.cumsum((x - mean) ** 2)) / (t + 1)  # σ̂²_t
    previous_spread = np.concatenate([[0.25], spread[:-1]])  # predictable: the items before t only
    previous_mean = np.concatenate([[0.0], sums[:-1] / t[:-1]])
    log = math.log(1 / alpha)
    lam = np.minimum(np.sqrt(2 * log / (previous_spread * t * np.log1p(t))), CAP)
    total = np.cumsum(lam)
    width = (log + np.cumsum((x - previous_mean) ** 2 * (-np.log1p(-lam) - lam))) / total  # Σ v_i ψ(λ_i)
    return np.maximum.accumulate(np.maximum(np.cumsum(lam * x) / total - width, 0))


def _scaled(d, low: float, high: float) -> np.ndarray:
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise SettingsError(f"the range of the per-item differences must be low < high, not [{low:g}, {high:g}]",
                            hint="Give the range the per-item scores can take (0 and 1 for right/wrong items).")
    d = np.asarray(d, dtype=np.float64)
    if d.ndim != 1 or len(d) == 0:
        raise InputError("a confidence sequence needs at least one item")
    outside = np.flatnonzero(~((d >= low) & (d <= high)))
    if len(outside):
        i = int(outside[0])
        raise InputError(f"item {i + 1}'s difference {d[i]:g} is outside [{low:g}, {high:g}]",
                         hint="Give the range the per-item scores can take: a confidence sequence needs bounded "
                              "differences, and a range that is too narrow would make it invalid.")
    return (d - low) / (high - low)


@dataclass(frozen=True)
class Sequential:
    """A confidence sequence for δ run over the items in the order they were evaluated, and where it decided."""

    alpha: float
    margin: float  # 0: A better or B better; Δ > 0: A no worse than B by more than Δ (H0 δ <= -Δ)
    lower: np.ndarray
    upper: np.ndarray
    estimate: np.ndarray  # the running mean of the differences
    stopped: int | None  # the first number of items at which the sequence excludes H0 (None: never)
    side: int  # +1: A better (or no worse), -1: B better, 0: undecided
    running: tuple[np.ndarray, np.ndarray]  # the fixed-n (1 - α) t interval after each number of items (NaN at 1)

    @property
    def fixed(self) -> tuple[float, float]:
        """The fixed-n (1 − α) t interval over all n items: the sequence's price is its width against this."""
        return float(self.running[0][-1]), float(self.running[1][-1])

    @property
    def n(self) -> int:
        return len(self.lower)

    @property
    def width_ratio(self) -> float:
        """How much wider the sequence is than the fixed-n interval after all n items: the price of looking."""
        return float((self.upper[-1] - self.lower[-1]) / (self.fixed[1] - self.fixed[0])) \
            if self.fixed[1] > self.fixed[0] else math.inf


def run(a, b, *, alpha: float = DEFAULT_ALPHA, low: float = 0.0, high: float = 1.0, margin: float = 0.0) -> Sequential:
    """A's and B's per-item scores (each in [low, high]) in evaluation order: the confidence sequence for δ = mean
    of a − b, and the first item count at which it excludes 0 (``margin`` Δ > 0: at which its lower end passes −Δ,
    A no worse than B by more than Δ)."""
    from scipy import stats

    check_alpha(alpha)
    if not (math.isfinite(margin) and margin >= 0):
        raise SettingsError(f"the margin must be 0 or positive, not {margin!r}")
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise InputError(f"A has {len(a)} items and B {len(b)}", hint="Give both systems' scores of the same items.")
    d = a - b
    lower, upper = bounds(d, alpha=alpha, low=low - high, high=high - low)
    estimate = np.cumsum(d) / np.arange(1, len(d) + 1)
    above = np.flatnonzero(lower > -margin)
    below = np.flatnonzero(upper < 0) if margin == 0 else np.array([], dtype=int)
    first = min([int(x[0]) for x in (above, below) if len(x)], default=None)
    side = 0 if first is None else (1 if len(above) and above[0] == first else -1)
    t = np.arange(1, len(d) + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):  # one item has no spread: NaN there
        spread = np.maximum(np.cumsum((d - estimate[-1]) ** 2) - t * (estimate - estimate[-1]) ** 2, 0) / (t - 1)
        half = stats.t.ppf(1 - alpha / 2, t - 1) * np.sqrt(spread / t)  # centred on the mean of all: no cancellation
    return Sequential(alpha, margin, lower, upper, estimate, None if first is None else first + 1, side,
                      (estimate - half, estimate + half))


class _Lower:
    """:func:`_lower`, one item at a time."""

    def __init__(self, alpha: float):
        self.log, self.t, self.sum_x, self.sum_sq, self.sum_lam, self.sum_lam_x, self.sum_v = (
            math.log(1 / alpha), 0, 0.0, 0.0, 0.0, 0.0, 0.0)
        self.spread, self.value = 0.25, 0.0

    def update(self, x: float) -> float:
        self.t += 1
        t = self.t
        lam = min(math.sqrt(2 * self.log / (self.spread * t * math.log1p(t))), CAP)
        plain = self.sum_x / (t - 1) if t > 1 else 0.0  # the items before this one
        self.sum_lam += lam
        self.sum_lam_x += lam * x
        self.sum_v += (x - plain) ** 2 * (-math.log1p(-lam) - lam)
        self.sum_x += x
        self.sum_sq += (x - (0.5 + self.sum_x) / (t + 1)) ** 2
        self.spread = (0.25 + self.sum_sq) / (t + 1)
        self.value = max(self.value, max(self.sum_lam_x / self.sum_lam - (self.log + self.sum_v) / self.sum_lam, 0))
        return self.value


class Monitor:
    """The same sequence, one item at a time, for a harness that evaluates as it goes: ``update(a, b)`` after each
    item returns the interval so far and whether it has decided; the numbers are :func:`run`'s for the same order."""

    def __init__(self, *, alpha: float = DEFAULT_ALPHA, low: float = 0.0, high: float = 1.0, margin: float = 0.0):
        check_alpha(alpha)
        self.alpha, self.margin, self.range = alpha, margin, (low - high, high - low)
        self.sides = _Lower(alpha / 2), _Lower(alpha / 2)
        self.t, self.stopped = 0, None

    def update(self, a: float, b: float) -> tuple[float, float, bool]:
        """One more item's scores: the sequence's (lower, upper) for δ after it, and whether it has decided."""
        x = float(_scaled([a - b], *self.range)[0])
        self.t += 1
        lower, upper = self.sides[0].update(x), 1 - self.sides[1].update(1 - x)
        span = self.range[1] - self.range[0]
        low, high = self.range[0] + span * lower, self.range[0] + span * upper
        if self.stopped is None and (low > -self.margin or (self.margin == 0 and high < 0)):
            self.stopped = self.t
        return low, high, self.stopped is not None


def sentence(s: Sequential, a: str = "A", b: str = "B") -> str:
    """Where the sequence decided (or that it did not), its interval then and after all items, and the fixed-n
    interval it is wider than."""
    a, b, level = in_text(a), in_text(b), f"{1 - s.alpha:.0%}"
    at = s.stopped
    tail = (f"after all {s.n:,} items δ ∈ [{decimal(s.lower[-1])}, {decimal(s.upper[-1])}], {s.width_ratio:.1f}x as "
            f"wide as the fixed-n {level} t interval [{decimal(s.fixed[0])}, {decimal(s.fixed[1])}], the price of "
            f"being valid however often it is looked at ({CITATION}, α = {s.alpha:g})")
    if at is None:
        claim = "excluded 0" if s.margin == 0 else f"passed −{s.margin:g}"
        return f"The {level} confidence sequence for δ = {a} − {b} never {claim} in {s.n:,} items: {tail}."
    what = (f"{a} is better than {b}" if s.side > 0 else f"{b} is better than {a}") if s.margin == 0 else \
        f"{a} is no worse than {b} by more than {s.margin:g}"
    i = at - 1
    return (f"{what}: the {level} confidence sequence for δ = {a} − {b} excludes "
            f"{'0' if s.margin == 0 else f'−{s.margin:g}'} from item {at:,} of {s.n:,} on "
            f"(δ ∈ [{decimal(s.lower[i])}, {decimal(s.upper[i])}] there), so evaluating could have stopped there; "
            f"{tail}.")


def decimal(x: float) -> str:
    """δ and its bounds as the sequence prints them: four decimals, a real minus."""
    return f"{x:.4f}".replace("-", "−")
