"""Hostile and extreme inputs: no formula, control character or markup from uploaded text reaches an output."""

import csv
import io
import json

import pandas as pd

from sigcore.__main__ import main
from sigcore.report import export

FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\tx"]


def test_a_csv_quotes_a_bare_carriage_return_and_neutralises_formulas():
    """A name with a bare \\r split the row, so that ``'=2+2`` began a row of its own in a spreadsheet."""
    frame = pd.DataFrame({"system": ["ok", "a\r=2+2", *FORMULAS], "p": [0.5, 0.01, *[1.0] * len(FORMULAS)]})
    text = export.table_csv(frame).decode()
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert [r[0] for r in rows] == ["system", "ok", "a\r=2+2", *("'" + f for f in FORMULAS)]
    assert text.count("\n") == len(frame) + 1  # no line ends but the rows'
    assert [r[1] for r in rows[1:]] == ["0.5", "0.01", *["1.0"] * len(FORMULAS)]  # numbers stay numbers


def test_many_csv_neutralises_system_names_that_start_formulas(tmp_path, capsys):
    table = tmp_path / "t.csv"
    pd.DataFrame({"gold": list("xyxy") * 10, "=HYPERLINK(1)": list("xyyy") * 10, "@SUM(1)": list("xxxy") * 10}) \
        .to_csv(table, index=False)
    assert main(["many", str(table), "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out, newline="")))
    assert {rows[0]["system"], rows[0]["against"]} == {"'=HYPERLINK(1)", "'@SUM(1)"}


def test_control_characters_in_names_are_printed_escaped(tmp_path, capsys):
    """A file name with an ANSI escape or a bell recoloured or rang the user's terminal."""
    name = tmp_path / "evil\x1b[31mred\x07.csv"
    name.write_text("gold,A,B\n" + "x,x,y\ny,y,y\n" * 20)
    assert main(["compare", str(name)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "evil\\x1b[31mred\\x07.csv" in out
    assert main(["compare", str(name), "--b", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "evil\\x1b[31mred\\x07.csv" in err
    assert main(["compare", str(name), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["roles"][0] == f"table = {name}"  # JSON escapes them itself
