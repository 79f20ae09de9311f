"""The code's shape, checked as CI checks it: the layers run one way (import-linter's contract in pyproject.toml),
no module reaches into another's private names, and ruff's rule set passes on the code and its tests. ruff and
import-linter are in requirements-dev.txt; .ci/run runs both before the tests."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the one private name imported from another package, with its reason and tests/test_kaleido_patch.py
PATCHED = {("sigcore.report.export", "kaleido._kaleido_tab", "_devtools_utils")}


def _tool(name: str) -> str | None:
    return shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)


@pytest.mark.slow  # builds the import graph of the whole package: a few seconds
def test_the_layers_run_one_way_and_close_no_new_cycle():
    tool = _tool("lint-imports")
    assert tool, "lint-imports is in requirements-dev.txt: pip install -r requirements-dev.txt"
    run = subprocess.run([tool], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "Contracts: 2 kept, 0 broken." in run.stdout, run.stdout[-3000:]


def test_ruff_passes_on_the_code():
    tool = _tool("ruff")
    if tool is None:
        pytest.skip("ruff is not installed: pip install ruff==0.17.5 (requirements-dev.txt)")
    run = subprocess.run([tool, "check", "sigcore", "ui", "app_pages", "app.py", "bench", "tests"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or package of the project (a file, not a name inside one)."""
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_names_reached(path: Path) -> list[str]:
    """Where a module of sigcore/ or ui/ takes another module's private name: ``from X import _name``, or
    ``X._name`` on a project module it imported. gettext's ``_`` from sigcore.i18n is the convention, not a
    private name."""
    module, tree = _module(path), ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    modules, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                if alias.name == "_" and base == "sigcore.i18n":
                    continue
                if _private(alias.name) and (module, base, alias.name) not in PATCHED:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {base} import {alias.name}")
                elif _is_module(f"{base}.{alias.name}"):
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update(alias.asname for alias in node.names if alias.asname and _is_module(alias.name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and _private(node.attr):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_module_takes_another_modules_private_names():
    found = [hit for folder in ("sigcore", "ui") for path in sorted((ROOT / folder).rglob("*.py"))
             for hit in private_names_reached(path)]
    assert not found, "\n".join(found)


def test_the_scan_sees_a_private_name_taken(tmp_path, monkeypatch):
    # the scan itself: each way of reaching in is found, and the allowed ones are not
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    package = tmp_path / "sigcore"
    (package / "report").mkdir(parents=True)
    for name in ("__init__.py", "compare.py", "i18n.py", "report/__init__.py", "report/export.py"):
        (package / name).write_text("")
    (package / "report" / "sentence.py").write_text(
        "from ..comparison import _members, stream\n"
        "from ..i18n import _\n"
        "from .. import compare as c\n"
        "from . import export\n"
        "import sigcore.compare as cmp\n"
        "x = c._check(export._slot, cmp._Run, c.stream, export.__name__)\n")
    found = private_names_reached(package / "report" / "sentence.py")
    assert sorted(hit.split(": ", 1)[1] for hit in found) == sorted([
        "from sigcore.comparison import _members", "c._check", "export._slot", "cmp._Run"])
