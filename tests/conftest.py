"""What the tests share.

The fast tier kept honest (tests/helpers/fast_tier.py): a test not marked slow or browser that starts pdflatex, a
Chromium or a Streamlit server fails, so that `pytest -m "not slow and not browser"` needs none of them; a slow or
browser test that starts one this machine lacks skips, naming the package (tests/helpers/system.py), or fails where
SIGCORE_TESTS_NEED_ALL=1, as in CI.

One Chromium per test process for kaleido's static images, for the tests that ask for it
(``one_browser_for_static_images``): started once (about 2 s) instead of once per image (2 s each, most of the paper
and figure tests' time); a run that exports no image starts none. The app and the command line still start one per
image; test_export.py checks that both ways draw the same image, and test_browser's downloads run the app's own way.

And the process's own ``__main__`` given back after each test: AppTest leaves the script it ran (dashboard.py) as
``__main__`` (also when a module's fixture ran it, before any test began), and a test after it that starts processes
by spawning (Dask's LocalCluster) ran that script again in every worker."""

import os
import sys

import pytest

from helpers import system
from helpers.fast_tier import MARKS, Guard, tool

MAIN = sys.modules["__main__"]
GUARD = Guard()
LACKING = system.lacking()
LACK = Guard(only=LACKING, hint="this machine lacks it") if LACKING else None  # what the slow tests may not start
LACKED: list[tuple[BaseException, list[str]]] = []  # errors that came of a lacking tool, and the tools


def pytest_unconfigure(config):
    GUARD.remove()
    if LACK:
        LACK.remove()


def _watched(item):
    """A phase of a test (setup, call or teardown, with the fixtures it sets up): a fast test's under the guard, a
    slow one's with kaleido's shared browser up before it goes on, if it starts it, and skipped if it started a tool
    this machine lacks (failed, where every tool is required)."""
    if any(item.get_closest_marker(mark) for mark in MARKS):
        if LACK is None:
            with GUARD.settling():
                return (yield)
        started = []
        try:
            with GUARD.settling(), LACK.watching() as started:
                result = yield
        except BaseException as e:  # a fixture's error is raised again for each test that uses it: known by identity
            tools = [tool(name) for name in started] or next((t for error, t in LACKED if error is e), None)
            if tools:
                LACKED.append((e, tools))
                system.refuse(tools)  # the phase skips, whatever the test made of the refusal
            raise
        if started:
            system.refuse([tool(name) for name in started])
        return result
    started = []
    try:
        with GUARD.watching() as started:
            return (yield)
    finally:
        if started:  # raised in the hook: the phase fails, whatever the test caught
            pytest.fail(f"{item.nodeid} started {', '.join(dict.fromkeys(started))}, which the fast tier does "
                        "not: mark it @pytest.mark.slow with why", pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    return (yield from _watched(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    return (yield from _watched(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    return (yield from _watched(item))


@pytest.fixture(autouse=True)
def main_module_kept():
    yield
    sys.modules["__main__"] = MAIN


@pytest.fixture(scope="session")
def one_browser_for_static_images():
    import kaleido

    from sigcore.report.export import RENDER_SECONDS

    kaleido.start_sync_server(n=1, timeout=RENDER_SECONDS, silence_warnings=True)
    yield
    kaleido.stop_sync_server(silence_warnings=True)


@pytest.fixture
def browser_per_image(one_browser_for_static_images):
    """The app's and the command line's way for one test: kaleido starts a browser for each image (the shared one
    is stopped, then started again)."""
    import kaleido

    from sigcore.report.export import RENDER_SECONDS

    kaleido.stop_sync_server(silence_warnings=True)
    browser = os.environ.get("BROWSER_PATH")
    yield
    with pytest.MonkeyPatch.context() as patch:  # the browser it had: the test's own BROWSER_PATH is undone later
        if browser is None:
            patch.delenv("BROWSER_PATH", raising=False)
        else:
            patch.setenv("BROWSER_PATH", browser)
        kaleido.start_sync_server(n=1, timeout=RENDER_SECONDS, silence_warnings=True)


@pytest.fixture
def deferred(monkeypatch):
    """The download buttons' deferred callables of an AppTest run, by file id (AppTest drops its runtime's media
    manager after each run: keep them)."""
    from streamlit.runtime.media_file_manager import MediaFileManager
    from streamlit.testing.v1 import app_test

    kept: dict = {}

    class Keeping(MediaFileManager):
        def add_deferred(self, data_callable, *args, **kwargs):
            file_id = super().add_deferred(data_callable, *args, **kwargs)
            kept[file_id] = data_callable
            return file_id
    monkeypatch.setattr(app_test, "MediaFileManager", Keeping)
    return kept
