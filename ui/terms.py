"""The Classroom's language switch and the glossary of §4.11's terms in English and Chinese (the course reads SLP3
§4.11 in a Chinese translation, whose wording the catalogue follows: 零假设, 效应量, 配对自助法检验, p 值, 统计显著性,
近似随机化, 测试集, 阈值 ...)."""

from __future__ import annotations

import streamlit as st

from sigcore import i18n
from sigcore.i18n import LANGUAGES, N_, _

# English (the catalogue has it in the translation's words: 备择假设, 参数检验 and 统计功效 it does not use), symbol
TERMS = [
    (N_("null hypothesis"), "H0"),
    (N_("alternative hypothesis"), "H1"),
    (N_("effect size"), "δ(x)"),
    (N_("p-value"), "p"),
    (N_("threshold"), "α"),
    (N_("statistical significance"), "p ≤ α"),
    (N_("statistical hypothesis testing"), ""),
    (N_("test set"), "x"),
    (N_("paired test"), ""),
    (N_("paired bootstrap test"), ""),
    (N_("bootstrap test set (bootstrap sample)"), "x⁽ⁱ⁾"),
    (N_("sampling with replacement"), ""),
    (N_("sampling distribution"), ""),
    (N_("gold label"), ""),
    (N_("accuracy"), "A%, B%"),
    (N_("one-sided p-value"), ""),
    (N_("approximate randomisation"), ""),
    (N_("non-parametric test"), ""),
    (N_("parametric test"), ""),
    (N_("power"), ""),
]
GLOSSARY = "glossary"  # the glossary's open state
HEADINGS = [N_("1 · The test set x"), N_("2 · Bootstrap test sets x⁽ⁱ⁾"), N_("3 · What a p-value means"),
            N_("4 · Power: how big a test set do we need?"), N_("5 · Common mistakes"),
            N_("6 · Bootstrap, permutation and t-test on the same data")]  # the page's sections


def language() -> str:
    """The Classroom's language: the switch's, or a link's (?lang=zh), English by default."""
    chosen = st.session_state.get("lang", st.query_params.get("lang"))  # a link's, before the page has read it
    return chosen if chosen in LANGUAGES else "en"


def chinese() -> bool:
    return language() == "zh"


def switch() -> None:
    """The language switch (English / 中文, kept in the page's URL as ?lang=zh) and the glossary of §4.11's terms in
    English and in the translation the course reads."""
    left, right = st.columns([1, 3], vertical_alignment="center")
    left.segmented_control(_("Language"), list(LANGUAGES), format_func=LANGUAGES.get, required=True, key="lang",
                           label_visibility="collapsed")
    glossary = right.expander(_("Glossary: English and Chinese terms ({n})").format(n=len(TERMS)), key=GLOSSARY,
                              on_change="rerun")  # its table sent only once opened: the page opens sooner
    if not glossary.open:
        return
    with glossary:
        with i18n.speaking("zh"):
            chinese = [_(english) for english, _symbol in TERMS]
        st.markdown("| English | " + _("symbol") + " | 中文 |\n|---|---|---|\n"
                    + "\n".join(f"| {e} | {s} | {c} |" for (e, s), c in zip(TERMS, chinese)))


def key_terms() -> str:
    """The walk-through's terms on one line, for presenter mode, which has no prose to carry them."""
    return " · ".join(f"{symbol}: {_(english)}" for english, symbol in TERMS if symbol)


def term(english: str) -> str:
    """A term of §4.11 in the page's language, as the translation words it ("H0" stays H0 in both)."""
    return _(english)


def heading(english: str) -> str:
    return _(english)
