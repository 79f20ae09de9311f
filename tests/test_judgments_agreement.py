"""sigcore.judgments.agreement (issue 42 §2, "Judges"): Cohen's κ against scikit-learn's cohen_kappa_score,
Krippendorff's α against the krippendorff package, both against a hand computation, their intervals against a numpy
bootstrap over items written here, the units (orders, column orders, fractions), the refusals, and each judge's
verdict on a claim against pair() on that judge's battles."""

from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from sigcore.errors import InputError, SettingsError
from sigcore.judgments import agreement, pair, read, robustness
from sigcore.judgments.battles import frame

DATA = Path(__file__).parent / "data" / "judgments"


def _table(rows):
    """A battles frame from (item, model_a, model_b, outcome, judge[, order]) rows."""
    columns = list(zip(*rows))
    order = columns[5] if len(columns) > 5 else None
    return frame(item=np.array(columns[0], dtype=object), model_a=np.array(columns[1], dtype=object),
                 model_b=np.array(columns[2], dtype=object), outcome=np.array(columns[3], dtype=float),
                 judge=np.array(columns[4], dtype=object), order=order, file="t", line=np.arange(len(rows)) + 1)


def test_cohens_kappa_by_hand():
    # verdicts from x's side (x before y in name order): P: A A B tie B, Q: A tie B tie A
    battles = _table([("u1", "x", "y", 1, "P"), ("u1", "y", "x", 0, "Q"),  # both A (Q's in the other columns)
                      ("u2", "x", "y", 1, "P"), ("u2", "x", "y", 0.5, "Q"),
                      ("u3", "x", "y", 0, "P"), ("u3", "y", "x", 1, "Q"),
                      ("u4", "x", "y", 0.5, "P"), ("u4", "x", "y", 0.5, "Q"),
                      ("u5", "x", "y", 0, "P"), ("u5", "x", "y", 1, "Q")])
    res = agreement(battles, n_resamples=500)
    # p_o = 3/5; P's shares (A, tie, B) 2, 1, 2 and Q's 2, 2, 1 of 5: p_e = (4 + 2 + 2) / 25
    assert res.statistic == "kappa" and res.judges == ["P", "Q"] and res.n_units == 5
    assert res.observed == pytest.approx(0.6) and res.expected == pytest.approx(8 / 25)
    assert res.value == pytest.approx((0.6 - 0.32) / (1 - 0.32)) == pytest.approx(7 / 17)
    assert res.pairs[["judge", "other"]].values.tolist() == [["P", "Q"]]
    assert res.pairs["kappa"].iat[0] == pytest.approx(7 / 17)


def test_krippendorffs_alpha_by_hand():
    # three judges: u1 A A A; u2 A A B; u3 tie B (R did not judge it); u4 B (by P alone: not pairable)
    battles = _table([("u1", "x", "y", 1, "P"), ("u1", "x", "y", 1, "Q"), ("u1", "y", "x", 0, "R"),
                      ("u2", "x", "y", 1, "P"), ("u2", "x", "y", 1, "Q"), ("u2", "x", "y", 0, "R"),
                      ("u3", "x", "y", 0.5, "P"), ("u3", "x", "y", 0, "Q"),
                      ("u4", "x", "y", 0, "P")])
    res = agreement(battles, n_resamples=500)
    # coincidences: AA 3 (u1) + 1 (u2), AB = BA = 1 (u2), tie-B = B-tie = 1 (u3); n_A 5, n_tie 1, n_B 2, n 8
    # α = 1 − (n − 1) · 4 / (n² − Σ n_c²) = 1 − 7 · 4 / 34
    assert res.statistic == "alpha" and res.n_units == 3
    assert res.value == pytest.approx(1 - 28 / 34) == pytest.approx(3 / 17)
    assert res.observed == pytest.approx(1 - 4 / 8) and res.expected == pytest.approx(1 - 34 / 56)
    reference = krippendorff.alpha(reliability_data=[[0, 0, 1, 2], [0, 0, 2, np.nan], [0, 2, np.nan, np.nan]],
                                   level_of_measurement="nominal")
    assert res.value == pytest.approx(reference, rel=1e-12)
    assert any("1 battle judged by one judge only" in n for n in res.notes)


def _judged(seed, judges=3, items=40, turns=2, both_orders=False, missing=0.0, fractions=False, agree=0.6):
    """Judges' verdicts on x against y (items × turns units): each agrees with a hidden verdict with probability
    ``agree``, else says A, tie or B at random; a judge skips a unit with probability ``missing``; with
    ``both_orders`` each judges each unit twice, answers swapped; returns the battles and each judge's category per
    unit (0 A, 1 tie, 2 B; -1 not judged) counted here."""
    rng = np.random.default_rng(seed)
    units = items * turns
    hidden = rng.choice([1.0, 0.5, 0.0], units, p=[0.45, 0.15, 0.4])
    rows, categories = [], np.full((judges, units), -1)
    for j in range(judges):
        for u in range(units):
            if rng.random() < missing:
                continue
            said = [hidden[u] if rng.random() < agree else rng.choice([1.0, 0.5, 0.0])
                    for _ in range(2 if both_orders else 1)]
            if fractions:
                said = [np.clip(s + rng.choice([-0.2, 0.0, 0.2]), 0, 1) if s != 0.5 else s for s in said]
            mean = np.mean(said)
            categories[j, u] = 0 if mean > 0.5 else 2 if mean < 0.5 else 1
            for k, s in enumerate(said):
                swap = rng.random() < 0.5  # which column x is in
                rows.append((f"q{u // turns}", u % turns + 1, "y" if swap else "x", "x" if swap else "y",
                             1 - s if swap else s, f"judge{j}", k + 1))
    item, turn, a, b, outcome, judge, order = zip(*rows)
    battles = frame(item=np.array(item, dtype=object), turn=np.array(turn), model_a=np.array(a, dtype=object),
                    model_b=np.array(b, dtype=object), outcome=np.array(outcome), judge=np.array(judge, dtype=object),
                    order=np.array(order) if both_orders else None, file="sim", line=np.arange(len(rows)) + 1)
    return battles, categories


@pytest.mark.parametrize("seed, both_orders, fractions", [(0, False, False), (1, True, False), (2, False, True)])
def test_kappa_is_scikit_learns_on_the_units_both_judged(seed, both_orders, fractions):
    battles, categories = _judged(seed, judges=2, both_orders=both_orders, missing=0.1, fractions=fractions)
    res = agreement(battles, n_resamples=200)
    both = (categories >= 0).all(axis=0)
    assert res.n_units == both.sum()
    assert res.value == pytest.approx(cohen_kappa_score(categories[0, both], categories[1, both]), rel=1e-12)
    assert any("judged by one judge only are left out" in n for n in res.notes)
    assert any("repeat a judge's verdict" in n for n in res.notes) == both_orders
    assert any("are fractions" in n for n in res.notes) == fractions


@pytest.mark.parametrize("seed, judges, both_orders", [(3, 3, False), (4, 4, True), (5, 5, False)])
def test_alpha_is_the_krippendorff_packages_with_missing_verdicts(seed, judges, both_orders):
    battles, categories = _judged(seed, judges=judges, both_orders=both_orders, missing=0.3)
    res = agreement(battles, n_resamples=200)
    data = np.where(categories >= 0, categories, np.nan).astype(float)
    assert res.statistic == "alpha" and res.judges == [f"judge{j}" for j in range(judges)]
    assert res.value == pytest.approx(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"),
                                      rel=1e-12)
    assert res.n_units == int(((categories >= 0).sum(axis=0) >= 2).sum())
    for row in res.pairs.itertuples():  # every pair of judges' κ, on the units both judged
        first, second = (int(name[-1]) for name in (row.judge, row.other))
        both = (categories[[first, second]] >= 0).all(axis=0)
        assert row.n_units == both.sum()
        assert row.kappa == pytest.approx(cohen_kappa_score(categories[first, both], categories[second, both]),
                                          rel=1e-12)
    assert len(res.pairs) == judges * (judges - 1) // 2


def _bootstrap_by_items(categories, turns, b, seed, statistic):
    """The statistic over resamples of the items (each with its turns), computed by the references."""
    rng = np.random.default_rng(seed)
    items = categories.shape[1] // turns
    out = []
    for _ in range(b):
        drawn = rng.integers(0, items, items)
        units = (drawn[:, None] * turns + np.arange(turns)).ravel()
        out.append(statistic(categories[:, units]))
    return np.array(out)


@pytest.mark.parametrize("judges", [2, 3])
def test_the_interval_matches_a_bootstrap_over_items_by_the_references(judges):
    battles, categories = _judged(6, judges=judges, items=60, missing=0.0 if judges == 2 else 0.2)

    def reference(c):
        if judges == 2:
            return cohen_kappa_score(c[0], c[1])
        return krippendorff.alpha(reliability_data=np.where(c >= 0, c, np.nan).astype(float),
                                  level_of_measurement="nominal")

    res = agreement(battles, n_resamples=4000, seed=3)
    drawn = _bootstrap_by_items(categories, 2, 600, 99, reference)  # scikit-learn's κ takes 8 ms a call
    low, high = np.quantile(drawn, [0.025, 0.975])
    assert (res.ci_low, res.ci_high) == pytest.approx((low, high), abs=0.035)  # about 3 Monte-Carlo SEs
    assert res.ci_low < res.value < res.ci_high
    again = agreement(battles, n_resamples=4000, seed=3)
    assert (again.ci_low, again.ci_high) == (res.ci_low, res.ci_high)


def test_turns_and_column_orders_make_units_and_orders_do_not():
    battles = _table([("q1", "x", "y", 1, "P", 1), ("q1", "x", "y", 0, "P", 2),  # P: one each way, a tie
                      ("q1", "y", "x", 0.5, "Q", 1)])  # Q: a tie, in the other columns and order
    res = agreement(battles, n_resamples=200)
    assert res.n_units == 1 and res.observed == 1.0 and np.isnan(res.value)  # one verdict only: κ undefined
    assert any("one verdict only" in n for n in res.notes)
    with pytest.raises(InputError, match="no battle was judged by two judges"):  # another turn is another unit
        agreement(battles.assign(turn=[1, 1, 2]), n_resamples=200)


def test_mt_benchs_judges_judged_different_turns_so_they_are_refused():
    battles = read(DATA / "mt_bench_pair.jsonl")  # gpt-4/pair-v2 judged turn 1, gpt-4/pair-v2-multi-turn turn 2
    with pytest.raises(InputError, match="no battle was judged by two judges: the 2 judges"):
        agreement(battles)


def test_one_judge_is_refused():
    with pytest.raises(InputError, match="the battles name judge 'P': agreement needs two judges or more"):
        agreement(_table([("q1", "x", "y", 1, "P"), ("q2", "x", "y", 0, "P")]))
    with pytest.raises(InputError, match="name no judge .the files do not say who judged."):
        agreement(read(DATA / "alpacaeval_weighted_annotations.json").frame.assign(judge=""))
    with pytest.raises(SettingsError, match="confidence_level"):
        agreement(_table([("q1", "x", "y", 1, "P"), ("q1", "x", "y", 0, "Q")]), confidence_level=95)


def test_robustness_is_pair_under_each_judge():
    battles, _ = _judged(7, judges=3, items=50, agree=0.8)
    battles = pd.concat([battles, _table([("q0", "x", "z", 1, "judge9")])], ignore_index=True)
    res = robustness(battles, "x", "y", n_resamples=500)
    assert res.judges == ["judge0", "judge1", "judge2"]
    table = res.table()
    for judge, row in zip(res.judges, table.itertuples()):
        alone = pair(battles[battles["judge"] == judge], "x", "y", n_resamples=500)
        assert (row.win_rate, row.p_value, row.significant) == (alone.win_rate, alone.result.p_value,
                                                                alone.significant)
        assert (row.ci_low, row.ci_high) == (alone.ci_low, alone.ci_high)
    assert res.beats == int((table["winner"] == "x").sum()) and res.loses == int((table["winner"] == "y").sum())
    assert any("1 judge never judged 'x' against 'y' and is left out: judge9" in n for n in res.notes)
    assert repr(res) == f"Robustness(x beats y under {res.beats} of 3 judges)"


def test_robustness_refuses_one_judge_and_bad_models():
    battles = _table([("q1", "x", "y", 1, "P"), ("q2", "x", "y", 1, "P"), ("q1", "x", "z", 0, "Q")])
    with pytest.raises(InputError, match="only judge 'P' judged 'x' against 'y'"):
        robustness(battles, "x", "y")
    with pytest.raises(SettingsError, match="model 'w' .`b`. is not in the battles"):
        robustness(battles, "x", "w")
    with pytest.raises(SettingsError, match="`a` and `b` are both 'x'"):
        robustness(battles, "x", "x")
