"""The engine's worker threads, one per core: numpy releases the GIL in its array loops, so work split into
chunks (resamples) or by system (n-gram matching) runs on every core."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

WORKERS = os.cpu_count() or 1
T, R = TypeVar("T"), TypeVar("R")


@functools.cache
def pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(WORKERS, thread_name_prefix="sigcore")


def map_all(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """``[fn(x) for x in items]``, on every core when there is more than one item."""
    if WORKERS == 1 or len(items) < 2:
        return [fn(x) for x in items]
    return list(pool().map(fn, items))


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS (a matrix product's library) on one thread while the engine's threads each run their own products: a
    thread per core of ours, each with BLAS's threads spinning beside it, took the board's resampling from 0.5 s to
    1 to 4 s on 2 cores (bench/leaderboard.py). Process-wide, for as long as the block runs."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1, user_api="blas"):
        yield
