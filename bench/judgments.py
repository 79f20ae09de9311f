"""Bradley–Terry ratings with bootstrap intervals at arena scale, side by side in one run: python bench/judgments.py

Issue 42 §4: one million battles of 100 models on 20,000 prompts, b = 1,000 resamples: ratings with intervals in
under 60 s and 2 GB on 2 cores. The battles are drawn from a known Bradley–Terry model with prompt effects (strengths
spread evenly over 3 natural-log-odds units, each model's effect on each prompt normal with sd 0.5, shared by every
battle on that prompt; 10% ties; a pair judged at most once per prompt) and written as an arena CSV (``model_a,
model_b, winner, question_id``). Each side runs in a fresh process, from the file to ratings with 95% intervals:

- sigcore: ``sigcore.judgments.read(F)`` then ``bradley_terry(battles, n_resamples=b, seed=0)``: intervals from
  resampled prompts (items), rank intervals, the LMArena rank, every pair's corrected p;
- evalica 0.4.2: ``pandas.read_csv`` then ``evalica.bootstrap(evalica.bradley_terry, ..., bootstrap_method=
  "percentile")`` (scipy's bootstrap over battles, its Rust fit on each resample; the default BCa would add a
  jackknife of a million fits);
- lmarena's arena-rank 0.1.1: ``pandas.read_csv``, ``PairDataset.from_pandas`` (battles grouped by (A, B, outcome)),
  ``BradleyTerry.compute_ratings_and_cis(ci_method="bootstrap", n_jobs=2)`` (multinomial counts over those groups,
  that is battles resampled, each fitted by L-BFGS in JAX in a pool of processes; "spawn", as JAX deadlocks in a
  forked child);
- the floor: the three columns read by pyarrow and coded, each resample's draw of prompts counted by one bincount,
  and the resample's totals per (pair, outcome) as one float32 sparse product of those counts (the arithmetic every
  bootstrap by item does), no fit.

The peers fit every resample from scratch and take seconds each, so they run a few resamples and their time at b
is projected: the fixed part (reading, the point fit; arena-rank's pool and compilation, from a run of ``lo`` and
one of ``hi`` resamples) plus b times the time of one more resample; both are printed. Peak memory is each side's
own high-water mark (VmHWM) and the largest child's (arena-rank's workers). The run asserts that the point ratings
agree (Elo, mean 1,000) and prints the median interval width of each (the peers' come from resampled battles, and
are narrower than prompts allow).

    python bench/judgments.py           # the issue's case, about 5 minutes on 2 cores
    python bench/judgments.py --small   # 20,000 battles of 20 models on 1,000 prompts, b = 200: under a minute
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
PEAK = """
import resource
def peak_mb():
    with open("/proc/self/status") as status:
        own = next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024
    return own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
def cpu_s():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
"""
# each side prints one JSON line: seconds to read, to rate (with intervals), CPU, peaks, ratings (Elo, mean 1000)
SIGCORE = """
import json, os, sys, time
{peak}sys.path.insert(0, {root!r})
import numpy as np
from sigcore.judgments import read, bradley_terry
start, cpu = time.perf_counter(), cpu_s()
battles = read({path!r})
read_s = time.perf_counter() - start
res = bradley_terry(battles, n_resamples={b}, seed=0)
seconds = time.perf_counter() - start
own, children = peak_mb()
order = np.argsort(res.models)
print(json.dumps({{"read": read_s, "seconds": seconds, "cpu": cpu_s() - cpu, "peak": own, "children": children,
                  "b": {b}, "models": sorted(res.models), "rating": res.rating[order].tolist(),
                  "width": float(np.median(res.ci_high - res.ci_low))}}))
"""
EVALICA = """
import json, os, time
{peak}import numpy as np, pandas as pd, evalica
start, cpu = time.perf_counter(), cpu_s()
frame = pd.read_csv({path!r})
winners = frame["winner"].map({{"model_a": evalica.Winner.X, "model_b": evalica.Winner.Y,
                               "tie": evalica.Winner.Draw}}).tolist()
read_s = time.perf_counter() - start
fit = evalica.bradley_terry(frame["model_a"], frame["model_b"], winners)
fixed = time.perf_counter() - start
res = evalica.bootstrap(evalica.bradley_terry, frame["model_a"], frame["model_b"], winners, n_resamples={b},
                        bootstrap_method="percentile", random_state=0)
seconds = time.perf_counter() - start
own, children = peak_mb()
theta = np.log(res.result.scores.sort_index().to_numpy(float))
elo = 400 / np.log(10)
print(json.dumps({{"read": read_s, "fixed": fixed, "seconds": seconds, "cpu": cpu_s() - cpu, "peak": own,
                  "children": children, "b": {b}, "models": sorted(res.result.scores.index),
                  "rating": (1000 + elo * (theta - theta.mean())).tolist(),
                  "width": float(np.median(elo * (np.log(res.high) - np.log(res.low))))}}))
"""
ARENA = """
import json, os, sys, time
import multiprocessing as mp
{peak}
def main():
    import numpy as np, pandas as pd
    from arena_rank.models.bradley_terry import BradleyTerry
    from arena_rank.utils.data_utils import PairDataset
    start, cpu = time.perf_counter(), cpu_s()
    frame = pd.read_csv({path!r})
    read_s = time.perf_counter() - start
    data = PairDataset.from_pandas(frame)
    model = BradleyTerry(n_competitors=len(data.competitors))
    model.fit(data)
    fixed = time.perf_counter() - start
    times = []
    for b in ({lo}, {hi}):
        at = time.perf_counter()
        out = model.compute_ratings_and_cis(data, ci_method="bootstrap", num_bootstrap=b, n_jobs=2, seed=0)
        times.append(time.perf_counter() - at)
    own, children = peak_mb()
    order = np.argsort(data.competitors)
    rating = np.asarray(out["ratings"])[order]
    print(json.dumps({{"read": read_s, "fixed": fixed, "runs": times, "cpu": cpu_s() - cpu, "peak": own,
                      "children": children, "b": {hi}, "models": sorted(data.competitors),
                      "rating": (rating - rating.mean() + 1000).tolist(),
                      "width": float(np.median(np.asarray(out["rating_upper"]) - np.asarray(out["rating_lower"])))}}))

if __name__ == "__main__":
    mp.set_start_method("spawn", force=True)  # JAX is multithreaded: arena-rank's forked workers deadlock
    main()
"""
FLOOR = """
import json, os, time
{peak}import numpy as np, pyarrow as pa, pyarrow.csv as csv, pyarrow.compute as pc
from scipy.sparse import csr_matrix
start, cpu = time.perf_counter(), cpu_s()
table = csv.read_csv({path!r}, convert_options=csv.ConvertOptions(
    include_columns=["model_a", "model_b", "winner", "question_id"]))
models = pc.unique(pa.chunked_array(table["model_a"].chunks + table["model_b"].chunks))
a, b = (np.asarray(pc.index_in(table[name], value_set=models), dtype=np.int64) for name in ("model_a", "model_b"))
w, q = (np.asarray(pc.dictionary_encode(table[name]).combine_chunks().indices, dtype=np.int64)
        for name in ("winner", "question_id"))
read_s = time.perf_counter() - start
m = len(models)  # the pair and the cell (pair, outcome) of each battle
cell = (np.minimum(a, b) * m + np.maximum(a, b)) * 3 + w
items = int(q.max()) + 1
counts = csr_matrix((np.ones(len(q), np.float32), (cell, q)), shape=(m * m * 3, items))
rng = np.random.default_rng(0)
totals = np.empty((100, m * m * 3), np.float32)
for block in range(0, {b}, 100):
    drawn = np.vstack([np.bincount(rng.integers(0, items, items), minlength=items) for _ in range(100)])
    totals[:] = (counts @ drawn.T.astype(np.float32)).T
seconds = time.perf_counter() - start
own, children = peak_mb()
print(json.dumps({{"read": read_s, "seconds": seconds, "cpu": cpu_s() - cpu, "peak": own, "children": children,
                  "b": {b}}}))
"""


def simulate(battles: int, models: int, prompts: int, seed: int = 0, tie_share: float = 0.1,
             prompt_sd: float = 0.5) -> pd.DataFrame:
    """Arena battles from a known Bradley–Terry model with prompt effects, each pair judged once a prompt at most."""
    rng = np.random.default_rng(seed)
    strength = np.linspace(-1.5, 1.5, models)
    effect = rng.normal(0, prompt_sd, (prompts, models))
    drawn = battles + battles // 10  # a few more, for the pairs that meet twice on a prompt
    item = rng.integers(0, prompts, drawn)
    a = rng.integers(0, models, drawn)
    b = (a + rng.integers(1, models, drawn)) % models
    p = 1 / (1 + np.exp(-(strength[a] + effect[item, a] - strength[b] - effect[item, b])))
    u = rng.random(drawn)
    winner = np.where(u < tie_share, 2, np.where(u < tie_share + (1 - tie_share) * p, 0, 1))
    low, high = np.minimum(a, b), np.maximum(a, b)
    keep = np.flatnonzero(~pd.Series((item * models + low) * models + high).duplicated().to_numpy())[:battles]
    names = np.array([f"model-{k:03d}" for k in range(models)], dtype=object)
    return pd.DataFrame({"model_a": names[a[keep]], "model_b": names[b[keep]],
                         "winner": np.array(["model_a", "model_b", "tie"], dtype=object)[winner[keep]],
                         "question_id": np.char.add("q", item[keep].astype(str)).astype(object)})


def run(name: str, script: str, timeout: float = 3600) -> dict:
    """One side in a fresh process: its JSON line."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout,
                          cwd=tempfile.gettempdir())
    if done.returncode:
        raise SystemExit(f"{name} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="20,000 battles, 20 models, 1,000 prompts, b = 200")
    parser.add_argument("--evalica", type=int, default=None, help="evalica's resamples (projected to b)")
    parser.add_argument("--arena", type=int, nargs=2, default=None, metavar=("LO", "HI"),
                        help="arena-rank's two runs of resamples (projected to b)")
    args = parser.parse_args()
    battles, models, prompts, b = (20_000, 20, 1_000, 200) if args.small else (1_000_000, 100, 20_000, 1_000)
    b_evalica = args.evalica or (20 if args.small else 5)
    lo, hi = args.arena or ((2, 6) if args.small else (4, 12))
    print(f"{battles:,} battles, {models} models, {prompts:,} prompts, b = {b:,}; load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "battles.csv")
        simulate(battles, models, prompts).to_csv(path, index=False)
        fill = {"peak": PEAK, "root": str(ROOT), "path": path}
        sides = {"sigcore": run("sigcore", SIGCORE.format(b=b, **fill))}
        print("sigcore done", flush=True)
        sides["floor"] = run("floor", FLOOR.format(b=b, **fill))
        sides["evalica"] = run("evalica", EVALICA.format(b=b_evalica, **fill))
        print("evalica done", flush=True)
        sides["arena-rank"] = run("arena-rank", ARENA.format(lo=lo, hi=hi, **fill))
    ev, ar = sides["evalica"], sides["arena-rank"]
    per_ev = (ev["seconds"] - ev["fixed"]) / ev["b"]
    ev["projected"] = ev["fixed"] + b * per_ev
    per_ar = (ar["runs"][1] - ar["runs"][0]) / (hi - lo)
    ar["projected"] = ar["fixed"] + (ar["runs"][0] - lo * per_ar) + b * per_ar
    ar["seconds"] = ar["fixed"] + sum(ar["runs"])
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print(f"{'side':<12} {'resamples run':>13} {'read s':>7} {'wall s':>8} {'at b s':>9} {'/ sigcore':>9} "
          f"{'CPU s':>7} {'peak MB':>8} {'child MB':>8} {'CI width':>8}")
    base = sides["sigcore"]["seconds"]
    for name, side in sides.items():
        at_b = side.get("projected", side["seconds"])
        width = f"{side['width']:.1f}" if "width" in side else ""
        print(f"{name:<12} {side['b']:>13,} {side['read']:>7.1f} {side['seconds']:>8.1f} {at_b:>9.1f} "
              f"{at_b / base:>8.2f}x {side['cpu']:>7.1f} {side['peak']:>8.0f} {side['children']:>8.0f} {width:>8}")
    print(f"\nper resample: evalica {per_ev:.2f} s, arena-rank {per_ar:.2f} s (2 processes), sigcore "
          f"{(base - sides['sigcore']['read']) / b:.4f} s with its fits and checks")
    reference = np.array(sides["sigcore"]["rating"])
    for name in ("evalica", "arena-rank"):
        assert sides[name]["models"] == sides["sigcore"]["models"]
        gap = float(np.max(np.abs(np.array(sides[name]["rating"]) - reference)))
        print(f"ratings, sigcore against {name}: largest difference {gap:.2g} Elo points")
        assert gap < 0.05, f"{name}'s ratings differ from sigcore's by {gap} Elo points"
    print("(intervals: sigcore's resample prompts, the peers' battles; the prompts' effects widen the former)")


if __name__ == "__main__":
    main()
