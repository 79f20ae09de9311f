r"""A paper folder: everything one run gives a paper, side by side, to ``\input`` into the venue's template.

One run of ``compare`` (a comparison, or a non-inferiority or equivalence claim: :func:`for_claim`), ``many`` or
``seeds`` with ``--paper DIR`` (or the app's "Paper folder" download) adds, under a stem that names the comparison
(``bleu-uedin-nmt-vs-lium-nmt``):

- ``STEM-sentence.tex``: the finding for the text, cited, with the signature as a footnote (and sacreBLEU's
  own signature string where BLEU or chrF was used);
- ``STEM-table.tex``: the booktabs table, its caption on the venue's side, ``\label{tab:STEM}``;
- ``STEM-figure.pdf`` and ``STEM-figure.tex``: the figure at the venue's column width, unscaled, with its
  LaTeX caption and ``\label{fig:STEM}`` (when plotly and kaleido are installed);
- ``STEM.json``: the result, with its resampled values (``sigcore figure`` redraws it);

and merges into the folder's shared files:

- ``sigcore.bib``: every work cited, each key once (a later run adds only the keys that are new);
- ``reproduce.sh``: one command per stem, every setting spelled out, replaced when the stem is written again;
- ``checklist.md``: drafts of the answers to the ACL Responsible NLP checklist's C3 and C4, a section per stem;
- ``manifest.json``: each stem's decisions, so that a pair and a family that decide it differently are
  found and said (:func:`conflicts`), whichever was written first; its command and checklist section, from which
  ``reproduce.sh`` and ``checklist.md`` are made again; and the sha256 of every file written, so that a file
  sigcore did not write, or one changed since, is never replaced unasked (:mod:`.folder`).

The ``.tex`` files find the folder through ``\sigcoredir`` (default: the folder's own name, for a folder beside
the paper's main file) and fall back to ``\cite`` where natbib's ``\citep`` is not loaded (IEEEtran, llncs).
"""

from __future__ import annotations

import inspect
import io
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._version import __version__
from ..errors import InputError, SettingsError
from ..io import archives
from ..metrics import METRIC_NAMES
from ..result import Result
from ..statistics.aso import table_signature
from ..words import shown
from . import citations, export, folder, records
from .export import CITEP, PLACEMENT, md_escape, pair_stem, stem
from .folder import BIB, CHECKLIST, MANIFEST, MISSING, REPRODUCE, merge_bib
from .sentence import TEST_NAMES
from .style import paper as paper_style
from .style import rows_on_page
from .venues import DEFAULT as DEFAULT_VENUE

__all__ = ["Claim", "Entry", "sacrebleu_signature", "signature_footnote", "figure_tex", "text_tex", "for_result",
           "for_claim", "pair_claim", "family_claims", "for_family", "BoardFigure", "for_board", "for_seeds",
           "for_aso", "conflicts", "in_family", "Written", "write", "ZIP_LIMIT", "unzipped", "zipped", "drawer"]

_HEAD = "\\providecommand{\\sigcoredir}{%s/}%%\n" + CITEP.replace("%", "%%")


@dataclass(frozen=True)
class Claim:
    """One decision a stem reports: on ``metric``, whether ``a`` is significantly better or worse than ``b``."""

    metric: str
    a: str
    b: str
    items: int  # a pair and a family decide the same question only on the same test set
    decision: int  # +1: a significantly better; -1: significantly worse; 0: not significant
    how: str  # "p = 0.0047 (one-sided), paired bootstrap": what a warning quotes

    def reversed(self) -> Claim:
        return Claim(self.metric, self.b, self.a, self.items, -self.decision, self.how)


@dataclass
class Entry:
    """What one run adds to a paper folder (:func:`write` puts it there; :func:`zipped` packs it for a download)."""

    stem: str
    files: dict[str, bytes]
    keys: list[str]
    command: str
    checklist: str
    claims: list[Claim]
    notes: list[str] = field(default_factory=list)  # what could not be written (a figure without kaleido)


def sacrebleu_signature(res: Result) -> str | None:
    """sacreBLEU's own signature of the metric (``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``),
    which MT readers look for; None for the other metrics."""
    if res.metric not in ("bleu", "chrf"):
        return None
    from sacrebleu.metrics import BLEU, CHRF

    known = {"bleu": BLEU, "chrf": CHRF}[res.metric]
    options = {k: v for k, v in res.options.items() if k in inspect.signature(known).parameters}
    metric = known(**options)
    metric.num_refs = res.signature_fields.references or 1
    return metric.get_signature().format()


def signature_footnote(signature: str, sacrebleu: str | None = None) -> str:
    r"""``\footnote{Computed with sigcore \citep{sigcore}; its signature: \texttt{...}}``, ragged right and breakable
    after each ``|``, ``,`` and ``(`` so that it fits a column."""
    def tt(text: str) -> str:
        parts = re.split(r"(?<=[|,(])", text)
        # cmtt has a | of its own in every encoding; \textbar would be taken from another font without T1
        return "\\texttt{" + "\\allowbreak{}".join(export.latex_escape(p).replace(r"\textbar{}", "|")
                                                     for p in parts) + "}"
    extra = f" sacreBLEU signature: {tt(sacrebleu)}." if sacrebleu else ""
    return (f"\\footnote{{\\raggedright Computed with sigcore \\citep{{{citations.TOOL}}}; "
            f"its signature: {tt(signature)}.{extra}}}")


def figure_tex(name: str, caption: str, label: str, folder: str, *, wide: bool = False) -> str:
    r"""A ``figure`` float that places ``name`` at its own size (drawn at the venue's width: never scaled); ``wide``:
    ``figure*``, across a two-column page's columns (a figure drawn at its text width)."""
    env = "figure*" if wide else "figure"
    return (_HEAD % folder + "% needs \\usepackage{graphicx}\n"
            f"\\begin{{{env}}}[{PLACEMENT}]\n  \\centering\n  \\includegraphics{{\\sigcoredir {name}}}\n"
            f"  \\caption{{{caption}}}\n  \\label{{{label}}}\n\\end{{{env}}}\n")


def text_tex(text: str, footnote: str, folder: str) -> str:
    return _HEAD % folder + text.rstrip() + footnote + "\n"


def for_result(res: Result, *, a: str, b: str, command: str, venue: str = DEFAULT_VENUE, folder: str = "sigcore",
               draw: Callable[[Result], bytes] | None = None) -> Entry:
    """A pair's entry: sentence, table, histogram (``draw`` renders it; None: no figure), JSON, citations."""
    name = pair_stem(res, a, b)
    sacre = sacrebleu_signature(res)
    files = {f"{name}-sentence.tex": text_tex(export.sentence_latex(res, a=a, b=b),
                                             signature_footnote(res.signature, sacre), folder),
             f"{name}-table.tex": export.verdict_latex(res, a=a, b=b, venue=venue),  # as --latex and the app
             f"{name}.json": records.dumps(records.pair(res, distribution=True, a_name=a, b_name=b))}
    notes = _figure(files, name, draw, res, export.figure_caption(res, "histogram", latex=True), folder) \
        if res.distribution is not None else []
    return Entry(name, _encoded(files), citations.keys_of(res), command, _checklist_pair(res, a, b, name, sacre),
                 [pair_claim(res, a, b)], notes)


def for_claim(c, *, a: str, b: str, command: str, venue: str = DEFAULT_VENUE, folder: str = "sigcore",
              draw: Callable[[Any], bytes] | None = None) -> Entry:
    """A non-inferiority or equivalence claim's entry (:class:`sigcore.claims.Claim`): its sentence, its table
    (the margin, δ, the bound and p), its figure (the bootstrap's histogram with 2·δ(x) ± Δ, or the t-test's
    bound against the margin), the JSON, the citations; the checklist says the margin belongs to the plan."""
    from . import claim_table

    res = c.result
    name = claim_table.claim_stem(c, a, b)
    sacre = sacrebleu_signature(res)
    files = {f"{name}-sentence.tex": text_tex(export.claim_latex(c, a=a, b=b),
                                             signature_footnote(c.signature, sacre), folder),
             f"{name}-table.tex": claim_table.latex(c, a=a, b=b, venue=venue),
             f"{name}.json": records.dumps(records.claim(c, a=a, b=b, resamples=True))}
    notes = _figure(files, name, draw, c, claim_table.figure_caption(c, latex=True), folder)
    # not a decision on "better", so nothing for conflicts() to weigh against a pair or a family
    return Entry(name, _encoded(files), citations.claim_keys(res.test, res.metric), command,
                 _checklist_claim(c, a, b, name, sacre), [], notes)


def pair_claim(res: Result, a: str, b: str) -> Claim:
    """What a pair reported alone decides."""
    return Claim(res.metric, a, b, res.n_items, res.side if res.significant else 0,
                 f"{res.p_text}, {_side(res.alternative)}, {TEST_NAMES[res.test]}, reported alone")


def family_claims(families: list) -> list[Claim]:
    """What each comparison of a family decides, by its corrected p."""
    from . import family

    return [Claim(f.metric, a, b, f.results[(a, b)].n_items, (f.results[(a, b)].side if f.significant(a, b) else 0),
                  f"corrected p {_relation(f.p_texts(a, b)[1])}, {_side(f.alternative)}, "
                  f"{family.CORRECTION_NAMES[f.correction]} over {len(f.results)} comparisons")
            for f in families for (a, b) in f.results]


def for_family(families: list, *, command: str, venue: str = DEFAULT_VENUE, folder: str = "sigcore",
               columns=None, draw: Callable[[Any], bytes] | None = None) -> Entry:
    """A family's entry (:class:`sigcore.Many`, one per metric): the sentences, the table, a forest plot per
    metric against a baseline (``draw``), the JSON, the citations."""
    from . import family

    first = families[0]
    name = family.family_stem(families)
    res = next(iter(first.results.values()))
    sacre = sacrebleu_signature(res)
    text = " ".join(family.sentence(f, latex=True) for f in families)
    files = {f"{name}-sentence.tex": text_tex(text, signature_footnote(first.signature, sacre), folder),
             f"{name}-table.tex": family.latex(families, venue=venue, columns=columns),
             f"{name}.json": records.dumps(records.family(families))}
    notes = []
    for f in families if first.baseline is not None else []:
        part = name if len(families) == 1 else f"{name}-{stem(f.metric)}"
        notes += _figure(files, part, draw, f, family.forest_caption(f, latex=True), folder)
    claims = family_claims(families)
    keys = list(dict.fromkeys(k for f in families for k in citations.family_keys(f.test, [f.metric], f.correction)))
    return Entry(name, _encoded(files), keys, command, _checklist_family(families, name, sacre), claims, notes)


@dataclass(frozen=True)
class BoardFigure:
    """What a board's paper figure is drawn from: the board and the level and correction of its tie groups."""

    res: Any
    alpha: float
    correction: str


def for_board(res, *, baseline: str, alpha: float, correction: str, over: str, command: str,
              venue: str = DEFAULT_VENUE, folder: str = "sigcore", draw: Callable[[Any], bytes] | None = None) -> Entry:
    """Models on many tasks (:class:`sigcore.leaderboard.Leaderboard`): the sentence, the task x model table
    marked against ``baseline`` (``over``: the correction over the family or within each task), the rank figure,
    the JSON, the citations."""
    from . import board, board_table

    name = board_table.board_stem(res, baseline)
    files = {f"{name}-sentence.tex": text_tex(board.sentence(res, baseline, alpha, correction, latex=True),
                                             signature_footnote(res.signature(alpha, correction)), folder),
             f"{name}-table.tex": board_table.latex(res, baseline, alpha, correction, over=over, venue=venue),
             f"{name}.json": records.dumps(records.board(res, baseline=baseline, alpha=alpha, correction=correction,
                                                         per_task=over, saved=True))}
    on_page = rows_on_page(len(res.board.models), paper_style(venue))[0]  # a page holds the top ones only
    caption = board.figure_caption(res, "ranks", alpha, correction, latex=True, shown=on_page)  # as `figure` says
    notes = _figure(files, name, draw, BoardFigure(res, alpha, correction), caption, folder)
    keys = list(dict.fromkeys([*citations.keys_for_test("bootstrap", "mean"), *board_table.keys(correction)]))
    n = len(res.board.models)
    checklist = (f"## {name}\n\n- **C3** (descriptive statistics): {n} models on {len(res.board.tasks)} tasks "
                 f"({sum(len(i) for i in res.board.items.values()):,} items), each model's aggregate with its "
                 f"{1 - alpha:.0%} interval, its rank interval and δ against {baseline} with its interval and "
                 f"corrected p (Table \\ref{{tab:{name}}}); {_correction(correction)} over {n - 1} comparisons on "
                 f"the aggregate, and over the "
                 f"{'family of tasks x models' if over == 'family' else 'models within each task'} "
                 f"per task.\n- **C4** (packages and settings): {_tool()}: paired bootstrap stratified by task, "
                 f"two-sided, α = {alpha:g}, b = {res.n_resamples:,}, seed {res.seed}; the full signature is the "
                 f"sentence's footnote.\n")
    return Entry(name, _encoded(files), keys, command, checklist, [], notes)


def _correction(correction: str) -> str:
    from .family import CORRECTION_NAMES

    return f"{CORRECTION_NAMES[correction]}'s correction"




def for_seeds(res, *, a: str, b: str, command: str, venue: str = DEFAULT_VENUE, folder: str = "sigcore") -> Entry:
    """Runs of two systems over seeds (:class:`sigcore.seeds.SeedsResult`): sentence, table, citations."""
    from . import seeds

    name = seeds.seeds_stem(res, a, b)
    files = {f"{name}-sentence.tex": text_tex(seeds.sentence_latex(res, a=a, b=b),
                                             signature_footnote(res.signature), folder),
             f"{name}-table.tex": seeds.table_latex(res, a=a, b=b, venue=venue),
             f"{name}.json": records.dumps(records.seeds(res, a=a, b=b))}
    decision = res.side if res.significant else 0
    claim = Claim(res.metric, a, b, res.n_items, decision,
                  f"{res.p_text}, {_side(res.alternative)}, bootstrap over items and runs")
    keys = [*citations.keys_for_test("bootstrap", res.metric), *citations.metric_keys(res.metric)]
    return Entry(name, _encoded(files), keys, command, _checklist_seeds(res, a, b, name), [claim])


def for_aso(table, scores: dict, *, command: str, tau: float, venue: str = DEFAULT_VENUE,
            folder: str = "sigcore") -> Entry:
    """ASO over per-seed scores (:func:`sigcore.statistics.multi_aso`'s table): sentence, table, citations."""
    from . import seeds

    name = seeds.aso_stem(table)
    files = {f"{name}-sentence.tex": text_tex(seeds.aso_sentence(table, scores, tau=tau, latex=True),
                                             signature_footnote(table_signature(table).text), folder),
             f"{name}-table.tex": seeds.aso_latex(table, scores, tau=tau, venue=venue),
             f"{name}.json": records.dumps(records.aso(table, scores, tau=tau))}
    k = min(len(v) for v in scores.values())
    checklist = (f"## {name}\n\n- **C3** (descriptive statistics): ε_min of every pair of systems over their runs "
                 f"({k}+ seeds each), Table \\ref{{tab:{name}}}: ASO compares the distributions of the runs' scores, "
                 "so no single run is reported.\n- **C4** (packages and settings): " + _tool() + f"; ASO as deepsig "
                 f"computes it, confidence {table.attrs['confidence_level']:.4g} (after Bonferroni over "
                 f"{table.attrs['num_comparisons']} pairs), b = {table.attrs['n_bootstrap']:,}, seed "
                 f"{table.attrs['seed']}, τ = {tau:g}.\n")
    return Entry(name, _encoded(files), list(citations.ASO), command, checklist, [])


def _figure(files: dict, name: str, draw, what, caption: str, folder: str) -> list[str]:
    """Draw ``what`` into ``files`` as NAME-figure.pdf with its .tex; a figure that cannot be drawn is a note."""
    if draw is None:
        return []
    try:
        files[f"{name}-figure.pdf"] = draw(what)
    except SettingsError as e:
        if isinstance(what, BoardFigure):  # no JSON of its resamples to redraw it from
            return [f"no figure for {name}: {e}"]
        if _is_claim(what):  # `sigcore figure` draws results, not claims: the folder's command redraws it
            return [f"no figure for {name}: {e} Draw it later by running its line of {REPRODUCE} with "
                    "--paper DIR where figures can be drawn."]
        kind = "histogram" if isinstance(what, Result) else f"forest --metric {what.metric}"
        return [f"no figure for {name}: {e} Draw it later with: sigcore figure {name}.json --kind {kind} "
                f"--venue VENUE --out {name}-figure.pdf"]
    files[f"{name}-figure.tex"] = figure_tex(f"{name}-figure.pdf", caption, f"fig:{name}", folder)
    return []


def _is_claim(what) -> bool:
    from ..claims import Claim as Tested

    return isinstance(what, Tested)


def _encoded(files: dict[str, str | bytes]) -> dict[str, bytes]:
    return {k: v.encode("utf-8") if isinstance(v, str) else v for k, v in files.items()}


def _relation(p: str) -> str:
    """"= 0.083" or "< 0.0015": a p as printed, after "p"."""
    return p if p.startswith("<") else f"= {p}"


def _side(alternative: str) -> str:
    return "two-sided" if alternative == "two-sided" else "one-sided"


def _tool() -> str:
    return f"sigcore {__version__} (cite it: `sigcore` in {BIB})"


def _checklist_pair(res: Result, a: str, b: str, name: str, sacre: str | None) -> str:
    a, b = md_escape(a), md_escape(b)  # checklist.md is Markdown: a name cannot start a heading of its own
    interval = ("δ with its " + (f"{res.confidence_level:.0%} interval" if res.ci_side == "two-sided" else
                                 f"one-sided {res.confidence_level:.0%} bound")
                if res.estimand == "delta" and res.ci_low == res.ci_low else "the test's estimate")
    metric = f"; {METRIC_NAMES[res.metric]} by sacreBLEU, signature `{sacre}`" if sacre else ""
    b_text = f", b = {res.n_resamples:,}, seed {res.seed}" if res.resampled else ""
    return (f"## {name}\n\n- **C3** (descriptive statistics): {a} and {b} with their scores and {interval} on "
            f"{res.n_items:,} items (Table \\ref{{tab:{name}}}); p from the {TEST_NAMES[res.test]}. "
            "Each system is a single run (one output file each): say so, or report runs over seeds with "
            "`sigcore seeds`.\n"
            f"- **C4** (packages and settings): {_tool()}: {TEST_NAMES[res.test]}, {res.alternative}, α = {res.alpha:g}"
            f"{b_text}{metric}; the full signature is the sentence's footnote.\n")


def _checklist_claim(c, a: str, b: str, name: str, sacre: str | None) -> str:
    from ..signature import margin_text

    res, a, b = c.result, md_escape(a), md_escape(b)
    bound = (f"its one-sided {c.level:.0%} lower bound" if c.kind == "non-inferior" else
             f"its {c.level:.0%} interval (two one-sided tests)")
    said = (f"{a} is no worse than {b} by more than Δ = {margin_text(c.margin)}" if c.kind == "non-inferior" else
            f"{a} and {b} are equivalent within ±{margin_text(c.margin)}")
    metric = f"; {METRIC_NAMES[res.metric]} by sacreBLEU, signature `{sacre}`" if sacre else ""
    b_text = f", b = {res.n_resamples:,}, seed {res.seed}" if res.resampled else ""
    return (f"## {name}\n\n- **C3** (descriptive statistics): the claim that {said} "
            f"{METRIC_NAMES.get(res.metric, res.metric)}, on {res.n_items:,} items: the margin, δ with {bound} and p "
            f"(Table \\ref{{tab:{name}}}); p from the {TEST_NAMES[res.test]}. Each system is a single run (one "
            "output file each): say so, or report runs over seeds with `sigcore seeds`.\n"
            f"- **C4** (packages and settings): {_tool()}: {TEST_NAMES[res.test]}, {c.kind} with margin "
            f"{margin_text(c.margin)}, α = {c.alpha:g}{b_text}{metric}; the full signature is the sentence's "
            "footnote.\n"
            f"- **The margin** Δ = {margin_text(c.margin)} must have been fixed before seeing the data (in the plan, "
            "with α): a margin chosen afterwards, just wide enough for the bound, makes the claim hold by "
            "construction. Say when and why it was chosen (the difference that does not matter for the use at "
            "hand).\n")


def _checklist_family(families: list, name: str, sacre: str | None) -> str:
    from .family import CORRECTION_NAMES

    first = families[0]
    res = next(iter(first.results.values()))
    metric = f"; {METRIC_NAMES[res.metric]} by sacreBLEU, signature `{sacre}`" if sacre else ""
    b_text = f", b = {res.n_resamples:,}, seed {res.seed}" if res.resampled else ""
    against = (f"{len(first.systems) - 1} systems against {md_escape(first.baseline)}" if first.baseline else
               f"every pair of {len(first.systems)} systems")
    return (f"## {name}\n\n- **C3** (descriptive statistics): {against} on "
            f"{res.n_items:,} items, with scores, δ and its {res.confidence_level:.0%} interval per comparison "
            f"(Table \\ref{{tab:{name}}}); significance after {CORRECTION_NAMES[first.correction]}'s correction over "
            f"{len(first.results)} comparisons. Each system is a single run: say so, or report runs over seeds.\n"
            f"- **C4** (packages and settings): {_tool()}: {TEST_NAMES[first.test]}, {first.alternative}, "
            f"α = {first.alpha:g}{b_text}{metric}; the full signature is the sentence's footnote.\n")


def _checklist_seeds(res, a: str, b: str, name: str) -> str:
    a, b = md_escape(a), md_escape(b)
    return (f"## {name}\n\n- **C3** (descriptive statistics): the mean over {len(res.scores_a)} runs of {a} and "
            f"{len(res.scores_b)} of {b} (seeds), with the range over runs and δ's {res.level} interval with the "
            f"seeds' variance and from the items alone (Table \\ref{{tab:{name}}}): not the best run.\n"
            f"- **C4** (packages and settings): {_tool()}: paired bootstrap over items and runs, {res.alternative}, "
            f"α = {res.alpha:g}, b = {res.n_resamples:,}, seed {res.seed}; the full signature is the sentence's "
            "footnote.\n")


# ---------------------------------------------------------------- the folder


def conflicts(claims: dict[str, list[Claim]]) -> list[str]:
    """Where two stems decide the same pair on the same metric differently: a pair reported alone (often
    one-sided) that its corrected family leaves unmarked, or the reverse. Each says which claim should lead."""
    out = []
    stems = list(claims)
    for i, one in enumerate(stems):
        for other in stems[i + 1:]:
            for c in claims[one]:
                for d in claims[other]:
                    if (d.metric, d.items) != (c.metric, c.items) or {d.a, d.b} != {c.a, c.b}:
                        continue
                    d = d if d.a == c.a else d.reversed()
                    if d.decision != c.decision:
                        out.append(f"{one} and {other} decide {c.a} against {c.b} on "
                                   f"{METRIC_NAMES.get(c.metric, c.metric)} differently: "
                                   f"{_decided(c)} in {one} ({c.how}), {_decided(d)} in {other} ({d.how}). Say "
                                   "which claim is primary: a pair that is one of a family's comparisons is "
                                   "decided by the family's corrected p.")
    return out


def in_family(claim: Claim, families: list, name: str) -> str:
    """What a pair reported alone is as one of ``families``' comparisons (a family saved by ``many --save`` or a
    paper folder's JSON, called ``name``): which claim leads, and, where the two decide differently, a warning
    (starting "warning: "). A SettingsError when no comparison of the family is this pair on its test set."""
    for c in family_claims(families):
        if (c.metric, c.items) == (claim.metric, claim.items) and {c.a, c.b} == {claim.a, claim.b}:
            c = c if c.a == claim.a else c.reversed()
            if c.decision != claim.decision:
                return "warning: " + conflicts({"this comparison": [claim], name: [c]})[0]
            return (f"family: {name} decides it the same ({_decided(c)}: {c.how}); report it as one of the "
                    "family's comparisons, whose corrected p is the primary claim")
    pairs = sorted({f"{c.a} against {c.b} on {c.metric} ({c.items:,} items)" for c in family_claims(families)})
    raise SettingsError(f"{name} holds no comparison of {claim.a} and {claim.b} on {claim.metric} over "
                        f"{claim.items:,} items", hint="It holds: " + "; ".join(pairs[:6])
                        + ("; …" if len(pairs) > 6 else "") + ". Name the systems as the family does (--name).")


def _decided(c: Claim) -> str:
    return {1: f"{c.a} significantly better", -1: f"{c.a} significantly worse", 0: "not significant"}[c.decision]


_CLAIM = {"metric": str, "a": str, "b": str, "items": int, "decision": int, "how": str}  # as Claim's fields


def _claims(stem: str, records: list[dict], where: str, hint: str) -> list[Claim]:
    """A manifest's claims of ``stem``, checked: the fields of :class:`Claim`, no other, each of its type."""
    out = []
    for i, c in enumerate(records, 1):
        unknown, missing = sorted(set(c) - set(_CLAIM)), [k for k in _CLAIM if k not in c]
        wrong = next((k for k, kind in _CLAIM.items() if k in c and type(c[k]) is not kind), None)  # bool: not int
        what = (f"has a key sigcore does not write: {shown(unknown[0])}" if unknown else f'lacks "{missing[0]}"'
                if missing else f'"{wrong}" is {shown(c[wrong])}, '
                f'not {"text" if _CLAIM[wrong] is str else "an integer"}'
                if wrong else "has a decision other than -1, 0 or 1" if c["decision"] not in (-1, 0, 1) else
                "has a negative number of items" if c["items"] < 0 else "")
        if what:
            raise InputError(f"stem {stem}, claim {i} {what}", file=where, hint=hint)
        out.append(Claim(**c))
    return out


def _merged(entry: Entry, existing: dict[str, bytes], path: Callable[[str], str], hint: str,
            replace: bool) -> tuple[dict[str, bytes], dict[str, str], dict[str, list[Claim]]]:
    """The files ``entry`` writes into a folder that holds ``existing`` (the shared files merged; manifest.json
    last), those of them that replace a file sigcore did not write (by name, with why: refused unless
    ``replace``), and every stem's claims. ``path``: how a message names a file of the folder."""
    replaced: dict[str, str] = {}
    try:
        m = folder.manifest(existing.get(MANIFEST), path(MANIFEST), hint)
        claims = {s: _claims(s, e["claims"], path(MANIFEST), hint) for s, e in m.stems.items()}
    except InputError as e:
        if not replace:
            raise
        m, claims, replaced[MANIFEST] = folder.Manifest(), {}, e.what  # a new one: the others' files stay
    try:
        bib = existing.get(BIB, b"").decode("utf-8")
    except UnicodeDecodeError as e:
        if not replace:
            raise InputError(f"is not UTF-8 text (byte {e.start + 1}), so sigcore cannot add its references",
                             file=path(BIB), hint=hint) from None
        bib, replaced[BIB] = "", "not UTF-8 text"
    stems = {**m.stems, entry.stem: {"files": sorted(entry.files), "claims": [c.__dict__ for c in entry.claims],
                                     "command": entry.command, "checklist": entry.checklist}}
    claims[entry.stem] = entry.claims
    files = dict(entry.files)
    files[BIB] = merge_bib(bib, entry.keys).encode("utf-8")
    # a name from a file system that is not UTF-8 goes back as its own bytes
    files[REPRODUCE] = folder.script(stems).encode("utf-8", "surrogateescape")
    files[CHECKLIST] = folder.checklist(stems, conflicts(claims)).encode("utf-8", "surrogateescape")
    refused = folder.not_ours(existing, m, files)
    if refused and not replace:
        raise SettingsError("sigcore would replace " + ", ".join(f"{n} ({why})" for n, why in refused.items())
                            + "; it replaces only the files it wrote, as it wrote them", file=path(""), hint=hint)
    replaced.update(refused)
    files[MANIFEST] = folder.manifest_bytes(folder.Manifest(stems, {**m.sums, **{
        n: folder.sha256(c) for n, c in files.items()}}))
    return files, replaced, claims


@dataclass
class Written:
    """What :func:`write` did: the files it wrote, the shared ones it merged this entry into, the files it replaced
    with ``replace`` (why each was not sigcore's) and the warnings (:func:`conflicts`, what could not be made)."""

    wrote: list[str]
    merged: list[str]
    replaced: dict[str, str]
    warnings: list[str]


_SHARED = (BIB, REPRODUCE, CHECKLIST, MANIFEST)
_REPLACE = "Nothing was written. Give another folder (--paper OTHER), or add --replace to replace it."


def write(where: str | Path, entry: Entry, *, replace: bool = False) -> Written:
    """Write ``entry`` into the folder ``where`` (made if missing), merging the shared files (:mod:`.folder`: only
    inside it, never through a link, never over a file sigcore did not write unless ``replace``)."""
    existing = folder.read(where, [*entry.files, *_SHARED])
    files, replaced, claims = _merged(entry, existing, lambda name: str(Path(where) / name), _REPLACE, replace)
    folder.write(where, files, executable=[REPRODUCE])
    return Written([n for n in files if n not in _SHARED or n not in existing], [n for n in _SHARED if n in existing],
                   replaced, [w for w in conflicts(claims) if entry.stem in w] + list(entry.notes))


ZIP_LIMIT = 50 * 2**20  # bytes a paper folder's zip may unpack to: its figures are PDFs of tens of kilobytes


def unzipped(data: bytes, name: str = "the paper folder's zip") -> dict[str, bytes]:
    """The files of a paper folder's zip (:func:`zipped`), by name, read in memory; an InputError that says what
    is wrong with anything else (not a zip, no ``sigcore/`` folder, nested folders, too large)."""
    fix = "Give the .zip that the app's \"Paper folder (.zip)\" downloaded, as it was downloaded."
    try:
        members = archives.members(data, name)
    except InputError:
        raise InputError("not a zip file", file=name, hint=fix) from None
    if not members or any(not m.filename.startswith("sigcore/") or "/" in m.filename[8:] for m in members):
        raise InputError("not a paper folder: its files must all be in one folder, sigcore/", file=name, hint=fix)
    if sum(m.file_size for m in members) > ZIP_LIMIT:  # as declared: the reading below counts what is inflated
        raise InputError(f"unpacks to more than {ZIP_LIMIT >> 20} MB, more than a paper folder holds", file=name,
                         hint=fix)
    try:
        with archives.total(name, ZIP_LIMIT):
            return {m.filename[8:]: archives.read_member(data, m, name, ZIP_LIMIT) for m in members}
    except InputError as e:  # CRC, encryption, a method, a member larger than declared
        raise InputError(f"cannot be read ({e.what})", file=name, hint=fix) from None


def zipped(entry: Entry, earlier: dict[str, bytes] | None = None, *, replace: bool = False,
           name: str = "the earlier paper folder's zip") -> bytes:
    """The entry as a paper folder in a zip, for a download (nothing is written to disk); with ``earlier``
    (:func:`unzipped`, from the zip ``name``), that folder's files with this entry merged into them, as ``--paper``
    merges, under the same rule: a file sigcore did not write is not replaced unless ``replace``."""
    earlier = earlier or {}
    merged = _merged(entry, earlier, lambda file: f"{name}, sigcore/{file}".rstrip("/"),
                     'Give the .zip as it was downloaded, or tick "Replace them".', replace)[0]
    files = {**earlier, **merged}
    if entry.notes:  # a download cannot say it on the page: the folder says what is not in it
        files[MISSING] = "".join(f"{note}\n" for note in [*earlier.get(MISSING, b"").decode(errors="replace")
                                                             .splitlines(), *entry.notes]).encode("utf-8")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in sorted(files.items()):
            info = zipfile.ZipInfo(f"sigcore/{name}", date_time=(1980, 1, 1, 0, 0, 0))  # the same bytes each time
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if name == REPRODUCE else 0o644) << 16
            z.writestr(info, content)
    return out.getvalue()


def drawer(venue: str = DEFAULT_VENUE, a: str = "A", b: str = "B") -> Callable[[Any], bytes]:
    """What draws an entry's figure: a result's histogram (its systems named ``a`` and ``b``) or a family's forest
    plot, at ``venue``'s column width, as a PDF; a SettingsError when plotly or kaleido cannot (the entry then
    says so)."""
    def draw(what) -> bytes:
        try:
            from ..many import Many
            from .family_figures import forest
            from .figures import figure
        except ModuleNotFoundError as e:
            raise SettingsError(f"figures need {e.name or 'plotly'}, which is not installed",
                                hint='Install sigcore with its figures: pip install "sigcore[figures]".') from None
        style = paper_style(venue)
        if _is_claim(what):
            from .figures import claim_figure

            return export.styled_image(claim_figure(what, style=style, a=a, b=b), "pdf", style)
        if isinstance(what, BoardFigure):
            from .board_figures import paper_ranks

            return export.styled_image(paper_ranks(what.res, what.alpha, what.correction, style), "pdf", style)
        fig = forest(what, style=style) if isinstance(what, Many) else figure(what, "histogram", style=style, a=a, b=b)
        return export.styled_image(fig, "pdf", style)
    return draw
