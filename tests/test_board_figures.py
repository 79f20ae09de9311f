"""A board of models on many tasks drawn for a paper: `sigcore many LOGS --save BOARD.json`, then `sigcore figure
BOARD.json --kind ranks|cd|nemenyi`. The saved board reads back as the run computed it; each figure is its venue's
width; its caption names the tie groups or bars the figure draws (read off the PDF's words, or the figure's marks),
and the figure's ranks are an independent ranking's of the saved resamples (scipy); the LaTeX it prints compiles at
ACL's column with no overfull box; every misuse is refused in one line."""

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sigcore import leaderboard
from sigcore.__main__ import main
from sigcore.leaderboard import Leaderboard
from sigcore.logs import tidy
from sigcore.report import board as words
from sigcore.report import board_figures, records
from sigcore.report.style import PX_PER_IN, SLIDE, paper

from helpers.boards import table
from helpers.figures import pdf_words, texts_inside_and_apart

SUITE = Path(__file__).resolve().parents[1] / "sample_data" / "lm_eval_suite"
MODELS = ["alpha", "beta", "gamma", "delta"]
HOSTILE = "m3_{x} & 50% #1"
PDFLATEX = "pdflatex"  # on PATH; conftest.py skips a test that starts it where lacking


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("board") / "board.json"
    assert main(["many", str(SUITE), "--metric", "acc", "exact_match[maj@3]", "--resamples", "1000",
                 "--save", str(path)]) == 0
    return path


def _printed(capsys) -> dict[str, str]:
    out = capsys.readouterr().out
    return {"caption": re.search(r"^caption: (.*)$", out, re.M).group(1),
            "latex": re.search(r"^LaTeX caption: (.*)$", out, re.M).group(1),
            "figure": out[out.index("\\providecommand"):], "out": out}


def test_the_saved_board_reads_back_as_the_run_computed_it(saved):
    board = leaderboard.from_table(tidy.from_logs([SUITE]), metric=["acc", "exact_match[maj@3]"])
    run = leaderboard.bootstrap(board, n_resamples=1000, seed=0)
    data = json.loads(saved.read_text())
    back = Leaderboard.from_dict(data["board"])
    assert (data["kind"], data["settings"]["alpha"], data["settings"]["correction"]) == ("board", 0.05, "holm")
    assert np.array_equal(back.resampled, run.resampled) and np.array_equal(back.task_scores, run.task_scores)
    assert back.table("alpha").equals(run.table("alpha")) and back.cliques() == run.cliques()
    assert back.board.groups == run.board.groups and back.board.items == run.board.items
    assert back.friedman().p_value == run.friedman().p_value
    with pytest.raises(Exception, match="needs the per-item scores, which a saved board leaves out"):
        back.variance("beta", "alpha")


def _independent_ranks(res: Leaderboard, level: float) -> dict[str, tuple[int, int]]:
    """Each model's ranks on the middle ``level`` of the resamples, by scipy (ties in the order of the models)."""
    ranks = np.apply_along_axis(lambda row: stats.rankdata(-row, method="ordinal"), 1, res.resampled)
    low, high = np.quantile(ranks, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return {m: (int(np.floor(lo)), int(np.ceil(hi))) for m, lo, hi in zip(res.board.models, low, high)}


def _caption_lists(text: str, after: str) -> list[list[str]]:
    """The runs of names a caption lists after ``after``: "gamma and beta; delta and alpha" -> two lists."""
    tail = text.split(after, 1)[1].rsplit(".", 1)[0]
    tail = tail.split(". ", 1)[0]
    return [re.split(r", and |, | and ", part.strip()) for part in tail.split("; ")]


@pytest.mark.slow  # a PDF through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
@pytest.mark.parametrize("kind", ["ranks", "cd", "nemenyi"])
def test_each_kind_is_the_venue_s_width_and_its_caption_names_what_it_draws(saved, kind, tmp_path, capsys):
    res = Leaderboard.from_dict(json.loads(saved.read_text())["board"])
    pdf = tmp_path / f"{kind}.pdf"
    assert main(["figure", str(saved), "--kind", kind, "--out", str(pdf)]) == 0
    printed = _printed(capsys)
    assert f"({kind}, paper: one column of ACL, 7.7 cm)" in printed["out"]
    assert printed["caption"] == words.figure_caption(res, kind, 0.05, "holm")
    assert printed["latex"] == words.figure_caption(res, kind, 0.05, "holm", latex=True)
    page_width, _, found = pdf_words(pdf)
    assert 0 <= 7.7 / 2.54 * 72 - page_width < 2.1  # Chromium rounds the page down to whole points
    drawn = [w for *_, w in found]
    assert all(m in drawn for m in MODELS), drawn  # every model named on the page
    svg = tmp_path / f"{kind}.svg"
    assert main(["figure", str(saved), "--kind", kind, "--venue", "icml", "--width", "full", "--out", str(svg)]) == 0
    assert "\\begin{figure*}" in capsys.readouterr().out  # across ICML's two columns
    width = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg.read_text()).group(1))
    assert width == pytest.approx(6.75 * PX_PER_IN, abs=0.6)
    fig = board_figures.styled(res, kind, 0.05, "holm", paper("acl"))
    if kind == "ranks":  # each row's name and its "group g" on the page, as the caption groups them
        groups = {}
        for left, top, _, bottom, text in sorted(found, key=lambda w: w[1]):
            if text in MODELS:  # the words right of it on its line: "group", then its number
                beside = [t for x, t0, _, b0, t in sorted(found) if x > left and abs((t0 + b0) - (top + bottom)) < 4]
                assert beside[0] == "group"
                groups.setdefault(int(beside[1]), []).append(text)
        listed = printed["caption"].split("below (", 1)[1].split("): ", 1)[1].rstrip(".")
        assert [re.split(r", and |, | and ", g.split(", ", 1)[1]) for g in listed.split("; ")] == \
            [groups[g] for g in sorted(groups)]
        assert groups == {1: ["gamma", "beta"], 2: ["delta", "alpha"]}  # the suite was made to part them so
        bars = {}  # each model's rank (the dot) and the ranks on its bar, from the figure drawn
        for t in fig.data:
            for (name, *_), x, plus, minus in zip(t.customdata, t.x, t.error_x.array, t.error_x.arrayminus):
                bars[name] = (int(x - minus), int(x + plus))
        assert bars == _independent_ranks(res, 0.95)
    else:
        thick = sorted((s for s in fig.layout.shapes if s.line.color == "black" and s.y0 == s.y1 and s.line.width > 2),
                       key=lambda s: -s.y0)
        positions = dict(zip([c[0] for c in fig.data[0].customdata], fig.data[0].x))
        listed = _caption_lists(printed["caption"], "): " if kind == "cd" else "drawn below (Demšar 2006): ")
        assert len(thick) == len(listed) > 0
        for shape, names in zip(thick, listed):  # a bar spans just the models the caption joins
            xs = [positions[m] for m in names]
            assert (shape.x0 + 0.03, shape.x1 - 0.03) == pytest.approx((min(xs), max(xs)))
        if kind == "cd":  # where each model stands: its rank averaged over the resamples, by scipy
            ranks = np.apply_along_axis(lambda row: stats.rankdata(-row, method="ordinal"), 1, res.resampled)
            assert positions == pytest.approx(dict(zip(res.board.models, ranks.mean(axis=0))))
        else:  # over the tasks (the quiz group as one), and the critical difference drawn as the caption says
            _, scores = res.unit_scores()
            assert positions == pytest.approx(dict(zip(res.board.models, stats.rankdata(-scores, axis=1).mean(0))))
            cd = float(re.search(r"CD = ([\d.]+)", printed["caption"]).group(1))
            assert any(f"CD = {cd:.2f}" == a.text for a in fig.layout.annotations)
            line = next(s for s in fig.layout.shapes if s.y0 == s.y1 and s.line.color == "black" and s.line.width < 2.5)
            assert line.x1 - line.x0 == pytest.approx(cd, abs=0.005)


def _hostile_board(tmp_path: Path) -> Path:
    frame = table(seed=3, runs=1)
    frame["model"] = frame.model.replace({"m3": HOSTILE})
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=400, seed=1)
    path = tmp_path / "hostile.json"
    path.write_text(records.dumps(records.board(res, baseline=None, alpha=0.1, correction="bonferroni", saved=True)))
    return path


@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_latex_figures_it_prints_compile_at_acl_s_column_with_no_overfull_box(saved, tmp_path, capsys):
    figs = tmp_path / "figs"
    figs.mkdir()
    snippets = []
    for source in (saved, _hostile_board(tmp_path)):
        for kind in ("ranks", "cd", "nemenyi"):
            assert main(["figure", str(source), "--kind", kind, "--out", str(figs / f"{source.stem}-{kind}.pdf")]) == 0
            printed = _printed(capsys)
            assert "\\providecommand{\\sigcoredir}{figs/}" in printed["figure"]
            snippets.append(printed["figure"])
    assert main(["figure", str(saved), "--kind", "nemenyi", "--width", "full", "--out", str(figs / "wide.pdf")]) == 0
    wide = _printed(capsys)["figure"]
    assert "\\begin{figure*}" in wide and wide.rstrip().endswith("\\end{figure*}")  # across ACL's two columns
    snippets.append(wide)
    assert "m3\\_\\{x\\} \\& 50\\% \\#1" in "".join(snippets)  # the hostile name is text
    document = (r"\documentclass[11pt,twocolumn]{article}\usepackage[T1]{fontenc}\usepackage{times}"
                r"\usepackage{graphicx}\usepackage[a4paper,textwidth=16cm,columnsep=0.6cm,textheight=24.7cm]{geometry}"
                "\n\\begin{document}\nText.\n" + "\n".join(snippets)
                + "\n\\sbox0{\\includegraphics{figs/board-cd.pdf}}"
                + "\\typeout{FIGURE=\\the\\wd0;COLUMN=\\the\\columnwidth}"
                + "\n\\end{document}\n")
    (tmp_path / "paper.tex").write_text(document, encoding="utf-8")
    done = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
    log = (tmp_path / "paper.log").read_text(encoding="latin-1")
    assert "Overfull" not in log, re.findall(r"Overfull.*", log)
    figure, column = (float(x) for x in re.search(r"FIGURE=([\d.]+)pt;COLUMN=([\d.]+)pt", log).groups())
    assert 0 <= column - figure < 2.5  # at its natural size: its 9 pt text prints at 9 pt


@pytest.mark.slow  # ends with two PDFs through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_every_misuse_is_refused_in_one_line(saved, tmp_path, capsys):
    result, family = tmp_path / "result.json", tmp_path / "family.json"
    gold, a, b = (tmp_path / f"{n}.txt" for n in ("gold", "a", "b"))
    for path, labels in ((gold, "0101100111"), (a, "0101100110"), (b, "0111101011")):
        path.write_text("\n".join(labels) + "\n")
    assert main(["compare", str(gold), str(a), str(b), "--resamples", "200", "--test", "bootstrap",
                 "--save", str(result)]) == 0
    assert main(["many", str(gold), str(a), str(b), "--resamples", "200", "--save", str(family)]) == 0
    broken = tmp_path / "broken.json"
    data = json.loads(saved.read_text())
    data["board"]["resampled"] = data["board"]["resampled"][:-1]
    broken.write_text(json.dumps(data))
    long = tmp_path / "long.json"
    frame = table(seed=4, runs=1)
    frame["model"] = "meta-llama/Llama-3.1-70B-Instruct-" + frame.model
    res = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=200)
    long.write_text(records.dumps(records.board(res, baseline=None, alpha=0.05, correction="holm", saved=True)))
    out = str(tmp_path / "f.pdf")
    capsys.readouterr()
    for argv, message in (
            ([str(saved)], "holds models on many tasks, which --kind histogram does not draw: draw it with --kind "
                           "ranks, cd or nemenyi"),
            ([str(saved), "--kind", "forest"], "which --kind forest does not draw"),
            ([str(result), "--kind", "ranks"], "holds no board of models on many tasks to draw --kind ranks of"),
            ([str(family), "--kind", "cd"], "holds no board of models on many tasks to draw --kind cd of"),
            ([str(broken), "--kind", "ranks"], "is not a board saved by sigcore (ValueError: resampled is (999, 4), "
                                               "not (1000, 4)"),
            ([str(saved), "--kind", "ranks", "--metric", "acc"], "is a board on 'acc / exact_match[maj@3]', not on "
                                                                "'acc'"),
            ([str(long), "--kind", "cd"], "the models' names need 11.")):
        assert main(["figure", *argv, "--out", out]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and err.count("\n") <= 2, err
    assert "Draw it wider (--width full" in err and "or draw --kind ranks" in err
    assert main(["figure", str(long), "--kind", "cd", "--width", "full", "--out", out]) == 0
    assert main(["figure", str(long), "--kind", "ranks", "--out", out]) == 0  # its names on one side: a column


def _geometry_cases():
    frame = table(seed=5, runs=1)
    long = frame.assign(model="Qwen/Qwen2.5-7B-" + frame.model)
    wide = frame.assign(model="WWMW-" + frame.model.str.upper())
    suite = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=300, seed=2)
    for name, res in (("short", suite), ("long", leaderboard.bootstrap(leaderboard.from_table(long), n_resamples=300)),
                      ("wide", leaderboard.bootstrap(leaderboard.from_table(wide), n_resamples=300))):
        for kind in board_figures.KINDS:
            for style, width in ((paper("acl"), "column"), (paper("acl"), "full"), (SLIDE, "full")):
                if name == "long" and kind != "ranks" and width == "column":
                    continue  # refused: its names leave the axis no room (above)
                yield f"{name}-{kind}-{style.name}-{width}", board_figures.styled(res, kind, 0.05, "holm", style, width)


@pytest.mark.browser
def test_no_text_of_a_board_figure_leaves_it_or_overlaps_another():
    """Measured in Debian's Chromium with the fonts the PDF embeds, as tests/test_paper_figures.py measures the
    other kinds: each name, tick, title and label inside the figure, no two on top of each other."""
    texts_inside_and_apart(list(_geometry_cases()))
