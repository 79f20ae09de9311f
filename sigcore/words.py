"""How messages and sentences quote a value, list names, show a file's name and count things: one place, so
that every message cuts a 5,000-digit number short and no name can forge a line."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(name: str) -> str:
    """A file or folder name as it is shown: control characters, newlines and tabs included, as \\xNN, so that a
    name is one line that a terminal prints and never obeys (an escape recolours it, a newline forges a line)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", name)


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its repr (control characters escaped), cut to ``limit`` characters, so
    that a 5,000-digit number or a pasted document is not echoed whole."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def listed(names, limit: int = 20) -> str:
    """Names as a hint lists them: the first few, then how many more (a table may have thousands of columns)."""
    names = [str(n) for n in names]
    return ", ".join(names[:limit]) + (f" and {len(names) - limit:,} more" if len(names) > limit else "")


def counted(n: int, noun: str) -> str:
    """``noun`` in the number ``n`` takes: "1 item", "12 items"."""
    return f"{n:,} {noun}{'s' * (n != 1)}"
