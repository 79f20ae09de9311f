"""lm-evaluation-harness output folders (``lm_eval --output_path OUT --log_samples``): per model a folder with
``results_<date>.json`` and, for each task it ran, ``samples_<task>_<date>.jsonl`` of the same date.

The model is the results file's ``model_name``; each task's documents come from its samples file, checked against
the score the results file reports (their mean must be it) and the number of documents it counts (``n-samples``).
A group (MMLU and its subtasks) is kept as its subtasks, with how lm-eval averaged them: over their items
(``weight_by_size``, MMLU's way) or over the subtasks, read off the group's reported score, not assumed.
``repeats`` are not runs here: lm-eval scores each document once, after its filter (``maj@k``, ``take_first``),
and that score is what is compared (said in a note).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import numpy as np
import pandas as pd

from ..errors import InputError
from ..io import jsonlimits
from ..io.archives import gunzip
from ..io.decoding import read_bytes
from ..io.inputs import read as read_input

__all__ = ["GROUP_WEIGHTS", "results_files", "is_folder", "read", "is_results", "read_files"]

GROUP_WEIGHTS = ("items", "tasks")  # a group's mean over its subtasks' items (weight_by_size), or over subtasks


def results_files(path: str | Path) -> list[Path]:
    """The results files of an output folder: in it, or one folder down (one folder per model)."""
    path = Path(path)
    if not path.is_dir():
        return []
    return sorted([*path.glob("results_*.json"), *path.glob("*/results_*.json")])


def is_folder(path: str | Path) -> bool:
    return bool(results_files(path))


def read(path: str | Path) -> pd.DataFrame:
    """Every model's scores of an output folder on disk, as :func:`read_files` gives them."""
    path = Path(path)
    files = results_files(path)
    if not files:
        raise InputError("holds no results_*.json", file=str(path),
                         hint="Give the folder lm_eval --output_path wrote (one folder per model).")
    found = {str(f.relative_to(path).as_posix()): f for folder in {r.parent for r in files}
             for f in folder.iterdir() if f.name.startswith(("results_", "samples_"))}
    return read_files({name: read_bytes(f) for name, f in found.items()}, where=str(path))


def is_results(name: str) -> bool:
    return PurePosixPath(name).name.startswith("results_") and name.endswith(".json")


def read_files(files: dict[str, bytes], where: str = "") -> pd.DataFrame:
    """Every model's scores of an output folder's files (a path within the folder -> its bytes; an upload's zip) as
    the tidy table (:mod:`sigcore.logs.tidy`), with a ``group`` column (the top-level group a task belongs to, or
    "") and ``group_weight`` (:data:`GROUP_WEIGHTS`). ``attrs["notes"]`` says what was read so."""
    from .long import lm_eval_samples

    frames, notes, groups = [], {}, {}
    for name in sorted(n for n in files if is_results(n)):
        shown_name = str(PurePosixPath(where) / name) if where else name
        model, reported, subtasks, configs, counted, groups_said = _results(files[name], shown_name)
        nested = {t for s in subtasks.values() for t in s}
        top = {g: _leaves(g, subtasks, shown_name) for g in subtasks if g not in nested}
        group_of = {leaf: g for g, leaves in top.items() for leaf in leaves}
        for task in [t for t in reported if t not in subtasks]:
            samples = _samples_file(files, name, task, shown_name)
            table = read_input(gunzip(files[samples], samples), name=samples)
            frame = lm_eval_samples(table.frame, model, task)
            notes.update({note: note for note in table.notes})  # (values outside a proportion's 0..1)
            shown_samples = str(PurePosixPath(where) / samples) if where else samples
            _check_count(frame, counted.get(task), task, shown_samples)
            _check(frame, reported[task], task, shown_samples)
            frame["group"] = group_of.get(task, "")
            frames.append(frame)
            if configs.get(task, {}).get("repeats", 1) > 1:  # (checked: a whole number)
                notes[f"repeats {task}"] = (f"{task}: lm-eval ran each document {configs[task]['repeats']} times "
                                            f"(repeats) and scored it once, after its filter; that score is "
                                            f"compared")
        for g, leaves in top.items():
            groups.setdefault(g, []).append((model, leaves, groups_said.get(g, reported.get(g, {})), shown_name))
    if not frames:
        raise InputError("holds no results_*.json with tasks", file=where or None,
                         hint="Give the folder lm_eval --output_path wrote (one folder per model).")
    out = pd.concat(frames, ignore_index=True)
    weights = {g: _group_weight(g, seen, out) for g, seen in groups.items()}
    out["group_weight"] = out["group"].map({"": "", **weights})  # a task in no group: "" (not NaN, a float)
    for g, w in weights.items():
        notes[f"group {g}"] = (f"{g}: the mean of its tasks' {'items (weighted by size)' if w == 'items' else 'scores'}"
                               f" ({', '.join(groups[g][0][1])}), as lm-eval reports it")
    out.attrs["notes"] = list(notes.values())
    return out


def _results(data: bytes, name: str):
    """What a results file says, each field of the kind lm-eval writes (an InputError naming the field otherwise):
    the model, each task's reported scores, each group's subtasks, each task's configuration, its counts of
    documents (``n-samples``) and each group's reported scores."""
    fix = "Give the results_<date>.json lm_eval wrote."
    head = jsonlimits.loads(data, name, hint=fix)

    def field(value, kinds: str, path: str):
        return jsonlimits.expect(value, kinds, path, name, hint=fix)

    field(head, "object", "(the whole of it)")
    model = field(head.get("model_name"), "text", "model_name")
    reported = field(head.get("results"), "object", "results")
    for task, said in reported.items():
        field(said, "object", f"results.{task}")
    subtasks = {}  # 0.4.2-0.4.9 list a task with no subtasks as task -> []
    for group, tasks in (field(head.get("group_subtasks"), "object null", "group_subtasks") or {}).items():
        for k, task in enumerate(field(tasks, "list", f"group_subtasks.{group}")):
            field(task, "text", f"group_subtasks.{group}[{k}]")
        if tasks:
            subtasks[group] = list(tasks)
    configs = field(head.get("configs"), "object null", "configs") or {}
    for task, config in configs.items():
        field(field(config, "object", f"configs.{task}").get("repeats", 1), "integer", f"configs.{task}.repeats")
    counted = field(head.get("n-samples"), "object null", "n-samples") or {}
    groups = field(head.get("groups"), "object null", "groups") or {}
    for group, said in groups.items():
        field(said, "object", f"groups.{group}")
    return model, reported, subtasks, configs, counted, groups


def _samples_file(files: dict[str, bytes], results: str, task: str, shown_name: str) -> str:
    path = PurePosixPath(results)
    date = path.stem.removeprefix("results_")
    for suffix in (".jsonl", ".jsonl.gz"):
        candidate = str(path.with_name(f"samples_{task}_{date}{suffix}"))
        if candidate in files:
            return candidate
    raise InputError(f"lists task {task!r} but its samples file samples_{task}_{date}.jsonl is not beside it",
                     file=shown_name, hint="Run lm_eval with --log_samples, and keep each run's files together.")


def _leaves(group: str, subtasks: dict[str, list[str]], name: str, within: tuple[str, ...] = ()) -> list[str]:
    if group in within:  # a group among its own subtasks: no file lm-eval writes
        raise InputError(f"group {group!r} is among its own subtasks (group_subtasks: {' -> '.join(within)} -> "
                         f"{group})", file=name, hint="Give the results_<date>.json lm_eval wrote.")
    return [leaf for t in subtasks[group]
            for leaf in (_leaves(t, subtasks, name, (*within, group)) if t in subtasks else [t])]


def _check_count(frame: pd.DataFrame, counted: object, task: str, samples: str) -> None:
    """The samples file holds every document lm-eval scored (``n-samples``' ``effective``, after ``--limit``): a file
    trimmed for sharing can average to the reported score by chance (a task all wrong), and still not be the run."""
    effective = counted.get("effective") if isinstance(counted, dict) else None
    if not isinstance(effective, int) or isinstance(effective, bool):
        return
    documents = frame["item"].nunique()
    if documents != effective:
        raise InputError(f"task {task}'s samples file holds {documents} documents, but lm-eval scored {effective} "
                         f"(n-samples in the results file)", file=samples,
                         hint="Give the samples file as lm_eval --log_samples wrote it, every document in it "
                              "(not one trimmed for sharing), beside the results file of the same run.")


def _check(frame: pd.DataFrame, reported: dict, task: str, samples: Path) -> None:
    """Each metric's mean over the documents must be the score lm-eval reports for the task."""
    metrics = pd.unique(frame["metric"])
    for metric in metrics:  # a mask per metric, not a groupby: a file has one or a few, and there are hundreds
        scores = frame["score"] if len(metrics) == 1 else frame["score"][frame["metric"] == metric]
        name, _, filt = metric.partition("[")
        key = f"{name},{filt.rstrip(']') or _only_filter(reported, name)}"
        if key in reported and jsonlimits.finite(reported[key]) \
                and not np.isclose(scores.mean(), reported[key], rtol=1e-9, atol=1e-12):
            raise InputError(f"task {task}'s {metric} averages {scores.mean():.6g} over its documents, but lm-eval "
                             f"reports {reported[key]:.6g}", file=str(samples),
                             hint="A metric lm-eval does not average per document (BLEU, F1 over the corpus) is not "
                                  "a per-document score; or the samples file is from another run.")


def _only_filter(reported: dict, metric: str) -> str:
    filters = [k.split(",", 1)[1] for k in reported if k.startswith(f"{metric},") and "_stderr" not in k]
    return filters[0] if len(filters) == 1 else "none"


def _group_weight(group: str, seen: list, frame: pd.DataFrame) -> str:
    """How lm-eval averaged ``group``'s subtasks: the weighting that gives the score it reports for every model."""
    fits = set(GROUP_WEIGHTS)
    for model, leaves, reported, results in seen:
        part = frame[(frame.model == model) & frame.task.isin(leaves)]
        for metric, rows in part.groupby("metric", sort=False):
            name, _, filt = metric.partition("[")
            value = reported.get(f"{name},{filt.rstrip(']') or 'none'}")
            if not jsonlimits.finite(value):
                continue
            means = rows.groupby("task", sort=False).score.mean()
            candidates = {"items": rows.score.mean(), "tasks": means.mean()}
            fits &= {w for w, v in candidates.items() if np.isclose(v, value, rtol=1e-9, atol=1e-12)}
            if not fits:
                raise InputError(f"group {group!r}'s score is neither the mean of its tasks' items nor of their "
                                 "scores", file=results, hint="sigcore reads groups lm-eval averages over items "
                                                              "(weight_by_size) or over tasks.")
    return "items" if "items" in fits else "tasks"  # both fit: equal sizes, the same number
