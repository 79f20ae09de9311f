"""Almost Stochastic Order against deepsig 1.2.8, whose outputs on fixed inputs are recorded in
tests/data/deepsig_aso.json (with the call that made them): to the last bits with deepsig's own draws, and within
Monte-Carlo error with ours."""

import json
from pathlib import Path

import numpy as np
import pytest

from sigcore import SettingsError
from sigcore.statistics.aso import aso, multi_aso, violation_ratio

DEEPSIG = json.loads((Path(__file__).parent / "data" / "deepsig_aso.json").read_text())
CASES = {case["name"]: case for case in DEEPSIG["aso"]}


def _kwargs(case):
    return dict(case["kwargs"])  # deepsig's argument names, which aso() shares


@pytest.mark.parametrize("name", CASES)
def test_equals_deepsig_with_its_draws(name):
    case = CASES[name]
    res = aso(case["a"], case["b"], compat="deepsig", **_kwargs(case))
    assert res.eps_min == pytest.approx(case["eps_min"], abs=1e-12)


@pytest.mark.parametrize("name", CASES)
def test_agrees_with_deepsig_within_monte_carlo_error_with_our_draws(name):
    """The spread of ε_min over independent bootstrap seeds was at most 0.015 (sd) on these cases; 0.05 is
    more than 3 sd, and the clipped values 0 and 1 must agree exactly."""
    case = CASES[name]
    res = aso(case["a"], case["b"], **_kwargs(case))
    if case["kwargs"].get("num_comparisons", 1) > 1:  # ours is Bonferroni's 1 - α/k, deepsig's 1 - α(k - 1)/k
        assert res.confidence_level == 1 - 0.05 / 3 and res.eps_min >= case["eps_min"] - 0.05
    elif case["eps_min"] in (0.0, 1.0):
        assert res.eps_min == case["eps_min"]
    else:
        assert res.eps_min == pytest.approx(case["eps_min"], abs=0.05)


@pytest.mark.parametrize("case", DEEPSIG["multi_aso"], ids=lambda c: c["name"])
def test_multi_aso_equals_deepsig_off_the_diagonal_and_leaves_the_diagonal_empty(case):
    """deepsig writes 1 on the diagonal, which reads as a system compared with itself; ours is NaN there."""
    kwargs = {"seed": case["kwargs"]["seed"], "bonferroni": case["kwargs"].get("use_bonferroni", True)}
    table = multi_aso(case["scores"], compat="deepsig", **kwargs)
    assert list(table.index) == list(table.columns) == case["index"]
    expected = np.array(case["matrix"], dtype=float)
    off = ~np.eye(len(expected), dtype=bool)
    np.testing.assert_allclose(table.to_numpy()[off], expected[off], rtol=0, atol=1e-12)
    assert np.all(np.diag(expected) == 1) and np.all(np.isnan(np.diag(table.to_numpy())))
    assert table.attrs["n_bootstrap"] == 1000  # deepsig's default, under compat="deepsig"


def test_the_default_b_is_10000_and_agrees_with_deepsigs_1000_within_monte_carlo_error():
    """deepsig's recorded table without Bonferroni (whose correction differs from ours for 3 systems), from its
    default 1,000 draws, against ours from 10,000 of our own."""
    case = next(c for c in DEEPSIG["multi_aso"] if c["name"] == "multi_nobonf")
    table = multi_aso(case["scores"], bonferroni=False, seed=0)
    assert table.attrs["n_bootstrap"] == 10_000 and table.attrs["seed"] == 0 and table.attrs["num_comparisons"] == 1
    assert multi_aso(case["scores"], seed=0).attrs["num_comparisons"] == 3
    assert aso([0.7, 0.8, 0.75], [0.6, 0.65, 0.7], seed=0).n_bootstrap == 10_000
    assert aso([0.7, 0.8, 0.75], [0.6, 0.65, 0.7], seed=0, compat="deepsig").n_bootstrap == 1000
    deepsig = np.array(case["matrix"], dtype=float)
    off = ~np.eye(len(deepsig), dtype=bool)
    np.testing.assert_allclose(table.to_numpy()[off], deepsig[off], rtol=0, atol=0.05)  # as the aso cases above


def test_the_matrix_prints_a_dash_on_its_diagonal():
    table = multi_aso({"a": [0.9, 0.91, 0.92], "b": [0.8, 0.81, 0.82]}, seed=0)
    lines = [line.split() for line in table.round(3).to_string(na_rep="—").splitlines()]
    assert lines == [["a", "b"], ["a", "—", "0.0"], ["b", "1.0", "—"]]  # b over a is 1: a dominates b


def test_violation_ratio_by_hand():
    # A above B at every quantile: no violation; B above A: all of it; equal distributions: 0.5 by convention
    assert violation_ratio([2.0, 3.0], [0.0, 1.0]) == 0.0
    assert violation_ratio([0.0, 1.0], [2.0, 3.0]) == pytest.approx(1 - 1 / 199)  # deepsig skips t = dt
    assert violation_ratio([1.0, 2.0], [2.0, 1.0]) == 0.5


def test_readings_follow_the_thresholds():
    a, b = [0.80, 0.81, 0.82, 0.83], [0.70, 0.71, 0.72, 0.73]
    assert aso(a, b, seed=0).reading().startswith("A is stochastically dominant")
    assert aso(b, a, seed=0).reading().startswith("no evidence")
    rng = np.random.default_rng(3)
    res = aso(rng.normal(0.75, 0.02, 10), rng.normal(0.74, 0.02, 10), seed=0)
    text = res.reading()
    assert (res.eps_min < 0.2) == ("almost stochastically dominant" in text)
    assert f"{res.eps_min:.3f}" in text


def test_seeded_runs_repeat_and_memory_is_bounded():
    rng = np.random.default_rng(0)
    a, b = rng.normal(0.7, 0.05, 3000), rng.normal(0.69, 0.05, 3000)  # many runs: drawn in blocks
    assert aso(a, b, seed=5, n_bootstrap=400).eps_min == aso(a, b, seed=5, n_bootstrap=400).eps_min


@pytest.mark.parametrize("kwargs, message", [
    ({"scores_a": [0.7], "scores_b": [0.6, 0.5]}, "at least 2 scores"),
    ({"scores_a": [0.7, float("nan")], "scores_b": [0.6, 0.5]}, "missing or infinite"),
    ({"scores_a": ["x", "y"], "scores_b": [0.6, 0.5]}, "must be numbers"),
    ({"scores_a": [0.7, 0.8], "scores_b": [0.6, 0.5], "confidence_level": 1.5}, "between 0 and 1"),
    ({"scores_a": [0.7, 0.8], "scores_b": [0.6, 0.5], "compat": "deepsig", "seed": None},
     "`seed` must be a non-negative integer, not None"),
    ({"scores_a": [0.7, 0.8], "scores_b": [0.6, 0.5], "n_bootstrap": 0}, "`n_bootstrap` must be an integer of at"),
    ({"scores_a": [0.7, 0.8], "scores_b": [0.6, 0.5], "n_bootstrap": 10.5}, "`n_bootstrap` must be an integer of at"),
])
def test_bad_input_is_refused(kwargs, message):
    with pytest.raises(SettingsError, match=message):
        aso(**kwargs)
