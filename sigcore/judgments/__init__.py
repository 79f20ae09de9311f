"""Pairwise judgments (arena battles, MT-Bench's and AlpacaEval's judges, a tidy table of one's own): reading them
into one tidy battles frame, and Bradley–Terry ratings with intervals from a bootstrap over items.

:func:`read` (one file) and :func:`read_all` (several) recognise each file's shape (:mod:`.readers`) and return
:class:`Battles`; :func:`bradley_terry` rates the models (:mod:`.ratings`, the fit in :mod:`.bradley_terry`);
:func:`preferences` (:mod:`.study`) does both and returns the one result the report layer writes every view of.
"""

from .battles import COLUMNS, Battles
from .ratings import Ratings, bradley_terry
from .readers import SHAPES, WINNERS, read, read_all
from .study import Preferences, preferences

__all__ = ["COLUMNS", "SHAPES", "WINNERS", "Battles", "Ratings", "read", "read_all", "bradley_terry",
           "Preferences", "preferences"]
