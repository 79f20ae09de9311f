"""The sample data says what it shows (sample_data/README.md); these check that it still does."""

from pathlib import Path

import pytest

import sigcore
from sigcore.io import loading
from sigcore.io.inputs import read
from sigcore.io.metric_fit import score_inputs

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


def load(*names, **roles):
    return loading.load([read(SAMPLES / name) for name in names], **roles)


@pytest.mark.slow  # four bootstraps of macro-F1
@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
def test_classification_has_a_significant_and_a_non_significant_pair(metric):
    strong = load("classification.csv", a="svm_rbf", b="naive_bayes")
    weak = load("classification.csv", a="tree", b="naive_bayes")
    assert sigcore.compare(strong.gold, strong.a, strong.b, metric=metric, test="bootstrap",
                           alternative="greater").p_value < 0.01
    assert sigcore.compare(weak.gold, weak.a, weak.b, metric=metric, test="bootstrap",
                           alternative="greater").p_value > 0.2


def test_slp3_toy_is_the_textbook_case():
    data = load("slp3_fig4_11.csv")
    res = sigcore.compare(data.gold, data.a, data.b, test="bootstrap", alternative="greater")
    assert (res.score_a, res.score_b, data.n) == (0.7, 0.5, 10) and 0.25 < res.p_value < 0.29


def test_ner_mt_lm_eval_and_scores_show_what_the_readme_says():
    ner = load("ner.conll")
    assert sigcore.compare(ner.gold, ner.b, ner.a, metric="span_f1", test="bootstrap",
                           alternative="greater").p_value < 0.05  # B beats A
    mt = load("mt/newstest2017.ref.de", "mt/uedin-nmt.de", "mt/LIUM-NMT.de")
    assert mt.n == 500 and sigcore.compare(mt.gold, mt.a, mt.b, metric="bleu", test="bootstrap",
                                           alternative="greater").p_value < 0.05
    lm = load("lm_eval/samples_arc_easy_model-a.jsonl", "lm_eval/samples_arc_easy_model-b.jsonl")
    assert set(lm.scores) == {"acc", "acc_norm"}
    gold, a, b, metric = score_inputs(lm, "acc")
    assert sigcore.compare(gold, a, b, metric=metric, test="bootstrap",
                           alternative="greater").score_a == pytest.approx(0.68)
    scores = load("per_item_scores.csv")
    assert sigcore.compare(None, scores.a, scores.b, metric="mean", test="t", alternative="greater").p_value < 0.01


def test_sample_data_stays_small():
    reference = SAMPLES / "wmt17_en_de"  # the full WMT17 test set the compatibility tests reproduce, gzipped
    files = [f for f in SAMPLES.rglob("*") if f.is_file()]
    assert sum(f.stat().st_size for f in files if reference not in f.parents) < 1_500_000
    assert sum(f.stat().st_size for f in files if reference in f.parents) < 2_600_000
