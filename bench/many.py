"""Many systems on one test set, side by side in one run: python bench/many.py   (about 2 minutes on 2 cores)

1. The 16 WMT17 en-de systems against LIUM-NMT on BLEU and chrF, b = 1,000, sacrebleu-compatible, each side end
   to end as a user runs it, from the gzipped files to the printed table:
   `sacrebleu REF -i LIUM-NMT SYS... -m bleu chrf --paired-bs --paired-bs-n 1000` against
   `python -m sigcore many REF LIUM-NMT SYS... --metric bleu chrf --resamples 1000 --compat sacrebleu`.
   Beside them, the floor each side pays before any resampling: reading the files and the per-segment statistics
   of every system for both metrics, as sacrebleu extracts them and as sigcore does (sacrebleu's extraction for
   BLEU, its own numpy counting for chrF, equal to sacrebleu's), so the ratios show what is left beyond it.
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

READ = f"""
import sys; sys.path.insert(0, {str(ROOT)!r})
from sigcore.io.inputs import read_lines
refs = read_lines({str(DATA / REF)!r})
systems = [read_lines({str(DATA)!r} + "/" + name) for name in {SYSTEMS!r}]
"""
SIGCORE_STATS = READ + """
from sigcore.metrics import prepare
for metric in ("bleu", "chrf"):
    prepare(metric, refs, systems)
"""
SACREBLEU_STATS = READ + """
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
for metric in (BLEU(references=[refs]), CHRF(references=[refs])):
    [metric._extract_corpus_statistics(hyps, None) for hyps in systems]
"""
PAIRS = f"""
import resource, sys, time; sys.path.insert(0, {str(ROOT)!r})
import sigcore
from sigcore.io.inputs import read_lines
refs = read_lines({str(DATA / REF)!r})
systems = {{name.split(".")[0]: read_lines({str(DATA)!r} + "/" + name) for name in {SYSTEMS!r}}}
start = time.perf_counter()
many = sigcore.compare_many(refs, systems, metric="bleu", all_pairs=True, n_resamples=10_000, test="bootstrap")
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
    ours = best([sys.executable, "-c", SIGCORE_STATS], 2)
    theirs = best([sys.executable, "-c", SACREBLEU_STATS], 2)
    print("16 WMT17 en-de systems against LIUM-NMT, BLEU + chrF, b = 1,000, end to end (best of 2), seconds:")
    print("| sacrebleu --paired-bs | sigcore many | sacrebleu / sigcore | read + statistics, sacrebleu's | "
          "read + statistics, sigcore's | sacrebleu − its statistics | sigcore − its statistics |")
    print(f"| {sacrebleu:.1f} | {sigcore:.1f} | {sacrebleu / sigcore:.1f}x | {theirs:.1f} | {ours:.1f} | "
          f"{sacrebleu - theirs:.1f} | {sigcore - ours:.1f} |")
    wall, peak, clusters = (float(v) for v in subprocess.run(
        [sys.executable, "-c", PAIRS], check=True, capture_output=True, text=True).stdout.split())
    print(f"\nAll 120 pairs on BLEU, b = 10,000: {wall:.1f} s (statistics included), peak memory {peak:.0f} MiB, "
          f"{clusters:.0f} clusters")
