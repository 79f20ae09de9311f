"""Every result as its JSON record, one function per kind (:data:`sigcore.jsonform.KINDS`): the view that the
command line's ``--json`` and ``--save``, the app's JSON downloads and a paper folder's ``STEM.json`` all print.

Field names are the text's columns in snake case (δ as ``delta``, "CI of δ" as ``delta_low``/``delta_high``, "p" as
``p_value``, "p corrected" as ``p_corrected``, "runs' share" as ``runs_share``); null stands for an undefined value
or an open end; a p is never 0 (``p_bound``: the text prints it after "<"). :func:`sigcore.jsonform.dumps` turns a
record into text, and docs/reference/json.md describes each kind; docs/reference/schemas/ holds their schemas.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..contract import P_UNDERFLOW
from ..errors import SettingsError
from ..jsonform import bounded_p, document, dumps, plain

__all__ = ["H1", "advice", "aso", "board", "claim", "claim_plan", "dumps", "family", "pair", "plan",
           "preferences", "replicability", "seeds", "sequence"]

# a family's H1 in words: what "system" is against "against" ("greater": better, in the metric's direction)
H1 = {"two-sided": "system and against differ", "greater": "system better than against",
      "less": "system worse than against"}


def pair(res, *, distribution: bool = False, **extra: Any) -> dict[str, Any]:
    """One comparison (:class:`sigcore.Result`), kind "pair": :meth:`~sigcore.Result.to_dict` with ``extra``
    (the systems' names, the columns, roles...); its δ(x⁽ⁱ⁾) with ``distribution``."""
    return {**res.to_dict(distribution=distribution), **plain(extra)}


def family(families: Sequence, **extra: Any) -> dict[str, Any]:
    """Families of comparisons (:class:`sigcore.Many`, one per metric), kind "family": each family's
    :meth:`~sigcore.Many.to_dict` with its H1 in words and ``extra`` (roles, notes)."""
    return document("family", {"families": [{**f.to_dict(), "h1": H1[f.alternative], **extra} for f in families]})


def _p_rows(rows: list[dict], floor: float) -> list[dict]:
    """Rows of a board's table with p as JSON holds it: a p of 0 (no resample as extreme) is ``floor`` (1/b), and
    its corrected p, already corrected from that floor, is a bound too (``p_bound``)."""
    out = []
    for r in rows:
        if "p_value" in r:
            r["p_value"], r["p_bound"] = bounded_p(r["p_value"], floor)
        out.append(r)
    return out


def _task_scores(res, level: float) -> list[dict]:
    """Each model's score on each task, with its percentile interval at ``level`` where the run kept what it needs
    (a ``per_task`` run, or one bootstrapped at that level; else null)."""
    try:
        low, high = res.task_intervals(level)
    except SettingsError:
        low = high = np.full(res.task_scores.shape, np.nan)
    return [{"task": t, "model": m, "score": float(res.task_scores[k, i]), "score_low": float(low[k, i]),
             "score_high": float(high[k, i])} for k, t in enumerate(res.board.tasks)
            for i, m in enumerate(res.board.models)]


def board(res, *, baseline: str | None, alpha: float, correction: str, per_task: str | None = None,
          friedman: bool = False, saved: bool = False, **settings: Any) -> dict[str, Any]:
    """Models on many tasks (:class:`sigcore.leaderboard.Leaderboard`), kind "board": the settings, a row per model
    (δ against ``baseline``; every pair on the aggregate when ``baseline`` is None), each task's δ (``per_task``:
    corrected over the "family" or within each "task"), the variance split where items have runs, the Friedman
    test (``friedman``), and with ``saved`` what `sigcore figure` draws (the b resampled aggregates)."""
    from . import board as words
    from . import board_table

    b = res.board
    floor = 1 / res.n_resamples
    head = {"metric": b.metric, "weight": res.weight, "n_resamples": res.n_resamples, "seed": res.seed,
            "alpha": alpha, "correction": correction, "alternative": "two-sided", "baseline": baseline,
            "tasks": {t: len(b.items[t]) for t in b.tasks}, "notes": list(b.notes), "p_floor": floor, **settings}
    body: dict[str, Any] = {"settings": head}
    table = res.table(baseline if baseline is not None else b.models[0], alpha, correction)
    table = table.rename(columns={"ci_low": "score_low", "ci_high": "score_high"})
    if baseline is None:  # every pair: the models' scores, ranks and groups, and no δ against one of them
        table = table.drop(columns=["baseline", "delta", "delta_low", "delta_high", "p_value", "p_corrected"])
        body["pairs"] = _p_rows(res.pairs(alpha, correction).to_dict(orient="records"), floor)
    body["models"] = _p_rows(table.to_dict(orient="records"), floor)
    body["task_scores"] = _task_scores(res, 1 - alpha)
    if per_task is not None and baseline is not None:
        tasks = res.task_table(baseline, alpha, correction, over=per_task)
        body["per_task"] = {"corrected_over": per_task,
                            "comparisons": _p_rows(tasks.to_dict(orient="records"), floor),
                            "table": board_table.frame(res, baseline, alpha, correction, per_task)
                            .to_dict(orient="records")}
    if b.epochs and baseline is not None:
        body["variance"] = words.variance_records(res, baseline)
    if friedman:
        fr = res.friedman(alpha)
        body["friedman"] = {"tasks": list(res.unit_scores()[0]), "mean_ranks": dict(zip(fr.models, fr.mean_ranks)),
                            "chi2": fr.chi2, "p_chi2": bounded_p(fr.p_chi2, P_UNDERFLOW)[0], "f": fr.f,
                            "p_value": bounded_p(fr.p_value, P_UNDERFLOW)[0], "alpha": fr.alpha,
                            "critical_difference": fr.critical_difference}
    if saved:
        body["board"] = res.to_dict()
    return document("board", body)


def claim(c, *, a: str = "A", b: str = "B", resamples: bool = False, **extra: Any) -> dict[str, Any]:
    """A claim of non-inferiority or equivalence (:class:`sigcore.claims.Claim`), kind "claim": the claim, Δ, p
    and each one-sided p (never 0: a count of 0 of b is 1/b), the bound or interval and its level, the decision,
    with the comparison it rests on under "result" (its δ(x⁽ⁱ⁾) too, with ``resamples``)."""
    floor = 1 / c.result.n_resamples if c.result.n_resamples else P_UNDERFLOW
    record = {**c.to_dict(), "a_name": a, "b_name": b, **extra,
              "result": c.result.to_dict(distribution=resamples and c.result.distribution is not None)}
    record["p_value"], record["p_bound"] = bounded_p(c.p_value, floor)
    record["p_low"] = bounded_p(c.p_low, floor)[0]
    record["p_high"] = None if c.p_high is None else bounded_p(c.p_high, floor)[0]
    return document("claim", record)


def sequence(res, *, low: float, high: float, a: str = "A", b: str = "B") -> dict[str, Any]:
    """An anytime-valid comparison (:class:`sigcore.sequential.Sequential`), kind "sequence": where it stopped,
    on which side, the fixed-n interval it is measured against, and the sequence item by item."""
    from .. import sequential

    return document("sequence", {
        "alpha": res.alpha, "margin": res.margin, "range": [low, high], "n_items": res.n, "stopped": res.stopped,
        "side": res.side, "fixed_interval": list(res.fixed), "width_ratio": res.width_ratio, "a_name": a,
        "b_name": b, "method": sequential.CITATION,
        "sequence": {"lower": res.lower, "upper": res.upper, "estimate": res.estimate}})


def seeds(res, *, a: str, b: str) -> dict[str, Any]:
    """Two systems over seeds (:class:`sigcore.SeedsResult`), kind "seeds": scores, δ, its interval with the runs
    resampled and held fixed, p (never 0), each run's score, the variance split where there is one."""
    fields = ("metric", "alternative", "alpha", "score_a", "score_b", "delta", "n_extreme", "ci_low", "ci_high",
              "ci_items", "scores_a", "scores_b", "n_items", "n_resamples", "seed", "higher_is_better")
    p, bound = bounded_p(res.p_value, res.p_floor)
    split = res.variance
    variance = None if split is None else {"items_share": split.items_share, "runs_share": 1 - split.items_share,
                                           "runs_as": split.design}
    return document("seeds", {"a_name": a, "b_name": b, **{f: getattr(res, f) for f in fields}, "p_value": p,
                              "p_bound": bound or res.n_extreme == 0, "p_text": res.p_text,
                              "significant": res.significant, "variance": variance, "signature": res.signature,
                              "signature_fields": res.signature_fields.to_dict()})


def aso(table, scores: dict, *, tau: float) -> dict[str, Any]:
    """ASO over per-seed scores (:func:`sigcore.statistics.multi_aso`'s table), kind "aso": ε_min and the
    violation ratio of every ordered pair (null on the diagonal), τ, the settings and each system's scores."""
    from ..statistics.aso import table_signature, violation_ratio

    names = list(table.index)
    ratios = {r: {c: None if r == c else float(violation_ratio(np.asarray(scores[r], float),
                                                                np.asarray(scores[c], float))) for c in names}
              for r in names}
    eps = {r: {c: None if r == c else float(table.loc[r, c]) for c in names} for r in names}
    settings = {k: v for k, v in table.attrs.items() if k != "signature"}  # (its fields, below)
    return document("aso", {"eps_min": eps, "violation_ratio": ratios, "tau": tau, **settings,
                            "scores": {k: list(map(float, v)) for k, v in scores.items()},
                            "signature": table_signature(table).text, "signature_fields": table.attrs["signature"]})


def plan(p) -> dict[str, Any]:
    """A plan of a test set's size (:class:`sigcore.power.Plan`), kind "plan": power at the pilot's n with its
    Monte-Carlo interval, the curve over n, the n that reaches the target and the smallest detectable δ."""
    def point(x) -> dict[str, Any]:
        return {"n": x.n, "power": x.power, "mc_error": x.mc_error, "power_low": x.low, "power_high": x.high,
                "exact": x.exact}
    return document("plan", {"claim": None, "test": p.test, "auto": p.auto, "alternative": p.alternative,
                             "alpha": p.alpha, "target": p.target, "delta": p.effect, "source": p.source,
                             "binary": p.binary, "current": point(p.current), "curve": [point(x) for x in p.curve],
                             "n_needed": p.n_needed, "detectable": p.detectable, "text": p.text()})


def claim_plan(p) -> dict[str, Any]:
    """How many items a claim needs (:class:`sigcore.claims.Plan`), kind "plan" with its ``claim`` and margin: the
    paired t-test's power at n items and the n that reaches the target."""
    return document("plan", {"claim": p.kind, "margin": p.margin, "test": "t", "auto": False, "alternative": "greater",
                             "alpha": p.alpha, "target": p.target, "delta": p.delta, "sd": p.sd,
                             "current": None if p.n is None else {"n": p.n, "power": p.power_at_n, "exact": True},
                             "n_needed": p.n_needed, "text": p.text()})


def advice(a, **extra: Any) -> dict[str, Any]:
    """Which test fits the data (:class:`sigcore.advisor.Advice`), kind "advice": the recommended test and why,
    the other valid ones, the unsuitable ones with why not, and the facts the advice rests on."""
    def choice(c) -> dict[str, str]:
        return {"test": c.test, "title": c.title, "reason": c.reason}
    return document("advice", {"recommended": choice(a.recommended), "acceptable": [choice(c) for c in a.acceptable],
                               "unsuitable": [choice(c) for c in a.unsuitable], "facts": _facts(a.facts),
                               "text": a.text(), **extra})


def _facts(facts: dict[str, Any]) -> dict[str, Any]:
    """The advisor's facts as JSON holds them: numbers, text, true or false; anything else as its text."""
    def fact(v):
        if isinstance(v, (bool, int, float, str)) or v is None or isinstance(v, np.generic):
            return v
        if isinstance(v, (list, tuple)):
            return [fact(x) for x in v]
        if isinstance(v, dict):
            return {str(k): fact(x) for k, x in v.items()}
        return str(v)
    return {k: fact(v) for k, v in facts.items()}


def replicability(r, *, results: Sequence | None = None, **extra: Any) -> dict[str, Any]:
    """Replicability over datasets (:class:`sigcore.statistics.replicability.Replicability`), kind
    "replicability": each dataset's one-sided p, the partial-conjunction p-values p^{u/N} (Bonferroni, Fisher), the
    estimated counts k̂ and the datasets Holm's procedure names; with ``results``, each dataset's comparison."""
    def ps(values) -> list[float]:
        return [bounded_p(v, P_UNDERFLOW)[0] for v in values]
    return document("replicability", {
        "alpha": r.alpha, "datasets": list(r.datasets), "p_values": ps(r.p_values),
        "partial_conjunction": [{"u": u, "bonferroni": bonf, "fisher": fisher}
                                for u, (bonf, fisher) in enumerate(zip(ps(r.bonferroni), ps(r.fisher)), start=1)],
        "k_bonferroni": r.k_bonferroni, "k_fisher": r.k_fisher, "identified": list(r.identified),
        "text": r.sentence(), **extra,
        **({"results": [res.to_dict() for res in results]} if results is not None else {})})


def preferences(res) -> dict[str, Any]:
    """Models rated from pairwise judgments (:class:`sigcore.judgments.Preferences`), kind "preferences": the
    scale and settings, a row per model (rating, its interval, LMArena's rank and the rank interval, battles, wins,
    ties, losses), every pair (δ in rating points, p and p corrected over all pairs: never 0, a count of 0 of b is
    1/b with ``p_bound``), the files read and their shapes, the notes and the signature."""
    r = res.ratings
    floor = 1 / r.n_resamples
    settings = {"scale": r.scale, "center": r.center, "baseline": r.baseline, "ties": r.tie_model,
                "tie_parameter": r.tie_parameter, "prior": r.prior, "n_resamples": r.n_resamples, "seed": r.seed,
                "confidence_level": r.confidence_level, "alpha": r.alpha, "correction": r.correction,
                "alternative": "two-sided", "p_floor": floor, "n_items": r.n_items, "n_battles": res.n_battles,
                "judges": res.judges, "files": dict(res.battles.shapes)}
    models = r.table().to_dict(orient="records")
    pairs = _p_rows(r.pairs.to_dict(orient="records"), floor)
    settings["reconciled"] = res.reconciled
    return document("preferences", {"scale": r.scale, "settings": settings, "models": models, "pairs": pairs,
                                    "position_bias": _position(res.position), "agreement": _agreement(res.agreement),
                                    "notes": list(res.notes), "signature": res.signature,
                                    "signature_fields": res.signature_fields().to_dict()})


def _share(share) -> dict[str, Any]:
    return {"count": share.count, "n": share.n, "value": share.value, "ci_low": share.ci_low,
            "ci_high": share.ci_high}


def _position(bias) -> dict[str, Any] | None:
    """A judge's position bias (:class:`sigcore.judgments.PositionBias`), each share with its interval; each
    judge's where there are several."""
    if bias is None:
        return None
    return {"pairs": bias.pairs, "n_items": bias.n_items, "ordered": bias.ordered,
            "inconsistent": _share(bias.inconsistent), "toward_first": _share(bias.toward_first),
            "toward_second": _share(bias.toward_second), "first_slot": _share(bias.first_slot),
            "confidence_level": bias.confidence_level, "notes": list(bias.notes),
            "by_judge": {j: _position(b) for j, b in bias.by_judge.items()}}


def _agreement(agreed) -> dict[str, Any] | None:
    """The judges' agreement (:class:`sigcore.judgments.Agreement`): κ or α with its interval, the judges, the
    units, each pair of judges' κ."""
    if agreed is None:
        return None
    return {"statistic": agreed.statistic, "value": agreed.value, "ci_low": agreed.ci_low, "ci_high": agreed.ci_high,
            "observed": agreed.observed, "expected": agreed.expected, "judges": list(agreed.judges),
            "n_units": agreed.n_units, "n_items": agreed.n_items, "confidence_level": agreed.confidence_level,
            "pairs": agreed.pairs.to_dict(orient="records"), "notes": list(agreed.notes)}
