"""The board's per-task work on Dask's distributed scheduler (sigcore[dask]): on a LocalCluster of two worker
processes, the same resamples, to the last bit, as the single-process run for the same seed."""

import numpy as np
import pandas as pd
import pytest

from sigcore import leaderboard
from sigcore.__main__ import main
from sigcore.errors import SettingsError
from sigcore.leaderboard import resamples

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.slow


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    rows = []
    for t, n in enumerate((50, 80, 120, 30, 200)):
        hard = rng.normal(0, 1, n)
        for m, skill in enumerate((0.0, 0.3, 0.5)):
            right = rng.random(n) < 1 / (1 + np.exp(-(hard + skill)))
            rows += [(f"m{m}", f"task{t}", str(i), float(r)) for i, r in enumerate(right)]
    return pd.DataFrame(rows, columns=["model", "task", "item", "score"])


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as c:
        yield c


def test_the_dask_run_is_the_single_process_run(cluster, tmp_path, capsys):
    board = leaderboard.from_table(_frame())
    here = leaderboard.bootstrap(board, n_resamples=3_000, seed=7, per_task=True)
    done = []
    there = leaderboard.bootstrap(board, n_resamples=3_000, seed=7, per_task=True, scheduler=cluster.scheduler_address,
                                  progress=done.append)
    assert np.array_equal(here.resampled, there.resampled) and np.array_equal(here.resampled_tasks,
                                                                               there.resampled_tasks)
    assert done == pytest.approx([(k + 1) / 5 for k in range(5)])
    assert here.table("m0").equals(there.table("m0"))
    # scores that are not whole numbers are summed in float64 by BLAS, whose last bits change with its threads
    # (OpenBLAS, 600 items): on one thread on either side
    rng = np.random.default_rng(2)
    floats = leaderboard.from_table(pd.DataFrame([(f"m{m}", f"task{t}", str(i), rng.random()) for t in range(2)
                                                  for m in range(3) for i in range(600)],
                                                 columns=["model", "task", "item", "score"]))
    assert np.array_equal(leaderboard.bootstrap(floats, n_resamples=1_000, seed=3).resampled,
                          leaderboard.bootstrap(floats, n_resamples=1_000, seed=3,
                                                scheduler=cluster.scheduler_address).resampled)
    path = tmp_path / "scores.csv"
    _frame().to_csv(path, index=False)
    assert main(["many", str(path), "--resamples", "2000", "--json"]) == 0
    alone = capsys.readouterr().out
    assert main(["many", str(path), "--resamples", "2000", "--json", "--scheduler", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == alone


def test_a_scheduler_that_is_not_there_is_told(monkeypatch):
    monkeypatch.setattr(resamples, "CONNECT_TIMEOUT", "1s")
    board = leaderboard.from_table(_frame())
    with pytest.raises(SettingsError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        leaderboard.bootstrap(board, n_resamples=100, scheduler="tcp://127.0.0.1:1")


def test_without_dask_the_extra_to_install_is_named(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(SettingsError, match=r"pip install 'sigcore\[dask\]'"):
        leaderboard.bootstrap(leaderboard.from_table(_frame()), n_resamples=10, scheduler="tcp://127.0.0.1:8786")


def test_a_run_whose_workers_all_die_stops_with_one_line_within_the_bound(monkeypatch, capsys, tmp_path):
    """A scheduler waits for a worker forever; the run waits WORKERLESS seconds without one, then says so."""
    import os
    import signal
    import time

    from sigcore.errors import ClusterError

    monkeypatch.setattr(resamples, "WORKERLESS", 2.0)
    board = leaderboard.from_table(_frame())
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as lone, distributed.Client(lone) as client:
        # the worker process killed, and its nanny with it, so that none comes back
        pids = client.run(os.getpid)
        nannies = [n.process.process.pid for n in lone.workers.values()]
        lone.scale(0)  # (the cluster then starts none again)
        for pid in [*pids.values(), *nannies]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        start = time.monotonic()
        with pytest.raises(ClusterError, match="has had no worker for 2 s, at task 1 of 5"):
            leaderboard.bootstrap(board, n_resamples=100, scheduler=lone.scheduler_address)
        assert time.monotonic() - start < 30  # bounded: WORKERLESS and a scheduler's round trips, not forever
        path = tmp_path / "scores.csv"
        _frame().to_csv(path, index=False)
        assert main(["many", str(path), "--resamples", "100", "--scheduler", lone.scheduler_address]) != 0
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "has had no worker" in err[0], err
