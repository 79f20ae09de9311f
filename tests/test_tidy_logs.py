"""The tidy long table (sigcore.logs.tidy, `sigcore convert`): every log's scores as model, task, item, run, metric,
score, in CSV and Parquet alike, with each model's mean what its tool reported."""

import shutil
from pathlib import Path

import pandas as pd
import pytest

from sigcore.__main__ import main
from sigcore.logs import inspect_eval, tidy

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "data" / "inspect"
LM_EVAL = ROOT / "sample_data" / "lm_eval"


def test_inspect_logs_convert_to_one_table_in_csv_and_parquet(tmp_path, capsys):
    parquet, csv = tmp_path / "scores.parquet", tmp_path / "scores.csv"
    for out in (parquet, csv):
        assert main(["convert", str(LOGS / "alpha.eval"), str(LOGS / "beta.json.gz"), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "480 scores of 2 models on 1 task (80 items over the models' tasks), metrics match, includes" in said
    table = pd.read_parquet(parquet)
    assert tuple(table.columns) == (*tidy.COLUMNS, "metadata.passage") and len(table) == 2 * 40 * 3 * 2
    from_csv = pd.read_csv(csv, dtype={"item": str})
    assert from_csv.astype(str).equals(table.astype(str))
    for log in ("alpha.eval", "beta.eval"):
        head = inspect_eval.header((LOGS / log).read_bytes(), log)
        for score in head["results"]["scores"]:
            rows = table[(table.model == head["model"]) & (table.metric == score["name"])]
            assert len(rows) == 120 and set(rows.run) == {1, 2, 3} and rows.item.nunique() == 40
            assert rows.score.mean() == pytest.approx(score["metrics"]["accuracy"]["value"], abs=1e-12)


def test_lm_eval_files_where_the_harness_writes_them(tmp_path, capsys):
    for model in ("model-a", "model-b"):
        (tmp_path / model).mkdir()
        shutil.copy(LM_EVAL / f"samples_arc_easy_{model}.jsonl",
                    tmp_path / model / "samples_arc_easy_2024-05-01T12-00-00.123456.jsonl")
    files = sorted(str(p) for p in tmp_path.glob("*/*.jsonl"))
    table = tidy.from_logs(files)
    assert set(table.model) == {"model-a", "model-b"} and set(table.task) == {"arc_easy"}
    assert set(table.run) == {1} and "acc" in set(table.metric)
    samples = pd.read_json(LM_EVAL / "samples_arc_easy_model-a.jsonl", lines=True)
    acc = table[(table.model == "model-a") & (table.metric == "acc")]
    assert acc.score.tolist() == samples["acc"].astype(float).tolist()
    assert acc.item.tolist() == samples["doc_id"].astype(str).tolist()
    # a file whose name and folder do not say its task and model: not guessed
    assert main(["convert", str(LM_EVAL / "samples_arc_easy_model-a.jsonl"), "--out", str(tmp_path / "t.csv")]) == 2
    assert "its name and folder do not say its task and model" in capsys.readouterr().err


def test_a_log_given_twice_or_a_wrong_output_is_refused(tmp_path, capsys):
    assert main(["convert", str(LOGS / "beta.eval"), str(LOGS / "beta.json.gz"), "--out", str(tmp_path / "t.csv")]) == 2
    assert "model 'mockllm/beta' has task 'arith' twice" in capsys.readouterr().err
    assert main(["convert", str(LOGS / "beta.eval"), "--out", str(tmp_path / "t.xlsx")]) == 2
    assert "--out must end in .csv or .parquet" in capsys.readouterr().err
    assert main(["convert", str(ROOT / "sample_data" / "slp3_fig4_11.csv"), "--out", str(tmp_path / "t.csv")]) == 2
    assert "is neither an Inspect log nor an lm-evaluation-harness samples file" in capsys.readouterr().err


def test_without_pyarrow_parquet_is_a_clear_error_not_a_traceback(tmp_path, monkeypatch):
    import sys

    import pandas as pd

    from sigcore.errors import SettingsError

    path = tmp_path / "t.parquet"
    pd.DataFrame({"model": ["a"], "task": ["t"], "item": ["1"], "score": [1.0]}).to_parquet(path)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(SettingsError, match="reading Parquet needs pyarrow"):
        tidy.read_table(path)
