"""Tables of results rather than outputs: one one-sided p-value per dataset (for the replicability analysis over
datasets), or one score per system and seed (for Almost Stochastic Order). The command line and the Many systems
page read them alike: every value is checked, and a bad one is reported with its file, line and column."""

from __future__ import annotations

import math

from ..errors import InputError

__all__ = ["p_values", "seed_scores"]

P_COLUMNS = ("p", "p_value", "p-value", "pvalue")
SEED_COLUMNS = ("seed", "run")


def p_values(table) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The dataset names and one-sided p-values of a table (columns dataset and p), checked row by row: a value
    that is no probability, or a p of 0 (a resampling test's p < 1/b), is refused with its line."""
    frame = table.frame
    columns = {str(c).strip().lower(): c for c in frame.columns}
    p_column = next((columns[c] for c in P_COLUMNS if c in columns), None)
    if p_column is None:
        raise InputError("has no column p (one one-sided p-value per dataset)", file=table.name, line=1,
                         hint=f"Name the column of p-values p; the columns are: {', '.join(map(str, frame.columns))}.")
    name_column = columns.get("dataset")
    if len(frame) < 2:
        raise InputError(f"has {len(frame)} dataset{'s' * (len(frame) != 1)}", file=table.name,
                         hint="Replicability analysis counts the datasets where A is better: give one row per "
                              "dataset, at least two.")
    names, values, first = [], [], {}
    labels = frame[name_column].tolist() if name_column is not None else [None] * len(frame)
    for i, (line, raw, label) in enumerate(zip(table.lines, frame[p_column].tolist(), labels)):
        where = {"file": table.name, "line": int(line), "column": str(p_column)}
        try:  # CSV cells are text, JSON values keep their type; true/false are no p-values
            p = float(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else float(str(raw).strip())
        except ValueError:
            raise InputError(f"{str(raw)!r} is not a number", **where,
                             hint="Write each dataset's one-sided p-value as a number between 0 and 1, "
                                  "e.g. 0.031.") from None
        if not 0 <= p <= 1:  # nan fails too
            raise InputError(f"p = {raw} is not between 0 and 1", **where,
                             hint="A p-value is a probability: was it a percentage, a test statistic or a score?")
        if p == 0:
            raise InputError("p = 0, which a resampling test means as p < 1/b", **where,
                             hint="Write it as 1/b (0.0001 for b = 10,000), the smallest p the test can give, or "
                                  "upload each dataset's outputs instead.")
        name = str(label).strip() if name_column is not None else f"dataset {i + 1}"
        if not name:
            raise InputError("has no dataset name", file=table.name, line=int(line), column=str(name_column),
                             hint="Name every dataset, or leave out the dataset column.")
        if name in first:  # a dict, not a list: a table of 100,000 datasets was quadratic
            raise InputError(f"dataset {name!r} appears twice (first at line {table.lines[first[name]]})",
                             file=table.name, line=int(line), column=str(name_column),
                             hint="Give one row per dataset.")
        first[name] = len(names)
        names.append(name)
        values.append(p)
    return tuple(names), tuple(values)


def seed_scores(table) -> tuple[dict[str, tuple[float, ...]], tuple[str, ...]]:
    """Each system's per-seed scores from a wide table (a column per system; a seed or run column is left out) or
    a long one (the columns system and score), and notes; every value checked with its line and column. An empty
    cell in a wide table is a run that system lacks."""
    frame = table.frame
    columns = {str(c).strip().lower(): c for c in frame.columns}
    where = {"file": table.name}
    out: dict[str, list[float]] = {}
    if "system" in columns and "score" in columns:  # long: one row per (system, seed)
        seed = next((columns[c] for c in SEED_COLUMNS if c in columns), None)
        seeds = frame[seed] if seed is not None else [None] * len(frame)
        first: dict[tuple[str, str], int] = {}  # (system, seed) -> its line: a run given twice counts twice
        for line, system, run, value in zip(table.lines, frame[columns["system"]], seeds, frame[columns["score"]]):
            name = _text(system)
            if not name:
                raise InputError("has no system name", file=table.name, line=int(line), column=str(columns["system"]),
                                 hint="Name the system of every row, or leave the row out.")
            if seed is not None:
                run = _seed(run, table.name, int(line), str(seed))
                _once(first, (name, run), int(line), table.name, str(seed), f"system {name!r} has {seed} {run}")
            out.setdefault(name, []).append(_number(value, table.name, int(line), str(columns["score"]), long=True))
        hint = "Give at least two systems' scores (a row per system and seed)."
    else:  # wide: a column per system
        seed = next((columns[c] for c in SEED_COLUMNS if c in columns), None)
        first = {}
        for line, run in zip(table.lines, frame[seed]) if seed is not None else ():
            run = _seed(run, table.name, int(line), str(seed))
            _once(first, run, int(line), table.name, str(seed), f"{seed} {run}")
        systems = [c for c in frame.columns if str(c).strip().lower() not in SEED_COLUMNS]
        for c in systems:
            values = [_number(v, table.name, int(line), str(c)) for line, v in zip(table.lines, frame[c])]
            out[str(c)] = [v for v in values if v is not None]
        hint = "Give a column per system (a row per seed), or the columns system and score."
    if len(out) < 2:
        raise InputError(f"has the scores of {len(out)} system{'s' * (len(out) != 1)}; ASO compares at least two",
                         **where, line=1, hint=hint)
    for system, values in out.items():
        if len(values) < 2:
            raise InputError(f"system {system!r} has {len(values)} score{'s' * (len(values) != 1)}", **where,
                             hint="ASO compares distributions over seeds: give at least two runs per system "
                                  "(five or more say more).")
    counts = {len(v) for v in out.values()}
    notes = () if len(counts) == 1 else (
        "the systems have different numbers of runs: " + ", ".join(f"{s} {len(v)}" for s, v in out.items()),)
    return {s: tuple(v) for s, v in out.items()}, notes


def _text(value) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value).strip()


def _seed(value, file: str, line: int, column: str) -> str:
    """A seed as written, 1, 1.0 and 01 alike (they name one run)."""
    text = _text(value)
    if not text:
        raise InputError("has no seed", file=file, line=line, column=column,
                         hint="Give every run its seed, or leave out the seed column.")
    try:
        number = float(text)
    except ValueError:
        return text
    return str(int(number)) if number.is_integer() else text


def _once(seen: dict, key, line: int, file: str, column: str, what: str) -> None:
    """Refuse a run given twice: it would count twice."""
    if key in seen:
        raise InputError(f"{what} twice (first at line {seen[key]})", file=file, line=line, column=column,
                         hint="Give each run once: a run listed twice would count twice.")
    seen[key] = line


def _number(value, file: str, line: int, column: str, long: bool = False) -> float | None:
    """A score as a float; None for an empty cell (a run the system lacks); anything else is refused."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() == "":
        if long:
            raise InputError("has no score", file=file, line=line, column=column,
                             hint="Give every row a score, or leave the row out.")
        return None
    try:
        number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else \
            float(str(value).strip())
    except ValueError:
        raise InputError(f"{str(value)!r} is not a number", file=file, line=line, column=column,
                         hint="Each cell is one run's score, e.g. 0.8125 (a decimal point, no % sign); leave a cell "
                              "empty where a system has fewer runs.") from None
    if not math.isfinite(number):
        raise InputError(f"{str(value)!r} is not a finite score", file=file, line=line, column=column,
                         hint="Give each run's score as a number; leave the cell empty for a missing run.")
    return number
