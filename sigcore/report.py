"""Plain-language reports of a result: the verdict sentence a paper can quote, and the CLI's summary."""

from __future__ import annotations

import math

from .result import Result

TEST_NAMES = {
    "bootstrap": "paired bootstrap",
    "permutation": "approximate randomisation",
    "t": "paired t-test",
    "z": "paired z-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "mcnemar": "McNemar's test",
}

_H1 = {"greater": "{a} is better than {b}", "less": "{b} is better than {a}", "two-sided": "{a} and {b} differ"}


def number(x: float, scale: float | None = None) -> str:
    """Four significant digits; with ``scale`` (the size of the scores), the decimals the scores need, so
    that a difference and its interval line up: 0.0150 (0.0000 to 0.0300) for accuracy, 1.22 (-0.00 to 2.39)
    for BLEU."""
    if 1e-3 <= abs(scale or 0) < 1e6 and math.isfinite(x):  # outside that, scientific notation reads better
        text = f"{x:.{max(0, 3 - math.floor(math.log10(abs(scale))))}f}"
        return text.lstrip("-") if float(text) == 0 else text
    return f"{x:.2e}" if x != 0 and abs(x) < 1e-4 else f"{x:.4g}"


def scale_of(res: Result) -> float:
    """The size of the scores, which sets how many decimals a report prints."""
    return max(abs(res.score_a), abs(res.score_b))


def method(res: Result) -> str:
    """'paired bootstrap, b = 10,000, seed 0' and the like."""
    name = "exact permutation test" if res.exact else TEST_NAMES[res.test]
    if res.compat:
        name += f" ({res.compat}-compatible)"
    if res.distribution is None or res.exact:
        return name
    return f"{name}, b = {res.n_resamples:,}, seed {res.seed}"


def verdict(res: Result, *, alpha: float = 0.05, a: str = "A", b: str = "B") -> str:
    """One sentence: who wins by how much, the interval, p, the method, and the decision at alpha."""
    scale = scale_of(res)
    ci = ("" if math.isnan(res.ci_low) else
          f" ({level(res)} CI {number(res.ci_low, scale)} to {number(res.ci_high, scale)})")
    where = f"{res.p_text}, {method(res)}"
    if not res.significant(alpha):
        h1 = _H1[res.alternative].format(a=a, b=b)
        return (f"No significant evidence that {h1}: delta = {number(res.delta, scale)} {res.metric}{ci}; "
                f"{where}: not significant at alpha = {alpha:g}.")
    winner, loser = (a, b) if res.delta > 0 else (b, a)
    return (f"{winner} beats {loser} by {number(abs(res.delta), scale)} {res.metric}{ci}; "
            f"{where}: significant at alpha = {alpha:g}.")


def level(res: Result) -> str:
    """95%, 99%, 99.9%."""
    return f"{res.confidence_level * 100:g}%"


def summary(res: Result, *, alpha: float = 0.05, a: str = "A", b: str = "B") -> str:
    """The command line's short report."""
    scale = scale_of(res)
    lines = [
        f"{res.metric}: {a} = {number(res.score_a, scale)}{_bracket(res.ci_a, scale)}, "
        f"{b} = {number(res.score_b, scale)}{_bracket(res.ci_b, scale)}  ({res.n_items:,} items)",
        f"delta = {number(res.delta, scale)}" + ("" if math.isnan(res.ci_low) else
                                                  f", {level(res)} CI{_bracket((res.ci_low, res.ci_high), scale)} "
                                                  f"({res.ci_method})"),
        f"{method(res)}, H1: {_H1[res.alternative].format(a=a, b=b)}: {res.p_text}"
        + (f" (Monte-Carlo error {number(res.mc_error)})" if res.mc_error else ""),
        verdict(res, alpha=alpha, a=a, b=b),
        f"signature: {res.signature}",
    ]
    return "\n".join(lines)


def _bracket(interval: tuple[float, float], scale: float) -> str:
    low, high = interval
    return "" if math.isnan(low) else f" [{number(low, scale)}, {number(high, scale)}]"
