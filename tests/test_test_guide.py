"""The "Which test?" page: a guide for every test, simulations that agree with independent computations, figures
that draw their numbers, and the page that shows them.

Rates are checked within 4 binomial standard errors of the value computed another way (exact enumeration, a
closed form), or by their Monte-Carlo 95% interval where the claim is that a rate lies above α.
"""

import base64
import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore import SettingsError
from sigcore.comparison import TESTS
from sigcore.report.citations import WORKS
from sigcore.teaching import exact_bootstrap_p
from sigcore.teaching import test_guide as tg
from sigcore.teaching import test_guide_figures as tf

ROOT = Path(__file__).resolve().parents[1]
ALPHA = 0.05


def se(rate, n):
    return np.sqrt(np.asarray(rate) * (1 - np.asarray(rate)) / n)


def near(rate, theory, n, k=4):
    """Within k binomial standard errors of ``theory`` (at least one count, for rates near 0)."""
    return np.all(np.abs(np.asarray(rate) - theory) <= k * np.maximum(se(theory, n), 1 / n))


@pytest.fixture(scope="module")
def defaults():
    """Every simulation at its defaults, as the page runs it (about 4 s in all)."""
    return {test: simulation() for test, simulation in tg.SIMULATIONS.items()}


# ---------------------------------------------------------------- the guides


def test_every_test_has_a_guide_a_question_a_simulation_and_a_figure():
    assert list(tg.GUIDES) == list(TESTS)
    assert set(tg.SIMULATIONS) == set(tg.QUESTIONS) == set(tf.FIGURES) == set(TESTS)


@pytest.mark.parametrize("test", list(TESTS))
def test_guide_fields_are_filled_in_plain_unicode_with_valid_citations(test):
    g = tg.GUIDES[test]
    assert g.test == test and g.title == TESTS[test].title
    for text in (g.summary, g.assumptions, g.formula, g.misleads):
        assert isinstance(text, str) and text.strip()
        assert not re.search(r"[$\\~*_]{2}|\$|\\[a-z]|~", text.replace("s_d", ""))  # no LaTeX, no Markdown marks
    assert 2 <= len(re.findall(r"\.(?=\s+[A-Z]|$)", g.summary)) <= 3  # 2–3 sentences
    assert "H0" in g.summary or "δ(x)" in g.summary  # in SLP3's terms
    assert g.cite and all(key in WORKS for key in g.cite)


def test_formulas_are_the_ones_the_engine_computes():
    assert tg.GUIDES["bootstrap"].formula == "p = #{δ(x⁽ⁱ⁾) ≥ 2·δ(x)} / b"  # SLP3 eq. 4.48
    assert tg.GUIDES["t"].formula.startswith("t = d̄ / (s_d / √n)")
    assert tg.GUIDES["mcnemar"].formula.startswith("McNemar: exact binomial on n10 of n10 + n01")
    assert "2ⁿ′ ≤ b" in tg.GUIDES["permutation"].formula


# ---------------------------------------------------------------- the vectorised p equal the engine's


def _engine(test, d):
    return np.array([sigcore.compare(None, row, np.zeros(len(row)), metric="mean", test=test, ci_method=None,
                                     alternative="greater").p_value
                     for row in d])


def test_vectorised_closed_form_p_values_equal_compare():
    rng = np.random.default_rng(1)
    d = rng.normal(0.2, 1, size=(15, 30))
    assert np.array_equal(tg.t_p(d), _engine("t", d))
    assert np.array_equal(tg.signed_rank_p(d), _engine("wilcoxon", d))
    assert np.array_equal(tg.binomial_p((d > 0).sum(1), (d < 0).sum(1)), _engine("sign", d))
    d = rng.normal(0.2, 1, size=(15, 60))  # compare() takes the z-test from 50 items
    assert np.array_equal(tg.z_p(d), _engine("z", d))
    a, b = rng.integers(0, 2, size=(2, 15, 40))
    mcnemar = [sigcore.compare([1] * 40, x, y, test="mcnemar", alternative="greater").p_value for x, y in zip(a, b)]
    assert np.allclose(tg.binomial_p((a > b).sum(1), (a < b).sum(1)), mcnemar, rtol=1e-12, atol=0)


def test_vectorised_signed_rank_p_takes_ties_and_zeros_as_the_engine_does():
    """Differences of one-decimal scores: zeros, ties, and sizes equal but for the last bit (0.7 - 0.4, 0.4 - 0.1),
    which the one tie rule makes one midrank: the rows that have them are the engine's p, the others too."""
    rng = np.random.default_rng(3)
    d = np.round(rng.uniform(0, 1, size=(15, 20)), 1) - np.round(rng.uniform(0, 1, size=(15, 20)), 1)
    gaps = np.diff(np.sort(np.abs(d), axis=1), axis=1)
    assert np.any(d == 0) and np.any((gaps > 0) & (gaps < 1e-15))  # zeros, and sizes apart by float noise only
    assert np.array_equal(tg.signed_rank_p(d), _engine("wilcoxon", d))


def test_bootstrap_p_is_compare_on_the_counts_and_b_ahead_is_never_significant():
    a, b = np.ones(100, dtype=int), np.ones(100, dtype=int)
    b[:4] = 0
    assert tg.bootstrap_p(4, 0) == sigcore.compare([1] * 100, a, b, test="bootstrap", alternative="greater").p_value
    # the simulation skips n10 <= n01: B ahead or level, so most x^(i) count and p > alpha
    skipped = [tg.bootstrap_p(w, k - w) for k in range(1, 31) for w in range(k // 2 + 1)]
    assert min(skipped) > 0.4


# ---------------------------------------------------------------- the simulations


def _mcnemar_exact_rate(k, alpha=ALPHA):
    """P(McNemar's exact p ≤ α | k discordant pairs, H0), by enumeration with scipy.stats.binom."""
    w = np.arange(k + 1)
    return stats.binom.pmf(w, k, 0.5)[stats.binom.sf(w - 1, k, 0.5) <= alpha].sum()


def test_mcnemar_exact_type_one_error_is_at_most_alpha_by_enumeration(defaults):
    res = defaults["bootstrap"]
    exact = np.array([_mcnemar_exact_rate(k) for k in res.x])
    assert np.all(exact <= ALPHA) and exact.max() > 0.04
    assert near(res.rate("McNemar's exact test"), exact, res.sims["McNemar's exact test"])


def test_the_bootstraps_type_one_error_above_alpha_with_few_discordant_pairs_is_real(defaults):
    res = defaults["bootstrap"]
    boot = "paired bootstrap"
    # the same rate by enumeration: every n10 weighed by its binomial probability, each with compare's p
    exact = np.array([sum(stats.binom.pmf(w, k, 0.5) for w in range(k + 1)
                          if w > k - w and tg.bootstrap_p(w, k - w) <= ALPHA) for k in res.x])
    assert near(res.rate(boot), exact, res.sims[boot])
    low, _ = res.interval(boot)
    above = res.x[low > ALPHA]
    assert 4 in above and len(above) >= 3  # not noise: the whole 95% interval lies above α
    assert exact[res.x == 4][0] == 1 / 16  # all 4 pairs to A: p = 0.049 by the bootstrap, 1/16 by McNemar
    only_a = np.ones(100), np.r_[np.zeros(4), np.ones(96)]  # A alone right on 4 items
    assert exact_bootstrap_p(*only_a) <= ALPHA < stats.binom.sf(3, 4, 0.5)  # b → ∞ too
    assert np.all(res.interval("McNemar's exact test")[0] <= ALPHA)


def test_t_test_on_skewed_differences_rejects_too_often_and_permutation_does_not_fix_it(defaults):
    res = defaults["t"]
    skewed, normal, permutation = res.series
    assert near(res.rate(normal), ALPHA, res.sims[normal])  # normal d: t is exact
    low, _ = res.interval(skewed)
    assert np.all(low > ALPHA) and res.rate(skewed)[1] > 2 * ALPHA  # 13% at n = 10
    assert res.rate(skewed)[0] > res.rate(skewed)[-1]  # the central limit theorem, slowly
    assert res.interval(permutation)[0][1] > ALPHA  # at n = 10 the permutation test rejects too often as well
    assert list(res.x) == [5, 10, 20, 50, 100, 200] and res.sims[permutation][0] == 150


def test_z_test_type_one_error_is_the_exact_student_t_tail(defaults):
    res = defaults["z"]
    exact = stats.t.sf(stats.norm.ppf(1 - ALPHA), res.x - 1)  # the normal critical value against t(n − 1)
    assert np.allclose(res.exact, exact)
    assert near(res.rate("z-test"), exact, res.sims["z-test"])
    assert near(res.rate("paired t-test"), ALPHA, res.sims["paired t-test"])
    assert res.interval("z-test")[0][0] > ALPHA and exact[0] == pytest.approx(0.0877, abs=1e-4)


def test_permutation_test_is_exact_up_to_2_to_the_n_at_most_b_and_blind_below_one_over_alpha(defaults):
    res = defaults["permutation"]
    null, power = res.series
    assert np.array_equal(res.exact, 2 ** res.x <= res.n_resamples)
    assert np.allclose(res.floor, np.where(res.exact, 0.5 ** res.x, 1 / (res.n_resamples + 1)))
    blind = 0.5 ** res.x > ALPHA  # n′ ≤ 4: no test set can reach p ≤ α
    assert np.all(res.hits[null][blind] == 0) and np.all(res.hits[power][blind] == 0)
    exact_size = np.floor(ALPHA * 2.0 ** res.x) / 2.0 ** res.x  # continuous d: P(p ≤ α) of the exact test
    assert near(res.rate(null)[res.exact], exact_size[res.exact], res.sims[null][0])
    assert near(res.rate(null)[~res.exact], ALPHA, res.sims[null][0])
    assert res.rate(power)[-1] > 0.8


def test_wilcoxon_keeps_power_that_outliers_take_from_the_t_test(defaults):
    res = defaults["wilcoxon"]
    wilcoxon, t = res.series
    noncentral = stats.nct.sf(stats.t.isf(ALPHA, res.n - 1), res.n - 1, res.shift * math.sqrt(res.n))
    assert near(res.rate(t)[0], noncentral, res.sims[t][0])  # no outliers: the t-test's power from its formula
    assert res.interval(wilcoxon)[0][-1] > res.interval(t)[1][-1]  # 30% outliers: apart beyond noise


def test_sign_test_has_less_power_than_wilcoxon_and_its_exact_binomial_power(defaults):
    res = defaults["sign"]
    sign, wilcoxon = res.series
    exact = []
    for n in res.x:  # the fewest wins with P(Bin(n, ½) ≥ wins) ≤ α, then their chance when P(d > 0) = Φ(shift)
        c = next(w for w in range(n + 2) if stats.binom.sf(w - 1, n, 0.5) <= ALPHA)
        exact.append(stats.binom.sf(c - 1, n, stats.norm.cdf(res.shift)))
    assert np.allclose(res.exact, exact) and near(res.rate(sign), exact, res.sims[sign])
    assert np.all(res.rate(sign) <= res.rate(wilcoxon))
    assert np.all(res.interval(sign)[1][1:] < res.interval(wilcoxon)[0][1:])  # beyond n = 5, where both need 5 of 5


def test_mcnemar_rejects_too_often_on_documents_and_swapping_documents_keeps_alpha(defaults):
    res = defaults["mcnemar"]
    mcnemar, permutation = res.series
    n = res.documents * res.sentences
    discordant = stats.binom.pmf(np.arange(n + 1), n, res.discordance)  # ρ = 0: independent items
    independent = sum(p * _mcnemar_exact_rate(k) for k, p in enumerate(discordant) if p > 1e-12)
    assert res.x[0] == 0 and near(res.rate(mcnemar)[0], independent, res.sims[mcnemar][0])
    assert np.all(np.diff(res.rate(mcnemar)) > 0) and res.interval(mcnemar)[0][-1] > 3 * ALPHA
    assert np.all(res.rate(permutation) <= ALPHA + 4 * se(ALPHA, res.sims[permutation]))


SMALL = {
    "bootstrap": dict(k_max=8, n_sims=300),
    "permutation": dict(sizes=(3, 6, 10), n_sims=20),
    "t": dict(sizes=(5, 20), n_sims=500, n_sims_permutation=20),
    "z": dict(sizes=(5, 20), n_sims=500),
    "wilcoxon": dict(shares=(0.0, 0.2), n_sims=300),
    "sign": dict(sizes=(10, 20), n_sims=300),
    "mcnemar": dict(correlations=(0.0, 0.3), documents=10, sentences=5, n_sims=300, n_sims_permutation=10),
}


@pytest.fixture(scope="module")
def small():
    return {test: tg.SIMULATIONS[test](**settings, seed=3) for test, settings in SMALL.items()}


@pytest.mark.parametrize("test", list(SMALL))
def test_same_seed_same_numbers(test, small):
    again, other = (tg.SIMULATIONS[test](**SMALL[test], seed=seed) for seed in (3, 4))
    first = small[test]
    assert all(np.array_equal(first.hits[name], again.hits[name]) for name in first.series)
    assert not all(np.array_equal(first.hits[name], other.hits[name]) for name in first.series)


@pytest.mark.parametrize("call, message", [
    (lambda: tg.few_discordant_pairs(alpha=1.5), "`alpha` must be a number strictly between 0 and 1, not 1.5"),
    (lambda: tg.few_discordant_pairs(k_max=200), "cannot exceed the 100 items"),
    (lambda: tg.small_sample_z(sizes=(1, 5)), "each at least 2"),
    (lambda: tg.exact_permutation(n_sims=0), "`n_sims` must be a positive integer"),
    (lambda: tg.heavy_tails(n=80), "at most 50"),
    (lambda: tg.sign_power(sizes=(10, 60)), "at most 50 items"),
    (lambda: tg.clustered_items(correlations=(0.0, 1.0)), "1 excluded"),
])
def test_bad_settings_are_refused(call, message):
    with pytest.raises(SettingsError, match=message):
        call()


# ---------------------------------------------------------------- the figures


@pytest.mark.parametrize("test", list(SMALL))
def test_figures_draw_the_rates_and_their_intervals_exactly(test, small):
    res = small[test]
    fig = tf.FIGURES[test](res)
    traces = {t.name: t for t in fig.data}
    for name in res.series:
        trace, (low, high) = traces[name], res.interval(name)
        assert np.array_equal(trace.x, res.x) and np.array_equal(trace.y, res.rate(name))
        assert np.allclose(trace.error_y.array, high - res.rate(name))
        assert np.allclose(trace.error_y.arrayminus, res.rate(name) - low)
    if hasattr(res, "exact") and res.exact.dtype.kind == "f":  # the exact rate, drawn as a line
        assert np.array_equal(traces[res.extra["exact"]].y, res.exact)
    lines = [s.y0 for s in fig.layout.shapes if s.type == "line"]
    assert lines == ([ALPHA] if res.null else [])  # α where the rates are type I errors
    assert fig.layout.xaxis.title.text == res.x_name and fig.layout.yaxis.title.text
    assert "$" not in fig.to_json() and fig.layout.title.text and fig.layout.font.color == "black"


def test_figure_titles_carry_the_numbers(defaults):
    res = defaults["z"]
    assert f"{res.rate('z-test')[0]:.1%} at n = 5" in tf.small_sample_z(res).layout.title.text
    res = defaults["bootstrap"]
    above = int(np.sum(res.interval("paired bootstrap")[0] > ALPHA))
    title = tf.few_discordant_pairs(res).layout.title.text
    assert f"at {above} of the 30 values of k, McNemar's exact test at 0" in title
    res = defaults["permutation"]
    fig = tf.exact_permutation(res)
    assert "(n′ ≤ 9)" in fig.layout.title.text and "n′ ≤ 4 it can never reject" in fig.layout.title.text
    assert fig.layout.shapes[-1].x1 == 4.5  # the shaded sizes where p cannot reach α


# ---------------------------------------------------------------- the page


def _array(value):
    """A Plotly JSON array: a list, or a typed array {dtype, bdata}."""
    if isinstance(value, dict):
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
    return np.asarray(value)


@pytest.mark.slow
def test_the_page_runs_each_simulation_and_shows_the_engines_numbers(defaults):
    at = AppTest.from_file(str(ROOT / "app_pages" / "which_test.py"), default_timeout=60).run()
    assert not at.exception and not at.error
    assert at.title[0].value == "Which test?" and "Dror et al. (2018)" in at.markdown[0].value
    assert at.selectbox(key="which-test").options == [f"{TESTS[t].title} ({t})" for t in TESTS]
    assert not at.get("plotly_chart")  # nothing runs before it is asked for
    for test in TESTS:
        at.selectbox(key="which-test").set_value(test).run()
        g = tg.GUIDES[test]
        assert [c.value for c in at.code] == [g.formula]
        shown = "\n".join(m.value for m in at.markdown)
        assert g.summary in shown and g.misleads in shown and tg.QUESTIONS[test] in shown
        at.button(key=f"which-test-run-{test}").click().run()
        assert not at.exception and not at.error
        res = defaults[test]
        pd.testing.assert_frame_equal(at.dataframe[0].value, pd.DataFrame(res.table()))
        (chart,) = at.get("plotly_chart")
        traces = {t["name"]: t for t in json.loads(chart.proto.spec)["data"]}
        for name in res.series:
            assert np.array_equal(_array(traces[name]["y"]), res.rate(name))
    at.selectbox(key="which-test").set_value("bootstrap").run()  # a simulation once run stays on the page
    assert len(at.get("plotly_chart")) == 1 and not at.exception
