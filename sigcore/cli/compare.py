"""sigcore compare: is A better than B on the same items? The test the data call for (or the one named), a
non-inferiority or equivalence claim, or an anytime-valid sequence; as text, JSON, LaTeX, BibTeX or a paper folder."""

from __future__ import annotations

import os
import sys
from dataclasses import asdict

from .. import METRICS, TESTS, compare, report
from ..comparison import AUTO, COMPAT, chosen_test
from ..effects import effect_sizes
from ..errors import InputError, SettingsError
from ..many import Many
from ..metrics import direction
from ..report import citations, claim_table, claim_text, export, paper, records, reproduce, sentence
from ..result import refuse_lower
from .inputs import decisions, engine_inputs, read_saved, shown_names
from .options import (
    FLAGS,
    alpha_option,
    alternative_option,
    budget_option,
    data_arguments,
    higher,
    level,
    paper_option,
    prog,
    resamples_option,
    seed_option,
    venue_option,
)
from .running import folder_name, progress, write, write_paper

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    cmp = commands.add_parser("compare", help="test A against B",
                              description="Test whether system A beats system B on the same items.")
    cmp.set_defaults(run=run)
    data_arguments(cmp)
    cmp.add_argument("--test", default=AUTO, choices=[AUTO, *TESTS],
                     help="the test (default: auto, the one recommended for these data; `sigcore advise` says why)")
    resamples_option(cmp)
    alternative_option(cmp, "H1, chosen before looking at the data: two-sided = they differ (default), greater = A "
                            "better, less = B better (one-sided)")
    claim = cmp.add_mutually_exclusive_group()
    claim.add_argument("--non-inferior", type=float, metavar="DELTA",
                       help="test instead that A is no worse than B by more than DELTA on the metric's scale "
                            "(0.5 for BLEU points, 0.01 for accuracy): one-sided, H0 δ <= -DELTA; choose DELTA "
                            "before seeing the data, as a side is chosen")
    claim.add_argument("--equivalent", type=float, metavar="DELTA",
                       help="test instead that A and B are within ±DELTA (two one-sided tests)")
    cmp.add_argument("--sequential", action="store_true",
                     help="an anytime-valid comparison instead: the confidence sequence for δ over the items in "
                          "file order (the order they were evaluated), and the first item from which it excludes 0 "
                          "(or, with --non-inferior DELTA, -DELTA): valid however often it is looked at")
    cmp.add_argument("--score-range", type=float, nargs=2, metavar=("LOW", "HIGH"),
                     help="with --sequential and --metric mean: the range every per-item score can take")
    seed_option(cmp)
    budget_option(cmp)
    alpha_option(cmp)
    cmp.add_argument(FLAGS["confidence_level"], type=level("confidence_level"),
                     help="confidence level of the intervals (default: 1 - alpha, so they agree with the test)")
    cmp.add_argument("--ci-method", default="basic", choices=["basic", "percentile", "bca", "none"],
                     help="bootstrap interval of delta: basic (the bootstrap test's dual), percentile, bca; none "
                          "skips the extra bootstrap the permutation test needs for it")
    cmp.add_argument("--chi-square", action="store_true",
                     help="McNemar's chi-square with continuity correction instead of the exact binomial test")
    cmp.add_argument("--compat", choices=COMPAT, help="reproduce another tool's two-sided definitions")
    out = cmp.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument("--latex", action="store_true",
                     help="print the sentence for a paper's text (\\citep, math mode) and a booktabs table with a "
                          "short caption")
    out.add_argument("--bibtex", action="store_true", help="print BibTeX for every method the result relies on")
    venue_option(cmp)
    cmp.add_argument("--save", metavar="RESULT.json",
                     help="also write the result with its resampled values, for `sigcore figure`")
    paper_option(cmp)
    cmp.add_argument("--family", metavar="FAMILY.json",
                     help="this pair is one of the comparisons of a family saved by `many --save` (or a paper "
                          "folder's JSON): say which claim leads, and warn where the two decide differently")


def run(args) -> int:
    data, (gold, sys_a, sys_b, metric), options, note = engine_inputs(args)
    ci_method = None if args.ci_method == "none" else args.ci_method
    if args.bibtex and not (args.paper or args.save):  # the references need the test's name, not its run
        if args.sequential:
            print(citations.bibtex(citations.SEQUENTIAL), end="")
            return 0
        if args.non_inferior is not None or args.equivalent is not None:  # the claim's test: the bootstrap or t
            print(citations.bibtex(citations.claim_keys("bootstrap" if args.test == AUTO else args.test, metric)),
                  end="")
            return 0
        try:
            test = chosen_test(gold, sys_a, sys_b, metric=metric, test=args.test, alpha=args.alpha, groups=data.groups,
                               compat=args.compat, ci_method=ci_method, **options)
        except InputError as e:
            raise data.locate(e) from None
        ci = f"bootstrap-{ci_method}" if test in ("bootstrap", "permutation") and ci_method else "none"
        print(citations.bibtex(citations.pair_keys(test, metric, ci)), end="")
        return 0
    if args.sequential:
        return _sequential(args, data, (gold, sys_a, sys_b, metric), options, note)
    if args.non_inferior is not None or args.equivalent is not None:
        return _claim(args, data, (gold, sys_a, sys_b, metric), options, note)
    try:
        res = compare(gold, sys_a, sys_b, metric=metric, test=args.test, n_resamples=args.resamples,
                      alternative=args.alternative, alpha=args.alpha, confidence_level=args.confidence,
                      seed=args.seed, groups=data.groups, compat=args.compat, exact=not args.chi_square,
                      ci_method=ci_method, budget=args.budget, higher_is_better=higher(args),
                      progress=progress("resampling"), **options)
        why = res.test_reason if res.auto and not args.compat else None  # "": not the first choice
    except InputError as e:
        raise data.locate(e) from None
    effects = effect_sizes(gold, sys_a, sys_b, metric=metric, alternative=res.delta_alternative,
                           confidence_level=res.confidence_level, **options)  # of A − B: H1 as a side of δ
    a_name, b_name = shown_names(args, data.display_names)
    names = {"a_name": a_name, "b_name": b_name}
    test = (f"test: {sentence.test_name(res)}, "
            + (f"as --chi-square asks (the advisor recommends its exact form: {why})" if why and args.chi_square else
               f"recommended for these data: {why} (choose another with --test)" if why else
               "sacrebleu's paired bootstrap (--compat)" if res.auto and args.compat else
               f"the advisor's first resampling test, since --ci-method {args.ci_method} resamples" if res.auto else
               "given with --test"))
    decided = decisions(data, note, args.metric, [test], higher=res.higher_is_better)
    if args.family:
        said = paper.in_family(paper.pair_claim(res, a_name, b_name), _families(args.family), args.family)
        print(said, file=sys.stderr if said.startswith("warning: ") else sys.stdout)
    if args.save:
        write(args.save, records.dumps(records.pair(res, distribution=True, **names)))
        if res.distribution is None:  # said where it is written, not when `figure` refuses it
            print(f"note: {args.save} has no resampled values for `sigcore figure`: "
                  f"{sentence.the(sentence.test_name(res))} is closed-form (--test bootstrap or permutation "
                  "resamples)", file=sys.stderr)
    if args.paper:
        _folder(args, data, res, paper.for_result, a_name, b_name)
    if args.json:
        print(records.dumps(records.pair(
            res, **names, columns=data.columns, roles=[str(r) for r in data.roles],
            metric_reason=note.removeprefix(f"the metric is {args.metric}").lstrip(":, ") if note else "given",
            test_reason=why or ("given" if not res.auto else ""), notes=list(data.notes),
            effect_sizes=[asdict(e) for e in effects])))
        return 0
    if args.bibtex:
        print(citations.bibtex(citations.keys_of(res)), end="")
        return 0
    if args.latex:
        print(f"{export.sentence_latex(res, a=a_name, b=b_name)}\n\n"
              f"{export.verdict_latex(res, a=a_name, b=b_name, venue=args.venue)}", end="")
        return 0
    print("\n".join(decided))
    a, b = (role if name == role else f"{role} ({name})" for name, role in ((a_name, "A"), (b_name, "B")))
    *lines, signature = report.summary(res, a=a, b=b).splitlines()
    if effects:
        lines += ["effect sizes (A − B):", *(f"  {e.text}" for e in effects)]
    text, escaped = reproduce.shown(reproduce.command(
        res, args.files, columns=data.columns, metric=args.metric, by_row=data.by_row, encoding=args.encoding,
        prog=prog()))
    lines += [f"reproduce: {text}", *([f"  ({escaped})"] if escaped else [])]
    print("\n".join([*lines, signature]))  # the signature stays the last line
    return 0


def _families(path: str) -> list[Many]:
    """The families of a JSON that `many --save` (or a paper folder) wrote."""
    hint = "Give the JSON that `sigcore many ... --save FAMILY.json` wrote (or a paper folder's STEM.json of many)."
    record = read_saved(path, ("family",), hint)
    return [Many.from_dict(f) for f in record["families"]]


def _sequential(args, data, inputs, options, note) -> int:
    """compare --sequential: the confidence sequence over the items in file order, where it stopped, its JSON."""
    from .. import sequential
    from ..effects import item_values

    gold, sys_a, sys_b, metric = inputs
    unsupported = [flag for flag, given in (
        ("--equivalent", args.equivalent is not None), ("--test", args.test != AUTO),
        ("--alternative", args.alternative != "two-sided"), ("--group", data.groups is not None),
        ("--compat", args.compat), ("--paper", args.paper), ("--latex", args.latex), ("--save", args.save),
        ("--family", args.family)) if given]
    if unsupported:  # said, not ignored
        raise SettingsError(f"{unsupported[0]} is not taken with --sequential",
                            hint="The sequence is two-sided and item by item; --non-inferior DELTA stops where it "
                                 "passes -DELTA instead of 0.")
    refuse_lower("the confidence sequence (--sequential)", direction(metric, higher(args)), metric,
                 hint="Compare without --sequential, or give per-item scores on which higher is better.")
    if not METRICS[metric].decomposable:
        raise SettingsError(f"--sequential needs a mean of per-item values, and {metric} is not one",
                            hint="Accuracy, exact match and per-item scores (--metric mean) are means; a corpus "
                                 "metric (BLEU, F1) has no per-item value to accrue.")
    if METRICS[metric].binary:
        low, high = 0.0, 1.0
    elif args.score_range:
        low, high = args.score_range
    else:
        raise SettingsError("--sequential needs the range the per-item scores can take",
                            hint="Give --score-range LOW HIGH (0 1 for scores between 0 and 1): the sequence is valid "
                                 "for bounded scores, and a range read off the data would not be.")
    try:
        res = sequential.run(*item_values(gold, sys_a, sys_b, metric=metric, **options), alpha=args.alpha,
                             low=low, high=high, margin=args.non_inferior or 0.0)
    except InputError as e:
        raise data.locate(e) from None
    a_name, b_name = shown_names(args, data.display_names)
    if args.json:
        print(records.dumps(records.sequence(res, low=low, high=high, a=a_name, b=b_name)))
        return 0
    print("\n".join(decisions(data, note, args.metric, ["test: a confidence sequence, item by item in file order"])))
    print(sequential.sentence(res, a_name, b_name))
    return 0


def _claim(args, data, inputs, options, note) -> int:
    """compare --non-inferior / --equivalent: the claim's sentence, or its JSON."""
    from .. import claims

    kind, margin = ("non-inferior", args.non_inferior) if args.non_inferior is not None else \
        ("equivalent", args.equivalent)
    unsupported = [flag for flag, given in (
        ("--alternative", args.alternative != "two-sided"), ("--confidence", args.confidence is not None),
        ("--compat", args.compat), ("--save", args.save), ("--family", args.family),
        ("--chi-square", args.chi_square)) if given]
    if unsupported:  # said, not ignored
        raise SettingsError(f"{unsupported[0]} is not taken with --{kind}",
                            hint="A claim has its own side and level: the bound is one-sided at 1 - alpha "
                                 "(non-inferiority) or the 1 - 2 alpha interval (equivalence).")
    gold, sys_a, sys_b, metric = inputs
    try:
        c = claims.claim(gold, sys_a, sys_b, kind=kind, margin=margin, metric=metric,
                         test="bootstrap" if args.test == AUTO else args.test, alpha=args.alpha,
                         n_resamples=args.resamples, seed=args.seed, groups=data.groups,
                         higher_is_better=higher(args), **options)
    except InputError as e:
        raise data.locate(e) from None
    a_name, b_name = shown_names(args, data.display_names)
    if args.paper:  # as a comparison's folder, with the claim's flags in reproduce.sh
        _folder(args, data, c, paper.for_claim, a_name, b_name)
    if args.json:
        print(records.dumps(records.claim(c, a=a_name, b=b_name, roles=[str(r) for r in data.roles],
                                          notes=list(data.notes))))
        return 0
    if args.bibtex:  # with --paper: the references after the run
        print(citations.bibtex(citations.claim_keys(c.result.test, metric)), end="")
        return 0
    if args.latex:  # the sentence for the text, then the table, as the paper folder writes it
        print(f"{export.claim_latex(c, a=a_name, b=b_name)}\n\n"
              f"{claim_table.latex(c, a=a_name, b=b_name, venue=args.venue)}", end="")
        return 0
    print("\n".join(decisions(data, note, args.metric, [f"test: {sentence.test_name(c.result)}, for the claim"])))
    print(claim_text.sentence(c, a_name, b_name))
    print(c.signature)  # the last line, as a comparison's
    return 0


def _folder(args, data, found, entry, a_name: str, b_name: str) -> None:
    """The paper folder of a comparison or a claim (``entry``: paper.for_result or for_claim), its reproduce.sh
    naming the files as seen from inside the folder, where it runs."""
    here = {f: os.path.relpath(f, args.paper) for f in args.files}
    command = reproduce.command(found, list(here.values()), columns={k: here.get(v, v) for k, v in
                                data.columns.items()}, metric=args.metric, by_row=data.by_row, encoding=args.encoding)
    write_paper(args, entry(found, a=a_name, b=b_name, command=command, venue=args.venue,
                            folder=folder_name(args.paper), draw=paper.drawer(args.venue, a_name, b_name)))
