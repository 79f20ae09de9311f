"""The Compare page's Claim setting (sigcore.claims): no worse than, or within, a margin Δ on the MT sample's BLEU;
the sentence, the bound and p the engine's, the chart counting the claim's tails at 2·δ(x) ± Δ; the margin asked
for, never guessed; only the tests with a shifted null offered."""

import pytest

from sigcore import claims, compare
from sigcore.report import claim_text
from ui.safe import md

from helpers.apps import app, frames_of, mt_sample, on_slp3, run, select, slp3


def _claim(at, kind: str, margin: float):
    select(at, "Claim").set_value(kind).run()
    next(n for n in at.number_input if n.label == "Margin Δ").set_value(margin).run()
    return at


def test_a_non_inferiority_claim_runs_and_says_what_the_engine_says():
    at = app()
    select(at, "Claim").set_value("non-inferior").run()
    assert "Give the margin Δ on bleu's scale" in " ".join(i.value for i in at.info)  # asked, not guessed
    assert not [b for b in at.button if b.label == "Run"]
    assert select(at, "Test").options == ["bootstrap (recommended)"] and select(at, "H1").disabled  # BLEU: no t
    at = run(_claim(at, "non-inferior", 2.5))
    assert not at.exception and not at.error
    gold, a, b = mt_sample()
    expected = claims.claim(gold, a, b, kind="non-inferior", margin=2.5, metric="bleu", tokenize="13a")
    shown = [s.value for s in at.success] + [i.value for i in at.info if "no worse" in i.value]
    assert shown == [md(claim_text.sentence(expected, "A (uedin-nmt)", "B (LIUM-NMT)"))]
    assert expected.shown and expected.bound_low > -2.5
    frames = frames_of(at)
    low, _ = claims.tails(expected.result, "non-inferior", 2.5)
    assert sum(frames[-1]["y"][1]) == int(low.sum())  # the red bars: the resamples the claim's p counts
    assert f"the claim's {expected.p_text}" in frames[-1]["texts"]["status"]
    table = next(d.value for d in at.dataframe if "shown at α" in d.value.columns)
    assert table["p"].tolist() == [expected.p_text.removeprefix("p ").removeprefix("= ")]
    assert table["shown at α"].tolist() == [True]


def test_an_equivalence_claim_on_accuracy_by_the_t_test():
    at = _claim(on_slp3(app()), "equivalent", 0.3)
    assert set(select(at, "Test").options) == {"bootstrap", "t"}
    select(at, "Test").set_value("t").run()
    at = run(at)
    assert not at.exception and not at.error
    gold, a, b = slp3()
    expected = claims.claim(gold, a, b, kind="equivalent", margin=0.3, test="t")
    shown = [s.value for s in at.success] + [i.value for i in at.info if "equivalent" in i.value]
    assert shown == [md(claim_text.sentence(expected, "A", "B"))] and not expected.shown  # 10 documents: not shown
    assert compare(gold, a, b, test="t").delta == expected.result.delta == pytest.approx(0.2)
