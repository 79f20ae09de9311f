"""A paper's page, compiled: the figure at \\columnwidth in a two-column 11 pt paper in ACL's geometry, the sentence
with its citations resolved by BibTeX, and the table with its caption, with no overfull box."""

import re
import subprocess
from pathlib import Path

import pytest

import sigcore
from sigcore.io.inputs import read
from sigcore.report import citations, export
from sigcore.report.figures import figure
from sigcore.report.style import PAPER

ROOT = Path(__file__).resolve().parents[1]
PDFLATEX, BIBTEX = "pdflatex", "bibtex"  # on PATH; conftest.py skips a test that starts one where lacking
PAPER_TEX = r"""\documentclass[11pt,twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{times}
\usepackage{booktabs,graphicx}
\usepackage[round]{natbib}
\usepackage{url}  %% as ACL's style: the references' URLs break at slashes
\usepackage[a4paper,textwidth=16cm,columnsep=0.6cm,textheight=24.7cm]{geometry}
\begin{document}
\section{Results}
On newstest2017, %(sentence)s

\begin{figure}[t]
  \centering
  \includegraphics[width=\columnwidth]{histogram.pdf}
  \caption{%(caption)s}
\end{figure}
%(table)s
\sbox0{\includegraphics{histogram.pdf}}\typeout{FIGURE=\the\wd0;COLUMN=\the\columnwidth}
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
"""


def make_paper(folder: Path) -> str:
    """Write and compile the page; return pdflatex's last log."""
    mt = ROOT / "sample_data" / "mt"
    ref, a, b = (read(mt / name).frame.iloc[:, 0].tolist() for name in
                 ("newstest2017.ref.de", "uedin-nmt.de", "LIUM-NMT.de"))
    res = sigcore.compare(ref, a, b, metric="bleu", n_resamples=2000, alternative="two-sided", test="bootstrap")
    names = dict(a="uedin-nmt", b="LIUM-NMT")
    (folder / "histogram.pdf").write_bytes(export.styled_image(figure(res, "histogram", **names), "pdf", PAPER))
    (folder / "refs.bib").write_text(citations.bibtex(citations.keys_of(res)), encoding="utf-8")
    sentence = export.sentence_latex(res, **names)
    sentence = sentence[0].lower() + sentence[1:] if sentence.startswith("No ") else sentence
    (folder / "paper.tex").write_text(PAPER_TEX % dict(
        sentence=sentence, caption=export.figure_caption(res, "histogram", latex=True),
        table=export.verdict_latex(res, **names)),
        encoding="utf-8")
    for tool in (PDFLATEX, BIBTEX, PDFLATEX, PDFLATEX):
        args = [tool, "paper"] if tool == BIBTEX else [tool, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"]
        done = subprocess.run(args, cwd=folder, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-3000:]
    return (folder / "paper.log").read_text(encoding="latin-1")


@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_a_paper_page_compiles_with_the_figure_at_its_true_size(tmp_path):
    log = make_paper(tmp_path)
    assert "Overfull" not in log, re.findall(r"Overfull.*", log)
    assert "undefined" not in log.lower(), re.findall(r".*undefined.*", log)  # every \citep resolved by BibTeX
    figure_pt, column_pt = (float(x) for x in re.search(r"FIGURE=([\d.]+)pt;COLUMN=([\d.]+)pt", log).groups())
    assert abs(figure_pt - column_pt) < 1.5  # placed at \columnwidth, it is not scaled: its 8-9 pt text stays so
    bbl = (tmp_path / "paper.bbl").read_text()
    assert "Berg-Kirkpatrick" in bbl and "Papineni" in bbl and "Post" in bbl
    assert (tmp_path / "paper.pdf").read_bytes().startswith(b"%PDF-")


if __name__ == "__main__":  # python tests/test_paper_document.py OUT_FOLDER: the page for docs/, to look at
    import sys

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    make_paper(out)
