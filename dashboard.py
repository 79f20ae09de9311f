"""The dashboard's script: page config, navigation over app_pages/, and the sidebar (app.py serves it)."""

import streamlit as st

from sigcore import i18n
from sigcore.i18n import _
from ui import terms, walkthrough

st.set_page_config(page_title="sigcore: does A really beat B?", page_icon=":material/balance:", layout="wide")
with i18n.speaking(terms.language()):  # the Classroom's name in its own language; the other pages are English
    classroom = _("Classroom: the paired bootstrap")

PAGES = [  # one line per page; app_pages/, as Streamlit runs the files of a pages/ folder as old-style pages.
    # Material icons: Streamlit's own font draws them; emoji were boxes where no emoji font is installed
    st.Page("app_pages/compare.py", title="Compare two systems", icon=":material/balance:", default=True),
    CLASSROOM := st.Page("app_pages/classroom.py", title=classroom, icon=":material/school:", url_path="classroom"),
    st.Page("app_pages/many.py", title="Many systems", icon=":material/leaderboard:"),
    st.Page("app_pages/preferences.py", title="Pairwise judgments", icon=":material/thumbs_up_down:"),
    st.Page("app_pages/which_test.py", title="Which test?", icon=":material/explore:"),
]
page = st.navigation(PAGES)
if page.url_path == CLASSROOM.url_path:
    walkthrough.from_url()  # a link's state (its ?lang=zh) before the sidebar is written
# the page's language for this run (a script thread may be reused): the Classroom's switch, English elsewhere
i18n.use(terms.language() if page.url_path == CLASSROOM.url_path else "en")

with st.sidebar:  # under st.navigation's list of the pages
    st.markdown(_("**sigcore** tests whether one NLP/ML system really beats another on the same test set, and shows "
                  "why: the bootstrap distribution of δ(x⁽ⁱ⁾) builds up as you watch."))
    st.caption(_("Every number comes from the `sigcore` engine, which the command line (`python -m sigcore`) and the "
                 "Python API share. Uploaded files stay in memory and are never stored."))

page.run()
