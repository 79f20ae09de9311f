"""Inspect AI logs (sigcore.io.inspect_log), read without Inspect: the logs in tests/data/inspect were written by
Inspect itself (make_logs.py), and every value read here is checked against inspect_ai.log.read_eval_log; two
models' logs compare as two lm-eval logs do, paired by sample id, named by their models, with precise errors."""

import gzip
import io
import json
import zipfile
from pathlib import Path

import pytest

import sigcore
from sigcore.__main__ import main
from sigcore.errors import InputError
from sigcore.io import archives, inspect_log
from sigcore.io.inputs import read
from sigcore.io.loading import load
from sigcore.io.metric_fit import score_inputs, suggest_metrics

LOGS = Path(__file__).resolve().parent / "data" / "inspect"


def _reference(path: Path, tmp_path: Path):
    from inspect_ai.log import read_eval_log

    if path.suffix == ".gz":  # Inspect reads its own .json, not gzipped
        plain = tmp_path / path.stem
        plain.write_bytes(gzip.decompress(path.read_bytes()))
        path = plain
    return read_eval_log(str(path))


@pytest.mark.slow  # imports inspect_ai, the reference reader
@pytest.mark.parametrize("name", ["alpha.eval", "beta.eval", "beta.json.gz"])
def test_every_score_is_inspect_s_own(tmp_path, name):
    from inspect_ai.scorer import value_to_float

    log = _reference(LOGS / name, tmp_path)
    data = gzip.decompress((LOGS / name).read_bytes()) if name.endswith(".gz") else (LOGS / name).read_bytes()
    runs = inspect_log.runs(data, name)
    assert len(runs) == len(log.samples) == 120 and inspect_log.scorers(runs) == ["match", "includes"]
    to_float = value_to_float()
    for row, sample in zip(runs.itertuples(index=False), log.samples):
        assert (row.item, row.run, row.target) == (sample.id, sample.epoch, sample.target)
        assert row.match == to_float(sample.scores["match"].value)
        assert row.includes == to_float(sample.scores["includes"].value)
        assert row.answer == sample.scores["match"].answer
    # averaged over epochs as Inspect reduces them: its reductions, and the accuracy it reports
    frame, lines, attrs = inspect_log.parse_bytes(data, name)
    assert attrs == {"model": log.eval.model, "task": log.eval.task, "epochs": 3, "reducer": None}
    assert list(lines) == list(range(1, 41))
    for reduction in log.reductions:
        reduced = {s.sample_id: s.value for s in reduction.samples}
        assert frame[reduction.scorer].tolist() == pytest.approx([reduced[i] for i in frame["doc_id"]], abs=1e-12)
    for score in log.results.scores:
        assert frame[score.name].mean() == pytest.approx(score.metrics["accuracy"].value, abs=1e-12)


def test_the_eval_s_members_are_zstandard_and_the_json_log_reads_the_same():
    archive = zipfile.ZipFile(LOGS / "beta.eval")
    assert {i.compress_type for i in archive.infolist()} == {inspect_log.ZSTD}  # what zipfile alone cannot open
    eval_log, json_log = read(LOGS / "beta.eval"), read(LOGS / "beta.json.gz")
    assert eval_log.format == json_log.format == "inspect"
    assert eval_log.frame.equals(json_log.frame) and eval_log.frame.attrs == json_log.frame.attrs


def test_two_models_logs_compare_paired_by_sample_named_by_their_models(capsys):
    a, b = read(LOGS / "alpha.eval"), read(LOGS / "beta.eval")
    data = load([a, b])
    assert data.display_names == ("mockllm/alpha", "mockllm/beta") and data.n == 40
    assert main(["compare", str(LOGS / "alpha.eval"), str(LOGS / "beta.eval"), "--metric", "match",
                 "--test", "bootstrap", "--resamples", "2000", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = sigcore.compare(None, a.frame["match"].tolist(), b.frame["match"].tolist(), metric="mean",
                               test="bootstrap", n_resamples=2000)
    assert (got["p_value"], got["delta"], got["a_name"], got["b_name"]) == (
        expected.p_value, expected.delta, "mockllm/alpha", "mockllm/beta")
    assert got["score_a"] == pytest.approx(0.875) and "A = mockllm/alpha (" in " ".join(got["roles"])
    # the other way round: the baseline given first is still B
    assert main(["compare", str(LOGS / "beta.eval"), str(LOGS / "alpha.eval"), "--metric", "includes",
                 "--baseline", str(LOGS / "beta.eval")]) == 0
    assert "B = mockllm/beta" in capsys.readouterr().out


def test_two_logs_compare_their_passages_resampled_whole(capsys):
    """--group metadata.passage: the cluster bootstrap over the logs' passages, as over the same table's column."""
    import pandas as pd

    a, b = read(LOGS / "alpha.eval"), read(LOGS / "beta.eval")
    data = load([a, b], group="metadata.passage")
    assert len(set(data.groups)) == 10 and "group = 'metadata.passage' (given)" in map(str, data.roles)
    table = pd.DataFrame({"id": data.ids, "passage": data.groups, "A": data.scores["match"][0],
                          "B": data.scores["match"][1]})
    assert main(["compare", str(LOGS / "alpha.eval"), str(LOGS / "beta.eval"), "--metric", "match", "--group",
                 "metadata.passage", "--test", "bootstrap", "--resamples", "2000", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = sigcore.compare(None, table.A.tolist(), table.B.tolist(), metric="mean", test="bootstrap",
                               n_resamples=2000, groups=table.passage.tolist(), alternative="two-sided")
    unclustered = sigcore.compare(None, table.A.tolist(), table.B.tolist(), metric="mean", test="bootstrap",
                                  n_resamples=2000, alternative="two-sided")
    assert (got["p_value"], got["n_groups"]) == (expected.p_value, 10) and got["p_value"] > unclustered.p_value
    _raises(_edited(lambda log: log["samples"][0]["metadata"].update(passage="p9")),
            "sample 1 has metadata.passage 'p0' here but 'p9' in edited.json", group="metadata.passage")
    with pytest.raises(InputError, match="has no field 'metadata.topic' to group its samples by. Its samples' "
                                         "metadata fields: metadata.passage"):
        load([a, b], group="metadata.topic")


def _edited(edit, header: bool = False) -> bytes:
    """beta's JSON log with ``edit`` applied to it; with ``header``, its header made to agree with its samples (their
    count and each scorer's accuracy), as Inspect would have written the log of a run over those samples."""
    log = json.loads(gzip.decompress((LOGS / "beta.json.gz").read_bytes()))
    edit(log)
    if header:
        log["results"]["total_samples"] = len(log["samples"])
        for score in log["results"]["scores"]:
            epochs: dict = {}
            for sample in log["samples"]:
                value = sample["scores"].get(score["name"], {}).get("value")
                epochs.setdefault(sample["id"], []).append({"C": 1.0, "I": 0.0}.get(value, float("nan")))
            score["metrics"]["accuracy"]["value"] = sum(sum(v) / len(v) for v in epochs.values()) / len(epochs)
    return json.dumps(log).encode()


def _raises(data: bytes, said: str, other: str = "alpha.eval", **options) -> None:
    tables = [read(LOGS / other), read(data, name="edited.json")]
    with pytest.raises(InputError) as info:
        load(tables, **options)
    assert said in str(info.value), str(info.value)


def test_logs_that_do_not_pair_are_refused_with_what_and_where():
    _raises(_edited(lambda log: log["eval"].update(task="gsm8k")),
            "edited.json: is a log of the task 'gsm8k', ")
    _raises(_edited(lambda log: [s.update(target="99") for s in log["samples"] if s["id"] == 3]),
            "sample 3 has target '9' here but '99' in edited.json")
    missing = _edited(lambda log: log.update(samples=[s for s in log["samples"] if s["id"] != 7]), header=True)
    _raises(missing, "edited.json: lacks 1 id that")
    _raises(missing, "alpha.eval has (the first is 7, sample 7 of ")  # a log has no lines
    dropped = load([read(LOGS / "alpha.eval"), read(missing, name="edited.json")], on_unmatched="drop")
    assert dropped.n == 39 and 7 not in dropped.ids
    assert dropped.notes == (f"dropped 1 item of {LOGS / 'alpha.eval'} whose ids are not in every file",)
    with pytest.raises(InputError, match=r"is an lm-eval log and .*alpha.eval is not"):
        lm = b'{"doc_id": 0, "target": "9", "filtered_resps": ["9"], "exact_match": 1.0}\n'
        load([read(LOGS / "alpha.eval"), read(lm, name="samples_arith_2024.jsonl")])


@pytest.mark.parametrize("edit, said", [
    (lambda log: log["samples"].append(dict(log["samples"][0])),
     "sample 1 (epoch 1) appears twice, as samples 1 and 121"),
    (lambda log: log["samples"][4]["scores"]["match"].update(value="maybe"),
     "sample 5 (epoch 1), scorer match, has the score \"maybe\", which is not a number, C, I, P or N"),
    (lambda log: log["samples"][5]["scores"].pop("includes"), "lacks the score 'includes'"),
    (lambda log: log["samples"].pop(3), "was run 2 times, others 3"),
    (lambda log: log.update(status="error"), "ended in 'error': not every sample was scored"),
    (lambda log: log.pop("eval"), "not an Inspect log"),
])
def test_a_broken_log_is_refused_saying_which_sample(edit, said):
    with pytest.raises(InputError) as info:
        inspect_log.parse_bytes(_edited(edit, header=True), "edited.json")
    assert said in str(info.value) and str(info.value).startswith("edited.json")


def test_an_unfinished_or_foreign_eval_zip_is_refused():
    for members, said in (({"_journal/start.json": b"{}"}, "has no header.json: not a finished Inspect log"),
                          ({"header.json": b"[]", "summaries.json": b"[]"}, "header.json has no .eval. header")):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for name, content in members.items():
                z.writestr(name, content)
        with pytest.raises(InputError, match=said):
            read(out.getvalue(), name="run.eval")


def test_without_zstandard_the_eval_log_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "zstandard", None)
    with pytest.raises(InputError, match=r"zstandard package is not installed.*pip install \"sigcore\[logs\]\""):
        read(LOGS / "alpha.eval")


def test_compare_scores_two_logs_by_their_own_scorer_as_many_does(tmp_path, capsys):
    """compare recomputed accuracy from the answers (0.7667 for beta where Inspect reports 0.7389 on another log):
    now, as many does, it takes the logs' scorer, whose mean equals the accuracy in Inspect's own header, and
    asks which when the logs hold several."""
    logs = [str(LOGS / "alpha.eval"), str(LOGS / "beta.eval")]
    assert main(["compare", *logs]) == 2
    assert ("2 per-sample scores (match, includes). Which one? Say it with --metric (one of: match, includes)"
            in capsys.readouterr().err)
    data = load([read(path) for path in logs])
    assert suggest_metrics(data)[:2] == ["match", "includes"]  # the app's Metric box offers them first
    for scorer in ("match", "includes"):
        assert main(["compare", *logs, "--metric", scorer, "--json"]) == 0
        saved = json.loads(capsys.readouterr().out)
        for side, log in zip(("a", "b"), logs):
            header = _reference(Path(log), tmp_path).results.scores
            [reported] = [s.metrics["accuracy"].value for s in header if s.name == scorer]
            assert saved[f"score_{side}"] == pytest.approx(reported, abs=1e-12)


def test_two_inspect_logs_uploaded_on_the_compare_page():
    """Upload two models' .eval logs: a scorer is a metric of the page, and the verdict names the models."""
    from sigcore import report
    from ui.safe import md

    from helpers.apps import app, run, select, upload, verdict_of

    logs = [LOGS / "alpha.eval", LOGS / "beta.eval"]
    at = upload(app(), *((path.name, path.read_bytes()) for path in logs))
    assert {"match", "includes"} <= set(select(at, "Metric").options)
    select(at, "Metric").set_value("includes").run()
    run(at)
    assert not at.exception and not at.error
    data = load([read(path) for path in logs])
    gold, a, b, metric = score_inputs(data, "includes")
    res = sigcore.compare(gold, a, b, metric=metric)
    assert verdict_of(at) == md(report.verdict(res, a="A (mockllm/alpha)", b="B (mockllm/beta)"))


def test_another_epoch_reducer_is_said():
    """Inspect reduced the epochs with another reducer than the mean: the comparison says what it compares."""
    edited = _edited(lambda log: log["eval"]["config"].update(epochs_reducer=["mode"]))
    data = load([read(LOGS / "alpha.eval"), read(edited, name="edited.json")])
    assert data.notes == ("edited.json: Inspect reduced its epochs with ['mode']; sigcore compares each sample's "
                          "mean over its epochs, so a model's score can differ from the one Inspect reports",)
    assert load([read(LOGS / "alpha.eval"), read(LOGS / "beta.eval")]).notes == ()



# Real logs seen in the wild that the reader once took silently (each rebuilt here from beta's log, the shape of the
# real one kept): every_eval_ever's tests/data/inspect (github.com/evaleval/every_eval_ever, MIT) commits logs trimmed
# to 1 of 79 samples (data_intercode_ctf_local_path.json: sigcore read accuracy 0 where the header says 0.354), a log
# of no samples and no "version" key (data_with_llm_scoring.json: refused as "a JSON file must hold an array"), and a
# sample that errored unscored (data_cvebench_empty_choices.json: 0 scores written, no word); inspect_ai's own
# tests/scorer/logs/*_popularity_dPiJ*.eval (github.com/UKGovernmentBEIS/inspect_ai, MIT) is a run with no scorer.

def test_a_log_trimmed_of_samples_is_refused_with_the_header_s_count_and_score(tmp_path, capsys):
    trimmed = _edited(lambda log: log.update(samples=log["samples"][:1]))
    with pytest.raises(InputError) as info:
        inspect_log.parse_bytes(trimmed, "edited.json")
    assert str(info.value).startswith(
        "edited.json: holds 1 of the 120 samples its header counts (results.total_samples, each epoch counted; it "
        "reports accuracy 0.7667 (match), accuracy 0.7667 (includes) over all of them): the others are not in it.")
    path = tmp_path / "trimmed.json"
    path.write_bytes(trimmed)
    assert main(["convert", str(path), "--out", str(tmp_path / "t.csv")]) == 2
    assert "holds 1 of the 120 samples" in capsys.readouterr().err and not (tmp_path / "t.csv").exists()


def test_a_trimmed_eval_zip_is_refused_too():
    data = (LOGS / "alpha.eval").read_bytes()
    members = {i.filename: i for i in archives.members(data, "alpha.eval")}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", archives.read_member(data, members["header.json"], "alpha.eval"))
        summaries = json.loads(archives.read_member(data, members["summaries.json"], "alpha.eval"))
        z.writestr("summaries.json", json.dumps(summaries[:30]))
    with pytest.raises(InputError, match=r"^run.eval: holds 30 of the 120 samples its header counts"):
        read(out.getvalue(), name="run.eval")


def test_a_log_without_samples_or_version_is_read_as_inspect_s_and_refused_as_such():
    def header_only(log):
        log.pop("version")
        log.pop("samples")
    with pytest.raises(InputError, match=r"^edited.json: holds none of the 120 samples its header counts .*: it has "
                                         r"only the header's summary. Give the whole log"):
        read(_edited(header_only), name="edited.json")


def test_unscored_samples_are_refused_naming_the_sample_and_its_error():
    def no_scorer(log):
        for sample in log["samples"]:
            sample["scores"] = {}
    with pytest.raises(InputError, match=r"^edited.json: none of its 120 samples has a score: the run had no scorer\. "
                                         r"Score the log first \(inspect score LOG\)"):
        inspect_log.parse_bytes(_edited(no_scorer, header=False), "edited.json")

    def errored(log):
        log["samples"][4].update(scores={}, error={"message": "RuntimeError('sandbox\n  failed')", "traceback": ""})
        log["samples"][9].update(scores=None)
    with pytest.raises(InputError) as info:
        inspect_log.parse_bytes(_edited(errored), "edited.json")
    assert str(info.value).startswith("edited.json: sample 5 (epoch 1) has no score: it ended in an error "
                                      "(RuntimeError('sandbox failed')); 2 of its 120 samples have none. "
                                      "Give a log whose every sample was scored: inspect eval-retry")


def test_a_scorer_whose_samples_do_not_average_to_the_header_s_accuracy_is_refused():
    def rescored(log):  # one of the first 6 (epoch 1 of samples 1-6) was I: 0.7667 + 1 / 120
        for sample in log["samples"][:6]:
            sample["scores"]["includes"]["value"] = "C"
    with pytest.raises(InputError, match=r"^edited.json: scorer includes's samples average 0.775, but the log's "
                                         r"header reports accuracy 0.766667\. Give the log as Inspect wrote it"):
        inspect_log.parse_bytes(_edited(rescored), "edited.json")
    reduced = _edited(lambda log: [rescored(log), [s.update(reducer="mode") for s in log["results"]["scores"]]])
    assert inspect_log.parse_bytes(reduced, "edited.json")[0]["includes"].mean() == pytest.approx(0.775, abs=1e-12)
