"""Sentences from CoNLL-style column files, one row per sentence.

The layout is the one of the CoNLL-2000 and CoNLL-2003 shared tasks (Tjong Kim Sang & Buchholz 2000,
"Introduction to the CoNLL-2000 Shared Task: Chunking"; Tjong Kim Sang & De Meulder 2003, "Introduction to
the CoNLL-2003 Shared Task: Language-Independent Named Entity Recognition"): one token per line, columns
separated by tabs or spaces, a blank line between sentences (several blank lines are one break).

- ``-DOCSTART-`` lines end the running sentence and are skipped, with the blank line after them.
- A line starting with ``#`` where a sentence may start (before its first token) is a comment, as in
  CoNLL-U. Inside a sentence it is a token line, so a hashtag token such as ``#nlp`` survives; a
  sentence whose *first* token starts with ``#`` cannot be written in this format.
- The file's first line may be a header comment naming the columns, ``# tokens gold A B``. It is taken
  as a header when it has exactly as many names as the file has columns and no ``=`` (so CoNLL-U metadata
  such as ``# sent_id = 1`` stays a comment); otherwise it is an ordinary comment.
- Without a header the columns are named by :func:`default_names`: 1 -> ``tags``; 2 -> ``tokens, tags``;
  3 -> ``tokens, gold, pred``; 4 or more -> ``tokens, gold, pred1, pred2, ...``. A CoNLL-2003 file
  (token, POS, chunk, NER) therefore comes out as ``tokens, gold, pred1, pred2``: rename the columns, or
  add a header line such as ``# tokens pos chunk ner``.

Each cell of the frame is a Python list of str, one entry per token of the sentence.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..errors import InputError
from .inputs import MAX_COLUMNS

__all__ = ["DOCSTART", "default_names", "parse", "write"]

DOCSTART = "-DOCSTART-"
_SEPARATOR = re.compile(r"[ \t]+")
# Only spaces and tabs separate columns, so a token may hold a no-break space or other Unicode space.
_UNWRITABLE = re.compile(r"[ \t\r\n]")


def default_names(width: int) -> list[str]:
    """Column names for a file of ``width`` columns without a header comment."""
    fixed = {1: ["tags"], 2: ["tokens", "tags"], 3: ["tokens", "gold", "pred"]}
    return fixed.get(width) or ["tokens", "gold"] + [f"pred{i}" for i in range(1, width - 1)]


def _fields(line: str) -> list[str]:
    stripped = line.strip(" \t")
    return _SEPARATOR.split(stripped) if stripped else []


def parse(text: str, name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Sentences of a CoNLL column file: a frame with one list-of-str column per file column, one row per
    sentence, and the int64 array of the 1-based line of each sentence's first token."""
    sentences: list[list[list[str]]] = []
    starts: list[int] = []
    current: list[list[str]] | None = None
    header: tuple[int, list[str]] | None = None
    width = first_line = 0
    seen_content = False
    for number, raw in enumerate(text.split("\n"), start=1):
        fields = _fields(raw.rstrip("\r"))
        if not fields or fields[0] == DOCSTART:
            current = None
            seen_content = seen_content or bool(fields)
            continue
        if current is None and fields[0].startswith("#"):
            if not seen_content:
                header = (number, _fields(" ".join(fields)[1:]))
            seen_content = True
            continue
        seen_content = True
        if not width:
            width, first_line = len(fields), number
        elif len(fields) != width:
            hint = "Give every token line the same columns, separated by tabs or spaces; tokens cannot contain spaces."
            if fields[0].startswith("#"):
                hint += " A line starting with '#' inside a sentence is a token; put comments after a blank line."
            raise InputError(f"found {len(fields)} columns, expected {width} as on line {first_line}",
                             file=name, line=number, column=min(len(fields), width) + 1, hint=hint)
        if current is None:
            current = []
            sentences.append(current)
            starts.append(number)
        current.append(fields)
    if not sentences:
        raise InputError("the file has no tokens", file=name,
                         hint="Give one token per line with its tags in columns, and a blank line between sentences.")
    if width > MAX_COLUMNS:
        raise InputError(f"has {width:,} columns, more than {MAX_COLUMNS:,}", file=name, line=int(starts[0]),
                         hint="Give the tokens, the gold tags and each system's tags: one column each.")
    names = default_names(width)
    if header is not None and len(header[1]) == width and "=" not in header[1]:
        names, seen = header[1], {}
        for column, column_name in enumerate(names, start=1):
            if column_name in seen:  # a dict: one pass, however many columns
                raise InputError(f"the header names column {column_name!r} twice", file=name, line=header[0],
                                 column=column, hint="Give each column a different name in the header comment.")
            seen[column_name] = column
    frame = pd.DataFrame({column_name: [[token[j] for token in sentence] for sentence in sentences]
                          for j, column_name in enumerate(names)})
    return frame, np.asarray(starts, dtype=np.int64)


def write(frame: pd.DataFrame) -> str:
    """A CoNLL column file (header comment, tab-separated columns, a blank line after each sentence) that
    :func:`parse` reads back into ``frame``; raises :class:`InputError` for what the format cannot hold."""
    names = [str(column) for column in frame.columns]
    if not names or len(set(names)) != len(names) or any(not n or _UNWRITABLE.search(n) or n == "=" for n in names):
        raise InputError(f"column names {names} cannot be written as a header",
                         hint="Use distinct, non-empty column names without spaces.")
    out = ["# " + " ".join(names)]
    for i, row in enumerate(zip(*(frame[column] for column in frame.columns)), start=1):
        lengths = {len(cell) for cell in row}
        if len(lengths) != 1 or 0 in lengths:
            raise InputError(f"sentence {i} has no tokens or columns of different lengths ({sorted(lengths)})",
                             line=i, hint="Give every column of a sentence one entry per token.")
        for j, fields in enumerate(zip(*row)):
            bad = [f for f in fields if not isinstance(f, str) or not f or _UNWRITABLE.search(f)]
            # These first fields would be read back as a comment or a document break.
            if bad or fields[0] == DOCSTART or (j == 0 and fields[0].startswith("#")):
                raise InputError(f"token {j + 1} of sentence {i} cannot be written: {list(fields)!r}", line=i,
                                 hint="Entries must be non-empty strings without spaces, tabs or line breaks; "
                                      f"a sentence cannot start with '#' and no token can be {DOCSTART}.")
            out.append("\t".join(fields))
        out.append("")
    return "\n".join(out) + "\n"
