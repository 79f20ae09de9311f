"""The verdict sentence agrees with the numbers: winner, side, interval, rounding, decision; the cases of the
review that found it did not (each with its reproduction), and a property test over many random cases."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import sigcore
from sigcore import compare, report
from sigcore.io.inputs import read_lines
from sigcore.report import export
from sigcore.result import p_number

MIRROR = {"greater": "less", "less": "greater", "two-sided": "two-sided"}


# ---------------------------------------------------------------- reading a sentence back


LEAD = "Too few items differ to support this decision: "


def parse(sentence: str) -> dict:
    """What a reader takes from a verdict: winner, p as printed, the printed interval, the decision, and whether it
    opens by saying that so few items differ that no exact test could reach α (then the smallest p one can give)."""
    out = {"winner": None, "interval": None, "unsupported": None}
    if sentence.startswith(LEAD):
        lead, _, sentence = sentence.partition(". ")
        floor = re.search(r"on only ([\d,]+) .*, no exact test can give p below (\S+) \((one|two)-sided\), above "
                          r"α = ([\d.]+), and ", lead)
        out["unsupported"] = (int(floor.group(1).replace(",", "")), float(floor.group(2)), floor.group(3),
                              float(floor.group(4)))
    head = sentence.split("; p ")[0]
    won = re.match(r"(A|B) beats (A|B) ", head)
    if won:
        out["winner"] = won.group(1)
    number = r"(-?[\d.]+(?:e[+-]\d+)?)(%?)"
    at_least = re.search(rf"bound: (at least|more than) {number}", head)
    one_sided = re.search(rf"bound: \S+(?: share)? (≥|≤|>|<) {number}", head)
    two_sided = re.search(rf"% CI {number} to {number}(, 0 itself excluded)?", head)

    def value(match, group):  # shares print as percentages
        return float(match.group(group)) / (100 if match.group(group + 1) else 1)
    if at_least:  # "more than": an open end, the null itself excluded (Wilcoxon's interval at 0)
        out["interval"] = (at_least.group(1), value(at_least, 2))
    elif one_sided:
        out["interval"] = (one_sided.group(1), value(one_sided, 2))
    elif two_sided:
        out["interval"] = ("ci" if not two_sided.group(5) else "ci open at 0", value(two_sided, 1),
                           value(two_sided, 3))
    p = re.search(r"; p (=|<) (\S+) \((one|two)-sided\)", sentence)
    out["p"] = (p.group(1), float(p.group(2)))
    out["sided"] = p.group(3)
    decision = re.search(r": (significant|not significant)( at α = ([\d.]+)|: this test cannot reach α)", sentence)
    out["significant"] = decision.group(1) == "significant"
    out["unreachable"] = "cannot reach α" in sentence
    return out


def check_agreement(res: sigcore.Result) -> None:
    """Every statement of the sentence agrees with the result's numbers."""
    text = report.verdict(res)
    said = parse(text)
    assert said["significant"] == res.significant, text
    assert said["sided"] == ("two" if res.alternative == "two-sided" else "one"), text
    assert said["unreachable"] == (not res.reachable and not res.significant and res.side != 0
                                   and res.p_value > res.alpha), text
    op, shown = said["p"]
    assert "p = 0 " not in text and "± 0" not in text, text
    if op == "<":  # no resample as extreme (p < 1/b), or a closed-form p that underflowed
        assert (res.n_extreme == 0 and shown == float(p_number(res.p_floor))) or (res.p_value == 0 and shown == 1e-300)
    else:
        assert (shown <= res.alpha) == (res.p_value <= res.alpha), text  # rounding never crosses alpha
        assert shown != res.alpha or res.p_value == res.alpha, text
        assert shown == pytest.approx(res.p_value, rel=0.06, abs=5e-5), text
    if res.significant:  # the winner is the side of the effect, which is H1's side
        assert said["winner"] == ("A" if res.side > 0 else "B"), text
        assert res.alternative == "two-sided" or said["winner"] == ("A" if res.alternative == "greater" else "B")
    else:
        assert said["winner"] is None, text
    interval = said["interval"]
    null = 0.5 if res.estimand.startswith("share") else 0.0
    if interval is not None and res.side != 0:
        if interval[0] in ("at least", "more than"):  # the winner's margin (or share): past the null when it won
            edge = null if said["winner"] == "A" or null == 0 else 1 - null
            excludes = interval[1] > edge or interval[0] == "more than" and interval[1] == edge
        elif interval[0] in ("≥", "≤", ">", "<"):
            excludes = {"≥": interval[1] > null, "≤": interval[1] < null, ">": interval[1] >= null,
                        "<": interval[1] <= null}[interval[0]]
        else:
            low, high = interval[1:]
            assert low <= high, text
            excludes = low > null or high < null or interval[0] == "ci open at 0" and null in (low, high)
        touches = res.p_value == res.alpha and null in interval[1:]  # p = α exactly: the dual bound is the null
        agrees = excludes == res.significant or touches
        assert agrees or "not this test's dual" in text or "keeps the shifts on both sides of it" in text, text
        if (res.test, res.ci_method, res.compat) in (("bootstrap", "bootstrap-basic", None), ("t", "t", None),
                                                     ("z", "normal", None)):
            assert agrees, text  # a dual interval always agrees
    if not res.settled and res.reachable:
        assert "Monte-Carlo uncertainty" in text
    for w in res.warnings:
        assert w in text
    # the decision leads with what the data cannot support: significant, and no exact test could reach α
    floor = (2 if res.alternative == "two-sided" else 1) * 0.5 ** res.n_differing
    if res.significant and floor > res.alpha:
        m, shown_floor, sided, alpha = said["unsupported"]
        assert m == res.n_differing and sided == said["sided"] and alpha == res.alpha, text
        assert shown_floor == pytest.approx(min(floor, 1), rel=0.06) and shown_floor > res.alpha, text
    else:
        assert said["unsupported"] is None and "Too few items differ" not in text, text


# ---------------------------------------------------------------- the cases the review found


def _bleu_pair(n=60, seed=3):
    """References and two systems whose outputs B gets closer to: B wins on BLEU."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(40)]
    refs = [" ".join(rng.choice(words, 8)) for _ in range(n)]

    def noisy(keep):
        return [" ".join(w if rng.random() < keep else rng.choice(words) for w in ref.split()) for ref in refs]
    return refs, noisy(0.6), noisy(0.75)


@pytest.mark.parametrize("alternative, compat", [("less", None), ("two-sided", None), ("two-sided", "sacrebleu")])
def test_case_1_the_interval_is_in_the_winners_direction_when_b_wins(alternative, compat):
    refs, a, b = _bleu_pair()
    res = compare(refs, a, b, metric="bleu", tokenize="none", alternative=alternative, compat=compat, test="bootstrap")
    assert res.delta < 0 and res.significant
    text = report.verdict(res, a="A (FBK)", b="B (LIUM)")
    assert text.startswith(f"B (LIUM) beats A (FBK) by {report.number(-res.delta, report.scale_of(res))} BLEU (")
    bounds = [float(x) for x in re.findall(r"(?:at least|CI) (-?[\d.]+)(?: to (-?[\d.]+))?", text)[0] if x]
    assert all(x > 0 for x in bounds), text  # B's margin: positive numbers, never "-0.89 to -0.05"
    check_agreement(res)


def test_case_2_the_sign_test_names_the_winner_of_items_not_of_the_mean():
    a, b = [0.6] * 15 + [-1.5], [0.5] * 16  # A wins 15 of 16 items; B has the larger mean
    sign = compare(None, a, b, metric="mean", test="sign", alternative="greater")
    assert sign.delta < 0 and sign.significant and (sign.wins, sign.losses) == (15, 1)
    assert report.verdict(sign).startswith("A beats B on 15 of the 16 items where they differ (one-sided 95% "
                                           "bound: at least 74% of them); p = 0.00026 (one-sided), sign test")
    wilcoxon = compare(None, a, b, metric="mean", test="wilcoxon", alternative="greater")
    assert wilcoxon.estimand == "pseudo_median" and wilcoxon.estimate == pytest.approx(0.1)
    assert report.verdict(wilcoxon).startswith("A beats B by a pseudo-median of 0.1000 mean score per item")
    for res in (sign, wilcoxon):
        check_agreement(res)


def test_case_3_a_one_sided_p_comes_with_a_one_sided_bound_and_says_so():
    gold = [1] * 1000
    rng = np.random.default_rng(5)
    a, b = (rng.random(1000) < 0.75).astype(int), (rng.random(1000) < 0.71).astype(int)
    res = compare(gold, a, b, test="bootstrap", alternative="greater")  # default H1: A better
    assert res.alternative == "greater" and res.ci_high == math.inf and res.ci_side == "lower"
    text = report.verdict(res)
    assert "one-sided 95% bound" in text and "(one-sided)" in text and "CI" not in text
    check_agreement(res)


@pytest.mark.parametrize("test", ["t", "z", "sign", "wilcoxon", "bootstrap", "permutation"])
def test_case_4_float_noise_is_no_difference_in_any_test(test):
    res = compare(None, [0.1 + 0.2] * 60, [0.3] * 60, metric="mean", test=test, alternative="two-sided")
    assert res.p_value == 1 and not res.significant and res.side == 0
    assert report.verdict(res).startswith("A and B do not differ")


def test_case_5_resolution_and_alpha():
    toy = ([1] * 10, [1, 1, 1, 0, 1, 0, 1, 1, 0, 1], [1, 0, 1, 1, 0, 1, 0, 1, 0, 0])
    one = compare(*toy, n_resamples=1, test="bootstrap", alternative="greater")
    assert not one.significant and not one.reachable and "cannot reach α = 0.05" in report.verdict(one)
    assert "b ≥ 20 could reach it" in report.verdict(one)
    gold = [1] * 300
    clear = compare(gold, [1] * 300, [0] * 300, n_resamples=100, alpha=0.001, test="bootstrap", alternative="greater")
    assert clear.n_extreme == 0 and clear.p_value == 0.01 and not clear.significant
    assert "p < 0.01 (one-sided)" in report.verdict(clear) and "b ≥ 1,000 could reach it" in report.verdict(clear)
    assert compare(gold, [1] * 300, [0] * 300, n_resamples=1_000, alpha=0.001, test="bootstrap",
                   alternative="greater").significant
    data = compare(gold, [1] * 300, [0] * 300, n_resamples=1_000, test="bootstrap", alternative="greater").to_dict()
    assert data["p_value"] > 0 and data["mc_error"] > 0 and data["n_extreme"] == 0 and data["p_floor"] == 0.001
    assert p_number(0.049995, 0.05) == "0.04999" and p_number(0.050004, 0.05) == "0.050004"  # never "0.05"
    assert p_number(0.05, 0.05) == "0.05" and p_number(0.0336, 0.05) == "0.0336"
    exact = compare(None, [1.0, 2.0, 3.0], [0.0, 0.0, 0.0], metric="mean", test="permutation",
                    alternative="two-sided")
    assert exact.exact and exact.p_floor == 0.25 == exact.p_value  # 2 of the 8 swaps are as extreme
    assert compare(None, [1.0, 2.0, 3.0], [0.0] * 3, metric="mean", test="permutation",
                   alternative="greater").p_floor == 0.125


def test_case_5_straddling_alpha_says_so_and_how_many_resamples_would_settle_it():
    rng = np.random.default_rng(11)
    for seed in range(200):
        a = rng.random(200) < 0.6
        res = compare([1] * 200, a.astype(int), (rng.random(200) < 0.55).astype(int), n_resamples=500, seed=seed,
                      test="bootstrap", alternative="greater")
        if not res.settled:
            break
    else:
        pytest.fail("no unsettled case found")
    text = report.verdict(res)
    assert "Monte-Carlo uncertainty: p's 95% interval" in text and "resamples in all would settle it" in text
    assert res.resamples_to_settle() > 500


def test_case_6_a_bound_that_rounds_to_zero_keeps_its_sign():
    assert report.number(-0.0038, 23.0) == "-0.0038" and report.number(0.0038, 23.0) == "0.0038"
    assert report.number(0.0, 23.0) == "0.00" and report.number(2.39, 23.0) == "2.39"
    assert report.number(-2e-5, 0.7) == "-2.00e-05"


def test_a_named_bootstrap_on_three_differing_items_leads_with_why_it_cannot_decide():
    """Issue 39 §7: 3 of 3 items differ, p < 0.0001 from the named bootstrap; no exact test on 3 sign flips can give
    p below 1/8 (one-sided) or 1/4 (two-sided), so the sentence opens with that, in every view of the verdict."""
    for alternative, floor in (("greater", "0.125"), ("two-sided", "0.25")):
        res = compare([1] * 3, [1] * 3, [0] * 3, test="bootstrap", alternative=alternative)
        assert res.significant and res.p_text == "p < 0.0001"
        text = report.verdict(res, a="new", b="old")
        assert text.startswith(f"{LEAD}on only 3 discordant pairs, no exact test can give p below {floor} (")
        assert text.index("Too few") < text.index("significant at α = 0.05") < text.index("Caution: only 3")
        check_agreement(res)
        assert export.verdict_markdown(res, a="new", b="old").splitlines()[0] == text
        assert export.sentence_latex(res, a="new", b="old").startswith(LEAD)
        assert report.summary(res).count("Too few items differ") == 1
    scores = compare(None, [0.7, 0.4, 0.3], [0.4, 0.1, 0.0], metric="mean", test="bootstrap", alternative="greater")
    assert report.verdict(scores, a="new", b="old").startswith(f"{LEAD}on only 3 items where the two systems differ")
    exact = compare([1] * 3, [1] * 3, [0] * 3, test="mcnemar", alternative="greater")  # its p never goes below
    assert not exact.significant and "Too few items differ" not in report.verdict(exact)
    enough = compare([1] * 6, [1] * 6, [0] * 6, test="bootstrap", alternative="greater")  # 1/64 <= α: it could
    assert enough.significant and not report.verdict(enough).startswith("Too few")


def test_case_7_tiny_samples_warn_and_recommend_the_exact_test():
    one = compare([1], [1], [0], test="bootstrap", alternative="greater")
    assert one.warnings and "McNemar's exact test is recommended" in report.verdict(one)
    assert compare([1], [1], [0], test="mcnemar", alternative="greater").p_value == 0.5
    assert compare([1], [1], [0], test="permutation", alternative="greater").p_value == 0.5
    assert compare([1], [1], [0]).test == "mcnemar"  # what runs when no test is named: the exact one
    assert compare(None, list(range(10)), [0] * 10, metric="mean").test == "permutation"
    assert "z" not in sigcore.tests_for("mean", n_items=49) and "z" in sigcore.tests_for("mean", n_items=50)
    with pytest.raises(sigcore.SettingsError, match="z-test needs at least 50 items"):
        compare(None, list(range(10)), [0] * 10, metric="mean", test="z", alternative="greater")


@pytest.mark.parametrize("test", ["bootstrap", "permutation", "t", "mcnemar", "sign"])
def test_case_8_right_wrong_systems_get_wilsons_interval_in_every_test(test):
    res = compare([1] * 300, [1] * 300, [1] * 290 + [0] * 10, test=test, alternative="greater")
    assert res.ci_a[0] < 1 and res.ci_a[1] == 1  # 300 of 300 right: not [1, 1]
    assert res.ci_a == pytest.approx(sigcore.statistics.intervals.wilson(np.ones(300), res.confidence_level))


def test_case_9_identical_outputs_in_compat_mode_are_no_difference():
    refs, a, _ = _bleu_pair()
    res = compare(refs, a, a, metric="bleu", compat="sacrebleu", alternative="two-sided", n_resamples=1_000,
                  test="bootstrap")
    assert res.p_value <= 0.05 and not res.significant  # sacrebleu's own p, faithfully; the verdict is not fooled
    text = report.verdict(res)
    assert text.startswith("A and B give the same result on every item: no difference")
    assert "the outputs are identical" in text and "beats" not in text


def test_case_11_mcnemar_chi_square_is_reachable_and_closed_forms_report_no_resamples():
    gold, a, b = [1] * 200, [1] * 120 + [0] * 80, [1] * 100 + [0] * 100
    chi = compare(gold, a, b, test="mcnemar", exact=False, alternative="greater")
    exact = compare(gold, a, b, test="mcnemar", alternative="greater")
    assert chi.p_value != exact.p_value and not chi.exact and exact.exact
    assert "McNemar's chi-square test" in report.verdict(chi) and "-chi2" in chi.signature
    for res in [compare(gold, a, b, test=test, alternative="greater") for test in ("mcnemar", "sign", "t")] + [
            compare(None, np.linspace(0, 1, 200), np.linspace(0, 0.9, 200), metric="mean", test="wilcoxon",
                    alternative="greater")]:
        assert res.n_resamples == 0 and res.seed is None and "resamples:" not in res.signature


# ---------------------------------------------------------------- the format, stated


def test_the_sentence_format_of_each_kind():
    gold = [1] * 400
    rng = np.random.default_rng(2)
    a, b = (rng.random(400) < 0.8).astype(int), (rng.random(400) < 0.7).astype(int)
    two = compare(gold, a, b, alternative="two-sided", test="bootstrap")
    assert re.fullmatch(r"A beats B by 0\.\d{4} accuracy \(95% CI 0\.\d{4} to 0\.\d{4}\); p (<|=) [\d.]+ "
                        r"\(two-sided\), paired bootstrap, b = 10,000, seed 0: significant at α = 0\.05\.",
                        report.verdict(two))
    less = compare(gold, b, a, alternative="less", test="bootstrap")
    assert re.fullmatch(r"A beats B by 0\.\d{4} accuracy \(one-sided 95% bound: at least 0\.\d{4}\); p (<|=) "
                        r"[\d.]+ \(one-sided\), paired bootstrap, b = 10,000, seed 0: significant at α = 0\.05\.",
                        report.verdict(less, a="B", b="A"))
    none = compare(gold, b, a, test="bootstrap", alternative="greater")
    assert re.fullmatch(r"No significant evidence that A is better than B: δ = -0\.\d{4} accuracy \(one-sided 95% "
                        r"bound: δ ≥ -0\.\d{4}\); p = [\d.]+ \(one-sided\), paired bootstrap, b = 10,000, seed 0: "
                        r"not significant at α = 0\.05\.", report.verdict(none))


def test_exports_say_what_the_sentence_says():
    gold = [1] * 400
    rng = np.random.default_rng(4)
    res = compare(gold, (rng.random(400) < 0.7).astype(int), (rng.random(400) < 0.8).astype(int),
                  alternative="two-sided", test="bootstrap")
    text = report.verdict(res)
    assert export.verdict_markdown(res).splitlines()[0] == text
    latex = export.sentence_latex(res)
    assert r"B beats A by" in latex and r"significant at $\alpha = 0.05$" in latex and "$p " in latex


# ---------------------------------------------------------------- many random cases


def _random_case(rng: np.random.Generator):
    metric = rng.choice(["accuracy", "accuracy", "mean", "mean", "macro_f1"])
    n = int(rng.choice([1, 2, 3, 5, 8, 12, 20, 40, 80, 200]))
    test = rng.choice(sigcore.tests_for(metric, n_items=n))
    alternative = rng.choice(sigcore.ALTERNATIVES)
    alpha = float(rng.choice([0.5, 0.1, 0.05, 0.01, 0.005, 0.001]))
    b = int(rng.choice([1, 5, 19, 20, 100, 1_000]))
    shift = rng.choice([0.0, 0.05, 0.2])
    if metric == "mean":
        gold = None
        a = np.round(rng.normal(0.5 + shift, 0.3, n), int(rng.choice([1, 3])))  # rounding makes ties
        bb = a.copy() if rng.random() < 0.1 else np.round(rng.normal(0.5, 0.3, n), 1)
    else:
        k = 2 if metric == "accuracy" else 4
        gold = rng.integers(0, k, n)
        a = np.where(rng.random(n) < 0.6 + shift, gold, rng.integers(0, k, n))
        bb = a.copy() if rng.random() < 0.1 else np.where(rng.random(n) < 0.6, gold, rng.integers(0, k, n))
    if rng.random() < 0.5:
        a, bb = bb, a
    options = dict(metric=metric, test=test, alternative=alternative, alpha=alpha, n_resamples=b,
                   seed=int(rng.integers(1000)))
    if test in ("bootstrap", "permutation") and rng.random() < 0.25:
        options["ci_method"] = rng.choice(["percentile", "bca"])
    if test == "mcnemar" and rng.random() < 0.3:
        options["exact"] = False
    if test in ("bootstrap", "permutation") and n > 3 and rng.random() < 0.2:
        options["groups"] = rng.integers(0, n // 3, n)  # documents of about three items
    elif test in ("bootstrap", "permutation") and alternative == "two-sided" and rng.random() < 0.2:
        options["compat"] = "sacrebleu"
    return gold, a, bb, options


def _few_differing_case(rng: np.random.Generator):
    """Issue 39 §7's class: a handful of items (1 to 6), nearly all differing, any test, side, α and b."""
    metric = rng.choice(["accuracy", "mean"])
    n = int(rng.integers(1, 7))
    if metric == "mean":
        gold, a, b = None, rng.integers(4, 10, n) / 10, rng.integers(0, 6, n) / 10
    else:
        gold, a, b = np.ones(n, dtype=int), (rng.random(n) < 0.9).astype(int), (rng.random(n) < 0.1).astype(int)
    if rng.random() < 0.5:
        a, b = b, a
    return gold, a, b, dict(metric=metric, test=rng.choice(sigcore.tests_for(metric, n_items=n)),
                            alternative=rng.choice(sigcore.ALTERNATIVES), alpha=float(rng.choice([0.1, 0.05, 0.01])),
                            n_resamples=int(rng.choice([100, 1_000, 10_000])), seed=int(rng.integers(1000)))


@pytest.mark.parametrize("chunk", range(6))
def test_sentences_agree_with_the_numbers_over_many_random_cases(chunk):
    rng, few = np.random.default_rng(1000 + chunk), np.random.default_rng(2000 + chunk)
    leads = 0
    for gold, a, b, options in [_random_case(rng) for _ in range(200)] + [_few_differing_case(few) for _ in range(40)]:
        res = compare(gold, a, b, **options)
        check_agreement(res)
        leads += report.verdict(res).startswith(LEAD)
        mirror = compare(gold, b, a, **(options | {"alternative": MIRROR[options["alternative"]]}))
        assert mirror.p_value == res.p_value and mirror.significant == res.significant
        assert mirror.side == -res.side
        if res.significant:
            assert report.verdict(mirror, a="B", b="A") == report.verdict(res)
    assert leads > 0  # the handful of differing items made some verdicts lead with what they cannot support


# ---------------------------------------------------------------- what a hostile review found next


def test_wilcoxon_takes_its_side_from_its_rank_sums_and_refuses_right_wrong_items():
    with pytest.raises(sigcore.SettingsError, match="wilcoxon test needs a metric .* other than right/wrong"):
        compare([1] * 20, [1] * 15 + [0] * 5, [1] * 10 + [0] * 10, test="wilcoxon", alternative="greater")
    # ratings that differ by ±2 or not at all: the pseudo-median is 0 while the ranks favour B
    a, b = [0.0] * 37, [2.0] * 20 + [-2.0] * 9 + [0.0] * 8
    res = compare(None, a, b, metric="mean", test="wilcoxon", alternative="less")
    assert res.estimate == 0 and (res.wins, res.losses) == (135, 300) and res.significant and res.side == -1
    assert report.verdict(res).startswith("B beats A on the ranks of the per-item differences (R+ = 135, R- = 300)")
    # every rank tied: the exact two-sided p is 2 P(Bin(29, 1/2) <= 9) = 0.061 (the normal approximation said 0.04)
    two = compare(None, a, b, metric="mean", test="wilcoxon", alternative="two-sided", alpha=0.1)
    assert two.p_value == pytest.approx(2 * stats.binom.cdf(9, 29, 0.5), rel=1e-12)
    assert two.significant and "not on H1's side" not in report.verdict(two)
    check_agreement(res)
    # the interval inverts the test: it ends at 0, which the test rejects while keeping every shift beyond it
    assert (res.ci_high, two.ci_low, two.ci_high) == (0.0, -2.0, 0.0) and res.ci_agrees and two.ci_agrees
    assert "one-sided 95% bound: more than 0.0000" in report.verdict(res)
    assert "90% CI 0.0000 to 2.0000, 0 itself excluded" in report.verdict(two) and "Note" not in report.verdict(two)
    check_agreement(two)


def test_float_noise_in_a_pseudo_median_is_zero():
    a = [0.18, 0.1, 0.73, 0.85, 0.3, 0.73, 0.69, 0.62, 0.74, 0.23, 0.33, 0.05, 0.21, 0.71, 0.76]
    b = [0.18, 0.0, 0.93, 0.75, 0.6, 0.63, 0.79, 0.52, 0.64, 0.23, 0.43, 0.15, 0.21, 0.81, 0.76]
    res = compare(None, a, b, metric="mean", test="wilcoxon", alternative="less", alpha=0.2)
    assert res.estimate == 0 and "e-1" not in report.verdict(res)


def test_latex_keeps_the_digits_that_put_p_on_its_side_of_alpha():
    rng = np.random.default_rng(199)
    a, b = np.round(rng.normal(0.6, 0.2, 200), 3), np.round(rng.normal(0.53, 0.2, 200), 3)
    res = compare(None, a, b, metric="mean", test="t", alpha=0.00014, alternative="greater")
    assert not res.significant and res.p_text == "p = 0.000143"
    assert r"$p = 1.43 \times 10^{-4}$" in export.sentence_latex(res)


def test_latex_is_plain_ascii_outside_the_names():
    res = compare(None, np.linspace(0, 1, 60), np.linspace(0, 0.95, 60), metric="mean", test="wilcoxon",
                  alternative="less")
    latex = export.verdict_latex(res)
    assert export.sentence_latex(res).isascii() and export.caption_latex(res).isascii()
    assert latex.isascii() and r"pseudo-median of $\delta_i$ (one-sided) & 0.0254 & ($-\infty$, 0.0288]" in latex


def test_an_interval_at_another_level_than_alpha_says_so_not_that_it_is_no_dual():
    rng = np.random.default_rng(3)
    gold, a, b = [1] * 300, (rng.random(300) < 0.75).astype(int), (rng.random(300) < 0.68).astype(int)
    res = compare(gold, a, b, alpha=0.05, confidence_level=0.99, test="bootstrap", alternative="greater")
    assert res.significant and res.ci_low < 0
    text = report.verdict(res)
    assert "Note: the interval's level (99%) is not 1 - α, and at that level it includes 0." in text
    assert "not this test's dual" not in text


def test_the_resamples_to_settle_are_enough_and_p_at_alpha_is_said_plainly():
    res = compare([1] * 200, [1] * 200, [0] * 200, n_resamples=20, seed=0, test="bootstrap", alternative="greater")
    assert res.n_extreme == 0 and not res.settled
    more = res.resamples_to_settle()
    assert not sigcore.result.mc_interval(0, more)[0] <= 0.05 <= sigcore.result.mc_interval(0, more)[1]
    assert sigcore.result.mc_interval(0, more - 2)[1] >= 0.05  # and not many more than needed
    rng = np.random.default_rng(0)
    gold, a, b = [1] * 200, (rng.random(200) < 0.75).astype(int), (rng.random(200) < 0.66).astype(int)
    at_alpha = next(r for r in (compare(gold, a, b, n_resamples=100, seed=s, test="bootstrap", alternative="greater")
                                for s in range(200))
                    if r.p_value == 0.05)
    assert at_alpha.resamples_to_settle() is None
    assert "p equals α, so more resamples are needed to settle it" in report.verdict(at_alpha)


def test_monte_carlo_interval_ends_are_rounded_on_their_side_of_alpha():
    res = compare([1] * 200, [1] * 150 + [0] * 50, [1] * 100 + [0] * 100, test="permutation", n_resamples=1000,
                  alpha=0.001, alternative="greater")
    assert res.p_value == 1 / 1001 and res.significant
    text = report.verdict(res)
    assert "(0.000999 to " in text  # not "0.001", which would read as alpha
    floor = compare([1] * 300, [1] * 300, [0] * 300, n_resamples=100, test="bootstrap", alternative="greater")
    assert "interval up to" in report.summary(floor)


def test_shares_name_what_their_interval_is_of_and_identical_systems_get_no_caution():
    rng = np.random.default_rng(8)
    gold, a, b = [1] * 300, (rng.random(300) < 0.7).astype(int), (rng.random(300) < 0.68).astype(int)
    res = compare(gold, a, b, test="sign", alternative="two-sided")
    assert not res.significant and "(95% CI of the share of A: " in report.verdict(res)
    same = compare([1] * 10, [1] * 5 + [0] * 5, [1] * 5 + [0] * 5, test="bootstrap", alternative="greater")
    assert same.warnings == () and "Caution" not in report.verdict(same)


def test_a_partial_exact_enumeration_is_an_estimate_until_it_is_done():
    gold, a, b = [1] * 40, [1] * 10 + [0] * 3 + [1] * 27, [0] * 10 + [1] * 3 + [1] * 27
    parts = list(sigcore.stream(gold, a, b, test="permutation", block=1000, alternative="greater"))
    whole = parts[-1]
    assert whole.exact and whole.n_resamples == 2**13 - 1 and whole.p_value == pytest.approx(0.0461, abs=1e-4)
    assert all(not p.exact and p.resampled for p in parts[:-1])
    first = parts[0]  # a random sample of the assignments: its p is near the exact one, within its interval
    low, high = first.p_interval
    assert low <= whole.p_value <= high and "(one-sided), approximate randomisation, b = 1,000" in report.verdict(first)


@pytest.mark.slow
def test_case_1_as_the_review_ran_it_on_wmt17():
    wmt = Path(__file__).resolve().parents[1] / "sample_data" / "wmt17_en_de"
    refs, fbk, lium = (read_lines(wmt / f"{name}.de.gz") for name in ("newstest2017.ref", "FBK.4870", "LIUM-NMT.4900"))
    res = compare(refs, fbk, lium, metric="bleu", tokenize="none", compat="sacrebleu", alternative="two-sided",
                  test="bootstrap")
    assert report.verdict(res, a="A (FBK)", b="B (LIUM)").startswith(
        "B (LIUM) beats A (FBK) by 0.47 BLEU (95% CI 0.05 to 0.89, basic bootstrap); p = 0.0132 (two-sided)")
