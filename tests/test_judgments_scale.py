"""The Bradley–Terry bootstrap at arena scale (issue 42 §4): the sparse per-item counts, their patterns and the
resamples' totals against dense references, and each resample's ratings against choix fitted to the battles that
resample drew."""

import choix
import numpy as np
import pytest
from scipy.sparse import csr_matrix

from sigcore.judgments import bradley_terry
from sigcore.judgments.battles import frame
from sigcore.judgments.bradley_terry import cells
from sigcore.statistics import resampling
from sigcore.statistics.resampling import PairedStats


def _arena(seed, m=6, items=120, per_item=5, tie_share=0.2):
    rng = np.random.default_rng(seed)
    n = items * per_item
    item = np.repeat(np.arange(items), per_item)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    u = rng.random(n)
    strength = np.linspace(-0.8, 0.8, m)
    p = 1 / (1 + np.exp(-(strength[a] - strength[b])))
    outcome = np.where(u < tie_share, 0.5, (u < tie_share + (1 - tie_share) * p).astype(float))
    names = np.array([f"m{k}" for k in range(m)], dtype=object)
    battles = frame(item=np.char.add("q", item.astype(str)).astype(object), model_a=names[a], model_b=names[b],
                    outcome=outcome, file="sim", line=np.arange(n) + 1, judge=np.arange(n).astype(str))
    return battles


def test_the_sparse_counts_are_the_battles_counted_one_by_one():
    battles = _arena(0)
    got = cells(battles["item"], battles["model_a"], battles["model_b"], battles["outcome"].to_numpy())
    dense = np.zeros(got.items.shape)
    index = {name: k for k, name in enumerate(got.models)}
    pair = {(f, s): p for p, (f, s) in enumerate(zip(got.first, got.second))}
    items = {name: k for k, name in enumerate(dict.fromkeys(battles["item"]))}
    for row in battles.itertuples():
        a, b, o = index[row.model_a], index[row.model_b], row.outcome
        p = pair[(min(a, b), max(a, b))]
        mine = o if a < b else 1 - o
        dense[items[row.item], 3 * p:3 * p + 3] += [mine, 1 - mine, o == 0.5]
    np.testing.assert_array_equal(got.items.toarray(), dense)
    assert got.models == list(dict.fromkeys(np.column_stack([battles["model_a"], battles["model_b"]]).ravel()))


@pytest.mark.parametrize("seed", [0, 1])
def test_the_patterns_of_sparse_rows_are_the_dense_rows_distinct_in_order_of_first_appearance(seed):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 3, (7, 40)) * (rng.random((7, 40)) < 0.3) / 2
    dense = base[rng.integers(0, 7, 500)]
    dense[rng.integers(0, 500, 5)] = 0  # rows of zeros too
    first, counts = resampling.unique_rows(csr_matrix(dense))
    _, index, inverse = np.unique(dense, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(index)
    np.testing.assert_array_equal(first, index[order])
    np.testing.assert_array_equal(counts, np.bincount(inverse.ravel())[order])
    dense_patterns = PairedStats.from_items(dense, np.zeros((500, 0)))  # the dense engine's grouping
    np.testing.assert_array_equal(dense[first], dense_patterns.rows_a)
    np.testing.assert_array_equal(counts, dense_patterns.counts)


@pytest.mark.parametrize("items", [30, 3_000])  # items drawn one by one, and per-pattern counts
def test_bootstrap_counts_draws_the_resamples_of_the_dense_bootstrap(items):
    rng = np.random.default_rng(items)
    rows = rng.integers(0, 3, (items, 4)).astype(float)
    paired = PairedStats.from_items(rows, np.zeros((items, 0)))
    dense = np.vstack([a for a, _ in resampling.bootstrap(paired, 2_500, seed=5)])
    counted = np.vstack([t for t, in resampling.bootstrap_counts(paired.counts, 2_500, 5,
                                                                  lambda w: (w @ paired.rows_a,))])
    np.testing.assert_array_equal(counted, dense)


def test_each_resamples_ratings_are_choixs_fit_to_the_battles_it_drew():
    """The resamples' totals from the dense engine (items as dense rows, sigcore.statistics.resampling.bootstrap),
    written back as battles (a tie as one win each way, a win twice) and fitted by choix's I-LSR."""
    battles = _arena(3)
    res = bradley_terry(battles, n_resamples=6, seed=11, scale="log")
    got = cells(battles["item"], battles["model_a"], battles["model_b"], battles["outcome"].to_numpy())
    paired = PairedStats.from_items(got.items.toarray(), np.zeros((got.items.shape[0], 0)))
    totals = np.vstack([a for a, _ in resampling.bootstrap(paired, 6, seed=11)])
    for k, row in enumerate(totals):
        data = []
        for p, (f, s) in enumerate(zip(got.first, got.second)):
            wins_f, wins_s = int(round(2 * row[3 * p])), int(round(2 * row[3 * p + 1]))
            data += [(f, s)] * wins_f + [(s, f)] * wins_s  # doubled scores: the same maximum
        theta = choix.ilsr_pairwise(len(got.models), data, tol=1e-13, max_iter=100_000)
        np.testing.assert_allclose(res.resampled[k], theta - theta.mean(), atol=1e-6)
