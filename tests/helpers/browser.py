"""Debian's headless Chromium (driven by Playwright; no browser download) and the app served by `streamlit run`, as
the browser tests start them."""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from .system import need

ROOT = Path(__file__).resolve().parents[2]
def launch(playwright):
    """Debian's headless Chromium, with the flags this machine's closed network needs (the test skips where the
    machine lacks it)."""
    return playwright.chromium.launch(executable_path=need("chromium"), args=[
        "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def streamlit_server(*options: str, env: dict[str, str] | None = None):
    """`streamlit run app.py` on a free port, with Streamlit's command-line ``options`` and more environment
    variables: (process, url)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", *options],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(url + "/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("streamlit did not start: " + proc.stdout.read1().decode(errors="replace"))
        yield proc, url
    finally:
        proc.terminate()
        proc.wait(timeout=20)
