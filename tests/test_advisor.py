"""The advisor's decision tree, case by case against Dror et al. (2018), and its agreement with tests_for."""

import collections

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sigcore
from sigcore import METRICS, TESTS, SettingsError
from sigcore.advisor import SHAPIRO_MAX, Advice, Choice, advise, advise_outputs
from sigcore.comparison import RESAMPLING, SMALL_SAMPLE, Z_MIN_ITEMS


def normal_differences(n=200, seed=1):
    rng = np.random.default_rng(seed)
    b = rng.normal(0.6, 0.1, n)
    return b + rng.normal(0.02, 0.05, n), b


def skewed_differences(n=200, seed=1):
    """A beats B by a lognormal margin: d is strongly right-skewed (sample skewness 3.2 at seed 1)."""
    rng = np.random.default_rng(seed)
    b = rng.uniform(0, 1, n)
    return b + rng.lognormal(0, 1, n) - 1.5, b


def heavy_tailed_differences(n=300, seed=0):
    """Normal differences with one in ten blown up 5x: symmetric, but with outliers (excess kurtosis 6.4)."""
    rng = np.random.default_rng(seed)
    d = rng.normal(0, 1, n)
    d[rng.random(n) < 0.1] *= 5
    b = rng.uniform(0, 1, n)
    return b + 0.1 + d, b


def likert_differences(n=300, seed=3):
    """Ratings 1-5 that mostly agree: 60% of d is 0, the rest +-1."""
    rng = np.random.default_rng(seed)
    b = rng.integers(1, 6, n).astype(float)
    return np.clip(b + rng.choice([0, 0, 0, 1, -1, 1], n), 1, 5), b


def right_wrong(n, only_a, only_b, both=None):
    """Correctness of A and B with the given discordant pairs; the rest right for both (or ``both`` of them)."""
    both = n - only_a - only_b if both is None else both
    a = [1] * only_a + [0] * only_b + [1] * both + [0] * (n - only_a - only_b - both)
    b = [0] * only_a + [1] * only_b + [1] * both + [0] * (n - only_a - only_b - both)
    return a, b


def names(choices):
    return [c.test for c in choices]


# Dror et al. (2018), section 3 and its decision tree: normal differences -> the paired t-test; not normal ->
# a non-parametric test; binary correctness -> McNemar; a metric that is not a mean of per-item values (F1, BLEU)
# -> a sampling-based test; dependent items (sentences of a document) break the independence the CLT needs.
CASES = [
    ("normal differences, n = 200", "mean", dict(zip(("a_scores", "b_scores"), normal_differences())), {"t"}),
    ("lognormal-skewed differences, n = 200", "mean", dict(zip(("a_scores", "b_scores"), skewed_differences())),
     {"wilcoxon", "permutation", "bootstrap"}),
    ("symmetric differences with outliers", "mean",
     dict(zip(("a_scores", "b_scores"), heavy_tailed_differences())), {"wilcoxon"}),
    ("right/wrong, 190 discordant pairs", "accuracy",
     dict(zip(("a_scores", "b_scores"), right_wrong(500, 110, 80))), {"mcnemar"}),
    ("right/wrong, 6 discordant pairs", "accuracy",
     dict(zip(("a_scores", "b_scores"), right_wrong(100, 4, 2))), {"mcnemar"}),
    ("exact match, 6 discordant pairs", "exact_match",
     dict(zip(("a_scores", "b_scores"), right_wrong(100, 2, 4))), {"mcnemar"}),
    ("binary F1", "f1", {"n_items": 1000}, {"bootstrap"}),
    ("macro F1", "macro_f1", {"n_items": 1000}, {"bootstrap"}),
    ("span F1", "span_f1", {"n_items": 1000}, {"bootstrap"}),
    ("BLEU", "bleu", {"n_items": 2000}, {"bootstrap"}),
    ("chrF", "chrf", {"n_items": 2000}, {"bootstrap"}),
    ("BLEU, 12 sentences", "bleu", {"n_items": 12}, {"permutation"}),
    ("accuracy, 40 documents", "accuracy", {"n_items": 40, "grouped": True}, {"bootstrap"}),
    ("mean, 8 documents", "mean", {"n_items": 8, "grouped": True}, {"permutation"}),
    ("mean, 10 items", "mean", dict(zip(("a_scores", "b_scores"), normal_differences(10))), {"permutation"}),
]


@pytest.mark.parametrize("label, metric, kwargs, expected", CASES, ids=[c[0] for c in CASES])
def test_recommendation_follows_dror_et_al(label, metric, kwargs, expected):
    advice = advise(metric, **kwargs)
    assert advice.recommended.test in expected, advice.text()


def test_normal_differences_take_the_t_test_with_shapiro_wilks_numbers():
    advice = advise("mean", a_scores=normal_differences()[0], b_scores=normal_differences()[1])
    f = advice.facts
    assert f["shapiro_p"] > 0.05 and f["shapiro_n"] == 200 and abs(f["skewness"]) < 1
    assert f"W = {f['shapiro_w']:.3f}" in advice.recommended.reason and "normal" in advice.recommended.reason
    assert {"permutation", "bootstrap", "z", "wilcoxon", "sign"} == set(names(advice.acceptable))
    assert names(advice.unsuitable) == ["mcnemar"]


def test_skewed_differences_are_not_given_the_t_test():
    advice = advise("mean", a_scores=skewed_differences()[0], b_scores=skewed_differences()[1])
    assert advice.facts["skewness"] > 3 and advice.facts["shapiro_p"] < 1e-6
    assert advice.recommended.test == "bootstrap" and "skew" in advice.recommended.reason
    assert "wilcoxon" in names(advice.acceptable)
    # sign-flipping makes the null symmetric: under skew with equal means the permutation test over-rejects
    # (sigcore.teaching.test_guide's simulation shows it), so it is valid but second, with that said
    permutation = next(c for c in advice.acceptable if c.test == "permutation")
    assert "exchangeable" in permutation.reason and "may reject when the means are equal" in permutation.reason
    t = next(c for c in advice.unsuitable if c.test == "t")
    assert "Cochran" in t.reason and "200" in t.reason  # n = 200 < 25 * 3.2^2


def test_mild_departure_at_large_n_keeps_t_and_says_why():
    rng = np.random.default_rng(0)  # uniform differences: Shapiro-Wilk rejects at n = 2,000, the t-test is fine
    b = rng.normal(0, 1, 2000)
    advice = advise("mean", a_scores=b + rng.uniform(-1, 1.2, 2000), b_scores=b)
    assert advice.facts["shapiro_p"] < 0.05 and advice.recommended.test == "t"
    assert "central limit theorem" in advice.recommended.reason and "large n" in advice.recommended.reason


def test_shapiro_wilk_on_a_fixed_subsample_beyond_5000_items():
    a, b = normal_differences(6000)
    first, again = advise("mean", a_scores=a, b_scores=b), advise("mean", a_scores=a, b_scores=b)
    assert first.facts["shapiro_n"] == SHAPIRO_MAX and first.facts["n_items"] == 6000
    assert first.facts["shapiro_p"] == again.facts["shapiro_p"]  # a fixed seed: the same advice every time
    assert "5,000" in first.recommended.reason


def test_heavy_tails_prefer_wilcoxon_and_keep_t_as_valid():
    advice = advise("mean", a_scores=heavy_tailed_differences()[0], b_scores=heavy_tailed_differences()[1])
    assert advice.facts["kurtosis"] > 3 and abs(advice.facts["skewness"]) < 1
    assert "heavy-tailed" in advice.recommended.reason
    assert "t" in names(advice.acceptable)


def test_many_ties_rule_out_wilcoxon():
    advice = advise("mean", a_scores=likert_differences()[0], b_scores=likert_differences()[1])
    assert advice.facts["tie_share"] > 0.5 and advice.facts["distinct_sizes"] == 1
    assert advice.recommended.test in ("t", "permutation", "sign")
    wilcoxon = next(c for c in advice.unsuitable if c.test == "wilcoxon")
    assert "ties" in wilcoxon.reason and "60%" in wilcoxon.reason
    assert "sign" in names(advice.acceptable)


def test_many_discordant_pairs_take_mcnemar_with_t_as_valid():
    a, b = right_wrong(500, 110, 80)
    advice = advise("accuracy", a_scores=a, b_scores=b)
    assert advice.facts["discordant"] == 190 and (advice.facts["a_only"], advice.facts["b_only"]) == (110, 80)
    assert "190" in advice.recommended.reason
    assert {"permutation", "bootstrap", "sign", "t", "z"} == set(names(advice.acceptable))
    assert names(advice.unsuitable) == ["wilcoxon"] and "magnitudes" in advice.unsuitable[0].reason


def test_few_discordant_pairs_take_exact_mcnemar_and_permutation_before_bootstrap():
    advice = advise("accuracy", a_scores=right_wrong(100, 4, 2)[0], b_scores=right_wrong(100, 4, 2)[1])
    assert advice.recommended.test == "mcnemar" and "exact" in advice.recommended.reason
    assert "6 discordant" in advice.recommended.reason
    order = names(advice.acceptable)
    assert order.index("permutation") < order.index("bootstrap")
    assert "exact here" in advice.acceptable[0].reason  # 2^6 = 64 swaps: every one enumerated
    sign = next(c for c in advice.acceptable if c.test == "sign")
    assert "equivalent" in sign.reason
    assert {"t", "z", "wilcoxon"} == set(names(advice.unsuitable))


@pytest.mark.parametrize("metric", ["f1", "bleu", "chrf", "span_f1", "macro_f1", "precision"])
def test_non_decomposable_metrics_take_resampling_tests_only(metric):
    advice = advise(metric, n_items=1000)
    assert advice.recommended.test == "bootstrap" and "Berg-Kirkpatrick" in advice.recommended.reason
    assert names(advice.acceptable) == ["permutation"]
    assert set(names(advice.unsuitable)) == {"t", "z", "wilcoxon", "sign", "mcnemar"}
    assert all("not a mean of per-item values" in c.reason for c in advice.unsuitable)


@pytest.mark.parametrize("metric, n, first", [("accuracy", 40, "bootstrap"), ("mean", 200, "bootstrap"),
                                              ("bleu", 100, "bootstrap"), ("accuracy", 10, "permutation")])
def test_grouped_items_take_only_whole_group_resampling(metric, n, first):
    advice = advise(metric, n_items=n, grouped=True)
    assert advice.recommended.test == first
    assert {advice.recommended.test, *names(advice.acceptable)} == set(RESAMPLING)
    per_item = [c for c in advice.unsuitable if TESTS[c.test].fits(METRICS[metric])]
    assert bool(per_item) == METRICS[metric].decomposable and all("groups" in c.reason for c in per_item)


def test_grouped_scores_are_checked_but_groups_decide():
    a, b = normal_differences(200)
    advice = advise("mean", a_scores=a, b_scores=b, n_items=20, grouped=True)
    assert advice.facts["n_items"] == 20 and advice.recommended.test == "permutation"
    with pytest.raises(SettingsError, match="200 items but `b_scores` has 199"):
        advise("mean", a_scores=a, b_scores=b[:-1], n_items=20, grouped=True)


def test_z_test_needs_z_min_items():
    a, b = normal_differences(Z_MIN_ITEMS - 10)
    advice = advise("mean", a_scores=a, b_scores=b)
    z = next(c for c in advice.unsuitable if c.test == "z")
    assert f"n >= {Z_MIN_ITEMS}" in z.reason and f"there are {Z_MIN_ITEMS - 10}" in z.reason
    a, b = normal_differences(Z_MIN_ITEMS)
    assert "z" in names(advise("mean", a_scores=a, b_scores=b).acceptable)


def test_small_samples_put_the_exact_permutation_test_first():
    a, b = normal_differences(10)
    advice = advise("mean", a_scores=a, b_scores=b)
    assert advice.recommended.test == "permutation"
    assert "exact here (2^10 = 1,024" in advice.recommended.reason
    bootstrap = next(c for c in advice.acceptable if c.test == "bootstrap")
    assert "too small" in bootstrap.reason
    a, b = normal_differences(20)
    assert "drawn at random" in advise("mean", a_scores=a, b_scores=b).recommended.reason  # 2^20 > b


def test_identical_systems_get_p_1_from_every_test():
    advice = advise("mean", a_scores=[0.5, 0.25, 0.75], b_scores=[0.5, 0.25, 0.75])
    assert advice.facts["n_differing"] == 0 and advice.recommended.test == "permutation"
    assert "p = 1" in advice.recommended.reason
    advice = advise("accuracy", a_scores=[1, 0, 1], b_scores=[1, 0, 1])
    assert advice.recommended.test == "mcnemar"


def test_a_constant_difference_has_no_shape_to_check():
    b = np.linspace(0, 1, 60)
    advice = advise("mean", a_scores=b + 0.1, b_scores=b)  # 0.1 everywhere, up to float noise
    assert advice.recommended.test == "permutation" and advice.facts["shapiro_w"] is None
    assert {"t", "z", "wilcoxon"} <= set(names(advice.unsuitable))


def test_text_names_each_section():
    advice = advise("accuracy", a_scores=right_wrong(100, 4, 2)[0], b_scores=right_wrong(100, 4, 2)[1])
    lines = advice.text().splitlines()
    assert lines[0].startswith("Recommended: McNemar's test (mcnemar), because right/wrong items with 6 ")
    assert "Also valid:" in lines and "Not advised:" in lines
    assert any(line.startswith("  - approximate randomisation (permutation): ") for line in lines)


def test_advice_is_frozen():
    advice = advise("bleu", n_items=100)
    assert isinstance(advice, Advice) and isinstance(advice.recommended, Choice)
    with pytest.raises(AttributeError):
        advice.recommended = Choice("t", "no")  # type: ignore[misc]


@pytest.mark.parametrize("kwargs, match", [
    ({"metric": "bertscore", "n_items": 10}, "unknown metric 'bertscore'.*accuracy, exact_match"),
    ({"metric": "accuracy"}, "give both a_scores and b_scores"),
    ({"metric": "mean", "a_scores": [0.1, 0.2]}, "give both a_scores and b_scores"),
    ({"metric": "mean", "a_scores": [0.1, 0.2], "b_scores": [0.1]}, "2 items but `b_scores` has 1"),
    ({"metric": "mean", "a_scores": [0.1, float("nan")], "b_scores": [0.1, 0.2]}, "item 2, not a finite"),
    ({"metric": "mean", "a_scores": [0.1, 0.2], "b_scores": [0.1, float("inf")]}, "`b_scores` has inf"),
    ({"metric": "mean", "a_scores": ["x", "y"], "b_scores": [0.1, 0.2]}, "list of numbers"),
    ({"metric": "mean", "a_scores": [], "b_scores": []}, "empty"),
    ({"metric": "mean", "a_scores": [1e308, 0], "b_scores": [-1e308, 0]}, "overflows"),
    ({"metric": "accuracy", "a_scores": [1, 0.5], "b_scores": [1, 0]}, "right/wrong as 1/0.*0.5"),
    ({"metric": "accuracy", "a_scores": [1, 0], "b_scores": [1, 0], "n_items": 3}, "`n_items` is 3"),
    ({"metric": "bleu", "a_scores": [30.0], "b_scores": [20.0]}, "bleu is not a mean of per-item scores"),
    ({"metric": "bleu", "n_items": 0}, "`n_items` must be a positive integer"),
    ({"metric": "bleu", "n_items": 10, "alpha": 1.5}, "`alpha` must be a number strictly between 0 and 1"),
])
def test_refusals_say_what_was_wrong(kwargs, match):
    with pytest.raises(SettingsError, match=match):
        advise(**kwargs)


@st.composite
def inputs(draw):
    """A metric with per-item scores (decomposable) or an item count (any metric), grouped or not."""
    metric = draw(st.sampled_from(list(METRICS)))
    grouped = draw(st.booleans())
    m = METRICS[metric]
    if m.decomposable and (not grouped or draw(st.booleans())):
        n = draw(st.integers(1, 120))
        if m.binary:
            a = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
            b = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        else:  # values on a grid make ties; some items identical in A and B make zero differences
            value = st.one_of(st.floats(-1e3, 1e3, allow_nan=False), st.sampled_from([0.0, 0.25, 0.5, 1.0]))
            rows = draw(st.lists(st.tuples(value, value, st.booleans()), min_size=n, max_size=n))
            a = [x for x, _, _ in rows]
            b = [x if same else y for x, y, same in rows]
        sizes = {"n_items": draw(st.integers(1, 60))} if grouped else {}
        return metric, {"a_scores": a, "b_scores": b, "grouped": grouped, **sizes}
    n = draw(st.one_of(st.none(), st.integers(1, 100_000)))
    return metric, {"n_items": n, "grouped": grouped}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs(), st.sampled_from([0.01, 0.05, 0.1]))
def test_advice_agrees_with_the_engine(case, alpha):
    metric, kwargs = case
    advice = advise(metric, alpha=alpha, **kwargs)
    f = advice.facts
    fits = sigcore.tests_for(metric, n_items=f["n_items"], grouped=kwargs["grouped"])
    valid = [advice.recommended.test, *names(advice.acceptable)]
    assert set(valid) <= set(fits)  # never advise what the engine would refuse
    assert advice.recommended.test not in names(advice.unsuitable)
    counts = collections.Counter(valid + names(advice.unsuitable))
    assert counts == collections.Counter(list(TESTS))  # every test exactly once
    assert TESTS[advice.recommended.test].title in advice.text()
    size = f["n_differing"] if f["n_differing"] is not None else f["n_items"]
    if size is not None and size < SMALL_SAMPLE:  # few items that differ: an exact test, whatever their shape
        assert advice.recommended.test == ("mcnemar" if "mcnemar" in fits else "permutation")
    for choice in (advice.recommended, *advice.acceptable, *advice.unsuitable):
        assert choice.reason and "\n" not in choice.reason and not choice.reason.endswith(".")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.sampled_from([0.0, 0.25, 0.5, 1.0]),
                          st.sampled_from([0.0, 0.25, 0.5, 1.0])), min_size=2, max_size=60))
def test_counts_equal_the_engines(rows):
    gold = [1] * len(rows)
    a, b = [r[0] for r in rows], [r[1] for r in rows]
    res = sigcore.compare(gold, a, b, metric="accuracy", n_resamples=1, ci_method=None, test="bootstrap",
                          alternative="greater")
    assert advise("accuracy", a_scores=a, b_scores=b).facts["n_differing"] == res.n_differing
    x, y = [r[2] for r in rows], [r[3] for r in rows]
    res = sigcore.compare(None, x, y, metric="mean", n_resamples=1, ci_method=None, test="bootstrap",
                          alternative="greater")
    assert advise("mean", a_scores=x, b_scores=y).facts["n_differing"] == res.n_differing


def test_advise_outputs_scores_the_items_and_counts_groups():
    gold, a, b = [1, 0, 1, 1] * 30, [1, 0, 1, 0] * 30, [1, 1, 0, 1] * 30
    assert advise_outputs(gold, a, b).recommended == advise(
        "accuracy", a_scores=[float(x == g) for x, g in zip(a, gold)],
        b_scores=[float(x == g) for x, g in zip(b, gold)]).recommended
    grouped = advise_outputs(gold, a, b, groups=[i // 4 for i in range(120)])
    assert grouped.facts["grouped"] and grouped.facts["n_items"] == 30
    assert advise_outputs(["a b c"] * 40, ["a b c"] * 40, ["a b d"] * 40, metric="bleu").recommended.test == "bootstrap"


def test_cli_advise_prints_the_advice_and_refuses_bad_input(tmp_path, capsys):
    from sigcore.__main__ import main

    gen = np.random.default_rng(0)
    table = tmp_path / "t.csv"
    rows = [(g, g if gen.random() < 0.8 else 1 - g, g if gen.random() < 0.7 else 1 - g)
            for g in gen.integers(0, 2, 300)]
    table.write_text("gold,a,b\n" + "".join(f"{g},{x},{y}\n" for g, x, y in rows))
    assert main(["advise", str(table)]) == 0
    out = capsys.readouterr().out
    gold, a, b = zip(*rows)
    note = (f"roles: table = {table}\nroles: gold = column 'gold' (named like gold)\nroles: A = column 'a' (the first "
            "system column)\nroles: B = column 'b' (the next system column)\nmetric: accuracy, the first that fits "
            "these data (as the app suggests); choose another with --metric\n")
    assert out == note + advise_outputs(list(gold), list(a), list(b)).text() + "\n"
    assert out.removeprefix(note).startswith("Recommended: McNemar's test (mcnemar)")
    assert main(["advise", str(table), "--metric", "bleu_score"]) == 2
    err = capsys.readouterr().err
    assert "unknown metric 'bleu_score'" in err and "Traceback" not in err
