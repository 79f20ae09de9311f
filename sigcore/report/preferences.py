"""The views of models rated from pairwise judgments (:class:`sigcore.judgments.Preferences`), one text for the
command line, the app and a page: what was computed, the models with their ratings, intervals and ranks, every
pair, what the ratings settle, how to read them; as rows, CSV, Markdown, an HTML page and a LaTeX table.

Ratings print on their scale's grain (Elo points to one decimal, log odds to three); p as every table prints it
(:func:`sigcore.result.p_cell`: never 0, "< 1/b" where no resample was as extreme). Every name is the user's text:
escaped for each view, never read as markup.
"""

from __future__ import annotations

import numpy as np

from ..io.sheets import table_csv
from ..judgments.agreement import STATISTICS
from ..result import p_cell
from ..statistics.resampling import FEW_CLUSTERS
from ..words import counted, in_text, listed
from .board import separation
from .citations import cite_latex, preference_keys
from .export import latex_escape, latex_table, md_escape, tabular_width
from .family import CORRECTION_NAMES
from .publish import html_document, html_table, inline_svg, md_table
from .publish import html_escape as esc
from .venues import DEFAULT as DEFAULT_VENUE
from .venues import venue_named

__all__ = ["DECIMALS", "rating_text", "heading", "model_rows", "pair_rows", "settled", "findings", "legend", "csv",
           "markdown", "page", "latex"]

DECIMALS = {"elo": 1, "log": 3}  # a rating's grain on its scale: Elo points, natural-log odds


def rating_text(value: float, scale: str, *, signed: bool = False) -> str:
    """A rating (or a difference of two, ``signed``) on its scale's grain, with a minus sign (−); "—" where there is
    none (an interval's end that b is too small to give at its level)."""
    if not np.isfinite(value):
        return "\u2014"
    return f"{value:{'+' if signed else ''}.{DECIMALS[scale]}f}".replace("-", "\u2212")


def _scale(r) -> str:
    where = f"{in_text(r.baseline)} at" if r.baseline is not None else "the mean at"
    unit = "Elo scale, 400 · log10 odds" if r.scale == "elo" else "natural-log odds"
    return f"{unit}, {where} {r.center:g}"


def heading(res) -> str:
    """The models, battles, items and judges, the fit, the bootstrap and the correction."""
    r = res.ratings
    m = len(r.models)
    judges = [j for j in res.judges if j]
    by = f"; judges: {listed([in_text(j) for j in judges], 6)}" if judges else ""
    ties = "a tie half a win each way" if r.tie_model == "half" else f"Davidson's ties (ν = {r.tie_parameter:.3g})"
    return (f"Bradley–Terry ratings of {m} models ({_scale(r)}; {ties}) from "
            f"{counted(res.n_battles, 'battle')} on {counted(r.n_items, 'item')}{by}; {r.confidence_level:.0%} "
            f"intervals and ranks from b = {r.n_resamples:,} resamples of the items, seed {r.seed}; every pair "
            f"two-sided, {CORRECTION_NAMES[r.correction]} over "
            f"{counted(m * (m - 1) // 2, 'pair')}, α = {r.alpha:g}")


def model_rows(res) -> tuple[list[str], list[list[str]]]:
    """The models' columns and cells, best first, as every text view shows them: LMArena's rank, the rating and its
    interval, the rank interval, battles and wins–ties–losses."""
    r = res.ratings
    header = ["model", "rank", "rating", f"{r.confidence_level:.0%} CI", "rank interval", "battles", "W–T–L"]
    rows = [[t.model, str(t.rank), rating_text(t.rating, r.scale),
             f"[{rating_text(t.ci_low, r.scale)}, {rating_text(t.ci_high, r.scale)}]",
             "\u2014" if t.rank_low is None else f"{t.rank_low}" if t.rank_low == t.rank_high
             else f"{t.rank_low}-{t.rank_high}",
             f"{t.battles:,}", f"{t.wins:,}–{t.ties:,}–{t.losses:,}"] for t in r.table().itertuples(index=False)]
    return header, rows


def pair_rows(res) -> tuple[list[str], list[list[str]]]:
    """Every pair, the higher-rated first: δ in rating points, p and p corrected (starred where significant)."""
    r = res.ratings
    floor = 1 / r.n_resamples

    def p(value: float, bound: bool) -> str:
        return p_cell(max(value, floor) if bound else value, r.alpha, bound=bound)
    rows = []
    for t in r.pairs.itertuples(index=False):
        bound = t.p_value == 0
        rows.append([t.model, t.other, rating_text(t.delta, r.scale, signed=True), p(t.p_value, bound),
                     p(t.p_corrected, bound) + (" *" if t.p_corrected <= r.alpha else "")])
    return ["model", "other", "δ", "p", "p corrected"], rows


def settled(res) -> str:
    """What the ratings settle, in one sentence (:func:`sigcore.report.board.separation`), led by the caution where
    too few items were resampled for the bootstrap's p to bear a decision."""
    r = res.ratings
    said = separation("The judgments separate", list(r.table().model), dict(zip(r.models, r.rank.tolist())),
                      r.pairs, r.alpha, r.correction)
    if r.n_items >= FEW_CLUSTERS:
        return said
    return (f"Only {counted(r.n_items, 'item')} {'was' if r.n_items == 1 else 'were'} resampled, too few for the "
            f"bootstrap's p to bear a decision (fewer than {FEW_CLUSTERS}): read what follows as a lower bound on the "
            f"uncertainty. {said}")


def findings(res) -> list[str]:
    """What else the judgments say, a sentence each: how much the order of the answers swayed the judges, and how
    far they agree (none where the files cannot say)."""
    said = []
    bias = res.position
    if bias is not None:
        level = f"{bias.confidence_level:.0%}"
        said.append(f"Position bias: of {counted(bias.pairs, 'judgment pair')} made in both orders (on "
                    f"{counted(bias.n_items, 'item')}), {_share(bias.inconsistent)} changed verdict with the order "
                    f"({_percent(bias.toward_first.value)} toward the first slot, {_percent(bias.toward_second.value)} "
                    f"toward the second); the answer shown first won {_share(bias.first_slot)} of the "
                    f"{counted(bias.first_slot.n, 'decisive verdict')} ({level} intervals over items; 50%: no bias).")
        said.append("The ratings are of the reconciled verdicts: each pair judged in both orders counted once, a tie "
                    "where the order changed it." if res.reconciled else
                    "The ratings count every verdict as given; --reconcile (reconcile=True) counts each pair judged "
                    "in both orders once, a tie where the order changed it.")
    agreed = res.agreement
    if agreed is not None:
        name = STATISTICS[agreed.statistic]
        said.append(f"The judges agree: {name} = {agreed.value:.3f} [{agreed.ci_low:.3f}, {agreed.ci_high:.3f}] "
                    f"({agreed.confidence_level:.0%} interval over items) on {counted(agreed.n_units, 'battle')} "
                    f"judged by {'both' if len(agreed.judges) == 2 else 'two or more'} of "
                    f"{listed([in_text(j) for j in agreed.judges], 6)} (1: always agree; 0: as often as chance).")
    return said


def _percent(x: float) -> str:
    return f"{x:.0%}" if x == x else "—"


def _share(share) -> str:
    """A share with its interval, in per cent: "60% [50%, 67%]"."""
    return f"{_percent(share.value)} [{_percent(share.ci_low)}, {_percent(share.ci_high)}]"


def legend(res) -> str:
    """How to read the ranks, the intervals and the marks."""
    r = res.ratings
    m = len(r.models)
    return (f"rank: 1 + the models significantly better ({counted(m * (m - 1) // 2, 'pair')}, "
            f"{CORRECTION_NAMES[r.correction]}); rank interval: the ranks a model takes on the "
            f"middle {r.confidence_level:.0%} of the resamples; CI: the percentile interval of the rating over the "
            f"resamples of the items; δ: the first model's rating minus the other's; * significant after the "
            f"correction at α = {r.alpha:g}")


def csv(res) -> bytes:
    """The models' table as CSV (the one writer: formula cells neutralised), the JSON's columns."""
    return table_csv(res.ratings.table())


def _parts(res) -> dict:
    return {"heading": heading(res), "models": model_rows(res), "pairs": pair_rows(res), "settled": settled(res),
            "findings": findings(res), "legend": legend(res), "notes": list(res.notes), "signature": res.signature}


def markdown(res) -> str:
    """The ratings as Markdown (a README, a model card): the heading, the models, what they settle, every pair,
    the legend, the notes and the signature; names escaped."""
    parts = _parts(res)
    notes = "".join(f"\n- note: {md_escape(n)}" for n in parts["notes"])
    found = "".join(f"\n\n{md_escape(f)}" for f in parts["findings"])
    return (f"{md_escape(parts['heading'])}\n\n{md_table(*parts['models'], 1)}\n\n{md_escape(parts['settled'])}"
            f"{found}\n\nEvery pair:\n\n{md_table(*parts['pairs'], 2)}\n\n{md_escape(parts['legend'])}\n{notes}\n\n"
            f"Signature: `{parts['signature']}`\n")


def page(res, *, figure_svg: str | None = None, title: str | None = None) -> str:
    """The ratings as one self-contained HTML page (no request leaves it): what :func:`markdown` holds, and the
    figure of the ratings as an inline SVG (``figure_svg``: :func:`sigcore.report.preferences_figures.ratings_svg`),
    or a line saying it was left out."""
    parts = _parts(res)
    figure = (f"<figure>{inline_svg(figure_svg)}</figure>" if figure_svg else
              '<p class="small">(The figure was left out: static figures need plotly and kaleido.)</p>')
    found = "".join(f"<p>{esc(f)}</p>\n" for f in parts["findings"])
    notes = "".join(f"<li>{esc(n)}</li>" for n in parts["notes"])
    return html_document(
        title or f"Ratings of {len(res.models)} models from pairwise judgments",
        f"<p>{esc(parts['heading'])}</p>\n{html_table(*parts['models'])}\n<p>{esc(parts['settled'])}</p>\n{found}"
        f"{figure}\n<h2>Every pair</h2>\n{html_table(*parts['pairs'])}\n<p class=\"small\">{esc(parts['legend'])}</p>\n"
        + (f"<ul class=\"small\">{notes}</ul>\n" if notes else "")
        + f"<p class=\"small\">Signature: <code>{esc(parts['signature'])}</code></p>\n")


def latex(res, *, venue: str = DEFAULT_VENUE, label: str = "tab:preferences") -> str:
    """The models' table for a paper (:func:`sigcore.report.export.latex_table`: the venue's caption side, across
    both columns where it is too wide for one): rank, rating, interval, rank interval, battles; the caption says
    how they were computed."""
    r = res.ratings
    header, rows = model_rows(res)
    keep = range(6)  # wins–ties–losses left to the CSV and the page: the room is worth more to the names

    def cell(k: int, text: str) -> str:
        return latex_escape(text) if k == 0 else text.replace("\u2212", "$-$").replace(",", "{,}").replace("-", "--")
    cells = [[latex_escape(header[k]) for k in keep],
             *([cell(k, row[k]) for k in keep] for row in rows)]
    lines = ["    " + " & ".join(c) + r" \\" for c in cells]
    body = [r"  \setlength{\tabcolsep}{4pt}", r"  \begin{tabular}{lrrrrr}", r"    \toprule", lines[0],
            r"    \midrule", *lines[1:], r"    \bottomrule", r"  \end{tabular}"]
    m = len(r.models)
    b = f"{r.n_resamples:,}".replace(",", "{,}")
    caption = (f"Bradley--Terry ratings ({'Elo scale' if r.scale == 'elo' else 'natural-log odds'}) of {m} models "
               f"from {res.n_battles:,} pairwise judgments on {r.n_items:,} items".replace(",", "{,}")
               + f", with {r.confidence_level * 100:.10g}\\% percentile intervals and rank intervals from $b = {b}$ "
               f"bootstrap resamples of the items (seed {r.seed}). Rank: 1 + the number of models significantly "
               f"better (two-sided, {CORRECTION_NAMES[r.correction]}-corrected over "
               f"{m * (m - 1) // 2} pairs, $\\alpha = {r.alpha:g}$) "
               f"{cite_latex(preference_keys(r.tie_model, r.correction))}.")
    wide = tabular_width(cells) > venue_named(venue).column
    return latex_table(body, caption, label, venue, small=True, wide=wide)
