"""Settings and the live run of the Compare page: the histogram of delta(x^(i)) grows block by block.

Every number comes from ``sigcore.stream``; a run is kept with the settings and data it was made from, so a
changed setting never shows a stale result.
"""

from __future__ import annotations

import hashlib
import math
import uuid
from dataclasses import asdict, dataclass

import streamlit as st
from streamlit import config

import sigcore
from sigcore import SigcoreError, align, export
from sigcore.figures import chart_title, delta_histogram, empty_histogram, histogram_frames, live_edges

from .figure import config as figure_config
from .live_chart import frame, live_chart
from .safe import md

ALTERNATIVES = {"A better than B": "greater", "B better than A": "less", "A and B differ": "two-sided"}
# label -> (resamples per frame, or None for about 25 frames in all; pause between frames in seconds)
SPEEDS = {"1 resample per frame (class)": (1, 0.25), "10 per frame": (10, 0.1), "100 per frame": (100, 0.05),
          "As fast as possible": (None, 0.0)}
WHY = {"bootstrap": "recommended: fits any metric and gives the interval of the difference",
       "permutation": "exact in small samples; tests H0 that A and B are exchangeable",
       "t": "fast and classic, assumes roughly normal per-item differences",
       "z": "normal approximation for large n", "wilcoxon": "rank test on per-item differences",
       "sign": "counts only which system wins each item", "mcnemar": "the classic test for paired right/wrong"}
MIN_FRAME = 0.1  # seconds a frame stays up at full speed: 25 frames in 2.5 s, each one seen
MAX_FRAMES = 500  # a run is computed before it is played: at slow speeds, large b gets b / 500 per frame
CHART_KEY = "live-histogram"
CHART = figure_config("delta_histogram", **export.PAPER_COLUMN)  # the camera saves what the SVG download does


@dataclass(frozen=True)
class Settings:
    metric: str
    test: str
    alternative: str
    n_resamples: int
    seed: int
    confidence_level: float
    speed: str
    options: tuple = ()


def settings(data: align.Aligned) -> Settings:
    metrics = align.suggest_metrics(data)
    c1, c2, c3 = st.columns(3)
    metric = c1.selectbox("Metric", metrics, help="Only the metrics that fit these data.")
    fitting = sigcore.tests_for(_inputs(data, metric)[3])
    test = c2.selectbox("Test", fitting, format_func=lambda t: t if t != fitting[0] else f"{t} (recommended)")
    c2.caption(WHY[test])
    alternative = ALTERNATIVES[c3.radio("H1", list(ALTERNATIVES), help="The alternative hypothesis.")]
    c4, c5, c6, c7 = st.columns(4)
    n = c4.number_input("Resamples b", 100, 1_000_000, 10_000, step=1_000)
    seed = c5.number_input("Seed", 0, 2**31 - 1, 0)
    level = c6.selectbox("Confidence level", [0.90, 0.95, 0.99], index=1, format_func=lambda x: f"{x:.0%}")
    speed = c7.selectbox("Animation", list(SPEEDS), index=len(SPEEDS) - 1,
                         help=f"At most {MAX_FRAMES} frames: with a larger b, each frame adds b / {MAX_FRAMES}.")
    options = ()
    if metric == "bleu":
        options = (("tokenize", st.selectbox("BLEU tokenizer", ["13a", "none", "intl", "char"])),)
    elif metric in ("f1", "precision", "recall"):
        labels = {str(v).strip(): v.strip() if isinstance(v, str) else v for v in data.gold}  # shown -> as given
        shown = sorted(labels, key=lambda v: (v.lower() not in ("1", "pos", "positive", "yes", "true"), v))
        options = (("positive_label", labels[st.selectbox("Positive class", shown)]),)
    return Settings(metric, test, alternative, int(n), int(seed), float(level), speed, options)


def _inputs(data: align.Aligned, metric: str):
    if metric in data.scores:  # a per-item score field, e.g. lm-eval's acc
        return align.score_inputs(data, metric)
    return data.gold, data.a, data.b, metric


def run_key(files: list[tuple[str, bytes]], data: align.Aligned, s: Settings) -> str:
    """What a result depends on: the bytes, the pairing and the settings."""
    h = hashlib.sha256()
    for name, content in files:
        h.update(name.encode() + hashlib.sha256(content).digest())
    h.update(repr((data.a_name, data.b_name, data.columns, asdict(s))).encode())
    return h.hexdigest()


def live(data: align.Aligned, s: Settings, key: str):
    """The Run button and the live histogram with its progress, running p and Stop.

    Run resamples the whole run at once (it is fast), then the chart plays it frame by frame in the browser
    (``ui.live_chart``) and reports how far it got. Returns the result shown at the end of the play (the
    whole run, or the partial one at Stop), or None, and an empty slot below for the verdict, so that a new
    run clears the old verdict at once.
    """
    state = st.session_state
    last = state.get("run")
    if st.button("Run", type="primary"):
        try:
            with st.spinner("Resampling..."):
                partials = list(_stream(data, s))
        except SigcoreError as e:
            st.error(md(str(data.locate(e) if isinstance(e, sigcore.InputError) else e)), icon="⚠️")
            partials = None
        last = state["run"] = None if partials is None else {"key": key, "id": uuid.uuid4().hex,
                                                             "partials": partials, "shown": None}
    fresh = last is not None and last["key"] == key
    if not fresh:
        live_chart(empty_histogram("Press Run: the distribution of δ(x⁽ⁱ⁾) builds up here"), [], run="idle",
                   shown=0, interval=1, config=CHART, key=CHART_KEY)  # loads the chart's page before Run
    elif last["partials"][-1].distribution is None:
        live_chart(empty_histogram("A closed-form test: nothing to resample"), [], run=last["id"], shown=0,
                   interval=1, config=CHART, key=CHART_KEY)
        last["shown"] = 1
    else:
        figure, frames = _frames(last["partials"], s)
        played = live_chart(figure, frames, run=last["id"], shown=last["shown"],
                            interval=max(SPEEDS[s.speed][1], MIN_FRAME), config=CHART, key=CHART_KEY)
        if played and played["run"] == last["id"]:
            last["shown"] = played["shown"]
        if config.get_option("global.appTest"):  # AppTest has no browser to play the frames
            last["shown"] = len(frames)
    verdict_slot = st.empty()
    if last is not None and not fresh:
        st.info("The data or settings changed since the last run: press Run to test again.")
    shown = last["shown"] if fresh else None
    return (last["partials"][shown - 1] if shown else None), verdict_slot


def _stream(data: align.Aligned, s: Settings):
    gold, a, b, metric = _inputs(data, s.metric)
    block = max(SPEEDS[s.speed][0] or 1, math.ceil(s.n_resamples / (MAX_FRAMES if SPEEDS[s.speed][0] else 25)))
    return sigcore.stream(gold, a, b, metric=metric, test=s.test, n_resamples=s.n_resamples,
                          alternative=s.alternative, confidence_level=s.confidence_level, seed=s.seed,
                          block=block, **dict(s.options))


def _frames(partials: list[sigcore.Result], s: Settings):
    """The chart of the whole run and, per partial result, its bar heights, title, progress and texts."""
    first = next((r for r in partials if len(r.distribution) >= min(100, s.n_resamples)), partials[-1])
    edges = live_edges(first.distribution, (first.delta, first.threshold, 0.0))  # the axis never moves
    frames = []
    for res, (body, tail) in zip(partials, histogram_frames(partials, edges)):
        total = res.n_resamples if res.exact else s.n_resamples
        frames.append(frame([body, tail], res.n_resamples / total, {
            "count": f"b = {res.n_resamples:,} of {total:,}",
            "status": f"running p = {res.p_value:.4f} ± {res.mc_error:.4f} (Monte-Carlo error) after "
                      f"{res.n_resamples:,} resamples"}, title=chart_title(res)))
    return delta_histogram(partials[-1], edges=edges), frames
