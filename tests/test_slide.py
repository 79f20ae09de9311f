"""The walk-through as a slide: a title, the decision at α, the chart, the code, the state and the table of the frame
its link opens, the link and its QR code, in the page's language, as PNG, SVG and PDF."""

import gettext
import html
import io
import re
import subprocess
import unicodedata
import urllib.parse

import numpy as np
import pytest
import segno
from PIL import Image

import ui.walkthrough as w
from sigcore import i18n, teaching
from sigcore.teaching.bootstrap import textbook_number
from ui import slide as s
from ui.slide import MARGIN, address, coloured, slide, slide_image, state_link, unified_text, wrapped

from helpers.slides import qr_modules, slide_layout_holds
from helpers.system import need

A, B = w.PRESETS["Textbook: A .70, B .50"]
URL = "http://192.168.1.20:8501/classroom"  # as st.context.url gives it: the page's path, no query
# the slide's own texts as the Chinese catalogue will have them, in the terms of the course's translation of §4.11
# (the page's texts on it, the conclusion, the counters and the table's head, come from the catalogue as it is)
ZH = {"Is A better than B? The paired bootstrap test": "A 比 B 好吗？配对自助法检验",
      "{section} · SLP3 §4.11, Figures 4.11 and 4.12": "{section} · SLP3 §4.11，图 4.11 与图 4.12",
      "Scan the code or open the link: the page in this state (seed {seed})":
          "扫描二维码或打开链接：页面的这一状态（种子 {seed}）",
      "The paired bootstrap test (SLP3 §4.11)": "配对自助法检验（SLP3 §4.11）"}
# a Chinese sentence with Markdown bold, brackets and full-width punctuation, to wrap
CONCLUSION_ZH = ("**p ≈ .27 > .05：我们不能拒绝零假设**，即 A 不比 B 好；"
                 "差异不具有统计显著性（这并不表明 A 与 B 相同）。")


def params(a, b, drawn, *, alpha=0.05, shift=False, lang="en") -> dict:
    """The query of walkthrough.to_url for this state."""
    return {"x": "".join(w.CELL[cell] for cell in zip(a, b)), "seed": "0", "b": str(drawn), "pace": "1",
            "shift": "1" if shift else "0", "presenter": "1", "alpha": f"{alpha:g}", "lang": lang}


def make(drawn: int, *, a=A, b=B, alpha=0.05, shifted=False, conclusion=None, frame=None):
    """The slide the page's Slide buttons draw: the frame that the link opens (b = ``drawn``, all shown at once)."""
    x = teaching.draw_test_sets(a, b, drawn, seed=0)
    shown = frame or w.play(a, b, x, drawn, detailed=False, max_frames=1, shifted=shifted)[0][0]
    delta, exact = teaching.accuracies(a, b)[2], teaching.exact_bootstrap_p(a, b)
    return slide(w.histogram(delta, shifted=shifted, presenter=True), shown, w.PRESENTER_CODE, w.HEADER,
                 w.why_twice(delta) if shifted else None, alpha=alpha,
                 conclusion=conclusion or w.conclusion(exact, alpha), url=URL,
                 params=params(a, b, drawn, alpha=alpha, shift=shifted, lang=i18n.language())), x


def texts(fig) -> list[str]:
    return [html.unescape(re.sub("<[^>]+>", "", a.text.replace("<br>", "\n"))).replace("\xa0", " ")
            for a in fig.layout.annotations]


def href(fig) -> str:
    return next(re.search('href="([^"]+)"', a.text).group(1).replace("&amp;", "&") for a in fig.layout.annotations
                if "href=" in a.text)


@pytest.mark.parametrize("drawn, shifted", [(0, False), (20, False), (101, True), (10_000, False)])
def test_the_slide_says_the_state_its_link_opens(drawn, shifted):
    fig, x = make(drawn, shifted=shifted)
    said = texts(fig)
    s_ = int(x.counted.sum())
    assert "Is A better than B? The paired bootstrap test" in said
    assert "2 · Bootstrap test sets x⁽ⁱ⁾ · SLP3 §4.11, Figures 4.11 and 4.12" in said
    counters = next(t for t in said if t.startswith("b "))
    sb = f"{s_ / drawn:.4f}" if drawn else "–"
    assert counters.split() == ["b", f"{drawn:,}", "s", f"{s_:,}", "s", "/", "b", sb, "exact", "p", "0.2684", "α",
                                ".05"]
    heights = np.array([list(t.y) for t in fig.data[:2]]).sum(axis=0)  # not counted + counted, per bar
    assert heights.sum() == drawn and np.array(fig.data[1].y).sum() == s_  # the bars are the b drawn, s in red
    assert href(fig) == URL + "?" + urllib.parse.urlencode(params(A, B, drawn, shift=shifted))
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(href(fig)).query)["b"] == [str(drawn)]
    rows = [t for t in said if re.fullmatch(r"x⁽[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾", t)]
    assert rows == [f"x⁽{w.sup(i)}⁾" for i in range(max(1, drawn - w.LAST_ROWS + 1), drawn + 1)]  # the last five
    if shifted:
        assert "for i = 1 to b do" not in " ".join(said) and any("2·δ(x) = .40 (eq. 4.48)" in t for t in said)
    else:
        code = " ".join(t for t in said if t.startswith("  ") or t.startswith("function"))
        raised = [unicodedata.normalize("NFKC", line) for line in w.PRESENTER_CODE]  # x⁽ⁱ⁾ drawn x<sup>(i)</sup>
        assert all(" ".join(line.split()) in " ".join(code.split()) for line in raised)


@pytest.mark.parametrize("preset", list(w.PRESETS))
@pytest.mark.parametrize("alpha", w.ALPHAS)
def test_the_conclusion_is_the_pages_at_alpha_and_agrees_with_the_exact_p(preset, alpha):
    a, b = w.PRESETS[preset]
    fig, _ = make(10, a=a, b=b, alpha=alpha)
    exact = teaching.exact_bootstrap_p(a, b)
    decision = next(t for t in texts(fig) if t.startswith("p ≈")).replace("\n", " ")  # its lines, as one
    assert decision == w.conclusion(exact, alpha).replace("**", "")  # the page's sentence, whole, in one box
    p = float(re.match(r"p ≈ ([\d.]+)", decision).group(1))
    assert abs(p - exact) <= 0.005 and (exact <= alpha) == ("we reject" in decision) != ("cannot reject" in decision)
    assert f"α {textbook_number(alpha)}" in next(t for t in texts(fig) if t.startswith("b "))


def test_running_lines_partial_rows_and_the_grown_bar_as_the_frame_gives_them():
    """Any frame can be drawn: the code's running lines on yellow, the document just drawn, the bar that grew."""
    x = teaching.draw_test_sets(A, B, 30, seed=0)
    frames, _ = w.play(A, B, x, 25, detailed=True, max_frames=100)
    shown = next(f for f in frames if f["lines"] == (w.FOR_I + 1, w.SELECT) and f["rows"][-1]["cells"][3])
    fig, _ = make(25, frame=shown)
    highlighted = [sh for sh in fig.layout.shapes if sh.fillcolor == s.NOW and sh.x0 > 0.5]
    assert len(highlighted) == 2  # "for j = 1 to n do" and "Select a member of x ..."
    now = [c for r in shown["rows"] for c in r["cells"] if isinstance(c, list) and c[2:] == ["now"]]
    assert sum(sh.fillcolor == s.NOW and sh.x0 < 0.5 for sh in fig.layout.shapes) == len(now) == 2
    grown = next(f for f in frames if f["grew"])
    fig, _ = make(25, frame=grown)
    trace, bar = grown["grew"][0]
    assert list(fig.data[trace].marker.line.width).index(4) == bar
    assert coloured("AB̸") == '<span style="color:#1e8449">A</span><span style="color:#c0392b">B̸</span>'
    assert coloured("<b>") == "&lt;b&gt;"  # escaped: Plotly reads a few HTML tags


def test_the_codes_superscripts_and_arrow_are_drawn_full_size():
    """Issue 27 §6 on the slide: DejaVu Sans Mono draws x⁽ⁱ⁾'s superscripts a third of the x-height and "←" small
    ("s ← s + 1" read "s . s + 1"); the slide's code draws them as the page does, "(i)" raised, "←" from Noto."""
    fig, _ = make(0)
    code = [a.text for a in fig.layout.annotations if a.font.family == s.MONO]
    assert len(code) >= len(w.PRESENTER_CODE) and not any(re.search("[⁽⁾ⁱ]", line) for line in code), code
    assert sum("x<sup>(i)</sup>" in line for line in code) == 3  # Select ..., Calculate δ(x⁽ⁱ⁾), s ← s + 1 if ...
    arrow = next(line for line in code if "←" in line)
    assert "&nbsp;s&nbsp;" + s.ARROW + "&nbsp;s&nbsp;+&nbsp;1" in arrow


def test_wrapping_keeps_latin_words_and_cjk_punctuation_and_bold():
    english = wrapped(w.conclusion(0.2684, 0.05), 40)
    plain = [re.sub("<[^>]+>", "", line) for line in english]
    assert all(s.width(line) <= 40 for line in plain) and len(english) == 4
    assert all(len(line) + 1 + len(after.split()[0]) > 40 for line, after in zip(plain, plain[1:]))  # each line full
    narrow = wrapped(w.conclusion(0.2684, 0.05), 30)  # the bold part broken: closed, and opened again
    assert narrow[:2] == ["<b>p ≈ .27 > .05: we cannot</b>", "<b>reject H0</b> that A is not better"]
    assert " ".join(re.sub("<[^>]+>", "", line) for line in english) == w.conclusion(0.2684, 0.05).replace("**", "")
    chinese = wrapped(CONCLUSION_ZH, 16)
    assert "".join(re.sub("<[^>]+>", "", line) for line in chinese).replace(" ", "") == CONCLUSION_ZH.replace(
        "**", "").replace(" ", "")  # a space where a line breaks goes
    for line in chinese:
        plain = re.sub("<[^>]+>", "", line)
        assert s.width(plain) <= 16 and plain[0] not in "，。；：）" and plain[-1] not in "（"


def test_the_address_is_the_browsers_unless_a_loopback_one_and_a_public_one_is_set(monkeypatch):
    from streamlit import config

    assert address("https://lab.example.org/sig/classroom") == "https://lab.example.org/sig/classroom"
    assert address("http://localhost:8501/classroom") == "http://localhost:8501/classroom"  # nothing else known
    assert address(None) == "http://localhost:8501/classroom"  # no browser (AppTest): Streamlit's settings
    monkeypatch.setattr(config, "is_manually_set", lambda name: name == "browser.serverAddress")
    monkeypatch.setattr(config, "get_option", {"browser.serverAddress": "192.168.1.20", "browser.serverPort": 8502}.get)
    assert address("http://127.0.0.1:8502/classroom") == "http://192.168.1.20:8502/classroom"
    assert address("http://[::1]:8502/classroom") == "http://192.168.1.20:8502/classroom"
    assert address("https://lab.example.org/classroom") == "https://lab.example.org/classroom"  # a public one stands
    assert state_link("http://h/classroom", {"b": "20", "alpha": "0.05"}) == "http://h/classroom?b=20&alpha=0.05"


@pytest.fixture(scope="module")
def english_png():
    fig, _ = make(20)
    return fig, slide_image(fig, "png")


@pytest.mark.slow  # a slide's PNG through kaleido
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_slide_png_has_its_size_margins_no_empty_bottom_and_the_links_qr_code(english_png):
    fig, png = english_png
    slide_layout_holds(png)
    assert qr_modules(png) == [list(row) for row in segno.make(href(fig), error="m", micro=False).matrix]


@pytest.fixture(scope="module")
def chinese_exports():
    """The Chinese slide in the three formats (the slide's own texts as ZH has them), and the page's conclusion and
    "exact p" in Chinese."""
    need("Noto Sans CJK")  # the glyphs the tests read back
    with pytest.MonkeyPatch.context() as patch:
        real = i18n.catalogue("zh")

        class Catalogue(gettext.NullTranslations):
            def gettext(self, message):
                return ZH.get(message) or real.gettext(message)

        patch.setattr(i18n, "catalogue",
                      lambda language: Catalogue() if language == "zh" else gettext.NullTranslations())
        with i18n.speaking("zh"):
            fig, _ = make(20)
            said = w.conclusion(teaching.exact_bootstrap_p(A, B), 0.05).replace("**", ""), i18n._("exact p")
    assert re.search("[\u4e00-\u9fff]", said[0]), said  # the catalogue has the page's conclusion in Chinese
    return fig, {fmt: slide_image(fig, fmt) for fmt in ("png", "svg", "pdf")}, said


@pytest.mark.slow  # a slide's PNG, SVG and PDF through kaleido
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_chinese_slide_speaks_chinese(chinese_exports):
    fig, _, (conclusion, exact) = chinese_exports
    said = texts(fig)
    assert "A 比 B 好吗？配对自助法检验" in said and "2 · 虚拟测试集 x⁽ⁱ⁾ · SLP3 §4.11，图 4.11 与图 4.12" in said
    assert any(t.startswith("b 20") and f"{exact} 0.2684" in t for t in said) and "计入 s" in said
    decision = next(t for t in said if t.startswith("p ≈"))
    assert decision.replace("\n", "").replace(" ", "") == conclusion.replace(" ", "")  # a space at a break goes
    assert href(fig).endswith("&lang=zh")
    assert fig.layout.font.family.split(", ").index("Noto Sans CJK SC") >= 0


@pytest.mark.slow  # a slide's PDF through kaleido, poppler
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_chinese_pdf_embeds_its_fonts_and_its_text_is_the_chinese_conclusion(chinese_exports):
    _, files, (conclusion, exact) = chinese_exports
    pdf = files["pdf"]
    fonts = subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, check=True).stdout.decode().splitlines()
    assert len(fonts) > 3 and all(line.split()[-5] == "yes" for line in fonts[2:])  # every font embedded
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                          check=True).stdout.decode()
    flat = "".join(text.split())
    assert "".join(conclusion.split()) in flat and "".join(exact.split()) in flat  # 这一, not 这⼀ (a radical)
    assert "A比B好吗？配对自助法检验" in flat and not re.search("[\u2e80-\u2fdf]", text)  # 比, not ⽐
    table = re.search(rb"\nxref\n0 (\d+)\n((?:\d{10} \d{5} [nf]\s*\n)+)trailer", pdf)  # offsets moved with the maps
    assert all(pdf[int(line[:10]):].startswith(b"%d 0 obj" % k) for k, line in enumerate(table.group(2).splitlines())
               if line[17:18] == b"n")
    assert pdf[int(re.search(rb"startxref\s+(\d+)", pdf).group(1)):].startswith(b"xref")


def test_unified_text_leaves_a_pdf_without_radicals_or_not_chromiums_alone():
    streams = b"%PDF-1.7\n1 0 obj\n<</Type /ObjStm>>\nendobj\n"  # object streams: not as Chromium writes
    assert unified_text(streams) == streams
    assert s._unified_cmap(b"begincmap\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n1 beginbfchar\n"
                           b"<0003> <0020>\nendbfchar\nendcmap") is None
    fixed = s._unified_cmap(b"begincmap\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n1 beginbfrange\n"
                            b"<0010> <0012> <2F4F>\nendbfrange\nendcmap")
    assert b"<0010> <6BCB>" in fixed and b"<0011> <6BD4>" in fixed and b"<0012> <6BDB>" in fixed  # ⽏⽐⽑: 毋比毛


@pytest.mark.slow  # a slide's SVG and PNG through kaleido
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_chinese_svg_and_png_carry_their_glyphs(chinese_exports):
    fig, files, (conclusion, _) = chinese_exports
    svg = files["svg"].decode()
    assert "A 比 B 好吗？配对自助法检验" in svg and conclusion[-12:] in svg  # as text, with its font named
    assert all("CJK SC" in style for style in re.findall(r'font-family: ?([^;"]+)', svg))
    found = subprocess.run(["fc-match", "-f", "%{file}", "Noto Sans CJK SC:charset=6bd4"], capture_output=True,
                           text=True).stdout  # what a renderer on this machine finds for that name
    assert "NotoSansCJK" in found, found
    png = np.asarray(Image.open(io.BytesIO(files["png"])).convert("L"))
    title = png[36:90, MARGIN:900] < 128  # the title's line: "A 比 B 好吗？配对自助法检验" in 40 px glyphs
    columns = np.nonzero(title.any(axis=0))[0]
    assert columns.max() - columns.min() > 400 and title.sum() > 3000
