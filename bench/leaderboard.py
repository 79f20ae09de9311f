"""Models on many tasks at leaderboard scale, side by side in one run: python bench/leaderboard.py   (about 1 minute)

50 models x 60 tasks x 2,000 items x 3 runs (18 million scores, right/wrong, items of differing difficulty) in a
Parquet file written first. Each side, in a fresh process, from the file to every model's aggregate over tasks
(the mean of task scores) with b = 1,000 paired bootstrap resamples stratified by task:

- sigcore: ``leaderboard.bootstrap(leaderboard.from_table(pd.read_parquet(F)), n_resamples=1000)``;
- the loop a user would write: pandas' groupby mean per (task, item, model), then for each resample and task,
  items drawn with ``rng.integers`` and the task means averaged (numpy inside, Python around it).

It prints wall time and peak memory (ru_maxrss) of each, their ratio, and both sides' 95% intervals of three
models' aggregates, which agree within Monte-Carlo error (the draws differ: counts against indices); and that
sigcore gives the same numbers twice for the same seed. It does not assert. --models/--tasks/--items/--runs scale
it down (--models 10 --tasks 10 --items 500 for a quick look).
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

SIGCORE = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
import numpy as np, pandas as pd
from sigcore import leaderboard
start = time.perf_counter()
board = leaderboard.from_table(pd.read_parquet({path!r}))
res = leaderboard.bootstrap(board, n_resamples={b}, seed=0)
seconds = time.perf_counter() - start
again = leaderboard.bootstrap(board, n_resamples={b}, seed=0)
print(json.dumps({{"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "models": list(board.models), "aggregate": res.aggregate.tolist(),
                  "intervals": [res.interval(m) for m in board.models[:3]],
                  "same_seed_same_numbers": bool(np.array_equal(res.resampled, again.resampled))}}))
"""

LOOP = """
import json, resource, time
import numpy as np, pandas as pd
start = time.perf_counter()
frame = pd.read_parquet({path!r})
means = frame.groupby(["task", "item", "model"], observed=True)["score"].mean().unstack("model")
models = list(pd.unique(frame["model"]))
means = means[models]
tasks = list(pd.unique(frame["task"]))
matrices = [means.loc[t].to_numpy() for t in tasks]
rng = np.random.default_rng(0)
aggregate = np.zeros(({b}, len(models)))
for i in range({b}):
    aggregate[i] = np.mean([m[rng.integers(0, len(m), len(m))].mean(axis=0) for m in matrices], axis=0)
seconds = time.perf_counter() - start
point = np.mean([m.mean(axis=0) for m in matrices], axis=0)
print(json.dumps({{"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "models": [str(m) for m in models], "aggregate": point.tolist(),
                  "intervals": [list(np.quantile(aggregate[:, k], [0.025, 0.975])) for k in range(3)]}}))
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


def side(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("models", 50), ("tasks", 60), ("items", 2000), ("runs", 3), ("resamples", 1000)):
        parser.add_argument(f"--{name}", type=int, default=default)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "scores.parquet")
        rows = write(Path(path), args.models, args.tasks, args.items, args.runs)
        ours = side(SIGCORE.format(root=str(ROOT), path=path, b=args.resamples))
        loop = side(LOOP.format(path=path, b=args.resamples))
    print(f"{args.models} models x {args.tasks} tasks x {args.items:,} items x {args.runs} runs = {rows:,} scores, "
          f"b = {args.resamples:,}, from Parquet to every model's aggregate and interval")
    print(f"{'side':<28}{'seconds':>9}{'peak MB':>10}")
    for name, res in (("sigcore.leaderboard", ours), ("pandas + numpy loop", loop)):
        print(f"{name:<28}{res['seconds']:>9.1f}{res['peak_mb']:>10.0f}")
    print(f"ratio (loop / sigcore): {loop['seconds'] / ours['seconds']:.1f}x in time, "
          f"{loop['peak_mb'] / ours['peak_mb']:.2f}x in memory")
    assert ours["models"] == loop["models"]
    print("same aggregates:", np.allclose(ours["aggregate"], loop["aggregate"], atol=1e-12),
          "| sigcore, same seed twice, same resamples:", ours["same_seed_same_numbers"])
    for k in range(3):
        print(f"  {ours['models'][k]}: sigcore [{ours['intervals'][k][0]:.4f}, {ours['intervals'][k][1]:.4f}], "
              f"loop [{loop['intervals'][k][0]:.4f}, {loop['intervals'][k][1]:.4f}]")


if __name__ == "__main__":
    main()
