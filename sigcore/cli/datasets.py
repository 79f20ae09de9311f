"""sigcore datasets: on how many datasets is A better than B (Dror et al. 2017)? From one one-sided p-value per
dataset: a table of them, or one folder per dataset, compared here."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import METRICS, TESTS, compare, front, report, statistics
from ..comparison import AUTO
from ..errors import InputError, SettingsError
from ..io import results
from ..io.aligned import Aligned
from ..io.inputs import read
from ..io.pairing import from_files
from ..io.roles import GOLD_NAMES, gold_files
from ..io.systems import system_names
from ..report import citations, records
from ..result import p_number
from ..words import printable
from .inputs import another
from .options import alpha_option, budget_option, resamples_option, seed_option
from .running import progress

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    datasets = commands.add_parser("datasets", help="replicability over datasets (Dror et al. 2017)",
                                   description="On how many datasets is A better than B? From one one-sided "
                                               "p-value per dataset.")
    datasets.set_defaults(run=run)
    datasets.add_argument("files", nargs="+", metavar="FILE_OR_FOLDER",
                          help="a table with the columns dataset and p; or one folder per dataset, each with a gold "
                               "file (named gold, ref, reference, target, labels or answers) and one file per system")
    alpha_option(datasets)
    datasets.add_argument("--a", help="with folders: system A's name (its file name up to the first dot)")
    datasets.add_argument("--b", help="with folders: system B's name")
    datasets.add_argument("--metric", help=f"with folders: one of {', '.join(METRICS)} (default: the first that fits "
                                           "the first folder's outputs, as the app suggests)")
    datasets.add_argument("--test", default=AUTO, choices=[AUTO, *TESTS],
                          help="the test (default: auto, the one recommended for these data; `sigcore advise` says "
                               "why)")
    resamples_option(datasets)
    seed_option(datasets)
    budget_option(datasets)
    datasets.add_argument("--bibtex", action="store_true", help="print BibTeX for the methods instead")
    datasets.add_argument("--json", action="store_true", help="print the analysis as JSON (kind replicability)")


def run(args) -> int:
    folders = all(Path(f).is_dir() for f in args.files)
    if args.bibtex:  # with folders, the papers of the test and metric they are compared on (the first folder's)
        keys = list(citations.REPLICABILITY)
        if folders and args.a and args.b:
            prepared = front.prepare(_folder_pair(Path(args.files[0]), args), metric=args.metric).settled()
            args.metric = prepared.metric
            test = args.test if args.test != AUTO else prepared.advice().recommended.test
            keys += citations.keys_for_test(test, args.metric)
        elif args.test != AUTO:
            keys += citations.keys_for_test(args.test, args.metric or "accuracy")
        print(citations.bibtex(keys), end="")
        return 0
    if folders:
        return _dataset_folders(args)
    if len(args.files) != 1:
        raise SettingsError("give one table of p-values, or one folder per dataset")
    names, p = results.p_values(read(args.files[0]))
    res = statistics.replicability(list(p), alpha=args.alpha, datasets=list(names))
    if args.json:
        print(records.dumps(records.replicability(res)))
        return 0
    print(res.sentence() + "\n")
    print("u  p^{u/N} Bonferroni  p^{u/N} Fisher")
    for u, (bonf, fisher) in enumerate(zip(res.bonferroni, res.fisher), start=1):
        print(f"{u:<3}{p_number(bonf):<21}{p_number(fisher)}")
    return 0


def _dataset_folders(args) -> int:
    """One one-sided comparison of A and B per folder, then the replicability analysis over them."""
    if not (args.a and args.b):
        raise SettingsError("name the two systems to compare in every folder", hint="Add --a NAME --b NAME.")
    results, names = [], []
    said = sys.stderr if args.json else sys.stdout  # --json prints the record alone
    for folder in map(Path, args.files):
        name = printable(folder.name)
        prepared = front.prepare(_folder_pair(folder, args), metric=args.metric,  # one metric for every dataset
                                 about=f"the first folder's data ({name}), for every folder").settled()
        for note in filter(None, [prepared.choice.note(another(args))]):
            print(f"note: {note}", file=said)
        args.metric = prepared.metric
        gold, a, b, metric, options, groups = prepared.inputs
        res = compare(gold, a, b, metric=metric, test=args.test, n_resamples=args.resamples, groups=groups,
                      budget=args.budget, progress=progress(f"{name}: resampling"),
                      alternative="greater", alpha=args.alpha, seed=args.seed, **options)
        results.append(res)
        names.append(name)
        print(f"{name}: {report.verdict(res, a=args.a, b=args.b)}", file=said)
    out = statistics.replicability(results, alpha=args.alpha, datasets=names)
    if args.json:
        print(records.dumps(records.replicability(out, results=results, a_name=args.a, b_name=args.b)))
        return 0
    print("\n" + out.sentence().replace("A is better than B", f"{args.a} is better than {args.b}"))
    return 0


def _folder_pair(folder: Path, args) -> Aligned:
    """A dataset's folder: its gold file (named as such) and the files of systems ``args.a`` and ``args.b``."""
    files = sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    gold = [files[i] for i in gold_files([f.name for f in files])]
    if len(gold) != 1:
        raise InputError(f"needs exactly one gold file (named {GOLD_NAMES}), "
                         f"found {len(gold)}", file=str(folder))
    systems = [f for f in files if f != gold[0]]
    by_name = dict(zip(system_names([f.name for f in systems]), systems))
    for name in (args.a, args.b):
        if name not in by_name:
            raise InputError(f"has no system {name!r}", file=str(folder),
                             hint=f"Its systems are: {', '.join(by_name)}.")
    return from_files(read(gold[0]), read(by_name[args.a]), read(by_name[args.b]))

