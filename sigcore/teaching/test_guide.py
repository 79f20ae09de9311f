"""Which test? The seven paired tests of :data:`sigcore.comparison.TESTS`, each with a guide and a simulation.

A :class:`Guide` says what a test does in SLP3 §4.11's terms (x, x⁽ⁱ⁾, δ(x), H0), what it assumes, its formula, and
when it misleads, after Dror et al. (2018). Each test also has one small simulation where the truth is known
(:data:`SIMULATIONS`): the share of simulated test sets with p ≤ α, a type I error where H0 is true and the power
where A is truly better, each with its Monte-Carlo 95% interval (Clopper–Pearson). Every test is one-sided, H1: A
is better, as in SLP3. The resampling tests' p come from :func:`sigcore.compare`; the closed-form tests' p from
their formulas, vectorised over test sets (``tests/test_test_guide.py`` checks them against ``compare``).
:mod:`sigcore.teaching.test_guide_figures` draws the simulations.
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._lazy import stats
from ..comparison import TESTS, compare
from ..contract import (
    DEFAULT_ALPHA,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    SIMULATION_RESAMPLES,
    TIE,
    check_alpha,
    check_resamples,
)
from ..errors import PARAMETER, SettingsError
from ..result import mc_interval
from ..statistics.closed_form import wilcoxon

__all__ = ["Guide", "GUIDES", "Rates", "FewPairs", "SkewedDifferences", "SmallSampleZ", "ExactPermutation",
           "HeavyTails", "SignPower", "Clustered", "few_discordant_pairs", "bootstrap_p", "skewed_differences",
           "small_sample_z", "exact_permutation", "heavy_tails", "sign_power", "clustered_items", "SIMULATIONS",
           "QUESTIONS", "t_p", "z_p", "binomial_p", "signed_rank_p"]

_SEEDS = 2**32  # compare() seeds drawn per test set, so no two test sets share their resamples


@dataclass(frozen=True)
class Guide:
    """What one test does, what it assumes, its formula, when it misleads, and the works to cite (keys of
    :data:`sigcore.report.citations.WORKS`)."""

    test: str
    summary: str
    assumptions: str
    formula: str
    misleads: str
    cite: tuple[str, ...]

    @property
    def title(self) -> str:
        return TESTS[self.test].title


GUIDES: dict[str, Guide] = {g.test: g for g in [
    Guide("bootstrap",
          "Draws b test sets x⁽ⁱ⁾ of n items from x with replacement and computes δ(x⁽ⁱ⁾) on each. The δ(x⁽ⁱ⁾) "
          "scatter around δ(x), not around 0, so the p-value counts those where δ(x⁽ⁱ⁾) − δ(x) ≥ δ(x), that is "
          "δ(x⁽ⁱ⁾) ≥ 2·δ(x): how often chance adds as much again as A's lead (SLP3 eq. 4.48). It recomputes the "
          "metric on each x⁽ⁱ⁾, so it works for F1, BLEU and chrF as well as for accuracy.",
          "The items of x are independent draws from the population of test items (resample whole documents when "
          "sentences come in documents), and x is large enough to stand for that population. No shape of δ is "
          "assumed.",
          "p = #{δ(x⁽ⁱ⁾) ≥ 2·δ(x)} / b",
          "With few items where A and B differ (under 30 discordant pairs on right/wrong items) the x⁽ⁱ⁾, drawn "
          "from x's own few discordant pairs, stand in poorly for new test sets, and p can come out too small: "
          "in the simulation, among test sets with the same number of discordant pairs where H0 is true, it "
          "rejects H0 more often than α at several sizes, while McNemar's exact test never does. There, use "
          "McNemar's exact test or the permutation test.",
          ("berg-kirkpatrick-etal-2012-empirical", "efron1993introduction", "koehn-2004-statistical")),
    Guide("permutation",
          "If H0 holds, the labels A and B are interchangeable on every item, so swapping A's and B's outputs on "
          "a random set of items gives a test set x⁽ⁱ⁾ just as likely as x. The p-value is the share of the b "
          "swapped test sets with δ(x⁽ⁱ⁾) ≥ δ(x), counting x itself. Only the n′ items where A and B differ "
          "matter, so there are 2ⁿ′ distinct swaps: when 2ⁿ′ ≤ b the engine takes all of them, and p is exact.",
          "H0 is that A and B are exchangeable on each item (not only that their mean scores are equal), and items "
          "are independent (or whole documents are swapped). Any metric.",
          "p = (#{δ(x⁽ⁱ⁾) ≥ δ(x)} + 1) / (b + 1), x⁽ⁱ⁾ = x with A and B swapped on random items; exact (all 2ⁿ′ − 1 "
          "other swaps) when 2ⁿ′ ≤ b",
          "Its smallest p is 1 / 2ⁿ′: with 4 or fewer differing items it cannot reach α = 0.05, however far A "
          "is ahead, so “not significant” says nothing there. And its H0 is exchangeability, not a mean "
          "difference of 0: on skewed differences with mean 0 it too rejects far more often than α (see the "
          "t-test's simulation).",
          ("noreen1989computer",)),
    Guide("t",
          "Takes the per-item differences dⱼ = M(A, xⱼ) − M(B, xⱼ), j = 1 … n, whose mean d̄ is δ(x) for a metric "
          "that is a mean of per-item scores, and asks whether d̄ is further from 0 than their spread s_d allows. "
          "If H0 holds (mean difference 0) and the differences are normal, t follows Student's t with n − 1 "
          "degrees of freedom.",
          "A metric that is a mean of per-item scores (accuracy, a per-item score; not F1 or BLEU); independent "
          "items; d̄ near normal: normal differences, or enough items for the central limit theorem (Cochran's "
          "rule: n > 25·skewness²).",
          "t = d̄ / (s_d / √n), p = P(T ≥ t), T ∼ t(n − 1)",
          "Skewed differences at small n: when A is a little better on most items and much worse on a few, "
          "the few are often missing from a small x, so d̄ looks positive with a small s_d and the t-test says "
          "“A is better” far more often than α even though the mean difference is 0. The permutation test does "
          "not fix this (in the simulation it too rejects far more often than α): the sample is too small for "
          "the mean of a skewed d. Only more items help.",
          ("student1908probable",)),
    Guide("z",
          "Divides d̄, which is δ(x) for a metric that is a mean of per-item scores, by its standard error "
          "s_d / √n, as the t-test does, but reads the result against the normal distribution N(0, 1) under H0 "
          "instead of Student's t. That treats the sample's standard deviation s_d as the true one, which is safe "
          "only when n is large (sigcore asks for n ≥ 50).",
          "As the t-test: a mean of per-item scores, independent items, d̄ near normal; and many items, so that "
          "s_d is close to the true standard deviation.",
          "z = d̄ / (s_d / √n), p = P(Z ≥ z), Z ∼ N(0, 1)",
          "At small n: s_d varies from test set to test set, which Student's t allows for and the normal "
          "distribution does not, so z rejects a true H0 more often than α. On normal differences its type I "
          "error is exactly P(T ≥ z₀.₉₅) with T ∼ t(n − 1) for α = 0.05: 8.8% at n = 5, 6.7% at n = 10, 5.3% at "
          "n = 50. Use the t-test.",
          ("student1908probable",)),
    Guide("wilcoxon",
          "Ranks the n′ non-zero differences by their size |dⱼ| and adds up the ranks of those where A is ahead, "
          "W⁺. If H0 holds (differences symmetric around 0), each dⱼ is as likely positive as negative, so W⁺ is "
          "compared with its value under all 2ⁿ′ sign patterns. It estimates the pseudo-median of d "
          "(Hodges–Lehmann), not the mean.",
          "Per-item scores with sizes to rank (not right/wrong items: that is the sign test); independent items; "
          "differences symmetric under H0; few ties.",
          "W⁺ = Σ rank(|dⱼ|) over dⱼ > 0, p = P(W⁺ ≥ w⁺) over the 2ⁿ′ equally likely signs",
          "It tests the pseudo-median of d, not δ(x): on skewed differences the two can differ in sign, so "
          "“A is better” by Wilcoxon need not mean a higher score. It is chosen for heavy tails: when a few "
          "items differ hugely, ranks keep the power that those outliers take from the t-test (simulation).",
          ("wilcoxon1945individual",)),
    Guide("sign",
          "Counts only who wins: of the n′ items where A and B differ, A wins on some and B on the rest. If H0 "
          "holds, each is as likely to win any one of them, so A's wins follow Bin(n′, ½), and p is that "
          "binomial's tail. On right/wrong items it is McNemar's exact test.",
          "Independent items; only the direction of each difference is used (ties are dropped), so it assumes "
          "nothing about sizes or shape and suits scores that are only ordered.",
          "p = P(X ≥ wins | X ∼ Bin(wins + losses, ½))",
          "It throws the sizes away: on normal differences it needs about 1.5 times as many items as Wilcoxon, "
          "and π/2 ≈ 1.6 times as many as the t-test, for the same power (simulation). It also tests the median "
          "difference, not δ(x): A can win most items and still score lower.",
          ("dixon1946statistical",)),
    Guide("mcnemar",
          "On right/wrong items only the discordant pairs move δ(x): n10 items where only A is right and n01 "
          "where only B is, δ(x) = (n10 − n01) / n. If H0 holds, each discordant pair is as likely to go either "
          "way, so n10 follows Bin(n10 + n01, ½). This exact binomial test is sigcore's default.",
          "Right/wrong per item (accuracy, exact match) and independent items. The exact test holds at any number "
          "of discordant pairs; its chi-square version wants 30 or more.",
          "McNemar: exact binomial on n10 of n10 + n01, p = P(X ≥ n10 | X ∼ Bin(n10 + n01, ½))",
          "Items that are not independent: the sentences of one document share its topic and style, so A tends "
          "to win the discordant pairs of some documents and B those of others. McNemar counts each sentence as "
          "separate evidence, and its type I error grows with that within-document correlation (simulation). "
          "Then swap or resample whole documents (a group column): the permutation or bootstrap test.",
          ("mcnemar1947note",)),
]}


@dataclass(frozen=True)
class Rates:
    """Shares of simulated test sets with p ≤ α at each setting in ``x``, one series per test (or per test and
    kind of data). Series named in ``null`` were simulated with H0 true (their rate is the type I error); the
    others with A truly better (their rate is the power)."""

    alpha: float
    x: np.ndarray
    hits: dict[str, np.ndarray]  # per series, test sets with p ≤ α at each x
    sims: dict[str, np.ndarray]  # per series, test sets simulated at each x
    null: tuple[str, ...]
    x_name: ClassVar[str] = "x"
    extra: ClassVar[dict[str, str]] = {}  # more columns of the table: field name → column name

    @property
    def series(self) -> tuple[str, ...]:
        return tuple(self.hits)

    def rate(self, name: str) -> np.ndarray:
        return self.hits[name] / self.sims[name]

    def interval(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The Monte-Carlo 95% interval (Clopper–Pearson) of each rate."""
        return mc_interval(self.hits[name], self.sims[name])

    def table(self) -> dict[str, np.ndarray]:
        """One column per number: x, then each series' rate and its interval's ends, then the extras."""
        columns = {self.x_name: self.x}
        for name in self.series:
            low, high = self.interval(name)
            columns |= {name: self.rate(name), f"{name}: 95% from": low, f"{name}: 95% to": high}
        return columns | {column: getattr(self, field) for field, column in self.extra.items()}


@dataclass(frozen=True)
class FewPairs(Rates):
    """Right/wrong test sets of ``n`` items with exactly k discordant pairs, H0 true (each pair as likely A's as
    B's): the paired bootstrap, as :func:`sigcore.compare` runs it, against McNemar's exact test."""

    n: int
    n_resamples: int
    x_name: ClassVar[str] = "discordant pairs k = n10 + n01"


@dataclass(frozen=True)
class SkewedDifferences(Rates):
    """Per-item differences with mean 0 (H0 true for the mean): skewed (1 − Exp(1), skewness −2) or normal."""

    skewness: float
    n_resamples: int
    x_name: ClassVar[str] = "items n"


@dataclass(frozen=True)
class SmallSampleZ(Rates):
    """Normal differences with mean 0: the z-test's normal tail against the t-test's, with the exact z rate."""

    exact: np.ndarray  # P(T ≥ z_{1−α}), T ∼ t(n − 1): the z-test's type I error on normal differences
    x_name: ClassVar[str] = "items n"
    extra: ClassVar[dict[str, str]] = {"exact": "z-test, exact: P(T ≥ z₁₋α), T ∼ t(n − 1)"}


@dataclass(frozen=True)
class ExactPermutation(Rates):
    """n′ items that all differ, d ∼ N(0, 1) (H0) or N(shift, 1): the permutation test's type I error and power."""

    shift: float
    n_resamples: int
    exact: np.ndarray  # whether 2ⁿ′ ≤ b, so that the engine took every swap
    floor: np.ndarray  # the smallest p the test can give: 1 / 2ⁿ′ when exact, 1 / (b + 1) when not
    x_name: ClassVar[str] = "items where A and B differ, n′"
    extra: ClassVar[dict[str, str]] = {"exact": "exact (2ⁿ′ ≤ b)", "floor": "smallest p"}


@dataclass(frozen=True)
class HeavyTails(Rates):
    """n differences d = shift + e, with e ∼ N(0, 1) on most items and N(0, outlier_sd²) on a share x of them."""

    n: int
    shift: float
    outlier_sd: float
    x_name: ClassVar[str] = "share of items with a large outlier"


@dataclass(frozen=True)
class SignPower(Rates):
    """Normal differences d ∼ N(shift, 1): the sign test's power against Wilcoxon's, with the exact sign power."""

    shift: float
    exact: np.ndarray  # the sign test's power from the binomial, P(Bin(n, Φ(shift)) ≥ its critical number of wins)
    x_name: ClassVar[str] = "items n"
    extra: ClassVar[dict[str, str]] = {"exact": "sign test, exact: binomial"}


@dataclass(frozen=True)
class Clustered(Rates):
    """Right/wrong items in documents, H0 true overall: in each document A wins each discordant pair with its own
    chance π ∼ Beta(c, c), c = (1/ρ − 1)/2, so that ρ (x) is the correlation of two pairs' winners in one document."""

    documents: int
    sentences: int
    discordance: float
    n_resamples: int
    x_name: ClassVar[str] = "correlation ρ of the winners of two discordant pairs in one document"


def few_discordant_pairs(k_max: int = 30, *, n: int = 100, alpha: float = DEFAULT_ALPHA,
                         n_resamples: int = DEFAULT_RESAMPLES, n_sims: int = 4_000,
                         seed: int = DEFAULT_SEED) -> FewPairs:
    """Type I error of the paired bootstrap and of McNemar's exact test on test sets with k = 1 … ``k_max``
    discordant pairs, of which A gets n10 ∼ Bin(k, ½).

    Test sets with the same n10 and n01 differ only in the order of their items, which the tests ignore (it only
    changes which resamples the bootstrap draws), so each pair of counts is built once (only-A items first, then
    only-B, then both right) and run once through ``compare`` with b = ``n_resamples`` and seed 0, its defaults:
    what a user running sigcore on it would get. McNemar's p comes from its binomial. Where n10 ≤ n01,
    δ(x) ≤ 0, so 2·δ(x) ≤ δ(x) and most x⁽ⁱ⁾ count: p > α, and those are not run.
    """
    _check(alpha, k_max=k_max, n=n, n_resamples=n_resamples, n_sims=n_sims)
    if k_max > n:
        raise SettingsError(f"`k_max` ({k_max}) cannot exceed the {n} items of a test set")
    rng = np.random.default_rng(seed)
    k = np.arange(1, k_max + 1)
    names = ("paired bootstrap", "McNemar's exact test")
    hits = {name: np.zeros(k_max, dtype=int) for name in names}
    for i, pairs in enumerate(k):
        wins, times = np.unique(rng.binomial(pairs, 0.5, n_sims), return_counts=True)
        boot = np.array([w > pairs - w and bootstrap_p(int(w), int(pairs - w), n, n_resamples) <= alpha
                         for w in wins])
        hits[names[0]][i] = times[boot].sum()
        hits[names[1]][i] = times[binomial_p(wins, pairs - wins) <= alpha].sum()
    return FewPairs(alpha, k, hits, _same(hits, n_sims), names, n, n_resamples)


@functools.lru_cache(maxsize=4_096)
def bootstrap_p(n10: int, n01: int, n: int = 100, n_resamples: int = DEFAULT_RESAMPLES) -> float:
    """``compare``'s paired bootstrap p (seed 0) on right/wrong items: n10 where only A is right, n01 where only
    B is, the other items right for both."""
    a, b = np.ones(n, dtype=int), np.ones(n, dtype=int)
    b[:n10], a[n10:n10 + n01] = 0, 0
    return compare(np.ones(n, dtype=int), a, b, test="bootstrap", alternative="greater", n_resamples=n_resamples,
                   ci_method=None).p_value


def skewed_differences(sizes: tuple[int, ...] = (5, 10, 20, 50, 100, 200), *, alpha: float = DEFAULT_ALPHA,
                       n_resamples: int = SIMULATION_RESAMPLES, n_sims: int = 10_000, n_sims_permutation: int = 150,
                       seed: int = DEFAULT_SEED) -> SkewedDifferences:
    """Type I error of the paired t-test on skewed and on normal differences with mean 0, and of the
    permutation test (``compare``, b = ``n_resamples``) on the first ``n_sims_permutation`` skewed test sets."""
    _check(alpha, n_resamples=n_resamples, n_sims=n_sims, n_sims_permutation=n_sims_permutation)
    sizes = _sizes(sizes, 2)
    rng = np.random.default_rng(seed)
    names = ("paired t-test, skewed d", "paired t-test, normal d", "permutation test, skewed d")
    hits = {name: np.zeros(len(sizes), dtype=int) for name in names}
    sims = {names[0]: np.full(len(sizes), n_sims), names[1]: np.full(len(sizes), n_sims),
            names[2]: np.full(len(sizes), min(n_sims_permutation, n_sims))}
    for i, n in enumerate(sizes):
        skewed = 1 - rng.exponential(size=(n_sims, n))  # A a little ahead on most items, far behind on a few
        hits[names[0]][i] = np.sum(t_p(skewed) <= alpha)
        hits[names[1]][i] = np.sum(t_p(rng.normal(size=(n_sims, n))) <= alpha)
        seeds = rng.integers(_SEEDS, size=sims[names[2]][i])
        hits[names[2]][i] = sum(_compare(d, "permutation", n_resamples, s).p_value <= alpha
                                for d, s in zip(skewed, seeds))
    return SkewedDifferences(alpha, sizes, hits, sims, names, -2.0, n_resamples)


def small_sample_z(sizes: tuple[int, ...] = (5, 10, 20, 30, 50, 100), *, alpha: float = DEFAULT_ALPHA,
                   n_sims: int = 20_000, seed: int = DEFAULT_SEED) -> SmallSampleZ:
    """Type I error of the z-test and of the t-test on the same normal differences with mean 0. The z-test is
    computed from its formula: ``compare`` refuses it below 50 items, for the reason this shows."""
    _check(alpha, n_sims=n_sims)
    sizes = _sizes(sizes, 2)
    rng = np.random.default_rng(seed)
    names = ("z-test", "paired t-test")
    hits = {name: np.zeros(len(sizes), dtype=int) for name in names}
    for i, n in enumerate(sizes):
        d = rng.normal(size=(n_sims, n))
        hits[names[0]][i], hits[names[1]][i] = np.sum(z_p(d) <= alpha), np.sum(t_p(d) <= alpha)
    exact = stats.t.sf(stats.norm.isf(alpha), sizes - 1)
    return SmallSampleZ(alpha, sizes, hits, _same(hits, n_sims), names, exact)


def exact_permutation(sizes: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 10, 12), *, shift: float = 1.0,
                      alpha: float = DEFAULT_ALPHA, n_resamples: int = SIMULATION_RESAMPLES, n_sims: int = 150,
                      seed: int = DEFAULT_SEED) -> ExactPermutation:
    """Type I error and power of the permutation test (``compare``, b = ``n_resamples``) on n′ items that all
    differ: exact while 2ⁿ′ ≤ b, with swaps drawn at random beyond."""
    _check(alpha, n_resamples=n_resamples, n_sims=n_sims)
    sizes = _sizes(sizes, 1)
    rng = np.random.default_rng(seed)
    names = ("type I error: H0 true, d ∼ N(0, 1)", f"power: A better, d ∼ N({shift:g}, 1)")
    hits = {name: np.zeros(len(sizes), dtype=int) for name in names}
    exact, floor = np.zeros(len(sizes), dtype=bool), np.zeros(len(sizes))
    for i, n in enumerate(sizes):
        for name, mean in zip(names, (0.0, shift)):
            d, seeds = rng.normal(mean, 1, size=(n_sims, n)), rng.integers(_SEEDS, size=n_sims)
            results = [_compare(row, "permutation", n_resamples, s) for row, s in zip(d, seeds)]
            hits[name][i] = sum(r.p_value <= alpha for r in results)
        exact[i], floor[i] = results[0].exact, results[0].p_floor
    return ExactPermutation(alpha, sizes, hits, _same(hits, n_sims), names[:1], shift, n_resamples, exact, floor)


def heavy_tails(shares: tuple[float, ...] = (0.0, 0.1, 0.2, 0.3), *, n: int = 30, shift: float = 0.5,
                outlier_sd: float = 5.0, alpha: float = DEFAULT_ALPHA, n_sims: int = 10_000,
                seed: int = DEFAULT_SEED) -> HeavyTails:
    """Power of the Wilcoxon signed-rank test and of the t-test as a growing share of items get large
    symmetric outliers, which leave the mean and the pseudo-median at ``shift``."""
    _check(alpha, n=n, n_sims=n_sims)
    if n > 50:  # the vectorised signed-rank test below counts its exact null up to 50 items
        raise SettingsError(f"{PARAMETER} must be at most 50 here, not {n}", parameter="n")
    x = np.asarray(shares, dtype=float)
    if x.ndim != 1 or x.size == 0 or np.any((x < 0) | (x > 1)):
        raise SettingsError(f"`shares` must be shares between 0 and 1, not {shares!r}")
    rng = np.random.default_rng(seed)
    names = ("Wilcoxon signed-rank test", "paired t-test")
    hits = {name: np.zeros(len(x), dtype=int) for name in names}
    for i, share in enumerate(x):
        noise = rng.normal(size=(n_sims, n)) * np.where(rng.random((n_sims, n)) < share, outlier_sd, 1.0)
        d = shift + noise
        hits[names[0]][i], hits[names[1]][i] = np.sum(signed_rank_p(d) <= alpha), np.sum(t_p(d) <= alpha)
    return HeavyTails(alpha, x, hits, _same(hits, n_sims), (), n, shift, outlier_sd)


def sign_power(sizes: tuple[int, ...] = (5, 10, 20, 30, 40, 50), *, shift: float = 0.5, alpha: float = DEFAULT_ALPHA,
               n_sims: int = 10_000, seed: int = DEFAULT_SEED) -> SignPower:
    """Power of the sign test and of the Wilcoxon signed-rank test on the same normal differences d ∼ N(shift, 1)."""
    _check(alpha, n_sims=n_sims)
    sizes = _sizes(sizes, 1)
    if sizes.max() > 50:
        raise SettingsError(f"`sizes` must be at most 50 items here, not {sizes.max()}")
    rng = np.random.default_rng(seed)
    names = ("sign test", "Wilcoxon signed-rank test")
    hits = {name: np.zeros(len(sizes), dtype=int) for name in names}
    for i, n in enumerate(sizes):
        d = rng.normal(shift, 1, size=(n_sims, n))
        hits[names[0]][i] = np.sum(binomial_p(np.sum(d > 0, axis=1), np.sum(d < 0, axis=1)) <= alpha)
        hits[names[1]][i] = np.sum(signed_rank_p(d) <= alpha)
    critical = np.array([_critical_wins(n, alpha) for n in sizes])  # fewest wins with p ≤ α
    exact = stats.binom.sf(critical - 1, sizes, stats.norm.cdf(shift))
    return SignPower(alpha, sizes, hits, _same(hits, n_sims), (), shift, exact)


def clustered_items(correlations: tuple[float, ...] = (0.0, 0.1, 0.3, 0.5), *, documents: int = 40, sentences: int = 20,
                    discordance: float = 0.3, alpha: float = DEFAULT_ALPHA, n_resamples: int = SIMULATION_RESAMPLES,
                    n_sims: int = 2_000, n_sims_permutation: int = 80, seed: int = DEFAULT_SEED) -> Clustered:
    """Type I error of McNemar's exact test, which counts every sentence as independent, and of the permutation
    test that swaps whole documents (``compare`` with groups, b = ``n_resamples``) on the first
    ``n_sims_permutation`` test sets, as the correlation ρ within documents grows."""
    _check(alpha, documents=documents, sentences=sentences, n_resamples=n_resamples, n_sims=n_sims,
           n_sims_permutation=n_sims_permutation)
    x = np.asarray(correlations, dtype=float)
    if x.ndim != 1 or x.size == 0 or np.any((x < 0) | (x >= 1)):
        raise SettingsError(f"`correlations` must be between 0 and 1 (1 excluded), not {correlations!r}")
    if not 0 < discordance <= 1:
        raise SettingsError(f"`discordance` must be a share between 0 and 1, not {discordance!r}")
    rng = np.random.default_rng(seed)
    names = ("McNemar's exact test, sentences as independent", "permutation test, documents swapped whole")
    hits = {name: np.zeros(len(x), dtype=int) for name in names}
    sims = {names[0]: np.full(len(x), n_sims), names[1]: np.full(len(x), min(n_sims_permutation, n_sims))}
    groups = np.repeat(np.arange(documents), sentences)
    for i, rho in enumerate(x):
        c = (1 / rho - 1) / 2 if rho else math.inf
        chance = np.full((n_sims, documents, 1), 0.5) if rho == 0 else rng.beta(c, c, (n_sims, documents, 1))
        differ = rng.random((n_sims, documents, sentences)) < discordance
        a_wins = rng.random((n_sims, documents, sentences)) < chance
        a = np.where(differ, a_wins, True).reshape(n_sims, -1).astype(int)  # concordant items: both right
        b = np.where(differ, ~a_wins, True).reshape(n_sims, -1).astype(int)
        hits[names[0]][i] = np.sum(binomial_p(np.sum(a > b, axis=1), np.sum(a < b, axis=1)) <= alpha)
        seeds = rng.integers(_SEEDS, size=sims[names[1]][i])
        hits[names[1]][i] = sum(compare(np.ones(a.shape[1], dtype=int), a[s], b[s], test="permutation",
                                        alternative="greater", n_resamples=n_resamples, ci_method=None,
                                        seed=int(seeds[s]),
                                        groups=groups).p_value <= alpha for s in range(len(seeds)))
    return Clustered(alpha, x, hits, sims, names, documents, sentences, discordance, n_resamples)


SIMULATIONS: dict[str, Callable[..., Rates]] = {
    "bootstrap": few_discordant_pairs, "permutation": exact_permutation, "t": skewed_differences,
    "z": small_sample_z, "wilcoxon": heavy_tails, "sign": sign_power, "mcnemar": clustered_items}
QUESTIONS: dict[str, str] = {  # what each simulation asks, in a sentence
    "bootstrap": "When A and B are equally good and only a few items differ, how often does the paired bootstrap "
                 "say “A is better”, against McNemar's exact test on the same test sets?",
    "permutation": "How often does the permutation test reject H0 when it is true, and when A is truly better, as "
                   "the number n′ of items that differ grows: exact while 2ⁿ′ ≤ b, sampled beyond?",
    "t": "When the per-item differences are skewed but their mean is 0, how often does the t-test say “A is "
         "better” at each n, against normal differences and the permutation test?",
    "z": "On normal differences with mean 0, how often does the z-test reject H0 at small n, against the t-test "
         "and its exact rate?",
    "wilcoxon": "When A is truly better and a growing share of items have large outliers, how often do Wilcoxon and "
                "the t-test find it?",
    "sign": "On normal differences where A is truly better, how often do the sign test and Wilcoxon find it at "
            "each n?",
    "mcnemar": "When A and B are equally good but sentences come in documents where one system tends to win, how "
               "often does McNemar's test say “A is better”, against swapping whole documents?",
}


# The closed-form tests' one-sided p (H1: A is better), one test set per row, as sigcore.statistics.closed_form
# computes them for one.

def t_p(d: np.ndarray) -> np.ndarray:
    """The paired t-test: t = d̄ / (s_d / √n) against Student's t with n − 1 degrees of freedom."""
    return stats.t.sf(_mean_statistic(d), d.shape[1] - 1)


def z_p(d: np.ndarray) -> np.ndarray:
    """The z-test: the same statistic against N(0, 1)."""
    return stats.norm.sf(_mean_statistic(d))


def binomial_p(wins: np.ndarray, losses: np.ndarray) -> np.ndarray:
    """The sign test, and McNemar's exact test with wins = n10 and losses = n01: P(X ≥ wins), X ∼ Bin(wins +
    losses, ½); 1 when nothing differs."""
    return stats.binom.sf(np.asarray(wins) - 1, np.asarray(wins) + np.asarray(losses), 0.5)


def signed_rank_p(d: np.ndarray) -> np.ndarray:
    """The exact Wilcoxon signed-rank test, P(W⁺ ≥ w⁺) over all 2ⁿ sign patterns, as sigcore computes it (here up
    to 50 items; sigcore's own test, up to 300): ranks 1..n vectorised over the rows; a row with a zero or tied
    sizes under sigcore's one tie rule (within ``TIE`` of the larger, as A scoring d against B scoring 0) by
    sigcore's own test, which drops zeros and keeps midranks."""
    n = d.shape[1]
    if n > 50:
        raise SettingsError("the vectorised signed-rank test takes at most 50 differences per test set")
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):  # each rank r adds to W⁺ or not
        counts[r:] = counts[r:] + counts[:-r].copy()
    at_least = np.cumsum(counts[::-1])[::-1] / 2.0**n  # P(W⁺ ≥ w) for w = 0, 1, ...
    ranks = stats.rankdata(np.abs(d), axis=1)
    p = at_least[np.rint(np.where(d > 0, ranks, 0).sum(axis=1)).astype(int)]
    sizes = np.sort(np.abs(d), axis=1)
    tied = np.any(np.diff(sizes, axis=1) <= TIE * sizes[:, 1:], axis=1) | np.any(d == 0, axis=1)
    for i in np.flatnonzero(tied):  # rare on continuous draws: each row as compare() takes it
        p[i] = wilcoxon(d[i], np.zeros(n), alternative="greater").p_value
    return p


def _mean_statistic(d: np.ndarray) -> np.ndarray:
    return d.mean(axis=1) / (d.std(axis=1, ddof=1) / math.sqrt(d.shape[1]))


def _critical_wins(n: int, alpha: float) -> int:
    """The fewest wins of n with P(X ≥ wins) ≤ α, X ∼ Bin(n, ½) (n + 1 if none)."""
    wins = np.arange(n + 2)
    return int(wins[stats.binom.sf(wins - 1, n, 0.5) <= alpha][0])


def _compare(d: np.ndarray, test: str, n_resamples: int, seed: int):
    """``compare`` on per-item differences d: A scores d, B scores 0, so that δ(x) = d̄."""
    return compare(None, d, np.zeros_like(d), metric="mean", test=test, alternative="greater",
                   n_resamples=n_resamples, ci_method=None, seed=int(seed))


def _same(hits: dict[str, np.ndarray], n_sims: int) -> dict[str, np.ndarray]:
    return {name: np.full(len(h), n_sims) for name, h in hits.items()}


def _sizes(sizes, smallest: int) -> np.ndarray:
    x = np.asarray(sizes)
    if x.ndim != 1 or x.size == 0 or not np.issubdtype(x.dtype, np.integer) or x.min() < smallest:
        raise SettingsError(f"`sizes` must be whole numbers of items, each at least {smallest}, not {sizes!r}")
    return x


def _check(alpha: float, **counts: int) -> None:
    check_alpha(alpha)
    for name, value in counts.items():
        if name == "n_resamples":
            check_resamples(value)
        elif not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1:
            raise SettingsError(f"{PARAMETER} must be a positive integer, not {value!r}", parameter=name)
