"""The code's shape, checked as CI checks it: the layers run one way (import-linter's contract in pyproject.toml)
and ruff's rule set passes on the code (tests/ is not yet under it)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"{name} is in requirements-dev.txt: pip install -r requirements-dev.txt"
    return found


@pytest.mark.slow  # builds the import graph of the whole package: a few seconds
def test_the_layers_run_one_way():
    run = subprocess.run([_tool("lint-imports")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "Contracts: 1 kept, 0 broken." in run.stdout, run.stdout[-3000:]


def test_ruff_passes_on_the_code():
    run = subprocess.run([_tool("ruff"), "check", "sigcore", "ui", "app_pages", "app.py", "bench"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]
