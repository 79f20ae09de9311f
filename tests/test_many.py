"""Many systems on one test set: shared bootstrap draws, the same p as a pairwise comparison within Monte-Carlo
error, corrections as statsmodels computes them, clusters on constructed cases, and sacrebleu's BLEU per system."""

import gzip
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from statsmodels.stats.multitest import multipletests

import sigcore
from sigcore import SettingsError
from sigcore.many import clusters, compare_many

WMT = Path(__file__).resolve().parents[1] / "sample_data" / "wmt17_en_de"


def _classifiers(n=400, k=5, seed=0):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    systems = {f"sys{j}": np.where(rng.uniform(size=n) < 0.6 + 0.04 * j, gold, (gold + 1) % 3) for j in range(k)}
    return gold, systems


def test_every_system_is_scored_on_the_same_resamples():
    """With shared item counts, δ(a, c) = δ(a, b) + δ(b, c) on every resample; separate draws would break it."""
    gold, systems = _classifiers()
    many = compare_many(gold, systems, all_pairs=True, n_resamples=3000, seed=1, test="bootstrap")
    d = {pair: res.distribution for pair, res in many.results.items()}
    np.testing.assert_allclose(d[("sys0", "sys2")], d[("sys0", "sys1")] + d[("sys1", "sys2")], atol=1e-12)
    assert len(many.results) == 10


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
def test_each_pair_agrees_with_compare_within_monte_carlo_error(metric, alternative):
    gold, systems = _classifiers(seed=3)
    b = 20_000
    many = compare_many(gold, systems, baseline="sys2", metric=metric, alternative=alternative, n_resamples=b,
                        test="bootstrap")
    for (a, base), res in many.results.items():
        one = sigcore.compare(gold, systems[a], systems[base], metric=metric, alternative=alternative,
                              n_resamples=b, seed=7, test="bootstrap")
        assert res.delta == pytest.approx(one.delta, abs=1e-12) and res.score_a == pytest.approx(one.score_a)
        sd = np.sqrt(2 * max(one.p_value * (1 - one.p_value), 1 / b) / b)  # two independent estimates
        assert abs(res.p_value - one.p_value) <= 5 * sd + 1 / b, (a, res.p_value, one.p_value)
        assert res.ci_low == pytest.approx(one.ci_low, abs=0.02)


@pytest.mark.parametrize("correction, method", [("holm", "holm"), ("bonferroni", "bonferroni"),
                                                ("hochberg", "simes-hochberg"), ("bh", "fdr_bh"), ("by", "fdr_by")])
def test_corrections_equal_statsmodels_and_decide_the_table(correction, method):
    gold, systems = _classifiers(k=6, seed=5)
    many = compare_many(gold, systems, all_pairs=True, n_resamples=2000, correction=correction, test="bootstrap")
    table = many.table()
    floored = np.maximum(table["p"], [res.p_floor for res in many.results.values()])
    np.testing.assert_allclose(table["p_adjusted"], multipletests(floored, method=method)[1], rtol=1e-12)
    sides = np.array([res.side for res in many.results.values()])
    assert list(table["significant"]) == list((table["p_adjusted"] <= 0.05) & (sides != 0))


@pytest.mark.parametrize("better, expected", [  # sorted best first; the cases of WMT's rule with known answers
    ([[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]], [1, 1, 2, 2]),  # A~B, C~D, the rest apart
    ([[0, 0, 1, 1], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0]], [1, 1, 1, 2]),  # A~B, B~C: one chain
    ([[0, 1, 1, 1], [0, 0, 1, 1], [0, 0, 0, 1], [0, 0, 0, 0]], [1, 2, 3, 4]),  # all apart
    ([[0] * 4] * 4, [1, 1, 1, 1]),  # none apart
    ([[0, 1, 0], [0, 0, 1], [0, 0, 0]], [1, 1, 1]),  # A > B > C but A ~ C: no line can be drawn
])
def test_clusters_on_constructed_cases(better, expected):
    assert clusters(np.array(better, dtype=bool)) == expected


def test_ranking_orders_by_score_with_rank_ranges():
    gold, systems = _classifiers(n=600, k=4, seed=2)
    many = compare_many(gold, systems, all_pairs=True, n_resamples=2000, test="bootstrap")
    ranking = many.ranking()
    assert list(ranking["score"]) == sorted(many.scores.values(), reverse=True)
    assert (ranking["rank_low"] <= np.arange(1, 5)).all() and (ranking["rank_high"] >= np.arange(1, 5)).all()
    with pytest.raises(SettingsError, match="every pair"):
        compare_many(gold, systems, n_resamples=200, test="bootstrap").ranking()


@pytest.mark.parametrize("test", ["permutation", "t", "mcnemar"])
def test_other_tests_run_pair_by_pair(test):
    gold, systems = _classifiers(k=3)
    many = compare_many(gold, systems, test=test, n_resamples=500)
    for (a, b), res in many.results.items():
        assert res.p_value == sigcore.compare(gold, systems[a], systems[b], test=test, n_resamples=500,
                                              alternative="two-sided").p_value


@pytest.mark.slow  # BLEU resampled on WMT17's 3,004 segments
def test_bleu_of_each_system_is_sacrebleu_corpus_bleu():
    def read(name):
        with gzip.open(WMT / name, "rt", encoding="utf-8") as f:
            return f.read().splitlines()
    refs = read("newstest2017.ref.de.gz")
    names = ["LIUM-NMT.4900.de.gz", "uedin-nmt.4722.de.gz", "KIT.4950.de.gz"]
    systems = {name.split(".")[0]: read(name) for name in names}
    many = compare_many(refs, systems, metric="bleu", baseline="LIUM-NMT", n_resamples=200, compat="sacrebleu",
                        test="bootstrap")
    for name, hyps in systems.items():
        assert many.scores[name] == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score, abs=1e-9)  # on 0-100
    assert set(many.results) == {("uedin-nmt", "LIUM-NMT"), ("KIT", "LIUM-NMT")}


@pytest.mark.parametrize("kwargs, message", [
    ({"baseline": "nobody"}, "not one of the systems"),
    ({"baseline": "sys0", "all_pairs": True}, "Choose one"),
    ({"correction": "sidak"}, "unknown correction"),
])
def test_bad_settings_are_refused(kwargs, message):
    gold, systems = _classifiers(k=3)
    with pytest.raises(SettingsError, match=message):
        compare_many(gold, systems, **kwargs)
    with pytest.raises(SettingsError, match="at least 2"):
        compare_many(gold, {"only": systems["sys0"]}, test="bootstrap")


@pytest.mark.slow
def test_wmt17_against_lium_nmt_the_readme_decisions():
    """The README's example: all 16 WMT17 en-de systems against LIUM-NMT on BLEU, b = 1,000, seed 0, Holm."""
    def read(path):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return f.read().splitlines()
    files = sorted(p for p in WMT.glob("*.de.gz") if not p.name.startswith("newstest"))
    systems = {p.name.split(".")[0]: read(p) for p in files}
    many = compare_many(read(WMT / "newstest2017.ref.de.gz"), systems, metric="bleu", baseline="LIUM-NMT",
                        n_resamples=1000, test="bootstrap")
    worse = {"C-3MA", "PROMT-Rule-based", "TALP-UPC", "online-A", "online-F", "online-G", "RWTH-nmt-ensemble"}
    assert {a for (a, _) in many.results if many.significant(a, "LIUM-NMT")} == worse | {"uedin-nmt"}
    assert all(many.results[(a, "LIUM-NMT")].delta < 0 for a in worse)
    uedin, reranked = many.results[("uedin-nmt", "LIUM-NMT")], many.results[("LMU-nmt-reranked", "LIUM-NMT")]
    assert round(uedin.delta, 2) == 1.71 and (round(uedin.ci_low, 2), round(uedin.ci_high, 2)) == (1.32, 2.09)
    assert round(reranked.p_value, 3) == 0.015 and round(many.adjusted[("LMU-nmt-reranked", "LIUM-NMT")], 3) == 0.105


def test_a_family_too_large_for_memory_is_refused_before_any_work():
    gold, systems = _classifiers(k=8)  # 28 pairs and 8 systems at b = 10^7: 2.9 GB of resampled values
    with pytest.raises(SettingsError, match="GiB of resampled scores"):
        compare_many(gold, systems, all_pairs=True, n_resamples=10_000_000, test="bootstrap")


def test_the_table_gives_an_interval_of_delta_only_where_the_test_has_one():
    gold, systems = _classifiers(k=3)
    for test, has in (("bootstrap", True), ("t", True), ("mcnemar", False), ("sign", False)):
        table = compare_many(gold, systems, test=test, n_resamples=500).table()
        assert table["ci_low"].notna().all() == has and table["ci_high"].notna().all() == has, test
        if has:  # and then it brackets δ
            assert ((table["ci_low"] <= table["delta"]) & (table["delta"] <= table["ci_high"])).all()
