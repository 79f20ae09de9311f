"""The tidy long table (sigcore.logs.tidy, `sigcore convert`): every log's scores as model, task, item, run, metric,
score, in CSV and Parquet alike, with each model's mean what its tool reported."""

import shutil
from pathlib import Path

import pandas as pd
import pytest

from sigcore.__main__ import main
from sigcore.io import inspect_log
from sigcore.logs import long, tidy

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
    assert tuple(table.columns) == (*long.COLUMNS, "metadata.passage") and len(table) == 2 * 40 * 3 * 2
    from_csv = pd.read_csv(csv, dtype={"item": str})
    assert from_csv.astype(str).equals(table.astype(str))
    for log in ("alpha.eval", "beta.eval"):
        head = inspect_log.header((LOGS / log).read_bytes(), log)
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


@pytest.mark.parametrize("batch", [64, 1 << 18])
def test_parquet_is_read_batch_by_batch_as_arrow_reads_it_whole(tmp_path, monkeypatch, batch):
    """read_table decodes a batch of rows at a time into the pandas arrays, the row groups after the first on other
    threads: the frame Arrow gives for the whole file with its dictionaries unified, codes and categories alike,
    where row groups have dictionaries of their own (text, not categoricals: each group's values in its order),
    where a later group brings more values than int8 codes hold, with missing text, a number missing in a late row
    group (read as to_pandas reads it), an index column and an empty first row group."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    monkeypatch.setattr(tidy, "_BATCH", batch)
    monkeypatch.setattr(tidy, "_RUN", 700)  # row groups read two at a time, by whichever thread is free
    rng = np.random.default_rng(0)
    n = 3000
    items = [f"i{k % 20}" if k < 1000 else f"j{k // 4}" for k in range(n)]  # 20 values first, 520 in all
    items[5] = items[2500] = None
    frame = pd.DataFrame({"model": pd.Categorical(rng.choice(["m2", "m1"], n)), "task": rng.choice(["b", "a"], n),
                          "item": items, "run": rng.integers(1, 4, n), "score": rng.random(n),
                          "late": np.where(np.arange(n) == 2900, np.nan, 1.0)})
    files = {"groups": (frame, {"row_group_size": 400, "index": False}),
             "index": (frame.set_index("task"), {"row_group_size": 500})}
    for name, (f, options) in files.items():
        path = tmp_path / f"{name}.parquet"
        f.to_parquet(path, **options)
        schema = pq.read_schema(path)
        text = [c for c in schema.names if pa.types.is_string(schema.field(c).type)
                or pa.types.is_large_string(schema.field(c).type)]
        whole = pq.read_table(path, read_dictionary=text).unify_dictionaries()  # Arrow's unifier, the whole file
        recoded, as_before = [], []
        monkeypatch.setattr(tidy._Gathered, "recode", lambda self, *a, f=tidy._Gathered.recode, seen=recoded:
                            seen.append(1) or f(self, *a))
        monkeypatch.setattr(tidy, "_column", lambda t, f=tidy._column, seen=as_before:
                            seen.append(t.column_names[0]) or f(t))
        mine = tidy.read_table(path)
        assert as_before == ["late"] and recoded  # only the missing number read as before
        monkeypatch.undo()
        monkeypatch.setattr(tidy, "_BATCH", batch)
        monkeypatch.setattr(tidy, "_RUN", 700)
        mine = mine.reset_index() if name == "index" else mine
        assert sorted(mine.columns) == sorted(whole.column_names)
        for c in whole.column_names:
            column = whole.column(c).combine_chunks()
            if pa.types.is_dictionary(column.type):
                assert list(mine[c].cat.categories) == column.dictionary.to_pylist()
                assert np.array_equal(mine[c].array.codes, column.indices.fill_null(-1).to_numpy())
                assert mine[c].array.codes.dtype == (np.int8 if len(column.dictionary) < 127 else np.int16)
            else:
                assert np.array_equal(mine[c].to_numpy(), column.to_numpy(zero_copy_only=False), equal_nan=True)
    assert tidy.read_table(tmp_path / "groups.parquet")["item"].array.codes.dtype == np.int16
    none = pa.record_batch({"model": pa.array([], pa.string()), "score": pa.array([], pa.float64())})
    empty_first = pa.Table.from_batches([none, pa.record_batch({"model": ["a", "b"], "score": [1.0, 2.0]})])
    pq.write_table(empty_first, tmp_path / "empty.parquet", row_group_size=2)
    assert tidy.read_table(tmp_path / "empty.parquet")["model"].astype(str).tolist() == ["a", "b"]
