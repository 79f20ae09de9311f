"""The walk-through as one slide: what the page shows, drawn from the same frame, as PNG and SVG."""

import re
import struct

import pytest

import ui.walkthrough as w
from sigcore import teaching
from sigcore.report import export
from ui.slide import SIZE, coloured, slide

A, B = w.PRESETS["Textbook: A .70, B .50"]


def frame_at(k: float, *, shifted: bool = False) -> dict:
    """A frame part-way through drawing x⁽²⁶⁾ ... x⁽³⁰⁾ line by line."""
    x = teaching.draw_test_sets(A, B, 30, seed=0)
    frames, _ = w.play(A, B, x, 25, detailed=True, max_frames=100, shifted=shifted)
    return frames[int(len(frames) * k)]


def texts(fig) -> list[str]:
    return [re.sub("<[^>]+>", "", a.text).replace("&nbsp;", " ").replace("&amp;", "&") for a in fig.layout.annotations]


@pytest.mark.parametrize("k", [0.1, 0.35, 0.6, 0.99])
def test_the_slide_shows_what_the_page_shows(k):
    shown = frame_at(k)
    fig = slide(w.histogram(0.2, shifted=False, presenter=True), shown, w.PRESENTER_CODE, w.HEADER)
    said = texts(fig)
    assert [list(t.y) for t in fig.data] == shown["y"]  # the same bars
    counters = next(t for t in said if "exact p" in t)
    t = shown["texts"]
    assert counters.split() == [t["k-b-name"], t["k-b"], "s", t["k-s"], *t["k-sb-name"].split(), t["k-sb"], "exact",
                                "p", t["k-exact"]]
    assert shown["texts"]["count"] in said
    code = " ".join(t for t in said if t.startswith("  ") or t.startswith("function"))
    assert all(" ".join(line.split()) in " ".join(code.split()) for line in w.PRESENTER_CODE)  # every line, wrapped
    highlighted = [s for s in fig.layout.shapes if s.fillcolor == "#ffe08a" and s.x0 > 0.5]
    first, last = shown["lines"]
    assert len(highlighted) == last - first + 1  # the running lines of Figure 4.12, as on the page
    for row in shown["rows"]:  # every cell of every row, in order
        cells = [c[1] if isinstance(c, list) else c for c in row["cells"]]
        assert all(cell in said for cell in cells if cell)
    assert sum(s.fillcolor == "#fbe3e0" for s in fig.layout.shapes) == sum(r["marked"] for r in shown["rows"])
    now = [c for r in shown["rows"] for c in r["cells"] if isinstance(c, list) and c[2:] == ["now"]]
    assert sum(s.fillcolor == "#ffe08a" and s.x0 < 0.5 for s in fig.layout.shapes) == len(now)


def test_the_shifted_view_puts_the_explanation_where_the_code_was():
    shown = frame_at(0.99, shifted=True)
    aside = w.why_twice(0.2)
    fig = slide(w.histogram(0.2, shifted=True, presenter=True), shown, w.PRESENTER_CODE, w.HEADER, aside)
    said = " ".join(texts(fig))
    assert "δ(x⁽ⁱ⁾) ≥ 2·δ(x) = .40" in said and "for i = 1 to b do" not in said
    assert len(fig.data) == 4 and fig.layout.xaxis.domain[1] <= fig.layout.xaxis2.domain[0] <= 0.55


def test_grown_bar_outlined_and_book_cells_coloured():
    shown = next(f for f in w.play(A, B, teaching.draw_test_sets(A, B, 3, seed=0), 0, detailed=False,
                                   max_frames=100)[0] if f["grew"])
    fig = slide(w.histogram(0.2, shifted=False, presenter=True), shown, w.PRESENTER_CODE, w.HEADER)
    trace, bar = shown["grew"][0]
    assert list(fig.data[trace].marker.line.width).index(4) == bar
    assert coloured("AB̸") == '<span style="color:#1e8449">A</span><span style="color:#c0392b">B̸</span>'
    assert coloured("<b>") == "&lt;b&gt;"  # escaped: Plotly reads a few HTML tags


def test_slide_png_and_svg():
    shown = frame_at(0.6)
    fig = slide(w.histogram(0.2, shifted=False, presenter=True), shown, w.PRESENTER_CODE, w.HEADER)
    png = export.figure_image(fig, "png", scale=1, **SIZE)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (1920, 1080)
    svg = export.figure_image(fig, "svg", scale=1, **SIZE).decode()
    for counter in ("k-b", "k-s", "k-sb", "k-exact"):
        assert f">{shown['texts'][counter]}<" in svg  # the counters, as text
    assert shown["texts"]["count"] in svg and "B̸" in svg
