"""Many systems on one test set, side by side in one run: python bench/many.py   (about 2 minutes on 2 cores)

1. The 16 WMT17 en-de systems against LIUM-NMT on BLEU and chrF, b = 1,000, sacrebleu-compatible, each side end
   to end as a user runs it, from the gzipped files to the printed table:
   `sacrebleu REF -i LIUM-NMT SYS... -m bleu chrf --paired-bs --paired-bs-n 1000` against
   `python -m sigcore many REF LIUM-NMT SYS... --metric bleu chrf --resamples 1000 --compat sacrebleu`.
   Beside them, the ideal computation's floor: reading the files and sacrebleu's own per-segment statistics of
   every system for both metrics (what any exact tool must compute; sigcore uses sacrebleu's extraction), so the
   ratios show what is left beyond it.
2. All 120 pairs of the 16 systems on BLEU at b = 10,000 (the ranking), in a fresh process: wall time and peak
   memory (ru_maxrss).

It prints; it does not assert. Each command runs twice (three for the short ones); the best time is printed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "sample_data" / "wmt17_en_de"
REF = "newstest2017.ref.de.gz"
BASELINE = "LIUM-NMT.4900.de.gz"
SYSTEMS = [BASELINE] + sorted(p.name for p in DATA.glob("*.de.gz") if p.name not in (REF, BASELINE))

FLOOR = f"""
import sys; sys.path.insert(0, {str(ROOT)!r})
from sigcore.io.inputs import read_lines
from sigcore.metrics import prepare
refs = read_lines({str(DATA / REF)!r})
systems = [read_lines({str(DATA)!r} + "/" + name) for name in {SYSTEMS!r}]
for metric in ("bleu", "chrf"):
    prepare(metric, refs, systems)
"""
PAIRS = f"""
import resource, sys, time; sys.path.insert(0, {str(ROOT)!r})
import sigcore
from sigcore.io.inputs import read_lines
refs = read_lines({str(DATA / REF)!r})
systems = {{name.split(".")[0]: read_lines({str(DATA)!r} + "/" + name) for name in {SYSTEMS!r}}}
start = time.perf_counter()
many = sigcore.compare_many(refs, systems, metric="bleu", all_pairs=True, n_resamples=10_000)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
      max(many.ranking()["cluster"]))
"""


def best(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=DATA, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})  # python -m sigcore from the data's folder
        times.append(time.perf_counter() - start)
    return min(times)


if __name__ == "__main__":
    sacrebleu = best([sys.executable, "-m", "sacrebleu", REF, "-i", *SYSTEMS, "-m", "bleu", "chrf", "--paired-bs",
                      "--paired-bs-n", "1000", "-f", "text"], 2)
    sigcore = best([sys.executable, "-m", "sigcore", "many", REF, *SYSTEMS, "--metric", "bleu", "chrf",
                    "--resamples", "1000", "--compat", "sacrebleu"], 2)
    floor = best([sys.executable, "-c", FLOOR], 2)
    print("16 WMT17 en-de systems against LIUM-NMT, BLEU + chrF, b = 1,000, end to end (best of 2), seconds:")
    print(f"| sacrebleu --paired-bs | sigcore many | floor: read + sacrebleu statistics | "
          f"sacrebleu / sigcore | sigcore − floor | sacrebleu − floor |")
    print(f"| {sacrebleu:.1f} | {sigcore:.1f} | {floor:.1f} | {sacrebleu / sigcore:.1f}x | "
          f"{sigcore - floor:.1f} | {sacrebleu - floor:.1f} |")
    wall, peak, clusters = (float(v) for v in subprocess.run(
        [sys.executable, "-c", PAIRS], check=True, capture_output=True, text=True).stdout.split())
    print(f"\nAll 120 pairs on BLEU, b = 10,000: {wall:.1f} s (statistics included), peak memory {peak:.0f} MiB, "
          f"{clusters:.0f} clusters")
