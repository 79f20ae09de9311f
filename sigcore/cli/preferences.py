"""sigcore preferences: models rated from pairwise judgments (arena battles, MT-Bench's or AlpacaEval's judges, a
tidy table): Bradley–Terry ratings with intervals and ranks from a bootstrap over items, every pair corrected; as
text, CSV, JSON, Markdown, LaTeX or an HTML page."""

from __future__ import annotations

import sys

from ..contract import DEFAULT_LEVEL
from ..errors import SettingsError
from ..judgments import PAIR_TESTS, SHAPES, pair, preferences, read_all
from ..judgments.bradley_terry import TIES
from ..judgments.ratings import SCALES
from ..report import preferences as views
from ..report import records, sentence
from ..statistics.multiple import RESAMPLED
from .options import FLAGS, alpha_option, alternative_option, level, resamples_option, seed_option, venue_option
from .running import print_rows, write

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    cmd = commands.add_parser("preferences", help="rate models from pairwise judgments (LLM judges, arenas)",
                              description="Bradley–Terry ratings of the models in pairwise judgments, with intervals "
                                          "and ranks from a bootstrap over items (prompts), every pair tested and "
                                          "corrected.")
    cmd.set_defaults(run=run)
    cmd.add_argument("files", nargs="+", metavar="FILE",
                     help="arena battles (model_a, model_b, winner), MT-Bench's *_pair.jsonl, AlpacaEval's "
                          "annotations.json or a tidy table (item, model_a, model_b, outcome): CSV, JSON lines, JSON "
                          "or Parquet; each file's shape recognised by its columns")
    cmd.add_argument("--shape", choices=list(SHAPES), help="the files' shape, where their columns would not say it")
    cmd.add_argument("--ties", choices=list(TIES), default="half",
                     help="half: a tie is half a win each way (default, as LMArena counts them); davidson: "
                          "Davidson's (1970) tie model, its parameter fitted")
    cmd.add_argument("--scale", choices=list(SCALES), default="elo",
                     help="elo: 400 · log10 odds, as arenas publish (default); log: natural-log odds")
    cmd.add_argument("--baseline", metavar="MODEL", help="the model whose rating is --center (default: the mean is)")
    cmd.add_argument("--center", type=float, help="where the mean (or the baseline) sits (default: 1000 Elo, 0 log)")
    cmd.add_argument("--prior", type=float, default=0.0,
                     help="ties added to every pair of models that met, so that a model that never lost keeps a "
                          "finite rating (default 0: plain maximum likelihood, such data refused)")
    cmd.add_argument("--reconcile", action="store_true",
                     help="rate the verdicts with each pair judged in both orders counted once, a tie where the "
                          "order changed it (FastChat's rule for MT-Bench); the position bias is reported either way")
    cmd.add_argument("--correction", default="holm", choices=RESAMPLED,
                     help="the correction over every pair for the ranks (default holm; maxt: the max statistic over "
                          "the pairs' own resamples)")
    cmd.add_argument(FLAGS["confidence_level"], type=level("confidence_level"),
                     help=f"level of the ratings' intervals and rank intervals (default {DEFAULT_LEVEL:g}; with "
                          "--pair, 1 - alpha, so that the interval agrees with the test)")
    resamples_option(cmd)
    alpha_option(cmd)
    seed_option(cmd)
    venue_option(cmd)
    cmd.add_argument("--pair", nargs=2, metavar=("A", "B"),
                     help="instead of ratings: does model A beat model B on the items both were judged on? A's win "
                          "rate (ties half) with its interval and the paired test of --test")
    cmd.add_argument("--test", choices=PAIR_TESTS, default="sign",
                     help="with --pair: sign (default: the items A won against those it lost), bootstrap (the paired "
                          "bootstrap by item) or permutation")
    alternative_option(cmd, "with --pair: H1 (default: two-sided)")
    cmd.add_argument("--html", metavar="FILE", help="also write the ratings as one self-contained HTML page")
    out = cmd.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the result as JSON (kind preferences)")
    out.add_argument("--csv", action="store_true", help="print the models' table as CSV")
    out.add_argument("--markdown", action="store_true", help="print the ratings as Markdown (a README, a model card)")
    out.add_argument("--latex", action="store_true", help="print the models' table as LaTeX for --venue")


def run(args) -> int:
    if args.pair:
        return _pair(args)
    given = [flag for flag, on in (("--test", args.test != "sign"), ("--alternative", args.alternative != "two-sided"))
             if on]
    if given:  # said, not ignored
        raise SettingsError(f"{given[0]} is for --pair A B; the ratings test every pair two-sided",
                            hint="Add --pair A B to test one model against another, or leave it out.")
    level = {} if args.confidence is None else {"confidence_level": args.confidence}
    res = preferences(args.files, shape=args.shape, ties=args.ties, scale=args.scale, baseline=args.baseline,
                      center=args.center, prior=args.prior, n_resamples=args.resamples, seed=args.seed,
                      alpha=args.alpha, correction=args.correction, reconcile=args.reconcile, **level)
    if args.html:
        from ..report.preferences_figures import ratings_svg

        svg, missing = ratings_svg(res)
        if missing:
            print(f"note: the page has no figure ({missing})", file=sys.stderr)
        write(args.html, views.page(res, figure_svg=svg))
    if args.json:
        print(records.dumps(records.preferences(res)))
        return 0
    if args.csv:
        print(views.csv(res).decode("utf-8"), end="")
        return 0
    if args.markdown:
        print(views.markdown(res), end="")
        return 0
    if args.latex:
        print(views.latex(res, venue=args.venue), end="")
        return 0
    for note in res.notes:
        print(f"note: {note}", file=sys.stderr)
    print(views.heading(res))
    print_rows(*views.model_rows(res))
    print(views.settled(res))
    for finding in views.findings(res):
        print(finding)
    print()
    print_rows(*views.pair_rows(res))
    print(views.legend(res))
    print(f"signature: {res.signature}")
    return 0


def _pair(args) -> int:
    """Model A against model B: the paired test's verdict as `compare` prints it, and A's win rate."""
    given = [flag for flag, on in (("--csv", args.csv), ("--markdown", args.markdown), ("--latex", args.latex),
                                   ("--html", args.html), ("--reconcile", args.reconcile), ("--prior", args.prior),
                                   ("--ties", args.ties != "half"), ("--scale", args.scale != "elo"),
                                   ("--baseline", args.baseline), ("--center", args.center is not None),
                                   ("--correction", args.correction != "holm")) if on]
    if given:  # said, not ignored
        raise SettingsError(f"{given[0]} is for the ratings; with --pair, leave it out",
                            hint="--pair prints the verdict of A against B, or --json.")
    a, b = args.pair
    v = pair(read_all(args.files, shape=args.shape), a, b, test=args.test, alternative=args.alternative,
             n_resamples=args.resamples, seed=args.seed, alpha=args.alpha, confidence_level=args.confidence)
    rate = {"value": v.win_rate, "ci_low": v.ci_low, "ci_high": v.ci_high, "confidence_level": v.confidence_level,
            "wins": v.wins, "ties": v.ties, "losses": v.losses, "n_battles": v.n_battles, "judge": v.judge}
    if args.json:
        print(records.dumps(records.pair(v.result, a_name=a, b_name=b, notes=list(v.notes), win_rate=rate)))
        return 0
    for note in v.notes:
        print(f"note: {note}", file=sys.stderr)
    *lines, signature = sentence.summary(v.result, a=f"A ({a})", b=f"B ({b})").splitlines()
    lines.append(f"A's win rate against B: {v.win_rate:.1%} [{v.ci_low:.1%}, {v.ci_high:.1%}] "
                 f"({v.confidence_level:.0%} interval over items; ties count half): items won {v.wins:,}, tied "
                 f"{v.ties:,}, lost {v.losses:,}, from {v.n_battles:,} battles")
    print("\n".join([*lines, signature]))
    return 0
