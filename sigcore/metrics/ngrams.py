"""Clipped n-gram matches of hypotheses against one reference per segment, counted with numpy.

BLEU's and chrF's statistics need, per segment and order n, Σ over the hypothesis's n-grams g of
min(count of g in the hypothesis, count of g in the reference): the "clipped" matches of Papineni et al.
(2002). sacreBLEU counts them with a Python ``Counter`` per segment; here all segments of a system at once.

Tokens (words or characters) arrive as integer ids into the reference's vocabulary, laid end to end, with
each segment's length; a hypothesis token absent from the reference has the id ``vocabulary``. The
reference's n-grams get codes order by order: an n-gram is its (n-1)-gram prefix's code and one more token,
so codes stay small whatever the vocabulary or n, and the codes of one segment stay together. A hypothesis
n-gram is found from its prefix's code and its last token: where the vocabulary is small (characters), by the
rank of the token's bit in a bitmap of the prefix's extensions; otherwise by a binary search among the few
reference n-grams extending the same prefix.
"Absent" is one more code at every order, so nothing needs masking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .._threads import map_all

__all__ = ["Tokens", "clipped_matches", "ngram_totals"]

_BITMAP_WORDS = 1 << 21  # 32 MiB at most for an order's bitmaps (with their running counts)


@dataclass(frozen=True)
class Tokens:
    """The tokens of segments laid end to end: ``ids`` (int64 in 0..vocabulary) and each segment's ``lengths``."""
    ids: np.ndarray
    lengths: np.ndarray

    def positions(self) -> tuple[np.ndarray, np.ndarray]:
        """Each token's segment, and how many tokens its segment has from it on (itself included)."""
        ends = np.cumsum(self.lengths)
        segment = np.repeat(np.arange(len(self.lengths), dtype=np.int64), self.lengths)
        return segment, np.repeat(ends, self.lengths) - np.arange(len(self.ids), dtype=np.int64)


def ngram_totals(lengths: np.ndarray, order: int) -> np.ndarray:
    """(segments, order): how many n-grams of each order 1..``order`` segments of these lengths have."""
    return np.maximum(np.asarray(lengths)[:, None] - np.arange(order)[None, :], 0)


@dataclass(frozen=True)
class _Order:
    """The reference's n-grams of one order sorted by (prefix code, last token); an n-gram's code is its index,
    and len(last) is the code of every n-gram the reference lacks."""
    start: np.ndarray  # start[p]:start[p + 1] are the n-grams extending prefix p (p = absent: none)
    last: np.ndarray  # each n-gram's last token
    count: np.ndarray  # its count in its segment's reference
    segment: np.ndarray  # its segment
    bits: np.ndarray | None  # per prefix, its words of a bitmap of the last tokens extending it (where small)
    base: np.ndarray | None  # per prefix and word, the code of its word's first extension


def clipped_matches(reference: Tokens, hypotheses: Sequence[Tokens], order: int, vocabulary: int) -> list[np.ndarray]:
    """For each hypothesis, a (segments, order) float array of clipped n-gram matches, n = 1..``order``.

    Token ids are 0..``vocabulary`` - 1 for the reference's tokens and ``vocabulary`` for any other."""
    orders = _index(reference, order, vocabulary)
    return map_all(lambda h: _matches(h, orders, len(reference.lengths), vocabulary), hypotheses)


def _index(reference: Tokens, order: int, vocabulary: int) -> list[_Order]:
    segment, left = reference.positions()
    columns = vocabulary + 1
    prefix, n_prefixes = segment, len(reference.lengths)  # the 0-gram's code is its segment
    orders = []
    for k in range(order):
        inside = left > k
        keys, code, count = np.unique(prefix[inside] * columns + _next(reference.ids, k)[inside],
                                      return_inverse=True, return_counts=True)
        start = np.searchsorted(keys // columns, np.arange(n_prefixes + 2))  # the absent prefix extends nothing
        owner = np.empty(len(keys), dtype=np.int64)
        owner[code] = segment[inside]
        last = keys % columns
        bits = base = None
        words = (columns + 63) // 64
        if (n_prefixes + 1) * words <= _BITMAP_WORDS:  # a bitmap per prefix: a lookup instead of a search
            bits = np.zeros((n_prefixes + 1) * words, dtype=np.uint64)
            np.add.at(bits, keys // columns * words + (last >> 6),  # distinct bits: adding is or-ing
                      np.uint64(1) << (last & 63).astype(np.uint64))
            counts = np.bitwise_count(bits.reshape(n_prefixes + 1, words)).astype(np.int64)
            base = (start[:-1, None] + np.cumsum(counts, axis=1) - counts).ravel()
        orders.append(_Order(start, last, count, owner, bits, base))
        prefix = np.full(len(reference.ids), len(keys), dtype=np.int64)
        prefix[inside] = code
        n_prefixes = len(keys)
    return orders


def _matches(hypothesis: Tokens, orders: list[_Order], n_segments: int, vocabulary: int) -> np.ndarray:
    segment, left = hypothesis.positions()
    ids = np.concatenate([hypothesis.ids, np.full(len(orders), vocabulary)])  # ids[i + k] past the end: absent
    out = np.zeros((n_segments, len(orders)))
    at, prefix = np.arange(len(hypothesis.ids)), segment  # the positions whose n-gram may still match
    for k, ref in enumerate(orders):
        last = np.where(left > k, ids[at + k], vocabulary)  # past its segment's end: absent
        code = _rank(ref, prefix, last) if ref.bits is not None else _search(ref, prefix, last)
        found = np.bincount(code, minlength=len(ref.count) + 1)[:-1]
        out[:, k] = np.bincount(ref.segment, weights=np.minimum(found, ref.count), minlength=n_segments)
        alive = code < len(ref.count)  # an n-gram the reference lacks has no longer n-gram it has
        if alive.sum() < 0.8 * len(alive):  # dropping the dead is worth a pass once enough have died
            at, code, left = at[alive], code[alive], left[alive]
        prefix = code
    return out


def _rank(ref: _Order, prefix: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Each (prefix, last token)'s code from the prefix's bitmap: its word's first code plus the set bits below."""
    cell = prefix * (len(ref.bits) // (len(ref.start) - 1)) + (last >> 6)
    bits, bit = np.take(ref.bits, cell), (last & 63).astype(np.uint64)
    code = np.take(ref.base, cell) + np.bitwise_count(bits & ((np.uint64(1) << bit) - np.uint64(1)))
    return np.where((bits >> bit) & np.uint64(1), code, len(ref.last))


def _search(ref: _Order, prefix: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Each (prefix, last token)'s code: a lower-bound binary search run on all queries at once, each among
    its prefix's extensions (most prefixes have one or none, so most queries need no search)."""
    lo, end = ref.start[prefix], ref.start[prefix + 1]
    live = np.flatnonzero(lo < end)
    lo, end, last = lo[live], end[live], last[live]
    wide = np.flatnonzero(end - lo > 1)
    if len(wide):
        low, high, target = lo[wide], end[wide], last[wide]
        while (active := low < high).any():
            mid = (low + high) >> 1
            less = ref.last[np.minimum(mid, len(ref.last) - 1)] < target
            low, high = np.where(active & less, mid + 1, low), np.where(active & ~less, mid, high)
        lo[wide] = low
    hit = lo < end
    hit[hit] = ref.last[lo[hit]] == last[hit]
    code = np.full(len(prefix), len(ref.last), dtype=np.int64)
    code[live[hit]] = lo[hit]
    return code


def _next(ids: np.ndarray, k: int) -> np.ndarray:
    """ids[i + k] at position i (0 past the end; callers mask those positions)."""
    out = np.zeros(len(ids), dtype=np.int64)
    out[:max(len(ids) - k, 0)] = ids[k:]
    return out
