"""compare() and stream(): one paired significance test of system A against system B.

The statistical contract (DESIGN.md): with delta = M(A, x) - M(B, x) and delta_i its value on resample i,
- paired bootstrap (Berg-Kirkpatrick et al. 2012; SLP3 §4.11, eq. 4.48), "greater":
  p = #{delta_i >= 2·delta} / b; "less": #{delta_i <= 2·delta} / b; "two-sided": #{|delta_i - delta| >= |delta|} / b;
- permutation / approximate randomisation (Noreen 1989):
  p = (#{delta_perm >= delta} + 1) / (R + 1), exact enumeration when 2^n' <= R (n' items where A and B differ);
- closed-form tests on per-item values (t, z, Wilcoxon, sign, McNemar).
Ties count as extreme, within a relative tolerance, so identical systems always get p = 1.
``compat="sacrebleu"`` reproduces sacrebleu's (and Moses' / MultEval's) two-sided definitions instead.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import scipy.stats

from . import __version__, closed_form, intervals, resampling
from .errors import SettingsError
from .metrics import METRICS, Metric, prepare
from .resampling import PairedStats
from .result import Result

ALTERNATIVES = ("greater", "less", "two-sided")
_TIE = 1e-9  # relative tolerance under which two deltas count as equal (float noise, not a difference)


@dataclass(frozen=True)
class Test:
    name: str
    description: str
    fits: Callable[[Metric], bool]
    needs: str  # what a metric must be for the test to fit, for the refusal message


TESTS: dict[str, Test] = {t.name: t for t in [
    Test("bootstrap", "Paired bootstrap (Berg-Kirkpatrick et al. 2012): p = #{δ(x⁽ⁱ⁾) ≥ 2·δ(x)} / b",
         lambda m: True, "any metric"),
    Test("permutation", "Paired approximate randomisation (Noreen 1989): swap A and B per item",
         lambda m: True, "any metric"),
    Test("t", "Paired t-test on per-item scores (Student 1908)", lambda m: m.decomposable,
         "a metric that is a mean of per-item values"),
    Test("z", "Paired z-test on per-item scores (normal approximation, large n)", lambda m: m.decomposable,
         "a metric that is a mean of per-item values"),
    Test("wilcoxon", "Wilcoxon signed-rank test on per-item score differences", lambda m: m.decomposable,
         "a metric that is a mean of per-item values"),
    Test("sign", "Sign test: exact binomial on the items where A and B differ", lambda m: m.decomposable,
         "a metric that is a mean of per-item values"),
    Test("mcnemar", "McNemar's test: exact binomial on discordant right/wrong pairs", lambda m: m.binary,
         "a metric of per-item right/wrong (accuracy, exact_match)"),
]}

COMPAT = ("sacrebleu",)


def tests_for(metric: str) -> list[str]:
    """The tests that fit a metric, recommended first."""
    return [name for name, t in TESTS.items() if t.fits(METRICS[metric])]


def compare(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, metric: str = "accuracy",
            test: str = "bootstrap", n_resamples: int = 10_000, alternative: str = "greater",
            confidence_level: float = 0.95, seed: int | None = 0, compat: str | None = None,
            ci_method: str | None = "percentile", **metric_options: Any) -> Result:
    """Test whether system A beats system B on the same items.

    ``alternative``: "greater" (H1: A is better), "less" (B is better) or "two-sided" (they differ).
    ``ci_method``: "percentile" or "bca" for the bootstrap interval of delta; ``None`` skips the bootstrap
    interval (the fields are nan) where a test would need extra resamples for it, for simulations that only
    need p.
    Extra keywords are metric options (``tokenize="none"``, ``positive_label=1``...).
    """
    *_, last = stream(gold, sys_a, sys_b, metric=metric, test=test, n_resamples=n_resamples,
                      alternative=alternative, confidence_level=confidence_level, seed=seed, compat=compat,
                      ci_method=ci_method, block=max(int(n_resamples), 1) if _is_int(n_resamples) else 1,
                      **metric_options)
    return last


def stream(gold: Sequence | None, sys_a: Sequence, sys_b: Sequence, *, metric: str = "accuracy",
           test: str = "bootstrap", n_resamples: int = 10_000, alternative: str = "greater",
           confidence_level: float = 0.95, seed: int | None = 0, compat: str | None = None,
           ci_method: str | None = "percentile", block: int = 1_000, **metric_options: Any) -> Iterator[Result]:
    """Like :func:`compare`, but yield a partial result after every ``block`` resamples.

    The last result equals ``compare`` with the same arguments exactly, whatever ``block`` is.
    Settings and data are checked before the first resample, when ``stream`` is called.
    """
    _check_settings(metric, test, n_resamples, alternative, confidence_level, seed, compat, ci_method, block)
    if METRICS[metric].patterns is not None:  # wide rows: built per group of identical items, never per item
        (rows_a, rows_b), counts, score, options = METRICS[metric].patterns(gold, [sys_a, sys_b], **metric_options)
        stats, paired = None, PairedStats.from_patterns(rows_a, rows_b, counts)
    else:
        stats, score, options = prepare(metric, gold, [sys_a, sys_b], **metric_options)
        paired = PairedStats.from_items(*stats)
    if seed is None:  # a fresh seed, recorded so that the run can be reproduced
        seed = int(np.random.SeedSequence().entropy % 2**63)
    run = _Run(metric, test, alternative, confidence_level, int(seed), compat, ci_method, options, paired, stats,
               score, n_resamples)
    if test in ("bootstrap", "permutation"):
        return run.resampled(block)
    return iter([run.closed_form()])


def _is_int(x: Any) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _check_settings(metric, test, n_resamples, alternative, confidence_level, seed, compat, ci_method, block):
    if metric not in METRICS:
        raise SettingsError(f"unknown metric {metric!r}", hint=f"Choose one of: {', '.join(METRICS)}.")
    if test not in TESTS:
        raise SettingsError(f"unknown test {test!r}", hint=f"Choose one of: {', '.join(TESTS)}.")
    if not TESTS[test].fits(METRICS[metric]):
        raise SettingsError(f"the {test} test needs {TESTS[test].needs}, and {metric} is not one",
                            hint=f"Tests that fit {metric}: {', '.join(tests_for(metric))}.")
    if alternative not in ALTERNATIVES:
        raise SettingsError(f"`alternative` must be one of {', '.join(ALTERNATIVES)}, not {alternative!r}")
    for name, value in (("n_resamples", n_resamples), ("block", block)):
        if not _is_int(value) or value < 1:
            raise SettingsError(f"`{name}` must be a positive integer, not {value!r}")
    if not isinstance(confidence_level, numbers.Real) or not 0 < confidence_level < 1:
        raise SettingsError(f"`confidence_level` must be between 0 and 1, not {confidence_level!r}",
                            hint="For a 95% interval pass 0.95.")
    if seed is not None and (not _is_int(seed) or seed < 0):
        raise SettingsError(f"`seed` must be a non-negative integer or None, not {seed!r}")
    if ci_method not in ("percentile", "bca", None):
        raise SettingsError(f"`ci_method` must be 'percentile', 'bca' or None, not {ci_method!r}")
    if compat is not None:
        if compat not in COMPAT:
            raise SettingsError(f"unknown compat mode {compat!r}", hint=f"Choose one of: {', '.join(COMPAT)}.")
        if test not in ("bootstrap", "permutation") or alternative != "two-sided":
            raise SettingsError("compat='sacrebleu' reproduces sacrebleu's two-sided paired bootstrap and "
                                "approximate randomisation only",
                                hint="Use test='bootstrap' or 'permutation' with alternative='two-sided'.")


# Which resampled deltas count as at least as extreme as the observed one (ties included).
_BOOTSTRAP_TAIL = {
    "greater": lambda d, delta, tol: d >= 2 * delta - tol,
    "less": lambda d, delta, tol: d <= 2 * delta + tol,
    "two-sided": lambda d, delta, tol: np.abs(d - delta) >= abs(delta) - tol,
}
_PERMUTATION_TAIL = {
    "greater": lambda d, delta, tol: d >= delta - tol,
    "less": lambda d, delta, tol: d <= delta + tol,
    "two-sided": lambda d, delta, tol: np.abs(d) >= abs(delta) - tol,
}

_CLOSED_FORM = {
    "t": lambda va, vb, alt, cl: closed_form.paired_t(va, vb, alternative=alt, confidence_level=cl),
    "z": lambda va, vb, alt, cl: closed_form.paired_z(va, vb, alternative=alt, confidence_level=cl),
    "wilcoxon": lambda va, vb, alt, cl: closed_form.wilcoxon(va, vb, alternative=alt),
    "sign": lambda va, vb, alt, cl: closed_form.sign_test(va, vb, alternative=alt),
    "mcnemar": lambda va, vb, alt, cl: closed_form.mcnemar(va, vb, alternative=alt),
}


def _extreme(d: np.ndarray, test: str, alternative: str, delta: float, tol: float, compat: str | None) -> np.ndarray:
    if compat == "sacrebleu":  # Moses / MultEval: |.| statistics, strict '>'
        stat = np.abs(d) - np.abs(d).mean() if test == "bootstrap" else np.abs(d)
        return stat > abs(delta)
    return (_BOOTSTRAP_TAIL if test == "bootstrap" else _PERMUTATION_TAIL)[alternative](d, delta, tol)


def counted(res: Result) -> np.ndarray:
    """Which values of ``res.distribution`` the p-value counts as at least as extreme as delta(x)."""
    return _extreme(res.distribution, res.test, res.alternative, res.delta, _tolerance(res.score_a, res.score_b),
                    res.compat)


def _tolerance(score_a: float, score_b: float) -> float:
    return _TIE * max(abs(score_a), abs(score_b), np.finfo(float).tiny)


@dataclass
class _Run:
    metric: str
    test: str
    alternative: str
    confidence_level: float
    seed: int
    compat: str | None
    ci_method: str | None
    options: dict[str, Any]
    paired: PairedStats
    stats: list[np.ndarray] | None  # per item, for the closed-form tests of decomposable metrics
    score: Callable[[np.ndarray], np.ndarray]
    n_resamples: int

    def __post_init__(self):
        total_a, total_b = self.paired.totals()
        self.score_a, self.score_b = float(self.score(total_a)), float(self.score(total_b))
        self.delta = self.score_a - self.score_b
        self.tol = _tolerance(self.score_a, self.score_b)

    def signature(self, n_resamples: int | None, exact: bool = False, ci: str = "") -> str:
        parts = [f"test:{self.test}" + ("-exact" if exact else ""), f"alternative:{self.alternative}"]
        if n_resamples is not None:
            parts += [f"resamples:{n_resamples}", f"seed:{self.seed}"]
        if self.compat:
            parts.append(f"compat:{self.compat}")
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        parts += [f"metric:{self.metric}" + (f"({opts})" if opts else ""), f"ci:{ci}@{self.confidence_level:g}",
                  f"sigcore:{__version__}", f"numpy:{np.__version__}"]
        if self.metric in ("bleu", "chrf"):
            import sacrebleu
            parts.append(f"sacrebleu:{sacrebleu.__version__}")
        return "|".join(parts)

    def resampled(self, block: int) -> Iterator[Result]:
        n_resamples = self.n_resamples
        exact = (self.test == "permutation" and self.compat is None
                 and resampling.exact_permutation_size(self.paired) <= n_resamples)
        if self.test == "bootstrap":
            total, chunks = n_resamples, resampling.bootstrap(self.paired, n_resamples, self.seed)
            ci = None
        else:
            total = resampling.exact_permutation_size(self.paired) if exact else n_resamples
            chunks = (resampling.exact_permutation(self.paired) if exact
                      else resampling.permutation(self.paired, n_resamples, self.seed))
            ci = self._bootstrap_interval(n_resamples)  # the null says nothing about the size of delta
        scores_a, scores_b = np.empty(total), np.empty(total)
        filled, mark = 0, min(block, total)
        for totals_a, totals_b in chunks:
            size = len(totals_a)
            scores_a[filled:filled + size] = self.score(totals_a)
            scores_b[filled:filled + size] = self.score(totals_b)
            filled += size
            while mark <= filled:
                yield self._resampled_result(scores_a[:mark], scores_b[:mark], exact, ci, done=mark == total)
                if mark == total:
                    return
                mark = min(mark + block, total)

    def _bootstrap_interval(self, n_resamples: int) -> tuple[str, tuple, tuple, tuple]:
        if self.ci_method is None:
            return "none", (math.nan, math.nan), (math.nan, math.nan), (math.nan, math.nan)
        scores = [(self.score(a), self.score(b)) for a, b in resampling.bootstrap(self.paired, n_resamples, self.seed)]
        return self._intervals(np.concatenate([a for a, _ in scores]), np.concatenate([b for _, b in scores]))

    def _intervals(self, sa: np.ndarray, sb: np.ndarray) -> tuple[str, tuple, tuple, tuple]:
        level = self.confidence_level
        d = sa - sb
        if self.ci_method is None:
            return self._bootstrap_interval(0)
        if self.ci_method == "bca":
            jack, weights = resampling.jackknife_deltas(self.paired, self.score)
            ci = intervals.bca(d, self.delta, jack, weights, level)
        else:
            ci = intervals.percentile(d, level)
        return (f"bootstrap-{self.ci_method}", ci, intervals.percentile(sa, level),
                intervals.percentile(sb, level))

    def _resampled_result(self, sa, sb, exact, ci, done) -> Result:
        d = sa - sb
        b = len(d)
        count = int(np.sum(_extreme(d, self.test, self.alternative, self.delta, self.tol, self.compat)))
        if exact or (self.test == "bootstrap" and self.compat is None):
            p, floor = count / b, 1 / b
        else:  # approximate randomisation and sacrebleu's definitions add one (the observed assignment)
            p, floor = (count + 1) / (b + 1), 1 / (b + 1)
        method, (low, high), ci_a, ci_b = ci if ci is not None else self._intervals(sa, sb)
        bootstrap = self.test == "bootstrap"
        return Result(
            metric=self.metric, test=self.test, alternative=self.alternative,
            score_a=self.score_a, score_b=self.score_b, delta=self.delta, p_value=p,
            ci_low=low, ci_high=high, confidence_level=self.confidence_level, ci_method=method,
            ci_a=ci_a, ci_b=ci_b, n_items=self.paired.n, n_resamples=b, seed=self.seed,
            mc_error=0.0 if exact else math.sqrt(p * (1 - p) / b), p_floor=floor, distribution=d,
            threshold=2 * self.delta if bootstrap and self.compat is None else self.delta,
            signature=self.signature(b, exact, method), exact=exact, compat=self.compat,
            options=self.options, done=done)

    def closed_form(self) -> Result:
        va, vb = self.score(self.stats[0]), self.score(self.stats[1])  # decomposable: one value per item
        out = _CLOSED_FORM[self.test](va, vb, self.alternative, self.confidence_level)
        if self.test in ("t", "z"):  # the interval that goes with the test
            normal = self.test == "z"
            method = "normal" if normal else "t"
            low, high = _mean_interval(va - vb, self.confidence_level, normal)
            own = _wilson_interval if METRICS[self.metric].binary else partial(_mean_interval, normal=normal)
            ci_a, ci_b = (own(v, self.confidence_level) for v in (va, vb))
        else:  # rank and count tests have no interval of the mean: use the bootstrap's
            method, (low, high), ci_a, ci_b = self._bootstrap_interval(self.n_resamples)
        resampled = method.startswith("bootstrap")
        return Result(
            metric=self.metric, test=self.test, alternative=self.alternative,
            score_a=self.score_a, score_b=self.score_b, delta=self.delta, p_value=float(out.p_value),
            ci_low=low, ci_high=high, confidence_level=self.confidence_level, ci_method=method,
            ci_a=ci_a, ci_b=ci_b, n_items=self.paired.n, n_resamples=self.n_resamples if resampled else 0,
            seed=self.seed if resampled else None, mc_error=0.0, p_floor=float(out.p_floor),
            distribution=None, threshold=None, signature=self.signature(self.n_resamples if resampled else None,
                                                                        ci=method),
            statistic=float(out.statistic), options=self.options)


def _wilson_interval(x: np.ndarray, level: float) -> tuple[float, float]:
    """Wilson's score interval of a share of right items: inside [0, 1], unlike a t interval near 0 or 1."""
    n, share = len(x), float(np.mean(x))
    z = scipy.stats.norm.ppf((1 + level) / 2)
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)  # the clip only absorbs float noise at 0 and 1


def _mean_interval(x: np.ndarray, level: float, normal: bool) -> tuple[float, float]:
    """The t (or normal) interval of a mean; a point when the values do not vary."""
    n, mean = len(x), float(np.mean(x))
    sd = float(np.std(x, ddof=1)) if n > 1 else 0.0
    if sd == 0:
        return mean, mean
    q = scipy.stats.norm.ppf((1 + level) / 2) if normal else scipy.stats.t.ppf((1 + level) / 2, n - 1)
    half = q * sd / math.sqrt(n)
    return mean - half, mean + half
