"""Reading pairwise judgments: four shapes, each recognised by its columns, each to the tidy battles frame of
:mod:`sigcore.judgments.battles`.

- ``arena``: Chatbot Arena's battles (CSV, JSON lines, JSON or Parquet), ``model_a, model_b, winner`` with winner
  ``model_a``, ``model_b``, ``tie`` or ``tie (bothbad)`` (FastChat's ``clean_battle_data.py``); optional
  ``question_id`` (the item; without it each battle is its own item), ``judge``, ``turn``, ``category``, and
  ``order`` (the model shown first) as in the tidy table.
- ``mt-bench``: FastChat's MT-Bench pairwise judgments (``model_judgment/*_pair.jsonl``, written by
  ``llm_judge/common.py``'s ``play_a_match_pair``): ``question_id, model_1, model_2, g1_winner, g2_winner, judge,
  turn``. g1 is the judgment with model_1's answer shown first, g2 the one with the answers swapped, each winner
  already mapped back to ``model_1``, ``model_2``, ``tie`` or ``error`` (a judgment that could not be parsed, left
  out as FastChat's ``show_result.py`` leaves it out, with a note). Each record is two battles, one per order;
  ``judge`` is FastChat's [model, prompt] pair, read as "gpt-4/pair-v2". A record of single-answer grading
  (``m1_score``, ``m2_score``: both winners the same verdict, no order) is one battle.
- ``alpacaeval``: AlpacaEval's annotations (a JSON list: ``instruction, generator_1, generator_2, preference``,
  ``annotator``, ``dataset``), preference 1 (generator_1 better), 2 (generator_2 better), 1.5 or 0 (a tie,
  AlpacaEval's old code for one) and anything between for its weighted annotators, A's score being 2 − preference;
  a null preference (a failed annotation) is left out, as AlpacaEval leaves it out, with a note. The item is the
  instruction, the category its ``dataset``; the order is not recorded (AlpacaEval randomises it and maps back).
- ``tidy``: the long table ``item, model_a, model_b, outcome[, judge][, order][, turn][, category]``, outcome A's
  score (1, 0.5, 0 or a fraction; or a winner word as arena's), order the name of the model shown first.

Tables are read by :func:`sigcore.io.inputs.read` (CSV, TSV, JSON lines, JSON: their lines known) and Parquet by
:func:`sigcore.logs.tidy.read_table_bytes` (its rows counted as lines), the columns named above only.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from ..errors import InputError, SettingsError
from ..io.archives import gunzip
from ..io.decoding import source_bytes
from ..io.inputs import read as read_table
from ..logs.tidy import read_table_bytes
from ..words import counted, listed, shown
from .battles import Battles, checked, combined, frame

__all__ = ["SHAPES", "WINNERS", "read", "read_all", "shape_of"]

SHAPES = {
    "arena": ("model_a", "model_b", "winner"),
    "mt-bench": ("question_id", "model_1", "model_2", "g1_winner", "g2_winner"),
    "alpacaeval": ("instruction", "generator_1", "generator_2", "preference"),
    "tidy": ("item", "model_a", "model_b", "outcome"),
}
WINNERS = {"model_a": 1.0, "model_b": 0.0, "tie": 0.5, "tie (bothbad)": 0.5}  # arena's winner -> A's score
_MT_WINNERS = {"model_1": 1.0, "model_2": 0.0, "tie": 0.5}  # and "error": left out
_OPTIONAL = ("question_id", "judge", "turn", "category", "order", "annotator", "dataset", "m1_score")
_WANTED = tuple(dict.fromkeys(c for shape in SHAPES.values() for c in shape)) + _OPTIONAL


def shape_of(columns, name: str) -> str:
    """Which of :data:`SHAPES` a table with these columns has (the first whose columns it holds: MT-Bench before
    the arena, which an MT-Bench file does not hold anyway), else the InputError that lists them."""
    present = set(columns)
    for shape in ("mt-bench", "alpacaeval", "tidy", "arena"):
        if set(SHAPES[shape]) <= present:
            return shape
    raise InputError(f"is not a file of pairwise judgments: its columns are {listed(sorted(map(str, present)))}",
                     file=name, hint="Give arena battles (model_a, model_b, winner), MT-Bench's *_pair.jsonl "
                                     "(question_id, model_1, model_2, g1_winner, g2_winner), AlpacaEval's "
                                     "annotations.json (instruction, generator_1, generator_2, preference) or the "
                                     "tidy table (item, model_a, model_b, outcome).")


def read(source: str | os.PathLike | bytes, *, name: str | None = None, shape: str | None = None) -> Battles:
    """The battles of one file (a path, or an upload's bytes with its ``name``), its shape recognised from its
    columns unless ``shape`` (a key of :data:`SHAPES`) says it."""
    data, name = source_bytes(source, name)
    if shape is not None and shape not in SHAPES:
        raise SettingsError(f"unknown shape {shape!r}", hint=f"The shapes are: {', '.join(SHAPES)}.")
    if name.lower().removesuffix(".gz").endswith(".parquet"):
        table = read_table_bytes(gunzip(data, name), name.removesuffix(".gz"), columns=_WANTED)
        lines = np.arange(1, len(table) + 1)
    else:
        read_in = read_table(data, name=name)
        if read_in.format not in ("csv", "tsv", "jsonl", "json"):
            raise InputError(f"is read as {read_in.format}, not as a table of judgments", file=name,
                             hint="Give judgments as CSV, JSON lines, JSON or Parquet.")
        table, lines = read_in.frame, read_in.lines
    shape = shape or shape_of(table.columns, name)
    missing = [c for c in SHAPES[shape] if c not in table.columns]
    if missing:
        raise InputError(f"has no column {' and no '.join(missing)}, which {shape} judgments have", file=name,
                         hint=f"Give the columns {', '.join(SHAPES[shape])}.")
    battles, notes = _READERS[shape](table, np.asarray(lines), name)
    names = {"mt-bench": ("model_1", "model_2"), "alpacaeval": ("generator_1", "generator_2")}
    return Battles(checked(battles, names.get(shape, ("model_a", "model_b"))), {name: shape}, tuple(notes))


def read_all(sources: list, *, shape: str | None = None) -> Battles:
    """The battles of several files (paths, or (name, bytes) pairs of uploads) as one, each file's shape recognised
    on its own, and no judgment given twice across them."""
    if not sources:
        raise SettingsError("no files of judgments given", hint="Give one or more files.")
    parts = [read(s[1], name=s[0], shape=shape) if isinstance(s, tuple) else read(s, shape=shape) for s in sources]
    return combined(parts)


# --- the cells --------------------------------------------------------------------------------------------

def _text(table: pd.DataFrame, column: str) -> np.ndarray:
    """A column's values as text (a number as written, 7 not 7.0; a missing value as ""); FastChat's judge, a
    [model, prompt] list, as "model/prompt"."""
    def one(value) -> str:
        if value is None or isinstance(value, float) and np.isnan(value):
            return ""
        if isinstance(value, (list, tuple)):
            return "/".join(one(v) for v in value)
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)
    return np.array([one(v) for v in table[column].tolist()], dtype=object)


def _optional(table: pd.DataFrame, column: str) -> np.ndarray | None:
    return _text(table, column) if column in table.columns else None


def _turns(table: pd.DataFrame, lines: np.ndarray, name: str) -> np.ndarray | None:
    if "turn" not in table.columns:
        return None
    values = table["turn"].tolist()
    out = np.zeros(len(values), np.int64)
    for k, value in enumerate(values):
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = np.nan
        if not (number >= 1 and float(number).is_integer()):
            raise InputError(f"the turn {shown(value)} is not a whole number from 1", file=name, line=int(lines[k]),
                             column="turn", hint="Give the turn of the conversation judged: 1, 2, …")
        out[k] = int(number)
    return out


def _scores(values: list, lines: np.ndarray, name: str, column: str, words: dict) -> np.ndarray:
    """A's score from each value: a word of ``words``, or (``words`` of the tidy table) a number from 0 to 1."""
    out = np.empty(len(values))
    for k, value in enumerate(values):
        key = value.strip() if isinstance(value, str) else value
        if isinstance(key, str) and key in words:
            out[k] = words[key]
            continue
        number = _number(key) if column == "outcome" else None
        if number is None or not 0 <= number <= 1:
            allowed = "a number from 0 to 1 (A's score) or " if column == "outcome" else ""
            raise InputError(f"unknown {column} value {shown(value)}", file=name, line=int(lines[k]), column=column,
                             hint=f"Give {allowed}one of: {', '.join(words)}.")
        out[k] = number
    return out


def _number(value) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if np.isfinite(number) else None


def _orders(table: pd.DataFrame, a: np.ndarray, b: np.ndarray, lines: np.ndarray, name: str) -> np.ndarray | None:
    """1 where A was shown first, 2 where B was, 0 where the ``order`` cell is empty; a model that is neither A nor
    B refused."""
    if "order" not in table.columns:
        return None
    first = _text(table, "order")
    order = np.where(first == a, 1, np.where(first == b, 2, 0)).astype(np.int8)
    wrong = np.flatnonzero((order == 0) & (np.char.str_len(first.astype(str)) > 0))
    if wrong.size:
        k = int(wrong[0])
        raise InputError(f"the order names {shown(first[k])}, the model shown first, which is neither model_a "
                         f"({shown(a[k])}) nor model_b ({shown(b[k])})", file=name, line=int(lines[k]), column="order",
                         hint="Give in order the name of the model whose answer was shown first, or leave it empty.")
    return order


# --- the shapes ---------------------------------------------------------------------------------------------

def _arena(table: pd.DataFrame, lines: np.ndarray, name: str) -> tuple[pd.DataFrame, list[str]]:
    return _pairs(table, lines, name, "question_id", "winner", WINNERS)


def _tidy(table: pd.DataFrame, lines: np.ndarray, name: str) -> tuple[pd.DataFrame, list[str]]:
    return _pairs(table, lines, name, "item", "outcome", WINNERS)


def _pairs(table, lines, name, item_column, outcome_column, words) -> tuple[pd.DataFrame, list[str]]:
    a, b = _text(table, "model_a"), _text(table, "model_b")
    notes = []
    if item_column in table.columns:
        items = _text(table, item_column)
    else:  # each battle its own item: the bootstrap then resamples battles, which is all the file allows
        items = np.array([f"line {k}" for k in lines], dtype=object)
        notes.append(f"{name}: no {item_column} column, so each battle is its own item (battles on one prompt "
                     "cannot be resampled together)")
    outcome = _scores(table[outcome_column].tolist(), lines, name, outcome_column, words)
    if outcome_column == "winner" and (table["winner"] == "tie (bothbad)").any():
        bothbad = int((table["winner"] == "tie (bothbad)").sum())
        notes.append(f"{name}: counted as ties: {counted(bothbad, 'battle')} judged 'tie (bothbad)'")
    return frame(item=items, model_a=a, model_b=b, outcome=outcome, judge=_optional(table, "judge"),
                 order=_orders(table, a, b, lines, name), turn=_turns(table, lines, name),
                 category=_optional(table, "category"), file=name, line=lines), notes


def _mt_bench(table: pd.DataFrame, lines: np.ndarray, name: str) -> tuple[pd.DataFrame, list[str]]:
    a, b = _text(table, "model_1"), _text(table, "model_2")
    items, judges, turns = _text(table, "question_id"), _optional(table, "judge"), _turns(table, lines, name)
    graded = "m1_score" in table.columns  # single-answer grading: one verdict, written twice, in no order
    parts, dropped = [], 0
    for order, column in ((1, "g1_winner"), (2, "g2_winner"))[:1 if graded else 2]:
        values = table[column].tolist()
        keep = np.array([v != "error" for v in values], dtype=bool)
        dropped += int((~keep).sum())
        scores = _scores([v for v, k in zip(values, keep) if k], lines[keep], name, column, _MT_WINNERS)
        parts.append(frame(item=items[keep], model_a=a[keep], model_b=b[keep], outcome=scores,
                           judge=None if judges is None else judges[keep], order=np.full(keep.sum(), 0 if graded
                                                                                         else order),
                           turn=None if turns is None else turns[keep], file=name, line=lines[keep]))
    notes = [f"{name}: left out, as FastChat leaves them out: {counted(dropped, 'judgment')} the judge's answer did "
             "not settle ('error')"] if dropped else []
    if graded:
        notes.append(f"{name}: single-answer grading (m1_score, m2_score): one battle a record, in no order")
    battles = pd.concat(parts, ignore_index=True).sort_values(["line", "order"], kind="stable")
    return battles.reset_index(drop=True), notes


def _alpacaeval(table: pd.DataFrame, lines: np.ndarray, name: str) -> tuple[pd.DataFrame, list[str]]:
    values = table["preference"].tolist()
    failed = np.array([v is None or isinstance(v, float) and np.isnan(v) for v in values], dtype=bool)
    outcome = np.empty(int((~failed).sum()))
    kept = np.flatnonzero(~failed)
    for k, row in enumerate(kept):
        number = _number(values[row])
        if number is None or not (number == 0 or 1 <= number <= 2):
            raise InputError(f"unknown preference value {shown(values[row])}", file=name, line=int(lines[row]),
                             column="preference", hint="Give 1 (generator_1 better), 2 (generator_2 better), 1.5 "
                                                       "(a tie) or a number between 1 and 2.")
        outcome[k] = 0.5 if number == 0 else 2.0 - number  # 0: AlpacaEval's old code for a tie
    notes = [f"{name}: left out, as AlpacaEval leaves them out: {counted(int(failed.sum()), 'annotation')} with no "
             "preference (null: the annotator failed)"] if failed.any() else []
    sub = table.iloc[kept]
    return frame(item=_text(sub, "instruction"), model_a=_text(sub, "generator_1"),
                 model_b=_text(sub, "generator_2"), outcome=outcome, judge=_optional(sub, "annotator"),
                 category=_optional(sub, "dataset"), file=name, line=lines[kept]), notes


_READERS = {"arena": _arena, "mt-bench": _mt_bench, "alpacaeval": _alpacaeval, "tidy": _tidy}
