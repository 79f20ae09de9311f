"""How long each computation of the Classroom page takes at its default settings, cold (no Streamlit cache), and
how soon a class can use the walk-through after opening the page.

No peer for the simulations: the question is whether each runs live in class (within a few seconds). Best of 3
runs, wall time. Then, in Debian's Chromium against a fresh server and a fresh browser profile, seconds from
opening /classroom to the walk-through's Draw button (no script running), its x table and its histogram, for
`streamlit run app.py` (the engine and the pages imported at server start), its next visitor, `streamlit run
dashboard.py` (the first visit imports them, as before), and the lecture's case: presenter mode, opened a second
time in the same browser; then, in the same run, the floor: a page of Streamlit alone (a title and the Draw
button), that page with the live chart's empty histogram (Plotly's basic bundle, 1.2 MB of JavaScript), which
no page that draws the histogram can beat, and the dashboard itself (its sidebar and navigation) with that first
page as its Classroom, which no page of the dashboard can beat. Last, how long the page took when every section was computed at once
(sections 3 to 6 switched on, cold), as it first did.

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


def frames(k: int, stop: int) -> None:
    pace = walkthrough.pace(k, walkthrough.LINE_PACE)  # the pace of a Draw k button: 1 is line by line
    x = teaching.draw_test_sets(A, B, stop)
    walkthrough.play(A, B, x, 0, detailed=pace.detailed, max_frames=pace.max_frames, shifted=True)


def three_tests(copies: int) -> None:
    a, b = list(A) * copies, list(B) * copies
    for test in lessons.THREE:
        sigcore.compare([1] * len(a), a, b, test=test, alternative="greater",
                        n_resamples=lessons.RESAMPLES, ci_method=None)


TASKS = {
    "walk-through: draw 10,000, Fast (frames)": lambda: frames(10_000, 10_000),
    "walk-through: draw 10 line by line (frames)": lambda: frames(1, 10),
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


STREAMLIT_ALONE = """import streamlit as st
st.title("Classroom: is A really better than B?")
st.button("Draw x⁽¹⁾")
"""
WITH_PLOTLY = STREAMLIT_ALONE + """import sys
sys.path.insert(0, {root!r})
import plotly.io
from ui import live_chart  # light; the walk-through's figure is made here, not by importing the pages on a visit
live_chart.live_chart(plotly.io.from_json({figure!r}), [], run="r", shown=None, interval=0.1, config={{}}, key="c")
"""
MILESTONES = ("Draw shown", "x table", "histogram")
IDLE = "() => !document.querySelector('[data-testid=stStatusWidget]')"  # no script running


def page_times(script: str, runs: int = 3, *, path: str = "classroom", sections: bool = False,
               returning: bool = False, milestones: tuple[str, ...] = MILESTONES) -> dict[str, list[float]]:
    """Seconds from opening ``path`` to each milestone (the Draw button shown and no script running; the
    walk-through's x row in the live chart's table; Plotly's histogram drawn), each run on a fresh server of
    `streamlit run script` (its first visit); with ``sections`` also to every section computed once switched on
    (as the page was at first) and the next visitor's milestones; with ``returning``, the milestones of a second
    opening in the same browser profile (the lecturer who tried the page before class: Streamlit's scripts, which
    never change within a version, come from the browser's cache)."""
    import socket
    import subprocess
    import urllib.request

    from playwright.sync_api import sync_playwright

    root = Path(__file__).resolve().parents[1]
    times: dict[str, list[float]] = {}

    def visit(context, port: int, prefix: str = ""):
        page = context.new_page()
        frame = page.frame_locator("iframe")
        start = time.perf_counter()
        page.goto(f"http://127.0.0.1:{port}/{path}")
        for name, ready in zip(MILESTONES, (
                lambda: (page.get_by_role("button", name="Draw x⁽¹⁾").wait_for(timeout=120_000),
                         page.wait_for_function(IDLE, timeout=120_000, polling=50)),
                lambda: frame.locator("#table tbody tr").first.wait_for(timeout=120_000),
                lambda: frame.locator(".js-plotly-plot .barlayer").first.wait_for(state="attached", timeout=120_000))):
            if name not in milestones:
                continue
            ready()
            times.setdefault(prefix + name, []).append(time.perf_counter() - start)
        return page

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
                context = browser.new_context(viewport={"width": 1280, "height": 720})
                page = visit(context, port, "first: " if returning else "")
                if returning:
                    page.close()
                    visit(context, port)
                if sections:
                    start = time.perf_counter()  # as the page was before: sections 3 to 6 computed at once, cold
                    for label in page.get_by_text("Show this section").all():
                        label.click()
                    page.wait_for_timeout(300)
                    page.wait_for_function(IDLE, timeout=300_000, polling=50)
                    times.setdefault("every section", []).append(
                        times["Draw shown"][-1] + time.perf_counter() - start)
                    visit(browser.new_context(viewport={"width": 1280, "height": 720}), port,
                          "next visitor: ")  # a new context: nothing cached in the browser
                browser.close()
        finally:
            server.terminate()
            server.wait()
    return times


def row(label: str, times: dict[str, list[float]], prefix: str = "") -> str:
    cells = [", ".join(f"{t:.1f}" for t in times[prefix + m]) if prefix + m in times else "" for m in MILESTONES]
    return f"| {label} | {' | '.join(cells)} |"


if __name__ == "__main__":
    import os
    import tempfile

    os.chdir(Path(__file__).resolve().parents[1])

    print("| computation (Classroom defaults) | seconds |\n|---|---|")
    for name, task in TASKS.items():
        print(f"| {name} | {best_of(task):.2f} |", flush=True)
    print("\nOpening /classroom in Chromium at 1280x720, seconds to each milestone (3 runs, each the first visit of a "
          "fresh server, a fresh browser profile):\n")
    print("| page | " + " | ".join(MILESTONES) + " |\n|---|---|---|---|")
    app = page_times("app.py", sections=True)
    print(row("`streamlit run app.py` (engine and pages imported at server start)", app), flush=True)
    print(row("the next visitor of the same server", app, "next visitor: "), flush=True)
    print(row("`streamlit run dashboard.py` (imported by the first visit, as before)", page_times("dashboard.py")),
          flush=True)
    print(row("presenter mode (?presenter=1), the browser's second opening of the page",
              page_times("app.py", path="classroom?presenter=1", returning=True)), flush=True)
    with tempfile.TemporaryDirectory() as folder:  # the floor: what Streamlit and Plotly take on their own
        for name, text, label, milestones in (
                ("alone.py", STREAMLIT_ALONE, "floor: Streamlit alone, a title and the Draw button", MILESTONES[:1]),
                ("plotly.py", WITH_PLOTLY, "floor: that, and the live chart's empty histogram", MILESTONES[::2])):
            script = Path(folder) / name
            script.write_text(text.format(root=str(Path(__file__).resolve().parents[1]), figure=walkthrough.histogram(
                0.2, shifted=False, presenter=False).to_json()))
            print(row(label, page_times(str(script), path="", milestones=milestones)), flush=True)
        shell = Path(folder) / "shell.py"  # the dashboard itself (sidebar, navigation), its Classroom that page
        shell.write_text(Path("dashboard.py").read_text().replace(
            '"app_pages/classroom.py"', f'{str(Path(folder) / "alone.py")!r}, url_path="classroom"').replace(
            '"app_pages/', f'"{Path.cwd() / "app_pages"}/'))
        print(row("floor: the dashboard (sidebar, navigation), its Classroom a title and the Draw button",
                  page_times(str(shell), milestones=MILESTONES[:1])), flush=True)
    print(f"\nEvery section computed once switched on (as the page first was, cold): "
          f"{', '.join(f'{t:.1f}' for t in app['every section'])} s")
