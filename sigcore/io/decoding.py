"""From the bytes of a file or an upload to text, refusing what is not text with its place.

- gzip is recognised by its magic bytes and inflated in memory, within the limits of :mod:`sigcore.io.archives`
  (:func:`gunzip`: 256 MiB, 1,000 members, in linear time).
- Text is UTF-8 (a BOM is dropped); a UTF-16 BOM means UTF-16; other bytes that are not UTF-8 are refused
  with their line and column, unless the caller declares ``encoding=``. NUL bytes in the first 8 KiB
  (outside UTF-16/32) mean a binary file, and a NUL anywhere else a damaged one; a file of whitespace only is
  empty. All are refused.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from ..errors import InputError, SettingsError
from ..words import printable

__all__ = ["read_bytes", "source_bytes", "decode"]

_BOM = b"\xef\xbb\xbf"
_WIDE = ("utf-16", "utf-32")  # codec names whose text has NUL bytes


def read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", file=printable(str(path)), hint="Check the path.") from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", file=printable(str(path))) from None
    except OSError as e:
        raise InputError(f"cannot be read ({e.strerror})", file=printable(str(path))) from None


def source_bytes(source, name: str | None = None) -> tuple[bytes, str]:
    """A path's bytes, or an upload's (then ``name`` is required), and the name every message gives it: one line,
    never a terminal's command (:func:`sigcore.words.printable`)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        if name is None:
            raise SettingsError("`name` is required when reading bytes", hint="Pass the upload's file name.")
        return bytes(source), printable(name)
    return read_bytes(source), printable(name or str(source))


def decode(data: bytes, name: str, encoding: str | None = None) -> str:
    """Text without a BOM: UTF-8 unless a UTF-16 BOM or ``encoding`` says otherwise; binary, empty or
    mis-encoded input is refused with its place (line, and column in characters as an editor shows it)."""
    if encoding is None and data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        encoding = "utf-16"
    try:
        codec = codecs.lookup(encoding or "utf-8").name
    except LookupError:
        raise SettingsError(f"unknown encoding {encoding!r}", hint="Use a Python codec name, such as "
                            "'utf-8', 'latin-1' or 'cp1252'.") from None
    wide = codec.startswith(_WIDE)
    if codec == "utf-8" and data.startswith(_BOM):
        data = data[len(_BOM):]
    if not wide and (not data or data.isspace()):  # isspace: no copy of a large file
        raise InputError("the file is empty", file=name, hint="Give one output per line.")
    if not wide and b"\x00" in data[:8192]:
        head = data[:8192]
        if head[1::2].count(0) > len(head) // 4 or head[0::2].count(0) > len(head) // 4:  # ASCII in 2-byte units
            order = "le" if head[1::2].count(0) > head[0::2].count(0) else "be"
            raise InputError("looks like UTF-16 text without a byte-order mark", file=name,
                             hint=f"Declare its encoding (--encoding utf-16-{order}, or the app's Encoding box), "
                                  "or save it as UTF-8.")
        raise InputError("the file is binary, not text", file=name,
                         hint="Give a UTF-8 text file (one output per line) or a CSV/TSV table.")
    try:
        text = data.decode(codec).removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode(codec, "replace")
        cut = len(data) - e.start
        if wide and e.end == len(data) and e.reason == "truncated data":  # an odd length: cut short, not mis-encoded
            its_last = f"{cut} bytes are" if cut > 1 else "byte is"
            raise InputError(f"ends in the middle of a character: its last {its_last}"
                             f" not a whole {codec.upper()} character", file=name, line=before.count("\n") + 1,
                             hint="The file was cut short (an interrupted copy or download?); save or copy it "
                                  "again.") from None
        column = len(before) - before.rfind("\n")  # valid: the first bad byte is e.start
        label = "UTF-8" if codec == "utf-8" else codec.upper() if wide else encoding
        what = (f"byte 0x{data[e.start]:02x} is" if not wide else  # a 2-byte unit: both bytes, and what is wrong
                f"bytes {' '.join(f'0x{x:02x}' for x in data[e.start:e.end])} are")
        raise InputError(f"{what} not valid {label}{f' ({e.reason})' if wide else ''}", file=name,
                         line=before.count("\n") + 1, column=column,
                         hint="The file is damaged; save or export it again." if wide else
                         "Save the file as UTF-8." if encoding is None else
                         "Declare the encoding the file was saved in.") from None
    if wide and not text.strip():
        raise InputError("the file is empty", file=name, hint="Give one output per line.")
    nul = text.find("\x00")  # past the first 8 KiB: it would have become part of an output
    if nul >= 0:
        line_start = text.rfind("\n", 0, nul) + 1
        raise InputError("holds a NUL character (\\x00), which no text file has", file=name,
                         line=text.count("\n", 0, nul) + 1, column=nul - line_start + 1,
                         hint="The file is damaged or binary; save or export it again as text.")
    return text
