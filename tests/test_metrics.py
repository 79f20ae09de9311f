"""Metrics against their references (scikit-learn, seqeval, numpy), the bootstrap identity, and every error."""

import json
import warnings

import numpy as np
import pytest
from seqeval.metrics import f1_score as seqeval_f1
from sklearn import metrics as sk

from sigcore.errors import InputError, SettingsError
from sigcore.metrics import METRICS, Metric, prepare
from sigcore.statistics.resampling import PairedStats

TOL = 1e-9  # all references are exact rational formulas; only float rounding separates us
LABEL_METRICS = ["accuracy", "precision", "recall", "f1", "macro_f1", "micro_f1", "weighted_f1"]
TAGS = ["O", "O", "O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "S-LOC", "I-ORG"]


def sklearn_score(name, gold, pred, options):
    """The reference value of a label metric, with the label set / positive class sigcore resolved."""
    if name == "accuracy":
        return sk.accuracy_score(gold, pred)
    if name in ("precision", "recall", "f1"):
        function = {"precision": sk.precision_score, "recall": sk.recall_score, "f1": sk.f1_score}[name]
        return function(gold, pred, labels=[options["positive_label"]], average="micro", zero_division=0)
    return sk.f1_score(gold, pred, labels=options["labels"], average=name[:-3], zero_division=0)


def random_labels(rng, n, k, systems=2):
    """Gold over classes 0..k-2 and predictions over 0..k-1: a class only ever predicted, often one never."""
    gold = rng.integers(0, max(k - 1, 1), n)
    return gold, [np.where(rng.random(n) < 0.6, gold, rng.integers(0, k, n)) for _ in range(systems)]


def random_tags(rng, sentences):
    gold = [list(rng.choice(TAGS, rng.integers(0, 8))) for _ in range(sentences)]
    return gold, [[[t if rng.random() < 0.7 else str(rng.choice(TAGS)) for t in s] for s in gold] for _ in range(2)]


def quiet_seqeval(gold, pred):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval warns when a set has no chunks at all
        return seqeval_f1(gold, pred)


def test_registry():
    assert list(METRICS) == ["accuracy", "exact_match", "precision", "recall", "f1", "macro_f1", "micro_f1",
                             "weighted_f1", "span_f1", "bleu", "chrf", "mean", "mae", "mse", "rmse"]
    assert all(isinstance(m, Metric) and m.name == key and "\n" not in m.description for key, m in METRICS.items())
    assert [k for k, m in METRICS.items() if m.decomposable] == ["accuracy", "exact_match", "mean", "mae", "mse"]
    assert [k for k, m in METRICS.items() if m.higher_is_better is False] == ["mae", "mse", "rmse"]
    assert [k for k, m in METRICS.items() if m.higher_is_better is None] == ["mean"]  # the user says
    assert [k for k, m in METRICS.items() if m.binary] == ["accuracy", "exact_match"]
    assert [k for k, m in METRICS.items() if not m.needs_gold] == ["mean"]
    assert METRICS["bleu"].description == "Corpus BLEU (sacrebleu), 0-100"


@pytest.mark.parametrize("name", LABEL_METRICS)
@pytest.mark.parametrize("n, k", [(1, 2), (7, 2), (60, 3), (200, 5)])
def test_label_metrics_equal_sklearn(name, n, k):
    rng = np.random.default_rng(n * 10 + k)
    gold, systems = random_labels(rng, n, k)
    explicit = name in ("precision", "recall", "f1") and (k > 2 or n == 1)  # else the default, 1, is used
    stats, score, options = prepare(name, gold, systems, **({"positive_label": gold[0]} if explicit else {}))
    json.dumps(options)
    for rows, pred in zip(stats, systems):
        assert rows.dtype == np.float64 and rows.shape == stats[0].shape
        assert score(rows.sum(axis=0)) == pytest.approx(sklearn_score(name, gold, pred, options), abs=TOL)


@pytest.mark.parametrize("name", LABEL_METRICS)
def test_bootstrap_identity(name):
    """score(w @ S) is the metric on the test set with item i repeated w_i times (w a bootstrap draw)."""
    rng = np.random.default_rng(1)
    gold, systems = random_labels(rng, 40, 4)
    options = {"positive_label": 2} if name in ("precision", "recall", "f1") else {}
    stats, score, resolved = prepare(name, gold, systems, **options)
    weights = rng.multinomial(40, np.full(40, 1 / 40), size=5)
    for rows, pred in zip(stats, systems):
        totals = score(weights @ rows)
        for w, total in zip(weights, totals):
            repeated = sklearn_score(name, np.repeat(gold, w), np.repeat(pred, w), resolved)
            assert total == pytest.approx(repeated, abs=TOL)


def test_span_f1_equals_seqeval_and_bootstrap_identity():
    rng = np.random.default_rng(2)
    gold, systems = random_tags(rng, 30)
    gold[0], systems[0][0], systems[1][0] = ["O", "O"], ["O", "I-PER"], ["O", "O"]  # all-O, one spurious chunk
    stats, score, options = prepare("span_f1", gold, systems)
    assert options == {} and stats[0].shape == (30, 3)
    weights = rng.multinomial(30, np.full(30, 1 / 30), size=4)
    for rows, pred in zip(stats, systems):
        assert score(rows.sum(axis=0)) == pytest.approx(quiet_seqeval(gold, pred), abs=TOL)
        for w, total in zip(weights, score(weights @ rows)):
            repeat = lambda seqs, w=w: [s for s, c in zip(seqs, w) for _ in range(c)]  # noqa: E731
            assert total == pytest.approx(quiet_seqeval(repeat(gold), repeat(pred)), abs=TOL)


def test_span_f1_no_chunks_anywhere_is_zero():
    stats, score, _ = prepare("span_f1", [["O"], []], [[["O"], []], [["O"], []]])
    assert score(stats[0].sum(axis=0)) == 0.0


def test_exact_match_normalisation():
    gold = ["The  cat.", "a dog", "Hi!"]
    systems = [[" The cat. ", "A dog", "hi"], ["The cat", "a  dog\n", "Hi!"]]
    stats, score, options = prepare("exact_match", gold, systems)
    assert options == {"strip": True, "lowercase": False, "ignore_punctuation": False}
    assert [score(s.sum(axis=0)) for s in stats] == pytest.approx([1 / 3, 2 / 3])
    stats, score, _ = prepare("exact_match", gold, systems, lowercase=True, ignore_punctuation=True)
    assert [score(s.sum(axis=0)) for s in stats] == pytest.approx([1, 1])
    stats, score, _ = prepare("exact_match", gold, systems, strip=False)
    assert [score(s.sum(axis=0)) for s in stats] == pytest.approx([0, 1 / 3])
    stats, _, _ = prepare("exact_match", [1, 2], [["1", 2.0], [1, 2]])  # numbers are compared as text
    assert stats[0][:, 0].tolist() == [1, 0] and stats[1][:, 0].tolist() == [1, 1]


def test_mean_needs_no_gold_and_reads_numbers():
    systems = [[0.5, "0.25", 1], [np.float32(0.0), 2, True]]
    stats, score, options = prepare("mean", None, systems)
    assert options == {}
    assert [score(s.sum(axis=0)) for s in stats] == pytest.approx([np.mean([0.5, 0.25, 1]), 1.0], abs=TOL)


@pytest.mark.parametrize("name, gold, systems", [
    ("accuracy", [0, 1, 1, 0, 2], [[0, 1, 0, 0, 1], [2, 2, 1, 0, 2]]),
    ("exact_match", ["a", "b", "c"], [["a", "x", "c"], ["b", "b", "c"]]),
    ("mean", None, [[0.1, 0.9, 0.4], [0.3, 0.3, 0.3]]),
])
def test_decomposable_rows_give_item_values(name, gold, systems):
    stats, score, _ = prepare(name, gold, systems)
    for rows in stats:
        assert np.mean(score(rows)) == pytest.approx(score(rows.sum(axis=0)), abs=TOL)
        if METRICS[name].binary:
            assert set(score(rows).tolist()) <= {0.0, 1.0}


@pytest.mark.parametrize("name", [*LABEL_METRICS, "span_f1", "exact_match", "mean"])
def test_score_is_vectorised_and_zero_safe(name):
    rng = np.random.default_rng(3)
    if name == "span_f1":
        gold, systems = random_tags(rng, 20)
    elif name in ("exact_match", "mean"):
        gold, systems = None if name == "mean" else [0] * 20, [list(rng.integers(0, 3, 20)) for _ in range(2)]
    else:
        gold, systems = random_labels(rng, 20, 3)
    stats, score, _ = prepare(name, gold, systems, **({"positive_label": 1} if name in LABEL_METRICS[1:4] else {}))
    totals = rng.integers(0, 3, (3, 4, 20)) @ stats[0]
    expected = np.array([[score(totals[i, j]) for j in range(4)] for i in range(3)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0/0 must be 0, silently
        assert score(totals).shape == (3, 4)
        np.testing.assert_allclose(score(totals), expected, rtol=0, atol=TOL)
        assert np.all(score(np.zeros((2, stats[0].shape[1]))) == 0)


def test_default_label_set_is_shared_and_explicit_labels_subset():
    gold, systems = ["a", "b", "a"], [["a", "a", "a"], ["a", "b", "c"]]
    _, _, options = prepare("macro_f1", gold, systems)
    assert options == {"labels": ["a", "b", "c"]}  # "c" only in system 2, yet in system 1's average too
    stats, score, options = prepare("micro_f1", gold, systems, labels=("b", "c"))
    assert options == {"labels": ["b", "c"]} and stats[0].shape == (3, 6)
    assert score(stats[1].sum(axis=0)) == pytest.approx(
        sk.f1_score(gold, systems[1], labels=["b", "c"], average="micro", zero_division=0), abs=TOL)


@pytest.mark.parametrize("gold, systems, positive", [
    ([1, 0, 1], [[1, 1, 0], [0, 0, 1]], 1),
    (np.array([True, False, True]), [[True, True, False], [False, False, True]], True),
    (["No", "Yes", "Yes"], [["Yes", "No", "Yes"], ["No", "No", "No"]], "Yes"),
    (["neg", "POS"], [["POS", "neg"], ["neg", "neg"]], "POS"),
    (["1", "0"], [["1", "1"], ["0", "0"]], "1"),
    ([1, 1], [[1, 1], [1, 1]], 1),
    (np.array([0, 1]), [np.array([1, 1]), np.array([0, 0])], 1),
])
def test_positive_label_default(gold, systems, positive):
    stats, score, options = prepare("f1", gold, systems)
    assert options == {"positive_label": positive} and type(options["positive_label"]) is type(positive)
    for rows, pred in zip(stats, systems):
        assert score(rows.sum(axis=0)) == pytest.approx(
            sk.f1_score(list(gold), list(pred), pos_label=positive, zero_division=0), abs=TOL)


def test_positive_label_explicit_matches_sklearn_binary():
    gold, systems = ["spam", "ham", "spam", "ham"], [["spam", "spam", "ham", "ham"], ["ham"] * 4]
    for name, function in [("precision", sk.precision_score), ("recall", sk.recall_score), ("f1", sk.f1_score)]:
        stats, score, options = prepare(name, gold, systems, positive_label="ham")
        assert options == {"positive_label": "ham"}
        for rows, pred in zip(stats, systems):
            assert score(rows.sum(axis=0)) == pytest.approx(
                function(gold, pred, pos_label="ham", zero_division=0), abs=TOL)


@pytest.mark.parametrize("call, error, message", [
    (lambda: prepare("bleurt", [1], [[1], [1]]), SettingsError, r"unknown metric 'bleurt'.*accuracy, exact_match"),
    (lambda: prepare("accuracy", [1], [[1], [1]], strip=True), SettingsError, r"accuracy has no option 'strip'.*none"),
    (lambda: prepare("exact_match", ["a"], [["a"], ["a"]], lower=True), SettingsError,
     r"no option 'lower'.*strip, lowercase, ignore_punctuation"),
    (lambda: prepare("exact_match", ["a"], [["a"], ["a"]], strip="yes"), SettingsError,
     r"'strip' must be true or false"),
    (lambda: prepare("accuracy", [1, 2], [[1, 2]]), InputError, r"at least 2 systems, got 1"),
    (lambda: prepare("accuracy", [1, 2], "ab"), InputError, r"list of prediction lists"),
    (lambda: prepare("accuracy", list(range(10)), [list(range(10)), list(range(9))]), InputError,
     r"system 2 has 9 items but gold has 10\..*one output per test item"),
    (lambda: prepare("mean", None, [[1, 2], [1]]), InputError, r"system 2 has 1 items but system 1 has 2"),
    (lambda: prepare("accuracy", [], [[], []]), InputError, r"test set is empty"),
    (lambda: prepare("f1", None, [[1], [1]]), InputError, r"f1 needs gold labels"),
    (lambda: prepare("accuracy", [1, 0], [["1", "0"], [1, 0]]), InputError,
     r"gold labels are number but system 1's are text.*both as text"),
    (lambda: prepare("f1", [0, 1], [[0, 1], [1, 1]], positive_label=2), InputError,
     r"positive_label 2 does not occur.*labels are: 0, 1"),
    (lambda: prepare("f1", ["a", "b"], [["a", "a"], ["b", "b"]]), SettingsError,
     r"which label is the positive class.*`positive_label` to one of: 'a', 'b'\.$"),
    (lambda: prepare("recall", [0, 1, 2], [[0, 1, 2], [1, 1, 1]]), SettingsError, r"positive class.*macro_f1"),
    (lambda: prepare("precision", ["pos", "positive"], [["pos"] * 2, ["pos"] * 2]), SettingsError, r"positive class"),
    (lambda: prepare("macro_f1", [0, 1], [[0, 1], [1, 1]], labels=[0, 0]), SettingsError, r"lists a label twice"),
    (lambda: prepare("macro_f1", [0, 1], [[0, 1], [1, 1]], labels="01"), SettingsError, r"non-empty list"),
    (lambda: prepare("macro_f1", [0, 1], [[0, 1], [1, 1]], labels=[]), SettingsError, r"non-empty list"),
    (lambda: prepare("weighted_f1", [0, 1], [[0, 1], [1, 1]], labels=[0, 5]), InputError,
     r"label 5 in 'labels' occurs in neither.*labels are: 0, 1"),
    (lambda: prepare("exact_match", ["a", None], [["a", "b"], ["a", "b"]]), InputError,
     r"gold has no reference for item 2"),
    (lambda: prepare("mean", None, [[1, 2], [1, "n/a"]]), InputError, r"system 2 has 'n/a' for item 2, not a finite"),
    (lambda: prepare("mean", None, [[1, float("nan")], [1, 2]]), InputError, r"system 1 has nan for item 2"),
    (lambda: prepare("mean", None, [[1, None], [1, 2]]), InputError, r"system 1 has None for item 2"),
    (lambda: prepare("span_f1", [["O"], ["B-PER", "O"]], [[["O"], ["B-PER"]], [["O"], ["O", "O"]]]), InputError,
     r"sentence 2 has 1 tags in system 1 but 2 in gold"),
    (lambda: prepare("span_f1", [["O"], ["B-PER"]], [[["O"], ["B-PER"]], [["O"], ["U-PER"]]]), InputError,
     r"'U-PER' is not a BIO/BIOES tag \(token 1\) in sentence 2 of system 2.*rename U- to S-"),
    (lambda: prepare("span_f1", [["O"], ["b-per"]], [[["O"], ["O"]], [["O"], ["O"]]]), InputError,
     r"in sentence 2 of gold"),
    (lambda: prepare("span_f1", ["B-PER O", "O"], [["B-PER O", "O"], ["O O", "O"]]), InputError,
     r"sentence 1 of gold is not a list of tags"),
    (lambda: prepare("span_f1", [["O"]], [[["O"]], [["O"]]], scheme="BIO"), SettingsError, r"no option 'scheme'"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_error_locations():
    with pytest.raises(InputError) as info:
        prepare("mean", None, [[1, 2, 3], [1, 2, "x"]])
    assert info.value.line == 3 and info.value.hint
    with pytest.raises(InputError) as info:
        prepare("span_f1", [["O"], ["O"]], [[["O"], ["O"]], [["O"], ["O", "O"]]])
    assert info.value.line == 2


def test_text_labels_are_compared_without_surrounding_whitespace():
    gold, a, b = ["pos", "neg ", "pos"], [" pos", "neg", "neg\t"], ["pos", "pos", "pos"]
    stats, score, _ = prepare("accuracy", gold, [a, b])
    assert score(stats[0].sum(0)) == pytest.approx(2 / 3)
    _, _, options = prepare("macro_f1", gold, [a, b])
    assert options["labels"] == ["neg", "pos"]


@pytest.mark.parametrize("name", ["macro_f1", "micro_f1", "weighted_f1"])
@pytest.mark.parametrize("options", [{}, {"labels": ["b", "c"]}])
def test_multiclass_groups_items_before_building_their_wide_rows(name, options):
    rng = np.random.default_rng(11)
    gold, a, b = (list(rng.choice(list("abcd"), 500)) for _ in range(3))
    stats, score, resolved = prepare(name, gold, [a, b], **options)
    rows, inverse, grouped_score, grouped_resolved = METRICS[name].patterns(gold, [a, b], **options)
    assert grouped_resolved == resolved and grouped_score is score
    counts = np.bincount(inverse)
    assert len(counts) <= 4**3 < stats[0].shape[0] and counts.sum() == 500  # one row per (gold, A, B), not per item
    np.testing.assert_array_equal(rows[0][inverse], stats[0])  # item i's row is its group's
    np.testing.assert_array_equal(rows[1][inverse], stats[1])
    items, groups = PairedStats.from_items(*stats), PairedStats.from_patterns(*rows, counts)
    for field in ("rows_a", "rows_b", "counts"):
        np.testing.assert_array_equal(getattr(items, field), getattr(groups, field))


@pytest.mark.parametrize("metric", ["accuracy", "f1", "macro_f1", "exact_match"])
@pytest.mark.parametrize("missing", [None, float("nan")])
def test_a_missing_gold_label_is_an_error_with_its_item(metric, missing):
    with pytest.raises(InputError, match=r"line 3: gold has no (label|reference) for item 3"):
        prepare(metric, ["x", "y", missing], [["x", "y", missing], ["x", "x", "x"]],
                **({"positive_label": "x"} if metric == "f1" else {}))


@pytest.mark.parametrize("missing", [None, float("nan"), "", "  "])
def test_a_missing_prediction_is_wrong_and_no_class_of_its_own(missing):
    gold, a, b = ["x", "y", "x", "y"], ["x", missing, "x", "y"], ["x", "x", "x", "x"]
    stats, score, _ = prepare("accuracy", gold, [a, b])
    assert score(stats[0].sum(0)) == 0.75
    stats, score, options = prepare("macro_f1", gold, [a, b])
    assert options["labels"] == ["x", "y"]  # no class for the missing answer, which would pull macro-F1 down
    expected = sk.f1_score(gold, ["x", "none", "x", "y"], labels=["x", "y"], average="macro", zero_division=0)
    assert score(stats[0].sum(0)) == pytest.approx(expected)
    stats, score, _ = prepare("f1", gold, [a, b], positive_label="y")
    assert score(stats[0].sum(0)) == pytest.approx(sk.f1_score(gold, ["x", "x", "x", "y"], pos_label="y"))


def test_a_missing_numeric_gold_or_prediction_in_arrays():
    with pytest.raises(InputError, match="gold has no label for item 2"):
        prepare("accuracy", np.array([1.0, np.nan]), [np.array([1.0, 1.0]), np.array([1.0, 0.0])])
    stats, score, options = prepare("macro_f1", np.array([1.0, 2.0]), [np.array([1.0, np.nan]), np.array([1.0, 1.0])])
    assert options["labels"] == [1.0, 2.0] and score(stats[0].sum(0)) == 0.5


@pytest.mark.parametrize("metric", ["exact_match", "bleu", "chrf"])
def test_a_missing_text_output_is_an_empty_answer(metric):
    gold = ["a b c d", "e f g h"]
    got, _, _ = prepare(metric, gold, [["a b c d", None], ["a b c d", ""]])
    np.testing.assert_array_equal(got[0], got[1])


def test_too_many_classes_are_refused_before_the_memory_is_spent():
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 50_000, 20_000)
    with pytest.raises(SettingsError, match=r"macro_f1 over [\d,]+ classes needs a table of [\d,]+ x [\d,]+ counts.*"
                                            r"Pass labels=\[\.\.\.\]"):
        METRICS["macro_f1"].patterns(gold, [gold, rng.integers(0, 50_000, 20_000)])


@pytest.mark.parametrize("label", [{"x": 1}, [1, 2]])
def test_a_label_that_is_a_json_object_or_array_is_refused_with_its_item(label):
    with pytest.raises(InputError, match=r"line 2: system 2 has a (dict|list) for item 2, not a single label"):
        prepare("accuracy", ["x", "y"], [["x", "y"], ["x", label]])
