"""sigcore.metrics.translation against sacreBLEU itself: real WMT17 data, resampled totals, edge cases, errors.

Data files are read as UTF-8 with a leading BOM dropped (online-A.0.de has one), split on "\\n" only,
a trailing "\\r" removed from each line and the empty string after the final newline dropped.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

from sigcore.errors import InputError, SettingsError
from sigcore.io.inputs import read_lines
from sigcore.metrics.translation import bleu_score, chrf_score, prepare_bleu, prepare_chrf

DATA = Path(__file__).resolve().parents[1] / "sample_data" / "wmt17_en_de"  # gzipped, in the project
SYSTEMS = ["online-A.0.de.gz", "online-B.0.de.gz", "uedin-nmt.4722.de.gz"]
TOL = 1e-9


@pytest.fixture(scope="module")
def wmt():
    refs = read_lines(DATA / "newstest2017.ref.de.gz")
    hyps = [read_lines(DATA / name) for name in SYSTEMS]
    bleu_none = prepare_bleu(refs, hyps, tokenize="none")
    bleu_13a = prepare_bleu(refs, hyps[:2])
    chrf = prepare_chrf(refs, hyps[:2])
    return dict(refs=refs, hyps=hyps, bleu_none=bleu_none, bleu_13a=bleu_13a, chrf=chrf)


def test_real_data_shapes(wmt):
    assert len(wmt["refs"]) == 3004 and all(len(h) == 3004 for h in wmt["hyps"])
    stats, _, _ = wmt["bleu_none"]
    assert [s.shape for s in stats] == [(3004, 10)] * 3 and all(s.dtype == np.float64 for s in stats)
    assert [s.shape for s in wmt["chrf"][0]] == [(3004, 18)] * 2


@pytest.mark.parametrize("key, tokenize", [("bleu_none", "none"), ("bleu_13a", "13a")])
def test_real_data_bleu_matches_corpus_bleu(wmt, key, tokenize):
    stats, score, options = wmt[key]
    assert options["tokenize"] == tokenize
    for s, hyps in zip(stats, wmt["hyps"]):
        expected = sacrebleu.corpus_bleu(hyps, [wmt["refs"]], tokenize=tokenize).score
        assert abs(score(s.sum(0)) - expected) <= TOL


def test_real_data_chrf_matches_corpus_chrf(wmt):
    stats, score, _ = wmt["chrf"]
    for s, hyps in zip(stats, wmt["hyps"]):
        assert abs(score(s.sum(0)) - sacrebleu.corpus_chrf(hyps, [wmt["refs"]]).score) <= TOL


@pytest.mark.parametrize("key", ["bleu_13a", "chrf"])
def test_resampled_totals_match_sacrebleu_row_by_row(wmt, key):
    stats, score, options = wmt[key]
    metric = BLEU(**options) if key.startswith("bleu") else CHRF(**options)
    rng = np.random.default_rng(12)
    n = len(wmt["refs"])
    w = rng.multinomial(n, np.full(n, 1 / n), size=50).astype(np.float64)
    for s in stats:
        totals = w @ s
        got = score(totals)
        assert got.shape == (50,)
        expected = [metric._compute_score_from_stats([int(x) for x in row]).score for row in totals]
        np.testing.assert_allclose(got, expected, rtol=0, atol=TOL)


@pytest.mark.parametrize("options", [{}, {"smooth_method": "none"}, {"smooth_method": "floor"},
                                     {"smooth_method": "add-k", "effective_order": True}])
def test_weighted_totals_equal_corpus_with_repeated_segments(wmt, options):
    refs, hyps = wmt["refs"][:40], wmt["hyps"][1][:40]
    stats, score, _ = prepare_bleu(refs, [hyps], **options)
    c_stats, c_score, _ = prepare_chrf(refs, [hyps], word_order=2)
    rng = np.random.default_rng(3)
    for _ in range(3):
        w = rng.multinomial(40, np.full(40, 1 / 40))
        rep_h = [h for h, k in zip(hyps, w) for _ in range(k)]
        rep_r = [r for r, k in zip(refs, w) for _ in range(k)]
        assert abs(score(w @ stats[0]) - BLEU(**options).corpus_score(rep_h, [rep_r]).score) <= TOL
        assert abs(c_score(w @ c_stats[0]) - sacrebleu.corpus_chrf(rep_h, [rep_r], word_order=2).score) <= TOL


REFS = ["the cat sat on the mat", "a quick brown fox jumps", "hello world", "Das ist gut .", ""]
CORPORA = {
    "empty hypotheses": ["", "", "", "", ""],
    "one empty hypothesis": ["the cat sat on the mat", "", "hello world", "das ist gut .", "x"],
    "short (brevity penalty)": ["the cat", "a quick", "hello", "Das", ""],
    "no 3- or 4-gram matches": ["cat the mat the", "fox brown quick a", "world hello", "gut ist", ""],
    "no match at all": ["zz yy", "qq", "rr ss tt", "uu", "vv"],
    "longer than reference": ["the cat sat on the mat and more words", "a quick brown fox jumps over",
                              "hello world hello world", "Das ist sehr gut .", "extra"],
    "exact copy": REFS,
}
BLEU_OPTIONS = [{}, {"smooth_method": "none"}, {"smooth_method": "floor"},
                {"smooth_method": "floor", "smooth_value": 0.5}, {"smooth_method": "add-k"},
                {"smooth_method": "add-k", "smooth_value": 2}, {"effective_order": True},
                {"smooth_method": "none", "effective_order": True}, {"max_ngram_order": 2},
                {"lowercase": True}, {"tokenize": "char"}, {"tokenize": "intl"}]
CHRF_OPTIONS = [{}, {"word_order": 2}, {"eps_smoothing": True}, {"word_order": 2, "eps_smoothing": True},
                {"lowercase": True}, {"whitespace": True}, {"beta": 1}, {"char_order": 3}]


def _check_against_sacrebleu(prepare, metric_class, gold, hyps, options):
    stats, score, resolved = prepare(gold, [hyps], **options)
    refs = [gold] if isinstance(gold[0], str) else gold
    expected = metric_class(**resolved).corpus_score(hyps, refs).score
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a zero division must not warn
        got = score(stats[0].sum(0))
    assert got.shape == () and abs(got - expected) <= TOL


@pytest.mark.parametrize("options", BLEU_OPTIONS, ids=lambda o: json.dumps(o))
@pytest.mark.parametrize("case", list(CORPORA))
def test_bleu_edge_cases(case, options):
    _check_against_sacrebleu(prepare_bleu, BLEU, REFS, CORPORA[case], options)
    for i in range(len(REFS)):  # one segment alone is sentence-level BLEU, where the edge cases bite
        _check_against_sacrebleu(prepare_bleu, BLEU, REFS[i:i + 1], CORPORA[case][i:i + 1], options)


@pytest.mark.parametrize("options", CHRF_OPTIONS, ids=lambda o: json.dumps(o))
@pytest.mark.parametrize("case", list(CORPORA))
def test_chrf_edge_cases(case, options):
    _check_against_sacrebleu(prepare_chrf, CHRF, REFS, CORPORA[case], options)
    for i in range(len(REFS)):
        _check_against_sacrebleu(prepare_chrf, CHRF, REFS[i:i + 1], CORPORA[case][i:i + 1], options)


MULTI = [REFS, ["the cat is on the mat", "quick brown foxes", None, "das ist sehr gut .", "nothing"]]


@pytest.mark.parametrize("options", [{}, {"effective_order": True}, {"smooth_method": "floor"}])
def test_bleu_multiple_references(options):
    for hyps in CORPORA.values():
        _check_against_sacrebleu(prepare_bleu, BLEU, MULTI, hyps, options)


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"eps_smoothing": True}])
def test_chrf_multiple_references(options):
    for hyps in CORPORA.values():
        _check_against_sacrebleu(prepare_chrf, CHRF, MULTI, hyps, options)


WORDS = st.sampled_from(["a", "b", "c", "the", "A", "B.", ","])
SENTENCE = st.lists(WORDS, max_size=7).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(SENTENCE, SENTENCE), min_size=1, max_size=5),
       st.sampled_from(BLEU_OPTIONS[:9]), st.sampled_from(CHRF_OPTIONS))
def test_random_small_corpora(pairs, bleu_options, chrf_options):
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    _check_against_sacrebleu(prepare_bleu, BLEU, refs, hyps, bleu_options)
    _check_against_sacrebleu(prepare_chrf, CHRF, refs, hyps, chrf_options)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=10, max_size=10), st.sampled_from(BLEU_OPTIONS[:9]))
def test_bleu_formula_on_arbitrary_counts(row, options):
    """Counts no corpus produces (total 0 before a later non-zero order) still follow sacreBLEU's loop."""
    order = options.get("max_ngram_order", 4)
    row = row[:2 + 2 * order]
    kwargs = {k: v for k, v in options.items() if k not in ("lowercase", "tokenize")}
    expected = BLEU(**kwargs)._compute_score_from_stats(list(row)).score
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isclose(bleu_score(np.array(row), **kwargs), expected, rel_tol=1e-12, abs_tol=TOL)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=18, max_size=18), st.booleans(), st.sampled_from([1, 2, 3]))
def test_chrf_formula_on_arbitrary_counts(row, eps_smoothing, beta):
    expected = CHRF(eps_smoothing=eps_smoothing, beta=beta)._compute_f_score(row)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = chrf_score(np.array(row), eps_smoothing=eps_smoothing, beta=beta)
    assert math.isclose(got, expected, rel_tol=1e-12, abs_tol=TOL)


def test_score_accepts_any_leading_shape():
    stats, score, _ = prepare_bleu(REFS, [CORPORA["longer than reference"]])
    totals = np.stack([stats[0].sum(0), np.zeros(10), stats[0][0]])
    flat = score(totals)
    assert flat.shape == (3,) and flat[1] == 0.0
    assert score(np.broadcast_to(totals, (2, 4, 3, 10))).shape == (2, 4, 3)
    np.testing.assert_array_equal(score(totals.reshape(3, 1, 10))[:, 0], flat)
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 10\)"):
        score(np.zeros((3, 9)))


def test_identical_systems_give_identical_stats_and_scores():
    hyps = CORPORA["one empty hypothesis"]
    for prepare in (prepare_bleu, prepare_chrf):
        (a, b), score, _ = prepare(REFS, [hyps, list(hyps)])
        np.testing.assert_array_equal(a, b)
        w = np.random.default_rng(0).multinomial(5, np.full(5, 0.2), size=20)
        np.testing.assert_array_equal(score(w @ a) - score(w @ b), 0.0)


def test_resolved_options_are_complete_json_and_round_trip():
    _, _, bleu = prepare_bleu(REFS, [REFS], smooth_method="floor", max_ngram_order=np.int64(3))
    assert bleu == {"tokenize": "13a", "lowercase": False, "smooth_method": "floor", "smooth_value": 0.1,
                    "max_ngram_order": 3, "effective_order": False}
    assert type(bleu["max_ngram_order"]) is int and json.loads(json.dumps(bleu)) == bleu
    assert prepare_bleu(REFS, [REFS], **bleu)[2] == bleu
    assert prepare_bleu(REFS, [REFS], smooth_value=0.3)[2]["smooth_value"] is None  # unused by 'exp'
    _, _, chrf = prepare_chrf(REFS, [REFS], word_order=2)
    assert chrf == {"char_order": 6, "word_order": 2, "beta": 2, "lowercase": False, "whitespace": False,
                    "eps_smoothing": False}
    assert prepare_chrf(REFS, [REFS], **chrf)[2] == chrf


def test_settings_errors():
    with pytest.raises(SettingsError, match=r"BLEU has no option 'tokenizer'.*Valid options: tokenize, "
                                            r"lowercase, smooth_method"):
        prepare_bleu(REFS, [REFS], tokenizer="13a")
    with pytest.raises(SettingsError, match=r"chrF has no option 'n_word'.*Valid options: char_order"):
        prepare_chrf(REFS, [REFS], n_word=2)
    with pytest.raises(SettingsError, match=r"tokenize='moses' is not known.*Valid values: none, zh, 13a"):
        prepare_bleu(REFS, [REFS], tokenize="moses")
    with pytest.raises(SettingsError, match=r"smooth_method='add-one' is not known.*floor, add-k, exp"):
        prepare_bleu(REFS, [REFS], smooth_method="add-one")
    with pytest.raises(SettingsError, match=r"max_ngram_order must be an integer >= 1, not 0"):
        prepare_bleu(REFS, [REFS], max_ngram_order=0)
    with pytest.raises(SettingsError, match=r"lowercase must be True or False, not 'yes'"):
        prepare_chrf(REFS, [REFS], lowercase="yes")
    with pytest.raises(SettingsError, match=r"beta must be a number > 0"):
        prepare_chrf(REFS, [REFS], beta=-1)


def test_input_errors():
    with pytest.raises(InputError, match=r"^system 2 has 4 segments but the references have 5\. Each system"):
        prepare_bleu(REFS, [REFS, REFS[:4]])
    with pytest.raises(InputError, match=r"^line 3: a segment of system 1 is 3.5 \(float\), not a str.*fillna"):
        prepare_chrf(REFS, [["a", "b", 3.5, "d", "e"]])
    missing, _, _ = prepare_chrf(REFS, [["a", "b", float("nan"), "d", "e"]])  # an empty output, as a blank line
    np.testing.assert_array_equal(missing[0], prepare_chrf(REFS, [["a", "b", "", "d", "e"]])[0][0])
    with pytest.raises(InputError, match=r"^line 2: a segment of the references is None"):
        prepare_bleu(["a", None, "c"], [["a", "b", "c"]])
    with pytest.raises(InputError, match=r"reference stream 2 has 4 segments but reference stream 1 has 5"):
        prepare_bleu([REFS, REFS[:4]], [REFS])
    with pytest.raises(InputError, match=r"`systems` must be a list of systems"):
        prepare_bleu(REFS, REFS)
    with pytest.raises(InputError, match=r"references must be a non-empty list"):
        prepare_chrf([], [[]])


# ---------------------------------------------------------------- chrF's statistics counted with numpy

def _sacrebleu_chrf(refs, hyps, **options):
    metric = CHRF(**options, references=[refs])
    return np.asarray(metric._extract_corpus_statistics(hyps, None), dtype=np.float64)


def _wmt17_every_system(segments=1000):
    """The reference and all 16 systems, their first ``segments`` lines (sacreBLEU's own counting, the
    reference here, takes a second and a half a system on all 3,004)."""
    refs = read_lines(DATA / "newstest2017.ref.de.gz")[:segments]
    return refs, [read_lines(p)[:segments] for p in sorted(DATA.glob("*.de.gz")) if not p.name.startswith("newstest")]


@pytest.mark.slow  # sacrebleu over every WMT17 system
def test_chrf_statistics_equal_sacrebleus_on_every_wmt17_system():
    refs, systems = _wmt17_every_system()
    stats, _, _ = prepare_chrf(refs, systems)
    for ours, hyps in zip(stats, systems):
        np.testing.assert_array_equal(ours, _sacrebleu_chrf(refs, hyps))


SEGMENT = st.lists(st.sampled_from(list("ab cA.\tßé😀\u00a0\u0301ΣİΑ\x1c") + ["ab", "ba "]), max_size=10).map("".join)


@settings(max_examples=150, deadline=None)
@given(pairs=st.lists(st.tuples(SEGMENT, SEGMENT, SEGMENT), min_size=1, max_size=8),
       char_order=st.integers(1, 8), lowercase=st.booleans(), whitespace=st.booleans())
def test_chrf_statistics_equal_sacrebleus_on_short_odd_segments(pairs, char_order, lowercase, whitespace):
    """Segments shorter than the order, empty references (no hypothesis n-gram counts then, as in sacreBLEU),
    repeats, case (a final sigma, a capital that lower-cases to two characters), combining marks, characters
    outside the BMP, non-breaking and other whitespace."""
    refs, hyp_a, hyp_b = (list(x) for x in zip(*pairs))
    options = {"char_order": char_order, "lowercase": lowercase, "whitespace": whitespace}
    stats, _, _ = prepare_chrf(refs, [hyp_a, hyp_b], **options)
    for ours, hyps in zip(stats, (hyp_a, hyp_b)):
        np.testing.assert_array_equal(ours, _sacrebleu_chrf(refs, hyps, **options))


def test_chrf_statistics_with_a_large_alphabet_and_high_orders():
    """600 distinct characters and orders up to 9: n-gram codes are built order by order, so nothing overflows."""
    many_chars = "".join(chr(0x4E00 + i) for i in range(600))
    refs = [many_chars[i:i + 40] for i in range(0, 600, 40)]
    hyps = [r[::-1] + r[:5] for r in refs]
    for char_order in (7, 9):
        stats, _, _ = prepare_chrf(refs, [hyps], char_order=char_order)
        np.testing.assert_array_equal(stats[0], _sacrebleu_chrf(refs, hyps, char_order=char_order))


# ---------------------------------------------------------------- BLEU's statistics counted with numpy

def _sacrebleu_bleu(refs, hyps, **options):
    metric = BLEU(**options, references=[refs])
    return np.asarray(metric._extract_corpus_statistics(hyps, None), dtype=np.float64)


@pytest.mark.slow  # sacrebleu over every WMT17 system
def test_bleu_statistics_equal_sacrebleus_on_every_wmt17_system():
    refs, systems = _wmt17_every_system()
    stats, _, _ = prepare_bleu(refs, systems)
    for ours, hyps in zip(stats, systems):
        np.testing.assert_array_equal(ours, _sacrebleu_bleu(refs, hyps))


@pytest.mark.parametrize("options", [{"tokenize": "none"}, {"tokenize": "intl"}, {"tokenize": "char"},
                                     {"lowercase": True}, {"max_ngram_order": 6}])
def test_bleu_statistics_equal_sacrebleus_with_other_settings(options):
    refs = read_lines(DATA / "newstest2017.ref.de.gz")[:400]
    hyps = read_lines(DATA / "online-B.0.de.gz")[:400]
    stats, _, _ = prepare_bleu(refs, [hyps], **options)
    np.testing.assert_array_equal(stats[0], _sacrebleu_bleu(refs, hyps, **options))
