"""Adjusted p-values for a family of tests, e.g. several systems each compared with one baseline.

Testing k true null hypotheses at level α each rejects at least one with probability up to 1 − (1 − α)^k.
Adjusted p-values are compared with α directly and keep that family-wise error rate (FWER) at most α:
Bonferroni (Dunn 1961) and Holm's step-down (Holm 1979) under any dependence, Hochberg's step-up (Hochberg 1988)
under independence or positive dependence. Benjamini & Hochberg (1995) ("bh") control the false discovery
rate instead, the expected share of false rejections among the rejections (under independence or positive
dependence); Benjamini & Yekutieli (2001) ("by") under any dependence, at the price of a factor Σ 1/j. Each equals
``statsmodels.stats.multitest.multipletests`` ("bonferroni", "holm", "simes-hochberg", "fdr_bh", "fdr_by").
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import SettingsError

__all__ = ["METHODS", "CORRECTIONS", "MAXT", "RESAMPLED", "adjust", "floor_reach", "floored_p_values"]


def _step_up(values: np.ndarray) -> np.ndarray:
    return np.minimum.accumulate(values[::-1])[::-1]


# Adjusted p of the sorted p-values p_(1) <= ... <= p_(m), rank i = 1..m; the running max/min keeps them monotone.
METHODS = {
    "bonferroni": lambda p, i, m: m * p,
    "holm": lambda p, i, m: np.maximum.accumulate((m - i + 1) * p),
    "hochberg": lambda p, i, m: _step_up((m - i + 1) * p),
    "bh": lambda p, i, m: _step_up(m / i * p),
    "by": lambda p, i, m: _step_up(m * np.sum(1 / np.arange(1, m + 1)) / i * p),
}


CORRECTIONS = ("holm", "bonferroni", "hochberg", "bh", "by")  # as menus list them: the default first
MAXT = "maxt"  # the max-statistic correction, from the comparisons' shared resamples (sigcore.statistics.maxstat)
RESAMPLED = (*CORRECTIONS, MAXT)  # where the comparisons share their resamples (a board, preferences)


def adjust(p_values, method: str = "holm", *, floors=None) -> np.ndarray:
    """Adjusted p-values, in the order given (not sorted), capped at 1: reject H0 number j when ``out[j] <= α``.

    ``p_values``: numbers, or :class:`~sigcore.Result` objects (their p, never 0). A p of exactly 0 is a
    resampling count of zero, which only says p < 1/b: adjusting it as 0 would keep it significant after any
    correction. Give ``floors`` (each p's smallest attainable value, e.g. 1/(b + 1) for b resamples, or one
    number for all), and every p is raised to its floor first; a 0 without a floor is refused.
    """
    p = floored_p_values(p_values, method, floors)
    order = np.argsort(p, kind="stable")
    m = len(p)
    out = np.empty(m)
    out[order] = np.minimum(METHODS[method](p[order], np.arange(1, m + 1), m), 1.0)
    return out


def floor_reach(floors, method: str, alpha: float, n_resamples: int) -> tuple[float, int | None]:
    """The smallest corrected p a family can reach, every p at its floor (a resampling test's 1/b) and corrected by
    ``method`` (Holm's and Bonferroni's m/b, Benjamini–Hochberg's 1/b), and, when it is above α, about how many
    resamples would bring it to α: a multiple of 1,000, from the correction's factor before its cap at 1 (a floor
    shrinks as 1/b)."""
    floors = np.asarray(floors, dtype=float)
    smallest = float(adjust(floors, method).min())
    if smallest <= alpha:
        return smallest, None
    scale = 0.5 / (floors.size * floors.max())  # no corrected p reaches the cap at 1
    factor = float(adjust(floors * scale, method).min()) / scale
    return smallest, int(math.ceil(math.ceil(n_resamples * factor / alpha - 1e-9) / 1000) * 1000)


def floored_p_values(p_values, method: str, floors) -> np.ndarray:
    """The p-values a correction adjusts, checked and each raised to its floor (a result's own, or ``floors``)."""
    if method not in METHODS:
        raise SettingsError(f"unknown correction {method!r}", hint=f"Choose one of: {', '.join(METHODS)}.")
    results = isinstance(p_values, (list, tuple)) and p_values and all(hasattr(v, "p_value") for v in p_values)
    if results:  # a resampled p is never 0; a closed-form 0 (a constant difference, underflow) is a real 0
        floors = [v.p_floor for v in p_values] if floors is None else floors
        p_values = [v.p_value for v in p_values]
    p = _probabilities(p_values, "p_values")
    if floors is not None:
        floor = _probabilities(np.atleast_1d(floors), "floors")
        if floor.size not in (1, p.size):
            raise SettingsError(f"`floors` has {floor.size} values for {p.size} p-values",
                                hint="Give one floor per p-value, or one for all.")
        p = np.maximum(p, floor)
    zero = np.flatnonzero(p == 0)
    if len(zero) and not results:
        raise SettingsError(f"p-value number {zero[0] + 1} is 0, which a resampling test means as p < 1/b",
                            hint="Pass the results themselves, or floors= (1/(b + 1) for b resamples).")
    return p


def _probabilities(values, name: str) -> np.ndarray:
    try:
        p = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise SettingsError(f"`{name}` must be numbers between 0 and 1") from None
    if p.ndim != 1 or not len(p):
        raise SettingsError(f"`{name}` must be a non-empty, flat list of p-values",
                            hint="Pass one family of tests at a time.")
    bad = np.flatnonzero(~((p >= 0) & (p <= 1)))  # nan fails both comparisons
    if len(bad):
        raise SettingsError(f"{name[:-1].replace('_', '-')} number {bad[0] + 1} is {p[bad[0]]:g}, "
                            "not a number between 0 and 1")
    return p
