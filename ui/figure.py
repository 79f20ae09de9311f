"""A figure on a page, with its SVG download for slides and papers."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from sigcore.i18n import _
from sigcore.report import export


def config(name: str, **size: int) -> dict:
    """Plotly's camera button saves SVG (vector, for slides) under ``name``, at ``width`` and ``height`` if given."""
    return {"displaylogo": False, "toImageButtonOptions": {"format": "svg", "filename": name, **size}}


SLIDE = {"width": 960, "height": 400}  # pixels of an SVG for a 16:9 slide; a figure's own height wins


def show(fig: go.Figure, name: str) -> None:
    """Draw ``fig`` and offer it as ``name``.svg."""
    st.plotly_chart(fig, config=config(name), key=f"figure-{name}")
    download(fig, name)


def download(fig: go.Figure, name: str) -> None:
    """A button that saves ``fig`` as ``name``.svg (rendered only when clicked: kaleido takes a second)."""
    size = {"width": fig.layout.width or SLIDE["width"], "height": fig.layout.height or SLIDE["height"]}
    st.download_button(_("Download SVG"), lambda: export.figure_image(fig, "svg", scale=1, **size),
                       file_name=f"{name}.svg", mime="image/svg+xml", on_click="ignore", key=f"svg-{name}")
