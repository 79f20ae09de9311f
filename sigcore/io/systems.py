"""Which of several files or columns is what: the gold file, the baseline (B), and each system's short name.

Each decision is made from names, never from places (a shell glob's order says nothing of which file is the gold),
comes with the reason shown to the user, and where the names cannot settle it raises :class:`Ambiguous` with the
choices (:mod:`sigcore.io.roles` holds the rules for names).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..errors import InputError, SettingsError
from ..words import listed
from .columns import gold_only, own_gold
from .roles import GOLD_NAMES, Ambiguous, baseline_index, gold_files

__all__ = ["NO_GOLD_FILE", "pick_gold_file", "pick_pair", "order_systems", "match_system", "system_names"]

NO_GOLD_FILE = -1  # gold_file=NO_GOLD_FILE: none of the files is the gold (per-item scores, or gold columns)


def pick_gold_file(tables: Sequence, *, gold_file: int | None = None,
                   gold: str | None = None) -> tuple[int | None, str]:
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
            raise SettingsError(f"`gold_file` must be the position of one of the {len(tables)} files, "
                                f"not {gold_file!r}")
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
    only = [i for i, t in enumerate(tables) if gold_only(t, gold)]
    if len(only) == 1:
        return only[0], "its only column is named like gold"
    raise Ambiguous(f"none of the files is named like the gold ({GOLD_NAMES})", question="Which file is the gold?",
                    choices=names, flag="--gold-file")  # a shell glob's order says nothing of which it is


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
