"""What the full suite needs from the machine besides requirements-dev.txt, and what a test does where it lacks it.

A test that needs a tool this machine lacks skips, naming the tool and the Debian package that brings it; where
:data:`VARIABLE` is 1 (`.ci/run` sets it, having installed them all) it fails instead, so that nothing is silently
left out there. A test asks with :func:`need`, or it simply starts the tool: conftest.py watches the slow and browser
tests with the fast tier's guard (tests/helpers/fast_tier.py) refusing only what this machine lacks, and a test that
started one of those is skipped, whatever it made of the refusal."""

import functools
import os
import shutil
import subprocess

import pytest

VARIABLE = "SIGCORE_TESTS_NEED_ALL"
TEX, PUBLISHERS, POPPLER = "texlive-latex-recommended texlive-fonts-recommended", "texlive-publishers", "poppler-utils"
# each tool the tests use and the Debian package that brings it (.ci/run installs them all)
PACKAGES = {"pdflatex": TEX, "bibtex": TEX, "kpsewhich": TEX,
            **dict.fromkeys(("IEEEtran.cls", "acmart.cls", "llncs.cls"), PUBLISHERS),  # the venues' classes
            **dict.fromkeys(("pdftotext", "pdffonts", "pdfinfo", "pdftoppm", "pdftocairo", "pdfimages"), POPPLER),
            "chromium": "chromium", "Noto Sans CJK": "fonts-noto-cjk"}
CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"  # where Debian's fonts-noto-cjk puts it


@functools.cache
def has(tool: str) -> bool:
    """Whether this machine has ``tool`` (a program on PATH, a TeX class, the CJK font)."""
    if tool.endswith(".cls"):
        found = shutil.which("kpsewhich") and subprocess.run(["kpsewhich", tool], capture_output=True).returncode == 0
        return bool(found)
    if tool == "Noto Sans CJK":
        return os.path.exists(CJK_FONT)
    return shutil.which(tool) is not None


def lacking() -> frozenset[str]:
    """The tools of :data:`PACKAGES` this machine lacks."""
    return frozenset(tool for tool in PACKAGES if not has(tool))


def required() -> bool:
    """Whether every tool must be there (CI), so that a lacking one fails the test rather than skipping it."""
    return os.environ.get(VARIABLE) == "1"


def reason(tools) -> str:
    """Why a test that started or asked for ``tools`` did not run here, and what to install."""
    tools = sorted(set(tools))
    packages = " ".join(dict.fromkeys(PACKAGES.get(tool, tool) for tool in tools))
    return f"needs {', '.join(tools)}, which this machine lacks: apt-get install {packages}"


def refuse(tools) -> None:
    """Skip the test for lacking ``tools`` (or fail it, where every tool is required)."""
    if required():
        pytest.fail(f"{reason(tools)} ({VARIABLE}=1: every tool is required here)", pytrace=False)
    pytest.skip(reason(tools))


def need(tool: str) -> str:
    """``tool``'s path (or name, for a class or font), or the test skips (fails under :data:`VARIABLE`) here."""
    if not has(tool):
        refuse([tool])
    return shutil.which(tool) or tool
