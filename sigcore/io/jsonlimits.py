"""What a JSON file may cost before it is parsed, and the numbers JSON may hold, each refused with its place.

- Structure, in one vectorised pass over the bytes, block by block (no Python object per value): nesting deeper
  than ``MAX_DEPTH`` is refused (it overflowed Python's stack when a page's cache was pickled), and so is an array
  with more items than a file may hold, before its 2 million objects cost gigabytes.
- Numbers: an integer longer than ``MAX_DIGITS`` is larger than any float, so it is neither a score nor a
  sensible id; it is refused with its line and column and quoted cut short, never echoed whole.
- Keys: an object with a key twice is refused (JSON keeps the last one, which replaced a system's column).
  ``json.loads(text, **HOOKS)`` parses with both checks; :func:`refusal` turns what they raise into an InputError.
- Fields: :func:`expect` checks that a field a reader uses is of the kind it must be (a list where a list is read),
  else an InputError naming the file, the place in it (a member, a sample) and the field, never a TypeError.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from ..errors import InputError
from ..words import printable

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "integer", "HOOKS", "refusal", "loads", "check", "BLOCK", "finite",
           "kind", "expect", "quoted"]

MAX_DEPTH = 64  # a record, its lists and their objects: real logs nest a few levels
MAX_DIGITS = 309  # the largest float, 1.8e308, has 309 digits
_LONG = re.compile(rf"-?\d{{{MAX_DIGITS + 1},}}")
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
        pattern = re.compile(rf'"{re.escape(json.dumps(key)[1:-1])}"\s*:')
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


def loads(data: bytes, name: str, where: str = "", hint: str | None = None) -> Any:
    """A JSON file's value (a log's, a results file's, a member of an archive: ``where`` names it, "header.json"),
    its nesting checked before the parser recurses into it and its numbers and keys by :data:`HOOKS`; bytes that
    are not UTF-8, or text that is not JSON, refused with their place."""
    said = f"{where} is" if where else "is"
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise InputError(f"{said} not UTF-8 text (byte 0x{data[e.start]:02x} at {e.start:,})", file=name,
                         hint=hint) from None
    check(text, name)
    try:
        return json.loads(text, **HOOKS)
    except RecursionError:  # deeper than Python's parser follows, within MAX_DEPTH's brackets: not from a file
        raise InputError(f"{said} nested too deeply to be read", file=name, hint=hint) from None
    except ValueError as e:
        refused = refusal(e, text, name)
        if refused is not None:
            raise refused from None
        if isinstance(e, json.JSONDecodeError):
            raise InputError(f"{said} not valid JSON ({e.msg})", file=name, line=e.lineno, column=e.colno,
                             hint=hint) from None
        raise InputError(f"{said} not valid JSON ({e})", file=name, hint=hint) from None


def check(text: str, name: str, max_items: int | None = None) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and, for one JSON value (``max_items`` given), an array of
    more than ``max_items`` items at its first or second level, before the text is parsed; block by block, so
    that its arrays cost a bounded multiple of ``BLOCK``, not of the file."""
    depth, inside, commas = 0, False, [0, 0]  # carried from block to block: the depth, in a string or not
    for start, raw in _blocks(text):
        quote = raw == _QUOTE  # whole-array comparisons: indexing by millions of positions costs far more
        backslash = raw == _BACKSLASH
        escaped = np.flatnonzero(quote[1:] & backslash[:-1]) + 1
        if escaped.size:  # a quote after an odd run of backslashes is inside its string
            single = ~backslash[np.maximum(escaped - 2, 0)] | (escaped < 2)  # \" : the common case, without a loop
            odd = np.r_[escaped[single], [q for q in escaped[~single].tolist() if _run(raw, q) % 2]]
            quote[odd.astype(np.intp)] = False
        opened = np.bitwise_xor.accumulate(quote)  # True from an opening quote to its closing one
        outside = opened if inside else ~opened
        inside = bool(opened[-1]) != inside
        marks = np.flatnonzero(outside & ((raw == 44) | (raw == 91) | (raw == 93) | (raw == 123) | (raw == 125)))
        kinds = raw[marks]
        depths = np.cumsum(_STEPS[kinds], dtype=np.int32) + depth
        if depths.size and depths.max() > MAX_DEPTH:
            at = start + len(raw[:int(marks[np.argmax(depths > MAX_DEPTH)])].tobytes().decode("utf-8"))
            raise InputError(f"nests JSON values more than {MAX_DEPTH} deep", file=name,
                             line=text.count("\n", 0, at) + 1, column=at - text.rfind("\n", 0, at),
                             hint="Give flat records: labels and outputs as text or numbers, not nested arrays.")
        depth = int(depths[-1]) if depths.size else depth
        levels = depths[kinds == 44]  # the depth of each comma
        commas[0] += int(np.count_nonzero(levels == 1))
        commas[1] += int(np.count_nonzero(levels == 2))
    if max_items is None:
        return
    keys = commas[0] + 1
    for items in (keys, (commas[1] + keys) // keys):  # an array, or an object of arrays
        if items > max_items:
            raise InputError(f"has more than {max_items:,} items", file=name,
                             hint="Compare a sample of the items, or split the test set.")


BLOCK = 1 << 22  # characters per block: 4 Mi, so a block's arrays take tens of MB


def _blocks(text: str):
    """(start, bytes as uint8) for consecutive pieces of ``text``, none ending in a backslash, so that a quote is
    escaped or not within its own piece."""
    start = 0
    while start < len(text):
        end = min(start + BLOCK, len(text))
        while end < len(text) and text[end - 1] == "\\":
            end += 1
        yield start, np.frombuffer(text[start:end].encode("utf-8"), np.uint8)
        start = end


def _run(raw: np.ndarray, quote: int) -> int:
    """The number of backslashes just before position ``quote``."""
    start = quote
    while start > 0 and raw[start - 1] == _BACKSLASH:
        start -= 1
    return quote - start


_KINDS = {"object": (dict,), "list": (list,), "text": (str,), "integer": (int,), "number": (int, float),
          "bool": (bool,), "null": (type(None),)}
_NAMES = {"object": "an object", "list": "a list", "text": "text", "integer": "a whole number", "number": "a number",
          "bool": "true or false", "null": "null"}


def finite(value: Any) -> bool:
    """Whether a JSON value is a number a float holds, finite (not true/false, not 9e308 written out whole)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return bool(np.isfinite(float(value)))
    except OverflowError:
        return False


def kind(value: Any) -> str:
    """The kind of a JSON value as a message names it: an object, a list, text, a whole number, a number..."""
    if isinstance(value, bool):
        return _NAMES["bool"]
    return next((_NAMES[k] for k in ("object", "list", "text", "integer", "number", "null")
                 if isinstance(value, _KINDS[k])), type(value).__name__)


def expect(value: Any, kinds: str, field: str, name: str, where: str = "", hint: str | None = None) -> Any:
    """``value`` where it is one of ``kinds`` (space-separated: object list text integer number bool null; true and
    false are neither integers nor numbers), else an InputError: "header.json: field eval.config is a list ([1]),
    not an object", in ``name`` (the file); ``where`` says the place before the field (a member, a sample)."""
    wanted = kinds.split()
    if any(isinstance(value, _KINDS[k]) and (k in ("bool", "null") or not isinstance(value, bool)) for k in wanted):
        return value
    said = " or ".join(_NAMES[k] for k in wanted)
    what = "missing (or null)" if value is None else json.dumps(value) if isinstance(value, bool) else \
        f"{kind(value)} ({quoted(value)})"
    raise InputError(f"{where}field {field} is {what}, not {said}", file=name, hint=hint)


def quoted(value: Any, limit: int = 40) -> str:
    """A JSON value as a message quotes it: as JSON, one line, cut to ``limit`` characters."""
    try:
        text = printable(json.dumps(value, ensure_ascii=False, default=str))
    except ValueError:  # a structure that holds itself: not from a file
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."
