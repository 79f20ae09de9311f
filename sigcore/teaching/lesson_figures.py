"""Figures for the Classroom's sections beyond SLP3 Figures 4.11/4.12: what a p-value means, power, three tests.

Pure functions from numbers (or Results) to plain-dict ``go.Figure``s sized for slides, with the colours and
Unicode labels of :mod:`sigcore.report.figures`, in the current language (:mod:`sigcore.i18n`); with ``font`` (24 for
presenter mode) every text is set that large explicitly (Streamlit's theme shrinks what a figure leaves to its
defaults), subtitles are not shrunk by ``<sup>``, and the height is left to the page. The p-value histogram shows
that under H0 the p of a calibrated test is uniform (so p ≤ α happens in a share α of test sets); the power curve
follows Card et al. (2020), "With Little Power Comes Great Responsibility"; the three panels put the paired bootstrap
(Berg-Kirkpatrick et al. 2012), approximate randomisation (Noreen 1989) and the paired t-test (Student 1908) side by
side on the same data.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import plotly.graph_objects as go
import scipy.stats

from ..comparison import counted
from ..i18n import N_, _
from ..report import TEST_NAMES, number
from ..report.figures import AXIS, BODY, MARK, SLIDE_HEIGHT, TAIL, histogram_edges
from ..report.sentence import test_name
from ..result import Result, mc_interval
from ..statistics.discordant import smallest_n
from .bootstrap import rejection_rate, textbook_number

__all__ = ["PRESENTER_FONT", "titled", "at_size", "p_value_histogram", "power_curve", "three_tests", "TEST_TITLES",
           "shown_test_name", "p_fraction", "counted_values"]

_BINS = 20
PRESENTER_FONT = 24  # pixels: read from the back of a lecture hall (the walk-through's presenter size)
_LAYOUT = dict(height=SLIDE_HEIGHT, margin=dict(l=60, r=20, t=70, b=55), plot_bgcolor="white", bargap=0)
# x ranges of the t density counted in p, per side of δ H1 names (ties at t itself count, as everywhere in sigcore)
_T_TAILS = {
    "greater": lambda t: [(t, math.inf)],
    "less": lambda t: [(-math.inf, t)],
    "two-sided": lambda t: [(-math.inf, -abs(t)), (abs(t), math.inf)],
}


def titled(title: str, subtitle: str, font: int | None = None) -> dict:
    """A figure's title with its subtitle: below it in small type on the page, at full size (``font``) for a
    lecture hall, where a ``<sup>`` subtitle would be 70% of 24 px. Plotly centres it in the top margin."""
    if font is None:
        return dict(text=f"{title}<br><sup>{subtitle}</sup>")
    return dict(text=f"{title}<br>{subtitle}", font=dict(size=font), x=0.01, xanchor="left")


def at_size(fig: go.Figure, font: int, **margin: int) -> go.Figure:
    """Every text of ``fig`` (title, ticks, axis titles, legend, annotations, traces' texts) at least ``font`` px,
    each set explicitly; no fixed height, so the page gives the figure the screen's spare height; ``margin`` as
    given."""
    fig.update_layout(font=dict(size=font), title_font_size=max(fig.layout.title.font.size or 0, font),
                      legend_font_size=font, hoverlabel_font_size=font, height=None, margin=margin or None)
    fig.update_xaxes(tickfont_size=font, title_font_size=font)
    fig.update_yaxes(tickfont_size=font, title_font_size=font)
    for note in fig.layout.annotations:
        note.font.size = max(note.font.size or 0, font)
    for trace in fig.data:
        if "textfont" in trace:
            trace.textfont.size = max(trace.textfont.size or 0, font)
    return fig


def p_value_histogram(p_values, alpha: float, *, test: str | None = None, font: int | None = None) -> go.Figure:
    """p-values of test sets where H0 is true in 20 equal bins, the part below α in red, and the uniform line.

    The bars are stacked so that α need not fall on a bin edge: each bar's red part counts its p ≤ α.
    """
    p = np.asarray(p_values, dtype=float)
    edges = np.linspace(0, 1, _BINS + 1)
    below = p <= alpha
    centres = (edges[:-1] + edges[1:]) / 2
    bars = [dict(type="bar", x=centres, y=np.histogram(p[chosen], bins=edges)[0], width=1 / _BINS, name=name,
                 marker=dict(color=colour, line=dict(width=0.5, color="white")))
            for chosen, name, colour in ((below, _("p ≤ α (a false alarm)"), TAIL), (~below, _("p > α"), BODY))]
    flat = len(p) / _BINS
    share = f"{rejection_rate(p, alpha):.1%}"
    subtitle = (_("{test}, {n} test sets: {share} have p ≤ α = {alpha}").format(
        test=shown_test_name(TEST_NAMES[test]), n=f"{len(p):,}", share=share, alpha=f"{alpha:g}") if test else
        _("{n} test sets: {share} have p ≤ α = {alpha}").format(n=f"{len(p):,}", share=share, alpha=f"{alpha:g}"))
    layout = dict(
        _LAYOUT, barmode="stack",
        title=titled(_("p-values when H0 is true"), subtitle, font),
        xaxis=dict(AXIS, title=dict(text=_("p-value")), range=[0, 1], dtick=0.1 if font is None else 0.2),
        yaxis=dict(AXIS, title=dict(text=_("test sets")), rangemode="tozero"),
        legend=dict(orientation="h", y=1.02, x=1, xanchor="right", yanchor="bottom"),
        shapes=[dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=flat, y1=flat,
                     line=dict(color=MARK, width=2, dash="dash")),
                dict(type="line", xref="x", yref="paper", x0=alpha, x1=alpha, y0=0, y1=1,
                     line=dict(color="black", width=2, dash="dot"))],
        annotations=[dict(xref="paper", yref="y", x=1, y=flat, text=_("uniform: {count} per bar").format(
                              count=f"{flat:g}"), showarrow=False, xanchor="right", yanchor="bottom",
                          font=dict(color=MARK), bgcolor="rgba(255,255,255,0.8)"),
                     dict(xref="x", yref="paper", x=alpha, y=1, text=f"α = {alpha:g}", showarrow=False,
                          xanchor="left", yanchor="top", xshift=4, bgcolor="rgba(255,255,255,0.8)")],
    )
    fig = go.Figure(dict(data=bars, layout=layout))
    return fig if font is None else at_size(fig, font, l=90, r=20, t=100, b=80)


def power_curve(ns, power, *, target: float = 0.8, title: str | None = None, simulated: tuple | None = None,
                bounds: tuple | None = None, needed: int | None = None, name: str | None = None,
                font: int | None = None) -> go.Figure:
    """Power against test-set size n on a log axis, each point labelled, and a dashed line at the usual 80% target.

    ``simulated`` = (share detected, test sets per point) adds the simulation's points with their 95%
    Clopper-Pearson bars beside the exact curve, to show that the two agree. ``bounds`` = (low, high): each
    point's own Monte-Carlo interval, drawn as its bar; ``needed``: the size that reaches the target, found
    between the points (:func:`sigcore.power.plan`), said in the subtitle.
    """
    ns, power = np.asarray(ns), np.asarray(power, dtype=float)
    enough = smallest_n(ns, power, target)
    title = _("Power: how often a true difference is detected") if title is None else title
    curve = dict(type="scatter", x=ns, y=power, mode="lines+markers+text",
                 name=_("exact (b → ∞)") if name is None else name,
                 text=[f"{p * 100:.3g}%" for p in power], cliponaxis=False,
                 textposition=["top center"] + ["top left"] * (len(power) - 1),  # the first clear of the y axis
                 line=dict(color=MARK, width=2),
                 marker=dict(size=9 if font is None else 13, color=[MARK if p >= target else BODY for p in power]))
    if bounds is not None:
        low, high = (np.asarray(v, dtype=float) for v in bounds)
        curve["error_y"] = dict(type="data", symmetric=False, array=high - power, arrayminus=power - low,
                                color=MARK, thickness=1.5, width=3)
    data = [curve]
    if simulated is not None:
        share, n_sims = np.asarray(simulated[0], dtype=float), simulated[1]
        low, high = np.array([mc_interval(int(round(s * n_sims)), n_sims) for s in share]).T
        data.append(dict(type="scatter", x=ns * 1.06, y=share, mode="markers",
                         name=_("simulated ({n} test sets, 95% interval)").format(n=n_sims),
                         marker=dict(size=7 if font is None else 11, color=TAIL, symbol="diamond"),
                         error_y=dict(type="data", symmetric=False, array=high - share, arrayminus=share - low,
                                      color=TAIL, thickness=1.5, width=3)))
    verdict = (_("{target} power needs n = {n}").format(target=f"{target:.0%}", n=f"{needed:,}")
               if needed is not None else
               _("n = {n} is the smallest here with {target} power").format(n=f"{enough:,}", target=f"{target:.0%}")
               if enough is not None else _("no n here reaches {target} power").format(target=f"{target:.0%}"))
    layout = dict(
        _LAYOUT, showlegend=simulated is not None,
        legend=dict(x=0.99, y=0.02, xanchor="right", yanchor="bottom", bgcolor="rgba(255,255,255,0.8)"),
        title=titled(title, verdict, font),
        xaxis=dict(AXIS, type="log", title=dict(text=_("test-set size n (items, log scale)")),
                   tickvals=ns, ticktext=[f"{n:,}" for n in ns]),
        yaxis=dict(AXIS, title=dict(text=_("power: share with p ≤ α")), range=[0, 1.08], tickformat=".0%"),
        shapes=[dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=target, y1=target,
                     line=dict(color=TAIL, width=2, dash="dash"))],
        annotations=[dict(xref="paper", yref="y", x=0.01, y=target, text=_("{target}: the usual target").format(
            target=f"{target:.0%}"), showarrow=False, xanchor="left", yanchor="bottom", font=dict(color=TAIL))],
    )
    fig = go.Figure(dict(data=data, layout=layout))
    return fig if font is None else at_size(fig, font, l=110, r=30, t=100, b=80)


def three_tests(bootstrap: Result, permutation: Result, t: Result, *, font: int | None = None) -> go.Figure:
    """The paired bootstrap, approximate randomisation and paired t-test of the same data, side by side.

    Each panel shows what its p counts: δ(x⁽ⁱ⁾) ≥ 2·δ(x) among bootstrap resamples, δ ≥ δ(x) among
    permutations under H0 (the observed assignment among them, as p counts it: 22 red bars of 64 on SLP3's ten
    documents, p = 22/64), and the area of Student's t with n − 1 degrees of freedom beyond the observed t.
    """
    if (bootstrap.test, permutation.test, t.test) != ("bootstrap", "permutation", "t"):
        raise ValueError("three_tests needs a bootstrap, a permutation and a t result, in that order")
    size = font or 12
    panels = [_resampled_panel(bootstrap, 1, size), _resampled_panel(permutation, 2, size), _t_panel(t, 3, size)]
    layout = dict(_LAYOUT, barmode="stack", showlegend=False, margin=dict(l=55, r=15, t=75, b=55),
                  shapes=[], annotations=[])
    data = []
    gap = 0.05 if font is None else 0.07  # room for the next panel's tick labels
    for k, (traces, axes, shapes, notes) in enumerate(panels, start=1):
        data += traces
        low, high = (k - 1) / 3 + gap * (k > 1), k / 3 - gap * (k < 3)
        layout[f"xaxis{_ref(k)}"] = dict(axes[0], domain=[low, high], anchor=f"y{_ref(k)}")
        layout[f"yaxis{_ref(k)}"] = dict(axes[1], anchor=f"x{_ref(k)}")
        layout["shapes"] += shapes
        layout["annotations"] += notes
    fig = go.Figure(dict(data=data, layout=layout))
    return fig if font is None else at_size(fig, font, l=70, r=15, t=2 * round(1.3 * font) + 16, b=80)


# the tests the Classroom names, as a panel, a table or a select box writes them
TEST_TITLES = {"paired bootstrap": N_("Paired bootstrap"), "exact permutation test": N_("Exact permutation test"),
               "approximate randomisation": N_("Approximate randomisation"), "paired t-test": N_("Paired t-test"),
               "McNemar's test": N_("McNemar's test"), "McNemar's exact test": N_("McNemar's exact test")}


def shown_test_name(name: str) -> str:
    """A test's name as a title, in the current language: "Exact permutation test" ("McNemar's", not "Mcnemar's")."""
    return _(TEST_TITLES[name]) if name in TEST_TITLES else name[:1].upper() + name[1:]


def _ref(k: int) -> str:
    """Plotly's suffix of panel k's axes: x, x2, x3."""
    return str(k) if k > 1 else ""


def _panel_title(res: Result, k: int, font: int) -> dict:
    return dict(xref=f"x{_ref(k)} domain", yref="paper", x=0.5, y=1.02, yanchor="bottom",
                text=f"<b>{shown_test_name(test_name(res))}</b><br>{p_fraction(res)}", showarrow=False,
                font=dict(size=max(font, 14)))


def p_fraction(res: Result) -> str:
    """p as the panel and the table write it: :attr:`sigcore.Result.p_text`, and an exact permutation test's with
    the fraction of swaps it counts before it (p = 11/32 = 0.3438 on SLP3's ten documents), as the walk-through
    says it."""
    share = Fraction(res.p_value).limit_denominator(2 ** 24)
    if res.test != "permutation" or not res.exact or share.denominator == 1 or not res.p_text.startswith("p = "):
        return res.p_text
    return f"p = {share.numerator}/{share.denominator} = {res.p_text.removeprefix('p = ')}"


def _mark(x: float, text: str, colour: str, dash: str, k: int, side: str, font: int) -> tuple[dict, dict]:
    ref = f"x{_ref(k)}"
    return (dict(type="line", xref=ref, yref="paper", x0=x, x1=x, y0=0, y1=1, line=dict(color=colour, width=2.5,
                                                                                       dash=dash)),
            dict(xref=ref, yref="paper", x=x, y=1, text=text, showarrow=False, yanchor="top", xanchor=side,
                 xshift=-2 if side == "right" else 2, font=dict(size=font, color=colour),
                 bgcolor="rgba(255, 255, 255, 0.85)"))  # level, on white: read over the bars, not tilted


def counted_values(res: Result) -> tuple[np.ndarray, np.ndarray]:
    """The values a resampling p counts over, and which of them it counts as extreme: the bootstrap's b resamples;
    for a permutation test the observed assignment too (p = (count + 1) / (R + 1): all 2^n' assignments when
    exact), so that the red share of the bars is p itself. With no discordant item the one assignment there is
    is the observed one, already in the distribution, and p = 1."""
    tail = counted(res)
    if res.test != "permutation" or (res.exact and res.n_differing == 0):
        return res.distribution, tail
    return np.r_[res.delta, res.distribution], np.r_[True, tail]  # ties count: the observed δ reaches δ(x)


def _resampled_panel(res: Result, k: int, font: int):
    """Bars of the resampled δ (the ones p counts in red), δ(x) and, for the bootstrap, 2·δ(x)."""
    bootstrap = res.test == "bootstrap"
    values, tail = counted_values(res)
    edges = histogram_edges(values, (res.delta, res.threshold, 0.0))
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    ref = _ref(k)
    bars = [dict(type="bar", x=centres, y=np.histogram(values[chosen], bins=edges)[0], width=widths,
                 name=name, marker=dict(color=colour, line=dict(width=0)), xaxis=f"x{ref}", yaxis=f"y{ref}")
            for chosen, name, colour in ((~tail, _("not counted"), BODY), (tail, _("counted in p"), TAIL))]
    marks = [_mark(res.delta, f"δ(x) = {textbook_number(res.delta)}", MARK, "solid", k, "right", font)]
    if bootstrap:
        marks.append(_mark(res.threshold, f"2·δ(x) = {textbook_number(res.threshold)}", "black", "dash", k, "left",
                           font))
    what = (_("δ(x⁽ⁱ⁾) of {b} resampled x⁽ⁱ⁾").format(b=f"{len(values):,}") if bootstrap else
            _("δ of all {n} A ⇄ B swaps (H0)").format(n=f"{len(values):,}") if res.exact else
            _("δ of {n} A ⇄ B swaps (H0)").format(n=f"{len(values):,}"))
    pad = 0.05 * (edges[-1] - edges[0])  # a line on the last edge stays off the axis
    axes = (dict(AXIS, title=dict(text=what), range=[edges[0] - pad, edges[-1] + pad]),
            dict(AXIS, title=dict(text=_("resamples") if bootstrap else _("swaps")), rangemode="tozero"))
    return bars, axes, [s for s, _note in marks], [_panel_title(res, k, font)] + [a for _shape, a in marks]


def _t_panel(res: Result, k: int, font: int):
    """Student's t density with n − 1 degrees of freedom, the observed t, and the tail area that is p."""
    df, stat = res.n_items - 1, res.statistic
    reach = max(4.0, 1.2 * abs(stat)) if math.isfinite(stat) else 4.0
    x = np.linspace(-reach, reach, 401)
    density = dict(type="scatter", x=x, y=scipy.stats.t.pdf(x, df), mode="lines", name=f"t, {df} df",
                   line=dict(color=MARK, width=2), xaxis=f"x{_ref(k)}", yaxis=f"y{_ref(k)}")
    tails = []
    if not math.isnan(stat):
        for low, high in _T_TAILS[res.delta_alternative](stat):  # t of A − B: H1's side of δ (δ < 0 for an error)
            inside = x[(x >= low) & (x <= high)]
            inside = np.unique(np.clip(np.r_[low, inside, high], -reach, reach))  # the tail starts exactly at t
            if len(inside) > 1:
                tails.append(dict(type="scatter", x=inside, y=scipy.stats.t.pdf(inside, df), mode="lines",
                                  fill="tozeroy", fillcolor=TAIL, line=dict(color=TAIL, width=1),
                                  name=_("tail area = p"), xaxis=f"x{_ref(k)}", yaxis=f"y{_ref(k)}"))
    if math.isfinite(stat):
        shape, note = _mark(stat, f"t = {number(stat)}", "black", "dash", k, "left" if stat < 0 else "right", font)
        shapes = [shape]
    else:  # no spread in the differences (t = ±∞) or no t at all: say so instead of drawing a line
        label = (_("t undefined") if math.isnan(stat) else
                 _("t = {infinity}: no spread in the differences").format(infinity=f"{'−' * (stat < 0)}∞"))
        shapes, note = [], dict(xref=f"x{_ref(k)} domain", yref="paper", x=1, y=0.98, xanchor="right",
                                text=label, showarrow=False, font=dict(size=font))
    axes = (dict(AXIS, title=dict(text=_("t under H0, {df} df").format(df=df)), range=[-reach, reach]),
            dict(AXIS, title=dict(text=_("density")), rangemode="tozero"))
    return [density] + tails, axes, shapes, [_panel_title(res, k, font), note]
