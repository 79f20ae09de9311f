"""Many models on many tasks (sigcore.leaderboard): the board from the tidy table, checked against pandas; the
stratified paired bootstrap's spread against the formula; deltas, p and ranks; and every way a table can fail."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigcore import leaderboard
from sigcore.errors import InputError, SettingsError
from sigcore.leaderboard import counting
from sigcore.logs import tidy

from helpers.boards import RIGHT, SIZES, table

LOGS = Path(__file__).resolve().parent / "data" / "inspect"


def test_the_board_is_each_task_s_mean_over_items_and_runs():
    frame = table()
    board = leaderboard.from_table(frame)
    assert board.models == tuple(dict.fromkeys(frame.model)) and set(board.tasks) == set(SIZES)
    res = leaderboard.bootstrap(board, n_resamples=50)
    expected = frame.groupby(["task", "model"]).score.mean().unstack()  # pandas, independently
    for k, task in enumerate(board.tasks):
        assert res.task_scores[k] == pytest.approx(expected.loc[task, list(board.models)].to_numpy(), abs=1e-12)
    by_tasks = expected.mean(axis=0)
    assert res.aggregate == pytest.approx(by_tasks[list(board.models)].to_numpy(), abs=1e-12)
    by_items = frame.groupby("model").score.mean()  # every item has the same number of runs
    items = leaderboard.bootstrap(board, n_resamples=50, weight="items")
    assert items.aggregate == pytest.approx(by_items[list(board.models)].to_numpy(), abs=1e-12)


@pytest.mark.parametrize("weight", leaderboard.WEIGHTS)
def test_the_stratified_bootstrap_s_spread_is_the_formula_s(weight):
    """Each task resampled apart: the aggregate's bootstrap sd is √(Σ w_t² s_t² / n_t), within its Monte-Carlo
    error (the sd of b = 4,000 resamples is within 2.2% (1/√(2b)) of its expectation, 4 of them here)."""
    board = leaderboard.from_table(table(seed=1))
    res = leaderboard.bootstrap(board, n_resamples=4_000, seed=3, weight=weight)
    ratio = res.resampled.std(axis=0) / leaderboard.standard_error(board, weight)
    assert np.all(np.abs(ratio - 1) < 4 / np.sqrt(2 * 4_000)), ratio
    assert (np.abs(res.resampled.mean(axis=0) - res.aggregate).max()
            < 4 * leaderboard.standard_error(board, weight).max() / np.sqrt(4_000))


def test_the_same_seed_gives_the_same_resamples_and_deltas_ranks_follow():
    board = leaderboard.from_table(table(seed=2))
    one, two = (leaderboard.bootstrap(board, n_resamples=2_500, seed=7) for _ in range(2))
    assert np.array_equal(one.resampled, two.resampled)
    assert not np.array_equal(one.resampled, leaderboard.bootstrap(board, n_resamples=2_500, seed=8).resampled)
    d, low, high, p = one.delta("m4", "m0")
    assert d == pytest.approx(one.aggregate[4] - one.aggregate[0]) and 0 < low < d < high and p == 0  # < 1/b
    same, lo, hi, p_same = one.delta("m1", "m1")
    assert (same, p_same) == (0.0, 1.0) and lo <= 0 <= hi
    ranks = one.ranks()
    assert all(sorted(row) == [1, 2, 3, 4, 5] for row in ranks[:100])
    assert one.rank_interval("m4") == (1, 1) and one.rank_interval("m0")[1] == 5
    low_rank, high_rank = one.rank_interval("m1")
    assert 3 <= low_rank <= high_rank <= 5  # m1 and m2 are close: their ranks are not settled


def test_two_inspect_logs_make_a_board_of_one_task():
    frame = tidy.from_logs([LOGS / "alpha.eval", LOGS / "beta.eval"])
    board = leaderboard.from_table(frame, metric="match")
    assert board.models == ("mockllm/alpha", "mockllm/beta") and board.tasks == ("arith",)
    res = leaderboard.bootstrap(board, n_resamples=200)
    means = frame[frame.metric == "match"].groupby("model").score.mean()
    assert res.aggregate == pytest.approx(means[list(board.models)].to_numpy(), abs=1e-12)


def test_a_table_that_cannot_make_a_board_says_what_is_wrong():
    frame = table(runs=1)
    with pytest.raises(InputError, match="the table has no item column"):
        leaderboard.from_table(frame.drop(columns="item"))
    two = pd.concat([frame, frame.assign(metric="f1")])
    with pytest.raises(SettingsError, match="the table holds 2 metrics: say which one"):
        leaderboard.from_table(two)
    assert leaderboard.from_table(two, metric="f1").metric == "f1"
    with pytest.raises(SettingsError, match="the table has no metric 'bleu'"):
        leaderboard.from_table(two, metric="bleu")
    bad = frame.copy()
    bad["score"] = bad["score"].astype(object)
    bad.iloc[3, bad.columns.get_loc("score")] = "n/a"
    with pytest.raises(InputError, match=r"has the score 'n/a', not a finite number"):
        leaderboard.from_table(bad)
    bad.iloc[3, bad.columns.get_loc("score")] = np.nan  # an empty cell is no score either
    with pytest.raises(InputError, match=r"has the score 'nan', not a finite number"):
        leaderboard.from_table(bad)
    empty = frame.reset_index(drop=True)
    empty.loc[4, "task"] = None
    with pytest.raises(InputError, match="row 5 of the table has no task"):
        leaderboard.from_table(empty)
    with pytest.raises(InputError, match=r"has item .* twice in one run"):
        leaderboard.from_table(pd.concat([frame, frame.iloc[:1]]))
    lacking = frame[~((frame.model == "m2") & (frame.task == "gsm8k"))]
    with pytest.raises(InputError, match="model 'm2' has no scores on task 'gsm8k'.*--drop-unmatched"):
        leaderboard.from_table(lacking)
    left = leaderboard.from_table(lacking, on_missing="drop")  # the task goes, for every model, and is said
    assert left.tasks == tuple(t for t in leaderboard.from_table(frame).tasks if t != "gsm8k")
    assert left.notes == ("task gsm8k: left out, since m2 has no scores on it",)
    with pytest.raises(InputError, match="no task has scores of every model"):
        leaderboard.from_table(frame[((frame.model == "m0") & (frame.task == "arc"))
                                     | ((frame.model == "m1") & (frame.task == "gsm8k"))], on_missing="drop")
    holes = frame[~((frame.model == "m3") & (frame.item.isin(["mmlu-5", "mmlu-9"])))]
    with pytest.raises(InputError, match=r"model 'm3' lacks 2 items of task 'mmlu' that other models have"):
        leaderboard.from_table(holes)
    dropped = leaderboard.from_table(holes, on_missing="drop")
    assert len(dropped.items["mmlu"]) == 198 and dropped.notes == ("task mmlu: dropped 2 items not every model has",)
    with pytest.raises(SettingsError, match="`weight` must be one of"):
        leaderboard.bootstrap(dropped, weight="models")


def test_many_on_a_tidy_table_prints_the_board_the_api_computes(tmp_path, capsys):
    from sigcore.__main__ import main
    from sigcore.result import p_number
    from sigcore.statistics.multiple import adjust

    frame = table(seed=4, runs=1)
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    assert main(["many", str(path), "--baseline", "m1", "--resamples", "1000", "--weight", "items"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("acc of 5 models on 4 tasks (items: ") and "aggregate: the mean of all items" in out[0]
    assert "δ against m1, two-sided, Holm over 4, α = 0.05" in out[0]
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=1000, weight="items")
    rows = {line.split()[0]: line for line in out[2:7]}
    assert [line.split()[0] for line in out[2:7]] == sorted(RIGHT,
                                                            key=lambda m: -res.aggregate[res.board.models.index(m)])
    others = [m for m in res.board.models if m != "m1"]
    corrected = adjust([res.delta(m, "m1")[3] for m in others], "holm", floors=1 / 1000)
    for m, q in zip(others, corrected):
        d, low, high, p = res.delta(m, "m1")
        line = rows[m]
        assert f"{res.aggregate[res.board.models.index(m)]:.4f}" in line
        shown_p, shown_q = (f"< {p_number(1 / 1000)}", f"< {p_number(q)}") if p == 0 else (p_number(p), p_number(q))
        assert f"{d:+.4f}".replace("-", "−") in line and shown_p in line
        assert line.rstrip().endswith(shown_q + (" *" if q <= 0.05 else ""))
    assert "(baseline)" in rows["m1"]
    assert main(["many", str(path), "--baseline", "m9"]) == 2
    assert "--baseline m9 is not one of the models" in capsys.readouterr().err


def test_each_task_s_delta_is_that_task_s_paired_bootstrap(tmp_path, capsys):
    """per_task keeps each task's resamples (the aggregate's are the same draws): a task's δ is its mean
    difference, and its p is within Monte-Carlo error of sigcore.compare's bootstrap on that task's items."""
    import math

    import sigcore
    from sigcore.__main__ import main
    from sigcore.statistics.multiple import adjust

    frame = table(seed=5, runs=1)
    board = leaderboard.from_table(frame)
    plain = leaderboard.bootstrap(board, n_resamples=4_000, seed=1)
    each = leaderboard.bootstrap(board, n_resamples=4_000, seed=1, per_task=True)
    assert np.array_equal(plain.resampled, each.resampled) and each.resampled_tasks.shape == (4_000, 4, 5)
    with pytest.raises(SettingsError, match="per_task=True"):
        plain.delta("m2", "m1", task="mmlu")
    for task in ("mmlu", "boolq"):
        a, b = board.models.index("m2"), board.models.index("m1")
        d, low, high, p = each.delta("m2", "m1", task=task)
        assert d == pytest.approx(board.scores[task][:, a].mean() - board.scores[task][:, b].mean(), abs=1e-12)
        ref = sigcore.compare(None, board.scores[task][:, a], board.scores[task][:, b], metric="mean",
                              test="bootstrap", n_resamples=4_000, seed=9)
        se = math.sqrt(max(ref.p_value * (1 - ref.p_value), 1 / 4_000) / 4_000)
        assert abs(p - ref.p_value) <= 4 * math.sqrt(2) * se, (p, ref.p_value)
        assert (low > 0 or high < 0) == (p <= 0.05)  # the interval is the test's dual
    frame.to_csv(tmp_path / "scores.csv", index=False)
    assert main(["many", str(tmp_path / "scores.csv"), "--baseline", "m1", "--resamples", "1000",
                 "--per-task", "family"]) == 0
    out = capsys.readouterr().out
    assert "per task: δ against m1, two-sided, Holm over the family of 16 comparisons (4 tasks x 4 models)" in out
    lines = out.split("per task:")[1].splitlines()[2:]
    assert len(lines) == 16
    res = leaderboard.bootstrap(board, n_resamples=1000, per_task=True)
    keys = [(t, m) for t in board.tasks for m in board.models if m != "m1"]
    ps = [res.delta(m, "m1", task=t)[3] for t, m in keys]
    corrected = adjust(ps, "holm", floors=1 / 1000)
    for line, (t, m), q in zip(lines, keys, corrected):
        assert line.split()[:2] == [t, m] and line.rstrip().endswith(" *") == (q <= 0.05)


@pytest.mark.parametrize("seed", range(6))
def test_tie_groups_split_only_where_every_model_above_beats_every_model_below(seed):
    from sigcore.statistics.multiple import adjust

    res = leaderboard.bootstrap(leaderboard.from_table(table(seed=10 + seed, runs=1)), n_resamples=1000, seed=seed)
    groups = res.groups()
    order = sorted(res.board.models, key=lambda m: -res.aggregate[res.board.models.index(m)])
    assert [groups[m] for m in order] == sorted(groups.values()) and groups[order[0]] == 1
    pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
    q = dict(zip(pairs, adjust([res.delta(a, b)[3] for a, b in pairs], "holm", floors=1 / 1000)))
    for cut in range(1, len(order)):  # a line at `cut` exactly when every model above beats every model below
        beats = all(q[a, b] <= 0.05 and res.delta(a, b)[0] > 0 for a in order[:cut] for b in order[cut:])
        assert (groups[order[cut]] > groups[order[cut - 1]]) == beats
    assert groups["m4"] == 1 and groups["m0"] == max(groups.values())  # 0.9 against the rest; 0.55 the last


def test_many_on_tasks_writes_csv_and_json_and_refuses_what_it_does_not_take(tmp_path, capsys):
    import io
    import json

    from sigcore.__main__ import main

    frame = table(seed=6, runs=1)
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    assert main(["many", str(path), "--baseline", "m1", "--resamples", "500", "--csv"]) == 0
    rows = pd.read_csv(io.StringIO(capsys.readouterr().out))
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=500)
    assert list(rows.model) == sorted(RIGHT, key=lambda m: -res.aggregate[res.board.models.index(m)])
    m2 = rows.set_index("model").loc["m2"]
    assert (m2.delta, m2.p_value) == pytest.approx(res.delta("m2", "m1")[::3], abs=1e-12)
    assert m2.group == res.groups()["m2"] and (m2.ci_low, m2.ci_high) == pytest.approx(res.interval("m2"))
    assert main(["many", str(path), "--baseline", "m1", "--resamples", "500", "--json", "--per-task", "task"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settings"]["tasks"] == SIZES and out["settings"]["p_floor"] == 1 / 500
    assert out["per_task"]["corrected_over"] == "task" and len(out["per_task"]["comparisons"]) == 4 * 4
    for flag in (["--test", "t"], ["--alternative", "greater"], ["--tokenize", "13a"]):
        assert main(["many", str(path), *flag]) == 2
        assert f"{flag[0]} is not taken by models on many tasks" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["scores", "right/wrong over 3 runs", "right/wrong in clusters"])
def test_a_task_s_resamples_are_a_loop_drawing_each_resample_s_items_with_integers(kind):
    """task_resamples draws, block by block, what a loop over resamples draws with ``integers(0, n, n)`` from the
    same stream; whole numbers of thirds (3 epochs of right/wrong) are summed exactly, each mean rounded once."""
    rng = np.random.default_rng(4)
    n, b = 3_000, 200  # 87 resamples a block: 3 blocks
    whole = rng.integers(0, 4, (n, 3))  # right answers out of 3 epochs
    matrix = rng.random((n, 3)) if kind == "scores" else whole / 3
    clusters = np.sort(rng.integers(0, 700, n)) if "clusters" in kind else None
    clusters = np.unique(clusters, return_inverse=True)[1] if clusters is not None else None
    stream = np.random.SeedSequence(11).spawn(3)[2]
    ours = leaderboard.task_resamples(matrix, b, stream, clusters, 3)
    draws = np.random.default_rng(stream)
    for i in range(b):
        if clusters is None:
            idx = draws.integers(0, n, n)
            expected = whole[idx].sum(axis=0) / (3 * n) if kind != "scores" else matrix[idx].mean(axis=0)
        else:
            k = clusters.max() + 1
            idx = draws.integers(0, k, k)
            sums = np.zeros((k, 3), dtype=np.int64)
            np.add.at(sums, clusters, whole)
            expected = sums[idx].sum(axis=0) / (3 * np.bincount(clusters)[idx].sum())
        if kind == "scores":
            assert ours[i] == pytest.approx(expected, abs=1e-14)
        else:  # exact: integer sums, one division
            assert np.array_equal(ours[i], expected), i


def test_a_table_read_from_parquet_is_the_same_board_and_fails_the_same_way(tmp_path, monkeypatch):
    """tidy.read_table gives Parquet's text as categoricals, whose codes from_table uses as they are: the same board
    as from text columns, and the same errors."""
    frame = table(seed=5)

    def parquet(f: pd.DataFrame, name: str) -> pd.DataFrame:
        path = tmp_path / f"{name}.parquet"
        f.to_parquet(path, index=False)
        return tidy.read_table(path)

    read = parquet(frame, "plain")
    assert isinstance(read["model"].dtype, pd.CategoricalDtype)
    mine, theirs = leaderboard.from_table(read), leaderboard.from_table(frame)
    assert (mine.models, mine.tasks, mine.items) == (theirs.models, theirs.tasks, theirs.items)
    assert all(np.array_equal(mine.scores[t], theirs.scores[t]) for t in mine.tasks)
    assert all(np.array_equal(a, b) for t in mine.tasks for a, b in zip(mine.epochs[t], theirs.epochs[t]))
    empty = frame.reset_index(drop=True)
    empty.loc[6, "item"] = None
    with pytest.raises(InputError, match="row 7 of the table has no item"):
        leaderboard.from_table(parquet(empty, "no-item"))
    no_run = frame.reset_index(drop=True).astype({"run": float})
    no_run.loc[2, "run"] = np.nan
    with pytest.raises(InputError, match="row 3 of the table has no run"):
        leaderboard.from_table(parquet(no_run, "no-run"))
    with pytest.raises(InputError, match=r"has item .* twice in one run"):
        leaderboard.from_table(parquet(pd.concat([frame, frame.iloc[-1:]]), "twice"))
    inf = frame.reset_index(drop=True)
    inf.loc[8, "score"] = np.inf
    with pytest.raises(InputError, match=f"item '{inf.item[8]}' has the score 'inf', not a finite number"):
        leaderboard.from_table(parquet(inf, "inf"))
    with pytest.raises(InputError, match="model 'm2' has no scores on task 'gsm8k'"):
        leaderboard.from_table(parquet(frame[~((frame.model == "m2") & (frame.task == "gsm8k"))], "no-task"))
    ordered = frame.sort_values(["model", "task", "item", "run"])  # counted without looking for repeats
    in_order = leaderboard.from_table(parquet(ordered, "ordered"))
    for t in theirs.tasks:
        by_item = dict(zip(theirs.items[t], theirs.scores[t][:, [theirs.models.index(m) for m in in_order.models]]))
        assert np.array_equal(np.array([by_item[i] for i in in_order.items[t]]), in_order.scores[t])
        assert in_order.epochs[t][0] == pytest.approx(theirs.epochs[t][0][[theirs.models.index(m)
                                                                            for m in in_order.models]], rel=1e-12)
    with pytest.raises(InputError, match=r"has item .* twice in one run"):
        leaderboard.from_table(parquet(pd.concat([ordered.iloc[:5], ordered.iloc[4:]]), "ordered-twice"))
    monkeypatch.setattr(counting, "PREFIX", 100)  # the rows in which categories are first looked for
    late = pd.concat([frame[frame.model != "m4"], frame[frame.model == "m4"]])  # a model first seen late,
    late["model"] = pd.Categorical(late.model, categories=["m4", "m3", "m2", "m1", "m0", "unused"])  # out of order
    board, text = leaderboard.from_table(parquet(late, "late")), leaderboard.from_table(late.astype({"model": str}))
    assert board.models == text.models and board.models[-1] == "m4" and board.items == text.items
    assert all(np.array_equal(board.scores[t], text.scores[t]) for t in board.tasks)


@pytest.mark.parametrize("block", [7, 1 << 20])
def test_rows_in_order_are_counted_a_block_at_a_time_as_rows_in_any_order(monkeypatch, block):
    """A table in (model, task, item, run) order is counted in blocks of rows without looking for repeats; the same
    board as the same rows shuffled (counted by key, repeats looked for), blocks of 7 rows splitting items' runs;
    a repeat or a row out of order in it sends it the other way, which finds the repeat."""
    monkeypatch.setattr(counting, "BLOCK", block)
    rng = np.random.default_rng(6)
    frame = table(seed=6, runs=3).assign(score=lambda f: rng.random(len(f)).round(2))  # not right/wrong: squares
    frame = frame[~((frame.model == "m1") & frame.item.isin(["arc-3", "boolq-7"]))]  # holes: keys skipped
    frame = frame.assign(item=frame.task + "/" + frame.item)  # each task its own ids: pairs not all there
    ordered = frame.sort_values(["model", "task", "item", "run"], key=lambda c: c.map(
        {v: i for i, v in enumerate(pd.unique(c))}) if c.dtype != np.int64 else c)
    by_key, by_key_alone = [], counting.by_key
    monkeypatch.setattr(counting, "by_key", lambda *a, **k: by_key.append(1) or by_key_alone(*a, **k))
    a = leaderboard.from_table(ordered, on_missing="drop")
    assert by_key == []  # in order: counted a block at a time
    b = leaderboard.from_table(ordered.sample(frac=1, random_state=1), on_missing="drop")
    assert by_key == [1]
    for t in a.tasks:
        rows = [b.items[t].index(i) for i in a.items[t]]
        cols = [b.models.index(m) for m in a.models]
        assert a.scores[t] == pytest.approx(b.scores[t][rows][:, cols], rel=1e-12, abs=1e-15)
        assert a.epochs[t][0] == pytest.approx(b.epochs[t][0][cols], rel=1e-12)
    assert a.notes == b.notes and len(a.notes) == 2
    twice = pd.concat([ordered.iloc[:20], ordered.iloc[19:]])  # a row repeated, in order
    with pytest.raises(InputError, match=r"has item .* twice in one run"):
        leaderboard.from_table(twice)


def grid(models=4, tasks=3, items=50, runs=3, seed=0) -> pd.DataFrame:
    """Every model with every task's every item in every run, in (model, task, item, run) order."""
    rng = np.random.default_rng(seed)
    shape = (models, tasks, items, runs)
    m, t, i, r = (a.ravel() for a in np.indices(shape))
    return pd.DataFrame({"model": [f"m{k}" for k in m], "task": [f"t{k}" for k in t], "item": [f"{k}" for k in i],
                         "run": r + 1, "metric": "acc", "score": rng.random(m.size).round(2)})


@pytest.mark.parametrize("binary", [True, False])
def test_a_whole_grid_in_order_is_summed_by_runs_as_the_rows_are_counted_a_block_at_a_time(monkeypatch, binary):
    """A table that is the whole grid in (model, task, item, run) order takes the strided sums (no keys); its board
    is the block-counted one bit for bit (the same sums in the same order), scores and the runs' spread alike, with
    blocks of 5 cells; a row out of place sends it to the block count, which finds it."""
    monkeypatch.setattr(counting, "BLOCK", 7)  # blocks of pairs of (model, task) split at odd places
    frame = grid()
    frame["score"] = (frame.score > 0.5).astype(float) if binary else frame.score
    taken, grid_alone = [], counting.whole_grid
    monkeypatch.setattr(counting, "whole_grid", lambda *a, **k: taken.append(grid_alone(*a, **k)) or taken[-1])
    mine = leaderboard.from_table(frame)
    assert taken[-1] is not None
    monkeypatch.setattr(counting, "whole_grid", lambda *a, **k: None)
    counted = leaderboard.from_table(frame)
    assert (mine.models, mine.tasks, mine.items) == (counted.models, counted.tasks, counted.items)
    for t in mine.tasks:
        assert np.array_equal(mine.scores[t], counted.scores[t])
        assert all(np.array_equal(a, b) for a, b in zip(mine.epochs[t], counted.epochs[t]))
        expected = frame[frame.task == t].groupby(["item", "model"], sort=False).score.mean().unstack()
        assert mine.scores[t] == pytest.approx(expected.to_numpy(), abs=1e-15)  # pandas, independently
    monkeypatch.setattr(counting, "whole_grid", lambda *a, **k: taken.append(grid_alone(*a, **k)) or taken[-1])
    swapped = frame.iloc[[*range(40), 41, 40, *range(42, len(frame))]]  # two runs of an item swapped
    other = leaderboard.from_table(swapped)
    assert taken[-1] is None and all(np.array_equal(other.scores[t], mine.scores[t]) for t in mine.tasks)
    with pytest.raises(InputError, match=r"has item .* twice in one run"):
        leaderboard.from_table(frame.assign(run=frame.run.where(frame.index != 40, 1)))


def test_every_pair_s_delta_interval_and_p_are_the_basic_bootstrap_s_one_pair_at_a_time():
    """pairs(), table() and task_table() take every pair's δ, interval and p a block at a time: the numbers of
    intervals.basic and the two-sided count, pair by pair; tie groups and cliques from them."""
    from sigcore.statistics import intervals

    res = leaderboard.bootstrap(leaderboard.from_table(table(seed=3)), n_resamples=300, seed=1, per_task=True)

    def one(point, resampled, i, j):
        d = float(point[i] - point[j])
        values = resampled[:, i] - resampled[:, j]
        tol = 1e-9 * max(1.0, abs(d))
        low, high = intervals.basic(values, d, 0.05, "two-sided", tol)
        return d, low, high, int(np.sum(np.abs(values - d) >= abs(d) - tol)) / 300

    models = res.board.models
    pairs = res.pairs()
    assert len(pairs) == 10
    for r in pairs.itertuples(index=False):
        i, j = models.index(r.model), models.index(r.other)
        assert (r.delta, r.delta_low, r.delta_high, r.p_value) == one(res.aggregate, res.resampled, i, j)
        assert res.aggregate[i] >= res.aggregate[j]
    tasks = res.task_table("m0")
    for r in tasks.itertuples(index=False):
        k = res.board.tasks.index(r.task)
        expected = one(res.task_scores[k], res.resampled_tasks[:, k], models.index(r.model), 0)
        assert (r.delta, r.delta_low, r.delta_high, r.p_value) == expected
    board = res.table("m0")
    for r in board.itertuples(index=False):
        i = models.index(r.model)
        assert (r.ci_low, r.ci_high) == intervals.percentile(res.resampled[:, i], 0.95)
        if r.model != "m0":
            assert (r.delta, r.delta_low, r.delta_high, r.p_value) == one(res.aggregate, res.resampled, i, 0)


def test_a_missing_run_or_id_is_found_whatever_the_column_s_type():
    """A missing value is each column's -1 code, looked for once: in a categorical run column too."""
    frame = pd.DataFrame({"model": ["a", "a", "b", "b"], "task": "t", "item": ["1", "2", "1", "2"], "run": 1,
                          "score": [1.0, 0.0, 1.0, 0.0]})
    for column, values in (("run", pd.Categorical([1, None, 1, 1])), ("run", [1, 1, 1, None]),
                           ("item", pd.Categorical(["1", "2", None, "2"])), ("model", ["a", "a", None, "b"])):
        row = int(np.flatnonzero(pd.isna(pd.Series(values)))[0]) + 1
        with pytest.raises(InputError, match=f"row {row} of the table has no {column}"):
            leaderboard.from_table(frame.assign(**{column: values}))


def test_a_long_task_name_is_named_whole_in_its_error():
    """HELM names a task by its run spec, 70 characters and more: cut at 40, the error named no task one could find."""
    task = "commonsense:dataset=hellaswag,method=multiple_choice_joint,model=openai_gpt2"
    frame = pd.DataFrame({"model": ["a", "a", "b"], "task": [task, "other", "other"], "item": ["1", "1", "1"],
                          "score": [1.0, 0.0, 1.0]})
    with pytest.raises(InputError) as caught:
        leaderboard.from_table(frame)
    assert str(caught.value).startswith(f"model 'b' has no scores on task {task!r}")


def _graded(seed=0, runs=2) -> pd.DataFrame:
    """:func:`table` with graded scores (not right/wrong), so that nothing is summed as whole numbers."""
    frame = table(seed, runs)
    rng = np.random.default_rng(seed)
    return frame.assign(score=frame.score * 0.5 + rng.random(len(frame)) * 0.5)


@pytest.mark.parametrize("k", [450, 1015])
def test_huge_scores_make_the_board_of_small_ones_times_a_power_of_two(k):
    """Scores times 2^k (up to 1e307: their sums overflow, and at 2^450 their squares) give every number of the board
    times 2^k exactly, and the same p, ranks and groups: a power of two moves only the exponents (the reference
    shares nothing with the scaling inside). The variance split scales by 4^k, or, past the largest float, is refused
    saying so."""
    frame = _graded()
    small = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=300, seed=3, per_task=True)
    huge_frame = frame.assign(score=np.ldexp(frame.score.to_numpy(), k))
    with np.errstate(over="ignore"):
        assert np.isinf(huge_frame.score.sum()) == (k > 1000)  # the case that crashed ("too many values to unpack")
    huge = leaderboard.bootstrap(leaderboard.from_table(huge_frame), n_resamples=300, seed=3, per_task=True)
    for got, want in ((huge.task_scores, small.task_scores), (huge.aggregate, small.aggregate),
                      (huge.resampled, small.resampled)):
        assert np.array_equal(got, np.ldexp(want, k))
    for method in ("table", "task_table"):
        a, b = getattr(small, method)("m2"), getattr(huge, method)("m2")
        for column in a.columns:
            if column in ("score", "ci_low", "ci_high", "delta", "delta_low", "delta_high"):
                assert np.array_equal(b[column], np.ldexp(a[column].to_numpy(), k), equal_nan=True), column
            else:
                assert a[column].equals(b[column]), column
    assert huge.groups() == small.groups() and huge.rank_intervals() == small.rank_intervals()
    if k < 500:
        s, h = small.variance("m4", "m2"), huge.variance("m4", "m2")
        assert [getattr(h, t) for t in ("items", "runs", "error")] == \
            [float(np.ldexp(getattr(s, t), 2 * k)) for t in ("items", "runs", "error")]
    else:
        with pytest.raises(InputError, match=r"the variance of δ of model 'm4' − model 'm2' on task '\w+' is past "
                                             r"the largest number a float holds"):
            huge.variance("m4", "m2")


def _per_item(tmp_path, a: float, b: float) -> tuple:
    """The same scores as a tidy table (models A and B on one task) and as compare's table of per-item scores."""
    tidy_table, items = tmp_path / "board.csv", tmp_path / "items.csv"
    pd.DataFrame({"model": np.repeat(["A", "B"], 30), "task": "t", "item": np.tile(np.arange(1, 31), 2),
                  "score": np.repeat([a, b], 30)}).to_csv(tidy_table, index=False)
    pd.DataFrame({"id": np.arange(1, 31), "A": a, "B": b}).to_csv(items, index=False)
    return tidy_table, items


def test_an_overflowing_delta_is_refused_by_many_as_compare_refuses_it(tmp_path, capsys):
    """A model's scores of 1e308 against another's −1e308: compare refused δ = inf precisely; many, on a tidy table
    or logs, crashed ("too many values to unpack", exit 3). Both now refuse it with the one check
    (sigcore.result.finite_delta): the same words and hint, the board's naming its models and task."""
    from sigcore.__main__ import main

    board_file, items_file = _per_item(tmp_path, 1e308, -1e308)
    said = []
    for argv in (["many", board_file], ["compare", items_file, "--metric", "mean", "--test", "bootstrap"]):
        assert main(list(map(str, argv))) == 2
        out, err = capsys.readouterr()
        assert "unexpectedly" not in err and len(err.splitlines()) == 1, err
        said.append(err)
    assert "error: δ of model 'A' − model 'B' on task 't' = 1e+308 − -1e+308 is not a finite number. " in said[0]
    assert "error: δ = 1e+308 − -1e+308 is not a finite number. " in said[1]
    assert said[0].split("finite number. ")[1] == said[1].split("finite number. ")[1] == (
        "The scores are too large to subtract: rescale both systems' alike (e.g. divide them by 1e300).\n")
    board_file, _ = _per_item(tmp_path, 1e308, 0.5)  # a finite δ: a board, whose δ is the scores' difference
    assert main(["many", str(board_file), "--json", "--baseline", "B", "--resamples", "200"]) == 0
    row = next(r for r in __import__("json").loads(capsys.readouterr().out)["models"] if r["model"] == "A")
    assert (row["score"], row["delta"], row["delta_low"], row["delta_high"]) == (1e308, 1e308 - 0.5, 1e308, 1e308)


def test_inspect_logs_of_huge_scores_are_read_and_their_overflowing_delta_refused(tmp_path, capsys):
    """Inspect logs whose scorer gives ±1e308: the reader's check of the header's mean no longer overflows to
    "samples average nan", and the board refuses the infinite δ, naming the models."""
    import gzip
    import json

    from sigcore.__main__ import main

    log = json.loads(gzip.decompress((LOGS / "beta.json.gz").read_bytes()))
    paths = []
    for name, value in (("hi", 1e308), ("lo", -1e308), ("half", 0.5)):
        edited = json.loads(json.dumps(log))
        edited["eval"]["model"] = f"mockllm/{name}"
        for sample in edited["samples"]:
            sample["scores"]["match"]["value"] = value
        edited["results"]["scores"][0]["metrics"]["accuracy"]["value"] = value
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(edited))
    assert main(["many", str(paths[0]), str(paths[1]), "--metric", "match"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: δ of model 'mockllm/hi' − model 'mockllm/lo' on task 'arith' = 1e+308 − -1e+308 "
                          "is not a finite number. The scores are too large to subtract"), err
    assert main(["many", str(paths[0]), str(paths[2]), "--metric", "match", "--json", "--resamples", "200"]) == 0
    models = {r["model"]: r for r in json.loads(capsys.readouterr().out)["models"]}
    assert models["mockllm/hi"]["score"] == 1e308 and models["mockllm/half"]["delta"] == 0.5 - 1e308


def test_a_table_with_no_rows_is_refused_as_such():
    """A damaged Parquet file can read as a table with its columns and no rows (the mutated-logs test found one):
    refused, not a reshape error."""
    empty = pd.DataFrame({"model": [], "task": [], "item": [], "score": []})
    with pytest.raises(InputError, match="the table has no rows"):
        leaderboard.from_table(empty)
