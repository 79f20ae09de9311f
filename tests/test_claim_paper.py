"""A non-inferiority or equivalence claim in a paper folder (`compare --non-inferior/--equivalent --paper DIR`, the
Compare page's "Paper folder (.zip)"): the sentence, the table and the JSON say the bound, side, decision and p that
sigcore.claims computed, printed alike, over random cases; the figure counts the claim's tails (bootstrap) or draws
its bound (t-test); the folder compiles with pdflatex and bibtex; its reproduce.sh line reruns to the same JSON."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sigcore import claims
from sigcore.__main__ import main
from sigcore.report import citations, claim_table, claim_text, export, paper
from sigcore.report.figures import claim_figure
from sigcore.signature import margin_text

from helpers.latex import venue_document

ROOT = Path(__file__).resolve().parents[1]
MT = ROOT / "sample_data" / "mt"
PDFLATEX, BIBTEX = "pdflatex", "bibtex"  # on PATH; conftest.py skips a test that starts one where lacking
MINUS_TEX = "\\textminus{}"


def _pair(rng, n, p_a, p_b, k=3):
    gold = rng.integers(0, k, n)
    a = np.where(rng.random(n) < p_a, gold, (gold + 1) % k)
    b = np.where(rng.random(n) < p_b, gold, (gold + 2) % k)
    return gold, a, b


def _number(text: str) -> float:
    return float(text.replace("\\textminus{}", "-").replace("−", "-"))


def _tex_float(text: str) -> float:
    """"0.0134", "5.1 \\times 10^{-13}", "10^{-4}" as a number."""
    m = re.fullmatch(r"(?:([\d.]+) \\times )?10\^\{(-?\d+)\}", text.strip())
    return float(text) if m is None else float(f"{m.group(1) or 1}e{m.group(2)}")


def _random_claim(seed: int):
    """A claim on random data; every third one with its margin a hair from its bound, where rounding the bound to
    the scores' decimals would put it on the wrong side of the printed margin."""
    rng = np.random.default_rng(seed)
    gold, a, b = _pair(rng, int(rng.integers(40, 400)), rng.uniform(0.6, 0.9), rng.uniform(0.6, 0.9))
    test = ("bootstrap", "t")[seed % 2]
    metric = "macro_f1" if test == "bootstrap" and seed % 4 == 0 else "accuracy"
    kind, alpha = claims.KINDS[(seed // 2) % 2], (0.05, 0.1, 0.01)[seed % 3]
    margin = float(rng.uniform(0.005, 0.15))
    c = claims.claim(gold, a, b, kind=kind, margin=margin, metric=metric, test=test, alpha=alpha, n_resamples=500,
                     seed=seed)
    if seed % 3 == 0 and np.isfinite(c.bound_low) and c.bound_low < 0:  # the bound does not depend on Δ
        margin = -c.bound_low + float(rng.choice([-1, 1])) * 10.0 ** -float(rng.integers(6, 9))
        c = claims.claim(gold, a, b, kind=kind, margin=margin, metric=metric, test=test, alpha=alpha,
                         n_resamples=500, seed=seed)
    return c


@pytest.mark.parametrize("seed", range(24))
def test_the_folder_s_sentence_table_and_json_say_the_claim_s_numbers_alike(seed):
    c = _random_claim(seed)
    entry = paper.for_claim(c, a="new_model", b="old & co", command="python -m sigcore compare ...")
    files = {k: v.decode() for k, v in entry.files.items()}
    name = entry.stem
    assert name == f"{c.result.metric.replace('_', '-')}-new-model-vs-old-co-{c.kind}"
    sentence, table = files[f"{name}-sentence.tex"], files[f"{name}-table.tex"]
    saved = json.loads(files[f"{name}.json"])
    # the JSON: the claim as computed, its decision the dual of its bound
    assert (saved["p_value"], saved["bound_low"], saved["shown"], saved["margin"]) == (c.p_value, c.bound_low,
                                                                                      c.shown, c.margin)
    assert saved["bound_high"] == (None if c.kind == "non-inferior" else c.bound_high)
    assert saved["shown"] == (saved["p_value"] <= c.alpha) == (
        c.bound_low > -c.margin and (c.kind == "non-inferior" or c.bound_high < c.margin))
    assert saved["signature"] == c.signature and saved["result"]["delta"] == c.result.delta
    # the sentence and the table: the same printed bound, p, margin and decision
    low, high = claim_text.bound_texts(c)
    margin = margin_text(c.margin)
    rows = re.findall(r"^    (.*) \\\\$", table, flags=re.M)
    assert rows[0].split(" & ")[-1] == "Shown" and len(rows) == 2, table
    m_cell, d_cell, b_cell, p_cell, shown_cell = rows[1].split(" & ")
    assert m_cell == margin and _number(d_cell) == _number(claim_text.delta_text(c))
    assert shown_cell == ("yes" if c.shown else "no") and sentence.split("\n")[2].startswith("Not shown") != c.shown
    tex_low, tex_high = (x.replace("−", MINUS_TEX) for x in (low, high))
    if c.kind == "non-inferior":
        assert f"bound $\\delta \\geq {low.replace('−', '-')}$" in sentence
        assert b_cell == f"$\\geq$ {tex_low}"
        printed = [_number(low)]
    else:
        assert f"interval of $\\delta$ {tex_low} to {tex_high}" in sentence
        assert b_cell == f"{{[}}{tex_low}, {tex_high}{{]}}"
        printed = [_number(low), _number(high)]
    # each printed end is the bound rounded, and on the printed margin's side where the bound is on Δ's
    for shown_end, end, inside in zip(printed, (c.bound_low, c.bound_high), (lambda x, m: x > -m, lambda x, m: x < m)):
        if np.isfinite(end):
            assert abs(shown_end - end) <= 0.5 * 10.0 ** -max(len(str(shown_end).partition(".")[2]), 0) + 1e-12
            assert inside(shown_end, float(margin)) == inside(end, c.margin), (shown_end, end, margin)
    p = c.p_text
    relation, value = p.split(" ")[1:]
    assert p_cell.startswith("$<" if relation == "<" else "$") and _tex_float(p_cell.strip("$<")) == float(value)
    said = re.search(r"\$p (<|=) ([^$]+)\$", sentence)
    assert said.group(1) == relation and _tex_float(said.group(2)) == float(value)
    assert (float(value) <= c.alpha) == c.shown or relation == "<"
    # the references and the checklist
    assert entry.keys == citations.claim_keys(c.test, c.result.metric) and not entry.claims
    assert f"Δ = {margin} must have been fixed before seeing the data" in entry.checklist


def test_the_figure_counts_the_claim_s_tails_and_draws_the_t_test_s_bound():
    rng = np.random.default_rng(5)
    gold, a, b = _pair(rng, 300, 0.8, 0.8)
    for kind in claims.KINDS:
        c = claims.claim(gold, a, b, kind=kind, margin=0.05, n_resamples=1000)
        fig = claim_figure(c, a="new", b="old")
        counted = next((t for t in fig.data if t.name == "counted in p"), None)
        low, high = claims.tails(c.result, kind, 0.05)
        assert (0 if counted is None else int(sum(counted.y))) == int((low | high).sum())
        assert int(sum(sum(t.y) for t in fig.data)) == 1000
        lines = sorted(s.x0 for s in fig.layout.shapes if s.line.dash == "dash")
        expected = [2 * c.result.delta + 0.05] + ([2 * c.result.delta - 0.05] if kind == "equivalent" else [])
        assert lines == pytest.approx(sorted(expected))
        assert any("2·δ(x) + Δ = " in a.text for a in fig.layout.annotations)
        t = claims.claim(gold, a, b, kind=kind, margin=0.05, test="t")
        bar = claim_figure(t, a="new", b="old")
        ends = list(bar.data[0].x)
        assert ends[0] == pytest.approx(t.bound_low)
        assert ends[1] == pytest.approx(t.bound_high) if kind == "equivalent" else ends[1] == bar.layout.xaxis.range[1]
        assert list(bar.data[1].x) == [pytest.approx(t.result.delta)]
        margins = sorted(s.x0 for s in bar.layout.shapes if s.line.dash == "dash")
        assert margins == ([-0.05] if kind == "non-inferior" else [-0.05, 0.05])
    caption = claim_table.figure_caption(t)
    assert "interval (bar)" in caption and ("here it lies inside" in caption) == t.shown


def _table(tmp_path, n=300, seed=3):
    gold, a, b = _pair(np.random.default_rng(seed), n, 0.8, 0.8)
    table = tmp_path / "outputs.csv"
    table.write_text("gold,new,old\n" + "".join(f"{g},{x},{y}\n" for g, x, y in zip(gold, a, b)))
    return table


@pytest.mark.slow  # the folder's figures through kaleido
@pytest.mark.usefixtures("one_browser_for_static_images")
@pytest.mark.parametrize("flags", [["--equivalent", "0.06", "--resamples", "300", "--seed", "4"],
                                   ["--non-inferior", "0.05", "--test", "t", "--alpha", "0.1"]])
def test_the_reproduce_line_reruns_to_the_same_json(tmp_path, capsys, flags):
    folder = tmp_path / "paper" / "sigcore"
    assert main(["compare", str(_table(tmp_path)), *flags, "--paper", str(folder)]) == 0
    signature = capsys.readouterr().out.splitlines()[-1]
    line = (folder / "reproduce.sh").read_text().splitlines()[-1]
    assert line.startswith("python -m sigcore compare ../../outputs.csv") and flags[0] in line
    saved = json.loads(next(p for p in folder.glob("accuracy-*.json")).read_text())
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    command = line.replace("python", sys.executable, 1)
    rerun = subprocess.run(["sh", "-c", command + " --json"], cwd=folder, capture_output=True, text=True, env=env)
    assert rerun.returncode == 0, rerun.stderr
    again = json.loads(rerun.stdout)
    # the folder's keeps the δ(x⁽ⁱ⁾) a figure is drawn from; --json leaves them out
    saved["result"].pop("distribution", None)
    shared = set(again) & set(saved)
    assert {"p_value", "bound_low", "bound_high", "shown", "margin", "signature", "a_name"} <= shared
    assert {k: again[k] for k in shared} == {k: saved[k] for k in shared}
    assert again["signature"] == signature  # what the run printed last, as the script's header promises


@pytest.mark.slow  # the folder's figures through kaleido
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_paper_with_bibtex_writes_the_folder_and_prints_the_claim_s_references(tmp_path, capsys):
    folder = tmp_path / "sigcore"
    assert main(["compare", str(_table(tmp_path)), "--non-inferior", "0.05", "--test", "t", "--paper", str(folder),
                 "--bibtex"]) == 0
    keys = re.findall(r"^@\w+\{([^,]+),", capsys.readouterr().out, flags=re.M)
    assert keys == citations.claim_keys("t", "accuracy") + [citations.TOOL]
    assert set(re.findall(r"@\w+\{([^,]+),", (folder / paper.BIB).read_text())) == set(keys)


@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_a_folder_of_claims_compiles_with_its_figures(tmp_path, capsys):
    """A BLEU non-inferiority claim (bootstrap: the histogram) and an accuracy equivalence claim (t-test: the
    bound against ±Δ) beside a plain comparison, in ACL's two columns: no error, overfull box or undefined
    reference or citation; Schuirmann (1987) in the references."""
    folder = tmp_path / "sigcore"
    files = [str(MT / f) for f in ("newstest2017.ref.de", "uedin-nmt.de", "LIUM-NMT.de")]
    assert main(["compare", *files, "--metric", "bleu", "--non-inferior", "2.5", "--resamples", "300",
                 "--name", "A=uedin_nmt", "--paper", str(folder)]) == 0
    assert main(["compare", *files, "--metric", "bleu", "--resamples", "300", "--paper", str(folder)]) == 0
    assert main(["compare", str(_table(tmp_path)), "--equivalent", "0.1", "--test", "t", "--paper",
                 str(folder)]) == 0
    assert "warning" not in capsys.readouterr().err
    stems = ["bleu-uedin-nmt-vs-lium-nmt-non-inferior", "accuracy-new-vs-old-equivalent"]
    for name in stems:
        assert (folder / f"{name}-figure.pdf").read_bytes().startswith(b"%PDF-")
    inputs = "\n\n".join(f"\\input{{sigcore/{p.stem}}}" for p in sorted(folder.glob("*.tex")))
    refs = " ".join(f"Table~\\ref{{tab:{s}}}, Figure~\\ref{{fig:{s}}}." for s in stems)
    body = f"Results.\n\n{inputs}\n\n{refs}\n\\bibliographystyle{{plainnat}}\n\\bibliography{{sigcore/sigcore}}"
    tex = venue_document("acl", body).replace("\\usepackage{graphicx}",
                                              "\\usepackage{graphicx}\n\\usepackage{booktabs}\n"
                                              "\\usepackage[round]{natbib}\n\\usepackage{url}", 1)
    (tmp_path / "main.tex").write_text(tex, encoding="utf-8")
    for tool in (PDFLATEX, BIBTEX, PDFLATEX, PDFLATEX):
        args = [tool, "main"] if tool == BIBTEX else [tool, "-interaction=nonstopmode", "-halt-on-error", "main.tex"]
        done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (tool, done.stdout[-3000:])
    log = (tmp_path / "main.log").read_text(encoding="latin-1")
    assert "Overfull \\hbox" not in log, re.findall(r"Overfull.*", log)
    assert not re.findall(r"(?:Citation|Reference) `[^']*' on page \d+ undefined", log)
    assert "There were undefined" not in log
    bbl = (tmp_path / "main.bbl").read_text(encoding="latin-1")
    assert "Schuirmann" in bbl and "Berg-Kirkpatrick" in bbl
    assert "uedin\\_nmt is no worse than LIUM-NMT" in (folder / f"{stems[0]}-sentence.tex").read_text()


def test_a_claim_s_figure_that_cannot_be_drawn_is_said():
    from sigcore.errors import SettingsError

    def no_browser(what):
        raise SettingsError("static images need Chrome or Chromium, and none was found")
    gold, a, b = _pair(np.random.default_rng(4), 100, 0.8, 0.8)
    c = claims.claim(gold, a, b, kind="equivalent", margin=0.1, n_resamples=200)
    files = paper.unzipped(paper.zipped(paper.for_claim(c, a="x", b="y", command="", draw=no_browser)))
    assert not any(n.endswith("-figure.pdf") for n in files)
    said = files[paper.MISSING].decode()
    assert said.startswith("no figure for accuracy-x-vs-y-equivalent: static images need Chrome") and \
        "reproduce.sh" in said


@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_compare_page_s_paper_folder_holds_the_claim(deferred):
    """The Compare page with "A no worse than B by Δ" on the MT sample: its "Paper folder (.zip)" is the folder
    `--paper` writes for that claim: the sentence, the table, the JSON, the figure, the claim's reproduce line."""
    from helpers.apps import app, mt_sample, run, select

    at = app()
    select(at, "Claim").set_value("non-inferior").run()
    next(n for n in at.number_input if n.label == "Margin Δ").set_value(2.5).run()
    at = run(at)
    assert not at.exception and not at.error
    button = next(b for b in at.get("download_button") if b.proto.label == "Paper folder (.zip)")
    assert not button.proto.disabled
    data = deferred[button.proto.deferred_file_id]()
    files = paper.unzipped(data)
    gold, a, b = mt_sample()
    signature = next(c.value for c in at.code if "|claim:non-inferior|margin:2.5" in c.value)
    n = int(re.search(r"resamples:(\d+)", signature).group(1))
    expected = claims.claim(gold, a, b, kind="non-inferior", margin=2.5, metric="bleu", tokenize="13a", n_resamples=n)
    name = "bleu-uedin-nmt-vs-lium-nmt-non-inferior"
    assert files[f"{name}-sentence.tex"].decode().splitlines()[2].startswith(
        export.claim_latex(expected, a="uedin-nmt", b="LIUM-NMT"))
    saved = json.loads(files[f"{name}.json"])
    assert (saved["p_value"], saved["bound_low"]) == (expected.p_value, expected.bound_low)
    assert saved["signature"] == signature == expected.signature
    assert files[f"{name}-figure.pdf"].startswith(b"%PDF-") and f"fig:{name}" in files[f"{name}-figure.tex"].decode()
    script = files[paper.REPRODUCE].decode()
    assert "--non-inferior 2.5" in script and "--alternative" not in script
    assert "must have been fixed before seeing the data" in files[paper.CHECKLIST].decode()
