"""A paper folder's files as sigcore keeps them: which are its own, its manifest read defensively, and writing that
stays inside the folder.

- **Its own.** ``manifest.json`` records the sha256 of every file sigcore wrote into the folder. A file is sigcore's
  when its bytes still have the recorded sum; one with no record (a paper repository's own ``reproduce.sh``) or
  another sum (edited since) is not replaced unless the caller asks to (``--replace``, the app's "Replace them").
  ``sigcore.bib`` is only ever added to, so it is never refused: what is in it is kept as it is.
- **The manifest** is read as untrusted JSON: anything but the shape :func:`manifest_bytes` writes is an
  InputError that names the file and says what is wrong (where, and which key).
- **Inside the folder.** The folder named is opened once; each file is read and written through it, never through a
  link: an entry that is a symbolic link, or anything but a regular file, is refused by name; a file is written to a
  new name in the folder, then renamed over the old one, so nothing outside the folder (a link's target, a hard
  link's other name) is written or has its mode changed, and no file is left half-written.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, SettingsError
from ..words import shown
from . import citations

__all__ = ["BIB", "REPRODUCE", "CHECKLIST", "MANIFEST", "MISSING", "APPENDED", "SHAPE", "Manifest", "sha256",
           "manifest_bytes", "manifest", "not_ours", "read", "write", "merge_bib", "script", "checklist"]

BIB, REPRODUCE, CHECKLIST, MANIFEST = "sigcore.bib", "reproduce.sh", "checklist.md", "manifest.json"
MISSING = "NOT-INCLUDED.txt"  # in a zip: what could not be made (a figure without a browser), and why
APPENDED = (BIB, MISSING)  # only ever added to (an author's edits kept): never refused
SHAPE = 2  # manifest.json's "sigcore_paper_folder": the shape of this version (1 had no sums, no commands)
_STEM = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # paper.stem's names
_SUM = re.compile(r"[0-9a-f]{64}")
_KEY = re.compile(r"@\s*\w+\s*\{\s*([^,\s]+)\s*,")  # a .bib entry's key
_FIELDS = {"files": list, "claims": list, "command": str, "checklist": str}
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # not on Windows, which has no symbolic links to fear in a user's folder
_AT = os.open in os.supports_dir_fd  # open and rename through the folder's descriptor (not on Windows)


@dataclass
class Manifest:
    """What ``manifest.json`` holds: each stem's files, claims (as dicts), command and checklist section, in the
    order written; and the sha256 of every file sigcore wrote (:func:`sha256`)."""

    stems: dict[str, dict[str, Any]] = field(default_factory=dict)
    sums: dict[str, str] = field(default_factory=dict)


def sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def manifest_bytes(m: Manifest) -> bytes:
    return (json.dumps({"sigcore_paper_folder": SHAPE, "files": dict(sorted(m.sums.items())), "stems": m.stems},
                       indent=2) + "\n").encode("utf-8")


def manifest(data: bytes | None, where: str, hint: str) -> Manifest:
    """The manifest in ``data`` (None: none yet, an empty one); an InputError naming ``where`` that says what is
    wrong with anything else (not JSON, another shape, a key it does not know, a value of the wrong type)."""
    if data is None:
        return Manifest()

    def bad(what: str, **place) -> InputError:
        return InputError(what, file=where, hint=hint, **place)
    try:
        record = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise bad(f"is not UTF-8 text (byte {e.start + 1})") from None
    except json.JSONDecodeError as e:
        raise bad(f"is not JSON ({e.msg})", line=e.lineno, column=e.colno) from None
    except (ValueError, RecursionError) as e:  # a 5,000-digit integer; arrays nested thousands deep
        raise bad(f"is not JSON that sigcore reads ({type(e).__name__})") from None
    if isinstance(record, dict) and "sigcore_paper_folder" not in record and record and all(
            isinstance(v, dict) and "claims" in v for v in record.values()):
        raise bad("was written by an earlier sigcore, which recorded no checksums, so its files cannot be told "
                  "from edited ones")
    if not isinstance(record, dict) or record.get("sigcore_paper_folder") != SHAPE:
        raise bad(f"is not the manifest of a sigcore paper folder (an object with \"sigcore_paper_folder\": {SHAPE})")
    _keys(record, {"sigcore_paper_folder", "files", "stems"}, "the manifest", bad)
    sums, stems = record.get("files", {}), record.get("stems", {})
    if not isinstance(sums, dict) or not all(_flat(k) and isinstance(v, str) and _SUM.fullmatch(v)
                                             for k, v in sums.items()):
        raise bad('"files" must map file names to the sha256 of their bytes (64 hexadecimal digits)')
    if not isinstance(stems, dict):
        raise bad(f'"stems" must be an object, not {_kind(stems)}')
    for stem, entry in stems.items():
        if not _STEM.fullmatch(stem):
            raise bad(f"stem {shown(stem)} is not a name sigcore gives (lowercase letters, digits and hyphens)")
        if not isinstance(entry, dict):
            raise bad(f"stem {stem} must be an object, not {_kind(entry)}")
        _keys(entry, set(_FIELDS), f"stem {stem}", bad, required=True)
        for key, kind in _FIELDS.items():
            if not isinstance(entry[key], kind):
                raise bad(f'stem {stem}: "{key}" must be {_kind(kind())}, not {_kind(entry[key])}')
        if not all(isinstance(f, str) and _flat(f) for f in entry["files"]):
            raise bad(f'stem {stem}: "files" must be a list of file names in the folder')
        if not all(isinstance(c, dict) for c in entry["claims"]):
            raise bad(f'stem {stem}: "claims" must be a list of objects')
    return Manifest(stems, sums)


def _keys(record: dict, known: set, what: str, bad, required: bool = False) -> None:
    unknown = sorted(set(record) - known, key=str)
    if unknown:
        raise bad(f"{what} has a key sigcore does not write: {shown(unknown[0])} "
                  f"(it writes {', '.join(sorted(known))})")
    missing = sorted(known - set(record)) if required else []
    if missing:
        raise bad(f'{what} lacks "{missing[0]}"')


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true or false", type(None): "null"}.get(
        type(value), "a number")


def _flat(name: str) -> bool:
    """A file's name in the folder itself: not a path, not . or .., no NUL."""
    return bool(name) and name not in (".", "..") and not any(c in name for c in "/\\\x00")


def not_ours(existing: Mapping[str, bytes], m: Manifest, names: Iterable[str]) -> dict[str, str]:
    """The files of ``names`` that are in ``existing`` and are not sigcore's (recorded in ``m`` with the sum of
    their bytes), each with why; the manifest and :data:`APPENDED` files are read, not replaced."""
    out = {}
    for name in names:
        if name in existing and name not in (MANIFEST, *APPENDED) and m.sums.get(name) != sha256(existing[name]):
            out[name] = "changed since sigcore wrote it" if name in m.sums else "not written by sigcore"
    return out


def read(folder: str | Path, names: Iterable[str]) -> dict[str, bytes]:
    """The files of ``names`` that exist in ``folder`` (made if missing), read without following a link; a
    SettingsError naming an entry that is a symbolic link or not a regular file."""
    found = {}
    with _Folder(folder) as d:
        for name in names:
            try:
                info = os.stat(name, **d.at, follow_symlinks=False) if _AT else os.lstat(d.path / name)
            except FileNotFoundError:
                continue
            except OSError as e:
                raise _unusable(d.path / name, e) from None
            if stat.S_ISLNK(info.st_mode):
                raise SettingsError(f"is a symbolic link (to {_target(d, name)}); sigcore reads and writes a paper "
                                    "folder's own files, never through a link", file=str(d.path / name),
                                    hint="Remove the link, or give another folder (--paper OTHER).")
            if not stat.S_ISREG(info.st_mode):
                raise SettingsError("is not a regular file, and sigcore would write one there",
                                    file=str(d.path / name), hint="Move it, or give another folder (--paper OTHER).")
            found[name] = d.read(name)
    return found


def write(folder: str | Path, files: Mapping[str, bytes], executable: Iterable[str] = ()) -> None:
    """Write ``files`` into ``folder`` in their order, each to a new name in the folder renamed over the old one
    (never through a link, never half-written); ``executable``: the names made runnable (as the umask allows)."""
    executable = set(executable)
    with _Folder(folder) as d:
        for name, content in files.items():
            d.replace(name, content, 0o777 if name in executable else 0o666)


class _Folder:
    """The folder, opened once (and made if missing): its files are reached through it."""

    def __init__(self, folder: str | Path):
        self.path = Path(folder)

    def __enter__(self) -> _Folder:
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if _AT else None
        except OSError as e:
            raise SettingsError(f"cannot make or open the paper folder ({e.strerror})", file=str(self.path),
                                hint="Give a folder you can write to (--paper DIR).") from None
        self.at = {"dir_fd": self.fd} if _AT else {}
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)

    def _name(self, name: str) -> str | Path:
        if not _flat(name):  # paper.stem's names and the shared files: never a path
            raise SettingsError(f"{shown(name)} is not a file name in the paper folder")
        return name if _AT else self.path / name

    def read(self, name: str) -> bytes:
        try:  # O_NONBLOCK: a FIFO put there since the check is not waited on
            fd = os.open(self._name(name), os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0), **self.at)
        except OSError as e:
            raise _unusable(self.path / name, e) from None
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise SettingsError("is not a regular file", file=str(self.path / name))
            return f.read()

    def replace(self, name: str, content: bytes, mode: int) -> None:
        temporary = f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(self._name(temporary), os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, mode, **self.at)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(content)
                at = {"src_dir_fd": self.fd, "dst_dir_fd": self.fd} if _AT else {}
                os.replace(self._name(temporary), self._name(name), **at)  # a link there is replaced, not followed
            except BaseException:
                os.unlink(self._name(temporary), **self.at)
                raise
        except OSError as e:
            raise SettingsError(f"cannot write {name} into the paper folder ({e.strerror})", file=str(self.path),
                                hint="Give a folder you can write to (--paper DIR).") from None


def _target(d: _Folder, name: str) -> str:
    try:
        return os.readlink(name, **d.at) if _AT else os.readlink(d.path / name)
    except OSError:
        return "somewhere"


def _unusable(path: Path, e: OSError) -> SettingsError:
    if e.errno == errno.ELOOP:  # O_NOFOLLOW met a link made since the check
        return SettingsError("is a symbolic link; sigcore never reads or writes through a link", file=str(path),
                             hint="Remove the link, or give another folder (--paper OTHER).")
    return SettingsError(f"cannot be read ({e.strerror})", file=str(path), hint="Give another folder (--paper OTHER).")


# ---------------------------------------------------------------- the shared files


def merge_bib(existing: str, keys: list[str]) -> str:
    """``existing`` with the entries of ``keys`` (and sigcore's own) that it lacks, appended: each key once, what
    was there (an author's edits included) kept as it is."""
    have = set(_KEY.findall(existing))
    new = [k for k in dict.fromkeys([*keys, citations.TOOL]) if k not in have]
    if not new:
        return existing
    added = "\n\n".join(citations.WORKS[k].bibtex for k in new) + "\n"
    return (existing.rstrip() + "\n\n" if existing.strip() else "") + added



_SCRIPT = """#!/bin/sh
# Recreates every result of this paper folder (each prints its signature again). Run it from anywhere, with sh or
# bash: each command runs in this folder, its files named from here. Needs sigcore installed for `python`.
set -e
cd -- "$(dirname -- "$0")"
python -c 'import sigcore' 2>/dev/null || { echo "reproduce.sh: python cannot import sigcore: install it for this \
python (in sigcore's source folder: pip install -e .), then run this again." >&2; exit 1; }
"""


def script(stems: Mapping[str, Mapping[str, Any]]) -> str:
    """``reproduce.sh``: one command per stem under ``# STEM``, as :func:`sigcore.report.reproduce.line` quoted it
    for POSIX sh; above a command whose names hold control or invisible characters, a comment shows it escaped, so
    that a reader sees what it runs; a command no shell can pass (a NUL in a name) is written as a comment only."""
    from .reproduce import shown

    parts = [_SCRIPT]
    for stem, entry in stems.items():
        command = entry["command"]
        text, escaped = shown(command)
        if "\x00" in command:
            parts.append(f"\n# {stem}\n# cannot run: a name holds a NUL character, which no command line passes; "
                         f"rename it. The command, escaped:\n# {text}\n")
        else:
            seen = f"# the command below, its control and invisible characters escaped:\n# {text}\n" if escaped else ""
            parts.append(f"\n# {stem}\n{seen}{command}\n")
    return "".join(parts)


_CHECKLIST = ("# ACL Responsible NLP checklist: drafts for C3 and C4\n\nDrafted by sigcore from what each run "
              "knows; check and complete them before you submit (in your own copy: sigcore replaces this file only "
              "as it wrote it). C3: \"Did you report descriptive statistics about your results (e.g., error bars "
              "around results, summary statistics from sets of experiments), and is it transparent whether you are "
              "reporting the max, mean, etc. or just a single run?\" C4: \"If you used existing packages (e.g., for "
              "preprocessing, for normalization, or for evaluation), did you report the implementation, model, and "
              "parameter settings used?\"\n\n")


def checklist(stems: Mapping[str, Mapping[str, Any]], disagreements: list[str]) -> str:
    """``checklist.md``: each stem's section in order, then where two results disagree."""
    consistency = ("## Where two results disagree\n\n" + "".join(f"- {w}\n" for w in disagreements) + "\n"
                   if disagreements else "")
    return _CHECKLIST + "".join(e["checklist"].rstrip() + "\n\n" for e in stems.values()) + consistency
