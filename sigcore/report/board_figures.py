"""Plotly figures of models on many tasks (:class:`sigcore.leaderboard.Leaderboard`), shared by the app and the CLI.

- :func:`ranks`: each model's rank on the aggregate, a point where its score puts it and a bar over the ranks it
  takes on the middle 1 − α of the resamples, one row per model, best on top; the tie groups told apart by
  shade and named beside each row, so that a strict 1..N is not read where the data do not settle it.

- :func:`critical_difference`: a critical-difference-style diagram (Demšar 2006): the models on an axis of mean
  ranks, and a thick bar over each longest run of models the test does not tell apart. :func:`resampled_cd` draws
  it from the paired resamples (mean rank over the resamples; bars from the corrected paired bootstrap on the
  aggregate), :func:`nemenyi_cd` from the Friedman test over tasks (mean rank over tasks; bars within Nemenyi's
  critical difference, which the figure shows).

Model names are the user's text: every label goes through :func:`sigcore.report.style.label`.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..leaderboard import Leaderboard
from ..many import cliques
from ..result import p_number
from .family import CORRECTION_NAMES
from .figures import AXIS, MARK
from .style import label

ROW = 30  # pixels per model
SHADES = (MARK, "#7a7a7a")  # alternate tie groups: dark, mid grey


def ranks(res: Leaderboard, alpha: float = 0.05, correction: str = "holm", *, title: str | None = None) -> go.Figure:
    """Rank intervals with tie groups (:meth:`Leaderboard.rank_intervals`, :meth:`Leaderboard.groups`)."""
    table = res.table(res.board.models[0], alpha, correction)  # best first; the baseline does not change ranks
    n = len(table)
    traces = []
    for g, rows in table.groupby("group", sort=True):
        colour = SHADES[(g - 1) % 2]
        y = [n - 1 - i for i in rows.index]
        point = [i + 1 for i in rows.index]
        traces.append(dict(
            type="scatter", mode="markers", x=point, y=y, name=f"group {g}", showlegend=False,
            marker=dict(color=colour, size=11, symbol="circle"),
            error_x=dict(type="data", symmetric=False, array=list(rows.rank_high - point),
                         arrayminus=list(point - rows.rank_low), color=colour, thickness=3, width=6),
            customdata=[[label(m), lo, hi, g, f"{s:.4f}"] for m, lo, hi, s in
                        zip(rows.model, rows.rank_low, rows.rank_high, rows.score)],
            hovertemplate="<b>%{customdata[0]}</b><br>rank %{x} by its score %{customdata[4]}; ranks "
                          "%{customdata[1]} to %{customdata[2]} on the middle resamples<br>tie group "
                          "%{customdata[3]}<extra></extra>"))
    level = f"{1 - alpha:.0%}"
    layout = dict(
        height=ROW * n + 170, margin=dict(l=20, r=90, t=70, b=70), plot_bgcolor="white",
        title=dict(text=title if title is not None else label(
            f"Ranks of {n} models on {res.board.metric}, with the ranks each takes on the middle {level} of "
            f"b = {res.n_resamples:,} resamples"), font=dict(size=14), x=0.01, xanchor="left", xref="container"),
        xaxis=dict(title=dict(text="rank (1 = best)"), range=[0.5, n + 0.5], tickmode="array",
                   tickvals=list(range(1, n + 1)), showgrid=True, gridcolor="#eeeeee", zeroline=False, **AXIS),
        yaxis=dict(tickmode="array", tickvals=[n - 1 - i for i in range(n)], ticktext=[label(m) for m in table.model],
                   range=[-0.7, n - 0.3], automargin=True, showgrid=False, **AXIS),
        annotations=[dict(xref="paper", x=1.01, xanchor="left", yref="y", y=n - 1 - i, showarrow=False,
                          text=f"group {g}", font=dict(size=12, color=SHADES[(g - 1) % 2]))
                     for i, g in enumerate(table.group)],
        hoverlabel=dict(align="left"),
    )
    return go.Figure(dict(data=traces, layout=layout))


def paper_ranks(res: Leaderboard, alpha: float, correction: str, style) -> go.Figure:
    """:func:`ranks` for a paper (:mod:`sigcore.report.style`): the venue's size, fonts and ink, no title (the
    caption says it), margins for the names and the group labels only."""
    from .style import apply

    fig = ranks(res, alpha, correction, title="")
    fig = apply(fig, style, height=(34 * len(res.board.models) + 60) * style.text / 14, title="Ranks with intervals")
    return fig.update_layout(margin=dict(l=4, r=60, t=6, b=36))


def resampled_cd(res: Leaderboard, alpha: float = 0.05, correction: str = "holm", *,
                 title: str | None = None) -> go.Figure:
    """The diagram from the paired resamples: where each model ranks on average over them, and a bar over each
    run of models no two of which differ on the aggregate after ``correction`` (:meth:`Leaderboard.cliques`)."""
    n = len(res.board.models)
    return critical_difference(
        res.board.models, res.mean_ranks(), res.cliques(alpha, correction),
        axis=f"mean rank over b = {res.n_resamples:,} resamples (1 = best)",
        title=title if title is not None else label(
            f"{n} models on {res.board.metric}: a bar joins models no two of which differ "
            f"(paired bootstrap, {CORRECTION_NAMES[correction]}, α = {alpha:g})"))


def nemenyi_cd(res: Leaderboard, alpha: float = 0.05, *, title: str | None = None) -> go.Figure:
    """Demšar's diagram: mean ranks over the tasks (a group as one), and a bar over each run of models whose mean
    ranks are within Nemenyi's critical difference, which is drawn under them."""
    fr = res.friedman(alpha)
    order = np.argsort(fr.mean_ranks, kind="stable")
    different = fr.different()[np.ix_(order, order)]
    bars = [[fr.models[order[k]] for k in range(i, j + 1)] for i, j in cliques(different)]
    return critical_difference(
        fr.models, fr.mean_ranks, bars, cd=fr.critical_difference,
        axis=f"mean rank over {fr.n_tasks} tasks (1 = best)",
        title=title if title is not None else label(
            f"Friedman over {fr.n_tasks} tasks, p = {p_number(fr.p_value, alpha)} (Iman-Davenport); Nemenyi CD = "
            f"{fr.critical_difference:.2f} at α = {alpha:g}"))


def critical_difference(models, positions, bars: list[list[str]], *, axis: str, title: str,
                        cd: float | None = None) -> go.Figure:
    """Models on a rank axis (1 at the left), the better half named on the left, the rest on the right, each by
    an elbow line from its point; ``bars`` as thick lines under the axis; ``cd``, when given, as a bar under the names."""
    models, positions = list(models), np.asarray(positions, dtype=np.float64)
    k = len(models)
    order = list(np.argsort(positions, kind="stable"))
    half = (k + 1) // 2
    top = 0.12 + 0.12 * len(bars)  # below the bars, the elbows begin
    step = 0.3
    low, high = 1.0, float(max(k, np.ceil(positions.max())))
    shapes, notes = [], []
    line = dict(color=MARK, width=1.5)
    for row, m in enumerate(order):
        x = float(positions[m])
        left = row < half
        depth = top + step * (row if left else k - 1 - row)
        end = low - 0.05 if left else high + 0.05
        shapes += [dict(type="line", x0=x, x1=x, y0=0, y1=-depth, line=line),
                   dict(type="line", x0=x, x1=end, y0=-depth, y1=-depth, line=line)]
        notes.append(dict(x=end, y=-depth, xref="x", yref="y", showarrow=False, xanchor="right" if left else "left",
                          text=f" {label(models[m])} ({x:.2f}) " if not left else f" ({x:.2f}) {label(models[m])} ",
                          font=dict(size=14)))
    index = {m: i for i, m in enumerate(models)}
    for b, members in enumerate(bars):
        xs = [positions[index[m]] for m in members]
        y = -0.08 - 0.12 * b
        shapes.append(dict(type="line", x0=min(xs) - 0.03, x1=max(xs) + 0.03, y0=y, y1=y,
                           line=dict(color="black", width=6)))
    rows = max(half, k - half)
    if cd is not None:  # under the names, from rank 1: how far apart two mean ranks must be
        y = -(top + step * rows)
        shapes += [dict(type="line", x0=low, x1=low + cd, y0=y, y1=y, line=dict(color="black", width=2)),
                   *[dict(type="line", x0=x, x1=x, y0=y - 0.05, y1=y + 0.05, line=dict(color="black", width=2))
                     for x in (low, low + cd)]]
        notes.append(dict(x=low + cd / 2, y=y + 0.03, xref="x", yref="y", showarrow=False, yanchor="bottom",
                          text=f"critical difference (Nemenyi) = {cd:.2f}", font=dict(size=14)))
        rows += 1
    width = max((len(label(m)) for m in models), default=1) * 8 + 70  # the names stand beside the axis
    trace = dict(type="scatter", mode="markers", x=[float(positions[m]) for m in order], y=[0] * k,
                 marker=dict(color=MARK, size=9), showlegend=False, cliponaxis=False,
                 customdata=[[label(models[m]), f"{positions[m]:.2f}"] for m in order],
                 hovertemplate="<b>%{customdata[0]}</b><br>mean rank %{customdata[1]}<extra></extra>")
    layout = dict(
        height=int(150 + 85 * (top + step * rows)),
        margin=dict(l=width, r=width, t=95, b=20), plot_bgcolor="white",
        title=dict(text=title, font=dict(size=14), x=0.01, xanchor="left", xref="container", y=1,
                   yanchor="top", yref="container", pad=dict(t=14)),
        xaxis=dict(title=dict(text=axis, standoff=6), side="top", range=[low - 0.1, high + 0.1], tickmode="array",
                   tickvals=list(range(1, int(high) + 1)), zeroline=False, showgrid=False, anchor="y", position=1,
                   **AXIS),
        yaxis=dict(range=[-(top + step * (rows - 0.5)), 0], visible=False),
        shapes=shapes,
        annotations=notes, hoverlabel=dict(align="left"),
    )
    return go.Figure(dict(data=[trace], layout=layout))
