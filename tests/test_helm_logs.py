"""HELM's run folders (sigcore.logs.helm_run), read as helm-run wrote them: tests/data/helm/benchmark_output.zip,
made by tests/data/helm/make_fixtures.py with crfm-helm 0.5.16 itself (two of HELM's tutorial scenarios, three toy
models, 3 train trials on one, HELM's extra_space perturbation on another). Each instance's exact_match, and its
worst case over the original and the perturbed copy, is checked against what the model answered, recomputed from
scenario_state.json, and each mean against stats.json."""

import json
import re
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

from sigcore import leaderboard
from sigcore.__main__ import main
from sigcore.errors import InputError
from sigcore.logs import helm_run, tidy

ZIP = Path(__file__).resolve().parent / "data" / "helm" / "benchmark_output.zip"
MODELS = {"toy/careful", "toy/hasty", "toy/coin"}
EXTRA_SPACE = "exact_match[extra_space,num_spaces=2]"
WORST = "exact_match[robustness worst]"
AUGMENTED = "simple_mcqa:data_augmentation=extra_space2"


@pytest.fixture(scope="module")
def output(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("helm")
    with zipfile.ZipFile(ZIP) as z:
        z.extractall(root)
    return root / "benchmark_output"


def _runs(output: Path) -> list[Path]:
    return sorted((output / "runs" / "toy").iterdir())


def _answered_right(state: dict) -> dict[tuple[str, int, bool], float]:
    """(instance id, trial, perturbed) -> 1 when the model's completion is the correct reference, from HELM's
    scenario state alone: what was asked, what came back, which reference is tagged correct."""
    out = {}
    for r in state["request_states"]:
        instance = r["instance"]
        correct = next(ref["output"]["text"] for ref in instance["references"] if "correct" in ref["tags"])
        answer = r["result"]["completions"][0]["text"].strip()
        answer = (r.get("output_mapping") or {}).get(answer, answer)  # a letter, for multiple choice
        out[instance["id"], r["train_trial_index"] + 1, bool(instance.get("perturbation"))] = float(answer == correct)
    return out


def test_every_instance_s_score_is_what_the_model_answered_and_every_mean_what_helm_reports(output):
    table = tidy.from_logs([output])
    assert set(table.model) == MODELS and table.attrs["notes"] == []
    assert set(table.task) == {"simple_mcqa", "simple_classification", "simple_mcqa:data_augmentation=extra_space2"}
    for run in _runs(output):
        spec = json.loads((run / "run_spec.json").read_text())
        model, task = spec["adapter_spec"]["model"], re.sub(r"model=[^,]*,?", "", spec["name"]).rstrip(":")
        rows = table[(table.model == model) & (table.task == task)]
        right = _answered_right(json.loads((run / "scenario_state.json").read_text()))
        for metric, perturbed in (("exact_match", False), (EXTRA_SPACE, True)):
            scores = rows[rows.metric == metric]
            if "data_augmentation" not in task and perturbed:
                assert scores.empty
                continue
            assert len(scores) == sum(p == perturbed for *_, p in right) > 0
            assert all(right[i, r, perturbed] == s for i, r, s in zip(scores.item, scores.run, scores.score))
            stats = json.loads((run / "stats.json").read_text())
            reported = next(s["mean"] for s in stats if s["name"]["name"] == "exact_match"
                            and s["name"]["split"] == "test" and (s["name"].get("perturbation") or {}).get(
                                "computed_on") == ("perturbed" if perturbed else None))
            assert scores.score.mean() == pytest.approx(reported, abs=1e-12)
    trials = table[(table.task == "simple_mcqa") & (table.metric == "exact_match")]
    assert set(trials.run) == {1, 2, 3} and trials.groupby("model").item.nunique().eq(79).all()


def _reported(run: Path, perturbation: dict | None) -> float:
    return next(s["mean"] for s in json.loads((run / "stats.json").read_text()) if s["name"]["name"] == "exact_match"
                and s["name"]["split"] == "test" and s["name"].get("perturbation") == perturbation)


def test_helm_s_worst_case_over_perturbations_is_each_instance_s_worse_answer_and_its_mean_helm_s(output):
    table = tidy.from_logs([output])
    assert set(table[table.metric == WORST].task) == {AUGMENTED}  # only where a run has robustness perturbations
    assert not table.metric.str.contains("fairness").any()  # the fixture has no fairness perturbation
    robustness = {"name": "robustness", "robustness": True, "fairness": False, "computed_on": "worst"}
    means = {}
    for run in _runs(output):
        if "data_augmentation" not in run.name:
            continue
        model = json.loads((run / "run_spec.json").read_text())["adapter_spec"]["model"]
        right = _answered_right(json.loads((run / "scenario_state.json").read_text()))
        worst = table[(table.model == model) & (table.metric == WORST)]
        expected = {i: min(s for (j, _, _), s in right.items() if j == i) for i, _, _ in right}
        assert len(worst) == len(expected) == 79 and set(worst.run) == {1}
        assert all(expected[i] == s for i, s in zip(worst.item, worst.score))
        means[model] = worst.score.mean()
        assert means[model] == pytest.approx(_reported(run, robustness), abs=1e-12)
        both = table[(table.model == model) & table.metric.isin(["exact_match", EXTRA_SPACE])]
        assert means[model] <= both.groupby("metric").score.mean().min()  # no better than either copy
    assert means == pytest.approx({"toy/careful": 0.7721519, "toy/hasty": 0.5443038, "toy/coin": 0.2658228}, abs=1e-7)
    board = leaderboard.from_table(table, metric=WORST)
    assert board.tasks == (AUGMENTED,) and set(board.models) == MODELS


def test_a_fairness_perturbation_has_its_own_worst_case_and_a_wrong_worst_case_mean_is_told(output, tmp_path):
    out = _copy(output, tmp_path)
    run = out / "runs" / "toy" / "simple_mcqa:model=toy_coin,data_augmentation=extra_space2"
    stats = json.loads((run / "stats.json").read_text())
    for stat in stats:  # HELM's robustness worst case, edited
        if stat["name"]["name"] == "exact_match" and stat["name"].get("perturbation", {}).get("name") == "robustness":
            stat["mean"] = 0.3
    (run / "stats.json").write_text(json.dumps(stats))
    with pytest.raises(InputError, match=r"exact_match\[robustness worst\] averages 0.265823 .* HELM reports 0.3"):
        tidy.from_logs([out])
    before = tidy.from_logs([output]).query("model == 'toy/coin'")
    entries = json.loads((run / "per_instance_stats.json").read_text())
    for entry in entries:  # the same perturbation, told as a fairness one (HELM's dialect or gender kind)
        if entry.get("perturbation"):
            entry["perturbation"].update(robustness=False, fairness=True)
    (run / "per_instance_stats.json").write_text(json.dumps(entries))
    (run / "stats.json").unlink()
    after = tidy.from_logs([out]).query("model == 'toy/coin'")
    assert not (after.metric == WORST).any()
    fair = after[after.metric == "exact_match[fairness worst]"].reset_index(drop=True)
    assert fair.drop(columns="metric").equals(before[before.metric == WORST].drop(columns="metric")
                                              .reset_index(drop=True))


def test_the_board_pairs_the_models_by_instance_and_reads_trials_as_runs(output):
    board = leaderboard.from_table(tidy.from_logs([output]), metric="exact_match")
    assert set(board.models) == MODELS and board.epochs is not None
    res = leaderboard.bootstrap(board, n_resamples=200, seed=0)
    table = tidy.from_logs([output])
    for m, model in enumerate(board.models):  # the aggregate: the mean of the three tasks' scores
        means = table[(table.model == model) & (table.metric == "exact_match")].groupby("task").score.mean()
        assert res.aggregate[m] == pytest.approx(means.mean(), abs=1e-12)
    perturbed = leaderboard.from_table(table, metric=EXTRA_SPACE)  # the perturbed copies: a metric of their own
    assert perturbed.tasks == ("simple_mcqa:data_augmentation=extra_space2",)


def test_an_upload_s_zip_is_read_as_the_folder_is(output):
    uploaded = tidy.from_files([("benchmark_output.zip", ZIP.read_bytes())])
    on_disk = tidy.from_logs([output])
    key = ["model", "task", "metric", "item", "run"]
    assert uploaded.sort_values(key).reset_index(drop=True).equals(on_disk.sort_values(key).reset_index(drop=True))
    assert len(helm_run.run_folders(output)) == 9 and tidy.is_log(output) and not helm_run.is_folder(ZIP.parent)
    one = tidy.from_logs([_runs(output)[0]])  # one run folder, and a suite's folder, alike
    assert one.model.nunique() == 1 and len(tidy.from_logs([output / "runs" / "toy"])) == len(on_disk)


def _copy(output: Path, tmp_path: Path) -> Path:
    out = tmp_path / "benchmark_output"
    shutil.copytree(output, out)
    return out


@pytest.mark.slow  # reads a HELM output folder a dozen times
def test_every_defect_of_a_run_folder_is_told_with_its_file(output, tmp_path):
    out = _copy(output, tmp_path)
    run = out / "runs" / "toy" / "simple_classification:model=toy_coin"
    stats = json.loads((run / "per_instance_stats.json").read_text())
    stats[0]["stats"] = [dict(s, sum=1 - s["sum"]) if s["name"]["name"] == "exact_match" else s
                         for s in stats[0]["stats"]]  # one answer changed: the mean no longer what HELM reports
    (run / "per_instance_stats.json").write_text(json.dumps(stats))
    with pytest.raises(InputError, match="exact_match averages 0.59.* over its instances, but HELM reports 0.58") as e:
        tidy.from_logs([out])
    assert e.value.file.endswith("simple_classification:model=toy_coin/stats.json")
    (run / "stats.json").unlink()  # without stats.json nothing to check against: read as it is
    assert len(tidy.from_logs([out])) > 0
    cases = [("per_instance_stats.json", "{", "is not valid JSON"),
             ("per_instance_stats.json", '{"a": 1}', "is not HELM's per-instance stats"),
             ("per_instance_stats.json", '[{"instance_id": "id1", "stats": []}]',
              "instance 1: field train_trial_index is missing"),
             ("per_instance_stats.json", '[{"instance_id": "a", "instance_id": "b"}]',
              'has the key "instance_id" twice'),
             ("run_spec.json", '{"name": "x"}', "field adapter_spec is missing"),
             ("stats.json", "[" * 100_000, "nest")]  # deeper than any parser's stack: refused, no traceback
    for name, text, message in cases:
        bad = _copy(output, tmp_path / name.replace(".", "_") / str(len(text)))
        target = bad / "runs" / "toy" / "simple_mcqa:model=toy_hasty" / name
        target.write_text(text)
        with pytest.raises(InputError, match=message) as e:
            tidy.from_logs([bad])
        assert e.value.file.endswith(f"simple_mcqa:model=toy_hasty/{name}")
    (run / "run_spec.json").unlink()
    with pytest.raises(InputError, match="has no run_spec.json beside it"):
        tidy.from_logs([out])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="holds no results_"):  # neither lm-eval's nor HELM's
        tidy.from_logs([tmp_path / "empty"])


@pytest.mark.slow  # reads a HELM output folder five times
def test_a_model_run_twice_a_model_without_a_task_and_another_split_are_each_said(output, tmp_path):
    out = _copy(output, tmp_path)
    shutil.copytree(out / "runs" / "toy", out / "runs" / "again")  # a second suite of the same runs
    with pytest.raises(InputError, match="model 'toy/careful' has task 'simple_classification' twice"):
        tidy.from_logs([out])
    shutil.rmtree(out / "runs" / "again")
    shutil.rmtree(out / "runs" / "toy" / "simple_mcqa:model=toy_coin")
    with pytest.raises(InputError, match="model 'toy/coin' has no scores on task 'simple_mcqa'"):
        leaderboard.from_table(tidy.from_logs([out]), metric="exact_match")
    run = out / "runs" / "toy" / "simple_classification:model=toy_coin"
    stats = json.loads((run / "per_instance_stats.json").read_text())
    for entry in stats[:5]:  # five instances of the valid split
        entry["stats"] = [dict(s, name=dict(s["name"], split="valid")) for s in entry["stats"]]
    (run / "per_instance_stats.json").write_text(json.dumps(stats))
    (run / "stats.json").unlink()
    table = tidy.from_logs([out])
    assert "simple_classification: HELM's valid split (5 instances) left out; the test split compared" \
        in table.attrs["notes"]
    assert table[(table.model == "toy/coin") & (table.task == "simple_classification")].item.nunique() == 74
    for entry in stats[1:5]:  # one valid instance, as in a real run of 10 (every_eval_ever's mmlu philosophy, gpt2)
        entry["stats"] = [dict(s, name=dict(s["name"], split="test")) for s in entry["stats"]]
    (run / "per_instance_stats.json").write_text(json.dumps(stats))
    assert "simple_classification: HELM's valid split (1 instance) left out; the test split compared" \
        in tidy.from_logs([out]).attrs["notes"]


def test_a_run_with_only_a_valid_split_is_compared_on_it_and_checked_against_its_stats(output, tmp_path):
    """HellaSwag's runs have no test split: HELM reports the valid one. It is compared, said so, and each mean checked
    against stats.json's for that split, as the test split's are."""
    out = _copy(output, tmp_path)
    run = out / "runs" / "toy" / "simple_classification:model=toy_coin"
    for file in ("per_instance_stats.json", "stats.json"):
        entries = json.loads((run / file).read_text())
        for entry in entries if file == "stats.json" else [s for e in entries for s in e["stats"]]:
            entry["name"] = dict(entry["name"], split="valid")
        (run / file).write_text(json.dumps(entries))
    table = tidy.from_logs([out])
    assert "simple_classification: HELM's valid split compared (the run has no test split; HELM reports this one)" \
        in table.attrs["notes"]
    scores = table[(table.model == "toy/coin") & (table.task == "simple_classification")]
    stats = json.loads((run / "stats.json").read_text())
    reported = next(s["mean"] for s in stats
                    if s["name"]["name"] == "exact_match" and not s["name"].get("perturbation"))
    assert scores[scores.metric == "exact_match"].score.mean() == pytest.approx(reported, rel=1e-12)
    for s in stats:  # a valid split's mean that its instances do not give is refused, as a test split's is
        if s["name"]["name"] == "exact_match" and not s["name"].get("perturbation"):
            s["mean"] += 0.1
    (run / "stats.json").write_text(json.dumps(stats))
    with pytest.raises(InputError, match="exact_match averages .* but HELM reports"):
        tidy.from_logs([out])


def test_many_and_convert_read_helm_s_runs(output, tmp_path, capsys):
    assert main(["many", str(output), "--metric", "exact_match", "--resamples", "200"]) == 0
    printed = capsys.readouterr().out
    assert "exact_match of 3 models on 3 tasks (items: simple_classification 79, simple_mcqa 79" in printed
    assert main(["convert", str(output), "--out", str(tmp_path / "helm.parquet")]) == 0
    assert "3 models on 3 tasks" in capsys.readouterr().out
    converted = tidy.read_table(tmp_path / "helm.parquet")
    assert np.isclose(converted[converted.metric == "exact_match"].score.mean(),
                      tidy.from_logs([output]).query("metric == 'exact_match'").score.mean())
    assert main(["many", str(output)]) == 2  # 75 stats (25, perturbed, worst case): which one is not guessed
    assert "the table holds 75 metrics: say which one" in capsys.readouterr().err


def test_the_many_tasks_page_reads_helm_s_benchmark_output_zipped():
    from helpers.many_page import board_with, page, run_tasks, upload

    at = upload(page("Many tasks"), ("benchmark_output.zip", ZIP.read_bytes()))
    assert "Choose at least one of the 75 metrics, then press Run." in [i.value for i in at.info]
    at.multiselect[0].set_value(["exact_match"])
    at = run_tasks(at)
    assert not at.error
    shown = board_with(at, "rank").set_index("model")
    board = leaderboard.from_table(tidy.from_files([("b.zip", ZIP.read_bytes())]), metric="exact_match")
    expected = leaderboard.bootstrap(board, n_resamples=2_000, per_task=True).table(board.models[0]).set_index("model")
    assert shown.index.tolist() == expected.index.tolist() == ["toy/careful", "toy/hasty", "toy/coin"]
    assert shown.p.tolist()[1:] == [f"{p:.4g}" if p else "< 0.0005" for p in expected.p_value.tolist()[1:]]


def test_compare_takes_two_run_folders_of_one_scenario(output, capsys):
    import sigcore

    careful, hasty = (output / "runs" / "toy" / f"simple_mcqa:model=toy_{m}" for m in ("careful", "hasty"))
    assert main(["compare", str(careful), str(hasty), "--metric", "exact_match", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    table = tidy.from_logs([output]).query("task == 'simple_mcqa' and metric == 'exact_match'")
    means = table.groupby(["model", "item"]).score.mean()  # the three trials of an instance averaged
    ids = sorted(means["toy/careful"].index)
    expected = sigcore.compare(None, means["toy/careful"][ids].tolist(), means["toy/hasty"][ids].tolist(),
                               metric="mean", test=got["test"])
    assert (got["p_value"], got["delta"], got["n_items"]) == pytest.approx((expected.p_value, expected.delta, 79))
    assert "A = toy/careful (" in " ".join(got["roles"])
    assert main(["compare", str(careful), str(hasty)]) == 2  # 25 stats: which one is the user's to say
    assert "say which of the runs' 25 per-instance stats to compare with --metric" in capsys.readouterr().err
    other = output / "runs" / "toy" / "simple_classification:model=toy_hasty"
    assert main(["compare", str(careful), str(other), "--metric", "exact_match"]) == 2
    assert "is a run of 'simple_classification'" in capsys.readouterr().err
