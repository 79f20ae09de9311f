"""When two ids name the same item: the one pairing rule of every command that pairs items by id, ``compare`` and
``many`` alike (their files, :mod:`sigcore.io.align`; the boards' tidy tables and logs, :mod:`sigcore.leaderboard`
and :mod:`sigcore.logs.tidy`).

Two ids are the same item when they are the same number, however written and in whatever file (``1``, ``1.0``,
``"1"``, ``"1.0"``, ``"01"``, ``"1e0"``), or, when they are not numbers, the same text exactly (``q1`` is neither
``Q1`` nor ``q1 ``). A CSV cell has no type: the ``1`` written there is a JSON log's ``1``, and the ``1.0`` of a
float column (pandas writes one where a column had a gap) is the ``1`` of an integer column. Numbers are compared
exactly, as the decimals written, never through a float, so that long numeric ids (``9007199254740993`` and
``9007199254740992``) stay two items. Ids one file writes two ways (``7`` and ``007``) are one id there, refused as
a duplicate.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from numbers import Integral, Real
from typing import Any, Hashable, Sequence

import numpy as np

from ..numbers import number

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


__all__ = ["RULE", "item_key", "item_keys", "merged", "same_item"]
