"""sigcore many: many systems on one test set, against a baseline or every pair, with corrected p-values; models on
many tasks (a tidy table, or evaluation logs) go to the board (:mod:`sigcore.cli.board`)."""

from __future__ import annotations

import pandas as pd

from .. import METRICS, TESTS, compare_many, front
from ..advisor import advise_family
from ..comparison import AUTO, COMPAT
from ..errors import InputError, SettingsError
from ..io.aligned import AlignedMany, default_baseline
from ..io.inputs import FORMATS, read
from ..io.roles import GOLD_NAMES, Role
from ..io.systems import match_system
from ..report import citations, export, family, paper, records, reproduce, sentence
from ..statistics.multiple import RESAMPLED
from . import board
from .inputs import another, decisions, gold_file, pairing, shown_names
from .options import (
    alpha_option,
    alternative_option,
    budget_option,
    direction_option,
    higher,
    paper_option,
    resamples_option,
    seed_option,
    venue_option,
)
from .running import folder_name, progress, write, write_paper

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    many = commands.add_parser("many", help="test many systems: against a baseline, or every pair",
                               description="Compare many systems on one test set, with corrected p-values.")
    many.set_defaults(run=run)
    many.add_argument("files", nargs="+", metavar="FILE",
                      help="GOLD SYS1 SYS2 ... files (globs expanded by the shell; .gz is fine), or one table with "
                           "a column per system")
    pick = many.add_mutually_exclusive_group()
    pick.add_argument("--baseline", help="the system every other is compared with: its name or its file's, with or "
                                         "without extensions (default: the first)")
    pick.add_argument("--all-pairs", action="store_true", help="compare every pair, and rank the systems")
    many.add_argument("--metric", nargs="+", metavar="METRIC",
                      help=f"one or more of: {', '.join(METRICS)}; default: the first that fits the data, as the app "
                           "suggests. Models on many tasks: the logs' metric, or several, each task taking the "
                           "first of them it has")
    many.add_argument("--test", default=AUTO, choices=[AUTO, *TESTS],
                      help="the test (default: auto, the one recommended for every pair, or the one that fits them "
                           "all)")
    many.add_argument("--correction", default="holm", choices=RESAMPLED,
                      help="Holm (default), Bonferroni, Hochberg, Benjamini-Hochberg (bh), Benjamini-Yekutieli (by); "
                           "models on many tasks also maxt, the max statistic over the board's own resamples, which "
                           "separates models at a b where Holm over many pairs cannot")
    many.add_argument("--drop-unmatched", action="store_true",
                      help="compare the items every system has (models on many tasks: on each task, and only the "
                           "tasks every model has) instead of stopping at one that lacks some; what was dropped is "
                           "said")
    resamples_option(many)
    alternative_option(many, "H1 for each system against the baseline (default: two-sided)")
    alpha_option(many)
    seed_option(many)
    budget_option(many)
    many.add_argument("--compat", choices=COMPAT, help="reproduce another tool's two-sided definitions")
    many.add_argument("--tokenize", help="BLEU tokenizer (sacrebleu's names: 13a, none, intl, ...)")
    direction_option(many)
    many.add_argument("--gold", help="the column with the gold labels or references: of the table, or of every file "
                                     "that has one (default: the one named like gold)")
    many.add_argument("--gold-file", metavar="FILE", help="which of the files is the gold (default: the one named "
                                                          f"{GOLD_NAMES})")
    many.add_argument("--name", action="append", metavar="SYSTEM=NAME", default=[],
                      help="the name a system is printed with, e.g. --name LIUM-NMT='LIUM (NMT)'; repeat for others")
    many.add_argument("--id", help="id column: align files by it (guessed when the files share one)")
    many.add_argument("--by-row", action="store_true", help="pair the files by row even where they share an id column")
    many.add_argument("--format", choices=list(FORMATS), help="file format (default: from extension and content)")
    many.add_argument("--encoding", help="text encoding when not UTF-8 (e.g. latin-1)")
    out = many.add_mutually_exclusive_group()
    out.add_argument("--csv", action="store_true", help="print one CSV row per comparison")
    out.add_argument("--json", action="store_true", help="print the comparisons as JSON")
    out.add_argument("--latex", action="store_true",
                     help="print a booktabs table for a paper: a column per metric, marks defined in the caption")
    out.add_argument("--markdown", action="store_true",
                     help="models on many tasks: print the board as Markdown, for a README or a model card")
    many.add_argument("--html", metavar="FILE",
                      help="models on many tasks: also write the board as one self-contained HTML page (its rank "
                           "figure inline; no request leaves it), for a website")
    many.add_argument("--columns", nargs="+", choices=family.COLUMNS, metavar="COLUMN",
                      help="what --latex's table shows per metric against a baseline: score (marked), delta, ci "
                           "(δ's interval), p (corrected); default: score delta ci for one metric, score for several")
    venue_option(many)
    many.add_argument("--save", metavar="FAMILY.json", help="also write the comparisons (models on many tasks: the "
                                                            "board and its resamples), for `sigcore figure`")
    many.add_argument("--weight", choices=["tasks", "items"], default="tasks",
                      help="models on many tasks (a tidy table, or logs): the aggregate is the mean of the task "
                           "scores (tasks, default) or over all items (items)")
    many.add_argument("--per-task", choices=["family", "task"],
                      help="models on many tasks: also δ against the baseline on each task, p corrected over the "
                           "whole family of tasks x models (family) or within each task (task)")
    many.add_argument("--cluster", metavar="COLUMN",
                      help="models on many tasks: resample the items in clusters, whole, by this column of the tidy "
                           "table or an Inspect sample's metadata (metadata.passage)")
    many.add_argument("--scheduler", metavar="ADDRESS",
                      help="models on many tasks: run each task's resampling on a Dask distributed scheduler "
                           "(tcp://host:8786; pip install 'sigcore[dask]'), the same numbers as here")
    many.add_argument("--friedman", action="store_true",
                      help="models on many tasks: also the Friedman test over the tasks with Nemenyi's critical "
                           "difference (Demšar 2006), which asks whether the models rank alike across tasks")
    paper_option(many)
    out.add_argument("--bibtex", action="store_true", help="print BibTeX for the test, metrics and correction")


def run(args) -> int:
    from ..logs import tidy

    if len(args.files) == 1 and tidy.is_table(args.files[0]) or all(tidy.is_log(f) for f in args.files):
        if args.lower_is_better:  # a board ranks by the logs' metrics, each higher-is-better
            raise SettingsError("--lower-is-better is for systems on one test set, not models on many tasks",
                                hint="A board ranks the logs' metrics (accuracy, F1...), on which higher is better.")
        return board.run(args)
    board_only = [flag for flag, given in (("--friedman", args.friedman), ("--per-task", args.per_task),
                                           ("--scheduler", args.scheduler), ("--cluster", args.cluster),
                                           ("--weight", args.weight != "tasks"), ("--markdown", args.markdown),
                                           ("--html", args.html)) if given]
    if board_only:  # said, not ignored
        raise SettingsError(f"{board_only[0]} is for models on many tasks (a tidy table or logs)",
                            hint="These files are systems on one test set: leave it out.")
    known = args.bibtex and args.metric and args.test != AUTO  # --bibtex: the papers of the test and metric
    prepared, note = (None, None) if known else _prepared(args)
    data = prepared and prepared.data
    if args.bibtex:
        tests = [args.test] if args.test != AUTO else list(dict.fromkeys(
            advise_family(data.gold, data.systems, _pairs(data, args), metric=m)[0] for m in args.metric))
        print(citations.bibtex([k for t in tests for k in citations.family_keys(t, args.metric, args.correction)]),
              end="")
        return 0
    family.table_columns(args.columns, args.all_pairs)  # refused before the run, not after it
    options = {"tokenize": args.tokenize} if args.tokenize else {}
    shown = shown_names(args, list(data.systems))
    base, why = ((args.baseline, "given") if args.baseline is not None else default_baseline(data))
    baseline = None if args.all_pairs else shown[_system_of(base, data)]
    families = []
    for m in args.metric:
        gold, systems = prepared.inputs(m)
        try:
            families.append(compare_many(gold, dict(zip(shown, systems.values())), baseline=baseline,
                                         all_pairs=args.all_pairs, metric=m, test=args.test,
                                         n_resamples=args.resamples, alternative=args.alternative, alpha=args.alpha,
                                         correction=args.correction, seed=args.seed, groups=data.groups,
                                         compat=args.compat, budget=args.budget, higher_is_better=higher(args),
                                         progress=progress(f"{m}: resampling"), **options))
        except InputError as e:
            raise prepared.locate(e, shown) from None  # the names printed are --name's
    if args.save:
        write(args.save, records.dumps(records.family(families)))
    if args.paper:
        tests = {f.test for f in families}  # with auto, each metric may take its own: auto chooses them again
        settings = {"--metric": args.metric, "--test": [tests.pop() if len(tests) == 1 else AUTO],
                    "--resamples": [args.resamples], "--seed": [args.seed], "--alpha": [repr(args.alpha)],
                    "--alternative": [args.alternative], "--correction": [args.correction]}
        command = reproduce.rerun(reproduce.PROG, args.argv, settings, args.arity, base=args.paper)
        write_paper(args, paper.for_family(families, command=command, venue=args.venue, columns=args.columns,
                                           folder=folder_name(args.paper), draw=paper.drawer(args.venue)))
    if args.csv:
        frame = pd.concat([f.table().assign(metric=f.metric) for f in families], ignore_index=True)
        print(export.table_csv(frame).decode("utf-8"), end="")
        return 0
    if args.json:
        print(records.dumps(records.family(families, roles=[str(r) for r in data.roles], notes=list(data.notes))))
        return 0
    if args.latex:  # the sentence for the text, then the table, as compare --latex prints them
        print("\n\n".join(family.sentence(f, latex=True) for f in families) + "\n\n"
              + family.latex(families, venue=args.venue, columns=args.columns), end="")
        return 0
    tests = [f"test ({f.metric}): {sentence.test_name(next(iter(f.results.values())))}, "
             + (f.test_reason if f.auto else "given with --test") for f in families]
    against = () if args.all_pairs else (Role("against", baseline, why),)  # every system against it
    print("\n".join(decisions(data, note, " ".join(args.metric), tests, against, higher=higher(args))))
    print("\n\n".join(family.text(f) + "\n\n" + family.sentence(f) for f in families))
    return 0


def _pairs(data: AlignedMany, args) -> list[tuple[str, str]]:
    """The pairs `many` compares: every pair, or each system against the baseline (the first by default)."""
    names = list(data.systems)
    if args.all_pairs:
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    base = names[_system_of(args.baseline, data)] if args.baseline else default_baseline(data)[0]
    return [(name, base) for name in names if name != base]


def _system_of(name: str, data: AlignedMany) -> int:
    """A system of ``data`` by its name or its file's (with or without the extensions): --baseline LIUM-NMT.4900.de."""
    names = list(data.systems)
    try:
        return match_system(name, names)
    except SettingsError:
        files = [data.sources.get(n, (n,))[0] for n in names]
        if len(set(files)) < len(files):  # columns of one table: its file names no system, and the error stands
            raise
        return match_system(name, files)


def _prepared(args) -> tuple[front.PreparedMany, str | None]:
    """The front door for several systems (:func:`sigcore.front.prepare_many`) on the files given, its first open
    question refused; the metric it chose set on ``args`` (a list), with its note."""
    tables = [read(path, format=args.format, encoding=args.encoding) for path in args.files]
    prepared = front.prepare_many(tables, metrics=args.metric, gold=args.gold, id=pairing(args),
                                  gold_file=gold_file(args),
                                  on_unmatched="drop" if args.drop_unmatched else "stop").settled()
    note = None if args.metric else prepared.choice.note(another(args))
    args.metric = list(prepared.metrics)
    return prepared, note
