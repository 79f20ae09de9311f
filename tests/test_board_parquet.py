"""A board read from Parquet a batch of rows at a time (sigcore.leaderboard.from_parquet, sigcore.logs.tallies) is
the board of the table read whole (from_table(tidy.read_table(F))), bit for bit: the same names, item ids, scores,
epochs and notes, and the same resamples; tables it does not stream (any row order, several metrics, ids written two
ways) are read whole, with the same errors."""

import numpy as np
import pandas as pd
import pytest

from sigcore import leaderboard
from sigcore.errors import InputError, SettingsError
from sigcore.logs import tallies, tidy

from helpers.boards import table


def ordered(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows in (model, task, item, run) order, each id in its order of first appearance: as logs come."""
    keys = {k: pd.factorize(frame[k])[0] for k in ("model", "task", "item")}
    order = np.lexsort([frame["run"].to_numpy()] + [keys[k] for k in ("item", "task", "model")][::1])
    return frame.iloc[order].reset_index(drop=True)


def same(path, **kw):
    """Both paths' boards and resamples, asserted equal; whether the batched path read it."""
    streamed = tallies.read(path, kw.get("metric")) is not None
    whole = leaderboard.from_table(tidy.read_table(path), **kw)
    board = leaderboard.from_parquet(path, **kw)
    assert (board.models, board.tasks, board.items, board.metric, board.notes) == \
        (whole.models, whole.tasks, whole.items, whole.metric, whole.notes)
    for t in whole.tasks:
        assert np.array_equal(board.scores[t], whole.scores[t])  # bit for bit, not approximately
        assert board.scores[t].dtype == whole.scores[t].dtype
    assert board.epochs.keys() == whole.epochs.keys()
    for t in whole.epochs:
        assert all(np.array_equal(a, b) for a, b in zip(board.epochs[t], whole.epochs[t]))
    a, b = (leaderboard.bootstrap(x, n_resamples=40, seed=5, per_task=True) for x in (board, whole))
    assert np.array_equal(a.resampled, b.resampled) and np.array_equal(a.resampled_tasks, b.resampled_tasks)
    return streamed


@pytest.fixture(params=[3, 1 << 20], ids=["batches of 3 rows", "one batch"])
def batch(request, monkeypatch):
    """Tiny batches cut an item's runs and a (model, task) between two batches, which must not change a sum."""
    monkeypatch.setattr(tallies, "_BATCH", request.param)
    return request.param


def test_a_table_in_log_order_is_streamed_to_the_same_board(tmp_path, batch):
    path = tmp_path / "t.parquet"
    ordered(table(runs=3)).to_parquet(path, index=False)
    assert same(path)


def test_scores_that_are_not_right_wrong_and_uneven_runs_give_the_same_epochs(tmp_path, batch):
    frame = ordered(table(runs=3))
    rng = np.random.default_rng(1)
    frame["score"] = np.round(rng.normal(0.5, 0.3, len(frame)), 3) * frame["score"]  # sums in order matter
    frame = frame[~((frame.run == 3) & (frame.index % 7 == 0))]  # some items with 2 runs, not 3
    path = tmp_path / "t.parquet"
    frame.to_parquet(path, index=False)
    assert same(path)
    # right/wrong in the first rows only: sums of squares begin from the sums where x² = x
    frame = ordered(table(runs=3))
    frame.loc[frame.index[-100:], "score"] = 0.25
    frame.to_parquet(path, index=False)
    assert same(path)


def test_no_run_or_metric_column_and_a_model_lacking_items(tmp_path, batch):
    frame = ordered(table(runs=1)).drop(columns=["run", "metric"])
    path = tmp_path / "t.parquet"
    frame.to_parquet(path, index=False)
    assert same(path) and same(path, metric="acc")
    lacking = frame[~((frame.model == "m2") & (frame["item"] == "gsm8k-3"))]
    lacking.to_parquet(path, index=False)
    assert same(path, on_missing="drop")
    with pytest.raises(InputError, match="model 'm2' lacks 1 item of task 'gsm8k'"):
        leaderboard.from_parquet(path)


@pytest.mark.parametrize("change", ["any order", "two metrics", "a number id", "1.0 and 1", "a missing score",
                                    "an item twice"])
def test_other_tables_are_read_whole_with_the_same_board_or_error(tmp_path, change):
    frame = ordered(table(runs=2))
    path = tmp_path / "t.parquet"
    if change == "any order":
        frame = frame.sample(frac=1, random_state=0)
    elif change == "two metrics":
        frame = pd.concat([frame, frame.assign(metric="f1")], ignore_index=True)
    elif change == "a number id":
        frame["item"] = pd.factorize(frame["item"])[0]
    elif change == "1.0 and 1":
        frame["item"] = frame["item"].replace({"arc-1": "1", "boolq-1": "1.0"})  # one id, written two ways
    elif change == "a missing score":
        frame.loc[frame.index[5], "score"] = np.nan
    elif change == "an item twice":
        frame = pd.concat([frame.iloc[:1], frame], ignore_index=True)
    frame.to_parquet(path, index=False)
    assert tallies.read(path, "acc") is None
    if change in ("a missing score", "an item twice"):
        with pytest.raises(InputError) as streamed:
            leaderboard.from_parquet(path)
        with pytest.raises(InputError) as whole:
            leaderboard.from_table(tidy.read_table(path))
        assert str(streamed.value) == str(whole.value)
        return
    if change == "two metrics":
        with pytest.raises(SettingsError, match="2 metrics"):
            leaderboard.from_parquet(path)
    assert not same(path, metric="acc")


def test_a_metric_the_table_lacks_is_said_as_the_whole_table_says_it(tmp_path):
    path = tmp_path / "t.parquet"
    ordered(table()).to_parquet(path, index=False)
    with pytest.raises(SettingsError, match="no metric 'f1'"):
        leaderboard.from_parquet(path, metric="f1")
