"""Which paired test fits a comparison, and why: the decision tree of Dror et al. (2018).

Dror, Baumer, Shlomov & Reichart (2018), "The Hitchhiker's Guide to Testing Statistical Significance in NLP":
check whether the per-item differences are normal (Shapiro-Wilk); if they are, the paired t-test; if not, a
non-parametric test, sampling-free (sign, Wilcoxon, McNemar) or sampling-based (bootstrap, permutation); a
metric that is not a mean of per-item values (F1, BLEU) takes only the sampling-based ones. Which tests *fit*
comes from :func:`sigcore.comparison.tests_for`, so the advice and the engine never disagree; the advisor ranks
those tests for the data at hand and says why, with the numbers that decided.

>>> advice = advise("accuracy", a_scores=[1, 1, 0, 1], b_scores=[1, 0, 0, 1])
>>> advice.recommended.test
'mcnemar'
"""

from __future__ import annotations

import inspect
import math
import numbers
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._lazy import stats
from .comparison import RESAMPLING, SMALL_SAMPLE, TESTS, Z_MIN_ITEMS, compare, prepared, tests_for
from .contract import DEFAULT_ALPHA, TIE, check_alpha
from .errors import PARAMETER, SettingsError
from .metrics import METRIC_NAMES, Metric, prepare, resolve
from .statistics import intervals
from .statistics.closed_form import differences
from .words import counted

__all__ = ["N_RESAMPLES", "EXACT_MAX", "SHAPIRO_MAX", "SHAPIRO_SEED", "MILD_SKEW", "MILD_KURTOSIS", "COCHRAN", "TIES",
           "Choice", "Advice", "advise", "advise_outputs", "advise_prepared", "advise_family"]

N_RESAMPLES: int = inspect.signature(compare).parameters["n_resamples"].default  # b the advice assumes
EXACT_MAX = N_RESAMPLES.bit_length() - 1  # largest n' with 2^n' <= b: the permutation test enumerates every swap
SHAPIRO_MAX = 5000  # scipy's Shapiro-Wilk p is accurate up to this n; beyond, a fixed random subsample
SHAPIRO_SEED = 0
MILD_SKEW = 1.0  # |skewness| below this: the mean of 30+ differences is close to normal
MILD_KURTOSIS = 3.0  # excess kurtosis of the Laplace, where Wilcoxon has 1.5 times the t-test's efficiency
COCHRAN = 25  # Cochran's (1977) rule: the mean is near normal when n > 25 * skewness^2
TIES = 0.5  # share of zero differences (or of repeated sizes) beyond which ranks are mostly ties


@dataclass(frozen=True)
class Choice:
    """One test (a key of :data:`sigcore.comparison.TESTS`) and, in one sentence, why it fits or not."""

    test: str
    reason: str

    @property
    def title(self) -> str:
        return TESTS[self.test].title


@dataclass(frozen=True)
class Advice:
    """The recommended test, the other valid ones (best first), the rest with why not, and the facts used."""

    recommended: Choice
    acceptable: tuple[Choice, ...]
    unsuitable: tuple[Choice, ...]
    facts: dict[str, Any]

    def text(self) -> str:
        """A few lines for the command line and the app."""
        lines = [f"Recommended: {_named(self.recommended.test)}, because {self.recommended.reason}."]
        for heading, choices in (("Also valid", self.acceptable), ("Not advised", self.unsuitable)):
            if choices:
                lines.append(f"{heading}:")
                lines += [f"  - {_named(c.test)}: {c.reason}." for c in choices]
        return "\n".join(lines)


def _named(test: str) -> str:
    return f"{TESTS[test].title} ({test})"


def advise(metric: str | Metric, *, a_scores: Sequence[float] | None = None, b_scores: Sequence[float] | None = None,
           n_items: int | None = None, n_differing: int | None = None, grouped: bool = False,
           alpha: float = DEFAULT_ALPHA) -> Advice:
    """Advise a paired test for ``metric`` on these data.

    ``a_scores``/``b_scores``: per-item scores of a decomposable metric (right/wrong as 1/0 for a binary one);
    a metric that is not a mean of per-item values (F1, BLEU...) needs only ``n_items``, and ``n_differing``,
    the items where A's and B's statistics differ (the only ones that move δ), when known. ``grouped``: the
    items come in groups (documents), and ``n_items`` and ``n_differing`` count groups. ``alpha``: the level at
    which Shapiro-Wilk's rejection of normality counts.
    """
    m = resolve(metric)
    check_alpha(alpha)
    if not isinstance(grouped, (bool, np.bool_)):
        raise SettingsError(f"{PARAMETER} must be True or False, not {grouped!r}", parameter="grouped")
    if n_items is not None and (not isinstance(n_items, numbers.Integral) or isinstance(n_items, bool)
                                or n_items < 1):
        raise SettingsError(f"{PARAMETER} must be a positive integer, not {n_items!r}", parameter="n_items")
    n_items = None if n_items is None else int(n_items)
    if n_differing is not None and (not isinstance(n_differing, numbers.Integral) or isinstance(n_differing, bool)
                                    or not 0 <= n_differing <= (n_items if n_items is not None else n_differing)):
        raise SettingsError(f"{PARAMETER} must be a whole number from 0 to n_items, not {n_differing!r}",
                            parameter="n_differing")
    given = a_scores is not None or b_scores is not None
    if given and not m.decomposable:
        raise SettingsError(f"{m.name} is not a mean of per-item scores, so per-item scores do not decide its test",
                            hint="Pass n_items (the number of test items) instead of a_scores and b_scores.")
    facts = _blank(m, n_items, bool(grouped), float(alpha))
    if n_differing is not None:
        facts.update(n_differing=int(n_differing), tie_share=1 - n_differing / n_items if n_items else None,
                     exact_permutation=n_differing <= EXACT_MAX)
    if m.decomposable and (given or not grouped):
        a, b = _scores(m.name, a_scores, b_scores, binary=m.binary)
        if not grouped:  # grouped: n_items counts groups, which the scores cannot tell
            if n_items is not None and n_items != a.size:
                raise SettingsError(f"`n_items` is {n_items} but the scores cover {a.size} items",
                                    hint="Leave n_items out when giving scores; it is their length.")
            _describe(facts, a, b, binary=m.binary)
    fits = tests_for(m, n_items=facts["n_items"], grouped=facts["grouped"])
    if grouped or not m.decomposable:
        ranked, rejected = _resampling(facts)
    elif facts["n_differing"] == 0:
        ranked, rejected = _identical(facts, fits), []
    elif m.binary:
        ranked, rejected = _binary(facts)
    else:
        ranked, rejected = _real(facts)
    return _assemble(m, fits, ranked, rejected, facts)


def advise_outputs(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, metric: str | Metric = "accuracy",
                   groups: Sequence | None = None, alpha: float = DEFAULT_ALPHA, **metric_options: Any) -> Advice:
    """:func:`advise` from the systems' outputs, as :func:`sigcore.compare` takes them: the test that
    ``compare(..., test="auto")`` runs on the same data is ``advise_outputs(...).recommended.test``. The advice
    does not depend on the metric's direction (a test of δ = 0 is the same whichever side is better)."""
    metric = resolve(metric)
    paired, stats, score, _, _ = prepared(gold, sys_a, sys_b, metric, groups, metric_options)
    return advise_prepared(metric, paired, stats, score, groups is not None, alpha)


def advise_prepared(metric: str | Metric, paired, stats, score, grouped: bool, alpha: float = DEFAULT_ALPHA) -> Advice:
    """The advice on data as :func:`sigcore.comparison.prepared` prepares them: per-item values for a metric that is
    their mean, else the number of items (groups) and of those where A and B differ. The one place that
    decides the recommended test, for the advisor, the app's Test box and ``test="auto"``."""
    if resolve(metric).decomposable and not grouped:
        return advise(metric, a_scores=score(stats[0]), b_scores=score(stats[1]), alpha=alpha)
    return advise(metric, n_items=paired.n, n_differing=paired.discordant().n, grouped=grouped, alpha=alpha)


def advise_family(gold: Sequence | None, systems: Mapping[str, Sequence], pairs: Sequence[tuple[str, str]], *,
                  metric: str | Metric = "accuracy", groups: Sequence | None = None, alpha: float = DEFAULT_ALPHA,
                  **metric_options: Any) -> tuple[str, str]:
    """The one test for a family of comparisons (``pairs`` of ``systems``' names), and why: the test the advice
    recommends for every pair when they agree; otherwise the permutation test when some pair has fewer than
    ``SMALL_SAMPLE`` items (groups) where its systems differ (valid, and exact, at any size), else the paired
    bootstrap (valid for any metric once enough items differ)."""
    metric = resolve(metric)
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    rows, stats, score = _family_rows(gold, [systems[n] for n in names], metric, groups, metric_options)
    column = {name: i for i, name in enumerate(names)}
    chosen, fewest = {}, None
    for a, b in pairs:
        i, j = column[a], column[b]
        differ = int(np.any(rows[i] != rows[j], axis=1).sum())
        fewest = differ if fewest is None else min(fewest, differ)
        if metric.decomposable and groups is None:
            advice = advise(metric, a_scores=score(stats[i]), b_scores=score(stats[j]), alpha=alpha)
        else:
            advice = advise(metric, n_items=len(rows[i]), n_differing=differ, grouped=groups is not None, alpha=alpha)
        chosen.setdefault(advice.recommended.test, []).append(advice.recommended.reason)
    units = "groups" if groups is not None else "items"
    if len(chosen) == 1:
        test, reasons = next(iter(chosen.items()))
        return test, (f"recommended for each of the {len(pairs)} pairs (`sigcore advise` on a pair says why)"
                      if len(pairs) > 1 else f"recommended for these data: {reasons[0]}")
    if fewest < SMALL_SAMPLE:
        return "permutation", (f"the pairs' recommended tests differ ({', '.join(chosen)}) and some pair differs on "
                               f"only {fewest} {units}: the permutation test is valid, and exact, at any size")
    return "bootstrap", (f"the pairs' recommended tests differ ({', '.join(chosen)}); the paired bootstrap fits "
                         f"every pair, each differing on at least {fewest:,} {units}")


def _family_rows(gold, outputs: list[Sequence], metric: str, groups, metric_options):
    """Each system's sufficient statistics per item (per group with ``groups``), its per-item ones where the
    metric has them, and the score function: what decides whether two systems differ on an item."""
    from .comparison import membership

    m = resolve(metric)
    if m.patterns is not None:
        patterns, inverse, score, _ = m.patterns(gold, outputs, **metric_options)
        rows, stats = [p[inverse] for p in patterns], None
        if groups is not None:
            rows = [membership(groups, len(inverse), columns=inverse, width=len(p)) @ p for p in patterns]
    else:
        stats, score, _ = prepare(metric, gold, outputs, **metric_options)
        rows = stats if groups is None else [membership(groups, len(stats[0])) @ s for s in stats]
    return rows, stats, score


def _blank(m: Metric, n_items: int | None, grouped: bool, alpha: float) -> dict[str, Any]:
    """Every fact the advice may report; None where it does not apply to these inputs."""
    return {"metric": m.name, "n_items": n_items, "n_differing": None, "decomposable": m.decomposable,
            "binary": m.binary, "grouped": grouped, "alpha": alpha, "n_resamples": N_RESAMPLES,
            "shapiro_w": None, "shapiro_p": None, "shapiro_n": None, "skewness": None, "kurtosis": None,
            "tie_share": None, "rank_tie_share": None, "distinct_sizes": None, "discordant": None,
            "a_only": None, "b_only": None, "exact_permutation": None}


def _scores(metric: str, a_scores: Any, b_scores: Any, binary: bool) -> tuple[np.ndarray, np.ndarray]:
    """Both systems' per-item scores as float arrays, refusing what no test could use."""
    kind = "right/wrong (1/0)" if binary else "scores"
    if a_scores is None or b_scores is None:
        raise SettingsError(f"{metric} is a mean of per-item values and its test depends on them: give both "
                            "a_scores and b_scores", hint=f"Pass each system's per-item {kind}, same items in "
                                                          "the same order.")
    arrays = []
    for values, name in ((a_scores, "a_scores"), (b_scores, "b_scores")):
        if isinstance(values, (str, bytes)):
            raise SettingsError(f"`{name}` must be a list of numbers, not text")
        try:
            x = np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            raise SettingsError(f"`{name}` must be a list of numbers", hint=f"Give one {kind} value per item.") \
                from None
        if x.ndim != 1:
            raise SettingsError(f"`{name}` must hold one value per item (1-D), got shape {x.shape}")
        bad = np.flatnonzero(~np.isfinite(x))
        if bad.size:
            raise SettingsError(f"`{name}` has {x[bad[0]]} at item {bad[0] + 1}, not a finite number",
                                hint="Score every item, or drop it from both systems.")
        if binary and not np.isin(x, (0.0, 1.0)).all():
            value = x[~np.isin(x, (0.0, 1.0))][0]
            raise SettingsError(f"{metric} needs per-item right/wrong as 1/0, and `{name}` has {value:g}",
                                hint="Give 1 where the system is right and 0 where it is wrong.")
        arrays.append(x)
    a, b = arrays
    if a.size != b.size:
        raise SettingsError(f"`a_scores` has {a.size} items but `b_scores` has {b.size}",
                            hint="Both systems must be scored on the same items, in the same order.")
    if a.size == 0:
        raise SettingsError("the scores are empty", hint="Give at least one item.")
    with np.errstate(over="ignore", invalid="ignore"):
        if not np.isfinite(a - b).all():
            raise SettingsError("the scores are too large to subtract (a difference overflows)",
                                hint="Rescale both systems' scores alike (e.g. divide by 1e6).")
    return a, b


def _describe(facts: dict[str, Any], a: np.ndarray, b: np.ndarray, binary: bool) -> None:
    """Fill ``facts`` with what decides the test: sizes, ties, and for real values the shape of d."""
    d, _ = intervals.power_scale(differences(a.copy(), b.copy()))  # the shape of d, not its size, decides
    n, nonzero = d.size, d[d != 0]
    k = nonzero.size
    facts.update(n_items=n, n_differing=k, tie_share=1 - k / n, exact_permutation=k <= EXACT_MAX)
    if binary:
        facts.update(discordant=k, a_only=int((d > 0).sum()), b_only=int((d < 0).sum()))
        return
    if k:
        distinct = int(np.unique(np.abs(nonzero)).size)
        facts.update(distinct_sizes=distinct, rank_tie_share=1 - distinct / k)
    if n < 3 or np.ptp(d) <= TIE * np.abs(d).max():  # Shapiro-Wilk needs 3 values; a shape, a spread beyond noise
        return
    sample = d
    if n > SHAPIRO_MAX:
        sample = d[np.random.default_rng(SHAPIRO_SEED).choice(n, SHAPIRO_MAX, replace=False)]
    with warnings.catch_warnings():  # near-constant d: scipy warns of precision loss; the numbers still stand
        warnings.simplefilter("ignore")
        w, p = stats.shapiro(sample)
        skew, kurt = float(stats.skew(d)), float(stats.kurtosis(d))
    if math.isfinite(w) and math.isfinite(p):
        facts.update(shapiro_w=float(w), shapiro_p=float(p), shapiro_n=int(sample.size))
    if math.isfinite(skew) and math.isfinite(kurt):
        facts.update(skewness=skew, kurtosis=kurt)


def _exactness(k: int | None, units: str = "items") -> str:
    """Whether the permutation test enumerates every swap at the default b."""
    if k is None:
        return f"exact when at most {EXACT_MAX} {units} differ (2^n' <= b = {N_RESAMPLES:,})"
    if k <= EXACT_MAX:
        return f"exact here (2^{k} = {2 ** k:,} swaps <= b = {N_RESAMPLES:,})"
    return f"with b = {N_RESAMPLES:,} of its 2^{k} swaps drawn at random"


def _sw(f: dict[str, Any]) -> str:
    """Shapiro-Wilk's numbers, and the subsample when n was too large for its p."""
    sub = f" on a random {f['shapiro_n']:,} of them" if f["shapiro_n"] < f["n_items"] else ""
    return f"Shapiro-Wilk W = {f['shapiro_w']:.3f}, p = {f['shapiro_p']:.2g}{sub}"


def _resampling(f: dict[str, Any]) -> tuple[list[Choice], list[Choice]]:
    """Grouped items, or a metric that is no mean of per-item values: the bootstrap or the permutation test."""
    n, k, metric = f["n_items"], f["n_differing"], METRIC_NAMES.get(f["metric"], f["metric"])
    units = "groups" if f["grouped"] else "items"
    why = ("the items come in groups, and only resampling whole groups keeps their dependence" if f["grouped"]
           else f"{metric} is not a mean of per-item values, so only resampling tests apply")
    size = k if k is not None else n  # only the units where A and B differ move δ
    if size is not None and size < SMALL_SAMPLE:
        few = (f"{n} {units}" if k is None or k == n else
               f"{k} {units} where A and B differ (of {n:,})")
        return [Choice("permutation", f"{why}, and with {few} (fewer than {SMALL_SAMPLE}) the permutation "
                                      f"test stays valid, {_exactness(size, units)}"),
                Choice("bootstrap", f"valid, but with only {few} its p tends to be too small")], []
    drawn = f"the {n:,} {units}" if n is not None else f"the {units}"
    boot = (f"the cluster bootstrap (Field & Welsh 2007) redraws {drawn} whole, with replacement" if f["grouped"]
            else f"the paired bootstrap (Berg-Kirkpatrick et al. 2012) recomputes {metric} on {drawn} drawn with "
                 "replacement")
    return [Choice("bootstrap", f"{why}: {boot}"),
            Choice("permutation", f"swaps A and B per {units[:-1]} and recomputes the metric, as valid, "
                                  f"{_exactness(k, units)}")], []


def _identical(f: dict[str, Any], fits: list[str]) -> list[Choice]:
    """A and B score the same on every item: every test gives p = 1. Said of their scores, not their outputs,
    which may differ on every item (two regression models that are both "wrong" on all of them by accuracy)."""
    n, metric = f["n_items"], METRIC_NAMES.get(f["metric"], f["metric"])
    units = "groups" if f["grouped"] else "items"
    same = (f"A and B are right on the same {units} and wrong on the same {units} (all {n:,}), whatever their "
            "outputs" if f["binary"] else f"A's and B's {metric} statistics are equal on all {n:,} {units}")
    first = f"{same}, so every test gives p = 1, and this exact one comes first"
    exact = "mcnemar" if "mcnemar" in fits else "permutation"
    one = "a group" if f["grouped"] else "an item"
    return [Choice(exact, first)] + [Choice(t, f"also gives p = 1, as A's and B's {metric} never differ on {one}")
                                     for t in fits if t != exact]


def _binary(f: dict[str, Any]) -> tuple[list[Choice], list[Choice]]:
    """Right/wrong items: McNemar's test on the discordant pairs."""
    k, a_only, b_only = f["discordant"], f["a_only"], f["b_only"]
    pairs = f"{counted(k, 'discordant pair')} (A alone right on {a_only:,}, B alone on {b_only:,})"
    sign = Choice("sign", f"on right/wrong items it counts the same {k:,} discordant pairs, so it is equivalent "
                          "to McNemar's exact test here")
    if k < SMALL_SAMPLE:
        few = f"only {k} discordant pairs"
        return [Choice("mcnemar", f"right/wrong items with {pairs}: McNemar's exact binomial test, since with "
                                  f"fewer than {SMALL_SAMPLE} the chi-square approximation is unreliable"),
                Choice("permutation", f"valid at any size, {_exactness(k)}"),
                sign,
                Choice("bootstrap", f"valid, but with {few} its p tends to be too small")], \
            [Choice("t", f"{few}: the mean of the 1/0/-1 differences is far from normal"),
             Choice("z", f"{few}: the mean of the 1/0/-1 differences is far from normal")]
    clt = f"{k:,} discordant pairs make the mean of the 1/0/-1 differences near normal (central limit theorem)"
    return [Choice("mcnemar", f"right/wrong items with {pairs}: McNemar's test, exact binomial by default (its "
                              "chi-square version agrees at this size)"),
            Choice("permutation", f"swaps A and B per item and tests the accuracy difference itself, {_exactness(k)}"),
            Choice("bootstrap", "resamples the items, assuming only that they are independent"),
            sign,
            Choice("t", clt),
            Choice("z", f"{clt}, and n = {f['n_items']:,} items give the normal tail")], []


def _tied(f: dict[str, Any]) -> bool:
    return f["tie_share"] > TIES or (f["rank_tie_share"] or 0) > TIES


def _ties(f: dict[str, Any]) -> str:
    sizes = counted(f["distinct_sizes"], "distinct size")
    return (f"{f['tie_share']:.0%} of the differences are 0 and the {f['n_differing']:,} others take {sizes}, so "
            "the ranks are mostly ties (the sign or permutation test takes ties as they are)")


def _real(f: dict[str, Any]) -> tuple[list[Choice], list[Choice]]:
    """Real-valued per-item scores: normal differences take t; skew, heavy tails, ties or few items do not."""
    n, k, alpha = f["n_items"], f["n_differing"], f["alpha"]
    p, skew, kurt = f["shapiro_p"], f["skewness"], f["kurtosis"]
    wins = f"who wins on each of the {k:,} differing items"
    wilcoxon = (Choice("wilcoxon", _ties(f)) if _tied(f) else None)
    if k < SMALL_SAMPLE:
        few = f"only {counted(k, 'differing item')}" + (f" (of {n:,})" if k < n else "")
        t = (Choice("t", f"{_sw(f)} > alpha = {alpha:g}, though with {few} that is weak evidence of normality")
             if p is not None and p > alpha else
             Choice("t", f"with {few} the t-test leans on normality, and "
                         + (f"{_sw(f)} <= alpha = {alpha:g} rejects it" if p is not None
                            else "there is no spread to check it on")))
        ranked = [Choice("permutation", f"{few} (fewer than {SMALL_SAMPLE}): the permutation test is valid "
                                        f"at any size, {_exactness(k)}")]
        ranked += [t] if p is not None and p > alpha else []
        ranked += [] if wilcoxon else [Choice("wilcoxon", f"ranks the sizes of the {k} differences, assuming no "
                                                          "normality")]
        ranked += [Choice("sign", f"exact binomial on {wins}, assuming nothing about the sizes"),
                   Choice("bootstrap", f"valid, but with {few} its p tends to be too small")]
        rejected = ([] if p is not None and p > alpha else [t]) + ([wilcoxon] if wilcoxon else [])
        return ranked, rejected + [Choice("z", f"{few}: too few for the normal tail")]
    if p is None or skew is None:  # k >= 30 items and no spread: every item differs by the same amount
        same = f"all {n:,} differences are equal"
        return ([Choice("permutation", f"{same}: with no spread there is no shape to check, and the permutation "
                                       f"test needs none, {_exactness(k)}"),
                 Choice("sign", f"exact binomial on {wins}"),
                 Choice("bootstrap", "resamples the items, assuming only that they are independent")],
                [Choice("t", f"{same}: t = +-inf and p = 0 are a limit, not evidence"),
                 Choice("z", f"{same}: z = +-inf and p = 0 are a limit, not evidence"),
                 Choice("wilcoxon", f"{same}: every rank is tied")])
    shape = f"skewness {skew:.2f}, excess kurtosis {kurt:.2f}"
    sign = Choice("sign", f"uses only {wins}, so it has the least power")
    boot = Choice("bootstrap", "resamples the items, no normality needed")
    if p > alpha or (abs(skew) < MILD_SKEW and kurt < MILD_KURTOSIS):
        why = (f"{_sw(f)} > alpha = {alpha:g}: the {n:,} differences look normal" if p > alpha else
               f"{_sw(f)} rejects normality, but the departure is mild ({shape}), and at n = {n:,} the t-test is "
               "robust by the central limit theorem (at large n Shapiro-Wilk flags departures too small to matter)")
        ranked = [Choice("t", why),
                  Choice("permutation", "tests the same mean difference without assuming normality, "
                                        + _exactness(k)), boot,
                  Choice("z", f"at n = {n:,} its normal tail is close to the t-test's")]
        ranked += [] if wilcoxon else [Choice("wilcoxon", "tests the pseudo-median rather than the mean, losing "
                                                          "about 5% efficiency under normality")]
        return ranked + [sign], [wilcoxon] if wilcoxon else []
    need = COCHRAN * skew ** 2
    if n > need:
        clt = f"valid by the central limit theorem, as n = {n:,} > 25 * skewness^2 = {need:,.0f} (Cochran's rule)"
        means = [Choice("t", f"{clt}, though {shape} costs it power"), Choice("z", clt)]
        unfit = []
    else:
        means = []
        unfit = [Choice(t, f"{_sw(f)} rejects normality and the differences are skewed ({skew:.2f}): at n = {n:,} "
                           f"the mean is not yet near normal (Cochran's rule wants n > 25 * skewness^2 = {need:,.0f})")
                 for t in ("t", "z")]
    if wilcoxon:
        sizes = counted(f["distinct_sizes"], "distinct size")
        first = Choice("permutation", f"{_sw(f)} rejects normality and the differences are mostly ties "
                                      f"({f['tie_share']:.0%} zero, {sizes}): the permutation test needs neither "
                                      f"normality nor distinct ranks, {_exactness(k)}")
        return [first, Choice("sign", f"uses only {wins}, so ties do no harm"), boot] + means, unfit + [wilcoxon]
    if abs(skew) >= MILD_SKEW:
        first = Choice("bootstrap", f"{_sw(f)} rejects normality and the differences are skewed ({shape}): the "
                                    "paired bootstrap resamples the items and tests the mean difference itself, "
                                    "assuming neither normality nor symmetry")
        # swapping A and B per item makes each difference's null symmetric about 0: not so under skew
        perm = Choice("permutation", "valid for H0 that A and B are exchangeable on each item; under this skew "
                                     "that is not 'equal means', and it may reject when the means are equal")
        return [first, perm,
                Choice("wilcoxon", "needs no normality, but under this skew its pseudo-median can differ from the "
                                   "mean difference the metric reports"),
                sign] + means, unfit
    first = Choice("wilcoxon", f"{_sw(f)} rejects normality: the differences are heavy-tailed but nearly symmetric "
                               f"({shape}), where ranks keep the power that outliers take from the t-test")
    return [first, Choice("permutation", "tests the mean difference itself without assuming normality, "
                                         + _exactness(k)), boot, sign] + means, unfit


def _unfit(test: str, m: Metric, f: dict[str, Any]) -> str:
    """Why the engine's ``tests_for`` leaves ``test`` out for this metric and these data."""
    metric, n = METRIC_NAMES.get(f["metric"], f["metric"]), f["n_items"]
    if not TESTS[test].fits(m):
        if not m.decomposable:
            return (f"the metric is not a mean of per-item values ({metric} is computed from totals over all "
                    "items), so a per-item test does not test it")
        if test == "wilcoxon":
            return "right/wrong items differ by 1, 0 or -1, with no magnitudes to rank (that is the sign test)"
        return f"it needs {TESTS[test].needs}, and {metric} is not one"
    if f["grouped"] and test not in RESAMPLING:
        return ("the items come in groups (documents), and a per-item test counts dependent items as independent "
                "evidence, which the central limit theorem does not allow")
    if test == "z" and n is not None and n < Z_MIN_ITEMS:
        return (f"the z-test needs n >= {Z_MIN_ITEMS} items, as it takes the sample SD for the known one (6.1% false "
                f"alarms at n = 30 for alpha = 5%), and there are {n:,}")
    if test == "t" and n is not None and n < 2:
        return f"a standard deviation needs at least 2 items, and there is {n}"
    return "it does not fit these data"


def _assemble(m: Metric, fits: list[str], ranked: list[Choice], rejected: list[Choice],
              f: dict[str, Any]) -> Advice:
    """Ranked tests the engine fits are advised; everything else, with why not, once each, in TESTS order."""
    good = [c for c in ranked if c.test in fits]
    because = {c.test: c.reason for c in rejected if c.test in fits}
    for t in fits:  # a fitting test no branch placed still fits: never drop it silently
        if t not in because and all(c.test != t for c in good):
            good.append(Choice(t, f"fits {m.name} and these data"))
    seen = {c.test for c in good}
    bad = tuple(Choice(t, because.get(t) or _unfit(t, m, f)) for t in TESTS if t not in seen)
    facts = dict(f)
    facts["fits"] = list(fits)
    return Advice(good[0], tuple(good[1:]), bad, facts)
