"""A board's paper folder (many --paper on models x tasks): its sentence says what the board's table decides, for
every model, over many random boards; the folder's sentence, table and figure compile together with pdflatex at
ACL's column; reproduce.sh, run from the folder, prints the same board again."""

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sigcore import leaderboard
from sigcore.__main__ import main
from sigcore.report import board
from sigcore.report.export import latex_escape

from helpers.boards import RIGHT, table
from helpers.latex import compile_paper

SUITE = Path(__file__).resolve().parents[1] / "sample_data" / "lm_eval_suite"
HOSTILE = "m3_{x} & 50% #1"
SAID = {"better": "significantly better than", "worse": "significantly worse than",
        "neither": "not significantly different from"}


@pytest.mark.parametrize("seed", range(12))
def test_the_sentence_says_what_the_table_decides_for_every_model(seed):
    rng = np.random.default_rng(seed)
    frame = table(seed=seed, runs=1 + seed % 2)
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=300, seed=seed)
    baseline = str(rng.choice(list(RIGHT)))
    alpha, correction = (0.05, 0.1, 0.01)[seed % 3], ("holm", "bonferroni")[seed % 2]
    text = board.sentence(res, baseline, alpha, correction)
    rows = res.table(baseline, alpha, correction).set_index("model")
    best = rows.index[0]
    assert text.startswith(f"Of {len(RIGHT)} models on {len(res.board.tasks)} tasks "
                           f"(acc, the mean of the task scores), {best} scores highest "
                           f"({rows.loc[best, 'score']:.4f}, {1 - alpha:.0%} CI "
                           f"{rows.loc[best, 'ci_low']:.4f} to {rows.loc[best, 'ci_high']:.4f})")
    clauses = re.split(r"; (?:and )?", text.split(").", 1)[1].rsplit(". Paired", 1)[0].strip())
    placed = {}
    for clause in clauses:
        side = next(s for s, words in SAID.items() if f" {words} {baseline}" in clause)
        for model in re.findall(r"(m\d) \(δ = ", clause):
            placed[model] = side
    for model, r in rows.drop(baseline).iterrows():
        expected = "neither" if r.p_corrected > alpha else "better" if r.delta > 0 else "worse"
        assert placed[model] == expected, (model, text)
        delta = f"{r.delta:.4f}".replace("-", "\u2212")
        p = "corrected p < " if r.p_value == 0 else "corrected p = "  # several comparisons: said which
        assert f"{model} (δ = {delta}, uncorrected {1 - alpha:.0%} CI " in text
        assert re.search(re.escape(f"{model} (δ = {delta}") + r"[^)]*" + re.escape(p), text)
    assert len(placed) == len(RIGHT) - 1
    assert text.endswith(f"b = 300, seed {seed}, two-sided, {'Holm' if correction == 'holm' else 'Bonferroni'}'s "
                         f"correction over {len(RIGHT) - 1} comparisons at α = {alpha:g}.")


_CLAUSE = re.compile(r"(?P<model>m\d) \(δ = [^,]+, (?P<uncorrected>uncorrected )?(?P<level>\d+)% CI "
                     r"(?P<low>\S+) to (?P<high>[^,]+), (?P<corrected>corrected )?p [<=] [^)]+\)")


@st.composite
def boards(draw):
    """A small random board: 2 to 5 models (some with a real edge), 1 to 3 tasks, right/wrong or graded scores,
    one or two runs; and the α and correction it is read at."""
    n_models, n_tasks, n_items = draw(st.integers(2, 5)), draw(st.integers(1, 3)), draw(st.integers(8, 40))
    runs, graded, seed = draw(st.integers(1, 2)), draw(st.booleans()), draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    skill = rng.uniform(0.3, 0.8, n_models)
    rows = [(f"m{m}", f"t{t}", str(i), r, "acc",
             float(rng.random() < skill[m]) if not graded else round(float(rng.beta(4 * skill[m], 2)), 2))
            for m in range(n_models) for t in range(n_tasks) for i in range(n_items) for r in range(1, runs + 1)]
    frame = pd.DataFrame(rows, columns=["model", "task", "item", "run", "metric", "score"])
    return (frame, seed, draw(st.sampled_from((0.01, 0.05, 0.1))),
            draw(st.sampled_from(("holm", "bonferroni", "hochberg", "bh", "by"))), draw(st.integers(0, n_models - 1)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_an_interval_beside_a_corrected_p_says_it_is_uncorrected(case):
    """The audit's 53 of 626 boards: "δ = 0.0777, 99% CI 0.0018 to 0.1536, p = 0.02 … not significantly different",
    the interval the uncorrected test's dual and p the corrected one. With several comparisons every interval of δ
    says it is uncorrected and every p that it is corrected; with one, the two agree (the correction leaves p as it
    is), and neither word is said. Never an interval that excludes 0 beside "not significantly different" unsaid."""
    frame, seed, alpha, correction, base = case
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=200, seed=seed % 1000)
    baseline = res.board.models[base]
    several = len(res.board.models) > 2
    for latex in (False, True):
        text = board.sentence(res, baseline, alpha, correction, latex=latex)
        plain = text.replace(r"$\delta$", "δ").replace(r"\%", "%").replace("$-$", "−")
        clauses = re.split(r"; (?:and )?", plain.split(").", 1)[1].rsplit(". Paired", 1)[0].strip())
        shown = 0
        for clause in clauses:
            for found in _CLAUSE.finditer(clause):
                shown += 1
                low, high = (float(found[k].replace("−", "-")) for k in ("low", "high"))
                excludes = low > 0 or high < 0
                assert bool(found["uncorrected"]) == bool(found["corrected"]) == several, clause
                if "not significantly different" in clause and excludes:
                    assert found["uncorrected"], clause
                if not several:  # one comparison: the interval is the test's dual, and agrees with p
                    assert excludes == ("not significantly" not in clause), clause
        assert shown == len(res.board.models) - 1, plain


@pytest.mark.slow  # the folder's PDF figure through kaleido, then pdflatex
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_paper_folder_compiles_and_its_script_prints_the_board_again(tmp_path, capsys, monkeypatch):
    out = tmp_path / "paper"
    assert main(["many", str(SUITE), "--metric", "acc", "exact_match[maj@3]", "--baseline", "alpha",
                 "--resamples", "500", "--paper", str(out)]) == 0
    capsys.readouterr()
    stem = "acc-exact-match-maj-3-board-vs-alpha"
    names = {p.name for p in out.iterdir()}
    assert {f"{stem}-sentence.tex", f"{stem}-table.tex", f"{stem}.json", "sigcore.bib", "reproduce.sh",
            "checklist.md"} <= names
    record = json.loads((out / f"{stem}.json").read_text())
    assert record["settings"]["baseline"] == "alpha" and len(record["models"]) == 4
    body = "\n\n".join((out / p).read_text() for p in (f"{stem}-sentence.tex", f"{stem}-table.tex"))
    if f"{stem}-figure.pdf" in names:  # at ACL's column width, 7.7 cm = 218 pt
        box = re.search(rb"/MediaBox\s*\[\s*0 0 ([0-9.]+) ([0-9.]+)", (out / f"{stem}-figure.pdf").read_bytes())
        assert abs(float(box.group(1)) - 7.7 / 2.54 * 72) < 2
    compile_paper(tmp_path, body)  # with bibtex over its citations: no error, overfull box or undefined citation
    command = (out / "reproduce.sh").read_text().strip().splitlines()[-1]
    assert "--paper" not in command and "../" in command
    monkeypatch.chdir(out)
    assert main(shlex.split(command)[3:]) == 0  # python -m sigcore many ...
    again = capsys.readouterr().out
    for model in record["models"]:  # the same seed, the same board
        assert re.search(rf"^{model['model']} +{model['rank']} +{model['score']:.4f} +\[{model['score_low']:.4f}, ",
                         again, re.M)
    assert main(["many", str(SUITE), "--metric", "acc", "--all-pairs", "--paper", str(tmp_path / "p2")]) == 2
    assert "--paper marks each task's score against a baseline" in capsys.readouterr().err


def test_a_hostile_model_name_is_text_in_the_sentence():
    frame = table(seed=3, runs=1)
    frame["model"] = frame.model.replace({"m3": HOSTILE})
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=200)
    tex = board.sentence(res, "m0", 0.05, "holm", latex=True)
    assert latex_escape(HOSTILE) in tex and HOSTILE not in tex
