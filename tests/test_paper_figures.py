"""Figures for papers and slides (sigcore.report.figures.figure, style, styled_image): what they show agrees
with the result, and the files are what a paper needs (true size, 8-9 pt text, embedded fonts, 300 dpi)."""

import io
import json
import re
import struct
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image

import sigcore
from sigcore.__main__ import main
from sigcore.errors import SettingsError
from sigcore.many import Many
from sigcore.report import export, records
from sigcore.report.family_figures import forest
from sigcore.report.figures import KINDS, figure
from sigcore.report.style import PAPER, PX_PER_IN, SLIDE, plain
from sigcore.result import Result

from helpers.figures import pdf_words, poppler, texts_inside_and_apart

pytestmark = pytest.mark.filterwarnings("ignore:The kopts argument is ignored")  # plotly's, with one browser
rng = np.random.default_rng(7)
N = 300
GOLD = rng.integers(0, 2, N)
A = np.where(rng.random(N) < 0.75, GOLD, 1 - GOLD)
B = np.where(rng.random(N) < 0.70, GOLD, 1 - GOLD)


def result(test="bootstrap", alternative="greater", a=A, b=B, **more):
    return sigcore.compare(GOLD, a, b, test=test, alternative=alternative, n_resamples=3000, **more)


def _family():
    """Systems against a baseline, with long names, one of them significant after the correction."""
    gen = np.random.default_rng(5)
    systems = {name: np.where(gen.random(N) < p, GOLD, 1 - GOLD) for name, p in
               (("LIUM-NMT", 0.65), ("uedin-nmt", 0.7), ("KIT-baseline-system-v2", 0.62), ("online-B", 0.85))}
    return sigcore.compare_many(GOLD, systems, baseline="LIUM-NMT", n_resamples=1000, correction="by", test="bootstrap")


def unique_ids(svg: bytes) -> bytes:
    """An SVG without the random id Plotly gives each drawing."""
    uid = re.search(rb'id="defs-(\w+)"', svg).group(1)
    return svg.replace(uid, b"")


def bars(fig):
    """Heights of the bars not counted and counted in p."""
    return [np.asarray(t.y) for t in fig.data]


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
@pytest.mark.parametrize("swap", [False, True])
def test_counted_bars_are_the_resamples_p_counts(test, alternative, swap):
    a, b = (B, A) if swap else (A, B)
    res = result(test, alternative, a, b)
    for kind in ("histogram", "null"):
        fig = figure(res, kind)
        not_counted, counted = bars(fig)
        assert counted.sum() == res.n_extreme  # what is drawn red is what p counts
        assert not_counted.sum() + counted.sum() == res.n_resamples


@pytest.mark.parametrize("alternative", ["greater", "two-sided"])
def test_lines_sit_where_the_test_cuts(alternative):
    res = result("bootstrap", alternative)
    lines = sorted(s.x0 for s in figure(res, "histogram").layout.shapes)
    expected = [res.delta, 2 * res.delta] + ([0.0] if alternative == "two-sided" else [])
    assert lines == pytest.approx(sorted(expected))
    null = sorted(s.x0 for s in figure(res, "null").layout.shapes)  # shifted by -delta(x): H0 at 0, delta(x) the cut
    assert null == pytest.approx(sorted([0.0, res.delta] + ([-res.delta] if alternative == "two-sided" else [])))
    texts = [a.text for a in figure(res, "histogram").layout.annotations]
    assert any(t.startswith("δ(x) = ") for t in texts) and any(t.startswith("2·δ(x) = ") for t in texts)
    assert ("δ(x<sup>(i)</sup>) = 0" in texts) == (alternative == "two-sided")  # the cut at 0 says what it is
    assert "0" not in texts  # a lone "0" above the plot named nothing


def test_labels_read_inward_each_in_its_own_row():
    for res in (result(), result(alternative="two-sided"), result(a=B, b=A, alternative="two-sided"),
                result("permutation", "two-sided")):
        fig = figure(res, "histogram")
        low, high = fig.layout.xaxis.range
        notes = fig.layout.annotations
        assert len({n.yshift for n in notes}) == len(notes)  # never two labels on one row
        for n in notes:
            assert n.xanchor == ("left" if n.x - low <= (high - low) / 2 else "right")


def test_axis_names_the_systems_and_metric():
    fig = figure(result(), "histogram", a="uedin-nmt", b="<b>LIUM</b>")
    assert fig.layout.xaxis.title.text.replace("<br>", " ") == (  # x⁽ⁱ⁾ in the figure's font: see test_pdf_fonts
        "δ(x<sup>(i)</sup>) = accuracy(uedin-nmt) − accuracy(&lt;b&gt;LIUM&lt;/b&gt;)")
    assert fig.layout.title.text is None  # the caption carries the title


def test_convergence_ends_at_p_inside_its_band():
    for res in (result(), result("permutation", "two-sided")):
        fig = figure(res, "convergence")
        band, line = fig.data
        assert line.x[-1] == res.n_resamples and line.y[-1] == pytest.approx(res.p_value)
        m = len(line.x)
        high, low = np.asarray(band.y[:m]), np.asarray(band.y[m:])[::-1]
        assert np.all((low <= line.y + 1e-12) & (line.y <= high + 1e-12))
        assert (low[-1], high[-1]) == pytest.approx(res.p_interval)


def test_refusals():
    with pytest.raises(SettingsError, match="closed-form"):
        figure(result("t"), "histogram")
    exact = sigcore.compare(GOLD[:12], A[:12], B[:12], test="permutation", n_resamples=10_000, alternative="greater")
    assert exact.exact
    with pytest.raises(SettingsError, match="exact"):
        figure(exact, "convergence")
    with pytest.raises(SettingsError, match="kind"):
        figure(result(), "pie")
    with pytest.raises(SettingsError, match="width"):
        figure(result(), width="poster")


@pytest.mark.parametrize("kind", KINDS)
def test_a_saved_result_draws_the_same_figure(kind):
    res = result(alternative="two-sided")
    saved = json.loads(records.dumps(records.pair(res, distribution=True)))
    assert Result.from_dict(saved) == res
    assert figure(Result.from_dict(saved), kind, a="x", b="y").to_json() == figure(res, kind, a="x", b="y").to_json()


def test_a_saved_family_draws_the_same_forest():
    systems = {f"s{k}": np.where(rng.random(N) < 0.62 + 0.04 * k, GOLD, 1 - GOLD) for k in range(4)}
    many = sigcore.compare_many(GOLD, systems, baseline="s0", n_resamples=1000, test="bootstrap")
    again = Many.from_dict(json.loads(json.dumps(many.to_dict())))
    assert again.table().equals(many.table())
    assert forest(again, style=PAPER).to_json() == forest(many, style=PAPER).to_json()


# ---------------------------------------------------------------- the files (kaleido in Debian's Chromium)


@pytest.fixture(scope="module")
def files():
    res = result(alternative="two-sided")
    made = {}
    for width in ("column", "full"):
        fig = figure(res, "histogram", width=width, a="uedin-nmt", b="LIUM-NMT")
        made[width] = {fmt: export.styled_image(fig, fmt, PAPER) for fmt in export.FORMATS}
    return made


@pytest.mark.slow  # PNG, SVG and PDF through kaleido (files), read by poppler
@pytest.mark.usefixtures("one_browser_for_static_images")
@pytest.mark.parametrize("width, inches", [("column", 7.7 / 2.54), ("full", 16 / 2.54)])  # ACL's
def test_pdf_page_is_the_requested_width_with_fonts_embedded(files, width, inches):
    pdf = files[width]["pdf"]
    assert pdf.startswith(b"%PDF-")
    page_width = float(re.search(rb"/MediaBox\s*\[0 0 ([\d.]+) [\d.]+\]", pdf).group(1))
    assert abs(page_width - inches * 72) < 1  # Chromium rounds the page to whole 1/96 in
    fonts = set(re.findall(rb"/FontName\s*/([\w+-]+)", pdf))
    assert fonts and len(re.findall(rb"/FontFile[23]?\b", pdf)) >= len(fonts)  # each one embedded
    assert any(b"Serif" in f or b"Times" in f or b"Termes" in f or b"Roman" in f for f in fonts)


@pytest.mark.slow  # PNG, SVG and PDF through kaleido (files)
@pytest.mark.usefixtures("one_browser_for_static_images")
@pytest.mark.parametrize("width", ["column", "full"])
def test_svg_text_is_8_to_9_pt_black_with_both_lines_labelled(files, width):
    svg = files[width]["svg"].decode()
    root = ET.fromstring(svg)
    inches = float(root.get("width")) / PX_PER_IN
    assert inches == pytest.approx(PAPER.widths[width] / PX_PER_IN)
    sizes = [float(s) for s in re.findall(r"font-size: ?([\d.]+)px", svg)]
    assert sizes and all(8 <= s * 72 / PX_PER_IN <= 9 for s in sizes)  # placed at its width, px -> pt
    fills = set(re.findall(r"<text[^>]*style=\"[^\"]*fill: ?(rgb\([^)]*\))", svg))
    assert fills == {"rgb(0, 0, 0)"}
    assert "serif" in svg and "Open Sans" not in svg
    texts = "".join(root.itertext())
    assert "δ(x) = " in texts and "2·δ(x) = " in texts and "counted in p" in texts
    assert len(re.findall(r'class="[^"]*shape', svg)) + svg.count("stroke-dasharray") >= 2


@pytest.mark.slow  # PNG, SVG and PDF through kaleido (files)
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_png_is_300_dpi_at_true_size(files):
    png = files["column"]["png"]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert abs(width - 7.7 / 2.54 * 300) <= 3  # kaleido rounds the page to whole pixels
    chunk = png.index(b"pHYs")
    x, y, unit = struct.unpack(">IIB", png[chunk + 4: chunk + 13])
    assert unit == 1 and x == y == round(300 / 0.0254)


GRID = [(kind, style, width) for kind in ("histogram", "null", "convergence", "forest") for style in (PAPER, SLIDE)
        for width in ("column", "full")]


@pytest.fixture(scope="module")
def every_pdf(tmp_path_factory):
    """Each kind at each width and style: the figure, its PDF (saved to a file for poppler) and its PNG at 96 dpi."""
    folder, family = tmp_path_factory.mktemp("pdf"), _family()
    results = {"column": result(alternative="two-sided"), "full": result("permutation", "less")}
    made = {}
    for kind, style, width in GRID:
        fig = (forest(family, style=style, width=width) if kind == "forest" else
               figure(results[width], kind, style=style, width=width, a="uedin-nmt", b="LIUM-NMT"))
        path = folder / f"{kind}-{style.name}-{width}.pdf"
        path.write_bytes(export.styled_image(fig, "pdf", style))
        png = export.figure_image(fig, "png", width=fig.layout.width, height=fig.layout.height, scale=1)
        made[kind, style.name, width] = fig, path, png
    return made


def _ink(image: np.ndarray) -> tuple[int, int, int, int]:
    """The box of an image's non-white pixels: left, top, right, bottom."""
    rows, columns = np.nonzero(image < 200)
    return columns.min(), rows.min(), columns.max(), rows.max()


def _texts(fig) -> list[str]:
    """Every text a figure must show, as Plotly's labels (with <br> and <sup>): axis titles, legend entries
    (of traces with points), line labels and notes."""
    titles = [axis.title.text for axis in (fig.layout.xaxis, fig.layout.yaxis) if axis.title.text]
    return titles + [t.name for t in fig.data if len(t.x)] + [note.text for note in fig.layout.annotations]


@pytest.mark.slow  # 16 PDFs and PNGs through kaleido (every_pdf), poppler
@pytest.mark.usefixtures("one_browser_for_static_images")
@pytest.mark.parametrize("kind, style, width", [(k, s.name, w) for k, s, w in GRID])
def test_pdf_is_the_figure_at_true_size_with_every_text_on_its_page(every_pdf, kind, style, width):
    """The page is the figure's size (Chromium prints in points and 1/300 in: its height rounded up, its width down,
    so that a figure drawn for a column is never wider than the column; what goes is its white right margin's),
    drawn at scale 1 from its corner (its ink where the PNG's is, to 2 px at 96 dpi: kaleido's own PDF shrank it
    by 0.2 in and cut off its bottom), and every axis title, legend entry and label is on the page."""
    fig, path, png = every_pdf[kind, style, width]
    page_width, page_height, words = pdf_words(path)
    assert 0 <= fig.layout.width * 72 / PX_PER_IN - page_width < 2.1
    assert 0 <= page_height - fig.layout.height * 72 / PX_PER_IN < 1.25
    raster = subprocess.run(["pdftoppm", "-r", str(PX_PER_IN), "-gray", "-singlefile", str(path)],
                            capture_output=True, check=True).stdout
    raster = np.asarray(Image.open(io.BytesIO(raster)))
    assert np.allclose(_ink(raster), _ink(np.asarray(Image.open(io.BytesIO(png)).convert("L"))), atol=2)
    for left, top, right, bottom, text in words:
        assert -0.5 <= left and right <= page_width + 0.5 and -0.5 <= top and bottom <= page_height + 0.5, text
    drawn = [text for *_, text in words]
    for label in _texts(fig):
        for piece in re.split(r"<[^>]*>", label):  # a <sup>'s text is a word of its own
            for word in plain(piece).split():
                assert any(word in text for text in drawn), (word, label)


@pytest.mark.slow  # 16 PDFs and PNGs through kaleido (every_pdf), poppler
@pytest.mark.usefixtures("one_browser_for_static_images")
@pytest.mark.parametrize("kind, style, width", [(k, s.name, w) for k, s, w in GRID])
def test_pdf_fonts_are_the_styles_own(every_pdf, kind, style, width):
    """Every glyph in the style's family, embedded: x⁽ⁱ⁾'s superscript, which Times-like fonts lack, would come
    from DejaVu Sans."""
    _, path, _ = every_pdf[kind, style, width]
    rows = poppler("pdffonts", str(path)).splitlines()[2:]
    fonts = [row.split()[0] for row in rows]
    assert fonts and all(" yes " in f" {row} " for row in rows)  # emb yes
    assert not any("DejaVu" in font for font in fonts), fonts
    serif = [font for font in fonts if re.search("Serif|Times|Roman|Termes", font)]
    assert serif == fonts if style == "paper" else not serif, fonts


@pytest.mark.slow  # 16 PDFs and PNGs through kaleido (every_pdf), poppler
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_pdf_title_says_what_the_figure_shows(every_pdf):
    """Not kaleido's page title, "Kaleido-fier": the figure's kind, what is compared and how; the file is still
    whole (each cross-reference points at its object)."""
    for fig, path, _ in every_pdf.values():
        title = re.search(r"^Title:\s*(.*)$", poppler("pdfinfo", str(path)), re.M).group(1)
        assert title == fig.layout.meta["title"] and "Kaleido" not in title
        pdf = path.read_bytes()
        start = int(re.search(rb"startxref\s+(\d+)", pdf).group(1))
        entries = re.findall(rb"(\d{10}) \d{5} n", pdf[start:])
        assert entries and all(pdf[int(at):].startswith(b"%d 0 obj" % (k + 1)) for k, at in enumerate(entries))
    titles = {key: fig.layout.meta["title"] for key, (fig, _, _) in every_pdf.items()}
    assert titles["histogram", "paper", "column"] == ("Distribution of δ(x⁽ⁱ⁾): accuracy(uedin-nmt) − "
                                                      "accuracy(LIUM-NMT), paired bootstrap")
    assert titles["null", "paper", "full"] == ("Distribution under H0 of δ: accuracy(uedin-nmt) − accuracy(LIUM-NMT), "
                                               "approximate randomisation")
    assert titles["convergence", "slide", "full"].startswith("p as resamples accrue: accuracy(uedin-nmt)")
    assert titles["forest", "paper", "column"].startswith("δ against LIUM-NMT, accuracy: paired bootstrap")


def test_a_figure_does_not_depend_on_plotlys_default_template(monkeypatch):
    import plotly.io as pio

    before = figure(result(), "histogram").to_json()
    monkeypatch.setattr(pio.templates, "default", "ggplot2")  # as importing streamlit sets "streamlit"
    assert figure(result(), "histogram").to_json() == before


def test_slide_style_is_large():
    fig = figure(result(), "histogram", style=SLIDE, width="full")
    assert fig.layout.width == 1280 and fig.layout.font.size >= 20 and fig.layout.xaxis.tickfont.size >= 20


@pytest.mark.slow  # SVGs through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_slide_widths_are_a_whole_slide_and_half_of_one():
    """A slide's figure is the slide's width (1280 px) unless asked for one column of a two-column slide (640
    px); a paper's is its venue's column (ACL's by default, 7.7 cm) unless asked for the full text width."""
    res = result()
    for width, px in ((None, 1280), ("full", 1280), ("column", 640)):
        svg = export.styled_image(figure(res, "histogram", style=SLIDE, width=width), "svg", SLIDE)
        assert float(ET.fromstring(svg).get("width")) == px
    assert forest(_family(), style=SLIDE).layout.width == 1280
    column = pytest.approx(7.7 / 2.54 * PX_PER_IN)
    assert figure(res).layout.width == forest(_family(), style=PAPER).layout.width == column
    assert SLIDE.describe() == "slide: a whole slide, 1280 px"
    assert SLIDE.describe("column") == "slide: one column of a two-column slide, 640 px"
    assert PAPER.describe() == "paper: one column of ACL, 7.7 cm"
    with pytest.raises(SettingsError, match=r"unknown width 'poster' for a slide figure.*full \(a whole slide, 1280"):
        figure(res, style=SLIDE, width="poster")


def _random_results(count: int, seed: int):
    """Results over random data: test sizes, accuracies (so signs and effects from none to huge), tests, sides."""
    gen = np.random.default_rng(seed)
    for k in range(count):
        n = int(gen.integers(15, 300))
        gold = gen.integers(0, 2, n)
        a, b = (np.where(gen.random(n) < p, gold, 1 - gold) for p in gen.uniform(0.45, 0.98, 2))
        yield sigcore.compare(gold, a, b, test=("bootstrap", "permutation")[k % 2],
                              alternative=("greater", "less", "two-sided")[k // 2 % 3], n_resamples=400, seed=k)


def test_every_line_lies_inside_the_x_axis_clear_of_its_ends():
    """δ(x), 2·δ(x), 0 and −δ(x) at least 2% of the axis's range from either end, whatever the sign, side and
    test (a permutation test's δ(x) is often beyond every permuted δ)."""
    for res in _random_results(36, 23):
        for kind in ("histogram", "null"):
            fig = figure(res, kind)
            low, high = fig.layout.xaxis.range
            for line in fig.layout.shapes:
                assert low + 0.02 * (high - low) <= line.x0 <= high - 0.02 * (high - low), (res.test, kind, line.x0)


@pytest.mark.parametrize("n, accuracies, swap, p_range", [
    (300, (0.8, 0.7), False, (0, 3e-4)),  # none counted by the bootstrap: p < 1/b
    (300, (0.72, 0.70), False, (3e-4, 2e-3)), (600, (0.8, 0.7), False, (2e-3, 4e-3)),
    (300, (0.75, 0.74), False, (0.01, 0.05)), (100, (0.7, 0.7), False, (0.5, 0.7)),
    (300, (0.72, 0.70), True, (0.99, 1)),
])
@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_convergence_shows_a_small_p_and_its_band_clear_of_the_floor(n, accuracies, swap, p_range, test):
    """On a log axis, the final p (1/b when none was counted), its Monte-Carlo band and α are drawn, above the
    axis's lowest 5%: p = 0.001 is no flat line on a 0-1 axis's floor, and p = 0.99 stays readable too."""
    gen = np.random.default_rng(1)
    gold = gen.integers(0, 2, n)
    a, b = (np.where(gen.random(n) < p, gold, 1 - gold) for p in accuracies)
    res = sigcore.compare(gold, *((b, a) if swap else (a, b)), test=test, alternative="greater", n_resamples=5000)
    fig = figure(res, "convergence")
    assert fig.layout.yaxis.type == "log"
    low, high = fig.layout.yaxis.range
    band, line = fig.data
    m = len(line.x)
    assert band.y[m - 1] == pytest.approx(res.p_interval[1])
    assert line.y[-1] == pytest.approx(res.p_value) or res.n_extreme == 0  # then p < 1/b, and k / i = 0 is hidden
    for value in (v for v in (res.p_value, *res.p_interval, res.alpha) if v > 0):  # a band from 0: under any log axis
        assert 0.05 <= (np.log10(value) - low) / (high - low) <= 1, (res.p_text, value)
    assert fig.layout.shapes[0].y0 == res.alpha  # α's line
    assert p_range[0] <= res.p_value <= p_range[1]  # the case is the one its parameters say


# ---------------------------------------------------------------- the command line


@pytest.mark.slow  # SVGs through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_cli_saves_a_result_and_draws_it(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text("gold,a,b\n" + "".join(f"{g},{x},{y}\n" for g, x, y in zip(GOLD, A, B)))
    saved = tmp_path / "r.json"
    assert main(["compare", str(table), "--save", str(saved), "--resamples", "2000", "--test", "bootstrap"]) == 0
    res = Result.from_dict(json.loads(saved.read_text()))
    assert res.n_resamples == 2000 and len(res.distribution) == 2000
    out = tmp_path / "fig.svg"
    assert main(["figure", str(saved), "--kind", "null", "--out", str(out)]) == 0
    same = export.styled_image(figure(res, "null", a="a", b="b"), "svg", PAPER)
    assert unique_ids(out.read_bytes()) == unique_ids(same)
    capsys.readouterr()
    for argv, message in (([str(table), "--out", str(out)], "cannot be read as a saved result"),
                          ([str(saved), "--out", str(tmp_path / "f.eps")], "must end in .pdf, .svg or .png"),
                          ([str(saved), "--kind", "forest", "--out", str(out)], "no family")):
        assert main(["figure", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.slow  # a PDF through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_cli_draws_a_saved_family(tmp_path, capsys):
    gold, a, b, c = (tmp_path / f"{n}.txt" for n in ("gold", "base", "sys1", "sys2"))
    gold.write_text("".join(f"{g}\n" for g in GOLD))
    for path, outputs in ((a, B), (b, A), (c, GOLD)):
        path.write_text("".join(f"{x}\n" for x in outputs))
    saved, out = tmp_path / "family.json", tmp_path / "forest.pdf"
    assert main(["many", str(gold), str(a), str(b), str(c), "--baseline", "base", "--resamples", "500",
                 "--save", str(saved)]) == 0
    assert main(["figure", str(saved), "--kind", "forest", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF-")
    capsys.readouterr()
    assert main(["figure", str(saved), "--kind", "histogram", "--out", str(out)]) == 2
    assert "--kind forest" in capsys.readouterr().err


# ---------------------------------------------------------------- geometry, in a real browser


def _cases():
    """Figures over random data, signs, sides, tests, names, kinds, styles and widths; a family's forest."""
    gen = np.random.default_rng(11)
    for k in range(36):
        n = int(gen.integers(20, 400))
        gold = gen.integers(0, 2, n)
        a, b = (np.where(gen.random(n) < p, gold, 1 - gold) for p in gen.uniform(0.5, 0.9, 2))
        test = ("bootstrap", "permutation")[k % 2]
        alternative = ("greater", "less", "two-sided")[k % 3]
        res = sigcore.compare(gold, a, b, test=test, alternative=alternative, n_resamples=500, seed=k)
        names = [("A", "B"), ("uedin-nmt", "LIUM-NMT"), ("KIT-baseline-system-v2", "a")][k % 3]
        kind = ("histogram", "null", "convergence")[k // 2 % 3] if not res.exact else "histogram"
        style, width = ((PAPER, "column"), (PAPER, "full"), (SLIDE, "full"), (PAPER, "column"))[k % 4]
        yield f"{test}-{alternative}-{kind}-{style.name}-{width}-{names[0]}", figure(
            res, kind, style=style, width=width, a=names[0], b=names[1])
    family = _family()
    for style in (PAPER, SLIDE):
        for width in ("column", "full"):
            yield f"forest-{style.name}-{width}", forest(family, style=style, width=width)


@pytest.mark.browser
def test_no_text_leaves_the_figure_or_overlaps_another():
    """Every label, tick, title and legend entry inside the figure, and no two on top of each other, measured in
    Debian's Chromium with the fonts a reader's PDF embeds."""
    texts_inside_and_apart(list(_cases()))


def test_kaleido_is_asked_again_once_when_its_page_was_not_ready():
    """Under load kaleido failed 2 of 18 exports ("ReferenceError: kaleido_scopes is not defined"): the export is
    tried once more, and a second failure says what failed, never a traceback."""
    from kaleido.errors import KaleidoError

    class Flaky:
        def __init__(self, failures):
            self.failures, self.calls = failures, 0

        def to_image(self, **_):
            self.calls += 1
            if self.calls <= self.failures:
                raise KaleidoError(500, "ReferenceError: kaleido_scopes is not defined")
            return b"<svg/>"

    once = Flaky(1)
    assert export.figure_image(once, "svg") == b"<svg/>" and once.calls == 2
    twice = Flaky(2)
    with pytest.raises(SettingsError, match="kaleido failed twice to render the SVG"):
        export.figure_image(twice, "svg")


@pytest.mark.slow  # three PDFs through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_a_pdf_is_the_same_file_byte_for_byte_dated_by_source_date_epoch(monkeypatch):
    import time

    res = result()
    first = export.styled_image(figure(res), "pdf", PAPER)
    time.sleep(1.1)  # Chromium dates a PDF to the second
    assert export.styled_image(figure(res), "pdf", PAPER) == first
    assert b"/CreationDate (D:19800101000000+00'00')" in first
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert b"/ModDate (D:20231114221320+00'00')" in export.styled_image(figure(res), "pdf", PAPER)


def test_a_browser_that_never_answers_is_given_up_on_and_a_fresh_one_asked(monkeypatch):
    import threading

    monkeypatch.setattr(export, "RENDER_SECONDS", 0.2)
    release = threading.Event()

    class Hung:
        calls = 0

        def to_image(self, **_):
            Hung.calls += 1
            if Hung.calls == 1:
                release.wait(5)  # the first browser hangs (kaleido's oneshot server, seen in CI)
            return b"<svg/>"

    assert export.figure_image(Hung(), "svg") == b"<svg/>" and Hung.calls == 2
    release.set()
