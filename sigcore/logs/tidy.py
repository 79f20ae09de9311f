"""The tidy long table of evaluation scores: one row per model, task, item, run and metric, with its score (the
shape a user's own pipeline writes, and what every log reader here produces). CSV or Parquet.

==========  ==========================================================================================
``model``   the model (an Inspect log's ``eval.model``; an lm-eval file's folder, named after the model)
``task``    the task (an Inspect log's ``eval.task``; an lm-eval file's task from ``samples_<task>_<date>``)
``item``    the item's id within its task (a sample id, a doc_id), as text
``run``     1, 2, …: an epoch or repeat of the same item (lm-eval logs: 1)
``metric``  the scorer or per-sample metric (``match``, ``acc``); lm-eval's filters as ``acc[strict-match]``
``score``   a number
==========  ==========================================================================================

Items pair across models by (task, item), never by position, their ids by the rule of :mod:`sigcore.io.ids` (the
same number however written, or else the same text).
"""

from __future__ import annotations

import gzip
import io
import re
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

import numpy as np
import pandas as pd

from ..errors import InputError, SettingsError
from ..io import archives, inspect_log
from ..io.decoding import read_bytes
from ..io.ids import merged
from ..io.inputs import is_inspect_log, read
from ..io.sheets import original_cell, table_csv
from .long import COLUMNS, lm_eval_samples, long_rows

__all__ = ["from_log", "from_logs", "from_files", "write", "is_table", "is_log", "read_table", "read_table_bytes"]

_LM_EVAL_NAME = re.compile(r"samples_(?P<task>.+?)_(?P<date>\d{4}-\d\d-\d\dT[\d\-.:]+)$")


def from_log(data: bytes, name: str) -> pd.DataFrame:
    """One log's scores as the long table: an Inspect log (every epoch a run) or an lm-eval samples file where the
    harness writes it, ``MODEL_FOLDER/samples_<task>_<date>.jsonl`` (its model the folder's name)."""
    data = archives.gunzip(data, name)
    if is_inspect_log(data, name):  # read once, with its epochs as runs
        runs, head = inspect_log.read_log(data, name)
        return long_rows(head["model"], head["task"], runs, "item", "run", inspect_log.scorers(runs),
                     inspect_log.metadata(runs))
    table = read(data, name=name)
    if table.format == "lm-eval":
        stem = Path(name).name.removesuffix(".gz").removesuffix(".jsonl")
        match, model = _LM_EVAL_NAME.fullmatch(stem), Path(name).parent.name
        if not match or not model:  # a model and a task the name does not state are not guessed
            raise InputError("its name and folder do not say its task and model", file=name,
                             hint="Give the file where lm_eval --output_path --log_samples wrote it: "
                                  "MODEL_FOLDER/samples_<task>_<date>.jsonl.")
        frame = lm_eval_samples(table.frame, model, match.group("task"))
        frame.attrs["notes"] = list(table.notes)  # (an acc outside 0..1)
        return frame
    raise InputError("is neither an Inspect log nor an lm-evaluation-harness samples file", file=name,
                     hint="Give .eval/.json logs of Inspect AI, or samples_<task>_<date>.jsonl files of lm_eval "
                          "--log_samples; a table of scores of your own is already the tidy table.")


def from_logs(paths: Iterable[str | Path]) -> pd.DataFrame:
    """Every log's scores in one long table, checked: no (model, task, item, run, metric) twice. A folder is an
    lm-eval output folder (:mod:`sigcore.logs.lm_eval_folder`) or HELM's runs (:mod:`sigcore.logs.helm_run`); the
    notes of what was read so are in ``attrs["notes"]``; all the logs unpack to within
    :data:`sigcore.io.archives.ARCHIVE`."""
    with archives.total("the logs"):
        return _together([_folder(p) if Path(p).is_dir() else from_log(read_bytes(p), str(p)) for p in paths])


def _folder(path: str | Path) -> pd.DataFrame:
    from . import helm_run, lm_eval_folder

    if lm_eval_folder.is_folder(path) or not helm_run.is_folder(path):  # neither: lm-eval's reader says so
        return lm_eval_folder.read(path)
    return helm_run.read(path)


def from_files(files: list[tuple[str, bytes]]) -> pd.DataFrame:
    """The long table of files held in memory (an app's uploads): logs, lm-eval output folders' files and HELM's
    run folders' (each with its folder in its name, as a zip of the folder gives them), tidy tables, and zips of
    any of these; all they unpack to (zips and gzip files) within :data:`sigcore.io.archives.ARCHIVE`."""
    with archives.total(files[0][0] if len(files) == 1 else f"the {len(files)} files"):
        return _from_files(files)


def _from_files(files: list[tuple[str, bytes]]) -> pd.DataFrame:
    from . import helm_run, lm_eval_folder

    unpacked: list[tuple[str, bytes]] = []
    for name, data in files:
        unpacked += _unzipped(data, name) if name.lower().endswith(".zip") else [(name, data)]
    tables = [_complete(read_table_bytes(d, n), n) for n, d in unpacked if n.lower().endswith((".parquet", ".csv"))]
    folder = {n: d for n, d in unpacked if PurePosixPath(n).name.startswith(("results_", "samples_"))
              and any(lm_eval_folder.is_results(m) for m, _ in unpacked)}
    runs = {PurePosixPath(n).parent for n, _ in unpacked if PurePosixPath(n).name == "per_instance_stats.json"}
    helm = {n: d for n, d in unpacked if PurePosixPath(n).parent in runs}  # a run folder's files are the run's
    logs = [from_log(d, n) for n, d in unpacked
            if n not in folder and n not in helm and not n.lower().endswith((".parquet", ".csv"))]
    return _together([*tables, *([lm_eval_folder.read_files(folder)] if folder else []),
                      *([helm_run.read_files({n: d for n, d in helm.items() if helm_run.is_run_file(n)})]
                        if helm else []), *logs])


def _complete(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """A table of one's own with the columns it must have; one without ``run`` or ``metric`` has one run of one
    metric, ``score``."""
    missing = [c for c in ("model", "task", "item", "score") if c not in frame.columns]
    if missing:
        raise InputError(f"has no {' and no '.join(missing)} column", file=name,
                         hint="Give the tidy table: model, task, item, run, metric, score (sigcore convert writes "
                              "it from logs).")
    return frame.assign(**{c: v for c, v in (("run", 1), ("metric", "score")) if c not in frame.columns})


def _unzipped(data: bytes, name: str) -> list[tuple[str, bytes]]:
    """A zip's files (its folders in their names), in memory, within :mod:`sigcore.io.archives`' limits; macOS's
    resource forks and hidden files left out."""
    return archives.unzip(data, name, lambda member: not member.startswith("__MACOSX/")
                          and not PurePosixPath(member).name.startswith("."))


def _together(frames: list[pd.DataFrame]) -> pd.DataFrame:
    notes = [n for f in frames for n in f.attrs.get("notes", [])]
    if not frames:
        raise SettingsError("no logs given", hint="Give one or more Inspect or lm-eval log files.")
    out = pd.concat(frames, ignore_index=True)
    for column in ("group", "group_weight"):  # a task of no group, beside logs that have groups
        if column in out.columns:
            out[column] = out[column].fillna("")
    out.attrs["notes"] = notes
    keys = [c for c in COLUMNS[:5] if c in out.columns]
    codes, spellings = pd.factorize(out["item"])
    groups = merged(list(spellings))[0]  # ids pair by one rule (sigcore.io.ids): 1 and 1.0 are one item
    items = None if groups is None else np.where(codes < 0, -1, groups[codes])  # -1: no id, said by the board
    twice = (out if items is None else out[keys].assign(item=items)).duplicated(keys, keep=False)
    if twice.any():
        row = out[twice].iloc[0]
        raise InputError(f"model {row['model']!r} has task {row['task']!r} twice (item {row['item']!r}, "
                         f"{row['metric']})", hint="Give each model's log of a task once (two runs of one model: "
                                                   "rename one of them, or keep the later).")
    return out


def write(frame: pd.DataFrame, path: str | Path) -> None:
    """The table as ``.csv`` or ``.parquet`` (pyarrow), by the file's extension."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise SettingsError(f"--out must end in .csv or .parquet, not {path.name!r}")
    buffer = io.BytesIO()
    if suffix == ".csv":  # the one CSV writer: a spreadsheet opens it with no cell run as a formula
        buffer.write(table_csv(frame.reset_index(drop=True)))
    else:
        try:
            frame.to_parquet(buffer, index=False)
        except ImportError:  # pandas' word for a missing Parquet engine
            raise SettingsError("writing Parquet needs pyarrow, which is not installed",
                                hint='Install it: pip install "sigcore[logs]" (or pip install pyarrow), or write '
                                     "--out table.csv.") from None
    try:
        path.write_bytes(buffer.getvalue())
    except OSError as e:
        raise SettingsError(f"cannot write {path} ({e.strerror})") from None


def is_table(path: str | Path) -> bool:
    """A tidy table: a .parquet file, or a CSV whose header names model, task, item and score."""
    path = Path(path)
    if path.suffix.lower() == ".parquet":
        return True
    if path.suffix.lower() != ".csv" or not path.is_file():
        return False
    with path.open("rb") as f:
        first = f.readline(4096).decode("utf-8", "replace").strip().split(",")
    return {"model", "task", "item", "score"} <= set(first)


def is_log(path: str | Path) -> bool:
    """An Inspect log (by its name), an lm-eval samples file where the harness writes it, an lm-eval output
    folder or HELM's run folders."""
    from . import helm_run, lm_eval_folder

    if lm_eval_folder.is_folder(path) or helm_run.is_folder(path):
        return True
    name = Path(path).name.removesuffix(".gz")
    if name.endswith(".json") and Path(path).is_file():  # Inspect's JSON logs begin with their header
        with (gzip.open if str(path).endswith(".gz") else open)(path, "rb") as f:
            return is_inspect_log(f.read(4096), name)
    return name.endswith(".eval") or bool(_LM_EVAL_NAME.fullmatch(name.removesuffix(".jsonl")))


def read_table(path: str | Path) -> pd.DataFrame:
    """A tidy table from its .parquet or .csv file."""
    return read_table_bytes(read_bytes(path), str(path))


def _parquet(data: bytes, name: str, columns: Iterable[str] | None = None) -> pd.DataFrame:
    """A Parquet table with its text columns as categoricals, read as Arrow dictionaries (18 million rows of a
    metric's name are a code each, not 18 million strings). Text and number columns are decoded a batch of rows at
    a time straight into their pandas arrays (:class:`_Gathered`), the row groups after the first split between
    the cores, so that a table costs its pandas columns and a batch of Arrow's per core, not a second copy of each
    column (new memory is what costs most on 18 million rows); other columns (and a number column with a missing
    value) as to_pandas makes them, a column at a time; nothing decoded before :func:`_bounded` has measured it.
    ``columns``: only those of these names the file has are read, measured and checked (the others, a conversation
    as a list, say, are never decoded)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ModuleNotFoundError:
        raise SettingsError("reading Parquet needs pyarrow, which is not installed",
                            hint='Install it: pip install "sigcore[logs]" (or pip install pyarrow), or give the '
                                 "table as CSV.") from None
    from .._threads import map_all

    schema = pq.read_schema(pa.BufferReader(data))
    if columns is not None:
        wanted = set(columns)
        for index in reversed(range(len(schema))):  # Schema.remove keeps pandas' metadata
            if schema[index].name not in wanted:
                schema = schema.remove(index)
    text = [f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
    meta = pq.ParquetFile(pa.BufferReader(data)).metadata
    _bounded(schema, meta, name)
    gathered = {f.name: _Gathered(f.type, meta.num_rows) for f in schema if _Gathered.takes(f.type)}
    if gathered and meta.num_rows:
        sizes = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
        starts = np.concatenate([[0], np.cumsum(sizes)])

        def read(groups: list[int], pending: list | None) -> None:
            file = pq.ParquetFile(pa.BufferReader(data), read_dictionary=text)
            at = int(starts[groups[0]])
            for batch in file.iter_batches(batch_size=_BATCH, row_groups=groups, columns=list(gathered),
                                           use_threads=False):
                for name, array in zip(batch.schema.names, batch.columns):
                    gathered[name].add(array, slice(at, at + batch.num_rows), pending)
                at += batch.num_rows

        read([0], None)  # the first row group here: each text column's first dictionary, its codes' type
        # the others in runs of about _RUN rows, taken by whichever core is free (one slowed by another process's
        # work holds up one run, not half the file)
        runs, rows = [[]], 0
        for g in range(1, meta.num_row_groups):
            if rows >= _RUN:
                runs, rows = runs + [[]], 0
            runs[-1].append(g)
            rows += sizes[g]
        pending = [[] for _ in runs]  # each run's batches whose dictionary differs, to code in the file's order
        if runs[0]:
            map_all(lambda k: read(runs[k], pending[k]), list(range(len(runs))))
        for rows, column, dictionary in (p for run in pending for p in run):
            column.recode(rows, dictionary)
    read_columns = {}
    for field in schema:
        column = gathered[field.name].result() if field.name in gathered else None
        if column is None:  # as to_pandas makes it, Arrow's copy given back before the next column
            column = _column(pq.read_table(pa.BufferReader(data), columns=[field.name],
                                           read_dictionary=[field.name] if field.name in text else None))
            pa.default_memory_pool().release_unused()
        read_columns[field.name] = column
    frame = pd.DataFrame(read_columns, copy=False)
    for column in frame.columns:  # whichever way a text column was decoded: its codes within its values
        if isinstance(frame[column].dtype, pd.CategoricalDtype):
            _within(frame[column].cat.codes.to_numpy(), len(frame[column].cat.categories))
    index = [c for c in (schema.pandas_metadata or {}).get("index_columns", []) if isinstance(c, str)
             and c in frame.columns]  # (an index column not among the ``columns`` read is not one)
    if not index:
        return frame
    frame = frame.set_index(index)
    frame.index.names = [None if str(n).startswith("__index_level_") else n for n in frame.index.names]
    return frame


_BATCH = 1 << 18  # rows a batch: Arrow's buffers for one stay a few MB, reused batch after batch
_RUN = 1 << 20  # rows of the row groups one core reads in a go
_MANY = 1 << 18  # distinct values of a text column past which Arrow's unifier codes them (to_pandas)
_CODES = (np.int8, np.int16, np.int32, np.int64)


class _Gathered:
    """One column's batches gathered into its pandas array as they are decoded: a dictionary's indices into the
    codes of a categorical whose categories are every batch's dictionary in order of first appearance (as Arrow's
    unify_dictionaries gives them: a batch's own dictionary mapped onto them where it differs), in pandas' small
    code type; numbers without missing values as they are. Batches read on other threads whose dictionary is not
    the first row group's keep their own indices until :meth:`recode` maps them, in the file's order.
    :meth:`result` is None where the column turns out otherwise (a missing number, a repeated or missing category,
    nearly every row its own value): it is read again as to_pandas makes it."""

    @staticmethod
    def takes(kind) -> bool:
        import pyarrow as pa

        text = pa.types.is_string(kind) or pa.types.is_large_string(kind)
        coded = pa.types.is_dictionary(kind) and pa.types.is_signed_integer(kind.index_type) and (
            pa.types.is_string(kind.value_type) or pa.types.is_large_string(kind.value_type))
        return text or coded or pa.types.is_integer(kind) or pa.types.is_floating(kind)

    def __init__(self, kind, rows: int):
        import pyarrow as pa

        self.coded = not (pa.types.is_integer(kind) or pa.types.is_floating(kind))
        self.ordered = bool(getattr(kind, "ordered", False))
        self.rows, self.failed = rows, False
        self.out = None if self.coded else np.empty(rows, dtype=kind.to_pandas_dtype())  # codes: by the first
        self.categories = self.last = self.mapping = None  # the categories so far; the last dictionary, its codes

    def add(self, array, rows: slice, pending: list | None) -> None:
        """A batch's values into ``rows``; a dictionary other than the last one's: coded now (``pending`` None,
        in the file's order), else its own indices kept and the batch put in ``pending``."""
        if self.failed:
            return
        if not self.coded:
            if array.null_count:
                self.failed = True
            else:
                self.out[rows] = array.to_numpy()
            return
        indices = array.indices
        codes = _within((indices.fill_null(-1) if indices.null_count else indices).to_numpy(), len(array.dictionary))
        if self.last is None or not array.dictionary.equals(self.last):
            if pending is None:
                self._learn(array.dictionary)
            elif self.out is None or len(array.dictionary) > np.iinfo(self.out.dtype).max:  # to_pandas
                self.failed = True  # (an empty first row group, or more values than its codes' type holds)
                return
            else:
                self.out[rows] = codes
                pending.append((rows, self, array.dictionary))
                return
        if self.failed:
            return
        if self.mapping is not None:
            codes = np.where(codes < 0, -1, self.mapping[codes]) if indices.null_count else self.mapping[codes]
        self.out[rows] = codes

    def recode(self, rows: slice, dictionary) -> None:
        """A pending batch's own indices in ``rows`` as codes of the categories (in the file's order of batches)."""
        if self.failed:
            return
        self._learn(dictionary)
        if not self.failed and self.mapping is not None:
            own = self.out[rows]
            self.out[rows] = np.where(own < 0, -1, self.mapping[own])

    def _learn(self, dictionary) -> None:
        """The categories with ``dictionary``'s new values after them, its indices' codes, the codes' type."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if self.categories is None:
            self.categories = dictionary
        else:
            known = pc.index_in(dictionary, value_set=self.categories)
            if known.null_count:  # values not seen before: after the others, in their order
                self.categories = pa.concat_arrays([self.categories, dictionary.filter(pc.is_null(known))])
        if len(self.categories) > _MANY:  # ids nearly all distinct: each batch's look-up would grow, as to_pandas
            self.failed = True
            return
        index = pc.index_in(dictionary, value_set=self.categories).to_numpy(zero_copy_only=False)
        self.mapping = None if np.array_equal(index, np.arange(len(index))) else index
        self.last = dictionary
        small = next(t for t in _CODES if len(self.categories) < np.iinfo(t).max)  # pandas' own code type
        if self.out is None:
            self.out = np.empty(self.rows, dtype=small)
        elif np.iinfo(small).max > np.iinfo(self.out.dtype).max:  # more categories than the type holds: wider
            self.out = self.out.astype(small)

    def result(self):
        if self.failed or self.coded and self.categories is None:  # (no rows: as to_pandas makes it)
            return None
        if not self.coded:
            return self.out
        categories = pd.Index(self.categories.to_pandas())
        if not categories.is_unique or categories.hasnans:
            return None
        return pd.Categorical.from_codes(self.out, dtype=pd.CategoricalDtype(categories, ordered=self.ordered),
                                         validate=False)


def _within(codes: np.ndarray, size: int) -> np.ndarray:
    """A column's codes, each of its dictionary's ``size`` values or -1 (missing): Arrow does not check them, and a
    damaged file's code past its dictionary would index memory that is not the column's."""
    if len(codes) and (codes.min() < -1 or codes.max() >= size):
        raise ValueError(f"a text column's code {int(codes.max() if codes.max() >= size else codes.min())} is not "
                         f"one of its {size:,} values: the file is damaged")
    return codes


def _column(table):
    """A one-column Arrow table's column for pandas: a dictionary as a categorical and numbers without nulls as a
    numpy array, each built from the Arrow buffers at once (a fifth of to_pandas' time on 18 million rows); other
    columns as to_pandas makes them, with pandas' metadata (Int64, time zones)."""
    import pyarrow as pa

    column, kind = table.column(0), table.schema.field(0).type
    if pa.types.is_dictionary(kind) and len(column) and pa.types.is_signed_integer(kind.index_type):
        column = table.unify_dictionaries().column(0)  # one dictionary, so that the chunks' codes agree
        categories = pd.Index(column.chunk(0).dictionary.to_pandas())
        if categories.is_unique and not categories.hasnans:
            codes = [c.indices.fill_null(-1) if c.null_count else c.indices for c in column.chunks]
            small = next(t for t in (np.int8, np.int16, np.int32, np.int64)  # pandas' codes' type: no second copy
                         if len(categories) < np.iinfo(t).max)
            return pd.Categorical.from_codes(_within(np.concatenate([c.to_numpy() for c in codes], dtype=small),
                                                     len(categories)),
                                             dtype=pd.CategoricalDtype(categories, ordered=kind.ordered),
                                             validate=False)
    elif (pa.types.is_integer(kind) or pa.types.is_floating(kind)) and not column.null_count:
        return column.to_numpy()
    frame = table.to_pandas()  # an index column of pandas' comes back as the index
    return (frame[table.column_names[0]] if table.column_names[0] in frame.columns else frame.index).array


def _bounded(schema, meta, name: str) -> None:
    """Refuse a Parquet table, before any of it is decoded, whose columns are not numbers, true/false, text or times
    (lists and binary values can hold any size), or that would decode to more than :data:`archives.TABLE` bytes:
    its rows times its columns' widths (text as 4-byte codes), or its pages unpacked (dictionaries included)."""
    import pyarrow as pa

    widths = {}
    kept = set(schema.names)
    for field in schema:
        kind = field.type.value_type if pa.types.is_dictionary(field.type) else field.type
        if pa.types.is_string(kind) or pa.types.is_large_string(kind):
            widths[field.name] = 4
        elif pa.types.is_primitive(kind) or pa.types.is_decimal(kind) or pa.types.is_null(kind):
            widths[field.name] = max(1, getattr(kind, "bit_width", 8) // 8)
        else:
            raise InputError(f"column {field.name!r} holds {kind}, not numbers or text", file=name,
                             hint="Give the tidy table: model, task, item, run, metric, score (numbers and text).")
    decoded = meta.num_rows * sum(widths.values())
    unpacked = sum(meta.row_group(g).column(c).total_uncompressed_size for g in range(meta.num_row_groups)
                   for c in range(meta.num_columns)
                   if meta.row_group(g).column(c).path_in_schema.split(".")[0] in kept)
    if max(decoded, unpacked) > archives.TABLE:
        raise InputError(f"holds {meta.num_rows:,} rows of {meta.num_columns} columns, which decode to "
                         f"{archives.size(max(decoded, unpacked))}, more than the {archives.size(archives.TABLE)} "
                         "sigcore reads of one table", file=name,
                         hint="A table as logs give it is read a batch of rows at a time, whatever its size: "
                              "text ids model, task, item; whole-number runs; one metric; no missing score; its rows "
                              "in (model, task, item, run) order (`sigcore many F.parquet`, "
                              "leaderboard.from_parquet). Or compare fewer models, tasks or metrics at once, or a "
                              "sample of the items.")


def read_table_bytes(data: bytes, name: str, columns: Iterable[str] | None = None) -> pd.DataFrame:
    """A table of scores from a .parquet file's bytes (``columns``: only those of these names it has), or a CSV's."""
    try:
        import pyarrow as pa
        arrow_errors = (pa.ArrowException,)  # its NotImplementedError (a codec), TypeError, KeyError, MemoryError
    except ModuleNotFoundError:
        arrow_errors = ()
    try:
        if name.lower().endswith(".parquet"):
            return _parquet(data, name, columns)
        frame = pd.read_csv(io.BytesIO(data), dtype={"item": str, "model": str, "task": str})
        # the quote table_csv put before a formula, taken off (sigcore convert wrote it)
        frame.columns = frame.columns.map(original_cell)
        for column in [c for c in frame.columns if pd.api.types.is_string_dtype(frame[c])]:
            frame[column] = frame[column].map(original_cell)
        return frame
    except (SettingsError, InputError):  # pyarrow missing, a table too large: said as it is
        raise
    except (ValueError, OSError, *arrow_errors) as e:  # pyarrow's and pandas' errors about the file itself
        raise InputError(f"cannot be read as a table of scores ({' '.join(str(e).split())})", file=name,
                         hint="Give the table sigcore convert writes, or one with the same columns.") from None
