"""What a family of comparisons (:class:`sigcore.Many`) says to a reader: a plain-text table for the terminal,
with each system's score and interval, δ against the baseline (or the pair) with its interval, p and the
corrected p, and the ranking in clusters when every pair was tested."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..errors import SettingsError
from ..many import Many
from ..metrics import METRIC_NAMES
from ..result import p_number
from ..statistics.closed_form import WILCOXON_EXACT_MAX
from ..words import in_text
from . import citations
from .export import latex_escape, latex_interval, latex_number, latex_table, latex_template, p_latex, stem
from .sentence import TEST_NAMES, number, test_name
from .venues import DEFAULT as DEFAULT_VENUE

__all__ = ["CORRECTION_NAMES", "SIDES", "test_title", "heading", "OFF_SCALE", "off_scale", "forest_caption",
           "HEATMAP_SCREEN", "heatmap_font", "heatmap_caption", "sentence", "floor_warning", "text", "PAPER_NAMES",
           "COLUMNS", "latex", "family_stem", "table_columns", "signed"]

CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "hochberg": "Hochberg",
                    "bh": "Benjamini-Hochberg", "by": "Benjamini-Yekutieli",
                    "maxt": "Westfall-Young"}  # maxt: the max statistic over shared resamples, step-down
_LATEX_SIDES = {"two-sided": "two-sided", "greater": "one-sided, H1: better", "less": "one-sided, H1: worse"}
SIDES = {"two-sided": "two-sided", "greater": "one-sided, H1: system better than against",
         "less": "one-sided, H1: system worse than against"}


def test_title(many: Many) -> str:
    """The family's test as a sentence names it, with the definition it follows: "paired bootstrap
    (sacrebleu-compatible)", whose p differs 2-3x from SLP3's on the same resamples; as each comparison's sentence
    names it where they all agree ("Wilcoxon signed-rank test (normal approximation)", "exact permutation test"),
    and how many used the normal approximation where some Wilcoxon comparisons did and others did not."""
    results = list(many.results.values())
    first = results[0]
    names = {test_name(r) for r in results}
    title = names.pop() if len(names) == 1 else TEST_NAMES[many.test]
    if many.test == "wilcoxon" and names:  # some comparisons exact, others approximated
        approximated = sum(not r.exact for r in results)
        title += (f" (normal approximation for {approximated} of the {len(results)} comparisons, those with more than "
                  f"{WILCOXON_EXACT_MAX} non-zero differences; exact for the others)")
    return title + (f" ({first.compat}-compatible)" if first.compat else "")


def heading(many: Many) -> str:
    """One line that says what was done: metric, test, b and seed, side, correction over how many tests, α."""
    first = next(iter(many.results.values()))
    resamples = f" (b = {first.n_resamples:,}, seed {first.seed})" if first.resampled else ""
    better = "" if many.higher_is_better else " (lower is better)"
    return (f"{METRIC_NAMES.get(many.metric, many.metric)}{better}: {test_title(many)}{resamples}, "
            f"{SIDES[many.alternative]}, {CORRECTION_NAMES[many.correction]} over {_count(many)}, α = {many.alpha:g}")


_BASE = "\x00base\x00"  # the baseline's name while a caption is converted to LaTeX


OFF_SCALE = 3  # the axis reaches this many times as far from 0 as the farthest close call


def off_scale(many: Many) -> dict[str, int]:
    """The systems a forest plot draws at the edge of its axis, by side (+1, −1): significant ones whose whole
    interval (or δ) lies more than OFF_SCALE times farther from 0 than the farthest non-significant comparison
    reaches, so that the close calls, the ones a reader needs, are not squeezed into a sliver by weak systems.
    None when every comparison is significant (no close call to make room for)."""
    if many.baseline is None:
        return {}
    reach, near = {}, {}
    for s in (s for s in many.systems if s != many.baseline):
        delta, (low, high) = many.results[(s, many.baseline)].delta, many.delta_interval(s, many.baseline)
        ends = [v for v in (low, high, delta) if math.isfinite(v)]
        reach[s] = max(abs(v) for v in ends)
        near[s] = 0.0 if min(ends) <= 0 <= max(ends) else min(abs(v) for v in ends)
    close = [reach[s] for s in reach if not many.significant(s, many.baseline)]
    limit = OFF_SCALE * max(close, default=math.inf)
    return {s: 1 if many.results[(s, many.baseline)].delta > 0 else -1 for s in reach
            if many.significant(s, many.baseline) and near[s] > limit > 0}


def forest_caption(many: Many, *, latex: bool = False) -> str:
    """The forest plot's caption (:func:`sigcore.report.family_figures.forest`): what is drawn, with which test,
    what the filled and hollow marks mean, and why a bar is not the corrected decision; in LaTeX with ``latex``."""
    first = next(iter(many.results.values()))
    metric = METRIC_NAMES.get(many.metric, many.metric)
    significant = sum(many.significant(a, b) for (a, b) in many.results)
    bars = all(math.isfinite(v) for pair in many.results for v in many.delta_interval(*pair))
    lower = "" if many.higher_is_better else (f" {metric[0].upper() + metric[1:]} is lower-is-better: δ below 0 is "
                                               f"a system better than {_BASE}, and the best is drawn on top.")
    text = (f"δ = {metric}(system) − {metric}({_BASE}) on {first.n_items:,} items ({_how(many)}).{lower} Filled: "
            f"significant after {CORRECTION_NAMES[many.correction]}'s correction ({significant} of "
            f"{len(many.results)}); hollow: not. "
            + (f"Each bar is that comparison's own {first.confidence_level:.0%} interval of δ, not corrected for "
               f"the {len(many.results)} comparisons, so a bar may miss 0 while the corrected p is above α."
               if bars else f"The {test_title(many)} gives no interval of δ itself, so no bars are drawn."))
    far = off_scale(many)
    names = {f"\x00far{k}\x00": s for k, s in enumerate(far)}
    if far:
        scale = max(abs(v) for v in many.scores.values()) or 1.0
        listed = ", ".join(f"{key} (δ = {signed(many.results[(s, many.baseline)].delta, scale)})"
                           for key, s in names.items())
        text += f" Off the scale, drawn as an arrow at its edge with δ beside the name: {listed}."
    return _caption(text, many.baseline, latex, names)


HEATMAP_SCREEN = 820  # px: the Many page's figure in a 1280 px window beside the sidebar, where its cells must read


def heatmap_font(many: Many) -> float | None:
    """The size (px) at which every cell's δ of the heatmap (:func:`sigcore.report.family_figures.heatmap`) fits
    its cell on the page (:data:`HEATMAP_SCREEN` wide, less the names, the colour bar and the margins): 11, or down
    to 9; None where even 9 px would not fit, and the cells show only the * of a significant pair."""
    from .style import ems, label, plain

    scale = max(abs(v) for v in many.scores.values()) or 1.0
    names = max(ems(plain(label(s))) for s in many.systems) * 12 + 10  # the y axis's names, 12 px text
    cell = (HEATMAP_SCREEN - 40 - 80 - names) / len(many.systems)  # margins 20 + 20; the colour bar, its ticks 80
    longest = max((ems(signed(r.delta, scale) + ("*" if many.significant(a, b) else ""))
                   for (a, b), r in many.results.items()), default=1)  # a pair's text is as long either way round
    return next((size for size in (11, 10, 9) if size * longest + 8 <= cell), None)  # 8 px between two


def heatmap_caption(many: Many, *, latex: bool = False) -> str:
    """The heatmap's caption (:func:`sigcore.report.family_figures.heatmap`): each cell's δ, the order, the marks."""
    first = next(iter(many.results.values()))
    metric = METRIC_NAMES.get(many.metric, many.metric)
    significant = sum(many.significant(a, b) for (a, b) in many.results)
    shown = "" if heatmap_font(many) else " Each cell's colour is its δ (too many systems for the values to fit)."
    text = (f"δ = {metric}(row) − {metric}(column) on {first.n_items:,} items ({_how(many)}), systems by "
            f"{metric}, best first{'' if many.higher_is_better else ' (the lowest; δ below 0: the row better)'}.{shown}"
            f" *: significant after {CORRECTION_NAMES[many.correction]}'s correction "
            f"over the {len(many.results)} pairs tested ({significant} significant)."
            + ("" if many.baseline is None else f" Only the pairs with {_BASE} were tested; the others are blank."))
    return _caption(text, many.baseline, latex)


def sentence(many: Many, *, latex: bool = False) -> str:
    """The family's finding as a paper's sentence, as :func:`sigcore.report.verdict` says a pair's: against a
    baseline, which systems are significantly better and which worse after the correction, over how many
    comparisons; for all pairs, how many pairs differ and the top of the ranking. LaTeX with ``latex``."""
    metric = METRIC_NAMES.get(many.metric, many.metric)
    over = (f"after {CORRECTION_NAMES[many.correction]}'s correction over {_count(many)} ({_how(many)}, "
            f"α = {many.alpha:g})")
    names = list(many.systems)
    slot = {name: f"\x00n{i}\x00" for i, name in enumerate(names)}  # names stand aside while it is converted
    if many.baseline is not None:
        base = slot[many.baseline]
        better = [s for s in names if s != many.baseline and many.better(s, many.baseline)]
        worse = [s for s in names if s != many.baseline and many.better(many.baseline, s)]
        others = len(names) - 1 - len(better) - len(worse)
        if not better and not worse:
            text = f"No system differs significantly from {base} on {metric} {over}."
        else:
            parts = []
            if better:
                only = "only " if len(better) == 1 and others + len(worse) else ""
                parts.append(f"{only}{_and([slot[s] for s in better])} "
                             f"{'is' if len(better) == 1 else 'are'} significantly better than {base}")
            if worse:
                parts.append(f"{_and([slot[s] for s in worse])} {'is' if len(worse) == 1 else 'are'} significantly "
                             f"worse{'' if better else f' than {base}'}")
            text = f"On {metric}, {over}: {'; '.join(parts)}"  # "; ": "better than X and Y" would read as both
            rest = "the other one does not" if others == 1 else f"the other {others} do not"
            text += f"; {rest} differ significantly from {base}." if others else "."
    else:
        ranking = many.ranking()
        differ = sum(many.significant(a, b) for (a, b) in many.results)
        top = [s for s, c in zip(ranking["system"], ranking["cluster"]) if c == 1]
        text = f"On {metric}, {differ} of the {len(many.results)} pairs of systems differ significantly {over}"
        if len(top) < len(names):
            text += (f"; {_and([slot[s] for s in top])} {'is' if len(top) == 1 else 'are'} significantly better than "
                     f"every system below {'it' if len(top) == 1 else 'them'}.")
        else:
            text += "; no system is significantly better than all the others."
    if latex:
        return latex_template(text, {slot[n]: latex_escape(n) for n in names})
    for name in names:
        text = text.replace(slot[name], in_text(name))
    return text


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _how(many: Many) -> str:
    first = next(iter(many.results.values()))
    resamples = f", b = {first.n_resamples:,}, seed {first.seed}" if first.resampled else ""
    return f"{test_title(many)}{resamples}, {SIDES[many.alternative]}"


def _caption(text: str, baseline: str | None, latex: bool, names: dict[str, str] | None = None) -> str:
    """``text`` with the baseline's (and ``names``' slots') names filled in, as LaTeX with ``latex``."""
    names = {_BASE: baseline or "", **(names or {})}
    if latex:
        return latex_template(text, {slot: latex_escape(name) for slot, name in names.items()})
    for slot, name in names.items():
        text = text.replace(slot, in_text(name))
    return text


def floor_warning(many: Many) -> str | None:
    """Why no comparison can be significant when b is too small for the correction to bring any p under α."""
    smallest, needed = many.floor()
    if needed is None:
        return None
    return (f"No comparison can be significant at these settings: with b = {many.n_resamples:,}, the smallest "
            f"corrected p {CORRECTION_NAMES[many.correction]}'s correction can give over {len(many.results)} "
            f"comparisons is {p_number(smallest, many.alpha)} > α = {many.alpha:g}. Raise b to at least {needed:,}.")


def text(many: Many) -> str:
    """The comparisons as an aligned table, significant rows marked *, then the ranking for all pairs (and, first,
    a warning when b is too small for any comparison to be significant)."""
    scale = max(abs(v) for v in many.scores.values()) or 1.0
    level = f"{1 - many.alpha:.0%}"
    rows = [["system", "against", "score", f"{level} CI", "δ", f"{level} CI of δ", "p", "p corrected", ""]]
    for (a, b), res in many.results.items():
        low, high = many.score_intervals[a]
        rows.append([in_text(a), in_text(b), number(many.scores[a], scale), _interval(low, high, scale),
                     signed(res.delta, scale),
                     _interval(*many.delta_interval(a, b), scale, with_sign=True), *many.p_texts(a, b),
                     "*" if many.significant(a, b) else ""])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    warning = floor_warning(many)
    lines = [heading(many), *([f"warning: {warning}"] if warning else []), ""]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines += ["", f"* significant after {CORRECTION_NAMES[many.correction]}'s correction at α = {many.alpha:g}; "
                  "δ = score(system) − score(against)" + ("." if many.higher_is_better else
                                                          "; lower is better: δ below 0, the system better.")]
    if many.baseline is None:
        ranking = many.ranking()
        lines += ["", "Ranking (clusters: every system above a line is significantly better than every one below):"]
        names = {name: in_text(name) for name in ranking["system"]}
        previous, width = None, max(len(name) for name in names.values())
        for row in ranking.itertuples():
            if previous is not None and row.cluster != previous:
                lines.append("  " + "-" * 40)
            previous = row.cluster
            ranks = f"{row.rank_low}" if row.rank_low == row.rank_high else f"{row.rank_low}-{row.rank_high}"
            lines.append(f"  {ranks:>5}  {names[row.system]:<{width}}  {number(row.score, scale)}")
    return "\n".join(lines)


# how a paper's table heads the metrics (sentence.METRIC_NAMES is for running text: "accuracy", "macro-averaged F1")
PAPER_NAMES = {"accuracy": "Acc.", "exact_match": "EM", "precision": "P", "recall": "R", "f1": "F1",
               "macro_f1": "macro-F1", "micro_f1": "micro-F1", "weighted_f1": "weighted-F1", "span_f1": "span F1",
               "bleu": "BLEU", "chrf": "chrF", "mean": "Score", "mae": "MAE", "mse": "MSE", "rmse": "RMSE"}


COLUMNS = ("score", "delta", "ci", "p")  # what a family's table may show for each metric, in this order


def latex(families: list[Many], venue: str = DEFAULT_VENUE, columns: Sequence[str] | None = None,
          label: str | None = None) -> str:
    r"""A booktabs ``table`` for a paper (needs ``\usepackage{booktabs}``): a row per system, one group of
    ``columns`` per metric. Against a baseline, the baseline's row comes first and the others follow by the first
    metric's score; a score (or, without the score, δ) is marked $^\dagger$ when significantly better than the
    baseline and $^\ddagger$ when significantly worse; ``columns`` (default: score, delta and ci) may add δ, its
    interval and the corrected p beside the mark. For all pairs, the rows follow the first metric's ranking with a
    rule between its clusters and a rank column (only scores: δ has no one reference there). One caption line
    defines the marks, the columns and the test, on ``venue``'s side (:func:`sigcore.report.export.latex_table`)."""
    first = families[0]
    if any(f.systems != first.systems or f.baseline != first.baseline for f in families):
        raise ValueError("the families must compare the same systems the same way")
    pairs = first.baseline is None
    columns = table_columns(columns, pairs, len(families))
    ranking = first.ranking() if pairs else None
    names = list(ranking["system"]) if pairs else [first.baseline] + first.best_first(
        [s for s in first.systems if s != first.baseline])
    level = latex_escape(_level(first))
    heads = {"score": None, "delta": r"$\delta$", "ci": f"{level} CI",
             "p": f"$p$ ({CORRECTION_NAMES[first.correction]})"}
    metric_heads = [latex_escape(PAPER_NAMES.get(f.metric, f.metric))  # a custom metric's name escaped
                    + ("" if f.higher_is_better else r" ($\downarrow$)") for f in families]  # where lower is better
    rows, previous = [], None
    for i, name in enumerate(names):
        cells = [latex_escape(name)]
        if pairs:
            low, high, cluster = (int(v) for v in ranking.iloc[i][["rank_low", "rank_high", "cluster"]])
            if previous is not None and cluster != previous:
                rows.append(r"    \midrule")
            previous = cluster
            cells.append(f"{low}" if low == high else f"{low}--{high}")
        for f in families:
            cells += _cells(f, name, columns, pairs)
        rows.append("    " + " & ".join(cells) + r" \\")
    lead = 2 if pairs else 1
    if len(columns) == 1:
        header = ["    " + " & ".join(["System"] + (["Rank"] if pairs else []) + metric_heads) + r" \\"]
    else:
        span = len(columns)
        tops = [f"\\multicolumn{{{span}}}{{c}}{{{m}}}" for m in metric_heads]
        rules = " ".join(f"\\cmidrule(lr){{{lead + 1 + k * span}-{lead + (k + 1) * span}}}"
                         for k in range(len(families)))
        subs = [heads[c] or "Score" for c in columns] * len(families)
        header = ["    " + " & ".join([""] * lead + tops) + r" \\", f"    {rules}",
                  "    " + " & ".join(["System"] + (["Rank"] if pairs else []) + subs) + r" \\"] if len(families) > 1 \
            else ["    " + " & ".join(["System"] + [metric_heads[0] if c == "score" else heads[c] for c in columns])
                  + r" \\"]
    tests = list(dict.fromkeys(f.test for f in families))  # with test="auto" each metric may take its own
    how = "; ".join(_latex_test(next(f for f in families if f.test == t), families if len(tests) > 1 else None)
                    for t in tests)
    how += (f", {_LATEX_SIDES[first.alternative]}, {CORRECTION_NAMES[first.correction]}-corrected over "
            f"{_count(first)}, $\\alpha = {first.alpha:g}$")
    cite = citations.cite_latex(list(dict.fromkeys(k for t in tests for k in citations.family_keys(
        t, [f.metric for f in families if f.test == t], first.correction))))
    if pairs:
        named = latex_escape(METRIC_NAMES.get(first.metric, first.metric))
        caption = (f"Systems by {named}, in clusters: every system above a "
                   f"rule is significantly better than every one below it ({how}) {cite}; rank: the ranks the tests "
                   "allow.")
    else:
        base = latex_escape(first.baseline)
        caption = (f"$^\\dagger$/$^\\ddagger$: significantly better/worse than the baseline, {base} ({how}) {cite}."
                   + _column_notes(columns, base, level, first))
    align = ("lc" if pairs else "l") + "".join(_ALIGN[c] for c in columns) * len(families)
    narrow = [r"  \setlength{\tabcolsep}{4pt}"] if len(columns) > 1 else []  # δ and its interval fit a column
    body = [*narrow, f"  \\begin{{tabular}}{{{align}}}", r"    \toprule", *header, r"    \midrule", *rows,
            r"    \bottomrule", r"  \end{tabular}"]
    return latex_table(body, caption, label or f"tab:{family_stem(families)}", venue, small=True)


def family_stem(families: list[Many]) -> str:
    """A family's stem: ``bleu-chrf-vs-lium-nmt``, ``accuracy-vs-all-pairs`` (:func:`sigcore.report.export.stem`)."""
    return stem("-".join(f.metric for f in families), "vs", families[0].baseline or "all-pairs")


def table_columns(columns: Sequence[str] | None, pairs: bool, metrics: int = 1) -> tuple[str, ...]:
    """The columns a family's table shows per metric, in :data:`COLUMNS`' order (default: score, δ and its interval
    against a baseline on one metric; the score alone for every pair, or for several metrics, where δ and its
    interval per metric would not fit); refused before any run where they cannot be shown (δ against no one
    reference, for every pair)."""
    columns = tuple(columns or (("score",) if pairs or metrics > 1 else ("score", "delta", "ci")))
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown or not columns or len(set(columns)) < len(columns):
        raise SettingsError(f"cannot make a table of the columns {', '.join(columns) or 'none'}",
                            hint=f"Choose one or more of {', '.join(COLUMNS)}, each once.")
    if pairs and columns != ("score",):
        raise SettingsError("a table of every pair shows scores and ranks: δ, its interval and p have no single "
                            "reference system there", hint="Compare against a baseline for them, or show the score.")
    return tuple(c for c in COLUMNS if c in columns)  # the order the caption explains them in


_ALIGN = {"score": "r", "delta": "r", "ci": "c", "p": "r"}


def _level(many: Many) -> str:
    return f"{next(iter(many.results.values())).confidence_level * 100:.10g}%"


def _column_notes(columns: tuple[str, ...], base: str, level: str, many: Many) -> str:
    """What the δ, interval and p columns are: a reader must not take a pair's interval for the corrected decision."""
    notes = []
    if "delta" in columns:
        notes.append(f"$\\delta$: the system's score minus {base}'s")
    if "ci" in columns:
        notes.append(f"CI: that comparison's own {level} interval of $\\delta$, not corrected for the "
                     f"{_count(many)}")
    if "p" in columns:
        notes.append("$p$: corrected")
    return (" " + "; ".join(notes) + ".") if notes else ""


def _cells(many: Many, name: str, columns: tuple[str, ...], pairs: bool) -> list[str]:
    """One metric's cells of a row: the score (marked against the baseline), δ, its interval, the corrected p."""
    scale = max(abs(v) for v in many.scores.values()) or 1.0
    base = name == many.baseline
    marked = "score" if "score" in columns else "delta"
    out = []
    for column in columns:
        if column == "score":
            cell = latex_number(many.scores[name], scale)
        elif base:  # the baseline against itself: nothing to show
            out.append("")
            continue
        elif column == "delta":
            delta = many.results[(name, many.baseline)].delta
            cell = ("+" if delta > 0 else "") + latex_number(delta, scale)  # a difference shows its sign
        elif column == "ci":
            cell = latex_interval(*many.delta_interval(name, many.baseline), scale)
        else:
            cell = p_latex(many.p_texts(name, many.baseline)[1])
        out.append(cell + ("" if pairs or column != marked else _mark(many, name)))
    return out


def _latex_test(many: Many, families: list[Many] | None) -> str:
    """"paired bootstrap, $b = 10{,}000$, seed 0", and, when the families' tests differ, the metrics it was for."""
    first = next(iter(many.results.values()))
    how = test_title(many)  # exact: no b
    if first.resampled:
        b = f"{many.n_resamples:,}".replace(",", "{,}")  # 10{,}000 in math mode
        how += f", $b = {b}$, seed {many.seed}"
    if families is None:
        return how
    metrics = ", ".join(latex_escape(PAPER_NAMES.get(f.metric, f.metric)) for f in families if f.test == many.test)
    return f"{metrics}: {how}"


def _mark(many: Many, name: str) -> str:
    if name == many.baseline or not many.significant(name, many.baseline):
        return r"\phantom{$^\ddagger$}"  # unmarked numbers keep their digits in line with marked ones
    return r"$^\dagger$" if many.results[(name, many.baseline)].side > 0 else r"$^\ddagger$"


def _count(many: Many) -> str:
    n = len(many.results)
    return f"{n} comparison{'s' * (n != 1)}"


def signed(x: float, scale: float) -> str:
    """δ with its sign, a minus sign (−) for negatives, as many decimals as the scores need; "" for nan."""
    if math.isnan(x):
        return ""
    shown = number(x, scale)
    return shown.replace("-", "\u2212") if shown.startswith("-") else shown if x == 0 else "+" + shown


def _interval(low: float, high: float, scale: float, *, with_sign: bool = False) -> str:
    if math.isnan(low):
        return ""
    show = (lambda x: signed(x, scale)) if with_sign else (lambda x: number(x, scale))
    return f"[{show(low)}, {show(high)}]"
