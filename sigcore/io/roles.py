"""Which file or column is what: gold and baseline by their names, class labels told from per-item scores.

Every guess made here is shown to the user (``Aligned.roles``, printed by the command line, shown in the app's
preview) and a guess the names cannot settle is not made: :class:`Ambiguous` says what to choose, among what,
and with which flag (the app asks the same question in a select box).

- A file is gold when a word of its name (between dots, dashes, underscores or spaces; any case, any extension,
  ``.gz``) is one of :data:`GOLD_WORDS` and none is a system's word (``ref-system.txt`` is a system):
  ``gold.txt``, ``newstest2017.ref.de.gz``, ``references.jsonl``, ``labels.csv``.
- A system is the baseline when its name says so (baseline; base as its first word, not bert-base; ref-system).
- Numbers without gold are per-item scores to average only when nothing says they are class labels: a column
  or file named like predictions, or few distinct whole numbers without a score's name, is a question.
- Numbers with gold are class labels when they are few distinct whole numbers (:data:`FEW_LABELS`); other numbers
  (some value not whole, or many whole values) are answers matched exactly when a system's predictions equal gold on
  at least :data:`ANSWERS` of the items (GSM8K's "3.5", "12"), else regression outputs, scored by their errors (MAE):
  :func:`number_reading`, the one rule.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SettingsError
from ..numbers import number

__all__ = ["GOLD_WORDS", "GOLD_NAMES", "FEW_LABELS", "SAMPLE", "ANSWERS", "Ambiguous", "Role", "words", "gold_named",
           "gold_files", "baseline_named", "baseline_index", "system_of", "names_of", "correctness_named",
           "label_reason", "number_kind", "number_reading", "READINGS", "number_role", "regression_reason"]

GOLD_WORDS = ("gold", "ref", "refs", "reference", "references", "target", "targets", "label", "labels",
              "answer", "answers", "truth", "groundtruth", "expected")
_SYSTEM_WORDS = ("system", "systems", "sys", "model", "pred", "preds", "prediction", "predictions", "output",
                 "outputs", "hyp", "hypothesis", "baseline", "base")
GOLD_NAMES = "gold, ref, reference, target, labels, answers, truth or y_true"  # how messages name GOLD_WORDS
# names that say a column (or file) holds per-item scores, or a system's predicted labels
_SCORE_WORDS = ("score", "scores", "correct", "acc", "accuracy", "em", "exact", "match", "f1", "bleu", "chrf",
                "rouge", "bertscore", "comet", "rating", "ratings", "reward", "loss", "prob", "probability",
                "logprob", "likelihood", "metric", "value", "quality")
_LABEL_WORDS = ("pred", "preds", "prediction", "predictions", "predicted", "label", "labels", "class", "classes",
                "tag", "tags", "category", "y", "yhat")
FEW_LABELS = 20  # whole numbers taking at most this many values look like class ids, not scores
SAMPLE = 1000  # items whose values decide how numbers read
ANSWERS = 0.1  # a share of items (a tenth): numbers a system's predictions equal this often are answers


class Ambiguous(SettingsError):
    """The data leave a role open: ``question`` asks it, ``choices`` are the answers, ``flag`` gives one on the
    command line (the app asks in a select box instead)."""

    def __init__(self, what: str, *, question: str, choices: Sequence[str], flag: str, hint: str | None = None,
                 file: str | None = None):
        self.question, self.choices, self.flag = question, tuple(choices), flag
        listed = ", ".join(choices)
        super().__init__(what, file=file, hint=hint or f"{question} Say it with {flag} (one of: {listed}).")


@dataclass(frozen=True)
class Role:
    """One decision about the data: ``role`` (gold, A, B, id, group, pairing) is ``source`` because ``why``."""

    role: str
    source: str
    why: str = ""

    def __str__(self) -> str:
        return f"{self.role} = {self.source}" + (f" ({self.why})" if self.why else "")


def words(name: str) -> list[str]:
    """The words of a file or column name, lower case, without folders, ``.gz`` and the extension's dots."""
    base = Path(str(name)).name.lower()
    return [w for w in re.split(r"[.\-_\s]+", base) if w]


def gold_named(name: str) -> bool:
    """Whether a file's name says it holds the gold labels or references (``y_true.txt`` too, scikit-learn's)."""
    ws = words(name)
    said = any(w in GOLD_WORDS for w in ws) or any(a == "y" and b == "true" for a, b in zip(ws, ws[1:]))
    return said and not any(w in _SYSTEM_WORDS for w in ws)


def gold_files(files: Sequence[str]) -> list[int]:
    """The positions of the files named like gold ones (:func:`gold_named`)."""
    return [i for i, file in enumerate(files) if gold_named(file)]


def baseline_named(name: str) -> bool:
    """Whether a system's (file's or column's) name says it is the baseline: baseline anywhere in it, base as its
    first word (``base.txt``, ``base_preds.csv``; not ``bert-base``, where it is the model's size), ref-system."""
    ws = words(name)
    return ("baseline" in str(Path(str(name)).name).lower() or (bool(ws) and ws[0] == "base")
            or any(a in ("ref", "reference") and b in ("system", "sys") for a, b in zip(ws, ws[1:])))


def baseline_index(names: Sequence[str]) -> int | None:
    """The one system named like a baseline, if exactly one is."""
    found = [i for i, name in enumerate(names) if baseline_named(name)]
    return found[0] if len(found) == 1 else None


def system_of(run: str) -> str:
    """The system a run belongs to, from its name: ``mlp_seed3``, ``mlp-3``, ``mlp.run2`` and ``mlp3`` are mlp."""
    return re.sub(r"[-_. ]*(?:seed|run|s|r)?[-_. ]*\d+$", "", run, flags=re.IGNORECASE) or run


def names_of(runs_a: Sequence[str], runs_b: Sequence[str]) -> tuple[str, str]:
    """The systems' names from their runs' names, when each side's runs belong to one system and the two differ
    (mlp_seed0… against forest_seed0…: mlp and forest); else "A" and "B"."""
    a, b = {system_of(r) for r in runs_a}, {system_of(r) for r in runs_b}
    if len(a) == 1 and len(b) == 1 and a != b:
        return a.pop(), b.pop()
    return "A", "B"


_RIGHT_WRONG = ("correct", "acc", "accuracy", "em", "exact", "match", "right", "solved", "pass", "passed", "hit")


def correctness_named(names: Sequence[str]) -> bool:
    """Whether these column or file names say their 0/1 values are right/wrong per item (model_a_correct, acc)."""
    return bool(names) and all(any(w in _RIGHT_WRONG for w in words(name)) for name in names[:2])


def label_reason(values: Sequence[Any], names: Sequence[str]) -> str | None:
    """Why numbers given without gold look like class labels rather than per-item scores, or None where they
    read as scores: a score's name (acc, score, chrf...) settles it as scores; a prediction's name (pred, label,
    class...) or few distinct whole numbers make it a question."""
    ws = [w for name in names for w in words(name)]
    if any(w in _SCORE_WORDS for w in ws):
        return None
    said = next((name for name in names if any(w in _LABEL_WORDS for w in words(name))), None)
    if said is not None:
        return f"{said!r} is named like predicted labels"
    kind, distinct = number_kind(values)
    if kind == "labels":
        return f"they are {distinct} distinct whole number{'s' * (distinct != 1)}, as class ids are"
    return None


def number_kind(values: Sequence[Any]) -> tuple[str | None, int]:
    """How numbers read, and how many distinct values they take: "labels" (at most :data:`FEW_LABELS` distinct whole
    numbers, as class ids are), "whole" (more whole numbers than that), "real" (some value is not whole); None
    when some value is not a finite number (text labels, a translation) or there are none."""
    numbers = [_number(v) for v in values]
    if not numbers or any(x is None for x in numbers):
        return None, 0
    distinct = len(set(numbers))
    if not all(x.is_integer() for x in numbers):
        return "real", distinct
    return ("labels" if distinct <= FEW_LABELS else "whole"), distinct


def number_reading(gold: Sequence[Any], predictions: Sequence[Sequence[Any]]) -> tuple[str | None, str]:
    """How numeric gold and predictions read, and why: ``("regression", why)`` for real-valued quantities, to be
    scored by their errors (MAE, MSE, RMSE); ``("answers", why)`` for answers matched exactly (GSM8K's "3.5", "12");
    ``(None, "")`` for class ids (at most :data:`FEW_LABELS` distinct whole numbers) or values that are not all
    numbers (:func:`number_kind`). The one rule: numbers that are not class ids (some value is not whole, or they
    take more whole values than class ids do) are answers when some system's predictions equal gold on at least
    :data:`ANSWERS` of the items, and regression outputs when every system's do less often (an estimate of a real
    quantity seldom hits it exactly; an answer is right or wrong)."""
    truth = list(gold[:SAMPLE])
    systems = [list(p[:SAMPLE]) for p in predictions]
    kind, distinct = number_kind(truth + [v for p in systems for v in p])
    if kind not in ("real", "whole") or not truth:
        return None, ""
    values = ("real numbers, not all whole" if kind == "real" else
              f"{distinct:,} distinct whole values, more than class ids take ({FEW_LABELS})")
    hits = max(sum(_number(g) == _number(v) for g, v in zip(truth, p)) for p in systems)
    items = f"{len(truth):,} items" if len(gold) <= SAMPLE else f"the first {SAMPLE:,} items"
    if hits >= ANSWERS * len(truth):
        return "answers", (f"gold and predictions are {values}, and a system's predictions equal gold on {hits:,} of "
                           f"{items}, a tenth or more")
    return "regression", (f"gold and predictions are {values}, and no system's predictions equal gold on more than "
                          f"{hits:,} of {items}, under a tenth")


READINGS = {"regression": "regression outputs, scored by their errors (MAE, MSE, RMSE)",
            "answers": "answers, right or wrong, scored by exact match (accuracy)"}  # what each reading means


def number_role(gold: Sequence[Any] | None, predictions: Sequence[Sequence[Any]]) -> Role | None:
    """How numeric gold and predictions read, as a line of the roles every entry point shows ("numbers = regression
    outputs, scored by their errors (MAE, MSE, RMSE) (gold and predictions are real numbers...)"); None without gold,
    for class ids and for what is not all numbers (:func:`number_reading`)."""
    kind, why = number_reading(gold, predictions) if gold is not None else (None, "")
    return None if kind is None else Role("numbers", READINGS[kind], why)


def regression_reason(gold: Sequence[Any], predictions: Sequence[Sequence[Any]]) -> str | None:
    """Why gold and predictions read as regression outputs (:func:`number_reading`), or None where they do not."""
    kind, why = number_reading(gold, predictions)
    return why if kind == "regression" else None


def _number(value: Any) -> float | None:
    try:
        x = number(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None
