"""The columns of a table: which holds gold, the systems' outputs, the ids, the groups, guessed from their names.

A guess is only a start: every caller shows it (``Aligned.roles``) and lets the user say otherwise (``--gold``,
``--a``, ``--b``, ``--id``, ``--group``; the app's select boxes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ..errors import InputError
from ..words import listed
from .inputs import INDEX

__all__ = ["GOLD_COLUMNS", "ID_COLUMNS", "GROUP_COLUMNS", "INPUT_COLUMNS", "OUTPUT_COLUMNS", "Mapping", "column_key",
           "guess_mapping", "shared_id", "own_gold", "gold_only", "carries_gold", "value_column", "column_of"]

GOLD_COLUMNS = ("gold", "label", "labels", "gold_label", "reference", "references", "ref", "target", "answer",
                "y", "y_true", "truth", "expected", "tags")
ID_COLUMNS = ("id", "doc_id", "item", "item_id", "idx", "index", "example_id", "sentence_id", "qid", "uid", "key",
              INDEX)
GROUP_COLUMNS = ("group", "document", "doc", "doc_name", "cluster", "topic", "domain")
INPUT_COLUMNS = ("text", "input", "source", "src", "sentence", "question", "prompt", "context", "premise",
                 "passage", "tokens", "words", "filter")
OUTPUT_COLUMNS = ("prediction", "predictions", "pred", "output", "hypothesis", "hyp", "system", "tags")


@dataclass(frozen=True)
class Mapping:
    """Which column of a table plays which role."""

    gold: str | None
    systems: tuple[str, ...]
    id: str | None = None
    group: str | None = None
    ignored: tuple[str, ...] = ()


def column_key(name: str) -> str:
    """A column's name as the guesses compare it: lower case, spaces and dashes as underscores."""
    return re.sub(r"[\s\-]+", "_", str(name).strip().lower())


def guess_mapping(frame: pd.DataFrame) -> Mapping:
    """Guess the roles of a table's columns from their names (and, for ids, their uniqueness); a name ending in
    ``_id`` (question_id, sample_id) is an id too."""
    columns = list(frame.columns)
    keys = {c: column_key(c) for c in columns}

    def first(names: Sequence[str], among: list) -> str | None:
        for name in names:  # the order of ``names`` is the order of preference
            for c in among:
                if keys[c] == name:
                    return c
        return None

    unique = [c for c in columns if _unique(frame[c])]
    # an id-named column is the id even where it repeats (the check then says where), never a system
    id_column = (first(ID_COLUMNS, columns) or next((c for c in columns if keys[c].endswith("_id")), None)
                 or first(GROUP_COLUMNS, unique))  # a "doc" column with one row per doc names items
    rest = [c for c in columns if c != id_column]
    gold = first(GOLD_COLUMNS, rest)
    rest = [c for c in rest if c != gold]
    group = first(GROUP_COLUMNS, rest)
    rest = [c for c in rest if c != group]
    ignored = tuple(c for c in rest if keys[c] in INPUT_COLUMNS)
    systems = tuple(c for c in rest if c not in ignored)
    return Mapping(gold=gold, systems=systems, id=id_column, group=group, ignored=ignored)


def _unique(column: pd.Series) -> bool:
    try:
        return column.is_unique
    except TypeError:  # lists (CoNLL tag sequences) are no ids
        return False


def shared_id(tables: Sequence) -> str | None:
    """The id column every file has under the same name (guessed from the names, as for a table), if any."""
    names = {guess_mapping(t.frame).id for t in tables}
    return names.pop() if len(names) == 1 else None


def own_gold(table, gold_column: str | None = None) -> str | None:
    """A system file's own gold column: ``gold_column`` where it has it, else one named like gold beside another
    column for the outputs (a file of one column is all outputs)."""
    if gold_column is not None:
        return gold_column if gold_column in table.frame.columns else None
    if table.format == "conll":
        return None
    guess = guess_mapping(table.frame)
    return guess.gold if guess.gold is not None and guess.systems else None


def gold_only(table, gold: str | None) -> bool:
    """A file of gold values alone: one column named like gold (or ``gold``), beside an id at most."""
    if table.format == "conll":
        return False
    guess = guess_mapping(table.frame)
    column = gold if gold is not None and gold in table.frame.columns else guess.gold
    return column is not None and not [c for c in guess.systems if c != column]


def carries_gold(table) -> bool:
    """Whether a file carries its own gold (a CoNLL file with a gold column of tags)."""
    return "gold" in table.frame.columns


def value_column(table, role: str, given: str | None = None, exclude: str | None = None) -> str:
    """The one column of a file that holds its gold values (``given`` when named) or its system's outputs (never
    ``exclude``, the file's own gold column)."""
    if given is not None:
        return column_of(table, given, role).name
    columns = [c for c in table.frame.columns
               if column_key(c) not in ID_COLUMNS and column_key(c) not in ("tokens", "words") and c != exclude]
    if len(columns) == 1:
        return columns[0]
    wanted = GOLD_COLUMNS if role == "gold" else OUTPUT_COLUMNS
    preferred = [c for c in columns
                 if column_key(c) in wanted and (role == "gold" or column_key(c) not in GOLD_COLUMNS)]
    if table.format == "conll" and role != "gold" and len(columns) >= 2:
        return columns[-1]  # token, gold, pred: the system's tags are last
    if preferred:
        return preferred[0]
    flag = "--gold COLUMN" if role == "gold" else "--a COLUMN (and --b for B's file)"
    raise InputError(f"cannot tell which column holds the {'gold values' if role == 'gold' else 'outputs'}",
                     file=table.name, line=1, hint=f"The columns are: {listed(table.frame.columns)}; "
                     f"name it ({flag}), or give one table with gold, A and B columns.")


def column_of(table, name: str, role: str) -> pd.Series:
    """The column ``name`` of a file, for ``role`` (gold, id, outputs): refused, with the columns there are, if none."""
    if name not in table.frame.columns:
        raise InputError(f"no column {name!r} for {role}", file=table.name, line=1,
                         hint=f"The columns are: {listed(table.frame.columns)}.")
    return table.frame[name]
