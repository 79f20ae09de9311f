"""How far judges agree where several judged the same battles, and whether a claim holds under each of them.

A battle here is a unit: one item and turn, one pair of models, whichever column each model is in and whichever
answer was shown first. Each judge's verdict on it is one of three categories, said from the side of the model first
in name order: A (its outcome above 1/2), a tie (exactly 1/2) or B (below). A judge who judged the unit more than
once (in both orders, as MT-Bench's judges do) gives the mean of those outcomes, so one verdict each way is a tie,
the usual reconciliation of an inconsistent pair; a fractional outcome (AlpacaEval's weighted judges) counts as the
side of 1/2 it lies on.

- Two judges: Cohen's (1960) κ = (p_o − p_e) / (1 − p_e) over the units both judged, p_o the share on which they
  agree, p_e the share expected by chance from each judge's own shares of A, tie and B.
- Three or more: Krippendorff's α for nominal data (Krippendorff 2004, §11; 2011), α = 1 − D_o / D_e over the units
  at least two judged (the others have no pair of verdicts to compare): with the coincidence matrix o_ck = Σ_u
  n_uc (n_uk − [c = k]) / (m_u − 1), its margins n_c and n = Σ n_c, D_o = Σ_{c≠k} o_ck / n and
  D_e = Σ_{c≠k} n_c n_k / (n (n − 1)). With two judges and every unit judged by both, α is close to κ (Scott's π
  with a small-sample correction).

The interval is the percentile interval of the statistic over a bootstrap of the items (Efron & Tibshirani 1993):
every unit of a drawn item comes with it, as for the ratings, since battles on one prompt are not independent (not
Krippendorff's own bootstrap, which draws single pairs of verdicts). Both statistics are ratios of sums over items
(the 3 × 3 table of two judges' verdicts, the coincidence matrix), so a resample re-weighs each item's table
(:func:`sigcore.statistics.resampling.bootstrap`), never recounts battles. Where the judges used one category only,
agreement beyond chance is undefined: the value is NaN, with a note, and so is any resample in which it happens
(counted in a note; the interval comes from the others).

:func:`robustness` asks whether "A beats B" holds under each judge: :func:`sigcore.judgments.pair.pair` on each
judge's battles alone, each at the same α and with no correction (the count says how many agree, not which claim
survives a family of tests).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..contract import (
    DEFAULT_ALPHA,
    DEFAULT_ALTERNATIVE,
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    TIE,
    check_level,
    check_resamples,
    check_seed,
)
from ..errors import InputError
from ..statistics import intervals, resampling
from ..words import counted, listed, named
from .battles import Battles
from .pair import PairVerdict, item_scores, pair

__all__ = ["CATEGORIES", "STATISTICS", "PAIRWISE_JUDGES", "Agreement", "agreement", "Robustness", "robustness"]

CATEGORIES = ("A", "tie", "B")  # a judge's verdict on a unit, from the side of the model first in name order
STATISTICS = {"kappa": "Cohen's κ", "alpha": "Krippendorff's α"}
PAIRWISE_JUDGES = 10  # above it each pair's κ is not computed: J(J − 1)/2 tables per item and per resample


@dataclass(frozen=True, eq=False)
class Agreement:
    """The judges' agreement: ``statistic`` ("kappa" for two judges, "alpha" for more: :data:`STATISTICS`), its
    ``value`` and percentile bootstrap interval ``ci_low``–``ci_high`` at ``confidence_level`` (``n_resamples``
    resamples of the items, from ``seed``); ``observed``, the share of pairs of verdicts on one unit that agree,
    and ``expected``, that share by chance, from which the statistic is made; the ``judges``; the units (battles
    judged by two judges or more; for κ, by both) and the items they belong to; each pair of judges' κ with its
    interval and units (``pairs``: judge, other, kappa, ci_low, ci_high, observed, n_units; empty beyond
    :data:`PAIRWISE_JUDGES` judges); and what the reader should know (``notes``)."""

    statistic: str
    value: float
    ci_low: float
    ci_high: float
    observed: float
    expected: float
    judges: list[str]
    n_units: int
    n_items: int
    pairs: pd.DataFrame
    confidence_level: float = DEFAULT_LEVEL
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return (f"Agreement({STATISTICS[self.statistic]} = {self.value:.3f} [{self.ci_low:.3f}, {self.ci_high:.3f}], "
                f"{len(self.judges)} judges, {self.n_units} units)")


def agreement(battles: Battles | pd.DataFrame, *, n_resamples: int = DEFAULT_RESAMPLES,
              seed: int | None = DEFAULT_SEED, confidence_level: float = DEFAULT_LEVEL) -> Agreement:
    """How far the judges in ``battles`` agree on the battles several of them judged: Cohen's κ for two judges,
    Krippendorff's α (nominal: A, tie, B) for three or more, with a percentile interval at ``confidence_level`` from
    ``n_resamples`` resamples of the items drawn from ``seed`` (see the module's docstring).

    Refused: battles that name one judge only (or none), and battles no two judges judged alike (the same item and
    turn, the same two models)."""
    check_resamples(n_resamples)
    check_seed(seed)
    check_level(confidence_level)
    frame = battles.frame if isinstance(battles, Battles) else battles
    notes = list(battles.notes) if isinstance(battles, Battles) else []
    units = _units(frame)
    judges, j = units.judges, len(units.judges)
    statistic = "kappa" if j == 2 else "alpha"
    shared = units.judged >= 2
    if not shared.any():
        raise InputError(f"no battle was judged by two judges: the {j} judges ({listed(judges, 5)}) judged different "
                         "items, turns or pairs of models, so there is nothing to agree on",
                         hint="Agreement needs the same battles (item, turn and models) judged by several judges; "
                              "check that the item and turn columns name them alike in every judge's file.")
    keep = shared[units.unit]  # judgments of units a second judge judged too
    unit, judge, verdict, item = (x[keep] for x in (units.unit, units.judge, units.verdict, units.item))
    items, item = np.unique(item, return_inverse=True)
    rows = [_coincidences(unit, judge, verdict, item, len(items))] if statistic == "alpha" else []
    pairs = list(itertools.combinations(range(j), 2)) if j <= PAIRWISE_JUDGES else []
    rows += [_table(unit, judge, verdict, item, len(items), first, second) for first, second in pairs]
    stats = np.hstack(rows)  # (items, 9 per table): the main statistic's first, then each pair's
    tables = stats.sum(axis=0).reshape(-1, 3, 3)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2 ** 63)
    resampled = np.concatenate([totals.reshape(len(totals), -1, 3, 3) for totals, _ in resampling.bootstrap(
        resampling.PairedStats.from_items(stats, np.zeros((len(items), 0))), n_resamples, seed)])
    measure = _alpha if statistic == "alpha" else _kappa
    value, observed, expected = (float(x) for x in measure(tables[0]))
    draws = measure(resampled[:, 0])[0]
    low, high, undefined = _interval(draws, confidence_level)
    pair_rows = []
    for k, (first, second) in enumerate(pairs, start=0 if statistic == "kappa" else 1):
        n_units = int(tables[k].sum())
        if n_units:
            kappa, agreed, _ = _kappa(tables[k])
            pair_low, pair_high, _ = _interval(_kappa(resampled[:, k])[0], confidence_level)
            pair_rows.append((judges[first], judges[second], float(kappa), pair_low, pair_high, float(agreed),
                              n_units))
    table = pd.DataFrame(pair_rows, columns=["judge", "other", "kappa", "ci_low", "ci_high", "observed", "n_units"])
    n_units = int(shared.sum())  # with two judges: the units both judged
    notes += _notes(units, shared, statistic, value, undefined, n_resamples, len(items), j)
    return Agreement(statistic, value, low, high, observed, expected, judges, n_units, len(items), table,
                     confidence_level, n_resamples, int(seed), tuple(notes))


@dataclass(frozen=True)
class _Units:
    """Each judge's verdict on each unit (one row per unit and judge): the unit's code, the judge's, the verdict's
    (0 A, 1 tie, 2 B), the unit's item's; how many judges judged each unit; the judges by name; and how many
    judgments were fractions or repeats of a judge's verdict on a unit."""

    unit: np.ndarray
    judge: np.ndarray
    verdict: np.ndarray
    item: np.ndarray
    judged: np.ndarray
    judges: list[str]
    fractions: int
    repeated: int


def _units(frame: pd.DataFrame) -> _Units:
    """The units and each judge's verdict on them (see the module's docstring), judges in order of appearance;
    refused when the battles name fewer than two judges."""
    judge_codes, judges = pd.factorize(frame["judge"].to_numpy(object), sort=False)
    judges = [str(name) for name in judges]
    if len(judges) < 2:
        said = f"judge {named(judges[0])}" if judges and judges[0] else "no judge (the files do not say who judged)"
        raise InputError(f"the battles name {said}: agreement needs two judges or more",
                         hint="Give several judges' judgments of the same battles, each with its judge column "
                              "(read_all reads several files at once).")
    a, b = frame["model_a"].to_numpy(object), frame["model_b"].to_numpy(object)
    first = a < b
    outcome = frame["outcome"].to_numpy(float)
    outcome = np.where(first, outcome, 1.0 - outcome)  # the first model in name order's side
    keys = pd.MultiIndex.from_arrays([frame["item"].to_numpy(object), frame["turn"].to_numpy(),
                                      np.where(first, a, b), np.where(first, b, a)])
    unit_codes, _ = pd.factorize(keys, sort=False)
    cell = unit_codes.astype(np.int64) * len(judges) + judge_codes
    cells, where, cell = np.unique(cell, return_index=True, return_inverse=True)
    mean = np.bincount(cell, weights=outcome) / np.bincount(cell)
    verdict = np.where(np.abs(mean - 0.5) <= TIE, 1, np.where(mean > 0.5, 0, 2))
    unit = cells // len(judges)
    item_codes = pd.factorize(frame["item"].to_numpy(object), sort=False)[0]
    fractions = int(np.count_nonzero(~np.isin(outcome, (0.0, 0.5, 1.0))))
    return _Units(unit, cells % len(judges), verdict, item_codes[where], np.bincount(unit), judges, fractions,
                  len(frame) - len(cells))


def _table(unit, judge, verdict, item, n_items, first, second) -> np.ndarray:
    """(items, 9): per item, the 3 × 3 table of judge ``first``'s and judge ``second``'s verdicts on the units
    both judged (rows ``first``'s)."""
    size = int(unit.max()) + 1
    own = [np.full(size, -1) for _ in range(2)]
    for mine, who in zip(own, (first, second)):
        at = judge == who
        mine[unit[at]] = verdict[at]
    both = (own[0] >= 0) & (own[1] >= 0)
    unit_item = np.zeros(size, np.int64)
    unit_item[unit] = item
    cell = unit_item[both] * 9 + own[0][both] * 3 + own[1][both]
    return np.bincount(cell, minlength=n_items * 9).reshape(n_items, 9).astype(float)


def _coincidences(unit, judge, verdict, item, n_items) -> np.ndarray:
    """(items, 9): per item, Krippendorff's coincidence matrix of its units, o_ck = Σ_u n_uc (n_uk − [c = k]) /
    (m_u − 1), n_uc the judges who said c on unit u, m_u those who judged it."""
    size = int(unit.max()) + 1
    counts = np.bincount(unit * 3 + verdict, minlength=size * 3).reshape(size, 3).astype(float)
    m = counts.sum(axis=1)
    pairable = m >= 2
    counts, m = counts[pairable], m[pairable]
    unit_item = np.zeros(size, np.int64)
    unit_item[unit] = item
    each = (counts[:, :, None] * counts[:, None, :] - counts[:, :, None] * np.eye(3)) / (m - 1)[:, None, None]
    out = np.zeros((n_items, 9))
    np.add.at(out, unit_item[pairable], each.reshape(-1, 9))
    return out


def _kappa(tables: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cohen's κ of 3 × 3 tables (..., 3, 3), with p_o and p_e; NaN where p_e is 1 (one category only)."""
    n = tables.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        p_o = np.trace(tables, axis1=-2, axis2=-1) / n
        p_e = (tables.sum(axis=-1) * tables.sum(axis=-2)).sum(axis=-1) / n ** 2
        kappa = np.where(1 - p_e > TIE, (p_o - p_e) / (1 - p_e), np.nan)
    return kappa, p_o, p_e


def _alpha(coincidence: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Krippendorff's nominal α of coincidence matrices (..., 3, 3), with 1 − D_o and 1 − D_e; NaN where D_e is 0
    (one category only)."""
    n_c = coincidence.sum(axis=-1)
    n = n_c.sum(axis=-1)
    disagreed = n - np.trace(coincidence, axis1=-2, axis2=-1)
    chance = n ** 2 - (n_c ** 2).sum(axis=-1)  # Σ_{c≠k} n_c n_k
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = np.where(chance > TIE * n ** 2, 1 - (n - 1) * disagreed / chance, np.nan)
        return alpha, 1 - disagreed / n, 1 - chance / (n * (n - 1))


def _interval(draws: np.ndarray, level: float) -> tuple[float, float, int]:
    """The percentile interval of the resamples where the statistic is defined, and how many it is not."""
    finite = np.isfinite(draws)
    if not finite.any():
        return np.nan, np.nan, len(draws)
    low, high = intervals.percentile(draws[finite], level)
    return float(low), float(high), int((~finite).sum())


def _notes(units: _Units, shared: np.ndarray, statistic: str, value: float, undefined: int, n_resamples: int,
           n_items: int, j: int) -> list[str]:
    notes = []
    alone = int((~shared).sum())
    if alone:
        notes.append(f"{counted(alone, 'battle')} judged by one judge only are left out: agreement compares two "
                     "judges' verdicts on one battle")
    if units.repeated:
        notes.append(f"{counted(units.repeated, 'judgment')} repeat a judge's verdict on a battle (both orders, "
                     "or again): each judge's verdict is the mean of its judgments, one each way being a tie")
    if units.fractions:
        notes.append(f"{counted(units.fractions, 'judgment')} are fractions: each counts as the side of 1/2 it "
                     "lies on (A, a tie at 1/2, B)")
    if np.isnan(value):
        notes.append("the judges gave one verdict only (every unit alike), so agreement beyond chance is undefined")
    elif undefined:
        notes.append(f"in {undefined:,} of {n_resamples:,} resamples the judges gave one verdict only, where "
                     f"{STATISTICS[statistic]} is undefined: the interval comes from the others")
    if j > PAIRWISE_JUDGES:
        notes.append(f"{j} judges: each pair's κ is not computed above {PAIRWISE_JUDGES}")
    few = resampling.few_clusters(n_items, "items")
    if few:
        notes.append(few)
    return notes


@dataclass(frozen=True, eq=False)
class Robustness:
    """Whether model ``a`` beats model ``b`` under each judge: each judge's :class:`PairVerdict` (``verdicts``, in
    the order the judges first appear), how many show ``a`` better (``beats``) and ``b`` better (``loses``), and
    what the reader should know (``notes``: the judges who never judged the pair)."""

    a: str
    b: str
    verdicts: tuple[PairVerdict, ...]
    notes: tuple[str, ...] = ()

    @property
    def judges(self) -> list[str]:
        return [v.judge for v in self.verdicts]

    @property
    def beats(self) -> int:
        """The judges under which ``a`` is significantly better than ``b``."""
        return sum(v.result.winner == "A" for v in self.verdicts)

    @property
    def loses(self) -> int:
        """The judges under which ``b`` is significantly better than ``a``."""
        return sum(v.result.winner == "B" for v in self.verdicts)

    def table(self) -> pd.DataFrame:
        """One row per judge: judge, win_rate, ci_low, ci_high, p_value, significant, winner (the model shown better,
        or None), wins, ties, losses (items), n_items, n_battles."""
        return pd.DataFrame([(v.judge, v.win_rate, v.ci_low, v.ci_high, v.result.p_value, v.significant, v.winner,
                              v.wins, v.ties, v.losses, v.n_items, v.n_battles) for v in self.verdicts],
                            columns=["judge", "win_rate", "ci_low", "ci_high", "p_value", "significant", "winner",
                                     "wins", "ties", "losses", "n_items", "n_battles"])

    def __repr__(self) -> str:
        return f"Robustness({self.a} beats {self.b} under {self.beats} of {len(self.verdicts)} judges)"


def robustness(battles: Battles | pd.DataFrame, a: str, b: str, *, test: str = "sign",
               alternative: str = DEFAULT_ALTERNATIVE, n_resamples: int = DEFAULT_RESAMPLES,
               seed: int | None = DEFAULT_SEED, alpha: float = DEFAULT_ALPHA,
               confidence_level: float | None = None) -> Robustness:
    """The claim "``a`` beats ``b``" judged under each judge separately: :func:`~sigcore.judgments.pair.pair` with
    these settings on each judge's battles of the two models (the same ``seed`` for each). Judges who never judged
    the two models are left out, with a note; refused: a model not in the battles, ``a`` equal to ``b``, two models
    that never met, and fewer than two judges who judged them (one judge's verdict is :func:`pair`'s)."""
    frame = battles.frame if isinstance(battles, Battles) else battles
    met = item_scores(frame, a, b).judges  # the models checked, and the judges who judged them
    everyone = list(pd.unique(frame["judge"].to_numpy(object)))
    if len(met) < 2:
        only = f"judge {named(met[0])}" if met[0] else "one judge (the files do not say who)"
        raise InputError(f"only {only} judged {named(a)} against {named(b)}: robustness compares several judges' "
                         "verdicts", hint="pair() gives that judge's verdict; robustness needs the two models "
                                          "judged by two judges or more.")
    verdicts = tuple(pair(frame, a, b, test=test, alternative=alternative, n_resamples=n_resamples, seed=seed,
                          alpha=alpha, confidence_level=confidence_level, judge=judge) for judge in met)
    notes = list(battles.notes) if isinstance(battles, Battles) else []
    missing = [judge for judge in everyone if judge not in met]
    if missing:
        notes.append(f"{counted(len(missing), 'judge')} never judged {named(a)} against {named(b)} and "
                     f"{'is' if len(missing) == 1 else 'are'} left out: {listed(missing, 5)}")
    return Robustness(a, b, verdicts, tuple(notes))
