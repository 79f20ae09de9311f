"""The paper folder as a download: what `--paper DIR` writes, zipped in memory (nothing is written to disk), at the
session's venue, and merged into a folder downloaded before when its zip is given back (under the same rule as
`--paper`: a file sigcore did not write, or one changed since, is replaced only when asked to)."""

from __future__ import annotations

import streamlit as st

from sigcore.errors import SigcoreError
from sigcore.report import paper
from sigcore.report.venues import DEFAULT, VENUES

from . import venue as venues
from .safe import md


def _help(key: str) -> str:
    return (f"The sentence (its signature as a footnote), the table, the figure at {VENUES[key].name}'s column width "
            "(the Venue box) with its caption, the JSON, a .bib, a reproduce script and a draft of ACL's checklist "
            "C3/C4, to \\input into the paper. To add this result to a folder downloaded before (one .bib, one "
            "script), give its zip below.")


def _zipped(build, a: str, b: str, venue: str = DEFAULT, earlier: dict[str, bytes] | None = None,
            replace: bool = False) -> bytes:
    entry = build(paper.drawer(venue, a, b), venue)  # the table's caption and the figure both at the venue
    return paper.zipped(entry, earlier, replace=replace)


def _no_figure(what) -> bytes:
    """A figure's stand-in for the check before the download: the entry's files by name, without drawing."""
    return b""


def button(column, build, key: str, a: str = "A", b: str = "B", venue: str | None = None) -> None:
    """A download of ``build(draw, venue)``'s entry (:mod:`sigcore.report.paper`) at ``venue`` (default: the
    session's Venue box; the table and the figure alike, as ``--paper DIR --venue``), made when it is clicked, merged
    into the folder whose zip is given below it; ``a`` and ``b`` name a pair's systems in its figure."""
    venue = venue if venue in VENUES else venues.current()
    earlier, replace = _earlier(key, build, venue)
    column.download_button("Paper folder (.zip)", lambda: _zipped(build, a, b, venue, earlier, replace),
                           file_name="sigcore_paper.zip", mime="application/zip", on_click="ignore",
                           width="stretch", key=key, help=_help(venue), disabled=earlier is False)


def _earlier(key: str, build, venue: str) -> tuple[dict[str, bytes] | None | bool, bool]:
    """The files of the earlier folder's zip given in the uploader under the button (None: none given; False: one
    that cannot be used, said in the page), and whether to replace its files that sigcore did not write."""
    with st.expander("Add to a paper folder downloaded before"):
        upload = st.file_uploader("Its .zip", type="zip", key=f"{key}-earlier",
                                  help="The download then holds that folder with this result merged into it: each "
                                       "reference once in sigcore.bib, one reproduce.sh, one checklist.")
        if upload is None:
            return None, False
        try:
            files = paper.unzipped(upload.getvalue(), upload.name)
        except SigcoreError as e:
            st.error(md(str(e)), icon="⚠️")
            return False, False
        try:  # the merge, checked now (figures by name only): the download cannot say what it refused
            paper.zipped(build(_no_figure, venue), files, name=upload.name)
        except SigcoreError as e:
            st.error(md(str(e)), icon="⚠️")
            if not st.checkbox("Replace them", key=f"{key}-replace",
                               help="The download then holds this result's files in their place; the zip you gave "
                                    "is not changed."):
                return False, False
            return files, True
        st.caption(md(f"{upload.name}: {len(files)} files; the download adds this result to them."))
        return files, False
