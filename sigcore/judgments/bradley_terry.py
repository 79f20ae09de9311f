"""Bradley–Terry by maximum likelihood, from counts per pair of models (its sufficient statistics), many fits at once.

The model (Bradley & Terry 1952): model i beats model j with probability σ(θ_i − θ_j), θ a model's strength in
natural-log odds, defined up to a shift (fixed here by mean θ = 0). A tie counts as half a win each way (the
default, as LMArena and FastChat count it), and a fractional outcome o (AlpacaEval's weighted judges) as o of a win
to A and 1 − o to B: the likelihood is Σ s_ij log σ(θ_i − θ_j) over ordered pairs, s_ij the score i made against j.
Davidson's model (Davidson 1970) gives ties their own probability instead: with D = e^{x/2} + e^{−x/2} + ν and
x = θ_i − θ_j, i wins with probability e^{x/2}/D, j with e^{−x/2}/D and they tie with ν/D; ν = e^η is fitted too.

The fit is Newton's method on the (concave) log-likelihood, the Hessian a weighted graph Laplacian made invertible
by the constraint, with step halving where a step would lower the likelihood; a batch of count vectors (one per
bootstrap resample) is fitted at once, each warm-started from the fit to the data.

The maximum-likelihood estimate is finite exactly when every split of the models into two groups has a battle that
the first group did not lose to the second, both ways (Zermelo 1929; Ford 1957): the directed graph "i scored
against j" is strongly connected. :func:`separated` finds the groups where it is not; a ``prior`` of α extra ties
on every pair that met keeps any connected comparison graph's fit finite.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

__all__ = ["TIES", "ELO", "Cells", "cells", "fit", "components", "separated", "strongly_connected"]

TIES = ("half", "davidson")
ELO = 400 / np.log(10)  # Elo points per unit of natural-log odds: 400 points are odds of 10 to 1
_TOL = 1e-11  # Newton stops when no strength moves by more than this (natural-log units)
_ITERATIONS = 200


@dataclass(frozen=True)
class Cells:
    """The battles as counts per pair of models that met (``first[p] < second[p]``, indices into ``models``): per
    item (rows, the unit of resampling) and pair, three columns, ``3p`` the score ``first`` made against ``second``
    (ties as half each, fractions as given), ``3p + 1`` the score ``second`` made, ``3p + 2`` the ties. ``items`` is
    sparse (scipy CSR, zeros not stored): an item meets a few of the pairs, and 20,000 items by 4,950 pairs of 100
    models would be 2.4 GB dense."""

    models: list[str]
    first: np.ndarray   # (pairs,)
    second: np.ndarray  # (pairs,)
    items: csr_matrix   # (items, 3 · pairs) counts per item
    fractional: bool    # some outcome is neither 0, 0.5 nor 1

    @property
    def totals(self) -> np.ndarray:
        return np.asarray(self.items.sum(axis=0)).ravel()


def cells(item, model_a, model_b, outcome: np.ndarray) -> Cells:
    """The per-item counts of battles (arrays or Series of equal length: the item's key, the two models, A's
    score)."""
    a, b, models = coded(model_a, model_b)
    outcome = np.asarray(outcome, dtype=float)
    low, high = np.minimum(a, b), np.maximum(a, b)
    mine = np.where(a == low, outcome, 1.0 - outcome)  # the score of the lower-numbered model
    pair_codes, pairs = _factorize(low * len(models) + high)
    item_codes, _ = _factorize(item)
    values = np.concatenate([mine, 1.0 - mine, (outcome == 0.5).astype(float)])
    rows = np.tile(item_codes, 3)
    columns = np.concatenate([3 * pair_codes, 3 * pair_codes + 1, 3 * pair_codes + 2])
    kept = values != 0
    counts = csr_matrix((values[kept], (rows[kept], columns[kept])),
                        shape=(int(item_codes.max(initial=-1)) + 1, 3 * len(pairs)))
    counts.sum_duplicates()
    pairs = np.asarray(pairs, dtype=np.int64)
    fractional = bool(np.any((outcome != 0) & (outcome != 0.5) & (outcome != 1)))
    return Cells(models, pairs // len(models), pairs % len(models), counts, fractional)


def coded(model_a, model_b) -> tuple[np.ndarray, np.ndarray, list]:
    """Each battle's two models as codes into the list of models, in order of first appearance reading each battle's
    A then B (one hash of both columns, then that order)."""
    n = len(model_a)
    codes, uniques = _factorize(pd.concat([pd.Series(model_a), pd.Series(model_b)], ignore_index=True))
    first = np.full(len(uniques), 2 * n)
    np.minimum.at(first, codes, np.r_[2 * np.arange(n), 2 * np.arange(n) + 1])  # where each is first met
    order = np.argsort(first, kind="stable")
    recode = np.empty_like(order)
    recode[order] = np.arange(len(order))
    return recode[codes[:n]], recode[codes[n:]], [uniques[k] for k in order]


def _factorize(values) -> tuple[np.ndarray, list]:
    """Codes in order of first appearance (pandas' factorize: a Series as it is, Arrow's strings hashed by Arrow;
    an array of text as objects)."""
    if not isinstance(values, pd.Series):
        values = np.asarray(values)
        values = values.astype(object) if values.dtype.kind in "OUS" else values
    codes, uniques = pd.factorize(values)
    return np.asarray(codes, dtype=np.int64), list(uniques)


@dataclass(frozen=True)
class _Graph:
    """The pairs as an incidence matrix, transposed (models x pairs: +1 at ``first``, −1 at ``second``), so that a
    per-pair quantity sums into per-model ones by one sparse product."""

    first: np.ndarray
    second: np.ndarray
    into: csr_matrix
    touching: csr_matrix  # |into|: the pairs each model is in

    @classmethod
    def of(cls, first: np.ndarray, second: np.ndarray, m: int) -> _Graph:
        p = np.arange(len(first))
        into = csr_matrix((np.r_[np.ones(len(p)), -np.ones(len(p))], (np.r_[first, second], np.r_[p, p])),
                          shape=(m, len(p)))
        return cls(np.asarray(first), np.asarray(second), into, abs(into))

    def sum_in(self, per_pair: np.ndarray, matrix: csr_matrix | None = None) -> np.ndarray:
        """(batch × pairs) -> (batch × models): Σ over each model's pairs, signed (+ first, − second)."""
        return np.asarray((self.into if matrix is None else matrix) @ per_pair.T).T


def fit(totals: np.ndarray, first: np.ndarray, second: np.ndarray, m: int, *, ties: str = "half",
        start: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """The strengths θ (batch × m, mean 0, natural-log odds) maximising the likelihood of each row of ``totals``
    (batch × 3 · pairs, as :class:`Cells` lays them out), and Davidson's ν per row (None for ``ties="half"``);
    ``start`` (m or batch × m) warm-starts Newton's method. Each row stops when its own step is below the
    tolerance, so that a row's fit does not depend on the others in its batch. The caller checks that each row has a
    finite fit."""
    totals = np.atleast_2d(np.asarray(totals, dtype=float))
    batch = len(totals)
    graph = _Graph.of(first, second, m)
    davidson = ties == "davidson"
    theta = np.zeros((batch, m)) if start is None else np.array(np.broadcast_to(start, (batch, m)), dtype=float)
    theta -= theta.mean(axis=1, keepdims=True)
    s_i, s_j, t = totals[:, 0::3], totals[:, 1::3], totals[:, 2::3]
    if davidson:  # wins without the ties' halves, the ties themselves
        s_i, s_j = s_i - t / 2, s_j - t / 2
        tie_share = t.sum(axis=1) / np.maximum(totals[:, 0::3].sum(axis=1) + totals[:, 1::3].sum(axis=1), 1e-300)
        eta = np.log(np.clip(2 * tie_share / np.maximum(1 - tie_share, 1e-12), 1e-12, 1e12))  # x = 0: ν/(2 + ν)
        params = np.column_stack([theta, eta])
    else:
        params = theta
    loglik = _loglik(params, graph, s_i, s_j, t, davidson)
    active = np.arange(batch)
    for _ in range(_ITERATIONS):
        own, data = params[active], (graph, s_i[active], s_j[active], t[active], davidson)
        grad, hess = _derivatives(own, *data)
        system = -hess
        system[:, :m, :m] += 1.0 / m  # the shift θ + c changes nothing: fixed by mean θ = 0
        step = np.linalg.solve(system, grad[..., None])[..., 0]
        moving = np.ones(len(active), dtype=bool)
        scale = np.ones(len(active))
        before = loglik[active]
        for _ in range(60):  # step halving where the full step lowers the likelihood
            trial = own + scale[:, None] * step
            new = _loglik(trial, *data)
            worse = moving & (new < before - 1e-12 * np.abs(before))
            if not worse.any():
                break
            scale[worse] /= 2
            moving = worse
        trial[:, :m] -= trial[:, :m].mean(axis=1, keepdims=True)
        params[active], loglik[active] = trial, new
        active = active[np.max(np.abs(scale[:, None] * step), axis=1, initial=0.0) >= _TOL]
        if not active.size:
            break
    return (params[:, :m], np.exp(params[:, m])) if davidson else (params, None)


def _pair_terms(params, graph, davidson):
    x = params[:, graph.first] - params[:, graph.second]  # (batch, pairs): θ_first − θ_second
    if not davidson:
        return x, None
    return x, params[:, graph.into.shape[0]][:, None]


def _loglik(params, graph, s_i, s_j, t, davidson) -> np.ndarray:
    x, eta = _pair_terms(params, graph, davidson)
    if not davidson:  # s_i log σ(x) + s_j log σ(−x), with log σ(−x) = log σ(x) − x: one softplus, not two
        return -((s_i + s_j) * np.logaddexp(0, -x) + s_j * x).sum(axis=1)
    log_d = np.logaddexp(np.logaddexp(x / 2, -x / 2), eta)
    return (s_i * x / 2 - s_j * x / 2 + t * eta - (s_i + s_j + t) * log_d).sum(axis=1)


def _derivatives(params, graph, s_i, s_j, t, davidson):
    """The gradient (batch × size) and Hessian (batch × size × size) of the log-likelihood."""
    x, eta = _pair_terms(params, graph, davidson)
    if not davidson:
        n = s_i + s_j
        p = 0.5 * (1 + np.tanh(x / 2))  # σ(x), without overflow
        lx, hxx = s_i - n * p, -n * p * (1 - p)
    else:
        n = s_i + s_j + t
        a, c, nu = np.exp(x / 2), np.exp(-x / 2), np.exp(eta)
        d = a + c + nu
        lx = (s_i - s_j) / 2 - n * (a - c) / (2 * d)
        hxx = -n * ((a + c) / 4 * d - ((a - c) / 2) ** 2) / d ** 2
        leta = (t - n * nu / d).sum(axis=1)
        heta = (-n * nu * (a + c) / d ** 2).sum(axis=1)
        hxeta = n * nu * (a - c) / 2 / d ** 2
    grad = graph.sum_in(lx)
    m = graph.into.shape[0]
    hess = np.zeros((len(params), m, m))  # Eᵀ diag(hxx) E, one entry per pair (pairs are distinct)
    hess[:, graph.first, graph.second] = hess[:, graph.second, graph.first] = -hxx
    hess[:, np.arange(m), np.arange(m)] = graph.sum_in(hxx, graph.touching)
    if not davidson:
        return grad, hess
    full = np.zeros((len(params), m + 1, m + 1))
    full[:, :m, :m] = hess
    full[:, :m, m] = full[:, m, :m] = graph.sum_in(hxeta)
    full[:, m, m] = heta
    return np.column_stack([grad, leta]), full


def components(first: np.ndarray, second: np.ndarray, m: int) -> list[list[int]]:
    """The groups of models linked by battles (the comparison graph's connected components), largest first."""
    graph = csr_matrix((np.ones(len(first)), (first, second)), shape=(m, m))
    k, labels = connected_components(graph, directed=False)
    groups = [np.flatnonzero(labels == c).tolist() for c in range(k)]
    return sorted(groups, key=len, reverse=True)


def separated(totals: np.ndarray, first: np.ndarray, second: np.ndarray, m: int) -> tuple[list[int], list[int]] | None:
    """Where the maximum-likelihood fit of one row of ``totals`` is not finite: (the models that never lose to the
    others, the models that never win against the others), from the condensation of the graph "i scored against
    j" (a source and a sink of it); None where it is strongly connected (every rating finite)."""
    scored_first, scored_second = totals[0::3] > 0, totals[1::3] > 0
    rows = np.concatenate([first[scored_first], second[scored_second]])
    cols = np.concatenate([second[scored_first], first[scored_second]])
    graph = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(m, m))
    k, labels = connected_components(graph, directed=True, connection="strong")
    if k == 1:
        return None
    inward = np.zeros(k, dtype=bool)
    outward = np.zeros(k, dtype=bool)
    across = labels[rows] != labels[cols]
    inward[labels[cols[across]]] = True
    outward[labels[rows[across]]] = True
    top = np.flatnonzero(np.isin(labels, np.flatnonzero(~inward))).tolist()  # nobody outside scored against them
    bottom = np.flatnonzero(np.isin(labels, np.flatnonzero(~outward))).tolist()
    return top, bottom


def strongly_connected(totals: np.ndarray, first: np.ndarray, second: np.ndarray, m: int) -> np.ndarray:
    """For each row of ``totals`` (batch × 3 · pairs), whether its fit is finite (:func:`separated` is None). A row
    in which every pair met and each side of it scored is strongly connected when the pairs link every model;
    only the other rows are searched."""
    totals = np.atleast_2d(totals)
    both = (totals[:, 0::3] > 0).all(axis=1) & (totals[:, 1::3] > 0).all(axis=1)
    if both.any() and len(components(first, second, m)) == 1:
        rest = np.flatnonzero(~both)
    else:
        both[:], rest = False, np.arange(len(totals))
    both[rest] = [separated(totals[k], first, second, m) is None for k in rest]
    return both
