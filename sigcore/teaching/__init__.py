"""The Classroom's numbers and figures: the paired bootstrap of SLP3 §4.11 by enumeration and by simulation
(:mod:`.bootstrap`), common mistakes as simulations (:mod:`.pitfalls`), and their figures (:mod:`.lesson_figures`,
:mod:`.pitfall_figures`)."""

from .bootstrap import (Draws, accuracies, draw_test_sets, exact_bootstrap_p, exact_power, null_p_values,
                        outcome_probabilities, paired_outcomes, power, rejection_rate, smallest_n)

__all__ = ["Draws", "accuracies", "draw_test_sets", "exact_bootstrap_p", "exact_power", "null_p_values",
           "outcome_probabilities", "paired_outcomes", "power", "rejection_rate", "smallest_n"]
