"""Regression outputs: each item's error, prediction − gold, from real-valued gold and predictions.

MAE, MSE and RMSE (:mod:`sigcore.metrics.registry`) are built on these errors: MAE's per-item row is ``[|e|, 1]``
and MSE's ``[e², 1]`` (both means of per-item values, so the per-item tests apply to the absolute or squared
errors); RMSE's is ``[e², 1]`` too, scored as √(Σe² / n) on every resample, like the other corpus metrics (it is
not a mean of per-item values). Errors are lower-is-better: δ = M(A) − M(B) < 0 when A's error is lower.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..errors import GOLD, SYSTEM, InputError
from ..numbers import floats, number
from ..words import shown

__all__ = ["real_values", "errors"]


def real_values(values: Sequence, system: int) -> np.ndarray:
    """``values`` as finite floats (numeric text such as "3.5" read as a number); the first that is not a finite
    number is refused, naming ``system`` (:data:`~sigcore.errors.GOLD`, or system k) and its item."""
    x = floats(list(values))
    if x is not None and np.isfinite(x).all():
        return x
    for item, value in enumerate(values, start=1):
        try:
            finite = math.isfinite(number(value))
        except (TypeError, ValueError):
            finite = False
        if not finite:
            raise InputError(f"{SYSTEM} has {shown(value)} for item {item}, not a finite number", line=item,
                             system=system,
                             hint="Regression metrics (mae, mse, rmse) compare real-valued predictions with "
                                  "real-valued gold: give a number for every item, or a metric for labels (accuracy).")
    raise AssertionError("unreachable: some value was not a finite number")  # pragma: no cover


def errors(gold: Sequence, systems: Sequence[Sequence]) -> list[np.ndarray]:
    """Each system's per-item error, prediction − gold; refused where a squared error would overflow."""
    truth = real_values(gold, GOLD)
    out = [real_values(system, k) - truth for k, system in enumerate(systems, start=1)]
    with np.errstate(over="ignore"):
        for k, e in enumerate(out, start=1):
            bad = np.flatnonzero(~np.isfinite(e * e * len(e)))
            if bad.size:  # a square (or a sum of n of them) beyond 1.8e308: no score could be computed
                raise InputError(f"{SYSTEM}'s error at item {bad[0] + 1} is too large to square and sum "
                                 f"({e[bad[0]]:g})", line=int(bad[0]) + 1, system=k,
                                 hint="Rescale gold and every system's predictions alike (e.g. divide by 1e100).")
    return out
