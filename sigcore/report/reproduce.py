"""The command line that recreates a result from its files, every setting spelled out (a default may change
between versions; what is written here will not).

One quoting for two readers: :func:`line` quotes each argument for POSIX sh (``'...'``, a quote as ``'\\''``; a
newline inside quotes is legal), so a paper folder's ``reproduce.sh`` passes every name exactly, whichever shell runs
it (``sh`` is dash on Debian, whatever the first line says); :func:`shown` is that line as a terminal or a page
shows it, control and invisible characters escaped (:func:`sigcore.words.printable`), so that a name can neither
forge a line nor read backwards, with a note where that makes the text differ from the command."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..words import printable

__all__ = ["PROG", "ESCAPED", "command", "arguments", "line", "shown", "OUTPUTS", "rerun"]

PROG = "python -m sigcore"  # what reproduce.sh runs: it works wherever sigcore is installed for python
_COLUMN_FLAGS = {"gold": "--gold", "A": "--a", "B": "--b", "id": "--id", "group": "--group", "gold_file": "--gold-file",
                 "baseline": "--baseline", "filter": "--filter"}
_OPTION_FLAGS = {"tokenize": "--tokenize", "positive_label": "--positive-label"}
_PLAIN = re.compile(r"[\w@%+=:,./-]+", re.ASCII)  # words sh takes as they are (as shlex.quote's)
ESCAPED = ("shown escaped: a name holds a control or invisible character, so this is not the command as it runs; "
           "a paper folder's reproduce.sh holds it exactly")


def command(res: Any, files: Sequence[str], *, columns: Mapping[str, str] | None = None,
            metric: str | None = None, by_row: bool = False, encoding: str | None = None,
            prog: str = PROG) -> str:
    """``python -m sigcore compare FILES --metric ... --seed ...``: run where the files are, it prints ``res``
    again (the same signature); :func:`line` of :func:`arguments`."""
    return line(arguments(res, files, columns=columns, metric=metric, by_row=by_row, encoding=encoding, prog=prog))


def arguments(res: Any, files: Sequence[str], *, columns: Mapping[str, str] | None = None,
              metric: str | None = None, by_row: bool = False, encoding: str | None = None,
              prog: str = PROG) -> list[str]:
    """The words of :func:`command`, unquoted, written from the fields of ``res``'s signature (``res``: a pair's
    result, a claim, or their :class:`~sigcore.signature.Signature`); nothing is read back from a signature's text.
    ``columns``: the roles of a table's columns (``Aligned.columns``); ``metric``: the name given on the command line
    where it differs from the signature's (lm-eval's ``acc`` is scored as ``mean``). A claim (non-inferiority,
    equivalence) has its own side and level: ``--non-inferior Δ`` or ``--equivalent Δ`` in place of
    ``--alternative``."""
    sig = getattr(res, "signature_fields", res)
    if sig.kind not in ("pair", "claim"):
        raise ValueError(f"a {sig.kind} signature has no compare command"
                         + (": the result was saved without its signature's fields (by sigcore 0.2.0 or older); "
                            "run it again to rerun it" if sig.kind == "saved" else ""))
    claim = sig.claim is not None
    args = [*prog.split(), "compare", *map(_positional, files)]
    for role, column in (columns or {}).items():
        if role in _COLUMN_FLAGS:
            args += _option(_COLUMN_FLAGS[role], column)
    if by_row:
        args.append("--by-row")
    if encoding:
        args += _option("--encoding", encoding)
    args += _option("--metric", metric or sig.metric) + ["--test", sig.test]
    if not sig.higher_is_better:  # said for every lower-is-better metric: per-item scores need it, MAE agrees
        args.append("--lower-is-better")
    args += [f"--{sig.claim}", repr(float(sig.margin))] if claim else ["--alternative", sig.alternative]
    args += ["--alpha", repr(float(sig.alpha))]  # repr: the shortest text that reads back as the same float
    if not claim and abs(sig.level - (1 - sig.alpha)) > 1e-12:
        args += ["--confidence", repr(float(sig.level))]
    if sig.resamples is not None:  # b of the interval's own bootstrap where it has one (an exact permutation
        # test's); else b itself, or for an exact test without one, the 2^n' assignments it enumerated (all but one)
        b = sig.ci_resamples or sig.resamples + sig.exact
        args += ["--resamples", str(b), "--seed", str(sig.seed)]
    if not claim and sig.ci in ("bootstrap-basic", "bootstrap-percentile", "bootstrap-bca", "none"):
        args += ["--ci-method", sig.ci.removeprefix("bootstrap-")]
    if sig.chi_square:
        args.append("--chi-square")
    if sig.compat:
        args += ["--compat", sig.compat]
    for name, flag in _OPTION_FLAGS.items():
        if name in sig.options and not (name == "tokenize" and sig.metric != "bleu"):
            args += _option(flag, str(sig.options[name]))
    return args


def line(args: Sequence[str]) -> str:
    """``args`` as one command for POSIX sh: each word as it is, or in single quotes (``'`` as ``'\\''``), which
    pass every character but NUL unchanged (newlines, ``$``, backquotes, ``\\``), in dash and bash alike. Not for a
    terminal: show it through :func:`shown`."""
    return " ".join(word if _PLAIN.fullmatch(word) else "'" + word.replace("'", "'\\''") + "'" for word in args)


def shown(command: str) -> tuple[str, str | None]:
    """``command`` as a terminal or a page shows it: on one line, in its order (control and invisible characters
    as \\xNN or \\uNNNN), and, where that is not the command itself, the note that says so (:data:`ESCAPED`)."""
    text = printable(command)
    return text, (ESCAPED if text != command else None)


def _option(flag: str, value: str) -> list[str]:
    """A flag and its value; as ``--flag=-value`` when the value starts with '-', which argparse would take for a
    flag (a column named "-x")."""
    return [f"{flag}={value}"] if value.startswith("-") else [flag, value]


def _positional(path: str) -> str:
    """A file as a command names it: "./-x.csv" for "-x.csv", which argparse would take for a flag."""
    return os.path.join(".", path) if path.startswith("-") else path


OUTPUTS = ("--paper", "--save", "--json", "--latex", "--bibtex", "--csv", "--venue", "--columns", "--replace")


def rerun(prog: str, argv: Sequence[str], settings: Mapping[str, Sequence[str]], arity: Mapping[str, Any], *,
          base: str = ".") -> str:
    """The command line ``argv`` was, with every setting of ``settings`` (flag: values) spelled out in place of
    what was given or defaulted, without the flags that choose outputs, and with each path that names a file made
    relative to ``base`` (a paper folder's script runs from the folder). ``arity``: each flag's argparse ``nargs``
    (0 for a switch, None for one value, "+" for several)."""
    out, left, ended = [], 0, False  # left: values still to drop after a dropped flag (-1: until the next flag)
    for arg in argv:
        flag, is_, value = arg.partition("=")
        if arg == "--" and not ended:  # the files after it start with '-': each is written ./-x instead
            ended = True
            continue
        if not ended and arg.startswith("-") and flag in arity:
            drop = flag in OUTPUTS or flag in settings
            n = arity[flag]
            left = -1 if drop and n in ("+", "*") else (1 if n is None else n or 0) if drop and not is_ else 0
            if not drop:
                out.append(f"{flag}={_path(value, base)}" if is_ else arg)
            continue
        if left and not ended:
            left -= left > 0
            continue
        out.append(_path(arg, base))  # a file, or a folder of logs (lm-eval's, HELM's), or a flag's value
    for flag, values in settings.items():
        values = [str(v) for v in values]
        out += _option(flag, values[0]) if len(values) == 1 else [flag, *values]
    return line([*prog.split(), *out])


def _path(arg: str, base: str) -> str:
    """A word that names a file or a folder, made relative to ``base``; any other word as it is."""
    return _positional(os.path.relpath(arg, base)) if arg and os.path.exists(arg) else arg
