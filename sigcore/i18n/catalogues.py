"""Keeping the catalogues: extract the marked text from the code, merge it into each language's .po, compile the .mo.
Translators' tools, with Babel (a development dependency, requirements-dev.txt); the app reads the .mo with the
standard library's gettext.

    python -m sigcore.i18n           # extract, update every .po (new texts empty, gone ones dropped), compile
    python -m sigcore.i18n --check   # exit 1 if a text is untranslated, a placeholder differs or a .mo is stale
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from . import DOMAIN, LANGUAGES, LOCALE

__all__ = ["ROOT", "SOURCES", "KEYWORDS", "PLACEHOLDER", "extracted", "po_path", "read", "compiled", "problems",
           "update"]

ROOT = Path(__file__).resolve().parents[2]  # the project: sigcore/, ui/, app_pages/
SOURCES = ("sigcore", "ui", "app_pages", "dashboard.py")  # folders and files
KEYWORDS = {"_": None, "N_": None}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _babel():
    try:
        from babel.messages import Catalog, extract, mofile, pofile
    except ModuleNotFoundError as e:  # the app needs only the .mo files
        raise SystemExit("keeping the catalogues needs Babel: pip install -r requirements-dev.txt") from e
    return Catalog, extract, mofile, pofile


def extracted():
    """Every marked text of the project, with where it is (file, line)."""
    Catalog, extract, _, _ = _babel()
    template = Catalog(project="sigcore", charset="utf-8")
    for source in SOURCES:
        if (ROOT / source).is_file():
            with open(ROOT / source, "rb") as f:
                found = [(source, line, message) for line, _function, message, *_ in extract.extract_python(
                    f, keywords=KEYWORDS, comment_tags=(), options={})]
        else:
            found = [(f"{source}/{name}", line, message) for name, line, message, *_ in extract.extract_from_dir(
                ROOT / source, method_map=[("**.py", "python")], keywords=KEYWORDS)]
        for where, line, message in found:
            template.add(message, locations=[(where, line)])
    return template


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str):
    *_, pofile = _babel()
    with open(po_path(language), "rb") as f:
        return pofile.read_po(f, locale=language)


def compiled(catalog) -> bytes:
    _, _, mofile, _ = _babel()
    out = io.BytesIO()
    mofile.write_mo(out, catalog)
    return out.getvalue()


def problems(language: str) -> list[str]:
    """What is wrong with a language's catalogue: untranslated or fuzzy texts, placeholders that differ, texts no
    longer in the code, a .mo not compiled from its .po."""
    template, catalog = extracted(), read(language)
    found = []
    for message in template:
        if not message.id:
            continue
        entry = catalog.get(message.id)
        where = ", ".join(f"{f}:{n}" for f, n in message.locations[:2])
        if entry is None or not entry.string or entry.fuzzy:
            found.append(f"{language}: untranslated ({where}): {message.id!r}")
        elif sorted(PLACEHOLDER.findall(message.id)) != sorted(PLACEHOLDER.findall(entry.string)):
            found.append(f"{language}: placeholders differ ({where}): {message.id!r} -> {entry.string!r}")
    found += [f"{language}: no longer in the code: {m.id!r}" for m in catalog if m.id and m.id not in template]
    if po_path(language).with_suffix(".mo").read_bytes() != compiled(catalog):
        found.append(f"{language}: {po_path(language).with_suffix('.mo')} is not compiled from its .po: "
                     "run python -m sigcore.i18n")
    return found


def update() -> None:
    """Merge the code's texts into every .po (kept translations stay, new ones come empty) and compile each."""
    *_, pofile = _babel()
    template = extracted()
    for language in LANGUAGES:
        if language == "en":
            continue
        catalog = read(language)
        template.creation_date = catalog.creation_date  # a rewrite changes only what the code changed
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with open(po_path(language), "wb") as f:
            pofile.write_po(f, catalog, width=120, include_lineno=False)
        po_path(language).with_suffix(".mo").write_bytes(compiled(read(language)))
