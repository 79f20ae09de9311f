"""Planning a comparison: the power of a paired test, and the test-set size it needs, from a pilot.

A pilot (both systems' per-item scores on some items) stands for the items a test set would hold: test sets of n
items are drawn from its paired items with replacement, so its delta is the assumed true difference and the spread,
skew and ties of its per-item differences carry over. Power is the share of those test sets on which the test
rejects H0 at alpha, the test run as :func:`sigcore.compare.compare` runs it (``n_resamples`` resamples).

Each test takes the cheapest route that is exact, or checked against the engine (tests/test_power.py):

- right/wrong items, every test: exact, by enumerating the discordant count M ~ Bin(n, p_A + p_B) and A's wins
  X | M ~ Bin(M, p_A / (p_A + p_B)), as :func:`sigcore.teaching.bootstrap.exact_power` does, each (M, X) weighed
  by the test's chance of rejecting it: McNemar and t in closed form; the permutation test's p is McNemar's (its
  swaps of M discordant pairs), the bootstrap's the exact one of ``teaching.bootstrap`` up to 25 discordant items
  and a continuity-corrected Edgeworth expansion beyond (within 1e-3 of it); b random resamples count extreme ones
  ~ Bin(b, p), the test's own rule then rejects or not (every assignment when 2^M <= b, as the engine does);
- per-item scores: simulated test sets of the pilot's items; the t-test in closed form; the bootstrap and
  permutation tests resampled as the engine does up to 50 items, beyond that their p for b -> infinity by a
  saddlepoint approximation (Lugannani-Rice; Davison & Hinkley 1988, Robinson 1982) up to 200 items and by a
  one-term Edgeworth expansion beyond (both continuity-corrected on a lattice), with the count of extreme resamples
  ~ Bin(b, p) as above; the chance of a rejection is averaged over the test sets.

A simulated power comes with the binomial standard error of a rate over ``n_sims`` test sets and its
Clopper-Pearson interval (an upper bound where chances of rejection are averaged instead of 0/1 decisions).
Memory stays bounded: test sets are drawn and tested in blocks of about a million values.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._lazy import stats
from .compare import AUTO
from .contract import (
    DEFAULT_ALPHA,
    DEFAULT_ALTERNATIVE,
    DEFAULT_SEED,
    SIMULATION_RESAMPLES,
    TIE,
    check_alpha,
    check_alternative,
    check_level,
    check_resamples,
    check_seed,
    extreme,
    is_int,
    sided_p,
)
from .errors import PARAMETER, InputError, SettingsError
from .metrics import direction
from .result import refuse_lower
from .statistics import closed_form, intervals
from .statistics.discordant import greater_p, outcome_probabilities, smallest_n, support

__all__ = ["SUPPORTED", "MC_LEVEL", "MAX_SIMS", "MAX_ITEMS", "REFINE", "ONE_SIDED_HINT", "Power", "Plan", "plan",
           "power_at", "plan_from_rates"]

SUPPORTED = ("bootstrap", "permutation", "t", "mcnemar")
MC_LEVEL = 0.95  # level of the Monte-Carlo interval of a simulated power
MAX_SIMS = 4_000  # simulated test sets per size: ten times the default, some 25 s on a pilot of scores
MAX_ITEMS = 2_000_000  # items of a simulated test set, as of a file (sigcore.io.inputs.MAX_ITEMS)
REFINE = 4  # simulations near a crossing, per n_sims: half the Monte-Carlo error where the answer is read off
_CELLS = 1 << 20  # largest (test sets x resamples) or (test sets x values) block: 8 MiB per float array
_EPS = 1e-12  # rejection probabilities this close to 0 or 1 are 0 or 1 in the exact sums
_SMALL = 25  # right/wrong test sets with at most this many discordant items get the bootstrap's exact p
_NESTED = 50  # up to this many items a resampling test is simulated as run: no smooth approximation holds
_INNER = 2_000  # at most this many of its resamples (more only smooth its p's noise)
_SADDLE = 200  # up to this many items the resampling tests' p is a saddlepoint approximation, beyond it Edgeworth
_GRID = (1, 1.5, 2, 3, 5, 7)  # steps of the n grid per decade
_FIRST = 10  # the smallest n on the grid
_NAMES = {"bootstrap": "Paired bootstrap", "permutation": "Permutation test", "t": "Paired t-test",
          "mcnemar": "McNemar's exact test"}
ONE_SIDED_HINT = ("Plan the two-sided test (alternative 'two-sided', the default): its power is the same whichever "
                  "way is better.")
_SIDES = {"greater": "H1: A is better", "less": "H1: B is better", "two-sided": "H1: A and B differ"}


@dataclass(frozen=True)
class Power:
    """The power of a test on test sets of ``n`` items, with its Monte-Carlo error and interval (both 0-width
    when ``exact``)."""

    n: int
    power: float
    mc_error: float  # binomial standard error of the simulated rate (0 when exact)
    low: float  # 95% Monte-Carlo interval (Clopper-Pearson) of the power
    high: float
    exact: bool  # enumerated, not simulated: no Monte-Carlo error


@dataclass(frozen=True)
class Plan:
    """Power at the pilot's size, over a grid of sizes, the size that reaches ``target`` and the smallest true
    difference the pilot's size detects with that power."""

    test: str
    alpha: float
    alternative: str
    target: float
    effect: float  # the assumed true delta (the pilot's)
    current: Power  # power at the pilot's n
    curve: tuple[Power, ...]  # power over a grid of n (and the pilot's n), up to where it passes the target well
    n_needed: int | None  # the smallest n (to about 1%) with power >= target; None if beyond the grid's last n
    detectable: float | None  # the smallest true delta (on H1's side) with power >= target at the pilot's n;
    #                           None if none reaches it, nan if nothing can be shifted (see :func:`plan`)
    binary: bool = False  # right/wrong items: differences are in accuracy
    source: str = "the pilot's"  # where the assumed difference comes from
    auto: bool = False  # no test was named: the one recommended for the pilot

    def text(self) -> str:
        """Three or four sentences for a reader planning a test set."""
        c, share = self.current, f"{self.target:.0%}"
        chosen = " (recommended for these data)" if self.auto else ""
        lines = [f"{_NAMES[self.test]}{chosen}, {_SIDES[self.alternative]}, alpha = {self.alpha:g}; assumed true "
                 f"difference {_number(self.effect)} ({self.source})."]
        spread = "exact" if c.exact else f"95% MC {c.low:.2f}–{c.high:.2f}"
        lines.append(f"Power at n = {c.n:,}: {c.power:.2f} ({spread}).")
        against = {"greater": self.effect < 0, "less": self.effect > 0}.get(self.alternative, False)
        if against:  # no n helps: the test looks for a difference in the other direction
            better, flip = ("B", "less") if self.alternative == "greater" else ("A", "greater")
            lines.append(f"The assumed difference favours {better}, against H1: no test set size gives power; if "
                         f"{better} is expected to win, plan for H1: {better} is better (alternative {flip!r}), or "
                         "two-sided.")
        if self.n_needed is not None:
            lines.append(f"{share} power needs n {'=' if c.exact else '≈'} {self.n_needed:,}.")
        else:
            lines.append(f"{share} power is not reached by n = {self.curve[-1].n:,}.")
        unit = " accuracy" if self.binary else ""
        if self.detectable is None:
            how = "moving items between A's and B's wins" if self.binary else "shifting B's scores"
            lines.append(f"At n = {c.n:,} no difference made by {how} is detected {share} of the time.")
        elif math.isnan(self.detectable):
            what = "no item where A and B differ" if self.binary else "per-item differences that do not vary"
            lines.append(f"With {what}, no smallest detectable difference can be read off.")
        else:
            lines.append(f"At n = {c.n:,} the smallest difference detected {share} of the time is "
                         f"{_number(abs(self.detectable))}{unit}.")
        return "\n".join(lines)


def _number(x: float) -> str:
    """Three decimals (an accuracy difference), or three significant digits; a real minus sign."""
    return (f"{x:.3f}" if x == 0 or 0.001 <= abs(x) < 1000 else f"{x:.3g}").replace("-", "\u2212")


def plan(a, b, *, test: str = AUTO, binary: bool | None = None, alpha: float = DEFAULT_ALPHA,
         alternative: str = DEFAULT_ALTERNATIVE, target: float = 0.8, n_sims: int = 400,
         n_resamples: int = SIMULATION_RESAMPLES, n_max: int = 100_000, seed: int = DEFAULT_SEED,
         higher_is_better: bool = True) -> Plan:
    """Power and sample size for comparing A with B, from pilot outputs.

    ``a``, ``b``: per-item scores of the two systems on the same pilot items (0/1 when right/wrong; ``binary``
    says which, by default all values 0 or 1). Test sets of n items are the pilot's paired items drawn with
    replacement, the pilot's delta the true effect. ``n_sims`` test sets per size (four times as many near the
    answers), each test run with ``n_resamples`` resamples; sizes up to ``n_max``.

    ``detectable`` shifts B's per-item scores (per-item scores) or moves items between the two discordant cells
    (right/wrong items, their number kept); it is None when no such difference reaches ``target`` at the pilot's
    size (a test that cannot reject on so few items) and nan when the pilot has nothing to shift against (no item
    where A and B differ, or per-item differences that do not vary).

    ``test="auto"`` (the default): the test the advisor recommends for the pilot, or the first it accepts among
    those planned here (:data:`SUPPORTED`); ``Plan.auto`` is then True.

    ``higher_is_better=False`` (the pilot's values are errors): the two-sided plan is the same either way; a
    one-sided plan is refused (:func:`sigcore.result.refuse_lower`), as its sides read δ > 0 as A better.
    """
    auto = test == AUTO
    _check("bootstrap" if auto else test, alpha, alternative, target, n_sims, n_resamples, n_max, seed,
           higher_is_better)
    model, binary, effect, pilot_n = _pilot(a, b, "bootstrap" if auto else test, binary)
    test = _recommended(a, b, binary, alpha) if auto else test
    return _plan(model, pilot_n, _Settings(test, float(alpha), alternative, n_resamples), float(target), n_sims,
                 n_max, seed, binary=binary, effect=effect, auto=auto)


def _recommended(a, b, binary: bool, alpha: float) -> str:
    """The advisor's test for the pilot, or the first test it accepts that power is planned for."""
    from .advisor import advise

    x, y = closed_form.paired_values(a, b, min_n=2)
    advice = advise("accuracy" if binary else "mean", a_scores=x, b_scores=y, alpha=alpha)
    return next(c.test for c in (advice.recommended, *advice.acceptable) if c.test in SUPPORTED)


def power_at(a, b, n: int, *, test: str = AUTO, binary: bool | None = None, alpha: float = DEFAULT_ALPHA,
             alternative: str = DEFAULT_ALTERNATIVE, n_sims: int = 400, n_resamples: int = SIMULATION_RESAMPLES,
             seed: int = DEFAULT_SEED, higher_is_better: bool = True) -> Power:
    """The power on test sets of ``n`` items drawn from the pilot, as :func:`plan` computes it (the same test sets
    as its curve for the same seed and ``n_sims``; ``test="auto"`` and ``higher_is_better`` as in :func:`plan`)."""
    auto = test == AUTO
    _check("bootstrap" if auto else test, alpha, alternative, 0.5, n_sims, n_resamples, 2, seed, higher_is_better)
    if not is_int(n) or not 2 <= n <= MAX_ITEMS:  # 10^10 simulated items ran for minutes
        raise SettingsError(f"{PARAMETER} must be a whole number of 2 to {MAX_ITEMS:,} items, not {n!r}",
                            hint="The size of the test set the rates are expected on.", parameter="n")
    model, binary, *_ = _pilot(a, b, "bootstrap" if auto else test, binary)
    test = _recommended(a, b, binary, alpha) if auto else test
    return _power(model, int(n), _Settings(test, float(alpha), alternative, n_resamples), n_sims, seed, 0)


def _pilot(a, b, test: str, binary: bool | None):
    """The model of the items, whether they are right/wrong, the pilot's delta and its size."""
    x, y = closed_form.paired_values(a, b, min_n=2)
    zero_one = bool(np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all())
    if binary is None:
        binary = zero_one
    elif not isinstance(binary, (bool, np.bool_)):
        raise SettingsError(f"`binary` must be True, False or None, not {binary!r}")
    elif binary and not zero_one:
        raise InputError("`binary=True` needs right/wrong items (0/1 per item), and the pilot has other values",
                         hint="Leave `binary` out for per-item scores.")
    if test == "mcnemar" and not binary:
        raise SettingsError("McNemar's test needs right/wrong items (0/1 per item)",
                            hint="For per-item scores use the t, bootstrap or permutation test.")
    model = (_Binary(float(np.mean(x > y)), float(np.mean(x < y))) if binary
             else _Scores(closed_form.differences(x, y)))
    return model, bool(binary), float(x.mean() - y.mean()), len(x)


def plan_from_rates(n: int, accuracy_a: float, accuracy_b: float, agreement: float, *, test: str = AUTO,
                    alpha: float = DEFAULT_ALPHA, alternative: str = DEFAULT_ALTERNATIVE, target: float = 0.8,
                    n_sims: int = 400, n_resamples: int = SIMULATION_RESAMPLES, n_max: int = 100_000,
                    seed: int = DEFAULT_SEED) -> Plan:
    """:func:`plan` without a pilot: right/wrong items with these expected accuracies and agreement rate (the
    share of items both get right or both get wrong), "current" being a test set of ``n`` items; ``test="auto"``
    plans McNemar's exact test, the one the advisor recommends for right/wrong items."""
    auto = test == AUTO
    test = "mcnemar" if auto else test
    _check(test, alpha, alternative, target, n_sims, n_resamples, n_max, seed)
    if not is_int(n) or not 2 <= n <= MAX_ITEMS:  # 10^10 simulated items ran for minutes
        raise SettingsError(f"{PARAMETER} must be a whole number of 2 to {MAX_ITEMS:,} items, not {n!r}",
                            hint="The size of the test set the rates are expected on.", parameter="n")
    cells = outcome_probabilities(accuracy_a, accuracy_b, agreement)
    return _plan(_Binary(float(cells[1]), float(cells[2])), int(n), _Settings(test, float(alpha), alternative,
                 n_resamples), float(target), n_sims, n_max, seed, binary=True,
                 effect=float(accuracy_a - accuracy_b), source="expected", auto=auto)


def _check(test, alpha, alternative, target, n_sims, n_resamples, n_max, seed, higher_is_better=True) -> None:
    if test not in SUPPORTED:
        raise SettingsError(f"power is planned for the {', '.join(SUPPORTED)} tests, not {test!r}",
                            hint="Plan with the closest of these; they reach the same power on large test sets.")
    check_alternative(alternative)
    check_alpha(alpha)
    check_level(target, "target")
    for name, value, least in (("n_sims", n_sims, 1), ("n_max", n_max, 2)):
        if not is_int(value) or value < least:
            raise SettingsError(f"{PARAMETER} must be an integer of at least {least}, not {value!r}", parameter=name)
    check_resamples(n_resamples)
    if n_sims > MAX_SIMS:  # 100,000 simulated test sets ran for minutes with no word
        raise SettingsError(f"{PARAMETER} is at most {MAX_SIMS:,}, not {n_sims:,}", parameter="n_sims",
                            hint=f"{MAX_SIMS:,} test sets give a power to ±{100 * 0.5 / math.sqrt(MAX_SIMS):.1f} "
                                 "points at worst; the default, 400, to ±2.5.")
    if n_max > MAX_ITEMS:
        raise SettingsError(f"{PARAMETER} is at most {MAX_ITEMS:,} items, not {n_max:,}", parameter="n_max")
    if alternative != "two-sided":  # the two-sided power is the same whichever way is better
        refuse_lower("a one-sided power plan", direction("mean", higher_is_better), hint=ONE_SIDED_HINT)
    check_seed(seed, optional=False)  # test set k of size n draws from a stream seeded from it


@dataclass(frozen=True)
class _Settings:
    test: str
    alpha: float
    alternative: str
    n_resamples: int


# --- what is assumed about the items -----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Binary:
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

    def shifted(self, delta: float) -> _Binary:
        q = self.p_a + self.p_b
        return _Binary(max(0.0, (q + delta) / 2), max(0.0, (q - delta) / 2))


class _Scores:
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

    def shifted(self, delta: float) -> _Scores:
        return _Scores(self.items, delta - float(self.items.mean()))


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


# --- power at one n ----------------------------------------------------------------------------------------------

def _power(model, n: int, s: _Settings, sims: int, seed: int, tag: int) -> Power:
    if isinstance(model, _Binary):
        p = float(np.clip(_exact_binary(model, n, s), 0.0, 1.0))
        return Power(n, p, 0.0, p, p, True)
    rng = np.random.default_rng([seed, tag, n])
    inner = min(s.n_resamples, _INNER) if s.test != "t" and n <= _NESTED else 0
    test = _nested_scores if inner else _SCORE_TESTS[s.test]
    reject = np.concatenate([test(block, model, s, rng) for block in _blocks(model, n, sims, rng, inner)])
    count = float(reject.sum())
    p = count / sims
    low, high = intervals.clopper_pearson(count, sims, MC_LEVEL)
    return Power(n, p, math.sqrt(p * (1 - p) / sims), low, high, False)


def _enumerated(s: _Settings) -> int:
    """Up to how many moving items the permutation test's p is exact: the engine takes every assignment when
    2^M <= b (beyond 2^12 the Edgeworth p stands in for the exact one)."""
    return min(s.n_resamples.bit_length() - 1, 12) if s.test == "permutation" else -1


def _exact_binary(model: _Binary, n: int, s: _Settings) -> float:
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


def _mcnemar_rejects(n: int, s: _Settings, two: bool):
    level = s.alpha / 2 if two else s.alpha  # 2p <= alpha exactly when p <= alpha / 2: doubling is exact

    def reject(m, x):  # the exact binomial p of closed_form.mcnemar; with no discordant pair p = 1
        return (stats.binom.sf(x - 1, m, 0.5) <= level).astype(float)
    return reject


def _t_rejects(n: int, s: _Settings, two: bool):
    level = s.alpha / 2 if two else s.alpha

    def reject(m, x):  # differences: X of +1, M - X of -1, the rest 0
        mean = (2 * x - m) / n
        squares = np.maximum(m - n * mean * mean, 0.0)  # sum of squared deviations
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(squares > 0, mean / np.sqrt(squares / (n - 1) / n), np.sign(mean) * np.inf)
        return ((stats.t.sf(t, n - 1) <= level) & (m > 0)).astype(float)  # constant: the limit, as closed_form
    return reject


def _permutation_rejects(n: int, s: _Settings, two: bool):
    enumerated = s.n_resamples.bit_length() - 1  # 2^M <= b: the engine takes every swap assignment

    def reject(m, x):
        p = stats.binom.sf(x - 1, m, 0.5)  # swapping M discordant pairs: A keeps X* ~ Bin(M, 1/2) of them
        if two:
            p = np.minimum(1.0, 2 * p)
        return np.where(m <= enumerated, (p <= s.alpha).astype(float),
                        _random_rejection(p, s.alpha, s.n_resamples, plus_one=True))
    return reject


def _bootstrap_rejects(n: int, s: _Settings, two: bool):
    def reject(m, x):
        y = m - x
        total = (x - y).astype(float)  # n·delta
        mean = total / n
        squares = np.maximum(m - total * mean, 0.0)
        cubes = x * (1 - mean) ** 3 + y * (-1 - mean) ** 3 - (n - m) * mean**3
        p = _bootstrap_p(total, squares, cubes, squares == 0, TIE * m, "two-sided" if two else "greater",
                         1.0, -float(n))
        small = np.flatnonzero((m <= _SMALL) & (x > y))  # few discordant items: the expansion is off, sum exactly
        if len(small):
            xs, ys = x.ravel()[small], y.ravel()[small]
            exact = greater_p(n, xs, ys) + (_at_most_zero(n, xs, ys) if two else 0.0)
            p = p.copy()
            p.ravel()[small] = np.minimum(exact, 1.0)
        return _random_rejection(np.clip(p, 0.0, 1.0), s.alpha, s.n_resamples, plus_one=False)
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


def _on_lattice(x: np.ndarray, base, step: float, up: bool) -> np.ndarray:
    """The half-way point below the first lattice point >= x (``up``) or above the last one <= x: the continuity
    correction of a tail that includes x. On no lattice, x itself."""
    if step == 0:
        return x
    if up:
        return base + step * np.ceil((x - base) / step - 1e-6) - step / 2
    return base + step * np.floor((x - base) / step + 1e-6) + step / 2


def _bootstrap_p(total, squares, cubes, constant, tie, alternative: str, step: float, base) -> np.ndarray:
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


def _random_rejection(p: np.ndarray, alpha: float, b: int, plus_one: bool) -> np.ndarray:
    """The chance that b resamples reject, their count of extreme ones ~ Bin(b, p): the bootstrap's p is
    max(count, 1) / b, the permutation test's (count + 1) / (b + 1)."""
    most = intervals.largest_count(alpha, b + 1) - 1 if plus_one else intervals.largest_count(alpha, b)
    if most < (0 if plus_one else 1):  # b too small for any p to reach alpha
        return np.zeros_like(p)
    return stats.binom.cdf(most, b, p)


_BINARY_TESTS = {"mcnemar": _mcnemar_rejects, "t": _t_rejects, "permutation": _permutation_rejects,
                 "bootstrap": _bootstrap_rejects}


class _Block:
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


def _blocks(model: _Scores, n: int, sims: int, rng: np.random.Generator, inner: int = 0):
    """The simulated test sets, in blocks of bounded size (with room for ``inner`` resamples of each); the draws do
    not depend on the shift, so every shift sees the same test sets (and resamples)."""
    k = len(model.values)
    by_item = n <= 8 * k or inner > 0  # drawing n items beats K binomials per set until n is about 8 K
    rows = max(1, _CELLS // (n * max(inner, 1) if by_item else k))
    for start in range(0, sims, rows):
        size = min(rows, sims - start)
        if by_item:
            yield _Block(1.0, model.items[rng.integers(0, len(model.items), size=(size, n))] + model.shift, n)
        else:
            w = rng.multinomial(n, model.probs, size=size).astype(float)
            yield _Block(w, np.broadcast_to(model.values + model.shift, w.shape), n)


def _nested_scores(block: _Block, model: _Scores, s: _Settings, rng: np.random.Generator) -> np.ndarray:
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
        reject = _random_rejection(count / b, s.alpha, s.n_resamples, plus_one)
    if plus_one:
        for row, values in block.rows(np.flatnonzero(block.sum(d != 0) <= _enumerated(s))):
            reject[row] = float(_exact_permutation_p(values[values != 0], s.alternative) <= s.alpha)
    return reject


def _t_scores(block: _Block, model: _Scores, s: _Settings, rng=None) -> np.ndarray:
    n = block.n
    mean = block.total / n
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(block.constant, np.sign(mean) * np.inf, mean / np.sqrt(block.squares / (n - 1) / n))
    p = sided_p(stats.t(n - 1), t, s.alternative)
    p = np.where(block.constant & (block.total == 0), 1.0, p)  # identical on every item: p = 1, as closed_form
    return (p <= s.alpha).astype(float)


def _bootstrap_scores(block: _Block, model: _Scores, s: _Settings, rng=None) -> np.ndarray:
    n, tie = block.n, TIE * block.size
    base = n * (model.values[0] + model.shift)  # the resampled sum lies on base + step·Z
    p = _bootstrap_p(block.total, block.squares, block.cubes, block.constant, tie, s.alternative, model.step, base)
    if n <= _SADDLE:  # few items: the saddlepoint's relative error, not Edgeworth's absolute one
        saddle = _Saddle("bootstrap", block, model.step, base)
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
    return _random_rejection(np.clip(p, 0.0, 1.0), s.alpha, s.n_resamples, plus_one=False)


def _permutation_scores(block: _Block, model: _Scores, s: _Settings, rng=None) -> np.ndarray:
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
        q = _Saddle("sign", block, 2 * g, 0.0).upper(threshold, corrected=threshold - g)
        p = np.where(np.isfinite(q), q, p)
    if s.alternative == "two-sided":  # S* is symmetric
        p = 2 * p
    p = np.clip(np.where(moving, p, 1.0), 0.0, 1.0)
    reject = _random_rejection(p, s.alpha, s.n_resamples, plus_one=True)
    enumerated = _enumerated(s)
    for row, d in block.rows(np.flatnonzero(block.sum(block.d != 0) <= enumerated)):
        reject[row] = float(_exact_permutation_p(d[d != 0], s.alternative) <= s.alpha)  # the engine enumerates
    return reject


def _exact_permutation_p(d: np.ndarray, alternative: str) -> float:
    """The permutation p of a test set over all 2^M sign assignments of its non-zero differences ``d``."""
    signs = 1 - 2 * ((np.arange(2 ** len(d))[:, None] >> np.arange(len(d))) & 1)
    sums, total = signs @ d, float(d.sum())
    return float(extreme(sums, alternative, total, TIE * float(np.abs(d).sum())).mean())


class _Saddle:
    """Tail probabilities of a resampled sum S* by the Lugannani-Rice saddlepoint approximation (Davison & Hinkley
    1988 for the bootstrap, Robinson 1982 for sign flips), with Daniels' (1987) continuity correction on a lattice
    of span ``step`` through ``base``. ``kind`` "bootstrap": S* is the sum of n draws from the row's differences;
    "sign": the sum of ±d. nan where the tail is not solved (then Edgeworth stands in)."""

    def __init__(self, kind: str, block: _Block, step: float, base):
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


_SCORE_TESTS = {"t": _t_scores, "bootstrap": _bootstrap_scores, "permutation": _permutation_scores}


# --- the plan ------------------------------------------------------------------------------------------------------

def _grid(n_max: int) -> list[int]:
    """Round sizes from 10 up to ``n_max``, six a decade, and ``n_max`` itself."""
    sizes, decade = [], _FIRST
    while decade < n_max:
        sizes += [round(step * decade) for step in _GRID if step * decade < n_max]
        decade *= 10
    return sizes + [n_max]


def _plan(model, pilot_n: int, s: _Settings, target: float, n_sims: int, n_max: int, seed: int, *,
          binary: bool, effect: float, source: str = "the pilot's", auto: bool = False) -> Plan:
    exact = isinstance(model, _Binary)
    cache: dict[tuple[int, bool], Power] = {}

    def power(n: int, refined: bool = False) -> Power:
        refined = refined and not exact  # an exact power has no noise to refine
        if (n, refined) not in cache:
            cache[n, refined] = _power(model, n, s, n_sims * (REFINE if refined else 1), seed, int(refined))
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
    detectable = _detectable(model, pilot_n, s, target, lambda m: _power(m, pilot_n, s, sims, seed, 2).power, exact)
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


def _detectable(model, n: int, s: _Settings, target: float, power: Callable, exact: bool) -> float | None:
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
    if isinstance(model, _Binary):
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
