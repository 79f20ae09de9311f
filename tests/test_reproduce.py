"""The reproduce line: run where the files are, it recreates every number of its result, the interval included."""

import csv
import json
import os
import shlex

import numpy as np
import pytest

from sigcore.__main__ import main


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
    if case.startswith("permutation-exact"):  # the enumeration's count is not the b its interval was drawn with
        assert first["exact"] and first["n_resamples"] < first["ci_resamples"] == int(flags[flags.index("--resamples") + 1])
        assert f"resamples:{first['ci_resamples']}" in first["signature"]
