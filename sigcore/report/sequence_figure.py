"""The confidence sequence drawn item by item (:mod:`sigcore.sequential`): its band narrowing as items accrue, the
running δ, the fixed-n interval after all items beside it, and the item from which the sequence decides."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..sequential import CITATION, Sequential

BAND, LINE, FIXED, DECIDED = "rgba(31, 58, 95, 0.18)", "#1f3a5f", "#c0392b", "#2e7d32"


def sequence(s: Sequential, *, height: int = 380) -> go.Figure:
    """The (1 − α) sequence for δ = A − B after 1..n items, δ's running mean, 0 (or −Δ), the fixed-n t interval at
    n, and the first item from which the sequence excludes H0."""
    t = np.arange(1, s.n + 1)
    level = f"{1 - s.alpha:.0%}"
    step = max(1, s.n // 1500)  # a few thousand points draw the same band as a million
    x = t[::step] if t[-1] == t[::step][-1] else np.append(t[::step], t[-1])
    lower, upper, mean = (v[x - 1] for v in (s.lower, s.upper, s.estimate))
    xs, lows, highs, means = (v.tolist() for v in (x, lower, upper, mean))  # lists: a figure's JSON as numbers
    traces = [
        dict(type="scatter", x=xs, y=highs, mode="lines", line=dict(width=0), hoverinfo="skip", showlegend=False),
        dict(type="scatter", x=xs, y=lows, mode="lines", line=dict(width=0), fill="tonexty", fillcolor=BAND,
             name=f"{level} confidence sequence", hovertemplate="item %{x}: δ ≥ %{y:.4f}<extra></extra>"),
        dict(type="scatter", x=xs, y=means, mode="lines", line=dict(color=LINE, width=2), name="δ so far",
             hovertemplate="item %{x}: δ = %{y:.4f}<extra></extra>"),
        dict(type="scatter", x=[s.n, s.n], y=list(s.fixed), mode="lines+markers", name=f"fixed-n {level} interval",
             line=dict(color=FIXED, width=4), marker=dict(size=8, color=FIXED),
             hovertemplate="after all items: %{y:.4f}<extra></extra>"),
    ]
    null = -s.margin
    shapes = [dict(type="line", xref="paper", x0=0, x1=1, yref="y", y0=null, y1=null,
                   line=dict(color="black", width=1.5, dash="dash"))]
    notes = [dict(xref="paper", x=0, xanchor="left", yref="y", y=null, yanchor="bottom", showarrow=False,
                  text="δ = 0" if s.margin == 0 else f"δ = −Δ = −{s.margin:g}", font=dict(size=13))]
    if s.stopped:
        shapes.append(dict(type="line", xref="x", x0=s.stopped, x1=s.stopped, yref="paper", y0=0, y1=1,
                           line=dict(color=DECIDED, width=2)))
        notes.append(dict(xref="x", x=s.stopped, xanchor="left", xshift=4, yref="paper", y=1, yanchor="bottom",
                          showarrow=False, text=f"decided at item {s.stopped:,}", font=dict(size=13, color=DECIDED)))
    later = slice(len(x) // 5, None)  # the first items' band spans the whole range: the axis is for the rest
    spread = float(max(np.max(upper[later]) - np.min(lower[later]), 1e-9)) / 2
    middle = float(mean[-1])
    layout = dict(
        height=height, margin=dict(l=60, r=20, t=70, b=60), plot_bgcolor="white", hovermode="x",
        title=dict(text=f"The {level} confidence sequence for δ, item by item ({CITATION})", font=dict(size=14)),
        xaxis=dict(title=dict(text="items evaluated, in file order"), rangemode="tozero", showgrid=True,
                   gridcolor="#eeeeee"),
        yaxis=dict(title=dict(text="δ = A − B"), range=[min(null, middle - spread) - spread / 4,
                                                                     max(null, middle + spread) + spread / 4],
                   showgrid=True, gridcolor="#eeeeee", zeroline=False),
        legend=dict(orientation="h", y=-0.25, x=0), shapes=shapes, annotations=notes,
    )
    return go.Figure(dict(data=traces, layout=layout))
