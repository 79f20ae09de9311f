"""The walk-through as one slide: the histogram, Figure 4.12's code with its running lines, the counters and
the table of x and the last x^(i), drawn from the same frame the page shows, for a PNG or SVG at 1920 x 1080."""

from __future__ import annotations

import html
import textwrap

import plotly.graph_objects as go

SIZE = {"width": 1920, "height": 1080}
FONT, CODE_FONT, SMALL = 24, 22, 15  # pixels: readable from the back of a lecture hall
OK, NO, MARKED, NOW = "#1e8449", "#c0392b", "#fbe3e0", "#ffe08a"
CHART = {"x": (0.05, 0.52), "y": (0.6, 0.9)}  # the histogram's part of the slide (paper coordinates)
CODE_LEFT, CODE_WIDTH, ASIDE_WIDTH, LINE = 0.565, 58, 70, 0.036  # left edge, characters a line, line height
COUNTERS, TABLE_TOP, ROW = 0.47, 0.415, 0.048  # heights of the counters, the table's head and its rows
COLUMNS = [0.02] + [0.06 + 0.042 * k for k in range(10)] + [0.5, 0.55, 0.6, 0.68]  # x of each column


def coloured(text: str) -> str:
    """A cell as the page colours it: in the book's AB̸ a struck-through letter is red, a plain one green;
    ✓ green and ✗ red. Escaped first: Plotly reads a few HTML tags in its texts."""
    text = str(text)
    chars, out = list(text), []
    book = len(text) in (2, 3, 4) and text[0] == "A" and "B" in text
    k = 0
    while k < len(chars):
        ch = chars[k]
        if book and k + 1 < len(chars) and chars[k + 1] == "\u0338":
            ch, colour, k = ch + chars[k + 1], NO, k + 1
        else:
            colour = OK if book or ch == "✓" else NO if ch == "✗" else None
        out.append(f'<span style="color:{colour}">{html.escape(ch)}</span>' if colour else html.escape(ch))
        k += 1
    return "".join(out)


def slide(figure: go.Figure, shown: dict, code: list[str], header: list[str], aside: str | None = None) -> go.Figure:
    """``figure`` (the walk-through's histogram, 24 px) with the bars of frame ``shown`` and, beside and below
    it, the code (or the ``aside`` text in its place, as on the page), the counters and the table of that
    frame: what the page shows at that moment."""
    fig = go.Figure(figure)
    for trace, y in zip(fig.data, shown["y"]):
        trace.y, trace.marker.line = y, dict(width=0)
    for trace, bar in shown.get("grew") or []:  # the bar that just grew, outlined as on the page
        fig.data[trace].marker.line = dict(width=[4 if k == bar else 0 for k in range(len(fig.data[trace].y))],
                                           color="#e0a800")
    left, right = CHART["x"]
    for axis in fig.select_xaxes():  # one panel, or two side by side, into the chart's part
        low, high = axis.domain or (0, 1)
        axis.domain = [left + (right - left) * low, left + (right - left) * high]
    fig.update_layout(yaxis_domain=list(CHART["y"]), margin=dict(l=0, r=0, t=0, b=0), showlegend=False, **SIZE)
    shapes, notes = list(fig.layout.shapes), list(fig.layout.annotations)

    def text(x: float, y: float, value: str, *, size: int = FONT, anchor: str = "center", mono: bool = False,
             colour: str = "#31333f", valign: str = "middle") -> None:
        notes.append(dict(xref="paper", yref="paper", x=x, y=y, text=value, showarrow=False, xanchor=anchor,
                          yanchor=valign, font=dict(size=size, color=colour,
                                                    family="DejaVu Sans Mono, monospace" if mono else None)))

    def box(x0: float, x1: float, y0: float, y1: float, fill: str, line: str | None = None) -> None:
        shapes.append(dict(type="rect", xref="paper", yref="paper", x0=x0, x1=x1, y0=y0, y1=y1, fillcolor=fill,
                           line=dict(width=2 if line else 0, color=line), layer="below"))

    y = 0.97
    if aside:  # "Why 2·δ(x)?": the explanation stands where the code was
        lines = [part for paragraph in aside.split("\n") for part in textwrap.wrap(paragraph, ASIDE_WIDTH)]
        box(CODE_LEFT - 0.01, 0.995, y - LINE * len(lines) - 0.01, y + 0.01, "#eaf3fc")
        for line in lines:
            text(CODE_LEFT, y - LINE / 2, html.escape(line), anchor="left", colour="#0b4a8b")
            y -= LINE
    else:  # Figure 4.12, its long lines wrapped with a hanging indent, the running lines on yellow
        running = shown.get("lines") or (-1, -1)
        box(CODE_LEFT - 0.01, 0.995, y - LINE * sum(len(_wrap(line)) for line in code) - 0.01, y + 0.01, "#f6f7f9")
        for k, line in enumerate(code):
            parts = _wrap(line)
            if running[0] <= k <= running[1]:
                box(CODE_LEFT - 0.005, 0.99, y - LINE * len(parts), y, NOW)
            for part in parts:
                text(CODE_LEFT, y - LINE / 2, html.escape(part).replace(" ", "&nbsp;"), size=CODE_FONT,
                     anchor="left", mono=True)
                y -= LINE

    texts = shown["texts"]
    counters = [(texts.get("k-b-name", "b"), texts.get("k-b", "")), ("s", texts.get("k-s", "")),
                (texts.get("k-sb-name", "s / b"), texts.get("k-sb", "")), ("exact p", texts.get("k-exact", ""))]
    text(0.02, COUNTERS, "     ".join(f"{name} <b>{html.escape(value)}</b>" for name, value in counters), size=30,
         anchor="left")
    text(0.98, COUNTERS, html.escape(texts.get("count", "")), anchor="right")

    y = TABLE_TOP
    for x, name in zip(COLUMNS, header):
        text(x, y, f"<b>{html.escape(name)}</b>")
    for row in shown.get("rows") or []:
        y -= ROW
        if row["marked"]:
            box(0, COLUMNS[-1] + 0.06, y - ROW / 2, y + ROW / 2, MARKED)
        for x, value in zip(COLUMNS, row["cells"]):
            note, cell, *now = value if isinstance(value, list) else ("", value)
            if now:
                box(x - 0.019, x + 0.019, y - ROW / 2 + 0.003, y + ROW / 2 - 0.003, NOW, line="#e0a800")
            text(x, y - 0.008, coloured(cell))
            if note:
                text(x, y + ROW / 2 - 0.004, html.escape(note), size=SMALL, colour="#8a8f98", valign="top")
    fig.update_layout(shapes=shapes, annotations=notes)
    return fig


def _wrap(line: str) -> list[str]:
    if len(line) <= CODE_WIDTH:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    return textwrap.wrap(line.strip(), CODE_WIDTH, initial_indent=indent, subsequent_indent=indent + "    ")
