"""The Classroom's three sections driven through streamlit.testing: every number they show equals sigcore's."""

import fractions

import pytest
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore import SettingsError, teaching
from ui import lessons
from ui.safe import md

SLP3_A = [1, 1, 1, 0, 1, 0, 1, 1, 0, 1]
SLP3_B = [1, 0, 1, 1, 0, 1, 0, 1, 0, 0]


def section(call: str, state: dict | None = None) -> AppTest:
    """Run one section on its own, with widgets preset through session state (to skip slow defaults)."""
    at = AppTest.from_string(f"from ui import lessons\nlessons.{call}", default_timeout=60)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    return at.run()


def metrics(at: AppTest) -> dict[str, str]:
    assert not at.exception and not at.error
    return {m.label: m.value for m in at.metric}


def false_alarms(test: str, n: int, n_sims: int, alpha: float) -> str:
    p = teaching.null_p_values(n, lessons.NULL_ACCURACY, lessons.NULL_AGREEMENT, test=test, n_sims=n_sims, seed=0)
    return f"{teaching.rejection_rate(p, alpha):.1%}"


def three_p_texts(a, b, copies):
    """The engine's p of each test; the exact permutation test's as the fraction of swaps it counts."""
    texts = []
    for test in lessons.THREE:
        res = sigcore.compare([1] * len(a) * copies, a * copies, b * copies, test=test,
                              n_resamples=lessons.RESAMPLES, ci_method=None, alternative="greater")
        share = fractions.Fraction(res.p_value).limit_denominator(2 ** 24)
        exact = res.exact and test == "permutation" and share.denominator > 1 and res.p_text.startswith("p = ")
        texts.append(f"p = {share} = {res.p_text[4:]}" if exact else res.p_text)
    return texts


def test_p_values_shows_sigcore_share_of_false_alarms_and_follows_the_widgets():
    at = section("p_values()", {"pv-test": "mcnemar", "pv-n": 100, "pv-sims": 200})
    shown = metrics(at)
    assert shown["Test sets where H0 is true"] == "200"
    assert shown["Share with p ≤ α (false alarms)"] == false_alarms("mcnemar", 100, 200, 0.05)
    at.select_slider(key="pv-alpha").set_value(0.10).run()
    assert metrics(at)["Share with p ≤ α (false alarms)"] == false_alarms("mcnemar", 100, 200, 0.10)
    at.selectbox(key="pv-test").set_value("permutation").run()
    assert metrics(at)["Share with p ≤ α (false alarms)"] == false_alarms("permutation", 100, 200, 0.10)
    assert metrics(at)["What α promises"] == "at most 10%"


def test_impossible_power_setting_shows_the_message_and_hint_not_a_traceback():
    at = section("power()", {"power-agreement": 0.99})
    assert not at.exception and not at.metric
    with pytest.raises(SettingsError) as refused:
        teaching.power(lessons.POWER_NS, 0.75, 0.70, 0.99)
    assert [e.value for e in at.error] == [md(str(refused.value))]
    assert "agree on 0.99" in refused.value.what and "at most 1 - |accuracy_a - accuracy_b|" in refused.value.hint


def test_three_tests_table_shows_compare_p_and_the_p_values_shrink_together_with_copies():
    at = section(f"three_tests({[bool(v) for v in SLP3_A]}, {[bool(v) for v in SLP3_B]})")  # as the walk-through
    assert metrics(at) == {"Documents, n": "10", "δ(x) = accuracy of A − accuracy of B": ".20"}  # as the book
    assert at.dataframe[0].value["p"].tolist() == three_p_texts(SLP3_A, SLP3_B, 1)
    assert at.dataframe[0].value["test"].tolist() == ["Paired bootstrap", "Exact permutation test", "Paired t-test"]
    at.select_slider(key="three-copies").set_value(20).run()
    assert metrics(at) == {"Documents, n": "200", "δ(x) = accuracy of A − accuracy of B": ".20"}
    assert at.dataframe[0].value["p"].tolist() == three_p_texts(SLP3_A, SLP3_B, 20) == [
        "p < 0.0001", "p = 0.0001", "p = 0.00011"]


@pytest.mark.parametrize("a, b, p", [(SLP3_A, SLP3_A, ["p = 1"] * 3),  # δ(x) = 0: no test is "significant"
                                     ([1] * 10, [0] * 10, ["p < 0.0001", "p = 1/1024 = 0.00098", "p < 1e-300"])])
def test_three_tests_without_spread_in_the_differences_show_gracefully(a, b, p):
    at = section(f"three_tests({a}, {b})")
    assert not at.exception and not at.error
    assert at.dataframe[0].value["p"].tolist() == three_p_texts(a, b, 1) == p


@pytest.mark.slow
def test_default_settings_show_sigcore_numbers():
    shown = metrics(section("p_values()"))
    assert shown["Share with p ≤ α (false alarms)"] == false_alarms("bootstrap", 200, 1_000, 0.05)
    shown = metrics(section("power()"))
    curve = teaching.exact_power(lessons.POWER_NS, 0.75, 0.70, 0.85)
    assert shown["Smallest n with 80% power"] == f"{teaching.smallest_n(lessons.POWER_NS, curve):,}" == "400"
    assert shown["Power with n = 200"] == f"{curve[lessons.POWER_NS.index(200)]:.1%}"


def test_the_two_estimates_of_the_same_p_are_said_to_be_estimates_of_it():
    at = section(f"three_tests({[bool(v) for v in SLP3_A]}, {[bool(v) for v in SLP3_B]})")
    exact = teaching.exact_bootstrap_p(SLP3_A, SLP3_B)
    assert any(f"both estimate one exact value, {exact:.4f}" in c.value and "differ by Monte-Carlo error" in c.value
               for c in at.caption)


def figure(at: AppTest):
    import json

    import plotly.graph_objects as go

    (chart,) = at.get("plotly_chart")
    return go.Figure(json.loads(chart.proto.spec))


@pytest.mark.parametrize("call, state", [
    ("p_values(PRESENTER)", {"pv-test": "mcnemar", "pv-n": 100, "pv-sims": 200}),
    ("power(PRESENTER)", {"power-a": 0.8}),
    (f"three_tests({[bool(v) for v in SLP3_A]}, {[bool(v) for v in SLP3_B]}, PRESENTER)", {"three-copies": 2}),
], ids=["p-values", "power", "three-tests"])
def test_presenter_mode_shows_the_same_numbers_at_24_px_without_prose(call, state):
    """A section in presenter mode: its settings, its chart at presenter size (every text 24 px, the height left to
    the screen) and the page's numbers, without the paragraphs, captions and table that the lecturer says aloud."""
    from helpers.figures import assert_presenter_size

    page = section(call.replace(", PRESENTER", "").replace("PRESENTER", ""), state)
    presenter = section(call.replace("PRESENTER", "presenter=True"), state)
    assert metrics(presenter) == metrics(page) and len(metrics(page)) >= 2
    assert page.markdown and page.caption and not presenter.markdown and not presenter.caption
    assert not presenter.dataframe and not presenter.table
    assert_presenter_size(figure(presenter))
    assert figure(page).layout.height == 340  # the page's figure is as it was
    assert presenter.toggle(key="presenter-on").value is True  # the way out of presenter mode, among the settings


def test_the_page_says_how_many_swaps_the_permutation_panel_draws_and_counts():
    """SLP3's ten documents differ on six: 64 assignments drawn, the observed one among them, 22 counted (p = 11/32)."""
    at = section(f"three_tests({[bool(v) for v in SLP3_A]}, {[bool(v) for v in SLP3_B]})")
    assert any("draws all 64 assignments of A and B" in c.value and "22 of them have δ ≥ δ(x), so p = 22/64" in c.value
               for c in at.caption)
