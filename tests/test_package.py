"""The engine as a package: the wheel builds, installs into a fresh environment, and its `sigcore` command works
from any folder (nothing beside it, not the project root); `pip install .` and `pip install -e .` work from a
read-only checkout and write nothing into it.

Everything is built with the environment running these tests (its pip and flit-core, `--no-build-isolation`, so no
index is needed), and the fresh environments see that environment's packages (numpy, scipy, pandas, sacrebleu),
never the base interpreter's: in a virtual environment the base interpreter has none of them."""

import configparser
import shutil
import site
import stat
import subprocess
import sys
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSION = (ROOT / "sigcore" / "_version.py").read_text().split('"')[1]
CACHES = {"__pycache__", ".pytest_cache", ".hypothesis", ".git"}  # what running the tests leaves beside the files
pytestmark = pytest.mark.slow  # pip builds and installs the package into fresh virtual environments


def environment(path: Path) -> Path:
    """A fresh virtual environment (no system site packages) whose packages are its own, then the running
    environment's, through a .pth file; its bin folder."""
    venv.create(path, with_pip=False)  # the running environment's pip installs into it (and without pip it is fast)
    python = path / "bin" / "python"
    own = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    running = site.getsitepackages() + ([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])
    (Path(own) / "running-environment.pth").write_text("".join(f"{folder}\n" for folder in running))
    return path / "bin"


def pip(python, *args: str, cwd: Path) -> None:
    done = subprocess.run([python, "-m", "pip", *args, "--no-deps", "--no-index", "--no-build-isolation", "--quiet"],
                          cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def run(command: list, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(cwd),  # no PYTHONPATH to the project
                               "PYTHONDONTWRITEBYTECODE": "1"})  # an editable install leaves its checkout as it was


def snapshot(folder: Path) -> dict:
    return {str(path.relative_to(folder)): (path.stat().st_mode, path.stat().st_size, path.stat().st_mtime_ns)
            for path in [folder, *folder.rglob("*")]}


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A read-only copy of the checkout: its tracked files (in `.ci/run`'s `git archive` copy, which has no .git,
    every file but the tests' caches). chmod does not stop root, so the tests compare snapshots as well."""
    copy = tmp_path_factory.mktemp("checkout") / "sigcore"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode == 0:
        files = [ROOT / name for name in listed.stdout.decode().split("\0") if name]
    else:
        files = [path for path in ROOT.rglob("*") if not CACHES & set(path.relative_to(ROOT).parts)]
    for file in files:
        if file.is_file():
            (copy / file.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(file, copy / file.relative_to(ROOT))
    assert (copy / "pyproject.toml").is_file() and (copy / "sigcore" / "__init__.py").is_file()
    writable = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    for path in [copy, *copy.rglob("*")]:
        path.chmod(path.stat().st_mode & ~writable)
    yield copy
    for path in [copy, *copy.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)


@pytest.fixture(scope="module")
def wheel(checkout, tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("wheel")
    before = snapshot(checkout)
    pip(sys.executable, "wheel", "--wheel-dir", str(base), str(checkout), cwd=base)
    assert snapshot(checkout) == before  # built out of tree: no build/, no sigcore.egg-info/
    built, = base.glob("sigcore-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel; its bin folder."""
    bin_ = environment(tmp_path_factory.mktemp("package") / "env")
    pip(bin_ / "python", "install", str(wheel), cwd=bin_)
    return bin_


def test_the_wheel_holds_the_engine_and_not_the_app(checkout, wheel, installed, tmp_path):
    names = zipfile.ZipFile(wheel).namelist()
    package = {name for name in names if name.startswith("sigcore/")}
    assert package == {str(path.relative_to(checkout)) for path in (checkout / "sigcore").rglob("*")
                       if path.is_file()}  # every file of sigcore/ (data files too), and nothing else beside it:
    assert set(names) - package == {f"sigcore-{VERSION}.dist-info/{name}"  # no app.py, app_pages/, ui/,
                                    for name in ("METADATA", "WHEEL", "RECORD", "entry_points.txt")}  # sample_data
    assert "sigcore/statistics/resampling.py" in package and "sigcore/report/sentence.py" in package
    info = f"sigcore-{VERSION}.dist-info"
    metadata = Parser().parsestr(zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode())
    assert metadata["Name"] == "sigcore" and metadata["Version"] == VERSION
    assert {requirement.split(">=")[0] for requirement in metadata.get_all("Requires-Dist")} == {
        "numpy", "scipy", "pandas", "sacrebleu", "threadpoolctl", "jsonschema", "plotly", "kaleido", "zstandard",
        "pyarrow", "dask", "distributed"}
    assert metadata.get_all("Provides-Extra") == ["dask", "figures", "logs"]
    entry_points = configparser.ConfigParser()
    entry_points.read_string(zipfile.ZipFile(wheel).read(f"{info}/entry_points.txt").decode())
    assert dict(entry_points["console_scripts"]) == {"sigcore": "sigcore.cli:main"}

    where = run([installed / "python", "-c", "import sigcore, pathlib; print(pathlib.Path(sigcore.__file__).parent)"],
                tmp_path)
    assert where.returncode == 0, where.stderr
    location = Path(where.stdout.strip())  # the installed copy, not the checkout
    assert location.is_relative_to(installed.parent) and location.parent.name == "site-packages"
    assert not (location.parent / "ui").exists() and not (location.parent / "app_pages").exists()


def test_the_sigcore_command_runs_from_an_empty_folder(installed, tmp_path):
    for name, lines in (("gold.txt", "x\ny\nx\ny\nx\ny\n"), ("a.txt", "x\ny\nx\ny\nx\nx\n"),
                        ("b.txt", "y\ny\nx\nx\ny\nx\n")):
        (tmp_path / name).write_text(lines)
    command = run([installed / "sigcore", "compare", "gold.txt", "a.txt", "b.txt", "--test", "mcnemar"], tmp_path)
    assert command.returncode == 0, command.stderr
    module = run([installed / "python", "-m", "sigcore", "compare", "gold.txt", "a.txt", "b.txt", "--test", "mcnemar"],
                 tmp_path)
    reproduce = ("reproduce: sigcore compare gold.txt a.txt b.txt --gold-file gold.txt --baseline b.txt --metric "
                 "accuracy --test mcnemar")
    assert reproduce in command.stdout  # each names itself as it was called
    assert module.stdout == command.stdout.replace(reproduce, reproduce.replace("sigcore", "python -m sigcore", 1))
    assert "McNemar's exact test" in command.stdout
    refused = run([installed / "sigcore", "compare", "gold.txt", "a.txt", "missing.txt"], tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith("error: missing.txt: file not found")
    version = run([installed / "python", "-c", "import sigcore; print(sigcore.__version__)"], tmp_path)
    assert version.stdout.strip() == VERSION


def test_pip_install_writes_nothing_into_a_read_only_checkout(checkout, tmp_path):
    """`pip install .` from a read-only checkout: it builds out of tree (no build/, no sigcore.egg-info/)."""
    before = snapshot(checkout)
    pip(sys.executable, "install", "--target", str(tmp_path / "target"), str(checkout), cwd=tmp_path)
    assert snapshot(checkout) == before
    assert sorted(path.name for path in (tmp_path / "target").iterdir()) == [
        "bin", "sigcore", f"sigcore-{VERSION}.dist-info"]
    assert (tmp_path / "target" / "sigcore" / "statistics" / "resampling.py").is_file()


def test_an_editable_install_runs_the_checkout(checkout, tmp_path):
    """`pip install -e .` (for working on sigcore): the command runs the checkout's code from any folder, and the
    install writes nothing into the checkout."""
    bin_ = environment(tmp_path / "env")
    before = snapshot(checkout)
    pip(bin_ / "python", "install", "--editable", str(checkout), cwd=tmp_path)
    assert snapshot(checkout) == before
    where = run([bin_ / "python", "-c", "import sigcore; print(sigcore.__file__)"], tmp_path)
    assert where.stdout.strip() == str(checkout / "sigcore" / "__init__.py"), where.stderr
    listed = run([bin_ / "sigcore", "tests"], tmp_path)
    assert listed.returncode == 0 and "bootstrap" in listed.stdout, listed.stderr
    assert snapshot(checkout) == before
