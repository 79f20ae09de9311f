"""The one JSON form (sigcore.jsonform, sigcore.report.records): every --json of every command, every --save file,
the app's JSON downloads and a paper folder's JSON validate against the published schema of their kind
(docs/reference/schemas/, jsonschema draft 2020-12), and none holds NaN, infinity, "nan"/"inf" or a p of 0;
random pairs and boards (hypothesis) too. Saved results read back by their kind, and an old, unknown or newer one is
refused with what it is, what this version reads and what to do."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import sigcore
from sigcore import jsonform, leaderboard
from sigcore.__main__ import main
from sigcore.errors import InputError
from sigcore.report import records

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_data"
LABELS, SCORES, SUITE = SAMPLES / "classification.csv", SAMPLES / "per_item_scores.csv", SAMPLES / "lm_eval_suite"
JUDGMENTS = ROOT / "tests" / "data" / "judgments"
P_KEYS = {"p_value", "p_corrected", "p_low", "p_high", "p_chi2", "p_values", "bonferroni", "fisher", "p_floor"}
NOT_NUMBERS = {"nan", "-nan", "inf", "-inf", "infinity", "-infinity"}


def clean(record, where="") -> list[str]:
    """What in ``record`` breaks the JSON form's rules: a number that is not finite, text that spells one, a p of 0
    (or below 0, or above 1)."""
    found = []
    if isinstance(record, dict):
        for k, v in record.items():
            found += clean(v, f"{where}/{k}")
            values = v if isinstance(v, list) else [v]
            if k in P_KEYS and any(isinstance(x, (int, float)) and not 0 < x <= 1 for x in values):
                found.append(f"{where}/{k} = {v}")
    elif isinstance(record, list):
        for i, v in enumerate(record):
            found += clean(v, f"{where}/{i}")
    elif isinstance(record, float) and not math.isfinite(record):
        found.append(f"{where} = {record}")
    elif isinstance(record, str) and record.strip().lower() in NOT_NUMBERS:
        found.append(f"{where} = {record!r}")
    return found


def parsed(text: str):
    """JSON text as a strict reader takes it: NaN and Infinity, which JSON lacks, come back as text (and fail)."""
    return json.loads(text, parse_constant=str)


def check(text: str, kind: str) -> dict:
    record = parsed(text)
    assert record["kind"] == kind and record["schema_version"] == jsonform.KINDS[kind]
    assert jsonform.problems(record) == [], jsonform.problems(record)[:5]
    assert clean(record) == [], clean(record)[:5]
    return record


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """Data each kind needs that sample_data/ does not hold as it is: items with runs (a board's variance split),
    per-seed output files, and a table of p-values with one of 0."""
    tmp = tmp_path_factory.mktemp("jsonform")
    rng = np.random.default_rng(0)
    rows = [{"model": m, "task": t, "item": f"{t}{i}", "run": r, "metric": "acc",
             "score": float(rng.random() < p + 0.1 * (i % 3))}
            for t, n in (("arith", 60), ("quiz", 40)) for m, p in (("m1", 0.5), ("m2", 0.6), ("m3", 0.62))
            for i in range(n) for r in (1, 2, 3)]
    pd.DataFrame(rows).to_csv(tmp / "runs.csv", index=False)
    runs = pd.read_csv(SAMPLES / "seeds" / "digits_runs.csv", dtype=str)
    (tmp / "gold.txt").write_text("\n".join(runs.gold) + "\n")
    for column in [c for c in runs.columns if c.startswith(("mlp_", "forest_"))]:
        (tmp / f"{column}.txt").write_text("\n".join(runs[column]) + "\n")
    (tmp / "p.csv").write_text("dataset,p\nd1,0.001\nd2,0.03\nd3,1e-320\n")
    return {"runs": tmp / "runs.csv", "gold": tmp / "gold.txt", "p": tmp / "p.csv",
            "a": sorted(tmp.glob("mlp_*.txt")), "b": sorted(tmp.glob("forest_*.txt"))}


PAIR = [str(LABELS), "--a", "logreg", "--b", "tree"]
CASES = {  # every command's --json, each kind and each test
    **{f"pair {test}": ("pair", ["compare", *PAIR, "--test", test, "--resamples", "300"])
       for test in ("bootstrap", "permutation", "mcnemar", "sign")},
    **{f"pair scores {test}": ("pair", ["compare", str(SCORES), "--test", test, "--resamples", "300"])
       for test in ("t", "z", "wilcoxon", "bootstrap", "permutation", "sign")},
    "pair one-sided": ("pair", ["compare", str(SCORES), "--test", "bootstrap", "--alternative", "greater",
                                "--resamples", "300"]),
    "pair no interval": ("pair", ["compare", *PAIR, "--test", "permutation", "--ci-method", "none",
                                  "--resamples", "300"]),
    "pair chi-square": ("pair", ["compare", *PAIR, "--test", "mcnemar", "--chi-square"]),
    "pair sacrebleu": ("pair", ["compare", *PAIR, "--test", "bootstrap", "--compat", "sacrebleu", "--resamples",
                                "300"]),
    "pair auto": ("pair", ["compare", *PAIR]),
    "claim non-inferior": ("claim", ["compare", *PAIR, "--non-inferior", "0.01", "--resamples", "300"]),
    "claim equivalent t": ("claim", ["compare", str(SCORES), "--equivalent", "0.05", "--test", "t"]),
    "sequence": ("sequence", ["compare", str(SCORES), "--sequential", "--score-range", "0", "1"]),
    "family baseline": ("family", ["many", str(LABELS), "--resamples", "300", "--test", "bootstrap"]),
    "family all pairs": ("family", ["many", str(LABELS), "--all-pairs", "--test", "mcnemar"]),
    "family one-sided": ("family", ["many", str(LABELS), "--alternative", "greater", "--test", "permutation",
                                    "--resamples", "300"]),
    "board": ("board", ["many", str(SUITE), "--metric", "acc", "--resamples", "200", "--per-task", "family",
                        "--friedman"]),
    "board all pairs": ("board", ["many", str(SUITE), "--metric", "acc", "--resamples", "200", "--all-pairs",
                                  "--friedman"]),
    "board runs": ("board", ["many", "{runs}", "--resamples", "200", "--per-task", "task"]),
    "aso": ("aso", ["seeds", str(SAMPLES / "seeds" / "digits_seed_scores.csv"), "--resamples", "200"]),
    "seeds": ("seeds", ["seeds", "--gold", "{gold}", "--a", "{a}", "--b", "{b}", "--resamples", "300"]),
    "advice labels": ("advice", ["advise", *PAIR]),
    "advice scores": ("advice", ["advise", str(SCORES)]),
    "plan rates": ("plan", ["power", "--n", "500", "--accuracy-a", "0.75", "--accuracy-b", "0.72", "--agreement",
                            "0.85", "--sims", "40", "--resamples", "200"]),
    "plan pilot": ("plan", ["power", str(SCORES), "--sims", "40", "--resamples", "200"]),
    "plan claim": ("plan", ["power", "--n", "500", "--accuracy-a", "0.75", "--accuracy-b", "0.74", "--agreement",
                            "0.85", "--non-inferior", "0.02"]),
    "replicability table": ("replicability", ["datasets", "{p}"]),
    "preferences": ("preferences", ["preferences", str(JUDGMENTS / "arena.csv"), "--prior", "1", "--resamples",
                                    "200"]),
    "preferences davidson": ("preferences", ["preferences", str(JUDGMENTS / "mt_bench_pair.jsonl"), "--ties",
                                             "davidson", "--scale", "log", "--resamples", "200"]),
    "replicability folders": ("replicability", ["datasets", *(str(SAMPLES / "datasets" / d) for d in
                                                              ("iris", "wine", "digits")),
                                                "--a", "logreg", "--b", "tree", "--resamples", "300"]),
}


def _argv(argv: list[str], files: dict) -> list[str]:
    out = []
    for word in argv:
        if word.startswith("{"):
            value = files[word.strip("{}")]
            out += [str(v) for v in value] if isinstance(value, list) else [str(value)]
        else:
            out.append(word)
    return out


@pytest.mark.parametrize("case", CASES)
def test_every_json_output_validates_against_its_kind_s_schema(case, files, capsys):
    kind, argv = CASES[case]
    assert main([*_argv(argv, files), "--json"]) == 0, capsys.readouterr().err
    record = check(capsys.readouterr().out, kind)
    if kind == "family":  # its H1, said in words too
        assert all(f["h1"] == records.H1[f["alternative"]] for f in record["families"])
    if case == "pair one-sided":  # the bound's open end: null, never "inf"
        assert record["ci_side"] == "lower" and record["ci_high"] is None and record["ci_low"] is not None
        assert record["ci_open"] == ["high"]
    if case == "pair no interval":
        assert record["ci_low"] is None and record["ci_high"] is None and record["ci_open"] == []
    if case == "replicability table":  # a p of 1e-320, and what Fisher's combination makes of it, are not 0
        assert min(record["p_values"]) == 1e-320 and min(r["fisher"] for r in record["partial_conjunction"]) > 0


def test_a_board_p_no_resample_reached_is_its_bound_as_the_text_prints_it(capsys):
    argv = ["many", str(SUITE), "--metric", "acc", "--resamples", "200"]
    assert main([*argv, "--json"]) == 0
    models = check(capsys.readouterr().out, "board")["models"]
    bounds = [r for r in models if r.get("p_bound")]
    assert bounds and all(r["p_value"] == 1 / 200 for r in bounds)  # was 0.0 where the text says "< 0.005"
    assert main(argv) == 0
    text = capsys.readouterr().out
    for r in bounds:
        assert any(line.startswith(r["model"]) and "< 0.005" in line for line in text.splitlines())
    baseline = next(r for r in models if r["model"] == r["baseline"])
    assert baseline["delta"] is None and baseline["p_value"] is None  # was "nan"


def test_the_variance_split_has_the_text_s_names(files, capsys):
    assert main(["many", str(files["runs"]), "--resamples", "200", "--json"]) == 0
    split = check(capsys.readouterr().out, "board")["variance"]
    assert split and all(r["items_share"] + r["runs_share"] == pytest.approx(1) for r in split)
    assert not {"error", "items", "runs"} & set(split[0])  # 0.2.0's names
    assert main(["many", str(files["runs"]), "--resamples", "200"]) == 0
    text = capsys.readouterr().out
    assert "items' share" in text and "runs' share" in text


@pytest.mark.slow  # paper folders draw their figures (kaleido)
def test_saved_files_and_paper_folders_validate_and_read_back(tmp_path, capsys):
    pair, family, board = (tmp_path / f"{n}.json" for n in ("pair", "family", "board"))
    assert main(["compare", *PAIR, "--test", "bootstrap", "--resamples", "300", "--save", str(pair),
                 "--paper", str(tmp_path / "paper")]) == 0
    assert main(["many", str(LABELS), "--resamples", "300", "--save", str(family), "--paper",
                 str(tmp_path / "paper")]) == 0
    assert main(["many", str(SUITE), "--metric", "acc", "--resamples", "200", "--save", str(board), "--paper",
                 str(tmp_path / "paper")]) == 0
    assert main(["seeds", str(SAMPLES / "seeds" / "digits_seed_scores.csv"), "--resamples", "200", "--paper",
                 str(tmp_path / "paper")]) == 0
    assert main(["compare", *PAIR, "--non-inferior", "0.01", "--resamples", "300", "--paper",
                 str(tmp_path / "paper")]) == 0
    capsys.readouterr()
    kinds = {p.name: check(p.read_text(), parsed(p.read_text())["kind"])["kind"]
             for p in [pair, family, board, *(tmp_path / "paper").glob("*.json")] if p.name != "manifest.json"}
    assert set(kinds.values()) == {"pair", "family", "board", "aso", "claim"}, kinds
    res = sigcore.Result.from_dict(parsed(pair.read_text()))
    assert len(res.distribution) == 300 and res.test == "bootstrap"
    assert jsonform.read(parsed(board.read_text()), kinds=("board",))["board"]["n_resamples"] == 200


def test_the_app_s_downloads_are_the_command_line_s_records():
    gold, a, b = ["x", "y"] * 30, ["x", "y", "y"] * 20, ["x", "x", "y"] * 20
    res = sigcore.compare(gold, a, b, test="bootstrap", n_resamples=200, alternative="less")
    check(records.dumps(records.pair(res, distribution=True, a_name="A", b_name="B")), "pair")
    frame = pd.DataFrame([{"model": m, "task": "t", "item": i, "score": float((i * k) % 3 == 0)}
                          for k, m in enumerate(("m1", "m2"), start=1) for i in range(30)])
    board = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=100, per_task=True)
    check(records.dumps(records.board(board, baseline="m1", alpha=0.05, correction="holm", per_task="family",
                                      metrics=["score"], cluster=None, drop=False)), "board")


# ---------------------------------------------------------------- random data

@st.composite
def pairs(draw):
    n = draw(st.integers(5, 40))
    binary = draw(st.booleans())
    values = st.sampled_from(["a", "b"]) if binary else st.floats(0, 1, allow_nan=False).map(lambda x: round(x, 2))
    gold = ["a"] * n if binary else None
    a, b = (draw(st.lists(values, min_size=n, max_size=n)) for _ in range(2))
    tests = ["bootstrap", "permutation", "sign"] + (["mcnemar"] if binary else ["t", "z", "wilcoxon"])
    return gold, a, b, binary, draw(st.sampled_from(tests)), draw(st.sampled_from(sigcore.ALTERNATIVES))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs())
def test_any_pair_s_record_is_valid_and_reads_back(case):
    gold, a, b, binary, test, alternative = case
    try:
        res = sigcore.compare(gold, a, b, metric="accuracy" if binary else "mean", test=test,
                              alternative=alternative, n_resamples=200, seed=1)
    except sigcore.SigcoreError:
        return  # a refusal (too few items for the test) is another contract's
    text = records.dumps(records.pair(res, distribution=True))
    check(text, "pair")
    back = sigcore.Result.from_dict(parsed(text))
    assert back.p_text == res.p_text and back.significant == res.significant and back.ci_side == res.ci_side
    assert (back.ci_low, back.ci_high) == pytest.approx((res.ci_low, res.ci_high), nan_ok=True)


@st.composite
def boards(draw):
    models, tasks, n = draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.integers(3, 15))
    runs = draw(st.integers(1, 2))
    scores = draw(st.lists(st.sampled_from([0.0, 1.0]), min_size=models * tasks * n * runs,
                           max_size=models * tasks * n * runs))
    rows = [{"model": f"m{m}", "task": f"t{t}", "item": f"{t}-{i}", "run": r, "score": 0.0}
            for m in range(models) for t in range(tasks) for i in range(n) for r in range(runs)]
    for row, score in zip(rows, scores):
        row["score"] = score
    return pd.DataFrame(rows), draw(st.booleans())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_any_board_s_record_is_valid(case):
    frame, all_pairs = case
    board = leaderboard.from_table(frame)
    res = leaderboard.bootstrap(board, n_resamples=50, per_task=True)
    base = None if all_pairs else board.models[0]
    record = records.board(res, baseline=base, alpha=0.05, correction="holm", per_task=None if all_pairs else "task",
                           friedman=len(board.tasks) >= 2, saved=True)
    check(records.dumps(record), "board")


# ---------------------------------------------------------------- reading back

def _pair_record() -> dict:
    res = sigcore.compare(["x", "y"] * 20, ["x", "y", "y", "x"] * 10, ["y", "y", "x", "x"] * 10, test="bootstrap",
                          n_resamples=100)
    return res.to_dict(distribution=True)


@pytest.mark.parametrize("change, words", [
    (lambda r: r.pop("kind"), ['has no "kind"', "sigcore 0.2.0 and earlier wrote no kind", "reads pair",
                               "Run the command that made it again"]),
    (lambda r: r.update(kind="poll"), ["kind 'poll', which sigcore", "does not know", "Upgrade sigcore"]),
    (lambda r: r.update(schema_version=2), ["a pair of schema_version 2", "reads schema_version 1",
                                            "Upgrade sigcore"]),
    (lambda r: r.update(schema_version=0), ["a pair of schema_version 0", "Run the command that made it again"]),
    (lambda r: r.update(kind="aso"), ["kind 'aso'; this reads pair (schema_version 1)"]),
    (lambda r: r.update(p_value=0), ["is not a valid pair", "p_value: 0 is less than or equal to the minimum of 0"]),
    (lambda r: r.update(ci_low="-inf"), ["ci_low: '-inf' is not of type 'number', 'null'"]),
])
def test_a_saved_result_of_another_kind_or_version_is_refused_with_what_to_do(change, words):
    record = _pair_record()
    change(record)
    with pytest.raises(InputError) as e:
        sigcore.Result.from_dict(record, file="r.json")
    assert all(w in str(e.value) for w in words) and str(e.value).startswith("r.json: "), str(e.value)


def test_a_saved_family_is_read_by_its_kind(tmp_path, capsys):
    saved = tmp_path / "r.json"
    saved.write_text(records.dumps(_pair_record()))
    assert main(["compare", *PAIR, "--family", str(saved)]) == 2
    assert "holds a result of kind 'pair'; this reads family (schema_version 1)" in capsys.readouterr().err


def test_the_published_schemas_are_draft_2020_12_one_per_kind():
    published = ROOT / "docs" / "reference" / "schemas"
    assert {p.name for p in published.glob("*.schema.json")} == {f"{k}.schema.json" for k in [*jsonform.KINDS,
                                                                                              "common"]}
    for kind in [*jsonform.KINDS, "common"]:
        schema = json.loads((published / f"{kind}.schema.json").read_text())
        Draft202012Validator.check_schema(schema)
        assert schema == jsonform.schema(kind) and schema["$id"] == f"{jsonform.SCHEMA_URI}{kind}"
        if kind != "common":
            assert schema["properties"]["kind"] == {"const": kind}
            assert schema["properties"]["schema_version"] == {"const": jsonform.KINDS[kind]}
    page = (ROOT / "docs" / "reference" / "json.md").read_text()
    assert all(f"schemas/{k}.schema.json" in page for k in jsonform.KINDS)
