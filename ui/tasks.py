"""The Many page's "Many tasks" mode: models on many tasks, from their logs (Inspect .eval/.json, lm-eval output
folders or samples files, HELM's run folders, one zip of them) or the tidy table, in memory (never on disk). Every
number comes from :mod:`sigcore.leaderboard`, the words from :mod:`sigcore.report.board` (as the command line prints
them), the figure from :mod:`sigcore.report.board_figures`. Model and task names are user text: table cells, escaped
Markdown.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import pandas as pd
import streamlit as st

from sigcore import SigcoreError, leaderboard
from sigcore.contract import DEFAULT_ALPHA, DEFAULT_RESAMPLES, DEFAULT_SEED
from sigcore.logs import long, tidy
from sigcore.report import board as words
from sigcore.report import board_page, board_table, export, records
from sigcore.report.board_figures import nemenyi_cd, ranks, resampled_cd
from sigcore.report.venues import VENUES

from . import data as data_ui
from . import venue, work
from .figure import config as figure_config
from .many import ALPHAS, CORRECTION_LABELS
from .safe import md

SAMPLE_DIR = data_ui.SAMPLE_DIR / "lm_eval_suite"
SAMPLE_METRICS, SAMPLE_BASELINE = ("acc", "exact_match[maj@3]"), "alpha"
FAMILY, PER_TASK = "over the whole family (tasks × models)", "within each task"
NBSP = "\u00a0"  # a space no line breaks at: "< 0.0001" and "[0.62, 0.68]" stay whole in a table's cell
SEEN, SLOT = "tasks-seen", "tasks-slot"  # the digest of the files the last run showed; where its results are
ABOUT = ("Which of these models is really better, on which tasks, and how sure are we? One paired bootstrap resamples "
         "the items of each task apart (stratified), the same draws for every model: each model's aggregate with its "
         "interval, the ranks it takes on the resamples and its tie group, and δ against a baseline on the aggregate "
         "and on every task, corrected for the number of comparisons.")


@dataclass(frozen=True)
class Settings:
    metrics: tuple[str, ...]
    baseline: str
    weight: str
    per_task: str  # "family" or "task"
    n_resamples: int
    correction: str
    alpha: float
    seed: int
    cluster: str | None = None  # a column whose values are resampled whole, or None: the items
    drop: bool = False  # compare each task's items every model has, instead of stopping at one that lacks some


def sample_files() -> list[tuple[str, bytes]]:
    """The sample suite's files, each with its model folder in its name, as a zip of the output folder gives them."""
    return [(p.relative_to(SAMPLE_DIR).as_posix(), p.read_bytes()) for p in sorted(SAMPLE_DIR.glob("*/*"))]


def choose() -> tuple[list[tuple[str, bytes]], bool]:
    source = st.radio("Data", ["Sample", "Upload"], horizontal=True, label_visibility="collapsed", key="tasks-source")
    if source == "Sample":
        st.caption("Four models run by lm-evaluation-harness 0.4.13 (its dummy model, answering right with a chance "
                   "of its own) on three tasks, one a group of two subtasks (sample_data/lm_eval_suite).")
        return sample_files(), True
    uploads = st.file_uploader(
        "Logs", accept_multiple_files=True, key="tasks-upload",
        help="Inspect AI logs (.eval, .json), lm-eval samples_<task>_<date>.jsonl files with their "
             "results_<date>.json, a .zip of lm-eval's output folder, of HELM's benchmark_output or of logs, or the "
             "tidy table (.csv or .parquet: model, task, item, run, metric, score). Read in memory, never written to "
             "disk.")
    return [(u.name, u.getvalue()) for u in uploads or []], False


def below_the_data(files: list[tuple[str, bytes]]):
    """The container for the settings and the results, below the data. Two slots take turns: with the last run's
    files, the same slot's block is kept and its elements redrawn in place (nothing jumps); with other files (a
    second upload, the sample again), the other slot takes the new block and the last run's slot is emptied at
    once, its figures with it, where they would otherwise stay under the new data until the new run ended. (An
    empty slot and a block at one place in one run reach the browser as the block alone, which keeps the old
    block's elements: hence two places.)"""
    seen, state = data_ui.digest(files), st.session_state
    slot = state.get(SLOT, 0)
    state[SLOT] = 1 - slot if state.get(SEEN, seen) != seen else slot
    state[SEEN] = seen
    slots = [st.empty(), st.empty()]
    return slots[state[SLOT]].container()


@st.cache_data(max_entries=8, ttl=600, show_spinner=False)
def _table(files: list[tuple[str, bytes]]) -> pd.DataFrame:
    return tidy.from_files(files)


def load(files: list[tuple[str, bytes]]) -> pd.DataFrame | None:
    if not files:
        st.info("Upload the logs of two or more models.")
        return None
    try:
        table = _table(files)
    except SigcoreError as e:
        st.error(md(str(e)), icon="⚠️")
        return None
    return table


def preview(table: pd.DataFrame) -> None:
    st.caption(f"{len(table):,} scores · {table.model.nunique()} models · {table.task.nunique()} tasks · metrics "
               + ", ".join(md(str(m)) for m in pd.unique(table.metric)))
    for note in table.attrs.get("notes", []):
        st.info(md(note))
    st.dataframe(counts(table), hide_index=True, height=212)  # cells, never HTML


def counts(table: pd.DataFrame) -> pd.DataFrame:
    """Each task's items, and the models that have fewer of them (with how many, or none): three columns whatever
    the models' names, where a task × model grid runs off the column from its third or fourth model."""
    per = table.groupby(["task", "model"], sort=False).item.nunique().unstack("model")  # NaN: the model lacks it
    items = table.groupby("task", sort=False).item.nunique()
    fewer = [", ".join(f"{m} {int(n):,}" if n == n else f"{m} none" for m, n in row.items() if n != items[task])
             for task, row in per.iterrows()]
    return pd.DataFrame({"task": per.index, "items": items[per.index].to_numpy(), "models with fewer": fewer})


def settings(files: list[tuple[str, bytes]], table: pd.DataFrame, sample: bool) -> Settings | None:
    """The form; the choices that depend on the files are keyed by them, so other files start afresh."""
    data = data_ui.digest(files)[:12]
    metrics = [str(m) for m in pd.unique(table.metric)]
    models = [str(m) for m in pd.unique(table.model)]
    # an upload's several metrics (HELM's runs hold 25 stats, num_references first): chosen, never guessed
    start = [m for m in SAMPLE_METRICS if m in metrics] if sample else metrics if len(metrics) == 1 else []
    with st.form("tasks-settings", border=False):
        c1, c2, c3 = st.columns([2, 1.4, 1.6])
        chosen = c1.multiselect("Metrics", metrics, default=start, key=f"tasks-metrics-{data}",
                                help="Several: each task takes the first of them it has (acc on multiple choice, "
                                     "exact_match on generation); a task with none is left out, said above the "
                                     "board.")
        base = SAMPLE_BASELINE if sample and SAMPLE_BASELINE in models else models[0]
        baseline = c2.selectbox("Baseline", models, index=models.index(base), key=f"tasks-baseline-{data}",
                                help="δ is each model's score minus the baseline's, on the aggregate and per task.")
        weight = c3.radio("Aggregate", ["tasks", "items"], horizontal=True, key="tasks-weight",
                          format_func={"tasks": "mean of task scores", "items": "mean over items"}.get,
                          help="The mean of the task scores (each task counts once, a group of tasks as one, as "
                               "leaderboards average them), or over all items (a task counts by its size).")
        c4, c5, c6, c7, c8 = st.columns([2, 1.2, 1.4, 1, 1])
        per_task = c4.radio("Per task, correct", ["family", "task"], horizontal=True, key="tasks-per-task",
                            format_func={"family": FAMILY, "task": PER_TASK}.get,
                            help="The per-task p-values corrected over every task and model at once, or within "
                                 "each task; the table says which.")
        b = c5.number_input("Resamples b", 100, 100_000, DEFAULT_RESAMPLES, step=1_000, key="tasks-b")
        correction = c6.selectbox("Correction", list(leaderboard.CORRECTIONS), key="tasks-correction",
                                  format_func=CORRECTION_LABELS.get,
                                  help="Max statistic: from the board's own resamples, over the pairs at once; it "
                                       "separates models at a b where Holm over many pairs cannot.")
        alpha = c7.selectbox("Level α", ALPHAS, index=ALPHAS.index(DEFAULT_ALPHA), key="tasks-alpha",
                             format_func=lambda x: f"{x:g}")
        seed = c8.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED, key="tasks-seed")
        columns = [str(c) for c in table.columns if c not in (*long.COLUMNS, "group", "group_weight")]
        c9, c10 = st.columns([2, 3], vertical_alignment="bottom")
        drop = c9.checkbox("Drop unmatched items", key=f"tasks-drop-{data}",
                           help="Compare on each task the items every model has, instead of stopping at a model "
                                "that lacks some (how many were dropped is said above the board).")
        cluster = None if not columns else c10.selectbox(  # only where the table has columns to cluster by
            "Resample", [None, *columns], key=f"tasks-cluster-{data}",
            format_func=lambda c: "items, one by one" if c is None else f"clusters by {c}, whole",
            help="Items that share a passage or a document are not independent: resample them in their clusters "
                 "(an Inspect sample's metadata, or a column of the table).")
        st.form_submit_button("Run", type="primary")
    if not chosen:
        st.info(f"Choose at least one of the {len(metrics)} metrics, then press Run.")
        return None
    return Settings(tuple(chosen), baseline, weight, per_task, int(b), correction, float(alpha), int(seed), cluster,
                    drop)


def compute(files: list[tuple[str, bytes]], table: pd.DataFrame, s: Settings) -> leaderboard.Leaderboard | None:
    """The board and its bootstrap, in its turn on the server with a progress bar, kept for every session."""
    key = repr(("tasks", data_ui.digest(files, b""), asdict(s)))
    try:
        board = leaderboard.from_table(table, metric=list(s.metrics), cluster=s.cluster,
                                       on_missing="drop" if s.drop else "stop")
        return work.kept(key, st.empty(), f"{len(board.models)} models on {len(board.tasks)} tasks, "
                         f"b = {s.n_resamples:,}", lambda progress: leaderboard.bootstrap(
                             board, n_resamples=s.n_resamples, seed=s.seed, weight=s.weight, per_task=True,
                             progress=progress))
    except SigcoreError as e:
        st.error(md(work.explain(e)), icon="⚠️")
        return None


def table_tex(res: leaderboard.Leaderboard, s: Settings) -> str:
    """The "Table (.tex)" download at the Venue box's venue: byte for byte the table of ``many --latex --venue``
    and of its paper folder."""
    return board_table.latex(res, s.baseline, s.alpha, s.correction, over=s.per_task, venue=venue.current())


def show(res: leaderboard.Leaderboard, s: Settings) -> None:
    for note in res.board.notes:
        st.info(md(note))
    st.markdown(md(words.heading(res, s.baseline, s.alpha, s.correction)))
    tasks = res.task_table(s.baseline, s.alpha, s.correction, over=s.per_task)
    for warning in words.floor_warnings(res, s.baseline, s.alpha, s.correction, s.per_task, len(tasks)):
        st.warning(md(warning), icon="⚠️")  # b too small for any p to pass the correction, whatever the data
    cells(*words.model_rows(res.table(s.baseline, s.alpha, s.correction), s.baseline, s.alpha,
                             1 / res.n_resamples))
    st.caption(md(words.legend(res, s.baseline, s.alpha, s.correction)))
    st.plotly_chart(ranks(res, s.alpha, s.correction), config=figure_config("ranks"), key="tasks-ranks")
    st.plotly_chart(resampled_cd(res, s.alpha, s.correction), config=figure_config("critical-difference"),
                    key="tasks-cd")
    st.caption("A critical-difference-style diagram (Demšar 2006) from the same resamples: each model where it "
               "ranks on average, and a bar over each run of models no two of which differ on the aggregate. Bars "
               "may overlap where the tie groups cannot: A may tie with B, and B with C, while A beats C.")
    if len(res.unit_scores()[0]) >= 2:
        with st.expander("The Friedman test over tasks, with Nemenyi's critical difference (Demšar 2006)"):
            st.markdown(md(words.friedman(res, s.alpha)))
            st.plotly_chart(nemenyi_cd(res, s.alpha), config=figure_config("nemenyi"), key="tasks-nemenyi")
    if res.board.epochs:  # the items have runs (epochs): how much of δ's variance is theirs
        st.markdown(md(words.variance_heading(res, s.baseline)))
        st.dataframe(pd.DataFrame(words.variance_rows(res, s.baseline), columns=words.variance_header(res)),
                     hide_index=True)
    st.markdown(md(words.per_task_heading(res, s.baseline, s.correction, s.per_task, len(tasks))))
    cells(*words.per_task_rows(tasks, s.alpha, 1 / res.n_resamples))


def cells(header: list[str], rows: list[list[str]], names: int | None = None) -> None:
    """A board's table with the command line's columns and cells, as it prints them (escaped: a table's cells are
    Markdown), in a static table that fits the column: the ``names`` first columns wrap where a grid would run off
    it (by default the model's, and the task's before it), each number and interval on one line (its spaces
    unbreakable)."""
    if names is None:
        names = 2 if header[1] == "model" else 1
    cells = [[md(c) if k < names else md(c).replace(" ", NBSP) for k, c in enumerate(row)] for row in rows]
    st.table(pd.DataFrame(cells, columns=[md(h) for h in header]), hide_index=True,
             height="content" if len(rows) <= 15 else 560)


def downloads(res: leaderboard.Leaderboard, s: Settings) -> None:
    table = res.table(s.baseline, s.alpha, s.correction)
    tasks = res.task_table(s.baseline, s.alpha, s.correction, over=s.per_task)
    wide = board_table.frame(res, s.baseline, s.alpha, s.correction, s.per_task)
    settings = {k: v for k, v in asdict(s).items() if k not in ("baseline", "alpha", "correction", "per_task",
                                                                "n_resamples", "seed", "weight")}
    record = records.board(res, baseline=s.baseline, alpha=s.alpha, correction=s.correction, per_task=s.per_task,
                           **settings)  # the command line's --json of the same board, with the page's settings
    papers = venue.current()
    tex = table_tex(res, s)
    with st.expander(f"For the paper: the task × model table, marks against {s.baseline} ({VENUES[papers].name})"):
        st.code(tex, language="latex", wrap_lines=True)
    c1, c2, c3, _ = st.columns(4)  # to publish: the page, the board for a README, every number
    c1.download_button("Page (.html)", lambda: page_html(res, s), file_name="board.html", mime="text/html",
                       on_click="ignore", key="tasks-html")  # drawn on the click: its figure starts a browser
    c2.download_button("Board (.md)", lambda: board_markdown(res, s), file_name="board.md", mime="text/markdown",
                       on_click="ignore", key="tasks-md")
    c3.download_button("All (.json)", records.dumps(record),
                       file_name="board.json", mime="application/json", on_click="ignore", key="tasks-json")
    c1, c2, c3, c4 = st.columns(4)  # the tables, for a spreadsheet or the paper
    c1.download_button("Board (.csv)", export.table_csv(table), file_name="board.csv", mime="text/csv",
                       on_click="ignore", key="tasks-csv")
    c2.download_button("Per task (.csv)", export.table_csv(tasks), file_name="per_task.csv", mime="text/csv",
                       on_click="ignore", key="tasks-task-csv")
    c3.download_button("Task × model (.csv)", export.table_csv(wide), file_name="tasks_by_model.csv",
                       mime="text/csv", on_click="ignore", key="tasks-wide-csv")
    c4.download_button("Table (.tex)", tex, file_name="tasks_by_model.tex", mime="text/x-tex", on_click="ignore",
                       key="tasks-tex")


def page_html(res: leaderboard.Leaderboard, s: Settings) -> str:
    """The "Page (.html)" download: byte for byte the page of ``many --html`` at the same settings, its rank figure
    inline where static images can be drawn (said on the page where they cannot)."""
    svg, _ = board_page.rank_svg(res, s.alpha, s.correction)
    return board_page.page(res, s.baseline, s.alpha, s.correction, figure_svg=svg)


def board_markdown(res: leaderboard.Leaderboard, s: Settings) -> str:
    """The "Board (.md)" download: byte for byte what ``many --markdown`` prints at the same settings."""
    return board_page.markdown(res, s.baseline, s.alpha, s.correction)
