"""How messages and sentences quote a value, list names, show a file's name and count things: one place, so
that every message cuts a 5,000-digit number short and no name can forge a line."""

from __future__ import annotations

import os
import re

__all__ = ["CONTROL", "SLOT", "escape", "printable", "in_text", "shown", "named", "listed", "counted", "told_apart"]

# control characters, and the invisible ones that reorder or hide text (bidi overrides and isolates, zero widths,
# the BOM): a name with U+202E reads backwards, "Trojan source" style
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
                     "\ud800-\udfff]")  # and lone surrogates: the bytes of a file name that is not UTF-8
# a template's slot, which :mod:`sigcore.report.export` fills with a name escaped for LaTeX or Markdown
SLOT = re.compile("(\x00[A-Za-z]+\\d*\x00)")


def escape(char: str) -> str:
    """\\xNN below U+0080, \\uNNNN above (bash's $'\\x9b' would be a byte, not U+009B)."""
    return f"\\x{ord(char):02x}" if char < "\x80" else f"\\u{ord(char):04x}"


def printable(name: str, keep: str = "") -> str:
    """A file or folder name as it is shown: control characters (newlines and tabs included, unless in ``keep``)
    and invisible ones as \\xNN or \\uNNNN, so that a name is one line that a terminal prints and never obeys
    (an escape recolours it, a newline forges a line, U+202E turns it around)."""
    return CONTROL.sub(lambda m: m.group() if m.group() in keep else escape(m.group()), name)


def in_text(name: object) -> str:
    """A name (of a system, model, task, column or file) as a sentence or a text table shows it: :func:`printable`,
    so that it cannot forge a line; a template's NUL-delimited slots (:mod:`sigcore.report.export` fills them with
    the name escaped for LaTeX or Markdown) pass through whole, and any other NUL is escaped. JSON and CSV keep names
    as data, in their own quoting."""
    return "".join(part if i % 2 else printable(part) for i, part in enumerate(SLOT.split(str(name))))


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its repr (control characters escaped), cut to ``limit`` characters, so
    that a 5,000-digit number or a pasted document is not echoed whole."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def named(value: object) -> str:
    """A model's or a task's name as a message quotes it: whole up to 200 characters, as HELM names its runs
    ('commonsense:dataset=hellaswag,method=multiple_choice_joint,model=openai_gpt2', cut at 40 it named none)."""
    return shown(value, 200)


def listed(names, limit: int = 20) -> str:
    """Names as a hint lists them: the first few, then how many more (a table may have thousands of columns)."""
    names = [str(n) for n in names]
    return ", ".join(names[:limit]) + (f" and {len(names) - limit:,} more" if len(names) > limit else "")


def counted(n: int, noun: str) -> str:
    """``noun`` in the number ``n`` takes: "1 item", "12 items"."""
    return f"{n:,} {noun}{'s' * (n != 1)}"


def told_apart(names, keep: int = 6) -> list[str]:
    """Names as a narrow box shows them: a start they all share, beyond its first ``keep`` characters, as "…", so
    that what tells them apart comes first and a box cut at its width never shows two as the same text
    ("diabetes_test_predictions_ridge.csv" and "…_gradient_boosting.csv" are "diabet…ridge.csv" and
    "diabet…gradient_boosting.csv")."""
    names = [str(n) for n in names]
    if len(names) < 2:
        return names
    shared = len(os.path.commonprefix(names))
    if shared <= keep + 1:
        return names
    return [n[:keep] + "…" + n[shared:] for n in names]
