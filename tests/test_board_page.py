"""A board a website can publish (issue 41 §2): `many --html FILE` writes one self-contained page and `--markdown`
prints the board for a README; both show the rows the command line prints, names escaped, and the page makes no
request of its own, checked in Chromium at 1280 px."""

import html
import re

import numpy as np
import pandas as pd
import pytest

from sigcore import leaderboard
from sigcore.__main__ import main
from sigcore.report import board as words
from sigcore.report import board_page
from sigcore.report.export import md_escape

from helpers.browser import launch

HOSTILE = "<img src=x onerror=alert(1)>|**bold**"


def tidy(n_models: int = 6) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    names = [HOSTILE if k == 2 else f"model-{k}" for k in range(n_models)]
    rows = [pd.DataFrame({"model": name, "task": task, "item": range(80),
                          "score": (rng.random(80) < 0.4 + 0.07 * k).astype(float)})
            for task in ("arc", "gsm8k", "mmlu") for k, name in enumerate(names)]
    return pd.concat(rows, ignore_index=True)


@pytest.fixture(scope="module")
def res():
    return leaderboard.bootstrap(leaderboard.from_table(tidy()), n_resamples=500)


def test_markdown_holds_the_rows_the_terminal_prints_with_names_escaped(res, tmp_path, capsys):
    path = tmp_path / "board.csv"
    tidy().to_csv(path, index=False)
    assert main(["many", str(path), "--resamples", "500", "--baseline", "model-0", "--markdown"]) == 0
    text = capsys.readouterr().out
    header, rows = words.model_rows(res.table("model-0"), "model-0", 0.05, 1 / 500)
    assert "| " + " | ".join(header) + " |" in text
    lines = text.split("\n\n")[1].splitlines()  # the models' table (the tasks' follows)
    for row in rows:
        [line] = [line for line in lines if line.startswith(f"| {md_escape(row[0])} |")]
        assert [c.strip() for c in re.split(r"(?<!\\)\|", line)[2:-1]] == row[1:]
    assert HOSTILE not in text and r"\<img src=x onerror=alert\(1\)\>\|\*\*bold\*\*" in text
    assert words.settled(res, 0.05, "holm") in text.replace("\\", "")


def test_the_page_is_self_contained_escapes_names_and_holds_every_model_and_task(res):
    page = board_page.page(res, "model-0", 0.05, "holm", figure_svg='<?xml version="1.0"?><svg id="f"></svg>')
    assert page.startswith("<!DOCTYPE html>") and '<svg id="f"></svg>' in page and "<?xml" not in page
    assert HOSTILE not in page and html.escape(HOSTILE) in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing fetched from elsewhere
    for model in res.board.models:
        assert f"<td>{html.escape(model)}</td>" in page
    for task in res.board.tasks:
        assert f"<th>{task}</th>" in page
    units, scores = res.unit_scores()
    assert f"<td>{scores[0][0]:.4f}</td>" in page  # each task's score, as the second table shows it


@pytest.mark.browser
def test_many_html_renders_in_chromium_at_1280_px_without_a_request(tmp_path, capsys):
    from playwright.sync_api import sync_playwright

    path, out = tmp_path / "board.csv", tmp_path / "board.html"
    tidy(12).to_csv(path, index=False)
    assert main(["many", str(path), "--resamples", "500", "--html", str(out)]) == 0
    capsys.readouterr()
    assert "<svg" in out.read_text(encoding="utf-8")  # the rank figure, inline
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        requests = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(out.as_uri())
        page.wait_for_selector("table")
        assert requests == [out.as_uri()]
        shown = page.inner_text("body")
        for k in range(12):
            assert (HOSTILE if k == 2 else f"model-{k}") in shown
        assert page.evaluate("document.querySelectorAll('img').length") == 0  # the hostile name stayed text
        widths = page.evaluate("[...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right)")
        assert max(widths) <= 1280
        browser.close()
