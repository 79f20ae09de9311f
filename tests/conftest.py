"""One Chromium per test process for kaleido's static images, started once (about 2 s) instead of once per image
(2 s each, most of the paper and figure tests' time). The app and the command line still start one per image;
test_export.py checks that both ways draw the same image, and test_browser's downloads run the app's own way."""

import pytest


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
