"""What runs over seeds say to a paper: the bootstrap over items and runs (:class:`sigcore.seeds.SeedsResult`)
and Almost Stochastic Order over per-seed scores (:func:`sigcore.statistics.multi_aso`), each as a LaTeX sentence,
a booktabs table with its caption, a signature and JSON, with the systems' names."""

from __future__ import annotations

import math

import numpy as np

from ..metrics import METRIC_NAMES
from ..result import delta_alternative, p_number
from ..seeds import METHOD
from ..statistics.aso import table_signature, violation_ratio
from ..words import in_text
from . import citations
from .export import (
    SLOT_A,
    SLOT_B,
    SLOT_C,
    SLOT_P,
    fits_column,
    latex_escape,
    latex_interval,
    latex_number,
    latex_table,
    latex_template,
    p_latex,
    signature_comment,
    stem,
)
from .family import PAPER_NAMES
from .sentence import H1_PHRASES, SIDED, number, round_count
from .venues import DEFAULT as DEFAULT_VENUE

__all__ = ["sentence", "variance_sentence", "sentence_latex", "seeds_stem", "aso_stem", "table_latex", "aso_sentence",
           "aso_latex"]

_E, _T = "\x00E\x00", "\x00t\x00"  # slots of their own beside export's SLOT_A, SLOT_B, SLOT_P, SLOT_C
_EPS = r"$\varepsilon_{\min}$"


def _keys(metric: str) -> list[str]:
    return citations.keys_for_test("bootstrap", metric)


def sentence(res, *, a: str = "A", b: str = "B") -> str:
    """The verdict as :func:`sigcore.report.sentence.verdict` words a pair's, with the systems' names: the
    effect (the winner first when significant), the interval with the seeds' variance and from the items
    alone, p with its side, the method, b and seed, and the decision at α; then any Monte-Carlo caveat.

    "mlp beats forest by 0.0150 accuracy, mean over 5 runs of mlp and 5 of forest on 400 items (95% CI
    0.0007 to 0.0293 with the seeds' variance, 0.0030 to 0.0270 from the items alone); p = 0.012
    (two-sided), paired bootstrap over items and runs, b = 10,000, seed 0: significant at α = 0.05."
    """
    a, b, scale = in_text(a), in_text(b), max(abs(res.score_a), abs(res.score_b))
    metric = METRIC_NAMES.get(res.metric, res.metric)
    k_a, k_b = len(res.scores_a), len(res.scores_b)
    runs = (f"mean over {k_a:,} run{'s' * (k_a != 1)} of {a} and {k_b:,} of {b} on {res.n_items:,} "
            f"item{'s' * (res.n_items != 1)}")
    winner = (a if res.side > 0 else b) if res.significant else None
    interval = "; ".join(filter(None, ["" if res.higher_is_better else "lower is better",
                                      _intervals(res, a, b, winner, scale)]))
    interval = f" ({interval})" if interval else ""
    if res.side == 0:
        effect = f"{a} and {b} do not differ: δ = 0 {metric}, {runs}{interval}"
    elif res.significant:
        loser = b if winner == a else a
        effect = f"{winner} beats {loser} by {number(abs(res.delta), scale)} {metric}, {runs}{interval}"
    else:
        h1 = H1_PHRASES[res.alternative].format(a=a, b=b)
        effect = f"No significant evidence that {h1}: δ = {number(res.delta, scale)} {metric}, {runs}{interval}"
    sentence = (f"{effect}; {res.p_text} ({SIDED[res.alternative]}), {METHOD}, b = {res.n_resamples:,}, "
                f"seed {res.seed}: {_decision(res)}")
    return " ".join([sentence, *_caveats(res)])

def variance_sentence(res) -> str:
    """Where δ's variance comes from and what buys precision: "Of δ's variance, 35% comes from the items and
    65% from the seeds: twice the items would narrow its interval by 11%, twice the seeds by 24%." Empty for a
    metric that is not a mean over items, or with one run each."""
    s = res.variance
    if s is None or len(res.scores_a) == len(res.scores_b) == 1 or s.variance() == 0:
        return ""
    items = round(100 * s.items_share)  # the two shares printed add up to 100%
    return (f"Of δ's variance, {items}% comes from the items and {100 - items}% from the seeds: twice the items "
            f"would narrow its interval by {s.narrowing(items=2):.0%}, twice the seeds by "
            f"{s.narrowing(runs=2):.0%} (variance components, sigcore.statistics.variance).")

def _intervals(res, a: str, b: str, winner: str | None, scale: float) -> str:
    """Both intervals on the test's side, in the winner's direction when one is named, else of A − B: "95% CI
    0.0007 to 0.0293 with the seeds' variance, 0.0030 to 0.0270 from the items alone"."""
    flip = winner is not None and (winner != a) == res.higher_is_better  # the winner's margin: A − B or B − A
    side = {"greater": "lower", "less": "upper"}.get(delta_alternative(res.alternative, res.higher_is_better),
                                                      "two-sided")
    if flip:
        side = {"lower": "upper", "upper": "lower"}.get(side, side)
    shown = []
    both = [((res.ci_low, res.ci_high), " with the seeds' variance"), (res.ci_items, " from the items alone")]
    one_run_each = len(res.scores_a) == len(res.scores_b) == 1  # no seeds to resample: the two are one
    for (low, high), source in both[:1] if one_run_each else both:
        source = "" if one_run_each else source
        if flip:  # B's margin: -(A - B)
            low, high = -high, -low
        bounded = {"lower": (low,), "upper": (high,), "two-sided": (low, high)}[side]
        if not all(math.isfinite(x) for x in bounded):
            continue  # b resamples cannot reach α: no interval at 1 - α
        if side == "two-sided":
            text = f"{number(low, scale)} to {number(high, scale)}"
        elif winner is not None:
            text = f"at least {number(low if side == 'lower' else high, scale)}"
        else:
            text = f"δ ≥ {number(low, scale)}" if side == "lower" else f"δ ≤ {number(high, scale)}"
        shown.append(text + source)
    if not shown:
        return ""
    head = f"{res.level} CI" if side == "two-sided" else f"one-sided {res.level} bound:"
    return f"{head} {', '.join(shown)}"

def _decision(res) -> str:
    alpha = f"α = {res.alpha:g}"
    if res.significant:
        return f"significant at {alpha}."
    if res.side == 0 or res.p_value <= res.alpha:
        return f"not significant at {alpha}" + (": p ≤ α, but the effect is not on H1's side."
                                                 if res.p_value <= res.alpha else ".")
    if not res.reachable:
        need = math.ceil(1 / res.alpha - 1e-9)
        return (f"not significant: this test cannot reach {alpha} (the smallest p with b = {res.n_resamples:,} "
                f"is {p_number(res.p_floor)}; b ≥ {need:,} could reach it, 10,000 is usual).")
    return f"not significant at {alpha}."

def _caveats(res) -> list[str]:
    if not res.reachable or res.settled:
        return []
    low, high = res.p_interval
    more = res.resamples_to_settle()
    settle = (f"about {round_count(more)} resamples in all would settle it" if more else
              "p equals α, so more resamples are needed to settle it")
    return [f"Monte-Carlo uncertainty: p's 95% interval ({p_number(low, res.alpha)} to "
            f"{p_number(high, res.alpha)}) contains α; {settle}."]


def sentence_latex(res, *, a: str = "A", b: str = "B") -> str:
    r"""The result's sentence (:func:`sentence`) in LaTeX: names escaped, δ, α and b in math mode,
    the method cited with ``\citep``."""
    text = sentence(res, a=SLOT_A, b=SLOT_B).replace(res.p_text, SLOT_P).replace(METHOD, f"{METHOD} {SLOT_C}", 1)
    return latex_template(text, {SLOT_A: latex_escape(a), SLOT_B: latex_escape(b), SLOT_P: p_latex(res.p_text),
                                 SLOT_C: citations.cite_latex(_keys(res.metric))})


def seeds_stem(res, a: str, b: str) -> str:
    """Runs over seeds' stem: ``accuracy-mlp-vs-forest-runs`` (:func:`sigcore.report.export.stem`)."""
    return stem(res.metric, a, "vs", b, "runs")


def aso_stem(table) -> str:
    """ASO's stem: ``aso-mlp-forest-svm`` (its first four systems)."""
    return stem("aso", *list(table.index)[:4])


def table_latex(res, *, a: str = "A", b: str = "B", venue: str = DEFAULT_VENUE, label: str | None = None) -> str:
    """A booktabs table: each system's mean score over its runs with the range over runs, then δ with its
    interval from the items and runs and from the items alone; the caption on ``venue``'s side."""
    scale = max(abs(res.score_a), abs(res.score_b)) or 1.0

    def num(x: float) -> str:
        return latex_number(x, scale)
    one_sided = "" if res.alternative == "two-sided" else " (one-sided)"
    delta = ("+" if res.delta > 0 else "") + num(res.delta)
    down = "" if res.higher_is_better else r" ($\downarrow$)"  # the arrow where lower is better, as a pair's table
    header = ["System", "Runs", latex_escape(PAPER_NAMES.get(res.metric, res.metric)) + down, "Range over runs"]
    systems = [[latex_escape(name), str(len(runs)), num(mean), f"{num(min(runs))}--{num(max(runs))}"]
               for name, mean, runs in ((a, res.score_a, res.scores_a), (b, res.score_b, res.scores_b))]
    deltas = [["", "", "$\\delta$", f"{latex_escape(res.level)} CI{one_sided}"],
              ["Items + runs", "", delta, latex_interval(res.ci_low, res.ci_high, scale)],
              ["Items alone", "", "", latex_interval(*res.ci_items, scale)]]

    def lines(rows: list[list[str]]) -> list[str]:
        return ["    " + " & ".join(cells) + r" \\" for cells in rows]
    body = [r"  \setlength{\tabcolsep}{4pt}", r"  \begin{tabular}{lrrc}", r"    \toprule", *lines([header]),
            r"    \midrule", *lines(systems), r"    \midrule", *lines(deltas[:1]), r"    \midrule", *lines(deltas[1:]),
            r"    \bottomrule", r"  \end{tabular}", signature_comment(res.signature)]
    metric = METRIC_NAMES.get(res.metric, res.metric)
    metric += "" if res.higher_is_better else " (lower is better)"
    metric = metric[0].upper() + metric[1:] if res.metric in METRIC_NAMES else metric  # a custom name as given
    caption = (f"{metric} of {SLOT_A} and {SLOT_B}, the mean over their runs (seeds) on "
               f"{res.n_items:,} items, with the range over runs; δ = {SLOT_A} − {SLOT_B} with its {res.level} "
               f"interval "
               f"from the {METHOD} {SLOT_C} (items + runs: the seeds' variance included) and from the items alone "
               f"(the runs held fixed); {SLOT_P} ({SIDED[res.alternative]}), b = {res.n_resamples:,}, seed {res.seed}.")
    caption = latex_template(caption, {SLOT_A: latex_escape(a), SLOT_B: latex_escape(b), SLOT_P: p_latex(res.p_text),
                                       SLOT_C: citations.cite_latex(_keys(res.metric))})
    return latex_table(body, caption, label or f"tab:{seeds_stem(res, a, b)}", venue, small=True,
                       wide=not fits_column([header, *systems, *deltas], venue))  # long names: both columns




# ---------------------------------------------------------------- ASO


def _dominant(table, tau: float) -> list[tuple[str, str, float]]:
    return [(r, c, float(table.loc[r, c])) for r in table.index for c in table.columns
            if r != c and table.loc[r, c] < tau]


def _seeds(scores: dict) -> str:
    counts = sorted({len(v) for v in scores.values()})
    return f"{counts[0]:,} runs per system" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,} runs per system"


def _how(table) -> str:
    k = table.attrs["num_comparisons"]
    corrected = f" (Bonferroni over {k} pairs)" if k > 1 else ""
    return (f"confidence {table.attrs['confidence_level']:.4g}{corrected}, b = {table.attrs['n_bootstrap']:,} and "
            f"seed {table.attrs['seed']}")


def aso_sentence(table, scores: dict, *, tau: float = 0.2, latex: bool = False) -> str:
    """Which systems are almost stochastically dominant over which (ε_min < τ), with ε_min, the violation ratio it
    bounds and the number of runs; or that none is, with the smallest ε_min. LaTeX with ``latex``."""
    names = list(table.index)
    slot = {n: f"\x00n{i}\x00" for i, n in enumerate(names)}  # names and symbols stand aside while it is converted
    eps_word, tau_text = (_E, _T) if latex else ("ε_min", f"τ = {tau:g}")

    def eps(r: str, c: str, e: float) -> str:
        ratio = float(violation_ratio(np.asarray(scores[r], float), np.asarray(scores[c], float)))
        return f"{eps_word} = {e:.3f}, violation ratio {ratio:.3f}"
    found = _dominant(table, tau)
    head = f"Over {_seeds(scores)}, ASO {SLOT_C}, at {_how(table)}, "
    if found:
        parts = [f"{slot[r]} {'stochastically' if e == 0 else 'almost stochastically'} dominant over {slot[c]} "
                 f"({eps(r, c, e)})" for r, c, e in found]
        text = head + "finds " + "; ".join(parts) + f"; no other pair has {eps_word} below {tau_text}."
    else:
        r, c, e = min(((r, c, float(table.loc[r, c])) for r in names for c in names if r != c), key=lambda t: t[2])
        text = (head + f"finds no system almost stochastically dominant over another at {tau_text}: the smallest "
                f"{eps_word}, {slot[r]} over {slot[c]}, is {eps(r, c, e).split(' = ', 1)[1]}.")
    if latex:
        return latex_template(text, {slot[n]: latex_escape(n) for n in names} | {
            SLOT_C: citations.cite_latex(citations.ASO), _E: _EPS, _T: f"$\\tau = {tau:g}$"})
    for n in names:
        text = text.replace(slot[n], in_text(n))
    return text.replace(SLOT_C, citations.cite_text(citations.ASO))


def aso_latex(table, scores: dict, *, tau: float = 0.2, venue: str = DEFAULT_VENUE, label: str | None = None) -> str:
    """ε_min of every pair (row better than column) as a booktabs table, those below τ in bold."""
    names = list(table.index)
    values = [["---" if r == c or math.isnan(e := table.loc[r, c]) else
               (f"\\textbf{{{e:.3f}}}" if e < tau else f"{e:.3f}") for c in names] for r in names]
    rows = [[_EPS] + [latex_escape(n) for n in names]] + [[latex_escape(r), *v] for r, v in zip(names, values)]
    numbered = not fits_column(rows, venue)  # long names head their columns by number: (1) MLP ... (1) (2)
    if numbered:
        rows = [[_EPS] + [f"({i})" for i in range(1, len(names) + 1)]] + [
            [f"({i}) {latex_escape(r)}", *v] for i, (r, v) in enumerate(zip(names, values), 1)]
    lines = ["    " + " & ".join(cells) + r" \\" for cells in rows]
    body = [r"  \setlength{\tabcolsep}{4pt}", f"  \\begin{{tabular}}{{l{'c' * len(names)}}}", r"    \toprule",
            lines[0], r"    \midrule", *lines[1:], r"    \bottomrule", r"  \end{tabular}",
            signature_comment(table_signature(table))]
    caption = latex_template(
        f"{_E} of “row better than column” by Almost Stochastic Order {SLOT_C} over {_seeds(scores)} ({_how(table)}); "
        f"bold: below {_T}, the row almost stochastically dominant over the column"
        + ("; columns numbered as the rows." if numbered else "."),
        {SLOT_C: citations.cite_latex(citations.ASO), _E: _EPS, _T: f"$\\tau = {tau:g}$"})
    return latex_table(body, caption, label or f"tab:{aso_stem(table)}", venue, small=True,
                       wide=not fits_column(rows, venue))


