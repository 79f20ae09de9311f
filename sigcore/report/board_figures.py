"""Plotly figures of models on many tasks (:class:`sigcore.leaderboard.Leaderboard`), shared by the app and the CLI.

- :func:`ranks`: each model's rank on the aggregate, a point where its score puts it and a bar over the ranks it
  takes on the middle 1 − α of the resamples, one row per model, best on top; the tie groups told apart by
  shade and named beside each row, so that a strict 1..N is not read where the data do not settle it.

- :func:`critical_difference`: a critical-difference-style diagram (Demšar 2006): the models on an axis of mean
  ranks, and a thick bar over each longest run of models the test does not tell apart. :func:`resampled_cd` draws
  it from the paired resamples (mean rank over the resamples; bars from the corrected paired bootstrap on the
  aggregate), :func:`nemenyi_cd` from the Friedman test over tasks (mean rank over tasks; bars within Nemenyi's
  critical difference, which the figure shows).

:func:`styled` draws any of them (:data:`KINDS`) for a paper or a slide (:mod:`sigcore.report.style`): the venue's
width, its fonts, no title (the caption, :func:`sigcore.report.board.figure_caption`, says it).

Model names are the user's text: every label goes through :func:`sigcore.report.style.label`.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ..contract import DEFAULT_ALPHA
from ..errors import SettingsError
from ..leaderboard import Leaderboard
from ..many import cliques
from ..result import p_number
from .family import CORRECTION_NAMES
from .figures import AXIS, MARK
from .style import BOARD_KINDS, PX_PER_IN, Style, ems, label, plain

__all__ = ["ROW", "SHADES", "INK", "TITLE_CHARS", "KINDS", "PX_PER_CM", "ranks", "paper_ranks", "styled",
           "resampled_cd", "nemenyi_cd", "nemenyi_bars", "critical_difference"]

ROW = 30  # pixels per model
SHADES = (MARK, "#7a7a7a")  # alternate tie groups: dark, mid grey
INK = "#31333f"  # on the page, Streamlit's text colour: its theme's grey ticks and names read faint
TITLE_CHARS = 64  # a title line's most characters on the page: clear of Plotly's toolbar at its top right
KINDS = BOARD_KINDS  # a board's figures: rank intervals, the diagram from the resamples, Demšar's
PX_PER_CM = PX_PER_IN / 2.54
def _title_lines(text: str) -> tuple[str, int]:
    """``text`` broken at spaces (not around an "=") into lines of at most :data:`TITLE_CHARS` (Plotly does not wrap
    a title), and how many lines it takes."""
    lines, words = [""], []
    for word in text.split(" "):  # "p = 0.05" stays on one line
        if words and (word == "=" or words[-1].endswith(" =")):
            words[-1] += f" {word}"
        else:
            words.append(word)
    for word in words:
        if lines[-1] and len(plain(f"{lines[-1]} {word}")) > TITLE_CHARS:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
    return "<br>".join(lines), len(lines) if text else 0


def ranks(res: Leaderboard, alpha: float = DEFAULT_ALPHA, correction: str = "holm", *,
          title: str | None = None, top: int | None = None) -> go.Figure:
    """Rank intervals with tie groups (:meth:`Leaderboard.rank_intervals`, :meth:`Leaderboard.groups`); ``top``:
    only the first so many models (the rank axis still spans them all)."""
    table = res.table(res.board.models[0], alpha, correction)  # best first; the baseline does not change ranks
    n = len(table)
    if top is not None and top < n:
        table = table.iloc[:top]
    k = len(table)  # rows drawn
    traces = []
    for g, rows in table.groupby("group", sort=True):
        colour = SHADES[(g - 1) % 2]
        y = [k - 1 - i for i in rows.index]
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
    heading, lines = _title_lines(title if title is not None else label(
        f"Ranks of {n} models on {res.board.metric}, with the ranks each takes on the middle {level} of "
        f"b = {res.n_resamples:,} resamples"))
    layout = dict(
        height=ROW * k + 150 + 20 * lines, margin=dict(l=20, r=90, t=30 + 20 * lines, b=70), plot_bgcolor="white",
        font=dict(color=INK),
        title=dict(text=heading, font=dict(size=14, color=INK), x=0.01, xanchor="left", xref="container", y=1,
                   yanchor="top", yref="container", pad=dict(t=12)),
        xaxis=dict(title=dict(text="rank (1 = best)", font=dict(color=INK)), range=[0.5, n + 0.5], tickmode="array",
                   tickvals=list(range(1, n + 1)), showgrid=True, gridcolor="#eeeeee", zeroline=False,
                   tickfont=dict(color=INK), **AXIS),
        yaxis=dict(tickmode="array", tickvals=[k - 1 - i for i in range(k)], ticktext=[label(m) for m in table.model],
                   range=[-0.7, k - 0.3], automargin=True, showgrid=False, tickfont=dict(color=INK), **AXIS),
        annotations=[dict(xref="paper", x=1.01, xanchor="left", yref="y", y=k - 1 - i, showarrow=False,
                          text=f"group {g}", font=dict(size=12, color=SHADES[(g - 1) % 2]))
                     for i, g in enumerate(table.group)],
        hoverlabel=dict(align="left"),
    )
    return go.Figure(dict(data=traces, layout=layout))


def paper_ranks(res: Leaderboard, alpha: float, correction: str, style: Style, width: str | None = None
                ) -> go.Figure:
    """:func:`ranks` for a paper or a slide (:mod:`sigcore.report.style`): the venue's size, fonts and ink, no title
    (the caption says it), margins for the names and the group labels only, a rank tick every 1, 2, 5, ... as
    the panel's width leaves room for."""
    from .style import apply, axis_room, rows_on_page

    n = len(res.board.models)
    shown, pitch = rows_on_page(n, style)
    fig = ranks(res, alpha, correction, title="", top=shown)
    size = 0.6 * style.text
    for trace in fig.data:
        trace.marker.size = size
        trace.error_x.thickness, trace.error_x.width = max(style.line * 1.5, 1.5), size / 2
    names = max(ems(plain(label(m))) for m in res.board.models) * style.tick + style.tick
    right = ems(f"group {n}") * style.text + style.text
    step = _tick_step(n, style.width(width) - names - right - style.text, ems(str(n)) * style.tick)
    fig.update_layout(xaxis=dict(tickvals=[1, *range(step, n + 1, step)] if step > 1 else list(range(1, n + 1))),
                      annotations=[a.update(x=1, xshift=0.5 * style.text) for a in fig.layout.annotations])
    what = f"{n} models" if shown == n else f"the top {shown} of {n} models"
    fig = apply(fig, style, width, height=pitch * shown + axis_room(style),
                title=f"Ranks of {what} on {res.board.metric}, with intervals and tie groups")
    return fig.update_layout(margin=dict(l=4, r=right, t=0.5 * style.text, b=2 * style.tick + 1.6 * style.row))


def _tick_step(n: int, room: float, tick: float) -> int:
    """Every how many ranks a tick goes so that each tick's label has twice its width: 1, 2, 5, 10, 20, ..."""
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if room / max(n / step, 1) >= 2 * tick or step * 10 > n:
            return step
    return 1_000


def styled(res: Leaderboard, kind: str, alpha: float, correction: str, style: Style,
           width: str | None = None) -> go.Figure:
    """The board's figure ``kind`` (``ranks``, ``cd`` from the resamples, ``nemenyi`` from the Friedman test over
    tasks) in ``style`` at ``width`` (the style's default: a paper's column). A diagram whose names leave its rank
    axis too little of the width is refused, with the widths that would fit."""
    if kind not in KINDS:
        raise SettingsError(f"a board's figure is one of {', '.join(KINDS)}, not {kind!r}")
    if kind == "ranks":
        return paper_ranks(res, alpha, correction, style, width)
    fig = resampled_cd(res, alpha, correction, style=style, width=width) if kind == "cd" else \
        nemenyi_cd(res, alpha, style=style, width=width)
    return fig


def resampled_cd(res: Leaderboard, alpha: float = DEFAULT_ALPHA, correction: str = "holm", *,
                 title: str | None = None, style: Style | None = None, width: str | None = None) -> go.Figure:
    """The diagram from the paired resamples: where each model ranks on average over them, and a bar over each
    run of models no two of which differ on the aggregate after ``correction`` (:meth:`Leaderboard.cliques`)."""
    n = len(res.board.models)
    return critical_difference(
        res.board.models, res.mean_ranks(), res.cliques(alpha, correction),
        axis=f"mean rank over  b = {res.n_resamples:,} resamples  (1 = best)",  # "  ": where it may break
        title=title if title is not None else label(
            f"{n} models on {res.board.metric}: a bar joins models no two of which differ "
            f"(paired bootstrap, {CORRECTION_NAMES[correction]}, α = {alpha:g})"),
        style=style, width=width, meta=f"Mean ranks of {n} models on {res.board.metric} over the paired resamples")


def nemenyi_cd(res: Leaderboard, alpha: float = DEFAULT_ALPHA, *, title: str | None = None, style: Style | None = None,
               width: str | None = None) -> go.Figure:
    """Demšar's diagram: mean ranks over the tasks (a group as one), and a bar over each run of models whose mean
    ranks are within Nemenyi's critical difference, which is drawn under them."""
    fr = res.friedman(alpha)
    return critical_difference(
        fr.models, fr.mean_ranks, nemenyi_bars(fr), cd=fr.critical_difference,
        axis=f"mean rank over  {fr.n_tasks} tasks  (1 = best)",
        title=title if title is not None else label(
            f"Friedman over {fr.n_tasks} tasks, p = {p_number(fr.p_value, alpha)} (Iman-Davenport); Nemenyi CD = "
            f"{fr.critical_difference:.2f} at α = {alpha:g}"),
        style=style, width=width, meta=f"Mean ranks of {len(fr.models)} models over {fr.n_tasks} tasks, with "
                                       f"Nemenyi's critical difference")


def nemenyi_bars(fr) -> list[list[str]]:
    """The runs of models, best first, whose mean ranks over the tasks Nemenyi's test does not tell apart."""
    order = np.argsort(fr.mean_ranks, kind="stable")
    different = fr.different()[np.ix_(order, order)]
    return [[fr.models[order[k]] for k in range(i, j + 1)] for i, j in cliques(different)]


def critical_difference(models, positions, bars: list[list[str]], *, axis: str, title: str,
                        cd: float | None = None, style: Style | None = None, width: str | None = None,
                        meta: str = "") -> go.Figure:
    """Models on a rank axis (1 at the left), the better half named on the left, the rest on the right, each by
    an elbow line from its point; ``bars`` as thick lines under the axis; ``cd``, when given, as a bar under the
    names. With ``style``, at its size (``width``), its fonts and without a title (``meta`` its PDF's), the names
    without their mean ranks (the axis gives them), refused where they leave the axis too little of it;
    ``axis`` may break into lines where it has two spaces."""
    models, positions = list(models), np.asarray(positions, dtype=np.float64)
    k = len(models)
    order = list(np.argsort(positions, kind="stable"))
    half = (k + 1) // 2
    text = style.text if style else 14
    gap = 0.12  # between bars: in a styled diagram, about half a line of text
    top = gap + gap * len(bars)  # below the bars, the elbows begin
    step = 0.3
    low, high = 1.0, float(max(k, np.ceil(positions.max())))
    shapes, notes = [], []
    line = dict(color=MARK, width=1.5 if style is None else max(style.line, 1))
    names = [label(models[m]) if style else None for m in order]
    for row, m in enumerate(order):
        x = float(positions[m])
        left = row < half
        depth = top + step * (row if left else k - 1 - row)
        end = low - 0.05 if left else high + 0.05
        shapes += [dict(type="line", x0=x, x1=x, y0=0, y1=-depth, line=line),
                   dict(type="line", x0=x, x1=end, y0=-depth, y1=-depth, line=line)]
        named = names[row] if style else (f" {label(models[m])} ({x:.2f}) " if not left
                                          else f" ({x:.2f}) {label(models[m])} ")
        notes.append(dict(x=end, y=-depth, xref="x", yref="y", showarrow=False, xanchor="right" if left else "left",
                          text=named, font=dict(size=text, color=INK), xshift=-3 if left and style else 3 if style
                          else 0))
    index = {m: i for i, m in enumerate(models)}
    for b, members in enumerate(bars):
        xs = [positions[index[m]] for m in members]
        y = -(gap * 2 / 3) - gap * b
        shapes.append(dict(type="line", x0=min(xs) - 0.03, x1=max(xs) + 0.03, y0=y, y1=y,
                           line=dict(color="black", width=6 if style is None else max(0.3 * text, 2.5))))
    rows = max(half, k - half)
    if cd is not None:  # under the names, from rank 1: how far apart two mean ranks must be
        y = -(top + step * (rows + 0.3))  # its label above it, clear of the last row of names
        thin = dict(color="black", width=2 if style is None else max(style.line, 1))
        shapes += [dict(type="line", x0=low, x1=low + cd, y0=y, y1=y, line=thin),
                   *[dict(type="line", x0=x, x1=x, y0=y - 0.05, y1=y + 0.05, line=thin) for x in (low, low + cd)]]
        notes.append(dict(x=low + cd / 2, y=y + 0.03, xref="x", yref="y", showarrow=False, yanchor="bottom",
                          text=f"critical difference (Nemenyi) = {cd:.2f}" if style is None else f"CD = {cd:.2f}",
                          font=dict(size=text, color=INK)))
        rows += 1.3
    trace = dict(type="scatter", mode="markers", x=[float(positions[m]) for m in order], y=[0] * k,
                 marker=dict(color=MARK, size=9 if style is None else 0.5 * text), showlegend=False,
                 cliponaxis=False, customdata=[[label(models[m]), f"{positions[m]:.2f}"] for m in order],
                 hovertemplate="<b>%{customdata[0]}</b><br>mean rank %{customdata[1]}<extra></extra>")
    span = top + step * (rows - 0.5)
    title, lines = _title_lines(title)
    if style is None:
        side = max((len(label(m)) for m in models), default=1) * 8 + 70  # the names stand beside the axis
        size = dict(height=int(130 + 20 * lines + 85 * (top + step * rows)),
                    margin=dict(l=side, r=side, t=75 + 20 * lines, b=20))
        ticks, axis = list(range(1, int(high) + 1)), axis.replace("  ", " ")
    else:
        size, ticks, axis = _styled_size(names, high, span, axis, style, width)
    layout = dict(
        **size, plot_bgcolor="white", font=dict(color=INK),
        title=dict(text=title, font=dict(size=14, color=INK), x=0.01, xanchor="left", xref="container", y=1,
                   yanchor="top", yref="container", pad=dict(t=12)),
        xaxis=dict(title=dict(text=axis, standoff=6, font=dict(color=INK)), side="top", range=[low - 0.1, high + 0.1],
                   tickmode="array", tickvals=ticks, zeroline=False, showgrid=False, anchor="y", position=1,
                   tickfont=dict(color=INK), **AXIS),
        yaxis=dict(range=[-span, 0], visible=False),
        shapes=shapes,
        annotations=notes, hoverlabel=dict(align="left"),
    )
    fig = go.Figure(dict(data=[trace], layout=layout))
    if style is None:
        return fig
    from .style import apply

    return apply(fig, style, width, size["height"], title=meta).update_layout(margin=size["margin"])


def _styled_size(names: list[str], high: float, span: float, axis: str, style: Style, width: str | None):
    """A styled diagram's height, margins and axis title: the longest name on each side beside the axis, a line of
    text per row, the title in as many lines as its room over the panel takes; its rank ticks as many as fit.
    Refused where the names leave the axis less than a quarter of the width, or 8 px a rank."""
    from .style import wrap

    total = style.width(width)
    half = (len(names) + 1) // 2
    sides = [max((ems(plain(n)) for n in part), default=0) * style.text + 0.5 * style.text
             for part in (names[:half], names[half:])]
    panel, least = total - sum(sides), max(total / 4, 8 * (high - 1))  # 8 px a rank: elbows a line's width apart
    if panel < least:
        need = max(4 / 3 * sum(sides), sum(sides) + 8 * (high - 1)) / PX_PER_CM
        raise SettingsError(f"the models' names need {sum(sides) / PX_PER_CM:.1f} cm beside the rank axis, and "
                            f"{style.describe(width).split(': ', 1)[1]} leaves it {max(panel, 0) / PX_PER_CM:.1f} cm",
                            hint=f"Draw it wider (--width full, or at least --width {math.ceil(need * 10) / 10:g}cm), "
                                 "or draw --kind ranks, whose names stand on one side.")
    centre = sides[0] + panel / 2  # Plotly centres an axis's title on its panel: it may reach either way as far
    title = wrap(axis.split("  "), style, 2 * min(centre, total - centre) - style.text)
    unit = 1.3 * style.text / 0.3  # px per unit of depth: a row of names is a line of text apart
    top = (title.count("<br>") + 2) * style.row + 4  # the rank ticks and the axis's title above the axis
    step = _tick_step(int(high), panel, ems(str(int(high))) * style.tick)
    ticks = [1, *range(step, int(high) + 1, step)] if step > 1 else list(range(1, int(high) + 1))
    return dict(height=top + unit * span + 4, margin=dict(l=sides[0], r=sides[1], t=top, b=4)), ticks, title
