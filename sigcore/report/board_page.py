"""A board of models on many tasks as a page a website or a README can publish: one self-contained HTML file (no
request leaves it: its style inline, its figure an inline SVG) and a Markdown block. Both show what the command
line prints, from the same rows (:func:`sigcore.report.board.model_rows`): the heading with the settings, the
models with their rank, score, intervals and δ, each task's scores, what the board settles, the legend and the
notes. Every name is escaped for the page, never read as markup, and shown as the terminal shows it
(:func:`sigcore.words.printable`: a newline, an escape or a bidi override as \\xNN or \\uNNNN)."""

from __future__ import annotations

from ..errors import SettingsError
from ..leaderboard import Leaderboard
from . import board as words
from .export import md_escape
from .publish import html_document, html_table, inline_svg, md_table, svg_of
from .publish import html_escape as esc

__all__ = ["task_rows", "markdown", "page", "rank_svg"]

def task_rows(res: Leaderboard, table) -> tuple[list[str], list[list[str]]]:
    """Each model's score on each task (a group as one), in the board's order, as the page's second table."""
    units, scores = res.unit_scores()
    order = [res.board.models.index(m) for m in table.model]
    return ["model", *units], [[res.board.models[k], *(f"{scores[u][k]:.4f}" for u in range(len(units)))]
                               for k in order]


def _parts(res: Leaderboard, baseline: str, alpha: float, correction: str) -> dict:
    table = res.table(baseline, alpha, correction)
    return {"heading": words.heading(res, baseline, alpha, correction),
            "models": words.model_rows(table, baseline, alpha, 1 / res.n_resamples),
            "tasks": task_rows(res, table),
            "settled": words.settled(res, alpha, correction),
            "legend": words.legend(res, baseline, alpha, correction),
            "notes": list(res.board.notes)}


def markdown(res: Leaderboard, baseline: str, alpha: float, correction: str) -> str:
    """The board as Markdown (a README, a model card): the heading, the models' table, each task's scores, what
    the board settles, the legend and the notes; names escaped."""
    parts = _parts(res, baseline, alpha, correction)
    notes = "".join(f"\n- note: {md_escape(n)}" for n in parts["notes"])
    return (f"{md_escape(parts['heading'])}\n\n{md_table(*parts['models'])}\n\n{md_escape(parts['settled'])}\n\n"
            f"Each task's score:\n\n{md_table(*parts['tasks'])}\n\n{md_escape(parts['legend'])}\n{notes}\n")


def page(res: Leaderboard, baseline: str, alpha: float, correction: str, *, figure_svg: str | None = None,
         title: str | None = None) -> str:
    """The board as one self-contained HTML page: what :func:`markdown` holds, and the rank figure as an inline
    SVG (``figure_svg``, from :func:`sigcore.report.board_figures.ranks`), or a line saying it was left out."""
    parts = _parts(res, baseline, alpha, correction)
    figure = (f"<figure>{inline_svg(figure_svg)}</figure>" if figure_svg else
              '<p class="small">(The rank figure was left out: static figures need plotly and kaleido.)</p>')
    notes = "".join(f"<li>{esc(n)}</li>" for n in parts["notes"])
    name = title or f"{res.board.metric} of {len(res.board.models)} models on {len(res.board.tasks)} tasks"
    return html_document(name, f"<p>{esc(parts['heading'])}</p>\n{html_table(*parts['models'])}\n"
                               f"<p>{esc(parts['settled'])}</p>\n{figure}\n<h2>Each task's score</h2>\n"
                               f"{html_table(*parts['tasks'])}\n<p class=\"small\">{esc(parts['legend'])}</p>\n"
                               + (f"<ul class=\"small\">{notes}</ul>\n" if notes else ""))


def rank_svg(res: Leaderboard, alpha: float, correction: str) -> tuple[str | None, str | None]:
    """The page's rank figure (:func:`sigcore.report.board_figures.ranks`) as SVG text, 900 px wide and as tall as
    its rows, with Plotly's random ids fixed so that the same board gives the same page byte for byte; or None and
    why, where static images cannot be drawn (no plotly, kaleido or Chrome): ``(svg, None)`` or ``(None, why)``."""
    try:
        from .board_figures import ranks

        return svg_of(ranks(res, alpha, correction), "board"), None
    except (ImportError, SettingsError) as e:
        return None, str(e)
