"""lm-evaluation-harness output folders (sigcore.logs.lm_eval_folder), read as the harness wrote them
(sample_data/lm_eval_suite, by sample_data/make_lm_eval_suite.py with lm-eval 0.4.13 itself): every task's mean is
the score its results file reports, the group averaged as lm-eval averaged it, and the board's aggregate the mean
of the numbers lm-eval reports, computed here from the results files alone."""

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigcore import leaderboard
from sigcore.__main__ import main
from sigcore.errors import InputError
from sigcore.leaderboard.board import task_shares
from sigcore.logs import lm_eval_folder, tidy

SUITE = Path(__file__).resolve().parents[1] / "sample_data" / "lm_eval_suite"
MODELS = ("alpha", "beta", "gamma", "delta")


def _results(model: str, folder: Path = SUITE) -> dict:
    return json.loads(next((folder / model).glob("results_*.json")).read_text())


def test_every_task_s_mean_is_what_lm_eval_reports():
    table = tidy.from_logs([SUITE])
    assert set(table.model) == set(MODELS)
    assert set(table.task) == {"arith", "quiz_history", "quiz_science", "echo"}  # the group by its subtasks
    for model in MODELS:
        reported = _results(model)["results"]
        for (task, metric), rows in table[table.model == model].groupby(["task", "metric"]):
            name, _, filt = metric.partition("[")
            assert rows.score.mean() == pytest.approx(reported[task][f"{name},{filt.rstrip(']') or 'none'}"],
                                                      abs=1e-12)
            assert len(rows) == reported[task]["sample_len"] and rows.item.is_unique
    quiz = table[table.task.str.startswith("quiz")]
    assert set(quiz.group) == {"quiz"} and set(quiz.group_weight) == {"items"}
    assert set(table[~table.task.str.startswith("quiz")].group) == {""}
    assert any("echo: lm-eval ran each document 3 times" in n for n in table.attrs["notes"])


def test_the_aggregate_is_the_mean_of_lm_eval_s_reported_scores():
    board = leaderboard.from_table(tidy.from_logs([SUITE]), metric=["acc", "exact_match[maj@3]"])
    assert board.groups == {"quiz": (("quiz_history", "quiz_science"), "items")}
    res = leaderboard.bootstrap(board, n_resamples=10)
    for model in MODELS:
        head = _results(model)
        expected = np.mean([head["results"]["arith"]["acc,none"], head["groups"]["quiz"]["acc,none"],
                            head["results"]["echo"]["exact_match,maj@3"]])  # quiz counts once, as one task
        assert res.aggregate[board.models.index(model)] == pytest.approx(expected, abs=1e-12)
    items = leaderboard.bootstrap(board, n_resamples=10, weight="items")
    assert items.aggregate == pytest.approx(  # every item once, the group or not
        [np.mean(np.concatenate([board.scores[t][:, m] for t in board.tasks])) for m in range(len(MODELS))])


def _copy(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(SUITE, out)
    return out


def test_a_group_averaged_over_its_tasks_is_read_so(tmp_path):
    out = _copy(tmp_path)
    for model in MODELS:  # as lm-eval writes a group with weight_by_size: false
        path = next((out / model).glob("results_*.json"))
        head = json.loads(path.read_text())
        for key in ("acc,none", "acc_norm,none"):
            head["groups"]["quiz"][key] = np.mean([head["results"][t][key] for t in ("quiz_history", "quiz_science")])
        path.write_text(json.dumps(head))
    table = tidy.from_logs([out])
    assert set(table[table.group == "quiz"].group_weight) == {"tasks"}
    board = leaderboard.from_table(table, metric="acc")
    weights = task_shares(board, "tasks")
    assert dict(zip(board.tasks, weights)) == pytest.approx({"arith": 1 / 2, "quiz_history": 1 / 4,
                                                             "quiz_science": 1 / 4})
    head["groups"]["quiz"]["acc,none"] = 0.123  # neither way: refused, not guessed
    path.write_text(json.dumps(head))
    with pytest.raises(InputError, match="group 'quiz'.s score is neither the mean of its tasks' items nor"):
        tidy.from_logs([out])


def test_a_folder_that_lacks_a_samples_file_or_disagrees_with_its_results_is_refused(tmp_path):
    out = _copy(tmp_path)
    next((out / "beta").glob("samples_echo_*")).unlink()
    with pytest.raises(InputError, match="lists task 'echo' but its samples file samples_echo_.*jsonl is not "
                                         "beside it") as e:
        tidy.from_logs([out])
    assert "beta/results_" in str(e.value) and "--log_samples" in e.value.hint
    out = _copy(tmp_path / "again")
    path = next((out / "gamma").glob("results_*.json"))
    head = json.loads(path.read_text())
    head["results"]["arith"]["acc,none"] = 0.5
    path.write_text(json.dumps(head))
    with pytest.raises(InputError, match="task arith's acc averages 0.758333 over its documents, but lm-eval "
                                         "reports 0.5"):
        tidy.from_logs([out])
    with pytest.raises(InputError, match="holds no results_"):
        lm_eval_folder.read(tmp_path)


def test_a_table_s_group_must_say_how_it_averages_and_a_task_without_the_metric_is_left_out():
    table = tidy.from_logs([SUITE])
    with pytest.raises(InputError, match="group 'quiz' does not say how it averages its tasks"):
        leaderboard.from_table(table.drop(columns="group_weight"), metric="acc")
    board = leaderboard.from_table(table, metric="acc")
    assert board.tasks == ("arith", "quiz_history", "quiz_science")
    assert "task echo: none of the metric acc: left out" in board.notes


def test_many_and_convert_read_the_output_folder(tmp_path, capsys):
    metric = ["--metric", "acc", "exact_match[maj@3]", "--resamples", "500", "--csv"]
    assert main(["many", str(SUITE), *metric]) == 0
    printed = capsys.readouterr()
    assert "note: quiz: the mean of its tasks' items (weighted by size) (quiz_history, quiz_science), as lm-eval " \
           "reports it" in printed.err
    assert "each task's metric: arith acc, quiz_history acc, quiz_science acc, echo exact_match[maj@3]" in printed.err
    assert main(["convert", str(SUITE), "--out", str(tmp_path / "suite.csv")]) == 0
    said = capsys.readouterr().err.splitlines()  # convert says what its readers noted, as many does
    assert said == [line for line in printed.err.splitlines() if line.startswith("note: ")
                    and "each task's metric" not in line]  # (the board's choice, not the reader's)
    assert main(["many", str(tmp_path / "suite.csv"), *metric]) == 0  # the table keeps the group and its weight
    again = capsys.readouterr().out
    assert pd.read_csv(pd.io.common.StringIO(again)).equals(pd.read_csv(pd.io.common.StringIO(printed.out)))


def test_all_pairs_on_tasks_are_each_pair_s_delta_corrected_over_the_pairs(capsys):
    from statsmodels.stats.multitest import multipletests

    res = leaderboard.bootstrap(leaderboard.from_table(tidy.from_logs([SUITE]), metric="acc"), n_resamples=2_000)
    pairs = res.pairs(0.05, "holm")
    order = list(res.table("alpha").model)
    assert [(r.model, r.other) for r in pairs.itertuples()] == [(a, b) for i, a in enumerate(order)
                                                              for b in order[i + 1:]]
    for r in pairs.itertuples():
        assert (r.delta, r.delta_low, r.delta_high, r.p_value) == res.delta(r.model, r.other)
    floored = np.maximum(pairs.p_value, 1 / 2_000)  # a p no resample reached is at most 1/b
    assert pairs.p_corrected.tolist() == pytest.approx(multipletests(floored, method="holm")[1].tolist())
    groups = res.groups()  # a line between groups only where every pair across it is significant
    for r in pairs.itertuples():
        if groups[r.model] != groups[r.other]:
            assert r.p_corrected <= 0.05 and r.delta > 0
    assert main(["many", str(SUITE), "--metric", "acc", "--all-pairs", "--resamples", "2000", "--csv"]) == 0
    printed = pd.read_csv(pd.io.common.StringIO(capsys.readouterr().out))
    assert printed.p_corrected.tolist() == pytest.approx(pairs.p_corrected.tolist())
    assert main(["many", str(SUITE), "--metric", "acc", "--all-pairs", "--resamples", "2000"]) == 0
    text = capsys.readouterr().out
    assert "every pair, two-sided, Holm over 6" in text and "gamma  beta   +0.0583" in text


# lm-eval 0.4.9 as it writes an output folder, in the shape of a real one: every_eval_ever's tests/data/lm_eval
# (github.com/evaleval/every_eval_ever, MIT; lm_eval_version 0.4.9.2, a 93M Qwen3 on math_perturbed_full and
# math_rephrased_full). Its group_subtasks lists every plain task with no subtasks ({"math_perturbed_full": []}), which
# sigcore took for groups (the folder was refused: "holds no results_*.json with tasks"), and it commits 10 of the
# task's 5,000 documents, all wrong, which average to the reported 0.0 and passed as the run.

STAMP = "2026-01-21T03-44-18.458309"


def _v049(folder: Path, model: str, scores: list[float], effective: int | None = None) -> None:
    """A model's output folder as lm-eval 0.4.9 writes it: one generation task, exact_match per document."""
    (folder / model).mkdir(parents=True)
    arguments = {"gen_args_0": {"arg_0": "Problem: What is {i} + 1?\n\nSolution:",
                                "arg_1": {"until": ["Problem:"], "do_sample": False}}}
    lines = [{"doc_id": i, "doc": {"idx": i, "problem": f"What is {i} + 1?", "answer": str(i + 1)},
              "target": str(i + 1), "arguments": arguments,
              "resps": [[f" {i + 1 if s else i}"]], "filtered_resps": [f" {i + 1 if s else i}"], "filter": "none",
              "metrics": ["exact_match"], "doc_hash": "d", "prompt_hash": "p", "target_hash": "t", "exact_match": s}
             for i, s in enumerate(scores)]
    (folder / model / f"samples_math_perturbed_full_{STAMP}.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines))
    head = {"results": {"math_perturbed_full": {"alias": "math_perturbed_full",
                                                "exact_match,none": sum(scores) / len(scores),
                                                "exact_match_stderr,none": 0.0}},
            "group_subtasks": {"math_perturbed_full": []},
            "configs": {"math_perturbed_full": {"task": "math_perturbed_full", "output_type": "generate_until",
                                                "repeats": 1, "metric_list": [{"metric": "exact_match"}]}},
            "n-samples": {"math_perturbed_full": {"original": effective or len(scores),
                                                  "effective": effective or len(scores)}},
            "lm_eval_version": "0.4.9.2", "model_name": f"org/{model}", "model_name_sanitized": f"org__{model}"}
    (folder / model / f"results_{STAMP}.json").write_text(json.dumps(head))


def test_lm_eval_0_4_9_lists_plain_tasks_among_its_groups(tmp_path, capsys):
    _v049(tmp_path, "small", [0.0] * 7 + [1.0] * 3)
    _v049(tmp_path, "large", [0.0] * 2 + [1.0] * 8)
    table = tidy.from_logs([tmp_path])
    assert set(table.task) == {"math_perturbed_full"} and set(table.group) == set(table.group_weight) == {""}
    assert table.groupby("model").score.mean().to_dict() == {"org/large": 0.8, "org/small": 0.3}
    assert main(["many", str(tmp_path), "--metric", "exact_match", "--resamples", "200"]) == 0
    assert "exact_match of 2 models on 1 task (items: math_perturbed_full 10)" in capsys.readouterr().out


def test_a_samples_file_trimmed_of_documents_is_refused_though_its_mean_agrees(tmp_path):
    _v049(tmp_path, "small", [0.0] * 10, effective=5000)
    with pytest.raises(InputError, match=r"small/samples_math_perturbed_full_.*\.jsonl: task math_perturbed_full's "
                                         r"samples file holds 10 documents, but lm-eval scored 5000 \(n-samples in "
                                         r"the results file\)\. Give the samples file as lm_eval --log_samples"):
        tidy.from_logs([tmp_path])


def test_an_acc_outside_0_to_1_in_a_folder_is_read_with_a_note(tmp_path):
    """A samples file whose acc is 5 (and its results file saying so): read as given, with a note in the table's
    notes, where `sigcore many` and the Many tasks page show them."""
    import gzip

    out = _copy(tmp_path)
    samples = next((out / "beta").glob("samples_arith_*"))
    records = [json.loads(line) for line in gzip.decompress(samples.read_bytes()).decode().splitlines()]
    records[6]["acc"] = 5.0
    samples.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    path = next((out / "beta").glob("results_*.json"))
    head = json.loads(path.read_text())
    head["results"]["arith"]["acc,none"] = float(np.mean([r["acc"] for r in records]))
    path.write_text(json.dumps(head))
    table = tidy.from_logs([out])
    assert table[(table.model == "beta") & (table.task == "arith") & (table.metric == "acc")].score.max() == 5
    assert [n for n in table.attrs["notes"] if "lies in 0..1" in n] == [
        f"{samples.relative_to(out).as_posix()}: acc is 5 on line 7, where lm-eval's acc lies in 0..1 (right 1, "
        "wrong 0): these may not be its scores; they are compared as given"]


def test_a_results_file_given_alone_is_named_for_what_it_is(tmp_path, capsys):
    """lm-eval's results_<date>.json holds totals only: compare, many and the reader say so and what to give,
    not the generic message for a JSON table."""
    files = [str(next((SUITE / m).glob("results_*.json"))) for m in MODELS[:2]]
    for command in (["compare", *files], ["many", *files], ["many", files[0]]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "this is lm-evaluation-harness's results file: it holds only totals" in err, err
        assert "--log_samples and give its output folder" in err and "array of objects" not in err


def test_a_helm_run_file_given_alone_asks_for_its_run_folder(tmp_path, capsys):
    import zipfile

    with zipfile.ZipFile(Path(__file__).resolve().parent / "data" / "helm" / "benchmark_output.zip") as z:
        z.extractall(tmp_path)
    runs = sorted((tmp_path / "benchmark_output" / "runs").glob("*/*"))[:2]
    for name in ("run_spec.json", "stats.json", "per_instance_stats.json", "scenario.json", "scenario_state.json"):
        assert main(["compare", *(str(run / name) for run in runs)]) == 2
        err = capsys.readouterr().err
        assert "this is one file of a HELM run folder" in err and "Give the run folder itself" in err, (name, err)
