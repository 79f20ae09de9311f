"""A claim of non-inferiority or equivalence (:class:`sigcore.claims.Claim`) in words: its sentence, and δ and the
bounds as every view of the claim prints them (the sentence, the table, the figure and the JSON), so that they cannot
disagree."""

from __future__ import annotations

import math
from typing import Any

from ..claims import Claim
from ..result import Result
from ..signature import margin_text
from ..words import in_text
from .sentence import method, metric_name, number, scale_of

__all__ = ["sentence", "delta_text", "bound_texts"]


def sentence(c: Claim, a: str = "A", b: str = "B") -> str:
    """The claim as a paper states it: what is shown (or not), the margin, the side, the level, the bound and p."""
    res, a, b = c.result, in_text(a), in_text(b)
    unit = metric_name(res)
    level = f"{c.level:.0%}"
    p = c.p_text
    how = method(res)
    delta = f"δ = {a} − {b} = {delta_text(c)}"
    margin, (low, high) = margin_text(c.margin), bound_texts(c)
    if c.kind == "non-inferior":
        said = f"{a} is no worse than {b} by more than {margin} {unit}"
        bound = f"one-sided {level} bound δ ≥ {low}"
        if c.shown:
            return f"{said}: {bound}, above −{margin}; {p}, {how} ({delta}; α = {c.alpha:g})."
        return (f"Not shown that {said}: {bound} does not exclude −{margin}; {p}, {how} ({delta}; "
                f"α = {c.alpha:g}).")
    said = f"{a} and {b} are equivalent within ±{margin} {unit}"
    interval = f"{level} interval of δ {low} to {high}"
    tests = f"two one-sided tests, {p}, {how}"
    if c.shown:
        return f"{said}: {interval}, inside ±{margin}; {tests} ({delta}; α = {c.alpha:g})."
    return f"Not shown that {said}: {interval} is not inside ±{margin}; {tests} ({delta}; α = {c.alpha:g})."


def delta_text(c: Claim) -> str:
    """δ as every output of the claim prints it: the decimals the scores need, a minus sign."""
    return _signed(c.result.delta, c.result)


def bound_texts(c: Claim) -> tuple[str, str]:
    """The bound (and the interval's upper end) as the sentence, the table and the figure print them: the decimals
    the scores need, and more where fewer would put the printed bound on the other side of the printed margin, or on
    it, than the bound itself is (−0.049996 against Δ = 0.05 is −0.049996, not −0.0500)."""
    edge = float(margin_text(c.margin))
    return (_beside(c.bound_low, c.result, lambda x: x > -edge, c.bound_low > -c.margin),
            _beside(c.bound_high, c.result, lambda x: x < edge, c.bound_high < c.margin))


def _beside(x: float, res: Result, inside: Any, truth: bool) -> str:
    text = _signed(x, res)
    if not math.isfinite(x) or inside(float(text.replace("−", "-"))) == truth:
        return text
    for digits in range(len(text.partition(".")[2]) + 1, 18):
        text = f"{x:.{digits}f}"
        if inside(float(text)) == truth:
            return text.replace("-", "−")
    return repr(float(x)).replace("-", "−")


def _signed(x: float, res: Result) -> str:
    """As the verdict prints its numbers: the decimals the scores need (1.22 BLEU, 0.0150 accuracy), a minus sign."""
    return number(x, scale_of(res)).replace("-", "−")
