"""The result of one paired comparison: everything a reader needs to trust and reproduce it, and the decision.

The decision rule (step 7 of Dror et al.'s algorithm): reject H0 when p <= alpha, and the effect lies on the
side H1 names (A ahead for "greater", B ahead for "less", either for "two-sided"). The second part only
matters where a p counts ties as not extreme (``compat="sacrebleu"`` on identical outputs).

"Better" has a direction: δ = M(A) − M(B) keeps its sign whatever the metric, and A is ahead when δ > 0 for a
metric on which higher is better (accuracy, BLEU) but when δ < 0 for one on which lower is better (MAE, an error
rate). :func:`better_side` is the one place that says which; :func:`delta_alternative` gives the side of δ that H1
names ("greater", A better, is δ < 0 for an error).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import numpy as np

from ._lazy import stats
from .contract import P_DIGITS, P_SIGNIFICANT_BELOW, P_UNDERFLOW, tie
from .errors import InputError, SettingsError
from .jsonform import bounded_p, document, read
from .signature import Signature

__all__ = ["P_INTERVAL", "ESTIMANDS", "better_side", "delta_alternative", "refuse_lower", "on_side", "finite_delta",
           "Result", "mc_interval", "p_cell", "p_text", "p_number"]

P_INTERVAL = 0.95  # level of the Monte-Carlo interval of a resampled p

# What each test measures, and the value of that measure when A and B are equally good.
ESTIMANDS = {
    "delta": ("difference M(A, x) - M(B, x)", 0.0),
    "pseudo_median": ("Hodges-Lehmann pseudo-median of the non-zero per-item differences", 0.0),
    "share_won": ("share of the items where A and B differ that A wins", 0.5),
    "share_discordant": ("share of the discordant pairs (one right, one wrong) that A gets right", 0.5),
}


def better_side(sign: float, higher_is_better: bool = True) -> int:
    """Which system a difference of this sign favours (+1 A, -1 B, 0 neither), for a metric on which higher (or,
    with ``higher_is_better=False``, lower) is better: the one place that decides "which is better" from δ."""
    side = int(np.sign(sign))
    return side if higher_is_better else -side


def delta_alternative(alternative: str, higher_is_better: bool = True) -> str:
    """The side of δ = M(A) − M(B) that H1 names: "greater" (A better) is δ > 0, or δ < 0 where lower is better."""
    if higher_is_better or alternative == "two-sided":
        return alternative
    return {"greater": "less", "less": "greater"}[alternative]


def refuse_lower(what: str, higher_is_better: bool, metric: str | None = None, *, hint: str) -> None:
    """Refuse ``what`` where lower is better: a study whose sides or words read δ > 0 as A better (a one-sided power
    plan, non-inferiority, the confidence sequence). The one wording of that refusal, raised here for the command
    line, the API and the app alike."""
    if not higher_is_better:
        on = f"on {metric}" if metric else "on these scores"
        raise SettingsError(f"{what} reads δ > 0 as A better, and {on} lower is better", hint=hint)


def on_side(alternative: str, side: int) -> bool:
    """Whether an effect on ``side`` (+1 A ahead, -1 B ahead, 0 none) lies on H1's side of ``alternative``."""
    return {"greater": side > 0, "less": side < 0, "two-sided": side != 0}[alternative]


def finite_delta(score_a: float, score_b: float, of: str = "") -> float:
    """δ = ``score_a`` − ``score_b``, refused where it is not a finite number (1e308 − (−1e308)): no verdict may
    rest on an infinity. The one check of a pair's, a family's and a board's δ; ``of`` says whose δ it is."""
    delta = score_a - score_b
    if not math.isfinite(delta):
        raise InputError(f"δ{of} = {score_a:g} − {score_b:g} is not a finite number",
                         hint="The scores are too large to subtract: rescale both systems' alike (e.g. divide them "
                              "by 1e300).")
    return delta


@dataclass(frozen=True, repr=False)
class Result:
    """A paired test of system A against system B on one test set x.

    ``delta`` is delta(x) = M(A, x) - M(B, x). ``estimate`` is what the test measures (``estimand``, one of
    :data:`ESTIMANDS`: delta for the bootstrap, permutation, t and z tests), and ``ci_low``/``ci_high`` its
    interval at ``confidence_level`` on the side of ``alternative`` (one-sided: a bound, the other end open).
    ``distribution`` holds the resampled delta(x^(i)) (bootstrap) or the permutation null; ``None`` for
    closed-form tests. ``threshold`` is the value the distribution is compared with: 2·delta(x) for the
    paired bootstrap, delta(x) for the permutation test. ``n_extreme`` is how many resamples were at least
    as extreme. ``p_floor`` is the smallest p the test can give with these resamples (or this n); a resampled
    p is never 0: with no extreme resample it is ``p_floor`` and reads "p < p_floor". ``mc_error`` is the
    Monte-Carlo standard error of p, Agresti-Coull's (from (count + 2) / (b + 4), so never 0; 0 for exact and
    closed-form tests); :attr:`p_interval` is the Clopper-Pearson interval the reports print. ``auto``: no test was
    named, and ``test`` is the one recommended for these data. ``higher_is_better``: the metric's direction (False
    for errors such as MAE); ``alternative`` is H1 in terms of "better" ("greater": A better, δ < 0 for an
    error), and ``estimate`` and its interval stay in the units of A − B (``wins``/``losses``: what A and B each
    win, in the better direction). ``n_groups`` counts the groups
    (documents) resampled whole, when items were clustered. ``n_differing`` counts the items (groups) where
    A's and B's statistics differ (for right/wrong items: the discordant pairs).
    """

    metric: str
    test: str
    alternative: str
    alpha: float
    score_a: float
    score_b: float
    delta: float
    estimand: str
    estimate: float
    p_value: float
    ci_low: float
    ci_high: float
    confidence_level: float
    ci_method: str
    ci_a: tuple[float, float]
    ci_b: tuple[float, float]
    n_items: int
    n_differing: int
    n_resamples: int
    seed: int | None
    mc_error: float
    p_floor: float
    distribution: np.ndarray | None = field(compare=False)
    threshold: float | None
    signature_fields: Signature  # what made it, field by field; :attr:`signature` is its text
    n_extreme: int | None = None
    n_groups: int | None = None
    statistic: float | None = None
    wins: float | None = None  # items (sign), discordant pairs (McNemar) or rank sum R+ (Wilcoxon) of A
    losses: float | None = None
    exact: bool = False  # p from an exact distribution: all 2^n' swaps, or an exact closed-form null
    compat: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    done: bool = True
    auto: bool = False  # no test was named: this is the one the advisor recommends for these data (test="auto")
    test_reason: str = ""  # then, why the advisor recommends it
    higher_is_better: bool = True  # False for errors (MAE): then A is ahead when delta < 0
    # b of the bootstrap behind the interval where it is not the test's own resamples (a permutation test's; an
    # exact one's n_resamples counts its swaps), so that the reproduce line recreates the interval too
    ci_resamples: int | None = None

    @property
    def signature(self) -> str:
        """The signature string a paper cites (test, resamples, seed, metric options, n, a hash of the data,
        versions): :attr:`signature_fields` written out."""
        return self.signature_fields.text

    # ---------------------------------------------------------------- the decision

    @property
    def null_value(self) -> float:
        """The estimate's value when A and B are equally good (0 for differences, 1/2 for shares)."""
        return ESTIMANDS[self.estimand][1]

    @property
    def side(self) -> int:
        """+1 when the estimate says A is ahead (better, in the metric's direction), -1 when B is, 0 when they do
        not differ (within float noise)."""
        if self.estimand != "delta":  # what the test itself weighs: items or pairs won, rank sums of A's and B's wins
            return int(np.sign((self.wins or 0) - (self.losses or 0)))
        sign = 0 if abs(self.estimate) <= tie(self.score_a, self.score_b) else self.estimate
        return better_side(sign, self.higher_is_better)

    @property
    def winner(self) -> str | None:
        """"A" or "B" when the test shows one better (significant, on H1's side), else None."""
        return ("A" if self.side > 0 else "B") if self.significant else None

    @property
    def delta_alternative(self) -> str:
        """H1 as a side of δ (and of the pseudo-median of A − B): see :func:`delta_alternative`."""
        return delta_alternative(self.alternative, self.higher_is_better)

    @property
    def significant(self) -> bool:
        """Whether H0 is rejected: p <= alpha, with the effect on H1's side."""
        return self.p_value <= self.alpha and on_side(self.alternative, self.side)

    @property
    def reachable(self) -> bool:
        """Whether this test, with these resamples and items, can give a p at or below alpha at all."""
        return self.p_floor <= self.alpha

    @property
    def resampled(self) -> bool:
        """Whether p is a Monte-Carlo estimate (bootstrap, or a permutation test that did not enumerate)."""
        return self.test in ("bootstrap", "permutation") and not self.exact  # saved without its values, too

    # ---------------------------------------------------------------- the interval

    @property
    def ci_side(self) -> str:
        """"lower" (a lower bound, for "greater"), "upper" (for "less") or "two-sided"; for an estimate in units of
        A − B on a lower-is-better metric, the other way round (A better is δ below 0: an upper bound)."""
        shares = self.estimand in ("share_won", "share_discordant")  # A's share of the items it wins
        alternative = self.alternative if shares else self.delta_alternative
        return {"greater": "lower", "less": "upper", "two-sided": "two-sided"}[alternative]

    @property
    def ci_excludes_null(self) -> bool:
        return self.ci_low > self.null_value or self.ci_high < self.null_value

    @property
    def ci_agrees(self) -> bool:
        """Whether the interval excludes the null value exactly when the test rejects (always, for a dual
        interval at 1 - alpha: the bootstrap's basic interval, t, z; a nan interval agrees with anything; a
        bound that touches the null agrees with a p equal to alpha, and Wilcoxon's, which inverts the test, with
        a rejected null: that end is open, every shift past it kept and not the null itself)."""
        if math.isnan(self.ci_low) or math.isnan(self.ci_high):
            return True
        touches = self.null_value in (self.ci_low, self.ci_high) and (
            self.p_value == self.alpha or self.estimand == "pseudo_median" and self.significant)
        return self.ci_excludes_null == self.significant or touches

    @property
    def ci_at_alpha(self) -> bool:
        """Whether the interval's level is 1 - alpha (it can be set apart)."""
        return math.isclose(self.confidence_level, 1 - self.alpha, rel_tol=1e-9)

    # ---------------------------------------------------------------- Monte-Carlo resolution of p

    @property
    def p_interval(self) -> tuple[float, float]:
        """The 95% Monte-Carlo interval of p (Clopper-Pearson on the count of extreme resamples); (p, p) when
        p is exact or closed-form."""
        if not self.resampled or self.n_extreme is None:
            return self.p_value, self.p_value
        return mc_interval(self.n_extreme, self.n_resamples, self.plus_one)

    @property
    def plus_one(self) -> bool:
        """Whether p is (count + 1) / (b + 1) (permutations, sacrebleu's bootstrap) rather than count / b."""
        return self.test == "permutation" or self.compat is not None

    @property
    def settled(self) -> bool:
        """Whether the decision is safe from Monte-Carlo noise: alpha lies outside p's Monte-Carlo interval."""
        low, high = self.p_interval
        return not low <= self.alpha <= high or not self.resampled

    def resamples_to_settle(self) -> int | None:
        """About how many resamples in all would put alpha outside p's Monte-Carlo interval, if the share of
        extreme resamples stayed as it is; None when that share is alpha itself."""
        share = self.n_extreme / self.n_resamples
        if share == self.alpha:
            return None
        b = self.n_resamples
        while _contains(mc_interval(round(share * b), b, self.plus_one), self.alpha):
            if b > 10**12:
                return None
            b *= 2
        low = b // 2
        while b - low > max(1, b // 100):  # to within 1%
            mid = (low + b) // 2
            low, b = (mid, b) if _contains(mc_interval(round(share * mid), mid, self.plus_one),
                                                  self.alpha) else (low, mid)
        return b

    # ---------------------------------------------------------------- text and JSON

    @property
    def _none_as_extreme(self) -> bool:  # a count / b p with a count of 0: p < 1/b
        return self.n_extreme == 0 and self.resampled and not self.plus_one

    @property
    def p_text(self) -> str:
        """The p-value as a paper should print it: "p < 1/b" when no resample was extreme, never "p = 0"
        (:func:`p_text`)."""
        none = self._none_as_extreme
        return p_text(self.p_floor if none else self.p_value, self.alpha, bound=none)

    @property
    def p_bound(self) -> bool:
        """Whether p is a bound, printed after "<": no resample was as extreme, or a closed form underflowed."""
        return self._none_as_extreme or self.p_value == 0

    def to_dict(self, *, distribution: bool = False) -> dict[str, Any]:
        """The result's JSON record, kind "pair" (:mod:`sigcore.jsonform`: null for NaN and an interval's open
        end, p never 0); the resampled values only when asked: they can be millions."""
        out = {k: v for k, v in asdict(self).items() if k not in ("distribution", "signature_fields")}
        out.update(p_value=bounded_p(self.p_value, P_UNDERFLOW)[0], p_floor=self.p_floor or None,  # 0: no floor
                   p_bound=self.p_bound, p_text=self.p_text,
                   significant=self.significant, reachable=self.reachable, settled=self.settled,
                   p_interval=list(self.p_interval), ci_side=self.ci_side, null_value=self.null_value,
                   ci_open=[end for end, v in (("low", self.ci_low), ("high", self.ci_high)) if math.isinf(v)],
                   winner=self.winner, signature=self.signature,
                   signature_fields=self.signature_fields.to_dict())
        if distribution:
            out["distribution"] = None if self.distribution is None else self.distribution
        return document("pair", out)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, file: str | None = None) -> Result:
        """The result :meth:`to_dict` wrote (with its resampled values if it kept them), checked against the
        published schema of kind "pair": a figure drawn from a saved result is the figure of the result itself.
        A null end of the interval is open (±infinity) where ``ci_open`` names it, else undefined (NaN); a null
        ``p_floor`` is none (0)."""
        read(data, kinds=("pair",), file=file)
        names = {f.name for f in fields(cls)}
        out = {k: v for k, v in data.items() if k in names}
        for name in {f.name for f in fields(cls) if f.type == "float"} & set(out):  # null: NaN, which JSON lacks
            out[name] = math.nan if out[name] is None else out[name]
        out["ci_low"], out["ci_high"] = _open_ends(data["ci_low"], data["ci_high"], data["ci_open"])
        out["p_floor"] = data["p_floor"] or 0.0  # null: p has no floor (t, z)
        out["ci_a"], out["ci_b"] = (tuple(math.nan if v is None else v for v in data[k]) for k in ("ci_a", "ci_b"))
        out["warnings"] = tuple(out.get("warnings", ()))
        saved = data.get("signature_fields")  # none in a file written before the fields
        out["signature_fields"] = Signature.as_saved(data["signature"]) if saved is None else \
            Signature.from_dict(saved)
        dist = data.get("distribution")
        if dist is not None and len(dist) != out["n_resamples"]:
            raise InputError(f"is not a valid pair: the distribution holds {len(dist):,} values, not b = "
                             f"{out['n_resamples']:,}", file=file)
        out["distribution"] = None if dist is None else np.asarray(dist, dtype=float)
        return cls(**out)

    def __repr__(self) -> str:
        return (f"Result({self.test}, {self.metric}: A={self.score_a:.4g} B={self.score_b:.4g} "
                f"delta={self.delta:.4g}, {self.p_text}, {self.alternative}, "
                f"{self.confidence_level * 100:.10g}% CI [{self.ci_low:.4g}, {self.ci_high:.4g}])")


def _open_ends(low: float | None, high: float | None, open_ends: list[str]) -> tuple[float, float]:
    """An interval read back from JSON: a null end is open (±infinity) where ``open_ends`` names it ("low",
    "high"), and undefined (NaN) where it does not."""
    def end(value: float | None, name: str, infinite: float) -> float:
        return value if value is not None else infinite if name in open_ends else math.nan
    return end(low, "low", -math.inf), end(high, "high", math.inf)


def _contains(interval: tuple[float, float], value: float) -> bool:
    return interval[0] <= value <= interval[1]


def mc_interval(k, b, plus_one: bool = False):
    """Clopper-Pearson 95% interval of the share k / b of extreme resamples, as an interval of p (of
    (k + 1) / (b + 1) with ``plus_one``): the Monte-Carlo uncertainty of a resampled p, never "± 0".
    With arrays k and b, arrays of bounds (a running p's band)."""
    k, b = np.asarray(k, dtype=float), np.asarray(b, dtype=float)
    tail = (1 - P_INTERVAL) / 2
    with np.errstate(invalid="ignore", divide="ignore"):  # the k = 0 and k = b ends are set apart
        low = np.where(k == 0, 0.0, stats.beta.ppf(tail, k, b - k + 1))
        high = np.where(k == b, 1.0, stats.beta.isf(tail, k + 1, b - k))
    if plus_one:  # p = (k + 1) / (b + 1)
        low, high = (low * b + 1) / (b + 1), (high * b + 1) / (b + 1)
    return (float(low), float(high)) if low.ndim == 0 else (low, high)


def p_cell(p: float, alpha: float | None = None, *, bound: bool = False) -> str:
    """p as a table's cell, the one rule every view follows: "0.004" (:func:`p_number`, with the digits that keep p
    on its side of ``alpha``), or "< 0.0001" where ``bound`` (no resample was as extreme: ``p`` is then the floor
    1/b, or what a correction made of it, an upper bound), and "< 1e-300" for a p of 0 (a closed form's underflow):
    never "0"."""
    if p == 0:
        return f"< {P_UNDERFLOW:g}"
    return f"< {p_number(p)}" if bound else p_number(p, alpha)


def p_text(p: float, alpha: float | None = None, *, bound: bool = False, name: str = "p") -> str:
    """p as a sentence says it: "p = 0.004", "p < 0.0001" (:func:`p_cell`); ``name``: "corrected p", "p_adj"."""
    cell = p_cell(p, alpha, bound=bound)
    return f"{name} {cell}" if cell.startswith("<") else f"{name} = {cell}"


def p_number(p: float, alpha: float | None = None) -> str:
    """p with two significant digits below 0.001, else up to four decimals; more digits where the rounded
    value would sit on the other side of alpha, or on alpha itself, while p does not."""
    for digits in range(P_DIGITS, 18):
        text = f"{p:.{digits}g}" if p < P_SIGNIFICANT_BELOW else f"{p:.{digits + 2}f}".rstrip("0").rstrip(".") or "0"
        shown = float(text)
        if alpha is None or (shown <= alpha) == (p <= alpha) and (shown != alpha or p == alpha):
            return text
    return repr(p)
