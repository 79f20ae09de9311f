"""The Compare page (dashboard.py) driven through streamlit.testing: opening it, its widgets, its samples."""

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from sigcore.io.inputs import read

ROOT = Path(__file__).resolve().parents[2]


def app() -> AppTest:
    return AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()


def verdict_of(at: AppTest) -> str:
    shown = [e.value for e in at.success] + [e.value for e in at.info if "significant" in e.value] + [
        e.value for e in at.warning if e.value.startswith("Too few items differ")]  # a decision it cannot support
    assert len(shown) == 1, shown
    return shown[0]


def run(at: AppTest) -> AppTest:
    return next(b for b in at.button if b.label == "Run").click().run()


def select(at: AppTest, label: str):
    return next(s for s in at.selectbox if s.label == label)


def frames_of(at: AppTest) -> list[dict]:
    chart = at.get("component_instance")[0].proto  # the live chart: the frames the browser will play
    return json.loads(chart.json_args)["frames"]


def slp3() -> tuple[list, list, list]:
    table = read(ROOT / "sample_data" / "slp3_fig4_11.csv").frame
    return table["gold"].tolist(), table["A"].tolist(), table["B"].tolist()


def upload(at: AppTest, *files) -> AppTest:
    at.radio[0].set_value("Upload").run()
    at.file_uploader[0].set_value([(name, data, "application/octet-stream") for name, data in files]).run()
    return at


def on_slp3(at: AppTest) -> AppTest:
    at.selectbox[0].set_value("SLP3 Figure 4.11: 10 documents, A .70 vs B .50").run()
    return at


def mt_sample() -> tuple[list, list, list]:
    return tuple(read(ROOT / "sample_data" / "mt" / name).frame["text"].tolist()
                 for name in ("newstest2017.ref.de", "uedin-nmt.de", "LIUM-NMT.de"))
