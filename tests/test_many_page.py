"""The Many systems page: its figure builders (sigcore.report.family_figures) drawn from the family's own numbers
and decisions, and the page driven through streamlit.testing on the WMT17 sample and on uploads."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore.io.inputs import read
from sigcore.io.loading import load_many
from sigcore.report import family
from sigcore.report.family import signed
from sigcore.report.family_figures import forest, heatmap
from sigcore.report.style import label
from ui import many as many_ui
from ui.safe import md

from helpers.browser import launch
from helpers.many_page import upload, widget

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = "<b>bold</b> <a href='javascript:alert(1)'>x</a>"


def classifiers(n=300, seed=0):
    """A baseline at 60% and systems from level with it to far above it, one with a name full of markup: some
    comparisons significant after Holm, some not."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    right = {"base": 0.60, "same": 0.60, "bit": 0.63, HOSTILE: 0.75, "far": 0.85}
    systems = {name: np.where(rng.uniform(size=n) < p, gold, (gold + 1) % 3) for name, p in right.items()}
    return gold, systems


@pytest.fixture(scope="module")
def against_baseline():
    gold, systems = classifiers()
    return sigcore.compare_many(gold, systems, baseline="base", n_resamples=500, test="bootstrap")


@pytest.fixture(scope="module")
def all_pairs():
    gold, systems = classifiers(seed=1)
    return sigcore.compare_many(gold, systems, all_pairs=True, n_resamples=2000, test="bootstrap")


# ---------------------------------------------------------------- figure builders


def points(fig) -> dict[str, tuple[float, float, float, bool]]:
    """System (as labelled) -> (x, low, high, in the significant trace) from the forest plot's traces."""
    ticks = fig.layout.yaxis.ticktext
    out = {}
    for trace, significant in zip(fig.data, (True, False)):
        for x, y, plus, minus in zip(trace.x, trace.y, trace.error_x.array, trace.error_x.arrayminus):
            out[ticks[y]] = (x, x - minus, x + plus, significant)
    return out


def test_forest_points_and_bars_are_the_results_and_marks_the_decisions(against_baseline):
    many = against_baseline
    fig = forest(many)
    shown = points(fig)
    assert sorted(shown) == sorted(label(s) for s in many.systems if s != "base")
    decisions = {s: many.significant(s, "base") for s in many.systems if s != "base"}
    assert any(decisions.values()) and not all(decisions.values())  # both kinds are drawn
    for system, significant in decisions.items():
        res = many.results[(system, "base")]
        x, low, high, marked = shown[label(system)]
        assert x == pytest.approx(res.delta, abs=1e-12)
        assert (low, high) == pytest.approx(many.delta_interval(system, "base"), abs=1e-12)
        assert (low, high) == pytest.approx((res.ci_low, res.ci_high), abs=1e-12)  # the bootstrap's is δ's
        assert marked == significant
    assert fig.data[0].marker.symbol == "circle" and fig.data[1].marker.symbol == "circle-open"
    deltas = [shown[t][0] for t in fig.layout.yaxis.ticktext]
    assert deltas == sorted(deltas)  # the largest δ on top (Plotly's y grows upwards)
    assert fig.layout.xaxis.title.text.startswith("δ = accuracy(system) − accuracy(base)")
    assert [s.x0 for s in fig.layout.shapes] == [0]  # the line at 0
    assert "Holm over 4 comparisons" in fig.layout.title.text


@pytest.mark.parametrize("seed", range(12))
def test_weak_systems_go_off_the_scale_so_the_close_calls_keep_the_width(seed):
    """Systems from level with the baseline to far below it: only significant systems far beyond every close call
    become arrows at the edge (on δ's side, δ beside the name, listed in the caption); every other row is drawn
    whole inside the axis at its own δ and interval."""
    rng = np.random.default_rng(seed)
    n = 400
    gold = rng.integers(0, 2, n)
    right = {"base": 0.7, **{f"s{i}": p for i, p in enumerate(rng.uniform(0.3, 0.75, 7))}}
    systems = {k: np.where(rng.uniform(size=n) < p, gold, 1 - gold) for k, p in right.items()}
    many = sigcore.compare_many(gold, systems, baseline="base", n_resamples=300, test="bootstrap")
    far = family.off_scale(many)
    close = [s for s in systems if s != "base" and not many.significant(s, "base")]
    assert all(many.significant(s, "base") for s in far) and (not far or close)
    fig = forest(many, style=sigcore.report.style.PAPER)
    low, high = fig.layout.xaxis.range
    ticks = list(fig.layout.yaxis.ticktext)
    caption, scale = family.forest_caption(many), max(many.scores.values())
    for trace in fig.data:
        symbols = [trace.marker.symbol] * len(trace.x) if isinstance(trace.marker.symbol, str) else trace.marker.symbol
        assert len(symbols) == len(trace.x)
        for x, y, plus, minus, symbol in zip(trace.x, trace.y, trace.error_x.array, trace.error_x.arrayminus, symbols):
            system = next(s for s in systems if ticks[y].startswith(label(s) + " (") or ticks[y] == label(s))
            res = many.results[(system, "base")]
            if system in far:
                assert symbol.startswith("triangle-" + ("right" if res.delta > 0 else "left"))
                assert np.isnan(plus) and low < x < high and (x > 0) == (res.delta > 0)
                assert ticks[y] == f"{label(system)} ({signed(res.delta, scale)})"
                assert f"{system} (δ = {signed(res.delta, scale)})" in caption
                lo, hi = many.delta_interval(system, "base")  # wholly beyond three times the close calls' reach
                assert min(abs(lo), abs(hi)) > 3 * max(max(map(abs, many.delta_interval(c, "base"))) for c in close)
            else:
                assert x == pytest.approx(res.delta) and low <= x - minus and x + plus <= high
                assert ticks[y] == label(system) and not symbol.startswith("triangle")
    assert ("Off the scale" in caption) == bool(far)


def test_forest_labels_never_carry_markup(against_baseline):
    fig = forest(against_baseline)
    assert label(HOSTILE) in fig.layout.yaxis.ticktext
    text = json.dumps(json.loads(fig.to_json()), ensure_ascii=False)  # as decoded: Plotly's JSON writes / as \u002f
    assert "<b>bold</b>" not in text and "<a href" not in text
    assert label(HOSTILE) == "&lt;b&gt;bold&lt;/b&gt; &lt;a href=&#x27;javascript:alert(1)&#x27;&gt;x&lt;/a&gt;"


def test_forest_draws_no_bar_where_the_test_has_no_interval_of_delta():
    gold, systems = classifiers()
    fig = forest(sigcore.compare_many(gold, systems, baseline="base", test="sign"))
    assert all(np.isnan(v) for trace in fig.data for v in [*trace.error_x.array, *trace.error_x.arrayminus])
    assert "interval" not in fig.layout.xaxis.title.text and not np.isnan([x for t in fig.data for x in t.x]).any()


def test_forest_needs_a_baseline(all_pairs):
    with pytest.raises(ValueError, match="heatmap"):
        forest(all_pairs)


def test_heatmap_cells_are_the_deltas_and_marks_the_decisions(all_pairs):
    many = all_pairs
    fig = heatmap(many)
    trace = fig.data[0]
    order = [s for s in sorted(many.systems, key=lambda s: -many.scores[s])]
    assert list(fig.layout.yaxis.ticktext) == list(fig.layout.xaxis.ticktext) == [label(s) for s in order]
    scale = max(abs(v) for v in many.scores.values())
    marks = 0
    for i, row in enumerate(order):
        for j, column in enumerate(order):
            cell, text = trace.z[i][j], trace.text[i][j]
            if i == j:
                assert cell is None and text == ""
                continue
            tested = (row, column) if (row, column) in many.results else (column, row)
            sign = 1 if tested == (row, column) else -1
            assert cell == pytest.approx(sign * many.results[tested].delta, abs=1e-12)  # row minus column
            significant = many.significant(*tested)
            assert text == signed(cell, scale) + ("*" if significant else "")
            marks += significant
    assert 0 < marks < len(order) * (len(order) - 1)  # both kinds of cell
    assert trace.zmid == 0


def test_heatmap_of_a_baseline_family_leaves_untested_pairs_blank(against_baseline):
    trace = heatmap(against_baseline).data[0]
    filled = sum(v is not None for row in trace.z for v in row)
    assert filled == 2 * len(against_baseline.results)


def test_no_reachable_alpha_is_told_with_the_resamples_that_would_reach_it(all_pairs):
    gold, systems = classifiers(seed=1)
    few = sigcore.compare_many(gold, systems, all_pairs=True, n_resamples=100, test="bootstrap")
    smallest, needed = few.floor()
    assert smallest > 0.05 and needed is not None
    assert sigcore.statistics.multiple.adjust([1 / needed] * len(few.results), "holm").min() <= 0.05
    assert all_pairs.floor()[1] is None


# ---------------------------------------------------------------- the page


def page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run()
    return at.switch_page("app_pages/many.py").run()


def run(at: AppTest) -> AppTest:
    return next(b for b in at.button if b.label == "Run").click().run()


@pytest.fixture(scope="module")
def opened() -> AppTest:
    return page()


def test_opens_on_the_wmt17_sample_against_lium_nmt(opened):
    at = opened
    assert not at.exception and not at.error
    assert [t.label for t in at.tabs] == ["BLEU"]  # chrF on request
    assert widget(at.selectbox, "Baseline").value == "LIUM-NMT"
    assert widget(at.number_input, "Resamples b").value == 10_000
    assert widget(at.selectbox, "Correction").value == "holm"
    tables = [d.value for d in at.dataframe if "p_adjusted" in d.value.columns]
    assert len(tables) == 1
    assert len(tables[0]) == 15 and set(tables[0]["against"]) == {"LIUM-NMT"}  # 15 systems against the baseline
    bleu = tables[0].set_index("system")
    assert bleu.loc["uedin-nmt", "significant"] and not bleu.loc["LMU-nmt-reranked", "significant"]
    assert bleu.loc["uedin-nmt", "delta"] == pytest.approx(1.71, abs=0.005)  # README's WMT17 run
    assert len(at.get("plotly_chart")) == 1  # a forest plot per metric
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels.count("Download SVG") == labels.count("Download PDF") == 1
    assert {"LaTeX table", "CSV", "Text report", "Paper folder (.zip)"} <= set(labels)
    latex = next(c.value for c in at.code if "booktabs" in c.value)
    assert r"\begin{tabular}{lrrc}" in latex and r"$\delta$ & 95\% CI" in latex
    assert "uedin-nmt" in latex and "LIUM-NMT" in latex


def test_the_forest_plot_on_the_page_is_the_figure_builders(opened):
    chart = json.loads(opened.get("plotly_chart")[0].proto.spec)
    assert chart["layout"]["xaxis"]["title"]["text"].startswith("δ = BLEU(system) − BLEU(LIUM-NMT)")
    ticks = chart["layout"]["yaxis"]["ticktext"]
    assert len(ticks) == 15 and ticks[-1] == "uedin-nmt"  # the largest δ on top


@pytest.mark.slow  # an AppTest of all 120 pairs of WMT17's systems
def test_all_pairs_shows_the_heatmap_ranking_and_every_pair():
    at = page()
    widget(at.multiselect, "Metrics").set_value(["bleu"])
    widget(at.radio, "Compare").set_value(many_ui.ALL_PAIRS)
    widget(at.number_input, "Resamples b").set_value(300)
    run(at)
    assert not at.exception and not at.error
    frames = [d.value for d in at.dataframe]
    ranking = next(f for f in frames if "cluster" in f.columns)
    pairs = next(f for f in frames if "p_adjusted" in f.columns)
    assert len(ranking) == 16 and len(pairs) == 120
    assert list(ranking["score"]) == sorted(ranking["score"], reverse=True)
    assert ranking["system"].iloc[0] == "uedin-nmt"
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert chart["data"][0]["type"] == "heatmap"
    # 120 comparisons at b = 300: Holm cannot reach α, and the page says so with the b that would
    assert any("No comparison can be significant" in w.value and "Raise b to at least 3,000" in w.value
               for w in at.warning)
    assert not pairs["significant"].any() and set(ranking["cluster"]) == {1}


def test_a_bad_upload_shows_a_message_beside_the_uploader_not_a_traceback():
    at = upload(page(), ("gold.txt", b"a\nb\nc\n"), ("sys1.txt", b"a\nb\nc\n"), ("sys2.txt", b"a\nb\n"))
    assert not at.exception
    assert [e.value for e in at.error] == [md("sys2.txt, line 2: has 2 items but gold.txt has 3. Every file needs "
                                              "one item per test item, in the same order (or give an id column).")]
    assert not at.tabs  # no results from bad data
    at.file_uploader[0].set_value([("x.csv", b"\x89PNG\r\n\x1a\n\x00\x00binary", "image/png")]).run()
    assert not at.exception and len(at.error) == 1 and "binary" in at.error[0].value


def test_an_uploaded_wide_table_with_hostile_names_runs_and_is_never_markup():
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 2, 200)
    columns = {"gold": gold, "**bold**": gold, HOSTILE: np.where(rng.uniform(size=200) < 0.7, gold, 1 - gold),
               "plain": np.where(rng.uniform(size=200) < 0.9, gold, 1 - gold)}
    csv = "\n".join([",".join(f'"{c}"' for c in columns)]
                    + [",".join(str(v[i]) for v in columns.values()) for i in range(200)]).encode()
    at = upload(page(), ("wide.csv", csv))
    assert not at.exception and not at.error
    assert widget(at.selectbox, "Baseline").value == "**bold**"  # the first system
    table = next(d.value for d in at.dataframe if "p_adjusted" in d.value.columns)
    assert set(table["system"]) == {HOSTILE, "plain"}  # names are cells: plain text as written
    spec = json.dumps(json.loads(at.get("plotly_chart")[0].proto.spec), ensure_ascii=False)
    assert "<b>bold</b>" not in spec and "<a href" not in spec
    assert label(HOSTILE) in json.loads(spec)["layout"]["yaxis"]["ticktext"]
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [w.value for w in at.warning]
    assert not any(re.search(r"(?<!\\)<a href|(?<!\\)\*\*bold", t) for t in texts)  # escaped where shown
    data = load_many([read(csv, name="wide.csv")])  # the items as the page reads them
    expected = sigcore.compare_many(data.gold, data.systems, baseline="**bold**", metric="accuracy")
    assert list(table["p_adjusted"]) == pytest.approx(list(expected.table()["p_adjusted"]))
    assert family.PAPER_NAMES["accuracy"] in [t.label for t in at.tabs]


@pytest.mark.slow
def test_two_metrics_give_a_tab_and_a_latex_column_each():
    at = page()
    widget(at.multiselect, "Metrics").set_value(["bleu", "chrf"])
    widget(at.number_input, "Resamples b").set_value(200)
    run(at)
    assert not at.exception and [t.label for t in at.tabs] == ["BLEU", "chrF"]
    latex = next(c.value for c in at.code if "booktabs" in c.value)
    assert r"\begin{tabular}{lrr}" in latex and "System & BLEU & chrF" in latex


def _ladder(k: int, name: str = "system-{i:02d}", n: int = 300, b: int = 5_000):
    """k classifiers from 50% to 50 + 2k% right on the same n items, every pair tested (b high enough for Holm
    over k(k - 1)/2 pairs to reach α)."""
    rng = np.random.default_rng(k)
    gold = rng.integers(0, 3, n)
    systems = {name.format(i=i): np.where(rng.uniform(size=n) < 0.5 + 0.02 * i, gold, (gold + 1) % 3)
               for i in range(k)}
    return sigcore.compare_many(gold, systems, all_pairs=True, n_resamples=b, test="bootstrap", seed=k)


def test_a_heatmap_too_dense_for_its_values_shows_the_marks_and_says_so():
    """20 systems leave a cell some 30 px on the page, too narrow for "+0.1080*" even at 9 px: each cell then shows
    only the * of a significant pair (as the corrected decision says), δ on hover, and the subtitle and the caption
    say so; 5 systems' cells hold their values at 11 px."""
    many = _ladder(20)
    assert family.heatmap_font(many) is None
    fig = heatmap(many)
    trace, order = fig.data[0], [s for s in sorted(many.systems, key=lambda s: -many.scores[s])]
    marks = 0
    for i, row in enumerate(order):
        for j, column in enumerate(order):
            if i != j:
                tested = (row, column) if (row, column) in many.results else (column, row)
                assert trace.text[i][j] == ("*" if many.significant(*tested) else "")
                assert signed(trace.z[i][j], max(abs(v) for v in many.scores.values())) in trace.customdata[i][j]
                marks += many.significant(*tested)
    assert 0 < marks < 380
    assert "its value on hover" in fig.layout.title.subtitle.text
    assert "too many systems for the values to fit" in family.heatmap_caption(many)
    few = _ladder(5)
    assert family.heatmap_font(few) == 11 and heatmap(few).data[0].textfont.size == 11
    assert "too many" not in family.heatmap_caption(few) and "each cell: δ" in heatmap(few).layout.title.subtitle.text


_CELLS = """async (spec) => {
  const div = document.createElement('div');
  document.body.appendChild(div);
  await Plotly.newPlot(div, spec.data, spec.layout, {staticPlot: true});
  const boxes = [...div.querySelectorAll('.heatmaplayer text')].filter(t => t.textContent.trim()).map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
  const width = div._fullLayout.xaxis._length / spec.data[0].z.length;  // a cell's, in px
  Plotly.purge(div); div.remove();
  return {boxes, width};
}"""


@pytest.mark.browser
def test_no_two_heatmap_cell_texts_touch_at_the_page_s_width():
    """Measured in Debian's Chromium at 820 px, the Many page's width in a 1280 px window: every cell's text
    narrower than its cell, and 2 px or more from its neighbours, from 5 to 20 systems and short to long names."""

    import plotly
    from playwright.sync_api import sync_playwright

    script = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text(encoding="utf-8")
    cases = [(k, name) for k in (5, 12, 14, 16, 20) for name in ("s{i}", "system-{i:02d}", "KIT-baseline-v{i:02d}")]
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 820, "height": 1200})
        page.set_content("<html><body style='margin:0'></body></html>")
        page.add_script_tag(content=script)
        sizes = []
        for k, name in cases:
            many = _ladder(k, name, b=500)
            fig = heatmap(many)
            fig.update_layout(width=family.HEATMAP_SCREEN)
            got = page.evaluate(_CELLS, json.loads(fig.to_json()))
            boxes = got["boxes"]
            sizes.append(family.heatmap_font(many))
            assert boxes or sizes[-1] is None, (k, name)  # b = 500: too few for a * over so many pairs
            for box in boxes:
                assert box["right"] - box["left"] <= got["width"] - 2, (k, name, box, got["width"])
            rows = {}
            for box in boxes:
                rows.setdefault(round(box["top"]), []).append(box)
            for row in rows.values():
                row.sort(key=lambda b: b["left"])
                assert all(a["right"] + 2 <= b["left"] for a, b in zip(row, row[1:])), (k, name, row)
        browser.close()
    assert {11, 10, 9, None} <= set(sizes), sizes  # values at each size, and marks alone
