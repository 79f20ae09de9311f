"""Pairing system outputs item by item: one table's columns, or one file per system, aligned by id or by row.

Decisions (each documented in docs/reference/inputs.md):
- A single table holds gold and system columns; the roles are guessed from column names (:mod:`.columns`) and can
  be overridden.
- Several files: gold + one file per system, or files that each carry gold (a gold column, CoNLL). With an id
  column the files are aligned by id; without, they must have the same number of items, in the same order.
- Ids pair by one rule (:mod:`sigcore.io.ids`): the same number however written (1, 1.0, "1"), or else the
  same text. Ids missing from a file, extra ids and duplicated ids stop the comparison with their places, unless the
  caller asks to drop unmatched items (``on_unmatched="drop"``); the notes say how many were dropped.
- Blank values and numbers against text are handled as :mod:`.values` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..errors import InputError, SettingsError
from ..words import listed, shown
from .aligned import Aligned, AlignedMany
from .columns import Mapping, carries_gold, column_of, guess_mapping, own_gold, shared_id, value_column
from .ids import item_keys, match_ids, no_duplicates
from .inputs import INDEX
from .roles import Role, baseline_named
from .systems import pick_pair, system_names
from .values import checked_gold, column_values, kept_outputs, objects, same_kind, same_label

__all__ = ["ON_UNMATCHED", "from_table", "ROW_ORDER", "from_files", "from_system_files", "conll_many"]

ON_UNMATCHED = ("stop", "drop")


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
    gold = checked_gold(column_values(frame[mapping.gold]), table.name, table.lines) if mapping.gold else None
    values = [kept_outputs(column_values(frame[c]), f"{table.name} column {c!r}", table.lines, notes) for c in (a, b)]
    gold, values = same_kind(gold, values, notes)
    if mapping.id is not None:
        no_duplicates(frame[mapping.id].tolist(), table.name, table.lines)
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
                   sources=sources, notes=tuple(notes),
                   columns={k: str(v) for k, v in columns.items() if v is not None},
                   roles=tuple(decided), outputs=(str(a), str(b)))


ROW_ORDER = ""  # id=ROW_ORDER pairs files by row even where they share an id column


def from_files(gold, a, b, *, id: str | None = None, on_unmatched: str = "stop", gold_column: str | None = None,
               outputs: Sequence[str | None] = (None, None), why: str = "") -> Aligned:
    """Gold (or None) and one file per system; aligned by ``id`` when every file has that column, by the id
    column they share when ``id`` is None (rows shuffled in one file would otherwise pair the wrong items),
    and by row with ``id=ROW_ORDER``. System files that carry their own gold column (``gold_column``, or one
    named like gold) are checked to agree with the gold, or with each other without a gold file."""
    if on_unmatched not in ON_UNMATCHED:
        raise SettingsError(f"`on_unmatched` must be 'stop' or 'drop', not {on_unmatched!r}")
    if gold is None and a.format == "conll" and b.format == "conll" and carries_gold(a) and carries_gold(b):
        return _conll_pair(a, b)
    many = from_system_files(gold, [a, b], id=id, on_unmatched=on_unmatched, names=["a", "b"],  # roles as names
                             gold_column=gold_column, outputs=outputs, why=why)
    return Aligned(many.gold, many.systems["a"], many.systems["b"], a.name, b.name, ids=many.ids,
                   sources=many.sources, notes=many.notes, columns=many.columns, by_row=many.by_row,
                   roles=tuple(replace(r, role={"a": "A", "b": "B"}.get(r.role, r.role)) for r in many.roles),
                   outputs=(*many.outputs, a.name, b.name))


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
            column_of(t, gold_column, "gold")
    own = [own_gold(t, gold_column) for t in systems]  # a system file's own gold column, if it has one
    outputs = list(outputs) if outputs is not None else [None] * len(systems)
    columns = ([value_column(gold, "gold", gold_column)] if gold is not None else []) + [
        column_of(t, out, "outputs").name if out else value_column(t, "system", exclude=g)
        for t, out, g in zip(systems, outputs, own)]
    notes = [note for t in tables for note in t.notes]
    shared = shared_id(tables)
    if id is None:
        id = shared
    if id:
        keys = [column_of(t, id, "id").tolist() for t in tables]
        canonical = [item_keys(k) for k in keys]  # once: the pairing rule's key of every id (sigcore.io.ids)
        for key, t, c in zip(keys, tables, canonical):
            no_duplicates(key, t.name, t.lines, c)
        order, matched = match_ids(keys, tables, on_unmatched, canonical)
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
    picked = [objects(t.frame[c])[o].tolist() for t, c, o in zip(tables, columns, order)]
    lines = [t.lines[o] for t, o in zip(tables, order)]
    first = 1 if gold is not None else 0
    k = next((i for i, g in enumerate(own) if g is not None), None)  # without a gold file: the first gold column
    reference = ((picked[0], gold, lines[0]) if gold is not None else None if k is None else
                 (objects(systems[k].frame[own[k]])[order[first + k]].tolist(), systems[k],
                  lines[first + k]))
    if reference is not None:
        _check_gold(reference, systems, own, order[first:], lines[first:])
    gold_values = None if reference is None else checked_gold(reference[0], reference[1].name, reference[2])
    values = [kept_outputs(v, t.name, ln, notes) for v, t, ln in zip(picked[first:], systems, lines[first:])]
    gold_values, values = same_kind(gold_values, values, notes)
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


def _check_gold(reference, systems, own, orders, lines) -> None:
    """Every system file's own gold column (``own``) agrees, item by item, with ``reference``: the gold's values,
    its table and the lines they came from (the gold file's, or the first system file's gold column)."""
    values, where, where_lines = reference
    for t, g, o, ln in zip(systems, own, orders, lines):
        if g is None or t is where:
            continue
        for i, (x, y) in enumerate(zip(values, objects(t.frame[g])[o].tolist())):
            if not same_label(x, y):
                raise InputError(f"its gold column {g!r} has {shown(y)} where {where.name} line "
                                 f"{int(where_lines[i])} has {shown(x)}", file=t.name, line=int(ln[i]),
                                 hint="Every file must hold the same test set with the same gold labels; check that "
                                      "the files come from one evaluation.")


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


def _same_test_set(a, b) -> None:
    """Two CoNLL files that each carry tokens and gold tags: they must be the same, sentence by sentence."""
    for i, (ta, tb, ga, gb) in enumerate(zip(a.frame["tokens"], b.frame["tokens"], a.frame["gold"], b.frame["gold"])):
        if list(ta) != list(tb) or list(ga) != list(gb):
            raise InputError(f"sentence {i + 1} has other tokens or gold tags than in {a.name}", file=b.name,
                             line=int(b.lines[i]),
                             hint="Every file must tag the same test set with the same gold tags.")
    if len(a.frame) != len(b.frame):
        raise InputError(f"has {len(b.frame)} sentences but {a.name} has {len(a.frame)}", file=b.name)


def _conll_pair(a, b) -> Aligned:
    """Two CoNLL files that each carry tokens, gold tags and their system's tags: gold must agree."""
    many = conll_many([a, b], names=["a", "b"])
    return Aligned(many.gold, many.systems["a"], many.systems["b"], a.name, b.name, sources=many.sources)


def conll_many(tables: Sequence, names: Sequence[str] | None = None) -> AlignedMany:
    """CoNLL files that each carry gold: the gold of the first, each file's own tags as a system."""
    for t in tables[1:]:
        _same_test_set(tables[0], t)
    names = list(names) if names is not None else system_names([t.name for t in tables])
    return AlignedMany(tables[0].frame["gold"].tolist(),
                       {n: t.frame[value_column(t, "a")].tolist() for n, t in zip(names, tables)},
                       sources={"gold": (tables[0].name, tables[0].lines),
                                **{n: (t.name, t.lines) for n, t in zip(names, tables)}})
