"""Exceptions that say what was wrong, where, and how to fix it.

Every problem a user can cause raises a subclass of :class:`SigcoreError`, so the app can show it next to
the upload and the command line can print it as one line, never as a traceback.

Where a problem lies is a set of fields, never words to search for in the message: ``file``, ``line``, ``column``,
``item`` and ``system``, the system (or the gold) it concerns. The engine numbers the systems it is given (system 1,
system 2, :data:`GOLD` for the gold) and writes :data:`SYSTEM` where its message names one; whoever knows the files
(:meth:`sigcore.io.aligned.Aligned.locate`) gives the error its file, line and the system's name with
:meth:`~SigcoreError.at`, and the message renders them.

The setting a message names is a field too, ``parameter``: the validator gives its keyword (``alpha``) and writes
:data:`PARAMETER` where its message (or hint) names it; the API's message shows the keyword in backticks, and the
command line gives the error its flag with ``at(parameter="--alpha")`` (:func:`parameter_label`).
"""

from __future__ import annotations

from .words import shown

__all__ = ["GOLD", "SYSTEM", "PARAMETER", "system_label", "parameter_label", "SigcoreError", "InputError",
           "SettingsError", "ClusterError"]

GOLD = 0  # the ``system`` of an error about the gold values (the systems count from 1)
SYSTEM = "{system}"  # the place in a message that names its ``system``
PARAMETER = "{parameter}"  # the place in a message or its hint that names its ``parameter``


def system_label(system: int | str) -> str:
    """How a message names a system: gold, system 2 (the engine's count), or system 'uedin-nmt' (its name)."""
    if system == GOLD and not isinstance(system, str):
        return "gold"
    return f"system {system}" if isinstance(system, int) else f"system {shown(str(system))}"


def parameter_label(parameter: str) -> str:
    """How a message names a setting: an API keyword in backticks (`alpha`), a command-line flag as typed (--alpha)."""
    return parameter if parameter.startswith("-") else f"`{parameter}`"


def _filled(text: str, slot: str, label: str) -> str:
    return label.join(text.split(slot))  # str.format would read the braces of the values in the text


class SigcoreError(ValueError):
    """A problem with the caller's input or settings.

    ``what`` says what was wrong, ``hint`` how to fix it; ``file``, ``line`` and ``column`` say where,
    when the problem has a place (lines and columns count from 1); ``item`` is the item's position (from 1)
    where one line holds several items, as a JSON array written on one line does. ``system`` is the system the
    problem concerns (its number among those the engine was given, its name, or :data:`GOLD`); the message
    names it where it holds :data:`SYSTEM`. ``parameter`` is the setting it concerns (an API keyword, or the
    command line's flag); the message and the hint name it where they hold :data:`PARAMETER`.
    """

    def __init__(self, what: str, *, hint: str | None = None, file: str | None = None,
                 line: int | None = None, column: int | str | None = None, item: int | None = None,
                 system: int | str | None = None, parameter: str | None = None):
        self.text, self.hint_text = what, hint
        self.file, self.line, self.column, self.item, self.system = file, line, column, item, system
        self.parameter = parameter
        super().__init__(str(self))

    def _slots(self, text: str) -> str:
        """``text`` with its slots filled: the system and the parameter the error concerns, where it has them."""
        if self.system is not None and SYSTEM in text:
            text = _filled(text, SYSTEM, system_label(self.system))
        if self.parameter is not None and PARAMETER in text:
            text = _filled(text, PARAMETER, parameter_label(self.parameter))
        return text

    @property
    def what(self) -> str:
        """What was wrong, the system it concerns named as :func:`system_label` names it and the setting as
        :func:`parameter_label` does."""
        return self._slots(self.text)

    @property
    def hint(self) -> str | None:
        """How to fix it, the setting named as in :attr:`what`."""
        return None if self.hint_text is None else self._slots(self.hint_text)

    def at(self, **place) -> SigcoreError:
        """The same error (same class, text and hint) at another place: ``file``, ``line``, ``column``, ``item``,
        ``system`` and ``parameter`` as given, the others kept; what a reader who knows the files calls to locate
        it, and the command line to name the flag of the parameter."""
        unknown = set(place) - {"file", "line", "column", "item", "system", "parameter"}
        if unknown:
            raise TypeError(f"not a place: {', '.join(sorted(unknown))}")
        moved = type(self).__new__(type(self))  # not copy.copy: a pickling hook (tblib's, Dask's) may share state
        moved.__dict__.update(self.__dict__)
        for name, value in place.items():
            setattr(moved, name, value)
        moved.args = (str(moved),)
        return moved

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


class ClusterError(SigcoreError):
    """A distributed scheduler given to run the work could not run it: its workers died, or it went away."""
