"""Paired bootstrap and permutation engines over per-item sufficient statistics.

A resample is a vector of item weights ``w``; each system's totals are ``w @ S`` and the metric scores
them all in one vectorised call. Items whose paired rows (A's row, B's row) are identical form a
*pattern*; when there are few patterns (accuracy has at most four) the engine draws per-pattern counts
directly, which has exactly the distribution of resampling items:

- bootstrap (Efron & Tibshirani 1993): pattern counts ~ Multinomial(n, m / n);
- permutation / approximate randomisation (Noreen 1989): swaps per pattern ~ Binomial(m_k, 1/2).

Otherwise it draws items and multiplies a count matrix by ``S`` (BLAS), a few rows at a time so that
memory stays bounded whatever n is.

Resamples are drawn in chunks of :data:`CHUNK`; chunk ``j`` uses its own generator seeded from child
``j`` of ``SeedSequence(seed)``, so a caller that streams in blocks of any size sees exactly the
numbers of a caller that asks for everything at once.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._threads import WORKERS, pool

__all__ = ["CHUNK", "FEW_CLUSTERS", "PairedStats", "few_clusters", "chunk_sizes", "Draw", "bootstrap",
           "bootstrap_counts", "permutation", "exact_permutation_size", "exact_permutation", "jackknife_deltas",
           "unique_pairs", "unique_rows", "per_pattern"]

CHUNK = 1_000
FEW_CLUSTERS = 30  # below it a cluster bootstrap's intervals are too narrow (Cameron, Gelbach & Miller 2008)
_MAX_CELLS = 1 << 22  # largest (rows x items) count matrix built at once: 32 MiB of float64


@dataclass(frozen=True)
class PairedStats:
    """Both systems' sufficient statistics, grouped into distinct paired rows with multiplicities."""

    rows_a: np.ndarray  # (k, s)
    rows_b: np.ndarray  # (k, s)
    counts: np.ndarray  # (k,) items sharing each paired row
    n: int

    @classmethod
    def from_items(cls, stats_a: np.ndarray, stats_b: np.ndarray) -> PairedStats:
        return cls.from_patterns(stats_a, stats_b, np.ones(len(stats_a), dtype=np.int64))

    @classmethod
    def from_patterns(cls, rows_a: np.ndarray, rows_b: np.ndarray, counts: np.ndarray) -> PairedStats:
        """Rows that stand for ``counts`` items each (a metric may group items before building wide rows);
        given in the order of each group's first item, the same patterns, in the same order, as
        :meth:`from_items` on the items they stand for."""
        distinct_a, distinct_b, counts = unique_pairs(rows_a, rows_b, counts)
        return cls(distinct_a, distinct_b, counts, int(counts.sum()))

    @property
    def compressed(self) -> bool:
        """Whether drawing per-pattern counts beats drawing items (binomial draws cost more than integers)."""
        return len(self.counts) * 8 <= self.n

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        return self.counts @ self.rows_a, self.counts @ self.rows_b

    def per_pattern(self, weights: np.ndarray) -> np.ndarray:
        return per_pattern(self.counts, weights)

    def items(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-item rows again (in pattern order, which the item-level draws do not care about)."""
        return np.repeat(self.rows_a, self.counts, axis=0), np.repeat(self.rows_b, self.counts, axis=0)

    def discordant(self) -> PairedStats:
        """Only the patterns where A's and B's rows differ: swapping the others changes nothing."""
        keep = np.any(self.rows_a != self.rows_b, axis=1)
        return PairedStats(self.rows_a[keep], self.rows_b[keep], self.counts[keep], int(self.counts[keep].sum()))


def per_pattern(counts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per-item weights ``(rows, n)``, items in pattern order (``counts`` items each), summed per pattern
    ``(rows, k)``: the same totals ``w @ rows`` as per-item rows would give, without building a row per item."""
    if len(counts) == weights.shape[1]:
        return weights
    return np.add.reduceat(weights, np.r_[0, np.cumsum(counts)[:-1]], axis=1)


def unique_pairs(rows_a: np.ndarray, rows_b: np.ndarray, weights: np.ndarray):
    """Distinct (row of A, row of B) pairs and their summed weights, in order of first occurrence.

    That order depends on the items, not on which system is A: swapping A and B keeps every pattern in its
    place, so the same seed draws the same items and the deltas mirror exactly. Sorting one random projection
    per pair is much faster than ``np.unique(axis=0)``'s lexicographic sort; the grouping is then verified
    exactly (block by block, so wide rows are never copied whole), and a collision falls back to the
    lexicographic sort.
    """
    s = rows_a.shape[1]
    projection = np.random.default_rng(0).uniform(1, 2, size=2 * s)
    key = np.zeros(len(rows_a))
    for j, column in enumerate(itertools.chain(rows_a.T, rows_b.T)):  # column by column, not a matrix product:
        key += column * projection[j]  # BLAS may sum two equal rows in different orders, and split a pattern
    inverse = pd.factorize(key)[0]  # by hashing, in order of first appearance: the patterns' order
    first = np.flatnonzero(np.diff(np.maximum.accumulate(inverse), prepend=-1) > 0)  # where a new code begins
    block = max(1, _MAX_CELLS // max(s, 1))
    if (inverse < 0).any() or not all(np.array_equal(rows[first][inverse[i:i + block]], rows[i:i + block])
                                      for rows in (rows_a, rows_b) for i in range(0, len(rows), block)):
        _, first, inverse = np.unique(np.hstack([rows_a, rows_b]), axis=0, return_index=True, return_inverse=True)
        order = np.argsort(first)  # patterns by the first item that has them
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        first, inverse = first[order], rank[inverse.ravel()]
    counts = np.bincount(inverse, weights=weights, minlength=len(first)).astype(np.int64)
    return rows_a[first], rows_b[first], counts


def unique_rows(rows) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a sparse matrix (scipy CSR, one row per item) as (the first item of each, how many items
    share it), in order of first occurrence: the patterns :func:`unique_pairs` finds in the dense rows (against an
    empty B), without building them. Items are grouped by one random projection of their entries, the grouping
    verified entry by entry, and grouped by their bytes if it does not hold."""
    rows = rows.tocsr(copy=True)
    rows.eliminate_zeros()
    rows.sum_duplicates()  # canonical: sorted column indices, so equal rows hold equal arrays
    nnz = np.diff(rows.indptr)
    projection = np.random.default_rng(0).uniform(1, 2, size=rows.shape[1])
    key = np.bincount(np.repeat(np.arange(rows.shape[0]), nnz), weights=rows.data * projection[rows.indices],
                      minlength=rows.shape[0]) + nnz * np.pi  # nnz: a row of zeros differs from none
    inverse = pd.factorize(key)[0]
    first = np.flatnonzero(np.diff(np.maximum.accumulate(inverse), prepend=-1) > 0)
    leader = first[inverse]  # each row's pattern's first row
    same = np.array_equal(nnz, nnz[leader])
    if same:
        at = np.arange(rows.nnz) - np.repeat(rows.indptr[:-1], nnz)  # each entry's place in its row
        there = np.repeat(rows.indptr[leader], nnz) + at  # the same place in the leader's row
        same = np.array_equal(rows.indices, rows.indices[there]) and np.array_equal(rows.data, rows.data[there])
    if not same:
        keys = [rows.indices[a:b].tobytes() + rows.data[a:b].tobytes() for a, b in zip(rows.indptr, rows.indptr[1:])]
        inverse = pd.factorize(np.array(keys, dtype=object))[0]
        first = np.flatnonzero(np.diff(np.maximum.accumulate(inverse), prepend=-1) > 0)
    return first, np.bincount(inverse, minlength=len(first)).astype(np.int64)


def few_clusters(k: int, noun: str = "clusters") -> str | None:
    """The caution for a cluster bootstrap over ``k`` clusters (documents, passages), or None when there are
    enough: with few clusters the resamples vary less than new clusters would, so intervals come out too narrow."""
    if k >= FEW_CLUSTERS:
        return None
    return (f"only {k} {noun} are resampled: a cluster bootstrap over fewer than {FEW_CLUSTERS} gives intervals too "
            "narrow (Cameron, Gelbach & Miller 2008), so read each interval as a lower bound on the uncertainty")


def chunk_sizes(n_resamples: int) -> list[int]:
    full, rest = divmod(n_resamples, CHUNK)
    return [CHUNK] * full + ([rest] if rest else [])


Draw = Callable[[np.random.Generator, int], tuple[np.ndarray, np.ndarray]]


def _chunks(draw: Draw, seed: int, n_resamples: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``draw(rng, size)`` for each chunk, in order, computing a few chunks ahead on every core.

    numpy's generators release the GIL, and chunk j always uses child j of ``SeedSequence(seed)``, so
    the result does not depend on which thread drew what.
    """
    sizes = chunk_sizes(n_resamples)
    tasks = zip(np.random.SeedSequence(seed).spawn(len(sizes)), sizes)
    if len(sizes) == 1 or WORKERS == 1:
        for child, size in tasks:
            yield draw(np.random.default_rng(child), size)
        return
    pending: deque = deque()
    for child, size in tasks:
        pending.append(pool().submit(draw, np.random.default_rng(child), size))
        if len(pending) > 2 * WORKERS:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _rows(width: int, size: int) -> list[int]:
    """Split a chunk into sub-batches whose (rows x width) count matrices stay under the memory bound."""
    step = max(1, min(size, _MAX_CELLS // max(width, 1)))
    return [min(step, size - start) for start in range(0, size, step)]


def bootstrap(paired: PairedStats, n_resamples: int, seed: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield (totals_a, totals_b) of paired bootstrap resamples, one chunk at a time.

    Both systems are resampled with the same item counts: that is what makes the bootstrap paired.
    """
    return bootstrap_counts(paired.counts, n_resamples, seed, lambda w: (w @ paired.rows_a, w @ paired.rows_b))


def bootstrap_counts(counts: np.ndarray, n_resamples: int, seed: int,
                     statistic: Callable[[np.ndarray], tuple[np.ndarray, ...]]) -> Iterator[tuple[np.ndarray, ...]]:
    """Yield ``statistic(w)`` of bootstrap resamples, one chunk at a time: ``w`` (rows x k, float) how many of the
    items of each of the k patterns (``counts`` items each) a resample drew, ``statistic`` returning arrays of one
    row per resample, stacked over a chunk. The draws of :func:`bootstrap`, which is this with ``w`` times each
    system's rows; for a caller whose totals are not a dense product (sparse rows, a fit per resample). When items
    are drawn one by one, ``statistic`` sees a bounded number of rows at a time."""
    counts = np.asarray(counts)
    n, k = int(counts.sum()), len(counts)
    if k * 8 <= n:  # PairedStats.compressed: per-pattern counts

        def draw(rng, size):
            return statistic(np.vstack([rng.multinomial(n, counts / n, size=rows) for rows in _rows(k, size)])
                             .astype(np.float64))
    else:
        def draw(rng, size):
            parts = []
            for rows in _rows(n, size):
                idx = rng.integers(0, n, size=(rows, n)) + (np.arange(rows) * n)[:, None]
                parts.append(statistic(per_pattern(counts, np.bincount(idx.ravel(), minlength=rows * n)
                                                   .reshape(rows, n).astype(np.float64))))
            return tuple(np.concatenate(column) for column in zip(*parts))
    return _chunks(draw, seed, n_resamples)


def permutation(paired: PairedStats, n_resamples: int, seed: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield (totals_a, totals_b) with each item's A and B rows swapped with probability 1/2."""
    base_a, base_b = paired.totals()
    moving = paired.discordant()
    if moving.compressed:
        diff = moving.rows_b - moving.rows_a

        def swapped(rng, size):
            return np.vstack([_swaps(rng, moving.counts, rows) @ diff for rows in _rows(len(diff), size)])
    else:
        diff = moving.rows_b - moving.rows_a

        def swapped(rng, size):
            return np.vstack([moving.per_pattern(rng.integers(0, 2, size=(rows, moving.n)).astype(np.float64)) @ diff
                              for rows in _rows(moving.n, size)])

    def draw(rng, size):
        shift = swapped(rng, size)
        return base_a + shift, base_b - shift
    return _chunks(draw, seed, n_resamples)


def _swaps(rng: np.random.Generator, counts: np.ndarray, rows: int) -> np.ndarray:
    """Swapped items per pattern, Binomial(m_k, 1/2), shape (rows, k)."""
    if 0 < len(counts) <= 16:  # one scalar call per pattern is faster than broadcasting over few patterns
        return np.column_stack([rng.binomial(m, 0.5, size=rows) for m in counts]).astype(np.float64)
    return rng.binomial(counts, 0.5, size=(rows, len(counts))).astype(np.float64)


def exact_permutation_size(paired: PairedStats) -> int:
    """How many distinct swap assignments matter: 2 ** (items whose rows differ)."""
    return 2 ** paired.discordant().n


def exact_permutation(paired: PairedStats, seed: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield the totals of the 2^n' - 1 swap assignments of the n' discordant items other than the observed
    one (Fisher's exact null, less the identity), in a random order drawn from ``seed``, so that every prefix
    is a sample without replacement: a partial p is an estimate, the whole an exact p. With no discordant
    item, the observed assignment is the only one, and it is yielded once."""
    base_a, base_b = paired.totals()
    items_a, items_b = paired.discordant().items()
    diff = items_b - items_a
    n = len(diff)
    order = np.random.default_rng(seed).permutation(np.arange(1, 2 ** n)) if n else np.zeros(1, dtype=np.int64)
    for start in range(0, len(order), CHUNK):
        codes = order[start:start + CHUNK]
        swaps = ((codes[:, None] >> np.arange(n)) & 1).astype(np.float64)
        shift = swaps @ diff
        yield base_a + shift, base_b - shift


def jackknife_deltas(paired: PairedStats, score: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-item-out deltas, one per pattern, with how many items each stands for (for BCa)."""
    total_a, total_b = paired.totals()
    return score(total_a - paired.rows_a) - score(total_b - paired.rows_b), paired.counts
