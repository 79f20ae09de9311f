"""Figures for the Classroom's common mistakes (:mod:`sigcore.teaching.pitfalls`), one per mistake, sized for a slide.

Pure functions from a simulation's result to a plain-dict ``go.Figure``, with the colours of
:mod:`sigcore.report.figures` and Unicode labels (no MathJax, which would fetch from the network).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..report.figures import AXIS, BODY, MARK, SLIDE_HEIGHT, TAIL
from .pitfalls import ManyComparisons, NotImportant, NotSignificant, OneSided, Peeking, ProbabilityOfH0

_INSIDE = dict(x=0.01, y=0.99, xanchor="left", yanchor="top", bgcolor="rgba(255,255,255,0.8)")
_ABOVE = dict(orientation="h", x=1, y=1.02, xanchor="right", yanchor="bottom")


def many_comparisons(res: ManyComparisons) -> go.Figure:
    """The family-wise error against k: uncorrected, with Holm's correction, and 1 − (1 − α)^k."""
    curves = [(res.uncorrected, "no correction", TAIL, "solid"), (res.holm, "Holm", MARK, "solid"),
              (res.independent, "1 − (1 − α)ᵏ", "black", "dot")]
    data = [dict(type="scatter", x=res.k, y=y, mode="lines" if dash == "dot" else "lines+markers", name=name,
                 line=dict(color=colour, width=3 if dash == "solid" else 2, dash=dash), marker=dict(size=8))
            for y, name, colour, dash in curves]
    top = max(res.uncorrected.max(), res.independent.max(), res.alpha)
    return _figure(
        data, "k systems, none better than the baseline: is one “significant”?",
        f"with k = {res.k[-1]}: {res.uncorrected[-1]:.0%} of experiments without correction, "
        f"{res.holm[-1]:.0%} with Holm's",
        dict(title=dict(text="k, systems each tested against the baseline"), dtick=1),
        dict(title=dict(text="experiments with some p ≤ α"), tickformat=".0%", range=[0, 1.15 * top]),
        [_hline(res.alpha, f"α = {res.alpha:g}", BODY)])


def peeking(res: Peeking) -> go.Figure:
    """One experiment's p after every look, the look where peeking stopped, and α."""
    n, p = res.looks, res.trajectory
    data = [dict(type="scatter", x=n, y=p, mode="lines+markers", name="p after n items",
                 line=dict(color=MARK, width=3), marker=dict(size=7))]
    stop = res.stopped_at[res.example]
    if stop:
        data.append(dict(type="scatter", x=[stop], y=[p[n == stop][0]], mode="markers", name="peeking stops here",
                         marker=dict(size=16, color=TAIL, symbol="x")))
    return _figure(
        data, f"Peeking: a test after every {res.step} items, stop at the first p ≤ α",
        f"H0 is true. “Significant” with peeking: {res.peeking:.0%} of experiments; "
        f"testing once at n = {n[-1]}: {res.once:.0%}",
        dict(title=dict(text="items tested so far, n"), range=[0, 1.02 * n[-1]]),
        dict(title=dict(text="p-value"), range=[0, 1.02]),
        [_hline(res.alpha, f"α = {res.alpha:g}", TAIL)])


def not_significant(res: NotSignificant) -> go.Figure:
    """δ(x) and its interval on each simulated test set, significant ones in red, with 0 and the true δ."""
    return _figure(
        _intervals(res), f"A is truly better by {res.true_delta:.2f}: {res.significant.sum()} of {len(res.delta)} "
                         "test sets say “significant”",
        f"{res.contains(res.true_delta).sum()} of {len(res.delta)} {1 - res.alpha:.0%} intervals contain the true δ, "
        f"{res.contains(0).sum()} contain 0",
        _interval_axis(res), _TEST_SETS,
        [_vline(0, "0: no difference", "black", "dot", "right"),
         _vline(res.true_delta, f"true δ = {res.true_delta:.2f}", TAIL, "dash", "left")], _ABOVE)


def not_important(res: NotImportant) -> go.Figure:
    """δ(x) and its interval on each large test set, with 0 and the smallest difference that matters."""
    fig = _figure(
        _intervals(res), f"{res.significant.sum()} of {len(res.delta)} test sets say “significant” (red), yet A is "
                         f"better by only {100 * res.true_delta:.1f} points",
        f"{res.below_what_matters.sum()} of {len(res.delta)} {1 - res.alpha:.0%} intervals lie wholly below "
        f"{100 * res.matters:.1f} points, the smallest difference that matters",
        _interval_axis(res, tickformat=".1%", range=[-0.2 * res.matters, 1.3 * res.matters]), _TEST_SETS,
        [_vline(0, "0", "black", "dot", "right"), _vline(res.matters, "what matters", MARK, "dash", "left")])
    return fig.update_layout(showlegend=False)


def probability_of_h0(res: ProbabilityOfH0) -> go.Figure:
    """The p-values of all experiments in bins of width α, stacked by the truth: the first bin is p ≤ α."""
    edges = np.linspace(0, 1, round(1 / res.alpha) + 1)
    bins = np.clip(np.searchsorted(edges, res.p_value) - 1, 0, len(edges) - 2)  # (kα, (k+1)α]: p = α is in the first
    data = [dict(type="bar", x=(edges[:-1] + edges[1:]) / 2,
                 y=np.bincount(bins[chosen], minlength=len(edges) - 1).tolist(),
                 width=res.alpha, name=name, marker=dict(color=colour, line=dict(width=0)))
            for chosen, name, colour in ((~res.real, "H0 true: A and B equal", BODY),
                                         (res.real, f"A truly better by {res.true_delta:.0%} points", MARK))]
    h0 = res.h0_among_significant
    fig = _figure(
        data, f"Among the {res.significant.sum()} results with p ≤ α, {h0:.0%} had H0 true",
        f"{res.share_real:.0%} of the {len(res.p_value)} experiments compare a truly better A; α = {res.alpha:g}",
        dict(title=dict(text="p-value of the experiment"), range=[0, 1]),
        dict(title=dict(text="experiments")),
        [_vline(res.alpha, f"α = {res.alpha:g}", TAIL, "dash", "left")], _ABOVE)
    return fig.update_layout(barmode="stack", bargap=0)


def one_sided(res: OneSided) -> go.Figure:
    """How often each choice of H1 calls a null difference significant, with α and 2·α marked."""
    rates = res.rates()
    colours = [TAIL if "after" in side else MARK for side in rates]
    data = [dict(type="bar", x=[side.replace(", ", ",<br>") for side in rates], y=list(rates.values()),
                 marker=dict(color=colours), text=[f"{rate:.0%}" for rate in rates.values()],
                 textposition="outside", cliponaxis=False, showlegend=False)]
    return _figure(
        data, "No true difference: how often is it “significant”?",
        f"{len(res.delta)} test sets where H0 is true, α = {res.alpha:g}",
        dict(title=dict(text="alternative hypothesis H1")),
        dict(title=dict(text="test sets with p ≤ α"), tickformat=".0%",
             range=[0, 1.3 * max(2 * res.alpha, *rates.values())]),
        [_hline(res.alpha, f"α = {res.alpha:g}", "black"), _hline(2 * res.alpha, f"2·α = {2 * res.alpha:g}", TAIL, "dot")])


_TEST_SETS = dict(title=dict(text="simulated test set"), autorange="reversed", showticklabels=False, ticks="")


def _intervals(res: NotSignificant) -> list[dict]:
    """Each test set's δ(x) with its interval, one row each: not significant in blue, significant in red."""
    rows = np.arange(1, len(res.delta) + 1)
    return [dict(type="scatter", x=res.delta[chosen], y=rows[chosen], mode="markers", name=name,
                 marker=dict(size=7, color=colour),
                 error_x=dict(type="data", symmetric=False, array=(res.ci_high - res.delta)[chosen],
                              arrayminus=(res.delta - res.ci_low)[chosen], color=colour, thickness=2, width=0))
            for chosen, name, colour in ((~res.significant, "not significant", MARK),
                                         (res.significant, "significant: p ≤ α", TAIL))]


def _interval_axis(res: NotSignificant, **more) -> dict:
    return dict(title=dict(text=f"δ(x) = accuracy of A − accuracy of B, with its {1 - res.alpha:.0%} interval"),
                zeroline=False, **more)


def _figure(data: list[dict], title: str, subtitle: str, xaxis: dict, yaxis: dict,
            lines: list[tuple[dict, dict]], legend: dict = _INSIDE) -> go.Figure:
    """A slide-sized figure; ``lines`` are (shape, annotation) pairs from :func:`_hline` and :func:`_vline`."""
    return go.Figure(dict(data=data, layout=dict(
        height=SLIDE_HEIGHT, margin=dict(l=60, r=70, t=70, b=55), plot_bgcolor="white",
        title=dict(text=f"{title}<br><sup>{subtitle}</sup>"), xaxis=dict(AXIS, **xaxis),
        yaxis=dict(AXIS, **yaxis), legend=legend,
        shapes=[shape for shape, _ in lines], annotations=[note for _, note in lines])))


def _hline(y: float, text: str, colour: str, dash: str = "dash") -> tuple[dict, dict]:
    return (dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=y, y1=y, line=dict(color=colour, width=2,
                                                                                       dash=dash)),
            dict(xref="paper", yref="y", x=1, y=y, text=text, showarrow=False, xanchor="left", xshift=4,
                 font=dict(color=colour)))  # in the right margin, clear of bars and curves


def _vline(x: float, text: str, colour: str, dash: str, side: str) -> tuple[dict, dict]:
    return (dict(type="line", xref="x", yref="paper", x0=x, x1=x, y0=0, y1=1, line=dict(color=colour, width=2,
                                                                                       dash=dash)),
            dict(xref="x", yref="paper", x=x, y=1, text=text, showarrow=False, xanchor=side, yanchor="bottom",
                 xshift=-4 if side == "right" else 4, font=dict(color=colour)))
