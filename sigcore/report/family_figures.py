"""Plotly figures of a family of comparisons (:class:`sigcore.Many`): pure functions from the family to a
``go.Figure``, shared by the app and the CLI.

- :func:`forest`: each system's δ against the baseline, a point and its interval per system, a line at 0,
  the comparisons that are significant after the correction filled, the others hollow.
- :func:`heatmap`: every pair's δ (row minus column), each cell's text the δ, marked * where the pair is
  significant after the correction.

System names are the user's text: every label goes through :func:`label`, so that Plotly never reads a name as
its HTML subset (``<b>``, ``<br>``, ``<a href>``). Labels use Unicode, not MathJax, which would fetch from the
network.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ..many import Many
from ..metrics import METRIC_NAMES
from .family import CORRECTION_NAMES, heading, heatmap_font, off_scale, signed
from .figures import AXIS, BODY, MARK
from .sentence import number
from .style import MINUS, Style, apply, label, plain, wrap

__all__ = ["ROW", "NOT_SIGNIFICANT", "HOLLOW", "DIVERGING", "metric_label", "forest_order", "forest", "heatmap_order",
           "pair", "heatmap"]

ROW = 26  # pixels per system on the y axis
_LEGEND_MARK = 4  # ems of a legend entry besides its text: the marker and the gaps around it
NOT_SIGNIFICANT = BODY
HOLLOW = "#555555"  # a printed forest plot's not-significant marks: hollow is the difference, not the shade
DIVERGING = [[0.0, "#b2182b"], [0.25, "#ef8a62"], [0.5, "#f7f7f7"], [0.75, "#67a9cf"], [1.0, "#2166ac"]]


def metric_label(many: Many) -> str:
    """The metric as a reader writes it in a sentence: BLEU, chrF, macro-F1, accuracy."""
    return METRIC_NAMES.get(many.metric, many.metric)


def _scale(many: Many) -> float:
    return max(abs(v) for v in many.scores.values()) or 1.0


def _marked(many: Many) -> str:
    return f"significant after {CORRECTION_NAMES[many.correction]} (α = {many.alpha:g})"


def forest_order(many: Many) -> list[str]:
    """The systems of a family against a baseline, from the best δ at the top of the plot to the worst: the largest
    first, or the smallest (most negative) where lower is better (an error)."""
    if many.baseline is None:
        raise ValueError("a forest plot shows each system against a baseline; for all pairs, draw the heatmap")
    others = [s for s in many.systems if s != many.baseline]
    sign = 1 if many.higher_is_better else -1
    return sorted(others, key=lambda s: sign * many.results[(s, many.baseline)].delta)  # Plotly: y = 0 at the bottom


def forest(many: Many, *, title: str | None = None, style: Style | None = None,
           width: str | None = None) -> go.Figure:
    """Each system's δ = score(system) − score(baseline), a point with its interval as a horizontal error bar,
    one row per system (largest δ on top), a vertical line at 0. Significant comparisons (after the family's
    correction, as ``many.significant`` decides) are filled, the others hollow and grey: the marks are the
    corrected decisions, while each bar is that comparison's own 1 − α interval of δ (``many.delta_interval``;
    none where the test's interval is of another quantity), not corrected. With ``style`` (a paper's or a
    slide's), at its true size (``width``: "column" or "full", by default the style's own) and without a
    title: the caption carries it, and a PDF's metadata. A system far off the others
    (:func:`sigcore.report.family.off_scale`) is an arrow at the axis's edge, its δ beside its name."""
    base, scale, name = many.baseline, _scale(many), metric_label(many)
    order = forest_order(many)
    row = {s: i for i, s in enumerate(order)}
    far = off_scale(many)  # at the axis's edge, pointing off it: the close calls keep the width
    span = _span([v for s in order if s not in far for v in (*many.delta_interval(s, base),
                                                             many.results[(s, base)].delta)])
    ticks = [label(s) + (f" ({signed(many.results[(s, base)].delta, scale)})" if s in far else "") for s in order]
    traces = []
    # on paper the close calls, hollow on the dashed line at 0, are the ones a reader needs: dark, not light, grey
    ink, grey = (style.ink, HOLLOW) if style else (MARK, NOT_SIGNIFICANT)
    size, thick = (0.6 * style.text, max(style.line, 1)) if style else (11, 2)
    for significant, legend, colour, symbol in ((True, _marked(many), ink, "circle"),
                                                (False, "not significant", grey, "circle-open")):
        # off-scale arrows last: a legend shows a trace's first marker
        systems = sorted((s for s in order if many.significant(s, base) == significant), key=lambda s: s in far)
        res = [many.results[(s, base)] for s in systems]
        delta = np.array([r.delta for r in res], dtype=float)
        bounds = np.array([many.delta_interval(s, base) for s in systems], dtype=float).reshape(-1, 2)
        low, high = bounds[:, 0], bounds[:, 1]
        custom = [[label(s), signed(r.delta, scale), _bracket(lo, hi, scale), r.p_text,
                   number(many.adjusted[(s, base)], 1.0)] for s, r, lo, hi in zip(systems, res, low, high)]
        off = np.array([s in far for s in systems], dtype=bool)
        inset = 0.02 * (span[1] - span[0])  # inside the panel, clear of the axis line
        x = np.where(off, [span[1] - inset if far.get(s, 0) > 0 else span[0] + inset for s in systems], delta)
        plus, minus = np.where(off, np.nan, high - delta), np.where(off, np.nan, delta - low)
        shapes = [f"triangle-{'right' if far[s] > 0 else 'left'}{symbol[6:]}" if s in far else symbol for s in systems]
        traces.append(dict(
            type="scatter", mode="markers", x=x, y=[row[s] for s in systems], name=legend,
            showlegend=True, customdata=custom, cliponaxis=False,
            marker=dict(color=colour, symbol=shapes if off.any() else symbol, size=size,
                        line=dict(color=colour, width=thick)),
            error_x=dict(type="data", symmetric=False, array=plus, arrayminus=minus,
                         color=colour, thickness=thick, width=size / 2),
            hovertemplate="<b>%{customdata[0]}</b><br>δ = %{customdata[1]}%{customdata[2]}"
                          "<br>%{customdata[3]}, corrected p = %{customdata[4]}<extra></extra>"))
    level = f"{1 - many.alpha:.0%}"
    interval = all(math.isfinite(v) for s in order for v in many.delta_interval(s, base))
    layout = dict(
        height=ROW * len(order) + 190, margin=dict(l=20, r=20, t=70, b=100), plot_bgcolor="white",
        title=_title(many, title),
        xaxis=dict(title=dict(text=f"δ = {name}(system) {MINUS} {name}({label(base)})"
                                   + (f", with its {level} interval" if interval else "") + _better(many, "; ")),
                   range=span, zeroline=False, showgrid=True, gridcolor="#eeeeee", **AXIS),
        yaxis=dict(tickmode="array", tickvals=list(range(len(order))), ticktext=ticks,
                   range=[-0.7, len(order) - 0.3], automargin=True, showgrid=True, gridcolor="#f4f4f4", **AXIS),
        legend=dict(orientation="h", yref="container", y=0, yanchor="bottom", x=1, xanchor="right"),
        shapes=[dict(type="line", xref="x", yref="y domain", x0=0, x1=0, y0=0, y1=1,
                     line=dict(color="black", width=1.5, dash="dash"))],
        annotations=[dict(xref="x", yref="y domain", x=0, y=1, yanchor="bottom", text=label(base), showarrow=False,
                          font=dict(size=12, color="black"))],
        hoverlabel=dict(align="left"),
    )
    fig = go.Figure(dict(data=traces, layout=layout))
    if style is None:
        return fig
    room = style.width(width) - 2 * style.text
    # the x title is centred on the panel, right of the systems' names (about 0.55 em a character): it may
    # reach as far left of the centre as right of it, so it fits the figure's width less the names'
    left = max(0.55 * style.tick * max(len(plain(t)) for t in ticks) + 10, style.text)
    # a line that breaks at the minus keeps it at its end: one starting with "− BLEU(...)" reads as a negative
    axis = wrap([f"δ = {name}(system) {MINUS}", f"{name}({label(base)})" + ("," if interval else "")]
                + ([f"with its {level} interval" + (";" if _better(many) else "")] if interval else [])
                + ([_better(many)] if _better(many) else []), style, style.width(width) - left)
    shown = [t for t in fig.data if len(t.x)]  # Plotly lists no trace without points in the legend
    for t in shown:  # "significant after Benjamini-Yekutieli" and "(α = 0.05)" on two lines if need be
        head, _, tail = t.name.partition(" (")
        t.name = wrap([head] + ([f"({tail}"] if tail else []), style, room - _LEGEND_MARK * style.text)
    # the entries side by side if they fit the width, else one under the other
    longest = [max(len(plain(line)) for line in t.name.split("<br>")) for t in shown]
    across = sum((_LEGEND_MARK + 0.5 * n) * style.text for n in longest) <= room
    lines = [t.name.count("<br>") + 1 for t in shown]
    rows = (max(lines, default=1) if across else sum(lines)) + axis.count("<br>") + 1  # legend and x title
    fig.update_layout(margin=dict(l=style.text, r=style.text, t=style.row + 6,
                                  b=2 * style.tick + (rows + 1.6) * style.row),
                      xaxis_title_text=axis, xaxis_gridcolor="#dddddd", yaxis_gridcolor="#eeeeee",
                      legend_orientation="h" if across else "v")
    return apply(fig, style, width, 1.7 * style.row * len(order) + 2 * style.tick + (rows + 2.6) * style.row + 6,
                 title=f"δ against {base}, {heading(many)}")


def heatmap_order(many: Many) -> list[str]:
    """The systems of the heatmap's rows and columns: by score, best first (the ranking's order)."""
    return many.best_first()


def pair(many: Many, row: str, column: str) -> tuple[float, bool] | None:
    """δ = score(row) − score(column) and the pair's corrected decision, from whichever way it was tested."""
    if (row, column) in many.results:
        return many.results[(row, column)].delta, many.significant(row, column)
    if (column, row) in many.results:
        return -many.results[(column, row)].delta, many.significant(column, row)
    return None


def _cells(many: Many, order: list[str]) -> tuple[list, list, list]:
    """Each pair's δ (row minus column), its text (δ, * where significant) and its hover text; None and "" on the
    diagonal and where the pair was not tested."""
    scale = _scale(many)
    z, text, hover = [], [], []
    for r in order:
        z_row, text_row, hover_row = [], [], []
        for c in order:
            got = None if r == c else pair(many, r, c)
            if got is None:
                z_row.append(None)
                text_row.append("")
                hover_row.append("")
                continue
            delta, significant = got
            z_row.append(delta)
            text_row.append(signed(delta, scale) + ("*" if significant else ""))
            hover_row.append(f"{label(r)} {MINUS} {label(c)}: δ = {signed(delta, scale)}, "
                             + ("significant" if significant else "not significant"))
        z.append(z_row)
        text.append(text_row)
        hover.append(hover_row)
    return z, text, hover


def heatmap(many: Many, *, title: str | None = None) -> go.Figure:
    """Every pair's δ = score(row) − score(column), rows and columns by score (best first), in a diverging
    scale centred on 0; each cell's text is δ, with * where the pair is significant after the correction, in as
    small a font as down to 9 px lets it fit its cell (:func:`sigcore.report.family.heatmap_font`); where it
    cannot (20 systems or so),
    the cells show only the *, δ on hover, and the subtitle says so. Pairs that were not tested (against a
    baseline, only its row and column are) are left blank."""
    order, name = heatmap_order(many), metric_label(many)
    z, text, hover = _cells(many, order)
    font = heatmap_font(many)
    if font is None:
        text = [["*" if t.endswith("*") else "" for t in row] for row in text]
    finite = [abs(v) for row in z for v in row if v is not None and math.isfinite(v)]
    top = max(finite, default=1.0) or 1.0
    ticks = [label(s) for s in order]
    trace = dict(type="heatmap", z=z, x=list(range(len(order))), y=list(range(len(order))), text=text,
                 texttemplate="%{text}", textfont=dict(size=font or 13), customdata=hover,
                 hovertemplate="%{customdata}<extra></extra>", zmid=0, zmin=-top, zmax=top,
                 colorscale=DIVERGING if many.higher_is_better else [[1 - x, c] for x, c in reversed(DIVERGING)],
                 xgap=1, ygap=1, colorbar=dict(title=dict(text="δ", side="right"), thickness=14))
    side = max(420, 36 * len(order) + 220)
    cell = (f"each cell: δ = {name}(row) {MINUS} {name}(column)" if font else
            f"each cell's colour: δ = {name}(row) {MINUS} {name}(column), its value on hover")
    cell += _better(many, "; ", "row")
    layout = dict(
        height=side, margin=dict(l=20, r=20, t=90, b=20), plot_bgcolor="white",
        title=_title(many, title, f"{cell}; * {_marked(many)}"),
        xaxis=dict(tickmode="array", tickvals=list(range(len(order))), ticktext=ticks, tickangle=-45,
                   automargin=True, showgrid=False),
        yaxis=dict(tickmode="array", tickvals=list(range(len(order))), ticktext=ticks, autorange="reversed",
                   automargin=True, showgrid=False),
    )
    return go.Figure(dict(data=[trace], layout=layout))


def _better(many: Many, lead: str = "", who: str = "system") -> str:
    """Which side of δ = 0 is better where lower is better (an error): "lower is better, below 0: system better",
    after ``lead``; "" where higher is better. The blue end of the heatmap's colours is the better side either way."""
    return "" if many.higher_is_better else f"{lead}lower is better, below 0: {who} better"


def _bracket(low: float, high: float, scale: float) -> str:
    return "" if math.isnan(low) or math.isnan(high) else f" [{signed(low, scale)}, {signed(high, scale)}]"


def _title(many: Many, title: str | None, subtitle: str | None = None) -> dict:
    """The figure's title (by default what was done: metric, test, b, seed, side, correction, α) at its top left."""
    out = dict(text=title if title is not None else label(heading(many)), font=dict(size=14), x=0.01,
               xanchor="left", xref="container", y=0.99 if subtitle else None, yref="container", yanchor="top")
    if subtitle:
        out["subtitle"] = dict(text=subtitle, font=dict(size=12))
    return {k: v for k, v in out.items() if v is not None}


def _span(values: list[float]) -> list[float]:
    """An x range holding 0 and every value, with a margin."""
    finite = [v for v in values if math.isfinite(v)] + [0.0]
    low, high = min(finite), max(finite)
    pad = 0.06 * (high - low or 1.0)
    return [low - pad, high + pad]
