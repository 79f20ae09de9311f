"""Max-statistic adjusted p-values for all pairs of systems, from the resamples they share (Westfall & Young 1993;
the step-down form of Romano & Wolf 2005).

Holm over the m = k(k − 1)/2 pairs of k systems treats the pairs as if nothing were known of how they depend on
each other: to reach α every pair needs p ≤ α/m, which a count over b resamples reaches only from b ≥ m/α on (at
50 systems, b ≥ 24,500). The pairs' differences are resampled together, so the distribution of the largest of them
under the null is known from the same resamples: a pair is significant when its standardised difference
T = |δ| / se exceeds what the largest centred one, max over pairs of |δ⁽ⁱ⁾ − δ| / se, reaches in at most a share α of
the resamples. That keeps the family-wise error at α (asymptotically, as the bootstrap does) under any dependence,
and its p is a count over b like any bootstrap p. Step-down: the pair with the largest T is compared with the
maximum over all pairs, the next with the maximum over the pairs not yet decided, and so on; its p are never larger
than single-step's.
"""

from __future__ import annotations

import numpy as np

__all__ = ["BLOCK", "pairwise", "adjusted", "arena_ranks"]

BLOCK = 1 << 10  # pairs whose b resampled differences are held at once: 8 MiB at b = 1,000


def pairwise(point: np.ndarray, resampled: np.ndarray, i, j, *, step_down: bool = True, tol=0.0,
             block: int = BLOCK) -> np.ndarray:
    """Adjusted p of each pair (``i[h]``, ``j[h]``) of systems: δ_h = point[i] − point[j] against the b resampled
    differences ``resampled[:, i] − resampled[:, j]`` (``resampled``: b × systems, the same resamples for all);
    :func:`adjusted` says how."""
    i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
    d = point[i] - point[j]
    return adjusted(d, lambda h: resampled[:, i[h]] - resampled[:, j[h]] - d[h], len(resampled),
                    step_down=step_down, tol=tol, block=block)


def adjusted(d: np.ndarray, centred, b: int, *, step_down: bool = True, tol=0.0, block: int = BLOCK) -> np.ndarray:
    """Adjusted p of each difference ``d[h]``, from ``centred(h)``, the b resampled differences minus ``d`` of the
    comparisons ``h`` (an index array; b × len(h)), drawn from the same resamples for all.

    p_h = #{resamples whose largest standardised deviation reaches T_h} / b (0 means p < 1/b), the largest over
    all comparisons (``step_down=False``) or over those whose T is at most T_h (step-down), made monotone in T;
    ``tol`` (δ's units, one or one per comparison) counts a deviation within float noise of |δ| as reaching it, as
    the bootstrap's own p does. A comparison whose resampled differences never move (se = 0) has p = 1.
    """
    d = np.asarray(d, dtype=float)
    m = len(d)
    tol = np.broadcast_to(np.asarray(tol, dtype=float), d.shape)
    se = np.empty(m)
    for cols in _blocks(m, block):  # the root mean square of δ⁽ⁱ⁾ − δ: the scale of each comparison
        se[cols] = np.sqrt(np.mean(centred(np.arange(m)[cols]) ** 2, axis=0))
    moving = se > 0
    scale = np.where(moving, se, 1.0)
    t = np.where(moving, np.abs(d) / scale, 0.0)
    reach = np.where(moving, np.maximum(t - tol / scale, 0.0), 0.0)
    order = np.argsort(t, kind="stable")  # ascending: step-down's maximum is over this one and those before it
    largest = np.zeros(b)
    counts = np.empty(m, dtype=np.int64)
    if not step_down:
        for cols in _blocks(m, block):
            h = order[cols]
            largest = np.maximum(largest, (np.abs(centred(h)) / scale[h]).max(axis=1))
        counts[:] = np.count_nonzero(largest[:, None] >= reach[None, :], axis=0)
    else:
        for cols in _blocks(m, block):
            h = order[cols]
            running = np.maximum.accumulate(np.abs(centred(h)) / scale[h], axis=1)
            running = np.maximum(running, largest[:, None])
            counts[h] = np.count_nonzero(running >= reach[h][None, :], axis=0)
            largest = running[:, -1]
        counts[order] = np.maximum.accumulate(counts[order][::-1])[::-1]  # a larger T never gets a larger p
    p = counts / b
    p[~moving] = 1.0
    return p


def arena_ranks(better: np.ndarray) -> np.ndarray:
    """Each system's rank as LMArena publishes it: 1 + the number of systems significantly better than it
    (``better[a, c]``: a is significantly better than c), so that systems the data do not separate share a rank
    and a rank says how many are shown above."""
    better = np.asarray(better, dtype=bool)
    return 1 + better.sum(axis=0)


def _blocks(m: int, block: int):
    return (slice(start, start + block) for start in range(0, m, block))
