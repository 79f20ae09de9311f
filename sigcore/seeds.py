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

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .compare import check_settings
from .contract import DEFAULT_ALPHA, DEFAULT_ALTERNATIVE, DEFAULT_RESAMPLES, DEFAULT_SEED, check_seed, extreme, tie
from .errors import SettingsError
from .many import shared_resamples
from .metrics import METRIC_NAMES, Metric, direction, resolve
from .metrics.registry import prepare
from .report.sentence import H1_PHRASES, SIDED, number, round_count
from .result import Result, better_side, delta_alternative, mc_interval, on_side, p_number, p_text
from .signature import Signature, tool_versions
from .statistics import intervals
from .statistics.variance import Split, split
from .words import in_text

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
        """The verdict as :func:`sigcore.report.sentence.verdict` words a pair's, with the systems' names: the
        effect (the winner first when significant), the interval with the seeds' variance and from the items
        alone, p with its side, the method, b and seed, and the decision at α; then any Monte-Carlo caveat.

        "mlp beats forest by 0.0150 accuracy, mean over 5 runs of mlp and 5 of forest on 400 items (95% CI
        0.0007 to 0.0293 with the seeds' variance, 0.0030 to 0.0270 from the items alone); p = 0.012
        (two-sided), paired bootstrap over items and runs, b = 10,000, seed 0: significant at α = 0.05."
        """
        a, b, scale = in_text(a), in_text(b), max(abs(self.score_a), abs(self.score_b))
        metric = METRIC_NAMES.get(self.metric, self.metric)
        k_a, k_b = len(self.scores_a), len(self.scores_b)
        runs = (f"mean over {k_a:,} run{'s' * (k_a != 1)} of {a} and {k_b:,} of {b} on {self.n_items:,} "
                f"item{'s' * (self.n_items != 1)}")
        winner = (a if self.side > 0 else b) if self.significant else None
        interval = "; ".join(filter(None, ["" if self.higher_is_better else "lower is better",
                                          self._intervals(a, b, winner, scale)]))
        interval = f" ({interval})" if interval else ""
        if self.side == 0:
            effect = f"{a} and {b} do not differ: δ = 0 {metric}, {runs}{interval}"
        elif self.significant:
            loser = b if winner == a else a
            effect = f"{winner} beats {loser} by {number(abs(self.delta), scale)} {metric}, {runs}{interval}"
        else:
            h1 = H1_PHRASES[self.alternative].format(a=a, b=b)
            effect = f"No significant evidence that {h1}: δ = {number(self.delta, scale)} {metric}, {runs}{interval}"
        sentence = (f"{effect}; {self.p_text} ({SIDED[self.alternative]}), {METHOD}, b = {self.n_resamples:,}, "
                    f"seed {self.seed}: {self._decision()}")
        return " ".join([sentence, *self._caveats()])

    def variance_sentence(self) -> str:
        """Where δ's variance comes from and what buys precision: "Of δ's variance, 35% comes from the items and
        65% from the seeds: twice the items would narrow its interval by 11%, twice the seeds by 24%." Empty for a
        metric that is not a mean over items, or with one run each."""
        s = self.variance
        if s is None or len(self.scores_a) == len(self.scores_b) == 1 or s.variance() == 0:
            return ""
        items = round(100 * s.items_share)  # the two shares printed add up to 100%
        return (f"Of δ's variance, {items}% comes from the items and {100 - items}% from the seeds: twice the items "
                f"would narrow its interval by {s.narrowing(items=2):.0%}, twice the seeds by "
                f"{s.narrowing(runs=2):.0%} (variance components, sigcore.statistics.variance).")

    def _intervals(self, a: str, b: str, winner: str | None, scale: float) -> str:
        """Both intervals on the test's side, in the winner's direction when one is named, else of A − B: "95% CI
        0.0007 to 0.0293 with the seeds' variance, 0.0030 to 0.0270 from the items alone"."""
        flip = winner is not None and (winner != a) == self.higher_is_better  # the winner's margin: A − B or B − A
        side = {"greater": "lower", "less": "upper"}.get(delta_alternative(self.alternative, self.higher_is_better),
                                                          "two-sided")
        if flip:
            side = {"lower": "upper", "upper": "lower"}.get(side, side)
        shown = []
        both = [((self.ci_low, self.ci_high), " with the seeds' variance"), (self.ci_items, " from the items alone")]
        one_run_each = len(self.scores_a) == len(self.scores_b) == 1  # no seeds to resample: the two are one
        for (low, high), source in both[:1] if one_run_each else both:
            source = "" if one_run_each else source
            if flip:  # B's margin: -(A - B)
                low, high = -high, -low
            bounded = {"lower": (low,), "upper": (high,), "two-sided": (low, high)}[side]
            if not all(math.isfinite(x) for x in bounded):
                continue  # b resamples cannot reach α: no interval at 1 - α
            if side == "two-sided":
                text = f"{number(low, scale)} to {number(high, scale)}"
            elif winner is not None:
                text = f"at least {number(low if side == 'lower' else high, scale)}"
            else:
                text = f"δ ≥ {number(low, scale)}" if side == "lower" else f"δ ≤ {number(high, scale)}"
            shown.append(text + source)
        if not shown:
            return ""
        head = f"{self.level} CI" if side == "two-sided" else f"one-sided {self.level} bound:"
        return f"{head} {', '.join(shown)}"

    def _decision(self) -> str:
        alpha = f"α = {self.alpha:g}"
        if self.significant:
            return f"significant at {alpha}."
        if self.side == 0 or self.p_value <= self.alpha:
            return f"not significant at {alpha}" + (": p ≤ α, but the effect is not on H1's side."
                                                     if self.p_value <= self.alpha else ".")
        if not self.reachable:
            need = math.ceil(1 / self.alpha - 1e-9)
            return (f"not significant: this test cannot reach {alpha} (the smallest p with b = {self.n_resamples:,} "
                    f"is {p_number(self.p_floor)}; b ≥ {need:,} could reach it, 10,000 is usual).")
        return f"not significant at {alpha}."

    def _caveats(self) -> list[str]:
        if not self.reachable or self.settled:
            return []
        low, high = self.p_interval
        more = self.resamples_to_settle()
        settle = (f"about {round_count(more)} resamples in all would settle it" if more else
                  "p equals α, so more resamples are needed to settle it")
        return [f"Monte-Carlo uncertainty: p's 95% interval ({p_number(low, self.alpha)} to "
                f"{p_number(high, self.alpha)}) contains α; {settle}."]


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

