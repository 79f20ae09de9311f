"""Hostile and extreme inputs: no formula, control character or markup from uploaded text reaches an output."""

import csv
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigcore.__main__ import main
from sigcore.report import export, reproduce

ROOT = Path(__file__).resolve().parents[1]
FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\tx"]


def test_a_csv_quotes_a_bare_carriage_return_and_neutralises_formulas():
    """A name with a bare \\r split the row, so that ``'=2+2`` began a row of its own in a spreadsheet."""
    frame = pd.DataFrame({"system": ["ok", "a\r=2+2", *FORMULAS], "p": [0.5, 0.01, *[1.0] * len(FORMULAS)]})
    text = export.table_csv(frame).decode()
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert [r[0] for r in rows] == ["system", "ok", "a\r=2+2", *("'" + f for f in FORMULAS)]
    assert text.count("\n") == len(frame) + 1  # no line ends but the rows'
    assert [r[1] for r in rows[1:]] == ["0.5", "0.01", *["1.0"] * len(FORMULAS)]  # numbers stay numbers


def test_every_csv_sigcore_writes_goes_through_the_one_writer():
    """No CSV is written but by sigcore.io.sheets.table_csv (the reports', the command line's --csv, the app's
    downloads, convert), save io.inputs.write, the readers' round-trip writer for test data (docs/reference/
    security.md): a writer added beside it would not neutralise formulas."""
    writers = re.compile(r"\.to_csv\(|csv\.writer\(|csv\.DictWriter\(")
    found = sorted(str(p.relative_to(ROOT)) for folder in ("sigcore", "ui", "app_pages") for p in
                   (ROOT / folder).rglob("*.py") if writers.search(p.read_text(encoding="utf-8")))
    assert found == ["sigcore/io/inputs.py", "sigcore/io/sheets.py"]
    assert ROOT.joinpath("app.py").read_text(encoding="utf-8").count("to_csv(") == 0


@pytest.mark.parametrize("name", FORMULAS[:4] + ["'=already quoted", "''@twice"])
def test_each_csv_writer_neutralises_a_formula_and_convert_reads_it_back(tmp_path, capsys, name):
    """scores_csv, deltas_csv, many --csv, convert: the name starts no formula in a spreadsheet, and the tidy table
    convert wrote reads back with the name as it was (the added quote taken off, a quote of its own kept)."""
    import sigcore
    from sigcore.io.sheets import original_cell, safe_cell
    from sigcore.logs import tidy

    assert original_cell(safe_cell(name)) == name and not re.match(r"[=+\-@\t]", safe_cell(name))
    res = sigcore.compare(list("xyxy") * 10, list("xyyy") * 10, list("xxxy") * 10, test="bootstrap", n_resamples=50)
    for data in (export.scores_csv(res, a=name, b="b"), export.deltas_csv(res)):
        cells = [c for row in csv.reader(io.StringIO(data.decode(), newline="")) for c in row]
        assert not any(re.match(r"[=+@\t]", c) or re.match(r"-[^\d.]", c) for c in cells), cells
    frame = pd.DataFrame({"model": [name] * 4 + ["m2"] * 4, "task": ["t"] * 8, "item": [str(i) for i in range(4)] * 2,
                          "score": [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]})
    table = tmp_path / "scores.csv"
    tidy.write(frame, table)
    rows = list(csv.DictReader(io.StringIO(table.read_text(encoding="utf-8"), newline="")))
    assert rows[0]["model"] == safe_cell(name) != name
    assert tidy.read_table(table).model.tolist() == frame.model.tolist()  # read back as it was


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
    assert json.loads(capsys.readouterr().out)["roles"][0] == f"table = {tmp_path}/evil\\x1b[31mred\\x07.csv"


def test_a_newline_in_a_file_name_cannot_forge_a_line_of_output(tmp_path, capsys):
    name = tmp_path / "a\nsignificant, p = 0.0001\tb.csv"
    name.write_text("gold,A,B\n" + "x,x,y\ny,y,y\n" * 20)
    for args in (["compare", str(name)], ["compare", str(name), "--b", "nobody"], ["many", str(name)]):
        main(args)
        captured = capsys.readouterr()
        for line in (captured.out + captured.err).splitlines():
            assert not line.startswith("significant"), line
        assert "a\\x0asignificant, p = 0.0001\\x09b.csv" in captured.out + captured.err
    main(["compare", str(name)])  # the reproduce line is shown escaped, on one line, and says so
    lines = capsys.readouterr().out.splitlines()  # (reproduce.sh runs it exactly: tests/test_paper_safety.py)
    at = next(i for i, x in enumerate(lines) if x.startswith("reproduce: "))
    assert "'" + str(tmp_path) + "/a\\x0asignificant, p = 0.0001\\x09b.csv'" in lines[at]
    assert lines[at + 1] == f"  ({reproduce.ESCAPED})"
    assert main(["compare", str(tmp_path / "gone\n.csv")]) == 2
    assert "gone\\x0a.csv: file not found" in capsys.readouterr().err


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


# ---------------------------------------------------------------- files that cost more than they hold

def test_a_table_of_too_many_columns_is_refused_from_its_header():

    from sigcore.errors import InputError
    from sigcore.io.inputs import MAX_COLUMNS, read

    wide = ",".join(f"s{i}" for i in range(MAX_COLUMNS + 1)).encode()
    with pytest.raises(InputError, match=f"has {MAX_COLUMNS + 1:,} columns, more than {MAX_COLUMNS:,}") as info:
        read(wide + b"\n" + b"x," * MAX_COLUMNS + b"x\n", name="wide.csv")
    assert info.value.line == 1
    record = json.dumps({f"s{i}": 1 for i in range(MAX_COLUMNS + 1)}).encode()
    with pytest.raises(InputError, match="keys, more than"):
        read(record + b"\n", name="wide.jsonl")
    # the header check is one pass: a duplicate among the last of 10,000 names is found, with both places
    names = [f"s{i}" for i in range(MAX_COLUMNS - 1)] + ["s5"]
    with pytest.raises(InputError, match=f"column {MAX_COLUMNS} has the same name as column 6"):
        read((",".join(names) + "\n" + ",".join("x" * len(names)) + "\n").encode(), name="dup.csv")
    with pytest.raises(InputError) as info:  # a missing column's hint lists a few names, not 10,000
        sigcore_compare_columns(names[:-1])
    assert len(info.value.hint) < 400 and "and 9,979 more" in info.value.hint


def sigcore_compare_columns(names):
    from sigcore.io.inputs import read
    from sigcore.io.loading import load

    table = read((",".join(names) + "\n" + ",".join("x" * len(names)) + "\n").encode(), name="t.csv")
    return load([table], gold="nobody")


def test_a_json_array_of_too_many_items_is_refused_before_it_is_parsed(monkeypatch):

    import sigcore.io.inputs as inputs
    from sigcore.errors import InputError

    monkeypatch.setattr(inputs, "MAX_ITEMS", 1_000)
    parsed = []
    monkeypatch.setattr(inputs.json, "loads", lambda *a, **k: parsed.append(1))
    for data in (json.dumps([{"gold": "x", "A": "x", "B": "y"}] * 1_001),  # on one line
                 json.dumps({"gold": ["x"] * 1_001, "A": ["x"] * 1_001, "B": ["y"] * 1_001})):
        with pytest.raises(InputError, match="has more than 1,000 items"):
            inputs.read(data.encode(), name="big.json")
    assert not parsed


def test_nesting_is_measured_outside_strings_whatever_they_hold():
    """Brackets, quotes and backslashes inside strings do not count; 64 levels pass, 65 are refused with their
    place, on random values."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from sigcore.errors import InputError
    from sigcore.io import jsonlimits

    texts = st.text(alphabet='[]{}",\\\\\nx', max_size=12)

    def nested(depth, leaf):
        return leaf if depth == 0 else [nested(depth - 1, leaf)]

    @settings(max_examples=200, deadline=None)
    @given(texts, st.integers(1, 64), st.booleans())
    def fits(leaf, depth, as_object):
        value = {"k": nested(depth - 1, leaf)} if as_object else nested(depth, leaf)
        jsonlimits.check(json.dumps(value), "t.json")
        jsonlimits.check(json.dumps(value, ensure_ascii=False), "t.json")
        deeper = json.dumps(nested(65 - depth, value))
        with pytest.raises(InputError, match="more than 64 deep") as info:
            jsonlimits.check(deeper, "t.json")
        column = info.value.column  # the 65th bracket: 65 from the start, and '"k": ' more in an object
        assert info.value.line == 1 and column == 65 + (len('"k": ') if as_object and depth > 1 else 0), deeper
    fits()


def test_the_structure_check_gives_the_same_answer_whatever_its_blocks(monkeypatch):
    """The check goes block by block (bounded memory); a block may end inside a string, after a backslash run
    or between two brackets: the depth, the items and the place of a refusal are those of one pass."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from sigcore.errors import InputError
    from sigcore.io import jsonlimits

    leaves = st.text(alphabet='[]{}",\\\nxé中', max_size=10) | st.integers() | st.none()
    values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(alphabet='"\\[x', max_size=3), inner, max_size=3), max_leaves=30)

    def outcome(text: str, block: int):
        monkeypatch.setattr(jsonlimits, "BLOCK", block)
        try:
            jsonlimits.check(text, "t.json", max_items=3)
        except InputError as error:
            return error.what, error.line, error.column
        return None

    @settings(max_examples=300, deadline=None)
    @given(values, st.integers(0, 70), st.sampled_from([1, 2, 3, 7]), st.booleans())
    def same(value, depth, block, indent):
        for _ in range(depth):
            value = [value]
        text = json.dumps(value, ensure_ascii=False, indent=1 if indent else None)
        assert outcome(text, block) == outcome(text, 1 << 30)
    same()


def test_a_number_longer_than_any_float_is_refused_with_its_place_and_cut_short():

    from sigcore.errors import InputError
    from sigcore.io.inputs import read

    digits = "7" * 5000
    cases = {"t.jsonl": f'{{"gold": 1, "A": 1, "B": 2}}\n{{"gold": 1, "A": 1, "B": {digits}}}\n',
             "t.json": f'[{{"gold": 1, "A": 1, "B": 2}},\n {{"gold": 1, "A": -{digits}, "B": 2}}]',
             "samples_t.jsonl": '{"doc_id": 0, "target": 1, "filtered_resps": ["1"], "acc": 1}\n'
                                f'{{"doc_id": {digits}, "target": 1, "filtered_resps": ["1"], "acc": 1}}\n'}
    for name, text in cases.items():
        with pytest.raises(InputError, match="holds a number with 5,000 digits") as info:
            read(text.encode(), name=name)
        assert info.value.line == 2 and len(str(info.value)) < 300, name
    assert read(b'[{"gold": 1, "A": ' + b"9" * 309 + b', "B": 2}]', name="t.json").frame["A"][0] == int("9" * 309)


def test_nan_and_infinity_among_scores_are_named_with_their_place(tmp_path, capsys):
    from sigcore.io.inputs import read
    from sigcore.io.loading import load
    from sigcore.io.metric_fit import suggest_metrics

    text = "id,A,B\n" + "".join(f"{i},0.{i},0.{i + 1}\n" for i in range(1, 31))
    for bad, line in (("nan", 5), ("inf", 8), ("-Infinity", 12)):
        lines = text.splitlines()
        lines[line - 1] = f"{line - 1},{bad},0.3"
        path = tmp_path / "scores.csv"
        path.write_text("\n".join(lines) + "\n")
        data = load([read(path)])
        assert suggest_metrics(data)[0] == "mean"  # numbers gone wrong, not labels wanting gold
        for command in ("compare", "many"):  # many names the system and the line as compare does
            assert main([command, str(path)]) == 2
            err = capsys.readouterr().err
            assert f"scores.csv, line {line}: system 'A' has '{bad}' for item {line - 1}, not a finite number" in err, \
                (command, err)
    with_c = tmp_path / "three.csv"
    with_c.write_text("id,A,B,C\n"
                      + "".join(f"{i},0.{i},0.{i + 1},{'oops' if i == 9 else 0.5}\n" for i in range(1, 31)))
    assert main(["many", str(with_c), "--name", "C=Ours"]) == 2  # a typo among numbers: still scores, named
    assert "three.csv, line 10: system 'Ours' has 'oops' for item 9" in capsys.readouterr().err


def test_an_item_of_a_json_array_on_one_line_is_named_by_its_position():

    import sigcore
    from sigcore.errors import InputError
    from sigcore.io.inputs import read
    from sigcore.io.loading import load

    records = [{"A": 0.5, "B": 0.25} for _ in range(40)]
    records[17]["A"] = "oops"
    data = load([read(json.dumps(records).encode(), name="one.json")])
    with pytest.raises(InputError) as info:
        try:
            sigcore.compare(None, data.a, data.b, metric="mean")
        except InputError as e:
            raise data.locate(e) from None
    assert info.value.where == "one.json, line 1, item 18"
    records[17] = [1, 2]
    with pytest.raises(InputError, match="one.json, line 1, item 18: a record is a JSON list"):
        read(json.dumps(records).encode(), name="one.json")


# ---------------------------------------------------------------- one to three differing items

def _few(k: int, n: int = 40) -> tuple[list[str], list[str]]:
    """Gold of n items, and a B that is wrong on k of them where A is right everywhere."""
    gold = ["x", "y"] * (n // 2)
    return gold, [("y" if g == "x" else "x") if i < k else g for i, g in enumerate(gold)]


def test_one_to_three_differing_items_are_never_significant_on_the_command_line(tmp_path, capsys):
    for k in (1, 2, 3):
        gold, b = _few(k)
        labels = tmp_path / f"labels{k}.csv"
        labels.write_text("gold,A,B,C\n" + "".join(f"{g},{g},{x},{x}\n" for g, x in zip(gold, b)))
        scores = tmp_path / f"scores{k}.csv"
        scores.write_text("id,A,B\n" + "".join(f"{i},0.9,0.1\n" for i in range(k)))  # k items in all
        for path in (labels, scores):
            assert main(["compare", str(path), "--json"]) == 0
            got = json.loads(capsys.readouterr().out)
            assert got["auto"] and not got["significant"] and got["p_value"] >= 0.05, (k, path.name, got["test"])
        assert main(["many", str(labels), "--json"]) == 0
        family = json.loads(capsys.readouterr().out)["families"][0]
        assert family["comparisons"] and not any(c["significant"] for c in family["comparisons"]), k


@pytest.mark.slow  # an AppTest of each page on each case
def test_one_to_three_differing_items_are_never_significant_on_the_pages():
    from streamlit.testing.v1 import AppTest

    def opened(page: str, kind: str | None = None) -> AppTest:
        at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run()
        if kind:
            at.session_state["many-kind"] = kind
        return at.switch_page(page).run()

    def choose(at, label, value):
        next(w for w in at.radio if w.label == label).set_value(value).run()

    def run(at):
        next(b for b in at.button if b.label == "Run").click().run()
        assert not at.exception and not at.error
        return at

    for k in (1, 3):
        gold, b = _few(k)
        table = ("gold,A,B,C\n" + "".join(f"{g},{g},{x},{x}\n" for g, x in zip(gold, b))).encode()
        at = opened("app_pages/compare.py")
        choose(at, "Data", "Upload")
        at.file_uploader[0].set_value([("t.csv", table, "text/csv")]).run()
        verdict = next(e.value for e in run(at).info if "significant" in e.value)
        assert verdict.startswith("No significant evidence"), verdict
        at = opened("app_pages/many.py")
        choose(at, "Data", "Upload")
        at.file_uploader[0].set_value([("t.csv", table, "text/csv")]).run()
        shown = next(d.value for d in run(at).dataframe if "significant" in d.value.columns)
        assert len(shown) == 2 and not shown["significant"].any(), k
        files = [("gold.txt", "\n".join(gold).encode()), ("a.txt", "\n".join(gold).encode()),
                 ("b.txt", "\n".join(b).encode())]
        at = opened("app_pages/many.py", "Many datasets")
        choose(at, "Input", next(o for o in next(w for w in at.radio if w.label == "Input").options if "utput" in o))
        choose(at, "Data", "Upload")
        next(w for w in at.number_input if w.label == "Datasets").set_value(2).run()
        for j in range(2):
            at.file_uploader[j].set_value([(n, d, "text/plain") for n, d in files]).run()
        shown = next(d.value for d in run(at).dataframe if "p" in d.value.columns)
        assert len(shown) == 2 and (shown["p"] >= 0.05).all(), k
        runs = [("gold.txt", files[0][1])] + [(f"{s}_seed{r}.txt", d)
                                              for s, d in (("a", files[1][1]), ("b", files[2][1])) for r in range(2)]
        at = opened("app_pages/many.py", "Many seeds")
        choose(at, "Input", next(o for o in next(w for w in at.radio if w.label == "Input").options if "utput" in o))
        choose(at, "Data", "Upload")
        at.file_uploader[0].set_value([(n, d, "text/plain") for n, d in runs]).run()
        said = " ".join(m.value for m in run(at).markdown)
        assert "No significant evidence" in said or "no significant evidence" in said, said[:500]


def test_a_table_of_too_many_cells_is_refused_before_they_are_parsed(monkeypatch):

    import sigcore.io.inputs as inputs
    from sigcore.errors import InputError

    monkeypatch.setattr(inputs, "MAX_CELLS", 3_000)
    assert len(inputs.read(b"gold,A,B\n" + b"x,x,y\n" * 1_000, name="t.csv").frame) == 1_000  # 3,000 cells fit
    monkeypatch.setattr(inputs.pd, "read_csv", lambda *a, **k: pytest.fail("parsed"))
    with pytest.raises(InputError, match="has 1,001 rows of 3 columns, more than 3,000 cells"):
        inputs.read(b"gold,A,B\n" + b"x,x,y\n" * 1_001, name="t.csv")
    with pytest.raises(InputError, match="rows of 3 columns, more than 3,000 cells"):  # the csv module's path too
        inputs.read(b"gold,A,B\n" + b'x,"x\ry",y\n' * 200_000, name="t.csv")


def test_repeated_labels_are_one_object_each_so_memory_follows_the_kinds_not_the_items():
    """The command line held 742 MB for a 10⁶-row CSV, mostly one Python string per label per item."""
    from sigcore.io.inputs import read
    from sigcore.io.loading import load

    labels = ["pos", "neg", "neutral", "mixed"]
    rows = "".join(f"{i},{labels[i % 4]},{labels[i * 7 % 4]},{labels[i * 3 % 4]}\n" for i in range(20_000))
    data = load([read(("id,gold,A,B\n" + rows).encode(), name="t.csv")])
    for values in (data.gold, data.a, data.b):
        assert len({id(v) for v in values}) == 4 and sorted(set(values)) == sorted(labels)
    files = [read(("id,gold\n" + "".join(f"{i},{labels[i % 4]}\n" for i in range(20_000))).encode(), name="gold.csv"),
             read(("id,pred\n" + "".join(f"{i},{labels[i * 7 % 4]}\n" for i in range(20_000))).encode(), name="a.csv"),
             read(("id,pred\n" + "".join(f"{i},{labels[i * 3 % 4]}\n" for i in range(20_000))).encode(), name="b.csv")]
    paired = load(files)
    assert paired.a == data.a and paired.b == data.b and len({id(v) for v in paired.a}) == 4


# ---------------------------------------------------------------- what uploaded names become in every output

NASTY = ["=cmd|' /C calc'!A0", "+1+1", "-2", "@SUM(A1)", "\tx", "a\x1b[31mred", "bell\x07", "nul\x00x", "cr\rlf\nx",
         "<b>bold</b>", "<a href='javascript:alert(1)'>x</a>", "$\\input{/etc/passwd}$", "50% & #1_{x}^~", "[x]|<y>",
         "\u202egnp.exe", "zero\u200bwidth", "\x85next\x9bline"]


@pytest.mark.slow  # hypothesis: every output of each name
def test_no_output_carries_a_formula_a_control_character_or_markup_from_a_name():
    """Names as hostile as they come, through the CSV, the LaTeX table, the Markdown, the figures' labels and SVG."""
    import re

    import numpy as np
    from hypothesis import given, settings
    from hypothesis import strategies as st

    import sigcore
    from sigcore.report import family, family_figures
    from sigcore.report.style import label

    rng = np.random.default_rng(3)
    gold = list(rng.integers(0, 2, 120))
    control = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # not in XML 1.0 text, nor in a TeX line

    def check(names):
        systems = {n: list(np.where(rng.random(120) < 0.6 + 0.05 * k, gold, 1 - np.array(gold)))
                   for k, n in enumerate(names)}
        many = sigcore.compare_many(gold, systems, n_resamples=200, test="bootstrap")
        cells = [c for row in csv.reader(io.StringIO(export.table_csv(many.table()).decode(), newline="")) for c in row]
        assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r") and not _number(c)], cells
        latex = family.latex([many])
        assert not control.search(latex) and "\\input" not in latex.replace("\\textbackslash{}input", "")
        for name in names:
            shown = label(name)
            assert not control.search(shown) and "<" not in shown and "\n" not in shown
        texts = json.loads(family_figures.forest(many).to_json())  # what Plotly draws into the SVG
        texts = json.dumps(texts, ensure_ascii=False)
        assert not control.search(texts.replace("\\n", "")) and "<b>bold" not in texts and "<a href" not in texts

    check(NASTY[:6])
    check(NASTY[6:12])
    check(NASTY[12:])

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.text(min_size=1, max_size=12), min_size=2, max_size=4, unique_by=lambda s: s.strip()))
    def any_names(names):
        if len({label(n) for n in names}) == len(names) and all(n.strip() for n in names):
            check(names)
    any_names()


def _number(cell: str) -> bool:
    try:
        float(cell)
        return True
    except ValueError:
        return False


# names from other scripts: pdflatex with T1 fonts sets none of these, and stopped at the first
SCRIPTS = ["模型A", "Модель-Б", "βάση", "x\u0301y", "نموذج", "🤖bot", "e\u0301te\u0301"]


@pytest.mark.slow  # pdflatex
def test_a_latex_table_of_hostile_names_compiles(tmp_path):
    import numpy as np

    import sigcore
    from sigcore.report import export, family

    rng = np.random.default_rng(4)
    gold = list(rng.integers(0, 2, 100))
    names = [n for n in NASTY if n.strip()][:8] + SCRIPTS
    systems = {n: list(np.where(rng.random(100) < 0.7, gold, 1 - np.array(gold))) for n in names}
    many = sigcore.compare_many(gold, systems, n_resamples=200, test="bootstrap")
    pair = sigcore.compare(gold, systems[SCRIPTS[0]], systems[SCRIPTS[1]], n_resamples=200, test="bootstrap")
    body = "\n\n".join([family.latex([many]), export.verdict_latex(pair, a=SCRIPTS[0], b=SCRIPTS[1]),
                         export.sentence_latex(pair, a=SCRIPTS[2], b=SCRIPTS[3])])
    assert "U+6A21" in body and "été" in body  # shown by its code point; composed, é is set
    _compiles(tmp_path, body)


@pytest.mark.slow  # pdflatex
def test_every_character_kept_in_latex_compiles(tmp_path):
    """The characters latex_escape writes as themselves: every one that is not ASCII, in one document."""
    from sigcore.report import export

    kept = [chr(c) for c in range(0xA0, sys.maxunicode + 1) if not export._NOT_PDFLATEX.match(chr(c))]
    assert 300 < len(kept) < 400
    _compiles(tmp_path, export.latex_escape(" ".join(kept)))


def _compiles(folder: Path, body: str) -> None:
    import shutil

    (folder / "t.tex").write_text("\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{booktabs}"
                                  "\\usepackage{natbib}\\begin{document}\n" + body + "\n\\end{document}\n",
                                  encoding="utf-8")
    run = subprocess.run([shutil.which("pdflatex"), "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
                         cwd=folder, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-1500:]


def test_a_key_twice_in_a_json_record_is_refused_not_kept_last():
    """json keeps the last of two keys: A's column was replaced by a copy of gold, and A 'won' 18 to 0."""

    from sigcore.errors import InputError
    from sigcore.io.inputs import read

    lines = '{"gold": "x", "A": "y", "B": "x"}\n' * 3 + '{"gold": "x", "A": "y", "B": "x", "A": "x"}\n'
    with pytest.raises(InputError, match='an object has the key "A" twice') as info:
        read(lines.encode(), name="t.jsonl")
    assert info.value.line == 4
    with pytest.raises(InputError, match='the key "A" twice'):
        read(b'{"gold": ["x", "y"], "A": ["x", "x"], "B": ["y", "y"], "A": ["x", "y"]}', name="t.json")
    with pytest.raises(InputError, match='the key "acc" twice'):
        read(b'{"doc_id": 0, "target": "1", "filtered_resps": ["1"], "acc": 1, "acc": 0}\n', name="samples_t.jsonl")


def test_wide_json_objects_many_datasets_and_wide_conll_are_refused_or_read_in_linear_time():
    import time

    from sigcore.errors import InputError
    from sigcore.io import results
    from sigcore.io.inputs import MAX_COLUMNS, read

    wide = json.dumps({f"s{i}": [1, 0] for i in range(MAX_COLUMNS + 1)}).encode()
    with pytest.raises(InputError, match="has 10,001 columns, more than 10,000"):
        read(wide, name="wide.json")
    start = time.monotonic()  # 100,000 datasets: a dict, where a list made it quadratic
    names, p = results.p_values(read(("dataset,p\n" + "".join(f"d{i},0.5\n" for i in range(100_000))).encode(),
                                     name="p.csv"))
    assert len(names) == 100_000 and time.monotonic() - start < 10
    with pytest.raises(InputError, match="dataset 'd7' appears twice"):
        results.p_values(read(b"dataset,p\nd7,0.1\nd8,0.2\nd7,0.3\n", name="p.csv"))
    conll = ("# " + " ".join(f"c{i}" for i in range(MAX_COLUMNS + 1)) + "\n" +
             "\t".join(["tok"] + ["O"] * MAX_COLUMNS) + "\n\n").encode()
    with pytest.raises(InputError, match="columns, more than 10,000"):
        read(conll, name="t.conll")


def test_labels_that_cannot_match_gold_are_refused_and_the_reason_named(tmp_path, capsys):
    """POS for pos, True for true, café in NFD for café in NFC: accuracy 0 and 'B beats A, p = 6.6e-24'."""
    import unicodedata

    cases = [(["pos", "neg"], ["POS", "NEG"], "they agree when case is ignored"),
             (["true", "false"], ["True", "False"], "they agree when case is ignored"),
             (["café", "thé"], [unicodedata.normalize("NFD", x) for x in ("café", "thé")],
              "they agree after Unicode normalisation (NFC)"),
             (["1", "2"], ["a", "b"], None)]
    for gold_labels, a_labels, why in cases:
        table = tmp_path / "t.csv"
        table.write_text("gold,A,B\n" + "".join(f"{gold_labels[i % 2]},{a_labels[i % 2]},{gold_labels[i % 3 % 2]}\n"
                                               for i in range(40)), encoding="utf-8")
        for command in ("compare", "many"):
            assert main([command, str(table)]) == 2, (command, gold_labels)
            err = capsys.readouterr().err
            assert "none of the labels of 'A' is one of gold's" in err and "every item would count as wrong" in err
            assert (why in err) if why else "they agree" not in err, err
    fine = tmp_path / "fine.csv"  # a system that is always wrong, in gold's own labels, is compared as it is
    fine.write_text("gold,A,B\n" + "".join(f"{'pos' if i % 2 else 'neg'},{'neg' if i % 2 else 'pos'},pos\n"
                                           for i in range(40)))
    assert main(["compare", str(fine)]) == 0


def test_bidi_overrides_and_zero_widths_are_shown_not_obeyed(tmp_path, capsys):
    """A column named 'sys\\u202etxt.exe' read backwards in the verdict and the reproduce line (Trojan source)."""
    from sigcore.report import export

    name = tmp_path / "run\u202egnp.csv"
    name.write_text("gold,sys\u202etxt.exe,B\u200b\n" + "x,x,y\ny,y,y\n" * 20, encoding="utf-8")
    assert main(["compare", str(name)]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\u200b" not in out
    assert "sys\\u202etxt.exe" in out and "B\\u200b" in out and "run\\u202egnp.csv" in out
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("reproduce: "))
    assert "--a 'sys\\u202etxt.exe' --b 'B\\u200b'" in lines[at] and lines[at + 1] == f"  ({reproduce.ESCAPED})"
    assert export.latex_escape("a\u202eb") == "a\\textbackslash{}u202eb"
    assert export.md_escape("a\u202eb") == "a\\\\u202eb"


def test_extreme_levels_are_refused_for_what_they_are_and_reproduced_exactly(tmp_path, capsys):
    table = tmp_path / "s.csv"
    table.write_text("id,A,B\n" + "".join(f"{i},0.{i % 9},0.{(i * 7) % 9}\n" for i in range(40)))
    assert main(["compare", str(table), "--alpha", "1e-300"]) == 2  # it blamed --confidence, never given
    assert "α = 1e-300 leaves no interval: 1 − α rounds to 1" in capsys.readouterr().err
    assert main(["compare", str(table), "--alpha", "0.00001234567", "--confidence", "0.9999999", "--test",
                 "bootstrap"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("reproduce: "))
    assert "--alpha 1.234567e-05 --confidence 0.9999999" in line  # were 1.23457e-05 (another α) and 1 (refused)


def test_a_tampered_saved_result_is_refused_before_a_figure_is_written(tmp_path, capsys):
    """p_value "hi", alpha 7, b = -5 or a distribution of NaN: the PDF was written, then a crash or a Plotly dump."""
    table = tmp_path / "s.csv"
    table.write_text("id,A,B\n" + "".join(f"{i},0.{i % 9},0.{(i * 7) % 9}\n" for i in range(40)))
    saved = tmp_path / "r.json"
    assert main(["compare", str(table), "--test", "bootstrap", "--resamples", "200", "--save", str(saved)]) == 0
    capsys.readouterr()
    good = json.loads(saved.read_text())
    for change, words in (({"p_value": "hi"}, "p_value: 'hi' is not of type 'number'"),
                          ({"alpha": 7}, "alpha: 7 is greater than or equal to the maximum of 1"),
                          ({"n_resamples": -5}, "n_resamples: -5 is less than the minimum of 0"),
                          ({"distribution": ["nan"] * 200}, "distribution/0: 'nan' is not of type 'number'"),
                          ({"distribution": [0.5]}, "the distribution holds 1 values, not b = 200"),
                          ({"alternative": "sideways"}, "alternative: 'sideways' is not one of")):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({**good, **change}))
        out = tmp_path / "f.pdf"
        assert main(["figure", str(bad), "--kind", "histogram", "--out", str(out)]) == 2, change
        err = capsys.readouterr().err
        assert "is not a valid pair" in err and words in err and not out.exists(), (change, err)
    bad.write_text(re.sub(r'"p_value": [^,]+', '"p_value": NaN', saved.read_text(), count=1))  # as Python's json would
    assert main(["figure", str(bad), "--kind", "histogram", "--out", str(out)]) == 2
    assert "p_value: 'NaN' is not of type 'number'" in capsys.readouterr().err and not out.exists()


def test_an_unknown_baseline_of_one_table_lists_its_systems_not_its_file(capsys):
    table = str(ROOT / "sample_data" / "classification.csv")
    for name in ("nosuch", "classification"):  # the file's name is no system of it
        assert main(["many", table, "--baseline", name]) == 2
        err = capsys.readouterr().err
        assert f"'{name}' is not one of the systems. The systems are: logreg, svm_rbf, naive_bayes, tree." in err, err


def test_too_few_resamples_give_no_interval_rather_than_their_range(tmp_path, capsys):
    """b = 1: each system's "95% interval" was the one resample, [26.30, 26.30] around 26.60; now none is printed,
    and the difference says why it has none."""
    path = tmp_path / "scores.csv"
    rng = np.random.default_rng(0)
    path.write_text("id,A,B\n" + "".join(f"{i},{x:.3f},{y:.3f}\n" for i, (x, y) in enumerate(rng.random((200, 2)))))
    for b, shown in ((1, False), (39, False), (40, True)):
        assert main(["compare", str(path), "--test", "bootstrap", "--resamples", str(b)]) == 0
        lines = capsys.readouterr().out.splitlines()
        first, delta = next((lines[i - 1], line) for i, line in enumerate(lines) if line.startswith("delta = "))
        assert ("[" in first) == shown and ("95% intervals" in first) == shown, first
        assert ("no 95% CI" in delta) == (b < 20), delta  # the test's dual needs only b >= 1 / alpha



def _jsonl(records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


@pytest.mark.parametrize("files, said", [
    ({"s.jsonl": _jsonl([{"id": i, "A": "NaN" if i == 3 else 0.5, "B": 0.3}
                         for i in range(30)]).replace('"NaN"', "NaN")},
     "line 4: system 'A' has 'NaN' for item 4, not a finite number"),  # NaN is not JSON: it was shown as ''
    ({"s.csv": "id,gold,A,B\n" + "".join(f"{i},x,x,y\n" for i in range(2000)) + "2000,x,x\x00y,y\n"},
     "s.csv, line 2002, column 9: holds a NUL character"),  # past the first 8 KiB it became part of a label
    ({"s.txt": b"\xff\xfea\x00\x00\xd8b\x00\n\x00"}, "bytes 0x00 0xd8 are not valid UTF-16 (illegal UTF-16 surrogate)"),
    ({"s.csv": "id,A,B\n" + "".join(f"{i},1_000,0.5\n" for i in range(30))}, "has '1_000' for item 1"),
    ({"s.csv": "id,A,B\n" + "".join(f"{i},０.５,0.4\n" for i in range(30))}, "has '０.５' for item 1"),
    ({"gold.conll": "a O\nb B-PER\n\nc O\n", "a.conll": "a O\nb B-PER\n\nc O\n",
      "b.conll": "a O\nb B-PER\u200b\n\nc O\n"},
     "'B-PER\\u200b' is not a BIO/BIOES tag: it holds whitespace or an invisible character"),
])
def test_a_value_written_oddly_is_named_as_written(tmp_path, capsys, monkeypatch, files, said):
    monkeypatch.chdir(tmp_path)
    for name, content in files.items():
        (tmp_path / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    assert main(["compare", *files]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err, err


def test_plain_numbers_stay_numbers_spaces_after_commas_included(tmp_path, capsys):
    from sigcore import numbers

    assert ([numbers.number(v) for v in (" 0.5", "1e-5", "+.5", "-3", "inf", 2, 0.25)]
            == [0.5, 1e-5, 0.5, -3, math.inf, 2, 0.25])
    for loose in ("1_000", "０.５", "١", "\u00a00.5", "0x10"):
        with pytest.raises(ValueError):
            numbers.number(loose)
        assert numbers.floats(["0.5", loose]) is None
    path = tmp_path / "s.csv"
    path.write_text("id, A, B\n" + "".join(f"{i}, 0.{i % 7}, 0.{i % 5}\n" for i in range(30)))
    assert main(["compare", str(path)]) == 0 and "metric: mean" in capsys.readouterr().out


def test_an_lm_eval_doc_id_written_as_a_whole_float_is_the_document(tmp_path, capsys):
    sample = Path(__file__).parents[1] / "sample_data" / "lm_eval"
    a, b = sorted(sample.glob("*.jsonl"))
    floated = tmp_path / a.name
    floated.write_text(re.sub(r'"doc_id": (\d+),', r'"doc_id": \1.0,', a.read_text()))
    assert main(["compare", str(floated), str(b), "--json", "--metric", "acc"]) == 0  # of its two scorers
    assert json.loads(capsys.readouterr().out)["n_items"] == 300
