"""Per-sample logs of EleutherAI's lm-evaluation-harness (``lm_eval --log_samples``), one row per document.

The harness (Gao et al., "A framework for few-shot language model evaluation", EleutherAI, v0.4.x) writes
``samples_<task>_<date>.jsonl``: one JSON object per document and filter, with ``doc_id``, ``doc``,
``target``, ``arguments``, ``resps``, ``filtered_resps``, ``filter`` and ``metrics`` (0.4.3 and later),
the ``*_hash`` fields, and each per-sample metric as a top-level field (``"exact_match": 1.0``). Its
``sanitize_list`` writes every leaf of ``resps``/``filtered_resps`` as a string (``["-1.2", "False"]``) and
newer versions write ``str(target)``; both the typed and the stringified forms are read here.

The frame has the columns ``doc_id`` (as in the file), ``filter`` (``"none"`` when absent), ``target``,
``prediction`` and one float column per per-sample metric (see :func:`metric_fields`):

- ``target`` as text: strings as they are, numbers and booleans by ``str``, lists and objects as JSON
  (``'["a", "b"]'``), null as ``""``.
- ``prediction``: for log-likelihood outputs (``filtered_resps`` a list of ``[loglikelihood, is_greedy]``
  pairs, one per choice) the index of the most likely choice, first on ties, as text (``"2"``) -- the
  harness's own ``np.argmax``, so ``prediction == target`` reproduces ``acc`` when the target is the
  answer's index. (A target given as the answer's text, or a list of gold indices, is kept as given; use
  the ``acc`` column then. A single-continuation task such as LAMBADA always predicts ``"0"``.)
  For generation tasks the first answer of the first request (``[" Paris"] -> " Paris"``), whitespace kept.
- Metrics: the names in the record's ``metrics`` list, or, in older files without it, every numeric or
  boolean top-level field that is not metadata. Booleans become 0.0/1.0. A listed metric whose values
  are lists (BLEU, chrF, F1 store ``[reference, prediction]`` for the corpus-level score) has no
  per-sample value and is left out; score ``target``/``prediction`` with sigcore's own metric instead.
  Every record must have the same metrics. A metric lm-eval scores right (1) or wrong (0), or as a share of that
  (:data:`PROPORTIONS`: ``acc``, ``acc_norm``...), with a value outside 0..1 is read as given, with a note
  (``frame.attrs["notes"]``) that names its first such line.
"""

from __future__ import annotations

import gc
import json
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from . import jsonlimits
from .inspect_log import METADATA

__all__ = ["FIXED", "PROPORTIONS", "metric_fields", "parse"]

FIXED = ("doc_id", "filter", "target", "prediction")
# Top-level fields that describe the sample rather than score it (lm-eval and its common forks).
_METADATA = frozenset({"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
                       "task", "task_name", "task_alias", "split", "input", "success", "token_counts"})
_FIX = "Give the samples_<task>_<date>.jsonl file that lm_eval --log_samples writes, unchanged."
# lm-eval's per-sample metrics that are right (1) or wrong (0), or a share of right answers: within 0..1
PROPORTIONS = frozenset({"acc", "acc_norm", "acc_mutual_info", "exact_match", "em"})


def metric_fields(frame: pd.DataFrame) -> list[str]:
    """The per-sample metric columns of a frame from :func:`parse`, in file order (an Inspect sample's metadata
    fields, ``metadata.passage``, are what can be a cluster, not metrics)."""
    return [str(column) for column in frame.columns if column not in FIXED and not str(column).startswith(METADATA)]


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _loglikelihoods(responses: object) -> list[float] | None:
    """The choices' log-likelihoods if ``responses`` is a list of ``[loglikelihood, is_greedy]`` pairs."""
    if not isinstance(responses, list) or not responses:
        return None
    values = []
    for pair in responses:
        if not (isinstance(pair, list) and len(pair) == 2 and not isinstance(pair[0], bool)
                and (isinstance(pair[1], bool) or pair[1] in ("True", "False"))):
            return None
        try:
            values.append(float(pair[0]))
        except (TypeError, ValueError):
            return None
    return values


def _prediction(responses: object) -> str:
    best = _loglikelihoods(responses)  # a list, not an array: 100,000 records pay no numpy call each
    if best is not None:
        nan = next((i for i, x in enumerate(best) if x != x), None)
        # numpy's argmax, as the harness's: the first nan, else the first of tied maxima
        return str(nan if nan is not None else best.index(max(best)))
    while isinstance(responses, list) and responses:
        responses = responses[0]  # first request, then its first answer when repeats were kept
    return "" if isinstance(responses, list) else _text(responses)


def _metric_names(record: dict, name: str, number: int) -> list[str]:
    if "metrics" not in record:
        return [key for key, value in record.items() if key not in _METADATA and not key.endswith("_hash")
                and isinstance(value, (bool, int, float))]
    names = record["metrics"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InputError("the 'metrics' field is not a list of metric names", file=name, line=number,
                         column="metrics", hint=_FIX)
    for metric in names:
        if metric not in record:
            raise InputError(f"the record lists metric {metric!r} but has no {metric!r} field", file=name,
                             line=number, column=metric, hint=_FIX)
        if metric in FIXED:
            raise InputError(f"a metric cannot be named {metric!r}", file=name, line=number, column=metric,
                             hint=f"Rename the metric; {', '.join(FIXED)} are the frame's own columns.")
    return [m for m in names if not isinstance(record[m], list)]


def _score(record: dict, metric: str, name: str, number: int) -> float:
    value = record[metric]
    if not isinstance(value, (bool, int, float)):
        raise InputError(f"metric {metric!r} is {_text(value)[:40]!r}, not a number", file=name, line=number,
                         column=metric, hint="Per-sample metrics must be numbers or true/false.")
    return float(value)


def _records(text: str, name: str) -> list[tuple[int, Any]]:
    """Each non-blank line's number and value: the lines parsed as one JSON array (one call into json's C scanner,
    not one per line), or, where that fails, line by line to say which line is not JSON and why."""
    numbered = [(number, raw) for number, raw in enumerate(text.split("\n"), start=1) if raw and not raw.isspace()]
    try:
        values = json.loads("[" + ",".join(raw for _, raw in numbered) + "]", **jsonlimits.HOOKS)
        if len(values) == len(numbered):  # else a line held two values, or one a part of another
            return [(number, value) for (number, _), value in zip(numbered, values)]
    except ValueError:
        pass
    out = []
    for number, raw in numbered:
        try:
            out.append((number, json.loads(raw, **jsonlimits.HOOKS)))
        except json.JSONDecodeError as error:
            raise InputError(f"not valid JSON ({error.msg})", file=name, line=number, column=error.colno,
                             hint="Give one JSON object per line, as lm_eval --log_samples writes them.") from None
        except ValueError as error:
            raise jsonlimits.refusal(error, raw, name, number) or error from None
    return out


def parse(text: str, name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """One row per (doc_id, filter) record of an lm-eval samples file, in file order, and the int64 array
    of each record's 1-based line."""
    collecting = gc.isenabled()
    gc.disable()  # JSON's values are trees: no cycles for the collector to find, only a file's records to walk again
    try:  # and again (a quarter of the time of reading an lm-eval folder)
        return _parse(text, name)
    finally:
        if collecting:
            gc.enable()


def _parse(text: str, name: str) -> tuple[pd.DataFrame, np.ndarray]:
    columns: dict[str, list] = {column: [] for column in FIXED}
    ids, filters, targets, predictions = (columns[column].append for column in FIXED)
    lines: list[int] = []
    seen: dict[tuple, int] = {}
    metrics: list[str] | None = None
    listed, present = None, frozenset()  # the last "metrics" list checked, and its names: the same need less
    scores: list = []
    jsonlimits.check(text, name)
    for number, record in _records(text, name):
        if not isinstance(record, dict):
            raise InputError("the line is not a JSON object", file=name, line=number, column=1, hint=_FIX)
        if "doc_id" not in record or "target" not in record or "filtered_resps" not in record:
            field = next(f for f in ("doc_id", "target", "filtered_resps") if f not in record)
            raise InputError(f"the record has no {field!r} field", file=name, line=number, column=field, hint=_FIX)
        doc_id, filter_ = record["doc_id"], record.get("filter", "none")
        if type(doc_id) is not int and type(doc_id) is not str:  # the common cases first: a loop of 10^6 records
            if isinstance(doc_id, float) and doc_id.is_integer():  # 3.0: a log that went through a float column
                doc_id = int(doc_id)
            if isinstance(doc_id, bool) or not isinstance(doc_id, (int, str)):
                raise InputError(f"doc_id {json.dumps(doc_id, ensure_ascii=False)[:40]} is not a whole number or a "
                                 "string", file=name, line=number, column="doc_id", hint=_FIX)
        if type(filter_) is not str and not isinstance(filter_, str):
            raise InputError("the 'filter' field is not a string", file=name, line=number, column="filter",
                             hint=_FIX)
        if (doc_id, filter_) in seen:
            raise InputError(f"doc_id {doc_id!r} with filter {filter_!r} appears twice, on lines "
                             f"{seen[doc_id, filter_]} and {number}", file=name, line=number, column="doc_id",
                             hint="Give one run of one task per file; files joined from several runs repeat documents.")
        seen[doc_id, filter_] = number
        names = record.get("metrics")
        if names is None or names != listed or not record.keys() >= present:
            names = _metric_names(record, name, number)  # every check, and the error of the first that fails
            listed, present = record.get("metrics"), frozenset(record.get("metrics") or ())
        elif any(isinstance(record[metric], list) for metric in names):  # corpus-level metrics are left out
            names = [metric for metric in names if not isinstance(record[metric], list)]
        if metrics is None:
            metrics = names
            columns.update({metric: [] for metric in metrics})
            scores = [columns[metric].append for metric in metrics]
        elif names != metrics and set(names) != set(metrics):
            odd = sorted(set(names) ^ set(metrics))[0]
            what = f"no metric {odd!r}, which the record on line {lines[0]} has" if odd in metrics else \
                f"metric {odd!r}, which the record on line {lines[0]} does not have"
            raise InputError(f"the record has {what}", file=name, line=number, column=odd,
                             hint="Give one task per file; every record must have the same metrics.")
        target = record["target"]
        ids(doc_id)
        filters(filter_)
        targets(target if type(target) is str else _text(target))
        predictions(_prediction(record["filtered_resps"]))
        for metric, append in zip(metrics, scores):
            value = record[metric]
            append(value if type(value) is float else _score(record, metric, name, number))
        lines.append(number)
    if not lines:
        raise InputError("the file has no records", file=name, hint=_FIX)
    frame = pd.DataFrame({column: np.asarray(values, dtype=np.float64) if column not in FIXED else values
                          for column, values in columns.items()})
    lines = np.asarray(lines, dtype=np.int64)
    notes = _outside(frame, lines, name, metrics or [])
    if notes:
        frame.attrs["notes"] = notes
    return frame, lines


def _outside(frame: pd.DataFrame, lines: np.ndarray, name: str, metrics: list[str]) -> list[str]:
    """A note for each of :data:`PROPORTIONS` with a value outside 0..1 (an acc of 5 is not lm-eval's acc)."""
    notes = []
    for metric in (m for m in metrics if m in PROPORTIONS):
        values = frame[metric].to_numpy()
        outside = np.flatnonzero((values < 0) | (values > 1))
        if outside.size:
            more = f", and {outside.size - 1:,} more outside 0..1" if outside.size > 1 else ""
            notes.append(f"{name}: {metric} is {values[outside[0]]:g} on line {lines[outside[0]]}{more}, where "
                         f"lm-eval's {metric} lies in 0..1 (right 1, wrong 0): these may not be its scores; they "
                         "are compared as given")
    return notes
