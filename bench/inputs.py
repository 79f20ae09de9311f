"""How fast `sigcore.io.inputs.read` reads a large table, and how much memory it takes: python bench/inputs.py

Writes a CSV of 10^6 rows (id, gold, A, B; short labels) to a temporary file, then times `read` on it
(best of 3 wall times) and measures peak memory of one read: the tracemalloc peak (Python and numpy/pandas
allocations that report to it) and, in a fresh process, the growth of the maximum resident set size
(ru_maxrss) over that read, which also counts what tracemalloc does not see. A second file with a quoted cell in every
100th row takes the csv-module path. It prints; it does not assert.
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


def main() -> None:
    if len(sys.argv) == 3:
        return measure(sys.argv[2]) if sys.argv[1] == "--time" else rss_of_one_read(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        for quoted in (False, True):
            path = Path(tmp) / f"table{'_quoted' if quoted else ''}.csv"
            make(path, quoted)
            print("quoted" if quoted else "plain ", end=" ", flush=True)
            for flag in ("--time", "--rss"):
                subprocess.run([sys.executable, __file__, flag, str(path)], check=True)


if __name__ == "__main__":
    main()
