"""The Compare page's "stop early" view: the confidence sequence over these items in file order
(:mod:`sigcore.sequential`), where it would have decided, and what it costs against the fixed-n interval."""

from __future__ import annotations

import uuid

import streamlit as st
from streamlit import config

from sigcore import SigcoreError, sequential
from sigcore.effects import item_values
from sigcore.errors import SettingsError
from sigcore.io.aligned import Aligned
from sigcore.metrics import METRICS, direction
from sigcore.report.sequence_figure import frames, sequence
from sigcore.result import refuse_lower

from . import figure
from .live_chart import frame, live_chart
from .run import Settings, inputs
from .safe import md


def show(data: Aligned, s: Settings) -> None:
    with st.expander("Could evaluating have stopped early? The anytime-valid confidence sequence"):
        gold, a, b, metric = inputs(data, s.metric)
        try:  # its sentence reads δ > 0 as A better
            refuse_lower("the confidence sequence", direction(metric, s.higher_is_better), s.metric,
                         hint="Compare without it, or give per-item scores on which higher is better.")
        except SettingsError as refused:  # the command line's refusal, in its words
            st.caption(md(str(refused)))
            return
        values = item_values(gold, a, b, metric=metric, **dict(s.options))
        if values is None:
            st.caption(f"The sequence accrues per-item values, so it needs a metric that is their mean (accuracy, "
                       f"exact match, per-item scores); {s.metric} is not one.")
            return
        st.caption("An interval for δ after every item, in the order of the file, that holds at all of them at once: "
                   "stopping the moment it excludes 0 keeps the error rate at α, where stopping at the first p < α of "
                   "a fixed-n test does not.")
        low, high = 0.0, 1.0
        if not METRICS[metric].binary:
            c1, c2, _ = st.columns([1, 1, 3])
            low = c1.number_input("Lowest score", value=None, key="sequence-low", placeholder="per item")
            high = c2.number_input("Highest score", value=None, key="sequence-high", placeholder="per item")
            if low is None or high is None:
                st.info("Give the range every per-item score can take (known before the data, e.g. 0 and 1): the "
                        "sequence is valid for bounded scores only.")
                return
        try:
            seq = sequential.run(*values, alpha=s.alpha, low=low, high=high)
        except SigcoreError as e:
            st.error(md(str(e)), icon="⚠️")
            return
        names = data.display_names
        st.markdown(md(sequential.sentence(seq, *names)))  # not a second verdict box: the verdict is above
        _play(seq)


PLAYED = "sequence-played"  # the play under way or done: its id, the sequence it plays, how far it got
CONFIG = figure.config("confidence_sequence")


def _play(seq: sequential.Sequential) -> None:
    """The sequence on the live chart: drawn whole, or, after "Play it item by item", growing as the items came in,
    the band narrowing against the fixed-n interval until it decides."""
    fig = sequence(seq)
    state = st.session_state
    key = (seq.n, seq.alpha, seq.margin, float(seq.estimate[-1]), float(seq.lower[-1]))  # which sequence is shown
    if st.button("▶ Play it item by item", key="sequence-play",
                 help="the sequence as it would have grown while the items were evaluated, in file order"):
        state[PLAYED] = {"id": uuid.uuid4().hex, "key": key, "shown": None}
    played = state.get(PLAYED)
    if played is None or played["key"] != key:
        live_chart(fig, [], run=f"still-{key}", shown=0, interval=1, config=CONFIG, key="sequence-chart")
    else:
        shots = [frame(f["y"], f["progress"], {"count": f["count"]}, title=f["title"]) for f in frames(seq)]
        done = live_chart(fig, shots, run=played["id"], shown=played["shown"], interval=0.1, config=CONFIG,
                          key="sequence-chart")
        if done and done["run"] == played["id"]:
            played["shown"] = done["shown"]
        if config.get_option("global.appTest"):  # AppTest has no browser to play the frames
            played["shown"] = len(shots)
    figure.download(fig, "confidence_sequence")
