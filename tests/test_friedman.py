"""The Friedman test with Nemenyi's critical difference (sigcore.statistics.friedman) against Demšar (2006)'s worked
example and table, scipy's Friedman statistic and its type I error under H0; the bars of the critical-difference
diagrams (sigcore.many.cliques) against every interval checked by brute force; and the diagrams drawing what
sigcore.leaderboard computes."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from sigcore import leaderboard
from sigcore.errors import SettingsError
from sigcore.logs import tidy
from sigcore.many import cliques
from sigcore.report import board_figures
from sigcore.statistics.friedman import friedman, nemenyi_q

SUITE = Path(__file__).resolve().parents[1] / "sample_data" / "lm_eval_suite"

# ranks of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14 data sets with Demšar's Table 6's mean ranks (3.143, 2.000,
# 2.893, 1.964: the rank sums 44, 28, 40.5, 27.5), ties sharing 1.5
DEMSAR_RANKS = [[2, 3, 4, 1], [4, 2, 3, 1], [4, 2, 3, 1], [4, 3, 1.5, 1.5], [3, 1, 4, 2], [3, 1.5, 1.5, 4],
                [3, 1, 4, 2], [1, 3, 4, 2], [4, 2, 1, 3], [1, 4, 3, 2], [3, 1.5, 4, 1.5], [4, 1, 3, 2],
                [4, 1.5, 1.5, 3], [4, 1.5, 3, 1.5]]


def test_demsar_s_worked_example():
    fr = friedman(-np.array(DEMSAR_RANKS), ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"])
    assert fr.mean_ranks == pytest.approx([3.143, 2.000, 2.893, 1.964], abs=5e-4)
    assert round(fr.chi2, 2) == 9.28 and round(fr.f, 2) == 3.69  # Demšar §3.2.2's numbers
    assert fr.p_value < 0.05 and fr.p_chi2 < 0.05  # F(3, 39)'s critical value 2.85 < 3.69; χ²(3)'s 7.81 < 9.28
    assert stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=0.005)
    assert round(fr.critical_difference, 2) == 1.25
    assert not fr.different().any()  # the largest gap, 3.143 − 1.964 = 1.179, is under 1.25
    at_10 = friedman(-np.array(DEMSAR_RANKS), fr.models, alpha=0.10)
    assert round(at_10.critical_difference, 2) == 1.12  # Demšar's CD at α = 0.10
    assert {frozenset((fr.models[i], fr.models[j])) for i, j in zip(*np.nonzero(np.triu(at_10.different())))} == {
        frozenset(("C4.5", "C4.5+m")), frozenset(("C4.5", "C4.5+m+cf"))}  # gaps 1.143 and 1.179 over 1.12


@pytest.mark.parametrize("alpha, table", [
    (0.05, [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]),
    (0.10, [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920])])
def test_nemenyi_s_q_is_demsar_s_table_5(alpha, table):
    assert [round(nemenyi_q(k, alpha), 3) for k in range(2, 11)] == pytest.approx(table, abs=0.0015)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 30), st.integers(2, 9), st.integers(0, 2**32 - 1))
def test_the_statistic_is_scipy_s_where_no_task_has_ties(n, k, seed):
    scores = np.random.default_rng(seed).normal(size=(n, k))
    fr = friedman(scores, [str(j) for j in range(k)])
    if k >= 3:  # scipy asks for three models
        reference = stats.friedmanchisquare(*scores.T)
        assert fr.chi2 == pytest.approx(reference.statistic, rel=1e-9)
        assert fr.p_chi2 == pytest.approx(reference.pvalue, rel=1e-9)
    ranks = stats.rankdata(-scores, axis=1)
    assert fr.mean_ranks == pytest.approx(ranks.mean(axis=0))
    gaps = np.abs(fr.mean_ranks[:, None] - fr.mean_ranks[None, :])
    assert np.array_equal(fr.different(), gaps >= fr.critical_difference - 1e-12)


def test_iman_davenport_s_f_holds_alpha_under_h0():
    rng = np.random.default_rng(5)
    rejected = np.mean([friedman(rng.normal(size=(12, 5)), list("abcde")).p_value <= 0.05 for _ in range(4000)])
    assert abs(rejected - 0.05) < 3 * np.sqrt(0.05 * 0.95 / 4000)  # within 3 standard errors of α


def test_too_few_tasks_or_models_are_refused():
    with pytest.raises(SettingsError, match="at least 2 models on at least 2 tasks"):
        friedman(np.ones((1, 3)), list("abc"))


def _brute_force(different: np.ndarray) -> list[tuple[int, int]]:
    clean = [(i, j) for i in range(len(different)) for j in range(i + 1, len(different))
             if not different[i:j + 1, i:j + 1].any()]
    return [(i, j) for i, j in clean if not any(a <= i and j <= b and (a, b) != (i, j) for a, b in clean)]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9).flatmap(lambda k: st.tuples(st.just(k), st.lists(st.booleans(), min_size=k * k,
                                                                            max_size=k * k))))
def test_cliques_are_the_longest_runs_no_pair_of_which_differs(case):
    k, cells = case
    upper = np.triu(np.array(cells).reshape(k, k), 1)
    different = upper | upper.T
    assert cliques(different) == _brute_force(different)


@pytest.fixture(scope="module")
def suite() -> leaderboard.Leaderboard:
    board = leaderboard.from_table(tidy.from_logs([SUITE]), metric=["acc", "exact_match[maj@3]"])
    return leaderboard.bootstrap(board, n_resamples=2_000, seed=3)


def test_the_board_s_cliques_join_models_no_pair_of_which_differs(suite):
    pairs = suite.pairs(0.05, "holm")
    differ = {frozenset((r.model, r.other)) for r in pairs.itertuples() if r.p_corrected <= 0.05}
    order = list(suite.table("alpha").model)
    bars = suite.cliques(0.05, "holm")
    assert bars == [["gamma", "beta"], ["delta", "alpha"]]  # the two pairs the suite was made to leave apart
    for bar in bars:
        assert order[order.index(bar[0]):order.index(bar[-1]) + 1] == bar  # neighbours in score order
        assert not any(frozenset((a, b)) in differ for a in bar for b in bar if a != b)
    assert suite.mean_ranks() == pytest.approx(suite.ranks().mean(axis=0))


def test_friedman_counts_a_group_as_one_task(suite):
    names, scores = suite.unit_scores()
    assert names == ("arith", "echo", "quiz")
    board = suite.board
    sizes = np.array([len(board.items[t]) for t in ("quiz_history", "quiz_science")])
    quiz = np.array([board.scores[t].mean(axis=0) for t in ("quiz_history", "quiz_science")])
    assert scores[2] == pytest.approx(sizes @ quiz / sizes.sum())  # the group by its items, as lm-eval did
    assert suite.friedman().n_tasks == 3
    assert suite.friedman().mean_ranks == pytest.approx(stats.rankdata(-scores, axis=1).mean(axis=0))


def test_the_diagrams_draw_the_computed_ranks_bars_and_critical_difference(suite):
    fig = board_figures.resampled_cd(suite)
    points = dict(zip([c[0] for c in fig.data[0].customdata], fig.data[0].x))
    assert points == pytest.approx(dict(zip(suite.board.models, suite.mean_ranks())))
    thick = [s for s in fig.layout.shapes if s.line.width == 6]
    index = {m: i for i, m in enumerate(suite.board.models)}
    assert [(round(s.x0 + 0.03, 9), round(s.x1 - 0.03, 9)) for s in thick] == [
        (round(min(suite.mean_ranks()[index[m]] for m in bar), 9), round(max(suite.mean_ranks()[index[m]]
                                                                              for m in bar), 9))
        for bar in suite.cliques()]
    fr = suite.friedman()
    nemenyi = board_figures.nemenyi_cd(suite)
    assert f"CD = {fr.critical_difference:.2f}" in nemenyi.layout.title.text
    assert any(f"= {fr.critical_difference:.2f}" in a.text for a in nemenyi.layout.annotations)
    bar = [s for s in nemenyi.layout.shapes if s.line.width == 2 and s.y0 == s.y1][0]
    assert bar.x1 - bar.x0 == pytest.approx(fr.critical_difference)
    assert len([s for s in nemenyi.layout.shapes if s.line.width == 6]) == len(
        cliques(fr.different()[np.ix_(*[np.argsort(fr.mean_ranks, kind="stable")] * 2)]))


def test_many_prints_the_friedman_test_when_asked_and_refuses_it_where_it_has_no_meaning(suite, capsys):
    from sigcore.__main__ import main
    from sigcore.report import board as words

    args = ["many", str(SUITE), "--metric", "acc", "exact_match[maj@3]", "--resamples", "2000", "--seed", "3"]
    assert main(args + ["--friedman"]) == 0
    assert words.friedman(suite, 0.05) in capsys.readouterr().out.splitlines()
    assert main(args + ["--friedman", "--all-pairs", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["friedman"]
    fr = suite.friedman()
    assert out["mean_ranks"] == pytest.approx(dict(zip(fr.models, fr.mean_ranks)))
    assert (out["f"], out["p_value"], out["critical_difference"]) == pytest.approx(
        (fr.f, fr.p_value, fr.critical_difference))
    assert main(args + ["--friedman", "--csv"]) == 2
    assert "--csv prints one table; the Friedman test is not a row of it" in capsys.readouterr().err
    mt = Path(__file__).resolve().parents[1] / "sample_data" / "mt"
    systems = sorted(str(p) for p in mt.iterdir())
    assert main(["many", *systems, "--friedman"]) == 2
    assert "--friedman is for models on many tasks" in capsys.readouterr().err
