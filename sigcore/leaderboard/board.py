"""The board of a tidy table: each task's items × models matrix of scores, its groups and runs, and each task's
share of the aggregate."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import PARAMETER, InputError, SettingsError
from ..io.ids import RULE, merged
from ..statistics import intervals, resampling
from ..words import counted, listed, named, shown
from . import counting

__all__ = ["WEIGHTS", "HUGE", "Board", "from_table", "from_parquet", "task_shares", "group_members", "scale_exponent"]

WEIGHTS = ("tasks", "items")
HUGE = 2.0 ** 400  # scores beyond it are summed a power of two down (intervals.power_scale): their squares overflow


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
                codes[key], names[key], low = counting.run_codes(frame[key])
            else:
                codes[key], names[key] = counting.id_codes(frame[key])
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
    tallies = None if cluster else counting.whole_grid(codes, values, len(names["task"]), n_items, n_models, runs,
                                                       low, runs > 1 and not binary)
    if tallies is None and not cluster:
        tallies = counting.in_row_order(codes, values, len(names["task"]), n_items, n_models, runs > 1 and not binary)
    if tallies is None:
        tallies = counting.by_key(codes, values, names, low, n_items, runs, runs > 1 and not binary, bool(cluster))
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
    from ..logs import tallies, tidy

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
                error = np.ldexp(np.nan_to_num(spread.sum(axis=0) / (r - 1).sum(axis=0)), 2 * scale_exponent(scale))
            epochs[task] = (error, len(r) / (1 / r).sum(axis=0))  # one run each: error 0
        if cell_cluster is not None:
            clusters[task] = counting.dense_codes(cell_cluster[rows])[0]
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
    codes, uniques = pd.factorize(counting.as_text(frame[column]))
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
    metrics = counting.id_codes(frame["metric"])[1] if isinstance(frame["metric"].dtype, pd.CategoricalDtype) else []
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
    text = counting.as_text(frame["metric"])
    pairs = frame.assign(metric=text)[["task", "metric"]].drop_duplicates()
    has = pairs.groupby(counting.as_text(pairs["task"]), sort=False).metric.agg(set)
    chosen = {task: next((m for m in wanted if m in found), None) for task, found in has.items()}
    notes = [f"task {t}: none of the metric{'s' if len(wanted) > 1 else ''} {listed(wanted)}: left out"
             for t, m in chosen.items() if m is None]
    used = list(dict.fromkeys(m for m in chosen.values() if m))
    if len(used) > 1:
        notes.append("each task's metric: " + ", ".join(f"{t} {m}" for t, m in chosen.items() if m))
    # as objects: two categoricals (a Parquet table's metric and task) compare only with the same categories
    keep = np.asarray(text, dtype=object) == np.asarray(counting.as_text(frame["task"]).map(chosen), dtype=object)
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
        if max(-low, high) < HUGE:
            return values, False, 1.0
        scaled, scale = intervals.power_scale(values)  # sums and squares of a power of two less cannot overflow
        return scaled, False, scale
    finite = np.isfinite(values)
    row = frame.iloc[int(np.argmin(finite))]
    raise InputError(f"model {named(str(row['model']))}, task {named(str(row['task']))}, item "
                     f"{shown(str(row['item']))} has the score {shown(str(row['score']))}, not a finite number",
                     hint="Give every score as a number.")


def scale_exponent(scale: float) -> int:
    """k of a scale 2^k (:func:`intervals.power_scale`'s)."""
    return math.frexp(scale)[1] - 1


def _binary(values: np.ndarray) -> bool:
    """Whether every score is 0 or 1, a block at a time (no arrays the table's length)."""
    step = 1 << 20
    return all(bool(((part == 0) | (part == 1)).all()) for part in (values[i:i + step]
                                                                      for i in range(0, len(values), step)))


def task_shares(board: Board, weight: str) -> np.ndarray:
    """Each task's share of the aggregate: by its number of items (``"items"``), or equal (``"tasks"``), a group
    counting as one task whose share its tasks split as the group averages them (by size, or equally)."""
    if weight not in WEIGHTS:
        raise SettingsError(f"{PARAMETER} must be one of {listed(list(WEIGHTS))}, not {weight!r}", parameter="weight")
    sizes = np.array([len(board.items[t]) for t in board.tasks], dtype=np.float64)
    if weight == "items":
        return sizes / sizes.sum()
    grouped = {t for members, _ in board.groups.values() for t in members}
    units = len(board.groups) + len(board.tasks) - len(grouped)
    out = np.where([t in grouped for t in board.tasks], 0.0, 1 / units)
    for group in board.groups:
        k, share = group_members(board, group)
        out[k] = share / units
    return out


def group_members(board: Board, group: str) -> tuple[list[int], np.ndarray]:
    """A group's tasks (their indices) and each one's share of the group's score: by size, or equal."""
    members, how = board.groups[group]
    k = [board.tasks.index(t) for t in members]
    sizes = np.array([len(board.items[t]) for t in members], dtype=np.float64)
    return k, sizes / sizes.sum() if how == "items" else np.full(len(k), 1 / len(k))
