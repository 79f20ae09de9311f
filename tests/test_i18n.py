"""sigcore.i18n: the catalogues are complete, compiled from their .po, keep their placeholders, and the language is
the caller's (a context variable: a figure in Chinese does not turn another thread's text Chinese)."""

import threading

import pytest

from sigcore import i18n
from sigcore.i18n import _, catalogues


def test_every_marked_text_is_translated_with_its_placeholders_and_the_mo_is_compiled_from_the_po():
    assert catalogues.problems("zh") == []


def test_the_placeholder_check_and_the_staleness_check_can_fail(tmp_path, monkeypatch):
    catalog = catalogues.read("zh")
    message = next(m for m in catalog if m.id and "{" in m.id)
    message.string = message.string.replace("{", "(").replace("}", ")")
    monkeypatch.setattr(catalogues, "read", lambda language: catalog)
    found = catalogues.problems("zh")
    assert any("placeholders differ" in line and repr(message.id) in line for line in found)
    assert any("is not compiled from its .po" in line for line in found)  # the .mo holds the right string


def test_speaking_sets_the_language_for_the_block_only_and_new_threads_start_in_english():
    assert i18n.language() == "en" and _("5 · Common mistakes") == "5 · Common mistakes"
    seen = []
    with i18n.speaking("zh"):
        assert _("5 · Common mistakes") == "5 · 常见错误"
        thread = threading.Thread(target=lambda: seen.append(_("5 · Common mistakes")))
        thread.start()
        thread.join()
    assert seen == ["5 · Common mistakes"] and i18n.language() == "en"
    assert _("a text no catalogue has") == "a text no catalogue has" and _("") == ""


def test_an_unknown_language_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="unknown language 'fr': one of en, zh"):
        i18n.use("fr")
    assert i18n.language() == "en"


def test_texts_run_on_with_a_space_in_english_and_none_in_chinese():
    assert i18n.joined("Threshold α = .05.", "We cannot reject H0.", "(eq. 4.48)") == \
        "Threshold α = .05. We cannot reject H0. (eq. 4.48)"
    with i18n.speaking("zh"):
        threshold = _("Threshold α = {alpha}.").format(alpha=".05")
        assert i18n.joined(threshold, _("(eq. 4.48)")) == "阈值 α = .05。（式 4.48）"
