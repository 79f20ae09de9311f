"""sigcore figure: a figure for a paper or a slide from a saved result (a comparison's histogram, null or
convergence; a family's forest plot; a board's ranks or critical-difference diagrams), with its caption and the
LaTeX that includes it."""

from __future__ import annotations

import math
from pathlib import Path

from ..errors import InputError, SettingsError, SigcoreError
from ..many import Many
from ..report import export, family, paper
from ..report.style import BOARD_KINDS, FIGURE_KINDS, STYLES, rows_on_page, style_named
from ..report.venues import DEFAULT as DEFAULT_VENUE
from ..report.venues import VENUES
from ..result import Result
from .inputs import read_saved
from .running import write

__all__ = ["add_parser", "run"]


def add_parser(commands) -> None:
    fig = commands.add_parser("figure", help="a figure for a paper or a slide, from a saved result",
                              description="Draw a result saved by `compare --save` (histogram, null, convergence), "
                                          "a family saved by `many --save` (forest) or models on many tasks saved "
                                          "by `many --save` (ranks, cd, nemenyi).")
    fig.set_defaults(run=run)
    fig.add_argument("file", metavar="RESULT.json")
    fig.add_argument("--kind", default="histogram", choices=FIGURE_KINDS)
    fig.add_argument("--style", default="paper", choices=list(STYLES),
                     help="paper: true size, 8-9 pt serif, black; slide: large text for a projector")
    fig.add_argument("--venue", default=DEFAULT_VENUE, choices=list(VENUES),
                     help="whose widths a paper's figure takes (default acl: column 7.7 cm, text 16 cm); "
                          "docs/reference/figures.md lists each venue's, with its source")
    fig.add_argument("--width", help="column: the venue's column (the paper's default), or 640 px for a slide; "
                                     "full: the venue's text width, or a whole 1280 px slide (the slide's default); "
                                     "or a length for a paper (7.7cm, 3.25in, 219pt)")
    fig.add_argument("--height", help="the figure's height, a length (5cm, 2in); by default what its panel and "
                                      "labels need (a forest plot: a row per system)")
    fig.add_argument("--label", help=r"the \label of the LaTeX figure printed (default: fig: and the file's name)")
    fig.add_argument("--metric", help="which metric's family to draw, when `many --save` holds several")
    fig.add_argument("--out", required=True, help="the figure's file: .pdf, .svg or .png (300 dpi for a paper)")


def run(args) -> int:
    saved = read_saved(args.file, ("pair", "family", "board"), "Save one with `sigcore compare ... --save "
                       "RESULT.json` (or `sigcore many ... --save FAMILY.json`).")
    suffix = Path(args.out).suffix.lower().lstrip(".")
    if suffix not in export.FORMATS:
        raise SettingsError(f"--out must end in .pdf, .svg or .png, not {args.out!r}")
    try:  # plotly: only where a figure is drawn
        from ..report import figures
        from ..report.family_figures import forest
    except ModuleNotFoundError as e:
        raise SettingsError(f"figures need {e.name or 'plotly'}, which is not installed",
                            hint='Install sigcore with its figures: pip install "sigcore[figures]" (plotly and '
                                 'kaleido).') from None

    style = style_named(args.style, args.venue)
    style.width(args.width)  # a width the style cannot take is refused before anything is drawn
    if args.kind in BOARD_KINDS or saved["kind"] == "board":
        return _board_figure(args, saved, style, suffix)
    families = saved["families"] if saved["kind"] == "family" else None
    if args.kind == "forest" and not families:
        raise InputError("holds no family of comparisons to draw a forest plot of", file=args.file,
                         hint="Save one with `sigcore many ... --baseline NAME --save FAMILY.json`.")
    if args.kind != "forest" and families is not None:
        raise InputError("holds a family of comparisons, not one result: draw it with --kind forest", file=args.file)
    if (args.kind != "forest" and saved.get("test") in ("bootstrap", "permutation")
            and saved.get("distribution") is None):  # printed with --json: the values were left out
        raise InputError("holds no resampled values (a result printed with --json leaves them out)", file=args.file,
                         hint="Write the result with its values: sigcore compare ... --save RESULT.json.")
    chosen = [f for f in families or [] if args.metric in (None, f.get("metric"))]
    if families and len(chosen) != 1:
        raise SettingsError(f"{args.file} has no family on {args.metric!r}" if args.metric else
                            f"{args.file} holds {len(families)} families: choose one with --metric",
                            hint=f"It has: {', '.join(str(f.get('metric')) for f in families)}.")
    try:
        if args.kind == "forest":
            fig = forest(Many.from_dict(chosen[0]), style=style, width=args.width)
            caption = [family.forest_caption(Many.from_dict(chosen[0]), latex=latex) for latex in (False, True)]
        else:
            res = Result.from_dict(saved, file=args.file)
            fig = figures.figure(res, args.kind, style=style, width=args.width,
                                 a=saved.get("a_name") or "A", b=saved.get("b_name") or "B")
    except SigcoreError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"is not a result saved by sigcore ({type(e).__name__}: {e})", file=args.file,
                         hint="Save one with `sigcore compare ... --save RESULT.json`.") from None
    if args.height is not None:
        _set_height(fig, args.height)
    write(args.out, export.styled_image(fig, suffix, style))
    print(f"wrote {args.out} ({args.kind}, {style.describe(args.width)}"
          f"{f', {args.height} high' if args.height else ''})")
    if args.kind != "forest":
        caption = [export.figure_caption(res, args.kind, latex=latex) for latex in (False, True)]
    print(f"caption: {caption[0]}\nLaTeX caption: {caption[1]}")
    if style.name == "paper":
        out = Path(args.out)
        label = args.label or f"fig:{paper.stem(out.stem)}"
        print("LaTeX figure (\\sigcoredir: the figure's folder):\n"
              + paper.figure_tex(out.name, caption[1], label, out.parent.name if out.parent.name else ".",
                                 wide=style.spans_columns(args.width)), end="")
    return 0


def _board_figure(args, saved, style, suffix: str) -> int:
    """`figure` of models on many tasks saved by `many --save`: the ranks, or either diagram, with its caption."""
    from ..leaderboard import Leaderboard
    from ..report import board as board_words
    from ..report.board_figures import styled

    hint = "Save one with `sigcore many LOGS... --save BOARD.json` (models on many tasks)."
    if saved["kind"] != "board":
        raise InputError(f"holds no board of models on many tasks to draw --kind {args.kind} of", file=args.file,
                         hint=hint)
    if "board" not in saved:
        raise InputError("holds a board without its resamples (one printed with --json leaves them out)",
                         file=args.file, hint=hint)
    if args.kind not in BOARD_KINDS:
        raise InputError(f"holds models on many tasks, which --kind {args.kind} does not draw: draw it with "
                         f"--kind {', '.join(BOARD_KINDS[:-1])} or {BOARD_KINDS[-1]}", file=args.file)
    try:
        res = Leaderboard.from_dict(saved["board"])
        alpha, correction = saved["settings"]["alpha"], saved["settings"]["correction"]
        if args.metric not in (None, res.board.metric):
            raise SettingsError(f"{args.file} is a board on {res.board.metric!r}, not on {args.metric!r}")
        fig = styled(res, args.kind, alpha, correction, style, args.width)
        shown = rows_on_page(len(res.board.models), style)[0] if args.kind == "ranks" else None
        caption = [board_words.figure_caption(res, args.kind, alpha, correction, latex=latex, shown=shown)
                   for latex in (False, True)]
    except SigcoreError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise InputError(f"is not a board saved by sigcore ({type(e).__name__}: {e})", file=args.file,
                         hint=hint) from None
    if args.height is not None:
        _set_height(fig, args.height)
    write(args.out, export.styled_image(fig, suffix, style))
    high = f", {args.height} high" if args.height else ""
    print(f"wrote {args.out} ({args.kind}, {style.describe(args.width)}{high})\ncaption: {caption[0]}\n"
          f"LaTeX caption: {caption[1]}")
    if style.name == "paper":
        out = Path(args.out)
        print("LaTeX figure (\\sigcoredir: the figure's folder):\n" + paper.figure_tex(
            out.name, caption[1], args.label or f"fig:{paper.stem(out.stem)}", out.parent.name or ".",
            wide=style.spans_columns(args.width)), end="")
    return 0


def _set_height(fig, height: str) -> None:
    """``fig`` drawn ``height`` high (a length), its panel taking what its margins and rows leave."""
    from ..report.style import PX_PER_IN
    from ..report.venues import PT_PER_IN, length

    px = length(height, "height") / PT_PER_IN * PX_PER_IN
    rows = len(fig.layout.yaxis.ticktext or ()) * 1.2 * fig.layout.font.size  # a forest plot's systems
    least = fig.layout.margin.t + fig.layout.margin.b + max(rows, 0.6 * PX_PER_IN)
    if px < least:
        raise SettingsError(f"--height {height} leaves no room for the figure's panel",
                            hint=f"Give at least {math.ceil(least / PX_PER_IN * 2.54 * 10) / 10:g}cm here, or no "
                                 "--height (what the figure needs).")
    fig.update_layout(height=px)
