"""compare() and stream(): one paired significance test of system A against system B.

The statistical contract (README, "Tests and the statistical contract"): with delta = M(A, x) - M(B, x) and delta_i
its value on resample i,
- paired bootstrap (Berg-Kirkpatrick et al. 2012; SLP3 §4.11, eq. 4.48), "greater":
  p = #{delta_i >= 2·delta} / b; "less": #{delta_i <= 2·delta} / b; "two-sided": #{|delta_i - delta| >= |delta|} / b;
  with no such resample, p < 1/b (reported as 1/b); its interval is the dual basic bootstrap interval;
- permutation / approximate randomisation (Noreen 1989):
  p = (#{delta_perm >= delta} + 1) / (R + 1), exact enumeration when 2^n' <= R (n' items where A and B differ);
- closed-form tests on per-item values (t, z, Wilcoxon, sign, McNemar).
"greater" is H1 "A is better": δ > 0, or δ < 0 on a metric where lower is better (MAE); the tails above are then
counted on that side of δ (:func:`sigcore.result.delta_alternative`), and δ itself keeps its sign.
Ties count as extreme, within a relative tolerance, so identical systems always get p = 1. With ``groups``,
whole groups (documents) are resampled or swapped: the cluster bootstrap (Field & Welsh 2007).
``compat="sacrebleu"`` reproduces sacrebleu's (and Moses' / MultEval's) two-sided definitions instead.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from . import budget as budgets
from ._lazy import sparse
from .contract import (
    DEFAULT_ALPHA,
    DEFAULT_ALTERNATIVE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    check_alpha,
    check_alternative,
    check_level,
    check_resamples,
    check_seed,
    extreme,
    is_int,
    is_level,
    tie,
)
from .errors import PARAMETER, InputError, SettingsError
from .metrics import METRICS, Metric, direction, prepare, resolve
from .result import Result, delta_alternative, finite_delta
from .signature import Signature, tool_versions
from .statistics import closed_form, intervals, resampling
from .statistics.resampling import PairedStats

__all__ = ["RESAMPLING", "AUTO", "SMALL_SAMPLE", "Z_MIN_ITEMS", "CI_METHODS", "Test", "TESTS", "COMPAT", "tests_for",
           "compare", "chosen_test", "stream", "prepared", "data_hash", "membership", "check_settings", "counted",
           "Run"]

RESAMPLING = ("bootstrap", "permutation")
AUTO = "auto"  # test=AUTO: the test the advisor recommends for these data (sigcore.advisor), recorded as the one run
SMALL_SAMPLE = 30  # items (groups; discordant pairs for right/wrong items) below which exact tests are recommended
Z_MIN_ITEMS = 50  # the z-test's normal tail with the sample SD: 6.1% false alarms at n = 30 for alpha = 5%
CI_METHODS = ("basic", "percentile", "bca")


@dataclass(frozen=True)
class Test:
    name: str
    title: str  # as a sentence names it
    description: str
    fits: Callable[[Metric], bool]
    needs: str  # what a metric must be for the test to fit, for the refusal message
    estimand: str = "delta"


TESTS: dict[str, Test] = {t.name: t for t in [
    Test("bootstrap", "paired bootstrap",
         "Paired bootstrap (Berg-Kirkpatrick et al. 2012): p = #{δ(x⁽ⁱ⁾) ≥ 2·δ(x)} / b", lambda m: True, "any metric"),
    Test("permutation", "approximate randomisation",
         "Paired approximate randomisation (Noreen 1989): swap A and B per item", lambda m: True, "any metric"),
    Test("t", "paired t-test", "Paired t-test on per-item scores (Student 1908)", lambda m: m.decomposable,
         "a metric that is a mean of per-item values"),
    Test("z", "paired z-test", f"Paired z-test on per-item scores (normal approximation, n >= {Z_MIN_ITEMS})",
         lambda m: m.decomposable, "a metric that is a mean of per-item values"),
    Test("wilcoxon", "Wilcoxon signed-rank test", "Wilcoxon signed-rank test on per-item score differences",
         lambda m: m.decomposable and not m.binary,  # ±1 differences have no sizes to rank: that is the sign test
         "a metric that is a mean of per-item scores other than right/wrong (for those: sign or mcnemar)",
         "pseudo_median"),
    Test("sign", "sign test", "Sign test: exact binomial on the items where A and B differ",
         lambda m: m.decomposable, "a metric that is a mean of per-item values", "share_won"),
    Test("mcnemar", "McNemar's test", "McNemar's test: exact binomial on discordant right/wrong pairs",
         lambda m: m.binary, "a metric of per-item right/wrong (accuracy, exact_match)", "share_discordant"),
]}

COMPAT = ("sacrebleu",)


def tests_for(metric: str | Metric, *, n_items: int | None = None, grouped: bool = False) -> list[str]:
    """The tests that fit a metric (and, when given, the data's size), in the order of :data:`TESTS`.

    ``n_items``: items, or groups when ``grouped``. Grouped items take the resampling tests only; the z-test needs
    ``Z_MIN_ITEMS``, the t-test two items. Which of them is recommended for given data is the advisor's to say
    (:func:`sigcore.advisor.advise_outputs`), the one ``test="auto"`` runs.
    """
    m = resolve(metric)
    names = [name for name, t in TESTS.items() if t.fits(m) and (name in RESAMPLING or not grouped)]
    if n_items is not None:  # a standard deviation needs 2 items; the z-test's normal tail, many more
        names = [name for name in names if not (name == "z" and n_items < Z_MIN_ITEMS or name == "t" and n_items < 2)]
    return names


def compare(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, metric: str | Metric = "accuracy",
            test: str = AUTO, n_resamples: int = DEFAULT_RESAMPLES, alternative: str = DEFAULT_ALTERNATIVE,
            alpha: float = DEFAULT_ALPHA, confidence_level: float | None = None, seed: int | None = DEFAULT_SEED,
            groups: Sequence | None = None, compat: str | None = None, ci_method: str | None = "basic",
            exact: bool = True, budget: int | None = None, progress: Callable[[float], None] | None = None,
            higher_is_better: bool | None = None, **metric_options: Any) -> Result:
    """Test whether system A beats system B on the same items.

    ``metric``: a key of :data:`sigcore.METRICS` or a :class:`sigcore.Metric` of one's own (``Metric.custom``).
    ``higher_is_better``: the direction of per-item scores (``metric="mean"``: True unless told False, for errors,
    losses, ranks); other metrics know their own (MAE: lower) and refuse a contrary one.

    ``test``: a key of :data:`TESTS`, or "auto" (the default): the test the advisor recommends for these data
    (:func:`sigcore.advisor.advise_outputs`), which the result names as ``test``, with ``auto`` True; with
    ``compat`` or a ``ci_method`` other than "basic", the first resampling test it accepts.
    ``alternative``: "two-sided" (H1: they differ, the default), "greater" (A is better) or "less" (B is better);
    "better" in the metric's direction: "greater" on MAE is H1 δ < 0, A's error lower.
    ``alpha``: the significance level; H0 is rejected when p <= alpha. ``confidence_level`` defaults to
    1 - alpha, so that the interval agrees with the test; one-sided tests get a one-sided bound.
    ``groups``: the group (document) of each item; the resampling tests then draw or swap whole groups.
    ``ci_method``: "basic" (the bootstrap test's dual), "percentile" or "bca" for the bootstrap interval of
    delta; ``None`` skips it (the fields are nan), for simulations that only need p.
    ``exact``: McNemar's exact binomial test (True) or its chi-square with continuity correction (False).
    ``budget``: the most steps the resampling may take (:mod:`sigcore.budget`; None, the default: no limit);
    ``progress``: called with the share of resamples done, some twenty times.
    Extra keywords are metric options (``tokenize="none"``, ``positive_label=1``...).
    """
    whole = max(int(n_resamples), 1) if is_int(n_resamples) else 1
    results = stream(gold, sys_a, sys_b, metric=metric, test=test, n_resamples=n_resamples,
                     alternative=alternative, alpha=alpha, confidence_level=confidence_level, seed=seed,
                     groups=groups, compat=compat, ci_method=ci_method, exact=exact, budget=budget,
                     block=whole if progress is None else max(whole // 20, 1), higher_is_better=higher_is_better,
                     **metric_options)
    for last in results:  # the same result in one block or twenty (stream's promise)
        if progress is not None:
            progress(1.0 if last.done else min(last.n_resamples / whole, 1.0))
    return last


def _chosen(metric, paired, stats, score, groups, alpha, compat, ci_method) -> tuple[str, str]:
    """test="auto": the advisor's first choice for these data (a resampling one where a bootstrap interval or
    another tool's definitions are asked for), and why ("" when it is not the advisor's first choice)."""
    from .advisor import advise_prepared

    advice = advise_prepared(metric, paired, stats, score, groups is not None, alpha)
    ranked = [advice.recommended.test, *(c.test for c in advice.acceptable)]
    if compat or ci_method not in ("basic", None):  # a bootstrap interval asked for: a resampling test
        ranked = [t for t in ranked if t in RESAMPLING]
    return ranked[0], advice.recommended.reason if ranked[0] == advice.recommended.test else ""


def chosen_test(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, metric: str | Metric = "accuracy",
                test: str = AUTO, alpha: float = DEFAULT_ALPHA, groups: Sequence | None = None,
                compat: str | None = None, ci_method: str | None = "basic", **metric_options: Any) -> str:
    """The test :func:`compare` would run with these settings, without running it (what ``--bibtex`` cites)."""
    if test != AUTO:
        return test
    paired, stats, score, _, _ = prepared(gold, sys_a, sys_b, metric, groups, metric_options)
    return _chosen(metric, paired, stats, score, groups, alpha, compat, ci_method)[0]


def stream(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, metric: str | Metric = "accuracy",
           test: str = AUTO, n_resamples: int = DEFAULT_RESAMPLES, alternative: str = DEFAULT_ALTERNATIVE,
           alpha: float = DEFAULT_ALPHA, confidence_level: float | None = None, seed: int | None = DEFAULT_SEED,
           groups: Sequence | None = None, compat: str | None = None, ci_method: str | None = "basic",
           exact: bool = True, block: int = 1_000, budget: int | None = None, higher_is_better: bool | None = None,
           **metric_options: Any) -> Iterator[Result]:
    """Like :func:`compare`, but yield a partial result after every ``block`` resamples.

    The last result equals ``compare`` with the same arguments exactly, whatever ``block`` is.
    Settings and data are checked before the first resample, when ``stream`` is called. ``budget`` caps the
    work, resamples × items (× patterns of identical items, when the engine groups them): a run beyond it is
    refused before it starts, for a server shared by many users.
    """
    auto, reason = test == AUTO, ""
    higher = direction(metric, higher_is_better)
    check_settings(metric, "bootstrap" if auto else test, n_resamples, alternative, alpha, confidence_level, seed,
                    compat, ci_method, exact or auto, block, groups)
    paired, stats, score, options, n_items = prepared(gold, sys_a, sys_b, metric, groups, metric_options)
    if auto:  # the advisor's choice for these data; the other settings are then checked against it
        test, reason = _chosen(metric, paired, stats, score, groups, alpha, compat, ci_method)
        check_settings(metric, test, n_resamples, alternative, alpha, confidence_level, seed, compat, ci_method,
                        exact, block, groups)
    if test == "z" and n_items < Z_MIN_ITEMS:
        raise SettingsError(f"the z-test needs at least {Z_MIN_ITEMS} items (it takes the sample SD for the "
                            f"known one), got {n_items}", hint="Use the t-test, or an exact test for few items.")
    if budget is not None and test in RESAMPLING:
        _check_budget(paired, n_resamples, budget, twice=test == "permutation" and ci_method is not None)
    if seed is None:  # a fresh seed, recorded so that the run can be reproduced
        seed = int(np.random.SeedSequence().entropy % 2**63)
    level = 1 - alpha if confidence_level is None else confidence_level
    run = Run(resolve(metric).name, test, alternative, alpha, level,
               1 - level if confidence_level is not None else alpha,
               int(seed), compat, ci_method, exact, options, paired, stats, score, n_resamples, n_items,
               None if groups is None else paired.n, data_hash(gold, sys_a, sys_b, groups),
               _references(resolve(metric).name, gold), auto, reason, resolve(metric), higher)
    if test in RESAMPLING:
        return run.resampled(block)
    return iter([run.closed_form()])


def prepared(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, metric: str | Metric, groups: Sequence | None,
             metric_options: dict[str, Any]):
    """The paired sufficient statistics of A and B (per item, per group with ``groups``, or per pattern of
    identical items), the per-item ones where the metric has them (else None), the metric's score function and
    resolved options, and the number of items."""
    m = resolve(metric)
    if m.patterns is not None:  # wide rows: built per group of identical items, never per item
        (rows_a, rows_b), inverse, score, options = m.patterns(gold, [sys_a, sys_b], **metric_options)
        stats, n_items = None, len(inverse)
        if groups is None:
            paired = PairedStats.from_patterns(rows_a, rows_b, np.bincount(inverse, minlength=len(rows_a)))
        else:
            members = membership(groups, n_items, columns=inverse, width=len(rows_a))
            paired = PairedStats.from_items(members @ rows_a, members @ rows_b)
    else:
        stats, score, options = prepare(m, gold, [sys_a, sys_b], **metric_options)
        n_items = len(stats[0])
        if groups is None:
            paired = PairedStats.from_items(*stats)
        else:
            members = membership(groups, n_items)
            paired = PairedStats.from_items(members @ stats[0], members @ stats[1])
    return paired, stats, score, options, n_items


def data_hash(*columns: Sequence | None) -> str:
    """The first 12 hex digits of a SHA-256 of the aligned inputs (gold, A, B, groups), each value as text, so
    that the same items give the same hash whether they came as lists, arrays or a table's columns."""
    digest = hashlib.sha256()
    for column in columns:
        joined = _joined_codes(column)
        if joined is None:
            text = "\x1d" if column is None else "\x1f".join(map(str, _plain(column)))  # separators no value holds
            joined = text.encode("utf-8", "surrogatepass")
        digest.update(joined + b"\x1e")
    return digest.hexdigest()[:12]


def _joined_codes(column: Sequence | None) -> bytes | None:
    """``"\\x1f".join(map(str, column))`` in UTF-8, for a numpy column of booleans or of a few distinct integers
    (labels, right/wrong), built from its values' texts by numpy rather than item by item; else None."""
    if not isinstance(column, np.ndarray) or column.size == 0 or column.dtype.kind not in "biu":
        return None
    if column.dtype.kind == "b":
        low, texts, shifted = 0, ["False", "True"], column.astype(np.intp)
    else:
        low, high = int(column.min()), int(column.max())
        if high - low > 1 << 16:
            return None
        texts = [str(v) for v in range(low, high + 1)]
        shifted = (column - column.min() if column.dtype.kind == "u" else column.astype(np.int64) - low).astype(np.intp)
    encoded = [t.encode() + b"\x1f" for t in texts]
    flat = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    sizes = np.array([len(e) for e in encoded], dtype=np.intp)
    starts = np.cumsum(sizes) - sizes
    lengths = sizes[shifted]
    ends = np.cumsum(lengths)
    # every output byte's place in ``flat``: its value's text's start, plus how far into the text it is
    where = np.repeat(starts[shifted] - (ends - lengths), lengths) + np.arange(int(ends[-1]))
    return flat[where].tobytes()[:-1]  # each value's text and a separator, the last one dropped


def _plain(column: Sequence) -> Sequence:
    """A numpy column as values whose text is its scalars' text, made in bulk: labels and right/wrong items (a few
    distinct integers) by looking their text up, float64 as Python floats (the same shortest repr)."""
    if not isinstance(column, np.ndarray) or column.size == 0:
        return column
    if column.dtype.kind == "b":
        return np.array(["False", "True"], dtype=object)[column.astype(np.intp)].tolist()
    if column.dtype.kind in "iu":
        low, high = int(column.min()), int(column.max())
        if high - low > 1 << 16:
            return column.tolist()
        texts = np.array([str(v) for v in range(low, high + 1)], dtype=object)
        shifted = column - column.min() if column.dtype.kind == "u" else column.astype(np.int64) - low  # no wrap
        return texts[shifted.astype(np.intp)].tolist()
    return column.tolist() if column.dtype == np.float64 else column


def _references(metric: str, gold: Any) -> int | None:
    """How many reference streams BLEU or chrF scored against: 1 for a list of strings, else one per stream."""
    if metric not in ("bleu", "chrf") or gold is None or len(gold) == 0:
        return None
    return 1 if isinstance(gold[0], str) else len(gold)


def _check_budget(paired: PairedStats, n_resamples: int, budget: int, twice: bool) -> None:
    """Refuse a run whose resampling work (b × the rows each resample sums) exceeds ``budget``."""
    rows = len(paired.counts) if paired.compressed else paired.n
    budgets.check(f"b = {n_resamples:,} resamples of {rows:,} rows", rows * (2 if twice else 1),  # the permutation
                  n_resamples, budget)  # test also bootstraps its interval


def membership(groups: Sequence, n_items: int, *, columns: np.ndarray | None = None,
               width: int | None = None) -> sparse.csr_matrix:
    """The (groups x items) membership matrix (or groups x patterns, counting items) that sums rows per group,
    groups in order of their first item."""
    if isinstance(groups, (str, bytes)) or not isinstance(groups, (Sequence, np.ndarray, pd.Series)):
        raise InputError("`groups` must be a list with the group (document) of each item")
    if len(groups) != n_items:
        raise InputError(f"`groups` has {len(groups)} entries but there are {n_items} items",
                         hint="Give one group per item, in the items' order.")
    codes, uniques = pd.factorize(pd.Series(list(groups), dtype=object), sort=False)
    if (codes < 0).any():
        item = int(np.flatnonzero(codes < 0)[0]) + 1
        raise InputError(f"item {item} has no group", line=item, hint="Give every item its group (document).")
    columns = np.arange(n_items) if columns is None else columns
    return sparse.csr_matrix((np.ones(n_items), (codes, columns)),
                             shape=(len(uniques), n_items if width is None else width))


def check_settings(metric, test, n_resamples, alternative, alpha, confidence_level, seed, compat, ci_method,
                   exact, block, groups):
    """Check a paired comparison's settings together: each shared one by the contract's validator, then how they
    fit the test and the metric (a test that fits the metric, an interval method, groups, compat mode)."""
    m = resolve(metric)
    if test not in TESTS:
        raise SettingsError(f"unknown test {test!r}", hint=f"Choose one of: {', '.join(TESTS)}.")
    if not TESTS[test].fits(m):
        raise SettingsError(f"the {test} test needs {TESTS[test].needs}, and {m.name} is not one",
                            hint=f"Tests that fit {m.name}: {', '.join(tests_for(m))}.")
    check_alternative(alternative)
    check_resamples(n_resamples)
    if not is_int(block) or block < 1:
        raise SettingsError(f"{PARAMETER} must be a positive integer, not {block!r}", parameter="block")
    check_alpha(alpha)
    if confidence_level is None and not is_level(1 - alpha):  # the interval's level 1 - α must stay below 1
        raise SettingsError(f"α = {alpha!r} leaves no interval: 1 − α rounds to 1", parameter="confidence_level",
                            hint=f"Use an α of at least 1e-15, or give the interval's level ({PARAMETER}).")
    if confidence_level is not None:
        check_level(confidence_level)
    check_seed(seed)
    if ci_method not in (*CI_METHODS, None):
        raise SettingsError(f"{PARAMETER} must be one of {', '.join(CI_METHODS)} or None, not {ci_method!r}",
                            parameter="ci_method")
    if ci_method not in ("basic", None) and test not in RESAMPLING:
        raise SettingsError(f"{PARAMETER} chooses the bootstrap interval of the bootstrap and permutation tests; "
                            f"the {test} test has its own interval", parameter="ci_method",
                            hint=f"Leave {PARAMETER} at its default.")
    if not isinstance(exact, (bool, np.bool_)) or (not exact and test != "mcnemar"):
        raise SettingsError(f"`exact=False` (the chi-square approximation) applies to McNemar's test only, "
                            f"not to the {test} test" if isinstance(exact, (bool, np.bool_))
                            else f"`exact` must be True or False, not {exact!r}")
    if groups is not None and test not in RESAMPLING:
        raise SettingsError(f"the {test} test treats items as independent, and these items come in groups "
                            f"({PARAMETER})", parameter="groups",
                            hint="Use the bootstrap or permutation test, which resample whole groups.")
    if compat is not None:
        if compat not in COMPAT:
            raise SettingsError(f"unknown compat mode {compat!r}", hint=f"Choose one of: {', '.join(COMPAT)}.")
        if test not in RESAMPLING or alternative != "two-sided":
            raise SettingsError("compat='sacrebleu' reproduces sacrebleu's two-sided paired bootstrap and "
                                "approximate randomisation only",
                                hint="Use test='bootstrap' or 'permutation' with alternative='two-sided'.")
        if groups is not None:
            raise SettingsError("compat='sacrebleu' resamples single segments; sacrebleu has no groups",
                                hint="Leave out compat to resample whole groups.")


_CLOSED_FORM = {
    "t": lambda va, vb, alt, cl, exact: closed_form.paired_t(va, vb, alternative=alt, confidence_level=cl),
    "z": lambda va, vb, alt, cl, exact: closed_form.paired_z(va, vb, alternative=alt, confidence_level=cl),
    "wilcoxon": lambda va, vb, alt, cl, exact: closed_form.wilcoxon(va, vb, alternative=alt, confidence_level=cl),
    "sign": lambda va, vb, alt, cl, exact: closed_form.sign_test(va, vb, alternative=alt, confidence_level=cl),
    "mcnemar": lambda va, vb, alt, cl, exact: closed_form.mcnemar(va, vb, alternative=alt, exact=exact,
                                                                  confidence_level=cl),
}


def _extreme(d: np.ndarray, test: str, alternative: str, delta: float, tol: float, compat: str | None) -> np.ndarray:
    if compat == "sacrebleu":  # Moses / MultEval: |.| statistics, strict '>'
        stat = np.abs(d) - np.abs(d).mean() if test == "bootstrap" else np.abs(d)
        return stat > abs(delta)
    if test == "bootstrap":  # δ(x⁽ⁱ⁾) against 2·δ(x), around δ(x) (SLP3 eq. 4.48)
        return extreme(d, alternative, delta, tol, centre=delta)
    return extreme(d, alternative, delta, tol)  # the permutation null, around 0


def counted(res: Result) -> np.ndarray:
    """Which values of ``res.distribution`` the p-value counts as at least as extreme as delta(x)."""
    return _extreme(res.distribution, res.test, res.delta_alternative, res.delta, tie(res.score_a, res.score_b),
                    res.compat)


class _Drawn:
    """Bootstrap resamples scored chunk by chunk as far as :meth:`fill` asks, in step with a run's own draws (no
    block waits for them all, and a Stop comes between them): one system's, drawn from its own patterns (its rows
    grouped) with the run's seed, so that its interval is the same whichever system it is compared with; or, with
    ``paired``, both systems' and their difference, for a permutation test's interval."""

    def __init__(self, chunks: Iterator, n_resamples: int, score, *, paired: bool = False):
        self.chunks, self.score, self.filled = chunks, score, 0
        self.scores = np.empty(n_resamples)
        self.scores_b, self.deltas = (np.empty(n_resamples), np.empty(n_resamples)) if paired else (None, None)

    def fill(self, share: float) -> None:
        """Draw until ``share`` of the resamples are scored (all of them at 1)."""
        want = len(self.scores) if share >= 1 else int(share * len(self.scores))
        while self.filled < want:
            totals_a, totals_b = next(self.chunks)
            drawn = slice(self.filled, self.filled + len(totals_a))
            self.scores[drawn] = self.score(totals_a)
            if self.deltas is not None:
                self.scores_b[drawn] = self.score(totals_b)
                np.subtract(self.scores[drawn], self.scores_b[drawn], out=self.deltas[drawn])
            self.filled = drawn.stop

    def drawn(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The paired scores and differences drawn so far (views; made with ``paired``)."""
        return self.scores[:self.filled], self.scores_b[:self.filled], self.deltas[:self.filled]


@dataclass
class Run:
    """One paired comparison, its settings and data checked and its statistics prepared, ready to run its test."""

    metric: str
    test: str
    alternative: str
    alpha: float
    confidence_level: float
    ci_alpha: float  # 1 - confidence_level, kept as alpha itself when the level follows it (no float drift)
    seed: int
    compat: str | None
    ci_method: str | None
    mcnemar_exact: bool
    options: dict[str, Any]
    paired: PairedStats  # per item, or per group
    stats: list[np.ndarray] | None  # per item, for the closed-form tests of decomposable metrics
    score: Callable[[np.ndarray], np.ndarray]
    n_resamples: int
    n_items: int
    n_groups: int | None
    data: str = ""  # data_hash of the inputs, so a reader can check they have the same data
    references: int | None = None  # reference streams of BLEU and chrF
    auto: bool = False  # the test was not named: the advisor's recommendation for these data
    test_reason: str = ""  # why the advisor recommends it
    definition: Metric | None = None  # the metric itself (a custom one has no entry in METRICS)
    higher_is_better: bool = True

    def __post_init__(self):
        total_a, total_b = self.paired.totals()
        self.score_a, self.score_b = float(self.score(total_a)), float(self.score(total_b))
        self.delta = finite_delta(self.score_a, self.score_b)
        self.tol = tie(self.score_a, self.score_b)
        self.n_differing = self.paired.discordant().n
        self.definition = self.definition or METRICS[self.metric]
        self.binary = self.definition.binary and self.n_groups is None
        self.h1 = delta_alternative(self.alternative, self.higher_is_better)  # the side of δ that H1 names

    def signature(self, n_resamples: int | None, exact: bool = False, ci: str = "",
                  ci_resamples: int | None = None) -> Signature:
        """The settings, sizes and versions that made the result (b and seed for a resampling test only)."""
        return Signature(
            "pair", self.test, exact=exact, chi_square=not self.mcnemar_exact, alternative=self.alternative,
            alpha=self.alpha, resamples=n_resamples, seed=None if n_resamples is None else self.seed,
            compat=self.compat, metric=self.metric, options=self.options, higher_is_better=self.higher_is_better,
            references=self.references, items=self.n_items, data=self.data or None, groups=self.n_groups, ci=ci,
            level=self.confidence_level, ci_resamples=ci_resamples,
            versions=tool_versions("numpy", *(["sacrebleu"] if self.metric in ("bleu", "chrf") else [])))

    def warnings(self) -> tuple[str, ...]:
        """What the reader should know about this test on data this size (and about a BLEU of 0 for both)."""
        out = ()
        if self.metric == "bleu" and self.score_a == 0 and self.score_b == 0:
            order = self.options.get("max_ngram_order", 4)
            out = (f"BLEU is 0 for both systems: neither has a matching {order}-gram (a segment shorter than {order} "
                   "tokens has none), so the test cannot tell them apart; for labels or short answers use accuracy "
                   "or exact_match, or chrF",)
        few = None if self.n_groups is None else resampling.few_clusters(self.n_groups, "groups")
        out = (*out, few) if few else out
        size = self.n_differing  # only these move delta: 10 of 400 items are a small sample
        unsure = self.test == "bootstrap" or (self.test == "mcnemar" and not self.mcnemar_exact)
        if size >= SMALL_SAMPLE or size == 0 or not unsure:  # identical systems: nothing to be unsure of
            return out
        units = "discordant pair" if self.binary else "group" if self.n_groups is not None else "item"
        what = f"{size} {units}{'s' * (size != 1)}" + ("" if self.binary else " where A and B differ")
        better = "McNemar's exact test" if self.binary else "the permutation test (exact for few items)"
        name = "McNemar chi-square test" if self.test == "mcnemar" else TESTS[self.test].title
        return (*out, f"only {what}: below {SMALL_SAMPLE} the {name}'s p tends to be too small; {better} is "
                      "recommended")

    def resampled(self, block: int) -> Iterator[Result]:
        n_resamples = self.n_resamples
        exact = (self.test == "permutation" and self.compat is None
                 and resampling.exact_permutation_size(self.paired) <= n_resamples)
        if self.test == "bootstrap":
            total, chunks = n_resamples, resampling.bootstrap(self.paired, n_resamples, self.seed)
            boot = None
        else:  # exact: every assignment but the observed one, which p adds as the +1
            total = max(resampling.exact_permutation_size(self.paired) - 1, 1) if exact else n_resamples
            chunks = (resampling.exact_permutation(self.paired, self.seed) if exact
                      else resampling.permutation(self.paired, n_resamples, self.seed))
            boot = None if self.ci_method is None else _Drawn(  # the null says nothing about the size of delta
                resampling.bootstrap(self.paired, n_resamples, self.seed), n_resamples, self.score, paired=True)
        # one buffer each: every partial result holds a view of its first values, never a copy
        scores_a, scores_b, deltas = np.empty(total), np.empty(total), np.empty(total)
        own = self._alone(n_resamples)
        filled, mark = 0, min(block, total)
        for totals_a, totals_b in chunks:
            size = len(totals_a)
            scores_a[filled:filled + size] = self.score(totals_a)
            scores_b[filled:filled + size] = self.score(totals_b)
            drawn = slice(filled, filled + size)
            np.subtract(scores_a[drawn], scores_b[drawn], out=deltas[drawn])
            filled += size
            while mark <= filled:
                for draws in filter(None, [boot, *own]):  # block by block, even where one chunk of the test's
                    draws.fill(mark / total)  # draws holds many blocks (a short exact enumeration)
                yield self.resampled_result(scores_a[:mark], scores_b[:mark], deltas[:mark], exact,
                                             None if boot is None else boot.drawn(), done=mark == total, own=own)
                if mark == total:
                    return
                mark = min(mark + block, total)

    def _alone(self, n_resamples: int) -> list[_Drawn | None]:
        """Each system's resamples drawn from its own patterns (:class:`_Drawn`), for its interval at the end; None
        where the paired draws are its own (as many patterns as the pairs), [] where no interval needs them (none
        asked, or right/wrong items: Wilson's)."""
        if self.ci_method is None or self.binary:
            return []
        k = len(self.paired.counts)
        own = [resampling.PairedStats.from_patterns(rows, rows, self.paired.counts)
               for rows in (self.paired.rows_a, self.paired.rows_b)]
        return [None if len(o.counts) == k else _Drawn(resampling.bootstrap(o, n_resamples, self.seed), n_resamples,
                                                       self.score) for o in own]

    def _delta_interval(self, d: np.ndarray | None) -> tuple[str, tuple[float, float]]:
        if d is None or self.ci_method is None:
            return "none", (math.nan, math.nan)
        if self.ci_method == "basic":
            ci = intervals.basic(d, self.delta, self.ci_alpha, self.h1, self.tol)
        elif self.ci_method == "bca":
            jack, weights = resampling.jackknife_deltas(self.paired, self.score)
            ci = intervals.bca(d, self.delta, jack, weights, self.confidence_level, self.h1)
        else:
            ci = intervals.percentile(d, self.confidence_level, self.h1)
        return f"bootstrap-{self.ci_method}", tuple(0.0 if abs(x) <= self.tol else x for x in ci)  # noise is 0

    def _own_intervals(self, sa: np.ndarray | None = None, sb: np.ndarray | None = None, normal: bool = False):
        """Each system's own two-sided interval: Wilson's for right/wrong items, else the percentile interval
        of its resampled scores (resampled alone: see :class:`_Drawn`), or the t (normal) interval of its
        per-item mean for the closed-form tests."""
        level = self.confidence_level
        if self.binary:
            return tuple(intervals.wilson(self.score(s), level) for s in self.stats)
        if sa is not None:
            return intervals.percentile(sa, level), intervals.percentile(sb, level)
        if self.stats is not None and self.test not in RESAMPLING:
            return tuple(intervals.mean_interval(self.score(s), level, normal=normal) for s in self.stats)
        return (math.nan, math.nan), (math.nan, math.nan)

    def resampled_result(self, sa, sb, d, exact, boot, done, alone: bool = True, own: list | None = None) -> Result:
        """The result from resampled scores; ``alone``: each system's interval from resampling it alone (a family
        of comparisons passes False: its resampled scores are already every system's own, shared by all pairs),
        with ``own``'s draws where they were made (:meth:`_alone`)."""
        b = len(d)
        count = int(np.sum(_extreme(d, self.test, self.h1, self.delta, self.tol, self.compat)))
        exact = exact and done  # a partial enumeration is a sample of the assignments, not the exact p
        if self.test == "bootstrap" and self.compat is None:  # SLP3 eq. 4.48; no extreme resample: p < 1/b
            p, floor = max(count, 1) / b, 1 / b
        else:  # permutations and sacrebleu's definitions add one (the observed assignment)
            p, floor = (count + 1) / (b + 1), 1 / (b + 1)
        if exact:  # all 2^n' assignments: the observed one, and for "two-sided" its mirror image, are extreme
            floor = min(1.0, (1 if self.alternative != "two-sided" else 2) / (b + 1)) if self.n_differing else 1.0
        if self.test == "bootstrap":
            boot = (sa, sb, d) if self.ci_method else None
        method, (low, high) = self._delta_interval(None if boot is None else boot[2])
        scores = (None, None)
        if boot is not None:  # each system resampled alone (in the streamed partial results: the paired draws)
            scores = boot[:2] if not (done and alone and own) else tuple(
                paired if draws is None else draws.scores for paired, draws in zip(boot[:2], own))
        ci_a, ci_b = self._own_intervals(*scores)
        bootstrap = self.test == "bootstrap"
        # the permutation test's own bootstrap
        interval_b = len(boot[2]) if boot is not None and not bootstrap else None
        mc = 0.0 if exact else math.sqrt((count + 2) / (b + 4) * (1 - (count + 2) / (b + 4)) / b)  # never 0
        return Result(
            metric=self.metric, test=self.test, alternative=self.alternative, alpha=self.alpha,
            score_a=self.score_a, score_b=self.score_b, delta=self.delta, estimand="delta", estimate=self.delta,
            p_value=p, ci_low=low, ci_high=high, confidence_level=self.confidence_level, ci_method=method,
            ci_a=ci_a, ci_b=ci_b, n_items=self.n_items, n_differing=self.n_differing, n_resamples=b,
            seed=self.seed, mc_error=mc, p_floor=floor, distribution=d,
            threshold=2 * self.delta if bootstrap and self.compat is None else self.delta,
            signature_fields=self.signature(b, exact, method, interval_b), n_extreme=count, n_groups=self.n_groups,
            exact=exact,
            compat=self.compat, options=self.options, warnings=self.warnings(), done=done, auto=self.auto,
            test_reason=self.test_reason, higher_is_better=self.higher_is_better, ci_resamples=interval_b)

    def closed_form(self) -> Result:
        va, vb = self.score(self.stats[0]), self.score(self.stats[1])  # decomposable: one value per item
        sign = 1.0 if self.higher_is_better else -1.0  # errors negated: "A wins" and "greater" mean A better
        out = _CLOSED_FORM[self.test](sign * va, sign * vb, self.alternative, self.confidence_level,
                                      self.mcnemar_exact)
        estimand = TESTS[self.test].estimand
        if sign < 0 and estimand in ("delta", "pseudo_median"):  # back in units of A − B; wins stay A's
            out = replace(out, estimate=-out.estimate, ci_low=-out.ci_high, ci_high=-out.ci_low,
                          statistic=-out.statistic if self.test in ("t", "z") else out.statistic)
        method = {"t": "t", "z": "normal", "wilcoxon": "hodges-lehmann"}.get(self.test, "clopper-pearson")
        ci_a, ci_b = self._own_intervals(normal=self.test == "z")
        return Result(
            metric=self.metric, test=self.test, alternative=self.alternative, alpha=self.alpha,
            score_a=self.score_a, score_b=self.score_b, delta=self.delta, estimand=estimand,
            estimate=self.delta if estimand == "delta" else float(out.estimate), p_value=float(out.p_value),
            ci_low=float(out.ci_low), ci_high=float(out.ci_high), confidence_level=self.confidence_level,
            ci_method=method, ci_a=ci_a, ci_b=ci_b, n_items=self.n_items, n_differing=self.n_differing,
            n_resamples=0, seed=None, mc_error=0.0, p_floor=float(out.p_floor), distribution=None, threshold=None,
            signature_fields=self.signature(None, ci=method), statistic=float(out.statistic), wins=out.wins,
            losses=out.losses, compat=None, options=self.options, warnings=self.warnings(), exact=out.exact,
            auto=self.auto, test_reason=self.test_reason, higher_is_better=self.higher_is_better)

