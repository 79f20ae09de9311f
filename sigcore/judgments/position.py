"""Position bias of a judge (Zheng et al. 2023, §3.3 and Table 2): does the verdict change when the two answers swap
places, and does the answer shown first win more often?

A **judgment pair** is the same judge's two judgments of the same item and turn and the same two models, once with
each model's answer shown first (MT-Bench's ``g1`` and ``g2``; a tidy table's ``order``). Each judgment's verdict is
which model it favoured: A's score above 0.5 (a win), 0.5 (a tie) or below (a loss), fractions by their side. A pair
is **consistent** when both verdicts are the same, ties included (a tie in both orders is consistent, a tie in one
and a win in the other is not), as MT-Bench's "consistency" counts it; else **inconsistent**, and then it leans
**toward the first** slot when the model got more with its answer first, or **toward the second**. The three shares
of the pairs, consistent aside, are Zheng et al.'s Table 2 columns.

**The first slot's share**: over every battle whose order is known (in a pair or not), the share of its decisive
verdicts (ties left out) that went to the answer shown first; 0.5 is no bias. Where each pair of models is shown in
both orders equally often, strength cancels out; where one model is mostly shown first, it does not, and the share
mixes the two.

Intervals are percentile intervals of a bootstrap that draws items (prompts) with replacement, every turn, pair and
judge of a drawn item with it (:func:`sigcore.statistics.resampling.bootstrap`, as :mod:`.ratings` draws them):
one prompt's judgments are not independent. Each share is resampled over the items it is defined on (those with a
judgment pair, or with a decisive ordered battle), so no resample has an empty share. Where every pair agrees (or
none does) every resample gives the same share and the percentile interval is a point; Clopper–Pearson's interval of
the count (as though the judgments were independent) is given instead, with a note.

:func:`reconciled` is the battles with each judgment pair made one battle, as FastChat's ``show_result.py``
(``display_result_pairwise``) counts MT-Bench: an inconsistent pair is a tie; a consistent pair is its common
verdict (for fractional scores, the mean of the two, on the same side of 0.5). Swapping the answers and combining
both verdicts is Wang et al.'s (2023) balanced position calibration, of which this is the verdict-level form.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..contract import DEFAULT_LEVEL, DEFAULT_RESAMPLES, DEFAULT_SEED, check_level, check_resamples, check_seed
from ..errors import InputError
from ..statistics import intervals, resampling
from ..words import counted, listed, named
from .battles import Battles, checked

__all__ = ["Share", "PositionBias", "judgment_pairs", "position_bias", "reconciled"]

_KEY = ["item", "turn", "judge", "low", "high"]  # one judgment pair: the same judge, item, turn and two models
_HINT = ("Position bias needs the same judge's judgments of the same battle with the answers in both orders: "
         "MT-Bench's *_pair.jsonl (g1_winner and g2_winner), or a tidy table with an order column naming the model "
         "shown first.")


@dataclass(frozen=True)
class Share:
    """``count`` of ``n`` (``value``, nan when ``n`` is 0) with its interval at the result's confidence level, from
    the ``n_items`` items it is defined on."""

    count: int
    n: int
    value: float
    ci_low: float
    ci_high: float
    n_items: int


@dataclass(frozen=True, eq=False)
class PositionBias:
    """A judge's position bias (all judges together where ``judge`` is None; each judge's in ``by_judge`` when the
    pairs have several): the ``pairs`` judged in both orders on ``n_items`` items; the shares of them that are
    ``inconsistent`` and, split by which slot gained, ``toward_first`` and ``toward_second`` (together the
    inconsistent); ``first_slot``, the share of the decisive verdicts of the ``ordered`` battles (order known) that
    went to the answer shown first."""

    pairs: int
    inconsistent: Share
    toward_first: Share
    toward_second: Share
    first_slot: Share
    ordered: int
    n_items: int
    judge: str | None = None
    by_judge: dict[str, PositionBias] = field(default_factory=dict)
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int | None = DEFAULT_SEED
    confidence_level: float = DEFAULT_LEVEL
    notes: tuple[str, ...] = ()


def judgment_pairs(battles: Battles | pd.DataFrame) -> pd.DataFrame:
    """Every judgment pair of ``battles``, one row each, in the order of their first judgment: ``item, turn,
    judge``, the two models (``low``, ``high``: in order of first appearance), ``first_row`` and ``second_row`` (the
    frame's row numbers, from 0, of the judgment with ``low``'s answer shown first and of the one with it shown
    second), ``low_first`` and ``low_second`` (``low``'s score in each), ``inconsistent`` and ``toward_first``
    (``low`` scored more when shown first: the first slot gained). Empty when no judgment comes in both orders;
    battles in no known order take no part."""
    ordered = _ordered(_frame(battles))
    pairs = _pairs_of(ordered)
    for column, names in (("item", ordered.items), ("judge", ordered.judges), ("low", ordered.models),
                          ("high", ordered.models)):
        pairs[column] = names[pairs[column].to_numpy()]
    return pairs


@dataclass(frozen=True, eq=False)
class _Ordered:
    """The battles whose order is known, their texts as codes (``table``: item, turn, judge, low and high, the two
    models' codes with low < high, first, the code of the model shown first, score, low's score, slot, the
    first-shown answer's score, row, the battle's row in the frame), and the texts of the codes."""

    table: pd.DataFrame
    items: np.ndarray
    judges: np.ndarray
    models: np.ndarray


def _ordered(frame: pd.DataFrame) -> _Ordered:
    keep = frame["order"].to_numpy() != 0
    sub = frame.loc[keep]
    n = len(sub)
    # codes, not texts: merging and grouping a million texts costs seconds, their codes milliseconds
    model_codes, models = pd.factorize(pd.concat([sub["model_a"], sub["model_b"]], ignore_index=True))
    a, b = model_codes[:n], model_codes[n:]
    items_codes, items = pd.factorize(sub["item"])
    judge_codes, judges = pd.factorize(sub["judge"])
    outcome, order = sub["outcome"].to_numpy(float), sub["order"].to_numpy()
    a_low = a < b
    table = pd.DataFrame({"item": items_codes, "turn": sub["turn"].to_numpy(), "judge": judge_codes,
                          "low": np.where(a_low, a, b), "high": np.where(a_low, b, a),
                          "first": np.where(order == 1, a, b), "score": np.where(a_low, outcome, 1.0 - outcome),
                          "slot": np.where(order == 1, outcome, 1.0 - outcome), "row": np.flatnonzero(keep)})
    return _Ordered(table, np.asarray(items, dtype=object), np.asarray(judges, dtype=object),
                    np.asarray(models, dtype=object))


def _pairs_of(ordered: _Ordered) -> pd.DataFrame:
    """The judgment pairs, their texts as codes."""
    table = ordered.table
    shown_first = (table["first"] == table["low"]).to_numpy()
    columns = [*_KEY, "row", "score"]
    pairs = table.loc[shown_first, columns].merge(table.loc[~shown_first, columns], on=_KEY,
                                                  suffixes=("_first", "_second"))
    pairs = pairs.rename(columns={"row_first": "first_row", "row_second": "second_row", "score_first": "low_first",
                                  "score_second": "low_second"})
    pairs["inconsistent"] = _verdict(pairs["low_first"]) != _verdict(pairs["low_second"])
    pairs["toward_first"] = pairs["inconsistent"] & (pairs["low_first"] > pairs["low_second"])
    start = np.minimum(pairs["first_row"].to_numpy(), pairs["second_row"].to_numpy())
    return pairs.iloc[np.argsort(start, kind="stable")].reset_index(drop=True)


def position_bias(battles: Battles | pd.DataFrame, *, n_resamples: int = DEFAULT_RESAMPLES,
                  seed: int | None = DEFAULT_SEED, confidence_level: float = DEFAULT_LEVEL) -> PositionBias:
    """The position bias of the judges of ``battles`` (read by :func:`sigcore.judgments.read`, or the tidy battles
    frame): the share of judgment pairs whose verdict changes with the order and the first slot's share of decisive
    verdicts, with percentile intervals from ``n_resamples`` resamples of the items drawn from ``seed``; each judge's
    too where the pairs have several. Refused when no judgment comes in both orders, saying why."""
    check_resamples(n_resamples)
    check_seed(seed)
    check_level(confidence_level)
    frame = _frame(battles)
    ordered = _ordered(frame)
    pairs = _pairs_or_refusal(frame, ordered)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2 ** 63)
    settings = {"n_resamples": n_resamples, "seed": seed, "confidence_level": confidence_level}
    notes = []
    unordered = len(frame) - len(ordered.table)
    if unordered:
        verb = "takes" if unordered == 1 else "take"
        notes.append(f"{counted(unordered, 'battle')} in no known order {verb} no part")
    table = ordered.table
    judges = pd.unique(pairs["judge"])
    by_judge = {}
    if len(judges) > 1:
        by_judge = {str(ordered.judges[j]): _bias(pairs[pairs["judge"] == j], table[table["judge"] == j],
                                                  str(ordered.judges[j]), settings, ())
                    for j in judges}
        without = [named(ordered.judges[j]) for j in pd.unique(table["judge"]) if j not in set(judges)]
        if without:
            notes.append(f"no judgment pairs, so no position bias of their own, for the judges {listed(without)}: "
                         "each of their battles was judged in one order only")
    return _bias(pairs, table, None, settings, tuple(notes), by_judge)


def reconciled(battles: Battles | pd.DataFrame) -> Battles:
    """``battles`` with each judgment pair made one battle, as FastChat's ``show_result.py`` counts MT-Bench: an
    inconsistent pair is a tie, a consistent one its common verdict (fractional scores: their mean). The battle keeps
    the place, models, file and line of the pair's first judgment in the frame, its order 0 (both orders); battles
    judged in one order only, or in no known order, are kept as they are. Refused when no judgment comes in both
    orders, as :func:`position_bias` is."""
    frame = _frame(battles)
    ordered = _ordered(frame)
    pairs = _pairs_or_refusal(frame, ordered)
    low_score = np.where(pairs["inconsistent"], 0.5, (pairs["low_first"] + pairs["low_second"]) / 2)
    first, second = pairs["first_row"].to_numpy(), pairs["second_row"].to_numpy()
    kept, gone = np.minimum(first, second), np.maximum(first, second)
    # the kept judgment's A is low where low was A in it: shown first in it exactly when its order is 1
    low_is_a = (kept == first) == (frame["order"].to_numpy()[kept] == 1)
    outcome = frame["outcome"].to_numpy(float).copy()
    order = frame["order"].to_numpy().copy()
    outcome[kept] = np.where(low_is_a, low_score, 1.0 - low_score)
    order[kept] = 0
    drop = np.zeros(len(frame), dtype=bool)
    drop[gone] = True
    out = frame.assign(outcome=outcome, order=order).loc[~drop].reset_index(drop=True)
    n, flipped = len(pairs), int(pairs["inconsistent"].sum())
    single = len(ordered.table) - 2 * n
    note = (f"reconciled, as FastChat's show_result.py counts MT-Bench: {counted(n, 'judgment pair')} judged in both "
            f"orders became one battle each, the {flipped:,} inconsistent ones (the verdict changed with the order) "
            "ties" + (f"; {counted(single, 'battle')} judged in one order only kept as judged" if single else ""))
    notes = (*battles.notes, note) if isinstance(battles, Battles) else (note,)
    return Battles(out, dict(battles.shapes) if isinstance(battles, Battles) else {}, notes)


def _frame(battles: Battles | pd.DataFrame) -> pd.DataFrame:
    """The battles frame, its rows numbered from 0; a frame not read by :mod:`.readers` checked as they check."""
    if isinstance(battles, Battles):
        return battles.frame.reset_index(drop=True)
    frame = battles.reset_index(drop=True)
    for column, empty in (("order", 0), ("judge", ""), ("turn", 0), ("file", "")):
        if column not in frame.columns:  # a frame of a few columns: the rest as the readers leave them unsaid
            frame = frame.assign(**{column: empty})
    return checked(frame)


def _verdict(score) -> np.ndarray:
    """+1 (a win), 0 (a tie) or −1 (a loss) of a score, fractions by their side of 0.5."""
    return np.sign(np.asarray(score, dtype=float) - 0.5)


def _pairs_or_refusal(frame: pd.DataFrame, ordered: _Ordered) -> pd.DataFrame:
    if not len(frame):
        raise InputError("there are no battles", hint=_HINT)
    pairs = _pairs_of(ordered)
    if len(pairs):
        return pairs
    known = len(ordered.table)
    if not known:
        files = [named(f) for f in pd.unique(frame["file"]) if f]
        where = f"{listed(files, 5)} record no order" if files else "the battles record no order"
        raise InputError(f"no battle says which answer was shown first ({where}), so no judgment is known to come "
                         "in both orders", hint=_HINT)
    raise InputError(f"each of the {counted(known, 'battle')} whose order is known was judged in one order only: "
                     "no judge judged the same item, turn and models with the answers swapped", hint=_HINT)


def _bias(pairs: pd.DataFrame, ordered: pd.DataFrame, judge: str | None, settings: dict, notes: tuple,
          by_judge: dict | None = None) -> PositionBias:
    """One judge's (or all judges') position bias from its pairs and ordered battles (their codes)."""
    level = settings["confidence_level"]
    kinds = ("inconsistent", "toward first", "toward second")
    inconsistent, toward = pairs["inconsistent"].to_numpy(), pairs["toward_first"].to_numpy()
    per_pair = np.column_stack([inconsistent, toward, inconsistent & ~toward, np.ones(len(pairs))]).astype(float)
    slot = ordered["slot"].to_numpy(float)
    decisive = slot != 0.5
    per_battle = np.column_stack([slot[decisive] > 0.5, np.ones(decisive.sum())]).astype(float)
    found, said = [], list(notes)
    for items, rows, names in ((pairs["item"].to_numpy(), per_pair, kinds),
                               (ordered["item"].to_numpy()[decisive], per_battle, ("first slot",))):
        shares, fell_back = _shares(items, rows, settings)
        found += shares
        if fell_back:
            said.append(f"{listed(names[k] for k in fell_back)}: {_DEGENERATE}")
    n_items = int(pd.unique(pairs["item"]).size)
    few = resampling.few_clusters(n_items, "items with a judgment pair")
    if few and judge is None:
        said.append(few)
    if not found[3].n:
        said.append("every ordered battle is a tie, so the first slot's share of decisive verdicts is not defined")
    return PositionBias(len(pairs), *found, len(ordered), n_items, judge, by_judge or {}, settings["n_resamples"],
                        settings["seed"], level, tuple(said))


_DEGENERATE = ("every resample gives the same share, so its interval is Clopper–Pearson's of the count (as though the "
               "judgments were independent), not the bootstrap's point")


def _shares(items: np.ndarray, rows: np.ndarray, settings: dict) -> tuple[list[Share], list[int]]:
    """Shares of the last column of ``rows`` (one row per judgment, the judgment's ``items``) taken by each other
    column, with percentile intervals from the item bootstrap; and which of them fell back to Clopper–Pearson's."""
    k = rows.shape[1] - 1
    n = int(rows[:, -1].sum())
    if not n:
        return [Share(0, 0, float("nan"), float("nan"), float("nan"), 0) for _ in range(k)], []
    codes, uniques = pd.factorize(items)  # the items' codes, renumbered from 0
    per_item = np.zeros((len(uniques), k + 1))
    np.add.at(per_item, codes, rows)
    counts = per_item[:, :k].sum(axis=0)
    paired = resampling.PairedStats.from_items(per_item, np.zeros((len(per_item), 0)))
    resampled = np.vstack([totals[:, :k] / totals[:, [k]]
                           for totals, _ in resampling.bootstrap(paired, settings["n_resamples"], settings["seed"])])
    level = settings["confidence_level"]
    low, high = intervals.percentile(resampled, level, axis=0)
    out, fell_back = [], []
    for j in range(k):
        count = int(round(counts[j]))
        lo, hi = float(low[j]), float(high[j])
        if count in (0, n):
            lo, hi = intervals.clopper_pearson(count, n, level)
            fell_back.append(j)
        out.append(Share(count, n, count / n, lo, hi, len(uniques)))
    return out, fell_back
