"""A figure on a page comes with its SVG download, sized for a slide."""

import pytest
from streamlit.testing.v1 import AppTest

from sigcore.report import export
from sigcore.report.figures import walkthrough_histogram
from ui.figure import SLIDE


def test_a_figure_is_drawn_with_its_svg_download():
    at = AppTest.from_string("from sigcore.report.figures import walkthrough_histogram\nfrom ui.figure import show\n"
                             "show(walkthrough_histogram(10, 0.2), 'bootstrap')").run()
    assert not at.exception
    assert len(at.get("plotly_chart")) == 1
    button = at.get("download_button")[0].proto
    assert button.label == "Download SVG"


@pytest.mark.slow  # an SVG through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_svg_for_a_slide():
    svg = export.figure_image(walkthrough_histogram(10, 0.2, shifted=True), "svg", scale=1, **SLIDE).decode()
    assert svg.startswith("<svg") and f'width="{SLIDE["width"]}"' in svg and "2·δ(x) = .40" in svg
