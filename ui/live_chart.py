"""The live histogram: a component whose page plays a run's frames with ``Plotly.react``.

Streamlit 1.67 gives every ``st.plotly_chart`` an id derived from its content, so a chart redrawn per frame
is mounted again each time and blinks. Resampling is fast, so the page computes the whole run (or up to
Stop) first and sends the bar heights of every frame at once; the component's page plays them in place and
reports back how many it showed. Its Plotly is the "basic" bundle (bar, scatter and pie traces; 1.2 MB where the
plotly package's full one is 4.6 MB, which took a second and a half to start on the page's main thread), of the
plotly.js version the installed plotly package draws with, shipped gzipped beside the page (plotly.js-basic-dist-min
from npm, MIT licence in live_chart/PLOTLY-LICENSE) and unpacked with it into a private temporary folder: nothing is
fetched from the network. Served under a name carrying its version, it is kept by the browser (``cache_scripts``).
"""

from __future__ import annotations

import atexit
import functools
import gzip
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import plotly.graph_objects as go
import streamlit.components.v1 as components

from sigcore.i18n import _

_FILES = Path(__file__).with_name("live_chart")
PLOTLY = "plotly-basic.min.js"  # shipped as PLOTLY.gz


def _version() -> str:
    with gzip.open(_FILES / f"{PLOTLY}.gz", "rt") as bundle:  # "* plotly.js (basic - minified) v4.1.1" on line 2
        return re.search(r"\) v(\S+)", bundle.read(200)).group(1)


# the name it is served under: one per version, so that browsers may keep it (cache_scripts, installed by app.py)
SERVED = PLOTLY.replace(".min.js", f"-v{_version()}.min.js")


_PREFIX = "sigcore-live-chart-"


def _folder() -> Path:
    """A private folder (mode 0700, a new name for each server) with the page and Plotly's script: a shared,
    predictable one could be created first by another local user, who would then serve every visitor's script.
    Removed at exit; a server that was killed cannot, so each new one removes the folders of servers gone."""
    _remove_orphans()
    folder = Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    (folder / SERVED).write_bytes(gzip.decompress((_FILES / f"{PLOTLY}.gz").read_bytes()))
    page = (_FILES / "index.html").read_text(encoding="utf-8")
    (folder / "index.html").write_text(page.replace(f'"{PLOTLY}"', f'"{SERVED}"'), encoding="utf-8")
    return folder


def _remove_orphans() -> None:
    """Remove this user's chart folders whose server process no longer runs (its pid is in the name)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{_PREFIX}*"):
        pid = folder.name.removeprefix(_PREFIX).split("-")[0]
        try:
            if not pid.isdecimal() or folder.stat().st_uid != os.getuid() or _alive(int(pid)):
                continue
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal: only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    return True


def cache_scripts(app):
    """ASGI middleware: browsers keep Plotly's script for a year (Streamlit sends a component's files with neither a
    lifetime nor a validator, so each visit fetched and compiled its 1.2 MB again); its name changes with its
    version."""
    async def middleware(scope, receive, send):
        if scope["type"] != "http" or not scope["path"].endswith(f"/{SERVED}"):
            return await app(scope, receive, send)

        async def send_kept(message):
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message = {**message, "headers": headers + [(b"cache-control", b"public, max-age=31536000, immutable")]}
            await send(message)

        await app(scope, receive, send_kept)
    return middleware


@functools.cache  # declared at first use, inside a session: app.py imports ui/ before Streamlit's runtime exists
def _component():
    return components.declare_component("sigcore_live_chart", path=str(_folder()))


def frame(y: list, progress: float, texts: dict, *, title: str | None = None, lines: tuple[int, int] | None = None,
          rows: list | None = None, grew: list | None = None) -> dict:
    """One frame: the y of the figure's first traces, the progress (0 to 1), texts by element id ("count",
    "status"), and optionally the title, the pseudo-code lines to highlight, the table's rows
    (``{"cells": [...], "marked": bool}``; a cell is a text, [note, text] or [note, text, class]) and the bars
    that just grew (``[[trace, bar], ...]``, outlined)."""
    return {"y": y, "progress": progress, "texts": texts, "title": title, "lines": lines, "rows": rows,
            "grew": grew}


def labels() -> dict[str, str]:
    """The component's own texts (its buttons, their tooltips, what it says while Plotly loads) in the page's
    language: the page's JavaScript writes none of its own."""
    return {"back": _("◀ Back"), "back-title": _("the previous step (←)"), "pause": _("Pause"),
            "resume": _("Resume"), "pause-title": _("pause or resume (space)"), "next": _("Step ▶"),
            "next-title": _("one step, while paused (→)"), "replay": _("Replay"),
            "replay-title": _("play the batch again (r)"), "finish": _("Finish ▶▶"),
            "finish-title": _("draw the rest of the batch at once and show its last frame (f)"),
            "stop": _("Stop"), "stop-title": _("keep what is drawn so far (Esc)"),
            "stopped": _("{count} (stopped)"), "loading": _("drawing the chart…"), "k-exact-name": _("exact p")}


def live_chart(figure: go.Figure, frames: list[dict], *, run: str, shown: int | None, interval: float,
               config: dict, key: str, code: list[str] | None = None, header: list | None = None,
               series: str | None = None, presenter: bool = False, keys: bool = False,
               aside: str | None = None, verdict: str | None = None, table_rows: int = 0) -> dict | None:
    """Play ``frames`` (see :func:`frame`) on ``figure``; ``shown`` = already played. ``code`` is pseudo-code
    shown beside the chart (a line's comment after "   # ", set apart; a line may hold a continuation after
    "\n"), ``aside`` a text shown there instead, ``header`` the head of a table of rows below it. A new ``run`` of
    the same ``series`` (the same frames seen another way, e.g. the shifted view) goes on playing where it was.
    ``presenter`` sets the code, table and counters large, for a lecture hall, with the frame's text "eq" and the
    ``verdict`` (``**bold**`` marked) under the code, and the table kept ``table_rows`` rows high so that nothing
    moves as rows come; ``keys`` adds the teacher's controls (back, pause / resume, step, replay, finish) and their
    keys (←, space, →, r, f; Esc stops), which work wherever the focus is but in a field being typed in.

    Returns ``{"run": run, "shown": k}`` once the page has played the run to its end, to Stop or to Finish.
    """
    return _component()(figure=figure.to_json(), frames=frames, run=run, shown=shown, interval=int(interval * 1000),
                        config=json.dumps(config), code=code, header=header, series=series, presenter=presenter,
                        keys=keys, aside=aside, verdict=verdict, table_rows=table_rows, labels=labels(), key=key,
                        default=None)
