"""The result of one paired comparison: everything a reader needs to trust and reproduce it."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True, repr=False)
class Result:
    """A paired test of system A against system B on one test set x.

    ``delta`` is delta(x) = M(A, x) - M(B, x). ``distribution`` holds the resampled delta(x^(i)) (bootstrap)
    or the permutation null; ``None`` for closed-form tests. ``threshold`` is the value the distribution is
    compared with: 2·delta(x) for the paired bootstrap, delta(x) for the permutation test.
    ``p_floor`` is the smallest p the test could report with these resamples (or this n); a p of 0 means
    "p < p_floor". ``mc_error`` is the Monte-Carlo standard error of p (0 for exact and closed-form tests).
    """

    metric: str
    test: str
    alternative: str
    score_a: float
    score_b: float
    delta: float
    p_value: float
    ci_low: float
    ci_high: float
    confidence_level: float
    ci_method: str
    ci_a: tuple[float, float]
    ci_b: tuple[float, float]
    n_items: int
    n_resamples: int
    seed: int | None
    mc_error: float
    p_floor: float
    distribution: np.ndarray | None = field(compare=False)
    threshold: float | None
    signature: str
    statistic: float | None = None
    exact: bool = False
    compat: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    done: bool = True

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether H0 is rejected at level ``alpha``."""
        return self.p_value < alpha

    @property
    def p_text(self) -> str:
        """The p-value as a paper should print it: never "p = 0" for a resampling test."""
        if self.p_value == 0:  # resampling: below the smallest p b resamples can give; closed form: underflow
            return f"p < {_short(self.p_floor)}" if self.p_floor > 0 else "p < 1e-300"
        return f"p = {_short(self.p_value)}"

    def to_dict(self, *, distribution: bool = False) -> dict[str, Any]:
        """A JSON-safe dict (the resampled values only when asked: they can be millions)."""
        out = {k: v for k, v in asdict(self).items() if k != "distribution"}
        out["ci_a"], out["ci_b"] = list(self.ci_a), list(self.ci_b)
        out["p_text"] = self.p_text
        if distribution:
            out["distribution"] = None if self.distribution is None else self.distribution.tolist()
        return {k: _json_safe(v) for k, v in out.items()}

    def __repr__(self) -> str:
        return (f"Result({self.test}, {self.metric}: A={self.score_a:.4g} B={self.score_b:.4g} "
                f"delta={self.delta:.4g}, {self.p_text}, {self.alternative}, "
                f"{self.confidence_level:.0%} CI [{self.ci_low:.4g}, {self.ci_high:.4g}])")


def _short(p: float) -> str:
    return f"{p:.2g}" if p < 1e-3 else f"{p:.4f}".rstrip("0").rstrip(".") or "0"


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # JSON has no inf or nan
    return value
