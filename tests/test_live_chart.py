"""The live chart component's files are served from a folder no other local user can have made or changed."""

import os
import stat
import tempfile
from pathlib import Path

import plotly

from ui import live_chart


def test_the_component_is_served_from_a_private_folder_of_its_own():
    folder = Path(live_chart._component().path)  # declared at first use
    assert folder.parent == Path(tempfile.gettempdir()) and folder.name.startswith("sigcore-live-chart-")
    assert folder.name != f"sigcore-live-chart-{plotly.__version__}"  # the old, predictable name
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700 and os.stat(folder).st_uid == os.getuid()
    script = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    assert (folder / "plotly.min.js").read_bytes() == script.read_bytes()
    assert (folder / "index.html").read_bytes() == (Path(live_chart.__file__).with_name("live_chart") / "index.html"
                                                    ).read_bytes()
