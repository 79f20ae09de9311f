"""What planning gives: the power of a test at one size (:class:`Power`) and a plan (:class:`Plan`), with the sentences
that say it."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Power", "Plan"]

_NAMES = {"bootstrap": "Paired bootstrap", "permutation": "Permutation test", "t": "Paired t-test",
          "mcnemar": "McNemar's exact test"}
_SIDES = {"greater": "H1: A is better", "less": "H1: B is better", "two-sided": "H1: A and B differ"}


@dataclass(frozen=True)
class Power:
    """The power of a test on test sets of ``n`` items, with its Monte-Carlo error and interval (both 0-width
    when ``exact``)."""

    n: int
    power: float
    mc_error: float  # binomial standard error of the simulated rate (0 when exact)
    low: float  # 95% Monte-Carlo interval (Clopper-Pearson) of the power
    high: float
    exact: bool  # enumerated, not simulated: no Monte-Carlo error


@dataclass(frozen=True)
class Plan:
    """Power at the pilot's size, over a grid of sizes, the size that reaches ``target`` and the smallest true
    difference the pilot's size detects with that power."""

    test: str
    alpha: float
    alternative: str
    target: float
    effect: float  # the assumed true delta (the pilot's)
    current: Power  # power at the pilot's n
    curve: tuple[Power, ...]  # power over a grid of n (and the pilot's n), up to where it passes the target well
    n_needed: int | None  # the smallest n (to about 1%) with power >= target; None if beyond the grid's last n
    detectable: float | None  # the smallest true delta (on H1's side) with power >= target at the pilot's n;
    #                           None if none reaches it, nan if nothing can be shifted (see :func:`plan`)
    binary: bool = False  # right/wrong items: differences are in accuracy
    source: str = "the pilot's"  # where the assumed difference comes from
    auto: bool = False  # no test was named: the one recommended for the pilot

    def text(self) -> str:
        """Three or four sentences for a reader planning a test set."""
        c, share = self.current, f"{self.target:.0%}"
        chosen = " (recommended for these data)" if self.auto else ""
        lines = [f"{_NAMES[self.test]}{chosen}, {_SIDES[self.alternative]}, alpha = {self.alpha:g}; assumed true "
                 f"difference {_number(self.effect)} ({self.source})."]
        spread = "exact" if c.exact else f"95% MC {c.low:.2f}–{c.high:.2f}"
        lines.append(f"Power at n = {c.n:,}: {c.power:.2f} ({spread}).")
        against = {"greater": self.effect < 0, "less": self.effect > 0}.get(self.alternative, False)
        if against:  # no n helps: the test looks for a difference in the other direction
            better, flip = ("B", "less") if self.alternative == "greater" else ("A", "greater")
            lines.append(f"The assumed difference favours {better}, against H1: no test set size gives power; if "
                         f"{better} is expected to win, plan for H1: {better} is better (alternative {flip!r}), or "
                         "two-sided.")
        if self.n_needed is not None:
            lines.append(f"{share} power needs n {'=' if c.exact else '≈'} {self.n_needed:,}.")
        else:
            lines.append(f"{share} power is not reached by n = {self.curve[-1].n:,}.")
        unit = " accuracy" if self.binary else ""
        if self.detectable is None:
            how = "moving items between A's and B's wins" if self.binary else "shifting B's scores"
            lines.append(f"At n = {c.n:,} no difference made by {how} is detected {share} of the time.")
        elif math.isnan(self.detectable):
            what = "no item where A and B differ" if self.binary else "per-item differences that do not vary"
            lines.append(f"With {what}, no smallest detectable difference can be read off.")
        else:
            lines.append(f"At n = {c.n:,} the smallest difference detected {share} of the time is "
                         f"{_number(abs(self.detectable))}{unit}.")
        return "\n".join(lines)


def _number(x: float) -> str:
    """Three decimals (an accuracy difference), or three significant digits; a real minus sign."""
    return (f"{x:.3f}" if x == 0 or 0.001 <= abs(x) < 1000 else f"{x:.3g}").replace("-", "\u2212")
