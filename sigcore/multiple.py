"""Adjusted p-values for a family of tests, e.g. several systems each compared with one baseline.

Testing k true null hypotheses at level α each rejects at least one with probability up to 1 − (1 − α)^k.
Adjusted p-values are compared with α directly and keep that family-wise error rate (FWER) at most α:
Bonferroni (Dunn 1961) and Holm's step-down (Holm 1979) under any dependence, Hochberg's step-up (Hochberg 1988)
under independence or positive dependence. Benjamini & Hochberg (1995) ("bh") control the false discovery
rate instead, the expected share of false rejections among the rejections. Each equals
``statsmodels.stats.multitest.multipletests`` ("bonferroni", "holm", "simes-hochberg", "fdr_bh").
"""

from __future__ import annotations

import numpy as np

from .errors import SettingsError


def _step_up(values: np.ndarray) -> np.ndarray:
    return np.minimum.accumulate(values[::-1])[::-1]


# Adjusted p of the sorted p-values p_(1) <= ... <= p_(m), rank i = 1..m; the running max/min keeps them monotone.
METHODS = {
    "bonferroni": lambda p, i, m: m * p,
    "holm": lambda p, i, m: np.maximum.accumulate((m - i + 1) * p),
    "hochberg": lambda p, i, m: _step_up((m - i + 1) * p),
    "bh": lambda p, i, m: _step_up(m / i * p),
}


def adjust(p_values, method: str = "holm") -> np.ndarray:
    """Adjusted p-values, in the order given (not sorted), capped at 1: reject H0 number j when ``out[j] < α``."""
    p = _adjust_iv(p_values, method)
    order = np.argsort(p, kind="stable")
    m = len(p)
    out = np.empty(m)
    out[order] = np.minimum(METHODS[method](p[order], np.arange(1, m + 1), m), 1.0)
    return out


def _adjust_iv(p_values, method: str) -> np.ndarray:
    if method not in METHODS:
        raise SettingsError(f"unknown correction {method!r}", hint=f"Choose one of: {', '.join(METHODS)}.")
    try:
        p = np.asarray(p_values, dtype=float)
    except (TypeError, ValueError):
        raise SettingsError("`p_values` must be numbers between 0 and 1") from None
    if p.ndim != 1 or not len(p):
        raise SettingsError("`p_values` must be a non-empty, flat list of p-values",
                            hint="Pass one family of tests at a time.")
    bad = np.flatnonzero(~((p >= 0) & (p <= 1)))  # nan fails both comparisons
    if len(bad):
        raise SettingsError(f"p-value number {bad[0] + 1} is {p[bad[0]]:g}, not a number between 0 and 1")
    return p
