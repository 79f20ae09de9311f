"""The engine as a package: the wheel builds, installs into a fresh environment, and its `sigcore` command works
from any folder (nothing beside it, not the project root)."""

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment (seeing this machine's numpy, scipy, pandas, sacrebleu) with the wheel."""
    base = tmp_path_factory.mktemp("package")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--wheel-dir", str(base / "dist"), str(ROOT)], check=True, cwd=base)
    wheel, = (base / "dist").glob("sigcore-*.whl")
    venv.create(base / "env", system_site_packages=True, with_pip=True)
    python = base / "env" / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)], check=True)
    return base / "env" / "bin"


def run(command: list, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(cwd)})  # no PYTHONPATH to the project


def test_the_wheel_holds_the_engine_and_not_the_app(installed, tmp_path):
    files = run([installed / "python", "-c", "import sigcore, pathlib; print(pathlib.Path(sigcore.__file__).parent)"],
                tmp_path).stdout.strip()
    assert "site-packages" in files  # the installed copy, not the checkout
    package = Path(files)
    assert (package / "statistics" / "resampling.py").is_file() and (package / "report" / "sentence.py").is_file()
    assert not (package.parent / "ui").exists() and not (package.parent / "app_pages").exists()


def test_the_sigcore_command_runs_from_an_empty_folder(installed, tmp_path):
    for name, lines in (("gold.txt", "x\ny\nx\ny\nx\ny\n"), ("a.txt", "x\ny\nx\ny\nx\nx\n"), ("b.txt", "y\ny\nx\nx\ny\nx\n")):
        (tmp_path / name).write_text(lines)
    command = run([installed / "sigcore", "compare", "gold.txt", "a.txt", "b.txt", "--test", "mcnemar"], tmp_path)
    assert command.returncode == 0, command.stderr
    module = run([installed / "python", "-m", "sigcore", "compare", "gold.txt", "a.txt", "b.txt", "--test", "mcnemar"],
                 tmp_path)
    reproduce = "reproduce: sigcore compare gold.txt a.txt b.txt --metric accuracy --test mcnemar"
    assert reproduce in command.stdout  # each names itself as it was called
    assert module.stdout == command.stdout.replace(reproduce, reproduce.replace("sigcore", "python -m sigcore", 1))
    assert "McNemar's exact test" in command.stdout
    refused = run([installed / "sigcore", "compare", "gold.txt", "a.txt", "missing.txt"], tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith("error: missing.txt: file not found")
    version = run([installed / "python", "-c", "import sigcore; print(sigcore.__version__)"], tmp_path)
    assert version.stdout.strip() == (ROOT / "sigcore" / "_version.py").read_text().split('"')[1]


def test_an_editable_install_runs_the_checkout(tmp_path):
    """`pip install -e .` (for working on sigcore): the command runs the checkout's code from any folder."""
    venv.create(tmp_path / "env", system_site_packages=True)  # this machine's pip and setuptools build it
    bin_ = tmp_path / "env" / "bin"
    subprocess.run([bin_ / "python", "-m", "pip", "install", "--no-deps", "--no-index", "--no-build-isolation",
                    "--quiet", "-e", str(ROOT)], check=True, cwd=tmp_path)
    where = run([bin_ / "python", "-c", "import sigcore; print(sigcore.__file__)"], tmp_path)
    assert where.stdout.strip() == str(ROOT / "sigcore" / "__init__.py")
    assert run([bin_ / "sigcore", "tests"], tmp_path).returncode == 0
