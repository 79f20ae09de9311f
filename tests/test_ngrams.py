"""The numpy n-gram counter and 13a tokenizer against independent references: Python Counters over the same
tokens, and sacreBLEU's own Tokenizer13a, on random text built to hit every rule and boundary."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from sigcore.metrics import ngrams, tokens


def _counter_matches(ref_segments, hyp_segments, order):
    """Clipped matches the textbook way: one Counter of n-grams per segment and order."""
    out = np.zeros((len(ref_segments), order))
    for s, (ref, hyp) in enumerate(zip(ref_segments, hyp_segments)):
        for n in range(1, order + 1):
            r = Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
            h = Counter(tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1))
            out[s, n - 1] = sum(min(c, r[g]) for g, c in h.items())
    return out


def _as_tokens(segments, vocabulary):
    ids = [t if t < vocabulary else vocabulary for seg in segments for t in seg]
    return ngrams.Tokens(np.array(ids, dtype=np.int64), np.array([len(s) for s in segments], dtype=np.int64))


SEGMENTS = st.lists(st.lists(st.integers(0, 6), max_size=12), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(st.data(), SEGMENTS, st.integers(1, 5), st.booleans())
def test_clipped_matches_equal_counters(data, ref_segments, order, dense):
    """Repeats, segments shorter than n, empty segments, tokens the reference lacks (id 6 here: outside the
    vocabulary 0..5), and both lookups: the dense table and the binary search."""
    n = len(ref_segments)
    hyps = [data.draw(st.lists(st.lists(st.integers(0, 6), max_size=12), min_size=n, max_size=n)) for _ in range(2)]
    vocabulary = 6
    ref_segments = [[t % vocabulary for t in seg] for seg in ref_segments]  # the reference's own tokens
    words = ngrams._BITMAP_WORDS
    try:
        ngrams._BITMAP_WORDS = words if dense else 0
        got = ngrams.clipped_matches(_as_tokens(ref_segments, vocabulary),
                                     [_as_tokens(h, vocabulary) for h in hyps], order, vocabulary)
    finally:
        ngrams._BITMAP_WORDS = words
    for g, h in zip(got, hyps):
        np.testing.assert_array_equal(g, _counter_matches(ref_segments, h, order))


def test_clipped_matches_with_a_wide_vocabulary_search_every_branch():
    """Thousands of distinct tokens per prefix: the binary search takes many rounds, queries end at both ends."""
    rng = np.random.default_rng(3)
    ref = [list(rng.integers(0, 3000, 400)) for _ in range(5)]
    hyp = [list(rng.integers(0, 3000, 300)) + seg[:50] for seg in ref]
    got = ngrams.clipped_matches(_as_tokens(ref, 3000), [_as_tokens(hyp, 3000)], 3, 3000)[0]
    np.testing.assert_array_equal(got, _counter_matches(ref, hyp, 3))


def test_ngram_totals():
    np.testing.assert_array_equal(ngrams.ngram_totals(np.array([0, 1, 3]), 3), [[0, 0, 0], [1, 0, 0], [3, 2, 1]])


# 13a's rules in a few characters: digits next to periods, commas and dashes, runs of them, padded punctuation,
# entities, <skipped>, newlines and a hyphen before one, Unicode spaces str.split() knows, non-ASCII letters
PIECES = st.sampled_from(list("a1.,-.,9 /:&$'\"(){}~`[]^_@") + ["&quot;", "&amp;", "&lt;", "&gt;", "<skipped>",
                                                                "-\n", "\n", "\u00a0", "\u2028", "\x1c", "é",
                                                                "İ", "..", ",,", "1.5", "3-4", "\t", "  "])
LINE = st.lists(PIECES, max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.lists(LINE, min_size=1, max_size=6))
def test_13a_tokens_equal_sacrebleus(lines):
    words, lengths = tokens._tokenize_13a(lines)
    expected = [Tokenizer13a()(line.rstrip()).split() for line in lines]
    assert lengths.tolist() == [len(e) for e in expected]
    assert words == [w for e in expected for w in e]


@pytest.mark.parametrize("line, expected", [
    ("a..b", "a . . b"), ("a..5", "a . .5"), ("1.5,2", "1.5,2"), ("x,.,y", "x , . , y"), ("3-4", "3 - 4"),
    ("A &amp; B", "A & B"), ("end.", "end ."), ("(1,000)", "( 1,000 )"),
])
def test_13a_worked_examples(line, expected):
    """Cases where the leftmost-match rule decides, and their sacreBLEU answers (checked in the next line)."""
    assert Tokenizer13a()(line) == expected
    assert tokens._tokenize_13a([line])[0] == expected.split()


def test_encode_gives_unknown_tokens_the_vocabularys_size():
    ref, (hyp,), size = tokens.encode((["a", "b", "a"], np.array([3])), [(["b", "z", "a"], np.array([3]))])
    assert size == 2 and ref.ids.tolist() == [0, 1, 0] and hyp.ids.tolist() == [1, 2, 0]
    codes = np.array([97, 98, 0x1F600])
    ref, (hyp,), size = tokens.encode((codes[:2], np.array([2])), [(codes, np.array([3]))])
    assert size == 2 and hyp.ids.tolist() == [0, 1, 2]
