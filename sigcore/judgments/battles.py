"""The tidy battles frame every reader of pairwise judgments produces, and its checks.

One row per judgment (a battle): a judge saw the answers of two models to one item (a prompt, a question) and said
which was better.

============  ====================================================================================================
``item``      the item (question, prompt) as text: the unit the bootstrap resamples
``model_a``   one model
``model_b``   the other
``outcome``   A's score: 1 (A won), 0.5 (a tie), 0 (B won), or a fraction between (AlpacaEval's weighted judges)
``judge``     who judged ("" where the file does not say)
``order``     1 when A's answer was shown first, 2 when B's was, 0 where the file does not say
``turn``      the turn of a multi-turn conversation (MT-Bench's 1 and 2), 0 where the file does not say
``category``  the item's category ("" where none)
``file``      the file the battle came from
``line``      its line in the file (for a Parquet file: its row, from 1)
============  ====================================================================================================

:func:`checked` refuses, with the file, line and value: an empty model name, a model against itself, and the same
judgment twice (the same item and turn, the same two models, the same judge and the same order).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputError
from ..words import named, shown

__all__ = ["COLUMNS", "Battles", "frame", "checked", "combined"]

COLUMNS = ("item", "model_a", "model_b", "outcome", "judge", "order", "turn", "category", "file", "line")


@dataclass(frozen=True, eq=False)  # eq=False: comparing DataFrames has no single truth value
class Battles:
    """The battles read from one or more files: the tidy ``frame`` (:data:`COLUMNS`), the shape each file was
    recognised as (``shapes``: file name -> "arena", "mt-bench", "alpacaeval" or "tidy"), and what reading
    decided that the user should know (``notes``: judgments left out, items taken from lines)."""

    frame: pd.DataFrame
    shapes: dict[str, str]
    notes: tuple[str, ...] = ()

    @property
    def models(self) -> list[str]:
        """Every model, in order of first appearance."""
        return list(pd.unique(np.column_stack([self.frame["model_a"].to_numpy(object),
                                               self.frame["model_b"].to_numpy(object)]).ravel()))


def frame(*, item, model_a, model_b, outcome, file: str, line, judge=None, order=None, turn=None,
          category=None) -> pd.DataFrame:
    """The tidy battles frame from its columns (arrays of one length; None: the column's "not said" value)."""
    n = len(outcome)

    def text(values) -> np.ndarray:
        return np.full(n, "", dtype=object) if values is None else np.asarray(values, dtype=object)

    return pd.DataFrame({"item": text(item), "model_a": text(model_a), "model_b": text(model_b),
                         "outcome": np.asarray(outcome, dtype=np.float64), "judge": text(judge),
                         "order": np.zeros(n, np.int8) if order is None else np.asarray(order, dtype=np.int8),
                         "turn": np.zeros(n, np.int64) if turn is None else np.asarray(turn, dtype=np.int64),
                         "category": text(category), "file": np.full(n, file, dtype=object),
                         "line": np.asarray(line, dtype=np.int64)}, columns=list(COLUMNS))


def _where(battles: pd.DataFrame, row: int) -> dict:
    return {"file": battles["file"].iat[row], "line": int(battles["line"].iat[row])}


def checked(battles: pd.DataFrame, columns: tuple[str, str] = ("model_a", "model_b")) -> pd.DataFrame:
    """``battles`` where every model name is non-empty, no model meets itself and no judgment comes twice; else the
    InputError of the first row at fault (``columns``: how the file names the two models' columns, for messages)."""
    for side, column in zip(("model_a", "model_b"), columns):
        names = battles[side].to_numpy(object)
        empty = np.flatnonzero(np.array([not str(n).strip() for n in names], dtype=bool))
        if empty.size:
            raise InputError(f"the model name in {column} is empty ({shown(names[empty[0]])})",
                             column=column, **_where(battles, int(empty[0])),
                             hint="Give both models' names in every battle.")
    same = np.flatnonzero(battles["model_a"].to_numpy(object) == battles["model_b"].to_numpy(object))
    if same.size:
        row = int(same[0])
        raise InputError(f"model {named(battles['model_a'].iat[row])} is judged against itself", **_where(battles, row),
                         hint="A battle compares two different models: fix the names, or leave the battle out.")
    _no_repeats(battles)
    return battles


def _no_repeats(battles: pd.DataFrame) -> None:
    a, b = battles["model_a"].to_numpy(object), battles["model_b"].to_numpy(object)
    low, high = np.where(a < b, a, b), np.where(a < b, b, a)  # the pair, whichever is A
    order = battles["order"].to_numpy()
    first = np.where(order == 1, a, np.where(order == 2, b, ""))  # the model shown first: the same by any name
    keys = pd.DataFrame({"item": battles["item"].to_numpy(object), "turn": battles["turn"].to_numpy(),
                         "low": low, "high": high, "judge": battles["judge"].to_numpy(object), "first": first})
    twice = keys.duplicated(keep="first").to_numpy()
    if not twice.any():
        return
    row = int(np.argmax(twice))
    earlier = int(np.flatnonzero((keys == keys.iloc[row]).all(axis=1).to_numpy())[0])
    at = battles["line"].iat[earlier]
    there = f"line {at}" if battles["file"].iat[earlier] == battles["file"].iat[row] else \
        f"{battles['file'].iat[earlier]}, line {at}"
    judge, shown_first = battles["judge"].iat[row], first[row]
    said = "".join([f", turn {keys['turn'].iat[row]}" if keys["turn"].iat[row] else "",
                    f", judge {named(judge)}" if judge else "",
                    f", {named(shown_first)} shown first" if shown_first else ""])
    raise InputError(f"repeats the judgment of {there}: item {named(battles['item'].iat[row])}, models "
                     f"{named(low[row])} and {named(high[row])}{said}", **_where(battles, row),
                     hint="Give each judgment once; judgments by different judges need a judge column saying who "
                          "judged, and judgments in both orders an order column.")


def combined(parts: list[Battles]) -> Battles:
    """The battles of several files as one, checked again for judgments repeated across files."""
    if len(parts) == 1:
        return parts[0]
    battles = pd.concat([p.frame for p in parts], ignore_index=True)
    _no_repeats(battles)
    shapes = {name: shape for p in parts for name, shape in p.shapes.items()}
    return Battles(battles, shapes, tuple(n for p in parts for n in p.notes))
