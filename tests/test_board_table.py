"""The task × model table of a board (sigcore.report.board_table): its scores are the board's, every mark agrees
with the corrected per-task and aggregate decisions over many random boards, a group's δ is its tasks' combined
as the group averages them, and the LaTeX table compiles with pdflatex in an ACL paper, names escaped."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from sigcore import leaderboard
from sigcore.__main__ import main
from sigcore.report import board_table
from sigcore.report.export import latex_escape

from helpers.boards import RIGHT, table
from helpers.latex import compile_paper

HOSTILE = "m3_{x} & 50% #1"


def _grouped(seed: int, how: str = "items") -> pd.DataFrame:
    frame = table(seed=seed, runs=1)
    grouped = frame.task.isin(["arc", "gsm8k"])
    return frame.assign(group=np.where(grouped, "reasoning", ""), group_weight=np.where(grouped, how, ""))


@pytest.mark.parametrize("seed", range(8))
def test_every_mark_is_the_corrected_decision(seed):
    rng = np.random.default_rng(seed)
    frame = _grouped(seed, how=("items", "tasks")[seed % 2])
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=400, seed=seed, per_task=True)
    baseline = str(rng.choice(list(RIGHT)))
    alpha, over = (0.05, 0.1)[seed % 2], ("family", "task")[seed // 4]
    wide = board_table.frame(res, baseline, alpha, "holm", over)
    units, scores = res.unit_scores()
    assert set(units) == {"mmlu", "boolq", "reasoning"} and units[-1] == "reasoning"  # a group after the tasks
    tasks = res.task_table(baseline, alpha, "holm", over=over, tasks=units).set_index(["task", "model"])
    board = res.table(baseline, alpha, "holm").set_index("model")
    assert list(wide.model) == list(board.index)  # best first
    for r in wide.to_dict(orient="records"):
        m = r["model"]
        assert r["aggregate"] == board.loc[m, "score"] and r["group"] == board.loc[m, "group"]
        for u, name in enumerate(units):
            assert r[name] == scores[u, res.board.models.index(m)]
            expected = "" if m == baseline else _decision(tasks.loc[(name, m)], alpha)
            assert r[f"{name} mark"] == expected
        assert r["aggregate mark"] == ("" if m == baseline else _decision(board.loc[m], alpha))


def _decision(row, alpha):
    if row.p_corrected > alpha or row.delta == 0:
        return ""
    return "better" if row.delta > 0 else "worse"


def test_a_group_s_delta_is_its_tasks_combined_as_the_group_averages_them():
    frame = _grouped(3)
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=4_000, seed=1, per_task=True)
    merged = frame.assign(task=frame.task.replace({"arc": "reasoning", "gsm8k": "reasoning"}))
    both = leaderboard.from_table(merged.drop(columns=["group", "group_weight"]))
    k = both.tasks.index("reasoning")
    i, j = res.board.models.index("m4"), res.board.models.index("m1")
    d, low, high, p = res.delta("m4", "m1", task="reasoning")
    assert d == pytest.approx(both.scores["reasoning"][:, i].mean() - both.scores["reasoning"][:, j].mean())
    # its spread: the two tasks resampled apart, each weighted by its share of the group's items
    sizes = {t: len(res.board.items[t]) for t in ("arc", "gsm8k")}
    variance = sum((sizes[t] / 110) ** 2 * np.var(res.board.scores[t][:, i] - res.board.scores[t][:, j]) / sizes[t]
                   for t in sizes)
    point, resampled = res._task_values("reasoning")
    spread = np.std(resampled[:, i] - resampled[:, j])
    assert spread == pytest.approx(np.sqrt(variance), rel=4 / np.sqrt(2 * 4_000))
    assert k >= 0 and low < d < high


@pytest.mark.slow  # pdflatex
def test_the_latex_table_compiles_in_an_acl_column_or_across_both(tmp_path):
    frame = table(seed=2, runs=1)
    frame["model"] = frame.model.replace({"m3": HOSTILE})
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=1_000, per_task=True)
    tex = board_table.latex(res, "m0")
    log = compile_paper(tmp_path, tex)
    assert "Overfull" not in log
    assert r"m3\_\{x\} \& 50\% \#1" in tex  # the name as text, never as markup
    wide = board_table.frame(res, "m0").set_index("model")
    units, checked = res.unit_scores()[0], 0
    for line in tex.splitlines():
        cells = line.strip().removesuffix(r"\\").strip().split(" & ")
        if len(cells) != 3 + len(units) or cells[0] == "Model":
            continue
        name = {latex_escape(m): m for m in wide.index}[cells[0]]
        shown = {r"$^\dagger$": "better", r"$^\ddagger$": "worse"}
        for cell, column in zip(cells[2:], [*units, "aggregate"]):
            mark = next((v for k, v in shown.items() if cell.endswith(k)), "")
            assert mark == wide.loc[name, f"{column} mark"]
            assert float(re.match(r"[0-9.]+", cell).group()) == pytest.approx(wide.loc[name, column], abs=5e-5)
        checked += 1
    assert checked == len(wide) == 5


def test_many_prints_the_table_and_its_json(tmp_path, capsys):
    frame = _grouped(4)
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    args = ["many", str(path), "--baseline", "m1", "--resamples", "500"]
    assert main([*args, "--latex", "--venue", "icml"]) == 0
    res = leaderboard.bootstrap(leaderboard.from_table(pd.read_csv(path, keep_default_na=False)), n_resamples=500,
                                per_task=True)
    assert capsys.readouterr().out == board_table.latex(res, "m1", venue="icml")
    assert main([*args, "--json", "--per-task", "family"]) == 0
    records = json.loads(capsys.readouterr().out)["per_task"]["table"]
    assert records == board_table.frame(res, "m1").to_dict(orient="records")
    assert main(["many", str(path), "--all-pairs", "--latex"]) == 2
    assert "--latex marks each task's score against a baseline" in capsys.readouterr().err
