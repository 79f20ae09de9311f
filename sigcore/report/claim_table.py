r"""A non-inferiority or equivalence claim (:mod:`sigcore.claims`) for a paper and a page: its row (the claim, the
margin Δ, δ, the bound or interval, p, the decision), the booktabs table around that row with its caption, the
figure's caption, and the JSON. Every number is printed as the claim's sentence prints it
(:func:`claim_text.bound_texts`, :attr:`Claim.p_text`), so the sentence, the table, the figure and the JSON cannot
disagree.
"""

from __future__ import annotations

from ..claims import Claim
from ..signature import margin_text
from . import citations
from .claim_text import bound_texts, delta_text
from .export import (
    SLOT_A,
    SLOT_B,
    SLOT_C,
    SLOT_P,
    fits_column,
    latex_escape,
    latex_table,
    latex_template,
    p_latex,
    signature_comment,
    stem,
)
from .sentence import method, metric_name, the
from .venues import DEFAULT as DEFAULT_VENUE

__all__ = ["bound_header", "cells", "latex", "caption", "figure_caption", "claim_stem", "to_json"]

_PS = "\x00ps\x00"  # the symbol p: math in LaTeX


def bound_header(c: Claim) -> str:
    """"95% bound" (one-sided, lower) or "90% interval"."""
    return f"{c.level:.0%} {'bound' if c.kind == 'non-inferior' else 'interval'}"


def cells(c: Claim) -> dict[str, str]:
    """The claim's row as plain text, keyed by its column's header: what the page's table and the paper's show."""
    low, high = bound_texts(c)
    raw = c.p_text  # "p = 0.004", "p < 0.0001"
    return {"claim": c.kind, "margin Δ": margin_text(c.margin), "δ = A − B": delta_text(c),
            bound_header(c): f"≥ {low}" if c.kind == "non-inferior" else f"[{low}, {high}]",
            "p": raw.removeprefix("p = ").removeprefix("p "), "shown at α": "yes" if c.shown else "no"}


def latex(c: Claim, *, a: str = "A", b: str = "B", venue: str = DEFAULT_VENUE, label: str | None = None) -> str:
    r"""The claim's booktabs ``table`` (needs ``\usepackage{booktabs}``): the row of :func:`cells` after its first
    cell (the claim is the caption's, with the systems, the test and the decision rule: :func:`caption`, on
    ``venue``'s side), across both columns where a column is too narrow for it."""
    row = cells(c)
    p = row["p"]
    p_cell = p_latex(p)
    head = [r"$\Delta$", r"$\delta$", latex_escape(bound_header(c)), "$p$", "Shown"]
    body = [*(latex_template(row[k], {}) for k in ("margin Δ", "δ = A − B", bound_header(c))), p_cell,
            row["shown at α"]]
    lines = [r"  \setlength{\tabcolsep}{4pt}", r"  \begin{tabular}{rrcrc}", r"    \toprule",
             "    " + " & ".join(head) + r" \\", r"    \midrule", "    " + " & ".join(body) + r" \\",
             r"    \bottomrule", r"  \end{tabular}", signature_comment(c.signature)]
    return latex_table(lines, caption(c, a=a, b=b, latex=True), label or f"tab:{claim_stem(c, a, b)}", venue,
                       small=True, wide=not fits_column([head, body], venue))


def caption(c: Claim, *, a: str = "A", b: str = "B", latex: bool = False) -> str:
    """The table's caption: the claim with its systems, metric and items, what each column is, the test, and
    when the claim is shown."""
    res = c.result
    units = f"{res.n_items:,} items" + (f" in {res.n_groups:,} groups" if res.n_groups is not None else "")
    metric = metric_name(res) + (f" {SLOT_C}" if citations.metric_keys(res.metric) else "")
    if c.kind == "non-inferior":
        text = (f"{SLOT_A} no worse than {SLOT_B} by more than Δ on {metric} ({units}): the margin Δ, "
                f"δ = {SLOT_A} − {SLOT_B} with its one-sided {c.level:.0%} lower bound, and {_PS} of the one-sided "
                f"test of H0: δ ≤ −Δ; "
                f"{method(res)}. Shown: the claim holds at α = {c.alpha:g}, the bound lying above −Δ.")
    else:
        text = (f"{SLOT_A} and {SLOT_B} equivalent within ±Δ on {metric} ({units}): the margin Δ, "
                f"δ = {SLOT_A} − {SLOT_B} with its {c.level:.0%} interval, and {_PS}, the larger of the two one-sided "
                f"tests' (H0: δ ≤ −Δ and "
                f"H0: δ ≥ Δ); {method(res)}. Shown: the claim holds at α = {c.alpha:g}, the interval lying inside ±Δ.")
    return _filled(text, a, b, citations.metric_keys(res.metric), latex)


def figure_caption(c: Claim, *, latex: bool = False) -> str:
    """The caption of :func:`sigcore.report.figures.claim_figure`: what is drawn, and which resamples (bars) or
    which bar shows the claim."""
    res = c.result
    p = c.p_text
    margin = margin_text(c.margin)
    if c.test == "bootstrap":
        from ..claims import tails

        low, high = tails(res, c.kind, c.margin)
        draws = (f"δ(x⁽ⁱ⁾) on b = {res.n_resamples:,} paired bootstrap resamples x⁽ⁱ⁾ of the {res.n_items:,} items"
                 + (f" in {res.n_groups:,} groups" if res.n_groups is not None else "") + f" (seed {res.seed})")
        if c.kind == "non-inferior":
            where = f"with δ(x) and the claim's threshold 2·δ(x) + Δ (Δ = {margin})"
            tail = "δ(x⁽ⁱ⁾) ≥ 2·δ(x) + Δ, those as extreme as δ(x) under H0: δ = −Δ"
        else:
            where = f"with δ(x) and the claim's thresholds 2·δ(x) + Δ and 2·δ(x) − Δ (Δ = {margin})"
            tail = "δ(x⁽ⁱ⁾) ≥ 2·δ(x) + Δ for H0: δ ≤ −Δ and δ(x⁽ⁱ⁾) ≤ 2·δ(x) − Δ for H0: δ ≥ Δ"
        if not (low | high).any():
            text = f"{draws}, {where}; none is as extreme as δ(x) under the claim's H0, so none is counted ({p})."
        else:
            text = f"{draws}, {where}; dark (vermillion) bars: the resamples the claim's {_PS} counts, {tail} ({p})."
    else:
        shown = "lies" if c.shown else "does not lie"
        if c.kind == "non-inferior":
            text = (f"δ (point) with its one-sided {c.level:.0%} lower bound (bar, open to the right) from "
                    f"{the(method(res))} on {res.n_items:,} items, against the margin −Δ (dashed; Δ = {margin}): "
                    f"the claim is shown when the bar lies above −Δ; here it {shown} above ({p}).")
        else:
            text = (f"δ (point) with its {c.level:.0%} interval (bar) from {the(method(res))} on "
                    f"{res.n_items:,} items, against the margins ±Δ (dashed; Δ = {margin}): the claim is shown when "
                    f"the bar lies inside ±Δ; here it {shown} inside ({p}).")
    return _filled(text, "A", "B", [], latex, p)


def _filled(text: str, a: str, b: str, keys: list[str], latex: bool, p: str | None = None) -> str:
    if not latex:
        return text.replace(SLOT_A, a).replace(SLOT_B, b).replace(_PS, "p").replace(
            f" {SLOT_C}", f" {citations.cite_text(keys)}" if keys else "")
    filled = {SLOT_A: latex_escape(a), SLOT_B: latex_escape(b), SLOT_C: citations.cite_latex(keys), _PS: "$p$"}
    if p is not None:
        text = text.replace(p, SLOT_P, 1)
        filled[SLOT_P] = p_latex(p)
    return latex_template(text, filled)


def claim_stem(c: Claim, a: str, b: str) -> str:
    """A claim's stem: ``accuracy-a-vs-b-non-inferior`` (:func:`sigcore.report.export.stem`)."""
    return stem(c.result.metric, a, "vs", b, c.kind)


def to_json(c: Claim, *, a: str = "A", b: str = "B", resamples: bool = True) -> str:
    """Deprecated (removed in 0.4.0): ``records.dumps(records.claim(c, ...))``, the one writer of JSON records."""
    import warnings

    from . import records

    warnings.warn("claim_table.to_json(c) is records.dumps(records.claim(c)) and goes in 0.4.0",
                  DeprecationWarning, stacklevel=2)
    return records.dumps(records.claim(c, a=a, b=b, resamples=resamples))
