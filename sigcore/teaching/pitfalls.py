"""Common mistakes with significance tests, each a small simulation where the truth is known (SLP3 §4.11).

1. Many comparisons: with k systems no better than the baseline, the chance that at least one looks significant
   grows like 1 − (1 − α)^k; Holm's correction (Holm 1979) keeps it at most α.
2. Peeking: testing as items come in and stopping at the first p ≤ α is wrong more often than α
   (Armitage, McPherson & Rowe 1969).
3. "Not significant" is not "equal": a small test set usually misses a small real difference, while the
   interval of δ still contains it (Card et al. 2020, "With Little Power Comes Great Responsibility").
4. One-sided or two-sided: on the same data the one-sided p is about half the two-sided one, so picking the
   side after seeing δ(x) doubles the false positives.
5. p is not the probability that H0 is true: among experiments with p ≤ α, the share where H0 was true
   depends on how many real differences were tested and on the power, by Bayes' rule (Colquhoun 2014).
6. Significant is not important: on a large test set a difference too small to matter is significant, and
   only its interval, set against the smallest difference that matters, shows it (Dror et al. 2018, §2).
Test sets are right/wrong items drawn as in :mod:`sigcore.teaching.bootstrap`; every p, δ and interval comes from
:func:`sigcore.compare`; :mod:`sigcore.teaching.pitfall_figures` draws them. Peeking, not_significant and one_sided draw
their test sets first, as ``simulate_test_sets(..., np.random.default_rng(seed))``, so any one can be looked at again.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ..comparison import compare
from ..contract import (
    DEFAULT_ALPHA,
    DEFAULT_ALTERNATIVE,
    DEFAULT_SEED,
    SIMULATION_RESAMPLES,
    check_alpha,
    check_resamples,
)
from ..errors import PARAMETER, SettingsError
from ..i18n import N_
from ..result import Result
from ..statistics.discordant import outcome_probabilities
from ..statistics.multiple import adjust
from .bootstrap import paired_outcomes

__all__ = ["TWO_SIDED", "FIXED_IN_ADVANCE", "CHOSEN_AFTER", "ManyComparisons", "Peeking", "NotSignificant", "OneSided",
           "ProbabilityOfH0", "NotImportant", "simulate_test_sets", "many_comparisons", "peeking", "not_significant",
           "one_sided", "probability_of_h0", "not_important"]

_SEEDS = 2**32  # compare() seeds are drawn per test, so no two tests share their resamples
# the three ways of choosing H1 that OneSided compares, as the page and the figure name them (shown through _())
TWO_SIDED, FIXED_IN_ADVANCE, CHOSEN_AFTER = (N_("two-sided"), N_("one-sided, side fixed in advance"),
                                             N_("one-sided, side chosen after seeing δ(x)"))


@dataclass(frozen=True)
class ManyComparisons:
    """Experiments with one baseline and k systems just as good: how often is at least one "significant"?"""

    k: np.ndarray  # 1, 2, ... k_max systems compared with the baseline
    alpha: float
    uncorrected: np.ndarray  # share of experiments with some p ≤ α among the first k systems
    holm: np.ndarray  # the same with Holm-adjusted p-values
    independent: np.ndarray  # 1 − (1 − α)^k: the rate if the k tests were independent and exactly of size α
    n_sims: int


@dataclass(frozen=True)
class Peeking:
    """Experiments under H0, tested after every few items and stopped at the first p ≤ α."""

    alpha: float
    step: int
    looks: np.ndarray  # the test-set sizes at which the test is run: step, 2·step, ... n_max
    stopped_at: np.ndarray  # per experiment, the size where p first fell below α; 0 if it never did
    p_once: np.ndarray  # per experiment, p of one test on all items
    example: int  # an experiment that peeking made "significant" though testing once did not (else 0)
    trajectory: np.ndarray  # p of the example at each look
    sequence_stopped: np.ndarray  # per experiment, the item where a confidence sequence watched item by item
    # first excluded H0 (sigcore.sequential, same side and α); 0 if it never did

    @property
    def peeking(self) -> float:
        return float(np.mean(self.stopped_at > 0))

    @property
    def once(self) -> float:
        return float(np.mean(self.p_once <= self.alpha))

    @property
    def sequence(self) -> float:
        """The share of experiments a confidence sequence, looked at after every item, called "significant"."""
        return float(np.mean(self.sequence_stopped > 0))


@dataclass(frozen=True)
class NotSignificant:
    """Test sets on which A is truly better by ``true_delta``: two-sided p and the (1 − α) interval of δ on each."""

    alpha: float
    true_delta: float
    delta: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    p_value: np.ndarray

    @property
    def significant(self) -> np.ndarray:
        return self.p_value <= self.alpha

    def contains(self, value: float) -> np.ndarray:
        """Whether each interval contains ``value``: the true difference, or 0 (no difference)."""
        return (self.ci_low <= value) & (value <= self.ci_high)

    @property
    def power(self) -> float:
        return float(np.mean(self.significant))


@dataclass(frozen=True)
class OneSided:
    """Test sets under H0, each tested with H1 "A better", "B better" and "they differ", all on the same resamples."""

    alpha: float
    delta: np.ndarray
    p_greater: np.ndarray
    p_less: np.ndarray
    p_two_sided: np.ndarray

    @property
    def p_chosen(self) -> np.ndarray:
        """The one-sided p in the direction δ(x) points to: the side picked after seeing the data."""
        return np.where(self.delta >= 0, self.p_greater, self.p_less)

    @property
    def example(self) -> int:
        """A test set that the side picked afterwards makes "significant" and the two-sided test does not (else 0)."""
        return int(np.argmax((self.p_chosen <= self.alpha) & (self.p_two_sided > self.alpha)))

    def rates(self) -> dict[str, float]:
        """Share of test sets with p ≤ α, for each way of choosing H1."""
        return {side: float(np.mean(p <= self.alpha)) for side, p in (
            (TWO_SIDED, self.p_two_sided), (FIXED_IN_ADVANCE, self.p_greater), (CHOSEN_AFTER, self.p_chosen))}


@dataclass(frozen=True)
class ProbabilityOfH0:
    """Experiments of which a share ``share_real`` compare an A truly better by ``true_delta``, the others two
    equally good systems, each tested one-sided (H1: A is better): how many "significant" ones had H0 true?"""

    alpha: float
    share_real: float
    true_delta: float
    real: np.ndarray  # per experiment, whether A is truly better
    p_value: np.ndarray

    @property
    def significant(self) -> np.ndarray:
        return self.p_value <= self.alpha

    @property
    def h0_among_significant(self) -> float:
        """The share of experiments with p ≤ α where H0 was true: what "p ≤ α" leaves of doubt (nan if none)."""
        return float(np.mean(~self.real[self.significant])) if self.significant.any() else float("nan")

    @property
    def power(self) -> float:
        return float(np.mean(self.significant[self.real]))

    @property
    def false_alarms(self) -> float:
        return float(np.mean(self.significant[~self.real]))

    @property
    def bayes(self) -> float:
        """Bayes' rule with the simulated rates: α'(1 − π) / (α'(1 − π) + power · π), where α' is the false-alarm
        rate and π the share of real differences."""
        false, true = self.false_alarms * (1 - self.share_real), self.power * self.share_real
        return false / (false + true) if false + true else float("nan")


@dataclass(frozen=True)
class NotImportant(NotSignificant):
    """Large test sets on which A is better by a ``true_delta`` smaller than ``matters``, the smallest difference
    that would matter: two-sided p and the (1 − α) interval of δ on each."""

    matters: float

    @property
    def below_what_matters(self) -> np.ndarray:
        """Intervals that lie wholly below the difference that matters: significant or not, it is too small."""
        return self.ci_high < self.matters


def simulate_test_sets(n_sets: int, n: int, accuracy_a: float, accuracy_b: float, agreement: float,
                       rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n_sets`` test sets of ``n`` items, one per row: whether A and whether B is right on each item."""
    a, b = paired_outcomes(n_sets * n, accuracy_a, accuracy_b, agreement, rng)
    return a.reshape(n_sets, n), b.reshape(n_sets, n)


def many_comparisons(k_max: int = 10, *, n: int = 1_000, accuracy: float = 0.7, agreement: float = 0.9,
                     alpha: float = DEFAULT_ALPHA, alternative: str = DEFAULT_ALTERNATIVE, test: str = "bootstrap",
                     n_resamples: int = SIMULATION_RESAMPLES, n_sims: int = 120,
                     seed: int = DEFAULT_SEED) -> ManyComparisons:
    """Family-wise error of k tests against one baseline, uncorrected and with Holm's correction, for k ≤ ``k_max``.

    Each system agrees with the baseline on a share ``agreement`` of the items. Sharing the baseline makes the
    k tests positively dependent, which keeps the uncorrected rate a little under 1 − (1 − α)^k.
    """
    _check(alpha, k_max=k_max, n=n, n_sims=n_sims)
    rng = np.random.default_rng(seed)
    both, only_system, only_baseline, neither = outcome_probabilities(accuracy, accuracy, agreement)
    baseline_right = rng.random((n_sims, 1, n)) < accuracy
    # each system is right with the probability the cells give, knowing whether the baseline was
    right = np.where(baseline_right, both / (both + only_baseline), only_system / (only_system + neither))
    systems = (rng.random((n_sims, k_max, n)) < right).astype(int)
    baseline = baseline_right[:, 0].astype(int)
    seeds = rng.integers(_SEEDS, size=(n_sims, k_max))
    p = np.array([[_test(systems[s, j], baseline[s], seed=seeds[s, j], alternative=alternative, test=test,
                         n_resamples=n_resamples).p_value for j in range(k_max)] for s in range(n_sims)])
    k = np.arange(1, k_max + 1)
    uncorrected = np.maximum.accumulate(p <= alpha, axis=1).mean(axis=0)  # any p ≤ α among the first k
    holm = np.array([np.mean([np.any(adjust(row[:j]) <= alpha) for row in p]) for j in k])
    return ManyComparisons(k, alpha, uncorrected, holm, 1 - (1 - alpha) ** k, n_sims)


def peeking(n_max: int = 500, step: int = 50, *, accuracy: float = 0.7, agreement: float = 0.85,
            alpha: float = DEFAULT_ALPHA, alternative: str = "greater", test: str = "bootstrap",
            n_resamples: int = SIMULATION_RESAMPLES, n_sims: int = 120, seed: int = DEFAULT_SEED) -> Peeking:
    """Test after every ``step`` items up to ``n_max`` and stop at the first p ≤ α, on experiments where H0 holds."""
    _check(alpha, n_max=n_max, step=step, n_sims=n_sims)
    rng = np.random.default_rng(seed)
    a, b = simulate_test_sets(n_sims, n_max, accuracy, accuracy, agreement, rng)
    seeds = rng.integers(_SEEDS, size=n_sims)
    looks = np.unique(np.r_[np.arange(step, n_max, step), n_max])

    def p_at(s: int, n: int) -> float:  # one experiment keeps one seed, so its p moves only with the items
        return _test(a[s, :n], b[s, :n], seed=seeds[s], alternative=alternative, test=test,
                     n_resamples=n_resamples).p_value

    stopped_at, p_once = np.zeros(n_sims, dtype=int), np.empty(n_sims)
    for s in range(n_sims):
        for n in looks:
            p = p_at(s, n)
            if p <= alpha:
                stopped_at[s] = n
                break
        p_once[s] = p if n == n_max else p_at(s, n_max)
    example = int(np.argmax((stopped_at > 0) & (p_once > alpha)))
    return Peeking(alpha, step, looks, stopped_at, p_once, example, np.array([p_at(example, n) for n in looks]),
                   _sequence_stops(a - b, alpha, alternative))


def _sequence_stops(d: np.ndarray, alpha: float, alternative: str) -> np.ndarray:
    """Per row of right/wrong differences, the first item at which the confidence sequence for δ excludes 0 on
    H1's side (one-sided at α: the lower end of the two-sided sequence at 2α), or 0 if it never does."""
    from ..sequential import bounds

    level = alpha if alternative == "two-sided" else 2 * alpha
    stops = np.zeros(len(d), dtype=int)
    for row, x in enumerate(d):
        lower, upper = bounds(x, alpha=level)
        out = np.zeros(len(x), dtype=bool)
        if alternative != "less":
            out |= lower > 0
        if alternative != "greater":
            out |= upper < 0
        stops[row] = int(np.argmax(out)) + 1 if out.any() else 0
    return stops


def not_significant(n: int = 100, accuracy_a: float = 0.75, accuracy_b: float = 0.70, *, agreement: float = 0.85,
                    alpha: float = DEFAULT_ALPHA, test: str = "bootstrap", n_resamples: int = SIMULATION_RESAMPLES,
                    n_sims: int = 30, seed: int = DEFAULT_SEED) -> NotSignificant:
    """Two-sided tests and (1 − α) intervals of δ on test sets where A is truly better by
    ``accuracy_a − accuracy_b``."""
    _check(alpha, n=n, n_sims=n_sims)
    rng = np.random.default_rng(seed)
    a, b = simulate_test_sets(n_sims, n, accuracy_a, accuracy_b, agreement, rng)
    seeds = rng.integers(_SEEDS, size=n_sims)
    results = [_test(a[s], b[s], seed=seeds[s], alternative="two-sided", test=test, n_resamples=n_resamples,
                     alpha=alpha, ci_method="basic") for s in range(n_sims)]
    return NotSignificant(alpha, accuracy_a - accuracy_b, *(_field(results, name) for name in
                                                            ("delta", "ci_low", "ci_high", "p_value")))


def one_sided(n: int = 200, *, accuracy: float = 0.7, agreement: float = 0.85, alpha: float = DEFAULT_ALPHA,
              test: str = "bootstrap", n_resamples: int = SIMULATION_RESAMPLES, n_sims: int = 250,
              seed: int = DEFAULT_SEED) -> OneSided:
    """One test set after another where H0 holds, each tested three ways with the same seed (same resamples)."""
    _check(alpha, n=n, n_sims=n_sims)
    rng = np.random.default_rng(seed)
    a, b = simulate_test_sets(n_sims, n, accuracy, accuracy, agreement, rng)
    seeds = rng.integers(_SEEDS, size=n_sims)
    results = {alternative: [_test(a[s], b[s], seed=seeds[s], alternative=alternative, test=test,
                                   n_resamples=n_resamples) for s in range(n_sims)]
               for alternative in ("greater", "less", "two-sided")}
    return OneSided(alpha, _field(results["two-sided"], "delta"),
                    *(_field(results[alternative], "p_value") for alternative in ("greater", "less", "two-sided")))


def _test(a: np.ndarray, b: np.ndarray, *, seed: int, ci_method: str | None = None, **settings) -> Result:
    """A against B on right/wrong items: the gold answer is 1, so an item is right where an output is 1."""
    return compare(np.ones(len(a), dtype=int), a, b, seed=int(seed), ci_method=ci_method, **settings)


def _field(results: list[Result], name: str) -> np.ndarray:
    return np.array([getattr(res, name) for res in results])


def _check(alpha: float, **counts: int) -> None:
    check_alpha(alpha)
    for name, value in counts.items():
        if name == "n_resamples":
            check_resamples(value)
        elif not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1:
            raise SettingsError(f"{PARAMETER} must be a positive integer, not {value!r}", parameter=name)


def probability_of_h0(share_real: float = 0.2, *, n: int = 200, accuracy_b: float = 0.70, true_delta: float = 0.05,
                      agreement: float = 0.85, alpha: float = DEFAULT_ALPHA, test: str = "bootstrap",
                      n_resamples: int = SIMULATION_RESAMPLES, n_sims: int = 1_000,
                      seed: int = DEFAULT_SEED) -> ProbabilityOfH0:
    """``n_sims`` experiments, a share ``share_real`` of them with A truly better by ``true_delta`` and the rest with
    A and B equally good (right on ``accuracy_b`` of the items), each tested once, one-sided."""
    _check(alpha, n=n, n_sims=n_sims)
    if not 0 <= share_real <= 1:
        raise SettingsError(f"`share_real` must be between 0 and 1, not {share_real!r}")
    rng = np.random.default_rng(seed)
    real = rng.random(n_sims) < share_real
    a_real, b_real = simulate_test_sets(n_sims, n, accuracy_b + true_delta, accuracy_b, agreement, rng)
    a_null, b_null = simulate_test_sets(n_sims, n, accuracy_b, accuracy_b, agreement, rng)
    a, b = np.where(real[:, None], a_real, a_null), np.where(real[:, None], b_real, b_null)
    seeds = rng.integers(_SEEDS, size=n_sims)
    p = np.array([_test(a[s], b[s], seed=seeds[s], alternative="greater", test=test, n_resamples=n_resamples).p_value
                  for s in range(n_sims)])
    return ProbabilityOfH0(alpha, share_real, true_delta, real, p)


def not_important(n: int = 100_000, *, accuracy_b: float = 0.70, true_delta: float = 0.005, matters: float = 0.01,
                  agreement: float = 0.85, alpha: float = DEFAULT_ALPHA, test: str = "bootstrap",
                  n_resamples: int = SIMULATION_RESAMPLES, n_sims: int = 30, seed: int = DEFAULT_SEED) -> NotImportant:
    """Two-sided tests and (1 − α) intervals of δ on test sets of ``n`` items where A is better by ``true_delta``,
    set against the smallest difference that matters."""
    res = not_significant(n, accuracy_b + true_delta, accuracy_b, agreement=agreement, alpha=alpha, test=test,
                          n_resamples=n_resamples, n_sims=n_sims, seed=seed)
    return NotImportant(**vars(res), matters=matters)
