"""How long each computation of the Classroom page takes at its default settings, cold (no Streamlit cache).

No peer here: these are the page's own simulations, and the question is whether each runs live in class
(within a few seconds). Best of 3 runs, wall time.

    python bench/classroom.py
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
logging.getLogger("streamlit").setLevel(logging.ERROR)  # "no runtime" warnings of the page's caches

import sigcore  # noqa: E402
from sigcore.teaching import pitfalls
from sigcore import teaching  # noqa: E402
from ui import lessons, walkthrough  # noqa: E402

A, B = walkthrough.PRESETS["Textbook: A .70, B .50"]


def frames(speed: str, stop: int) -> None:
    detailed, _, max_frames = walkthrough.SPEEDS[speed]
    x = teaching.draw_test_sets(A, B, stop)
    walkthrough.play(A, B, x, 0, detailed=detailed, max_frames=max_frames, shifted=True)


def three_tests(copies: int) -> None:
    a, b = list(A) * copies, list(B) * copies
    for test in lessons.THREE:
        sigcore.compare([1] * len(a), a, b, test=test, n_resamples=lessons.RESAMPLES, ci_method=None)


TASKS = {
    "walk-through: draw 10,000, Fast (frames)": lambda: frames("Fast", 10_000),
    "walk-through: draw 10 line by line (frames)": lambda: frames("Line by line (Figure 4.12)", 10),
    "walk-through: exact p (enumeration, n = 10)": lambda: teaching.exact_bootstrap_p(A, B),
    "p-values under H0: bootstrap, n = 200, 1,000 test sets": lambda: teaching.null_p_values(
        200, lessons.NULL_ACCURACY, lessons.NULL_AGREEMENT, n_sims=1_000),
    "power: 8 sizes x 200 test sets, b = 1,000": lambda: teaching.power(
        lessons.POWER_NS, 0.75, 0.70, 0.85, n_sims=lessons.POWER_SIMS, n_resamples=lessons.POWER_RESAMPLES),
    "mistakes: many comparisons, k = 10": lambda: pitfalls.many_comparisons(10),
    "mistakes: peeking every 50 items": lambda: pitfalls.peeking(step=50),
    "mistakes: not significant != equal": lambda: pitfalls.not_significant(100, 0.75, 0.70),
    "mistakes: one- vs two-sided, n = 200": lambda: pitfalls.one_sided(200),
    "three tests, 20 copies (200 documents)": lambda: three_tests(20),
}


def best_of(task, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return min(times)


if __name__ == "__main__":
    print("| computation (Classroom defaults) | seconds |\n|---|---|")
    for name, task in TASKS.items():
        print(f"| {name} | {best_of(task):.2f} |", flush=True)
