"""The one patch of a dependency's private API: sigcore.report.export's true-size PDF swaps kaleido's private printing
step (kaleido._kaleido_tab._devtools_utils.print_pdf) while it draws. These tests fail when kaleido changes what
the patch relies on, with no browser: where kaleido's tab looks the step up, what the step sends, and the swap."""

import asyncio
import inspect

import pytest

from sigcore.report import export

devtools = pytest.importorskip("kaleido._kaleido_tab._devtools_utils")
tab_module = pytest.importorskip("kaleido._kaleido_tab._tab")


class FakeTab:
    """A Chromium tab that answers the two commands the printing step sends, and records them."""

    def __init__(self, size=(480.0, 360.0)):
        self.size, self.sent = size, []

    async def send_command(self, command, params=None):
        self.sent.append((command, params))
        if command == "Runtime.evaluate":
            return {"result": {"result": {"value": list(self.size)}}}
        return {"result": {"data": "JVBERi0="}}


def test_kaleido_looks_its_printing_step_up_in_the_module_the_patch_swaps():
    # kaleido's tab calls _devtools_utils.print_pdf through the module at call time: a from-import would not see it
    assert tab_module._dtools is devtools
    assert "_dtools.print_pdf(self.tab)" in inspect.getsource(tab_module)
    assert inspect.iscoroutinefunction(devtools.print_pdf)
    assert list(inspect.signature(devtools.print_pdf).parameters) == ["tab"]
    assert callable(devtools._raise_error)


def test_kaleido_still_prints_with_margins_the_patch_takes_away():
    # the patch's reason: kaleido prints on a page with 0.1 in margins and has no setting for it; when it changes,
    # this fails and the patch (export._true_size_pdf) may go
    tab = FakeTab()
    assert asyncio.run(devtools.print_pdf(tab)) == "JVBERi0="
    [(command, params)] = tab.sent
    assert command == "Page.printToPDF"
    assert [params[f"margin{side}"] for side in ("Top", "Bottom", "Left", "Right")] == [0.1] * 4


def test_the_patch_prints_on_a_page_of_the_figures_size_and_puts_kaleidos_step_back(monkeypatch):
    original, seen = devtools.print_pdf, {}

    def drawn(fig, fmt, *, width, height, scale):  # stands in for kaleido's drawing, which calls the step
        tab = FakeTab(size=(width, height))
        seen["data"] = asyncio.run(tab_module._dtools.print_pdf(tab))
        seen["sent"] = tab.sent
        return b"%PDF"

    monkeypatch.setattr(export, "figure_image", drawn)
    assert export._true_size_pdf(object(), width=480.0, height=360.0) == b"%PDF"
    assert devtools.print_pdf is original
    (_, _), (command, params) = seen["sent"]
    assert seen["data"] == "JVBERi0=" and command == "Page.printToPDF"
    assert [params[f"margin{side}"] for side in ("Top", "Bottom", "Left", "Right")] == [0] * 4
    assert params["paperWidth"] == 360 / 72  # 480 px = 360 pt, a whole number of points: no rounding down
    assert params["paperHeight"] == 271 / 72  # 360 px = 270 pt, rounded up past 0.1 pt so nothing is cut off
