"""sigcore advise: which paired test fits these data, and why (Dror et al. 2018)."""

from __future__ import annotations

from .. import METRICS
from ..errors import InputError
from ..metrics import direction
from ..report import records
from .inputs import another, decisions, prepare
from .options import data_arguments, higher

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    advise = commands.add_parser("advise", help="which test fits these data, and why (Dror et al. 2018)",
                                 description="Recommend a paired test for A against B on these data: the "
                                             "recommended one, the other valid ones, and why not the rest.")
    advise.set_defaults(run=run)
    data_arguments(advise)
    advise.add_argument("--json", action="store_true", help="print the advice as JSON (kind advice)")


def run(args) -> int:
    prepared = prepare(args)
    try:
        advice = prepared.advice()
    except InputError as e:
        raise prepared.locate(e) from None
    metric = prepared.inputs.metric
    direction(metric if metric in METRICS else "mean", higher(args))  # a contrary direction refused here too
    if args.json:
        print(records.dumps(records.advice(advice, metric=args.metric, roles=[str(r) for r in prepared.data.roles],
                                           notes=list(prepared.data.notes))))
        return 0
    print("\n".join(decisions(prepared.data, prepared.choice.note(another(args)), args.metric, higher=higher(args))))
    print(advice.text())
    return 0
