"""Ranks people can read on a board (issue 41 §1): LMArena's rank, 1 + the models significantly better, beside the
rank interval; and the max-statistic correction over a board's families from its own resamples, which separates
pairs at a b where Holm cannot, with its family-wise error at α by simulation."""

import numpy as np
import pandas as pd
import pytest

from sigcore import leaderboard
from sigcore.contract import tie
from sigcore.errors import SettingsError
from sigcore.statistics import maxstat


def board_table(n_models: int, rng, *, step: float = 0.02, items: int = 300, tasks=("a", "b", "c")) -> pd.DataFrame:
    """Models 0.4, 0.4 + step, ... right on items of shared difficulty, on each task."""
    rows = []
    for task in tasks:
        hard = rng.uniform(-0.1, 0.1, items)
        for k in range(n_models):
            right = rng.random(items) < np.clip(0.4 + step * k + hard, 0, 1)
            rows.append(pd.DataFrame({"model": f"m{k:02d}", "task": task, "item": range(items),
                                      "score": right.astype(float)}))
    return pd.concat(rows, ignore_index=True)


@pytest.fixture(scope="module")
def res():
    board = leaderboard.from_table(board_table(20, np.random.default_rng(0)))
    return leaderboard.bootstrap(board, n_resamples=1_000, per_task=True)


@pytest.mark.parametrize("correction", ["holm", "maxt"])
def test_the_arena_rank_is_one_plus_the_models_shown_better(res, correction):
    pairs = res.pairs(correction=correction)
    shown = pairs[(pairs.p_corrected <= 0.05) & (pairs.delta > 0)]
    by_hand = {m: 1 + int((shown.other == m).sum()) for m in res.board.models}  # "model" beats "other"
    table = res.table("m00", correction=correction)
    assert dict(zip(table.model, table["rank"])) == by_hand == res.arena_ranks(correction=correction)
    assert list(table["rank"]) == sorted(table["rank"])  # best first: a rank never falls down the board


def test_max_t_separates_what_holm_cannot_at_b_1000(res):
    """190 pairs at b = 1,000: Holm's smallest reachable p is 190/1,000, so no pair is significant and every model
    ranks 1; the max statistic separates most pairs and spreads the ranks."""
    assert not (res.pairs(correction="holm").p_corrected <= 0.05).any()
    assert set(res.arena_ranks(correction="holm").values()) == {1}
    assert (res.pairs(correction="maxt").p_corrected <= 0.05).sum() > 100
    assert max(res.arena_ranks(correction="maxt").values()) > 10


def test_max_t_over_a_family_of_tasks_is_the_statistic_over_every_task_s_resamples(res):
    """task_table's family of tasks x models corrected by max-T equals maxstat.adjusted on the stacked centred
    differences of every task, computed here directly from the tasks' resamples."""
    table = res.task_table("m00", correction="maxt")
    base = res.board.models.index("m00")
    columns, d, tol = [], [], []
    for k, task in enumerate(res.board.tasks):
        point, resampled = res.task_scores[k], res.resampled_tasks[:, k]
        for m in table.model[table.task == task]:
            i = res.board.models.index(m)
            d.append(point[i] - point[base])
            tol.append(tie(point[i], point[base]))
            columns.append(resampled[:, i] - resampled[:, base] - d[-1])
    stacked = np.stack(columns, axis=1)
    expected = maxstat.adjusted(np.array(d), lambda h: stacked[:, h], 1_000,
                                tol=np.array(tol))
    assert table.p_corrected.to_numpy() == pytest.approx(expected, abs=0)
    within = res.task_table("m00", correction="maxt", over="task")
    assert (within.p_corrected <= table.p_corrected + 1e-12).all()  # a smaller family never corrects more


def test_an_unknown_correction_names_every_choice(res):
    with pytest.raises(SettingsError, match="unknown correction 'maxT'.*holm, bonferroni, hochberg, bh, by, maxt"):
        res.pairs(correction="maxT")


@pytest.mark.slow
def test_a_null_board_is_rejected_anywhere_at_most_alpha_of_the_time_with_max_t():
    """Eight models alike in expectation on two tasks: over 300 boards the share with any pair significant after
    max-T lies within Monte-Carlo error of α (the family-wise error the correction promises)."""
    rng = np.random.default_rng(4)
    runs, alpha, rejected = 300, 0.05, 0
    for _ in range(runs):
        board = leaderboard.from_table(board_table(8, rng, step=0.0, items=120, tasks=("a", "b")))
        res = leaderboard.bootstrap(board, n_resamples=400, seed=int(rng.integers(1 << 30)))
        rejected += bool((res.pairs(alpha, "maxt").p_corrected <= alpha).any())
    error = 3 * np.sqrt(alpha * (1 - alpha) / runs)
    assert rejected / runs <= alpha + error, rejected / runs
    assert rejected / runs >= alpha - error, rejected / runs


def test_the_command_line_leads_with_the_rank_and_says_what_the_board_settles(tmp_path, capsys):
    from sigcore.__main__ import main

    path = tmp_path / "board.csv"
    board_table(20, np.random.default_rng(0)).to_csv(path, index=False)
    for correction, separated, top in (("holm", 0, "no model is separated from another"),
                                       ("maxt", None, "the top 4 (m19, m17, m18, and m16) are not separated")):
        assert main(["many", str(path), "--resamples", "1000", "--correction", correction]) == 0
        out = capsys.readouterr().out.splitlines()
        start = next(k for k, line in enumerate(out) if line.startswith("model "))
        assert out[start].split() == ["model", "rank", "score", "95%", "CI", "rank", "interval", "δ", "CI", "of", "δ",
                                  "p", "p", "corrected"]  # one group of all: no group column
        [said] = [line for line in out if line.startswith("The board separates")]
        res = leaderboard.bootstrap(leaderboard.from_table(pd.read_csv(path)), n_resamples=1_000)
        pairs = res.pairs(correction=correction)
        count = int((pairs.p_corrected <= 0.05).sum())
        assert count == separated or separated is None
        assert said.startswith(f"The board separates {count} of 190 pairs") and top in said, said
        ranks = res.arena_ranks(correction=correction)
        for line in out[start + 1:start + 21]:
            model, rank = line.split()[:2]
            assert int(rank) == ranks[model]
        assert main(["many", str(path), "--resamples", "1000", "--correction", correction, "--csv"]) == 0
        rows = pd.read_csv(pd.io.common.StringIO(capsys.readouterr().out))
        assert dict(zip(rows.model, rows["rank"])) == ranks


@pytest.mark.parametrize("n", [20, 50, 200])
@pytest.mark.parametrize("venue", ["acl", "icml", "lncs"])
def test_the_rank_figure_fits_a_page_or_says_it_shows_the_top(n, venue):
    """At ACL's width a 50-model rank figure was about 30 cm tall: now its rows close up to fit four fifths of the
    venue's text height, and where even that cannot hold them it draws the top ones and its caption says so."""
    from sigcore.report import board as words
    from sigcore.report.board_figures import paper_ranks
    from sigcore.report.style import PX_PER_IN, paper
    from sigcore.report.venues import PT_PER_IN, VENUES

    table = board_table(n, np.random.default_rng(1), step=0.3 / n, items=60, tasks=("a",))
    res = leaderboard.bootstrap(leaderboard.from_table(table), n_resamples=200)
    fig = paper_ranks(res, 0.05, "maxt", paper(venue))
    drawn, page = len(fig.layout.yaxis.ticktext), VENUES[venue].height / PT_PER_IN * PX_PER_IN
    assert fig.layout.height <= 0.8 * page
    assert drawn == n or fig.layout.height >= 0.78 * page  # a figure that leaves models out uses the page
    assert list(fig.layout.yaxis.ticktext) == list(res.table("m00", correction="maxt").model[:drawn])
    caption = words.figure_caption(res, "ranks", 0.05, "maxt", shown=drawn)
    assert (f"Only the top {drawn} of the {n} models fit a page" in caption) == (drawn < n)
    assert (drawn == n) == (n == 20 or (n, venue) == (50, "acl"))  # 50 fit ACL's taller page; 200 fit none
