"""Each hostile input of issue 23, uploaded as a user would: the Compare page and the Many page (one test set, and its
datasets and seeds modes) show the precise message beside the upload, never a crash page."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui.safe import md

ROOT = Path(__file__).resolve().parents[1]
ROWS = 40


def _scores(bad: str) -> bytes:
    lines = [f"{i},0.{i % 9 + 1},0.{(i + 3) % 9 + 1},0.{(i + 5) % 9 + 1}" for i in range(ROWS)]
    lines[3] = f"3,{bad},0.2,0.3"
    return ("id,A,B,C\n" + "\n".join(lines) + "\n").encode()


def _one_line_json() -> bytes:
    records = [{"A": 0.5, "B": 0.25, "C": 0.75} for _ in range(ROWS)]
    records[17]["A"] = "oops"
    return json.dumps(records).encode()


# name: (file name, bytes, the message's words, whether it shows only after Run)
CASES = {
    "too many columns": ("wide.csv", (",".join(f"s{i}" for i in range(10_001)) + "\n" + ",".join("x" * 10_001)
                                      + "\n").encode(), "has 10,001 columns, more than 10,000", False),
    "nested too deep": ("deep.json", ('[{"gold":"x","A":"x","B":"y","C":' + "[" * 900 + "]" * 900 + "}]").encode(),
                        "deep.json, line 1, column 96: nests JSON values more than 64 deep", False),
    "a 5,000-digit number": ("long.jsonl", ('{"gold":1,"A":1,"B":2,"C":1}\n{"gold":1,"A":1,"B":' + "7" * 5000
                                            + ',"C":1}\n').encode(),
                             "long.jsonl, line 2, column 21: holds a number with 5,000 digits (777777777777...)",
                             False),
    "UTF-16 cut short": ("cut.csv", "gold,A,B,C\nx,y,x,y\n".encode("utf-16") + b"\x00",
                         "ends in the middle of a character", False),
    "nan among scores": ("scores.csv", _scores("nan"), "scores.csv, line 5: system 'A' has 'nan' for item 4", True),
    "inf among scores": ("scores.csv", _scores("inf"), "scores.csv, line 5: system 'A' has 'inf' for item 4", True),
    "an item of a one-line array": ("one.json", _one_line_json(), "one.json, line 1, item 18: system 'A' has 'oops'",
                                    True),
}


def _opened(page: str, kind: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run()
    if kind:
        at.session_state["many-kind"] = kind
    return at.switch_page(page).run()


def _choose(at: AppTest, label: str, contains: str) -> None:
    radio = next(r for r in at.radio if r.label == label)
    radio.set_value(next(o for o in radio.options if contains in o)).run()


def _said(at: AppTest, message: str, after_run: bool, dataset: str | None = None) -> str:
    """The error shown; with ``dataset``, the datasets mode's form: "FILE, line L: dataset 'NAME': what"."""
    if after_run:
        next(b for b in at.button if b.label == "Run").click().run()
    assert not at.exception
    if dataset is not None and ": " in message:
        where, what = message.split(": ", 1)
        message = f"{where}: dataset {dataset!r}: {what}"
    errors = [e.value for e in at.error]
    assert any(md(message) in e for e in errors), errors
    return next(e for e in errors if md(message) in e)


@pytest.mark.parametrize("case", CASES)
def test_the_compare_page_says_what_and_where(case):
    name, data, message, after_run = CASES[case]
    at = _opened("app_pages/compare.py")
    _choose(at, "Data", "Upload")
    at.file_uploader[0].set_value([(name, data, "application/octet-stream")]).run()
    _said(at, message, after_run)


@pytest.mark.parametrize("case", CASES)
def test_the_many_page_says_what_and_where(case):
    name, data, message, after_run = CASES[case]
    at = _opened("app_pages/many.py")
    _choose(at, "Data", "Upload")
    at.file_uploader[0].set_value([(name, data, "application/octet-stream")]).run()
    _said(at, message, after_run)


@pytest.mark.parametrize("case", ["too many columns", "nested too deep", "a 5,000-digit number", "UTF-16 cut short"])
def test_the_datasets_and_seeds_modes_say_what_and_where(case):
    name, data, message, _ = CASES[case]
    at = _opened("app_pages/many.py", "Many datasets")
    _choose(at, "Input", "utput")
    _choose(at, "Data", "Upload")
    at.file_uploader[0].set_value([(name, data, "application/octet-stream")]).run()
    good = "gold,A,B\n" + "x,x,y\ny,y,y\n" * 20  # a second dataset: the analysis needs two before it reads
    at.file_uploader[1].set_value([("good.csv", good.encode(), "text/csv")]).run()
    _said(at, message, False, dataset="dataset 1")
    at = _opened("app_pages/many.py", "Many seeds")
    _choose(at, "Data", "Upload")
    at.file_uploader[0].set_value([(name, data, "application/octet-stream")]).run()
    _said(at, message, False)
