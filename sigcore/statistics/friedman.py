"""The Friedman test over tasks with Nemenyi's critical difference (Demšar 2006, §3.2.2), offered beside the paired
bootstrap, not in its place.

Each task (dataset) is one observation: the models are ranked within it (1 the best, ties sharing the mean of their
ranks) and R_j is model j's mean rank over the N tasks. H0: every model has the same expected rank.

  χ²_F = 12N / (k(k+1)) · (Σ_j R_j² − k(k+1)²/4),   F_F = (N−1)χ²_F / (N(k−1) − χ²_F) ~ F(k−1, (k−1)(N−1))

(Iman and Davenport's F, which Demšar recommends over χ²_F as less conservative; χ²_F as Demšar writes it,
without scipy's correction for ties). Two models differ by Nemenyi's
test when their mean ranks differ by at least CD = q_α √(k(k+1) / (6N)), q_α the studentized range's 1 − α quantile
for k means over √2. It asks whether the models rank the same way across tasks, ignoring how many items each has
and by how much a model wins; the paired bootstrap asks whether a difference on these tasks' items is more than
the test sets' chance.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import stats

from ..contract import DEFAULT_ALPHA, check_alpha
from ..errors import SettingsError

__all__ = ["Friedman", "nemenyi_q", "friedman"]


@dataclass(frozen=True)
class Friedman:
    models: tuple[str, ...]
    n_tasks: int
    mean_ranks: np.ndarray  # (models,): 1 = the best on average
    chi2: float
    p_chi2: float
    f: float  # Iman and Davenport's F_F
    p_value: float  # of F_F
    alpha: float
    critical_difference: float  # Nemenyi's, at alpha

    def different(self) -> np.ndarray:
        """(models, models): whether Nemenyi's test tells the two apart (|R_i − R_j| ≥ CD)."""
        gaps = np.abs(self.mean_ranks[:, None] - self.mean_ranks[None, :])
        return gaps >= self.critical_difference - 1e-12


@lru_cache(maxsize=256)  # scipy integrates the studentized range numerically: milliseconds a call
def nemenyi_q(k: int, alpha: float = DEFAULT_ALPHA) -> float:
    """q_α of Nemenyi's test for k models: the studentized range's 1 − α quantile, infinite df, over √2."""
    return float(stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2))


def friedman(scores: np.ndarray, models: tuple[str, ...] | list[str], alpha: float = DEFAULT_ALPHA) -> Friedman:
    """The test on ``scores`` (tasks, models), higher better."""
    check_alpha(alpha)
    scores = np.asarray(scores, dtype=np.float64)
    n, k = scores.shape
    if k < 2 or n < 2:
        raise SettingsError(f"the Friedman test needs at least 2 models on at least 2 tasks, not {k} on {n}",
                            hint="Give more tasks, or read the paired bootstrap's board.")
    ranks = stats.rankdata(-scores, axis=1)  # within each task; ties share the mean of their ranks
    mean = ranks.mean(axis=0)
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(mean ** 2) - k * (k + 1) ** 2 / 4)
    denominator = n * (k - 1) - chi2
    f = (n - 1) * chi2 / denominator if denominator > 0 else np.inf  # every task ranks the models alike
    p = float(stats.f.sf(f, k - 1, (k - 1) * (n - 1))) if np.isfinite(f) else 0.0
    cd = nemenyi_q(k, alpha) * np.sqrt(k * (k + 1) / (6 * n))
    return Friedman(tuple(models), n, mean, float(chi2), float(stats.chi2.sf(chi2, k - 1)), float(f), p,
                    alpha, float(cd))
