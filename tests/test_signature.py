"""One Signature type: every kind of result carries its fields, writes the same strings papers cite, keeps them in
its JSON, reads them back, and no module reads a signature's text back to learn a setting."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sigcore
from sigcore import claims, leaderboard, statistics
from sigcore.report import records as records_of
from sigcore.report import reproduce
from sigcore.result import Result
from sigcore.signature import KINDS, Signature
from sigcore.statistics.aso import table_signature

ROOT = Path(__file__).resolve().parents[1]
V = (("sigcore", "9.9"), ("numpy", "8.8"))  # versions fixed, so that each string can be written out in full

# each kind's string, written out: the order and form of every part (these are the strings papers cite)
PINNED = [
    (Signature("pair", "bootstrap", alternative="two-sided", alpha=0.05, resamples=500, seed=3, metric="mean",
               items=60, data="ee561bb1d62d", ci="bootstrap-basic", level=0.95, versions=V),
     "test:bootstrap|alternative:two-sided|alpha:0.05|resamples:500|seed:3|metric:mean|items:60|"
     "data:sha256:ee561bb1d62d|ci:bootstrap-basic@0.95|sigcore:9.9|numpy:8.8"),
    (Signature("pair", "mcnemar", chi_square=True, alternative="less", alpha=0.1, metric="accuracy", items=9,
               ci="clopper-pearson", level=0.9, versions=V),
     "test:mcnemar-chi2|alternative:less|alpha:0.1|metric:accuracy|items:9|ci:clopper-pearson@0.9|sigcore:9.9|"
     "numpy:8.8"),
    (Signature("pair", "permutation", exact=True, alternative="two-sided", alpha=0.05, resamples=63, seed=2,
               compat=None, metric="macro_f1", options={"labels": list(range(300))}, higher_is_better=False,
               references=2, items=10, groups=4, ci="bootstrap-basic", level=0.95, ci_resamples=5000,
               versions=(*V, ("sacrebleu", "2.6.0"))),
     "test:permutation-exact|alternative:two-sided|alpha:0.05|resamples:63|seed:2|"
     "metric:macro_f1(labels=<300 values sha256:3b5f74133aec>)|better:lower|refs:2|items:10|groups:4|"
     "ci:bootstrap-basic@0.95,resamples:5000|sigcore:9.9|numpy:8.8|sacrebleu:2.6.0"),
    (Signature("pair", "bootstrap", alternative="greater", alpha=0.05, resamples=300, seed=0, compat="sacrebleu",
               metric="bleu", options={"tokenize": "13a", "lowercase": False}, references=1, items=12,
               ci="bootstrap-bca", level=0.9, ci_resamples=300, versions=V),
     "test:bootstrap|alternative:greater|alpha:0.05|resamples:300|seed:0|compat:sacrebleu|"
     "metric:bleu(lowercase=False,tokenize=13a)|refs:1|items:12|ci:bootstrap-bca@0.9|sigcore:9.9|numpy:8.8"),
    (Signature("family", "t", alternative="two-sided", alpha=0.05, correction="bonferroni", comparisons=3,
               metric="accuracy", items=60, ci="t", level=0.95, versions=V),
     "test:t|alternative:two-sided|alpha:0.05|correction:bonferroni|comparisons:3|metric:accuracy|items:60|"
     "ci:t@0.95|sigcore:9.9|numpy:8.8"),
    (Signature("claim", "t", alternative="greater", alpha=0.05, metric="mean", items=60, data="ab", ci="t",
               level=0.95, claim="equivalent", margin=0.1 / 3, versions=V),
     "test:t|alternative:greater|alpha:0.05|metric:mean|items:60|data:sha256:ab|ci:t@0.95|sigcore:9.9|numpy:8.8|"
     "claim:equivalent|margin:0.03333333333333333"),
    (Signature("seeds", "bootstrap-items-runs", alternative="greater", alpha=0.05, resamples=300, seed=0,
               metric="mae", higher_is_better=False, items=60, runs=(3, 2), versions=V),
     "test:bootstrap-items-runs|alternative:greater|alpha:0.05|resamples:300|seed:0|metric:mae|better:lower|"
     "items:60|runs:3,2|sigcore:9.9|numpy:8.8"),
    (Signature("aso", "aso", confidence=0.9833333333, comparisons=3, resamples=50, seed=0, systems=3,
               runs=(5, 5, 4), versions=V),
     "test:aso|confidence:0.983333|comparisons:3|resamples:50|seed:0|systems:3|runs:5,5,4|sigcore:9.9|numpy:8.8"),
    (Signature("board", "bootstrap-stratified", alternative="two-sided", alpha=0.05, resamples=200, seed=0,
               correction="holm", metric="score", aggregate="tasks", models=3, tasks=2, items=40,
               clusters="passage", versions=V[:1]),
     "test:bootstrap-stratified|alternative:two-sided|alpha:0.05|resamples:200|seed:0|correction:holm|"
     "metric:score|aggregate:tasks|models:3|tasks:2|items:40|clusters:passage|sigcore:9.9"),
]


@pytest.mark.parametrize("signed, text", PINNED, ids=[s.kind for s, _ in PINNED])
def test_each_kind_writes_its_string_and_keeps_its_fields_in_json(signed, text):
    assert signed.text == str(signed) == text
    again = Signature.from_dict(json.loads(json.dumps(signed.to_dict())))
    assert again == signed and again.text == text


def _data():
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 3, 80).tolist()
    a = [g if rng.random() < 0.8 else (g + 1) % 3 for g in gold]
    b = [g if rng.random() < 0.6 else (g + 2) % 3 for g in gold]
    return gold, a, b


def _kinds():
    """One real result of each kind, with its signature object and its text."""
    gold, a, b = _data()
    pair = sigcore.compare(gold, a, b, test="permutation", n_resamples=300, seed=4)
    claim = claims.claim(gold, a, b, kind="non-inferior", margin=0.05, n_resamples=300)
    family = sigcore.compare_many(gold, {"x": a, "y": b, "z": gold}, baseline="z", n_resamples=300, test="bootstrap")
    runs = sigcore.compare_seeds(gold, [a, gold], [b, b, a], n_resamples=300)
    scores = {"s1": [0.1, 0.3, 0.2], "s2": [0.5, 0.4, 0.6, 0.55]}
    aso = statistics.multi_aso(scores, n_bootstrap=50)
    frame = pd.DataFrame([{"model": m, "task": t, "item": i, "score": float((i * 7 + k) % 3 == 0)}
                          for k, m in enumerate("ABC") for t in ("t1", "t2") for i in range(20)])
    board = leaderboard.bootstrap(leaderboard.from_table(frame), n_resamples=200)
    prefs = sigcore.preferences(ROOT / "tests" / "data" / "judgments" / "arena.csv", n_resamples=100, prior=1)
    return {"pair": (pair.signature_fields, pair.signature), "claim": (claim.signature_fields, claim.signature),
            "family": (family.signature_fields, family.signature),
            "seeds": (runs.signature_fields, runs.signature),
            "aso": (table_signature(aso), table_signature(aso).text),
            "board": (board.signature_fields(0.05, "holm"), board.signature(0.05, "holm")),
            "preferences": (prefs.signature_fields(), prefs.signature)}


def test_every_kind_carries_its_signature_object():
    kinds = _kinds()
    assert set(kinds) == set(KINDS) - {"saved"}
    for kind, (signed, text) in kinds.items():
        assert isinstance(signed, Signature) and signed.kind == kind and text == signed.text
        assert text.startswith(f"test:{signed.test}") and f"|sigcore:{sigcore.__version__}" in text
    pair, family = kinds["pair"][0], kinds["family"][0]
    assert family.data is None and pair.data and family.comparisons == 2 and family.correction == "holm"
    assert kinds["claim"][0].claim == "non-inferior" and kinds["claim"][0].margin == 0.05
    assert kinds["seeds"][0].runs == (2, 3) and kinds["aso"][0].runs == (3, 4)


def test_a_saved_result_reads_its_signature_back_and_an_older_file_its_text():
    gold, a, b = _data()
    res = sigcore.compare(gold, a, b, test="mcnemar", exact=False)
    saved = json.loads(json.dumps(res.to_dict()))
    assert saved["signature"] == res.signature and saved["signature_fields"]["chi_square"] is True
    assert Result.from_dict(saved) == res
    assert "--chi-square" in reproduce.arguments(Result.from_dict(saved), ["x.csv"])
    older = {k: v for k, v in saved.items() if k != "signature_fields"}  # as sigcore 0.2.0 wrote it
    back = Result.from_dict(older)
    assert back.signature == res.signature and back.signature_fields.kind == "saved"
    with pytest.raises(ValueError, match="saved without its signature's fields"):
        reproduce.arguments(back, ["x.csv"])
    with pytest.raises(ValueError, match="not a signature's fields"):
        Result.from_dict({**saved, "signature_fields": {"kind": "pair", "tset": "t"}})


def test_every_json_with_a_signature_holds_its_fields():
    gold, a, b = _data()
    pair = sigcore.compare(gold, a, b, test="bootstrap", n_resamples=200)
    claim = claims.claim(gold, a, b, kind="equivalent", margin=0.1, n_resamples=200)
    runs = sigcore.compare_seeds(gold, [a, gold], [b, b], n_resamples=200)
    scores = {"s1": [0.1, 0.3, 0.2], "s2": [0.5, 0.4, 0.6]}
    aso = statistics.multi_aso(scores, n_bootstrap=50)
    prefs = sigcore.preferences(ROOT / "tests" / "data" / "judgments" / "arena.csv", n_resamples=100, prior=1)
    records = [pair.to_dict(), json.loads(records_of.dumps(records_of.claim(claim, resamples=True))),
               records_of.seeds(runs, a="a", b="b"), records_of.aso(aso, scores, tau=0.2),
               records_of.preferences(prefs)]
    for record in records:
        assert Signature.from_dict(json.loads(json.dumps(record["signature_fields"]))).text == record["signature"]


# what reading a signature's text back looks like: a test on it, a split of it, a pattern searched in it
_READS = "split|rsplit|partition|rpartition|startswith|endswith|find|index|count|removeprefix|removesuffix"
_PARSING = re.compile(rf"""signature\w*(?:\.text)?(?:\(\))?\s*\.\s*(?:{_READS})\b"""  # .split("|"), ...
                      r"""|\bin\s+[\w.\[\]"'()]*signature\w*\b(?!_fields)"""  # "-chi2" in res.signature
                      r"""|\bre\.\w+\(.*signature""")  # re.search(r"refs:(\d+)", res.signature)


def test_the_parsing_check_would_see_what_reproduce_used_to_do():
    for old in ['if res.test == "mcnemar" and "-chi2" in res.signature.split("|")[0]:',
                'refs = re.search(r"\\|refs:(\\d+)", res.signature)',
                "parts = [p for p in many.signature.split('|') if not p.startswith('data:')]",
                "return ' '.join(c.signature.split())", 'if "groups:" in res.signature:']:
        assert _PARSING.search(old), old
    for new in ("if sig.chi_square and name in sig.options:", 'return Signature.from_dict(table.attrs["signature"])'):
        assert not _PARSING.search(new), new


def test_no_module_reads_a_signature_s_text_back():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for folder in ("sigcore", "ui", "app_pages") for path in sorted((ROOT / folder).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if _PARSING.search(line) and "inspect.signature" not in line]
    assert not found, "\n".join(found)
