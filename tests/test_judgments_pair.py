"""sigcore.judgments.pair (issue 42 §2, "Two systems"): one model against another on the items both were judged on,
its sign test against scipy's binomtest on items won and lost, its paired bootstrap against a numpy bootstrap over
items written here, its permutation test against the sign flips enumerated, a hand-counted case, the refusals, and
the type I error of the sign test and the bootstrap under equal strengths."""

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sigcore.errors import InputError, SettingsError
from sigcore.judgments import pair, read
from sigcore.judgments.battles import frame
from sigcore.result import Result

DATA = Path(__file__).parent / "data" / "judgments"


def _table(rows, judge=None):
    """A battles frame from (item, model_a, model_b, outcome) rows."""
    item, a, b, outcome = (np.array(c, dtype=object) for c in zip(*rows))
    return frame(item=item, model_a=a, model_b=b, outcome=outcome.astype(float), file="t",
                 line=np.arange(len(rows)) + 1, judge=judge)


HAND = _table([("q1", "x", "y", 1.0), ("q1", "y", "x", 0.5),  # x: 1 and 1/2, 0.75: a win
               ("q2", "y", "x", 1.0),  # x: 0, a loss
               ("q3", "x", "y", 0.5),  # a tie
               ("q4", "x", "y", 0.7),  # a fraction: a win
               ("q5", "x", "y", 1.0), ("q5", "y", "x", 1.0),  # one win each way: 1/2, a tie
               ("q1", "x", "z", 0.0), ("q6", "z", "y", 1.0)])  # other pairs: not counted


def test_a_hand_counted_case():
    v = pair(HAND, "x", "y", n_resamples=2000)
    assert isinstance(v.result, Result) and v.result.metric == "mean" and v.result.test == "sign"
    assert v.win_rate == pytest.approx((0.75 + 0 + 0.5 + 0.7 + 0.5) / 5)
    assert v.result.delta == pytest.approx(2 * v.win_rate - 1)
    assert (v.wins, v.ties, v.losses, v.n_items, v.n_battles) == (2, 2, 1, 5, 7)
    assert (v.result.wins, v.result.losses) == (2, 1)
    assert v.result.p_value == pytest.approx(stats.binomtest(2, 3).pvalue) == 1.0
    assert any("2 items of 5 have several battles" in n for n in v.notes)
    assert any("2 items with a score of exactly 1/2" in n for n in v.notes)
    assert v.winner is None and not v.significant


def _simulated(seed, n=60, r=3, tie=0.2, edge=0.0, prompt_sd=0.0, judges=("j",)):
    """Battles of x against y, r per item (each by one of ``judges``, in a random column order), x's log odds
    ``edge`` plus a prompt effect of spread ``prompt_sd`` shared by the item's battles; ties at random."""
    rng = np.random.default_rng(seed)
    item = np.repeat(np.arange(n), r)
    p = 1 / (1 + np.exp(-(edge + rng.normal(0, prompt_sd, n)[item])))
    u = rng.random(n * r)
    outcome = np.where(u < tie, 0.5, (u < tie + (1 - tie) * p).astype(float))  # x's score
    swap = rng.random(n * r) < 0.5
    names = np.array(["x", "y"], dtype=object)
    return frame(item=np.char.add("q", item.astype(str)).astype(object), model_a=names[swap.astype(int)],
                 model_b=names[1 - swap.astype(int)], outcome=np.where(swap, 1 - outcome, outcome), file="sim",
                 line=np.arange(n * r) + 1, judge=np.array(judges, dtype=object)[np.arange(n * r) % len(judges)])


def _x_scores(battles: pd.DataFrame) -> np.ndarray:
    """x's mean outcome per item, counted here from x's side of each battle (items in order of appearance)."""
    xy = battles[battles["model_a"].isin(["x", "y"]) & battles["model_b"].isin(["x", "y"])]
    mine = np.where(xy["model_a"] == "x", xy["outcome"], 1 - xy["outcome"])
    return pd.Series(mine, index=xy["item"].to_numpy()).groupby(level=0, sort=False).mean().to_numpy()


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("seed, edge", [(0, 0.4), (1, -0.3), (2, 0.0)])
def test_the_sign_test_is_scipys_binomtest_on_items_won_and_lost(seed, edge, alternative):
    battles = _simulated(seed, edge=edge)
    s = _x_scores(battles)
    wins, losses = int((s > 0.5).sum()), int((s < 0.5).sum())
    v = pair(battles, "x", "y", alternative=alternative, n_resamples=200)
    assert (v.wins, v.losses, v.ties) == (wins, losses, len(s) - wins - losses)
    reference = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative)
    assert v.result.p_value == pytest.approx(reference.pvalue, rel=1e-12)
    low, high = reference.proportion_ci(1 - 0.05)  # the sign test's own estimate: the share of decided items won
    assert v.result.estimate == pytest.approx(wins / (wins + losses))
    assert (v.result.ci_low, v.result.ci_high) == pytest.approx((low, high), rel=1e-9)
    assert v.win_rate == pytest.approx(s.mean(), rel=1e-12)


@pytest.mark.parametrize("seed, edge", [(3, 0.5), (4, 0.0)])
def test_the_bootstrap_matches_a_numpy_bootstrap_over_items(seed, edge):
    battles = _simulated(seed, n=80, edge=edge, prompt_sd=0.8)
    b = 20_000
    v = pair(battles, "x", "y", test="bootstrap", n_resamples=b, seed=7)
    s = _x_scores(battles)
    delta = 2 * s.mean() - 1
    rng = np.random.default_rng(12345)
    drawn = s[rng.integers(0, len(s), (b, len(s)))].mean(axis=1)
    deltas = 2 * drawn - 1
    assert v.result.delta == pytest.approx(delta, rel=1e-12) and v.win_rate == pytest.approx(s.mean(), rel=1e-12)
    p = np.mean(np.abs(deltas - delta) >= abs(delta) - 1e-12)  # SLP3 eq. 4.48, two-sided
    assert v.result.p_value == pytest.approx(max(p, 1 / b), abs=4 * np.sqrt(p * (1 - p) / b * 2) + 2 / b)
    low, high = np.quantile(deltas, [0.975, 0.025])  # the basic interval: 2δ minus the quantiles
    assert (v.result.ci_low, v.result.ci_high) == pytest.approx((2 * delta - low, 2 * delta - high), abs=0.015)
    assert (v.ci_low, v.ci_high) == pytest.approx(tuple(np.quantile(drawn, [0.025, 0.975])), abs=0.008)
    assert (v.ci_low, v.ci_high) == v.result.ci_a  # the win rate's interval is the one compare gives A's score


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_the_permutation_test_on_few_items_is_the_exact_sign_flip_enumeration(alternative):
    battles = _simulated(8, n=12, r=2, edge=0.5)
    v = pair(battles, "x", "y", test="permutation", alternative=alternative)
    d = 2 * _x_scores(battles) - 1  # A's score less B's on each item; a swap flips its sign
    flips = np.array(list(itertools.product([1, -1], repeat=len(d))))
    sums, observed = flips @ d, d.sum()
    tail = np.abs(sums) >= abs(observed) - 1e-12 if alternative == "two-sided" else sums >= observed - 1e-12
    assert v.result.exact and v.result.p_value == pytest.approx(tail.mean(), rel=1e-12)


def test_the_win_rate_interval_is_the_same_resamples_under_either_test():
    battles = _simulated(5, edge=0.3)
    sign = pair(battles, "x", "y", n_resamples=3000, seed=11)
    boot = pair(battles, "x", "y", test="bootstrap", n_resamples=3000, seed=11)
    permutation = pair(battles, "x", "y", test="permutation", n_resamples=3000, seed=11)
    assert (sign.ci_low, sign.ci_high) == (boot.ci_low, boot.ci_high) == (permutation.ci_low, permutation.ci_high)
    assert sign.ci_low < sign.win_rate < sign.ci_high and 0 <= sign.ci_low and sign.ci_high <= 1


def test_the_verdict_mirrors_when_the_models_swap_and_ignores_the_column_order():
    battles = _simulated(6, edge=0.6)
    xy, yx = pair(battles, "x", "y"), pair(battles, "y", "x")
    assert yx.win_rate == pytest.approx(1 - xy.win_rate) and yx.result.p_value == xy.result.p_value
    assert (yx.wins, yx.ties, yx.losses) == (xy.losses, xy.ties, xy.wins)
    assert (yx.ci_low, yx.ci_high) == pytest.approx((1 - xy.ci_high, 1 - xy.ci_low))
    assert xy.winner == "x" and yx.winner == "x"
    swapped = battles.assign(model_a=battles["model_b"], model_b=battles["model_a"], outcome=1 - battles["outcome"])
    again = pair(swapped, "x", "y")
    assert again.win_rate == pytest.approx(xy.win_rate) and again.result.p_value == xy.result.p_value


def test_judge_takes_one_judges_battles_and_pooling_is_noted():
    battles = _simulated(7, judges=("gpt-4o", "claude"))
    pooled = pair(battles, "x", "y")
    assert any("the battles of 2 judges (gpt-4o, claude) are pooled" in n for n in pooled.notes)
    one = pair(battles, "x", "y", judge="claude")
    alone = pair(battles[battles["judge"] == "claude"], "x", "y")
    assert one.judge == "claude" and one.n_battles == alone.n_battles == 90
    assert one.win_rate == alone.win_rate and one.result.p_value == alone.result.p_value


def test_read_files_work_and_keep_their_notes():
    v = pair(read(DATA / "mt_bench_pair.jsonl"), "vicuna-13b-v1.3", "gpt-4", judge="gpt-4/pair-v2")
    # question 81: g1 and g2 both gpt-4; question 82: g1 vicuna, g2 gpt-4 (inconsistent): vicuna's scores 0 and 1/2
    assert v.n_items == 2 and v.n_battles == 4 and v.win_rate == pytest.approx(0.25)
    assert (v.wins, v.ties, v.losses) == (0, 1, 1)
    assert any("'error'" in n for n in v.notes)


def test_bad_requests_are_refused_precisely():
    with pytest.raises(SettingsError, match="model 'w' .`a`. is not in the battles") as e:
        pair(HAND, "w", "y")
    assert "x, y, z" in e.value.hint_text
    with pytest.raises(SettingsError, match="`a` and `b` are both 'x'"):
        pair(HAND, "x", "x")
    with pytest.raises(InputError, match="models 'x' and 'z' never met") as e:
        pair(_table([("q1", "x", "y", 1.0), ("q2", "y", "z", 1.0)]), "x", "z")
    assert "'x' met: y" in e.value.hint_text
    with pytest.raises(SettingsError, match="judge 'nobody' judged none of the battles"):
        pair(HAND, "x", "y", judge="nobody")
    with pytest.raises(SettingsError, match="`test` must be one of sign, bootstrap, permutation"):
        pair(HAND, "x", "y", test="t")
    with pytest.raises(SettingsError, match="alpha"):
        pair(HAND, "x", "y", alpha=1.5)


def _sign_test_size(n, r, tie, alpha):
    """The sign test's exact type I error on n items of r battles each under equal strengths: an item is decided when
    its wins and losses differ (enumerated), and the count of decided items is binomial."""
    battle = [(1 - tie) / 2, tie, (1 - tie) / 2]  # win, tie, loss
    decided = sum(stats.multinomial.pmf([w, t, r - w - t], r, battle)
                  for w in range(r + 1) for t in range(r + 1 - w) if w != r - w - t)
    size = 0.0
    for m in range(1, n + 1):
        rejected = sum(stats.binom.pmf(k, m, 0.5) for k in range(m + 1) if stats.binomtest(k, m).pvalue <= alpha)
        size += stats.binom.pmf(m, n, decided) * rejected
    return size


@pytest.mark.slow  # 2,000 sign tests of simulated judgments: about 12 s
def test_the_sign_tests_type_one_error_under_equal_strengths_is_its_exact_size():
    runs = 2000
    rejected = np.mean([pair(_simulated(1000 + k, n=60), "x", "y", n_resamples=100).significant
                        for k in range(runs)])
    size = _sign_test_size(60, 3, 0.2, 0.05)  # 0.0367: the exact test is conservative
    assert 0.03 < size <= 0.05
    assert abs(rejected - size) <= 3 * np.sqrt(size * (1 - size) / runs)


@pytest.mark.slow  # 1,000 bootstraps of simulated judgments: about 7 s
def test_the_bootstraps_type_one_error_under_equal_strengths_with_prompt_effects_is_alpha():
    runs = 1000  # prompt effects make an item's battles alike: items resampled whole keep the level
    rejected = np.mean([pair(_simulated(5000 + k, n=100, prompt_sd=1.0), "x", "y", test="bootstrap",
                             n_resamples=1000).significant for k in range(runs)])
    assert abs(rejected - 0.05) <= 3 * np.sqrt(0.05 * 0.95 / runs)
