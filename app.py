"""Entry point of the dashboard: page config, navigation over pages/, and the sidebar."""

import streamlit as st

st.set_page_config(page_title="sigcore: does A really beat B?", page_icon="⚖️", layout="wide")

PAGES = [  # adding a page is one line here
    st.Page("pages/compare.py", title="Compare two systems", icon="⚖️", default=True),
]

with st.sidebar:
    for page in PAGES:
        st.page_link(page)
    st.markdown("**sigcore** tests whether one NLP/ML system really beats another on the same test set, "
                "and shows why: the bootstrap distribution of δ(x⁽ⁱ⁾) builds up as you watch.")
    st.caption("Every number comes from the `sigcore` engine, which the command line (`python -m sigcore`) "
               "and the Python API share. Uploaded files stay in memory and are never stored.")

st.navigation(PAGES).run()
