"""sigcore power: plan a test set, from pilot outputs or expected rates: the power at a size, the size that reaches
the target power, the smallest difference a size detects; or the items a non-inferiority or equivalence claim needs."""

from __future__ import annotations

import math
import sys

from .. import METRICS, front, power
from ..comparison import AUTO
from ..contract import SIMULATION_RESAMPLES
from ..effects import item_values
from ..errors import SettingsError
from ..io.inputs import read
from ..io.loading import load
from ..metrics import direction
from ..report import records
from .inputs import suggest_metric
from .options import (
    FLAGS,
    alpha_option,
    alternative_option,
    direction_option,
    higher,
    level,
    resamples_option,
    seed_option,
)

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    pw = commands.add_parser("power", help="power and the test-set size, from pilot outputs or expected rates",
                             description="Plan a test set: the power of a paired test at the pilot's size, the "
                                         "size that reaches the target power, and the smallest difference the "
                                         "pilot's size detects. Give pilot files (as compare reads them), or "
                                         "--n with --accuracy-a, --accuracy-b and --agreement.")
    pw.set_defaults(run=run)
    pw.add_argument("files", nargs="*", metavar="FILE", help="pilot outputs: one table, or GOLD A B files")
    for flag, text in (("--gold", "table column with the gold labels"), ("--a", "table column with A's outputs"),
                       ("--b", "table column with B's outputs"), ("--id", "id column: align files by it")):
        pw.add_argument(flag, help=text)
    pw.add_argument("--metric", help="a metric that is a mean of per-item values (default: the one the app "
                                     "suggests for the pilot, e.g. accuracy for labels, mean for per-item scores)")
    pw.add_argument("--test", default=AUTO, choices=[AUTO, *power.SUPPORTED],
                    help="the test planned for (default: auto, the one recommended for the pilot)")
    alternative_option(pw, "H1 (default: two-sided, they differ)")
    alpha_option(pw)
    pw.add_argument(FLAGS["target"], type=level("target"), default=0.8, help="the power wanted (default 0.8)")
    planned = pw.add_mutually_exclusive_group()
    planned.add_argument("--non-inferior", type=float, metavar="DELTA",
                         help="plan instead a claim that A is no worse than B by more than DELTA (paired t-test)")
    planned.add_argument("--equivalent", type=float, metavar="DELTA",
                         help="plan instead a claim that A and B are within ±DELTA (two one-sided t-tests)")
    pw.add_argument(FLAGS["n_sims"], type=int, default=400, help="simulated test sets per size (where not exact)")
    resamples_option(pw, default=SIMULATION_RESAMPLES, help=f"b of each simulated test (default "
                                                             f"{SIMULATION_RESAMPLES:,})")
    seed_option(pw)
    pw.add_argument(FLAGS["n"], type=int, help="without a pilot: the test set's size")
    pw.add_argument("--accuracy-a", type=float, help="without a pilot: A's expected accuracy")
    pw.add_argument("--accuracy-b", type=float, help="without a pilot: B's expected accuracy")
    pw.add_argument("--agreement", type=float,
                    help="without a pilot: the share of items both get right or both get wrong")
    direction_option(pw)
    pw.add_argument("--json", action="store_true", help="print the plan as JSON (kind plan)")


def run(args) -> int:
    from .. import claims

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
        direction("accuracy", higher(args))  # expected accuracies: higher is better, --lower-is-better refused
        if claim:
            delta, sd = claims.from_rates(*rates[1:])
            return _plan(args, claims.plan(*claim, delta=delta, sd=sd, alpha=args.alpha, target=args.target,
                                           n=args.n))
        return _plan(args, power.plan_from_rates(*rates, **settings))
    tables = [read(path) for path in args.files]
    data = load(tables, gold=args.gold, a=args.a, b=args.b, id=args.id)
    note = suggest_metric(args, data, "the pilot")
    said = sys.stderr if args.json else sys.stdout  # --json prints the plan alone
    for role in front.roles_of(data):  # what the pilot's files were taken for
        print(f"roles: {role}", file=said)
    if note:  # before the checks: a refused suggestion (BLEU) says why it was chosen
        print(f"note: {note}", file=said)
    if args.metric not in METRICS:
        raise SettingsError(f"unknown metric {args.metric!r}", hint=f"Choose one of: {', '.join(METRICS)}.")
    better = direction(args.metric, higher(args))  # a one-sided plan where lower is better: refused by the plan
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
                                        higher_is_better=better))
    return _plan(args, power.plan(*values, binary=METRICS[args.metric].binary,
                                   higher_is_better=better, **settings))


def _plan(args, plan) -> int:
    """A plan's sentences, or with --json its record (a claim's plan or a test's)."""
    from ..claims import Plan as ClaimPlan

    if args.json:
        print(records.dumps(records.claim_plan(plan) if isinstance(plan, ClaimPlan) else records.plan(plan)))
    else:
        print(plan.text())
    return 0
