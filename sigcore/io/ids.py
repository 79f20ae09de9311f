"""When two ids name the same item: the one pairing rule of every command that pairs items by id, ``compare`` and
``many`` alike (their files, :mod:`sigcore.io.pairing`; the boards' tidy tables and logs, :mod:`sigcore.leaderboard`
and :mod:`sigcore.logs.tidy`).

Two ids are the same item when they are the same number, however written and in whatever file (``1``, ``1.0``,
``"1"``, ``"1.0"``, ``"01"``, ``"1e0"``), or, when they are not numbers, the same text exactly (``q1`` is neither
``Q1`` nor ``q1 ``). A CSV cell has no type: the ``1`` written there is a JSON log's ``1``, and the ``1.0`` of a
float column (pandas writes one where a column had a gap) is the ``1`` of an integer column. Numbers are compared
exactly, as the decimals written, never through a float, so that long numeric ids (``9007199254740993`` and
``9007199254740992``) stay two items. Ids one file writes two ways (``7`` and ``007``) are one id there, refused as
a duplicate. :func:`match_ids` pairs files' rows by this rule; :func:`no_duplicates` refuses an id twice in one file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Sequence
from decimal import Decimal
from numbers import Integral, Real
from typing import Any

import numpy as np

from ..errors import InputError
from ..numbers import number
from ..words import counted, shown

RULE = ("Ids pair when they are the same number, however written (1, 1.0 and \"1\" are one item), or else the "
        "same text exactly.")
_STARTS = frozenset("+-.0123456789 \t")  # what a number as a file writes it may begin with (numbers.number)
_OWN_ONE = r"(?:0|[1-9][0-9]{0,3999}|[^+\-.0-9 \t\n][^\n]*)"  # an id that is its own key: digits as the rule writes
_OWN = re.compile(rf"{_OWN_ONE}(?:\n{_OWN_ONE})*")  # them, or text that cannot begin a number; lines of them
_PLAIN = 4000  # digits past which a number's key is written with an exponent (1e5000 is no id's plain form)
_LARGEST = 10 ** _PLAIN


def item_key(value: Any) -> Hashable:
    """What ``value``, an id, is as an item: a number as its canonical decimal text (``"1"`` for 1, 1.0, "1.0",
    "01"; ``"0.5"`` for .5), other text as it is, so that two ids are the same item when their keys are equal
    (:func:`same_item`). A bool is 0 or 1; a tuple (lm-eval's (doc_id, filter)) is keyed element by element;
    anything else (None) is itself."""
    if isinstance(value, str):
        if value.isascii() and value.isdigit() and (value[0] != "0" or len(value) == 1) and len(value) <= _PLAIN:
            return value  # the usual id (str methods in C: a regex costs three times as much)
        if not value or value[0] not in _STARTS:  # "x59", "q1": text, never a number
            return value
        try:
            if not math.isfinite(number(value)):  # "nan", "inf": words, not numbers, as ids
                return value
        except (TypeError, ValueError):
            return value
        return _decimal(Decimal(value.strip(" \t")))
    if isinstance(value, (Integral, np.bool_)):  # a bool is 0 or 1, as Python and pandas count it
        n = int(value)
        return str(n) if abs(n) < _LARGEST else _decimal(Decimal(n))
    if isinstance(value, Real):  # a float as it prints, its shortest text (float32's 0.1 is "0.1")
        finite = math.isfinite(value)
        text = str(value if isinstance(value, (float, np.floating)) else float(value))
        return _decimal(Decimal(text)) if finite else text
    if isinstance(value, tuple):
        return tuple(item_key(v) for v in value)
    return value


def same_item(x: Any, y: Any) -> bool:
    """Whether ids ``x`` and ``y`` name the same item (the module's rule)."""
    return item_key(x) == item_key(y)


def item_keys(values: list) -> list:
    """:func:`item_key` of each value, each distinct value keyed once; ``values`` itself (the same list) where
    every id is its own key already (text ids, and numbers written as the rule writes them, as most files do)."""
    if _own(values):
        return values
    try:
        distinct = set(values)
    except TypeError:  # unhashable ids (a list): as they are, for the caller's check to name
        return values
    keys = {}
    for v in distinct:
        key = item_key(v)
        if key is not v and key != v or type(key) is not type(v):
            keys[v] = key
    if not keys:
        return values
    return [keys.get(v, v) for v in values]


def merged(names: Sequence) -> tuple[np.ndarray | None, list, list[tuple]]:
    """Distinct id spellings (a table's ``names``) grouped by item: each name's group, numbered in order of first
    appearance (None where every name is its own item, the usual case), each group's first spelling, and the
    spellings that joined one already seen, as (that one, this one)."""
    if _own(names):
        return None, list(names), []
    keys = [item_key(n) for n in names]
    if len(set(keys)) == len(keys):
        return None, list(names), []
    first: dict = {}
    groups = np.empty(len(keys), dtype=np.int64)
    joined = []
    for k, (key, name) in enumerate(zip(keys, names)):
        if key in first:
            joined.append((names[first[key][1]], name))
        else:
            first[key] = (len(first), k)
        groups[k] = first[key][0]
    return groups, [names[k] for _, k in first.values()], joined


def _own(ids) -> bool:
    """Whether every id is text that is its own key (the usual file: ``"17"``, ``"q17"``), by one regular expression
    over their lines, in C; False where some may not be (the caller then keys them one by one)."""
    try:
        return _OWN.fullmatch("\n".join(ids)) is not None
    except TypeError:  # some id is not text
        return False


def _decimal(d: Decimal) -> str:
    """A number's canonical text: no sign on 0, no leading or trailing zeros, a point only where there is a
    fraction; an exponent only past :data:`_PLAIN` digits."""
    sign, digits, exponent = d.as_tuple()
    text = "".join(map(str, digits)).lstrip("0")
    if not text:
        return "0"
    kept = text.rstrip("0")
    exponent += len(text) - len(kept)
    minus = "-" if sign else ""
    if exponent >= 0:
        return f"{minus}{kept}{'0' * exponent}" if len(kept) + exponent <= _PLAIN else f"{minus}{kept}e{exponent}"
    point = len(kept) + exponent  # digits before the point
    if point > 0:
        return f"{minus}{kept[:point]}.{kept[point:]}"
    return f"{minus}0.{'0' * -point}{kept}" if -point <= _PLAIN else f"{minus}{kept}e{exponent}"


__all__ = ["RULE", "item_key", "item_keys", "match_ids", "merged", "no_duplicates", "same_item"]


def no_duplicates(ids: list, file: str, lines: np.ndarray, keys: list | None = None) -> None:
    """Each id once in a file, by the pairing rule (:mod:`sigcore.io.ids`; ``keys``, its keys of ``ids`` where
    known): ``7`` and ``007`` are one id twice."""
    keys = item_keys(ids) if keys is None else keys
    if len(set(keys)) == len(keys):  # the usual case, in one pass of C
        return
    seen: dict[Any, int] = {}
    for i, key in enumerate(keys):
        if key in seen:
            j = seen[key]
            spelt = str(ids[j]) != str(ids[i])  # one number written two ways
            raise InputError(f"id {ids[i]!r} occurs twice (also on line {int(lines[j])}"
                             + (f", as {ids[j]!r})" if spelt else ")"), file=file, line=int(lines[i]),
                             hint="Ids must be unique within a file." + (f" {RULE}" if spelt else ""))
        seen[key] = i


def match_ids(ids: list[list], tables: list, on_unmatched: str,
              keys: list[list] | None = None) -> tuple[list[np.ndarray], list[str]]:
    """Row indices of each table for the ids all tables share, in the first table's order; ids pair by the one
    rule of this module (the same number however written, or else the same text), and a note names ids
    paired that were written differently (``1.0`` here, ``1`` there)."""
    keys = [item_keys(i) for i in ids] if keys is None else keys
    positions = [{k: i for i, k in enumerate(key)} for key in keys]
    common = set(positions[0]).intersection(*positions[1:])  # one lookup per id below, not one per file
    shared = [k for k in keys[0] if k in common]
    notes = []
    for key, raw, table, pos in zip(keys, ids, tables, positions):
        if len(pos) == len(common):  # every id of this file is in every other
            continue
        unmatched = [k for k in key if k not in common]
        if on_unmatched == "stop":  # the file that lacks them is where to look; the id and its line are here
            lacking, other = next((t, p) for t, p in zip(tables, positions) if unmatched[0] not in p)
            missing = [k for k in key if k not in other]
            first = pos[missing[0]]
            raise InputError(f"lacks {counted(len(missing), 'id')} that {table.name} has (the first is "
                             f"{_show(raw[first])}, {_place(table, first)} of {table.name})",
                             file=lacking.name, hint=f"{RULE} Check that the files come from the same test set, "
                             "or drop the unmatched items ('Drop unmatched items' in the app, --drop-unmatched on "
                             "the command line, on_unmatched='drop' in the API).")
        notes.append(f"dropped {counted(len(unmatched), 'item')} of {table.name} whose ids are not in every file")
    if not shared:
        raise InputError("the files share no ids", file=tables[0].name, hint=f"Check the id column. {RULE}")
    order = [np.array([p[k] for k in shared], dtype=np.intp) for p in positions]
    notes += _respelt(ids, keys, tables, order)
    return order, notes


def _respelt(ids: list[list], keys: list[list], tables: list, order: list[np.ndarray]) -> list[str]:
    """A note for each file that writes some paired ids otherwise than the first file (``1.0`` for ``1``): paired,
    as the same number, and said, with the first of them."""
    notes = []
    first = None
    for raw, key, table, rows in zip(ids[1:], keys[1:], tables[1:], order[1:]):
        if key is raw and keys[0] is ids[0]:  # every id of both is its own key: paired ids are written alike
            continue
        first = first or [str(_raw(ids[0][i])) for i in order[0]]
        differ = [(k, str(_raw(raw[i]))) for k, i in enumerate(rows) if str(_raw(raw[i])) != first[k]]
        if differ:
            k, written = differ[0]
            notes.append(f"{table.name} writes {counted(len(differ), 'id')} otherwise than {tables[0].name}, paired "
                         f"as the same number (the first: {shown(written)} for {shown(first[k])})")
    return notes


def _place(table, row: int) -> str:
    """Where a row is in its file: its line; in an Inspect log (no lines), its place among the log's samples."""
    n = int(table.lines[row])
    return f"sample {n}" if table.format == "inspect" else f"on line {n}"


def _raw(key: Any) -> Any:
    return key[0] if isinstance(key, tuple) and len(key) == 2 and key[1] == "none" else key


def _show(key: Any) -> str:
    return repr(_raw(key))
