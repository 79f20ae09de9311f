"""How fast the dashboard animates a run, measured in a real headless Chromium.

    python bench/dashboard.py            # about 1 to 2 minutes on 2 cores; prints, does not assert

Starts ``streamlit run app.py`` on a free port (as tests/test_browser.py does), drives Debian's
/usr/bin/chromium with Playwright, and times the live run from the click on Run, with the page's own clock
(``performance.now()``): a MutationObserver notes when the progress text ("b = N of 10,000") and the plot's
title (which carries b) change. Cases:

1. accuracy, paired bootstrap, b = 10^4 on an uploaded CSV of 10^4 items (3 labels, A ~72%, B ~70% right),
   default settings ("Fast (25 frames)": about 25 frames);
2. BLEU on the sample "WMT17 en-de, 500 segments: BLEU", b = 10^4, for information.

Each is run 3 times (min and median printed). One more, untimed, run of case 1 takes the screenshots
(bench/results/, git-ignored): after the 5th frame and at the end. Last, the Python side alone: the time of
``sigcore.stream`` per block, ``delta_histogram`` and the figure's serialisation (what ``st.plotly_chart``
does) per frame, without Streamlit or a browser.
"""

from __future__ import annotations

import io
import math
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # sigcore and ui, as `streamlit run app.py` finds them
RESULTS = ROOT / "bench" / "results"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
N_ITEMS, B, REPEATS = 10_000, 10_000, 3
BLEU_SAMPLE = "WMT17 en-de, 500 segments: BLEU"
LAST = f"b = {B:,} of {B:,}"

# Installed before each click: records (time, text) whenever the progress text or the plot title changes.
OBSERVE = """() => {
  if (window.__obs) window.__obs.disconnect();
  // the live chart is a component: a same-origin iframe that plays the frames with Plotly.react
  const chart = () => { const f = document.querySelector('iframe[title*="live_chart"]');
                        return f && f.contentDocument && f.contentDocument.body ? f.contentDocument : null; };
  const progress = () => { const d = chart(), e = d && d.getElementById('count');
                           return e && e.textContent ? e.textContent.trim() : null; };
  const title = () => { const d = chart(), e = d && d.querySelector('.js-plotly-plot');
                        const t = e && e.querySelector('.gtitle');
                        return t && e.querySelector('.bars .point') ? t.textContent : null; };
  const rec = window.__bench = {t0: null, progress: [], plot: []};
  let p = progress(), t = title();
  window.__obs = new MutationObserver(() => {
    const now = performance.now();
    const p2 = progress(), t2 = title();
    if (p2 !== p) { p = p2; if (p2) rec.progress.push([now, p2]); }
    if (t2 !== t) { t = t2; rec.plot.push([now, t2]); }  // null: no histogram of this run on the page
  });
  const watch = {subtree: true, childList: true, characterData: true, attributes: true};
  window.__obs.observe(document.body, {...watch, attributeFilter: ['data-stale']});
  if (chart()) window.__obs.observe(chart().body, watch);
}"""
CLICK_RUN = """() => {
  const run = [...document.querySelectorAll('[data-testid="stButton"] button')]
    .find(b => b.innerText.trim() === 'Run');
  window.__bench.t0 = performance.now();
  run.click();
}"""
# Done: the last frame was seen after the click, the script stopped running, and a fresh verdict is shown.
DONE = """(last) => window.__bench.progress.some(([, s]) => s === last)
  && !document.querySelector('[data-testid="stStatusWidget"]')
  && [...document.querySelectorAll('[data-testid="stElementContainer"][data-stale="false"]')]
       .some(e => e.innerText.includes('significant at α'))"""


def make_csv(n: int = N_ITEMS, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    labels = np.array(["neg", "neu", "pos"])
    gold = rng.integers(0, 3, n)

    def system(p_right: float) -> np.ndarray:
        wrong = (gold + rng.integers(1, 3, n)) % 3  # a different label
        return np.where(rng.random(n) < p_right, gold, wrong)

    a, b = system(0.72), system(0.70)
    out = io.StringIO()
    out.write("id,gold,A,B\n")
    for i in range(n):
        out.write(f"item{i},{labels[gold[i]]},{labels[a[i]]},{labels[b[i]]}\n")
    return out.getvalue().encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app() -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise RuntimeError("streamlit did not start: " + proc.stdout.read1().decode(errors="replace"))


def open_upload(browser, url: str, csv: bytes):
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    page.goto(url)
    page.get_by_text("Upload", exact=True).click()
    page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(
        {"name": "bench.csv", "mimeType": "text/csv", "buffer": csv})
    page.get_by_text(f"{N_ITEMS:,} items from ").wait_for(timeout=60_000)  # the upload's caption, not the advice
    page.get_by_role("button", name="Run", exact=True).wait_for(timeout=60_000)
    return page


def open_bleu(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    page.goto(url)
    page.get_by_text("500 items from ").wait_for(timeout=60_000)  # the page opens on the WMT17 BLEU sample
    page.get_by_role("button", name="Run", exact=True).wait_for(timeout=60_000)
    page.get_by_text("BLEU tokenizer").wait_for(timeout=60_000)
    return page


def one_run(page, shots: str | None = None) -> dict:
    page.frame_locator("iframe[title*=live_chart]").locator(".js-plotly-plot").wait_for(timeout=60_000)
    page.evaluate(OBSERVE)
    page.evaluate(CLICK_RUN)
    if shots:
        page.wait_for_function("() => window.__bench.progress.length >= 5", polling="raf", timeout=60_000)
        page.screenshot(path=RESULTS / f"{shots}_frame5.png", full_page=True)
    page.wait_for_function(DONE, arg=LAST, polling="raf", timeout=120_000)
    t_done = page.evaluate("performance.now()")
    if shots:
        page.screenshot(path=RESULTS / f"{shots}_end.png", full_page=True)
    rec = page.evaluate("window.__bench")
    t0 = rec["t0"]
    prog, states = rec["progress"], rec["plot"]
    plot = [(t, s) for t, s in states if s]
    last = next((t for t, s in prog if s == LAST), math.nan)
    last_plot = next((t for t, s in plot if s.endswith(f"b = {B:,}")), math.nan)
    # time with no histogram of this run shown, between its first and its last frame
    blank = sum(t2 - t1 for (t1, s), (t2, _) in zip(states, states[1:])
                if s is None and plot and plot[0][0] <= t1 < last_plot)
    return {"first plot": (plot[0][0] - t0) / 1e3 if plot else math.nan,
            "first progress": (prog[0][0] - t0) / 1e3 if prog else math.nan,
            "last progress": (last - t0) / 1e3,
            "last plot": (last_plot - t0) / 1e3,
            "verdict": (t_done - t0) / 1e3,
            "blank": blank / 1e3,
            "blanks": sum(1 for t, s in states if s is None and plot and plot[0][0] <= t < last_plot),
            "frames": len({s for _, s in prog}),
            "plot frames": len({s.rsplit("b = ", 1)[-1] for _, s in plot}),
            "texts": [s for _, s in prog]}


def report(name: str, runs: list[dict]) -> None:
    print(f"\n{name}: {len(runs)} runs")
    print(f"  {'figure':<42}{'min':>8}{'median':>8}{'max':>8}   runs")
    for key, label in [("first plot", "first histogram frame (s)"), ("first progress", "first progress text (s)"),
                       ("last plot", "last histogram frame, b = 10,000 (s)"),
                       ("last progress", "last progress text (s)"),
                       ("verdict", "verdict seen, script done (s)"),
                       ("blank", "histogram missing, 1st to last frame (s)"),
                       ("blanks", "times the histogram went blank"),
                       ("frames", "distinct progress texts"), ("plot frames", "distinct histogram frames")]:
        xs = [r[key] for r in runs]
        fmt = "{:8.0f}" if key.endswith(("frames", "blanks")) else "{:8.2f}"
        print(f"  {label:<42}" + "".join(fmt.format(f(xs)) for f in (min, statistics.median, max))
              + "   " + ", ".join(fmt.format(x).strip() for x in xs))
    print("  progress texts of the last run: " + " | ".join(t.removeprefix("b = ").removesuffix(f" of {B:,}")
                                                          for t in runs[-1]["texts"]))


def python_side(csv: bytes) -> None:
    """What Run costs on the page's side before the browser plays anything: the whole run from
    ``sigcore.stream`` (``ui.run.run_stream``), the chart and its frames (``ui.run.chart_frames``), and the JSON the
    live chart component is sent."""
    import json

    from sigcore.io import load
    from sigcore.io.inputs import read
    from ui import run as ui_run
    from ui.data import SAMPLE_DIR, SAMPLES

    files, roles = SAMPLES[BLEU_SAMPLE]
    cases = [("accuracy, n = 10^4", [read(csv, name="bench.csv")], {}, "accuracy", ()),
             ("BLEU, WMT17 500 segments", [read((SAMPLE_DIR / f).read_bytes(), name=Path(f).name) for f in files],
              roles, "bleu", (("tokenize", "13a"),))]
    print("\nPython side alone (ui.run without Streamlit or a browser), best of 3 runs, seconds:")
    print(f"  {'case':<26}{'resample':>10}{'frames':>9}{'to_json':>9}{'total':>8}")
    for name, tables, kw, metric, options in cases:
        data = load(tables, **kw)
        settings = ui_run.Settings(metric, "bootstrap", "greater", B, 0, alpha=0.05, speed="Fast (25 frames)",
                                   options=options)
        best = None
        for _ in range(3):
            t0 = time.perf_counter()
            partials = list(ui_run.run_stream(data, settings))
            t1 = time.perf_counter()
            figure, frames = ui_run.chart_frames(partials, settings)
            t2 = time.perf_counter()
            figure.to_json(), json.dumps(frames)
            t3 = time.perf_counter()
            row = (t1 - t0, t2 - t1, t3 - t2, t3 - t0, len(frames))
            best = row if best is None or row[3] < best[3] else best
        print(f"  {name:<26}{best[0]:10.3f}{best[1]:9.3f}{best[2]:9.3f}{best[3]:8.2f}   ({best[4]} frames)")


def main() -> None:
    import plotly
    import streamlit
    from playwright.sync_api import sync_playwright

    RESULTS.mkdir(parents=True, exist_ok=True)
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"streamlit {streamlit.__version__}, plotly {plotly.__version__}, "
          + subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip())
    csv = make_csv()
    proc, url = start_app()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"])
            page = open_upload(browser, url, csv)
            runs = [one_run(page) for _ in range(REPEATS)]
            one_run(page, shots="accuracy")
            page.close()
            report(f"accuracy, bootstrap, n = {N_ITEMS:,} (upload), b = {B:,}, 'Fast (25 frames)'", runs)
            page = open_bleu(browser, url)
            runs = [one_run(page) for _ in range(REPEATS)]
            one_run(page, shots="bleu")
            page.close()
            report(f"BLEU, bootstrap, {BLEU_SAMPLE!r}, b = {B:,}", runs)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    print("\nRequirement: first frame <= 1 s, last frame <= 3 s, >= 20 intermediate frames (accuracy case).")
    print(f"Screenshots: {RESULTS.relative_to(ROOT)}/{{accuracy,bleu}}_{{frame5,end}}.png")
    python_side(csv)


if __name__ == "__main__":
    main()
