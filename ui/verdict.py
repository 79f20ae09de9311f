"""The verdict and the downloads: what a researcher copies into a paper."""

from __future__ import annotations

import streamlit as st

import sigcore
from sigcore.report import export
from sigcore import report
from sigcore.report.figures import delta_histogram

from .safe import md


def show(res: sigcore.Result, a: str, b: str, effects: list = ()) -> None:
    sentence = report.verdict(res, a=_role("A", a), b=_role("B", b))
    if not res.done:
        sentence += f" (stopped after {res.n_resamples:,} resamples)"
    (st.success if res.significant else st.info)(md(sentence))
    table = export.scores_table(res, a=a, b=b).reset_index()
    st.dataframe(table, hide_index=True, column_config={c: st.column_config.NumberColumn(format="%.4f")
                                                        for c in table.columns if c != "system"})
    for effect in effects:  # beside p, the effect in units a reader weighs; hover: when it misleads
        st.markdown(f"**{effect.title}**: {md(effect.text)}", help=effect.misleads)
    st.code(res.signature, language=None, wrap_lines=True)
    _downloads(res, a, b)


def _role(role: str, name: str) -> str:
    return role if name == role else f"{role} ({name})"


def _downloads(res: sigcore.Result, a: str, b: str) -> None:
    stem = f"sigcore_{res.metric}_{res.test}"
    st.caption("Download")
    cols = st.columns(7)
    files = [
        ("Scores CSV", lambda: export.table_csv(export.scores_table(res, a=a, b=b)), f"{stem}_scores.csv", "text/csv"),
        ("JSON", lambda: export.result_json(res, a_name=a, b_name=b), f"{stem}.json", "application/json"),
        ("Markdown", lambda: export.verdict_markdown(res, a=a, b=b), f"{stem}.md",
         "text/markdown"),
        ("LaTeX", lambda: export.verdict_latex(res, a=a, b=b), f"{stem}.tex", "text/x-tex"),
    ]
    if res.distribution is not None:
        figure = delta_histogram(res)
        files += [
            ("Deltas CSV", lambda: export.deltas_csv(res), f"{stem}_deltas.csv", "text/csv"),
            ("SVG", lambda: export.figure_image(figure, "svg"), f"{stem}.svg", "image/svg+xml"),
            ("PNG", lambda: export.figure_image(figure, "png"), f"{stem}.png", "image/png"),
        ]
    for col, (label, data, name, mime) in zip(cols, files):
        col.download_button(label, data, file_name=name, mime=mime, on_click="ignore", width="stretch")
