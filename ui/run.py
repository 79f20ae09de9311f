"""Settings and the live run of the Compare page: the histogram of delta(x^(i)) grows block by block.

Every number comes from ``sigcore.stream``; a run is kept with the settings and data it was made from, so a
changed setting never shows a stale result.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import asdict, dataclass

import streamlit as st

import sigcore
from sigcore import SigcoreError, align
from sigcore.figures import delta_histogram, empty_histogram, live_edges

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
MIN_FRAME = 0.1  # seconds a frame stays up, so the browser draws every frame instead of skipping to the last
CHART = {"displaylogo": False, "toImageButtonOptions": {"format": "svg", "filename": "delta_histogram",
                                                        "width": 480, "height": 320}}


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
    speed = c7.selectbox("Animation", list(SPEEDS), index=len(SPEEDS) - 1)
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
    """Run and Stop buttons, the growing histogram, progress and the running p.

    Returns the result shown (or None) and an empty slot below for the verdict, so that a new run clears the
    old verdict at once instead of leaving it faded on the page while the histogram grows.
    """
    state = st.session_state
    left, right, _ = st.columns([1, 1, 4])
    start = left.button("Run", type="primary", width="stretch")
    stop = right.button("Stop", width="stretch", help="Keep what has been drawn so far.")
    chart, progress, status, verdict_slot = st.empty(), st.empty(), st.empty(), st.empty()
    last = state.get("run")
    if start:
        last = state["run"] = {"key": key, "result": None, "edges": None, "stopped": False}
        try:
            _animate(data, s, last, chart, progress, status)
        except SigcoreError as e:
            state["run"] = None
            st.error(md(str(data.locate(e) if isinstance(e, sigcore.InputError) else e)), icon="⚠️")
            return None, verdict_slot
        return last["result"], verdict_slot
    if last is None or last["result"] is None or last["key"] != key:
        chart.plotly_chart(empty_histogram("Press Run: the distribution of δ(x⁽ⁱ⁾) builds up here"), config=CHART)
        if last is not None and last["key"] != key:
            st.info("The data or settings changed since the last run: press Run to test again.")
        return None, verdict_slot
    if stop and not last["result"].done:
        last["stopped"] = True
    res = last["result"]
    _draw(res, last["edges"], chart, progress, status, stopped=last["stopped"] or not res.done, total=s.n_resamples)
    return res, verdict_slot


def _animate(data, s: Settings, last: dict, chart, progress, status) -> None:
    gold, a, b, metric = _inputs(data, s.metric)
    per_frame, pause = SPEEDS[s.speed]
    block = per_frame or max(1, math.ceil(s.n_resamples / 25))
    shown = time.perf_counter()
    for partial in sigcore.stream(gold, a, b, metric=metric, test=s.test, n_resamples=s.n_resamples,
                                  alternative=s.alternative, confidence_level=s.confidence_level, seed=s.seed,
                                  block=block, **dict(s.options)):
        values = partial.distribution
        if values is not None and last["edges"] is None and len(values) >= min(100, s.n_resamples):
            last["edges"] = live_edges(values, (partial.delta, partial.threshold, 0.0))  # fixed from now on
        last["result"] = partial
        _draw(partial, last["edges"], chart, progress, status, stopped=False, total=s.n_resamples)
        if not partial.done:
            time.sleep(max(pause, MIN_FRAME - (time.perf_counter() - shown), 0.0))
        shown = time.perf_counter()


def _draw(res: sigcore.Result, edges, chart, progress, status, *, stopped: bool, total: int) -> None:
    if res.distribution is None:
        status.caption("A closed-form test: no resampling to draw.")
        return
    chart.plotly_chart(delta_histogram(res, edges=edges), config=CHART)
    done = res.n_resamples if res.exact else total
    progress.progress(min(res.n_resamples / done, 1.0), text=f"b = {res.n_resamples:,} of {done:,}"
                      + (" (stopped)" if stopped else ""))
    status.text(f"running p = {res.p_value:.4f} ± {res.mc_error:.4f} (Monte-Carlo error) after "
                f"{res.n_resamples:,} resamples")
