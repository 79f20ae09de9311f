"""Plotly figures of results: pure functions from a Result to a ``go.Figure``, shared by the app and the CLI.

The histogram sends binned counts (bars over fixed bins), not every resampled value, so a figure stays small
whatever b is. Labels use Unicode, not MathJax, which would fetch from the network.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..compare import counted
from .sentence import number, test_name
from ..result import Result

TAIL, BODY, MARK = "#c0392b", "#9aa5b1", "#1f3a5f"
AXIS = dict(showline=True, linecolor="black", ticks="outside")  # every figure's axes
SLIDE_HEIGHT = 340  # pixels of the Classroom's figures
_MAX_BARS = 60


def histogram_edges(values: np.ndarray, marks: tuple[float, ...] = (), *,
                    cover: tuple[float, float] | None = None) -> np.ndarray:
    """Fixed bin edges: one bar per value on a lattice (accuracy on n items), else equal-width bins.

    ``marks`` (delta(x), 2·delta(x)) are kept inside the range so the lines are always on the chart;
    ``cover`` is a range to include as well, for a live chart whose later resamples may fall outside the
    first block's values (see :func:`live_edges`).
    """
    points = np.unique(np.round(np.concatenate([values, marks]), 10))  # float noise is not a new value
    if len(points) == 1 and cover is None:
        return points[0] + np.array([-0.5, 0.5]) * max(abs(points[0]), 1e-3)
    low, high = min(points[0], cover[0]) if cover else points[0], max(points[-1], cover[1]) if cover else points[-1]
    step = np.min(np.diff(points)) if len(points) > 1 else (high - low) / _MAX_BARS
    if (high - low) / step <= _MAX_BARS:  # a lattice: centre a bar on each possible value
        first = points[0] - np.ceil((points[0] - low) / step) * step
        last = points[-1] + np.ceil((high - points[-1]) / step) * step
        return first + (np.arange(int(round((last - first) / step)) + 2) - 0.5) * step
    return np.linspace(low, high, _MAX_BARS + 1)


def live_edges(values: np.ndarray, marks: tuple[float, ...] = ()) -> np.ndarray:
    """Edges for a chart that will keep growing: the first values' mean ± 4 standard deviations, so nearly
    all later resamples fall inside (the rare one beyond is drawn in the end bar) and the axis never moves."""
    centre, spread = float(np.mean(values)), float(np.std(values))
    return histogram_edges(values, marks, cover=(centre - 4 * spread, centre + 4 * spread))


def chart_title(res: Result) -> str:
    return f"{test_name(res)}: {res.p_text}, b = {res.n_resamples:,}"


def histogram_frames(partials: list[Result], edges: np.ndarray) -> list[tuple[list[int], list[int]]]:
    """The bar heights (not counted, counted in p) of :func:`delta_histogram` for each partial result of a
    stream, so that a chart can play the run without rebuilding the figure."""
    return [tuple(heights.tolist() for heights in _bar_heights(res, edges)) for res in partials]


def _bar_heights(res: Result, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Resamples per bin, not counted and counted in p; values past a fixed range pile up at its ends."""
    values, tail = np.clip(res.distribution, edges[0], edges[-1]), counted(res)
    return np.histogram(values[~tail], bins=edges)[0], np.histogram(values[tail], bins=edges)[0]


def delta_histogram(res: Result, *, edges: np.ndarray | None = None, title: str | None = None) -> go.Figure:
    """The distribution of delta(x^(i)) with delta(x), 2·delta(x) and the counted tail marked.

    Built from plain dicts (no template, no add_vline), since a live chart rebuilds it for every frame.
    """
    if res.distribution is None:
        raise ValueError(f"the {res.test} test has no resampled distribution to draw")
    bootstrap = res.test == "bootstrap" and res.compat is None
    if edges is None:
        edges = histogram_edges(res.distribution, (res.delta, res.threshold, 0.0))
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    bars = [dict(type="bar", x=centres, y=heights, width=widths, name=name,
                 marker=dict(color=colour, line=dict(width=0)))
            for heights, name, colour in zip(_bar_heights(res, edges), ("not counted", "counted in p"), (BODY, TAIL))]
    marks = [(res.delta, f"δ(x) = {number(res.delta)}", MARK, "solid", "right")]
    if bootstrap:
        marks.append((res.threshold, f"2·δ(x) = {number(res.threshold)}", "black", "dash", "left"))
    what = "δ(x⁽ⁱ⁾) on bootstrap resamples x⁽ⁱ⁾" if bootstrap else "δ under H0 (A and B swapped per item)"
    layout = dict(
        barmode="stack", bargap=0, height=380, margin=dict(l=60, r=20, t=80, b=60), plot_bgcolor="white",
        title=dict(text=title or chart_title(res)),
        xaxis=dict(title=dict(text=f"{what}  ({res.metric}, A − B)"), range=[edges[0], edges[-1]],
                   **AXIS),
        yaxis=dict(title=dict(text="resamples"), **AXIS,
                   rangemode="tozero"),
        legend=dict(orientation="h", y=1.12, x=1, xanchor="right", yanchor="bottom"),
        **_lines(marks),
    )
    return go.Figure(dict(data=bars, layout=layout))


def _lines(marks: list[tuple], axis: str = "x", *, font: int = 13, rows: bool = False) -> dict:
    """Vertical lines (x, label, colour, dash, side of the label: "left", "right" or "center") across a panel,
    labelled at its top; with ``rows``, each label in a row of its own, so that near lines' labels never meet."""
    row, shift = round(1.4 * font), {"right": -4, "left": 4, "center": 0}
    # "y domain": from the panel's bottom to its top, wherever the panel sits (on a slide, above a table)
    return dict(shapes=[dict(type="line", xref=axis, yref="y domain", x0=x, x1=x, y0=0, y1=1,
                             line=dict(color=colour, width=3, dash=dash)) for x, _, colour, dash, _ in marks],
                annotations=[dict(xref=axis, yref="y domain", x=x, y=1, text=text, showarrow=False, yanchor="bottom",
                                  xanchor=side, xshift=shift[side], yshift=k * row if rows else 0,
                                  font=dict(size=font, color=colour))
                             for k, (x, text, colour, _, side) in enumerate(marks)])


def walkthrough_heights(delta: np.ndarray, counted: np.ndarray, n: int) -> tuple[list[int], list[int]]:
    """Bar heights of :func:`walkthrough_histogram`: test sets per possible value k/n, not counted and counted."""
    k = np.rint(np.asarray(delta) * n).astype(int) + n
    return (np.bincount(k[~counted], minlength=2 * n + 1).tolist(),
            np.bincount(k[counted], minlength=2 * n + 1).tolist())


def walkthrough_histogram(n: int, delta: float, *, shifted: bool = False, font: int = 13,
                          legend: bool = True) -> go.Figure:
    """Figure 4.11's histogram of delta(x^(i)) on n documents, one bar per possible value k/n (heights from
    :func:`walkthrough_heights`, so a live chart can fill them). With ``shifted``, beside it the same bars
    moved by -delta(x): the distribution under H0, centred on 0, where delta(x) itself is the threshold,
    which is why the unshifted test compares delta(x^(i)) with 2·delta(x). ``font`` is the text's size in
    pixels (24 for a lecture hall)."""
    values = np.arange(-n, n + 1) / n
    d, d2 = (f"{v:.2f}".replace("0.", ".", 1).replace("-", "−") for v in (delta, 2 * delta))  # .20, as SLP3
    panels = [(values, "x", [(delta, f"δ(x) = {d}", MARK, "solid", "center"),
                             (2 * delta, f"2·δ(x) = {d2}", "black", "dash", "center")],
               "δ(x⁽ⁱ⁾)" if shifted else "δ(x⁽ⁱ⁾) = A% − B% on x⁽ⁱ⁾")]  # two panels: short titles side by side
    if shifted:
        panels.append((values - delta, "x2", [(0, "H0: 0", MARK, "dot", "center"),
                                              (delta, f"δ(x) = {d}", "black", "dash", "center")],
                       "δ(x⁽ⁱ⁾) − δ(x), centred on H0"))
    # one range for both panels, so the shift is seen as a shift
    span = [min(p[0][0] for p in panels) - 1 / n, max(p[0][-1] for p in panels) + 1 / n]
    data, shapes, annotations, layout = [], [], [], {}
    for i, (x, axis, marks, title) in enumerate(panels):
        data += [dict(type="bar", x=x, y=[0] * len(x), width=1 / n, name=name, xaxis=axis, showlegend=legend and not i,
                      marker=dict(color=colour, line=dict(width=0)))
                 for name, colour in (("not counted", BODY), ("counted in s: δ(x⁽ⁱ⁾) ≥ 2·δ(x)", TAIL))]
        lines = _lines(marks, axis, font=font, rows=True)  # each label over its line, 2·δ(x) above δ(x)
        shapes += lines["shapes"]
        annotations += lines["annotations"]
        layout[f"xaxis{axis[1:]}"] = dict(title=dict(text=title), range=span, anchor="y", **AXIS,
                                          domain=[0, 1] if not shifted else [0.55 * i, 0.45 + 0.55 * i])
    row = round(1.4 * font)
    return go.Figure(dict(data=data, layout=dict(
        barmode="stack", bargap=0, height=380, plot_bgcolor="white", font=dict(size=font),
        margin=dict(l=60, r=20, t=(3 if legend else 2) * row + (12 if legend else 4), b=60),  # legend, two label rows
        yaxis=dict(title=dict(text="test sets x⁽ⁱ⁾"), rangemode="tozero", automargin=True, **AXIS,  # 10,000s fit
                   autorangeoptions=dict(include=[5])),  # whole-number ticks from the first x⁽ⁱ⁾ on
        legend=dict(orientation="h", yref="container", y=1, x=1, xanchor="right", yanchor="top"),
        shapes=shapes, annotations=annotations, **layout)))


def empty_histogram(message: str) -> go.Figure:
    """The chart's frame before the first run (so the page's chart library is loaded before Run is pressed)."""
    return go.Figure(dict(data=[], layout=dict(
        height=380, margin=dict(l=60, r=20, t=80, b=60), plot_bgcolor="white",
        xaxis=dict(visible=False), yaxis=dict(visible=False),
        annotations=[dict(text=message, showarrow=False, xref="paper", yref="paper", x=0.5, y=0.5,
                          font=dict(size=15, color=MARK))])))
