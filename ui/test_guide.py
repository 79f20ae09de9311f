"""The "Which test?" page's building block: one test's guide, and its simulation run on request.

Words and layout only: the guide and every number come from :mod:`sigcore.teaching.test_guide`, the figure from
:mod:`sigcore.teaching.test_guide_figures`. A simulation runs when the button is pressed, then stays (cached on the
test), so switching tests and back is instant.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from sigcore.report.citations import cite_text
from sigcore.teaching import test_guide, test_guide_figures

from .figure import show


@st.cache_data(max_entries=16, show_spinner="Simulating test sets…")
def simulate(test: str) -> test_guide.Rates:
    """The test's simulation at its defaults (seeded, about a second)."""
    return test_guide.SIMULATIONS[test]()


def guide(test: str) -> None:
    """What ``test`` does, its formula, what it assumes, when it misleads, its sources, and its simulation."""
    g = test_guide.GUIDES[test]
    st.subheader(g.title[0].upper() + g.title[1:])
    st.markdown(g.summary)
    st.code(g.formula, language=None, wrap_lines=True)  # #{…} and | would be Markdown
    st.markdown(f"**Assumes.** {g.assumptions}")
    st.markdown(f"**Misleads when.** {g.misleads}")
    st.caption(f"Sources: {cite_text(list(g.cite))[1:-1]}.")
    simulation(test)


def simulation(test: str) -> None:
    """The button, then the simulation's figure and its numbers."""
    st.markdown(f"**Simulation.** {test_guide.QUESTIONS[test]}")
    ran = f"which-test-ran-{test}"
    if st.button("Run the simulation", key=f"which-test-run-{test}"):
        st.session_state[ran] = True
    if not st.session_state.get(ran):
        return
    res = simulate(test)
    show(test_guide_figures.FIGURES[test](res), f"which_test_{test}")
    table = pd.DataFrame(res.table())
    formats = {column: st.column_config.NumberColumn(format="%.4g" if column == "smallest p" else "percent")
               for column in table.columns[1:] if table[column].dtype.kind == "f"}
    st.dataframe(table, hide_index=True, column_config=formats)
    st.caption("Each rate is the share of simulated test sets with p ≤ α; its error bar and its “95% from … to” "
               "are the Monte-Carlo 95% interval (Clopper–Pearson): another seed moves the rate within it.")
