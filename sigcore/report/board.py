"""The words of a board of models on many tasks (:class:`sigcore.leaderboard.Leaderboard`), one text for the
command line and the app: what was computed, and how to read its ranks and groups."""

from __future__ import annotations

import math

from ..leaderboard import Leaderboard
from ..result import p_cell, p_number, p_text
from ..statistics.multiple import floor_reach
from ..words import counted, in_text
from .family import CORRECTION_NAMES

__all__ = ["heading", "legend", "floor_warnings", "per_task_heading", "friedman", "variance_heading",
           "variance_records", "variance_rows", "VARIANCE_HEADER", "CLUSTERED_VARIANCE_HEADER", "variance_header",
           "sentence", "settled", "separation", "model_rows", "per_task_rows", "delta_cells", "signed",
           "figure_caption"]


def _grouped(res: Leaderboard) -> str:
    """How the board's groups count in the mean of the task scores: each as one task."""
    if res.weight != "tasks":
        return ""
    return "".join(f", {g} ({len(tasks)} tasks, by their {'items' if how == 'items' else 'scores'}) as one"
                   for g, (tasks, how) in res.board.groups.items())


def heading(res: Leaderboard, baseline: str | None, alpha: float, correction: str) -> str:
    """The metric, the models and tasks with their sizes, the aggregate, the bootstrap and the correction
    (``baseline`` None: every pair)."""
    board = res.board
    n = len(board.models)
    sizes = ", ".join(f"{in_text(t)} {len(board.items[t]):,}" for t in board.tasks)
    against = (f"every pair, two-sided, {CORRECTION_NAMES[correction]} over {n * (n - 1) // 2}" if baseline is None
               else f"δ against {in_text(baseline)}, two-sided, {CORRECTION_NAMES[correction]} over {n - 1}")
    return (f"{board.metric} of {n} models on {counted(len(board.tasks), 'task')} (items: {sizes}); "
            f"aggregate: the mean of {'the task scores' if res.weight == 'tasks' else 'all items'}{_grouped(res)}; "
            f"paired bootstrap stratified by task{_clustered(res)}, b = {res.n_resamples:,}, seed {res.seed}; "
            f"{against}, α = {alpha:g}")


def _clustered(res: Leaderboard) -> str:
    board = res.board
    if not board.cluster:
        return ""
    k = sum(len(set(c.tolist())) for c in board.clusters.values())
    return f", its items in {k:,} clusters by {board.cluster} resampled whole"


def legend(res: Leaderboard, baseline: str | None, alpha: float, correction: str) -> str:
    """How to read the ranks, the groups and the marks."""
    n, name = len(res.board.models), CORRECTION_NAMES[correction]
    if baseline is None:
        return (f"δ = the first model's aggregate minus the other's, in score order; * significant after {name}'s "
                f"correction over the {counted(n * (n - 1) // 2, 'pair')} at α = {alpha:g}")
    return (f"rank: 1 + the models significantly better ({counted(n * (n - 1) // 2, 'pair')}, {name}); rank "
            f"interval: the ranks a model takes on the middle {1 - alpha:.0%} of the resamples; group (where they "
            "part): every model of a group is significantly better than every model of the groups below it (rank "
            "intervals come from each resample's order, ranks and groups from the corrected tests); * significant "
            f"against {in_text(baseline)} after {name}'s correction at α = {alpha:g}")


def floor_warnings(res: Leaderboard, baseline: str | None, alpha: float, correction: str, over: str | None = None,
                   comparisons: int = 0) -> list[str]:
    """Where b is too small for the correction to bring any p under α, whatever the data: the δs against
    ``baseline`` (None: every pair), the tie groups (every pair), and with ``over`` the ``comparisons`` per task."""
    n, name = len(res.board.models), CORRECTION_NAMES[correction]
    pairs = n * (n - 1) // 2
    families = [(f"No δ against {baseline} can be significant", n - 1, "comparisons")] if baseline is not None else []
    families.append(("The tie groups cannot part (every model stays in one group)" if baseline is not None else
                     "No pair can be significant and the tie groups cannot part", pairs, "pairs"))
    if over is not None:
        families.append(("No per-task δ can be significant", comparisons if over == "family" else n - 1,
                         "comparisons" if over == "family" else "models on each task"))
    warnings = []
    if correction == "maxt":  # its smallest p is 1/b whatever the family's size: the point of it
        return warnings
    for what, m, unit in families:
        smallest, needed = floor_reach([1 / res.n_resamples] * max(m, 1), correction, alpha, res.n_resamples)
        if needed is not None:
            warnings.append(f"{what} at these settings: with b = {res.n_resamples:,}, the smallest corrected p "
                            f"{name}'s correction can give over {m:,} {unit} is {p_number(smallest, alpha)} > "
                            f"α = {alpha:g}. Raise b to at least {needed:,}.")
    return warnings


def per_task_heading(res: Leaderboard, baseline: str, correction: str, over: str, comparisons: int) -> str:
    n_others, name = len(res.board.models) - 1, CORRECTION_NAMES[correction]
    how = (f"over the family of {comparisons} comparisons ({len(res.board.tasks)} tasks x {n_others} models)"
           if over == "family" else f"within each task, over {n_others} models")
    return f"per task: δ against {baseline}, two-sided, {name} {how}"


def friedman(res: Leaderboard, alpha: float) -> str:
    """The Friedman test over the tasks with Nemenyi's critical difference, and what it asks, in one paragraph."""
    fr = res.friedman(alpha)
    k, n = len(fr.models), fr.n_tasks
    ranks = ", ".join(f"{m} {r:.2f}" for r, m in sorted(zip(fr.mean_ranks, fr.models)))
    grouped = ", a group as one" if res.board.groups else ""
    return (f"Friedman test over {n} tasks{grouped} (Demšar 2006): Friedman's χ² = {fr.chi2:.2f}, Iman and "
            f"Davenport's F = {fr.f:.2f} with ({k - 1}, {(k - 1) * (n - 1)}) df, p = {p_number(fr.p_value, alpha)}; "
            f"mean ranks: {ranks}; Nemenyi's critical difference at α = {alpha:g}: {fr.critical_difference:.2f} "
            f"(two models differ when their mean ranks are that far apart). It asks whether the models rank alike "
            f"across tasks, ignoring "
            f"the tasks' sizes and the margins, so that with few tasks it can seldom tell models apart; the board "
            f"asks whether a difference on these tasks' items is more than their chance.")


def variance_heading(res: Leaderboard, baseline: str) -> str:
    c = res.board.cluster
    if c:
        return (f"where the variance of δ against {baseline} comes from, on the aggregate: the clusters (by {c}, "
                f"resampled whole), the items within them, or the runs (read as epochs, each a fresh draw of every "
                f"item's answer), and how much narrower δ's interval would be with twice the items (in twice the "
                f"clusters, each as large), twice the items in each cluster, or twice the runs "
                f"(sigcore.statistics.variance)")
    return (f"where the variance of δ against {baseline} comes from, on the aggregate: the items, or the runs (read as "
            f"epochs, each a fresh draw of every item's answer), and how much narrower δ's interval would be with "
            f"twice the items or twice the runs (sigcore.statistics.variance)")


def variance_records(res: Leaderboard, baseline: str) -> list[dict]:
    """Per model against ``baseline`` on the aggregate, under the names of :func:`variance_header`'s columns: the
    items' share of Var(δ) (with clusters, the clusters' and the items' within them), the runs' share, and how much
    narrower δ's interval would be with 2× the items, 2× the runs (and 2× the items per cluster); then Var(δ)'s
    terms (``var_clusters``, ``var_items``, ``var_runs``: the runs' own, ``var_item_runs``: each item's luck in
    each run). The shares are None where δ does not vary at all."""
    out = []
    for m in res.board.models:
        if m != baseline:
            s = res.variance(m, baseline)
            clustered = res.board.cluster is not None
            shares = ({"clusters_share": s.clusters_share, "items_share": s.items_share - s.clusters_share}
                      if clustered else {"items_share": s.items_share})
            out.append({"model": m, "baseline": baseline, "runs_as": s.design, **shares,
                        "runs_share": 1 - s.items_share, "narrower_2x_items": s.narrowing(items=2),
                        **({"narrower_2x_items_per_cluster": s.narrowing(cluster_size=2)} if clustered else {}),
                        "narrower_2x_runs": s.narrowing(runs=2),
                        **({"var_clusters": s.clusters} if clustered else {}), "var_items": s.items,
                        "var_runs": s.runs, "var_item_runs": s.error})
    return out


def variance_rows(res: Leaderboard, baseline: str) -> list[list[str]]:
    """Var(δ)'s split as the command line and the app print it, in percent, under :func:`variance_header`."""
    rows = []
    for m in (m for m in res.board.models if m != baseline):
        s = res.variance(m, baseline)
        if math.isnan(s.items_share):  # δ does not vary at all (every item's difference the same in every run)
            rows.append([m, *["—"] * (len(variance_header(res)) - 1)])
            continue
        items = round(100 * s.items_share)  # the shares printed add up to 100%
        if res.board.cluster:
            clusters = round(100 * s.clusters_share)
            rows.append([m, f"{clusters}%", f"{items - clusters}%", f"{100 - items}%",
                         f"{s.narrowing(items=2):.0%}", f"{s.narrowing(cluster_size=2):.0%}",
                         f"{s.narrowing(runs=2):.0%}"])
        else:
            rows.append([m, f"{items}%", f"{100 - items}%", f"{s.narrowing(items=2):.0%}",
                         f"{s.narrowing(runs=2):.0%}"])
    return rows


VARIANCE_HEADER = ["model", "items' share", "runs' share", "2x items: CI narrower by", "2x runs: CI narrower by"]
CLUSTERED_VARIANCE_HEADER = ["model", "clusters' share", "items' share (within)", "runs' share",
                             "2x items: CI narrower by", "2x items per cluster: CI narrower by",
                             "2x runs: CI narrower by"]


def variance_header(res: Leaderboard) -> list[str]:
    return CLUSTERED_VARIANCE_HEADER if res.board.cluster else VARIANCE_HEADER


def sentence(res: Leaderboard, baseline: str, alpha: float, correction: str, *, latex: bool = False) -> str:
    """The finding for a paper's text: the best model on the aggregate with its interval, and every model against
    ``baseline``, significantly better, worse or neither after the correction, with δ, its interval and the
    corrected p, as the board's table decides them (a p no resample reached is "< 1/b"). With more than one
    comparison, each interval of δ is said to be uncorrected and each p corrected, beside them: the interval is
    the uncorrected test's dual, so that one may exclude 0 where the corrected p is above α."""
    from .export import latex_escape

    def name(model: str) -> str:
        return latex_escape(model) if latex else in_text(model)
    minus = "$-$" if latex else "\u2212"

    def number(x: float) -> str:
        return f"{x:.4f}".replace("-", minus)
    table = res.table(baseline, alpha, correction)
    best = table.iloc[0]
    level = f"{1 - alpha:.0%}".replace("%", r"\%" if latex else "%")
    floor = 1 / res.n_resamples
    n = len(res.board.models)
    # several comparisons: the interval is each one's own, uncorrected, and p the corrected one; said beside them
    interval, corrected = ("uncorrected ", "corrected ") if n > 2 else ("", "")
    sides: dict[str, list[str]] = {"better": [], "worse": [], "neither": []}
    for r in table[table.model != baseline].itertuples(index=False):
        bound = r.p_value == 0  # no resample as extreme: p < 1/b, and its correction a bound too
        p = p_text(max(r.p_corrected, floor) if bound else r.p_corrected, alpha, bound=bound, name=f"{corrected}p")
        side = "neither" if r.p_corrected > alpha else "better" if r.delta > 0 else "worse"
        sides[side].append(f"{name(r.model)} (δ = {number(r.delta)}, {interval}{level} CI {number(r.delta_low)} to "
                           f"{number(r.delta_high)}, {p})".replace("δ", r"$\delta$" if latex else "δ"))
    board = res.board
    metric = latex_escape(board.metric) if latex else board.metric
    parts = [f"Of {n} models on {counted(len(board.tasks), 'task')} ({metric}, "
             f"the mean of {'the task scores' if res.weight == 'tasks' else 'all items'}), {name(best.model)} "
             f"scores highest ({number(best.score)}, {level} CI {number(best.ci_low)} to {number(best.ci_high)})."]
    said = {"better": "significantly better than", "worse": "significantly worse than",
            "neither": "not significantly different from"}
    against = [f"{_listed(models, ', ')} {'is' if len(models) == 1 else 'are'} {said[side]} {name(baseline)}"
               for side, models in sides.items() if models]
    parts.append(_listed(against, "; ") + ".")
    parts.append(f"Paired bootstrap stratified by task{_clustered(res)}, b = {res.n_resamples:,}, seed {res.seed}, "
                 f"two-sided, {CORRECTION_NAMES[correction]}'s correction over {n - 1} "
                 f"comparison{'s' * (n > 2)} at α = {alpha:g}.".replace("α", r"$\alpha$" if latex else "α"))
    return " ".join(parts)


def settled(res: Leaderboard, alpha: float, correction: str) -> str:
    """What the board settles, in one sentence (:func:`separation`)."""
    order = list(res.table(res.board.models[0], alpha, correction).model)
    return separation("The board separates", order, res.arena_ranks(alpha, correction),
                      res.pairs(alpha, correction), alpha, correction)


def separation(subject: str, order: list[str], ranks: dict, pairs, alpha: float, correction: str) -> str:
    """What a ranking of models settles, in one sentence (a board's, the ratings of judgments'): how many pairs the
    corrected tests separate, which models share the top rank, and what the rank means (LMArena's rank: 1 + the
    models significantly better). ``subject``: "The board separates"; ``order``: the models best first;
    ``pairs``: each pair's δ and p corrected."""
    n, separated = len(ranks), int(((pairs.p_corrected <= alpha) & (pairs.delta != 0)).sum())
    top = [m for m in order if ranks[m] == 1]
    lead = (f"{in_text(top[0])} is significantly better than every other model" if len(top) == 1 else
            f"the top {len(top)} ({_listed([in_text(m) for m in top], ', ')}) are not separated from one another"
            if len(top) < n else "no model is separated from another")
    return (f"{subject} {separated:,} of {counted(len(pairs), 'pair')} ({CORRECTION_NAMES[correction]}'s "
            f"correction, α = {alpha:g}): {lead}; a model's rank is 1 + the number of models significantly better "
            "than it.")


def model_rows(table, baseline: str | None, alpha: float, floor: float) -> tuple[list[str], list[list[str]]]:
    """The board's columns and each model's cells as every text view shows them (the terminal, Markdown, HTML):
    the rank (LMArena's) first, the tie groups only where they part (one group of every model says nothing the
    ranks do not), and with ``baseline`` δ against it (``floor``: 1/b, what a p no resample reached is below)."""
    groups = table.group.nunique() > 1
    header = ["model", "rank", "score", f"{1 - alpha:.0%} CI", "rank interval", *(["group"] * groups)]
    header += ["δ", "CI of δ", "p", "p corrected"] if baseline is not None else []
    rows = [[r.model, str(r.rank), f"{r.score:.4f}", f"[{r.ci_low:.4f}, {r.ci_high:.4f}]",
             f"{r.rank_low}" if r.rank_low == r.rank_high else f"{r.rank_low}-{r.rank_high}",
             *([str(r.group)] * groups),
             *(() if baseline is None else ["(baseline)", "", "", ""] if r.model == baseline else
               delta_cells(r, alpha, floor))] for r in table.itertuples(index=False)]
    return header, rows


def per_task_rows(tasks, alpha: float, floor: float) -> tuple[list[str], list[list[str]]]:
    """Each task's δ against the baseline (:meth:`sigcore.leaderboard.Leaderboard.task_table`), its columns and
    cells as the command line's ``--per-task`` and the app show them."""
    return (["task", "model", "δ", "CI of δ", "p", "p corrected"],
            [[r.task, r.model, *delta_cells(r, alpha, floor)] for r in tasks.itertuples(index=False)])


def delta_cells(row, alpha: float, floor: float) -> list[str]:
    """δ, its interval, p and the corrected p (starred when significant) as the board shows them: a p no resample
    reached is "< 1/b" (``floor``), and so is what the correction made of it."""
    def p(value: float) -> str:
        bound = row.p_value == 0
        return p_cell(max(value, floor) if bound else value, alpha, bound=bound)
    return [signed(row.delta), f"[{signed(row.delta_low)}, {signed(row.delta_high)}]", p(row.p_value),
            p(row.p_corrected) + (" *" if row.p_corrected <= alpha else "")]


def signed(x: float) -> str:
    """A board's δ: four decimals, its sign always, a minus sign (−)."""
    return f"{x:+.4f}".replace("-", "\u2212")


def _listed(items: list[str], separator: str) -> str:
    """a, b and c; or, with "; ", a; b; and c (the parts hold commas of their own)."""
    if len(items) == 1:
        return items[0]
    return separator.join(items[:-1]) + (" and " if len(items) == 2 and separator == ", " else
                                         f"{separator.rstrip()} and ") + items[-1]


def figure_caption(res: Leaderboard, kind: str, alpha: float, correction: str, *, latex: bool = False,
                   shown: int | None = None) -> str:
    """The caption of a board's figure (:func:`sigcore.report.board_figures.styled`): what is drawn, from what,
    and the tie groups or bars it shows, named (as :meth:`Leaderboard.groups`, :meth:`Leaderboard.cliques` and
    Nemenyi's test decide them); in LaTeX with ``latex``. ``shown``: how many models the rank figure draws, where
    a page holds only the top ones (:func:`sigcore.report.style.rows_on_page`)."""
    from .board_figures import KINDS, nemenyi_bars
    from .export import latex_escape, latex_template

    if kind not in KINDS:
        raise ValueError(f"a board's figure is one of {', '.join(KINDS)}, not {kind!r}")
    board, name = res.board, CORRECTION_NAMES[correction]
    n, slots = len(board.models), {}

    def named(models) -> str:  # user text in slots, filled in after the rest is LaTeX
        out = []
        for m in models:
            slots.setdefault(m, f"\x00n{len(slots)}\x00")
            out.append(slots[m])
        return _listed(out, ", ")
    tested = f"paired bootstrap, {name}'s correction over {counted(n * (n - 1) // 2, 'pair')}, α = {alpha:g}"
    resamples = f"b = {res.n_resamples:,} paired resamples stratified by task"
    metric = named([board.metric])
    if kind == "ranks":
        groups = res.groups(alpha, correction)
        members = [[m for m in res.table(board.models[0], alpha, correction).model if groups[m] == g]
                   for g in sorted(set(groups.values()))]
        said = (f"all {n} models form one group, the data not settling their order" if len(members) == 1 else
                "; ".join(f"group {g}, {named(ms)}" for g, ms in enumerate(members, start=1)))
        text = (f"Ranks of {n} models on {metric} ({_aggregate(res)}): each model's rank by its aggregate (dot) and "
                f"the ranks it takes on the middle {1 - alpha:.0%} of {resamples} (bar). Tie groups, each of whose "
                f"models is significantly better than every model of the groups below ({tested}): {said}.")
        if shown is not None and shown < n:
            text += f" Only the top {shown} of the {n} models fit a page; the table lists them all."
    elif kind == "cd":
        bars = res.cliques(alpha, correction)
        said = "; ".join(named(b) for b in bars) if bars else "none, every pair differing"
        text = (f"Mean rank of each of {n} models on {metric} ({_aggregate(res)}) over {resamples} (1 = best). A "
                f"bar joins models no two of which differ significantly on the aggregate ({tested}): {said}.")
    else:
        fr = res.friedman(alpha)
        bars = nemenyi_bars(fr)
        said = "; ".join(named(b) for b in bars) if bars else "none"
        verdict = ("finds that they do not all rank alike" if fr.p_value <= alpha else
                   "finds no difference, so the bars only describe the ranks")
        grouped = ", a group of tasks as one" if board.groups else ""
        text = (f"Mean rank of each of {n} models on {metric} over {fr.n_tasks} tasks{grouped} (1 = best). A bar "
                f"joins models whose mean ranks are within Nemenyi's critical difference, CD = "
                f"{fr.critical_difference:.2f} at α = {alpha:g}, drawn below (Demšar 2006): {said}. The Friedman "
                f"test over the tasks {verdict} (Iman-Davenport, p = {p_number(fr.p_value, alpha)}).")
    if latex:
        return latex_template(text, {slot: latex_escape(m) for m, slot in slots.items()}).replace(
            "Demšar", r"Dem\v{s}ar")
    for m, slot in slots.items():
        text = text.replace(slot, in_text(m))
    return text


def _aggregate(res: Leaderboard) -> str:
    return f"the mean of {'the task scores' if res.weight == 'tasks' else 'all items'}"
