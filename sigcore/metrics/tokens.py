"""Segments as integer tokens for :mod:`sigcore.metrics.ngrams`: BLEU's words, chrF's characters.

Words are sacreBLEU's: its tokenizer per segment, except for the default '13a', which is applied to all
segments at once with numpy and gives the same tokens (tested on WMT17 lines and on random text). '13a'
(mteval-v13a, as sacreBLEU's ``Tokenizer13a``) pads the characters of one class with spaces and then runs three
regular expressions, each replacing its leftmost non-overlapping matches: the match at j is taken unless the one
at j - 1 was, so within a run of candidate positions every other one is; that is what :func:`_alternate` computes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain

import numpy as np
import pandas as pd

from .ngrams import Tokens

__all__ = ["words", "characters", "encode"]

_SPACE, _NEWLINE = ord(" "), ord("\n")
# 13a's first pattern, [\{-\~\[-\` -\&\(-\+\:-\@\/], by ASCII code: these characters are padded with spaces
# (the space itself too, which changes nothing, so it is left out)
_PADDED = np.zeros(128, dtype=bool)
for _lo, _hi in ((0x7B, 0x7E), (0x5B, 0x60), (0x21, 0x26), (0x28, 0x2B), (0x3A, 0x40), (0x2F, 0x2F)):
    _PADDED[_lo:_hi + 1] = True


def words(lines: Sequence[str], preprocess: Callable[[str], str], tokenize: str, lowercase: bool
          ) -> tuple[list[str], np.ndarray]:
    """All tokens of ``lines`` end to end and each line's number of tokens, as sacreBLEU's BLEU splits them
    (``preprocess`` is its ``BLEU._preprocess_segment``: lower-casing, then the tokenizer)."""
    if tokenize == "13a":
        return _tokenize_13a([line.lower() if lowercase else line for line in lines])
    split = [preprocess(line).split() for line in lines]
    return list(chain.from_iterable(split)), np.fromiter(map(len, split), dtype=np.int64, count=len(split))


def characters(lines: Sequence[str], lowercase: bool, whitespace: bool) -> tuple[np.ndarray, np.ndarray]:
    """chrF's characters of ``lines`` (code points, end to end; whitespace dropped unless ``whitespace``, as
    sacreBLEU's ``"".join(line.split())``) and each line's number of characters."""
    if lowercase:  # line by line: a final sigma is told by the characters after it
        lines = [line.lower() for line in lines]
    codes = np.frombuffer("".join(lines).encode("utf-32-le"), dtype=np.uint32)
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    if not whitespace:
        keep = ~_is_space(codes)
        codes = codes[keep]
        lengths = np.bincount(np.repeat(np.arange(len(lines)), lengths)[keep], minlength=len(lines))
    return codes.astype(np.int64), lengths.astype(np.int64)


def encode(reference: tuple, hypotheses: Sequence[tuple]) -> tuple[Tokens, list[Tokens], int]:
    """Ids into the reference's vocabulary (any other token: the vocabulary's size) for tokens given as
    (words or code points, lengths); returns the reference's Tokens, the hypotheses' and the vocabulary's size."""
    streams = [reference, *hypotheses]
    if isinstance(reference[0], np.ndarray):  # code points: a lookup table
        top = max(int(values.max(initial=0)) for values, _ in streams) + 1
        present = np.flatnonzero(np.bincount(reference[0], minlength=top))
        size, table = len(present), np.full(top, len(present), dtype=np.int64)
        table[present] = np.arange(size)
        ids = [table[values] for values, _ in streams]
    else:  # words: one hash over every stream's; codes follow first appearance, so the reference's come first
        codes = pd.factorize(np.array(list(chain.from_iterable(v for v, _ in streams)), dtype=object))[0]
        size = int(codes[:len(reference[0])].max(initial=-1)) + 1
        ids = np.split(np.minimum(codes, size).astype(np.int64), np.cumsum([len(v) for v, _ in streams])[:-1])
    tokens = [Tokens(i, lengths) for i, (_, lengths) in zip(ids, streams)]
    return tokens[0], tokens[1:], size


def _tokenize_13a(lines: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """sacreBLEU's Tokenizer13a on every line at once (lines joined by newlines, each padded as 13a pads it)."""
    padded = []
    for line in lines:  # the language-independent part, as Tokenizer13a.__call__ after BLEU's rstrip()
        line = line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        padded.append(f" {line} ")
    text = np.frombuffer("\n".join(padded).encode("utf-32-le"), dtype=np.uint32)
    padded_class = np.flatnonzero(_PADDED[np.minimum(text, 127)] & (text < 128))
    text = _insert_spaces(text, padded_class, padded_class + 1)  # ([\{-\~...]) -> " \1 "
    # ([^0-9])([\.,]) -> "\1 \2 ": a space before and after the period or comma
    match = _alternate(~_digit(text[:-1]) & _period_or_comma(text[1:]))
    text = _insert_spaces(text, match + 1, match + 2)
    # ([\.,])([^0-9]) -> " \1 \2": a space before the period or comma and after it
    match = _alternate(_period_or_comma(text[:-1]) & ~_digit(text[1:]))
    text = _insert_spaces(text, match, match + 1)
    # ([0-9])(-) -> "\1 \2 ": a space after the digit and after the dash (these matches cannot overlap)
    match = np.flatnonzero(_digit(text[:-1]) & (text[1:] == ord("-")))
    text = _insert_spaces(text, match + 1, match + 2)
    space = _is_space(text)
    starts = np.flatnonzero(~space & np.concatenate(([True], space[:-1])))
    line_of = np.cumsum(text == _NEWLINE)
    return text.tobytes().decode("utf-32-le").split(), np.bincount(line_of[starts], minlength=len(lines))


def _alternate(candidate: np.ndarray) -> np.ndarray:
    """Where leftmost non-overlapping two-character matches start: of a run of candidate starts, every other one."""
    at = np.flatnonzero(candidate)
    run_start = np.concatenate(([True], np.diff(at) != 1))
    first = np.maximum.accumulate(np.where(run_start, at, 0))
    return at[(at - first) % 2 == 0]


def _insert_spaces(text: np.ndarray, *positions: np.ndarray) -> np.ndarray:
    """``text`` with a space inserted before each of the given indices (more spaces in a row change no token)."""
    return np.insert(text, np.concatenate(positions), _SPACE)


def _digit(text: np.ndarray) -> np.ndarray:
    return (text >= ord("0")) & (text <= ord("9"))


def _period_or_comma(text: np.ndarray) -> np.ndarray:
    return (text == ord(".")) | (text == ord(","))


def _is_space(text: np.ndarray) -> np.ndarray:
    """str.isspace() of each code point, as str.split() decides (asked of Python once per distinct one)."""
    table = np.zeros(int(text.max(initial=0)) + 1, dtype=bool)
    distinct = np.flatnonzero(np.bincount(text))
    table[distinct] = [chr(c).isspace() for c in distinct]
    return table[text]
