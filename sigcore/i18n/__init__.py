"""User-visible text in the reader's language, through gettext message catalogues (one per language, keyed by the
English text): ``sigcore/i18n/locale/<language>/LC_MESSAGES/sigcore.po``, compiled beside it to ``sigcore.mo``.

The language is a context variable, set once per script run (a Streamlit page) or per call (:func:`speaking`), so a
figure builder deep in sigcore speaks the page's language without a parameter through every call; a new thread
starts in English. The book's notation (δ(x), x⁽ⁱ⁾, b, 2·δ(x)) is the same in every language.

Mark text with ``_("...")`` where it is shown, and with ``N_("...")`` where it is defined earlier than it is shown
(a table of labels at module level), then show it through ``_(label)``. Placeholders are named
(``_("{s} of {b} drawn").format(s=..., b=...)``) so that a translation may put them in its own order.
A third language is a file: see docs/reference/languages.md for the commands that extract, update and compile.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
from collections.abc import Iterator
from pathlib import Path

__all__ = ["LOCALE", "DOMAIN", "LANGUAGES", "catalogue", "_", "N_", "joined", "language", "use", "speaking"]

LOCALE = Path(__file__).with_name("locale")
DOMAIN = "sigcore"
LANGUAGES = {"en": "English", "zh": "中文"}  # code -> the language's name in itself, as a switch lists it
_language: contextvars.ContextVar[str] = contextvars.ContextVar("sigcore_language", default="en")


@functools.cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English: the keys themselves)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE, languages=[language])


def _(message: str) -> str:
    """``message`` in the current language (itself where the catalogue has no translation)."""
    return catalogue(_language.get()).gettext(message) if message else message


def N_(message: str) -> str:  # noqa: N802  (gettext's name) marks text for the catalogue, translated when shown
    return message


def joined(*texts: str) -> str:
    """Texts run on as the language writes them: a space between them in English, none after Chinese 。 or before （."""
    return functools.reduce(lambda first, then: _("{first} {then}").format(first=first, then=then), texts)


def language() -> str:
    return _language.get()


def use(language: str) -> None:
    """Speak ``language`` for the rest of this thread's work (a page's script run sets it first)."""
    catalogue(language)  # an unknown language is refused here, not at the first text
    _language.set(language)


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """``with speaking("zh"): figure(...)``: a figure or a sentence in ``language``, then back."""
    catalogue(language)
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)
