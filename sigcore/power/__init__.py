"""Planning a comparison: the power of a paired test, and the test-set size it needs, from a pilot.

A pilot (both systems' per-item scores on some items) stands for the items a test set would hold: test sets of n
items are drawn from its paired items with replacement, so its delta is the assumed true difference and the spread,
skew and ties of its per-item differences carry over. Power is the share of those test sets on which the test
rejects H0 at alpha, the test run as :func:`sigcore.compare` runs it (``n_resamples`` resamples).

Each test takes the cheapest route that is exact, or checked against the engine (tests/test_power.py):

- right/wrong items, every test: exact, by enumerating the discordant count M ~ Bin(n, p_A + p_B) and A's wins
  X | M ~ Bin(M, p_A / (p_A + p_B)), as :func:`sigcore.teaching.bootstrap.exact_power` does, each (M, X) weighed
  by the test's chance of rejecting it: McNemar and t in closed form; the permutation test's p is McNemar's (its
  swaps of M discordant pairs), the bootstrap's the exact one of ``teaching.bootstrap`` up to 25 discordant items
  and a continuity-corrected Edgeworth expansion beyond (within 1e-3 of it); b random resamples count extreme ones
  ~ Bin(b, p), the test's own rule then rejects or not (every assignment when 2^M <= b, as the engine does);
- per-item scores: simulated test sets of the pilot's items; the t-test in closed form; the bootstrap and
  permutation tests resampled as the engine does up to 50 items, beyond that their p for b -> infinity by a
  saddlepoint approximation (Lugannani-Rice; Davison & Hinkley 1988, Robinson 1982) up to 200 items and by a
  one-term Edgeworth expansion beyond (both continuity-corrected on a lattice), with the count of extreme resamples
  ~ Bin(b, p) as above; the chance of a rejection is averaged over the test sets.

A simulated power comes with the binomial standard error of a rate over ``n_sims`` test sets and its
Clopper-Pearson interval (an upper bound where chances of rejection are averaged instead of 0/1 decisions).
Memory stays bounded: test sets are drawn and tested in blocks of about a million values.
"""

from .outcomes import Plan, Power
from .plans import MAX_ITEMS, MAX_SIMS, ONE_SIDED_HINT, SUPPORTED, plan, plan_from_rates, power_at
from .search import REFINE
from .simulation import MC_LEVEL

__all__ = ["SUPPORTED", "MC_LEVEL", "MAX_SIMS", "MAX_ITEMS", "REFINE", "ONE_SIDED_HINT", "Power", "Plan", "plan",
           "power_at", "plan_from_rates"]
