"""Pairwise judgments (arena battles, MT-Bench's and AlpacaEval's judges, a tidy table of one's own): reading them
into one tidy battles frame, and Bradley–Terry ratings with intervals from a bootstrap over items.

:func:`read` (one file) and :func:`read_all` (several) recognise each file's shape (:mod:`.readers`) and return
:class:`Battles`; :func:`bradley_terry` rates the models (:mod:`.ratings`, the fit in :mod:`.bradley_terry`);
:func:`position_bias` and :func:`reconciled` (:mod:`.position`) measure and undo a judge's preference for one slot;
:func:`by_category` (:mod:`.categories`) rates each category, corrected over the categories.
"""

from .battles import COLUMNS, Battles
from .categories import CategoryRatings, by_category
from .position import PositionBias, Share, judgment_pairs, position_bias, reconciled
from .ratings import Ratings, bradley_terry
from .readers import SHAPES, WINNERS, read, read_all

__all__ = ["COLUMNS", "SHAPES", "WINNERS", "Battles", "Ratings", "read", "read_all", "bradley_terry", "PositionBias",
           "Share", "judgment_pairs", "position_bias", "reconciled", "CategoryRatings", "by_category"]
