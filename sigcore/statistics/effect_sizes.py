"""Effect sizes of A over B, in units a reader weighs, to print beside p.

- :func:`cohens_dz`: Cohen's d_z = mean(d) / sd(d) of the per-item differences d = a - b (Cohen 1988, §2.3.5),
  with the exact interval from the noncentral t distribution (Steiger & Fouladi 1997; Cumming 2012);
- :func:`hodges_lehmann_estimate`: the Hodges-Lehmann pseudo-median of the non-zero differences (Hodges &
  Lehmann 1963), the Wilcoxon test's estimate, with the interval that inverts that test;
- :func:`discordant_odds_ratio`: for right/wrong items, the discordant pairs n10 (only A right) and n01 (only
  B right) and the paired odds ratio n10 / n01, the conditional MLE, with its exact conditional interval: the
  Clopper-Pearson interval of n10 / (n10 + n01) mapped by p / (1 - p) (Breslow & Day 1980, §7.2).

Intervals follow the alternative like the tests do: two-sided an interval, "greater" a lower bound and "less" an
upper bound, the other end open (inf for d_z and the pseudo-median, 0 or inf for the odds ratio).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from .._lazy import integrate, optimize, special, stats
from ..contract import DEFAULT_ALTERNATIVE, check_alternative, check_level
from ..errors import PARAMETER, InputError, SettingsError
from . import intervals
from .closed_form import differences, hodges_lehmann, paired_values, values_scale

__all__ = ["MINUS", "EffectSize", "cohens_dz", "hodges_lehmann_estimate", "discordant_odds_ratio", "effect_sizes"]

MINUS = "\u2212"  # a real minus sign, as papers print negatives


@dataclass(frozen=True)
class EffectSize:
    """One effect size: ``value`` with its interval (``nan`` where none; one end open when one-sided), the
    line a paper can print (``text``) and when the number misleads (``misleads``). ``n10``/``n01``: the
    discordant pairs (only A right, only B right), for the odds ratio."""

    name: str
    title: str
    value: float
    ci_low: float
    ci_high: float
    text: str
    misleads: str
    n10: int | None = None
    n01: int | None = None


def _fixed(x: float, decimals: int = 2) -> str:
    """``decimals`` decimals; a non-zero number that would round to 0 gets two significant digits, so it
    keeps its sign and size."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    if x == 0:
        return f"{0:.{decimals}f}"
    text = f"{x:.{decimals}f}"
    if float(text) == 0:
        text = f"{x:.2g}"
    return text.replace("-", MINUS)


def _significant(x: float) -> str:
    """Four significant digits, with a real minus."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    return "0" if x == 0 else f"{x:.4g}".replace("-", MINUS)


def _interval(low: float, high: float, level: float, alternative: str, fmt) -> str:
    """"95% CI 0.12 to 0.50", or the one-sided bound on H1's side."""
    percent = f"{100 * level:g}%"
    if alternative == "greater":
        return f"one-sided {percent} bound: at least {fmt(low)}"
    if alternative == "less":
        return f"one-sided {percent} bound: at most {fmt(high)}"
    return f"{percent} CI {fmt(low)} to {fmt(high)}"


def _items(k: int) -> str:
    return f"{k} item{'s' * (k != 1)}"


def _nct_tail(t: float, df: int, nc: float, upper: bool) -> float:
    """P(T > t) (``upper``) or P(T <= t) for T noncentral t(df, nc), t >= 0: scipy's up to t = 1000, else or
    where its series does not converge (nan: nc far below 0 at small df) the same tail as an integral over Z in
    T = (Z + nc) / sqrt(V / df), V chi-square(df): P(T <= t) = E_Z[P(V >= df ((Z + nc) / t)^2)] for Z + nc > 0.
    (scipy's nct drifts by 1e-8 at t = 1e4 and by 0.2 at t = 1e6; the integral agrees with it to 1e-13 below
    t = 1000.)"""
    if t <= 1000:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the nan below is handled; the warning is noise
            p = float(stats.nct.sf(t, df, nc) if upper else stats.nct.cdf(t, df, nc))
        if math.isfinite(p):
            return p

    def integrand(z: float) -> float:
        u = z + nc
        if u <= 0 or t == 0:  # T <= t for sure when Z + nc <= 0 (t >= 0); T > 0 = t when it is positive
            inside = float(u <= 0)
        else:
            inside = float(special.chdtrc(df, df * (u / t) ** 2))
        return math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * (1 - inside if upper else inside)
    kink = [-nc] if -40 < -nc < 40 else None  # the integrand bends where Z + nc crosses 0
    return float(integrate.quad(integrand, -40, 40, points=kink, epsabs=1e-14, epsrel=1e-12, limit=200)[0])


def _noncentrality(t: float, df: int, lower: float | None, upper: float | None) -> tuple[float, float]:
    """The noncentralities nc at which the observed t is the (1 - lower)- and upper-quantile of a noncentral t
    with ``df`` degrees of freedom: the exact interval of nc (None: that end open)."""
    if t < 0:  # T(-nc) = -T(nc): solve on |t| with the tails swapped, so swapping A and B mirrors exactly
        low, high = _noncentrality(-t, df, upper, lower)
        return -high, -low
    bounds = []
    for tail, side in ((lower, -1), (upper, 1)):
        if tail is None:
            bounds.append(side * math.inf)
            continue

        # cdf falls as nc grows: the lower end has P(T >= t) = tail, the upper one P(T <= t) = tail
        def excess(nc: float, tail: float = tail, side: int = side) -> float:
            return _nct_tail(t, df, nc, upper=side < 0) - tail
        step = 2.0 + abs(t) / math.sqrt(2 * df)  # about the sd of T near nc = t, so the bracket is found fast
        a, b = t - step, t + step
        while excess(a) * side < 0:  # side -1: need sf(a) < tail; side 1: need cdf(a) > tail
            a -= step
            step *= 2
        while excess(b) * side > 0:
            b += step
            step *= 2
        bounds.append(float(optimize.brentq(excess, a, b, xtol=1e-13, rtol=4 * np.finfo(float).eps)))
    return bounds[0], bounds[1]


def cohens_dz(a, b, *, confidence_level: float = 0.95, alternative: str = DEFAULT_ALTERNATIVE) -> EffectSize:
    """Cohen's d_z = mean(d) / sd(d, ddof=1) of d = a - b, with the exact noncentral-t interval: the
    noncentralities whose t distribution (df = n - 1) puts the observed t = d_z·sqrt(n) at the interval's
    tails, divided by sqrt(n). Differences that do not vary give inf (A always ahead by the same amount),
    -inf, or nan (A and B identical), with no interval."""
    check_alternative(alternative)
    level = check_level(confidence_level)
    d = differences(*paired_values(a, b, min_n=2))  # a standard deviation needs two items
    n = d.size
    misleads = ("d_z divides by the spread of the per-item differences, so it grows as A and B agree more (it "
                "depends on how correlated they are) and is not comparable to an unpaired Cohen's d; at large "
                "n even a tiny d_z can be significant.")
    if np.all(d == d[0]):  # (ptp overflows on ±1e308)
        c = float(d[0])
        if c == 0:
            text = "d_z undefined (0/0): A and B score the same on every item"
            return EffectSize("cohens_dz", "Cohen's d_z", math.nan, math.nan, math.nan, text, misleads)
        value = math.copysign(math.inf, c)
        leader = "A" if c > 0 else "B"
        text = (f"d_z = {_fixed(value)}: {leader} is ahead by the same {_significant(abs(c))} on every item, so "
                f"the differences have no spread to standardize by; report the difference instead")
        return EffectSize("cohens_dz", "Cohen's d_z", value, math.nan, math.nan, text, misleads)
    scaled, _ = intervals.power_scale(d)  # d_z is the same on d over a power of two, whose spread cannot overflow
    value = float(scaled.mean() / scaled.std(ddof=1))
    root = math.sqrt(n)
    if not math.isfinite(value * root):  # a spread below float range: no distribution to invert
        text = f"d_z = {_fixed(value)}: the differences barely vary, so there is no interval"
        return EffectSize("cohens_dz", "Cohen's d_z", value, math.nan, math.nan, text, misleads)
    nc_low, nc_high = _noncentrality(value * root, n - 1, *intervals.tails(level, alternative))
    low, high = nc_low / root, nc_high / root
    text = f"d_z = {_fixed(value)} ({_interval(low, high, level, alternative, _fixed)})"
    return EffectSize("cohens_dz", "Cohen's d_z", value, low, high, text, misleads)


def hodges_lehmann_estimate(a, b, *, confidence_level: float = 0.95,
                            alternative: str = DEFAULT_ALTERNATIVE) -> EffectSize:
    """The Hodges-Lehmann estimate of A - B: the median of the Walsh averages of the non-zero differences
    (the Wilcoxon test's estimate; tied items carry no rank), with the interval that inverts the signed-rank
    test (:func:`closed_form.hodges_lehmann`)."""
    check_alternative(alternative)
    level = check_level(confidence_level)
    x, y = paired_values(a, b)
    d = differences(x, y)
    nonzero = d[d != 0]
    title = "Hodges–Lehmann estimate"
    misleads = ("It is the typical per-item difference on the items where A and B differ (ties are left out, as "
                "in the Wilcoxon test), not the change in the overall score, and on coarse scores with few "
                "distinct values it jumps between those values.")
    if nonzero.size == 0:  # identical systems: a point at 0 on the sides the interval has
        lower, upper = intervals.tails(level, alternative)
        low, high = (-math.inf if lower is None else 0.0), (math.inf if upper is None else 0.0)
        text = "Hodges–Lehmann estimate of A − B = 0: A and B score the same on every item"
        return EffectSize("hodges_lehmann", title, 0.0, low, high, text, misleads)
    value, (low, high) = hodges_lehmann(nonzero, level, alternative, scale=values_scale(x, y))  # as Wilcoxon's
    text = (f"Hodges–Lehmann estimate of A − B = {_significant(value)} "
            f"({_interval(low, high, level, alternative, _significant)}), "
            f"over the {_items(nonzero.size)} where A and B differ")
    return EffectSize("hodges_lehmann", title, value, low, high, text, misleads)


def _binary(a_correct, b_correct, min_n: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Validate right/wrong per item (0/1 or bool) and return them as float arrays."""
    names = ("a_correct", "b_correct")
    x, y = paired_values(a_correct, b_correct, names, min_n=min_n)
    for values, name in zip((x, y), names):
        bad = ~np.isin(values, (0.0, 1.0))
        if bad.any():
            raise InputError(f"`{name}` must be binary correctness (0/1 or True/False), found "
                             f"{values[bad][0]:g} at item {int(np.flatnonzero(bad)[0]) + 1}",
                             hint="Use binary=False for per-item scores.")
    return x, y


def discordant_odds_ratio(a_correct, b_correct, *, confidence_level: float = 0.95,
                          alternative: str = DEFAULT_ALTERNATIVE) -> EffectSize:
    """The discordant pairs n10 (A right, B wrong) and n01 (B right, A wrong) and the paired odds ratio
    n10 / n01 (the conditional MLE), with the exact conditional interval: Clopper-Pearson of
    n10 / (n10 + n01), mapped by p / (1 - p). inf when n01 = 0; nan without discordant pairs."""
    check_alternative(alternative)
    level = check_level(confidence_level)
    x, y = _binary(a_correct, b_correct)
    n10, n01 = int((x > y).sum()), int((x < y).sum())
    counts = f"A right / B wrong on {_items(n10)}, B right / A wrong on {n01}"
    misleads = (f"It ignores the items both get right or both get wrong ({x.size - n10 - n01} of {x.size} here), "
                f"so it says nothing about how often the systems differ, and with few discordant pairs it is "
                f"unstable (the interval shows how much).")
    title = "paired odds ratio"
    if n10 + n01 == 0:
        text = ("A and B are right and wrong on the same items (no discordant pairs), so the paired odds ratio "
                "is undefined")
        return EffectSize("odds_ratio", title, math.nan, math.nan, math.nan, text, misleads, n10, n01)
    p_low, p_high = intervals.clopper_pearson(n10, n10 + n01, level, alternative)
    low = p_low / (1 - p_low)
    high = math.inf if p_high == 1 else p_high / (1 - p_high)
    value = math.inf if n01 == 0 else n10 / n01
    never = ""  # say why the ratio sits at an end of its range
    if n01 == 0:
        never = "; B is never right where A is wrong"
    elif n10 == 0:
        never = "; A is never right where B is wrong"
    text = (f"{counts} (paired odds ratio {_fixed(value)}, {_interval(low, high, level, alternative, _fixed)}"
            f"{never})")
    return EffectSize("odds_ratio", title, value, low, high, text, misleads, n10, n01)


def effect_sizes(a, b, *, binary: bool, confidence_level: float = 0.95,
                 alternative: str = DEFAULT_ALTERNATIVE) -> list[EffectSize]:
    """The effect sizes that fit the data: per-item scores get d_z and the Hodges-Lehmann estimate;
    right/wrong items (``binary``) the discordant pairs with their odds ratio, and d_z of the 0/1
    differences."""
    if not isinstance(binary, (bool, np.bool_)):
        raise SettingsError(f"{PARAMETER} must be True or False, not {binary!r}", parameter="binary",
                            hint="True for right/wrong items, False for per-item scores.")
    check_alternative(alternative)
    level = check_level(confidence_level)
    if binary:
        x, y = _binary(a, b, min_n=2)
        return [discordant_odds_ratio(x, y, confidence_level=level, alternative=alternative),
                cohens_dz(x, y, confidence_level=level, alternative=alternative)]
    x, y = paired_values(a, b, min_n=2)
    return [cohens_dz(x, y, confidence_level=level, alternative=alternative),
            hodges_lehmann_estimate(x, y, confidence_level=level, alternative=alternative)]
