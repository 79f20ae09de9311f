"""The Many systems page's other modes, driven through streamlit.testing: "Many datasets" (Dror et al. 2017's
replicability analysis, from p-values or from each dataset's outputs) and "Many seeds" (ASO over per-seed scores,
the bootstrap over items and runs). Each opens on its sample and shows the engine's numbers on the same data;
a bad upload is told beside the uploader with a hint, and names are never markup."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import sigcore
from sigcore.io.inputs import read
from sigcore.io.loading import load_many
from sigcore.io.pairing import from_files
from sigcore.report import seeds as seeds_words
from ui import datasets as datasets_ui
from ui import seeds as seeds_ui
from ui.safe import md

from helpers.many_page import HOSTILE, frame_with, page, shown_text, upload, user_markup, widget

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_data"


# ---------------------------------------------------------------- many datasets


@pytest.fixture(scope="module")
def datasets_page() -> AppTest:
    return page("Many datasets")


def test_datasets_opens_on_the_p_value_sample_with_the_engines_analysis(datasets_page):
    at = datasets_page
    assert not at.exception and not at.error
    table = read(SAMPLES / "datasets" / "p_values.csv").frame
    expected = sigcore.statistics.replicability([float(p) for p in table["p"]], alpha=0.05,
                                                datasets=list(table["dataset"]))
    assert (expected.k_bonferroni, expected.k_fisher, expected.identified) == (1, 1, ("digits",))  # the README's
    sentence = expected.sentence().replace("A is better than B", "svm_rbf (A) is better than tree (B)")
    assert md(sentence) in [m.value for m in at.markdown]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["k̂ (Bonferroni)"] == "1 of 4" and metrics["k̂ (Fisher)"] == "1 of 4"
    assert metrics["Identified (Holm)"] == "digits"
    conjunctions = frame_with(at, "fisher")
    assert list(conjunctions["u"]) == [1, 2, 3, 4]
    assert list(conjunctions["bonferroni"]) == pytest.approx(expected.bonferroni, abs=1e-12)
    assert list(conjunctions["fisher"]) == pytest.approx(expected.fisher, abs=1e-12)
    assert list(conjunctions["rejected_fisher"]) == [True, False, False, False]
    each = frame_with(at, "identified")
    assert list(each["p"]) == pytest.approx(expected.p_values) and list(each["identified"]) == [False] * 3 + [True]
    labels = {b.proto.label for b in at.get("download_button")}
    assert {"Datasets CSV", "Conjunctions CSV", "Sentence (LaTeX)", "BibTeX"} <= labels
    latex = next(c.value for c in at.code)
    assert latex.startswith(r"Replicability analysis \citep{dror-etal-2017-replicability} over 4 datasets at "
                            r"$\alpha = 0.05$: svm\_rbf (A) is better than tree (B) on at least $\hat{k} = 1$ of 4")


def test_the_p_value_sample_is_the_per_dataset_outputs_compared_here(datasets_page):
    at = datasets_page
    widget(at.radio, "Input").set_value(datasets_ui.OUTPUTS).run()
    assert not at.exception and not at.error
    assert widget(at.selectbox, "System A").value == "svm_rbf" and widget(at.selectbox, "System B").value == "tree"
    each = frame_with(at, "delta")
    results = []
    for name in datasets_ui.SAMPLE_DATASETS:
        folder = SAMPLES / "datasets" / name
        data = from_files(*(read(folder / f"{f}.txt") for f in ("gold", "svm_rbf", "tree")))
        results.append(sigcore.compare(data.gold, data.a, data.b, n_resamples=10_000, alternative="greater", seed=0))
    assert list(each["dataset"]) == list(datasets_ui.SAMPLE_DATASETS)
    assert list(each["p"]) == pytest.approx([r.p_value for r in results], abs=1e-12)
    assert list(each["delta"]) == pytest.approx([r.delta for r in results], abs=1e-12)
    table = read(SAMPLES / "datasets" / "p_values.csv").frame  # what make_samples.py wrote: these p's, rounded
    assert list(each["p"]) == pytest.approx([float(p) for p in table["p"]], abs=5e-5)
    expected = sigcore.statistics.replicability(results, datasets=list(datasets_ui.SAMPLE_DATASETS))
    assert list(frame_with(at, "fisher")["fisher"]) == pytest.approx(expected.fisher, abs=1e-12)
    assert {m.label: m.value for m in at.metric}["k̂ (Fisher)"] == f"{expected.k_fisher} of 4"
    assert {r.test for r in results} == {"mcnemar"} and not any(r.warnings for r in results)  # exact
    caution = next(w.value for w in at.warning if w.value.startswith("Cautions about the tests"))
    assert md("iris") in caution and md("the smallest p McNemar's exact test can give on these items is 0.25 > α") \
        in caution and "raise b" not in caution  # 2 discordant pairs: b does not help, and it says so
    assert "digits" not in caution


@pytest.mark.parametrize("content, message", [
    (b"dataset,p\nnews,0.01\nbio,1.5\n", "bad.csv, line 3, column p: p = 1.5 is not between 0 and 1. A p-value is a "
                                         "probability"),
    (b"dataset,p\nnews,0.01\nbio,n/a\n", "bad.csv, line 3, column p: 'n/a' is not a number. Write each dataset's "
                                         "one-sided p-value as a number between 0 and 1"),
    (b"dataset,p\nnews,0.01\nbio,0\n", "bad.csv, line 3, column p: p = 0, which a resampling test means as p < 1/b. "
                                       "Write it as 1/b"),
    (b"dataset,score\nnews,0.01\nbio,0.2\n", "bad.csv, line 1: has no column p"),
    (b"dataset,p\nnews,0.01\n", "bad.csv: has 1 dataset. Replicability analysis counts"),
], ids=["p above 1", "p not a number", "p of 0", "no p column", "one dataset"])
def test_a_bad_p_value_table_is_told_beside_the_uploader_with_a_hint(content, message):
    at = upload(page("Many datasets"), ("bad.csv", content))
    assert not at.exception
    assert len(at.error) == 1 and at.error[0].value.startswith(md(message))
    assert not at.metric  # no analysis from bad data


def test_dataset_names_and_system_names_are_never_markup():
    rows = [("**bold**", 0.001), (HOSTILE, 0.002), ("plain", 0.6)]
    csv = "dataset,p\n" + "".join(f'"{name.replace(chr(34), chr(34) * 2)}",{p}\n' for name, p in rows)
    at = upload(page("Many datasets"), ("p.csv", csv.encode()))
    widget(at.text_input, "Name of A").set_value("<i>A</i>").run()
    assert not at.exception and not at.error
    expected = sigcore.statistics.replicability([p for _, p in rows], datasets=[n for n, _ in rows])
    assert expected.identified == ("**bold**", HOSTILE)
    assert list(frame_with(at, "identified")["dataset"]) == [n for n, _ in rows]  # cells: the text as written
    texts = shown_text(at)
    assert not user_markup(texts)
    assert md(HOSTILE) in {m.label: m.value for m in at.metric}["Identified (Holm)"]
    assert any(md("<i>A</i> (A) is better than B (B)") in t for t in texts)
    latex = next(c.value for c in at.code)
    assert r"\textless{}b\textgreater{}" in latex and "<b>" not in latex


def test_per_dataset_uploads_run_and_a_dataset_without_gold_is_told():
    rng = np.random.default_rng(5)
    files = []
    for n in (120, 80):
        gold = rng.integers(0, 3, n)
        good = np.where(rng.uniform(size=n) < 0.85, gold, (gold + 1) % 3)
        weak = np.where(rng.uniform(size=n) < 0.65, gold, (gold + 1) % 3)
        files.append([("gold.txt", "".join(f"{v}\n" for v in gold).encode()),
                      ("good.txt", "".join(f"{v}\n" for v in good).encode()),
                      ("weak.txt", "".join(f"{v}\n" for v in weak).encode())])
    at = page("Many datasets")
    widget(at.radio, "Input").set_value(datasets_ui.OUTPUTS).run()
    widget(at.radio, "Data").set_value("Upload").run()
    widget(at.number_input, "Datasets").set_value(2).run()
    for k, dataset in enumerate(files):
        at.file_uploader[k].set_value([(n, d, "text/plain") for n, d in dataset]).run()
    assert not at.exception and not at.error
    widget(at.number_input, "Resamples b").set_value(1000)
    next(b for b in at.button if b.label == "Run").click().run()
    expected = []
    for dataset in files:
        data = from_files(*(read(d, name=n) for n, d in dataset))
        expected.append(sigcore.compare(data.gold, data.a, data.b, n_resamples=1000, seed=0, alternative="greater"))
    assert list(frame_with(at, "delta")["p"]) == pytest.approx([r.p_value for r in expected], abs=1e-12)
    assert list(frame_with(at, "delta")["dataset"]) == ["dataset 1", "dataset 2"]
    at.file_uploader[1].set_value([(n.replace("gold", "key"), d, "text/plain") for n, d in files[1]]).run()
    assert not at.exception and len(at.error) == 1
    assert at.error[0].value.startswith(md("key.txt, good.txt, weak.txt: dataset 'dataset 2': needs exactly one "
                                           "gold file among 3 files, found 0. Name the gold file gold, ref"))


# ---------------------------------------------------------------- many seeds


@pytest.fixture(scope="module")
def seeds_page() -> AppTest:
    return page("Many seeds")


def sample_scores() -> dict[str, list[float]]:
    frame = read(SAMPLES / "seeds" / "digits_seed_scores.csv").frame
    return {c: [float(v) for v in frame[c]] for c in frame.columns if c != "seed"}


def test_seeds_opens_on_the_per_seed_scores_with_the_engines_eps_min(seeds_page):
    at = seeds_page
    assert not at.exception and not at.error
    scores = sample_scores()
    assert list(scores) == ["mlp", "forest", "sgd"] and all(len(v) == 5 for v in scores.values())
    expected = sigcore.statistics.multi_aso(scores, confidence_level=0.95, bonferroni=True, n_bootstrap=10_000, seed=0)
    shown = frame_with(at, "sgd")
    assert list(shown.index) == list(shown.columns) == ["mlp", "forest", "sgd"]
    for a in scores:
        for b in scores:
            if a == b:
                assert np.isnan(shown.loc[a, b])  # the diagonal is blank, not deepsig's 1
            else:
                assert shown.loc[a, b] == pytest.approx(expected.loc[a, b], abs=1e-12)
    pairs = seeds_ui.below(expected, 0.2)
    assert [(a, b) for a, b, _ in pairs] == [("mlp", "forest"), ("mlp", "sgd"), ("forest", "sgd")]
    listed = next(m.value for m in at.markdown if m.value.startswith("- "))
    assert f"- mlp over forest: ε_min = {expected.loc['mlp', 'forest']:.3f}, almost stochastically dominant" in listed
    assert "- mlp over sgd: ε_min = 0, stochastically dominant" in listed
    assert any(f"confidence {expected.attrs['confidence_level']:.4g} (Bonferroni over the 3 pairs)" in c.value
               for c in at.caption)
    summary = frame_with(at, "mean").set_index("system")
    assert summary.loc["mlp", "mean"] == pytest.approx(np.mean(scores["mlp"]))


def test_without_bonferroni_and_at_tau_half_the_matrix_follows(seeds_page):
    at = seeds_page
    widget(at.checkbox, "Bonferroni over the pairs").uncheck()
    widget(at.selectbox, "Threshold τ").set_value(0.5)
    next(b for b in at.button if b.label == "Run").click().run()
    assert not at.exception and not at.error
    expected = sigcore.statistics.multi_aso(sample_scores(), bonferroni=False, seed=0)
    shown = frame_with(at, "sgd")
    assert shown.loc["mlp", "forest"] == pytest.approx(expected.loc["mlp", "forest"], abs=1e-12)
    assert any("Below τ = 0.5" in m.value for m in at.markdown)


def test_per_seed_outputs_give_the_bootstrap_over_items_and_runs(seeds_page):
    at = seeds_page
    widget(at.radio, "Input").set_value(seeds_ui.RUNS).run()
    assert not at.exception and not at.error
    runs = [f"mlp_seed{k}" for k in range(5)], [f"forest_seed{k}" for k in range(5)]
    assert widget(at.multiselect, "A's runs").value == runs[0] and widget(at.multiselect, "B's runs").value == runs[1]
    data = load_many([read(SAMPLES / "seeds" / "digits_runs.csv")])
    res = sigcore.compare_seeds(data.gold, [data.systems[r] for r in runs[0]], [data.systems[r] for r in runs[1]],
                                n_resamples=10_000, seed=0)
    assert md(seeds_words.sentence(res, a="mlp", b="forest")) in [m.value for m in at.markdown]
    # items or seeds: what buys precision
    assert md(seeds_words.variance_sentence(res)) in [c.value for c in at.caption]
    shown = frame_with(at, "run")
    assert list(shown["score"]) == pytest.approx([*res.scores_a, *res.scores_b], abs=1e-12)
    assert list(shown["score"])[:5] == pytest.approx(sample_scores()["mlp"])  # the scores sample's runs
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["δ = mean A − mean B"] == f"{res.delta:.4f}"
    assert not res.significant  # mlp is almost stochastically dominant by ASO, yet not significant over items


@pytest.mark.parametrize("content, message", [
    (b"seed,a,b\n0,0.91,0.88\n1,0.90,abc\n", "bad.csv, line 3, column b: 'abc' is not a number. Each cell is one "
                                             "run's score"),
    (b"seed,a\n0,0.91\n1,0.90\n", "bad.csv, line 1: has the scores of 1 system; ASO compares at least two. Give a "
                                  "column per system"),
    (b"system,score\na,0.9\na,0.8\nb,0.7\n", "bad.csv: system 'b' has 1 score. ASO compares distributions over seeds"),
    (b"system,seed,score\na,1,0.9\na,2,0.8\nb,1,0.7\nb,2,0.6\na,1.0,0.9\n",
     "bad.csv, line 6, column seed: system 'a' has seed 1 twice (first at line 2). Give each run once"),
    (b"system,score\na,0.9\n,0.8\nb,0.7\nb,0.6\n", "bad.csv, line 3, column system: has no system name. Name"),
    (b"seed,a,b\n1,0.9,0.8\n2,0.8,0.7\n01,0.9,0.8\n", "bad.csv, line 4, column seed: seed 1 twice (first at line 2)"),
    (b"system,seed,score\na,1,0.9\na,,0.8\nb,1,0.7\nb,2,0.6\n", "bad.csv, line 3, column seed: has no seed. Give"),
], ids=["score not a number", "one system", "one seed", "a run twice", "no system name", "a row twice", "no seed"])
def test_a_bad_score_table_is_told_beside_the_uploader_with_a_hint(content, message):
    at = upload(page("Many seeds"), ("bad.csv", content))
    assert not at.exception
    assert len(at.error) == 1 and at.error[0].value.startswith(md(message))
    assert not any("ε_min" in m.value for m in at.markdown)


def test_system_names_in_per_seed_scores_are_never_markup():
    csv = f'seed,"{HOSTILE.replace(chr(34), chr(34) * 2)}",**bold**\n0,0.95,0.80\n1,0.96,0.81\n2,0.97,0.79\n'
    at = upload(page("Many seeds"), ("hostile.csv", csv.encode()))
    assert not at.exception and not at.error
    shown = frame_with(at, "**bold**")
    assert list(shown.index) == [HOSTILE, "**bold**"]  # cells and headers: the text as written
    listed = next(m.value for m in at.markdown if m.value.startswith("- "))
    assert listed.startswith(f"- {md(HOSTILE)} over {md('**bold**')}: ε_min = 0")
    assert not user_markup(shown_text(at))


def test_two_uploads_of_one_name_are_two_systems_told_apart_by_their_order():
    """Two files named out.txt crashed the page ("two systems named 'out'"); the Compare page takes files by
    position."""
    gold = "".join(f"{'xy'[i % 2]}\n" for i in range(40)).encode()
    first = "".join(f"{'xy'[i % 3 == 0]}\n" for i in range(40)).encode()
    second = "".join(f"{'xy'[i % 2 or i % 5 == 0]}\n" for i in range(40)).encode()
    files = [("gold.txt", gold), ("out.txt", first), ("out.txt", second)]
    data = load_many([read(d, name=n) for n, d in files])
    assert list(data.systems) == ["out.txt #1", "out.txt #2"]
    assert data.systems["out.txt #1"] == first.decode().split()
    assert data.systems["out.txt #2"] == second.decode().split()
    at = upload(page("Many systems on one test set"), *files)
    assert not at.exception and not at.error
    assert any("2 systems" in c.value and "out\\.txt \\#2" in c.value for c in at.caption)
    assert any(md("gold = gold.txt (named like a gold file)") in c.value for c in at.caption)  # not "(given)"
    at = page("Many seeds")
    widget(at.radio, "Input").set_value(seeds_ui.RUNS).run()
    at = upload(at, *files)
    assert not at.exception and not at.error
    assert any("2 runs" in c.value for c in at.caption)


def test_a_seeds_table_beyond_the_servers_budget_is_refused_at_once_with_where_it_can_run():
    """500 systems × 5 seeds kept a core busy for minutes after its tab closed: about 30 CPU-minutes at b = 1,000."""
    rng = np.random.default_rng(2)
    table = ("seed," + ",".join(f"s{i}" for i in range(500)) + "\n" + "".join(
        f"{k}," + ",".join(f"{x:.3f}" for x in rng.random(500)) + "\n" for k in range(5))).encode()
    at = upload(page("Many seeds"), ("seeds.csv", table))
    next(b for b in at.button if b.label == "Run").click().run()
    assert not at.exception and len(at.error) == 1
    said = at.error[0].value
    assert md("ASO over 124,750 pairs at b = ") in said and "compare fewer systems" in said
    assert "command line" in said and md("--budget") in said
