"""Confidence intervals and one-sided bounds that go with a test's alternative hypothesis.

A two-sided test gets a two-sided interval; a one-sided test ("greater": A better) a lower bound, ("less") an
upper bound, the other end left open (``inf`` for a difference, 1 or 0 for a share). Sources:

- :func:`basic`, the bootstrap test's dual (Efron & Tibshirani 1993, §13.4; Berg-Kirkpatrick et al. 2012):
  the paired bootstrap rejects H0 exactly when this interval excludes 0;
- :func:`percentile` and :func:`bca` (Efron 1987), on request;
- :func:`mean_interval`, Student's t (or the normal) interval of a mean;
- :func:`clopper_pearson` for a share (Clopper & Pearson 1934), the exact binomial test's dual;
- :func:`wilson` for a share of right items (Wilson 1927), which stays inside [0, 1] and does not collapse
  to a point when every item is right.
"""

from __future__ import annotations

import math

import numpy as np

from .._lazy import special, stats
from ..contract import DEFAULT_ALTERNATIVE

__all__ = ["power_scale", "tails", "largest_count", "basic", "percentile", "bca", "mean_interval", "clopper_pearson",
           "wilson", "snap"]


def power_scale(x: np.ndarray, largest: int = 400) -> tuple[np.ndarray, float]:
    """``x`` over a power of two, and that power: its largest magnitude brought under 2^largest (by 1 when it is
    already), exactly, since only the exponents move, so that sums and squares of huge scores (1e308) cannot
    overflow; a mean, spread or interval computed on it is multiplied back."""
    x = np.asarray(x, dtype=float)
    top = float(np.max(np.abs(x))) if x.size else 0.0
    shift = max(0, math.frexp(top)[1] - largest) if top > 0 else 0
    return (x, 1.0) if shift == 0 else (np.ldexp(x, -shift), math.ldexp(1.0, shift))


def _normal_isf(q: float) -> float:
    return -float(special.ndtri(q))  # scipy.stats.norm.isf's own formula, without its argument checks


def tails(level: float, alternative: str) -> tuple[float | None, float | None]:
    """The probability left below the lower end and above the upper end (None: that end is open)."""
    return {"greater": (1 - level, None), "less": (None, 1 - level),
            "two-sided": ((1 - level) / 2, (1 - level) / 2)}[alternative]


def largest_count(alpha: float, b: int) -> int:
    """The largest count k of extreme resamples with max(k, 1) / b <= alpha (the rule the bootstrap p follows);
    0 when even zero extreme resamples cannot reach alpha (b < 1 / alpha)."""
    k = min(b, math.floor(alpha * b))
    while k < b and (k + 1) / b <= alpha:  # floor of a float product can be one off either way
        k += 1
    while k > 0 and k / b > alpha:
        k -= 1
    return k


def basic(values: np.ndarray, estimate: float, alpha: float, alternative: str, tol: float) -> tuple[float, float]:
    """The basic bootstrap interval that is the paired bootstrap test's dual (at level 1 - ``alpha``).

    With deviations e_i = delta_i - delta ("greater"), delta - delta_i ("less") or |delta_i - delta|
    ("two-sided"), the test counts e_i >= delta, -delta or |delta| (for "greater": delta_i >= 2·delta, SLP3
    eq. 4.48) and rejects when at most k of b do; c = the (b - k)-th smallest e_i gives the bound delta - c (or
    delta + c), which is beyond 0 exactly when the test rejects. Bounds within ``tol`` of 0 are 0 (float noise is a
    tie), and a one-sided bound never passes the estimate. ``nan`` where b resamples cannot reach ``alpha``.
    """
    b = len(values)
    k = largest_count(alpha, b)
    low, high = -math.inf, math.inf
    if k == 0:
        return (math.nan, high) if alternative == "greater" else (low, math.nan) if alternative == "less" else \
            (math.nan, math.nan)
    deviations = {"greater": values - estimate, "less": estimate - values,
                  "two-sided": np.abs(values - estimate)}[alternative]
    c = float(np.partition(deviations, b - k - 1)[b - k - 1])
    if alternative != "less":
        low = snap(min(estimate - c, estimate), tol)
    if alternative != "greater":
        high = snap(max(estimate + c, estimate), tol)
    return low, high


def percentile(values: np.ndarray, confidence_level: float, alternative: str = DEFAULT_ALTERNATIVE, *,
               axis: int | None = None) -> tuple:
    """The percentile interval (equal-tailed when two-sided) of a bootstrap distribution; ``nan`` at an end whose
    tail b resamples cannot hold (b · tail < 1: 40 for a two-sided 95% interval), where the "interval" would be
    the resamples' range, which can exclude the estimate. ``axis=0``: of each column of (b, k) ``values``, as two
    arrays (the same numbers as column by column)."""
    lower, upper = tails(confidence_level, alternative)
    return _quantiles(values, lower, None if upper is None else 1 - upper, axis)


def _quantiles(values: np.ndarray, lower: float | None, upper: float | None, axis: int | None = None) -> tuple:
    """The ``lower`` and ``upper`` quantiles of ``values`` (None: that end open), nan where fewer than one value
    lies beyond the quantile."""
    b = len(values)

    def held(tail: float) -> bool:
        return tail * b >= 1 - 1e-9  # 0.025 · 40 is 1 up to rounding

    def end(q: float | None, tail: float, open_end: float):
        value = open_end if q is None else np.quantile(values, q, axis=axis) if held(tail) else math.nan
        return float(value) if axis is None else np.broadcast_to(np.asarray(value, dtype=float), values.shape[1:])

    return end(lower, lower or 0.0, -math.inf), end(upper, 1 - (upper or 0.0), math.inf)


def bca(values: np.ndarray, estimate: float, jackknife: np.ndarray, weights: np.ndarray,
        confidence_level: float, alternative: str = DEFAULT_ALTERNATIVE) -> tuple[float, float]:
    """Bias-corrected and accelerated interval (Efron 1987).

    ``jackknife`` holds the leave-one-out estimates, ``weights`` how many items share each one.
    """
    z0 = special.ndtri((np.mean(values < estimate) + np.mean(values <= estimate)) / 2)  # ties count half
    centre = np.average(jackknife, weights=weights)
    d = centre - jackknife
    spread = np.sum(weights * d**2)
    accel = np.sum(weights * d**3) / (6 * spread**1.5) if spread > 0 else 0.0
    lower, upper = tails(confidence_level, alternative)
    z = special.ndtri(np.array([lower if lower is not None else 0.5, 1 - upper if upper is not None else 0.5]))
    with np.errstate(invalid="ignore", divide="ignore"):  # z0 = ±inf when every resample is on one side
        levels = special.ndtr(z0 + (z0 + z) / (1 - accel * (z0 + z)))
    if not np.all(np.isfinite(levels)):  # degenerate distribution (all resamples equal the estimate)
        return percentile(values, confidence_level, alternative)
    return _quantiles(values, None if lower is None else float(levels[0]), None if upper is None else float(levels[1]))


def mean_interval(x: np.ndarray, confidence_level: float, alternative: str = DEFAULT_ALTERNATIVE, *,
                  normal: bool = False) -> tuple[float, float]:
    """Student's t (or the normal) interval of a mean, the t-test's (z-test's) dual; a point when the values
    do not vary."""
    x, scale = power_scale(x)  # huge scores: computed a power of two down, multiplied back
    n, mean = len(x), float(np.mean(x))
    sd = float(np.std(x, ddof=1)) if n > 1 else 0.0
    lower, upper = tails(confidence_level, alternative)
    if sd == 0:
        return (-math.inf if lower is None else mean * scale), (math.inf if upper is None else mean * scale)
    quantile = _normal_isf if normal else (lambda q: -special.stdtrit(n - 1, q))  # scipy.stats' own, less overhead
    se = sd / math.sqrt(n)
    return (-math.inf if lower is None else (mean - float(quantile(lower)) * se) * scale,
            math.inf if upper is None else (mean + float(quantile(upper)) * se) * scale)


def clopper_pearson(k: int, n: int, confidence_level: float,
                    alternative: str = DEFAULT_ALTERNATIVE) -> tuple[float, float]:
    """The exact interval of a share k / n, the binomial test's dual: the shares p at which seeing k or more
    (or k or fewer) of n has at least the tail probability. (0, 1) when n is 0."""
    lower, upper = tails(confidence_level, alternative)
    low = 0.0 if lower is None or k == 0 else float(stats.beta.ppf(lower, k, n - k + 1))
    high = 1.0 if upper is None or k == n else float(stats.beta.isf(upper, k + 1, n - k))
    return low, high


def wilson(x: np.ndarray, confidence_level: float) -> tuple[float, float]:
    """Wilson's score interval of a share of right items (two-sided): inside [0, 1], unlike a t interval near
    0 or 1, and not a point when every item is right, unlike a bootstrap percentile interval."""
    n, share = len(x), float(np.mean(x))
    z = float(_normal_isf((1 - confidence_level) / 2))
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    low, high = max(0.0, centre - half), min(1.0, centre + half)  # the clip only absorbs float noise
    return (0.0 if share == 0 else low), (1.0 if share == 1 else high)  # exactly 0 and 1 there, analytically


def snap(x: float, tol: float, to: float = 0.0) -> float:
    """``to`` where ``x`` lies within ``tol`` of it, else ``x``: a bound on the null (0) or on a claim's margin (±Δ)
    up to float noise is on it, so that it excludes that value exactly when the test rejects it."""
    return to if abs(x - to) <= tol else x
