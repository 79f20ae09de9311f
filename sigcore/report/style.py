"""Figure styles: a paper's (true size, 8–9 pt serif, black text, greyscale-safe colours, no title: the caption
carries it) and a slide's (large sans-serif text for the back row).

Each has two widths, named alike: "full", the medium's whole width (a paper's text width; a slide, 1280 px), and
"column", one column (a paper's ``\\columnwidth``; a two-column slide's column, 640 px). A paper's widths are its
venue's (:mod:`sigcore.report.venues`: ACL's column is 7.7 cm, its text 16 cm), and any length LaTeX knows
(``7.7cm``) is a width too. A paper's figure is a column by default, a slide's a whole slide.

Plotly and kaleido measure in CSS pixels, 96 to the inch; a paper measures in points, 72.27 to the inch. A figure
7.7 cm wide is 291 px wide, and 9 pt text is 12 px: placed at its true size, that is 9 pt on the page.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from ..errors import SettingsError
from ..words import printable
from .venues import DEFAULT, PT_PER_IN, Venue, length, shown, venue_named

__all__ = ["PX_PER_IN", "PX_PER_PT", "SERIF", "SANS", "VERMILLION", "GREY", "BLUE", "MINUS", "Style", "paper", "PAPER",
           "SLIDE", "STYLES", "BOARD_KINDS", "FIGURE_KINDS", "RESAMPLE", "rows_on_page", "axis_room", "plain", "wrap",
           "ems", "label", "style_named", "apply"]

PX_PER_IN, PX_PER_PT = 96, 96 / 72
SERIF = "'Times New Roman', Times, 'Liberation Serif', 'Nimbus Roman', 'TeX Gyre Termes', serif"
SANS = "'Open Sans', 'Liberation Sans', Arial, sans-serif"
# Okabe & Ito's colour-blind-safe vermillion, and a grey that stays lighter than it in greyscale (47% vs 73%)
VERMILLION, GREY, BLUE = "#D55E00", "#BBBBBB", "#0072B2"
MINUS = "\u2212"  # a real minus sign, as papers print negatives ("A − B", "−0.40")


@dataclass(frozen=True)
class Style:
    name: str
    text: float  # px: axis titles, labels, legend
    tick: float  # px: tick labels
    family: str
    ink: str  # text, axes and lines
    counted: str  # bars counted in p; significant marks
    body: str  # bars not counted; marks not significant
    widths: dict[str, float]  # px, by name: "column" and "full" (the module's docstring)
    sizes: dict[str, str]  # each width as its reader knows it: "one column, 3.3 in"
    default_width: str  # the width of a figure when none is asked for
    height: float  # px of a one-panel figure
    dpi: int  # of a PNG
    line: float  # px of marked lines
    venue: Venue | None = None  # a paper's: where its widths come from

    def width(self, name: str | None = None) -> float:
        """The width ``name`` in pixels: "column", "full", a length (``7.7cm``; a paper's only), or the style's
        default width if None."""
        name = self.width_name(name)
        return self.widths[name] if name in self.widths else length(name) / PT_PER_IN * PX_PER_IN

    def width_name(self, name: str | None = None) -> str:
        """``name`` if the style has that width or it is a length a paper's figure can take; its default if None."""
        name = self.default_width if name is None else name
        if name in self.widths:
            return name
        choices = " or ".join(f"{w} ({self.sizes[w]})" for w in self.widths)
        if self.venue is None:
            raise SettingsError(f"unknown width {name!r} for a {self.name} figure", hint=f"Choose {choices}.")
        length(name)  # refused with what a width is
        return name

    def describe(self, width: str | None = None) -> str:
        """What a figure of this style and width is: "paper: one column of ACL, 7.7 cm", "slide: a whole slide,
        1280 px", "paper: 5 cm wide"."""
        name = self.width_name(width)
        return f"{self.name}: {self.sizes[name] if name in self.sizes else shown(length(name)) + ' wide'}"

    def spans_columns(self, width: str | None = None) -> bool:
        """Whether a figure ``width`` wide is wider than a column of a two-column venue: its float is ``figure*``."""
        return self.venue is not None and self.venue.columns == 2 and self.width(width) > self.widths["column"] + 0.5

    @property
    def row(self) -> float:
        """The height of one line of text: a label row above a panel."""
        return round(1.3 * self.text, 1)




def paper(venue: str | Venue = DEFAULT) -> Style:
    """The paper style at ``venue``'s widths (a key of :data:`sigcore.report.venues.VENUES`, or a Venue)."""
    venue = venue_named(venue) if isinstance(venue, str) else venue
    px = {"column": venue.column / PT_PER_IN * PX_PER_IN, "full": venue.text / PT_PER_IN * PX_PER_IN}
    column = (f"one column of {venue.name}, {shown(venue.column)}" if venue.columns == 2 else
              f"{venue.name}'s text width (one column), {shown(venue.column)}")
    return Style("paper", text=9 * PX_PER_PT, tick=8 * PX_PER_PT, family=SERIF, ink="black", counted=VERMILLION,
                 body=GREY, widths=px, sizes={"column": column, "full": f"{venue.name}'s text width, "
                                                                     f"{shown(venue.text)}"},
                 default_width="column", height=2.3 * PX_PER_IN, dpi=300, line=1.2, venue=venue)


PAPER = paper()
# a 16:9 slide is 1280 × 720 px; 560 px of it lie below the slide's title
SLIDE = Style("slide", text=22, tick=20, family=SANS, ink="black", counted=VERMILLION, body=GREY,
              widths={"column": 640, "full": 1280},
              sizes={"column": "one column of a two-column slide, 640 px", "full": "a whole slide, 1280 px"},
              default_width="full", height=560, dpi=192, line=3)
STYLES = {s.name: s for s in (PAPER, SLIDE)}
BOARD_KINDS = ("ranks", "cd", "nemenyi")  # of models on many tasks (sigcore.report.board_figures)
FIGURE_KINDS = ("histogram", "null", "convergence", "forest", *BOARD_KINDS)  # of a result, a family (forest), a board


# x^(i), the i-th resample, as Plotly's <sup> so that it is set in the figure's own font: Times-like serifs
# (and Liberation Sans) have no superscript parentheses or i, which Chromium would take from DejaVu Sans
RESAMPLE = "x<sup>(i)</sup>"


def rows_on_page(n: int, style: Style) -> tuple[int, float]:
    """(rows, pitch in px) of a figure of ``n`` rows, one per name (a board's ranks), with a rank axis below: 1.8
    lines of text a row, closer where a page would not hold them (down to 1.25 tick labels), and where even that
    is taller than four fifths of the venue's text height (room for the caption), only the rows that fit."""
    pitch, fixed = 1.8 * style.text, axis_room(style)
    if style.venue is None:  # a slide or the screen: as tall as it takes
        return n, pitch
    page = 0.8 * style.venue.height / PT_PER_IN * PX_PER_IN
    if fixed + pitch * n <= page:
        return n, pitch
    closest = 1.25 * style.tick
    if (page - fixed) / n >= closest:
        return n, (page - fixed) / n
    return max(1, int((page - fixed) // closest)), closest


def axis_room(style: Style) -> float:
    """px below and above a rows figure's rows: the axis's tick labels and title, and a line's margin."""
    return 2 * style.tick + 2.6 * style.row


def plain(text: str) -> str:
    """A Plotly label as the reader sees it: tags dropped, entities read, ``<br>`` a space."""
    return html.unescape(re.sub(r"<[^>]*>", "", text.replace("<br>", " ")))


def wrap(parts: list[str], style: Style, room: float) -> str:
    """A label in as few lines as fit ``room`` pixels (at about half an em per character), broken only between
    ``parts``."""
    lines = [parts[0]]
    for part in parts[1:]:
        joined = f"{lines[-1]} {part}"
        if 0.5 * style.text * len(plain(joined)) <= room:
            lines[-1] = joined
        else:
            lines.append(part)
    return "<br>".join(lines)


# a character's width in ems, a little over Times', Liberation Sans' and Source Sans' own: room is never short
_WIDE, _NARROW = set("MW@%"), set("ijlftrI.,:;'|!()[]/- ")


def ems(text: str) -> float:
    """About how many ems ``text`` (plain) takes in the figures' fonts, erring wide."""
    return sum(0.95 if c in _WIDE else 0.85 if c in "mw" else 0.35 if c in _NARROW else 0.72 if c.isupper()
               else 1.0 if ord(c) > 0x2E80 else 0.52 for c in text)


def label(name: str) -> str:
    """A system's name as literal text in a Plotly label: HTML-escaped, on one line (Plotly reads a subset of
    HTML: ``<b>``, ``<br>``, ``<a href>``)."""
    return html.escape(printable(" ".join(str(name).split())), quote=True)  # no control character: SVG is XML


def style_named(name: str, venue: str = DEFAULT) -> Style:
    """The style ``name``; a paper's at ``venue``'s widths."""
    if name not in STYLES:
        raise SettingsError(f"unknown figure style {name!r}", hint=f"Choose one of: {', '.join(STYLES)}.")
    return paper(venue) if name == "paper" else STYLES[name]


def apply(fig: Any, style: Style, width: str | None = None, height: float | None = None, *,
          title: str | None = None) -> Any:
    """``fig`` at ``style``'s size, fonts and ink: no title, every text in the style's family and colour, ticks
    at the tick size, a white background. The builders place the marks; this sets what every figure shares.

    ``title`` (plain text: what the figure shows) is kept in ``layout.meta``, not drawn: a PDF of the figure
    carries it as its document title (:func:`sigcore.report.export.styled_image`)."""
    axis: dict[str, Any] = dict(tickfont=dict(size=style.tick), title=dict(font=dict(size=style.text)),
                                linecolor=style.ink, tickcolor=style.ink, linewidth=max(style.line * 0.6, 1))
    fig.update_layout(  # a template of its own: importing streamlit makes its template plotly's default
        template="simple_white", title=None, width=style.width(width), height=height or style.height,
        plot_bgcolor="white", paper_bgcolor="white", font=dict(family=style.family, size=style.text, color=style.ink),
        legend=dict(font=dict(size=style.text)),
    )
    if title is not None:
        fig.update_layout(meta=dict(title=title))
    fig.update_xaxes(**axis)
    fig.update_yaxes(**axis)
    for shape in fig.layout.shapes:
        shape.opacity = 1  # simple_white draws shapes at 40%: marks and thresholds are full black
    for note in fig.layout.annotations:
        note.font.size, note.font.family = style.text, style.family
        note.font.color = style.ink
    return fig
