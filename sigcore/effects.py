"""Effect sizes of one comparison, beside its p: the ones that fit the metric, from each item's own value.

δ with its interval is in every :class:`~sigcore.Result`; a metric that is a mean of per-item values adds
Cohen's d_z and the Hodges–Lehmann estimate (per-item scores) or the discordant pairs and their paired odds
ratio (right/wrong items). F1, BLEU and chrF are not means of per-item values: δ is their effect.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .contract import DEFAULT_ALTERNATIVE
from .metrics import Metric, prepare, resolve
from .statistics.effect_sizes import EffectSize
from .statistics.effect_sizes import effect_sizes as _effect_sizes

__all__ = ["item_values", "effect_sizes"]


def item_values(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, metric: str | Metric = "accuracy",
                **metric_options: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """Each item's value for A and B under a metric that is their mean (1/0 for accuracy; the absolute or squared
    errors for MAE and MSE), or None for a metric that is not (F1, BLEU, chrF, RMSE)."""
    if not resolve(metric).decomposable:
        return None
    stats, score, _ = prepare(metric, gold, [sys_a, sys_b], **metric_options)
    return score(stats[0]), score(stats[1])  # rows [value, 1] of one item score to its value


def effect_sizes(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, metric: str | Metric = "accuracy",
                 alternative: str = DEFAULT_ALTERNATIVE, confidence_level: float = 0.95,
                 **metric_options: Any) -> list[EffectSize]:
    """The effect sizes that fit ``metric`` (none beyond δ for F1, BLEU, chrF), with intervals on the
    test's side (``alternative`` as a side of A − B: :attr:`sigcore.Result.delta_alternative`)."""
    values = item_values(gold, sys_a, sys_b, metric=metric, **metric_options)
    if values is None or len(values[0]) < 2:
        return []
    return _effect_sizes(*values, binary=resolve(metric).binary, confidence_level=confidence_level,
                         alternative=alternative)
