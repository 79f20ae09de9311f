"""Figures for the Classroom's sections beyond SLP3 Figures 4.11/4.12: what a p-value means, power, three tests.

Pure functions from numbers (or Results) to plain-dict ``go.Figure``s sized for slides, with the colours and
Unicode labels of :mod:`sigcore.report.figures`. The p-value histogram shows that under H0 the p of a calibrated test is
uniform (so p ≤ α happens in a share α of test sets); the power curve follows Card et al. (2020), "With Little
Power Comes Great Responsibility"; the three panels put the paired bootstrap (Berg-Kirkpatrick et al. 2012),
approximate randomisation (Noreen 1989) and the paired t-test (Student 1908) side by side on the same data.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import plotly.graph_objects as go
import scipy.stats

from ..compare import counted
from ..report.figures import AXIS, BODY, MARK, SLIDE_HEIGHT, TAIL, histogram_edges
from ..report import TEST_NAMES, number
from ..report.sentence import test_name
from ..result import Result, mc_interval
from .bootstrap import rejection_rate, smallest_n, textbook_number

_BINS = 20
_LAYOUT = dict(height=SLIDE_HEIGHT, margin=dict(l=60, r=20, t=70, b=55), plot_bgcolor="white", bargap=0)
# x ranges of the t density counted in p, per alternative (ties at t itself count, as everywhere in sigcore)
_T_TAILS = {
    "greater": lambda t: [(t, math.inf)],
    "less": lambda t: [(-math.inf, t)],
    "two-sided": lambda t: [(-math.inf, -abs(t)), (abs(t), math.inf)],
}


def p_value_histogram(p_values, alpha: float, *, test: str | None = None) -> go.Figure:
    """p-values of test sets where H0 is true in 20 equal bins, the part below α in red, and the uniform line.

    The bars are stacked so that α need not fall on a bin edge: each bar's red part counts its p ≤ α.
    """
    p = np.asarray(p_values, dtype=float)
    edges = np.linspace(0, 1, _BINS + 1)
    below = p <= alpha
    centres = (edges[:-1] + edges[1:]) / 2
    bars = [dict(type="bar", x=centres, y=np.histogram(p[chosen], bins=edges)[0], width=1 / _BINS, name=name,
                 marker=dict(color=colour, line=dict(width=0.5, color="white")))
            for chosen, name, colour in ((below, "p ≤ α (a false alarm)", TAIL), (~below, "p > α", BODY))]
    flat = len(p) / _BINS
    who = f"{TEST_NAMES[test].capitalize()}, " if test else ""
    layout = dict(
        _LAYOUT, barmode="stack",
        title=dict(text=f"p-values when H0 is true<br><sup>{who}{len(p):,} test sets: "
                        f"{rejection_rate(p, alpha):.1%} have p ≤ α = {alpha:g}</sup>"),
        xaxis=dict(AXIS, title=dict(text="p-value"), range=[0, 1], dtick=0.1),
        yaxis=dict(AXIS, title=dict(text="test sets"), rangemode="tozero"),
        legend=dict(orientation="h", y=1.02, x=1, xanchor="right", yanchor="bottom"),
        shapes=[dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=flat, y1=flat,
                     line=dict(color=MARK, width=2, dash="dash")),
                dict(type="line", xref="x", yref="paper", x0=alpha, x1=alpha, y0=0, y1=1,
                     line=dict(color="black", width=2, dash="dot"))],
        annotations=[dict(xref="paper", yref="y", x=1, y=flat, text=f"uniform: {flat:g} per bar", showarrow=False,
                          xanchor="right", yanchor="bottom", font=dict(color=MARK)),
                     dict(xref="x", yref="paper", x=alpha, y=1, text=f"α = {alpha:g}", showarrow=False,
                          xanchor="left", yanchor="top", xshift=4)],
    )
    return go.Figure(dict(data=bars, layout=layout))


def power_curve(ns, power, *, target: float = 0.8, title: str = "Power: how often a true difference is detected",
                simulated: tuple | None = None, bounds: tuple | None = None, needed: int | None = None,
                name: str = "exact (b → ∞)") -> go.Figure:
    """Power against test-set size n on a log axis, each point labelled, and a dashed line at the usual 80% target.

    ``simulated`` = (share detected, test sets per point) adds the simulation's points with their 95%
    Clopper-Pearson bars beside the exact curve, to show that the two agree. ``bounds`` = (low, high): each
    point's own Monte-Carlo interval, drawn as its bar; ``needed``: the size that reaches the target, found
    between the points (:func:`sigcore.power.plan`), said in the subtitle.
    """
    ns, power = np.asarray(ns), np.asarray(power, dtype=float)
    enough = smallest_n(ns, power, target)
    curve = dict(type="scatter", x=ns, y=power, mode="lines+markers+text", name=name,
                 text=[f"{p * 100:.3g}%" for p in power], textposition="top left", cliponaxis=False,
                 line=dict(color=MARK, width=2),
                 marker=dict(size=9, color=[MARK if p >= target else BODY for p in power]))
    if bounds is not None:
        low, high = (np.asarray(v, dtype=float) for v in bounds)
        curve["error_y"] = dict(type="data", symmetric=False, array=high - power, arrayminus=power - low,
                                color=MARK, thickness=1.5, width=3)
    data = [curve]
    if simulated is not None:
        share, n_sims = np.asarray(simulated[0], dtype=float), simulated[1]
        low, high = np.array([mc_interval(int(round(s * n_sims)), n_sims) for s in share]).T
        data.append(dict(type="scatter", x=ns * 1.06, y=share, mode="markers", name=f"simulated ({n_sims} test sets, "
                         "95% interval)", marker=dict(size=7, color=TAIL, symbol="diamond"),
                         error_y=dict(type="data", symmetric=False, array=high - share, arrayminus=share - low,
                                      color=TAIL, thickness=1.5, width=3)))
    verdict = (f"{target:.0%} power needs n = {needed:,}" if needed is not None else
               f"n = {enough:,} is the smallest here with {target:.0%} power" if enough is not None
               else f"no n here reaches {target:.0%} power")
    layout = dict(
        _LAYOUT, showlegend=simulated is not None,
        legend=dict(x=0.99, y=0.02, xanchor="right", yanchor="bottom", bgcolor="rgba(255,255,255,0.8)"),
        title=dict(text=f"{title}<br><sup>{verdict}</sup>"),
        xaxis=dict(AXIS, type="log", title=dict(text="test-set size n (items, log scale)"),
                   tickvals=ns, ticktext=[f"{n:,}" for n in ns]),
        yaxis=dict(AXIS, title=dict(text="power: share with p ≤ α"), range=[0, 1.08], tickformat=".0%"),
        shapes=[dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=target, y1=target,
                     line=dict(color=TAIL, width=2, dash="dash"))],
        annotations=[dict(xref="paper", yref="y", x=0.01, y=target, text=f"{target:.0%}: the usual target",
                          showarrow=False, xanchor="left", yanchor="bottom", font=dict(color=TAIL))],
    )
    return go.Figure(dict(data=data, layout=layout))


def three_tests(bootstrap: Result, permutation: Result, t: Result) -> go.Figure:
    """The paired bootstrap, approximate randomisation and paired t-test of the same data, side by side.

    Each panel shows what its p counts: δ(x⁽ⁱ⁾) ≥ 2·δ(x) among bootstrap resamples, δ ≥ δ(x) among
    permutations under H0, and the area of Student's t with n − 1 degrees of freedom beyond the observed t.
    """
    if (bootstrap.test, permutation.test, t.test) != ("bootstrap", "permutation", "t"):
        raise ValueError("three_tests needs a bootstrap, a permutation and a t result, in that order")
    panels = [_resampled_panel(bootstrap, 1, "δ(x⁽ⁱ⁾), resampled x⁽ⁱ⁾", "resamples"),
              _resampled_panel(permutation, 2, "δ, A ⇄ B per item (H0)", "permutations"),
              _t_panel(t, 3)]
    layout = dict(_LAYOUT, barmode="stack", showlegend=False, margin=dict(l=55, r=15, t=75, b=55),
                  shapes=[], annotations=[])
    data = []
    for k, (traces, axes, shapes, notes) in enumerate(panels, start=1):
        data += traces
        low, high = (k - 1) / 3 + 0.05 * (k > 1), k / 3 - 0.05 * (k < 3)
        layout[f"xaxis{_ref(k)}"] = dict(axes[0], domain=[low, high], anchor=f"y{_ref(k)}")
        layout[f"yaxis{_ref(k)}"] = dict(axes[1], anchor=f"x{_ref(k)}")
        layout["shapes"] += shapes
        layout["annotations"] += notes
    return go.Figure(dict(data=data, layout=layout))


def _ref(k: int) -> str:
    """Plotly's suffix of panel k's axes: x, x2, x3."""
    return str(k) if k > 1 else ""


def _panel_title(res: Result, k: int) -> dict:
    name = test_name(res)
    return dict(xref=f"x{_ref(k)} domain", yref="paper", x=0.5, y=1.02, yanchor="bottom",
                text=f"<b>{name.capitalize()}</b><br>{p_text(res)}", showarrow=False, font=dict(size=14))


def p_text(res: Result) -> str:
    """p as the panel and the table write it; an exact permutation test's as the fraction of swaps it counts
    (p = 11/32 = 0.3438 on SLP3's ten documents), as the walk-through says it."""
    share = Fraction(res.p_value).limit_denominator(2 ** 24)
    if res.test != "permutation" or not res.exact or share.denominator == 1 or not res.p_text.startswith("p = "):
        return res.p_text
    return f"p = {share.numerator}/{share.denominator} = {res.p_text.removeprefix('p = ')}"


def _mark(x: float, text: str, colour: str, dash: str, k: int, side: str) -> tuple[dict, dict]:
    ref = f"x{_ref(k)}"
    return (dict(type="line", xref=ref, yref="paper", x0=x, x1=x, y0=0, y1=1, line=dict(color=colour, width=2.5,
                                                                                       dash=dash)),
            dict(xref=ref, yref="paper", x=x, y=1, text=text, showarrow=False, yanchor="top", xanchor=side,
                 xshift=-2 if side == "right" else 2, font=dict(size=12, color=colour),
                 bgcolor="rgba(255, 255, 255, 0.85)"))  # level, on white: read over the bars, not tilted


def _resampled_panel(res: Result, k: int, what: str, unit: str):
    """Bars of the resampled δ (the ones p counts in red), δ(x) and, for the bootstrap, 2·δ(x)."""
    bootstrap = res.test == "bootstrap"
    edges = histogram_edges(res.distribution, (res.delta, res.threshold, 0.0))
    centres, widths, tail = (edges[:-1] + edges[1:]) / 2, np.diff(edges), counted(res)
    ref = _ref(k)
    bars = [dict(type="bar", x=centres, y=np.histogram(res.distribution[chosen], bins=edges)[0], width=widths,
                 name=name, marker=dict(color=colour, line=dict(width=0)), xaxis=f"x{ref}", yaxis=f"y{ref}")
            for chosen, name, colour in ((~tail, "not counted", BODY), (tail, "counted in p", TAIL))]
    marks = [_mark(res.delta, f"δ(x) = {textbook_number(res.delta)}", MARK, "solid", k, "right")]
    if bootstrap:
        marks.append(_mark(res.threshold, f"2·δ(x) = {textbook_number(res.threshold)}", "black", "dash", k, "left"))
    pad = 0.05 * (edges[-1] - edges[0])  # a line on the last edge stays off the axis
    axes = (dict(AXIS, title=dict(text=what), range=[edges[0] - pad, edges[-1] + pad]),
            dict(AXIS, title=dict(text=unit), rangemode="tozero"))
    return bars, axes, [s for s, _ in marks], [_panel_title(res, k)] + [a for _, a in marks]


def _t_panel(res: Result, k: int):
    """Student's t density with n − 1 degrees of freedom, the observed t, and the tail area that is p."""
    df, stat = res.n_items - 1, res.statistic
    reach = max(4.0, 1.2 * abs(stat)) if math.isfinite(stat) else 4.0
    x = np.linspace(-reach, reach, 401)
    density = dict(type="scatter", x=x, y=scipy.stats.t.pdf(x, df), mode="lines", name=f"t, {df} df",
                   line=dict(color=MARK, width=2), xaxis=f"x{_ref(k)}", yaxis=f"y{_ref(k)}")
    tails = []
    if not math.isnan(stat):
        for low, high in _T_TAILS[res.alternative](stat):
            inside = x[(x >= low) & (x <= high)]
            inside = np.unique(np.clip(np.r_[low, inside, high], -reach, reach))  # the tail starts exactly at t
            if len(inside) > 1:
                tails.append(dict(type="scatter", x=inside, y=scipy.stats.t.pdf(inside, df), mode="lines",
                                  fill="tozeroy", fillcolor=TAIL, line=dict(color=TAIL, width=1),
                                  name="tail area = p", xaxis=f"x{_ref(k)}", yaxis=f"y{_ref(k)}"))
    if math.isfinite(stat):
        shape, note = _mark(stat, f"t = {number(stat)}", "black", "dash", k, "left" if stat < 0 else "right")
        shapes = [shape]
    else:  # no spread in the differences (t = ±∞) or no t at all: say so instead of drawing a line
        label = "t undefined" if math.isnan(stat) else f"t = {'−' * (stat < 0)}∞: no spread in the differences"
        shapes, note = [], dict(xref=f"x{_ref(k)} domain", yref="paper", x=1, y=0.98, xanchor="right",
                                text=label, showarrow=False, font=dict(size=12))
    axes = (dict(AXIS, title=dict(text=f"t under H0, {df} df"), range=[-reach, reach]),
            dict(AXIS, title=dict(text="density"), rangemode="tozero"))
    return [density] + tails, axes, shapes, [_panel_title(res, k), note]
