"""LaTeX documents for the tests and pdflatex over them: an ACL-like two-column paper compiled with its citations,
and a page in each venue's geometry (its class where TeX Live ships it)."""

import re
import subprocess

from sigcore.report import citations
from sigcore.report.venues import VENUES

from .system import need

PDFLATEX, BIBTEX = "pdflatex", "bibtex"  # on PATH; conftest.py skips a test that starts one this machine lacks
# an ACL paper's page: two columns of 7.7 cm, 11 pt Times; %s is the body
PAPER = r"""\documentclass[11pt,twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{times}
\usepackage{booktabs}
\usepackage{natbib}
\usepackage{url}  %% as ACL's style: the references' URLs break at slashes
\usepackage[a4paper,textwidth=16cm,columnsep=0.6cm,textheight=24.7cm]{geometry}  %% ACL's
\begin{document}
A column of text: an ACL paper's page is two columns of 7.7 cm, 11 pt Times.
%s
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
"""

# the classes Debian's texlive-publishers ships, with the options the venue's template uses
CLASSES = {"ieee": r"\documentclass[conference]{IEEEtran}", "acm": r"\documentclass[sigconf]{acmart}",
           "lncs": r"\documentclass{llncs}"}
CLASS_FILES = {"ieee": "IEEEtran.cls", "acm": "acmart.cls", "lncs": "llncs.cls"}


def compile_paper(tmp_path, body) -> str:
    """pdflatex, bibtex over the caption's citations, pdflatex twice: no error, overfull box or undefined citation."""
    (tmp_path / "paper.tex").write_text(PAPER % body, encoding="utf-8")
    keys = [k for group in re.findall(r"\\citep\{([^}]*)\}", body) for k in group.split(",")]
    (tmp_path / "refs.bib").write_text(citations.bibtex(keys), encoding="utf-8")
    for command in ([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], [BIBTEX, "paper"],
                    [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                    [PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"]):
        run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout[-2000:]
    log = (tmp_path / "paper.log").read_text(encoding="latin-1")
    assert keys and "undefined" not in log.lower(), re.findall(r".*undefined.*", log)
    assert "Overfull" not in log, re.findall(r"Overfull.*", log)
    assert (tmp_path / "paper.pdf").read_bytes()[:5] == b"%PDF-"
    return log


def venue_document(key: str, body: str) -> str:
    """A two-column (or one-column) page in ``key``'s geometry: its class where TeX Live has it, else article
    with the venue's widths."""
    v = VENUES[key]
    if key in CLASSES:
        need(CLASS_FILES[key])
        head = CLASSES[key] + "\n\\usepackage{graphicx}\n\\begin{document}\n"
        if key == "acm":  # acmart's two columns begin with its title
            head = CLASSES[key] + "\n\\settopmatter{printacmref=false}\\setcopyright{none}\n\\usepackage{graphicx}\n" \
                "\\begin{document}\n\\title{T}\\maketitle\n"
        return head + body + "\n\\end{document}\n"
    columns = "twocolumn," if v.columns == 2 else ""
    gap = f"columnsep={v.text - 2 * v.column:.4f}pt," if v.columns == 2 else ""
    return (f"\\documentclass[{columns}10pt]{{article}}\n\\usepackage{{graphicx}}\n"
            f"\\usepackage[{'a4paper' if v.paper == 'A4' else 'letterpaper'},textwidth={v.text:.4f}pt,{gap}"
            f"textheight={v.height:.4f}pt]{{geometry}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n")
