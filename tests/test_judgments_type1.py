"""The ratings' corrected pairs under the null (issue 42 §3): when every model is equally strong, the chance that
any pair is called significant (the family-wise error) stays at α with each correction over the pairs."""

import numpy as np
import pandas as pd
import pytest

from sigcore.judgments import bradley_terry
from sigcore.judgments.battles import frame


def _null_battles(rng, models: int, items: int) -> pd.DataFrame:
    """Every pair judged once on every item, each verdict a fair coin with ties, by a judge with prompt effects:
    on each item one answer of each pair is shown first, and the first slot wins more often there (the items are
    not exchangeable battles, but no model is stronger)."""
    i, j = np.triu_indices(models, 1)
    n = items * len(i)
    lean = np.repeat(rng.normal(0, 0.8, items), len(i))  # the item's pull toward model_a (which is shown first)
    flip = rng.random(n) < 0.5  # which model is model_a: the pull favours no model
    p = 1 / (1 + np.exp(-lean))
    u = rng.random(n)
    outcome = np.where(u < 0.9 * p, 1.0, np.where(u < 0.9 * p + 0.1, 0.5, 0.0))
    first, second = np.tile(i, items).astype(object), np.tile(j, items).astype(object)
    a = np.where(flip, first, second)
    b = np.where(flip, second, first)
    return frame(item=np.repeat(np.arange(items), len(i)).astype(str), model_a=[f"m{k}" for k in a],
                 model_b=[f"m{k}" for k in b], outcome=outcome, file="sim", line=np.arange(1, n + 1))


@pytest.mark.slow
@pytest.mark.parametrize("correction", ["holm", "maxt"])
def test_the_family_wise_error_over_all_pairs_stays_at_alpha(correction):
    rng = np.random.default_rng(7)
    runs, alpha = 120, 0.1
    rejected = 0
    for _ in range(runs):
        res = bradley_terry(_null_battles(rng, 4, 40), n_resamples=300, seed=int(rng.integers(2**31)),
                            alpha=alpha, correction=correction)
        rejected += bool((res.pairs.p_corrected <= alpha).any())
    # 120 runs at a true rate of 0.1: 0.1 + 2.5 standard errors is 0.17; a correction that did nothing over six
    # pairs would reject in about 40% of runs
    assert rejected / runs <= 0.17, rejected
