"""The Many systems page's "Many seeds" mode: systems trained with several random seeds.

Two inputs, as ``python -m sigcore seeds`` takes them:
- per-seed scores (a column per system and a row per seed, or the columns system and score): Almost Stochastic
  Order (:func:`sigcore.statistics.multi_aso`, as deepsig computes it), the matrix of ε_min, row better than
  column, read against τ = 0.2;
- per-seed outputs of A and B on one test set (a gold file and a file per run, or one table with a column per
  run): the paired bootstrap over items and runs (:func:`sigcore.compare_seeds`).

The defaults are sigcore's everywhere: b = 10,000 (the bootstrap over items and runs, and ASO's bootstrap, where
deepsig's default is 1,000: on the sample, 10,000 takes about 0.03 s and 0.15 s), H1 two-sided, α = 0.05. Every
output states the settings it used: the sentence, the captions, and each download's columns or header line.

Uploads are parsed by :mod:`ui.data` (cached on the bytes, never on disk). System and run names are user text:
cells in tables (never HTML), escaped in Markdown (:mod:`ui.safe`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
import streamlit as st

import sigcore
from sigcore import SigcoreError
from sigcore.contract import DEFAULT_ALPHA, DEFAULT_ALTERNATIVE, DEFAULT_RESAMPLES, DEFAULT_SEED
from sigcore.io import results
from sigcore.io.aligned import AlignedMany
from sigcore.io.loading import load_many
from sigcore.io.roles import gold_files, names_of, system_of
from sigcore.report import citations, export
from sigcore.report import seeds as seeds_words
from sigcore.report.sentence import SIDED, decimals, number
from sigcore.result import delta_alternative
from sigcore.statistics.aso import N_BOOTSTRAP, TAU
from sigcore.words import told_apart

from . import data as data_ui
from . import work
from .data import ENCODINGS
from .many import ALPHAS, NO_GOLD, metric_label_of, metrics_for
from .safe import md

SAMPLE_DIR = data_ui.SAMPLE_DIR / "seeds"
SAMPLE_SCORES, SAMPLE_RUNS = "digits_seed_scores.csv", "digits_runs.csv"
SAMPLE_A, SAMPLE_B = "mlp", "forest"  # the runs the sample compares
SCORES, RUNS = "Scores per seed", "Outputs per seed (A against B)"
CONFIDENCE_LEVELS = (0.90, 0.95, 0.99)
TAUS = (0.2, 0.5)
ALTERNATIVES = {"greater": "{a} better than {b}", "less": "{b} better than {a}", "two-sided": "{a} and {b} differ"}
B_DEFAULT = DEFAULT_RESAMPLES  # sigcore's b, for the bootstrap over items and runs and for ASO's
ABOUT = ("Systems trained with several random seeds: a single run of each says little. From each run's score, "
         "Almost Stochastic Order (Dror et al. 2019, as deepsig computes it) asks whether one system's scores "
         "dominate another's over the seeds; from each run's outputs, the paired bootstrap over items and runs "
         "tests A against B with both the test set's and the seeds' variance.")


@dataclass(frozen=True)
class Scores:
    """Per-seed scores: each system's scores, as read."""

    scores: dict[str, tuple[float, ...]]
    file: str
    sample: bool
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Runs:
    """Per-seed outputs on one test set: ``data.systems`` maps each run's name to its outputs."""

    data: AlignedMany
    source: str
    files: tuple[str, ...]
    sample: bool


@dataclass(frozen=True)
class AsoSettings:
    confidence_level: float = 0.95
    bonferroni: bool = True
    tau: float = TAU
    n_bootstrap: int = N_BOOTSTRAP  # deepsig's default is 1,000
    seed: int = DEFAULT_SEED


@dataclass(frozen=True)
class RunsSettings:
    runs_a: tuple[str, ...]
    runs_b: tuple[str, ...]
    metric: str = "accuracy"
    alternative: str = DEFAULT_ALTERNATIVE
    n_resamples: int = B_DEFAULT
    alpha: float = DEFAULT_ALPHA
    seed: int = DEFAULT_SEED

    @property
    def names(self) -> tuple[str, str]:
        """A's and B's names: the system their runs belong to (mlp_seed0… is mlp), else "A" and "B"."""
        return names_of(self.runs_a, self.runs_b)

    def h1(self) -> str:
        """H1 in the systems' names, with its side: "mlp and forest differ (two-sided)"."""
        return f"{h1_label(self.alternative, *self.names)} ({SIDED[self.alternative]})"

    def used(self) -> str:
        """The settings as the outputs state them: "H1: mlp and forest differ (two-sided), b = 10,000, seed 0,
        α = 0.05"."""
        return f"H1: {self.h1()}, b = {self.n_resamples:,}, seed {self.seed}, α = {self.alpha:g}"


# ---------------------------------------------------------------- data


def choose() -> tuple[str, list[tuple[str, bytes]], str | None, bool]:
    """What kind of input and its files, as (kind, [(name, bytes)], encoding, sample)."""
    kind = st.radio("Input", [SCORES, RUNS], horizontal=True, key="seeds-input",
                    help="Each run's score (a row per seed), for Almost Stochastic Order over every pair; or each "
                         "run's outputs on one test set, to test A against B over items and runs.")
    source = st.radio("Data", ["Sample", "Upload"], horizontal=True, label_visibility="collapsed",
                      key=f"seeds-source-{kind == SCORES}")
    if source == "Sample":
        name = SAMPLE_SCORES if kind == SCORES else SAMPLE_RUNS
        st.caption(("Accuracy of three scikit-learn classifiers (an MLP, a random forest, a linear SGD model), each "
                    "trained with five seeds on the digits data and tested on the same 400 images"
                    if kind == SCORES else
                    "The predictions of those 15 runs (an MLP, a random forest and a linear SGD model, five seeds "
                    "each) on the 400 digits test images, a column per run")
                   + "; see sample_data/README.md.")
        return kind, [(name, (SAMPLE_DIR / name).read_bytes())], None, True
    if kind == SCORES:
        upload = st.file_uploader("Per-seed scores", key="seeds-upload-scores",
                                  help="A table: a column per system and a row per seed (a seed or run column is "
                                       "allowed), or the columns system and score (and seed). Higher is better. "
                                       "Nothing is stored.")
        files = [] if upload is None else [(upload.name, upload.getvalue())]
    else:
        uploads = st.file_uploader("Per-seed outputs", accept_multiple_files=True, key="seeds-upload-runs",
                                   help="A gold file and one file per run (A's and B's), or one table with a gold "
                                        "column and a column per run. Nothing is stored.")
        files = [(u.name, u.getvalue()) for u in uploads or []]
    encoding = ENCODINGS[st.selectbox("Encoding", list(ENCODINGS), key="seeds-encoding",
                                      help="How the uploaded text was saved.")]
    return kind, files, encoding, False


def load(kind: str, files: list[tuple[str, bytes]], encoding: str | None, sample: bool,
         mapping_area) -> Scores | Runs | None:
    """Read the scores or the runs; a problem is shown here, beside the uploader, with where it is and how to fix
    it. None when there is nothing (yet) to compare."""
    if not files:
        st.info("Upload a table of per-seed scores." if kind == SCORES else
                "Upload a gold file and one file per run, or one table with a column per run.")
        return None
    try:
        if kind == SCORES:
            name, content = files[0]
            scores, notes = _scores(content, name, encoding)
            return Scores(scores, name, sample, notes)
        tables = data_ui.parsed_tables(files, encoding)
        with mapping_area:
            data = _runs(tables)
        return Runs(data, data_ui.digest(files), tuple(name for name, _ in files), sample)
    except SigcoreError as e:
        st.error(md(str(e)), icon="⚠️")
        return None


@st.cache_data(max_entries=32, ttl=600, show_spinner=False)
def _scores(content: bytes, name: str, encoding: str | None) -> tuple[dict[str, tuple[float, ...]], tuple[str, ...]]:
    return results.seed_scores(data_ui.parsed(content, name, encoding))


def _runs(tables) -> AlignedMany:
    """One table (gold guessed, a column per run) or a gold file (guessed by name, chosen here) and a file per run."""
    if len(tables) == 1:
        return load_many(tables)
    names = [t.name for t in tables]
    shown = told_apart(names)
    options = list(range(len(tables))) + [-1]
    guess = (gold_files(names) or [0])[0]
    picked = st.selectbox("Gold file", options, index=guess, key="seeds-gold-file-" + "_".join(names),
                          format_func=lambda k: NO_GOLD if k < 0 else f"{k + 1}. {shown[k]}",
                          help="The gold labels or references; every other file is one run, named after its file.")
    ordered = list(tables) if picked < 0 else [tables[picked]] + [t for i, t in enumerate(tables) if i != picked]
    return load_many(ordered, has_gold=picked >= 0, id=data_ui.pairing_widget(ordered))


def h1_label(alternative: str, a: str, b: str) -> str:
    return ALTERNATIVES[alternative].format(a=a, b=b)


def guess_sides(runs: list[str], sample: bool) -> tuple[list[str], list[str]]:
    """A's and B's runs as their names suggest: the first two systems (the sample: mlp and forest), else halves."""
    groups: dict[str, list[str]] = {}
    for run in runs:
        groups.setdefault(system_of(run), []).append(run)
    if sample and SAMPLE_A in groups and SAMPLE_B in groups:
        return groups[SAMPLE_A], groups[SAMPLE_B]
    if len(groups) >= 2 and any(len(g) > 1 for g in groups.values()):  # the names tell runs of one system apart
        first, second = list(groups.values())[:2]
        return first, second
    half = len(runs) // 2
    return runs[:half], runs[half:]


def preview(data: Scores | Runs) -> None:
    """The scores as read (a row per system), or the runs' first items."""
    if isinstance(data, Scores):
        n_seeds = max(len(v) for v in data.scores.values())
        st.caption(f"{len(data.scores)} systems · {n_seeds} seeds · {md(data.file)}")
        for note in data.notes:
            st.warning(md(note))
        fmt = _format(max(abs(x) for v in data.scores.values() for x in v)).replace("{:", "%").replace("}", "")
        st.dataframe(summary_frame(data), hide_index=True, column_config={
            "system": st.column_config.TextColumn(width="small"),
            "runs": st.column_config.NumberColumn(width="small"),
            **{c: st.column_config.NumberColumn(format=fmt, width="small") for c in ("mean", "sd", "min", "max")}})
        return
    d = data.data
    n = len(next(iter(d.systems.values())))
    st.caption(f"{n:,} items · {len(d.systems)} runs · {len(data.files)} file{'s' * (len(data.files) != 1)}")
    for note in d.notes:
        st.warning(md(note))
    if d.groups is not None:
        st.warning(md(f"The group column {d.columns.get('group', '')!r} is not used: the bootstrap over items and "
                      "runs draws single items."), icon="⚠️")
    head = {} if d.gold is None else {"(gold)": data_ui.first_rows(d.gold)}
    head.update({name: data_ui.first_rows(values) for name, values in d.systems.items()})
    st.dataframe(pd.DataFrame(head), hide_index=True, height=212)  # cells and headers are text, never HTML


def summary_frame(data: Scores) -> pd.DataFrame:
    """Each system's runs, mean, standard deviation over the seeds, and range."""
    return pd.DataFrame([{"system": s, "runs": len(v), "mean": float(np.mean(v)), "sd": float(np.std(v, ddof=1)),
                          "min": min(v), "max": max(v)} for s, v in data.scores.items()])


# ---------------------------------------------------------------- settings


def settings(data: Scores | Runs) -> AsoSettings | RunsSettings | None:
    """The settings in one form, computed on Run (the defaults when the page opens)."""
    if isinstance(data, Scores):
        with st.form("seeds-aso-settings", border=False):
            c1, c2, c3, c4, c5 = st.columns([1.3, 1.3, 1, 1, 1])
            level = c1.selectbox("Confidence level", CONFIDENCE_LEVELS, index=CONFIDENCE_LEVELS.index(0.95),
                                 key="seeds-confidence", format_func=lambda x: f"{x:g}",
                                 help="ε_min is the upper bound of the violation ratio at this level.")
            bonferroni = c2.checkbox("Bonferroni over the pairs", True, key="seeds-bonferroni",
                                     help="Raise the level to 1 − (1 − level)/k for the k = n(n − 1)/2 pairs of "
                                          "n systems (deepsig's own correction differs for k ≥ 3; "
                                          "see docs/reference/many.md).")
            tau = c3.selectbox("Threshold τ", TAUS, key="seeds-tau", format_func=lambda x: f"{x:g}",
                               help="ε_min < τ reads as 'almost stochastically dominant': 0.2 as deepsig "
                                    "recommends (Ulmer et al. 2022); 0.5 (Dror et al. 2019) gives more false "
                                    "positives.")
            n = c4.number_input("Bootstrap b", 100, 100_000, N_BOOTSTRAP, step=1_000, key="seeds-n-bootstrap",
                                help="Bootstrap iterations for ε_min's margin: 10,000, sigcore's b (deepsig's "
                                     "default is 1,000; the two agree within Monte-Carlo error).")
            seed = c5.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED, key="seeds-seed")
            st.form_submit_button("Run", type="primary")
        return AsoSettings(float(level), bool(bonferroni), float(tau), int(n), int(seed))
    runs = list(data.data.systems)
    start_a, start_b = guess_sides(runs, data.sample)
    metrics = metrics_for(data.data)
    fits = data_ui.fits(runs, metrics)
    with st.form("seeds-runs-settings", border=False):
        c1, c2 = st.columns(2)
        runs_a = c1.multiselect("A's runs", runs, default=start_a, key=f"seeds-runs-a-{fits}",
                                help="System A's outputs, one per seed (guessed from the names: mlp_seed0, "
                                     "mlp_seed1…).")
        runs_b = c2.multiselect("B's runs", runs, default=start_b, key=f"seeds-runs-b-{fits}")
        c3, c4, c5, c6, c7 = st.columns([1.5, 1.5, 1, 1, 1])
        metric = c3.selectbox("Metric", metrics, key=f"seeds-metric-{fits}", format_func=metric_label_of)
        a, b = names_of(runs_a, runs_b)
        alternative = c4.selectbox("H1", list(ALTERNATIVES), index=list(ALTERNATIVES).index(DEFAULT_ALTERNATIVE),
                                   key="seeds-alternative", format_func=lambda h: h1_label(h, a, b),
                                   help="They differ (two-sided, the default), or one of them is better "
                                        "(one-sided).")
        n = c5.number_input("Resamples b", 100, 100_000, B_DEFAULT, step=1_000, key="seeds-resamples",
                            help="Each resample draws the items once for all runs, then which runs of A and of B "
                                 "it averages.")
        alpha = c6.selectbox("Level α", ALPHAS, index=ALPHAS.index(DEFAULT_ALPHA), key="seeds-alpha",
                             format_func=lambda x: f"{x:g}")
        seed = c7.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED, key="seeds-runs-seed")
        st.form_submit_button("Run", type="primary")
    if not runs_a or not runs_b:
        st.info("Choose at least one run of A and one of B, then press Run.")
        return None
    shared = [r for r in runs_a if r in runs_b]
    if shared:
        st.error(md(f"{', '.join(shared)} is both one of A's runs and one of B's: give each run to one system."),
                 icon="⚠️")
        return None
    return RunsSettings(tuple(runs_a), tuple(runs_b), metric, alternative, int(n), float(alpha), int(seed))


# ---------------------------------------------------------------- computing


def _aso(data: Scores, s: AsoSettings, progress) -> pd.DataFrame:
    return sigcore.statistics.multi_aso(data.scores, confidence_level=s.confidence_level, bonferroni=s.bonferroni,
                                        n_bootstrap=s.n_bootstrap, seed=s.seed, budget=work.BUDGET,
                                        progress=progress)


def _compare_seeds(data: Runs, s: RunsSettings, progress):
    d = data.data
    return sigcore.compare_seeds(d.gold, [d.systems[r] for r in s.runs_a], [d.systems[r] for r in s.runs_b],
                                 metric=s.metric, n_resamples=s.n_resamples, alternative=s.alternative, alpha=s.alpha,
                                 seed=s.seed, budget=work.BUDGET, progress=progress)


def compute(data: Scores | Runs, s: AsoSettings | RunsSettings):
    """The ε_min matrix, or the bootstrap over items and runs, in its turn on the server, with a progress bar that
    Stop or a closed tab ends, kept for every session; a problem is shown, never raised."""
    area = st.empty()
    try:
        if isinstance(data, Scores):
            key = repr(("aso", tuple(data.scores.items()), asdict(s)))
            return work.kept(key, area, "ASO over every pair", lambda progress: _aso(data, s, progress)).copy()
        what = md(f"{len(s.runs_a)} runs of A against {len(s.runs_b)} of B, b = {s.n_resamples:,}")
        return work.kept(repr(("runs", data.source, asdict(s))), area, what,
                         lambda progress: _compare_seeds(data, s, progress))
    except SigcoreError as e:
        st.error(md(work.explain(e)), icon="⚠️")
        return None


# ---------------------------------------------------------------- showing


def below(table: pd.DataFrame, tau: float) -> list[tuple[str, str, float]]:
    """The ordered pairs (row, column, ε_min) with ε_min < τ: the row almost stochastically dominates the column."""
    return [(a, b, float(table.loc[a, b])) for a in table.index for b in table.columns
            if a != b and table.loc[a, b] < tau]


def matrix_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The ε_min matrix as shown: the diagonal, NaN in multi_aso's table (deepsig writes 1), shows "—"."""
    shown = table.astype(float).copy()
    shown.index.name = "row better than column"
    return shown


def aso_used(table: pd.DataFrame) -> str:
    """The settings multi_aso used (its ``.attrs``), as the outputs state them: "confidence 0.9833 (Bonferroni
    over the 3 pairs), b = 10,000, seed 0"."""
    pairs = table.attrs["num_comparisons"]
    return (f"confidence {table.attrs['confidence_level']:.4g}"
            + (f" (Bonferroni over the {pairs} pairs)" if pairs > 1 else "")
            + f", b = {table.attrs['n_bootstrap']:,}, seed {table.attrs['seed']}")


def pairs_frame(table: pd.DataFrame, tau: float) -> pd.DataFrame:
    """The download: one row per ordered pair (never a system against itself) with ε_min of "better than",
    whether it is below τ, and the settings that made it."""
    rows = [{"better": a, "than": b, "eps_min": float(table.loc[a, b]), "below_tau": bool(table.loc[a, b] < tau),
             "tau": tau, "confidence_level": float(table.attrs["confidence_level"]),
             "bonferroni_pairs": table.attrs["num_comparisons"], "n_bootstrap": table.attrs["n_bootstrap"],
             "seed": table.attrs["seed"]}
            for a in table.index for b in table.columns if a != b]
    return pd.DataFrame(rows)


def show_aso(table: pd.DataFrame, s: AsoSettings) -> None:
    """The ε_min matrix with the cells below τ shaded, the pairs below τ in words, and how to read it."""
    k = len(table)
    shown = matrix_frame(table)
    styled = shown.style.apply(lambda col: ["background-color: #d8f0dd" if v < s.tau else "" for v in col], axis=0)
    styled = styled.format("{:.3f}", na_rep="—")
    st.markdown("**ε_min: row better than column**")
    st.dataframe(styled, key="seeds-matrix", height=min(38 + 35 * k, 563), placeholder="—",
                 width=min(1200, 190 + 130 * k))
    st.caption(f"ASO as deepsig computes it, at {aso_used(table)}. ε_min is an upper bound on the share of the "
               f"distance between the two score distributions where the row does worse than the column: below τ = "
               f"{s.tau:g} (shaded) the row is almost stochastically dominant over the column; 0: stochastically "
               "dominant; below 0.5: better in more cases than not. It is not a p-value. The diagonal (—): a system "
               "is not compared with itself.")
    pairs = below(table, s.tau)
    if not pairs:
        st.info(f"No pair has ε_min < τ = {s.tau:g}: no system is almost stochastically dominant over another.")
        return
    st.markdown("**Below τ = " + f"{s.tau:g}**")
    st.markdown("\n".join(f"- {md(a)} over {md(b)}: " + (f"ε_min = {eps:.3f}, almost stochastically dominant" if eps
                                                          else "ε_min = 0, stochastically dominant")
                           for a, b, eps in pairs))


def runs_frame(res, s: RunsSettings) -> pd.DataFrame:
    """Each run's score, A's runs then B's, under the systems' names."""
    a, b = s.names
    return pd.DataFrame({"system": [a] * len(s.runs_a) + [b] * len(s.runs_b), "run": [*s.runs_a, *s.runs_b],
                         "score": [*res.scores_a, *res.scores_b]})


def runs_csv_frame(res, s: RunsSettings) -> pd.DataFrame:
    """The download: each run's score, then on every row the comparison's settings (a CSV read on its own still
    says what it was part of; the sentence download has the result)."""
    a, b = s.names
    return runs_frame(res, s).assign(metric=res.metric, h1=h1_label(res.alternative, a, b),
                                     alternative=res.alternative, n_resamples=res.n_resamples, seed=res.seed,
                                     alpha=res.alpha)


def show_runs(res, s: RunsSettings) -> None:
    """The sentence, δ and p, δ's bound or interval with and without the seeds' variance, and each run's score."""
    a, b = s.names
    st.markdown(md(seeds_words.sentence(res, a=a, b=b)))
    if variance := seeds_words.variance_sentence(res):  # what buys precision: more items or more seeds
        st.caption(md(variance))
    scale = max(abs(res.score_a), abs(res.score_b))
    fmt = _format(scale)
    c1, c2, c3 = st.columns([1, 1, 2])
    c1.metric("δ = mean A − mean B", fmt.format(res.delta), border=True,
              help=md(f"A: {a} ({len(s.runs_a)} runs), B: {b} ({len(s.runs_b)} runs)"))
    c2.metric("p", res.p_text.removeprefix("p = ").removeprefix("p "), border=True,
              help=md(f"{s.used()}; paired bootstrap over items and runs"))
    kind = "interval" if res.alternative == "two-sided" else "bound"
    side = delta_alternative(res.alternative, res.higher_is_better)  # H1's side of δ: δ < 0 where lower is better
    c3.markdown(f"**{res.level} {kind} of δ** ({SIDED[res.alternative]})  \n"
                f"with the seeds' variance: {_bounds(side, res.ci_low, res.ci_high, scale)}  \n"
                f"from the items alone: {_bounds(side, *res.ci_items, scale)}")
    c3.caption("The first resamples the items and which runs are averaged; the second holds the runs fixed, so "
               "the difference is what the seeds add.")
    left, right = st.columns([2, 3], gap="large")
    left.dataframe(runs_frame(res, s), hide_index=True, key="seeds-runs", column_config={
        "system": st.column_config.TextColumn(width="small"),
        "score": st.column_config.NumberColumn(format=fmt.replace("{:", "%").replace("}", ""))})
    right.caption(md(f"A ({a}): {', '.join(s.runs_a)} · B ({b}): {', '.join(s.runs_b)} · "
                     f"{metric_label_of(s.metric)} · {s.used()}"))


def _format(scale: float) -> str:
    """A format with the decimals numbers on this scale get in the reports (0.9775, 28.30)."""
    return f"{{:.{decimals(scale or 1.0)}f}}"


def _bounds(alternative: str, low: float, high: float, scale: float) -> str:
    """The bound or interval as the sentence prints its numbers (:func:`sigcore.report.sentence.number`); "—" where
    b resamples cannot reach α."""
    shown = {"greater": (low,), "less": (high,)}.get(alternative, (low, high))
    if not all(np.isfinite(shown)):
        return "— (b is too small to reach α)"
    lo, hi = number(low, scale), number(high, scale)
    return {"greater": f"δ ≥ {lo}", "less": f"δ ≤ {hi}"}.get(alternative, f"{lo} to {hi}").replace("-", "−")


def show(out, s: AsoSettings | RunsSettings) -> None:
    if isinstance(s, AsoSettings):
        show_aso(out, s)
    else:
        show_runs(out, s)


def downloads(out, s: AsoSettings | RunsSettings) -> None:
    """ASO: every ordered pair's ε_min as CSV and the pairs below τ as text; runs: each run's score as CSV and the
    sentence; BibTeX. Each states the settings that made it (columns in the CSVs, a header line in the text)."""
    cols = st.columns([1, 1, 1, 3])
    if isinstance(s, AsoSettings):
        used = f"ASO as deepsig computes it; {aso_used(out)}"
        pairs = below(out, s.tau)
        text = "\n".join([f"ε_min of 'row better than column' below τ = {s.tau:g} ({used}):",
                          *(f"{a} over {b}: ε_min = {eps:.3f}" for a, b, eps in pairs)]) if pairs else \
            f"No pair has ε_min < τ = {s.tau:g} ({used})."
        buttons = [("ε_min CSV", export.table_csv(pairs_frame(out, s.tau)), "sigcore_aso.csv", "text/csv"),
                   ("Pairs below τ", text + "\n", "sigcore_aso.txt", "text/plain"),
                   ("BibTeX", citations.bibtex(citations.ASO), "sigcore_aso.bib", "text/x-bibtex")]
    else:
        keys = citations.keys_for_test("bootstrap", s.metric)
        a, b = s.names
        buttons = [("Runs CSV", export.table_csv(runs_csv_frame(out, s)), "sigcore_seeds_runs.csv", "text/csv"),
                   ("Sentence (text)", seeds_words.sentence(out, a=a, b=b) + "\n", "sigcore_seeds.txt", "text/plain"),
                   ("BibTeX", citations.bibtex(keys), "sigcore_seeds.bib", "text/x-bibtex")]
    for col, (label, content, file_name, mime) in zip(cols, buttons):
        col.download_button(label, content, file_name=file_name, mime=mime, on_click="ignore", width="stretch",
                            key=f"seeds-download-{file_name}")
