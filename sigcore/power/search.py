"""The search of a plan: power over a grid of sizes, the smallest size that reaches the target, and the smallest true
difference the pilot's size detects, each narrowed where power crosses the target."""

from __future__ import annotations

import math
from collections.abc import Callable

from .._lazy import stats
from ..statistics.discordant import smallest_n
from .items import Binary, Settings
from .outcomes import Plan, Power
from .simulation import power_of

__all__ = ["REFINE", "plan_for"]

REFINE = 4  # simulations near a crossing, per n_sims: half the Monte-Carlo error where the answer is read off
_GRID = (1, 1.5, 2, 3, 5, 7)  # steps of the n grid per decade
_FIRST = 10  # the smallest n on the grid


def _grid(n_max: int) -> list[int]:
    """Round sizes from 10 up to ``n_max``, six a decade, and ``n_max`` itself."""
    sizes, decade = [], _FIRST
    while decade < n_max:
        sizes += [round(step * decade) for step in _GRID if step * decade < n_max]
        decade *= 10
    return sizes + [n_max]


def plan_for(model, pilot_n: int, s: Settings, target: float, n_sims: int, n_max: int, seed: int, *,
             binary: bool, effect: float, source: str = "the pilot's", auto: bool = False) -> Plan:
    """The plan of ``model``: power at the pilot's size and over the grid up to ``n_max``, the size that reaches
    ``target`` and the smallest detectable difference."""
    exact = isinstance(model, Binary)
    cache: dict[tuple[int, bool], Power] = {}

    def power(n: int, refined: bool = False) -> Power:
        refined = refined and not exact  # an exact power has no noise to refine
        if (n, refined) not in cache:
            cache[n, refined] = power_of(model, n, s, n_sims * (REFINE if refined else 1), seed, int(refined))
        return cache[n, refined]

    current = power(pilot_n)
    grid, curve = _grid(n_max), []
    stop = max(target + (1 - target) / 2, 0.95)  # the curve goes on until the power is well past the target
    for n in grid:
        curve.append(power(n))
        if curve[-1].power >= stop:
            break
    first = smallest_n([p.n for p in curve], [p.power for p in curve], target)

    def refined(n: int) -> float:
        return 0.0 if n < 2 else power(n, refined=True).power  # no test runs on a single item
    n_needed = None if first is None else _n_needed(refined, grid, grid.index(first), target, exact)
    sims = n_sims * (1 if exact else REFINE)
    detectable = _detectable(model, pilot_n, s, target, lambda m: power_of(m, pilot_n, s, sims, seed, 2).power, exact)
    points = {p.n: p for p in curve}
    points.setdefault(pilot_n, current)
    return Plan(s.test, s.alpha, s.alternative, target, effect, current, tuple(points[n] for n in sorted(points)),
                n_needed, detectable, binary, source, auto)


def _n_needed(power: Callable[[int], float], grid: list[int], i: int, target: float, exact: bool) -> int | None:
    """The smallest n reaching the target, from the grid's first such size ``grid[i]``: the bracket is checked with
    the refined estimate (noise on the grid can put it a step off), then narrowed to about 1% (0.1% and at least
    one item when exact)."""
    while power(grid[i]) < target:
        i += 1
        if i == len(grid):
            return None
    while i > 0 and power(grid[i - 1]) >= target:
        i -= 1
    low, high = (grid[i - 1] if i > 0 else 1), grid[i]
    return int(_crossing(power, low, high, target, max(1, high // (1_000 if exact else 100)), sizes=True))


def _crossing(power: Callable, low: float, high: float, target: float, precision: float, sizes: bool) -> float:
    """The smallest x in (low, high] with power(x) >= target, to ``precision``, given power(low) < target <=
    power(high), power rising. Each step tries where power crosses the target if its probit is linear (in sqrt(n)
    for sizes, in delta for differences), kept a quarter of the bracket from its ends: the bracket shrinks by a
    quarter at least, and usually to a few percent."""
    def probit(x):
        return stats.norm.ppf(min(max(power(x), 1e-6), 1 - 1e-6)) - stats.norm.ppf(target)
    scale, unscale = (math.sqrt, lambda r: r * r) if sizes else (float, float)
    while high - low > precision:
        z_low, z_high = probit(low), probit(high)
        guess = (unscale(scale(low) + (scale(high) - scale(low)) * z_low / (z_low - z_high)) if z_high > z_low
                 else (low + high) / 2)
        x = min(max(guess, low + (high - low) / 4), high - (high - low) / 4)
        if sizes:
            x = min(max(round(x), low + 1), high - 1)
        low, high = (low, x) if power(x) >= target else (x, high)
    return high


def _detectable(model, n: int, s: Settings, target: float, power: Callable, exact: bool) -> float | None:
    """The smallest |delta| on H1's side whose power at n reaches the target: the pilot's items with B's scores
    shifted (per-item scores) or items moved between the discordant cells (right/wrong items), bracketed within a
    factor of 2 and then narrowed; simulations use the same test sets for every delta, so the search does not chase
    noise. nan when there is nothing to shift against (no discordant item; differences that do not vary)."""
    side = {"greater": 1.0, "less": -1.0}.get(s.alternative, math.copysign(1.0, model.effect or 1.0))

    known: dict[float, float] = {}

    def at(size: float) -> float:
        if size not in known:
            known[size] = power(model.shifted(side * size))
        return known[size]

    def reaches(size: float) -> bool:
        return at(size) >= target
    if model.limit == 0 or model.spread <= 1e-12 * model.scale:
        return math.nan
    if isinstance(model, Binary):
        high = model.limit  # A right on every discordant item: the most a move can do
        if not reaches(high):
            return None
    else:
        z = stats.norm.isf(s.alpha / (2 if s.alternative == "two-sided" else 1)) + stats.norm.ppf(target)
        high = z * model.spread / math.sqrt(n)  # the normal approximation's answer, a first guess
    if reaches(high):
        for _ in range(30):
            low = high / 2
            if not reaches(low):
                break
            high = low
        else:  # even a vanishing difference reaches the target (one below the false-alarm rate)
            return 0.0
    else:
        for _ in range(30):  # 2^30 times the guess: a test that cannot reject at this n never gets there
            low, high = high, 2 * high
            if reaches(high):
                break
        else:
            return None
    return side * _crossing(at, low, high, target, (1e-3 if exact else 5e-3) * high, sizes=False)
