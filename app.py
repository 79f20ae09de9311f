"""Entry point: `streamlit run app.py` serves the dashboard (dashboard.py) once its modules are imported.

The engine's and the pages' imports (scipy.stats, pandas, plotly, ui/) take about a second; done here, at server
start, the first visitor's page does not wait for them (the Classroom's walk-through is usable sooner, see
bench/classroom.py), and sessions starting together never import them concurrently. What they made is then frozen
out of the garbage collector's way (gc.freeze), as Streamlit collects fully after every script run.
"""

import ctypes
import gc
import os
import threading
import time
from contextlib import asynccontextmanager

import streamlit as st
from starlette.middleware import Middleware

from ui.live_chart import cache_scripts  # the middleware must exist before the server: imported here, not in preload

# seconds between returns of free heap pages to the system (each takes milliseconds); the memory test sets it short
TRIM_EVERY = float(os.environ.get("SIGCORE_TRIM_SECONDS", "10"))


def _return_freed_memory() -> None:
    """glibc keeps large freed numpy buffers in per-thread heaps, raising its mmap threshold as they are freed, so a
    server held ~200 MB after the sessions that used it had ended (bench/load.py); fixed 128 KiB thresholds give
    large blocks back to the system when freed, and a background thread gives back the free pages inside the heaps
    (malloc_trim: milliseconds, without the GIL), which is where small objects go under PYTHONMALLOC=malloc."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return  # not glibc (macOS, musl): their allocators behave differently
    libc.mallopt(-3, 128 * 1024)  # M_MMAP_THRESHOLD: large blocks get their own mapping, unmapped when freed
    libc.mallopt(-1, 128 * 1024)  # M_TRIM_THRESHOLD: free heap tops are returned beyond 128 KiB

    def trim() -> None:
        while True:
            time.sleep(TRIM_EVERY)
            libc.malloc_trim(0)

    threading.Thread(target=trim, name="sigcore-malloc-trim", daemon=True).start()


@asynccontextmanager
async def preload(_app):
    import logging

    quiet = logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # "missing ScriptRunContext": no session exists yet, as expected here
    try:
        import streamlit.emojis  # noqa: F401  the check of an icon (st.error's ⚠️) reads this 0.4 MB table at first use
        import streamlit.material_icon_names  # noqa: F401  and the navigation's :material/...: icons this one

        from ui import datasets, lessons, many, pitfalls, planning, run, seeds, test_guide, verdict, walkthrough  # noqa: F401
        for presenter in (False, True):  # Plotly loads a figure's classes and validators at first use: 0.2 s
            walkthrough.histogram(0.2, shifted=False, presenter=presenter).to_json()  # of the first visit's run
        st.empty()  # Streamlit's one-time "not run by `streamlit run`?" check walks every module (0.3 s)
    finally:
        quiet.setLevel(level)
    gc.collect()
    gc.freeze()  # what the imports made lives as long as the server: kept out of the full collection Streamlit runs
    yield  # after every script run, which scanned its 160,000 objects (0.2 to 1 s, holding up the page's messages)


_return_freed_memory()
app = st.App("dashboard.py", lifespan=preload, middleware=[Middleware(cache_scripts)])
