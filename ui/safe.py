"""Showing user text in Streamlit without it ever being read as Markdown or HTML."""

from sigcore.report.export import md_escape

md = md_escape  # one escaper for the page and the exports: a file named <img src=x> stays that text
