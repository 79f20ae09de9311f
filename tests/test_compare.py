import itertools
import json
import math
import zlib

import numpy as np
import pytest
import scipy.stats
from statsmodels.stats.proportion import proportion_confint

import sigcore
from sigcore import SettingsError, compare, stream

# SLP3 §4.11, Figure 4.11's row x, documents 1 to 10: AB, AB̸, AB, A̸B, AB̸, A̸B, AB̸, AB, A̸B̸, AB̸ (a slash: that system
# got the document wrong): both right on 3, only A on 4, only B on 2, both wrong on 1.
GOLD = [1] * 10
SLP3_A = [1, 1, 1, 0, 1, 0, 1, 1, 0, 1]
SLP3_B = [1, 0, 1, 1, 0, 1, 0, 1, 0, 0]


def exact_slp3_bootstrap_p():
    """Enumerate the multinomial over the four kinds of document: P(delta(x^(i)) >= 2 delta(x))."""
    probs, n, p = np.array([3, 4, 2, 1]) / 10, 10, 0.0
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
    assert exact == pytest.approx(0.2684, abs=1e-4)  # the textbook's row x
    res = compare(GOLD, SLP3_A, SLP3_B, n_resamples=20_000, seed=0, test="bootstrap", alternative="greater")
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
    assert fitting("accuracy") == ["bootstrap", "permutation", "t", "z", "sign", "mcnemar"]  # no ranks of ±1
    assert fitting("mean") == ["bootstrap", "permutation", "t", "z", "wilcoxon", "sign"]
    assert fitting("macro_f1") == fitting("bleu") == ["bootstrap", "permutation"]


def noisy_pair(n=400, seed=1):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, size=n)
    a = np.where(rng.random(n) < 0.75, gold, 1 - gold)
    b = np.where(rng.random(n) < 0.70, gold, 1 - gold)
    return gold, a, b


def scored_pair(test, n=400, seed=1):
    """Right/wrong items, or per-item scores for the Wilcoxon test (which ranks sizes of differences)."""
    if test != "wilcoxon":
        return (*noisy_pair(n, seed), "accuracy")
    rng = np.random.default_rng(seed)
    return None, rng.normal(0.55, 0.2, n), rng.normal(0.5, 0.2, n), "mean"


@pytest.mark.parametrize("test", ["bootstrap", "permutation", "t", "z", "wilcoxon", "sign", "mcnemar"])
def test_swapping_systems_mirrors_greater_and_less(test):
    gold, a, b, metric = scored_pair(test)
    ab = compare(gold, a, b, metric=metric, test=test, alternative="greater", n_resamples=2_000)
    ba = compare(gold, b, a, metric=metric, test=test, alternative="less", n_resamples=2_000)
    assert ba.delta == -ab.delta and ba.score_a == ab.score_b
    assert ba.p_value == ab.p_value  # the same seed draws the same items, whichever system is A
    if ab.distribution is not None:
        np.testing.assert_array_equal(ba.distribution, -ab.distribution)
    two_ab = compare(gold, a, b, metric=metric, test=test, alternative="two-sided", n_resamples=2_000)
    two_ba = compare(gold, b, a, metric=metric, test=test, alternative="two-sided", n_resamples=2_000)
    assert two_ab.p_value == two_ba.p_value


@pytest.mark.parametrize("test", ["bootstrap", "permutation", "t", "wilcoxon", "sign", "mcnemar"])
def test_one_sided_p_respects_the_direction_of_the_effect(test):
    gold, a, b, metric = scored_pair(test, n=2_000, seed=2)
    better = compare(gold, a, b, metric=metric, test=test, alternative="greater", n_resamples=2_000)
    worse = compare(gold, a, b, metric=metric, test=test, alternative="less", n_resamples=2_000)
    assert better.delta > 0 and better.p_value < 0.05 and worse.p_value > 0.5


def test_closed_form_tests_equal_scipy_on_per_item_correctness():
    gold, a, b = noisy_pair()
    ca, cb = (a == gold).astype(float), (b == gold).astype(float)
    for alt in sigcore.ALTERNATIVES:
        assert compare(gold, a, b, test="t", alternative=alt).p_value == pytest.approx(
            scipy.stats.ttest_rel(ca, cb, alternative=alt).pvalue, rel=1e-12)
        assert compare(gold, a, b, test="sign", alternative=alt).p_value == pytest.approx(
            scipy.stats.binomtest(int((ca > cb).sum()), int((ca != cb).sum()), alternative=alt).pvalue, rel=1e-12)
    res = compare(gold, a, b, test="t", alternative="greater")
    expected = scipy.stats.ttest_rel(ca, cb, alternative="greater").confidence_interval(0.95)
    assert (res.ci_low, res.ci_high) == pytest.approx((expected.low, expected.high), rel=1e-12)
    assert res.distribution is None and res.mc_error == 0


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
@pytest.mark.parametrize("block", [1, 7, 1_000, 2_999, 3_000, 50_000])
def test_stream_ends_exactly_where_compare_does(test, block):
    gold, a, b = noisy_pair(n=300)
    whole = compare(gold, a, b, test=test, n_resamples=3_000, seed=5, alternative="greater")
    parts = list(stream(gold, a, b, test=test, n_resamples=3_000, seed=5, block=block, alternative="greater"))
    assert len(parts) == math.ceil(3_000 / block)
    assert [p.n_resamples for p in parts[:2]] == [min(block, 3_000), min(2 * block, 3_000)][:len(parts)]
    assert all(not p.done for p in parts[:-1]) and parts[-1].done
    np.testing.assert_array_equal(parts[-1].distribution, whole.distribution)
    assert parts[-1] == whole
    np.testing.assert_array_equal(parts[0].distribution, whole.distribution[:parts[0].n_resamples])


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_each_systems_own_draws_come_along_the_stream_not_after_it(monkeypatch, test):
    """Each system's interval resamples it alone (its own patterns, fewer than the pairs' here): those draws are
    made in step with the paired ones, so the progress counts them and a Stop comes between them. They were all
    made after the last block: b = 10⁶ BLEU sat at "1,000,000 drawn" for half a minute that no Stop could end."""
    from sigcore.statistics import resampling

    drawn, bootstrap = [], resampling.bootstrap

    def counted(paired, n_resamples, seed):
        for chunk in bootstrap(paired, n_resamples, seed):
            drawn.append(len(paired.counts))  # a chunk used, by its number of patterns
            yield chunk
    monkeypatch.setattr(resampling, "bootstrap", counted)
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 3, 400)
    a, b = (np.where(rng.uniform(size=400) < acc, gold, (gold + 1) % 3) for acc in (0.7, 0.6))
    b_resamples = 20 * resampling.CHUNK
    parts = stream(gold, a, b, metric="macro_f1", test=test, n_resamples=b_resamples, seed=1, block=b_resamples // 20,
                   alternative="greater")
    first = next(parts)
    pairs = max(drawn)  # patterns: 12 for the pairs here, 6 for each system with gold
    assert 0 < sum(k < pairs for k in drawn) <= 2  # each system's first twentieth (a chunk of 20), not all 40
    *_, last = parts
    assert sum(k < pairs for k in drawn) == 2 * 20
    assert last == compare(gold, a, b, metric="macro_f1", test=test, n_resamples=b_resamples, seed=1,
                           alternative="greater")
    assert last.ci_a != first.ci_a


@pytest.mark.parametrize("differing, block, chunks", [(40, 1_000, 1), (9, 100, 4)])  # sampled; exact, 2⁹ in a chunk
def test_a_permutation_tests_interval_comes_along_the_stream(monkeypatch, differing, block, chunks):
    """A permutation test's interval is a paired bootstrap: it was drawn whole before the first block, a stall at 0%
    that no Stop could end. Now block by block, also where one chunk of permutations (a short exact enumeration)
    holds many blocks."""
    from sigcore.statistics import resampling

    drawn, bootstrap = [], resampling.bootstrap

    def counted(paired, n_resamples, seed):
        for chunk in bootstrap(paired, n_resamples, seed):
            drawn.append(1)
            yield chunk
    monkeypatch.setattr(resampling, "bootstrap", counted)
    gold, a, b = np.ones(500, int), np.ones(500, int), np.ones(500, int)
    a[:differing // 3], b[differing // 3:differing] = 0, 0  # A and B differ on `differing` items
    b_resamples = 20 * resampling.CHUNK
    parts = stream(gold, a, b, test="permutation", n_resamples=b_resamples, seed=1, block=block, alternative="greater")
    next(parts)  # the first block only
    assert len(drawn) <= chunks  # the first block's share of the 20 chunks (100 of 511 assignments: 4)
    *_, last = parts
    assert len(drawn) == 20 and last.exact == (differing == 9)
    assert last == compare(gold, a, b, test="permutation", n_resamples=b_resamples, seed=1, alternative="greater")


def test_same_seed_reproduces_bit_for_bit_and_zero_is_a_seed():
    gold, a, b = noisy_pair()
    first, again = (compare(gold, a, b, seed=0, test="bootstrap", alternative="greater"),
                    compare(gold, a, b, seed=0, test="bootstrap", alternative="greater"))
    np.testing.assert_array_equal(first.distribution, again.distribution)
    assert first == again
    other = compare(gold, a, b, seed=1, test="bootstrap", alternative="greater")
    assert not np.array_equal(first.distribution, other.distribution)
    fresh = compare(gold, a, b, seed=None, test="bootstrap", alternative="greater")
    assert fresh.seed is not None and f"seed:{fresh.seed}" in fresh.signature
    rerun = compare(gold, a, b, seed=fresh.seed, test="bootstrap", alternative="greater")
    np.testing.assert_array_equal(fresh.distribution, rerun.distribution)


def test_exact_permutation_when_all_swaps_fit_in_the_resamples():
    rng = np.random.default_rng(3)
    a, b = rng.random(9), rng.random(9)
    res = compare(None, a, b, metric="mean", test="permutation", n_resamples=1_000, alternative="greater")
    assert res.exact and res.n_resamples == 2**9 - 1 and res.mc_error == 0  # all but the observed assignment
    null = [np.mean(np.where(s, b, a) - np.where(s, a, b)) for s in itertools.product([0, 1], repeat=9)]
    assert res.p_value == pytest.approx(np.mean(np.array(null) >= a.mean() - b.mean() - 1e-12))
    assert "test:permutation-exact" in res.signature
    assert not compare(None, a, b, metric="mean", test="permutation", n_resamples=100, alternative="greater").exact


def simulated_rejection_rate(test, simulations=300, n=200, alpha=0.05):
    rng = np.random.default_rng(123)
    rejections = 0
    for i in range(simulations):
        gold = np.ones(n, dtype=int)
        a = (rng.random(n) < 0.7).astype(int)  # H0: both systems are right on 70% of items
        b = (rng.random(n) < 0.7).astype(int)
        res = compare(gold, a, b, test=test, n_resamples=1_000, seed=i, alternative="greater")
        rejections += res.p_value < alpha
    return rejections, simulations


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_type_one_error_under_the_null_stays_near_alpha(test):
    rejections, sims = simulated_rejection_rate(test)
    low, high = scipy.stats.binom.ppf([0.001, 0.999], sims, 0.05)
    assert low <= rejections <= high, rejections / sims


def test_bca_interval_is_available_and_recorded():
    gold, a, b = noisy_pair()
    res = compare(gold, a, b, ci_method="bca", alternative="two-sided", test="bootstrap")
    assert res.ci_method == "bootstrap-bca" and "ci:bootstrap-bca@0.95" in res.signature
    assert res.distribution.min() <= res.ci_low < res.delta < res.ci_high <= res.distribution.max()


def test_result_is_json_safe_and_reports_tiny_p_as_below_the_floor():
    gold = np.ones(500, dtype=int)
    res = compare(gold, gold, np.zeros(500, dtype=int), n_resamples=1_000, test="bootstrap", alternative="greater")
    assert res.n_extreme == 0 and res.p_value == res.p_floor == 1 / 1_000 and res.p_text == "p < 0.001"
    data = json.loads(json.dumps(res.to_dict()))
    assert data["p_value"] == 0.001 and data["n_extreme"] == 0 and data["p_text"] == "p < 0.001"
    assert data["mc_error"] > 0 and data["p_interval"][0] == 0 and data["p_interval"][1] > 0.001
    assert data["signature"] == res.signature and "distribution" not in data
    assert len(res.to_dict(distribution=True)["distribution"]) == 1_000
    assert "p < 0.001" in repr(res)


@pytest.mark.parametrize("kwargs, message", [
    (dict(metric="macro_f1", test="t"),
     r"t test needs a metric that is a mean.*Tests that fit macro_f1: bootstrap, permutation"),
    (dict(metric="bleu", test="mcnemar"), r"mcnemar test needs a metric of per-item right/wrong"),
    (dict(metric="bleu_score"), r"unknown metric 'bleu_score'.*Choose one of: accuracy"),
    (dict(test="anova"), r"unknown test 'anova'"),
    (dict(n_resamples=0), r"`n_resamples` must be a positive integer"),
    (dict(n_resamples=10.5), r"`n_resamples` must be a positive integer"),
    (dict(alternative="bigger"), r"`alternative` must be one of greater, less, two-sided"),
    (dict(confidence_level=95), r"`confidence_level` must be a number strictly between 0 and 1.*0.95"),
    (dict(seed=-1), r"`seed` must be a non-negative integer"),
    (dict(ci_method="studentized"), r"`ci_method` must be one of basic, percentile, bca or None"),
    (dict(test="t", ci_method="bca"), r"the t test has its own interval"),
    (dict(alpha=1.5), r"`alpha` must be a number strictly between 0 and 1, not 1.5"),
    (dict(alpha=0), r"`alpha` must be a number strictly between 0 and 1, not 0"),
    (dict(alpha=-1), r"`alpha` must be a number strictly between 0 and 1"),
    (dict(alpha=float("nan")), r"`alpha` must be a number strictly between 0 and 1"),
    (dict(alpha=True), r"`alpha` must be a number strictly between 0 and 1"),
    (dict(exact=False, test="bootstrap"), r"`exact=False` .* applies to McNemar's test only"),
    (dict(test="t", groups=list("aabbccddee")), r"t test treats items as independent.*resample whole groups"),
    (dict(test="z"), r"the z-test needs at least 50 items.*Use the t-test"),
    (dict(compat="moses"), r"unknown compat mode 'moses'"),
    (dict(compat="sacrebleu", alternative="greater"), r"two-sided.*alternative='two-sided'"),
])
def test_settings_that_do_not_fit_are_refused_with_the_fix(kwargs, message):
    with pytest.raises(SettingsError, match=message):
        compare(GOLD, SLP3_A, SLP3_B, **kwargs)


def test_stream_checks_settings_when_called_not_when_iterated():
    with pytest.raises(SettingsError):
        stream(GOLD, SLP3_A, SLP3_B, block=0, test="bootstrap", alternative="greater")


def test_registries_describe_every_entry_in_one_line():
    for registry in (sigcore.METRICS, sigcore.TESTS):
        assert all(entry.description and "\n" not in entry.description for entry in registry.values())
    assert set(sigcore.METRICS) >= {"accuracy", "exact_match", "precision", "recall", "f1", "macro_f1",
                                    "micro_f1", "weighted_f1", "bleu", "chrf", "span_f1", "mean"}


def test_skipping_the_interval_leaves_p_unchanged():
    gold, a, b = noisy_pair()
    full = compare(gold, a, b, test="permutation", alternative="greater")
    bare = compare(gold, a, b, test="permutation", ci_method=None, alternative="greater")
    assert bare.p_value == full.p_value and bare.ci_method == "none"
    assert all(math.isnan(x) for x in (bare.ci_low, bare.ci_high))
    assert bare.ci_a == full.ci_a  # right/wrong items: Wilson's interval costs no resamples
    assert "bound" not in sigcore.report.verdict(bare) and "bound" in sigcore.report.verdict(full)


@pytest.mark.parametrize("test", ["t", "z"])
def test_own_accuracy_interval_with_t_and_z_is_wilsons_and_stays_in_0_1(test):
    gold = [1] * 60
    a, b = [1] * 59 + [0], [1] * 60  # accuracies .983 and 1: a t interval would pass 1, or shrink to a point
    res = sigcore.compare(gold, a, b, test=test, confidence_level=0.9, alternative="greater")
    for interval, right in ((res.ci_a, 59), (res.ci_b, 60)):
        assert interval == pytest.approx(proportion_confint(right, 60, alpha=0.1, method="wilson"), abs=1e-12)
        assert 0 <= interval[0] < interval[1] <= 1
    per_item = sigcore.compare(None, [0.2, 0.5, 0.9, 0.4], [0.1, 0.5, 0.7, 0.4], metric="mean", test="t",
                               alternative="greater")
    assert per_item.ci_a == pytest.approx(scipy.stats.t.interval(0.95, 3, loc=0.5, scale=scipy.stats.sem(
        [0.2, 0.5, 0.9, 0.4])))  # scores that are not right/wrong keep the t interval


# ---------------------------------------------------------------- small samples, per-system intervals, groups


def _false_alarms(test, n, kind, sims=400, alpha=0.05):
    """Rejections under H0 in ``sims`` simulated test sets of ``n`` items, and the binomial band's top."""
    rng = np.random.default_rng(n)
    rejected = 0
    for s in range(sims):
        if kind == "right/wrong":  # both right on 55%, only A 15%, only B 15%, both wrong 15%
            cell = rng.choice(4, size=n, p=[0.55, 0.15, 0.15, 0.15])
            gold, a, b, metric = np.ones(n, int), (cell <= 1).astype(int), (cell % 2 == 0).astype(int), "accuracy"
        else:
            gold, a, b, metric = None, rng.normal(size=n), np.zeros(n), "mean"
        rejected += compare(gold, a, b, metric=metric, test=test, alpha=alpha, n_resamples=1_000, seed=s,
                            ci_method=None, alternative="greater").significant
    return rejected, scipy.stats.binom.ppf(0.999, sims, alpha)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["right/wrong", "scores"])
@pytest.mark.parametrize("n", [5, 10, 20])
def test_the_recommended_test_for_a_small_sample_holds_alpha(n, kind):
    metric = "accuracy" if kind == "right/wrong" else "mean"
    a = [i % 2 for i in range(n)] if kind == "right/wrong" else list(np.random.default_rng(n).normal(size=n))
    b = [1 - x for x in a] if kind == "right/wrong" else [0.0] * n  # every item differs
    test = compare([1] * n if kind == "right/wrong" else None, a, b, metric=metric, n_resamples=100).test
    assert test == ("mcnemar" if kind == "right/wrong" else "permutation")  # what test="auto" runs
    rejected, top = _false_alarms(test, n, kind)
    assert rejected <= top, (test, n, rejected)


@pytest.mark.slow
def test_the_bootstrap_on_five_scores_rejects_too_often_which_is_why_it_warns():
    rejected, top = _false_alarms("bootstrap", 5, "scores")
    assert rejected > top  # about 11% at alpha = 5% (README)
    assert compare(None, [0.1, 0.5, 0.3, 0.9, 0.2], [0.0] * 5, metric="mean", test="bootstrap",
                   alternative="greater").warnings


def test_wilson_coverage_at_accuracy_099_on_100_items():
    """The exact coverage of Wilson's interval (summed over the binomial) and a simulation agree; the bootstrap
    percentile interval of the same samples covers far less often."""
    n, truth = 100, 0.99
    k = np.arange(n + 1)
    samples = (np.r_[np.ones(j), np.zeros(n - j)] for j in k)
    covers = np.array([lo <= truth <= hi for lo, hi in (sigcore.statistics.intervals.wilson(x, 0.95) for x in samples)])
    exact = float(scipy.stats.binom.pmf(k, n, truth)[covers].sum())
    assert 0.92 < exact < 0.95
    rng = np.random.default_rng(0)
    sims, wilson, percentile = 400, 0, 0
    for s in range(sims):
        right = (rng.random(n) < truth).astype(int)
        res = compare(np.ones(n, int), right, np.ones(n, int), n_resamples=1_000, seed=s, alternative="two-sided",
                      test="bootstrap")
        wilson += res.ci_a[0] <= truth <= res.ci_a[1]
        # A's own bootstrap scores
        low, high = sigcore.statistics.intervals.percentile(res.distribution + res.score_b, 0.95)
        percentile += low <= truth <= high
    low, high = scipy.stats.binom.ppf([0.001, 0.999], sims, exact)
    assert low <= wilson <= high
    assert percentile / sims < 0.8  # about 64%: all-right samples give the point [1, 1]


def _documents(rng, docs=40, per=10, icc=0.5):
    """Per-sentence score differences under H0, correlated within documents (intra-document correlation icc)."""
    groups = np.repeat(np.arange(docs), per)
    a = rng.normal(0, math.sqrt(icc), docs)[groups] + rng.normal(0, math.sqrt(1 - icc), docs * per)
    return a, np.zeros(docs * per), groups


def test_groups_resample_whole_documents_and_say_so():
    a, b, groups = _documents(np.random.default_rng(1))
    plain = compare(None, a, b, metric="mean", alternative="two-sided", test="bootstrap")
    grouped = compare(None, a, b, metric="mean", alternative="two-sided", groups=[f"doc{g}" for g in groups],
                      test="bootstrap")
    assert grouped.n_groups == 40 and grouped.n_items == 400 and plain.n_groups is None
    assert grouped.delta == pytest.approx(plain.delta) and grouped.p_value > plain.p_value  # documents vary more
    assert grouped.ci_high - grouped.ci_low > 2 * (plain.ci_high - plain.ci_low)
    assert "groups:40" in grouped.signature and "groups" not in plain.signature
    assert "over 40 groups (documents resampled whole)" in sigcore.report.verdict(grouped)
    # with documents of equal size, the cluster bootstrap is the item bootstrap of the documents' means
    means = [np.bincount(groups, weights=x) / 10 for x in (a, b)]
    documents = compare(None, *means, metric="mean", alternative="two-sided", test="bootstrap")
    np.testing.assert_allclose(grouped.distribution, documents.distribution, rtol=1e-12, atol=1e-15)
    permuted = compare(None, a, b, metric="mean", test="permutation", groups=groups, alternative="two-sided")
    assert permuted.n_groups == 40 and "A and B swapped per group" in sigcore.report.verdict(permuted)


@pytest.mark.parametrize("metric", ["accuracy", "macro_f1", "bleu"])
def test_groups_work_for_every_metric(metric):
    rng = np.random.default_rng(3)
    n = 60
    groups = np.repeat(np.arange(12), 5)
    if metric == "bleu":
        gold = [f"the cat {i} sat" for i in range(n)]
        a = [g if rng.random() < 0.7 else "a dog" for g in gold]
        b = [g if rng.random() < 0.5 else "a dog" for g in gold]
    else:
        gold = rng.integers(0, 3, n)
        a, b = (np.where(rng.random(n) < q, gold, rng.integers(0, 3, n)) for q in (0.8, 0.5))
    res = compare(gold, a, b, metric=metric, groups=groups, test="bootstrap", alternative="greater")
    assert res.n_groups == 12 and "only 12 groups are resampled" in res.warnings[0]
    assert "groups where A and B differ" in res.warnings[1]
    ungrouped = compare(gold, a, b, metric=metric, test="bootstrap", alternative="greater")
    assert res.score_a == ungrouped.score_a  # grouping never changes the scores


def test_groups_that_do_not_fit_are_refused():
    with pytest.raises(sigcore.InputError, match="`groups` has 3 entries but there are 10 items"):
        compare(GOLD, SLP3_A, SLP3_B, groups=[1, 2, 3], test="bootstrap", alternative="greater")
    with pytest.raises(sigcore.InputError, match="item 2 has no group"):
        compare(GOLD, SLP3_A, SLP3_B, groups=[1, None] + [3] * 8, test="bootstrap", alternative="greater")
    with pytest.raises(SettingsError, match="sacrebleu has no groups"):
        compare(GOLD, SLP3_A, SLP3_B, groups=[1] * 10, compat="sacrebleu", alternative="two-sided", test="bootstrap")


@pytest.mark.slow
def test_the_cluster_bootstrap_holds_alpha_where_the_item_bootstrap_does_not():
    rng = np.random.default_rng(7)
    sims, item, cluster = 300, 0, 0
    for s in range(sims):
        a, b, groups = _documents(rng)
        settings = dict(metric="mean", alternative="two-sided", n_resamples=1_000, seed=s, ci_method=None)
        item += compare(None, a, b, **settings).significant
        cluster += compare(None, a, b, groups=groups, **settings).significant
    assert cluster <= scipy.stats.binom.ppf(0.999, sims, 0.05)
    assert item / sims > 0.25  # about 40%: sentences of one document are not independent evidence


def test_a_run_that_cannot_fit_is_refused_before_it_starts():
    with pytest.raises(SettingsError, match=r"`n_resamples` is at most 10,000,000, not 10,000,000,000"):
        compare(GOLD, SLP3_A, SLP3_B, n_resamples=10**10, test="bootstrap", alternative="greater")
    rng = np.random.default_rng(0)
    a, b = rng.random(2_000), rng.random(2_000)
    with pytest.raises(SettingsError, match=r"b = 1,000 resamples of 2,000 rows is about 2\.0e\+06 steps.*"
                                            r"more than the budget of 1\.0e\+06\. Use b of at most 500\."):
        sigcore.stream(None, a, b, metric="mean", n_resamples=1_000, budget=10**6, test="bootstrap",
                       alternative="greater")
    assert list(sigcore.stream(GOLD, SLP3_A, SLP3_B, n_resamples=1_000, budget=10**6, test="bootstrap",
                               alternative="greater"))  # 4 patterns: cheap
    with pytest.raises(SettingsError, match="about 4.0e"):  # the permutation test bootstraps its interval too
        sigcore.stream(None, a, b, metric="mean", test="permutation", n_resamples=1_000, budget=10**6,
                       alternative="greater")


def test_a_long_label_list_is_summarised_in_the_signature():
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 300, 3_000)
    res = compare(gold, gold, rng.integers(0, 300, 3_000), metric="macro_f1", n_resamples=100, test="bootstrap",
                  alternative="greater")
    assert "labels=<300 values sha256:" in res.signature and len(res.signature) < 300
    few = compare(gold % 3, gold % 3, gold % 2, metric="macro_f1", n_resamples=100, test="bootstrap",
                  alternative="greater")
    assert "labels=[0, 1, 2]" in few.signature


@pytest.mark.parametrize("metric", ["macro_f1", "f1", "mean", "bleu"])
@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_a_systems_own_interval_does_not_depend_on_its_opponent(metric, test):
    """A's interval comes from resampling A alone: the same against every B, on random data of every shape
    (few patterns, where the paired draws group (gold, A, B); many, where they are per item)."""
    rng = np.random.default_rng(zlib.crc32(f"{metric} {test}".encode()))
    words = np.array(["the", "cat", "sat", "on", "a", "mat", "dog"])
    for case in range(6):
        n = int(rng.integers(15, 120))
        if metric == "bleu":
            gold = [" ".join(rng.choice(words, rng.integers(1, 9))) for _ in range(n)]
            a, b, c = ([" ".join(rng.choice(words, rng.integers(0, 9))) for _ in range(n)] for _ in range(3))
            a[:3] = gold[:3]  # some exact matches, so the scores are not 0
        elif metric == "mean":
            gold = None
            a, b, c = (np.round(rng.normal(0.5, 0.2, n), int(rng.integers(0, 3))) for _ in range(3))
        else:
            labels = 3 if metric == "macro_f1" else 2
            gold = rng.integers(0, labels, n)
            a, b, c = (np.where(rng.random(n) < p, gold, rng.integers(0, labels, n)) for p in rng.uniform(0.4, 0.9, 3))
        settings = dict(metric=metric, test=test, n_resamples=400, seed=case)
        against_b, against_c = compare(gold, a, b, **settings), compare(gold, a, c, **settings)
        assert against_b.ci_a == against_c.ci_a, (case, against_b.ci_a, against_c.ci_a)
        assert compare(gold, c, a, **settings).ci_b == against_c.ci_a  # as B too
