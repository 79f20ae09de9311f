"""The public face of each module (issue 40 §6): every module of sigcore but the private ones (``_name.py``) and the
scripts says what it offers in ``__all__``, and every import of a name from a sigcore module, in sigcore, the app,
the tests and the benchmarks, takes it from the module that offers it (a module's ``__all__``: what it defines; a
package's: what it gathers from its modules), never from a module that merely imported it too."""

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = {"sigcore.__main__", "sigcore.i18n.__main__"}  # run, not imported
# what a module offers beside what it defines, and why
PASSED_ON = {"sigcore.report.records": {"dumps"}}  # a record and its text side by side: records.dumps(records.pair(…))


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "sigcore").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()
PUBLIC = [m for m in MODULES if not any(p.startswith("_") and p != "__init__" for p in m.split(".")[1:])
          and m not in SCRIPTS]


def _defined(tree: ast.Module) -> list[str]:
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names += [n.id for n in (target.elts if isinstance(target, ast.Tuple) else [target])
                          if isinstance(n, ast.Name)]  # a name, or names unpacked; not a subscript's insides
    return [n for n in dict.fromkeys(names) if not n.startswith("_")]


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_module_says_what_it_offers(name):
    module = importlib.import_module(name)
    offered = getattr(module, "__all__", None)
    assert offered is not None, f"{name} has no __all__"
    assert len(set(offered)) == len(offered) and all(hasattr(module, n) for n in offered), name
    if MODULES[name].name != "__init__.py":  # a module offers what it defines (a package gathers its modules')
        defined = _defined(ast.parse(MODULES[name].read_text(encoding="utf-8")))
        assert not set(offered) - set(defined) - PASSED_ON.get(name, set()), f"{name} offers what it imported"


def _imports():
    """(importer, module, name) of every ``from sigcore... import name`` in the project."""
    files = [*ROOT.glob("sigcore/**/*.py"), *ROOT.glob("ui/**/*.py"), *ROOT.glob("app_pages/*.py"), ROOT / "app.py",
             *ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/*.py")]
    for path in files:
        parts = path.relative_to(ROOT).with_suffix("").parts
        package = parts[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package[:len(package) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source.split(".")[0] != "sigcore":
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" not in MODULES and not alias.name.startswith("_"):
                    yield ".".join(parts), source, alias.name


def test_every_import_takes_a_name_from_the_module_that_offers_it():
    wrong = []
    for importer, source, name in _imports():
        if source in SCRIPTS or source not in MODULES:
            continue
        if source not in PUBLIC:  # a private module serves its own package only
            if importer.split(".")[0] != "sigcore":
                wrong.append(f"{importer}: from {source} import {name} (a private module)")
        elif name not in importlib.import_module(source).__all__:
            wrong.append(f"{importer}: from {source} import {name}")
    assert not wrong, "\n".join(wrong)


def test_the_sentences_moved_to_the_report_layer_still_answer_their_old_names_with_a_warning():
    """A name changes only after a minor version with a DeprecationWarning (docs/reference/stability.md)."""
    import numpy as np

    from sigcore import claims, compare_seeds
    from sigcore.report import claim_table, claim_text, export, records
    from sigcore.report import seeds as seeds_words

    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 60)
    runs_a = [np.where(rng.random(60) < 0.8, gold, 1 - gold) for _ in range(2)]
    runs_b = [np.where(rng.random(60) < 0.7, gold, 1 - gold) for _ in range(2)]
    res = compare_seeds(gold, runs_a, runs_b, n_resamples=200)
    c = claims.claim(gold, runs_a[0], runs_b[0], kind="non-inferior", margin=0.05, n_resamples=200)
    cases = [(lambda: res.sentence(a="x", b="y"), seeds_words.sentence(res, a="x", b="y")),
             (res.variance_sentence, seeds_words.variance_sentence(res)),
             (lambda: claims.sentence(c, "x", "y"), claim_text.sentence(c, "x", "y")),
             (lambda: claims.delta_text(c), claim_text.delta_text(c)),
             (lambda: claims.bound_texts(c), claim_text.bound_texts(c)), (lambda: claims.p_text(c), c.p_text),
             (lambda: claim_table.to_json(c, a="x"), records.dumps(records.claim(c, a="x", resamples=True))),
             (lambda: export.result_json(c.result, distribution=True),
              records.dumps(records.pair(c.result, distribution=True)))]
    for old, new in cases:
        with pytest.warns(DeprecationWarning, match="goes in 0.4.0"):
            assert old() == new


def test_the_function_compare_no_longer_hides_its_module():
    """sigcore.compare is the function; its module is sigcore.comparison; the old import path still answers, with a
    DeprecationWarning, until 0.4.0."""
    import types

    import sigcore
    import sigcore.comparison

    assert callable(sigcore.compare) and isinstance(sigcore.comparison, types.ModuleType)
    assert sigcore.compare is sigcore.comparison.compare and sigcore.TESTS is sigcore.comparison.TESTS
    with pytest.warns(DeprecationWarning, match="sigcore.compare .the module. is sigcore.comparison"):
        from sigcore.compare import AUTO
    assert AUTO == sigcore.comparison.AUTO and callable(sigcore.compare)  # the old path leaves the function be
