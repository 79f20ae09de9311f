"""The statistics of a paired comparison: resampling engines, closed-form tests, intervals, corrections.

- :mod:`.resampling`: paired bootstrap and permutation over sufficient statistics (patterns, chunks, seeds);
- :mod:`.closed_form`: paired t, z, Wilcoxon, sign and McNemar tests, each with what it measures;
- :mod:`.intervals`: intervals and one-sided bounds (basic bootstrap, percentile, BCa, t, Clopper-Pearson, Wilson);
- :mod:`.multiple`: adjusted p-values for a family of tests (Bonferroni, Holm, Hochberg, BH).
"""

from .closed_form import mcnemar, paired_t, paired_z, sign_test, wilcoxon
from .multiple import adjust

__all__ = ["adjust", "mcnemar", "paired_t", "paired_z", "sign_test", "wilcoxon"]
