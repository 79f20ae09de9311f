"""The rows of a tidy table counted into each (model, task, item)'s number of scores, their sum and sum of squares,
with its ids as small integer codes: a block of rows at a time, no array the table's length where the rows allow."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InputError
from ..words import named, shown

__all__ = ["BLOCK", "PREFIX", "whole_grid", "in_row_order", "by_key", "dense_codes", "run_codes", "id_codes", "as_text"]

BLOCK = 1 << 20  # rows a block, where the rows are counted a block at a time: 8 MiB of int64
PREFIX = 1 << 16  # rows in which a categorical's categories are first looked for


def whole_grid(codes: dict, values: np.ndarray, n_tasks: int, n_items: int, n_models: int, runs: int,
               low: int, squares: bool) -> tuple | None:
    """:func:`in_row_order` where the table is the whole grid in (model, task, item, run) order, every model
    with every task's every item in every run (as a converted set of logs comes): row r is then (model, task, item)
    r // runs, found by comparing the codes with that order (no keys, no bincount), and the sums are strided adds
    of the runs, in row order as a bincount adds them, in (cells, models) order. None where the table is anything
    else."""
    model, task, item, run = codes["model"], codes["task"], codes["item"], codes.get("run")
    n = len(values)
    if not n or n != n_models * n_tasks * n_items * runs or (run is None) != (runs == 1):
        return None
    cell = n_items * runs  # rows of one (model, task)
    step = max(1, BLOCK // cell)  # (model, task) pairs a block
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


def in_row_order(codes: dict, values: np.ndarray, n_tasks: int, n_items: int, n_models: int,
                 squares: bool) -> tuple | None:
    """Each (model, task, item)'s number of rows, sum and (with ``squares``) sum of squares, counted a block of rows
    at a time where the rows come in (model, task, item, run) order, as tables come (a log per model, an item's runs
    together): then no (model, task, item, run) is there twice, and no array the table's length is made (new memory
    is what costs most on 18 million rows). None where the rows are in another order (:func:`by_key` counts them).
    Also the (task, item) pairs there are, task × items + item, ascending."""
    task, item, model, run = codes["task"], codes["item"], codes["model"], codes.get("run")
    n, step = len(values), BLOCK
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


def by_key(codes: dict, values: np.ndarray, names: dict, low: int, n_items: int, runs: int, squares: bool,
           rows_too: bool = False) -> tuple:
    """:func:`in_row_order` for rows in any order, by each row's (model, task, item, run) key (an array the
    table's length), with the error for one there twice; with ``rows_too``, each row's (task, item), for clusters."""
    n_models = len(names["model"])
    pair = np.multiply(codes["task"], n_items, dtype=np.int64)
    pair += codes["item"]
    key, cells = dense_codes(pair)  # each row's (task, item) pair's code (``pair`` itself where all are there)
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


def _add_scaled(key: np.ndarray, codes: np.ndarray, factor: int) -> None:
    """key += codes * factor, in place, a block of rows at a time: no temporary array of the table's length."""
    step = 1 << 20
    scaled = np.empty(min(step, len(key)), dtype=np.int64)
    for start in range(0, len(key), step):
        part = codes[start:start + step]
        np.multiply(part, factor, out=scaled[:len(part)], dtype=np.int64)
        key[start:start + len(part)] += scaled[:len(part)]


def dense_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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


def run_codes(column: pd.Series) -> tuple[np.ndarray, list[str], int]:
    """Codes of the runs (only their number and equality matter), less an offset: whole numbers from low to high
    as they are (codes = values − low, not copied), other whole numbers by counting; other values (an empty cell
    of a CSV) by pd.factorize, a missing one -1 (offset 0)."""
    if not isinstance(column.dtype, np.dtype) or column.dtype.kind != "i" or not len(column):
        return (*_factorized(column), 0)
    values = column.to_numpy()
    low, high = int(values.min()), int(values.max())
    if low >= 0 and high < 4 * len(values) + 1024:
        # every run from low to high there: seen in the first rows (as a long table shows them), or counted
        if len(np.unique(values[:PREFIX])) == high - low + 1 or (np.bincount(values)[low:] > 0).all():
            return values, [str(low + r) for r in range(high - low + 1)], low
    codes, distinct = dense_codes(np.subtract(values, low, dtype=np.int64))
    return codes, [str(v + low) for v in distinct], 0


def id_codes(column: pd.Series) -> tuple[np.ndarray, list[str]]:
    """Integer codes of ids and their names as text, in order of first appearance (as pd.factorize gives them); a
    categorical's from its codes, without hashing its values again, in its codes' own small dtype (not a copy where
    the categories come in their order of first appearance)."""
    if not isinstance(column.dtype, pd.CategoricalDtype):
        return _factorized(as_text(column))
    raw = column.array.codes  # the categorical's own codes (cat.codes builds a Series: a copy)
    if len(raw) and raw.min() < 0:
        return raw, []  # a missing id: the caller says which row
    used = pd.unique(raw[:PREFIX])  # the categories present, by first row: a long table shows them all early
    if len(used) < len(column.cat.categories):  # some come later, or never
        starts = np.flatnonzero(raw[1:] != raw[:-1]) + 1  # a value first seen is the first row or a change
        used = pd.unique(raw[np.r_[0, starts]] if len(starts) < len(raw) // 4 else raw)
    names = [str(c) for c in column.cat.categories[used]]
    if np.array_equal(used, np.arange(len(used))):
        return raw, names
    remap = np.zeros(len(column.cat.categories), dtype=raw.dtype)
    remap[used] = np.arange(len(used))
    return remap[raw], names


def as_text(column: pd.Series) -> pd.Series:
    """Ids as text ("3" from a CSV and 3 from a log are one item); a categorical's categories only."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.rename_categories([str(c) for c in column.cat.categories])
    return column if pd.api.types.is_string_dtype(column) else column.astype(str)
