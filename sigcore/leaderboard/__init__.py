"""Many models on many tasks, from the tidy long table (:mod:`sigcore.logs.tidy`): each model's score on each task
and across tasks, with intervals, differences from a baseline and ranks, all from one paired bootstrap that
resamples the items of each task apart (stratified), so that every task keeps its size and every model the same
resampled items.

A model's aggregate is the mean of its task scores (``weight="tasks"``: each task counts once, as leaderboards
average them) or the mean over all items (``weight="items"``: a task counts by its size). Runs of an item
(epochs, repeats) are averaged first.
"""

from ..statistics.multiple import MAXT
from ..statistics.multiple import RESAMPLED as CORRECTIONS
from .board import WEIGHTS, Board, from_parquet, from_table
from .resamples import CONNECT_TIMEOUT, WORKERLESS, bootstrap, standard_error, task_resamples
from .standings import Leaderboard

__all__ = ["WEIGHTS", "CONNECT_TIMEOUT", "WORKERLESS", "MAXT", "CORRECTIONS", "Board", "from_table", "from_parquet",
           "Leaderboard", "bootstrap", "task_resamples", "standard_error"]
