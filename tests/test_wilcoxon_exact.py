"""Wilcoxon's exact p with ties and zeros (issue 26, §3): every sign flip counted up to WILCOXON_EXACT_MAX non-zero
differences, where scipy's default takes the normal approximation beyond 13 items with ties or zeros."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from sigcore import compare
from sigcore.report import sentence
from sigcore.statistics.closed_form import WILCOXON_EXACT_MAX, differences, wilcoxon
from sigcore.statistics.effect_sizes import hodges_lehmann_estimate

ALTS = ("greater", "less", "two-sided")


def _p(ge, le, alternative: str):
    return {"greater": ge, "less": le, "two-sided": min(1, 2 * min(ge, le))}[alternative]


def _doubled(d: np.ndarray) -> tuple[list[int], int]:
    """Doubled midranks of the non-zero |d| (integers) and the observed doubled R+."""
    nz = d[d != 0]
    doubled = np.rint(2 * stats.rankdata(np.abs(nz))).astype(int)
    return doubled.tolist(), int(doubled[nz > 0].sum())


def _enumerated(d: np.ndarray) -> tuple[float, float]:
    """P(R+ >= observed), P(R+ <= observed) from all 2^m sign flips, listed one by one (integer sums)."""
    doubled, observed = _doubled(d)
    m = len(doubled)
    flips = (np.arange(2 ** m)[:, None] >> np.arange(m)) & 1  # every sign pattern: 1 puts the rank in R+
    sums = flips @ np.array(doubled, dtype=np.int64)
    return float(np.mean(sums >= observed)), float(np.mean(sums <= observed))


def _exact(d: np.ndarray) -> tuple[Fraction, Fraction]:
    """The same two tails in integer arithmetic for any m: the generating polynomial prod (1 + x^r) evaluated at
    x = 2^(8k) (k bytes hold a count below 2^m), so each coefficient is a k-byte block of one big integer."""
    return _counted(*_doubled(d))


def _counted(doubled: list[int], observed: int) -> tuple[Fraction, Fraction]:
    """P(R+ >= observed), P(R+ <= observed) for these doubled ranks, counted exactly (see :func:`_exact`)."""
    m, total = len(doubled), sum(doubled)
    k = m // 8 + 1
    poly = 1
    for r in doubled:
        poly += poly << (8 * k * r)
    raw = poly.to_bytes(k * (total + 1), "little")
    counts = [int.from_bytes(raw[i * k:(i + 1) * k], "little") for i in range(total + 1)]
    assert sum(counts) == 2 ** m
    return Fraction(sum(counts[observed:]), 2 ** m), Fraction(sum(counts[:observed + 1]), 2 ** m)


def _likert(rng, n: int, lift: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Ratings 1..5 of A and B on n items; B's nudged up a point on a share ``lift`` of them."""
    a = rng.integers(1, 6, n).astype(float)
    b = np.clip(rng.integers(1, 6, n) + (rng.random(n) < lift), 1, 5).astype(float)
    return a, b


@pytest.mark.parametrize("m", (1, 2, 5, 9, 13, 16))
def test_equals_enumeration_of_every_sign_flip_with_ties_and_zeros(m):
    rng = np.random.default_rng(m)
    for _ in range(4):
        d = rng.integers(1, 5, m) * rng.choice([-1.0, 1.0], m)  # |d| in 1..4: ties wherever m > 4
        d = np.concatenate([d, np.zeros(int(rng.integers(0, 4)))])  # and zeros, which are dropped
        rng.shuffle(d)
        ge, le = _enumerated(d)
        for alternative in ALTS:
            got = wilcoxon(d, np.zeros(d.size), alternative=alternative)
            assert got.exact
            assert got.p_value == pytest.approx(_p(ge, le, alternative), rel=1e-12, abs=1e-12)
            assert got.p_floor == min(1.0, (1 + (alternative == "two-sided")) * 0.5 ** m)


@pytest.mark.parametrize("n,alternatives", [(14, ALTS), (16, ("two-sided",))])  # scipy lists all 2^n flips
def test_equals_scipys_exact_permutation_test_with_ties(n, alternatives):
    a, b = _likert(np.random.default_rng(n), 3 * n, lift=0.3)
    d = (a - b)[a != b][:n]
    assert d.size == n and np.unique(np.abs(d)).size < n
    ranks = stats.rankdata(np.abs(d))

    def r_plus(x, axis):
        return np.sum(np.where(x > 0, ranks, 0), axis=axis)
    for alternative in alternatives:
        ref = stats.permutation_test((d,), r_plus, permutation_type="samples", n_resamples=np.inf,
                                     alternative=alternative, vectorized=True)
        assert wilcoxon(d, np.zeros(n), alternative=alternative).p_value == pytest.approx(ref.pvalue, rel=1e-12)


def test_likert_ratings_of_14_to_50_items_get_the_exact_p_where_the_normal_one_was_off():
    """The issue's case class: the normal approximation (what sigcore said here before, scipy's default) is off
    the exact p by a median 0.009, up to 0.11, and at α = 0.05 three of 300 decisions flip."""
    rng = np.random.default_rng(2026)
    off, flips = [], []
    for _ in range(300):
        a, b = _likert(rng, int(rng.integers(14, 51)), lift=rng.uniform(0, 0.6))
        exact = float(_p(*_exact(a - b), "two-sided"))
        got = wilcoxon(a, b, alternative="two-sided")
        assert got.exact and got.p_value == pytest.approx(exact, rel=1e-12)
        for alternative in ("greater", "less"):
            assert wilcoxon(a, b, alternative=alternative).p_value == pytest.approx(
                float(_p(*_exact(a - b), alternative)), rel=1e-12)
        normal = stats.wilcoxon(a, b).pvalue  # scipy's default with ties: the normal approximation
        off.append(abs(normal - exact))
        flips += [(a.size, normal, exact)] if (normal <= 0.05) != (exact <= 0.05) else []
    assert np.median(off) > 0.005 and max(off) > 0.05
    assert len(flips) >= 3 and all(normal <= 0.05 < exact for _, normal, exact in flips)  # it was liberal


def _tied(rng, m: int, zeros: int = 0) -> np.ndarray:
    d = np.concatenate([rng.integers(1, 5, m) * np.where(rng.random(m) < 0.6, 1.0, -1.0), np.zeros(zeros)])
    rng.shuffle(d)
    return d


def test_exact_up_to_the_bound_ties_zeros_and_tiny_p_kept_normal_beyond():
    rng = np.random.default_rng(300)
    m = WILCOXON_EXACT_MAX
    for d in (_tied(rng, m), _tied(rng, m, zeros=700), np.abs(_tied(rng, m)) - 0.5 * (np.arange(m) % 9 == 0)):
        ge, le = _exact(d)
        for alternative in ALTS:
            got = wilcoxon(d, np.zeros(d.size), alternative=alternative)
            want = _p(ge, le, alternative)
            assert got.exact and got.p_value == pytest.approx(float(want), rel=1e-12)  # even p of 1e-60
            assert got.p_floor == (1 + (alternative == "two-sided")) * 0.5 ** m
    assert float(_p(ge, le, "greater")) < 1e-50  # the last one: the float counts keep their precision down there
    d = _tied(rng, m + 1, zeros=5)
    for alternative in ALTS:
        got = wilcoxon(d, np.zeros(d.size), alternative=alternative)
        normal = stats.wilcoxon(d, alternative=alternative, method="asymptotic").pvalue
        assert not got.exact and got.p_floor == 0.0 and got.p_value == pytest.approx(normal, rel=1e-12)


def test_without_ties_the_exact_p_at_the_bound_is_close_to_the_normal_one():
    d = np.random.default_rng(1).normal(0.1, 1, WILCOXON_EXACT_MAX)
    for alternative in ALTS:
        exact = wilcoxon(d, np.zeros(d.size), alternative=alternative).p_value
        assert exact == pytest.approx(stats.wilcoxon(d, alternative=alternative, method="exact").pvalue, rel=1e-12)
        assert abs(exact - stats.wilcoxon(d, alternative=alternative, method="asymptotic").pvalue) < 1e-3


def test_the_method_says_normal_approximation_only_when_it_is_one():
    rng = np.random.default_rng(5)
    for m, exact in ((40, True), (WILCOXON_EXACT_MAX, True), (WILCOXON_EXACT_MAX + 1, False)):
        d = _tied(rng, m, zeros=10)
        res = compare(None, d, np.zeros(d.size), metric="mean", test="wilcoxon")
        assert res.exact is exact and res.p_floor > 0 if exact else res.p_floor == 0
        assert sentence.test_name(res) == "Wilcoxon signed-rank test" + ("" if exact else " (normal approximation)")


@pytest.mark.slow  # 2,000 simulated test sets, twice
def test_holds_its_size_on_tied_ratings_under_the_null():
    """A and B rate each item from the same distribution: the exact test rejects at most α of the time."""
    rng = np.random.default_rng(20)
    n_sims, alpha = 2000, 0.05
    high = stats.binom.ppf(0.999, n_sims, alpha)
    data = [_likert(rng, 20) for _ in range(n_sims)]
    for alternative in ("greater", "two-sided"):
        rejections = sum(wilcoxon(a, b, alternative=alternative).p_value <= alpha for a, b in data)
        assert rejections <= high, (alternative, rejections, high)


# ---------------------------------------------------------------- decimal scores: ties as the scores say them
# On a 0.1 grid 0.7 - 0.4 and 0.4 - 0.1 differ in the last bit; ranked as floats they took different ranks. The
# reference below never sees a float: differences of the decimal strings as fractions, ranked exactly.


def _decimals(units: list[int], places: int) -> list[str]:
    """Scores on a 10^-places grid as a file writes them: 7 -> "0.7" (places 1), 12 -> "0.12" (places 2)."""
    return [str(Decimal(k).scaleb(-places)) for k in units]


def _exact_doubled(a: list[str], b: list[str]) -> tuple[list[int], int, list[Fraction]]:
    """Doubled midranks of the non-zero |a - b| and the observed doubled R+, in exact arithmetic from the decimal
    strings (equal sizes are equal fractions), and those non-zero differences."""
    d = [x for x in (Fraction(x) - Fraction(y) for x, y in zip(a, b)) if x != 0]
    return *_fraction_ranks(d), d


def _fraction_ranks(d: list[Fraction]) -> tuple[list[int], int]:
    """Doubled midranks of the sizes of non-zero exact differences (first place + last place of each size), and
    the observed doubled R+."""
    sizes = sorted(abs(x) for x in d)
    first, last = {}, {}
    for i, size in enumerate(sizes, start=1):
        first.setdefault(size, i)
        last[size] = i
    ranks = [first[abs(x)] + last[abs(x)] for x in d]
    return ranks, sum(r for r, x in zip(ranks, d) if x > 0)


def _enumerated_exactly(doubled: list[int], observed: int) -> tuple[Fraction, Fraction]:
    """P(R+ >= observed), P(R+ <= observed) over every one of the 2^m sign flips, listed."""
    m = len(doubled)
    if m == 0:
        return Fraction(1), Fraction(1)
    flips = (np.arange(2 ** m)[:, None] >> np.arange(m)) & 1
    sums = flips @ np.array(doubled, dtype=np.int64)
    return Fraction(int(np.sum(sums >= observed)), 2 ** m), Fraction(int(np.sum(sums <= observed)), 2 ** m)


def test_the_audits_case_is_the_exact_midrank_test():
    """Every |d| is 0.3 on paper and A wins 6 of 7: one midrank, R+ = 24 of 28, p = 8/128 (0.0859 before)."""
    a, b = [.7, .4, .3, .9, .6, .8, .5], [.4, .1, 0, .6, .3, .5, .8]
    assert np.unique(np.abs(np.subtract(a, b))).size > 1  # as floats they differ
    ranks, observed, _ = _exact_doubled(_decimals([7, 4, 3, 9, 6, 8, 5], 1), _decimals([4, 1, 0, 6, 3, 5, 8], 1))
    assert _enumerated_exactly(ranks, observed)[0] == Fraction(8, 128)
    got = wilcoxon(a, b, alternative="greater")
    assert got.p_value == 0.0625 and (got.wins, got.losses) == (24, 4)
    assert wilcoxon(b, a, alternative="less").p_value == 0.0625
    assert got.estimate == pytest.approx(0.3, abs=1e-15)


@pytest.mark.parametrize("places, top", [(1, 10), (2, 100), (1, 1000)])  # 0..1 by 0.1 and 0.01; 0..100 by 0.1
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_decimal_scores_get_the_exact_midrank_test(places, top, data):
    """p, R+ and R- against every sign flip listed on exactly ranked differences of the decimal strings."""
    units = data.draw(st.lists(st.tuples(st.integers(0, top), st.integers(0, top)), min_size=1, max_size=13))
    a, b = (_decimals([u[k] for u in units], places) for k in (0, 1))
    ranks, observed, _ = _exact_doubled(a, b)
    ge, le = _enumerated_exactly(ranks, observed)
    x, y = np.array(a, dtype=float), np.array(b, dtype=float)
    for alternative in ALTS:
        got = wilcoxon(x, y, alternative=alternative)
        assert got.p_value == pytest.approx(float(_p(ge, le, alternative)), rel=1e-12), (a, b, alternative)
        if ranks:
            assert (got.wins, got.losses) == (observed / 2, (sum(ranks) - observed) / 2)


@pytest.mark.slow  # 600 enumerations
def test_six_hundred_random_grid_cases_equal_the_exact_test_and_scipy_on_integers():
    """The audit's sweep: 0.1- and 0.01-grid scores of up to 60 items, against exact counting on exactly ranked
    differences (every decision at α = .05 and p to 1e-12), and against scipy's own sign-flip enumeration on the
    same scores scaled to integers where it can list them; the float-ranked count (the flaw) differs in most."""
    rng = np.random.default_rng(39)
    flawed, by_scipy = 0, 0
    for case in range(600):
        places = 1 + case % 2
        n = int(rng.integers(3, 61))
        units = rng.integers(0, 10 ** places + 1, size=(2, n))
        a, b = _decimals(units[0].tolist(), places), _decimals(units[1].tolist(), places)
        x, y = np.array(a, dtype=float), np.array(b, dtype=float)
        ge, le = _counted(*_exact_doubled(a, b)[:2])
        for alternative in ALTS:
            got = wilcoxon(x, y, alternative=alternative).p_value
            assert got == pytest.approx(float(_p(ge, le, alternative)), rel=1e-12), (a, b, alternative)
        flawed += _exact(x - y) != (ge, le)
        scaled = units[0] - units[1]  # the same differences in grid units: integers, ranked exactly by anyone
        if 0 < np.count_nonzero(scaled) <= 10:
            ref = stats.wilcoxon(scaled, alternative="greater", method=stats.PermutationMethod(n_resamples=np.inf))
            assert wilcoxon(x, y, alternative="greater").p_value == pytest.approx(ref.pvalue, rel=1e-12)
            by_scipy += 1
    assert flawed > 400 and by_scipy >= 10  # a reference that ranked floats would have shared the flaw


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=2, max_size=9),
       st.sampled_from(ALTS), st.sampled_from([0.8, 0.9, 0.95]))
def test_hodges_lehmann_on_decimal_scores_is_the_exact_test_s_dual(units, alternative, level):
    """The pseudo-median is the median of the exact Walsh averages, and the interval every shift θ that the exact
    test of d - θ keeps: θ inside each gap between consecutive exact Walsh averages, |d - θ| ranked as fractions,
    every sign flip listed (and 0, which the interval holds when the test keeps it)."""
    a, b = (_decimals([u[k] for u in units], 1) for k in (0, 1))
    d = _exact_doubled(a, b)[2]
    x, y = np.array(a, dtype=float), np.array(b, dtype=float)
    got = wilcoxon(x, y, alternative=alternative, confidence_level=level)
    assert hodges_lehmann_estimate(x, y, confidence_level=level, alternative=alternative).value == got.estimate
    if not d:
        return
    walsh = sorted(set((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))))
    pairs = sorted((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d)))
    middle = (pairs[(len(pairs) - 1) // 2] + pairs[len(pairs) // 2]) / 2
    assert got.estimate == pytest.approx(float(middle), abs=1e-12)

    lower = {"greater": 1 - level, "less": None, "two-sided": (1 - level) / 2}[alternative]
    upper = {"greater": None, "less": 1 - level, "two-sided": (1 - level) / 2}[alternative]
    gaps = [(None, walsh[0], walsh[0] - 1), *((p, q, (p + q) / 2) for p, q in zip(walsh[:-1], walsh[1:])),
            (walsh[-1], None, walsh[-1] + 1)]
    kept = [_fraction_tails([x - theta for x in d]) for _, _, theta in gaps]
    low = -math.inf if lower is None else min((-math.inf if p is None else float(p))
                                              for (p, _, _), (ge, _) in zip(gaps, kept) if ge > lower)
    high = math.inf if upper is None else max((math.inf if q is None else float(q))
                                             for (_, q, _), (_, le) in zip(gaps, kept) if le > upper)
    ge0, le0 = _fraction_tails(d)
    low = 0.0 if lower is not None and ge0 > lower and low > 0 else low
    high = 0.0 if upper is not None and le0 > upper and high < 0 else high
    assert (got.ci_low, got.ci_high) == pytest.approx((low, high), abs=1e-12), (a, b, alternative, level)


def _fraction_tails(d: list[Fraction]) -> tuple[Fraction, Fraction]:
    """The exact test's two tails on exact differences: zeros dropped, sizes ranked as fractions, every flip."""
    return _enumerated_exactly(*_fraction_ranks([x for x in d if x != 0]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), min_size=1, max_size=30),
       st.sampled_from([1, 2, 3]))
def test_differences_are_one_size_exactly_when_the_decimals_are(units, places):
    """The tie rule on decimal scores: a difference is 0 exactly when the decimals are equal, two sizes are one
    exactly when the decimals' are, the sign is the decimals', and swapping A and B only flips the signs."""
    a, b = (_decimals([u[k] for u in units], places) for k in (0, 1))
    x, y = np.array(a, dtype=float), np.array(b, dtype=float)
    d = differences(x, y)
    exact = [Fraction(p) - Fraction(q) for p, q in zip(a, b)]
    assert [np.sign(v) for v in d] == [np.sign(float(e)) for e in exact]
    for i in range(len(d)):
        for j in range(len(d)):
            assert (abs(d[i]) == abs(d[j])) == (abs(exact[i]) == abs(exact[j]))
        assert d[i] == pytest.approx(float(exact[i]), abs=1e-12)
    assert np.array_equal(differences(y, x), -d)
