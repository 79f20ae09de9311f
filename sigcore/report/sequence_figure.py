"""The confidence sequence drawn item by item (:mod:`sigcore.sequential`): its band narrowing as items accrue, the
running δ, the fixed-n interval after each item beside it (valid only at one n fixed in advance), and the item from
which the sequence decides; and the frames that play it, item by item, on the live chart."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ..sequential import CITATION, Sequential, decimal

__all__ = ["BAND", "LINE", "FIXED", "DECIDED", "sequence", "frames"]

BAND, LINE, FIXED, DECIDED = "rgba(31, 58, 95, 0.18)", "#1f3a5f", "#c0392b", "#2e7d32"


def sequence(s: Sequential, *, height: int = 420) -> go.Figure:
    """The (1 − α) sequence for δ = A − B after 1..n items, δ's running mean, the fixed-n t interval after each item
    and at n, 0 (or −Δ), and the first item from which the sequence excludes H0."""
    x, ys = _points(s)
    level = f"{1 - s.alpha:.0%}"
    null = -s.margin
    low, high = _y_range(s, ys)
    decided = s.stopped is not None
    traces = [
        dict(type="scatter", x=x, y=ys[0], mode="lines", line=dict(width=0), hoverinfo="skip", showlegend=False),
        dict(type="scatter", x=x, y=ys[1], mode="lines", line=dict(width=0), fill="tonexty", fillcolor=BAND,
             name=f"{level} confidence sequence (valid at every n)",
             hovertemplate="item %{x}: δ ≥ %{y:.4f}<extra></extra>"),
        dict(type="scatter", x=x, y=ys[2], mode="lines", line=dict(color=LINE, width=2), name="δ so far",
             hovertemplate="item %{x}: δ = %{y:.4f}<extra></extra>"),
        dict(type="scatter", x=x, y=ys[3], mode="lines", line=dict(color=FIXED, width=1.5, dash="dot"),
             name=f"fixed-n {level} t interval after n items (valid only at an n fixed in advance)",
             hovertemplate="item %{x}: t interval ≤ %{y:.4f}<extra></extra>"),
        dict(type="scatter", x=x, y=ys[4], mode="lines", line=dict(color=FIXED, width=1.5, dash="dot"),
             showlegend=False, hovertemplate="item %{x}: t interval ≥ %{y:.4f}<extra></extra>"),
        dict(type="scatter", x=[s.stopped, s.stopped] if decided else [], y=[low, high] if decided else [],
             mode="lines+text", line=dict(color=DECIDED, width=2),
             text=["", f" decided at item {s.stopped:,}" if decided else ""], textposition="bottom right",
             textfont=dict(size=13, color=DECIDED), hoverinfo="skip", showlegend=False),
        dict(type="scatter", x=[s.n, s.n], y=list(s.fixed), mode="lines+markers", name=f"fixed-n {level} interval",
             line=dict(color=FIXED, width=4), marker=dict(size=8, color=FIXED), showlegend=False,
             hovertemplate="after all items: %{y:.4f}<extra></extra>"),
    ]
    layout = dict(
        height=height, margin=dict(l=60, r=20, t=70, b=60), plot_bgcolor="white", hovermode="x",
        title=dict(text=f"The {level} confidence sequence for δ, item by item ({CITATION})", font=dict(size=14)),
        xaxis=dict(title=dict(text="items evaluated, in file order"), range=[0, s.n * 1.02], showgrid=True,
                   gridcolor="#eeeeee"),
        yaxis=dict(title=dict(text="δ = A − B"), range=[low, high], showgrid=True, gridcolor="#eeeeee",
                   zeroline=False),
        legend=dict(orientation="h", y=-0.22, x=0, traceorder="normal"),
        shapes=[dict(type="line", xref="paper", x0=0, x1=1, yref="y", y0=null, y1=null,
                     line=dict(color="black", width=1.5, dash="dash"))],
        annotations=[dict(xref="paper", x=0, xanchor="left", yref="y", y=null, yanchor="bottom", showarrow=False,
                          text="δ = 0" if s.margin == 0 else f"δ = −Δ = −{s.margin:g}", font=dict(size=13))],
    )
    return go.Figure(dict(data=traces, layout=layout))


def frames(s: Sequential, count: int = 60) -> list[dict]:
    """The sequence played item by item: per frame the growing traces' y up to that many items (a trace is drawn as
    long as the shorter of its x and y), the decided line from the item it decides on, the fixed-n interval at n in
    the last frame only, and a title and counter saying where it stands. The decided item is a frame of its own."""
    x, ys = _points(s)
    low, high = _y_range(s, ys)
    counts = sorted({math.ceil(s.n * j / min(count, s.n)) for j in range(1, min(count, s.n) + 1)} |
                    ({s.stopped} if s.stopped else set()))
    level = f"{1 - s.alpha:.0%}"
    out = []
    for m in counts:
        k = int(np.searchsorted(x, m, side="right"))
        decided = s.stopped is not None and m >= s.stopped
        title = (f"After {m:,} of {s.n:,} items: the {level} sequence δ ∈ [{decimal(s.lower[m - 1])}, "
                 f"{decimal(s.upper[m - 1])}]" + (f", decided at item {s.stopped:,}" if decided else ", not decided"))
        out.append(dict(y=[y[:k] for y in ys] + [[low, high] if decided else [], list(s.fixed) if m == s.n else []],
                        progress=m / s.n, title=title, count=f"item {m:,} of {s.n:,}"))
    return out


def _points(s: Sequential) -> tuple[list[int], list[list[float | None]]]:
    """The items drawn (a few thousand draw the same band as a million, the last always among them) and, at each,
    the sequence's upper and lower ends, δ so far and the fixed-n interval's upper and lower ends; lists, so that a
    figure's JSON holds numbers (NaN as null)."""
    step = max(1, s.n // 1500)
    t = np.arange(1, s.n + 1)
    x = t[::step] if t[::step][-1] == s.n else np.append(t[::step], s.n)
    values = (s.upper, s.lower, s.estimate, s.running[1], s.running[0])
    return x.tolist(), [[None if math.isnan(v) else v for v in y[x - 1].tolist()] for y in values]


def _y_range(s: Sequential, ys: list) -> tuple[float, float]:
    """δ's axis: for the items after the first fifth (the first items' band spans the whole range), with 0 or −Δ."""
    later = slice(len(ys[0]) // 5, None)
    upper, lower = np.array(ys[0][later], dtype=float), np.array(ys[1][later], dtype=float)
    spread = float(max(np.max(upper) - np.min(lower), 1e-9)) / 2
    middle, null = float(s.estimate[-1]), -s.margin
    return min(null, middle - spread) - spread / 4, max(null, middle + spread) + spread / 4
