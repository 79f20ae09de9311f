"""English and Chinese terms side by side, on request (the course reads SLP3 §4.11 in a Chinese translation,
whose wording these follow: 零假设, 效应量, 配对自助法检验, p 值, 统计显著性, 近似随机化, 测试集, 阈值 ...)."""

from __future__ import annotations

import streamlit as st

# English, symbol, Chinese: the translation's words where it has them (备择假设 and 统计功效 it does not use)
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
    ("bootstrap test set (bootstrap sample)", "x⁽ⁱ⁾", "自助测试集（自助样本）"),
    ("sampling with replacement", "", "有放回抽样"),
    ("one-sided p-value", "", "单侧 p 值"),
    ("approximate randomisation", "", "近似随机化"),
    ("non-parametric test", "", "非参数检验"),
    ("power", "", "统计功效"),
]
CHINESE = {english: chinese for english, _, chinese in TERMS} | {symbol: chinese for _, symbol, chinese in TERMS
                                                                  if symbol in ("H0", "H1")}
HEADINGS = {  # the page's sections
    "1 · The test set x": "测试集 x",
    "2 · Bootstrap test sets x⁽ⁱ⁾": "自助测试集 x⁽ⁱ⁾",
    "3 · What a p-value means": "p 值的含义",
    "4 · Power: how big a test set do we need?": "统计功效：测试集需要多大？",
    "5 · Common mistakes": "常见错误",
    "6 · Bootstrap, permutation and t-test on the same data": "同一数据上的自助法、近似随机化与 t 检验",
}


def on() -> bool:
    return bool(st.session_state.get("zh"))


def switch() -> None:
    """The 中文术语 switch (also ?zh=1, kept in the page's URL), and the glossary when it is on."""
    st.toggle("中文术语 · Chinese terms", key="zh", help="The terms of §4.11 in English and in the Chinese "
                                                        "translation the course reads, side by side.")
    if on():
        with st.expander(f"Glossary · 术语表 ({len(TERMS)} terms)"):
            st.markdown("| English | symbol | 中文 |\n|---|---|---|\n"
                        + "\n".join(f"| {e} | {s} | {c} |" for e, s, c in TERMS))


def key_terms() -> str:
    """The walk-through's terms on one line, for presenter mode, which has no prose to carry them."""
    return " · ".join(f"{symbol}: {chinese}" for english, symbol, chinese in TERMS if symbol)


def term(english: str) -> str:
    """``english`` with its Chinese beside it when the switch is on: "H0（零假设）"."""
    return f"{english}（{CHINESE[english]}）" if on() else english


def heading(english: str) -> str:
    return f"{english} · {HEADINGS[english]}" if on() else english
