"""Eight users at once on the dashboard: isolation, server memory, and another user's page load.

    python bench/load.py    # about 5 minutes on 2 cores (2.5 of them waiting on memory); prints, does not assert
    PYTHONMALLOC=malloc python bench/load.py    # the server's small objects from glibc (the environment is passed on)

Starts ``streamlit run app.py`` on a free port (as bench/dashboard.py does) and drives Debian's /usr/bin/chromium
with Playwright (async API, one browser, one context per user). What it measures:

1. Isolation. 8 sessions each upload a different generated CSV (id,gold,A,B; 20,000 to 48,000 items, their own
   seed and accuracies), choose the paired bootstrap (McNemar's test, recommended for accuracy, resamples nothing)
   and press Run at the same moment with the other defaults (accuracy, b = 10,000, seed 0, H1 two-sided,
   alpha = 0.05). The server's queue runs them in turn; each page says how many runs are ahead while it waits.
   Each page must show its own verdict: the sentence
   ``sigcore.report.verdict(sigcore.compare(...), a="A", b="B")`` (the page names a system "A" when its column
   is called A, see ui/verdict.py ``_role``) and its own ``res.signature`` in the code block, and none of the
   other seven's. This is done in 3 rounds (Run pressed again on all 8 pages), so that each loaded page load
   below overlaps the heavy runs.
2. Memory. RSS of the server process and its children (from /proc), sampled every 0.2 s: at start, just before
   the first round, peak during the rounds, and 30 s and 150 s after every page is closed (Streamlit keeps a
   disconnected session for server.disconnectedSessionTTL = 120 s by default); beside it, what Streamlit itself
   counts (/_stcore/metrics: st.cache_data bytes, keys in connected sessions' state).
3. Another user's page. A fresh browser context opens the Compare page (it opens on the WMT17 BLEU sample):
   time from navigation to the Run button visible; to "verdict-ready" (the sample's settings drawn with
   "bootstrap (recommended)", the live chart drawn, no script running: Run would now give a verdict); and,
   pressing Run then, to the sample's verdict on screen. Once on an idle server (the 8 pages open, not running)
   and once started right after the 8 clicks of a round, alternately, 3 times each; medians printed. Also the
   time of one plain HTTP GET of /_stcore/health sent as the page starts loading: the server without a browser.
4. Stop: a long family on the Many page, stopped by Streamlit's Stop 4 s after Run; the server's cores busy before
   and in the 3 s windows after it (the memory readings after closing come after this too).

Browser and server share this machine's cores, so "load" includes Chromium playing 8 animations: the rounds'
table prints the cores kept busy by the server, by the browser side, and by the whole machine.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # sigcore, as `streamlit run app.py` finds it
sys.path.insert(0, str(ROOT / "bench"))  # the page probes of bench/dashboard.py

import sigcore  # noqa: E402
from dashboard import CHROMIUM, CLICK_RUN, DONE, LAST, OBSERVE  # noqa: E402

B = 10_000  # the page's default b
ROUNDS = 3  # median of 3 loads, idle and loaded
SAMPLE_EVERY = 0.2  # seconds between memory samples
AFTER_CLOSE = (30, 150)  # seconds after closing every page when memory is read
LABELS = np.array(["neg", "neu", "pos"])
# one per session: (items, seed, accuracy of A, accuracy of B); different sizes and gaps give different verdicts
SESSIONS = [(20_000, 11, 0.72, 0.70), (24_000, 12, 0.70, 0.71), (28_000, 13, 0.80, 0.79), (32_000, 14, 0.65, 0.65),
            (36_000, 15, 0.90, 0.88), (40_000, 16, 0.60, 0.61), (44_000, 17, 0.75, 0.745), (48_000, 18, 0.85, 0.80)]
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1280, "height": 2000}
TIMEOUT = 120_000  # ms: generous, a loaded 2-core machine is slow, a hang still ends the run
# The page is idle and fully drawn: the recommended test chosen, the chart's plot drawn, no script running.
READY = """() => {
  const test = document.querySelector('input[aria-label="Test"]');
  const f = document.querySelector('iframe[title*="live_chart"]');
  const plot = f && f.contentDocument && f.contentDocument.querySelector('.js-plotly-plot .main-svg');
  return !!(test && test.value.startsWith('bootstrap') && plot
            && !document.querySelector('[data-testid="stStatusWidget"]'));
}"""
# An upload's page is idle, its test chosen: its chart says "Press Run" until the first run, with no plot yet.
UPLOADED = """() => {
  const test = document.querySelector('input[aria-label="Test"]');
  return !!(test && test.value.startsWith('bootstrap') && document.querySelector('iframe[title*="live_chart"]')
            && !document.querySelector('[data-testid="stStatusWidget"]'));
}"""
# What a page shows as verdict: every success/info sentence and every code block that is not stale.
SHOWN = """() => {
  const fresh = sel => [...document.querySelectorAll(sel)]
    .filter(e => !e.closest('[data-stale="true"]')).map(e => e.innerText.trim());
  return {alerts: fresh('[data-testid="stAlert"]'), codes: fresh('[data-testid="stCode"]')};
}"""


def make_csv(n: int, seed: int, p_a: float, p_b: float) -> tuple[bytes, tuple[list, list, list]]:
    """A 3-label classification test set: the CSV bytes and the (gold, A, B) columns it holds."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)

    def system(p_right: float) -> np.ndarray:
        wrong = (gold + rng.integers(1, 3, n)) % 3  # a different label
        return np.where(rng.random(n) < p_right, gold, wrong)

    a, b = system(p_a), system(p_b)
    columns = (LABELS[gold].tolist(), LABELS[a].tolist(), LABELS[b].tolist())
    out = io.StringIO()
    out.write("id,gold,A,B\n")
    for i, (g, x, y) in enumerate(zip(*columns)):
        out.write(f"item{i},{g},{x},{y}\n")
    return out.getvalue().encode(), columns


def role(role_name: str, name: str) -> str:
    """How ui/verdict.py names a system in the sentence: "A" for a column called A, else "A (name)"."""
    return role_name if name == role_name else f"{role_name} ({name})"


def expected(columns) -> tuple[str, str]:
    """The verdict sentence and signature the page should show, from the engine with the page's defaults."""
    gold, a, b = columns
    res = sigcore.compare(gold, a, b, metric="accuracy", test="bootstrap", n_resamples=B, alpha=0.05, seed=0)
    return sigcore.report.verdict(res, a=role("A", "A"), b=role("B", "B")), res.signature


def one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# --- the server and its memory ---------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(log) -> tuple[subprocess.Popen, str]:
    """As bench/dashboard.py, but the server logs to a file: an unread pipe could fill and stall it."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise RuntimeError("streamlit did not start; see " + log.name)


def family(root_pid: int) -> set[int]:
    """A process and all its descendants, from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:  # the process just ended
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])  # after the name, which may hold spaces
    members, todo = set(), [root_pid]
    while todo:
        pid = todo.pop()
        members.add(pid)
        todo += [child for child, parent in parents.items() if parent == pid and child not in members]
    return members


def tree_rss(root_pid: int) -> int:
    """RSS in bytes of a process and all its descendants."""
    total = 0
    for pid in family(root_pid):
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration):  # ended, or a zombie without VmRSS
            pass
    return total


def tree_cpu(root_pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and its living descendants."""
    total = 0
    for pid in family(root_pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of stat
        except OSError:
            pass
    return total / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, summed over cores, from /proc/stat."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK"), sum(ticks) / os.sysconf("SC_CLK_TCK")


def streamlit_bytes(url: str) -> dict[str, int]:
    """Streamlit's own accounting (/_stcore/metrics): bytes held in st.cache_data, and the keys in the state of
    the connected sessions (by default Streamlit counts keys there, not bytes)."""
    text = urllib.request.urlopen(url + "/_stcore/metrics", timeout=60).read().decode()
    held = {"session state": 0, "st.cache_data": 0}
    for line in text.splitlines():
        if line.startswith("cache_memory_bytes{"):
            kind = "session state" if 'cache_type="st_session_state"' in line else "st.cache_data"
            held[kind] += int(float(line.rsplit(" ", 1)[1]))
    return held


class MemorySampler(threading.Thread):
    """Samples the server's tree RSS every SAMPLE_EVERY seconds into (perf_counter time, bytes)."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.samples, self.stopping = pid, [], threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.samples.append((time.perf_counter(), tree_rss(self.pid)))
            self.stopping.wait(SAMPLE_EVERY)

    def now(self) -> int:
        """A fresh reading (a marker in the timeline does not wait for the next sample)."""
        value = tree_rss(self.pid)
        self.samples.append((time.perf_counter(), value))
        return value

    def peak(self, start: float, end: float) -> int:
        return max(v for t, v in self.samples if start <= t <= end)


# --- the browser side -------------------------------------------------------------------------------------

async def open_session(browser, url: str, csv: bytes, n: int):
    """A user of their own (a browser context) with their CSV uploaded and Run ready."""
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    await page.goto(url)
    await page.get_by_role("button", name="Run", exact=True).wait_for(timeout=TIMEOUT)  # 8 pages load at once
    await page.get_by_text("Upload", exact=True).click(timeout=TIMEOUT)
    await page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(
        {"name": f"load_{n}.csv", "mimeType": "text/csv", "buffer": csv}, timeout=TIMEOUT)
    await page.get_by_text(f"{n:,} items from ").wait_for(timeout=TIMEOUT)  # the upload's caption, not the advice
    await page.get_by_role("combobox", name="Test", exact=True).click(timeout=TIMEOUT)  # McNemar's resamples nothing
    await page.get_by_role("option", name="bootstrap", exact=True).click(timeout=TIMEOUT)
    await page.get_by_role("button", name="Run", exact=True).wait_for(timeout=TIMEOUT)
    await page.wait_for_function(UPLOADED, timeout=TIMEOUT)  # its reruns over, so the idle reading is idle
    return context, page


async def click_run(page) -> None:
    await page.evaluate(OBSERVE)  # records the run's progress texts, so DONE knows this run (not the last) ended
    await page.evaluate(CLICK_RUN)


async def wait_run(page, t_click: float) -> float:
    """Seconds from the click to this run's verdict on screen."""
    await page.wait_for_function(DONE, arg=LAST, polling=100, timeout=TIMEOUT)  # 100 ms: not tied to frames
    return time.perf_counter() - t_click


async def probe(browser, url: str, run: bool = True) -> dict:
    """Another user opens the page: seconds to Run visible, to verdict-ready, and (``run``) to the sample's
    verdict; under "at", the perf_counter time of each mark."""
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    # the server alone, without the browser: one plain HTTP request, sent as the page starts loading
    health = asyncio.create_task(asyncio.to_thread(http_seconds, url + "/_stcore/health"))
    t0 = time.perf_counter()
    await page.goto(url)
    await page.get_by_role("button", name="Run", exact=True).wait_for(timeout=TIMEOUT)
    t_run = time.perf_counter()
    await page.wait_for_function(READY, polling=50, timeout=TIMEOUT)
    t_ready = time.perf_counter()
    marks = {"run visible": t_run, "verdict-ready": t_ready}
    if run:
        await click_run(page)
        await page.wait_for_function(DONE, arg=LAST, polling=50, timeout=TIMEOUT)
        marks["sample verdict"] = time.perf_counter()
    await context.close()
    return {**{name: t - t0 for name, t in marks.items()}, "at": marks, "start": t0, "health": await health}


async def stop_on_many(browser, url: str, pid: int) -> dict:
    """A long family on the Many page (20 systems, 9,500 items, every pair, the paired bootstrap), stopped after 2 s
    of running: the server's cores busy in the 2 s before the Stop and in each of the 3 s windows after it."""
    rng = np.random.default_rng(7)
    gold = rng.integers(0, 3, 9_500)  # just inside the server's budget: the longest run a page may start
    columns = {f"sys{k}": np.where(rng.random(gold.size) < 0.6 + k / 100, gold, (gold + 1) % 3) for k in range(20)}
    table = "id,gold," + ",".join(columns) + "\n" + "".join(
        f"{i},{g}," + ",".join(str(c[i]) for c in columns.values()) + "\n" for i, g in enumerate(gold))
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    await page.goto(url + "/many")
    await page.get_by_role("button", name="Run", exact=True).wait_for(timeout=TIMEOUT)
    await page.get_by_text("Upload", exact=True).first.click(timeout=TIMEOUT)
    await page.locator('[data-testid="stFileUploader"] input[type=file]').first.set_input_files(
        {"name": "family.csv", "mimeType": "text/csv", "buffer": table.encode()}, timeout=TIMEOUT)
    await page.get_by_text("9,500 items").first.wait_for(timeout=TIMEOUT)
    await page.get_by_text("All pairs (and the ranking)").click(timeout=TIMEOUT)
    await page.get_by_role("combobox", name="Test", exact=True).click(timeout=TIMEOUT)  # McNemar's resamples nothing
    await page.get_by_role("option", name="bootstrap", exact=True).click(timeout=TIMEOUT)
    await asyncio.sleep(3)  # its reruns over
    await page.get_by_role("button", name="Run", exact=True).click(timeout=TIMEOUT)
    await page.get_by_role("button", name="Stop").wait_for(timeout=TIMEOUT)  # the run has started
    before = tree_cpu(pid), time.perf_counter()
    await asyncio.sleep(2)
    windows = [(tree_cpu(pid) - before[0]) / (time.perf_counter() - before[1])]
    await page.get_by_role("button", name="Stop").dispatch_event("click", timeout=TIMEOUT)  # Streamlit's own (header)
    for _ in range(3):
        cpu, t = tree_cpu(pid), time.perf_counter()
        await asyncio.sleep(3)
        windows.append((tree_cpu(pid) - cpu) / (time.perf_counter() - t))
    await context.close()
    return {"cores": windows}


def http_seconds(address: str) -> float:
    t0 = time.perf_counter()
    urllib.request.urlopen(address, timeout=60).read()
    return time.perf_counter() - t0


async def round_of_runs(browser, url, sessions, sentences, signatures) -> tuple[list, dict, list]:
    """Run pressed on all 8 pages at once, a new user opening the page meanwhile; checks every verdict."""
    t_click = time.perf_counter()
    await asyncio.gather(*(click_run(page) for _, page in sessions))
    runs = asyncio.gather(*(wait_run(page, t_click) for _, page in sessions))
    loaded = await probe(browser, url)  # started with the runs: it overlaps them from its first request
    seconds = await runs
    end_times = [t_click + s for s in seconds]
    # how many heavy runs were still in flight when the loaded page reached each mark
    loaded["in flight"] = {name: sum(t < end for end in end_times) for name, t in loaded["at"].items()}
    loaded["after click"] = loaded["start"] - t_click
    checks = []
    for i, (_, page) in enumerate(sessions):
        shown = await page.evaluate(SHOWN)
        alerts = [one_line(a) for a in shown["alerts"]]
        codes = [one_line(c) for c in shown["codes"]]
        own = one_line(sentences[i]) in alerts and signatures[i] in codes
        others = [j for j in range(len(sessions)) if j != i
                  and (one_line(sentences[j]) in alerts or signatures[j] in codes)]
        checks.append({"own": own, "others": others, "alerts": alerts})
    return seconds, loaded, checks


async def bench(url: str, sampler: MemorySampler, data: list) -> dict:
    from playwright.async_api import async_playwright

    sentences, signatures = zip(*(expected(columns) for _, columns in data))
    assert len(set(sentences)) == len(sentences), "two generated sessions share a verdict: change SESSIONS"
    out = {"idle": [], "loaded": [], "runs": [], "checks": [], "windows": [], "cpu": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        # the first page a server serves imports plotly, pandas, sigcore...: not counted
        out["warm-up"] = await probe(browser, url, run=False)
        await asyncio.sleep(1)
        out["rss warm"] = sampler.now()
        sessions = []  # opened one after another: 8 uploads at once lost one on 2 cores; the runs are concurrent
        for (csv, _), (n, *_) in zip(data, SESSIONS):
            sessions.append(await open_session(browser, url, csv, n))
        await asyncio.sleep(2)  # let the uploads' reruns end before the idle reading
        out["rss before"], out["held before"] = sampler.now(), streamlit_bytes(url)
        for _ in range(ROUNDS):
            out["idle"].append(await probe(browser, url))  # the 8 pages are open and idle
            start, machine = time.perf_counter(), machine_busy()
            server_cpu, ours_cpu = tree_cpu(sampler.pid), tree_cpu(os.getpid())
            seconds, loaded, checks = await round_of_runs(browser, url, sessions, sentences, signatures)
            end, machine2 = time.perf_counter(), machine_busy()
            server_cpu2, ours_cpu2 = tree_cpu(sampler.pid), tree_cpu(os.getpid())
            out["windows"].append((start, end))
            # cores kept busy during the round: by the server; by Chromium, Playwright and this script (our process
            # tree minus the server, which is our child); and by the whole machine
            server = (server_cpu2 - server_cpu) / (end - start)
            out["cpu"].append((server, (ours_cpu2 - ours_cpu) / (end - start) - server,
                               (machine2[0] - machine[0]) / (machine2[1] - machine[1]) * os.cpu_count()))
            out["runs"].append(seconds)
            out["loaded"].append(loaded)
            out["checks"].append(checks)
        out["rss end of runs"], out["held end of runs"] = sampler.now(), streamlit_bytes(url)
        for context, page in sessions:
            await page.close()
            await context.close()
        out["stop"] = await stop_on_many(browser, url, sampler.pid)
        await browser.close()
    out["closed at"] = time.perf_counter()
    out["rss closed"] = sampler.now()
    return out


def mb(n: int) -> str:
    return f"{n / 2**20:,.0f} MB"


def main() -> None:
    from importlib.metadata import version

    import streamlit

    t_start = time.perf_counter()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"streamlit {streamlit.__version__}, playwright {version('playwright')}, "
          + subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip())
    data = [make_csv(*spec) for spec in SESSIONS]
    log = tempfile.NamedTemporaryFile("w+b", prefix="sigcore-load-", suffix=".log", delete=False)
    proc, url = start_app(log)
    sampler = MemorySampler(proc.pid)
    sampler.start()
    try:
        time.sleep(1)
        rss_start = sampler.now()
        out = asyncio.run(bench(url, sampler, data))
        after = {}
        for wait in AFTER_CLOSE:  # pages closed: does the server give the memory back?
            time.sleep(max(0.0, out["closed at"] + wait - time.perf_counter()))
            after[wait] = sampler.now()
        out["held after"] = streamlit_bytes(url)  # were the sessions dropped, what do the caches keep?
    finally:
        sampler.stopping.set()
        proc.terminate()
        proc.wait(timeout=20)
    peak = max(sampler.peak(a, b) for a, b in out["windows"])
    total = time.perf_counter() - t_start
    report(out, rss_start, peak, after, total, log.name)


def report(out: dict, rss_start: int, peak: int, after: dict, total: float, log: str) -> None:
    n_sessions = len(SESSIONS)
    sizes = ", ".join(f"{n // 1000}k" for n, *_ in SESSIONS)
    print(f"\nCores: {os.cpu_count()}. {n_sessions} sessions at once ({sizes} items), b = {B:,}, {ROUNDS} rounds. "
          f"Whole benchmark: {total:.0f} s.")

    print("\nRounds: Run pressed on the 8 pages at t = 0, then the loaded page opened (seconds after t = 0)")
    print(f"  {'round':<7}{'8 runs: click to verdict':>26}{'loaded page opened, Run, ready':>33}"
          f"{'cores busy: server / browser / all':>37}")
    for r, (runs, loaded, (server, client, machine)) in enumerate(zip(out["runs"], out["loaded"], out["cpu"]), 1):
        spread = f"{min(runs):.1f} to {max(runs):.1f}"
        start = loaded["after click"]
        marks = f"{start:.1f}, {start + loaded['run visible']:.1f}, {start + loaded['verdict-ready']:.1f}"
        print(f"  {r:<7}{spread:>26}{marks:>33}{f'{server:.2f} / {client:.2f} / {machine:.2f}':>37}")
    print("  (browser: Chromium, the Playwright driver and this script, sampler included)")
    print("  heavy runs still in flight when the loaded page showed Run, per round: "
          + ", ".join(f"{r['in flight']['run visible']}/{n_sessions}" for r in out["loaded"]))

    cores = out["stop"]["cores"]
    print(f"\nStop on the Many page (20 systems x 9,500 items, every pair): the server's cores busy {cores[0]:.2f} in "
          f"the 2 s before Stop; {', '.join(f'{c:.2f}' for c in cores[1:])} in the 3 s windows after it")
    print("\nServer memory (RSS of streamlit and its children, sampled every 0.2 s)")
    rows = [("at start, no page served yet", rss_start), ("after one page (imports done), closed", out["rss warm"]),
            ("before the runs (8 CSVs uploaded)", out["rss before"]), ("peak during the runs", peak),
            ("end of the runs, pages still open", out["rss end of runs"]),
            ("right after closing every page", out["rss closed"])]
    rows += [(f"{wait} s after closing every page", after[wait]) for wait in AFTER_CLOSE]
    for label, value in rows:
        print(f"  {label:<42}{mb(value):>10}")
    last, before, warm = after[AFTER_CLOSE[-1]], out["rss before"], out["rss warm"]
    returned = last - warm <= 0.1 * (peak - warm)  # back within 10% of what the sessions added
    print(f"  memory returns? {'yes' if returned else 'no'}: {AFTER_CLOSE[-1]} s after closing every page, "
          f"{mb(last)}: {(last - warm) / 2**20:+,.0f} MB vs one page served, {(last - before) / 2**20:+,.0f} MB vs "
          f"before the runs; {(peak - last) / 2**20:,.0f} of the {(peak - warm) / 2**20:,.0f} MB the sessions and "
          "runs added were given back.")

    held = [("before the runs", out["held before"]), ("end of the runs", out["held end of runs"]),
            (f"{AFTER_CLOSE[-1]} s after closing", out["held after"])]
    print("  Streamlit's own count (/_stcore/metrics), st.cache_data / keys in connected sessions' state: "
          + "; ".join(f"{label} {h['st.cache_data'] / 2**20:.1f} MB / {h['session state']}" for label, h in held))

    print("\nAnother user's Compare page (fresh context, WMT17 BLEU sample), seconds from navigation, "
          f"median of {ROUNDS} [each]")
    print(f"  {'to':<22}{'idle server':>26}{'8 runs in flight':>30}{'ratio':>8}")
    for mark, label, unit in [("run visible", "Run visible", 1), ("verdict-ready", "verdict-ready", 1),
                              ("sample verdict", "sample's verdict", 1), ("health", "health GET (ms)", 1000)]:
        idle = [r[mark] * unit for r in out["idle"]]
        loaded = [r[mark] * unit for r in out["loaded"]]
        cell = lambda xs: f"{statistics.median(xs):.2f} [{', '.join(f'{x:.1f}' for x in xs)}]"  # noqa: E731
        print(f"  {label:<22}{cell(idle):>26}{cell(loaded):>30}"
              f"{statistics.median(loaded) / statistics.median(idle):>7.1f}x")
    print("  (health: a plain HTTP GET of /_stcore/health, without the browser, sent as the page starts loading)")
    print(f"  (the server's first page, not counted: Run visible {out['warm-up']['run visible']:.2f} s, "
          f"verdict-ready {out['warm-up']['verdict-ready']:.2f} s)")

    print("\nVerdicts (round 1, and any failure)")
    ok = True
    for r, checks in enumerate(out["checks"], 1):
        for i, check in enumerate(checks):
            good = check["own"] and not check["others"]
            ok &= good
            if not good or r == 1:
                print(f"  round {r}, session {i + 1} ({SESSIONS[i][0]:,} items): "
                      f"{'own' if check['own'] else 'OWN VERDICT MISSING'}"
                      + (f", SEES SESSION(S) {[j + 1 for j in check['others']]}" if check["others"] else "")
                      + f": {check['alerts'][0][:90] + '...' if check['alerts'] else '(no verdict)'}")
    print(f"\nServer log: {log}")
    print(f"{'Every' if ok else 'NOT every'} session got its own verdict and no other's "
          f"({n_sessions} sessions x {ROUNDS} rounds; sentence and signature checked).")


if __name__ == "__main__":
    main()
