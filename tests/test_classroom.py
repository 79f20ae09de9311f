"""The Classroom page driven through streamlit.testing: the walk-through of SLP3 Figures 4.11 and 4.12, with
every number checked against sigcore."""

import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from sigcore import teaching
from sigcore.report.figures import walkthrough_heights
from ui import lessons
from ui.terms import GLOSSARY
from ui.walkthrough import GRID, PRESETS, SEED_MENU, N, conclusion, textbook_number, why_twice

ROOT = Path(__file__).resolve().parents[1]
TEXTBOOK = PRESETS["Textbook: A .70, B .50"]


@pytest.fixture(scope="module")
def opened() -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run()
    return at.switch_page("app_pages/classroom.py").run()


def fresh() -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run()
    return at.switch_page("app_pages/classroom.py").run()


def chart(at: AppTest) -> dict:
    args = json.loads(next(c for c in at.get("component_instance") if "walk-chart" in c.proto.id).proto.json_args)
    args["figure"] = json.loads(args["figure"])
    return args


def values(array) -> np.ndarray:
    """A trace's numbers, which plotly sends as base64 typed arrays."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"])
    return np.asarray(array)


def equation(at: AppTest) -> str:
    """Eq. 4.48's text as the page shows it (its HTML's tags and style taken out)."""
    (html,) = [h.proto.body for h in at.html if 'class="eq-448"' in h.proto.body]
    return re.sub(r"<[^>]+>", "", re.sub(r"<style>.*?</style>", "", html, flags=re.S))


def metrics(at: AppTest) -> list[str]:
    return [m.value for m in at.metric[:4]]


def unfolded(at: AppTest, *keys: str) -> AppTest:
    """The page with the grid of x (GRID), the seed's box (SEED_MENU) or the glossary (GLOSSARY) open, as a click
    opens them: they are drawn only then."""
    for key in keys:
        at.session_state[key] = True
    return at.run()


def click(at: AppTest, label: str) -> AppTest:
    return next(b for b in at.button if b.label == label).click().run()


def expected_metrics(a, b) -> list[str]:
    score_a, score_b, delta = teaching.accuracies(a, b)
    return [textbook_number(score_a), textbook_number(score_b), textbook_number(delta),
            f"{teaching.exact_bootstrap_p(a, b):.4f}"]


@pytest.mark.slow  # opens every section: their simulations run
def test_opens_on_the_textbook_test_set(opened):
    at = opened
    assert not at.exception and not at.error
    assert metrics(at) == [".70", ".50", ".20", "0.2684"] == expected_metrics(*TEXTBOOK)
    args = chart(at)
    assert len(args["frames"]) == 1 and args["frames"][0]["texts"]["count"] == "b = 0"
    assert args["code"][7] == "    s ← s + 1 if δ(x⁽ⁱ⁾) ≥ 2·δ(x)"
    svgs = [b.proto.label for b in at.get("download_button")]  # every figure, the live one too, saves SVG
    assert svgs.count("Download SVG") == 1 and not at.get("plotly_chart")  # the walk-through's live chart alone:
    assert [s for s in svgs if s.startswith("Slide")] == ["Slide PNG", "Slide SVG", "Slide PDF"]  # no 5 MB of Plotly
    assert not at.toggle(key="reach-power").value  # the simulations wait until the class gets to them
    for key in ("reach-p-values", "reach-power", "reach-mistakes", "reach-three-tests"):
        at.toggle(key=key).set_value(True)
    at.run()
    svgs = [b.proto.label for b in at.get("download_button")]
    assert not at.exception and svgs.count("Download SVG") == len(at.get("plotly_chart")) + 1 == 10


def test_walk_through_edit_draw_one_draw_100_shift():
    at = unfolded(fresh(), GRID)
    at.checkbox(key="doc-4-A").uncheck().run()  # document 5: A is now wrong too
    a, b = list(TEXTBOOK[0]), list(TEXTBOOK[1])
    a[4] = False
    assert metrics(at) == expected_metrics(a, b) == [".60", ".50", ".10", metrics(at)[3]]

    click(at, "Draw x⁽¹⁾")
    assert not at.exception
    x = teaching.draw_test_sets(a, b, 1, seed=0)
    last = chart(at)["frames"][-1]
    drawn = last["rows"][-1]["cells"]
    assert drawn[0] == "x⁽¹⁾" and [c[0] for c in drawn[1:N + 1]] == [f"d{d + 1}" for d in x.documents[0]]
    assert drawn[N + 1:N + 4] == [textbook_number(v) for v in (x.score_a[0], x.score_b[0], x.delta[0])]
    assert last["texts"]["count"] == "b = 1"
    assert any(b.label == "Draw x⁽²⁾" for b in at.button)

    click(at, "Draw 100")
    x = teaching.draw_test_sets(a, b, 101, seed=0)
    last = chart(at)["frames"][-1]
    s = int(x.counted.sum())
    assert f"s / b = {s} / 101 = {s / 101:.4f}" in last["texts"]["status"]
    assert last["y"] == list(walkthrough_heights(x.delta, x.counted, N))
    assert last["rows"][-1]["cells"][0] == "x⁽¹⁰¹⁾"

    at.toggle(key="walk-shift").set_value(True).run()
    args = chart(at)
    data = args["figure"]["data"]
    assert len(data) == 4 and values(data[2]["x"])[N] == pytest.approx(-0.1)  # 0 shifted by -δ(x)
    assert args["frames"][-1]["y"][2:] == args["frames"][-1]["y"][:2]
    assert args["aside"] == why_twice(0.1) and "δ(x⁽ⁱ⁾) ≥ 2·δ(x) = .20" in args["aside"]  # beside the panels
    at.toggle(key="walk-shift").set_value(False).run()
    assert chart(at)["aside"] is None and len(chart(at)["figure"]["data"]) == 2

    click(at, "Reset")
    assert chart(at)["frames"][-1]["texts"]["count"] == "b = 0"


def test_the_grid_the_seed_and_the_glossary_are_drawn_once_opened_and_keep_their_values_closed():
    """Issue 27 §7: the page opens with what a class needs first, sooner (bench/classroom.py); the grid of x, the
    seed's box and the glossary, a third of the browser's work at opening, come when opened, and an x and a seed
    set in them hold once they are closed again, over draws, in the link."""
    at = fresh()
    assert not at.checkbox and not at.number_input and not glossaries(at) and not at.latex
    unfolded(at, GRID, SEED_MENU).checkbox(key="doc-0-B").uncheck().run()
    at.number_input(key="walk-seed").set_value(5).run()
    a, b = list(TEXTBOOK[0]), list(TEXTBOOK[1])
    b[0] = False
    at.session_state[GRID] = at.session_state[SEED_MENU] = False
    at.run()
    assert not at.checkbox and not at.number_input and metrics(at) == expected_metrics(a, b)
    click(at, "Draw 10")
    click(at, "Draw 10")
    x = teaching.draw_test_sets(a, b, 20, seed=5)
    assert chart(at)["frames"][-1]["y"] == list(walkthrough_heights(x.delta, x.counted, N))
    assert (at.query_params["seed"], at.query_params["b"], at.query_params["x"][0]) == ("5", "20", "2")
    unfolded(at, GRID, SEED_MENU)
    assert at.number_input(key="walk-seed").value == 5 and not at.checkbox(key="doc-0-B").value


def test_presets_and_seed():
    at = fresh()
    click(at, "A wins every disagreement: A .90, B .40")
    wins = PRESETS["A wins every disagreement: A .90, B .40"]
    assert metrics(at) == expected_metrics(*wins) == [".90", ".40", ".50", "0.0010"]
    rejected = teaching.exact_bootstrap_p(*PRESETS["Rejected at .01: A .90, B .40"])
    assert any(f"share δ(x) = .50 but not p (exact {rejected:.4f} and 0.0010)" in c.value for c in at.caption)
    click(at, "No difference")
    assert metrics(at)[2] == ".00"
    unfolded(at, SEED_MENU).number_input(key="walk-seed").set_value(7).run()
    click(at, "Draw 10")
    x = teaching.draw_test_sets(*PRESETS["No difference"], 10, seed=7)
    assert chart(at)["frames"][-1]["rows"][-1]["cells"][N + 3] == textbook_number(x.delta[9])


def test_the_book_s_conclusion_at_the_book_s_thresholds():
    at = fresh()
    said = [m.value for m in at.markdown if m.value.startswith("**p ≈")]
    assert said == ["**p ≈ .27 > .05: we cannot reject H0** that A is not better than B; the difference is not "
                    "statistically significant (which does not show that A and B are equal)."]
    said = equation(at)  # eq. 4.48 in both forms, with 2·δ(x) = .40 filled in
    assert said.startswith("p-value(x)= ") and said.count("1bb∑i=1𝟙(") == 3 and said.endswith(" = sb")
    assert "𝟙(δ(x(i)) − δ(x) ≥ δ(x))" in said and "𝟙(δ(x(i)) ≥ 2δ(x)) = " in said and "𝟙(δ(x(i)) ≥ .40) = " in said
    click(at, "Rejected at .01: A .90, B .40")  # the preset sets the threshold it is named after
    assert next(s for s in at.selectbox if s.label == "Threshold α").value == 0.01
    a, b = PRESETS["Rejected at .01: A .90, B .40"]
    assert teaching.exact_bootstrap_p(a, b) == pytest.approx(0.0060466176)
    said = [m.value for m in at.markdown if m.value.startswith("**p ≈")]
    assert said == ["**p ≈ .0060 ≤ .01: we reject H0** and say A is better than B; the difference is statistically "
                    "significant."]
    assert "𝟙(δ(x(i)) ≥ 1.00) = " in equation(at)  # δ(x) = .50, so 2·δ(x) = 1.00
    click(at, "Textbook: A .70, B .50")  # and the book's example brings back the book's .05
    assert next(s for s in at.selectbox if s.label == "Threshold α").value == 0.05
    assert [m.value for m in at.markdown if m.value.startswith("**p ≈")][0].startswith("**p ≈ .27 > .05:")
    for p, written in ((0.9983, ".9983"), (1.0, "1"), (0.994, ".99"), (0.27, ".27"), (0.0047, ".0047")):
        assert conclusion(p, 0.05).startswith(f"**p ≈ {written} ")  # never "1.00" for a p below 1

def test_the_walk_through_travels_in_the_url():
    """A link on a slide opens the same x, seed, draws, speed, view and threshold; the page keeps the URL current."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run().switch_page("app_pages/classroom.py")
    for key, value in {"x": "3210321032", "seed": "7", "b": "25", "speed": "1", "shift": "1", "alpha": "0.01"}.items():
        at.query_params[key] = value
    at.run()
    a = [d in "32" for d in "3210321032"]
    b = [d in "31" for d in "3210321032"]
    assert metrics(at) == expected_metrics(a, b)
    assert at.toggle(key="walk-shift").value and unfolded(at, SEED_MENU).number_input(key="walk-seed").value == 7
    frames = chart(at)["frames"]
    x = teaching.draw_test_sets(a, b, 25, seed=7)
    assert frames[-1]["texts"]["count"] == "b = 25"  # the 25 x⁽ⁱ⁾ at once, not replayed
    assert list(frames[-1]["lines"]) == [8, 8] and frames[-1]["progress"] == 1  # as after a run: p-value(x) ≈ s / b
    assert frames[-1]["y"][:2] == list(walkthrough_heights(x.delta, x.counted, N))
    click(at, "Draw x⁽²⁶⁾")
    assert at.query_params["b"] == "26" and at.query_params["x"] == "3210321032"
    assert (at.query_params["seed"], at.query_params["alpha"], at.query_params["shift"]) == ("7", "0.01", "1")
    unfolded(at, GRID).checkbox(key="doc-0-B").uncheck().run()  # an edit of x: a new test set, and the URL follows
    assert at.query_params["x"] == "2210321032" and at.query_params["b"] == "0"


@pytest.mark.parametrize("params", [
    {"b": "²"}, {"b": "١٢"}, {"b": "9" * 400}, {"b": "-3"}, {"seed": "²"}, {"seed": "1e9"}, {"alpha": "nan"},
    {"alpha": "0.05\x00"}, {"speed": "99"}, {"speed": "-1"}, {"x": "3" * 11}, {"x": "33333\u00b3333"},
    {"shift": "\u0661"}, {"b": "1" * 100},
], ids=lambda params: "-".join(f"{k}={v[:8]!r}" for k, v in params.items()))
def test_a_malformed_url_parameter_leaves_its_default(params):
    """b=² passed str.isdigit and crashed the Classroom; every parameter goes through the one validator."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run().switch_page("app_pages/classroom.py")
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception and not at.error
    assert unfolded(at, SEED_MENU).number_input(key="walk-seed").value == 0 and not at.toggle(key="walk-shift").value


def glossaries(at: AppTest) -> list[dict]:
    """The glossary's rows, English to Chinese."""
    tables = [m.value for m in at.markdown if m.value.startswith("| English | symbol | 中文 |")]
    return [{row.split(" | ")[0][2:]: row.split(" | ")[2][:-2] for row in t.splitlines()[2:]} for t in tables]


@pytest.mark.slow  # an AppTest of the page twice over
def test_the_language_switch_puts_the_page_in_chinese_and_a_link_carries_it():
    at = fresh()
    assert at.segmented_control(key="lang").value == "en"
    assert not glossaries(at)  # drawn once opened
    (glossary,) = glossaries(unfolded(at, GLOSSARY))  # the glossary in both languages, for a bilingual class
    assert glossary.items() >= {("null hypothesis", "零假设"), ("alternative hypothesis", "备择假设"),
                                ("effect size", "效应量"), ("p-value", "p 值"),
                                ("statistical significance", "统计显著性"),
                                ("paired bootstrap test", "配对自助法检验"),
                                ("approximate randomisation", "近似随机化"),
                                ("sampling distribution", "采样分布"), ("gold label", "金标准标签"),
                                ("accuracy", "正确率")}
    assert "虚拟测试集" in glossary["bootstrap test set (bootstrap sample)"]
    assert [h.value for h in at.subheader][:2] == ["1 · The test set x", "2 · Bootstrap test sets x⁽ⁱ⁾"]
    at.segmented_control(key="lang").set_value("zh").run()
    assert [h.value for h in at.subheader][:2] == ["1 · 测试集 x", "2 · 虚拟测试集 x⁽ⁱ⁾"]
    assert equation(at).startswith("p 值(x)= ")  # eq. 4.48 in the translation's words too (KaTeX kept "p-value")
    assert at.query_params["lang"] == "zh"
    for params in ({"lang": "zh"}, {"zh": "1"}):  # a link opens in Chinese; so does an older link's ?zh=1
        linked = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run()
        linked.switch_page("app_pages/classroom.py")
        linked.query_params.update(params)
        assert linked.run().segmented_control(key="lang").value == "zh"
        assert linked.subheader[0].value == "1 · 测试集 x" and linked.query_params["lang"] == "zh"
    at.toggle(key="presenter").set_value(True).run()  # presenter mode has no prose: the terms in one line
    line = [m.value for m in at.markdown if "H0: 零假设" in m.value]
    assert line and "x⁽ⁱ⁾: 虚拟测试集" in line[0]
    at.button(key="walk-draw-1").click().run()  # and a rerun keeps them
    assert any("H0: 零假设" in m.value for m in at.markdown)
    at.toggle(key="presenter-on").set_value(False).run()
    assert at.segmented_control(key="lang").value == "zh"  # back from presenter mode: still Chinese
    at.switch_page("app_pages/compare.py").run()  # the other pages are not translated: English, not a mix
    assert not at.exception and at.title[0].value == "Does system A really beat system B?"


def test_presenter_mode_shows_the_walk_through_alone_and_keeps_its_state():
    at = unfolded(fresh(), GRID)
    at.checkbox(key="doc-0-B").uncheck().run()  # an edited x, which presenter mode must not lose
    edited = metrics(at)
    at.toggle(key="presenter").set_value(True).run()
    assert not at.exception and not at.title and not at.checkbox and not at.metric  # no prose, no grid
    args = chart(at)
    assert args["presenter"] and args["code"] == [line.split("   #")[0] for line in args["code"]]  # no comments
    assert args["code"][7] == "    s ← s + 1 if δ(x⁽ⁱ⁾) ≥ 2·δ(x)" and len(args["code"]) == 10
    assert args["figure"]["layout"]["font"]["size"] >= 24 and at.query_params["presenter"] == "1"
    click(at, "Draw x⁽¹⁾")
    last = chart(at)["frames"][-1]
    assert last["texts"]["k-b"] == "1" and last["texts"]["k-exact"] == edited[3]  # the large counters
    at.toggle(key="presenter-on").set_value(False).run()
    assert metrics(at) == edited and at.query_params["presenter"] == "0"  # the same x, the grid back


def classroom(**params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run().switch_page("app_pages/classroom.py")
    at.query_params.update(params)
    return at.run()


def walk_chart_shown(at: AppTest) -> bool:
    return any("walk-chart" in c.proto.id for c in at.get("component_instance"))


@pytest.mark.slow  # an AppTest of a simulated section
def test_a_link_opens_a_section_in_presenter_mode_and_the_switch_keeps_it_in_the_url():
    """?presenter=1&section=three-tests (a slide's link) opens section 6 alone on the link's x; the switch in the
    corner moves between sections, and the URL follows, with the walk-through's state (x, b) still in it."""
    from ui.sections import KEY, SECTIONS

    at = classroom(presenter="1", section="three-tests", x="3210321032", b="25")
    assert not at.exception and not at.error and not walk_chart_shown(at)
    a, b = [d in "32" for d in "3210321032"], [d in "31" for d in "3210321032"]
    assert [m.value for m in at.metric] == ["10", textbook_number(teaching.accuracies(a, b)[2])]
    switch = at.selectbox(key=KEY)
    assert switch.value == "three-tests" and switch.options == [switch.format_func(s) for s in SECTIONS]
    assert switch.options[0] == "1–2 · The walk-through" and "5 · Peeking" in switch.options
    assert at.query_params["section"] == "three-tests" and at.query_params["presenter"] == "1"
    switch.set_value("walk-through").run()
    assert walk_chart_shown(at) and chart(at)["frames"][-1]["texts"]["count"] == "b = 25"  # the link's draws
    assert "section" not in at.query_params and at.query_params["x"] == "3210321032"
    at.selectbox(key=KEY).set_value("power").run()
    assert at.query_params["section"] == "power" and at.query_params["b"] == "25"
    curve = teaching.exact_power(lessons.POWER_NS, 0.75, 0.70, 0.85)
    assert [m.value for m in at.metric] == ["400", f"{curve[lessons.POWER_NS.index(200)]:.1%}"]


@pytest.mark.slow  # an AppTest through every section
def test_the_walk_through_and_each_section_keep_their_state_while_another_is_shown():
    """Streamlit forgets a widget not drawn in a run: the walk-through's pace, view and draws, and each section's
    settings, survive a visit to another section, and leaving presenter mode opens the page where the lecturer was."""
    from ui.sections import KEY

    at = unfolded(fresh(), GRID)
    at.checkbox(key="doc-0-B").uncheck().run()  # an edited x
    edited = metrics(at)
    at.toggle(key="presenter").set_value(True).run()
    at.selectbox(key="walk-pace").set_value(2.0).run()
    at.toggle(key="walk-shift").set_value(True).run()
    click(at, "Draw x⁽¹⁾")
    at.selectbox(key=KEY).set_value("power").run()
    assert not walk_chart_shown(at) and not at.exception
    at.slider(key="power-a").set_value(0.8).run()
    at.selectbox(key=KEY).set_value("three-tests").run()
    at.select_slider(key="three-copies").set_value(2).run()
    assert at.metric[0].value == "20"
    at.selectbox(key=KEY).set_value("walk-through").run()
    assert at.selectbox(key="walk-pace").value == 2.0 and at.toggle(key="walk-shift").value
    args = chart(at)
    assert args["frames"][-1]["texts"]["k-b"] == "1" and args["frames"][-1]["texts"]["k-exact"] == edited[3]
    assert any(b.label == "Draw x⁽²⁾" for b in at.button) and len(args["figure"]["data"]) == 4  # shifted: 2 panels
    at.selectbox(key=KEY).set_value("power").run()
    assert at.slider(key="power-a").value == 0.8
    at.selectbox(key=KEY).set_value("three-tests").run()
    assert at.select_slider(key="three-copies").value == 2
    at.toggle(key="presenter-on").set_value(False).run()  # out of presenter mode from section 6
    assert not at.exception and metrics(at) == edited and at.query_params["presenter"] == "0"
    assert at.toggle(key="reach-three-tests").value and at.select_slider(key="three-copies").value == 2
    assert at.toggle(key="reach-power").value and at.slider(key="power-a").value == 0.8  # visited: open on the page
    assert at.toggle(key="reach-p-values").value is False and at.query_params["section"] == "three-tests"
    at.toggle(key="presenter").set_value(True).run()  # and back: where it was left
    assert at.selectbox(key=KEY).value == "three-tests" and at.select_slider(key="three-copies").value == 2


@pytest.mark.parametrize("section", ["nonsense", "²", "power\x00", ""])
def test_a_malformed_section_in_a_link_opens_the_walk_through(section):
    at = classroom(presenter="1", section=section)
    assert not at.exception and not at.error and walk_chart_shown(at)
    assert "section" not in at.query_params


def test_a_link_to_a_section_without_presenter_mode_opens_it_on_the_page():
    at = classroom(section="p-values")
    assert not at.exception and at.toggle(key="reach-p-values").value and not at.toggle(key="reach-power").value
    assert "Share with p ≤ α (false alarms)" in [m.label for m in at.metric]


def test_a_click_during_a_links_first_run_keeps_the_link_and_the_click():
    """A click while the link's first run is still going stops that run before its widgets exist, and presenter mode
    came back off (a browser test under load saw it): the next run takes the link again, keeping the click's draws;
    no later run takes it, so what the lecturer changes afterwards stays changed."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120)
    at.query_params.update({"presenter": "1", "pace": "0.25", "lang": "zh"})
    at.switch_page("app_pages/classroom.py")
    at.session_state["walk-link"] = True  # as a first run leaves it when stopped by a click before its end
    at.session_state["presenter"], at.session_state["lang"] = False, "en"  # its widgets' keys lost
    at.run()
    at.button(key="walk-draw-10").click().run()
    assert at.session_state["presenter"] and at.query_params["presenter"] == "1" and at.query_params["lang"] == "zh"
    assert at.session_state["walk"]["b"] == 10 and at.query_params["b"] == "10"  # the click's draws kept
    at.toggle(key="presenter-on").set_value(False).run()  # the lecturer's own change: not undone by the link
    at.run()
    assert not at.session_state["presenter"] and at.query_params["presenter"] == "0"


def _link_page():
    from ui import walkthrough

    walkthrough.from_url()
    walkthrough.link_taken()


def test_a_widget_state_lost_to_a_later_interrupted_run_comes_back_from_the_address_bar():
    """Under load a browser test saw presenter mode off after Draw, past the link's first two runs: a run stopped
    by a click before the switch was drawn drops its key. The address bar holds the page's state: a lost key is
    taken from it, and only a lost one (presenter mode switched off stays off, a Chinese page stays Chinese)."""
    at = AppTest.from_function(_link_page)
    at.query_params.update({"presenter": "1", "lang": "zh", "pace": "0.25"})
    at.run()
    assert at.session_state["presenter"] and at.session_state["lang"] == "zh" and at.session_state["walk-pace"] == 0.25
    at.session_state["presenter"], at.session_state["walk-pace"] = False, 1.0  # the lecturer's changes
    at.run()
    assert not at.session_state["presenter"] and at.session_state["walk-pace"] == 1.0
    del at.session_state["presenter"]  # as a run stopped before the switch was drawn leaves it
    at.run()
    assert at.session_state["presenter"] and at.session_state["walk-pace"] == 1.0 and at.session_state["lang"] == "zh"
