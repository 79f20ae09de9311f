"""A tidy Parquet table's sums per (model, task, item), read a batch of rows at a time: memory is the board's (a sum
and a count per model and item), never the table's rows, so that a table larger than memory is read on one machine.

It takes the table as logs and ``sigcore convert`` give it: text ids, whole-number runs, number scores, one metric,
no missing value, its rows in (model, task, item, run) order (each id's codes in their order of first appearance).
Any other table, and any table with something to refuse, gives None: the caller reads it whole
(:func:`sigcore.logs.tidy.read_table`), whose checks and messages are the one place they are said.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ..io.ids import merged

__all__ = ["Tallies", "read"]

_BATCH = 1 << 20  # rows decoded at a time: a few MB of Arrow's buffers
_HUGE = 2.0 ** 400  # scores from here on: the whole table's path scales them (sigcore.leaderboard.board.HUGE)
_IDS = ("model", "task", "item")


@dataclass
class Tallies:
    """What :func:`sigcore.leaderboard.from_table` counts from a table's rows, read from the file instead."""

    names: dict[str, list[str]]  # model, task, item, run: as the whole table's codes name them
    cells: np.ndarray  # the (task, item) pairs present, task x items + item, ascending
    sums: np.ndarray  # (cells, models), float64
    counts: np.ndarray  # (cells, models), the rows summed
    squares: np.ndarray | None  # (cells, models): sums of squares, where runs are not all 0 or 1
    binary: bool  # every score 0 or 1
    metric: str | None  # the table's one metric, or None without a metric column


class _Codes:
    """An id column's codes in order of first appearance over the rows, from each batch's Arrow dictionary."""

    def __init__(self):
        self.known: dict[str, int] = {}
        self.last = self.mapping = None

    def codes(self, array) -> np.ndarray | None:
        if array.null_count or array.indices.null_count:
            return None
        indices = array.indices.to_numpy()
        if self.last is None or not array.dictionary.equals(self.last):
            values = array.dictionary.to_pylist()
            self.mapping = np.array([self.known.get(v, -1) for v in values], dtype=np.int32)
            self.last, self.values = array.dictionary, values
        if (self.mapping < 0).any():  # values not seen before: coded as their first rows come
            changes = np.flatnonzero(indices[1:] != indices[:-1]) + 1  # a value first seen is the first row or a change
            for k in pd.unique(indices[np.r_[0, changes]] if len(changes) < len(indices) // 4 else indices):
                if self.mapping[k] < 0:
                    self.mapping[k] = self.known[self.values[k]] = len(self.known)
        if np.array_equal(self.mapping, np.arange(len(self.mapping))):  # the dictionary in the codes' order
            return indices
        return self.mapping[indices]

    def names(self) -> list[str]:
        return list(self.known)


def read(path: str | Path, metric: str | list[str] | None) -> Tallies | None:
    """The table's tallies, or None where it is not the table this reads (the caller reads it whole)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ModuleNotFoundError:
        return None
    try:
        schema = pq.read_schema(str(path))
        text = [f.name for f in schema if _text(pa, f.type)]
        file = pq.ParquetFile(str(path), read_dictionary=text)
    except (OSError, pa.ArrowException):
        return None
    names = set(schema.names)
    numbers = [f.name for f in schema if pa.types.is_integer(f.type) or pa.types.is_floating(f.type)]
    if not set(_IDS) <= set(text) or "score" not in numbers or names - {*_IDS, "run", "metric", "score"} or (
            "run" in names and not pa.types.is_integer(schema.field("run").type)) or (
            "metric" in names and "metric" not in text) or not file.metadata.num_rows:
        return None
    wanted = [metric] if isinstance(metric, str) else list(metric or [])
    if "metric" not in names and len(wanted) > 1:
        return None
    try:
        return _stream(file, text, wanted, "run" in names, "metric" in names)
    except (_Other, pa.ArrowException, OSError, ValueError):
        return None


def _text(pa, kind) -> bool:
    """Text, or text coded by a dictionary (a pandas categorical's)."""
    kind = kind.value_type if pa.types.is_dictionary(kind) else kind
    return pa.types.is_string(kind) or pa.types.is_large_string(kind)


class _Other(Exception):
    """The table is not one this module reads: read it whole."""


def _stream(file, text: list[str], wanted: list[str], has_run: bool, has_metric: bool) -> Tallies:
    columns = [*_IDS, *(["run"] if has_run else []), *(["metric"] if has_metric else []), "score"]
    ids = {k: _Codes() for k in _IDS}
    one_metric, binary, runs_seen = None, True, set()
    groups: list[list] = []  # each batch's (model, task, item) of its groups of rows, their sums, counts, squares
    last = None  # the last row's (model, task, item, run)
    for batch in file.iter_batches(batch_size=_BATCH, columns=columns, use_threads=False):
        if not batch.num_rows:
            continue
        col = dict(zip(batch.schema.names, batch.columns))
        if has_metric:
            one_metric = _metric(col["metric"], one_metric)
        model, task, item = (ids[k].codes(col[k]) for k in _IDS)
        if model is None or task is None or item is None or col["score"].null_count:
            raise _Other
        values = col["score"].to_numpy().astype(np.float64, copy=False)
        run = None
        if has_run:
            if col["run"].null_count:
                raise _Other
            run = col["run"].to_numpy()
            low, high = int(run.min()), int(run.max())
            if not runs_seen.issuperset(range(low, high + 1)):  # (else nothing new to see)
                runs_seen.update(_distinct(run))
        here = bool(((values == 0) | (values == 1)).all())
        binary = binary and here
        if not here:
            low, high = float(values.min()), float(values.max())
            if not (np.isfinite(low) and np.isfinite(high)) or max(-low, high) >= _HUGE:
                raise _Other
        first = _key(model, task, item, run, 0)
        if last is not None and first <= last:
            raise _Other
        new = _groups(model, task, item, run)  # each row after the first: whether it starts a (model, task, item)
        if new is None:  # a row each
            sums, counts = values + 0.0, np.ones(len(values), dtype=np.int32)
            squares = None if here else values * values + 0.0
            at = slice(None)
        else:
            at = np.r_[0, np.flatnonzero(new) + 1]
            sums, counts = _summed(values, at)
            squares = None if here else _summed(values ** 2, at)[0]
        part = [model[at].astype(np.int32), task[at].astype(np.int32), item[at].astype(np.int32), sums, counts,
                squares]
        if last is not None and first[:3] == last[:3]:  # the batch goes on with the last group of the one before
            before = next(g for g in reversed(groups) if len(g[3]))
            rows = values[:int(part[4][0])]  # added one by one to the sum so far, in row order
            if before[5] is not None or not here:  # (before the sums, which a copy may start from)
                square = _squares(before)
                for x in rows:
                    square[-1] += x * x
            for x in rows:
                before[3][-1] += x
            before[4][-1] += len(rows)
            part = [a if a is None else a[1:] for a in part]
        groups.append(part)
        last = _key(model, task, item, run, -1)
    if has_metric and wanted and one_metric not in wanted:
        raise _Other  # the whole table's path says which metrics it has
    item_names = ids["item"].names()
    if merged(item_names)[0] is not None:  # ids that are one number written two ways: the whole table's path
        raise _Other
    run_names = _runs(runs_seen) if has_run else []
    names = {"model": ids["model"].names(), "task": ids["task"].names(), "item": item_names,
             **({"run": run_names} if has_run else {})}
    return _assembled(groups, names, binary, len(run_names) > 1, one_metric)


def _summed(values: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each group of rows' sum and size, the groups starting at ``starts``: each sum in row order from 0, as a
    bincount over the whole table adds them (0 + x1 + x2 ...); by strided adds where the groups between the first
    and the last all have the same size (an item's runs), else by a bincount."""
    sizes = np.diff(np.r_[starts, len(values)])
    size = int(sizes[1]) if len(sizes) > 2 else 0
    if size and sizes[0] <= size and sizes[-1] <= size and (sizes[1:-1] == size).all():
        middle = values[starts[1]:starts[-1]].reshape(-1, size)
        total = middle[:, 0] + 0.0
        for r in range(1, size):
            total += middle[:, r]
        ends = [np.bincount(np.zeros(k, dtype=np.int64), weights=values[a:a + k]) for a, k in
                ((0, int(sizes[0])), (int(starts[-1]), int(sizes[-1])))]
        return np.concatenate([ends[0], total, ends[1]]), sizes.astype(np.int32)
    label = np.repeat(np.arange(len(starts)), sizes)
    return np.bincount(label, weights=values), sizes.astype(np.int32)


def _metric(array, seen: str | None) -> str:
    """The batch's one metric, the same as the batches' before, or :class:`_Other`."""
    if array.null_count:
        raise _Other
    indices = array.indices.to_numpy()
    if len(array.dictionary) != 1 and not (indices == indices[0]).all():
        raise _Other
    value = array.dictionary[int(indices[0])].as_py()
    if seen is not None and value != seen:
        raise _Other
    return value


def _distinct(run: np.ndarray) -> list[int]:
    low, high = int(run.min()), int(run.max())
    if high - low < 1 << 16:
        return (np.flatnonzero(np.bincount(run - low)) + low).tolist()
    return np.unique(run).tolist()


def _groups(model, task, item, run) -> np.ndarray | None:
    """After the first row, whether each row starts a new (model, task, item), with :class:`_Other` where a row
    does not come after the one before in (model, task, item, run) order; None where every row does (no runs)."""
    block = (model[1:] != model[:-1]) | (task[1:] != task[:-1])
    ends = np.flatnonzero(block)
    if len(ends) and not ((model[ends + 1] > model[ends]) | (model[ends + 1] == model[ends])
                          & (task[ends + 1] > task[ends])).all():
        raise _Other
    step = np.diff(item.astype(np.int32, copy=False))
    if run is None:
        if not ((step > 0) | block).all():
            raise _Other
        return None
    same = step == 0
    if not ((step > 0) | block | same & (np.diff(run) > 0)).all():
        raise _Other
    new = ~same
    new |= block
    return new


def _key(model, task, item, run, k: int) -> tuple:
    return int(model[k]), int(task[k]), int(item[k]), int(run[k]) if run is not None else 0


def _squares(part: list) -> np.ndarray:
    """A batch's sums of squares, made where the batch had none (0 or 1: x² = x, its sums)."""
    if part[5] is None:
        part[5] = part[3].copy()
    return part[5]


def _runs(seen: set) -> list[str]:
    """The runs' names as the whole table's path gives them (:func:`sigcore.leaderboard.counting.run_codes`)."""
    values = sorted(seen)
    low, high = values[0], values[-1]
    if low >= 0 and high - low + 1 == len(values):
        return [str(low + r) for r in range(high - low + 1)]
    return [str(v) for v in values]


def _assembled(groups: list, names: dict, binary: bool, several_runs: bool, metric: str | None) -> Tallies:
    """The groups as (cells, models) arrays, a batch's groups at a time (each freed once placed)."""
    n_models, n_tasks, n_items = len(names["model"]), len(names["task"]), len(names["item"])
    present = np.zeros(n_tasks * n_items, dtype=bool)
    for part in groups:
        present[part[1].astype(np.int64) * n_items + part[2]] = True
    cells = np.flatnonzero(present)
    if not len(cells):
        raise InputError("the table has no rows", hint="Give its rows: model, task, item, run, metric, score.")
    index = np.cumsum(present) - 1
    del present
    squares_needed = several_runs and not binary
    # model-major first, as the rows come (written in order), then (cells, models) as the board takes them
    sums = np.zeros(n_models * len(cells))
    counts = np.zeros(n_models * len(cells), dtype=np.int32)
    squares = np.zeros(n_models * len(cells)) if squares_needed else None
    while groups:
        model, task, item, s, c, q = groups.pop(0)
        where = index[task.astype(np.int64) * n_items + item]
        where += model.astype(np.int64) * len(cells)
        sums[where] = s
        counts[where] = c
        if squares_needed:
            squares[where] = s if q is None else q  # 0 or 1: x² = x, exactly
    sums, counts, squares = (a if a is None else np.ascontiguousarray(a.reshape(n_models, -1).T)
                             for a in (sums, counts, squares))
    return Tallies(names, cells.astype(np.int64), sums, counts, squares, binary, metric)
