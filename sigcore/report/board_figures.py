"""Plotly figures of models on many tasks (:class:`sigcore.leaderboard.Leaderboard`), shared by the app and the CLI.

- :func:`ranks`: each model's rank on the aggregate, a point where its score puts it and a bar over the ranks it
  takes on the middle 1 − α of the resamples, one row per model, best on top; the tie groups told apart by
  shade and named beside each row, so that a strict 1..N is not read where the data do not settle it.

Model names are the user's text: every label goes through :func:`sigcore.report.style.label`.
"""

from __future__ import annotations

import plotly.graph_objects as go

from ..leaderboard import Leaderboard
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
