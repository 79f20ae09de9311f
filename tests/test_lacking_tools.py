"""A machine without Chromium, TeX, poppler or the CJK font (tests/helpers/system.py, conftest.py): a test that needs
one skips, naming the package to install, and the rest run; under SIGCORE_TESTS_NEED_ALL=1, as in CI, it fails."""

import contextlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import system
from helpers.fast_tier import Guard, tool

TESTS = Path(__file__).resolve().parent


@contextlib.contextmanager
def bare(tmp_path, required: str = "0"):
    """A PATH with none of the tools (set in the test, after the fast tier's guard has put its stand-ins first), and
    no answer cached from the real one."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", str(tmp_path))
        patch.setenv(system.VARIABLE, required)
        system.has.cache_clear()
        try:
            yield
        finally:
            system.has.cache_clear()


def test_a_lacking_tool_skips_naming_its_package(tmp_path):
    with bare(tmp_path), pytest.raises(pytest.skip.Exception, match="needs pdflatex, which this machine lacks: "
                                       "apt-get install texlive-latex-recommended texlive-fonts-recommended$"):
        system.need("pdflatex")
    with bare(tmp_path):
        assert {"pdflatex", "chromium", "pdftotext", "IEEEtran.cls"} <= system.lacking()


def test_where_every_tool_is_required_a_lacking_one_fails(tmp_path):
    with bare(tmp_path, required="1"), pytest.raises(pytest.fail.Exception, match="needs chromium.*apt-get install "
                                                     r"chromium \(SIGCORE_TESTS_NEED_ALL=1"):
        system.need("chromium")


def test_a_present_tool_is_found():
    assert system.need("sh").endswith("/sh")


def test_the_reason_names_each_package_once():
    assert system.reason(["pdftotext", "pdffonts", "chromium"]) == (
        "needs chromium, pdffonts, pdftotext, which this machine lacks: apt-get install chromium poppler-utils")


def test_the_lacking_guard_refuses_only_what_it_names():
    lack = Guard(only=frozenset({"pdftotext", "chromium"}), hint="this machine lacks it")
    try:
        with lack.watching() as started:
            with pytest.raises(OSError, match="pdftotext: this machine lacks it"):
                subprocess.run(["pdftotext", "a.pdf", "-"], capture_output=True)
            child = subprocess.run(["sh", "-c", "chromium --headless; true"], capture_output=True, text=True)
            assert subprocess.run([sys.executable, "-c", "pass"]).returncode == 0  # anything else starts
    finally:
        lack.remove()
    assert "chromium: this machine lacks it" in child.stderr
    assert started == ["pdftotext", "chromium"] and not lack.refuses("pdflatex")
    assert {tool(name) for name in ("kaleido's Chromium", "Playwright's Chromium", "chromium-browser")} == {"chromium"}


TRIAL = '''
    import subprocess
    import pytest

    @pytest.mark.slow
    def test_starts_poppler():
        try:  # whatever the test makes of the refusal, it is skipped
            subprocess.run(["pdftotext", "a.pdf", "-"], check=True)
        except OSError:
            assert False

    @pytest.mark.slow
    def test_needs_nothing():
        assert subprocess.run(["sh", "-c", "true"]).returncode == 0
'''


PROJECT_CONFTEST = """import importlib.util, sys
sys.path.insert(0, {tests!r})
spec = importlib.util.spec_from_file_location("project_conftest", {tests!r} + "/conftest.py")
project = importlib.util.module_from_spec(spec)
spec.loader.exec_module(project)
globals().update((name, value) for name, value in vars(project).items() if not name.startswith("__"))
"""


@pytest.mark.slow  # a pytest run of its own, twice
@pytest.mark.parametrize("required", [False, True])
def test_a_slow_test_that_starts_a_lacking_tool_is_skipped_or_failed(tmp_path, required):
    (tmp_path / "conftest.py").write_text(PROJECT_CONFTEST.format(tests=str(TESTS)))
    (tmp_path / "test_trial.py").write_text(textwrap.dedent(TRIAL))
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    (bin_ / "sh").symlink_to("/bin/sh")  # no poppler, TeX or Chromium on this PATH
    env = {**os.environ, "PATH": str(bin_), system.VARIABLE: "1" if required else "0"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:xdist", "-p", "no:randomly",
                           "-p", "no:cacheprovider", "-o", "addopts=", "test_trial.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    out = done.stdout
    if required:
        assert "1 failed, 1 passed" in out and "apt-get install poppler-utils (SIGCORE_TESTS_NEED_ALL=1" in out, out
    else:
        assert done.returncode == 0 and "1 passed, 1 skipped" in out, out
        assert "needs pdftotext, which this machine lacks: apt-get install poppler-utils" in out, out
