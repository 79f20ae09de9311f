"""Pairwise judgments as one result: :func:`preferences` reads the files (or takes battles already read), rates the
models with intervals and ranks, and returns :class:`Preferences`, whose every view (the sentence, the tables, the
JSON of kind "preferences", the page) the report layer writes (:mod:`sigcore.report.preferences`).

This is ``sigcore.preferences(...)`` and what ``sigcore preferences FILE…`` runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from ..contract import (
    DEFAULT_ALPHA,
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    check_alpha,
    check_level,
    check_resamples,
    check_seed,
)
from ..errors import InputError
from ..signature import Signature, tool_versions
from .agreement import Agreement, agreement
from .battles import Battles
from .position import PositionBias, position_bias, reconciled
from .ratings import Ratings, bradley_terry
from .readers import read_all

__all__ = ["Preferences", "preferences"]



@dataclass(frozen=True, eq=False)
class Preferences:
    """The models rated from pairwise judgments (:class:`~sigcore.judgments.ratings.Ratings`: ratings, intervals,
    ranks, every pair's δ and corrected p), with what was read (``battles``: the tidy frame and each file's shape),
    the judges' position bias where judgments come in both orders (``position``, else None), their agreement where
    several judged the same battles (``agreement``, else None), whether the ratings are of the ``reconciled``
    verdicts, and the notes of reading and fitting."""

    ratings: Ratings
    battles: Battles
    position: PositionBias | None = None
    agreement: Agreement | None = None
    reconciled: bool = False

    @property
    def models(self) -> list[str]:
        return self.ratings.models

    @property
    def notes(self) -> tuple[str, ...]:
        """What reading and fitting decided that the reader should know (the ratings hold the readers' notes)."""
        return self.ratings.notes

    @property
    def n_battles(self) -> int:
        return len(self.battles.frame)

    @property
    def judges(self) -> list[str]:
        """The judges named in the files ("" where a file names none), in order of first appearance."""
        return list(dict.fromkeys(self.battles.frame["judge"].tolist()))

    def signature_fields(self) -> Signature:
        """The settings and sizes that made the ratings, as the signature every result carries: the bootstrap over
        items, b and the seed, the correction over every pair, the fit (Bradley–Terry, its tie model, scale and
        anchor) and the sizes."""
        r = self.ratings
        options = {"ties": r.tie_model, "scale": r.scale, "center": r.center}
        if r.baseline is not None:
            options["baseline"] = r.baseline
        if r.prior:
            options["prior"] = r.prior
        if self.reconciled:  # FastChat's reconciled verdicts, not the battles as judged
            options["reconciled"] = True
        m = len(r.models)
        return Signature("preferences", "bootstrap-items", alternative="two-sided", alpha=r.alpha,
                         resamples=r.n_resamples, seed=r.seed, correction=r.correction,
                         comparisons=m * (m - 1) // 2, metric="bradley-terry", options=options, models=m,
                         items=r.n_items, ci="percentile", level=r.confidence_level,
                         versions=tool_versions("numpy"))

    @property
    def signature(self) -> str:
        return self.signature_fields().text


def preferences(sources: list | Battles, *, shape: str | None = None, ties: str = "half", scale: str = "elo",
                baseline: str | None = None, center: float | None = None, prior: float = 0.0,
                n_resamples: int = DEFAULT_RESAMPLES, seed: int | None = DEFAULT_SEED,
                confidence_level: float = DEFAULT_LEVEL, alpha: float = DEFAULT_ALPHA,
                correction: str = "holm", reconcile: bool = False,
                progress: Callable[[float], None] | None = None) -> Preferences:
    """Rate the models of pairwise judgments: ``sources`` are files (paths, or (name, bytes) pairs of uploads; each
    file's shape recognised unless ``shape`` names it: :data:`sigcore.judgments.SHAPES`) or :class:`Battles`.

    The ratings are Bradley–Terry's on ``scale`` (:func:`sigcore.judgments.bradley_terry`, whose settings these
    are), their intervals at ``confidence_level`` and every pair's p from ``n_resamples`` resamples of the items,
    the p corrected over all pairs with ``correction`` at ``alpha`` for the rank LMArena publishes; ``progress(fraction
    done)`` is told after each block of resamples.

    From the same battles, where they allow it: the position bias of judgments made in both orders
    (:func:`~sigcore.judgments.position_bias`) and the agreement of judges who judged the same battles
    (:func:`~sigcore.judgments.agreement`), each with intervals from the same b and seed. ``reconcile``: rate the
    verdicts with each pair judged in both orders made one, a tie where the order changed it (FastChat's rule,
    :func:`~sigcore.judgments.reconciled`)."""
    check_resamples(n_resamples)  # the settings before the files, which may be large
    check_seed(seed)
    check_level(confidence_level)
    check_alpha(alpha)
    if isinstance(sources, (str, os.PathLike, bytes)):
        sources = [sources]
    battles = sources if isinstance(sources, Battles) else read_all(list(sources), shape=shape)
    position = _where_defined(position_bias, battles, n_resamples, seed, confidence_level)
    agreed = _where_defined(agreement, battles, n_resamples, seed, confidence_level)
    if reconcile:
        if position is None:
            raise InputError("there is nothing to reconcile: no judgment was made in both orders",
                             hint="Leave out reconcile (--reconcile), or give judgments with both orders (MT-Bench's "
                                  "g1 and g2, a tidy table's order column).")
        battles = reconciled(battles)
    ratings = bradley_terry(battles, ties=ties, scale=scale, baseline=baseline, center=center, prior=prior,
                            n_resamples=n_resamples, seed=seed, confidence_level=confidence_level, alpha=alpha,
                            correction=correction, progress=progress)
    return Preferences(ratings, battles, position, agreed, reconcile)


def _where_defined(measure, battles: Battles, n_resamples: int, seed: int | None, level: float):
    """``measure`` of the battles, or None where they cannot say (no judgment in both orders, one judge): those
    refusals are the data's shape, not an error of the ratings."""
    try:
        return measure(battles, n_resamples=n_resamples, seed=seed, confidence_level=level)
    except InputError:
        return None
