"""Claims beyond "better", with a margin Δ > 0 on the metric's scale (BLEU points, F1, accuracy), δ = A − B:

- **non-inferior**: A is no worse than B by more than Δ. H0: δ ≤ −Δ against H1: δ > −Δ, one-sided; shown when
  the one-sided (1 − α) lower bound of δ lies above −Δ.
- **equivalent**: A and B are within ±Δ, by two one-sided tests (Schuirmann 1987): H0: δ ≤ −Δ and H0: δ ≥ Δ, each
  at α; shown when the (1 − 2α) interval of δ lies inside (−Δ, Δ), and p is the larger of the two.

Two tests carry a shifted null for these claims:

- the paired bootstrap, for any metric (BLEU and F1 included): as SLP3 §4.11 counts the δ(x⁽ⁱ⁾) ≥ 2·δ(x) for H0:
  δ = 0, the distribution of δ(x⁽ⁱ⁾) − δ(x) stands in for that of δ(x) − δ under H0: δ = −Δ, so
  p = #{δ(x⁽ⁱ⁾) ≥ 2·δ(x) + Δ} / b, and the bound is its dual (the order statistic that the count crosses);
- the paired t-test, for means of per-item values (equal to statsmodels' ``ttost_paired``).

The permutation, Wilcoxon, sign and McNemar tests swap A's and B's outputs, which is exchangeable only when A and B
are alike (δ = 0): under δ = −Δ they are not, so a shifted null has no swap distribution, and they are refused.

A margin chosen after seeing the data is the same mistake as a side chosen afterwards: Δ belongs to the plan.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from . import result as result_model
from .contract import DEFAULT_ALPHA, DEFAULT_RESAMPLES, DEFAULT_SEED, check_alpha, check_level, extreme, tie
from .errors import SettingsError
from .metrics import direction, resolve
from .result import Result, refuse_lower
from .signature import Signature  # margin_text: Δ as every output prints it
from .statistics import intervals
from .statistics.closed_form import differences

__all__ = ["KINDS", "TESTS", "REFUSED", "Claim", "claim", "tails", "from_result", "p_text", "sentence", "delta_text",
           "bound_texts", "Plan", "N_MAX", "power", "plan", "from_rates"]

KINDS = ("non-inferior", "equivalent")
TESTS = ("bootstrap", "t")
REFUSED = ("permutation", "wilcoxon", "sign", "mcnemar", "z")


@dataclass(frozen=True)
class Claim:
    """A non-inferiority or equivalence claim tested: its p, the bound or interval that is the test's dual, and
    the comparison it rests on (``result``: δ, the scores and, for the bootstrap, the δ(x⁽ⁱ⁾))."""

    kind: str
    margin: float
    test: str
    alpha: float
    p_value: float  # non-inferior: H0 δ <= -Δ; equivalent: the larger of the two one-sided p; at least 1/b
    p_low: float  # H0: δ <= -Δ (the bootstrap's share of resamples as extreme: 0 when none was)
    p_high: float | None  # H0: δ >= Δ (equivalence)
    bound_low: float  # the one-sided (1 - α) lower bound, or the (1 - 2α) interval's low end
    bound_high: float  # inf for non-inferiority
    result: Result

    @property
    def shown(self) -> bool:
        """The claim holds at α: every H0 rejected."""
        return self.p_value <= self.alpha

    @property
    def level(self) -> float:
        """The bound's or interval's confidence: 1 - α one-sided, 1 - 2α for two one-sided tests."""
        return 1 - self.alpha if self.kind == "non-inferior" else 1 - 2 * self.alpha

    @property
    def p_text(self) -> str:
        """"p = 0.004", or "p < 0.0001" where no resample was as extreme (:func:`sigcore.result.p_text`)."""
        raw = self.p_low if self.kind == "non-inferior" else max(self.p_low, self.p_high)
        bound = self.test == "bootstrap" and raw == 0
        return result_model.p_text(1 / self.result.n_resamples if bound else self.p_value, self.alpha, bound=bound)

    @property
    def signature_fields(self) -> Signature:
        """The comparison's signature with the claim and its margin."""
        return self.result.signature_fields.with_claim(self.kind, self.margin)

    @property
    def signature(self) -> str:
        """The claim's signature string (:attr:`signature_fields` written out)."""
        return self.signature_fields.text

    def to_dict(self) -> dict[str, Any]:
        return {"claim": self.kind, "margin": self.margin, "test": self.test, "alpha": self.alpha,
                "delta": self.result.delta, "p_value": self.p_value, "p_low": self.p_low, "p_high": self.p_high,
                "bound_low": self.bound_low, "bound_high": None if math.isinf(self.bound_high) else self.bound_high,
                "level": self.level, "shown": self.shown, "n_items": self.result.n_items,
                "n_resamples": self.result.n_resamples, "seed": self.result.seed, "metric": self.result.metric,
                "score_a": self.result.score_a, "score_b": self.result.score_b, "signature": self.signature,
                "signature_fields": self.signature_fields.to_dict()}


def claim(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, kind: str, margin: float,
          metric: str = "accuracy", test: str = "bootstrap", alpha: float = DEFAULT_ALPHA,
          n_resamples: int = DEFAULT_RESAMPLES, seed: int | None = DEFAULT_SEED, groups: Sequence | None = None,
          higher_is_better: bool | None = None, **metric_options: Any) -> Claim:
    """Test that A is no worse than B by more than ``margin`` (``kind="non-inferior"``) or that they are within
    ±``margin`` (``kind="equivalent"``), with the paired bootstrap (any metric, ``groups`` resampled whole) or the
    paired t-test (a mean of per-item values). Equivalence holds whichever way is better; non-inferiority is
    stated for metrics on which higher is better (a lower-is-better one, MAE, is refused)."""
    from .comparison import compare

    if kind not in KINDS:
        raise SettingsError(f"unknown claim {kind!r}", hint=f"The claims: {', '.join(KINDS)}.")
    if not (isinstance(margin, (int, float)) and math.isfinite(margin) and margin > 0):
        raise SettingsError(f"the margin must be a positive number on the metric's scale, not {margin!r}",
                            hint="Give Δ as the difference that does not matter, e.g. 0.5 BLEU or 0.01 accuracy, "
                                 "chosen before seeing the data.")
    if test in REFUSED:
        raise SettingsError(f"the {test} test has no shifted null for this claim",
                            hint="Swapping A's and B's outputs is exchangeable only when they are alike (δ = 0), "
                                 "not under δ = −Δ: use the paired bootstrap (any metric) or the t-test (means).")
    if test not in TESTS:
        raise SettingsError(f"unknown test {test!r} for a claim", hint=f"The tests for claims: {', '.join(TESTS)}.")
    _sided(kind, direction(metric, higher_is_better), resolve(metric).name)
    if test == "t":
        if not resolve(metric).decomposable:
            raise SettingsError(f"the t-test needs a mean of per-item values, and {metric} is not one",
                                hint="Use the paired bootstrap, which resamples any metric.")
        if groups is not None:
            raise SettingsError("the t-test takes items as independent: with groups, use the paired bootstrap")
    res = compare(gold, sys_a, sys_b, metric=metric, test=test, alternative="greater", alpha=alpha,
                  n_resamples=n_resamples, seed=seed, groups=groups, higher_is_better=higher_is_better,
                  **metric_options)
    if test == "bootstrap":
        return from_result(res, kind, margin)
    low, high, p_low, p_high = _t(res, margin, alpha, (gold, sys_a, sys_b, metric, metric_options))
    p = p_low if kind == "non-inferior" else max(p_low, p_high)
    return Claim(kind, float(margin), test, alpha, float(p), float(p_low),
                 None if kind == "non-inferior" else float(p_high), float(low),
                 math.inf if kind == "non-inferior" else float(high), res)


def _sided(kind: str, higher_is_better: bool, metric: str | None = None) -> None:
    """Refuse non-inferiority (H0 δ ≤ −Δ: A worse by Δ) where lower is better, and "worse" is δ ≥ Δ."""
    if kind == "non-inferior":
        refuse_lower("non-inferiority (H0 δ ≤ −Δ)", higher_is_better, metric,
                     hint="Test equivalence (within ±Δ, either way) instead: non-inferiority on errors is not "
                          "supported yet.")


def tails(res: Result, kind: str, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """Which δ(x⁽ⁱ⁾) each one-sided p counts: δ(x⁽ⁱ⁾) ≥ 2·δ(x) + Δ (H0: δ ≤ −Δ) and, for equivalence,
    δ(x⁽ⁱ⁾) ≤ 2·δ(x) − Δ (H0: δ ≥ Δ; none for non-inferiority)."""
    d, delta, tol = res.distribution, res.delta, tie(res.score_a, res.score_b)
    low = extreme(d, "greater", 0.0, tol, centre=2 * delta + margin)  # the bootstrap's tail, shifted by Δ
    return low, (extreme(d, "less", 0.0, tol, centre=2 * delta - margin) if kind == "equivalent"
                 else np.zeros(len(d), dtype=bool))


def from_result(res: Result, kind: str, margin: float) -> Claim:
    """The claim from a paired bootstrap's δ(x⁽ⁱ⁾) (a run of :func:`sigcore.compare`, or a page's): p of each
    one-sided H0 as SLP3 counts it, shifted by Δ (no resample as extreme: p < 1/b, stated as 1/b, as compare
    does), and the order statistics the counts cross at α, so that the bound lies above −Δ exactly when p <= α.
    A bound within the tie tolerance of ∓Δ is ∓Δ (:func:`intervals.snap`): the resample it comes from ties the
    count's threshold, and ties count as extreme, so such a claim is not shown and its bound does not exclude ∓Δ
    (0.1 accuracy on 50 items: −0.09999999999999987 is −0.1)."""
    if res.test != "bootstrap" or res.distribution is None or res.compat is not None:
        raise SettingsError("a claim's bootstrap needs the paired bootstrap's resamples")
    _sided(kind, res.higher_is_better, res.metric)
    low_tail, high_tail = tails(res, kind, margin)
    d, delta, alpha, b = np.sort(res.distribution), res.delta, res.alpha, len(res.distribution)
    p_low, p_high = int(low_tail.sum()) / b, int(high_tail.sum()) / b
    p = max(p_low if kind == "non-inferior" else max(p_low, p_high), 1 / b)
    k = intervals.largest_count(alpha, b)  # at most k resamples as extreme: p <= α
    tol = tie(res.score_a, res.score_b)  # the tolerance the counts use
    low, high = (-math.inf, math.inf) if k < 1 else (  # b too small for α: no p can reach it
        intervals.snap(2 * delta - d[b - k - 1], tol, -margin),
        intervals.snap(2 * delta - d[k], tol, margin) if kind == "equivalent" else math.inf)
    return Claim(kind, float(margin), "bootstrap", alpha, float(p), float(p_low),
                 None if kind == "non-inferior" else float(p_high), float(low), float(high), res)


def _t(res: Result, margin: float, alpha: float, data) -> tuple[float, float, float, float]:
    """Student's t on the per-item differences, shifted by ±Δ (statsmodels' ttost_paired). Where every item
    differs alike (the one tie rule of the t-test's differences), the bound is δ itself, and δ within the tie
    tolerance of ∓Δ is on it: the claim is not shown (p = 1, as ties count as extreme)."""
    from .effects import item_values

    gold, sys_a, sys_b, metric, options = data
    a, b = item_values(gold, sys_a, sys_b, metric=metric, **options)
    d = differences(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    if np.all(d == d[0]):  # every item differs alike (a mean of 20 of them can still show a spread of 1e-17)
        tol = tie(res.score_a, res.score_b)
        low, high = intervals.snap(float(d[0]), tol, -margin), intervals.snap(float(d[0]), tol, margin)
        return low, high, float(low <= -margin), float(high >= margin)
    n, mean = len(d), float(np.mean(d))
    se = float(np.std(d, ddof=1)) / math.sqrt(n)
    q = float(stats.t.ppf(1 - alpha, n - 1))
    p_low = float(stats.t.sf((mean + margin) / se, n - 1))
    p_high = float(stats.t.cdf((mean - margin) / se, n - 1))
    return mean - q * se, mean + q * se, p_low, p_high


def p_text(c: Claim) -> str:
    """Deprecated (removed in 0.4.0): :attr:`Claim.p_text`, the one p-text of a claim."""
    warnings.warn("sigcore.claims.p_text(c) is c.p_text and goes in 0.4.0", DeprecationWarning, stacklevel=2)
    return c.p_text


def sentence(c: Claim, a: str = "A", b: str = "B") -> str:
    """Deprecated (removed in 0.4.0): :func:`sigcore.report.claim_text.sentence`, the report's view of a claim."""
    return _moved("sentence")(c, a, b)


def delta_text(c: Claim) -> str:
    """Deprecated (removed in 0.4.0): :func:`sigcore.report.claim_text.delta_text`."""
    return _moved("delta_text")(c)


def bound_texts(c: Claim) -> tuple[str, str]:
    """Deprecated (removed in 0.4.0): :func:`sigcore.report.claim_text.bound_texts`."""
    return _moved("bound_texts")(c)


def _moved(name: str):
    warnings.warn(f"sigcore.claims.{name} moves to sigcore.report.claim_text.{name} and goes in 0.4.0",
                  DeprecationWarning, stacklevel=3)
    from .report import claim_text  # until 0.4.0: the engine does not write sentences

    return getattr(claim_text, name)


@dataclass(frozen=True)
class Plan:
    """How many items a claim needs: at a true difference ``delta`` with per-item differences of spread ``sd``,
    the power of the paired t-test's claim at ``n`` items, and the smallest n that reaches ``target``."""

    kind: str
    margin: float
    delta: float
    sd: float
    alpha: float
    target: float
    n: int | None  # the test set's size asked about, or None
    power_at_n: float | None
    n_needed: int | None  # None: no size up to N_MAX reaches the target (the true δ is at or past the margin)

    def text(self) -> str:
        said = (f"no worse than B by more than {self.margin:g}" if self.kind == "non-inferior"
                else f"within ±{self.margin:g} of B")
        head = (f"to show A {said} at α = {self.alpha:g} (paired t-test), if the true δ is {self.delta:g} and the "
                f"per-item differences have sd {self.sd:.4g}:")
        parts = [head]
        if self.n is not None:
            parts.append(f"power at {self.n:,} items: {self.power_at_n:.1%}")
        parts.append(f"items for {self.target:.0%} power: {self.n_needed:,}" if self.n_needed else
                     f"no test set up to {N_MAX:,} items reaches {self.target:.0%} power: the true δ is too close "
                     "to the margin, or past it")
        return "\n".join(parts)


N_MAX = 100_000_000


def power(kind: str, margin: float, *, delta: float, sd: float, n: int, alpha: float = DEFAULT_ALPHA) -> float:
    """The chance that the paired t-test shows the claim on n items (noncentral t: exact for normal differences,
    the large-sample approximation otherwise); equivalence by its two one-sided tests' noncentral t, P(both)
    >= P(one) + P(other) - 1 (the usual planning approximation, tight where the power matters)."""
    check_alpha(alpha)
    if n < 2 or not sd > 0:
        raise SettingsError("power needs n >= 2 items and a positive sd of the per-item differences")
    df, scale = n - 1, math.sqrt(n) / sd
    critical = float(stats.t.ppf(1 - alpha, df))
    low = float(stats.nct.sf(critical, df, (delta + margin) * scale))  # H0 δ <= -Δ rejected
    if kind == "non-inferior":
        return low
    high = float(stats.nct.cdf(-critical, df, (delta - margin) * scale))  # H0 δ >= Δ rejected
    return max(0.0, low + high - 1)


def plan(kind: str, margin: float, *, delta: float, sd: float, alpha: float = DEFAULT_ALPHA, target: float = 0.8,
         n: int | None = None, higher_is_better: bool = True) -> Plan:
    """The items a claim needs (the smallest n with :func:`power` >= ``target``), and its power at ``n``;
    non-inferiority is refused where lower is better (``higher_is_better=False``), as :func:`claim` refuses it."""
    if kind not in KINDS:
        raise SettingsError(f"unknown claim {kind!r}", hint=f"The claims: {', '.join(KINDS)}.")
    _sided(kind, direction("mean", higher_is_better))
    if not (math.isfinite(margin) and margin > 0):
        raise SettingsError(f"the margin must be a positive number, not {margin!r}")
    check_alpha(alpha)
    check_level(target, "target")

    def reaches(k: int) -> bool:
        return power(kind, margin, delta=delta, sd=sd, n=k, alpha=alpha) >= target
    needed = None
    if reaches(N_MAX):
        low, high = 2, 2
        while not reaches(high):  # doubling, then bisection: power rises with n
            low, high = high, high * 2
        while low < high:
            mid = (low + high) // 2
            low, high = (mid + 1, high) if not reaches(mid) else (low, mid)
        needed = low
    at = None if n is None else power(kind, margin, delta=delta, sd=sd, n=n, alpha=alpha)
    return Plan(kind, margin, delta, sd, alpha, target, n, at, needed)


def from_rates(accuracy_a: float, accuracy_b: float, agreement: float) -> tuple[float, float]:
    """δ and the sd of right/wrong items' differences from two accuracies and how often A and B agree."""
    delta, discordant = accuracy_a - accuracy_b, 1 - agreement
    if not (abs(delta) <= discordant <= 1):
        raise SettingsError(f"accuracies {accuracy_a:g} and {accuracy_b:g} cannot agree on {agreement:g} of the items",
                            hint="The share where they disagree is at least the difference of the accuracies.")
    return delta, math.sqrt(discordant - delta * delta)
