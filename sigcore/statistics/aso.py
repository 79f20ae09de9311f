"""Almost Stochastic Order (ASO) over runs with different random seeds (del Barrio, Cuesta-Albertos & Matrán
2018; Dror, Shlomov & Reichart 2019), computed as ``deepsig`` 1.2.8 computes it (Ulmer, Hardmeier & Frellsen
2022), vectorised.

Given scores of A over n seeds and of B over m seeds (higher is better), the violation ratio ε_W2 is the share
of the squared 2-Wasserstein distance between the two quantile functions where A's quantile lies below B's:
0 when A's scores dominate B's everywhere, 1 when B's do. ε_min is its upper confidence bound at the given
level, from a bootstrap of the quantile functions: ε_min = ε_W2 + Φ⁻¹(level) · sd(bootstrap ε_W2), in [0, 1].
It is not a p-value; H0 is "ε ≥ τ". Reading it, after deepsig's README:
- ε_min < 0.2: A is almost stochastically dominant over B (τ = 0.2, which Ulmer et al. 2022 found to keep
  false positives low; deepsig recommends it);
- ε_min < 0.5: A is better in more cases than B (τ = 0.5 of Dror et al. 2019, with more false positives);
- ε_min = 0: A is stochastically dominant.
deepsig's details are kept so that its numbers are reproduced: the grid t = dt, 2dt, ..., 1 - dt; the first
grid point left out of the violation's sum (not the distance's); ε_W2 = 0.5 when the quantile functions are
equal; bootstrap samples of the sizes n and m. With ``compat="deepsig"``, iteration k draws from numpy's legacy
generator seeded with seed + k, as deepsig does, so the result equals deepsig's to the last bits; and its
correction for k comparisons is deepsig's, which sets the level to 1 - α(k - 1)/k. Without it the correction is
Bonferroni's, 1 - α/k (the same for k = 2; stricter for k ≥ 3).

The bootstrap has b = 10,000 iterations by default, sigcore's one b (0.1-0.5 s for 3-5 systems of 5 seeds);
deepsig's default is 1,000, and the two agree within Monte-Carlo error (ε_min's margin is Φ⁻¹(level) times a
bootstrap sd, which 1,000 iterations estimate to about ±2%). With ``compat="deepsig"`` the default is deepsig's
1,000, so that a call with deepsig's defaults gives deepsig's numbers (its draws come one iteration at a time, as
deepsig's do: 10,000 of them take about 7 s a pair).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import budget as budgets
from .._lazy import stats
from ..contract import DEFAULT_RESAMPLES, DEFAULT_SEED, check_level, check_resamples, check_seed
from ..errors import SettingsError
from ..signature import Signature, tool_versions

__all__ = ["TAU", "N_BOOTSTRAP", "DEEPSIG_N_BOOTSTRAP", "BLOCK", "ASOResult", "violation_ratio", "aso", "multi_aso",
           "table_signature"]

TAU = 0.2  # the threshold deepsig recommends (Ulmer et al. 2022)
N_BOOTSTRAP = DEFAULT_RESAMPLES  # sigcore's b everywhere
DEEPSIG_N_BOOTSTRAP = 1000  # deepsig's default, the default with compat="deepsig"
BLOCK = 1 << 20  # bootstrap draws held at once: bounded memory whatever the number of seeds


@dataclass(frozen=True)
class ASOResult:
    """ε_min of "A is better than B" at ``confidence_level`` (after any Bonferroni correction over
    ``num_comparisons``), with the violation ratio it bounds."""

    eps_min: float
    violation_ratio: float
    confidence_level: float
    num_comparisons: int
    n_a: int
    n_b: int
    n_bootstrap: int
    seed: int | None

    def reading(self, tau: float = TAU) -> str:
        if self.eps_min == 0:
            return "A is stochastically dominant over B (ε_min = 0)"
        if self.eps_min < tau:
            return f"A is almost stochastically dominant over B (ε_min = {self.eps_min:.3f} < τ = {tau:g})"
        if self.eps_min < 0.5:
            return (f"A is better than B in more cases than not (ε_min = {self.eps_min:.3f} < 0.5), but not "
                    f"almost stochastically dominant at τ = {tau:g}")
        return f"no evidence that A is better than B (ε_min = {self.eps_min:.3f} ≥ 0.5)"


def _quantile(sorted_scores: np.ndarray, t: np.ndarray) -> np.ndarray:
    """deepsig's empirical quantile function, along the last axis: sorted[ceil(n t) - 1], clipped."""
    n = sorted_scores.shape[-1]
    return np.take(sorted_scores, np.clip(np.ceil(n * t).astype(np.int64) - 1, 0, n - 1), axis=-1)


def violation_ratio(scores_a, scores_b, dt: float = 0.005) -> np.ndarray:
    """ε_W2 of A over B; rows of 2-d inputs (bootstrap samples) give one ratio each."""
    t = np.arange(dt, 1, dt)
    f = _quantile(np.sort(scores_a, axis=-1), t)
    g = _quantile(np.sort(scores_b, axis=-1), t)
    diff = g - f
    distance = np.sum(diff ** 2 * dt, axis=-1)
    violation = np.sum(np.where(f >= g, 0.0, diff)[..., 1:] ** 2 * dt, axis=-1)  # deepsig skips t = dt here
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(distance == 0, 0.5, violation / np.where(distance == 0, 1, distance))


def _bootstrap_sd(a: np.ndarray, b: np.ndarray, n_bootstrap: int, dt: float, seed, compat: str | None) -> float:
    sa, sb = np.sort(a), np.sort(b)
    ratios = np.empty(n_bootstrap)
    if compat == "deepsig":  # iteration k: np.random.seed(seed + k), A's uniforms, then B's
        for k in range(n_bootstrap):
            legacy = np.random.RandomState(seed + k + 1)
            ua, ub = legacy.uniform(0, 1, len(a)), legacy.uniform(0, 1, len(b))
            ratios[k] = violation_ratio(_quantile(sa, ua), _quantile(sb, ub), dt)
    else:
        rng = np.random.default_rng(seed)
        rows = max(1, BLOCK // (len(a) + len(b)))
        for start in range(0, n_bootstrap, rows):
            k = min(rows, n_bootstrap - start)
            ua, ub = rng.uniform(0, 1, (k, len(a))), rng.uniform(0, 1, (k, len(b)))
            ratios[start:start + k] = violation_ratio(_quantile(sa, ua), _quantile(sb, ub), dt)
    return float(np.std(ratios))


def _scores(values, name: str) -> np.ndarray:
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise SettingsError(f"`{name}` must be numbers (one score per seed)") from None
    if x.ndim != 1 or len(x) < 2:
        raise SettingsError(f"`{name}` needs at least 2 scores (one per seed), got {x.size}",
                            hint="ASO compares distributions over seeds: run each system with several seeds.")
    if not np.all(np.isfinite(x)):
        first = np.flatnonzero(~np.isfinite(x))[0] + 1
        raise SettingsError(f"`{name}` has a missing or infinite score (number {first})")
    return x


def _level(confidence_level: float, num_comparisons: int, compat: str | None) -> float:
    check_level(confidence_level)
    if not (isinstance(num_comparisons, (int, np.integer)) and num_comparisons >= 1):
        raise SettingsError(f"num_comparisons must be a whole number ≥ 1, not {num_comparisons!r}")
    if compat not in (None, "deepsig"):
        raise SettingsError(f"compat must be None or 'deepsig', not {compat!r}")
    if compat == "deepsig" and num_comparisons > 1:  # deepsig adds α/k to the level: 1 - α(k - 1)/k, not Bonferroni
        return confidence_level + (1 - confidence_level) / num_comparisons
    return 1 - (1 - confidence_level) / num_comparisons  # Bonferroni: α / k


def aso(scores_a: Sequence[float], scores_b: Sequence[float], *, confidence_level: float = 0.95,
        num_comparisons: int = 1, n_bootstrap: int | None = None, dt: float = 0.005, seed: int | None = DEFAULT_SEED,
        compat: str | None = None) -> ASOResult:
    """ε_min of "A is better than B" from per-seed scores (higher is better; negate a loss). ``n_bootstrap``:
    10,000 by default (deepsig's 1,000 with ``compat="deepsig"``); ``seed`` 0 by default, as everywhere in sigcore
    (``None``: fresh randomness, a different ε_min on each call)."""
    a, b = _scores(scores_a, "scores_a"), _scores(scores_b, "scores_b")
    level = _level(confidence_level, num_comparisons, compat)
    n_bootstrap = _n_bootstrap(n_bootstrap, compat)
    check_seed(seed, optional=compat != "deepsig")  # deepsig reseeds with seed + k at iteration k
    ratio = float(violation_ratio(a, b, dt))
    sd = _bootstrap_sd(a, b, n_bootstrap, dt, seed, compat)
    eps_min = float(np.clip(ratio + stats.norm.ppf(level) * sd, 0, 1))
    return ASOResult(eps_min, ratio, level, num_comparisons, len(a), len(b), n_bootstrap, seed)


def multi_aso(scores: Mapping[str, Sequence[float]], *, confidence_level: float = 0.95, bonferroni: bool = True,
              n_bootstrap: int | None = None, dt: float = 0.005, seed: int | None = DEFAULT_SEED,
              compat: str | None = None, budget: int | None = None,
              progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """ε_min of every ordered pair: row better than column, corrected for the k(k - 1)/2 pairs when
    ``bonferroni``. Each pair runs one bootstrap; the reverse entry is 1 - ε_W2 plus the same margin, as deepsig
    computes it. The diagonal is NaN: a system is not compared with itself (deepsig writes 1 there, which reads
    as a comparison); displays print it as "—". ``.attrs`` holds the settings used: ``confidence_level`` (after
    the correction: what each entry's bound holds at), ``num_comparisons``, ``n_bootstrap``, ``seed`` and, from them
    and the runs of each system, the table's ``signature``: the fields of a :class:`~sigcore.signature.Signature` as
    JSON (:func:`table_signature` gives the object), since a table's attrs are serialised as JSON (Streamlit does).
    ``budget`` (steps: pairs × iterations × the seeds and grid points each compares) refuses a matrix that would cost
    more, before it starts; ``progress`` is called with the share of pairs done."""
    names = list(scores)
    if len(names) < 2:
        raise SettingsError("multi_aso needs at least two systems")
    k = len(names)
    comparisons = k * (k - 1) // 2 if bonferroni else 1
    level = _level(confidence_level, comparisons, compat)
    n_bootstrap = _n_bootstrap(n_bootstrap, compat)
    check_seed(seed, optional=compat != "deepsig")
    z = stats.norm.ppf(level)
    values = {name: _scores(scores[name], f"scores[{name!r}]") for name in names}
    pairs, seeds = k * (k - 1) // 2, np.mean([len(v) for v in values.values()])
    budgets.check(f"ASO over {pairs:,} pairs at b = {n_bootstrap:,}", pairs * (2 * seeds + 2 / dt), n_bootstrap, budget,
                  "systems")
    table = np.full((k, k), np.nan)  # the diagonal stays NaN
    done = 0
    for i in range(k):
        for j in range(i + 1, k):
            a, b = values[names[i]], values[names[j]]
            ratio = float(violation_ratio(a, b, dt))
            margin = z * _bootstrap_sd(a, b, n_bootstrap, dt, seed, compat)
            table[i, j] = np.clip(ratio + margin, 0, 1)
            table[j, i] = np.clip(1 - ratio + margin, 0, 1)
            done += 1
            # ~200 calls, not one a pair
            if progress is not None and (done % max(1, pairs // 200) == 0 or done == pairs):
                progress(done / pairs)
    out = pd.DataFrame(table, index=names, columns=names)
    out.attrs.update(confidence_level=level, num_comparisons=comparisons, n_bootstrap=n_bootstrap, seed=seed,
                     signature=Signature("aso", "aso", confidence=level, comparisons=comparisons, resamples=n_bootstrap,
                                         seed=seed, compat=compat, systems=k, runs=tuple(len(values[n]) for n in names),
                                         versions=tool_versions("numpy")).to_dict())  # as JSON, as every attr
    return out


def table_signature(table: pd.DataFrame) -> Signature:
    """The signature of :func:`multi_aso`'s ``table``: its settings and the runs of each system."""
    return Signature.from_dict(table.attrs["signature"])


def _n_bootstrap(n_bootstrap: int | None, compat: str | None) -> int:
    if n_bootstrap is None:
        return DEEPSIG_N_BOOTSTRAP if compat == "deepsig" else N_BOOTSTRAP
    return check_resamples(n_bootstrap, "n_bootstrap", least=2)  # a standard deviation needs two
