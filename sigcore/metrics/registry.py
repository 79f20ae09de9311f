"""Metrics as per-item sufficient statistics and a vectorised score function.

A metric turns each item's (gold, prediction) into a short row of numbers. Column sums of those rows
are all the metric needs, so a resample is a re-weighted sum (``w @ S``) followed by one vectorised call
``score(totals)`` that accepts any shape ``(..., s)`` and returns ``(...)`` (the idea of sacrebleu's
sufficient statistics; Berg-Kirkpatrick et al. 2012 for the paired bootstrap it serves).

Precision, recall and the F1 family follow scikit-learn's definitions with ``zero_division=0``; span F1
follows conlleval (Tjong Kim Sang & Buchholz 2000) and seqeval's default mode, see :mod:`sigcore.metrics.spans`.
Whenever a denominator is zero (a resample can have no positives at all) the score is 0, never nan.

Use :func:`prepare` with a name from :data:`METRICS`, or :meth:`Metric.custom` for a metric of one's own. A metric
knows its direction (``higher_is_better``: accuracy higher, MAE lower); per-item scores (``mean``) take the user's.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..contract import unknown_option
from ..errors import GOLD, PARAMETER, SYSTEM, InputError, SettingsError
from ..numbers import floats, number
from .regression import errors
from .spans import match_counts, sentence_entities
from .translation import prepare_bleu, prepare_chrf

__all__ = ["Score", "Prepared", "Patterns", "Metric", "prepare_accuracy", "prepare_exact_match", "MAX_CLASS_CELLS",
           "prepare_span_f1", "prepare_mean", "prepare_mae", "prepare_mse", "prepare_rmse", "METRICS", "METRIC_NAMES",
           "resolve", "known", "direction", "prepare"]

Score = Callable[[np.ndarray], np.ndarray]
Prepared = tuple[list[np.ndarray], Score, dict[str, Any]]
Patterns = tuple[list[np.ndarray], np.ndarray, Score, dict[str, Any]]  # rows per system, item -> row, ...
_POSITIVE_NAMES = ("1", "true", "yes", "pos", "positive")


@dataclass(frozen=True)
class Metric:
    """One metric: what it is, which tests fit it, and how to get its statistics.

    ``decomposable``: the score is the mean of per-item values, and ``score`` applied to one item's row
    gives that item's value (so per-item tests, t/z/Wilcoxon/sign, apply).
    ``binary``: those per-item values are 0/1 correctness (so McNemar applies).
    ``prepare(gold, systems, **options)`` returns ``(stats, score, resolved_options)``: one float64 array
    of shape ``(n, s)`` per system (same ``s`` for all), the score function, and the options actually
    used (JSON-safe, defaults filled in) for the signature.
    ``patterns``, where rows are wide, gives the same statistics without a row per item: ``(rows, inverse,
    score, resolved_options)``, rows per system for each group of identical items (in order of their first
    item) and which group each item is in.
    ``higher_is_better``: True for scores (accuracy, BLEU), False for errors (MAE); None where the user says it
    (per-item scores, ``mean``: higher unless told otherwise). See :func:`direction`.
    """

    name: str
    description: str
    prepare: Callable[..., Prepared] = field(repr=False)
    decomposable: bool = False
    binary: bool = False
    needs_gold: bool = True
    patterns: Callable[..., Patterns] | None = field(default=None, repr=False)
    higher_is_better: bool | None = True

    @classmethod
    def custom(cls, name: str, statistics: Callable[[list, list], Any], score: Score, *,
               higher_is_better: bool = True, decomposable: bool = False, binary: bool = False,
               needs_gold: bool = True, description: str = "") -> Metric:
        """A metric of one's own, defined as the built-in ones are: ``statistics(gold, predictions)`` gives one
        system's per-item sufficient statistics, an array of shape ``(n, s)`` (``gold`` is None when the metric
        does not need it), and ``score(totals)`` turns their column sums, of any shape ``(..., s)``, into scores
        of shape ``(...)``. ``decomposable``: the score is the mean of per-item values and ``score`` of one item's
        row is that value (per-item tests then apply); ``binary``: those values are 1/0 right/wrong (McNemar).

        >>> mae = Metric.custom("my_mae", lambda g, p: np.column_stack([np.abs(np.subtract(p, g)), np.ones(len(g))]),
        ...                     lambda t: t[..., 0] / t[..., 1], higher_is_better=False, decomposable=True)
        """
        if not isinstance(name, str) or not name.strip():
            raise SettingsError(f"a custom metric needs a name, not {name!r}")
        if name in METRICS:
            raise SettingsError(f"{name!r} is a built-in metric's name", hint="Give your metric a name of its own.")
        if not callable(statistics) or not callable(score):
            raise SettingsError("a custom metric needs `statistics` and `score` functions",
                                hint="statistics(gold, predictions) -> (n, s) array; score(totals) -> scores.")
        if not isinstance(higher_is_better, (bool, np.bool_)):
            raise SettingsError(f"`higher_is_better` must be True or False, not {higher_is_better!r}")
        if binary and not (decomposable and higher_is_better):
            raise SettingsError("a binary metric counts right (1) and wrong (0) items: it is decomposable, and "
                                "higher is better", hint="Set decomposable=True and higher_is_better=True.")

        def prepare_custom(gold: Sequence | None, systems: Sequence[Sequence], **options: Any) -> Prepared:
            _options(name, options, {})
            gold, systems = _check(name, gold, systems, needs_gold=needs_gold)
            stats = []
            for k, system in enumerate(systems, start=1):
                rows = np.asarray(statistics(gold, system), dtype=float)
                rows = rows[:, None] if rows.ndim == 1 else rows
                if rows.ndim != 2 or len(rows) != len(system) or (stats and rows.shape != stats[0].shape):
                    raise InputError(f"{name}'s statistics for {SYSTEM} have shape {rows.shape}, not (n, s) with "
                                     f"n = {len(system)} items and the same s for every system", system=k)
                if not np.isfinite(rows).all():
                    item = int(np.flatnonzero(~np.isfinite(rows).all(axis=1))[0]) + 1
                    raise InputError(f"{name}'s statistics for {SYSTEM} are not finite at item {item}", line=item,
                                     system=k)
                stats.append(rows)
            return stats, score, {}

        return cls(name, description or f"{name} (custom)", prepare_custom, decomposable=bool(decomposable),
                   binary=bool(binary), needs_gold=bool(needs_gold), higher_is_better=bool(higher_is_better))


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator elementwise, 0 where the denominator is 0."""
    numerator, denominator = np.broadcast_arrays(np.asarray(numerator, float), np.asarray(denominator, float))
    return np.divide(numerator, denominator, out=np.zeros(numerator.shape), where=denominator != 0)


def _f1(t: Any) -> np.ndarray:
    """F1 from (..., 3) columns [tp, fp, fn]: 2tp / (2tp + fp + fn)."""
    t = np.asarray(t, float)
    return _ratio(2 * t[..., 0], 2 * t[..., 0] + t[..., 1] + t[..., 2])


def _options(metric: str, given: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Defaults overridden by ``given``; an option the metric does not know is refused, not ignored."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:  # a misspelt keyword of compare (n_resample) lands here too: the closest valid name is suggested
        raise unknown_option(metric, unknown[0], defaults)
    return {**defaults, **given}


def _plain(value: Any) -> Any:
    """A label as a JSON-safe Python value (numpy scalars unwrapped; other objects as text)."""
    if isinstance(value, np.generic):
        value = value.item()
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def _as_list(values: Any) -> list | np.ndarray:
    """A plain list (labels print and serialise plainly), except 1-D numeric arrays, kept for speed."""
    if isinstance(values, np.ndarray):
        return values if values.ndim == 1 and values.dtype.kind in "biuf" else values.tolist()
    return list(values)


def _check(metric: str, gold: Any, systems: Any, needs_gold: bool = True) -> tuple[list | None, list[list]]:
    """Validate shapes shared by every metric: 2+ systems, each as long as gold, at least one item."""
    if needs_gold and gold is None:
        raise InputError(f"{metric} needs gold labels (references) and none were given",
                         hint="Give the gold column or file, or use the 'mean' metric for per-item scores.")
    if isinstance(systems, (str, bytes)) or not isinstance(systems, (Sequence, np.ndarray)):
        raise InputError("systems must be a list of prediction lists, one per system")
    systems = [_as_list(system) for system in systems]
    if len(systems) < 2:
        raise InputError(f"a paired comparison needs at least 2 systems, got {len(systems)}",
                         hint="Give the outputs of system A and system B on the same test set.")
    gold = None if gold is None else _as_list(gold)
    reference, name = (gold, "gold") if gold is not None else (systems[0], "system 1")
    for k, system in enumerate(systems, start=1):
        if len(system) != len(reference):
            raise InputError(f"{SYSTEM} has {len(system)} items but {name} has {len(reference)}", system=k,
                             hint="Every system must have exactly one output per test item, in the same order.")
    if len(reference) == 0:
        raise InputError("the test set is empty", hint="Give at least one item.")
    return gold, systems


_KINDS = {"string": "text", "integer": "number", "floating": "number", "mixed-integer-float": "number",
          "boolean": "number", "decimal": "number"}


def _check_label_kinds(gold: list, systems: list[list]) -> None:
    """Refuse gold 1/0 against predictions "1"/"0": compared as given, nothing would ever match."""
    gold_kind = _KINDS.get(pd.api.types.infer_dtype(gold, skipna=True))
    for k, system in enumerate(systems, start=1):
        kind = _KINDS.get(pd.api.types.infer_dtype(system, skipna=True))
        if gold_kind and kind and kind != gold_kind:
            raise InputError(f"gold labels are {gold_kind} but {SYSTEM}'s are {kind}, so no prediction can "
                             "equal its gold label", system=k, hint="Read both as text or both as numbers.")


def _encode(gold: list, systems: list[list]) -> tuple[list, np.ndarray, list[np.ndarray]]:
    """The sorted label set, and every label as its index in it (labels equal under ``==`` share one).

    Text labels are compared without surrounding whitespace: "pos " from a hand-edited file is "pos". A
    missing gold label (None, NaN, blank) is an error; a missing prediction is code -1: a wrong answer that
    is no class of its own (for P/R/F1 a miss of the gold class, never a false positive).
    """
    n = len(gold)
    _check_single_values(gold, systems)
    values = np.concatenate([np.asarray(x) for x in (gold, *systems)]) \
        if all(isinstance(x, np.ndarray) and x.dtype.kind in "biuf" for x in (gold, *systems)) else \
        np.array(list(gold) + [label for system in systems for label in system], dtype=object)
    if values.dtype == object:  # blank is decided once per distinct label, not once per item
        every, distinct = pd.factorize(values)  # None and NaN are -1
        blank = np.array([isinstance(u, str) and not u.strip() for u in distinct] + [True], dtype=bool)
        missing = blank[every]  # -1 takes the last, True
    else:
        missing = np.isnan(values) if values.dtype.kind == "f" else np.zeros(len(values), bool)
    if missing[:n].any():
        item = int(np.flatnonzero(missing[:n])[0]) + 1
        raise InputError(f"gold has no label for item {item}", line=item, system=GOLD,
                         hint="Give every item its gold label, or drop the item from gold and every system.")
    if values.dtype != object:  # numeric arrays: np.unique sorts and codes
        labels, codes = np.unique(values[~missing], return_inverse=True)
        labels = labels.tolist()
    else:
        codes, uniques = pd.factorize(values[~missing])
        uniques = [u.strip() if isinstance(u, str) else u for u in uniques]
        labels = _label_set(uniques, [])
        index = {label: i for i, label in enumerate(labels)}
        codes = np.array([index[u] for u in uniques], dtype=np.intp)[codes]
    full = np.full(len(values), -1, dtype=np.intp)
    full[~missing] = codes.ravel()
    return labels, full[:n], [full[n * (k + 1):n * (k + 2)] for k in range(len(systems))]


_SINGLE = ("string", "integer", "floating", "mixed-integer-float", "boolean", "decimal", "empty")


def _check_single_values(gold: list, systems: list[list]) -> None:
    """Refuse a label that is a list or a mapping (a JSON array or object), with the item it is in."""
    for system, values in enumerate((gold, *systems)):  # gold is GOLD, 0; the systems count from 1
        if pd.api.types.infer_dtype(values, skipna=True) in _SINGLE:  # text, numbers, booleans: no scan needed
            continue
        for item, value in enumerate(values, start=1):
            if isinstance(value, (list, dict, tuple, set, np.ndarray)):
                raise InputError(f"{SYSTEM} has a {type(value).__name__} for item {item}, not a single label",
                                 line=item, system=system,
                                 hint="Give one label per item, such as 1 or 'pos'; multi-label items are not "
                                      "supported.")


def _label_set(gold: list, systems: list[list]) -> list:
    """The sorted union of gold and every system's labels."""
    try:
        labels = set(gold).union(*systems)
    except TypeError:  # a list or dict is not a label
        raise InputError("labels must be single values such as 1 or 'pos', not lists",
                         hint="Multi-label items are not supported; give one label per item.") from None
    try:
        return sorted(labels)
    except TypeError:  # mixed kinds (e.g. 1 and "1") do not order; order by text instead
        return sorted(labels, key=lambda label: (type(label).__name__, str(label)))


def _share(t: Any) -> np.ndarray:
    """Score of rows [value, 1]: the mean value."""
    t = np.asarray(t, float)
    return _ratio(t[..., 0], t[..., 1])


def _rows(values: Sequence[float]) -> np.ndarray:
    """Rows [value, 1] of decomposable metrics."""
    return np.column_stack([np.asarray(values, float), np.ones(len(values))])


def prepare_accuracy(gold: Sequence, systems: Sequence[Sequence], **options: Any) -> Prepared:
    """Accuracy: share of items whose prediction equals the gold label. Rows ``[correct, 1]``.

    Labels are compared as given, with Python's ``==`` (so ``1 == 1.0`` but ``1 != "1"``); gold numbers
    against predicted text is refused as an input error rather than scored 0.
    """
    _options("accuracy", options, {})
    gold, systems = _check("accuracy", gold, systems)
    _check_label_kinds(gold, systems)
    _, gold, systems = _encode(gold, systems)
    return [_rows(system == gold) for system in systems], _share, {}


def _normalise(value: Any, system: int, item: int, options: dict[str, bool]) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        if system != GOLD:  # a missing output is an empty answer, as a blank line in a file is
            return ""
        raise InputError(f"gold has no reference for item {item}", line=item, system=GOLD,
                         hint="Give every item its reference (an empty string is allowed).")
    text = value if isinstance(value, str) else str(_plain(value))
    if options["lowercase"]:
        text = text.lower()
    if options["ignore_punctuation"]:
        text = "".join(c for c in text if not unicodedata.category(c).startswith("P"))
    return " ".join(text.split()) if options["strip"] else text


def prepare_exact_match(gold: Sequence, systems: Sequence[Sequence], **options: Any) -> Prepared:
    """Exact match: share of outputs equal to the reference after normalisation. Rows ``[match, 1]``.

    Options: ``strip`` (default True) trims and collapses runs of whitespace; ``lowercase`` (False);
    ``ignore_punctuation`` (False) drops Unicode punctuation. Non-text values are compared as text.
    """
    resolved = _options("exact_match", options, {"strip": True, "lowercase": False, "ignore_punctuation": False})
    for name, value in resolved.items():
        if not isinstance(value, (bool, np.bool_)):
            raise SettingsError(f"exact_match option {name!r} must be true or false, not {value!r}")
    resolved = {name: bool(value) for name, value in resolved.items()}
    gold, systems = _check("exact_match", gold, systems)
    gold = [_normalise(g, GOLD, i, resolved) for i, g in enumerate(gold, start=1)]
    stats = [_rows([g == _normalise(p, k, i, resolved) for i, (g, p) in enumerate(zip(gold, system), 1)])
             for k, system in enumerate(systems, start=1)]
    return stats, _share, resolved


def _positive_label(metric: str, labels: list, given: Any) -> Any:
    """The positive class: as given, else 1, else the one label named like "yes"/"pos" of exactly two."""
    shown = ", ".join(repr(label) for label in labels)
    if given is not None:
        found = [label for label in labels if label == given]
        if not found:
            raise InputError(f"positive_label {given!r} does not occur in gold or predictions",
                             hint=f"The labels are: {shown}.")
        return found[0]
    if len(labels) <= 2:
        ones = [label for label in labels if not isinstance(label, str) and label == 1]
        named = [label for label in labels if isinstance(label, str) and label.strip().lower() in _POSITIVE_NAMES]
        if ones:
            return ones[0]
        if len(labels) == 2 and len(named) == 1:
            return named[0]
    raise SettingsError(f"{metric} needs to know which label is the positive class", parameter="positive_label",
                        hint=f"Set {PARAMETER} to one of: {shown}"
                             + (" (or use macro_f1 / micro_f1 for several classes)." if len(labels) > 2 else "."))


def _binary_rows(gold: np.ndarray, system: np.ndarray, positive: int) -> np.ndarray:
    true, guess = gold == positive, system == positive
    return np.column_stack([true & guess, ~true & guess, true & ~guess]).astype(np.float64)


def _precision(t: Any) -> np.ndarray:
    t = np.asarray(t, float)
    return _ratio(t[..., 0], t[..., 0] + t[..., 1])


def _recall(t: Any) -> np.ndarray:
    t = np.asarray(t, float)
    return _ratio(t[..., 0], t[..., 0] + t[..., 2])


def _binary(metric: str, score: Score) -> Callable[..., Prepared]:
    def prepare(gold: Sequence, systems: Sequence[Sequence], **options: Any) -> Prepared:
        resolved = _options(metric, options, {"positive_label": None})
        gold, systems = _check(metric, gold, systems)
        _check_label_kinds(gold, systems)
        labels, gold, systems = _encode(gold, systems)
        positive = _positive_label(metric, labels, resolved["positive_label"])
        stats = [_binary_rows(gold, system, labels.index(positive)) for system in systems]
        return stats, score, {"positive_label": _plain(positive)}

    prepare.__name__ = f"prepare_{metric}"
    prepare.__doc__ = (
        f"Binary {metric} of the positive class (scikit-learn's ``{metric}_score``, zero_division=0). "
        "Rows ``[tp, fp, fn]``.\n\n    ``positive_label`` defaults to 1 when it occurs, else to the one of "
        "exactly two labels spelled 1/true/yes/pos/positive (any case). With more than two labels it is "
        "required and the score is one-vs-rest for that label.")
    return prepare


def _per_class(t: Any) -> np.ndarray:
    t = np.asarray(t, float)
    return t.reshape(t.shape[:-1] + (t.shape[-1] // 3, 3))


def _macro_f1(t: Any) -> np.ndarray:
    return _f1(_per_class(t)).mean(axis=-1)


def _micro_f1(t: Any) -> np.ndarray:
    return _f1(_per_class(t).sum(axis=-2))


def _weighted_f1(t: Any) -> np.ndarray:
    classes = _per_class(t)
    support = classes[..., 0] + classes[..., 2]
    return _ratio((support * _f1(classes)).sum(axis=-1), support.sum(axis=-1))


MAX_CLASS_CELLS = 1 << 25  # rows x 3K counts per system, 256 MiB of float64: 300 classes on 30,000 distinct rows fit


def _class_rows(g: np.ndarray, p: np.ndarray, k: int, metric: str = "") -> np.ndarray:
    """One-hot per-class (tp, fp, fn) over k classes; a code of -1 (a label not counted) adds nothing."""
    n = len(g)
    if n * 3 * k > MAX_CLASS_CELLS:  # refused before the memory is spent, not with a MemoryError after
        raise SettingsError(f"{metric} over {k:,} classes needs a table of {n:,} x {3 * k:,} counts per system "
                            f"({n * 3 * k * 8 / 1024**3:.1f} GiB), more than sigcore builds",
                            hint="Pass labels=[...] with the classes that matter (the others count as no class), "
                                 "or compare accuracy, which needs no per-class counts.")
    rows = np.zeros((n, k, 3))
    for column, cls, keep in ((0, g, (g == p) & (g >= 0)), (1, p, (g != p) & (p >= 0)), (2, g, (g != p) & (g >= 0))):
        rows[np.flatnonzero(keep), cls[keep], column] = 1
    return rows.reshape(n, 3 * k)


def _multiclass(metric: str, score: Score, average: str) -> dict[str, Callable[..., Any]]:
    def codes(gold: Sequence, systems: Sequence[Sequence], options: dict[str, Any]):
        """Gold and every system as codes of the labels counted (-1 for the others), and the resolved options."""
        resolved = _options(metric, options, {"labels": None})
        gold, systems = _check(metric, gold, systems)
        _check_label_kinds(gold, systems)
        seen, gold, systems = _encode(gold, systems)
        labels = resolved["labels"]
        if labels is None:
            labels = seen
        else:
            if isinstance(labels, (str, bytes)) or not isinstance(labels, (Sequence, np.ndarray)) or not len(labels):
                raise SettingsError(f"{metric} option 'labels' must be a non-empty list of labels, not {labels!r}")
            labels = list(labels)
            if len(set(labels)) != len(labels):
                raise SettingsError(f"{metric} option 'labels' lists a label twice: {labels!r}")
            missing = [label for label in labels if label not in seen]
            if missing:
                raise InputError(f"label {missing[0]!r} in 'labels' occurs in neither gold nor predictions",
                                 hint=f"The labels are: {', '.join(map(repr, seen))}.")
        index = {label: i for i, label in enumerate(labels)}
        position = np.array([index.get(label, -1) for label in seen] + [-1], dtype=np.intp)  # [-1]: missing
        used = {"labels": [_plain(label) for label in labels]}
        return position[gold], [position[system] for system in systems], len(labels), used

    def prepare(gold: Sequence, systems: Sequence[Sequence], **options: Any) -> Prepared:
        g, predictions, k, resolved = codes(gold, systems, options)
        return [_class_rows(g, p, k, metric) for p in predictions], score, resolved

    def patterns(gold: Sequence, systems: Sequence[Sequence], **options: Any) -> Patterns:
        """Items grouped by (gold, each prediction) first: rows for each distinct group, not each item, since
        a row has 3K columns (K = 1,000 classes and 10^5 items would be 2.4 GB of rows per system)."""
        g, predictions, k, resolved = codes(gold, systems, options)
        groups, first, inverse = np.unique(np.column_stack([g, *predictions]), axis=0, return_index=True,
                                           return_inverse=True)
        order = np.argsort(first)  # by first item, as the engine orders patterns: the same draws when A, B swap
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        groups = groups[order]
        rows = [_class_rows(groups[:, 0], groups[:, j], k, metric) for j in range(1, len(predictions) + 1)]
        return rows, rank[inverse.ravel()], score, resolved

    prepare.__name__ = f"prepare_{metric}"
    prepare.__doc__ = (
        f"{average.capitalize()}-averaged F1 over classes (scikit-learn's ``f1_score(average='{average}', "
        "zero_division=0)``). Rows are one-hot (tp, fp, fn) per class, 3K columns.\n\n    ``labels`` "
        "defaults to the sorted union of gold and ALL systems' predictions, the same set for every system, "
        "so both are averaged over the same classes; a class one system never predicts counts as F1 0.")
    return {"prepare": prepare, "patterns": patterns}


def prepare_span_f1(gold: Sequence, systems: Sequence[Sequence], **options: Any) -> Prepared:
    """Entity-level (chunk) F1 over BIO / IOB1 / BIOES tags, as conlleval and seqeval's default mode.

    Gold and each system are lists of sentences, each a list of tags. Rows per sentence ``[tp, fp, fn]``,
    a predicted chunk counting as a tp when the same (type, start, end) is in gold; score
    ``2tp / (2tp + fp + fn)`` (micro-averaged over all chunk types).
    """
    _options("span_f1", options, {})
    gold, systems = _check("span_f1", gold, systems)
    true = sentence_entities(gold, GOLD)
    stats = []
    for k, system in enumerate(systems, start=1):
        guessed = sentence_entities(system, k)
        for i, (reference, sentence) in enumerate(zip(gold, system), start=1):
            if len(sentence) != len(reference):
                raise InputError(f"sentence {i} has {len(sentence)} tags in {SYSTEM} but {len(reference)} in gold",
                                 line=i, system=k, hint="Each predicted sentence must tag the same tokens as gold.")
        stats.append(match_counts(true, guessed))
    return stats, _f1, {}


def _scores(system: Sequence, k: int) -> np.ndarray:
    """System ``k``'s scores, vectorised; value by value (to name the bad one) when one is not a finite number."""
    x = floats(list(system))
    if x is not None and np.isfinite(x).all():
        return x
    return np.array([_number(value, k, i) for i, value in enumerate(system, start=1)], dtype=float)


def _number(value: Any, k: int, item: int) -> float:
    try:
        x = number(value)
    except (TypeError, ValueError):
        x = math.nan
    if not math.isfinite(x):
        try:
            loose = isinstance(value, str) and math.isfinite(float(value))  # Python's float is laxer than a file
        except ValueError:
            loose = False
        raise InputError(f"{SYSTEM} has {value!r} for item {item}, not a finite number", line=item, system=k,
                         hint="Write scores in plain ASCII digits (0.73, 1000, 1e-5): '_' and other "
                              "scripts' digits are not read as numbers." if loose else
                         "The 'mean' metric needs one numeric score per item (e.g. 0.73).")
    return x


def prepare_mean(gold: Sequence | None, systems: Sequence[Sequence], **options: Any) -> Prepared:
    """Mean of per-item scores the user already computed (e.g. BERTScore, a judge's rating). Rows ``[score, 1]``.

    Gold is refused: with gold, the outputs are predictions, and their mean would ignore it. Numeric text such as
    "0.5" is read as a number; anything non-numeric, nan or infinite is refused.
    """
    _options("mean", options, {})
    if gold is not None:
        raise SettingsError("the mean averages per-item scores, and gold was given: the mean of the predictions would "
                            "ignore it", hint="Pass gold=None for per-item scores; to score predictions against gold, "
                                              "choose mae, mse or rmse (real numbers) or accuracy (labels).")
    _, systems = _check("mean", gold, systems, needs_gold=False)
    values = [_scores(system, k) for k, system in enumerate(systems, start=1)]
    # sums of n scores near 1e308 overflow: rows a power of two down (exact), and the mean multiplied back
    top = max((float(np.abs(v).max()) for v in values if v.size), default=0.0)
    shift = max(0, math.frexp(top)[1] + max(len(values[0]), 1).bit_length() - 1000) if top > 0 else 0
    if shift == 0:
        return [_rows(v) for v in values], _share, {}
    return [_rows(np.ldexp(v, -shift)) for v in values], lambda t: np.ldexp(_share(t), shift), {}


def _regression(metric: str, row: Callable[[np.ndarray], np.ndarray]) -> Callable[..., Prepared]:
    def prepare(gold: Sequence, systems: Sequence[Sequence], **options: Any) -> Prepared:
        _options(metric, options, {})
        gold, systems = _check(metric, gold, systems)
        return [_rows(row(e)) for e in errors(gold, systems)], _root if metric == "rmse" else _share, {}

    prepare.__name__ = f"prepare_{metric}"
    return prepare


def _root(t: Any) -> np.ndarray:
    """RMSE from summed rows [e², 1]: √(Σe² / n) (on each resample, from its own sums)."""
    return np.sqrt(_share(t))


prepare_mae = _regression("mae", np.abs)
prepare_mae.__doc__ = "Mean absolute error, mean of |prediction − gold|. Rows ``[|e|, 1]``; lower is better."
prepare_mse = _regression("mse", np.square)
prepare_mse.__doc__ = "Mean squared error, mean of (prediction − gold)². Rows ``[e², 1]``; lower is better."
prepare_rmse = _regression("rmse", np.square)
prepare_rmse.__doc__ = ("Root mean squared error √(Σe² / n). Rows ``[e², 1]``, the score the root of their mean: "
                        "not a mean of per-item values, so resampling tests only; lower is better.")


METRICS: dict[str, Metric] = {metric.name: metric for metric in [
    Metric("accuracy", "Share of items whose prediction equals the gold label", prepare_accuracy,
           decomposable=True, binary=True),
    Metric("exact_match", "Share of outputs identical to the reference after normalisation", prepare_exact_match,
           decomposable=True, binary=True),
    Metric("precision", "Precision of the positive class (binary)", _binary("precision", _precision)),
    Metric("recall", "Recall of the positive class (binary)", _binary("recall", _recall)),
    Metric("f1", "F1 of the positive class (binary)", _binary("f1", _f1)),
    Metric("macro_f1", "Unweighted mean of per-class F1 (multiclass)", **_multiclass("macro_f1", _macro_f1, "macro")),
    Metric("micro_f1", "F1 of pooled per-class counts (multiclass)", **_multiclass("micro_f1", _micro_f1, "micro")),
    Metric("weighted_f1", "Per-class F1 weighted by gold support (multiclass)",
           **_multiclass("weighted_f1", _weighted_f1, "weighted")),
    Metric("span_f1", "Entity-level F1 over BIO/BIOES tags (conlleval, seqeval)", prepare_span_f1),
    Metric("bleu", "Corpus BLEU (sacrebleu), 0-100", prepare_bleu),
    Metric("chrf", "Corpus chrF (sacrebleu), 0-100", prepare_chrf),
    Metric("mean", "Mean of given per-item scores", prepare_mean, decomposable=True, needs_gold=False,
           higher_is_better=None),
    Metric("mae", "Mean absolute error |prediction − gold| (regression); lower is better", prepare_mae,
           decomposable=True, higher_is_better=False),
    Metric("mse", "Mean squared error (prediction − gold)² (regression); lower is better", prepare_mse,
           decomposable=True, higher_is_better=False),
    Metric("rmse", "Root mean squared error √(Σ(prediction − gold)² / n) (regression); lower is better",
           prepare_rmse, higher_is_better=False),
]}

# the metrics as readers write them, in sentences and captions
METRIC_NAMES = {"accuracy": "accuracy", "exact_match": "exact match", "precision": "precision",
                "recall": "recall", "f1": "F1", "macro_f1": "macro-F1", "micro_f1": "micro-F1",
                "weighted_f1": "weighted F1", "span_f1": "span F1", "bleu": "BLEU", "chrf": "chrF",
                "mean": "mean score", "mae": "MAE", "mse": "MSE", "rmse": "RMSE"}


def resolve(metric: str | Metric) -> Metric:
    """The metric of this name (a key of :data:`METRICS`), or the :class:`Metric` itself (a custom one)."""
    if isinstance(metric, Metric):
        return metric
    if not isinstance(metric, str) or metric not in METRICS:
        raise SettingsError(f"unknown metric {metric!r}", hint=f"Choose one of: {', '.join(METRICS)}, or define "
                                                              "your own with sigcore.Metric.custom.")
    return METRICS[metric]


def known(metric: str | Metric) -> Metric | None:
    """The metric a result's name stands for (a key of :data:`METRICS`), or the :class:`Metric` itself; None for a
    name the registry does not hold: a custom metric's, as a result or a saved JSON carries it. What a view may
    look up about a result's metric (is it right/wrong per item?) goes through here, and reads None as "not known"
    rather than failing."""
    return metric if isinstance(metric, Metric) else METRICS.get(metric) if isinstance(metric, str) else None


def direction(metric: str | Metric, higher_is_better: bool | None = None) -> bool:
    """Whether a higher score is better for this comparison: the metric's own direction (MAE: lower), or, for
    per-item scores (``mean``), the user's (higher unless ``higher_is_better=False``). A direction that contradicts
    the metric's own is refused, not obeyed: accuracy cannot be lower-is-better."""
    m = resolve(metric)
    if higher_is_better is not None and not isinstance(higher_is_better, (bool, np.bool_)):
        raise SettingsError(f"`higher_is_better` must be True, False or None, not {higher_is_better!r}")
    if m.higher_is_better is None:
        return True if higher_is_better is None else bool(higher_is_better)
    if higher_is_better is not None and bool(higher_is_better) != m.higher_is_better:
        own = "higher" if m.higher_is_better else "lower"
        raise SettingsError(f"{m.name} is a metric on which {own} is better; it cannot be told otherwise",
                            hint="Leave the direction out (--lower-is-better, higher_is_better) for this metric: it is "
                                 "for per-item scores (the mean), whose direction only the user knows.")
    return m.higher_is_better


def prepare(name: str | Metric, gold: Sequence | None, systems: Sequence[Sequence], **options: Any) -> Prepared:
    """Per-item statistics, score function and resolved options of metric ``name`` for every system."""
    return resolve(name).prepare(gold, systems, **options)
