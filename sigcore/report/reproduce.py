"""The command line that recreates a result from its files, every setting spelled out (a default may change
between versions; what is written here will not)."""

from __future__ import annotations

import os
import shlex
from typing import Any, Mapping, Sequence

from ..result import Result
from ..words import CONTROL, escape

_COLUMN_FLAGS = {"gold": "--gold", "A": "--a", "B": "--b", "id": "--id", "group": "--group", "gold_file": "--gold-file",
                 "baseline": "--baseline", "filter": "--filter"}
_OPTION_FLAGS = {"tokenize": "--tokenize", "positive_label": "--positive-label"}


def command(res: Result, files: Sequence[str], *, columns: Mapping[str, str] | None = None,
            metric: str | None = None, by_row: bool = False, encoding: str | None = None,
            prog: str = "python -m sigcore", claim: tuple[str, float] | None = None) -> str:
    """``python -m sigcore compare FILES --metric ... --seed ...``: run where the files are, it prints ``res``
    again (the same signature). ``columns``: the roles of a table's columns (``Aligned.columns``); ``metric``:
    the name given on the command line where it differs from ``res.metric`` (lm-eval's ``acc`` is scored as
    ``mean``); ``claim``: (kind, Δ) of the non-inferiority or equivalence claim ``res`` was run for, which has its
    own side and level (``--non-inferior Δ`` or ``--equivalent Δ`` in place of ``--alternative``)."""
    args = [*prog.split(), "compare", *files]
    for role, column in (columns or {}).items():
        if role in _COLUMN_FLAGS:
            args += [_COLUMN_FLAGS[role], column]
    if by_row:
        args.append("--by-row")
    if encoding:
        args += ["--encoding", encoding]
    args += ["--metric", metric or res.metric, "--test", res.test]
    if not res.higher_is_better:  # said for every lower-is-better metric: per-item scores need it, MAE agrees
        args.append("--lower-is-better")
    if claim is not None:
        args += [f"--{claim[0]}", repr(float(claim[1]))]
    else:
        args += ["--alternative", res.alternative]
    args += ["--alpha", repr(float(res.alpha))]  # repr: the shortest text that reads back as the same float
    if claim is None and abs(res.confidence_level - (1 - res.alpha)) > 1e-12:
        args += ["--confidence", repr(float(res.confidence_level))]
    if res.resampled:
        args += ["--resamples", str(res.n_resamples), "--seed", str(res.seed)]
    if claim is None and res.ci_method in ("bootstrap-basic", "bootstrap-percentile", "bootstrap-bca", "none"):
        args += ["--ci-method", res.ci_method.removeprefix("bootstrap-")]
    if res.test == "mcnemar" and "-chi2" in res.signature.split("|")[0]:
        args.append("--chi-square")
    if res.compat:
        args += ["--compat", res.compat]
    for name, flag in _OPTION_FLAGS.items():
        if name in res.options and not (name == "tokenize" and res.metric != "bleu"):
            args += [flag, str(res.options[name])]
    return " ".join(map(_quoted, args))


def _quoted(arg: str) -> str:
    """shlex's quoting, and bash's $'...' for an argument with control or invisible characters (a newline in a
    file name, a bidi override), so that the line runs as it is and shows on one line, as it reads."""
    if not CONTROL.search(arg):
        return shlex.quote(arg)
    body = CONTROL.sub(lambda m: escape(m.group()), arg.replace("\\", "\\\\").replace("'", "\\'"))
    return f"$'{body}'"


OUTPUTS = ("--paper", "--save", "--json", "--latex", "--bibtex", "--csv", "--venue", "--columns")


def rerun(prog: str, argv: Sequence[str], settings: Mapping[str, Sequence[str]], arity: Mapping[str, Any], *,
          base: str = ".") -> str:
    """The command line ``argv`` was, with every setting of ``settings`` (flag: values) spelled out in place of
    what was given or defaulted, without the flags that choose outputs, and with each path that names a file made
    relative to ``base`` (a paper folder's script runs from the folder). ``arity``: each flag's argparse ``nargs``
    (0 for a switch, None for one value, "+" for several)."""
    out, left = [], 0  # left: values still to drop after a dropped flag (-1: until the next flag)
    for arg in argv:
        flag = arg.split("=", 1)[0]
        if arg.startswith("-") and flag in arity:
            drop = flag in OUTPUTS or flag in settings
            n = arity[flag]
            left = -1 if drop and n in ("+", "*") else (1 if n is None else n or 0) if drop and "=" not in arg else 0
            if drop:
                continue
        elif left:
            left -= left > 0
            continue
        # a file, or a folder of logs (lm-eval's, HELM's)
        out.append(os.path.relpath(arg, base) if not arg.startswith("-") and os.path.exists(arg) else arg)
    for flag, values in settings.items():
        out += [flag, *map(str, values)]
    return " ".join(map(_quoted, [*prog.split(), *out]))
