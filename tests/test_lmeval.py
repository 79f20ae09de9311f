"""Tests of sigcore.io.lmeval: lm-evaluation-harness ``--log_samples`` files, built here as lm-eval 0.4.x writes
them."""

import json

import numpy as np
import pytest

from sigcore.errors import InputError
from sigcore.io import lmeval

HASHES = {"doc_hash": "3f1c", "prompt_hash": "9ab2", "target_hash": "77d0"}


def generation(doc_id, question, answer, response, filter_="none"):
    """A generate_until record (nq_open style): sanitize_list turned resps into strings."""
    return {"doc_id": doc_id, "doc": {"question": question, "answer": [answer]}, "target": answer,
            "arguments": {"gen_args_0": {"arg_0": f"Q: {question}?\nA:", "arg_1": {"until": ["\n"]}}},
            "resps": [[response]], "filtered_resps": [response.strip()], "filter": filter_,
            "metrics": ["exact_match"], **HASHES, "exact_match": float(response.strip() == answer)}


def multiple_choice(doc_id, loglikelihoods, gold, lengths=(5, 9, 7, 12), stringify=True):
    """A four-choice loglikelihood record (arc_easy style) with acc and acc_norm as the harness computes them."""
    pairs = [[str(ll) if stringify else ll, "False" if stringify else False] for ll in loglikelihoods]
    acc = float(np.argmax(loglikelihoods) == gold)
    acc_norm = float(np.argmax(np.asarray(loglikelihoods) / np.asarray(lengths)) == gold)
    return {"doc_id": doc_id, "doc": {"question": "Which is a mammal?", "choices": ["cat", "eel", "ant", "owl"]},
            "target": gold, "arguments": {f"gen_args_{i}": {"arg_0": "Question: ...", "arg_1": " x"} for i in range(4)},
            "resps": [[pair] for pair in pairs], "filtered_resps": pairs, "filter": "none",
            "metrics": ["acc", "acc_norm"], **HASHES, "acc": acc, "acc_norm": acc_norm}


def jsonl(*records, newline="\n"):
    return "".join(json.dumps(r, ensure_ascii=False) + newline for r in records)


MC_RECORDS = [
    multiple_choice(0, [-4.1, -1.2, -7.3, -9.0], 1),
    multiple_choice(1, [-2.0, -1.9, -0.4, -3.3], 0),
    multiple_choice(2, [-6.5, -8.0, -5.5, -4.0], 3),
    multiple_choice(3, [-1.0, -1.0, -2.0, -3.0], 1),  # a tie: np.argmax takes choice 0, so acc is 0
    multiple_choice(4, [-3.0, -2.5, -2.9, -8.8], 2),
    multiple_choice(5, [-0.7, -3.0, -2.2, -1.1], 0),
]


def test_generation_task():
    text = jsonl(generation(0, "capital of France", "Paris", " Paris"),
                 generation(1, "largest planet", "Jupiter", " Saturn\n"),
                 generation(2, "author of Hamlet", "William Shakespeare", " William Shakespeare"))
    frame, lines = lmeval.parse(text, "samples_nq_open_2024-05-01T10-00-00.jsonl")
    assert list(frame.columns) == ["doc_id", "filter", "target", "prediction", "exact_match"]
    assert frame["doc_id"].tolist() == [0, 1, 2] and frame["filter"].tolist() == ["none"] * 3
    assert frame["prediction"].tolist() == ["Paris", "Saturn", "William Shakespeare"]
    assert frame["exact_match"].dtype == np.float64 and frame["exact_match"].tolist() == [1.0, 0.0, 1.0]
    assert lmeval.metric_fields(frame) == ["exact_match"]
    assert lines.dtype == np.int64 and lines.tolist() == [1, 2, 3]
    assert ((frame["prediction"] == frame["target"]).astype(float) == frame["exact_match"]).all()


@pytest.mark.parametrize("stringify", [True, False])
def test_multiple_choice_prediction_reproduces_acc(stringify):
    records = [multiple_choice(r["doc_id"], [float(p[0]) for p in r["filtered_resps"]], r["target"],
                               stringify=stringify) for r in MC_RECORDS]
    frame, _ = lmeval.parse(jsonl(*records), "samples_arc_easy.jsonl")
    assert lmeval.metric_fields(frame) == ["acc", "acc_norm"]
    assert frame["prediction"].tolist() == ["1", "2", "3", "0", "1", "0"]
    assert frame["target"].tolist() == ["1", "0", "3", "1", "2", "0"]
    assert frame["acc"].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    assert (frame["prediction"] == frame["target"]).mean() == pytest.approx(frame["acc"].mean())
    assert frame["acc_norm"].tolist() != frame["acc"].tolist()  # the fixture tells the two apart


def test_target_written_as_text_by_newer_versions():
    record = MC_RECORDS[0] | {"target": "1"}
    frame, _ = lmeval.parse(jsonl(record), "f")
    assert frame["target"].tolist() == frame["prediction"].tolist() == ["1"]


def test_two_filters_give_one_row_per_doc_and_filter():
    records = []
    for doc_id, (strict, flexible, gold) in enumerate([("[invalid]", "72", "72"), ("10", "10", "10"),
                                                        ("[invalid]", "5", "6")]):
        for filter_, answer in (("strict-match", strict), ("flexible-extract", flexible)):
            records.append(generation(doc_id, "Natalia sold clips", gold, " " + answer, filter_))
    frame, lines = lmeval.parse(jsonl(*records), "samples_gsm8k.jsonl")
    assert frame["filter"].tolist() == ["strict-match", "flexible-extract"] * 3
    assert frame["doc_id"].tolist() == [0, 0, 1, 1, 2, 2]
    assert frame["prediction"].tolist() == ["[invalid]", "72", "10", "10", "[invalid]", "5"]
    assert frame.groupby("filter", sort=False)["exact_match"].mean().tolist() == pytest.approx([1 / 3, 2 / 3])
    assert lines.tolist() == [1, 2, 3, 4, 5, 6]


def test_crlf_and_blank_lines():
    text = "\r\n" + jsonl(*MC_RECORDS[:2], newline="\r\n") + "\r\n  \r\n" + jsonl(MC_RECORDS[2], newline="\r\n")
    frame, lines = lmeval.parse(text, "f")
    assert frame["doc_id"].tolist() == [0, 1, 2] and lines.tolist() == [2, 3, 6]


def test_older_files_without_metrics_and_filter_fields():
    record = {k: v for k, v in generation(0, "q", "a", " a").items() if k not in ("metrics", "filter")}
    record |= {"task_name": "nq_open", "bleu_hash": "x", "success": True, "perfect": True, "note": "n/a"}
    frame, _ = lmeval.parse(jsonl(record), "f")
    assert frame["filter"].tolist() == ["none"]
    assert lmeval.metric_fields(frame) == ["exact_match", "perfect"]  # booleans count, metadata does not
    assert frame["perfect"].tolist() == [1.0]


def test_corpus_level_metrics_are_left_out():
    record = generation(0, "Hallo Welt", "Hello world", " Hello world") | {"metrics": ["bleu", "exact_match"],
                                                                         "bleu": ["Hello world", "Hello world"]}
    frame, _ = lmeval.parse(jsonl(record), "samples_wmt16.jsonl")
    assert lmeval.metric_fields(frame) == ["exact_match"]


@pytest.mark.parametrize("target, text", [(None, ""), (["a", "b"], '["a", "b"]'), (True, "True"), (2.5, "2.5")])
def test_target_rendering(target, text):
    frame, _ = lmeval.parse(jsonl(generation(0, "q", "a", " a") | {"target": target}), "f")
    assert frame["target"].tolist() == [text]


@pytest.mark.parametrize("responses, text", [([["first", "second"]], "first"), ([], ""), ([[]], ""),
                                             ([17], "17"), ([["-1.0", "maybe"]], "-1.0")])
def test_generation_prediction_rendering(responses, text):
    frame, _ = lmeval.parse(jsonl(generation(0, "q", "a", " a") | {"filtered_resps": responses}), "f")
    assert frame["prediction"].tolist() == [text]


GOOD = jsonl(generation(0, "q", "a", " a"))


@pytest.mark.parametrize("line, what, column", [
    ('{"doc_id": 1, "target": "a",', r"not valid JSON \(Expecting property name", 29),
    ("doc_id: 1", r"not valid JSON \(Expecting value", 1),
    ("[1, 2]", "the line is not a JSON object", 1),
    (json.dumps({"target": "a", "filtered_resps": []}), "the record has no 'doc_id' field", "doc_id"),
    (json.dumps({"doc_id": 1, "filtered_resps": []}), "the record has no 'target' field", "target"),
    (json.dumps({"doc_id": 1, "target": "a", "resps": []}), "the record has no 'filtered_resps' field",
     "filtered_resps"),
    (json.dumps(generation(1, "q", "a", " a") | {"exact_match": "yes"}),
     "metric 'exact_match' is 'yes', not a number", "exact_match"),
    (json.dumps(generation(1, "q", "a", " a") | {"exact_match": None}),
     "metric 'exact_match' is '', not a number", "exact_match"),
    (json.dumps({k: v for k, v in generation(1, "q", "a", " a").items() if k != "exact_match"}),
     "the record lists metric 'exact_match' but has no 'exact_match' field", "exact_match"),
    (json.dumps(generation(1, "q", "a", " a") | {"metrics": "exact_match"}), "not a list of metric names",
     "metrics"),
    (json.dumps(generation(1, "q", "a", " a") | {"metrics": ["exact_match", "f1"], "f1": 0.5}),
     "the record has metric 'f1', which the record on line 1 does not have", "f1"),
    (json.dumps(generation(1, "q", "a", " a") | {"metrics": []}),
     "the record has no metric 'exact_match', which the record on line 1 has", "exact_match"),
    (json.dumps(generation([1], "q", "a", " a")), r"doc_id \[1\] is not a whole number or a string", "doc_id"),
    (json.dumps(generation(2.5, "q", "a", " a")), "doc_id 2.5 is not a whole number or a string", "doc_id"),
    (json.dumps(generation(1, "q", "a", " a", filter_=3)), "the 'filter' field is not a string", "filter"),
    (json.dumps(generation(0, "q", "a", " b")), "doc_id 0 with filter 'none' appears twice, on lines 1 and 3",
     "doc_id"),
])
def test_errors_name_their_place(line, what, column):
    with pytest.raises(InputError, match=what) as info:
        lmeval.parse(GOOD + "\n" + line + "\n", "samples_x.jsonl")
    error = info.value
    assert (error.file, error.line, error.column) == ("samples_x.jsonl", 3, column)
    assert error.hint


def test_metric_named_like_a_frame_column():
    with pytest.raises(InputError, match="a metric cannot be named 'prediction'") as info:
        lmeval.parse(jsonl(generation(0, "q", "a", " a") | {"metrics": ["prediction"], "prediction": 1.0}), "f")
    assert (info.value.line, info.value.column) == (1, "prediction")


@pytest.mark.parametrize("text", ["", "\n", " \r\n\r\n"])
def test_no_records(text):
    with pytest.raises(InputError, match="the file has no records") as info:
        lmeval.parse(text, "samples_x.jsonl")
    assert info.value.file == "samples_x.jsonl" and "log_samples" in info.value.hint


def test_logs_filtered_differently_are_told_so_with_both_filters(tmp_path, capsys):
    """Two logs of one task with other filters said only "ids not in every file"."""
    from sigcore.__main__ import main

    docs = [(i, "q", "a", " a" if i % 2 else " b") for i in range(6)]
    a = tmp_path / "samples_gsm8k_a.jsonl"
    b = tmp_path / "samples_gsm8k_b.jsonl"
    a.write_text(jsonl(*(generation(*d, filter_=f) for d in docs for f in ("strict-match", "flexible-extract"))))
    b.write_text(jsonl(*(generation(*d, filter_="get-answer") for d in docs)))
    assert main(["compare", str(a), str(b), "--metric", "exact_match"]) == 2
    err = capsys.readouterr().err
    assert (f"{b}, line 1, column filter: the logs were filtered differently: 'get-answer' here, 'strict-match', "
            f"'flexible-extract' in {a}.") in err, err


def test_logs_of_several_filters_compare_one_filter_asked_for_never_both(tmp_path, capsys):
    """Each document once per filter: counted as two items, p = 0.14 became 0.03 ('significant') without a word."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    import sigcore
    from sigcore.__main__ import main

    rng = np.random.default_rng(3)
    right = rng.random((2, 100)) < np.array([[0.66], [0.56]])
    logs = []
    for name, row in (("A", right[0]), ("B", right[1])):
        path = tmp_path / f"samples_gsm8k_{name}.jsonl"
        path.write_text(jsonl(*(generation(i, "q", "42", " 42" if row[i] else " 7", f) for i in range(100)
                                for f in ("strict-match", "flexible-extract"))))
        logs.append(path)
    assert main(["compare", *map(str, logs), "--metric", "exact_match"]) == 2
    err = capsys.readouterr().err
    assert "the logs hold 2 filters (strict-match, flexible-extract)" in err and "--filter" in err
    assert main(["compare", *map(str, logs), "--metric", "exact_match", "--filter", "strict-match", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = sigcore.compare([1] * 100, right[0].astype(int).tolist(), right[1].astype(int).tolist())
    assert got["n_items"] == 100 and got["p_value"] == pytest.approx(expected.p_value, rel=1e-12)
    assert "filter = 'strict-match' (given)" in got["roles"]
    assert main(["compare", *map(str, logs), "--metric", "exact_match", "--filter", "strict-match"]) == 0
    assert "--filter strict-match" in next(line for line in capsys.readouterr().out.splitlines()
                                           if line.startswith("reproduce: "))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "dashboard.py"), default_timeout=60).run()
    at.radio[0].set_value("Upload").run()
    at.file_uploader[0].set_value([(p.name, p.read_bytes(), "application/octet-stream") for p in logs]).run()
    box = next(s for s in at.selectbox if s.label == "lm-eval filter")
    assert box.value is None and box.options == ["strict-match", "flexible-extract"] and not at.error
    box.set_value("flexible-extract").run()
    assert not at.exception and not at.error and any("100 items" in c.value for c in at.caption)


def test_an_acc_outside_0_to_1_is_read_with_a_note_where_compare_and_many_read_it(tmp_path, capsys):
    """An acc of 5 or -3 was taken as a score without a word (issue 39, 5): lm-eval's acc is right 1, wrong 0."""
    from sigcore.__main__ import main

    records = [dict(r) for r in MC_RECORDS]
    records[2]["acc"], records[4]["acc"] = 5.0, -3.0
    frame, _ = lmeval.parse(jsonl(*records), "samples_arc.jsonl")
    assert frame["acc"].tolist() == [r["acc"] for r in records]  # read as given
    assert frame.attrs["notes"] == ["samples_arc.jsonl: acc is 5 on line 3, and 1 more outside 0..1, where "
                                    "lm-eval's acc lies in 0..1 (right 1, wrong 0): these may not be its scores; "
                                    "they are compared as given"]
    assert "notes" not in lmeval.parse(jsonl(*MC_RECORDS), "ok.jsonl")[0].attrs  # acc_norm and acc in 0..1: none
    for model, rows in (("m1", records), ("m2", MC_RECORDS)):
        (tmp_path / model).mkdir()
        (tmp_path / model / "samples_arc_2024-01-01T00-00-00.jsonl").write_text(jsonl(*rows))
    a, b = (str(tmp_path / m / "samples_arc_2024-01-01T00-00-00.jsonl") for m in ("m1", "m2"))
    assert main(["compare", a, b, "--metric", "acc"]) == 0
    assert f"note: {a}: acc is 5 on line 3, and 1 more outside 0..1" in capsys.readouterr().out
    assert main(["many", a, b, "--metric", "acc", "--resamples", "200"]) == 0
    assert f"note: {a}: acc is 5 on line 3" in capsys.readouterr().err
