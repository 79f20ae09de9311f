"""Replicability analysis over datasets: the authors' worked example, their other vectors, and scipy/statsmodels
for the parts that are classical (Fisher's combination, Holm's rejections)."""

import numpy as np
import pytest
import scipy.stats
from statsmodels.stats.multitest import multipletests

from sigcore import SettingsError, compare
from sigcore.statistics.replicability import partial_conjunction, replicability

# The README of the authors' code, github.com/rtmdrr/replicability-analysis-NLP (commit 03167be1), α = .05:
# "Bonferroni-k estimator ... 1", "Fisher-k estimator ... 2", "rejections list according to the Holm procedure
# is: dataset6".
README = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]

# Vectors from the second author's script (github.com/gbaumer/Testing-Significance-with-Multiple-Data-Sets-
# Replicability-Analysis-for-Natural-Language-Processing, Experiments.R, commit 42e282d0), with k̂ (Bonferroni,
# Fisher) and Holm's datasets (1-based) as the authors' `find_k_estimator` and `Holm` compute them.
VECTORS = [
    ([0.005, 0.047, 0.058, 0.6, 0.83, 0.9, 0.93, 0.97, 0.98, 0.99], 1, 0, [1]),  # 10 · .005 = .05 exactly: ≤ α
    ([0.07, 0.09, 0.11, 0.15, 0.18, 0.2, 0.208, 0.21, 0.26, 0.27], 0, 3, []),  # none significant alone
    ([0.09792, 0.16621, 0.00466, 0.03761, 0.09696, 0.09121, 0.08233], 1, 5, [3]),
    ([0.2175, 0.3797, 0.0002, 0.4221, 0.0239, 0.3225, 0.3763, 0.3018], 1, 1, [3]),
    ([0.026856, 0.001154, 0.011908], 3, 3, [1, 2, 3]),
]


def test_the_authors_worked_example():
    res = replicability(README, datasets=[f"dataset{i}" for i in range(1, 7)])
    assert (res.k_bonferroni, res.k_fisher, res.identified) == (1, 2, ("dataset6",))
    # by hand: sorted .001 .019 .168 .218 .297 .357; (N - u + 1) p_(u) = .006 .095 .672 .654 .594 .357, then the
    # running maximum
    np.testing.assert_allclose(res.bonferroni, [0.006, 0.095, 0.672, 0.672, 0.672, 0.672], rtol=1e-12)
    np.testing.assert_allclose(res.fisher, [0.001024, 0.039898, 0.195976, 0.274219, 0.343963, 0.357], atol=5e-7)
    assert "k̂ = 1 of 6 (Bonferroni" in res.sentence() and "identifies: dataset6" in res.sentence()


@pytest.mark.parametrize("p, k_bonferroni, k_fisher, holm", VECTORS)
def test_the_authors_other_vectors(p, k_bonferroni, k_fisher, holm):
    res = replicability(p)
    assert (res.k_bonferroni, res.k_fisher) == (k_bonferroni, k_fisher)
    assert res.identified == tuple(f"dataset {i}" for i in holm)


@pytest.mark.parametrize("seed", range(40))
def test_holm_names_the_k_bonferroni_datasets_and_fisher_starts_as_scipy(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=rng.integers(2, 12)) ** rng.uniform(1, 6)
    res = replicability(list(p))
    rejected = multipletests(p, alpha=0.05, method="holm")[0]
    assert res.identified == tuple(f"dataset {i + 1}" for i in np.flatnonzero(rejected))
    assert res.k_bonferroni == rejected.sum()
    fisher_all = scipy.stats.combine_pvalues(p, method="fisher").pvalue  # u = 1: every dataset's p
    assert res.fisher[0] == pytest.approx(fisher_all, rel=1e-9)
    assert np.all(np.diff(res.bonferroni) >= 0) and np.all(np.diff(res.fisher) >= 0)


def test_results_must_be_one_sided_and_are_floored():
    gold = [1] * 40
    a = [1] * 30 + [0] * 10
    b = [1] * 20 + [0] * 20
    one_sided = [compare(gold, a, b, n_resamples=999, seed=s, alternative="greater", test="bootstrap")
                 for s in range(3)]
    res = replicability(one_sided)
    assert min(res.p_values) >= 1 / 1000  # a resampled p is never 0
    two_sided = [compare(gold, a, b, n_resamples=999, seed=0, alternative="two-sided", test="bootstrap")]
    with pytest.raises(SettingsError, match="one-sided"):
        replicability(two_sided)


def test_bad_input_is_refused():
    with pytest.raises(SettingsError, match="dataset names"):
        replicability([0.1, 0.2], datasets=["only one"])
    with pytest.raises(SettingsError, match="between 0 and 1"):
        replicability([0.1, 1.2])
    with pytest.raises(SettingsError, match="fisher"):
        partial_conjunction([0.1], "stouffer")
