"""HELM's run folders (Stanford CRFM's ``helm-run``, crfm-helm 0.5.x): ``benchmark_output/runs/SUITE/RUN/`` with
``run_spec.json``, ``per_instance_stats.json``, ``stats.json`` and ``scenario_state.json``; HELM is not needed.

A run is one model on one scenario, named by its run spec (``mmlu:subject=anatomy,method=multiple_choice_joint,
model=openai_gpt2``). The model is the run spec's ``adapter_spec.model``; the task is the run spec's name without
its ``model=`` and ``model_deployment=`` arguments, so two models' runs of a scenario are one task. Each entry of
``per_instance_stats.json`` is an instance (``instance_id``) in one train trial (``train_trial_index``: HELM's
replications with other in-context examples, read as runs 1, 2, …) with its stats; a stat's value is its
``sum / count`` (a stat with no value is left out). The test split is compared (HELM's leaderboards report it),
or, in a run without one (HellaSwag's), the valid split, as HELM reports it; another split's stats are left out,
said in a note. An instance HELM perturbed (``data_augmentation=…``) is its
own metric, ``exact_match[extra_space,num_spaces=2]``, paired with the original by its instance id. Where a run has
robustness (or fairness) perturbations, HELM's worst case over them is a metric too, ``exact_match[robustness worst]``:
each instance's (and trial's) lowest value over its original and its robustness perturbations, as HELM's
``compute_worst_case_metrics`` takes it (the minimum, for every stat, as HELM does). Each metric's mean over its
instances and trials is checked against the one ``stats.json`` reports for the split compared.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, SettingsError
from ..io import jsonlimits
from ..io.decoding import read_bytes

__all__ = ["FILES", "WORST", "run_folders", "is_folder", "is_run_file", "read", "read_files", "aligned"]

FILES = ("run_spec.json", "per_instance_stats.json", "stats.json")  # what a run folder is read from
_FIX = "Give HELM's run folders as helm-run wrote them (benchmark_output/runs/SUITE/RUN), unchanged."
_MODEL_ARGS = ("model=", "model_deployment=")  # a run name's arguments that name the model, not the task
_DESCRIPTION = ("name", "robustness", "fairness", "computed_on")  # a perturbation's fields that do not name it
WORST = ("robustness", "fairness")  # HELM's worst cases over a kind of perturbation, its leaderboards' columns


def run_folders(path: str | Path) -> list[Path]:
    """The run folders at or under ``path``: it, its runs, a suite's or a benchmark_output folder's."""
    path = Path(path)
    if not path.is_dir():
        return []
    if (path / "per_instance_stats.json").is_file():
        return [path]
    found = [*path.glob("*/per_instance_stats.json"), *path.glob("*/*/per_instance_stats.json"),
             *path.glob("runs/*/*/per_instance_stats.json")]
    return sorted({f.parent for f in found})


def is_folder(path: str | Path) -> bool:
    return bool(run_folders(path))


def is_run_file(name: str) -> bool:
    return PurePosixPath(name).name in FILES


def read(path: str | Path) -> pd.DataFrame:
    """Every run's scores under a folder on disk, as :func:`read_files` gives them."""
    path = Path(path)
    runs = run_folders(path)
    if not runs:
        raise InputError("holds no HELM run (no per_instance_stats.json)", file=str(path), hint=_FIX)
    files = {str(f.relative_to(path).as_posix()) if f.parent != path else f.name: read_bytes(f)
             for run in runs for f in (run / name for name in FILES) if f.is_file()}
    return read_files(files, where=str(path))


def read_files(files: dict[str, bytes], where: str = "") -> pd.DataFrame:
    """Every run's scores (a path within the folder -> its bytes; an upload's zip) as the tidy table
    (:mod:`sigcore.logs.tidy`); ``attrs["notes"]`` says what was left out."""
    from .long import COLUMNS

    folders = sorted({PurePosixPath(n).parent for n in files if PurePosixPath(n).name == "per_instance_stats.json"})
    frames, notes = [], {}
    for folder in folders:
        def shown(name: str, folder=folder) -> str:
            return str(PurePosixPath(where) / folder / name) if where else str(folder / name)

        spec_name = str(folder / "run_spec.json")
        if spec_name not in files:
            raise InputError("has no run_spec.json beside it", file=shown("per_instance_stats.json"),
                             hint="Keep each run folder whole: its run_spec.json names the model and the scenario.")
        model, task = _model_and_task(_json(files[spec_name], shown("run_spec.json")), shown("run_spec.json"))
        entries = _json(files[str(folder / "per_instance_stats.json")], shown("per_instance_stats.json"))
        frame, kept, left = _scores(entries, shown("per_instance_stats.json"))
        for split, count in left.items():
            notes[f"split {split} {task}"] = f"{task}: HELM's {split} split ({count:,} instance" \
                                             f"{'s' if count != 1 else ''}) left out; the {kept} split compared"
        if kept != "test":  # HellaSwag's runs, for one: HELM reports the split it has
            notes[f"kept {kept} {task}"] = f"{task}: HELM's {kept} split compared (the run has no test split; " \
                                           "HELM reports this one)"
        stats = files.get(str(folder / "stats.json"))
        if stats is not None:
            _check(frame, _json(stats, shown("stats.json")), shown("stats.json"), kept)
        frames.append(frame.assign(model=model, task=task))
    if not frames:
        raise InputError("holds no HELM run (no per_instance_stats.json)", file=where or None, hint=_FIX)
    out = pd.concat(frames, ignore_index=True)[list(COLUMNS)]
    out.attrs["notes"] = list(notes.values())
    return out


def _json(data: bytes, name: str) -> Any:
    return jsonlimits.loads(data, name, hint=_FIX)


def _model_and_task(spec: Any, name: str) -> tuple[str, str]:
    def field(value: Any, kinds: str, path: str) -> Any:
        return jsonlimits.expect(value, kinds, path, name, hint=_FIX)

    field(spec, "object", "(the whole of it)")
    adapter = field(spec.get("adapter_spec"), "object", "adapter_spec")
    model = field(adapter.get("model"), "text null", "adapter_spec.model") \
        or field(adapter.get("model_deployment"), "text", "adapter_spec.model_deployment")
    scenario, _, args = field(spec.get("name"), "text", "name").partition(":")
    kept = [a for a in args.split(",") if a and not a.startswith(_MODEL_ARGS)]
    return model, ":".join([scenario, ",".join(kept)]) if kept else scenario


def _scores(entries: Any, name: str) -> tuple[pd.DataFrame, str, dict[str, int]]:
    """The long rows (item, run, metric, score) of the test split (or, where there is none, of the valid split, or
    the first other), that split, and how many instances each other split had."""
    if not isinstance(entries, list):
        raise InputError("is not HELM's per-instance stats (a list of instances)", file=name, hint=_FIX)
    items, runs, metrics, scores, splits = [], [], [], [], {}
    lowest: dict[tuple, list[tuple[Any, float]]] = {}  # (split, stat, item, trial) -> (perturbation, min) each
    for i, entry in enumerate(entries):
        def field(value: Any, kinds: str, path: str, i=i) -> Any:
            return jsonlimits.expect(value, kinds, path, name, f"instance {i + 1}: ", hint=_FIX)

        field(entry, "object", "(the whole of it)")
        item = str(field(entry.get("instance_id"), "text integer", "instance_id"))
        run = field(entry.get("train_trial_index"), "integer", "train_trial_index") + 1
        perturbation = field(entry.get("perturbation"), "object null", "perturbation") or None
        if perturbation is not None:
            field(perturbation.get("name"), "text", "perturbation.name")
        suffix = _perturbation(perturbation)
        for k, stat in enumerate(field(entry.get("stats"), "list", "stats")):
            at = f"stats[{k}]"
            field(stat, "object", at)
            count = field(stat.get("count"), "number", f"{at}.count")
            if not count:
                continue
            key = field(stat.get("name"), "object", f"{at}.name")
            split = field(key.get("split"), "text null", f"{at}.name.split") or "test"
            stat_name = field(key.get("name"), "text", f"{at}.name.name")
            total = field(stat.get("sum"), "number", f"{at}.sum")
            with np.errstate(all="ignore"):
                mean = float(total) / count if jsonlimits.finite(total) else np.inf
            least = field(stat.get("min", mean), "number", f"{at}.min")
            if not np.isfinite(mean) or not jsonlimits.finite(least):
                raise InputError(f"instance {i + 1}: {at} ({stat_name}) is not a finite number", file=name, hint=_FIX)
            splits.setdefault(split, set()).add(item)
            items.append(item)
            runs.append(run)
            metrics.append((split, stat_name + suffix))
            scores.append(mean)
            lowest.setdefault((split, stat_name, item, run), []).append((perturbation, float(least)))
    for (split, _, item, run), metric, score in _worst(lowest):
        items.append(item)
        runs.append(run)
        metrics.append((split, metric))
        scores.append(score)
    kept = next((s for s in ("test", "valid") if s in splits), min(splits, default="test"))
    keep = np.array([s == kept for s, _ in metrics], dtype=bool)
    frame = pd.DataFrame({"item": np.array(items, dtype=object)[keep], "run": np.array(runs, np.int64)[keep],
                          "metric": np.array([m for _, m in metrics], dtype=object)[keep],
                          "score": np.array(scores, np.float64)[keep]})
    return frame, kept, {s: len(found) for s, found in splits.items() if s != kept}


def _worst(lowest: dict[tuple, list[tuple[Any, float]]]):
    """HELM's worst case over each kind of perturbation the run has (``compute_worst_case_metrics``): per instance
    and trial, the lowest value over its original and its perturbations of that kind; a kind the run lacks is left
    out (HELM's worst case there is the original, already a metric)."""
    kinds = [k for k in WORST if any(p and p.get(k) for found in lowest.values() for p, _ in found)]
    for (split, stat, item, run), found in lowest.items():
        for kind in kinds:
            values = [v for p, v in found if p is None or p.get(kind)]
            if values:
                yield (split, stat, item, run), f"{stat}[{kind} worst]", min(values)


def _perturbation(description: Any) -> str:
    """``[extra_space,num_spaces=2]`` for a perturbed instance, ``""`` for an original."""
    if not description:
        return ""
    if description.get("computed_on") == "worst":
        return f"[{description['name']} worst]"
    args = [f"{k}={v}" for k, v in description.items() if k not in _DESCRIPTION]
    return f"[{','.join([str(description['name']), *args])}]"


def _check(frame: pd.DataFrame, stats: Any, name: str, split: str) -> None:
    """Each metric's mean over its instances and trials must be the one HELM reports for ``split``."""
    def field(value: Any, kinds: str, path: str) -> Any:
        return jsonlimits.expect(value, kinds, path, name, hint=_FIX)

    reported = {}
    for k, stat in enumerate(field(stats, "list", "(the whole of it)")):
        field(stat, "object", f"[{k}]")
        key = field(stat.get("name"), "object", f"[{k}].name")
        perturbed = field(key.get("perturbation"), "object null", f"[{k}].name.perturbation") or {}
        computed = field(perturbed.get("computed_on", "perturbed"), "text", f"[{k}].name.perturbation.computed_on")
        read = computed == "perturbed" or perturbed.get("name") in WORST and computed == "worst"  # not the
        # originals' means, nor one perturbation's worst
        if read and (field(key.get("split"), "text null", f"[{k}].name.split") or "test") == split \
                and jsonlimits.finite(stat.get("mean")):
            stat_name = field(key.get("name"), "text", f"[{k}].name.name")
            if perturbed:
                field(perturbed.get("name"), "text", f"[{k}].name.perturbation.name")
            reported[stat_name + _perturbation(perturbed)] = float(stat["mean"])
    for metric, scores in frame.groupby("metric", sort=False).score:
        value = reported.get(metric)
        if value is not None and not np.isclose(scores.mean(), value, rtol=1e-9, atol=1e-12):
            raise InputError(f"{metric} averages {scores.mean():.6g} over its instances, but HELM reports {value:.6g}",
                             file=name, hint="The run folder's files are from different runs, or were edited: give "
                                             "the folder as helm-run wrote it.")


def aligned(path_a: str | Path, path_b: str | Path, metric: str | None, *, on_unmatched: str = "stop"):
    """Two HELM runs of one scenario (each a run folder) as :func:`sigcore.io.align.Aligned` for ``compare``: each
    instance's ``metric`` (a stat of its per-instance stats, its trials averaged), paired by instance id."""
    from ..io.aligned import Aligned
    from ..io.roles import Role

    runs = [read(p) for p in (path_a, path_b)]
    for path, run in zip((path_a, path_b), runs):
        if run.model.nunique() != 1 or run.task.nunique() != 1:
            raise InputError("holds several runs: give one run folder per model", file=str(path),
                             hint="For many runs at once: sigcore many benchmark_output --metric exact_match.")
    tasks = [str(r.task.iloc[0]) for r in runs]
    if tasks[0] != tasks[1]:
        raise InputError(f"is a run of {tasks[1]!r}, {path_a} of {tasks[0]!r}", file=str(path_b),
                         hint="Compare two models' runs of the same scenario and settings.")
    stats = [list(dict.fromkeys(r.metric)) for r in runs]
    if metric is None or metric not in stats[0] or metric not in stats[1]:
        shared = [m for m in stats[0] if m in stats[1]]
        raise SettingsError(f"say which of the runs' {len(shared)} per-instance stats to compare with --metric"
                            if metric is None else f"the runs have no per-instance stat {metric!r}",
                            hint=f"Their stats: {', '.join(shared[:12])}"
                                 f"{f', and {len(shared) - 12} more' if len(shared) > 12 else ''}.")
    means = [r[r.metric == metric].groupby("item", sort=False).score.mean() for r in runs]
    ids = [i for i in means[0].index if i in means[1].index]
    lacking = [(k, [i for i in m.index if i not in means[1 - k].index]) for k, m in enumerate(means)]
    for k, missing in lacking:
        if missing and on_unmatched != "drop":
            raise InputError(f"has instance {missing[0]!r}, which {(path_b, path_a)[k]} lacks "
                             f"({len(missing)} such)", file=str((path_a, path_b)[k]),
                             hint="Compare runs of the same instances, or drop the unmatched ones "
                                  "(--drop-unmatched).")
    a, b = (m.loc[ids].tolist() for m in means)
    models = tuple(str(r.model.iloc[0]) for r in runs)
    roles = (Role("A", f"{models[0]} ({path_a})"), Role("B", f"{models[1]} ({path_b})"),
             Role("pairing", "by instance_id", f"{len(ids):,} instances of {tasks[0]}"))
    notes = tuple(f"{name}: {len(missing)} instances not in the other run, dropped"
                  for name, (_, missing) in zip((path_a, path_b), lacking) if missing)
    return Aligned(None, a, b, str(path_a), str(path_b), ids=ids, scores={metric: (a, b)}, roles=roles,
                   notes=notes, labels=models if models[0] != models[1] else None)
