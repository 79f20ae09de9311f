"""What a paper prints (sigcore.report.export's sentence and caption, citations, reproduce, the data hash):
the LaTeX says exactly what the plain sentence says, every citation has its BibTeX, and the reproduce line
recreates the result."""

import json
import re
import shlex

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sigcore
from sigcore.__main__ import main
from sigcore.comparison import data_hash
from sigcore.report import citations, export, reproduce
from sigcore.report.sentence import verdict

TESTS = ["bootstrap", "permutation", "t", "wilcoxon", "sign", "mcnemar"]


def random_result(seed, test, alternative):
    gen = np.random.default_rng(seed)
    n = int(gen.integers(8, 300))
    gold = gen.integers(0, 2, n)
    a, b = (np.where(gen.random(n) < p, gold, 1 - gold) for p in gen.uniform(0.4, 0.95, 2))
    metric = "mean" if test == "wilcoxon" else "accuracy"
    if metric == "mean":
        gold, a, b = None, gen.normal(0.5, 0.2, n), gen.normal(0.5, 0.2, n) + gen.normal(0, 0.05)
    return sigcore.compare(gold, a, b, metric=metric, test=test, alternative=alternative, n_resamples=300,
                           seed=int(seed), alpha=float(gen.choice([0.05, 0.01, 0.1])))


def plain(latex: str) -> str:
    """The LaTeX sentence read back as text."""
    text = re.sub(r" ?\\citep\{[^}]*\}", "", latex)
    text = re.sub(r"(\d(?:\.\d+)?) \\times 10\^\{(-?\d+)\}", lambda m: f"{m.group(1)}e{int(m.group(2)):+03d}", text)
    for tex, uni in ((r"\delta", "δ"), (r"\alpha", "α"), (r"\geq", "≥"), (r"\leq", "≤"), (r"\infty", "∞"),
                     ("{,}", ","), (r"\textminus{}", "-"), (r"\%", "%"), ("$", "")):
        text = text.replace(tex, uni)
    return text


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(TESTS), st.sampled_from(["greater", "less", "two-sided"]))
def test_the_latex_sentence_says_what_the_sentence_says(seed, test, alternative):
    res = random_result(seed, test, alternative)
    latex = export.sentence_latex(res)
    assert latex.count("$") % 2 == 0
    assert not re.search("[δα≥≤∞·]", re.sub(r"\$[^$]*\$", "", latex))  # every symbol in math mode
    assert re.search(r"\$b = [\d{},]+\$", latex) if res.resampled else "$b =" not in latex
    cited = citations.method_keys(res)
    assert f"\\citep{{{','.join(cited)}}}" in latex if cited else "\\citep" not in latex
    p_value = r"p [<=] [^(]+? (?=\()"  # p is set as 10^k in LaTeX (checked in test_report): the rest is equal
    assert re.sub(p_value, "p ", plain(latex)) == re.sub(p_value, "p ", verdict(res))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(TESTS), st.sampled_from(["greater", "two-sided"]))
def test_the_markdown_sentence_is_the_verdict_with_its_citation(seed, test, alternative):
    res = random_result(seed, test, alternative)
    md = export.sentence_markdown(res)
    cite = citations.cite_text(citations.method_keys(res))
    assert md.replace(f" {cite}", "") == verdict(res)
    assert cite in md


def test_captions_name_the_metric_items_and_test():
    refs = ["a b c d e", "f g h i j"] * 20
    res = sigcore.compare(refs, ["a b c d e", "f g h i x"] * 20, ["a b c x e", "f g x i j"] * 20, metric="bleu",
                          n_resamples=10_000, test="bootstrap", alternative="greater")
    caption = export.caption(res, a="uedin", b="LIUM")
    assert caption.startswith("BLEU (Papineni et al., 2002; Post, 2018) of uedin and LIUM on 40 items, "
                              "and δ = uedin − LIUM")
    assert caption.endswith("paired bootstrap, b = 10,000, seed 0, one-sided.") and "bleu" not in caption
    latex = export.caption_latex(res, a="uedin_1", b="LIUM")
    assert r"$b = 10{,}000$" in latex and r"\citep{papineni-etal-2002-bleu,post-2018-call}" in latex
    assert "uedin\\_1" in latex and "bleu" not in latex.split("\\citep")[0]
    table = export.verdict_latex(res, a="uedin", b="LIUM")
    assert f"\\caption{{{export.caption_latex(res, a='uedin', b='LIUM')}}}" in table
    acc = sigcore.compare([1, 0] * 20, [1, 1] * 20, [0, 0] * 20, test="t", alternative="greater")
    assert export.caption(acc).startswith("Accuracy of A and B on 40 items, "
                                          "and δ = A − B with its one-sided 95% bound (t)")


def test_every_citation_has_its_bibtex():
    for test in TESTS:
        res = random_result(1, test, "two-sided")
        keys = citations.keys_of(res)
        bib = citations.bibtex(keys)
        assert [m for m in re.findall(r"^@\w+\{([^,]+),", bib, re.M)] == keys + ["sigcore"]  # and the tool's own
        assert bib.count("{") == bib.count("}")
        assert "dror-etal-2018-hitchhikers" in keys
    bleu = sigcore.compare(["a b c"] * 9, ["a b c"] * 9, ["a b d"] * 9, metric="bleu", n_resamples=50,
                           test="bootstrap", alternative="greater")
    assert {"papineni-etal-2002-bleu", "post-2018-call", "koehn-2004-statistical"} <= set(citations.keys_of(bleu))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=30),
       st.lists(st.integers(-2**63, 2**63 - 1), max_size=30), st.lists(st.booleans(), max_size=30))
def test_a_numpy_column_hashes_as_its_values_text(floats, ints, bools):
    """The hash of a numpy column (made from its Python values, for speed) is that of its scalars' own text."""
    def by_scalars(*columns):
        import hashlib
        digest = hashlib.sha256()
        for column in columns:
            digest.update("\x1f".join(map(str, column)).encode() + b"\x1e")
        return digest.hexdigest()[:12]
    columns = np.array(floats, dtype=np.float64), np.array(ints, dtype=np.int64), np.array(bools, dtype=bool)
    assert data_hash(*columns) == by_scalars(*columns) == data_hash(floats, ints, bools)
    small = [v % 256 - 128 for v in ints]
    assert data_hash(np.array(small, dtype=np.int8)) == data_hash(small)
    lowest = [v + 128 - 2**31 for v in small]  # at int32's bottom: shifted without wrapping
    assert data_hash(np.array(lowest, dtype=np.int32)) == data_hash(lowest)
    assert data_hash(np.array([v % 256 for v in ints], dtype=np.uint8)) == data_hash([v % 256 for v in ints])


def test_the_data_hash_is_of_the_items_not_their_container():
    gold, a, b = [1, 0, 1, 2], [1, 0, 0, 2], [0, 0, 1, 2]
    assert data_hash(gold, a, b, None) == data_hash(np.array(gold), tuple(a), np.array(b), None)
    assert data_hash(gold, a, b, None) != data_hash(gold, b, a, None) != data_hash(gold, a, [0, 0, 1, 1], None)
    res = sigcore.compare(gold * 10, a * 10, b * 10, n_resamples=10, test="bootstrap", alternative="greater")
    assert f"|items:40|data:sha256:{data_hash(gold * 10, a * 10, b * 10, None)}|" in res.signature
    refs = sigcore.compare(["a b c"] * 9, ["a b c"] * 9, ["a b d"] * 9, metric="bleu", n_resamples=10,
                           test="bootstrap", alternative="greater")
    assert "|refs:1|items:9|" in refs.signature and "tokenize=13a" in refs.signature
    two = sigcore.compare([["a b c"] * 9, ["a b e"] * 9], ["a b c"] * 9, ["a b d"] * 9, metric="bleu", n_resamples=10,
                          test="bootstrap", alternative="greater")
    assert "|refs:2|" in two.signature


@pytest.fixture
def table(tmp_path):
    gen = np.random.default_rng(5)
    gold = gen.integers(0, 3, 150)
    rows = [(i, g, g if gen.random() < 0.8 else (g + 1) % 3, g if gen.random() < 0.7 else (g + 2) % 3)
            for i, g in enumerate(gold)]
    path = tmp_path / "my results.csv"
    path.write_text("item,truth,ours,theirs\n" + "".join(f"{i},{g},{x},{y}\n" for i, g, x, y in rows))
    return path


@pytest.mark.parametrize("extra", [[], ["--test", "permutation", "--ci-method", "percentile", "--alternative",
                                        "two-sided", "--seed", "7"],
                                   ["--test", "mcnemar", "--chi-square", "--alpha", "0.01", "--confidence", "0.9"],
                                   ["--metric", "macro_f1", "--resamples", "700", "--b", "ours", "--a", "theirs"],
                                   ["--ci-method", "none"], ["--ci-method", "bca", "--test", "bootstrap"]])
def test_the_reproduce_line_recreates_the_result(table, capsys, extra):
    assert main(["compare", str(table), "--resamples", "500", *extra]) == 0
    lines = capsys.readouterr().out.splitlines()
    line = next(x for x in lines if x.startswith("reproduce: "))
    argv = shlex.split(line[len("reproduce: "):])
    assert argv[:4] == ["python", "-m", "sigcore", "compare"] and argv[4] == str(table)
    assert main([*argv[3:], "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert lines[-1] == f"signature: {again['signature']}"  # the same data hash, settings and versions
    assert reproduce.command(sigcore.Result.from_dict(again), [str(table)],
                             columns=again["columns"]) == line[len("reproduce: "):]


def test_cli_latex_and_bibtex(table, capsys):
    assert main(["compare", str(table), "--resamples", "500", "--latex", "--test", "bootstrap"]) == 0
    out = capsys.readouterr().out
    sentence, tabular = out.split("\n\n", 1)
    assert sentence.startswith("No significant evidence") or "beats" in sentence
    assert "\\citep{berg-kirkpatrick-etal-2012-empirical,efron1993introduction}" in sentence
    assert tabular.startswith("% needs \\usepackage{booktabs}") and "\\caption{Accuracy of ours and theirs" in tabular
    assert main(["compare", str(table), "--resamples", "500", "--bibtex", "--test", "bootstrap"]) == 0
    bib = capsys.readouterr().out
    assert bib.startswith("@inproceedings{berg-kirkpatrick-etal-2012-empirical,")
    assert "@book{efron1993introduction," in bib


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["bootstrap", "permutation"]),
       st.sampled_from(["histogram", "null", "convergence"]))
def test_figure_captions_say_what_is_drawn(seed, test, kind):
    res = random_result(seed, test, "two-sided")
    if kind == "convergence" and res.exact:
        return
    text, latex = export.figure_caption(res, kind), export.figure_caption(res, kind, latex=True)
    assert res.p_text in text and f"{res.n_items:,} items" in text and f"seed {res.seed}" in text
    assert ("all" if res.exact else f"b = {res.n_resamples:,}") in text
    assert latex.isascii() and latex.count("$") % 2 == 0
    back = plain(latex).replace("x^{(i)}", "x⁽ⁱ⁾")
    assert re.sub(r"p [<=] [^(;)]+", "p", back) == re.sub(r"p [<=] [^(;)]+", "p", text.replace("\u2212", "-"))


@pytest.mark.parametrize("argv, keys", [
    (["many", "x.txt", "--metric", "bleu", "chrf", "--correction", "by", "--test", "bootstrap", "--bibtex"],
     ["berg-kirkpatrick-etal-2012-empirical", "efron1993introduction", "koehn-2004-statistical",
      "papineni-etal-2002-bleu", "post-2018-call", "popovic-2015-chrf", "benjamini2001control",
      "dror-etal-2018-hitchhikers"]),
    (["seeds", "--bibtex"], ["dror-etal-2019-deep", "delbarrio2018optimal", "ulmer2022deep"]),
    (["datasets", "p.csv", "--test", "permutation", "--bibtex"], ["dror-etal-2017-replicability",
                                                                 "noreen1989computer", "efron1993introduction"]),
])
def test_every_command_cites_its_methods(argv, keys, capsys):
    assert main(argv) == 0
    assert re.findall(r"^@\w+\{([^,]+),", capsys.readouterr().out, re.M) == keys + ["sigcore"]


def test_every_correction_has_its_citation():
    from sigcore.statistics.multiple import CORRECTIONS

    for correction in CORRECTIONS:
        assert set(citations.family_keys("t", ["accuracy"], correction)) - {"student1908probable",
                                                                            "dror-etal-2018-hitchhikers"}
