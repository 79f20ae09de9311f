"""What several commands take alike: the shared settings with their help and checks, the data's arguments, the venue
and paper folder options, and :data:`FLAGS`, the one mapping from the API's parameters to the flags that set them.

A setting is checked by the contract's validator (:mod:`sigcore.contract`), whose error names its parameter as a
field; the command line shows that field as its flag (:func:`on_command_line`), never by searching the text.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import ALTERNATIVES, METRICS, budget
from ..contract import (
    DEFAULT_ALPHA,
    DEFAULT_ALTERNATIVE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    check_alpha,
    check_alternative,
    check_level,
)
from ..errors import SettingsError, SigcoreError
from ..io.inputs import FORMATS
from ..report.venues import DEFAULT as DEFAULT_VENUE
from ..report.venues import VENUES

__all__ = ["FLAGS", "RESAMPLES_HELP", "ALPHA_HELP", "SEED_HELP", "BUDGET_HELP", "LOWER_HELP", "prog",
           "on_command_line", "steps", "level", "alternative", "resamples_option", "alternative_option",
           "alpha_option", "seed_option", "budget_option", "direction_option", "higher", "data_arguments",
           "paper_option", "venue_option"]

# The flag of each parameter an error of the engine may name (its ``parameter`` field): --alpha for `alpha`.
FLAGS = {"n_resamples": "--resamples", "n_bootstrap": "--resamples", "confidence_level": "--confidence",
         "alpha": "--alpha", "seed": "--seed", "alternative": "--alternative", "target": "--target", "tau": "--tau",
         "positive_label": "--positive-label", "n_sims": "--sims", "n": "--n", "groups": "--group",
         "ci_method": "--ci-method"}

RESAMPLES_HELP = f"bootstrap resamples or permutations (b; default {DEFAULT_RESAMPLES:,})"
ALPHA_HELP = f"significance level: reject H0 when p <= alpha (default {DEFAULT_ALPHA:g})"
SEED_HELP = f"seed of the random draws (default {DEFAULT_SEED})"
BUDGET_HELP = (f"the most work a run may do, in steps (default {budget.DEFAULT:.0e}, about 30 s on 2 cores, as on the "
               "app's server; 'none' for no limit)")
LOWER_HELP = ("per-item scores (--metric mean) on which lower is better (an error, a loss, a rank): then \"A beats B\" "
              "means A's is lower, and --alternative greater is H1 that A is better (its scores lower). MAE, MSE and "
              "RMSE are lower-is-better already; accuracy, F1 and BLEU refuse it")


def prog() -> str:
    """The command as it was typed: the installed script, or the module run by Python."""
    return "sigcore" if Path(sys.argv[0]).name == "sigcore" else "python -m sigcore"


def on_command_line(error: SigcoreError) -> SigcoreError:
    """``error`` as the command line says it: the parameter it names shown as its flag (:data:`FLAGS`)."""
    return error.at(parameter=FLAGS[error.parameter]) if error.parameter in FLAGS else error


# ---------------------------------------------------------------- argparse types, checked by the contract

def steps(text: str) -> int | None:
    """--budget: a positive number of steps, or 'none' for no limit."""
    if text.strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of steps (e.g. 1e10) or 'none', not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of steps, or 'none', not {text!r}")
    return int(value)


def level(parameter: str):
    """An argparse type for a level strictly between 0 and 1 (α, a confidence level, a target power, τ), checked by
    the contract's validator of ``parameter``, with its message under the flag's name."""
    check = check_alpha if parameter == "alpha" else check_level

    def parse(text: str) -> float:
        try:
            value: float | str = float(text)
        except ValueError:
            value = text
        try:
            return check(value, parameter)
        except SettingsError as e:
            raise argparse.ArgumentTypeError(str(on_command_line(e))) from None
    return parse


def alternative(text: str) -> str:
    """--alternative, checked by the contract's validator (its message, not argparse's "invalid choice")."""
    try:
        return check_alternative(text)
    except SettingsError as e:
        raise argparse.ArgumentTypeError(str(on_command_line(e))) from None


# ---------------------------------------------------------------- the shared settings

def resamples_option(cmd, *, default: int = DEFAULT_RESAMPLES, help: str = RESAMPLES_HELP) -> None:
    cmd.add_argument(FLAGS["n_resamples"], type=int, default=default, help=help)


def alternative_option(cmd, help: str) -> None:
    cmd.add_argument(FLAGS["alternative"], type=alternative, choices=ALTERNATIVES, default=DEFAULT_ALTERNATIVE,
                     help=help)


def alpha_option(cmd) -> None:
    cmd.add_argument(FLAGS["alpha"], type=level("alpha"), default=DEFAULT_ALPHA, help=ALPHA_HELP)


def seed_option(cmd) -> None:
    cmd.add_argument(FLAGS["seed"], type=int, default=DEFAULT_SEED, help=SEED_HELP)


def budget_option(cmd) -> None:
    cmd.add_argument("--budget", type=steps, default=budget.DEFAULT, help=BUDGET_HELP)


def direction_option(cmd) -> None:
    cmd.add_argument("--lower-is-better", action="store_true", help=LOWER_HELP)


def higher(args) -> bool | None:
    """The direction the command line gives (None: the metric's own)."""
    return False if getattr(args, "lower_is_better", False) else None


def data_arguments(cmd) -> None:
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
    cmd.add_argument(FLAGS["positive_label"], help="the positive class for precision, recall and f1")
    direction_option(cmd)


def paper_option(parser) -> None:
    parser.add_argument("--paper", metavar="DIR",
                        help="also write, from this run, a paper folder: the sentence (signature as a footnote), the "
                             "table, the figure at --venue's column width with its caption, the result JSON, and "
                             "sigcore.bib, reproduce.sh and checklist.md, which later runs into DIR merge into "
                             "(docs/how-to/paper.md)")
    parser.add_argument("--replace", action="store_true",
                        help="with --paper: replace the files of DIR this run writes even where sigcore did not write "
                             "them or they were changed since (refused otherwise, by name)")


def venue_option(parser) -> None:
    parser.add_argument("--venue", default=DEFAULT_VENUE, choices=list(VENUES),
                        help="the venue whose rules --latex follows (a table's caption below for acl, the default; "
                             "above for icml, neurips, iclr, ieee, acm and lncs)")
