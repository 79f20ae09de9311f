"""Non-inferiority and equivalence (sigcore.claims): the t-test's against statsmodels' ttost_paired and scipy's
shifted one-sided test; the bootstrap's p counted from its own δ(x⁽ⁱ⁾) and its bound the dual of that p over many
random cases; type I error at the margin (true δ = −Δ) at most α, and the bound's coverage, by simulation for
accuracy, macro-F1 and BLEU; the sentence, the bound and the decision agreeing."""

import json
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.weightstats import ttost_paired

from sigcore import claims, compare
from sigcore.errors import SettingsError
from sigcore.report import citations, claim_text, records
from sigcore.signature import margin_text


def _pair(rng, n, p_a, p_b):
    gold = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < p_a, gold, (gold + 1) % 3)
    b = np.where(rng.random(n) < p_b, gold, (gold + 2) % 3)
    return gold, a, b


@pytest.mark.parametrize("seed", range(10))
def test_the_t_test_s_claims_are_statsmodels_and_scipy_s(seed):
    rng = np.random.default_rng(seed)
    gold, a, b = _pair(rng, int(rng.integers(30, 400)), rng.uniform(0.6, 0.9), rng.uniform(0.6, 0.9))
    margin, alpha = float(rng.uniform(0.01, 0.1)), (0.05, 0.1, 0.01)[seed % 3]
    right_a, right_b = (a == gold).astype(float), (b == gold).astype(float)
    eq = claims.claim(gold, a, b, kind="equivalent", margin=margin, test="t", alpha=alpha)
    p, low, high = ttost_paired(right_a, right_b, -margin, margin)
    assert (eq.p_value, eq.p_low, eq.p_high) == pytest.approx((p, low[1], high[1]), rel=1e-10)
    ni = claims.claim(gold, a, b, kind="non-inferior", margin=margin, test="t", alpha=alpha)
    d = right_a - right_b
    assert ni.p_value == pytest.approx(stats.ttest_1samp(d + margin, 0, alternative="greater").pvalue, rel=1e-10)
    ci = stats.ttest_1samp(d, 0).confidence_interval(1 - 2 * alpha)  # its ends: the one-sided 1 - α bounds
    assert (ni.bound_low, eq.bound_low, eq.bound_high) == pytest.approx((ci.low, ci.low, ci.high), rel=1e-10)
    assert ni.shown == (ni.bound_low > -margin) and eq.shown == (-margin < eq.bound_low and eq.bound_high < margin)


@pytest.mark.parametrize("seed", range(30))
def test_the_bootstrap_s_p_is_its_count_and_its_bound_the_dual(seed):
    rng = np.random.default_rng(100 + seed)
    gold, a, b = _pair(rng, int(rng.integers(40, 300)), rng.uniform(0.6, 0.9), rng.uniform(0.6, 0.9))
    metric = ("accuracy", "macro_f1")[seed % 2]
    b_count, alpha = (500, 1000, 2000)[seed % 3], (0.05, 0.1)[seed % 2]
    res = compare(gold, a, b, metric=metric, test="bootstrap", alternative="greater", n_resamples=b_count, seed=seed)
    for margin in rng.uniform(0.001, 0.15, 4):
        ni = claims.claim(gold, a, b, kind="non-inferior", margin=margin, metric=metric, n_resamples=b_count,
                          seed=seed, alpha=alpha)
        eq = claims.claim(gold, a, b, kind="equivalent", margin=margin, metric=metric, n_resamples=b_count,
                          seed=seed, alpha=alpha)
        count = np.sum(res.distribution >= 2 * res.delta + margin - 1e-12)
        mirror = np.sum(res.distribution <= 2 * res.delta - margin + 1e-12)
        assert ni.p_low == count / b_count and eq.p_high == mirror / b_count
        assert ni.p_value == max(count, 1) / b_count and eq.p_value == max(count, mirror, 1) / b_count
        assert ni.shown == (ni.bound_low > -margin)  # the bound and the decision agree, for every margin
        assert eq.shown == (eq.bound_low > -margin and eq.bound_high < margin)
        assert ni.bound_low == eq.bound_low and eq.bound_low <= res.delta <= eq.bound_high
        _agrees(ni), _agrees(eq)


def _agrees(c):
    """The sentence says what the claim decided, with its bound and p as computed."""
    text = claim_text.sentence(c, "new", "old")
    assert text.startswith("Not shown that ") != c.shown, text
    bound = re.search(r"bound δ ≥ (\S+?)[, ]|interval of δ (\S+) to (\S+?)[, ]", text)
    shown = [float(x.replace("−", "-")) for x in bound.groups() if x]
    expected = [c.bound_low] if c.kind == "non-inferior" else [c.bound_low, c.bound_high]
    assert shown == pytest.approx(expected, abs=5e-5), text
    assert margin_text(c.margin) in text and f"α = {c.alpha:g}" in text


def _decided_alike(c):
    """The object, its JSON and its words say one decision: p <= α exactly when the bound lies above −Δ (and the
    interval's upper end below Δ)."""
    inside = c.bound_low > -c.margin and (c.kind == "non-inferior" or c.bound_high < c.margin)
    assert c.shown == (c.p_value <= c.alpha) == inside, (c.bound_low, c.bound_high, c.p_value)
    saved = json.loads(records.dumps(records.claim(c, resamples=False)))
    high = math.inf if saved["bound_high"] is None else saved["bound_high"]
    assert saved["shown"] == c.shown and (saved["bound_low"], high) == (c.bound_low, c.bound_high)
    assert saved["shown"] == (saved["bound_low"] > -saved["margin"] and (
        saved["claim"] == "non-inferior" or high < saved["margin"]))
    text = claim_text.sentence(c, "new", "old")
    assert text.startswith("Not shown that ") != c.shown, text
    bound = re.search(r"bound δ ≥ (\S+?)[, ]|interval of δ (\S+) to (\S+?)[, ]", text)
    printed = [float(x.replace("−", "-")) for x in bound.groups() if x]
    for x, value, digits in zip(printed, (c.bound_low, c.bound_high), (x for x in bound.groups() if x)):
        assert x == pytest.approx(value, abs=0.51 * 10 ** -len(digits.partition(".")[2])), text  # as rounded
    edge = float(margin_text(c.margin))  # the words: the printed bound on the printed margin's right side
    assert (printed[0] > -edge and (len(printed) == 1 or printed[1] < edge)) == c.shown, text


def test_the_audits_claim_bound_on_the_margin_is_the_margin():
    """Accuracy on 50 items, Δ = 0.1, α = 0.1, b = 999: the bound came out −0.09999999999999987 (not shown, yet
    above −0.1 and printed as −0.0999999999999999); within the tie tolerance of −Δ it is −Δ, in every view."""
    rng = np.random.default_rng(16)
    gold = rng.integers(0, 2, 50)
    a = np.where(rng.random(50) < rng.uniform(0.5, 0.9), gold, 1 - gold)
    b = np.where(rng.random(50) < rng.uniform(0.5, 0.9), gold, 1 - gold)
    c = claims.claim(gold, a, b, kind="non-inferior", margin=0.1, alpha=0.1, n_resamples=999, seed=16)
    raw = 2 * c.result.delta - np.sort(c.result.distribution)[999 - 99 - 1]  # the order statistic itself
    assert raw != -0.1 and abs(raw + 0.1) < 1e-12
    assert c.bound_low == -0.1 and not c.shown and c.p_value > 0.1
    assert "bound δ ≥ −0.1000 does not exclude −0.1;" in claim_text.sentence(c)
    assert json.loads(records.dumps(records.claim(c, resamples=True)))["bound_low"] == -0.1
    _decided_alike(c)


def test_a_constant_difference_on_the_margin_up_to_float_noise_is_on_it():
    """The t-test's claim where every item differs alike: 0.3 − 0.4 is −0.10000000000000003 as floats, on −Δ by
    the one tie rule, so the claim is not shown (a tie counts as extreme), in the object and the words."""
    b = np.array([0.4, 0.5, 0.9, 0.7, 0.6] * 4)
    a = np.round(b - 0.1, 1)
    for kind in claims.KINDS:
        c = claims.claim(None, a, b, kind=kind, margin=0.1, test="t", metric="mean")
        assert c.bound_low == -0.1 and not c.shown and c.p_value == 1.0
        _decided_alike(c)


def _random_claim(data) -> claims.Claim:
    """A claim on small data whose δ(x⁽ⁱ⁾) and margins lie on a lattice (1/n for right/wrong items, 0.1 or 0.01 for
    decimal scores), where bounds land on ±Δ up to float noise."""
    metric = data.draw(st.sampled_from(["accuracy", "mean", "macro_f1"]))
    test = data.draw(st.sampled_from(["bootstrap", "t"] if metric != "macro_f1" else ["bootstrap"]))
    n = data.draw(st.integers(8, 80))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    if metric == "mean":
        places = data.draw(st.sampled_from([1, 2]))
        gold, a, b = None, *(np.round(rng.integers(0, 10 ** places + 1, n) / 10 ** places, places) for _ in "ab")
        margin = data.draw(st.sampled_from([0.1, 0.05, 0.2, 0.01]))
    else:
        gold, a, b = _pair(rng, n, rng.uniform(0.5, 0.9), rng.uniform(0.5, 0.9))
        margin = data.draw(st.sampled_from([k / n for k in (1, 2, 3, 5)] + [0.1, 0.05]))
    return claims.claim(gold, a, b, kind=data.draw(st.sampled_from(claims.KINDS)), margin=margin, metric=metric,
                        test=test, alpha=data.draw(st.sampled_from([0.05, 0.1, 0.2])),
                        n_resamples=data.draw(st.sampled_from([199, 999, 1000])), seed=int(rng.integers(1000)))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_bound_and_p_decide_alike_in_every_claim(data):
    """Both claims, both tests, three metrics: p <= α exactly when the bound lies above −Δ (and below Δ)."""
    _decided_alike(_random_claim(data))


def test_the_audits_sweep_of_claims_on_a_lattice_decides_alike():
    """The audit's class: accuracy on 50 items, Δ = 0.1 (and 0.06, on the 1/50 lattice), α = 0.1, b = 999, both
    claims; about one bound in eight lands on ±Δ on paper (223 of 3,000 were on the wrong side by float noise)."""
    rng = np.random.default_rng(39)
    on_margin = 0
    for case in range(400):
        gold, a, b = _pair(rng, 50, rng.uniform(0.5, 0.9), rng.uniform(0.5, 0.9))
        margin = (0.1, 0.06)[case % 2]
        res = compare(gold, a, b, test="bootstrap", alternative="greater", alpha=0.1, n_resamples=999, seed=case)
        for kind in claims.KINDS:
            c = claims.from_result(res, kind, margin)
            _decided_alike(c)
            on_margin += c.bound_low == -margin or c.bound_high == margin
    assert on_margin > 40


def test_refused_tests_margins_and_metrics_say_why():
    gold, a, b = _pair(np.random.default_rng(0), 50, 0.8, 0.8)
    for test in ("permutation", "wilcoxon", "sign", "mcnemar"):
        with pytest.raises(SettingsError, match="has no shifted null"):
            claims.claim(gold, a, b, kind="non-inferior", margin=0.05, test=test)
    for margin in (0, -0.1, math.nan, math.inf):
        with pytest.raises(SettingsError, match="margin must be a positive number"):
            claims.claim(gold, a, b, kind="equivalent", margin=margin)
    with pytest.raises(SettingsError, match="needs a mean of per-item values"):
        claims.claim(gold, a, b, kind="equivalent", margin=0.05, test="t", metric="macro_f1")
    with pytest.raises(SettingsError, match="unknown claim"):
        claims.claim(gold, a, b, kind="better", margin=0.05)


def _words(rng, n, length=12, vocab=60):
    return [" ".join(f"w{x}" for x in rng.integers(0, vocab, length)) for _ in range(n)]


def _corrupt(rng, refs, rate):
    return [" ".join(w if rng.random() > rate else f"x{rng.integers(0, 9)}" for w in r.split()) for r in refs]


def _at_the_margin(metric: str, rng):
    """A generator of (gold, A, B) whose population δ is −Δ, and Δ: A errs (or corrupts) more than B. For accuracy
    and macro-F1 δ is exactly 0.74 − 0.78 (a wrong label always differs from gold, and each class's wrong labels
    go to one other class: TP = p/3, FP = FN = (1 − p)/3, so each class's F1 is p). An estimate from a sample would
    put Δ off by ~0.0002, and on accuracy's lattice of 1/n that moves the bounds landing on the true δ itself
    (about 1% of test sets of 300 items) to one side of −Δ or the other. For BLEU δ is measured on a population of
    20,000 sentences."""
    if metric != "bleu":
        return (lambda n, r=rng: _pair(r, n, 0.74, 0.78)), 0.78 - 0.74
    rates = (0.30, 0.34)

    def draw(n, r=rng):
        refs = _words(r, n)
        return refs, _corrupt(r, refs, rates[1]), _corrupt(r, refs, rates[0])
    truth = compare(*draw(20_000, np.random.default_rng(12345)), metric=metric, test="bootstrap", n_resamples=1,
                    ci_method=None).delta
    return draw, -truth


@pytest.mark.slow
@pytest.mark.parametrize("metric,n,sims,test", [("accuracy", 300, 1000, "bootstrap"),
                                                ("accuracy", 1000, 600, "bootstrap"), ("accuracy", 300, 600, "t"),
                                                ("macro_f1", 1000, 300, "bootstrap"), ("bleu", 150, 150, "bootstrap")])
def test_at_the_margin_a_claim_is_shown_at_most_alpha_of_the_time(metric, n, sims, test):
    """True δ = −Δ: the claim is false, and shown (the bound above −Δ, so missing δ) at most α of the time."""
    rng = np.random.default_rng(7)
    draw, margin = _at_the_margin(metric, rng)
    assert margin > 0
    shown = np.array([claims.claim(*draw(n), kind="non-inferior", margin=margin, metric=metric, test=test,
                                   n_resamples=500, seed=i).shown for i in range(sims)])
    rate, se = shown.mean(), math.sqrt(0.05 * 0.95 / sims)
    assert rate <= 0.05 + 2.5 * se, (metric, rate)  # the bound covers δ = −Δ at least 95% of the time
    if metric == "accuracy":  # near α, not far below: a test, not a refusal to claim
        assert rate > 0.05 - 2.5 * se, rate


def test_compare_non_inferior_and_equivalent_on_the_command_line(tmp_path, capsys):
    import json

    from sigcore.__main__ import main

    rng = np.random.default_rng(3)
    gold, a, b = _pair(rng, 400, 0.8, 0.81)
    table = tmp_path / "t.csv"
    table.write_text("gold,new,old\n" + "".join(f"{g},{x},{y}\n" for g, x, y in zip(gold, a, b)))
    assert main(["compare", str(table), "--non-inferior", "0.05", "--resamples", "2000", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = claims.claim(gold.astype(str), a.astype(str), b.astype(str), kind="non-inferior", margin=0.05,
                            n_resamples=2000)
    assert (got["p_value"], got["bound_low"], got["shown"]) == (expected.p_value, expected.bound_low, expected.shown)
    assert (got["a_name"], got["b_name"], got["bound_high"]) == ("new", "old", None)
    assert main(["compare", str(table), "--equivalent", "0.05", "--test", "t"]) == 0
    *_, printed, signature = capsys.readouterr().out.strip().splitlines()
    eq = claims.claim(gold.astype(str), a.astype(str), b.astype(str), kind="equivalent", margin=0.05, test="t")
    assert printed == claim_text.sentence(eq, "new", "old") and signature == eq.signature  # the signature last
    for extra, said in ((["--alternative", "greater"], "--alternative is not taken with --non-inferior"),
                        (["--test", "mcnemar"], "the mcnemar test has no shifted null"),
                        (["--save", "x.json"], "--save is not taken with --non-inferior")):
        assert main(["compare", str(table), "--non-inferior", "0.05", *extra]) == 2
        assert said in capsys.readouterr().err


def _paired_items(rng, n, accuracy_a, accuracy_b, agreement):
    """Right/wrong items with the given accuracies and agreement: only-A, only-B, both or neither right."""
    only_a = (1 - agreement + accuracy_a - accuracy_b) / 2
    only_b = 1 - agreement - only_a
    both = accuracy_a - only_a
    kind = rng.choice(4, size=n, p=[only_a, only_b, both, 1 - only_a - only_b - both])
    a = np.isin(kind, (0, 2)).astype(int)
    b = np.isin(kind, (1, 2)).astype(int)
    return np.ones(n, dtype=int), a, b


@pytest.mark.slow
@pytest.mark.parametrize("kind,accuracy_b,margin", [("non-inferior", 0.75, 0.04), ("equivalent", 0.75, 0.05),
                                                    ("non-inferior", 0.77, 0.05)])
def test_the_planned_power_is_what_the_claim_s_t_test_reaches(kind, accuracy_b, margin):
    rng, n, sims = np.random.default_rng(11), 400, 800
    delta, sd = claims.from_rates(0.75, accuracy_b, 0.85)
    planned = claims.power(kind, margin, delta=delta, sd=sd, n=n)
    shown = np.mean([claims.claim(*_paired_items(rng, n, 0.75, accuracy_b, 0.85), kind=kind, margin=margin,
                                  test="t").shown for _ in range(sims)])
    assert abs(shown - planned) < 3 * math.sqrt(planned * (1 - planned) / sims) + 0.01, (shown, planned)


def test_a_plan_says_how_many_items_and_equivalence_needs_more():
    delta, sd = claims.from_rates(0.75, 0.75, 0.85)
    ni, eq = (claims.plan(k, 0.03, delta=delta, sd=sd, n=1000) for k in claims.KINDS)
    assert ni.n_needed < eq.n_needed  # two sides to clear at once
    for p in (ni, eq):
        assert claims.power(p.kind, 0.03, delta=delta, sd=sd, n=p.n_needed) >= 0.8
        assert claims.power(p.kind, 0.03, delta=delta, sd=sd, n=p.n_needed - 1) < 0.8
        assert f"items for 80% power: {p.n_needed:,}" in p.text() and f"power at 1,000 items: {p.power_at_n:.1%}" \
            in p.text()
    past = claims.plan("non-inferior", 0.03, delta=-0.04, sd=sd)  # the true δ beyond the margin: never shown
    assert past.n_needed is None and "too close to the margin, or past it" in past.text()
    with pytest.raises(SettingsError, match="cannot agree on"):
        claims.from_rates(0.9, 0.5, 0.8)


def test_power_plans_a_claim_on_the_command_line(capsys):
    from sigcore.__main__ import main

    assert main(["power", "--n", "1000", "--accuracy-a", "0.75", "--accuracy-b", "0.75", "--agreement", "0.85",
                 "--equivalent", "0.03"]) == 0
    delta, sd = claims.from_rates(0.75, 0.75, 0.85)
    assert capsys.readouterr().out.strip() == claims.plan("equivalent", 0.03, delta=delta, sd=sd, n=1000).text()


@pytest.mark.slow  # pdflatex and bibtex
def test_a_claims_latex_sentence_says_the_sentences_numbers_cites_its_tests_and_compiles(tmp_path, capsys):
    """The claim in a paper's text: the same bound, p and decision as the plain sentence, δ and the bound in math
    mode, the test and Schuirmann (1987) cited; pdflatex and bibtex take it (tests/helpers/latex.py's paper)."""
    from sigcore.__main__ import main
    from sigcore.report import export

    from helpers.latex import compile_paper

    rng = np.random.default_rng(8)
    gold, a, b = _pair(rng, 300, 0.8, 0.8)
    bodies = []
    for kind, margin, test in (("non-inferior", 0.05, "bootstrap"), ("equivalent", 0.06, "t"),
                               ("non-inferior", 0.001, "t")):
        c = claims.claim(gold, a, b, kind=kind, margin=margin, test=test, n_resamples=2000)
        tex = export.claim_latex(c, a="int8_model", b="fp16 & co")
        plain = claim_text.sentence(c, "int8_model", "fp16 & co")
        assert tex.startswith("Not shown" if not c.shown else "int8") == plain.startswith("Not shown" if not c.shown
                                                                                         else "int8")
        low = claim_text.bound_texts(c)[0].replace("−", "-")  # the bound as the sentence prints it
        assert (f"\\geq {low}$" if kind == "non-inferior" else low.lstrip("-")) in tex
        assert c.p_text.split(" ")[-1] in tex and "schuirmann1987comparison" in tex
        assert r"int8\_model" in tex and r"fp16 \& co" in tex
        bodies.append(tex)
    compile_paper(tmp_path, "\n\n".join(bodies))
    table = tmp_path / "t.csv"
    table.write_text("gold,new,old\n" + "".join(f"{g},{x},{y}\n" for g, x, y in zip(gold, a, b)))
    assert main(["compare", str(table), "--equivalent", "0.05", "--bibtex"]) == 0
    keys = re.findall(r"^@\w+\{([^,]+),", capsys.readouterr().out, flags=re.M)
    assert keys == citations.claim_keys("bootstrap", "accuracy") + [citations.TOOL]
    assert main(["compare", str(table), "--sequential", "--bibtex"]) == 0
    assert "waudbysmith2024estimating" in capsys.readouterr().out
