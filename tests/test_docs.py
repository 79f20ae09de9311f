"""The README is the front door and docs/ the manual (issue 22 §8): the site builds with no broken link or anchor,
the README stays short, opens with the two commands, links only to files that exist, and CITATION.cff names this
version."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
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


# The README's quick start, run as printed after its own set-up (`pip install -r requirements.txt`, which installs
# this checkout as the `sigcore` package): its files made as it describes them, each command from a folder outside
# the project with nothing but the environment's bin on PATH, and what it prints equal to what the README shows.
BIN = Path(sys.executable).parent


def quick_start() -> tuple[list[str], list[str]]:
    """The quick start's commands (its ```bash blocks, comments dropped) and the outputs it shows (```text)."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quick start with your own files"):]
    section = section[:section.index("\n## ", 5)]
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", section, flags=re.S | re.M)
    commands = [line.split("  #")[0].strip() for kind, body in blocks if kind == "bash" for line in body.splitlines()]
    return [c for c in commands if c], [body for kind, body in blocks if kind == "text"]


def readme_files(folder: Path) -> None:
    """The three layouts the quick start names, with the counts its output shows: 200 items, 57 discordant
    pairs, A alone right on 38 and B alone on 19."""
    gold = [i % 3 for i in range(200)]
    wrong = [(g + 1) % 3 for g in gold]
    a = [gold[i] if i < 38 or 57 <= i < 150 else wrong[i] for i in range(200)]
    b = [gold[i] if 38 <= i < 150 else wrong[i] for i in range(200)]
    for name, pred in (("baseline_preds.csv", b), ("mymodel_preds.csv", a)):
        (folder / name).write_text("id,gold,pred\n" + "".join(f"{i},{g},{p}\n"
                                                              for i, (g, p) in enumerate(zip(gold, pred))))
    (folder / "results.csv").write_text("id,gold,baseline,mymodel\n" + "".join(
        f"{i},{g},{y},{x}\n" for i, (g, y, x) in enumerate(zip(gold, b, a))))
    for name, values in (("gold.txt", gold), ("baseline.txt", b), ("mymodel.txt", a)):
        (folder / name).write_text("".join(f"{v}\n" for v in values))


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(cwd), "PYTHONDONTWRITEBYTECODE": "1"})


@pytest.mark.slow  # runs the README's quick start as printed, each command a process of its own
def test_the_quick_start_runs_as_printed_after_the_readmes_set_up(tmp_path):
    requirements = (ROOT / "requirements.txt").read_text().splitlines()
    assert any(line.split("#")[0].split() == ["-e", "."] for line in requirements), "the set-up installs sigcore"
    readme_files(tmp_path)
    commands, outputs = quick_start()
    own = [c for c in commands if c.startswith("sigcore ")]
    assert len(own) == 4, commands
    printed = {}
    for command in own:
        done = shell(command, tmp_path)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        printed[command] = done.stdout
    roles = outputs[0].strip().splitlines()  # what (c) prints first: the roles, the metric and the test it took
    assert printed["sigcore compare baseline_preds.csv mymodel_preds.csv"].splitlines()[:len(roles)] == roles
    sample = next(c for c in commands if c.startswith("python -m sigcore"))
    done = shell(sample, ROOT)
    assert done.returncode == 0, done.stderr
    assert " ".join(outputs[1].split()) in " ".join(done.stdout.split())
    where = shell("python -c 'import sigcore; print(sigcore.__file__)'", tmp_path)  # from any folder
    assert where.returncode == 0 and Path(where.stdout.strip()).parent == ROOT / "sigcore", where
