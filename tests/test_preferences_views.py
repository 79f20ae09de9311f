"""Models rated from pairwise judgments as one result (issue 42 §2, §5; issue 40 §2–§3): `sigcore.preferences`, the
record of kind "preferences" and its schema, and every view the report layer writes of it (the terminal, CSV,
Markdown, HTML, LaTeX), each agreeing with the ratings and each escaping the user's names."""

import csv
import html
import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sigcore
from sigcore import jsonform
from sigcore.__main__ import main
from sigcore.judgments import bradley_terry, read
from sigcore.report import preferences as views
from sigcore.report import records
from sigcore.report.export import md_escape
from sigcore.signature import Signature

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ["=HYPERLINK(\"http://x\")", "<script>alert(1)</script>", "m_{x} & 50% #1", "plain\u202eflip\nline"]


def battles(path, *, models=("m0", "m1", "m2", "m3"), strengths=(0.0, 0.3, 0.9, 1.6), items=60, seed=0):
    """A tidy table of judgments drawn from a known Bradley–Terry model: every pair once on each item."""
    rng = np.random.default_rng(seed)
    rows = []
    for item in range(items):
        for i in range(len(models)):
            for j in range(i + 1, len(models)):
                p = 1 / (1 + np.exp(strengths[j] - strengths[i]))
                u = rng.random()
                outcome = 1.0 if u < p * 0.9 else 0.5 if u < p * 0.9 + 0.1 else 0.0
                rows.append({"item": f"q{item}", "model_a": models[i], "model_b": models[j], "outcome": outcome})
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return battles(tmp_path_factory.mktemp("judgments") / "battles.csv")


def test_the_api_is_the_reader_and_the_fit(table):
    res = sigcore.preferences(table, n_resamples=300)
    alone = bradley_terry(read(table), n_resamples=300)
    assert res.models == alone.models and np.array_equal(res.ratings.rating, alone.rating)
    assert np.array_equal(res.ratings.ci_low, alone.ci_low) and np.array_equal(res.ratings.rank, alone.rank)
    assert res.n_battles == 60 * 6 and res.battles.shapes == {str(table): "tidy"}


def test_the_json_validates_and_holds_every_number_the_text_shows(table, capsys):
    argv = ["preferences", str(table), "--resamples", "400"]
    assert main([*argv, "--json"]) == 0
    out = capsys.readouterr().out
    record = json.loads(out)
    assert jsonform.problems(record) == [] and not re.search(r'"(nan|inf|-inf|NaN|Infinity)"', out)
    res = sigcore.preferences(table, n_resamples=400)
    t = res.ratings.table()
    assert [m["model"] for m in record["models"]] == list(t.model) == ["m3", "m2", "m1", "m0"]
    for row, m in zip(t.itertuples(index=False), record["models"]):
        assert (m["rating"], m["ci_low"], m["ci_high"]) == (row.rating, row.ci_low, row.ci_high)
        assert (m["rank"], m["rank_low"], m["rank_high"]) == (row.rank, row.rank_low, row.rank_high)
        assert m["wins"] + m["ties"] + m["losses"] == m["battles"] == 180
    bound = [p for p in record["pairs"] if p["p_bound"]]
    assert bound and all(p["p_value"] == 1 / 400 for p in bound)  # never 0: the text's "< 0.0025"
    assert all(p["p_value"] > 0 and p["p_corrected"] >= p["p_value"] for p in record["pairs"])
    assert Signature.from_dict(record["signature_fields"]).text == record["signature"] == res.signature
    assert main(argv) == 0
    text = capsys.readouterr().out
    for m in record["models"]:  # each model's line: its rank, rating and interval as the JSON holds them
        line = next(k for k in text.splitlines() if k.startswith(m["model"] + " "))
        cells = line.split()
        assert cells[1] == str(m["rank"]) and float(cells[2]) == round(m["rating"], 1)
        low, high = (float(x.replace("\u2212", "-")) for x in re.findall(r"[\d.\u2212]+", line.split("[")[1])[:2])
        assert (low, high) == (round(m["ci_low"], 1), round(m["ci_high"], 1))
    separated = sum(p["p_corrected"] <= 0.05 for p in record["pairs"])
    assert f"The judgments separate {separated} of 6 pairs" in text
    assert f"signature: {record['signature']}" in text


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), spread=st.floats(0.0, 2.0))
def test_what_the_sentence_settles_is_what_the_ranks_and_pairs_say(tmp_path, seed, spread):
    path = battles(tmp_path / f"b{seed}.csv", strengths=(0.0, spread / 3, 2 * spread / 3, spread), items=30,
                   seed=seed)
    res = sigcore.preferences(path, n_resamples=200, seed=seed)
    r = res.ratings
    said = views.settled(res)
    separated = int((r.pairs.p_corrected <= r.alpha).sum())
    assert said.startswith(f"The judgments separate {separated} of 6 pairs")
    top = [m for m, k in zip(r.models, r.rank) if k == 1]
    if len(top) == 1:
        assert f"{top[0]} is significantly better than every other model" in said
        assert separated >= 3
    elif len(top) == 4:
        assert "no model is separated from another" in said
    else:
        assert f"the top {len(top)} (" in said
    # LMArena's rank: 1 + the models whose corrected test puts them above
    better = {m: 0 for m in r.models}
    for p in r.pairs.itertuples(index=False):
        better[p.other] += p.p_corrected <= r.alpha and p.delta > 0
    assert [1 + better[m] for m in r.models] == r.rank.tolist()


def judged(path, *, items=40, seed=1):
    """Two judges, each judging every pair of three models on every item in both orders; the first judge leans to
    the answer shown first."""
    rng = np.random.default_rng(seed)
    strengths = {"m0": 0.0, "m1": 0.5, "m2": 1.0}
    rows = []
    for item in range(items):
        for a, b in (("m0", "m1"), ("m0", "m2"), ("m1", "m2")):
            for judge, lean in (("j1", 0.8), ("j2", 0.0)):
                for first in (a, b):
                    x = strengths[a] - strengths[b] + (lean if first == a else -lean)
                    rows.append({"item": f"q{item}", "model_a": a, "model_b": b, "judge": judge, "order": first,
                                 "outcome": float(rng.random() < 1 / (1 + np.exp(-x)))})
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_position_bias_and_agreement_are_in_every_view_as_computed(tmp_path, capsys):
    from sigcore.judgments import agreement, position_bias

    path = judged(tmp_path / "judged.csv")
    res = sigcore.preferences(path, n_resamples=300)
    alone = read(path)
    bias, agreed = position_bias(alone, n_resamples=300), agreement(alone, n_resamples=300)
    assert res.position.inconsistent == bias.inconsistent and res.position.first_slot == bias.first_slot
    assert (res.agreement.statistic, res.agreement.value, res.agreement.ci_low) == \
        ("kappa", agreed.value, agreed.ci_low)
    record = json.loads(records.dumps(records.preferences(res)))
    assert jsonform.problems(record) == []
    assert record["position_bias"]["inconsistent"]["value"] == bias.inconsistent.value
    assert set(record["position_bias"]["by_judge"]) == {"j1", "j2"}
    assert record["agreement"]["value"] == agreed.value and record["agreement"]["judges"] == ["j1", "j2"]
    said = views.findings(res)
    pct = f"{bias.inconsistent.value:.0%} [{bias.inconsistent.ci_low:.0%}, {bias.inconsistent.ci_high:.0%}]"
    assert said[0].startswith(f"Position bias: of {bias.pairs} judgment pairs") and pct in said[0]
    assert f"Cohen's κ = {agreed.value:.3f} [{agreed.ci_low:.3f}, {agreed.ci_high:.3f}]" in said[2]
    assert all(md_escape(f) in views.markdown(res) for f in said)
    assert all(html.escape(f) in views.page(res) for f in said)
    assert main(["preferences", str(path), "--resamples", "300"]) == 0
    out = capsys.readouterr().out
    assert all(f in out for f in said)


def test_reconciled_ratings_are_the_ratings_of_the_reconciled_verdicts(tmp_path, capsys):
    from sigcore.judgments import reconciled

    path = judged(tmp_path / "judged.csv")
    res = sigcore.preferences(path, n_resamples=200, reconcile=True)
    alone = bradley_terry(reconciled(read(path)), n_resamples=200)
    assert np.array_equal(res.ratings.rating, alone.rating) and res.reconciled
    as_judged = sigcore.preferences(path, n_resamples=200)
    assert "reconciled=True" in res.signature and "reconciled" not in as_judged.signature
    assert json.loads(records.dumps(records.preferences(res)))["settings"]["reconciled"] is True
    assert "The ratings are of the reconciled verdicts" in " ".join(views.findings(res))
    plain = tmp_path / "plain.csv"
    pd.read_csv(path).drop(columns=["order", "judge"]).drop_duplicates(["item", "model_a", "model_b"]).to_csv(
        plain, index=False)
    assert main(["preferences", str(plain), "--reconcile"]) == 2
    assert "nothing to reconcile: no judgment was made in both orders" in capsys.readouterr().err


def test_two_models_on_the_command_line_are_the_api_s_pair(tmp_path, capsys):
    from sigcore.judgments import pair

    path = judged(tmp_path / "judged.csv")
    v = pair(read(path), "m2", "m0", test="bootstrap", n_resamples=300)
    argv = ["preferences", str(path), "--pair", "m2", "m0", "--test", "bootstrap", "--resamples", "300"]
    assert main([*argv, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert jsonform.problems(record) == [] and record["kind"] == "pair"
    assert (record["p_value"], record["delta"], record["a_name"]) == (v.result.p_value, v.result.delta, "m2")
    assert record["win_rate"] == {"value": v.win_rate, "ci_low": v.ci_low, "ci_high": v.ci_high,
                                  "confidence_level": 0.95, "wins": v.wins, "ties": v.ties, "losses": v.losses,
                                  "n_battles": v.n_battles, "judge": None}
    assert v.result.ci_a == (v.ci_low, v.ci_high)  # the score's interval is the win rate's, within [0, 1]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"A's win rate against B: {v.win_rate:.1%} [{v.ci_low:.1%}, {v.ci_high:.1%}]" in out
    assert out.strip().splitlines()[-1] == f"signature: {v.result.signature}"
    assert main([*argv, "--csv"]) == 2
    assert "--csv is for the ratings; with --pair, leave it out" in capsys.readouterr().err
    assert main(["preferences", str(path), "--test", "bootstrap"]) == 2  # said, not ignored
    assert "--test is for --pair A B; the ratings test every pair two-sided" in capsys.readouterr().err
    assert main([*argv, "--alpha", "0.1", "--json"]) == 0  # the interval at 1 - α, as compare's
    assert json.loads(capsys.readouterr().out)["win_rate"]["confidence_level"] == 0.9


def test_a_b_too_small_for_the_level_leaves_the_intervals_open_and_says_so(tmp_path):
    res = sigcore.preferences(battles(tmp_path / "b.csv", items=20), n_resamples=10)  # 0.025 · 10 < 1 resample
    assert np.isnan(res.ratings.ci_low).all() and res.ratings.table().rank_low.tolist() == [None] * 4
    rows = views.model_rows(res)[1]
    assert all(r[3] == "[\u2014, \u2014]" and r[4] == "\u2014" for r in rows)  # never "nan", never a huge int
    record = json.loads(records.dumps(records.preferences(res)))
    assert jsonform.problems(record) == [] and all(m["rank_low"] is None and m["ci_low"] is None
                                                   for m in record["models"])


def test_too_few_items_lead_the_sentence_with_the_caution():
    res = sigcore.preferences(ROOT / "tests" / "data" / "judgments" / "mt_bench_pair.jsonl", n_resamples=200)
    assert views.settled(res).startswith("Only 2 items were resampled, too few for the bootstrap's p to bear a "
                                         "decision (fewer than 30)")


def _hostile_table(tmp_path):
    path = tmp_path / "hostile.csv"
    rows = [{"item": f"q{i}", "model_a": a, "model_b": b, "outcome": o}
            for i in range(12) for (a, b), o in zip([(HOSTILE[0], HOSTILE[1]), (HOSTILE[1], HOSTILE[2]),
                                                     (HOSTILE[2], HOSTILE[3]), (HOSTILE[3], HOSTILE[0])],
                                                    [1.0, 0.0 if i % 3 else 1.0, 0.5, 1.0 if i % 2 else 0.0])]
    pd.DataFrame(rows).to_csv(path, index=False)
    return sigcore.preferences(path, n_resamples=100, prior=1)


def test_every_view_escapes_the_names(tmp_path):
    res = _hostile_table(tmp_path)
    cells = [c for row in csv.reader(io.StringIO(views.csv(res).decode(), newline="")) for c in row]
    assert "'" + HOSTILE[0] in cells and not any(re.match(r"[=+@\t]", c) for c in cells)
    page = views.page(res)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "plain\\u202eflip\\x0aline" in page and "\u202e" not in page  # shown as the terminal shows it
    md = views.markdown(res)
    assert "<script>" not in md.replace("\\<script\\>", "") and "m\\_\\{x\\} \\& 50% \\#1" in md
    tex = views.latex(res)
    assert r"m\_\{x\} \& 50\% \#1" in tex and "<script>" not in tex.replace(r"\textless{}", "<")
    assert jsonform.problems(json.loads(records.dumps(records.preferences(res)))) == []


def test_the_command_line_says_bad_input_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("item,model_a,model_b,outcome\nq1,a,a,1\n")
    assert main(["preferences", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "bad.csv" in err and "line 2" in err
    with pytest.raises(SystemExit):
        main(["preferences", str(bad), "--alpha", "1.5"])
    assert "--alpha must be a number strictly between 0 and 1, not 1.5" in capsys.readouterr().err


def test_the_latex_table_takes_the_venue_s_caption_side_and_width(tmp_path):
    res = _hostile_table(tmp_path)
    icml, acl = views.latex(res, venue="icml"), views.latex(res)
    assert icml.index("\\caption") < icml.index("\\begin{tabular}")  # ICML: the caption above
    assert acl.index("\\caption") > acl.index("\\end{tabular}")  # ACL: below
    assert "\\citep{bradley1952rank,chiang2024chatbot,efron1993introduction,holm1979simple}" in acl
    assert "table*" not in views.latex(res, venue="neurips")  # one column: the text's width


@pytest.mark.slow  # pdflatex
def test_the_latex_table_compiles_in_an_acl_paper(tmp_path):
    from helpers.latex import compile_paper

    res = _hostile_table(tmp_path)
    compile_paper(tmp_path, views.latex(res))


@pytest.mark.slow  # kaleido draws the figure in Chromium
@pytest.mark.usefixtures("one_browser_for_static_images")
def test_the_page_s_figure_is_one_svg_the_same_each_time(tmp_path):
    from sigcore.report.preferences_figures import ratings_svg

    res = sigcore.preferences(battles(tmp_path / "b.csv"), n_resamples=200)
    (first, missing), (second, _) = ratings_svg(res), ratings_svg(res)
    assert missing is None and first == second and first.lstrip().startswith(("<?xml", "<svg"))
    page = views.page(res, figure_svg=first)
    assert page.count("<svg") == 1 and "m3" in page[page.index("<svg"):]
