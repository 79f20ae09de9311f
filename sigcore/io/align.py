"""Pairing system outputs item by item: which column is what, alignment by id, and the checks.

Decisions (each documented in the README):
- A single table holds gold and system columns; the roles are guessed from column names (gold, label,
  reference, target...; id, doc_id...; group, document...) and can be overridden.
- Several files: gold + one file per system, two files that each carry gold and a prediction (CoNLL), or
  two lm-evaluation-harness sample logs. With an id column the files are aligned by id; without, they must
  have the same number of items, in the same order.
- Ids pair by one rule (:mod:`sigcore.io.ids`): the same number however written (1, 1.0, "1"), or else the
  same text. Ids missing from a file, extra ids and duplicated ids stop the comparison with their places, unless the
  caller asks to drop unmatched items (``on_unmatched="drop"``); the notes say how many were dropped.
- A blank or missing gold value is an error; a blank or missing prediction is kept as "" (a wrong answer)
  and reported in the notes.
- Numeric labels against text labels (1 against "1") are compared as text, with a note.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ..errors import InputError, SettingsError
from ..numbers import number
from ..words import counted, listed, shown
from .ids import RULE, item_keys
from .inputs import INDEX, LOGS
from .roles import (GOLD_NAMES, Ambiguous, Role, baseline_index, baseline_named, correctness_named, gold_files,
                    label_reason, number_kind, number_role, regression_reason)

_GOLD = ("gold", "label", "labels", "gold_label", "reference", "references", "ref", "target", "answer",
         "y", "y_true", "truth", "expected", "tags")
_ID = ("id", "doc_id", "item", "item_id", "idx", "index", "example_id", "sentence_id", "qid", "uid", "key", INDEX)
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
    roles: tuple[Role, ...] = ()  # what was decided about the files and columns, and why (shown to the user)
    outputs: tuple[str, ...] = ()  # the columns (or files) the systems' outputs came from, for what their names say
    labels: tuple[str, str] | None = None  # A's and B's names where the files state them (an Inspect log's model)

    @property
    def n(self) -> int:
        return len(self.a)

    @property
    def display_names(self) -> tuple[str, str]:
        """A's and B's names as reports print them: a column's as it is, a file's as short as stays unique
        (``uedin-nmt.4722.de`` is ``uedin-nmt``), as ``sigcore many`` names systems; the models logs name."""
        if self.labels:
            return self.labels
        if "A" in self.columns:
            return self.a_name, self.b_name
        a, b = system_names([self.a_name, self.b_name])
        return a, b

    def locate(self, error: InputError) -> InputError:
        """An engine error about item k ("system 2 ... item 7") re-addressed to the file and line it came from."""
        if error.file is not None or error.line is None:
            return error
        role = "gold" if error.what.startswith("gold") else "b" if "system 2" in error.what else "a"
        if role not in self.sources or not 1 <= error.line <= len(self.sources[role][1]):
            return error
        what = error.what if role == "gold" else error.what.replace(
            f"system {1 if role == 'a' else 2}", f"system {shown(self.display_names[role == 'b'])}", 1)
        return at_source(error, what, *self.sources[role])


def at_source(error: InputError, what: str, file: str, lines: np.ndarray) -> InputError:
    """An engine error about item k re-addressed to the file it came from and item k's line there."""
    return InputError(what, hint=error.hint, file=file, line=int(lines[error.line - 1]), column=error.column,
                      item=shared_line(lines, error.line - 1))


def shared_line(lines: np.ndarray, i: int) -> int | None:
    """Item i's position (from 1) when its line holds other items too (a JSON array on one line), else None."""
    here = lines[i]
    return i + 1 if (i > 0 and lines[i - 1] == here) or (i + 1 < len(lines) and lines[i + 1] == here) else None


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", str(name).strip().lower())


def guess_mapping(frame: pd.DataFrame) -> Mapping:
    """Guess the roles of a table's columns from their names (and, for ids, their uniqueness); a name ending in
    ``_id`` (question_id, sample_id) is an id too."""
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
    id_column = (first(_ID, columns) or next((c for c in columns if keys[c].endswith("_id")), None)
                 or first(_GROUP, unique))  # a "doc" column with one row per doc names items
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


def from_table(table, mapping: Mapping | None = None, *, a: str | None = None, b: str | None = None,
               given: Sequence[str] = ("gold", "A", "B", "id", "group")) -> Aligned:
    """Two system columns of one table (gold, id and group from the mapping), in row order. ``given`` names the
    roles the caller chose (the others were guessed), for :attr:`Aligned.roles`; without ``a`` and ``b``, a
    column named like a baseline is B, so that δ = A − B reads "yours minus the baseline"."""
    frame = table.frame
    mapping = mapping or guess_mapping(frame)
    for role, name in (("gold", mapping.gold), ("id", mapping.id), ("group", mapping.group), ("A", a), ("B", b),
                       *(("system", s) for s in mapping.systems)):
        if name is not None and name not in frame.columns:
            raise InputError(f"no column {name!r} for {role}", file=table.name, line=1,
                             hint=f"The columns are: {listed(frame.columns)}.")
    systems = [s for s in mapping.systems if s not in (mapping.gold, mapping.id, mapping.group)]
    why = {r: "given" for r in given}
    unnamed = a is None and b is None
    if unnamed:
        a, b, named = pick_pair([str(c) for c in systems])
        why.update({"B": named} if named else {})
    elif a is None:
        why["A"] = "the first other system column"
    a = a or next((s for s in systems if s != b), None)
    b = b or next((s for s in systems if s != a), None)
    if a is None or b is None:
        raise InputError("the table needs two system columns to compare", file=table.name, line=1,
                         hint=f"The columns are: {listed(frame.columns)}; name the gold, A and B columns.")
    notes = list(table.notes)
    if unnamed and len(systems) > 2:  # the others are not compared: say so, and how
        notes.append(f"{table.name} has {len(systems)} system columns ({', '.join(map(str, systems))}): {a} is "
                     f"compared with {b}; choose with --a and --b, or compare them all with `sigcore many`")
    gold = _gold(_values(frame[mapping.gold]), table.name, table.lines) if mapping.gold else None
    values = [_prediction(_values(frame[c]), f"{table.name} column {c!r}", table.lines, notes) for c in (a, b)]
    gold, values = _same_kind(gold, values, notes)
    if mapping.id is not None:
        _no_duplicates(frame[mapping.id].tolist(), table.name, table.lines)
    sources = {role: (table.name, table.lines) for role in ("gold", "a", "b")}
    columns = {"gold": mapping.gold, "A": a, "B": b, "id": mapping.id, "group": mapping.group}
    guessed = {"gold": "named like gold", "A": "the first system column",
               "B": "named like a baseline" if baseline_named(str(b)) else "the next system column",
               "id": "the unnamed first column, as pandas writes its index" if mapping.id == INDEX else
               "named like an id", "group": "named like a group"}
    decided = [Role("table", table.name)] + [Role(role, f"column {str(name)!r}", why.get(role, guessed[role]))
                                             for role, name in columns.items() if name is not None]
    decided += [] if mapping.gold is not None else [Role("gold", "none", "no column is named like gold")]
    return Aligned(gold, values[0], values[1], str(a), str(b),
                   ids=frame[mapping.id].tolist() if mapping.id else None,
                   groups=frame[mapping.group].tolist() if mapping.group else None,
                   sources=sources, notes=tuple(notes), columns={k: str(v) for k, v in columns.items() if v is not None},
                   roles=tuple(decided), outputs=(str(a), str(b)))


ROW_ORDER = ""  # id=ROW_ORDER pairs files by row even where they share an id column


def shared_id(tables: Sequence) -> str | None:
    """The id column every file has under the same name (guessed from the names, as for a table), if any."""
    names = {guess_mapping(t.frame).id for t in tables}
    return names.pop() if len(names) == 1 else None


def from_files(gold, a, b, *, id: str | None = None, on_unmatched: str = "stop", gold_column: str | None = None,
               outputs: Sequence[str | None] = (None, None), why: str = "") -> Aligned:
    """Gold (or None) and one file per system; aligned by ``id`` when every file has that column, by the id
    column they share when ``id`` is None (rows shuffled in one file would otherwise pair the wrong items),
    and by row with ``id=ROW_ORDER``. System files that carry their own gold column (``gold_column``, or one
    named like gold) are checked to agree with the gold, or with each other without a gold file."""
    if on_unmatched not in ON_UNMATCHED:
        raise SettingsError(f"`on_unmatched` must be 'stop' or 'drop', not {on_unmatched!r}")
    if gold is None and a.format == "conll" and b.format == "conll" and _has_gold(a) and _has_gold(b):
        return _conll_pair(a, b)
    many = from_system_files(gold, [a, b], id=id, on_unmatched=on_unmatched, names=["a", "b"],  # roles as names
                             gold_column=gold_column, outputs=outputs, why=why)
    return Aligned(many.gold, many.systems["a"], many.systems["b"], a.name, b.name, ids=many.ids,
                   sources=many.sources, notes=many.notes, columns=many.columns, by_row=many.by_row,
                   roles=tuple(replace(r, role={"a": "A", "b": "B"}.get(r.role, r.role)) for r in many.roles),
                   outputs=(*many.outputs, a.name, b.name))


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
    roles: tuple[Role, ...] = ()  # what was decided about the files and columns, and why (shown to the user)
    outputs: tuple[str, ...] = ()  # the columns the systems' outputs came from, for what their names say

    def locate(self, error: InputError) -> InputError:
        """An engine error about one system's item k (``error.system``, as ``sigcore.compare_many`` names it) or
        gold's, re-addressed to the file and line it came from."""
        role = getattr(error, "system", None) or ("gold" if error.what.startswith("gold") else None)
        if error.file is not None or error.line is None or role not in self.sources \
                or not 1 <= error.line <= len(self.sources[role][1]):
            return error
        return at_source(error, error.what, *self.sources[role])


def from_system_files(gold, systems: Sequence, *, id: str | None = None, on_unmatched: str = "stop",
                      names: Sequence[str] | None = None, gold_column: str | None = None,
                      outputs: Sequence[str | None] | None = None, why: str = "") -> AlignedMany:
    """Gold (or None) and one file per system, aligned as :func:`from_files` aligns two; systems are named
    ``names`` (default: their file names, as short as stays unique: ``LIUM-NMT.4900.de`` is ``LIUM-NMT``).
    ``outputs`` names each system file's output column (None: the one named like outputs, or the only one);
    ``why`` says how the gold file was chosen, for :attr:`AlignedMany.roles`."""
    if on_unmatched not in ON_UNMATCHED:
        raise SettingsError(f"`on_unmatched` must be 'stop' or 'drop', not {on_unmatched!r}")
    systems = list(systems)
    tables = ([gold] if gold is not None else []) + systems
    names = list(names) if names is not None else system_names([t.name for t in systems])
    roles = (["gold"] if gold is not None else []) + names
    if gold_column is not None:  # --gold with several files: that column of every file that must have one
        for t in (tables if gold is None else [gold]):
            _column(t, gold_column, "gold")
    own = [own_gold(t, gold_column) for t in systems]  # a system file's own gold column, if it has one
    outputs = list(outputs) if outputs is not None else [None] * len(systems)
    columns = ([_value_column(gold, "gold", gold_column)] if gold is not None else []) + [
        _column(t, out, "outputs").name if out else _value_column(t, "system", exclude=g)
        for t, out, g in zip(systems, outputs, own)]
    notes = [note for t in tables for note in t.notes]
    shared = shared_id(tables)
    if id is None:
        id = shared
    if id:
        keys = [_column(t, id, "id").tolist() for t in tables]
        canonical = [item_keys(k) for k in keys]  # once: the pairing rule's key of every id (sigcore.io.ids)
        for key, t, c in zip(keys, tables, canonical):
            _no_duplicates(key, t.name, t.lines, c)
        order, matched = _match(keys, tables, on_unmatched, canonical)
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
    picked = [_objects(t.frame[c])[o].tolist() for t, c, o in zip(tables, columns, order)]
    lines = [t.lines[o] for t, o in zip(tables, order)]
    first = 1 if gold is not None else 0
    k = next((i for i, g in enumerate(own) if g is not None), None)  # without a gold file: the first gold column
    reference = ((picked[0], gold, lines[0]) if gold is not None else None if k is None else
                 (_objects(systems[k].frame[own[k]])[order[first + k]].tolist(), systems[k],
                  lines[first + k]))
    if reference is not None:
        _check_gold(reference, systems, own, order[first:], lines[first:])
    gold_values = None if reference is None else _gold(reference[0], reference[1].name, reference[2])
    values = [_prediction(v, t.name, ln, notes) for v, t, ln in zip(picked[first:], systems, lines[first:])]
    gold_values, values = _same_kind(gold_values, values, notes)
    ids = tables[0].frame[id].to_numpy(dtype=object)[order[0]].tolist() if id else None  # once, not once per item
    sources = dict(zip(roles, ((t.name, ln) for t, ln in zip(tables, lines))))
    if reference is not None:
        sources["gold"] = (reference[1].name, reference[2])
    decided = _file_roles(gold, columns[0] if gold is not None else None, systems, names, columns[first:], own,
                          why, len(ids) if ids is not None else len(values[0]))
    decided.append(Role("pairing", f"by the id column {id!r}" if id else "by row",
                        "every file has it" if id and id == shared else "given" if id else
                        "the files have no id column in common" if shared is None else "given"))
    return AlignedMany(gold_values, dict(zip(names, values)), ids=ids, sources=sources, notes=tuple(notes),
                       columns={"id": id} if id else {}, by_row=not id and shared is not None, roles=tuple(decided),
                       outputs=tuple(str(c) for c in columns[first:]))


def own_gold(table, gold_column: str | None = None) -> str | None:
    """A system file's own gold column: ``gold_column`` where it has it, else one named like gold beside another
    column for the outputs (a file of one column is all outputs)."""
    if gold_column is not None:
        return gold_column if gold_column in table.frame.columns else None
    if table.format == "conll":
        return None
    guess = guess_mapping(table.frame)
    return guess.gold if guess.gold is not None and guess.systems else None


def _check_gold(reference, systems, own, orders, lines) -> None:
    """Every system file's own gold column (``own``) agrees, item by item, with ``reference``: the gold's values,
    its table and the lines they came from (the gold file's, or the first system file's gold column)."""
    values, where, where_lines = reference
    for t, g, o, ln in zip(systems, own, orders, lines):
        if g is None or t is where:
            continue
        for i, (x, y) in enumerate(zip(values, _objects(t.frame[g])[o].tolist())):
            if not _same_label(x, y):
                raise InputError(f"its gold column {g!r} has {shown(y)} where {where.name} line "
                                 f"{int(where_lines[i])} has {shown(x)}", file=t.name, line=int(ln[i]),
                                 hint="Every file must hold the same test set with the same gold labels; check that "
                                      "the files come from one evaluation.")


def _same_label(x: Any, y: Any) -> bool:
    """Two gold values as files write them: 3, 3.0 and "3 " are one label; lists (tags) compare as they are."""
    if isinstance(x, (str, int, float)) and isinstance(y, (str, int, float)):
        return str(_as_text(x)).strip() == str(_as_text(y)).strip()
    return x == y


def _file_roles(gold, gold_col, systems, names, outputs, own, why, n) -> list[Role]:
    """What the files and columns were taken for, as the user is shown it."""
    out = []
    with_gold = [t.name for t, g in zip(systems, own) if g is not None]
    if gold is not None:
        column = "" if gold.format == "text" else f" column {gold_col!r}"
        out.append(Role("gold", f"{gold.name}{column}", why))
        if with_gold:
            out.append(Role("gold", f"checked against the gold column of {', '.join(with_gold)}",
                            f"they agree on all {n:,} items"))
    elif with_gold:
        cols = sorted({g for g in own if g is not None})
        out.append(Role("gold", f"the column {', '.join(map(repr, cols))} of {', '.join(with_gold)}",
                        f"each of these files has one; they agree on all {n:,} items" if len(with_gold) > 1
                        else "the only gold among the files"))
    for name, t, column in zip(names, systems, outputs):
        where = t.name if t.format == "text" else f"{t.name} column {column!r}"
        out.append(Role(name, where, ""))
    return out


NO_GOLD_FILE = -1  # gold_file=NO_GOLD_FILE: none of the files is the gold (per-item scores, or gold columns)


def pick_gold_file(tables: Sequence, *, gold_file: int | None = None, gold: str | None = None) -> tuple[int | None, str]:
    """Which of several files is the gold one (its position, or None), and why, by its name, not its place: a file
    named like gold (:func:`sigcore.io.roles.gold_named`) wherever it stands; none when every file carries its own
    gold column; the one file that holds only a gold column. Two gold names, or none (a shell glob's order says
    nothing of which file is the gold), raise :class:`Ambiguous`.
    ``gold_file`` (a position, or :data:`NO_GOLD_FILE`) says it instead."""
    names = [t.name for t in tables]
    if gold is not None and not any(gold in t.frame.columns for t in tables):
        raise InputError(f"no column {gold!r} for gold", file=names[0], line=1,
                         hint=f"The columns are: {listed(tables[0].frame.columns)}.")
    if gold_file is not None:
        if gold_file != NO_GOLD_FILE and not 0 <= gold_file < len(tables):
            raise SettingsError(f"`gold_file` must be the position of one of the {len(tables)} files, not {gold_file!r}")
        return (None, "given") if gold_file == NO_GOLD_FILE else (gold_file, "given")
    named = gold_files(names)
    if len(named) == 1:
        return named[0], "named like a gold file"
    if len(named) > 1:
        choices = [names[i] for i in named]
        raise Ambiguous(f"{len(named)} files are named like the gold: {', '.join(choices)}",
                        question="Which file is the gold?", choices=choices, flag="--gold-file")
    own = [own_gold(t, gold) for t in tables]
    if all(g is not None for g in own) or (len(tables) == 2 and gold is None):
        return None, ""  # each file its own gold column; or two system files (CoNLL with gold, per-item scores)
    only = [i for i, t in enumerate(tables) if _gold_only(t, gold)]
    if len(only) == 1:
        return only[0], "its only column is named like gold"
    raise Ambiguous(f"none of the files is named like the gold ({GOLD_NAMES})", question="Which file is the gold?",
                    choices=names, flag="--gold-file")  # a shell glob's order says nothing of which it is


def _gold_only(table, gold: str | None) -> bool:
    """A file of gold values alone: one column named like gold (or ``gold``), beside an id at most."""
    if table.format == "conll":
        return False
    guess = guess_mapping(table.frame)
    column = gold if gold is not None and gold in table.frame.columns else guess.gold
    return column is not None and not [c for c in guess.systems if c != column]


def pick_pair(systems: Sequence[str]) -> tuple[str | None, str | None, str]:
    """A and B among a table's system columns: the one named like a baseline is B (and why), else the first two."""
    order, why = order_systems(systems)
    if len(systems) < 2:
        return (systems[0] if systems else None), None, ""
    if why == "the order given":
        return systems[0], systems[1], ""
    return systems[order[0]], systems[order[-1]], why


def order_systems(names: Sequence[str], baseline: str | int | None = None) -> tuple[list[int], str]:
    """The systems' positions with the baseline last (B, so that δ = A − B is "yours minus the baseline"), and
    why: the baseline given (a name as :func:`match_system` takes it, or its position), the one named like a
    baseline, or the order given."""
    if baseline is not None:
        k = baseline if isinstance(baseline, int) else match_system(baseline, names)
        return [i for i in range(len(names)) if i != k] + [k], "given as the baseline"
    k = baseline_index(names)
    if k is None or len(names) < 2:
        return list(range(len(names))), "the order given"
    return [i for i in range(len(names)) if i != k] + [k], "named like a baseline"


def match_system(name: str, names: Sequence[str]) -> int:
    """The system ``name`` stands for: its name as shown, its file's name or path, or the file's name without
    its extensions (``LIUM-NMT``, ``LIUM-NMT.4900.de``, ``mt/LIUM-NMT.4900.de.gz`` are one system)."""
    def forms(n: str) -> set[str]:
        base = Path(str(n)).name
        return {str(n), base, base.removesuffix(".gz"), base.split(".")[0]}
    wanted = forms(name)
    found = [i for i, n in enumerate(names) if forms(n) & wanted]
    if len(found) != 1:
        raise SettingsError(f"{name!r} is {'not one of' if not found else 'more than one of'} the systems",
                            hint=f"The systems are: {', '.join(map(str, names))}.")
    return found[0]


def load_many(tables: Sequence, *, has_gold: bool = True, gold: str | None = None, id: str | None = None,
              group: str | None = None, on_unmatched: str = "stop", gold_file: int | None = None) -> AlignedMany:
    """What ``sigcore many`` reads: one wide table (gold, and a column per system), or a gold file (chosen by
    :func:`pick_gold_file`) and one file per system, or system files that each carry gold (``has_gold=False``:
    only system files, e.g. per-item scores)."""
    if len(tables) > 1 and all(t.format == "conll" and _has_gold(t) for t in tables):  # each its own gold
        return _conll_many(tables)
    if any(t.format in LOGS for t in tables):
        raise InputError("several models' evaluation logs are not read together yet",
                         file=next(t.name for t in tables if t.format in LOGS),
                         hint="Compare two logs at a time: sigcore compare samples_A.jsonl samples_B.jsonl --metric acc.")
    if len(tables) > 1:
        index, why = pick_gold_file(tables, gold_file=NO_GOLD_FILE if not has_gold and gold_file is None
                                    else gold_file, gold=gold)
        gold_table = None if index is None else tables[index]
        systems = [t for i, t in enumerate(tables) if i != index]
        if len(systems) < 2:
            raise InputError(f"got {len(tables)} files: a gold file and {len(systems)} system file",
                             hint="Give the gold file and one file per system (at least two).")
        return from_system_files(gold_table, systems, id=id, on_unmatched=on_unmatched, gold_column=gold, why=why)
    table = tables[0]
    guess = guess_mapping(table.frame)
    mapping = Mapping(gold=gold or guess.gold, systems=guess.systems, id=id or guess.id, group=group or guess.group)
    frame = table.frame
    for role, name in (("gold", mapping.gold), ("id", mapping.id), ("group", mapping.group)):
        if name is not None and name not in frame.columns:
            raise InputError(f"no column {name!r} for {role}", file=table.name, line=1,
                             hint=f"The columns are: {listed(frame.columns)}.")
    systems = [c for c in mapping.systems if c not in (mapping.gold, mapping.id, mapping.group)]
    if len(systems) < 2:
        raise InputError(f"the table needs at least two system columns, found {len(systems)}", file=table.name,
                         line=1, hint=f"The columns are: {listed(frame.columns)}.")
    notes = list(table.notes)
    gold_values = _gold(_values(frame[mapping.gold]), table.name, table.lines) if mapping.gold else None
    values = [_prediction(_values(frame[c]), f"{table.name} column {c!r}", table.lines, notes) for c in systems]
    gold_values, values = _same_kind(gold_values, values, notes)
    if mapping.id is not None:
        _no_duplicates(frame[mapping.id].tolist(), table.name, table.lines)
    columns = {"gold": mapping.gold, "id": mapping.id, "group": mapping.group}
    decided = [Role("table", table.name)] + [
        Role(role, f"column {str(name)!r}", "given" if given else {"gold": "named like gold", "id": "named like an id",
                                                                     "group": "named like a group"}[role])
        for (role, name), given in zip(columns.items(), (gold, id, group)) if name is not None]
    decided.append(Role("systems", ", ".join(map(repr, map(str, systems))), "the other columns"))
    return AlignedMany(gold_values, {str(c): v for c, v in zip(systems, values)},
                       ids=frame[mapping.id].tolist() if mapping.id else None,
                       groups=frame[mapping.group].tolist() if mapping.group else None,
                       sources={role: (table.name, table.lines) for role in ["gold", *map(str, systems)]},
                       notes=tuple(notes), columns={k: str(v) for k, v in columns.items() if v is not None},
                       roles=tuple(decided), outputs=tuple(map(str, systems)))


def system_names(files: Sequence[str]) -> list[str]:
    """Short names for system files: the file name up to its first dot where those are unique, else the file
    name without ``.gz``."""
    plain = [Path(f).name.removesuffix(".gz") for f in files]
    short = [name.split(".")[0] or name for name in plain]
    if len(set(short)) == len(short):
        return short
    if len(set(plain)) == len(plain):
        return plain
    paths = [str(f) for f in files]  # the same name in two folders: the paths tell them apart
    if len(set(paths)) == len(paths):
        return paths
    counts, seen = Counter(plain), Counter()  # two uploads of one name: told apart by their order
    named = []
    for name in plain:
        seen[name] += 1
        named.append(f"{name} #{seen[name]}" if counts[name] > 1 else name)
    return named


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
    order, notes = _match(keys, [a, b], on_unmatched)
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


def _value_column(table, role: str, given: str | None = None, exclude: str | None = None) -> str:
    """The one column of a file that holds its gold values (``given`` when named) or its system's outputs (never
    ``exclude``, the file's own gold column)."""
    if given is not None:
        return _column(table, given, role).name
    columns = [c for c in table.frame.columns if _key(c) not in _ID and _key(c) not in ("tokens", "words")
               and c != exclude]
    if len(columns) == 1:
        return columns[0]
    wanted = _GOLD if role == "gold" else _OUTPUT
    preferred = [c for c in columns if _key(c) in wanted and (role == "gold" or _key(c) not in _GOLD)]
    if table.format == "conll" and role != "gold" and len(columns) >= 2:
        return columns[-1]  # token, gold, pred: the system's tags are last
    if preferred:
        return preferred[0]
    flag = "--gold COLUMN" if role == "gold" else "--a COLUMN (and --b for B's file)"
    raise InputError(f"cannot tell which column holds the {'gold values' if role == 'gold' else 'outputs'}",
                     file=table.name, line=1, hint=f"The columns are: {listed(table.frame.columns)}; "
                     f"name it ({flag}), or give one table with gold, A and B columns.")


def _column(table, name: str, role: str) -> pd.Series:
    if name not in table.frame.columns:
        raise InputError(f"no column {name!r} for {role}", file=table.name, line=1,
                         hint=f"The columns are: {listed(table.frame.columns)}.")
    return table.frame[name]


def _no_duplicates(ids: list, file: str, lines: np.ndarray, keys: list | None = None) -> None:
    """Each id once in a file, by the pairing rule (:mod:`sigcore.io.ids`; ``keys``, its keys of ``ids`` where
    known): ``7`` and ``007`` are one id twice."""
    keys = item_keys(ids) if keys is None else keys
    if len(set(keys)) == len(keys):  # the usual case, in one pass of C
        return
    seen: dict[Any, int] = {}
    for i, key in enumerate(keys):
        if key in seen:
            j = seen[key]
            spelt = str(ids[j]) != str(ids[i])  # one number written two ways
            raise InputError(f"id {ids[i]!r} occurs twice (also on line {int(lines[j])}"
                             + (f", as {ids[j]!r})" if spelt else ")"), file=file, line=int(lines[i]),
                             hint="Ids must be unique within a file." + (f" {RULE}" if spelt else ""))
        seen[key] = i


def _match(ids: list[list], tables: list, on_unmatched: str,
           keys: list[list] | None = None) -> tuple[list[np.ndarray], list[str]]:
    """Row indices of each table for the ids all tables share, in the first table's order; ids pair by the one
    rule of :mod:`sigcore.io.ids` (the same number however written, or else the same text), and a note names ids
    paired that were written differently (``1.0`` here, ``1`` there)."""
    keys = [item_keys(i) for i in ids] if keys is None else keys
    positions = [{k: i for i, k in enumerate(key)} for key in keys]
    common = set(positions[0]).intersection(*positions[1:])  # one lookup per id below, not one per file
    shared = [k for k in keys[0] if k in common]
    notes = []
    for key, raw, table, pos in zip(keys, ids, tables, positions):
        if len(pos) == len(common):  # every id of this file is in every other
            continue
        unmatched = [k for k in key if k not in common]
        if on_unmatched == "stop":  # the file that lacks them is where to look; the id and its line are here
            lacking, other = next((t, p) for t, p in zip(tables, positions) if unmatched[0] not in p)
            missing = [k for k in key if k not in other]
            first = pos[missing[0]]
            raise InputError(f"lacks {counted(len(missing), 'id')} that {table.name} has (the first is "
                             f"{_show(raw[first])}, {_place(table, first)} of {table.name})",
                             file=lacking.name, hint=f"{RULE} Check that the files come from the same test set, "
                             "or drop the unmatched items ('Drop unmatched items' in the app, --drop-unmatched on "
                             "the command line, on_unmatched='drop' in the API).")
        notes.append(f"dropped {counted(len(unmatched), 'item')} of {table.name} whose ids are not in every file")
    if not shared:
        raise InputError("the files share no ids", file=tables[0].name, hint=f"Check the id column. {RULE}")
    order = [np.array([p[k] for k in shared], dtype=np.intp) for p in positions]
    notes += _respelt(ids, keys, tables, order)
    return order, notes


def _respelt(ids: list[list], keys: list[list], tables: list, order: list[np.ndarray]) -> list[str]:
    """A note for each file that writes some paired ids otherwise than the first file (``1.0`` for ``1``): paired,
    as the same number, and said, with the first of them."""
    notes = []
    first = None
    for raw, key, table, rows in zip(ids[1:], keys[1:], tables[1:], order[1:]):
        if key is raw and keys[0] is ids[0]:  # every id of both is its own key: paired ids are written alike
            continue
        first = first or [str(_raw(ids[0][i])) for i in order[0]]
        differ = [(k, str(_raw(raw[i]))) for k, i in enumerate(rows) if str(_raw(raw[i])) != first[k]]
        if differ:
            k, written = differ[0]
            notes.append(f"{table.name} writes {counted(len(differ), 'id')} otherwise than {tables[0].name}, paired "
                         f"as the same number (the first: {shown(written)} for {shown(first[k])})")
    return notes


def _place(table, row: int) -> str:
    """Where a row is in its file: its line; in an Inspect log (no lines), its place among the log's samples."""
    n = int(table.lines[row])
    return f"sample {n}" if table.format == "inspect" else f"on line {n}"


def _raw(key: Any) -> Any:
    return key[0] if isinstance(key, tuple) and len(key) == 2 and key[1] == "none" else key


def _show(key: Any) -> str:
    return repr(_raw(key))


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or (isinstance(value, str)
                                                                                 and not value.strip())


def _distinct(values: list) -> list:
    """The values, each once where they can be hashed (a million labels are a few kinds)."""
    try:
        return list(set(values))
    except TypeError:
        return values


def _blank(values: list) -> list[int]:
    """The items whose value is blank (None, NaN, empty or spaces), each distinct value looked at once."""
    try:
        missing = {v for v in set(values) if _missing(v)}
    except TypeError:  # unhashable values (token lists): one by one
        return [i for i, v in enumerate(values) if _missing(v)]
    return [i for i, v in enumerate(values) if v in missing] if missing else []


def _gold(values: list, file: str, lines: np.ndarray) -> list:
    for i in _blank(values)[:1]:
        raise InputError("the gold value is blank", file=file, line=int(lines[i]),
                         hint="Every item needs a gold label or reference; remove the item or fill it in.")
    return values


def _prediction(values: list, who: str, lines: np.ndarray, notes: list[str]) -> list:
    blank = _blank(values)
    if blank:
        where = ", ".join(str(int(lines[i])) for i in blank[:5]) + (", ..." if len(blank) > 5 else "")
        notes.append(f"{who} has {len(blank)} blank outputs (line {where}): a label metric counts them as "
                     "wrong answers; the mean refuses them")
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
         id: str | None = None, group: str | None = None, on_unmatched: str = "stop", gold_file: int | None = None,
         baseline: str | int | None = None, filter: str | None = None) -> Aligned:
    """What the command line and the app call: one table, two lm-eval logs (``filter``: which of their filters) or
    CoNLL files, or gold + A + B.

    One table: ``gold``, ``a``, ``b``, ``id`` and ``group`` name its columns (overriding the guess). Several
    files: the gold file by its name (:func:`pick_gold_file`; ``gold_file`` gives its position), ``gold`` the gold
    column every file that has one must have, ``a`` and ``b`` A's and B's output columns, ``id`` the id column
    they share (guessed when they share one; ``ROW_ORDER`` pairs them by row). ``baseline`` names the system
    that is B (or gives its file's position), else the one named like a baseline is, else the second;
    :attr:`Aligned.roles` says what was chosen.
    """
    if len(tables) == 1:
        if baseline is not None and b is not None and baseline != b:
            raise SettingsError(f"the baseline {baseline!r} and B {b!r} are two columns for one role",
                                hint="Name the baseline's column once (--baseline or --b).")
        b = b if baseline is None else baseline  # with one table, the baseline is B's column
        guess = guess_mapping(tables[0].frame)
        mapping = Mapping(gold=gold or guess.gold, systems=guess.systems, id=id or guess.id,
                          group=group or guess.group)
        given = [role for role, value in (("gold", gold), ("A", a), ("B", b), ("id", id), ("group", group)) if value]
        # (a baseline given is B given)
        return from_table(tables[0], mapping, a=a, b=b, given=given)
    logs = len(tables) == 2 and all(t.format in LOGS for t in tables)
    if group is not None and not logs:
        raise SettingsError("`group` names a column of one table, or an Inspect log's metadata field",
                            hint="Give the items' groups as a column of one table (with gold, A and B columns), or "
                                 "two Inspect logs with --group metadata.FIELD.")
    if logs:
        if tables[0].format != tables[1].format:
            raise InputError(f"is an {'Inspect' if tables[1].format == 'inspect' else 'lm-eval'} log and "
                             f"{tables[0].name} is not", file=tables[1].name,
                             hint="Compare two logs of the same tool (or convert both: sigcore convert).")
        options = {"on_unmatched": on_unmatched, "filter": filter, "group": group}
        return _ordered(from_lm_eval(*tables, **options), tables, baseline, flip=from_lm_eval, **options)
    if len(tables) > 3:
        raise InputError(f"got {len(tables)} files", hint="Give one table; or a gold file and two system files; or two "
                         "files that each carry gold or per-item scores. To compare more systems: sigcore many.")
    index, why = pick_gold_file(tables, gold_file=gold_file, gold=gold)
    systems = [t for i, t in enumerate(tables) if i != index]
    if len(systems) != 2:
        kind = "no gold file" if index is None else "a gold file"
        raise InputError(f"got {len(tables)} files: {kind} and {len(systems)} system files",
                         hint="Give one table; or a gold file and two system files; or two files that each carry "
                              "gold (a gold column, CoNLL) or per-item scores; or two lm-evaluation-harness logs.")
    if isinstance(baseline, int):  # a position among the files given: among the system files, then
        baseline = [i for i in range(len(tables)) if i != index].index(baseline)
    order, ab = order_systems([t.name for t in systems], baseline)
    outputs = [(a, b)[i] for i in order]
    data = from_files(None if index is None else tables[index], *(systems[i] for i in order), id=id,
                      on_unmatched=on_unmatched, gold_column=gold, outputs=outputs, why=why)
    spelled = {**data.columns, **({"gold_file": tables[index].name} if index is not None else {}),
               "baseline": data.b_name}  # so that a command line can say what was chosen by name
    if ab == "the order given":
        ab = "the second system file; --baseline to choose"
    return replace(data, columns=spelled, roles=tuple(replace(r, why=ab) if r.role == "B" else r
                                                      for r in data.roles))


def _ordered(data: Aligned, tables, baseline, flip, **options) -> Aligned:
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


def engine_inputs(aligned: Aligned, metric: str) -> tuple[list | None, list, list, str]:
    """(gold, a, b, metric) as ``sigcore.compare`` takes them: a per-item score field of the files (lm-eval's
    ``acc``; it wins over a registry metric of the same name, as it is what the harness reports), else the
    outputs under a metric of the registry."""
    if metric in aligned.scores:
        return score_inputs(aligned, metric)
    if metric in ("accuracy", "exact_match") and right_wrong(aligned):
        return [1] * aligned.n, [int(number(v)) for v in aligned.a], [int(number(v)) for v in aligned.b], metric
    systems = {n: v for n, v in zip(aligned.display_names, (aligned.a, aligned.b))}
    fitting(aligned.gold, systems, metric, lambda: suggest_metrics(aligned))
    if metric in LABEL_METRICS:
        disjoint_labels(aligned.gold, systems)
    return aligned.gold, aligned.a, aligned.b, metric


REGRESSION_METRICS = ("mae", "mse", "rmse")


def fitting(gold: list | None, systems: dict[str, list], metric: str, suggested) -> None:
    """Refuse a metric that would score something else than the data hold: the mean of the predictions where a gold
    column was found (it would average the predictions and ignore gold), or labels' exact matches on regression
    outputs (:func:`sigcore.io.roles.regression_reason`: every item "wrong" by a rounding); the refusal names the
    metrics that fit (``suggested()``)."""
    if gold is None:
        return
    if metric == "mean":
        raise SettingsError("the mean averages per-item scores, and these are predictions with their gold: the mean "
                            "of the predictions would ignore gold", hint=f"Choose a metric that scores the predictions "
                                                                          f"against gold: {', '.join(suggested())}.")
    why = regression_reason(gold, list(systems.values())) if metric in (*LABEL_METRICS, "exact_match") else None
    if why:
        raise SettingsError(f"{metric} counts predictions equal to gold, and these read as regression outputs ({why}): "
                            "a prediction off by 0.001 would count as wrong as one off by 1,000",
                            hint=f"Choose a metric of the errors: {', '.join(REGRESSION_METRICS)} (lower is better). "
                                 "If they are answers to match exactly, give each system's right (1) or wrong (0) per "
                                 "item, named like correctness (a_correct), and compare those as accuracy.")


def reading(data: "Aligned | AlignedMany") -> Role | None:
    """How the data's numeric gold and outputs read (regression outputs or answers, and why), as one more line of
    the roles every entry point shows (:func:`sigcore.io.roles.number_role`); None where they are not numbers."""
    systems = [data.a, data.b] if isinstance(data, Aligned) else list(data.systems.values())
    return number_role(data.gold, systems)


LABEL_METRICS = ("accuracy", "macro_f1", "micro_f1", "weighted_f1", "f1", "precision", "recall")
_FEW_LABELS = 50  # more distinct gold values than this are answers (exact match), not a label set


def disjoint_labels(gold: list | None, systems: dict[str, list]) -> None:
    """Refuse a system none of whose labels is one of gold's: then every item is wrong by spelling, not by the
    system (POS for pos, True for true, café in NFD for café in NFC), and "B beats A, p = 1e-24" would be the
    files' doing. Says when the labels agree once case or Unicode normalisation is ignored."""
    import unicodedata

    if gold is None or len(gold) < 10:  # a handful of items may disagree entirely by chance
        return
    labels = {str(v).strip() for v in _distinct(gold)} - {""}
    if not 2 <= len(labels) <= _FEW_LABELS:
        return
    for name, outputs in systems.items():
        own = {str(v).strip() for v in _distinct(outputs)} - {""}
        if len(own) < 2 or own & labels:  # one label of its own: an always-wrong system may be just that
            continue
        nfc = functools.partial(unicodedata.normalize, "NFC")
        why = next((f"they agree {when}" for when, same in (
            ("when case is ignored", str.casefold), ("after Unicode normalisation (NFC)", nfc),
            ("after Unicode normalisation and case folding", lambda x: nfc(x).casefold()))
            if set(map(same, own)) & set(map(same, labels))), None)
        raise InputError(f"none of the labels of {shown(str(name))} is one of gold's ({listed(sorted(own), 6)} against "
                         f"{listed(sorted(labels), 6)}), so every item would count as wrong"
                         + (f"; {why}" if why else ""),
                         hint="Write the systems' labels as gold writes them (the same spelling, case and encoding); "
                              "or, if they are per-item scores, choose the mean.")


def right_wrong(aligned: Aligned | AlignedMany) -> bool:
    """Whether outputs without gold are each item's right (1) or wrong (0), as their names say (correct, acc, em,
    solved...): they are compared as accuracy against a gold of 1s, so that McNemar's test fits."""
    systems = [aligned.a, aligned.b] if isinstance(aligned, Aligned) else list(aligned.systems.values())
    values = [v for system in systems for v in system]
    return (aligned.gold is None and bool(values) and all(_is_number(v) and number(v) in (0.0, 1.0) for v in values)
            and correctness_named(aligned.outputs))


def score_inputs(aligned: Aligned, name: str) -> tuple[list | None, list, list, str]:
    """(gold, a, b, metric) for ``sigcore.compare`` on a per-item score field such as lm-eval's ``acc``.

    0/1 fields are right/wrong per item, so they are compared as accuracy (McNemar fits); others as a mean.
    """
    a, b = aligned.scores[name]
    if all(v in (0, 1) for v in a + b):
        return [1] * len(a), [int(v) for v in a], [int(v) for v in b], "accuracy"
    return None, a, b, "mean"


def _objects(column: pd.Series) -> np.ndarray:
    """A column as an object array in which a repeated label is one Python object: a million labels of four kinds
    take 8 bytes an item, not some 60 (the command line held 742 MB for a 10⁶-row CSV). Mostly distinct text
    (translations, ids) is taken as it is."""
    if not pd.api.types.is_string_dtype(column.dtype) or column.dtype == object:
        return column.to_numpy(dtype=object)
    codes, uniques = pd.factorize(column)
    if len(uniques) * 2 > len(column) or (codes < 0).any():
        return column.to_numpy(dtype=object)
    return np.asarray(uniques, dtype=object)[codes]


def _values(column: pd.Series) -> list:
    return _objects(column).tolist()


def _is_numeric(value: Any) -> bool:
    """A number, finite or not ("nan", "inf" and "1e999" included)."""
    try:
        number(value)
        return not isinstance(value, bool)
    except (TypeError, ValueError):
        return False


def _is_number(value: Any) -> bool:
    try:
        return math.isfinite(number(value))
    except (TypeError, ValueError):
        return False


def metric_question(aligned: Aligned | AlignedMany) -> str | None:
    """Why averaging these outputs as per-item scores (the mean, which :func:`suggest_metrics` offers for numbers
    without gold) may be the wrong question: they look like class labels (:func:`sigcore.io.roles.label_reason`).
    None where the suggestion stands."""
    if aligned.gold is not None:
        return None
    systems = [aligned.a, aligned.b] if isinstance(aligned, Aligned) else list(aligned.systems.values())
    values = [v for system in systems for v in system[:500]]
    if not values or not all(map(_is_number, values)):
        return None
    reason = label_reason(values, list(aligned.outputs))
    return None if reason is None else (f"the outputs look like class labels ({reason}), and there is no gold to "
                                        "score them against")


def suggest_many_metrics(data: AlignedMany) -> list[str]:
    """The metrics that fit several systems' outputs, the most natural first: those of the first two, every system
    counting in whether numbers read as regression outputs."""
    first, second = list(data.systems)[:2]
    return suggest_metrics(Aligned(data.gold, data.systems[first], data.systems[second], first, second,
                                   outputs=data.outputs[:2]), list(data.systems.values()))


def default_baseline(data: AlignedMany) -> tuple[str, str]:
    """The system every other is compared with when none is named, and why: the one named like a baseline (its name
    or its file's), else the first."""
    names = list(data.systems)
    k = baseline_index(names)
    if k is None:
        k = baseline_index([data.sources.get(n, (n,))[0] for n in names])
    return (names[0], "the first system; --baseline to choose") if k is None else (names[k], "named like a baseline")


def many_inputs(data: AlignedMany, metric: str) -> tuple[list | None, dict[str, list]]:
    """(gold, systems) as ``sigcore.compare_many`` takes them: right/wrong outputs without gold (:func:`right_wrong`)
    against a gold of 1s, as :func:`engine_inputs` takes a pair."""
    if metric in ("accuracy", "exact_match") and right_wrong(data):
        n = len(next(iter(data.systems.values())))
        return [1] * n, {name: [int(number(v)) for v in values] for name, values in data.systems.items()}
    fitting(data.gold, data.systems, metric, lambda: suggest_many_metrics(data))
    if metric in LABEL_METRICS:
        disjoint_labels(data.gold, data.systems)
    return data.gold, data.systems


def suggest_metrics(aligned: Aligned, systems: list[list] | None = None) -> list[str]:
    """The metrics that fit these data, the most natural first.

    Tag sequences: span F1. Per-item 0/1 without gold, named like correctness: accuracy (McNemar fits), then the
    mean. Other per-item numbers without gold: the mean; anything else without gold: accuracy,
    whose refusal says that gold is missing and how to give it. Multi-word text (translations, generations),
    mostly distinct: BLEU, chrF, exact match. Numbers read as regression outputs (of ``systems``, by default A and
    B: :func:`sigcore.io.roles.regression_reason`): MAE, MSE, RMSE. Labels, a few words long or not ("I want to book a
    flight" as an intent): accuracy and the F1 family (binary P/R/F1 with two labels), then the errors where the
    labels are numbers (ratings 1 to 5). Logs (Inspect, lm-eval): their own per-sample scorers first, as ``many``
    takes them, so that a model's score is the one its log reports, not one recomputed from its answers.
    """
    fields = list(aligned.scores)
    computed = _recomputed(aligned, systems or [aligned.a, aligned.b])
    return fields + [m for m in computed if m not in fields]


def _recomputed(aligned: Aligned, systems: list[list]) -> list[str]:
    """The metrics computed from gold and outputs that fit these data, the most natural first."""
    if aligned.gold is None:
        if right_wrong(aligned):  # 0/1 named like correctness: right/wrong items, against a gold of 1s
            return ["accuracy", "mean"]
        # a system of numbers with a few gone wrong (nan, inf, a typo), or of numbers beside one written otherwise
        # (1_000), is scores: the mean names the bad one and its line, where accuracy would ask for gold
        scores = any(values and sum(map(_is_numeric, values)) >= 0.9 * len(values) for values in
                     ([v for v in system[:200] if not _missing(v)] for system in (aligned.a, aligned.b)))
        return ["mean" if scores else "accuracy"]
    sample = [v for v in aligned.gold[:200] if v is not None]
    if sample and all(isinstance(v, (list, tuple)) for v in sample):
        return ["span_f1"]
    texts = [v for v in sample if isinstance(v, str)]
    if (texts and sum(len(v.split()) > 2 for v in texts) > len(texts) / 2
            and len(set(texts)) > len(texts) / 2):  # references differ item by item; labels repeat
        return ["bleu", "chrf", "exact_match"]
    if regression_reason(aligned.gold, systems):
        return list(REGRESSION_METRICS)
    labels = {str(v).strip() for v in _distinct([*aligned.gold, *aligned.a, *aligned.b])}
    binary = ["f1", "precision", "recall"] if len(labels) == 2 else []
    numeric = number_kind([*aligned.gold[:500], *aligned.a[:500], *aligned.b[:500]])[0] is not None
    metrics = ["accuracy", "macro_f1", "micro_f1", "weighted_f1", *binary, "exact_match",
               *(REGRESSION_METRICS if numeric else ())]
    return metrics
