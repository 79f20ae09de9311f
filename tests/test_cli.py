"""The command line: python -m sigcore compare | metrics | tests."""

import csv
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu

import sigcore
from sigcore.__main__ import main
from sigcore.cli.options import FLAGS
from sigcore.cli.parser import build
from sigcore.many import Many
from sigcore.report import family
from sigcore.report import seeds as seeds_words

ROOT = Path(__file__).resolve().parents[1]
SLP3 = ROOT / "sample_data" / "slp3_fig4_11.csv"
TABLE_ARGS = [str(SLP3), "--gold", "gold", "--a", "A", "--b", "B"]

REFS = ["the cat sat on the mat today", "a quick brown fox jumps over the lazy dog",
        "we went to the market to buy some fresh bread", "it is raining in the north this morning",
        "she reads a book every single night"]
HYP_A = ["the cat sat on the mat", "a quick brown fox jumps over a lazy dog",
         "we went to the market to buy fresh bread", "it is raining in the north this morning",
         "she reads one book every night"]
HYP_B = ["a cat is on the mat", "the brown fox jumped over the dog",
         "we go to market for bread", "raining in north this morning",
         "she is reading books at night"]


def slp3_columns():
    with open(SLP3, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [r["gold"] for r in rows], [r["A"] for r in rows], [r["B"] for r in rows]


def run_json(capsys, argv):
    assert main(["compare", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def run_error(capsys, argv):
    """Run main, expect exit 2 and exactly one 'error:' line on stderr; return that line."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


def write_lines(path, lines, newline="\n", bom=False, final=True):
    text = newline.join(lines) + (newline if final else "")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return str(path)


# --- the table form on SLP3 Figure 4.11 -------------------------------------------------------------------

def test_human_report_on_slp3_table(capsys):
    assert main(["compare", *TABLE_ARGS, "--resamples", "2000", "--test", "bootstrap", "--alternative", "greater"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    *roles, metric, test = out.splitlines()[:7]
    lines = out.splitlines()[7:]
    assert roles == [f"roles: table = {SLP3}", "roles: gold = column 'gold' (given)", "roles: A = column 'A' (given)",
                     "roles: B = column 'B' (given)", "roles: id = column 'doc' (named like an id)"]
    assert metric == "metric: accuracy, the first that fits these data (as the app suggests); choose another with " \
                     "--metric"
    assert test == "test: paired bootstrap, given with --test"
    assert len(lines) == 9
    assert lines[0].startswith("accuracy: A = 0.7000 [") and ", B = 0.5000 [" in lines[0]
    assert "(10 items, 6 discordant; 95% intervals)" in lines[0]
    res = sigcore.compare(*slp3_columns(), n_resamples=2000, test="bootstrap", alternative="greater")
    assert lines[1] == (f"delta = A - B = 0.2000; one-sided 95% bound: δ ≥ {res.ci_low:.4f} "
                        "(basic bootstrap, the test's dual)")
    assert f"H1: A is better than B (one-sided): {res.p_text} ({res.n_extreme} of 2,000 resamples" in lines[2]
    assert "paired bootstrap, b = 2,000, seed 0" in lines[2]
    assert lines[3] == sigcore.report.verdict(res)
    assert lines[3].startswith("No significant evidence that A is better than B: δ = 0.2000 accuracy")
    assert "not significant at α = 0.05." in lines[3]
    assert lines[4:7] == ["effect sizes (A − B):",  # SLP3's x: only A right on 4 documents, only B on 2
                          "  A right / B wrong on 4 items, B right / A wrong on 2 (paired odds ratio 2.00, one-sided "
                          "95% bound: at least 0.37)", lines[6]]  # Clopper-Pearson's bound of 4/6, as odds
    assert lines[6].startswith("  d_z = 0.25 (one-sided 95% bound: at least ")  # 0.2 / sd of (0, 1, 0, -1, ...)
    assert lines[7].startswith("reproduce: python -m sigcore compare ")
    assert lines[7].endswith(" --seed 0 --ci-method basic")
    assert lines[8] == f"signature: {res.signature}"
    assert lines[8].startswith("signature: test:bootstrap|alternative:greater|alpha:0.05|resamples:2000|seed:0|")


def test_alpha_sets_the_decision_and_the_interval_level(capsys):
    assert main(["compare", *TABLE_ARGS, "--resamples", "2000", "--alpha", "0.3", "--test", "bootstrap",
                 "--alternative", "greater"]) == 0
    out = capsys.readouterr().out
    assert "A beats B by 0.2000 accuracy (one-sided 70% bound: at least " in out
    assert "significant at α = 0.3." in out and "No significant evidence" not in out
    res = sigcore.compare(*slp3_columns(), n_resamples=2000, alpha=0.3, test="bootstrap", alternative="greater")
    assert res.significant and res.confidence_level == pytest.approx(0.7) and res.ci_low > 0


@pytest.mark.parametrize("value", ["1.5", "0", "-1", "nan", "1", "x"])
def test_alpha_outside_zero_one_is_refused_by_the_parser(capsys, value):
    with pytest.raises(SystemExit) as stop:
        main(["compare", *TABLE_ARGS, "--alpha", value])
    assert stop.value.code == 2
    err = capsys.readouterr().err  # the contract's one message for α, under the flag's name
    assert "--alpha must be a number strictly between 0 and 1, not " in err and "The usual levels are 0.05" in err


def test_group_column_resamples_whole_documents(tmp_path, capsys):
    rng = np.random.default_rng(0)
    docs = np.repeat(np.arange(30), 4)
    rows = ["id,chapter,gold,A,B"] + [f"{i},d{d},1,{int(rng.random() < 0.8)},{int(rng.random() < 0.7)}"
                                     for i, d in enumerate(docs)]
    table = write_lines(tmp_path / "docs.csv", rows)
    grouped = run_json(capsys, [table, "--group", "chapter", "--a", "A", "--b", "B"])
    plain = run_json(capsys, [table, "--a", "A", "--b", "B"])
    assert grouped["n_groups"] == 30 and plain["n_groups"] is None and "groups:30" in grouped["signature"]
    assert grouped["columns"]["group"] == "chapter" and grouped["p_value"] != plain["p_value"]
    cells = [line.split(",") for line in rows[1:]]
    res = sigcore.compare(["1"] * 120, [c[3] for c in cells], [c[4] for c in cells], groups=[c[1] for c in cells])
    assert grouped["p_value"] == res.p_value and grouped["ci_low"] == res.ci_low


def test_column_names_are_shown_as_written(tmp_path, capsys):
    table = write_lines(tmp_path / "cols.csv", ["gold,run1/model,<script>x", "x,x,y", "y,y,y", "x,x,x"])
    assert main(["compare", table, "--test", "mcnemar"]) == 0
    out = capsys.readouterr().out
    assert "A (run1/model) = 1.000" in out and "B (<script>x) = 0.667" in out


def test_files_sharing_ids_pair_by_them_unless_by_row(tmp_path, capsys):
    gold = write_lines(tmp_path / "gold.csv", ["id,gold"] + [f"{i},{'xy'[i % 2]}" for i in range(40)])
    a = write_lines(tmp_path / "a.csv", ["id,pred"] + [f"{i},{'xy'[i % 2]}" for i in reversed(range(40))])
    b = write_lines(tmp_path / "b.csv", ["id,pred"] + [f"{i},x" for i in range(40)])
    by_id = run_json(capsys, [gold, a, b])
    assert by_id["score_a"] == 1.0 and "pairing = by the id column 'id' (every file has it)" in by_id["roles"]
    assert run_json(capsys, [gold, a, b, "--by-row"])["score_a"] == 0.0  # reversed rows: every item wrong


def test_without_metric_translations_are_scored_by_bleu_as_the_app_suggests(capsys):
    """Exact match on sentences said "no evidence that uedin-nmt is better" where BLEU finds it better by 1.22."""
    mt = [str(ROOT / "sample_data" / "mt" / f) for f in ("newstest2017.ref.de", "uedin-nmt.de", "LIUM-NMT.de")]
    guessed = run_json(capsys, [*mt, "--resamples", "1000"])
    assert guessed["metric"] == "bleu" and guessed["test"] == "bootstrap" and guessed["auto"]
    assert guessed["signature"] == run_json(capsys, [*mt, "--resamples", "1000", "--metric", "bleu"])["signature"]
    assert run_json(capsys, [*mt, "--resamples", "1000", "--metric", "accuracy"])["metric"] == "accuracy"


def test_many_without_metric_scores_translations_by_bleu_too(capsys):
    mt = [str(ROOT / "sample_data" / "mt" / f) for f in ("newstest2017.ref.de", "uedin-nmt.de", "LIUM-NMT.de")]
    assert main(["many", *mt, "--resamples", "200", "--json"]) == 0
    assert [f["metric"] for f in json.loads(capsys.readouterr().out)["families"]] == ["bleu"]
    assert main(["many", *mt, "--resamples", "200"]) == 0
    assert "metric: bleu, the first that fits these data" in capsys.readouterr().out


def test_mcnemar_chi_square_and_the_level_that_follows_alpha(capsys):
    chi = run_json(capsys, [*TABLE_ARGS, "--test", "mcnemar", "--chi-square"])
    assert "test:mcnemar-chi2" in chi["signature"] and chi["exact"] is False
    assert run_json(capsys, [*TABLE_ARGS, "--alpha", "0.01"])["confidence_level"] == pytest.approx(0.99)
    assert run_json(capsys, [*TABLE_ARGS, "--alpha", "0.01", "--confidence", "0.9"])["confidence_level"] == 0.9
    line = run_error(capsys, ["compare", *TABLE_ARGS, "--chi-square", "--test", "bootstrap"])
    assert "`exact=False` (the chi-square approximation) applies to McNemar's test only" in line


@pytest.mark.parametrize("test", ["bootstrap", "permutation", "mcnemar"])
def test_json_p_value_equals_the_api(capsys, test):
    got = run_json(capsys, [*TABLE_ARGS, "--test", test, "--resamples", "3000"])
    res = sigcore.compare(*slp3_columns(), test=test, n_resamples=3000)
    assert got["test"] == test
    assert got["p_value"] == res.p_value
    assert (got["score_a"], got["score_b"]) == (0.7, 0.5)
    assert got["delta"] == res.delta
    assert got["signature"] == res.signature
    assert got["n_items"] == 10


def test_json_mcnemar_is_the_exact_binomial(capsys):
    # 4 documents only A gets right, 2 only B: P(X >= 4 | n = 6, 1/2) = 22/64, twice that two-sided
    assert run_json(capsys, [*TABLE_ARGS, "--test", "mcnemar", "--alternative", "greater"])["p_value"] == 22 / 64
    assert run_json(capsys, [*TABLE_ARGS, "--test", "mcnemar"])["p_value"] == 44 / 64


def test_json_options_reach_the_result(capsys):
    argv = [*TABLE_ARGS, "--resamples", "1234", "--alternative", "two-sided", "--seed", "7",
            "--confidence", "0.9", "--ci-method", "bca", "--test", "bootstrap"]
    got = run_json(capsys, argv)
    assert got["n_resamples"] == 1234
    assert got["alternative"] == "two-sided"
    assert got["seed"] == 7
    assert got["confidence_level"] == 0.9
    assert got["ci_method"] == "bootstrap-bca"
    assert got["test"] == "bootstrap"
    res = sigcore.compare(*slp3_columns(), n_resamples=1234, alternative="two-sided", seed=7,
                          confidence_level=0.9, ci_method="bca", test="bootstrap")
    assert (got["p_value"], got["ci_low"], got["ci_high"]) == (res.p_value, res.ci_low, res.ci_high)
    assert "resamples:1234|seed:7" in got["signature"] and "ci:bootstrap-bca@0.9" in got["signature"]


def test_seed_changes_the_resamples(capsys):
    p0 = run_json(capsys, [*TABLE_ARGS, "--resamples", "500", "--seed", "0", "--test", "bootstrap"])["p_value"]
    p1 = run_json(capsys, [*TABLE_ARGS, "--resamples", "500", "--seed", "1", "--test", "bootstrap"])["p_value"]
    assert p0 == sigcore.compare(*slp3_columns(), n_resamples=500, seed=0, test="bootstrap").p_value
    assert p1 == sigcore.compare(*slp3_columns(), n_resamples=500, seed=1, test="bootstrap").p_value
    assert p0 != p1


def test_default_alternative_is_two_sided_and_less_flips_it(capsys):
    assert run_json(capsys, [*TABLE_ARGS, "--test", "mcnemar"])["alternative"] == "two-sided"
    less = run_json(capsys, [*TABLE_ARGS, "--test", "mcnemar", "--alternative", "less"])
    assert less["alternative"] == "less"
    assert less["p_value"] == 57 / 64  # P(X <= 4 | n = 6, 1/2)


# --- three plain-text files ------------------------------------------------------------------------------

def test_bleu_from_text_files_equals_sacrebleu(tmp_path, capsys):
    gold = write_lines(tmp_path / "ref.txt", REFS)
    a = write_lines(tmp_path / "a.txt", HYP_A)
    b = write_lines(tmp_path / "b.txt", HYP_B)
    got = run_json(capsys, [gold, a, b, "--metric", "bleu", "--tokenize", "none", "--resamples", "500"])
    assert got["score_a"] == pytest.approx(sacrebleu.corpus_bleu(HYP_A, [REFS], tokenize="none").score,
                                           rel=1e-12)
    assert got["score_b"] == pytest.approx(sacrebleu.corpus_bleu(HYP_B, [REFS], tokenize="none").score,
                                           rel=1e-12)
    assert got["score_a"] > got["score_b"] > 0
    assert got["options"]["tokenize"] == "none"
    assert "tokenize=none" in got["signature"]
    assert got["alternative"] == "two-sided"


def test_crlf_and_bom_files_read_like_lf_files(tmp_path, capsys):
    args = ["--metric", "bleu", "--tokenize", "none", "--resamples", "300", "--seed", "3"]
    plain = [write_lines(tmp_path / f"{n}.txt", lines) for n, lines in (("ref", REFS), ("a", HYP_A), ("b", HYP_B))]
    odd = [write_lines(tmp_path / "ref_crlf.txt", REFS, newline="\r\n"),
           write_lines(tmp_path / "a_bom.txt", HYP_A, bom=True),
           write_lines(tmp_path / "b_both.txt", HYP_B, newline="\r\n", bom=True, final=False)]
    want = run_json(capsys, [*plain, *args])
    got = run_json(capsys, [*odd, *args])
    for key in ("score_a", "score_b", "delta", "p_value", "ci_low", "ci_high", "n_items", "signature"):
        assert got[key] == want[key], key


def test_compat_sacrebleu_defaults_to_two_sided(tmp_path, capsys):
    files = [write_lines(tmp_path / f"{n}.txt", lines) for n, lines in (("ref", REFS), ("a", HYP_A), ("b", HYP_B))]
    got = run_json(capsys, [*files, "--metric", "bleu", "--compat", "sacrebleu", "--resamples", "300"])
    assert got["alternative"] == "two-sided"
    assert got["compat"] == "sacrebleu"
    assert "compat:sacrebleu" in got["signature"]
    res = sigcore.compare(REFS, HYP_A, HYP_B, metric="bleu", compat="sacrebleu", alternative="two-sided",
                          n_resamples=300)
    assert got["p_value"] == res.p_value


def test_text_files_human_report_names_the_files(tmp_path, capsys):
    gold = write_lines(tmp_path / "gold.txt", ["x", "y", "x", "y"])
    a = write_lines(tmp_path / "a.txt", ["x", "y", "x", "x"])
    b = write_lines(tmp_path / "b.txt", ["x", "x", "y", "y"])
    assert main(["compare", gold, a, b, "--resamples", "200"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [f"roles: gold = {gold} (named like a gold file)", f"roles: A = {a}",
                         f"roles: B = {b} (the second system file; --baseline to choose)",
                         "roles: pairing = by row (the files have no id column in common)"]
    assert lines[4].startswith("metric: accuracy, the first that fits these data")  # labels: accuracy
    first = lines[6]
    assert first.startswith("accuracy: A (a) = 0.7500 [")  # as `many` names systems; errors give the whole path
    assert "B (b) = 0.5000 [" in first
    assert main(["compare", gold, a, b, "--resamples", "200", "--latex"]) == 0
    latex = capsys.readouterr().out  # absolute paths would overflow a paper's column
    assert str(tmp_path) not in latex and "Accuracy of a and b" in latex


# --- two files of per-item numbers ---------------------------------------------------------------------------

def test_mean_metric_from_two_files(tmp_path, capsys):
    a_scores, b_scores = ["0.5", "1", "0.25", "0.75"], ["0.25", "0.5", "0", "0.25"]
    a = write_lines(tmp_path / "a.txt", a_scores)
    b = write_lines(tmp_path / "b.txt", b_scores, newline="\r\n")
    got = run_json(capsys, [a, b, "--metric", "mean", "--test", "t"])
    assert (got["score_a"], got["score_b"]) == (0.625, 0.25)
    assert got["test"] == "t" and got["n_items"] == 4
    res = sigcore.compare(None, [float(x) for x in a_scores], [float(x) for x in b_scores],
                          metric="mean", test="t")
    assert got["p_value"] == pytest.approx(res.p_value, rel=1e-12)
    assert 0 < got["p_value"] < 0.05


# --- metrics and tests ----------------------------------------------------------------------------------

@pytest.mark.parametrize("command, table", [("metrics", sigcore.METRICS), ("tests", sigcore.TESTS)])
def test_listing_names_everything(capsys, command, table):
    assert main([command]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines()]
    assert names == list(table)
    for line, entry in zip(out.splitlines(), table.values()):
        assert line.endswith(entry.description)


# --- errors: exit 2, one line, the file and place, no traceback ------------------------------------------

def test_missing_file(tmp_path, capsys):
    missing = str(tmp_path / "nope.csv")
    line = run_error(capsys, ["compare", missing, "--gold", "g", "--a", "a", "--b", "b"])
    assert line.startswith(f"error: {missing}: file not found.")


def test_empty_file(tmp_path, capsys):
    (tmp_path / "empty.txt").write_bytes(b"")
    a = write_lines(tmp_path / "a.txt", ["x"])
    line = run_error(capsys, ["compare", str(tmp_path / "empty.txt"), a, a])
    assert line.startswith(f"error: {tmp_path / 'empty.txt'}: the file is empty.")


def test_binary_file(tmp_path, capsys):
    (tmp_path / "b.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    gold = write_lines(tmp_path / "gold.txt", ["x"])
    line = run_error(capsys, ["compare", gold, gold, str(tmp_path / "b.bin")])
    assert line.startswith(f"error: {tmp_path / 'b.bin'}: the file is binary, not text.")


def test_invalid_utf8_names_line_and_column(tmp_path, capsys):
    bad = tmp_path / "a.txt"
    bad.write_bytes(b"good line\nfin\xc3\xa9 \xff x\nlast\n")  # "finé " is 5 characters (6 bytes)
    gold = write_lines(tmp_path / "gold.txt", ["x", "y", "z"])
    line = run_error(capsys, ["compare", gold, str(bad), gold])
    assert line == f"error: {bad}, line 2, column 6: byte 0xff is not valid UTF-8. Save the file as UTF-8."


def test_unknown_column_lists_the_columns(capsys):
    line = run_error(capsys, ["compare", str(SLP3), "--gold", "gold", "--a", "A", "--b", "C"])
    assert line == (f"error: {SLP3}, line 1: no column 'C' for B. The columns are: doc, gold, A, B.")


@pytest.mark.parametrize("flags", [[], ["--a", "A", "--b", "B"], ["--gold", "gold", "--a", "A"]])
def test_table_roles_are_guessed_when_not_given(capsys, flags):
    assert main(["compare", str(SLP3), "--json", *flags]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["a_name"], out["b_name"], out["score_a"], out["score_b"]) == ("A", "B", 0.7, 0.5)


def test_header_only_table(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("gold,A,B\n")
    line = run_error(capsys, ["compare", str(path), "--gold", "gold", "--a", "A", "--b", "B"])
    assert line.startswith(f"error: {path}, line 2: the table has a header but no rows")


def test_row_with_too_many_fields(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("gold,A,B\npos,pos,neg\nneg,neg,neg\nneg,1,000,neg\n")
    line = run_error(capsys, ["compare", str(path), "--gold", "gold", "--a", "A", "--b", "B"])
    assert line.startswith(f"error: {path}, line 4: a row has more fields than the header (4).")


def test_unclosed_quote_in_table(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text('gold,A,B\npos,"pos,neg\nneg,neg,neg\n')
    line = run_error(capsys, ["compare", str(path), "--gold", "gold", "--a", "A", "--b", "B"])
    assert line.startswith(f"error: {path}, line 2: a quoted field is never closed.")


def test_lengths_differ_names_both_files(tmp_path, capsys):
    gold = write_lines(tmp_path / "gold.txt", ["x", "y", "z"])
    a = write_lines(tmp_path / "a.txt", ["x", "y", "z"])
    b = write_lines(tmp_path / "b.txt", ["x", "y"])
    line = run_error(capsys, ["compare", gold, a, b])
    assert line.startswith(f"error: {b}, line 2: has 2 items but {gold} has 3.")


def test_lengths_differ_with_mean(tmp_path, capsys):
    a = write_lines(tmp_path / "a.txt", ["1", "0", "1"])
    b = write_lines(tmp_path / "b.txt", ["1", "0", "1", "1"])
    line = run_error(capsys, ["compare", a, b, "--metric", "mean"])
    assert line.startswith(f"error: {a}, line 3: has 3 items but {b} has 4.")


@pytest.mark.parametrize("n, extra, message", [
    (2, [], "accuracy needs gold labels (references) and none were given"),
    (4, [], "got 4 files. Give one table; or a gold file and two system files"),
    (1, ["--metric", "mean"], "the table needs two system columns to compare"),
])
def test_wrong_number_of_files(tmp_path, capsys, n, extra, message):
    files = [write_lines(tmp_path / f"f{i}.txt", ["x", "y"] if n == 2 else ["1", "0"]) for i in range(n)]
    assert message in run_error(capsys, ["compare", *files, *extra])


def test_two_files_of_numbers_without_gold_are_per_item_scores(tmp_path, capsys):
    files = [write_lines(tmp_path / f"{name}.txt", values) for name, values in
             (("a", ["0.5", "0.7", "0.2", "0.9"]), ("b", ["0.4", "0.6", "0.3", "0.5"]))]
    got = run_json(capsys, [*files, "--resamples", "500"])
    assert got["metric"] == "mean" and got["test"] == "permutation" and got["auto"]  # 4 items: exact permutations
    assert got["score_a"] == pytest.approx(0.575)


def test_id_and_by_row_together_are_refused(tmp_path, capsys):
    files = [write_lines(tmp_path / f"{n}.csv", ["id,v", "1,x", "2,y"]) for n in ("gold", "a", "b")]
    line = run_error(capsys, ["compare", *files, "--id", "id", "--by-row"])
    assert "--id id and --by-row say two ways of pairing the files" in line and "not both" in line


def test_test_that_does_not_fit_the_metric(capsys):
    line = run_error(capsys, ["compare", *TABLE_ARGS, "--metric", "macro_f1", "--test", "t"])
    assert "the t test needs a metric that is a mean of per-item values, and macro_f1 is not one" in line
    assert line.endswith(f"Tests that fit macro_f1: {', '.join(sigcore.tests_for('macro_f1'))}.")
    assert sigcore.tests_for("macro_f1") == ["bootstrap", "permutation"]


def test_zero_resamples(capsys):
    line = run_error(capsys, ["compare", *TABLE_ARGS, "--resamples", "0"])
    assert line == "error: --resamples must be a positive integer, not 0."  # the flag, not the API's parameter


def test_negative_seed(capsys):
    line = run_error(capsys, ["compare", *TABLE_ARGS, "--seed", "-1"])
    assert line == "error: --seed must be a non-negative integer or None, not -1."


def test_compat_with_one_sided_alternative_is_refused(capsys):
    line = run_error(capsys, ["compare", *TABLE_ARGS, "--compat", "sacrebleu", "--alternative", "greater"])
    assert "compat='sacrebleu'" in line and "two-sided" in line


# --- the real entry point --------------------------------------------------------------------------------

def run_module(*args):
    return subprocess.run([sys.executable, "-m", "sigcore", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_module_entry_point_reports(tmp_path):
    proc = run_module("compare", *TABLE_ARGS, "--resamples", "1000")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "No significant evidence that A and B differ" in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("signature: test:mcnemar|alternative:two-sided|")


def test_module_entry_point_error_has_no_traceback(tmp_path):
    bad = tmp_path / "gold.txt"
    bad.write_bytes(b"ok\n\xfe\n")
    proc = run_module("compare", str(bad), str(bad), str(bad))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [f"error: {bad}, line 2, column 1: byte 0xfe is not valid UTF-8. "
                                        "Save the file as UTF-8."]


# --- every input format, as the sample data and its gzip-compressed copies ------------------------------------

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
FORMAT_CASES = [
    (["classification.csv", "--a", "svm_rbf", "--b", "naive_bayes"], "accuracy"),
    (["ner.conll", "--metric", "span_f1"], "span_f1"),
    (["mt/newstest2017.ref.de", "mt/uedin-nmt.de", "mt/LIUM-NMT.de", "--metric", "bleu"], "bleu"),
    (["lm_eval/samples_arc_easy_model-a.jsonl", "lm_eval/samples_arc_easy_model-b.jsonl", "--metric", "acc"],
     "accuracy"),
    (["per_item_scores.csv", "--metric", "mean", "--test", "t"], "mean"),
]


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("args, metric", FORMAT_CASES, ids=[c[0][0] for c in FORMAT_CASES])
def test_every_format_works_on_the_command_line(tmp_path, capsys, args, metric, gz):
    files = [a for a in args if not a.startswith("--") and "." in a and (SAMPLES / a).exists()]
    paths = {}
    for name in files:
        data = (SAMPLES / name).read_bytes()
        target = tmp_path / (name.replace("/", "_") + (".gz" if gz else ""))
        target.write_bytes(gzip.compress(data) if gz else data)
        paths[name] = str(target)
    argv = ["compare", *[paths.get(a, a) for a in args], "--resamples", "500", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metric"] == metric and out["n_items"] > 100 and 0 <= out["p_value"] <= 1



# ---------------------------------------------------------------------------------------------- many systems

def _many_files(tmp_path, k=4, n=300):
    rng = np.random.default_rng(11)
    gold = rng.integers(0, 3, n)
    write_lines(tmp_path / "gold.txt", [str(g) for g in gold])
    systems = {}
    for j in range(k):
        pred = np.where(rng.uniform(size=n) < 0.55 + 0.08 * j, gold, (gold + 1) % 3)
        write_lines(tmp_path / f"sys{j}.run.txt", [str(p) for p in pred])
        systems[f"sys{j}"] = pred
    return gold, systems


def test_many_files_against_a_baseline_as_csv_equal_the_api(tmp_path, capsys):
    gold, systems = _many_files(tmp_path)
    files = [str(tmp_path / "gold.txt")] + [str(tmp_path / f"{name}.run.txt") for name in systems]
    assert main(["many", *files, "--baseline", "sys1", "--resamples", "2000", "--csv"]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    expected = sigcore.compare_many(list(gold), {k: list(v) for k, v in systems.items()}, baseline="sys1",
                                    n_resamples=2000).table()
    assert [r["system"] for r in rows] == ["sys0", "sys2", "sys3"] and {r["against"] for r in rows} == {"sys1"}
    np.testing.assert_allclose([float(r["p_adjusted"]) for r in rows], expected["p_adjusted"])
    assert [r["significant"] == "True" for r in rows] == list(expected["significant"])


def test_many_wide_table_all_pairs_prints_marks_and_a_ranking(tmp_path, capsys):
    gold, systems = _many_files(tmp_path, k=3, n=400)
    table = tmp_path / "wide.csv"
    write_lines(table, ["id,gold," + ",".join(systems)]
                + [f"{i},{g}," + ",".join(str(v[i]) for v in systems.values()) for i, g in enumerate(gold)])
    assert main(["many", str(table), "--all-pairs", "--resamples", "1000"]) == 0
    out = capsys.readouterr().out
    many = sigcore.compare_many(list(gold), {k: list(v) for k, v in systems.items()}, all_pairs=True,
                                n_resamples=1000)
    marked = [line.split()[:2] for line in out.splitlines()
              if line.rstrip().endswith("*") and "significant" not in line]
    assert marked == [list(pair) for pair in many.results if many.significant(*pair)]
    assert "Holm over 3 comparisons" in out and "Ranking" in out


def test_many_warns_when_b_is_too_small_for_the_correction_to_reach_alpha(tmp_path, capsys):
    """Holm over 6 pairs at b = 100: the smallest corrected p is 6/100 > 0.05, whatever the data."""
    gold, systems = _many_files(tmp_path, k=4, n=300)
    files = [str(tmp_path / "gold.txt")] + [str(tmp_path / f"{name}.run.txt") for name in systems]
    assert main(["many", *files, "--all-pairs", "--resamples", "100", "--test", "bootstrap"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[9] == ("warning: No comparison can be significant at these settings: with b = 100, the smallest "
                        "corrected p Holm's correction can give over 6 comparisons is 0.06 > α = 0.05. Raise b to "
                        "at least 1,000.")  # after the note on the metric
    assert not any(line.rstrip().endswith("*") and "significant" not in line for line in lines)
    assert main(["many", *files, "--all-pairs", "--resamples", "1000", "--test", "bootstrap"]) == 0
    assert "warning" not in capsys.readouterr().out


def test_bleu_of_labels_is_zero_for_both_and_says_why(tmp_path, capsys):
    gold = write_lines(tmp_path / "gold.txt", ["pos", "neg", "pos", "neg"] * 10)
    a = write_lines(tmp_path / "a.txt", ["pos", "neg", "pos", "pos"] * 10)
    b = write_lines(tmp_path / "b.txt", ["pos", "pos", "neg", "neg"] * 10)
    assert main(["compare", gold, a, b, "--metric", "bleu", "--resamples", "200"]) == 0
    assert "Caution: BLEU is 0 for both systems: neither has a matching 4-gram" in capsys.readouterr().out


@pytest.mark.slow  # a PDF through kaleido's Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_figure_of_a_saved_family_asks_which_metric_and_prints_its_caption(tmp_path, capsys):
    pytest.importorskip("kaleido")
    gold, systems = _many_files(tmp_path, k=3, n=200)
    files = [str(tmp_path / "gold.txt")] + [str(tmp_path / f"{name}.run.txt") for name in systems]
    saved, out = tmp_path / "family.json", tmp_path / "forest.svg"
    assert main(["many", *files, "--baseline", "sys0", "--metric", "accuracy", "macro_f1", "--resamples", "500",
                 "--save", str(saved)]) == 0
    capsys.readouterr()
    assert main(["figure", str(saved), "--kind", "forest", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "holds 2 families: choose one with --metric" in err and "accuracy, macro_f1" in err
    assert main(["figure", str(saved), "--kind", "forest", "--metric", "macro_f1", "--out", str(out)]) == 0
    wrote, caption, latex = capsys.readouterr().out.splitlines()[:3]
    assert wrote.endswith("(forest, paper: one column of ACL, 7.7 cm)")  # a slide's default: "slide: a whole slide"
    many = Many.from_dict(json.loads(saved.read_text())["families"][1])
    assert caption == f"caption: {family.forest_caption(many)}"
    assert latex == f"LaTeX caption: {family.forest_caption(many, latex=True)}" and "$\\delta$" in latex
    assert caption.startswith("caption: δ = macro-F1(system) − macro-F1(sys0) on 200 items "
                              "(paired bootstrap, b = 500, seed 0, two-sided). Filled: significant after Holm's")


def test_many_refuses_a_single_system_in_one_line(tmp_path, capsys):
    _many_files(tmp_path, k=1)
    code = main(["many", str(tmp_path / "gold.txt"), str(tmp_path / "sys0.run.txt")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and "at least two" in err and len(err.splitlines()) == 1


def test_seeds_prints_the_aso_matrix_and_the_pairs_below_tau(tmp_path, capsys):
    long = tmp_path / "seeds.csv"
    rows = [("A", [0.72, 0.75, 0.71, 0.78, 0.74]), ("B", [0.70, 0.69, 0.73, 0.68, 0.71])]
    write_lines(long, ["system,seed,score"] + [f"{s},{i},{v}" for s, vs in rows for i, v in enumerate(vs)])
    assert main(["seeds", str(long)]) == 0
    out = capsys.readouterr().out
    expected = sigcore.statistics.multi_aso({s: vs for s, vs in rows}, seed=0)
    assert f"A over B: ε_min = {expected.loc['A', 'B']:.3f}" in out and "B over A" not in out
    wide = tmp_path / "wide.csv"
    write_lines(wide, ["seed,A,B"] + [f"{i},{a},{b}" for i, (a, b) in enumerate(zip(rows[0][1], rows[1][1]))])
    assert main(["seeds", str(wide)]) == 0
    assert capsys.readouterr().out == out  # the same scores, either layout
    write_lines(wide, ["seed,A,B"] + [f"{i},{a},{b if i else ''}"
                                      for i, (a, b) in enumerate(zip(*[v for _, v in rows]))])
    assert main(["seeds", str(wide)]) == 0  # an empty cell is a run B lacks, as on the page
    assert capsys.readouterr().out.startswith("note: the systems have different numbers of runs: A 5, B 4")


def test_datasets_gives_k_hat_for_the_authors_example(tmp_path, capsys):
    table = tmp_path / "p.csv"
    p = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]
    write_lines(table, ["dataset,p"] + [f"d{i},{v}" for i, v in enumerate(p, start=1)])
    assert main(["datasets", str(table)]) == 0
    out = capsys.readouterr().out
    assert "k̂ = 1 of 6 (Bonferroni" in out and "k̂ = 2 of 6 (Fisher" in out and "identifies: d6" in out
    write_lines(table, ["dataset,score", "d1,3"])
    assert main(["datasets", str(table)]) == 2 and "no column p" in capsys.readouterr().err
    write_lines(table, ["dataset,p", "d1,0.2", "d2,1.5"])  # read as the page reads it: where, and how to fix
    assert main(["datasets", str(table)]) == 2
    err = capsys.readouterr().err
    assert f"{table}, line 3" in err and "p = 1.5 is not between 0 and 1" in err and err.count("\n") == 1


def _dataset_folder(path, n, acc_a, acc_b, seed):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, n)
    path.mkdir()
    write_lines(path / "gold.txt", [str(g) for g in gold])
    for name, acc in (("ours", acc_a), ("base", acc_b)):
        write_lines(path / f"{name}.run1.txt",
                    [str(p) for p in np.where(rng.uniform(size=n) < acc, gold, (gold + 1) % 3)])
    return gold


def test_datasets_from_folders_compares_a_and_b_in_each_then_counts(tmp_path, capsys):
    folders = [tmp_path / f"data{i}" for i in range(3)]
    for folder, (acc_a, acc_b), seed in zip(folders, [(0.85, 0.7), (0.8, 0.7), (0.7, 0.7)], range(3)):
        _dataset_folder(folder, 400, acc_a, acc_b, seed)
    assert main(["datasets", *map(str, folders), "--a", "ours", "--b", "base", "--resamples", "2000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("note: the metric is accuracy, the first that fits the first folder's data (data0), for "
                          "every folder")  # labels, once
    results = []
    for folder in folders:
        gold = [line for line in (folder / "gold.txt").read_text().splitlines()]
        a, b = ((folder / f"{n}.run1.txt").read_text().splitlines() for n in ("ours", "base"))
        results.append(sigcore.compare(gold, a, b, n_resamples=2000, alternative="greater"))
    expected = sigcore.statistics.replicability(results, datasets=[f.name for f in folders])
    assert f"ours is better than base on at least k̂ = {expected.k_bonferroni} of 3" in out
    assert f"identifies: {', '.join(expected.identified)}" in out and out.count("data") >= 4
    assert main(["datasets", *map(str, folders), "--a", "ours", "--b", "nobody"]) == 2
    assert "has no system 'nobody'" in capsys.readouterr().err


def test_seeds_from_run_files_is_compare_seeds(tmp_path, capsys):
    rng = np.random.default_rng(5)
    gold = rng.integers(0, 2, 300)
    write_lines(tmp_path / "gold.txt", [str(g) for g in gold])
    runs = {}
    for name, acc in (("a", 0.8), ("b", 0.7)):
        runs[name] = [np.where(rng.uniform(size=300) < acc, gold, 1 - gold) for _ in range(3)]
        for i, run in enumerate(runs[name]):
            write_lines(tmp_path / f"{name}{i}.txt", [str(v) for v in run])
    files = {name: [str(tmp_path / f"{name}{i}.txt") for i in range(3)] for name in runs}
    assert main(["seeds", "--gold", str(tmp_path / "gold.txt"), "--a", *files["a"], "--b", *files["b"],
                 "--resamples", "1000"]) == 0
    expected = sigcore.compare_seeds([str(g) for g in gold], [[str(v) for v in r] for r in runs["a"]],
                                     [[str(v) for v in r] for r in runs["b"]], n_resamples=1000)
    note, sentence, variance = capsys.readouterr().out.strip().splitlines()
    assert note.startswith("note: the metric is accuracy, the first that fits")
    assert sentence == seeds_words.sentence(expected, a="a", b="b")  # the runs' names, a0 a1 a2 and b0 b1 b2
    assert variance == seeds_words.variance_sentence(expected) and variance.startswith("Of δ's variance, ")


def test_many_reads_conll_files_that_each_carry_gold_and_refuses_lm_eval_logs(tmp_path, capsys):
    """Three such files were read as a gold file and two systems: one system vanished from the comparison."""
    rows = [line.split() for line in (ROOT / "sample_data" / "ner.conll").read_text(encoding="utf-8").splitlines()]
    files = []
    for k, name in enumerate(("sysA", "sysB", "sysC")):  # token, gold and this system's tags (A's, B's, then A's)
        lines = [" ".join([r[0], r[1], r[2 + k % 2]]) if len(r) >= 4 else "" for r in rows if not r or len(r) >= 4]
        files.append(write_lines(tmp_path / f"{name}.conll", lines))
    assert main(["many", *files, "--resamples", "200", "--json"]) == 0
    family, = json.loads(capsys.readouterr().out)["families"]
    got = family["comparisons"]
    assert family["metric"] == "span_f1"
    assert [(r["system"], r["against"]) for r in got] == [("sysB", "sysA"), ("sysC", "sysA")]
    pair = run_json(capsys, [files[1], files[0], "--resamples", "200"])  # the same pair with compare
    assert (got[0]["score"], got[0]["score_against"]) == pytest.approx((pair["score_a"], pair["score_b"]))
    assert got[1]["delta"] == 0  # sysC has sysA's tags
    logs = sorted((ROOT / "sample_data" / "lm_eval").glob("*.jsonl"))
    assert "are not read together yet" in run_error(capsys, ["many", *map(str, logs[:2]), *map(str, logs[:1])])


def test_bibtex_cites_the_metric_chosen_for_the_data(capsys):
    """Without --metric, --bibtex cites the papers of the metric the run would use (BLEU on translations)."""
    mt = [str(ROOT / "sample_data" / "mt" / f) for f in ("newstest2017.ref.de", "uedin-nmt.de", "LIUM-NMT.de")]
    for command in (["many", *mt], ["seeds", "--gold", mt[0], "--a", mt[1], mt[1], "--b", mt[2], mt[2]]):
        assert main([*command, "--bibtex"]) == 0
        out = capsys.readouterr().out
        assert "papineni" in out.lower() and "note:" not in out  # BibTeX only


def test_figure_reads_what_a_saved_result_is_from_its_kind(tmp_path, capsys):
    """`sigcore figure` takes a saved JSON for what its "kind" says, checked against that kind's schema; a file
    without one (0.2.0's) is refused with what to do, never guessed from its keys."""
    assert main(["compare", *TABLE_ARGS, "--test", "bootstrap", "--resamples", "200", "--json"]) == 0
    saved = json.loads(capsys.readouterr().out)
    out = str(tmp_path / "f.svg")

    def refusal(record: dict, kind: str = "histogram") -> str:
        path = tmp_path / "r.json"
        path.write_text(json.dumps(record))
        assert main(["figure", str(path), "--kind", kind, "--out", out]) == 2
        return capsys.readouterr().err

    # one result's keys, but said to be a family or a board: taken for what it says, and refused as that
    assert "is not a valid family (schema_version 1): the record: 'families' is a required property" in refusal(
        {**saved, "kind": "family"})
    assert "is not a valid board (schema_version 1)" in refusal({**saved, "kind": "board"})
    assert "holds a result of kind 'seeds'; this reads pair" in refusal({**saved, "kind": "seeds"})
    # no kind (a file written before results said what they are): refused, never guessed
    assert 'has no "kind"' in refusal({k: v for k, v in saved.items() if k != "kind"})
    assert "holds no resampled values" in refusal(saved)


# One command line per parameter of FLAGS that makes the engine (or the flag's argparse type, through the same
# validator) refuse that parameter: the error names the flag, never the API's `name`.
LABELS = "id,gold,a,b\n" + "".join(f"{i},{g},{a},{b}\n" for i, (g, a, b) in enumerate(
    zip("xyzxyzxyz", "xyyxyyxyz", "zyzzyzxyz")))
RATES = ["power", "--n", "500", "--accuracy-a", "0.8", "--accuracy-b", "0.75", "--agreement", "0.85"]
REFUSED = {
    "n_resamples": ["compare", *TABLE_ARGS, "--resamples", "0"],
    "n_bootstrap": ["seeds", "SCORES", "--resamples", "1"],
    "confidence_level": ["compare", *TABLE_ARGS, "--alpha", "1e-17"],  # the interval's level, in the hint
    "alpha": ["compare", *TABLE_ARGS, "--alpha", "1.5"],
    "seed": ["compare", *TABLE_ARGS, "--seed", "-1"],
    "alternative": ["many", *TABLE_ARGS[:1], "--alternative", "sideways"],
    "target": [*RATES, "--target", "1.2"],
    "tau": ["seeds", "SCORES", "--tau", "1.5"],
    "positive_label": ["compare", "LABELS", "--metric", "f1"],  # the hint: set --positive-label
    "n_sims": [*RATES, "--sims", "0"],
    "n": [*RATES[:2], "1", *RATES[3:]],
    "groups": ["compare", "LABELS", "--group", "id", "--test", "t", "--metric", "accuracy"],
    "ci_method": ["compare", "LABELS", "--test", "mcnemar", "--ci-method", "percentile"],
}


@pytest.mark.parametrize("parameter", REFUSED)
def test_an_engine_error_names_the_flag_of_its_parameter(tmp_path, capsys, parameter):
    assert set(REFUSED) == set(FLAGS)  # every parameter of the mapping, and no other
    (tmp_path / "labels.csv").write_text(LABELS)
    (tmp_path / "scores.csv").write_text("A,B\n0.71,0.70\n0.73,0.69\n0.72,0.71\n")
    argv = [{"SCORES": str(tmp_path / "scores.csv"), "LABELS": str(tmp_path / "labels.csv")}.get(a, a)
            for a in REFUSED[parameter]]
    try:
        code = main(argv)
    except SystemExit as stop:  # refused by the flag's argparse type, with the validator's message
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and re.search(rf"{re.escape(FLAGS[parameter])}(?![\w-])", err.splitlines()[-1]), err
    assert f"`{parameter}`" not in err


def test_the_flags_of_the_mapping_are_the_parser_s():
    commands = build().commands
    for parameter, flag in FLAGS.items():
        assert any(flag in sub.arity for sub in commands.values()), (parameter, flag)


def test_no_command_searches_an_error_s_text_for_a_parameter():
    for path in (ROOT / "sigcore" / "cli").glob("*.py"):
        assert ".replace(f\"`" not in path.read_text(encoding="utf-8"), path.name


def test_each_command_keeps_the_arity_argparse_holds():
    # reproduce.sh reads a command line back with each flag's number of values; argparse's own record is the
    # reference (its private list, read here and nowhere in sigcore)
    for name, sub in build().commands.items():
        held = {option: action.nargs for action in sub._actions for option in action.option_strings}
        assert sub.arity == held, name
    assert build().commands["many"].arity["--metric"] == "+" and build().commands["many"].arity["--csv"] == 0
