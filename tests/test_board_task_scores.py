"""Each model's score on each task with its interval (Leaderboard.task_intervals), as the board's JSON holds them:
against a loop that draws each task's items with integers(0, n, n) from the task's own stream, and the same kept at
bootstrap time as from a per_task run."""

import json

import numpy as np
import pytest

from sigcore import leaderboard
from sigcore.errors import SettingsError
from sigcore.report import records

from helpers.boards import table

B, SEED = 400, 3


@pytest.fixture(scope="module")
def frame():
    return table(seed=2)


def test_each_task_s_interval_is_the_percentile_of_a_loop_s_resampled_means(frame):
    board = leaderboard.from_table(frame)
    res = leaderboard.bootstrap(board, n_resamples=B, seed=SEED, confidence_level=0.9)
    low, high = res.task_intervals(0.9)
    per_item = frame.groupby(["task", "item", "model"]).score.mean()  # pandas, independently
    streams = np.random.SeedSequence(SEED).spawn(len(board.tasks))
    for k, task in enumerate(board.tasks):
        matrix = per_item[task].unstack().loc[list(board.items[task]), list(board.models)].to_numpy()
        rng, n = np.random.default_rng(streams[k]), len(matrix)
        means = np.array([matrix[rng.integers(0, n, n)].mean(axis=0) for _ in range(B)])
        expected = np.quantile(means, [0.05, 0.95], axis=0)
        assert low[k] == pytest.approx(expected[0], abs=1e-12) and high[k] == pytest.approx(expected[1], abs=1e-12)
        assert res.task_scores[k] == pytest.approx(matrix.mean(axis=0), abs=1e-12)
        assert np.all(low[k] <= res.task_scores[k]) and np.all(res.task_scores[k] <= high[k])


def test_kept_bounds_are_a_per_task_run_s_and_another_level_is_refused(frame):
    board = leaderboard.from_table(frame)
    kept = leaderboard.bootstrap(board, n_resamples=B, seed=SEED, confidence_level=0.95)
    full = leaderboard.bootstrap(board, n_resamples=B, seed=SEED, per_task=True)
    assert all(np.array_equal(a, b) for a, b in zip(kept.task_intervals(0.95), full.task_intervals(0.95)))
    assert kept.resampled_tasks is None  # bounded memory: two numbers per task and model
    with pytest.raises(SettingsError, match=r"each task's 90% interval needs the tasks' resamples\. Run "
                                            r"bootstrap\(\.\.\., per_task=True\), or with confidence_level=0\.9\."):
        kept.task_intervals(0.9)
    with pytest.raises(SettingsError, match="`confidence_level` must be a number strictly between 0 and 1"):
        leaderboard.bootstrap(board, n_resamples=B, confidence_level=95)


@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_the_board_s_json_holds_each_task_s_scores_and_intervals_at_one_minus_alpha(frame, alpha):
    board = leaderboard.from_table(frame)
    res = leaderboard.bootstrap(board, n_resamples=B, seed=SEED, confidence_level=1 - alpha)
    record = json.loads(records.dumps(records.board(res, baseline="m0", alpha=alpha, correction="holm")))
    rows = record["task_scores"]
    assert [(r["task"], r["model"]) for r in rows] == [(t, m) for t in board.tasks for m in board.models]
    low, high = res.task_intervals(1 - alpha)
    for r in rows:
        k, i = board.tasks.index(r["task"]), board.models.index(r["model"])
        assert (r["score"], r["score_low"], r["score_high"]) == (res.task_scores[k, i], low[k, i], high[k, i])
    bare = leaderboard.bootstrap(board, n_resamples=B, seed=SEED)  # kept nothing for the tasks: null, said so
    rows = json.loads(records.dumps(records.board(bare, baseline="m0", alpha=alpha, correction="holm")))["task_scores"]
    assert all(r["score_low"] is None and r["score_high"] is None and r["score"] is not None for r in rows)


def test_many_json_holds_each_task_s_interval_at_its_alpha(frame, tmp_path, capsys):
    from sigcore.__main__ import main

    path = tmp_path / "board.csv"
    frame.to_csv(path, index=False)
    assert main(["many", str(path), "--resamples", str(B), "--seed", str(SEED), "--alpha", "0.1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["task_scores"]
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=B, seed=SEED, confidence_level=0.9)
    low, high = res.task_intervals(0.9)
    board = res.board
    assert [(r["score_low"], r["score_high"]) for r in rows] == [
        (low[k, i], high[k, i]) for k in range(len(board.tasks)) for i in range(len(board.models))]
