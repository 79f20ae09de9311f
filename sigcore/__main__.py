"""The command line: python -m sigcore compare ...

  python -m sigcore compare TABLE --gold COL --a COL --b COL [options]   one CSV/TSV table
  python -m sigcore compare GOLD_FILE A_FILE B_FILE [options]             plain text, one output per line
  python -m sigcore compare A_FILE B_FILE --metric mean                    per-item scores, no gold
  python -m sigcore metrics | tests                                        what exists

Bad input exits with status 2 and one line saying what, where and how to fix it; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import ALTERNATIVES, METRICS, TESTS, compare, report
from .compare import COMPAT
from .errors import InputError, SigcoreError
from .inputs import column, read_lines, read_table


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m sigcore",
                                     description="Paired significance tests: does system A beat system B?")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("metrics", help="list the metrics")
    commands.add_parser("tests", help="list the tests")
    cmp = commands.add_parser("compare", help="test A against B",
                              description="Test whether system A beats system B on the same items.")
    cmp.add_argument("files", nargs="+", metavar="FILE",
                     help="one table (with --gold/--a/--b), or GOLD A B text files, or A B for --metric mean")
    cmp.add_argument("--gold", help="table column with the gold labels or references")
    cmp.add_argument("--a", help="table column with system A's outputs")
    cmp.add_argument("--b", help="table column with system B's outputs")
    cmp.add_argument("--metric", default="accuracy", choices=list(METRICS))
    cmp.add_argument("--test", default="bootstrap", choices=list(TESTS))
    cmp.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples or permutations (b)")
    cmp.add_argument("--alternative", choices=ALTERNATIVES,
                     help="H1: greater = A better (default), less = B better, two-sided = they differ")
    cmp.add_argument("--seed", type=int, default=0)
    cmp.add_argument("--confidence", type=float, default=0.95, help="confidence level of the intervals")
    cmp.add_argument("--ci-method", default="percentile", choices=["percentile", "bca", "none"],
                     help="interval of delta; none skips the extra bootstrap some tests need for it")
    cmp.add_argument("--compat", choices=COMPAT, help="reproduce another tool's two-sided definitions")
    cmp.add_argument("--alpha", type=float, default=0.05, help="significance level of the verdict")
    cmp.add_argument("--tokenize", help="BLEU tokenizer (sacrebleu's names: 13a, none, intl, ...)")
    cmp.add_argument("--positive-label", help="the positive class for precision, recall and f1")
    cmp.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


def _load(args) -> tuple[list | None, list, list, tuple[str, str]]:
    files = args.files
    if len(files) == 1:
        table = read_table(files[0])
        missing = [flag for flag in ("a", "b") if getattr(args, flag) is None]
        if missing or (args.gold is None and METRICS[args.metric].needs_gold):
            raise SigcoreError("a table needs --gold, --a and --b to name its columns",
                               file=files[0], hint=f"The columns are: {', '.join(map(str, table.columns))}.")
        gold = column(table, args.gold, files[0], "gold") if args.gold else None
        return gold, column(table, args.a, files[0], "A"), column(table, args.b, files[0], "B"), (args.a, args.b)
    if len(files) == 2 and not METRICS[args.metric].needs_gold:
        sys_a, sys_b = _read_same_length(files)
        return None, sys_a, sys_b, tuple(files)
    if len(files) == 3:
        gold, sys_a, sys_b = _read_same_length(files)
        return gold, sys_a, sys_b, tuple(files[1:])
    raise SigcoreError(f"got {len(files)} files", hint="Give one table, or GOLD A B text files "
                       "(A B alone with --metric mean).")


def _read_same_length(files: list[str]) -> list[list[str]]:
    """Plain-text files, one item per line; a file with another number of lines is named."""
    texts = [read_lines(file) for file in files]
    for file, lines in zip(files[1:], texts[1:]):
        if len(lines) != len(texts[0]):
            raise InputError(f"has {len(lines)} lines but {files[0]} has {len(texts[0])}", file=file,
                             hint="Every file needs one line per item, for the same items in the same order.")
    return texts


def _compare(args) -> int:
    gold, sys_a, sys_b, (name_a, name_b) = _load(args)
    options = {k: v for k, v in (("tokenize", args.tokenize), ("positive_label", args.positive_label)) if v}
    alternative = args.alternative or ("two-sided" if args.compat else "greater")
    res = compare(gold, sys_a, sys_b, metric=args.metric, test=args.test, n_resamples=args.resamples,
                  alternative=alternative, confidence_level=args.confidence, seed=args.seed,
                  compat=args.compat, ci_method=None if args.ci_method == "none" else args.ci_method, **options)
    if args.json:
        print(json.dumps(res.to_dict(), indent=2))
    else:
        a, b = (name if name == role else f"{role} ({name})" for name, role in ((name_a, "A"), (name_b, "B")))
        print(report.summary(res, alpha=args.alpha, a=a, b=b))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command != "compare":
        table = METRICS if args.command == "metrics" else TESTS
        for name, entry in table.items():
            print(f"{name:12} {entry.description}")
        return 0
    try:
        return _compare(args)
    except SigcoreError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
