"""The dashboard's script: page config, navigation over app_pages/, and the sidebar (app.py serves it)."""

import streamlit as st

from sigcore import i18n

i18n.use("en")  # a page in another language says so itself (the Classroom's switch); a script thread may be reused
st.set_page_config(page_title="sigcore: does A really beat B?", page_icon=":material/balance:", layout="wide")

PAGES = [  # one line per page; app_pages/, as Streamlit runs the files of a pages/ folder as old-style pages.
    # Material icons: Streamlit's own font draws them; emoji were boxes where no emoji font is installed
    st.Page("app_pages/compare.py", title="Compare two systems", icon=":material/balance:", default=True),
    st.Page("app_pages/classroom.py", title="Classroom: the paired bootstrap", icon=":material/school:"),
    st.Page("app_pages/many.py", title="Many systems", icon=":material/leaderboard:"),
    st.Page("app_pages/which_test.py", title="Which test?", icon=":material/explore:"),
]

with st.sidebar:  # st.navigation lists the pages above this
    st.markdown("**sigcore** tests whether one NLP/ML system really beats another on the same test set, "
                "and shows why: the bootstrap distribution of δ(x⁽ⁱ⁾) builds up as you watch.")
    st.caption("Every number comes from the `sigcore` engine, which the command line (`python -m sigcore`) "
               "and the Python API share. Uploaded files stay in memory and are never stored.")

st.navigation(PAGES).run()
