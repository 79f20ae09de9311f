"""sigcore convert: evaluation logs (Inspect AI, lm-evaluation-harness) as one tidy table, CSV or Parquet."""

from __future__ import annotations

from ..words import counted
from .running import say_notes

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    convert = commands.add_parser("convert", help="evaluation logs as one tidy table (model, task, item, run, "
                                                  "metric, score)",
                                  description="Read Inspect AI logs (.eval, .json) and lm-evaluation-harness samples "
                                              "files (MODEL/samples_<task>_<date>.jsonl) and write their scores as "
                                              "one long table, CSV or Parquet (docs/how-to/llm-logs.md).")
    convert.set_defaults(run=run)
    convert.add_argument("files", nargs="+", metavar="LOG")
    convert.add_argument("--out", required=True, help="the table's file: .csv or .parquet")


def run(args) -> int:
    from ..logs import tidy

    table = tidy.from_logs(args.files)
    tidy.write(table, args.out)
    say_notes(table)
    counts = table.groupby(["model", "task"]).item.nunique()
    print(f"wrote {args.out}: {counted(len(table), 'score')} of {counted(table.model.nunique(), 'model')} on "
          f"{counted(table.task.nunique(), 'task')} ({counts.sum():,} items over the models' tasks), metrics "
          f"{', '.join(dict.fromkeys(table.metric))}")
    return 0
