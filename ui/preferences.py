"""The Preferences page's parts (issue 42 §5): pairwise judgments (arena battles, MT-Bench's or AlpacaEval's judges,
a tidy table) uploaded in memory, never on disk; the shape each file was read as; the settings; the ratings with
intervals and ranks from :func:`sigcore.preferences` in their turn on the server, with a bar (a Stop ends the run
at the next block of resamples); and every view the command line writes (:mod:`sigcore.report.preferences`), the
downloads byte for byte ``sigcore preferences``'s at the same settings. Model names are user text: table cells,
escaped Markdown, escaped figure labels.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import streamlit as st

import sigcore
from sigcore import SigcoreError
from sigcore.contract import DEFAULT_ALPHA, DEFAULT_RESAMPLES, DEFAULT_SEED
from sigcore.judgments import SHAPES, Battles, Preferences, read_all
from sigcore.judgments.bradley_terry import TIES
from sigcore.judgments.ratings import CENTERS, SCALES
from sigcore.report import preferences as views
from sigcore.report import records
from sigcore.report.preferences_figures import ratings, ratings_svg
from sigcore.report.venues import VENUES
from sigcore.statistics.multiple import RESAMPLED
from sigcore.words import counted

from . import data as data_ui
from . import figure, venue, work
from .many import ALPHAS, CORRECTION_LABELS
from .safe import md
from .tasks import cells

__all__ = ["ABOUT", "FORMATS", "SAMPLE", "Settings", "choose", "load", "preview", "settings", "compute", "show",
           "downloads", "page_html"]

ABOUT = ("Which model do the judges prefer, and how sure are we? Pairwise judgments (an LLM judge or people saying "
         "which of two answers is better) rated by Bradley–Terry on the Elo scale arenas publish, with intervals "
         "and ranks from a bootstrap that resamples the items (prompts), not single battles, since battles on one "
         "prompt are not independent; every pair tested and corrected for the number of pairs.")
FORMATS = """Upload one or more files of pairwise judgments (CSV, JSON lines, JSON or Parquet). Each file's shape is
recognised by its columns:

- **Arena battles** (Chatbot Arena's release, CSV, JSON lines or Parquet): `model_a, model_b, winner` with `winner`
  one of `model_a`, `model_b`, `tie`, `tie (bothbad)`; optionally `question_id` (the item), `judge`, `turn`.
- **MT-Bench pairwise judgments** (FastChat's `model_judgment/*_pair.jsonl`): `question_id, model_1, model_2,
  g1_winner, g2_winner, judge, turn`; g2 is the judgment with the answers swapped.
- **AlpacaEval annotations** (`annotations.json`): `instruction, generator_1, generator_2, preference` (1, 2, 1.5
  for a tie, or a fraction), `annotator` where present.
- **A tidy table**: `item, model_a, model_b, outcome` (1: model_a wins, 0: model_b, 0.5: a tie), optionally `judge`
  and `order`.

Files stay in memory and are never stored."""
RECOGNISED = "recognised from its columns"
SHAPE_NAMES = {"arena": "arena battles", "mt-bench": "MT-Bench pairwise judgments",
               "alpacaeval": "AlpacaEval annotations", "tidy": "a tidy table"}
TIE_LABELS = {"half": "half a win each way", "davidson": "Davidson's tie model"}
SCALE_LABELS = {"elo": "Elo (400 · log₁₀ odds)", "log": "natural-log odds"}
VENUE_KEY = "preferences-venue"
# a phone (390 px) shows the models' seven columns whole: smaller text and padding, where they scrolled sideways
PHONE_CSS = """<style>
@media (max-width: 640px) {
  .st-key-preferences-models [data-testid="stTable"] :is(th, td),
  .st-key-preferences-pairs [data-testid="stTable"] :is(th, td) { font-size: 12px; padding: 0.3rem 0.2rem; }
}
</style>"""
SAMPLE = data_ui.SAMPLE_DIR / "judgments" / "arena.csv"  # two judges in both orders: position bias and agreement


@dataclass(frozen=True)
class Settings:
    """What ``sigcore preferences`` is asked, by its API parameters' names."""

    shape: str | None = None
    ties: str = "half"
    scale: str = "elo"
    baseline: str | None = None
    prior: float = 0.0
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    alpha: float = DEFAULT_ALPHA
    correction: str = "holm"
    reconcile: bool = False


# ---------------------------------------------------------------- data


def choose() -> tuple[list[tuple[str, bytes]], str | None]:
    """The sample's file or the uploads as (name, bytes) pairs, and the shape they are read as (None: each file's
    own, recognised)."""
    source = st.radio("Data", ["Sample", "Upload"], horizontal=True, label_visibility="collapsed",
                      key="preferences-source")
    if source == "Sample":
        st.caption("Six models judged on 80 prompts by two simulated LLM judges, each pair in both orders; judge-a "
                   "leans to the answer shown first (sample_data/judgments/arena.csv, written by "
                   "sample_data/make_judgments.py).")
        return [(SAMPLE.name, SAMPLE.read_bytes())], None
    left, right = st.columns([3, 1])
    uploads = left.file_uploader(
        "Judgments", accept_multiple_files=True, key="preferences-upload",
        help="Arena battles, MT-Bench's *_pair.jsonl, AlpacaEval's annotations.json or a tidy table: CSV, JSON "
             "lines, JSON or Parquet. Several files are rated together. Read in memory, never written to disk.")
    shape = right.selectbox("Read as", [None, *SHAPES], key="preferences-shape",
                            format_func=lambda s: RECOGNISED if s is None else SHAPE_NAMES[s],
                            help="Each file's shape is recognised by its columns; name it where they would not "
                                 "say it.")
    return [(u.name, u.getvalue()) for u in uploads or []], shape


@st.cache_data(max_entries=8, ttl=600, show_spinner=False)
def _battles(files: list[tuple[str, bytes]], shape: str | None) -> Battles:
    return read_all(files, shape=shape)


def load(files: list[tuple[str, bytes]], shape: str | None) -> Battles | None:
    """The battles of the files; with none, what files are taken; a bad file, the reader's one-line message."""
    if not files:
        st.markdown(FORMATS)
        return None
    try:
        return _battles(files, shape)
    except SigcoreError as e:
        st.error(md(str(e)), icon="⚠️")
        return None


def preview(battles: Battles) -> None:
    """What was read: the battles, models, items and judges; each file's shape; the readers' notes."""
    frame = battles.frame
    judges = [j for j in dict.fromkeys(frame["judge"].tolist()) if j]
    st.caption(f"{counted(len(frame), 'battle')} · {counted(len(battles.models), 'model')} · "
               f"{counted(frame['item'].nunique(), 'item')}"
               + (f" · {counted(len(judges), 'judge')}" if judges else ""))
    st.markdown("\n".join(f"- {md(name)}: read as {SHAPE_NAMES[shape]} "
                          f"({', '.join(f'`{c}`' for c in SHAPES[shape])})"
                          for name, shape in battles.shapes.items()))
    for note in battles.notes:
        st.info(md(note))


# ---------------------------------------------------------------- settings


def settings(files: list[tuple[str, bytes]], battles: Battles, shape: str | None) -> Settings:
    """The form, at ``sigcore preferences``'s defaults; the baseline is keyed by the files, so other files start
    afresh."""
    data = data_ui.digest(files)[:12]
    models = battles.models
    with st.form("preferences-settings", border=False):
        c1, c2, c3, c4 = st.columns([1.3, 1.3, 2, 1])
        ties = c1.selectbox("Ties", list(TIES), key="preferences-ties", format_func=TIE_LABELS.get,
                            help="Half a win each way (as LMArena counts them), or Davidson's (1970) tie model, "
                                 "its parameter fitted (wins, ties and losses only, no fractions).")
        scale = c2.selectbox("Scale", list(SCALES), key="preferences-scale", format_func=SCALE_LABELS.get,
                             help="Elo: 400 · log₁₀ of the odds, as arenas publish (400 points: odds of 10 to 1); "
                                  "or natural-log odds.")
        baseline = c3.selectbox("Baseline", [None, *models], key=f"preferences-baseline-{data}",
                                format_func=lambda m: "none: the mean" if m is None else m,
                                help=f"The model whose rating is the scale's center ({CENTERS['elo']:,.0f} Elo, "
                                     f"{CENTERS['log']:g} in log odds); none: the mean rating is.")
        prior = c4.number_input("Prior", 0.0, 100.0, 0.0, step=0.5, key="preferences-prior",
                                help="Ties added to every pair of models that met, so that a model that never "
                                     "lost keeps a finite rating (0: plain maximum likelihood, such data refused).")
        c5, c6, c7, c8 = st.columns([1.3, 1.3, 2, 1])
        b = c5.number_input("Resamples b", 100, 100_000, DEFAULT_RESAMPLES, step=1_000, key="preferences-b",
                            help="Resamples of the items, for the intervals, the ranks and every pair's p.")
        seed = c6.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED, key="preferences-seed")
        correction = c7.selectbox("Correction", list(RESAMPLED), key="preferences-correction",
                                  format_func=CORRECTION_LABELS.get,
                                  help="Over every pair of models, for the ranks: 1 + the models significantly "
                                       "better.")
        alpha = c8.selectbox("Level α", ALPHAS, index=ALPHAS.index(DEFAULT_ALPHA), key="preferences-alpha",
                             format_func=lambda x: f"{x:g}")
        reconcile = st.checkbox("Reconcile the orders", key="preferences-reconcile",
                                help="Count each pair judged in both orders once, a tie where the order changed the "
                                     "verdict (FastChat's rule for MT-Bench; --reconcile). Only for judgments made "
                                     "in both orders.")
        st.form_submit_button("Run", type="primary")
    return Settings(shape, ties, scale, baseline, float(prior), int(b), int(seed), float(alpha), correction,
                    reconcile)


# ---------------------------------------------------------------- computing


def compute(files: list[tuple[str, bytes]], battles: Battles, s: Settings) -> Preferences | None:
    """The ratings in their turn on the server, with a bar, kept for every session; a problem is shown."""
    key = repr(("preferences", data_ui.digest(files), asdict(s)))
    settings_ = {k: v for k, v in asdict(s).items() if k != "shape"}
    try:
        return work.kept(key, st.empty(), f"{len(battles.models)} models, b = {s.n_resamples:,}",
                         lambda progress: sigcore.preferences(battles, **settings_, progress=progress))
    except SigcoreError as e:
        st.error(md(work.explain(e)), icon="⚠️")
        return None


# ---------------------------------------------------------------- showing


def show(res: Preferences) -> None:
    """As the command line prints it: the heading, the models, what they settle, what else the judgments say; the
    figure; every pair (folded); the legend, the notes of fitting, the signature."""
    st.html(PHONE_CSS)
    st.markdown(md(views.heading(res)))
    with st.container(key="preferences-models"):
        cells(*views.model_rows(res), names=1)
    st.markdown(md(views.settled(res)))
    for finding in views.findings(res):
        st.markdown(md(finding))
    figure.show(ratings(res), "ratings")
    pairs = len(res.ratings.pairs)
    with st.expander(f"Every pair ({pairs:,}): δ, p and p corrected"):
        with st.container(key="preferences-pairs"):
            cells(*views.pair_rows(res), names=2)
    st.caption(md(views.legend(res)))
    for note in res.notes:
        if note not in res.battles.notes:  # the readers' notes are under the data
            st.info(md(note))
    st.code(res.signature, language=None, wrap_lines=True)


# ---------------------------------------------------------------- downloads


def downloads(res: Preferences) -> None:
    """The command line's outputs, each drawn on the click: ``--csv``, ``--json``, ``--html``, ``--markdown`` and
    ``--latex --venue`` at the Venue box's venue."""
    venue.choose(st.columns([2, 3])[0], key=VENUE_KEY)
    key = venue.current(VENUE_KEY)
    with st.expander(f"For the paper: the models' table ({VENUES[key].name})"):
        st.code(views.latex(res, venue=key), language="latex", wrap_lines=True)
    buttons = [("Models (.csv)", lambda: views.csv(res), "preferences.csv", "text/csv"),
               ("All (.json)", lambda: records.dumps(records.preferences(res)) + "\n", "preferences.json",
                "application/json"),  # + the newline print writes after it
               ("Page (.html)", lambda: page_html(res), "preferences.html", "text/html"),
               ("Ratings (.md)", lambda: views.markdown(res), "preferences.md", "text/markdown"),
               ("Table (.tex)", lambda: views.latex(res, venue=key), "preferences.tex", "text/x-tex")]
    for col, (label, content, name, mime) in zip(st.columns(len(buttons)), buttons):
        col.download_button(label, content, file_name=name, mime=mime, on_click="ignore", width="stretch",
                            key=f"preferences-{name}")


def page_html(res: Preferences) -> str:
    """The "Page (.html)" download: byte for byte the page of ``preferences --html``, its figure inline where static
    images can be drawn (said on the page where they cannot)."""
    return views.page(res, figure_svg=ratings_svg(res)[0])
