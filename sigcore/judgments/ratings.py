"""Ratings with intervals from pairwise judgments: Bradley–Terry (Bradley & Terry 1952; Davidson 1970 for ties) on
the Elo scale arenas publish, with a bootstrap over items.

Battles on one prompt are not independent (one hard prompt, one judge's mood), so the bootstrap draws items
(questions) with replacement, every battle of a drawn item with it, the cluster bootstrap that ``compare(groups=…)``
runs (:func:`sigcore.statistics.resampling.bootstrap` over each item's counts per pair and outcome), and fits each
resample warm-started from the fit to the data. From the same resamples: each rating's percentile interval (as
Chiang et al. 2024 give Chatbot Arena's), each model's rank interval, and its rank as LMArena publishes it, 1 + the
number of models significantly better (each pair's bootstrap p, corrected over all pairs).

Scales: ``"elo"``, 400 · log10 of the odds (400 points: odds of 10 to 1), or ``"log"``, natural-log odds; anchored
so that the mean rating, or the ``baseline`` model's, is ``center`` (1,000 Elo points, or 0 in log odds).

A model that never loses (or never wins) against the others has no finite maximum-likelihood rating: the data are
refused, naming the models, unless ``prior`` adds α ties to every pair that met (a note says so). A resample in
which that happens (a model's only loss not drawn) is fitted with one such tie per pair (or ``prior``'s, if larger)
and the note counts them. Models that never meet, directly or through others, are refused, the groups named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from .._threads import one_blas_thread
from ..contract import (
    DEFAULT_ALPHA,
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    check_alpha,
    check_level,
    check_resamples,
    check_seed,
    extreme,
    tie,
)
from ..errors import InputError, SettingsError
from ..statistics import intervals, maxstat, resampling
from ..statistics.multiple import CORRECTIONS, MAXT, adjust
from ..words import listed, named
from . import bradley_terry as bt
from .battles import Battles

__all__ = ["SCALES", "CENTERS", "FALLBACK_PRIOR", "Ratings", "bradley_terry"]

SCALES = {"elo": bt.ELO, "log": 1.0}  # rating units per unit of natural-log odds
CENTERS = {"elo": 1000.0, "log": 0.0}  # where the mean (or the baseline) sits unless told: arenas' 1,000
FALLBACK_PRIOR = 1.0  # ties added to every pair that met, in a resample whose fit would not be finite
_BLOCK = 1 << 22  # resamples' totals fitted at once, in cells (rows × 3 · pairs): 32 MiB of float64


@dataclass(frozen=True, eq=False)
class Ratings:
    """Every model's rating with its interval, ranks and battles; the settings that made them; the b resampled
    ratings (``resampled``, b × models) for the views that follow. ``rank`` is LMArena's (1 + the models
    significantly better), ``rank_low``–``rank_high`` the interval of the rank over the resamples."""

    models: list[str]
    rating: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    battles: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray
    pairs: pd.DataFrame  # model, other, delta, p_value (a count over b: 0 means p < 1/b), p_corrected
    resampled: np.ndarray = field(repr=False)
    scale: str = "elo"
    center: float = 1000.0
    baseline: str | None = None
    tie_model: str = "half"
    tie_parameter: float | None = None  # Davidson's ν
    prior: float = 0.0
    n_items: int = 0
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int | None = DEFAULT_SEED
    confidence_level: float = DEFAULT_LEVEL
    alpha: float = DEFAULT_ALPHA
    correction: str = "holm"
    shapes: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def table(self) -> pd.DataFrame:
        """One row per model, best first: model, rating, ci_low, ci_high, rank, rank_low, rank_high, battles, wins,
        ties, losses."""
        rows = pd.DataFrame({"model": self.models, "rating": self.rating, "ci_low": self.ci_low,
                             "ci_high": self.ci_high, "rank": self.rank, "rank_low": _whole(self.rank_low),
                             "rank_high": _whole(self.rank_high), "battles": self.battles, "wins": self.wins,
                             "ties": self.ties, "losses": self.losses})
        return rows.iloc[np.argsort(-self.rating, kind="stable")].reset_index(drop=True)


def _whole(ranks: np.ndarray) -> list[int | None]:
    """Rank bounds as whole numbers; None where b is too small for the interval's level (a percentile of nan)."""
    return [int(r) if np.isfinite(r) else None for r in ranks]


def bradley_terry(battles: Battles | pd.DataFrame, *, ties: str = "half", scale: str = "elo",
                  baseline: str | None = None, center: float | None = None, prior: float = 0.0,
                  n_resamples: int = DEFAULT_RESAMPLES, seed: int | None = DEFAULT_SEED,
                  confidence_level: float = DEFAULT_LEVEL, alpha: float = DEFAULT_ALPHA, correction: str = "holm",
                  progress: Callable[[float], None] | None = None) -> Ratings:
    """Bradley–Terry ratings of the models in ``battles`` (read by :func:`sigcore.judgments.read`, or the tidy
    battles frame) with intervals and ranks from ``n_resamples`` resamples of the items, drawn from ``seed``.

    ``ties``: "half" (a tie is half a win each way) or "davidson" (Davidson's tie parameter, fitted).
    ``scale``/``baseline``/``center``: the units and the anchor (:data:`SCALES`, :data:`CENTERS`). ``prior``: ties
    added to every pair that met (0: plain maximum likelihood). ``correction``: over all pairs, for the LMArena
    rank: one of :data:`sigcore.statistics.multiple.CORRECTIONS`, or "maxt". ``progress(fraction done)`` is called
    after each block of resamples (the app's bar, and where a Stop ends the run)."""
    frame = battles.frame if isinstance(battles, Battles) else battles
    notes = list(battles.notes) if isinstance(battles, Battles) else []
    center = _checked(ties, scale, center, prior, n_resamples, seed, confidence_level, alpha, correction)
    if not len(frame):
        raise InputError("there are no battles to rate", hint="Give judgments of at least two models.")
    cells = bt.cells(frame["item"], frame["model_a"], frame["model_b"], frame["outcome"].to_numpy(float))
    m, models = len(cells.models), cells.models
    if baseline is not None and baseline not in models:
        raise SettingsError(f"the baseline {named(baseline)} is not one of the models",
                            hint=f"The models are: {listed(models)}.")
    if ties == "davidson" and cells.fractional:
        raise SettingsError("Davidson's tie model needs wins, ties and losses, and some outcomes are fractions",
                            hint='Rate fractional preferences with ties="half".')
    groups = bt.components(cells.first, cells.second, m)
    if len(groups) > 1:
        raise InputError(f"the models fall into {len(groups)} groups that never meet, so ratings across them are "
                         "not defined: " + "; ".join("{" + listed([models[k] for k in g], 8) + "}" for g in groups),
                         hint="Rate each group on its own, or add battles between them.")
    extra = _prior(len(cells.first), prior)
    totals = cells.totals + extra
    _finite(totals, cells, ties, prior)
    theta, nu = bt.fit(totals, cells.first, cells.second, m, ties=ties)
    resampled, fallen = _resampled(cells, theta[0], ties, prior, n_resamples, seed, progress)
    anchor = None if baseline is None else models.index(baseline)
    rating = _scaled(theta, scale, center, anchor)[0]
    ratings = _scaled(resampled, scale, center, anchor)
    low, high = intervals.percentile(ratings, confidence_level, axis=0)
    ranks = rankdata(-ratings, method="min", axis=1)  # 1 + the models rated higher, in each resample
    rank_low, rank_high = intervals.percentile(ranks, confidence_level, axis=0)
    pairs, better = _pairs(rating, ratings, models, alpha, correction)
    counted = _counts(frame, models)
    if prior:
        notes.append(f"every pair of models that met counts {prior:g} more ties (prior={prior:g}): the ratings are "
                     "shrunk towards each other, and finite")
    if fallen:
        notes.append(f"in {fallen:,} of {n_resamples:,} resamples some model never lost or never won (or was not "
                     f"drawn): those were fitted with {max(prior, FALLBACK_PRIOR):g} tie(s) added to every pair that "
                     "met, so that their ratings stay finite")
    few = resampling.few_clusters(cells.items.shape[0], "items")
    if few:
        notes.append(few)
    return Ratings(models, rating, low, high, maxstat.arena_ranks(better), np.floor(rank_low), np.ceil(rank_high),
                   *counted, pairs, ratings, scale, center, baseline, ties,
                   None if nu is None else float(nu[0]), float(prior), cells.items.shape[0], n_resamples, seed,
                   confidence_level, alpha, correction,
                   dict(battles.shapes) if isinstance(battles, Battles) else {}, tuple(notes))


def _checked(ties, scale, center, prior, n_resamples, seed, confidence_level, alpha, correction) -> float:
    """The settings checked, each by its one validator; the center, its default for the scale where None."""
    if ties not in bt.TIES:
        raise SettingsError(f"`ties` must be one of {', '.join(bt.TIES)}, not {ties!r}",
                            hint="half: a tie is half a win each way; davidson: Davidson's (1970) tie model.")
    if scale not in SCALES:
        raise SettingsError(f"`scale` must be one of {', '.join(SCALES)}, not {scale!r}",
                            hint="elo: 400 · log10 odds, as arenas publish; log: natural-log odds.")
    if center is not None and not (isinstance(center, (int, float)) and not isinstance(center, bool)
                                   and np.isfinite(center)):
        raise SettingsError(f"`center` must be a finite number, not {center!r}")
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not (np.isfinite(prior) and prior >= 0):
        raise SettingsError(f"`prior` must be a number of ties from 0 up, not {prior!r}",
                            hint="0 fits by maximum likelihood; 1 adds one tie to every pair that met.")
    if correction not in (*CORRECTIONS, MAXT):
        raise SettingsError(f"unknown correction {correction!r}", hint=f"Choose one of: {', '.join(CORRECTIONS)}, "
                                                                       f"{MAXT}.")
    check_resamples(n_resamples)
    check_seed(seed)
    check_level(confidence_level)
    check_alpha(alpha)
    return float(CENTERS[scale] if center is None else center)


def _prior(pairs: int, ties: float) -> np.ndarray:
    """``ties`` ties on every pair, laid out as :class:`~sigcore.judgments.bradley_terry.Cells`' columns."""
    return np.tile([ties / 2, ties / 2, ties], pairs)


def _finite(totals: np.ndarray, cells: bt.Cells, ties: str, prior: float) -> None:
    """Refuse data whose fit is not finite, naming the models that never lose or never win."""
    found = bt.separated(totals, cells.first, cells.second, len(cells.models))
    if found is not None:
        top, bottom = found
        never = f"{listed([cells.models[k] for k in top], 8)} never lost" if len(top) < len(cells.models) / 2 or \
            len(bottom) >= len(cells.models) / 2 else f"{listed([cells.models[k] for k in bottom], 8)} never won"
        raise InputError(f"{never} a battle against the other models (wins and ties only), so the "
                         "maximum-likelihood ratings are infinite",
                         hint="Add battles it lost (or won), or pass prior=1: every pair that met then counts one "
                              "more tie, which keeps every rating finite.")
    if ties == "davidson" and not totals[2::3].sum():
        raise InputError("there are no ties, so Davidson's tie parameter has nothing to be fitted from",
                         hint='Rate with ties="half" (the same ratings when there are no ties).')


def _resampled(cells: bt.Cells, theta: np.ndarray, ties: str, prior: float, n_resamples: int,
               seed: int | None, progress: Callable[[float], None] | None = None) -> tuple[np.ndarray, int]:
    """(b × models) strengths of the item resamples, and how many needed the fallback prior. Each resample's
    totals are the items' counts drawn times the sparse per-item counts (items with the same counts grouped
    first), fitted a bounded block of resamples at a time, so that memory does not grow with b or with the items;
    ``progress`` is told the share done after each chunk of resamples."""
    first, counts = resampling.unique_rows(cells.items)
    by_pattern = cells.items[first].T.tocsr()  # (3 · pairs) × patterns
    # halves and whole numbers sum exactly in float32 below 2^23, at a third of float64's time: the same totals
    if not cells.fractional and np.asarray(cells.items.sum(axis=1)).max(initial=0) * counts.sum() < 2 ** 22:
        by_pattern = by_pattern.astype(np.float32)
    m, pairs = len(cells.models), len(cells.first)
    usual, fallback = _prior(pairs, prior), _prior(pairs, max(prior, FALLBACK_PRIOR))
    block = max(1, _BLOCK // max(3 * pairs, 1))
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2 ** 63)

    def fitted(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out, fell = np.empty((len(w), m)), np.zeros(len(w), dtype=bool)
        for at in range(0, len(w), block):
            totals = np.asarray(by_pattern @ w[at:at + block].T.astype(by_pattern.dtype)).T + usual
            finite = bt.strongly_connected(totals, cells.first, cells.second, m)
            if ties == "davidson":
                finite &= totals[:, 2::3].sum(axis=1) > 0
            chunk = out[at:at + block]
            if finite.any():
                chunk[finite] = bt.fit(totals[finite], cells.first, cells.second, m, ties=ties, start=theta)[0]
            if not finite.all():
                refit = totals[~finite] - usual + fallback
                chunk[~finite] = bt.fit(refit, cells.first, cells.second, m, ties=ties, start=theta)[0]
                fell[at:at + block] = ~finite
        return out, fell

    parts, done = [], 0
    with one_blas_thread():  # many small solves: BLAS's threads cost 8x more than they bring (100 models)
        for part in resampling.bootstrap_counts(counts, n_resamples, seed, fitted):
            parts.append(part)
            done += len(part[0])
            if progress is not None:
                progress(done / n_resamples)
    return np.concatenate([theta for theta, _ in parts]), int(sum(fell.sum() for _, fell in parts))


def _scaled(theta: np.ndarray, scale: str, center: float, anchor: int | None) -> np.ndarray:
    """Strengths (rows of natural-log odds) as ratings: in ``scale``'s units, the mean or the ``anchor`` model's
    rating at ``center``."""
    theta = np.atleast_2d(theta)
    zero = theta.mean(axis=1, keepdims=True) if anchor is None else theta[:, [anchor]]
    return SCALES[scale] * (theta - zero) + center


def _pairs(rating: np.ndarray, ratings: np.ndarray, models: list[str], alpha: float,
           correction: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Every pair, the higher-rated first: δ, its bootstrap p (two-sided, the paired bootstrap's count around δ) and
    p corrected over all pairs; and the matrix "i significantly better than j" for the LMArena rank."""
    m, b = len(models), len(ratings)
    order = np.argsort(-rating, kind="stable")
    first, second = np.triu_indices(m, 1)
    i, j = order[first], order[second]
    d = rating[i] - rating[j]
    tol = tie(rating[i], rating[j])
    resampled_d = ratings[:, i] - ratings[:, j]
    p = np.count_nonzero(extreme(resampled_d, "two-sided", d, tol, centre=d), axis=0) / b
    if not len(d):
        corrected = p
    elif correction == MAXT:
        corrected = maxstat.adjusted(d, lambda h: resampled_d[:, h] - d[h], b, tol=tol)
    else:
        corrected = adjust(p, correction, floors=1 / b)
    better = np.zeros((m, m), dtype=bool)
    better[i, j] = (corrected <= alpha) & (d > tol)
    names = np.array(models, dtype=object)
    table = pd.DataFrame({"model": names[i], "other": names[j], "delta": d, "p_value": p,
                          "p_corrected": corrected})
    return table, better


def _counts(frame: pd.DataFrame, models: list[str]) -> tuple[np.ndarray, ...]:
    """Each model's battles, wins, ties and losses (a fractional outcome is a win above 0.5, a loss below)."""
    a, b, _ = bt.coded(frame["model_a"], frame["model_b"])  # the codes cells gave, in the same order
    o = frame["outcome"].to_numpy(float)
    m = len(models)

    def count(mask_a, mask_b):
        return np.bincount(a[mask_a], minlength=m) + np.bincount(b[mask_b], minlength=m)

    return (count(np.ones(len(o), bool), np.ones(len(o), bool)), count(o > 0.5, o < 0.5), count(o == 0.5, o == 0.5),
            count(o < 0.5, o > 0.5))
