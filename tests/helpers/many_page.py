"""The Many systems page (app_pages/many.py) driven through streamlit.testing: opened in a mode, its widgets and
uploads, what it shows, and the names that must never be markup."""

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<b>bold</b> <a href='javascript:alert(1)'>x</a>"


def page(kind: str) -> AppTest:
    """The page opened straight in a mode (the one-test-set mode's BLEU run is never started)."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.session_state["many-kind"] = kind
    return at.switch_page("app_pages/many.py").run()


def widget(elements, label: str):
    return next(e for e in elements if e.label == label)


def upload(at: AppTest, *files) -> AppTest:
    widget(at.radio, "Data").set_value("Upload").run()
    at.file_uploader[0].set_value([(name, data, "application/octet-stream") for name, data in files]).run()
    return at


def shown_text(at: AppTest) -> list[str]:
    return ([m.value for m in at.markdown] + [c.value for c in at.caption] + [w.value for w in at.warning]
            + [e.value for e in at.error] + [i.value for i in at.info] + [m.value for m in at.metric])


def user_markup(texts: list[str]) -> list[str]:
    """The texts shown as Markdown that carry the uploaded names (bold, href, <i>) with a tag, emphasis or link
    left unescaped (md writes \\< and \\*); the page's own headings are bold by design and carry none."""
    assert any("href" in t for t in texts)  # the names are shown somewhere
    return [t for t in texts if re.search("bold|href|i>", t) and re.search(r"(?<!\\)[<*\[]", t)]


def frame_with(at: AppTest, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def board_with(at: AppTest, column: str):
    """The static table (st.table) with ``column``, its header and cells read back as the text they show: Markdown's
    backslashes and the unbreakable spaces undone, so that they compare with the command line's cells."""
    import pandas as pd

    def plain(text) -> str:
        return re.sub(r"\\(.)", r"\1", str(text)).replace("\u00a0", " ")
    frame = next(t.value for t in at.table if column in [plain(c) for c in t.value.columns])
    return pd.DataFrame([[plain(c) for c in row] for row in frame.values.tolist()],
                        columns=[plain(c) for c in frame.columns])


def run_tasks(at: AppTest, b: int = 2_000) -> AppTest:
    """The "Many tasks" mode run with ``b`` resamples."""
    at.number_input(key="tasks-b").set_value(b)
    at.button[0].click()  # the form's Run
    return at.run()
