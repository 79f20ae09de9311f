"""Chunk extraction against seqeval's get_entities (the conlleval rules) on random and tricky tag sequences."""

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics.sequence_labeling import get_entities

from sigcore.errors import InputError
from sigcore.metrics.spans import entities, parse_tag

TAGS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC", "B", "I", "E", "S"]


def reference(tags):
    """seqeval's chunks, with its "_" for an untyped chunk written as "" like sigcore."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {("" if t == "_" else t, start, end) for t, start, end in get_entities(list(tags))}


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TAGS), max_size=12))
def test_entities_equal_seqeval_on_random_tags(tags):
    assert entities(tags) == reference(tags)


@pytest.mark.parametrize("tags, expected", [
    (["O", "I-PER", "I-PER", "O"], {("PER", 1, 2)}),                       # IOB1: I- after O opens a chunk
    (["B-PER", "I-LOC", "I-LOC"], {("PER", 0, 0), ("LOC", 1, 2)}),        # a type switch closes and opens
    (["I-PER", "B-PER", "I-PER"], {("PER", 0, 0), ("PER", 1, 2)}),        # IOB1: B- splits same-type chunks
    (["B-PER", "E-PER", "S-LOC", "E-LOC"], {("PER", 0, 1), ("LOC", 2, 2), ("LOC", 3, 3)}),
    (["E-PER", "E-PER"], {("PER", 0, 0), ("PER", 1, 1)}),                # E after E starts anew
    (["O", "O", "O"], set()),
    ([], set()),
    (["B-PER", "I-PER"], {("PER", 0, 1)}),                                # a chunk running to the end
    (["B-ORG-X", "I-ORG-X"], {("ORG-X", 0, 1)}),                          # '-' inside a type is kept
])
def test_tricky_sequences(tags, expected):
    assert entities(tags) == expected
    assert entities(tags) == reference(tags)


def test_underscore_separator_reads_like_hyphen():
    tags = ["B_PER", "I_PER", "O", "B_LOC", "I-LOC"]
    assert entities(tags) == entities([t.replace("_", "-") for t in tags]) == {("PER", 0, 1), ("LOC", 3, 4)}


def test_parse_tag():
    assert parse_tag("B-PER") == ("B", "PER")
    assert parse_tag("O") == ("O", "")
    assert parse_tag("S") == ("S", "")


@pytest.mark.parametrize("tag", ["b-PER", "U-PER", "L-LOC", "", "B-", "X", 3, None])
def test_bad_tags_are_refused_with_position(tag):
    with pytest.raises(InputError, match=r"is not a BIO/BIOES tag \(token 2\)") as info:
        entities(["O", tag])
    assert "S-" in info.value.hint
