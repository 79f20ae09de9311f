"""Paired data: gold and the systems' outputs on the same items, in the same order, with where each came from.

:class:`Aligned` holds two systems (``sigcore.compare``), :class:`AlignedMany` several (``sigcore.compare_many``).
Both keep each role's file and the line of every item, so that an engine error about item k of system 2 is
located in its file (:meth:`Aligned.locate`): the error's fields change, never its words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import GOLD, InputError
from .roles import Role, baseline_index
from .systems import system_names

__all__ = ["Aligned", "at_source", "shared_line", "AlignedMany", "default_baseline"]


@dataclass(frozen=True)
class Aligned:
    """Gold and two systems' outputs on the same items, in the same order, ready for ``sigcore.compare``."""

    gold: list | None
    a: list
    b: list
    a_name: str
    b_name: str
    ids: list | None = None
    groups: list | None = None
    scores: dict[str, tuple[list, list]] = field(default_factory=dict)  # per-item score fields (lm-eval)
    sources: dict[str, tuple[str, np.ndarray]] = field(default_factory=dict, repr=False)  # role -> file, lines
    notes: tuple[str, ...] = ()
    columns: dict[str, str] = field(default_factory=dict)  # role -> column (several files: the id pairing them)
    by_row: bool = False  # several files paired by row although they share an id column
    roles: tuple[Role, ...] = ()  # what was decided about the files and columns, and why (shown to the user)
    outputs: tuple[str, ...] = ()  # the columns (or files) the systems' outputs came from, for what their names say
    labels: tuple[str, str] | None = None  # A's and B's names where the files state them (an Inspect log's model)

    @property
    def n(self) -> int:
        return len(self.a)

    @property
    def display_names(self) -> tuple[str, str]:
        """A's and B's names as reports print them: a column's as it is, a file's as short as stays unique
        (``uedin-nmt.4722.de`` is ``uedin-nmt``), as ``sigcore many`` names systems; the models logs name."""
        if self.labels:
            return self.labels
        if "A" in self.columns:
            return self.a_name, self.b_name
        a, b = system_names([self.a_name, self.b_name])
        return a, b

    def locate(self, error: InputError) -> InputError:
        """An engine error about system 1 (A), system 2 (B) or gold, at item k, at the file and line it came from,
        the system named as reports name it (:attr:`display_names`)."""
        role = {GOLD: "gold", 1: "a", 2: "b"}.get(error.system) if isinstance(error.system, int) else None
        if error.file is not None or role is None:
            return error
        name = {} if role == "gold" else {"system": self.display_names[role == "b"]}
        return at_source(error, *self.sources[role], **name) if role in self.sources else error.at(**name)


def at_source(error: InputError, file: str, lines: np.ndarray, **place) -> InputError:
    """An engine error about item k (its ``line``) at the file it came from and item k's line there, with ``place``
    (the system's name); an error without an item, or beyond the file's, keeps its place but ``place``."""
    if error.line is None or not 1 <= error.line <= len(lines):
        return error.at(**place)
    return error.at(file=file, line=int(lines[error.line - 1]), item=shared_line(lines, error.line - 1), **place)


def shared_line(lines: np.ndarray, i: int) -> int | None:
    """Item i's position (from 1) when its line holds other items too (a JSON array on one line), else None."""
    here = lines[i]
    return i + 1 if (i > 0 and lines[i - 1] == here) or (i + 1 < len(lines) and lines[i + 1] == here) else None


@dataclass(frozen=True)
class AlignedMany:
    """Gold and several systems' outputs on the same items, in the same order, ready for
    ``sigcore.compare_many``: ``systems`` maps each system's name to its outputs."""

    gold: list | None
    systems: dict[str, list]
    ids: list | None = None
    groups: list | None = None
    sources: dict[str, tuple[str, np.ndarray]] = field(default_factory=dict, repr=False)  # role -> file, lines
    notes: tuple[str, ...] = ()
    columns: dict[str, str] = field(default_factory=dict)  # role -> column (several files: the id pairing them)
    by_row: bool = False  # several files paired by row although they share an id column
    roles: tuple[Role, ...] = ()  # what was decided about the files and columns, and why (shown to the user)
    outputs: tuple[str, ...] = ()  # the columns the systems' outputs came from, for what their names say

    def locate(self, error: InputError, shown: Sequence[str] | None = None) -> InputError:
        """An engine error about one system's item k (``error.system``, its name as ``sigcore.compare_many`` was
        given it: ``shown``, one per system, where those are not the keys of :attr:`systems`) or gold's, at the
        file and line it came from."""
        names = list(self.systems)
        given = list(shown) if shown is not None else names
        role = "gold" if error.system == GOLD and not isinstance(error.system, str) else \
            names[given.index(error.system)] if error.system in given else None
        if error.file is not None or role not in self.sources:
            return error
        return at_source(error, *self.sources[role])


def default_baseline(data: AlignedMany) -> tuple[str, str]:
    """The system every other is compared with when none is named, and why: the one named like a baseline (its name
    or its file's), else the first."""
    names = list(data.systems)
    k = baseline_index(names)
    if k is None:
        k = baseline_index([data.sources.get(n, (n,))[0] for n in names])
    return (names[0], "the first system; --baseline to choose") if k is None else (names[k], "named like a baseline")
