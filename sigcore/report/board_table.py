r"""The task × model table of a board (:class:`sigcore.leaderboard.Leaderboard`) for a paper: a row per model, best
first, its rank interval, its score on each task (a group of tasks as one column, its score as the group averages
it) and on the aggregate, each marked against the baseline where the paired bootstrap finds it significantly
better ($^\dagger$) or worse ($^\ddagger$) after the correction; a rule between tie groups. As a frame
(:func:`frame`, for CSV and JSON) and as a booktabs table (:func:`latex`) whose caption says every setting.
"""

from __future__ import annotations

import pandas as pd

from ..contract import DEFAULT_ALPHA
from ..leaderboard import Leaderboard
from ..words import counted
from . import citations
from .export import latex_escape, latex_number, latex_table, stem, tabular_width
from .family import CORRECTION_NAMES
from .venues import DEFAULT as DEFAULT_VENUE
from .venues import venue_named

__all__ = ["MARKS", "frame", "board_stem", "latex", "keys", "caption"]

MARKS = {1: "better", -1: "worse", 0: ""}


def frame(res: Leaderboard, baseline: str, alpha: float = DEFAULT_ALPHA, correction: str = "holm",
          over: str = "family") -> pd.DataFrame:
    """Wide: model, rank_low, rank_high, group, then per task (a group as one) its score and its mark ("better",
    "worse" or ""), then the aggregate's; the per-task p's corrected ``over`` the family of tasks × models or
    within each task, the aggregate's over the models, as :meth:`Leaderboard.table` and :meth:`task_table`."""
    board = res.table(baseline, alpha, correction)
    units, scores = res.unit_scores()
    tasks = res.task_table(baseline, alpha, correction, over=over, tasks=units)
    marks = {(r.task, r.model): _side(r.p_corrected, r.delta, alpha) for r in tasks.itertuples()}
    index = {m: k for k, m in enumerate(res.board.models)}
    rows = []
    for r in board.itertuples():
        row = {"model": r.model, "rank_low": r.rank_low, "rank_high": r.rank_high, "group": r.group}
        for u, name in enumerate(units):
            row[name] = float(scores[u, index[r.model]])
            row[f"{name} mark"] = MARKS[marks.get((name, r.model), 0)]
        row["aggregate"] = r.score
        row["aggregate mark"] = MARKS[0 if r.model == baseline else _side(r.p_corrected, r.delta, alpha)]
        rows.append(row)
    return pd.DataFrame(rows)


def _side(p: float, delta: float, alpha: float) -> int:
    return (1 if delta > 0 else -1) if p <= alpha and delta != 0 else 0


def board_stem(res: Leaderboard, baseline: str) -> str:
    """A board's stem: ``accuracy-board-vs-llama`` (:func:`sigcore.report.export.stem`)."""
    return stem(res.board.metric, "board", "vs", baseline)


def latex(res: Leaderboard, baseline: str, alpha: float = DEFAULT_ALPHA, correction: str = "holm",
          over: str = "family", venue: str = DEFAULT_VENUE, label: str | None = None) -> str:
    r"""The booktabs table (``\usepackage{booktabs}``), across both columns (``table*``) where the venue's column
    is too narrow for it, its caption on the venue's side."""
    table = frame(res, baseline, alpha, correction, over)
    units = res.unit_scores()[0]
    scale = max(abs(float(v)) for u in (*units, "aggregate") for v in table[u]) or 1.0
    mean = "Mean" if res.weight == "tasks" else "All items"
    header = ["Model", "Rank", *(latex_escape(u) for u in units), mean]
    rows, previous = [], None
    for r in table.to_dict(orient="records"):
        if previous is not None and r["group"] != previous:
            rows.append(None)  # a rule between tie groups
        previous = r["group"]
        low, high = r["rank_low"], r["rank_high"]
        rows.append([latex_escape(r["model"]), f"{low}" if low == high else f"{low}--{high}",
                     *(latex_number(r[u], scale) + _mark(r[f"{u} mark"]) for u in (*units, "aggregate"))])
    cells = [header, *(r for r in rows if r is not None)]
    wide = tabular_width(cells) > venue_named(venue).column
    lines = ["    " + " & ".join(header) + r" \\", r"    \midrule"]
    lines += [r"    \midrule" if r is None else "    " + " & ".join(r) + r" \\" for r in rows]
    body = [r"  \setlength{\tabcolsep}{4pt}", f"  \\begin{{tabular}}{{lc{'r' * (len(units) + 1)}}}", r"    \toprule",
            *lines, r"    \bottomrule", r"  \end{tabular}"]
    return latex_table(body, caption(res, baseline, alpha, correction, over),
                       label or f"tab:{board_stem(res, baseline)}", venue, small=True, wide=wide)


def _mark(mark: str) -> str:
    return {"better": r"$^\dagger$", "worse": r"$^\ddagger$"}.get(mark, r"\phantom{$^\ddagger$}")


def keys(correction: str) -> list[str]:
    """The works the table's caption cites: the paired bootstrap, its interval, the correction."""
    return list(dict.fromkeys([*citations.keys_for_test("bootstrap", ""), *citations.family_keys("bootstrap", [],
                                                                                                correction)]))


def caption(res: Leaderboard, baseline: str, alpha: float, correction: str, over: str) -> str:
    """What the table shows and how it was tested, in LaTeX: the metric, the aggregate, the marks, the correction
    and over what, the bootstrap, the ranks and the rules, with the works cited."""
    board, name = res.board, CORRECTION_NAMES[correction]
    n, units, others = len(board.models), res.unit_scores()[0], len(board.models) - 1
    groups = "".join(f"; {g}: its {len(t)} tasks' {'items' if how == 'items' else 'scores'} averaged"
                     for g, (t, how) in board.groups.items())
    mean = ("Mean: the mean of the task scores, a group counting once" if res.weight == "tasks"
            else "All items: the mean over all items")
    family = (f"over the {counted(len(units) * others, 'comparison')} of {len(units)} tasks $\\times$ {others} "
              "models" if over == "family" else f"within each task, over {counted(others, 'model')}")
    b = f"{res.n_resamples:,}".replace(",", "{,}")
    cite = citations.cite_latex(keys(correction))
    level = f"{(1 - alpha) * 100:.10g}\\%"
    return (f"{latex_escape(board.metric + ' of ' + str(n) + ' models on ' + counted(len(units), 'task') + groups)}; "
            f"{mean}. $^\\dagger$/$^\\ddagger$: significantly better/worse than {latex_escape(baseline)} (paired "
            f"bootstrap stratified by task, $b = {b}$, seed {res.seed}, two-sided, $\\alpha = {alpha:g}$; "
            f"{name}-corrected {family} on the tasks, and over the {counted(others, 'model')} on the mean) {cite}. "
            f"Rank: the ranks a model takes on the middle {level} of the resamples; a rule falls between two models "
            f"only where every model above it is significantly better than every model below it.")
