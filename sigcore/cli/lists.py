"""sigcore metrics, sigcore tests: what exists, one line each."""

from __future__ import annotations

from .. import METRICS, TESTS

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    commands.add_parser("metrics", help="list the metrics").set_defaults(run=run)
    commands.add_parser("tests", help="list the tests").set_defaults(run=run)


def run(args) -> int:
    table = METRICS if args.command == "metrics" else TESTS
    for name, entry in table.items():
        print(f"{name:12} {entry.description}")
    return 0
