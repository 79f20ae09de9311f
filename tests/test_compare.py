import itertools
import json
import math

import numpy as np
import pytest
import scipy.stats
from statsmodels.stats.proportion import proportion_confint

import sigcore
from sigcore import SettingsError, compare, stream

# SLP3 §4.11, Figure 4.11: 10 documents; both right on 4, only A on 3, only B on 1, both wrong on 2.
GOLD = [1] * 10
SLP3_A = [1, 1, 1, 1, 1, 1, 1, 0, 0, 0]
SLP3_B = [1, 1, 1, 1, 0, 0, 0, 1, 0, 0]


def exact_slp3_bootstrap_p():
    """Enumerate the multinomial over the four kinds of document: P(delta(x^(i)) >= 2 delta(x))."""
    probs, n, p = np.array([4, 3, 1, 2]) / 10, 10, 0.0
    for counts in itertools.product(range(n + 1), repeat=3):
        if sum(counts) > n:
            continue
        both, only_a, only_b = counts
        full = (both, only_a, only_b, n - sum(counts))
        if (only_a - only_b) / n >= 2 * 0.2 - 1e-12:
            p += math.factorial(n) / math.prod(map(math.factorial, full)) * math.prod(probs**full)
    return p


def test_slp3_figure_4_11_bootstrap_p_matches_exact_enumeration():
    exact = exact_slp3_bootstrap_p()
    assert exact == pytest.approx(0.214, abs=0.001)  # the textbook's situation
    res = compare(GOLD, SLP3_A, SLP3_B, n_resamples=20_000, seed=0)
    assert (res.score_a, res.score_b) == (0.7, 0.5) and res.delta == pytest.approx(0.2)
    assert res.threshold == pytest.approx(0.4)
    assert abs(res.p_value - exact) < 4 * math.sqrt(exact * (1 - exact) / 20_000)
    adjusted = (res.n_extreme + 2) / (20_000 + 4)  # Agresti-Coull: never 0, even when no resample is extreme
    assert res.mc_error == pytest.approx(math.sqrt(adjusted * (1 - adjusted) / 20_000))
    assert res.p_floor == 1 / 20_000 and len(res.distribution) == 20_000
    assert res.p_value == np.mean(res.distribution >= 0.4 - 1e-9)


def fitting(metric):
    return sigcore.tests_for(metric)


@pytest.mark.parametrize("alternative", sigcore.ALTERNATIVES)
@pytest.mark.parametrize("metric", ["accuracy", "macro_f1", "f1", "mean"])
def test_identical_systems_get_p_one_from_every_test(metric, alternative):
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 3 if metric == "macro_f1" else 2, size=300)
    pred = rng.integers(0, 3 if metric == "macro_f1" else 2, size=300)
    if metric == "mean":
        gold, pred = None, rng.random(300)
    for test in fitting(metric):
        res = compare(gold, pred, pred, metric=metric, test=test, alternative=alternative, n_resamples=500)
        assert res.p_value == 1.0, (test, res)
        assert not res.significant and res.side == 0


def test_fitting_tests_follow_the_metric():
    assert fitting("accuracy") == ["bootstrap", "permutation", "t", "z", "wilcoxon", "sign", "mcnemar"]
    assert fitting("mean") == ["bootstrap", "permutation", "t", "z", "wilcoxon", "sign"]
    assert fitting("macro_f1") == fitting("bleu") == ["bootstrap", "permutation"]


def noisy_pair(n=400, seed=1):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, size=n)
    a = np.where(rng.random(n) < 0.75, gold, 1 - gold)
    b = np.where(rng.random(n) < 0.70, gold, 1 - gold)
    return gold, a, b


@pytest.mark.parametrize("test", ["bootstrap", "permutation", "t", "z", "wilcoxon", "sign", "mcnemar"])
def test_swapping_systems_mirrors_greater_and_less(test):
    gold, a, b = noisy_pair()
    ab = compare(gold, a, b, test=test, alternative="greater", n_resamples=2_000)
    ba = compare(gold, b, a, test=test, alternative="less", n_resamples=2_000)
    assert ba.delta == -ab.delta and ba.score_a == ab.score_b
    assert ba.p_value == ab.p_value  # the same seed draws the same items, whichever system is A
    if ab.distribution is not None:
        np.testing.assert_array_equal(ba.distribution, -ab.distribution)
    two_ab = compare(gold, a, b, test=test, alternative="two-sided", n_resamples=2_000)
    two_ba = compare(gold, b, a, test=test, alternative="two-sided", n_resamples=2_000)
    assert two_ab.p_value == two_ba.p_value


@pytest.mark.parametrize("test", ["bootstrap", "permutation", "t", "wilcoxon", "sign", "mcnemar"])
def test_one_sided_p_respects_the_direction_of_the_effect(test):
    gold, a, b = noisy_pair(n=2_000, seed=2)
    better = compare(gold, a, b, test=test, alternative="greater", n_resamples=2_000)
    worse = compare(gold, a, b, test=test, alternative="less", n_resamples=2_000)
    assert better.delta > 0 and better.p_value < 0.05 and worse.p_value > 0.5


def test_closed_form_tests_equal_scipy_on_per_item_correctness():
    gold, a, b = noisy_pair()
    ca, cb = (a == gold).astype(float), (b == gold).astype(float)
    for alt in sigcore.ALTERNATIVES:
        assert compare(gold, a, b, test="t", alternative=alt).p_value == pytest.approx(
            scipy.stats.ttest_rel(ca, cb, alternative=alt).pvalue, rel=1e-12)
        assert compare(gold, a, b, test="wilcoxon", alternative=alt).p_value == pytest.approx(
            scipy.stats.wilcoxon(ca, cb, alternative=alt).pvalue, rel=1e-12)
    res = compare(gold, a, b, test="t")
    expected = scipy.stats.ttest_rel(ca, cb, alternative="greater").confidence_interval(0.95)
    assert (res.ci_low, res.ci_high) == pytest.approx((expected.low, expected.high), rel=1e-12)
    assert res.distribution is None and res.mc_error == 0


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
@pytest.mark.parametrize("block", [1, 7, 1_000, 2_999, 3_000, 50_000])
def test_stream_ends_exactly_where_compare_does(test, block):
    gold, a, b = noisy_pair(n=300)
    whole = compare(gold, a, b, test=test, n_resamples=3_000, seed=5)
    parts = list(stream(gold, a, b, test=test, n_resamples=3_000, seed=5, block=block))
    assert len(parts) == math.ceil(3_000 / block)
    assert [p.n_resamples for p in parts[:2]] == [min(block, 3_000), min(2 * block, 3_000)][:len(parts)]
    assert all(not p.done for p in parts[:-1]) and parts[-1].done
    np.testing.assert_array_equal(parts[-1].distribution, whole.distribution)
    assert parts[-1] == whole
    np.testing.assert_array_equal(parts[0].distribution, whole.distribution[:parts[0].n_resamples])


def test_same_seed_reproduces_bit_for_bit_and_zero_is_a_seed():
    gold, a, b = noisy_pair()
    first, again = compare(gold, a, b, seed=0), compare(gold, a, b, seed=0)
    np.testing.assert_array_equal(first.distribution, again.distribution)
    assert first == again
    assert not np.array_equal(first.distribution, compare(gold, a, b, seed=1).distribution)
    fresh = compare(gold, a, b, seed=None)
    assert fresh.seed is not None and f"seed:{fresh.seed}" in fresh.signature
    np.testing.assert_array_equal(fresh.distribution, compare(gold, a, b, seed=fresh.seed).distribution)


def test_exact_permutation_when_all_swaps_fit_in_the_resamples():
    rng = np.random.default_rng(3)
    a, b = rng.random(9), rng.random(9)
    res = compare(None, a, b, metric="mean", test="permutation", n_resamples=1_000)
    assert res.exact and res.n_resamples == 2**9 and res.mc_error == 0
    null = [np.mean(np.where(s, b, a) - np.where(s, a, b)) for s in itertools.product([0, 1], repeat=9)]
    assert res.p_value == pytest.approx(np.mean(np.array(null) >= a.mean() - b.mean() - 1e-12))
    assert "test:permutation-exact" in res.signature
    assert not compare(None, a, b, metric="mean", test="permutation", n_resamples=100).exact


def simulated_rejection_rate(test, simulations=300, n=200, alpha=0.05):
    rng = np.random.default_rng(123)
    rejections = 0
    for i in range(simulations):
        gold = np.ones(n, dtype=int)
        a = (rng.random(n) < 0.7).astype(int)  # H0: both systems are right on 70% of items
        b = (rng.random(n) < 0.7).astype(int)
        res = compare(gold, a, b, test=test, n_resamples=1_000, seed=i)
        rejections += res.p_value < alpha
    return rejections, simulations


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_type_one_error_under_the_null_stays_near_alpha(test):
    rejections, sims = simulated_rejection_rate(test)
    low, high = scipy.stats.binom.ppf([0.001, 0.999], sims, 0.05)
    assert low <= rejections <= high, rejections / sims


def test_bca_interval_is_available_and_recorded():
    gold, a, b = noisy_pair()
    res = compare(gold, a, b, ci_method="bca", alternative="two-sided")
    assert res.ci_method == "bootstrap-bca" and "ci:bootstrap-bca@0.95" in res.signature
    assert res.distribution.min() <= res.ci_low < res.delta < res.ci_high <= res.distribution.max()


def test_result_is_json_safe_and_reports_tiny_p_as_below_the_floor():
    gold = np.ones(500, dtype=int)
    res = compare(gold, gold, np.zeros(500, dtype=int), n_resamples=1_000)
    assert res.n_extreme == 0 and res.p_value == res.p_floor == 1 / 1_000 and res.p_text == "p < 0.001"
    data = json.loads(json.dumps(res.to_dict()))
    assert data["p_value"] == 0.001 and data["n_extreme"] == 0 and data["p_text"] == "p < 0.001"
    assert data["mc_error"] > 0 and data["p_interval"][0] == 0 and data["p_interval"][1] > 0.001
    assert data["signature"] == res.signature and "distribution" not in data
    assert len(res.to_dict(distribution=True)["distribution"]) == 1_000
    assert "p < 0.001" in repr(res)


@pytest.mark.parametrize("kwargs, message", [
    (dict(metric="macro_f1", test="t"), r"t test needs a metric that is a mean.*Tests that fit macro_f1: bootstrap, permutation"),
    (dict(metric="bleu", test="mcnemar"), r"mcnemar test needs a metric of per-item right/wrong"),
    (dict(metric="bleu_score"), r"unknown metric 'bleu_score'.*Choose one of: accuracy"),
    (dict(test="anova"), r"unknown test 'anova'"),
    (dict(n_resamples=0), r"`n_resamples` must be a positive integer"),
    (dict(n_resamples=10.5), r"`n_resamples` must be a positive integer"),
    (dict(alternative="bigger"), r"`alternative` must be one of greater, less, two-sided"),
    (dict(confidence_level=95), r"`confidence_level` must be between 0 and 1.*0.95"),
    (dict(seed=-1), r"`seed` must be a non-negative integer"),
    (dict(ci_method="studentized"), r"`ci_method` must be one of basic, percentile, bca or None"),
    (dict(test="t", ci_method="bca"), r"the t test has its own interval"),
    (dict(alpha=1.5), r"`alpha` must be a number strictly between 0 and 1, not 1.5"),
    (dict(alpha=0), r"`alpha` must be a number strictly between 0 and 1, not 0"),
    (dict(alpha=-1), r"`alpha` must be a number strictly between 0 and 1"),
    (dict(alpha=float("nan")), r"`alpha` must be a number strictly between 0 and 1"),
    (dict(alpha=True), r"`alpha` must be a number strictly between 0 and 1"),
    (dict(exact=False), r"`exact=False` .* applies to McNemar's test only"),
    (dict(test="t", groups=list("aabbccddee")), r"t test treats items as independent.*resample whole groups"),
    (dict(test="z"), r"the z-test needs at least 50 items.*Use the t-test"),
    (dict(compat="moses"), r"unknown compat mode 'moses'"),
    (dict(compat="sacrebleu"), r"two-sided.*alternative='two-sided'"),
])
def test_settings_that_do_not_fit_are_refused_with_the_fix(kwargs, message):
    with pytest.raises(SettingsError, match=message):
        compare(GOLD, SLP3_A, SLP3_B, **kwargs)


def test_stream_checks_settings_when_called_not_when_iterated():
    with pytest.raises(SettingsError):
        stream(GOLD, SLP3_A, SLP3_B, block=0)


def test_registries_describe_every_entry_in_one_line():
    for registry in (sigcore.METRICS, sigcore.TESTS):
        assert all(entry.description and "\n" not in entry.description for entry in registry.values())
    assert set(sigcore.METRICS) >= {"accuracy", "exact_match", "precision", "recall", "f1", "macro_f1",
                                    "micro_f1", "weighted_f1", "bleu", "chrf", "span_f1", "mean"}


def test_skipping_the_interval_leaves_p_unchanged():
    gold, a, b = noisy_pair()
    full = compare(gold, a, b, test="permutation")
    bare = compare(gold, a, b, test="permutation", ci_method=None)
    assert bare.p_value == full.p_value and bare.ci_method == "none"
    assert all(math.isnan(x) for x in (bare.ci_low, bare.ci_high))
    assert bare.ci_a == full.ci_a  # right/wrong items: Wilson's interval costs no resamples
    assert "bound" not in sigcore.report.verdict(bare) and "bound" in sigcore.report.verdict(full)


@pytest.mark.parametrize("test", ["t", "z"])
def test_own_accuracy_interval_with_t_and_z_is_wilsons_and_stays_in_0_1(test):
    gold = [1] * 60
    a, b = [1] * 59 + [0], [1] * 60  # accuracies .983 and 1: a t interval would pass 1, or shrink to a point
    res = sigcore.compare(gold, a, b, test=test, confidence_level=0.9)
    for interval, right in ((res.ci_a, 59), (res.ci_b, 60)):
        assert interval == pytest.approx(proportion_confint(right, 60, alpha=0.1, method="wilson"), abs=1e-12)
        assert 0 <= interval[0] < interval[1] <= 1
    per_item = sigcore.compare(None, [0.2, 0.5, 0.9, 0.4], [0.1, 0.5, 0.7, 0.4], metric="mean", test="t")
    assert per_item.ci_a == pytest.approx(scipy.stats.t.interval(0.95, 3, loc=0.5, scale=scipy.stats.sem(
        [0.2, 0.5, 0.9, 0.4])))  # scores that are not right/wrong keep the t interval
