"""Where a paper's figure goes: each venue's column and text width, and where its tables' captions sit.

Widths are in TeX points (72.27 to the inch), as ``\\the\\columnwidth`` prints them, each with its source: the
class file where Debian's TeX Live ships it (texlive-publishers: IEEEtran, acmart, llncs; ``tests/test_venues.py``
compiles each and reads its widths back), else the venue's published formatting guide. ``column`` is
``\\columnwidth``: in a one-column venue it is the text width, as LaTeX has it.

A figure's width is a venue's "column" or "full" (text) width, or any length LaTeX knows: :func:`length`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import SettingsError

__all__ = ["PT_PER_IN", "CM", "Venue", "VENUES", "DEFAULT", "venue_named", "length", "shown"]

PT_PER_IN = 72.27  # TeX's point; PostScript's "big point" (bp) is 1/72 in
CM = PT_PER_IN / 2.54


@dataclass(frozen=True)
class Venue:
    key: str  # --venue acl
    name: str  # as a caption or a message says it
    column: float  # pt: \columnwidth
    text: float  # pt: \textwidth
    paper: str  # A4, US letter
    table_caption: str  # "above" or "below" the table
    source: str  # where the widths and the caption rule come from
    height: float  # pt: \textheight, which a figure's float must fit in

    @property
    def columns(self) -> int:
        return 1 if self.column == self.text else 2

    @property
    def sizes(self) -> str:
        """"column 7.7 cm, text 16 cm", or "one column, 5.5 in"."""
        return f"column {shown(self.column)}, text {shown(self.text)}" if self.columns == 2 else \
            f"one column, {shown(self.text)}"


VENUES: dict[str, Venue] = {v.key: v for v in [
    Venue("acl", "ACL", 7.7 * CM, 16.0 * CM, "A4", "below",
          "ACL's formatting guide for *ACL venues: ACL, EMNLP, NAACL, EACL, Findings "
          "(acl-org.github.io/ACLPUB/formatting.html): column 7.7 cm, text 16 cm, A4; acl.sty's \\columnwidth is "
          "219.09 pt; captions below tables, as its template's example; text 24.7 cm high (2.5 cm margins)",
          height=24.7 * CM),
    Venue("icml", "ICML", 3.25 * PT_PER_IN, 6.75 * PT_PER_IN, "US letter", "above",
          "ICML's example paper and style guide (icml20xx.sty): two columns of 3.25 in, text 6.75 in; "
          "table captions above the table; text 9 in high", height=9.0 * PT_PER_IN),
    Venue("neurips", "NeurIPS", 5.5 * PT_PER_IN, 5.5 * PT_PER_IN, "US letter", "above",
          "NeurIPS's formatting instructions (neurips_20xx.sty): one column, text 5.5 in wide; "
          "\"the table number and title always appear before the table\"; text 9 in high",
          height=9.0 * PT_PER_IN),
    Venue("iclr", "ICLR", 5.5 * PT_PER_IN, 5.5 * PT_PER_IN, "US letter", "above",
          "ICLR's formatting instructions (iclr20xx_conference.sty, after NeurIPS's): one column, text 5.5 in; "
          "table captions above; text 9 in high", height=9.0 * PT_PER_IN),
    Venue("ieee", "IEEE", 252.0, 516.0, "US letter", "above",
          "IEEEtran.cls [conference], TeX Live 2022: \\columnwidth 252 pt, \\textwidth 516 pt; IEEE's table "
          "captions go above the table; \\textheight 672 pt", height=672.0),
    Venue("acm", "ACM sigconf", 241.14749, 506.295, "US letter", "above",
          "acmart.cls [sigconf], TeX Live 2022: \\columnwidth 241.14749 pt, \\textwidth 506.295 pt; acmart's "
          "guide puts table captions above; \\textheight 626 pt", height=626.0),
    Venue("aaai", "AAAI", 3.3 * PT_PER_IN, 7.0 * PT_PER_IN, "US letter", "below",
          "AAAI's author kit (aaai2x.sty): two columns of 3.3 in, text 7.0 in; its instructions state no side "
          "for table captions: below, as ACL's; text 9.25 in high", height=9.25 * PT_PER_IN),
    Venue("lncs", "LNCS", 347.12354, 347.12354, "A4", "above",
          "llncs.cls, TeX Live 2022: one column, \\textwidth 347.12354 pt (12.2 cm); Springer puts table "
          "captions above; \\textheight 549.13828 pt", height=549.13828),
]}
DEFAULT = "acl"

_UNITS = {"pt": 1.0, "bp": PT_PER_IN / 72, "in": PT_PER_IN, "cm": CM, "mm": CM / 10, "pc": 12.0,
          "dd": 1238 / 1157, "cc": 12 * 1238 / 1157, "sp": 1 / 65536, "px": PT_PER_IN / 96}
_LENGTH = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-z]{2})\s*", re.ASCII)


def venue_named(key: str) -> Venue:
    if key not in VENUES:
        raise SettingsError(f"unknown venue {key!r}", hint="Choose one of: " + ", ".join(
            f"{v.key} ({v.name})" for v in VENUES.values()) + "; or give a width (--width 7.7cm).")
    return VENUES[key]


def length(text: str, what: str = "width") -> float:
    """A length as LaTeX writes it (``7.7cm``, ``3.25in``, ``219.09pt``, ``241bp``; also ``px``, 96 to the inch)
    in TeX points, a figure's ``what`` (its width or height). Relative units (em, ex, ``\\columnwidth``) depend
    on the document, so they are refused."""
    match = _LENGTH.fullmatch(text)
    if match is None or match.group(2) not in _UNITS:
        raise SettingsError(f"{text!r} is not a {what}", hint="Give a number and a unit: 7.7cm, 3.25in, 219pt "
                            f"({', '.join(_UNITS)})" + ("; or column or full, the venue's widths." if what == "width"
                                                         else "."))
    points = float(match.group(1)) * _UNITS[match.group(2)]
    if not 0.5 * PT_PER_IN <= points <= 20 * PT_PER_IN:
        raise SettingsError(f"a {what} of {text} is not a figure's", hint=f"Give a {what} between 0.5 in and 20 in.")
    return points


def shown(points: float) -> str:
    """7.7 cm, 3.25 in, 252 pt: a width as its source gives it."""
    for unit, digits in (("in", 2), ("cm", 2)):
        value = points / _UNITS[unit]
        if abs(value - round(value, digits)) < 1e-6:
            return f"{round(value, digits):g} {unit}"
    return f"{points:.5g} pt"
