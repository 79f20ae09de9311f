"""scipy's heavier subpackages, imported on first use: ``scipy.stats`` alone takes about half a second to
import, which every command and page paid up front although most never call it."""

from __future__ import annotations

import importlib
from types import ModuleType


class _Lazy(ModuleType):
    def __init__(self, name: str):
        super().__init__(name)
        self._name = name

    def __getattr__(self, attr: str):
        return getattr(importlib.import_module(self._name), attr)


stats = _Lazy("scipy.stats")
optimize = _Lazy("scipy.optimize")
integrate = _Lazy("scipy.integrate")
sparse = _Lazy("scipy.sparse")
special = _Lazy("scipy.special")
