"""The long table's shape, which every log reader writes (:mod:`sigcore.logs.tidy` gathers them): its columns, one
log's frame as its rows, and an lm-eval samples file's frame as them."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["COLUMNS", "long_rows", "lm_eval_samples"]

COLUMNS = ("model", "task", "item", "run", "metric", "score")


def long_rows(model: str, task: str, frame: pd.DataFrame, item: str, run: str | None, metrics: list[str],
          extra: list[str] = (), names: list[str] | None = None) -> pd.DataFrame:
    """The long table of one log's frame, a metric after another (each of ``metrics`` under its name in
    ``names``); ``extra`` columns (an Inspect sample's metadata) carried along."""
    k = len(metrics)
    ids = frame[item].astype(str).to_numpy()
    return pd.DataFrame({"model": model, "task": task, "item": np.tile(ids, k),
                         "run": np.tile(frame[run].to_numpy(np.int64), k) if run else np.int64(1),
                         "metric": np.repeat(np.array(names or metrics, dtype=object), len(frame)),
                         "score": np.concatenate([frame[m].to_numpy(np.float64) for m in metrics]) if k else
                         np.zeros(0), **{c: np.tile(frame[c].to_numpy(), k) for c in extra}})


def lm_eval_samples(frame: pd.DataFrame, model: str, task: str) -> pd.DataFrame:
    """An lm-eval samples file's frame (:func:`sigcore.io.lmeval.parse`) as the long table: each filter's metrics
    are metrics of their own (``acc[strict-match]``) where the file has several, a document being once per filter."""
    from ..io.lmeval import metric_fields

    metrics = metric_fields(frame)
    filters = [str(f) for f in pd.unique(frame["filter"])]
    if len(filters) == 1:
        return long_rows(model, task, frame, "doc_id", None, metrics)
    return pd.concat([long_rows(model, task, frame[frame["filter"] == f], "doc_id", None, metrics,
                            names=[f"{m}[{f}]" for m in metrics]) for f in filters], ignore_index=True)
