"""The one JSON form of every result: what it is (``kind``), which version of its shape (``schema_version``), null
where a value is undefined, never a p of 0; and the reader that takes a saved result back through its published
schema.

Every ``--json`` of the command line, every ``--save`` file, the app's JSON downloads and a paper folder's
``STEM.json`` are :func:`dumps` of one of :data:`KINDS`; ``sigcore/schemas/KIND.schema.json`` (JSON Schema draft
2020-12, published as docs/reference/schemas/) says what each holds, and :func:`read` checks a saved one against
it before anything is drawn from it.

The rules, written here once:

- JSON has no NaN or infinity: an undefined value (a baseline's δ against itself, an interval not computed) and an
  open end of a one-sided interval are ``null`` (:func:`plain`).
- A p is never 0 (:func:`bounded_p`): where no resample was as extreme (a count of 0 of b) or a closed form fell
  below the smallest float, the record holds the bound the text prints after "<" (1/b, or the test's ``p_floor``;
  :data:`P_UNDERFLOW`), and ``p_bound`` is true.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from .contract import P_UNDERFLOW
from .errors import InputError

__all__ = ["KINDS", "SCHEMA_URI", "plain", "bounded_p", "document", "dumps", "schema", "problems", "read", "loads"]

# each kind and the version of its shape this sigcore writes and reads; a change of shape raises its version
KINDS = {"pair": 1, "family": 1, "board": 1, "seeds": 1, "aso": 1, "claim": 1, "sequence": 1, "plan": 1,
         "advice": 1, "replicability": 1, "preferences": 1}
SCHEMA_URI = "urn:sigcore:schema:"  # each schema's $id: urn:sigcore:schema:KIND (and :common, their shared parts)


def plain(value: Any) -> Any:
    """``value`` as JSON holds it: numpy's numbers as Python's, tuples as lists, keys as text, and NaN and ±infinity
    as None (null), which JSON has instead of them."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def bounded_p(p: float, floor: float) -> tuple[float, bool]:
    """A p as JSON holds it, and whether it is a bound: a p of 0 (no resample as extreme, or a closed form that
    underflowed) is the smallest p the text prints after "<", ``floor`` (1/b, the test's p_floor), or
    :data:`P_UNDERFLOW` where there is none."""
    if p > 0 or isinstance(p, float) and math.isnan(p):
        return p, False
    return (floor if floor > 0 else P_UNDERFLOW), True


def document(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The record of a result of ``kind``: ``kind`` and ``schema_version`` first, then ``body`` made :func:`plain`."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    return {"kind": kind, "schema_version": KINDS[kind], **plain({k: v for k, v in body.items()
                                                                   if k not in ("kind", "schema_version")})}


def dumps(record: dict[str, Any], *, indent: int | None = 2) -> str:
    """A :func:`document` as JSON text (NaN and infinity refused: :func:`plain` has made them null)."""
    return json.dumps(record, indent=indent, allow_nan=False)  # ASCII: a name's lone surrogate (bytes that
    #                                                             were not UTF-8) is written \udcff, never refused


@cache
def schema(kind: str) -> dict[str, Any]:
    """The published JSON Schema of ``kind`` (or of ``"common"``, the parts the kinds share)."""
    text = resources.files("sigcore").joinpath("schemas", f"{kind}.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _validator(kind: str):
    """jsonschema's validator of ``kind``, its references to the other schemas resolved from sigcore's own files."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry = Registry().with_resources(
        (schema(k)["$id"], Resource.from_contents(schema(k))) for k in [*KINDS, "common"])
    return Draft202012Validator(schema(kind), registry=registry)


def problems(record: Any) -> list[str]:
    """What keeps ``record`` from being a valid result of its kind, one line each (none: it is one)."""
    if not isinstance(record, dict):
        return [f"it is a JSON {type(record).__name__}, not an object"]
    kind = record.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        return [f"kind {kind!r} is not one of {', '.join(KINDS)}"]
    bulk, found = record.get("distribution"), []
    if kind == "pair" and isinstance(bulk, list):  # b values, millions: in one pass, as the schema says (numbers)
        bad = next((i for i, v in enumerate(bulk) if type(v) not in (int, float)), None)
        if bad is not None:
            found.append(f"distribution/{bad}: {bulk[bad]!r} is not of type 'number'"
                         + (f" (and {sum(type(v) not in (int, float) for v in bulk) - 1:,} more like it)"
                            if bad + 1 < len(bulk) else ""))
        record = {**record, "distribution": []}  # jsonschema takes about 25 µs a value
    errors = sorted(_validator(kind).iter_errors(record), key=lambda e: list(e.absolute_path))
    return [*found, *(f"{'/'.join(map(str, e.absolute_path)) or 'the record'}: {e.message[:200]}" for e in errors)]


def read(record: Any, *, kinds: tuple[str, ...], file: str | None = None, hint: str | None = None) -> dict:
    """A saved result of one of ``kinds`` (parsed JSON), checked by its ``kind`` and ``schema_version`` and then
    against its schema; an :class:`InputError` that says what it is, what this version reads and what to do."""
    from ._version import __version__

    reads = ", ".join(f"{k} (schema_version {KINDS[k]})" for k in kinds)
    again = "Run the command that made it again with this sigcore to write it anew."
    if not isinstance(record, dict) or "kind" not in record:
        raise InputError(f"has no \"kind\": it is not a result saved by sigcore {__version__}, which reads {reads} "
                         "(sigcore 0.2.0 and earlier wrote no kind)", file=file,
                         hint=f"{again} {hint}" if hint else again)
    kind, version = record["kind"], record.get("schema_version")
    if not isinstance(kind, str) or kind not in KINDS:
        raise InputError(f"holds a result of kind {kind!r}, which sigcore {__version__} does not know; it reads "
                         f"{reads}", file=file, hint=hint or "Was it written by a newer sigcore? Upgrade sigcore.")
    if kind not in kinds:
        raise InputError(f"holds a result of kind {kind!r}; this reads {reads}", file=file, hint=hint)
    if not isinstance(version, int) or isinstance(version, bool) or version != KINDS[kind]:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > KINDS[kind]
        raise InputError(f"holds a {kind} of schema_version {version!r}; sigcore {__version__} reads schema_version "
                         f"{KINDS[kind]}", file=file,
                         hint="Upgrade sigcore (pip install -U sigcore) to read it." if newer else
                         again)
    found = problems(record)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise InputError(f"is not a valid {kind} (schema_version {version}): {found[0]}{more}", file=file,
                         hint=f"Was it edited by hand? {again}")
    return record


def loads(text: str, *, kinds: tuple[str, ...], file: str | None = None, hint: str | None = None) -> dict:
    """:func:`read` of JSON text (a file's), refusing text that is not JSON with the same kind of message."""
    try:
        record = json.loads(text, parse_constant=str)  # NaN and Infinity, which JSON lacks, fail the schema as text
    except json.JSONDecodeError as e:
        raise InputError(f"cannot be read as a saved result ({e})", file=file, hint=hint) from None
    return read(record, kinds=kinds, file=file, hint=hint)
