"""How fast `sigcore.io.inputs.read` reads a large table, how much memory it and the command line take, and how
long hostile inputs take to be refused: python bench/inputs.py (python bench/inputs.py --stalls: part 3 only)

1. Reading: a CSV of 10^6 rows (id, gold, A, B; short labels) in a temporary file, `read` timed (best of 3 wall
   times), with the peak memory of one read: the tracemalloc peak (Python and numpy/pandas allocations that report
   to it) and, in a fresh process, the growth of the maximum resident set size (ru_maxrss) over that read, which also
   counts what tracemalloc does not see. A second file with a quoted cell in every 100th row takes the csv-module path.
2. The command line: `python -m sigcore compare` on 10^5 and 10^6 rows, as one table and as three files paired by
   their id column (each in another order), its wall time and peak resident memory (ru_maxrss of the child
   process), and the memory per row, which should stay about the same.
3. The stall cases of issue 23, each at two sizes, to show that refusing (or reading) them is linear in their size:
   a header of 5,000 and 10,000 columns (read and compared), 100,000 columns (refused from the header), a JSON array
   of 0.5 and 2.5 million records on one line (the larger refused before it is parsed), JSON nested 1,000 and 100,000
   deep, a 5,000- and a 50,000-digit integer, a CoNLL file of one sentence of 10^5 and 10^6 tokens (span F1), and
   100 and 500 systems' per-seed scores (ASO refused by the budget).
It prints; it does not assert.
"""

from __future__ import annotations

import gc
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sigcore.io.inputs import read  # noqa: E402

N = 1_000_000
LABELS = np.array(["pos", "neg", "neutral", "mixed"])


def make(path: Path, quoted: bool) -> None:
    rng = np.random.default_rng(0)
    gold, a, b = (LABELS[rng.integers(0, 4, N)] for _ in range(3))
    rows = [f"{i},{g},{x},{y}" for i, g, x, y in zip(range(N), gold, a, b)]
    if quoted:  # a comma inside quotes every 100 rows: the csv-module path
        rows[::100] = [f'{i},"pos, mostly",{i % 2},x' for i in range(0, N, 100)]
    path.write_text("id,gold,A,B\n" + "\n".join(rows) + "\n", encoding="utf-8")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def measure(path: str) -> None:
    """In a fresh process, so that ru_maxrss grows only with the read: time, tracemalloc peak, RSS growth."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        table = read(path)
        times.append(time.perf_counter() - start)
        del table
        gc.collect()
    print(f"{len(read(path).frame):,} rows, {Path(path).stat().st_size / 2**20:.1f} MB file: best {min(times):.2f} s "
          f"(of {', '.join(f'{t:.2f}' for t in times)})", end=", ")
    tracemalloc.start()
    read(path)
    print(f"tracemalloc peak {tracemalloc.get_traced_memory()[1] / 2**20:.0f} MB", end=", ")
    tracemalloc.stop()


def rss_of_one_read(path: str) -> None:
    gc.collect()
    before = rss_mb()
    read(path)
    print(f"ru_maxrss +{rss_mb() - before:.0f} MB (baseline {before:.0f} MB)")


def command(args: list[str]) -> tuple[float, float, int]:
    """Wall time, peak resident MB and exit status of ``python -m sigcore ARGS`` in a child process."""
    code = ("import resource, runpy, sys; sys.argv = ['sigcore'] + sys.argv[1:]\n"
            "try:\n    runpy.run_module('sigcore', run_name='__main__')\n"
            "except SystemExit as e:\n    status = e.code\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, status, file=sys.stderr)")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1])
    seconds = time.perf_counter() - start
    rss, status = done.stderr.split()[-2:]
    return seconds, int(rss) / 1024, int(status) if status != "None" else 0


def command_line(tmp: Path) -> None:
    print("\nThe command line, `sigcore compare` on a CSV (read, pair, McNemar's test):")
    for n in (100_000, 1_000_000):
        path = tmp / f"rows{n}.csv"
        rng = np.random.default_rng(0)
        gold, a, b = (LABELS[rng.integers(0, 4, n)] for _ in range(3))
        path.write_text("id,gold,A,B\n" + "".join(f"{i},{g},{x},{y}\n" for i, g, x, y in zip(range(n), gold, a, b)))
        seconds, rss, status = command(["compare", str(path)])
        print(f"  {n:>9,} rows, {path.stat().st_size / 2**20:5.1f} MB: {seconds:5.2f} s, peak {rss:6.0f} MB resident "
              f"({rss * 2**20 / n:,.0f} bytes a row, interpreter and libraries included), status {status}")
        files = []  # the same items as a gold file and a file per system, paired by their id column
        for role, values in (("gold", gold), ("a", a), ("b", b)):
            files.append(tmp / f"{role}{n}.csv")
            order = rng.permutation(n) if role != "gold" else np.arange(n)  # another order in each file
            files[-1].write_text(f"id,{'gold' if role == 'gold' else 'pred'}\n" +
                                 "".join(f"{i},{values[i]}\n" for i in order))
        seconds, rss, status = command(["compare", *map(str, files), "--gold-file", str(files[0])])
        print(f"  {n:>9,} rows in 3 files paired by id: {seconds:5.2f} s, peak {rss:6.0f} MB resident, status {status}")


def stalls(tmp: Path) -> None:
    print("\nHostile inputs, each at two sizes (command line: wall time, peak resident MB, exit status; 2 = refused):")
    cases = []
    for columns in (5_000, 10_000, 100_000):
        names = ["gold"] + [f"s{i}" for i in range(columns - 1)]
        path = tmp / f"wide{columns}.csv"
        path.write_text(",".join(names) + "\n" + "".join(",".join("xy"[(r + j) % 2] for j in range(columns)) + "\n"
                                                        for r in range(40)))
        cases.append((f"{columns:,} columns x 40 rows", ["compare", str(path)]))
    for records in (500_000, 2_500_000):
        path = tmp / f"array{records}.json"
        path.write_text("[" + ",".join(['{"gold":"x","A":"x","B":"y"}'] * records) + "]")
        cases.append((f"JSON array of {records:,} records on one line", ["compare", str(path)]))
    for depth in (1_000, 100_000):
        path = tmp / f"deep{depth}.json"
        path.write_text('[{"gold":"x","A":"x","B":' + "[" * depth + "]" * depth + "}]")
        cases.append((f"JSON nested {depth:,} deep", ["compare", str(path)]))
    for digits in (5_000, 50_000):
        path = tmp / f"digits{digits}.jsonl"
        path.write_text('{"gold":1,"A":1,"B":2}\n{"gold":1,"A":1,"B":' + "7" * digits + "}\n")
        cases.append((f"a {digits:,}-digit integer", ["compare", str(path)]))
    for tokens in (100_000, 1_000_000):  # one sentence: a file whose blank lines were lost
        path = tmp / f"sentence{tokens}.conll"
        drawn = np.random.default_rng(2).integers(0, 6, (tokens, 3))
        tags = np.array(["O", "B-PER", "I-PER", "B-LOC", "O", "O"])[drawn]
        path.write_text("".join(f"w{i} {g} {a} {b}\n" for i, (g, a, b) in enumerate(tags)))
        cases.append((f"CoNLL, one sentence of {tokens:,} tokens", ["compare", str(path), "--resamples", "1000"]))
    for systems in (100, 500):
        path = tmp / f"seeds{systems}.csv"
        rng = np.random.default_rng(1)
        path.write_text("seed," + ",".join(f"s{i}" for i in range(systems)) + "\n" + "".join(
            f"{k}," + ",".join(f"{x:.3f}" for x in rng.random(systems)) + "\n" for k in range(5)))
        cases.append((f"{systems} systems x 5 seeds, ASO at b = 1,000", ["seeds", str(path), "--resamples", "1000"]))
    for what, args in cases:
        size = Path(args[1]).stat().st_size / 2**20
        seconds, rss, status = command(args)
        print(f"  {what:<46} {size:7.2f} MB: {seconds:6.2f} s, peak {rss:5.0f} MB, status {status}")


def main() -> None:
    if sys.argv[1:] == ["--stalls"]:  # only part 3
        with tempfile.TemporaryDirectory() as tmp:
            return stalls(Path(tmp))
    if len(sys.argv) == 3:
        return measure(sys.argv[2]) if sys.argv[1] == "--time" else rss_of_one_read(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        for quoted in (False, True):
            path = Path(tmp) / f"table{'_quoted' if quoted else ''}.csv"
            make(path, quoted)
            print("quoted" if quoted else "plain ", end=" ", flush=True)
            for flag in ("--time", "--rss"):
                subprocess.run([sys.executable, __file__, flag, str(path)], check=True)
        command_line(Path(tmp))
        stalls(Path(tmp))


if __name__ == "__main__":
    main()
