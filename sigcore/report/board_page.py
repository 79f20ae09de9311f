"""A board of models on many tasks as a page a website or a README can publish: one self-contained HTML file (no
request leaves it: its style inline, its figure an inline SVG) and a Markdown block. Both show what the command
line prints, from the same rows (:func:`sigcore.report.board.model_rows`): the heading with the settings, the
models with their rank, score, intervals and δ, each task's scores, what the board settles, the legend and the
notes. Every name is escaped for the page, never read as markup, and shown as the terminal shows it
(:func:`sigcore.words.printable`: a newline, an escape or a bidi override as \\xNN or \\uNNNN)."""

from __future__ import annotations

import html
import re

from ..errors import SettingsError
from ..leaderboard import Leaderboard
from ..words import printable
from . import board as words
from . import export
from .export import md_escape

__all__ = ["task_rows", "markdown", "page", "rank_svg"]

_STYLE = ("body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}"
          "table{border-collapse:collapse;margin:1em 0;font-size:.92em;font-variant-numeric:tabular-nums}"
          "th,td{padding:.25em .45em;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}"
          "th:first-child,td:first-child{text-align:left}.wide{overflow-x:auto}"
          "p.small{font-size:.9em;color:#555}figure{margin:1em 0}figure svg{max-width:100%;height:auto}")


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

    def table(header: list[str], rows: list[list[str]]) -> str:
        lines = ["| " + " | ".join(md_escape(h) for h in header) + " |",
                 "|" + "|".join(":---" if k == 0 else "---:" for k in range(len(header))) + "|"]
        return "\n".join(lines + ["| " + " | ".join([md_escape(row[0]), *(c.replace("|", "\\|") for c in row[1:])])
                                   + " |" for row in rows])  # a name escaped; the numbers are sigcore's own
    notes = "".join(f"\n- note: {md_escape(n)}" for n in parts["notes"])
    return (f"{md_escape(parts['heading'])}\n\n{table(*parts['models'])}\n\n{md_escape(parts['settled'])}\n\n"
            f"Each task's score:\n\n{table(*parts['tasks'])}\n\n{md_escape(parts['legend'])}\n{notes}\n")


def page(res: Leaderboard, baseline: str, alpha: float, correction: str, *, figure_svg: str | None = None,
         title: str | None = None) -> str:
    """The board as one self-contained HTML page: what :func:`markdown` holds, and the rank figure as an inline
    SVG (``figure_svg``, from :func:`sigcore.report.board_figures.ranks`), or a line saying it was left out."""
    parts = _parts(res, baseline, alpha, correction)

    def esc(text: str) -> str:  # a name's control and bidi characters as the terminal shows them, then HTML's escape
        return html.escape(printable(text))

    def table(header: list[str], rows: list[list[str]]) -> str:
        head = "".join(f"<th>{esc(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
        return f'<div class="wide"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'
    figure = (f"<figure>{_inline(figure_svg)}</figure>" if figure_svg else
              '<p class="small">(The rank figure was left out: static figures need plotly and kaleido.)</p>')
    notes = "".join(f"<li>{esc(n)}</li>" for n in parts["notes"])
    name = title or f"{res.board.metric} of {len(res.board.models)} models on {len(res.board.tasks)} tasks"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(name)}</title><style>{_STYLE}</style></head><body>\n"
            f"<h1>{esc(name)}</h1>\n<p>{esc(parts['heading'])}</p>\n{table(*parts['models'])}\n"
            f"<p>{esc(parts['settled'])}</p>\n{figure}\n<h2>Each task's score</h2>\n{table(*parts['tasks'])}\n"
            f"<p class=\"small\">{esc(parts['legend'])}</p>\n"
            + (f"<ul class=\"small\">{notes}</ul>\n" if notes else "") + "</body></html>\n")


def rank_svg(res: Leaderboard, alpha: float, correction: str) -> tuple[str | None, str | None]:
    """The page's rank figure (:func:`sigcore.report.board_figures.ranks`) as SVG text, 900 px wide and as tall as
    its rows, with Plotly's random ids fixed so that the same board gives the same page byte for byte; or None and
    why, where static images cannot be drawn (no plotly, kaleido or Chrome): ``(svg, None)`` or ``(None, why)``."""
    try:
        from .board_figures import ranks

        fig = ranks(res, alpha, correction)
        for k, trace in enumerate(fig.data):  # plotly.js names each trace's group after its uid: random unless given
            trace.uid = f"board{k}"
        svg = export.figure_image(fig, "svg", width=900, height=int(fig.layout.height), scale=1).decode("utf-8")
    except (ImportError, SettingsError) as e:
        return None, str(e)
    uid = re.search(r'id="defs-(\w+)"', svg)
    if uid is None:
        return svg, None
    # and its defs and clip paths after an id drawn at each export: one figure on the page, one name
    return re.sub(rf'((?:id="|url\(#|href="#)[A-Za-z-]*){re.escape(uid.group(1))}', r"\1board", svg), None


def _inline(svg: str) -> str:
    """An SVG document as an element of the page: its XML declaration and doctype dropped."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else ""

