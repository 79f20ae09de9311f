"""Plain-language reports of a result: the verdict sentence a paper can quote, and the CLI's summary.

The sentence, in this order (README, "The verdict sentence"):
0. when the decision is "significant" but so few items differ that no exact test could reach α, that first
   (:func:`resolution_lead`);
1. the effect, from what the test measures (mean difference; items won; pseudo-median; discordant pairs):
   "A beats B by 0.0150 accuracy" when significant, the winner's margin with the interval in the winner's
   direction; else "No significant evidence that A is better than B: δ = 0.0150 accuracy" with the interval of
   A − B; "A and B do not differ" when the effect is 0;
2. the interval, on the test's side: "95% CI 0.0007 to 0.0293" or "one-sided 95% bound: at least 0.0007";
3. p with its side, the test, b and seed (and the groups resampled);
4. the decision at α, or why α cannot be reached;
5. caveats: p's Monte-Carlo interval straddling α, an interval that is not the test's dual and disagrees,
   small samples.
Numbers keep enough digits that they agree with the decision: a bound that excludes 0 never prints as 0, a
negative one keeps its sign, and p never prints as α unless it is α.
Where lower is better (MAE), "A beats B" means A's error is lower (δ < 0), the winner's margin is |δ|, and
"lower is better" is said beside the metric (:func:`direction`).
"""

from __future__ import annotations

import math

from ..comparison import TESTS
from ..metrics import METRIC_NAMES, known
from ..result import Result, better_side, p_number
from ..words import counted, in_text

__all__ = ["TEST_NAMES", "CI_NAMES", "H1_PHRASES", "SIDED", "number", "decimals", "scale_of", "metric_name",
           "direction", "metric_heading", "test_name", "the", "method", "level", "verdict", "exact_floor",
           "resolution_lead", "summary", "mc_text", "round_count"]

TEST_NAMES = {name: test.title for name, test in TESTS.items()}
# Interval methods as a reader writes them.
CI_NAMES = {"bootstrap-basic": "basic bootstrap", "bootstrap-percentile": "bootstrap percentile",
            "bootstrap-bca": "BCa bootstrap", "t": "t", "normal": "normal", "hodges-lehmann": "Hodges-Lehmann",
            "clopper-pearson": "Clopper-Pearson"}

# H1 as a sentence states it, and whether its test is one- or two-sided
H1_PHRASES = {"greater": "{a} is better than {b}", "less": "{b} is better than {a}", "two-sided": "{a} and {b} differ"}
SIDED = {"greater": "one-sided", "less": "one-sided", "two-sided": "two-sided"}


def number(x: float, scale: float | None = None) -> str:
    """Four significant digits; with ``scale`` (the size of the scores), the decimals the scores need, so
    that a difference and its interval line up: 0.0150 (0.0007 to 0.0300) for accuracy, 1.22 (0.05 to 2.39)
    for BLEU. A non-zero number that would round to 0 gets two significant digits instead (-0.0038, not 0.00
    or -0.00), so it keeps its sign."""
    if not math.isfinite(x):
        return {math.inf: "∞", -math.inf: "-∞"}.get(x, "nan")
    if 1e-3 <= abs(scale or 0) < 1e6 and abs(x) < 1e6:  # outside that, scientific notation reads better
        text = f"{x:.{decimals(scale)}f}"
        if x == 0:
            return text.lstrip("-")  # -0.0 is 0
        if float(text) != 0:
            return text
        if abs(x) >= 1e-4:
            return f"{x:.{1 - math.floor(math.log10(abs(x)))}f}"
    return f"{x:.2e}" if x != 0 and abs(x) < 1e-4 else f"{x:.4g}".lstrip("-") if x == 0 else f"{x:.4g}"


def decimals(scale: float) -> int:
    """How many decimals numbers on this scale get: four significant digits of the scale (0.7123, 28.30)."""
    return max(0, 3 - math.floor(math.log10(abs(scale)))) if 1e-3 <= abs(scale) < 1e6 else 4


def scale_of(res: Result) -> float:
    """The size of the scores, which sets how many decimals a report prints."""
    return max(abs(res.score_a), abs(res.score_b))


def metric_name(res: Result) -> str:
    return METRIC_NAMES.get(res.metric, res.metric)


def direction(res: Result) -> str:
    """"lower is better" for a metric on which it is (MAE, an error given as per-item scores), else "": what every
    view adds beside the metric's name, so that "A beats B" is read the right way round."""
    return "" if res.higher_is_better else "lower is better"


def metric_heading(res: Result) -> str:
    """The metric as a table's column names it: "MAE ↓" where lower is better (the caption says so in words)."""
    return metric_name(res) + (" ↓" if direction(res) else "")


def test_name(res: Result) -> str:
    if res.test == "permutation" and res.exact:
        return "exact permutation test"
    if res.test == "mcnemar":
        return "McNemar's exact test" if res.exact else "McNemar's chi-square test (continuity-corrected)"
    if res.test == "wilcoxon" and not res.exact:  # above closed_form.WILCOXON_EXACT_MAX non-zero differences
        return "Wilcoxon signed-rank test (normal approximation)"
    return TEST_NAMES[res.test]


def the(title: str) -> str:
    """A test's title as a sentence names it: "the paired t-test", but "McNemar's test" (a name takes no article)."""
    return title if "'s " in title else f"the {title}"


def method(res: Result) -> str:
    """'paired bootstrap, b = 10,000, seed 0' and the like (with the groups resampled whole)."""
    name = test_name(res)
    if res.compat:
        name += f" ({res.compat}-compatible)"
    if res.n_groups is not None:
        groups = f"{res.n_groups:,} group{'s' * (res.n_groups != 1)}"
        name += f" over {groups} (documents resampled whole)" if res.test == "bootstrap" else \
            f" over {groups} (A and B swapped per group)"
    if not res.resampled:
        return name
    return f"{name}, b = {res.n_resamples:,}, seed {res.seed}"


def level(res: Result) -> str:
    """95%, 99%, 99.5%."""
    return f"{res.confidence_level * 100:.10g}%"


def verdict(res: Result, *, a: str = "A", b: str = "B", metric: str | None = None) -> str:
    """One paragraph: who wins by how much, the interval, p, the method, the decision at alpha, and caveats.

    ``metric`` overrides the metric's name as readers write it (an exporter passes it escaped)."""
    a, b = in_text(a), in_text(b)
    effect = _effect(res, a, b, metric or metric_name(res))
    sentence = f"{effect}; {res.p_text} ({SIDED[res.alternative]}), {method(res)}: {_decision(res)}"
    return " ".join(filter(None, [resolution_lead(res), sentence, *_caveats(res)]))


def exact_floor(res: Result) -> float:
    """The smallest p any exact test of these data can give: of the 2^m sign flips of the m items (groups;
    discordant pairs) where A and B differ, only the observed one (and, two-sided, its mirror) is that extreme."""
    return min(1.0, (2 if res.alternative == "two-sided" else 1) * 0.5 ** res.n_differing)


def resolution_lead(res: Result) -> str:
    """What a verdict says first when the data cannot support its decision: "significant" while no exact test on
    so few differing items could reach α (:func:`exact_floor` above α), so the named test's p (a bootstrap's 1/b,
    a normal approximation's) is finer than the data resolve; "" otherwise. Every view of the verdict (text,
    Markdown, LaTeX, the app) leads with it."""
    floor = exact_floor(res)
    if not res.significant or floor <= res.alpha:
        return ""
    return (f"Too few items differ to support this decision: on only {_differing(res)}, no exact test can "
            f"give p below {p_number(floor)} ({SIDED[res.alternative]}), above α = {res.alpha:g}, and "
            f"{the(test_name(res))}'s p below is too small on so few.")


def _differing(res: Result) -> str:
    """"3 discordant pairs", "3 items where the two systems differ", "1 group where the two systems differ" (the
    same words whichever system is A)."""
    m = res.n_differing
    if _binary(res):
        return f"{m:,} discordant pair{'s' * (m != 1)}"
    return f"{m:,} {'group' if res.n_groups is not None else 'item'}{'s' * (m != 1)} where the two systems differ"


def _binary(res: Result) -> bool:
    """Whether the items differing are discordant pairs: right/wrong items, not clustered; a custom metric's name is
    not known here (:func:`sigcore.metrics.known`), and its items are counted as items that differ."""
    definition = known(res.metric)
    return definition is not None and definition.binary and res.n_groups is None


def summary(res: Result, *, a: str = "A", b: str = "B") -> str:
    """The command line's short report."""
    a, b, scale = in_text(a), in_text(b), scale_of(res)
    differ = (f"{res.n_differing:,} discordant" if _binary(res) else
              f"{res.n_differing:,} {'groups ' if res.n_groups is not None else ''}differ")
    units = counted(res.n_items, "item") + (f" in {counted(res.n_groups, 'group')}" if res.n_groups is not None else "")
    brackets = _bracket(res.ci_a, scale), _bracket(res.ci_b, scale)
    named = metric_name(res) + (f" ({direction(res)})" if direction(res) else "")
    lines = [f"{named}: {a} = {number(res.score_a, scale)}{brackets[0]}, "
             f"{b} = {number(res.score_b, scale)}{brackets[1]}  ({units}, {differ}"
             f"{f'; {level(res)} intervals' if any(brackets) else ''})",
             f"delta = {a} - {b} = {number(res.delta, scale)}"]
    if res.estimand != "delta":
        lines.append(f"{_ESTIMAND_TEXT[res.estimand]}: {_estimate_number(res, res.estimate)}")
    interval = _interval_text(res, a, b, winner=None)
    if interval:
        lines[-1] += f"; {interval} ({CI_NAMES.get(res.ci_method, res.ci_method)}" \
                     f"{', the test' + chr(39) + 's dual' if _dual(res) else ''})"
    elif res.resampled and res.ci_method != "none":  # asked for, but b cannot hold its tails
        lines[-1] += f"; no {level(res)} CI: {counted(res.n_resamples, 'resample')} are too few for its tails"
    h1 = H1_PHRASES[res.alternative].format(a=a, b=b)
    p_line = f"{method(res)}, H1: {h1} ({SIDED[res.alternative]}): {res.p_text}"
    if res.resampled:
        p_line += f" ({res.n_extreme:,} of {res.n_resamples:,} resamples as extreme; {mc_text(res)})"
    lines += [p_line, verdict(res, a=a, b=b), f"signature: {res.signature}"]
    return "\n".join(lines)


# ---------------------------------------------------------------- the parts of the sentence

def mc_text(res: Result) -> str:
    """p's Monte-Carlo 95% interval, its ends printed so that they sit on the right side of alpha."""
    low, high = res.p_interval
    if low == 0:
        return f"Monte-Carlo 95% interval up to {p_number(high, res.alpha)}"
    return f"Monte-Carlo 95% interval {p_number(low, res.alpha)} to {p_number(high, res.alpha)}"


_ESTIMAND_TEXT = {"pseudo_median": "pseudo-median of the per-item differences A - B (Hodges-Lehmann)",
                  "share_won": "A's share of the items where A and B differ",
                  "share_discordant": "A's share of the discordant pairs"}


def _effect(res: Result, a: str, b: str, metric: str) -> str:
    scale = scale_of(res)
    winner, loser = (a, b) if res.side > 0 else (b, a)
    if res.side == 0:
        if res.n_differing == 0:
            return f"{a} and {b} give the same result on every item: no difference (δ = 0 {metric})"
        if res.estimand == "pseudo_median":
            return f"{a} and {b} do not differ: the ranks of their per-item differences balance (R+ = R-)"
        if res.estimand in ("share_won", "share_discordant"):
            if res.wins == 0:
                return f"{a} and {b} do not differ: they tie on every item"
            return f"{a} and {b} do not differ: each wins {res.wins:,} of the {res.wins + res.losses:,} items " \
                   f"where {'only one is right' if res.estimand == 'share_discordant' else 'they differ'}"
        return f"{a} and {b} do not differ: {_ESTIMATE_SYMBOL[res.estimand]} = 0 {metric}"
    interval = _named(res, _interval_text(res, a, b, winner=winner if res.significant else None))
    if res.estimand == "pseudo_median":
        interval = "; ".join(["Hodges-Lehmann", *([interval] if interval else [])])
    interval = "; ".join(filter(None, [direction(res), interval]))
    interval = f" ({interval})" if interval else ""
    plus, minus = (res.wins, res.losses) if res.higher_is_better else (res.losses, res.wins)  # R+, R- of A - B
    if res.significant:
        margin = {
            "delta": lambda: f"by {number(abs(res.delta), scale)} {metric}",
            "pseudo_median": lambda: (f"by a pseudo-median of {number(abs(res.estimate), scale)} {metric} per item"
                                      if better_side(res.estimate, res.higher_is_better) == res.side else
                                      f"on the ranks of the per-item differences (R+ = {plus:g}, R- = "
                                      f"{minus:g}), with a pseudo-median of {number(res.estimate, scale)}"),
            "share_won": lambda: f"on {max(res.wins, res.losses):,} of the {res.wins + res.losses:,} items where "
                                 "they differ",
            "share_discordant": lambda: f"on the items only one of them gets right, {max(res.wins, res.losses):,} "
                                        f"to {min(res.wins, res.losses):,}",
        }[res.estimand]()
        return f"{winner} beats {loser} {margin}{interval}"
    h1 = H1_PHRASES[res.alternative].format(a=a, b=b)
    shown = {
        "delta": lambda: f"δ = {number(res.delta, scale)} {metric}",
        "pseudo_median": lambda: f"pseudo-median of {a} - {b} per item = {number(res.estimate, scale)} {metric}",
        "share_won": lambda: f"{a} wins {res.wins:,} and {b} {res.losses:,} of the items where they differ",
        "share_discordant": lambda: f"of the items only one of them gets right, {a} gets {res.wins:,} and "
                                    f"{b} {res.losses:,}",
    }[res.estimand]()
    return f"No significant evidence that {h1}: {shown}{interval}"


_ESTIMATE_SYMBOL = {"delta": "δ", "pseudo_median": "pseudo-median"}


def _dual(res: Result) -> bool:
    """Whether the interval is the test's dual (rejects exactly when it excludes the null)."""
    return (res.test == "bootstrap" and res.ci_method == "bootstrap-basic" and not res.compat) or res.test in ("t", "z")


def _named(res: Result, text: str) -> str:
    """An interval that is not the test's own (a bootstrap interval beside a permutation test, percentile or
    BCa, McNemar's chi-square with the exact interval) says which it is; Wilcoxon's names Hodges-Lehmann."""
    own = _dual(res) or res.test in ("sign", "wilcoxon") or (res.test == "mcnemar" and res.exact)
    return text if own or not text else f"{text}, {CI_NAMES.get(res.ci_method, res.ci_method)}"


def _interval_text(res: Result, a: str, b: str, winner: str | None) -> str:
    """The interval on the test's side; in the winner's direction when a winner is named, else of A − B."""
    low, high = res.ci_low, res.ci_high
    bounded = {"lower": (low,), "upper": (high,), "two-sided": (low, high)}[res.ci_side]
    if not all(math.isfinite(x) for x in bounded):
        return ""
    share = res.estimand in ("share_won", "share_discordant")  # A's share of the items it wins, in "better" terms
    # the winner's margin: A − B where A wins on a higher-is-better metric, B − A where B does; the other way round
    # where lower is better (δ < 0 is A ahead); a share: B's is 1 − A's
    flip = winner is not None and ((winner != a) if share else (winner != a) == res.higher_is_better)
    if flip:  # the margin -(A - B), or B's share 1 - A's share
        low, high = (1 - high, 1 - low) if share else (-high, -low)
    show = (lambda x: f"{x * 100:.{_share_digits(x)}f}%") if share else (lambda x: number(x, scale_of(res)))
    side = res.ci_side if not flip else {"lower": "upper", "upper": "lower"}.get(res.ci_side, "two-sided")
    # Wilcoxon's interval inverts the test: an end at 0 on a rejected 0 is open (every shift past 0 is kept, not 0)
    open_zero = res.estimand == "pseudo_median" and res.significant and 0.0 in (low, high)
    if side == "two-sided":
        if share and not winner:
            return f"{level(res)} CI of the share of {a}: {show(low)} to {show(high)}"
        return (f"{level(res)} CI {show(low)} to {show(high)}" + (" of them" if share else "")
                + (", 0 itself excluded" if open_zero else ""))
    value = low if side == "lower" else high
    if winner is not None:  # the winner's margin or share: "at least"
        return (f"one-sided {level(res)} bound: {'more than' if open_zero else 'at least'} {show(value)}"
                + (" of them" if share else ""))
    symbol = {"delta": "δ", "pseudo_median": "pseudo-median"}.get(res.estimand, f"share of {a}")
    relation = ('>' if open_zero else '≥') if side == 'lower' else ('<' if open_zero else '≤')
    return f"one-sided {level(res)} bound: {symbol} {relation} {show(value)}"


def _share_digits(x: float) -> int:
    """Percent with no decimals, more where that would print a share as 50% (the null) or 0% / 100% while
    it is not."""
    for digits in range(0, 6):
        shown = round(x * 100, digits)
        if (shown == 50) == (x == 0.5) and (shown in (0, 100)) == (x in (0.0, 1.0)):
            return digits
    return 6


def _estimate_number(res: Result, x: float) -> str:
    if res.estimand in ("share_won", "share_discordant"):
        return f"{x * 100:.{_share_digits(x)}f}% ({res.wins:,} to {res.losses:,})"
    return number(x, scale_of(res))


def _decision(res: Result) -> str:
    alpha = f"α = {res.alpha:g}"
    if res.significant:
        return f"significant at {alpha}."
    if res.side == 0 and res.p_value <= res.alpha and res.n_differing == 0 and res.compat:
        return (f"not significant at {alpha}: the outputs are identical, and the {res.compat} p counts them "
                "as different by its strict '>'.")
    if res.side == 0 or res.p_value <= res.alpha:
        return f"not significant at {alpha}" + (": p ≤ α, but the effect is not on H1's side."
                                                if res.p_value <= res.alpha else ".")
    if not res.reachable:
        return f"not significant: this test cannot reach {alpha} ({_resolution(res)})."
    return f"not significant at {alpha}."


def _resolution(res: Result) -> str:
    floor = p_number(res.p_floor)
    if res.resampled:
        extra = 0 if res.test == "bootstrap" and not res.compat else 1
        need = math.ceil(1 / res.alpha - 1e-9) - extra
        return f"the smallest p with b = {res.n_resamples:,} is {floor}; b ≥ {need:,} could reach it, 10,000 is usual"
    units = "groups" if res.n_groups else "items"
    return f"the smallest p it can give on these data is {floor}: too few {units} differ"


def _caveats(res: Result) -> list[str]:
    out = []
    if res.reachable and not res.settled:
        low, high = res.p_interval
        more = res.resamples_to_settle()
        settle = (f"about {round_count(more)} resamples in all would settle it" if more else
                  "p equals α, so more resamples are needed to settle it")
        out.append(f"Monte-Carlo uncertainty: p's 95% interval ({p_number(low, res.alpha)} to "
                   f"{p_number(high, res.alpha)}) contains α; {settle}.")
    if not res.ci_agrees and res.side != 0:
        what = "excludes" if res.ci_excludes_null else "includes"
        null = "50%" if res.null_value == 0.5 else "0"
        if not res.ci_at_alpha:
            out.append(f"Note: the interval's level ({level(res)}) is not 1 - α, and at that level it {what} {null}.")
        elif res.estimand == "pseudo_median" and res.significant:  # its dual rejects 0 and keeps both sides of it
            out.append("Note: the test rejects 0 but keeps the shifts on both sides of it: with zero differences "
                       "dropped, the signed-rank test is not monotone in the shift (Pratt 1959), and the interval "
                       "of the shifts it keeps includes 0.")
        else:
            name = CI_NAMES.get(res.ci_method, res.ci_method)
            out.append(f"Note: the {name} interval is not this test's dual, and it {what} {null}.")
    out += [f"Caution: {w}." for w in res.warnings]
    return out


def round_count(n: int) -> str:
    """Two significant digits, with thousands separators: 31,000."""
    if n < 100:
        return f"{n:,}"
    digits = 10 ** (len(str(n)) - 2)
    return f"{math.ceil(n / digits) * digits:,}"


def _bracket(interval: tuple[float, float], scale: float) -> str:
    low, high = interval
    return "" if math.isnan(low) or math.isnan(high) else f" [{number(low, scale)}, {number(high, scale)}]"
