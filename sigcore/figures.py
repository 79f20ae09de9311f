"""Plotly figures of results: pure functions from a Result to a ``go.Figure``, shared by the app and the CLI.

The histogram sends binned counts (bars over fixed bins), not every resampled value, so a figure stays small
whatever b is. Labels use Unicode, not MathJax, which would fetch from the network.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .compare import counted
from .report import TEST_NAMES, number
from .result import Result

TAIL, BODY, MARK = "#c0392b", "#9aa5b1", "#1f3a5f"
_MAX_BARS = 60


def histogram_edges(values: np.ndarray, marks: tuple[float, ...] = (), *, pad: float = 0.0) -> np.ndarray:
    """Fixed bin edges: one bar per value on a lattice (accuracy on n items), else equal-width bins.

    ``marks`` (delta(x), 2·delta(x)) are kept inside the range so the lines are always on the chart;
    ``pad`` widens the range by that share of it on each side, for a live chart whose later resamples
    may fall outside the first block's range.
    """
    points = np.unique(np.round(np.concatenate([values, marks]), 10))  # float noise is not a new value
    if len(points) == 1:
        return points[0] + np.array([-0.5, 0.5]) * max(abs(points[0]), 1e-3)
    step = np.min(np.diff(points))
    low, high = points[0] - pad * (points[-1] - points[0]), points[-1] + pad * (points[-1] - points[0])
    if (points[-1] - points[0]) / step <= _MAX_BARS:  # a lattice: centre a bar on each possible value
        first = points[0] - np.ceil((points[0] - low) / step) * step
        last = points[-1] + np.ceil((high - points[-1]) / step) * step
        return first + (np.arange(int(round((last - first) / step)) + 2) - 0.5) * step
    return np.linspace(low, high, _MAX_BARS + 1)


def delta_histogram(res: Result, *, edges: np.ndarray | None = None, title: str | None = None) -> go.Figure:
    """The distribution of delta(x^(i)) with delta(x), 2·delta(x) and the counted tail marked."""
    if res.distribution is None:
        raise ValueError(f"the {res.test} test has no resampled distribution to draw")
    bootstrap = res.test == "bootstrap" and res.compat is None
    if edges is None:
        edges = histogram_edges(res.distribution, (res.delta, res.threshold, 0.0))
    values = np.clip(res.distribution, edges[0], edges[-1])  # values past a fixed range pile up at its ends
    tail = counted(res)
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    fig = go.Figure()
    for name, mask, colour in (("not counted", ~tail, BODY), ("counted in p", tail, TAIL)):
        counts, _ = np.histogram(values[mask], bins=edges)
        fig.add_bar(x=centres, y=counts, width=widths, name=name, marker_color=colour, marker_line_width=0)
    label = dict(size=13, color=MARK)
    fig.add_vline(x=res.delta, line_color=MARK, line_width=3, annotation_text=f"δ(x) = {number(res.delta)}",
                  annotation_position="top left", annotation_font=label)
    if bootstrap:
        fig.add_vline(x=res.threshold, line_color="black", line_dash="dash", line_width=3,
                      annotation_text=f"2·δ(x) = {number(res.threshold)}", annotation_position="top right",
                      annotation_font=label | dict(color="black"))
    what = "δ(x⁽ⁱ⁾) on bootstrap resamples x⁽ⁱ⁾" if bootstrap else "δ under H0 (A and B swapped per item)"
    fig.update_layout(
        barmode="stack", bargap=0, template="simple_white", height=380, margin=dict(l=60, r=20, t=70, b=60),
        title=title or f"{TEST_NAMES[res.test]}: {res.p_text}, b = {res.n_resamples:,}",
        xaxis_title=f"{what}  ({res.metric}, A − B)", yaxis_title="resamples",
        xaxis_range=[edges[0], edges[-1]], legend=dict(orientation="h", y=1.02, x=1, xanchor="right",
                                                       yanchor="bottom"),
    )
    return fig
