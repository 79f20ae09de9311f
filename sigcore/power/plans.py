"""The public plans: :func:`plan` and :func:`power_at` from a pilot, :func:`plan_from_rates` from expected rates, their
settings checked."""

from __future__ import annotations

import math

import numpy as np

from ..comparison import AUTO
from ..contract import (
    DEFAULT_ALPHA,
    DEFAULT_ALTERNATIVE,
    DEFAULT_SEED,
    SIMULATION_RESAMPLES,
    check_alpha,
    check_alternative,
    check_level,
    check_resamples,
    check_seed,
    is_int,
)
from ..errors import PARAMETER, InputError, SettingsError
from ..metrics import direction
from ..result import refuse_lower
from ..statistics import closed_form
from ..statistics.discordant import outcome_probabilities
from .items import Binary, Scores, Settings
from .outcomes import Plan, Power
from .search import plan_for
from .simulation import power_of

__all__ = ["SUPPORTED", "MAX_SIMS", "MAX_ITEMS", "ONE_SIDED_HINT", "plan", "power_at", "plan_from_rates"]

SUPPORTED = ("bootstrap", "permutation", "t", "mcnemar")
MAX_SIMS = 4_000  # simulated test sets per size: ten times the default, some 25 s on a pilot of scores
MAX_ITEMS = 2_000_000  # items of a simulated test set, as of a file (sigcore.io.inputs.MAX_ITEMS)
ONE_SIDED_HINT = ("Plan the two-sided test (alternative 'two-sided', the default): its power is the same whichever "
                  "way is better.")


def plan(a, b, *, test: str = AUTO, binary: bool | None = None, alpha: float = DEFAULT_ALPHA,
         alternative: str = DEFAULT_ALTERNATIVE, target: float = 0.8, n_sims: int = 400,
         n_resamples: int = SIMULATION_RESAMPLES, n_max: int = 100_000, seed: int = DEFAULT_SEED,
         higher_is_better: bool = True) -> Plan:
    """Power and sample size for comparing A with B, from pilot outputs.

    ``a``, ``b``: per-item scores of the two systems on the same pilot items (0/1 when right/wrong; ``binary``
    says which, by default all values 0 or 1). Test sets of n items are the pilot's paired items drawn with
    replacement, the pilot's delta the true effect. ``n_sims`` test sets per size (four times as many near the
    answers), each test run with ``n_resamples`` resamples; sizes up to ``n_max``.

    ``detectable`` shifts B's per-item scores (per-item scores) or moves items between the two discordant cells
    (right/wrong items, their number kept); it is None when no such difference reaches ``target`` at the pilot's
    size (a test that cannot reject on so few items) and nan when the pilot has nothing to shift against (no item
    where A and B differ, or per-item differences that do not vary).

    ``test="auto"`` (the default): the test the advisor recommends for the pilot, or the first it accepts among
    those planned here (:data:`SUPPORTED`); ``Plan.auto`` is then True.

    ``higher_is_better=False`` (the pilot's values are errors): the two-sided plan is the same either way; a
    one-sided plan is refused (:func:`sigcore.result.refuse_lower`), as its sides read δ > 0 as A better.
    """
    auto = test == AUTO
    _check("bootstrap" if auto else test, alpha, alternative, target, n_sims, n_resamples, n_max, seed,
           higher_is_better)
    model, binary, effect, pilot_n = _pilot(a, b, "bootstrap" if auto else test, binary)
    test = _recommended(a, b, binary, alpha) if auto else test
    return plan_for(model, pilot_n, Settings(test, float(alpha), alternative, n_resamples), float(target), n_sims,
                    n_max, seed, binary=binary, effect=effect, auto=auto)


def _recommended(a, b, binary: bool, alpha: float) -> str:
    """The advisor's test for the pilot, or the first test it accepts that power is planned for."""
    from ..advisor import advise

    x, y = closed_form.paired_values(a, b, min_n=2)
    advice = advise("accuracy" if binary else "mean", a_scores=x, b_scores=y, alpha=alpha)
    return next(c.test for c in (advice.recommended, *advice.acceptable) if c.test in SUPPORTED)


def power_at(a, b, n: int, *, test: str = AUTO, binary: bool | None = None, alpha: float = DEFAULT_ALPHA,
             alternative: str = DEFAULT_ALTERNATIVE, n_sims: int = 400, n_resamples: int = SIMULATION_RESAMPLES,
             seed: int = DEFAULT_SEED, higher_is_better: bool = True) -> Power:
    """The power on test sets of ``n`` items drawn from the pilot, as :func:`plan` computes it (the same test sets
    as its curve for the same seed and ``n_sims``; ``test="auto"`` and ``higher_is_better`` as in :func:`plan`)."""
    auto = test == AUTO
    _check("bootstrap" if auto else test, alpha, alternative, 0.5, n_sims, n_resamples, 2, seed, higher_is_better)
    if not is_int(n) or not 2 <= n <= MAX_ITEMS:  # 10^10 simulated items ran for minutes
        raise SettingsError(f"{PARAMETER} must be a whole number of 2 to {MAX_ITEMS:,} items, not {n!r}",
                            hint="The size of the test set the rates are expected on.", parameter="n")
    model, binary, *_ = _pilot(a, b, "bootstrap" if auto else test, binary)
    test = _recommended(a, b, binary, alpha) if auto else test
    return power_of(model, int(n), Settings(test, float(alpha), alternative, n_resamples), n_sims, seed, 0)


def _pilot(a, b, test: str, binary: bool | None):
    """The model of the items, whether they are right/wrong, the pilot's delta and its size."""
    x, y = closed_form.paired_values(a, b, min_n=2)
    zero_one = bool(np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all())
    if binary is None:
        binary = zero_one
    elif not isinstance(binary, (bool, np.bool_)):
        raise SettingsError(f"{PARAMETER} must be True, False or None, not {binary!r}", parameter="binary")
    elif binary and not zero_one:
        raise InputError("`binary=True` needs right/wrong items (0/1 per item), and the pilot has other values",
                         hint="Leave `binary` out for per-item scores.")
    if test == "mcnemar" and not binary:
        raise SettingsError("McNemar's test needs right/wrong items (0/1 per item)",
                            hint="For per-item scores use the t, bootstrap or permutation test.")
    model = (Binary(float(np.mean(x > y)), float(np.mean(x < y))) if binary
             else Scores(closed_form.differences(x, y)))
    return model, bool(binary), float(x.mean() - y.mean()), len(x)


def plan_from_rates(n: int, accuracy_a: float, accuracy_b: float, agreement: float, *, test: str = AUTO,
                    alpha: float = DEFAULT_ALPHA, alternative: str = DEFAULT_ALTERNATIVE, target: float = 0.8,
                    n_sims: int = 400, n_resamples: int = SIMULATION_RESAMPLES, n_max: int = 100_000,
                    seed: int = DEFAULT_SEED) -> Plan:
    """:func:`plan` without a pilot: right/wrong items with these expected accuracies and agreement rate (the
    share of items both get right or both get wrong), "current" being a test set of ``n`` items; ``test="auto"``
    plans McNemar's exact test, the one the advisor recommends for right/wrong items."""
    auto = test == AUTO
    test = "mcnemar" if auto else test
    _check(test, alpha, alternative, target, n_sims, n_resamples, n_max, seed)
    if not is_int(n) or not 2 <= n <= MAX_ITEMS:  # 10^10 simulated items ran for minutes
        raise SettingsError(f"{PARAMETER} must be a whole number of 2 to {MAX_ITEMS:,} items, not {n!r}",
                            hint="The size of the test set the rates are expected on.", parameter="n")
    cells = outcome_probabilities(accuracy_a, accuracy_b, agreement)
    return plan_for(Binary(float(cells[1]), float(cells[2])), int(n), Settings(test, float(alpha), alternative,
                    n_resamples), float(target), n_sims, n_max, seed, binary=True,
                    effect=float(accuracy_a - accuracy_b), source="expected", auto=auto)


def _check(test, alpha, alternative, target, n_sims, n_resamples, n_max, seed, higher_is_better=True) -> None:
    if test not in SUPPORTED:
        raise SettingsError(f"power is planned for the {', '.join(SUPPORTED)} tests, not {test!r}",
                            hint="Plan with the closest of these; they reach the same power on large test sets.")
    check_alternative(alternative)
    check_alpha(alpha)
    check_level(target, "target")
    for name, value, least in (("n_sims", n_sims, 1), ("n_max", n_max, 2)):
        if not is_int(value) or value < least:
            raise SettingsError(f"{PARAMETER} must be an integer of at least {least}, not {value!r}", parameter=name)
    check_resamples(n_resamples)
    if n_sims > MAX_SIMS:  # 100,000 simulated test sets ran for minutes with no word
        raise SettingsError(f"{PARAMETER} is at most {MAX_SIMS:,}, not {n_sims:,}", parameter="n_sims",
                            hint=f"{MAX_SIMS:,} test sets give a power to ±{100 * 0.5 / math.sqrt(MAX_SIMS):.1f} "
                                 "points at worst; the default, 400, to ±2.5.")
    if n_max > MAX_ITEMS:
        raise SettingsError(f"{PARAMETER} is at most {MAX_ITEMS:,} items, not {n_max:,}", parameter="n_max")
    if alternative != "two-sided":  # the two-sided power is the same whichever way is better
        refuse_lower("a one-sided power plan", direction("mean", higher_is_better), hint=ONE_SIDED_HINT)
    check_seed(seed, optional=False)  # test set k of size n draws from a stream seeded from it
