"""What the board's bootstrap gives (:class:`Leaderboard`): each model's scores and intervals, δ against a baseline
or between pairs, corrected over families, ranks, tie groups, the split of δ's variance and the saved form."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..contract import DEFAULT_ALPHA, check_alpha, check_level, extreme, tie
from ..errors import PARAMETER, InputError, SettingsError
from ..signature import Signature, tool_versions
from ..statistics import intervals, maxstat
from ..statistics.multiple import MAXT, adjust
from ..statistics.multiple import RESAMPLED as CORRECTIONS
from ..words import listed, named
from .board import HUGE, WEIGHTS, Board, group_members, scale_exponent, task_shares

__all__ = ["Leaderboard"]
_PAIRS = 1 << 10  # pairs of models whose b resampled δ are looked at together: 80 MiB at b = 10,000


@dataclass(frozen=True)
class Leaderboard:
    """What :func:`sigcore.leaderboard.bootstrap` computed: the point values, the resampled ones, and what they give."""

    board: Board
    weight: str
    n_resamples: int
    seed: int
    task_scores: np.ndarray  # (tasks, models)
    aggregate: np.ndarray  # (models,)
    resampled: np.ndarray = field(repr=False)  # (b, models): the aggregate on each resample
    resampled_tasks: np.ndarray | None = field(default=None, repr=False)  # (b, tasks, models), with per_task
    # each task's percentile interval of every model's score at task_level: (2, tasks, models), with confidence_level
    task_bounds: np.ndarray | None = field(default=None, repr=False)
    task_level: float | None = None

    def interval(self, model: str, confidence_level: float = 0.95) -> tuple[float, float]:
        """The percentile interval of ``model``'s aggregate."""
        return intervals.percentile(self.resampled[:, self._index(model)], confidence_level)

    def delta(self, model: str, baseline: str, alpha: float = DEFAULT_ALPHA, *, task: str | None = None
              ) -> tuple[float, float, float, float]:
        """δ = aggregate(model) − aggregate(baseline) (or their scores on ``task``, from a ``per_task`` run), its
        basic-bootstrap interval (the test's dual) and the two-sided paired bootstrap p (#{|δ_i − δ| ≥ |δ|} / b;
        0 means p < 1 / b, and is shown so)."""
        i, j = self._index(model), self._index(baseline)
        point, resampled = (self.aggregate, self.resampled) if task is None else self._task_values(task)
        return tuple(float(x[0]) for x in self._deltas(point, resampled, [i], [j], alpha))

    def task_intervals(self, confidence_level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Every model's percentile interval on each task (two (tasks, models) arrays), from the tasks' resamples (a
        ``per_task`` run) or from the bounds kept at ``bootstrap(..., confidence_level=...)``."""
        check_level(confidence_level)
        if self.resampled_tasks is not None:
            low, high = zip(*(intervals.percentile(self.resampled_tasks[:, k], confidence_level, axis=0)
                              for k in range(len(self.board.tasks))))
            return np.array(low).reshape(self.task_scores.shape), np.array(high).reshape(self.task_scores.shape)
        if self.task_bounds is None or self.task_level != confidence_level:
            raise SettingsError(f"each task's {confidence_level:.0%} interval needs the tasks' resamples",
                                hint="Run bootstrap(..., per_task=True), or with confidence_level="
                                     f"{confidence_level:g}.")
        return self.task_bounds[0], self.task_bounds[1]

    def _deltas(self, point: np.ndarray, resampled: np.ndarray, i, j, alpha: float) -> tuple[np.ndarray, ...]:
        """:meth:`delta` of models ``i`` against models ``j`` (index arrays), as arrays: δ, its interval, p; the
        same numbers as one pair at a time (intervals.basic's, two-sided), a block of pairs at a time."""
        i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
        scale = 1.0
        if max(-float(resampled.min(initial=0)), float(resampled.max(initial=0))) >= HUGE:
            # δ_i − δ of ±1e308 would overflow: all of it a power of two down, exactly, and δ, its interval back
            resampled, scale = intervals.power_scale(resampled)
            point = point / scale
        check_alpha(alpha)
        d = point[i] - point[j]
        tol = tie(point[i], point[j])  # the one tie rule, in the board's (scaled) units
        b = len(resampled)
        k = intervals.largest_count(alpha, b)
        low, high, p = np.full(len(d), np.nan), np.full(len(d), np.nan), np.empty(len(d))
        for start in range(0, len(d), _PAIRS):
            cols = slice(start, start + _PAIRS)
            resampled_d = resampled[:, i[cols]] - resampled[:, j[cols]]  # δ_i
            p[cols] = np.count_nonzero(extreme(resampled_d, "two-sided", d[cols], tol[cols], centre=d[cols]),
                                       axis=0) / self.n_resamples
            if k:  # the (b − k)-th smallest deviation c: δ ∓ c, within tol of 0 as 0 (intervals.basic)
                deviations = np.abs(np.subtract(resampled_d, d[cols], out=resampled_d), out=resampled_d)  # |δ_i − δ|
                c = np.partition(deviations, b - k - 1, axis=0)[b - k - 1]
                low[cols], high[cols] = np.minimum(d[cols] - c, d[cols]), np.maximum(d[cols] + c, d[cols])
        low[np.abs(low) <= tol], high[np.abs(high) <= tol] = 0.0, 0.0
        if scale != 1:
            d, low, high = d * scale, low * scale, high * scale
        return d, low, high, p

    def _corrected(self, p: np.ndarray, correction: str, parts: list[tuple]) -> np.ndarray:
        """``p`` of a family of comparisons corrected as one: by ``correction`` over the p (each at least 1/b), or
        with "maxt" by the largest standardised deviation over the family's own resamples
        (:mod:`sigcore.statistics.maxstat`), which separates pairs at a b where Holm over many pairs cannot.
        ``parts``: (point, resampled, i, j) of models ``i`` against ``j``, one per task the family spans, in the
        order of ``p``."""
        if correction not in CORRECTIONS:
            raise SettingsError(f"unknown correction {correction!r}", hint=f"Choose one of: {', '.join(CORRECTIONS)}.")
        if correction != MAXT:
            return adjust(p, correction, floors=1 / self.n_resamples) if len(p) else np.array([])
        scaled = []
        for point, resampled, i, j in parts:
            if max(-float(resampled.min(initial=0)), float(resampled.max(initial=0))) >= HUGE:
                resampled, scale = intervals.power_scale(resampled)  # standardised: the scale drops out
                point = point / scale
            i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
            scaled.append((resampled, i, j, point[i] - point[j], tie(point[i], point[j])))
        offsets = np.cumsum([0] + [len(part[1]) for part in scaled])

        def centred(h: np.ndarray) -> np.ndarray:  # δ⁽ⁱ⁾ − δ of the comparisons h, from their tasks' resamples
            out = np.empty((self.n_resamples, len(h)))
            part = np.searchsorted(offsets, h, side="right") - 1
            for k in np.unique(part):
                resampled, i, j, d, _ = scaled[k]
                local = h[part == k] - offsets[k]
                out[:, part == k] = resampled[:, i[local]] - resampled[:, j[local]] - d[local]
            return out

        d, tol = (np.concatenate([part[n] for part in scaled]) for n in (3, 4))
        return maxstat.adjusted(d, centred, self.n_resamples, tol=tol)

    def variance(self, model: str, baseline: str, task: str | None = None):
        """Where the variance of δ = ``model`` − ``baseline`` comes from, the items or the runs (epochs: each run a
        fresh draw of the items' answers), and with clusters the clusters, the items within them or the runs, on the
        aggregate (each task's split weighted by its share squared) or on ``task``:
        :class:`sigcore.statistics.variance.Split`. Without runs, all of it is the items' (and clusters')."""
        from ..statistics.variance import Runs, combine, from_item_means

        i, j = self._index(model), self._index(baseline)
        board = self.board
        if not board.scores:
            raise SettingsError("the split of δ's variance needs the per-item scores, which a saved board leaves out",
                                hint="Run the board from its logs or table.")

        def one(t: str):
            n = len(board.items[t])
            error, runs = board.epochs.get(t, (np.zeros(len(board.models)), np.ones(len(board.models))))
            # scores of 1e308 a power of two down (exactly), so that their differences and squares cannot overflow
            scores, scale = intervals.power_scale(board.scores[t][:, [i, j]])
            k = scale_exponent(scale)
            error = np.ldexp(error[[i, j]], -2 * k)
            split = from_item_means(scores[:, 0] - scores[:, 1], Runs(n, runs[i], 0.0, error[0]),
                                    Runs(n, runs[j], 0.0, error[1]), "epochs", board.clusters.get(t))
            if not k:
                return split
            terms = {term: float(np.ldexp(getattr(split, term), 2 * k)) for term in ("items", "runs", "error",
                                                                                   "clusters")}
            if not all(map(math.isfinite, terms.values())):
                raise InputError(f"the variance of δ of model {named(model)} − model {named(baseline)} on task "
                                 f"{named(t)} is past the largest number a float holds (its scores reach "
                                 f"{float(np.abs(board.scores[t]).max()):g})",
                                 hint="Rescale every model's scores alike (e.g. divide them by 1e300).")
            return replace(split, **terms)

        if task is not None:
            if task not in board.tasks:
                raise SettingsError(f"no task {named(task)}", hint=f"The tasks: {listed(list(board.tasks))}.")
            return one(task)
        return combine([one(t) for t in board.tasks], task_shares(board, self.weight))

    def _task_values(self, task: str) -> tuple[np.ndarray, np.ndarray]:
        """A task's (or a group's, averaged as the group says) scores and resampled scores, from a per_task run."""
        if self.resampled_tasks is None:
            raise SettingsError("a task's δ needs the tasks' resamples", hint="Run bootstrap(..., per_task=True).")
        board = self.board
        if task in board.groups:
            k, share = group_members(board, task)
            return share @ self.task_scores[k], np.einsum("t,btm->bm", share, self.resampled_tasks[:, k])
        if task not in board.tasks:
            raise SettingsError(f"no task {named(task)}", hint=f"The tasks: {listed(list(board.tasks))}.")
        k = board.tasks.index(task)
        return self.task_scores[k], self.resampled_tasks[:, k]

    def pairs(self, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> pd.DataFrame:
        """Every pair of models on the aggregate, the better first (in score order): δ, its interval, p and p
        corrected over all pairs with ``correction``."""
        order = self._order()
        first, second = np.triu_indices(len(order), 1)  # every pair, the better first, row after row
        i, j = order[first], order[second]
        models = np.array(self.board.models, dtype=object)
        rows = pd.DataFrame({"model": models[i].tolist(), "other": models[j].tolist(),
                             **dict(zip(("delta", "delta_low", "delta_high", "p_value"),
                                        self._deltas(self.aggregate, self.resampled, i, j, alpha)))},
                            columns=["model", "other", "delta", "delta_low", "delta_high", "p_value"])
        rows["p_corrected"] = self._corrected(rows.p_value.to_numpy(), correction,
                                              [(self.aggregate, self.resampled, i, j)])
        return rows

    def _order(self) -> np.ndarray:
        """The models' indices by aggregate, best first (ties in the board's order)."""
        return np.argsort(-self.aggregate, kind="stable")

    def _pairs_matrix(self, alpha: float, correction: str, better: bool) -> tuple[list[str], np.ndarray]:
        """The models best first and, for each pair of them in that order, whether the first is significantly
        better than the second (``better``) or the two differ significantly, from :meth:`pairs`."""
        order = self._order()
        names = [self.board.models[k] for k in order]
        rows = self.pairs(alpha, correction)
        first, second = np.triu_indices(len(order), 1)
        marked = (rows.p_corrected.to_numpy() <= alpha) & ((rows.delta.to_numpy() > 0) if better else True)
        matrix = np.zeros((len(order), len(order)), dtype=bool)
        matrix[first, second] = marked
        return names, matrix

    def arena_ranks(self, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> dict[str, int]:
        """Each model's rank as LMArena publishes it: 1 + the number of models significantly better than it on the
        aggregate, over all pairs with ``correction`` (:func:`sigcore.statistics.maxstat.arena_ranks`): models the
        data do not separate share a rank, and a rank says how many are shown above."""
        order, better = self._pairs_matrix(alpha, correction, better=True)
        return dict(zip(order, maxstat.arena_ranks(better).tolist()))

    def groups(self, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> dict[str, int]:
        """Tie groups, best first: a line falls between two models in score order only when every model above it is
        significantly better than every model below it, over all pairs with ``correction`` (WMT's clusters,
        :func:`sigcore.many.clusters`); models whose order the data do not settle share a group."""
        from ..many import clusters

        order, better = self._pairs_matrix(alpha, correction, better=True)
        return dict(zip(order, clusters(better)))

    def cliques(self, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> list[list[str]]:
        """The bars of the critical-difference-style diagram, from the paired resamples: each longest run of models
        in score order no two of which differ significantly on the aggregate (:meth:`pairs`, with
        ``correction``); unlike :meth:`groups`, two bars may share a model."""
        from ..many import cliques

        order, different = self._pairs_matrix(alpha, correction, better=False)
        different |= different.T
        return [order[i:j + 1] for i, j in cliques(different)]

    def mean_ranks(self) -> np.ndarray:
        """(models,): each model's rank averaged over the resamples, where the diagram places it."""
        return self.ranks().mean(axis=0)

    def unit_scores(self) -> tuple[tuple[str, ...], np.ndarray]:
        """The tasks as the aggregate counts them, a group as one (its score averaged as the group says), and
        their scores (units, models): the observations of :meth:`friedman`."""
        board, grouped = self.board, {t for members, _ in self.board.groups.values() for t in members}
        index = {t: k for k, t in enumerate(board.tasks)}
        names, rows = [], []
        for t in board.tasks:
            if t not in grouped:
                names.append(t)
                rows.append(self.task_scores[index[t]])
        for group in board.groups:
            k, share = group_members(board, group)
            names.append(group)
            rows.append(share @ self.task_scores[k])
        return tuple(names), np.array(rows)

    def friedman(self, alpha: float = DEFAULT_ALPHA):
        """The Friedman test over the tasks (a group as one) with Nemenyi's critical difference (Demšar 2006):
        :func:`sigcore.statistics.friedman.friedman`. Offered beside the board, not in its place."""
        from ..statistics.friedman import friedman

        return friedman(self.unit_scores()[1], self.board.models, alpha)

    def ranks(self) -> np.ndarray:
        """(b, models): each model's rank on each resample, 1 the best (higher scores are better)."""
        order = np.argsort(-self.resampled, axis=1, kind="stable")
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.arange(1, len(self.board.models) + 1)[None, :], axis=1)
        return ranks

    def rank_interval(self, model: str, confidence_level: float = 0.95) -> tuple[int, int]:
        """The ranks ``model`` takes on the middle ``confidence_level`` of the resamples."""
        return self.rank_intervals(confidence_level)[model]

    def rank_intervals(self, confidence_level: float = 0.95) -> dict[str, tuple[int, int]]:
        """Every model's :meth:`rank_interval`, from one ranking of the resamples."""
        tail = (1 - confidence_level) / 2
        low, high = np.quantile(self.ranks(), [tail, 1 - tail], axis=0)
        return {m: (int(np.floor(lo)), int(np.ceil(hi))) for m, lo, hi in zip(self.board.models, low, high)}

    def table(self, baseline: str, alpha: float = DEFAULT_ALPHA, correction: str = "holm") -> pd.DataFrame:
        """One row per model, best first: its aggregate and 1 − α interval, rank interval, tie group, and δ against
        ``baseline`` with its interval, p and p corrected over the other models (nan on the baseline's row)."""
        base = self._index(baseline)
        others = [m for m in self.board.models if m != baseline]
        found = self._deltas(self.aggregate, self.resampled, [self._index(m) for m in others], [base] * len(others),
                             alpha)
        deltas = {m: tuple(float(x[k]) for x in found) for k, m in enumerate(others)}
        corrected = dict(zip(others, self._corrected(np.array([deltas[m][3] for m in others]), correction, [
            (self.aggregate, self.resampled, [self._index(m) for m in others], [base] * len(others))])))
        ranks, groups = self.rank_intervals(1 - alpha), self.groups(alpha, correction)
        arena = self.arena_ranks(alpha, correction)
        nothing = (np.nan,) * 4
        bounds = intervals.percentile(self.resampled, 1 - alpha, axis=0)  # every model's, at once
        rows = [{"model": m, "score": float(self.aggregate[self._index(m)]),
                 "ci_low": float(bounds[0][self._index(m)]), "ci_high": float(bounds[1][self._index(m)]),
                 "rank": arena[m], "rank_low": ranks[m][0], "rank_high": ranks[m][1], "group": groups[m],
                 "baseline": baseline,
                 **dict(zip(("delta", "delta_low", "delta_high", "p_value"), deltas.get(m, nothing))),
                 "p_corrected": corrected.get(m, np.nan)} for m in self.board.models]
        return pd.DataFrame(rows).sort_values("score", ascending=False, kind="stable").reset_index(drop=True)

    def task_table(self, baseline: str, alpha: float = DEFAULT_ALPHA, correction: str = "holm",
                   over: str = "family", tasks: tuple[str, ...] | None = None) -> pd.DataFrame:
        """Each task's δ against ``baseline`` for every other model (a ``per_task`` run), with its interval, p and
        p corrected over the whole family of tasks x models (``over="family"``) or within each task ("task").
        ``tasks``: which (default: every task; :meth:`unit_scores`' names: a group as one, its δ its score's)."""
        if over not in ("family", "task"):
            raise SettingsError(f"{PARAMETER} must be 'family' or 'task', not {over!r}", parameter="over")
        base = self._index(baseline)
        others = [m for m in self.board.models if m != baseline]
        tasks = self.board.tasks if tasks is None else tasks
        i = [self._index(m) for m in others]
        found = [self._deltas(*self._task_values(t), i, [base] * len(i), alpha) for t in tasks]
        rows = pd.DataFrame({"task": [t for t in tasks for _ in others], "model": others * len(tasks),
                             **{name: np.concatenate([f[k] for f in found]) if found else []
                                for k, name in enumerate(("delta", "delta_low", "delta_high", "p_value"))}})
        groups = [rows.index] if over == "family" else [rows.index[rows.task == t] for t in tasks]
        rows["p_corrected"] = np.nan
        parts = [(*self._task_values(t), i, [base] * len(i)) for t in tasks]
        for g, family in zip(groups, [parts] if over == "family" else [[part] for part in parts]):
            if len(g):
                rows.loc[g, "p_corrected"] = self._corrected(rows.loc[g, "p_value"].to_numpy(), correction, family)
        return rows

    def signature_fields(self, alpha: float, correction: str) -> Signature:
        """The board's settings and sizes as a signature, at the level and correction its tables are read at (they
        are chosen where the table is drawn, not when the board is resampled)."""
        b = self.board
        return Signature("board", "bootstrap-stratified", alternative="two-sided", alpha=alpha,
                         resamples=self.n_resamples, seed=self.seed, correction=correction, metric=b.metric,
                         aggregate=self.weight, models=len(b.models), tasks=len(b.tasks),
                         items=sum(len(i) for i in b.items.values()), clusters=b.cluster, versions=tool_versions())

    def signature(self, alpha: float, correction: str) -> str:
        """The board's signature string at ``alpha`` and ``correction`` (:meth:`signature_fields` written out)."""
        return self.signature_fields(alpha, correction).text

    def to_dict(self) -> dict:
        """A JSON-safe dict of what the board's tables and figures are drawn from (the ``board`` of a saved record of
        kind "board", :func:`sigcore.report.records.board`): the models, tasks and items,
        the task scores, the aggregate and its b resamples (not the per-item scores nor each task's resamples:
        :meth:`from_dict` gives a board whose figures and tables are this one's, not its per-task δ or variance)."""
        b = self.board
        return {"metric": b.metric, "models": list(b.models), "tasks": list(b.tasks),
                "items": {t: list(b.items[t]) for t in b.tasks}, "notes": list(b.notes),
                "groups": {g: {"tasks": list(ts), "weight": how} for g, (ts, how) in b.groups.items()},
                "cluster": b.cluster, "clusters": {t: c.tolist() for t, c in b.clusters.items()},
                "weight": self.weight, "n_resamples": self.n_resamples, "seed": self.seed,
                "task_scores": self.task_scores.tolist(), "aggregate": self.aggregate.tolist(),
                "resampled": self.resampled.tolist()}

    @classmethod
    def from_dict(cls, data: dict) -> Leaderboard:
        """The board :meth:`to_dict` wrote; a ValueError (or KeyError, TypeError) says what does not fit."""
        models, tasks = tuple(map(str, data["models"])), tuple(map(str, data["tasks"]))
        items = {t: tuple(map(str, data["items"][t])) for t in tasks}
        task_scores, aggregate, resampled = (np.asarray(data[k], dtype=np.float64)
                                             for k in ("task_scores", "aggregate", "resampled"))
        b = int(data["n_resamples"])
        shapes = {"task_scores": (task_scores.shape, (len(tasks), len(models))),
                  "aggregate": (aggregate.shape, (len(models),)), "resampled": (resampled.shape, (b, len(models)))}
        for key, (got, wanted) in shapes.items():
            if got != wanted:
                raise ValueError(f"{key} is {got}, not {wanted} ({len(tasks)} tasks, {len(models)} models, b = {b})")
        if not all(np.isfinite(a).all() for a in (task_scores, aggregate, resampled)) or len(set(models)) < len(models):
            raise ValueError("its scores are not all finite numbers, or a model is named twice")
        groups = {str(g): (tuple(map(str, v["tasks"])), str(v["weight"])) for g, v in data.get("groups", {}).items()}
        board = Board(models, tasks, str(data["metric"]), {}, items, tuple(map(str, data.get("notes", ()))), groups,
                      cluster=data.get("cluster"),
                      clusters={t: np.asarray(c, dtype=np.int64) for t, c in data.get("clusters", {}).items()})
        if data["weight"] not in WEIGHTS:
            raise ValueError(f"weight is {data['weight']!r}, not one of {', '.join(WEIGHTS)}")
        return cls(board, data["weight"], b, int(data["seed"]), task_scores, aggregate, resampled)

    def _index(self, model: str) -> int:
        if model not in self.board.models:
            raise SettingsError(f"no model {named(model)}", hint=f"The models: {listed(list(self.board.models))}.")
        return self.board.models.index(model)
