"""Two systems, each run with several random seeds, on the same test set: a paired bootstrap over items and seeds.

A system trained with another seed is another system; a comparison of one run of A with one run of B leaves
out how much each moves from seed to seed. Here every resample draws the items once, with replacement, for
all runs (the pairing), and then draws, with replacement, which of A's runs and which of B's runs it averages:
δ(x⁽ⁱ⁾) = mean over the drawn runs of A − mean over the drawn runs of B, so that both sources of variance,
the test set and the seeds, enter δ's distribution (a two-level bootstrap; cf. Bouthillier et al. 2021 on
accounting for seeds). p and the interval follow SLP3's rule and its dual as in :func:`sigcore.compare`;
``ci_items`` is the interval with the seeds held fixed (each run weighted equally), to show what the seeds add.
With one run each, the result is ``sigcore.compare``'s exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .compare import _check_settings, _extreme
from .errors import SettingsError
from .many import shared_resamples
from .result import on_side, p_number, tie
from .statistics import intervals


@dataclass(frozen=True)
class SeedsResult:
    """δ = mean score of A's runs − mean score of B's runs, its p and interval from resampling items and runs."""

    metric: str
    alternative: str
    alpha: float
    score_a: float
    score_b: float
    delta: float
    p_value: float
    n_extreme: int
    ci_low: float
    ci_high: float
    ci_items: tuple[float, float]  # the same interval with the runs held fixed: the test set's share
    scores_a: tuple[float, ...]  # each run's score
    scores_b: tuple[float, ...]
    n_items: int
    n_resamples: int
    seed: int
    distribution: np.ndarray = field(repr=False, compare=False)

    @property
    def significant(self) -> bool:
        side = 0 if abs(self.delta) <= tie(self.score_a, self.score_b) else int(np.sign(self.delta))
        return self.p_value <= self.alpha and on_side(self.alternative, side)

    def sentence(self) -> str:
        runs = f"{len(self.scores_a)} runs of A and {len(self.scores_b)} of B"
        p = (f"p < {p_number(1 / self.n_resamples)}" if self.n_extreme == 0
             else f"p = {p_number(self.p_value, self.alpha)}")
        return (f"Over {runs} on {self.n_items:,} items: δ = {self.delta:.4g} ({1 - self.alpha:.0%} "
                f"{_bounds_text(self.alternative, self.ci_low, self.ci_high)} with the seeds' variance; "
                f"{_bounds_text(self.alternative, *self.ci_items)} from the items alone); {p} ({self.alternative}), "
                f"paired bootstrap over items and runs, b = {self.n_resamples:,}, seed {self.seed}: "
                + ("significant" if self.significant else "not significant") + f" at α = {self.alpha:g}.")


def _bounds_text(alternative: str, low: float, high: float) -> str:
    return {"greater": f"bound δ ≥ {low:.4g}", "less": f"bound δ ≤ {high:.4g}"}.get(
        alternative, f"interval {low:.4g} to {high:.4g}")


def compare_seeds(gold: Sequence | None, runs_a: Sequence[Sequence], runs_b: Sequence[Sequence], *,
                  metric: str = "accuracy", n_resamples: int = 10_000, alternative: str = "greater",
                  alpha: float = 0.05, seed: int = 0, **metric_options: Any) -> SeedsResult:
    """Test whether A beats B when each was run with several seeds: ``runs_a`` and ``runs_b`` are lists of
    outputs (one per seed, each in the items' order)."""
    runs_a, runs_b = list(runs_a), list(runs_b)
    if not runs_a or not runs_b or any(isinstance(r, (str, bytes)) for r in runs_a + runs_b):
        raise SettingsError("runs_a and runs_b must each be a list of runs (one list of outputs per seed)")
    _check_settings(metric, "bootstrap", n_resamples, alternative, alpha, None, seed, None, "basic", True, 1, None)
    if seed is None:
        raise SettingsError("compare_seeds needs a seed", hint="Give any whole number, e.g. seed=0.")
    k_a, k_b = len(runs_a), len(runs_b)
    shared = shared_resamples(gold, runs_a + runs_b, metric, n_resamples, seed, **metric_options)
    scores = np.array([float(shared.score(shared.weights @ rows)) for rows in shared.rows])
    score_a, score_b = float(scores[:k_a].mean()), float(scores[k_a:].mean())
    delta, tol = score_a - score_b, tie(score_a, score_b)
    # the runs each resample averages: one draw per resample, from a stream apart from the items' draws
    rng = np.random.default_rng([seed, 1])
    picks_a = rng.multinomial(k_a, np.full(k_a, 1 / k_a), size=n_resamples) / k_a
    picks_b = rng.multinomial(k_b, np.full(k_b, 1 / k_b), size=n_resamples) / k_b
    resampled = shared.resampled
    d = np.sum(resampled[:, :k_a] * picks_a, axis=1) - np.sum(resampled[:, k_a:] * picks_b, axis=1)
    d_items = resampled[:, :k_a].mean(axis=1) - resampled[:, k_a:].mean(axis=1)
    count = int(np.sum(_extreme(d, "bootstrap", alternative, delta, tol, None)))
    low, high = (0.0 if abs(x) <= tol else x for x in intervals.basic(d, delta, alpha, alternative, tol))
    items = tuple(float(x) for x in intervals.basic(d_items, delta, alpha, alternative, tol))
    return SeedsResult(metric, alternative, alpha, score_a, score_b, delta, max(count, 1) / n_resamples, count,
                       float(low), float(high), items, tuple(map(float, scores[:k_a])), tuple(map(float, scores[k_a:])),
                       shared.n_items, n_resamples, int(seed), d)

