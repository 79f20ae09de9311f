"""Two systems over several seeds: one run each is sigcore.compare exactly; the seeds' variance widens δ's
interval; false alarms stay near α when A and B are the same system."""

import numpy as np
import pytest

import sigcore
from sigcore import SettingsError
from sigcore.seeds import compare_seeds


def _runs(n=300, runs=4, accuracy=(0.70, 0.70), spread=0.0, seed=0):
    """Runs whose accuracy moves by ±spread from seed to seed."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    out = []
    for acc in accuracy:
        out.append([np.where(rng.uniform(size=n) < acc + rng.uniform(-spread, spread), gold, 1 - gold)
                    for _ in range(runs)])
    return gold, out[0], out[1]


@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
@pytest.mark.parametrize("alternative", ["greater", "two-sided", "less"])
def test_one_run_each_is_compare_exactly(metric, alternative):
    gold, a, b = _runs(runs=1, accuracy=(0.74, 0.70), seed=1)
    res = compare_seeds(gold, a, b, metric=metric, alternative=alternative, n_resamples=3000, seed=4)
    one = sigcore.compare(gold, a[0], b[0], metric=metric, alternative=alternative, n_resamples=3000, seed=4)
    assert (res.p_value, res.n_extreme, res.delta) == (one.p_value, one.n_extreme, one.delta)
    assert (res.ci_low, res.ci_high) == (one.ci_low, one.ci_high)
    np.testing.assert_array_equal(res.distribution, one.distribution)


def test_seed_variance_widens_the_interval_and_the_items_interval_does_not_see_it():
    gold, a, b = _runs(n=2000, runs=5, accuracy=(0.72, 0.70), spread=0.06, seed=2)
    res = compare_seeds(gold, a, b, alternative="two-sided", n_resamples=4000)
    assert res.score_a == pytest.approx(np.mean([np.mean(np.asarray(r) == gold) for r in a]))
    width, items = res.ci_high - res.ci_low, res.ci_items[1] - res.ci_items[0]
    assert width > 1.5 * items  # seeds that move by ±6 points add more than the 2,000 items do
    same = compare_seeds(gold, [a[0]] * 5, [b[0]] * 5, alternative="two-sided", n_resamples=4000)  # seeds agree
    assert (same.ci_low, same.ci_high) == pytest.approx(same.ci_items, abs=1e-12)  # then they add nothing


@pytest.mark.slow
def test_false_alarms_stay_near_alpha_when_a_and_b_are_the_same_system():
    """A and B: the same training procedure (same accuracy, seeds that move by ±5 points); one-sided α = .05.
    Ignoring seeds (one run each) rejects far more often; resampling the runs keeps it near α."""
    rejected, naive = 0, 0
    sims = 200
    for s in range(sims):
        gold, a, b = _runs(n=400, runs=3, accuracy=(0.7, 0.7), spread=0.05, seed=100 + s)
        rejected += compare_seeds(gold, a, b, n_resamples=500, seed=s).significant
        naive += sigcore.compare(gold, a[0], b[0], n_resamples=500, seed=s).significant
    se = np.sqrt(0.05 * 0.95 / sims)
    assert rejected / sims <= 0.05 + 3 * se, rejected
    assert naive / sims > rejected / sims


def test_the_sentence_agrees_with_the_decision():
    gold, a, b = _runs(n=1500, runs=3, accuracy=(0.78, 0.70), spread=0.01, seed=3)
    res = compare_seeds(gold, a, b, n_resamples=2000)
    assert res.significant and "significant at α = 0.05" in res.sentence() and "3 runs of A" in res.sentence()


def test_bad_input_is_refused():
    gold, a, b = _runs(runs=2)
    with pytest.raises(SettingsError, match="list of runs"):
        compare_seeds(gold, [], b)
    with pytest.raises(SettingsError, match="list of runs"):
        compare_seeds(gold, ["abc"], b)
