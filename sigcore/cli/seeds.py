"""sigcore seeds: two or more systems over several seeds: Almost Stochastic Order over per-seed scores (deepsig's
ASO), or, from each run's output files, the paired bootstrap over items and runs."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import METRICS, compare_seeds, statistics
from ..contract import DEFAULT_RESAMPLES
from ..errors import SettingsError
from ..io import results
from ..io.inputs import read
from ..io.pairing import from_system_files
from ..io.roles import names_of
from ..report import citations, paper, records, reproduce
from ..report import seeds as seeds_report
from ..words import in_text
from .inputs import shown_names, suggest_metric
from .options import (
    FLAGS,
    alpha_option,
    alternative_option,
    budget_option,
    level,
    paper_option,
    resamples_option,
    seed_option,
    venue_option,
)
from .running import folder_name, progress, write_paper

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    seeds = commands.add_parser("seeds", help="Almost Stochastic Order over per-seed scores (deepsig's ASO)",
                                description="ε_min of every pair, row better than column, from per-seed scores.")
    seeds.set_defaults(run=run)
    seeds.add_argument("file", metavar="FILE", nargs="?", help="a table: a column per system and a row per seed, "
                                                               "or the columns system and score (and seed)")
    seeds.add_argument("--gold", metavar="GOLD", help="with --a and --b: the gold file of per-seed output files")
    seeds.add_argument("--a", nargs="+", metavar="RUN", help="system A's output files, one per seed")
    seeds.add_argument("--b", nargs="+", metavar="RUN", help="system B's output files, one per seed")
    seeds.add_argument("--metric", help=f"with --a/--b: one of {', '.join(METRICS)} (default: the first that fits the "
                                        "runs, as the app suggests)")
    alternative_option(seeds, "with --a/--b: H1 (default: two-sided, they differ)")
    alpha_option(seeds)
    seeds.add_argument(FLAGS["confidence_level"], type=level("confidence_level"), default=0.95)
    seeds.add_argument(FLAGS["tau"], type=level("tau"), default=0.2, help="ε_min below it reads as 'almost "
                                                                          "stochastically dominant' (default 0.2)")
    seeds.add_argument("--no-bonferroni", action="store_true", help="do not correct for the k(k - 1)/2 pairs")
    resamples_option(seeds, help="bootstrap resamples b: of items and runs with --a/--b, of ASO's quantile functions "
                                 f"otherwise (default {DEFAULT_RESAMPLES:,} as everywhere; deepsig's default is 1,000)")
    seed_option(seeds)
    budget_option(seeds)
    seeds.add_argument("--name", action="append", metavar="SYSTEM=NAME", default=[],
                       help="the name a system is printed with: a column of the table, or A and B with --a/--b "
                            "(e.g. --name A=Ours); repeat for others")
    shown = seeds.add_mutually_exclusive_group()
    shown.add_argument("--latex", action="store_true",
                       help="print the sentence for a paper's text and a booktabs table")
    shown.add_argument("--bibtex", action="store_true", help="print BibTeX for the methods instead")
    shown.add_argument("--json", action="store_true", help="print the result as JSON (kind aso for a table of scores, "
                                                          "seeds with --a/--b)")
    venue_option(seeds)
    paper_option(seeds)


def run(args) -> int:
    if args.bibtex and not args.a and not args.paper:  # ASO
        print(citations.bibtex(citations.ASO), end="")
        return 0
    if args.a or args.b:  # per-seed output files: the bootstrap over items and runs
        return _seed_runs(args)
    if not args.file:
        raise SettingsError("give a table of per-seed scores, or --a and --b with the runs' output files")
    scores, notes = results.seed_scores(read(args.file))
    for note in notes:
        print(f"note: {note}", file=sys.stderr if args.json else sys.stdout)
    scores = dict(zip(shown_names(args, list(scores)), scores.values()))
    table = statistics.multi_aso(scores, confidence_level=args.confidence, bonferroni=not args.no_bonferroni,
                                 n_bootstrap=args.resamples, seed=args.seed, budget=args.budget,
                                 progress=progress("ASO over the pairs"))
    if args.paper:
        settings = {"--confidence": [repr(args.confidence)], "--tau": [repr(args.tau)], "--resamples": [args.resamples],
                    "--seed": [args.seed]}
        command = reproduce.rerun(reproduce.PROG, args.argv, settings, args.arity, base=args.paper)
        write_paper(args, paper.for_aso(table, scores, command=command, tau=args.tau, venue=args.venue,
                                        folder=folder_name(args.paper)))
    if args.json:
        print(records.dumps(records.aso(table, scores, tau=args.tau)))
        return 0
    if args.latex:
        print(seeds_report.aso_sentence(table, scores, tau=args.tau, latex=True) + "\n\n"
              + seeds_report.aso_latex(table, scores, tau=args.tau, venue=args.venue), end="")
        return 0
    corrected = not args.no_bonferroni and len(scores) > 2
    print(f"ε_min of 'row better than column' (ASO as deepsig computes it; confidence "
          f"{table.attrs['confidence_level']:.4g}{', Bonferroni over the pairs' if corrected else ''}; "
          f"b = {args.resamples:,}, "
          f"seed {args.seed}):\n")
    print(table.rename(index=in_text, columns=in_text).to_string(float_format="{:.3f}".format, na_rep="—"))
    print(f"\nBelow τ = {args.tau:g}: the row is almost stochastically dominant over the column (deepsig's "
          "recommended threshold, Ulmer et al. 2022); 0: stochastically dominant.")
    for a in table.index:
        for b in table.columns:
            if a != b and table.loc[a, b] < args.tau:
                print(f"  {in_text(a)} over {in_text(b)}: ε_min = {table.loc[a, b]:.3f}")
    print("\n" + seeds_report.aso_sentence(table, scores, tau=args.tau))
    return 0


def _seed_runs(args) -> int:
    """Per-seed output files of A and B: the paired bootstrap over items and runs."""
    if not (args.a and args.b) or args.file:
        raise SettingsError("give --a and --b (and --gold) with the runs' files, or one table of scores",
                            hint="sigcore seeds --gold gold.txt --a A_seed1.txt A_seed2.txt --b B_seed1.txt ...")
    runs = [read(f) for f in args.a + args.b]
    names = [f"a{i}" for i in range(len(args.a))] + [f"b{i}" for i in range(len(args.b))]
    data = from_system_files(read(args.gold) if args.gold else None, runs, names=names)
    note = suggest_metric(args, data)
    if args.bibtex and not args.paper:  # with output files, the bootstrap over items and runs and the metric's too
        print(citations.bibtex([*citations.ASO, *citations.keys_for_test("bootstrap", args.metric),
                                *citations.metric_keys(args.metric)]), end="")
        return 0
    if note:
        print(f"note: {note}", file=sys.stderr if args.json else sys.stdout)
    outputs = list(data.systems.values())
    res = compare_seeds(data.gold, outputs[:len(args.a)], outputs[len(args.a):], metric=args.metric,
                        n_resamples=args.resamples, alternative=args.alternative, alpha=args.alpha,
                        seed=args.seed, budget=args.budget, progress=progress("resampling items and runs"))
    a, b = shown_names(args, names_of([Path(f).name.split(".")[0] for f in args.a],
                                 [Path(f).name.split(".")[0] for f in args.b]))
    if args.paper:
        settings = {"--metric": [args.metric], "--alternative": [args.alternative], "--alpha": [repr(args.alpha)],
                    "--resamples": [args.resamples], "--seed": [args.seed]}
        command = reproduce.rerun(reproduce.PROG, args.argv, settings, args.arity, base=args.paper)
        write_paper(args, paper.for_seeds(res, a=a, b=b, command=command, venue=args.venue,
                                          folder=folder_name(args.paper)))
    if args.json:
        print(records.dumps(records.seeds(res, a=a, b=b)))
        return 0
    if args.latex:
        print(seeds_report.sentence_latex(res, a=a, b=b) + "\n\n" + seeds_report.table_latex(
            res, a=a, b=b, venue=args.venue), end="")
        return 0
    print(seeds_report.sentence(res, a=a, b=b))
    if variance := seeds_report.variance_sentence(res):
        print(variance)
    return 0
