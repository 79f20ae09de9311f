"""Many models on many tasks, from the tidy long table (:mod:`sigcore.logs.tidy`): each model's score on each task
and across tasks, with intervals, differences from a baseline and ranks, all from one paired bootstrap that
resamples the items of each task apart (stratified), so that every task keeps its size and every model the same
resampled items.

A model's aggregate is the mean of its task scores (``weight="tasks"``: each task counts once, as leaderboards
average them) or the mean over all items (``weight="items"``: a task counts by its size). Runs of an item
(epochs, repeats) are averaged first.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ._threads import WORKERS, one_blas_thread, pool
from .contract import (
    DEFAULT_ALPHA,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    check_alpha,
    check_level,
    check_resamples,
    check_seed,
    extreme,
    tie,
)
from .errors import ClusterError, InputError, SettingsError
from .io.ids import RULE, merged
from .result import finite_delta
from .signature import Signature, tool_versions
from .statistics import intervals, maxstat, resampling
from .statistics.multiple import CORRECTIONS as ADJUSTED
from .statistics.multiple import adjust
from .words import counted, listed, named, shown

__all__ = ["WEIGHTS", "CONNECT_TIMEOUT", "WORKERLESS", "MAXT", "CORRECTIONS", "Board", "from_table", "from_parquet",
           "Leaderboard", "bootstrap", "task_resamples", "standard_error"]

WEIGHTS = ("tasks", "items")
CONNECT_TIMEOUT = "20s"  # how long to try a Dask scheduler's address before telling the user
WORKERLESS = 30.0  # seconds a Dask scheduler may have no worker (all died) before the run stops and says so
_BLOCK = 1 << 20  # rows a block, where the rows are counted a block at a time: 8 MiB of int64
_BLOCK_CELLS = 1 << 18  # draws per block: 2 MiB of them and of their counts stay in cache (twice 32 MiB's speed)
MAXT = "maxt"  # the max-statistic correction from the board's own resamples (sigcore.statistics.maxstat)
CORRECTIONS = (*ADJUSTED, MAXT)  # what a board's families can be corrected by
_PAIRS = 1 << 10  # pairs of models whose b resampled δ are looked at together: 80 MiB at b = 10,000
_EXACT = 1 << 24  # whole numbers below it are exact in float32, and so are sums of them below it
_HUGE = 2.0 ** 400  # scores beyond it are summed a power of two down (intervals.power_scale): their squares overflow


@dataclass(frozen=True)
class Board:
    """Each task's items × models matrix of scores (runs averaged), the items paired across models by id."""

    models: tuple[str, ...]
    tasks: tuple[str, ...]
    metric: str
    scores: dict[str, np.ndarray]  # task -> (items, models)
    items: dict[str, tuple[str, ...]]
    notes: tuple[str, ...] = ()
    groups: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)  # group -> (its tasks, weight)
    # where items have several runs (epochs): task -> each model's pooled within-item variance and runs per item
    # (their harmonic mean), for :meth:`Leaderboard.variance`
    epochs: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    cluster: str | None = None  # the column whose values are resampled whole (a passage), or None: items
    clusters: dict[str, np.ndarray] = field(default_factory=dict)  # task -> each item's cluster, 0..k-1


def from_table(frame: pd.DataFrame, *, metric: str | list[str] | None = None, on_missing: str = "stop",
               cluster: str | None = None) -> Board:
    """The board of a tidy table (model, task, item, [run], [metric], score, [group, group_weight]). ``metric``:
    which one, when the table holds several; a list: on each task the first of them it has (lm-eval's tasks each
    have their own, acc here, exact_match there), and a task that has none of them is left out, said in the notes.
    A model that lacks some of a task's items stops with what is missing (``on_missing="drop"``: only the items
    every model has are compared, said in the notes); a model that lacks a whole task stops (``on_missing="drop"``:
    the task is left out, said in the notes). ``cluster``: a column
    (an Inspect sample's ``metadata.passage``) whose values group the items of a task, resampled whole; an item in
    two clusters stops."""
    missing = [c for c in ("model", "task", "item", "score") if c not in frame.columns]
    if missing:
        raise InputError(f"the table has no {listed(missing)} column", hint="Give the tidy table: model, task, "
                         "item, run, metric, score (sigcore convert writes it from logs).")
    notes = []
    if "metric" in frame.columns:
        frame, metric, notes = _one_metric(frame, metric)
    elif isinstance(metric, (list, tuple)):  # no metric column: the one name of its scores (many --metric NAME)
        if len(metric) > 1:
            raise SettingsError(f"the table has no metric column, so its scores are of one metric, not of "
                                f"{listed(metric)}", hint="Give one name with --metric, or none.")
        metric = metric[0] if metric else None
    metric = metric or "score"
    values, binary, scale = _scores(frame)
    # small integer codes, not strings and groupby, each row touched a few times and few arrays its length (each
    # new page costs): 18 million rows in half a second
    codes, names, low = {}, {}, 0
    for key in ("model", "task", "item", "run"):
        if key in frame.columns:
            if key == "run":  # codes less low
                codes[key], names[key], low = _run_codes(frame[key])
            else:
                codes[key], names[key] = _codes(frame[key])
            # a missing value's -1: a categorical id's codes were looked at (no names then), runs from low up have none
            checked = bool(names[key]) and (low > 0 if key == "run" else
                                            isinstance(frame[key].dtype, pd.CategoricalDtype))
            if len(codes[key]) and not checked and codes[key].min() - (low if key == "run" else 0) < 0:
                raise InputError(f"row {int(np.argmax(codes[key] < 0)) + 1} of the table has no {key}",
                                 hint=f"Give every row its {key}.")
    if not len(frame):  # (a damaged Parquet file can read as one with no rows)
        raise InputError("the table has no rows", hint="Give its rows: model, task, item, run, metric, score.")
    # ids pair by one rule, compare's too (sigcore.io.ids): 1.0 from one log is the 1 of another
    groups, names["item"], joined = merged(names["item"])
    if groups is not None:
        codes["item"] = groups[codes["item"]]
        notes.append(f"ids that are the same number written two ways are one item: {shown(str(joined[0][1]))} is "
                     f"{shown(str(joined[0][0]))}" + (f", and {len(joined) - 1:,} more" if len(joined) > 1 else ""))
    n_models, n_items = len(names["model"]), len(names["item"])
    runs = len(names["run"]) if "run" in codes else 1
    binary = runs > 1 and binary  # right/wrong: x² = x, one sum fewer
    tallies = None if cluster else _counted_grid(codes, values, len(names["task"]), n_items, n_models, runs, low,
                                                 runs > 1 and not binary)
    if tallies is None and not cluster:
        tallies = _counted_in_order(codes, values, len(names["task"]), n_items, n_models, runs > 1 and not binary)
    if tallies is None:
        tallies = _counted(codes, values, names, low, n_items, runs, runs > 1 and not binary, bool(cluster))
    cells, sums, counts, squares, cell = tallies
    cell_cluster = _cell_clusters(frame, cluster, cell, len(cells)) if cluster else None
    # (cells, models), C-ordered: each task's items x models matrix is then a slice of them, not a copy
    sums, counts, squares = (a if a is None or a.ndim == 2 else np.ascontiguousarray(a.reshape(n_models, -1).T)
                             for a in (sums, counts, squares))
    return _board(names, cells, sums, counts, sums if binary else squares, scale, metric, notes, on_missing,
                  lambda tasks: _groups(frame, tasks), cluster, cell_cluster)


def from_parquet(path, *, metric: str | list[str] | None = None, on_missing: str = "stop",
                 cluster: str | None = None) -> Board:
    """:func:`from_table` of a Parquet file's tidy table, the same board, read a batch of rows at a time where the
    table is as logs give it (:mod:`sigcore.logs.tallies`: memory the board's, not the table's rows), else read
    whole (:func:`sigcore.logs.tidy.read_table`)."""
    from .logs import tallies, tidy

    found = None if cluster else tallies.read(path, metric)
    if found is None:
        return from_table(tidy.read_table(path), metric=metric, on_missing=on_missing, cluster=cluster)
    names = found.names
    metric = found.metric or (metric[0] if isinstance(metric, (list, tuple)) and metric else metric) or "score"
    binary = len(names.get("run", ())) > 1 and found.binary
    return _board(names, found.cells, found.sums, found.counts, found.sums if binary else found.squares, 1.0,
                  metric, [], on_missing, lambda tasks: {}, None, None)


def _board(names: dict, cells: np.ndarray, sums: np.ndarray, counts: np.ndarray, squares: np.ndarray | None,
           scale: float, metric: str, notes: list[str], on_missing: str, groups_of, cluster: str | None,
           cell_cluster: np.ndarray | None) -> Board:
    """The board of the (cells, models) sums, counts and sums of squares of each (task, item) pair's scores."""
    n_models, n_items = len(names["model"]), len(names["item"])
    runs = len(names["run"]) if "run" in names else 1
    several = runs > 1 and counts.max(initial=0) > 1
    some_holes = bool((counts == 0).any())  # a model without a score on an item: its mean is nan
    models, tasks = tuple(names["model"]), tuple(names["task"])
    cell_task, cell_item = np.divmod(cells.astype(np.int64), n_items)
    # cells ascend by (task, item): a task's cells are a run of them, a slice (no search, no gather)
    bounds = np.searchsorted(cell_task, np.arange(len(tasks) + 1))
    item_names = np.array(names["item"], dtype=object)
    every_item = tuple(names["item"])
    matrices, items, epochs, clusters, dropped = {}, {}, {}, {}, []
    for t, task in enumerate(tasks):
        rows = slice(bounds[t], bounds[t + 1])
        with np.errstate(invalid="ignore", divide="ignore"):
            # with runs, each item's sum of squares about its mean, for the split, before the sums become means
            # (in place: a task's at a time, no second array of them all)
            spread = _within(sums[rows], squares[rows], counts[rows]) if several else None
            block = np.divide(sums[rows], counts[rows], out=sums[rows])  # (items, models); nan: no score
            if scale != 1:  # huge scores were summed a power of two down: exactly back
                block *= scale
        holes = np.isnan(block) if some_holes else None
        lacking = [models[m] for m in range(n_models) if holes[:, m].all()] if some_holes else \
            list(models) if not len(block) else []
        if lacking and on_missing == "drop":  # the aggregate needs every model on every task: the task goes
            notes.append(f"task {task}: left out, since {listed(lacking)} {'has' if len(lacking) == 1 else 'have'} "
                         "no scores on it")
            dropped.append(task)
            continue
        if lacking:
            raise InputError(f"model {named(lacking[0])} has no scores on task {named(task)}",
                             hint="Give every model's log of every task, or leave the task out (--drop-unmatched: "
                                  "every task some model lacks).")
        ids = every_item if len(block) == n_items else tuple(item_names[cell_item[rows]].tolist())
        if some_holes and holes.any():
            rows = np.arange(bounds[t], bounds[t + 1])
            m = int(np.flatnonzero(holes.any(axis=0))[0])
            if on_missing != "drop":
                first = ids[int(np.flatnonzero(holes[:, m])[0])]
                raise InputError(f"model {named(models[m])} lacks {counted(int(holes[:, m].sum()), 'item')} of "
                                 f"task {named(task)} that other models have (the first is {shown(first)})",
                                 hint=f"{RULE} Check that the logs come from the same test set, or compare the items "
                                      "every model has: --drop-unmatched (in the app, Drop unmatched items; in "
                                      "Python, on_missing='drop').")
            keep = ~holes.any(axis=1)
            notes.append(f"task {task}: dropped {counted(int((~keep).sum()), 'item')} not every model has")
            block, ids, rows = block[keep], tuple(i for i, k in zip(ids, keep) if k), rows[keep]
            spread = None if spread is None else spread[keep]
        matrices[task] = np.ascontiguousarray(block)
        items[task] = ids
        if several:  # the rows as a C-ordered copy, as a gather gives them: the sums add in the same order
            r = np.ascontiguousarray(counts[rows], dtype=np.float64)
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):  # over: past float range, inf
                error = np.ldexp(np.nan_to_num(spread.sum(axis=0) / (r - 1).sum(axis=0)), 2 * _exponent(scale))
            epochs[task] = (error, len(r) / (1 / r).sum(axis=0))  # one run each: error 0
        if cell_cluster is not None:
            clusters[task] = _dense(cell_cluster[rows])[0]
    if dropped:
        tasks = tuple(t for t in tasks if t not in dropped)
        if not tasks:
            raise InputError("no task has scores of every model", hint="Give every model's log of some task.")
    for task, codes in clusters.items():
        few = resampling.few_clusters(len(np.unique(codes)), f"clusters ({cluster})")
        if few:
            notes.append(f"task {task}: {few}")
    if cluster and any(len(np.unique(c)) < 2 for c in clusters.values()):
        few = next(t for t, c in clusters.items() if len(np.unique(c)) < 2)
        raise InputError(f"task {named(few)} has its items in one {cluster} only: nothing to resample",
                         hint="Give a cluster column with several values per task, or leave the clusters out.")
    return Board(models, tasks, metric, matrices, items, tuple(notes), groups_of(tasks), epochs, cluster, clusters)


def _within(sums: np.ndarray, squares: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each item's sum of squares about its mean, Σx² − (Σx)²/n, never below 0 (rounding), in one new array."""
    within = sums * sums
    within /= counts
    np.subtract(squares, within, out=within)
    return np.maximum(within, 0, out=within)


def _counted_grid(codes: dict, values: np.ndarray, n_tasks: int, n_items: int, n_models: int, runs: int,
                  low: int, squares: bool) -> tuple | None:
    """:func:`_counted_in_order` where the table is the whole grid in (model, task, item, run) order, every model
    with every task's every item in every run (as a converted set of logs comes): row r is then (model, task, item)
    r // runs, found by comparing the codes with that order (no keys, no bincount), and the sums are strided adds
    of the runs, in row order as a bincount adds them, in (cells, models) order. None where the table is anything
    else."""
    model, task, item, run = codes["model"], codes["task"], codes["item"], codes.get("run")
    n = len(values)
    if not n or n != n_models * n_tasks * n_items * runs or (run is None) != (runs == 1):
        return None
    cell = n_items * runs  # rows of one (model, task)
    step = max(1, _BLOCK // cell)  # (model, task) pairs a block
    # a block's items and runs as the grid has them, the same in every block: compared whole, not broadcast
    items = np.tile(np.repeat(np.arange(n_items, dtype=item.dtype), runs), step)
    laps = None if run is None else np.tile(np.arange(low, low + runs, dtype=run.dtype), n_items * step)
    for start in range(0, n_models * n_tasks, step):
        end = min(n_models * n_tasks, start + step)
        rows = slice(start * cell, end * cell)
        pair = np.arange(start, end)[:, None]
        if not (np.array_equal(item[rows], items[:(end - start) * cell])
                and (run is None or np.array_equal(run[rows], laps[:(end - start) * cell]))
                and (model[rows].reshape(end - start, cell) == pair // n_tasks).all()
                and (task[rows].reshape(end - start, cell) == pair % n_tasks).all()):
            return None
    cells = n_tasks * n_items
    sums, total = np.zeros((cells, n_models)), np.zeros((cells, n_models)) if squares else None
    laps = [values[r::runs].reshape(n_models, cells) for r in range(runs)]  # each run's (model, cell) scores
    part = max(1, (1 << 17) // n_models)  # cells a block: their (cells, models) sums stay in cache while added
    for start in range(0, cells, part):  # into (cells, models) order, as from_table takes them: no transposed copy
        block = slice(start, start + part)
        for lap in laps:
            np.add(sums[block].T, lap[:, block], out=sums[block].T)
            if squares:
                np.add(total[block].T, lap[:, block] ** 2, out=total[block].T)
    return np.arange(cells), sums, np.broadcast_to(np.int64(runs), (cells, n_models)), total, None


def _counted_in_order(codes: dict, values: np.ndarray, n_tasks: int, n_items: int, n_models: int,
                      squares: bool) -> tuple | None:
    """Each (model, task, item)'s number of rows, sum and (with ``squares``) sum of squares, counted a block of rows
    at a time where the rows come in (model, task, item, run) order, as tables come (a log per model, an item's runs
    together): then no (model, task, item, run) is there twice, and no array the table's length is made (new memory
    is what costs most on 18 million rows). None where the rows are in another order (:func:`_counted` counts them).
    Also the (task, item) pairs there are, task × items + item, ascending."""
    task, item, model, run = codes["task"], codes["item"], codes["model"], codes.get("run")
    n, step = len(values), _BLOCK
    present = np.zeros(n_tasks * n_items, dtype=bool)
    for start in range(0, n, step):
        pair = np.multiply(task[start:start + step], n_items, dtype=np.int64)
        pair += item[start:start + step]
        present[pair] = True
    cells = np.flatnonzero(present)
    index = None if len(cells) == len(present) else np.cumsum(present) - 1
    size = len(cells) * n_models
    sums, counts, total = np.zeros(size), np.zeros(size, dtype=np.int64), np.zeros(size) if squares else None
    last, start = None, 0  # the last row's (key, run) of the block before; the block's first row
    while start < n:
        end = min(n, start + step)
        key = np.multiply(task[start:end], n_items, dtype=np.int64)
        key += item[start:end]
        key = key if index is None else index[key]
        key += np.multiply(model[start:end], len(cells), dtype=np.int64)
        r = run[start:end] if run is not None else np.zeros(end - start, dtype=np.int8)
        ahead = key[1:] - key[:-1]
        if not ((ahead > 0) | ((ahead == 0) & (r[1:] > r[:-1]))).all() or last is not None and (
                key[0] < last[0] or key[0] == last[0] and r[0] <= last[1]):
            return None
        tail = int(np.searchsorted(key, key[-1])) if end < n else 0  # the last item's rows, which may go on
        if tail:  # left to the next block: an item's runs are summed in one block, in row order, whatever the block
            end, key, r = start + tail, key[:tail], r[:tail]
        last = (key[-1], r[-1])
        low, high = int(key[0]), int(key[-1]) + 1
        key -= low
        sums[low:high] += np.bincount(key, weights=values[start:end], minlength=high - low)
        counts[low:high] += np.bincount(key, minlength=high - low)
        if squares:
            total[low:high] += np.bincount(key, weights=values[start:end] ** 2, minlength=high - low)
        start = end
    return cells, sums, counts, total, None


def _counted(codes: dict, values: np.ndarray, names: dict, low: int, n_items: int, runs: int, squares: bool,
             rows_too: bool = False) -> tuple:
    """:func:`_counted_in_order` for rows in any order, by each row's (model, task, item, run) key (an array the
    table's length), with the error for one there twice; with ``rows_too``, each row's (task, item), for clusters."""
    n_models = len(names["model"])
    pair = np.multiply(codes["task"], n_items, dtype=np.int64)
    pair += codes["item"]
    key, cells = _dense(pair)  # each row's (task, item) pair's code (``pair`` itself where all are there)
    rows = key.copy() if rows_too else None
    # from here each row's (model, task, item), in place: model-major, as tables come (a log per model), so that
    # counting it walks memory in order
    _add_scaled(key, codes["model"], len(cells))
    size = len(cells) * n_models
    sums = np.bincount(key, weights=values, minlength=size)
    total = np.bincount(key, weights=values ** 2, minlength=size) if squares else None
    if runs > 1:  # (model, task, item, run): each once
        key *= runs
        key += codes["run"]
        key -= low
    seen = np.bincount(key, minlength=size * runs)
    twice = np.flatnonzero(seen > 1)
    if len(twice):
        m, c = divmod(int(twice[0] // runs), len(cells))
        task, item = divmod(int(cells[c]), n_items)
        raise InputError(f"model {named(names['model'][m])} has item {shown(names['item'][item])} of task "
                         f"{named(names['task'][task])} twice" + (" in one run" if "run" in codes else ""),
                         hint="Give each model's score of an item once per run.")
    counts = seen  # the rows per model and item
    if runs > 1:  # summed over the runs by strided adds: 5x a reduction along an axis of a few runs
        counts = seen[0::runs].copy()
        for r in range(1, runs):
            counts += seen[r::runs]
    return cells, sums, counts, total, rows


def _cell_clusters(frame: pd.DataFrame, column: str, cell: np.ndarray, n_cells: int) -> np.ndarray:
    """Each (task, item)'s cluster code, the same on every row of it (every model and run), or an error."""
    if column not in frame.columns:
        raise SettingsError(f"the table has no column {shown(column)} to cluster by",
                            hint=f"Its columns: {listed([str(c) for c in frame.columns])}.")
    missing = frame[column].isna().to_numpy()
    if missing.any():
        row = frame.iloc[int(np.argmax(missing))]
        raise InputError(f"item {shown(str(row['item']))} of task {named(str(row['task']))} has no {column}",
                         hint=f"Give every item its {column}, or cluster by another column.")
    codes, uniques = pd.factorize(_text(frame[column]))
    low, high = np.full(n_cells, len(uniques)), np.full(n_cells, -1)
    np.minimum.at(low, cell, codes)
    np.maximum.at(high, cell, codes)
    split = np.flatnonzero(low != high)
    if len(split):
        row = frame.iloc[int(np.flatnonzero(cell == split[0])[0])]
        raise InputError(f"item {shown(str(row['item']))} of task {named(str(row['task']))} is in two {column}s, "
                         f"{shown(str(uniques[low[split[0]]]))} and {shown(str(uniques[high[split[0]]]))}",
                         hint="Give each item one cluster, the same in every model's log.")
    return low


def _one_metric(frame: pd.DataFrame, wanted: str | list[str] | None) -> tuple[pd.DataFrame, str, list[str]]:
    """The rows of one metric per task, its name, and the notes of what was chosen or left out."""
    metrics = _codes(frame["metric"])[1] if isinstance(frame["metric"].dtype, pd.CategoricalDtype) else []
    metrics = metrics or [str(m) for m in pd.unique(frame["metric"])]  # in order, at C speed (a missing one too)
    wanted = [wanted] if isinstance(wanted, str) else list(wanted or [])
    if not wanted:
        if len(metrics) > 1:
            raise SettingsError(f"the table holds {len(metrics)} metrics: say which one",
                                hint=f"Its metrics: {listed(metrics)}.")
        return frame, metrics[0], []
    unknown = [m for m in wanted if m not in metrics]
    if len(unknown) == len(wanted):
        raise SettingsError(f"the table has no metric {shown(unknown[0])}", hint=f"Its metrics: {listed(metrics)}.")
    if len(metrics) == 1:
        return frame, metrics[0], []
    text = _text(frame["metric"])
    pairs = frame.assign(metric=text)[["task", "metric"]].drop_duplicates()
    has = pairs.groupby(_text(pairs["task"]), sort=False).metric.agg(set)
    chosen = {task: next((m for m in wanted if m in found), None) for task, found in has.items()}
    notes = [f"task {t}: none of the metric{'s' if len(wanted) > 1 else ''} {listed(wanted)}: left out"
             for t, m in chosen.items() if m is None]
    used = list(dict.fromkeys(m for m in chosen.values() if m))
    if len(used) > 1:
        notes.append("each task's metric: " + ", ".join(f"{t} {m}" for t, m in chosen.items() if m))
    # as objects: two categoricals (a Parquet table's metric and task) compare only with the same categories
    keep = np.asarray(text, dtype=object) == np.asarray(_text(frame["task"]).map(chosen), dtype=object)
    return frame[keep], " / ".join(used), notes


def _groups(frame: pd.DataFrame, tasks: tuple[str, ...]) -> dict[str, tuple[tuple[str, ...], str]]:
    """The table's groups of tasks (its ``group`` column) with how each averages its tasks (``group_weight``:
    "items", by size as MMLU, or "tasks"), which the table must say: it is not guessed."""
    if "group" not in frame.columns:
        return {}
    pairs = frame[["task", "group", *(["group_weight"] if "group_weight" in frame.columns else [])]]
    pairs = pairs.astype(str).drop_duplicates().replace({"nan": "", "None": ""})
    pairs = pairs[pairs.group != ""]
    out = {}
    for group, rows in pairs.groupby("group", sort=False):
        weights = set(rows.get("group_weight", pd.Series([""])))
        if len(weights) != 1 or weights.pop() not in ("items", "tasks"):
            raise InputError(f"group {named(group)} does not say how it averages its tasks",
                             hint="Give its rows a group_weight of items (by size, as MMLU) or tasks, one value.")
        members = tuple(t for t in tasks if t in set(rows.task))
        if rows.task.duplicated().any() or len(set(rows.task) & set(pairs[pairs.group != group].task)):
            raise InputError(f"a task of group {named(group)} belongs to two groups", hint="Give a task one group.")
        out[str(group)] = (members, str(rows["group_weight"].iloc[0]))
    return {g: v for g, v in out.items() if v[0]}


def _scores(frame: pd.DataFrame) -> tuple[np.ndarray, bool, float]:
    """The scores as float64 (the column itself where it is float64 already), each a finite number, or an error
    that names the first row that is not (text, an empty cell, nan or inf); whether every score is 0 or 1; and the
    power of two they were divided by where they are so large (1e308) that sums of them would overflow (1 if not),
    which the item means are multiplied back by."""
    column = frame["score"]
    if not pd.api.types.is_numeric_dtype(column.dtype):
        column = pd.to_numeric(column, errors="coerce")
    values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    if _binary(values):  # right/wrong: finite
        return values, True, 1.0
    # nan (or inf) in either, if any; no array the table's length (new memory is what costs most on 18 million rows)
    low, high = (float(values.min()), float(values.max())) if len(values) else (0.0, 0.0)
    if math.isfinite(low) and math.isfinite(high):
        if max(-low, high) < _HUGE:
            return values, False, 1.0
        scaled, scale = intervals.power_scale(values)  # sums and squares of a power of two less cannot overflow
        return scaled, False, scale
    finite = np.isfinite(values)
    row = frame.iloc[int(np.argmin(finite))]
    raise InputError(f"model {named(str(row['model']))}, task {named(str(row['task']))}, item "
                     f"{shown(str(row['item']))} has the score {shown(str(row['score']))}, not a finite number",
                     hint="Give every score as a number.")


def _exponent(scale: float) -> int:
    """k of a scale 2^k (:func:`intervals.power_scale`'s)."""
    return math.frexp(scale)[1] - 1


def _binary(values: np.ndarray) -> bool:
    """Whether every score is 0 or 1, a block at a time (no arrays the table's length)."""
    step = 1 << 20
    return all(bool(((part == 0) | (part == 1)).all()) for part in (values[i:i + step]
                                                                      for i in range(0, len(values), step)))


def _add_scaled(key: np.ndarray, codes: np.ndarray, factor: int) -> None:
    """key += codes * factor, in place, a block of rows at a time: no temporary array of the table's length."""
    step = 1 << 20
    scaled = np.empty(min(step, len(key)), dtype=np.int64)
    for start in range(0, len(key), step):
        part = codes[start:start + step]
        np.multiply(part, factor, out=scaled[:len(part)], dtype=np.int64)
        key[start:start + len(part)] += scaled[:len(part)]


def _dense(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 of non-negative integers and the k distinct values, ascending: by counting where the values are
    few beside the rows (a bincount, not a hash or a sort of 18 million keys), else by np.unique. Where every value
    below the largest is present, the codes are the values themselves (not a copy)."""
    top = int(values.max()) + 1 if len(values) else 0
    if top > 4 * len(values) + 1024:
        distinct, codes = np.unique(values, return_inverse=True)
        return codes.astype(np.int64), distinct
    present = np.bincount(values, minlength=top) > 0
    if present.all():
        return values, np.arange(top)
    index = np.cumsum(present) - 1
    return index[values], np.flatnonzero(present)


def _factorized(column: pd.Series) -> tuple[np.ndarray, list[str]]:
    codes, uniques = pd.factorize(column)
    return codes, [str(u) for u in uniques]


def _run_codes(column: pd.Series) -> tuple[np.ndarray, list[str], int]:
    """Codes of the runs (only their number and equality matter), less an offset: whole numbers from low to high
    as they are (codes = values − low, not copied), other whole numbers by counting; other values (an empty cell
    of a CSV) by pd.factorize, a missing one -1 (offset 0)."""
    if not isinstance(column.dtype, np.dtype) or column.dtype.kind != "i" or not len(column):
        return (*_factorized(column), 0)
    values = column.to_numpy()
    low, high = int(values.min()), int(values.max())
    if low >= 0 and high < 4 * len(values) + 1024:
        # every run from low to high there: seen in the first rows (as a long table shows them), or counted
        if len(np.unique(values[:_PREFIX])) == high - low + 1 or (np.bincount(values)[low:] > 0).all():
            return values, [str(low + r) for r in range(high - low + 1)], low
    codes, distinct = _dense(np.subtract(values, low, dtype=np.int64))
    return codes, [str(v + low) for v in distinct], 0


_PREFIX = 1 << 16  # rows in which a categorical's categories are first looked for


def _codes(column: pd.Series) -> tuple[np.ndarray, list[str]]:
    """Integer codes of ids and their names as text, in order of first appearance (as pd.factorize gives them); a
    categorical's from its codes, without hashing its values again, in its codes' own small dtype (not a copy where
    the categories come in their order of first appearance)."""
    if not isinstance(column.dtype, pd.CategoricalDtype):
        return _factorized(_text(column))
    raw = column.array.codes  # the categorical's own codes (cat.codes builds a Series: a copy)
    if len(raw) and raw.min() < 0:
        return raw, []  # a missing id: the caller says which row
    used = pd.unique(raw[:_PREFIX])  # the categories present, by first row: a long table shows them all early
    if len(used) < len(column.cat.categories):  # some come later, or never
        starts = np.flatnonzero(raw[1:] != raw[:-1]) + 1  # a value first seen is the first row or a change
        used = pd.unique(raw[np.r_[0, starts]] if len(starts) < len(raw) // 4 else raw)
    names = [str(c) for c in column.cat.categories[used]]
    if np.array_equal(used, np.arange(len(used))):
        return raw, names
    remap = np.zeros(len(column.cat.categories), dtype=raw.dtype)
    remap[used] = np.arange(len(used))
    return remap[raw], names


def _text(column: pd.Series) -> pd.Series:
    """Ids as text ("3" from a CSV and 3 from a log are one item); a categorical's categories only."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.rename_categories([str(c) for c in column.cat.categories])
    return column if pd.api.types.is_string_dtype(column) else column.astype(str)


@dataclass(frozen=True)
class Leaderboard:
    """What :func:`bootstrap` computed: the point values, the resampled ones, and what they give."""

    board: Board
    weight: str
    n_resamples: int
    seed: int
    task_scores: np.ndarray  # (tasks, models)
    aggregate: np.ndarray  # (models,)
    resampled: np.ndarray = field(repr=False)  # (b, models): the aggregate on each resample
    resampled_tasks: np.ndarray | None = field(default=None, repr=False)  # (b, tasks, models), with per_task
    # each task's percentile interval of every model's score at task_level: (2, tasks, models), with confidence_level
    task_bounds: np.ndarray | None = field(default=None, repr=False)
    task_level: float | None = None

    def interval(self, model: str, confidence_level: float = 0.95) -> tuple[float, float]:
        """The percentile interval of ``model``'s aggregate."""
        return intervals.percentile(self.resampled[:, self._index(model)], confidence_level)

    def delta(self, model: str, baseline: str, alpha: float = DEFAULT_ALPHA, *, task: str | None = None
              ) -> tuple[float, float, float, float]:
        """δ = aggregate(model) − aggregate(baseline) (or their scores on ``task``, from a ``per_task`` run), its
        basic-bootstrap interval (the test's dual) and the two-sided paired bootstrap p (#{|δ_i − δ| ≥ |δ|} / b;
        0 means p < 1 / b, and is shown so)."""
        i, j = self._index(model), self._index(baseline)
        point, resampled = (self.aggregate, self.resampled) if task is None else self._task_values(task)
        return tuple(float(x[0]) for x in self._deltas(point, resampled, [i], [j], alpha))

    def task_intervals(self, confidence_level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Every model's percentile interval on each task (two (tasks, models) arrays), from the tasks' resamples (a
        ``per_task`` run) or from the bounds kept at ``bootstrap(..., confidence_level=...)``."""
        check_level(confidence_level)
        if self.resampled_tasks is not None:
            low, high = zip(*(intervals.percentile(self.resampled_tasks[:, k], confidence_level, axis=0)
                              for k in range(len(self.board.tasks))))
            return np.array(low).reshape(self.task_scores.shape), np.array(high).reshape(self.task_scores.shape)
        if self.task_bounds is None or self.task_level != confidence_level:
            raise SettingsError(f"each task's {confidence_level:.0%} interval needs the tasks' resamples",
                                hint="Run bootstrap(..., per_task=True), or with confidence_level="
                                     f"{confidence_level:g}.")
        return self.task_bounds[0], self.task_bounds[1]

    def _deltas(self, point: np.ndarray, resampled: np.ndarray, i, j, alpha: float) -> tuple[np.ndarray, ...]:
        """:meth:`delta` of models ``i`` against models ``j`` (index arrays), as arrays: δ, its interval, p; the
        same numbers as one pair at a time (intervals.basic's, two-sided), a block of pairs at a time."""
        i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
        scale = 1.0
        if max(-float(resampled.min(initial=0)), float(resampled.max(initial=0))) >= _HUGE:
            # δ_i − δ of ±1e308 would overflow: all of it a power of two down, exactly, and δ, its interval back
            resampled, scale = intervals.power_scale(resampled)
            point = point / scale
        check_alpha(alpha)
        d = point[i] - point[j]
        tol = tie(point[i], point[j])  # the one tie rule, in the board's (scaled) units
        b = len(resampled)
        k = intervals.largest_count(alpha, b)
        low, high, p = np.full(len(d), np.nan), np.full(len(d), np.nan), np.empty(len(d))
        for start in range(0, len(d), _PAIRS):
            cols = slice(start, start + _PAIRS)
            resampled_d = resampled[:, i[cols]] - resampled[:, j[cols]]  # δ_i
            p[cols] = np.count_nonzero(extreme(resampled_d, "two-sided", d[cols], tol[cols], centre=d[cols]),
                                       axis=0) / self.n_resamples
            if k:  # the (b − k)-th smallest deviation c: δ ∓ c, within tol of 0 as 0 (intervals.basic)
                deviations = np.abs(np.subtract(resampled_d, d[cols], out=resampled_d), out=resampled_d)  # |δ_i − δ|
                c = np.partition(deviations, b - k - 1, axis=0)[b - k - 1]
                low[cols], high[cols] = np.minimum(d[cols] - c, d[cols]), np.maximum(d[cols] + c, d[cols])
        low[np.abs(low) <= tol], high[np.abs(high) <= tol] = 0.0, 0.0
        if scale != 1:
            d, low, high = d * scale, low * scale, high * scale
        return d, low, high, p

    def _corrected(self, p: np.ndarray, correction: str, parts: list[tuple]) -> np.ndarray:
        """``p`` of a family of comparisons corrected as one: by ``correction`` over the p (each at least 1/b), or
        with "maxt" by the largest standardised deviation over the family's own resamples
        (:mod:`sigcore.statistics.maxstat`), which separates pairs at a b where Holm over many pairs cannot.
        ``parts``: (point, resampled, i, j) of models ``i`` against ``j``, one per task the family spans, in the
        order of ``p``."""
        if correction not in CORRECTIONS:
            raise SettingsError(f"unknown correction {correction!r}", hint=f"Choose one of: {', '.join(CORRECTIONS)}.")
        if correction != MAXT:
            return adjust(p, correction, floors=1 / self.n_resamples) if len(p) else np.array([])
        scaled = []
        for point, resampled, i, j in parts:
            if max(-float(resampled.min(initial=0)), float(resampled.max(initial=0))) >= _HUGE:
                resampled, scale = intervals.power_scale(resampled)  # standardised: the scale drops out
                point = point / scale
            i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
            scaled.append((resampled, i, j, point[i] - point[j], tie(point[i], point[j])))
        offsets = np.cumsum([0] + [len(part[1]) for part in scaled])

        def centred(h: np.ndarray) -> np.ndarray:  # δ⁽ⁱ⁾ − δ of the comparisons h, from their tasks' resamples
            out = np.empty((self.n_resamples, len(h)))
            part = np.searchsorted(offsets, h, side="right") - 1
            for k in np.unique(part):
                resampled, i, j, d, _ = scaled[k]
                local = h[part == k] - offsets[k]
                out[:, part == k] = resampled[:, i[local]] - resampled[:, j[local]] - d[local]
            return out

        d, tol = (np.concatenate([part[n] for part in scaled]) for n in (3, 4))
        return maxstat.adjusted(d, centred, self.n_resamples, tol=tol)

    def variance(self, model: str, baseline: str, task: str | None = None):
        """Where the variance of δ = ``model`` − ``baseline`` comes from, the items or the runs (epochs: each run a
        fresh draw of the items' answers), and with clusters the clusters, the items within them or the runs, on the
        aggregate (each task's split weighted by its share squared) or on ``task``:
        :class:`sigcore.statistics.variance.Split`. Without runs, all of it is the items' (and clusters')."""
        from .statistics.variance import Runs, combine, from_item_means

        i, j = self._index(model), self._index(baseline)
        board = self.board
        if not board.scores:
            raise SettingsError("the split of δ's variance needs the per-item scores, which a saved board leaves out",
                                hint="Run the board from its logs or table.")

        def one(t: str):
            n = len(board.items[t])
            error, runs = board.epochs.get(t, (np.zeros(len(board.models)), np.ones(len(board.models))))
            # scores of 1e308 a power of two down (exactly), so that their differences and squares cannot overflow
            scores, scale = intervals.power_scale(board.scores[t][:, [i, j]])
            k = _exponent(scale)
            error = np.ldexp(error[[i, j]], -2 * k)
            split = from_item_means(scores[:, 0] - scores[:, 1], Runs(n, runs[i], 0.0, error[0]),
                                    Runs(n, runs[j], 0.0, error[1]), "epochs", board.clusters.get(t))
            if not k:
                return split
            terms = {term: float(np.ldexp(getattr(split, term), 2 * k)) for term in ("items", "runs", "error",
                                                                                   "clusters")}
            if not all(map(math.isfinite, terms.values())):
                raise InputError(f"the variance of δ of model {named(model)} − model {named(baseline)} on task "
                                 f"{named(t)} is past the largest number a float holds (its scores reach "
                                 f"{float(np.abs(board.scores[t]).max()):g})",
                                 hint="Rescale every model's scores alike (e.g. divide them by 1e300).")
            return replace(split, **terms)

        if task is not None:
            if task not in board.tasks:
                raise SettingsError(f"no task {named(task)}", hint=f"The tasks: {listed(list(board.tasks))}.")
            return one(task)
        return combine([one(t) for t in board.tasks], _weights(board, self.weight))

    def _task_values(self, task: str) -> tuple[np.ndarray, np.ndarray]:
        """A task's (or a group's, averaged as the group says) scores and resampled scores, from a per_task run."""
        if self.resampled_tasks is None:
            raise SettingsError("a task's δ needs the tasks' resamples", hint="Run bootstrap(..., per_task=True).")
        board = self.board
        if task in board.groups:
            k, share = _members(board, task)
            return share @ self.task_scores[k], np.einsum("t,btm->bm", share, self.resampled_tasks[:, k])
        if task not in board.tasks:
            raise SettingsError(f"no task {named(task)}", hint=f"The tasks: {listed(list(board.tasks))}.")
        k = board.tasks.index(task)
        return self.task_scores[k], self.resampled_tasks[:, k]

    def pairs(self, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> pd.DataFrame:
        """Every pair of models on the aggregate, the better first (in score order): δ, its interval, p and p
        corrected over all pairs with ``correction``."""
        order = self._order()
        first, second = np.triu_indices(len(order), 1)  # every pair, the better first, row after row
        i, j = order[first], order[second]
        models = np.array(self.board.models, dtype=object)
        rows = pd.DataFrame({"model": models[i].tolist(), "other": models[j].tolist(),
                             **dict(zip(("delta", "delta_low", "delta_high", "p_value"),
                                        self._deltas(self.aggregate, self.resampled, i, j, alpha)))},
                            columns=["model", "other", "delta", "delta_low", "delta_high", "p_value"])
        rows["p_corrected"] = self._corrected(rows.p_value.to_numpy(), correction,
                                              [(self.aggregate, self.resampled, i, j)])
        return rows

    def _order(self) -> np.ndarray:
        """The models' indices by aggregate, best first (ties in the board's order)."""
        return np.argsort(-self.aggregate, kind="stable")

    def _pairs_matrix(self, alpha: float, correction: str, better: bool) -> tuple[list[str], np.ndarray]:
        """The models best first and, for each pair of them in that order, whether the first is significantly
        better than the second (``better``) or the two differ significantly, from :meth:`pairs`."""
        order = self._order()
        names = [self.board.models[k] for k in order]
        rows = self.pairs(alpha, correction)
        first, second = np.triu_indices(len(order), 1)
        marked = (rows.p_corrected.to_numpy() <= alpha) & ((rows.delta.to_numpy() > 0) if better else True)
        matrix = np.zeros((len(order), len(order)), dtype=bool)
        matrix[first, second] = marked
        return names, matrix

    def arena_ranks(self, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> dict[str, int]:
        """Each model's rank as LMArena publishes it: 1 + the number of models significantly better than it on the
        aggregate, over all pairs with ``correction`` (:func:`sigcore.statistics.maxstat.arena_ranks`): models the
        data do not separate share a rank, and a rank says how many are shown above."""
        order, better = self._pairs_matrix(alpha, correction, better=True)
        return dict(zip(order, maxstat.arena_ranks(better).tolist()))

    def groups(self, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> dict[str, int]:
        """Tie groups, best first: a line falls between two models in score order only when every model above it is
        significantly better than every model below it, over all pairs with ``correction`` (WMT's clusters,
        :func:`sigcore.many.clusters`); models whose order the data do not settle share a group."""
        from .many import clusters

        order, better = self._pairs_matrix(alpha, correction, better=True)
        return dict(zip(order, clusters(better)))

    def cliques(self, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> list[list[str]]:
        """The bars of the critical-difference-style diagram, from the paired resamples: each longest run of models
        in score order no two of which differ significantly on the aggregate (:meth:`pairs`, with
        ``correction``); unlike :meth:`groups`, two bars may share a model."""
        from .many import cliques

        order, different = self._pairs_matrix(alpha, correction, better=False)
        different |= different.T
        return [order[i:j + 1] for i, j in cliques(different)]

    def mean_ranks(self) -> np.ndarray:
        """(models,): each model's rank averaged over the resamples, where the diagram places it."""
        return self.ranks().mean(axis=0)

    def unit_scores(self) -> tuple[tuple[str, ...], np.ndarray]:
        """The tasks as the aggregate counts them, a group as one (its score averaged as the group says), and
        their scores (units, models): the observations of :meth:`friedman`."""
        board, grouped = self.board, {t for members, _ in self.board.groups.values() for t in members}
        index = {t: k for k, t in enumerate(board.tasks)}
        names, rows = [], []
        for t in board.tasks:
            if t not in grouped:
                names.append(t)
                rows.append(self.task_scores[index[t]])
        for group in board.groups:
            k, share = _members(board, group)
            names.append(group)
            rows.append(share @ self.task_scores[k])
        return tuple(names), np.array(rows)

    def friedman(self, alpha: float = DEFAULT_ALPHA):
        """The Friedman test over the tasks (a group as one) with Nemenyi's critical difference (Demšar 2006):
        :func:`sigcore.statistics.friedman.friedman`. Offered beside the board, not in its place."""
        from .statistics.friedman import friedman

        return friedman(self.unit_scores()[1], self.board.models, alpha)

    def ranks(self) -> np.ndarray:
        """(b, models): each model's rank on each resample, 1 the best (higher scores are better)."""
        order = np.argsort(-self.resampled, axis=1, kind="stable")
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.arange(1, len(self.board.models) + 1)[None, :], axis=1)
        return ranks

    def rank_interval(self, model: str, confidence_level: float = 0.95) -> tuple[int, int]:
        """The ranks ``model`` takes on the middle ``confidence_level`` of the resamples."""
        return self.rank_intervals(confidence_level)[model]

    def rank_intervals(self, confidence_level: float = 0.95) -> dict[str, tuple[int, int]]:
        """Every model's :meth:`rank_interval`, from one ranking of the resamples."""
        tail = (1 - confidence_level) / 2
        low, high = np.quantile(self.ranks(), [tail, 1 - tail], axis=0)
        return {m: (int(np.floor(lo)), int(np.ceil(hi))) for m, lo, hi in zip(self.board.models, low, high)}

    def table(self, baseline: str, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> pd.DataFrame:
        """One row per model, best first: its aggregate and 1 − α interval, rank interval, tie group, and δ against
        ``baseline`` with its interval, p and p corrected over the other models (nan on the baseline's row)."""
        base = self._index(baseline)
        others = [m for m in self.board.models if m != baseline]
        found = self._deltas(self.aggregate, self.resampled, [self._index(m) for m in others], [base] * len(others),
                             alpha)
        deltas = {m: tuple(float(x[k]) for x in found) for k, m in enumerate(others)}
        corrected = dict(zip(others, self._corrected(np.array([deltas[m][3] for m in others]), correction, [
            (self.aggregate, self.resampled, [self._index(m) for m in others], [base] * len(others))])))
        ranks, groups = self.rank_intervals(1 - alpha), self.groups(alpha, correction)
        arena = self.arena_ranks(alpha, correction)
        nothing = (np.nan,) * 4
        bounds = intervals.percentile(self.resampled, 1 - alpha, axis=0)  # every model's, at once
        rows = [{"model": m, "score": float(self.aggregate[self._index(m)]),
                 "ci_low": float(bounds[0][self._index(m)]), "ci_high": float(bounds[1][self._index(m)]),
                 "rank": arena[m], "rank_low": ranks[m][0], "rank_high": ranks[m][1], "group": groups[m],
                 "baseline": baseline,
                 **dict(zip(("delta", "delta_low", "delta_high", "p_value"), deltas.get(m, nothing))),
                 "p_corrected": corrected.get(m, np.nan)} for m in self.board.models]
        return pd.DataFrame(rows).sort_values("score", ascending=False, kind="stable").reset_index(drop=True)

    def task_table(self, baseline: str, alpha: float = DEFAULT_ALPHA, correction: str = "holm",
                   over: str = "family", tasks: tuple[str, ...] | None = None) -> pd.DataFrame:
        """Each task's δ against ``baseline`` for every other model (a ``per_task`` run), with its interval, p and
        p corrected over the whole family of tasks x models (``over="family"``) or within each task ("task").
        ``tasks``: which (default: every task; :meth:`unit_scores`' names: a group as one, its δ its score's)."""
        if over not in ("family", "task"):
            raise SettingsError(f"`over` must be 'family' or 'task', not {over!r}")
        base = self._index(baseline)
        others = [m for m in self.board.models if m != baseline]
        tasks = self.board.tasks if tasks is None else tasks
        i = [self._index(m) for m in others]
        found = [self._deltas(*self._task_values(t), i, [base] * len(i), alpha) for t in tasks]
        rows = pd.DataFrame({"task": [t for t in tasks for _ in others], "model": others * len(tasks),
                             **{name: np.concatenate([f[k] for f in found]) if found else []
                                for k, name in enumerate(("delta", "delta_low", "delta_high", "p_value"))}})
        groups = [rows.index] if over == "family" else [rows.index[rows.task == t] for t in tasks]
        rows["p_corrected"] = np.nan
        parts = [(*self._task_values(t), i, [base] * len(i)) for t in tasks]
        for g, family in zip(groups, [parts] if over == "family" else [[part] for part in parts]):
            if len(g):
                rows.loc[g, "p_corrected"] = self._corrected(rows.loc[g, "p_value"].to_numpy(), correction, family)
        return rows

    def signature_fields(self, alpha: float, correction: str) -> Signature:
        """The board's settings and sizes as a signature, at the level and correction its tables are read at (they
        are chosen where the table is drawn, not when the board is resampled)."""
        b = self.board
        return Signature("board", "bootstrap-stratified", alternative="two-sided", alpha=alpha,
                         resamples=self.n_resamples, seed=self.seed, correction=correction, metric=b.metric,
                         aggregate=self.weight, models=len(b.models), tasks=len(b.tasks),
                         items=sum(len(i) for i in b.items.values()), clusters=b.cluster, versions=tool_versions())

    def signature(self, alpha: float, correction: str) -> str:
        """The board's signature string at ``alpha`` and ``correction`` (:meth:`signature_fields` written out)."""
        return self.signature_fields(alpha, correction).text

    def to_dict(self) -> dict:
        """A JSON-safe dict of what the board's tables and figures are drawn from (the ``board`` of a saved record of
        kind "board", :func:`sigcore.report.records.board`): the models, tasks and items,
        the task scores, the aggregate and its b resamples (not the per-item scores nor each task's resamples:
        :meth:`from_dict` gives a board whose figures and tables are this one's, not its per-task δ or variance)."""
        b = self.board
        return {"metric": b.metric, "models": list(b.models), "tasks": list(b.tasks),
                "items": {t: list(b.items[t]) for t in b.tasks}, "notes": list(b.notes),
                "groups": {g: {"tasks": list(ts), "weight": how} for g, (ts, how) in b.groups.items()},
                "cluster": b.cluster, "clusters": {t: c.tolist() for t, c in b.clusters.items()},
                "weight": self.weight, "n_resamples": self.n_resamples, "seed": self.seed,
                "task_scores": self.task_scores.tolist(), "aggregate": self.aggregate.tolist(),
                "resampled": self.resampled.tolist()}

    @classmethod
    def from_dict(cls, data: dict) -> Leaderboard:
        """The board :meth:`to_dict` wrote; a ValueError (or KeyError, TypeError) says what does not fit."""
        models, tasks = tuple(map(str, data["models"])), tuple(map(str, data["tasks"]))
        items = {t: tuple(map(str, data["items"][t])) for t in tasks}
        task_scores, aggregate, resampled = (np.asarray(data[k], dtype=np.float64)
                                             for k in ("task_scores", "aggregate", "resampled"))
        b = int(data["n_resamples"])
        shapes = {"task_scores": (task_scores.shape, (len(tasks), len(models))),
                  "aggregate": (aggregate.shape, (len(models),)), "resampled": (resampled.shape, (b, len(models)))}
        for key, (got, wanted) in shapes.items():
            if got != wanted:
                raise ValueError(f"{key} is {got}, not {wanted} ({len(tasks)} tasks, {len(models)} models, b = {b})")
        if not all(np.isfinite(a).all() for a in (task_scores, aggregate, resampled)) or len(set(models)) < len(models):
            raise ValueError("its scores are not all finite numbers, or a model is named twice")
        groups = {str(g): (tuple(map(str, v["tasks"])), str(v["weight"])) for g, v in data.get("groups", {}).items()}
        board = Board(models, tasks, str(data["metric"]), {}, items, tuple(map(str, data.get("notes", ()))), groups,
                      cluster=data.get("cluster"),
                      clusters={t: np.asarray(c, dtype=np.int64) for t, c in data.get("clusters", {}).items()})
        if data["weight"] not in WEIGHTS:
            raise ValueError(f"weight is {data['weight']!r}, not one of {', '.join(WEIGHTS)}")
        return cls(board, data["weight"], b, int(data["seed"]), task_scores, aggregate, resampled)

    def _index(self, model: str) -> int:
        if model not in self.board.models:
            raise SettingsError(f"no model {named(model)}", hint=f"The models: {listed(list(self.board.models))}.")
        return self.board.models.index(model)


def _weights(board: Board, weight: str) -> np.ndarray:
    """Each task's share of the aggregate: by its number of items (``"items"``), or equal (``"tasks"``), a group
    counting as one task whose share its tasks split as the group averages them (by size, or equally)."""
    if weight not in WEIGHTS:
        raise SettingsError(f"`weight` must be one of {listed(list(WEIGHTS))}, not {weight!r}")
    sizes = np.array([len(board.items[t]) for t in board.tasks], dtype=np.float64)
    if weight == "items":
        return sizes / sizes.sum()
    grouped = {t for members, _ in board.groups.values() for t in members}
    units = len(board.groups) + len(board.tasks) - len(grouped)
    out = np.where([t in grouped for t in board.tasks], 0.0, 1 / units)
    for group in board.groups:
        k, share = _members(board, group)
        out[k] = share / units
    return out


def _members(board: Board, group: str) -> tuple[list[int], np.ndarray]:
    """A group's tasks (their indices) and each one's share of the group's score: by size, or equal."""
    members, how = board.groups[group]
    k = [board.tasks.index(t) for t in members]
    sizes = np.array([len(board.items[t]) for t in members], dtype=np.float64)
    return k, sizes / sizes.sum() if how == "items" else np.full(len(k), 1 / len(k))


def bootstrap(board: Board, *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, weight: str = "tasks",
              per_task: bool = False, confidence_level: float | None = None, progress=None,
              scheduler: str | None = None) -> Leaderboard:
    """Resample each task's items with replacement (the same draws for every model: paired), b times, and take
    every model's task scores and aggregate on each resample, task by task, in bounded memory (b x models; with
    ``per_task``, every task's too, b x tasks x models, for :meth:`Leaderboard.delta` on one task). Task t draws
    from child t of ``SeedSequence(seed)``, so the same seed gives the same resamples with or without
    ``per_task``, on this machine's cores or on Dask's workers: ``scheduler``, a distributed scheduler's address
    (``pip install sigcore[dask]``), runs the tasks there. ``confidence_level`` keeps each task's percentile interval
    of every model's score at that level (:meth:`Leaderboard.task_intervals`) without keeping the tasks' resamples.
    ``progress(fraction done)`` is called after each task."""
    check_resamples(n_resamples)
    check_seed(seed)
    if confidence_level is not None:
        check_level(confidence_level)
    tasks = board.tasks
    task_weights = _weights(board, weight)
    # each task's scores a power of two down where sums of them would overflow (1e308), its means multiplied back
    scaled = [intervals.power_scale(board.scores[t]) for t in tasks]
    task_scores = np.array([m.mean(axis=0) * scale for m, scale in scaled]).reshape(len(tasks), len(board.models))
    aggregate = task_weights @ task_scores
    _finite_deltas(board, task_scores, aggregate)
    streams = np.random.SeedSequence(seed).spawn(len(tasks))
    work = [(m, n_resamples, streams[k], board.clusters.get(t), _runs(board, t))
            for k, (t, (m, _)) in enumerate(zip(tasks, scaled))]
    resampled = np.zeros((n_resamples, len(board.models)))
    each = np.empty((n_resamples, len(tasks), len(board.models))) if per_task else None
    bounds = None if confidence_level is None else np.empty((2, len(tasks), len(board.models)))
    results = _on_dask(work, scheduler) if scheduler is not None else _in_order(work)
    for k, means in enumerate(results):  # summed in the tasks' order: the same floats wherever they were drawn
        if scaled[k][1] != 1:
            means = means * scaled[k][1]
        resampled += task_weights[k] * means
        if each is not None:
            each[:, k] = means
        if bounds is not None:
            bounds[:, k] = intervals.percentile(means, confidence_level, axis=0)
        if progress is not None:
            progress((k + 1) / len(tasks))
    return Leaderboard(board, weight, n_resamples, seed, task_scores, aggregate, resampled, each, bounds,
                       confidence_level)


def _finite_deltas(board: Board, task_scores: np.ndarray, aggregate: np.ndarray) -> None:
    """Every δ the board can show, between two models on a task or on the aggregate, a finite number, or the
    error a pair's δ gets (:func:`sigcore.result.finite_delta`), naming the two models whose δ is the widest."""
    for values, where in [*zip(task_scores, (f" on task {named(t)}" for t in board.tasks)), (aggregate, "")]:
        high, low = int(np.argmax(values)), int(np.argmin(values))
        finite_delta(float(values[high]), float(values[low]),
                     f" of model {named(board.models[high])} − model {named(board.models[low])}{where}")


def _runs(board: Board, task: str) -> int:
    """The runs every item of ``task`` has, where they have the same number (a guess that task_resamples checks)."""
    runs = board.epochs.get(task, (None, np.ones(1)))[1]
    return max(1, int(np.rint(runs.max())))


def task_resamples(matrix: np.ndarray, n_resamples: int, stream: np.random.SeedSequence,
                   clusters: np.ndarray | None = None, runs: int = 1) -> np.ndarray:
    """(b, models): every model's mean over the same n items drawn with replacement, b times, from ``stream``
    (row after row of ``integers(0, n, n)``, as a loop over resamples draws them), in blocks of rows whose draws
    stay in cache (a block's size depends on n alone). With ``clusters`` (each item's, 0..k-1), k clusters are drawn
    instead, each with all its items, and the mean is over the items drawn (Σ count x / Σ count, as a clustered
    bootstrap of a mean). Where every score is a whole number of ``runs``-ths (right/wrong, or averaged over
    ``runs`` epochs), the sums are taken in whole numbers, exact in float32 below 2**24 (twice float64's speed),
    each mean rounded once; other scores in float64."""
    rng = np.random.default_rng(stream)
    k = len(matrix) if clusters is None else int(clusters.max()) + 1
    whole = np.rint(matrix * runs)
    counted = np.array_equal(whole / runs, matrix)  # whole numbers of runs-ths: summed as whole numbers
    weights, scale = (whole, runs) if counted else (matrix, 1)
    if clusters is not None:  # each cluster's sums, and its size as a last column: a cluster is drawn whole
        sums = np.zeros((k, matrix.shape[1]))
        np.add.at(sums, clusters, weights)
        weights = np.column_stack([sums, np.bincount(clusters, minlength=k)])
    exact = np.array_equal(np.rint(weights), weights) and k < _EXACT and k * np.abs(weights).max(initial=0) < _EXACT
    weights = weights.astype(np.float32) if exact else weights
    step = max(1, _BLOCK_CELLS // max(k, 1))
    offsets = (np.arange(step) * k)[:, None]
    sums = np.empty((n_resamples, weights.shape[1]))
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        # k units drawn with replacement, counted: multinomial counts, at the speed of integers and bincount
        drawn = rng.integers(0, k, size=(size, k))
        drawn += offsets[:size]
        counts = np.bincount(drawn.ravel(), minlength=size * k).reshape(size, k).astype(weights.dtype)
        sums[start:start + size] = counts @ weights
    return sums / (k * scale) if clusters is None else sums[:, :-1] / (sums[:, -1:] * scale)


def _in_order(work: list) -> Iterator[np.ndarray]:
    """Each task's resamples, in order, a few tasks ahead on every core (numpy releases the GIL), BLAS on one thread
    (:func:`_alone`)."""
    if WORKERS == 1 or len(work) < 2:
        yield from (_alone(*w) for w in work)
        return
    pending: deque = deque()
    with one_blas_thread():  # a task per core, each its own products
        for w in work:
            pending.append(pool().submit(task_resamples, *w))
            if len(pending) > WORKERS:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _alone(*work) -> np.ndarray:
    """:func:`task_resamples` with BLAS on one thread, wherever it runs: OpenBLAS's sums of products in float64
    differ in their last bits with its number of threads, and a task's resamples must not."""
    with one_blas_thread():
        return task_resamples(*work)


def _on_dask(work: list, scheduler: str) -> Iterator[np.ndarray]:
    """Each task's resamples computed on a Dask distributed scheduler's workers, returned in the tasks' order."""
    try:
        from distributed import Client
    except ImportError:
        raise SettingsError("a scheduler needs Dask's distributed scheduler",
                            hint="pip install 'sigcore[dask]' (dask and distributed), or leave the scheduler out."
                            ) from None
    try:
        client = Client(scheduler, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise SettingsError(f"cannot reach the Dask scheduler at {scheduler}: {e}",
                            hint="Give the address a running scheduler prints (tcp://host:8786).") from None
    with client:
        futures = client.map(_alone, *zip(*work), pure=False)
        for k, future in enumerate(futures):
            yield _awaited(client, future, scheduler, k, len(futures))
            future.release()  # one task's b x models at a time on this side


def _awaited(client, future, scheduler: str, k: int, n: int) -> np.ndarray:
    """A task's result; a :class:`ClusterError` once the scheduler has had no worker for :data:`WORKERLESS`
    seconds (a scheduler waits for a worker forever, silently), or where the scheduler killed the task's
    workers one after another or went away."""
    from distributed import KilledWorker

    alone = None
    while True:
        try:
            return future.result(timeout=min(1.0, WORKERLESS))
        except TimeoutError:
            pass
        except KilledWorker as e:
            raise ClusterError(f"the Dask workers at {scheduler} died running task {k + 1} of {n} ({e})",
                               hint="Give the workers more memory, or run without --scheduler.") from None
        except OSError as e:  # the scheduler's connection closed
            raise ClusterError(f"the Dask scheduler at {scheduler} went away at task {k + 1} of {n} ({e})",
                               hint="Start it again, or run without --scheduler.") from None
        try:
            workers = len(client.scheduler_info(n_workers=-1)["workers"])
        except OSError as e:
            raise ClusterError(f"the Dask scheduler at {scheduler} went away at task {k + 1} of {n} ({e})",
                               hint="Start it again, or run without --scheduler.") from None
        now = time.monotonic()
        alone = None if workers else alone or now
        if alone is not None and now - alone >= WORKERLESS:
            raise ClusterError(f"the Dask scheduler at {scheduler} has had no worker for {WORKERLESS:g} s, at task "
                               f"{k + 1} of {n}: its workers died or left",
                               hint="Start workers (dask worker ADDRESS), or run without --scheduler.")


def standard_error(board: Board, weight: str = "tasks") -> np.ndarray:
    """Each model's standard error of its aggregate by the formula (the tasks' item variances over their sizes,
    weighted), what the bootstrap's spread estimates: √(Σ_t w_t² s_t² / n_t), s_t² with divisor n_t."""
    sizes = np.array([len(board.items[t]) for t in board.tasks], dtype=np.float64)
    w = _weights(board, weight)
    variances = np.array([board.scores[t].var(axis=0) for t in board.tasks])  # (tasks, models)
    return np.sqrt(((w ** 2 / sizes)[:, None] * variances).sum(axis=0))


