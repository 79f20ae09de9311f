"""How long each computation of the Classroom page takes at its default settings, cold (no Streamlit cache), and
how soon a class can use the walk-through after opening the page.

No peer here: these are the page's own simulations, and the question is whether each runs live in class
(within a few seconds). Best of 3 runs, wall time. Then, in Debian's Chromium against a fresh server (cold
caches): seconds from opening /classroom to a usable walk-through (the Draw button shown and the script done),
as the page opens now, and the time the page took before sections 3 to 5 waited until they are reached (the
same page with every section switched on, cold); both for `streamlit run app.py` (which imports the engine and
the pages at server start) and `streamlit run dashboard.py` (the first visit imports it, as before), side by side.

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
from sigcore import teaching  # noqa: E402
from sigcore.teaching import pitfalls  # noqa: E402
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
    "power: exact (b -> inf), 8 sizes": lambda: teaching.exact_power(lessons.POWER_NS, 0.75, 0.70, 0.85),
    "mistakes: many comparisons, k = 10": lambda: pitfalls.many_comparisons(10),
    "mistakes: peeking every 50 items": lambda: pitfalls.peeking(step=50),
    "mistakes: not significant != equal": lambda: pitfalls.not_significant(100, 0.75, 0.70),
    "mistakes: one- vs two-sided, n = 200": lambda: pitfalls.one_sided(200),
    "mistakes: p != P(H0), 1,000 experiments": lambda: pitfalls.probability_of_h0(0.2),
    "mistakes: significant != important, n = 100,000": lambda: pitfalls.not_important(100_000),
    "three tests, 20 copies (200 documents)": lambda: three_tests(20),
}


def best_of(task, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return min(times)


def page_times(script: str, runs: int = 3) -> tuple[list[float], list[float], list[float]]:
    """(to a usable walk-through, to every section computed once switched on, to a usable walk-through for the
    next visitor of the same server), each run on a fresh server of `streamlit run script`."""
    import socket
    import subprocess
    import urllib.request

    from playwright.sync_api import sync_playwright

    root = Path(__file__).resolve().parents[1]
    usable, everything, again = [], [], []
    for _ in range(runs):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", script, "--server.port", str(port),
                                   "--server.headless", "true"], cwd=root, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)  # no pipe: a full one would stall the server
        try:
            for _ in range(120):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.5)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run"])
                page = browser.new_page(viewport={"width": 1280, "height": 720})
                idle = "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
                start = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}/classroom")
                page.get_by_role("button", name="Draw x⁽¹⁾").wait_for(timeout=120_000)
                page.wait_for_function(idle, timeout=120_000, polling=50)
                usable.append(time.perf_counter() - start)
                start = time.perf_counter()  # as the page was before: sections 3 to 5 computed at once, cold
                for label in page.get_by_text("Show this section").all():
                    label.click()
                page.wait_for_timeout(300)
                page.wait_for_function(idle, timeout=300_000, polling=50)
                everything.append(usable[-1] + time.perf_counter() - start)
                second = browser.new_page(viewport={"width": 1280, "height": 720})  # the next student's visit
                start = time.perf_counter()
                second.goto(f"http://127.0.0.1:{port}/classroom")
                second.get_by_role("button", name="Draw x⁽¹⁾").wait_for(timeout=120_000)
                second.wait_for_function(idle, timeout=120_000, polling=50)
                again.append(time.perf_counter() - start)
                browser.close()
        finally:
            server.terminate()
            server.wait()
    return usable, everything, again


if __name__ == "__main__":
    print("| computation (Classroom defaults) | seconds |\n|---|---|")
    for name, task in TASKS.items():
        print(f"| {name} | {best_of(task):.2f} |", flush=True)
    print("\nOpening /classroom, Chromium, seconds (3 runs, each on a fresh server):")
    for script, how in (("app.py", "the engine and the pages imported at server start"),
                        ("dashboard.py", "imported by the first visit, as before")):
        usable, everything, again = page_times(script)
        print(f"streamlit run {script} ({how}):")
        print(f"  walk-through usable, first visit of the server    {', '.join(f'{t:.1f}' for t in usable)}")
        print(f"  every section computed (as the page was before)    {', '.join(f'{t:.1f}' for t in everything)}")
        print(f"  walk-through usable, the next visitor              {', '.join(f'{t:.1f}' for t in again)}")
