"""Bytes to text: empty, binary and mis-encoded files are refused with their place."""

import gzip

import numpy as np
import pytest

from sigcore import InputError
from sigcore.io.archives import gunzip
from sigcore.io.decoding import decode, read_bytes

BOM = b"\xef\xbb\xbf"


def test_folder_is_refused(tmp_path):
    with pytest.raises(InputError) as info:
        read_bytes(tmp_path)
    assert info.value.file == str(tmp_path)
    assert "folder" in info.value.what


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


def test_decode_drops_one_bom_only():
    assert decode(BOM + b"x\n", "f") == "x\n"


def test_many_gzip_members_are_refused_without_quadratic_work():
    """400,000 empty members made gunzip copy the rest of the file once per member (69 s for 8 MB)."""
    empty = gzip.compress(b"", mtime=0)
    with pytest.raises(InputError, match=r"has more than 1,000 gzip members.*compress it again as one file"):
        gunzip(empty * 400_000 + gzip.compress(b"gold,a,b\n1,1,1\n"), "members.csv.gz")
    few = empty * 999 + gzip.compress(b"gold,a,b\n1,1,1\n")  # the most members allowed, read in order
    assert gunzip(few, "few.csv.gz") == b"gold,a,b\n1,1,1\n"


@pytest.mark.slow  # inflates 256 MiB before it refuses
def test_a_decompression_bomb_is_refused_at_the_cap():
    bomb = gzip.compress(b"\n" * (300 * 1024**2), compresslevel=9)  # 300 MB of empty lines in ~300 KB
    assert len(bomb) < 1024**2
    with pytest.raises(InputError, match=r"bomb.csv.gz: decompresses to more than 256 MiB"):
        gunzip(bomb, "bomb.csv.gz")


def test_gzip_members_straddling_the_feed_blocks_decompress_exactly():
    rng = np.random.default_rng(0)
    parts = [rng.integers(0, 256, int(n), dtype=np.uint8).tobytes() for n in (70_000, 1, 200_000, 0, 65_536)]
    data = b"".join(gzip.compress(p, compresslevel=1) for p in parts) + b"\x00" * 10  # padding is ignored
    assert gunzip(data, "x.gz") == b"".join(parts)
    assert gunzip(b"plain text", "x.txt") == b"plain text"  # not gzip: as given


@pytest.mark.parametrize("codec, order", [("utf-16-le", "le"), ("utf-16-be", "be")])
def test_utf16_without_a_bom_is_named_with_the_encoding_to_declare(codec, order):
    with pytest.raises(InputError,
                       match=rf"looks like UTF-16 text without a byte-order mark.*--encoding utf-16-{order}"):
        decode("gold,A,B\nx,y,z\n".encode(codec), "u16.csv")
    assert decode("gold,A,B\n".encode(codec), "u16.csv", codec) == "gold,A,B\n"


def test_a_utf16_file_of_odd_length_is_said_to_be_cut_short_not_mis_encoded():
    """Its hint said "declare the encoding" of a file whose encoding was declared by its BOM."""
    for data, line in (("gold,A\nx,y\n".encode("utf-16") + b"\x00", 3), ("gold,A\nx,y".encode("utf-16-le")[:-1], 2)):
        with pytest.raises(InputError) as info:
            decode(data, "t.csv", None if data[:2] == b"\xff\xfe" else "utf-16-le")
        assert info.value.what == "ends in the middle of a character: its last byte is not a whole UTF-16 character" \
            or info.value.what.endswith("not a whole UTF-16-LE character"), info.value.what
        assert info.value.line == line and "cut short" in info.value.hint
