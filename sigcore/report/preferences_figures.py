"""The figure of models rated from pairwise judgments (:class:`sigcore.judgments.Preferences`), shared by the app,
the page and the command line: each model's rating with its interval, one row per model, best on top, its rank
(LMArena's) and rank interval written above its point (not in a margin, which a phone's width cannot spare); a
forest plot, as Chatbot Arena draws its ratings.

Model names are the user's text: every label goes through :func:`sigcore.report.style.label`.
"""

from __future__ import annotations

import plotly.graph_objects as go

from ..errors import SettingsError
from .board_figures import INK, ROW
from .figures import AXIS, MARK
from .preferences import rating_text
from .publish import svg_of
from .style import label

__all__ = ["ratings", "ratings_svg"]


def ratings(res, *, title: str | None = None) -> go.Figure:
    """Each model's rating (a point) and its percentile interval (a bar), best on top, the rank and rank interval
    written above the point."""
    r = res.ratings
    table = r.table()
    k = len(table)
    y = [k - 1 - i for i in range(k)]
    ranks = [f"rank {t.rank}" + ("" if t.rank_low == t.rank_high else f" ({t.rank_low}-{t.rank_high})")
             for t in table.itertuples(index=False)]
    trace = dict(type="scatter", mode="markers+text", x=list(table.rating), y=y, showlegend=False, text=ranks,
                 textposition="top center", textfont=dict(size=11, color=INK),
                 marker=dict(color=MARK, size=10),
                 error_x=dict(type="data", symmetric=False, array=list(table.ci_high - table.rating),
                              arrayminus=list(table.rating - table.ci_low), color=MARK, thickness=3, width=6),
                 customdata=[[label(t.model), rating_text(t.rating, r.scale), rating_text(t.ci_low, r.scale),
                              rating_text(t.ci_high, r.scale), rank] for t, rank in
                             zip(table.itertuples(index=False), ranks)],
                 hovertemplate="<b>%{customdata[0]}</b><br>rating %{customdata[1]} [%{customdata[2]}, "
                               "%{customdata[3]}]<br>%{customdata[4]}<extra></extra>")
    unit = "Elo rating" if r.scale == "elo" else "log odds"
    heading = title if title is not None else label(
        f"{len(r.models)} models rated from pairwise judgments, {r.confidence_level:.0%} intervals")
    layout = dict(
        height=ROW * k + 150, margin=dict(l=20, r=20, t=50, b=70), plot_bgcolor="white", font=dict(color=INK),
        title=dict(text=heading, font=dict(size=14, color=INK), x=0.01, xanchor="left", xref="container"),
        xaxis=dict(title=dict(text=f"{unit} (Bradley–Terry)", font=dict(color=INK)), showgrid=True,
                   gridcolor="#eeeeee", zeroline=False, tickfont=dict(color=INK), **AXIS),
        yaxis=dict(tickmode="array", tickvals=y, ticktext=[label(m) for m in table.model], range=[-0.7, k - 0.3],
                   automargin=True, showgrid=False, tickfont=dict(color=INK), **AXIS),
        hoverlabel=dict(align="left"))
    return go.Figure(dict(data=[trace], layout=layout))


def ratings_svg(res) -> tuple[str | None, str | None]:
    """The page's figure (:func:`ratings`) as SVG text, the same ratings giving the same bytes
    (:func:`sigcore.report.publish.svg_of`); or None and why, where static images cannot be drawn:
    ``(svg, None)`` or ``(None, why)``."""
    try:
        return svg_of(ratings(res), "ratings"), None
    except (ImportError, SettingsError) as e:
        return None, str(e)
