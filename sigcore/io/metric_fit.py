"""Which metrics fit the data, the most natural first, and the refusal of one that does not; then the data as the
engine takes them under the metric chosen (:func:`engine_inputs`).

The suggestions are what the command line runs without ``--metric`` and what the app's Metric box offers, through
one front door (:func:`sigcore.front.prepare`): a log's own per-sample scorers first, so that a model's score is the
one its log reports; span F1 for tags; BLEU and chrF for translations; MAE, MSE and RMSE for regression outputs;
accuracy and the F1 family for labels; the mean for per-item scores.
"""

from __future__ import annotations

import functools
import unicodedata

from ..errors import InputError, SettingsError
from ..numbers import number
from ..words import listed, shown
from .aligned import Aligned, AlignedMany
from .roles import Role, correctness_named, label_reason, number_kind, number_role, regression_reason
from .values import distinct, is_blank, is_number, is_numeric

__all__ = ["REGRESSION_METRICS", "LABEL_METRICS", "suggest_metrics", "suggest_many_metrics", "metric_question",
           "right_wrong", "reading", "fitting", "disjoint_labels", "engine_inputs", "score_inputs", "many_inputs"]

REGRESSION_METRICS = ("mae", "mse", "rmse")
LABEL_METRICS = ("accuracy", "macro_f1", "micro_f1", "weighted_f1", "f1", "precision", "recall")
_FEW_LABELS = 50  # more distinct gold values than this are answers (exact match), not a label set


def suggest_metrics(aligned: Aligned, systems: list[list] | None = None) -> list[str]:
    """The metrics that fit these data, the most natural first.

    Tag sequences: span F1. Per-item 0/1 without gold, named like correctness: accuracy (McNemar fits), then the
    mean. Other per-item numbers without gold: the mean; anything else without gold: accuracy,
    whose refusal says that gold is missing and how to give it. Multi-word text (translations, generations),
    mostly distinct: BLEU, chrF, exact match. Numbers read as regression outputs (of ``systems``, by default A and
    B: :func:`sigcore.io.roles.regression_reason`): MAE, MSE, RMSE. Labels, a few words long or not ("I want to book a
    flight" as an intent): accuracy and the F1 family (binary P/R/F1 with two labels), then the errors where the
    labels are numbers (ratings 1 to 5). Logs (Inspect, lm-eval): their own per-sample scorers first, as ``many``
    takes them, so that a model's score is the one its log reports, not one recomputed from its answers.
    """
    fields = list(aligned.scores)
    computed = _recomputed(aligned, systems or [aligned.a, aligned.b])
    return fields + [m for m in computed if m not in fields]


def _recomputed(aligned: Aligned, systems: list[list]) -> list[str]:
    """The metrics computed from gold and outputs that fit these data, the most natural first."""
    if aligned.gold is None:
        if right_wrong(aligned):  # 0/1 named like correctness: right/wrong items, against a gold of 1s
            return ["accuracy", "mean"]
        # a system of numbers with a few gone wrong (nan, inf, a typo), or of numbers beside one written otherwise
        # (1_000), is scores: the mean names the bad one and its line, where accuracy would ask for gold
        scores = any(values and sum(map(is_numeric, values)) >= 0.9 * len(values) for values in
                     ([v for v in system[:200] if not is_blank(v)] for system in (aligned.a, aligned.b)))
        return ["mean" if scores else "accuracy"]
    sample = [v for v in aligned.gold[:200] if v is not None]
    if sample and all(isinstance(v, (list, tuple)) for v in sample):
        return ["span_f1"]
    texts = [v for v in sample if isinstance(v, str)]
    if (texts and sum(len(v.split()) > 2 for v in texts) > len(texts) / 2
            and len(set(texts)) > len(texts) / 2):  # references differ item by item; labels repeat
        return ["bleu", "chrf", "exact_match"]
    if regression_reason(aligned.gold, systems):
        return list(REGRESSION_METRICS)
    labels = {str(v).strip() for v in distinct([*aligned.gold, *aligned.a, *aligned.b])}
    binary = ["f1", "precision", "recall"] if len(labels) == 2 else []
    numeric = number_kind([*aligned.gold[:500], *aligned.a[:500], *aligned.b[:500]])[0] is not None
    metrics = ["accuracy", "macro_f1", "micro_f1", "weighted_f1", *binary, "exact_match",
               *(REGRESSION_METRICS if numeric else ())]
    return metrics


def suggest_many_metrics(data: AlignedMany) -> list[str]:
    """The metrics that fit several systems' outputs, the most natural first: those of the first two, every system
    counting in whether numbers read as regression outputs."""
    first, second = list(data.systems)[:2]
    return suggest_metrics(Aligned(data.gold, data.systems[first], data.systems[second], first, second,
                                   outputs=data.outputs[:2]), list(data.systems.values()))


def metric_question(aligned: Aligned | AlignedMany) -> str | None:
    """Why averaging these outputs as per-item scores (the mean, which :func:`suggest_metrics` offers for numbers
    without gold) may be the wrong question: they look like class labels (:func:`sigcore.io.roles.label_reason`).
    None where the suggestion stands."""
    if aligned.gold is not None:
        return None
    systems = [aligned.a, aligned.b] if isinstance(aligned, Aligned) else list(aligned.systems.values())
    values = [v for system in systems for v in system[:500]]
    if not values or not all(map(is_number, values)):
        return None
    reason = label_reason(values, list(aligned.outputs))
    return None if reason is None else (f"the outputs look like class labels ({reason}), and there is no gold to "
                                        "score them against")


def right_wrong(aligned: Aligned | AlignedMany) -> bool:
    """Whether outputs without gold are each item's right (1) or wrong (0), as their names say (correct, acc, em,
    solved...): they are compared as accuracy against a gold of 1s, so that McNemar's test fits."""
    systems = [aligned.a, aligned.b] if isinstance(aligned, Aligned) else list(aligned.systems.values())
    values = [v for system in systems for v in system]
    return (aligned.gold is None and bool(values) and all(is_number(v) and number(v) in (0.0, 1.0) for v in values)
            and correctness_named(aligned.outputs))


def reading(data: Aligned | AlignedMany) -> Role | None:
    """How the data's numeric gold and outputs read (regression outputs or answers, and why), as one more line of
    the roles every entry point shows (:func:`sigcore.io.roles.number_role`); None where they are not numbers."""
    systems = [data.a, data.b] if isinstance(data, Aligned) else list(data.systems.values())
    return number_role(data.gold, systems)


def fitting(gold: list | None, systems: dict[str, list], metric: str, suggested) -> None:
    """Refuse a metric that would score something else than the data hold: the mean of the predictions where a gold
    column was found (it would average the predictions and ignore gold), or labels' exact matches on regression
    outputs (:func:`sigcore.io.roles.regression_reason`: every item "wrong" by a rounding); the refusal names the
    metrics that fit (``suggested()``)."""
    if gold is None:
        return
    if metric == "mean":
        raise SettingsError("the mean averages per-item scores, and these are predictions with their gold: the mean "
                            "of the predictions would ignore gold", hint=f"Choose a metric that scores the predictions "
                                                                          f"against gold: {', '.join(suggested())}.")
    why = regression_reason(gold, list(systems.values())) if metric in (*LABEL_METRICS, "exact_match") else None
    if why:
        raise SettingsError(f"{metric} counts predictions equal to gold, and these read as regression outputs ({why}): "
                            "a prediction off by 0.001 would count as wrong as one off by 1,000",
                            hint=f"Choose a metric of the errors: {', '.join(REGRESSION_METRICS)} (lower is better). "
                                 "If they are answers to match exactly, give each system's right (1) or wrong (0) per "
                                 "item, named like correctness (a_correct), and compare those as accuracy.")


def disjoint_labels(gold: list | None, systems: dict[str, list]) -> None:
    """Refuse a system none of whose labels is one of gold's: then every item is wrong by spelling, not by the
    system (POS for pos, True for true, café in NFD for café in NFC), and "B beats A, p = 1e-24" would be the
    files' doing. Says when the labels agree once case or Unicode normalisation is ignored."""
    if gold is None or len(gold) < 10:  # a handful of items may disagree entirely by chance
        return
    labels = {str(v).strip() for v in distinct(gold)} - {""}
    if not 2 <= len(labels) <= _FEW_LABELS:
        return
    for name, outputs in systems.items():
        own = {str(v).strip() for v in distinct(outputs)} - {""}
        if len(own) < 2 or own & labels:  # one label of its own: an always-wrong system may be just that
            continue
        nfc = functools.partial(unicodedata.normalize, "NFC")
        why = next((f"they agree {when}" for when, same in (
            ("when case is ignored", str.casefold), ("after Unicode normalisation (NFC)", nfc),
            ("after Unicode normalisation and case folding", lambda x, nfc=nfc: nfc(x).casefold()))
            if set(map(same, own)) & set(map(same, labels))), None)
        raise InputError(f"none of the labels of {shown(str(name))} is one of gold's ({listed(sorted(own), 6)} against "
                         f"{listed(sorted(labels), 6)}), so every item would count as wrong"
                         + (f"; {why}" if why else ""),
                         hint="Write the systems' labels as gold writes them (the same spelling, case and encoding); "
                              "or, if they are per-item scores, choose the mean.")


def engine_inputs(aligned: Aligned, metric: str) -> tuple[list | None, list, list, str]:
    """(gold, a, b, metric) as ``sigcore.compare`` takes them: a per-item score field of the files (lm-eval's
    ``acc``; it wins over a registry metric of the same name, as it is what the harness reports), else the
    outputs under a metric of the registry."""
    if metric in aligned.scores:
        return score_inputs(aligned, metric)
    if metric in ("accuracy", "exact_match") and right_wrong(aligned):
        return [1] * aligned.n, [int(number(v)) for v in aligned.a], [int(number(v)) for v in aligned.b], metric
    systems = {n: v for n, v in zip(aligned.display_names, (aligned.a, aligned.b))}
    fitting(aligned.gold, systems, metric, lambda: suggest_metrics(aligned))
    if metric in LABEL_METRICS:
        disjoint_labels(aligned.gold, systems)
    return aligned.gold, aligned.a, aligned.b, metric


def score_inputs(aligned: Aligned, name: str) -> tuple[list | None, list, list, str]:
    """(gold, a, b, metric) for ``sigcore.compare`` on a per-item score field such as lm-eval's ``acc``.

    0/1 fields are right/wrong per item, so they are compared as accuracy (McNemar fits); others as a mean.
    """
    a, b = aligned.scores[name]
    if all(v in (0, 1) for v in a + b):
        return [1] * len(a), [int(v) for v in a], [int(v) for v in b], "accuracy"
    return None, a, b, "mean"


def many_inputs(data: AlignedMany, metric: str) -> tuple[list | None, dict[str, list]]:
    """(gold, systems) as ``sigcore.compare_many`` takes them: right/wrong outputs without gold (:func:`right_wrong`)
    against a gold of 1s, as :func:`engine_inputs` takes a pair."""
    if metric in ("accuracy", "exact_match") and right_wrong(data):
        n = len(next(iter(data.systems.values())))
        return [1] * n, {name: [int(number(v)) for v in values] for name, values in data.systems.items()}
    fitting(data.gold, data.systems, metric, lambda: suggest_many_metrics(data))
    if metric in LABEL_METRICS:
        disjoint_labels(data.gold, data.systems)
    return data.gold, data.systems
