import itertools

import numpy as np
import pytest
import scipy.stats

from sigcore.statistics import resampling
from sigcore.statistics.resampling import PairedStats


def accuracy_rows(rng, n, p_a=0.7, p_b=0.6):
    """Per-item [correct, 1] rows for two systems."""
    a = (rng.random(n) < p_a).astype(float)
    b = (rng.random(n) < p_b).astype(float)
    return np.c_[a, np.ones(n)], np.c_[b, np.ones(n)]


def uncompressed(stats_a, stats_b):
    """The same data without pattern grouping: every item its own pattern."""
    return PairedStats(stats_a, stats_b, np.ones(len(stats_a), dtype=int), len(stats_a))


def deltas(chunks):
    return np.concatenate([a[:, 0] / a[:, 1] - b[:, 0] / b[:, 1] for a, b in chunks])


def test_patterns_group_identical_paired_rows():
    sa, sb = accuracy_rows(np.random.default_rng(0), 500)
    paired = PairedStats.from_items(sa, sb)
    assert len(paired.counts) <= 4 and paired.counts.sum() == 500 and paired.compressed
    np.testing.assert_array_equal(paired.totals()[0], sa.sum(0))
    np.testing.assert_array_equal(paired.totals()[1], sb.sum(0))
    assert not uncompressed(sa, sb).compressed


@pytest.mark.parametrize("engine", [resampling.bootstrap, resampling.permutation])
def test_pattern_draws_have_the_distribution_of_item_draws(engine):
    sa, sb = accuracy_rows(np.random.default_rng(1), 400)
    fast = deltas(engine(PairedStats.from_items(sa, sb), 20_000, seed=2))
    plain = deltas(engine(uncompressed(sa, sb), 20_000, seed=3))
    se = np.sqrt(fast.var() / len(fast) + plain.var() / len(plain))
    assert abs(fast.mean() - plain.mean()) < 4 * se
    assert fast.std() == pytest.approx(plain.std(), rel=0.03)  # sd of an sd estimate at b=20k is ~0.5%
    assert scipy.stats.cramervonmises_2samp(fast, plain).pvalue > 0.001


def test_bootstrap_resamples_have_n_items_and_are_paired():
    sa, sb = accuracy_rows(np.random.default_rng(4), 300)
    for paired in (PairedStats.from_items(sa, sb), uncompressed(sa, sb)):
        for ta, tb in resampling.bootstrap(paired, 1_500, seed=0):
            assert np.all(ta[:, 1] == 300) and np.all(tb[:, 1] == 300)


def test_identical_systems_resample_to_zero_delta():
    sa, _ = accuracy_rows(np.random.default_rng(5), 200)
    for engine in (resampling.bootstrap, resampling.permutation):
        for paired in (PairedStats.from_items(sa, sa), uncompressed(sa, sa)):
            assert np.all(deltas(engine(paired, 2_000, seed=0)) == 0)


def test_chunks_are_seeded_independently_and_reproducibly():
    sa, sb = accuracy_rows(np.random.default_rng(6), 100)
    paired = PairedStats.from_items(sa, sb)
    sizes = [len(a) for a, _ in resampling.bootstrap(paired, 2_500, seed=0)]
    assert sizes == [1_000, 1_000, 500]
    first = deltas(resampling.bootstrap(paired, 2_500, seed=0))
    np.testing.assert_array_equal(first, deltas(resampling.bootstrap(paired, 2_500, seed=0)))
    # A longer run starts with the shorter one's resamples: chunk j depends on (seed, j) only.
    np.testing.assert_array_equal(first, deltas(resampling.bootstrap(paired, 4_000, seed=0))[:2_500])
    assert not np.array_equal(first, deltas(resampling.bootstrap(paired, 2_500, seed=1)))


def test_count_matrices_stay_bounded():
    rows = resampling._rows(1_000_000, resampling.CHUNK)
    assert sum(rows) == resampling.CHUNK
    assert max(rows) * 1_000_000 <= resampling._MAX_CELLS


def test_exact_permutation_enumerates_every_swap_of_discordant_items():
    rng = np.random.default_rng(7)
    sa, sb = np.c_[rng.random(6), np.ones(6)], np.c_[rng.random(6), np.ones(6)]
    sb[0] = sa[0]  # an item where the systems agree: swapping it changes nothing
    paired = PairedStats.from_items(sa, sb)
    assert resampling.exact_permutation_size(paired) == 2**5
    observed = sa[:, 0].mean() - sb[:, 0].mean()  # the one assignment the enumeration leaves to p's +1
    got = np.sort(np.r_[observed, deltas(resampling.exact_permutation(paired, seed=3))])
    brute = []
    for swaps in itertools.product([False, True], repeat=5):
        a, b = sa.copy(), sb.copy()
        idx = np.flatnonzero(swaps) + 1
        a[idx], b[idx] = sb[idx], sa[idx]
        brute.append(a[:, 0].mean() - b[:, 0].mean())
    np.testing.assert_allclose(got, np.sort(brute), atol=1e-12)


def test_jackknife_matches_leaving_each_item_out():
    rng = np.random.default_rng(8)
    sa, sb = accuracy_rows(rng, 30)
    def score(t):
        return t[..., 0] / t[..., 1]
    jack, weights = resampling.jackknife_deltas(PairedStats.from_items(sa, sb), score)
    brute = [score(np.delete(sa, i, 0).sum(0)) - score(np.delete(sb, i, 0).sum(0)) for i in range(30)]
    np.testing.assert_allclose(np.sort(np.repeat(jack, weights)), np.sort(brute), atol=1e-12)


def grouped(stats_a, stats_b):
    """The same items as rows of groups (some repeated, as a metric's groups may merge) with their sizes, in
    order of each group's first item, as a metric gives them."""
    pairs, first, inverse = np.unique(np.hstack([stats_a, stats_b]), axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)
    pairs, counts = pairs[order], np.bincount(inverse.ravel())[order]
    s = stats_a.shape[1]
    return pairs[:, :s], pairs[:, s:], counts


def mixed_rows(rng, n, k=40):
    """Items drawn from k distinct paired rows: more patterns than the compressed path takes for small n."""
    table_a, table_b = rng.integers(0, 3, size=(k, 4)).astype(float), rng.integers(0, 3, size=(k, 4)).astype(float)
    which = rng.integers(0, k, n)
    return table_a[which], table_b[which]


def test_groups_of_items_give_the_patterns_of_the_items_themselves():
    sa, sb = mixed_rows(np.random.default_rng(9), 300)
    ra, rb, counts = grouped(sa, sb)
    split = len(counts) // 2  # a group given twice, as two groups of the same rows
    ra, rb = np.vstack([ra, ra[:split]]), np.vstack([rb, rb[:split]])
    counts = np.r_[counts[:split] - 1, counts[split:], np.ones(split, dtype=int)]
    keep = counts > 0
    items, groups = PairedStats.from_items(sa, sb), PairedStats.from_patterns(ra[keep], rb[keep], counts[keep])
    for field in ("rows_a", "rows_b", "counts"):
        np.testing.assert_array_equal(getattr(items, field), getattr(groups, field))  # same order too
    assert groups.n == 300


@pytest.mark.parametrize("engine", [resampling.bootstrap, resampling.permutation])
def test_item_draws_are_summed_per_pattern_without_changing_a_resample(engine):
    sa, sb = mixed_rows(np.random.default_rng(10), 200)  # 40 patterns x 8 > 200 items: item-level draws
    paired = PairedStats.from_items(sa, sb)
    assert not paired.compressed and len(paired.counts) < paired.n
    items_a, items_b = paired.items()
    per_item = PairedStats(items_a, items_b, np.ones(paired.n, dtype=int), paired.n)  # one row per item
    for (ga, gb), (ia, ib) in zip(engine(paired, 2_500, seed=4), engine(per_item, 2_500, seed=4)):
        np.testing.assert_array_equal(ga, ia)
        np.testing.assert_array_equal(gb, ib)


def test_equal_rows_always_share_one_pattern():
    """Pattern keys are summed column by column: a matrix product may sum two equal rows in different orders
    (BLAS blocks the tail rows apart), which split a pattern in two and made a system's own draws depend on
    the rows around it."""
    rng = np.random.default_rng(4)
    for n in range(10, 400, 7):  # counts like BLEU's; a matrix product splits patterns at 10 of these sizes here
        table = rng.integers(0, 30, size=(n // 3 + 1, 10)).astype(float)
        rows = table[rng.integers(0, len(table), n)]
        distinct = len(np.unique(rows, axis=0))
        for other in (rows, np.random.default_rng(n).permutation(rows)):
            paired = PairedStats.from_items(rows, rows)
            assert len(paired.counts) == distinct and paired.n == n
            assert len(PairedStats.from_items(other, other).counts) == distinct
