"""Exceptions that say what was wrong, where, and how to fix it.

Every problem a user can cause raises a subclass of :class:`SigcoreError`, so the app can show it next to
the upload and the command line can print it as one line, never as a traceback.
"""

from __future__ import annotations

class SigcoreError(ValueError):
    """A problem with the caller's input or settings.

    ``what`` says what was wrong, ``hint`` how to fix it; ``file``, ``line`` and ``column`` say where,
    when the problem has a place (lines and columns count from 1); ``item`` is the item's position (from 1)
    where one line holds several items, as a JSON array written on one line does.
    """

    def __init__(self, what: str, *, hint: str | None = None, file: str | None = None,
                 line: int | None = None, column: int | str | None = None, item: int | None = None):
        self.what, self.hint = what, hint
        self.file, self.line, self.column, self.item = file, line, column, item
        super().__init__(str(self))

    @property
    def where(self) -> str:
        parts = [self.file or ""]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.item is not None:
            parts.append(f"item {self.item}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        return ", ".join(p for p in parts if p)

    def __str__(self) -> str:
        where = f"{self.where}: " if self.where else ""
        hint = f" {self.hint}" if self.hint else ""
        return f"{where}{self.what}.{hint}"


class InputError(SigcoreError):
    """The data cannot be used as given (wrong lengths, unknown labels, unreadable values...)."""


class SettingsError(SigcoreError):
    """A setting does not exist or does not fit the data (a t-test on F1, an unknown metric option...)."""
