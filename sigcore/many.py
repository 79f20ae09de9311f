"""Many systems on one test set: every system against a baseline, or every pair, with corrected p-values and
a ranking in clusters.

With the paired bootstrap, each resample's item counts are drawn once and every system is scored on them (as
sacrebleu's --paired-bs does): one matrix product over all systems' sufficient statistics per block of
resamples, so the cost grows with systems × resamples, not pairs × items. Each pair's p-value, interval and
decision then come from the same code as :func:`sigcore.compare` (SLP3's rule δ(x⁽ⁱ⁾) ≥ 2δ(x), or
sacrebleu's with ``compat="sacrebleu"``). Other tests run pair by pair with :func:`sigcore.compare`.

The p-values of the family are corrected (Holm by default, see :mod:`sigcore.statistics.multiple`); a pair is
significant when its corrected p is at most α and its δ lies on H1's side.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from . import budget as budgets
from .comparison import AUTO, RESAMPLING, Run, check_settings, compare, membership
from .contract import DEFAULT_ALPHA, DEFAULT_ALTERNATIVE, DEFAULT_RESAMPLES, DEFAULT_SEED, P_UNDERFLOW, is_int
from .errors import GOLD, InputError, SettingsError
from .jsonform import bounded_p, plain
from .metrics import Metric, direction, prepare, resolve
from .result import Result, on_side, p_cell
from .signature import Signature
from .statistics import intervals, resampling
from .statistics.multiple import CORRECTIONS, MAXT, adjust, floor_reach
from .statistics.resampling import PairedStats

__all__ = ["MEMORY", "Many", "clusters", "cliques", "compare_many", "Shared", "shared_resamples"]

MEMORY = 1 << 30  # bytes of resampled scores and deltas held at once: every system's and every pair's, b each


@dataclass(frozen=True)
class Many:
    """The family of comparisons: ``results[(a, b)]`` tests "a against b" (δ = score(a) − score(b)), with
    ``adjusted[(a, b)]`` its corrected p. ``scores`` and ``score_intervals`` are each system's own score and
    its interval (percentile of the shared bootstrap, or Wilson's for right/wrong items)."""

    systems: tuple[str, ...]
    baseline: str | None
    metric: str
    test: str
    alternative: str
    alpha: float
    correction: str
    scores: dict[str, float]
    score_intervals: dict[str, tuple[float, float]]
    results: dict[tuple[str, str], Result] = field(repr=False)
    adjusted: dict[tuple[str, str], float]
    test_reason: str = ""  # no test was named: why ``test`` is the one the advice chose for the family

    @property
    def higher_is_better(self) -> bool:
        """The metric's direction, as every comparison of the family carries it (False for errors: MAE)."""
        return next(iter(self.results.values())).higher_is_better

    @property
    def auto(self) -> bool:
        """Whether no test was named and ``test`` is the one recommended for the family."""
        return bool(self.test_reason)

    def significant(self, a: str, b: str) -> bool:
        """Whether "a against b" rejects H0 after correction: corrected p ≤ α, δ on H1's side."""
        res = self.results[(a, b)]
        return self.adjusted[(a, b)] <= self.alpha and on_side(res.alternative, res.side)

    def delta_interval(self, a: str, b: str) -> tuple[float, float]:
        """δ's interval, where the test gives one (the bootstrap, permutation, t and z tests); nan where its
        interval is of another quantity (Wilcoxon's pseudo-median, the sign test's and McNemar's shares)."""
        res = self.results[(a, b)]
        return (res.ci_low, res.ci_high) if res.estimand == "delta" else (math.nan, math.nan)

    @property
    def n_resamples(self) -> int:
        """b, the same for every comparison of the family (0 for the closed-form tests)."""
        return next(iter(self.results.values())).n_resamples

    @property
    def seed(self) -> int | None:
        """The seed of every comparison's resamples (None for the closed-form tests)."""
        return next(iter(self.results.values())).seed

    def floor(self) -> tuple[float, int | None]:
        """The smallest corrected p the family can reach (every p at its floor, corrected as the family is), and,
        when that is above α, about how many resamples would reach α (a multiple of 1,000; None otherwise)."""
        results = list(self.results.values())
        floors = [r.p_floor for r in results]
        if min(floors) == 0:  # an asymptotic test (t, z): p has no floor, and neither has its correction
            return 0.0, None
        smallest, needed = floor_reach(floors, self.correction, self.alpha, results[0].n_resamples)
        return smallest, needed if results[0].resampled else None

    def p_texts(self, a: str, b: str) -> tuple[str, str]:
        """p and the corrected p as every report prints them: "< 0.0001" where no resample was extreme (p is then
        an upper bound, and so is its correction), else the digits that keep p on its side of α."""
        res = self.results[(a, b)]
        bound = res.p_bound or res.p_value == 0  # an upper bound, and so is its correction
        return (p_cell(res.p_floor if res.p_bound else res.p_value, res.alpha, bound=res.p_bound),
                p_cell(self.adjusted[(a, b)], self.alpha, bound=bound))

    @property
    def signature_fields(self) -> Signature:
        """The family's signature: its first comparison's, without that pair's data hash, with the correction and
        the number of comparisons."""
        first = next(iter(self.results.values())).signature_fields
        if first.kind == "saved":  # read from a file that kept only the text: no fields to add these to
            return first
        return replace(first, kind="family", data=None, correction=self.correction, comparisons=len(self.results))

    @property
    def signature(self) -> str:
        """The family's signature string (:attr:`signature_fields` written out)."""
        return self.signature_fields.text

    def settings(self) -> dict[str, Any]:
        """What every output of the family states: the test (and why, when none was named), H1, b, seed, α and the
        correction."""
        return {"test": self.test, "test_reason": self.test_reason, "alternative": self.alternative,
                "n_resamples": self.n_resamples, "seed": self.seed, "alpha": self.alpha,
                "correction": self.correction}

    def table(self) -> pd.DataFrame:
        """One row per comparison: the systems, their scores, δ with its interval, p and corrected p (as numbers
        and as printed), the decision, and the settings that made them."""
        rows = []
        settings = {k: v for k, v in self.settings().items() if k != "test_reason"}
        for (a, b), res in self.results.items():
            low, high = self.delta_interval(a, b)
            p_text, adjusted_text = self.p_texts(a, b)
            rows.append({"system": a, "against": b, "score": res.score_a, "score_against": res.score_b,
                         "delta": res.delta, "ci_low": low, "ci_high": high, "p": res.p_value,
                         "p_adjusted": self.adjusted[(a, b)], "p_text": p_text, "p_adjusted_text": adjusted_text,
                         "significant": self.significant(a, b), **settings})
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        """One family of the JSON record of kind "family" (:func:`sigcore.report.records.family`): the settings,
        each system's score and interval, a row per comparison under the text table's names (δ's interval as
        ``delta_low``/``delta_high``, "p corrected" as ``p_corrected``, p never 0: :mod:`sigcore.jsonform`), with the
        comparison itself under "result", and the ranking when every pair was tested."""
        rows = []
        for (a, b), res in self.results.items():
            low, high = self.delta_interval(a, b)
            p_text, corrected_text = self.p_texts(a, b)
            rows.append({"system": a, "against": b, "score": self.scores[a], "score_low": self.score_intervals[a][0],
                         "score_high": self.score_intervals[a][1], "score_against": self.scores[b],
                         "delta": res.delta, "delta_low": low, "delta_high": high,
                         "p_value": bounded_p(res.p_value, P_UNDERFLOW)[0],
                         "p_corrected": bounded_p(self.adjusted[(a, b)], P_UNDERFLOW)[0], "p_text": p_text,
                         "p_corrected_text": corrected_text, "p_bound": res.p_bound,
                         "significant": self.significant(a, b), "result": res.to_dict()})
        ranking = self.ranking().to_dict(orient="records") if self.baseline is None else None
        return plain({"metric": self.metric, "systems": list(self.systems), "baseline": self.baseline,
                      **self.settings(), "higher_is_better": self.higher_is_better, "scores": self.scores,
                      "score_intervals": self.score_intervals, "comparisons": rows, "ranking": ranking})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Many:
        """The family :meth:`to_dict` wrote (one of a "family" record's ``families``, checked against its schema
        by :func:`sigcore.jsonform.read`)."""
        pairs = [(c["system"], c["against"]) for c in data["comparisons"]]
        return cls(tuple(data["systems"]), data["baseline"], data["metric"], data["test"], data["alternative"],
                   data["alpha"], data["correction"], {k: _nan(v) for k, v in data["scores"].items()},
                   {k: (_nan(v[0]), _nan(v[1])) for k, v in data["score_intervals"].items()},
                   {pair: Result.from_dict(c["result"]) for pair, c in zip(pairs, data["comparisons"])},
                   {pair: c["p_corrected"] for pair, c in zip(pairs, data["comparisons"])},
                   data.get("test_reason", ""))

    def ranking(self) -> pd.DataFrame:
        """Systems by score, best first (the lowest first where lower is better), in :func:`clusters`, with each
        system's rank range (losses + 1 to N − wins, counting significant wins and losses after correction, as WMT
        does). Needs every pair."""
        names = self.best_first()
        better = np.array([[a != b and self.better(a, b) for b in names] for a in names])
        wins, losses = better.sum(axis=1), better.sum(axis=0)
        return pd.DataFrame({"system": names, "score": [self.scores[s] for s in names], "cluster": clusters(better),
                             "rank_low": losses + 1, "rank_high": len(names) - wins})

    def best_first(self, names: Sequence[str] | None = None) -> list[str]:
        """``names`` (every system by default) by score, the best first: the highest, or the lowest where lower is
        better (an error)."""
        sign = -1 if self.higher_is_better else 1
        return sorted(self.systems if names is None else names, key=lambda s: sign * self.scores[s])

    def better(self, a: str, b: str) -> bool:
        """Whether ``a`` is significantly better than ``b`` after the correction, whichever way the pair was tested."""
        if (a, b) in self.results:
            return self.significant(a, b) and self.results[(a, b)].side > 0
        if (b, a) in self.results:
            return self.significant(b, a) and self.results[(b, a)].side < 0
        raise SettingsError("a ranking needs every pair of systems", hint="Use all_pairs=True.")


def clusters(better: np.ndarray) -> list[int]:
    """Cluster numbers of systems sorted best first, from ``better[i, j]``: system i significantly better than
    system j. A line is drawn between positions i and i + 1 only when every system above it is significantly
    better than every system below it (WMT's ``get_clusters``, github.com/wmt-conference/wmt24-news-systems,
    humeval/tools.py): systems that cannot be told apart, even through a chain of neighbours, share a cluster."""
    numbers = [1]
    for i in range(1, len(better)):
        numbers.append(numbers[-1] + int(better[:i, i:].all()))
    return numbers


def cliques(different: np.ndarray) -> list[tuple[int, int]]:
    """The bars of a critical-difference diagram over systems in order: every longest run i..j of neighbours no
    two of which ``different[a, b]`` tells apart (Demšar 2006's thick lines), as (i, j), j > i; runs inside a
    longer one are left out. Unlike :func:`clusters` they may overlap: A ~ B and B ~ C need not give A ~ C."""
    runs = []
    for i in range(len(different)):
        j = i
        while j + 1 < len(different) and not different[i:j + 2, i:j + 2].any():
            j += 1
        if j > i and not (runs and runs[-1][1] >= j):
            runs.append((i, j))
    return runs


def _naming_systems(function):
    """An error about "system k" (of a pair, or of the shared resamples: no name the user gave) said of the system
    it is about, with its name in ``.system``: each system's outputs are checked alone, on this slow path only."""
    named_parameters = set(inspect.signature(function).parameters)

    @functools.wraps(function)
    def compare(gold, systems, **settings):
        try:
            return function(gold, systems, **settings)
        except InputError as error:
            if error.system in (None, GOLD) or not isinstance(systems, Mapping):
                raise
            options = {k: v for k, v in settings.items() if k not in named_parameters}  # the metric's
            for name, outputs in systems.items():
                try:
                    prepare(settings.get("metric", "accuracy"), gold, [outputs, outputs], **options)  # system 1
                except InputError as own:
                    raise own.at(system=name) from None
            raise
    return compare


@_naming_systems
def compare_many(gold: Sequence | None, systems: Mapping[str, Sequence], *, baseline: str | None = None,
                 all_pairs: bool = False, metric: str | Metric = "accuracy", test: str = AUTO,
                 n_resamples: int = DEFAULT_RESAMPLES, alternative: str = DEFAULT_ALTERNATIVE,
                 alpha: float = DEFAULT_ALPHA, correction: str = "holm", seed: int | None = DEFAULT_SEED,
                 groups: Sequence | None = None, compat: str | None = None, ci_method: str | None = "basic",
                 budget: int | None = None, progress: Callable[[float], None] | None = None,
                 higher_is_better: bool | None = None, **metric_options: Any) -> Many:
    """Compare every system with ``baseline`` (default: the first), or every pair with ``all_pairs``.

    ``systems``: name → outputs, in the same item order as ``gold``. ``alternative`` is H1 for "system against
    baseline" (or "first of the pair against the second, in the order given"): two-sided by default, as in
    :func:`sigcore.compare`. ``test="auto"`` (the default): one test for the family, the one
    :func:`sigcore.advisor.advise_family` chooses (``Many.test_reason`` says why). ``budget`` (steps, see
    :mod:`sigcore.budget`) refuses a family that would cost more, before it starts; ``progress`` is called with the
    share done after each block of resamples or each pair (a page updates its bar there, and can stop there).
    ``metric`` and ``higher_is_better`` as in :func:`sigcore.compare`: where lower is better (MAE), "better" and
    the ranking's order follow it.
    """
    names = _names(systems, baseline, all_pairs)
    higher = direction(metric, higher_is_better)
    if correction == MAXT:
        raise SettingsError("the max-statistic correction (maxt) is for models on many tasks, from a board's shared "
                            "resamples", hint=f"Choose one of: {', '.join(CORRECTIONS)}.")
    if correction not in CORRECTIONS:
        raise SettingsError(f"unknown correction {correction!r}", hint=f"Choose one of: {', '.join(CORRECTIONS)}.")
    auto = test == AUTO
    check_settings(metric, "bootstrap" if auto else test, n_resamples, alternative, alpha, None, seed, compat,
                    ci_method, True, 1, groups)
    base = baseline if baseline is not None else names[0]
    n_pairs, n = (len(names) * (len(names) - 1) // 2 if all_pairs else len(names) - 1), _length(systems)
    # each comparison scores its items and, resampled, b deltas: counted before 9,000 systems' 40 million pairs exist
    budgets.check(f"{n_pairs:,} comparisons of {n:,} items" + (f" at b = {n_resamples:,}" if is_int(n_resamples)
                                                                else ""),
                  n + (n_resamples if is_int(n_resamples) else 0), n_pairs, budget, "systems", unit="comparison")
    pairs = (list(itertools.combinations(names, 2)) if all_pairs
             else [(name, base) for name in names if name != base])
    why = ""
    if auto:
        from .advisor import advise_family

        test, why = (("bootstrap", "sacrebleu's paired bootstrap (compat)") if compat else
                     advise_family(gold, systems, pairs, metric=metric, groups=groups, alpha=alpha, **metric_options))
        check_settings(metric, test, n_resamples, alternative, alpha, None, seed, compat, ci_method, True, 1, groups)
    if test == "bootstrap" and is_int(n_resamples) and (len(pairs) + len(names)) * n_resamples * 8 > MEMORY:
        raise SettingsError(f"{len(pairs)} comparisons of {len(names)} systems at b = {n_resamples:,} would hold more "
                            f"than {MEMORY >> 30} GiB of resampled scores",
                            hint="Use fewer resamples, or compare with one baseline instead of every pair.")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**63)
    options = dict(metric=metric, test=test, n_resamples=n_resamples, alternative=alternative, alpha=alpha,
                   seed=seed, groups=groups, compat=compat, ci_method=ci_method, higher_is_better=higher,
                   **metric_options)
    if test == "bootstrap":
        results, scores, own = _shared_bootstrap(gold, systems, names, pairs, options, budget, progress)
    else:
        if test in RESAMPLING:  # each pair resamples its items (twice: the permutation test bootstraps its interval)
            budgets.check(f"{len(pairs):,} pairs' b = {n_resamples:,} resamples of {n:,} items", 2 * n * len(pairs),
                          n_resamples, budget, "pairs")
        results = {}
        for k, (a, b) in enumerate(pairs, start=1):
            results[(a, b)] = compare(gold, systems[a], systems[b], **options)
            if progress is not None:
                progress(k / len(pairs))
        scores, own = {}, {}
        for (a, b), res in results.items():
            scores.update({a: res.score_a, b: res.score_b})
            own.update({a: res.ci_a, b: res.ci_b})
    adjusted = dict(zip(results, adjust(list(results.values()), correction)))
    return Many(tuple(names), None if all_pairs else base, resolve(metric).name, test, alternative, alpha, correction,
                scores, own, results, adjusted, why)


def _length(systems: Mapping[str, Sequence]) -> int:
    try:
        return len(next(iter(systems.values())))
    except TypeError:
        return 0


def _names(systems: Mapping[str, Sequence], baseline: str | None, all_pairs: bool) -> list[str]:
    if not isinstance(systems, Mapping):
        raise SettingsError("systems must map each system's name to its outputs", hint="Pass a dict.")
    names = list(systems)
    if len(names) < 2:
        raise SettingsError(f"many systems means at least 2, got {len(names)}")
    if len({str(name) for name in names}) != len(names):
        raise SettingsError("two systems have the same name", hint="Give every system its own name.")
    if baseline is not None and baseline not in names:
        raise SettingsError(f"the baseline {baseline!r} is not one of the systems",
                            hint=f"The systems are: {', '.join(names)}.")
    if baseline is not None and all_pairs:
        raise SettingsError("a baseline and all pairs at once", hint="Choose one: baseline= or all_pairs=True.")
    return names


@dataclass(frozen=True)
class Shared:
    """Every system's scores on the same b bootstrap resamples (``resampled``, b × k), with what made them."""

    resampled: np.ndarray
    rows: list[np.ndarray]  # per system: sufficient statistics per item (or per group, or per pattern)
    weights: np.ndarray  # items each row stands for
    stats: list[np.ndarray] | None  # per item, for the metrics that have them
    score: Any
    options: dict[str, Any]  # the metric's resolved options
    n_items: int


def shared_resamples(gold, outputs: list[Sequence], metric: str, n_resamples: int, seed: int, groups=None, *,
                     budget: int | None = None, progress: Callable[[float], None] | None = None,
                     **metric_options: Any) -> Shared:
    """Score every system on the same bootstrap resamples: one draw of item counts per resample, one matrix
    product over all systems' sufficient statistics; refused beyond ``budget``, ``progress`` told after each block."""
    if resolve(metric).patterns is not None:  # wide rows: per group of identical items, never per item
        rows, inverse, score, resolved = resolve(metric).patterns(gold, outputs, **metric_options)
        weights = np.bincount(inverse, minlength=len(rows[0]))
        stats, n_items = None, len(inverse)
        if groups is not None:
            members = membership(groups, n_items, columns=inverse, width=len(rows[0]))
            rows, weights = [members @ r for r in rows], np.ones(members.shape[0], dtype=np.int64)
    else:
        stats, score, resolved = prepare(metric, gold, outputs, **metric_options)
        rows, n_items = stats, len(stats[0])
        if groups is not None:
            members = membership(groups, n_items)
            rows = [members @ s for s in stats]
        weights = np.ones(len(rows[0]), dtype=np.int64)
    width, k = rows[0].shape[1], len(rows)
    budgets.check(f"{k:,} systems' b = {n_resamples:,} resamples of {len(rows[0]):,} rows", len(rows[0]) * k,
                  n_resamples, budget, "systems")
    half = (k + 1) // 2  # the engine pairs two equally wide row blocks: half the systems in each (one zero block
    padding = [np.zeros_like(rows[0])] * (2 * half - k)  # when k is odd), all drawn with the same item counts
    joint = PairedStats.from_patterns(np.hstack(rows[:half]), np.hstack(rows[half:] + padding), weights)
    resampled = np.empty((n_resamples, k))
    filled = 0
    for first, second in resampling.bootstrap(joint, n_resamples, seed):
        size = len(first)
        totals = np.hstack([first, second]).reshape(size * 2 * half, width)
        resampled[filled:filled + size] = score(totals).reshape(size, 2 * half)[:, :k]
        filled += size
        if progress is not None:
            progress(filled / n_resamples)
    return Shared(resampled, rows, weights, stats, score, resolved, n_items)


def _shared_bootstrap(gold, systems, names, pairs, options, budget, progress):
    """Every system's scores on the same bootstrap resamples, then each pair's result from its columns."""
    metric, seed, b, groups = options["metric"], options["seed"], options["n_resamples"], options["groups"]
    metric_options = {k: v for k, v in options.items() if k not in (
        "metric", "test", "n_resamples", "alternative", "alpha", "seed", "groups", "compat", "ci_method",
        "higher_is_better")}
    shared = shared_resamples(gold, [systems[name] for name in names], metric, b, seed, groups, budget=budget,
                              progress=progress, **metric_options)
    resampled, rows, weights, stats, score = shared.resampled, shared.rows, shared.weights, shared.stats, shared.score
    resolved, n_items = shared.options, shared.n_items
    column = {name: i for i, name in enumerate(names)}
    level = 1 - options["alpha"]
    results = {}
    for a, bname in pairs:
        i, j = column[a], column[bname]
        paired = PairedStats.from_patterns(rows[i], rows[j], weights)
        run = Run(resolve(metric).name, "bootstrap", options["alternative"], options["alpha"], level, options["alpha"],
                   int(seed), options["compat"], options["ci_method"], True, resolved, paired,
                   None if stats is None or groups is not None else [stats[i], stats[j]], score, b, n_items,
                   None if groups is None else paired.n, definition=resolve(metric),
                   higher_is_better=options["higher_is_better"])
        sa, sb = resampled[:, i], resampled[:, j]
        results[(a, bname)] = run.resampled_result(sa, sb, sa - sb, False, None, done=True, alone=False)
    totals = {name: weights @ rows[column[name]] for name in names}
    scores = {name: float(score(totals[name])) for name in names}
    binary = resolve(metric).binary and groups is None
    own = {name: (intervals.wilson(score(stats[column[name]]), level) if binary
                  else intervals.percentile(resampled[:, column[name]], level)) for name in names}
    return results, scores, {name: tuple(map(float, v)) for name, v in own.items()}


def _nan(value: float | None) -> float:
    """A number read back from JSON, where null stands for NaN."""
    return math.nan if value is None else value
