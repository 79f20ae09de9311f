"""The Many systems page's building blocks: the data (the WMT17 sample or uploads, kept in memory), the settings,
the cached family of comparisons per metric, its figures and tables, and the downloads.

Parsing reuses the Compare page's helpers (:mod:`ui.data`: cached on the bytes, uploads never on disk); every
number comes from :func:`sigcore.compare_many`, every figure from :mod:`sigcore.report.family_figures`. Uploaded
names are user text: shown in tables (never HTML), escaped in Markdown (:mod:`ui.safe`) and in figure labels.
"""

from __future__ import annotations

import pickle
from dataclasses import asdict, dataclass

import pandas as pd
import streamlit as st

import sigcore
from sigcore import SigcoreError, front
from sigcore.comparison import AUTO
from sigcore.contract import DEFAULT_ALPHA, DEFAULT_RESAMPLES, DEFAULT_SEED
from sigcore.io.aligned import AlignedMany, default_baseline
from sigcore.io.columns import guess_mapping
from sigcore.io.loading import load_many
from sigcore.io.metric_fit import many_inputs
from sigcore.io.roles import GOLD_NAMES, Ambiguous
from sigcore.io.systems import NO_GOLD_FILE, pick_gold_file
from sigcore.many import Many
from sigcore.report import export, family, paper
from sigcore.report.family_figures import forest, heatmap
from sigcore.report.sentence import decimals
from sigcore.statistics.multiple import CORRECTIONS
from sigcore.words import told_apart

from . import data as data_ui
from . import paper_folder, venue, work
from .data import ENCODINGS, NONE, keep_uploads_in_memory, pairing_widget, parsed_tables
from .figure import config as figure_config
from .figure import download as svg_download
from .safe import md

keep_uploads_in_memory()  # (ui.data does it on import too) an upload stays in memory while it arrives

SAMPLE_DIR = data_ui.SAMPLE_DIR / "wmt17_en_de"
SAMPLE_GOLD = "newstest2017.ref.de.gz"
SAMPLE_BASELINE = "LIUM-NMT"  # the baseline of the published WMT17 reference p-values (README, tests/test_compat.py)
CORRECTION_LABELS = {"holm": "Holm (default)", "bonferroni": "Bonferroni", "hochberg": "Hochberg",
                     "bh": "Benjamini–Hochberg (FDR)", "by": "Benjamini–Yekutieli (FDR)",
                     "maxt": "Max statistic (resampled)"}
ALPHAS = (0.10, 0.05, 0.01, 0.005, 0.001)
BASELINE, ALL_PAIRS = "Against a baseline", "All pairs (and the ranking)"
NO_GOLD = "(none: per-item scores)"


@dataclass(frozen=True)
class Settings:
    metrics: tuple[str, ...]
    baseline: str | None  # None: all pairs
    test: str
    n_resamples: int
    correction: str
    alpha: float
    seed: int
    tokenize: str = "13a"

    def options(self, metric: str) -> dict:
        return {"tokenize": self.tokenize} if metric == "bleu" else {}


# ---------------------------------------------------------------- data


def sample_files() -> list[tuple[str, bytes]]:
    """The WMT17 en-de sample: the reference first, then the 16 systems' outputs by name."""
    systems = sorted(p for p in SAMPLE_DIR.glob("*.de.gz") if p.name != SAMPLE_GOLD)
    return [(p.name, p.read_bytes()) for p in [SAMPLE_DIR / SAMPLE_GOLD, *systems]]


def choose_files() -> tuple[list[tuple[str, bytes]], str | None, bool]:
    """The sample (the default, so the page opens on a real case) or the user's uploads, as (name, bytes) pairs,
    the encoding, and whether it is the sample."""
    source = st.radio("Data", ["Sample", "Upload"], horizontal=True, label_visibility="collapsed", key="many-source")
    if source == "Sample":
        st.caption("WMT17 English→German newstest2017: the reference and the 16 systems submitted to the news task "
                   "(3,004 segments; see sample_data/README.md).")
        return sample_files(), None, True
    uploads = st.file_uploader(
        "System outputs", accept_multiple_files=True, key="many-upload",
        help="A gold file and one file per system (plain text one output per line, CSV, TSV, JSON lines, CoNLL; "
             "gzip is fine), or one table with a gold column and a column per system. Nothing is stored.")
    files = [(u.name, u.getvalue()) for u in uploads or []]
    encoding = ENCODINGS[st.selectbox("Encoding", list(ENCODINGS), key="many-encoding",
                                      help="How the uploaded text was saved.")]
    return files, encoding, False


def load(files: list[tuple[str, bytes]], encoding: str | None, mapping_area) -> AlignedMany | None:
    """Parse and align the files (their roles chosen in ``mapping_area``, under the uploader); a problem is shown
    here, beside the uploader, as the Compare page shows it. None when there is nothing to compare."""
    if not files:
        st.info("Upload a gold file and one file per system, or one table with a column per system.")
        return None
    try:
        tables = parsed_tables(files, encoding)
        with mapping_area:
            data = _one_table(tables[0]) if len(tables) == 1 else _many_files(tables)
    except SigcoreError as e:
        st.error(md(str(e)), icon="⚠️")
        return None
    return data


def _one_table(table) -> AlignedMany:
    """A wide table: its gold (and group) column chosen from the guess."""
    guess = guess_mapping(table.frame)
    columns = [str(c) for c in table.frame.columns]
    cols = st.columns(2)
    gold_options = columns if guess.gold is not None else [NONE] + columns
    gold = cols[0].selectbox("Gold column", gold_options,
                             index=gold_options.index(guess.gold) if guess.gold in gold_options else 0,
                             key=f"many-gold-col-{table.name}")
    group_options = [NONE] + columns
    group = cols[1].selectbox("Group column", group_options,
                              index=group_options.index(guess.group) if guess.group in group_options else 0,
                              key=f"many-group-{table.name}", help=data_ui.GROUP_HELP)
    return load_many([table], gold=None if gold in (NONE, guess.gold) else gold,  # unchanged: the guess, said so
                           group=None if group in (NONE, guess.group) else group)


def _many_files(tables) -> AlignedMany | None:
    """A gold file and one file per system: which one is gold (by its name, as on the Compare page: asked when the
    names do not say), and how items are paired; None until the gold is settled."""
    names = [t.name for t in tables]
    shown = told_apart(names)
    options = [*range(len(tables)), NO_GOLD_FILE]
    try:
        index, _ = pick_gold_file(tables)
        start = len(tables) if index is None else index
    except Ambiguous:
        start = None
    picked = st.selectbox("Gold file", options, index=start, key="many-gold-file-" + "_".join(names),
                          placeholder="Which file is the gold?",
                          format_func=lambda k: NO_GOLD if k < 0 else f"{k + 1}. {shown[k]}",
                          help=f"The references or gold labels, found by its name ({GOLD_NAMES}); every other file "
                               "is a system, named after its file (LIUM-NMT.4900.de.gz is LIUM-NMT).")
    if picked is None:
        st.info("Say which file is the gold to compare the others.")
        return None
    pairing = pairing_widget([tables[picked], *(t for t in tables if t is not tables[picked])] if picked >= 0
                              else tables)
    named = None if start is None else options[start]  # what the names said: passed on as theirs, not as "given"
    return load_many(tables, gold_file=None if picked == named else picked, id=pairing)


def preview(data: AlignedMany, files: list[tuple[str, bytes]]) -> None:
    """How many items and systems were read, the notes, and the first items."""
    n = len(next(iter(data.systems.values())))
    groups = "" if data.groups is None else f" in {pd.Series(data.groups, dtype=object).nunique():,} groups"
    st.caption(f"{n:,} items{groups} · {len(data.systems)} systems · {len(files)} file{'s' * (len(files) != 1)}"
               + "".join(f" · {md(str(role))}" for role in data.roles))  # what was taken for what, and why
    for note in data.notes:
        st.warning(md(note))
    head = {} if data.gold is None else {"(gold)": data_ui.first_rows(data.gold)}
    head.update({name: data_ui.first_rows(values) for name, values in data.systems.items()})
    st.dataframe(pd.DataFrame(head), hide_index=True, height=212,  # cells and headers are text, never HTML
                 column_config={name: st.column_config.TextColumn(width="medium") for name in head})


# ---------------------------------------------------------------- settings


def metrics_for(data: AlignedMany) -> list[str]:
    """The metrics that fit these data, the most natural first (as the Compare page suggests them)."""
    return [m for m in front.choose_metric(data).metrics if m in sigcore.METRICS]


def settings(data: AlignedMany, sample: bool) -> Settings | None:
    """The settings in one form: nothing is computed until Run (the defaults run when the page opens). None
    while no metric is chosen."""
    names = list(data.systems)
    choice = front.choose_metric(data)  # the metric `sigcore many` runs on these data; none while a question is open
    metrics = [m for m in choice.metrics if m in sigcore.METRICS]
    start = [choice.metric] if choice.metric in metrics else []
    n = len(next(iter(data.systems.values())))
    fits = data_ui.fits(names, metrics)
    with st.form("many-settings", border=False):
        c1, c2, c3 = st.columns([2, 2, 1])
        chosen = c1.multiselect("Metrics", metrics, default=start, key=f"many-metrics-{fits}",
                                format_func=lambda m: family.PAPER_NAMES.get(m, m),
                                help="One family of comparisons per metric; the LaTeX table has a column for each.")
        mode = c2.radio("Compare", [BASELINE, ALL_PAIRS], key="many-mode", horizontal=True,
                        help="Every system against one baseline, or every pair of systems (which adds a heatmap "
                             "and a ranking in clusters).")
        base = SAMPLE_BASELINE if sample and SAMPLE_BASELINE in names else default_baseline(data)[0]
        baseline = c2.selectbox("Baseline", names, index=names.index(base), key=f"many-baseline-{fits}",
                                help="Used against a baseline; ignored for all pairs.")
        tokenize = c3.selectbox("BLEU tokenizer", ["13a", "none", "intl", "char"], key="many-tokenize",
                                help="sacrebleu's tokenizer, for BLEU only.") if "bleu" in metrics else "13a"
        c4, c5, c6, c7, c8 = st.columns([1.8, 1, 1.3, 1, 1])
        tests = [AUTO, *_tests(chosen or metrics[:1], n)]
        test = c4.selectbox("Test", tests, key=f"many-test-{fits}-{'-'.join(tests)}",
                            format_func=lambda t: RECOMMENDED if t == AUTO else t,
                            help="Recommended: the test the advisor recommends for every pair, or, where the pairs'"
                                 " differ, the one that fits them all (the result says which, and why). Two-sided: "
                                 "does the system differ from the baseline (or the pair's systems from each other)? "
                                 "The paired bootstrap draws each resample once and scores every system on it.")
        b = c5.number_input("Resamples b", 100, 100_000, DEFAULT_RESAMPLES, step=1_000, key="many-b",
                            help="Bootstrap resamples or permutations, 10,000 as everywhere; a corrected p cannot go "
                                 "below (comparisons) / b, so many comparisons need more.")
        correction = c6.selectbox("Correction", list(CORRECTIONS), key="many-correction",
                                  format_func=CORRECTION_LABELS.get,
                                  help="For many comparisons at once: Holm, Bonferroni and Hochberg bound the "
                                       "chance of any false positive; Benjamini–Hochberg and –Yekutieli bound "
                                       "the share of false positives among the significant ones.")
        alpha = c7.selectbox("Level α", ALPHAS, index=ALPHAS.index(DEFAULT_ALPHA), key="many-alpha",
                             format_func=lambda x: f"{x:g}",
                             help="The significance level: a comparison is significant when its corrected "
                                  "p ≤ α. Intervals are at 1 − α.")
        seed = c8.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED, key="many-seed")
        st.form_submit_button("Run", type="primary")
    if not chosen:
        asked = f"{choice.questions[0].what[0].upper()}{choice.questions[0].what[1:]}: " if choice.questions else ""
        st.info(md(f"{asked}choose at least one metric, then press Run."))
        return None
    return Settings(tuple(chosen), None if mode == ALL_PAIRS else baseline, test, int(b), correction,
                    float(alpha), int(seed), tokenize)


RECOMMENDED = "recommended (decided on the data)"


def _tests(metrics: list[str], n: int) -> list[str]:
    """The tests that fit the first metric, then those that fit another one (a test that does not fit every chosen
    metric is refused with the reason when it runs)."""
    out: list[str] = []
    for m in metrics:
        out += [t for t in sigcore.tests_for(m, n_items=n) if t not in out]
    return out


# ---------------------------------------------------------------- computing


def source_key(files: list[tuple[str, bytes]], data: AlignedMany) -> str:
    """What the family depends on: the files' bytes, and the items as aligned (gold, pairing, names, groups)."""
    return data_ui.digest(files, pickle.dumps((data.gold, data.systems, data.groups, data.ids)))


def _family(data: AlignedMany, s: Settings, metric: str, progress) -> Many:
    gold, systems = many_inputs(data, metric)  # right/wrong outputs without gold: against a gold of 1s
    return sigcore.compare_many(gold, systems, baseline=s.baseline, all_pairs=s.baseline is None,
                                metric=metric, test=s.test, n_resamples=s.n_resamples, correction=s.correction,
                                alpha=s.alpha, seed=s.seed, groups=data.groups, budget=work.BUDGET,
                                progress=progress, **s.options(metric))


def compute(source: str, data: AlignedMany, s: Settings, metric: str) -> Many | None:
    """The family for one metric, in its turn on the server and with a progress bar, kept for every session (on
    the data's key and the settings, not on the long lists themselves); a problem is shown, never raised."""
    what = f"{metric_label_of(metric)}: {len(data.systems)} systems, " + (
        "every pair" if s.baseline is None else f"against {s.baseline}") + f", b = {s.n_resamples:,}"
    key = repr(("many", source, metric, asdict(s)))
    try:
        return work.kept(key, st.empty(), md(what), lambda progress: _family(data, s, metric, progress))
    except SigcoreError as e:
        st.error(md(work.explain(data.locate(e) if isinstance(e, sigcore.InputError) else e)), icon="⚠️")
        return None


def metric_label_of(metric: str) -> str:
    return family.PAPER_NAMES.get(metric, metric)


# ---------------------------------------------------------------- showing


def show(many: Many, key: str) -> None:
    """One metric's family: what was done, the figure, the table, and for all pairs the ranking."""
    warning = family.floor_warning(many)
    if warning:
        st.warning(warning, icon="⚠️")
    st.markdown(md(family.sentence(many)))  # the finding, as a paper says it
    st.code(family.sentence(many, latex=True), language="latex", wrap_lines=True)
    if many.baseline is not None:
        papers = venue.choose(st, key=_venue_key(key, many.metric))
        _figure(forest(many), f"forest_{many.metric}_{key}", (papers.describe(),
                lambda: export.styled_image(forest(many, style=papers), "pdf", papers)))
        st.caption(md(family.forest_caption(many)))
        st.code(family.forest_caption(many, latex=True), language="latex", wrap_lines=True)
        table(many, key)
    else:
        _figure(heatmap(many), f"heatmap_{many.metric}_{key}")
        st.caption(md(family.heatmap_caption(many)))
        st.code(family.heatmap_caption(many, latex=True), language="latex", wrap_lines=True)
        left, right = st.columns(2, gap="large")
        with left:
            st.markdown("**Ranking**")
            ranking(many, key)
        with right:
            st.markdown("**Every pair**")
            table(many, key)


def _figure(fig, name: str, paper=None) -> None:
    """The figure, and its SVG and PDF downloads (rendered by kaleido only when clicked); with ``paper`` (what it
    is, and a function that renders it), a PDF in the paper style at the venue's column width too."""
    size = {"width": 960, "height": int(fig.layout.height or 400)}
    st.plotly_chart(fig, config=figure_config(name, **size), key=f"figure-{name}")
    svg, pdf, column, _ = st.columns([1, 1, 2, 2])
    with svg:
        svg_download(fig, name)
    pdf.download_button("Download PDF", lambda: export.figure_image(fig, "pdf", scale=1, **size),
                        file_name=f"{name}.pdf", mime="application/pdf", on_click="ignore", key=f"pdf-{name}")
    if paper is not None:
        what, render = paper
        column.download_button("Paper PDF, one column", render, file_name=f"{name}_column.pdf", help=what,
                               mime="application/pdf", on_click="ignore", key=f"paper-{name}")


def _decimals(many: Many) -> int:
    return decimals(max(abs(v) for v in many.scores.values()) or 1.0)


def table(many: Many, key: str) -> None:
    """``many.table()`` as it is, numbers formatted as the reports print them; names are cells, never HTML."""
    frame = many.table()
    score = f"%.{_decimals(many)}f"
    correction = family.CORRECTION_NAMES[many.correction]
    number_column = st.column_config.NumberColumn
    st.dataframe(frame, hide_index=True, key=f"table-{many.metric}-{key}", height=min(38 + 35 * len(frame), 563),
                 column_config={
                     "score": number_column("score", format=score),
                     "score_against": number_column("against's score", format=score),
                     "delta": number_column("δ", format=score, help="score(system) − score(against)"),
                     "ci_low": number_column("δ low", format=score, help=f"{1 - many.alpha:.0%} interval of δ"),
                     "ci_high": number_column("δ high", format=score, help=f"{1 - many.alpha:.0%} interval of δ"),
                     "p_text": st.column_config.TextColumn("p", help="as every report prints it: < 1/b when no "
                                                                      "resample was as extreme"),
                     "p_adjusted_text": st.column_config.TextColumn(
                         f"p ({correction})", help=f"corrected with {correction}'s method over the family"),
                     "significant": st.column_config.CheckboxColumn(
                         "significant", help=f"corrected p ≤ α = {many.alpha:g}")},
                 column_order=["system", "against", "score", "score_against", "delta", "ci_low", "ci_high", "p_text",
                               "p_adjusted_text", "significant"])
    st.caption(md(family.heading(many) + (f"; {many.test_reason}" if many.auto else "")))  # what was done


def ranking_frame(many: Many) -> pd.DataFrame:
    """The ranking as shown: rank range (1–3), system, score, cluster."""
    r = many.ranking()
    ranks = [f"{lo}" if lo == hi else f"{lo}–{hi}" for lo, hi in zip(r["rank_low"], r["rank_high"])]
    return pd.DataFrame({"rank": ranks, "system": r["system"], "score": r["score"], "cluster": r["cluster"]})


def ranking(many: Many, key: str) -> None:
    frame = ranking_frame(many)
    shade = ["background-color: #eef2f7" if c % 2 == 0 else "" for c in frame["cluster"]]
    styled = frame.style.apply(lambda _col: shade, axis=0).format({"score": f"{{:.{_decimals(many)}f}}"})
    st.dataframe(styled, hide_index=True, key=f"ranking-{many.metric}-{key}", height=min(38 + 35 * len(frame), 598),
                 column_config={"rank": st.column_config.TextColumn(width=60),
                                "system": st.column_config.TextColumn(width=170),
                                "score": st.column_config.NumberColumn(width=70),
                                "cluster": st.column_config.NumberColumn(width=60)})
    n = int(frame["cluster"].max())
    st.caption(f"{n} cluster{'s' * (n != 1)} (shaded in turn): every system in a cluster is significantly better "
               "than every system in the clusters below it; rank: the ranks the corrected tests allow "
               "(WMT's rule).")


def _venue_key(key: str, metric: str) -> str:
    return f"{venue.KEY}-{key}-{metric}"  # a Venue box per family's figure


def table_tex(families: list[Many], key: str) -> str:
    """The "LaTeX table" download at the first family's Venue box: byte for byte the table of the paper folder and
    of ``many --latex --venue``."""
    return family.latex(families, venue=venue.current(_venue_key(key, families[0].metric)))


def downloads(families: list[Many], key: str) -> None:
    """The paper's table (LaTeX, one column per metric), the comparisons as CSV, the terminal's text, and the paper
    folder, its forest plots at the first family's venue (its Venue box)."""
    metrics = "_".join(f.metric for f in families)
    stem = f"sigcore_many_{metrics}_{'all_pairs' if families[0].baseline is None else 'baseline'}"
    papers = venue.current(_venue_key(key, families[0].metric))  # the first family's Venue box, as the folder's
    latex = table_tex(families, key)
    frame = pd.concat([f.table().assign(metric=f.metric) for f in families], ignore_index=True)
    cols = st.columns([1, 1, 1, 1, 2])
    cols[0].download_button("LaTeX table", latex, file_name=f"{stem}.tex", mime="text/x-tex", on_click="ignore",
                            width="stretch", key="many-latex")
    cols[1].download_button("CSV", export.table_csv(frame), file_name=f"{stem}.csv", mime="text/csv",
                            on_click="ignore", width="stretch", key="many-csv")
    cols[2].download_button("Text report", "\n\n".join(family.text(f) for f in families) + "\n",
                            file_name=f"{stem}.txt", mime="text/plain", on_click="ignore", width="stretch",
                            key="many-text")
    paper_folder.button(cols[3], lambda draw, papers: paper.for_family(
        families, command="# run from the app: sigcore many with the uploaded files", venue=papers, draw=draw),
        key="many-paper", venue=papers)
    with st.expander("The LaTeX table (needs \\usepackage{booktabs})"):
        st.code(latex, language="latex")
