"""One table per kind of result: ``--latex --venue``, the ``--paper`` folder's STEM-table.tex and the app's "Table
(LaTeX)" download are the same bytes for the same result and venue (the caption on the venue's side, one label),
and they compile with pdflatex in the venue's document."""

import json
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import streamlit as st

from sigcore import claims, leaderboard
from sigcore.__main__ import main
from sigcore.many import Many
from sigcore.result import Result
from ui import many as many_page
from ui import tasks as tasks_page
from ui import venue as venue_box
from ui import verdict

from helpers.latex import venue_document

pytestmark = pytest.mark.slow  # each table is compiled with pdflatex in its venue's class

ROOT = Path(__file__).resolve().parents[1]
DIGITS = ROOT / "sample_data" / "classification.csv"
SEEDS = ROOT / "sample_data" / "seeds"
VENUES = ["acl", "icml"]  # the caption below the table, and above it
PDFLATEX = "pdflatex"  # on PATH; conftest.py skips a test that starts it where lacking


def _printed(capsys, argv: list[str]) -> str:
    assert main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def _folder_table(capsys, argv: list[str], folder: Path) -> tuple[str, Path]:
    """The STEM-table.tex that ``argv --paper folder`` writes, and the folder."""
    _printed(capsys, [*argv, "--paper", str(folder)])
    tables = sorted(folder.glob("*-table.tex"))
    assert len(tables) == 1, tables
    return tables[0].read_text(encoding="utf-8"), folder


def _app(venue: str, key: str = venue_box.KEY) -> None:
    """The app's Venue box, set as a user sets it."""
    st.session_state.clear()
    st.session_state[key] = venue


def _same(printed: str, folder: str, app: str | None, venue: str) -> None:
    """--latex prints the sentence, a blank line and the table: its table is the folder's file and the app's."""
    assert printed.endswith("\n\n" + folder) and (app is None or app == folder)
    side = {"acl": "below", "icml": "above"}[venue]
    caption, tabular = folder.index("\\caption{"), folder.index("\\begin{tabular}")
    assert (caption > tabular) == (side == "below")
    assert folder.count("\\label{tab:") == 1


@pytest.mark.parametrize("venue", VENUES)
def test_a_pair_s_table_is_one_file(tmp_path, capsys, venue):
    argv = ["compare", str(DIGITS), "--gold", "gold", "--a", "svm_rbf", "--b", "logreg", "--test", "bootstrap",
            "--resamples", "400", "--venue", venue]
    printed = _printed(capsys, [*argv, "--latex"])
    folder, where = _folder_table(capsys, argv, tmp_path / "sigcore")
    saved = json.loads(next(where.glob("accuracy-*.json")).read_text())
    _app(venue)
    app = verdict.table_tex(Result.from_dict(saved), saved["a_name"], saved["b_name"])
    _same(printed, folder, app, venue)
    assert "\\label{tab:accuracy-svm-rbf-vs-logreg}" in folder
    _compiles(tmp_path, venue, folder)


@pytest.mark.parametrize("venue", VENUES)
def test_a_claim_s_table_is_one_file(tmp_path, capsys, venue):
    argv = ["compare", str(DIGITS), "--gold", "gold", "--a", "svm_rbf", "--b", "logreg", "--non-inferior", "0.02",
            "--test", "bootstrap", "--resamples", "400", "--venue", venue]
    printed = _printed(capsys, [*argv, "--latex"])
    folder, _ = _folder_table(capsys, argv, tmp_path / "sigcore")
    frame = pd.read_csv(DIGITS, dtype=str)
    c = claims.claim(frame.gold.tolist(), frame.svm_rbf.tolist(), frame.logreg.tolist(), kind="non-inferior",
                     margin=0.02, n_resamples=400)  # as the command line ran it
    _app(venue)
    _same(printed, folder, verdict.claim_tex(c, "svm_rbf", "logreg"), venue)
    _compiles(tmp_path, venue, folder)


@pytest.mark.parametrize("venue", VENUES)
@pytest.mark.parametrize("metrics", [["accuracy"], ["accuracy", "macro_f1"]])
def test_a_family_s_table_is_one_file(tmp_path, capsys, venue, metrics):
    argv = ["many", str(DIGITS), "--gold", "gold", "--baseline", "logreg", "--metric", *metrics, "--test",
            "bootstrap", "--resamples", "300", "--venue", venue]
    printed = _printed(capsys, [*argv, "--latex"])
    folder, where = _folder_table(capsys, argv, tmp_path / "sigcore")
    saved = json.loads(next(where.glob("*-vs-logreg.json")).read_text())
    families = [Many.from_dict(f) for f in saved["families"]]
    _app(venue, many_page._venue_key("page", families[0].metric))  # the family's own Venue box
    _same(printed, folder, many_page.table_tex(families, "page"), venue)
    if len(metrics) > 1:  # δ and its interval per metric would not fit: the scores, marked, by default
        assert "$\\delta$" not in folder.split("\\begin{tabular}")[1].split("\\midrule")[0]
    _compiles(tmp_path, venue, folder)


def _board(tmp_path: Path) -> Path:
    rng = np.random.default_rng(4)
    rows = [(model, task, f"{task}-{i}", float(rng.random() < p + 0.1 * (task == "arc")))
            for task in ("mmlu", "arc", "boolq") for i in range(60) for model, p in (("m1", 0.6), ("m2", 0.7),
                                                                                      ("m3", 0.65))]
    path = tmp_path / "scores.csv"
    pd.DataFrame(rows, columns=["model", "task", "item", "score"]).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("venue", VENUES)
def test_a_board_s_table_is_one_file(tmp_path, capsys, venue):
    path = _board(tmp_path)
    argv = ["many", str(path), "--baseline", "m1", "--resamples", "300", "--venue", venue]
    printed = _printed(capsys, [*argv, "--latex"])
    folder, _ = _folder_table(capsys, argv, tmp_path / "sigcore")
    res = leaderboard.bootstrap(leaderboard.from_table(pd.read_csv(path, keep_default_na=False)), n_resamples=300,
                                per_task=True)
    settings = tasks_page.Settings(("score",), "m1", "tasks", "family", 300, "holm", 0.05, 0, None)
    _app(venue)
    assert printed == folder  # the board's --latex is its table alone
    _same("\n\n" + printed, folder, tasks_page.table_tex(res, settings), venue)
    _compiles(tmp_path, venue, folder)


@pytest.mark.parametrize("venue", VENUES)
def test_runs_over_seeds_and_aso_tables_are_one_file(tmp_path, capsys, venue):
    runs = pd.read_csv(SEEDS / "digits_runs.csv")
    folder = tmp_path / "runs"
    folder.mkdir()
    runs[["id", "gold"]].to_csv(folder / "gold.csv", index=False)
    for column in runs.columns[2:]:
        runs[["id", column]].rename(columns={column: "prediction"}).to_csv(folder / f"{column}.csv", index=False)
    argv = ["seeds", "--gold", str(folder / "gold.csv"), "--a", *[str(folder / f"mlp_seed{i}.csv") for i in range(5)],
            "--b", *[str(folder / f"forest_seed{i}.csv") for i in range(5)], "--metric", "accuracy",
            "--resamples", "300", "--name", "A=MLP", "--name", "B=forest", "--venue", venue]
    printed = _printed(capsys, [*argv, "--latex"])
    table, _ = _folder_table(capsys, argv, tmp_path / "seeds")
    _same(printed, table, None, venue)
    argv = ["seeds", str(SEEDS / "digits_seed_scores.csv"), "--resamples", "300", "--venue", venue]
    printed = _printed(capsys, [*argv, "--latex"])
    aso, _ = _folder_table(capsys, argv, tmp_path / "aso")
    _same(printed, aso, None, venue)
    _compiles(tmp_path, venue, table + "\n" + aso)


def _compiles(where: Path, venue: str, tables: str) -> None:
    """The tables in the venue's document (its class, or its geometry), with booktabs: no error, no overfull box."""
    (where / "t.tex").write_text(venue_document(venue, "x\n" + tables).replace(
        "\\usepackage{graphicx}", "\\usepackage{graphicx}\n\\usepackage{booktabs}", 1), encoding="utf-8")
    done = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=where,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "Overfull \\hbox" not in (where / "t.log").read_text(encoding="latin-1")
