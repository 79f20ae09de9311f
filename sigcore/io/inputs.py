"""Reading system outputs from files and uploads: CSV/TSV, JSON lines, JSON, plain text, CoNLL, lm-eval.

``read(source)`` takes a path or the bytes of an upload (never written to disk) and returns a :class:`Table`:
one row per item, and the 1-based line of the file where each row starts (for messages). Decisions:

- Bytes become text in :mod:`sigcore.io.decoding` (gzip, BOMs, declared encodings; binary, empty and
  mis-encoded files refused with their place); a ``.gz`` suffix is dropped before the extension is looked at.
- The format is ``format=`` if given, else the extension, else sniffed from the content (see ``_sniff``).
- CSV/TSV: a header row with non-empty, distinct names is required; every cell is text, as written
  (``007``, ``NA`` and trailing spaces are kept: whitespace can matter to BLEU; comparing labels is a
  later step's concern). A ``.csv`` file may use ``,`` ``;`` or tab: the one that splits the header into
  the most fields (ties: ``,``). Empty lines are skipped; a line of spaces is a row; lines end at "\\n"
  (a lone "\\r" must be quoted). A row with too many or too few fields is refused with its physical line,
  counted even across quoted newlines.
- JSON lines / JSON: each record is an object; values keep their JSON types (numbers stay numbers, nested
  lists stay lists). The columns are the union of the keys, and a record that lacks one is refused, naming
  the line and the key (a missing value is more likely a bug than a meaningful gap). A ``.json`` file is an
  array of objects, or an object of equal-length arrays ``{"gold": [...], "A": [...]}`` (one column each).
- Text: one column ``text``, one row per line, as :func:`read_lines`.
- CoNLL and lm-eval files go to ``sigcore.io.conll.parse`` and ``sigcore.io.lmeval.parse``.

Every problem raises :class:`~sigcore.errors.InputError` (bad arguments: ``SettingsError``) naming the
file, line and column where it has a place, with a hint to fix it.
"""

from __future__ import annotations

import csv
import importlib
import io
import itertools
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, SettingsError
from ..words import listed, shown
from . import inspect_log, jsonlimits
from .archives import gunzip
from .decoding import decode, read_bytes, source_bytes

__all__ = ["MAX_ITEMS", "MAX_COLUMNS", "MAX_CELLS", "FORMATS", "LOGS", "Table", "read", "is_inspect_log", "INDEX",
           "write", "read_lines", "read_table", "column"]

MAX_ITEMS = 2_000_000  # items (lines) in one file: a test set beyond that belongs in a sample, not in memory
MAX_COLUMNS = 10_000  # columns (keys) in one table: systems, seeds and metrics, with room to spare
MAX_CELLS = 20_000_000  # rows x columns of one table, counted before its cells are parsed (some 1.5 GB as text)
FORMATS = {
    "csv": "comma- (or semicolon-) separated table with a header row",
    "tsv": "tab-separated table with a header row",
    "jsonl": "JSON lines: one JSON object per line",
    "json": "a JSON array of objects, or an object of equal-length arrays",
    "text": "plain text, one item per line",
    "conll": "CoNLL columns: one token per line, tags in the last column, a blank line between sentences",
    "lm-eval": "lm-evaluation-harness samples_*.jsonl",
    "inspect": "an Inspect AI log, .eval or .json",
}
LOGS = ("lm-eval", "inspect")  # evaluation logs: each file one model's, its items paired by their ids
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
               ".json": "json", ".txt": "text", **dict.fromkeys((".conll", ".bio", ".iob", ".iob2", ".bioes"), "conll")}
_NO_ROWS = "Give one row per item below the header row."
_TAG = re.compile(r"O|[BIESLU]-\S+")
_WS = re.compile(r"[ \t\n\r]*")
_FIRST_ARRAY = re.compile(r'[ \t\n\r]*\{[ \t\n\r]*"(?:[^"\\]|\\.)*"[ \t\n\r]*:[ \t\n\r]*\[')


@dataclass(frozen=True, eq=False)  # eq=False: comparing DataFrames has no single truth value
class Table:
    name: str            # the file name shown in messages
    format: str          # a key of FORMATS
    frame: pd.DataFrame  # one row per item (per sentence for CoNLL); column names are str
    lines: np.ndarray    # int64, the 1-based line where each row starts
    notes: tuple[str, ...] = ()  # what reading decided that the user should know


def read(source: str | os.PathLike | bytes, *, name: str | None = None, format: str | None = None,
         encoding: str | None = None) -> Table:
    """Read a path, or the bytes of an upload (then ``name`` gives its extension and its name in messages)."""
    data, name = source_bytes(source, name)  # the name in every message, role and system name
    if format is not None and format not in FORMATS:
        raise SettingsError(f"unknown format {format!r}", hint=f"The formats are: {', '.join(FORMATS)}.")
    data = gunzip(data, name)
    if format == "inspect" or format is None and is_inspect_log(data, name):  # a zip: read before decoding
        frame, lines, attrs = inspect_log.parse_bytes(data, name)
        reducer = attrs.pop("reducer")
        frame.attrs.update(attrs)
        other = reducer not in (None, "mean", ["mean"]) and attrs["epochs"] > 1
        return Table(name, "inspect", frame, lines, (f"{name}: Inspect reduced its epochs with {reducer}; sigcore "
                                                     "compares each sample's mean over its epochs, so a model's "
                                                     "score can differ from the one Inspect reports",) if other else ())
    text = decode(data, name, encoding)
    if text.count("\n") > MAX_ITEMS:  # before any parsing spends memory per item
        raise InputError(f"has more than {MAX_ITEMS:,} lines", file=name,
                         hint="Compare a sample of the items, or split the test set.")
    try:
        frame, lines, fmt = _parse(text, name, format)
        frame, notes = _index_column(frame, name, fmt)
        notes = (*notes, *frame.attrs.pop("notes", ()))  # what the format's reader noted
    except RecursionError:  # JSON nested deeper than Python's parser can follow
        raise InputError("nests JSON values too deeply to be read", file=name,
                         hint="Give flat records: labels and outputs as text or numbers, not nested arrays.") from None
    if len(frame) > MAX_ITEMS:
        raise InputError(f"has more than {MAX_ITEMS:,} items", file=name,
                         hint="Compare a sample of the items, or split the test set.")
    return Table(name, fmt, frame, np.asarray(lines, dtype=np.int64), notes)


def is_inspect_log(data: bytes, name: str) -> bool:
    """An Inspect AI log: a zip named .eval, or a JSON object that begins with Inspect's header fields."""
    if data[:4] == b"PK\x03\x04":
        return name.lower().endswith(".eval")
    head = data[:4096].lstrip()  # "version" first, as Inspect writes it; a log without it still has its eval header
    return head.startswith(b"{") and b'"eval"' in head and (
        b'"version"' in head or re.search(rb'"eval"\s*:\s*\{', head) is not None and b'"task"' in head)


_UNNAMED = "\x00unnamed"  # a header's empty first name while reading: pandas' index, if its values say so
INDEX = "(index)"  # the name it is read under: not a column the file names, and said so wherever it shows


def _index_column(frame: pd.DataFrame, name: str, fmt: str) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """A table written by pandas' ``to_csv`` with its index: an unnamed first column of unique values (0..n-1)
    is the id column (dropped where the table has one), with a note; any other unnamed column is refused."""
    if fmt not in ("csv", "tsv") or not len(frame.columns) or frame.columns[0] != _UNNAMED:
        return frame, ()
    values = frame[_UNNAMED]
    if not values.is_unique or (values.str.strip() == "").any():
        raise InputError("column 1 has no name, and its values are not unique ids", file=name, line=1, column=1,
                         hint="Give every column a name in the header row (the first row).")
    if "id" in frame.columns:
        return frame.drop(columns=_UNNAMED), (f"{name}: column 1 has no name (an index, as pandas' to_csv writes it) "
                                              "and the table has an id column: column 1 is left out",)
    counting = values.tolist() == [str(i) for i in range(len(values))]
    kind = "0 to n − 1, as pandas writes its index" if counting else "unique"
    return frame.rename(columns={_UNNAMED: INDEX}), (
        f"{name}: column 1 has no name; its values are {kind}, so it is read as the id column {INDEX!r}",)


def _parse(text: str, name: str, format: str | None) -> tuple[pd.DataFrame, np.ndarray, str]:
    base = Path(name).name.lower().removesuffix(".gz")
    fmt = format or ("lm-eval" if base.startswith("samples_") and base.endswith(".jsonl") else
                     _EXTENSIONS.get(Path(base).suffix) or _sniff(text))
    if format is None and fmt == "jsonl" and _sniff(text) == "lm-eval":  # a renamed samples_*.jsonl
        fmt = "lm-eval"
    if fmt in ("csv", "tsv"):
        frame, lines = _read_delimited(text, name, "\t" if fmt == "tsv" else _header_sep(text))
    elif fmt == "jsonl":
        frame, lines = _read_jsonl(text, name)
    elif fmt == "json":
        frame, lines = _read_json(text, name)
    elif fmt == "text":
        items = _split_lines(text)
        frame, lines = pd.DataFrame({"text": items}, dtype=str), np.arange(1, len(items) + 1)
    else:  # imported here: the parsers live in their own modules and load only when needed
        frame, lines = importlib.import_module(f".{fmt.replace('-', '')}", __package__).parse(text, name)
    return frame, lines, fmt


def write(frame: pd.DataFrame, format: str) -> bytes:
    """UTF-8 bytes that :func:`read` reads back as the same frame (csv, tsv, jsonl, json; text for a
    single ``text`` column without newlines)."""
    if format in ("csv", "tsv"):
        sep = "," if format == "csv" else "\t"
        out = frame.to_csv(sep=sep, index=False, lineterminator="\n")
        if "\r" in out or any(c in str(h) for h in frame.columns for c in ";\t"):
            # csv leaves a lone \r unquoted; a quoted header keeps ; and tab from looking like separators
            out = frame.to_csv(sep=sep, index=False, lineterminator="\n", quoting=csv.QUOTE_ALL)
        return out.encode("utf-8")
    if format in ("jsonl", "json"):
        rows = [json.dumps(r, ensure_ascii=False, default=_native) for r in frame.to_dict("records")]
        body = "\n".join(rows) if format == "jsonl" else "[\n" + ",\n".join(rows) + "\n]"
        return (body + "\n").encode("utf-8")
    if format == "text":
        if list(frame.columns) != ["text"] or frame["text"].str.contains("\n").any():
            raise SettingsError("text needs one column named 'text' without newlines in its cells")
        return ("\n".join(frame["text"]) + "\n").encode("utf-8")
    raise SettingsError(f"cannot write format {format!r}", hint="Write csv, tsv, jsonl, json or text.")


# --- the formats -----------------------------------------------------------------------------------------

def _split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _header_sep(text: str) -> str:
    """The one of , ; tab that splits the header into the most fields (ties: ","), parsed strictly so
    that a quoted name cannot look like more fields."""
    def fields(sep: str) -> int:
        try:
            return len(next((r for r in csv.reader(io.StringIO(text[:65536], newline=""), delimiter=sep,
                                                   strict=True) if r), []))
        except csv.Error:
            return -1
    return max(",;\t", key=fields)


def _check_header(header: list[str], name: str, line: int) -> None:
    if len(header) > 1 and not header[0].strip() and all(f.strip() for f in header[1:]):
        header[0] = _UNNAMED  # pandas' index, perhaps: its values decide (_index_column)
    if len(header) > MAX_COLUMNS:  # before a cell is parsed: the body of such a file can cost minutes
        raise InputError(f"has {len(header):,} columns, more than {MAX_COLUMNS:,}", file=name, line=line,
                         hint="Give one column per system (and the gold and id columns); compare a few at a time.")
    seen: dict[str, int] = {}  # name -> its column: one pass, however many columns
    for i, field in enumerate(header, 1):
        if not field.strip():
            raise InputError(f"column {i} has no name", file=name, line=line, column=i,
                             hint="Give every column a name in the header row (the first row).")
        if field in seen:
            raise InputError(f"column {i} has the same name as column {seen[field]} ({shown(field)})",
                             file=name, line=line, column=i, hint="Give every column a different name.")
        seen[field] = i


def _check_cells(rows: int, columns: int, name: str) -> None:
    if rows * columns > MAX_CELLS:
        raise InputError(f"has {rows:,} rows of {columns:,} columns, more than {MAX_CELLS:,} cells", file=name,
                         hint="Keep the columns you compare (gold, id and the systems), or compare a sample of the "
                              "items.")


def _bad_row(name: str, line: int, n: int, header: list[str], sep: str) -> InputError:
    if n > len(header):
        return InputError(f"a row has more fields than the header ({n})", file=name, line=line,
                          hint=f"Quote fields that contain the separator {sep!r}.")
    return InputError(f"a row has fewer fields than the header ({n}, not {len(header)})", file=name, line=line,
                      hint=f"Give every row one field per column, separated by {sep!r} (a field may be empty).")


def _read_delimited(text: str, name: str, sep: str) -> tuple[pd.DataFrame, np.ndarray]:
    """numpy finds the records and counts their fields (a newline or separator after an even number of
    quotes is outside quoted fields), pandas' C parser reads the cells; files whose quotes are not all at
    field boundaries go to Python's csv module instead."""
    data = text.encode("utf-8")
    raw, d = np.frombuffer(data, np.uint8), ord(sep)
    quotes = np.flatnonzero(raw == 34)
    opening, closing = quotes[0::2], quotes[1::2]
    before, after = raw[np.maximum(opening - 1, 0)], raw[np.minimum(closing + 1, len(raw) - 1)]
    if (text.count("\r") != text.count("\r\n")  # a lone \r breaks a line for pandas only
            or not np.all((opening == 0) | (before == d) | (before == 10) | (before == 34))
            or not np.all((closing == len(raw) - 1) | (after == d) | (after == 10) | (after == 13) | (after == 34))):
        return _read_quoted(text, name, sep)
    breaks = np.flatnonzero(raw == 10)
    ends = breaks[np.searchsorted(quotes, breaks) % 2 == 0]
    starts = np.r_[0, ends + 1]
    starts = starts[starts < len(raw)]
    stops = np.r_[starts[1:] - 1, len(raw) - (raw[-1] == 10)]
    empty = (stops == starts) | ((stops == starts + 1) & (raw[np.minimum(starts, len(raw) - 1)] == 13))
    lines = np.searchsorted(breaks, starts) + 1  # physical line of each record's start
    if len(quotes) % 2:
        record = np.searchsorted(starts, quotes[-1], "right") - 1
        raise InputError("a quoted field is never closed", file=name, line=int(lines[record]),
                         hint='Close the quote, or write a literal " inside a quoted field as "".')
    seps = np.flatnonzero(raw == d)
    seps = seps[np.searchsorted(quotes, seps) % 2 == 0]
    fields = np.bincount(np.searchsorted(starts, seps, "right") - 1, minlength=len(starts)) + 1
    first = int(np.argmin(empty))  # the header: decode() refused files with no non-empty line
    header = next(csv.reader([data[starts[first]:stops[first]].decode("utf-8").removesuffix("\r")], delimiter=sep))
    _check_header(header, name, int(lines[first]))
    rows = first + 1 + np.flatnonzero(~empty[first + 1:])
    _check_cells(len(rows), len(header), name)
    bad = rows[fields[rows] != len(header)]
    if bad.size:
        raise _bad_row(name, int(lines[bad[0]]), int(fields[bad[0]]), header, sep)
    if not rows.size:
        raise InputError("the table has a header but no rows", file=name, line=int(lines[first]) + 1 +
                         data.count(b"\n", starts[first], stops[first]), hint=_NO_ROWS)
    frame = pd.read_csv(io.BytesIO(data[starts[first]:] if first else data), sep=sep, header=0, names=header,
                        dtype=str, na_filter=False, skip_blank_lines=False, index_col=False)
    if len(frame) != len(starts) - first - 1:  # pandas saw other records: trust the csv module
        return _read_quoted(text, name, sep)
    if len(rows) != len(frame):  # empty lines became rows of "" (pandas skips lines of spaces too)
        frame = frame[~empty[first + 1:]].reset_index(drop=True)
    return frame, lines[rows]


def _read_quoted(text: str, name: str, sep: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Python's csv module, which knows where each record starts even when quoted fields span lines."""
    limit = csv.field_size_limit(sys.maxsize)  # a long document in one cell is legitimate
    try:
        reader = csv.reader(io.StringIO(text, newline="\n"), delimiter=sep)  # lines end at \n only
        header, rows, lines, bad, end = None, [], [], None, 0
        for record in reader:
            start, end = end + 1, reader.line_num
            if not record:
                continue
            if header is None:
                header, head_line = record, start
            else:
                rows.append(record)
                lines.append(start)
                if len(rows) % 100_000 == 0:
                    _check_cells(len(rows), len(header), name)
                if bad is None and len(record) != len(header):
                    bad = len(rows) - 1
    except csv.Error as e:
        raise InputError(f"cannot be read as a table ({str(e).split(' - ')[0]})", file=name, line=reader.line_num,
                         hint="End lines with \\n or \\r\\n, and quote fields that hold a \\r.") from None
    finally:
        csv.field_size_limit(limit)
    _check_header(header, name, head_line)
    if rows and bad in (None, len(rows) - 1) and text.count('"') % 2 and _unclosed(text, lines[-1], sep):
        raise InputError("a quoted field is never closed", file=name, line=lines[-1],
                         hint='Close the quote, or write a literal " inside a quoted field as "".')
    if bad is not None:
        raise _bad_row(name, lines[bad], len(rows[bad]), header, sep)
    if not rows:
        raise InputError("the table has a header but no rows", file=name, line=end + 1, hint=_NO_ROWS)
    return pd.DataFrame(dict(zip(header, map(list, zip(*rows)))), dtype=str), np.array(lines)


def _unclosed(text: str, line: int, sep: str) -> bool:
    """Whether the record that starts at ``line`` runs into the end of the file inside quotes."""
    breaks = itertools.islice(re.finditer("\n", text), line - 2, None)
    tail = text[next(breaks).end():] if line > 1 else text
    try:
        list(csv.reader(io.StringIO(tail, newline="\n"), delimiter=sep, strict=True))
    except csv.Error as e:
        return "unexpected end of data" in str(e)
    return False


def _read_jsonl(text: str, name: str) -> tuple[pd.DataFrame, np.ndarray]:
    raw = text.split("\n")
    numbers = [i for i, line in enumerate(raw, 1) if line.strip()]
    body = [raw[i - 1] for i in numbers]
    jsonlimits.check(text, name)
    try:  # one parse of the whole file is several times faster than a parse per line
        records = json.loads("[" + ",".join(body) + "]", **jsonlimits.HOOKS)
    except ValueError:
        records = []
    if len(records) != len(body):  # something is wrong: find the line
        for number, line in zip(numbers, body):
            try:
                json.loads(line, **jsonlimits.HOOKS)
            except json.JSONDecodeError as e:
                raise InputError(f"not valid JSON ({e.msg})", file=name, line=number, column=e.colno,
                                 hint='Write one JSON object per line, e.g. {"gold": "pos", "A": "neg"}.') from None
            except ValueError as e:
                raise jsonlimits.refusal(e, line, name, number) or e from None
    return _records(records, numbers, name), np.array(numbers)


def _records(records: list, lines: list[int], name: str) -> pd.DataFrame:
    def item(i: int) -> int | None:  # an item's position where its line holds others (a one-line array)
        return i + 1 if lines[max(i - 1, 0):i + 2].count(lines[i]) > 1 else None

    for i, record in enumerate(records):
        if type(record) is not dict:
            raise InputError(f"a record is a JSON {type(record).__name__}, not an object", file=name,
                             line=lines[i], item=item(i),
                             hint='Give each item as an object with one key per column, e.g. {"gold": "pos"}.')
    keys = list(dict.fromkeys(k for r in records for k in r))
    if len(keys) > MAX_COLUMNS:
        raise InputError(f"the records have {len(keys):,} keys, more than {MAX_COLUMNS:,}", file=name,
                         hint="Give one key per system (and the gold and id keys); compare a few at a time.")
    if not keys:
        raise InputError("the records have no keys", file=name, line=lines[0] if lines else None)
    if any(len(r) != len(keys) for r in records):
        i, key = next((i, k) for i, r in enumerate(records) for k in keys if k not in r)
        raise InputError(f"the record has no key {shown(key)}", file=name, line=lines[i], item=item(i),
                         hint=f"Every record needs every key ({listed(keys)}); use null for a missing value.")
    return pd.DataFrame({k: [r[k] for r in records] for k in keys})


def _tool_summary(data: Any) -> tuple[str, str] | None:
    """(what it is, what to give instead) for a file an evaluation tool writes beside its per-item outputs, which
    holds totals or settings only: a paired test needs each item's score."""
    if isinstance(data, dict) and isinstance(data.get("results"), dict) and {"configs", "versions",
                                                                               "n-samples"} & set(data):
        return ("this is lm-evaluation-harness's results file: it holds only totals, one score per task, and a "
                "paired test needs each item's", "Run lm_eval with --log_samples and give its output folder (or the "
                "samples_<task>_<date>.jsonl files it writes beside this one).")
    helm = ("this is one file of a HELM run folder (run_spec.json, stats.json, per_instance_stats.json, "
            "scenario.json, scenario_state.json), which is read whole",
            "Give the run folder itself (benchmark_output/runs/SUITE/RUN), or the benchmark_output folder or its zip.")
    if isinstance(data, dict) and ({"scenario_spec", "adapter_spec"} <= set(data) or "request_states" in data
                                   or {"definition_path", "tags"} <= set(data)):
        return helm
    first = data[0] if isinstance(data, list) and data else None
    if isinstance(first, dict) and (isinstance(first.get("name"), dict) and "count" in first
                                    or "instance_id" in first and "stats" in first):
        return helm
    return None


def _read_json(text: str, name: str) -> tuple[pd.DataFrame, np.ndarray]:
    jsonlimits.check(text, name, MAX_ITEMS)
    try:
        data = json.loads(text, **jsonlimits.HOOKS)
        whose = _tool_summary(data)
        if isinstance(data, list) and not whose:  # scanned again to know where each record starts
            lines = _lines_of(text, _json_array(text, _WS.match(text).end())[1])
            return _records(data, lines, name), np.array(lines)
    except json.JSONDecodeError as e:
        raise InputError(f"not valid JSON ({e.msg})", file=name, line=e.lineno, column=e.colno,
                         hint="Check the JSON with a validator; lines and columns count from 1.") from None
    except ValueError as e:
        raise jsonlimits.refusal(e, text, name) or e from None
    if whose:
        raise InputError(whose[0], file=name, hint=whose[1])
    if not isinstance(data, dict) or not data or not all(isinstance(v, list) for v in data.values()):
        raise InputError("a JSON file must hold an array of objects, or an object of arrays", file=name, line=1,
                         hint='Write [{"gold": "pos", "A": "neg"}, ...] or {"gold": [...], "A": [...]}.')
    if len(data) > MAX_COLUMNS:
        raise InputError(f"has {len(data):,} columns, more than {MAX_COLUMNS:,}", file=name, line=1,
                         hint="Give one array per system (and the gold and id arrays); compare a few at a time.")
    first, n = next(iter(data)), len(next(iter(data.values())))
    _check_cells(n, len(data), name)
    for key, values in data.items():
        if len(values) != n:
            raise InputError(f"column {key!r} has {len(values)} values, not {n} like {first!r}", file=name,
                             hint="Give every column one value per item.")
    start = _FIRST_ARRAY.match(text).end() - 1  # rows start on their lines in the first array
    return pd.DataFrame(data), np.array(_lines_of(text, _json_array(text, start)[1]))


def _json_array(text: str, pos: int) -> tuple[list, list[int]]:
    """The values of the valid JSON array at ``pos``, and the offset where each starts."""
    decoder, values, starts = json.JSONDecoder(), [], []
    pos = _WS.match(text, pos + 1).end()
    while not text.startswith("]", pos):
        value, end = decoder.raw_decode(text, pos)
        values.append(value)
        starts.append(pos)
        pos = _WS.match(text, end).end()
        pos = _WS.match(text, pos + 1).end() if text.startswith(",", pos) else pos
    return values, starts


def _lines_of(text: str, offsets: list[int]) -> list[int]:
    """1-based lines of increasing character offsets, in one pass over the text."""
    lines, line, prev = [], 1, 0
    for offset in offsets:
        line += text.count("\n", prev, offset)
        lines.append(line)
        prev = offset
    return lines


def _native(value):  # numpy scalars in a frame are not JSON serialisable
    return value.item() if isinstance(value, np.generic) else str(value)


# --- detection from content ------------------------------------------------------------------------------

def _sniff(text: str) -> str:
    """JSON (``[`` or a ``{`` that is not one object per line), JSON lines (lm-eval when the records have
    ``doc_id`` and ``filtered_resps``), CoNLL (whitespace columns, blank lines between sentences, tags such
    as O, B-X, I-X, E-X, S-X in the last column), CSV/TSV (``csv.Sniffer`` finds ``,`` ``;`` or tab, every
    row has the header's number of fields, at least two, and the header's names are distinct and
    non-empty and not all numbers), else text. Only the first 64 KiB are looked at."""
    head = text[:65536]
    lines = _split_lines(head)
    if len(text) > len(head) and len(lines) > 1:
        lines.pop()  # it may be cut
    filled = [line for line in lines if line.strip()]
    if head.lstrip().startswith("["):
        return "json"
    if head.lstrip().startswith("{"):
        try:
            records = [json.loads(line) for line in filled[:20]]
        except (ValueError, RecursionError):  # the reader says what is wrong, and where
            return "json"
        if all(type(r) is dict for r in records):
            return "lm-eval" if {"doc_id", "filtered_resps"} <= records[0].keys() else "jsonl"
        return "json"
    tokens = [line.split() for line in filled if not line.startswith("#")]
    inner = lines[lines.index(filled[0]):len(lines) - lines[::-1].index(filled[-1])]
    if (tokens and len({len(t) for t in tokens}) == 1 and len(tokens[0]) >= 2 and len(inner) > len(filled)
            and all(_TAG.fullmatch(t[-1]) for t in tokens)):
        return "conll"
    try:
        sep = csv.Sniffer().sniff(head[:8192].rsplit("\n", 1)[0] if "\n" in head else head, ",;\t").delimiter
    except csv.Error:
        return "text"
    records = [r for r in itertools.islice(csv.reader(io.StringIO("\n".join(lines), newline=""),
                                                       delimiter=sep), 50) if r]
    header = records[0] if records else []
    if (len(records) >= 2 and len(header) >= 2 and all(len(r) == len(header) for r in records)
            and all(h.strip() for h in header) and len(set(header)) == len(header)
            and not all(re.fullmatch(r"\s*[-+.\d]+\s*", h) for h in header)):
        return "tsv" if sep == "\t" else "csv"
    return "text"


# --- the command line's helpers --------------------------------------------------------------------------

def read_lines(path: str | Path) -> list[str]:
    """One item per line (gzip or not)."""
    return _split_lines(decode(gunzip(read_bytes(path), str(path)), str(path)))


def read_table(path: str | Path) -> pd.DataFrame:
    """A table by its extension (csv, tsv, jsonl, json); any other file is read as CSV, its separator
    taken from the header."""
    fmt = _EXTENSIONS.get(Path(str(path).lower().removesuffix(".gz")).suffix)
    return read(path, format=fmt if fmt in ("csv", "tsv", "jsonl", "json") else "csv").frame


def column(table: pd.DataFrame, name: str, file: str, role: str) -> list[str]:
    if name not in table.columns:
        raise InputError(f"no column {shown(name)} for {role}", file=file, line=1,
                         hint=f"The columns are: {listed(list(table.columns))}.")
    return table[name].tolist()
