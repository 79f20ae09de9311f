"""The command line: python -m sigcore compare ...

  python -m sigcore compare TABLE [--gold COL --a COL --b COL] [options]   one table (CSV, TSV, JSON lines,
                                                                            JSON, CoNLL); roles guessed
  python -m sigcore compare GOLD_FILE A_FILE B_FILE [options]               gold (by its name) + a file per system
  python -m sigcore compare A.conll B.conll --metric span_f1                CoNLL files that carry gold
  python -m sigcore compare samples_A.jsonl samples_B.jsonl --metric acc     lm-evaluation-harness logs
  python -m sigcore compare A_SCORES B_SCORES --metric mean                  per-item scores, no gold
  python -m sigcore many REF SYS1 SYS2 ... --baseline NAME | --all-pairs       many systems, corrected
  python -m sigcore many TABLE --metric accuracy --all-pairs                  one column per system
  python -m sigcore seeds SCORES.csv                                          ASO over per-seed scores
  python -m sigcore datasets P_VALUES.csv                                     on how many datasets A wins
  python -m sigcore advise GOLD_FILE A_FILE B_FILE [--metric M]             which test fits, and why
  python -m sigcore power GOLD A B | --n N --accuracy-a ... --agreement ...  how many items
  python -m sigcore figure RESULT.json --kind histogram --out fig.pdf          a figure for a paper
  python -m sigcore metrics | tests                                          what exists

Bad input exits with status 2 and one line saying what, where and how to fix it; never a traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import pandas as pd

from . import (
    ALTERNATIVES,
    METRICS,
    TESTS,
    budget,
    compare,
    compare_many,
    compare_seeds,
    front,
    jsonform,
    power,
    report,
    statistics,
)
from .advisor import advise_family
from .compare import AUTO, COMPAT, chosen_test
from .contract import (
    DEFAULT_ALPHA,
    DEFAULT_ALTERNATIVE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    SIMULATION_RESAMPLES,
    check_alpha,
    check_alternative,
    check_level,
)
from .effects import effect_sizes, item_values
from .errors import InputError, SettingsError, SigcoreError
from .io import results
from .io.aligned import Aligned, AlignedMany, default_baseline
from .io.inputs import FORMATS, read
from .io.loading import load
from .io.pairing import ROW_ORDER, from_files, from_system_files
from .io.roles import GOLD_NAMES, Role, gold_files, names_of
from .io.systems import match_system, system_names
from .many import CORRECTIONS, Many
from .metrics import direction
from .report import citations, claim_table, export, family, paper, records, reproduce, sentence
from .report import seeds as seeds_report
from .report.style import BOARD_KINDS, FIGURE_KINDS, STYLES, rows_on_page, style_named
from .report.venues import DEFAULT as DEFAULT_VENUE
from .report.venues import VENUES
from .result import Result, p_number, refuse_lower
from .words import counted, in_text, printable


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sigcore" if Path(sys.argv[0]).name == "sigcore" else "python -m sigcore",
                                     description="Paired significance tests: does system A beat system B?")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("metrics", help="list the metrics")
    commands.add_parser("tests", help="list the tests")
    cmp = commands.add_parser("compare", help="test A against B",
                              description="Test whether system A beats system B on the same items.")
    _data_arguments(cmp)
    cmp.add_argument("--test", default=AUTO, choices=[AUTO, *TESTS],
                     help="the test (default: auto, the one recommended for these data; `sigcore advise` says why)")
    cmp.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, help=RESAMPLES_HELP)
    cmp.add_argument("--alternative", type=_alternative, choices=ALTERNATIVES, default=DEFAULT_ALTERNATIVE,
                     help="H1, chosen before looking at the data: two-sided = they differ (default), greater = A "
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
    cmp.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    cmp.add_argument("--budget", type=_budget, default=budget.DEFAULT, help=BUDGET_HELP)
    cmp.add_argument("--alpha", type=_level("--alpha"), default=DEFAULT_ALPHA, help=ALPHA_HELP)
    cmp.add_argument("--confidence", type=_level("--confidence"),
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
    _venue_option(cmp)
    cmp.add_argument("--save", metavar="RESULT.json",
                     help="also write the result with its resampled values, for `sigcore figure`")
    _paper_option(cmp)
    cmp.add_argument("--family", metavar="FAMILY.json",
                     help="this pair is one of the comparisons of a family saved by `many --save` (or a paper "
                          "folder's JSON): say which claim leads, and warn where the two decide differently")
    advise = commands.add_parser("advise", help="which test fits these data, and why (Dror et al. 2018)",
                                 description="Recommend a paired test for A against B on these data: the "
                                             "recommended one, the other valid ones, and why not the rest.")
    _data_arguments(advise)
    advise.add_argument("--json", action="store_true", help="print the advice as JSON (kind advice)")
    _power_parser(commands)
    _many_parser(commands)
    _figure_parser(commands)
    seeds = commands.add_parser("seeds", help="Almost Stochastic Order over per-seed scores (deepsig's ASO)",
                                description="ε_min of every pair, row better than column, from per-seed scores.")
    seeds.add_argument("file", metavar="FILE", nargs="?", help="a table: a column per system and a row per seed, "
                                                               "or the columns system and score (and seed)")
    seeds.add_argument("--gold", metavar="GOLD", help="with --a and --b: the gold file of per-seed output files")
    seeds.add_argument("--a", nargs="+", metavar="RUN", help="system A's output files, one per seed")
    seeds.add_argument("--b", nargs="+", metavar="RUN", help="system B's output files, one per seed")
    seeds.add_argument("--metric", help=f"with --a/--b: one of {', '.join(METRICS)} (default: the first that fits the "
                                        "runs, as the app suggests)")
    seeds.add_argument("--alternative", type=_alternative, choices=ALTERNATIVES, default=DEFAULT_ALTERNATIVE,
                       help="with --a/--b: H1 (default: two-sided, they differ)")
    seeds.add_argument("--alpha", type=_level("--alpha"), default=DEFAULT_ALPHA, help=ALPHA_HELP)
    seeds.add_argument("--confidence", type=_level("--confidence"), default=0.95)
    seeds.add_argument("--tau", type=_level("--tau"), default=0.2, help="ε_min below it reads as 'almost "
                                                                        "stochastically dominant' (default 0.2)")
    seeds.add_argument("--no-bonferroni", action="store_true", help="do not correct for the k(k - 1)/2 pairs")
    seeds.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES,
                       help="bootstrap resamples b: of items and runs with --a/--b, of ASO's quantile functions "
                            f"otherwise (default {DEFAULT_RESAMPLES:,} as everywhere; deepsig's default is 1,000)")
    seeds.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    seeds.add_argument("--budget", type=_budget, default=budget.DEFAULT, help=BUDGET_HELP)
    seeds.add_argument("--name", action="append", metavar="SYSTEM=NAME", default=[],
                       help="the name a system is printed with: a column of the table, or A and B with --a/--b "
                            "(e.g. --name A=Ours); repeat for others")
    shown = seeds.add_mutually_exclusive_group()
    shown.add_argument("--latex", action="store_true",
                       help="print the sentence for a paper's text and a booktabs table")
    shown.add_argument("--bibtex", action="store_true", help="print BibTeX for the methods instead")
    shown.add_argument("--json", action="store_true", help="print the result as JSON (kind aso for a table of scores, "
                                                          "seeds with --a/--b)")
    _venue_option(seeds)
    _paper_option(seeds)
    datasets = commands.add_parser("datasets", help="replicability over datasets (Dror et al. 2017)",
                                   description="On how many datasets is A better than B? From one one-sided "
                                               "p-value per dataset.")
    datasets.add_argument("files", nargs="+", metavar="FILE_OR_FOLDER",
                          help="a table with the columns dataset and p; or one folder per dataset, each with a gold "
                               "file (named gold, ref, reference, target, labels or answers) and one file per system")
    datasets.add_argument("--alpha", type=_level("--alpha"), default=DEFAULT_ALPHA, help=ALPHA_HELP)
    datasets.add_argument("--a", help="with folders: system A's name (its file name up to the first dot)")
    datasets.add_argument("--b", help="with folders: system B's name")
    datasets.add_argument("--metric", help=f"with folders: one of {', '.join(METRICS)} (default: the first that fits "
                                           "the first folder's outputs, as the app suggests)")
    datasets.add_argument("--test", default=AUTO, choices=[AUTO, *TESTS],
                          help="the test (default: auto, the one recommended for these data; `sigcore advise` says "
                               "why)")
    datasets.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, help=RESAMPLES_HELP)
    datasets.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    datasets.add_argument("--budget", type=_budget, default=budget.DEFAULT, help=BUDGET_HELP)
    datasets.add_argument("--bibtex", action="store_true", help="print BibTeX for the methods instead")
    datasets.add_argument("--json", action="store_true", help="print the analysis as JSON (kind replicability)")
    return parser


BUDGET_HELP = (f"the most work a run may do, in steps (default {budget.DEFAULT:.0e}, about 30 s on 2 cores, as on the "
               "app's server; 'none' for no limit)")


def _budget(text: str) -> int | None:
    if text.strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of steps (e.g. 1e10) or 'none', not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of steps, or 'none', not {text!r}")
    return int(value)


def _many_parser(commands) -> None:
    many = commands.add_parser("many", help="test many systems: against a baseline, or every pair",
                               description="Compare many systems on one test set, with corrected p-values.")
    many.add_argument("files", nargs="+", metavar="FILE",
                      help="GOLD SYS1 SYS2 ... files (globs expanded by the shell; .gz is fine), or one table with "
                           "a column per system")
    pick = many.add_mutually_exclusive_group()
    pick.add_argument("--baseline", help="the system every other is compared with: its name or its file's, with or "
                                         "without extensions (default: the first)")
    pick.add_argument("--all-pairs", action="store_true", help="compare every pair, and rank the systems")
    many.add_argument("--metric", nargs="+", metavar="METRIC",
                      help=f"one or more of: {', '.join(METRICS)}; default: the first that fits the data, as the app "
                           "suggests. Models on many tasks: the logs' metric, or several, each task taking the "
                           "first of them it has")
    many.add_argument("--test", default=AUTO, choices=[AUTO, *TESTS],
                      help="the test (default: auto, the one recommended for every pair, or the one that fits them "
                           "all)")
    many.add_argument("--correction", default="holm", choices=[*CORRECTIONS, "maxt"],
                      help="Holm (default), Bonferroni, Hochberg, Benjamini-Hochberg (bh), Benjamini-Yekutieli (by); "
                           "models on many tasks also maxt, the max statistic over the board's own resamples, which "
                           "separates models at a b where Holm over many pairs cannot")
    many.add_argument("--drop-unmatched", action="store_true",
                      help="compare the items every system has (models on many tasks: on each task, and only the "
                           "tasks every model has) instead of stopping at one that lacks some; what was dropped is "
                           "said")
    many.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, help=RESAMPLES_HELP)
    many.add_argument("--alternative", type=_alternative, choices=ALTERNATIVES, default=DEFAULT_ALTERNATIVE,
                      help="H1 for each system against the baseline (default: two-sided)")
    many.add_argument("--alpha", type=_level("--alpha"), default=DEFAULT_ALPHA, help=ALPHA_HELP)
    many.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    many.add_argument("--budget", type=_budget, default=budget.DEFAULT, help=BUDGET_HELP)
    many.add_argument("--compat", choices=COMPAT, help="reproduce another tool's two-sided definitions")
    many.add_argument("--tokenize", help="BLEU tokenizer (sacrebleu's names: 13a, none, intl, ...)")
    _direction_option(many)
    many.add_argument("--gold", help="the column with the gold labels or references: of the table, or of every file "
                                     "that has one (default: the one named like gold)")
    many.add_argument("--gold-file", metavar="FILE", help="which of the files is the gold (default: the one named "
                                                          f"{GOLD_NAMES})")
    many.add_argument("--name", action="append", metavar="SYSTEM=NAME", default=[],
                      help="the name a system is printed with, e.g. --name LIUM-NMT='LIUM (NMT)'; repeat for others")
    many.add_argument("--id", help="id column: align files by it (guessed when the files share one)")
    many.add_argument("--by-row", action="store_true", help="pair the files by row even where they share an id column")
    many.add_argument("--format", choices=list(FORMATS), help="file format (default: from extension and content)")
    many.add_argument("--encoding", help="text encoding when not UTF-8 (e.g. latin-1)")
    out = many.add_mutually_exclusive_group()
    out.add_argument("--csv", action="store_true", help="print one CSV row per comparison")
    out.add_argument("--json", action="store_true", help="print the comparisons as JSON")
    out.add_argument("--latex", action="store_true",
                     help="print a booktabs table for a paper: a column per metric, marks defined in the caption")
    out.add_argument("--markdown", action="store_true",
                     help="models on many tasks: print the board as Markdown, for a README or a model card")
    many.add_argument("--html", metavar="FILE",
                      help="models on many tasks: also write the board as one self-contained HTML page (its rank "
                           "figure inline; no request leaves it), for a website")
    many.add_argument("--columns", nargs="+", choices=family.COLUMNS, metavar="COLUMN",
                      help="what --latex's table shows per metric against a baseline: score (marked), delta, ci "
                           "(δ's interval), p (corrected); default: score delta ci for one metric, score for several")
    _venue_option(many)
    many.add_argument("--save", metavar="FAMILY.json", help="also write the comparisons (models on many tasks: the "
                                                            "board and its resamples), for `sigcore figure`")
    many.add_argument("--weight", choices=["tasks", "items"], default="tasks",
                      help="models on many tasks (a tidy table, or logs): the aggregate is the mean of the task "
                           "scores (tasks, default) or over all items (items)")
    many.add_argument("--per-task", choices=["family", "task"],
                      help="models on many tasks: also δ against the baseline on each task, p corrected over the "
                           "whole family of tasks x models (family) or within each task (task)")
    many.add_argument("--cluster", metavar="COLUMN",
                      help="models on many tasks: resample the items in clusters, whole, by this column of the tidy "
                           "table or an Inspect sample's metadata (metadata.passage)")
    many.add_argument("--scheduler", metavar="ADDRESS",
                      help="models on many tasks: run each task's resampling on a Dask distributed scheduler "
                           "(tcp://host:8786; pip install 'sigcore[dask]'), the same numbers as here")
    many.add_argument("--friedman", action="store_true",
                      help="models on many tasks: also the Friedman test over the tasks with Nemenyi's critical "
                           "difference (Demšar 2006), which asks whether the models rank alike across tasks")
    _paper_option(many)
    out.add_argument("--bibtex", action="store_true", help="print BibTeX for the test, metrics and correction")


def _data_arguments(cmd) -> None:
    """The files, their columns and the metric: what compare and advise read the same way."""
    cmd.add_argument("files", nargs="+", metavar="FILE",
                     help="one table; or a gold file and one file per system (in any order: the gold file is found by "
                          "its name); or two files that each carry gold (a gold column, CoNLL) or per-item scores; or "
                          "two lm-eval sample logs; .gz is fine")
    cmd.add_argument("--gold", help="the column with the gold labels or references: of the table, or of every file "
                                    "that has one (default: the one named like gold)")
    cmd.add_argument("--gold-file", metavar="FILE", help="which of the files is the gold (default: the one named gold, "
                                                         "ref, reference, target, labels or answers)")
    cmd.add_argument("--a", help="the column with system A's outputs: of the table, or of A's file")
    cmd.add_argument("--b", help="the column with system B's outputs (the baseline's): of the table, or of B's file")
    cmd.add_argument("--baseline", metavar="NAME", help="with several files: the baseline's file (or its name), B; "
                                                        "A is the other (default: the one named like a baseline, "
                                                        "else the second)")
    cmd.add_argument("--name", action="append", metavar="SYSTEM=NAME", default=[],
                     help="the name a system is printed with, e.g. --name svm='SVM (RBF)' or --name A=Ours (repeat "
                          "for B)")
    cmd.add_argument("--id", help="id column: align files by it (guessed when the files share one)")
    cmd.add_argument("--by-row", action="store_true", help="pair the files by row even where they share an id column")
    cmd.add_argument("--group", help="table column with the document/group of each item")
    cmd.add_argument("--filter", help="lm-eval logs of several filters (gsm8k: strict-match, flexible-extract): the "
                                      "one to compare (asked when the logs have more than one)")
    cmd.add_argument("--drop-unmatched", action="store_true",
                     help="compare the items whose ids are in every file instead of stopping")
    cmd.add_argument("--format", choices=list(FORMATS), help="file format (default: from extension and content)")
    cmd.add_argument("--encoding", help="text encoding when not UTF-8 (e.g. latin-1)")
    cmd.add_argument("--metric", help=f"one of {', '.join(METRICS)}; or a per-item score field of the files (lm-eval: "
                                      "acc); default: the first that fits the data, as the app suggests (accuracy "
                                      "for labels, bleu for multi-word text, span_f1 for tags, mean for scores)")
    cmd.add_argument("--tokenize", help="BLEU tokenizer (sacrebleu's names: 13a, none, intl, ...)")
    cmd.add_argument("--positive-label", help="the positive class for precision, recall and f1")
    _direction_option(cmd)


def _direction_option(cmd) -> None:
    cmd.add_argument("--lower-is-better", action="store_true",
                     help=LOWER_HELP)


LOWER_HELP = ("per-item scores (--metric mean) on which lower is better (an error, a loss, a rank): then \"A beats B\" "
              "means A's is lower, and --alternative greater is H1 that A is better (its scores lower). MAE, MSE and "
              "RMSE are lower-is-better already; accuracy, F1 and BLEU refuse it")


def _higher(args) -> bool | None:
    """The direction the command line gives (None: the metric's own)."""
    return False if getattr(args, "lower_is_better", False) else None


def _power_parser(commands) -> None:
    pw = commands.add_parser("power", help="power and the test-set size, from pilot outputs or expected rates",
                             description="Plan a test set: the power of a paired test at the pilot's size, the "
                                         "size that reaches the target power, and the smallest difference the "
                                         "pilot's size detects. Give pilot files (as compare reads them), or "
                                         "--n with --accuracy-a, --accuracy-b and --agreement.")
    pw.add_argument("files", nargs="*", metavar="FILE", help="pilot outputs: one table, or GOLD A B files")
    for flag, text in (("--gold", "table column with the gold labels"), ("--a", "table column with A's outputs"),
                       ("--b", "table column with B's outputs"), ("--id", "id column: align files by it")):
        pw.add_argument(flag, help=text)
    pw.add_argument("--metric", help="a metric that is a mean of per-item values (default: the one the app "
                                     "suggests for the pilot, e.g. accuracy for labels, mean for per-item scores)")
    pw.add_argument("--test", default=AUTO, choices=[AUTO, *power.SUPPORTED],
                    help="the test planned for (default: auto, the one recommended for the pilot)")
    pw.add_argument("--alternative", type=_alternative, choices=ALTERNATIVES, default=DEFAULT_ALTERNATIVE,
                    help="H1 (default: two-sided, they differ)")
    pw.add_argument("--alpha", type=_level("--alpha"), default=DEFAULT_ALPHA, help=ALPHA_HELP)
    pw.add_argument("--target", type=_level("--target"), default=0.8, help="the power wanted (default 0.8)")
    planned = pw.add_mutually_exclusive_group()
    planned.add_argument("--non-inferior", type=float, metavar="DELTA",
                         help="plan instead a claim that A is no worse than B by more than DELTA (paired t-test)")
    planned.add_argument("--equivalent", type=float, metavar="DELTA",
                         help="plan instead a claim that A and B are within ±DELTA (two one-sided t-tests)")
    pw.add_argument("--sims", type=int, default=400, help="simulated test sets per size (where not exact)")
    pw.add_argument("--resamples", type=int, default=SIMULATION_RESAMPLES,
                    help=f"b of each simulated test (default {SIMULATION_RESAMPLES:,})")
    pw.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    pw.add_argument("--n", type=int, help="without a pilot: the test set's size")
    pw.add_argument("--accuracy-a", type=float, help="without a pilot: A's expected accuracy")
    pw.add_argument("--accuracy-b", type=float, help="without a pilot: B's expected accuracy")
    pw.add_argument("--agreement", type=float,
                    help="without a pilot: the share of items both get right or both get wrong")
    _direction_option(pw)
    pw.add_argument("--json", action="store_true", help="print the plan as JSON (kind plan)")


def _paper_option(parser) -> None:
    parser.add_argument("--paper", metavar="DIR",
                        help="also write, from this run, a paper folder: the sentence (signature as a footnote), the "
                             "table, the figure at --venue's column width with its caption, the result JSON, and "
                             "sigcore.bib, reproduce.sh and checklist.md, which later runs into DIR merge into "
                             "(docs/how-to/paper.md)")
    parser.add_argument("--replace", action="store_true",
                        help="with --paper: replace the files of DIR this run writes even where sigcore did not write "
                             "them or they were changed since (refused otherwise, by name)")


def _venue_option(parser) -> None:
    parser.add_argument("--venue", default=DEFAULT_VENUE, choices=list(VENUES),
                        help="the venue whose rules --latex follows (a table's caption below for acl, the default; "
                             "above for icml, neurips, iclr, ieee, acm and lncs)")


def _figure_parser(commands) -> None:
    convert = commands.add_parser("convert", help="evaluation logs as one tidy table (model, task, item, run, "
                                                  "metric, score)",
                                  description="Read Inspect AI logs (.eval, .json) and lm-evaluation-harness samples "
                                              "files (MODEL/samples_<task>_<date>.jsonl) and write their scores as "
                                              "one long table, CSV or Parquet (docs/how-to/llm-logs.md).")
    convert.add_argument("files", nargs="+", metavar="LOG")
    convert.add_argument("--out", required=True, help="the table's file: .csv or .parquet")
    fig = commands.add_parser("figure", help="a figure for a paper or a slide, from a saved result",
                              description="Draw a result saved by `compare --save` (histogram, null, convergence), "
                                          "a family saved by `many --save` (forest) or models on many tasks saved "
                                          "by `many --save` (ranks, cd, nemenyi).")
    fig.add_argument("file", metavar="RESULT.json")
    fig.add_argument("--kind", default="histogram", choices=FIGURE_KINDS)
    fig.add_argument("--style", default="paper", choices=list(STYLES),
                     help="paper: true size, 8-9 pt serif, black; slide: large text for a projector")
    fig.add_argument("--venue", default=DEFAULT_VENUE, choices=list(VENUES),
                     help="whose widths a paper's figure takes (default acl: column 7.7 cm, text 16 cm); "
                          "docs/reference/figures.md lists each venue's, with its source")
    fig.add_argument("--width", help="column: the venue's column (the paper's default), or 640 px for a slide; "
                                     "full: the venue's text width, or a whole 1280 px slide (the slide's default); "
                                     "or a length for a paper (7.7cm, 3.25in, 219pt)")
    fig.add_argument("--height", help="the figure's height, a length (5cm, 2in); by default what its panel and "
                                      "labels need (a forest plot: a row per system)")
    fig.add_argument("--label", help=r"the \label of the LaTeX figure printed (default: fig: and the file's name)")
    fig.add_argument("--metric", help="which metric's family to draw, when `many --save` holds several")
    fig.add_argument("--out", required=True, help="the figure's file: .pdf, .svg or .png (300 dpi for a paper)")


RESAMPLES_HELP = f"bootstrap resamples or permutations (b; default {DEFAULT_RESAMPLES:,})"
ALPHA_HELP = f"significance level: reject H0 when p <= alpha (default {DEFAULT_ALPHA:g})"
SEED_HELP = f"seed of the random draws (default {DEFAULT_SEED})"


def _level(flag: str):
    """An argparse type for a level strictly between 0 and 1 (α, a confidence level, a target power, τ), checked by
    the contract's validator of that setting, with its message under the flag's name."""
    check = check_alpha if flag == "--alpha" else check_level

    def parse(text: str) -> float:
        try:
            value: float | str = float(text)
        except ValueError:
            value = text
        try:
            return check(value, flag)
        except SettingsError as e:
            raise argparse.ArgumentTypeError(str(e).replace(f"`{flag}`", flag)) from None
    return parse


def _alternative(text: str) -> str:
    """--alternative, checked by the contract's validator (its message, not argparse's "invalid choice")."""
    try:
        return check_alternative(text, "--alternative")
    except SettingsError as e:
        raise argparse.ArgumentTypeError(str(e).replace("`--alternative`", "--alternative")) from None


def _pairing(args) -> str | None:
    """The id that pairs several files (``ROW_ORDER``: by row); both flags at once contradict each other."""
    if args.by_row and args.id:
        raise SettingsError(f"--id {args.id} and --by-row say two ways of pairing the files",
                            hint="Pair them by that id column (--id) or by row (--by-row), not both.")
    return ROW_ORDER if args.by_row else args.id


def _prepare(args) -> front.Prepared:
    """The front door (:func:`sigcore.front.prepare`) on the files given: two HELM runs' stats, or the files read and
    paired with the roles the flags name; its first open question refused; the metric it chose set on ``args``."""
    from .logs import helm_run

    unmatched = "drop" if args.drop_unmatched else "stop"
    options = {k: v for k, v in (("tokenize", args.tokenize), ("positive_label", args.positive_label)) if v}
    if len(args.files) == 2 and all(helm_run.is_folder(f) for f in args.files):  # two HELM runs: their stats
        source, roles = helm_run.aligned(*args.files, args.metric, on_unmatched=unmatched), {}
    else:
        source = [read(path, format=args.format, encoding=args.encoding) for path in args.files]
        roles = dict(gold=args.gold, a=args.a, b=args.b, id=_pairing(args), group=args.group, on_unmatched=unmatched,
                     gold_file=_gold_file(args), baseline=getattr(args, "baseline", None),
                     filter=getattr(args, "filter", None))
    prepared = front.prepare(source, metric=args.metric, options=options, **roles).settled()
    args.metric = prepared.metric
    return prepared


def _gold_file(args) -> int | None:
    """--gold-file as the position of one of the files given (its path as typed, or its name)."""
    if not getattr(args, "gold_file", None):
        return None
    if args.gold_file in args.files:
        return args.files.index(args.gold_file)
    try:
        return match_system(args.gold_file, args.files)
    except SettingsError:
        raise SettingsError(f"--gold-file {args.gold_file} is not one of the files given",
                            hint=f"The files are: {', '.join(args.files)}.") from None


def _others(args) -> str:
    """How a metric note says to choose another metric."""
    return f"choose {'others' if args.command == 'many' else 'another'} with --metric"


def _suggest_metric(args, data, about: str = front.THESE_DATA) -> str | None:
    """Without --metric, set on ``args`` the metric the front door chooses for ``data``
    (:func:`sigcore.front.choose_metric`; a list for `many`) and return its note; its first open question refused."""
    if args.metric is not None:
        return None
    choice = front.choose_metric(data, about=about)
    if choice.questions:
        raise choice.questions[0]
    args.metric = [choice.metric] if args.command == "many" else choice.metric
    return choice.note(_others(args))


def _names(args, names: tuple[str, ...] | list[str]) -> list[str]:
    """The systems' names as printed, with --name SYSTEM=NAME (SYSTEM: A, B, or a system's name or file)."""
    out = list(names)
    for given in getattr(args, "name", []) or []:
        key, sep, shown = given.partition("=")
        if not sep or not shown.strip():
            raise SettingsError(f"--name {given!r} is not SYSTEM=NAME", hint="For example: --name svm='SVM (RBF)'.")
        k = "AB".index(key) if key in ("A", "B") and len(names) == 2 else match_system(key, names)
        out[k] = shown.strip()
    return out


def _roles(data, metric_note: str | None, metric: str, extra: Sequence[str] = (), more: Sequence = (),
           higher: bool | None = None) -> list[str]:
    """What was decided about the data, printed before any result: the roles with file names (and ``more``, such
    as the baseline of a family), the metric and why (and its direction: ``higher``, as --lower-is-better gives it),
    ``extra`` lines, and the notes."""
    roles = front.roles_of(data)  # the numbers' reading (regression outputs or answers) last, after ``more``
    lines = [f"roles: {role}" for role in (*data.roles, *more, *roles[len(data.roles):])]
    given = f"{metric} (given)"
    if metric_note is None and any(METRICS.get(m) and METRICS[m].higher_is_better is False for m in metric.split()):
        given += ", lower is better"
    elif higher is False:
        given += ", lower is better (--lower-is-better)"
    lines.append("metric: " + (metric_note.removeprefix("the metric is ") if metric_note else given))
    return lines + list(extra) + [f"note: {note}" for note in data.notes]


def _inputs(args):
    """What the front door returns for these files (:func:`_prepare`): the aligned data; gold, A, B and the metric as
    the engine takes them; the metric's options; the note on the metric it chose."""
    prepared = _prepare(args)
    gold, a, b, metric, options, _ = prepared.inputs
    return prepared.data, (gold, a, b, metric), options, prepared.choice.note(_others(args))


def _advise(args) -> int:
    prepared = _prepare(args)
    try:
        advice = prepared.advice()
    except InputError as e:
        raise prepared.locate(e) from None
    metric = prepared.inputs.metric
    direction(metric if metric in METRICS else "mean", _higher(args))  # a contrary direction refused here too
    if args.json:
        print(records.dumps(records.advice(advice, metric=args.metric, roles=[str(r) for r in prepared.data.roles],
                                           notes=list(prepared.data.notes))))
        return 0
    print("\n".join(_roles(prepared.data, prepared.choice.note(_others(args)), args.metric, higher=_higher(args))))
    print(advice.text())
    return 0


def _power(args) -> int:
    from . import claims

    settings = dict(test=args.test, alternative=args.alternative, alpha=args.alpha, target=args.target,
                    n_sims=args.sims, n_resamples=args.resamples, seed=args.seed)
    rates = (args.n, args.accuracy_a, args.accuracy_b, args.agreement)
    if args.files and any(r is not None for r in rates) or not args.files and None in rates:
        raise SettingsError("give pilot files, or --n, --accuracy-a, --accuracy-b and --agreement (not both)",
                            hint="sigcore power gold.txt a.txt b.txt, or sigcore power --n 1000 --accuracy-a 0.75 "
                                 "--accuracy-b 0.72 --agreement 0.85")
    claim = ("non-inferior", args.non_inferior) if args.non_inferior is not None else \
        ("equivalent", args.equivalent) if args.equivalent is not None else None
    if not args.files:
        direction("accuracy", _higher(args))  # expected accuracies: higher is better, --lower-is-better refused
        if claim:
            delta, sd = claims.from_rates(*rates[1:])
            return _plan(args, claims.plan(*claim, delta=delta, sd=sd, alpha=args.alpha, target=args.target,
                                           n=args.n))
        return _plan(args, power.plan_from_rates(*rates, **settings))
    tables = [read(path) for path in args.files]
    data = load(tables, gold=args.gold, a=args.a, b=args.b, id=args.id)
    note = _suggest_metric(args, data, "the pilot")
    said = sys.stderr if args.json else sys.stdout  # --json prints the plan alone
    for role in front.roles_of(data):  # what the pilot's files were taken for
        print(f"roles: {role}", file=said)
    if note:  # before the checks: a refused suggestion (BLEU) says why it was chosen
        print(f"note: {note}", file=said)
    if args.metric not in METRICS:
        raise SettingsError(f"unknown metric {args.metric!r}", hint=f"Choose one of: {', '.join(METRICS)}.")
    higher = direction(args.metric, _higher(args))  # a one-sided plan where lower is better: refused by the plan
    values = item_values(data.gold, data.a, data.b, metric=args.metric)
    if values is None:
        raise SettingsError(f"{args.metric} is not a mean of per-item values, so a pilot's items cannot be "
                            "redrawn into test sets of another size",
                            hint="Plan with accuracy or per-item scores (--metric mean), or with expected rates.")
    if claim:  # the pilot's δ and spread stand for the test set's
        d = [x - y for x, y in zip(values[0], values[1])]
        mean = sum(d) / len(d)
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
        return _plan(args, claims.plan(*claim, delta=mean, sd=sd, alpha=args.alpha, target=args.target, n=len(d),
                                        higher_is_better=higher))
    return _plan(args, power.plan(*values, binary=METRICS[args.metric].binary,
                                   higher_is_better=higher, **settings))


def _plan(args, plan) -> int:
    """A plan's sentences, or with --json its record (a claim's plan or a test's)."""
    from .claims import Plan as ClaimPlan

    if args.json:
        print(records.dumps(records.claim_plan(plan) if isinstance(plan, ClaimPlan) else records.plan(plan)))
    else:
        print(plan.text())
    return 0


def _compare(args) -> int:
    data, (gold, sys_a, sys_b, metric), options, note = _inputs(args)
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
                      ci_method=ci_method, budget=args.budget, higher_is_better=_higher(args),
                      progress=_progress("resampling"), **options)
        why = res.test_reason if res.auto and not args.compat else None  # "": not the first choice
    except InputError as e:
        raise data.locate(e) from None
    effects = effect_sizes(gold, sys_a, sys_b, metric=metric, alternative=res.delta_alternative,
                           confidence_level=res.confidence_level, **options)  # of A − B: H1 as a side of δ
    a_name, b_name = _names(args, data.display_names)
    names = {"a_name": a_name, "b_name": b_name}
    test = (f"test: {sentence.test_name(res)}, "
            + (f"as --chi-square asks (the advisor recommends its exact form: {why})" if why and args.chi_square else
               f"recommended for these data: {why} (choose another with --test)" if why else
               "sacrebleu's paired bootstrap (--compat)" if res.auto and args.compat else
               f"the advisor's first resampling test, since --ci-method {args.ci_method} resamples" if res.auto else
               "given with --test"))
    decided = _roles(data, note, args.metric, [test], higher=res.higher_is_better)
    if args.family:
        said = paper.in_family(paper.pair_claim(res, a_name, b_name), _families(args.family), args.family)
        print(said, file=sys.stderr if said.startswith("warning: ") else sys.stdout)
    if args.save:
        _write(args.save, export.result_json(res, distribution=True, **names))
        if res.distribution is None:  # said where it is written, not when `figure` refuses it
            print(f"note: {args.save} has no resampled values for `sigcore figure`: "
                  f"{sentence.the(sentence.test_name(res))} is closed-form (--test bootstrap or permutation "
                  "resamples)", file=sys.stderr)
    if args.paper:
        here = {f: os.path.relpath(f, args.paper) for f in args.files}  # reproduce.sh runs in the folder
        command = reproduce.command(res, list(here.values()), columns={k: here.get(v, v) for k, v in
                                    data.columns.items()}, metric=args.metric, by_row=data.by_row,
                                    encoding=args.encoding)
        _paper(args, paper.for_result(res, a=a_name, b=b_name, command=command, venue=args.venue,
                                      folder=_folder_name(args.paper), draw=paper.drawer(args.venue, a_name, b_name)))
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
        prog=_prog()))
    lines += [f"reproduce: {text}", *([f"  ({escaped})"] if escaped else [])]
    print("\n".join([*lines, signature]))  # the signature stays the last line
    return 0


def _families(path: str) -> list[Many]:
    """The families of a JSON that `many --save` (or a paper folder) wrote."""
    hint = "Give the JSON that `sigcore many ... --save FAMILY.json` wrote (or a paper folder's STEM.json of many)."
    record = _saved(path, ("family",), hint)
    return [Many.from_dict(f) for f in record["families"]]


def _saved(path: str, kinds: tuple[str, ...], hint: str) -> dict:
    """A saved result of one of ``kinds``, read back through its published schema (:func:`sigcore.jsonform.read`)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot be read as a saved result ({e})", file=path, hint=hint) from None
    return jsonform.loads(text, kinds=kinds, file=path, hint=hint)


def _prog() -> str:
    return "sigcore" if Path(sys.argv[0]).name == "sigcore" else "python -m sigcore"


def _folder_name(folder: str) -> str:
    r"""How the paper's main file reaches the folder (\sigcoredir): by its name, as a folder beside the main file
    (``.`` when it is the current folder, the main file's own)."""
    path = Path(folder).resolve()
    return "." if path == Path.cwd().resolve() else path.name


def _sequential(args, data, inputs, options, note) -> int:
    """compare --sequential: the confidence sequence over the items in file order, where it stopped, its JSON."""
    from . import sequential
    from .effects import item_values
    from .metrics import METRICS

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
    refuse_lower("the confidence sequence (--sequential)", direction(metric, _higher(args)), metric,
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
    a_name, b_name = _names(args, data.display_names)
    if args.json:
        print(records.dumps(records.sequence(res, low=low, high=high, a=a_name, b=b_name)))
        return 0
    print("\n".join(_roles(data, note, args.metric, ["test: a confidence sequence, item by item in file order"])))
    print(sequential.sentence(res, a_name, b_name))
    return 0


def _claim(args, data, inputs, options, note) -> int:
    """compare --non-inferior / --equivalent: the claim's sentence, or its JSON."""
    from . import claims

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
                         higher_is_better=_higher(args), **options)
    except InputError as e:
        raise data.locate(e) from None
    a_name, b_name = _names(args, data.display_names)
    if args.paper:  # as a comparison's folder, with the claim's flags in reproduce.sh
        here = {f: os.path.relpath(f, args.paper) for f in args.files}
        command = reproduce.command(c, list(here.values()), columns={k: here.get(v, v) for k, v in
                                    data.columns.items()}, metric=args.metric, by_row=data.by_row,
                                    encoding=args.encoding)
        _paper(args, paper.for_claim(c, a=a_name, b=b_name, command=command, venue=args.venue,
                                     folder=_folder_name(args.paper), draw=paper.drawer(args.venue, a_name, b_name)))
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
    print("\n".join(_roles(data, note, args.metric, [f"test: {sentence.test_name(c.result)}, for the claim"])))
    print(claims.sentence(c, a_name, b_name))
    print(c.signature)  # the last line, as a comparison's
    return 0


def _paper(args, entry: paper.Entry) -> None:
    """Write a paper folder's entry; say what was written, merged and replaced, and where outputs disagree."""
    done = paper.write(args.paper, entry, replace=args.replace)
    for warning in done.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    said = [f"wrote {', '.join(done.wrote)}", *([f"merged this result into {', '.join(done.merged)}"] if done.merged
                                                else [])]
    said += [f"replaced (--replace) {name}, {why}" for name, why in done.replaced.items()]
    print(f"paper folder {args.paper}: {'; '.join(said)}", file=sys.stderr)


def _arity(command: str) -> dict:
    sub = next(a for a in _parser()._actions if a.dest == "command").choices[command]
    return {option: action.nargs for action in sub._actions for option in action.option_strings}


def _many(args) -> int:
    from .logs import tidy

    if len(args.files) == 1 and tidy.is_table(args.files[0]) or all(tidy.is_log(f) for f in args.files):
        if args.lower_is_better:  # a board ranks by the logs' metrics, each higher-is-better
            raise SettingsError("--lower-is-better is for systems on one test set, not models on many tasks",
                                hint="A board ranks the logs' metrics (accuracy, F1...), on which higher is better.")
        return _board(args)
    board_only = [flag for flag, given in (("--friedman", args.friedman), ("--per-task", args.per_task),
                                           ("--scheduler", args.scheduler), ("--cluster", args.cluster),
                                           ("--weight", args.weight != "tasks"), ("--markdown", args.markdown),
                                           ("--html", args.html)) if given]
    if board_only:  # said, not ignored
        raise SettingsError(f"{board_only[0]} is for models on many tasks (a tidy table or logs)",
                            hint="These files are systems on one test set: leave it out.")
    known = args.bibtex and args.metric and args.test != AUTO  # --bibtex: the papers of the test and metric
    prepared, note = (None, None) if known else _many_data(args)
    data = prepared and prepared.data
    if args.bibtex:
        tests = [args.test] if args.test != AUTO else list(dict.fromkeys(
            advise_family(data.gold, data.systems, _pairs(data, args), metric=m)[0] for m in args.metric))
        print(citations.bibtex([k for t in tests for k in citations.family_keys(t, args.metric, args.correction)]),
              end="")
        return 0
    family.table_columns(args.columns, args.all_pairs)  # refused before the run, not after it
    options = {"tokenize": args.tokenize} if args.tokenize else {}
    shown = _names(args, list(data.systems))
    base, why = ((args.baseline, "given") if args.baseline is not None else default_baseline(data))
    baseline = None if args.all_pairs else shown[_system_of(base, data)]
    families = []
    for m in args.metric:
        gold, systems = prepared.inputs(m)
        try:
            families.append(compare_many(gold, dict(zip(shown, systems.values())), baseline=baseline,
                                         all_pairs=args.all_pairs, metric=m, test=args.test,
                                         n_resamples=args.resamples, alternative=args.alternative, alpha=args.alpha,
                                         correction=args.correction, seed=args.seed, groups=data.groups,
                                         compat=args.compat, budget=args.budget, higher_is_better=_higher(args),
                                         progress=_progress(f"{m}: resampling"), **options))
        except InputError as e:
            raise prepared.locate(e, shown) from None  # the names printed are --name's
    if args.save:
        _write(args.save, records.dumps(records.family(families)))
    if args.paper:
        tests = {f.test for f in families}  # with auto, each metric may take its own: auto chooses them again
        settings = {"--metric": args.metric, "--test": [tests.pop() if len(tests) == 1 else AUTO],
                    "--resamples": [args.resamples], "--seed": [args.seed], "--alpha": [repr(args.alpha)],
                    "--alternative": [args.alternative], "--correction": [args.correction]}
        command = reproduce.rerun(reproduce.PROG, args.argv, settings, _arity("many"), base=args.paper)
        _paper(args, paper.for_family(families, command=command, venue=args.venue, columns=args.columns,
                                      folder=_folder_name(args.paper), draw=paper.drawer(args.venue)))
    if args.csv:
        frame = pd.concat([f.table().assign(metric=f.metric) for f in families], ignore_index=True)
        print(export.table_csv(frame).decode("utf-8"), end="")
        return 0
    if args.json:
        print(records.dumps(records.family(families, roles=[str(r) for r in data.roles], notes=list(data.notes))))
        return 0
    if args.latex:  # the sentence for the text, then the table, as compare --latex prints them
        print("\n\n".join(family.sentence(f, latex=True) for f in families) + "\n\n"
              + family.latex(families, venue=args.venue, columns=args.columns), end="")
        return 0
    tests = [f"test ({f.metric}): {sentence.test_name(next(iter(f.results.values())))}, "
             + (f.test_reason if f.auto else "given with --test") for f in families]
    against = () if args.all_pairs else (Role("against", baseline, why),)  # every system against it
    print("\n".join(_roles(data, note, " ".join(args.metric), tests, against, higher=_higher(args))))
    print("\n\n".join(family.text(f) + "\n\n" + family.sentence(f) for f in families))
    return 0


def _pairs(data: AlignedMany, args) -> list[tuple[str, str]]:
    """The pairs `many` compares: every pair, or each system against the baseline (the first by default)."""
    names = list(data.systems)
    if args.all_pairs:
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    base = names[_system_of(args.baseline, data)] if args.baseline else default_baseline(data)[0]
    return [(name, base) for name in names if name != base]


def _system_of(name: str, data: AlignedMany) -> int:
    """A system of ``data`` by its name or its file's (with or without the extensions): --baseline LIUM-NMT.4900.de."""
    names = list(data.systems)
    try:
        return match_system(name, names)
    except SettingsError:
        files = [data.sources.get(n, (n,))[0] for n in names]
        if len(set(files)) < len(files):  # columns of one table: its file names no system, and the error stands
            raise
        return match_system(name, files)


def _many_data(args) -> tuple[front.PreparedMany, str | None]:
    """The front door for several systems (:func:`sigcore.front.prepare_many`) on the files given, its first open
    question refused; the metric it chose set on ``args`` (a list), with its note."""
    tables = [read(path, format=args.format, encoding=args.encoding) for path in args.files]
    prepared = front.prepare_many(tables, metrics=args.metric, gold=args.gold, id=_pairing(args),
                                  gold_file=_gold_file(args),
                                  on_unmatched="drop" if args.drop_unmatched else "stop").settled()
    note = None if args.metric else prepared.choice.note(_others(args))
    args.metric = list(prepared.metrics)
    return prepared, note


def _seeds(args) -> int:
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
    scores = dict(zip(_names(args, list(scores)), scores.values()))
    table = statistics.multi_aso(scores, confidence_level=args.confidence, bonferroni=not args.no_bonferroni,
                                 n_bootstrap=args.resamples, seed=args.seed, budget=args.budget,
                                 progress=_progress("ASO over the pairs"))
    if args.paper:
        settings = {"--confidence": [repr(args.confidence)], "--tau": [repr(args.tau)], "--resamples": [args.resamples],
                    "--seed": [args.seed]}
        command = reproduce.rerun(reproduce.PROG, args.argv, settings, _arity("seeds"), base=args.paper)
        _paper(args, paper.for_aso(table, scores, command=command, tau=args.tau, venue=args.venue,
                                   folder=_folder_name(args.paper)))
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
    note = _suggest_metric(args, data)
    if args.bibtex and not args.paper:  # with output files, the bootstrap over items and runs and the metric's too
        print(citations.bibtex([*citations.ASO, *citations.keys_for_test("bootstrap", args.metric),
                                *citations.metric_keys(args.metric)]), end="")
        return 0
    if note:
        print(f"note: {note}", file=sys.stderr if args.json else sys.stdout)
    outputs = list(data.systems.values())
    res = compare_seeds(data.gold, outputs[:len(args.a)], outputs[len(args.a):], metric=args.metric,
                        n_resamples=args.resamples, alternative=args.alternative, alpha=args.alpha,
                        seed=args.seed, budget=args.budget, progress=_progress("resampling items and runs"))
    a, b = _names(args, names_of([Path(f).name.split(".")[0] for f in args.a],
                                 [Path(f).name.split(".")[0] for f in args.b]))
    if args.paper:
        settings = {"--metric": [args.metric], "--alternative": [args.alternative], "--alpha": [repr(args.alpha)],
                    "--resamples": [args.resamples], "--seed": [args.seed]}
        command = reproduce.rerun(reproduce.PROG, args.argv, settings, _arity("seeds"), base=args.paper)
        _paper(args, paper.for_seeds(res, a=a, b=b, command=command, venue=args.venue,
                                     folder=_folder_name(args.paper)))
    if args.json:
        print(records.dumps(records.seeds(res, a=a, b=b)))
        return 0
    if args.latex:
        print(seeds_report.sentence_latex(res, a=a, b=b) + "\n\n" + seeds_report.table_latex(
            res, a=a, b=b, venue=args.venue), end="")
        return 0
    print(res.sentence(a=a, b=b))
    if res.variance_sentence():
        print(res.variance_sentence())
    return 0


def _datasets(args) -> int:
    folders = all(Path(f).is_dir() for f in args.files)
    if args.bibtex:  # with folders, the papers of the test and metric they are compared on (the first folder's)
        keys = list(citations.REPLICABILITY)
        if folders and args.a and args.b:
            prepared = front.prepare(_folder_pair(Path(args.files[0]), args), metric=args.metric).settled()
            args.metric = prepared.metric
            test = args.test if args.test != AUTO else prepared.advice().recommended.test
            keys += citations.keys_for_test(test, args.metric)
        elif args.test != AUTO:
            keys += citations.keys_for_test(args.test, args.metric or "accuracy")
        print(citations.bibtex(keys), end="")
        return 0
    if folders:
        return _dataset_folders(args)
    if len(args.files) != 1:
        raise SettingsError("give one table of p-values, or one folder per dataset")
    names, p = results.p_values(read(args.files[0]))
    res = statistics.replicability(list(p), alpha=args.alpha, datasets=list(names))
    if args.json:
        print(records.dumps(records.replicability(res)))
        return 0
    print(res.sentence() + "\n")
    print("u  p^{u/N} Bonferroni  p^{u/N} Fisher")
    for u, (bonf, fisher) in enumerate(zip(res.bonferroni, res.fisher), start=1):
        print(f"{u:<3}{p_number(bonf):<21}{p_number(fisher)}")
    return 0


def _dataset_folders(args) -> int:
    """One one-sided comparison of A and B per folder, then the replicability analysis over them."""
    if not (args.a and args.b):
        raise SettingsError("name the two systems to compare in every folder", hint="Add --a NAME --b NAME.")
    results, names = [], []
    said = sys.stderr if args.json else sys.stdout  # --json prints the record alone
    for folder in map(Path, args.files):
        name = printable(folder.name)
        prepared = front.prepare(_folder_pair(folder, args), metric=args.metric,  # one metric for every dataset
                                 about=f"the first folder's data ({name}), for every folder").settled()
        for note in filter(None, [prepared.choice.note(_others(args))]):
            print(f"note: {note}", file=said)
        args.metric = prepared.metric
        gold, a, b, metric, options, groups = prepared.inputs
        res = compare(gold, a, b, metric=metric, test=args.test, n_resamples=args.resamples, groups=groups,
                      budget=args.budget, progress=_progress(f"{name}: resampling"),
                      alternative="greater", alpha=args.alpha, seed=args.seed, **options)
        results.append(res)
        names.append(name)
        print(f"{name}: {report.verdict(res, a=args.a, b=args.b)}", file=said)
    out = statistics.replicability(results, alpha=args.alpha, datasets=names)
    if args.json:
        print(records.dumps(records.replicability(out, results=results, a_name=args.a, b_name=args.b)))
        return 0
    print("\n" + out.sentence().replace("A is better than B", f"{args.a} is better than {args.b}"))
    return 0


def _folder_pair(folder: Path, args) -> Aligned:
    """A dataset's folder: its gold file (named as such) and the files of systems ``args.a`` and ``args.b``."""
    files = sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    gold = [files[i] for i in gold_files([f.name for f in files])]
    if len(gold) != 1:
        raise InputError(f"needs exactly one gold file (named {GOLD_NAMES}), "
                         f"found {len(gold)}", file=str(folder))
    systems = [f for f in files if f != gold[0]]
    by_name = dict(zip(system_names([f.name for f in systems]), systems))
    for name in (args.a, args.b):
        if name not in by_name:
            raise InputError(f"has no system {name!r}", file=str(folder),
                             hint=f"Its systems are: {', '.join(by_name)}.")
    return from_files(read(gold[0]), read(by_name[args.a]), read(by_name[args.b]))


def _figure(args) -> int:
    saved = _saved(args.file, ("pair", "family", "board"), "Save one with `sigcore compare ... --save RESULT.json` "
                   "(or `sigcore many ... --save FAMILY.json`).")
    suffix = Path(args.out).suffix.lower().lstrip(".")
    if suffix not in export.FORMATS:
        raise SettingsError(f"--out must end in .pdf, .svg or .png, not {args.out!r}")
    try:  # plotly: only where a figure is drawn
        from .report import figures
        from .report.family_figures import forest
    except ModuleNotFoundError as e:
        raise SettingsError(f"figures need {e.name or 'plotly'}, which is not installed",
                            hint='Install sigcore with its figures: pip install "sigcore[figures]" (plotly and '
                                 'kaleido).') from None

    style = style_named(args.style, args.venue)
    style.width(args.width)  # a width the style cannot take is refused before anything is drawn
    if args.kind in BOARD_KINDS or saved["kind"] == "board":
        return _board_figure(args, saved, style, suffix)
    families = saved["families"] if saved["kind"] == "family" else None
    if args.kind == "forest" and not families:
        raise InputError("holds no family of comparisons to draw a forest plot of", file=args.file,
                         hint="Save one with `sigcore many ... --baseline NAME --save FAMILY.json`.")
    if args.kind != "forest" and families is not None:
        raise InputError("holds a family of comparisons, not one result: draw it with --kind forest", file=args.file)
    if (args.kind != "forest" and saved.get("test") in ("bootstrap", "permutation")
            and saved.get("distribution") is None):  # printed with --json: the values were left out
        raise InputError("holds no resampled values (a result printed with --json leaves them out)", file=args.file,
                         hint="Write the result with its values: sigcore compare ... --save RESULT.json.")
    chosen = [f for f in families or [] if args.metric in (None, f.get("metric"))]
    if families and len(chosen) != 1:
        raise SettingsError(f"{args.file} has no family on {args.metric!r}" if args.metric else
                            f"{args.file} holds {len(families)} families: choose one with --metric",
                            hint=f"It has: {', '.join(str(f.get('metric')) for f in families)}.")
    try:
        if args.kind == "forest":
            fig = forest(Many.from_dict(chosen[0]), style=style, width=args.width)
            caption = [family.forest_caption(Many.from_dict(chosen[0]), latex=latex) for latex in (False, True)]
        else:
            res = Result.from_dict(saved, file=args.file)
            fig = figures.figure(res, args.kind, style=style, width=args.width,
                                 a=saved.get("a_name") or "A", b=saved.get("b_name") or "B")
    except SigcoreError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"is not a result saved by sigcore ({type(e).__name__}: {e})", file=args.file,
                         hint="Save one with `sigcore compare ... --save RESULT.json`.") from None
    if args.height is not None:
        _set_height(fig, args.height)
    _write(args.out, export.styled_image(fig, suffix, style))
    print(f"wrote {args.out} ({args.kind}, {style.describe(args.width)}"
          f"{f', {args.height} high' if args.height else ''})")
    if args.kind != "forest":
        caption = [export.figure_caption(res, args.kind, latex=latex) for latex in (False, True)]
    print(f"caption: {caption[0]}\nLaTeX caption: {caption[1]}")
    if style.name == "paper":
        out = Path(args.out)
        label = args.label or f"fig:{paper.stem(out.stem)}"
        print("LaTeX figure (\\sigcoredir: the figure's folder):\n"
              + paper.figure_tex(out.name, caption[1], label, out.parent.name if out.parent.name else ".",
                                 wide=style.spans_columns(args.width)), end="")
    return 0


def _board_figure(args, saved, style, suffix: str) -> int:
    """`figure` of models on many tasks saved by `many --save`: the ranks, or either diagram, with its caption."""
    from .leaderboard import Leaderboard
    from .report import board as board_words
    from .report.board_figures import styled

    hint = "Save one with `sigcore many LOGS... --save BOARD.json` (models on many tasks)."
    if saved["kind"] != "board":
        raise InputError(f"holds no board of models on many tasks to draw --kind {args.kind} of", file=args.file,
                         hint=hint)
    if "board" not in saved:
        raise InputError("holds a board without its resamples (one printed with --json leaves them out)",
                         file=args.file, hint=hint)
    if args.kind not in BOARD_KINDS:
        raise InputError(f"holds models on many tasks, which --kind {args.kind} does not draw: draw it with "
                         f"--kind {', '.join(BOARD_KINDS[:-1])} or {BOARD_KINDS[-1]}", file=args.file)
    try:
        res = Leaderboard.from_dict(saved["board"])
        alpha, correction = saved["settings"]["alpha"], saved["settings"]["correction"]
        if args.metric not in (None, res.board.metric):
            raise SettingsError(f"{args.file} is a board on {res.board.metric!r}, not on {args.metric!r}")
        fig = styled(res, args.kind, alpha, correction, style, args.width)
        shown = rows_on_page(len(res.board.models), style)[0] if args.kind == "ranks" else None
        caption = [board_words.figure_caption(res, args.kind, alpha, correction, latex=latex, shown=shown)
                   for latex in (False, True)]
    except SigcoreError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"is not a board saved by sigcore ({type(e).__name__}: {e})", file=args.file,
                         hint=hint) from None
    if args.height is not None:
        _set_height(fig, args.height)
    _write(args.out, export.styled_image(fig, suffix, style))
    high = f", {args.height} high" if args.height else ""
    print(f"wrote {args.out} ({args.kind}, {style.describe(args.width)}{high})\ncaption: {caption[0]}\n"
          f"LaTeX caption: {caption[1]}")
    if style.name == "paper":
        out = Path(args.out)
        print("LaTeX figure (\\sigcoredir: the figure's folder):\n" + paper.figure_tex(
            out.name, caption[1], args.label or f"fig:{paper.stem(out.stem)}", out.parent.name or ".",
            wide=style.spans_columns(args.width)), end="")
    return 0


def _set_height(fig, height: str) -> None:
    """``fig`` drawn ``height`` high (a length), its panel taking what its margins and rows leave."""
    from .report.style import PT_PER_IN, PX_PER_IN
    from .report.venues import length

    px = length(height, "height") / PT_PER_IN * PX_PER_IN
    rows = len(fig.layout.yaxis.ticktext or ()) * 1.2 * fig.layout.font.size  # a forest plot's systems
    least = fig.layout.margin.t + fig.layout.margin.b + max(rows, 0.6 * PX_PER_IN)
    if px < least:
        raise SettingsError(f"--height {height} leaves no room for the figure's panel",
                            hint=f"Give at least {math.ceil(least / PX_PER_IN * 2.54 * 10) / 10:g}cm here, or no "
                                 "--height (what the figure needs).")
    fig.update_layout(height=px)


def _say_notes(frame) -> None:
    """What the logs' readers noted (HELM's instances left out, the split compared), as every command says it."""
    for note in frame.attrs.get("notes", []):
        print(f"note: {note}", file=sys.stderr)


def _convert(args) -> int:
    from .logs import tidy

    table = tidy.from_logs(args.files)
    tidy.write(table, args.out)
    _say_notes(table)
    counts = table.groupby(["model", "task"]).item.nunique()
    print(f"wrote {args.out}: {counted(len(table), 'score')} of {counted(table.model.nunique(), 'model')} on "
          f"{counted(table.task.nunique(), 'task')} ({counts.sum():,} items over the models' tasks), metrics "
          f"{', '.join(dict.fromkeys(table.metric))}")
    return 0


def _board(args) -> int:
    """Models on many tasks: the aggregate, its interval, the rank interval and δ against a baseline with its
    corrected p, from one bootstrap stratified by task."""
    from . import leaderboard
    from .logs import tidy
    from .report import board as board_words
    from .report import board_page, board_table

    unsupported = [flag for flag, given in (
        ("--test", args.test != AUTO), ("--compat", args.compat),
        ("--alternative", args.alternative != "two-sided"), ("--bibtex", args.bibtex),
        ("--columns", args.columns), ("--tokenize", args.tokenize),
        ("--gold", args.gold), ("--gold-file", args.gold_file), ("--id", args.id), ("--by-row", args.by_row),
        ("--name", args.name)) if given]
    if unsupported:  # said, not ignored
        raise SettingsError(f"{unsupported[0]} is not taken by models on many tasks (a tidy table or logs)",
                            hint="Their comparison is the paired bootstrap, two-sided, stratified by task; it prints "
                                 "its table, or --csv / --json.")
    frame = tidy.read_table(args.files[0]) if len(args.files) == 1 and tidy.is_table(args.files[0]) \
        else tidy.from_logs(args.files)
    board = leaderboard.from_table(frame, metric=args.metric, cluster=args.cluster,  # several metrics: on each
                                   on_missing="drop" if args.drop_unmatched else "stop")  # task the first it has
    _say_notes(frame)
    if (args.latex or args.paper) and args.all_pairs:
        raise SettingsError(f"{'--latex' if args.latex else '--paper'} marks each task's score against a baseline; "
                            "with --all-pairs, leave it out",
                            hint="Give --baseline (default: the first model) for the task x model table.")
    res = leaderboard.bootstrap(board, n_resamples=args.resamples, seed=args.seed, weight=args.weight,
                                per_task=args.per_task is not None or args.latex or args.paper is not None,
                                scheduler=args.scheduler,
                                progress=_progress(f"{len(board.tasks)} tasks"))
    base = args.baseline if args.baseline is not None else board.models[0]
    if base not in board.models:
        raise SettingsError(f"--baseline {base} is not one of the models", hint=f"The models: "
                            f"{', '.join(board.models)}.")

    def record(saved: bool = False) -> dict:  # --json's record; --save's adds what `sigcore figure` draws
        return records.board(res, baseline=None if args.all_pairs else base, alpha=args.alpha,
                             correction=args.correction, per_task=args.per_task, friedman=args.friedman, saved=saved)
    if args.save:  # what `sigcore figure --kind ranks|cd|nemenyi` draws, at this run's α and correction
        _write(args.save, records.dumps(record(saved=True)))
    if args.friedman and args.csv:
        raise SettingsError("--csv prints one table; the Friedman test is not a row of it",
                            hint="Use --json, or the printed board, with --friedman.")
    if args.all_pairs and args.per_task:
        raise SettingsError("--per-task compares each model with the baseline; with --all-pairs, leave it out",
                            hint="Every pair is compared on the aggregate; run --per-task with a --baseline.")
    table = res.table(base, args.alpha, args.correction)
    tasks = res.task_table(base, args.alpha, args.correction, over=args.per_task) if args.per_task else None
    warnings = [f"warning: {w}" for w in board_words.floor_warnings(
        res, None if args.all_pairs else base, args.alpha, args.correction, args.per_task,
        0 if tasks is None else len(tasks))]  # b too small for any p to pass the correction: on stdout with the board
    if warnings and (args.csv or args.json or args.latex):
        print(*warnings, sep="\n", file=sys.stderr)
    if args.all_pairs:  # every pair on the aggregate, corrected over the pairs, as the tie groups are
        pairs = res.pairs(args.alpha, args.correction)
        if args.csv or args.json:
            print(export.table_csv(pairs).decode("utf-8") if args.csv else records.dumps(record()),
                  end="" if args.csv else "\n")
            return 0
        print(board_words.heading(res, None, args.alpha, args.correction), *warnings, sep="\n")
        _print_rows(*board_words.model_rows(table, None, args.alpha, 1 / args.resamples))
        print()
        _print_rows(["model", "other", "δ", "CI of δ", "p", "p corrected"],
                    [[r.model, r.other, *board_words.delta_cells(r, args.alpha, 1 / args.resamples)]
                     for r in pairs.itertuples(index=False)])
        print(board_words.legend(res, None, args.alpha, args.correction) + "; "
              + board_words.legend(res, "", args.alpha, args.correction).split("; *")[0])
        _friedman(res, args)
        return 0
    for note in board.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.paper:
        settings = {"--metric": [board.metric] if args.metric is None else args.metric,
                    "--baseline": [base], "--weight": [args.weight], "--resamples": [args.resamples],
                    "--seed": [args.seed], "--alpha": [repr(args.alpha)], "--correction": [args.correction],
                    "--per-task": [args.per_task or "family"]}
        command = reproduce.rerun(reproduce.PROG, args.argv, settings, _arity("many"), base=args.paper)
        _paper(args, paper.for_board(res, baseline=base, alpha=args.alpha, correction=args.correction,
                                     over=args.per_task or "family", command=command, venue=args.venue,
                                     folder=_folder_name(args.paper), draw=paper.drawer(args.venue)))
    if args.html:
        _write(args.html, board_page.page(res, base, args.alpha, args.correction, figure_svg=_rank_svg(res, args)))
    if args.markdown:
        print(board_page.markdown(res, base, args.alpha, args.correction), end="")
        return 0
    if args.latex:  # the task x model table for the paper, marks against the baseline
        print(board_table.latex(res, base, args.alpha, args.correction, over=args.per_task or "family",
                                venue=args.venue), end="")
        return 0
    if args.csv:
        print(export.table_csv(table).decode("utf-8"), end="")
        return 0
    if args.json:
        print(records.dumps(record()))
        return 0
    print(board_words.heading(res, base, args.alpha, args.correction), *warnings, sep="\n")
    _print_rows(*board_words.model_rows(table, base, args.alpha, 1 / args.resamples))
    print(board_words.settled(res, args.alpha, args.correction))
    print(board_words.legend(res, base, args.alpha, args.correction))
    if tasks is not None and len(tasks):
        print("\n" + board_words.per_task_heading(res, base, args.correction, args.per_task, len(tasks)))
        _print_rows(["task", "model", "δ", "CI of δ", "p", "p corrected"],
                    [[r.task, r.model, *board_words.delta_cells(r, args.alpha, 1 / args.resamples)]
                     for r in tasks.itertuples(index=False)])
    if board.epochs:  # runs of the items: how much of δ's variance is theirs
        print("\n" + board_words.variance_heading(res, base))
        _print_rows(board_words.variance_header(res), board_words.variance_rows(res, base))
    _friedman(res, args)
    return 0


def _rank_svg(res, args) -> str | None:
    """The board's rank figure as SVG text for its page, or None (said on stderr) where it cannot be drawn."""
    try:
        from .report.board_figures import ranks

        fig = ranks(res, args.alpha, args.correction)
        return export.figure_image(fig, "svg", width=900, height=int(fig.layout.height), scale=1).decode("utf-8")
    except (ImportError, SettingsError) as e:
        print(f"note: the page has no rank figure ({e})", file=sys.stderr)
        return None


def _friedman(res, args) -> None:
    from .report import board as board_words

    if args.friedman:
        print("\n" + board_words.friedman(res, args.alpha))




def _print_rows(header: list[str], rows: list[list[str]]) -> None:
    rows = [[in_text(c) for c in r] for r in [header, *rows]]  # a model's or a task's name is one cell of one line
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def _write(path: str, content: str | bytes) -> None:
    try:
        Path(path).write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    except OSError as e:
        raise SettingsError(f"cannot write {path} ({e.strerror})") from None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    args.argv = [args.command, *(sys.argv[1:] if argv is None else argv)[1:]]  # for a paper folder's reproduce.sh
    commands = {"many": _many, "seeds": _seeds, "datasets": _datasets, "figure": _figure, "convert": _convert,
                "advise": _advise, "power": _power}
    if args.command in commands:
        return _run(commands[args.command], args)
    if args.command != "compare":
        table = METRICS if args.command == "metrics" else TESTS
        for name, entry in table.items():
            print(f"{name:12} {entry.description}")
        return 0
    return _run(_compare, args)


_FLAGS = {"n_resamples": "--resamples", "n_bootstrap": "--resamples", "confidence_level": "--confidence",
          "alpha": "--alpha", "seed": "--seed",
          "positive_label": "--positive-label",
          "n_sims": "--sims", "alternative": "--alternative", "metric": "--metric", "test": "--test", "n": "--n"}


def _progress(what: str):
    """A line on the terminal that says how far a long run has got (none when stderr is not a terminal, as in a
    pipe or a log), redrawn at most twice a second and cleared at the end; Ctrl-C stops the run."""
    stream = sys.__stderr__
    if stream is None or not stream.isatty():
        return None
    start, last = time.monotonic(), [0.0]

    def report(done: float) -> None:
        now = time.monotonic()
        if done < 1 and (now - last[0] < 0.5 or now - start < 1):  # a short run draws nothing
            return
        last[0] = now
        stream.write(f"\r{printable(what)}: {done:.0%}" + ("\r\x1b[K" if done >= 1 else ""))
        stream.flush()
    return report


class _Printable:
    """A text stream that writes control characters as \\xNN: a file name with an ANSI escape, a bell or a
    carriage return is shown, never obeyed by the terminal."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(printable(text, keep="\n\t"))  # all but newlines and tabs of its own

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _run(command, args) -> int:
    """Run a command; bad input is one line on stderr (status 2), never a traceback; no control character of
    the data reaches the terminal."""
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Printable(sys.stdout), _Printable(sys.stderr)
    try:
        return _checked(command, args)
    finally:
        sys.stdout, sys.stderr = streams


def _checked(command, args) -> int:
    try:
        if getattr(args, "replace", False) and not args.paper:  # said, not ignored
            raise SettingsError("--replace is for --paper DIR", hint="It lets this run replace the files of a paper "
                                "folder that sigcore did not write; add --paper DIR, or leave it out.")
        return command(args)
    except SigcoreError as e:
        message = str(e)
        if isinstance(e, budget.BudgetError):  # on one's own machine the limit is one's own to raise
            message += f" Or raise the limit: --budget {e.work * 1.01:.1e} (or none)."
        for parameter, flag in _FLAGS.items():  # the engine names its parameters; here they are flags
            message = message.replace(f"`{parameter}`", flag)
        print(f"error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped reading (python -m sigcore ... | head): nothing went wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit flush does not fail
        return 0
    except Exception as e:  # a bug, not the user's fault: still one line, and how to report it
        print(f"error: sigcore failed unexpectedly ({type(e).__name__}: {e}). Please report it with the command "
              "you ran.", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
