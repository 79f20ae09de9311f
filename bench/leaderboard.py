"""Models on many tasks at leaderboard scale, side by side in one run: python bench/leaderboard.py   (a few minutes)

50 and 200 models x 60 tasks x 2,000 items x 3 runs (18 and 72 million scores, right/wrong, items of differing
difficulty) in a Parquet file written first. Each side, in a fresh process, from the file to the whole analysis the
issue asks for, with b = 1,000 paired bootstrap resamples stratified by task: each task's paired bootstrap test of
every model against the first (δ, its interval, the two-sided p), every model's aggregate over tasks (the mean of
task scores) with its interval, and its rank interval:

- sigcore: ``leaderboard.bootstrap(leaderboard.from_parquet(F), n_resamples=1000, per_task=True)``, then its
  ``table`` and ``task_table`` against the first model (with tie groups and corrected p as well);
- the peer, what an engineer writes with numpy and pandas, vectorised: pandas' groupby into one items x models
  matrix per task, each task's resamples 100 at a time as counts of the items drawn (its own stream of
  ``SeedSequence(0)``, ``integers(0, n, n)`` per resample) times the matrix, the tests, intervals and ranks
  vectorised;
- the floor, what cannot be avoided: the score column read by pyarrow, and each task's count draws and matrix
  products alone (no checks, no tests, no ranks).

It prints CPU seconds (every thread, system time too, from each side's start), wall time and peak memory (the
process's own high-water mark, VmHWM: ru_maxrss would count the parent's peak, which a child started by vfork
inherits) of each and their ratios to sigcore's; it asserts that every side gives the same b resamples of the
aggregates (the floor's bit for bit, the peer's but for the order of a sum's terms, a last bit) and that the peer
gives the same per-task p-values, and prints on how many models their rank intervals agree, three models' 95%
intervals from each and whether sigcore gives the same numbers twice for the same seed. --models/--tasks/--items/
--runs scale it (--models 10 --tasks 10 --items 500 for a quick look); --repeat N runs the sides N times in turn and
prints medians (this shared machine's speed moves by a factor of 2 within minutes: CPU seconds move less than wall).

``--folders``: the same from lm-eval output folders (a results_<date>.json and a samples_<task>_<date>.jsonl per
model and task, by default 20 models x 20 tasks x 1,000 items): sigcore's ``tidy.from_logs`` (each task checked
against its reported score) against ``json.loads`` line by line into pandas, then the same vectorised resampling.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
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
import json, os, sys, time
{peak}sys.path.insert(0, {root!r})
import numpy as np, pandas as pd
from sigcore import leaderboard
start, cpu = time.perf_counter(), os.times()
board = leaderboard.from_parquet({path!r})  # the tidy table read a batch of rows at a time
res = leaderboard.bootstrap(board, n_resamples={b}, seed=0, per_task=True)
table = res.table(board.models[0])  # aggregates, intervals, rank intervals, tie groups, δ against the baseline
tasks = res.task_table(board.models[0])  # each task's δ against the baseline, its interval, p and p corrected
{done}again = leaderboard.bootstrap(board, n_resamples={b}, seed=0)
ranks = res.rank_intervals()
print(json.dumps({{**done, "models": list(board.models), "aggregate": res.aggregate.tolist(),
                  "resampled": res.resampled.tolist(), "task_p": tasks.p_value.tolist(),
                  "ranks": [list(ranks[m]) for m in board.models],
                  "intervals": [res.interval(m) for m in board.models[:3]],
                  "same_seed_same_numbers": bool(np.array_equal(res.resampled, again.resampled))}}))
"""
# what each side took from its start: wall, CPU (every thread, system time too) and the peak, before checks
DONE = """cpu = os.times().user + os.times().system - cpu.user - cpu.system
done = {"seconds": time.perf_counter() - start, "cpu": cpu, "peak_mb": peak_mb()}
"""

# the peer: what an engineer writes with numpy and pandas, vectorised: one items x models matrix per task (pandas'
# groupby, model first: its fastest order here), each task's resamples 100 at a time as multinomial counts (the
# items drawn, counted by one bincount: 8x numpy's own multinomial) times the matrix (BLAS), then the tests,
# intervals and ranks vectorised. It draws the same items from the same streams as sigcore, so the numbers agree.
PEER = """
import json, os, time
{peak}import numpy as np, pandas as pd
start, cpu = time.perf_counter(), os.times()
frame = pd.read_parquet({path!r}, columns=["model", "task", "item", "score"])
means = frame.groupby(["model", "task", "item"], observed=True)["score"].mean().unstack("model")
models = list(pd.unique(frame["model"]))
tasks = list(pd.unique(frame["task"]))
del frame
means = means[models]
matrices = [means.loc[t].to_numpy() for t in tasks]
del means
streams = np.random.SeedSequence(0).spawn(len(tasks))  # a stream per task, as numpy advises for parallel work
b = {b}
per_task = np.empty((b, len(tasks), len(models)))
for t, (m, stream) in enumerate(zip(matrices, streams)):
    rng, n = np.random.default_rng(stream), len(m)
    offsets = (np.arange(100) * n)[:, None]
    for s in range(0, b, 100):
        k = min(100, b - s)
        drawn = rng.integers(0, n, (k, n)) + offsets[:k]
        counts = np.bincount(drawn.ravel(), minlength=k * n).reshape(k, n)
        per_task[s:s + k, t] = counts @ m / n
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
{done}print(json.dumps({{**done, "models": [str(m) for m in models], "aggregate": point.mean(axis=0).tolist(),
                  "resampled": aggregate.tolist(), "task_p": p.ravel().tolist(),
                  "ranks": [[int(np.floor(lo)), int(np.ceil(hi))] for lo, hi in zip(rank_low, rank_high)],
                  "intervals": [list(intervals[:, k]) for k in range(3)]}}))
"""

# the floor: the table read by pyarrow, and each task's count draws and matrix products alone (float32 whole
# numbers, as sigcore's); the board taken by a reshape, which only the bench can do (it wrote the table in
# (model, task, item, run) order, every cell there); no checks, no tests, no ranks
FLOOR = """
import json, os, time
{peak}import numpy as np, pyarrow.parquet as pq
from threadpoolctl import threadpool_limits
threadpool_limits(1, user_api="blas")  # BLAS's spinning threads cost CPU on a shared machine; products are small
start, cpu = time.perf_counter(), os.times()
scores = pq.read_table({path!r}, columns=["score"]).column("score").to_numpy()
M, T, I, R = {shape}
laps = scores.reshape(M, T, I, R)
whole = laps[..., 0].astype(np.float32)  # (models, tasks, items): right answers, the runs added by strided adds
for r in range(1, R):
    whole += laps[..., r]
del scores, laps
streams = np.random.SeedSequence(0).spawn(T)
b, step = {b}, max(1, (1 << 18) // I)
resampled = np.zeros((b, M))
offsets = (np.arange(step) * I)[:, None]
for t in range(T):
    rng, weights, sums = np.random.default_rng(streams[t]), np.ascontiguousarray(whole[:, t].T), np.empty((b, M))
    for s in range(0, b, step):
        k = min(step, b - s)
        drawn = rng.integers(0, I, (k, I))
        drawn += offsets[:k]
        sums[s:s + k] = np.bincount(drawn.ravel(), minlength=k * I).reshape(k, I).astype(np.float32) @ weights
    resampled += (1 / T) * (sums / (I * R))  # as sigcore sums the tasks: the same floats
{done}print(json.dumps({{**done, "resampled": resampled.tolist()}}))
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


FOLDERS_SIGCORE = SIGCORE.replace("leaderboard.from_parquet({path!r})  # the tidy table read a batch of rows at a time",
                                   "leaderboard.from_table(tidy.from_logs([{path!r}]), metric='acc')").replace(
    "from sigcore import leaderboard", "from sigcore import leaderboard\nfrom sigcore.logs import tidy")

FOLDERS_PEER = """
import json, os, time
{peak}from pathlib import Path
import numpy as np, pandas as pd
start, cpu = time.perf_counter(), os.times()
rows = []
for folder in sorted(Path({path!r}).iterdir()):
    model = json.loads(next(folder.glob("results_*.json")).read_text())["model_name"]
    for samples in sorted(folder.glob("samples_*.jsonl")):
        task = samples.name[len("samples_"):].rsplit("_", 1)[0]
        for line in samples.read_text().splitlines():
            doc = json.loads(line)
            rows.append((model, task, doc["doc_id"], doc["acc"]))
frame = pd.DataFrame(rows, columns=["model", "task", "item", "score"])
""" + PEER.split("score\"])\n", 1)[1]


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
    """A side run in a fresh process; with its whole process's CPU time (imports too, every thread)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {**json.loads(done.stdout), "process_cpu": after.ru_utime + after.ru_stime - before.ru_utime
            - before.ru_stime}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("tasks", 60), ("items", 2000), ("runs", 3), ("resamples", 1000)):
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--models", type=int, nargs="+", default=[50, 200],
                        help="one board per number of models (default 50 and 200: 18 and 72 million scores)")
    parser.add_argument("--repeat", type=int, default=1, help="run the sides this many times, in turn; medians")
    parser.add_argument("--dask", action="store_true",
                        help="the resampling on this machine's cores against a Dask LocalCluster of as many worker "
                             "processes (wall time; the same resamples asserted)")
    parser.add_argument("--folders", action="store_true",
                        help="from lm-eval output folders instead (default scale 20 models x 20 tasks x 1,000 items: "
                             "JSON lines are 300 bytes a score)")
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}, "
          f"{os.cpu_count()} cores")
    if args.folders:
        return folders(args)
    if args.dask:
        return on_dask(args)
    for models in args.models:
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "scores.parquet")
            rows = write(Path(path), models, args.tasks, args.items, args.runs)
            shape = (models, args.tasks, args.items, args.runs)
            runs = turns([code.format(root=str(ROOT), path=path, b=args.resamples, peak=PEAK, shape=shape,
                                      done=DONE) for code in (SIGCORE, PEER, FLOOR)], args.repeat)
        print(f"\n{models} models x {args.tasks} tasks x {args.items:,} items x {args.runs} runs = {rows:,} scores, "
              f"b = {args.resamples:,}, from Parquet to the whole analysis: each task's test of every model against "
              f"the first, the aggregate with its interval, ranks with theirs (the floor: reading and resampling)")
        report(runs)
    print(f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def turns(codes: list[str], repeat: int) -> list[tuple[dict, ...]]:
    """Each side ``repeat`` times, in turn (sigcore, peer, floor, sigcore, ...), so that all meet the machine's
    moods."""
    return [tuple(side(code) for code in codes) for _ in range(repeat)]


NAMES = ("sigcore.leaderboard", "numpy + pandas, vectorised", "floor: pyarrow, draws, products")


def report(runs: list[tuple[dict, ...]]) -> None:
    med = np.median
    print(f"{'side':<34}{'CPU s':>8}{'process CPU s':>15}{'wall s':>8}{'peak MB':>9}"
          + (f"   (medians of {len(runs)} runs in turn)" if len(runs) > 1 else ""))
    for k in range(len(runs[0])):
        cells = [med([r[k][key] for r in runs]) for key in ("cpu", "process_cpu", "seconds", "peak_mb")]
        print(f"{NAMES[k]:<34}{cells[0]:>8.2f}{cells[1]:>15.2f}{cells[2]:>8.2f}{cells[3]:>9.0f}")
    for k, name in ((1, "peer"), (2, "floor")):
        cpu = [r[k]["cpu"] / r[0]["cpu"] for r in runs]
        wall = [r[k]["seconds"] / r[0]["seconds"] for r in runs]
        print(f"{name} / sigcore: {med(cpu):.2f}x in CPU ({min(cpu):.2f} to {max(cpu):.2f}), {med(wall):.2f}x in "
              f"wall, {med([r[k]['peak_mb'] / r[0]['peak_mb'] for r in runs]):.2f}x in peak memory")
    ours, peer = runs[0][:2]
    assert ours["models"] == peer["models"]
    # the same items drawn on every side (task t's stream, integers(0, n, n) per resample): the same numbers, but
    # for the order of a sum's terms (a last bit) on the peer's side; the floor's are sigcore's bit for bit
    apart = float(np.abs(np.subtract(ours["resampled"], peer["resampled"])).max())
    assert np.allclose(ours["aggregate"], peer["aggregate"], rtol=0, atol=1e-12) and apart < 1e-12, apart
    assert ours["task_p"] == peer["task_p"]
    if len(runs[0]) > 2:
        assert np.array_equal(ours["resampled"], runs[0][2]["resampled"])
    same_ranks = sum(a == b for a, b in zip(ours["ranks"], peer["ranks"]))
    print(f"the same aggregates and {len(ours['resampled']):,} resamples on every side (the peer's to "
          f"{apart:.1e}, the order of a sum's terms; the floor's bit for bit), the same {len(ours['task_p']):,} "
          f"per-task p-values, the same 95% rank intervals for {same_ranks} of {len(ours['ranks'])} models | sigcore, "
          f"same seed twice, same resamples:", ours["same_seed_same_numbers"])
    for k in range(3):
        print(f"  {ours['models'][k]}: sigcore [{ours['intervals'][k][0]:.4f}, {ours['intervals'][k][1]:.4f}], "
              f"peer [{peer['intervals'][k][0]:.4f}, {peer['intervals'][k][1]:.4f}]")


def on_dask(args) -> None:
    """The board's resampling (from_parquet, then bootstrap) on this machine's cores, then on a Dask LocalCluster of
    one single-threaded worker process per core, in turn, each ``--repeat`` times; wall time, the same resamples."""
    from distributed import LocalCluster

    sys.path.insert(0, str(ROOT))
    from sigcore import leaderboard

    models = args.models[0]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scores.parquet"
        rows = write(path, models, args.tasks, args.items, args.runs)
        board = leaderboard.from_parquet(path)
    cores = os.cpu_count() or 1
    with LocalCluster(n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        times: dict[str, list[float]] = {"local": [], "dask": []}
        for _ in range(args.repeat):
            for where, scheduler in (("local", None), ("dask", cluster.scheduler_address)):
                start = time.perf_counter()
                res = leaderboard.bootstrap(board, n_resamples=args.resamples, seed=0, scheduler=scheduler)
                times[where].append(time.perf_counter() - start)
                if where == "local":
                    local = res.resampled
                else:
                    assert np.array_equal(local, res.resampled)  # bit for bit, wherever the tasks were drawn
    print(f"{models} models x {args.tasks} tasks x {args.items:,} items x {args.runs} runs = {rows:,} scores, "
          f"b = {args.resamples:,}: the resampling alone (the board read first), wall seconds, medians of "
          f"{args.repeat}")
    local, dask = np.median(times["local"]), np.median(times["dask"])
    print(f"this machine's {cores} cores: {local:.2f} s; a LocalCluster of {cores} worker processes: {dask:.2f} s "
          f"({dask / local:.2f}x); the same resamples bit for bit")


def folders(args) -> None:
    models, tasks, items = ((20, 20, 1000) if (args.models, args.tasks, args.items) == ([50, 200], 60, 2000)
                            else (args.models[0], args.tasks, args.items))
    with tempfile.TemporaryDirectory() as folder:
        rows = write_folders(Path(folder) / "out", models, tasks, items)
        out = str(Path(folder) / "out")
        runs = turns([code.format(root=str(ROOT), path=out, b=args.resamples, peak=PEAK, done=DONE)
                      for code in (FOLDERS_SIGCORE, FOLDERS_PEER)], args.repeat)
    print(f"{models} models x {tasks} tasks x {items:,} items = {rows:,} scores in lm-eval output folders "
          f"(a samples_<task>_<date>.jsonl per model and task), b = {args.resamples:,}, to the same analysis")
    report(runs)


if __name__ == "__main__":
    main()
