"""Inspect AI's evaluation logs (UK AISI, inspect_ai 0.3.x), ``.eval`` and ``.json``, read with the standard library
(and ``zstandard``: recent versions compress a ``.eval``'s members with Zstandard, method 93, which ``zipfile``
cannot open); Inspect itself is not needed.

A ``.eval`` is a zip: ``header.json`` (the task, the model, the configuration: ``eval.task``, ``eval.model``,
``eval.config.epochs``), ``summaries.json`` (each sample's ``id``, ``epoch``, ``target`` and ``scores``, one entry
per sample and epoch) and ``samples/ID_epoch_N.json``; only the first two are read, within the limits of
:mod:`sigcore.io.archives` (32 and 128 MiB, counted as they inflate). A ``.json`` log is one object with ``eval`` and
``samples``. Every field read must be of the kind Inspect writes (a sample's ``id`` a number or text, its
``epoch`` a whole number, ``results`` an object...): another is refused naming the member, the sample and the field.
Each score's ``value`` becomes a number as Inspect's ``value_to_float`` makes it: ``C`` (correct) 1, ``I`` 0,
``P`` (partial) 0.5, ``N`` (no answer) 0, ``yes``/``true`` 1, ``no``/``false`` 0, numbers as they are; a scorer whose
value is an object of several numbers gives a column per key (``scorer/key``).

A log is checked against its own header: every sample (and epoch) it counts is in it, each scored, and each scorer's
mean is the ``accuracy`` or ``mean`` it reports (epochs reduced with the mean), so a trimmed log is refused, not read.

Epochs are runs of the same item. :func:`runs` keeps them (one row per sample and epoch); :func:`parse` averages
them per sample, as Inspect's default reducer (``mean``) does, so that a model's mean equals the accuracy Inspect
reports, and returns the frame in the shape of an lm-eval log (``doc_id``: the sample id, ``filter``,
``target``, ``prediction``: the first scorer's answer, then a float column per scorer) for the same pairing.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from . import archives, jsonlimits

__all__ = ["ZSTD", "METADATA", "value", "header", "runs", "read_log", "scorers", "metadata", "parse_bytes"]

ZSTD = archives.ZSTD
_VALUES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0, "yes": 1.0, "true": 1.0, "no": 0.0, "false": 0.0}
METADATA = "metadata."  # a sample's metadata field as a column: metadata.passage
_FIX = "Give the .eval or .json log that Inspect wrote (inspect eval ... --log-dir), unchanged."


def _json(data: bytes, name: str, where: str) -> Any:
    return jsonlimits.loads(data, name, where, hint=_FIX)


def _read(data: bytes, name: str) -> tuple[dict[str, Any], list, str]:
    """The log's header (:func:`_checked`), its samples' summaries, and where they are, for messages
    ("summaries.json: " in a .eval, "" in a .json log)."""
    if data[:4] != b"PK\x03\x04":
        log = _json(data, name, "the log")
        if not isinstance(log, dict) or not isinstance(log.get("eval"), dict):
            raise InputError("is not an Inspect log: it has no 'eval' header", file=name, hint=_FIX)
        samples = jsonlimits.expect(log.get("samples", []), "list null", "samples", name, hint=_FIX)
        return _checked(log, name, ""), samples or [], ""
    members = {i.filename: i for i in archives.members(data, name)}
    for needed in ("header.json", "summaries.json"):
        if needed not in members:
            raise InputError(f"has no {needed}: not a finished Inspect log", file=name,
                             hint="Give the log of a finished run (an interrupted one has only _journal/).")
    header = _json(archives.read_member(data, members["header.json"], name, archives.HEADER), name, "header.json")
    summaries = _json(archives.read_member(data, members["summaries.json"], name, archives.SUMMARIES), name,
                      "summaries.json")
    if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
        raise InputError("is not an Inspect log: header.json has no 'eval' header", file=name, hint=_FIX)
    jsonlimits.expect(summaries, "list", "(the whole of it)", name, "summaries.json: ", hint=_FIX)
    return _checked(header, name, "header.json: "), summaries, "summaries.json: "


def _checked(head: dict, name: str, where: str) -> dict[str, Any]:
    """What the reader uses of a log's header, each field of the kind Inspect writes (an InputError naming the
    field otherwise): the model, the task, the epochs and their reducer, the status and the results' scores."""
    def field(value: Any, kinds: str, path: str) -> Any:
        return jsonlimits.expect(value, kinds, path, name, where, hint=_FIX)

    ev = head["eval"]
    config = field(ev.get("config"), "object null", "eval.config") or {}
    epochs = field(config.get("epochs"), "integer null", "eval.config.epochs")
    if epochs is not None and epochs < 1:
        raise InputError(f"{where}field eval.config.epochs is {epochs}, not a positive number", file=name, hint=_FIX)
    reducer = field(config.get("epochs_reducer"), "text list null", "eval.config.epochs_reducer")
    for k, r in enumerate(reducer if isinstance(reducer, list) else []):
        field(r, "text", f"eval.config.epochs_reducer[{k}]")
    results = field(head.get("results"), "object null", "results") or {}
    total = field(results.get("total_samples"), "integer null", "results.total_samples")
    scores = field(results.get("scores"), "list null", "results.scores") or []
    for k, score in enumerate(scores):
        at = f"results.scores[{k}]"
        field(score, "object", at)
        for key in ("name", "scorer", "reducer"):
            field(score.get(key), "text null", f"{at}.{key}")
        for metric, said in (field(score.get("metrics"), "object null", f"{at}.metrics") or {}).items():
            field(said, "object", f"{at}.metrics.{metric}")
    return {"model": field(ev.get("model"), "text null", "eval.model"),
            "task": field(ev.get("task"), "text null", "eval.task"), "epochs": epochs or 1, "reducer": reducer,
            "status": field(head.get("status"), "text null", "status"), "total": total, "scores": scores,
            "results": head.get("results")}


def value(raw: Any, name: str, where: str) -> float:
    """A score's value as a number, as Inspect's value_to_float makes it; a value that is not a finite number (NaN,
    infinity: no paired test can take it) refused."""
    number = None
    if isinstance(raw, (bool, int, float)):
        number = float(raw) if isinstance(raw, float) or abs(raw) < 2**1023 else np.inf
    elif isinstance(raw, str):
        key = raw.strip()
        if key in _VALUES or key.lower() in _VALUES:
            return _VALUES.get(key, _VALUES.get(key.lower()))
        try:
            number = float(key)
        except ValueError:
            pass
    if number is not None and np.isfinite(number):
        return number
    if number is not None:
        raise InputError(f"{where} has the score {jsonlimits.quoted(raw)}, which is not a finite number", file=name,
                         hint="Give a log whose every score is a number: a paired test cannot take NaN or infinity.")
    raise InputError(f"{where} has the score {jsonlimits.quoted(raw)}, which is not a number, "
                     "C, I, P or N", file=name, hint="Score with a scorer whose values are numbers or C/I/P/N.")


def header(data: bytes, name: str) -> dict[str, Any]:
    """The model, the task and the configuration a log states."""
    return _header(_read(data, name)[0])


def _header(head: dict) -> dict[str, Any]:
    return {key: head[key] for key in ("model", "task", "epochs", "reducer", "results")}


def runs(data: bytes, name: str) -> pd.DataFrame:
    """One row per sample and epoch, in the log's order: ``item`` (the sample id), ``run`` (the epoch), ``target``,
    ``answer`` (the first scorer's), then a float column per scorer."""
    return read_log(data, name)[0]


def read_log(data: bytes, name: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The log's :func:`runs` and its :func:`header`, from one reading of it."""
    head, samples, where = _read(data, name)
    return _runs(head, samples, name, where), _header(head)


def _runs(head: dict, samples: list, name: str, where: str) -> pd.DataFrame:
    if head["status"] not in (None, "success"):
        raise InputError(f"is the log of a run that ended in {head['status']!r}: not every sample was scored",
                         file=name, hint="Give the log of a finished run (inspect eval-retry completes one).")
    _check_complete(head, samples, name, where)
    frame = _frame(samples, name, where)
    _check_reported(head, frame, name)
    return frame


def _check_complete(head: dict, samples: list, name: str, where: str) -> None:
    """The log holds every sample (and epoch) its header counts, each scored: a log trimmed for sharing, or one
    whose samples errored or were never scored, would give other numbers than the run's, silently."""
    total = head["total"]
    if total is not None and len(samples) < total:
        said = _reported(head)
        held = f"holds {len(samples)} of the {total} samples" if samples else f"holds none of the {total} samples"
        raise InputError(f"{held} its header counts (results.total_samples, each epoch counted"
                         + (f"; it reports {said} over all of them" if said else "") + "): "
                         + ("the others are not in it" if samples else "it has only the header's summary"),
                         file=name, hint="Give the whole log as Inspect wrote it (not one trimmed for sharing, nor "
                                         "one written with --no-log-samples): a paired test needs every sample.")
    unscored = [s for s in samples if isinstance(s, dict) and not s.get("scores")]
    if unscored and len(unscored) == len(samples):
        raise InputError(f"none of its {len(samples)} samples has a score: the run had no scorer", file=name,
                         hint="Score the log first (inspect score LOG), and give the scored log.")
    if unscored:
        first = unscored[0]
        error = first.get("error")
        why = f": it ended in an error ({_error_text(error)})" if error else ""
        raise InputError(f"{where}sample {jsonlimits.quoted(first.get('id'))} (epoch "
                         f"{jsonlimits.quoted(first.get('epoch', 1))}) has no score{why}; {len(unscored)} of its "
                         f"{len(samples)} samples have none", file=name,
                         hint="Give a log whose every sample was scored: inspect eval-retry LOG reruns the samples "
                              "that failed; Inspect's own accuracy leaves them out, a paired test cannot.")


def _error_text(error: Any) -> str:
    text = error.get("message", "") if isinstance(error, dict) else str(error)
    text = " ".join(str(text).split())
    return text[:80] + ("…" if len(text) > 80 else "")


def _reported(head: dict) -> str:
    """What the header reports, for a message: 'accuracy 0.354 (includes)'."""
    said = [f"{metric} {v['value']:.4g} ({score.get('name')})" for score in head["scores"]
            for metric, v in (score.get("metrics") or {}).items()
            if metric in _AVERAGES and jsonlimits.finite(v.get("value"))]
    return ", ".join(said[:3])


_AVERAGES = ("accuracy", "mean")  # Inspect's metrics that are the mean of the (epoch-reduced) sample values


def _check_reported(head: dict, frame: pd.DataFrame, name: str) -> None:
    """Each scorer's mean over the samples (each sample's mean over its epochs) must be the accuracy or mean the
    header reports for it, where Inspect reduced the epochs with the mean (its default)."""
    columns = set(scorers(frame))
    means = None
    for score in head["scores"]:
        if score.get("reducer") not in (None, "mean"):
            continue
        column = next((c for c in (score.get("name"), f"{score.get('scorer')}/{score.get('name')}")
                       if c in columns), None)
        for metric, said in (score.get("metrics") or {}).items():
            value = said.get("value")
            if column is None or metric not in _AVERAGES or not jsonlimits.finite(value):
                continue
            if means is None:  # scores of 1e308 a power of two down (exactly) while averaged: their sums overflow
                shift = max(0, math.frexp(float(np.abs(frame[sorted(columns)].to_numpy(np.float64)).max(initial=0)))[1]
                            - 1000)
                means = np.ldexp(np.ldexp(frame[sorted(columns)], -shift).groupby(frame["item"], sort=False).mean()
                                 .mean(), shift)
            if not np.isclose(means[column], value, rtol=1e-9, atol=1e-12):
                raise InputError(f"scorer {column}'s samples average {means[column]:.6g}, but the log's header "
                                 f"reports {metric} {value:.6g}", file=name,
                                 hint="Give the log as Inspect wrote it: samples were removed or edited, or its "
                                      "scores were changed after the run (inspect score writes a new header).")


_OWN = ("item", "run", "target", "answer")  # the frame's own columns, which no scorer may be named


def _frame(samples: list, name: str, member: str) -> pd.DataFrame:
    rows: dict[str, list] = {column: [] for column in _OWN}
    scorers: list[str] | None = None
    seen: dict[tuple, int] = {}
    for k, sample in enumerate(samples, 1):
        if not isinstance(sample, dict) or "id" not in sample:
            raise InputError(f"{member}sample {k} has no id", file=name, item=k, hint=_FIX)
        item = jsonlimits.expect(sample["id"], "number text", "id", name, f"{member}sample {k}: ",
                                 hint=_FIX)  # 1.0 is item 1, as every file's ids pair (sigcore.io.ids)
        epoch = jsonlimits.expect(sample.get("epoch", 1), "integer", "epoch", name, f"{member}sample {k}: ",
                                  hint=_FIX)
        where = f"{member}sample {item!r} (epoch {epoch})"
        if epoch < 1:
            raise InputError(f"{where}: field epoch is {epoch}, not a positive number", file=name, item=k, hint=_FIX)
        if (item, epoch) in seen:
            raise InputError(f"{where} appears twice, as samples {seen[item, epoch]} and {k}", file=name, item=k,
                             hint="Give one run's log; logs merged from several runs repeat samples.")
        seen[item, epoch] = k
        scores = jsonlimits.expect(sample.get("scores"), "object null", "scores", name, f"{where}: ", hint=_FIX) or {}
        values, answer = {}, ""
        for scorer, score in scores.items():
            jsonlimits.expect(score, "object", f"scores.{scorer}", name, f"{where}: ", hint=_FIX)
            raw = score.get("value")
            if isinstance(raw, dict):
                values.update({f"{scorer}/{key}": value(v, name, f"{where}, scorer {scorer}/{key},")
                               for key, v in raw.items()})
            else:
                values[scorer] = value(raw, name, f"{where}, scorer {scorer},")
            if not answer and score.get("answer") is not None:
                answer = str(score["answer"])
        if scorers is None:
            scorers = list(values)
            clash = [s for s in scorers if s in _OWN or s.startswith(METADATA)]
            if clash:
                raise InputError(f"has a scorer named {clash[0]!r}, a name sigcore keeps for its own column",
                                 file=name, hint="Rename the scorer (@scorer(name=...)).")
            rows.update({s: [] for s in scorers})
        elif set(values) != set(scorers):
            odd = sorted(set(values) ^ set(scorers))[0]
            raise InputError(f"{where} {'lacks' if odd in scorers else 'has'} the score {odd!r}, which the first "
                             "sample " + ("has" if odd in scorers else "does not have"), file=name, item=k,
                             hint="Give a log whose samples were all scored by the same scorers.")
        target = sample.get("target", "")
        meta = sample.get("metadata") if isinstance(sample.get("metadata"), dict) else {}
        for key, v in meta.items():  # a passage, a document: what a cluster can be
            if isinstance(v, (str, int, float, bool)):
                rows.setdefault(f"{METADATA}{key}", [None] * len(rows["item"]))
        for column in [c for c in rows if c.startswith(METADATA)]:
            v = meta.get(column[len(METADATA):])
            rows[column].append(str(v) if isinstance(v, (str, int, float, bool)) else None)
        rows["item"].append(item)
        rows["run"].append(epoch)
        rows["target"].append(target if isinstance(target, str) else json.dumps(target, ensure_ascii=False))
        rows["answer"].append(answer)
        for s in scorers:
            rows[s].append(values[s])
    if not rows["item"]:
        raise InputError("holds no scored samples", file=name, hint=_FIX)
    return pd.DataFrame({k: (v if k in _OWN or k.startswith(METADATA)
                             else np.asarray(v, dtype=np.float64)) for k, v in rows.items()})


def scorers(frame: pd.DataFrame) -> list[str]:
    return [c for c in frame.columns if c not in ("item", "run", "target", "answer") and not c.startswith(METADATA)]


def metadata(frame: pd.DataFrame) -> list[str]:
    """The samples' metadata fields (``metadata.passage``), each a column of text: what can be a cluster."""
    return [c for c in frame.columns if c.startswith(METADATA)]


def parse_bytes(data: bytes, name: str) -> tuple[pd.DataFrame, np.ndarray, dict[str, Any]]:
    """One row per sample, its scores averaged over its epochs, in the shape of an lm-eval log (module docstring);
    each row's place is its sample's position in the log; and the log's model, task and epochs."""
    frame, said = read_log(data, name)
    clash = [s for s in scorers(frame) if s in ("doc_id", "filter", "target", "prediction")]
    if clash:
        raise InputError(f"has a scorer named {clash[0]!r}, a name sigcore keeps for its own column", file=name,
                         hint="Rename the scorer (@scorer(name=...)).")
    first = frame.drop_duplicates("item", keep="first")
    counts = frame.groupby("item", sort=False)["run"].nunique()
    if counts.nunique() > 1:
        few = counts.idxmin()
        raise InputError(f"sample {few!r} was run {counts.min()} times, others {counts.max()}", file=name,
                         hint="Give the log of a finished run: every sample has each epoch once.")
    means = frame.groupby("item", sort=False)[scorers(frame)].mean()
    out = pd.DataFrame({"doc_id": first["item"].tolist(), "filter": "none", "target": first["target"].tolist(),
                        "prediction": first["answer"].tolist()})
    for s in scorers(frame):
        out[s] = means[s].to_numpy()
    for c in metadata(frame):  # what `compare --group metadata.passage` resamples whole
        out[c] = first[c].to_numpy()
    attrs = {"model": said["model"], "task": said["task"], "epochs": int(counts.max()), "reducer": said["reducer"]}
    return out, np.arange(1, len(out) + 1, dtype=np.int64), attrs
