"""Archive bombs and damaged archives for the tests, built in memory in milliseconds and small (a compressed block is
repeated: never a large file committed), and written by hand where a zip must lie about itself."""

import bz2
import json
import struct
import zlib
from pathlib import Path

LOGS = Path(__file__).resolve().parents[1] / "data" / "inspect"
SPACES = b" " * (1 << 20)


def repeated(chunk: bytes, times: int, tail: bytes = b"", wbits: int = -15) -> tuple[bytes, int, int]:
    """A deflate stream of ``chunk`` ``times`` times then ``tail`` (one block compressed once and repeated: a full
    flush makes each block the same bytes), its CRC-32 and its size inflated."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    head = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert block == head[-len(block):]  # (a gzip stream's first block carries its header)
    end = compressor.compress(tail) + compressor.flush()
    crc = 0
    for _ in range(times):
        crc = zlib.crc32(chunk, crc)
    return head + block * (times - 1) + end, zlib.crc32(tail, crc), len(chunk) * times + len(tail)


def zstd_repeated(chunk: bytes, times: int) -> tuple[bytes, int, int]:
    """Zstandard frames of ``chunk``, ``times`` of them one after another, their CRC-32 and size inflated."""
    import zstandard

    frame = zstandard.ZstdCompressor(level=1).compress(chunk)
    crc = 0
    for _ in range(times):
        crc = zlib.crc32(chunk, crc)
    return frame * times, crc, len(chunk) * times


def zip_of(members: list[dict]) -> bytes:
    """A zip written byte by byte: each member a dict of name, raw (its compressed bytes), method, crc, size (what
    the directory declares) and flags, so that a member can declare what it is not."""
    out, directory = b"", b""
    for m in members:
        name, raw = m["name"].encode(), m["raw"]
        fields = (m.get("flags", 0), m["method"], 0, 0x21, m["crc"], len(raw), m["size"], len(name))
        directory += struct.pack("<4sHH" + "HHHHIIIH" + "HHHHII", b"PK\x01\x02", 20, 20, *fields, 0, 0, 0, 0, 0,
                                 len(out)) + name
        out += struct.pack("<4sH" + "HHHHIIIH" + "H", b"PK\x03\x04", 20, *fields, 0) + name + raw
    return out + directory + struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members),
                                         len(directory), len(out), 0)


def stored(name: str, data: bytes, **changes) -> dict:
    return {"name": name, "raw": data, "method": 0, "crc": zlib.crc32(data), "size": len(data), **changes}


def deflated(name: str, data: bytes, **changes) -> dict:
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return {"name": name, "raw": compressor.compress(data) + compressor.flush(), "method": 8,
            "crc": zlib.crc32(data), "size": len(data), **changes}


def inspect_members(log: str = "alpha.eval") -> dict[str, bytes]:
    """A real Inspect log's header.json and summaries.json, inflated (the test's logs were written by Inspect)."""
    from sigcore.io import archives

    data = (LOGS / log).read_bytes()
    found = {i.filename: i for i in archives.members(data, log)}
    return {n: archives.read_member(data, found[n], log) for n in ("header.json", "summaries.json")}


def eval_log(header: dict | bytes | None = None, summaries: list | bytes | None = None, log: str = "alpha.eval",
             **member) -> bytes:
    """An Inspect .eval of a real log's header and summaries (changed where given), deflated; ``member``: the
    header.json member's own fields replaced (raw, method, crc, size, flags)."""
    real = inspect_members(log)
    parts = {"header.json": header, "summaries.json": summaries}
    members = []
    for name, given in parts.items():
        data = real[name] if given is None else given if isinstance(given, bytes) else json.dumps(given).encode()
        members.append(deflated(name, data, **(member if name == "header.json" else {})))
    return zip_of(members)


def damaged(kind: str) -> bytes:
    """A real .eval whose header.json member is damaged so: "wrong CRC", "method 99", "deflate holding stored
    bytes", "encrypted flag", "cut short", "size other than declared", "bzip2 holding deflate"."""
    header = inspect_members()["header.json"]
    member = deflated("header.json", header)
    changes = {"wrong CRC": {"crc": member["crc"] ^ 1}, "method 99": {"method": 99},
               "deflate holding stored bytes": {"raw": header}, "encrypted flag": {"flags": 1},
               "cut short": {"raw": member["raw"][:-40]}, "size other than declared": {"size": len(header) + 7},
               "bzip2 holding deflate": {"method": 12}}[kind]
    return eval_log(**changes)


def edited(edit) -> bytes:
    """A real .eval with ``edit(header, summaries)`` applied to its members' JSON."""
    members = inspect_members()
    header, summaries = json.loads(members["header.json"]), json.loads(members["summaries.json"])
    edit(header, summaries)
    return eval_log(header, summaries)


def header_bomb(gigabytes: float = 1.9) -> bytes:
    """The issue's bomb: a 2 MB .eval whose header.json deflates to 1.9 GB of spaces followed by a valid header,
    declared as it is (JSON allows the spaces)."""
    raw, crc, size = repeated(SPACES, int(gigabytes * 1e9) >> 20, inspect_members()["header.json"])
    return zip_of([{"name": "header.json", "raw": raw, "method": 8, "crc": crc, "size": size},
                   deflated("summaries.json", inspect_members()["summaries.json"])])


def bzip2_repeated(chunk: bytes, times: int) -> tuple[bytes, int, int]:
    """One bzip2 stream of ``chunk`` ``times`` times (a decompressor reads one stream: no frames to repeat), its
    CRC-32 and size inflated; a run of one byte compresses to a few bytes a megabyte, in about a second a GB."""
    compressor, parts, crc = bz2.BZ2Compressor(9), [], 0
    for _ in range(times):
        parts.append(compressor.compress(chunk))
        crc = zlib.crc32(chunk, crc)
    return b"".join(parts) + compressor.flush(), crc, len(chunk) * times


_BUILDERS = {"deflate": (repeated, 8), "zstd": (zstd_repeated, 93), "bzip2": (bzip2_repeated, 12)}


def lying_bomb(method: str = "deflate", declared: int = 100, gigabytes: float = 2.2) -> bytes:
    """A .eval whose header.json declares ``declared`` bytes and inflates to gigabytes (deflate, Zstandard or
    bzip2, which zip calls method 12 and the reader inflates too)."""
    build, number = _BUILDERS[method]
    raw, crc, _ = build(SPACES, int(gigabytes * 1e9) >> 20)
    return zip_of([{"name": "header.json", "raw": raw, "method": number, "crc": crc, "size": declared},
                   deflated("summaries.json", inspect_members()["summaries.json"])])


def gzip_bomb(gigabytes: float = 2.0) -> bytes:
    """A gzip file of gigabytes of newlines, a few MB."""
    raw, _, _ = repeated(b"\n" * (1 << 20), int(gigabytes * 1e9) >> 20, wbits=31)
    return raw


def parquet_bomb(path: Path, row_groups: int = 70) -> None:
    """A tidy table of ``row_groups`` million rows (a row group of 2^20 written again and again: tens of MB on
    disk, 2.3 GiB of columns decoded)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = 1 << 20
    text = {c: pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), pa.array([v]))
            for c, v in (("model", "m"), ("task", "t"), ("item", "1"), ("metric", "acc"))}
    table = pa.table({**text, "run": np.ones(n, np.int64), "score": np.zeros(n)})
    with pq.ParquetWriter(path, table.schema, compression="zstd", write_statistics=False) as writer:
        for _ in range(row_groups):
            writer.write_table(table)
