"""Models on many tasks at leaderboard scale, side by side in one run: python bench/leaderboard.py   (about 1 minute)

50 models x 60 tasks x 2,000 items x 3 runs (18 million scores, right/wrong, items of differing difficulty) in a
Parquet file written first. Each side, in a fresh process, from the file to the whole analysis the issue asks for,
with b = 1,000 paired bootstrap resamples stratified by task: each task's paired bootstrap test of every model
against the first (δ, its interval, the two-sided p), every model's aggregate over tasks (the mean of task scores)
with its interval, and its rank interval:

- sigcore: ``leaderboard.bootstrap(leaderboard.from_table(tidy.read_table(F)), n_resamples=1000, per_task=True)``,
  then its ``table`` and ``task_table`` against the first model (with tie groups and corrected p as well);
- the loop a user would write: pandas' groupby mean per (task, item, model), then for each task (its own stream
  of ``SeedSequence(0)``, as numpy advises for parallel work) and each resample, items drawn with
  ``rng.integers(0, n, n)`` and each model's task mean kept (numpy inside, Python around it); the tests, intervals
  and ranks from those, vectorised.

It prints wall time and peak memory (the process's own high-water mark, VmHWM: ru_maxrss would count the parent's
peak, which a child started by vfork inherits) of each and their ratio; it asserts that both sides give the same
aggregates, the same b resamples of them (sigcore draws the same integers from the same streams and counts them:
equal but for the order of a sum's terms, a last bit) and the same per-task p-values, and prints on how many models
their rank intervals agree (a tie on a resample may be broken by a last bit), three models' 95% intervals from each
and whether sigcore gives the same numbers twice for the same seed. --models/--tasks/--items/--runs scale it down
(--models 10 --tasks 10 --items 500 for a quick look); --repeat N runs the two sides N times in turn and prints each
side's median and the median of the N ratios (this shared machine's speed moves by a factor of 2 within minutes).

``--folders``: the same from lm-eval output folders (a results_<date>.json and a samples_<task>_<date>.jsonl per
model and task, by default 20 models x 20 tasks x 1,000 items): sigcore's ``tidy.from_logs`` (each task checked
against its reported score) against ``json.loads`` line by line into pandas, then the same loop.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
# each side's peak resident memory: its own address space's high-water mark (Linux), not ru_maxrss, which a child
# started by vfork inherits from its parent (the parent's 1.5 GB after writing the table)
PEAK = """
def peak_mb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024
"""

SIGCORE = """
import json, sys, time
{peak}sys.path.insert(0, {root!r})
import numpy as np, pandas as pd
from sigcore import leaderboard
from sigcore.logs import tidy
start = time.perf_counter()
board = leaderboard.from_table(tidy.read_table({path!r}))  # as `sigcore many F` reads it
res = leaderboard.bootstrap(board, n_resamples={b}, seed=0, per_task=True)
table = res.table(board.models[0])  # aggregates, intervals, rank intervals, tie groups, δ against the baseline
tasks = res.task_table(board.models[0])  # each task's δ against the baseline, its interval, p and p corrected
seconds = time.perf_counter() - start
again = leaderboard.bootstrap(board, n_resamples={b}, seed=0)
ranks = res.rank_intervals()
print(json.dumps({{"seconds": seconds, "peak_mb": peak_mb(),
                  "models": list(board.models), "aggregate": res.aggregate.tolist(),
                  "resampled": res.resampled.tolist(), "task_p": tasks.p_value.tolist(),
                  "ranks": [list(ranks[m]) for m in board.models],
                  "intervals": [res.interval(m) for m in board.models[:3]],
                  "same_seed_same_numbers": bool(np.array_equal(res.resampled, again.resampled))}}))
"""

# the loop: the whole analysis as numpy gives it, vectorised where numpy makes that natural (the tests and ranks),
# a Python loop over tasks and resamples where it does not (the draws)
LOOP = """
import json, time
{peak}import numpy as np, pandas as pd
start = time.perf_counter()
frame = pd.read_parquet({path!r})
means = frame.groupby(["task", "item", "model"], observed=True)["score"].mean().unstack("model")
models = list(pd.unique(frame["model"]))
means = means[models]
tasks = list(pd.unique(frame["task"]))
matrices = [means.loc[t].to_numpy() for t in tasks]
streams = np.random.SeedSequence(0).spawn(len(tasks))  # a stream per task, as numpy advises for parallel work
b = {b}
per_task = np.empty((b, len(tasks), len(models)))
for t, (m, stream) in enumerate(zip(matrices, streams)):
    rng = np.random.default_rng(stream)
    for i in range(b):
        per_task[i, t] = m[rng.integers(0, len(m), len(m))].mean(axis=0)
aggregate = per_task.mean(axis=1)
point = np.array([m.mean(axis=0) for m in matrices])  # (tasks, models)
intervals = np.quantile(aggregate, [0.025, 0.975], axis=0)
d = point[:, 1:] - point[:, :1]  # each task, each model against the first: the paired bootstrap's two-sided p
resampled_d = per_task[:, :, 1:] - per_task[:, :, :1]
p = (np.abs(resampled_d - d) >= np.abs(d) - 1e-9 * np.maximum(1, np.abs(d))).mean(axis=0)  # ties count
low, high = 2 * d - np.quantile(resampled_d, [0.975, 0.025], axis=0)  # basic interval
order = np.argsort(-aggregate, axis=1, kind="stable")  # ranks on each resample, 1 the best
ranks = np.empty_like(order)
np.put_along_axis(ranks, order, np.arange(1, len(models) + 1)[None, :], axis=1)
rank_low, rank_high = np.quantile(ranks, [0.025, 0.975], axis=0)
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "peak_mb": peak_mb(),
                  "models": [str(m) for m in models], "aggregate": point.mean(axis=0).tolist(),
                  "resampled": aggregate.tolist(), "task_p": p.ravel().tolist(),
                  "ranks": [[int(np.floor(lo)), int(np.ceil(hi))] for lo, hi in zip(rank_low, rank_high)],
                  "intervals": [list(intervals[:, k]) for k in range(3)]}}))
"""


def write(path: Path, models: int, tasks: int, items: int, runs: int) -> int:
    rng = np.random.default_rng(0)
    rows = models * tasks * items * runs
    task = np.tile(np.repeat(np.arange(tasks), items * runs), models)
    item = np.tile(np.repeat(np.arange(items), runs), models * tasks)
    skill = np.repeat(rng.uniform(0.4, 0.8, models), tasks * items * runs)
    hard = rng.uniform(-0.2, 0.2, tasks * items)[task * items + item]
    frame = pd.DataFrame({
        "model": pd.Categorical.from_codes(np.repeat(np.arange(models), tasks * items * runs),
                                           [f"model-{m:02d}" for m in range(models)]),
        "task": pd.Categorical.from_codes(task, [f"task-{t:02d}" for t in range(tasks)]),
        "item": pd.Categorical.from_codes(item, [str(i) for i in range(items)]),
        "run": np.tile(np.arange(1, runs + 1), models * tasks * items), "metric": "acc",
        "score": (rng.random(rows) < np.clip(skill + hard, 0, 1)).astype(np.float64)})
    frame.to_parquet(path, index=False)
    return rows


FOLDERS_SIGCORE = SIGCORE.replace("leaderboard.from_table(tidy.read_table({path!r}))  # as `sigcore many F` reads it",
                                   "leaderboard.from_table(tidy.from_logs([{path!r}]), metric='acc')")

FOLDERS_LOOP = """
import json, time
{peak}from pathlib import Path
import numpy as np, pandas as pd
start = time.perf_counter()
rows = []
for folder in sorted(Path({path!r}).iterdir()):
    model = json.loads(next(folder.glob("results_*.json")).read_text())["model_name"]
    for samples in sorted(folder.glob("samples_*.jsonl")):
        task = samples.name[len("samples_"):].rsplit("_", 1)[0]
        for line in samples.read_text().splitlines():
            doc = json.loads(line)
            rows.append((model, task, doc["doc_id"], doc["acc"]))
frame = pd.DataFrame(rows, columns=["model", "task", "item", "score"])
""" + LOOP.split("frame = pd.read_parquet({path!r})")[1].split("start = time.perf_counter()")[-1]


def write_folders(path: Path, models: int, tasks: int, items: int) -> int:
    """The same kind of data as lm-eval writes it (--output_path --log_samples): a folder per model with its
    results_<date>.json and a samples_<task>_<date>.jsonl per task, one line per document (runs: lm-eval scores a
    document once)."""
    rng = np.random.default_rng(0)
    date = "2026-12-03T00-00-00.000000"
    hard = rng.uniform(-0.2, 0.2, (tasks, items))
    for m in range(models):
        skill, folder = rng.uniform(0.4, 0.8), path / f"model-{m:02d}"
        folder.mkdir(parents=True)
        results = {}
        for t in range(tasks):
            right = (rng.random(items) < np.clip(skill + hard[t], 0, 1)).astype(float)
            name = f"task-{t:02d}"
            results[name] = {"alias": name, "sample_len": items, "acc,none": float(right.mean())}
            lines = (json.dumps({"doc_id": i, "doc": {"id": f"{name}-{i}"}, "target": "0", "resps": [[["0.0",
                                 "False"]]], "filtered_resps": [["0.0", "False"]], "filter": "none",
                                 "metrics": ["acc"], "doc_hash": f"{t}-{i}", "acc": float(right[i])})
                     for i in range(items))
            (folder / f"samples_{name}_{date}.jsonl").write_text("\n".join(lines) + "\n")
        (folder / f"results_{date}.json").write_text(json.dumps({"results": results, "model_name": f"model-{m:02d}",
                                                                 "configs": {}, "group_subtasks": {}}))
    return models * tasks * items


def side(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("models", 50), ("tasks", 60), ("items", 2000), ("runs", 3), ("resamples", 1000)):
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--repeat", type=int, default=1, help="run both sides this many times, in turn; medians")
    parser.add_argument("--folders", action="store_true",
                        help="from lm-eval output folders instead (default scale 20 models x 20 tasks x 1,000 items: "
                             "JSON lines are 300 bytes a score)")
    args = parser.parse_args()
    if args.folders:
        return folders(args)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "scores.parquet")
        rows = write(Path(path), args.models, args.tasks, args.items, args.runs)
        runs = turns(SIGCORE.format(root=str(ROOT), path=path, b=args.resamples, peak=PEAK),
                     LOOP.format(path=path, b=args.resamples, peak=PEAK), args.repeat)
    print(f"{args.models} models x {args.tasks} tasks x {args.items:,} items x {args.runs} runs = {rows:,} scores, "
          f"b = {args.resamples:,}, from Parquet to the whole analysis: each task's test of every model against the "
          f"first, the aggregate with its interval, ranks with theirs")
    report(runs)


def turns(ours: str, loop: str, repeat: int) -> list[tuple[dict, dict]]:
    """Each side ``repeat`` times, in turn (sigcore, loop, sigcore, ...), so that both meet the machine's moods."""
    return [(side(ours), side(loop)) for _ in range(repeat)]


def report(runs: list[tuple[dict, dict]]) -> None:
    med = np.median
    each = "" if len(runs) == 1 else f" (median of {len(runs)} runs in turn; each run's seconds: "
    print(f"{'side':<28}{'seconds':>9}{'peak MB':>10}")
    for k, name in enumerate(("sigcore.leaderboard", "pandas + numpy loop")):
        seconds = [r[k]["seconds"] for r in runs]
        print(f"{name:<28}{med(seconds):>9.1f}{med([r[k]['peak_mb'] for r in runs]):>10.0f}"
              + (each + ", ".join(f"{x:.1f}" for x in seconds) + ")" if each else ""))
    ratios = [loop["seconds"] / ours["seconds"] for ours, loop in runs]
    print(f"ratio (loop / sigcore): {med(ratios):.1f}x in time"
          + (f" (median of the {len(runs)} runs' ratios, {min(ratios):.1f}x to {max(ratios):.1f}x)" if each else "")
          + f", {med([lp['peak_mb'] / o['peak_mb'] for o, lp in runs]):.2f}x in memory")
    ours, loop = runs[0]
    assert ours["models"] == loop["models"]
    # the same items drawn on both sides (task t's stream, integers(0, n, n) per resample): the same numbers, but
    # for the order of a sum's terms (a last bit)
    apart = float(np.abs(np.subtract(ours["resampled"], loop["resampled"])).max())
    assert np.allclose(ours["aggregate"], loop["aggregate"], rtol=0, atol=1e-12) and apart < 1e-12, apart
    assert ours["task_p"] == loop["task_p"]
    same_ranks = sum(a == b for a, b in zip(ours["ranks"], loop["ranks"]))
    print(f"same aggregates and the same {len(ours['resampled']):,} resamples on both sides (largest difference "
          f"{apart:.1e}, the order of a sum's terms), the same {len(ours['task_p']):,} per-task p-values, the same "
          f"95% rank intervals for {same_ranks} of {len(ours['ranks'])} models | sigcore, same seed twice, same "
          f"resamples:", ours["same_seed_same_numbers"])
    for k in range(3):
        print(f"  {ours['models'][k]}: sigcore [{ours['intervals'][k][0]:.4f}, {ours['intervals'][k][1]:.4f}], "
              f"loop [{loop['intervals'][k][0]:.4f}, {loop['intervals'][k][1]:.4f}]")


def folders(args) -> None:
    models, tasks, items = ((20, 20, 1000) if (args.models, args.tasks, args.items) == (50, 60, 2000)
                            else (args.models, args.tasks, args.items))
    with tempfile.TemporaryDirectory() as folder:
        rows = write_folders(Path(folder) / "out", models, tasks, items)
        out = str(Path(folder) / "out")
        runs = turns(FOLDERS_SIGCORE.format(root=str(ROOT), path=out, b=args.resamples, peak=PEAK),
                     FOLDERS_LOOP.format(path=out, b=args.resamples, peak=PEAK), args.repeat)
    print(f"{models} models x {tasks} tasks x {items:,} items = {rows:,} scores in lm-eval output folders "
          f"(a samples_<task>_<date>.jsonl per model and task), b = {args.resamples:,}, to the same analysis")
    report(runs)


if __name__ == "__main__":
    main()
