from pathlib import Path

from streamlit.testing.v1 import AppTest

import sigcore
from sigcore.inputs import read_table
from sigcore.report import verdict

ROOT = Path(__file__).resolve().parents[1]


def test_app_opens_on_the_sample_with_the_engine_verdict():
    at = AppTest.from_file(str(ROOT / "app.py")).run(timeout=60)
    assert not at.exception
    table = read_table(ROOT / "sample_data" / "slp3_fig4_11.csv")
    res = sigcore.compare(table["gold"], table["A"], table["B"], seed=0)
    assert [t.value for t in at.text] == [verdict(res)]
    assert at.code[0].value == res.signature
    assert at.get("plotly_chart")
