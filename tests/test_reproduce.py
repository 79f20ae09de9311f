"""The reproduce line: run where the files are, it recreates every number of its result, the interval included."""

import csv
import json
import os
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigcore.__main__ import main
from sigcore.report import paper

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_data"


def _table(tmp_path, n: int, seed: int, scores: bool) -> list[str]:
    """Labels of gold, A and B on n items (A right more often), or, with ``scores``, per-item scores of A and B
    (a sentence metric's): a table's file name and the flags that read it."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.8, gold, (gold + 1) % 3)
    b = np.where(rng.random(n) < 0.6, gold, (gold + 2) % 3)
    rows = [["gold", "A", "B"], *zip(gold, a, b)]
    if scores:
        rows = [["A", "B"], *zip(np.round(rng.random(n) * 0.5 + 0.3, 3), np.round(rng.random(n) * 0.5 + 0.2, 3))]
    path = tmp_path / "outputs.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return [path.name, "--a", "A", "--b", "B", "--metric", "mean"] if scores else \
        [path.name, "--gold", "gold", "--a", "A", "--b", "B", "--metric", "accuracy"]


# every test the command line runs, with settings other than the defaults where they change a number
CASES = {
    "bootstrap": (60, ["--test", "bootstrap", "--resamples", "3000", "--seed", "7"]),
    "bootstrap-bca": (60, ["--test", "bootstrap", "--resamples", "2000", "--seed", "5", "--ci-method", "bca"]),
    "permutation": (80, ["--test", "permutation", "--resamples", "3000", "--seed", "11"]),
    "permutation-exact": (12, ["--test", "permutation", "--resamples", "5000", "--seed", "3"]),
    "permutation-exact-no-interval": (12, ["--test", "permutation", "--resamples", "100000", "--seed", "3",
                                           "--ci-method", "none"]),  # b and seed as the signature says them
    "permutation-exact-percentile": (12, ["--test", "permutation", "--resamples", "4000", "--seed", "9",
                                          "--ci-method", "percentile", "--alternative", "greater"]),
    "t": (60, ["--test", "t", "--alternative", "greater", "--alpha", "0.1"]),
    "z": (60, ["--test", "z"]),
    "wilcoxon": (40, ["--test", "wilcoxon"]),
    "wilcoxon-normal": (80, ["--test", "wilcoxon", "--alternative", "greater"]),
    "t-scores": (50, ["--test", "t", "--confidence", "0.9"]),
    "bootstrap-scores": (50, ["--test", "bootstrap", "--resamples", "2500", "--seed", "4"]),
    "sign": (40, ["--test", "sign", "--alternative", "less"]),
    "mcnemar": (60, ["--test", "mcnemar"]),
    "mcnemar-chi-square": (60, ["--test", "mcnemar", "--chi-square"]),
    "sacrebleu": (60, ["--test", "bootstrap", "--compat", "sacrebleu", "--resamples", "1500", "--seed", "2"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_reproduce_line_recreates_every_number(tmp_path, capsys, monkeypatch, case):
    n, flags = CASES[case]
    monkeypatch.chdir(tmp_path)
    given = ["compare", *_table(tmp_path, n, len(case), scores="wilcoxon" in case or "scores" in case), *flags]
    assert main([*given, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(given) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("reproduce: "))
    words = shlex.split(line.removeprefix("reproduce: "))
    assert words[:3] == ["python", "-m", "sigcore"] and os.path.exists(words[4])
    assert main([*words[3:], "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again == first  # every number, the interval, the signature
    if case == "permutation-exact-no-interval":  # its b and seed: the reproduce line spells them out too
        assert first["exact"] and first["ci_resamples"] is None and "|seed:3|" in first["signature"]
    elif case.startswith("permutation-exact"):  # the enumeration's count is not the b its interval was drawn with
        asked = int(flags[flags.index("--resamples") + 1])
        assert first["exact"] and first["n_resamples"] < first["ci_resamples"] == asked
        assert f"resamples:{first['ci_resamples']}" in first["signature"]


# ---------------------------------------------------------------- every kind, through its paper folder's reproduce.sh


def _recreated(tmp_path: Path, monkeypatch, capsys, argv: list[str]) -> dict[str, bytes]:
    """Run ``argv`` with a paper folder, then its reproduce.sh's command as the script runs it (in the folder) into
    a second folder as deep; every file of the first (but the manifest's record of when) is written again, byte
    for byte: the JSON with every number and the signature, the sentence, the table, the script itself."""
    first, again = tmp_path / "one" / "sigcore", tmp_path / "two" / "sigcore"  # the same depth and name
    monkeypatch.setattr(paper, "drawer", lambda *args, **kwargs: lambda what: b"%PDF-1.4 not drawn")  # no kaleido
    assert main([*argv, "--paper", str(first)]) == 0
    commands = [x for x in (first / "reproduce.sh").read_text().splitlines() if x.startswith("python -m sigcore ")]
    assert len(commands) == 1, commands
    words = shlex.split(commands[0])
    monkeypatch.chdir(first)
    assert main([*words[3:], "--paper", str(again)]) == 0
    capsys.readouterr()
    files = {p.name: p.read_bytes() for p in sorted(first.iterdir()) if p.name != "manifest.json"}
    assert any(name.endswith(".json") for name in files) and any(name.endswith("-sentence.tex") for name in files)
    for name, written in files.items():
        assert (again / name).read_bytes() == written, name
    return files


def _json(files: dict[str, bytes]) -> dict:
    return json.loads(next(v for k, v in files.items() if k.endswith(".json")))


def test_a_pair_s_script_recreates_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    saved = _json(_recreated(tmp_path, monkeypatch, capsys, ["compare", *_table(tmp_path, 50, 1, scores=False),
                                                              "--test", "permutation", "--resamples", "700",
                                                              "--seed", "5", "--alpha", "0.1"]))
    assert saved["signature_fields"]["kind"] == "pair" and "resamples:700|seed:5" in saved["signature"]


@pytest.mark.parametrize("kind, test", [("non-inferior", "bootstrap"), ("equivalent", "t")])
def test_a_claim_s_script_recreates_it(tmp_path, monkeypatch, capsys, kind, test):
    monkeypatch.chdir(tmp_path)
    flags = ["--resamples", "800", "--seed", "6"] if test == "bootstrap" else []
    saved = _json(_recreated(tmp_path, monkeypatch, capsys, ["compare", *_table(tmp_path, 60, 2, scores=True),
                                                              "--test", test, f"--{kind}", "0.05", *flags]))
    assert saved["signature"].endswith(f"|claim:{kind}|margin:0.05")


def test_a_family_s_script_recreates_it(tmp_path, monkeypatch, capsys):
    table = pd.read_csv(SAMPLES / "classification.csv").head(120)
    table.to_csv(tmp_path / "systems.csv", index=False)
    monkeypatch.chdir(tmp_path)
    saved = _json(_recreated(tmp_path, monkeypatch, capsys, ["many", "systems.csv", "--gold", "gold", "--id", "id",
                                                              "--baseline", "tree", "--test", "bootstrap",
                                                              "--resamples", "600", "--seed", "8",
                                                              "--correction", "bonferroni"]))
    assert len(saved["families"][0]["comparisons"]) == 3


def test_a_board_s_script_recreates_it(tmp_path, monkeypatch, capsys):
    rng = np.random.default_rng(4)
    rows = [{"model": m, "task": t, "item": f"{t}-{i}", "score": float(rng.random() < 0.5 + 0.1 * k)}
            for k, m in enumerate(["m1", "m2", "m3"]) for t in ("t1", "t2") for i in range(40)]
    pd.DataFrame(rows).to_csv(tmp_path / "board.csv", index=False)
    monkeypatch.chdir(tmp_path)
    files = _recreated(tmp_path, monkeypatch, capsys, ["many", "board.csv", "--baseline", "m1", "--resamples", "500",
                                                       "--seed", "2", "--alpha", "0.1", "--correction", "holm"])
    sentence = next(v for k, v in files.items() if k.endswith("-sentence.tex")).decode().replace(r"\allowbreak{}", "")
    assert "test:bootstrap-stratified|alternative:two-sided|alpha:0.1|resamples:500|seed:2|correction:holm" in sentence


def test_runs_over_seeds_script_recreates_them(tmp_path, monkeypatch, capsys):
    table = pd.read_csv(SAMPLES / "seeds" / "digits_runs.csv").head(150)
    table[["id", "gold"]].to_csv(tmp_path / "gold.csv", index=False)
    for column in table.columns[2:]:
        table[["id", column]].rename(columns={column: "prediction"}).to_csv(tmp_path / f"{column}.csv", index=False)
    monkeypatch.chdir(tmp_path)
    saved = _json(_recreated(tmp_path, monkeypatch, capsys, [
        "seeds", "--gold", "gold.csv", "--a", *[f"mlp_seed{i}.csv" for i in range(3)],
        "--b", *[f"forest_seed{i}.csv" for i in range(2)], "--metric", "accuracy", "--resamples", "400",
        "--seed", "9", "--alternative", "greater"]))
    assert saved["signature_fields"]["runs"] == [3, 2] and saved["signature_fields"]["seed"] == 9


def test_aso_s_script_recreates_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    saved = _json(_recreated(tmp_path, monkeypatch, capsys, [
        "seeds", str(SAMPLES / "seeds" / "digits_seed_scores.csv"), "--resamples", "200", "--seed", "3",
        "--confidence", "0.9"]))
    assert saved["signature_fields"]["kind"] == "aso" and saved["signature"].startswith("test:aso|confidence:")
