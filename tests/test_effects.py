"""Effect sizes of a comparison (sigcore.effects): the ones that fit the metric, agreeing with the test's own
numbers, in the CLI and its JSON."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sigcore
from sigcore.__main__ import main
from sigcore.effects import effect_sizes, item_values

rng = np.random.default_rng(3)
N = 200
GOLD = rng.integers(0, 3, N)
A = np.where(rng.random(N) < 0.75, GOLD, (GOLD + 1) % 3)
B = np.where(rng.random(N) < 0.65, GOLD, (GOLD + 1) % 3)


def test_item_values_are_each_items_share_of_the_metric():
    a, b = item_values(GOLD, A, B)
    assert np.array_equal(a, (A == GOLD).astype(float)) and np.array_equal(b, (B == GOLD).astype(float))
    assert item_values(GOLD, A, B, metric="macro_f1") is None  # not a mean of per-item values
    assert effect_sizes(["a b c"] * 5, ["a b c"] * 5, ["a b d"] * 5, metric="bleu") == []


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["greater", "less", "two-sided"]))
def test_right_wrong_effects_agree_with_mcnemar_and_delta(seed, alternative):
    gen = np.random.default_rng(seed)
    n = int(gen.integers(5, 120))
    gold = gen.integers(0, 2, n)
    a, b = (np.where(gen.random(n) < p, gold, 1 - gold) for p in gen.uniform(0.4, 0.95, 2))
    res = sigcore.compare(gold, a, b, test="mcnemar", alternative=alternative)
    odds, dz = effect_sizes(gold, a, b, alternative=alternative, confidence_level=res.confidence_level)
    assert (odds.n10, odds.n01) == (res.wins, res.losses)  # the discordant pairs McNemar tested
    if odds.n10 + odds.n01 and np.ptp((a == gold).astype(int) - (b == gold).astype(int)) > 0:
        assert np.sign(odds.value - 1) == np.sign(res.delta) == np.sign(dz.value)  # odds above 1: A ahead
        if alternative == "greater":  # one-sided: a lower bound only, as the test's interval
            assert dz.ci_high == np.inf and odds.ci_high == np.inf
        if alternative == "less":
            assert dz.ci_low == -np.inf and odds.ci_low == 0


def test_cli_prints_and_saves_effect_sizes(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text("gold,a,b\n" + "".join(f"{g},{x},{y}\n" for g, x, y in zip(GOLD, A, B)))
    assert main(["compare", str(table), "--resamples", "500"]) == 0
    out = capsys.readouterr().out
    assert "effect sizes (A − B):" in out and "paired odds ratio" in out and "d_z = " in out
    assert main(["compare", str(table), "--resamples", "500", "--json"]) == 0
    saved = json.loads(capsys.readouterr().out)
    names = [e["name"] for e in saved["effect_sizes"]]
    assert names == ["odds_ratio", "cohens_dz"]
    a, b = item_values(GOLD, A, B)
    assert saved["effect_sizes"][1]["value"] == pytest.approx((a - b).mean() / (a - b).std(ddof=1))
