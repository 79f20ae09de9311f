"""Two things every test shares.

One Chromium per test process for kaleido's static images, for the tests that ask for it
(``one_browser_for_static_images``): started once (about 2 s) instead of once per image (2 s each, most of the paper
and figure tests' time); a run that exports no image starts none. The app and the command line still start one per
image; test_export.py checks that both ways draw the same image, and test_browser's downloads run the app's own way.

And the process's own ``__main__`` given back after each test: AppTest leaves the script it ran (dashboard.py) as
``__main__`` (also when a module's fixture ran it, before any test began), and a test after it that starts processes
by spawning (Dask's LocalCluster) ran that script again in every worker."""

import sys

import pytest

MAIN = sys.modules["__main__"]


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
    yield
    kaleido.start_sync_server(n=1, timeout=RENDER_SECONDS, silence_warnings=True)
