"""The board's paired bootstrap: each task's items resampled apart (stratified), the same draws for every model,
in cache-sized blocks, on this machine's cores or a Dask scheduler's workers."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator

import numpy as np

from .._threads import WORKERS, one_blas_thread, pool
from ..contract import DEFAULT_RESAMPLES, DEFAULT_SEED, check_level, check_resamples, check_seed
from ..errors import ClusterError, SettingsError
from ..result import finite_delta
from ..statistics import intervals
from ..words import named
from .board import Board, task_shares
from .standings import Leaderboard

__all__ = ["CONNECT_TIMEOUT", "WORKERLESS", "bootstrap", "task_resamples", "standard_error"]

CONNECT_TIMEOUT = "20s"  # how long to try a Dask scheduler's address before telling the user
WORKERLESS = 30.0  # seconds a Dask scheduler may have no worker (all died) before the run stops and says so
_BLOCK_CELLS = 1 << 18  # draws per block: 2 MiB of them and of their counts stay in cache (twice 32 MiB's speed)
_EXACT = 1 << 24  # whole numbers below it are exact in float32, and so are sums of them below it


def bootstrap(board: Board, *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, weight: str = "tasks",
              per_task: bool = False, confidence_level: float | None = None, progress=None,
              scheduler: str | None = None) -> Leaderboard:
    """Resample each task's items with replacement (the same draws for every model: paired), b times, and take
    every model's task scores and aggregate on each resample, task by task, in bounded memory (b x models; with
    ``per_task``, every task's too, b x tasks x models, for :meth:`Leaderboard.delta` on one task). Task t draws
    from child t of ``SeedSequence(seed)``, so the same seed gives the same resamples with or without
    ``per_task``, on this machine's cores or on Dask's workers: ``scheduler``, a distributed scheduler's address
    (``pip install sigcore[dask]``), runs the tasks there. ``confidence_level`` keeps each task's percentile interval
    of every model's score at that level (:meth:`Leaderboard.task_intervals`) without keeping the tasks' resamples.
    ``progress(fraction done)`` is called after each task."""
    check_resamples(n_resamples)
    check_seed(seed)
    if confidence_level is not None:
        check_level(confidence_level)
    tasks = board.tasks
    task_weights = task_shares(board, weight)
    # each task's scores a power of two down where sums of them would overflow (1e308), its means multiplied back
    scaled = [intervals.power_scale(board.scores[t]) for t in tasks]
    task_scores = np.array([m.mean(axis=0) * scale for m, scale in scaled]).reshape(len(tasks), len(board.models))
    aggregate = task_weights @ task_scores
    _finite_deltas(board, task_scores, aggregate)
    streams = np.random.SeedSequence(seed).spawn(len(tasks))
    work = [(m, n_resamples, streams[k], board.clusters.get(t), _runs(board, t))
            for k, (t, (m, _)) in enumerate(zip(tasks, scaled))]
    resampled = np.zeros((n_resamples, len(board.models)))
    each = np.empty((n_resamples, len(tasks), len(board.models))) if per_task else None
    bounds = None if confidence_level is None else np.empty((2, len(tasks), len(board.models)))
    results = _on_dask(work, scheduler) if scheduler is not None else _in_order(work)
    for k, means in enumerate(results):  # summed in the tasks' order: the same floats wherever they were drawn
        if scaled[k][1] != 1:
            means = means * scaled[k][1]
        resampled += task_weights[k] * means
        if each is not None:
            each[:, k] = means
        if bounds is not None:
            bounds[:, k] = intervals.percentile(means, confidence_level, axis=0)
        if progress is not None:
            progress((k + 1) / len(tasks))
    return Leaderboard(board, weight, n_resamples, seed, task_scores, aggregate, resampled, each, bounds,
                       confidence_level)


def _finite_deltas(board: Board, task_scores: np.ndarray, aggregate: np.ndarray) -> None:
    """Every δ the board can show, between two models on a task or on the aggregate, a finite number, or the
    error a pair's δ gets (:func:`sigcore.result.finite_delta`), naming the two models whose δ is the widest."""
    for values, where in [*zip(task_scores, (f" on task {named(t)}" for t in board.tasks)), (aggregate, "")]:
        high, low = int(np.argmax(values)), int(np.argmin(values))
        finite_delta(float(values[high]), float(values[low]),
                     f" of model {named(board.models[high])} − model {named(board.models[low])}{where}")


def _runs(board: Board, task: str) -> int:
    """The runs every item of ``task`` has, where they have the same number (a guess that task_resamples checks)."""
    runs = board.epochs.get(task, (None, np.ones(1)))[1]
    return max(1, int(np.rint(runs.max())))


def task_resamples(matrix: np.ndarray, n_resamples: int, stream: np.random.SeedSequence,
                   clusters: np.ndarray | None = None, runs: int = 1) -> np.ndarray:
    """(b, models): every model's mean over the same n items drawn with replacement, b times, from ``stream``
    (row after row of ``integers(0, n, n)``, as a loop over resamples draws them), in blocks of rows whose draws
    stay in cache (a block's size depends on n alone). With ``clusters`` (each item's, 0..k-1), k clusters are drawn
    instead, each with all its items, and the mean is over the items drawn (Σ count x / Σ count, as a clustered
    bootstrap of a mean). Where every score is a whole number of ``runs``-ths (right/wrong, or averaged over
    ``runs`` epochs), the sums are taken in whole numbers, exact in float32 below 2**24 (twice float64's speed),
    each mean rounded once; other scores in float64."""
    rng = np.random.default_rng(stream)
    k = len(matrix) if clusters is None else int(clusters.max()) + 1
    whole = np.rint(matrix * runs)
    counted = np.array_equal(whole / runs, matrix)  # whole numbers of runs-ths: summed as whole numbers
    weights, scale = (whole, runs) if counted else (matrix, 1)
    if clusters is not None:  # each cluster's sums, and its size as a last column: a cluster is drawn whole
        sums = np.zeros((k, matrix.shape[1]))
        np.add.at(sums, clusters, weights)
        weights = np.column_stack([sums, np.bincount(clusters, minlength=k)])
    exact = np.array_equal(np.rint(weights), weights) and k < _EXACT and k * np.abs(weights).max(initial=0) < _EXACT
    weights = weights.astype(np.float32) if exact else weights
    step = max(1, _BLOCK_CELLS // max(k, 1))
    offsets = (np.arange(step) * k)[:, None]
    sums = np.empty((n_resamples, weights.shape[1]))
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        # k units drawn with replacement, counted: multinomial counts, at the speed of integers and bincount
        drawn = rng.integers(0, k, size=(size, k))
        drawn += offsets[:size]
        counts = np.bincount(drawn.ravel(), minlength=size * k).reshape(size, k).astype(weights.dtype)
        sums[start:start + size] = counts @ weights
    return sums / (k * scale) if clusters is None else sums[:, :-1] / (sums[:, -1:] * scale)


def _in_order(work: list) -> Iterator[np.ndarray]:
    """Each task's resamples, in order, a few tasks ahead on every core (numpy releases the GIL), BLAS on one thread
    (:func:`_alone`)."""
    if WORKERS == 1 or len(work) < 2:
        yield from (_alone(*w) for w in work)
        return
    pending: deque = deque()
    with one_blas_thread():  # a task per core, each its own products
        for w in work:
            pending.append(pool().submit(task_resamples, *w))
            if len(pending) > WORKERS:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _alone(*work) -> np.ndarray:
    """:func:`task_resamples` with BLAS on one thread, wherever it runs: OpenBLAS's sums of products in float64
    differ in their last bits with its number of threads, and a task's resamples must not."""
    with one_blas_thread():
        return task_resamples(*work)


def _on_dask(work: list, scheduler: str) -> Iterator[np.ndarray]:
    """Each task's resamples computed on a Dask distributed scheduler's workers, returned in the tasks' order."""
    try:
        from distributed import Client
    except ImportError:
        raise SettingsError("a scheduler needs Dask's distributed scheduler",
                            hint="pip install 'sigcore[dask]' (dask and distributed), or leave the scheduler out."
                            ) from None
    try:
        client = Client(scheduler, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise SettingsError(f"cannot reach the Dask scheduler at {scheduler}: {e}",
                            hint="Give the address a running scheduler prints (tcp://host:8786).") from None
    with client:
        futures = client.map(_alone, *zip(*work), pure=False)
        for k, future in enumerate(futures):
            yield _awaited(client, future, scheduler, k, len(futures))
            future.release()  # one task's b x models at a time on this side


def _awaited(client, future, scheduler: str, k: int, n: int) -> np.ndarray:
    """A task's result; a :class:`ClusterError` once the scheduler has had no worker for :data:`WORKERLESS`
    seconds (a scheduler waits for a worker forever, silently), or where the scheduler killed the task's
    workers one after another or went away."""
    from distributed import KilledWorker

    alone = None
    while True:
        try:
            return future.result(timeout=min(1.0, WORKERLESS))
        except TimeoutError:
            pass
        except KilledWorker as e:
            raise ClusterError(f"the Dask workers at {scheduler} died running task {k + 1} of {n} ({e})",
                               hint="Give the workers more memory, or run without --scheduler.") from None
        except OSError as e:  # the scheduler's connection closed
            raise ClusterError(f"the Dask scheduler at {scheduler} went away at task {k + 1} of {n} ({e})",
                               hint="Start it again, or run without --scheduler.") from None
        try:
            workers = len(client.scheduler_info(n_workers=-1)["workers"])
        except OSError as e:
            raise ClusterError(f"the Dask scheduler at {scheduler} went away at task {k + 1} of {n} ({e})",
                               hint="Start it again, or run without --scheduler.") from None
        now = time.monotonic()
        alone = None if workers else alone or now
        if alone is not None and now - alone >= WORKERLESS:
            raise ClusterError(f"the Dask scheduler at {scheduler} has had no worker for {WORKERLESS:g} s, at task "
                               f"{k + 1} of {n}: its workers died or left",
                               hint="Start workers (dask worker ADDRESS), or run without --scheduler.")


def standard_error(board: Board, weight: str = "tasks") -> np.ndarray:
    """Each model's standard error of its aggregate by the formula (the tasks' item variances over their sizes,
    weighted), what the bootstrap's spread estimates: √(Σ_t w_t² s_t² / n_t), s_t² with divisor n_t."""
    sizes = np.array([len(board.items[t]) for t in board.tasks], dtype=np.float64)
    w = task_shares(board, weight)
    variances = np.array([board.scores[t].var(axis=0) for t in board.tasks])  # (tasks, models)
    return np.sqrt(((w ** 2 / sizes)[:, None] * variances).sum(axis=0))


