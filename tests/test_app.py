"""The Compare page driven through streamlit.testing: every number it shows equals sigcore's."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore import report
from sigcore.inputs import read
from ui.safe import md

ROOT = Path(__file__).resolve().parents[1]
CSV = b"id,gold,bert,roberta,lstm\n" + b"".join(
    f"{i},{g},{a},{b},{c}\n".encode() for i, (g, a, b, c) in enumerate(
        [("pos", "pos", "pos", "neg"), ("neg", "neg", "pos", "neg"), ("pos", "pos", "pos", "pos"),
         ("neg", "pos", "neg", "neg"), ("neu", "neu", "neg", "neu"), ("pos", "pos", "neg", "pos")] * 20))


def app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()


def verdict_of(at: AppTest) -> str:
    shown = [e.value for e in at.success] + [e.value for e in at.info if "significant" in e.value]
    assert len(shown) == 1, shown
    return shown[0]


def run(at: AppTest) -> AppTest:
    return next(b for b in at.button if b.label == "Run").click().run()


def upload(at: AppTest, *files) -> AppTest:
    at.radio[0].set_value("Upload").run()
    at.file_uploader[0].set_value([(name, data, "application/octet-stream") for name, data in files]).run()
    return at


def test_opens_on_a_sample_and_runs_it():
    at = app()
    assert not at.exception and not at.error
    assert [s.value for s in at.subheader] == ["1 · Data", "2 · Settings", "3 · Run"]
    assert "10 items" in at.caption[1].value
    run(at)
    assert not at.exception
    table = read(ROOT / "sample_data" / "slp3_fig4_11.csv").frame
    res = sigcore.compare(table["gold"].tolist(), table["A"].tolist(), table["B"].tolist())
    assert verdict_of(at) == md(report.verdict(res))
    assert at.code[0].value == res.signature
    chart = at.get("component_instance")[0].proto  # the live chart: the frames the browser will play
    frames = json.loads(chart.json_args)["frames"]
    assert len(frames) == 25 and f"running p = {res.p_value:.4f}" in frames[-1]["texts"]["status"]
    assert sum(frames[-1]["y"][1]) == round(res.p_value * 10_000)  # the red bars are the resamples p counts


def test_upload_a_table_change_mapping_metric_and_test():
    at = upload(app(), ("results.csv", CSV))
    assert not at.error and "120 items" in at.caption[1].value
    roles = {s.label: s for s in at.selectbox}
    assert (roles["Gold"].value, roles["System A"].value, roles["System B"].value) == ("gold", "bert", "roberta")
    roles["System B"].set_value("lstm").run()
    metric = next(s for s in at.selectbox if s.label == "Metric")
    metric.set_value("macro_f1").run()
    next(s for s in at.selectbox if s.label == "Test").set_value("permutation").run()
    run(at)
    frame = read(CSV, name="results.csv").frame
    res = sigcore.compare(frame["gold"].tolist(), frame["bert"].tolist(), frame["lstm"].tolist(),
                          metric="macro_f1", test="permutation")
    assert verdict_of(at) == md(report.verdict(res, a="A (bert)", b="B (lstm)"))
    assert at.code[0].value == res.signature


def test_upload_gold_and_one_text_file_per_system():
    gold, a, b = b"x\ny\nx\ny\nx\n", b"x\ny\nx\nx\nx\n", b"y\ny\nx\ny\ny\n"
    at = upload(app(), ("gold.txt", gold), ("a.txt", a), ("b.txt", b))
    assert [s.value for s in at.selectbox if s.label.endswith("file")] == ["gold.txt", "a.txt", "b.txt"]
    next(s for s in at.selectbox if s.label == "Test").set_value("mcnemar").run()
    run(at)
    res = sigcore.compare(["x", "y", "x", "y", "x"], ["x", "y", "x", "x", "x"], ["y", "y", "x", "y", "y"],
                          test="mcnemar")
    assert verdict_of(at) == md(report.verdict(res, a="A (a.txt)", b="B (b.txt)"))


def test_invalid_upload_shows_the_message_and_no_traceback():
    at = upload(app(), ("results.csv", b"\x89PNG\r\n\x1a\n\x00\x00binary"))
    assert not at.exception
    assert [e.value for e in at.error] == [md("results.csv: the file is binary, not text. Give a UTF-8 text file "
                                              "(one output per line) or a CSV/TSV table.")]


def test_a_changed_setting_never_keeps_the_old_result():
    at = run(app())
    assert verdict_of(at)
    next(n for n in at.number_input if n.label == "Seed").set_value(1).run()
    assert not at.success and not [e for e in at.info if "significant" in e.value]
    assert any("changed since the last run" in e.value for e in at.info)
    run(at)
    assert "seed 1" in verdict_of(at)


def test_uploaded_text_is_never_rendered_as_html_or_markdown():
    hostile = b"gold,<img src=x onerror=alert(1)>,**bold**\nx,x,y\ny,y,y\nx,x,x\n"
    at = run(upload(app(), ("t.csv", hostile)))
    shown = verdict_of(at)
    assert r"\<img src=x onerror=alert\(1\)\>" in shown and r"\*\*bold\*\*" in shown
    assert "<img" not in shown.replace(r"\<img", "")


@pytest.mark.parametrize("sample", ["Named entities (CoNLL, synthetic): span F1",
                                    "lm-evaluation-harness logs (simulated ARC-Easy)",
                                    "WMT17 English-German, 500 segments: BLEU"])
def test_every_sample_runs(sample):
    at = app()
    at.selectbox[0].set_value(sample).run()
    next(n for n in at.number_input if n.label == "Resamples b").set_value(500).run()
    run(at)
    assert not at.exception and not at.error and verdict_of(at)


def test_binary_metrics_ask_for_the_positive_class():
    at = app()
    next(s for s in at.selectbox if s.label == "Metric").set_value("f1").run()
    positive = next(s for s in at.selectbox if s.label == "Positive class")
    assert positive.options == ["pos", "neg"]
    positive.set_value("neg").run()
    run(at)
    table = read(ROOT / "sample_data" / "slp3_fig4_11.csv").frame
    res = sigcore.compare(table["gold"].tolist(), table["A"].tolist(), table["B"].tolist(), metric="f1",
                          positive_label="neg")
    assert verdict_of(at) == md(report.verdict(res)) and "positive_label=neg" in at.code[0].value
