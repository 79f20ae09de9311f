"""Ratings by category (issue 42 §2): where the battles say each item's category (an arena's, a tidy table's
``category``, AlpacaEval's ``dataset``), each category's Bradley–Terry ratings with their intervals, and each pair
of models' difference in each category with its p corrected over the categories.

Each category is rated on its own battles by :func:`sigcore.judgments.ratings.bradley_terry`, with the same settings
and the same seed, so a category's ratings are exactly those of ``bradley_terry`` on that category's battles.

**Which family is corrected.** The question "in which categories does A differ from B?" asks one question per
category of the same two models: read category by category, one of k true null hypotheses in k categories comes out
significant with probability up to 1 − (1 − α)^k. So by default (``family="categories"``) each pair of models' k
bootstrap p-values (two-sided, the difference of their ratings, as each category's ``pairs`` gives them) are
adjusted together, by :func:`sigcore.statistics.multiple.adjust` (Holm by default). Each category's own correction
over its pairs, for its LMArena rank, stays in its ratings (``rank_correction``). ``family="all"`` adjusts every
pair in every category as one family instead, for a reader who scans the whole grid of categories × pairs. The
categories' bootstraps draw different items, so the max-statistic correction, which needs shared resamples, is not
offered.

**Too thin to say anything.** A category is left out, named with the reason in ``omitted`` and the notes, when it
has fewer than ``min_items`` items, when its models fall into groups that never meet, when some model never loses (or
never wins) in it so that no finite rating exists (``prior`` keeps them finite), or when the ``baseline`` model has
no battle in it. Battles with no category take no part. Fewer than 30 items (but at least ``min_items``) give a
category its ratings with the cluster bootstrap's caution in its notes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..contract import (
    DEFAULT_ALPHA,
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    check_alpha,
    check_level,
    check_resamples,
    check_seed,
    is_int,
)
from ..errors import InputError, SettingsError
from ..statistics.multiple import CORRECTIONS, adjust
from ..words import counted, listed, named
from .battles import Battles
from .ratings import Ratings, bradley_terry

__all__ = ["MIN_ITEMS", "FAMILIES", "CategoryRatings", "by_category"]

MIN_ITEMS = 10  # fewer items than this and a category's item bootstrap has too few clusters to mean anything
FAMILIES = ("categories", "all")  # each pair of models over the categories; every pair in every category


@dataclass(frozen=True, eq=False)
class CategoryRatings:
    """Each category's :class:`~sigcore.judgments.ratings.Ratings` (``ratings``, in order of first appearance), the
    categories left out and why (``omitted``), and ``pairs``: one row per pair of models in each category rated
    (``category, model, other, delta, p_value, p_corrected``; ``model`` the one that appears first in the battles,
    ``delta`` its rating minus the other's, ``p_value`` the category's bootstrap p, a count over b, 0 meaning p < 1/b,
    ``p_corrected`` adjusted over ``family``)."""

    ratings: dict[str, Ratings]
    omitted: dict[str, str]
    pairs: pd.DataFrame
    correction: str = "holm"
    family: str = "categories"
    alpha: float = DEFAULT_ALPHA
    min_items: int = MIN_ITEMS
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int | None = DEFAULT_SEED
    confidence_level: float = DEFAULT_LEVEL
    notes: tuple[str, ...] = ()

    def significant(self) -> pd.DataFrame:
        """The rows of ``pairs`` whose corrected p is at most α."""
        return self.pairs[self.pairs["p_corrected"] <= self.alpha].reset_index(drop=True)


def by_category(battles: Battles | pd.DataFrame, *, min_items: int = MIN_ITEMS, correction: str = "holm",
                family: str = "categories", alpha: float = DEFAULT_ALPHA, n_resamples: int = DEFAULT_RESAMPLES,
                seed: int | None = DEFAULT_SEED, confidence_level: float = DEFAULT_LEVEL, ties: str = "half",
                scale: str = "elo", baseline: str | None = None, center: float | None = None, prior: float = 0.0,
                rank_correction: str = "holm") -> CategoryRatings:
    """Each category's Bradley–Terry ratings of the models in ``battles`` (read by :func:`sigcore.judgments.read`,
    or the tidy battles frame), from :func:`~sigcore.judgments.ratings.bradley_terry` on the category's battles with
    these settings (``rank_correction`` is its ``correction``: over the category's pairs, for its LMArena rank), and
    each pair's p corrected by ``correction`` (one of :data:`sigcore.statistics.multiple.CORRECTIONS`) over
    ``family`` (:data:`FAMILIES`). Categories with fewer than ``min_items`` items, or no finite ratings, are left
    out and named; refused when no battle has a category, or no category is left."""
    _checked(min_items, correction, family, alpha, n_resamples, seed, confidence_level)
    frame = battles.frame if isinstance(battles, Battles) else battles
    notes = list(battles.notes) if isinstance(battles, Battles) else []
    labels = frame["category"].to_numpy(object) if "category" in frame.columns else np.full(len(frame), "", object)
    filled = np.array([bool(str(c).strip()) for c in labels], dtype=bool)
    if not filled.any():
        raise InputError("no battle has a category, so there is nothing to rate by category",
                         hint="Give a category column (arena battles, the tidy table) or AlpacaEval's dataset.")
    models = list(pd.unique(frame[["model_a", "model_b"]].to_numpy().ravel()))
    if baseline is not None and baseline not in models:
        raise SettingsError(f"the baseline {named(baseline)} is not one of the models",
                            hint=f"The models are: {listed(models)}.")
    if not filled.all():
        blank = int((~filled).sum())
        notes.append(f"{counted(blank, 'battle')} with no category {'takes' if blank == 1 else 'take'} no part")
    if seed is None:  # one seed for every category, so that each is bradley_terry's on its own battles
        seed = int(np.random.SeedSequence().entropy % 2 ** 63)
    settings = {"ties": ties, "scale": scale, "baseline": baseline, "center": center, "prior": prior,
                "n_resamples": n_resamples, "seed": seed, "confidence_level": confidence_level, "alpha": alpha,
                "correction": rank_correction}
    ratings, omitted = {}, {}
    for category in pd.unique(labels[filled]):
        own = frame[labels == category]
        n_items = int(pd.unique(own["item"]).size)
        if n_items < min_items:
            omitted[str(category)] = f"only {counted(n_items, 'item')}, fewer than min_items = {min_items}"
            continue
        if baseline is not None and baseline not in set(own["model_a"]) | set(own["model_b"]):
            omitted[str(category)] = f"the baseline {named(baseline)} has no battle in it"
            continue
        try:
            ratings[str(category)] = bradley_terry(own, **settings)
        except InputError as e:  # too thin: groups that never meet, or no finite fit
            omitted[str(category)] = e.what
    if omitted:
        notes.append("left out, too thin to say anything: " + "; ".join(f"{named(c)} ({why})"
                                                                        for c, why in omitted.items()))
    if not ratings:
        raise InputError("no category can be rated: " + "; ".join(f"{named(c)}: {why}" for c, why in omitted.items()),
                         hint=f"Rate the battles as a whole, lower min_items (now {min_items}), or pass prior=1 "
                              "where a model never loses.")
    pairs = _pairs(ratings, models, correction, family, n_resamples)
    return CategoryRatings(ratings, omitted, pairs, correction, family, alpha, min_items, n_resamples, seed,
                           confidence_level, tuple(notes))


def _checked(min_items, correction, family, alpha, n_resamples, seed, confidence_level) -> None:
    if not (is_int(min_items) and min_items >= 1):
        raise SettingsError(f"`min_items` must be a whole number from 1, not {min_items!r}",
                            hint=f"A category with fewer items is left out; the default is {MIN_ITEMS}.")
    if correction not in CORRECTIONS:
        raise SettingsError(f"unknown correction {correction!r}", hint=f"Choose one of: {', '.join(CORRECTIONS)}.")
    if family not in FAMILIES:
        raise SettingsError(f"`family` must be one of {', '.join(FAMILIES)}, not {family!r}",
                            hint="categories: each pair of models over the categories; all: every pair in every "
                                 "category at once.")
    check_alpha(alpha)
    check_resamples(n_resamples)
    check_seed(seed)
    check_level(confidence_level)


def _pairs(ratings: dict[str, Ratings], models: list[str], correction: str, family: str,
           n_resamples: int) -> pd.DataFrame:
    """Every category's pairs, each pair of models named in one order across categories (the one that appears first
    in the battles as ``model``), with p adjusted over the family."""
    place = {name: k for k, name in enumerate(models)}
    parts = []
    for category, rated in ratings.items():
        pairs = rated.pairs
        flip = (pairs["model"].map(place) > pairs["other"].map(place)).to_numpy()
        parts.append(pd.DataFrame({
            "category": category,
            "model": np.where(flip, pairs["other"], pairs["model"]).astype(object),
            "other": np.where(flip, pairs["model"], pairs["other"]).astype(object),
            "delta": np.where(flip, -pairs["delta"], pairs["delta"]), "p_value": pairs["p_value"].to_numpy()}))
    table = pd.concat(parts, ignore_index=True)
    p = table["p_value"].to_numpy(float)
    corrected = np.empty(len(table))
    groups = [np.arange(len(table))] if family == "all" else \
        list(table.groupby(["model", "other"], sort=False).indices.values())
    for rows in groups:
        corrected[rows] = adjust(p[rows], correction, floors=1 / n_resamples)  # a count of 0 is p < 1/b
    table["p_corrected"] = corrected
    return table
