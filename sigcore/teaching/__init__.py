"""The Classroom's numbers and figures: the paired bootstrap of SLP3 §4.11 by enumeration and by simulation
(:mod:`.bootstrap`), common mistakes as simulations (:mod:`.pitfalls`), and their figures (:mod:`.lesson_figures`,
:mod:`.pitfall_figures`)."""

from ..statistics.discordant import outcome_probabilities, smallest_n
from .bootstrap import (
                        Draws,
                        accuracies,
                        draw_test_sets,
                        exact_bootstrap_p,
                        exact_power,
                        null_p_values,
                        paired_outcomes,
                        power,
                        rejection_rate,
)

__all__ = ["Draws", "accuracies", "draw_test_sets", "exact_bootstrap_p", "exact_power", "null_p_values",
           "outcome_probabilities", "paired_outcomes", "power", "rejection_rate", "smallest_n"]
