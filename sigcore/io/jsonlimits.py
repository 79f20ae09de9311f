"""What a JSON file may cost before it is parsed, and the numbers JSON may hold, each refused with its place.

- Structure, in one vectorised pass over the bytes (no Python object per value): nesting deeper than
  ``MAX_DEPTH`` is refused (it overflowed Python's stack when a page's cache was pickled), and so is an array
  with more items than a file may hold, before its 2 million objects cost gigabytes.
- Numbers: an integer longer than ``MAX_DIGITS`` is larger than any float, so it is neither a score nor a
  sensible id; it is refused with its line and column and quoted cut short, never echoed whole.
- Keys: an object with a key twice is refused (JSON keeps the last one, which replaced a system's column).
  ``json.loads(text, **HOOKS)`` parses with both checks; :func:`refusal` turns what they raise into an InputError.
"""

from __future__ import annotations

import json
import re

import numpy as np

from ..errors import InputError

MAX_DEPTH = 64  # a record, its lists and their objects: real logs nest a few levels
MAX_DIGITS = 309  # the largest float, 1.8e308, has 309 digits
_LONG = re.compile(r"-?\d{%d,}" % (MAX_DIGITS + 1))
_QUOTE, _BACKSLASH = 34, 92
_STEPS = np.zeros(256, np.int8)  # the change in depth at each byte: [ and { open, ] and } close
_STEPS[list(b"[{")], _STEPS[list(b"]}")] = 1, -1


class _LongNumber(ValueError):
    """Raised from inside json's parser; the caller turns it into an InputError with the number's place."""


def integer(digits: str) -> int:
    """``parse_int`` for :func:`json.loads`: Python's own limit (4,300 digits) came out as a bare ValueError."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


class _DuplicateKey(ValueError):
    """An object with a key twice: json keeps the last, so a column could be replaced without a word."""


def _object(pairs: list) -> dict:
    record = dict(pairs)
    if len(record) != len(pairs):
        seen = set()
        raise _DuplicateKey(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return record


# NaN and Infinity are not JSON: kept as the text written, so that a score of NaN is named as such, not as a blank
HOOKS = {"parse_int": integer, "object_pairs_hook": _object, "parse_constant": str}  # json.loads(text, **HOOKS)


def refusal(error: ValueError, text: str, name: str, first_line: int = 1) -> InputError | None:
    """The InputError for a number :func:`integer` refused or a key :data:`HOOKS` found twice (``text`` is what
    was parsed, starting on ``first_line``), or None when ``error`` is another problem."""
    if isinstance(error, _DuplicateKey):
        key = str(error)
        pattern = re.compile(r'"%s"\s*:' % re.escape(json.dumps(key)[1:-1]))
        found = pattern.search(text)
        second = pattern.search(text, found.end()) if found else None  # in the same object or not: a hint
        start = second.start() if second else 0
        return InputError(f"an object has the key {json.dumps(key)} twice (JSON keeps the last one)", file=name,
                          line=first_line + text.count("\n", 0, start), column=start - text.rfind("\n", 0, start),
                          hint="Give each key once in every record.")
    if not isinstance(error, _LongNumber) and "integer string conversion" not in str(error):
        return None
    found = _LONG.search(text)
    start = found.start() if found else 0
    line = first_line + text.count("\n", 0, start)
    digits = len(found.group().lstrip("-")) if found else len(str(error))
    return InputError(f"holds a number with {digits:,} digits ({text[start:start + 12]}...), larger than any float",
                      file=name, line=line, column=start - text.rfind("\n", 0, start),
                      hint="Give scores as ordinary numbers, and ids as text if they are that long.")


def check(text: str, name: str, max_items: int | None = None) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and, for one JSON value (``max_items`` given), an array of
    more than ``max_items`` items at its first or second level, before the text is parsed."""
    raw = np.frombuffer(text.encode("utf-8"), np.uint8)
    quote = raw == _QUOTE  # whole-array comparisons: indexing by millions of positions costs far more
    backslash = raw == _BACKSLASH
    escaped = np.flatnonzero(quote[1:] & backslash[:-1]) + 1
    if escaped.size:  # a quote after an odd run of backslashes is inside its string
        single = ~backslash[np.maximum(escaped - 2, 0)] | (escaped < 2)  # \" : the common case, without a loop
        odd = np.r_[escaped[single], [q for q in escaped[~single].tolist() if _run(raw, q) % 2]]
        quote[odd.astype(np.intp)] = False
    inside = np.bitwise_xor.accumulate(quote)  # True from an opening quote to its closing one
    marks = np.flatnonzero(~inside & ((raw == 44) | (raw == 91) | (raw == 93) | (raw == 123) | (raw == 125)))
    kinds = raw[marks]
    depth = np.cumsum(_STEPS[kinds], dtype=np.int32)
    if depth.size and depth.max() > MAX_DEPTH:
        at = int(marks[np.argmax(depth > MAX_DEPTH)])
        line = text.count("\n", 0, at) + 1 if text.isascii() else int(np.count_nonzero(raw[:at] == 10)) + 1
        column = at - int(np.flatnonzero(raw[:at] == 10)[-1]) if line > 1 else at + 1
        raise InputError(f"nests JSON values more than {MAX_DEPTH} deep", file=name, line=line, column=column,
                         hint="Give flat records: labels and outputs as text or numbers, not nested arrays.")
    if max_items is None:
        return
    levels = depth[kinds == 44]  # the depth of each comma
    keys = int(np.count_nonzero(levels == 1)) + 1
    for items in (keys, (int(np.count_nonzero(levels == 2)) + keys) // keys):  # an array, or an object of arrays
        if items > max_items:
            raise InputError(f"has more than {max_items:,} items", file=name,
                             hint="Compare a sample of the items, or split the test set.")


def _run(raw: np.ndarray, quote: int) -> int:
    """The number of backslashes just before position ``quote``."""
    start = quote
    while start > 0 and raw[start - 1] == _BACKSLASH:
        start -= 1
    return quote - start
