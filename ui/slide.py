"""The walk-through as a slide for a lecture, in the page's language: a title; the decision at α in the book's words;
the histogram and Figure 4.12's code (or the "Why 2·δ(x)?" text in its place); the state (b, s, s / b, the exact p,
α) and the table of x and the last x^(i); and a link with its QR code that opens the page in that same state.
One 1920 x 1080 Plotly figure (the QR code drawn as vector shapes in it), saved as PNG, SVG or PDF.
"""

from __future__ import annotations

import html
import ipaddress
import re
import textwrap
import unicodedata
import urllib.parse
import zlib

import plotly.graph_objects as go

from sigcore.contract import DEFAULT_SEED
from sigcore.i18n import _
from sigcore.report import export
from sigcore.teaching.bootstrap import textbook_number

from .terms import HEADINGS

SIZE = {"width": 1920, "height": 1080}
W, H, MARGIN = SIZE["width"], SIZE["height"], 64  # pixels; the margin is the slide's on every side
FONT, CODE_FONT, SMALL = 24, 22, 15  # pixels: readable from the back of a lecture hall
# CJK glyphs from Debian's fonts-noto-cjk, named so that neither a renderer's fallback nor another CJK font installed
# by chance (a Japanese one draws some hanzi differently) picks them; Latin text keeps Plotly's own fonts
FAMILY = "Open Sans, verdana, arial, DejaVu Sans, Noto Sans CJK SC, sans-serif"  # DejaVu: ⁴, 𝟙
MONO = "DejaVu Sans Mono, Noto Sans Mono CJK SC, monospace"
OK, NO, MARKED, NOW, INK, GREY = "#1e8449", "#c0392b", "#fbe3e0", "#ffe08a", "#31333f", "#6b7079"
# where each part sits, in pixels from the top left: the title, the decision, then the chart beside the code, then
# the counters and the table beside the link and its QR code
TITLE_Y, DECISION_Y, DECISION_LINES = 36, 92, 2  # the decision's box holds two lines at 30 px (else 26 px)
ROW_TOP = 200  # the chart's and the code's band
CHART = {"x": (MARGIN + 100, 1000), "y": (ROW_TOP + 64, 484)}  # the axes: line labels above, ticks and titles around
CODE_X, CODE_RIGHT, LINE = 1050, W - MARGIN, 32
COUNTERS_Y, TABLE_Y, ROW = 626, 672, 46
COLUMNS = [MARGIN + 4] + [190 + 70 * k for k in range(10)] + [905, 990, 1075, 1190]  # x of each column: the row's
# name from its left edge (x⁽¹⁰⁰⁰⁰⁰⁾ is wide), the others from their centre
LINK_X, QR_SIZE = 1330, 300  # the link block's left edge; the QR code's side at most, quiet zone included
EM = 0.5  # a Latin character's mean width in ems, in Plotly's sans-serif (a CJK one: 1 em, 2 columns of width())
CODE_WIDTH = (CODE_RIGHT - CODE_X - 12) * 10 // (6 * CODE_FONT)  # characters a line (monospace: 0.6 em each)


def coloured(text: str) -> str:
    """A cell as the page colours it: in the book's AB̸ a struck-through letter is red, a plain one green;
    ✓ green and ✗ red. Escaped first: Plotly reads a few HTML tags in its texts."""
    text = str(text)
    chars, out = list(text), []
    book = len(text) in (2, 3, 4) and text[0] == "A" and "B" in text
    k = 0
    while k < len(chars):
        ch = chars[k]
        if book and k + 1 < len(chars) and chars[k + 1] == "\u0338":
            ch, colour, k = ch + chars[k + 1], NO, k + 1
        else:
            colour = OK if book or ch == "✓" else NO if ch == "✗" else None
        out.append(f'<span style="color:{colour}">{html.escape(ch)}</span>' if colour else html.escape(ch))
        k += 1
    return "".join(out)


def slide(figure: go.Figure, shown: dict, code: list[str], header: list[str], aside: str | None = None, *, alpha: float,
          conclusion: str, url: str | None, params: dict[str, str], seed: int = DEFAULT_SEED) -> go.Figure:
    """The slide of frame ``shown`` of the walk-through, drawn on ``figure`` (its histogram at 24 px).

    ``shown`` is the frame of the state that the slide's link opens (b test sets drawn, as ``walkthrough.play`` gives
    it with start = b), so that the slide's b, s and counts are the link's; the link is the page's address (from
    ``url``, the browser's ``st.context.url``: :func:`address`) with the walk-through's query ``params``
    (``walkthrough.to_url``'s). ``conclusion`` is the page's sentence for the exact p at ``alpha`` (Markdown
    ``**bold**`` allowed). Every text of the slide's own is in the current language
    (``sigcore.i18n``); the code, the table's head and the aside come translated or through ``_()`` here.
    """
    fig = go.Figure(figure)
    for trace, y in zip(fig.data, shown["y"]):
        trace.y, trace.marker.line = y, dict(width=0)
    for trace, bar in shown.get("grew") or []:  # the bar that just grew, outlined as on the page
        fig.data[trace].marker.line = dict(width=[4 if k == bar else 0 for k in range(len(fig.data[trace].y))],
                                           color="#e0a800")
    left, right = (x / W for x in CHART["x"])
    for axis in fig.select_xaxes():  # one panel, or two side by side, into the chart's part
        low, high = axis.domain or (0, 1)
        axis.domain = [left + (right - left) * low, left + (right - left) * high]
    fig.update_xaxes(automargin=False)  # the paper is the whole slide: pixels placed where they are said to be
    fig.update_yaxes(automargin=False)
    fig.update_layout(yaxis_domain=[1 - CHART["y"][1] / H, 1 - CHART["y"][0] / H], margin=dict(l=0, r=0, t=0, b=0),
                      showlegend=False, font_family=FAMILY, paper_bgcolor="white", **SIZE,
                      meta={"title": _("The paired bootstrap test (SLP3 §4.11)")})
    shapes, notes = list(fig.layout.shapes), list(fig.layout.annotations)

    def text(x: float, y: float, value: str, *, size: int = FONT, anchor: str = "center", mono: bool = False,
             colour: str = INK, valign: str = "middle") -> None:
        """``value`` at (x, y) pixels from the top left."""
        notes.append(dict(xref="paper", yref="paper", x=x / W, y=1 - y / H, text=value, showarrow=False,
                          xanchor=anchor, yanchor=valign, align=anchor if anchor != "center" else "center",
                          font=dict(size=size, color=colour, family=MONO if mono else FAMILY)))

    def box(x0: float, x1: float, y0: float, y1: float, fill: str, line: str | None = None) -> None:
        shapes.append(dict(type="rect", xref="paper", yref="paper", x0=x0 / W, x1=x1 / W, y0=1 - y1 / H,
                           y1=1 - y0 / H, fillcolor=fill, line=dict(width=2 if line else 0, color=line),
                           layer="below"))

    # the title, and the book it follows
    title = _("Is A better than B? The paired bootstrap test")
    text(MARGIN, TITLE_Y, f"<b>{html.escape(title)}</b>", size=40, anchor="left", valign="top")
    text(W - MARGIN, TITLE_Y + 16, html.escape(_("{section} · SLP3 §4.11, Figures 4.11 and 4.12").format(
        section=_(HEADINGS[1]))), size=22, anchor="right", colour=GREY, valign="top")  # the page's section 2

    # the decision at α, as the page words it, on two lines at most
    for size in (30, 26, 22):
        lines = wrapped(html.escape(conclusion, quote=False), (W - 2 * MARGIN - 48) / (EM * size))
        if len(lines) <= DECISION_LINES:
            break
    bottom = DECISION_Y + DECISION_LINES * 36 + 20
    box(MARGIN, W - MARGIN, DECISION_Y, bottom, "#eaf3fc")
    text(MARGIN + 24, (DECISION_Y + bottom) / 2, "<br>".join(lines), size=size, anchor="left", colour="#0b4a8b")

    top = ROW_TOP
    if aside:  # "Why 2·δ(x)?": the explanation stands where the code was
        parts = [line for paragraph in aside.split("\n") for line in wrapped(html.escape(paragraph),
                                                                            (CODE_RIGHT - CODE_X) / (EM * FONT))]
        box(CODE_X - 12, CODE_RIGHT, top, top + LINE * len(parts) + 16, "#eaf3fc")
        for k, part in enumerate(parts):
            text(CODE_X, top + 8 + LINE * (k + 0.5), part, anchor="left", colour="#0b4a8b")
    else:  # Figure 4.12, its long lines wrapped with a hanging indent, the running lines on yellow
        running, y = shown.get("lines") or (-1, -1), top + 8
        rows = [_code_lines(_(line)) for line in code]
        box(CODE_X - 12, CODE_RIGHT, top, top + LINE * sum(map(len, rows)) + 16, "#f6f7f9")
        for k, parts in enumerate(rows):
            if running[0] <= k <= running[1]:
                box(CODE_X - 6, CODE_RIGHT - 6, y, y + LINE * len(parts), NOW)
            for part in parts:
                text(CODE_X, y + LINE / 2, _code_markup(part), size=CODE_FONT, anchor="left", mono=True)
                y += LINE

    # the state: the counters of Figure 4.12 and eq. 4.48, the exact p and α
    t = shown["texts"]
    counters = [("b", t.get("k-b", "")), ("s", t.get("k-s", "")), ("s / b", t.get("k-sb", "")),
                (_("exact p"), t.get("k-exact", "")), ("α", textbook_number(alpha))]
    text(MARGIN, COUNTERS_Y, "     ".join(f"{html.escape(name)} <b>{html.escape(value)}</b>"
                                        for name, value in counters), size=30, anchor="left")

    # the table of x and the last x^(i)
    y = TABLE_Y
    for k, (x, name) in enumerate(zip(COLUMNS, header)):
        text(x, y, f"<b>{html.escape(_(name))}</b>", anchor="left" if k == 0 else "center")
    for row in shown.get("rows") or []:
        y += ROW
        if row["marked"]:
            box(MARGIN, COLUMNS[-1] + 85, y - ROW / 2, y + ROW / 2, MARKED)
        for k, (x, value) in enumerate(zip(COLUMNS, row["cells"])):
            note, cell, *now = value if isinstance(value, list) else ("", value)
            if now:
                box(x - 34, x + 34, y - ROW / 2 + 3, y + ROW / 2 - 3, NOW, line="#e0a800")
            text(x, y + 8, coloured(cell), anchor="left" if k == 0 else "center")
            if note:
                text(x, y - ROW / 2 + 4, html.escape(note), size=SMALL, colour="#8a8f98", valign="top")

    # the link and its QR code: the same state on the page, for the students' phones
    link = state_link(address(url), params)
    qr, side = qr_code(link, right=W - MARGIN, top=COUNTERS_Y + 24, size=QR_SIZE)
    shapes += qr
    caption = wrapped(html.escape(_("Scan the code or open the link: the page in this state (seed {seed})")
                                  .format(seed=seed)), (W - MARGIN - side - 24 - LINK_X) / (EM * 24))
    text(LINK_X, COUNTERS_Y + 30, "<br>".join(caption), size=24, anchor="left", valign="top", colour=GREY)
    shown_link = wrapped_link(link, (W - MARGIN - LINK_X) * 10 // (6 * 17))  # 17 px monospace: 0.6 em a character
    text(W - MARGIN, COUNTERS_Y + 24 + side + 10,
         f'<a href="{html.escape(link)}" style="color:#0b4a8b">{"<br>".join(map(html.escape, shown_link))}</a>',
         size=17, anchor="right", valign="top", mono=True)
    fig.update_layout(shapes=shapes, annotations=notes)
    return fig


def slide_image(fig: go.Figure, fmt: str) -> bytes:
    """The slide as PNG, SVG or PDF at 1920 x 1080 (the PDF's page that size at 96 px an inch, its fonts embedded, its
    CJK text searchable: :func:`unified_text`)."""
    image = export.figure_image(fig, fmt, scale=1, **SIZE)
    return unified_text(image) if fmt == "pdf" else image


_TABLE = re.compile(rb"\nxref\n0 (\d+)\n((?:\d{10} \d{5} [nf]\s*\n)+)trailer\b")
_HEX = re.compile(rb"<([0-9A-Fa-f]+)>")


def unified_text(pdf: bytes) -> bytes:
    """``pdf`` (Chromium's, as kaleido prints it) with its CJK text mapped to the unified ideographs.

    Noto Sans CJK draws a Kangxi radical and its ideograph with one glyph (⽐ U+2F50 and 比 U+6BD4), and Chromium's
    ToUnicode map of that glyph names the radical, so a reader copying or searching the PDF's text (pdftotext) found
    "A 不⽐ B 好" and "⻚". Each ToUnicode CMap is written again with those radicals as their ideographs
    (:data:`_SHARED`), and the cross-reference table's offsets moved to match. A PDF not laid out as Chromium writes
    it (one classic table, no object streams) is returned as it is.
    """
    table = _TABLE.search(pdf)
    if not table or b"/ObjStm" in pdf:
        return pdf
    out, at = [], 0
    streams = [m for n in set(re.findall(rb"/ToUnicode (\d+) 0 R", pdf))  # each map's object, up to its stream
               if (m := re.search(rb"(?m)^" + n + rb" 0 obj\s*<<((?:(?!endobj).)*?)>>\s*stream\r?\n", pdf, re.S))]
    for found in sorted(streams, key=lambda m: m.start()):
        length = re.search(rb"/Length (\d+)", found.group(1))
        if not length or b"/FlateDecode" not in found.group(1) or found.start() < at:
            continue
        start, end = found.end(), found.end() + int(length.group(1))
        cmap = _unified_cmap(zlib.decompress(pdf[start:end]))
        if cmap is None:
            continue
        body = zlib.compress(cmap)
        out += [pdf[at:found.start()], found.group(0).replace(length.group(0), b"/Length %d" % len(body)), body]
        at = end
    if not out:
        return pdf
    text = b"".join(out) + pdf[at:]
    offsets = {int(m.group(1)): m.start() for m in re.finditer(rb"(?m)^(\d+) 0 obj\b", text)}
    table = _TABLE.search(text)
    moved = b"".join(b"%010d" % offsets[k] + line[10:] if line[17:18] == b"n" and k in offsets else line
                     for k, line in enumerate(table.group(2).splitlines(keepends=True)))
    text = text[:table.start(2)] + moved + text[table.end(2):]
    return re.sub(rb"startxref\s+\d+", b"startxref\n%d" % (table.start() + 1), text)


def _unified_cmap(cmap: bytes) -> bytes | None:
    """A ToUnicode CMap with the radicals whose glyph is an ideograph's mapped to that ideograph, or None where it has
    none."""
    pairs = {}  # glyph code -> the text it stands for
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", cmap, re.S):
        codes = _HEX.findall(block)
        pairs.update((int(src, 16), _utf16(dst)) for src, dst in zip(codes[::2], codes[1::2]))
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", cmap, re.S):
        for line in block.strip().splitlines():
            codes = _HEX.findall(line)
            low, high = int(codes[0], 16), int(codes[1], 16)
            if b"[" in line:
                pairs.update((low + k, _utf16(dst)) for k, dst in enumerate(codes[2:]))
            else:
                first = _utf16(codes[2])
                pairs.update((code, first[:-1] + chr(ord(first[-1]) + code - low)) for code in range(low, high + 1))
    items = sorted((code, text.translate(_IDEOGRAPHS)) for code, text in pairs.items())
    if items == sorted(pairs.items()):
        return None
    blocks = b"".join(b"%d beginbfchar\n" % len(part) + b"".join(
        b"<%04X> <%s>\n" % (code, text.encode("utf-16-be").hex().upper().encode()) for code, text in part)
        + b"endbfchar\n" for part in (items[k:k + 100] for k in range(0, len(items), 100)))  # 100 a block at most
    head = cmap[:cmap.index(b"endcodespacerange") + len(b"endcodespacerange\n")]
    return head + blocks + cmap[cmap.index(b"endcmap"):]


# the radicals (Kangxi, and CJK Radicals Supplement) that Noto Sans CJK SC draws with an ideograph's glyph, each
# followed by that ideograph, read from the font's cmap (⼾ is 户 there, where NFKC would give the traditional 戶)
_SHARED = ("⺂乛⺃乚⺅亻⺇𠘨⺉刂⺋㔾⺍𭕄⺏尣⺐尢⺒巳⺓幺⺔彑⺕彐⺖忄⺘扌⺙攵⺛旡⺞歺⺟母⺠民⺡氵⺣灬⺤爫⺦丬⺨犭"
           "⺩𤣩⺭礻⺮𥫗⺯糹⺰纟⺱罓⺳㓁⺹耂⺺肀⺽𦥑⺾艹⻂衤⻅见⻆角⻇𧢲⻈讠⻉贝⻊𧾷⻋车⻌辶⻐钅⻑長⻒镸⻓长⻔门"
           "⻕𨸏⻖阝⻘青⻙韦⻚页⻛风⻜飞⻝食⻞𩙿⻟飠⻠饣⻡𩠐⻢马⻣骨⻤鬼⻥鱼⻦鸟⻧卤⻨麦⻩黄⻪黾⻫斉⻬齐⻮齿⻯竜⻰龙⻱龜⻲亀⻳龟⼀一⼁丨⼂丶⼃丿⼄乙⼅亅⼆二⼇亠⼈人⼉儿⼊入⼋八⼌冂⼍冖⼎冫⼏几⼐凵⼑刀⼒力⼓勹⼔匕"
           "⼕匚⼖匸⼗十⼘卜⼙卩⼚厂⼛厶⼜又⼝口⼞囗⼟土⼠士⼡夂⼢夊⼣夕⼤大⼥女⼦子⼧宀⼨寸⼩小⼪尢⼫尸⼬屮⼭山⼮巛⼯工⼰己⼱巾⼲干⼳幺⼴广⼵廴⼶廾⼷弋⼸弓⼺彡⼻彳⼼心⼽戈⼾户⼿手⽀支⽁攴⽂文⽃斗⽄斤⽅方⽆无⽇日"
           "⽈曰⽉月⽊木⽋欠⽌止⽍歹⽎殳⽏毋⽐比⽑毛⽒氏⽓气⽔水⽕火⽖爪⽗父⽘爻⽙爿⽚片⽛牙⽜牛⽝犬⽞玄⽟玉⽠瓜⽡瓦⽢甘⽣生⽤用⽥田⽦疋⽧疒⽨癶⽩白⽪皮⽫皿⽬目⽭矛⽮矢⽯石⽰示⽱禸⽲禾⽳穴⽴立⽵竹⽶米⽷糸⽸缶⽹网"
           "⽺羊⽻羽⽼老⽽而⽿耳⾀聿⾁肉⾂臣⾃自⾄至⾅臼⾆舌⾇舛⾈舟⾉艮⾊色⾋艸⾌虍⾍虫⾎血⾏行⾐衣⾑襾⾒見⾔言⾕谷⾖豆⾗豕⾘豸⾙貝⾚赤⾛走⾜足⾝身⾞車⾟辛⾠辰⾡辵⾢邑⾣酉⾤釆⾥里⾦金⾧長⾨門⾩阜⾪隶⾫隹⾬雨⾭靑"
           "⾮非⾯面⾰革⾱韋⾲韭⾳音⾴頁⾵風⾶飛⾷食⾸首⾹香⾺馬⾼高⾽髟⾾鬥⾿鬯⿀鬲⿁鬼⿂魚⿃鳥⿄鹵⿅鹿⿆麥⿇麻⿈黃⿉黍⿊黑⿋黹⿌黽⿍鼎⿎鼓⿏鼠⿑齊⿒齒⿓龍⿕龠")
_IDEOGRAPHS = {ord(radical): ideograph for radical, ideograph in zip(_SHARED[::2], _SHARED[1::2])}


def _utf16(hexa: bytes) -> str:
    return bytes.fromhex(hexa.decode()).decode("utf-16-be", errors="replace")


def qr_code(link: str, *, right: float, top: float, size: float) -> tuple[list[dict], int]:
    """The QR code of ``link`` (segno, error correction M) as vector shapes: a white square with the standard quiet
    zone of 4 modules and one path of the dark modules, each row's runs merged; whole pixels per module so that a PNG
    drawn at scale 1 is sharp. Returns the shapes and the side in pixels, quiet zone included."""
    import segno

    matrix = segno.make(link, error="m", micro=False).matrix
    modules = len(matrix) + 8
    unit = max(1, int(size // modules))
    side = unit * modules
    x0, y0 = right - side, top
    px, py = (lambda x: (x0 + x * unit) / W), (lambda y: 1 - (y0 + y * unit) / H)
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if row[c]:
                end = c
                while end < len(row) and row[end]:
                    end += 1
                runs.append(f"M{px(c + 4):.6f},{py(r + 4):.6f}H{px(end + 4):.6f}V{py(r + 5):.6f}H{px(c + 4):.6f}Z")
                c = end
            c += 1
    back = dict(type="rect", xref="paper", yref="paper", x0=x0 / W, x1=(x0 + side) / W, y0=1 - (y0 + side) / H,
                y1=1 - y0 / H, fillcolor="white", line=dict(width=0), layer="above")
    dark = dict(type="path", xref="paper", yref="paper", path="".join(runs), fillcolor="black", line=dict(width=0),
                layer="above")
    return [back, dark], side


def address(url: str | None, *, page: str = "classroom") -> str:
    """The page's public address, without its query: the one the browser shows (``url``: ``st.context.url``, path
    included, through whatever proxy serves the app), unless that is a loopback address (localhost, 127.0.0.1, ::1),
    which no student's phone can open, and Streamlit's ``browser.serverAddress`` names another host (``streamlit run
    app.py --browser.serverAddress 192.168.1.20``): then that host, with ``browser.serverPort`` and the page's
    path. Without a browser (AppTest), ``browser.serverAddress`` and its port."""
    from streamlit import config

    host, port = config.get_option("browser.serverAddress"), config.get_option("browser.serverPort")
    chosen = config.is_manually_set("browser.serverAddress") and not _loopback(host)
    if url and not (chosen and _loopback(urllib.parse.urlsplit(url).hostname or "")):
        return url
    path = urllib.parse.urlsplit(url).path if url else "/" + page
    netloc = f"[{host}]" if ":" in host else host  # an IPv6 address in a URL is bracketed
    return f"http://{netloc}:{port}{path}"


def state_link(base: str, params: dict[str, str]) -> str:
    """``base`` (:func:`address`) with the walk-through's query parameters (``walkthrough.to_url``'s)."""
    return f"{base}?{urllib.parse.urlencode(params)}"


def _loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def width(text: str) -> int:
    """Columns ``text`` takes: 2 for a wide (CJK) character, 0 for a combining mark, 1 for any other."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1
               for ch in text)


_NO_LINE_START = set("，。、：；！？）》」』,.:;!?)")  # punctuation that may not begin a line
_NO_LINE_END = set("（《「『")  # nor end one


def wrapped(text: str, columns: float) -> list[str]:
    """``text`` (Markdown ``**bold**`` allowed, else HTML-escaped already) in lines of at most ``columns`` (by
    :func:`width`), as Plotly's HTML: Latin text broken at spaces, CJK text between any two characters but not
    before closing punctuation; bold kept across a break."""
    units, word, bold = [], [], False  # what a line may not break inside: a word, or a CJK character
    for piece in re.split(r"(\*\*)", text):
        if piece == "**":
            bold = not bold
            continue
        for ch in piece:
            if ch in _NO_LINE_START and not word and units and units[-1][0][0] != " ":
                units[-1].append((ch, bold))  # with the character before it
            elif ch in _NO_LINE_START or word and word[-1][0] in _NO_LINE_END:
                word.append((ch, bold))  # with the word before it; an opening bracket with what it opens
            elif ch in _NO_LINE_END:
                units += [word] if word else []
                word = [(ch, bold)]
            elif ch == " " or _wide(ch):
                units += [word] if word else []
                units.append([(ch, bold)])
                word = []
            else:
                word.append((ch, bold))
    units += [word] if word else []
    lines, line, used = [], [], 0
    for unit in units:
        w = width("".join(ch for ch, _b in unit))
        if used + w > columns and line and unit[0][0] != " ":
            lines.append(line)
            line, used = [], 0
        if line or unit[0][0] != " ":
            line += unit
            used += w
    lines.append(line)
    return [_html(line) for line in lines if line]


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def _html(line: list[tuple[str, bool]]) -> str:
    while line and line[-1][0] == " ":
        line = line[:-1]
    out, bold = "", False
    for ch, b in line:
        if b != bold:
            out += "<b>" if b else "</b>"
            bold = b
        out += ch
    return out + ("</b>" if bold else "")


def wrapped_link(link: str, columns: int) -> list[str]:
    """``link`` in lines of at most ``columns`` characters, broken before a ``&`` or ``?`` where it can be."""
    lines, line = [], ""
    for piece in re.split(r"(?=[?&])", link):
        if line and len(line) + len(piece) > columns:
            lines.append(line)
            line = ""
        line += piece
        while len(line) > columns:
            lines.append(line[:columns])
            line = line[columns:]
    return lines + [line] if line else lines


SUPERSCRIPTS = re.compile("[⁽⁾ⁱ⁰¹²³⁴⁵⁶⁷⁸⁹]+")
ARROW = '<span style="font-family:Noto Sans Mono CJK SC">←</span>'


def _code_markup(line: str) -> str:
    """A line of Figure 4.12 as the page draws it: x⁽ⁱ⁾'s superscripts as small ordinary characters raised (DejaVu
    Sans Mono draws ⁽ⁱ⁾ a third of the x-height) and "←" from Noto Sans Mono CJK, where it is full size."""
    line = html.escape(line).replace(" ", "&nbsp;")
    line = SUPERSCRIPTS.sub(lambda m: "<sup>" + unicodedata.normalize("NFKC", m.group()) + "</sup>", line)
    return line.replace("←", ARROW)


def _code_lines(statement: str) -> list[str]:
    """A statement of Figure 4.12 as lines: its own breaks ("\n") hung four spaces deeper than it, and any line too
    long for the code's column wrapped the same way."""
    first, *rest = statement.split("\n")
    hang = first[:len(first) - len(first.lstrip())] + "    "
    return [part for line in [first, *(hang + more.strip() for more in rest)] for part in _wrap(line)]


def _wrap(line: str) -> list[str]:
    if width(line) <= CODE_WIDTH:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    return textwrap.wrap(line.strip(), CODE_WIDTH, initial_indent=indent, subsequent_indent=indent + "    ")
