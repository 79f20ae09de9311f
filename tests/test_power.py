"""Planning: power and sample size from a pilot, against closed forms, enumeration and the engine itself."""

import math

import numpy as np
import pytest
import scipy.stats
from statsmodels.stats.power import TTestPower

import sigcore
from sigcore import InputError, SettingsError, teaching
from sigcore.power import Plan, Power, plan, plan_from_rates, power_at


def normal_pilot(size: int, d_z: float, seed: int = 0):
    """A pilot whose per-item differences are ``size`` normal quantiles, mean d_z and sd 1 exactly."""
    q = scipy.stats.norm.ppf((np.arange(size) + 0.5) / size)
    d = (q - q.mean()) / q.std() + d_z
    a = np.random.default_rng(seed).normal(50, 10, size)  # B's own scores do not matter, only the differences
    return a, a - d


def skewed_pilot(effect: float = 0.02, size: int = 400, seed: int = 1):
    """Per-item scores whose differences are skewed, with most items tied (the systems agree on them), and whose
    mean difference is ``effect``."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 1, size)
    moving = rng.random(size) < 0.4
    g = rng.gamma(0.7, 0.25, size)
    d = np.where(moving, g - g[moving].mean() + effect * size / moving.sum(), 0.0)
    return a, a - d


def engine_power(a, b, n: int, test: str, sims: int, alternative: str = "greater", seed: int = 0) -> float:
    """The share of test sets drawn from the pilot on which sigcore.compare itself rejects at 0.05."""
    rng = np.random.default_rng([seed, 99])
    binary = set(np.unique(np.r_[a, b])) <= {0, 1}
    hits = 0
    for i in range(sims):
        idx = rng.integers(0, len(a), n)
        res = sigcore.compare([1] * n if binary else None, a[idx], b[idx], metric="accuracy" if binary else "mean",
                              test=test, n_resamples=1_000, alternative=alternative, seed=i, ci_method=None)
        hits += res.p_value <= 0.05
    return hits / sims


def cells_pilot(n: int, only_a: int, only_b: int, both: int):
    """Right/wrong items with these counts of (only A right, only B right, both right); the rest both wrong."""
    a = [1] * only_a + [0] * only_b + [1] * both + [0] * (n - only_a - only_b - both)
    b = [0] * only_a + [1] * only_b + [1] * both + [0] * (n - only_a - only_b - both)
    return np.array(a), np.array(b)


# --- against closed forms and enumeration -----------------------------------------------------------------------

@pytest.mark.parametrize("n, d_z, alternative", [(30, 0.35, "greater"), (120, 0.2, "greater"),
                                                 (400, 0.12, "greater"), (120, 0.25, "two-sided")])
def test_t_power_matches_the_noncentral_t_for_normal_differences(n, d_z, alternative):
    a, b = normal_pilot(4_000, d_z)
    p = power_at(a, b, n, test="t", alternative=alternative, n_sims=2_000, seed=1)
    closed = TTestPower().power(effect_size=d_z, nobs=n, alpha=0.05,
                                alternative="larger" if alternative == "greater" else "two-sided")
    assert not p.exact and p.low <= p.power <= p.high
    assert abs(p.power - closed) <= 3 * p.mc_error + 0.01  # + 0.01: the pilot's 4,000 quantiles, not a normal


def mcnemar_power_by_enumeration(n, only_a, only_b, alpha, alternative):
    """Every test set as its counts (x only A right, y only B right), with scipy's binomial test."""
    total = 0.0
    for x in range(n + 1):
        for y in range(n + 1 - x):
            if x + y and scipy.stats.binomtest(x, x + y, 0.5, alternative=alternative).pvalue <= alpha:
                total += scipy.stats.multinomial.pmf([x, y, n - x - y], n, [only_a, only_b, 1 - only_a - only_b])
    return total


@pytest.mark.parametrize("alternative", sigcore.ALTERNATIVES)
def test_mcnemar_power_is_the_sum_over_every_test_set(alternative):
    cells = teaching.outcome_probabilities(0.75, 0.6, 0.75)
    p = plan_from_rates(40, 0.75, 0.6, 0.75, test="mcnemar", alternative=alternative).current
    assert p.exact and p.mc_error == 0 and p.low == p.power == p.high
    assert p.power == pytest.approx(mcnemar_power_by_enumeration(40, cells[1], cells[2], 0.05, alternative),
                                    abs=1e-9)


def test_right_wrong_bootstrap_with_many_resamples_is_the_exact_bootstrap_power():
    # b -> infinity: each test set's exact bootstrap p decides, which teaching.exact_power sums by bisection
    for n, acc_a, acc_b, agreement in [(20, 0.8, 0.6, 0.7), (100, 0.75, 0.7, 0.85), (400, 0.75, 0.7, 0.85),
                                       (60, 0.7, 0.7, 0.6)]:
        p = plan_from_rates(n, acc_a, acc_b, agreement, n_resamples=10_000_000, n_max=10, test="bootstrap",
                            alternative="greater").current.power
        assert p == pytest.approx(teaching.exact_power([n], acc_a, acc_b, agreement)[0], abs=1e-3)


def test_right_wrong_permutation_test_is_mcnemar_up_to_its_random_swaps():
    exact = plan_from_rates(300, 0.74, 0.7, 0.8, test="mcnemar", alternative="greater").current.power
    swaps = plan_from_rates(300, 0.74, 0.7, 0.8, test="permutation", n_resamples=1_000_000,
                            alternative="greater").current.power
    assert swaps == pytest.approx(exact, abs=0.002)


def test_a_pilot_and_its_rates_plan_alike():
    a, b = cells_pilot(500, 60, 35, 330)  # only A 12%, only B 7%, agreement 81%
    for test in ("bootstrap", "permutation"):
        from_pilot = plan(a, b, test=test, alternative="greater")
        from_rates = plan_from_rates(500, 390 / 500, 365 / 500, 405 / 500, test=test, alternative="greater")
        assert from_pilot.current.power == pytest.approx(from_rates.current.power, abs=1e-12)
        assert from_pilot.n_needed == from_rates.n_needed and from_pilot.binary
        assert from_pilot.detectable == pytest.approx(from_rates.detectable, rel=1e-9)


# --- against the engine: the same tests run on simulated test sets ----------------------------------------------

@pytest.mark.parametrize("n", [60, 250])  # the bootstrap's exact p (few discordant items), then its expansion
def test_right_wrong_bootstrap_power_is_what_compare_does_on_simulated_test_sets(n):
    a, b = cells_pilot(400, 60, 36, 240)
    sims = 800
    p = power_at(a, b, n, test="bootstrap", alternative="greater")
    engine = engine_power(a, b, n, "bootstrap", sims)
    assert p.exact and abs(p.power - engine) <= 3 * math.sqrt(p.power * (1 - p.power) / sims)


@pytest.mark.slow
@pytest.mark.parametrize("test, n, alternative", [("bootstrap", 30, "greater"), ("permutation", 30, "two-sided"),
                                                  ("bootstrap", 120, "two-sided"), ("permutation", 120, "greater"),
                                                  ("bootstrap", 300, "greater")])
def test_score_resampling_power_is_what_compare_does_on_simulated_test_sets(test, n, alternative):
    # three routes: resampled like the engine (n <= 50), saddlepoint (<= 200), Edgeworth beyond
    a, b = skewed_pilot(effect=0.3 / math.sqrt(n))  # about 2 standard errors: power near 1/2
    sims = 600
    p = power_at(a, b, n, test=test, alternative=alternative, n_sims=2_000, seed=2)
    engine = engine_power(a, b, n, test, sims, alternative)
    assert 0.15 < engine < 0.9  # informative: neither floor nor ceiling
    assert abs(p.power - engine) <= 3 * math.sqrt(engine * (1 - engine) / sims + p.mc_error**2)


def test_bootstrap_power_is_close_to_t_and_mcnemar_power_where_both_apply():
    # per-item scores: the same simulated test sets for both tests, so noise hardly separates them
    a, b = normal_pilot(2_000, 0.15)
    t = power_at(a, b, 300, test="t", n_sims=2_000, alternative="greater")
    for test in ("bootstrap", "permutation"):
        other = power_at(a, b, 300, test=test, n_sims=2_000, alternative="greater")
        assert abs(other.power - t.power) <= 3 * t.mc_error
    # right/wrong items: exact powers; the tests differ only in how they treat discreteness (McNemar is exact)
    powers = {test: plan_from_rates(600, 0.76, 0.72, 0.8, test=test, n_max=10, alternative="greater").current.power
              for test in ("bootstrap", "t", "mcnemar", "permutation")}
    assert abs(powers["bootstrap"] - powers["t"]) <= 0.02
    assert powers["mcnemar"] <= powers["t"] and abs(powers["mcnemar"] - powers["bootstrap"]) <= 0.03


# --- the plan ----------------------------------------------------------------------------------------------------

def test_a_bigger_difference_needs_fewer_items():
    small = plan_from_rates(300, 0.75, 0.72, 0.8, test="bootstrap", alternative="greater")
    big = plan_from_rates(300, 0.77, 0.72, 0.8, test="bootstrap", alternative="greater")
    assert big.n_needed < small.n_needed
    a, b = normal_pilot(1_000, 0.1)
    worse = plan(a, b - 0.05, test="t", alternative="greater")  # B worse: d_z 0.15
    assert worse.n_needed < plan(a, b, test="t", alternative="greater").n_needed


@pytest.mark.parametrize("test", ["bootstrap", "mcnemar"])
def test_n_needed_reaches_the_target_and_a_fifth_fewer_items_do_not(test):
    p = plan_from_rates(300, 0.75, 0.71, 0.82, test=test, alternative="greater")
    at = plan_from_rates(p.n_needed, 0.75, 0.71, 0.82, test=test, n_max=10, alternative="greater").current.power
    fewer = plan_from_rates(int(0.8 * p.n_needed), 0.75, 0.71, 0.82, test=test, n_max=10,
                            alternative="greater").current.power
    assert at >= 0.8 > fewer
    first = next(c.n for c in p.curve if c.power >= 0.8)  # n_needed refines the grid's first size that reaches it
    assert p.n_needed <= first and all(c.power < 0.8 for c in p.curve if c.n < p.n_needed)


def test_n_needed_from_simulations_reaches_the_target_within_monte_carlo_error():
    a, b = skewed_pilot()
    p = plan(a, b, test="t", alternative="greater")
    assert 100 < p.n_needed < 5_000 and not p.current.exact
    at = power_at(a, b, p.n_needed, test="t", n_sims=3_000, seed=5, alternative="greater")
    fewer = power_at(a, b, int(0.8 * p.n_needed), test="t", n_sims=3_000, seed=6, alternative="greater")
    assert at.power >= 0.8 - 3 * at.mc_error and fewer.power < 0.8


def test_the_detectable_difference_has_the_target_power():
    p = plan_from_rates(500, 0.75, 0.73, 0.8, test="bootstrap", alternative="greater")
    d = p.detectable
    assert 0.02 < d < 0.1
    assert plan_from_rates(500, 0.73 + d, 0.73, 0.8, n_max=10, test="bootstrap",
                           alternative="greater").current.power == pytest.approx(0.8, abs=0.005)
    assert plan_from_rates(500, 0.73 + 0.95 * d, 0.73, 0.8, n_max=10, test="bootstrap",
                           alternative="greater").current.power < 0.8
    # per-item scores: B's scores shifted so that the pilot's difference is the detectable one
    a, b = skewed_pilot()
    q = plan(a, b, test="bootstrap", alternative="greater")
    moved = b + (q.effect - q.detectable)
    at = power_at(a, moved, len(a), n_sims=3_000, seed=8, test="bootstrap", alternative="greater")
    assert abs(at.power - 0.8) <= 3 * at.mc_error + 0.01


def test_less_and_two_sided_look_for_the_difference_on_their_side():
    less = plan_from_rates(400, 0.70, 0.74, 0.8, alternative="less", test="bootstrap")
    greater = plan_from_rates(400, 0.74, 0.70, 0.8, test="bootstrap", alternative="greater")
    assert less.current.power == pytest.approx(greater.current.power, abs=1e-12)
    assert less.detectable == pytest.approx(-greater.detectable) and less.n_needed == greater.n_needed
    two = plan_from_rates(400, 0.70, 0.74, 0.8, alternative="two-sided", test="bootstrap")
    assert two.detectable < 0 and two.current.power < greater.current.power
    # B expected to win, H1 "A is better": say so, and how
    wrong_way = plan_from_rates(400, 0.70, 0.74, 0.8, test="bootstrap", alternative="greater")
    assert "favours B, against H1: no test set size gives power" in wrong_way.text()
    assert "plan for H1: B is better (alternative 'less'), or two-sided" in wrong_way.text()
    assert "favours" not in less.text() + greater.text() + two.text()


@pytest.mark.parametrize("test", ["bootstrap", "permutation", "t", "mcnemar"])
def test_without_a_difference_power_is_the_false_alarm_rate(test):
    for n in (40, 400):
        p = plan_from_rates(n, 0.7, 0.7, 0.8, test=test, n_max=10, alternative="greater").current
        if test in ("mcnemar", "permutation"):  # exact tests: at most alpha
            assert p.power <= 0.05
        else:
            assert abs(p.power - 0.05) <= 0.015
    if test != "mcnemar":  # per-item scores, symmetric around 0: nested resampling, saddlepoint, closed form
        rng = np.random.default_rng(3)
        d = rng.gamma(0.7, 0.3, 500)
        a = rng.uniform(0, 1, 1_000)
        b = a - np.r_[d, -d]
        for n in (30, 150):
            p = power_at(a, b, n, test=test, alternative="two-sided", n_sims=3_000, seed=n)
            assert abs(p.power - 0.05) <= 3 * math.sqrt(0.05 * 0.95 / 3_000) + 0.01


def test_identical_systems_are_never_told_apart():
    a = np.random.default_rng(4).uniform(0, 1, 200)
    for x, y in ((a, a), ((a > 0.5).astype(int), (a > 0.5).astype(int))):
        p = plan(x, y, n_max=1_000, test="bootstrap", alternative="greater")
        assert p.current.power == 0 and p.n_needed is None and math.isnan(p.detectable)
        assert "not reached by n = 1,000" in p.text() and "no smallest detectable difference" in p.text()
    # a test that cannot reject on so few items: no difference is detected (McNemar's smallest p on 4 items: 1/16)
    p = plan_from_rates(4, 0.8, 0.6, 0.6, test="mcnemar", n_max=100, alternative="greater")
    assert p.current.power == 0 and p.detectable is None and "no difference made by moving items" in p.text()


def test_the_curve_rises_and_stops_past_the_target():
    p = plan_from_rates(200, 0.78, 0.72, 0.8, test="t", alternative="greater")
    ns = [c.n for c in p.curve]
    assert ns == sorted(ns) and 200 in ns and ns[0] == 10
    assert p.curve[-1].power >= 0.95 > p.curve[-2].power
    assert all(x.power <= y.power + 1e-9 for x, y in zip(p.curve, p.curve[1:]) if x.n >= 100)


def test_the_plan_reads_as_sentences():
    p = plan_from_rates(500, 0.75, 0.73, 0.8, test="bootstrap", alternative="greater")
    lines = p.text().splitlines()
    assert len(lines) == 4
    assert lines[0] == "Paired bootstrap, H1: A is better, alpha = 0.05; assumed true difference 0.020 (expected)."
    assert lines[1] == f"Power at n = 500: {p.current.power:.2f} (exact)."
    assert lines[2] == f"80% power needs n = {p.n_needed:,}."
    assert lines[3] == f"At n = 500 the smallest difference detected 80% of the time is {p.detectable:.3f} accuracy."
    a, b = skewed_pilot()
    q = plan(a, b, test="t", target=0.9, alternative="greater")
    assert f"(95% MC {q.current.low:.2f}–{q.current.high:.2f})" in q.text() and "90% power needs n ≈" in q.text()


def test_the_same_seed_gives_the_same_plan():
    a, b = skewed_pilot()
    one, two = (plan(a, b, test="permutation", n_sims=200, seed=3, alternative="greater") for _ in range(2))
    assert one == two and isinstance(one, Plan) and isinstance(one.current, Power)
    assert plan(a, b, test="permutation", n_sims=200, seed=4, alternative="greater").current != one.current


# --- refusals ------------------------------------------------------------------------------------------------------

def test_bad_pilots_are_refused():
    with pytest.raises(InputError, match="different lengths"):
        plan([1, 0, 1], [1, 0], test="bootstrap", alternative="greater")
    with pytest.raises(InputError, match="NaN"):
        plan([0.5, math.nan, 0.2], [0.1, 0.2, 0.3], test="bootstrap", alternative="greater")
    with pytest.raises(InputError, match="infinite"):
        power_at([0.5, math.inf, 0.2], [0.1, 0.2, 0.3], 10, test="bootstrap", alternative="greater")
    with pytest.raises(InputError, match="at least 2"):
        plan([1], [0], test="bootstrap", alternative="greater")
    with pytest.raises(InputError, match="right/wrong"):
        plan([0.5, 1.0], [0.0, 1.0], binary=True, test="bootstrap", alternative="greater")
    with pytest.raises(SettingsError, match="McNemar"):
        plan([0.5, 1.0], [0.0, 1.0], test="mcnemar", alternative="greater")


@pytest.mark.parametrize("settings, message", [
    ({"test": "wilcoxon"}, "bootstrap, permutation, t, mcnemar"),
    ({"target": 0}, "`target` must be a number strictly between 0 and 1"),
    ({"target": 1.0}, "`target`"), ({"target": 80}, "`target`"), ({"alpha": 0}, "`alpha`"),
    ({"alternative": "bigger"}, "`alternative`"), ({"n_sims": 0}, "`n_sims`"), ({"n_max": 1}, "`n_max`"),
    ({"n_resamples": 2.5}, "`n_resamples`"), ({"seed": -1}, "`seed`"), ({"binary": "yes"}, "`binary`"),
])
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(SettingsError, match=message.replace("(", r"\(")):
        plan([1, 0, 1, 1], [0, 0, 1, 0], **settings)


def test_impossible_rates_are_refused():
    with pytest.raises(SettingsError, match="agree on 0.99"):
        plan_from_rates(100, 0.9, 0.7, 0.99, test="bootstrap", alternative="greater")
    with pytest.raises(SettingsError, match="`n`"):
        plan_from_rates(1, 0.9, 0.7, 0.8, test="bootstrap", alternative="greater")
    with pytest.raises(SettingsError, match="wilcoxon"):
        plan_from_rates(100, 0.9, 0.7, 0.8, test="wilcoxon", alternative="greater")


def test_cli_plans_from_a_pilot_or_from_rates(tmp_path, capsys):
    from sigcore.__main__ import main

    gen = np.random.default_rng(2)
    gold = gen.integers(0, 2, 400)
    a, b = (np.where(gen.random(400) < p, gold, 1 - gold) for p in (0.8, 0.72))
    table = tmp_path / "pilot.csv"
    table.write_text("gold,a,b\n" + "".join(f"{g},{x},{y}\n" for g, x, y in zip(gold, a, b)))
    assert main(["power", str(table), "--test", "mcnemar"]) == 0
    out = capsys.readouterr().out
    expected = plan((a == gold).astype(int), (b == gold).astype(int), test="mcnemar", binary=True)
    note = ("note: the metric is accuracy, the first that fits the pilot (as the app suggests); "
            "choose another with --metric")
    roles = (f"roles: table = {table}\nroles: gold = column 'gold' (named like gold)\nroles: A = column 'a' (the "
             "first system column)\nroles: B = column 'b' (the next system column)")
    assert out == f"{roles}\n{note}\n{expected.text()}\n" and "(the pilot's)" in out
    scores = tmp_path / "scores.csv"  # per-item scores, no gold: their mean, as the app suggests (was accuracy,
    va, vb = gen.normal(0.6, 0.2, 300), gen.normal(0.55, 0.2, 300)  # which refused them for want of gold)
    scores.write_text("a,b\n" + "".join(f"{x},{y}\n" for x, y in zip(va, vb)))
    assert main(["power", str(scores), "--test", "t"]) == 0
    out = capsys.readouterr().out
    assert "\nnote: the metric is mean" in out and out.endswith(plan(va, vb, test="t").text() + "\n")
    assert main(["power", "--n", "1000", "--accuracy-a", "0.75", "--accuracy-b", "0.72", "--agreement", "0.85"]) == 0
    out = capsys.readouterr().out
    assert out == plan_from_rates(1000, 0.75, 0.72, 0.85).text() + "\n" and "(expected)" in out
    assert out.startswith("McNemar's exact test (recommended for these data), H1: A and B differ, alpha = 0.05")
    for argv, message in (([str(table), "--n", "5"], "not both"), ([], "give pilot files"),
                          ([str(table), "--metric", "macro_f1"], "not a mean of per-item values"),
                          ([str(translations(tmp_path))], "bleu is not a mean of per-item values")):
        assert main(["power", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err


def translations(folder):
    """A pilot of translations: the app suggests BLEU, which no pilot can be redrawn by item for."""
    table = folder / "mt.csv"
    table.write_text("gold,a,b\n" + "".join(f"the cat sat on mat {i},a cat sat on the mat {i},the cat is on mat {i}\n"
                                             for i in range(50)))
    return table


def test_sizes_and_simulations_beyond_reason_are_refused_at_once():
    """--n 10000000000 and --sims 100000 ran for minutes with no word."""
    import time

    start = time.monotonic()
    with pytest.raises(SettingsError, match=r"`n` must be a whole number of 2 to 2,000,000 items, not 10000000000"):
        plan_from_rates(10**10, 0.9, 0.8, 0.8)
    with pytest.raises(SettingsError, match=r"`n_sims` is at most 4,000, not 100,000"):
        plan_from_rates(500, 0.9, 0.8, 0.8, n_sims=100_000)
    with pytest.raises(SettingsError, match=r"`n_max` is at most 2,000,000 items"):
        plan_from_rates(500, 0.9, 0.8, 0.8, n_max=10**9)
    assert time.monotonic() - start < 2
