"""Metrics as per-item sufficient statistics and a vectorised score: the registry (:mod:`.registry`), BLEU and
chrF (:mod:`.translation`), and entity spans (:mod:`.spans`)."""

from .registry import METRICS, Metric, prepare

__all__ = ["METRICS", "Metric", "prepare"]
