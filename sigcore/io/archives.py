"""Archives read within limits, in one place: the members of a zip (an Inspect ``.eval``, an upload of many logs, a
paper folder) and gzip files are inflated as streams, a block at a time, counting the bytes they actually unpack
to, never trusting the sizes the archive declares. Each is refused past its limit, and everything one upload (or
one command's logs) unpacks to past :data:`ARCHIVE`, naming the file, the member and the limit, before that memory
is spent.

=================  ==========  ================================================================================
``HEADER``         32 MiB      a log's ``header.json`` (Inspect's): tens of kilobytes in real logs
``SUMMARIES``      128 MiB     Inspect's ``summaries.json``: about 1 KB a sample and epoch, 100,000 of them fit
``MEMBER``         256 MiB     any other member, and a gzip file: near the app's 200 MB upload limit
``ARCHIVE``        1 GiB       everything one upload, or one command's logs, unpacks to: members and gzip alike
``MEMBERS``        100,000     members in one zip (each costs a Python object before any is read)
``GZIP_MEMBERS``   1,000       gzip members in one file (real files have one, or a few from appending)
``TABLE``          2 GiB       what a Parquet table decodes to: its rows times its columns' widths, and its pages
                               unpacked (18 million scores of 6 columns: 0.4 GiB), measured before it is decoded
=================  ==========  ================================================================================

A member inflates to at most the size its zip's directory declares (one that would go past it is damaged, or made
to exhaust memory: refused there), and its size and CRC-32 must be the declared ones. Damage is refused with the
member's name: a wrong CRC, the encryption flag, a method sigcore does not read (99: WinZip's AES encryption), data
that is not what its method says (deflate holding stored bytes), a member cut short. Zstandard (Inspect's method 93)
is inflated with a window of at most 32 MiB.
"""

from __future__ import annotations

import bz2
import contextlib
import contextvars
import importlib.util
import io
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator

from ..errors import InputError
from ..words import printable

__all__ = ["HEADER", "SUMMARIES", "MEMBER", "ARCHIVE", "MEMBERS", "TABLE", "GZIP_MEMBERS", "GZIP_MAGIC", "ZSTD",
           "CHUNK", "size", "total", "members", "read_member", "unzip", "gunzip"]

HEADER = 32 * 2**20
SUMMARIES = 128 * 2**20
MEMBER = 256 * 2**20
ARCHIVE = 2**30
MEMBERS = 100_000
TABLE = 2 * 2**30
GZIP_MEMBERS = 1_000
GZIP_MAGIC = b"\x1f\x8b"
ZSTD = 93  # the zip compression method of Zstandard, which zipfile cannot open
CHUNK = 1 << 20  # inflated bytes a step: what a bomb costs past its limit
_BLOCK = 1 << 16  # compressed bytes fed to a decompressor at a time
_WINDOW = 1 << 25  # the largest Zstandard window inflated (zstd's levels up to 19 use at most 8 MiB)
_DIRECTORY = 16 * 2**20  # bytes of a zip's central directory: MEMBERS entries with long names
_OTHER = {9: "Deflate64", 14: "LZMA", 95: "xz", 96: "JPEG", 97: "WavPack", 98: "PPMd", 99: "AES encryption"}
_FIX = "The archive is damaged (or made to exhaust memory); make it again from the original files."
_MORE = "Give fewer logs at once, or the scores as a table (sigcore convert writes one as Parquet)."


def size(n: int) -> str:
    """Bytes as a message says them: 32 MiB, 1 GiB, 1.8 GiB, 100 bytes."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            value = n / (1 << shift)
            return f"{value:,.0f} {unit}" if value == int(value) or value >= 100 else f"{value:,.1f} {unit}"
    return f"{n:,} byte{'s' * (n != 1)}"


class _Total:
    """The bytes everything inflated inside :func:`total`'s block may come to, and those it has come to."""

    def __init__(self, name: str, limit: int):
        self.name, self.limit, self.used = name, limit, 0


_TOTALS: contextvars.ContextVar[tuple[_Total, ...]] = contextvars.ContextVar("sigcore_archive_totals", default=())


@contextlib.contextmanager
def total(name: str, limit: int = ARCHIVE):
    """Inside the block, every zip member and gzip file inflated counts towards ``limit`` (blocks nest: each counts
    what is inflated inside it); past it, refused naming ``name`` (an upload, a command's logs) and the member."""
    token = _TOTALS.set((*_TOTALS.get(), _Total(name, limit)))
    try:
        yield
    finally:
        _TOTALS.reset(token)


def _collect(chunks: Iterator[bytes], most: int, too_large: Callable[[], InputError], member: str) -> bytes:
    """The chunks joined, refused with ``too_large()`` as soon as they pass ``most`` bytes, and with the total's
    error as soon as everything inflated passes a :func:`total`'s limit."""
    out, got, totals = [], 0, _TOTALS.get()
    for chunk in chunks:
        got += len(chunk)
        if got > most:
            raise too_large()
        for t in totals:
            t.used += len(chunk)
            if t.used > t.limit:
                raise InputError(f"unpacks to more than {size(t.limit)} in all (the limit was passed at {member})",
                                 file=t.name, hint=_MORE)
        out.append(chunk)
    return b"".join(out)


# --- zip ----------------------------------------------------------------------------------------------------------

def members(data: bytes, name: str) -> list[zipfile.ZipInfo]:
    """A zip's files (not its folders), in the archive's order; an InputError naming ``name`` where it is not a zip,
    or where its directory lists more than :data:`MEMBERS` members."""
    count, directory = _directory(data)
    if count > MEMBERS or directory > _DIRECTORY:
        raise InputError(f"has more than {MEMBERS:,} members (or a directory of them larger than "
                         f"{size(_DIRECTORY)})", file=name,
                         hint="Zip fewer files at once (a folder of logs, not a disk).")
    try:
        return [i for i in zipfile.ZipFile(io.BytesIO(data)).infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError, struct.error) as e:
        raise InputError(f"is not a readable zip ({e})", file=name, hint=_FIX) from None


def _directory(data: bytes) -> tuple[int, int]:
    """The number of members and the size of the central directory that a zip's end record declares (what zipfile
    reads before anything else, an object per member); (0, 0) where there is none (zipfile then says so)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 65535))
    if end < 0 or end + 22 > len(data):
        return 0, 0
    count, directory = struct.unpack("<HI", data[end + 10:end + 16])
    locator = data[end - 20:end] if end >= 20 else b""
    if locator[:4] == b"PK\x06\x07":  # Zip64: the counts are in its own end record
        at = struct.unpack("<Q", locator[8:16])[0]
        record = data[at:at + 56]
        if record[:4] == b"PK\x06\x06" and len(record) == 56:
            count, directory = struct.unpack("<QQ", record[32:48])
    return count, directory


def read_member(data: bytes, info: zipfile.ZipInfo, name: str, limit: int = MEMBER) -> bytes:
    """A member of the zip ``data`` (``name`` in messages), inflated as a stream up to the size its directory
    declares and at most ``limit`` bytes, its size and CRC-32 checked; every failure an InputError naming the file
    and the member."""
    where = f"its member {printable(info.filename)}"
    if info.flag_bits & 0x1:
        raise InputError(f"{where} is encrypted", file=name, hint="Give the files without a password.")
    inflate = _METHODS.get(info.compress_type)
    if inflate is None:
        method = _OTHER.get(info.compress_type, "unknown")
        raise InputError(f"{where} is compressed with method {info.compress_type} ({method}), which sigcore does not "
                         "read", file=name, hint="Zip the files again with the usual compression (deflate).")
    if info.file_size > limit:
        raise InputError(f"{where} unpacks to {size(info.file_size)}, more than the {size(limit)} sigcore reads of "
                         "one member", file=name, hint="No real member of its kind is so large: the archive is "
                                                       "damaged or made to exhaust memory (or split the log).")
    raw = _raw(data, info, name, where)
    if info.compress_type == ZSTD and importlib.util.find_spec("zstandard") is None:
        raise InputError(f"{where} is compressed with Zstandard, and the zstandard package is not installed",
                         file=name, hint='Install it: pip install "sigcore[logs]" (or pip install zstandard).')
    crc = 0

    def too_large() -> InputError:
        return InputError(f"{where} unpacks to more than the {size(info.file_size)} its archive declares for it",
                          file=name, hint=_FIX)

    def checked(chunks: Iterator[bytes]) -> Iterator[bytes]:
        nonlocal crc
        for chunk in chunks:
            crc = zlib.crc32(chunk, crc)
            yield chunk

    try:
        out = _collect(checked(inflate(raw)), info.file_size, too_large, f"{name}, {where[4:]}")
    except _Truncated:
        raise InputError(f"{where} is cut short", file=name, hint=_FIX) from None
    except InputError:
        raise
    except (zlib.error, OSError, EOFError, ValueError) as e:  # zlib's, bz2's and zstandard's words for bad data
        raise InputError(f"{where} cannot be inflated ({e})", file=name, hint=_FIX) from None
    if len(out) != info.file_size or crc != info.CRC:
        what = f"unpacks to {len(out):,} bytes, not the {info.file_size:,}" if len(out) != info.file_size \
            else "has another CRC-32 than the one"
        raise InputError(f"{where} {what} its archive declares: it is damaged", file=name, hint=_FIX)
    return out


class _Truncated(Exception):
    """A compressed stream that ends before its end."""


def _raw(data: bytes, info: zipfile.ZipInfo, name: str, where: str) -> memoryview:
    """A member's compressed bytes: after its local header (whose name and extra field have their own lengths)."""
    at = info.header_offset
    head = data[at:at + 30]
    if len(head) < 30 or head[:4] != b"PK\x03\x04":
        raise InputError(f"{where} has no local header where the directory says", file=name, hint=_FIX)
    start = at + 30 + sum(struct.unpack("<HH", head[26:30]))
    if start + info.compress_size > len(data):
        raise InputError(f"{where} is cut short", file=name, hint=_FIX)
    return memoryview(data)[start:start + info.compress_size]


def _stored(raw: memoryview) -> Iterator[bytes]:
    for at in range(0, len(raw), CHUNK):
        yield bytes(raw[at:at + CHUNK])


def _deflated(raw: memoryview) -> Iterator[bytes]:
    yield from _zlib(zlib.decompressobj(-15), raw)


def _zlib(inflater, view: memoryview, at: int = 0):
    """Chunks of at most CHUNK bytes from a zlib inflater fed ``view`` from ``at`` a block at a time, until its
    stream ends; returns where the stream ended in ``view``."""
    while not inflater.eof:
        if inflater.unconsumed_tail:
            block = inflater.unconsumed_tail
        elif at < len(view):
            block, at = view[at:at + _BLOCK], min(at + _BLOCK, len(view))
        else:
            raise _Truncated
        chunk = inflater.decompress(block, CHUNK)
        if chunk:
            yield chunk
    return at - len(inflater.unused_data)


def _bzip2(raw: memoryview) -> Iterator[bytes]:
    inflater = bz2.BZ2Decompressor()
    at = 0
    while not inflater.eof:
        block = b""
        if inflater.needs_input:
            if at >= len(raw):
                raise _Truncated
            block, at = raw[at:at + _BLOCK], at + _BLOCK
        chunk = inflater.decompress(block, CHUNK)
        if chunk:
            yield chunk


def _zstd(raw: memoryview) -> Iterator[bytes]:
    import zstandard  # imported when a member needs it (ModuleNotFoundError: the caller says so)

    try:
        reader = zstandard.ZstdDecompressor(max_window_size=_WINDOW).stream_reader(raw, read_across_frames=True)
        while chunk := reader.read(CHUNK):
            yield chunk
    except zstandard.ZstdError as e:
        raise ValueError(str(e)) from None


_METHODS = {zipfile.ZIP_STORED: _stored, zipfile.ZIP_DEFLATED: _deflated, zipfile.ZIP_BZIP2: _bzip2, ZSTD: _zstd}


def unzip(data: bytes, name: str, keep: Callable[[str], bool] = lambda member: True,
          limit: int = MEMBER, most: int = ARCHIVE) -> list[tuple[str, bytes]]:
    """Each of a zip's files whose name ``keep`` takes, with its bytes (:func:`read_member`, at most ``limit``
    each), in the zip's order; refused at once where they declare more than ``most`` in all (each inflates to at most
    what it declares, so that the declarations bound what is read)."""
    kept = [i for i in members(data, name) if keep(i.filename)]
    declared = sum(i.file_size for i in kept)
    if declared > most:
        raise InputError(f"unpacks to {size(declared)} in all, more than the {size(most)} sigcore reads at once",
                         file=name, hint=_MORE)
    return [(i.filename, read_member(data, i, name, limit)) for i in kept]


# --- gzip ---------------------------------------------------------------------------------------------------------

def gunzip(data: bytes, name: str) -> bytes:
    """The data, inflated if they are gzip (all members, in linear time), refused as soon as they pass
    :data:`MEMBER` bytes or :data:`GZIP_MEMBERS` members; other data as they are."""
    if data[:2] != GZIP_MAGIC:
        return data

    def too_large() -> InputError:
        return InputError(f"decompresses to more than {size(MEMBER)}", file=name,
                          hint="Give fewer items, or split the test set.")

    try:
        return _collect(_gzip_members(memoryview(data), name), MEMBER, too_large, name)
    except _Truncated:
        raise InputError("the gzip file is truncated", file=name, hint="Compress the file again.") from None
    except zlib.error as e:
        raise InputError(f"is not a valid gzip file ({e})", file=name, hint="Compress the file again.") from None


def _gzip_members(view: memoryview, name: str) -> Iterator[bytes]:
    """The inflated chunks of every gzip member (concatenated members; trailing padding is ignored), each member fed
    a block at a time, so that no member copies the rest of the file."""
    at = count = 0
    while bytes(view[at:at + 2]) == GZIP_MAGIC:
        count += 1
        if count > GZIP_MEMBERS:
            raise InputError(f"has more than {GZIP_MEMBERS:,} gzip members", file=name,
                             hint="Decompress it and compress it again as one file.")
        at = yield from _zlib(zlib.decompressobj(wbits=31), view, at)  # the next member starts where it ended
