"""The fast tier kept honest: while a test not marked slow or browser runs (its fixtures' setup and teardown too), a
start of pdflatex or bibtex, of poppler's tools, of a Chromium (kaleido's, through choreographer, or Playwright's
driver) or of a Streamlit server is refused and fails the test, even if the code under test catches the refusal.
In the test's process every start goes through ``subprocess.Popen._execute_child``, and every static image through
kaleido's functions (refused before it asks a browser, even one already running for the slow tests); its child
processes (the command line, a reproduce.sh) find stand-ins first on PATH and in BROWSER_PATH (where kaleido looks
for its browser), which log their start and exit with an error."""

import contextlib
import importlib.util
import os
import shlex
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

MARKS = ("slow", "browser")  # the tests that may start them
TEX = ("pdflatex", "xelatex", "lualatex", "latexmk", "bibtex")
POPPLER = ("pdftotext", "pdffonts", "pdfinfo", "pdftoppm", "pdftocairo", "pdfimages")  # read the PDFs exports write
CHROMIUMS = ("chromium", "chromium-browser", "chrome", "google-chrome", "google-chrome-stable", "headless_shell",
             "chrome-headless-shell")
KALEIDOS = "_unix_pipe_chromium_wrapper.py"  # how choreographer starts kaleido's Chromium: python, it, the browser
KALEIDO_CALLS = ("calc_fig_sync", "write_fig_sync", "write_fig_from_object_sync", "start_sync_server", "calc_fig",
                 "write_fig", "write_fig_from_object")  # what plotly's to_image and write_image call
WAIT_SECONDS = 60  # for kaleido's shared browser to draw its first image, as sigcore's export waits
HINT = "not in the fast tier: mark the test @pytest.mark.slow (with why) or keep it from starting"
BROWSERS = ("kaleido's Chromium", "Playwright's Chromium", "a static image through kaleido", *CHROMIUMS)  # chromium


def heavy(args) -> str | None:
    """What ``args`` (a command line) starts that the fast tier must not: a name, or None."""
    words = shlex.split(args) if isinstance(args, (str, bytes)) else [os.fsdecode(a) for a in args if a is not None]
    names = [os.path.basename(w) for w in words]
    for word, name in zip(words, names):
        if name in TEX or name in POPPLER or name in CHROMIUMS:
            return name
        if name == KALEIDOS:
            return "kaleido's Chromium"
        if name == "node" and "playwright" in word:
            return "Playwright's Chromium"
    if "streamlit" in names and "run" in words:
        return "a Streamlit server"
    return None


def tool(name: str) -> str:
    """The tool a start of :func:`heavy`'s ``name`` needs: chromium for any browser, else the name itself."""
    return "chromium" if name in BROWSERS else name


class Guard:
    """The stand-ins' folder (one per test process) and the watch over one phase of a test: of everything heavy (the
    fast tier), or ``only`` of the tools named there (those a machine lacks, for the slow tests), with ``hint``."""

    def __init__(self, only: frozenset[str] | None = None, hint: str = HINT):
        self.only, self.hint = only, hint
        self.folder = Path(tempfile.mkdtemp(prefix="sigcore-fast-tier-"))
        self.log = self.folder / "started.log"
        self.log.touch()
        for name in TEX + POPPLER + CHROMIUMS[:5]:
            if self.refuses(name):
                stand_in = self.folder / name
                stand_in.write_text(f'#!/bin/sh\necho "{name}" >> {shlex.quote(str(self.log))}\n'
                                    f'echo "{name}: {hint}" >&2\nexit 97\n', encoding="utf-8")
                stand_in.chmod(0o755)

    def refuses(self, name: str | None) -> bool:
        """Whether a start of ``name`` (what :func:`heavy` says a command starts) is refused."""
        return name is not None and (self.only is None or tool(name) in self.only)

    @staticmethod
    def kaleido():
        """kaleido's module, or None where it is not installed."""
        if importlib.util.find_spec("kaleido") is None:
            return None
        import kaleido

        return kaleido

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    @contextlib.contextmanager
    def settling(self) -> Iterator[None]:
        """Within it (a slow test's phase), kaleido's shared browser, when started, is up before the test goes on:
        kaleido starts it in a thread of its own after start_sync_server returns, and a fast test after the one
        that started it would find it starting. A tiny image through it waits for it (a minute at most)."""
        import pytest

        kaleido = self.kaleido()
        if kaleido is None:
            yield
            return
        start = kaleido.start_sync_server

        def tiny_image():
            import plotly.io

            with contextlib.suppress(Exception):  # the test that needs the browser says what is wrong with it
                plotly.io.to_image({"data": [], "layout": {}}, format="svg", width=10, height=10)

        def started(*args, **options):
            start(*args, **options)
            waiting = threading.Thread(target=tiny_image, daemon=True)  # no answer ever, where no browser starts
            waiting.start()
            waiting.join(WAIT_SECONDS)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(kaleido, "start_sync_server", started)
            yield

    @contextlib.contextmanager
    def watching(self) -> Iterator[list[str]]:
        """Within it, what is started is refused and listed (in this process and in its children)."""
        import pytest

        started: list[str] = []
        start = subprocess.Popen._execute_child
        logged = self.log.stat().st_size

        def refused(popen, args, *more, **options):
            if self.refuses(name := heavy(args)):
                started.append(name)
                raise OSError(f"{name}: {self.hint}")
            return start(popen, args, *more, **options)

        def no_image(*args, **options):
            started.append("a static image through kaleido")
            raise OSError(f"a static image through kaleido: {self.hint}")

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(subprocess.Popen, "_execute_child", refused)
            if self.refuses("chromium"):
                if kaleido := self.kaleido():
                    for call in KALEIDO_CALLS:
                        patch.setattr(kaleido, call, no_image)
                patch.setenv("BROWSER_PATH", str(self.folder / "chromium"))
            patch.setenv("PATH", f"{self.folder}{os.pathsep}{os.environ.get('PATH', '')}")
            try:
                yield started
            finally:
                with open(self.log, encoding="utf-8") as f:
                    f.seek(logged)
                    started.extend(f.read().split())
