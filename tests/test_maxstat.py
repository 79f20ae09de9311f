"""Max-statistic adjusted p-values over all pairs (sigcore.statistics.maxstat): equal to a direct count over the
whole resamples × pairs matrix (single-step) and to Romano & Wolf's step-down done one step at a time; family-wise
error at α under a null of equal systems, by simulation; significant pairs at a b where Holm can have none."""

import numpy as np
import pytest

from sigcore.statistics.maxstat import arena_ranks, pairwise
from sigcore.statistics.multiple import adjust


def bootstrap(scores: np.ndarray, b: int, rng) -> np.ndarray:
    """Each system's mean over b resamples of the items, the same items for all systems (b × systems)."""
    n = len(scores)
    return np.stack([scores[rng.integers(0, n, n)].mean(axis=0) for _ in range(b)])


def all_pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(k, 1)


def standardised(point, resampled, i, j):
    d = point[i] - point[j]
    dev = resampled[:, i] - resampled[:, j] - d
    se = np.sqrt((dev ** 2).mean(axis=0))
    return np.abs(d) / se, np.abs(dev) / se


def single_step_reference(point, resampled, i, j) -> np.ndarray:
    t, dev = standardised(point, resampled, i, j)
    return np.array([(dev.max(axis=1) >= th).mean() for th in t])


def step_down_reference(point, resampled, i, j) -> np.ndarray:
    """Romano & Wolf's step-down, one step at a time: the largest T left against the maximum over those left."""
    t, dev = standardised(point, resampled, i, j)
    left = list(np.argsort(-t, kind="stable"))
    p = np.empty(len(t))
    previous = 0.0
    while left:
        h = left[0]
        previous = p[h] = max(previous, (dev[:, left].max(axis=1) >= t[h]).mean())
        left.pop(0)
    return p


@pytest.mark.parametrize("seed", range(5))
def test_equal_to_direct_counts_over_the_whole_matrix(seed):
    rng = np.random.default_rng(seed)
    k, n = 7, 80
    scores = (rng.random((n, k)) < np.linspace(0.5, 0.8, k)).astype(float)
    resampled, point = bootstrap(scores, 400, rng), scores.mean(axis=0)
    i, j = all_pairs(k)
    for block in (1, 5, 1024):  # the blocks of pairs held at once do not change a count
        assert pairwise(point, resampled, i, j, step_down=False, block=block) == pytest.approx(
            single_step_reference(point, resampled, i, j), abs=0)
        assert pairwise(point, resampled, i, j, block=block) == pytest.approx(
            step_down_reference(point, resampled, i, j), abs=0)


def test_step_down_is_never_above_single_step_and_a_still_pair_has_p_one():
    rng = np.random.default_rng(3)
    scores = (rng.random((60, 6)) < 0.6).astype(float)
    scores[:, 5] = scores[:, 4]  # two systems alike on every item: their δ never moves
    resampled, point = bootstrap(scores, 300, rng), scores.mean(axis=0)
    i, j = all_pairs(6)
    down, single = pairwise(point, resampled, i, j), pairwise(point, resampled, i, j, step_down=False)
    assert np.all(down <= single)
    still = (i == 4) & (j == 5)
    assert down[still] == single[still] == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("step_down", [True, False])
def test_family_wise_error_is_alpha_under_a_null_of_equal_systems(step_down):
    """Eight systems alike in expectation (each item's difficulty shared, each answer drawn alone): the share of
    boards with any pair significant at α = 0.05 lies within Monte-Carlo error of α, and not far below it."""
    rng = np.random.default_rng(11)
    k, n, b, runs, alpha = 8, 150, 500, 400, 0.05
    i, j = all_pairs(k)
    rejected = 0
    for _ in range(runs):
        difficulty = rng.beta(2, 2, n)
        scores = (rng.random((n, k)) < difficulty[:, None]).astype(float)
        p = pairwise(scores.mean(axis=0), bootstrap(scores, b, rng), i, j, step_down=step_down)
        rejected += bool((p <= alpha).any())
    error = 3 * np.sqrt(alpha * (1 - alpha) / runs)
    assert alpha - error <= rejected / runs <= alpha + error, rejected / runs


def test_separates_pairs_at_a_b_where_holm_cannot():
    """50 systems, b = 1,000: Holm over 1,225 pairs needs p ≤ 0.05/1,225 ≈ 4e-5, below a count's floor 1/b, so no
    pair can be significant; the max statistic separates the strongest from the weakest."""
    rng = np.random.default_rng(0)
    k, n, b = 50, 400, 1_000
    scores = (rng.random((n, k)) < np.linspace(0.4, 0.8, k)).astype(float)
    resampled, point = bootstrap(scores, b, rng), scores.mean(axis=0)
    i, j = all_pairs(k)
    raw = np.array([(np.abs(resampled[:, a] - resampled[:, c] - (point[a] - point[c]))
                     >= abs(point[a] - point[c])).mean() for a, c in zip(i, j)])
    assert not (adjust(raw, "holm", floors=1 / b) <= 0.05).any()
    p = pairwise(point, resampled, i, j)
    assert (p <= 0.05).sum() > 100
    assert p[(i == 0) & (j == k - 1)] <= 0.05


def test_arena_rank_is_one_plus_the_systems_shown_better():
    """Four systems, A shown better than C and D, B better than D: ranks 1, 1, 2, 3 (LMArena's rule, by hand)."""
    better = np.zeros((4, 4), dtype=bool)
    better[0, 2] = better[0, 3] = better[1, 3] = True
    assert arena_ranks(better).tolist() == [1, 1, 2, 3]
