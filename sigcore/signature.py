"""The signature of a result: the settings, sizes and versions that made it, as structured fields.

Every kind of result carries one :class:`Signature`. It renders two ways: :attr:`Signature.text`, the one-line
string a paper cites (``test:bootstrap|alternative:two-sided|alpha:0.05|resamples:10000|seed:0|metric:accuracy|...``),
and, through :mod:`sigcore.report.reproduce`, the command line that recreates the result. Both are written from the
fields; nothing reads a signature's text back.

Each kind fills the fields it has and the text writes them in one order (:data:`ORDER`), so that the strings papers
already cite stay as they were; ASO's puts its level and number of comparisons first (:data:`ASO_ORDER`). A result
read from a file written before the fields were saved keeps its text as it was (:meth:`Signature.as_saved`), with no
fields to rerun it from.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any

from ._version import __version__

__all__ = ["ASO_ORDER", "KINDS", "ORDER", "Signature", "margin_text", "tool_versions"]

KINDS = ("pair", "family", "claim", "seeds", "board", "aso", "preferences", "saved")

# the parts of the text, in the order every kind writes those it has
ORDER = ("test", "alternative", "alpha", "confidence", "resamples", "seed", "compat", "correction", "comparisons",
         "metric", "better", "aggregate", "refs", "models", "tasks", "systems", "items", "data", "groups", "clusters",
         "runs", "ci", "versions", "claim", "margin")
ASO_ORDER = ("test", "confidence", "comparisons", "resamples", "seed", "compat", "systems", "runs", "versions")


@dataclass(frozen=True)
class Signature:
    """What made a result, field by field; ``text`` (and ``str()``) is the signature string.

    ``kind``: one of :data:`KINDS`. ``test``: the test as signed ("bootstrap", "permutation", "mcnemar", "t", ...;
    "bootstrap-items-runs" for runs over seeds, "bootstrap-stratified" for a board, "aso"), with ``exact`` (every
    swap enumerated) and ``chi_square`` (McNemar's chi-square form). ``alpha`` is the test's level, ``confidence``
    ASO's; ``resamples`` and ``seed`` are b and the seed of the resampling (None for a closed-form test);
    ``ci``/``level`` the interval's method and level, ``ci_resamples`` the b of its own bootstrap where that is not
    the test's (an exact permutation test's interval). ``metric`` with its ``options`` (JSON-safe, defaults filled
    in) and direction; ``references``: BLEU's and chrF's reference streams; ``data``: the sha256 of the inputs;
    ``items``, ``groups``, ``runs`` (per system), ``models``, ``tasks``, ``systems``: the sizes; ``correction`` and
    ``comparisons`` of a family (ASO's Bonferroni count), ``aggregate`` and ``clusters`` of a board; ``claim`` and
    ``margin`` of a non-inferiority or equivalence claim; ``versions``: (package, version) of the tools that
    computed it.
    """

    kind: str
    test: str | None = None
    exact: bool = False
    chi_square: bool = False
    alternative: str | None = None
    alpha: float | None = None
    confidence: float | None = None
    resamples: int | None = None
    seed: int | None = None
    compat: str | None = None
    correction: str | None = None
    comparisons: int | None = None
    metric: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    higher_is_better: bool = True
    aggregate: str | None = None
    references: int | None = None
    models: int | None = None
    tasks: int | None = None
    systems: int | None = None
    items: int | None = None
    data: str | None = None
    groups: int | None = None
    clusters: str | None = None
    runs: tuple[int, ...] | None = None
    ci: str | None = None
    level: float | None = None
    ci_resamples: int | None = None
    claim: str | None = None
    margin: float | None = None
    versions: tuple[tuple[str, str], ...] = ()
    saved: str | None = None  # the text of a signature read from a file that kept no fields, as it was

    @classmethod
    def as_saved(cls, text: str) -> Signature:
        """A signature known only by its text (a result saved before its fields were): shown as it was, never
        parsed, and with no fields to rerun it from."""
        return cls("saved", saved=text)

    def with_claim(self, claim: str, margin: float) -> Signature:
        """This comparison's signature, for the non-inferiority or equivalence ``claim`` with ``margin`` that it was
        run for."""
        return replace(self, kind="claim", claim=claim, margin=margin)

    @property
    def text(self) -> str:
        """The signature string: ``key:value`` parts joined by ``|``."""
        if self.saved is not None:
            return self.saved
        order = ASO_ORDER if self.kind == "aso" else ORDER
        return "|".join(part for key in order for part in self._parts(key))

    def __str__(self) -> str:
        return self.text

    def _parts(self, key: str) -> list[str]:
        """The text's parts for ``key`` (none where the field is not set)."""
        if key == "test":
            return [f"test:{self.test}" + ("-exact" if self.exact else "") + ("-chi2" if self.chi_square else "")]
        if key == "metric":
            opts = ",".join(f"{k}={_short(v)}" for k, v in sorted(self.options.items()))
            return [f"metric:{self.metric}" + (f"({opts})" if opts else "")] if self.metric is not None else []
        if key == "better":
            return [] if self.higher_is_better else ["better:lower"]
        if key == "ci":
            if self.ci is None:
                return []
            own = self.ci_resamples is not None and self.ci_resamples != self.resamples
            return [f"ci:{self.ci}@{self.level:g}" + (f",resamples:{self.ci_resamples}" if own else "")]
        if key == "versions":
            return [f"{name}:{version}" for name, version in self.versions]
        value = self.references if key == "refs" else getattr(self, key)
        if value is None or not value and key in ("refs", "data", "compat", "clusters"):
            return []
        return [f"{key}:{_WRITTEN.get(key, str)(value)}"]

    # ---------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON (``signature_fields`` of a result's JSON): ``versions`` as
        {package: version}; those at their default left out."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != (f.default_factory() if f.default_factory is not MISSING else f.default):
                out[f.name] = dict(value) if f.name == "versions" else list(value) if f.name == "runs" else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Signature:
        """The signature :meth:`to_dict` wrote; a ValueError names a field that is not one."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a signature's fields are a mapping, not {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown or not isinstance(data.get("kind"), str) or data["kind"] not in KINDS:
            raise ValueError(f"not a signature's fields: {', '.join(unknown) or 'kind ' + repr(data.get('kind'))}")
        out = dict(data)
        if "runs" in out:
            out["runs"] = tuple(out["runs"])
        if "versions" in out:
            out["versions"] = tuple((str(k), str(v)) for k, v in dict(out["versions"]).items())
        return cls(**out)


# how a part writes its value, where not as str() does
_WRITTEN = {"alpha": lambda v: f"{v:g}", "confidence": lambda v: f"{v:.6g}", "data": lambda v: f"sha256:{v}",
            "runs": lambda v: ",".join(str(r) for r in v), "margin": lambda v: margin_text(v)}


def tool_versions(*packages: str) -> tuple[tuple[str, str], ...]:
    """(name, version) of sigcore and of each of ``packages`` (imported by name), for a signature's ``versions``."""
    return (("sigcore", __version__), *((name, importlib.import_module(name).__version__) for name in packages))


def margin_text(margin: float) -> str:
    """Δ as every output prints it: "0.5", "0.01"; all its digits where six would change it."""
    short = f"{margin:g}"
    return short if float(short) == margin else repr(float(margin))


def _short(value: Any) -> str:
    """An option as the signature writes it: a long list (2,000 labels) as its length and a hash of it."""
    if isinstance(value, (list, tuple)) and len(value) > 8:
        digest = hashlib.sha256(repr(list(value)).encode()).hexdigest()[:12]
        return f"<{len(value):,} values sha256:{digest}>"
    return str(value)
