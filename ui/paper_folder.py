"""The paper folder as a download: what `--paper DIR` writes, zipped in memory (nothing is written to disk)."""

from __future__ import annotations

from sigcore.report import paper
from sigcore.report.venues import DEFAULT as DEFAULT_VENUE

HELP = ("The sentence (its signature as a footnote), the table, the figure at ACL's column width with its caption, "
        "the JSON, a .bib, a reproduce script and a draft of ACL's checklist C3/C4, to \\input into the paper. "
        "Another venue, and later runs merged into one folder: `--paper DIR --venue V` on the command line.")


def _zipped(build, a: str, b: str) -> bytes:
    return paper.zipped(build(paper.drawer(DEFAULT_VENUE, a, b)))  # a figure kaleido cannot draw is left out


def button(column, build, key: str, a: str = "A", b: str = "B") -> None:
    """A download of ``build(draw)``'s entry (:mod:`sigcore.report.paper`), made when it is clicked; ``a`` and ``b``
    name a pair's systems in its figure."""
    column.download_button("Paper folder (.zip)", lambda: _zipped(build, a, b), file_name="sigcore_paper.zip",
                           mime="application/zip", on_click="ignore", width="stretch", key=key, help=HELP)
