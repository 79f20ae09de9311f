"""A figure's texts where a reader sees them: the size each is set to (24 px or more at presenter size), each
word's box on a PDF's page (poppler's pdftotext), and each text's box in a plot drawn by Debian's Chromium (inside
the figure, none on top of another)."""

import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from sigcore.teaching.lesson_figures import PRESENTER_FONT

from .browser import launch

TAGS = re.compile(r"<(sup|sub|small)\b|font-size", re.I)  # text drawn smaller than its font


def text_sizes(fig) -> dict[str, float | None]:
    """Every text a figure draws, by where it is in the figure, with the size it is set to (None: left to a default,
    which Streamlit's theme sets to 12-14 px, whatever the figure's layout.font says)."""
    spec = fig.to_plotly_json()
    layout, sizes = spec["layout"], {}

    def size(font: dict | None) -> float | None:
        return (font or {}).get("size")

    sizes["layout.font"] = size(layout.get("font"))
    if (layout.get("title") or {}).get("text"):
        sizes["title"] = size(layout["title"].get("font"))
    for name, axis in layout.items():
        if re.fullmatch(r"[xy]axis\d*", name):
            if axis.get("showticklabels", True) and axis.get("visible", True):
                sizes[f"{name}.ticks"] = size(axis.get("tickfont"))
            if (axis.get("title") or {}).get("text"):
                sizes[f"{name}.title"] = size(axis["title"].get("font"))
    named = any(trace.get("showlegend", True) and trace.get("name") for trace in spec["data"])
    if layout.get("showlegend", True) and named:
        sizes["legend"] = size((layout.get("legend") or {}).get("font"))
    for k, note in enumerate(layout.get("annotations", [])):
        sizes[f"annotation {k}: {note['text'][:30]}"] = size(note.get("font"))
    for k, trace in enumerate(spec["data"]):
        if "text" in trace.get("mode", "") or (trace["type"] == "bar" and trace.get("text") is not None):
            sizes[f"trace {k} text"] = size(trace.get("textfont"))

    def walk(value, path):  # any font set anywhere, and no text shrunk by a tag
        if isinstance(value, dict):
            for key, item in value.items():
                if key.endswith("font") and isinstance(item, dict) and "size" in item:
                    sizes.setdefault(f"{path}.{key}", item["size"])
                walk(item, f"{path}.{key}")
        elif isinstance(value, (list, tuple)):
            for k, item in enumerate(value):
                walk(item, f"{path}[{k}]")
        elif isinstance(value, str) and TAGS.search(value):
            sizes[f"{path}: {value[:40]}"] = 0
    walk(spec, "figure")
    return sizes


def assert_presenter_size(fig) -> None:
    sizes = text_sizes(fig)
    small = {where: size for where, size in sizes.items() if size is None or size < PRESENTER_FONT}
    assert not small, small
    assert len(sizes) >= 6 and fig.layout.height is None  # the page gives it the screen's height


def poppler(*argv) -> str:
    """What a poppler-utils command (pdftotext, pdffonts, pdfinfo) prints."""
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout


def pdf_words(path) -> tuple[float, float, list[tuple[float, float, float, float, str]]]:
    """The page's size and each word's box (left, top, right, bottom, in points from the top left) and text."""
    out = poppler("pdftotext", "-bbox", str(path), "-")
    page = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out)
    found = [(*map(float, m.groups()[:4]), html.unescape(m.group(5))) for m in re.finditer(
        r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>', out)]
    return float(page.group(1)), float(page.group(2)), found


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


def texts_inside_and_apart(cases: list) -> None:
    """Each (name, figure)'s texts measured in Chromium: inside the figure, none on top of another."""
    import plotly
    from playwright.sync_api import sync_playwright

    script = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.set_content("<html><body style='margin:0'></body></html>")
        page.add_script_tag(content=script)
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
