"""The paper folder as a download: what `--paper DIR` writes, zipped in memory (nothing is written to disk), at the
session's venue, and merged into a folder downloaded before when its zip is given back."""

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


def _zipped(build, a: str, b: str, venue: str = DEFAULT, earlier: dict[str, bytes] | None = None) -> bytes:
    entry = build(paper.drawer(venue, a, b))
    return paper.zipped(entry, earlier)


def button(column, build, key: str, a: str = "A", b: str = "B", venue: str | None = None) -> None:
    """A download of ``build(draw)``'s entry (:mod:`sigcore.report.paper`) at ``venue`` (default: the session's
    Venue box), made when it is clicked, merged into the folder whose zip is given below it; ``a`` and ``b`` name
    a pair's systems in its figure."""
    venue = venue if venue in VENUES else st.session_state.get(venues.KEY, DEFAULT)
    venue = venue if venue in VENUES else DEFAULT
    earlier = _earlier(key)
    column.download_button("Paper folder (.zip)", lambda: _zipped(build, a, b, venue, earlier),
                           file_name="sigcore_paper.zip", mime="application/zip", on_click="ignore",
                           width="stretch", key=key, help=_help(venue), disabled=earlier is False)


def _earlier(key: str) -> dict[str, bytes] | None | bool:
    """The files of the earlier folder's zip given in the uploader under the button (None: none given; False: one
    that cannot be used, said in the page)."""
    with st.expander("Add to a paper folder downloaded before"):
        upload = st.file_uploader("Its .zip", type="zip", key=f"{key}-earlier",
                                  help="The download then holds that folder with this result merged into it: each "
                                       "reference once in sigcore.bib, one reproduce.sh, one checklist.")
        if upload is None:
            return None
        try:
            files = paper.unzipped(upload.getvalue(), upload.name)
        except SigcoreError as e:
            st.error(md(str(e)), icon="⚠️")
            return False
        st.caption(md(f"{upload.name}: {len(files)} files; the download adds this result to them."))
        return files
