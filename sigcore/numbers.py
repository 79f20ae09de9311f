"""What a cell of a file means as a number: digits as a CSV, JSON or a spreadsheet's export writes them.

Python's ``float`` also reads ``1_000`` (as 1000) and full-width and other scripts' digits (``０.５``, ``١``);
a score written so is a typo or a label, not a number, and is left as text, so that
the check that asks for numbers names it.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

__all__ = ["number", "floats"]

_NUMBER = re.compile(r"[ \t]*[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)[ \t]*",
                     re.ASCII | re.IGNORECASE)  # "1, 0.5, 0.3": spaces after commas are common


def number(value: Any) -> float:
    """``value`` as a float: a Python number, or text in :data:`_NUMBER`'s form (an ASCII decimal, ``inf``,
    ``nan``); anything else raises ValueError (TypeError for other objects), as ``float`` does."""
    if isinstance(value, str) and not _NUMBER.fullmatch(value):
        raise ValueError(f"not a number: {value!r}")
    return float(value)


_LOOSE = re.compile(r"[^\x20-\x7e\t]|_")  # what float reads beyond the plain form: "_", other scripts' digits


def floats(values: list) -> np.ndarray | None:
    """Every value as a float in one vectorised pass when each is a plain number, else None (the caller then goes
    value by value with :func:`number`, to name the one that is not)."""
    texts = [v for v in values if isinstance(v, str)]
    if texts and _LOOSE.search("".join(texts)):
        return None
    try:
        return np.array(values, dtype=object).astype(float)
    except (TypeError, ValueError):
        return None
