"""Exports of a result for a paper, a README or a spreadsheet: Markdown, LaTeX, CSV, JSON and static figures.

Pure functions (no Streamlit), behind the app's download buttons. User text (system
names, metric) is escaped for the target format, so a name like ``<img src=x onerror=alert(1)>`` stays that
text; CSV cells that a spreadsheet would run as a formula are neutralised (OWASP, "CSV Injection").
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import struct
import threading
import time
import unicodedata
import zlib
from decimal import Decimal
from typing import Any

import pandas as pd

from ..contract import P_SIGNIFICANT_BELOW
from ..errors import SettingsError
from ..io.sheets import safe_cell, table_csv  # noqa: F401  the one CSV writer, by the reports' names for it
from ..result import Result
from ..words import counted, printable
from . import citations
from .sentence import (
    CI_NAMES,
    SIDED,
    direction,
    level,
    method,
    metric_heading,
    metric_name,
    number,
    scale_of,
    test_name,
    verdict,
)
from .style import MINUS, PX_PER_IN, Style, plain
from .venues import DEFAULT as DEFAULT_VENUE
from .venues import venue_named

__all__ = ["SCREEN_FIGURE", "FORMATS", "PLACEMENT", "SLOT_A", "SLOT_B", "SLOT_P", "SLOT_C", "scores_table",
           "verdict_markdown", "stem", "CITEP", "latex_table", "tabular_width", "fits_column", "verdict_latex",
           "pair_stem", "sentence_markdown", "sentence_latex", "claim_latex", "caption", "caption_latex",
           "figure_caption", "scores_csv", "latex_template", "md_escape", "latex_escape", "interval_text",
           "latex_interval", "latex_number", "p_latex", "signature_comment", "deltas_csv", "result_json",
           "RENDER_SECONDS", "figure_image", "styled_image", "png_dpi"]

SCREEN_FIGURE = dict(width=480, height=320)  # the on-screen chart saved as is; a paper's size: style.py
FORMATS = ("png", "svg", "pdf")
PLACEMENT = "ht"  # a float here, else atop a later column: never above the text before it (page 1's abstract)

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&])")  # ~ (GFM), : and $ (Streamlit) on top of CommonMark's
_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    # not specials, but OT1 prints < > | as other glyphs, and a row starting with [ is read as \\[<length>]
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "[": "{[}", "]": "{]}",
}
_LATEX_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIAL))
# what pdflatex sets from UTF-8 with the T1 and TS1 fonts: ASCII and the characters t1enc.dfu, ts1enc.dfu, omsenc.dfu
# and ot1enc.dfu declare (LaTeX 2022); any other (CJK, Greek, a lone combining mark) stops it: "not set up for use"
_NOT_PDFLATEX = re.compile(r"[^\x00\x20-\x7e\xa0-\xac\xae-\u0125\u0128-\u0137\u0139-\u013e\u0141-\u0148"
                           r"\u014a-\u0165\u0168-\u017e\u0192\u01c4-\u01d4\u01e2-\u01e3\u01e6-\u01eb\u01f0\u01f4-\u01f5\u0218-\u021b\u0232-\u0233\u0237"
                           r"\u02c7\u02d8-\u02d9\u02db\u02dd\u0e3f\u1e02-\u1e03\u1e0d\u1e1e-\u1e21\u1e25\u1e30-\u1e31\u1e37\u1e43"
                           r"\u1e45\u1e47\u1e5b\u1e63\u1e6d\u1e8e-\u1e91\u1e9e\u1ef2-\u1ef3\u2010-\u2016\u2018-\u201a"
                           r"\u201c-\u201e\u2020-\u2022\u2030-\u2031\u2039-\u203b\u203d\u2044\u204e\u2052\u20a1\u20a4\u20a6\u20a9"
                           r"\u20ab-\u20ac\u20b1\u2103\u2116-\u2117\u211e\u2120\u2122\u2126-\u2127\u212e\u2190-\u2193"
                           r"\u2329-\u232a\u2422-\u2423\u25e6\u25ef\u266a\u27e8-\u27e9\u3008-\u3009\ufb00-\ufb06]")
# placeholders for user text while the sentence around it is converted (NUL never occurs in the sentence)
SLOT_A, SLOT_B, SLOT_P, SLOT_C = "\x00a\x00", "\x00b\x00", "\x00p\x00", "\x00c\x00"
# a symbol, its relation and its number, set together in math mode: δ = 0.0150, b = 10,000, α = 0.05
_MATH = re.compile(r"(?<![\w\x00])(δ|α|Δ|b|n) (=|≥|≤) ([-−]?(?:∞|\d+(?:,\d{3})*(?:\.\d+)?(?:e[+-]?\d+)?))")
_MATH_SYMBOLS = {"δ": r"\delta", "α": r"\alpha", "Δ": r"\Delta", "b": "b", "n": "n"}
_MATH_RELATIONS = {"=": "=", "≥": r"\geq", "≤": r"\leq"}
_LATEX_SYMBOLS = {"-∞": r"$-\infty$", "δ": r"$\delta$", "α": r"$\alpha$", "≥": r"$\geq$", "≤": r"$\leq$",
                  "∞": r"$\infty$", "·": r"$\cdot$", "±": r"$\pm$", "Δ": r"$\Delta$"}
_LATEX_SYMBOLS_RE = re.compile("|".join(_LATEX_SYMBOLS))
_SENTENCE_SYMBOLS = "".join(_LATEX_SYMBOLS) + MINUS + "\u0302"  # and k̂'s hat (the replicability sentence)


# ---------------------------------------------------------------- tables


_DOWN = r" ($\downarrow$)"  # a table's metric on which lower is better, as its caption says
_LATEX_ESTIMANDS = {"pseudo_median": [r"pseudo-median of $\delta_i$"], "share_won": ["share of items won"],
                    "share_discordant": ["share of discordant pairs"]}
_ESTIMAND_ROWS = {"pseudo_median": "pseudo-median of {a} {minus} {b} per item",
                  "share_won": "{a}'s share of items won", "share_discordant": "{a}'s share of discordant pairs"}


def scores_table(res: Result, *, a: str = "A", b: str = "B") -> pd.DataFrame:
    """Rows A, B and A − B with their score and interval: what the page shows and the exports write.

    The A − B interval is the interval of the difference (``ci_low``, ``ci_high``, on the test's side: one end
    is infinite for a one-sided test), not one built from the systems' own intervals. A test that measures
    something else (items won, a pseudo-median) adds a row for it, with its interval. Intervals a test does
    not give are nan.
    """
    delta_ci = (res.ci_low, res.ci_high) if res.estimand == "delta" else (math.nan, math.nan)
    rows = [(res.score_a, *res.ci_a), (res.score_b, *res.ci_b), (res.delta, *delta_ci)]
    names = [a, b, f"{a} {MINUS} {b}"]
    if res.estimand != "delta":
        rows.append((res.estimate, res.ci_low, res.ci_high))
        names.append(_ESTIMAND_ROWS[res.estimand].format(a=a, b=b, minus=MINUS))
    index = pd.Index(names, name="system", dtype=object)
    return pd.DataFrame(rows, index=index, columns=["score", "ci_low", "ci_high"], dtype=float)


def verdict_markdown(res: Result, *, a: str = "A", b: str = "B") -> str:
    """A Markdown block: the verdict sentence, a table of A, B and A − B, and the signature in a code span."""
    sentence = verdict(res, a=md_escape(a), b=md_escape(b), metric=md_escape(metric_name(res)))
    lines = [sentence, "", f"| System | {md_escape(metric_heading(res))} | {level(res)} CI |", "|---|---:|:---:|"]
    for name, (score, low, high) in scores_table(res, a=a, b=b).iterrows():
        scale = scale_of(res)
        lines.append(f"| {md_escape(name)} | {number(score, scale)} | {interval_text(low, high, scale)} |")
    lines += ["", f"Signature: {_code_span(res.signature)}"]
    return "\n".join(lines) + "\n"


def stem(*parts: str) -> str:
    """A file name and LaTeX label from the comparison's names: lowercase ASCII words joined by hyphens
    (``bleu-uedin-nmt-vs-lium-nmt``): a paper folder's STEM, and its table's label ``tab:STEM`` wherever the table
    is made (``--latex``, ``--paper``, the app)."""
    words = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")
    return words[:80].rstrip("-") or "result"


CITEP = "\\providecommand{\\citep}[1]{\\cite{#1}}%  natbib's, else \\cite\n"  # IEEEtran and llncs have no natbib


def latex_table(body: list[str], caption: str, label: str, venue: str = DEFAULT_VENUE, *, small: bool = False,
                wide: bool = False) -> str:
    r"""A booktabs ``table`` float around ``body`` (its tabular's lines), with ``\caption`` on the side ``venue``
    wants it (ACL below, ICML above: :mod:`sigcore.report.venues`) and ``\label{label}``, for ``\ref``; ``wide``:
    across both columns (``table*``) in a two-column venue. What every table of a result ends in: the file the
    paper folder writes, the table ``--latex`` prints and the app's download are this text, byte for byte (a
    caption that cites falls back to ``\cite`` where natbib's ``\citep`` is not loaded)."""
    side = venue_named(venue).table_caption
    env = "table*" if wide and venue_named(venue).columns == 2 else "table"
    caption_lines = [f"  \\caption{{{caption}}}", f"  \\label{{{label}}}"]
    lines = [*([CITEP.rstrip("\n")] if "\\citep" in caption else []), r"% needs \usepackage{booktabs}",
             f"\\begin{{{env}}}[{PLACEMENT}]", r"  \centering", *([r"  \small"] if small else []),
             *(caption_lines if side == "above" else []), *body, *(caption_lines if side == "below" else []),
             f"\\end{{{env}}}"]
    return "\n".join(lines) + "\n"


_CHAR_PT = 4.6  # a character of \small text in an 11 pt document, on average: digits 5 pt, letters 4.4-5, space 3.3
_WRAPPER = re.compile(r"\\(?:textbf|emph|textit|mathrm|text)\{")  # prints its argument only
_SYMBOL = re.compile(r"\\[a-zA-Z]+(?:\{\})?|\\.")  # \delta, \textminus{}, \%: one character each


def _shown_length(cell: str) -> int:
    """The characters a LaTeX cell prints, roughly."""
    text = _SYMBOL.sub("x", _WRAPPER.sub("", cell).replace("--", "-"))
    return len(re.sub(r"[{}$_^]", "", text))


def tabular_width(rows: list[list[str]], tabcolsep: float = 4.0) -> float:
    """The natural width in points of a tabular whose rows hold these LaTeX cells, estimated from the characters
    each column prints at its widest."""
    columns = max(map(len, rows))
    widths = [max((_shown_length(r[i]) for r in rows if i < len(r)), default=0) for i in range(columns)]
    return sum(w * _CHAR_PT for w in widths) + 2 * tabcolsep * columns


def fits_column(rows: list[list[str]], venue: str, tabcolsep: float = 4.0) -> bool:
    """Whether the tabular fits ``venue``'s column (one-column venues: its text width)."""
    return tabular_width(rows, tabcolsep) <= venue_named(venue).column


def verdict_latex(res: Result, *, a: str = "A", b: str = "B", venue: str = DEFAULT_VENUE,
                  label: str | None = None) -> str:
    r"""A LaTeX ``table`` (needs ``\usepackage{booktabs}``): System | metric | CI, with the short caption of
    :func:`caption_latex` on ``venue``'s side (:func:`latex_table`); the sentence for the text is
    :func:`sentence_latex`.

    Negative numbers are written with ``\textminus{}`` everywhere; p, symbols (δ, α, ≥), b and numbers in
    scientific notation are set in math mode (``$p = 0.0012$``, ``$b = 10{,}000$``).
    """
    # the difference rows by their symbols, which the caption defines: a column has no room for "A − B" twice
    names = [latex_escape(a), latex_escape(b), r"$\delta$", *_LATEX_ESTIMANDS.get(res.estimand, [])]
    if res.ci_side != "two-sided" and not math.isnan(res.ci_low):  # the test's interval is a one-sided bound
        names[-1] += " (one-sided)"
    rows = [f"    {name} & {latex_number(score, scale_of(res))} & {latex_interval(low, high, scale_of(res))} \\\\"
            for name, (score, low, high) in zip(names, scores_table(res, a=a, b=b).itertuples(index=False))]
    body = [
        r"  \begin{tabular}{lrc}",
        r"    \toprule",
        f"    System & {latex_escape(metric_name(res))}{_DOWN if direction(res) else ''} & {latex_escape(level(res))} "
        "CI \\\\",
        r"    \midrule",
        *rows[:2],
        r"    \midrule",
        *rows[2:],
        r"    \bottomrule",
        r"  \end{tabular}",
        signature_comment(res.signature),
    ]
    return latex_table(body, caption_latex(res, a=a, b=b), label or f"tab:{pair_stem(res, a, b)}", venue)


def pair_stem(res: Result, a: str, b: str) -> str:
    """A pair's stem: ``bleu-uedin-nmt-vs-lium-nmt`` (:func:`stem`)."""
    return stem(res.metric, a, "vs", b)


# ---------------------------------------------------------------- the sentence and the caption of a paper


def sentence_markdown(res: Result, *, a: str = "A", b: str = "B") -> str:
    """The verdict as a paper's sentence in Markdown, citing the test where it is named:
    "... paired bootstrap (Berg-Kirkpatrick et al., 2012; Efron and Tibshirani, 1993), b = 10,000 ..."."""
    return _fill(_cited(res), {SLOT_A: md_escape(a), SLOT_B: md_escape(b),
                               SLOT_C: citations.cite_text(citations.method_keys(res))})


def sentence_latex(res: Result, *, a: str = "A", b: str = "B") -> str:
    r"""The verdict as a paper's sentence in LaTeX: symbols and their numbers in math mode ($\delta = 0.0150$,
    $b = 10{,}000$, $\alpha = 0.05$), the test cited with ``\citep`` (natbib, as the ACL style loads it)."""
    return _latex_text(_cited(res), res, a, b, citations.cite_latex(citations.method_keys(res)))


def claim_latex(c, *, a: str = "A", b: str = "B") -> str:
    r"""A non-inferiority or equivalence claim's sentence (:func:`sigcore.report.claim_text.sentence`) in LaTeX:
    δ, α, b and the bound in math mode, the test and Schuirmann (1987) cited with ``\citep``."""
    from .claim_text import sentence as claim_sentence
    from .sentence import method

    how, p = method(c.result), c.p_text
    text = claim_sentence(c, SLOT_A, SLOT_B).replace(how, f"{how} {SLOT_C}", 1).replace(p, SLOT_P, 1)
    name, op, value = p.split(" ")
    cite = citations.cite_latex(citations.claim_keys(c.result.test, c.result.metric))
    return latex_template(text, {SLOT_A: latex_escape(a), SLOT_B: latex_escape(b), SLOT_C: cite,
                                 SLOT_P: f"${name} {_MATH_RELATIONS.get(op, op)} {_math_number(value)}$"})


def caption(res: Result, *, a: str = "A", b: str = "B") -> str:
    """A figure's or table's short caption: what is shown, on how many items, with which test; the metric
    with its citations. The result itself is the sentence's."""
    return _fill(_caption(res), {SLOT_A: a, SLOT_B: b, SLOT_C: citations.cite_text(citations.metric_keys(res.metric))})


def caption_latex(res: Result, *, a: str = "A", b: str = "B") -> str:
    return _latex_text(_caption(res), res, a, b, citations.cite_latex(citations.metric_keys(res.metric)))


def figure_caption(res: Result, kind: str = "histogram", *, latex: bool = False) -> str:
    """The short caption of a figure of ``res`` (:func:`sigcore.report.figures.figure`): what is drawn, from
    how many resamples of how many items, and where p's resamples are."""
    drawn = _figure_caption(res, kind)
    return _latex_text(drawn, res, "A", "B", "") if latex else drawn


def _figure_caption(res: Result, kind: str) -> str:
    groups = f" in {counted(res.n_groups, 'group')}" if res.n_groups is not None else ""
    units = counted(res.n_items, "item") + groups
    if res.test == "bootstrap":
        draws = f"b = {counted(res.n_resamples, 'paired bootstrap resample')} x⁽ⁱ⁾ of the {units}"
    elif res.n_resamples == 1 and res.exact:  # n items that differ have 2^n swaps: one when none differs
        draws = f"the only swap of A's and B's outputs, which agree on all {units}"
    elif res.exact:
        draws = f"all {res.n_resamples:,} swaps of A's and B's outputs on the {units}"
    else:
        draws = f"b = {counted(res.n_resamples, 'random swap')} of A's and B's outputs on the {units}"
    if kind == "convergence":
        return (f"The p-value after {'each of ' * (res.n_resamples != 1)}{draws} (seed {res.seed}), with its 95% "
                f"Monte-Carlo interval; {res.p_text} after all b.")
    what = {("bootstrap", "histogram"): "δ(x⁽ⁱ⁾)", ("bootstrap", "null"): "δ(x⁽ⁱ⁾) − δ(x), centred on H0,"}
    shown = what.get((res.test, kind), "δ under H0")
    if res.n_extreme == 0:  # no bar is drawn in the counted colour: say so rather than point at none
        return (f"{shown} on {draws} (seed {res.seed}); none is as extreme as δ(x), so none is counted in p "
                f"({res.p_text}).")
    return f"{shown} on {draws} (seed {res.seed}); dark (vermillion) bars: the resamples counted in p ({res.p_text})."


def _cited(res: Result) -> str:
    """The verdict, user names as placeholders, with a citation placeholder after the test's name."""
    sentence = verdict(res, a=SLOT_A, b=SLOT_B)
    name = test_name(res)
    return sentence.replace(f"), {name}", f"), {name} {SLOT_C}", 1)


def _caption(res: Result) -> str:
    units = counted(res.n_items, "item") + (f" in {counted(res.n_groups, 'group')}" if res.n_groups is not None
                                             else "")
    metric = metric_name(res) + (f" {SLOT_C}" if citations.metric_keys(res.metric) else "")
    if metric.split()[0] in ("accuracy", "exact", "precision", "recall", "mean", "weighted", "span"):
        metric = metric[0].upper() + metric[1:]  # a word starts the caption; chrF and macro-F1 keep their case
    metric += f" ({direction(res)})" if direction(res) else ""
    shown = f"{metric} of {SLOT_A} and {SLOT_B} on {units}, and δ = {SLOT_A} {MINUS} {SLOT_B}"
    if res.estimand == "delta" and not math.isnan(res.ci_low):
        bound = f"its {level(res)} interval" if res.ci_side == "two-sided" else f"its one-sided {level(res)} bound"
        shown += f" with {bound} ({CI_NAMES.get(res.ci_method, res.ci_method)})"
    return f"{shown}; {method(res)}, {SIDED[res.alternative]}."


def scores_csv(res: Result, *, a: str = "A", b: str = "B") -> bytes:
    """:func:`scores_table` as CSV, each row with the settings that made it (metric and its direction, test, H1, α,
    level, b, seed), so that the file says what it holds on its own."""
    frame = scores_table(res, a=a, b=b).assign(
        metric=res.metric, higher_is_better=res.higher_is_better, test=res.test, alternative=res.alternative,
        alpha=res.alpha, confidence_level=res.confidence_level, n_resamples=res.n_resamples, seed=res.seed)
    return table_csv(frame)


def _latex_text(text: str, res: Result, a: str, b: str, cite: str) -> str:
    """A sentence with placeholders as LaTeX: each symbol with its relation and number as one math group,
    user text escaped, negative numbers with a real minus."""
    return latex_template(text.replace(res.p_text, SLOT_P), {SLOT_A: latex_escape(a), SLOT_B: latex_escape(b),
                                                           SLOT_P: p_latex(res.p_text), SLOT_C: cite})


def latex_template(text: str, filled: dict[str, str]) -> str:
    """Text sigcore wrote, as LaTeX: δ, α, b or n with a relation and a number as one math group, − as
    ``\\textminus{}``, the rest escaped; ``filled`` maps NUL-delimited slots in ``text`` (user names) to the LaTeX
    that replaces them, already escaped."""
    groups: list[str] = []

    def math_group(m: re.Match) -> str:
        groups.append(f"${_MATH_SYMBOLS[m.group(1)]} {_MATH_RELATIONS[m.group(2)]} {_math_number(m.group(3))}$")
        return f"\x00m{len(groups) - 1}\x00"
    text = _MATH.sub(math_group, text).replace("x⁽ⁱ⁾", "\x00x\x00")  # the resample's symbol, as SLP3 writes it
    text = _LATEX_SYMBOLS_RE.sub(lambda m: _LATEX_SYMBOLS[m.group()],
                                 _latex_numbers(latex_escape(text, placeholders=True)))
    filled = filled | {"\x00x\x00": "$x^{(i)}$", "$\\delta$($x^{(i)}$)": "$\\delta(x^{(i)})$",
                       "$\\delta$(x)": "$\\delta(x)$"}
    return _fill(text.replace(MINUS, r"\textminus{}"), filled | {f"\x00m{i}\x00": g for i, g in enumerate(groups)})


def _math_number(text: str) -> str:
    text = text.replace(MINUS, "-")  # a claim's bound is written with a real minus; math mode makes its own
    if text.lstrip("-") == "∞":
        return text.replace("∞", r"\infty")
    mantissa, _, exponent = text.partition("e")
    mantissa = mantissa.replace(",", "{,}")
    return f"{mantissa} \\times 10^{{{int(exponent)}}}" if exponent else mantissa


def _fill(text: str, values: dict[str, str]) -> str:
    for token, value in values.items():
        text = text.replace(token, value)
    return text


def md_escape(text: str) -> str:
    """User text as literal Markdown: every character Markdown could read as markup gets a backslash.

    Newlines become spaces (a table cell or a sentence is one line).
    """
    return _MD_SPECIAL.sub(r"\\\1", _one_line(text))


def latex_escape(text: str, placeholders: bool = False) -> str:
    r"""User text as literal LaTeX text: ``\ & % $ # _ { } ~ ^`` (and ``< > | [ ]``) escaped; composed (NFC, so
    that e + U+0301 is é), and a character pdflatex cannot set written as its code point, ``\texttt{U+4E2D}``."""
    text = _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group()],
                         unicodedata.normalize("NFC", _one_line(text, placeholders)))
    kept = _SENTENCE_SYMBOLS if placeholders else ""  # a template's δ, α, ≥ and − become math after this

    def code_point(m: re.Match) -> str:
        return m.group() if m.group() in kept else f"\\texttt{{U+{ord(m.group()):04X}}}"
    return _NOT_PDFLATEX.sub(code_point, text)


def interval_text(low: float, high: float, scale: float) -> str:
    """[0.0024, 0.0293], or [0.0024, ∞) for a one-sided bound (an infinite end is open); — where there is none."""
    if math.isnan(low) or math.isnan(high):
        return "—"
    left, right = "(" if math.isinf(low) else "[", ")" if math.isinf(high) else "]"
    return f"{left}{number(low, scale)}, {number(high, scale)}{right}"


def latex_interval(low: float, high: float, scale: float) -> str:
    """An interval in a LaTeX table's cell: [low, high], open at an infinite end, --- when undefined."""
    if math.isnan(low) or math.isnan(high):
        return "---"
    left, right = "(" if math.isinf(low) else "[", ")" if math.isinf(high) else "]"  # an infinite end is open
    return f"{left}{latex_number(low, scale)}, {latex_number(high, scale)}{right}"


def latex_number(x: float, scale: float) -> str:
    """A number as the text writes it (:func:`number`), in a LaTeX table's cell: a real minus, symbols escaped."""
    return _LATEX_SYMBOLS_RE.sub(lambda m: _LATEX_SYMBOLS[m.group()], _latex_numbers(number(x, scale)))


def _latex_numbers(text: str) -> str:
    """A real minus for every negative number: ``\\textminus{}`` in text, math mode for scientific notation."""
    text = re.sub(r"(?<![\w.])(-?\d+(?:\.\d+)?)e([+-]\d+)",
                  lambda m: f"${m.group(1)} \\times 10^{{{int(m.group(2))}}}$", text)
    return re.sub(r"(?<![\w.{^$])-(?=\d)", r"\\textminus{}", text)  # math mode has its own minus


def p_latex(text: str) -> str:
    """p as LaTeX math, from :func:`sigcore.result.p_text` or :func:`~sigcore.result.p_cell` (the one rule of its
    digits): $p = 0.0012$, $p < 10^{-4}$, $p = 2.5 \\times 10^{-5}$; a cell: $0.004$, $<10^{-4}$."""
    head, _, value = text.rpartition(" ")
    if 0 < float(value) < P_SIGNIFICANT_BELOW:  # the digits p_text kept, so that p still sits on its side of alpha
        sign, digits, exponent = Decimal(value).normalize().as_tuple()
        exponent += len(digits) - 1
        mantissa = f"{digits[0]}" + (f".{''.join(map(str, digits[1:]))}" if len(digits) > 1 else "")
        value = f"10^{{{exponent}}}" if mantissa == "1" else f"{mantissa} \\times 10^{{{exponent}}}"
    return f"${head} {value}$" if " " in head else f"${head}{value}$"  # "p <" spaced; a cell's "<" close, as a table


def _code_span(text: str) -> str:
    """A Markdown code span whose fence is longer than any run of backticks inside (CommonMark §6.1)."""
    text = _one_line(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def signature_comment(signature: Any) -> str:
    """A table's last line, the signature as a LaTeX comment: on one line (a newline would end the comment and let
    the rest run as LaTeX), control characters as \\xNN; every table of every kind writes it so."""
    return f"  % signature: {_one_line(signature)}"


def _one_line(text: Any, placeholders: bool = False) -> str:
    """On one line, and any other control character as \\xNN: pdflatex stops at an ESC, and SVG may not hold one.
    ``placeholders``: a template's NUL-delimited slots are kept (user text never is one: it is escaped whole)."""
    text = re.sub(r"[\r\n]+", " ", str(text))
    return "\x00".join(map(printable, text.split("\x00"))) if placeholders else printable(text)


# ---------------------------------------------------------------- CSV and JSON


def deltas_csv(res: Result) -> bytes:
    """UTF-8 CSV of the resampled delta(x^(i)): header ``resample,delta_x_i``, then ``i,value`` with i from 1.

    Values are written in their shortest round-trip form, so reading them back gives the same floats; through
    :func:`table_csv`, as every CSV sigcore writes.
    """
    if res.distribution is None:
        raise SettingsError(f"the {res.test} test is closed-form and has no resampled delta(x^(i)) to export",
                            hint="Choose the bootstrap or permutation test for a distribution.")
    values = res.distribution.tolist()
    return table_csv(pd.DataFrame({"resample": range(1, len(values) + 1), "delta_x_i": values}))


def result_json(res: Result, *, distribution: bool = False, **extra: Any) -> str:
    """Deprecated (removed in 0.4.0): ``records.dumps(records.pair(res, ...))``, the one writer of JSON records."""
    import warnings

    from . import records

    warnings.warn("export.result_json(res) is records.dumps(records.pair(res)) and goes in 0.4.0",
                  DeprecationWarning, stacklevel=2)
    return records.dumps(records.pair(res, distribution=distribution, **extra))


# ---------------------------------------------------------------- figures

_NO_BROWSER = ("Install Debian's chromium (apt-get install chromium), or set BROWSER_PATH to a Chrome or "
               "Chromium executable.")


RENDER_SECONDS = 60  # a figure takes kaleido a second or two; a hung browser, forever


def figure_image(fig: Any, fmt: str, *, width: int = SCREEN_FIGURE["width"], height: int = SCREEN_FIGURE["height"],
                 scale: float = 2) -> bytes:
    """A static PNG, SVG or PDF of a plotly figure, rendered by kaleido in a headless Chromium.

    Raises :class:`SettingsError` with how to fix it when kaleido or the browser is missing or cannot start.
    """
    if fmt not in FORMATS:
        raise SettingsError(f"`fmt` must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if importlib.util.find_spec("kaleido") is None:
        raise SettingsError("static images need the kaleido package",
                            hint=f"Install it (pip install kaleido==1.5.0). {_NO_BROWSER}")
    from choreographer.errors import ChannelClosedError
    from kaleido.errors import (
        BrowserClosedError,
        BrowserFailedError,
        ChromeNotFoundError,
        JavascriptError,
        KaleidoError,
    )

    def render() -> bytes:  # in a daemon thread: a browser that never answers holds neither the caller nor the exit
        out: dict[str, Any] = {}

        def draw() -> None:
            try:
                out["image"] = fig.to_image(format=fmt, width=width, height=height, scale=scale)
            except BaseException as exc:  # raised again in the caller's thread
                out["error"] = exc
        worker = threading.Thread(target=draw, name="sigcore-kaleido", daemon=True)
        worker.start()
        worker.join(RENDER_SECONDS)
        if worker.is_alive():
            raise KaleidoError(0, f"no image after {RENDER_SECONDS} s")
        if "error" in out:
            raise out["error"]
        return out["image"]

    try:
        try:
            return render()
        except (JavascriptError, KaleidoError):  # under load its page answered before its script had loaded
            return render()  # ("kaleido_scopes is not defined"), or its browser hung: a fresh one, once
    except (JavascriptError, KaleidoError) as exc:
        raise SettingsError(f"kaleido failed twice to render the {fmt.upper()} ({exc})",
                            hint="Try again when the machine is less busy.") from exc
    except (BrowserFailedError, BrowserClosedError, ChannelClosedError) as exc:  # a browser that dies at once
        raise SettingsError(f"the browser that renders static images failed ({exc.args[0] if exc.args else exc})",
                            hint=_NO_BROWSER) from exc
    except RuntimeError as exc:
        # plotly turns kaleido's ChromeNotFoundError into a bare RuntimeError raised while handling it
        if isinstance(exc.__context__, ChromeNotFoundError):
            raise SettingsError("static images need Chrome or Chromium, and none was found",
                                hint=_NO_BROWSER) from exc
        raise


_PDF_PRINTING = threading.Lock()  # one swap of kaleido's printing step at a time
_IMAGE_SIZE = "(() => { const r = document.getElementById('kaleido-image').getBoundingClientRect(); " \
              "return [r.width, r.height]; })()"


def _true_size_pdf(fig: Any, width: float, height: float) -> bytes:
    """A PDF of ``fig`` on a page of its own size, with no margins, so it is neither shrunk nor cut.

    kaleido 1.5 prints a figure's page with 0.1 in margins: Chromium shrinks the figure by 0.2 in to fit the
    width (a column's 9 pt text prints at 8.5 pt) and cuts off what then falls below the bottom margin (a
    legend, an axis title). kaleido has no setting for it, so its printing step is swapped, while this PDF is
    drawn, for one with no margins on a page of whole points: Chromium rounds a page to the nearest point, then to
    1/300 in (up to 0.08 pt less). Its height is rounded up, so that nothing is cut off; its width down, so that a
    figure drawn at a column's width is never wider than the column (a sliver of overfull box at its natural
    size): what goes is at most two points of the right margin, which every style keeps white and wider. It measures
    the page from the image in the browser, so a PDF that another thread draws meanwhile is right too.
    """
    try:
        # kaleido's private printing step, the project's one patch of a private API: tests/test_kaleido_patch.py
        # fails when kaleido changes what it relies on
        from kaleido._kaleido_tab import _devtools_utils as devtools
    except ImportError:  # no kaleido: figure_image says how to install it
        return figure_image(fig, "pdf", width=width, height=height, scale=1)

    async def print_pdf(tab: Any) -> str:
        size = await tab.send_command("Runtime.evaluate", params={"expression": _IMAGE_SIZE, "returnByValue": True})
        devtools._raise_error(size)
        px_w, px_h = size["result"]["result"]["value"]
        w = _page_width(px_w * 72 / PX_PER_IN) / 72  # never wider than the column it was drawn for
        h = math.ceil(px_h * 72 / PX_PER_IN + 0.1) / 72
        printed = await tab.send_command("Page.printToPDF", params=dict(
            printBackground=True, paperWidth=w, paperHeight=h, marginTop=0, marginBottom=0, marginLeft=0,
            marginRight=0, preferCSSPageSize=False, pageRanges="1"))
        devtools._raise_error(printed)
        return printed["result"]["data"]

    with _PDF_PRINTING:
        if not callable(getattr(devtools, "print_pdf", None)) or not hasattr(devtools, "_raise_error"):
            raise SettingsError("this kaleido cannot print a PDF at the figure's true size",
                                hint="Install kaleido 1.5.0 (pip install kaleido==1.5.0), or save an SVG.")
        original, devtools.print_pdf = devtools.print_pdf, print_pdf
        try:
            return figure_image(fig, "pdf", width=width, height=height, scale=1)
        finally:
            devtools.print_pdf = original


def _page_width(points: float) -> int:
    """The widest page of whole PostScript points that Chromium's roundings (to the nearest point, then to the
    nearest 1/300 in) leave no wider than ``points``: 513 for IEEE's 516 TeX points (514.07 bp), whose 514 would
    become 514.08."""
    n = math.floor(points + 1e-6)
    while round(n * 300 / 72) * 72 / 300 > points + 1e-6:
        n -= 1
    return n


def _pdf_titled(pdf: bytes, title: str) -> bytes:
    """``pdf`` with ``title`` as its document title (Chromium's is the page's: kaleido's "Kaleido-fier").

    The title is written in UTF-16 (a PDF text string, ISO 32000-1 §7.9.2.2), and the cross-reference
    table's offsets after it are moved by the change in length, as a reader finds objects by them.
    """
    found = re.search(rb"/Title\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)", pdf)
    table = re.search(rb"\nxref\n0 (\d+)\n((?:\d{10} \d{5} [nf]\s*\n)+)trailer\b", pdf)
    start = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", pdf)
    if not (found and table and start) or not found.end() < table.start():
        return pdf  # not the single-table file Chromium writes: left as it is
    text = b"<FEFF" + title.encode("utf-16-be").hex().upper().encode() + b">"
    at, shift = found.start(1), len(text) - len(found.group(1))

    def moved(entry: re.Match) -> bytes:
        offset = int(entry.group(1))
        return b"%010d" % (offset + shift if offset > at and entry.group(3) == b"n" else offset) + entry.group(2)
    entries = re.sub(rb"(\d{10})( \d{5} ([nf]))", moved, table.group(2))
    return (pdf[:at] + text + pdf[found.end(1):table.start(2)] + entries + pdf[table.end(2):start.start(1)]
            + str(int(start.group(1)) + shift).encode() + pdf[start.end(1):])


def _pdf_dated(pdf: bytes) -> bytes:
    """``pdf`` with its creation and modification dates set to SOURCE_DATE_EPOCH (reproducible-builds.org), else to
    1980-01-01: the same figure is then the same file, byte for byte. The digits keep their length, so no offset
    in the file moves."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = time.gmtime(int(epoch)) if epoch.isascii() and epoch.isdigit() else time.gmtime(315532800)
    digits = time.strftime("%Y%m%d%H%M%S", when).encode()
    return re.sub(rb"(/(?:CreationDate|ModDate)\s*\(D:)\d{14}([+-]\d\d'\d\d')?",
                  lambda m: m.group(1) + digits + (b"+00'00'" if m.group(2) else b""), pdf)


def _figure_title(fig: Any) -> str:
    """What a figure shows, in one line, for its file's metadata: the title its builder gave it
    (``layout.meta["title"]``), else its x axis's."""
    meta = fig.layout.meta
    if isinstance(meta, dict) and meta.get("title"):
        return str(meta["title"])
    return plain(fig.layout.xaxis.title.text or "Figure")


def styled_image(fig: Any, fmt: str, style: Style) -> bytes:
    """A figure made in ``style`` (:mod:`sigcore.report.style`) at its true size: SVG and PDF at scale 1 (a
    7.7 cm wide figure is 7.7 cm wide on the PDF's page, less a point or two of its white right margin, which is rounded
    to whole points, and the figure's title is the document's), PNG at the style's dpi, recorded in the file."""
    width, height = fig.layout.width, fig.layout.height
    if width is None or height is None:
        raise SettingsError("this figure has no size of its own: make it with a style (style.apply)")
    if fmt == "pdf":
        return _pdf_dated(_pdf_titled(_true_size_pdf(fig, width, height), _figure_title(fig)))
    if fmt != "png":
        return figure_image(fig, fmt, width=width, height=height, scale=1)
    return png_dpi(figure_image(fig, fmt, width=width, height=height, scale=style.dpi / PX_PER_IN), style.dpi)


def png_dpi(png: bytes, dpi: int) -> bytes:
    """``png`` with a pHYs chunk saying ``dpi`` (in pixels per metre, as PNG counts), so that a word processor
    or LaTeX places it at its true size."""
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end = 8 + 8 + 13 + 4  # signature, then IHDR: length, type, 13 bytes of data, CRC
    return png[:end] + chunk + png[end:]
