"""The app in a real headless Chromium (Debian's, driven by Playwright; no browser download)."""

import contextlib
import re
import subprocess
import time
from pathlib import Path

import pytest

from ui import data as ui_data
from ui.walkthrough import sup

from helpers.browser import launch, streamlit_server
from helpers.system import need

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_url():
    with streamlit_server() as (_, url):
        yield url


@pytest.fixture(scope="module")
def chromium():
    """Debian's headless Chromium for the module's tests, each in contexts of its own (`opened`): a browser
    started once, not once a test (2 to 6 s each)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


class _Contexts:
    """The shared browser as a test uses it: each page (and context) it opens is its own, closed at the end."""

    def __init__(self, browser):
        self.browser, self.opened = browser, []

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def new_context(self, **options):
        self.opened.append(self.browser.new_context(**options))
        return self.opened[-1]


@contextlib.contextmanager
def opened(browser):
    contexts = _Contexts(browser)
    try:
        yield contexts
    finally:
        for context in contexts.opened:
            context.close()


@pytest.fixture
def page(app_url, chromium):
    """A fresh page of the app in Debian's headless Chromium (flags as this machine's closed network needs)."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 2000})
        page.goto(app_url)
        yield page


def choose(page, box: str, option: str) -> None:
    page.get_by_role("combobox", name=box, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


def test_default_comparison_renders_histogram_and_verdict(page, tmp_path):
    from playwright.sync_api import expect

    test = page.get_by_role("combobox", name="Test", exact=True)
    expect(test).to_have_value("bootstrap (recommended)", timeout=60_000)  # WMT17 BLEU, 500 segments
    page.get_by_role("button", name="Run").click()
    page.get_by_text("A (uedin-nmt) beats B (LIUM-NMT) by 1.22 BLEU").wait_for(timeout=60_000)
    chart = page.frame_locator("iframe[title*=live_chart]")  # the live chart component
    plot = chart.locator(".js-plotly-plot")
    plot.locator(".bars").first.wait_for(timeout=30_000)
    assert chart.get_by_text("b = 10,000 of 10,000").is_visible()
    assert plot.locator(".shapelayer path").count() == 2  # δ(x) and 2·δ(x)
    assert "2·δ(x) = 2.4" in plot.inner_text() and "δ(x) = 1.2" in plot.inner_text()
    # drawn across its frame (it was drawn 300 px wide, an iframe's first width, and stayed so), and the
    # Classroom's counters, hidden here, do not show under it
    frame = page.locator("iframe[title*=live_chart]").bounding_box()
    assert plot.locator(".main-svg").first.bounding_box()["width"] >= 0.95 * frame["width"] > 600
    assert not chart.locator("#counters").is_visible()
    page.screenshot(path=tmp_path / "compare.png", full_page=True)
    assert (tmp_path / "compare.png").stat().st_size > 10_000


def test_a_claim_draws_its_threshold_and_says_its_verdict(page, tmp_path):
    """No worse than by 2.5 BLEU on the sample: the page asks for the margin before it runs, then the chart draws
    2·δ(x) + Δ where 2·δ(x) was, inside the plot, and the verdict is the claim's (tests/test_claim_page.py checks
    the numbers)."""
    choose(page, "Claim", "Claim: A no worse than B by Δ")
    page.get_by_text("Give the margin Δ on bleu's scale").wait_for(timeout=60_000)
    assert page.get_by_role("button", name="Run").count() == 0  # no run without a margin
    page.get_by_label("Margin Δ", exact=True).fill("2.5")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Run").click()
    page.get_by_text("A (uedin-nmt) is no worse than B (LIUM-NMT) by more than 2.5 BLEU").wait_for(timeout=60_000)
    plot = page.frame_locator("iframe[title*=live_chart]").locator(".js-plotly-plot")
    plot.locator(".bars").first.wait_for(timeout=30_000)
    assert plot.locator(".shapelayer path").count() == 2  # δ(x) and 2·δ(x) + Δ
    label = plot.get_by_text("2·δ(x) + Δ = 4.94")
    assert label.is_visible() and "2·δ(x) = " not in plot.inner_text()
    box, panel = label.bounding_box(), plot.locator(".main-svg").first.bounding_box()
    assert box["x"] >= panel["x"] and box["x"] + box["width"] <= panel["x"] + panel["width"]  # not cut
    page.screenshot(path=tmp_path / "claim.png", full_page=True)


def test_the_confidence_sequence_plays_item_by_item_until_it_decides(page, tmp_path):
    """Two lm-eval logs of 300 ARC items, acc: after the run, "Play it item by item" grows the sequence on the live
    chart, frame by frame, to the item where it decides (tests/test_sequence_page.py checks the numbers)."""
    logs = sorted((ROOT / "sample_data" / "lm_eval").glob("samples_arc_easy_model-*.jsonl"))
    page.get_by_text("Upload", exact=True).first.click()
    page.locator("input[type=file]").first.set_input_files(logs)
    choose(page, "Metric", "acc")
    page.get_by_role("button", name="Run").click()
    box = page.get_by_text("Could evaluating have stopped early?")
    box.wait_for(timeout=60_000)
    box.click()
    page.wait_for_function(IDLE, timeout=60_000)  # the run's last elements drawn: a click now is not lost
    page.get_by_role("button", name="Play it item by item").click()
    chart = page.frame_locator("iframe[title*=live_chart]").last  # McNemar's resamples nothing: no histogram above
    seen, deadline = set(), time.monotonic() + 90  # 60 frames of 100 ms, slower on a loaded machine
    while time.monotonic() < deadline:  # catch some on the way, and the last
        seen.add(chart.locator(".gtitle").first.text_content(timeout=30_000))
        if any(t.startswith("After 300 of 300 items") for t in seen):
            break
        time.sleep(0.05)
    done = [t for t in seen if t.startswith("After 300 of 300")]
    assert done and done[0].endswith("decided at item 178"), sorted(seen)[:5]
    assert any(t.endswith("not decided") for t in seen)  # it was seen growing, before it decided
    assert chart.get_by_text("item 300 of 300").is_visible()
    assert "decided at item 178" in chart.locator(".textpoint").last.text_content()  # the line drawn where it decided
    page.locator("iframe[title*=live_chart]").last.scroll_into_view_if_needed()
    page.screenshot(path=tmp_path / "sequence.png")
    assert (tmp_path / "sequence.png").stat().st_size > 10_000


def test_run_is_above_the_fold_and_pressing_it_moves_nothing(chromium, app_url):
    """At 1440 x 900, Run sat below the fold; pressing it swapped the 380 px chart for a progress bar for ~0.8 s
    (the page jumped 219 px and back), and the chart grew by its progress line when the run came in."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(app_url)
        run = page.get_by_role("button", name="Run")
        run.wait_for(timeout=60_000)
        chart = page.locator("iframe[title*=live_chart]")
        chart.wait_for(timeout=60_000)
        page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=60_000)
        page.wait_for_timeout(1_000)
        box = run.bounding_box()
        assert box["y"] + box["height"] <= 900, box  # on the first screen of a 1440 x 900 display
        page.evaluate("""() => { window.seen = []; const t0 = performance.now(); const tick = () => {
            const f = document.querySelector('iframe[title*=live_chart]'), r = f && f.getBoundingClientRect();
            window.seen.push(r ? [Math.round(r.top), Math.round(r.height)] : null);
            if (performance.now() - t0 < 6000) requestAnimationFrame(tick); }; requestAnimationFrame(tick); }""")
        run.click()
        page.get_by_text("beats B (LIUM-NMT) by 1.22 BLEU").wait_for(timeout=60_000)
        page.wait_for_timeout(6_500)
        seen = page.evaluate("window.seen")
    assert len(seen) > 20 and None not in seen  # the chart never leaves the page
    assert len({tuple(s) for s in seen}) == 1, sorted({tuple(s) for s in seen})  # nor moves, nor grows


def test_file_names_are_whole_in_the_role_boxes(chromium, app_url, tmp_path):
    """Two files of predictions, each with its gold: the Gold file and Baseline boxes read "1. mymod…" at 1440 px;
    at a projector's 1280 px no box of the page's default cuts its value (H1's side, "(recommended)")."""
    names = ("baseline_preds.csv", "mymodel_preds.csv")
    for k, name in enumerate(names):
        (tmp_path / name).write_text("id,gold,pred\n" + "".join(f"{i},{i % 3},{(i + k) % 3}\n" for i in range(60)))
    shown_boxes = """() => [...document.querySelectorAll('[data-testid="stSelectbox"]')].map(b => {
        const e = b.querySelector('input');  // a select box shows its value in an input: cut when it overflows
        return [b.querySelector('label').textContent, e.value, e.scrollWidth <= e.clientWidth]; })"""
    settled = "() => !document.querySelector('[data-testid=stStatusWidget]')"
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(app_url)
        page.get_by_role("button", name="Run").wait_for(timeout=60_000)
        page.get_by_role("combobox", name="Test", exact=True).wait_for(timeout=60_000)
        page.wait_for_function(settled, timeout=60_000)
        default = page.evaluate(shown_boxes)
        page.set_viewport_size({"width": 1440, "height": 900})
        page.get_by_text("Upload", exact=True).click(timeout=60_000)
        page.locator("input[type=file]").set_input_files([str(tmp_path / n) for n in names])
        page.get_by_role("combobox", name="Baseline (B)", exact=True).wait_for(timeout=60_000)
        page.wait_for_function(f"() => ({settled})() && ({shown_boxes})()"
                               ".some(b => b[0] == 'Test' && b[1].startsWith('mcnemar'))",
                               timeout=60_000)  # the boxes come in turn, and the test changes with the files
        boxes = page.evaluate(shown_boxes)
    assert len(default) >= 9 and all(whole for _, _, whole in default), default
    assert ["H1", "two-sided: uedin-nmt and LIUM-NMT differ", True] in default
    shown = {label: (text, whole) for label, text, whole in boxes}
    assert shown["Baseline (B)"] == ("1. baseline_preds.csv", True), boxes
    assert shown["Gold file"] == (ui_data.OWN_GOLD, True) and shown["Test"] == ("mcnemar (recommended)", True), boxes


def test_stop_keeps_what_was_drawn(page, tmp_path):
    page.get_by_text("500 items").first.wait_for(timeout=60_000)
    choose(page, "Animation", "10 per frame")
    page.get_by_role("button", name="Run").click()
    chart = page.frame_locator("iframe[title*=live_chart]")
    count = chart.locator("#count")
    count.wait_for(timeout=60_000)
    for _ in range(600):  # a few frames into the animation
        if re.match(r"b = ([5-9]\d|\d{3,}) of", count.inner_text()):
            break
        time.sleep(0.05)
    page.screenshot(path=tmp_path / "mid_animation.png", full_page=True)
    chart.get_by_role("button", name="Stop").click()
    chart.get_by_text("(stopped)").wait_for(timeout=30_000)
    stopped = page.get_by_text("stopped after").inner_text(timeout=30_000)
    assert "resamples)" in stopped and "10,000 resamples" not in stopped
    assert chart.locator(".js-plotly-plot .bars").count() > 0  # the histogram drawn so far stays
    page.screenshot(path=tmp_path / "stopped.png", full_page=True)


def test_classroom_draws_a_test_set_line_by_line(page, app_url, tmp_path):
    from playwright.sync_api import expect

    page.goto(app_url + "/classroom?pace=0.5")  # Draw x⁽ⁱ⁾ at 0.5 s a line: 8 s in all
    chart = page.frame_locator("iframe[title*=live_chart]")
    for name in ("Replay", "Step ▶", "◀ Back", "Pause"):  # b = 0: nothing to replay, step, go back to or pause
        expect(chart.get_by_role("button", name=name)).to_be_disabled(timeout=60_000)
    page.get_by_role("button", name="Draw x⁽¹⁾").click(timeout=60_000)
    count = chart.locator("#count")
    # mid-animation: Figure 4.12's inner loop, drawing documents one by one (the first visit computes the
    # page's simulations before the draw, so this can take a while on a busy machine)
    count.filter(has_text=re.compile(r"j = [4-8]$")).wait_for(timeout=90_000)
    assert chart.locator("#code div.now").first.inner_text().strip().startswith("for j = 1 to n")
    assert chart.locator("tbody tr").last.inner_text().startswith("x⁽¹⁾")
    page.screenshot(path=tmp_path / "classroom_mid_animation.png", full_page=True)
    chart.locator("#code div.now", has_text="p-value(x) ≈ s / b").wait_for(timeout=30_000)  # the last frame
    assert re.search(r"s / b = [01] / 1 = ", chart.locator("#status").inner_text())
    assert chart.locator(".js-plotly-plot .bars path").count() > 0
    page.screenshot(path=tmp_path / "classroom_drawn.png", full_page=True)
    assert (tmp_path / "classroom_drawn.png").stat().st_size > 10_000

    page.get_by_role("button", name="Draw 10", exact=True).click()  # one x⁽ⁱ⁾ a frame, every 0.5 s
    count.filter(has_text=re.compile(r"^i = [2-4] of b = 11$")).wait_for(timeout=90_000)  # i runs to b
    assert page.get_by_role("button", name="Drawing…").is_disabled()  # no Draw that would skip x⁽ⁱ⁾ unseen
    before = int(re.search(r"^i = (\d+)", count.inner_text()).group(1))
    page.get_by_text("Why 2·δ(x)?").click()  # the shifted view, mid-animation: the batch goes on
    chart.locator(".js-plotly-plot .bars").nth(1).wait_for(timeout=30_000)
    assert int(re.search(r"^i = (\d+)", count.inner_text()).group(1)) >= before  # not back to x⁽²⁾
    count.filter(has_text=re.compile(r"^i = [5-9] of b = 11$")).wait_for(timeout=90_000)
    chart.get_by_role("button", name="Stop").click()
    stopped = int(re.search(r"i = (\d+) of b = 11 \(stopped\)", count.inner_text()).group(1))
    assert 5 <= stopped < 11
    page.get_by_role("button", name=f"Draw x⁽{sup(stopped + 1)}⁾").wait_for(timeout=30_000)  # Stop kept b


def test_the_walk_through_does_not_wait_for_plotly(page, app_url):
    """Plotly's 1.2 MB are read in the background: x, the code and Draw work before the chart can be drawn, and the
    chart then shows what was played meanwhile."""
    from ui.live_chart import SERVED

    held = []
    page.route(f"**/{SERVED}", lambda route: held.append(route))  # routing also turns the browser's cache off
    page.goto(app_url + "/classroom")
    chart = page.frame_locator("iframe[title*=live_chart]")
    chart.locator("#table tbody tr").first.wait_for(timeout=60_000)
    assert chart.locator("#table tbody tr").first.inner_text().startswith("x")
    assert held and chart.locator(".js-plotly-plot").count() == 0  # Plotly requested, not yet read
    page.get_by_role("button", name="Draw 10", exact=True).click()
    chart.locator("#count", has_text="of b = 10").wait_for(timeout=60_000)  # playing, chart still waiting
    assert chart.locator(".js-plotly-plot").count() == 0
    held[0].continue_()
    chart.locator("#code div.now", has_text="p-value(x) ≈ s / b").wait_for(timeout=60_000)
    chart.locator(".js-plotly-plot .bars path").first.wait_for(state="attached", timeout=60_000)
    heights = chart.locator(".js-plotly-plot").evaluate("div => div.data.map(t => t.y.reduce((a, b) => a + b, 0))")
    assert sum(heights) == 10  # every x^(i) of the batch in the histogram once (not counted, counted in s)


@pytest.mark.parametrize("width, height", [(1920, 1080), (1280, 720)])
def test_presenter_mode_is_readable_from_the_back_and_fits_one_screen(chromium, app_url, tmp_path, width, height):
    """1280 x 720 is a 1080p projector at 150% zoom: buttons, chart, code, eq. 4.48 filled in, α and the book's
    conclusion, counters, table and the download row on one screen, the text at 24 px or more, no code line
    wrapped; at 1920 x 1080 the decision sits under the code, beside the chart, which takes the room left (it was a
    third empty)."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(app_url + "/classroom?presenter=1&b=20&pace=0.25")
        page.get_by_role("button", name="Draw x⁽²¹⁾").click(timeout=60_000)
        chart = page.frame_locator("iframe[title*=live_chart]")
        chart.locator("#count").filter(has_text=re.compile(r"j = [4-8]$")).wait_for(timeout=60_000)
        page.keyboard.press(" ")  # paused mid-draw, for the measures that follow
        chart.get_by_role("button", name="Resume").wait_for(timeout=10_000)
        page.screenshot(path=tmp_path / f"presenter_{width}.png")
        assert not page.get_by_text("System A is right on 7 of 10").is_visible()  # no prose
        assert not page.locator('section[data-testid="stSidebar"]').is_visible()  # no sidebar
        inner = chart.locator("body")
        sizes = inner.evaluate("""() => ({
            eq: parseFloat(getComputedStyle(document.querySelector('#eq')).fontSize),
            verdict: parseFloat(getComputedStyle(document.querySelector('#verdict')).fontSize),
            code: parseFloat(getComputedStyle(document.querySelector('#code div')).fontSize),
            cell: parseFloat(getComputedStyle(document.querySelector('tbody td')).fontSize),
            counter: parseFloat(getComputedStyle(document.querySelector('#counters div')).fontSize),
            count: parseFloat(getComputedStyle(document.querySelector('#count')).fontSize),
            tick: Math.min(...[...document.querySelectorAll('.xtick text, .ytick text')].map(
                t => parseFloat(t.style.fontSize)))})""")
        assert min(sizes.values()) >= 24, sizes
        for _ in range(20):  # the chart refits as the page around it settles (once in a CI run it was measured before)
            frame = page.locator("iframe[title*=live_chart]").bounding_box()
            boxes = inner.evaluate("""() => ['#chart', '#code', '#decision', '#counters', '#table'].map(s => {
                const r = document.querySelector(s).getBoundingClientRect(); return [s, r.top, r.bottom]; })""")
            if frame["y"] + max(bottom for _, _, bottom in boxes) >= 0.85 * height:
                break
            page.wait_for_timeout(250)
        for name, _top, bottom in boxes:  # inside the window: frame offset + position within the frame
            assert frame["y"] + bottom <= height, (name, frame["y"] + bottom, height)
        lowest = frame["y"] + max(bottom for _, _, bottom in boxes)
        assert lowest >= 0.85 * height, (lowest, height)  # the chart grows into a 1080p screen's spare room
        for label in ("Drawing…", "Draw 10", "Draw 100", "Draw 10,000"):
            box = page.get_by_role("button", name=label, exact=True).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (label, box)
        box = page.locator(".st-key-walk-downloads button").first.bounding_box()  # the downloads, in one button
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        decision = inner.evaluate("""() => {
            const box = s => document.querySelector(s).getBoundingClientRect();
            return {eq: document.querySelector('#eq').innerText, verdict: document.querySelector('#verdict').innerText,
                    top: box('#decision').top, left: box('#decision').left, code: box('#code').bottom,
                    chart: box('#chart').right,
                    // a line of code wrapped is taller than its own lines (a continuation after a newline is one)
                    wrapped: [...document.querySelectorAll('#code div')].filter(d => d.getBoundingClientRect().height
                        > (d.innerText.split('\\n').length + 0.5) * parseFloat(getComputedStyle(d).lineHeight))
                        .map(d => d.innerText)}; }""")
        assert decision["verdict"].startswith("Threshold α = .05. p ≈ .27 > .05: we cannot reject H0 that A is not "
                                              "better than B"), decision
        assert decision["eq"].startswith("p-value(x) = (1/b) · Σᵢ 𝟙(δ(x⁽ⁱ⁾) ≥ 2·δ(x) = .40)")
        assert "≈ s / " in decision["eq"]
        assert decision["top"] >= decision["code"] and not decision["wrapped"], decision  # under the code, none wrapped
        assert (decision["left"] >= decision["chart"]) == (width == 1920), decision  # beside the chart where room
        assert chart.locator("tbody tr").last.inner_text().startswith("x⁽²¹⁾")  # the x⁽ⁱ⁾ being drawn, on screen
        controls = page.evaluate("""() => [...document.querySelectorAll(
            '.stButton button p, [data-testid="stCheckbox"] label p, [data-testid="stSelectbox"] input')]
            .map(e => parseFloat(getComputedStyle(e).fontSize))""")
        assert len(controls) >= 9 and min(controls) >= 22, controls  # buttons, switches and speed, from the back
        speed = page.evaluate("""() => { const e = document.querySelector('[data-testid="stSelectbox"] input');
            return [e.value, e.scrollWidth, e.clientWidth]; }""")
        assert speed[0] == "0.25 s a line" and speed[1] <= speed[2], speed  # "Line by line (Figure 4…" was cut


def test_each_batch_plays_at_its_own_pace_and_finish_completes_it(chromium, app_url):
    """At the narrating pace (2 s a line) Draw 10 took 262 s: now Draw x⁽ⁱ⁾ alone goes line by line, Draw 10 one
    x⁽ⁱ⁾ a frame, Draw 100 and 10,000 fast; f (or the Finish button) completes a batch at once, everything drawn
    and its last frame shown, where Stop keeps what was drawn."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + "/classroom?presenter=1&pace=2")
        chart = page.frame_locator("iframe[title*=live_chart]")
        count, drawn = chart.locator("#count"), chart.locator("#k-b")
        page.get_by_role("button", name="Draw x⁽¹⁾").click(timeout=60_000)
        count.filter(has_text=re.compile(r"j = 1$")).wait_for(timeout=60_000)  # 2 s a line: 32 s to the end
        assert chart.locator("body").evaluate("() => args.interval") == 2000
        first = chart.locator("#table tbody tr").nth(1).locator("td").first  # at 720 px the table has one row
        assert first.inner_text() == "x⁽¹⁾"  # under x: x⁽¹⁾ as it is drawn (the screen's one row once left it out)
        page.keyboard.press("f")
        page.get_by_role("button", name="Draw x⁽²⁾").wait_for(timeout=30_000)  # the page has the whole batch
        assert count.inner_text() == "b = 1" and drawn.inner_text() == "1" and first.inner_text() == "x⁽¹⁾"
        assert chart.locator("#code div.now").inner_text().strip() == "p-value(x) ≈ s / b"  # its last frame

        page.get_by_role("button", name="Draw 10", exact=True).click()
        count.filter(has_text=re.compile(r"^i = \d+ of b = 11$")).wait_for(timeout=60_000)
        assert chart.locator("body").evaluate("() => args.interval") == 500  # its own pace, not 2 s a line
        seen = set()
        for _ in range(10):  # one x⁽ⁱ⁾ a frame, never Figure 4.12's inner loop
            seen.add(count.inner_text())
            page.wait_for_timeout(100)
        assert all(re.fullmatch(r"i = \d+ of b = 11", text) for text in seen), seen
        chart.get_by_role("button", name="Finish ▶▶").click()
        page.get_by_role("button", name="Draw x⁽¹²⁾").wait_for(timeout=30_000)
        assert count.inner_text() == "b = 11" and drawn.inner_text() == "11"  # all 10 drawn: not "(stopped)"
        assert chart.get_by_role("button", name="Finish ▶▶").is_disabled()  # nothing left to finish

        for label, total, interval in (("Draw 100", "111", 60), ("Draw 10,000", "10,111", 80)):
            page.get_by_role("button", name=label, exact=True).click()
            count.filter(has_text=re.compile(r"^i = ")).wait_for(timeout=60_000)
            played = chart.locator("body").evaluate("() => [args.interval, args.frames.length]")
            assert played[0] == interval and played[0] * played[1] <= 4_000, played  # about 3 s, whatever the pace
            page.keyboard.press("End")  # Finish's other key
            drawn.filter(has_text=re.compile(f"^{total}$")).wait_for(timeout=30_000)
            assert count.inner_text() == f"b = {total}"


def test_the_teachers_keys_work_right_after_a_select_box_a_switch_and_a_button(chromium, app_url):
    """After choosing a pace the focus stayed in the select box, where space opened its list instead of pausing;
    a switch or a button just used would take space too. The keys are the teacher's whatever control was used."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + "/classroom?presenter=1&pace=1")
        chart = page.frame_locator("iframe[title*=live_chart]")
        count = chart.locator("#count")
        page.get_by_role("button", name="Draw x⁽¹⁾").click(timeout=60_000)
        count.filter(has_text=re.compile(r"j = [1-3]$")).wait_for(timeout=60_000)
        box = page.get_by_role("combobox", name="Line-by-line pace")
        box.click()
        page.get_by_role("option", name="2 s a line", exact=True).click()
        page.wait_for_function(IDLE, timeout=60_000, polling=100)
        box.focus()  # where choosing left it; on a loaded machine the run the choice starts can take it away
        page.wait_for_function("""() => { const e = document.activeElement;
            return e.getAttribute('role') === 'combobox' && e.getAttribute('aria-expanded') === 'false'; }""",
                               polling=100)
        page.keyboard.press(" ")  # the focus is in the select box, its list closed
        chart.get_by_role("button", name="Resume").wait_for(timeout=10_000)  # paused
        assert page.get_by_role("option").count() == 0 and box.input_value() == "2 s a line"  # no list opened
        j = int(re.search(r"j = (\d+)$", count.inner_text()).group(1))
        page.keyboard.press("ArrowRight")  # one line on, not the select box's next option
        count.filter(has_text=re.compile(rf"j = {j + 1}$" if j < 10 else r"^i = 1 of b = 1$")).wait_for(timeout=10_000)
        assert box.input_value() == "2 s a line"

        switch = page.get_by_text("Why 2·δ(x)?", exact=True)
        switch.click()  # the shifted view, its switch focused
        chart.locator("#aside").wait_for(timeout=30_000)
        page.keyboard.press(" ")  # resumes, and does not switch the view back
        chart.get_by_role("button", name="Pause").wait_for(timeout=10_000)
        page.wait_for_timeout(500)
        assert chart.locator("#aside").is_visible()
        page.keyboard.press("f")
        page.get_by_role("button", name="Draw x⁽²⁾").wait_for(timeout=30_000)

        page.get_by_role("button", name="Draw 10", exact=True).click()  # a button used last
        count.filter(has_text=re.compile(r"^i = \d of b = 11$")).wait_for(timeout=60_000)
        page.keyboard.press("Escape")  # Stop keeps what was drawn
        chart.get_by_text("(stopped)").wait_for(timeout=10_000)
        stopped = int(re.search(r"^i = (\d+)", count.inner_text()).group(1))
        page.get_by_role("button", name=f"Draw x⁽{sup(stopped + 1)}⁾").wait_for(timeout=30_000)
        assert stopped < 11


def _code_fonts(page) -> dict:
    """The fonts Chromium drew the live chart's code with, and how many glyphs each (DevTools' platform fonts)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")

    def documents(node):
        for child in node.get("children", []) + ([node["contentDocument"]] if "contentDocument" in node else []):
            yield child
            yield from documents(child)

    fonts = {}
    for node in documents(cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]):
        if node.get("nodeName") != "#document":
            continue
        for line in cdp.send("DOM.querySelectorAll", {"nodeId": node["nodeId"], "selector": "#code div"})["nodeIds"]:
            for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": line})["fonts"]:
                fonts[font["familyName"]] = fonts.get(font["familyName"], 0) + font["glyphCount"]
    return fonts


def test_the_codes_arrow_and_superscripts_are_drawn_full_size(chromium, app_url, tmp_path):
    """At 24 px "s ← s + 1" read "s . s + 1" and x⁽ⁱ⁾'s superscripts were a third of the x-height (Noto Sans Mono's
    glyphs): the code is drawn with Noto Sans Mono CJK (fonts-noto-cjk, which .ci/run installs), whose arrow is a
    full em, and the superscripts as small ordinary characters, as high as an x."""
    need("Noto Sans CJK")
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + "/classroom?presenter=1")
        chart = page.frame_locator("iframe[title*=live_chart]")
        line = chart.locator("#code div", has_text="s ← s + 1 if")
        line.wait_for(timeout=60_000)
        line.screenshot(path=tmp_path / "code_line.png")
        ink = line.evaluate("""line => {
            const ink = (font, text) => { const g = document.createElement('canvas').getContext('2d'); g.font = font;
                const m = g.measureText(text);
                return [m.actualBoundingBoxLeft + m.actualBoundingBoxRight, m.actualBoundingBoxAscent
                        + m.actualBoundingBoxDescent]; };
            const font = getComputedStyle(line).font, sup = line.querySelector('.sup');
            return {size: parseFloat(getComputedStyle(line).fontSize), arrow: ink(font, '←'), x: ink(font, 'x'),
                    sup: sup.textContent, i: ink(getComputedStyle(sup).font, 'i'), paren: ink(font, '('),
                    small: ink(getComputedStyle(sup).font, '('),
                    raw: [...line.closest('#code').textContent].filter(c => '⁽⁾ⁱ⁰¹²³⁴⁵⁶⁷⁸⁹'.includes(c))}; }""")
        fonts = _code_fonts(page)
    assert fonts and all(name.startswith("Noto Sans Mono CJK") for name in fonts), fonts  # every glyph, the arrow too
    assert ink["size"] == 24 and ink["arrow"][0] >= 0.75 * ink["size"], ink  # Noto Sans Mono's: 12 px wide
    assert ink["sup"] == "(i)" and not ink["raw"], ink  # no superscript code point left to a font's tiny glyph
    assert ink["i"][1] >= ink["x"][1], ink  # the superscript i as high as the code's x (Noto Sans Mono's ⁱ: 11 px)
    assert ink["small"][1] >= 0.7 * ink["paren"][1], ink  # its ( 72% of the code's (Noto Sans Mono's ⁽: half)


def test_presenter_mode_keeps_the_download_row_on_screen_from_the_first_draw_to_10000(chromium, app_url):
    """At 1280 x 720 the first draw added table rows under a chart already grown into the screen, and pushed the
    Download / Slide row 22 px below it: the table now keeps its rows' room from the start."""
    def bottoms(page) -> dict:  # presenter mode's downloads are in one button (Download SVG and the slides in it)
        return {"downloads": page.locator(".st-key-walk-downloads button").first.bounding_box()}

    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + "/classroom?presenter=1&pace=0.25")
        chart = page.frame_locator("iframe[title*=live_chart]")
        chart.locator(".js-plotly-plot .barlayer").first.wait_for(state="attached", timeout=60_000)
        page.wait_for_timeout(1_000)  # fitted to the screen
        seen = [bottoms(page)]
        page.get_by_role("button", name="Draw x⁽¹⁾").click()
        chart.locator("#count").filter(has_text=re.compile(r"j = [1-9]$")).wait_for(timeout=60_000)
        seen.append(bottoms(page))
        page.keyboard.press("f")
        page.get_by_role("button", name="Draw 10,000").click(timeout=30_000)
        page.get_by_role("button", name="Draw x⁽¹⁰⁰⁰²⁾").wait_for(timeout=60_000)
        page.wait_for_timeout(500)
        seen.append(bottoms(page))
    for boxes in seen:
        for name, box in boxes.items():
            assert box["y"] + box["height"] <= 720, (name, box, seen)


def test_a_phone_shows_the_chart_and_the_table_whole(chromium, app_url, tmp_path):
    """A student opening the link on a phone (390 x 844) got a 150 px chart with a cut legend beside the code and a
    table cut after doc 5: there the code goes under the chart, which takes the width, and the table is set small
    enough to be read whole; eq. 4.48 breaks its lines at "=" within the screen (KaTeX's scrolled sideways)."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page.goto(app_url + "/classroom?b=20")
        chart = page.frame_locator("iframe[title*=live_chart]")
        chart.locator(".legendtext").first.wait_for(timeout=60_000)
        frame = page.locator("iframe[title*=live_chart]")
        frame.scroll_into_view_if_needed()
        page.screenshot(path=tmp_path / "phone.png")
        seen = chart.locator("body").evaluate("""() => {
            const box = e => { const r = e.getBoundingClientRect();
                               return {text: e.textContent, l: r.left, r: r.right, t: r.top, b: r.bottom}; };
            return {width: document.documentElement.clientWidth, svg: box(document.querySelector('#chart .main-svg')),
                    code: box(document.querySelector('#code')),
                    legend: [...document.querySelectorAll('.legendtext')].map(box),
                    labels: [...document.querySelectorAll('.annotation-text')].map(box),
                    cells: [...document.querySelectorAll('#table th, #table td')].map(box),
                    font: Math.min(...[...document.querySelectorAll('#table td')].map(
                        e => parseFloat(getComputedStyle(e).fontSize)))}; }""")
        equation = page.evaluate("""() => { const box = document.querySelector('.eq-448');
            return [box.scrollWidth, box.clientWidth,
                    Math.max(...[...box.querySelectorAll('span')].map(e => e.getBoundingClientRect().right)),
                    document.documentElement.clientWidth]; }""")
    assert equation[0] <= equation[1] and equation[2] <= equation[3], equation  # eq. 4.48 whole: KaTeX's scrolled
    svg = seen["svg"]
    assert svg["r"] - svg["l"] >= 0.9 * seen["width"] and seen["code"]["t"] >= svg["b"], seen  # full width, code below
    for text in seen["legend"]:  # whole, and clear of the lines' labels
        assert svg["l"] <= text["l"] and text["r"] <= svg["r"], text
        assert all(text["b"] <= label["t"] or label["b"] <= text["t"] for label in seen["labels"]), \
            (text, seen["labels"])
    assert len(seen["cells"]) >= 15 * 6 and all(0 <= c["l"] and c["r"] <= seen["width"] for c in seen["cells"]), seen
    assert seen["font"] >= 12


# every text drawn in the page's main part (not the walk-through's frame), with its size and box; the switch's own
VISIBLE_TEXTS = """() => {
    const out = [], main = document.querySelector('[data-testid="stMain"]');
    const walk = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
        const e = node.parentElement, r = e.getBoundingClientRect(), style = getComputedStyle(e);
        if (!node.textContent.trim() || !r.width || !r.height || style.visibility === 'hidden') continue;
        out.push({text: node.textContent.trim().slice(0, 50), size: parseFloat(style.fontSize), l: r.left, r: r.right,
                  t: r.top, b: r.bottom, dock: !!e.closest('.st-key-presenter-switch')});
    }
    return out; }"""


def apart(one: dict, other: dict) -> bool:
    return one["r"] <= other["l"] or other["r"] <= one["l"] or one["b"] <= other["t"] or other["b"] <= one["t"]


@pytest.mark.parametrize("width, height", [(1920, 1080), (1280, 720)])
def test_each_section_in_presenter_mode_is_readable_from_the_back_and_fits_one_screen(chromium, app_url, tmp_path,
                                                                                      width, height):
    """Sections 3-6 in presenter mode, reached from a slide's link and then from the switch in the corner: every text
    of each (its settings, chart, numbers) at 24 px or more and inside the screen, the chart taking the height left,
    the switch clear of everything, the URL naming the section; and the walk-through clear of the switch too."""
    from ui.sections import SECTIONS, WALK_THROUGH, label

    order = [name for name in SECTIONS if name != WALK_THROUGH] + [WALK_THROUGH]
    settled = "() => !document.querySelector('[data-testid=stStatusWidget]')"
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(app_url + f"/classroom?presenter=1&section={order[0]}")
        for k, section in enumerate(order):
            if k:  # from the switch in the corner, as a lecturer does
                page.get_by_role("combobox", name="Section").click()
                page.get_by_role("option", name=label(section), exact=True).click()
            if section == WALK_THROUGH:
                page.wait_for_function("() => !location.search.includes('section=')", timeout=60_000)
                chart = page.frame_locator("iframe[title*=live_chart]")
                chart.locator("#table tbody tr").first.wait_for(timeout=60_000)
            else:
                page.wait_for_url(f"**section={section}**", timeout=60_000)
                page.locator(".st-key-presenter-chart .js-plotly-plot .main-svg").first.wait_for(timeout=120_000)
            page.wait_for_function(settled, timeout=120_000)
            page.wait_for_timeout(600)  # Plotly lays its texts out
            page.screenshot(path=tmp_path / f"presenter_{section}_{width}.png")
            texts = page.evaluate(VISIBLE_TEXTS)
            dock = page.locator(".st-key-presenter-switch").bounding_box()
            shown = page.locator(".st-key-presenter-switch input").evaluate(
                "e => [e.value, parseFloat(getComputedStyle(e).fontSize), e.scrollWidth <= e.clientWidth]")
            assert shown == [label(section), 24, True], shown  # the section named whole, at 24 px
            assert dock["x"] >= 0 and dock["y"] >= 0 and dock["x"] + dock["width"] <= width
            assert dock["y"] + dock["height"] <= height
            box = dict(l=dock["x"], r=dock["x"] + dock["width"], t=dock["y"], b=dock["y"] + dock["height"])
            if section == WALK_THROUGH:
                frame = page.locator("iframe[title*=live_chart]").bounding_box()
                parts = page.frame_locator("iframe[title*=live_chart]").locator("body").evaluate(
                    """() => ['#chart', '#code', '#counters', '#table', '#bar'].map(s => {
                        const r = document.querySelector(s).getBoundingClientRect();
                        return {text: s, l: r.left, r: r.right, t: r.top, b: r.bottom}; })""")
                texts = [t for t in texts if not t["dock"]] + [
                    {**part, "l": part["l"] + frame["x"], "r": part["r"] + frame["x"], "t": part["t"] + frame["y"],
                     "b": part["b"] + frame["y"], "dock": False} for part in parts]
                texts = [t for t in texts if t["t"] < height]  # below the fold: the download row, as before
            else:
                small = [(t["text"], t["size"]) for t in texts if t["size"] < 24]
                assert not small, (section, small)
                outside = [t for t in texts if t["l"] < -1 or t["t"] < -1 or t["r"] > width + 1 or t["b"] > height + 1]
                assert not outside, (section, outside)
                chart = page.locator(".st-key-presenter-chart").bounding_box()
                assert chart["height"] >= 0.4 * height, (section, chart)  # the chart has the screen's spare height
                assert len(texts) >= 15, (section, len(texts))  # ticks, titles, labels, numbers: all counted
            covered = [t for t in texts if not t["dock"] and not apart(t, box)]
            assert not covered, (section, covered)  # nothing under the switch


@pytest.mark.parametrize("presenter, width, height", [(1, 1920, 1080), (1, 1280, 720), (0, 1280, 2400)])
@pytest.mark.parametrize("x", ["3231212302", "1113333300", "2222223331"])  # δ(x) = .20 (the book), -.30, .50
def test_why_twice_delta_reads_beside_both_panels(chromium, app_url, presenter, width, height, x):
    """Both panels side by side with the explanation beside them (at 24 px and on screen in presenter mode),
    every label and title whole and apart from the others, whatever the sign and size of δ(x)."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(app_url + f"/classroom?presenter={presenter}&shift=1&x={x}")
        chart = page.frame_locator("iframe[title*=live_chart]")
        chart.locator(".x2title").wait_for(timeout=60_000)
        chart.locator("#aside").filter(has_text="2·δ(x)").wait_for(timeout=10_000)
        frame = page.locator("iframe[title*=live_chart]").bounding_box()
        seen = chart.locator("body").evaluate("""() => {
            const box = e => { const r = e.getBoundingClientRect();
                               return {text: e.textContent, l: r.left, r: r.right, t: r.top, b: r.bottom}; };
            return {svg: box(document.querySelector('#chart .main-svg')), aside: box(document.querySelector('#aside')),
                    font: parseFloat(getComputedStyle(document.querySelector('#aside')).fontSize),
                    verdict: box(document.querySelector('#verdict')),
                    labels: [...document.querySelectorAll('.annotation-text, .xtitle, .x2title, .ytitle, .legendtext')]
                            .map(box)}; }""")
    svg, aside, labels = seen["svg"], seen["aside"], seen["labels"]
    assert aside["l"] >= svg["r"] - 1  # beside the panels
    if presenter:
        assert seen["font"] >= 24 and frame["y"] + aside["b"] <= height  # large, and on the first screen
    if presenter and width >= 1500:  # a 1080p screen has room under the aside: α and the conclusion stay in view
        verdict = seen["verdict"]
        assert "α = .05" in verdict["text"] and verdict["t"] >= aside["b"] and verdict["l"] >= svg["r"] - 1, verdict
        assert frame["y"] + verdict["b"] <= height
    assert len(labels) == 7 + 2 * (not presenter)  # δ(x), 2·δ(x), H0: 0, δ(x), three axis titles (+ the legend)
    for k, one in enumerate(labels):
        assert svg["l"] <= one["l"] and one["r"] <= svg["r"], one  # whole, not cut at the chart's edge
        for other in labels[k + 1:]:
            apart = one["r"] <= other["l"] or other["r"] <= one["l"] or one["b"] <= other["t"] or other["b"] <= one["t"]
            assert apart, (one, other)


def test_the_page_icons_are_drawn_by_streamlits_own_font(page):
    """Emoji icons were empty boxes where no emoji font is installed (this Chromium, and the README's screenshots);
    Material icons come with Streamlit's font."""
    links = page.locator("[data-testid=stSidebarNav] a")
    links.first.wait_for(timeout=60_000)
    assert links.count() == 5
    assert page.locator("[data-testid=stSidebarNav] a [data-testid=stIconMaterial]").count() == 5


@pytest.mark.parametrize("query, third", [("", "A wins every disagreement"), ("?lang=zh", "不一致处 A 全对")])
def test_every_classroom_button_shows_its_whole_label_at_1280_px(chromium, app_url, query, third):
    """A projector at 1280 x 720 with the sidebar open: no button's label is cut (the third preset once read
    "A wins every disagreemen…", the slides' buttons in Chinese "幻灯片 …" three times), nor eq. 4.48."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + "/classroom" + query)
        page.locator(".st-key-walk-draw-1 button").wait_for(timeout=60_000)
        page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=60_000)
        page.wait_for_timeout(500)  # the layout settles
        labels = page.evaluate("""() => [...document.querySelectorAll('.stButton button, .stDownloadButton button')]
            .filter(b => b.offsetParent).map(b => [b.textContent,  // cut: some part narrower than its text
              [b, ...b.querySelectorAll('*')].some(e => e.clientWidth && e.scrollWidth > e.clientWidth)])""")
        equation, shown = page.evaluate("""() => { const box = document.querySelector('.eq-448');
            return [Math.max(...[...box.querySelectorAll('span')].map(e => e.getBoundingClientRect().right)),
                    box.parentElement.getBoundingClientRect().right]; }""")
    assert equation <= shown, (equation, shown)  # eq. 4.48 whole (its "= s / b" ran past its box, cut)
    assert len(labels) >= 12 and any(text.startswith(third) for text, _ in labels), labels
    assert not [text for text, cut in labels if cut], labels


def test_the_teacher_pauses_steps_goes_back_and_replays_with_keys(page, app_url):
    from playwright.sync_api import expect

    page.goto(app_url + "/classroom?pace=0.25")
    chart = page.frame_locator("iframe[title*=live_chart]")
    for name in ("Replay", "Step ▶", "◀ Back", "Pause"):  # b = 0: nothing to replay, step, go back to or pause
        expect(chart.get_by_role("button", name=name)).to_be_disabled(timeout=60_000)
    page.get_by_role("button", name="Draw x⁽¹⁾").click(timeout=60_000)
    count = chart.locator("#count")
    count.filter(has_text=re.compile(r"j = [2-5]$")).wait_for(timeout=90_000)
    page.keyboard.press(" ")  # pause
    chart.get_by_role("button", name="Resume").wait_for(timeout=10_000)
    paused = count.inner_text()
    page.wait_for_timeout(1_000)
    assert count.inner_text() == paused  # nothing moves while paused
    j = int(re.search(r"j = (\d+)$", paused).group(1))
    page.keyboard.press("ArrowRight")  # one line of Figure 4.12
    count.filter(has_text=f"j = {j + 1}").wait_for(timeout=10_000)
    assert chart.locator("td.now").count() == 2  # the document just drawn, in x and in x⁽¹⁾
    page.keyboard.press("ArrowLeft")
    count.filter(has_text=re.compile(rf"j = {j}$")).wait_for(timeout=10_000)
    chart.get_by_role("button", name="Resume").click()
    chart.locator("#code div.now", has_text="p-value(x) ≈ s / b").wait_for(timeout=30_000)  # played to the end
    page.get_by_role("button", name="Draw x⁽²⁾").wait_for(timeout=30_000)  # the page knows the batch is done
    page.keyboard.press("r")  # replay the batch from its first line
    count.filter(has_text=re.compile(r"^b = 1 · δ\(x\)|j = [1-3]$")).wait_for(timeout=10_000)
    chart.locator("#code div.now", has_text="p-value(x) ≈ s / b").wait_for(timeout=30_000)
    page.keyboard.press("ArrowLeft")  # after the end: back one line, and forward again
    chart.locator("#code div.now", has_text="s ← s + 1").wait_for(timeout=10_000)
    page.keyboard.press("ArrowRight")
    chart.locator("#code div.now", has_text="p-value(x) ≈ s / b").wait_for(timeout=10_000)
    page.keyboard.press("r")
    count.filter(has_text=re.compile(r"^b = 1 · δ\(x\)|j = [1-3]$")).wait_for(timeout=10_000)
    page.keyboard.press("Escape")  # stopping a replay keeps what was drawn: chart, counters and button agree
    chart.locator("#code div.now", has_text="p-value(x) ≈ s / b").wait_for(timeout=10_000)
    assert "stopped" not in count.inner_text() and chart.locator("#k-b").inner_text() == "1"
    assert page.get_by_role("button", name="Draw x⁽²⁾").is_visible()


IDLE = "() => !document.querySelector('[data-testid=stStatusWidget]')"  # no script running


def slide_of(page, fmt: str, tmp_path) -> bytes:
    """The walk-through's Slide PNG, SVG or PDF, as the browser downloads it (the buttons found by their keys: their
    labels are translated)."""
    if not page.locator(f".st-key-slide-{fmt} button:visible").count():  # presenter mode: in the Download button
        page.locator(".st-key-walk-downloads button").first.click()
    with page.expect_download(timeout=90_000) as download:
        page.locator(f".st-key-slide-{fmt} button:visible").click()  # (a hidden copy measures the label)
    download.value.save_as(tmp_path / f"slide.{fmt}")
    return (tmp_path / f"slide.{fmt}").read_bytes()


def test_the_slide_png_is_a_slide_whose_qr_code_opens_the_page_as_it_is(page, app_url, tmp_path):
    import segno

    from helpers.slides import qr_modules, slide_layout_holds

    page.goto(app_url + "/classroom?b=12")
    chart = page.frame_locator("iframe[title*=live_chart]")
    chart.locator("#count").filter(has_text="b = 12").wait_for(timeout=60_000)
    png = slide_of(page, "png", tmp_path)
    slide_layout_holds(png)  # margins, and the bottom 40% not empty
    assert "b=12" in page.url and "seed=0" in page.url
    assert qr_modules(png) == [list(row) for row in segno.make(page.url, error="m", micro=False).matrix]


def test_a_slide_after_a_stop_is_the_b_drawn_in_the_pages_language(chromium, app_url, tmp_path):
    """Presenter mode, in Chinese: Stop in the middle of Draw 10,000, then the slide as PDF. Its b, s, table and link
    are the page's (b as drawn, not the batch's 10,000; the last five x⁽ⁱ⁾, where presenter mode shows two), its text
    the page's language (the section's heading and the conclusion as the catalogue gives them), its fonts embedded."""
    from sigcore import i18n, teaching
    from ui import walkthrough

    need("Noto Sans CJK")  # the slide's Chinese glyphs, read back from its PDF
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + "/classroom?presenter=1&lang=zh")
        chart = page.frame_locator("iframe[title*=live_chart]")
        page.locator(".st-key-walk-draw-10000 button").wait_for(timeout=60_000)
        page.wait_for_function(IDLE, timeout=60_000)  # a click during the first run would lose the link's state
        page.locator(".st-key-walk-draw-10000 button").click()
        b_in_url = "new URL(location.href).searchParams.get('b')"
        page.wait_for_function(f"() => {b_in_url} === '10000'", timeout=60_000)  # the batch's run has reached the URL
        drawn = chart.locator("#k-b")
        for _ in range(600):  # a few frames into the batch (40 frames in about 3 s)
            if drawn.inner_text() not in ("", "0", "10,000"):
                break
            time.sleep(0.02)
        page.keyboard.press("Escape")  # Stop: the test sets drawn so far stay
        page.wait_for_function(f"() => {b_in_url} !== '10000'", timeout=30_000)  # Stop's run has reached it
        page.wait_for_function(IDLE, timeout=60_000)
        b = int(re.search(r"[?&]b=(\d+)", page.url).group(1))
        assert 0 < b < 10_000 and "lang=zh" in page.url and "presenter=1" in page.url
        pdf = slide_of(page, "pdf", tmp_path)
    fonts = subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, check=True).stdout.decode().splitlines()
    assert len(fonts) > 3 and all(line.split()[-5] == "yes" for line in fonts[2:])  # every font embedded

    def words(*crop: str) -> str:
        return "".join(subprocess.run(["pdftotext", "-layout", *crop, "-", "-"], input=pdf, capture_output=True,
                                      check=True).stdout.decode().split())
    link = words("-x", "990", "-y", "700", "-W", "450", "-H", "110")  # the link's lines under the QR code (points)
    assert link == page.url  # the slide's link is the page's
    text = words()
    assert f"b{b:,}s" in text and "10,000" not in text  # b as drawn; no "i = 20 of b = 101"
    layout = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    assert len(re.findall(r"x⁽[⁰¹²³⁴⁵⁶⁷⁸⁹ ]+⁾", layout.decode())) == 5  # five x⁽ⁱ⁾ rows (presenter mode's two left
    # the bottom empty); pdftotext may set a superscript from another font apart
    a, b_ = walkthrough.PRESETS["Textbook: A .70, B .50"]
    with i18n.speaking("zh"):
        heading = i18n._("2 · Bootstrap test sets x⁽ⁱ⁾")
        said = walkthrough.conclusion(teaching.exact_bootstrap_p(a, b_), 0.05)
    assert "".join(heading.split()) in text and "虚拟测试集" in text  # drawn in Chinese from the catalogue
    assert "".join(said.replace("**", "").split()) in text  # the page's conclusion, in the page's language


CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# the English a Chinese Classroom keeps: the book's pseudo-code (the translation prints it in English), the glossary's
# English column, names (people, papers, tools, the other pages, which are English), formats, keys, and what Streamlit
# writes itself (its skip link, its icons' ligatures)
KEPT = set("""AB function BOOTSTRAP test set num of samples returns value Calculate to for do Select member at random
and add it if return hypothesis null alternative effect size threshold statistical significance testing paired bootstrap
sample sampling with replacement distribution gold label accuracy one sided approximate randomisation non parametric
power English sigcore NLP ML Python python API SVG PNG PDF Esc Holm McNemar Student Jurafsky Martin Speech Language
Processing Card et al With Little Power Comes Great Responsibility EMNLP statistics multiple adjust Compare Could
evaluating have stopped early two systems Many Which Skip main content balance school leaderboard explore keyboard arrow
down download expand less Pairwise judgments thumbs up""".split())  # the sidebar: the other pages' names and icons
SEEN_TEXT = """() => [document.body.innerText, ...[...document.querySelectorAll('svg text')].map(t => t.textContent),
    ...[...document.querySelectorAll('[title]:not(iframe)')].map(e => e.title)].join('\\n')"""


def test_the_chinese_classroom_is_chinese_with_every_section_open(chromium, app_url):
    """Issue 27 §4 measured: the Classroom in Chinese, after Draw 10 with every section and tab open and the glossary
    unfolded, every line it shows (the page, the live chart's frame, the charts' SVG text, tooltips) counted once: the
    share of its letters that are Chinese, against the 79 CJK characters and 6,287 Latin letters before; every English
    word left is one the page keeps on purpose (KEPT), and no placeholder is left unfilled."""
    with opened(chromium) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + "/classroom?lang=zh")
        page.locator(".st-key-walk-draw-10 button").wait_for(timeout=60_000)
        page.wait_for_function(IDLE, timeout=60_000)
        page.locator(".st-key-walk-draw-10 button").click()
        page.keyboard.press("f")
        for key in ("reach-p-values", "reach-power", "reach-mistakes", "reach-three-tests"):
            page.wait_for_function(IDLE, timeout=180_000)
            page.locator(f".st-key-{key} label").click()
            page.wait_for_timeout(300)
        page.wait_for_function(IDLE, timeout=180_000)
        lines = set()
        for unfold in (".st-key-glossary summary", ".st-key-walk-grid summary", ".st-key-walk-seed-menu button"):
            page.locator(unfold).first.click()  # the glossary, the grid of x, the seed's box: drawn once opened
            page.wait_for_timeout(300)
            page.wait_for_function(IDLE, timeout=60_000)
        page.get_by_text("随机种子", exact=True).wait_for(timeout=30_000)
        lines |= {line.strip() for frame in page.frames for line in frame.evaluate(SEEN_TEXT).split("\n")}
        page.keyboard.press("Escape")  # the seed's box closed, over the tabs otherwise
        for tab in page.get_by_role("tab").all():  # the common mistakes, one tab each
            tab.click()
            page.wait_for_function(IDLE, timeout=180_000)
            page.locator("[role=tabpanel]:not([hidden]) .js-plotly-plot").first.wait_for(timeout=60_000)
            lines |= {line.strip() for frame in page.frames for line in frame.evaluate(SEEN_TEXT).split("\n")}
    text = "\n".join(sorted(lines))
    words = [w for w in re.findall(r"[A-Za-z]+", text) if len(w) > 1]  # a letter alone is notation: x, b, p, A, H0
    left = sorted(set(words) - KEPT)
    cjk, latin = len(CJK.findall(text)), sum(map(len, words))
    print(f"Chinese page: {cjk:,} CJK characters, {latin:,} Latin letters in words ({len(words):,} words, "
          f"{sum(len(w) for w in words if w not in KEPT)} letters outside KEPT): {cjk / (cjk + latin):.0%} Chinese")
    assert not left, left  # every English word on the page is kept on purpose
    assert cjk / (cjk + latin) >= 0.8 and cjk > 4_000, (cjk, latin)  # the rest: pseudo-code, glossary, names
    assert not re.search(r"\{[a-z_]+\}", text), re.findall(r".{20}\{[a-z_]+\}.{20}", text)


def test_many_systems_page_draws_the_forest_plot_and_offers_the_latex_table(page, app_url, tmp_path):
    """The WMT17 sample against LIUM-NMT in a real browser: the forest plot with every system, uedin-nmt on top,
    and the LaTeX table to copy."""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/many")
    chart = page.locator(".js-plotly-plot").first
    chart.wait_for(timeout=120_000)
    ticks = chart.locator(".ytick text").evaluate_all("texts => texts.map(t => t.textContent)")  # SVG text
    assert len(ticks) == 15 and ticks[-1] == "uedin-nmt"  # largest δ on top (Plotly lists ticks bottom-up)
    axis = chart.locator(".g-xtitle text").text_content()
    assert axis.startswith("δ = BLEU(system) − BLEU(LIUM-NMT)")
    chart.scroll_into_view_if_needed()
    page.screenshot(path=tmp_path / "many.png")
    assert page.get_by_role("button", name="LaTeX table").count() == 1


def test_many_systems_page_has_a_datasets_and_a_seeds_mode(page, app_url):
    """Above the data, the two other kinds of input open on their samples: replicability over four datasets,
    ASO over five seeds (the numbers tests/test_many_modes.py checks against the engine)."""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/many")
    page.get_by_text("Many datasets", exact=True).click()
    page.get_by_text("Replicability analysis (Dror et al., 2017) over 4 datasets").wait_for(timeout=60_000)
    assert "Holm's procedure identifies: digits" in page.inner_text("body")
    page.get_by_text("Many seeds", exact=True).click()
    page.get_by_text("mlp over forest: ε_min = 0.144, almost stochastically dominant").wait_for(timeout=60_000)


_SEEN = """() => {  // in the order they happen: the figures gone, the new files' preview shown
  window.__events = [];
  const preview = () => [...document.querySelectorAll('[data-testid="stCaptionContainer"]')].map(e => e.innerText)
    .find(t => t.includes(' scores · '));
  const before = preview();
  new MutationObserver(() => {
    if (!document.querySelector('.js-plotly-plot') && !window.__events.includes('gone')) window.__events.push('gone');
    const now = preview();
    if (now && now !== before && !window.__events.includes('new data')) window.__events.push('new data');
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


def test_many_tasks_reads_an_uploaded_output_folder_and_draws_the_ranks(page, app_url, tmp_path):
    """Models on many tasks: the lm-eval sample suite, then the same folder uploaded as a zip, in a real browser:
    the rank figure with its tie groups, best on top (the numbers tests/test_many_tasks_page.py checks), each title
    clear of Plotly's toolbar; then other logs uploaded: the last figures go before the new files are even read."""
    import zipfile

    from playwright.sync_api import expect

    suite = ROOT / "sample_data" / "lm_eval_suite"
    with zipfile.ZipFile(tmp_path / "out.zip", "w") as z:
        for p in sorted(suite.glob("*/*")):
            z.write(p, f"out/{p.relative_to(suite).as_posix()}")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/many")
    page.get_by_text("Many tasks", exact=True).click()
    # the sample opens on acc and maj@3's exact_match; an upload's metric is the user's to choose: acc, where delta
    # is apart
    for source, heading, expected in (("Sample", "acc / exact_match[maj@3] of 4 models on 4 tasks", [1, 1, 2, 2]),
                                      ("Upload", "acc of 4 models on 3 tasks", [1, 1, 2, 3])):
        if source == "Upload":  # the Data box's option: a rerun under load can still show the last mode's too
            page.get_by_role("radiogroup", name="Data").get_by_text("Upload", exact=True).click()
            page.locator("input[type=file]").set_input_files(tmp_path / "out.zip")
            page.get_by_text("Choose at least one of the 4 metrics, then press Run.").wait_for(timeout=60_000)
            page.get_by_role("combobox", name="Metrics").click()
            page.keyboard.press("ArrowDown")  # the list opens on a key, not on the click that focuses it
            page.get_by_role("option", name="acc", exact=True).click()
            page.keyboard.press("Escape")
            page.get_by_role("button", name="Run").click()
        page.get_by_text(heading).first.wait_for(timeout=60_000)
        chart = page.locator(".js-plotly-plot").first
        chart.wait_for(timeout=60_000)
        ticks = chart.locator(".ytick text").evaluate_all(
            "texts => texts.map(t => [t.getBoundingClientRect().top, t.textContent])")
        assert [name for _, name in sorted(ticks)] == ["gamma", "beta", "delta", "alpha"]  # best on top
        # the new run's figure replaces the old one in place: wait until it has
        expect(chart.locator(".annotation-text")).to_have_text([f"group {g}" for g in expected], timeout=60_000)
        diagram = page.locator(".js-plotly-plot").nth(1)  # the critical-difference-style diagram below it
        expect(diagram.locator(".xtitle")).to_have_text("mean rank over b = 10,000 resamples (1 = best)")
        expect(diagram.locator(".annotation-text")).to_have_count(4)  # every model named beside the axis
        for figure in (chart, diagram):  # the toolbar shows on hover, at the top right: the title is left of it
            figure.scroll_into_view_if_needed()
            figure.hover()
            bar, title = figure.locator(".modebar").bounding_box(), figure.locator(".gtitle").bounding_box()
            assert title["x"] + title["width"] < bar["x"] or title["y"] > bar["y"] + bar["height"], (title, bar)
        chart.scroll_into_view_if_needed()
        page.screenshot(path=tmp_path / f"tasks-{source}.png")
        if source == "Upload":
            assert "quiz: the mean of its tasks' items" in page.inner_text("body")
    page.evaluate(_SEEN)
    with zipfile.ZipFile(tmp_path / "logs.zip", "w") as z:  # other logs: Inspect's, beside the lm-eval ones
        for name in ("alpha.eval", "beta.json.gz"):
            z.write(ROOT / "tests" / "data" / "inspect" / name, name)
    page.locator("input[type=file]").set_input_files(tmp_path / "logs.zip")
    page.get_by_text("Choose at least one of the").wait_for(timeout=60_000)
    assert page.evaluate("window.__events") == ["gone", "new data"]  # not the old figures under the new data


def test_a_paper_figure_shows_at_its_true_size_and_downloads_as_pdf(page, tmp_path):
    """After a run, the paper-style figure is drawn an ACL column wide (7.7 cm, 291 CSS px) with the caption a
    paper prints,
    and its PDF download is a PDF."""
    page.get_by_role("button", name="Run").click()
    page.get_by_text("A (uedin-nmt) beats B (LIUM-NMT) by 1.22 BLEU").wait_for(timeout=60_000)
    page.get_by_text("Figure for a paper or a slide").click()
    svg = page.locator(".stPlotlyChart .main-svg").first
    svg.wait_for(timeout=30_000)
    assert abs(svg.bounding_box()["width"] - 291.0) < 1.5
    assert "δ(x⁽ⁱ⁾) on b = 10,000 paired bootstrap resamples" in page.inner_text("body")
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name="Download PDF").click()
    assert download.value.suggested_filename.endswith(".pdf")
    assert (Path(download.value.path())).read_bytes().startswith(b"%PDF-")


def test_which_test_page_runs_a_simulation(page, app_url):
    page.goto(app_url + "/which_test")
    page.get_by_role("heading", name="Paired bootstrap").wait_for(timeout=60_000)
    page.get_by_role("button", name="Run the simulation").click()
    chart = page.locator(".js-plotly-plot").first
    chart.wait_for(timeout=60_000)
    assert "paired bootstrap" in chart.inner_text() and "McNemar's exact test" in chart.inner_text()


def test_a_second_opening_takes_plotly_from_the_browser_cache(chromium, app_url):
    """The lecturer who tried the page before class: Plotly's 1.2 MB come from the cache the second time (Streamlit
    sent a component's files with no lifetime and no validator, so every visit fetched and compiled them again)."""
    from ui.live_chart import SERVED

    with opened(chromium) as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        seen = []
        for _ in range(2):
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.on("Network.responseReceived", lambda event: seen.append(event["response"]) if event[
                "response"]["url"].endswith("/" + SERVED) else None)
            page.goto(app_url + "/classroom")
            page.frame_locator("iframe[title*=live_chart]").locator(".js-plotly-plot .barlayer").first.wait_for(
                state="attached", timeout=60_000)
            page.close()
    assert len(seen) == 2, seen
    first, second = seen
    assert not first.get("fromDiskCache") and "immutable" in first["headers"]["cache-control"], first["headers"]
    assert second.get("fromDiskCache") or second.get("fromMemoryCache"), second


def test_many_tasks_board_and_per_task_table_fit_the_main_column_at_1280_px(page, app_url, tmp_path):
    """Eight models with long names (as Hugging Face writes them) on seven tasks, at 1280 x 720 beside the sidebar:
    the board's and the per-task table's every column is inside the main column, nothing scrolls sideways (the
    names wrap, each number stays whole), and the preview of the data fits its half."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(5)
    models = ["meta-llama/Meta-Llama-3.1-70B-Instruct", "Qwen/Qwen2.5-72B-Instruct", "google/gemma-2-27b-it",
              "mistralai/Mistral-Large-Instruct-2407", "anthropic/claude-3-5-haiku-20241022",
              "microsoft/Phi-3-medium-128k-instruct", "openai/gpt-4o-mini-2024-07-18", "deepseek-ai/DeepSeek-V2.5"]
    tasks = ["mmlu_pro", "gsm8k", "hellaswag", "arc_challenge", "truthfulqa_mc2", "winogrande", "bbh_navigate"]
    pd.DataFrame([(m, t, str(i), float(rng.random() < 0.45 + 0.04 * k)) for k, m in enumerate(models)
                  for t in tasks for i in range(150)], columns=["model", "task", "item", "score"]).to_csv(
        tmp_path / "scores.csv", index=False)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/many")
    page.get_by_text("Many tasks", exact=True).click()
    page.get_by_text("acc / exact_match[maj@3] of 4 models on 4 tasks").first.wait_for(timeout=60_000)
    page.get_by_role("radiogroup", name="Data").get_by_text("Upload", exact=True).click()
    page.locator("input[type=file]").set_input_files(tmp_path / "scores.csv")
    page.get_by_text("8,400 scores · 8 models · 7 tasks").wait_for(timeout=60_000)
    page.get_by_role("button", name="Run").click()
    page.get_by_text("score of 8 models on 7 tasks").first.wait_for(timeout=90_000)
    tables = page.locator("[data-testid=stTable]")
    expect_count = 2  # the board, each task's δ
    tables.nth(expect_count - 1).wait_for(timeout=60_000)
    column = page.locator("[data-testid=stMainBlockContainer]").evaluate(
        "e => { const s = getComputedStyle(e), r = e.getBoundingClientRect();"
        " return [r.left + parseFloat(s.paddingLeft), r.right - parseFloat(s.paddingRight)]; }")
    for k, name in enumerate(("board", "per-task")):
        table = tables.nth(k)
        table.scroll_into_view_if_needed()
        page.screenshot(path=tmp_path / f"tasks-{name}.png")
        scroll, client = table.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert scroll <= client, (name, scroll, client)
        edges = table.locator("th, td").evaluate_all(
            "cells => cells.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })")
        assert min(left for left, _ in edges) >= column[0] - 1 and max(r for _, r in edges) <= column[1] + 1
        assert table.locator("th").all_inner_texts()[-1] == "p corrected"  # the command line's column names
    assert tables.count() == expect_count
    preview = page.locator("[data-testid=stDataFrame]").first.bounding_box()
    assert preview["x"] + preview["width"] <= column[1] + 1
