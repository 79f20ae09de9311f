"""What a family of comparisons (:class:`sigcore.Many`) says to a reader: a plain-text table for the terminal,
with each system's score and interval, δ against the baseline (or the pair) with its interval, p and the
corrected p, and the ranking in clusters when every pair was tested."""

from __future__ import annotations

import math

from ..many import Many
from ..result import p_number
from .sentence import METRIC_NAMES, TEST_NAMES, number

CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "hochberg": "Hochberg",
                    "bh": "Benjamini-Hochberg", "by": "Benjamini-Yekutieli"}
SIDES = {"two-sided": "two-sided", "greater": "H1: first better", "less": "H1: second better"}


def heading(many: Many) -> str:
    """One line that says what was done: metric, test, b and seed, side, correction over how many tests, α."""
    first = next(iter(many.results.values()))
    resamples = f" (b = {first.n_resamples:,}, seed {first.seed})" if first.resampled else ""
    return (f"{METRIC_NAMES.get(many.metric, many.metric)}: {TEST_NAMES[many.test]}{resamples}, "
            f"{SIDES[many.alternative]}, {CORRECTION_NAMES[many.correction]} over {len(many.results)} "
            f"comparisons, α = {many.alpha:g}")


def text(many: Many) -> str:
    """The comparisons as an aligned table, significant rows marked *, then the ranking for all pairs."""
    scale = max(abs(v) for v in many.scores.values()) or 1.0
    level = f"{1 - many.alpha:.0%}"
    rows = [["system", "against", "score", f"{level} CI", "δ", f"{level} CI of δ", "p", "p corrected", ""]]
    for (a, b), res in many.results.items():
        low, high = many.score_intervals[a]
        rows.append([a, b, number(many.scores[a], scale), _interval(low, high, scale), _signed(res.delta, scale),
                     _interval(res.ci_low, res.ci_high, scale, signed=True),
                     res.p_text.removeprefix("p = ").replace("p < ", "< "),
                     p_number(many.adjusted[(a, b)], many.alpha), "*" if many.significant(a, b) else ""])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [heading(many), ""] + ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines += ["", f"* significant after {CORRECTION_NAMES[many.correction]}'s correction at α = {many.alpha:g}; "
                  "δ = score(system) − score(against)."]
    if many.baseline is None:
        ranking = many.ranking()
        lines += ["", "Ranking (clusters: every system above a line is significantly better than every one below):"]
        previous, width = None, max(len(name) for name in ranking["system"])
        for row in ranking.itertuples():
            if previous is not None and row.cluster != previous:
                lines.append("  " + "-" * 40)
            previous = row.cluster
            ranks = f"{row.rank_low}" if row.rank_low == row.rank_high else f"{row.rank_low}-{row.rank_high}"
            lines.append(f"  {ranks:>5}  {row.system:<{width}}  {number(row.score, scale)}")
    return "\n".join(lines)


def _signed(x: float, scale: float) -> str:
    shown = number(x, scale)
    return shown if shown.startswith("-") or x == 0 else "+" + shown


def _interval(low: float, high: float, scale: float, *, signed: bool = False) -> str:
    if math.isnan(low):
        return ""
    show = (lambda x: _signed(x, scale)) if signed else (lambda x: number(x, scale))
    return f"[{show(low)}, {show(high)}]"
