"""What every published view of a ranking is made of (a board's, the ratings of judgments'): a self-contained HTML
page (no request leaves it: its style inline, a figure as inline SVG) and Markdown for a README or a model card.

One escape for each: on the page a name is shown as the terminal shows it (:func:`sigcore.words.printable`: a
newline, an escape or a bidi override as \\xNN or \\uNNNN), then HTML's escape, so it is never read as markup; in
Markdown, :func:`sigcore.report.export.md_escape`. The numbers are sigcore's own and kept as written.
"""

from __future__ import annotations

import html
import re

from ..words import printable
from . import export
from .export import md_escape

__all__ = ["STYLE", "html_escape", "html_table", "html_document", "svg_of", "inline_svg", "md_table"]

STYLE = ("body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}"
         "table{border-collapse:collapse;margin:1em 0;font-size:.92em;font-variant-numeric:tabular-nums}"
         "th,td{padding:.25em .45em;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}"
         "th:first-child,td:first-child{text-align:left}.wide{overflow-x:auto}"
         "p.small{font-size:.9em;color:#555}figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
         "code{word-break:break-all}")


def html_escape(text: str) -> str:
    """A text for the page: its control and bidi characters as the terminal shows them, then HTML's escape."""
    return html.escape(printable(text))


def html_table(header: list[str], rows: list[list[str]]) -> str:
    """A table in a box that scrolls sideways where the page is narrower than it; every cell escaped."""
    head = "".join(f"<th>{html_escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html_escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="wide"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def html_document(title: str, body: str) -> str:
    """One self-contained page: ``title`` (escaped) as its title and heading, then ``body`` (HTML, escaped by its
    maker)."""
    name = html_escape(title)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{name}</title><style>{STYLE}</style></head><body>\n<h1>{name}</h1>\n{body}</body></html>\n")


def svg_of(fig, name: str, width: int = 900) -> str:
    """A Plotly figure as SVG text for a page, ``width`` px wide and as tall as its layout, its random ids named
    ``name`` so that the same figure gives the same page byte for byte (needs plotly, kaleido and Chrome:
    :func:`sigcore.report.export.figure_image` raises where they are missing)."""
    for k, trace in enumerate(fig.data):  # plotly.js names each trace's group after its uid: random unless given
        trace.uid = f"{name}{k}"
    svg = export.figure_image(fig, "svg", width=width, height=int(fig.layout.height), scale=1).decode("utf-8")
    uid = re.search(r'id="defs-(\w+)"', svg)
    if uid is None:
        return svg
    # and its defs and clip paths after an id drawn at each export: one figure on the page, one name
    return re.sub(rf'((?:id="|url\(#|href="#)[A-Za-z-]*){re.escape(uid.group(1))}', rf"\1{name}", svg)


def inline_svg(svg: str) -> str:
    """An SVG document as an element of the page: its XML declaration and doctype dropped."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else ""


def md_table(header: list[str], rows: list[list[str]], names: int = 1) -> str:
    """A Markdown table: the first ``names`` columns are the user's text (escaped, left-aligned), the rest
    sigcore's numbers (right-aligned, only a "|" escaped)."""
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |",
             "|" + "|".join(":---" if k < names else "---:" for k in range(len(header))) + "|"]
    return "\n".join(lines + ["| " + " | ".join([*(md_escape(c) for c in row[:names]),
                                                 *(c.replace("|", "\\|") for c in row[names:])]) + " |"
                              for row in rows])
