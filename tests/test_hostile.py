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


# ---------------------------------------------------------------- scores that overflow

HUGE = [1e308 if i % 2 == 0 else -1e308 for i in range(100)]  # mean 0; B is 0.5 better on average


def test_scores_near_the_largest_float_give_the_true_mean_and_difference():
    """A sum of ±1e308 overflowed: "mean A = ∞, δ = ∞", then "A and B do not differ: δ = 0"."""
    import math

    import numpy as np
    import scipy.stats

    import sigcore

    for test in ("bootstrap", "permutation", "t", "z", "wilcoxon", "sign"):
        res = sigcore.compare(None, HUGE, [0.5] * 100, metric="mean", test=test, n_resamples=2000)
        assert (res.score_a, res.score_b, res.delta) == (0.0, 0.5, -0.5), test
        assert not res.significant and all(math.isfinite(x) or math.isinf(x) and x in (res.ci_low, res.ci_high)
                                           for x in (res.ci_low, res.ci_high))
        assert abs(res.ci_low) < 1.8e308 and abs(res.ci_high) < 1.8e308, test  # a real interval, not ±∞
    t = sigcore.compare(None, HUGE, [0.5] * 100, metric="mean", test="t")
    d = np.ldexp(np.array(HUGE) - 0.5, -700)  # the same test on the differences a power of two down
    assert t.p_value == scipy.stats.ttest_1samp(d, 0).pvalue
    many = sigcore.compare_many(None, {"A": HUGE, "B": [0.5] * 100}, metric="mean", n_resamples=1000)
    assert many.results[("B", "A")].delta == 0.5 and not many.significant("B", "A")


def test_a_difference_beyond_the_largest_float_is_refused_with_its_item(capsys):
    import pytest

    import sigcore

    for test in ("bootstrap", "t"):  # the means' difference overflows
        with pytest.raises(sigcore.InputError, match="δ = 1e\\+308 − -1e\\+308 is not a finite number"):
            sigcore.compare(None, [1e308] * 5, [-1e308] * 5, metric="mean", test=test)
    with pytest.raises(sigcore.InputError, match=r"A - B overflows at item 1 \(1e\+308 - -1e\+308\)"):
        sigcore.compare(None, [1e308, -1e308], [-1e308, 1e308], metric="mean", test="t")  # δ = 0, an item's not


def test_the_command_line_on_huge_scores_prints_no_infinity(tmp_path, capsys):
    table = tmp_path / "big.csv"
    table.write_text("id,A,B\n" + "".join(f"{i},{v!r},0.5\n" for i, v in enumerate(HUGE)))
    for test in ("auto", "t", "bootstrap"):
        assert main(["compare", str(table), "--metric", "mean", "--test", test]) == 0
        out = capsys.readouterr().out
        assert "∞" not in out and "δ = -0.5000 mean score" in out and "not significant" in out, out


def test_the_pages_on_huge_scores_show_the_true_difference():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    data = ("id,A,B\n" + "".join(f"{i},{v!r},0.5\n" for i, v in enumerate(HUGE))).encode()
    root = Path(__file__).resolve().parents[1]
    at = AppTest.from_file(str(root / "dashboard.py"), default_timeout=60).run()
    at.radio[0].set_value("Upload").run()
    at.file_uploader[0].set_value([("big.csv", data, "text/csv")]).run()
    next(s for s in at.selectbox if s.label == "Test").set_value("bootstrap").run()
    next(b for b in at.button if b.label == "Run").click().run()
    assert not at.exception and not at.error
    verdict = next(e.value for e in at.info if "significant" in e.value)
    assert "δ = \\-0\\.5000 mean score" in verdict and "∞" not in verdict
