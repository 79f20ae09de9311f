"""Bootstrap confidence intervals: percentile and BCa (Efron & Tibshirani 1993, ch. 13-14)."""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr, ndtri


def percentile(values: np.ndarray, confidence_level: float) -> tuple[float, float]:
    """The equal-tailed percentile interval of a bootstrap distribution."""
    tail = (1 - confidence_level) / 2
    low, high = np.quantile(values, [tail, 1 - tail])
    return float(low), float(high)


def bca(values: np.ndarray, estimate: float, jackknife: np.ndarray, weights: np.ndarray,
        confidence_level: float) -> tuple[float, float]:
    """Bias-corrected and accelerated interval (Efron 1987).

    ``jackknife`` holds the leave-one-out estimates, ``weights`` how many items share each one.
    """
    z0 = ndtri((np.mean(values < estimate) + np.mean(values <= estimate)) / 2)  # ties count half
    centre = np.average(jackknife, weights=weights)
    d = centre - jackknife
    spread = np.sum(weights * d**2)
    accel = np.sum(weights * d**3) / (6 * spread**1.5) if spread > 0 else 0.0
    z = ndtri(np.array([(1 - confidence_level) / 2, (1 + confidence_level) / 2]))
    levels = ndtr(z0 + (z0 + z) / (1 - accel * (z0 + z)))
    if not np.all(np.isfinite(levels)):  # degenerate distribution (all resamples equal the estimate)
        return percentile(values, confidence_level)
    low, high = np.quantile(values, levels)
    return float(low), float(high)
