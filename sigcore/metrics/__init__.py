"""Metrics as per-item sufficient statistics and a vectorised score: the registry (:mod:`.registry`), BLEU and
chrF (:mod:`.translation`), entity spans (:mod:`.spans`) and regression errors (:mod:`.regression`)."""

from .registry import METRIC_NAMES, METRICS, Metric, direction, known, prepare, resolve

__all__ = ["METRIC_NAMES", "METRICS", "Metric", "direction", "known", "prepare", "resolve"]
