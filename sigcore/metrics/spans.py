"""Chunks (entities) from BIO / IOB1 / BIOES tag sequences, CoNLL style.

A chunk starts and ends by the rules of the CoNLL-2000 shared task's ``conlleval`` script
(Tjong Kim Sang & Buchholz 2000, "Introduction to the CoNLL-2000 Shared Task: Chunking"), which
``seqeval`` also follows in its default (non-strict) mode. The rules are lenient: an ``I-`` after ``O``
or after a chunk of another type opens a new chunk, and a change of type closes the running one, so IOB1,
IOB2 (BIO) and BIOES tags are all read the same way. A predicted chunk is correct only when its
type, first and last token all match a gold chunk.

A tag is ``O`` or one of ``B I E S`` optionally followed by ``-TYPE`` or ``_TYPE`` (``B-PER``, ``I_LOC``,
``S``). Anything else (lower case, BILOU's ``U-``/``L-``, an empty string) raises :class:`InputError`
instead of being guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..errors import GOLD, SYSTEM, InputError
from ..words import CONTROL, shown

__all__ = ["parse_tag", "entities", "sentence_entities", "match_counts"]

# a type holds no whitespace nor an invisible character: "B-PER\u200b" would be a type of its own, silently
_TAG = re.compile(rf"O|([BIES])(?:[-_]([^\s{CONTROL.pattern[1:-1]}]+))?")
# (previous prefix, prefix) pairs that open a chunk whatever the types (conlleval's startOfChunk).
_OPENS = {("E", "E"), ("E", "I"), ("S", "E"), ("S", "I"), ("O", "E"), ("O", "I")}


def parse_tag(tag: str) -> tuple[str, str]:
    """Split a tag into (prefix, type): ``"B-PER" -> ("B", "PER")``, ``"O" -> ("O", "")``, ``"I" -> ("I", "")``."""
    match = _TAG.fullmatch(tag) if isinstance(tag, str) else None
    if match is None:
        hidden = isinstance(tag, str) and (CONTROL.search(tag) or re.search(r"\s", tag))
        raise InputError(
            f"{shown(tag)} is not a BIO/BIOES tag"
            + (": it holds whitespace or an invisible character" if hidden else ""),
            hint="Use O, or B/I/E/S followed by '-' and the type (B-PER, I-PER, E-PER, S-LOC); "
                 "for BILOU tags rename U- to S- and L- to E-.")
    if tag == "O":
        return "O", ""
    return match.group(1), match.group(2) or ""


def _ends(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    """conlleval's endOfChunk: did a chunk end just before this token?"""
    if prev_tag in ("E", "S"):
        return True
    if prev_tag in ("B", "I") and tag in ("B", "S", "O"):
        return True
    return prev_tag != "O" and prev_type != type_


def _starts(prev_tag: str, tag: str, prev_type: str, type_: str) -> bool:
    """conlleval's startOfChunk: does a chunk start at this token?"""
    if tag in ("B", "S") or (prev_tag, tag) in _OPENS:
        return True
    return tag != "O" and prev_type != type_


def entities(tags: Sequence[str], parsed_tags: dict | None = None) -> set[tuple[str, int, int]]:
    """The chunks of one sentence as ``(type, start, end)``, 0-based token indices, ``end`` inclusive;
    ``parsed_tags``, a dict shared between calls, keeps each tag's :func:`parse_tag` split.

    >>> sorted(entities(["B-PER", "I-PER", "O", "I-LOC", "E-LOC", "S-ORG"]))
    [('LOC', 3, 4), ('ORG', 5, 5), ('PER', 0, 1)]
    """
    found: set[tuple[str, int, int]] = set()
    prev_tag, prev_type, start = "O", "", 0
    known = {} if parsed_tags is None else parsed_tags  # a corpus has a few kinds of tag: each parsed once
    parsed = []
    for position, tag in enumerate(tags, start=1):
        split = known.get(tag) if isinstance(tag, str) else None
        if split is None:
            try:
                split = parse_tag(tag)
            except InputError as error:
                raise InputError(f"{error.what} (token {position})", hint=error.hint) from None
            if isinstance(tag, str):
                known[tag] = split
        parsed.append(split)
    # A closing "O" flushes the chunk that runs to the end of the sentence.
    for i, (tag, type_) in enumerate(parsed + [("O", "")]):
        if _ends(prev_tag, tag, prev_type, type_):
            found.add((prev_type, start, i - 1))
        if _starts(prev_tag, tag, prev_type, type_):
            start = i
        prev_tag, prev_type = tag, type_
    return found


def sentence_entities(sentences: Sequence[Sequence[str]], system: int = GOLD) -> list[set[tuple[str, int, int]]]:
    """The chunks of every sentence; a bad sentence or tag is reported with its 1-based sentence number and the
    ``system`` whose it is (:data:`~sigcore.errors.GOLD`, or system k)."""
    found, parsed_tags = [], {}
    for i, sentence in enumerate(sentences, start=1):
        if isinstance(sentence, (str, bytes)) or not isinstance(sentence, (Sequence, np.ndarray)):
            raise InputError(f"sentence {i} of {SYSTEM} is not a list of tags", line=i, system=system,
                             hint="Give each sentence as a list of tags, e.g. [['B-PER', 'I-PER', 'O'], ['O']].")
        try:
            found.append(entities(sentence, parsed_tags))
        except InputError as error:
            raise InputError(f"{error.what} in sentence {i} of {SYSTEM}", line=i, system=system,
                             hint=error.hint) from None
    return found


def match_counts(gold: list[set], predicted: list[set]) -> np.ndarray:
    """Per-sentence ``[tp, fp, fn]`` (float64, shape (n, 3)): exact matches, spurious and missed chunks."""
    tp = np.array([len(g & p) for g, p in zip(gold, predicted)], dtype=np.float64)
    fp = np.array([len(p) for p in predicted], dtype=np.float64) - tp
    fn = np.array([len(g) for g in gold], dtype=np.float64) - tp
    return np.column_stack([tp, fp, fn]).reshape(len(gold), 3)
