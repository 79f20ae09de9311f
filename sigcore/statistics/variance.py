"""Where δ's variance comes from when each system was run several times on the same items (seeds, epochs,
repeats): the items, or the runs; and what buys more precision, more items or more runs.

Each system's per-item scores x_ir (n items, R runs) follow the crossed random-effects model x_ir = μ + a_i + s_r
+ e_ir: a_i the item (its difficulty, shared by both systems, and so paired), s_r the run (a seed that moves every
item: σ²_run), e_ir the item's luck in that run (σ²_e; with epochs or repeats, the sampling of the answer). Two-way
analysis of variance without replication estimates them by the method of moments, each truncated at 0:

  σ²_e = MS_error,   σ²_run = (MS_run − MS_error) / n

and the items' share from the per-item mean differences c_i = x̄_A,i − x̄_B,i, whose variance is σ²_c (how far
the two systems' item effects differ) + σ²_e,A / R_A + σ²_e,B / R_B. Then, for δ = mean of A − mean of B,

  Var(δ) = σ²_c / n + Σ_{S ∈ A, B} (σ²_run,S / R_S + σ²_e,S / (n R_S))

of which σ²_c / n is the items' share and the rest the runs'. Doubling the items halves every term with n in it;
doubling the runs, every term with R; an interval's width goes as √Var(δ).

Which model holds is the design's, not the data's, and is said: runs are ``"seeds"`` (each run a trained or
configured system that moves every item: crossed, as above) or ``"epochs"`` (epochs, repeats, samples: each run a
fresh draw of an item's answer, epoch 1 of one item and of another not one draw; then s_r = 0 and σ²_e is the
pooled within-item variance, the run effect not estimated where there is none, which with few runs would
overstate it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import SettingsError

DESIGNS = ("epochs", "seeds")


@dataclass(frozen=True)
class Runs:
    """One system's items × runs per-item scores, reduced to what the split needs."""

    n_items: int
    n_runs: float  # runs per item (their harmonic mean, where items have different numbers)
    run: float  # σ²_run
    error: float  # σ²_e

    @classmethod
    def of(cls, scores: np.ndarray, design: str = "epochs") -> Runs:
        x = np.asarray(scores, dtype=np.float64)
        n, r = x.shape
        if r < 2:
            return cls(n, 1, 0.0, 0.0)  # one run: nothing to tell the runs apart by
        if design == "epochs":  # runs nested in items: the pooled within-item variance, no run effect
            return cls(n, r, 0.0, float(np.sum((x - x.mean(axis=1, keepdims=True)) ** 2) / (n * (r - 1))))
        resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
        ms_error = float(np.sum(resid ** 2) / ((n - 1) * (r - 1))) if n > 1 else 0.0
        ms_run = float(n * np.var(x.mean(axis=0), ddof=1))
        return cls(n, r, max(0.0, (ms_run - ms_error) / n), ms_error)


@dataclass(frozen=True)
class Split:
    """Var(δ) in its three terms at the design's size: the items' (σ²_c / n), the runs' own (Σ σ²_run / R, seeds
    only) and each item's luck in each run (Σ σ²_e / (n R)), which more items and more runs both shrink."""

    items: float
    runs: float
    error: float
    design: str

    def variance(self, items: float = 1, runs: float = 1) -> float:
        """Var(δ) with ``items`` times the items and ``runs`` times every system's runs."""
        return self.items / items + self.runs / runs + self.error / (items * runs)

    @property
    def items_share(self) -> float:
        """The items' part of Var(δ); the rest, the runs' (their own term and the luck they average away)."""
        total = self.variance()
        return self.items / total if total > 0 else float("nan")

    def narrowing(self, items: float = 1, runs: float = 1) -> float:
        """By how much (a fraction) δ's interval narrows with ``items`` times the items and ``runs`` times the runs."""
        total = self.variance()
        return 1 - float(np.sqrt(self.variance(items, runs) / total)) if total > 0 else 0.0


def combine(splits: list[Split], weights: np.ndarray) -> Split:
    """The split of Σ_t w_t δ_t over independent tasks (an aggregate of task scores): each term weighted by w_t²."""
    w2 = np.asarray(weights, dtype=np.float64) ** 2
    return Split(*(float(w2 @ [getattr(s, term) for s in splits]) for term in ("items", "runs", "error")),
                 splits[0].design)


def split(a: np.ndarray, b: np.ndarray, design: str = "epochs") -> Split:
    """The split of two systems' items × runs per-item scores (the same items in the same order; runs may differ
    in number), their runs ``design``: "epochs" or "seeds"."""
    if design not in DESIGNS:
        raise SettingsError(f"the runs' design must be 'epochs' or 'seeds', not {design!r}",
                            hint="epochs: each run a fresh draw of every item's answer; seeds: each run a system "
                                 "that moves every item.")
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.ndim != 2 or b.ndim != 2 or len(a) != len(b):
        raise SettingsError("the split needs each system's scores as items × runs, on the same items")
    if len(a) < 2:
        raise SettingsError("the split needs at least 2 items")
    return from_item_means(a.mean(axis=1) - b.mean(axis=1), Runs.of(a, design), Runs.of(b, design), design)


def from_item_means(c: np.ndarray, a: Runs, b: Runs, design: str) -> Split:
    """The split from the per-item mean differences ``c`` (each system's runs averaged) and each system's runs."""
    n = len(c)
    luck = a.error / a.n_runs + b.error / b.n_runs
    return Split(max(0.0, float(np.var(c, ddof=1)) - luck) / n, float(a.run / a.n_runs + b.run / b.n_runs),
                 float(luck / n), design)
