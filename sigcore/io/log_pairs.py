"""Two evaluation logs paired sample by sample: lm-evaluation-harness ``samples_*.jsonl`` logs, and Inspect AI logs
read in the same shape (:mod:`sigcore.io.inspect_log`).

Samples pair by (doc_id, filter), an Inspect log's by sample id; both logs must hold the same task and targets.
Their per-sample scores (lm-eval's ``acc``, Inspect's scorer) travel as :attr:`Aligned.scores`, so that a model's
score is the one its log reports.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ..errors import InputError, SettingsError
from ..words import listed, shown
from .aligned import Aligned
from .ids import match_ids
from .roles import Ambiguous, Role
from .systems import order_systems

__all__ = ["lm_eval_filters", "from_lm_eval", "ordered_logs"]


def lm_eval_filters(a, b) -> list[str]:
    """The filters both logs hold (lm_eval's filter_list: gsm8k has strict-match and flexible-extract)."""
    return [f for f in dict.fromkeys(a.frame["filter"].tolist()) if f in set(b.frame["filter"].tolist())]


def from_lm_eval(a, b, *, on_unmatched: str = "stop", filter: str | None = None,
                 group: str | None = None) -> Aligned:
    """Two lm-evaluation-harness sample logs, paired by (doc_id, filter); their per-sample metrics as scores.
    Logs of several filters hold each document once per filter: one filter is compared (``filter``, which
    :class:`Ambiguous` asks for), since the same documents under two filters are not independent items. Two
    Inspect logs (read in the same shape, their samples' ids as doc_id) are paired by sample id, and must be of
    the same task; their models name the systems; ``group``, a metadata field both give every sample alike
    (``metadata.passage``), makes the clusters resampled whole."""
    from .lmeval import metric_fields

    tasks = [t.frame.attrs.get("task") for t in (a, b)]
    if tasks[0] != tasks[1]:
        raise InputError(f"is a log of the task {shown(str(tasks[1]))}, {a.name} of {shown(str(tasks[0]))}",
                         file=b.name, hint="Compare two models' logs of the same task.")
    key = "sample" if a.format == "inspect" else "doc_id"

    filters = [list(dict.fromkeys(t.frame["filter"].tolist())) for t in (a, b)]
    if set(filters[0]) != set(filters[1]):  # each document is matched with its filter: none would match
        raise InputError(f"the logs were filtered differently: {', '.join(map(shown, filters[1]))} here, "
                         f"{', '.join(map(shown, filters[0]))} in {a.name}", file=b.name, line=1, column="filter",
                         hint="Compare logs of the same task run with the same filters (lm_eval's filter_list); "
                              "or keep one filter's records in each file.")
    if filter is not None and filter not in filters[0]:
        raise SettingsError(f"the logs have no filter {shown(filter)}", hint=f"Their filters: {listed(filters[0])}.")
    if filter is None and len(filters[0]) > 1:  # counted twice, a document would look like two (p = 0.14 became 0.03)
        raise Ambiguous(f"the logs hold {len(filters[0])} filters ({', '.join(filters[0])}): each document once per "
                        "filter, and the same documents twice are not two items", question="Which filter?",
                        choices=filters[0], flag="--filter", file=a.name)
    if filter is not None:
        a, b = (replace(t, frame=t.frame[keep].reset_index(drop=True), lines=t.lines[keep.to_numpy()])
                for t, keep in ((t, t.frame["filter"] == filter) for t in (a, b)))
    keys = [list(zip(t.frame["doc_id"].tolist(), t.frame["filter"].tolist())) for t in (a, b)]
    order, notes = match_ids(keys, [a, b], on_unmatched)
    ids = [keys[0][i][0] for i in order[0]]
    targets = _agreed(a, b, order, ids, key, "target", "Both logs must come from the same task and data set.")
    groups = None if group is None else [str(v) for v in _log_groups(a, b, order, ids, group, key)]
    shared = [f for f in metric_fields(a.frame) if f in metric_fields(b.frame)]
    scores = {f: tuple(t.frame[f].to_numpy()[o].tolist() for t, o in zip((a, b), order)) for f in shared}
    preds = [t.frame["prediction"].to_numpy(dtype=object)[o].tolist() for t, o in zip((a, b), order)]
    lines = [t.lines[o] for t, o in zip((a, b), order)]
    models = tuple(t.frame.attrs.get("model") for t in (a, b))
    return Aligned(targets.tolist(), preds[0], preds[1], a.name, b.name,
                   labels=models if all(models) and models[0] != models[1] else None,
                   ids=ids, scores=scores, groups=groups,
                   sources={"gold": (a.name, lines[0]), "a": (a.name, lines[0]), "b": (b.name, lines[1])},
                   notes=(*a.notes, *b.notes, *notes),
                   columns={**({} if filter is None else {"filter": filter}), **({} if group is None else
                                                                                  {"group": group})})


def _agreed(a, b, order, ids: list, key: str, column: str, hint: str) -> np.ndarray:
    """The paired items' ``column``, which both logs must give alike: the first item where they differ is refused."""
    values = [t.frame[column].to_numpy(dtype=object)[o] for t, o in zip((a, b), order)]
    differ = np.flatnonzero(values[0] != values[1])
    if len(differ):
        i = int(differ[0])
        raise InputError(f"{key} {ids[i]!r} has {column} {values[0][i]!r} here but {values[1][i]!r} in {b.name}",
                         file=a.name, line=int(a.lines[order[0][i]]), hint=hint)
    return values[0]


def _log_groups(a, b, order, ids: list, group: str, key: str) -> np.ndarray:
    """Each paired sample's cluster, the metadata field ``group`` of both logs, which must agree on every sample."""
    for t, o in zip((a, b), order):
        if group not in t.frame.columns:
            fields = [c for c in t.frame.columns if str(c).startswith("metadata.")]
            raise InputError(f"has no field {shown(group)} to group its samples by", file=t.name,
                             hint=f"Its samples' metadata fields: {listed(fields)}." if fields else
                             "Its samples carry no metadata; group by a column of one table instead.")
        missing = np.flatnonzero(pd.isna(t.frame[group].to_numpy(dtype=object)[o]))
        if len(missing):
            i = int(missing[0])
            raise InputError(f"{key} {ids[i]!r} has no {group}", file=t.name, line=int(t.lines[o[i]]),
                             hint="Every sample needs its cluster, or group by another field.")
    return _agreed(a, b, order, ids, key, group, "Both logs must come from the same data set, with the same "
                                                 "metadata.")


def ordered_logs(data: Aligned, tables, baseline, flip, **options) -> Aligned:
    """Two logs read in the order given, or the other way round when the first is the baseline."""
    order, why = order_systems([t.name for t in tables], baseline)
    if order != [0, 1]:
        data = flip(tables[1], tables[0], **options)
    a, b = (f"{label} ({file})" for label, file in zip(data.labels, (data.a_name, data.b_name))) if data.labels \
        else (data.a_name, data.b_name)  # an Inspect log's model, and its file
    roles = [Role("gold", f"the target field of {data.a_name} and {data.b_name}", "they agree on every item"),
             Role("A", a), Role("B", b, "" if why == "the order given" else why)]
    for role in ("filter", "group"):  # a metadata field: the clusters resampled whole
        if options.get(role) is not None:
            roles.append(Role(role, shown(options[role]), "given"))
    return replace(data, roles=tuple(roles))
