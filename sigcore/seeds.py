"""Two systems, each run with several random seeds, on the same test set: a paired bootstrap over items and seeds.

A system trained with another seed is another system; a comparison of one run of A with one run of B leaves
out how much each moves from seed to seed. Here every resample draws the items once, with replacement, for
all runs (the pairing), and then draws, with replacement, which of A's runs and which of B's runs it averages:
δ(x⁽ⁱ⁾) = mean over the drawn runs of A − mean over the drawn runs of B, so that both sources of variance,
the test set and the seeds, enter δ's distribution (a two-level bootstrap; cf. Bouthillier et al. 2021 on
accounting for seeds). p and the interval follow SLP3's rule and its dual as in :func:`sigcore.compare`;
``ci_items`` is the interval with the seeds held fixed (each run weighted equally), to show what the seeds add.
With one run each, the result is ``sigcore.compare``'s exactly.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .comparison import check_settings
from .contract import DEFAULT_ALPHA, DEFAULT_ALTERNATIVE, DEFAULT_RESAMPLES, DEFAULT_SEED, check_seed, extreme, tie
from .errors import SettingsError
from .many import shared_resamples
from .metrics import Metric, direction, resolve
from .metrics.registry import prepare
from .result import Result, better_side, delta_alternative, mc_interval, on_side, p_text
from .signature import Signature, tool_versions
from .statistics import intervals
from .statistics.variance import Split, split

__all__ = ["METHOD", "SeedsResult", "compare_seeds"]

METHOD = "paired bootstrap over items and runs"


@dataclass(frozen=True)
class SeedsResult:
    """δ = mean score of A's runs − mean score of B's runs, its p and interval from resampling items and runs.

    ``ci_low``/``ci_high`` is δ's interval at 1 − α on the side of δ that ``alternative`` names (one end infinite for
    a one-sided H1; nan where b resamples cannot reach α), the test's dual: it excludes 0 exactly when the test
    rejects. ``higher_is_better`` is the metric's direction: where lower is better (MAE), "greater" is δ < 0."""

    metric: str
    alternative: str
    alpha: float
    score_a: float
    score_b: float
    delta: float
    p_value: float
    n_extreme: int
    ci_low: float
    ci_high: float
    ci_items: tuple[float, float]  # the same interval with the runs held fixed: the test set's share
    scores_a: tuple[float, ...]  # each run's score
    scores_b: tuple[float, ...]
    n_items: int
    n_resamples: int
    seed: int
    distribution: np.ndarray = field(repr=False, compare=False)
    # where δ's variance comes from, items or seeds: for a metric that is a mean over items (None otherwise)
    variance: Split | None = field(default=None, compare=False)
    higher_is_better: bool = True  # False for errors (MAE): then A's runs are ahead when δ < 0

    @property
    def side(self) -> int:
        """+1 when A's runs are ahead on average (better, in the metric's direction), -1 when B's are, 0 when they do
        not differ (within float noise)."""
        sign = 0 if abs(self.delta) <= tie(self.score_a, self.score_b) else self.delta
        return better_side(sign, self.higher_is_better)

    @property
    def significant(self) -> bool:
        """Whether H0 is rejected: p <= alpha, with δ on H1's side."""
        return self.p_value <= self.alpha and on_side(self.alternative, self.side)

    @property
    def p_floor(self) -> float:
        """The smallest p these resamples can give: 1 / b (p is never 0)."""
        return 1 / self.n_resamples

    @property
    def reachable(self) -> bool:
        return self.p_floor <= self.alpha

    @property
    def p_text(self) -> str:
        """p as a paper prints it: "p < 1/b" when no resample was extreme, as :attr:`sigcore.Result.p_text`."""
        bound = self.n_extreme == 0
        return p_text(self.p_floor if bound else self.p_value, self.alpha, bound=bound)

    @property
    def p_interval(self) -> tuple[float, float]:
        """p's Monte-Carlo 95% interval (Clopper-Pearson on the count of extreme resamples)."""
        return mc_interval(self.n_extreme, self.n_resamples)

    plus_one = False  # p is count / b, as the paired bootstrap's (read by Result.resamples_to_settle)

    @property
    def settled(self) -> bool:
        """Whether the decision is safe from Monte-Carlo noise: alpha lies outside p's Monte-Carlo interval."""
        low, high = self.p_interval
        return not low <= self.alpha <= high

    def resamples_to_settle(self) -> int | None:
        """About how many resamples in all would settle the decision (:meth:`sigcore.Result.resamples_to_settle`)."""
        return Result.resamples_to_settle(self)  # reads n_extreme, n_resamples, alpha and plus_one only

    @property
    def signature_fields(self) -> Signature:
        """The settings that make the result, as a pair's :attr:`sigcore.Result.signature_fields`, with the runs of
        each system."""
        return Signature("seeds", "bootstrap-items-runs", alternative=self.alternative, alpha=self.alpha,
                         resamples=self.n_resamples, seed=self.seed, metric=self.metric,
                         higher_is_better=self.higher_is_better, items=self.n_items,
                         runs=(len(self.scores_a), len(self.scores_b)), versions=tool_versions("numpy"))

    @property
    def signature(self) -> str:
        """The signature string (:attr:`signature_fields` written out)."""
        return self.signature_fields.text

    @property
    def level(self) -> str:
        """The intervals' level, 1 − α: 95%, 99.5%."""
        return f"{(1 - self.alpha) * 100:.10g}%"

    def sentence(self, *, a: str = "A", b: str = "B") -> str:
        """Deprecated (removed in 0.4.0): :func:`sigcore.report.seeds.sentence`, the report's view of this result."""
        warnings.warn("SeedsResult.sentence() moves to sigcore.report.seeds.sentence(res, a=..., b=...) and goes in "
                      "0.4.0", DeprecationWarning, stacklevel=2)
        from .report import seeds as words  # until 0.4.0: the engine does not write sentences

        return words.sentence(self, a=a, b=b)

    def variance_sentence(self) -> str:
        """Deprecated (removed in 0.4.0): :func:`sigcore.report.seeds.variance_sentence`."""
        warnings.warn("SeedsResult.variance_sentence() moves to sigcore.report.seeds.variance_sentence(res) and goes "
                      "in 0.4.0", DeprecationWarning, stacklevel=2)
        from .report import seeds as words

        return words.variance_sentence(self)


def compare_seeds(gold: Sequence | None, runs_a: Sequence[Sequence], runs_b: Sequence[Sequence], *,
                  metric: str | Metric = "accuracy", n_resamples: int = DEFAULT_RESAMPLES,
                  alternative: str = DEFAULT_ALTERNATIVE, alpha: float = DEFAULT_ALPHA, seed: int = DEFAULT_SEED,
                  budget: int | None = None, progress: Callable[[float], None] | None = None,
                  higher_is_better: bool | None = None,
                  **metric_options: Any) -> SeedsResult:
    """Test A against B when each was run with several seeds: ``runs_a`` and ``runs_b`` are lists of outputs (one
    per seed, each in the items' order). H1 is two-sided ("A and B differ") unless ``alternative`` says "greater"
    (A better) or "less" (B better); b = 10,000 and α = 0.05, as everywhere in sigcore. ``budget`` and ``progress``
    as in :func:`sigcore.compare_many`. ``metric`` and ``higher_is_better`` as in :func:`sigcore.compare` (a custom
    :class:`sigcore.Metric` too): where lower is better (MAE), A is ahead when δ < 0, and "greater" is H1 that A's
    runs are better (lower)."""
    runs_a, runs_b = list(runs_a), list(runs_b)
    if not runs_a or not runs_b or any(isinstance(r, (str, bytes)) for r in runs_a + runs_b):
        raise SettingsError("runs_a and runs_b must each be a list of runs (one list of outputs per seed)")
    check_settings(metric, "bootstrap", n_resamples, alternative, alpha, None, seed, None, "basic", True, 1, None)
    higher = direction(metric, higher_is_better)  # a direction against the metric's own is refused
    h1 = delta_alternative(alternative, higher)  # the side of δ that H1 names
    check_seed(seed, optional=False)  # the runs' draws come from a stream of their own, seeded from it
    k_a, k_b = len(runs_a), len(runs_b)
    shared = shared_resamples(gold, runs_a + runs_b, metric, n_resamples, seed, budget=budget, progress=progress,
                              **metric_options)
    scores = np.array([float(shared.score(shared.weights @ rows)) for rows in shared.rows])
    score_a, score_b = float(scores[:k_a].mean()), float(scores[k_a:].mean())
    delta, tol = score_a - score_b, tie(score_a, score_b)
    # the runs each resample averages: one draw per resample, from a stream apart from the items' draws
    rng = np.random.default_rng([seed, 1])
    picks_a = rng.multinomial(k_a, np.full(k_a, 1 / k_a), size=n_resamples) / k_a
    picks_b = rng.multinomial(k_b, np.full(k_b, 1 / k_b), size=n_resamples) / k_b
    resampled = shared.resampled
    d = np.sum(resampled[:, :k_a] * picks_a, axis=1) - np.sum(resampled[:, k_a:] * picks_b, axis=1)
    d_items = resampled[:, :k_a].mean(axis=1) - resampled[:, k_a:].mean(axis=1)
    count = int(np.sum(extreme(d, h1, delta, tol, centre=delta)))  # the paired bootstrap's tail
    low, high = (0.0 if abs(x) <= tol else x for x in intervals.basic(d, delta, alpha, h1, tol))
    items = tuple(float(x) for x in intervals.basic(d_items, delta, alpha, h1, tol))
    return SeedsResult(resolve(metric).name, alternative, alpha, score_a, score_b, delta, max(count, 1) / n_resamples,
                       count, float(low), float(high), items, tuple(map(float, scores[:k_a])),
                       tuple(map(float, scores[k_a:])), shared.n_items, n_resamples, int(seed), d,
                       _split(gold, runs_a, runs_b, metric, metric_options), higher)


def _split(gold, runs_a: list, runs_b: list, metric: str | Metric, options: dict) -> Split | None:
    """The items × seeds split of δ's variance, from each run's per-item values, for a mean over items."""
    if not resolve(metric).decomposable or len(runs_a[0]) < 2:
        return None
    stats, score, _ = prepare(metric, gold, runs_a + runs_b, **options)
    values = np.column_stack([score(rows) for rows in stats])  # items × runs: each item's value in each run
    return split(values[:, :len(runs_a)], values[:, len(runs_a):], "seeds")

