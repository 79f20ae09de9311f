"""Settings and the live run of the Compare page: the histogram of delta(x^(i)) grows block by block.

Every number comes from ``sigcore.stream``; a run is kept with the settings and data it was made from, so a
changed setting never shows a stale result.
"""

from __future__ import annotations

import hashlib
import math
import pickle
import uuid
from dataclasses import asdict, dataclass

import streamlit as st
from streamlit import config

import sigcore
from sigcore import SigcoreError, advisor, effects, report
from sigcore.io import align
from sigcore.report import export, reproduce
from sigcore.report.figures import chart_title, delta_histogram, empty_histogram, histogram_frames, live_edges

from .data import digest, n_groups
from .figure import config as figure_config
from .live_chart import frame, live_chart
from .safe import md

ALTERNATIVES = {"A better than B": "greater", "B better than A": "less", "A and B differ": "two-sided"}
# label -> (resamples per frame, or None for about 25 frames in all; pause between frames in seconds)
SPEEDS = {"1 resample per frame (class)": (1, 0.25), "10 per frame": (10, 0.1), "100 per frame": (100, 0.05),
          "As fast as possible": (None, 0.0)}
ALPHAS = (0.10, 0.05, 0.01, 0.005, 0.001)
WHY = {"bootstrap": "fits any metric and gives the interval of the difference",
       "permutation": "valid in small samples; tests H0 that A and B are exchangeable",
       "t": "fast and classic, assumes roughly normal per-item differences",
       "z": "normal approximation for large n", "wilcoxon": "rank test on per-item differences",
       "sign": "counts only which system wins each item", "mcnemar": "the classic test for paired right/wrong"}
MIN_FRAME = 0.1  # seconds a frame stays up at full speed: 25 frames in 2.5 s, each one seen
MAX_FRAMES = 500  # a run is computed before it is played: at slow speeds, large b gets b / 500 per frame
BUDGET = 2 * 10**9  # resamples x rows one run may compute on this shared server (about 30 s); the CLI has none
CHART_KEY = "live-histogram"
CHART = figure_config("delta_histogram", **export.SCREEN_FIGURE)  # the camera saves the chart as drawn


@dataclass(frozen=True)
class Settings:
    metric: str
    test: str
    alternative: str
    n_resamples: int
    seed: int
    alpha: float  # the significance level; the intervals are at 1 - alpha, so they agree with the test
    speed: str
    options: tuple = ()


def settings(data: align.Aligned, source: str) -> Settings:
    """The setting widgets; ``source`` (from :func:`source_key`) keys the cached size of the data."""
    metrics = align.suggest_metrics(data)
    c1, c2, c3 = st.columns(3)
    metric = c1.selectbox("Metric", metrics, help="Only the metrics that fit these data.")
    options = _metric_options(c1, data, metric)
    size = _size(source, metric, options, data)
    fitting = sigcore.tests_for(inputs(data, metric)[3], **size)
    test = c2.selectbox("Test", fitting, format_func=lambda t: t if t != fitting[0] else f"{t} (recommended)",
                        help="Only the tests that fit this metric and these data, the recommended one first."
                             + (" The items come in groups: only the tests that resample whole groups fit."
                                if size["grouped"] else ""))
    c2.caption(_why(test, fitting, size))
    alternative = ALTERNATIVES[c3.radio("H1", list(ALTERNATIVES), help="The alternative hypothesis.")]
    c4, c5, c6, c7 = st.columns(4)
    n = c4.number_input("Resamples b", 100, 1_000_000, 10_000, step=1_000)
    seed = c5.number_input("Seed", 0, 2**31 - 1, 0)
    alpha = c6.selectbox("Significance level α", ALPHAS, index=ALPHAS.index(0.05), format_func=lambda x: f"{x:g}",
                         help="H0 is rejected when p ≤ α. Intervals are at 1 − α (95% for α = 0.05), one-sided "
                              "for a one-sided H1, so that they agree with the test.")
    speed = c7.selectbox("Animation", list(SPEEDS), index=len(SPEEDS) - 1,
                         help=f"At most {MAX_FRAMES} frames: with a larger b, each frame adds b / {MAX_FRAMES}.")
    _advisor(c2, _advice(source, metric, options, data), test)  # full width, below the settings
    return Settings(metric, test, alternative, int(n), int(seed), float(alpha), speed, options)


def _metric_options(column, data: align.Aligned, metric: str) -> tuple:
    """The metric's own settings, under it: they come before the tests, as they change which items differ."""
    if metric == "bleu":
        return (("tokenize", column.selectbox("BLEU tokenizer", ["13a", "none", "intl", "char"])),)
    if metric in ("f1", "precision", "recall"):
        labels = {str(v).strip(): v.strip() if isinstance(v, str) else v for v in data.gold}  # shown -> as given
        shown = sorted(labels, key=lambda v: (v.lower() not in ("1", "pos", "positive", "yes", "true"), v))
        return (("positive_label", labels[column.selectbox("Positive class", shown)]),)
    return ()


def _why(test: str, fitting: list[str], size: dict) -> str:
    """The caption under the Test box: why the recommended test is first, or what the chosen one does."""
    few = _few(fitting, size)
    if test != fitting[0]:
        return WHY[test] + (f"; with {few}, its p tends to be too small" if few and test == "bootstrap" else "")
    if few is None:
        return "recommended: " + WHY[test]
    if test == "mcnemar":
        return f"recommended, exact: {few}"
    return f"recommended for {few}: valid in small samples, and exact when b covers every swap of A and B"


def _few(fitting: list[str], size: dict) -> str | None:
    """What made ``tests_for`` put a small-sample test first (the bootstrap leads otherwise), or None."""
    if fitting[0] == "bootstrap":
        return None
    units, n, differ = "groups" if size["grouped"] else "items", size["n_items"], size["n_differing"]
    if differ is None:
        return f"few {units} ({n:,})"
    if fitting[0] == "mcnemar":
        return f"few discordant pairs ({differ:,} items where only one system is right)"
    return f"few {units} where A and B differ ({differ:,} of {n:,})"


@st.cache_data(max_entries=64, show_spinner=False)
def _size(source: str, metric: str, options: tuple, _data: align.Aligned) -> dict:
    """``sigcore.tests_for``'s size arguments: items (groups when grouped) and those where A and B differ, the
    ones that move delta (for right/wrong items, the discordant pairs), counted by the engine as its
    small-sample warning counts them. Cached on ``source``, not on the long lists."""
    grouped = _data.groups is not None
    gold, a, b, name = inputs(_data, metric)
    try:  # one resample and no interval: only the counts are wanted
        res = sigcore.compare(gold, a, b, metric=name, n_resamples=1, ci_method=None, groups=_data.groups,
                              **dict(options))
    except SigcoreError:  # bad data: Run shows the message
        return {"n_items": n_groups(_data) if grouped else _data.n, "n_differing": None, "grouped": grouped}
    return {"n_items": res.n_groups if grouped else res.n_items, "n_differing": res.n_differing, "grouped": grouped}


def effect_sizes(data: align.Aligned, s: Settings, res: sigcore.Result) -> list:
    """The effect sizes that fit the metric, their intervals on the test's side."""
    gold, a, b, name = inputs(data, s.metric)
    return effects.effect_sizes(gold, a, b, metric=name, alternative=res.alternative,
                                confidence_level=res.confidence_level, **dict(s.options))


def _advisor(column, advice, test: str) -> None:
    """The advisor's word on the chosen test, and all of its advice on request."""
    if advice is None:
        return
    rejected = {c.test: c.reason for c in advice.unsuitable}
    if test in rejected:
        column.caption(md(f"⚠ Not advised for these data: {rejected[test]}."))
    with st.expander(f"Which test? Advised: {advice.recommended.title}"):
        st.caption("After the decision tree of Dror et al. (2018), on these data.")
        lines = [f"**Recommended: {md(advice.recommended.title)}**, because {md(advice.recommended.reason)}."]
        for heading, choices in (("Also valid", advice.acceptable), ("Not advised", advice.unsuitable)):
            lines += [f"**{heading}:**"] + [f"- {md(c.title)}: {md(c.reason)}." for c in choices] if choices else []
        st.markdown("\n\n".join(lines))


@st.cache_data(max_entries=64, show_spinner=False)
def _advice(source: str, metric: str, options: tuple, _data: align.Aligned):
    """The advisor on these data (cached on ``source``, like :func:`_size`); None where the data are bad."""
    gold, a, b, name = inputs(_data, metric)
    try:
        return advisor.advise_outputs(gold, a, b, metric=name, groups=_data.groups, **dict(options))
    except SigcoreError:  # bad data: Run shows the message
        return None


def command(files: list[tuple[str, bytes]], data: align.Aligned, s: Settings, res: sigcore.Result,
            encoding: str | None = None) -> str:
    """The command line that recreates ``res`` from the files (by their names), every setting spelled out: the
    columns, how the files were paired and the encoding chosen on the page among them."""
    return reproduce.command(res, [name for name, _ in files], columns=data.columns, metric=s.metric,
                             by_row=data.by_row, encoding=encoding)


def inputs(data: align.Aligned, metric: str):
    if metric in data.scores:  # a per-item score field, e.g. lm-eval's acc
        return align.score_inputs(data, metric)
    return data.gold, data.a, data.b, metric


def source_key(files: list[tuple[str, bytes]], data: align.Aligned) -> str:
    """What the data depend on: the bytes, and the items as paired and decoded (columns, group, pairing by id or
    by row, encoding): two pairings of the same files are two data sets."""
    return digest(files, pickle.dumps((data.a_name, data.b_name, data.columns, data.gold, data.a, data.b, data.ids,
                                       data.groups)))


def run_key(source: str, s: Settings) -> str:
    """What a result depends on: the data (:func:`source_key`) and the settings."""
    return hashlib.sha256(repr((source, asdict(s))).encode()).hexdigest()


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
            partials = _compute(data, s)
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


def _compute(data: align.Aligned, s: Settings) -> list[sigcore.Result]:
    """The whole run, block by block, with a progress bar: a rerun, a Stop or a closed tab interrupts it at
    the next block (Streamlit stops a script at its next call), instead of computing on for minutes."""
    progress = st.progress(0.0, text="Resampling...")
    partials = []
    for res in _stream(data, s):
        partials.append(res)
        progress.progress(1.0 if res.done else min(res.n_resamples / s.n_resamples, 1.0),
                          text=f"Resampling: {res.n_resamples:,} drawn")
    progress.empty()
    return partials


def _stream(data: align.Aligned, s: Settings):
    gold, a, b, metric = inputs(data, s.metric)
    block = max(SPEEDS[s.speed][0] or 1, math.ceil(s.n_resamples / (MAX_FRAMES if SPEEDS[s.speed][0] else 25)))
    return sigcore.stream(gold, a, b, metric=metric, test=s.test, n_resamples=s.n_resamples,
                          alternative=s.alternative, alpha=s.alpha, seed=s.seed, groups=data.groups,
                          block=block, budget=BUDGET, **dict(s.options))


def _frames(partials: list[sigcore.Result], s: Settings):
    """The chart of the whole run and, per partial result, its bar heights, title, progress and texts."""
    first = next((r for r in partials if len(r.distribution) >= min(100, s.n_resamples)), partials[-1])
    edges = live_edges(first.distribution, (first.delta, first.threshold, 0.0))  # the axis never moves
    frames = []
    total = partials[-1].n_resamples  # b, or the 2^n' swaps an exact permutation test enumerates
    for res, (body, tail) in zip(partials, histogram_frames(partials, edges)):
        frames.append(frame([body, tail], res.n_resamples / total, {
            "count": f"b = {res.n_resamples:,} of {total:,}",
            "status": f"running {_p_status(res)} after {res.n_resamples:,} of {total:,} resamples"},
            title=chart_title(res)))
    return delta_histogram(partials[-1], edges=edges), frames


def _p_status(res: sigcore.Result) -> str:
    """p as the verdict prints it, with its Monte-Carlo 95% interval: never "p = 0" nor "± 0"."""
    return f"{res.p_text} ({report.mc_text(res) if res.resampled else 'exact enumeration'})"
