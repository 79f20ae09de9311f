"""Entry point of the dashboard: page config and navigation; each page lives in pages/."""

import streamlit as st

st.set_page_config(page_title="sigcore: does A really beat B?", page_icon="⚖️", layout="wide")

PAGES = [
    st.Page("pages/compare.py", title="Compare two systems", icon="⚖️", default=True),
]

st.navigation(PAGES).run()
