"""The values of a column as the engine takes them: blanks found, gold checked, numbers against text reconciled.

- A blank or missing gold value is an error, with its line; a blank or missing prediction is kept as "" (a wrong
  answer) and reported in the notes.
- Numeric labels against text labels (1 against "1") are compared as text, with a note.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from ..numbers import number

__all__ = ["same_label", "is_blank", "distinct", "blank_items", "checked_gold", "kept_outputs", "same_kind", "as_text",
           "objects", "column_values", "is_numeric", "is_number"]


def same_label(x: Any, y: Any) -> bool:
    """Two gold values as files write them: 3, 3.0 and "3 " are one label; lists (tags) compare as they are."""
    if isinstance(x, (str, int, float)) and isinstance(y, (str, int, float)):
        return str(as_text(x)).strip() == str(as_text(y)).strip()
    return x == y


def is_blank(value: Any) -> bool:
    """None, NaN, or text of spaces only: an empty table cell as readers give it."""
    return value is None or (isinstance(value, float) and math.isnan(value)) or (isinstance(value, str)
                                                                                 and not value.strip())


def distinct(values: list) -> list:
    """The values, each once where they can be hashed (a million labels are a few kinds)."""
    try:
        return list(set(values))
    except TypeError:
        return values


def blank_items(values: list) -> list[int]:
    """The items whose value is blank (None, NaN, empty or spaces), each distinct value looked at once."""
    try:
        missing = {v for v in set(values) if is_blank(v)}
    except TypeError:  # unhashable values (token lists): one by one
        return [i for i, v in enumerate(values) if is_blank(v)]
    return [i for i, v in enumerate(values) if v in missing] if missing else []


def checked_gold(values: list, file: str, lines: np.ndarray) -> list:
    """Gold values as given; the first blank one is refused with its line (``lines``: each item's in ``file``)."""
    for i in blank_items(values)[:1]:
        raise InputError("the gold value is blank", file=file, line=int(lines[i]),
                         hint="Every item needs a gold label or reference; remove the item or fill it in.")
    return values


def kept_outputs(values: list, who: str, lines: np.ndarray, notes: list[str]) -> list:
    """A system's outputs with each blank one as "" (a wrong answer), said in ``notes`` with its lines."""
    blank = blank_items(values)
    if blank:
        where = ", ".join(str(int(lines[i])) for i in blank[:5]) + (", ..." if len(blank) > 5 else "")
        notes.append(f"{who} has {len(blank)} blank outputs (line {where}): a label metric counts them as "
                     "wrong answers; the mean refuses them")
        values = list(values)
        for i in blank:
            values[i] = ""
    return values


def same_kind(gold: list | None, systems: list[list], notes: list[str]):
    """Numbers against text (1 against "1"): compare both as text rather than never matching."""
    columns = ([gold] if gold is not None else []) + systems
    kinds = [pd.api.types.infer_dtype(c, skipna=True) for c in columns]
    numeric = [k in ("integer", "floating", "mixed-integer-float") for k in kinds]
    if any(numeric) and not all(numeric) and any(k == "string" for k in kinds):
        notes.append("some files give labels as numbers and others as text; all are compared as text")
        columns = [[as_text(v) for v in c] if num else c for c, num in zip(columns, numeric)]
    return (columns[0] if gold is not None else None), columns[1 if gold is not None else 0:]


def as_text(value: Any) -> Any:
    """A number as a file writes it (3.0 as "3"); anything else as it is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value) if isinstance(value, (int, float)) else value


def objects(column: pd.Series) -> np.ndarray:
    """A column as an object array in which a repeated label is one Python object: a million labels of four kinds
    take 8 bytes an item, not some 60 (the command line held 742 MB for a 10⁶-row CSV). Mostly distinct text
    (translations, ids) is taken as it is."""
    if not pd.api.types.is_string_dtype(column.dtype) or column.dtype == object:
        return column.to_numpy(dtype=object)
    codes, uniques = pd.factorize(column)
    if len(uniques) * 2 > len(column) or (codes < 0).any():
        return column.to_numpy(dtype=object)
    return np.asarray(uniques, dtype=object)[codes]


def column_values(column: pd.Series) -> list:
    """A column as a list, a repeated label one object (:func:`objects`)."""
    return objects(column).tolist()


def is_numeric(value: Any) -> bool:
    """A number, finite or not ("nan", "inf" and "1e999" included)."""
    try:
        number(value)
        return not isinstance(value, bool)
    except (TypeError, ValueError):
        return False


def is_number(value: Any) -> bool:
    """A finite number, however written (3, "3.5", "1e-5")."""
    try:
        return math.isfinite(number(value))
    except (TypeError, ValueError):
        return False
