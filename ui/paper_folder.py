"""The paper folder as a download: what `--paper DIR` writes, zipped in memory (nothing is written to disk)."""

from __future__ import annotations

from sigcore.errors import SettingsError
from sigcore.report import export, paper
from sigcore.report.style import paper as paper_style
from sigcore.report.venues import DEFAULT as DEFAULT_VENUE

HELP = ("The sentence (its signature as a footnote), the table, the figure at ACL's column width with its caption, "
        "the JSON, a .bib, a reproduce script and a draft of ACL's checklist C3/C4, to \\input into the paper. "
        "Another venue, and later runs merged into one folder: `--paper DIR --venue V` on the command line.")


def _drawer(a: str, b: str):
    def draw(what) -> bytes:
        from sigcore import Many
        from sigcore.report.family_figures import forest
        from sigcore.report.figures import figure

        style = paper_style(DEFAULT_VENUE)
        fig = forest(what, style=style) if isinstance(what, Many) else figure(what, "histogram", style=style, a=a, b=b)
        return export.styled_image(fig, "pdf", style)
    return draw


def _zipped(build, a: str, b: str) -> bytes:
    try:
        return paper.zipped(build(_drawer(a, b)))
    except SettingsError:  # no browser for kaleido here: the folder without its figure
        return paper.zipped(build(None))


def button(column, build, key: str, a: str = "A", b: str = "B") -> None:
    """A download of ``build(draw)``'s entry (:mod:`sigcore.report.paper`), made when it is clicked; ``a`` and ``b``
    name a pair's systems in its figure."""
    column.download_button("Paper folder (.zip)", lambda: _zipped(build, a, b), file_name="sigcore_paper.zip",
                           mime="application/zip", on_click="ignore", width="stretch", key=key, help=HELP)
