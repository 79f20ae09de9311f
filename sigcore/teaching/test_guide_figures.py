"""Figures for the "Which test?" page (:mod:`sigcore.teaching.test_guide`), one per simulation, sized for a slide.

Pure functions from a simulation's result to a plain-dict ``go.Figure``: each rate with its Monte-Carlo 95% interval
as an error bar, a dashed line at α where the rates are type I errors, the colours of :mod:`sigcore.report.style`
(vermillion for the test the simulation is about, blue for the one it is set against, grey for a control),
black text, and Unicode labels (no MathJax, which would fetch from the network).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go

from ..report.figures import AXIS, SLIDE_HEIGHT
from ..report.style import BLUE, GREY, VERMILLION
from .test_guide import (
    Clustered,
    ExactPermutation,
    FewPairs,
    HeavyTails,
    Rates,
    SignPower,
    SkewedDifferences,
    SmallSampleZ,
)

__all__ = ["HEIGHT", "TYPE_I", "POWER", "few_discordant_pairs", "exact_permutation", "skewed_differences",
           "small_sample_z", "heavy_tails", "sign_power", "clustered_items", "FIGURES"]

HEIGHT = SLIDE_HEIGHT + 80  # room for a two-line subtitle and the legend under the axis
_LEGEND = dict(orientation="h", x=0, y=-0.3, xanchor="left", yanchor="top")
TYPE_I = "test sets with p ≤ α (type I error)"
POWER = "test sets with p ≤ α (power)"


def few_discordant_pairs(res: FewPairs) -> go.Figure:
    """Type I error against the number of discordant pairs k: the paired bootstrap and McNemar's exact test."""
    boot, exact = res.series
    above = {name: int(np.sum(res.interval(name)[0] > res.alpha)) for name in res.series}
    return _figure(
        res, [_trace(res, boot, VERMILLION), _trace(res, exact, BLUE, dash="dash", symbol="diamond")],
        f"H0 true: the paired bootstrap rejects more often than α at {above[boot]} of the {len(res.x)} values of k, "
        f"McNemar's exact test at {above[exact]}",
        f"{res.sims[boot][0]:,} test sets of {res.n} right/wrong items per k; compare() with b = {res.n_resamples:,}, "
        f"seed 0; one-sided, α = {res.alpha:g}; counted where the whole 95% interval lies above α",
        dict(dtick=5 if len(res.x) > 12 else 1), TYPE_I)


def exact_permutation(res: ExactPermutation) -> go.Figure:
    """Type I error and power against n′, exact (filled) while 2ⁿ′ ≤ b, with the sizes where p cannot reach α."""
    null, power = res.series
    symbols = np.where(res.exact, "circle", "circle-open").tolist()
    fig = _figure(
        res, [_trace(res, null, VERMILLION, symbol=symbols), _trace(res, power, BLUE, symbol=symbols)],
        _permutation_title(res),
        f"{res.sims[null][0]:,} test sets per n′ and hypothesis, every item different; b = {res.n_resamples:,}; "
        f"filled: exact (2ⁿ′ ≤ b), open: {res.n_resamples:,} random swaps; one-sided, α = {res.alpha:g}",
        dict(dtick=1 if res.x.max() <= 16 else None),
        "test sets with p ≤ α", top=1.0)
    blind = res.x[res.floor > res.alpha]
    if blind.size:  # the smallest p, 1 / 2ⁿ′, is above α: no test set can be significant
        fig.add_vrect(x0=res.x.min() - 0.5, x1=blind.max() + 0.5, fillcolor=GREY, opacity=0.35, line_width=0,
                      layer="below", annotation=dict(text="1 / 2ⁿ′ > α: p cannot reach α", font=dict(color="black")),
                      annotation_position="top left")
    return fig


def skewed_differences(res: SkewedDifferences) -> go.Figure:
    """Type I error against n, log scale: the t-test on skewed and on normal differences, the permutation test on
    skewed ones."""
    skewed, normal, permutation = res.series
    rate = res.rate(skewed)
    return _figure(
        res, [_trace(res, skewed, VERMILLION), _trace(res, permutation, BLUE, dash="dash", symbol="diamond"),
              _trace(res, normal, GREY, dash="dot", symbol="square")],
        f"Mean difference 0, skewed d: the t-test says “A is better” for {rate[0]:.0%} of test sets at "
        f"n = {res.x[0]}, {rate[-1]:.1%} at n = {res.x[-1]}",
        f"d = 1 − Exp(1), skewness {_signed(res.skewness)}: A a little ahead on most items, far behind on a few; "
        f"{res.sims[skewed][0]:,} test sets per n ({res.sims[permutation][0]:,} for the permutation test, "
        f"b = {res.n_resamples:,}); one-sided, α = {res.alpha:g}",
        dict(type="log", tickvals=res.x.tolist()), TYPE_I)


def small_sample_z(res: SmallSampleZ) -> go.Figure:
    """Type I error against n, log scale: the z-test, the t-test, and the z-test's exact rate."""
    z, t = res.series
    exact = dict(type="scatter", x=res.x, y=res.exact, mode="lines", name=res.extra["exact"],
                 line=dict(color="black", width=1.5, dash="dot"))
    return _figure(
        res, [_trace(res, z, VERMILLION), _trace(res, t, BLUE, dash="dash", symbol="diamond"), exact],
        f"Normal differences, H0 true: the z-test rejects {res.rate(z)[0]:.1%} at n = {res.x[0]}, "
        f"the t-test {res.rate(t)[0]:.1%}",
        f"{res.sims[z][0]:,} test sets per n, d ∼ N(0, 1); z = t = d̄ / (s_d / √n), read against N(0, 1) or "
        f"t(n − 1); one-sided, α = {res.alpha:g}",
        dict(type="log", tickvals=res.x.tolist()), TYPE_I)


def heavy_tails(res: HeavyTails) -> go.Figure:
    """Power against the share of outlier items: the Wilcoxon signed-rank test and the t-test."""
    wilcoxon, t = res.series
    return _figure(
        res, [_trace(res, wilcoxon, BLUE), _trace(res, t, VERMILLION, dash="dash", symbol="diamond")],
        f"A truly better, {res.x[-1]:.0%} outlier items: Wilcoxon finds it in {res.rate(wilcoxon)[-1]:.0%} of "
        f"test sets, the t-test in {res.rate(t)[-1]:.0%}",
        f"{res.sims[t][0]:,} test sets of {res.n} items per share; d = {res.shift:g} + e, e ∼ N(0, 1), or "
        f"N(0, {res.outlier_sd:g}²) on outlier items; one-sided, α = {res.alpha:g}",
        dict(tickformat=".0%", tickvals=res.x.tolist()),
        POWER, top=1.0)


def sign_power(res: SignPower) -> go.Figure:
    """Power against n: the sign test, Wilcoxon, and the sign test's exact power."""
    sign, wilcoxon = res.series
    exact = dict(type="scatter", x=res.x, y=res.exact, mode="lines", name=res.extra["exact"],
                 line=dict(color="black", width=1.5, dash="dot"))
    i = int(np.argmax(res.rate(wilcoxon) - res.rate(sign)))
    return _figure(
        res, [_trace(res, sign, VERMILLION), _trace(res, wilcoxon, BLUE, dash="dash", symbol="diamond"), exact],
        f"A truly better: at n = {res.x[i]} the sign test finds it in {res.rate(sign)[i]:.0%} of test sets, "
        f"Wilcoxon in {res.rate(wilcoxon)[i]:.0%}",
        f"{res.sims[sign][0]:,} test sets per n, d ∼ N({res.shift:g}, 1); the sign test keeps only who wins each "
        f"item; one-sided, α = {res.alpha:g}",
        dict(tickvals=res.x.tolist()), POWER, top=1.0)


def clustered_items(res: Clustered) -> go.Figure:
    """Type I error against the within-document correlation ρ: McNemar's test and the document-level permutation
    test."""
    mcnemar, permutation = res.series
    return _figure(
        res, [_trace(res, mcnemar, VERMILLION), _trace(res, permutation, BLUE, dash="dash", symbol="diamond")],
        f"H0 true, sentences in documents: at ρ = {res.x[-1]:g} McNemar rejects {res.rate(mcnemar)[-1]:.0%} of "
        f"test sets, swapping whole documents {res.rate(permutation)[-1]:.0%}",
        f"{res.documents} documents of {res.sentences} sentences, A and B differ on {res.discordance:.0%} of them; "
        f"{res.sims[mcnemar][0]:,} test sets per ρ ({res.sims[permutation][0]:,} for the permutation test, "
        f"b = {res.n_resamples:,}); one-sided, α = {res.alpha:g}",
        dict(tickvals=res.x.tolist()), TYPE_I)


FIGURES: dict[str, Callable[..., go.Figure]] = {
    "bootstrap": few_discordant_pairs, "permutation": exact_permutation, "t": skewed_differences,
    "z": small_sample_z, "wilcoxon": heavy_tails, "sign": sign_power, "mcnemar": clustered_items}


def _permutation_title(res: ExactPermutation) -> str:
    null, power = res.series
    blind = res.x[res.floor > res.alpha]
    never = f"; with n′ ≤ {blind.max()} it can never reject" if blind.size else ""
    largest = res.n_resamples.bit_length() - 1  # the largest n′ with 2ⁿ′ ≤ b
    return f"The permutation test keeps α at every n′, exact while 2ⁿ′ ≤ b (n′ ≤ {largest}){never}"


def _signed(x: float) -> str:
    return f"{x:g}".replace("-", "−")  # a minus sign, not a hyphen


def _trace(res: Rates, name: str, colour: str, dash: str = "solid", symbol="circle") -> dict:
    """One series: its rates with their Monte-Carlo 95% intervals as error bars."""
    rate, (low, high) = res.rate(name), res.interval(name)
    return dict(type="scatter", x=res.x, y=rate, mode="lines+markers", name=name,
                line=dict(color=colour, width=3, dash=dash), marker=dict(size=9, color=colour, symbol=symbol),
                error_y=dict(type="data", symmetric=False, array=high - rate, arrayminus=rate - low, color=colour,
                             thickness=1.5, width=4))


def _figure(res: Rates, data: list[dict], title: str, subtitle: str, xaxis: dict, ytitle: str,
            top: float | None = None) -> go.Figure:
    """A slide-sized figure of rates; a dashed line at α when any series is a type I error."""
    highest = max(float(np.max(res.interval(name)[1])) for name in res.series)
    yaxis = dict(title=dict(text=ytitle), tickformat=".0%", rangemode="tozero",
                 range=[0, top * 1.05 if top else 1.15 * max(highest, 2 * res.alpha)])
    shapes, notes = [], []
    if res.null:
        shapes.append(dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=res.alpha, y1=res.alpha,
                           line=dict(color="black", width=2, dash="dash")))
        notes.append(dict(xref="paper", yref="y", x=1, y=res.alpha, text=f"α = {res.alpha:g}", showarrow=False,
                          xanchor="left", xshift=4, font=dict(color="black")))  # in the right margin
    return go.Figure(dict(data=data, layout=dict(
        height=HEIGHT, margin=dict(l=70, r=70, t=100, b=110), plot_bgcolor="white", font=dict(color="black"),
        title=dict(text=f"{title}<br><sup>{_wrap(subtitle)}</sup>", font=dict(color="black")),
        xaxis=dict(AXIS, title=dict(text=res.x_name), **{k: v for k, v in xaxis.items() if v is not None}),
        yaxis=dict(AXIS, **yaxis),
        legend=_LEGEND, shapes=shapes, annotations=notes)))


def _wrap(text: str, width: int = 120) -> str:
    """Long subtitles on two lines (Plotly does not wrap titles), broken after a semicolon."""
    if len(text) <= width or "; " not in text:
        return text
    cut = max((i for i in range(len(text)) if text.startswith("; ", i) and i <= width), default=text.index("; "))
    return f"{text[:cut + 1]}<br>{text[cut + 2:]}"
