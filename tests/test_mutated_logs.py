"""Mutated real logs through every reader (issue 39, 4): the logs the tools wrote (tests/data, sample_data) with a
field deleted, given another kind of value or duplicated, or a byte flipped, are read or refused, and refused only
with a SigcoreError that names the file; never another exception (the command line's exit 3, "failed
unexpectedly"). A mutation of a field the reader does not use reads as the original does; a byte flipped in a
compressed archive is caught by its CRC, or changes nothing.

Each reader's used fields are listed here from its module's docstring (what it reads), not from its code."""

import gzip
import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sigcore.errors import SigcoreError
from sigcore.io.inputs import read
from sigcore.logs import helm_run, lm_eval_folder, tidy

from helpers import bombs

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "data" / "inspect"
SUITE = ROOT / "sample_data" / "lm_eval_suite"
SAMPLES = ROOT / "sample_data" / "lm_eval" / "samples_arc_easy_model-a.jsonl"
HELM = ROOT / "tests" / "data" / "helm" / "benchmark_output.zip"
RUN = "benchmark_output/runs/toy/simple_classification:model=toy_coin/"
SETTINGS = settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                            HealthCheck.data_too_large])
# values of every JSON kind, a field given one of another kind than its own
OTHERS = [None, True, False, 0, -1, 3, 1.5, -0.25, 1e308, "", "x", "1", "NaN", [], [1], ["a", "b"], {}, {"a": 1}]


class _Twice(dict):
    """An object written with one of its keys twice."""
    key = None


def _dumps(value) -> str:
    if isinstance(value, dict):
        pairs = [*value.items(), *([(value.key, value[value.key])] if isinstance(value, _Twice) else [])]
        return "{" + ", ".join(f"{json.dumps(k)}: {_dumps(v)}" for k, v in pairs) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_dumps(v) for v in value) + "]"
    return json.dumps(value)


def _mutated(data, document):
    """A copy of ``document`` with one field (at a path drawn from the root down) deleted, given another kind of
    value, or duplicated (a list's item twice, an object's key twice); and the path, as names ("*" for an item)."""
    document = json.loads(json.dumps(document))
    steps, node, path = [], document, []  # (container, key) from the root down
    while isinstance(node, (dict, list)) and node and data.draw(st.integers(0, 5)) > 0:
        key = data.draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
        steps.append((node, key))
        path.append(str(key) if isinstance(node, dict) else "*")
        node = node[key]
    if not steps:
        return data.draw(st.sampled_from(OTHERS)), ["(the whole)"]
    parent, key = steps[-1]
    operation = data.draw(st.sampled_from(["delete", "retype", "duplicate"]))
    if operation == "delete":
        del parent[key]
    elif operation == "retype":
        parent[key] = data.draw(st.sampled_from([v for v in OTHERS if type(v) is not type(node)]))
    elif isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(node)))
    else:
        twice = _Twice(parent)
        twice.key = key
        if len(steps) == 1:
            return twice, path
        grandparent, above = steps[-2]
        grandparent[above] = twice
    return document, path


def _uses(path: list[str], used: tuple[str, ...]) -> bool:
    """Whether a mutation at ``path`` is in a field the reader uses: a prefix of one of ``used``, or below one."""
    dotted = ".".join(path)
    return any(dotted == u or dotted.startswith(u + ".") or u.startswith(dotted + ".") or dotted == "(the whole)"
               for u in used)


def _same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    return a.reset_index(drop=True).equals(b.reset_index(drop=True)) and a.attrs == b.attrs


def _check(reading, original: pd.DataFrame | None, must_match: bool):
    """Read; a refusal must be a SigcoreError that names the file; a reading must equal ``original`` where the
    mutation cannot change it, and be well formed anyway (finite scores)."""
    try:
        got = reading()
    except SigcoreError as e:
        assert e.file and e.what and "\n" not in str(e), str(e)
        return None
    scores = got["score"] if "score" in got.columns else got.select_dtypes("number")
    assert np.isfinite(np.asarray(scores, dtype=np.float64)).all()
    if must_match:
        assert _same(got, original), "a field the reader does not use changed what it read"
    return got


# --- Inspect ------------------------------------------------------------------------------------------------------

INSPECT_USED = ("eval.model", "eval.task", "eval.config.epochs", "eval.config.epochs_reducer", "status", "results",
                "*.id", "*.epoch", "*.scores", "*.target", "*.metadata", "*.error", "samples")
MEMBERS = bombs.inspect_members()
HEADER, SUMMARIES = json.loads(MEMBERS["header.json"]), json.loads(MEMBERS["summaries.json"])
EVAL_READ = read(bombs.eval_log(), name="run.eval").frame
JSON_LOG = json.loads(gzip.decompress((LOGS / "beta.json.gz").read_bytes()))
JSON_READ = read(json.dumps(JSON_LOG).encode(), name="run.json").frame


@SETTINGS
@given(st.data())
def test_a_mutated_eval_log_is_read_or_refused_with_its_place(data):
    which = data.draw(st.sampled_from(["header.json", "summaries.json"]))
    document, path = _mutated(data, HEADER if which == "header.json" else SUMMARIES)
    text = _dumps(document).encode()
    log = bombs.eval_log(*((text, None) if which == "header.json" else (None, text)))
    used = _uses(path, INSPECT_USED if which == "header.json" else tuple(u for u in INSPECT_USED if u[0] == "*"))
    _check(lambda: read(log, name="run.eval").frame, EVAL_READ, not used)
    _check(lambda: tidy.from_files([("run.eval", log)]), None, False)


@pytest.mark.slow  # hypothesis: hundreds of mutated logs read
@SETTINGS
@given(st.data())
def test_a_mutated_json_log_is_read_or_refused_with_its_place(data):
    document, path = _mutated(data, JSON_LOG)
    path = ["*", *path[2:]] if path[:1] == ["samples"] and len(path) > 1 else path  # a sample's field: *.field
    _check(lambda: read(_dumps(document).encode(), name="run.json").frame, JSON_READ, not _uses(path, INSPECT_USED))


@pytest.mark.slow  # hypothesis: flipped .eval archives read
@SETTINGS
@given(st.data())
def test_an_inspect_log_with_a_byte_flipped_is_refused_or_read_the_same(data):
    name = data.draw(st.sampled_from(["alpha.eval", "beta.eval", "beta.json.gz"]))
    original = (LOGS / name).read_bytes()
    at = data.draw(st.integers(0, len(original) - 1))
    flipped = bytearray(original)
    flipped[at] ^= 1 << data.draw(st.integers(0, 7))
    expected = read(original, name=name).frame
    _check(lambda: read(bytes(flipped), name=name).frame, expected, True)  # CRC-32 of the zip and of gzip


# --- lm-eval ------------------------------------------------------------------------------------------------------

LM_USED = ("*.doc_id", "*.filter", "*.target", "*.filtered_resps", "*.metrics", "*.acc", "*.acc_norm")
RECORDS = [json.loads(line) for line in SAMPLES.read_text().splitlines()]
LM_NAME = "samples_arc_easy_2024-01-01T00-00-00.jsonl"
LM_READ = read(SAMPLES.read_bytes(), name=LM_NAME).frame


@pytest.mark.slow  # hypothesis: mutated samples files read
@SETTINGS
@given(st.data())
def test_a_mutated_lm_eval_samples_file_is_read_or_refused_with_its_place(data):
    k = data.draw(st.integers(0, len(RECORDS) - 1))
    record, path = _mutated(data, RECORDS[k])
    lines = [_dumps(r) for r in RECORDS]
    lines[k] = _dumps(record)
    if data.draw(st.booleans()):  # or a byte of the text flipped
        text = bytearray("\n".join(lines).encode())
        text[data.draw(st.integers(0, len(text) - 1))] ^= 1 << data.draw(st.integers(0, 7))
        _check(lambda: read(bytes(text), name=LM_NAME).frame, None, False)
        return
    # a new top-level number is a metric of its own in a file without "metrics" lists; this one has them
    _check(lambda: read("\n".join(lines).encode(), name=LM_NAME).frame, LM_READ,
           not _uses(["*", *path], LM_USED))


FOLDER = {p.relative_to(SUITE).as_posix(): p.read_bytes() for m in ("alpha", "beta") for p in (SUITE / m).iterdir()}
FOLDER_READ = lm_eval_folder.read_files(FOLDER)
RESULTS_USED = ("model_name", "results", "group_subtasks", "configs", "n-samples", "groups")


@pytest.mark.slow  # hypothesis: mutated output folders read
@SETTINGS
@given(st.data())
def test_a_mutated_lm_eval_folder_is_read_or_refused_with_its_place(data):
    name = data.draw(st.sampled_from(sorted(FOLDER)))
    files = dict(FOLDER)
    if name.endswith(".json"):
        document, path = _mutated(data, json.loads(files[name]))
        files[name] = _dumps(document).encode()
        used = _uses(path, RESULTS_USED)
    else:
        records = [json.loads(line) for line in gzip.decompress(files[name]).decode().splitlines()]
        k = data.draw(st.integers(0, len(records) - 1))
        records[k], path = _mutated(data, records[k])
        files[name] = gzip.compress("\n".join(_dumps(r) for r in records).encode())
        used = _uses(["*", *path], (*LM_USED, "*.exact_match"))
    _check(lambda: lm_eval_folder.read_files(files), FOLDER_READ, not used)


# --- HELM ---------------------------------------------------------------------------------------------------------

with zipfile.ZipFile(HELM) as _z:
    RUN_FILES = {n[len(RUN):]: _z.read(n) for n in _z.namelist() if n.startswith(RUN) and helm_run.is_run_file(n)}
RUN_FILES = {f"run/{n}": d for n, d in RUN_FILES.items()}
HELM_READ = helm_run.read_files(RUN_FILES)
HELM_USED = ("adapter_spec", "name", "*.instance_id", "*.train_trial_index", "*.perturbation", "*.stats")


@pytest.mark.slow  # hypothesis: hundreds of mutated run folders read
@SETTINGS
@given(st.data())
def test_a_mutated_helm_run_is_read_or_refused_with_its_place(data):
    name = data.draw(st.sampled_from(sorted(RUN_FILES)))
    document = json.loads(RUN_FILES[name])
    mutated, path = _mutated(data, document)
    files = {**RUN_FILES, name: _dumps(mutated).encode()}
    path = ["*", *path[1:]] if isinstance(document, list) and path != ["(the whole)"] else path
    used = name.endswith("stats.json") and not name.endswith("per_instance_stats.json") or _uses(path, HELM_USED)
    _check(lambda: helm_run.read_files(files), HELM_READ, not used)


# --- tidy tables and uploads --------------------------------------------------------------------------------------

TABLE = tidy.from_logs([LOGS / "alpha.eval", LOGS / "beta.eval"])
CELLS = ["", "x", "nan", "inf", "-inf", "1e400", "[1]", "-0", "0x10", "1_0", " 1", "\"", "a,b"]


@SETTINGS
@given(st.data())
def test_a_mutated_tidy_table_is_read_or_refused(data):
    from sigcore import leaderboard

    table = TABLE.copy()
    operation = data.draw(st.sampled_from(["cell", "drop", "twice", "flip"]))
    column = data.draw(st.sampled_from(list(table.columns)))
    if operation == "cell":
        table[column] = table[column].astype(object)
        table.loc[data.draw(st.integers(0, len(table) - 1)), column] = data.draw(st.sampled_from(CELLS))
    elif operation == "drop":
        table = table.drop(columns=column)
    elif operation == "twice":
        table = pd.concat([table, table.iloc[[data.draw(st.integers(0, len(table) - 1))]]], ignore_index=True)
    as_parquet = data.draw(st.booleans())
    buffer = io.BytesIO()
    (table.astype({c: str for c in table.columns if table[c].dtype == object}).to_parquet(buffer, index=False)
     if as_parquet else table.to_csv(buffer, index=False))
    raw = bytearray(buffer.getvalue())
    if operation == "flip":
        raw[data.draw(st.integers(0, len(raw) - 1))] ^= 1 << data.draw(st.integers(0, 7))
    name = "scores.parquet" if as_parquet else "scores.csv"
    try:
        frame = tidy.from_files([(name, bytes(raw))])
        leaderboard.from_table(frame, metric="match")
    except SigcoreError as e:
        assert e.what and "\n" not in str(e), str(e)


UPLOAD = io.BytesIO()
with zipfile.ZipFile(UPLOAD, "w", zipfile.ZIP_DEFLATED) as _z:
    for _name in ("alpha.eval", "beta.json.gz"):
        _z.write(LOGS / _name, _name)
UPLOAD = UPLOAD.getvalue()
UPLOAD_READ = tidy.from_files([("logs.zip", UPLOAD)])


@SETTINGS
@given(st.data())
def test_an_uploaded_zip_of_logs_with_a_byte_flipped_is_refused_or_read_the_same(data):
    flipped = bytearray(UPLOAD)
    flipped[data.draw(st.integers(0, len(UPLOAD) - 1))] ^= 1 << data.draw(st.integers(0, 7))
    _check(lambda: tidy.from_files([("logs.zip", bytes(flipped))]), UPLOAD_READ, True)


@pytest.mark.parametrize("column, values, said", [
    ("score", [[0.5], [1.0]], "column 'score' holds list<.*>, not numbers or text"),
    ("item", [b"\x00", b"\x01"], "column 'item' holds binary, not numbers or text"),
])
def test_a_parquet_column_of_lists_or_bytes_is_refused_before_it_is_decoded(column, values, said):
    frame = pd.DataFrame({"model": ["a", "b"], "task": ["t", "t"], "item": ["1", "1"], "score": [0.5, 1.0]})
    frame[column] = values
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    with pytest.raises(SigcoreError, match=said):
        tidy.from_files([("scores.parquet", buffer.getvalue())])
