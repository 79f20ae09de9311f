"""What the command line and the app read: files (as :func:`sigcore.io.read` reads them) to paired data.

:func:`load` takes one table, two evaluation logs, CoNLL files, or gold + A + B, to :class:`~.aligned.Aligned`;
:func:`load_many` one wide table or a gold file and a file per system to :class:`~.aligned.AlignedMany`. Each says
what it decided (``roles``) and refuses with the choices what the names leave open (:class:`~.roles.Ambiguous`).
The metric and the test come after, from the front door (:func:`sigcore.front.prepare`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..errors import InputError, SettingsError
from ..words import listed
from .aligned import Aligned, AlignedMany
from .columns import Mapping, carries_gold, guess_mapping
from .ids import no_duplicates
from .inputs import LOGS
from .log_pairs import from_lm_eval, ordered_logs
from .pairing import conll_many, from_files, from_system_files, from_table
from .roles import Role
from .systems import NO_GOLD_FILE, order_systems, pick_gold_file
from .values import checked_gold, column_values, kept_outputs, same_kind

__all__ = ["load_many", "load"]


def load_many(tables: Sequence, *, has_gold: bool = True, gold: str | None = None, id: str | None = None,
              group: str | None = None, on_unmatched: str = "stop", gold_file: int | None = None) -> AlignedMany:
    """What ``sigcore many`` reads: one wide table (gold, and a column per system), or a gold file (chosen by
    :func:`pick_gold_file`) and one file per system, or system files that each carry gold (``has_gold=False``:
    only system files, e.g. per-item scores)."""
    if len(tables) > 1 and all(t.format == "conll" and carries_gold(t) for t in tables):  # each its own gold
        return conll_many(tables)
    if any(t.format in LOGS for t in tables):
        raise InputError("several models' evaluation logs are not read together yet",
                         file=next(t.name for t in tables if t.format in LOGS),
                         hint="Compare two logs at a time: sigcore compare samples_A.jsonl samples_B.jsonl "
                              "--metric acc.")
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
    gold_values = checked_gold(column_values(frame[mapping.gold]), table.name, table.lines) if mapping.gold else None
    values = [kept_outputs(column_values(frame[c]), f"{table.name} column {c!r}", table.lines, notes) for c in systems]
    gold_values, values = same_kind(gold_values, values, notes)
    if mapping.id is not None:
        no_duplicates(frame[mapping.id].tolist(), table.name, table.lines)
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
        return ordered_logs(from_lm_eval(*tables, **options), tables, baseline, flip=from_lm_eval, **options)
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
