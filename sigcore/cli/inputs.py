"""The files a command is given, through the library's front door (:mod:`sigcore.front`): read, paired, their roles
and metric decided and said; the systems' names as --name gives them; a saved result read back."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .. import METRICS, front, jsonform
from ..errors import InputError, SettingsError
from ..io.inputs import read
from ..io.pairing import ROW_ORDER
from ..io.systems import match_system

__all__ = ["pairing", "prepare", "engine_inputs", "gold_file", "another", "suggest_metric", "shown_names", "decisions",
           "read_saved"]


def pairing(args) -> str | None:
    """The id that pairs several files (``ROW_ORDER``: by row); both flags at once contradict each other."""
    if args.by_row and args.id:
        raise SettingsError(f"--id {args.id} and --by-row say two ways of pairing the files",
                            hint="Pair them by that id column (--id) or by row (--by-row), not both.")
    return ROW_ORDER if args.by_row else args.id


def prepare(args) -> front.Prepared:
    """The front door (:func:`sigcore.front.prepare`) on the files given: two HELM runs' stats, or the files read and
    paired with the roles the flags name; its first open question refused; the metric it chose set on ``args``."""
    from ..logs import helm_run

    unmatched = "drop" if args.drop_unmatched else "stop"
    options = {k: v for k, v in (("tokenize", args.tokenize), ("positive_label", args.positive_label)) if v}
    if len(args.files) == 2 and all(helm_run.is_folder(f) for f in args.files):  # two HELM runs: their stats
        source, roles = helm_run.aligned(*args.files, args.metric, on_unmatched=unmatched), {}
    else:
        source = [read(path, format=args.format, encoding=args.encoding) for path in args.files]
        roles = dict(gold=args.gold, a=args.a, b=args.b, id=pairing(args), group=args.group, on_unmatched=unmatched,
                     gold_file=gold_file(args), baseline=getattr(args, "baseline", None),
                     filter=getattr(args, "filter", None))
    prepared = front.prepare(source, metric=args.metric, options=options, **roles).settled()
    args.metric = prepared.metric
    return prepared


def engine_inputs(args):
    """What the front door returns for these files (:func:`prepare`): the aligned data; gold, A, B and the metric as
    the engine takes them; the metric's options; the note on the metric it chose."""
    prepared = prepare(args)
    gold, a, b, metric, options, _ = prepared.inputs
    return prepared.data, (gold, a, b, metric), options, prepared.choice.note(another(args))


def gold_file(args) -> int | None:
    """--gold-file as the position of one of the files given (its path as typed, or its name)."""
    if not getattr(args, "gold_file", None):
        return None
    if args.gold_file in args.files:
        return args.files.index(args.gold_file)
    try:
        return match_system(args.gold_file, args.files)
    except SettingsError:
        raise SettingsError(f"--gold-file {args.gold_file} is not one of the files given",
                            hint=f"The files are: {', '.join(args.files)}.") from None


def another(args) -> str:
    """How a metric note says to choose another metric."""
    return f"choose {'others' if args.command == 'many' else 'another'} with --metric"


def suggest_metric(args, data, about: str = front.THESE_DATA) -> str | None:
    """Without --metric, set on ``args`` the metric the front door chooses for ``data``
    (:func:`sigcore.front.choose_metric`; a list for `many`) and return its note; its first open question refused."""
    if args.metric is not None:
        return None
    choice = front.choose_metric(data, about=about)
    if choice.questions:
        raise choice.questions[0]
    args.metric = [choice.metric] if args.command == "many" else choice.metric
    return choice.note(another(args))


def shown_names(args, names: tuple[str, ...] | list[str]) -> list[str]:
    """The systems' names as printed, with --name SYSTEM=NAME (SYSTEM: A, B, or a system's name or file)."""
    out = list(names)
    for given in getattr(args, "name", []) or []:
        key, sep, shown = given.partition("=")
        if not sep or not shown.strip():
            raise SettingsError(f"--name {given!r} is not SYSTEM=NAME", hint="For example: --name svm='SVM (RBF)'.")
        k = "AB".index(key) if key in ("A", "B") and len(names) == 2 else match_system(key, names)
        out[k] = shown.strip()
    return out


def decisions(data, metric_note: str | None, metric: str, extra: Sequence[str] = (), more: Sequence = (),
              higher: bool | None = None) -> list[str]:
    """What was decided about the data, printed before any result: the roles with file names (and ``more``, such
    as the baseline of a family), the metric and why (and its direction: ``higher``, as --lower-is-better gives it),
    ``extra`` lines, and the notes."""
    roles = front.roles_of(data)  # the numbers' reading (regression outputs or answers) last, after ``more``
    lines = [f"roles: {role}" for role in (*data.roles, *more, *roles[len(data.roles):])]
    said = metric_note.removeprefix("the metric is ") if metric_note else f"{metric} (given)"
    if metric_note is None and any(METRICS.get(m) and METRICS[m].higher_is_better is False for m in metric.split()):
        said += ", lower is better"
    elif higher is False:
        said += ("; " if metric_note else ", ") + "lower is better (--lower-is-better)"
    elif said.split(",")[0].split(" ")[0] == "mean":  # per-item scores: their direction is the user's to say
        said += ("; " if metric_note else ", ") + "higher is better (--lower-is-better for errors, losses or ranks)"
    lines.append("metric: " + said)
    return lines + list(extra) + [f"note: {note}" for note in data.notes]


def read_saved(path: str, kinds: tuple[str, ...], hint: str) -> dict:
    """A saved result of one of ``kinds``, read back through its published schema (:func:`sigcore.jsonform.read`)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot be read as a saved result ({e})", file=path, hint=hint) from None
    return jsonform.loads(text, kinds=kinds, file=path, hint=hint)
