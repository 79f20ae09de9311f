"""The Compare page driven through streamlit.testing: every number it shows equals sigcore's."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore import advisor, report
from sigcore.effects import effect_sizes
from sigcore.io.inputs import read
from sigcore.io.loading import load
from sigcore.io.metric_fit import score_inputs
from ui import data as ui_data
from ui.safe import md

from helpers.apps import app, frames_of, mt_sample, on_slp3, run, select, slp3, upload, verdict_of

ROOT = Path(__file__).resolve().parents[1]
CSV = b"id,gold,bert,roberta,lstm\n" + b"".join(
    f"{i},{g},{a},{b},{c}\n".encode() for i, (g, a, b, c) in enumerate(
        [("pos", "pos", "pos", "neg"), ("neg", "neg", "pos", "neg"), ("pos", "pos", "pos", "pos"),
         ("neg", "pos", "neg", "neg"), ("neu", "neu", "neg", "neu"), ("pos", "pos", "neg", "pos")] * 20))
# 120 items in 60 documents of 2, each with an item where A and B differ: the doc column is guessed as the group
GROUPED = b"id,doc,gold,A,B\n" + b"".join(
    f"{i},d{i // 2},{g},{a},{b}\n".encode() for i, (g, a, b) in enumerate(
        [("x", "x", "y"), ("y", "y", "y"), ("x", "x", "x"), ("y", "y", "x"), ("x", "y", "x"), ("y", "y", "y")] * 20))


def caption_with(at: AppTest, text: str) -> str:
    return next(c.value for c in at.caption if text in c.value)


def advice_of(at: AppTest) -> str:
    """What the "Which test?" box under the settings says: the recommended test and why, then the others."""
    return next(e for e in at.expander if e.label.startswith("Which test?")).markdown[0].value


def test_opens_on_a_real_sample_where_the_bootstrap_is_recommended_and_runs_it():
    at = app()
    assert not at.exception and not at.error
    assert [s.value for s in at.subheader] == ["1 · Data", "2 · Settings", "3 · Run"]
    assert caption_with(at, "500 items")
    assert select(at, "Metric").value == "bleu" and select(at, "Test").value == "bootstrap"
    run(at)
    assert not at.exception
    res = sigcore.compare(*mt_sample(), metric="bleu", tokenize="13a")
    assert res.test == "bootstrap" and res.alternative == "two-sided"  # the page's defaults are the engine's
    assert at.code[0].value == res.signature
    assert verdict_of(at) == md(report.verdict(res, a="A (uedin-nmt)", b="B (LIUM-NMT)"))
    frames = frames_of(at)
    assert len(frames) == 25 and f"running {res.p_text} (Monte-Carlo 95% interval " in frames[-1]["texts"]["status"]
    assert sum(frames[-1]["y"][1]) == res.n_extreme  # the red bars are the resamples p counts


def test_the_textbook_sample_recommends_mcnemar_and_still_runs_the_bootstrap():
    at = on_slp3(app())
    assert caption_with(at, "10 items")
    run(at)  # 6 discordant pairs: McNemar's exact test is the default
    res = sigcore.compare(*slp3(), test="mcnemar")
    assert verdict_of(at) == md(report.verdict(res))
    select(at, "Test").set_value("bootstrap").run()
    run(at)
    res = sigcore.compare(*slp3(), test="bootstrap")
    assert verdict_of(at) == md(report.verdict(res)) and at.code[0].value == res.signature
    assert sum(frames_of(at)[-1]["y"][1]) == res.n_extreme
    shown = [m.value for m in at.markdown if m.value.startswith(("**paired", "**Cohen"))]  # on the test's side
    expected = effect_sizes(*slp3(), alternative=res.alternative, confidence_level=res.confidence_level)
    assert shown == [f"**{e.title}**: {md(e.text)}" for e in expected] and len(shown) == 2
    assert "A right / B wrong on 4 items, B right / A wrong on 2" in shown[0]


def test_upload_a_table_change_mapping_metric_and_test():
    at = upload(app(), ("results.csv", CSV))
    assert not at.error and caption_with(at, "120 items")
    roles = {s.label: s for s in at.selectbox}
    assert (roles["Gold"].value, roles["Your system (A)"].value, roles["Baseline (B)"].value) == ("gold", "bert",
                                                                                                  "roberta")
    roles["Baseline (B)"].set_value("lstm").run()
    assert "B = column 'lstm' \\(given\\)" in caption_with(at, "B = column")  # the preview says what it took
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
    at = upload(app(), ("a.txt", a), ("gold.txt", gold), ("b.txt", b))  # gold by its name, not its place
    assert (select(at, "Gold file").value, select(at, "Baseline (B)").value) == (1, 2)  # positions
    assert md("A = a.txt · B = b.txt") in caption_with(at, "gold = ")
    run(at)
    res = sigcore.compare(["x", "y", "x", "y", "x"], ["x", "y", "x", "x", "x"], ["y", "y", "x", "y", "y"])
    assert res.test == "mcnemar"
    assert verdict_of(at) == md(report.verdict(res, a="A (a)", b="B (b)"))


def test_a_bootstrap_on_three_differing_items_leads_with_why_it_cannot_decide():
    """Issue 39 §7: 3 of 3 items differ and the named bootstrap says p < 0.0001; the verdict is a warning that opens
    with the data's resolution, the sentence of report.verdict word for word."""
    gold, a, b = b"x\ny\nx\n", b"x\ny\nx\n", b"y\nx\ny\n"
    at = upload(app(), ("a.txt", a), ("gold.txt", gold), ("b.txt", b))
    select(at, "Test").set_value("bootstrap").run()
    run(at)
    res = sigcore.compare(["x", "y", "x"], ["x", "y", "x"], ["y", "x", "y"], test="bootstrap")
    assert res.significant and report.resolution_lead(res)
    assert not at.success and [e.value for e in at.warning if e.value.startswith("Too few items differ")] == [
        md(report.verdict(res, a="A (a)", b="B (b)"))]


def test_an_lm_eval_score_field_is_a_metric_of_the_page():
    """lm-eval logs carry per-item scores ("acc"): choosing one as the metric compared them (it raised an
    AttributeError, shown as the generic error, from a misspelt call)."""
    logs = [ROOT / "sample_data" / "lm_eval" / f"samples_arc_easy_model-{m}.jsonl" for m in "ab"]
    at = upload(app(), *((path.name, path.read_bytes()) for path in logs))
    assert "acc" in select(at, "Metric").options
    select(at, "Metric").set_value("acc").run()
    run(at)
    assert not at.exception and not at.error
    data = load([read(path) for path in logs])
    gold, a, b, metric = score_inputs(data, "acc")
    res = sigcore.compare(gold, a, b, metric=metric)
    assert verdict_of(at) == md(report.verdict(res, a="A (samples_arc_easy_model-a)",
                                               b="B (samples_arc_easy_model-b)"))

def test_system_files_without_gold_are_told_that_gold_is_missing():
    """Two files of labels and no gold: the app (as the command line) suggests accuracy, which asks for the gold;
    it suggested the mean, which said that 'x' is not a number."""
    at = run(upload(app(), ("a.txt", b"x\ny\nx\n"), ("b.txt", b"y\ny\nx\n")))
    assert select(at, "Metric").value == "accuracy" and not at.exception
    assert [e.value for e in at.error] == [md("accuracy needs gold labels (references) and none were given. Give "
                                              "the gold column or file, or use the 'mean' metric for per-item scores.")]

def test_invalid_upload_shows_the_message_and_no_traceback():
    at = upload(app(), ("results.csv", b"\x89PNG\r\n\x1a\n\x00\x00binary"))
    assert not at.exception
    assert [e.value for e in at.error] == [md("results.csv: the file is binary, not text. Give a UTF-8 text file "
                                              "(one output per line) or a CSV/TSV table.")]


def test_a_changed_setting_never_keeps_the_old_result():
    at = app()
    select(at, "Test").set_value("bootstrap").run()
    run(at)
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
                                    "SLP3 Figure 4.11: 10 documents, A .70 vs B .50"])
def test_every_sample_runs(sample):
    at = app()
    at.selectbox[0].set_value(sample).run()
    next(n for n in at.number_input if n.label == "Resamples b").set_value(500).run()
    run(at)
    assert not at.exception and not at.error and verdict_of(at)


def test_binary_metrics_ask_for_the_positive_class():
    at = on_slp3(app())
    next(s for s in at.selectbox if s.label == "Metric").set_value("f1").run()
    positive = next(s for s in at.selectbox if s.label == "Positive class")
    assert positive.options == ["pos", "neg"]
    positive.set_value("neg").run()
    run(at)  # 10 items: the permutation test is recommended
    res = sigcore.compare(*slp3(), metric="f1", test="permutation", positive_label="neg")
    assert verdict_of(at) == md(report.verdict(res)) and "positive_label=neg" in at.code[0].value


def test_alpha_sets_the_decision_and_the_interval_level():
    at = on_slp3(app())
    select(at, "Test").set_value("bootstrap").run()
    assert [c for c in at.selectbox if "onfidence" in c.label] == []  # the level follows α, nothing contradicts it
    select(at, "Significance level α").set_value(0.01).run()
    run(at)
    res = sigcore.compare(*slp3(), alpha=0.01, test="bootstrap")
    assert (res.alpha, res.confidence_level) == (0.01, 0.99)
    shown = verdict_of(at)
    assert shown == md(report.verdict(res)) and "at α = 0\\.01" in shown and "99%" in shown
    assert "alpha:0.01|" in at.code[0].value and "@0.99|" in at.code[0].value
    select(at, "Significance level α").set_value(0.1).run()
    run(at)
    assert "at α = 0\\.1" in verdict_of(at) and "@0.9|" in at.code[0].value


def test_a_group_column_resamples_whole_groups_with_the_tests_that_fit():
    at = upload(app(), ("docs.csv", GROUPED))
    assert select(at, "Group").value == "doc" and caption_with(at, "120 items in 60 groups")
    assert select(at, "Test").options == ["bootstrap (recommended)", "permutation"]
    run(at)
    frame = read(GROUPED, name="docs.csv").frame
    gold, a, b, docs = (frame[c].tolist() for c in ("gold", "A", "B", "doc"))
    grouped = sigcore.compare(gold, a, b, groups=docs)
    assert grouped.n_groups == 60 and "groups:60" in grouped.signature
    assert verdict_of(at) == md(report.verdict(grouped)) and at.code[0].value == grouped.signature
    select(at, "Group").set_value("(none)").run()
    assert "mcnemar (recommended)" in select(at, "Test").options and not caption_with(at, "items").count("groups")
    select(at, "Test").set_value("bootstrap").run()
    run(at)
    plain = sigcore.compare(gold, a, b, test="bootstrap")
    assert at.code[0].value == plain.signature and "groups:" not in plain.signature
    assert plain.p_value != grouped.p_value and verdict_of(at) == md(report.verdict(plain))


def test_few_groups_recommend_the_permutation_test():
    few = b"doc,gold,A,B\n" + b"".join(f"d{i % 8},x,x,{'y' if i % 3 else 'x'}\n".encode() for i in range(120))
    at = upload(app(), ("few.csv", few))
    assert select(at, "Test").options == ["permutation (recommended)", "bootstrap"]
    assert advice_of(at).startswith("**Recommended: approximate randomisation**, because " + md(
        "the items come in groups, and only resampling whole groups keeps their dependence, and with 8 groups"))


@pytest.mark.parametrize("size, first, why", [(10, "mcnemar", "right/wrong items with 6 discordant pairs"),
                                              (120, "mcnemar", "right/wrong items with 80 discordant pairs")])
def test_the_recommended_test_follows_the_size_of_the_data(size, first, why):
    at = on_slp3(app()) if size == 10 else upload(app(), ("results.csv", CSV))
    test = select(at, "Test")
    assert test.value == first and test.options[0] == f"{first} (recommended)"
    assert md(why) in advice_of(at) and not [c for c in at.caption if "Also valid" in c.value]
    assert ("z" in test.options) == (size >= 50)  # the z-test needs 50 items
    select(at, "Metric").set_value("macro_f1").run()  # not right/wrong: the items where A and B differ
    assert select(at, "Test").value == ("permutation" if size == 10 else "bootstrap")
    if size == 10:
        assert md("6 items where A and B differ (of 10)") in advice_of(at)
        select(at, "Test").set_value("bootstrap").run()
        assert md("its p tends to be too small") in caption_with(at, "Also valid")


@pytest.mark.parametrize("gold, a, b, test, counted", [
    (b"x\n" * 60, b"x\n" * 60, b"y\n" * 60, "bootstrap", 0),  # A right everywhere: no resample is extreme
    (b"x\n" * 60, b"y\n" * 60, b"x\n" * 60, "bootstrap", 0),  # B right everywhere: two-sided, none is either
    (b"x\n" * 60, b"x\n" * 60, b"y\n" * 60, "permutation", 0),
    (b"x\ny\nx\ny\n", b"x\ny\ny\ny\n", b"y\ny\nx\nx\n", "permutation", None),  # 2^3 swaps: enumerated
])
def test_the_running_p_is_never_zero_nor_plus_minus_zero(gold, a, b, test, counted):
    at = upload(app(), ("gold.txt", gold), ("a.txt", a), ("b.txt", b))
    select(at, "Test").set_value(test).run()
    next(n for n in at.number_input if n.label == "Resamples b").set_value(1000).run()
    run(at)
    res = sigcore.compare(gold.decode().split(), a.decode().split(), b.decode().split(), test=test,
                          n_resamples=1000)
    assert res.n_extreme == counted or res.exact
    statuses = [f["texts"]["status"] for f in frames_of(at)]
    assert statuses and all("± 0" not in t and "p = 0.0000" not in t and "p = 0 " not in t for t in statuses)
    low, high = res.p_interval
    last, b = statuses[-1], res.n_resamples
    if res.exact:
        assert last == f"running {res.p_text} (exact enumeration) after {b} of {b} resamples"
    elif low == 0:
        assert res.p_text == "p < 0.001"
        assert last == f"running p < 0.001 (Monte-Carlo 95% interval up to {high:.4f}) after 1,000 of 1,000 resamples"
    else:
        assert f"running {res.p_text} (Monte-Carlo 95% interval " in last and "after 1,000 of 1,000" in last


def test_two_samples_of_one_file_each_show_their_own_systems():
    at = app()
    for sample, systems in [("Digit classifiers (scikit-learn): decision tree vs naive Bayes", ("tree", "naive_bayes")),
                            ("Digit classifiers (scikit-learn): SVM vs logistic regression", ("svm_rbf", "logreg"))]:
        at.selectbox[0].set_value(sample).run()
        assert (select(at, "Your system (A)").value, select(at, "Baseline (B)").value) == systems


def test_long_file_names_are_told_apart_where_a_box_cuts_them_and_own_gold_is_named():
    """Two predictions files, each with its gold column, named alike up to the model: the boxes read "1. diabetes_te…"
    twice (cut at their width), and the Gold file box said "(no gold file)" beside a caption naming the gold."""
    rows = "".join(f"{i},{i % 3},{i % 2}\n" for i in range(40))
    names = ("diabetes_test_predictions_ridge.csv", "diabetes_test_predictions_gradient_boosting.csv")
    at = upload(app(), *((name, ("id,y_true,y_pred\n" + rows).encode()) for name in names))
    gold, baseline = select(at, "Gold file"), select(at, "Baseline (B)")
    assert gold.format_func(gold.value) == ui_data.OWN_GOLD and "gold = the column 'y\\_true'" in caption_with(at,
                                                                                                         "gold = ")
    shown = [baseline.format_func(k) for k in (0, 1)]
    assert shown == ["1. diabet…ridge.csv", "2. diabet…gradient_boosting.csv"]
    assert shown[0][:12] != shown[1][:12]  # told apart in the first characters a cut box keeps (about 20)


def test_the_progress_says_what_was_done_closed_form_or_resampled():
    """A closed-form test showed "Resampling: 0 drawn" beside a full progress bar."""
    at = run(on_slp3(app()))
    assert [(p.value, p.text) for p in at.get("progress")] == [(100, "McNemar's test: computed, nothing resampled")]
    select(at, "Test").set_value("bootstrap").run()
    run(at)
    assert [(p.value, p.text) for p in at.get("progress")] == [(100, "Resampling: 10,000 drawn")]


def test_two_uploads_with_one_name_are_told_apart_by_position():
    """gold.txt, d1/out.txt, d2/out.txt: picked by name, B was A and the verdict said "delta = 0"."""
    gold, a, b = b"x\ny\nx\ny\nx\ny\n", b"x\ny\nx\ny\nx\ny\n", b"y\nx\ny\nx\ny\nx\n"
    at = upload(app(), ("gold.txt", gold), ("out.txt", a), ("out.txt", b))
    baseline = select(at, "Baseline (B)")
    assert (select(at, "Gold file").value, baseline.value) == (0, 2) and baseline.format_func(2) == "3. out.txt"
    run(at)
    res = sigcore.compare(list("xyxyxy"), list("xyxyxy"), list("yxyxyx"), test="mcnemar")
    assert res.delta == 1 and verdict_of(at) == md(report.verdict(res, a="A (out.txt #1)", b="B (out.txt #2)"))


def test_files_sharing_an_id_column_are_paired_by_it_and_row_order_is_a_choice():
    rows = [(i, "x" if i % 3 else "y") for i in range(90)]
    gold = "id,gold\n" + "".join(f"{i},{g}\n" for i, g in rows)
    a = "id,pred\n" + "".join(f"{i},{g}\n" for i, g in reversed(rows))  # A right everywhere, rows reversed
    b = "id,pred\n" + "".join(f"{i},x\n" for i, _ in rows)
    at = upload(app(), ("gold.csv", gold.encode()), ("a.csv", a.encode()), ("b.csv", b.encode()))
    assert select(at, "Pair items by").value == "id" and "(row order)" in select(at, "Pair items by").options
    run(at)
    paired = sigcore.compare([g for _, g in rows], [g for _, g in rows], ["x"] * 90)
    assert at.code[0].value == paired.signature
    select(at, "Pair items by").set_value("(row order)").run()
    assert any("changed since the last run" in e.value for e in at.info)  # other pairs: the old verdict is gone
    run(at)
    by_row = sigcore.compare([g for _, g in rows], [g for _, g in reversed(rows)], ["x"] * 90)
    assert at.code[0].value == by_row.signature and (by_row.score_a, paired.score_a) == (1 / 3, 1.0)


def test_an_encoding_can_be_declared_for_an_upload():
    utf16 = "gold,A,B\n".encode("utf-16-le") + "".join(f"x,x,{'x' if i % 2 else 'y'}\n"
                                                        for i in range(40)).encode("utf-16-le")
    at = upload(app(), ("u16.csv", utf16))
    assert md("looks like UTF-16 text without a byte-order mark") in at.error[0].value
    select(at, "Encoding").set_value("UTF-16 little-endian").run()
    assert not at.error and caption_with(at, "40 items")


def test_a_run_beyond_the_servers_budget_is_refused_with_the_fix(monkeypatch):
    monkeypatch.setattr("ui.work.BUDGET", 1_000)
    at = upload(app(), ("results.csv", CSV))
    select(at, "Test").set_value("permutation").run()
    run(at)
    assert not at.exception and "more than the budget of 1\\.0e\\+03" in at.error[0].value
    assert "Use b of at most" in at.error[0].value and "command line" in at.error[0].value


def test_the_server_never_shows_a_traceback():
    import tomllib
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["client"]["showErrorDetails"] == "none"


def test_the_web_server_keeps_uploads_up_to_the_limit_in_memory():
    """Starlette spools uploads over 1 MB to a temporary file; the page raises that to the upload limit."""
    from starlette.formparsers import MultiPartParser
    app()
    assert MultiPartParser.spool_max_size >= 201 * 1024**2  # maxUploadSize = 200 (MB) in .streamlit/config.toml


def test_the_advisor_speaks_where_the_test_is_chosen():
    at = on_slp3(app())
    advice = advisor.advise_outputs(*slp3())
    box = next(e for e in at.expander if e.label.startswith("Which test?"))
    assert box.label == f"Which test? Advised: {advice.recommended.title}" == "Which test? Advised: McNemar's test"
    texts = [m.value for m in box.markdown]
    assert texts[0].startswith(f"**Recommended: {md(advice.recommended.title)}**, because")
    for choice in (*advice.acceptable, *advice.unsuitable):  # every other test, with its reason
        assert f"- {md(choice.title)}: {md(choice.reason)}." in texts[0]
    select(at, "Test").set_value("t").run()  # 6 discordant pairs: too few for the t-test
    warned = [c.value for c in at.caption if c.value.startswith("⚠ Not advised")]  # under the Test box
    assert warned == [md(f"⚠ Not advised for these data: {dict((c.test, c.reason) for c in advice.unsuitable)['t']}.")]


def test_the_reproduce_line_recreates_the_pages_result(tmp_path, monkeypatch, capsys):
    import shlex

    from sigcore.__main__ import main

    at = app()
    run(at)  # the WMT17 sample: BLEU on three files
    line = next(c.value for c in at.code if c.value.startswith("python -m sigcore compare"))
    signature = at.code[0].value
    assert "sample_data/mt/newstest2017.ref.de" in line  # run from the project root, where the app is
    monkeypatch.chdir(ROOT)
    assert main([*shlex.split(line)[3:], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["signature"] == signature


ROWS = [(i, "x" if i % 3 else "y") for i in range(60)]  # A right everywhere, its rows reversed; B says x


@pytest.mark.parametrize("pairing, encoding, flags", [
    ("(row order)", None, ["--by-row"]), ("key", None, ["--id", "key"]), ("id", "utf-16-le", ["--id", "id"])])
def test_the_reproduce_line_keeps_the_pairing_and_encoding_chosen_on_the_page(tmp_path, monkeypatch, capsys, pairing,
                                                                             encoding, flags):
    """Three files sharing an id column, paired on the page by row, by another column they share, or by id with an
    encoding declared: the command line says so, and run where the files are, it recreates the page's result."""
    import shlex

    from sigcore.__main__ import main

    def table(header, rows):
        return (header + "\n" + "".join(f"{i},{k},{v}\n" for i, k, v in rows)).encode(encoding or "utf-8")

    files = [("gold.csv", table("id,key,gold", [(i, k, g) for k, (i, g) in enumerate(ROWS)])),
             ("a.csv", table("id,key,pred", [(i, k, g) for k, (i, g) in enumerate(reversed(ROWS))])),
             ("b.csv", table("id,key,pred", [(i, k, "x") for k, (i, _) in enumerate(ROWS)]))]
    at = upload(app(), *files)
    if encoding:
        select(at, "Encoding").set_value("UTF-16 little-endian").run()
    select(at, "Pair items by").set_value(pairing).run()
    run(at)
    line = next(c.value for c in at.code if c.value.startswith("python -m sigcore compare"))
    args = shlex.split(line)[3:]
    assert all(f in args for f in flags) and ("--encoding" in args) == bool(encoding)
    for name, data in files:
        (tmp_path / name).write_bytes(data)
    monkeypatch.chdir(tmp_path)
    assert main([*args, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    by_row = sum(g == h for (_, g), (_, h) in zip(ROWS, reversed(ROWS))) / len(ROWS)  # the key is the row number
    assert got["signature"] == at.code[0].value and got["score_a"] == (1.0 if pairing == "id" else by_row)


def test_the_paper_zip_merges_into_one_given_back_and_refuses_another_file():
    """The uploader under "Paper folder (.zip)": an earlier folder's zip is taken (the download then holds both);
    a file that is not one is said, the download held back."""
    from sigcore.report import paper
    from ui.safe import md

    at = run(app())
    earlier = paper.zipped(paper.for_result(sigcore.compare([1, 0, 1, 1], [1, 0, 1, 0], [1, 1, 1, 1], test="t"),
                                            a="x", b="y", command="compare"))
    uploader = at.get("file_uploader")[-1]
    uploader.set_value([("sigcore_paper.zip", earlier, "application/zip")]).run()
    assert not at.exception and not at.error
    said = md("sigcore_paper.zip: 7 files; the download adds this result to them.")  # sentence, table, JSON, 4 shared
    assert said in [c.value for c in at.caption]
    button = next(b for b in at.get("download_button") if b.proto.label == "Paper folder (.zip)")
    assert not button.proto.disabled
    at.get("file_uploader")[-1].set_value([("notes.zip", b"plain text", "application/zip")]).run()
    assert not at.exception and [e.value for e in at.error] == [md(
        "notes.zip: not a zip file. Give the .zip that the app's \"Paper folder (.zip)\" downloaded, as it was "
        "downloaded.")]
    assert next(b for b in at.get("download_button") if b.proto.label == "Paper folder (.zip)").proto.disabled


def test_paper_downloads_and_figure_styles():
    at = run(app())
    labels = [b.label for b in at.get("download_button")]
    for label in ("Sentence (Markdown)", "Sentence (LaTeX)", "Table (LaTeX)", "BibTeX", "JSON",
                  "Download SVG", "Download PDF", "Download PNG", "Paper folder (.zip)"):
        assert label in labels
    box = next(e for e in at.expander if e.label == "Figure for a paper or a slide")
    assert select(at, "Style").options == ["Paper, one column", "Paper, text width", "Slide (1280 px)"]
    assert select(at, "Venue").value == "acl" and len(select(at, "Venue").options) == 8
    chart = json.loads(box.get("plotly_chart")[0].proto.spec)
    assert chart["layout"]["width"] == pytest.approx(291.02, abs=0.01) and chart["layout"]["font"]["size"] == 12
    select(at, "Venue").set_value("icml").run()
    select(at, "Style").set_value("Paper, text width").run()
    box = next(e for e in at.expander if e.label == "Figure for a paper or a slide")
    assert json.loads(box.get("plotly_chart")[0].proto.spec)["layout"]["width"] == pytest.approx(6.75 * 96)
    assert "ICML's text width, 6.75 in" in " ".join(c.value for c in box.caption)
    select(at, "Style").set_value("Slide (1280 px)").run()
    select(at, "Figure").set_value("convergence").run()
    box = next(e for e in at.expander if e.label == "Figure for a paper or a slide")
    chart = json.loads(box.get("plotly_chart")[0].proto.spec)
    assert chart["layout"]["width"] == 1280 and chart["layout"]["xaxis"]["type"] == "log"


def test_planning_uses_the_data_as_a_pilot():
    from sigcore import power

    at = on_slp3(app())
    run(at)  # McNemar's exact test on SLP3's 10 documents
    next(t for t in at.toggle if t.label == "Plan").set_value(True).run()
    gold, a, b = slp3()
    correct = [[int(x == g) for x, g in zip(system, gold)] for system in (a, b)]
    expected = power.plan(*correct, test="mcnemar", binary=True, target=0.8, alternative="two-sided")
    shown = [m.value for m in at.markdown if m.value.startswith("McNemar's exact test, H1")]
    assert shown == ["  \n".join(expected.text().splitlines())]
    assert "80% power needs n = " in shown[0] and "(exact)" in shown[0]
    select(at, "Metric").set_value("macro_f1").run()
    run(at)
    assert any("needs a metric that is a mean of per-item values" in c.value for c in at.caption)
