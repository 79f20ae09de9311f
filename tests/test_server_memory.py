"""A session's memory goes back when it ends: a server that ran a large b at the class's animation speed, its tab
closed, holds little more than before, and sessions one after another do not make it grow (issue 10, item 3: the
500 partial results of such a run once held their own copies of the resampled values, about 2,000 bytes per
resample, +2 GB at b = 10⁶, kept after the tab closed).

The server runs `app.py` with ``server.disconnectedSessionTTL`` at 1 s (default 120 s), so that a closed tab's
session is dropped at once; its memory is the resident set of the server process (/proc), read once it has
settled (app.py returns free heap pages every SIGCORE_TRIM_SECONDS, here 2 s).
"""

import time

import pytest

from helpers.browser import launch, streamlit_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HEAVY = 100_000  # resamples of BLEU on the sample: copies in the partial results would hold 200 MB
TRIM_EVERY = 2  # seconds: the server's trimming period here (10 s in use), so that memory settles sooner


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def settled(pid: int) -> float:
    """The resident set once the closed session is dropped and two trims have passed and nothing more has been
    given back for a trimming period: its lowest over that period, read every second."""
    seen, start = [], time.monotonic()
    while time.monotonic() - start < 60:
        seen.append(rss_mb(pid))
        if len(seen) > 2 * TRIM_EVERY + 2 and min(seen[-TRIM_EVERY:]) >= min(seen[:-TRIM_EVERY]) - 0.5:
            break
        time.sleep(1)
    return min(seen[-TRIM_EVERY:])


@pytest.fixture(scope="module")
def server():
    with streamlit_server("--server.disconnectedSessionTTL", "1",  # a closed tab's session: dropped at once
                          env={"SIGCORE_TRIM_SECONDS": str(TRIM_EVERY)}) as (proc, url):
        yield proc.pid, url


def session(url: str, resamples: int, speed: str) -> None:
    """One visitor: opens the Compare page (the WMT17 BLEU sample), runs the bootstrap with b resamples at an
    animation speed, sees the chart start playing, and closes the tab."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 2000})
        page.goto(url)
        expect(page.get_by_role("combobox", name="Test", exact=True)).to_have_value("bootstrap (recommended)",
                                                                                   timeout=60_000)
        b = page.get_by_role("spinbutton", name="Resamples b")
        b.fill(str(resamples))
        b.press("Enter")
        page.get_by_role("combobox", name="Animation", exact=True).click()
        page.get_by_role("option", name=speed, exact=True).click()
        page.get_by_role("button", name="Run").click()
        chart = page.frame_locator("iframe[title*=live_chart]")
        expect(chart.locator("#count")).to_contain_text(f"of {resamples:,}", timeout=120_000)
        browser.close()


def test_a_closed_session_gives_its_memory_back_and_sessions_do_not_accumulate(server):
    pid, url = server
    session(url, 10_000, "Fast (25 frames)")  # the first visit loads what every page uses
    before = settled(pid)
    session(url, HEAVY, "1 per frame (class)")
    first = settled(pid)
    session(url, HEAVY, "1 per frame (class)")
    second = settled(pid)
    print(f"server resident set: {before:.0f} MB after a light session, {first:.0f} and {second:.0f} MB after "
          f"each of two runs of b = {HEAVY:,} at the class's speed, their tabs closed")
    assert first - before < 40  # the run's 500 partial results share one buffer, and it is freed
    assert second - first < 15  # the next session reuses what the last one freed
