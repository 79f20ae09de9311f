"""The Pairwise judgments page (app_pages/preferences.py, issue 42 §5) driven through streamlit.testing: with no
upload it explains the formats and nothing else; an upload is read in memory, its shape and the readers' notes said;
every setting reaches the ratings (the page shows what sigcore.preferences and the command line give at those
settings); a bad file gets the reader's one-line message; a hostile model name stays text; and the downloads are
`sigcore preferences`'s outputs byte for byte. One Chromium test (marked browser) looks at the page at 1280 × 720
and on a phone."""

import html
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore.errors import InputError
from sigcore.judgments import read_all
from sigcore.report import preferences as views
from ui import preferences as page_ui
from ui.safe import md

from helpers.browser import launch, streamlit_server
from helpers.many_page import board_with, shown_text, widget

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "judgments"
FAKE_SVG = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><g class="stand-in"/></svg>'
HOSTILE = "<img src=x onerror=alert(1)>"
B = 500  # resamples in these tests: the page's default, 10,000, is the command line's too


def battles_csv(names=("m0", "m1", "m2", "m3", "m4"), items=80, seed=1) -> bytes:
    """Arena battles drawn from a known Bradley–Terry model (strengths 0.4 log odds apart), ties one in ten: five
    pairs in a ring on each item, each judged with chance 0.7."""
    rng = np.random.default_rng(seed)
    rows = []
    for q in range(items):
        for a, b in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 2)]:
            if rng.random() < 0.7:
                p = 1 / (1 + np.exp(-0.4 * (a - b)))
                winner = "tie" if rng.random() < 0.1 else "model_a" if rng.random() < p else "model_b"
                rows.append((f"q{q}", names[a], names[b], winner))
    return pd.DataFrame(rows, columns=["question_id", "model_a", "model_b", "winner"]).to_csv(index=False).encode()


def opened() -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    return at.switch_page("app_pages/preferences.py").run()


def uploaded(*files: tuple[str, bytes], b: int = B) -> AppTest:
    """The page with ``files`` uploaded, its first run at ``b`` resamples (set before the form is drawn)."""
    at = opened()
    at.radio(key="preferences-source").set_value("Upload").run()
    at.session_state["preferences-b"] = b
    at.file_uploader[0].set_value([(name, data, "application/octet-stream") for name, data in files])
    return at.run()


def run(at: AppTest) -> AppTest:
    next(b for b in at.button if b.label == "Run").click()
    return at.run()


def models_shown(at: AppTest) -> list[list[str]]:
    return board_with(at, "rank interval").values.tolist()


def test_the_page_opens_with_the_sample_and_its_position_bias_and_agreement():
    at = opened()
    assert not at.exception and not at.error
    res = sigcore.preferences(page_ui.SAMPLE)
    assert models_shown(at) == views.model_rows(res)[1]
    said = shown_text(at)
    assert len(views.findings(res)) == 3 and all(md(f) in said for f in views.findings(res))
    assert "Cohen's κ" in views.findings(res)[2] and "judge-a" in views.findings(res)[2]


def test_with_no_upload_the_page_explains_the_formats_and_nothing_else():
    at = opened()
    at.radio(key="preferences-source").set_value("Upload")
    at = at.run()
    assert not at.exception and not at.error
    assert at.title[0].value == "Pairwise judgments: which model do the judges prefer?"
    assert page_ui.FORMATS in [m.value for m in at.markdown]
    assert not at.table and not at.number_input and not at.get("plotly_chart") and not at.get("download_button")


def test_an_upload_says_its_shape_and_notes_and_shows_the_command_line_s_views():
    data = (DATA / "mt_bench_pair.jsonl").read_bytes()
    at = uploaded(("mt_bench_pair.jsonl", data))
    assert not at.exception and not at.error
    res = sigcore.preferences([("mt_bench_pair.jsonl", data)], n_resamples=B)
    text = shown_text(at)
    said = md("mt_bench_pair.jsonl") + ": read as MT-Bench pairwise judgments (`question_id`, `model_1`"
    assert said in "".join(text)
    assert [i.value for i in at.info] == [md(n) for n in res.notes]  # the reader's above, the fit's below
    assert md(res.battles.notes[0]) == at.info[0].value and "left out, as FastChat leaves them out" in at.info[0].value
    assert models_shown(at) == views.model_rows(res)[1]
    assert views.model_rows(res)[0] == list(board_with(at, "rank interval").columns)
    for words in (views.heading(res), views.settled(res), views.legend(res)):
        assert md(words) in text
    pairs = board_with(at, "p corrected")
    assert pairs.values.tolist() == views.pair_rows(res)[1]
    assert [c.value for c in at.code][0] == res.signature
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert chart["layout"]["yaxis"]["ticktext"] == list(res.ratings.table().model)
    assert [b.proto.label for b in at.get("download_button")] == [
        "Download SVG", "Models (.csv)", "All (.json)", "Page (.html)", "Ratings (.md)", "Table (.tex)"]
    assert views.findings(res)[0].startswith("Position bias: of 5 judgment pairs")
    assert all(md(f) in text for f in views.findings(res))  # judged in both orders: the position bias said
    at.checkbox(key="preferences-reconcile").check()
    at.number_input(key="preferences-prior").set_value(1.0)
    at = run(at)
    again = sigcore.preferences([("mt_bench_pair.jsonl", data)], n_resamples=B, reconcile=True, prior=1.0)
    assert not at.error and models_shown(at) == views.model_rows(again)[1] != views.model_rows(res)[1]
    assert md(views.findings(again)[1]) in shown_text(at) and again.reconciled


def test_each_setting_reaches_the_ratings():
    """Each setting changed in turn (keeping the ones before): the page shows what sigcore.preferences gives at the
    settings so far, and something other than before."""
    data = battles_csv()
    at = uploaded(("battles.csv", data))
    assert not at.error
    changes = [("ties", "davidson", lambda: at.selectbox(key="preferences-ties")),
               ("scale", "log", lambda: at.selectbox(key="preferences-scale")),
               ("baseline", "m3", lambda: widget(at.selectbox, "Baseline")),
               ("prior", 2.0, lambda: at.number_input(key="preferences-prior")),
               ("n_resamples", 600, lambda: at.number_input(key="preferences-b")),
               ("seed", 7, lambda: at.number_input(key="preferences-seed")),
               ("alpha", 0.1, lambda: at.selectbox(key="preferences-alpha")),
               ("correction", "maxt", lambda: at.selectbox(key="preferences-correction"))]
    settings = {"n_resamples": B}
    before = (models_shown(at), shown_text(at), at.code[0].value)
    for name, value, element in changes:
        element().set_value(value)
        at = run(at)
        settings[name] = value
        res = sigcore.preferences([("battles.csv", data)], **settings)
        now = (models_shown(at), shown_text(at), at.code[0].value)
        assert not at.error and now != before, name
        assert now[0] == views.model_rows(res)[1] and md(views.heading(res)) in now[1], name
        assert now[2] == res.signature, name
        before = now
    assert "Davidson" in views.heading(res) and "natural-log odds, m3 at 0" in views.heading(res)


def test_a_bad_file_gets_the_reader_s_one_line_message():
    at = uploaded(("scores.csv", b"model,score\na,1\n"))
    with pytest.raises(InputError) as told:
        read_all([("scores.csv", b"model,score\na,1\n")])
    assert [e.value for e in at.error] == [md(str(told.value))] and not at.exception
    assert "scores.csv: is not a file of pairwise judgments" in str(told.value) and "\n" not in str(told.value)
    assert not at.table and not at.get("plotly_chart")
    itself = b"question_id,model_a,model_b,winner\nq1,a,b,model_a\nq2,a,a,tie\n"
    at = uploaded(("self.csv", itself))
    assert len(at.error) == 1 and at.error[0].value.startswith(md("self.csv, line 3: "))
    assert "\n" not in at.error[0].value


def test_a_model_that_never_loses_is_refused_until_a_prior_keeps_it_finite():
    data = (DATA / "arena.jsonl").read_bytes()
    at = uploaded(("arena.jsonl", data))
    assert len(at.error) == 1 and "never won a battle" in at.error[0].value and not at.table
    at.number_input(key="preferences-prior").set_value(1.0)
    at = run(at)
    assert not at.error
    res = sigcore.preferences([("arena.jsonl", data)], prior=1.0, n_resamples=B)
    assert models_shown(at) == views.model_rows(res)[1]
    assert md(res.notes[-2]) in [i.value for i in at.info] and "prior=1" in res.notes[-2]  # the fit's note, below


def _stand_in(monkeypatch) -> list[str]:
    """kaleido's SVG replaced by a stand-in (the fast tier starts no browser), and what was asked of it."""
    from sigcore.report import export

    drawn = []
    monkeypatch.setattr(export, "figure_image", lambda fig, fmt, **size: drawn.append(fmt) or FAKE_SVG)
    return drawn


def test_a_hostile_model_name_is_text_everywhere(deferred, monkeypatch):
    _stand_in(monkeypatch)
    names = ("m0", "m1", HOSTILE, "m3", "m4")
    at = uploaded(("battles.csv", battles_csv(names)))
    assert not at.error and HOSTILE in board_with(at, "rank interval").model.tolist()  # a cell, as it is
    escaped = md(HOSTILE)
    texts = shown_text(at) + [str(c) for t in at.table for c in t.value.values.ravel()]
    assert any(escaped in t for t in texts)
    assert not any(HOSTILE in t for t in texts)  # never unescaped where Markdown is read
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert html.escape(HOSTILE, quote=True) in chart["layout"]["yaxis"]["ticktext"]
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    page = deferred[buttons["Page (.html)"].deferred_file_id]()
    assert html.escape(HOSTILE) in page and HOSTILE not in page


def test_the_downloads_are_the_command_line_s_byte_for_byte(tmp_path, monkeypatch, capsys, deferred):
    """At other settings than the defaults (and another venue), each download is what `sigcore preferences FILE`
    prints with --csv, --json, --markdown, --latex --venue, or writes with --html, for the same file."""
    from sigcore.__main__ import main

    drawn = _stand_in(monkeypatch)
    data = battles_csv(("alpha", "beta", "gamma", "delta", "epsilon"))
    at = uploaded(("battles.csv", data))
    at.selectbox(key="preferences-ties").set_value("davidson")
    at.selectbox(key="preferences-scale").set_value("log")
    widget(at.selectbox, "Baseline").set_value("gamma")
    at.number_input(key="preferences-prior").set_value(0.5)
    at.number_input(key="preferences-b").set_value(700)
    at.number_input(key="preferences-seed").set_value(11)
    at.selectbox(key="preferences-alpha").set_value(0.1)
    at.selectbox(key="preferences-correction").set_value("bonferroni")
    at = run(at)
    at.selectbox(key=page_ui.VENUE_KEY).set_value("icml")
    at = at.run()
    assert not at.error and not at.exception
    monkeypatch.chdir(tmp_path)  # the file's name as the upload's: the notes and the JSON name it
    Path("battles.csv").write_bytes(data)
    args = ["preferences", "battles.csv", "--ties", "davidson", "--scale", "log", "--baseline", "gamma", "--prior",
            "0.5", "--resamples", "700", "--seed", "11", "--alpha", "0.1", "--correction", "bonferroni"]
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    for label, flags in [("Models (.csv)", ["--csv"]), ("All (.json)", ["--json"]),
                         ("Ratings (.md)", ["--markdown"]), ("Table (.tex)", ["--latex", "--venue", "icml"])]:
        assert main([*args, *flags]) == 0
        shown = deferred[buttons[label].deferred_file_id]()
        shown = shown if isinstance(shown, bytes) else shown.encode()
        assert shown == capsys.readouterr().out.encode(), label
    assert main([*args, "--html", "page.html"]) == 0
    assert drawn == ["svg"]  # the command line's; the app's only on the click
    assert deferred[buttons["Page (.html)"].deferred_file_id]().encode() == Path("page.html").read_bytes()
    assert drawn == ["svg", "svg"] and b'<g class="stand-in"/></svg></figure>' in Path("page.html").read_bytes()
    record = json.loads(deferred[buttons["All (.json)"].deferred_file_id]())
    assert record["settings"]["correction"] == "bonferroni" and record["settings"]["baseline"] == "gamma"
    assert record["settings"]["n_resamples"] == 700 and record["settings"]["ties"] == "davidson"
    tex = deferred[buttons["Table (.tex)"].deferred_file_id]()
    assert tex.rstrip("\n") in [c.value for c in at.code]  # the expander shows the download's table
    assert tex != views.latex(sigcore.preferences([("battles.csv", data)], ties="davidson", scale="log",
                                                  baseline="gamma", prior=0.5, n_resamples=700, seed=11, alpha=0.1,
                                                  correction="bonferroni"), venue="acl")  # the venue reached it


@pytest.mark.browser
def test_the_page_in_chromium_at_1280_and_on_a_phone(tmp_path):
    """Upload a file, see the models' table whole at 1280 × 720 (every column inside the main column) and the
    figure; on a phone (390 × 844) nothing runs off the screen sideways."""
    from playwright.sync_api import sync_playwright

    path = tmp_path / "battles.csv"
    path.write_bytes(battles_csv(("gpt-4o-2024-08-06", "claude-3-5-sonnet-20241022", "llama-3.1-405b-instruct",
                                  "gemini-1.5-pro-002", "qwen2.5-72b-instruct")))
    shots = Path("/tmp") if Path("/tmp").is_dir() else tmp_path
    with streamlit_server() as (_, url), sync_playwright() as p:
        browser = launch(p)
        seen = {}
        for (width, height), name in [((1280, 720), "wide"), ((390, 844), "phone")]:
            phone = width < 600
            context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                                          has_touch=phone)
            page = context.new_page()
            page.goto(url + "/preferences")
            page.locator('[data-testid="stTable"]').first.wait_for(timeout=90_000)  # the sample's, on opening
            page.get_by_text("Upload", exact=True).click()
            page.locator("input[type=file]").first.set_input_files(str(path))
            page.locator('[data-testid="stTable"]', has_text="claude-3-5-sonnet").first.wait_for(timeout=90_000)
            page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
            page.wait_for_timeout(1_000)
            table = page.locator('[data-testid="stTable"]').first
            table.scroll_into_view_if_needed()
            page.screenshot(path=shots / f"preferences_{name}.png")
            page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
            page.screenshot(path=shots / f"preferences_{name}_figure.png")
            seen[name] = page.evaluate("""() => {
                const main = document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
                const table = document.querySelector('[data-testid="stTable"]');
                const cells = [...table.querySelectorAll('th, td')].map(c => c.getBoundingClientRect());
                const plot = document.querySelector('.js-plotly-plot').getBoundingClientRect();
                return {main: [main.left, main.right], cells: cells.map(c => [c.left, c.right]),
                        header: [...table.querySelectorAll('thead th')].map(c => c.textContent.trim()),
                        plot: [plot.left, plot.right, plot.height], page: document.documentElement.scrollWidth,
                        width: document.documentElement.clientWidth}; }""")
            context.close()
        browser.close()
    wide, phone = seen["wide"], seen["phone"]
    assert [h for h in wide["header"] if h] == ["model", "rank", "rating", "95% CI", "rank interval", "battles",
                                                "W–T–L"]
    left, right = wide["main"]
    assert all(left - 1 <= a and b <= right + 1 for a, b in wide["cells"]), wide  # every column in view
    assert wide["plot"][2] > 200 and wide["plot"][1] <= right + 1
    assert phone["page"] <= phone["width"], phone  # nothing runs off sideways
    assert all(0 <= a and b <= phone["width"] + 1 for a, b in phone["cells"]), phone
