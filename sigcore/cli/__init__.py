"""The command line: python -m sigcore compare ...

  python -m sigcore compare TABLE [--gold COL --a COL --b COL] [options]   one table (CSV, TSV, JSON lines,
                                                                            JSON, CoNLL); roles guessed
  python -m sigcore compare GOLD_FILE A_FILE B_FILE [options]               gold (by its name) + a file per system
  python -m sigcore compare A.conll B.conll --metric span_f1                CoNLL files that carry gold
  python -m sigcore compare samples_A.jsonl samples_B.jsonl --metric acc     lm-evaluation-harness logs
  python -m sigcore compare A_SCORES B_SCORES --metric mean                  per-item scores, no gold
  python -m sigcore many REF SYS1 SYS2 ... --baseline NAME | --all-pairs       many systems, corrected
  python -m sigcore many TABLE --metric accuracy --all-pairs                  one column per system
  python -m sigcore preferences BATTLES.csv [--json]                          ratings from pairwise judgments
  python -m sigcore seeds SCORES.csv                                          ASO over per-seed scores
  python -m sigcore datasets P_VALUES.csv                                     on how many datasets A wins
  python -m sigcore advise GOLD_FILE A_FILE B_FILE [--metric M]             which test fits, and why
  python -m sigcore power GOLD A B | --n N --accuracy-a ... --agreement ...  how many items
  python -m sigcore figure RESULT.json --kind histogram --out fig.pdf          a figure for a paper
  python -m sigcore metrics | tests                                          what exists

Bad input exits with status 2 and one line saying what, where and how to fix it; never a traceback.

One module per command (compare, many and board, preferences, seeds, datasets, figure, convert, advise, power,
lists), each a thin layer over the library with ``add_parser(commands)`` and ``run(args)``; :mod:`.options` holds
what several take alike, :mod:`.parser` builds the parser from them, :mod:`.running` runs one and says its errors.
"""

from __future__ import annotations

import sys

from .parser import build
from .running import run

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    top = build()
    args = top.parse_args(argv)
    # for a paper folder's reproduce.sh: the command as typed, and how many values each of its options takes
    args.argv = [args.command, *(sys.argv[1:] if argv is None else argv)[1:]]
    args.arity = top.commands[args.command].arity
    return run(args.run, args)
