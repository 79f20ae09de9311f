"""The one CSV writer: what a spreadsheet opens, with every cell that it would run as a formula neutralised
(OWASP, "CSV Injection"), and the reading that undoes it.

A cell of text starting with ``= + - @``, a tab or a carriage return gets a leading single quote, which a spreadsheet
takes as "this is text" and does not show; so that the quote can be taken off again without loss, a cell of quotes
before such a character gets one more (``'=x`` is written ``''=x`` and read back as ``'=x``). Numbers, and text that
is a plain number (``-0.25``, ``+1``, ``1e-5``), stay as they are, so the data stay numbers; ``-1+cmd`` or ``-inf``
are not plain numbers and are neutralised. Every CSV sigcore writes (the reports' tables, the command line's
``--csv``, the app's downloads, ``sigcore convert``) goes through :func:`table_csv`; a tidy table read back takes the
quote off (:func:`original_cell`).
"""

from __future__ import annotations

import csv
import re
from typing import Any

import pandas as pd

_FORMULA = re.compile(r"'*[=+\-@\t\r]")  # what a spreadsheet runs, behind the quotes this writer may have added
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")

__all__ = ["original_cell", "safe_cell", "table_csv"]


def safe_cell(value: Any) -> Any:
    """A cell a spreadsheet will not run as a formula: text that starts one (after any quotes) gets a leading
    single quote; anything else as it is."""
    if isinstance(value, str) and _FORMULA.match(value) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def original_cell(value: Any) -> Any:
    """What :func:`safe_cell` was given: its added quote taken off."""
    if isinstance(value, str) and value.startswith("'") and _FORMULA.match(value[1:]):
        return value[1:]
    return value


def table_csv(frame: pd.DataFrame) -> bytes:
    """UTF-8 CSV of a table (with its index unless it is the default 0..n-1), every text cell made safe."""
    frame = frame.map(safe_cell)
    frame.columns = frame.columns.map(safe_cell)
    keep_index = not isinstance(frame.index, pd.RangeIndex) or frame.index.name is not None
    if keep_index:
        frame.index = frame.index.map(safe_cell)
        frame.index.name = safe_cell(frame.index.name)
    # a lone \r is no line end for the writer, so it is left unquoted and a spreadsheet starts a row there
    texts = [*frame.columns, *(frame.index if keep_index else []), *frame.to_numpy(dtype=object).ravel()]
    carriage = any(isinstance(v, str) and "\r" in v for v in texts)
    return frame.to_csv(index=keep_index, lineterminator="\n",
                        quoting=csv.QUOTE_NONNUMERIC if carriage else csv.QUOTE_MINIMAL).encode("utf-8")
