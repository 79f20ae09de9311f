"""The walk-through of SLP3 Figures 4.11 and 4.12: the test set x of 10 documents, the bootstrap test sets
x^(i) drawn from it, their histogram, and eq. 4.48 with the counts filled in.

Every number comes from ``sigcore.teaching.bootstrap``. The draws are a pure function of (x, seed, b), so the page keeps
only how many were drawn; a batch of draws is played by ``ui.live_chart`` at the pace of its kind: Draw x^(i) line by
line at the lecturer's pace, Draw 10 one x^(i) at a time, Draw 100 and Draw 10,000 fast.
"""

from __future__ import annotations

import functools
import math
import uuid
from typing import NamedTuple

import plotly.graph_objects as go
import streamlit as st
from streamlit import config

from sigcore import teaching
from sigcore.contract import TIE
from sigcore.i18n import LANGUAGES, N_, _, joined, speaking
from sigcore.io.inputs import read
from sigcore.report.figures import walkthrough_heights, walkthrough_histogram
from sigcore.result import mc_interval
from sigcore.teaching.bootstrap import nearest_exact_p, textbook_number

from . import terms
from .data import SAMPLE_DIR
from .figure import config as figure_config
from .figure import download
from .live_chart import frame, live_chart
from .slide import slide, slide_image
from .terms import term

N = 10
LAST_ROWS = 5  # drawn test sets shown under x, like the figure's rows
DOCS = [f"doc-{j}-{system}" for j in range(N) for system in "AB"]  # the grid's boxes: x
GRID, SEED_MENU = "walk-grid", "walk-seed-menu"  # the open state of the grid's expander, of the seed's popover


class Pace(NamedTuple):
    """How a batch plays: each x^(i) line by line?, seconds a frame, frames at most for the batch."""

    detailed: bool
    interval: float
    max_frames: int


LINE_PACES = (0.25, 0.5, 1.0, 2.0)  # seconds a line of Figure 4.12 for Draw x^(i): the lecturer's one setting
LINE_PACE = 1.0  # the default: slow enough to say each line
# each batch its own pace, none to set: Draw 10 one x^(i) a frame, each seen joining the histogram and the table;
# Draw 100 and Draw 10,000 in about 3 s
BATCH_PACES = {10: Pace(False, 0.5, 10), 100: Pace(False, 0.06, 50), 10_000: Pace(False, 0.08, 40)}
OLD_SPEEDS = (0.25, 1.0, 2.0)  # a link's speed=0, 1, 2 (its first three speeds were line by line at these paces)
# presenter mode: 24 px text, and the buttons, chart, code, decision, counters and table on one 1280 x 720 screen
PRESENTER_FONT, PRESENTER_HEIGHT, PRESENTER_ROWS = 24, 312, 2
# Figure 4.12, statement and comment: the book's pseudo-code stays in English in the translation the course reads,
# its comments are translated. A "\n" starts a continuation line, so that no line is wider than the code's column
FIGURE_4_12 = [
    ("function BOOTSTRAP(test set x, num of samples b)\nreturns p-value(x)", ""),
    ("  Calculate δ(x)", N_("how much better does A do than B on x")),
    ("  s = 0", ""),
    ("  for i = 1 to b do", ""),
    ("    for j = 1 to n do", N_("draw a bootstrap sample x⁽ⁱ⁾ of size n")),
    ("      Select a member of x at random and add it to x⁽ⁱ⁾", ""),
    ("    Calculate δ(x⁽ⁱ⁾)", N_("how much better does A do than B on x⁽ⁱ⁾")),
    ("    s ← s + 1 if δ(x⁽ⁱ⁾) ≥ 2·δ(x)", ""),
    ("  p-value(x) ≈ s / b", N_("on what % of the b samples did A beat expectations?")),
    ("  return p-value(x)", ""),
]
FOR_I, SELECT, DELTA_I, COUNT, P = 3, 5, 6, 7, 8  # lines of Figure 4.12
PRESENTER_CODE = [line[0] for line in FIGURE_4_12]  # the book's comments dropped: one screen at 24 px
HEADER = [""] + [str(j) for j in range(1, N + 1)] + ["A%", "B%", "δ(·)", N_("counted in s")]


def code() -> list[str]:
    """Figure 4.12 with its comments in the page's language, as the normal page shows it."""
    return [statement + ("   # " + _(comment) if comment else "") for statement, comment in FIGURE_4_12]


def _textbook() -> tuple[list[bool], list[bool]]:
    t = read(SAMPLE_DIR / "slp3_fig4_11.csv").frame
    return (t["A"] == t["gold"]).tolist(), (t["B"] == t["gold"]).tolist()


def _pattern(both: int, only_a: int, only_b: int) -> tuple[list[bool], list[bool]]:
    a = [True] * both + [True] * only_a + [False] * only_b + [False] * (N - both - only_a - only_b)
    b = [True] * both + [False] * only_a + [True] * only_b + [False] * (N - both - only_a - only_b)
    return a, b


PRESETS = {N_("Textbook: A .70, B .50"): _textbook(),
           N_("Rejected at .01: A .90, B .40"): _pattern(3, 6, 1),  # the exact p nearest the book's .0047: .0060
           N_("A wins every disagreement: A .90, B .40"): _pattern(4, 5, 0), N_("No difference"): _pattern(4, 2, 2)}
# the threshold a preset is named after, and the book's .05 back with the book's example
PRESET_ALPHA = {"Textbook: A .70, B .50": 0.05, "Rejected at .01: A .90, B .40": 0.01}
ALPHAS = (0.05, 0.01)  # the thresholds SLP3 names
BOOK_P = 0.0047  # SLP3's example: 47 of 10,000 bootstrap test sets counted


def pace_label(seconds: float) -> str:
    """A line-by-line pace as its select box shows it ("1 s a line"), short enough for presenter mode's 22 px."""
    return _("{seconds} s a line").format(seconds=f"{seconds:g}")


def pace(k: int, line_seconds: float) -> Pace:
    """How a batch of k draws plays: Draw x^(i) line by line at the lecturer's pace, the others at their own."""
    return Pace(True, line_seconds, 1) if k == 1 else BATCH_PACES[k]


def book_cell(a_right: bool, b_right: bool) -> str:
    """A document as SLP3 Figure 4.11 writes it: AB, AB̸, A̸B or A̸B̸ (a slash: that system got it wrong)."""
    return ("A" if a_right else "A\u0338") + ("B" if b_right else "B\u0338")


def sup(i: int) -> str:
    return str(i).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


# URL parameters of the walk-through's state, so a link on a slide opens the same page: x as one digit per
# document (3: both right, 2: only A, 1: only B, 0: neither), the seed, how many x^(i) are drawn, the line-by-line
# pace, the shifted view and the threshold.
CELL = {(True, True): "3", (True, False): "2", (False, True): "1", (False, False): "0"}


def url_value(name: str, parse=str, allowed=lambda value: True):
    """A URL parameter through the one validator: ASCII, parsed, and allowed, else None (the default stands).
    A link is typed by hand or cut short: ``b=²`` passes ``str.isdigit`` and fails ``int``."""
    raw = st.query_params.get(name)
    if raw is None or not raw.isascii() or len(raw) > 64:
        return None
    try:
        value = parse(raw)
    except (ValueError, OverflowError):
        return None
    return value if allowed(value) else None


def from_url() -> None:
    """Before the widgets: take the state a shared link carries (what is malformed is left). A click during the first
    run stops it before its widgets exist, and their keys did not survive it (presenter mode came back off): if the
    first run did not end (:func:`link_taken`), the next takes the link again, all but its draws, which the click
    keeps; a later run takes from it only what its widgets lost to another interrupted run (the address bar holds
    the page's state, :func:`to_url`), so what the lecturer changes stays changed."""
    ss = st.session_state
    link = _link()
    if ss.get("walk-link-taken"):
        ss.update({key: value for key, value in link.items() if key not in ss})
        return
    ss["walk-link-taken"] = "walk-link" in ss  # the second time: for good
    ss["walk-link"] = True
    ss.update(link)
    b = url_value("b", int, lambda v: 0 <= v <= 1_000_000)
    if b is not None and "walk" not in ss:  # shown at once, as drawn before: a link does not replay
        ss["walk"] = {"x": None, "seed": None, "b": b, "from_url": b, "batch": None}


def _link() -> dict:
    """The widgets' state a link carries: {session state key: value}."""
    link = {}
    x = url_value("x", allowed=lambda v: len(v) == N and set(v) <= set("0123"))
    for j, digit in enumerate(x or ""):
        link[f"doc-{j}-A"], link[f"doc-{j}-B"] = digit in "32", digit in "31"
    if (seed := url_value("seed", int, lambda v: 0 <= v < 2**31)) is not None:
        link["walk-seed"] = seed
    if (alpha := url_value("alpha", float, lambda v: v in ALPHAS)) is not None:
        link["walk-alpha"] = alpha
    if (old := url_value("speed", int, lambda v: 0 <= v < len(OLD_SPEEDS))) is not None:  # an older link's
        link["walk-pace"] = OLD_SPEEDS[old]
    if (seconds := url_value("pace", float, lambda v: v in LINE_PACES)) is not None:
        link["walk-pace"] = seconds
    link["walk-shift"], link["presenter"] = (url_value(flag) == "1" for flag in ("shift", "presenter"))
    link["lang"] = url_value("lang", allowed=lambda v: v in LANGUAGES) or ("zh" if url_value("zh") == "1" else "en")
    return link


def link_taken() -> None:
    """At the end of the page's run: its widgets now hold the link's state."""
    st.session_state["walk-link-taken"] = True


def to_url(a: list[bool], b: list[bool]) -> None:
    """The walk-through's state into the page's URL (the browser's address bar), for a link on a slide."""
    ss = st.session_state
    st.query_params.update({"x": "".join(CELL[cell] for cell in zip(a, b)), "seed": str(ss.get("walk-seed", 0)),
                            "b": str(ss["walk"]["b"]), "pace": f"{ss.get('walk-pace', LINE_PACE):g}",
                            "shift": "1" if ss.get("walk-shift") else "0",
                            "presenter": "1" if ss.get("presenter") else "0",
                            "alpha": f"{ss.get('walk-alpha', ALPHAS[0]):g}", "lang": terms.language()})
    for older in ("zh", "speed"):  # an older link's way of saying lang=zh, and its speeds
        st.query_params.pop(older, None)


PRESENTER_CSS = """<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], header[data-testid="stHeader"]
  { display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 0.3rem 1.2rem 0 1.2rem !important; max-width: none !important; }
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.3rem; }
.stButton button p, [data-testid="stCheckbox"] label p, [data-testid="stSelectbox"] input
  { font-size: 22px !important; }
</style>"""


def presenter_mode() -> bool:
    """The Presenter mode switch (also ?presenter=1): no sidebar and no prose, the walk-through in large text on
    one screen, for a lecture hall."""
    from_url()
    if st.session_state.get("presenter"):  # its switch then sits in the row of Draw buttons, to save a line
        st.html(PRESENTER_CSS)
        return True
    return st.toggle(_("Presenter mode"), key="presenter",
                     help=_("Large text, no sidebar or prose: the walk-through on one screen. A link can carry it: "
                            "?presenter=1."))


LEAVE = "presenter-on"  # presenter mode's own switch


def leave_switch(container) -> None:
    """Presenter mode's switch, at the end of a row of its controls: on, and turning it off leaves presenter mode.
    A widget of its own, created on: the page's switch, on because a link said so (its value from session state,
    not from the switch), came back off when the browser redrew it under load, and presenter mode with it."""
    container.toggle(_("Presenter mode"), value=True, key=LEAVE, on_change=_leave)


def _leave() -> None:
    st.session_state["presenter"] = False
    del st.session_state[LEAVE]  # on again when presenter mode is next entered


def test_set(*, presenter: bool = False) -> tuple[list[bool], list[bool]]:
    """x in the book's notation, its presets, and the grid of the 10 documents (A right? B right?) to edit it, drawn
    once opened; returns x. In presenter mode only x, as the chart's table shows it."""
    from_url()
    for j, (a, b) in enumerate(zip(*PRESETS["Textbook: A .70, B .50"])):
        st.session_state.setdefault(f"doc-{j}-A", a)
        st.session_state.setdefault(f"doc-{j}-B", b)
    x = ([st.session_state[f"doc-{j}-A"] for j in range(N)], [st.session_state[f"doc-{j}-B"] for j in range(N)])
    if presenter:
        keep(DOCS + ["walk-seed", "walk-alpha", "lang"])
        return x
    presets = st.columns([len(_(name)) + 10 for name in PRESETS])  # as wide as each label needs: none cut at 1280
    for col, (name, (a, b)) in zip(presets, PRESETS.items()):
        col.button(_(name), on_click=_set, args=(a, b, PRESET_ALPHA.get(name)), width="stretch", key=f"preset-{name}")
    rejected, wins = (teaching.exact_bootstrap_p(*PRESETS[name]) for name in list(PRESETS)[1:3])
    st.caption(_("The second and third presets share δ(x) = .50 but not p (exact {rejected} and {wins}): p depends on "
                 "how many documents the two systems disagree on, not on δ(x) alone.").format(
        rejected=f"{rejected:.4f}", wins=f"{wins:.4f}"))
    st.markdown(_("x in the book's notation (a slash: that system got the document wrong): {x}").format(
        x=" · ".join(book_cell(*cell) for cell in zip(*x))))
    grid = st.expander(_("Edit x: tick the documents each system gets right"), key=GRID, on_change="rerun")
    if not grid.open:  # its 20 boxes in 10 columns drawn only when asked for: 0.35 to 0.55 s of the browser's work
        keep(DOCS)
        return x
    with grid:
        st.caption(_("Tick A or B where that system got the document right; A%, B% and δ(x) follow."))
        for j, col in enumerate(st.columns(N)):
            col.markdown("**" + _("doc {j}").format(j=j + 1) + "**")
            col.checkbox("A", key=f"doc-{j}-A")  # the systems' names, as the book's Figure 4.11 writes them
            col.checkbox("B", key=f"doc-{j}-B")
    return x


def keep(keys: list[str]) -> None:
    """Assign the values back: Streamlit forgets a widget's value in a run that does not draw it."""
    for key in keys:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def _set(a: list[bool], b: list[bool], alpha: float | None = None) -> None:
    for j in range(N):
        st.session_state[f"doc-{j}-A"], st.session_state[f"doc-{j}-B"] = a[j], b[j]
    if alpha is not None:
        st.session_state["walk-alpha"] = alpha


def scores(a: list[bool], b: list[bool]) -> None:
    score_a, score_b, delta = teaching.accuracies(a, b)
    exact = teaching.exact_bootstrap_p(a, b)
    c1, c2, c3, c4, c5 = st.columns([1, 1, 1, 1.3, 0.8])
    c1.metric(_("A%: accuracy of A on x"), textbook_number(score_a))
    c2.metric(_("B%: accuracy of B on x"), textbook_number(score_b))
    c3.metric(_("δ(x) = A% − B% (eq. 4.45)"), textbook_number(delta))
    c4.metric(_("Exact p (all 10¹⁰ equally likely x⁽ⁱ⁾)"), f"{exact:.4f}",
              help=_("Enumerated by sigcore.teaching.exact_bootstrap_p: the value s / b converges to as b grows."))
    alpha = c5.selectbox(_("Threshold α"), ALPHAS, format_func=textbook_number, key="walk-alpha",
                         help=_("SLP3: 'common thresholds are .05 or .01'."))
    st.markdown(conclusion(exact, alpha))


def conclusion(p: float, alpha: float) -> str:
    """The decision in the book's words, with p as the book writes it (.27, .0060, .9983)."""
    shown = ("1" if p >= 1 else textbook_number(p) if 0.01 <= p < 0.995 else  # never "1.00" for a p below 1
             f"{p:.4f}".replace("0.", ".", 1))
    if p <= alpha:
        return _("**p ≈ {p} ≤ {alpha}: we reject {H0}** and say A is better than B; the difference is statistically "
                 "significant.").format(p=shown, alpha=textbook_number(alpha), H0=term("H0"))
    return _("**p ≈ {p} > {alpha}: we cannot reject {H0}** that A is not better than B; the difference is not "
             "statistically significant (which does not show that A and B are equal).").format(
        p=shown, alpha=textbook_number(alpha), H0=term("H0"))


def verdict(p: float, alpha: float) -> str:
    """α and the decision in the book's words, for presenter mode (under the code, as the page has no prose)."""
    return joined(_("Threshold α = {alpha}.").format(alpha=textbook_number(alpha)), conclusion(p, alpha))


# eq. 4.48 typeset in HTML and CSS: KaTeX (st.latex) was a script of 265 kB and three fonts for one equation, 0.1 to
# 0.35 s of the browser's main thread when the page opens (bench/README.md)
EQUATION_CSS = """<style>
.eq-448 { display: grid; grid-template-columns: max-content auto; justify-content: center; align-items: center;
  gap: .5em .3em; margin: .4em 0 0; font: 1.3rem/1.2 "Latin Modern Roman", "STIX Two Text", "Cambria",
  "Times New Roman", "Noto Serif", "Noto Serif CJK SC", serif; }
.eq-448 > span:first-child, .eq-448 > span:nth-child(3) { text-align: right; }
.eq-448 .frac, .eq-448 .sum { display: inline-flex; flex-direction: column; align-items: center;
  vertical-align: middle; margin: 0 .1em; }
.eq-448 .frac > span:first-child { border-bottom: .06em solid currentColor; padding: 0 .2em; }
.eq-448 .sum { line-height: 1; }
.eq-448 .sum > span:nth-child(2) { font-size: 1.7em; line-height: 1; margin-bottom: .05em; }
.eq-448 .sum > span:not(:nth-child(2)), .eq-448 sup { font-size: .65em; }
.eq-448 .paren { font-size: 1.5em; vertical-align: -.1em; font-weight: 300; }
.eq-448 .term { white-space: nowrap; }  /* a phone breaks the lines at "=" only */
@media (max-width: 640px) { .eq-448 { font-size: .95rem; gap: .5em .2em; } }
</style>"""


def equation(a: list[bool], b: list[bool]) -> None:
    """Eq. 4.48 in both of its forms, with this x's threshold filled in."""
    delta = teaching.accuracies(a, b)[2]
    x, x_i, b_, i, d = "<i>x</i>", "<i>x</i><sup>(<i>i</i>)</sup>", "<i>b</i>", "<i>i</i>", "<i>δ</i>"
    mean = (f'<span class="frac"><span>1</span><span>{b_}</span></span>'
            f'<span class="sum"><span>{b_}</span><span>∑</span><span>{i}=1</span></span>𝟙')

    def counted(condition: str) -> str:
        return f'<span class="term">{mean}<span class="paren">(</span>{condition}<span class="paren">)</span></span>'
    first = counted(f"{d}({x_i}) − {d}({x}) ≥ {d}({x})")
    second = " = ".join([counted(f"{d}({x_i}) ≥ 2{d}({x})"), counted(f"{d}({x_i}) ≥ {textbook_number(2 * delta)}"),
                         f'<span class="frac"><span><i>s</i></span><span>{b_}</span></span>'])
    st.html(f'{EQUATION_CSS}<div class="eq-448" role="math"><span>{_("p-value")}({x})</span><span>= {first}</span>'
            f'<span></span><span>= {second}</span></div>')  # st.html: markdown's raw HTML is another 190 kB of script
    st.caption(book_example())


def book_example() -> str:
    """SLP3's "47 of 10,000, p = .0047 < .01", and that no test set of 10 documents has that p: the nearest, over
    every one of them (sigcore.teaching.bootstrap.nearest_exact_p), is the preset "Rejected at .01"."""
    p, only_a, only_b = nearest_exact_p(BOOK_P, N)
    return _("𝟙(q) is 1 when q is true and 0 otherwise (eq. 4.48). With 10,000 test sets and threshold .01, the "
             "book's example counts 47 with δ(x⁽ⁱ⁾) ≥ 2δ(x): p = .0047 < .01, and H0 is rejected. No test set of "
             "{n} documents gives p ≈ .0047: of them all, the nearest exact p is {p}, with {only_a} documents only A "
             "gets right and {only_b} only B — the preset \"{preset}\".").format(
        n=N, p=f"{p:.4f}".replace("0.", ".", 1), only_a=only_a, only_b=only_b,
        preset=_("Rejected at .01: A .90, B .40"))


def draws(a: list[bool], b: list[bool], *, presenter: bool = False) -> None:
    """The draw buttons, the line-by-line pace, the "Why 2·δ?" toggle and the chart that plays each batch at its
    pace (in presenter mode in one row above a large chart, with α and the decision under the code, so that all of
    it fits one screen)."""
    ss = st.session_state
    state = ss.setdefault("walk", {"x": None, "seed": None, "b": 0, "batch": None})
    seed, shifted = ss.get("walk-seed", 0), ss.get("walk-shift", False)
    at_once = BATCH_PACES[10_000]  # a batch of one frame: its pace plays no part
    if state.get("from_url") is not None:  # a shared link: its x^(i) drawn at once, on its x and seed
        b_drawn = state.pop("from_url")
        state.update(x=(a, b), seed=seed, b=b_drawn, batch={"id": f"url-{b_drawn}", "start": b_drawn, "stop": b_drawn,
                                                          "pace": at_once, "shown": 1})
    if state["x"] != (a, b) or state["seed"] != seed:  # a new test set or seed: start again
        state.update(x=(a, b), seed=seed, b=0, batch=None)
    batch = state["batch"] or {"id": f"idle-{hash((tuple(a), tuple(b), seed))}", "start": 0, "stop": 0,
                               "pace": at_once, "shown": 1}
    x = teaching.draw_test_sets(a, b, batch["stop"], seed=seed)
    frames, drawn = play(a, b, x, batch["start"], detailed=batch["pace"].detailed, max_frames=batch["pace"].max_frames,
                         shifted=shifted, last_rows=PRESENTER_ROWS if presenter else LAST_ROWS)
    run, played = f"{batch['id']}-{shifted}", ss.get("walk-chart")
    if state["batch"] and batch["shown"] is None:
        if played and played["run"] == run:  # the browser has played it, to the end, to Finish or to Stop
            batch["shown"] = played["shown"]
            state["b"] = drawn[played["shown"] - 1]  # Stop keeps the test sets drawn so far
        elif config.get_option("global.appTest"):  # AppTest has no browser to play the frames
            batch["shown"] = len(frames)

    playing = state["batch"] is not None and batch["shown"] is None  # the browser is still playing a batch
    widths = [1.3, 1.1, 1.2, 1.5, 0.9, 1.9, 1.7] if presenter else [1.2, 1, 1, 1.3, 1, 2.1]
    c1, c2, c3, c4, c5, c6, *c7 = st.columns(widths, vertical_alignment="center")
    draw_one = _("Draw x⁽{i}⁾").format(i=sup(state["b"] + 1))
    for col, k, label in [(c1, 1, _("Drawing…") if playing else draw_one), (c2, 10, _("Draw 10")),
                          (c3, 100, _("Draw 100")), (c4, 10_000, _("Draw 10,000"))]:
        col.button(label, type="primary" if k == 1 else "secondary", width="stretch", on_click=_draw, args=(k,),
                   key=f"walk-draw-{k}",  # a key keeps the button when its label names the next x^(i)
                   disabled=playing, help=_("Wait for the batch to end, or Finish (f) or Stop (Esc) it") if playing
                   else None)
    c5.button(_("Reset"), width="stretch", on_click=state.update, kwargs={"b": 0, "batch": None}, key="walk-reset")
    ss.setdefault("walk-pace", LINE_PACE)
    paces = {seconds: pace_label(seconds) for seconds in LINE_PACES}  # this run's language (AppTest formats later)
    c6.selectbox(_("Line-by-line pace"), LINE_PACES, format_func=paces.get, label_visibility="collapsed",
                 key="walk-pace", help=_("How long Draw x⁽ⁱ⁾ stays on each line of Figure 4.12. The other batches have "
                                         "their own pace: Draw 10 adds one x⁽ⁱ⁾ every {ten} s, Draw 100 and Draw "
                                         "10,000 take about 3 s. Finish (f) draws the rest of a batch at once; Stop "
                                         "(Esc) keeps what is drawn.").format(ten=f"{BATCH_PACES[10].interval:g}"))
    if presenter:
        c7[0].toggle(_("Why 2·δ(x)?"), key="walk-shift")
        leave_switch(c7[0])
    else:
        c8, c9 = st.columns([3, 1], vertical_alignment="center")
        c8.toggle(_("Why 2·δ(x)? Show the distribution shifted by −δ(x), centred on H0"), key="walk-shift")
        menu = c9.popover(_("Seed: {seed}").format(seed=seed), key=SEED_MENU, on_change="rerun", width="stretch",
                          help=_("The test sets drawn are a function of x, the seed and b: the page's link keeps all "
                                 "three, so that it opens on the same draws"))
        if menu.open:  # the number box drawn only when asked for: its scripts (60 kB) are loaded then
            menu.number_input(_("Seed"), 0, 2**31 - 1, key="walk-seed")
        else:
            keep(["walk-seed"])
    delta = teaching.accuracies(a, b)[2]
    chart_config = figure_config("bootstrap_histogram")
    figure = histogram(delta, shifted=shifted, presenter=presenter)
    if presenter:
        chart_config["displayModeBar"] = False  # it would hide the labels; Download SVG is below the table
    aside = why_twice(delta) if shifted else None
    decision = verdict(teaching.exact_bootstrap_p(a, b), ss.get("walk-alpha", ALPHAS[0])) if presenter else None
    live_chart(figure, frames, run=run, shown=batch["shown"], interval=batch["pace"].interval, series=batch["id"],
               config=chart_config, code=PRESENTER_CODE if presenter else code(), header=[_(h) for h in HEADER],
               key="walk-chart", presenter=presenter, keys=True, aside=aside, verdict=decision,
               table_rows=1 + PRESENTER_ROWS if presenter else 0)
    shown = frames[(batch["shown"] or len(frames)) - 1]  # on screen once the batch has played (or been stopped)
    for trace, y in zip(figure.data, shown["y"]):
        trace.y = y
    # "Download SVG" on one line at 1280 px with the sidebar; in presenter mode the downloads in one button, the terms
    # beside it, clear of the sections' switch docked in the screen's bottom-right corner (ui.sections)
    if presenter:
        menu, c4, _corner = st.columns([1.6, 5.9, 3.3], gap="small", vertical_alignment="center")
        c1 = c2 = c3 = c5 = menu.popover(_("Download"), icon=":material/download:", key="walk-downloads")
    else:
        c1, c2, c3, c5, c4 = st.columns([1.3, 1.3, 1.3, 1.3, 2.8])  # "幻灯片 PNG" whole at 1280 px
    with c1:
        download(figure, "bootstrap_histogram")
    # ?lang=zh on a slide's link: the terms beside the buttons, as the prose is hidden
    if presenter and terms.chinese():
        c4.markdown(f":small[{terms.key_terms()}]")  # small: two lines as high as the buttons at 1280 px

    to_url(a, b)  # first: the slide's link is the page's URL
    b_drawn, language, alpha = state["b"], terms.language(), ss.get("walk-alpha", ALPHAS[0])
    said, url, params = conclusion(teaching.exact_bootstrap_p(a, b), alpha), st.context.url, st.query_params.to_dict()

    def image(fmt: str) -> bytes:  # drawn only when clicked (kaleido takes a second), in a thread of Streamlit's: in
        with speaking(language):  # the run's language, the state its link opens (after a Stop, the b drawn)
            now = play(a, b, teaching.draw_test_sets(a, b, b_drawn, seed=seed), b_drawn, detailed=False,
                       max_frames=1, shifted=shifted)[0][0]
            page = slide(histogram(delta, shifted=shifted, presenter=True), now, PRESENTER_CODE, [_(h) for h in HEADER],
                         aside, alpha=alpha, conclusion=said, url=url, params=params, seed=seed)
            return slide_image(page, fmt)  # its PDF's Chinese searchable

    for col, fmt, mime in ((c2, "png", "image/png"), (c3, "svg", "image/svg+xml"), (c5, "pdf", "application/pdf")):
        col.download_button(_("Slide {format}").format(format=fmt.upper()), functools.partial(image, fmt),
                            file_name=f"bootstrap_slide.{fmt}", mime=mime, on_click="ignore", key=f"slide-{fmt}",
                            help=_("The walk-through as a slide: a title, the conclusion at α, the chart, the code, "
                                   "the counters and the table, and a link with its QR code to this state"))


def histogram(delta: float, *, shifted: bool, presenter: bool) -> go.Figure:
    """Figure 4.11's histogram for the page; in presenter mode (and on slides) at 24 px, with short axis titles
    and no legend (the text beside and the red rows of the table say the rest)."""
    if not presenter:
        return walkthrough_histogram(N, delta, shifted=shifted)
    figure = walkthrough_histogram(N, delta, shifted=shifted, font=PRESENTER_FONT, legend=False)
    figure.update_layout(height=PRESENTER_HEIGHT, margin=dict(l=70, r=10, b=70), xaxis_title_text="δ(x⁽ⁱ⁾)")
    if shifted:
        figure.update_layout(xaxis2_title_text="δ(x⁽ⁱ⁾) − δ(x)")
    return figure


def why_twice(delta: float) -> str:
    """Why the threshold is 2·δ(x), for this x (its δ(x) may be positive, zero or negative): shown beside the
    two panels, in place of the code."""
    if abs(delta) <= TIE:  # δ(x) of two accuracies (at most 1) within the one tie tolerance: a tie
        return _("Here δ(x) = 0: A and B tie on x, so the x⁽ⁱ⁾ already centre on 0, as under H0, and the shifted "
                 "panel is the same as the first. The threshold 2·δ(x) is 0 too: every x⁽ⁱ⁾ with δ(x⁽ⁱ⁾) ≥ 0 counts, "
                 "half of them or more, so p is large. No evidence for A.")
    text = _("Under H0, δ centres on 0. But the x⁽ⁱ⁾ are drawn from x, so their δ(x⁽ⁱ⁾) centre on δ(x) = {delta}. "
             "Shifted by −δ(x) (right panel) they centre on 0, as under H0, and we ask how often they reach δ(x):\n"
             "δ(x⁽ⁱ⁾) − δ(x) ≥ δ(x), that is δ(x⁽ⁱ⁾) ≥ 2·δ(x) = {twice} (eq. 4.48).\nThe same red bars in both "
             "panels.").format(delta=textbook_number(delta), twice=textbook_number(2 * delta))
    if delta < 0:
        text = joined(text, _("Here B is ahead on x: most x⁽ⁱ⁾ reach the threshold, so p is large; H1 (A is better) "
                              "gets no support."))
    return text


def _draw(k: int) -> None:
    """Before the page runs again, so the buttons already name the next x^(i)."""
    state = st.session_state["walk"]
    state["batch"] = {"id": uuid.uuid4().hex, "start": state["b"], "stop": state["b"] + k,
                      "pace": pace(k, st.session_state.get("walk-pace", LINE_PACE)), "shown": None}
    state["b"] += k


def play(a: list[bool], b: list[bool], x: teaching.Draws, start: int, *, detailed: bool, max_frames: int,
         shifted: bool = False, last_rows: int = LAST_ROWS) -> tuple[list[dict], list[int]]:
    """The frames of drawing x^(start+1) ... x^(b), given ``x`` = all draws up to b, and b after each frame.

    ``detailed``, each x^(i) takes n + 3 frames (Figure 4.12's loop, one document at a time); otherwise each
    frame adds a block of test sets, in ``max_frames`` frames at most (a :class:`Pace` says which for each batch).
    """
    stop = len(x.delta)
    delta = teaching.accuracies(a, b)[2]
    exact = teaching.exact_bootstrap_p(a, b)
    equation = f"p-value(x) = (1/b) · Σᵢ 𝟙(δ(x⁽ⁱ⁾) ≥ 2·δ(x) = {textbook_number(2 * delta)})"  # eq. 4.48, filled in
    frames, drawn = [], []

    def add(c: int, lines: tuple[int, int], partial: list | None = None, count: str | None = None) -> None:
        """A frame after c test sets, with x^(c+1) half drawn (``partial`` documents) if any; as Figure 4.12
        counts, i runs to b (the test sets asked for), so the counter reads "i = 3 of b = 10"."""
        body, tail = walkthrough_heights(x.delta[:c], x.counted[:c], N)
        s = int(x.counted[:c].sum())
        low, high = mc_interval(s, c) if c else (0, 0)
        finished = c == stop  # Figure 4.12's b is the batch's end: before it, s counts the x^(i) drawn so far
        interval = _("(Monte-Carlo 95% interval {low} to {high})").format(low=f"{low:.4f}", high=f"{high:.4f}")
        if c and finished:
            estimate = f"s / b = {s:,} / {c:,} = {s / c:.4f}"
            p = joined(estimate, interval)
        elif c:
            estimate = _("s / drawn = {s} / {c} = {p}").format(s=f"{s:,}", c=f"{c:,}", p=f"{s / c:.4f}")
            p = joined(_("so far s = {s} of {c} drawn: {p}").format(s=f"{s:,}", c=f"{c:,}", p=f"{s / c:.4f}"), interval)
        else:
            estimate = p = _("s / b, once test sets are drawn")
        status = (f"{equation} ≈ {p}   " + _("(eq. 4.48)") + "\n"
                  + _("exact p, over all 10¹⁰ equally likely x⁽ⁱ⁾ = {exact}").format(exact=f"{exact:.4f}"))
        rows = _rows(a, b, x, c, partial, scored=lines[0] == DELTA_I, last_rows=last_rows)
        counters = {"k-b-name": "b" if finished else _("drawn"), "k-b": f"{c:,}", "k-s": f"{s:,}",
                    "k-sb-name": "s / b" if finished else _("s / drawn"), "k-sb": f"{s / c:.4f}" if c else "–",
                    "k-exact": f"{exact:.4f}"}
        grew = None
        if c > start and partial is None:  # x^(c) has just joined the histogram: its bar, in each panel
            bar, trace = int(round(x.delta[c - 1] * N)) + N, int(x.counted[c - 1])
            grew = [[trace, bar]] + ([[trace + 2, bar]] if shifted else [])
        progress = (c - start) / (stop - start) if stop > start else float(stop > 0)  # a link's b: all drawn
        count = count or _("i = {i} of b = {b}").format(i=f"{c:,}", b=f"{stop:,}")
        frames.append(frame([body, tail] * (1 + shifted), progress,
                            {"count": count, "status": status, "eq": f"{equation}\n≈ {estimate}   " + _("(eq. 4.48)"),
                             **counters}, lines=lines, rows=rows, grew=grew))
        drawn.append(c)

    done = f"b = {stop:,}"
    if stop == start:  # nothing drawn in this batch: x alone, or the b test sets a link brings, as after a run
        add(stop, (P, P) if stop else (0, 0), count=done)
        return frames, drawn
    one_by_one = stop - start if detailed else 0  # test sets shown line by line
    if detailed:
        if start == 0:
            add(0, (1, 1), count=f"{done} · δ(x) = {textbook_number(delta)}")
            add(0, (2, 2), count=f"{done} · s = 0")
        for i in range(start, stop):
            at = _("i = {i} of b = {b}").format(i=f"{i + 1:,}", b=f"{stop:,}")
            add(i, (FOR_I, FOR_I), [], at)
            for j in range(1, N + 1):
                add(i, (FOR_I + 1, SELECT), x.documents[i][:j].tolist(),
                    _("i = {i} of b = {b}, j = {j}").format(i=f"{i + 1:,}", b=f"{stop:,}", j=j))
            add(i, (DELTA_I, DELTA_I), x.documents[i].tolist(), at)
            add(i + 1, (COUNT, COUNT), count=at)
    rest = stop - start - one_by_one
    block = max(1, math.ceil(rest / max_frames)) if rest else 1
    for c in range(start + one_by_one + block, stop + block, block):
        add(min(c, stop), (FOR_I, COUNT))
    add(stop, (P, P), count=done)
    return frames, drawn


def _rows(a: list[bool], b: list[bool], x: teaching.Draws, c: int, partial: list | None, *,
          scored: bool, last_rows: int = LAST_ROWS) -> list[dict]:
    """x, then the last drawn x^(i) (and the one being drawn, document by document: the document just drawn is
    highlighted in x and in its row)."""
    def marks(j: int, now: bool = False) -> list:
        return [f"d{j + 1}", book_cell(a[j], b[j])] + (["now"] if now else [])

    now = partial[-1] if not scored and partial else None  # the document "Select a member of x" just took
    score_a, score_b, delta = teaching.accuracies(a, b)
    rows = [{"cells": ["x"] + [marks(j, j == now) for j in range(N)]
             + [textbook_number(v) for v in (score_a, score_b, delta)] + [""], "marked": False}]
    first = max(0, c - last_rows + (partial is not None))
    if first > 0 and last_rows >= LAST_ROWS:  # presenter mode has no room for the ellipsis
        rows.append({"cells": ["⋮"], "marked": False})
    for i in range(first, c):
        rows.append({"cells": [f"x⁽{sup(i + 1)}⁾"] + [marks(j) for j in x.documents[i]]
                     + [textbook_number(v) for v in (x.score_a[i], x.score_b[i], x.delta[i])]
                     + ["✓" if x.counted[i] else ""], "marked": bool(x.counted[i])})
    if partial is not None:  # x^(c+1), being drawn: its scores appear at "Calculate δ(x^(i))"
        rows.append({"cells": [f"x⁽{sup(c + 1)}⁾"] + [marks(j, now is not None and k == len(partial) - 1)
                                                    for k, j in enumerate(partial)] + [""] * (N - len(partial))
                     + ([textbook_number(v) for v in (x.score_a[c], x.score_b[c], x.delta[c])] if scored else
                        ["", "", ""]) + [""], "marked": False})
    return rows
