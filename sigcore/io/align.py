"""Pairing system outputs item by item: which column is what, alignment by id, and the checks.

Decisions (each documented in the README):
- A single table holds gold and system columns; the roles are guessed from column names (gold, label,
  reference, target...; id, doc_id...; group, document...) and can be overridden.
- Several files: gold + one file per system, two files that each carry gold and a prediction (CoNLL), or
  two lm-evaluation-harness sample logs. With an id column the files are aligned by id; without, they must
  have the same number of items, in the same order.
- Ids missing from a file, extra ids and duplicated ids stop the comparison with their places, unless the
  caller asks to drop unmatched items (``on_unmatched="drop"``); the notes say how many were dropped.
- A blank or missing gold value is an error; a blank or missing prediction is kept as "" (a wrong answer)
  and reported in the notes.
- Numeric labels against text labels (1 against "1") are compared as text, with a note.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ..errors import InputError, SettingsError

_GOLD = ("gold", "label", "labels", "gold_label", "reference", "references", "ref", "target", "answer",
         "y", "y_true", "truth", "expected", "tags")
_ID = ("id", "doc_id", "item", "item_id", "idx", "index", "example_id", "sentence_id", "qid", "uid", "key")
_GROUP = ("group", "document", "doc", "doc_name", "cluster", "topic", "domain")
_INPUT = ("text", "input", "source", "src", "sentence", "question", "prompt", "context", "premise",
          "passage", "tokens", "words", "filter")
_OUTPUT = ("prediction", "predictions", "pred", "output", "hypothesis", "hyp", "system", "tags")
ON_UNMATCHED = ("stop", "drop")


@dataclass(frozen=True)
class Mapping:
    """Which column of a table plays which role."""

    gold: str | None
    systems: tuple[str, ...]
    id: str | None = None
    group: str | None = None
    ignored: tuple[str, ...] = ()


@dataclass(frozen=True)
class Aligned:
    """Gold and two systems' outputs on the same items, in the same order, ready for ``sigcore.compare``."""

    gold: list | None
    a: list
    b: list
    a_name: str
    b_name: str
    ids: list | None = None
    groups: list | None = None
    scores: dict[str, tuple[list, list]] = field(default_factory=dict)  # per-item score fields (lm-eval)
    sources: dict[str, tuple[str, np.ndarray]] = field(default_factory=dict, repr=False)  # role -> file, lines
    notes: tuple[str, ...] = ()
    columns: dict[str, str] = field(default_factory=dict)  # role -> column (several files: the id pairing them)
    by_row: bool = False  # several files paired by row although they share an id column

    @property
    def n(self) -> int:
        return len(self.a)

    def locate(self, error: InputError) -> InputError:
        """An engine error about item k ("system 2 ... item 7") re-addressed to the file and line it came from."""
        if error.file is not None or error.line is None:
            return error
        role = "gold" if error.what.startswith("gold") else "b" if "system 2" in error.what else "a"
        if role not in self.sources or not 1 <= error.line <= len(self.sources[role][1]):
            return error
        file, lines = self.sources[role]
        return InputError(error.what, hint=error.hint, file=file, line=int(lines[error.line - 1]),
                          column=error.column)


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", str(name).strip().lower())


def guess_mapping(frame: pd.DataFrame) -> Mapping:
    """Guess the roles of a table's columns from their names (and, for ids, their uniqueness)."""
    columns = list(frame.columns)
    keys = {c: _key(c) for c in columns}

    def first(names: Sequence[str], among: list) -> str | None:
        for name in names:  # the order of ``names`` is the order of preference
            for c in among:
                if keys[c] == name:
                    return c
        return None

    unique = [c for c in columns if _unique(frame[c])]
    # an id-named column is the id even where it repeats (the check then says where), never a system
    id_column = first(_ID, columns) or first(_GROUP, unique)  # a "doc" column with one row per doc names items
    rest = [c for c in columns if c != id_column]
    gold = first(_GOLD, rest)
    rest = [c for c in rest if c != gold]
    group = first(_GROUP, rest)
    rest = [c for c in rest if c != group]
    ignored = tuple(c for c in rest if keys[c] in _INPUT)
    systems = tuple(c for c in rest if c not in ignored)
    return Mapping(gold=gold, systems=systems, id=id_column, group=group, ignored=ignored)


def _unique(column: pd.Series) -> bool:
    try:
        return column.is_unique
    except TypeError:  # lists (CoNLL tag sequences) are no ids
        return False


def from_table(table, mapping: Mapping | None = None, *, a: str | None = None, b: str | None = None) -> Aligned:
    """Two system columns of one table (gold, id and group from the mapping), in row order."""
    frame = table.frame
    mapping = mapping or guess_mapping(frame)
    for role, name in (("gold", mapping.gold), ("id", mapping.id), ("group", mapping.group), ("A", a), ("B", b),
                       *(("system", s) for s in mapping.systems)):
        if name is not None and name not in frame.columns:
            raise InputError(f"no column {name!r} for {role}", file=table.name, line=1,
                             hint=f"The columns are: {', '.join(map(str, frame.columns))}.")
    systems = [s for s in mapping.systems if s != mapping.gold]
    a = a or (systems[0] if systems else None)
    b = b or next((s for s in systems if s != a), None)
    if a is None or b is None:
        raise InputError("the table needs two system columns to compare", file=table.name, line=1,
                         hint=f"The columns are: {', '.join(map(str, frame.columns))}; name the gold, A and B columns.")
    notes: list[str] = []
    gold = _gold(frame[mapping.gold].tolist(), table.name, table.lines) if mapping.gold else None
    values = [_prediction(frame[c].tolist(), f"{table.name} column {c!r}", table.lines, notes) for c in (a, b)]
    gold, values = _same_kind(gold, values, notes)
    if mapping.id is not None:
        _no_duplicates(frame[mapping.id].tolist(), table.name, table.lines)
    sources = {role: (table.name, table.lines) for role in ("gold", "a", "b")}
    roles = {"gold": mapping.gold, "A": a, "B": b, "id": mapping.id, "group": mapping.group}
    return Aligned(gold, values[0], values[1], str(a), str(b),
                   ids=frame[mapping.id].tolist() if mapping.id else None,
                   groups=frame[mapping.group].tolist() if mapping.group else None,
                   sources=sources, notes=tuple(notes), columns={k: str(v) for k, v in roles.items() if v is not None})


ROW_ORDER = ""  # id=ROW_ORDER pairs files by row even where they share an id column


def shared_id(tables: Sequence) -> str | None:
    """The id column every file has under the same name (guessed from the names, as for a table), if any."""
    names = {guess_mapping(t.frame).id for t in tables}
    return names.pop() if len(names) == 1 else None


def from_files(gold, a, b, *, id: str | None = None, on_unmatched: str = "stop") -> Aligned:
    """Gold (or None) and one file per system; aligned by ``id`` when every file has that column, by the id
    column they share when ``id`` is None (rows shuffled in one file would otherwise pair the wrong items),
    and by row with ``id=ROW_ORDER``."""
    if on_unmatched not in ON_UNMATCHED:
        raise SettingsError(f"`on_unmatched` must be 'stop' or 'drop', not {on_unmatched!r}")
    if gold is None and a.format == "conll" and b.format == "conll" and _has_gold(a) and _has_gold(b):
        return _conll_pair(a, b)
    many = from_system_files(gold, [a, b], id=id, on_unmatched=on_unmatched, names=["a", "b"])  # roles as names
    return Aligned(many.gold, many.systems["a"], many.systems["b"], a.name, b.name, ids=many.ids,
                   sources=many.sources, notes=many.notes, columns=many.columns, by_row=many.by_row)


@dataclass(frozen=True)
class AlignedMany:
    """Gold and several systems' outputs on the same items, in the same order, ready for
    ``sigcore.compare_many``: ``systems`` maps each system's name to its outputs."""

    gold: list | None
    systems: dict[str, list]
    ids: list | None = None
    groups: list | None = None
    sources: dict[str, tuple[str, np.ndarray]] = field(default_factory=dict, repr=False)  # role -> file, lines
    notes: tuple[str, ...] = ()
    columns: dict[str, str] = field(default_factory=dict)  # role -> column (several files: the id pairing them)
    by_row: bool = False  # several files paired by row although they share an id column


def from_system_files(gold, systems: Sequence, *, id: str | None = None, on_unmatched: str = "stop",
                      names: Sequence[str] | None = None) -> AlignedMany:
    """Gold (or None) and one file per system, aligned as :func:`from_files` aligns two; systems are named
    ``names`` (default: their file names, as short as stays unique: ``LIUM-NMT.4900.de`` is ``LIUM-NMT``)."""
    if on_unmatched not in ON_UNMATCHED:
        raise SettingsError(f"`on_unmatched` must be 'stop' or 'drop', not {on_unmatched!r}")
    tables = ([gold] if gold is not None else []) + list(systems)
    names = list(names) if names is not None else system_names([t.name for t in systems])
    roles = (["gold"] if gold is not None else []) + names
    columns = [_value_column(t, "gold" if role == "gold" and gold is not None else "system")
               for t, role in zip(tables, roles)]
    notes: list[str] = []
    shared = shared_id(tables)
    if id is None:
        id = shared
        if id is not None:
            notes.append(f"the files are paired by their shared id column {id!r}, not by row")
    if id:
        keys = [_column(t, id, "id").tolist() for t in tables]
        for key, t in zip(keys, tables):
            _no_duplicates(key, t.name, t.lines)
        order, matched = _match(keys, tables, on_unmatched)
        notes += matched
    else:
        lengths = [len(t.frame) for t in tables]
        if len(set(lengths)) > 1:
            short = min(range(len(tables)), key=lambda i: lengths[i])
            long = max(range(len(tables)), key=lambda i: lengths[i])
            raise InputError(f"has {lengths[short]} items but {tables[long].name} has {lengths[long]}",
                             file=tables[short].name, line=int(tables[short].lines[-1]) if lengths[short] else None,
                             hint="Every file needs one item per test item, in the same order (or give an id column).")
        order = [np.arange(lengths[0])] * len(tables)
    picked = [t.frame[c].to_numpy(dtype=object)[o].tolist() for t, c, o in zip(tables, columns, order)]
    lines = [t.lines[o] for t, o in zip(tables, order)]
    gold_values = _gold(picked[0], tables[0].name, lines[0]) if gold is not None else None
    first = 1 if gold is not None else 0
    values = [_prediction(v, t.name, ln, notes) for v, t, ln in zip(picked[first:], tables[first:], lines[first:])]
    gold_values, values = _same_kind(gold_values, values, notes)
    ids = [tables[0].frame[id].tolist()[i] for i in order[0]] if id else None
    sources = dict(zip(roles, ((t.name, ln) for t, ln in zip(tables, lines))))
    return AlignedMany(gold_values, dict(zip(names, values)), ids=ids, sources=sources, notes=tuple(notes),
                       columns={"id": id} if id else {}, by_row=not id and shared is not None)


def load_many(tables: Sequence, *, has_gold: bool = True, gold: str | None = None, id: str | None = None,
              group: str | None = None, on_unmatched: str = "stop") -> AlignedMany:
    """What ``sigcore many`` reads: one wide table (gold, and a column per system), or a gold file followed by
    one file per system (``has_gold=False``: only system files, e.g. per-item scores)."""
    if len(tables) > 1 and all(t.format == "conll" and _has_gold(t) for t in tables):  # each its own gold
        return _conll_many(tables)
    if any(t.format == "lm-eval" for t in tables):
        raise InputError("several systems' lm-evaluation-harness logs are not read together yet",
                         file=next(t.name for t in tables if t.format == "lm-eval"),
                         hint="Compare two logs at a time: sigcore compare samples_A.jsonl samples_B.jsonl --metric acc.")
    if len(tables) > 1:
        gold_table, systems = (tables[0], tables[1:]) if has_gold else (None, tables)
        if len(systems) < 2:
            raise InputError(f"got {len(tables)} files: a gold file and {len(systems)} system file",
                             hint="Give the gold file, then one file per system (at least two).")
        return from_system_files(gold_table, systems, id=id, on_unmatched=on_unmatched)
    table = tables[0]
    guess = guess_mapping(table.frame)
    mapping = Mapping(gold=gold or guess.gold, systems=guess.systems, id=id or guess.id, group=group or guess.group)
    frame = table.frame
    for role, name in (("gold", mapping.gold), ("id", mapping.id), ("group", mapping.group)):
        if name is not None and name not in frame.columns:
            raise InputError(f"no column {name!r} for {role}", file=table.name, line=1,
                             hint=f"The columns are: {', '.join(map(str, frame.columns))}.")
    systems = [c for c in mapping.systems if c not in (mapping.gold, mapping.id, mapping.group)]
    if len(systems) < 2:
        raise InputError(f"the table needs at least two system columns, found {len(systems)}", file=table.name,
                         line=1, hint=f"The columns are: {', '.join(map(str, frame.columns))}.")
    notes: list[str] = []
    gold_values = _gold(frame[mapping.gold].tolist(), table.name, table.lines) if mapping.gold else None
    values = [_prediction(frame[c].tolist(), f"{table.name} column {c!r}", table.lines, notes) for c in systems]
    gold_values, values = _same_kind(gold_values, values, notes)
    if mapping.id is not None:
        _no_duplicates(frame[mapping.id].tolist(), table.name, table.lines)
    roles = {"gold": mapping.gold, "id": mapping.id, "group": mapping.group}
    return AlignedMany(gold_values, {str(c): v for c, v in zip(systems, values)},
                       ids=frame[mapping.id].tolist() if mapping.id else None,
                       groups=frame[mapping.group].tolist() if mapping.group else None,
                       sources={role: (table.name, table.lines) for role in ["gold", *map(str, systems)]},
                       notes=tuple(notes), columns={k: str(v) for k, v in roles.items() if v is not None})


GOLD_FILE_WORDS = ("ref", "gold", "reference", "target", "label")


def gold_files(files: Sequence[str]) -> list[int]:
    """Which of these files look like the gold one: a name that starts with, or has as a word (between dots,
    dashes or underscores), ref, gold, reference, target or label (``newstest2017.ref.de.gz``, ``gold.txt``)."""
    found = []
    for i, file in enumerate(files):
        name = Path(file).name.lower()
        words = name.replace("-", ".").replace("_", ".").split(".")
        if any(word in words or name.startswith(word) for word in GOLD_FILE_WORDS):
            found.append(i)
    return found


def system_names(files: Sequence[str]) -> list[str]:
    """Short names for system files: the file name up to its first dot where those are unique, else the file
    name without ``.gz``."""
    plain = [Path(f).name.removesuffix(".gz") for f in files]
    short = [name.split(".")[0] or name for name in plain]
    if len(set(short)) == len(short):
        return short
    if len(set(plain)) == len(plain):
        return plain
    return [str(f) for f in files]  # the same name in two folders: the paths tell them apart


def from_lm_eval(a, b, *, on_unmatched: str = "stop") -> Aligned:
    """Two lm-evaluation-harness sample logs, paired by (doc_id, filter); their per-sample metrics as scores."""
    from .lmeval import metric_fields

    keys = [list(zip(t.frame["doc_id"].tolist(), t.frame["filter"].tolist())) for t in (a, b)]
    order, notes = _match(keys, [a, b], on_unmatched)
    targets = [t.frame["target"].to_numpy(dtype=object)[o] for t, o in zip((a, b), order)]
    differ = np.flatnonzero(targets[0] != targets[1])
    if len(differ):
        i = int(differ[0])
        raise InputError(f"doc_id {keys[0][order[0][i]][0]!r} has target {targets[0][i]!r} here but "
                         f"{targets[1][i]!r} in {b.name}", file=a.name, line=int(a.lines[order[0][i]]),
                         hint="Both logs must come from the same task and data set.")
    shared = [f for f in metric_fields(a.frame) if f in metric_fields(b.frame)]
    scores = {f: tuple(t.frame[f].to_numpy()[o].tolist() for t, o in zip((a, b), order)) for f in shared}
    preds = [t.frame["prediction"].to_numpy(dtype=object)[o].tolist() for t, o in zip((a, b), order)]
    lines = [t.lines[o] for t, o in zip((a, b), order)]
    return Aligned(targets[0].tolist(), preds[0], preds[1], a.name, b.name,
                   ids=[keys[0][i][0] for i in order[0]], scores=scores,
                   sources={"gold": (a.name, lines[0]), "a": (a.name, lines[0]), "b": (b.name, lines[1])},
                   notes=tuple(notes))


def _has_gold(table) -> bool:
    return "gold" in table.frame.columns


def _same_test_set(a, b) -> None:
    """Two CoNLL files that each carry tokens and gold tags: they must be the same, sentence by sentence."""
    for i, (ta, tb, ga, gb) in enumerate(zip(a.frame["tokens"], b.frame["tokens"], a.frame["gold"], b.frame["gold"])):
        if list(ta) != list(tb) or list(ga) != list(gb):
            raise InputError(f"sentence {i + 1} has other tokens or gold tags than in {a.name}", file=b.name,
                             line=int(b.lines[i]), hint="Every file must tag the same test set with the same gold tags.")
    if len(a.frame) != len(b.frame):
        raise InputError(f"has {len(b.frame)} sentences but {a.name} has {len(a.frame)}", file=b.name)


def _conll_pair(a, b) -> Aligned:
    """Two CoNLL files that each carry tokens, gold tags and their system's tags: gold must agree."""
    many = _conll_many([a, b], names=["a", "b"])
    return Aligned(many.gold, many.systems["a"], many.systems["b"], a.name, b.name, sources=many.sources)


def _conll_many(tables: Sequence, names: Sequence[str] | None = None) -> AlignedMany:
    """CoNLL files that each carry gold: the gold of the first, each file's own tags as a system."""
    for t in tables[1:]:
        _same_test_set(tables[0], t)
    names = list(names) if names is not None else system_names([t.name for t in tables])
    return AlignedMany(tables[0].frame["gold"].tolist(),
                       {n: t.frame[_value_column(t, "a")].tolist() for n, t in zip(names, tables)},
                       sources={"gold": (tables[0].name, tables[0].lines),
                                **{n: (t.name, t.lines) for n, t in zip(names, tables)}})


def _value_column(table, role: str) -> str:
    """The one column of a file that holds its gold values or its system's outputs."""
    columns = [c for c in table.frame.columns if _key(c) not in _ID and _key(c) not in ("tokens", "words")]
    if len(columns) == 1:
        return columns[0]
    wanted = _GOLD if role == "gold" else _OUTPUT
    preferred = [c for c in columns if _key(c) in wanted and (role == "gold" or _key(c) not in _GOLD)]
    if table.format == "conll" and role != "gold" and len(columns) >= 2:
        return columns[-1]  # token, gold, pred: the system's tags are last
    if preferred:
        return preferred[0]
    raise InputError(f"cannot tell which column holds the {'gold values' if role == 'gold' else 'outputs'}",
                     file=table.name, line=1, hint=f"The columns are: {', '.join(map(str, table.frame.columns))}; "
                     "give a file with one column, or one table with gold, A and B columns.")


def _column(table, name: str, role: str) -> pd.Series:
    if name not in table.frame.columns:
        raise InputError(f"no column {name!r} for {role}", file=table.name, line=1,
                         hint=f"The columns are: {', '.join(map(str, table.frame.columns))}.")
    return table.frame[name]


def _no_duplicates(keys: list, file: str, lines: np.ndarray) -> None:
    seen: dict[Any, int] = {}
    for i, key in enumerate(keys):
        if key in seen:
            raise InputError(f"id {key!r} occurs twice (also on line {int(lines[seen[key]])})", file=file,
                             line=int(lines[i]), hint="Ids must be unique within a file.")
        seen[key] = i


def _match(keys: list[list], tables: list, on_unmatched: str) -> tuple[list[np.ndarray], list[str]]:
    """Row indices of each table for the ids all tables share, in the first table's order."""
    positions = [{k: i for i, k in enumerate(key)} for key in keys]
    shared = [k for k in keys[0] if all(k in p for p in positions[1:])]
    notes = []
    for key, table, pos in zip(keys, tables, positions):
        unmatched = [k for k in key if not all(k in p for p in positions)]
        if not unmatched:
            continue
        if on_unmatched == "stop":
            first = unmatched[0]
            raise InputError(f"{len(unmatched)} of its ids are not in every file (the first is {_show(first)})",
                             file=table.name, line=int(table.lines[pos[first]]),
                             hint="Check that the files come from the same test set, or drop unmatched items "
                                  "(on_unmatched='drop', --drop-unmatched).")
        notes.append(f"dropped {len(unmatched)} items of {table.name} whose ids are not in every file")
    if not shared:
        raise InputError("the files share no ids", file=tables[0].name, hint="Check the id column.")
    return [np.array([p[k] for k in shared], dtype=np.intp) for p in positions], notes


def _show(key: Any) -> str:
    return repr(key[0] if isinstance(key, tuple) and len(key) == 2 and key[1] == "none" else key)


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or (isinstance(value, str)
                                                                                 and not value.strip())


def _gold(values: list, file: str, lines: np.ndarray) -> list:
    for i, value in enumerate(values):
        if _missing(value):
            raise InputError("the gold value is blank", file=file, line=int(lines[i]),
                             hint="Every item needs a gold label or reference; remove the item or fill it in.")
    return values


def _prediction(values: list, who: str, lines: np.ndarray, notes: list[str]) -> list:
    blank = [i for i, v in enumerate(values) if _missing(v)]
    if blank:
        shown = ", ".join(str(int(lines[i])) for i in blank[:5]) + (", ..." if len(blank) > 5 else "")
        notes.append(f"{who} has {len(blank)} blank outputs (line {shown}); they count as wrong answers")
        values = list(values)
        for i in blank:
            values[i] = ""
    return values


def _same_kind(gold: list | None, systems: list[list], notes: list[str]):
    """Numbers against text (1 against "1"): compare both as text rather than never matching."""
    columns = ([gold] if gold is not None else []) + systems
    kinds = [pd.api.types.infer_dtype(c, skipna=True) for c in columns]
    numeric = [k in ("integer", "floating", "mixed-integer-float") for k in kinds]
    if any(numeric) and not all(numeric) and any(k == "string" for k in kinds):
        notes.append("some files give labels as numbers and others as text; all are compared as text")
        columns = [[_as_text(v) for v in c] if num else c for c, num in zip(columns, numeric)]
    return (columns[0] if gold is not None else None), columns[1 if gold is not None else 0:]


def _as_text(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value) if isinstance(value, (int, float)) else value



def load(tables: Sequence, *, gold: str | None = None, a: str | None = None, b: str | None = None,
         id: str | None = None, group: str | None = None, on_unmatched: str = "stop") -> Aligned:
    """What the command line and the app call: one table, two lm-eval logs or CoNLL files, or gold + A + B.

    ``gold``, ``a``, ``b``, ``id`` and ``group`` name columns of a single table (overriding the guess), or
    the id column shared by several files (guessed when they share one; ``ROW_ORDER`` pairs them by row).
    """
    if len(tables) == 1:
        guess = guess_mapping(tables[0].frame)
        mapping = Mapping(gold=gold or guess.gold, systems=guess.systems, id=id or guess.id,
                          group=group or guess.group)
        return from_table(tables[0], mapping, a=a, b=b)
    if len(tables) == 2 and all(t.format == "lm-eval" for t in tables):
        return from_lm_eval(*tables, on_unmatched=on_unmatched)
    if len(tables) == 2:
        return from_files(None, *tables, id=id, on_unmatched=on_unmatched)
    if len(tables) == 3:
        return from_files(*tables, id=id, on_unmatched=on_unmatched)
    raise InputError(f"got {len(tables)} files", hint="Give one table; or GOLD A B files; or two files that each "
                     "carry gold (CoNLL) or per-item scores; or two lm-evaluation-harness sample logs.")


def score_inputs(aligned: Aligned, name: str) -> tuple[list | None, list, list, str]:
    """(gold, a, b, metric) for ``sigcore.compare`` on a per-item score field such as lm-eval's ``acc``.

    0/1 fields are right/wrong per item, so they are compared as accuracy (McNemar fits); others as a mean.
    """
    a, b = aligned.scores[name]
    if all(v in (0, 1) for v in a + b):
        return [1] * len(a), [int(v) for v in a], [int(v) for v in b], "accuracy"
    return None, a, b, "mean"


def _is_number(value: Any) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def suggest_many_metrics(data: AlignedMany) -> list[str]:
    """The metrics that fit several systems' outputs, the most natural first: those of the first two."""
    first, second = list(data.systems)[:2]
    return suggest_metrics(Aligned(data.gold, data.systems[first], data.systems[second], first, second))


def suggest_metrics(aligned: Aligned) -> list[str]:
    """The metrics that fit these data, the most natural first, then any per-item score fields.

    Tag sequences: span F1. Per-item numbers without gold: the mean; anything else without gold: accuracy,
    whose refusal says that gold is missing and how to give it. Multi-word text (translations, generations),
    mostly distinct: BLEU, chrF, exact match. Labels, a few words long or not ("I want to book a flight" as an
    intent): accuracy and the F1 family (binary P/R/F1 with two labels).
    """
    fields = list(aligned.scores)
    if aligned.gold is None:
        values = [*aligned.a[:200], *aligned.b[:200]]
        return ["mean" if values and all(map(_is_number, values)) else "accuracy"] + fields
    sample = [v for v in aligned.gold[:200] if v is not None]
    if sample and all(isinstance(v, (list, tuple)) for v in sample):
        return ["span_f1"]
    texts = [v for v in sample if isinstance(v, str)]
    if (texts and sum(len(v.split()) > 2 for v in texts) > len(texts) / 2
            and len(set(texts)) > len(texts) / 2):  # references differ item by item; labels repeat
        return ["bleu", "chrf", "exact_match"] + fields
    labels = {str(v).strip() for v in list(aligned.gold) + list(aligned.a) + list(aligned.b)}
    binary = ["f1", "precision", "recall"] if len(labels) == 2 else []
    return ["accuracy", "macro_f1", "micro_f1", "weighted_f1", *binary, "exact_match"] + fields
