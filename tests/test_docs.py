"""The README is the front door and docs/ the manual (issue 22 §8): the site builds with no broken link or anchor,
the README stays short, opens with the two commands, links only to files that exist, and CITATION.cff names this
version."""

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml  # PyYAML, which mkdocs (requirements-dev.txt) depends on

import sigcore

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
COMMANDS = ["pip install -r requirements.txt && streamlit run app.py",
            "pip install -r requirements-dev.txt && python -m pytest"]


def fenced_blocks(text: str) -> list[str]:
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)


def test_mkdocs_build_strict_passes(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    for page in ["index.html", "reference/cli/index.html", "reference/statistics/index.html", "cite/index.html"]:
        assert (tmp_path / "site" / page).is_file(), page


def test_readme_is_at_most_15_kb():
    assert README.stat().st_size <= 15_000, f"README.md is {README.stat().st_size:,} bytes; move detail to docs/"


def test_readme_opens_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    lines = [line.split("  #")[0].strip() for block in fenced_blocks(text) for line in block.splitlines()]
    assert [line for line in lines if line][:2] == COMMANDS
    assert text.index(COMMANDS[0]) < text.index("## "), "the commands come before the first section"


def test_readme_relative_links_point_at_files():
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    relative = [t.split("#")[0] for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]
    assert relative, "the README links into docs/"
    missing = [t for t in relative if not (ROOT / t).exists()]
    assert not missing, missing
    anchors = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-")
               for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
    assert {t[1:] for t in targets if t.startswith("#")} <= anchors


def test_citation_cff_names_this_version():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert (cff["title"], cff["version"]) == ("sigcore", sigcore.__version__)
    assert cff["authors"] and all("name" in a or "family-names" in a for a in cff["authors"])
    from sigcore.report import citations

    for page in [README, ROOT / "docs" / "cite.md"]:  # the BibTeX shown for sigcore itself: the one every .bib has
        assert f"version = {{{sigcore.__version__}}}" in page.read_text(encoding="utf-8"), page
        assert citations.WORKS["sigcore"].bibtex in page.read_text(encoding="utf-8"), page
    assert citations.bibtex(["holm1979simple"]).rstrip().endswith(citations.WORKS["sigcore"].bibtex)
