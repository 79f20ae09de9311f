"""The command line's parser, built from each command's module (its ``add_parser``), in the order the help lists
them; each option's number of values kept as it is added (:class:`Parser`), for a paper folder's reproduce.sh."""

from __future__ import annotations

import argparse
from typing import Any

from . import advise, compare, convert, datasets, figure, lists, many, power, preferences, seeds
from .options import prog

__all__ = ["COMMANDS", "Parser", "build"]

COMMANDS = (lists, compare, advise, power, many, preferences, convert, figure, seeds, datasets)  # the help's order


class Parser(argparse.ArgumentParser):
    """An argument parser that keeps how many values each of its options takes: ``arity``, flag -> argparse's
    ``nargs`` (0 for a switch, None for one value, "+" for several), as :func:`sigcore.report.reproduce.rerun`
    reads a command line back; from the actions that ``add_argument`` returns, not argparse's private lists.
    ``commands``: the subcommands' parsers by name (the top parser's)."""

    def __init__(self, *args, **kwargs):
        self.arity: dict[str, Any] = {}  # before argparse adds -h
        self.commands: dict[str, Parser] = {}
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        return self.kept(super().add_argument(*args, **kwargs))

    def add_mutually_exclusive_group(self, **kwargs):
        return _Group(super().add_mutually_exclusive_group(**kwargs), self)

    def kept(self, action: argparse.Action) -> argparse.Action:
        """``action`` (as ``add_argument`` returns it), its options' arity kept."""
        self.arity.update(dict.fromkeys(action.option_strings, action.nargs))
        return action


class _Group:
    """A mutually exclusive group whose options' arity its parser keeps."""

    def __init__(self, group, parser: Parser):
        self.group, self.parser = group, parser

    def add_argument(self, *args, **kwargs):
        return self.parser.kept(self.group.add_argument(*args, **kwargs))


def build() -> Parser:
    """The parser of ``sigcore``: a subcommand per command, each setting ``run``, the function that runs it."""
    top = Parser(prog=prog(), description="Paired significance tests: does system A beat system B?")
    commands = top.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.add_parser(commands)
    top.commands = dict(commands.choices)
    return top
