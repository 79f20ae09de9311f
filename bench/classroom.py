"""How long each computation of the Classroom page takes at its default settings, cold (no Streamlit cache), and
how soon a class can use the walk-through after opening the page, against the floor Streamlit sets.

No peer for the simulations: the question is whether each runs live in class (within a few seconds). Best of 3
runs, wall time. Then, in Debian's Chromium against a fresh server and a fresh browser profile, seconds from
opening /classroom to the walk-through's Draw button (no script running: usable), its x table and its histogram,
for `streamlit run app.py` (the engine and the pages imported at server start) and for presenter mode, opened a
first and a second time in the same browser; beside each, in the same round, the floor: a page of Streamlit alone (a
title and the Draw button) started the same way, which no page can beat. The rounds alternate the pages, so that a
machine's load weighs on each alike, and the ratio to the floor is the median of the rounds' ratios.

    python bench/classroom.py                 # computations, then 5 rounds of openings (about 6 minutes)
    python bench/classroom.py --rounds 9 --no-computations
    python bench/classroom.py --where         # where the opening's time goes: the server's runs, a Chromium trace
    python bench/classroom.py --sections      # also every section computed at once, as the page first did

"""

from __future__ import annotations

import contextlib
import logging
import socket
import subprocess
import sys
import time
import urllib.request
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
st.button("Draw x⁽¹⁾", key="walk-draw-1")
"""
IDLE = "() => !document.querySelector('[data-testid=stStatusWidget]')"  # no script running
FRAMES = "[...document.querySelectorAll('iframe')].some(f => f.contentDocument?.querySelector('{}'))"  # the chart's
READY = {  # each milestone's condition, in the page: the Draw button drawn (any language) and no script running; the
    # walk-through's x row in the live chart's table; Plotly's histogram drawn
    "Draw shown": "document.querySelector('.st-key-walk-draw-1 button')?.getBoundingClientRect().height > 0 && "
                  "!document.querySelector('[data-testid=stStatusWidget]')",
    "x table": FRAMES.format("#table:not([hidden]) tbody tr"),
    "histogram": FRAMES.format(".js-plotly-plot .barlayer"),
}
MILESTONES = tuple(READY)


def reached(page, milestone: str) -> float:
    """Seconds from the start of the page's navigation to when ``milestone`` first holds, on the page's own clock,
    checked at every frame it draws. Playwright's own waits retry at growing intervals, up to half a second: they
    put a page whose Draw button came at 1.25 s at 1.7 s, and a floor whose came early at its true time."""
    return page.wait_for_function(f"() => ({READY[milestone]}) && performance.now()", polling="raf",
                                  timeout=120_000).json_value() / 1000


def page_times(script: str, runs: int = 3, *, path: str = "classroom", sections: bool = False,
               returning: bool = False, milestones: tuple[str, ...] = MILESTONES) -> dict[str, list[float]]:
    """Seconds from opening ``path`` to each milestone (the Draw button shown and no script running; the
    walk-through's x row in the live chart's table; Plotly's histogram drawn), each run on a fresh server of
    `streamlit run script` (its first visit); with ``sections`` also to every section computed once switched on
    (as the page was at first) and the next visitor's milestones; with ``returning``, the milestones of a second
    opening in the same browser profile (the lecturer who tried the page before class: Streamlit's scripts, which
    never change within a version, come from the browser's cache)."""
    from playwright.sync_api import sync_playwright

    root = Path(__file__).resolve().parents[1]
    times: dict[str, list[float]] = {}

    def visit(context, port: int, prefix: str = ""):
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/{path}")
        for name in milestones:
            times.setdefault(prefix + name, []).append(reached(page, name))
        return page

    for _ in range(runs):
        with served(script, root, subprocess.DEVNULL) as port:
            with sync_playwright() as p:
                browser = chromium(p)
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
    return times


def row(label: str, times: dict[str, list[float]], prefix: str = "") -> str:
    cells = [", ".join(f"{t:.1f}" for t in times[prefix + m]) if prefix + m in times else "" for m in MILESTONES]
    return f"| {label} | {' | '.join(cells)} |"


PAGES = {  # label -> (script, path, milestones, returning); None: the floor's page, "shell": the dashboard's
    "floor: Streamlit alone, a title and the Draw button": (None, "", MILESTONES[:1], False),
    "the dashboard (app.py, sidebar, navigation), its Classroom that page": ("shell", "classroom", MILESTONES[:1],
                                                                            False),
    "`streamlit run app.py`, /classroom": ("app.py", "classroom", MILESTONES, False),
    "presenter mode (?presenter=1)": ("app.py", "classroom?presenter=1", MILESTONES, True),
}
FLOOR = next(iter(PAGES))


@contextlib.contextmanager
def served(script: str, root: Path, stderr):
    """A fresh Streamlit server of ``script`` on a free port, once it answers its health check: the port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", script, "--server.port", str(port),
                               "--server.headless", "true"], cwd=root, stdout=subprocess.DEVNULL,
                              stderr=stderr)  # no pipe: a full one would stall the server
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        yield port
    finally:
        server.terminate()
        server.wait()


def chromium(playwright):
    """Debian's headless Chromium, with the flags this machine's closed network needs."""
    return playwright.chromium.launch(executable_path="/usr/bin/chromium", args=[
        "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"])


def dashboard(alone: Path) -> str:
    """dashboard.py with ``alone`` as its Classroom, at the Classroom's URL (dashboard.py names that URL itself: a
    second url_path was a syntax error, and the dashboard's page never opened)."""
    script = Path("dashboard.py").read_text().replace('"app_pages/classroom.py"', repr(str(alone)))
    if 'url_path="classroom"' not in script:
        script = script.replace(repr(str(alone)), f'{str(alone)!r}, url_path="classroom"')
    return script.replace('"app_pages/', f'"{Path.cwd() / "app_pages"}/')


def scaffold(folder: Path) -> dict:
    """The floor's page and the dashboard around it, served by app.py as the real one is (its imports preloaded),
    written in ``folder``: {None: the floor's script, "shell": the dashboard's}."""
    alone, shell, shell_app = Path(folder) / "alone.py", Path(folder) / "shell.py", Path(folder) / "app.py"
    alone.write_text(STREAMLIT_ALONE)
    shell.write_text(dashboard(alone))
    shell_app.write_text(Path("app.py").read_text().replace('st.App("dashboard.py"', f'st.App({str(shell)!r}'))
    return {None: str(alone), "shell": str(shell_app)}


def openings(rounds: int) -> dict[str, dict[str, list[float]]]:
    """Each page of PAGES opened once a round on a fresh server, the pages alternating: {label: {milestone: [s]}}."""
    import tempfile

    seen: dict[str, dict[str, list[float]]] = {label: {} for label in PAGES}
    with tempfile.TemporaryDirectory() as folder:
        scripts = scaffold(Path(folder))
        for _ in range(rounds):
            for label, (script, path, milestones, returning) in PAGES.items():
                for name, times in page_times(scripts.get(script, script), runs=1, path=path, milestones=milestones,
                                              returning=returning).items():
                    seen[label].setdefault(name, []).extend(times)
    return seen


def ratios(seen: dict[str, dict[str, list[float]]], label: str, milestone: str = "Draw shown") -> list[float]:
    """Each round's time to ``milestone`` over that round's floor."""
    return [t / f for t, f in zip(seen[label][milestone], seen[FLOOR]["Draw shown"])]


KINDS = {  # Chromium's trace events by what the page's main thread does
    "script": ("FunctionCall", "EvaluateScript", "v8.compile", "v8.run", "TimerFire", "EventDispatch", "CompileScript",
               "FireAnimationFrame", "RunMicrotasks", "v8.evaluateModule", "v8.produceCache", "v8.callFunction"),
    "style": ("UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet", "ScheduleStyleRecalculation"),
    "layout": ("Layout",), "paint": ("Paint", "PrePaint", "Layerize", "UpdateLayer", "Commit"),
    "garbage collection": ("MajorGC", "MinorGC", "V8.GCScavenger", "V8.GC_MC_BACKGROUND_MARKING")}


def _union(spans: list[tuple[float, float]]) -> float:
    total, reach = 0.0, float("-inf")
    for low, high in sorted(spans):
        if high > reach:
            total += high - max(low, reach)
            reach = high
    return total


def trace_opening(script: str, path: str) -> dict:
    """One first visit of ``path`` on a fresh server of ``script`` (wrapped to time its script runs), traced by
    Chromium: seconds to usable, to the server's first and last message, of the first script run, and of the page's
    main threads' work up to usable (all of it, and by kind: each the union of its events' spans)."""
    import json
    import tempfile

    from playwright.sync_api import sync_playwright

    root = Path(__file__).resolve().parents[1]
    timer = f"""import sys, time
sys.path.insert(0, {str(root)!r})
from streamlit.runtime.scriptrunner import script_runner
_run = script_runner.ScriptRunner._run_script
def _timed(self, rerun_data):
    start, cpu = time.perf_counter(), time.thread_time()
    _run(self, rerun_data)
    print(f"script run: {{time.perf_counter() - start:.3f}} {{time.thread_time() - cpu:.3f}}", file=sys.stderr,
          flush=True)
script_runner.ScriptRunner._run_script = _timed
"""
    source = Path(script).read_text().replace('st.App("dashboard.py"', f'st.App({str(root / "dashboard.py")!r}')
    with tempfile.TemporaryDirectory() as folder:
        wrapped, log = Path(folder) / Path(script).name, Path(folder) / "server.log"
        wrapped.write_text(timer + source)
        with open(log, "w") as err, served(str(wrapped), root, err) as port:
            with sync_playwright() as p:
                browser = chromium(p)
                page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
                frames: list[float] = []
                page.on("websocket", lambda ws: ws.on("framereceived", lambda _: frames.append(time.perf_counter())))
                browser.start_tracing(page=page, categories=["devtools.timeline", "v8.execute", "toplevel"])
                start = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}/{path}")
                usable = reached(page, "Draw shown")
                trace = json.loads(browser.stop_tracing())
                browser.close()
        runs = [line.split(": ")[1].split() for line in log.read_text().splitlines() if line.startswith("script run")]
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    mains = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
             and e.get("args", {}).get("name") == "CrRendererMain"}
    spans = [(e["name"], e["ts"] / 1e6, (e["ts"] + e["dur"]) / 1e6) for e in events
             if (e.get("pid"), e.get("tid")) in mains and e.get("ph") == "X" and e.get("dur")]
    tasks = [e for e in events if (e.get("pid"), e.get("tid")) in mains and e.get("ph") == "X"
             and e.get("name") == "ThreadControllerImpl::RunTask"]  # top level: their thread time is the CPU used
    navigation = min((e["ts"] / 1e6 for e in events if e.get("name") in ("navigationStart", "NavigationStart")),
                     default=min(low for _, low, _ in spans))
    end = navigation + usable

    def busy(names=None) -> float:
        return _union([(low, min(high, end)) for name, low, high in spans
                       if low < end and (names is None or name in names)])
    return {"usable": usable, "first message": frames[0] - start if frames else float("nan"),
            "last message": frames[-1] - start if frames else float("nan"),
            "first script run": float(runs[0][0]) if runs else 0.0,
            "first script run, its thread's CPU": float(runs[0][1]) if runs else 0.0,
            "main threads busy (wall)": busy(),
            "main threads' CPU (top-level tasks)": sum(e.get("tdur", 0) for e in tasks
                                                       if e["ts"] / 1e6 < end) / 1e6,
            **{f"{kind} (wall)": busy(names) for kind, names in KINDS.items()}}


def where(rounds: int = 3) -> None:
    """Where the opening's time goes: the floor, the dashboard around that page, the walk-through and presenter mode,
    side by side, each traced ``rounds`` times (the medians printed; the pages alternating)."""
    import statistics
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        scripts = scaffold(Path(folder))
        pages = {"floor (Streamlit alone)": (scripts[None], ""), "the dashboard, its Classroom that page":
                 (scripts["shell"], "classroom"), "/classroom": ("app.py", "classroom"),
                 "/classroom?presenter=1": ("app.py", "classroom?presenter=1")}
        seen: dict[str, list[dict]] = {label: [] for label in pages}
        for _ in range(rounds):
            for label, (script, path) in pages.items():
                seen[label].append(trace_opening(script, path))
    names = list(seen["/classroom"][0])
    print(f"Medians of {rounds} traced first visits, seconds:\n")
    print("| seconds | " + " | ".join(seen) + " |\n|---|" + "---|" * len(seen))
    for name in names:
        print(f"| {name} | " + " | ".join(f"{statistics.median(one[name] for one in runs):.2f}"
                                        for runs in seen.values()) + " |")


if __name__ == "__main__":
    import argparse
    import os
    import statistics

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="openings of each page, alternating (default 5)")
    parser.add_argument("--no-computations", action="store_true", help="skip the computations' table")
    parser.add_argument("--sections", action="store_true", help="also every section computed at once (slow)")
    parser.add_argument("--where", action="store_true", help="only: where the opening's time goes (traced rounds)")
    options = parser.parse_args()
    os.chdir(Path(__file__).resolve().parents[1])
    if options.where:
        where(options.rounds)
        raise SystemExit
    if not options.no_computations:
        print("| computation (Classroom defaults) | seconds |\n|---|---|")
        for name, task in TASKS.items():
            print(f"| {name} | {best_of(task):.2f} |", flush=True)
    print(f"\nOpening /classroom in Chromium at 1280x720, seconds to each milestone ({options.rounds} rounds, "
          "each page the first visit of a fresh server in a fresh browser profile, the pages alternating):\n")
    seen = openings(options.rounds)
    print("| page | " + " | ".join(MILESTONES) + " |\n|---|---|---|---|")
    for label in PAGES:
        print(row(label, seen[label], "first: " if PAGES[label][3] else ""))
        if PAGES[label][3]:
            print(row(f"{label}, the browser's second opening", seen[label]))
    print("\nUsable (Draw shown, no script running) against the floor, median of the rounds' ratios (target 1.5x):\n")
    print("| page | median seconds | floor's median | ratio (median) | ratios by round |\n|---|---|---|---|---|")
    floor = statistics.median(seen[FLOOR]["Draw shown"])
    for label, prefix in [(page, first) for page in list(PAGES)[1:] for first in
                          (("first: ", "") if PAGES[page][3] else ("",))]:
        times = {"Draw shown": seen[label][prefix + "Draw shown"]}
        each = ratios({label: times, FLOOR: seen[FLOOR]}, label)
        name = label + (", first opening" if prefix else ", second opening" if PAGES[label][3] else "")
        print(f"| {name} | {statistics.median(times['Draw shown']):.2f} | {floor:.2f} | "
              f"{statistics.median(each):.2f}x | {', '.join(f'{r:.2f}' for r in each)} |")
    if options.sections:
        app = page_times("app.py", sections=True)
        print(f"\nEvery section computed once switched on (as the page first was, cold): "
              f"{', '.join(f'{t:.1f}' for t in app['every section'])} s")
