"""Reading files: read/write round trips, detection, encodings, and the refusals with their places."""

import gzip
import sys
import types

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sigcore import InputError, SettingsError
from sigcore.io.inputs import FORMATS, column, read, read_lines, read_table, write

BOM = b"\xef\xbb\xbf"


def put(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


# --- read_lines ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    b"one\ntwo words\nthree\n",              # LF
    b"one\r\ntwo words\r\nthree\r\n",        # CRLF
    BOM + b"one\ntwo words\nthree\n",        # UTF-8 BOM
    BOM + b"one\r\ntwo words\r\nthree\r\n",  # both
    b"one\ntwo words\nthree",                # no final newline
])
def test_read_lines_line_endings_bom_and_final_newline_read_the_same(tmp_path, data):
    assert read_lines(put(tmp_path, "f.txt", data)) == ["one", "two words", "three"]


def test_read_lines_keeps_blank_lines_in_the_middle_as_empty_items(tmp_path):
    path = put(tmp_path, "f.txt", b"first\n\nthird\n\n\nsixth\n")
    assert read_lines(path) == ["first", "", "third", "", "", "sixth"]


def test_read_lines_crlf_blank_lines_are_empty_items_not_carriage_returns(tmp_path):
    assert read_lines(put(tmp_path, "f.txt", b"a\r\n\r\nc\r\n")) == ["a", "", "c"]


def test_read_lines_keeps_whitespace_inside_and_around_lines(tmp_path):
    path = put(tmp_path, "f.txt", b"  two  spaces \n\ttab\tinside\nend \n")
    assert read_lines(path) == ["  two  spaces ", "\ttab\tinside", "end "]


def test_read_lines_only_a_final_newline_is_dropped(tmp_path):
    # one trailing newline ends the last line; a second one is an empty last item
    assert read_lines(put(tmp_path, "f.txt", b"a\nb\n\n")) == ["a", "b", ""]


def test_read_lines_a_lone_carriage_return_is_not_a_line_break(tmp_path):
    assert read_lines(put(tmp_path, "f.txt", b"a\rb\nc\n")) == ["a\rb", "c"]


def test_read_lines_decodes_utf8(tmp_path):
    text = "café naïve\n日本語\n"
    assert read_lines(put(tmp_path, "f.txt", text.encode("utf-8"))) == ["café naïve", "日本語"]


# --- read_bytes ---------------------------------------------------------------------------------------

def test_missing_file_names_the_file(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(InputError) as info:
        read_lines(path)
    assert info.value.file == str(path)
    assert info.value.what == "file not found"
    assert (info.value.line, info.value.column) == (None, None)


def test_invalid_utf8_through_read_lines_names_the_path(tmp_path):
    path = put(tmp_path, "latin1.txt", "ok\nstill ok\ncafé\n".encode("latin-1"))
    with pytest.raises(InputError) as info:
        read_lines(path)
    assert (info.value.file, info.value.line, info.value.column) == (str(path), 3, 4)


# --- read_table ---------------------------------------------------------------------------------------

def test_read_table_csv(tmp_path):
    table = read_table(put(tmp_path, "t.csv", b"gold,A,B\npos,pos,neg\nneg,pos,neg\n"))
    assert list(table.columns) == ["gold", "A", "B"]
    assert column(table, "A", "t.csv", "A") == ["pos", "pos"]
    assert column(table, "B", "t.csv", "B") == ["neg", "neg"]


def test_read_table_tsv_by_extension_keeps_commas_in_cells(tmp_path):
    table = read_table(put(tmp_path, "t.tsv", b"ref\thyp\nHello, world\tHi, world\n"))
    assert list(table.columns) == ["ref", "hyp"]
    assert table.iloc[0].tolist() == ["Hello, world", "Hi, world"]


@pytest.mark.parametrize("name, data", [
    ("t.txt", b"gold;A;B\n1;1;0\n0;1;0\n1;0;0\n"),
    ("t", b"gold\tA\tB\n1\t1\t0\n0\t1\t0\n1\t0\t0\n"),
])
def test_read_table_sniffs_the_separator_without_a_known_extension(tmp_path, name, data):
    table = read_table(put(tmp_path, name, data))
    assert list(table.columns) == ["gold", "A", "B"]
    assert column(table, "gold", name, "gold") == ["1", "0", "1"]
    assert column(table, "B", name, "B") == ["0", "0", "0"]


def test_read_table_quoted_fields_keep_separators_quotes_and_newlines(tmp_path):
    data = b'ref,hyp\n"a, b",plain\n"say ""hi""","two\nlines"\n'
    table = read_table(put(tmp_path, "t.csv", data))
    assert table["ref"].tolist() == ["a, b", 'say "hi"']
    assert table["hyp"].tolist() == ["plain", "two\nlines"]


def test_read_table_keeps_labels_as_written(tmp_path):
    data = b"gold,A,B\n007,7,7.0\n1.0,1,NA\nTrue,null,\n"
    table = read_table(put(tmp_path, "t.csv", data))
    assert table["gold"].tolist() == ["007", "1.0", "True"]
    assert table["A"].tolist() == ["7", "1", "null"]
    assert table["B"].tolist() == ["7.0", "NA", ""]
    assert all(isinstance(v, str) for col in table.columns for v in table[col])


def test_read_table_crlf_and_bom_read_like_lf(tmp_path):
    plain = read_table(put(tmp_path, "plain.csv", b"gold,A\nx,y\nz,w\n"))
    odd = read_table(put(tmp_path, "odd.csv", BOM + b"gold,A\r\nx,y\r\nz,w\r\n"))
    assert list(odd.columns) == ["gold", "A"]  # no "\ufeffgold"
    assert odd.values.tolist() == plain.values.tolist() == [["x", "y"], ["z", "w"]]


def test_read_table_header_only(tmp_path):
    path = put(tmp_path, "t.csv", b"gold,A,B\n")
    with pytest.raises(InputError) as info:
        read_table(path)
    assert (info.value.file, info.value.line) == (str(path), 2)
    assert "no rows" in info.value.what


@pytest.mark.parametrize("data, line", [
    (b"gold,A,B\n1,1,0\n0,1,0,9\n", 3),
    (b"gold,A,B\r\n1,1,0\r\n0,1,0\r\n1,1,1,1,1\r\n", 4),
])
def test_read_table_row_with_too_many_fields(tmp_path, data, line):
    path = put(tmp_path, "t.csv", data)
    with pytest.raises(InputError) as info:
        read_table(path)
    assert (info.value.file, info.value.line) == (str(path), line)
    assert info.value.what.startswith("a row has more fields than the header")
    assert "Quote fields" in info.value.hint


def test_read_table_unclosed_quote(tmp_path):
    path = put(tmp_path, "t.csv", b'gold,A\n1,2\n"open,2\n3,4\n')
    with pytest.raises(InputError) as info:
        read_table(path)
    assert (info.value.file, info.value.line) == (str(path), 3)
    assert info.value.what == "a quoted field is never closed"


def test_column_missing_lists_the_columns(tmp_path):
    table = read_table(put(tmp_path, "t.csv", b"doc,gold,A,B\n1,x,x,y\n"))
    with pytest.raises(InputError) as info:
        column(table, "C", "t.csv", "B")
    assert (info.value.file, info.value.line) == ("t.csv", 1)
    assert info.value.what == "no column 'C' for B"
    assert info.value.hint == "The columns are: doc, gold, A, B."


# --- read / write: round trips ------------------------------------------------------------------------

FRAME = pd.DataFrame({"id": ["1", "2", "3"], "gold": ["pos", "neg", ""], "A": [" lead", "trail ", 'say "hi", ok'],
                      "B": ["a;b", "tab\there", "é 日本"]}, dtype=str)
TEXT = pd.DataFrame({"text": ["first line", "", "  spaced  ", "last"]}, dtype=str)
VARIANTS = {"plain": lambda b: b, "gzip": gzip.compress, "bom": lambda b: BOM + b,
            "crlf": lambda b: b.replace(b"\n", b"\r\n"),
            "all": lambda b: gzip.compress(BOM + b.replace(b"\n", b"\r\n"))}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl", "json", "text"])
def test_round_trip(fmt, variant):
    frame = TEXT if fmt == "text" else FRAME
    name = f"x.{fmt}" + (".gz" if variant in ("gzip", "all") else "")
    table = read(VARIANTS[variant](write(frame, fmt)), name=name)
    assert table.format == fmt and table.name == name
    pd.testing.assert_frame_equal(table.frame, frame)
    assert table.lines.dtype == np.int64


def test_round_trip_from_a_path(tmp_path):
    path = put(tmp_path, "x.csv.gz", gzip.compress(write(FRAME, "csv")))
    table = read(path)
    assert (table.name, table.format) == (str(path), "csv")
    pd.testing.assert_frame_equal(table.frame, FRAME)


CELLS = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=12)
NAMES = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), min_size=1, max_size=6)


@st.composite
def frames(draw):
    names = draw(st.lists(NAMES.filter(str.strip), min_size=1, max_size=4, unique=True))
    n = draw(st.integers(1, 5))
    return pd.DataFrame({c: draw(st.lists(CELLS, min_size=n, max_size=n)) for c in names}, dtype=str)


@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl", "json"])
def test_any_text_frame_reads_back_identical(fmt):
    @settings(max_examples=100, deadline=None)
    @given(frames())
    def check(frame):
        pd.testing.assert_frame_equal(read(write(frame, fmt), name=f"x.{fmt}").frame, frame)
    check()


def test_csv_lines_count_physical_lines_across_quoted_newlines_and_blank_lines():
    table = read(b'ref,hyp\n"two\nlines",x\n\nplain,y\n"a\r\nb",z\n', name="t.csv")
    assert table.frame["ref"].tolist() == ["two\nlines", "plain", "a\r\nb"]
    assert table.lines.tolist() == [2, 5, 6]
    assert read(b"a,b\n\n1,2\n\n\n3,4\n\n", name="t.csv").lines.tolist() == [3, 6]


def test_csv_line_of_spaces_is_a_row_and_separators_come_from_the_header():
    assert read(b"text\n  \nx\n", name="t.csv").frame["text"].tolist() == ["  ", "x"]
    assert read(b"a;b\n1,5;2\n", name="t.csv").frame.values.tolist() == [["1,5", "2"]]
    assert read(b"a\tb\n1,5\t2\n", name="t.csv").frame.values.tolist() == [["1,5", "2"]]


def test_jsonl_and_json_keep_json_types():
    data = (b'{"id": 1, "gold": "1", "toks": ["EU", "rejects"], "ok": true}\n\n'
            b'{"id": 2, "gold": "0", "toks": [], "ok": false}\n')
    table = read(data, name="x.jsonl")
    assert table.frame["id"].tolist() == [1, 2] and table.frame["gold"].tolist() == ["1", "0"]
    assert table.frame["toks"].tolist() == [["EU", "rejects"], []] and table.frame["ok"].tolist() == [True, False]
    assert table.lines.tolist() == [1, 3]
    columns = read(b'{"gold": ["a",\n "b"],\n "A": ["a", "c"]}\n', name="x.json")
    assert columns.frame.to_dict("list") == {"gold": ["a", "b"], "A": ["a", "c"]}
    assert columns.lines.tolist() == [1, 2]
    assert read(b'[\n{"a": 1},\n\n{"a": 2}]', name="x.json").lines.tolist() == [2, 4]


def test_text_lines_and_empty_file():
    table = read(b"a\r\n\r\nb\n", name="x.txt")
    assert table.frame["text"].tolist() == ["a", "", "b"] and table.lines.tolist() == [1, 2, 3]
    with pytest.raises(InputError, match="the file is empty") as info:
        read(b" \n", name="x.txt")
    assert info.value.file == "x.txt"


# --- detection -----------------------------------------------------------------------------------------

CONTENT = {
    "csv": b"gold,A,B\npos,pos,neg\nneg,pos,neg\n",
    "tsv": b"ref\thyp\nDas Haus\tDas Haus ist\nein Test\tTest\n",
    "jsonl": b'{"gold": "a", "A": "b"}\n{"gold": "c", "A": "d"}\n',
    "json": b'[{"gold": "a", "A": "b"}]',
    "text": b"The house is small.\nIt rains, they said.\n",
    "conll": b"EU B-ORG\nrejects O\n\nPeter B-PER\nBlackburn I-PER\n",
    "lm-eval": b'{"doc_id": 0, "filtered_resps": [["a"]], "acc": 1.0}\n',
    "inspect": b'{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "samples": [{"id": 1, '
               b'"epoch": 1, "target": "a", "scores": {"match": {"value": "C", "answer": "a"}}}]}',
}


@pytest.fixture
def parsers(monkeypatch):
    """Stand-ins for sigcore.io.conll and sigcore.io.lmeval, which record what they were given."""
    calls = []
    for module in ("conll", "lmeval"):
        def parse(text, name, module=module):
            calls.append((module, text, name))
            return pd.DataFrame({"x": [module]}), [7]
        monkeypatch.setitem(sys.modules, f"sigcore.io.{module}", types.SimpleNamespace(parse=parse))
    return calls


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_is_detected_from_content_alone(fmt, parsers):
    table = read(CONTENT[fmt], name="upload")
    assert table.format == fmt


@pytest.mark.parametrize("name, fmt", [
    ("a.csv", "csv"), ("a.TSV", "tsv"), ("a.tab", "tsv"), ("a.jsonl", "jsonl"), ("a.ndjson", "jsonl"),
    ("a.json", "json"), ("a.txt", "text"), ("a.conll", "conll"), ("a.bio", "conll"), ("a.iob2", "conll"),
    ("a.bioes", "conll"), ("samples_arc_easy_2024.jsonl", "lm-eval"), ("dir/samples_x.jsonl.gz", "lm-eval"),
    ("a.csv.gz", "csv"),
])
def test_format_from_extension_wins_over_content(name, fmt, parsers):
    assert read(CONTENT["text"] if fmt in ("text", "conll", "lm-eval") else CONTENT[fmt], name=name).format == fmt


def test_conll_and_lm_eval_dispatch_to_their_parsers(parsers):
    table = read(gzip.compress(CONTENT["conll"]), name="ner.conll.gz")
    assert (table.format, table.frame["x"].tolist(), table.lines.tolist()) == ("conll", ["conll"], [7])
    assert table.lines.dtype == np.int64
    assert parsers[-1] == ("conll", CONTENT["conll"].decode(), "ner.conll.gz")
    assert read(CONTENT["lm-eval"], name="samples_t.jsonl").frame["x"].tolist() == ["lmeval"]


def test_format_argument_overrides_extension_and_content():
    table = read(b"gold,A\nx,y\n", name="a.csv", format="text")
    assert table.format == "text" and table.frame["text"].tolist() == ["gold,A", "x,y"]
    assert read(CONTENT["jsonl"], name="a.txt", format="jsonl").frame["A"].tolist() == ["b", "d"]


def test_unknown_format_and_missing_name_are_settings_errors():
    with pytest.raises(SettingsError, match="unknown format 'xlsx'") as info:
        read(b"a\n", name="a.txt", format="xlsx")
    assert "csv, tsv, jsonl, json, text, conll, lm-eval" in info.value.hint
    with pytest.raises(SettingsError, match="`name` is required"):
        read(b"a\n")
    with pytest.raises(SettingsError, match="cannot write format 'conll'"):
        write(FRAME, "conll")


# --- encodings -----------------------------------------------------------------------------------------

def test_latin1_is_refused_with_its_place_unless_declared():
    data = "gold,A\ncafé,thé\n".encode("latin-1")
    with pytest.raises(InputError, match="byte 0xe9 is not valid UTF-8") as info:
        read(data, name="t.csv")
    assert (info.value.file, info.value.line, info.value.column) == ("t.csv", 2, 4)
    assert read(data, name="t.csv", encoding="latin-1").frame.values.tolist() == [["café", "thé"]]
    assert read("€\n".encode("cp1252"), name="t.txt", encoding="cp1252").frame["text"].tolist() == ["€"]


def test_declared_encoding_that_does_not_fit_names_the_place():
    with pytest.raises(InputError, match="byte 0x81 is not valid cp1252") as info:
        read(b"ok\nx\x81\n", name="t.txt", encoding="cp1252")
    assert (info.value.line, info.value.column) == (2, 2)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_bom_is_decoded(codec):
    data = "gold\tA\nnaïve\t日本\n".encode(codec)
    if codec != "utf-16":
        data = "\ufeff".encode(codec) + data
    table = read(data, name="t.tsv")
    assert table.frame.values.tolist() == [["naïve", "日本"]] and list(table.frame.columns) == ["gold", "A"]


def test_unknown_encoding_is_a_settings_error():
    with pytest.raises(SettingsError, match="unknown encoding 'klingon'"):
        read(b"a\n", name="a.txt", encoding="klingon")


# --- refusals with their places ------------------------------------------------------------------------

@pytest.mark.parametrize("data, what, line", [
    (b"gold,A,B\n1,1,0\n0,1\n", r"fewer fields than the header \(2, not 3\)", 3),
    (b'gold,A,B\n"multi\nline",1,0\n0,1\n', r"fewer fields than the header \(2, not 3\)", 4),
    (b'gold,A,B\n"multi\nline",1,0\n0,1,0,1\n', r"more fields than the header \(4\)", 4),
    (b'gold,A,B\r\n"a\r\nb",1,0\r\n\r\n0,1,0,1\r\n', r"more fields than the header \(4\)", 5),
    (b"gold,A,B\n\n", "the table has a header but no rows", 2),
    (b'gold,A,B\n"x\ny",1,0\n"open,1,0\n', "a quoted field is never closed", 4),
])
def test_table_rows_that_do_not_fit_name_their_physical_line(data, what, line):
    with pytest.raises(InputError, match=what) as info:
        read(data, name="t.csv")
    assert (info.value.file, info.value.line) == ("t.csv", line)
    assert info.value.hint


@pytest.mark.parametrize("header, what, column", [
    (b"gold,A,gold", r"column 3 has the same name as column 1 \('gold'\)", 3),
    (b'gold,"A",A', r"column 3 has the same name as column 2 \('A'\)", 3),
    (b"gold,,B", "column 2 has no name", 2),
    (b"gold,A, ", "column 3 has no name", 3),
])
def test_header_names_must_be_distinct_and_non_empty(header, what, column):
    with pytest.raises(InputError, match=what) as info:
        read(header + b"\n1,2,3\n", name="t.csv")
    assert (info.value.line, info.value.column) == (1, column)
    assert "name" in info.value.hint


@pytest.mark.parametrize("data, what, line, column", [
    (b'{"a": 1}\n\n{"a": 2,}\n', "not valid JSON", 3, 9),
    (b'{"a": 1}\n{"a": 2} {"a": 3}\n', r"not valid JSON \(Extra data\)", 2, 10),
    (b'{"a": 1}\n[1, 2]\n', "a record is a JSON list, not an object", 2, None),
    (b'{"a": 1, "b": 2}\n{"a": 1}\n', "the record has no key 'b'", 2, None),
    (b'{"a": 1}\n{"a": 1, "b": 2}\n', "the record has no key 'b'", 1, None),
])
def test_jsonl_refusals(data, what, line, column):
    with pytest.raises(InputError, match=what) as info:
        read(data, name="x.jsonl")
    assert (info.value.file, info.value.line, info.value.column) == ("x.jsonl", line, column)
    assert info.value.hint


@pytest.mark.parametrize("data, what, line", [
    (b'[\n{"a": 1},\n{"a": 2\n]', "not valid JSON", 4),
    (b'[\n{"a": 1},\n"x"\n]', "a record is a JSON str, not an object", 3),
    (b'{"gold": [1, 2],\n "A": [1]}', "column 'A' has 1 values, not 2 like 'gold'", None),
    (b'"just a string"', "must hold an array of objects", 1),
])
def test_json_refusals(data, what, line):
    with pytest.raises(InputError, match=what) as info:
        read(data, name="x.json")
    assert (info.value.file, info.value.line) == ("x.json", line)


def test_gzip_refusals(monkeypatch):
    with pytest.raises(InputError, match="truncated") as info:
        read(gzip.compress(b"a\nb\n")[:-6], name="x.txt.gz")
    assert info.value.file == "x.txt.gz"
    with pytest.raises(InputError, match="not a valid gzip file"):
        read(b"\x1f\x8b\x08\x00garbage-garbage", name="x.gz")
    monkeypatch.setattr("sigcore.io.archives.MEMBER", 1000)
    with pytest.raises(InputError, match="decompresses to more than") as info:
        read(gzip.compress(b"x\n" * 1000), name="big.txt.gz")
    assert info.value.file == "big.txt.gz"
    two_members = gzip.compress(b"x\n" * 100) + gzip.compress(b"y\n")
    assert read(two_members, name="two.txt").frame["text"].tolist()[-2:] == ["x", "y"]


def test_binary_after_decompression_is_refused():
    with pytest.raises(InputError, match="binary"):
        read(gzip.compress(b"PK\x03\x04\x00\x00"), name="m.gz")


@pytest.mark.parametrize("data", [
    b'size,A\n5" tall,x\n"6"" wide",y\n',       # a quote inside an unquoted field: the csv-module path
    b'size,A\r\n"5 tall\r",x\r\n"6"" wide",y\r\n',  # a lone \r (quoted): also the csv-module path
])
def test_tables_that_pandas_cannot_be_trusted_with_read_through_the_csv_module(data):
    table = read(data, name="t.csv")
    assert table.frame["size"].tolist()[1] == '6" wide' and table.lines.tolist() == [2, 3]


def test_csv_module_path_names_bad_rows_and_unclosed_quotes():
    with pytest.raises(InputError, match="fewer fields") as info:
        read(b'a,b\n5" x,1\n"y\nz",2\nq\n', name="t.csv")
    assert info.value.line == 5
    with pytest.raises(InputError, match="never closed") as info:
        read(b'a,b\n5"" x,1\n"open,2\n3,4\n', name="t.csv")
    assert info.value.line == 3


@pytest.mark.parametrize("name, data", [
    ("deep.jsonl", b'{"gold": ' + b"[" * 200_000 + b"]" * 200_000 + b', "A": 1, "B": 2}\n'),
    ("deep.json", b"[" * 200_000 + b"]" * 200_000),
    ("samples_deep.jsonl", b'{"doc_id": 0, "filtered_resps": ' + b"[" * 200_000 + b"]" * 200_000 + b"}\n"),
], ids=["jsonl", "json", "lm-eval"])
def test_json_nested_too_deeply_is_refused_before_parsing(name, data):
    with pytest.raises(InputError, match="nests JSON values more than 64 deep") as info:
        read(data, name=name)
    assert info.value.file == name and info.value.line == 1


def test_more_items_than_the_cap_are_refused_before_parsing(monkeypatch):
    monkeypatch.setattr("sigcore.io.inputs.MAX_ITEMS", 1_000)
    with pytest.raises(InputError, match=r"has more than 1,000 lines"):
        read(b"gold,A,B\n" + b"x,x,y\n" * 1_001, name="big.csv")
    with pytest.raises(InputError, match=r"has more than 1,000 items"):
        read(b"[" + b",".join([b'{"gold": 1, "A": 1, "B": 0}'] * 1_001) + b"]", name="big.json")
    assert len(read(b"gold,A,B\n" + b"x,x,y\n" * 999, name="ok.csv").frame) == 999
