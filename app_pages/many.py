"""Many systems: on one test set (every system against a baseline, or every pair, with corrected p-values, a forest
plot or a heatmap, the ranking in clusters, and a LaTeX table for the paper); models on many tasks from their
evaluation logs (ranks with intervals, tie groups, δ per task); over several datasets (Dror et al.
2017's replicability analysis); or over random seeds (Almost Stochastic Order, the bootstrap over items and runs)."""

import streamlit as st

from ui import datasets, many, seeds, tasks

ONE_TEST_SET, TASKS, DATASETS, SEEDS = "Many systems on one test set", "Many tasks", "Many datasets", "Many seeds"

st.title("Many systems: which ones really differ?")
kind = st.radio("What to compare", [ONE_TEST_SET, TASKS, DATASETS, SEEDS], horizontal=True, key="many-kind",
                help="Many systems' outputs on one test set; models on many tasks, from their evaluation logs; A "
                     "against B on several datasets; or systems run with several random seeds.")


def one_test_set() -> None:
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
        many.downloads(families, source[:8])


def many_tasks() -> None:
    st.caption(tasks.ABOUT)
    st.subheader("1 · Data")
    pick, preview = st.columns([2, 3], gap="large")
    with pick:
        files, sample = tasks.choose()
    below = tasks.below_the_data(files)  # other files: the last run's figures go now, before these are read
    with preview:
        table = tasks.load(files)
        if table is None:
            st.stop()
        tasks.preview(table)
    with below:
        st.subheader("2 · Settings")
        settings = tasks.settings(files, table, sample)
        board = None if settings is None else tasks.compute(files, table, settings)
        if board is None:
            st.stop()
        st.subheader("3 · Results")
        tasks.show(board, settings)
        st.subheader("4 · Downloads")
        tasks.downloads(board, settings)


def many_datasets() -> None:
    st.caption(datasets.ABOUT)
    st.subheader("1 · Data")
    pick, preview = st.columns([2, 3], gap="large")
    with pick:
        kind, files, encoding, sample = datasets.choose()
    with preview:
        data = datasets.load(kind, files, encoding, sample)
        if data is None:
            st.stop()
        datasets.preview(data)
    st.subheader("2 · Settings")
    settings = datasets.settings(data)
    analysis = None if settings is None else datasets.compute(data, settings)
    if analysis is None:
        st.stop()
    st.subheader("3 · Results")
    datasets.show(analysis)
    st.subheader("4 · Downloads")
    datasets.downloads(analysis)


def many_seeds() -> None:
    st.caption(seeds.ABOUT)
    st.subheader("1 · Data")
    pick, preview = st.columns([2, 3], gap="large")
    with pick:
        kind, files, encoding, sample = seeds.choose()
    with preview:
        data = seeds.load(kind, files, encoding, sample, mapping_area=pick)
        if data is None:
            st.stop()
        seeds.preview(data)
    st.subheader("2 · Settings")
    settings = seeds.settings(data)
    out = None if settings is None else seeds.compute(data, settings)
    if out is None:
        st.stop()
    st.subheader("3 · Results")
    seeds.show(out, settings)
    st.subheader("4 · Downloads")
    seeds.downloads(out, settings)


{ONE_TEST_SET: one_test_set, TASKS: many_tasks, DATASETS: many_datasets, SEEDS: many_seeds}[kind]()
