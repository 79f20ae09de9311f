"""Figures for the Classroom's common mistakes (:mod:`sigcore.teaching.pitfalls`), one per mistake, sized for a slide.

Pure functions from a simulation's result to a plain-dict ``go.Figure``, with the colours of
:mod:`sigcore.report.figures` and Unicode labels (no MathJax, which would fetch from the network), in the current
language (:mod:`sigcore.i18n`); with ``font`` (24 for presenter mode) every text at that size
(:func:`sigcore.teaching.lesson_figures.at_size`).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..i18n import _
from ..report.figures import AXIS, BODY, MARK, SLIDE_HEIGHT, TAIL
from .lesson_figures import at_size, titled
from .pitfalls import CHOSEN_AFTER, ManyComparisons, NotImportant, NotSignificant, OneSided, Peeking, ProbabilityOfH0

__all__ = ["many_comparisons", "peeking", "not_significant", "not_important", "probability_of_h0", "one_sided"]

_INSIDE = dict(x=0.01, y=0.99, xanchor="left", yanchor="top", bgcolor="rgba(255,255,255,0.8)")
_ABOVE = dict(orientation="h", x=1, y=1.02, xanchor="right", yanchor="bottom")
_INSIDE_RIGHT = dict(x=0.99, y=0.99, xanchor="right", yanchor="top", bgcolor="rgba(255,255,255,0.8)")


def many_comparisons(res: ManyComparisons, *, font: int | None = None) -> go.Figure:
    """The family-wise error against k: uncorrected, with Holm's correction, and 1 − (1 − α)^k."""
    curves = [(res.uncorrected, _("no correction"), TAIL, "solid"), (res.holm, _("Holm"), MARK, "solid"),
              (res.independent, "1 − (1 − α)ᵏ", "black", "dot")]
    data = [dict(type="scatter", x=res.k, y=y, mode="lines" if dash == "dot" else "lines+markers", name=name,
                 line=dict(color=colour, width=3 if dash == "solid" else 2, dash=dash), marker=dict(size=8))
            for y, name, colour, dash in curves]
    top = max(res.uncorrected.max(), res.independent.max(), res.alpha)
    return _figure(
        data, _("k systems, none better than the baseline: is one “significant”?"),
        _("with k = {k}: {uncorrected} of experiments without correction, {holm} with Holm's").format(
            k=res.k[-1], uncorrected=f"{res.uncorrected[-1]:.0%}", holm=f"{res.holm[-1]:.0%}"),
        dict(title=dict(text=_("k, systems each tested against the baseline")), dtick=1 if font is None else 2),
        dict(title=dict(text=_("experiments with some p ≤ α")), tickformat=".0%", range=[0, 1.15 * top]),
        [_hline(res.alpha, f"α = {res.alpha:g}", BODY)], font=font)


def peeking(res: Peeking, *, font: int | None = None) -> go.Figure:
    """One experiment's p after every look, the look where peeking stopped, and α."""
    n, p = res.looks, res.trajectory
    data = [dict(type="scatter", x=n, y=p, mode="lines+markers", name=_("p after n items"),
                 line=dict(color=MARK, width=3), marker=dict(size=7))]
    stop = res.stopped_at[res.example]
    if stop:
        data.append(dict(type="scatter", x=[stop], y=[p[n == stop][0]], mode="markers", name=_("peeking stops here"),
                         marker=dict(size=16, color=TAIL, symbol="x")))
    return _figure(
        data, _("Peeking: a test after every {step} items, stop at the first p ≤ α").format(step=res.step),
        _("H0 is true. “Significant” with peeking: {peeking} of experiments; testing once at n = {n}: {once}").format(
            peeking=f"{res.peeking:.0%}", n=n[-1], once=f"{res.once:.0%}"),
        dict(title=dict(text=_("items tested so far, n")), range=[0, 1.02 * n[-1]]),
        dict(title=dict(text=_("p-value")), range=[0, 1.02]),
        [_hline(res.alpha, f"α = {res.alpha:g}", TAIL)], font=font)


def not_significant(res: NotSignificant, *, font: int | None = None) -> go.Figure:
    """δ(x) and its interval on each simulated test set, significant ones in red, with 0 and the true δ."""
    return _figure(
        _intervals(res, font),
        _("A is truly better by {delta}: {significant} of {n} test sets say “significant”").format(
            delta=f"{res.true_delta:.2f}", significant=res.significant.sum(), n=len(res.delta)),
        _("{covering} of {n} {level} intervals contain the true δ, {zero} contain 0").format(
            covering=res.contains(res.true_delta).sum(), n=len(res.delta), level=f"{1 - res.alpha:.0%}",
            zero=res.contains(0).sum()),
        _interval_axis(res), _test_sets(),
        [_vline(0, _("0: no difference"), "black", "dot", "right"),
         _vline(res.true_delta, _("true δ = {delta}").format(delta=f"{res.true_delta:.2f}"), TAIL, "dash", "left")],
        _ABOVE, font=font)


def not_important(res: NotImportant, *, font: int | None = None) -> go.Figure:
    """δ(x) and its interval on each large test set, with 0 and the smallest difference that matters."""
    fig = _figure(
        _intervals(res, font), _("{significant} of {n} test sets say “significant” (red), yet A is better by only "
                                 "{delta} points").format(significant=res.significant.sum(), n=len(res.delta),
                                                          delta=f"{100 * res.true_delta:.1f}"),
        _("{below} of {n} {level} intervals lie wholly below {matters} points, the smallest difference that "
          "matters").format(below=res.below_what_matters.sum(), n=len(res.delta), level=f"{1 - res.alpha:.0%}",
                            matters=f"{100 * res.matters:.1f}"),
        _interval_axis(res, tickformat=".1%", range=[-0.2 * res.matters, 1.3 * res.matters]), _test_sets(),
        [_vline(0, "0", "black", "dot", "right"), _vline(res.matters, _("what matters"), MARK, "dash", "left")],
        font=font)
    return fig.update_layout(showlegend=False)


def probability_of_h0(res: ProbabilityOfH0, *, font: int | None = None) -> go.Figure:
    """The p-values of all experiments in bins of width α, stacked by the truth: the first bin is p ≤ α."""
    edges = np.linspace(0, 1, round(1 / res.alpha) + 1)
    bins = np.clip(np.searchsorted(edges, res.p_value) - 1, 0, len(edges) - 2)  # (kα, (k+1)α]: p = α is in the first
    data = [dict(type="bar", x=(edges[:-1] + edges[1:]) / 2,
                 y=np.bincount(bins[chosen], minlength=len(edges) - 1).tolist(),
                 width=res.alpha, name=name, marker=dict(color=colour, line=dict(width=0)))
            for chosen, name, colour in ((~res.real, _("H0 true: A and B equal"), BODY),
                                         (res.real, _("A truly better by {delta} points").format(
                                             delta=f"{100 * res.true_delta:g}"), MARK))]
    h0 = res.h0_among_significant
    fig = _figure(
        data, _("Among the {significant} results with p ≤ α, {h0} had H0 true").format(
            significant=res.significant.sum(), h0=f"{h0:.0%}"),
        _("{share} of the {n} experiments compare a truly better A; α = {alpha}").format(
            share=f"{res.share_real:.0%}", n=f"{len(res.p_value):,}", alpha=f"{res.alpha:g}"),
        dict(title=dict(text=_("p-value of the experiment")), range=[0, 1]),
        dict(title=dict(text=_("experiments"))),
        [_vline(res.alpha, f"α = {res.alpha:g}", TAIL, "dash", "left")], _ABOVE, font=font,
        presenter_legend=_INSIDE_RIGHT)  # clear of the first bar, p ≤ α
    return fig.update_layout(barmode="stack", bargap=0)


def one_sided(res: OneSided, *, font: int | None = None) -> go.Figure:
    """How often each choice of H1 calls a null difference significant, with α and 2·α marked."""
    rates = res.rates()
    colours = [TAIL if side == CHOSEN_AFTER else MARK for side in rates]
    data = [dict(type="bar", x=[_(side).replace(", ", ",<br>").replace("，", "，<br>") for side in rates],
                 y=list(rates.values()), marker=dict(color=colours), text=[f"{rate:.0%}" for rate in rates.values()],
                 textposition="outside", cliponaxis=False, showlegend=False)]
    return _figure(
        data, _("No true difference: how often is it “significant”?"),
        _("{n} test sets where H0 is true, α = {alpha}").format(n=len(res.delta), alpha=f"{res.alpha:g}"),
        dict(title=dict(text=_("alternative hypothesis H1"))),
        dict(title=dict(text=_("test sets with p ≤ α")), tickformat=".0%",
             range=[0, 1.3 * max(2 * res.alpha, *rates.values())]),
        [_hline(res.alpha, f"α = {res.alpha:g}", "black"),
         _hline(2 * res.alpha, f"2·α = {2 * res.alpha:g}", TAIL, "dot")], font=font)


def _test_sets() -> dict:
    return dict(title=dict(text=_("simulated test set")), autorange="reversed", showticklabels=False, ticks="")


def _intervals(res: NotSignificant, font: int | None = None) -> list[dict]:
    """Each test set's δ(x) with its interval, one row each: not significant in blue, significant in red."""
    rows = np.arange(1, len(res.delta) + 1)
    return [dict(type="scatter", x=res.delta[chosen], y=rows[chosen], mode="markers", name=name,
                 marker=dict(size=7 if font is None else 10, color=colour),
                 error_x=dict(type="data", symmetric=False, array=(res.ci_high - res.delta)[chosen],
                              arrayminus=(res.delta - res.ci_low)[chosen], color=colour, thickness=2, width=0))
            for chosen, name, colour in ((~res.significant, _("not significant"), MARK),
                                         (res.significant, _("significant: p ≤ α"), TAIL))]


def _interval_axis(res: NotSignificant, **more) -> dict:
    return dict(title=dict(text=_("δ(x) = accuracy of A − accuracy of B, with its {level} interval").format(
        level=f"{1 - res.alpha:.0%}")), zeroline=False, **more)


def _figure(data: list[dict], title: str, subtitle: str, xaxis: dict, yaxis: dict,
            lines: list[tuple[dict, dict]], legend: dict = _INSIDE, *, font: int | None = None,
            presenter_legend: dict = _INSIDE) -> go.Figure:
    """A slide-sized figure; ``lines`` are (shape, annotation) pairs from :func:`_hline` and :func:`_vline`.
    With ``font``, every text at that size, the legend inside the plot (above it, it would meet the labels of the
    lines at 24 px) and the margins wide enough for the lines' labels."""
    fig = go.Figure(dict(data=data, layout=dict(
        height=SLIDE_HEIGHT, margin=dict(l=60, r=70, t=70, b=55), plot_bgcolor="white",
        title=titled(title, subtitle, font), xaxis=dict(AXIS, **xaxis),
        yaxis=dict(AXIS, **yaxis), legend=legend if font is None else presenter_legend,
        shapes=[shape for shape, _note in lines], annotations=[note for _shape, note in lines])))
    if font is None:
        return fig
    right = max((len(note["text"]) for _shape, note in lines if note["xref"] == "paper"), default=0)
    above = any(note["yref"] == "paper" for _shape, note in lines)  # labels of vertical lines, under the title
    return at_size(fig, font, l=100, r=max(30, round(0.62 * font * right) + 12),
                   t=round((5.4 if above else 3.6) * font), b=80)  # two title lines, and the labels' row under them


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
