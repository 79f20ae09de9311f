"""Exports: Markdown and LaTeX that keep hostile names literal, safe CSV, JSON, and real kaleido renders."""

import io
import json
import math
import re
import sys

import numpy as np
import pandas as pd
import pytest

import sigcore
from sigcore.errors import SettingsError
from sigcore.report import export, records
from sigcore.report.figures import delta_histogram
from sigcore.report.sentence import number
from sigcore.result import Result
from sigcore.signature import Signature

HOSTILE_A, HOSTILE_B = "<img src=x onerror=alert(1)>", "**x**"


def _result(**changes) -> Result:
    """A hand-made bootstrap result with round numbers, so expected strings can be written out in full."""
    fields = dict(
        metric="accuracy", test="bootstrap", alternative="two-sided", alpha=0.05, score_a=0.75, score_b=0.7,
        delta=0.05, estimand="delta", estimate=0.05, p_value=0.0012, n_extreme=12, ci_low=0.02, ci_high=0.08,
        confidence_level=0.95, ci_method="bootstrap-basic", ci_a=(0.7, 0.8), ci_b=(0.65, 0.75), n_items=100,
        n_differing=30, n_resamples=10_000, seed=0, mc_error=0.0003, p_floor=1e-4,
        distribution=np.array([0.01, -0.03, 0.1]), threshold=0.1,
        signature="test:bootstrap|resamples:10000|seed:0|metric:accuracy")
    fields |= changes
    text = fields.pop("signature")
    return Result(**fields, signature_fields=Signature.as_saved(text))  # the text as it is given


@pytest.fixture(scope="module")
def real():
    """A real paired bootstrap on 200 items (the same draw every run)."""
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 200)
    sys_a = np.where(rng.random(200) < 0.8, gold, 1 - gold)
    sys_b = np.where(rng.random(200) < 0.7, gold, 1 - gold)
    return sigcore.compare(gold.tolist(), sys_a.tolist(), sys_b.tolist(), n_resamples=2_000, seed=0, test="bootstrap",
                           alternative="greater")


# ---------------------------------------------------------------- Markdown


def test_markdown_escapes_hostile_names_exactly():
    assert export.verdict_markdown(_result(), a=HOSTILE_A, b=HOSTILE_B) == (
        r"\<img src=x onerror=alert\(1\)\> beats \*\*x\*\* by 0.0500 accuracy (95% CI 0.0200 to 0.0800); "
        "p = 0.0012 (two-sided), paired bootstrap, b = 10,000, seed 0: significant at α = 0.05.\n"
        "\n"
        "| System | accuracy | 95% CI |\n"
        "|---|---:|:---:|\n"
        r"| \<img src=x onerror=alert\(1\)\> | 0.7500 | [0.7000, 0.8000] |" "\n"
        r"| \*\*x\*\* | 0.7000 | [0.6500, 0.7500] |" "\n"
        r"| \<img src=x onerror=alert\(1\)\> − \*\*x\*\* | 0.0500 | [0.0200, 0.0800] |" "\n"
        "\n"
        "Signature: `test:bootstrap|resamples:10000|seed:0|metric:accuracy`\n")


@pytest.mark.parametrize("name, escaped", [
    ("a|b", r"a\|b"), ("`rm`", r"\`rm\`"), ("[x](javascript:y)", r"\[x\]\(javascript\:y\)"),
    ("# head\n- item", r"\# head \- item"), ("$x$ ~y~ _z_", r"\$x\$ \~y\~ \_z\_"), ("a & b", r"a \& b"),
])
def test_markdown_escape_cases(name, escaped):
    assert export.md_escape(name) == escaped


def test_markdown_escapes_the_metric_and_fences_backticks_in_the_signature():
    res = _result(metric="f1_<b>", signature="label=`a``")
    text = export.verdict_markdown(res)
    assert r"0.0500 f1\_\<b\> (95% CI" in text and r"| System | f1\_\<b\> | 95% CI |" in text
    assert text.endswith("Signature: ``` label=`a`` ```\n")  # CommonMark strips the padding spaces


def test_markdown_numbers_are_the_results_fields(real):
    rows = [line.split(" | ") for line in export.verdict_markdown(real).splitlines() if line.startswith("| ")][1:]
    expected = [(real.score_a, *real.ci_a), (real.score_b, *real.ci_b), (real.delta, real.ci_low, real.ci_high)]
    assert len(rows) == 3
    scale = max(abs(real.score_a), abs(real.score_b))
    for (_, score, interval), (value, low, high) in zip(rows, expected):
        assert score == number(value, scale) and float(score) == pytest.approx(value, abs=5e-5)  # 4 decimals
        right = ")" if math.isinf(high) else "]"  # a one-sided bound's infinite end is open
        assert interval.rstrip(" |") == f"[{number(low, scale)}, {number(high, scale)}{right}"


def test_markdown_dash_for_a_missing_interval():
    res = _result(test="sign", estimand="share_won", estimate=0.6, wins=30, losses=20, ci_low=math.nan,
                  ci_high=math.nan, ci_a=(math.nan, math.nan), ci_b=(math.nan, math.nan), distribution=None,
                  threshold=None, n_extreme=None, p_value=0.2)
    text = export.verdict_markdown(res)
    assert "| A | 0.7500 | — |" in text and "| A − B | 0.0500 | — |" in text and "CI" not in text.splitlines()[0]
    assert "| A's share of items won | 0.6000 | — |" in text


# ---------------------------------------------------------------- LaTeX


def test_latex_escapes_hostile_names_exactly():
    res = _result(signature="test:bootstrap|metric:accuracy\n\\end{table}")
    assert export.verdict_latex(res, a="A_1 & 50%", b="[b]^~$#{}\\", venue="icml") == (
        "% needs \\usepackage{booktabs}\n"
        "\\begin{table}[ht]\n"
        "  \\centering\n"
        "  \\caption{Accuracy of A\\_1 \\& 50\\% and {[}b{]}\\textasciicircum{}\\textasciitilde{}\\$\\#\\{\\}"
        "\\textbackslash{} on 100 items, and $\\delta$ = A\\_1 \\& 50\\% \\textminus{} {[}b{]}\\textasciicircum{}"
        "\\textasciitilde{}\\$\\#\\{\\}\\textbackslash{} with its 95\\% interval (basic bootstrap); paired "
        "bootstrap, $b = 10{,}000$, seed 0, two-sided.}\n"
        "  \\label{tab:accuracy-a-1-50-vs-b}\n"  # the paper folder's stem, wherever the table is made
        "  \\begin{tabular}{lrc}\n"
        "    \\toprule\n"
        "    System & accuracy & 95\\% CI \\\\\n"
        "    \\midrule\n"
        "    A\\_1 \\& 50\\% & 0.7500 & [0.7000, 0.8000] \\\\\n"
        "    {[}b{]}\\textasciicircum{}\\textasciitilde{}\\$\\#\\{\\}\\textbackslash{}"
        " & 0.7000 & [0.6500, 0.7500] \\\\\n"
        "    \\midrule\n"
        "    $\\delta$ & 0.0500 & [0.0200, 0.0800] \\\\\n"
        "    \\bottomrule\n"
        "  \\end{tabular}\n"
        "  % signature: test:bootstrap|metric:accuracy \\end{table}\n"  # a newline cannot end the comment
        "\\end{table}\n")


def test_a_table_s_caption_sits_where_its_venue_wants_it_with_a_label():
    """ACL's template puts table captions below the table, ICML's, IEEE's, ACM's, Springer's and NeurIPS's above."""
    import numpy as np

    from sigcore.report import family
    from sigcore.report.venues import VENUES

    rng = np.random.default_rng(0)
    gold = list(rng.integers(0, 2, 60))
    systems = {n: list(np.where(rng.random(60) < p, gold, 1 - np.array(gold))) for n, p in (("a", 0.9), ("b", 0.6))}
    many = sigcore.compare_many(gold, systems, baseline="b", n_resamples=200, test="bootstrap")
    for key, venue in VENUES.items():
        for table in (export.verdict_latex(_result(), venue=key), family.latex([many], venue=key)):
            lines = table.splitlines()
            caption, label = (next(i for i, x in enumerate(lines) if x.lstrip().startswith(c))
                              for c in ("\\caption{", "\\label{tab:accuracy-"))
            tabular = next(i for i, x in enumerate(lines) if "\\end{tabular}" in x)
            assert label == caption + 1 and (caption > tabular) == (venue.table_caption == "below"), (key, table)
    assert export.verdict_latex(_result()) == export.verdict_latex(_result(), venue="acl")  # ACL's by default


def test_the_latex_sentence_escapes_hostile_names_exactly():
    assert export.sentence_latex(_result(), a="A_1 & 50%", b="[b]^~$#{}\\") == (
        "A\\_1 \\& 50\\% beats {[}b{]}\\textasciicircum{}\\textasciitilde{}\\$\\#\\{\\}\\textbackslash{} by "
        "0.0500 accuracy (95\\% CI 0.0200 to 0.0800); $p = 0.0012$ (two-sided), paired bootstrap "
        "\\citep{berg-kirkpatrick-etal-2012-empirical,efron1993introduction}, $b = 10{,}000$, seed 0: significant at "
        "$\\alpha = 0.05$.")


@pytest.mark.parametrize("p_value, p_floor, count, math_p", [
    (1e-4, 1e-4, 0, "$p < 10^{-4}$"), (2.5e-5, 2.5e-5, 0, r"$p < 2.5 \times 10^{-5}$"),
    (0.00012, 1e-4, 12, r"$p = 1.2 \times 10^{-4}$"),
    (0.0012, 1e-4, 12, "$p = 0.0012$"), (0.3, 1e-4, 3000, "$p = 0.3$"),
])
def test_latex_p_value_in_math_mode(p_value, p_floor, count, math_p):
    res = _result(p_value=p_value, p_floor=p_floor, n_extreme=count, n_resamples=round(p_floor ** -1))
    assert f"; {math_p} (two-sided), paired bootstrap \\citep" in export.sentence_latex(res)


def test_latex_tiny_and_negative_numbers():
    res = _result(metric="a_b", delta=-2.5e-5, score_a=0.0, score_b=2.5e-5, ci_low=-3e-5, ci_high=1e-5,
                  p_value=0.6, alternative="two-sided")
    text = export.verdict_latex(res)
    assert r"$\delta = -2.50 \times 10^{-5}$ a\_b" in export.sentence_latex(res)
    assert r"& $-2.50 \times 10^{-5}$ & [$-3.00 \times 10^{-5}$, $1.00 \times 10^{-5}$] \\" in text
    body = text.split("% signature")[0]
    assert re.search(r"(?<![{$])-\d", body) is None  # every minus is \textminus{} or inside math


@pytest.mark.parametrize("test, alternative", [("bootstrap", "greater"), ("bootstrap", "less"),
                                               ("bootstrap", "two-sided"), ("mcnemar", "greater"), ("t", "less")])
def test_latex_table_says_which_row_is_a_one_sided_bound(test, alternative):
    gold = [1, 0, 1, 1, 0, 1] * 20
    res = sigcore.compare(gold, [1, 0, 1, 0, 0, 1] * 20, [0, 0, 1, 1, 0, 0] * 20, metric="accuracy", test=test,
                          alternative=alternative, n_resamples=500)
    rows = [line.strip() for line in export.verdict_latex(res).splitlines() if line.strip().endswith("\\\\")][1:]
    marked = [row for row in rows if "(one-sided)" in row]
    if alternative == "two-sided":
        assert not marked and "infty" not in "".join(rows)
    else:  # the row holding the test's interval: delta's, or the estimand's (McNemar: the discordant share)
        assert len(marked) == 1 and marked[0] == rows[-1], rows
        bound = marked[0].split(" & ")[-1]
        assert bound.endswith("$\\infty$) \\\\") or bound.startswith("($-\\infty$") \
            or bound.endswith("1.0000] \\\\") or bound.startswith("[0.0000"), bound  # an infinite end is open


# ---------------------------------------------------------------- tables and CSV


def test_scores_table(real):
    frame = export.scores_table(real, a="ours", b="base")
    assert list(frame.index) == ["ours", "base", "ours − base"]
    assert list(frame.columns) == ["score", "ci_low", "ci_high"]
    assert frame.loc["ours"].tolist() == [real.score_a, *real.ci_a]
    assert frame.loc["ours − base"].tolist() == [real.delta, real.ci_low, real.ci_high]
    assert len(export.scores_table(real, a="same", b="same")) == 3  # same names still give three rows


@pytest.mark.parametrize("value, safe", [
    ("=SUM(A1)", "'=SUM(A1)"), ("-cmd", "'-cmd"), ("@x", "'@x"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"), ("-1+1", "'-1+1"), ("-inf", "'-inf"),
    ("+1", "+1"), ("-0.25", "-0.25"), ("-1e-05", "-1e-05"),  # text that is a plain number stays a number
    (-0.25, -0.25), (-3, -3), ("ok", "ok"), (None, None),
])
def test_safe_cell(value, safe):
    assert export.safe_cell(value) == safe


def test_table_csv_neutralises_text_and_keeps_numbers():
    frame = pd.DataFrame({"name": ["=SUM(A1)", "@x", "fine"], "value": [-0.25, 0.5, -1.0]})
    assert export.table_csv(frame) == b"name,value\n'=SUM(A1),-0.25\n'@x,0.5\nfine,-1.0\n"
    back = pd.read_csv(io.BytesIO(export.table_csv(frame)))
    assert back["value"].tolist() == [-0.25, 0.5, -1.0]


def test_table_csv_of_scores_neutralises_system_names(real):
    text = export.table_csv(export.scores_table(real, a="=cmd", b="-x")).decode()
    assert text.splitlines()[:3] == ["system,score,ci_low,ci_high", f"'=cmd,{real.score_a!r},{real.ci_a[0]!r},"
                                     f"{real.ci_a[1]!r}", f"'-x,{real.score_b!r},{real.ci_b[0]!r},{real.ci_b[1]!r}"]
    back = pd.read_csv(io.BytesIO(text.encode()), index_col="system")
    assert back.loc["'=cmd − -x", "ci_low"] == real.ci_low < 0


def test_deltas_csv_round_trip(real):
    data = export.deltas_csv(real)
    assert data.startswith(b"resample,delta_x_i\n1,")
    back = pd.read_csv(io.BytesIO(data))
    assert back.columns.tolist() == ["resample", "delta_x_i"]
    assert back["resample"].tolist() == list(range(1, real.n_resamples + 1))
    assert np.array_equal(back["delta_x_i"].to_numpy(), real.distribution)  # exact, not approximate


def test_deltas_csv_refuses_closed_form():
    with pytest.raises(SettingsError, match="sign test is closed-form .* Choose the bootstrap or permutation"):
        export.deltas_csv(_result(test="sign", distribution=None, threshold=None))


def test_result_json(real):
    data = json.loads(records.dumps(records.pair(real, a="ours", b="base")))
    assert data["signature"] == real.signature and data["p_value"] == real.p_value and data["a"] == "ours"
    assert "distribution" not in data
    assert json.loads(records.dumps(records.pair(real, distribution=True)))["distribution"] == \
        real.distribution.tolist()


# ---------------------------------------------------------------- figures (real kaleido + Chromium, ~3 s each)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_png_svg_and_pdf_of_the_histogram(real):
    fig = delta_histogram(real)
    png = export.figure_image(fig, "png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert int.from_bytes(png[16:20], "big") == 2 * export.SCREEN_FIGURE["width"]  # IHDR width at scale 2
    svg = export.figure_image(fig, "svg").decode("utf-8")
    assert "<svg" in svg and "δ(x)" in svg
    assert export.figure_image(fig, "pdf").startswith(b"%PDF-")


@pytest.mark.slow  # SVGs through kaleido, the shared browser against one of its own
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_a_browser_per_image_and_one_for_all_draw_the_same_image(real):
    """The tests draw with one kaleido browser for the process (conftest.py); users get one per image."""
    import kaleido

    fig = delta_histogram(real)
    shared = export.figure_image(fig, "svg")
    kaleido.stop_sync_server(silence_warnings=True)
    try:
        own = export.figure_image(fig, "svg")
    finally:
        kaleido.start_sync_server(n=1, timeout=export.RENDER_SECONDS, silence_warnings=True)
    def unnamed(svg: bytes) -> bytes:  # plotly names a figure's clip paths after a random id of six hex digits
        return svg.replace(re.search(rb'<defs id="defs-([0-9a-f]{6})"', svg).group(1), b"uid")
    assert b"<svg" in own and unnamed(own) == unnamed(shared)


def test_unknown_format():
    with pytest.raises(SettingsError, match="`fmt` must be one of png, svg, pdf, not 'jpg'"):
        export.figure_image(None, "jpg")


@pytest.mark.slow  # restarts kaleido's shared browser around it
def test_missing_chrome_says_how_to_install_it(monkeypatch, real, browser_per_image):
    monkeypatch.setenv("BROWSER_PATH", "/nonexistent/chromium")
    with pytest.raises(SettingsError, match=r"none was found.*apt-get install chromium") as info:
        export.figure_image(delta_histogram(real), "png")
    assert "apt-get install chromium" in info.value.hint


@pytest.mark.slow  # restarts kaleido's shared browser around it
def test_broken_browser_says_how_to_install_it(monkeypatch, real, browser_per_image):
    monkeypatch.setenv("BROWSER_PATH", "/bin/false")  # exists, but dies at once
    with pytest.raises(SettingsError, match=r"browser .* failed.*apt-get install chromium"):
        export.figure_image(delta_histogram(real), "svg")


def test_missing_kaleido(monkeypatch, real):
    monkeypatch.setitem(sys.modules, "kaleido", None)
    with pytest.raises(SettingsError, match=r"kaleido package.*pip install kaleido==1\.5\.0.*apt-get install chromium"):
        export.figure_image(delta_histogram(real), "pdf")


def test_markdown_and_latex_of_a_real_result_keep_p_and_signature(real):
    md, tex = export.verdict_markdown(real, a="ours", b="base"), export.verdict_latex(real, a="ours", b="base")
    assert real.p_text in md and f"`{real.signature}`" in md
    assert f"% signature: {real.signature}" in tex


# ---------------------------------------------------------------- figure captions: counts in their number

_ONE_PLURAL = re.compile(r"\b1 (?:[\w-]+ ){0,3}?(?:items|groups|swaps|resamples|permutations)\b")


@pytest.mark.parametrize("kind", ["histogram", "null", "convergence"])
def test_a_figure_caption_counts_one_in_the_singular(kind):
    """One item, group, resample or swap is not "1 items", "1 groups", "b = 1 paired bootstrap resamples" or
    "all 1 swaps" (an exact test on items that never differ has the one swap that changes nothing)."""
    cases = [_result(n_items=1, n_resamples=1, n_groups=1),
             _result(test="permutation", n_items=1, n_resamples=1, p_floor=0.5),
             _result(test="permutation", exact=True, n_items=12, n_resamples=1, n_groups=1, p_floor=1.0)]
    for res in cases:
        if kind == "convergence" and res.exact:
            continue
        for caption in (export.figure_caption(res, kind), export.figure_caption(res, kind, latex=True)):
            assert not _ONE_PLURAL.search(caption.replace("$", "")), caption
    text = export.figure_caption(cases[0], kind)
    assert "b = 1 paired bootstrap resample x⁽ⁱ⁾ of the 1 item in 1 group (seed 0)" in text
    assert text.startswith("The p-value after b = 1 paired" if kind == "convergence" else "δ(x⁽ⁱ⁾)")
    assert "b = 1 random swap of A's and B's outputs on the 1 item (seed 0)" in export.figure_caption(cases[1], kind)
    if kind != "convergence":
        assert ("δ under H0 on the only swap of A's and B's outputs, which agree on all 12 items in 1 group (seed 0)"
                in export.figure_caption(cases[2], kind))
    many = export.figure_caption(_result(n_items=12, n_resamples=2, n_groups=3), kind)
    assert "b = 2 paired bootstrap resamples x⁽ⁱ⁾ of the 12 items in 3 groups" in many


def test_an_exact_test_on_items_that_never_differ_has_one_swap():
    gold, same = [1, 0, 1, 1, 0, 1], [1, 0, 0, 1, 0, 1]
    res = sigcore.compare(gold, same, same, test="permutation", n_resamples=1000, alternative="greater")
    assert res.exact and res.n_resamples == 1
    assert export.figure_caption(res, "histogram").startswith(
        "δ under H0 on the only swap of A's and B's outputs, which agree on all 6 items (seed 0); "
        "dark (vermillion) bars")


def test_the_caption_and_the_legend_speak_of_counted_bars_only_when_there_are_some():
    """p < 1/b: no bar is counted; the legend had a "counted in p" swatch and the caption spoke of dark bars."""
    from sigcore.report.figures import figure

    seen = set()
    for seed in range(40):
        rng = np.random.default_rng(seed)
        n = int(rng.choice([8, 40, 200]))
        gold = rng.integers(0, 2, n)
        a, b = (np.where(rng.random(n) < p, gold, 1 - gold) for p in (0.9, rng.choice([0.5, 0.85])))
        res = sigcore.compare(list(gold), list(a), list(b), test=str(rng.choice(["bootstrap", "permutation"])),
                              alternative=str(rng.choice(["two-sided", "greater", "less"])), n_resamples=200)
        legend = {t.name for t in figure(res, "histogram").data}
        caption = export.figure_caption(res, "histogram")
        some = res.n_extreme > 0
        assert ("counted in p" in legend) == some == ("dark (vermillion) bars" in caption), (seed, caption)
        assert ("none is counted in p" in caption) == (not some)
        seen.add(some)
    assert seen == {True, False}
