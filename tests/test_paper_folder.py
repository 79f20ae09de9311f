"""A paper folder (`--paper DIR`): one run writes every file a paper needs; the folder's .tex files \\input into each
venue's document and compile with pdflatex and bibtex with no error, overfull box or undefined reference, fonts
embedded and the figures' text at 8-9 pt; later runs merge into its .bib and script; a pair and its family that
decide differently are said to."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sigcore
from sigcore.__main__ import main
from sigcore.report import citations, family, paper
from sigcore.report import seeds as seeds_report
from sigcore.report.venues import VENUES

from helpers.latex import CLASSES, venue_document

ROOT = Path(__file__).resolve().parents[1]
MT, WMT, SEEDS = ROOT / "sample_data" / "mt", ROOT / "sample_data" / "wmt17_en_de", ROOT / "sample_data" / "seeds"
PDFLATEX, BIBTEX, PDFTOTEXT, PDFFONTS = "pdflatex", "bibtex", "pdftotext", "pdffonts"  # conftest.py skips if lacking
NATBIB = {"acm"}  # the classes that load natbib themselves; the others' pages get it where their venue uses it


def _runs(folder: Path, venue: str) -> None:
    """Every kind of output into ``folder``: a pair (histogram), a family against a baseline (forest), ASO, and
    runs over seeds (five per system, written from the sample's runs)."""
    out = str(folder)
    assert main(["compare", str(MT / "newstest2017.ref.de"), str(MT / "uedin-nmt.de"), str(MT / "LIUM-NMT.de"),
                 "--metric", "bleu", "--resamples", "500", "--venue", venue, "--paper", out]) == 0
    systems = [str(WMT / f) for f in ("newstest2017.ref.de.gz", "uedin-nmt.4722.de.gz", "LIUM-NMT.4900.de.gz",
                                      "KIT.4950.de.gz", "online-F.0.de.gz")]
    assert main(["many", *systems, "--baseline", "LIUM-NMT", "--metric", "bleu", "--resamples", "300",
                 "--venue", venue, "--paper", out]) == 0
    assert main(["seeds", str(SEEDS / "digits_seed_scores.csv"), "--resamples", "300", "--paper", out,
                 "--venue", venue, "--name", "mlp=MLP (5 seeds)"]) == 0


@pytest.fixture(scope="module")
def runs_files(tmp_path_factory):
    """The sample's per-seed runs as one file per run, as a user's runs come."""
    import pandas as pd

    folder = tmp_path_factory.mktemp("runs")
    table = pd.read_csv(SEEDS / "digits_runs.csv")
    table[["id", "gold"]].to_csv(folder / "gold.csv", index=False)
    for column in table.columns[2:]:
        table[["id", column]].rename(columns={column: "prediction"}).to_csv(folder / f"{column}.csv", index=False)
    return folder


def _seed_runs(folder: Path, runs: Path, venue: str) -> None:
    a = [str(runs / f"mlp_seed{i}.csv") for i in range(5)]
    b = [str(runs / f"forest_seed{i}.csv") for i in range(5)]
    assert main(["seeds", "--gold", str(runs / "gold.csv"), "--a", *a, "--b", *b, "--metric", "accuracy",
                 "--resamples", "300", "--name", "A=MLP", "--name", "B=forest", "--venue", venue,
                 "--paper", str(folder)]) == 0


def _main_tex(key: str, folder: Path) -> str:
    inputs = "\n\n".join(f"\\input{{sigcore/{p.stem}}}" for p in sorted(folder.glob("*.tex")))
    v = VENUES[key]
    natbib = key in NATBIB or key not in CLASSES
    body = (f"Results.\n\n{inputs}\n\nTable~\\ref{{tab:bleu-vs-lium-nmt}}, Figure~\\ref{{fig:bleu-vs-lium-nmt}}.\n"
            f"\\bibliographystyle{{{'plainnat' if natbib else 'plain'}}}\n\\bibliography{{sigcore/sigcore}}")
    tex = venue_document(key, body)
    packages = "\\usepackage{booktabs}\n" + ("\\usepackage[round]{natbib}\n" if natbib and key not in NATBIB else "")
    tex = tex.replace("\\usepackage{graphicx}", "\\usepackage{graphicx}\n" + packages + "\\usepackage{url}", 1)
    if key == "acm":  # acmart's own fonts (libertine) are in texlive-fonts-extra, 1.4 GB: Latin Modern, scalable too
        tex = tex.replace("\\usepackage{url}", "\\usepackage{url}\n\\usepackage{lmodern}", 1)
    assert v.key == key
    return tex


def _compile(where: Path) -> str:
    for tool in (PDFLATEX, BIBTEX, PDFLATEX, PDFLATEX):
        args = [tool, "main"] if tool == BIBTEX else [tool, "-interaction=nonstopmode", "-halt-on-error", "main.tex"]
        done = subprocess.run(args, cwd=where, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (tool, done.stdout[-3000:])
    return (where / "main.log").read_text(encoding="latin-1")


def _word_heights(pdf: Path, words: set[str]) -> list[float]:
    out = subprocess.run([PDFTOTEXT, "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [float(y1) - float(y0) for y0, y1, w in
            re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', out) if w in words]


@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
@pytest.mark.parametrize("key", sorted(VENUES))
def test_a_paper_folder_compiles_in_each_venue_s_document(tmp_path, runs_files, key):
    folder = tmp_path / "sigcore"
    _runs(folder, key)
    _seed_runs(folder, runs_files, key)
    (tmp_path / "main.tex").write_text(_main_tex(key, folder), encoding="utf-8")
    log = _compile(tmp_path)
    assert "Overfull \\hbox" not in log, re.findall(r"Overfull.*", log)
    undefined = re.findall(r"(?:Citation|Reference) `[^']*' on page \d+ undefined", log)  # not a font's shape
    assert not undefined and "There were undefined" not in log, undefined
    assert "Repeated entry" not in (tmp_path / "main.blg").read_text(encoding="latin-1")
    bbl = (tmp_path / "main.bbl").read_text(encoding="latin-1")
    assert "sigcore" in bbl and "Berg-Kirkpatrick" in bbl and "Holm" in bbl and "Dror" in bbl
    fonts = subprocess.run([PDFFONTS, str(tmp_path / "main.pdf")], capture_output=True, text=True, check=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows), fonts  # the "emb" column
    # the figures' words at their placed size: as tall as in the figure's own PDF (not scaled), and 8-9 pt
    names = {"uedin-nmt", "KIT", "online-F", "samples"}  # horizontal words (the y axis's title is turned)
    placed = _word_heights(tmp_path / "main.pdf", names)
    alone = _word_heights(folder / "bleu-vs-lium-nmt-figure.pdf", names) + _word_heights(
        folder / "bleu-uedin-nmt-vs-lium-nmt-figure.pdf", names)
    assert alone and set(round(h, 2) for h in alone) <= set(round(h, 2) for h in placed), (alone, placed)
    ratio = 0.98  # a word's box in Liberation Serif, the figures' Times, is 0.98 of its size (ascent + descent)
    assert all(7.8 <= h / ratio <= 9.2 for h in alone), alone


@pytest.mark.slow  # the folders' figures through kaleido
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_two_runs_merge_into_one_bib_and_one_script(tmp_path, capsys):
    folder = tmp_path / "sigcore"
    for b in ("500", "600"):  # the same comparison twice: its line is replaced, not repeated
        assert main(["compare", str(MT / "newstest2017.ref.de"), str(MT / "uedin-nmt.de"), str(MT / "LIUM-NMT.de"),
                     "--metric", "chrf", "--test", "bootstrap", "--resamples", b, "--paper", str(folder)]) == 0
    (folder / "sigcore.bib").write_text((folder / "sigcore.bib").read_text() + "\n@misc{mine, title={Kept}}\n")
    assert main(["seeds", str(SEEDS / "digits_seed_scores.csv"), "--resamples", "200", "--paper", str(folder)]) == 0
    bib = (folder / "sigcore.bib").read_text()
    keys = re.findall(r"@\w+\{([^,]+),", bib)
    assert len(keys) == len(set(keys)) and {"mine", "sigcore", "popovic-2015-chrf", "dror-etal-2019-deep"} <= set(keys)
    script = (folder / "reproduce.sh").read_text()
    assert script.count("sigcore compare") == 1 and "--resamples 600" in script and script.count("sigcore seeds") == 1
    checklist = (folder / "checklist.md").read_text()
    assert checklist.count("## chrf-uedin-nmt-vs-lium-nmt") == 1 and "**C3**" in checklist and "**C4**" in checklist
    assert "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no" in checklist  # sacreBLEU's own chrF signature
    assert "warning" not in capsys.readouterr().err
    (tmp_path / "t.aux").write_text("\\citation{*}\n\\bibstyle{plain}\n\\bibdata{sigcore/sigcore}\n")
    done = subprocess.run([BIBTEX, "t"], cwd=tmp_path, capture_output=True, text=True)  # the merged file is one .bib
    assert done.returncode == 0 and "Repeated" not in done.stdout, done.stdout


@pytest.mark.slow  # the folder's figure through kaleido; reruns reproduce.sh in a process of its own
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_reproduce_script_recreates_the_signature(tmp_path, capsys):
    folder = tmp_path / "sigcore"
    assert main(["compare", str(MT / "newstest2017.ref.de"), str(MT / "uedin-nmt.de"), str(MT / "LIUM-NMT.de"),
                 "--metric", "bleu", "--resamples", "300", "--seed", "4", "--paper", str(folder)]) == 0
    signature = capsys.readouterr().out.splitlines()[-1]
    line = (folder / "reproduce.sh").read_text().splitlines()[-1]
    assert line.startswith("python -m sigcore compare ../")
    done = subprocess.run(["sh", "-c", line.replace("python", sys.executable, 1)], cwd=folder,
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == signature


def test_bibtex_alone_names_the_test_without_running_it(monkeypatch, capsys):
    files = [str(MT / "newstest2017.ref.de"), str(MT / "uedin-nmt.de"), str(MT / "LIUM-NMT.de")]
    res = sigcore.compare(*(open(f, encoding="utf-8").read().splitlines() for f in files), metric="bleu",
                          n_resamples=200)
    from sigcore.cli import compare as command

    monkeypatch.setattr(command, "compare", lambda *a, **k: pytest.fail("--bibtex ran the test"))
    assert main(["compare", *files, "--metric", "bleu", "--bibtex"]) == 0
    assert capsys.readouterr().out == citations.bibtex(citations.keys_of(res))


def _family(rng, k=6, n=150):
    gold = rng.integers(0, 2, n)
    systems = {f"s{i}": np.where(rng.random(n) < rng.uniform(0.55, 0.85), gold, 1 - gold) for i in range(k)}
    return gold, systems


@pytest.mark.parametrize("seed", range(12))
def test_a_pair_and_its_family_are_warned_of_exactly_when_they_disagree(tmp_path, seed):
    rng = np.random.default_rng(seed)
    gold, systems = _family(rng)
    many = sigcore.compare_many(gold, systems, baseline="s0", n_resamples=300, test="bootstrap")
    a = min((s for s in systems if s != "s0"), key=lambda s: many.adjusted[(s, "s0")])  # the closest call
    res = sigcore.compare(gold, systems[a], systems["s0"], test="bootstrap", n_resamples=300,
                          alternative=str(rng.choice(["greater", "two-sided"])))
    pair = paper.for_result(res, a=a, b="s0", command="x")
    group = paper.for_family([many], command="y")
    assert paper.write(tmp_path, group).warnings == []
    warnings = paper.write(tmp_path, pair).warnings
    alone = res.side if res.significant else 0
    in_family = many.results[(a, "s0")].side if many.significant(a, "s0") else 0
    assert bool(warnings) == (alone != in_family), (warnings, alone, in_family)
    assert ("Where two results disagree" in (tmp_path / "checklist.md").read_text()) == (alone != in_family)


def test_the_family_table_shows_delta_and_its_interval_beside_each_mark():
    rng = np.random.default_rng(3)
    gold, systems = _family(rng, k=5, n=300)
    many = sigcore.compare_many(gold, systems, baseline="s2", n_resamples=400, test="bootstrap")
    table = family.latex([many], columns=["p", "delta", "score", "ci"], label="tab:x")
    rows = [line.strip().rstrip("\\").strip().split(" & ") for line in table.splitlines() if line.startswith("    s")]
    assert [r[0] for r in rows] == ["s2", *sorted((s for s in systems if s != "s2"), key=lambda s: -many.scores[s])]
    assert "System & Acc. & $\\delta$ & 95\\% CI & $p$ (Holm)" in table and "\\label{tab:x}" in table
    for name, score, delta, ci, p in rows[1:]:
        res = many.results[(name, "s2")]
        mark = "" if not many.significant(name, "s2") else "$^\\dagger$" if res.side > 0 else "$^\\ddagger$"
        assert score.endswith(mark or "\\phantom{$^\\ddagger$}")
        shown = float(delta.replace("\\textminus{}", "-"))
        assert abs(shown - res.delta) < 0.001 and (shown > 0) == (res.delta > 0)
        low, high = (float(x.replace("\\textminus{}", "-")) for x in ci.strip("[]").split(", "))
        assert abs(low - res.ci_low) < 0.001 and abs(high - res.ci_high) < 0.001
        assert (low > 0 or high < 0) == (res.p_value <= 0.05)  # the pair's own interval agrees with its own p
        assert p.strip("$<") == many.p_texts(name, "s2")[1].lstrip("< ")


def test_all_pairs_refuse_delta_columns_before_running(capsys):
    files = [str(MT / "newstest2017.ref.de"), str(MT / "uedin-nmt.de"), str(MT / "LIUM-NMT.de")]
    assert main(["many", *files, "--all-pairs", "--latex", "--columns", "delta", "--resamples", "100000000"]) == 2
    assert "no single reference" in capsys.readouterr().err


def test_seeds_latex_names_the_systems_and_says_the_runs(runs_files, capsys):
    a = [str(runs_files / f"mlp_seed{i}.csv") for i in range(5)]
    b = [str(runs_files / f"forest_seed{i}.csv") for i in range(3)]
    assert main(["seeds", "--gold", str(runs_files / "gold.csv"), "--a", *a, "--b", *b, "--metric", "accuracy",
                 "--resamples", "300", "--name", "A=Ours_1", "--latex"]) == 0
    out = capsys.readouterr().out
    assert "Ours\\_1" in out and "forest" in out and "mean over 5 runs of Ours\\_1 and 3 of forest" in out
    assert "Ours\\_1 & 5 &" in out and "forest & 3 &" in out and "Items + runs" in out
    assert "\\citep{berg-kirkpatrick-etal-2012-empirical" in out and "δ" not in out and "α" not in out
    scores = {"mlp": [0.97, 0.96, 0.98], "sgd": [0.90, 0.91, 0.93]}
    table = sigcore.statistics.multi_aso(scores, n_bootstrap=200, seed=0)
    text = seeds_report.aso_sentence(table, scores)
    assert "3 runs per system" in text
    assert "mlp stochastically dominant over sgd (ε_min = 0.000, violation ratio" in text
    latex = seeds_report.aso_sentence(table, scores, latex=True) + seeds_report.aso_latex(table, scores)
    assert "ε" not in latex and "τ" not in latex and "$\\varepsilon_{\\min}$" in latex and "\\textbf{0.000}" in latex


def test_the_paper_zip_holds_the_folder():
    import io
    import zipfile

    rng = np.random.default_rng(0)
    gold, systems = _family(rng, k=2)
    res = sigcore.compare(gold, systems["s0"], systems["s1"], n_resamples=200, test="bootstrap")
    entry = paper.for_result(res, a="s0", b="s1", command="python -m sigcore compare ...")
    data = paper.zipped(entry)
    assert data == paper.zipped(entry)  # the same bytes each time
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert {"sigcore/sigcore.bib", "sigcore/reproduce.sh", "sigcore/checklist.md",
            "sigcore/accuracy-s0-vs-s1-sentence.tex", "sigcore/accuracy-s0-vs-s1-table.tex"} <= set(names)
    saved = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("sigcore/accuracy-s0-vs-s1.json"))
    assert saved["p_value"] == res.p_value and saved["a_name"] == "s0"


@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_app_s_paper_folder_holds_the_figure_drawn_in_memory():
    """The Compare page's "Paper folder (.zip)": the histogram at ACL's column in the zip, with its .tex."""
    import io
    import zipfile

    from ui import paper_folder

    rng = np.random.default_rng(1)
    gold, systems = _family(rng, k=2)
    res = sigcore.compare(gold, systems["s0"], systems["s1"], n_resamples=200, test="bootstrap")
    data = paper_folder._zipped(
        lambda draw, venue: paper.for_result(res, a="s0", b="s1", command="", venue=venue, draw=draw), "s0", "s1")
    z = zipfile.ZipFile(io.BytesIO(data))
    assert z.read("sigcore/accuracy-s0-vs-s1-figure.pdf").startswith(b"%PDF-")
    assert "\\label{fig:accuracy-s0-vs-s1}" in z.read("sigcore/accuracy-s0-vs-s1-figure.tex").decode()


def test_the_tex_files_find_their_folder_by_its_name(tmp_path, monkeypatch):
    """Run from the project's root into paper/sigcore: the paper's main file, in paper/, reaches it as sigcore/."""
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(2)
    gold, systems = _family(rng, k=2)
    for name, values in (("gold.txt", gold), ("a.txt", systems["s0"]), ("b.txt", systems["s1"])):
        (tmp_path / name).write_text("\n".join(map(str, values)) + "\n")
    assert main(["compare", "gold.txt", "a.txt", "b.txt", "--test", "mcnemar", "--paper", "paper/sigcore"]) == 0
    sentence = next((tmp_path / "paper" / "sigcore").glob("*-sentence.tex")).read_text()
    assert sentence.startswith("\\providecommand{\\sigcoredir}{sigcore/}")


def _page_width(pdf: bytes) -> float:
    return float(re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)", pdf).group(1))


@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_app_s_zip_takes_the_venue_and_merges_into_the_earlier_one():
    """The app's zip at the Venue box's column; given the zip downloaded before, the new one holds both results
    with one .bib (each key once), one script and one checklist, as `--paper` merges a folder."""
    import io
    import zipfile

    from ui import paper_folder

    rng = np.random.default_rng(2)
    gold, systems = _family(rng, k=3)
    res = sigcore.compare(gold, systems["s0"], systems["s1"], n_resamples=200, test="bootstrap")
    pair = paper_folder._zipped(lambda draw, venue: paper.for_result(res, a="s0", b="s1", command="compare",
                                                                     venue=venue, draw=draw), "s0", "s1", "icml")
    first = paper.unzipped(pair)
    assert _page_width(first["accuracy-s0-vs-s1-figure.pdf"]) == pytest.approx(234, abs=1)  # ICML: 3.25 in
    many = sigcore.compare_many(gold, systems, baseline="s1", n_resamples=200, test="bootstrap")
    both = paper.unzipped(paper_folder._zipped(lambda draw, venue: paper.for_family(
        [many], command="many", venue=venue, draw=draw), "A", "B", "icml", first))
    assert set(first) < set(both) and "accuracy-vs-s1-figure.pdf" in both
    assert all(both[n] == first[n] for n in first if n not in (paper.BIB, paper.REPRODUCE, paper.CHECKLIST,
                                                                   paper.MANIFEST))
    bib = both[paper.BIB].decode()
    keys = re.findall(r"@\w+\{([^,]+),", bib)
    assert len(keys) == len(set(keys)) and set(re.findall(r"@\w+\{([^,]+),", first[paper.BIB].decode())) <= set(keys)
    assert "Holm" in bib
    script = both[paper.REPRODUCE].decode()
    assert "# accuracy-s0-vs-s1\ncompare\n" in script and "# accuracy-vs-s1\nmany\n" in script
    assert set(json.loads(both[paper.MANIFEST])["stems"]) == {"accuracy-s0-vs-s1", "accuracy-vs-s1"}
    assert zipfile.ZipFile(io.BytesIO(pair)).getinfo("sigcore/reproduce.sh").external_attr >> 16 == 0o755


def test_a_figure_that_cannot_be_drawn_is_said_in_the_zip():
    from sigcore.errors import SettingsError

    def no_browser(what):
        raise SettingsError("static images need Chrome or Chromium, and none was found", hint="Install chromium.")
    rng = np.random.default_rng(3)
    gold, systems = _family(rng, k=2)
    res = sigcore.compare(gold, systems["s0"], systems["s1"], n_resamples=100, test="bootstrap")
    files = paper.unzipped(paper.zipped(paper.for_result(res, a="s0", b="s1", command="", draw=no_browser)))
    assert "accuracy-s0-vs-s1-figure.pdf" not in files and "accuracy-s0-vs-s1-figure.tex" not in files
    said = files[paper.MISSING].decode()
    assert said.startswith("no figure for accuracy-s0-vs-s1: static images need Chrome or Chromium")
    assert ("sigcore figure accuracy-s0-vs-s1.json --kind histogram --venue VENUE "
            "--out accuracy-s0-vs-s1-figure.pdf") in said


def _zip(members: dict[str, bytes]) -> bytes:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in members.items():  # a fixed time: the bytes are the test's id, the same in every worker
            z.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), content, zipfile.ZIP_DEFLATED)
    return out.getvalue()


@pytest.mark.parametrize("data, said", [
    (b"PK\x03\x04 not really", "earlier.zip: not a zip file"),
    (_zip({"paper/sigcore.bib": b""}),
     "earlier.zip: not a paper folder: its files must all be in one folder, sigcore/"),
    (_zip({"sigcore/figures/a.pdf": b""}), "not a paper folder"),
    (_zip({"sigcore/../../etc/passwd": b""}), "not a paper folder"),
    (_zip({"sigcore/big.pdf": bytes(2**20 + 1)}), "earlier.zip: unpacks to more than 1 MB"),
    (_zip({"sigcore/sigcore.bib": b"\xff\xfe@misc"}), "earlier.zip, sigcore/sigcore.bib: is not UTF-8 text (byte 1)"),
], ids=["not-a-zip", "another-folder", "nested", "outside", "too-large", "not-utf8"])
def test_an_earlier_zip_that_is_not_a_paper_folder_is_refused_with_what_is_wrong(monkeypatch, data, said):
    from sigcore.errors import InputError

    monkeypatch.setattr(paper, "ZIP_LIMIT", 2**20)
    rng = np.random.default_rng(4)
    gold, systems = _family(rng, k=2)
    entry = paper.for_result(sigcore.compare(gold, systems["s0"], systems["s1"], test="t"), a="s0", b="s1", command="")
    with pytest.raises(InputError) as info:
        paper.zipped(entry, paper.unzipped(data, "earlier.zip"), name="earlier.zip")
    assert said in str(info.value) and "Give the .zip" in str(info.value)


@pytest.mark.slow  # pdflatex
@pytest.mark.parametrize("key", ["acl", "neurips"])
def test_seeds_and_aso_tables_with_long_names_fit_the_page(tmp_path, key):
    """Six systems with long names: the ASO matrix heads its columns by number, and a table that still does not fit
    a column spans both (table*); compiled, no box is overfull."""
    rng = np.random.default_rng(5)
    names = [f"distilled-student-{i}-lr{i}e-4-dropout" for i in range(6)]
    scores = {n: list(rng.normal(0.8 + 0.01 * i, 0.01, 5)) for i, n in enumerate(names)}
    table = sigcore.statistics.multi_aso(scores, n_bootstrap=100, seed=0)
    aso = seeds_report.aso_latex(table, scores, venue=key)
    assert "& (1) & (2) &" in aso and "(6) distilled-student-5" in aso and "columns numbered as the rows" in aso
    assert ("\\begin{table*}" in aso) == (key == "acl")  # NeurIPS's one column is its text width
    gold = rng.integers(0, 2, 120)
    runs = [[np.where(rng.random(120) < p, gold, 1 - gold) for _ in range(3)] for p in (0.8, 0.75)]
    res = sigcore.compare_seeds(gold, runs[0], runs[1], n_resamples=200)
    short = seeds_report.table_latex(res, a="MLP", b="forest", venue=key)
    long = seeds_report.table_latex(res, a=names[0] + "-with-warmup", b=names[1] + "-with-warmup", venue=key)
    assert "\\begin{table}" in short and ("\\begin{table*}" in long) == (key == "acl")
    few = {f"sys{i}": v for i, v in enumerate(list(scores.values())[:3])}
    assert "& (1) &" not in seeds_report.aso_latex(sigcore.statistics.multi_aso(few, n_bootstrap=100, seed=0), few,
                                                 venue=key)
    (tmp_path / "main.tex").write_text(venue_document(key, "Results.\n\n" + aso + "\n" + short + "\n" + long).replace(
        "\\usepackage{graphicx}", "\\usepackage{graphicx}\n\\usepackage{booktabs}\n\\usepackage[round]{natbib}", 1),
        encoding="utf-8")
    done = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "main.tex"], cwd=tmp_path,
                          capture_output=True, text=True, errors="replace", timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
    log = (tmp_path / "main.log").read_text(encoding="latin-1")
    assert "Overfull \\hbox" not in log, re.findall(r"Overfull.*", log)


def test_a_pair_said_to_be_one_of_a_family_is_told_which_claim_leads(tmp_path, capsys):
    """compare --family FAMILY.json: the same decision says the family's corrected p leads; a different one (a
    one-sided pair against a two-sided corrected family) is warned of; a pair the family lacks is an error."""
    rng = np.random.default_rng(7)
    gold, systems = _family(rng, k=5, n=300)
    table = tmp_path / "outputs.csv"
    table.write_text("gold," + ",".join(systems) + "\n" + "".join(
        f"{g}," + ",".join(str(systems[s][i]) for s in systems) + "\n" for i, g in enumerate(gold)))
    saved = tmp_path / "family.json"
    assert main(["many", str(table), "--baseline", "s0", "--test", "bootstrap", "--resamples", "400",
                 "--save", str(saved)]) == 0
    many = sigcore.Many.from_dict(json.loads(saved.read_text())["families"][0])
    capsys.readouterr()
    seen = set()
    for s in [s for s in systems if s != "s0"]:
        for side in ("two-sided", "greater", "less"):
            assert main(["compare", str(table), "--a", s, "--b", "s0", "--test", "bootstrap", "--resamples", "400",
                         "--alternative", side, "--family", str(saved)]) == 0
            out, err = capsys.readouterr()
            res = sigcore.compare(gold, systems[s], systems["s0"], test="bootstrap", n_resamples=400,
                                  alternative=side)
            same = (res.side if res.significant else 0) == (many.results[(s, "s0")].side
                                                             if many.significant(s, "s0") else 0)
            seen.add(same)
            assert ("family: " + str(saved) + " decides it the same" in out) == same
            assert (f"warning: this comparison and {saved} decide {s} against s0" in err) == (not same)
    assert seen == {True, False}  # both cases met
    assert main(["compare", str(table), "--a", "s1", "--b", "s2", "--family", str(saved)]) == 2
    err = capsys.readouterr().err
    assert f"{saved} holds no comparison of s1 and s2 on accuracy over 300 items" in err and "It holds:" in err
    (tmp_path / "bad.json").write_text('{"a": 1}')
    assert main(["compare", str(table), "--a", "s1", "--b", "s0", "--family", str(tmp_path / "bad.json")]) == 2
    assert 'bad.json: has no "kind": it is not a result saved by sigcore' in capsys.readouterr().err
