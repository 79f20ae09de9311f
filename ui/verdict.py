"""The verdict and the downloads: what a researcher copies into a paper."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import sigcore
from sigcore import report
from sigcore.report import citations, claim_text, export, paper, records, reproduce
from sigcore.report.figures import KINDS, figure
from sigcore.report.sentence import metric_heading
from sigcore.report.style import SLIDE

from . import paper_folder, venue
from .safe import md

# figure styles a user picks: (style, width), at their true size; a paper's at the Venue box's widths
FIGURE_STYLES = {"Paper, one column": ("paper", "column"), "Paper, text width": ("paper", "full"),
                 "Slide (1280 px)": ("slide", "full")}
FIGURE_KINDS = {"histogram": "Bootstrap / permutation distribution", "null": "Distribution under H0",
                "convergence": "p as resamples accrue"}


def show(res: sigcore.Result, a: str, b: str, effects: list = (), command: str | None = None) -> None:
    sentence = report.verdict(res, a=_role("A", a), b=_role("B", b))
    if not res.done:
        sentence += f" (stopped after {res.n_resamples:,} resamples)"
    # a decision the data cannot support (the sentence leads with why) is a warning, not a success
    (st.warning if report.resolution_lead(res) else st.success if res.significant else st.info)(md(sentence))
    table = export.scores_table(res, a=a, b=b)
    scale = report.scale_of(res)  # the digits and open ends the sentence prints, never "Infinity"
    st.dataframe(pd.DataFrame({"system": table.index, metric_heading(res): [
        report.number(x, scale) for x in table["score"]], f"{report.level(res)} interval": [
        export.interval_text(lo, hi, scale) for lo, hi in zip(table["ci_low"], table["ci_high"])]}), hide_index=True)
    for effect in effects:  # beside p, the effect in units a reader weighs; hover: when it misleads
        st.markdown(f"**{effect.title}**: {md(effect.text)}", help=effect.misleads)
    st.code(res.signature, language=None, wrap_lines=True)
    _reproduce(command)
    _downloads(res, a, b, command)
    if res.distribution is not None:
        _figures(res, a, b)


def show_claim(c, a: str, b: str, command: str | None = None) -> None:
    """A non-inferiority or equivalence claim (:mod:`sigcore.claims`): its sentence, its row (as the paper's table
    prints it), the signature, the command that recreates it, its JSON and its paper folder."""
    from sigcore.report import claim_table

    (st.success if c.shown else st.info)(md(claim_text.sentence(c, a=_role("A", a), b=_role("B", b))))
    st.dataframe(pd.DataFrame({k: [v] for k, v in claim_table.cells(c).items()} | {"shown at α": [c.shown]}),
                 hide_index=True)
    st.code(c.signature, language=None, wrap_lines=True)
    _reproduce(command)
    json_column, table_column, folder_column = st.columns(3)
    json_column.download_button("Download JSON", lambda: records.dumps(records.claim(c, a=a, b=b, resamples=True)),
                                file_name=f"claim-{c.kind}.json", mime="application/json", on_click="ignore",
                                width="stretch")
    table_column.download_button("Table (LaTeX)", lambda: claim_tex(c, a, b),
                                 file_name=f"claim-{c.kind}.tex", mime="text/x-tex", on_click="ignore",
                                 width="stretch")
    paper_folder.button(folder_column, lambda draw, papers: paper.for_claim(
        c, a=a, b=b, command=command or "# run from the app: sigcore compare with the uploaded files", venue=papers,
        draw=draw),
        key="paper-folder", a=a, b=b)


def table_tex(res: sigcore.Result, a: str, b: str) -> str:
    """The "Table (LaTeX)" download at the Venue box's venue: byte for byte the table of the paper folder and of
    ``compare --latex --venue``."""
    return export.verdict_latex(res, a=a, b=b, venue=venue.current())


def claim_tex(c, a: str, b: str) -> str:
    """A claim's "Table (LaTeX)" download, as :func:`table_tex` (:func:`sigcore.report.claim_table.latex`)."""
    from sigcore.report import claim_table

    return claim_table.latex(c, a=a, b=b, venue=venue.current())


def _reproduce(command: str | None) -> None:
    """The command that recreates the result, as a terminal shows it (a name's control and invisible characters
    escaped, with a note that the paper folder's reproduce.sh holds it exactly)."""
    if command:
        text, escaped = reproduce.shown(command)
        st.caption("Reproduce on the command line, where the files are:")
        st.code(text, language="bash")  # one line: wrapped, "--test" broke into "-" and "-test"
        if escaped:
            st.caption(md(escaped[0].upper() + escaped[1:] + "."))


def _role(role: str, name: str) -> str:
    return role if name == role else f"{role} ({name})"


def _downloads(res: sigcore.Result, a: str, b: str, command: str | None = None) -> None:
    stem = f"sigcore_{res.metric}_{res.test}"
    st.caption("For a paper: the sentence cites the test, the table's caption the metric; BibTeX for both.")
    files = [
        ("Sentence (Markdown)", lambda: export.sentence_markdown(res, a=a, b=b) + "\n", f"{stem}_sentence.md",
         "text/markdown"),
        ("Sentence (LaTeX)", lambda: export.sentence_latex(res, a=a, b=b) + "\n", f"{stem}_sentence.tex",
         "text/x-tex"),
        ("Table (LaTeX)", lambda: table_tex(res, a, b), f"{stem}.tex", "text/x-tex"),
        ("BibTeX", lambda: citations.bibtex(citations.keys_of(res)), f"{stem}.bib", "text/x-bibtex"),
        ("Verdict (Markdown)", lambda: export.verdict_markdown(res, a=a, b=b), f"{stem}.md", "text/markdown"),
        ("Scores CSV", lambda: export.scores_csv(res, a=a, b=b), f"{stem}_scores.csv", "text/csv"),
        ("JSON", lambda: records.dumps(records.pair(res, distribution=True, a_name=a, b_name=b)), f"{stem}.json",
         "application/json"),
    ]
    if res.distribution is not None:
        files.append(("Deltas CSV", lambda: export.deltas_csv(res), f"{stem}_deltas.csv", "text/csv"))
    columns = st.columns(4) + st.columns(4) + st.columns(4)
    for col, (label, data, name, mime) in zip(columns, files):
        col.download_button(label, data, file_name=name, mime=mime, on_click="ignore", width="stretch")
    paper_folder.button(columns[len(files)], lambda draw, papers: paper.for_result(
        res, a=a, b=b, command=command or "# run from the app: sigcore compare with the uploaded files",
        venue=papers, draw=draw if res.distribution is not None else None), key="paper-folder", a=a, b=b)


def _figures(res: sigcore.Result, a: str, b: str) -> None:
    """A figure at its true size for a paper or a slide, as ``sigcore figure`` draws it from the JSON."""
    with st.expander("Figure for a paper or a slide"):
        c1, c2, c3 = st.columns(3)
        kinds = [k for k in KINDS if not (k == "convergence" and res.exact)]  # an exact p does not converge
        kind = c1.selectbox("Figure", kinds, format_func=FIGURE_KINDS.get, key="paper-figure-kind")
        name, width = FIGURE_STYLES[c2.selectbox("Style", list(FIGURE_STYLES), key="paper-figure-style")]
        papers = venue.choose(c3, disabled=name != "paper")
        style = papers if name == "paper" else SLIDE
        fig = figure(res, kind, style=style, width=width, a=a, b=b)
        st.caption(f"Drawn at its true size: {style.describe(width)}.")
        st.plotly_chart(fig, config={"displaylogo": False, "staticPlot": True}, width="content", theme=None)
        st.caption(md(export.figure_caption(res, kind)))  # the caption a paper prints under it
        st.code(export.figure_caption(res, kind, latex=True), language="latex", wrap_lines=True)
        stem = f"sigcore_{res.metric}_{kind}_{style.name}{'_' + style.venue.key if style.venue else ''}_{width}"
        for col, fmt in zip(st.columns(3), export.FORMATS):
            col.download_button(f"Download {fmt.upper()}", lambda fmt=fmt: export.styled_image(fig, fmt, style),
                                file_name=f"{stem}.{fmt}", mime=_MIME[fmt], on_click="ignore", width="stretch",
                                key=f"paper-figure-{fmt}")


_MIME = {"png": "image/png", "svg": "image/svg+xml", "pdf": "application/pdf"}
