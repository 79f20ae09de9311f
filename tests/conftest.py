"""One Chromium per test process for kaleido's static images, started once (about 2 s) instead of once per image
(2 s each, most of the paper and figure tests' time). The app and the command line still start one per image;
test_export.py checks that both ways draw the same image, and test_browser's downloads run the app's own way.

And each test's ``__main__`` given back: AppTest leaves the script it ran (dashboard.py) as ``__main__``, and a test
after it that starts processes by spawning (Dask's LocalCluster) ran that script again in every worker."""

import sys

import pytest


@pytest.fixture(autouse=True)
def main_module_kept():
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


@pytest.fixture(scope="session", autouse=True)
def one_browser_for_static_images():
    import kaleido

    from sigcore.report.export import RENDER_SECONDS

    kaleido.start_sync_server(n=1, timeout=RENDER_SECONDS, silence_warnings=True)
    yield
    kaleido.stop_sync_server(silence_warnings=True)


@pytest.fixture
def browser_per_image():
    """The app's and the command line's way for one test: kaleido starts a browser for each image."""
    import kaleido

    from sigcore.report.export import RENDER_SECONDS

    kaleido.stop_sync_server(silence_warnings=True)
    yield
    kaleido.start_sync_server(n=1, timeout=RENDER_SECONDS, silence_warnings=True)
