"""Reading system outputs from files: plain text (one output per line) and CSV/TSV tables.

Decisions: files are UTF-8 (a leading byte-order mark is dropped); lines are split on "\\n" only and a
trailing "\\r" is dropped, so CRLF files read like LF files, but other whitespace is kept (it can matter
to BLEU); a final newline does not make an extra empty item. Every problem raises
:class:`~sigcore.errors.InputError` naming the file, line and column.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pandas as pd

from .errors import InputError

_BOM = b"\xef\xbb\xbf"


def read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", file=str(path), hint="Check the path.") from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", file=str(path)) from None
    except OSError as e:
        raise InputError(f"cannot be read ({e.strerror})", file=str(path)) from None


def decode(data: bytes, name: str) -> str:
    """UTF-8 text without a BOM; binary or mis-encoded input is refused with its place.

    The place of a bad byte is its line and its column in characters (as an editor shows it), not counting
    the BOM.
    """
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    if not data.strip():
        raise InputError("the file is empty", file=name, hint="Give one output per line.")
    if b"\x00" in data[:8192]:
        raise InputError("the file is binary, not text", file=name,
                         hint="Give a UTF-8 text file (one output per line) or a CSV/TSV table.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        line_start = data.rfind(b"\n", 0, e.start) + 1
        column = len(data[line_start:e.start].decode("utf-8")) + 1  # valid: the first bad byte is e.start
        raise InputError(f"byte 0x{data[e.start]:02x} is not valid UTF-8", file=name, line=line,
                         column=column, hint="Save the file as UTF-8.") from None


def read_lines(path: str | Path) -> list[str]:
    """One item per line."""
    text = decode(read_bytes(path), str(path))
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_table(path: str | Path) -> pd.DataFrame:
    """A CSV or TSV table with a header row, every cell read as text (labels stay as written)."""
    name = str(path)
    text = decode(read_bytes(path), name)
    sep = {".tsv": "\t", ".csv": ","}.get(Path(name).suffix.lower()) or _sniff(text)
    try:
        table = pd.read_csv(io.StringIO(text), sep=sep, dtype=str, keep_default_na=False)
    except pd.errors.ParserError as e:
        quote = re.search(r"EOF inside string starting at row (\d+)", str(e))
        if quote:  # pandas counts rows from 0, the header included
            raise InputError("a quoted field is never closed", file=name, line=int(quote.group(1)) + 1,
                             hint='Close the quote, or write a literal " inside a quoted field as "".') from None
        found = re.search(r"line (\d+), saw (\d+)", str(e))
        line = int(found.group(1)) if found else None
        raise InputError(f"a row has more fields than the header{f' ({found.group(2)})' if found else ''}",
                         file=name, line=line, hint="Quote fields that contain the separator.") from None
    if table.empty:
        raise InputError("the table has a header but no rows", file=name, line=2)
    return table


def column(table: pd.DataFrame, name: str, file: str, role: str) -> list[str]:
    if name not in table.columns:
        raise InputError(f"no column {name!r} for {role}", file=file, line=1,
                         hint=f"The columns are: {', '.join(map(str, table.columns))}.")
    return table[name].tolist()


def _sniff(text: str) -> str:
    try:
        return csv.Sniffer().sniff(text[:4096], delimiters=",;\t").delimiter
    except csv.Error:
        return ","
