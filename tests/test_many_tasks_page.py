"""The Many page's "Many tasks" mode, driven through streamlit.testing: it opens on the lm-eval sample suite and
shows the board the engine computes (sigcore.leaderboard, as `sigcore many` prints it), the rank figure and each
task's δ; uploads (a zip of lm-eval's output folder, Inspect logs, a tidy table) read in memory give the same
numbers; a bad upload is told, and names are never markup."""

import io
import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigcore import leaderboard
from sigcore.errors import SettingsError
from sigcore.logs import tidy
from sigcore.report import board as words
from sigcore.report import board_table, p_cell
from ui import tasks as tasks_ui
from ui.safe import md

from helpers.many_page import HOSTILE, board_with, frame_with, page, run_tasks, shown_text, upload, user_markup, widget

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "sample_data" / "lm_eval_suite"
INSPECT = ROOT / "tests" / "data" / "inspect"


def test_it_opens_on_the_sample_suite_with_the_engine_s_board_and_ranks():
    at = run_tasks(page("Many tasks"))
    assert not at.exception and not at.error
    board = board_with(at, "rank interval")
    res = leaderboard.bootstrap(leaderboard.from_table(tidy.from_logs([SUITE]), metric=list(tasks_ui.SAMPLE_METRICS)),
                                n_resamples=2_000, seed=0, per_task=True)
    expected = res.table("alpha")
    assert list(board.model) == list(expected.model) == ["gamma", "beta", "delta", "alpha"]
    assert board.score.tolist() == [f"{v:.4f}" for v in expected.score]
    assert board.group.tolist() == [str(g) for g in expected.group] == ["1", "1", "2", "2"]
    assert board["δ"].tolist() == [f"{v:+.4f}".replace("-", "\u2212") if v == v else "(baseline)"
                                   for v in expected.delta]
    text = shown_text(at)
    assert md(words.heading(res, "alpha", 0.05, "holm")) in text  # the command line's words
    assert "quiz (2 tasks, by their items) as one" in words.heading(res, "alpha", 0.05, "holm")
    assert md(tidy.from_logs([SUITE]).attrs["notes"][1]) in text  # the reader's notes are on the page
    per_task = board_with(at, "task")
    assert len(per_task) == 4 * 3 and set(per_task.task) == set(res.board.tasks)
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert [t for t in chart["layout"]["yaxis"]["ticktext"]] == ["gamma", "beta", "delta", "alpha"]
    assert [a["text"] for a in chart["layout"]["annotations"]] == ["group 1", "group 1", "group 2", "group 2"]
    cd = json.loads(at.get("plotly_chart")[1].proto.spec)  # the critical-difference-style diagram
    assert len([s for s in cd["layout"]["shapes"] if s["line"]["width"] == 6]) == len(res.cliques()) == 2
    assert dict(zip([c[0] for c in cd["data"][0]["customdata"]], cd["data"][0]["x"])) == pytest.approx(
        dict(zip(res.board.models, res.mean_ranks())))
    assert md(words.friedman(res, 0.05)) in text  # offered in its expander, below the default's figures
    tex = [c.value for c in at.code if "tabular" in c.value]  # the paper's task x model table
    assert tex == [board_table.latex(res, "alpha", 0.05, "holm", "family").rstrip("\n")]  # st.code trims the end
    nemenyi = json.loads(at.get("plotly_chart")[2].proto.spec)
    assert f"CD = {res.friedman().critical_difference:.2f}" in nemenyi["layout"]["title"]["text"]


def test_a_zip_of_the_output_folder_gives_the_same_board_as_the_sample():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for p in sorted(SUITE.glob("*/*")):
            z.writestr(f"out/{p.relative_to(SUITE).as_posix()}", p.read_bytes())
    at = upload(page("Many tasks"), ("out.zip", buffer.getvalue()))
    at.multiselect[0].set_value(list(tasks_ui.SAMPLE_METRICS))
    at = run_tasks(at)
    assert not at.error
    sample = run_tasks(page("Many tasks"))
    assert board_with(at, "rank").score.tolist() == board_with(sample, "rank").score.tolist()


def test_inspect_logs_and_a_tidy_table_upload_and_bad_files_are_told(tmp_path):
    logs = [(n, (INSPECT / n).read_bytes()) for n in ("alpha.eval", "beta.json.gz")]
    at = run_tasks(upload(page("Many tasks"), *logs))  # two scorers: which one is the user's to say
    assert [i.value for i in at.info] == ["Choose at least one of the 2 metrics, then press Run."]
    assert not at.table
    at.multiselect[0].set_value(["match"])
    at = run_tasks(at)
    assert not at.error and board_with(at, "rank").model.tolist() == ["mockllm/alpha", "mockllm/beta"]
    res = leaderboard.bootstrap(leaderboard.from_table(tidy.from_logs([INSPECT / "alpha.eval", INSPECT / "beta.eval"]),
                                                       metric="match"), n_resamples=2_000)
    widget(at.selectbox, "Resample").set_value("metadata.passage")  # the passages, resampled whole
    clustered = run_tasks(at)
    shown = board_with(clustered, "rank").set_index("model")
    by_passage = leaderboard.bootstrap(leaderboard.from_table(tidy.from_logs([INSPECT / "alpha.eval",
                                                                              INSPECT / "beta.eval"]),
                                                              metric="match", cluster="metadata.passage"),
                                       n_resamples=2_000, per_task=True).table("mockllm/alpha")
    assert shown.loc["mockllm/beta", "p"] == p_cell(by_passage.set_index('model').loc['mockllm/beta', 'p_value'],
                                                          0.05)  # the one rule of p's digits
    assert any("10 clusters by metadata\\.passage" in t for t in shown_text(clustered))
    widget(at.selectbox, "Resample").set_value(None)
    at = run_tasks(at)
    split = frame_with(at, "items' share")  # Inspect's 3 epochs: how much of δ's variance the items give
    assert split.values.tolist() == words.variance_rows(res, "mockllm/alpha") == [
        ["mockllm/beta", "23%", "77%", "29%", "22%"]]
    table = tidy.from_logs([INSPECT / "alpha.eval", INSPECT / "beta.eval"])
    table["model"] = table.model.replace({"mockllm/alpha": HOSTILE})
    at = upload(page("Many tasks"), ("scores.csv", table.to_csv(index=False).encode()))
    at.multiselect[0].set_value(["match"])
    at = run_tasks(at)
    assert not at.error and HOSTILE in board_with(at, "rank").model.tolist()  # a cell, as it is
    assert user_markup(shown_text(at)) == []
    assert user_markup([str(c) for t in at.table for c in t.value.values.ravel()]) == []  # a table's cells: Markdown
    bad = upload(page("Many tasks"), ("scores.csv", pd.DataFrame({"model": ["a"], "task": ["t"]})
                                      .to_csv(index=False).encode()))
    assert [e.value for e in bad.error] == [md("scores.csv: has no item and no score column. Give the tidy table: "
                                              "model, task, item, run, metric, score (sigcore convert writes it "
                                              "from logs).")]
    broken = upload(page("Many tasks"), ("logs.zip", b"PK\x03\x04 not a zip"))
    assert any(md("logs.zip: is not a readable zip") in e.value for e in broken.error)


def test_other_files_take_the_other_slot_so_the_last_run_s_figures_go_at_once():
    """The settings and results sit in one of two slots below the data: other files move them to the other slot,
    which empties the last run's at once (tests/test_browser.py watches the figures go before the new data is
    read); the same files keep the slot, whose figures are redrawn in place."""
    at = run_tasks(page("Many tasks"))
    assert at.session_state[tasks_ui.SLOT] == 0 and len(at.get("plotly_chart")) == 3
    at = run_tasks(at)  # the same files, run again
    assert at.session_state[tasks_ui.SLOT] == 0
    widget(at.radio, "Data").set_value("Upload").run()  # no files yet: other files than the sample's
    assert at.session_state[tasks_ui.SLOT] == 1 and not at.get("plotly_chart")
    logs = [(n, (INSPECT / n).read_bytes(), "application/octet-stream") for n in ("alpha.eval", "beta.json.gz")]
    at.file_uploader[0].set_value(logs).run()
    assert at.session_state[tasks_ui.SLOT] == 0
    at.multiselect[0].set_value(["match"])
    at = run_tasks(at)  # the settings are the same files': the slot stays
    assert at.session_state[tasks_ui.SLOT] == 0 and len(at.get("plotly_chart")) == 2  # one task: no Friedman


def test_each_figure_s_title_stays_clear_of_plotly_s_toolbar_in_dark_text():
    """At 1280 px beside the sidebar a figure is about 820 px wide and Plotly's toolbar takes its top right 230 px:
    each title line is at most 64 characters (about 480 px of 14 px text), the top margin holds its lines, and the
    text is Streamlit's ink, not its theme's faint grey."""
    from sigcore.report.board_figures import INK, TITLE_CHARS
    from sigcore.report.style import plain

    at = run_tasks(page("Many tasks"))
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    long = [s["layout"]["title"]["text"] for s in specs]
    assert any("<br>" in t for t in long)  # the suite's titles need two lines
    for spec in specs:
        lines = spec["layout"]["title"]["text"].split("<br>")
        assert all(len(plain(line)) <= TITLE_CHARS for line in lines), lines
        assert spec["layout"]["margin"]["t"] >= 20 * len(lines) + 30
        assert spec["layout"]["font"]["color"] == INK and spec["layout"]["xaxis"]["tickfont"]["color"] == INK
        assert not any("= <br>" in t or "<br>=" in t for t in lines)  # "p = 0.0015" is never broken


def test_a_model_that_lacks_items_stops_until_unmatched_items_are_dropped(tmp_path, capsys):
    """As compare's inputs: the first model that lacks items is named with what to do, on the page and the command
    line; with Drop unmatched items (--drop-unmatched) each task compares the items every model has, and says so."""
    from sigcore.__main__ import main

    table = tidy.from_logs([INSPECT / "alpha.eval", INSPECT / "beta.eval"])
    first = sorted(table.item.unique())[:2]
    holes = table[~((table.model == "mockllm/beta") & table.item.isin(first))]
    csv = holes.to_csv(index=False).encode()
    at = upload(page("Many tasks"), ("scores.csv", csv))
    at.multiselect[0].set_value(["match"])
    at = run_tasks(at, b=500)
    assert len(at.error) == 1 and "model 'mockllm/beta' lacks 2 items of task" in at.error[0].value
    assert "Drop unmatched items" in at.error[0].value
    widget(at.checkbox, "Drop unmatched items").check()
    at = run_tasks(at, b=500)
    n = table.item.nunique() - 2
    assert not at.error and any("dropped 2 items not every model has" in t for t in shown_text(at))
    res = leaderboard.bootstrap(leaderboard.from_table(holes, metric=["match"], on_missing="drop"), n_resamples=500)
    assert [len(i) for i in res.board.items.values()] == [n]
    assert board_with(at, "rank").score.tolist() == [f"{v:.4f}" for v in sorted(res.aggregate, reverse=True)]
    path = tmp_path / "scores.csv"
    path.write_bytes(csv)
    assert main(["many", str(path), "--metric", "match", "--resamples", "500"]) == 2
    assert "--drop-unmatched" in capsys.readouterr().err
    assert main(["many", str(path), "--metric", "match", "--resamples", "500", "--drop-unmatched"]) == 0
    assert "dropped 2 items not every model has" in capsys.readouterr().err


def test_a_b_too_small_for_the_correction_is_told_not_read_as_no_difference(tmp_path, capsys):
    """10 models on 20 tasks, the per-task δs corrected over the family of 180: at b = 500 no p is below 1/500, and
    Holm multiplies the smallest by 180 (0.36 > α), so no per-task δ can be significant however large; the page and
    the command line say so with the b that would reach α (180 / 0.05 = 3,600: 4,000), and say nothing at 4,000."""
    from sigcore.__main__ import main

    rng = np.random.default_rng(3)
    frame = pd.DataFrame([(f"m{m}", f"t{t}", str(i), float(rng.random() < 0.3 + 0.05 * m))
                          for m in range(10) for t in range(20) for i in range(30)],
                         columns=["model", "task", "item", "score"])
    said = ["The tie groups cannot part (every model stays in one group) at these settings: with b = 500, the "
            "smallest corrected p Holm's correction can give over 45 pairs is 0.09 > α = 0.05. Raise b to at least "
            "1,000.",  # and the 45 pairs of the tie groups: 0.09
            "No per-task δ can be significant at these settings: with b = 500, the smallest corrected p Holm's "
            "correction can give over 180 comparisons is 0.36 > α = 0.05. Raise b to at least 4,000."]
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    assert main(["many", str(path), "--resamples", "500", "--per-task", "family"]) == 0
    assert capsys.readouterr().out.splitlines()[1:3] == [f"warning: {w}" for w in said]
    assert main(["many", str(path), "--resamples", "500", "--per-task", "family", "--json"]) == 0
    assert capsys.readouterr().err.splitlines() == [f"warning: {w}" for w in said]
    assert main(["many", str(path), "--resamples", "4000", "--per-task", "family", "--csv"]) == 0
    assert "warning" not in capsys.readouterr().err
    at = upload(page("Many tasks"), ("scores.csv", frame.to_csv(index=False).encode()))
    at = run_tasks(at, b=500)
    assert [w.value for w in at.warning] == [md(w) for w in said]


def _printed_rows(lines: list[str]) -> list[list[str]]:
    """The command line's table rows, its columns two or more spaces apart (a cell holds single spaces)."""
    return [re.split(r" {2,}", line.rstrip()) for line in lines]


def test_the_board_s_columns_and_cells_are_the_ones_the_command_line_prints(capsys):
    """The board and the per-task table show the headers and cells `sigcore many` prints (report.board's
    model_rows and per_task_rows), not the CSV's snake_case: "δ", "CI of δ", "p corrected"."""
    from sigcore.__main__ import main

    at = run_tasks(page("Many tasks"))
    assert main(["many", str(SUITE), "--metric", *tasks_ui.SAMPLE_METRICS, "--resamples", "2000", "--baseline",
                 "alpha", "--per-task", "family"]) == 0
    lines = capsys.readouterr().out.splitlines()
    board, per_task = board_with(at, "rank interval"), board_with(at, "task")
    assert "p corrected" in board.columns and "p_corrected" not in board.columns
    printed = _printed_rows(lines[1:2 + len(board)])  # the heading, then the header and a row per model
    assert [board.columns.tolist(), *board.values.tolist()] == [row + [""] * (len(board.columns) - len(row))
                                                                 for row in printed]  # the baseline's blanks
    start = lines.index(next(line for line in lines if line.startswith("per task: δ against alpha")))
    assert [per_task.columns.tolist(), *per_task.values.tolist()] == _printed_rows(
        lines[start + 1:start + 2 + len(per_task)])


FAKE_SVG = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><g class="stand-in"/></svg>'


def test_the_rank_svg_s_random_ids_are_fixed_so_a_board_gives_one_page(monkeypatch):
    """plotly.js names an SVG's defs and clip paths after a random id drawn at each export: the page's figure
    names them "board", so that the same board gives the same page byte for byte."""
    from sigcore.report import board_page, export

    drawn = (b'<svg><defs id="defs-a1b2c3"/><clipPath id="clipa1b2c3xy"/><g clip-path="url(#clipa1b2c3xy)"/>'
             b'<text fill="#a1b2c3">a1b2c3</text></svg>')
    monkeypatch.setattr(export, "figure_image", lambda fig, fmt, **size: drawn)
    res = leaderboard.bootstrap(leaderboard.from_table(tidy.from_logs([SUITE]), metric=list(tasks_ui.SAMPLE_METRICS)),
                                n_resamples=200)
    assert board_page.rank_svg(res, 0.05, "holm") == (
        '<svg><defs id="defs-board"/><clipPath id="clipboardxy"/><g clip-path="url(#clipboardxy)"/>'
        '<text fill="#a1b2c3">a1b2c3</text></svg>', None)  # a colour or a text that happens to match: kept

    def missing(fig, fmt, **size):
        raise SettingsError("static images need the kaleido package")
    monkeypatch.setattr(export, "figure_image", missing)
    assert board_page.rank_svg(res, 0.05, "holm") == (None, "static images need the kaleido package.")


def test_the_page_and_markdown_downloads_are_the_command_line_s_byte_for_byte(tmp_path, capsys, monkeypatch,
                                                                              deferred):
    """"Page (.html)" and "Board (.md)" are what `many --html FILE` writes and `many --markdown` prints for the
    same board and settings: the sample at the defaults, and an uploaded table at another baseline, α, correction
    and aggregate. The figure is one SVG drawn by kaleido for both (a stand-in here: the fast tier starts no
    browser; test_the_page_s_figure_is_kaleido_s_and_the_same_for_both draws it); both drawn only on the click."""
    from sigcore.__main__ import main
    from sigcore.report import export

    drawn = []
    monkeypatch.setattr(export, "figure_image", lambda fig, fmt, **size: drawn.append(fmt) or FAKE_SVG)
    rng = np.random.default_rng(7)
    frame = pd.DataFrame([(f"model-{m}", f"task-{t}", str(i), float(rng.random() < 0.4 + 0.06 * m))
                          for m in range(6) for t in range(5) for i in range(60)],
                         columns=["model", "task", "item", "score"])
    (tmp_path / "scores.csv").write_bytes(frame.to_csv(index=False).encode())
    sample = run_tasks(page("Many tasks"))
    upload_at = upload(page("Many tasks"), ("scores.csv", (tmp_path / "scores.csv").read_bytes()))
    widget(upload_at.selectbox, "Baseline").set_value("model-2")
    upload_at.selectbox(key="tasks-correction").set_value("maxt")
    upload_at.selectbox(key="tasks-alpha").set_value(0.1)
    upload_at.radio(key="tasks-weight").set_value("items")
    uploaded = run_tasks(upload_at, b=1_000)
    assert not uploaded.error and "b = 1,000" in " ".join(shown_text(uploaded))
    for at, args in ((sample, [str(SUITE), "--metric", *tasks_ui.SAMPLE_METRICS, "--resamples", "2000",
                               "--baseline", "alpha"]),
                     (uploaded, [str(tmp_path / "scores.csv"), "--resamples", "1000", "--baseline", "model-2",
                                 "--correction", "maxt", "--alpha", "0.1", "--weight", "items"])):
        assert drawn == []  # nothing drawn until a download is asked for
        buttons = {b.proto.label: b.proto for b in at.get("download_button")}
        html = deferred[buttons["Page (.html)"].deferred_file_id]()
        markdown = deferred[buttons["Board (.md)"].deferred_file_id]()
        assert main(["many", *args, "--html", str(tmp_path / "board.html")]) == 0
        capsys.readouterr()
        assert main(["many", *args, "--markdown"]) == 0
        assert markdown.encode() == capsys.readouterr().out.encode()
        assert html.encode() == (tmp_path / "board.html").read_bytes()
        assert drawn == ["svg", "svg"]  # one figure for the app's page, one for the command line's
        assert '<figure><svg xmlns="http://www.w3.org/2000/svg"><g class="stand-in"/></svg></figure>' in html
        drawn.clear()
    assert md("δ against model-2") in markdown and md("α = 0.1") in markdown and f"| {md('model-2')} | " in markdown


@pytest.mark.slow  # kaleido draws the rank figure in Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_page_s_figure_is_kaleido_s_and_the_same_for_both(tmp_path):
    """With the figure really drawn, the app's page is the command line's byte for byte: plotly.js names the SVG's
    clip paths after a random id each time it draws, which the report layer fixes (board_page.rank_svg)."""
    from sigcore.__main__ import main
    from sigcore.report import board_page

    res = leaderboard.bootstrap(leaderboard.from_table(tidy.from_logs([SUITE]), metric=list(tasks_ui.SAMPLE_METRICS)),
                                n_resamples=500)
    first, second = (board_page.rank_svg(res, 0.05, "holm") for _ in range(2))
    assert first[1] is None and first == second and 'id="defs-board"' in first[0]
    settings = tasks_ui.Settings(tasks_ui.SAMPLE_METRICS, "alpha", "tasks", "family", 500, "holm", 0.05, 0)
    assert main(["many", str(SUITE), "--metric", *tasks_ui.SAMPLE_METRICS, "--resamples", "500", "--baseline", "alpha",
                 "--html", str(tmp_path / "board.html")]) == 0
    html = tasks_ui.page_html(res, settings)
    assert "<figure><svg" in html and ">gamma</text>" in html
    assert html.encode() == (tmp_path / "board.html").read_bytes()
