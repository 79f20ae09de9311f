"""The work a run may do, measured before it starts: one measure and one default for every command and page.

A step is one row of sufficient statistics summed in one resample (the paired bootstrap, the permutation test,
the shared bootstrap of many systems or of runs over seeds), or one point of the quantile grid in one iteration of
ASO's bootstrap. On 2 cores the engine does some 10⁸ steps a second (``bench/inputs.py`` measures it), so the
default budget, 2 × 10⁹ steps, is about half a minute. A run beyond its budget is refused with the numbers and the
largest b that fits; ``budget=None`` lifts the limit (the Python API's default).
"""

from __future__ import annotations

from .errors import SettingsError
from .words import counted

__all__ = ["DEFAULT", "RATE", "BudgetError", "check"]

DEFAULT = 2 * 10**9  # steps: about 30 s on 2 cores; the app's, per run, and the command line's unless --budget
RATE = 7 * 10**7  # steps a second on 2 cores, for the time a refusal estimates


class BudgetError(SettingsError):
    """A run whose work exceeds its budget; ``work``, ``budget`` and ``most`` (the largest b that fits) say by how
    much, so that the app and the command line can each say how to go on."""

    def __init__(self, what: str, *, work: float, budget: int, most: int, fewer: str | None = None,
                 unit: str = "b"):
        self.work, self.budget, self.most = work, budget, most
        most_text = f"Use b of at most {most:,}" if unit == "b" else f"Make at most {counted(most, unit)}"
        super().__init__(f"{what} is about {work:.1e} steps (some {_duration(work)} on 2 cores), more than the "
                         f"budget of {budget:.1e}", hint=most_text + (f", or compare fewer {fewer}." if fewer else "."))


def check(what: str, per_unit: float, units: int, budget: int | None, fewer: str | None = None,
          unit: str = "b") -> None:
    """Refuse ``units`` (resamples, or comparisons) of ``per_unit`` steps each when they exceed ``budget``;
    ``fewer`` names what else the user may cut (systems, pairs)."""
    work = float(per_unit) * units
    if budget is not None and work > budget:
        raise BudgetError(what, work=work, budget=budget, most=max(int(budget // max(per_unit, 1)), 1),
                          fewer=fewer, unit=unit)


def _duration(steps: float) -> str:
    seconds = steps / RATE
    return ("under a second" if seconds < 1 else f"{seconds:,.0f} s" if seconds < 120 else
            f"{seconds / 60:,.0f} min" if seconds < 7200 else f"{seconds / 3600:,.0f} h")
