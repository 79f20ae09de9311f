"""Two systems from pairwise judgments: model A against model B on the items both were judged on, as a paired
comparison of per-item scores, so that its verdict is an ordinary :class:`sigcore.result.Result`.

Every battle of A with B (in either column order, its outcome turned to A's side) counts towards its item: A's score
on the item is its mean outcome over them (a win 1, a tie 1/2, a loss 0, a fraction as given), B's is 1 minus that.
An item judged several times (in both orders, in several turns, by several judges) is one item, its battles
averaged, since battles on one prompt are not independent; the items are the units that the tests count and
resample. δ = M(A) − M(B) is then A's win rate less B's, and A's win rate (ties half, every item weighed alike) is
(1 + δ)/2.

- ``test="sign"`` (the default): the sign test on items (:func:`sigcore.statistics.closed_form.sign_test`): an item
  whose score is above 1/2 is a win for A, below 1/2 a loss, and exactly 1/2 (a tie, or as many wins as losses, as an
  inconsistent pair of orders gives) is left out; p is the exact binomial test of A's wins among the items won or
  lost against 1/2 (scipy's ``binomtest``). Its estimate is that share (``share_won``) with its Clopper–Pearson
  interval.
- ``test="bootstrap"``: the paired bootstrap by item (Berg-Kirkpatrick et al. 2012; SLP3 §4.11): items drawn with
  replacement, each with all its battles; p = #{|δ(x⁽ⁱ⁾) − δ(x)| ≥ |δ(x)|} / b for "two-sided"; the interval is that
  of δ.
- ``test="permutation"``: approximate randomisation by item (Noreen 1989): each item's score swapped with B's (s
  for 1 − s) with probability 1/2, exact enumeration when the items that are not ties are few (what the bootstrap's
  caution for few items recommends).

Whichever the test, the win rate's own interval is the percentile interval of A's score over b resamples of the
items (two-sided, at ``confidence_level``), the interval ``compare`` gives each system's score: for the bootstrap
test it is ``result.ci_a`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..comparison import compare
from ..contract import DEFAULT_ALPHA, DEFAULT_ALTERNATIVE, DEFAULT_RESAMPLES, DEFAULT_SEED
from ..errors import InputError, SettingsError
from ..result import Result
from ..statistics import intervals, resampling
from ..statistics.closed_form import differences
from ..words import counted, listed, named
from .battles import Battles

__all__ = ["PAIR_TESTS", "PairVerdict", "ItemScores", "item_scores", "pair"]

PAIR_TESTS = ("sign", "bootstrap", "permutation")  # on items: won and lost; resampled; A's and B's scores swapped


@dataclass(frozen=True, eq=False, repr=False)
class PairVerdict:
    """Model ``a`` against model ``b``: the paired test's ``result`` (a :class:`~sigcore.result.Result` of metric
    "mean" over per-item scores: ``score_a`` is the win rate, ``delta`` the win rate less B's), A's ``win_rate``
    (ties half) with its percentile bootstrap interval ``ci_low``–``ci_high`` at ``confidence_level`` (from
    ``n_resamples`` resamples of the items drawn from ``seed``), the items A won, tied and lost (``wins``,
    ``ties``, ``losses``: its score above, at, below 1/2, as the sign test counts them), the items and battles
    behind them, the judge whose battles they are (None: every judge's, pooled) and what the reader should know
    (``notes``)."""

    a: str
    b: str
    result: Result
    win_rate: float
    ci_low: float
    ci_high: float
    confidence_level: float
    wins: int
    ties: int
    losses: int
    n_items: int
    n_battles: int
    n_resamples: int
    seed: int
    judge: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def significant(self) -> bool:
        """Whether the test rejects H0 (p <= α, the effect on H1's side)."""
        return self.result.significant

    @property
    def winner(self) -> str | None:
        """The model the test shows better, or None."""
        return {"A": self.a, "B": self.b, None: None}[self.result.winner]

    def __repr__(self) -> str:
        return (f"PairVerdict({self.a} vs {self.b}: win rate {self.win_rate:.4g} "
                f"[{self.ci_low:.4g}, {self.ci_high:.4g}], {self.result.test}, {self.result.p_text}, "
                f"{self.n_items} items)")


@dataclass(frozen=True, eq=False)
class ItemScores:
    """A's score on each item both models were judged on (its mean outcome against B there), with the item's name
    and its number of battles; ``judges``: the judges whose battles they are."""

    items: np.ndarray
    scores: np.ndarray
    battles: np.ndarray
    judges: list[str]


def item_scores(battles: Battles | pd.DataFrame, a: str, b: str, *, judge: str | None = None) -> ItemScores:
    """A's per-item scores against B (see the module's docstring), items in the order of their first battle;
    refused, with the models or judges there are: a model not in the battles, ``a`` equal to ``b``, a judge who
    judged none of them, two models that never met (on this judge's battles)."""
    frame = battles.frame if isinstance(battles, Battles) else battles
    models = list(pd.unique(np.concatenate([frame["model_a"].to_numpy(object), frame["model_b"].to_numpy(object)])))
    for model, name in ((a, "a"), (b, "b")):
        if model not in models:
            raise SettingsError(f"model {named(model)} (`{name}`) is not in the battles",
                                hint=f"The models are: {listed(models)}.")
    if a == b:
        raise SettingsError(f"`a` and `b` are both {named(a)}: a model is not compared with itself",
                            hint="Name two different models.")
    if judge is not None:
        judges = list(pd.unique(frame["judge"].to_numpy(object)))
        if judge not in judges:
            raise SettingsError(f"judge {named(judge)} judged none of the battles",
                                hint=f"The judges are: {listed(judges)}; judge=None pools them all.")
        frame = frame[frame["judge"].to_numpy(object) == judge]
    first, second = frame["model_a"].to_numpy(object), frame["model_b"].to_numpy(object)
    forward, backward = (first == a) & (second == b), (first == b) & (second == a)
    met = forward | backward
    if not met.any():
        others = sorted({*second[first == a], *first[second == a]})
        by = "" if judge is None else f" in the battles of judge {named(judge)}"
        raise InputError(f"models {named(a)} and {named(b)} never met{by}, so there is no item to compare them on",
                         hint=f"{named(a)} met: {listed(others) or 'no model'}" + (
                             "." if judge is None else " there; judge=None pools every judge's battles."))
    outcome = frame["outcome"].to_numpy(float)[met]
    outcome = np.where(forward[met], outcome, 1.0 - outcome)  # A's side, whichever column A was in
    codes, items = pd.factorize(frame["item"].to_numpy(object)[met], sort=False)
    n = np.bincount(codes)
    return ItemScores(np.asarray(items, dtype=object), np.bincount(codes, weights=outcome) / n, n,
                      list(pd.unique(frame["judge"].to_numpy(object)[met])))


def pair(battles: Battles | pd.DataFrame, a: str, b: str, *, test: str = "sign",
         alternative: str = DEFAULT_ALTERNATIVE, n_resamples: int = DEFAULT_RESAMPLES,
         seed: int | None = DEFAULT_SEED, alpha: float = DEFAULT_ALPHA, confidence_level: float | None = None,
         judge: str | None = None) -> PairVerdict:
    """Whether model ``a`` beats model ``b`` on the items both were judged on: the paired ``test`` (one of
    :data:`PAIR_TESTS`) of A's per-item scores against B's, through :func:`sigcore.comparison.compare` (metric
    "mean"), with A's win rate and its interval.

    ``alternative``: "two-sided" (H1: one is preferred), "greater" (A is preferred) or "less" (B is). ``alpha``:
    H0 is rejected when p <= alpha. ``confidence_level``: of the intervals, 1 − alpha unless given. ``n_resamples``
    and ``seed``: the bootstrap's (the test's, for "bootstrap"; the win rate's interval's, for either).
    ``judge``: only this judge's battles (None: every judge's, pooled, a note saying how many).
    """
    if test not in PAIR_TESTS:
        raise SettingsError(f"`test` must be one of {', '.join(PAIR_TESTS)} for two models' judgments, not {test!r}",
                            hint="sign: the sign test on items won and lost; bootstrap: the paired bootstrap by "
                                 "item; permutation: approximate randomisation by item.")
    scores = item_scores(battles, a, b, judge=judge)
    s = scores.scores
    result = compare(None, s, 1.0 - s, metric="mean", test=test, alternative=alternative, n_resamples=n_resamples,
                     seed=seed, alpha=alpha, confidence_level=confidence_level)
    level = result.confidence_level
    if seed is None:  # the bootstrap test drew its own: the interval shares its resamples
        seed = result.seed if result.seed is not None else int(np.random.SeedSequence().entropy % 2 ** 63)
    low, high = result.ci_a if test == "bootstrap" else _win_rate_interval(s, n_resamples, seed, level)
    # each model's score interval is the win rate's, over resampled items (a t-interval could leave [0, 1])
    result = replace(result, ci_a=(low, high), ci_b=(1.0 - high, 1.0 - low))
    d = differences(s, 1.0 - s)  # the one tie rule: float noise about 1/2 is a tie
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    notes = list(battles.notes) if isinstance(battles, Battles) else []
    notes += _notes(scores, len(s) - wins - losses, test, judge)
    return PairVerdict(a, b, result, result.score_a, low, high, level, wins, len(s) - wins - losses, losses, len(s),
                       int(scores.battles.sum()), n_resamples, int(seed), judge, tuple(notes))


def _win_rate_interval(scores: np.ndarray, n_resamples: int, seed: int, level: float) -> tuple[float, float]:
    """The percentile interval of the mean score over ``n_resamples`` resamples of the items: the numbers
    ``compare``'s bootstrap gives ``ci_a`` with this seed (the same draws, :func:`resampling.bootstrap`)."""
    rows = np.column_stack([scores, np.ones(len(scores))])  # the mean's rows: [score, 1]
    paired = resampling.PairedStats.from_items(rows, np.column_stack([1.0 - scores, np.ones(len(scores))]))
    means = np.concatenate([totals[:, 0] / totals[:, 1] for totals, _ in resampling.bootstrap(paired, n_resamples,
                                                                                              seed)])
    return intervals.percentile(means, level)


def _notes(scores: ItemScores, tied: int, test: str, judge: str | None) -> list[str]:
    """What the verdict's reader should know: items judged more than once, judges pooled, tied items left out."""
    notes = []
    several = int((scores.battles > 1).sum())
    if several:
        notes.append(f"{counted(several, 'item')} of {len(scores.items):,} have several battles (orders, turns or "
                     "judges): each item's score is its mean outcome, ties half")
    if judge is None and len(scores.judges) > 1:
        notes.append(f"the battles of {len(scores.judges)} judges ({listed(scores.judges, 5)}) are pooled: "
                     "judge= gives one judge's verdict, robustness() each judge's")
    if test == "sign" and tied:
        notes.append(f"{counted(tied, 'item')} with a score of exactly 1/2 (ties, or as many wins as losses) "
                     "are left out of the sign test and counted as half a win in the win rate")
    return notes
