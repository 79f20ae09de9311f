"""Pairwise judgments (arena battles, MT-Bench's and AlpacaEval's judges, a tidy table of one's own): reading them
into one tidy battles frame, and Bradley–Terry ratings with intervals from a bootstrap over items.

:func:`read` (one file) and :func:`read_all` (several) recognise each file's shape (:mod:`.readers`) and return
:class:`Battles`; :func:`bradley_terry` rates the models (:mod:`.ratings`, the fit in :mod:`.bradley_terry`);
:func:`preferences` (:mod:`.study`) does both and returns the one result the report layer writes every view of.
:func:`pair` tests one model against another on the items both were judged on (:mod:`.pair`); :func:`agreement`
measures how far the judges agree and :func:`robustness` asks whether a claim holds under each (:mod:`.agreement`);
:func:`position_bias` and :func:`reconciled` (:mod:`.position`) measure and undo a judge's preference for one slot;
:func:`by_category` (:mod:`.categories`) rates each category, corrected over the categories.
"""

from .agreement import Agreement, Robustness, agreement, robustness
from .battles import COLUMNS, Battles
from .categories import CategoryRatings, by_category
from .pair import PAIR_TESTS, ItemScores, PairVerdict, item_scores, pair
from .position import PositionBias, Share, judgment_pairs, position_bias, reconciled
from .ratings import Ratings, bradley_terry
from .readers import SHAPES, WINNERS, read, read_all
from .study import Preferences, preferences

__all__ = ["COLUMNS", "SHAPES", "WINNERS", "PAIR_TESTS", "Battles", "Ratings", "PairVerdict", "ItemScores", "Agreement",
           "Robustness", "read", "read_all", "bradley_terry", "pair", "item_scores", "agreement", "robustness",
           "PositionBias", "Share", "judgment_pairs", "position_bias", "reconciled", "CategoryRatings", "by_category",
           "Preferences", "preferences"]
