"""Two systems over several seeds: one run each is sigcore.compare exactly; the seeds' variance widens δ's
interval; false alarms stay near α when A and B are the same system; the sentence names the systems and agrees
with the decision, the side and the interval (read back from it over many random cases)."""

import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sigcore
from sigcore import SettingsError
from sigcore.report import seeds as seeds_words
from sigcore.report.sentence import number
from sigcore.result import on_side
from sigcore.seeds import compare_seeds
from sigcore.statistics.intervals import largest_count


def _runs(n=300, runs=4, accuracy=(0.70, 0.70), spread=0.0, seed=0):
    """Runs whose accuracy moves by ±spread from seed to seed."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    out = []
    for acc in accuracy:
        out.append([np.where(rng.uniform(size=n) < acc + rng.uniform(-spread, spread), gold, 1 - gold)
                    for _ in range(runs)])
    return gold, out[0], out[1]


@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
@pytest.mark.parametrize("alternative", ["greater", "two-sided", "less"])
def test_one_run_each_is_compare_exactly(metric, alternative):
    gold, a, b = _runs(runs=1, accuracy=(0.74, 0.70), seed=1)
    res = compare_seeds(gold, a, b, metric=metric, alternative=alternative, n_resamples=3000, seed=4)
    one = sigcore.compare(gold, a[0], b[0], metric=metric, test="bootstrap", alternative=alternative,
                          n_resamples=3000, seed=4)
    assert (res.p_value, res.n_extreme, res.delta) == (one.p_value, one.n_extreme, one.delta)
    assert (res.ci_low, res.ci_high) == (one.ci_low, one.ci_high)
    np.testing.assert_array_equal(res.distribution, one.distribution)


def test_seed_variance_widens_the_interval_and_the_items_interval_does_not_see_it():
    gold, a, b = _runs(n=2000, runs=5, accuracy=(0.72, 0.70), spread=0.06, seed=2)
    res = compare_seeds(gold, a, b, alternative="two-sided", n_resamples=4000)
    assert res.score_a == pytest.approx(np.mean([np.mean(np.asarray(r) == gold) for r in a]))
    width, items = res.ci_high - res.ci_low, res.ci_items[1] - res.ci_items[0]
    assert width > 1.5 * items  # seeds that move by ±6 points add more than the 2,000 items do
    same = compare_seeds(gold, [a[0]] * 5, [b[0]] * 5, alternative="two-sided", n_resamples=4000)  # seeds agree
    assert (same.ci_low, same.ci_high) == pytest.approx(same.ci_items, abs=1e-12)  # then they add nothing


@pytest.mark.slow
def test_false_alarms_stay_near_alpha_when_a_and_b_are_the_same_system():
    """A and B: the same training procedure (same accuracy, seeds that move by ±5 points); one-sided α = .05.
    Ignoring seeds (one run each) rejects far more often; resampling the runs keeps it near α."""
    rejected, naive = 0, 0
    sims = 200
    for s in range(sims):
        gold, a, b = _runs(n=400, runs=3, accuracy=(0.7, 0.7), spread=0.05, seed=100 + s)
        rejected += compare_seeds(gold, a, b, n_resamples=500, seed=s, alternative="greater").significant
        naive += sigcore.compare(gold, a[0], b[0], test="bootstrap", alternative="greater", n_resamples=500,
                                 seed=s).significant
    se = np.sqrt(0.05 * 0.95 / sims)
    assert rejected / sims <= 0.05 + 3 * se, rejected
    assert naive / sims > rejected / sims


def test_the_defaults_are_two_sided_b_10000_alpha_005_and_one_run_each_is_compare_two_sided():
    gold, a, b = _runs(runs=1, accuracy=(0.74, 0.70), seed=1)
    res = compare_seeds(gold, a, b)
    assert (res.alternative, res.n_resamples, res.alpha, res.seed) == ("two-sided", 10_000, 0.05, 0)
    one = sigcore.compare(gold, a[0], b[0], test="bootstrap", alternative="two-sided", seed=0)
    assert (res.p_value, res.n_extreme, res.delta, res.ci_low, res.ci_high) == \
        (one.p_value, one.n_extreme, one.delta, one.ci_low, one.ci_high)
    assert res.p_text == one.p_text and res.significant == one.significant


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_sided_p_and_interval_from_the_distribution_by_hand(seed):
    """SLP3's two-sided rule by hand on δ's resampled values: p counts |δ(x⁽ⁱ⁾) − δ| ≥ |δ| up to float noise (for
    δ > 0: the "greater" count, δ(x⁽ⁱ⁾) ≥ 2δ, plus δ(x⁽ⁱ⁾) ≤ 0); the basic interval is δ ± the (b − k)-th
    smallest |δ(x⁽ⁱ⁾) − δ|, k the most extreme resamples p ≤ α allows."""
    gold, a, b = _runs(n=500, runs=3, accuracy=(0.73, 0.70), spread=0.02, seed=10 + seed)
    res = compare_seeds(gold, a, b, n_resamples=4000, seed=seed)
    greater = compare_seeds(gold, a, b, n_resamples=4000, seed=seed, alternative="greater")
    d, delta = res.distribution, res.delta
    np.testing.assert_array_equal(d, greater.distribution)  # the resamples do not depend on H1
    tol = 1e-9 * max(res.score_a, res.score_b)  # float noise counts as a tie: resamples on the boundary count
    count = int(np.sum(np.abs(d - delta) >= abs(delta) - tol))
    assert res.n_extreme == count and res.p_value == max(count, 1) / 4000
    if delta > 0:
        assert count == greater.n_extreme + int(np.sum(d <= tol))
    c = np.sort(np.abs(d - delta))[4000 - largest_count(0.05, 4000) - 1]
    assert (res.ci_low, res.ci_high) == pytest.approx((delta - c, delta + c), abs=1e-15)
    assert (res.ci_low > 0 or res.ci_high < 0) == res.significant  # the test's dual


def test_the_sentence_agrees_with_the_decision():
    gold, a, b = _runs(n=1500, runs=3, accuracy=(0.78, 0.70), spread=0.01, seed=3)
    res = compare_seeds(gold, a, b, n_resamples=2000)
    text = seeds_words.sentence(res)
    assert res.significant and "significant at α = 0.05" in text and "3 runs of A" in text


def test_the_sentence_names_the_systems_like_the_pair_verdict():
    gold, a, b = _runs(n=1500, runs=3, accuracy=(0.70, 0.78), spread=0.01, seed=3)
    res = compare_seeds(gold, a, b, n_resamples=2000)
    text = seeds_words.sentence(res, a="mlp", b="forest")
    scale = max(res.score_a, res.score_b)
    assert text.startswith(f"forest beats mlp by {number(-res.delta, scale)} accuracy, mean over 3 runs of mlp and "
                           f"3 of forest on 1,500 items (95% CI {number(-res.ci_high, scale)} to "
                           f"{number(-res.ci_low, scale)} with the seeds' variance, ")
    assert "from the items alone); p < 0.0005 (two-sided), paired bootstrap over items and runs, b = 2,000, seed 0: " \
           "significant at α = 0.05." in text
    assert " A " not in text and " B " not in text and "greater" not in text
    less = seeds_words.sentence(compare_seeds(gold, a, b, n_resamples=2000, alternative="less"), a="mlp", b="forest")
    assert less.startswith("forest beats mlp by") and "(one-sided 95% bound: at least " in less
    assert "(one-sided)" in less
    worse = seeds_words.sentence(compare_seeds(gold, a, b, n_resamples=2000, alternative="greater"), a="mlp",
                                 b="forest")
    assert worse.startswith(f"No significant evidence that mlp is better than forest: δ = {number(res.delta, scale)} "
                            "accuracy") and "bound: δ ≥ " in worse and worse.endswith("not significant at α = 0.05.")


def test_the_sentence_when_they_do_not_differ_and_when_b_cannot_reach_alpha():
    gold, a, b = _runs(n=300, runs=2, seed=4)
    same = compare_seeds(gold, a, a, n_resamples=500)
    assert seeds_words.sentence(same, a="x", b="y").startswith("x and y do not differ: "
                                                               "δ = 0 accuracy, mean over 2 runs of x")
    small = compare_seeds(gold, a, b, n_resamples=10, alpha=0.05)
    text = seeds_words.sentence(small)
    assert "CI" not in text and "bound" not in text  # no interval at 95% from 10 resamples
    assert text.endswith("not significant: this test cannot reach α = 0.05 (the smallest p with b = 10 is 0.1; "
                         "b ≥ 20 could reach it, 10,000 is usual).")
    one = seeds_words.sentence(compare_seeds(gold, a[:1], b[:1], n_resamples=500))
    assert "mean over 1 run of A and 1 of B" in one and "seeds' variance" not in one  # one interval: no seeds


# ---------------------------------------------------------------- the sentence read back

NAMES = ["A", "B", "mlp", "forest", "System 1", "sgd (lr=0.1)", "x*y", "ünïcode"]
_NUM = r"-?(?:\d[\d,]*\.?\d*(?:e[-+]\d+)?)"


def _read(text: str, a: str, b: str) -> dict:
    """What the sentence says: who wins, the side, the interval, p, b, seed and the decision."""
    names = "|".join(map(re.escape, (a, b)))
    effect = (rf"(?:(?P<winner>{names}) beats (?P<loser>{names}) by (?P<margin>{_NUM})"
              rf"|No significant evidence that (?P<h1>.+?): δ = (?P<delta>{_NUM})"
              rf"|(?P<same_a>{names}) and (?P<same_b>{names}) do not differ: δ = 0)")
    pattern = (rf"^{effect} accuracy, mean over (?P<ka>\d+) runs? of {re.escape(a)} and (?P<kb>\d+) of "
               rf"{re.escape(b)} on (?P<n>[\d,]+) items?(?: \((?P<interval>[^;]*)\))?; "
               rf"p (?P<p_rel>[=<]) (?P<p>{_NUM}) \((?P<sided>one-sided|two-sided)\), paired bootstrap over items "
               rf"and runs, b = (?P<b>[\d,]+), seed (?P<seed>\d+): (?P<decision>significant|not significant)"
               rf"(?: at α = (?P<alpha>\d+(?:\.\d+)?))?")
    m = re.match(pattern, text)
    assert m, text
    return m.groupdict()


def _interval(text: str) -> dict:
    """The interval with the seeds' variance as printed: its level and side, and its ends (None where open)."""
    first = text.split(" with the seeds' variance")[0].split(" from the items alone")[0]
    m = re.match(rf"^(?P<level>[\d.]+)% CI (?P<low>{_NUM}) to (?P<high>{_NUM})$", first)
    if m:
        return {"level": m["level"], "side": "two-sided", "low": float(m["low"]), "high": float(m["high"])}
    m = re.match(rf"^one-sided (?P<level>[\d.]+)% bound: (?:at least (?P<least>{_NUM})|δ (?P<op>[≥≤]) "
                 rf"(?P<bound>{_NUM}))$", first)
    assert m, text
    if m["least"] is not None:
        return {"level": m["level"], "side": "winner", "low": float(m["least"]), "high": None}
    value = float(m["bound"])
    return {"level": m["level"], "side": "lower" if m["op"] == "≥" else "upper",
            "low": value if m["op"] == "≥" else None, "high": value if m["op"] == "≤" else None}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.sampled_from([1, 3, 40, 300, 1000]) | st.integers(1, 500), k_a=st.integers(1, 4), k_b=st.integers(1, 4),
       acc_a=st.floats(0.3, 0.95), gap=st.sampled_from([0.0, 0.005, 0.02, 0.05, 0.1, 0.25, -0.02, -0.05, -0.1, -0.25]),
       spread=st.sampled_from([0.0, 0.02, 0.1]), same=st.sampled_from([False, False, False, True]),
       alternative=st.sampled_from(["two-sided", "greater", "less"]), alpha=st.sampled_from([0.1, 0.05, 0.01, 0.005]),
       b=st.sampled_from([10, 50, 199, 1000, 2000]), seed=st.integers(0, 2**31 - 1),
       names=st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True), data_seed=st.integers(0, 10**6))
def test_the_sentence_reads_back_as_the_result(n, k_a, k_b, acc_a, gap, spread, same, alternative, alpha, b, seed,
                                                names, data_seed):
    """Winner, side, interval, p, b, seed and decision, read from the sentence, agree with the result: "X beats Y"
    exactly when significant, X the one ahead; "No significant evidence that <H1>" with H1 in the names and on
    the test's side; "do not differ" exactly when δ = 0; the interval excludes 0 exactly when significant."""
    acc_b = min(max(acc_a - gap, 0.05), 0.99)
    gold, runs_a, runs_b = _runs(n=n, runs=max(k_a, k_b), accuracy=(acc_a, acc_b), spread=spread, seed=data_seed)
    runs_a, runs_b = runs_a[:k_a], (runs_a if same else runs_b)[:k_b]  # same: B's runs are A's, δ can be 0
    res = compare_seeds(gold, runs_a, runs_b, alternative=alternative, alpha=alpha, n_resamples=b, seed=seed)
    _reads_back(res, *names)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("gap", [0.12, -0.12, 0.01, 0.0])
def test_the_sentence_reads_back_on_every_side_and_outcome(alternative, gap):
    """The same reading where the random cases are rare: each H1 with A far ahead, B far ahead, close, and B's
    runs A's own (δ = 0)."""
    gold, runs_a, runs_b = _runs(n=600, runs=3, accuracy=(0.75, 0.75 - gap), spread=0.01, seed=7)
    res = compare_seeds(gold, runs_a, runs_a if gap == 0 else runs_b, alternative=alternative, n_resamples=2000)
    _reads_back(res, "mlp", "forest")
    if abs(gap) > 0.1:
        assert res.significant == on_side(alternative, int(np.sign(gap)))


def _reads_back(res, a: str, b_name: str) -> None:
    text = seeds_words.sentence(res, a=a, b=b_name)
    got = _read(text, a, b_name)
    scale = max(abs(res.score_a), abs(res.score_b))
    alternative, alpha, b = res.alternative, res.alpha, res.n_resamples

    assert (int(got["ka"]), int(got["kb"]), int(got["n"].replace(",", ""))) == \
        (len(res.scores_a), len(res.scores_b), res.n_items)
    assert (int(got["b"].replace(",", "")), int(got["seed"])) == (b, res.seed)
    assert got["sided"] == ("two-sided" if alternative == "two-sided" else "one-sided")
    assert (got["decision"] == "significant") == res.significant
    assert got["alpha"] is None or float(got["alpha"]) == alpha
    # p: "p < 1/b" exactly when no resample was extreme; the printed p sits on p's side of α
    assert (got["p_rel"] == "<") == (res.n_extreme == 0)
    if got["p_rel"] == "=":
        assert (float(got["p"]) <= alpha) == (res.p_value <= alpha)
        assert float(got["p"]) == pytest.approx(res.p_value, rel=0.01, abs=1e-4)
    # the effect: who wins, by how much
    if got["winner"] is not None:
        assert res.significant and res.side != 0
        assert (got["winner"], got["loser"]) == ((a, b_name) if res.delta > 0 else (b_name, a))
        assert got["margin"] == number(abs(res.delta), scale)
    elif got["h1"] is not None:
        assert not res.significant and res.side != 0
        assert got["h1"] == {"greater": f"{a} is better than {b_name}", "less": f"{b_name} is better than {a}",
                             "two-sided": f"{a} and {b_name} differ"}[alternative]
        assert got["delta"] == number(res.delta, scale)
    else:
        assert res.side == 0 and not res.significant and (got["same_a"], got["same_b"]) == (a, b_name)
    # the interval: on the test's side, at 1 - α, excluding 0 exactly when significant
    reachable = largest_count(alpha, b) > 0
    assert (got["interval"] is not None) == reachable, text
    if got["interval"] is None:
        return
    shown = _interval(got["interval"])
    assert float(shown["level"]) == pytest.approx((1 - alpha) * 100)
    if alternative == "two-sided":
        assert shown["side"] == "two-sided"
        flip = res.significant and res.delta < 0
        low, high = (-res.ci_high, -res.ci_low) if flip else (res.ci_low, res.ci_high)
        assert (shown["low"], shown["high"]) == (float(number(low, scale)), float(number(high, scale)))
        assert (shown["low"] > 0 if res.significant else shown["low"] <= 0 <= shown["high"])
    elif res.significant:
        assert shown["side"] == "winner" and shown["low"] > 0
        assert shown["low"] == float(number(res.ci_low if alternative == "greater" else -res.ci_high, scale))
    else:
        assert shown["side"] == ("lower" if alternative == "greater" else "upper")
        if alternative == "greater":
            assert shown["low"] == float(number(res.ci_low, scale)) and shown["low"] <= 0
        else:
            assert shown["high"] == float(number(res.ci_high, scale)) and shown["high"] >= 0
    if res.significant:  # the interval with the seeds' variance is the test's dual
        assert res.ci_low > 0 or res.ci_high < 0
    else:
        assert res.ci_low <= 0 <= res.ci_high
    assert math.isfinite(res.ci_items[0]) or math.isfinite(res.ci_items[1])


def test_bad_input_is_refused():
    gold, a, b = _runs(runs=2)
    with pytest.raises(SettingsError, match="list of runs"):
        compare_seeds(gold, [], b)
    with pytest.raises(SettingsError, match="list of runs"):
        compare_seeds(gold, ["abc"], b)


# ---------------------------------------------------------------- the Many page's seed mode: names and settings


def test_the_page_names_the_systems_and_every_download_states_its_settings():
    from sigcore.statistics.aso import multi_aso
    from ui import seeds as page

    assert page.names_of(["mlp_seed0", "mlp_seed1"], ["forest-1", "forest-2"]) == ("mlp", "forest")
    assert page.names_of(["mlp_seed0", "sgd_seed1"], ["forest_seed0"]) == ("A", "B")  # A's runs: two systems
    assert page.names_of(["mlp_seed0"], ["mlp_seed1"]) == ("A", "B")  # one system on both sides
    s = page.RunsSettings(("mlp_seed0", "mlp_seed1"), ("forest_seed0", "forest_seed1"))
    assert (s.alternative, s.n_resamples, s.alpha, s.seed) == ("two-sided", 10_000, 0.05, 0)
    assert page.AsoSettings().n_bootstrap == 10_000
    assert s.used() == "H1: mlp and forest differ (two-sided), b = 10,000, seed 0, α = 0.05"

    gold, a, b = _runs(n=200, runs=2, accuracy=(0.8, 0.7), seed=5)
    res = compare_seeds(gold, a, b, n_resamples=s.n_resamples)
    frame = page.runs_csv_frame(res, s)
    assert list(frame["system"]) == ["mlp", "mlp", "forest", "forest"]
    assert frame[["h1", "alternative", "n_resamples", "seed", "alpha"]].drop_duplicates().values.tolist() == \
        [["mlp and forest differ", "two-sided", 10_000, 0, 0.05]]

    table = multi_aso({"mlp": [0.97, 0.98, 0.975], "forest": [0.96, 0.97, 0.965], "sgd": [0.94, 0.95, 0.945]}, seed=3)
    pairs = page.pairs_frame(table, 0.2)
    assert len(pairs) == 6 and not (pairs["better"] == pairs["than"]).any()  # no system against itself
    assert pairs[["tau", "bonferroni_pairs", "n_bootstrap", "seed"]].drop_duplicates().values.tolist() == \
        [[0.2, 3, 10_000, 3]]
    assert page.aso_used(table) == (f"confidence {table.attrs['confidence_level']:.4g} (Bonferroni over the 3 "
                                    "pairs), b = 10,000, seed 3")
    assert np.isnan(page.matrix_frame(table).loc["mlp", "mlp"])
