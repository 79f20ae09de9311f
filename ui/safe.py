"""Showing user text in Streamlit without it ever being read as Markdown or HTML."""

import re

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$])")


def md(text: str) -> str:
    """``text`` escaped for st.markdown/st.error/st.caption: a file named ``<img src=x>`` stays that text."""
    return _SPECIAL.sub(r"\\\1", str(text)).replace("\n", "  \n")
