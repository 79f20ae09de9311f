"""The fast tier's guard (tests/helpers/fast_tier.py, run by conftest.py around every test not marked slow or
browser): it knows what it refuses, and it sees a start in the test's process, in a child process, and kaleido's,
without starting any of them."""

import subprocess
import sys

import pytest

from helpers.fast_tier import Guard, heavy


@pytest.fixture
def guard():
    one = Guard()
    yield one
    one.remove()


@pytest.mark.parametrize("args, name", [
    (["/usr/bin/pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], "pdflatex"),
    (["bibtex", "paper"], "bibtex"),
    ([sys.executable, "/venv/choreographer/browsers/_unix_pipe_chromium_wrapper.py", "/usr/bin/chromium"],
     "kaleido's Chromium"),
    (["/venv/playwright/driver/node", "/venv/playwright/driver/package/cli.js", "run-driver"], "Playwright's Chromium"),
    ([sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", "8501"], "a Streamlit server"),
    ("chromium --headless --print-to-pdf=x.pdf page.html", "chromium"),
    ([sys.executable, "-m", "sigcore", "compare", "gold.txt", "a.txt", "b.txt"], None),
    (["pdftotext", "-bbox", "figure.pdf", "-"], "pdftotext"),
    (["sh", "-c", "pdflatex paper"], None),  # the shell: the stand-in on PATH finds what it starts
    ([sys.executable, "-m", "streamlit", "version"], None),
])
def test_it_names_what_the_fast_tier_must_not_start(args, name):
    assert heavy(args) == name


def test_a_start_in_the_test_s_process_is_refused_and_listed(guard):
    with guard.watching() as started:
        with pytest.raises(OSError, match="not in the fast tier"):
            subprocess.run(["pdflatex", "--version"], capture_output=True)
        assert subprocess.run([sys.executable, "-c", "pass"]).returncode == 0  # anything else starts
    assert started == ["pdflatex"]


def test_a_start_in_a_child_is_listed_though_the_child_ignores_its_failure(guard):
    with guard.watching() as started:
        done = subprocess.run(["sh", "-c", "bibtex paper; chromium --headless; true"], capture_output=True, text=True)
    assert done.returncode == 0 and "bibtex: not in the fast tier" in done.stderr
    assert started == ["bibtex", "chromium"]


def test_a_static_image_is_refused_before_kaleido_asks_a_browser(guard):
    """In the test's process: refused even where the slow tests' shared browser is running, which kaleido would use
    without starting one."""
    pytest.importorskip("kaleido")
    import plotly.graph_objects as go

    from sigcore.report import export

    with guard.watching() as started:
        with pytest.raises(OSError, match="a static image through kaleido: not in the fast tier"):
            export.figure_image(go.Figure(), "png", width=100, height=100, scale=1)
    assert started == ["a static image through kaleido"]


def test_kaleido_s_browser_in_a_child_is_the_stand_in(guard):
    """A static image exported by a child process (as the command line does): kaleido looks for its Chromium in
    BROWSER_PATH, finds the stand-in, which is listed, and the export fails."""
    pytest.importorskip("kaleido")
    child = ("import plotly.graph_objects as go\nfrom sigcore.report import export\n"
             "export.figure_image(go.Figure(), 'png', width=100, height=100, scale=1)")
    with guard.watching() as started:
        done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and set(started) == {"chromium"}, done.stderr[-2000:]
