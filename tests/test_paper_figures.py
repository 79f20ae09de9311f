"""Figures for papers and slides (sigcore.report.figures.figure, style, styled_image): what they show agrees
with the result, and the files are what a paper needs (true size, 8-9 pt text, embedded fonts, 300 dpi)."""

import json
import re
import struct
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import sigcore
from sigcore.__main__ import main
from sigcore.errors import SettingsError
from sigcore.many import Many
from sigcore.report import export
from sigcore.report.family_figures import forest
from sigcore.report.figures import KINDS, figure
from sigcore.report.style import PAPER, PX_PER_IN, SLIDE
from sigcore.result import Result

pytestmark = pytest.mark.filterwarnings("ignore:The kopts argument is ignored")  # plotly's, with one browser
rng = np.random.default_rng(7)
N = 300
GOLD = rng.integers(0, 2, N)
A = np.where(rng.random(N) < 0.75, GOLD, 1 - GOLD)
B = np.where(rng.random(N) < 0.70, GOLD, 1 - GOLD)


def result(test="bootstrap", alternative="greater", a=A, b=B, **more):
    return sigcore.compare(GOLD, a, b, test=test, alternative=alternative, n_resamples=3000, **more)


@pytest.fixture(scope="module", autouse=True)
def one_browser():
    """One Chromium for this module's images (0.3 s each instead of 3 s); the export tests start their own."""
    import kaleido

    kaleido.start_sync_server(silence_warnings=True)
    yield
    kaleido.stop_sync_server(silence_warnings=True)


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
    assert fig.layout.xaxis.title.text.replace("<br>", " ") == "δ(x⁽ⁱ⁾) = accuracy(uedin-nmt) − accuracy(&lt;b&gt;LIUM&lt;/b&gt;)"
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
    exact = sigcore.compare(GOLD[:12], A[:12], B[:12], test="permutation", n_resamples=10_000)
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
    saved = json.loads(export.result_json(res, distribution=True))
    assert Result.from_dict(saved) == res
    assert figure(Result.from_dict(saved), kind, a="x", b="y").to_json() == figure(res, kind, a="x", b="y").to_json()


def test_a_saved_family_draws_the_same_forest():
    systems = {f"s{k}": np.where(rng.random(N) < 0.62 + 0.04 * k, GOLD, 1 - GOLD) for k in range(4)}
    many = sigcore.compare_many(GOLD, systems, baseline="s0", n_resamples=1000)
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


@pytest.mark.parametrize("width, inches", [("column", 3.3), ("full", 6.9)])
def test_pdf_page_is_the_requested_width_with_fonts_embedded(files, width, inches):
    pdf = files[width]["pdf"]
    assert pdf.startswith(b"%PDF-")
    page_width = float(re.search(rb"/MediaBox\s*\[0 0 ([\d.]+) [\d.]+\]", pdf).group(1))
    assert abs(page_width - inches * 72) < 1  # Chromium rounds the page to whole 1/96 in
    fonts = set(re.findall(rb"/FontName\s*/([\w+-]+)", pdf))
    assert fonts and len(re.findall(rb"/FontFile[23]?\b", pdf)) >= len(fonts)  # each one embedded
    assert any(b"Serif" in f or b"Times" in f or b"Termes" in f or b"Roman" in f for f in fonts)


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


def test_png_is_300_dpi_at_true_size(files):
    png = files["column"]["png"]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert abs(width - 3.3 * 300) <= 3  # kaleido rounds the page to whole pixels
    chunk = png.index(b"pHYs")
    x, y, unit = struct.unpack(">IIB", png[chunk + 4: chunk + 13])
    assert unit == 1 and x == y == round(300 / 0.0254)


def test_a_figure_does_not_depend_on_plotlys_default_template(monkeypatch):
    import plotly.io as pio

    before = figure(result(), "histogram").to_json()
    monkeypatch.setattr(pio.templates, "default", "ggplot2")  # as importing streamlit sets "streamlit"
    assert figure(result(), "histogram").to_json() == before


def test_slide_style_is_large():
    fig = figure(result(), "histogram", style=SLIDE, width="full")
    assert fig.layout.width == 1280 and fig.layout.font.size >= 20 and fig.layout.xaxis.tickfont.size >= 20


# ---------------------------------------------------------------- the command line


def test_cli_saves_a_result_and_draws_it(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text("gold,a,b\n" + "".join(f"{g},{x},{y}\n" for g, x, y in zip(GOLD, A, B)))
    saved = tmp_path / "r.json"
    assert main(["compare", str(table), "--save", str(saved), "--resamples", "2000"]) == 0
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
    """Figures over random data, signs, sides, tests, names, kinds, styles and widths."""
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


_BOXES = """async (spec) => {
  await document.fonts.ready;
  const div = document.createElement('div');
  document.body.appendChild(div);
  await Plotly.newPlot(div, spec.data, spec.layout, {staticPlot: true});
  const root = div.querySelector('svg.main-svg').getBoundingClientRect();
  const texts = [...div.querySelectorAll('text')].filter(t => t.textContent.trim()).map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: r.left - root.left, right: r.right - root.left,
            top: r.top - root.top, bottom: r.bottom - root.top};
  });
  Plotly.purge(div); div.remove();
  return {width: root.width, height: root.height, texts};
}"""


@pytest.mark.browser
def test_no_text_leaves_the_figure_or_overlaps_another():
    """Every label, tick, title and legend entry inside the figure, and no two on top of each other, measured in
    Debian's Chromium with the fonts a reader's PDF embeds."""
    import os
    import shutil
    from pathlib import Path

    import plotly
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    assert os.path.exists(chromium), "install Debian's chromium (see .ci/run)"
    script = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.set_content("<html><body style='margin:0'></body></html>")
        page.add_script_tag(content=script)
        cases = list(_cases())
        page.evaluate(_BOXES, json.loads(cases[0][1].to_json()))  # a first plot loads the fonts it measures with
        for name, fig in cases:
            got = page.evaluate(_BOXES, json.loads(fig.to_json()))
            assert got["width"] == pytest.approx(fig.layout.width, abs=1)
            boxes = got["texts"]
            for box in boxes:
                assert -0.5 <= box["left"] and box["right"] <= got["width"] + 0.5, (name, box)
                assert -0.5 <= box["top"] and box["bottom"] <= got["height"] + 0.5, (name, box)
            for i, one in enumerate(boxes):
                for other in boxes[i + 1:]:
                    apart = (one["right"] <= other["left"] + 1 or other["right"] <= one["left"] + 1
                             or one["bottom"] <= other["top"] + 1 or other["bottom"] <= one["top"] + 1)
                    assert apart, (name, one, other)
        browser.close()
