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
from sigcore import SigcoreError, claims, effects, front, report
from sigcore.comparison import RESAMPLING
from sigcore.contract import DEFAULT_ALPHA, DEFAULT_ALTERNATIVE, DEFAULT_RESAMPLES, DEFAULT_SEED
from sigcore.io.aligned import Aligned
from sigcore.io.metric_fit import engine_inputs
from sigcore.metrics import direction, known
from sigcore.report import export, reproduce
from sigcore.report.figures import (
    chart_title,
    claim_marks,
    delta_histogram,
    empty_histogram,
    histogram_frames,
    live_edges,
)
from sigcore.report.sentence import the

from . import work
from .data import digest
from .figure import config as figure_config
from .live_chart import frame, live_chart
from .safe import md

H1_HELP = ("H1, the alternative hypothesis, is chosen before looking at the results. Two-sided: the systems differ, "
           "in either direction (the default; report it unless the direction was fixed in advance). One-sided: "
           "only the named system being better counts as evidence; choosing that side after seeing which system "
           "won halves p unfairly.")
# label -> (resamples per frame, or None for about 25 frames in all; pause between frames in seconds)
SPEEDS = {"1 per frame (class)": (1, 0.25), "10 per frame": (10, 0.1), "100 per frame": (100, 0.05),
          "Fast (25 frames)": (None, 0.0)}
ALPHAS = (0.10, 0.05, 0.01, 0.005, 0.001)
MIN_FRAME = 0.1  # seconds a frame stays up at full speed: 25 frames in 2.5 s, each one seen
MAX_FRAMES = 500  # a run is computed before it is played: at slow speeds, large b gets b / 500 per frame
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
    claim: str = "better"  # or a claim of sigcore.claims.KINDS, with its margin
    margin: float = 0.0
    higher_is_better: bool | None = None  # per-item scores: as the Better box says; other metrics know their own

    @property
    def claimed(self) -> tuple[str, float] | None:
        """(kind, Δ) of a non-inferiority or equivalence claim, or None for "better"."""
        return None if self.claim == "better" else (self.claim, self.margin)


def hypotheses(a: str, b: str) -> dict[str, str]:
    """H1 in the systems' names, the default (two-sided) first, its side first so that a narrow box cuts a name,
    never the side: label -> alternative."""
    return {f"two-sided: {a} and {b} differ": "two-sided", f"one-sided: {a} is better than {b}": "greater",
            f"one-sided: {b} is better than {a}": "less"}


def defaults(prepared: front.Prepared, alpha: float = DEFAULT_ALPHA) -> dict:
    """What the settings start from for these data, as the command line runs them with no flag: the front door's
    metric (None while a question is open), the advisor's test at ``alpha``, H1 two-sided, b, the seed and α of
    the contract. ``sigcore compare FILES --json`` reports the same."""
    advice = None if prepared.metric is None else prepared.advice(alpha)
    return {"metric": prepared.metric, "test": None if advice is None else advice.recommended.test,
            "alternative": DEFAULT_ALTERNATIVE, "n_resamples": DEFAULT_RESAMPLES, "seed": DEFAULT_SEED, "alpha": alpha}


def settings(prepared: front.Prepared, source: str) -> Settings:
    """The setting widgets, starting from :func:`defaults`; ``source`` (from :func:`source_key`) keys the cached
    advice on the data."""
    data, metrics = prepared.data, list(prepared.choice.metrics)
    # the claim shares the advisor's band, its label folded into its options: Run stays on a 1440 x 900 screen
    (c1, c2, c3), (why, c0, cm), (c4, c5, c6, c7, c8) = (
        st.columns([0.8, 1.1, 1.6]), st.columns([2.4, 1.6, 1.0]), st.columns(5))
    asked = prepared.questions[0] if prepared.questions else None  # the data leave the metric open: asked
    metric = c1.selectbox("Metric", metrics, index=None if asked else metrics.index(prepared.metric),
                          help=METRIC_HELP, placeholder=_PLACEHOLDERS.get(asked and asked.question, "Choose"))
    if metric is None:
        st.warning(md(f"{asked.what[0].upper()}{asked.what[1:]}. {_ANSWERS[asked.question]}"))
        st.stop()
    options = _metric_options(c8, data, metric)  # before the tests: they change which items differ
    higher = _direction(c8, data, metric)
    alpha = c4.selectbox("Significance level α", ALPHAS, index=ALPHAS.index(DEFAULT_ALPHA),
                         format_func=lambda x: f"{x:g}",
                         help=f"H0 is rejected when p ≤ α. Intervals are at 1 − α ({1 - DEFAULT_ALPHA:.0%} for α = "
                              f"{DEFAULT_ALPHA:g}), one-sided for a one-sided H1, so that they agree with the test.")
    advice = _advice(source, metric, options, float(alpha), prepared)  # its Shapiro-Wilk level is α
    a, b = data.display_names
    claims_ = {"better": "Claim: better (as H1)", "non-inferior": "Claim: A no worse than B by Δ",
               "equivalent": "Claim: A and B within ±Δ"}
    if not direction(inputs(data, metric)[3], higher):  # H0 δ ≤ −Δ reads δ > 0 as A better
        del claims_["non-inferior"]
    claim = c0.selectbox("Claim", list(claims_), format_func=claims_.get, help=CLAIM_HELP,
                         label_visibility="collapsed")
    tests = ordered_tests(advice, inputs(data, metric)[3], data.groups is not None)
    if claim != "better":  # only the tests with a shifted null (sigcore.claims)
        tests = [t for t in tests if t in claims.TESTS]
    test = c2.selectbox("Test", tests, format_func=lambda t: f"{t} (recommended)" if advice and
                        t == advice.recommended.test else t, help=TEST_HELP)
    labels = hypotheses(a, b)  # a select box shows its options as text, never Markdown
    alternative = labels[c3.selectbox("H1", list(labels), index=list(labels.values()).index(DEFAULT_ALTERNATIVE),
                                      help=H1_HELP, disabled=claim != "better")]
    margin = 0.0
    if claim != "better":
        margin = cm.number_input("Margin Δ", min_value=0.0, value=None, step=0.01, format="%g",
                                 placeholder="Margin Δ", help=MARGIN_HELP, label_visibility="collapsed")
        if not margin:
            st.info(md(f"Give the margin Δ on {metric}'s scale (0.5 for BLEU points, 0.01 for accuracy), chosen "
                       "before seeing the data, then press Run."))
            st.stop()
        alternative = "greater"  # the claim's bootstrap counts its own tails of the same resamples
    with why:
        _advisor(advice, test)
    n = c5.number_input("Resamples b", 100, 1_000_000, DEFAULT_RESAMPLES, step=1_000, help=B_HELP)
    seed = c6.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED,
                           help="The seed of the resamples: the same seed, data and settings give the same p, on any "
                                "machine.")
    speed = c7.selectbox("Animation", list(SPEEDS), index=len(SPEEDS) - 1,
                         help=f"At most {MAX_FRAMES} frames: with a larger b, each frame adds b / {MAX_FRAMES}.")
    return Settings(metric, test, alternative, int(n), int(seed), float(alpha), speed, options, claim,
                    float(margin), higher)


METRIC_HELP = ("Only the metrics that fit these data, the most natural first: accuracy and the F1 family for labels, "
               "BLEU and chrF for translations, span F1 for tags, MAE, MSE and RMSE (lower is better) for real-valued "
               "predictions against real-valued gold, the mean for per-item scores.")
BETTER_HELP = ("Which way the per-item scores are better: higher (accuracy, a judge's rating) or lower (an error, a "
               "loss, a rank). It decides who \"beats\" whom, and which side a one-sided H1 names.")
BETTER = {"Higher is better": True, "Lower is better": False}
TEST_HELP = ("Only the tests that fit this metric and these data; the one the advisor (Dror et al. 2018) recommends "
             "for these data first, and runs by default. Resampling tests (bootstrap, permutation) fit any metric; "
             "t, z, Wilcoxon and sign need per-item values; McNemar right/wrong items.")
CLAIM_HELP = ("What the run tests. Better: the H1 beside it. No worse than by Δ (non-inferiority): H0 δ ≤ −Δ, "
              "shown when the one-sided 1 − α bound of δ lies above −Δ. Within ±Δ (equivalence): two one-sided "
              "tests, shown when the 1 − 2α interval lies inside ±Δ. Only the bootstrap (any metric) and the "
              "t-test (means) have a shifted null.")
MARGIN_HELP = ("The difference that does not matter, on the metric's scale. Choose it before looking at the "
               "results: a margin set afterwards, just wide enough, is the same mistake as a side chosen "
               "afterwards.")
B_HELP = ("How many times the bootstrap redraws the test set (or the permutation test swaps A and B): p is resolved "
          "to about 1/b, and its Monte-Carlo error shrinks as 1/√b. 10,000 is the default everywhere.")


def ordered_tests(advice, metric: str, grouped: bool) -> list[str]:
    """The Test box's choices: the recommended test, the others the advice accepts, then the rest that fit."""
    if advice is None:  # bad data: the tests that fit, and Run shows the message
        return sigcore.tests_for(metric, grouped=grouped)
    advised = [advice.recommended.test, *(c.test for c in advice.acceptable)]
    return advised + [t for t in advice.facts["fits"] if t not in advised]


def _metric_options(column, data: Aligned, metric: str) -> tuple:
    """The metric's own settings, under it: they come before the tests, as they change which items differ."""
    if metric == "bleu":
        return (("tokenize", column.selectbox("BLEU tokenizer", ["13a", "none", "intl", "char"])),)
    if metric in ("f1", "precision", "recall"):
        labels = {str(v).strip(): v.strip() if isinstance(v, str) else v for v in data.gold}  # shown -> as given
        shown = sorted(labels, key=lambda v: (v.lower() not in ("1", "pos", "positive", "yes", "true"), v))
        return (("positive_label", labels[column.selectbox("Positive class", shown)]),)
    return ()


def _direction(column, data: Aligned, metric: str) -> bool | None:
    """The Better box, for the metric as it is resolved (a score field of the files, lm-eval's or one's own, is
    averaged as the mean unless it is right/wrong): a choice for per-item scores, whose direction only the user
    knows; shown and fixed where lower is better (MAE), as the metric knows it; none where higher is (accuracy)."""
    resolved = known(inputs(data, metric)[3])
    if resolved is None or resolved.higher_is_better:
        return None
    if resolved.higher_is_better is None:
        return BETTER[column.selectbox("Better", list(BETTER), help=BETTER_HELP)]
    column.selectbox("Better", ["Lower is better"], disabled=True,
                     help=f"{metric} is an error: lower is better, and the metric fixes it. "
                          "A beats B when A's is lower.")
    return None


def claim_of(data: Aligned, s: Settings, res: sigcore.Result) -> claims.Claim:
    """The claim the run tested: from the bootstrap's own resamples (as drawn on the chart), or the t-test's."""
    if s.test == "bootstrap":
        return claims.from_result(res, *s.claimed)
    gold, a, b, metric = inputs(data, s.metric)
    return claims.claim(gold, a, b, kind=s.claim, margin=s.margin, metric=metric, test=s.test, alpha=s.alpha,
                        higher_is_better=s.higher_is_better, **dict(s.options))


def effect_sizes(data: Aligned, s: Settings, res: sigcore.Result) -> list:
    """The effect sizes that fit the metric, their intervals on the test's side."""
    gold, a, b, name = inputs(data, s.metric)
    return effects.effect_sizes(gold, a, b, metric=name, alternative=res.delta_alternative,  # of A − B
                                confidence_level=res.confidence_level, **dict(s.options))


def _advisor(advice, test: str) -> None:
    """Why the chosen test (the advisor's reason, or why it is not advised), and all of its advice on request."""
    if advice is None:
        return
    reasons = {c.test: c.reason for c in advice.acceptable}
    rejected = {c.test: c.reason for c in advice.unsuitable}
    if test != advice.recommended.test:  # the recommended one says why in the box below
        st.caption(md(f"Also valid: {reasons[test]}." if test in reasons else
                      f"⚠ Not advised for these data: {rejected[test]}."))
    with st.expander(f"Which test? Advised: {advice.recommended.title}"):
        st.caption("After the decision tree of Dror et al. (2018), on these data.")
        lines = [f"**Recommended: {md(advice.recommended.title)}**, because {md(advice.recommended.reason)}."]
        for heading, choices in (("Also valid", advice.acceptable), ("Not advised", advice.unsuitable)):
            lines += [f"**{heading}:**"] + [f"- {md(c.title)}: {md(c.reason)}." for c in choices] if choices else []
        st.markdown("\n\n".join(lines))


@st.cache_data(max_entries=64, show_spinner=False)
def _advice(source: str, metric: str, options: tuple, alpha: float, _prepared: front.Prepared):
    """The advisor on these data (cached on ``source``, not on the long lists); None where the data are bad."""
    try:
        return _prepared.choose(metric, **dict(options)).advice(alpha)
    except SigcoreError:  # bad data: Run shows the message
        return None


# the front door's questions about the metric: the Metric box's prompt, and what to do, said under it
_PLACEHOLDERS = {"Are they per-item scores to average, or labels that need their gold?": "Labels or scores? Choose",
                 "Which one?": "Which scorer? Choose"}
_ANSWERS = {
    "Are they per-item scores to average, or labels that need their gold?":
        "Choose mean only if they are per-item scores to average; if they are predicted labels, add the gold (a gold "
        "file, or a gold column).",
    "Which one?": "Choose the one to compare in the Metric box: the logs report each."}


def command(files: list[tuple[str, bytes]], data: Aligned, s: Settings, res: sigcore.Result,
            encoding: str | None = None) -> str:
    """The command line that recreates ``res`` from the files (by their names), every setting spelled out: the
    columns, how the files were paired and the encoding chosen on the page among them, and the claim."""
    signed = res.signature_fields if s.claimed is None else res.signature_fields.with_claim(*s.claimed)
    return reproduce.command(signed, [name for name, _ in files], columns=data.columns, metric=s.metric,
                             by_row=data.by_row, encoding=encoding)


def inputs(data: Aligned, metric: str):
    """(gold, A, B, the engine's metric) for the metric the Metric box chose (:func:`sigcore.front.prepare`'s)."""
    return engine_inputs(data, metric)


def source_key(files: list[tuple[str, bytes]], data: Aligned) -> str:
    """What the data depend on: the bytes, and the items as paired and decoded (columns, group, pairing by id or
    by row, encoding): two pairings of the same files are two data sets."""
    return digest(files, pickle.dumps((data.a_name, data.b_name, data.columns, data.gold, data.a, data.b, data.ids,
                                       data.groups)))


def run_key(source: str, s: Settings) -> str:
    """What a result depends on: the data (:func:`source_key`) and the settings."""
    return hashlib.sha256(repr((source, asdict(s))).encode()).hexdigest()


def live(data: Aligned, s: Settings, key: str, heading: str = ""):
    """The Run button and the live histogram with its progress, running p and Stop.

    Run resamples the whole run at once (it is fast), then the chart plays it frame by frame in the browser
    (``ui.live_chart``) and reports how far it got. Returns the result shown at the end of the play (the
    whole run, or the partial one at Stop), or None, and an empty slot below for the verdict, so that a new
    run clears the old verdict at once.
    """
    state = st.session_state
    last = state.get("run")
    title, button, progress = st.columns([1.2, 0.7, 6], vertical_alignment="center")  # one row: nothing moves
    if heading:
        title.subheader(heading)
    if button.button("Run", type="primary"):
        try:
            partials = _compute(data, s, progress)
        except SigcoreError as e:
            st.error(md(work.explain(data.locate(e) if isinstance(e, sigcore.InputError) else e)), icon="⚠️")
            partials = None
        last = state["run"] = None if partials is None else {"key": key, "id": uuid.uuid4().hex,
                                                             "partials": partials, "shown": None}
    fresh = last is not None and last["key"] == key
    if s.test not in RESAMPLING:  # nothing is resampled: no chart to watch
        title = the(sigcore.TESTS[s.test].title)
        st.caption(f"{title[0].upper()}{title[1:]} is closed-form: nothing is resampled, and its p is exact "
                   "or from its formula." if s.test != "z" else "The paired z-test uses the normal approximation: "
                   "nothing is resampled.")
        if fresh:
            last["shown"] = 1
    elif not fresh:
        live_chart(empty_histogram("Press Run: the distribution of δ(x⁽ⁱ⁾) builds up here"), [], run="idle",
                   shown=0, interval=1, config=CHART, key=CHART_KEY)  # loads the chart's page before Run
    else:
        figure, frames = chart_frames(last["partials"], s)
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


def _compute(data: Aligned, s: Settings, area) -> list[sigcore.Result]:
    """The whole run, block by block, with a progress bar in ``area``: a rerun, a Stop or a closed tab interrupts it
    at the next block (Streamlit stops a script at its next call), instead of computing on for minutes."""
    partials = []
    results = run_stream(data, s)  # settings and budget checked here, before the run waits for its turn
    resampled, title = s.test in RESAMPLING, sigcore.TESTS[s.test].title
    slot = area.empty()  # one element: the wait for a turn, then the progress, each in place of the last
    with work.turn(slot, "Resampling" if resampled else "Computing"):
        progress = slot.progress(0.0, text="Resampling..." if resampled else "Computing...")
        for res in results:
            partials.append(res)
            progress.progress(1.0 if res.done else min(res.n_resamples / s.n_resamples, 1.0),
                              text=f"Resampling: {res.n_resamples:,} drawn" if resampled else
                              f"{title[0].upper()}{title[1:]}: computed, nothing resampled")
    return partials


def run_stream(data: Aligned, s: Settings):
    gold, a, b, metric = inputs(data, s.metric)
    block = max(SPEEDS[s.speed][0] or 1, math.ceil(s.n_resamples / (MAX_FRAMES if SPEEDS[s.speed][0] else 25)))
    return sigcore.stream(gold, a, b, metric=metric, test=s.test, n_resamples=s.n_resamples,
                          alternative=s.alternative, alpha=s.alpha, seed=s.seed, groups=data.groups,
                          block=block, budget=work.BUDGET, higher_is_better=s.higher_is_better, **dict(s.options))


def chart_frames(partials: list[sigcore.Result], s: Settings):
    """The chart of the whole run and, per partial result, its bar heights, title, progress and texts."""
    first = next((r for r in partials if len(r.distribution) >= min(100, s.n_resamples)), partials[-1])
    edges = live_edges(first.distribution, claim_marks(first, s.claimed))  # the axis never moves
    frames = []
    total = partials[-1].n_resamples  # b, or the 2^n' swaps an exact permutation test enumerates
    for res, (body, tail) in zip(partials, histogram_frames(partials, edges, s.claimed)):
        title, p = _texts(res, s)
        frames.append(frame([body, tail], res.n_resamples / total, {
            "count": f"b = {res.n_resamples:,} of {total:,}",
            "status": f"running {p} after {res.n_resamples:,} of {total:,} resamples"}, title=title))
    return delta_histogram(partials[-1], edges=edges, claim=s.claimed, title=frames[-1]["title"]), frames


def _texts(res: sigcore.Result, s: Settings) -> tuple[str, str]:
    """A frame's title and running p: the test's, or the claim's (computed once per frame)."""
    if s.claimed is None:
        return chart_title(res), _p_status(res)
    c = claims.from_result(res, *s.claimed)
    return (f"{CLAIM_TITLES[c.kind]} Δ = {c.margin:g}: {c.p_text}, b = {res.n_resamples:,}",
            f"the claim's {c.p_text}")


CLAIM_TITLES = {"non-inferior": "No worse by", "equivalent": "Within ±"}


def _p_status(res: sigcore.Result) -> str:
    """p as the verdict prints it, with its Monte-Carlo 95% interval: never "p = 0" nor "± 0"."""
    return f"{res.p_text} ({report.mc_text(res) if res.resampled else 'exact enumeration'})"
