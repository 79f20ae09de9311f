"""Pairing outputs item by item: guessed roles, alignment by id, and the decisions on blanks and kinds."""

import json
from pathlib import Path

import numpy as np
import pytest

import sigcore
from sigcore import InputError
from sigcore.errors import GOLD, SYSTEM
from sigcore.io.aligned import Aligned
from sigcore.io.columns import Mapping, guess_mapping
from sigcore.io.inputs import read
from sigcore.io.loading import load
from sigcore.io.metric_fit import score_inputs, suggest_metrics
from sigcore.io.pairing import ROW_ORDER, from_files, from_table
from sigcore.io.roles import gold_files

ROOT = Path(__file__).resolve().parents[1]


def table(name: str, text: str):
    return read(text.encode(), name=name)


def test_roles_are_guessed_from_column_names():
    t = table("t.csv", "Doc ID,text,Gold Label,bert,roberta,document\n"
                       "1,good film,pos,pos,neg,d1\n2,bad,neg,neg,neg,d1\n")
    mapping = guess_mapping(t.frame)
    assert mapping == Mapping(gold="Gold Label", systems=("bert", "roberta"), id="Doc ID", group="document",
                                    ignored=("text",))
    data = from_table(t)
    assert (data.gold, data.a, data.b, data.a_name, data.b_name) == (["pos", "neg"], ["pos", "neg"], ["neg", "neg"],
                                                                     "bert", "roberta")
    assert data.ids == ["1", "2"] and data.groups == ["d1", "d1"]


def test_an_id_column_that_repeats_is_no_system_and_its_repeats_are_named():
    """`id,gold,A,B` with id 1 twice once compared A = 'id' with B = 'A', silently."""
    t = table("t.csv", "id,gold,A,B\n1,x,x,y\n1,y,y,y\n")
    assert guess_mapping(t.frame) == Mapping(gold="gold", systems=("A", "B"), id="id")
    with pytest.raises(InputError, match=r"id '1' occurs twice \(also on line 2\)") as info:
        load([t])
    assert (info.value.file, info.value.line) == ("t.csv", 3)
    doc = table("d.csv", "doc,gold,A,B\n1,x,x,y\n1,y,y,y\n")  # a group-named column names items only if unique
    assert guess_mapping(doc.frame) == Mapping(gold="gold", systems=("A", "B"), group="doc")


def test_overrides_win_over_the_guess():
    t = table("t.csv", "label,A,B,C\nx,x,y,x\n")
    data = load([t], a="C", b="A")
    assert (data.a_name, data.b_name, data.a, data.b) == ("C", "A", ["x"], ["x"])


def test_files_with_ids_are_aligned_by_id_in_gold_order():
    gold = table("gold.csv", "id,label\nq1,a\nq2,b\nq3,c\n")
    a = table("a.csv", "id,prediction\nq3,c\nq1,a\nq2,x\n")
    b = table("b.csv", "id,prediction\nq2,b\nq3,x\nq1,a\n")
    data = from_files(gold, a, b, id="id")
    assert data.ids == ["q1", "q2", "q3"]
    assert (data.gold, data.a, data.b) == (["a", "b", "c"], ["a", "x", "c"], ["a", "b", "x"])
    assert data.sources["b"][1].tolist() == [4, 2, 3]  # the line each aligned item came from


def test_unmatched_ids_stop_with_their_place_or_are_dropped_with_a_note():
    gold = table("gold.csv", "id,label\nq1,a\nq2,b\nq3,c\n")
    a = table("a.csv", "id,prediction\nq1,a\nq2,b\nq3,c\n")
    b = table("b.csv", "id,prediction\nq1,a\nq3,c\nq9,z\n")
    with pytest.raises(InputError, match=r"lacks 1 id that gold.csv has \(the first is 'q2', on line 3 of gold.csv\)"
                       r"\..*'Drop unmatched items' in the app, --drop-unmatched") as info:
        from_files(gold, a, b, id="id")
    assert (info.value.file, info.value.line) == ("b.csv", None)  # the file that lacks it
    data = from_files(gold, a, b, id="id", on_unmatched="drop")
    assert data.ids == ["q1", "q3"] and data.b == ["a", "c"]
    assert any("dropped 1 item of b.csv" in note for note in data.notes)


def test_blank_predictions_count_as_wrong_and_are_reported():
    t = table("t.csv", "gold,A,B\nx,x,\ny,,y\nz,z,z\n")
    data = from_table(t)
    assert data.a == ["x", "", "z"] and data.b == ["", "y", "z"]
    assert data.notes == ("t.csv column 'A' has 1 blank outputs (line 3): "
                          "a label metric counts them as wrong answers; the mean refuses them",
                          "t.csv column 'B' has 1 blank outputs (line 2): "
                          "a label metric counts them as wrong answers; the mean refuses them")
    res = sigcore.compare(data.gold, data.a, data.b, test="bootstrap", alternative="greater")
    assert res.score_a == pytest.approx(2 / 3)


def test_numbers_against_text_are_compared_as_text_with_a_note():
    gold = read(b'{"label": 1}\n{"label": 0}\n', name="gold.jsonl")
    a = read(b'{"pred": "1"}\n{"pred": "1"}\n', name="a.jsonl")
    b = read(b'{"pred": 1.0}\n{"pred": 0}\n', name="b.jsonl")
    data = from_files(gold, a, b)
    assert data.gold == ["1", "0"] and data.a == ["1", "1"] and data.b == ["1", "0"]
    assert "compared as text" in data.notes[0]


def test_engine_errors_are_readdressed_to_the_file_line():
    t = table("scores.csv", "id,sys1,sys2\n1,0.5,0.25\n2,0.5,oops\n")
    data = from_table(t)
    with pytest.raises(InputError) as info:
        sigcore.compare(None, data.a, data.b, metric="mean", test="bootstrap", alternative="greater")
    located = data.locate(info.value)
    assert (located.file, located.line) == ("scores.csv", 3) and "oops" in str(located)
    assert (info.value.system, located.system) == (2, "sys2")  # which system: a field, named where it is known
    assert str(info.value).startswith("line 2: system 2 has 'oops'")
    assert str(located).startswith("scores.csv, line 3: system 'sys2' has 'oops' for item 2")
    assert type(located) is type(info.value) and located.hint == info.value.hint


@pytest.mark.parametrize("gold, a, b, system, said", [
    (["x", None, "y"], ["x", "y", "y"], ["x", "y", "x"], GOLD, "t.csv, line 3: gold has no label for item 2"),
    (["x", "y", "y"], ["x", "y", "y"], ["x", ["y"], "x"], 2,
     "t.csv, line 3: system 'base' has a list for item 2, not a single label")])
def test_the_system_an_error_concerns_is_a_field_its_message_renders(gold, a, b, system, said):
    """The engine says which system (or gold) by number; the reader of the files names it and its line, and the words
    between are the engine's, untouched."""
    lines = np.array([2, 3, 4])
    data = Aligned(gold, a, b, "mine", "base", columns={"A": "mine", "B": "base"},
                   sources={role: ("t.csv", lines) for role in ("gold", "a", "b")})
    with pytest.raises(InputError) as info:
        sigcore.compare(gold, a, b, metric="accuracy", test="bootstrap")
    assert info.value.system == system and info.value.file is None
    assert str(data.locate(info.value)).startswith(said)


def test_moving_an_error_keeps_its_words_and_refuses_what_is_no_place():
    error = InputError(f"{SYSTEM} has 'x' for item 3", hint="Fix it.", line=3, system=1)
    assert str(error) == "line 3: system 1 has 'x' for item 3. Fix it."
    moved = error.at(file="a.csv", line=4, system="mine")
    assert str(moved) == "a.csv, line 4: system 'mine' has 'x' for item 3. Fix it." and moved.args == (str(moved),)
    assert str(error) == "line 3: system 1 has 'x' for item 3. Fix it."  # the original stays as it was
    assert str(InputError("a {system} brace", line=1)) == "line 1: a {system} brace."  # no system: the text as given
    with pytest.raises(TypeError, match="not a place: hint"):
        error.at(hint="other")


def test_lm_eval_logs_pair_by_doc_id_and_expose_per_item_scores():
    def record(doc, target, pred, acc):
        return json.dumps({"doc_id": doc, "doc": {}, "target": target, "arguments": [], "resps": [[pred]],
                           "filtered_resps": [pred], "filter": "none", "metrics": ["exact_match"],
                           "doc_hash": "h", "prompt_hash": "h", "target_hash": "h", "exact_match": acc})
    a = read("\n".join([record(0, "4", "4", 1.0), record(1, "9", "8", 0.0)]).encode(), name="samples_a.jsonl")
    b = read("\n".join([record(1, "9", "9", 1.0), record(0, "4", "4", 1.0)]).encode(), name="samples_b.jsonl")
    data = load([a, b])
    assert data.ids == [0, 1] and data.gold == ["4", "9"] and data.a == ["4", "8"] and data.b == ["4", "9"]
    gold, sys_a, sys_b, metric = score_inputs(data, "exact_match")
    assert metric == "accuracy" and sys_a == [1, 0] and sys_b == [1, 1]
    assert sigcore.compare(gold, sys_a, sys_b, test="mcnemar", alternative="greater").score_a == 0.5


def test_lm_eval_logs_of_different_tasks_are_refused():
    def record(doc, target):
        return json.dumps({"doc_id": doc, "target": target, "filtered_resps": ["x"], "filter": "none",
                           "metrics": ["acc"], "acc": 1.0})
    a = read(record(0, "4").encode(), name="samples_a.jsonl")
    b = read(record(0, "5").encode(), name="samples_b.jsonl")
    with pytest.raises(InputError, match="has target '4' here but '5' in samples_b.jsonl"):
        load([a, b])


def test_two_conll_files_that_carry_gold_must_agree_on_it():
    a = read(b"# tokens gold pred\nJohn B-PER B-PER\nlives O O\n\nParis B-LOC B-LOC\n", name="a.conll")
    b = read(b"# tokens gold pred\nJohn B-PER O\nlives O O\n\nParis B-LOC B-ORG\n", name="b.conll")
    data = load([a, b])
    assert data.gold == [["B-PER", "O"], ["B-LOC"]] and data.b == [["O", "O"], ["B-ORG"]]
    res = sigcore.compare(data.gold, data.a, data.b, metric="span_f1", test="bootstrap", alternative="greater")
    assert res.score_a == 1.0
    c = read(b"# tokens gold pred\nJohn B-PER O\nlives O O\n\nParis B-ORG B-ORG\n", name="c.conll")
    with pytest.raises(InputError, match="sentence 2 has other tokens or gold tags") as info:
        load([a, c])
    assert (info.value.file, info.value.line) == ("c.conll", 5)


def test_sample_data_loads_and_compares():
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "sample_data"
    data = load([read(root / "classification.csv")])
    res = sigcore.compare(data.gold, data.a, data.b, test="bootstrap", alternative="greater")
    assert data.n > 100 and np.isfinite(res.p_value)


def test_files_that_share_an_id_column_are_paired_by_it_not_by_row():
    """a.csv's rows shuffled: paired by row, A (right on 85%) looked no better than B (70%)."""
    rng = np.random.default_rng(0)
    gold, a, b = (rng.integers(0, 2, 200) for _ in range(3))
    order = rng.permutation(200)
    files = [table("gold.csv", "id,gold\n" + "".join(f"{i},{v}\n" for i, v in enumerate(gold))),
             table("a.csv", "id,pred\n" + "".join(f"{i},{a[i]}\n" for i in order)),
             table("b.csv", "id,pred\n" + "".join(f"{i},{v}\n" for i, v in enumerate(b)))]
    data = load(files)
    assert data.ids == [str(i) for i in range(200)]  # cells stay text as written
    assert data.a == [str(v) for v in a] and data.b == [str(v) for v in b]
    assert str(data.roles[-1]) == "pairing = by the id column 'id' (every file has it)"
    by_row = load(files, id=ROW_ORDER)
    assert by_row.ids is None and by_row.a == [str(v) for v in a[order]]
    with pytest.raises(InputError, match="id '3' occurs twice"):
        load([files[0], table("a.csv", "id,pred\n3,1\n3,0\n" + "".join(f"{i},1\n" for i in range(198))),
                    files[2]])


def test_gold_files_are_guessed_from_their_names():
    names = ["LIUM-NMT.4900.de.gz", "newstest2017.ref.de.gz", "gold.txt", "goldfish.out", "sys_label.tsv", "a.txt",
             "References.JSONL", "answers.csv.gz", "ref-system.txt", "refined.txt"]
    # a word of the name (goldfish is not gold), and no system's word beside it (sys_label, ref-system are systems)
    assert gold_files(names) == [1, 2, 6, 7]
    assert gold_files(["a.txt", "b.txt"]) == []


def test_suggested_metric_follows_what_the_gold_is():
    """Intents written as sentences are labels (few, repeated), not translations: accuracy, not BLEU."""
    refs = (ROOT / "sample_data" / "mt" / "newstest2017.ref.de").read_text(encoding="utf-8").splitlines()
    intents = ["I want to book a flight", "please cancel my order now", "what is the weather today"] * 20
    tags = [["B-PER", "O"], ["O", "B-LOC"]] * 10
    suggested = {name: suggest_metrics(Aligned(gold, gold, gold[::-1], "a", "b"))[0]
                 for name, gold in (("refs", refs), ("intents", intents), ("tags", tags), ("labels", list("xyz") * 9))}
    assert suggested == {"refs": "bleu", "intents": "accuracy", "tags": "span_f1", "labels": "accuracy"}
    assert suggest_metrics(Aligned(None, [0.5, 0.2], [0.1, 0.3], "a", "b"))[0] == "mean"
    # no gold and no numbers: accuracy, whose refusal says that gold is missing (the mean's said "not a number")
    assert suggest_metrics(Aligned(None, ["x", "y"], ["y", "y"], "a", "b"))[0] == "accuracy"
