"""The live chart component's files are served from a folder no other local user can have made or changed."""

import gzip
import os
import stat
import tempfile
from pathlib import Path

import plotly
import plotly.offline

from ui import live_chart


def test_the_component_is_served_from_a_private_folder_of_its_own():
    folder = Path(live_chart._component().path)  # declared at first use
    assert folder.parent == Path(tempfile.gettempdir()) and folder.name.startswith("sigcore-live-chart-")
    assert folder.name != f"sigcore-live-chart-{plotly.__version__}"  # the old, predictable name
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700 and os.stat(folder).st_uid == os.getuid()
    assert live_chart.SERVED == f"plotly-basic-v{plotly.offline.get_plotlyjs_version()}.min.js"
    assert (folder / live_chart.SERVED).read_bytes() == _shipped()
    page = (folder / "index.html").read_text()  # the shipped page, reading the script under its served name
    assert f'script.src = "{live_chart.SERVED}"' in page and live_chart.PLOTLY not in page


def test_a_killed_servers_folder_is_removed_by_the_next_server_and_a_running_ones_is_kept(tmp_path, monkeypatch):
    """Each stopped server left its 1.2 MB folder behind (21 were there): atexit does not run on a kill."""
    import subprocess
    import sys

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = tmp_path / f"sigcore-live-chart-{dead.stdout.strip()}-abc"
    running = tmp_path / f"sigcore-live-chart-{os.getpid()}-def"
    other = tmp_path / "sigcore-live-chart-notapid"
    for folder in (gone, running, other):
        folder.mkdir()
        (folder / live_chart.SERVED).write_bytes(b"x")
    new = live_chart._folder()
    assert not gone.exists() and running.exists() and other.exists() and new.exists()
    assert new.name.startswith(f"sigcore-live-chart-{os.getpid()}-")


def _shipped() -> bytes:
    return gzip.decompress((Path(live_chart.__file__).with_name("live_chart") / f"{live_chart.PLOTLY}.gz").read_bytes())


def test_the_chart_draws_with_the_plotly_js_version_of_the_installed_plotly():
    """The figures are made by the plotly package for its own plotly.js: the shipped basic bundle must be that one
    (after upgrading plotly: `npm pack plotly.js-basic-dist-min@VERSION`, gzip -9 -n its plotly-basic.min.js)."""
    head = _shipped()[:200].decode()
    assert f"plotly.js (basic - minified) v{plotly.offline.get_plotlyjs_version()}\n" in head


def test_only_plotlys_script_is_kept_a_year_whatever_the_base_path():
    import asyncio

    def serve(path: str, status: int = 200) -> dict:
        async def streamlit(scope, receive, send):  # as Streamlit sends a component's file
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/javascript"), (b"cache-control", b"public")]})
            await send({"type": "http.response.body", "body": b""})
        sent = []

        async def send(message):
            sent.append(message)
        asyncio.run(live_chart.cache_scripts(streamlit)({"type": "http", "path": path}, None, send))
        return dict(sent[0]["headers"])

    script = f"/component/ui.live_chart.sigcore_live_chart/{live_chart.SERVED}"
    for path in (script, "/course" + script):  # also under a base URL path
        assert serve(path)[b"cache-control"] == b"public, max-age=31536000, immutable"
    assert serve(script, status=404)[b"cache-control"] == b"public"
    assert serve("/component/ui.live_chart.sigcore_live_chart/index.html")[b"cache-control"] == b"public"
