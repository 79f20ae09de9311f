"""Models on many tasks (a tidy table, or evaluation logs), as `sigcore many` takes them: the aggregate, its
interval, the rank interval and δ against a baseline with its corrected p, from one bootstrap stratified by task;
as text, CSV, JSON, Markdown, LaTeX, an HTML page or a paper folder."""

from __future__ import annotations

import sys

from ..comparison import AUTO
from ..errors import SettingsError
from ..report import export, paper, records, reproduce
from .running import folder_name, print_rows, progress, say_notes, write, write_paper

__all__ = ["run"]


def run(args) -> int:
    """Models on many tasks: the aggregate, its interval, the rank interval and δ against a baseline with its
    corrected p, from one bootstrap stratified by task."""
    from .. import leaderboard
    from ..logs import tidy
    from ..report import board as board_words
    from ..report import board_page, board_table

    unsupported = [flag for flag, given in (
        ("--test", args.test != AUTO), ("--compat", args.compat),
        ("--alternative", args.alternative != "two-sided"), ("--bibtex", args.bibtex),
        ("--columns", args.columns), ("--tokenize", args.tokenize),
        ("--gold", args.gold), ("--gold-file", args.gold_file), ("--id", args.id), ("--by-row", args.by_row),
        ("--name", args.name)) if given]
    if unsupported:  # said, not ignored
        raise SettingsError(f"{unsupported[0]} is not taken by models on many tasks (a tidy table or logs)",
                            hint="Their comparison is the paired bootstrap, two-sided, stratified by task; it prints "
                                 "its table, or --csv / --json.")
    options = {"metric": args.metric, "cluster": args.cluster,  # several metrics: on each task the first it has
               "on_missing": "drop" if args.drop_unmatched else "stop"}
    if len(args.files) == 1 and tidy.is_table(args.files[0]):
        table = args.files[0]
        board = leaderboard.from_parquet(table, **options) if str(table).lower().endswith(".parquet") \
            else leaderboard.from_table(tidy.read_table(table), **options)  # Parquet: a batch of rows at a time
    else:
        frame = tidy.from_logs(args.files)
        board = leaderboard.from_table(frame, **options)
        say_notes(frame)
    if (args.latex or args.paper) and args.all_pairs:
        raise SettingsError(f"{'--latex' if args.latex else '--paper'} marks each task's score against a baseline; "
                            "with --all-pairs, leave it out",
                            hint="Give --baseline (default: the first model) for the task x model table.")
    res = leaderboard.bootstrap(board, n_resamples=args.resamples, seed=args.seed, weight=args.weight,
                                per_task=args.per_task is not None or args.latex or args.paper is not None,
                                confidence_level=1 - args.alpha, scheduler=args.scheduler,
                                progress=progress(f"{len(board.tasks)} tasks"))
    base = args.baseline if args.baseline is not None else board.models[0]
    if base not in board.models:
        raise SettingsError(f"--baseline {base} is not one of the models", hint=f"The models: "
                            f"{', '.join(board.models)}.")

    def record(saved: bool = False) -> dict:  # --json's record; --save's adds what `sigcore figure` draws
        return records.board(res, baseline=None if args.all_pairs else base, alpha=args.alpha,
                             correction=args.correction, per_task=args.per_task, friedman=args.friedman, saved=saved)
    if args.save:  # what `sigcore figure --kind ranks|cd|nemenyi` draws, at this run's α and correction
        write(args.save, records.dumps(record(saved=True)))
    if args.friedman and args.csv:
        raise SettingsError("--csv prints one table; the Friedman test is not a row of it",
                            hint="Use --json, or the printed board, with --friedman.")
    if args.all_pairs and args.per_task:
        raise SettingsError("--per-task compares each model with the baseline; with --all-pairs, leave it out",
                            hint="Every pair is compared on the aggregate; run --per-task with a --baseline.")
    table = res.table(base, args.alpha, args.correction)
    tasks = res.task_table(base, args.alpha, args.correction, over=args.per_task) if args.per_task else None
    warnings = [f"warning: {w}" for w in board_words.floor_warnings(
        res, None if args.all_pairs else base, args.alpha, args.correction, args.per_task,
        0 if tasks is None else len(tasks))]  # b too small for any p to pass the correction: on stdout with the board
    if warnings and (args.csv or args.json or args.latex):
        print(*warnings, sep="\n", file=sys.stderr)
    if args.all_pairs:  # every pair on the aggregate, corrected over the pairs, as the tie groups are
        pairs = res.pairs(args.alpha, args.correction)
        if args.csv or args.json:
            print(export.table_csv(pairs).decode("utf-8") if args.csv else records.dumps(record()),
                  end="" if args.csv else "\n")
            return 0
        print(board_words.heading(res, None, args.alpha, args.correction), *warnings, sep="\n")
        print_rows(*board_words.model_rows(table, None, args.alpha, 1 / args.resamples))
        print()
        print_rows(["model", "other", "δ", "CI of δ", "p", "p corrected"],
                    [[r.model, r.other, *board_words.delta_cells(r, args.alpha, 1 / args.resamples)]
                     for r in pairs.itertuples(index=False)])
        print(board_words.legend(res, None, args.alpha, args.correction) + "; "
              + board_words.legend(res, "", args.alpha, args.correction).split("; *")[0])
        _friedman(res, args)
        return 0
    for note in board.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.paper:
        settings = {"--metric": [board.metric] if args.metric is None else args.metric,
                    "--baseline": [base], "--weight": [args.weight], "--resamples": [args.resamples],
                    "--seed": [args.seed], "--alpha": [repr(args.alpha)], "--correction": [args.correction],
                    "--per-task": [args.per_task or "family"]}
        command = reproduce.rerun(reproduce.PROG, args.argv, settings, args.arity, base=args.paper)
        write_paper(args, paper.for_board(res, baseline=base, alpha=args.alpha, correction=args.correction,
                                          over=args.per_task or "family", command=command, venue=args.venue,
                                          folder=folder_name(args.paper), draw=paper.drawer(args.venue)))
    if args.html:
        svg, missing = board_page.rank_svg(res, args.alpha, args.correction)
        if missing:
            print(f"note: the page has no rank figure ({missing})", file=sys.stderr)
        write(args.html, board_page.page(res, base, args.alpha, args.correction, figure_svg=svg))
    if args.markdown:
        print(board_page.markdown(res, base, args.alpha, args.correction), end="")
        return 0
    if args.latex:  # the task x model table for the paper, marks against the baseline
        print(board_table.latex(res, base, args.alpha, args.correction, over=args.per_task or "family",
                                venue=args.venue), end="")
        return 0
    if args.csv:
        print(export.table_csv(table).decode("utf-8"), end="")
        return 0
    if args.json:
        print(records.dumps(record()))
        return 0
    print(board_words.heading(res, base, args.alpha, args.correction), *warnings, sep="\n")
    print_rows(*board_words.model_rows(table, base, args.alpha, 1 / args.resamples))
    print(board_words.settled(res, args.alpha, args.correction))
    print(board_words.legend(res, base, args.alpha, args.correction))
    if tasks is not None and len(tasks):
        print("\n" + board_words.per_task_heading(res, base, args.correction, args.per_task, len(tasks)))
        print_rows(*board_words.per_task_rows(tasks, args.alpha, 1 / args.resamples))
    if board.epochs:  # runs of the items: how much of δ's variance is theirs
        print("\n" + board_words.variance_heading(res, base))
        print_rows(board_words.variance_header(res), board_words.variance_rows(res, base))
    _friedman(res, args)
    return 0


def _friedman(res, args) -> None:
    from ..report import board as board_words

    if args.friedman:
        print("\n" + board_words.friedman(res, args.alpha))
