"""Replicability analysis over several datasets (Dror, Baumer, Bogomolov & Reichart 2017, TACL 5).

Given one one-sided p-value per dataset for "A is better than B", it answers: on how many datasets is A
better? The partial-conjunction null H0^{u/N} says "A is better on fewer than u of the N datasets"; with the
p-values sorted, p_(1) <= ... <= p_(N), it is tested by
- Bonferroni, valid under any dependence between datasets: p^{u/N} = (N - u + 1) p_(u);
- Fisher, for independent datasets: P(χ²_{2(N-u+1)} >= -2 Σ_{i>=u} ln p_(i)), the N - u + 1 largest p-values.
Made monotone in u (a running maximum), k̂ = #{u : p^{u/N} <= α}: with probability at least 1 - α, A is better
on at least k̂ datasets. Which ones: Holm's procedure, which rejects exactly the k̂ (Bonferroni) datasets with the
smallest p. The reference is the authors' code (github.com/rtmdrr/replicability-analysis-NLP).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .._lazy import stats
from ..contract import DEFAULT_ALPHA, check_alpha
from ..errors import SettingsError
from .multiple import floored_p_values

__all__ = ["Replicability", "partial_conjunction", "replicability"]


@dataclass(frozen=True)
class Replicability:
    """``bonferroni[u - 1]`` and ``fisher[u - 1]`` are the monotone partial-conjunction p-values p^{u/N}
    (Bonferroni's capped at 1); ``k_bonferroni``/``k_fisher`` the estimated number of datasets where A is better;
    ``identified`` the datasets Holm's procedure names (the k_bonferroni with the smallest p)."""

    datasets: tuple[str, ...]
    p_values: tuple[float, ...]
    alpha: float
    bonferroni: tuple[float, ...]
    fisher: tuple[float, ...]
    k_bonferroni: int
    k_fisher: int
    identified: tuple[str, ...]

    def sentence(self) -> str:
        n = len(self.datasets)
        names = ", ".join(self.identified) if self.identified else "none"
        return (f"Replicability analysis (Dror et al., 2017) over {n} datasets at α = {self.alpha:g}: A is better "
                f"than B on at least k̂ = {self.k_bonferroni} of {n} (Bonferroni, any dependence) or "
                f"k̂ = {self.k_fisher} of {n} (Fisher, independent datasets); Holm's procedure identifies: {names}.")


def partial_conjunction(p_values, method: str = "bonferroni") -> np.ndarray:
    """p^{u/N} for u = 1..N, monotone in u (not capped): "A is better on fewer than u datasets" rejected at α
    when ``out[u - 1] <= α``."""
    p = np.sort(np.asarray(p_values, dtype=float))
    n = len(p)
    u = np.arange(1, n + 1)
    if method == "bonferroni":
        raw = (n - u + 1) * p
    elif method == "fisher":
        with np.errstate(divide="ignore"):  # a p of 0 makes the statistic infinite, and p^{u/N} 0
            logs = np.log(p)
        tail = np.cumsum(logs[::-1])[::-1]  # Σ_{i >= u} ln p_(i)
        raw = stats.chi2.sf(-2 * tail, 2 * (n - u + 1))
    else:
        raise SettingsError(f"unknown partial-conjunction method {method!r}", hint="Choose bonferroni or fisher.")
    return np.maximum.accumulate(raw)


def replicability(p_values, *, alpha: float = DEFAULT_ALPHA, datasets: Sequence[str] | None = None,
                  floors=None) -> Replicability:
    """Dror et al. (2017)'s k̂ and the datasets where A is better, from one one-sided p-value per dataset
    (numbers, or :class:`~sigcore.Result` objects with H1 "A better", whose p is floored at 1/(b + 1))."""
    if isinstance(p_values, (list, tuple)) and p_values and all(hasattr(v, "alternative") for v in p_values):
        sides = {v.alternative for v in p_values}
        if sides != {"greater"}:
            raise SettingsError("replicability analysis needs one-sided p-values for H1 \"A better than B\"",
                                hint="Run each dataset's comparison with alternative=\"greater\".")
    p = floored_p_values(p_values, "holm", floors)
    check_alpha(alpha)
    names = tuple(datasets) if datasets is not None else tuple(f"dataset {i + 1}" for i in range(len(p)))
    if len(names) != len(p):
        raise SettingsError(f"{len(names)} dataset names for {len(p)} p-values")
    bonferroni, fisher = (partial_conjunction(p, m) for m in ("bonferroni", "fisher"))
    k_b, k_f = (int(np.sum(v <= alpha)) for v in (bonferroni, fisher))
    order = np.argsort(p, kind="stable")  # ties: the dataset given first is named first
    return Replicability(names, tuple(map(float, p)), alpha, tuple(map(float, np.minimum(bonferroni, 1))),
                         tuple(map(float, fisher)), k_b, k_f, tuple(names[i] for i in sorted(order[:k_b])))
