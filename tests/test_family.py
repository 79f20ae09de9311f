"""A family's reports: the terminal table agrees with the decisions, and the LaTeX table compiles with pdflatex
in a two-column 11 pt paper at \\columnwidth with no overfull box, marks where the decisions are."""

import gzip
import subprocess
from pathlib import Path

import numpy as np
import pytest

from sigcore import compare_many
from sigcore.report import family

from helpers.latex import PAPER, PDFLATEX, compile_paper

WMT = Path(__file__).resolve().parents[1] / "sample_data" / "wmt17_en_de"


def _read(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.fixture(scope="module")
def wmt():
    systems = {p.name.split(".")[0]: _read(p) for p in sorted(WMT.glob("*.de.gz")) if not p.name.startswith("new")}
    return _read(WMT / "newstest2017.ref.de.gz"), systems


@pytest.mark.slow
def test_sixteen_wmt_systems_against_a_baseline_fit_a_column(wmt, tmp_path):
    refs, systems = wmt
    families = [compare_many(refs, systems, metric=m, baseline="LIUM-NMT", n_resamples=300, test="bootstrap")
                for m in ("bleu", "chrf")]
    table = family.latex(families, columns=["score"])  # sixteen rows of δ and intervals for two metrics: table*
    compile_paper(tmp_path, table)
    assert "System & BLEU & chrF" in table and table.count(r"\caption") == 1
    for f, column in zip(families, (1, 2)):  # a dagger exactly where the decision says better, a double where worse
        for line in table.splitlines():
            cells = line.strip().rstrip("\\").split(" & ")
            if len(cells) != 3 or cells[0] in ("System", "LIUM-NMT"):
                continue
            res = f.results[(cells[0], "LIUM-NMT")]
            mark = r"$^\dagger$" if f.significant(cells[0], "LIUM-NMT") and res.side > 0 else \
                r"$^\ddagger$" if f.significant(cells[0], "LIUM-NMT") else r"\phantom"
            assert mark in cells[column], (cells, mark)


@pytest.mark.slow
def test_a_ranking_table_draws_a_rule_between_clusters(wmt, tmp_path):
    refs, systems = wmt
    some = {name: systems[name] for name in ("uedin-nmt", "LIUM-NMT", "KIT", "online-F", "C-3MA")}
    many = compare_many(refs, some, metric="bleu", all_pairs=True, n_resamples=300, test="bootstrap")
    table = family.latex([many])
    compile_paper(tmp_path, table)
    body = table.split(r"\midrule", 1)[1].split(r"\bottomrule")[0]
    rules = body.count(r"\midrule")
    assert rules == max(many.ranking()["cluster"]) - 1
    assert [line.split(" & ")[0].strip() for line in body.splitlines() if " & " in line] == \
        list(many.ranking()["system"])


def test_names_are_escaped_and_the_caption_says_how():
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 200)
    systems = {"ours_v2 & co": gold, "base%1": np.where(rng.uniform(size=200) < 0.7, gold, 1 - gold)}
    many = compare_many(gold, systems, baseline="base%1", n_resamples=500, test="bootstrap")
    table = family.latex([many])
    assert r"ours\_v2 \& co" in table and r"base\%1" in table
    assert "Holm-corrected over 1 comparison," in table and "$b = 500$" in table and r"$\alpha = 0.05$" in table
    text = family.text(many)
    assert "Holm over 1 comparison," in text and ("*" in text.splitlines()[3]) == many.significant("ours_v2 & co",
                                                                                                  "base%1")


@pytest.mark.slow  # pdflatex
def test_the_forest_and_heatmap_captions_compile_in_latex_with_any_name(tmp_path):
    """Pasted into \\caption{}, the plain caption's "95% interval" commented out the closing brace and δ, − and α
    stopped pdflatex: each figure has a LaTeX caption, names escaped, that compiles in a column."""
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 2, 150)
    systems = {name: np.where(rng.uniform(size=150) < p, gold, 1 - gold)
               for name, p in (("base_1 & 50%", 0.7), ("ours$#{}", 0.85), ("模型", 0.75))}
    against = compare_many(gold, systems, baseline="base_1 & 50%", n_resamples=300, test="bootstrap")
    every = compare_many(gold, systems, all_pairs=True, n_resamples=300, test="bootstrap")
    captions = [family.forest_caption(against, latex=True), family.heatmap_caption(every, latex=True),
                family.heatmap_caption(against, latex=True)]
    for latex, plain in zip(captions, [family.forest_caption(against), family.heatmap_caption(every)]):
        assert "95\\%" in latex or "*:" in latex
        assert "%" not in latex.replace("\\%", "") and "δ" not in latex and "−" not in latex and "α" not in latex
        assert plain.count("δ") == latex.count("$\\delta$")
    body = "\n".join(f"\\begin{{figure}}[h]\\rule{{\\columnwidth}}{{1cm}}\\caption{{{c}}}\\end{{figure}}"
                     for c in captions)
    (tmp_path / "c.tex").write_text(PAPER.split("%s")[0].replace("%%", "%") + body + "\n\\end{document}\n",
                                    encoding="utf-8")
    run = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "c.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
    assert "Overfull" not in (tmp_path / "c.log").read_text(encoding="latin-1")


def test_a_sacrebleu_compatible_family_says_so_everywhere(wmt):
    """`many --compat sacrebleu` said "paired bootstrap ... Holm-corrected" where `compare --compat` says
    "(sacrebleu-compatible)": the two definitions' p differ 2-3x on the same resamples."""
    refs, systems = wmt
    some = {name: systems[name][:500] for name in ("uedin-nmt", "LIUM-NMT", "KIT")}
    many = compare_many(refs[:500], some, metric="bleu", baseline="LIUM-NMT", n_resamples=100, compat="sacrebleu")
    for text in (family.heading(many), family.forest_caption(many), family.forest_caption(many, latex=True),
                 family.latex([many]), family.text(many)):
        assert "(sacrebleu-compatible)" in text, text
    plain = compare_many(refs[:500], some, metric="bleu", baseline="LIUM-NMT", n_resamples=100, test="bootstrap")
    assert "compatible" not in family.heading(plain) + family.latex([plain])


def test_the_family_sentence_names_exactly_the_systems_the_decisions_do():
    """"only uedin-nmt is significantly better than LIUM-NMT ... after Holm's correction over 15 comparisons": every
    system named better (worse) is significantly better (worse) after the correction, and no other is, over random
    families; its LaTeX compiles-ready form escapes names and sets δ and α in math mode."""
    for seed in range(30):
        rng = np.random.default_rng(seed)
        k, n = int(rng.integers(2, 6)), int(rng.choice([40, 300]))
        gold = rng.integers(0, 2, n)
        names = [f"sys_{i}" for i in range(k)]
        systems = {name: np.where(rng.uniform(size=n) < rng.uniform(0.55, 0.95), gold, 1 - gold) for name in names}
        many = compare_many(gold, systems, baseline=names[0], n_resamples=200, test="bootstrap",
                            correction=str(rng.choice(["holm", "bonferroni"])))
        text = family.sentence(many)
        better_part = text.split(" significantly better")[0] if " significantly better" in text else ""
        worse_part = text.split(" significantly worse")[0].split(" better than ")[-1] if "worse" in text else ""
        for name in names[1:]:
            res, sig = many.results[(name, names[0])], many.significant(name, names[0])
            assert (name in better_part) == (sig and res.side > 0), (seed, text)
            assert (name in worse_part) == (sig and res.side < 0), (seed, text)
        assert f"over {len(names) - 1} comparison" in text and family.CORRECTION_NAMES[many.correction] in text
        latex = family.sentence(many, latex=True)
        assert "sys\\_0" in latex and "$\\alpha = 0.05$" in latex and "α" not in latex
        if seed < 5:  # all pairs: how many differ, and who tops the ranking
            pairs = compare_many(gold, systems, all_pairs=True, n_resamples=200, test="bootstrap")
            differ = sum(pairs.significant(a, b) for (a, b) in pairs.results)
            assert family.sentence(pairs).startswith(f"On accuracy, {differ} of the {len(pairs.results)} pairs")


@pytest.mark.parametrize("differing, said", [
    ({"near": 40, "far": 60}, None),  # every comparison exact
    ({"near": 350, "far": 400}, "Wilcoxon signed-rank test (normal approximation)"),
    ({"near": 40, "far": 400}, "Wilcoxon signed-rank test (normal approximation for 1 of the 2 comparisons, those "
                               "with more than 300 non-zero differences; exact for the others)")])
def test_a_wilcoxon_family_says_where_it_used_the_normal_approximation(differing, said):
    """As each comparison's own sentence says "(normal approximation)" above 300 non-zero differences, the family's
    heading, sentence, captions and LaTeX table say which comparisons used it."""
    from sigcore import compare
    from sigcore.report import sentence

    rng = np.random.default_rng(1)
    n = 450
    base = rng.uniform(0, 1, n)
    systems = {"base": base}
    for name, k in differing.items():
        scores = base.copy()
        scores[:k] = np.clip(base[:k] + rng.normal(0.02, 0.1, k), 0, 1)
        systems[name] = scores
    many = compare_many(None, systems, baseline="base", metric="mean", test="wilcoxon")
    for name, k in differing.items():  # each pair's own sentence, as compare says it
        own = compare(None, systems[name], base, metric="mean", test="wilcoxon", alternative="two-sided")
        assert (sentence.test_name(own) == "Wilcoxon signed-rank test (normal approximation)") == (k > 300)
        assert many.results[(name, "base")].exact == (k <= 300)
    texts = [family.heading(many), family.sentence(many), family.forest_caption(many), family.text(many),
             family.sentence(many, latex=True), family.latex([many])]
    for text in texts:
        if said is None:
            assert "normal approximation" not in text, text
        else:
            assert said in text, text
