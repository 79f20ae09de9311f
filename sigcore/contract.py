"""The contract every entry point shares: the defaults, the validation of the shared settings, the tie rule and the
tails every test counts (docs/reference/defaults.md, docs/reference/statistics.md).

The API, the command line, the app, power planning and the Classroom take their defaults from here and check a
shared setting by calling the one validator of that setting, which raises :class:`~sigcore.errors.SettingsError`
with one message naming the parameter, which is also its ``parameter`` field (the command line shows the flag
instead). A default or a public name changes only after one minor version with a DeprecationWarning
(docs/reference/stability.md).

The tails (Berg-Kirkpatrick et al. 2012, SLP3 eq. 4.48 for the paired bootstrap; Noreen 1989 for permutations):
a resampled δ(x⁽ⁱ⁾) counts as at least as extreme as δ(x) when, for "greater", δ(x⁽ⁱ⁾) ≥ centre + δ(x); for
"less", δ(x⁽ⁱ⁾) ≤ centre + δ(x); for "two-sided", |δ(x⁽ⁱ⁾) − centre| ≥ |δ(x)|. The paired bootstrap's resamples lie
around δ(x), its centre, so its threshold is 2·δ(x); a permutation null lies around 0. Ties count as extreme, within
:func:`tie`'s tolerance, so float noise cannot flip a tie and two identical systems get p = 1.
"""

from __future__ import annotations

import difflib
import numbers
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .errors import PARAMETER, SettingsError

__all__ = ["ALTERNATIVES", "DEFAULT_ALPHA", "DEFAULT_ALTERNATIVE", "DEFAULT_LEVEL", "DEFAULT_RESAMPLES",
           "DEFAULT_SEED",
           "MAX_RESAMPLES", "P_SIGNIFICANT_BELOW", "P_DIGITS", "P_UNDERFLOW", "SETTINGS", "SIMULATION_RESAMPLES",
           "TIE", "Changing", "check_alpha", "check_alternative", "check_level", "check_resamples", "check_seed",
           "deprecated_default", "extreme", "is_int", "is_level", "sided_floor", "sided_p", "tie", "unknown_option"]

# ---------------------------------------------------------------- defaults

ALTERNATIVES = ("greater", "less", "two-sided")  # H1: A better, B better, they differ (whichever way is better)
DEFAULT_ALTERNATIVE = "two-sided"  # a one-sided H1 is chosen before looking at the data, never by default
DEFAULT_ALPHA = 0.05
DEFAULT_RESAMPLES = 10_000  # b: resolves a bootstrap p to 1/b = 0.0001; boards and ASO's bootstrap take it too
MAX_RESAMPLES = 10_000_000  # a run keeps three arrays of b floats (240 MB at this b)
# b of each simulated test set where power or a lesson runs hundreds of tests: the share rejected is what is shown,
# and b = 1,000 decides a test as b = 10,000 does except where p lies within about ±0.014 of α = 0.05 (2 MC errors)
SIMULATION_RESAMPLES = 1_000
DEFAULT_SEED = 0  # every entry point reproduces its numbers unless told otherwise (seed=None: fresh randomness)
# the level of an interval no test decides (ratings from judgments, agreement, position bias), as arenas publish;
# a test's interval is at 1 - alpha, so that it agrees with the test
DEFAULT_LEVEL = 0.95

# ---------------------------------------------------------------- how p prints (the p-text functions use these)

P_SIGNIFICANT_BELOW = 1e-3  # below it p keeps P_DIGITS significant digits (0.00042); above, P_DIGITS + 2 decimals
P_DIGITS = 2
P_UNDERFLOW = 1e-300  # a closed-form p that underflows to 0 prints as "p < 1e-300", never "p = 0"

# ---------------------------------------------------------------- ties

TIE = 1e-9  # relative tolerance under which two values count as equal: float noise, not a difference


def tie(score_a, score_b):
    """The tolerance under which a difference of these scores is float noise: ``TIE`` times the larger |score| (of
    each pair, for arrays), never 0."""
    tol = TIE * np.maximum(np.maximum(np.abs(score_a), np.abs(score_b)), np.finfo(float).tiny)
    return float(tol) if np.ndim(tol) == 0 else tol


# ---------------------------------------------------------------- tails

_COUNTED: dict[str, Callable] = {  # which resampled values count as at least as extreme (ties included)
    "greater": lambda d, delta, centre, tol: d >= centre + delta - tol,
    "less": lambda d, delta, centre, tol: d <= centre + delta + tol,
    "two-sided": lambda d, delta, centre, tol: np.abs(d - centre) >= np.abs(delta) - tol,
}


def extreme(d, alternative: str, delta, tol, *, centre=0.0) -> np.ndarray:
    """Which of the resampled values ``d`` a p-value counts as at least as extreme as the observed ``delta``, as
    the module's docstring says: "greater" d ≥ centre + δ, "less" d ≤ centre + δ, "two-sided" |d − centre| ≥ |δ|,
    each within ``tol`` (from :func:`tie`). The paired bootstrap's resamples lie around δ(x) (``centre=delta``: the
    threshold 2·δ(x)); a permutation null around 0 (the default). Arrays broadcast (a column of δ per pair)."""
    return _COUNTED[alternative](d, delta, centre, tol)


# Tail probability of a statistic s under a symmetric continuous null, per alternative. Both one-sided tails
# are upper tails (P(S <= s) as P(S >= -s)), so swapping A and B gives the same p to the last bit.
_SIDED_P: dict[str, Callable[[Any, float], float]] = {
    "greater": lambda dist, s: dist.sf(s),
    "less": lambda dist, s: dist.sf(-s),
    "two-sided": lambda dist, s: 2 * dist.sf(np.abs(s)),
}
# Smallest p of an exact test whose most extreme outcome has probability `tail` on one side.
_SIDED_FLOOR: dict[str, Callable[[float], float]] = {
    "greater": lambda tail: tail,
    "less": lambda tail: tail,
    "two-sided": lambda tail: min(1.0, 2 * tail),
}


def sided_p(dist, s, alternative: str):
    """p of the statistic ``s`` under the symmetric null ``dist`` (anything with ``sf``, a frozen scipy
    distribution): a float, or an array of them for an array of statistics."""
    p = _SIDED_P[alternative](dist, s)
    return float(p) if np.ndim(p) == 0 else p


def sided_floor(tail: float, alternative: str) -> float:
    """The smallest p of an exact test whose most extreme outcome has probability ``tail`` on one side."""
    return _SIDED_FLOOR[alternative](tail)


# ---------------------------------------------------------------- validation: one message per setting

def is_int(x: Any) -> bool:
    """A whole number, and not a bool (True is an int to Python, not a count to a user)."""
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def is_level(x: Any) -> bool:
    """A number strictly between 0 and 1 (a level, a share), and not a bool."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and 0 < x < 1


def check_alpha(alpha: Any, name: str = "alpha") -> float:
    """α, the significance level: a number strictly between 0 and 1."""
    if not is_level(alpha):
        raise SettingsError(f"{PARAMETER} must be a number strictly between 0 and 1, not {alpha!r}",
                            hint=f"The usual levels are {DEFAULT_ALPHA:g}, 0.01 and 0.001.", parameter=name)
    return float(alpha)


_LEVEL_HINTS = {"target": "The usual power wanted is 0.8.", "tau": "deepsig recommends τ = 0.2."}


def check_level(level: Any, name: str = "confidence_level") -> float:
    """Any other level or share strictly between 0 and 1: an interval's confidence level, a target power, τ (by
    its API name)."""
    if not is_level(level):
        raise SettingsError(f"{PARAMETER} must be a number strictly between 0 and 1, not {level!r}",
                            hint=_LEVEL_HINTS.get(name, "For a 95% interval pass 0.95."), parameter=name)
    return float(level)


def check_resamples(n: Any, name: str = "n_resamples", *, least: int = 1) -> int:
    """b, the number of resamples or permutations: a whole number from ``least`` to :data:`MAX_RESAMPLES`."""
    if not is_int(n) or n < least:
        what = "a positive integer" if least == 1 else f"an integer of at least {least}"
        raise SettingsError(f"{PARAMETER} must be {what}, not {n!r}", parameter=name)
    if n > MAX_RESAMPLES:
        raise SettingsError(f"{PARAMETER} is at most {MAX_RESAMPLES:,}, not {n:,}", parameter=name,
                            hint=f"{DEFAULT_RESAMPLES:,} resolves p to {1 / DEFAULT_RESAMPLES:g}; 1,000,000 to 1e-6, "
                                 "which few claims need.")
    return int(n)


def check_alternative(alternative: Any, name: str = "alternative") -> str:
    """H1: one of :data:`ALTERNATIVES`."""
    if not isinstance(alternative, str) or alternative not in ALTERNATIVES:
        raise SettingsError(f"{PARAMETER} must be one of {', '.join(ALTERNATIVES)}, not {alternative!r}",
                            hint="greater: A better; less: B better; two-sided: they differ.", parameter=name)
    return alternative


def check_seed(seed: Any, name: str = "seed", *, optional: bool = True) -> int | None:
    """The seed of the random draws: a non-negative whole number (or None, fresh randomness, where ``optional``)."""
    if (seed is None and not optional) or (seed is not None and (not is_int(seed) or seed < 0)):
        raise SettingsError(f"{PARAMETER} must be a non-negative integer{' or None' if optional else ''}, not {seed!r}",
                            parameter=name)
    return None if seed is None else int(seed)


# The keywords the API's entry points take besides a metric's options: a misspelt one is suggested from these too.
SETTINGS = ("metric", "test", "n_resamples", "alternative", "alpha", "confidence_level", "seed", "groups", "compat",
            "ci_method", "exact", "block", "budget", "progress", "higher_is_better", "correction", "baseline",
            "all_pairs")


def unknown_option(metric: str, name: str, valid: Iterable[str]) -> SettingsError:
    """The error for an option ``name`` that ``metric`` does not take, suggesting the closest valid name (of the
    metric's options, or of the settings every comparison takes, as ``n_resample`` for ``n_resamples``)."""
    valid = list(valid)
    others = [s for s in SETTINGS if s != name]  # a setting this function does not take is not its own suggestion
    close = difflib.get_close_matches(name, valid, n=1) or difflib.get_close_matches(name, others, n=1)
    mean = f"Did you mean {close[0]!r}? " if close else ""
    return SettingsError(f"{metric} has no option {name!r}",
                         hint=f"{mean}Valid options: {', '.join(valid) if valid else 'none'}.")


# ---------------------------------------------------------------- deprecation (docs/reference/stability.md)

class Changing:
    """A default that is changing: ``old`` until version ``until``, then ``new``. A signature shows it as such, and
    :func:`deprecated_default` turns it into ``old`` with a DeprecationWarning (a value given is kept as given)."""

    def __init__(self, name: str, old: Any, new: Any, until: str):
        self.name, self.old, self.new, self.until = name, old, new, until

    def __repr__(self) -> str:
        return f"{self.old!r} (becoming {self.new!r} in {self.until})"


def deprecated_default(value: Any, *, stacklevel: int = 3) -> Any:
    """``value``, or, where it is a :class:`Changing` default the caller left in place, its old value with a
    DeprecationWarning naming the new one: a default changes only after one minor version of this warning."""
    if not isinstance(value, Changing):
        return value
    warnings.warn(f"`{value.name}` defaults to {value.old!r} here and will default to {value.new!r}, as everywhere "
                  f"else in sigcore, from version {value.until}; pass {value.name}= to keep a result and silence this",
                  DeprecationWarning, stacklevel=stacklevel)
    return value.old
