"""The Classroom's sections in presenter mode: which one is on the screen, the switch between them, and their size.

Presenter mode (``?presenter=1``) shows one section at a time, at 24 px on one screen: the walk-through of SLP3 Figures
4.11/4.12 (:mod:`ui.walkthrough`), what a p-value means, power, each of the common mistakes, or the three tests on the
same data. The switch is a select box docked in the screen's bottom-right corner (the walk-through has no spare row);
the section is kept in the URL (``?presenter=1&section=power``), so a slide's link opens it. The parts not on the
screen keep their state (the walk-through's draws, speed and view, each section's settings): Streamlit forgets a
widget's value in a run that does not draw it, unless the value is assigned back (:func:`keep_hidden`,
:func:`keep_closed`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from sigcore.i18n import N_, _

from .figure import config
from .walkthrough import keep, leave_switch, url_value

WALK_THROUGH = "walk-through"
MISTAKES = {"many-comparisons": N_("Many comparisons"), "peeking": N_("Peeking"),  # the tabs of section 5
            "not-significant": N_("“Not significant” ≠ “equal”"), "one-sided": N_("One-sided or two-sided"),
            "p-is-not-h0": N_("p ≠ P(H0 is true)"), "not-important": N_("Significant ≠ important")}
# URL value -> (number, label): the walk-through, sections 3 and 4, each mistake of section 5, section 6
SECTIONS = {WALK_THROUGH: ("1–2", N_("The walk-through")), "p-values": ("3", N_("p-values under H0")),
            "power": ("4", N_("Power")), **{name: ("5", label) for name, label in MISTAKES.items()},
            "three-tests": ("6", N_("Three tests, same data"))}
# each section's widgets (kept while another is shown), and the toggle that opens it on the page
WIDGETS = {
    WALK_THROUGH: ("walk-pace", "walk-shift", "walk-chart"),  # x, seed, α and language: walkthrough.test_set keeps
    "p-values": ("pv-test", "pv-n", "pv-sims", "pv-alpha"),
    "power": ("power-a", "power-b", "power-agreement"),
    "many-comparisons": ("pit-k", "pit-k-alpha"), "peeking": ("pit-step", "pit-peek-alpha"),
    "not-significant": ("pit-n", "pit-gap"), "one-sided": ("pit-side-n", "pit-side-alpha"),
    "p-is-not-h0": ("pit-h0-share", "pit-h0-alpha"), "not-important": ("pit-imp-n", "pit-imp-matters"),
    "three-tests": ("three-copies",),
}
REACH = {"p-values": "reach-p-values", "power": "reach-power", **{name: "reach-mistakes" for name in MISTAKES},
         "three-tests": "reach-three-tests"}
KEY = "presenter-section"

DOCK_CSS = """<style>
.st-key-presenter-switch { position: fixed; right: 1.2rem; bottom: 0.4rem; z-index: 1000; width: 24rem;
  background: white; border-radius: 0.5rem; box-shadow: 0 0 0.4rem rgba(0, 0, 0, 0.25); padding: 0.2rem; }
.st-key-presenter-switch [data-testid="stSelectbox"] input { font-size: 24px !important; }
[data-baseweb="popover"] [role="option"] { font-size: 24px !important; line-height: 1.4; }
</style>"""
# one section on one screen: its texts at 24 px, and the chart given the height the rows above and below leave
VIEW_CSS = """<style>
[data-testid="stMainBlockContainer"] > [data-testid="stVerticalBlock"] { height: calc(100vh - 0.4rem); }
[data-testid="stLayoutWrapper"]:has(> .st-key-presenter-view),
[data-testid="stLayoutWrapper"]:has(> .st-key-presenter-chart)
  { flex: 1 1 0 !important; min-height: 0; display: flex; flex-direction: column; }
.st-key-presenter-view, .st-key-presenter-chart { flex: 1 1 0 !important; min-height: 0; }
.st-key-presenter-chart > div { flex: 1 1 auto !important; }
.st-key-presenter-view [data-testid="stWidgetLabel"] p, .st-key-presenter-view [data-testid="stWidgetLabel"],
.st-key-presenter-view [data-testid="stCheckbox"] label p, .st-key-presenter-view [data-testid="stSelectbox"] input,
.st-key-presenter-view [data-testid="stSliderThumbValue"], .st-key-presenter-view [data-testid="stMetricLabel"] p,
.st-key-presenter-view [data-testid="stMarkdownContainer"] p, .st-key-presenter-view [data-testid="stTable"] th,
.st-key-presenter-view [data-testid="stTable"] td
  { font-size: 24px !important; line-height: 1.25; }
.st-key-presenter-view [data-testid="stMetricLabel"] { height: auto; min-height: 0; }
.st-key-presenter-view [data-testid="stMetricLabel"] p { white-space: normal !important; overflow: visible; }
.st-key-presenter-view [data-testid="stMetricValue"] p { font-size: 40px !important; line-height: 1.2; }
.st-key-presenter-view [data-testid="stSliderThumbValue"] p { font-size: 24px !important; }
.st-key-presenter-view [data-testid="stSliderTickBar"] { display: none; }
.st-key-presenter-view [data-testid="stSlider"] [role="group"] { margin-top: 32px; }  /* the value above its thumb */
.st-key-presenter-view [data-testid="stVerticalBlock"] { gap: 0.4rem; }
</style>"""


def from_url() -> None:
    """Once per session: the section a link names (``?section=power``); on the page it opens that section."""
    ss = st.session_state
    if ss.get("section-from-url"):
        return
    ss["section-from-url"] = True
    section = url_value("section", allowed=lambda v: v in SECTIONS)
    if section is not None:
        ss[KEY] = section
        if section in REACH:
            ss[REACH[section]] = True


def shown() -> str:
    """The section presenter mode shows: the switch's, or a link's, the walk-through by default."""
    from_url()
    section = st.session_state.get(KEY)
    return section if section in SECTIONS else WALK_THROUGH


def label(section: str) -> str:
    number, name = SECTIONS[section]
    return f"{number} · {_(name)}"


def keep_hidden(shown: str) -> None:
    """Presenter mode: keep the settings of every section but the one ``shown``, and the page's switches that open
    sections, through this run; the section shown is open on the page when presenter mode is left."""
    keep([key for section in SECTIONS if section != shown for key in WIDGETS[section]]
         + sorted(set(REACH.values())) + [KEY])
    if shown in REACH:
        st.session_state[REACH[shown]] = True


def keep_closed() -> None:
    """The page: keep the settings of the sections whose switch is off (and presenter mode's section) through this
    run."""
    keep([key for section, toggle in REACH.items() if not st.session_state.get(toggle) for key in WIDGETS[section]]
         + [KEY])


def switch(section: str) -> None:
    """The select box of sections in the screen's corner, and the section in the URL."""
    st.html(DOCK_CSS)
    with st.container(key="presenter-switch"):
        labels = {name: label(name) for name in SECTIONS}  # in this run's language, whichever thread formats them
        st.selectbox(_("Section"), list(SECTIONS), format_func=labels.get, key=KEY, label_visibility="collapsed")
    to_url(section)


def to_url(section: str) -> None:
    if section == WALK_THROUGH:
        st.query_params.pop("section", None)
    else:
        st.query_params["section"] = section


@contextmanager
def view() -> Iterator[None]:
    """A section at presenter size, filling the screen's height (its chart goes in :func:`chart`)."""
    st.html(VIEW_CSS)
    with st.container(key="presenter-view"):
        yield


def chart(fig, name: str) -> None:
    """A figure taking the height the section's other rows leave (the figure has no height of its own)."""
    with st.container(key="presenter-chart"):
        st.plotly_chart(fig, height="stretch", config=dict(config(name), displayModeBar=False), key=f"figure-{name}")


def columns(n: int) -> list:
    """A row of ``n`` columns clear of the switch in the bottom-right corner (a third of the width is left to it)."""
    return st.columns([1] * n + [0.55 * n], vertical_alignment="bottom")[:n]  # values level, under labels of 1-2 lines


def controls(n: int) -> list:
    """A row of ``n`` columns for a section's settings, and the presenter mode switch at its end, to leave it."""
    *cols, last = st.columns([1] * n + [1], vertical_alignment="bottom")
    leave_switch(last)
    return cols
