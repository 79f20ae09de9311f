"""Many systems on one test set: every system against a baseline, or every pair, with corrected p-values, a
forest plot or a heatmap, the ranking in clusters, and a LaTeX table for the paper."""

import streamlit as st

from ui import many

st.title("Many systems: which ones really differ?")
st.caption("Every system against a baseline, or every pair, on the same test set, in one paired bootstrap that "
           "scores all systems on the same resamples; the p-values corrected for the number of comparisons "
           "(Holm by default), so that the marks survive review.")

st.subheader("1 · Data")
pick, preview = st.columns([2, 3], gap="large")
with pick:
    files, encoding, sample = many.choose_files()
with preview:
    data = many.load(files, encoding, mapping_area=pick)
    if data is None:
        st.stop()
    many.preview(data, files)

st.subheader("2 · Settings")
settings = many.settings(data, sample)
if settings is None:
    st.stop()

st.subheader("3 · Results")
source = many.source_key(files, data)
tabs = st.tabs([many.metric_label_of(m) for m in settings.metrics])
families = []
for tab, metric in zip(tabs, settings.metrics):
    with tab:
        family = many.compute(source, data, settings, metric)
        if family is not None:
            many.show(family, source[:8])
            families.append(family)

if len(families) == len(settings.metrics):
    st.subheader("4 · Downloads")
    many.downloads(families)
