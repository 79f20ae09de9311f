"""The front door: what the engine is asked is what the user meant, the same in the command line, the API and the app.

The roles of files and columns come from their names and are printed; an open question is asked, never guessed; one
recommender decides the test that runs when none is named; one set of defaults is stated in every output.
"""

import csv
import inspect
import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore import power
from sigcore.__main__ import main
from sigcore.advisor import advise_outputs
from sigcore.cli.parser import build
from ui import run as run_ui
from ui.safe import md

ROOT = Path(__file__).resolve().parents[1]
N = 899  # scikit-learn's digits test split, as the trial used it


def predictions(tmp_path: Path, labels: str = "digits") -> dict[str, Path]:
    """baseline_preds.csv and mymodel_preds.csv, ``id,gold,pred`` each, as people write them: the models differ on
    16 items and mine wins 15 to 1."""
    rng = np.random.default_rng(22)
    classes = {"digits": [str(d) for d in range(10)], "binary": ["0", "1"],
               "text": ["cat", "dog", "bird", "fish"]}[labels]
    gold = rng.choice(classes, N)
    wrong = {g: next(c for c in classes if c != g) for g in classes}
    mine, base = gold.copy(), gold.copy()
    differ = rng.choice(N, 16, replace=False)
    base[differ[:15]] = [wrong[g] for g in gold[differ[:15]]]
    mine[differ[15:]] = [wrong[g] for g in gold[differ[15:]]]
    files = {}
    for name, pred in (("baseline_preds.csv", base), ("mymodel_preds.csv", mine)):
        pd.DataFrame({"id": range(N), "gold": gold, "pred": pred}).to_csv(tmp_path / name, index=False)
        files[name] = tmp_path / name
    return files


def run_json(capsys, argv: list) -> dict:
    assert main(["compare", *map(str, argv), "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def refusal(capsys, argv: list) -> str:
    assert main(list(map(str, argv))) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and len(err.splitlines()) == 1
    return err


# ---------------------------------------------------------------- 1. one file per model, each with its own gold

@pytest.mark.parametrize("labels", ["digits", "binary", "text"])
def test_files_that_each_carry_gold_are_compared_on_their_labels(tmp_path, capsys, labels):
    """They dropped the gold column and tested the mean of the predicted digit ids (p = 0.9053), the share of
    positive predictions (0/1 labels), or refused text labels for want of a gold that was there."""
    files = predictions(tmp_path, labels)
    got = run_json(capsys, files.values())
    assert (got["metric"], got["test"], got["auto"]) == ("accuracy", "mcnemar", True)
    assert (got["a_name"], got["b_name"]) == ("mymodel_preds", "baseline_preds")  # the baseline is B, by its name
    assert got["p_value"] == pytest.approx(scipy.stats.binomtest(15, 16).pvalue, rel=1e-12)  # exact, two-sided
    assert got["score_a"] - got["score_b"] == pytest.approx(14 / N)
    assert main(["compare", *map(str, files.values())]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == [f"roles: gold = the column 'gold' of {files['mymodel_preds.csv']}, "
                       f"{files['baseline_preds.csv']} (each of these files has one; they agree on all {N} items)",
                       f"roles: A = {files['mymodel_preds.csv']} column 'pred'",
                       f"roles: B = {files['baseline_preds.csv']} column 'pred' (named like a baseline)",
                       "roles: pairing = by the id column 'id' (every file has it)"]
    assert out[4].startswith("metric: accuracy") and out[5].startswith("test: McNemar's exact test, recommended")


def test_gold_columns_that_disagree_are_refused_with_both_places(tmp_path, capsys):
    files = predictions(tmp_path)
    frame = pd.read_csv(files["baseline_preds.csv"], dtype=str)
    frame.loc[41, "gold"] = "x"
    frame.to_csv(files["baseline_preds.csv"], index=False)
    err = refusal(capsys, ["compare", *files.values()])
    assert err.startswith(f"error: {files['baseline_preds.csv']}, line 43: its gold column 'gold' has 'x' where "
                          f"{files['mymodel_preds.csv']} line 43 has ")


def test_gold_named_with_several_files_is_that_column_of_every_file(tmp_path, capsys):
    files = predictions(tmp_path)
    for path in files.values():  # a name no guess knows
        pd.read_csv(path, dtype=str).rename(columns={"gold": "answer_key"}).to_csv(path, index=False)
    err = refusal(capsys, ["compare", *files.values()])  # the digits, seen without their gold: a question
    assert "the outputs look like class labels ('pred' is named like predicted labels)" in err and "--gold" in err
    got = run_json(capsys, [*files.values(), "--gold", "answer_key"])
    assert got["test"] == "mcnemar" and got["p_value"] == pytest.approx(scipy.stats.binomtest(15, 16).pvalue)
    err = refusal(capsys, ["compare", *files.values(), "--gold", "truth"])
    assert "no column 'truth' for gold" in err and "The columns are: id, answer_key, pred" in err


@pytest.mark.parametrize("values, reason", [
    ([str(d) for d in range(10)] * 10, "they are 10 distinct whole numbers, as class ids are"),
    (["0", "1"] * 50, "they are 2 distinct whole numbers, as class ids are")])
def test_numbers_that_look_like_labels_are_never_averaged_without_gold(tmp_path, capsys, values, reason):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(values) + "\n")
    b.write_text("\n".join(reversed(values)) + "\n")
    err = refusal(capsys, ["compare", a, b])
    assert f"the outputs look like class labels ({reason}), and there is no gold" in err
    assert "--metric mean if the numbers are per-item scores" in err
    assert run_json(capsys, [a, b, "--metric", "mean"])["metric"] == "mean"  # said, not guessed


def test_columns_named_like_predictions_or_scores_say_which_they_are(tmp_path, capsys):
    rng = np.random.default_rng(3)
    preds = tmp_path / "preds.csv"
    pd.DataFrame({"pred_a": rng.random(50), "pred_b": rng.random(50)}).to_csv(preds, index=False)
    assert "'pred_a' is named like predicted labels" in refusal(capsys, ["compare", preds])
    scores = tmp_path / "scores.csv"
    pd.DataFrame({"acc_a": rng.integers(0, 2, 50), "acc_b": rng.integers(0, 2, 50)}).to_csv(scores, index=False)
    got = run_json(capsys, [scores])  # 0/1 named as correctness: right/wrong items, against a gold of 1s
    assert (got["metric"], got["test"]) == ("accuracy", "mcnemar")
    assert got["metric_reason"].startswith("the outputs are right (1) or wrong (0) per item, as their names say "
                                           "(acc_a, acc_b)")
    floats = tmp_path / "floats.csv"
    pd.DataFrame({"acc_a": rng.random(50), "acc_b": rng.random(50)}).to_csv(floats, index=False)
    assert run_json(capsys, [floats])["metric"] == "mean"  # scores that are not 0/1: their mean


# ---------------------------------------------------------------- 2. gold by its name, not its place

def text_files(tmp_path: Path, names=("baseline.txt", "gold.txt", "mymodel.txt")) -> list[Path]:
    gold = ["a", "b", "c", "a", "b", "c"] * 10
    outputs = {"gold": gold, "baseline": ["a"] * 60, "mymodel": gold[:50] + ["z"] * 10}
    paths = []
    for name in names:
        paths.append(tmp_path / name)
        paths[-1].write_text("\n".join(outputs[name.split(".")[0].removesuffix("2")]) + "\n")
    return paths


def test_gold_is_found_by_its_name_wherever_it_stands(tmp_path, capsys):
    """``baseline.txt gold.txt mymodel.txt`` (a shell glob's order) took baseline.txt as the gold."""
    paths = text_files(tmp_path)
    seen = {run_json(capsys, order)["signature"] for order in itertools.permutations(paths)}
    assert len(seen) == 1  # one comparison, whatever the order: mymodel against the baseline, on gold.txt
    got = run_json(capsys, paths)
    assert got["roles"][:3] == [f"gold = {paths[1]} (named like a gold file)", f"A = {paths[2]}",
                                f"B = {paths[0]} (named like a baseline)"]
    assert got["score_a"] == pytest.approx(50 / 60) and got["score_b"] == pytest.approx(20 / 60)


@pytest.mark.parametrize("names, told", [
    (("gold.txt", "ref.txt", "mymodel.txt"), "2 files are named like the gold: {0}, {1}"),
    (("first.txt", "second.csv", "third.txt"), "none of the files is named like the gold (gold, ref, reference"),
    (("forest.txt", "svm.txt", "preds.txt"), "none of the files is named like the gold (gold, ref, reference")])
def test_an_open_gold_is_a_refusal_that_lists_the_files(tmp_path, capsys, names, told):
    paths = [tmp_path / n for n in names]
    for path in paths:
        path.write_text("id,pred\n1,x\n2,y\n" if path.suffix == ".csv" else "x\ny\n")
    err = refusal(capsys, ["compare", *paths])
    listed = [str(p) for p in paths]
    assert told.format(*listed) in err and "Which file is the gold? Say it with --gold-file" in err
    assert ", ".join(listed[:2]) in err
    got = run_json(capsys, [*paths, "--gold-file", paths[1], "--by-row"])  # the flag settles it
    assert got["roles"][0] == f"gold = {paths[1]}" + (" column 'pred' (given)" if names[1].endswith("csv")
                                                        else " (given)")


def test_files_named_like_truth_or_y_true_are_gold_too(tmp_path, capsys):
    """``forest.txt svm.txt y_true.txt`` (a glob's order) took forest.txt as the gold and compared svm with y_true."""
    for gold_name in ("y_true.txt", "truth.txt", "ground_truth.txt"):
        paths = [tmp_path / n for n in ("forest.txt", "svm.txt", gold_name)]
        for path, lines in zip(paths, (["a", "b"] * 5, ["a", "a"] * 5, ["a", "b"] * 5)):
            path.write_text("\n".join(lines) + "\n")
        roles = run_json(capsys, paths)["roles"]
        assert roles[0] == f"gold = {paths[2]} (named like a gold file)"
        for path in paths:
            path.unlink()


# ---------------------------------------------------------------- 3. mine and the baseline

def test_the_baseline_is_b_by_its_name_by_the_flag_and_names_print_as_given(tmp_path, capsys):
    paths = text_files(tmp_path)
    assert run_json(capsys, paths)["b_name"] == "baseline"
    flipped = run_json(capsys, [*paths, "--baseline", "mymodel.txt"])
    assert (flipped["a_name"], flipped["b_name"]) == ("baseline", "mymodel")
    assert main(["compare", *map(str, paths), "--name", "mymodel=Ours (large)", "--name", "B=Baseline"]) == 0
    out = capsys.readouterr().out
    assert "A (Ours (large)) beats B (Baseline)" in out
    assert "--name nobody=X" and "'nobody' is not one of the systems" in refusal(
        capsys, ["compare", *paths, "--name", "nobody=X"])


@pytest.mark.parametrize("name, baseline", [("baseline", True), ("my_baseline.txt", True), ("base.txt", True),
                                            ("base_preds.csv", True), ("ref-system.out", True), ("bert-base", False),
                                            ("t5-base.jsonl", False), ("database.txt", False), ("mymodel", False)])
def test_names_that_say_baseline(name, baseline):
    from sigcore.io.roles import baseline_named

    assert baseline_named(name) == baseline  # "base" is a model's size in bert-base and t5-base


def test_a_table_column_named_like_a_baseline_is_b(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text("gold,baseline,ours\n" + "x,y,x\ny,y,y\n" * 20)
    got = run_json(capsys, [table])
    assert (got["a_name"], got["b_name"]) == ("ours", "baseline")
    assert "B = column 'baseline' (named like a baseline)" in got["roles"]


# ---------------------------------------------------------------- 4. one recommender

@st.composite
def shapes(draw):
    """Data of many shapes: labels, per-item scores, F1 and BLEU; sizes 1 to 80; few or many differing items;
    grouped or not."""
    metric = draw(st.sampled_from(["accuracy", "mean", "macro_f1", "bleu"]))
    n = draw(st.integers(1, 80))
    share = draw(st.sampled_from([0.0, 0.05, 0.3, 1.0]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    differ = rng.random(n) < share
    if metric == "mean":
        gold, a = None, rng.normal(size=n).round(2)
        b = np.where(differ, rng.normal(size=n).round(2), a)
    elif metric == "bleu":
        words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran"]
        gold = [" ".join(rng.choice(words, 6)) for _ in range(n)]
        a = [" ".join(rng.choice(words, 6)) for _ in range(n)]
        b = [" ".join(rng.choice(words, 6)) if d else x for x, d in zip(a, differ)]
    else:
        gold = rng.choice(["x", "y", "z"], n)
        a = np.where(rng.random(n) < 0.7, gold, "y")
        b = np.where(differ, np.where(a == gold, "z", gold), a)
    groups = [i // 3 for i in range(n)] if draw(st.booleans()) and n >= 2 else None
    return metric, gold, list(a), list(b), groups


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shapes())
def test_the_advisor_the_test_box_and_the_default_run_agree(shape):
    metric, gold, a, b, groups = shape
    advice = advise_outputs(gold, a, b, metric=metric, groups=groups)
    res = sigcore.compare(gold, a, b, metric=metric, groups=groups, n_resamples=200)
    assert res.auto and res.test == advice.recommended.test  # what runs is what is advised, and why
    assert res.test_reason == advice.recommended.reason and res.test_reason
    assert run_ui.ordered_tests(advice, metric, groups is not None)[0] == advice.recommended.test  # the Test box
    many = sigcore.compare_many(gold, {"A": a, "B": b}, metric=metric, groups=groups, n_resamples=200)
    assert many.test == advice.recommended.test and many.auto  # one pair: its own advice
    units = res.n_differing
    if units <= 3:  # 1-3 items (groups) that differ can never make a default run significant
        assert not res.significant and not many.significant("B", "A")


@pytest.mark.parametrize("metric, rows", [
    ("accuracy", [("x", "x", "y")] * 3 + [("x", "x", "x")] * 40),  # 3 discordant pairs
    ("accuracy", [("x", "x", "y")] * 70 + [("x", "y", "x")] * 30),  # 100 discordant: McNemar still
    ("mean", [("", f"{i / 10}", f"{i / 12}") for i in range(60)]),  # per-item scores
    ("bleu", [("the cat sat on the mat", "the cat sat on a mat", "a cat sat on the mat")] * 2
     + [("we ran home", "we ran home", "we walked home")]),
])
def test_the_command_line_runs_what_sigcore_advise_recommends(tmp_path, capsys, metric, rows):
    table = tmp_path / "t.csv"
    with open(table, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["gold", "A", "B"] if metric != "mean" else ["A", "B"])
        writer.writerows(r if metric != "mean" else r[1:] for r in rows)
    got = run_json(capsys, [table, "--metric", metric, "--resamples", "500"])
    assert main(["advise", str(table), "--metric", metric]) == 0
    advised = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("Recommended:"))
    assert advised.startswith(f"Recommended: {sigcore.TESTS[got['test']].title} ({got['test']})") and got["auto"]
    if metric == "accuracy" and len(rows) == 43:
        assert not got["significant"] and got["p_value"] == 0.25  # exact two-sided McNemar on 3 pairs


def test_one_to_three_differing_items_are_never_significant_by_default():
    for k in (1, 2, 3):
        res = sigcore.compare([1] * k, [1] * k, [0] * k)
        assert res.test == "mcnemar" and res.p_value == 2 * 0.5 ** k and not res.significant
        scores = sigcore.compare(None, [0.9] * k, [0.1] * k, metric="mean")
        assert scores.test == "permutation" and not scores.significant


def test_a_family_takes_one_test_for_every_pair_and_says_why():
    rng = np.random.default_rng(4)
    gold = rng.choice(list("xyz"), 400)
    systems = {name: list(np.where(rng.random(400) < acc, gold, "y")) for name, acc in
               (("base", 0.6), ("big", 0.7), ("huge", 0.72))}
    many = sigcore.compare_many(list(gold), systems, all_pairs=True)
    assert many.test == "mcnemar" and many.test_reason.startswith("recommended for each of the 3 pairs")
    tiny = dict(systems, copy=list(systems["base"][:-2]) + ["x", "z"])  # differs from base on two items at most
    mixed = sigcore.compare_many(list(gold), tiny, metric="macro_f1", baseline="base")
    assert mixed.test == "permutation" and "some pair differs on only" in mixed.test_reason


# ---------------------------------------------------------------- 5. the same defaults everywhere, stated everywhere

def test_every_entry_point_has_the_same_defaults():
    for function in (sigcore.compare, sigcore.stream, sigcore.compare_many, sigcore.compare_seeds, power.plan,
                     power.power_at, power.plan_from_rates):
        parameters = inspect.signature(function).parameters
        assert parameters["alternative"].default == "two-sided", function.__name__
        assert parameters["alpha"].default == 0.05, function.__name__
        if function in (sigcore.compare, sigcore.stream, sigcore.compare_many):
            assert parameters["test"].default == "auto" and parameters["n_resamples"].default == 10_000
    commands = build().commands
    for name in ("compare", "many", "seeds", "power"):
        defaults = vars(commands[name].parse_args(["x.csv"] if name != "seeds" else []))
        assert defaults["alternative"] == "two-sided" and defaults["alpha"] == 0.05, name
        if name in ("compare", "many", "seeds"):
            assert defaults["resamples"] == 10_000, name
        if name != "seeds":
            assert defaults["test"] == "auto", name
    assert vars(commands["datasets"].parse_args(["x.csv"]))["resamples"] == 10_000


def _family_files(tmp_path):
    rng = np.random.default_rng(9)
    gold = rng.choice(list("xyz"), 300)
    (tmp_path / "gold.txt").write_text("\n".join(gold) + "\n")
    for name, acc in (("base", 0.5), ("ours", 0.9)):
        (tmp_path / f"{name}.txt").write_text("\n".join(np.where(rng.random(300) < acc, gold, "y")) + "\n")
    return [str(tmp_path / f) for f in ("gold.txt", "base.txt", "ours.txt")]


def test_a_familys_outputs_state_their_settings_and_print_p_one_way(tmp_path, capsys):
    files = _family_files(tmp_path)
    settings = ["--test", "bootstrap", "--resamples", "2000", "--seed", "3"]
    assert main(["many", *files, *settings, "--json"]) == 0
    family, = json.loads(capsys.readouterr().out)["families"]
    assert {k: family[k] for k in ("test", "alternative", "n_resamples", "seed", "alpha", "correction")} == {
        "test": "bootstrap", "alternative": "two-sided", "n_resamples": 2000, "seed": 3, "alpha": 0.05,
        "correction": "holm"}
    row, = family["comparisons"]
    assert row["p_text"] == "< 0.0005" and row["p_corrected_text"] == "< 0.0005"  # no extreme resample: a bound
    assert row["p_bound"] and row["p_value"] == 1 / 2000  # the bound the text prints, never 0
    assert main(["many", *files, *settings, "--csv"]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    assert rows[0]["p_text"] == "< 0.0005" and rows[0]["n_resamples"] == "2000" and rows[0]["seed"] == "3"
    assert main(["many", *files, *settings]) == 0
    table = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("ours "))
    assert table.split()[-3:] == ["0.0005", "<", "0.0005"][-3:] or "< 0.0005  < 0.0005" in table
    assert main(["many", *files, *settings, "--latex"]) == 0
    assert "$b = 2{,}000$, seed 3, two-sided, Holm-corrected" in capsys.readouterr().out


def test_a_pairs_csv_and_caption_state_their_settings():
    from sigcore.report import export

    res = sigcore.compare(list("xyxy") * 10, list("xyyy") * 10, list("xxxy") * 10, test="bootstrap", seed=4,
                          n_resamples=3000)
    rows = list(csv.DictReader(export.scores_csv(res, a="ours", b="theirs").decode().splitlines()))
    assert [r["system"] for r in rows] == ["ours", "theirs", "ours − theirs"]
    assert {(r["test"], r["alternative"], r["n_resamples"], r["seed"], r["alpha"]) for r in rows} == {
        ("bootstrap", "two-sided", "3000", "4", "0.05")}
    assert export.caption(res).endswith("paired bootstrap, b = 3,000, seed 4, two-sided.")


# ---------------------------------------------------------------- 6. pairing problems the user can fix where they are

def test_a_pandas_index_column_is_read_as_the_id(tmp_path, capsys):
    """``df.to_csv(path)`` writes an unnamed first column of 0..n-1: it was refused ("column 1 has no name")."""
    frame = pd.DataFrame({"gold": list("xyxy") * 10, "svm": list("xyyy") * 10, "tree": list("xxxy") * 10})
    frame.to_csv(tmp_path / "preds.csv")
    got = run_json(capsys, [tmp_path / "preds.csv"])
    assert got["columns"]["id"] == "(index)" and got["n_items"] == 40
    assert "id = column '(index)' (the unnamed first column, as pandas writes its index)" in got["roles"]
    assert "column 1 has no name; its values are 0 to n − 1, as pandas writes its index" in got["notes"][0]
    frame.assign(id=range(100, 140)).to_csv(tmp_path / "both.csv")  # an id of its own: the index is left out
    assert "column 1 is left out" in run_json(capsys, [tmp_path / "both.csv"])["notes"][0]
    (tmp_path / "bad.csv").write_text(",gold,a,b\n1,x,x,y\n1,y,y,y\n")
    assert "column 1 has no name, and its values are not unique ids" in refusal(
        capsys, ["compare", tmp_path / "bad.csv"])


def test_many_takes_the_baseline_by_its_file_name(tmp_path, capsys):
    files = _family_files(tmp_path)
    outputs = []
    for baseline in ("base", "base.txt", str(tmp_path / "base.txt")):
        assert main(["many", *files, "--baseline", baseline, "--resamples", "500", "--csv"]) == 0
        outputs.append(capsys.readouterr().out)
    assert len(set(outputs)) == 1 and ",base," in outputs[0]


def test_a_figure_of_a_result_printed_as_json_says_how_to_save_one(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text("gold,A,B\n" + "x,x,y\ny,y,y\n" * 20)
    (tmp_path / "r.json").write_text(json.dumps(run_json(capsys, [table, "--test", "bootstrap"])))
    err = refusal(capsys, ["figure", tmp_path / "r.json", "--out", tmp_path / "f.pdf"])
    assert "holds no resampled values (a result printed with --json leaves them out)" in err
    assert "--save RESULT.json" in err and "closed-form" not in err


# ---------------------------------------------------------------- the app asks what the data leave open

def app() -> AppTest:
    return AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()


def upload(at: AppTest, paths) -> AppTest:
    at.radio[0].set_value("Upload").run()
    at.file_uploader[0].set_value([(p.name, p.read_bytes(), "application/octet-stream") for p in paths]).run()
    return at


def select(at: AppTest, label: str):
    return next(s for s in at.selectbox if s.label == label)


def verdict_of(at: AppTest) -> str:
    shown = [e.value for e in at.success] + [e.value for e in at.info if "significant" in e.value]
    assert len(shown) == 1, shown
    return shown[0]


def test_the_app_reads_files_that_each_carry_gold_and_says_which_is_which(tmp_path):
    files = predictions(tmp_path)
    at = upload(app(), files.values())
    assert not at.exception and not at.error
    assert select(at, "Gold file").value == -1 and select(at, "Baseline (B)").value == 0  # by their names
    roles = next(c.value for c in at.caption if "each of these files has one" in c.value)
    assert md("B = baseline_preds.csv column 'pred' (named like a baseline)") in roles
    assert select(at, "Metric").value == "accuracy" and select(at, "Test").value == "mcnemar"
    h1 = select(at, "H1")
    assert h1.value == "two-sided: mymodel_preds and baseline_preds differ"  # a select box: text, not Markdown
    next(b for b in at.button if b.label == "Run").click().run()
    assert "mymodel\\_preds" in verdict_of(at) and "15 to 1" in verdict_of(at)


def test_the_app_asks_which_file_is_the_gold_when_the_names_do_not_say(tmp_path):
    paths = text_files(tmp_path, ("gold.txt", "baseline.txt", "mymodel.txt"))
    (tmp_path / "ref.txt").write_bytes(paths[0].read_bytes())
    at = upload(app(), [tmp_path / "ref.txt", *paths])
    assert select(at, "Gold file").value is None  # two gold names: a question, not a guess
    assert any("Say which file is the gold" in i.value for i in at.info) and not at.button
    with pytest.raises(StopIteration):  # no "Metric" box to find yet
        select(at, "Metric")
    paths = text_files(tmp_path, ("baseline.txt", "gold.txt", "mymodel.txt"))
    at = upload(app(), paths)
    assert select(at, "Gold file").value == 1 and select(at, "Baseline (B)").value == 0


def test_the_app_asks_whether_numbers_without_gold_are_labels_or_scores(tmp_path):
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("\n".join(str(d % 10) for d in range(60)) + "\n")
    at = upload(app(), [tmp_path / "a.txt", tmp_path / "b.txt"])
    assert select(at, "Metric").value is None and not at.button  # no mean of class ids, silently
    assert any("look like class labels" in w.value for w in at.warning)
    select(at, "Metric").set_value("mean").run()
    assert not at.exception and any(b.label == "Run" for b in at.button)


def test_the_app_can_drop_items_missing_from_a_file(tmp_path):
    (tmp_path / "gold.csv").write_text("id,gold\n" + "".join(f"{i},x\n" for i in range(30)))
    (tmp_path / "a.csv").write_text("id,pred\n" + "".join(f"{i},x\n" for i in range(30)))
    (tmp_path / "b.csv").write_text("id,pred\n" + "".join(f"{i},y\n" for i in range(29)))
    at = upload(app(), [tmp_path / f for f in ("gold.csv", "a.csv", "b.csv")])
    assert at.error[0].value.startswith(md("b.csv: lacks 1 id that gold.csv has (the first is '29', on line 31 of "
                                           "gold.csv)"))
    assert md("'Drop unmatched items' in the app") in at.error[0].value
    next(c for c in at.checkbox if c.label == "Drop unmatched items").check().run()
    assert not at.error and any(md("dropped 1 item of gold.csv") in w.value for w in at.warning)


def test_many_reads_files_that_each_carry_gold_too(tmp_path, capsys):
    files = predictions(tmp_path)
    third = pd.read_csv(files["mymodel_preds.csv"], dtype=str)
    third.to_csv(tmp_path / "other_preds.csv", index=False)
    assert main(["many", *map(str, files.values()), str(tmp_path / "other_preds.csv"), "--all-pairs", "--json"]) == 0
    family, = json.loads(capsys.readouterr().out)["families"]
    assert (family["metric"], family["test"]) == ("accuracy", "mcnemar")
    assert family["roles"][0].startswith("gold = the column 'gold' of ") and "they agree on all 899 items" in \
        family["roles"][0]
    assert all(row["delta_low"] is None for row in family["comparisons"])  # McNemar's interval is of a share: null


def test_the_app_reads_a_pandas_index_as_the_id(tmp_path):
    frame = pd.DataFrame({"gold": list("xyxy") * 10, "svm": list("xyyy") * 10, "tree": list("xxxy") * 10})
    frame.to_csv(tmp_path / "preds.csv")
    at = upload(app(), [tmp_path / "preds.csv"])
    assert not at.exception and not at.error and select(at, "Id").value == "(index)"
    assert any(md("column 1 has no name; its values are 0 to n − 1") in w.value for w in at.warning)


def test_a_blank_gold_in_a_gold_file_or_a_gold_column_is_refused_with_its_line(tmp_path, capsys):
    paths = text_files(tmp_path)
    paths[1].write_text("a\n\nc\n" + "a\n" * 57)  # gold.txt: line 2 blank
    assert "gold.txt, line 2: the gold value is blank" in refusal(capsys, ["compare", *paths])
    files = predictions(tmp_path)
    for path in files.values():
        frame = pd.read_csv(path, dtype=str)
        frame.loc[4, "gold"] = ""
        frame.to_csv(path, index=False)
    assert "_preds.csv, line 6: the gold value is blank" in refusal(capsys, ["compare", *files.values()])


# ---------------------------------------------------------------- found by a new user's trial

def test_many_runs_closed_form_tests_on_per_item_scores(tmp_path, capsys):
    """`many` on per-item scores crashed (the family's floor of a t-test's p, 0, was refused as 'p < 1/b')."""
    assert main(["many", str(ROOT / "sample_data" / "per_item_scores.csv")]) == 0
    out = capsys.readouterr().out
    assert "test (mean): Wilcoxon signed-rank test (normal approximation), recommended" in out  # 500 items
    assert "error:" not in out and "failed unexpectedly" not in out  # the crash's line, not "errors" in a hint
    for test in ("t", "z", "wilcoxon", "sign"):
        assert main(["many", str(ROOT / "sample_data" / "per_item_scores.csv"), "--test", test, "--csv"]) == 0
        assert capsys.readouterr().out.count("\n") == 2


def test_many_takes_a_file_named_baseline_as_its_baseline_and_says_so(tmp_path, capsys):
    for name, lines in (("gold", "abca"), ("a_svm", "abba"), ("baseline", "acca"), ("c_nb", "abcb")):
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n")
    files = sorted(map(str, tmp_path.glob("*.txt")))  # a_svm.txt baseline.txt c_nb.txt gold.txt
    assert main(["many", *files, "--resamples", "500"]) == 0
    out = capsys.readouterr().out
    assert "roles: against = baseline (named like a baseline)" in out
    rows = [line.split()[:2] for line in out.splitlines() if line.startswith(("a_svm ", "c_nb "))]
    assert rows == [["a_svm", "baseline"], ["c_nb", "baseline"]]


def test_a_table_of_three_systems_says_which_two_it_compares(tmp_path, capsys):
    table = tmp_path / "t3.csv"
    table.write_text("y_true,svm,forest,nb\n" + "".join(f"{i % 3},{i % 3},{(i + 1) % 3},{i % 2}\n" for i in range(30)))
    got = run_json(capsys, [table])
    assert "t3.csv has 3 system columns (svm, forest, nb): svm is compared with forest" in got["notes"][0]
    assert "`sigcore many`" in got["notes"][0]
    nb = run_json(capsys, [table, "--baseline", "nb"])  # one table: the baseline is B's column
    assert (nb["a_name"], nb["b_name"]) == ("svm", "nb") and "A = column 'svm' (the first other system column)" in \
        nb["roles"]


def test_chi_square_says_it_was_asked_for_not_recommended(tmp_path, capsys):
    files = predictions(tmp_path)
    assert main(["compare", *map(str, files.values()), "--chi-square"]) == 0
    test = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("test:"))
    assert test.startswith("test: McNemar's chi-square test (continuity-corrected), as --chi-square asks (the "
                           "advisor recommends its exact form:")


def test_a_saved_closed_form_result_says_at_once_it_cannot_be_drawn(tmp_path, capsys):
    files = predictions(tmp_path)
    assert main(["compare", *map(str, files.values()), "--save", str(tmp_path / "r.json")]) == 0
    err = capsys.readouterr().err
    assert "r.json has no resampled values for `sigcore figure`: McNemar's exact test is closed-form" in err
    assert "is not one of the files given" in refusal(capsys, ["compare", *files.values(), "--gold-file", "x.txt"])


def test_a_familys_latex_caption_names_each_metrics_test(tmp_path, capsys):
    files = _family_files(tmp_path)
    assert main(["many", *files, "--metric", "accuracy", "macro_f1", "--latex", "--resamples", "2000"]) == 0
    caption = next(line for line in capsys.readouterr().out.splitlines() if "\\caption" in line)
    assert "(Acc.: McNemar's exact test; macro-F1: paired bootstrap, $b = 2{,}000$, seed 0, two-sided" in caption
    assert caption.count("holm1979simple") == 1


# ---------------------------------------------------------------- one pairing rule for compare and many

INSPECT = ROOT / "tests" / "data" / "inspect"
RULE = 'Ids pair when they are the same number, however written (1, 1.0 and "1" are one item), or else the same text'
ID_KINDS = {  # how the second file writes id k (1..n), and whether it pairs with the first file's k
    "int": (lambda k: k, True), "text digits": (str, True), "float": (float, True),
    "text float": (lambda k: f"{k}.0", True),
    "zero-padded": (lambda k: f"{k:03d}", True), "exponent": (lambda k: f"{k}e0", True),
    "words": (lambda k: f"s{k}", False), "one renamed": (lambda k: "one" if k == 1 else k, False),
}


def _beta_log(tmp_path: Path, write) -> Path:
    """beta's Inspect log (JSON) with each sample's id k written by ``write``."""
    import gzip

    log = json.loads(gzip.decompress((INSPECT / "beta.json.gz").read_bytes()))
    for sample in log["samples"]:
        sample["id"] = write(sample["id"])
    path = tmp_path / "beta.json"
    path.write_text(json.dumps(log))
    return path


def _system_files(tmp_path: Path, write) -> list[Path]:
    """gold.csv (ids 1..30: a CSV's cells are text), a.jsonl with its ids written by ``write``, b.jsonl and c.jsonl
    with integer ids, the rows of each file shuffled: only the ids can pair them."""
    rng = np.random.default_rng(5)
    gold = rng.integers(0, 2, 30)
    preds = {name: np.where(rng.random(30) < p, gold, 1 - gold) for name, p in (("a", 0.9), ("b", 0.6), ("c", 0.5))}
    (tmp_path / "gold.csv").write_text("id,label\n" + "".join(f"{k + 1},{g}\n" for k, g in enumerate(gold)))
    for name, pred in preds.items():
        order = rng.permutation(30)
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(
            {"id": (write if name == "a" else int)(int(k) + 1), "prediction": int(pred[k])}) + "\n" for k in order))
    return [tmp_path / f for f in ("gold.csv", "a.jsonl", "b.jsonl", "c.jsonl")]


def _ran(capsys, argv: list) -> tuple[int, dict | str]:
    code = main([*map(str, argv), "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "unexpectedly" not in err, err
    return code, (json.loads(out) if code == 0 else err)


def _compare_and_many(capsys, tmp_path, source: str, write) -> tuple:
    if source == "logs":  # compare pairs two logs by sample id; many makes a board of them (tidy table, text ids)
        files = [INSPECT / "alpha.eval", _beta_log(tmp_path, write)]
        return (_ran(capsys, ["compare", *files, "--metric", "match"]),
                _ran(capsys, ["many", *files, "--metric", "match"]))
    files = _system_files(tmp_path, write)
    return _ran(capsys, ["compare", *files[:3]]), _ran(capsys, ["many", *files, "--test", "bootstrap",
                                                                "--resamples", "500"])


def _without_notes(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("notes", "columns", "roles", "reproduce")}  # paths


@pytest.mark.parametrize("source", ["logs", "files"])
@pytest.mark.parametrize("kind", list(ID_KINDS))
def test_compare_and_many_pair_ids_by_one_rule(tmp_path, capsys, source, kind):
    """Ids 1..n in one file against the same ids written otherwise in another: compare and many both pair them, to
    the same result as integer ids, or both refuse, saying the rule (1 against "1" was refused by compare and paired
    by many's board; 1 against 1.0 the other way round)."""
    write, pairs = ID_KINDS[kind]
    (compared, pair), (many, board) = _compare_and_many(capsys, tmp_path, source, write)
    assert (compared == 0, many == 0) == (pairs, pairs), (pair, board)
    if not pairs:
        unpaired = 1 if kind == "one renamed" else 40 if source == "logs" else 30
        for said in (pair, board):  # the same refusal: how many ids, and the rule they failed
            assert f"lacks {unpaired} " in said and f"{RULE} exactly." in said, said
        return
    (tmp_path / "int").mkdir()
    reference = _compare_and_many(capsys, tmp_path / "int", source, int) if kind != "int" else None
    if reference is not None:  # the same items paired as with integer ids: the same numbers, to the last bit
        (_, pair_int), (_, board_int) = reference
        assert _without_notes(pair) == _without_notes(pair_int)
        assert (board["models"] if source == "logs" else [_without_notes(f) for f in board["families"]]) == \
            (board_int["models"] if source == "logs" else [_without_notes(f) for f in board_int["families"]])
    respelt = kind in ("float", "text float", "zero-padded", "exponent")  # the same text: nothing to say
    notes = pair["notes"] + (board["settings"]["notes"] if source == "logs" else [])  # many's files: its stderr
    assert any("as the same number" in n or "the same number written two ways" in n for n in notes) == respelt, notes


@pytest.mark.parametrize("ids, same", [
    ((1, 1.0, "1", "1.0", "01", "+1", "1e0", " 1", np.int64(1), np.float32(1)), True),
    ((0.5, ".5", "0.50", "5e-1", np.float32(0.5)), True), ((0, -0.0, "-0", "000"), True),
    (("9007199254740993", 9007199254740993), True), ((9007199254740993, 9007199254740992.0), False),
    (("q1", "Q1"), False), (("q1", "q1 "), False), (("1", "one"), False), (("1", "١"), False),
    (("1_000", 1000), False), (("nan", "NaN"), False), (("0x10", 16), False),
    ((True, 1, np.True_), True),  # a bool is 0 or 1, as Python and pandas count it
])
def test_the_pairing_rule_is_one_function(ids, same):
    from sigcore.io.ids import item_key, same_item

    assert all(same_item(ids[0], other) == same for other in ids[1:]), [item_key(i) for i in ids]


def test_one_number_written_twice_in_a_file_is_a_duplicate_saying_both(tmp_path, capsys):
    gold = tmp_path / "gold.csv"
    gold.write_text("id,label\n7,1\n8,0\n007,1\n")
    (tmp_path / "a.csv").write_text("id,pred\n7,1\n8,0\n9,1\n")
    (tmp_path / "b.csv").write_text("id,pred\n7,1\n8,1\n9,1\n")
    err = refusal(capsys, ["compare", gold, tmp_path / "a.csv", tmp_path / "b.csv"])
    assert "gold.csv, line 4: id '007' occurs twice (also on line 2, as '7')" in err and RULE in err, err
    from sigcore.errors import InputError
    from sigcore.logs import tidy

    logs = [pd.DataFrame({"model": "m", "task": "t", "item": [item], "run": 1, "metric": "acc", "score": 1.0})
            for item in ("1", "1.0")]
    with pytest.raises(InputError, match="model 'm' has task 't' twice"):
        tidy._together(logs)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="0123456789.+-e xq\n\t١", max_size=6), max_size=8))
def test_a_file_of_ids_is_keyed_as_each_id_alone(ids):
    """The shortcut for a whole file (one regular expression over its ids, where each is its own key) gives what
    keying each id alone gives, and a board's grouping of spellings the same items."""
    from sigcore.io.ids import item_key, item_keys, merged

    assert item_keys(ids) == [item_key(i) for i in ids]
    distinct = list(dict.fromkeys(ids))
    groups, first, _ = merged(distinct)
    keys = [item_key(i) for i in distinct]
    same = (lambda a, b: keys[a] == keys[b]) if groups is None else (lambda a, b: groups[a] == groups[b])
    assert all(same(a, b) == (keys[a] == keys[b]) for a in range(len(keys)) for b in range(len(keys)))
    assert len(first) == len(set(keys))


# ---------------------------------------------------------------- one front door: the same data, the same defaults

INSPECT = ROOT / "tests" / "data" / "inspect"


def _shapes(tmp_path: Path) -> dict[str, tuple[list[Path], list[str]]]:
    """Files of each kind people bring, and the flags that settle what the data leave open (a log's scorer)."""
    rng = np.random.default_rng(40)
    gold = rng.choice(["pos", "neg", "neu"], 200)
    labels = tmp_path / "labels.csv"
    pd.DataFrame({"id": range(200), "gold": gold, "mine": np.where(rng.random(200) < 0.8, gold, "neg"),
                  "baseline": np.where(rng.random(200) < 0.7, gold, "pos")}).to_csv(labels, index=False)
    truth = rng.normal(50, 10, 120)
    regression = tmp_path / "regression.csv"
    pd.DataFrame({"gold": truth, "ridge": truth + rng.normal(0, 3, 120),
                  "const": np.full(120, 50.0)}).to_csv(regression, index=False)
    correct = tmp_path / "correct.csv"
    pd.DataFrame({"a_correct": rng.integers(0, 2, 80), "b_correct": rng.integers(0, 2, 80)}).to_csv(correct,
                                                                                                    index=False)
    mt = ROOT / "sample_data" / "mt"
    return {"labels with gold": ([labels], []), "regression outputs": ([regression], []),
            "right/wrong per item": ([correct], []),
            "per-item scores": ([ROOT / "sample_data" / "per_item_scores.csv"], []),
            "BLEU text": ([mt / "newstest2017.ref.de", mt / "uedin-nmt.de", mt / "LIUM-NMT.de"], []),
            "two Inspect logs": ([INSPECT / "alpha.eval", INSPECT / "beta.eval"], ["--metric", "includes"]),
            "two lm-eval logs": (sorted((ROOT / "sample_data" / "lm_eval").glob("*.jsonl")), ["--metric", "acc"])}


@pytest.mark.parametrize("shape", ["labels with gold", "regression outputs", "right/wrong per item", "per-item scores",
                                   "BLEU text", "two Inspect logs", "two lm-eval logs"])
def test_the_command_line_and_the_app_start_from_the_same_metric_roles_and_test(tmp_path, capsys, shape):
    """One front door (sigcore.front.prepare): `compare FILES --json` runs what the app's boxes start from (ui.run
    .defaults), on the same roles; where the data leave the metric open, both ask the same question."""
    from sigcore import front
    from sigcore.comparison import RESAMPLING
    from sigcore.io.inputs import read

    files, answer = _shapes(tmp_path)[shape]
    prepared = front.prepare([read(f) for f in files])
    if answer:  # the logs hold several scorers: a question, not a guess, on both sides
        assert prepared.metric is None and run_ui.defaults(prepared)["metric"] is None
        err = refusal(capsys, ["compare", *files])
        assert err == f"error: {prepared.questions[0]}\n" and prepared.questions[0].flag == "--metric"
        prepared = prepared.choose(answer[1])
    got = run_json(capsys, [*files, *answer])
    app = run_ui.defaults(prepared)
    assert prepared.inputs.metric == got["metric"] and app["test"] == got["test"] and got["auto"]
    assert (app["alternative"], app["alpha"]) == (got["alternative"], got["alpha"])
    if got["test"] in RESAMPLING:
        assert (app["n_resamples"], app["seed"]) == (got["n_resamples"], got["seed"])
    assert got["roles"] == [str(r) for r in prepared.data.roles]
    note = prepared.choice.note("choose another with --metric")
    assert got["metric_reason"] == ("given" if answer else
                                    note.removeprefix(f"the metric is {prepared.metric}").lstrip(":, ") if note else
                                    "given")


@pytest.mark.parametrize("shape", ["labels with gold", "two Inspect logs"])
def test_the_app_s_boxes_start_where_the_command_line_runs(tmp_path, shape):
    """The Compare page itself, files uploaded: its Metric and Test boxes hold ui.run.defaults, the command line's
    metric and test; an open question leaves the Metric box empty and says what to choose."""
    from sigcore import front
    from sigcore.io.inputs import read

    files, answer = _shapes(tmp_path)[shape]
    at = upload(app(), files)
    prepared = front.prepare([read(f) for f in files])
    if answer:
        assert select(at, "Metric").value is None and select(at, "Metric").placeholder == "Which scorer? Choose"
        assert [w.value for w in at.warning] == [md("The logs hold 2 per-sample scores (match, includes). "
                                                    "Choose the one to compare in the Metric box: "
                                                    "the logs report each.")]
        select(at, "Metric").set_value(answer[1]).run()
        prepared = prepared.choose(answer[1])
    start = run_ui.defaults(prepared)
    assert (select(at, "Metric").value, select(at, "Test").value) == (start["metric"], start["test"])
