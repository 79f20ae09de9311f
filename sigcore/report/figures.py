"""Plotly figures of results: pure functions from a Result to a ``go.Figure``, shared by the app and the CLI.

The histogram sends binned counts (bars over fixed bins), not every resampled value, so a figure stays small
whatever b is. Labels use Unicode, not MathJax, which would fetch from the network.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..comparison import counted
from ..errors import SettingsError
from ..i18n import _
from ..result import Result, mc_interval
from ..statistics.intervals import power_scale
from .family import signed
from .sentence import direction, metric_name, number, scale_of, test_name, the
from .style import FIGURE_KINDS, MINUS, PAPER, RESAMPLE, Style, apply, label, plain, wrap

__all__ = ["TAIL", "BODY", "MARK", "AXIS", "SLIDE_HEIGHT", "histogram_edges", "live_edges", "chart_title",
           "histogram_frames", "claim_marks", "delta_histogram", "walkthrough_heights", "walkthrough_histogram",
           "empty_histogram", "KINDS", "figure", "claim_figure", "claim_interval"]

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
    values = np.concatenate([values, marks])
    with np.errstate(over="ignore", invalid="ignore"):  # rounding 1e306 to 10 decimals overflows: it needs none
        points = np.unique(np.where(np.abs(values) < 1e290, np.round(values, 10), values))  # noise is no new value
    if len(points) == 1 and cover is None:
        return points[0] + np.array([-0.5, 0.5]) * max(abs(points[0]), 1e-3)
    low, high = min(points[0], cover[0]) if cover else points[0], max(points[-1], cover[1]) if cover else points[-1]
    step = np.min(np.diff(points)) if len(points) > 1 else (high - low) / _MAX_BARS
    lattice = np.allclose(np.diff(points) / step, np.round(np.diff(points) / step), atol=1e-6)
    if (high - low) / step > _MAX_BARS and lattice:  # whole lattice steps per bar, or bars alternate high and low
        step *= np.ceil((high - low) / step / _MAX_BARS)
    if lattice or (high - low) / step <= _MAX_BARS:  # centre a bar on each possible value
        first = points[0] - np.ceil((points[0] - low) / step) * step
        last = points[-1] + np.ceil((high - points[-1]) / step) * step
        return first + (np.arange(int(round((last - first) / step)) + 2) - 0.5) * step
    pad = 0.03 * (high - low)  # a line at the very end would sit on the frame, its label clipped
    if marks and max(marks) >= high - pad:
        high = max(marks) + pad
    if marks and min(marks) <= low + pad:
        low = min(marks) - pad
    return np.linspace(low, high, _MAX_BARS + 1)


def live_edges(values: np.ndarray, marks: tuple[float, ...] = ()) -> np.ndarray:
    """Edges for a chart that will keep growing: the first values' mean ± 4 standard deviations, so nearly
    all later resamples fall inside (the rare one beyond is drawn in the end bar) and the axis never moves."""
    scaled, scale = power_scale(values)  # the spread of ±1e306 overflows: a power of two down, multiplied back
    centre, spread = float(np.mean(scaled)) * scale, float(np.std(scaled)) * scale
    return histogram_edges(values, marks, cover=(centre - 4 * spread, centre + 4 * spread))


def chart_title(res: Result) -> str:
    return f"{test_name(res)}: {res.p_text}, b = {res.n_resamples:,}"


def histogram_frames(partials: list[Result], edges: np.ndarray,
                     claim: tuple[str, float] | None = None) -> list[tuple[list[int], list[int]]]:
    """The bar heights (not counted, counted in p) of :func:`delta_histogram` for each partial result of a
    stream, so that a chart can play the run without rebuilding the figure."""
    return [tuple(heights.tolist() for heights in _bar_heights(res, edges, claim)) for res in partials]


def _bar_heights(res: Result, edges: np.ndarray,
                 claim: tuple[str, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Resamples per bin, not counted and counted in p; values past a fixed range pile up at its ends."""
    values, tail = np.clip(res.distribution, edges[0], edges[-1]), _counted(res, claim)
    return np.histogram(values[~tail], bins=edges)[0], np.histogram(values[tail], bins=edges)[0]


def _counted(res: Result, claim: tuple[str, float] | None) -> np.ndarray:
    """The resamples a p counts: the test's, or a claim's tails (:func:`sigcore.claims.tails`)."""
    if claim is None:
        return counted(res)
    from ..claims import tails

    low, high = tails(res, *claim)
    return low | high


def claim_marks(res: Result, claim: tuple[str, float] | None) -> tuple[float, ...]:
    """Where a chart's lines go: δ(x), and 2·δ(x) or a claim's 2·δ(x) ± Δ, so that its axis holds them."""
    if claim is None:
        return res.delta, res.threshold, 0.0
    kind, margin = claim
    return (res.delta, 2 * res.delta + margin, 0.0) + ((2 * res.delta - margin,) if kind == "equivalent" else ())


def delta_histogram(res: Result, *, edges: np.ndarray | None = None, title: str | None = None,
                    claim: tuple[str, float] | None = None) -> go.Figure:
    """The distribution of delta(x^(i)) with delta(x), 2·delta(x) and the counted tail marked; with ``claim``
    ((kind, Δ): non-inferiority or equivalence), its thresholds 2·delta(x) ± Δ and the tails its p counts.

    Built from plain dicts (no template, no add_vline), since a live chart rebuilds it for every frame.
    """
    if res.distribution is None:
        raise ValueError(f"the {res.test} test has no resampled distribution to draw")
    bootstrap = res.test == "bootstrap" and res.compat is None
    if edges is None:
        edges = histogram_edges(res.distribution, claim_marks(res, claim))
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    bars = [dict(type="bar", x=centres, y=heights, width=widths, name=name,
                 marker=dict(color=colour, line=dict(width=0)))
            for heights, name, colour in zip(_bar_heights(res, edges, claim), ("not counted", "counted in p"),
                                             (BODY, TAIL))]
    marks = [(res.delta, f"δ(x) = {number(res.delta)}", MARK, "solid", _side(res.delta, edges, "right"))]
    if claim is not None:
        kind, margin = claim
        for sign, side in ((1, "left"), (-1, "right"))[:2 if kind == "equivalent" else 1]:
            x = 2 * res.delta + sign * margin
            marks.append((x, f"2·δ(x) {'+' if sign > 0 else '−'} Δ = {number(x)}", "black", "dash",
                          _side(x, edges, side)))
    elif bootstrap:
        marks.append((res.threshold, f"2·δ(x) = {number(res.threshold)}", "black", "dash",
                      _side(res.threshold, edges, "left")))
    what = "δ(x⁽ⁱ⁾) on bootstrap resamples x⁽ⁱ⁾" if bootstrap else "δ under H0 (A and B swapped per item)"
    layout = dict(
        barmode="stack", bargap=0, height=380, margin=dict(l=60, r=20, t=80, b=60), plot_bgcolor="white",
        title=dict(text=title or chart_title(res)),
        xaxis=dict(title=dict(text=f"{what}  ({metric_name(res)}, A − B{_better(res, 'A')})"),
                   range=[edges[0], edges[-1]],
                   **AXIS),
        yaxis=dict(title=dict(text="resamples"), **AXIS,
                   rangemode="tozero"),
        legend=dict(orientation="h", y=1.12, x=1, xanchor="right", yanchor="bottom"),
        **_lines(marks),
    )
    return go.Figure(dict(data=bars, layout=layout))


def _side(x: float, edges: np.ndarray, prefer: str) -> str:
    """Which side of its line a label goes: ``prefer``, unless that runs it off the plot (its last or first
    quarter), where a label of a dozen characters would be cut."""
    where = (x - edges[0]) / (edges[-1] - edges[0]) if edges[-1] > edges[0] else 0.5
    return "right" if where > 0.75 else "left" if where < 0.25 else prefer


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
    pixels (24 for a lecture hall). Its words are in the current language (sigcore.i18n)."""
    values = np.arange(-n, n + 1) / n
    d, d2 = (f"{v:.2f}".replace("0.", ".", 1).replace("-", "−") for v in (delta, 2 * delta))  # .20, as SLP3
    panels = [(values, "x", [(delta, f"δ(x) = {d}", MARK, "solid", "center"),
                             (2 * delta, f"2·δ(x) = {d2}", "black", "dash", "center")],
               "δ(x⁽ⁱ⁾)" if shifted else _("δ(x⁽ⁱ⁾) = A% − B% on x⁽ⁱ⁾"))]  # two panels: short titles side by side
    if shifted:
        panels.append((values - delta, "x2", [(0, "H0: 0", MARK, "dot", "center"),
                                              (delta, f"δ(x) = {d}", "black", "dash", "center")],
                       _("δ(x⁽ⁱ⁾) − δ(x), centred on H0")))
    # one range for both panels, so the shift is seen as a shift
    span = [min(p[0][0] for p in panels) - 1 / n, max(p[0][-1] for p in panels) + 1 / n]
    data, shapes, annotations, layout = [], [], [], {}
    for i, (x, axis, marks, title) in enumerate(panels):
        if not shifted:  # one panel: a line near its end is labelled towards its middle ("2·δ(x) = 1.00" ran off it)
            marks = [(*mark[:4], _side(mark[0], np.asarray(span), mark[4])) for mark in marks]
        data += [dict(type="bar", x=x, y=[0] * len(x), width=1 / n, name=name, xaxis=axis, showlegend=legend and not i,
                      marker=dict(color=colour, line=dict(width=0)))
                 for name, colour in ((_("not counted"), BODY), (_("counted in s: δ(x⁽ⁱ⁾) ≥ 2·δ(x)"), TAIL))]
        lines = _lines(marks, axis, font=font, rows=True)  # each label over its line, 2·δ(x) above δ(x)
        shapes += lines["shapes"]
        annotations += lines["annotations"]
        layout[f"xaxis{axis[1:]}"] = dict(title=dict(text=title), range=span, anchor="y", **AXIS,
                                          domain=[0, 1] if not shifted else [0.55 * i, 0.45 + 0.55 * i])
    row = round(1.4 * font)
    return go.Figure(dict(data=data, layout=dict(
        barmode="stack", bargap=0, height=380, plot_bgcolor="white", font=dict(size=font),
        margin=dict(l=60, r=20, t=(3 if legend else 2) * row + (12 if legend else 4), b=60),  # legend, two label rows
        yaxis=dict(title=dict(text=_("test sets x⁽ⁱ⁾")), rangemode="tozero", automargin=True, **AXIS,  # 10,000s fit
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


# ---------------------------------------------------------------- figures for papers and slides

KINDS = FIGURE_KINDS[:3]
_MARK_NAMES = {-1: "−δ(x)", 1: "δ(x)", 2: "2·δ(x)"}  # lines at multiples of delta(x); 0 is named on its own
_SHOWN = {("bootstrap", "histogram"): "Distribution of δ(x⁽ⁱ⁾)",
          ("bootstrap", "null"): "Distribution under H0 of δ(x⁽ⁱ⁾) − δ(x)"}  # the permutation's: δ under H0
_CONVERGENCE_POINTS = 400
_EDGE = 0.05  # the share of an axis's range kept clear beyond its outermost marked line


def figure(res: Result, kind: str = "histogram", *, style: Style = PAPER, width: str | None = None,
           a: str = "A", b: str = "B", claim: tuple[str, float] | None = None) -> go.Figure:
    """A figure of ``res`` for a paper or a slide, at ``style``'s true size; ``width`` is "column" (one
    column of the paper or of a two-column slide) or "full" (the paper's text width, a whole slide), by
    default the style's own (:mod:`sigcore.report.style`).

    - "histogram": the resampled δ as the test drew it: for the bootstrap, δ(x⁽ⁱ⁾) with δ(x) and 2·δ(x);
      for approximate randomisation, δ under H0 with δ(x);
    - "null": the distribution under H0, centred on 0: the bootstrap's δ(x⁽ⁱ⁾) − δ(x), where δ(x) is the
      threshold (why the unshifted test compares with 2·δ(x)); the permutation distribution as it is;
    - "convergence": p after each resample i with its 95% Monte-Carlo band, and α, on a log scale so that a
      small p and its band stand as clear of the floor as a large one.

    With ``claim`` ((kind, Δ), :mod:`sigcore.claims`), the bootstrap's histogram marks the claim's thresholds
    2·δ(x) + Δ (and 2·δ(x) − Δ for equivalence) in place of 2·δ(x), and its counted bars are the claim's tails.

    Each line's label sits in a row of its own above the panel, on the side of the line towards the panel's
    centre, so labels never overlap each other or the figure's edge, whatever δ's sign or the test's side; every
    line lies inside the x axis, at least 4% of its range from either end.
    """
    if kind not in KINDS:
        raise SettingsError(f"unknown figure kind {kind!r}", hint=f"Choose one of: {', '.join(KINDS)}.")
    if claim is not None and (kind != "histogram" or res.test != "bootstrap" or res.compat is not None):
        raise SettingsError("a claim's figure is the paired bootstrap's histogram with its thresholds 2·δ(x) ± Δ",
                            hint="Draw the claim of a t-test with claim_interval.")
    if res.distribution is None:
        raise SettingsError(f"{the(test_name(res))} is closed-form: it has no resampled distribution to draw",
                            hint="Run the paired bootstrap or approximate randomisation for a figure.")
    title = _title(res, kind, a, b)
    if kind == "convergence":
        return _convergence(res, style, width, title)
    return _distribution(res, kind == "null", style, width, a, b, title, claim)


def _difference(res: Result, a: str, b: str) -> str:
    name = metric_name(res)
    return f"{name}({label(a)}) {MINUS} {name}({label(b)})"


def _title(res: Result, kind: str, a: str, b: str) -> str:
    """What the figure shows, as plain text (a PDF's title): "Distribution of δ(x⁽ⁱ⁾): accuracy(A) − accuracy(B),
    paired bootstrap"."""
    shown = "p as resamples accrue" if kind == "convergence" else _SHOWN.get((res.test, kind),
                                                                             "Distribution under H0 of δ")
    return f"{shown}: {plain(_difference(res, a, b))}, {test_name(res)}"


def _distribution(res: Result, null: bool, style: Style, width: str | None, a: str, b: str,
                  title: str, claim: tuple[str, float] | None = None) -> go.Figure:
    bootstrap = res.test == "bootstrap"
    shift = 1 if null and bootstrap else 0  # in units of delta(x): the null view moves the bootstrap by -delta(x)
    values = res.distribution - shift * res.delta
    # dashed: where the counted tail begins; solid: the observed delta(x); dotted: H0's centre
    dashes = {m - shift: "dash" for m in _cuts(res)} | ({0: "dot"} if shift or not bootstrap else {1: "solid"})
    marks = [(m * res.delta, "H0: 0" if m == 0 and dashes[m] == "dot" else
              f"{_MARK_NAMES[m]} = {signed(m * res.delta, scale_of(res))}" if m else f"δ({RESAMPLE}) = 0", dashes[m])
             for m in sorted(dashes, key=lambda m: (m * res.delta, m))]
    if claim is not None:  # the claim's thresholds, as the Compare page draws them (claim_marks)
        marks = sorted([(res.delta, f"δ(x) = {signed(res.delta, scale_of(res))}", "solid"), *_thresholds(res, *claim)])
    edges = histogram_edges(values, tuple(x for x, _, _ in marks))
    span = _clear(edges, [x for x, _, _ in marks])
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    in_p = counted(res) if claim is None else _counted(res, claim)
    clipped = np.clip(values, edges[0], edges[-1])
    bars = [dict(type="bar", x=centres, y=np.histogram(clipped[mask], bins=edges)[0], width=widths, name=name,
                 marker=dict(color=colour, line=dict(width=0)))
            for mask, name, colour in ((~in_p, "not counted", style.body), (in_p, "counted in p", style.counted))
            if name == "not counted" or mask.any()]  # no swatch for a colour no bar has
    first, _, second = _difference(res, a, b).partition(f" {MINUS} ")
    difference = [first, f"{MINUS} {second}"] if second else [first]  # a line may break before the minus
    if not bootstrap:
        what = ["δ under H0 (outputs swapped per item),", "δ =", *difference]
    elif null:
        what = [f"δ({RESAMPLE}) − δ(x), centred on H0,", "δ =", *difference]
    else:
        what = [f"δ({RESAMPLE}) =", *difference]
    what = wrap(what + ([_better(res, label(a)).removeprefix("; ")] if _better(res, a) else []), style,
                style.width(width) - 5 * style.tick)
    fig = go.Figure(dict(data=bars, layout=dict(
        barmode="stack", bargap=0,
        xaxis=dict(title=dict(text=what), range=span, showline=True, ticks="outside", zeroline=False),
        yaxis=dict(title=dict(text="permutations" if not bootstrap else "resamples"), rangemode="tozero",
                   showline=True, ticks="outside"))))
    return _marked(fig, marks, span, style, width, title, what.count("<br>") + 1)


def _better(res: Result, a: str) -> str:
    """Which side of δ = 0 is A better on, where lower is better (an error): "; below 0: A better"; "" otherwise."""
    return f"; {direction(res)}, below 0: {a} better" if direction(res) else ""


def _thresholds(res: Result, kind: str, margin: float) -> list[tuple[float, str, str]]:
    """A claim's dashed lines: 2·δ(x) + Δ, where H0 δ ≤ −Δ's tail begins, and 2·δ(x) − Δ for equivalence."""
    signs = (1, -1) if kind == "equivalent" else (1,)
    return [(2 * res.delta + s * margin, f"2·δ(x) {'+' if s > 0 else MINUS} Δ = "
             f"{signed(2 * res.delta + s * margin, scale_of(res))}", "dash") for s in signs]


def claim_figure(c, *, style: Style = PAPER, width: str | None = None, a: str = "A", b: str = "B") -> go.Figure:
    """A claim's figure (:class:`sigcore.claims.Claim`): the paired bootstrap's histogram with the claim's
    thresholds and tails (:func:`figure`), or, for the t-test, which draws no resamples, :func:`claim_interval`."""
    if c.test == "bootstrap":
        return figure(c.result, "histogram", style=style, width=width, a=a, b=b, claim=(c.kind, c.margin))
    return claim_interval(c, style=style, width=width, a=a, b=b)


def claim_interval(c, *, style: Style = PAPER, width: str | None = None, a: str = "A", b: str = "B") -> go.Figure:
    """δ with its one-sided (1 − α) lower bound (a bar to the axis's end, an arrow: it has no upper end) or its
    1 − 2α interval, against the margin −Δ (and Δ) and 0: the claim is shown where the bar lies past −Δ (inside
    ±Δ), as CONSORT's figure for non-inferiority and equivalence trials draws one (Piaggio et al., JAMA 2012)."""
    from ..signature import margin_text

    res = c.result
    margin = margin_text(c.margin)  # as the claim's sentence writes it
    marks = sorted([(-c.margin, f"{MINUS}Δ = {MINUS}{margin}", "dash"), (0.0, "δ = 0", "dot"),
                    *([(c.margin, f"Δ = {margin}", "dash")] if c.kind == "equivalent" else [])])
    ends = [x for x in (c.bound_low, c.bound_high, res.delta) if np.isfinite(x)]
    low, high = min(*ends, *(x for x, _, _ in marks)), max(*ends, *(x for x, _, _ in marks))
    pad = _EDGE * (high - low or 1.0)
    span = [low - pad, high + pad]
    right = c.bound_high if np.isfinite(c.bound_high) else span[1]  # no upper end: the bar runs off the axis
    left = c.bound_low if np.isfinite(c.bound_low) else span[0]
    bound = "its one-sided" if c.kind == "non-inferior" else "its"
    bar = dict(type="scatter", x=[left, right], y=[0, 0], mode="lines+markers", showlegend=False, hoverinfo="skip",
               cliponaxis=False,  # the arrow at the axis's end is drawn whole
               line=dict(color=style.ink, width=2 * style.line),
               marker=dict(color=style.ink, size=2 * style.tick,
                           symbol=["line-ns" if np.isfinite(c.bound_low) else "triangle-left",
                                   "line-ns" if np.isfinite(c.bound_high) else "triangle-right"],
                           line=dict(color=style.ink, width=2 * style.line)))
    point = dict(type="scatter", x=[res.delta], y=[0], mode="markers", showlegend=False, hoverinfo="skip",
                 marker=dict(color=style.counted, size=1.2 * style.tick, line=dict(color=style.ink, width=1)))
    first, _, second = _difference(res, a, b).partition(f" {MINUS} ")
    what = wrap(["δ =", first, *([f"{MINUS} {second}"] if second else []), "(point), with",
                 f"{bound} {c.level:.0%} {'bound' if c.kind == 'non-inferior' else 'interval'}"],
                style, style.width(width) - 5 * style.tick)
    fig = go.Figure(dict(data=[bar, point], layout=dict(
        xaxis=dict(title=dict(text=what), range=span, showline=True, ticks="outside", zeroline=False),
        yaxis=dict(visible=False, range=[-1, 1]))))
    lines = what.count("<br>") + 1
    claim = "Non-inferiority" if c.kind == "non-inferior" else "Equivalence"
    fig = _marked(fig, marks, span, style, width, f"{claim}: {plain(_difference(res, a, b))}, {test_name(res)}", lines)
    panel = 3 * style.row  # one bar: a short panel
    return fig.update_layout(height=len(marks) * style.row + 6 + panel + 2 * style.tick + (1.6 + lines) * style.row)


def _clear(edges: np.ndarray, lines: list[float]) -> list[float]:
    """The x range: the bars' and, beyond the outermost lines, a twentieth of it, so that no line sits on the
    axis's end (a permutation test's δ(x) is often its most extreme value)."""
    low, high = min(edges[0], *lines), max(edges[-1], *lines)
    pad = _EDGE * (high - low)
    return [min(edges[0], min(lines) - pad), max(edges[-1], max(lines) + pad)]


def _cuts(res: Result) -> list[int]:
    """The multiples of delta(x) where the test's counted tail begins."""
    if res.test == "bootstrap":
        if res.compat is not None:  # sacrebleu's |.| statistic has no single cut on delta(x^(i))
            return []
        return [0, 2] if res.alternative == "two-sided" else [2]
    return [-1, 1] if res.alternative == "two-sided" or res.compat is not None else [1]


def _marked(fig: go.Figure, marks: list[tuple[float, str, str]], span: list[float], style: Style,
            width: str | None, title: str, title_lines: int = 1) -> go.Figure:
    """Vertical lines with their labels, one row each above the panel, and the legend below it."""
    row = style.row
    fig.update_layout(
        shapes=[dict(type="line", xref="x", yref="y domain", x0=x, x1=x, y0=0, y1=1,
                     line=dict(color=style.ink, width=style.line, dash=dash)) for x, _, dash in marks],
        annotations=[dict(xref="x", yref="y domain", x=x, y=1, yanchor="bottom", showarrow=False, text=text,
                          yshift=2 + k * row, **_inward(x, span))
                     for k, (x, text, _) in enumerate(reversed(marks))],
        margin=dict(l=4 * style.tick, r=style.text, t=len(marks) * row + 6,
                    b=2 * style.tick + (1.6 + title_lines) * row),
        legend=dict(orientation="h", yref="container", y=0, yanchor="bottom", x=0.5, xanchor="center",
                    traceorder="normal"),
    )
    return apply(fig, style, width, style.height + (title_lines - 1) * row, title=title)


def _inward(x: float, span: list[float]) -> dict:
    """A label's anchor: it reads from its line towards the panel's centre, so it never leaves the figure."""
    left = (x - span[0]) <= (span[1] - span[0]) / 2
    return dict(xanchor="left" if left else "right", xshift=3 if left else -3)


def _convergence(res: Result, style: Style, width: str | None, title: str) -> go.Figure:
    if res.exact:
        raise SettingsError("this p is exact (every swap enumerated): there is no Monte-Carlo estimate to converge",
                            hint="Draw the histogram or the null instead.")
    b = len(res.distribution)
    i = np.unique(np.geomspace(1, b, _CONVERGENCE_POINTS).round().astype(np.int64))
    k = np.cumsum(counted(res))[i - 1]
    p = (k + 1) / (i + 1) if res.plus_one else k / i
    low, high = mc_interval(k, i, res.plus_one)
    floor, top = _p_range(res, p, low)
    # a p of 0 (no resample counted yet) has no place on a log axis: drawn under its floor, which hides it
    hidden = floor / 10
    band = dict(type="scatter", x=np.concatenate([i, i[::-1]]), y=np.maximum(np.concatenate([high, low[::-1]]), hidden),
                fill="toself", fillcolor=style.body, line=dict(width=0), name="95% Monte-Carlo interval",
                hoverinfo="skip")
    line = dict(type="scatter", x=i, y=np.maximum(p, hidden), mode="lines", name="p after i resamples",
                line=dict(color=style.ink, width=style.line))
    ticks = _p_ticks(floor)
    fig = go.Figure(dict(data=[band, line], layout=dict(
        xaxis=dict(title=dict(text="resamples drawn, i"), type="log", showline=True, ticks="outside",
                   range=[0, np.log10(b)]),
        yaxis=dict(title=dict(text="p"), type="log", range=[np.log10(floor), np.log10(top)], tickvals=ticks,
                   ticktext=[_p_tick(v) for v in ticks], showline=True, ticks="outside", zeroline=False))))
    row = style.row
    fig.update_layout(
        shapes=[dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=res.alpha, y1=res.alpha,
                     line=dict(color=style.counted, width=style.line, dash="dash"))],
        annotations=[dict(xref="paper", yref="y", x=1, y=np.log10(res.alpha), xanchor="right", yanchor="bottom",
                          showarrow=False, text=f"α = {res.alpha:g}"),
                     dict(xref="paper", yref="paper", x=1, y=1, xanchor="right", yanchor="bottom", showarrow=False,
                          text=f"{res.p_text} after b = {b:,}")],
        margin=dict(l=4 * style.tick, r=style.text, t=row + 6, b=2 * style.tick + 2.6 * row),
        legend=dict(orientation="h", yref="container", y=0, yanchor="bottom", x=0.5, xanchor="center"),
    )
    return apply(fig, style, width, title=title)


def _p_range(res: Result, p: np.ndarray, low: np.ndarray) -> tuple[float, float]:
    """The y range of a running p, on a log scale: from a third of the smallest p, band or α drawn (half a decade
    of room under the final p's band, which so stays in the upper 95% of the axis up to b = 10⁷) to just over 1."""
    final = res.p_value if res.p_value > 0 else res.p_floor  # "p < 1/b" when no resample was counted
    smallest = min(np.min(low[low > 0], initial=1.0), np.min(p[p > 0], initial=1.0), res.alpha, final)
    floor = smallest / 3
    return floor, 10 ** (0.03 * -np.log10(floor))


def _p_ticks(floor: float) -> list[float]:
    """Powers of ten over the axis (every other one past six), and 2 and 5 times them when there are fewer than
    three."""
    decades = [10.0 ** e for e in range(int(np.ceil(np.log10(floor))), 1)]
    if len(decades) > 6:  # every other decade, from 1 down, so that the labels keep apart on a column's axis
        decades = decades[::-2][::-1]
    if len(decades) < 3:
        decades = sorted(v * m for v in decades + [decades[0] / 10] for m in (1, 2, 5) if floor <= v * m <= 1)
    return decades


def _p_tick(v: float) -> str:
    """0.05, 0.001; below that 10⁻⁴, as a p-value is written (with <sup>, in the figure's own font)."""
    if v >= 1e-3:
        return f"{v:g}"
    exponent = int(np.floor(np.log10(v) + 1e-9))
    power = f"10<sup>{MINUS}{-exponent}</sup>"
    return power if np.isclose(v, 10.0 ** exponent) else f"{v / 10.0 ** exponent:g}·{power}"
