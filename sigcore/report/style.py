"""Figure styles: a paper's (true size, 8–9 pt serif, black text, greyscale-safe colours, no title: the caption
carries it) and a slide's (large sans-serif text for the back row).

Plotly and kaleido measure in CSS pixels, 96 to the inch; a paper measures in points, 72 to the inch. A figure
3.3 in wide is 316.8 px wide, and 9 pt text is 12 px: placed at its true size, that is 9 pt on the page.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from ..errors import SettingsError

PX_PER_IN, PX_PER_PT = 96, 96 / 72
SERIF = "'Times New Roman', Times, 'Liberation Serif', 'Nimbus Roman', 'TeX Gyre Termes', serif"
SANS = "'Open Sans', 'Liberation Sans', Arial, sans-serif"
# Okabe & Ito's colour-blind-safe vermillion, and a grey that stays lighter than it in greyscale (47% vs 73%)
VERMILLION, GREY, BLUE = "#D55E00", "#BBBBBB", "#0072B2"


@dataclass(frozen=True)
class Style:
    name: str
    text: float  # px: axis titles, labels, legend
    tick: float  # px: tick labels
    family: str
    ink: str  # text, axes and lines
    counted: str  # bars counted in p; significant marks
    body: str  # bars not counted; marks not significant
    widths: dict[str, float]  # px, by name
    height: float  # px of a one-panel figure
    dpi: int  # of a PNG
    line: float  # px of marked lines

    def width(self, name: str) -> float:
        if name not in self.widths:
            raise SettingsError(f"unknown width {name!r}", hint=f"Choose one of: {', '.join(self.widths)}.")
        return self.widths[name]

    @property
    def row(self) -> float:
        """The height of one line of text: a label row above a panel."""
        return round(1.3 * self.text, 1)


PAPER = Style("paper", text=9 * PX_PER_PT, tick=8 * PX_PER_PT, family=SERIF, ink="black", counted=VERMILLION,
              body=GREY, widths={"column": 3.3 * PX_PER_IN, "full": 6.9 * PX_PER_IN},  # ACL's column, text width
              height=2.3 * PX_PER_IN, dpi=300, line=1.2)
SLIDE = Style("slide", text=22, tick=20, family=SANS, ink="black", counted=VERMILLION, body=GREY,
              widths={"column": 640, "full": 1280}, height=560, dpi=192, line=3)
STYLES = {s.name: s for s in (PAPER, SLIDE)}
WIDTHS = ("column", "full")
FIGURE_KINDS = ("histogram", "null", "convergence", "forest")  # of a result, and of a family (forest)


def label(name: str) -> str:
    """A system's name as literal text in a Plotly label: HTML-escaped, on one line (Plotly reads a subset of
    HTML: ``<b>``, ``<br>``, ``<a href>``)."""
    return html.escape(" ".join(str(name).split()), quote=True)


def style_named(name: str) -> Style:
    if name not in STYLES:
        raise SettingsError(f"unknown figure style {name!r}", hint=f"Choose one of: {', '.join(STYLES)}.")
    return STYLES[name]


def apply(fig: Any, style: Style, width: str, height: float | None = None) -> Any:
    """``fig`` at ``style``'s size, fonts and ink: no title, every text in the style's family and colour, ticks
    at the tick size, a white background. The builders place the marks; this sets what every figure shares."""
    axis: dict[str, Any] = dict(tickfont=dict(size=style.tick), title=dict(font=dict(size=style.text)),
                                linecolor=style.ink, tickcolor=style.ink, linewidth=max(style.line * 0.6, 1))
    fig.update_layout(  # a template of its own: importing streamlit makes its template plotly's default
        template="simple_white", title=None, width=style.width(width), height=height or style.height, plot_bgcolor="white",
        paper_bgcolor="white", font=dict(family=style.family, size=style.text, color=style.ink),
        legend=dict(font=dict(size=style.text)),
    )
    fig.update_xaxes(**axis)
    fig.update_yaxes(**axis)
    for shape in fig.layout.shapes:
        shape.opacity = 1  # simple_white draws shapes at 40%: marks and thresholds are full black
    for note in fig.layout.annotations:
        note.font.size, note.font.family = style.text, style.family
        note.font.color = style.ink
    return fig
