"""The Venue box: whose column a paper's figure is drawn for (one choice for every page of a session)."""

from __future__ import annotations

import streamlit as st

from sigcore.report.style import Style, paper
from sigcore.report.venues import DEFAULT, VENUES

KEY = "paper-venue"


def label(key: str) -> str:
    """"ACL · column 7.7 cm, text 16 cm", "NeurIPS · one column, 5.5 in"."""
    return f"{VENUES[key].name} · {VENUES[key].sizes}"


def current(key: str = KEY) -> str:
    """The venue chosen in the Venue box ``key`` (else the session's, else the default): what every table, figure
    and paper folder the page downloads is made for, so that the app's table is the command line's at that venue."""
    for chosen in (st.session_state.get(key), st.session_state.get(KEY)):
        if chosen in VENUES:
            return chosen
    return DEFAULT


def choose(container=st, disabled: bool = False, key: str = KEY) -> Style:
    """The paper style at the venue chosen in ``container``'s Venue box (``key``: one box of several on a page,
    which starts at the session's venue)."""
    keys = list(VENUES)
    if st.session_state.get(key) not in keys:
        st.session_state[key] = st.session_state.get(KEY) if st.session_state.get(KEY) in keys else DEFAULT
    chosen = container.selectbox("Venue", keys, format_func=label, key=key, disabled=disabled,
                              help="A paper's figure is drawn at its venue's true column or text width, "
                                   "measured from the venue's class file or guide (docs/reference/figures.md).")
    return paper(chosen)
