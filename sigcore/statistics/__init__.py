"""The statistics of a paired comparison: resampling engines, closed-form tests, intervals, corrections.

- :mod:`.resampling`: paired bootstrap and permutation over sufficient statistics (patterns, chunks, seeds);
- :mod:`.closed_form`: paired t, z, Wilcoxon, sign and McNemar tests, each with what it measures;
- :mod:`.intervals`: intervals and one-sided bounds (basic bootstrap, percentile, BCa, t, Clopper-Pearson, Wilson);
- :mod:`.multiple`: adjusted p-values for a family of tests (Bonferroni, Holm, Hochberg, BH, BY);
- :mod:`.replicability`: on how many of several datasets A beats B (Dror et al. 2017);
- :mod:`.aso`: Almost Stochastic Order over random seeds (Dror et al. 2019, as deepsig computes it).
"""

from .aso import aso, multi_aso
from .closed_form import mcnemar, paired_t, paired_z, sign_test, wilcoxon
from .multiple import adjust
from .replicability import replicability

__all__ = ["adjust", "aso", "mcnemar", "multi_aso", "paired_t", "paired_z", "replicability", "sign_test", "wilcoxon"]
