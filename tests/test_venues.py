"""Venues: their widths measured from the class files TeX Live ships, lengths in LaTeX's units, and a figure for
each venue that fills its column in a document of that venue's geometry without being scaled (so its 8-9 pt text
stays 8-9 pt on the page)."""

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

import sigcore
from sigcore.__main__ import main
from sigcore.errors import SettingsError
from sigcore.report import export, records
from sigcore.report.figures import figure
from sigcore.report.style import PAPER, PX_PER_IN, SLIDE, paper
from sigcore.report.venues import PT_PER_IN, VENUES, length

from helpers.latex import CLASSES, venue_document

PDFLATEX = "pdflatex"  # on PATH; conftest.py skips a test that starts it where lacking
WIDTHS = r"\typeout{WIDTHS=\the\columnwidth;\the\textwidth}"


def _compile(folder: Path, tex: str) -> str:
    (folder / "v.tex").write_text(tex, encoding="utf-8")
    done = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "v.tex"], cwd=folder,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    return (folder / "v.log").read_text(encoding="latin-1")


@pytest.mark.slow  # pdflatex
@pytest.mark.parametrize("key", sorted(CLASSES))
def test_a_venue_s_widths_are_its_class_file_s(tmp_path, key):
    log = _compile(tmp_path, venue_document(key, "x\n" + WIDTHS))
    column, text = (float(x) for x in re.search(r"WIDTHS=([\d.]+)pt;([\d.]+)pt", log).groups())
    assert (column, text) == pytest.approx((VENUES[key].column, VENUES[key].text), abs=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(CLASSES))
def test_a_venue_s_text_height_is_its_class_file_s(tmp_path, key):
    """A figure's float must fit in \\textheight: the rank figure of a large board is sized by it."""
    log = _compile(tmp_path, venue_document(key, "x\n\\typeout{HEIGHT=\\the\\textheight}"))
    assert float(re.search(r"HEIGHT=([\d.]+)pt", log).group(1)) == pytest.approx(VENUES[key].height, abs=0.01)


def test_every_venue_names_its_source_and_its_caption_rule():
    assert {"acl", "icml", "neurips", "iclr", "ieee", "acm", "aaai", "lncs"} <= set(VENUES)
    for v in VENUES.values():
        assert v.table_caption in ("above", "below") and len(v.source) > 40 and v.column <= v.text
    assert VENUES["acl"].column == pytest.approx(219.09, abs=0.02)  # 7.7 cm; acl.sty's \columnwidth
    assert (VENUES["acl"].table_caption, VENUES["icml"].table_caption) == ("below", "above")
    assert PAPER.venue.key == "acl" and PAPER.width() == pytest.approx(7.7 / 2.54 * PX_PER_IN)


@pytest.mark.parametrize("text, points", [("7.7cm", 219.087), ("3.25in", 234.878), ("219.09pt", 219.09),
                                          ("241bp", 241.904), ("77mm", 219.087), (" 18pc ", 216.0), ("291px", 219.068)])
def test_a_width_is_any_length_latex_knows(text, points):
    assert length(text) == pytest.approx(points, abs=0.001)
    assert PAPER.width(text) == pytest.approx(points / PT_PER_IN * PX_PER_IN, abs=0.01)


@pytest.mark.parametrize("text", ["5em", "0.5\\columnwidth", "7,7cm", "cm", "0.1in", "30in", "column "])
def test_a_width_that_is_not_one_is_refused_with_the_units(text):
    with pytest.raises(SettingsError, match="width"):
        PAPER.width(text)
    with pytest.raises(SettingsError, match="unknown width"):
        SLIDE.width("7.7cm")  # a slide is measured in pixels


@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
@pytest.mark.parametrize("key", ["acl", *sorted(CLASSES)])
def test_a_figure_fills_its_venue_s_column_and_text_unscaled(tmp_path, key):
    """Placed at its natural size, the figure fills \\columnwidth and \\textwidth to within two points and a half and
    never overflows them: no scaling, so its 9 pt labels print at 9 pt; no line is overfull. ACL's geometry and the
    three classes TeX Live ships (the other venues' geometry is only their widths, which the tests above check)."""
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 2, 300)
    res = sigcore.compare(gold, np.where(rng.random(300) < 0.8, gold, 1 - gold),
                          np.where(rng.random(300) < 0.7, gold, 1 - gold), n_resamples=500, test="bootstrap")
    style = paper(key)
    for width in ("column", "full"):
        drawn = figure(res, style=style, width=width)
        (tmp_path / f"{width}.pdf").write_bytes(export.styled_image(drawn, "pdf", style))
    environment = "figure*" if VENUES[key].columns == 2 else "figure"
    body = ("\\begin{figure}[t]\\includegraphics{column.pdf}\\end{figure}\n"  # at its natural size
            f"\\begin{{{environment}}}[t]\\includegraphics{{full.pdf}}\\end{{{environment}}}\n"
            "x\n\\sbox0{\\includegraphics{column.pdf}}\\sbox2{\\includegraphics{full.pdf}}"
            "\\typeout{NATURAL=\\the\\wd0;\\the\\wd2;\\the\\columnwidth;\\the\\textwidth}")
    log = _compile(tmp_path, venue_document(key, body))
    assert "Overfull \\hbox" not in log, re.findall(r"Overfull.*", log)  # the widths: acmart's page itself is overfull
    column, full, column_box, text_box = (float(x) for x in re.search(
        r"NATURAL=([\d.]+)pt;([\d.]+)pt;([\d.]+)pt;([\d.]+)pt", log).groups())
    assert 0 <= column_box - column < 2.5 and 0 <= text_box - full < 2.5, (column, column_box, full, text_box)


@pytest.mark.slow  # SVGs through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_figure_command_takes_a_venue_and_a_width(tmp_path, capsys):
    rng = np.random.default_rng(2)
    path = tmp_path / "s.csv"
    path.write_text("id,A,B\n" + "".join(f"{i},{x:.3f},{y:.3f}\n" for i, (x, y) in enumerate(rng.random((80, 2)))))
    saved = tmp_path / "r.json"
    assert main(["compare", str(path), "--test", "bootstrap", "--resamples", "300", "--save", str(saved)]) == 0
    capsys.readouterr()
    for args, said, inches in ((["--venue", "icml", "--width", "full"], "ICML's text width, 6.75 in", 6.75),
                               (["--width", "5cm"], "paper: 5 cm wide", 5 / 2.54),
                               ([], "one column of ACL, 7.7 cm", 7.7 / 2.54)):
        out = tmp_path / "f.svg"
        assert main(["figure", str(saved), "--out", str(out), *args]) == 0
        assert said in capsys.readouterr().out
        width = float(re.search(r'<svg[^>]* width="([\d.]+)"', out.read_text()).group(1))
        assert width == pytest.approx(inches * PX_PER_IN, abs=0.6)
    assert main(["figure", str(saved), "--out", str(out), "--width", "5em"]) == 2
    assert "is not a width" in capsys.readouterr().err
    assert json.loads(saved.read_text())["test"] == "bootstrap"

    # a height of one's own, and the LaTeX figure to paste, its \label named after the file
    pdf = tmp_path / "figs" / "delta.pdf"
    pdf.parent.mkdir()
    assert main(["figure", str(saved), "--out", str(pdf), "--height", "5cm"]) == 0
    out = capsys.readouterr().out
    assert "one column of ACL, 7.7 cm, 5cm high" in out
    page = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", pdf.read_bytes())
    assert float(page.group(2)) == pytest.approx(5 / 2.54 * 72, abs=1)  # bp
    assert "\\providecommand{\\sigcoredir}{figs/}" in out and "\\includegraphics{\\sigcoredir delta.pdf}" in out
    assert "\\label{fig:delta}" in out and "\\caption{" in out and out.rstrip().endswith("\\end{figure}")
    for height, said in (("0.2in", "is not a figure's"), ("5em", "is not a height"), ("3cm", "at least 4.6cm")):
        assert main(["figure", str(saved), "--out", str(pdf), "--height", height]) == 2
        assert said in capsys.readouterr().err


def test_figures_without_plotly_say_how_to_install_them(tmp_path, capsys, monkeypatch):
    import sys

    import sigcore

    saved = tmp_path / "r.json"  # a result saved as `compare --save` writes it, read before plotly is asked for
    res = sigcore.compare(["x", "y"] * 10, ["x", "x"] * 10, ["y", "y"] * 10, test="bootstrap", n_resamples=50)
    saved.write_text(records.dumps(records.pair(res, distribution=True)))
    for name in [m for m in sys.modules if m == "plotly" or m.startswith(("plotly.", "sigcore.report.figures",
                                                                          "sigcore.report.family_figures"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "plotly", None)  # import plotly now fails, as where it is not installed
    assert main(["figure", str(saved), "--out", str(tmp_path / "f.pdf")]) == 2
    err = capsys.readouterr().err
    assert 'pip install "sigcore[figures]"' in err and "unexpectedly" not in err, err
