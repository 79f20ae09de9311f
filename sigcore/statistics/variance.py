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

With clusters (the questions of one passage, the sentences of one document; G clusters of sizes m_g, n = Σ m_g),
the items are not independent: c_gi = δ + u_g + v_gi + ε_gi, u_g the cluster's (σ²_u, between clusters), v_gi the
item's within it (σ²_v) and ε_gi the runs' luck (its variance, L = Σ_S σ²_e,S / R_S, known from the runs).
One-way analysis of variance of the c_gi by cluster estimates them by the method of moments, each truncated at 0
(Searle, Casella & McCulloch 1992, §3.6):

  σ²_v = MS_within − L,   σ²_u = (MS_between − MS_within) / m₀,   m₀ = (n − Σ m_g² / n) / (G − 1)

and Var(δ) = σ²_u Σ m_g² / n² + (σ²_v + L) / n: the clusters' term, the items' within them, the runs'. Twice the
items, in twice the clusters each as large as now, halves every term but the runs' own; twice the items in each
cluster (the same clusters) leaves the clusters' term as it is. Where no cluster has two items, σ²_v cannot be told
from σ²_u and all of it is the clusters'. The cluster bootstrap (Field & Welsh 2007) estimates the same Var(δ),
times (G − 1) / G with clusters of one size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import SettingsError

__all__ = ["DESIGNS", "Runs", "Split", "combine", "split", "from_item_means"]

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
    """Var(δ) in its terms at the design's size: the items' (σ²_c / n; with clusters, the items' within their
    clusters, σ²_v / n), the runs' own (Σ σ²_run / R, seeds only), each item's luck in each run (Σ σ²_e / (n R)),
    which more items and more runs both shrink, and with clusters the clusters' (σ²_u Σ m_g² / n²)."""

    items: float
    runs: float
    error: float
    design: str
    clusters: float = 0.0

    def variance(self, items: float = 1, runs: float = 1, cluster_size: float = 1) -> float:
        """Var(δ) with ``items`` times the items (with clusters: in ``items`` times the clusters, each as large as
        now), ``runs`` times every system's runs and ``cluster_size`` times the items in each cluster."""
        return (self.clusters / items + self.items / (items * cluster_size) + self.runs / runs
                + self.error / (items * cluster_size * runs))

    @property
    def items_share(self) -> float:
        """The items' part of Var(δ) (with clusters, theirs and the clusters'); the rest, the runs' (their own term
        and the luck they average away)."""
        total = self.variance()
        return (self.items + self.clusters) / total if total > 0 else float("nan")

    @property
    def clusters_share(self) -> float:
        """The clusters' part of Var(δ): what the items of one cluster share (0 without clusters)."""
        total = self.variance()
        return self.clusters / total if total > 0 else float("nan")

    def narrowing(self, items: float = 1, runs: float = 1, cluster_size: float = 1) -> float:
        """By how much (a fraction) δ's interval narrows with ``items`` times the items, ``runs`` times the runs
        and ``cluster_size`` times the items in each cluster (:meth:`variance`)."""
        total = self.variance()
        return 1 - float(np.sqrt(self.variance(items, runs, cluster_size) / total)) if total > 0 else 0.0


def combine(splits: list[Split], weights: np.ndarray) -> Split:
    """The split of Σ_t w_t δ_t over independent tasks (an aggregate of task scores): each term weighted by w_t²."""
    w2 = np.asarray(weights, dtype=np.float64) ** 2
    items, runs, error, clusters = (float(w2 @ [getattr(s, term) for s in splits])
                                    for term in ("items", "runs", "error", "clusters"))
    return Split(items, runs, error, splits[0].design, clusters)


def split(a: np.ndarray, b: np.ndarray, design: str = "epochs", clusters=None) -> Split:
    """The split of two systems' items × runs per-item scores (the same items in the same order; runs may differ
    in number), their runs ``design``: "epochs" or "seeds"; ``clusters``: each item's cluster (any labels), or
    None for independent items."""
    if design not in DESIGNS:
        raise SettingsError(f"the runs' design must be 'epochs' or 'seeds', not {design!r}",
                            hint="epochs: each run a fresh draw of every item's answer; seeds: each run a system "
                                 "that moves every item.")
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.ndim != 2 or b.ndim != 2 or len(a) != len(b):
        raise SettingsError("the split needs each system's scores as items × runs, on the same items")
    if len(a) < 2:
        raise SettingsError("the split needs at least 2 items")
    if clusters is not None:
        clusters = np.unique(np.asarray(clusters), return_inverse=True)[1].ravel()
        if len(clusters) != len(a):
            raise SettingsError(f"the split needs a cluster for each of the {len(a)} items, not {len(clusters)}")
        if clusters.max() < 1:
            raise SettingsError("the split needs at least 2 clusters")
    return from_item_means(a.mean(axis=1) - b.mean(axis=1), Runs.of(a, design), Runs.of(b, design), design,
                           clusters)


def from_item_means(c: np.ndarray, a: Runs, b: Runs, design: str, clusters: np.ndarray | None = None) -> Split:
    """The split from the per-item mean differences ``c`` (each system's runs averaged) and each system's runs;
    ``clusters``: each item's cluster, 0..G-1 (G ≥ 2), for the clusters' term."""
    n = len(c)
    luck = a.error / a.n_runs + b.error / b.n_runs
    runs = float(a.run / a.n_runs + b.run / b.n_runs)
    if clusters is None:
        return Split(max(0.0, float(np.var(c, ddof=1)) - luck) / n, runs, float(luck / n), design)
    sizes = np.bincount(clusters).astype(np.float64)
    g = len(sizes)
    means = np.bincount(clusters, weights=c) / sizes
    between = float(sizes @ (means - c.mean()) ** 2) / (g - 1)  # MS_between
    m0 = (n - float(sizes @ sizes) / n) / (g - 1)
    if n > g:
        within = float(np.sum((c - means[clusters]) ** 2)) / (n - g)  # MS_within
        item, cluster = max(0.0, within - luck), max(0.0, (between - within) / m0)
    else:  # one item a cluster: the items' own variance cannot be told from their clusters'
        item, cluster = 0.0, max(0.0, between - luck)
    return Split(item / n, runs, float(luck / n), design, cluster * float(sizes @ sizes) / n ** 2)
