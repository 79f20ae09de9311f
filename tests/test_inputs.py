"""Reading files: plain text one item per line, CSV/TSV tables, and the refusals with their places."""

import pytest

from sigcore import InputError
from sigcore.inputs import column, decode, read_bytes, read_lines, read_table

BOM = b"\xef\xbb\xbf"


def write(tmp_path, name, data: bytes):
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
    assert read_lines(write(tmp_path, "f.txt", data)) == ["one", "two words", "three"]


def test_read_lines_keeps_blank_lines_in_the_middle_as_empty_items(tmp_path):
    path = write(tmp_path, "f.txt", b"first\n\nthird\n\n\nsixth\n")
    assert read_lines(path) == ["first", "", "third", "", "", "sixth"]


def test_read_lines_crlf_blank_lines_are_empty_items_not_carriage_returns(tmp_path):
    assert read_lines(write(tmp_path, "f.txt", b"a\r\n\r\nc\r\n")) == ["a", "", "c"]


def test_read_lines_keeps_whitespace_inside_and_around_lines(tmp_path):
    path = write(tmp_path, "f.txt", b"  two  spaces \n\ttab\tinside\nend \n")
    assert read_lines(path) == ["  two  spaces ", "\ttab\tinside", "end "]


def test_read_lines_only_a_final_newline_is_dropped(tmp_path):
    # one trailing newline ends the last line; a second one is an empty last item
    assert read_lines(write(tmp_path, "f.txt", b"a\nb\n\n")) == ["a", "b", ""]


def test_read_lines_a_lone_carriage_return_is_not_a_line_break(tmp_path):
    assert read_lines(write(tmp_path, "f.txt", b"a\rb\nc\n")) == ["a\rb", "c"]


def test_read_lines_decodes_utf8(tmp_path):
    text = "café naïve\n日本語\n"
    assert read_lines(write(tmp_path, "f.txt", text.encode("utf-8"))) == ["café naïve", "日本語"]


# --- read_bytes ---------------------------------------------------------------------------------------

def test_missing_file_names_the_file(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(InputError) as info:
        read_lines(path)
    assert info.value.file == str(path)
    assert info.value.what == "file not found"
    assert (info.value.line, info.value.column) == (None, None)


def test_folder_is_refused(tmp_path):
    with pytest.raises(InputError) as info:
        read_bytes(tmp_path)
    assert info.value.file == str(tmp_path)
    assert "folder" in info.value.what


# --- decode: empty, binary, invalid UTF-8 with its place ---------------------------------------------------

@pytest.mark.parametrize("data", [b"", b"\n\n", b"  \r\n", BOM, BOM + b"\n"])
def test_empty_files_are_refused(data):
    with pytest.raises(InputError) as info:
        decode(data, "empty.txt")
    assert info.value.file == "empty.txt"
    assert info.value.what == "the file is empty"


def test_binary_file_is_refused():
    with pytest.raises(InputError) as info:
        decode(b"PK\x03\x04\x00\x00abc\n", "model.bin")
    assert info.value.file == "model.bin"
    assert "binary" in info.value.what


@pytest.mark.parametrize("data, line, column, byte", [
    (b"\xff first line\n", 1, 1, 0xFF),
    (b"ok\nab\xffc\n", 2, 3, 0xFF),
    (b"a\r\nb\r\nxy\xc3(\r\n", 3, 3, 0xC3),             # CRLF: the \r belongs to the line before
    (b"x\n\xc3\xa9\xc3\xa9\xff\n", 2, 3, 0xFF),        # columns count characters, not bytes: "éé" is 2
    (BOM + b"ab\xff\n", 1, 3, 0xFF),                    # the BOM is not a column
    (BOM + b"a\n\xff\n", 2, 1, 0xFF),                   # ... nor does it shift the line
    (b"line 1\nline 2\nline 3 \xe2\x82", 3, 8, 0xE2),   # truncated sequence at the end
])
def test_invalid_utf8_reports_line_column_and_byte(data, line, column, byte):
    with pytest.raises(InputError) as info:
        decode(data, "bad.txt")
    e = info.value
    assert (e.file, e.line, e.column) == ("bad.txt", line, column)
    assert e.what == f"byte 0x{byte:02x} is not valid UTF-8"
    assert str(e).startswith(f"bad.txt, line {line}, column {column}: ")


def test_invalid_utf8_through_read_lines_names_the_path(tmp_path):
    path = write(tmp_path, "latin1.txt", "ok\nstill ok\ncafé\n".encode("latin-1"))
    with pytest.raises(InputError) as info:
        read_lines(path)
    assert (info.value.file, info.value.line, info.value.column) == (str(path), 3, 4)


def test_decode_drops_one_bom_only():
    assert decode(BOM + b"x\n", "f") == "x\n"


# --- read_table ---------------------------------------------------------------------------------------

def test_read_table_csv(tmp_path):
    table = read_table(write(tmp_path, "t.csv", b"gold,A,B\npos,pos,neg\nneg,pos,neg\n"))
    assert list(table.columns) == ["gold", "A", "B"]
    assert column(table, "A", "t.csv", "A") == ["pos", "pos"]
    assert column(table, "B", "t.csv", "B") == ["neg", "neg"]


def test_read_table_tsv_by_extension_keeps_commas_in_cells(tmp_path):
    table = read_table(write(tmp_path, "t.tsv", b"ref\thyp\nHello, world\tHi, world\n"))
    assert list(table.columns) == ["ref", "hyp"]
    assert table.iloc[0].tolist() == ["Hello, world", "Hi, world"]


@pytest.mark.parametrize("name, data", [
    ("t.txt", b"gold;A;B\n1;1;0\n0;1;0\n1;0;0\n"),
    ("t", b"gold\tA\tB\n1\t1\t0\n0\t1\t0\n1\t0\t0\n"),
])
def test_read_table_sniffs_the_separator_without_a_known_extension(tmp_path, name, data):
    table = read_table(write(tmp_path, name, data))
    assert list(table.columns) == ["gold", "A", "B"]
    assert column(table, "gold", name, "gold") == ["1", "0", "1"]
    assert column(table, "B", name, "B") == ["0", "0", "0"]


def test_read_table_quoted_fields_keep_separators_quotes_and_newlines(tmp_path):
    data = b'ref,hyp\n"a, b",plain\n"say ""hi""","two\nlines"\n'
    table = read_table(write(tmp_path, "t.csv", data))
    assert table["ref"].tolist() == ["a, b", 'say "hi"']
    assert table["hyp"].tolist() == ["plain", "two\nlines"]


def test_read_table_keeps_labels_as_written(tmp_path):
    data = b"gold,A,B\n007,7,7.0\n1.0,1,NA\nTrue,null,\n"
    table = read_table(write(tmp_path, "t.csv", data))
    assert table["gold"].tolist() == ["007", "1.0", "True"]
    assert table["A"].tolist() == ["7", "1", "null"]
    assert table["B"].tolist() == ["7.0", "NA", ""]
    assert all(isinstance(v, str) for col in table.columns for v in table[col])


def test_read_table_crlf_and_bom_read_like_lf(tmp_path):
    plain = read_table(write(tmp_path, "plain.csv", b"gold,A\nx,y\nz,w\n"))
    odd = read_table(write(tmp_path, "odd.csv", BOM + b"gold,A\r\nx,y\r\nz,w\r\n"))
    assert list(odd.columns) == ["gold", "A"]  # no "\ufeffgold"
    assert odd.values.tolist() == plain.values.tolist() == [["x", "y"], ["z", "w"]]


def test_read_table_header_only(tmp_path):
    path = write(tmp_path, "t.csv", b"gold,A,B\n")
    with pytest.raises(InputError) as info:
        read_table(path)
    assert (info.value.file, info.value.line) == (str(path), 2)
    assert "no rows" in info.value.what


@pytest.mark.parametrize("data, line", [
    (b"gold,A,B\n1,1,0\n0,1,0,9\n", 3),
    (b"gold,A,B\r\n1,1,0\r\n0,1,0\r\n1,1,1,1,1\r\n", 4),
])
def test_read_table_row_with_too_many_fields(tmp_path, data, line):
    path = write(tmp_path, "t.csv", data)
    with pytest.raises(InputError) as info:
        read_table(path)
    assert (info.value.file, info.value.line) == (str(path), line)
    assert info.value.what.startswith("a row has more fields than the header")
    assert "Quote fields" in info.value.hint


def test_read_table_unclosed_quote(tmp_path):
    path = write(tmp_path, "t.csv", b'gold,A\n1,2\n"open,2\n3,4\n')
    with pytest.raises(InputError) as info:
        read_table(path)
    assert (info.value.file, info.value.line) == (str(path), 3)
    assert info.value.what == "a quoted field is never closed"


def test_column_missing_lists_the_columns(tmp_path):
    table = read_table(write(tmp_path, "t.csv", b"doc,gold,A,B\n1,x,x,y\n"))
    with pytest.raises(InputError) as info:
        column(table, "C", "t.csv", "B")
    assert (info.value.file, info.value.line) == ("t.csv", 1)
    assert info.value.what == "no column 'C' for B"
    assert info.value.hint == "The columns are: doc, gold, A, B."
