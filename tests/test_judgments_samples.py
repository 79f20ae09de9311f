"""The sample judgments (sample_data/judgments/, issue 42 §5): the committed files are what
sample_data/make_judgments.py writes, they read as arena battles and MT-Bench judgments, the two hold the same
judgments of judge-a, and the position bias the script simulates is in them, counted directly."""

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

from sigcore.judgments import read

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
FOLDER = SAMPLES / "judgments"


def _script():
    spec = importlib.util.spec_from_file_location("make_judgments", SAMPLES / "make_judgments.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_files_are_what_the_script_writes(tmp_path):
    written = _script().write(tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in FOLDER.iterdir())
    for path in written:
        assert path.read_bytes() == (FOLDER / path.name).read_bytes(), path.name


def test_they_read_as_arena_battles_and_mt_bench_judgments():
    arena, mt = read(FOLDER / "arena.csv"), read(FOLDER / "mt_bench_pair.jsonl")
    assert list(arena.shapes.values()) == ["arena"] and list(mt.shapes.values()) == ["mt-bench"]
    assert not arena.notes and not mt.notes
    frame = arena.frame
    assert len(frame) == 960 and len(mt.frame) == 480
    assert sorted(arena.models) == ["atlas", "borealis", "cirrus", "dune", "ember", "fjord"]
    assert frame["item"].nunique() == 80 and sorted(frame["category"].unique()) == ["coding", "math", "reasoning",
                                                                                    "writing"]
    assert sorted(frame["judge"].unique()) == ["judge-a", "judge-b"]
    assert (frame["order"].value_counts() == 480).all()  # every pair in both orders
    assert set(mt.frame["judge"]) == {"judge-a/pair-v2"} and set(mt.frame["order"]) == {1, 2}


def test_the_mt_bench_file_holds_judge_as_judgments_of_the_csv():
    arena, mt = read(FOLDER / "arena.csv").frame, read(FOLDER / "mt_bench_pair.jsonl").frame
    mine = arena[arena["judge"] == "judge-a"].assign(item=lambda f: f["item"].str.removeprefix("q").astype(int))
    key = ["item", "model_a", "model_b", "order"]
    joined = mine.merge(mt.assign(item=mt["item"].astype(int)), on=key, suffixes=("", "_mt"), validate="1:1")
    assert len(joined) == 480
    np.testing.assert_array_equal(joined["outcome"], joined["outcome_mt"])


def test_judge_a_favours_the_first_slot_and_changes_its_verdict_with_the_order_more_often_than_judge_b():
    """Counted from the CSV's rows as written (the winner word and the model named first), not from the reader."""
    rows = pd.read_csv(FOLDER / "arena.csv")
    winner = np.where(rows["winner"] == "model_a", rows["model_a"],
                      np.where(rows["winner"] == "model_b", rows["model_b"], ""))
    rows["first_won"], rows["first_lost"] = winner == rows["order"], (winner != "") & (winner != rows["order"])
    share = rows.groupby("judge")[["first_won", "first_lost"]].mean()
    assert share.loc["judge-a", "first_won"] > share.loc["judge-a", "first_lost"] + 0.15
    assert abs(share.loc["judge-b", "first_won"] - share.loc["judge-b", "first_lost"]) < 0.1
    verdicts = rows.assign(shown=np.where(rows["order"] == rows["model_a"], "a", "b"))
    both = verdicts.pivot_table(index=["judge", "question_id", "model_a", "model_b"], columns="shown",
                                values="winner", aggfunc="first")
    inconsistent = (both["a"] != both["b"]).groupby(level="judge").mean()
    assert inconsistent["judge-a"] > 2 * inconsistent["judge-b"] and 0.3 < inconsistent["judge-a"] < 0.6
