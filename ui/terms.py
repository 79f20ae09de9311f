"""The Classroom's language switch and the glossary of §4.11's terms in English and Chinese (the course reads SLP3
§4.11 in a Chinese translation, whose wording the catalogue follows: 零假设, 效应量, 配对自助法检验, p 值, 统计显著性,
近似随机化, 测试集, 阈值 ...)."""

from __future__ import annotations

import streamlit as st

from sigcore.i18n import LANGUAGES, N_, _

# English, symbol, Chinese: the translation's words where it has them (备择假设, 参数检验 and 统计功效 it does not use)
TERMS = [
    ("null hypothesis", "H0", "零假设"),
    ("alternative hypothesis", "H1", "备择假设"),
    ("effect size", "δ(x)", "效应量"),
    ("p-value", "p", "p 值"),
    ("threshold", "α", "阈值"),
    ("statistical significance", "p ≤ α", "统计显著性"),
    ("statistical hypothesis testing", "", "统计假设检验"),
    ("test set", "x", "测试集"),
    ("paired test", "", "配对检验"),
    ("paired bootstrap test", "", "配对自助法检验"),
    ("bootstrap test set (bootstrap sample)", "x⁽ⁱ⁾", "虚拟测试集 / 伪测试集（自助样本）"),
    ("sampling with replacement", "", "有放回抽样"),
    ("sampling distribution", "", "采样分布"),
    ("gold label", "", "金标准标签"),
    ("accuracy", "A%, B%", "正确率"),
    ("one-sided p-value", "", "单侧 p 值"),
    ("approximate randomisation", "", "近似随机化"),
    ("non-parametric test", "", "非参数检验"),
    ("parametric test", "", "参数检验"),
    ("power", "", "统计功效"),
]
HEADINGS = [N_("1 · The test set x"), N_("2 · Bootstrap test sets x⁽ⁱ⁾"), N_("3 · What a p-value means"),
            N_("4 · Power: how big a test set do we need?"), N_("5 · Common mistakes"),
            N_("6 · Bootstrap, permutation and t-test on the same data")]  # the page's sections


def language() -> str:
    """The Classroom's language: the switch's, or a link's (?lang=zh), English by default."""
    chosen = st.session_state.get("lang")
    return chosen if chosen in LANGUAGES else "en"


def chinese() -> bool:
    return language() == "zh"


def switch() -> None:
    """The language switch (English / 中文, kept in the page's URL as ?lang=zh) and the glossary of §4.11's terms in
    English and in the translation the course reads."""
    left, right = st.columns([1, 3], vertical_alignment="center")
    left.segmented_control(_("Language"), list(LANGUAGES), format_func=LANGUAGES.get, required=True, key="lang",
                           label_visibility="collapsed")
    with right.expander(_("Glossary: English and Chinese terms ({n})").format(n=len(TERMS))):
        st.markdown("| English | symbol | 中文 |\n|---|---|---|\n"
                    + "\n".join(f"| {e} | {s} | {c} |" for e, s, c in TERMS))


def key_terms() -> str:
    """The walk-through's terms on one line, for presenter mode, which has no prose to carry them."""
    return " · ".join(f"{symbol}: {chinese}" for english, symbol, chinese in TERMS if symbol)


def term(english: str) -> str:
    """A term of §4.11 in the page's language, as the translation words it ("H0" stays H0 in both)."""
    return _(english)


def heading(english: str) -> str:
    return _(english)
