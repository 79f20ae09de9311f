"""Compare two systems: data, settings, a live paired bootstrap, and the verdict."""

import streamlit as st

from ui import data as data_ui
from ui import planning, run, sequential, verdict

st.title("Does system A really beat system B?")
st.caption("Paired significance tests for NLP/ML systems: the paired bootstrap of SLP3 §4.11 (Berg-Kirkpatrick et "
           "al. 2012), approximate randomisation and the classic paired tests.")

st.subheader("1 · Data")
pick, preview = st.columns(2, gap="large")
with pick:
    files, roles = data_ui.choose_files()
with preview:
    prepared = data_ui.load(files, roles, mapping_area=pick)  # the front door: roles, metric, questions
if prepared is None:
    st.stop()
data = prepared.data

st.subheader("2 · Settings")
source = run.source_key(files, data)
settings = run.settings(prepared, source)

result, verdict_slot = run.live(data, settings, run.run_key(source, settings), heading="3 · Run")

if result is not None:
    with verdict_slot.container():
        st.subheader("4 · Verdict")
        command = run.command(files, data, settings, result, roles.get("encoding"))
        if settings.claimed:  # no worse than, or within, a margin
            verdict.show_claim(run.claim_of(data, settings, result), *data.display_names, command)
        else:
            verdict.show(result, *data.display_names, run.effect_sizes(data, settings, result), command)
            planning.show(data, settings, source)
            sequential.show(data, settings)
