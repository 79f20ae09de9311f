"""sigcore.judgments' readers (issue 42 §1): every shape read from its real-shaped fixture into the tidy battles
frame, and every bad input refused with its file, line and value."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigcore.errors import InputError, SettingsError
from sigcore.judgments import COLUMNS, read, read_all

DATA = Path(__file__).parent / "data" / "judgments"


def _rows(battles):
    return battles.frame[["item", "model_a", "model_b", "outcome", "judge", "order", "turn"]].values.tolist()


@pytest.mark.parametrize("name", ["arena.csv", "arena.jsonl"])
def test_arena_battles_give_a_score_per_winner_and_say_bothbad_is_a_tie(name):
    battles = read(DATA / name)
    assert list(battles.frame.columns) == list(COLUMNS)
    assert battles.shapes == {str(DATA / name): "arena"}
    assert battles.frame["outcome"].tolist() == [0.0, 0.5, 1.0, 0.0, 1.0, 0.5]  # model_b, tie, model_a, …, bothbad
    assert battles.frame["item"].iat[0] == "58210e39b3fd4441a2bd4a518bb44c2d"
    assert battles.frame["judge"].iat[0] == "arena_user_973" and battles.frame["turn"].tolist()[-1] == 2
    assert (battles.frame["order"] == 0).all()  # the file does not say which answer was shown first
    assert battles.frame["line"].tolist() == ([2, 3, 4, 5, 6, 7] if name.endswith(".csv") else [1, 2, 3, 4, 5, 6])
    assert any("'tie (bothbad)'" in note for note in battles.notes)
    assert battles.models == ["chatglm-6b", "koala-13b", "oasst-pythia-12b", "alpaca-13b", "vicuna-13b"]


def test_arena_battles_from_parquet_read_only_their_columns(tmp_path):
    frame = pd.read_csv(DATA / "arena.csv", dtype=str)
    frame["conversation_a"] = [[{"role": "user", "content": "hi"}]] * len(frame)  # a list: never decoded
    frame.to_parquet(tmp_path / "battles.parquet", index=False)
    battles = read(tmp_path / "battles.parquet")
    assert _rows(battles) == _rows(read(DATA / "arena.csv"))
    assert battles.frame["line"].tolist() == [1, 2, 3, 4, 5, 6]  # rows, from 1


def test_arena_battles_without_question_ids_are_each_their_own_item():
    battles = read(b"model_a,model_b,winner\na,b,model_a\na,b,model_b\n", name="b.csv")
    assert battles.frame["item"].tolist() == ["line 2", "line 3"]
    assert any("each battle is its own item" in note for note in battles.notes)


def test_mt_bench_records_are_two_battles_one_per_order_and_errors_are_left_out():
    battles = read(DATA / "mt_bench_pair.jsonl")
    assert battles.shapes[str(DATA / "mt_bench_pair.jsonl")] == "mt-bench"
    rows = _rows(battles)
    # record 1: g1 (model_1 first) and g2 (answers swapped, its winner already named as model_1/model_2)
    assert rows[0] == ["81", "gpt-4", "vicuna-13b-v1.3", 1.0, "gpt-4/pair-v2", 1, 1]
    assert rows[1] == ["81", "gpt-4", "vicuna-13b-v1.3", 1.0, "gpt-4/pair-v2", 2, 1]
    assert rows[3][3:] == [0.5, "gpt-4/pair-v2-multi-turn", 2, 2]  # g2 "tie", turn 2
    assert rows[4][3] == 0.0 and rows[5][3] == 1.0  # g1 model_2, g2 model_1: the verdict flips with the order
    assert len(rows) == 11  # 6 records x 2 orders, less one "error"
    assert battles.frame["line"].tolist()[6] == 4  # the record with the error keeps its other judgment
    assert any("'error'" in note for note in battles.notes)


def test_mt_bench_single_answer_grading_is_one_battle_in_no_order():
    line = ('{"question_id": 1, "model_1": "a", "model_2": "b", "g1_winner": "model_2", "g2_winner": "model_2", '
            '"judge": ["gpt-4", "single-v1"], "m1_score": 3, "m2_score": 8}\n')
    battles = read(line.encode(), name="gpt-4_pair.jsonl")
    assert _rows(battles) == [["1", "a", "b", 0.0, "gpt-4/single-v1", 0, 0]]


def test_alpacaeval_preferences_become_a_score_of_generator_1():
    battles = read(DATA / "alpacaeval_annotations.json")
    assert battles.shapes[str(DATA / "alpacaeval_annotations.json")] == "alpacaeval"
    frame = battles.frame
    assert frame["outcome"].tolist() == [0.0, 0.0, 0.0, 1.0, 0.5]  # 2, 2, 2, (null left out), 1, 0: a tie
    assert frame["model_a"].iat[0] == "text_davinci_003" and frame["model_b"].iat[0] == "LMCocktail-10.7B-v1"
    assert frame["judge"].unique().tolist() == ["alpaca_eval_gpt4"]
    assert frame["category"].tolist()[-1] == "selfinstruct"  # AlpacaEval's dataset
    assert frame["item"].iat[0].startswith("What are the names of some famous actors")
    assert any("no preference" in note for note in battles.notes)


def test_alpacaeval_weighted_preferences_are_kept_as_fractions():
    frame = read(DATA / "alpacaeval_weighted_annotations.json").frame
    np.testing.assert_allclose(frame["outcome"], [2 - 1.7328323962, 2 - 1.1438742347, 2 - 1.2183990265], rtol=1e-12)


def test_the_tidy_table_reads_outcomes_as_numbers_or_words_and_order_as_the_model_shown_first():
    battles = read(DATA / "tidy.csv")
    assert _rows(battles) == [["q1", "alpha", "beta", 1.0, "gpt-4o", 1, 0],
                              ["q1", "alpha", "beta", 0.5, "gpt-4o", 2, 0],
                              ["q2", "alpha", "gamma", 0.0, "gpt-4o", 1, 0],
                              ["q2", "alpha", "gamma", 0.0, "gpt-4o", 2, 0],
                              ["q3", "beta", "gamma", 0.75, "human", 0, 0],
                              ["q3", "beta", "gamma", 1.0, "gpt-4o", 1, 0]]


def test_a_shape_can_be_named_and_an_unknown_one_is_refused():
    assert read(DATA / "arena.csv", shape="arena").shapes[str(DATA / "arena.csv")] == "arena"
    with pytest.raises(SettingsError, match="unknown shape 'chess'"):
        read(DATA / "arena.csv", shape="chess")
    with pytest.raises(InputError, match="has no column item and no outcome, which tidy judgments have"):
        read(DATA / "arena.csv", shape="tidy")


def test_several_files_are_one_set_of_battles():
    battles = read_all([DATA / "arena.csv", ("tidy.csv", (DATA / "tidy.csv").read_bytes())])
    assert len(battles.frame) == 12 and battles.shapes == {str(DATA / "arena.csv"): "arena", "tidy.csv": "tidy"}
    assert battles.frame["file"].tolist()[-1] == "tidy.csv"
    with pytest.raises(SettingsError, match="no files of judgments given"):
        read_all([])


# --- bad input: each refused with its place and its value --------------------------------------------------

def _refused(text: str, name: str = "j.csv") -> InputError:
    with pytest.raises(InputError) as caught:
        read(text.encode(), name=name)
    return caught.value


def test_a_file_of_another_shape_is_refused_with_the_shapes():
    error = _refused("id,gold,A\n1,x,y\n")
    assert "is not a file of pairwise judgments" in str(error) and "model_a, model_b, winner" in error.hint


def test_a_model_against_itself_is_refused():
    error = _refused("model_a,model_b,winner\na,b,model_a\nc,c,tie\n")
    assert (error.file, error.line) == ("j.csv", 3) and "model 'c' is judged against itself" in error.what


def test_an_unknown_winner_is_refused_with_its_value_and_the_words():
    error = _refused("question_id,model_a,model_b,winner\nq,a,b,model_a\nq2,a,b,left\n")
    assert (error.line, error.column) == (3, "winner") and "unknown winner value 'left'" in error.what
    assert "model_a, model_b, tie, tie (bothbad)" in error.hint


@pytest.mark.parametrize("value", ["1.5", "-0.1", "win", "nan"])
def test_an_unknown_outcome_of_the_tidy_table_is_refused(value):
    error = _refused(f"item,model_a,model_b,outcome\nq,a,b,1\nq2,a,b,{value}\n")
    assert (error.line, error.column) == (3, "outcome") and f"unknown outcome value {value!r}" in error.what


def test_an_unknown_mt_bench_winner_is_refused():
    line = '{"question_id": 1, "model_1": "a", "model_2": "b", "g1_winner": "A", "g2_winner": "model_1"}\n'
    error = _refused(line, "x_pair.jsonl")
    assert (error.line, error.column) == (1, "g1_winner") and "unknown g1_winner value 'A'" in error.what


def test_an_unknown_alpacaeval_preference_is_refused():
    text = '[{"instruction": "q", "generator_1": "a", "generator_2": "b", "preference": 3}]'
    error = _refused(text, "annotations.json")
    assert (error.line, error.column) == (1, "preference") and "unknown preference value 3" in error.what


def test_an_order_that_names_neither_model_is_refused():
    error = _refused("item,model_a,model_b,outcome,order\nq,a,b,1,a\nq,a,b,1,c\n")
    assert (error.line, error.column) == (3, "order")
    assert "the order names 'c', the model shown first, which is neither model_a ('a') nor model_b ('b')" in error.what


@pytest.mark.parametrize("text, line, column", [
    ("model_a,model_b,winner\na,b,tie\n ,b,tie\n", 3, "model_a"),
    ('{"question_id": 1, "model_1": "a", "model_2": "", "g1_winner": "tie", "g2_winner": "tie"}\n', 1, "model_2"),
    ('[{"instruction": "q", "generator_1": null, "generator_2": "b", "preference": 1}]', 1, "generator_1"),
])
def test_an_empty_model_name_is_refused_with_its_column(text, line, column):
    name = "j.jsonl" if text.startswith("{") else "j.json" if text.startswith("[") else "j.csv"
    error = _refused(text, name)
    assert (error.file, error.line, error.column) == (name, line, column) and "is empty" in error.what


def test_a_judgment_given_twice_is_refused_with_both_lines():
    error = _refused("item,model_a,model_b,outcome,judge,order\nq,a,b,1,j,a\nq,a,b,0,k,a\nq,b,a,0,j,a\n")
    assert error.line == 4 and "repeats the judgment of line 2: item 'q', models 'a' and 'b', judge 'j', 'a' shown "\
                                "first" in error.what
    assert "judge column" in error.hint


def test_the_same_battle_in_both_orders_or_by_two_judges_or_turns_is_not_a_repeat():
    text = ("item,model_a,model_b,outcome,judge,order\nq,a,b,1,j,a\nq,a,b,1,j,b\nq,a,b,1,k,a\n")
    assert len(read(text.encode(), name="j.csv").frame) == 3
    mt = DATA / "mt_bench_pair.jsonl"  # question 81 judged at turns 1 and 2 by one judge
    assert len(read(mt).frame) == 11


def test_a_judgment_repeated_across_files_names_the_other_file():
    with pytest.raises(InputError) as caught:
        read_all([DATA / "arena.csv", ("copy.csv", (DATA / "arena.csv").read_bytes())])
    assert caught.value.file == "copy.csv" and caught.value.line == 2
    assert f"repeats the judgment of {DATA / 'arena.csv'}, line 2" in caught.value.what


def test_a_turn_that_is_not_a_whole_number_is_refused():
    error = _refused("model_a,model_b,winner,turn\na,b,tie,1\na,b,tie,first\n")
    assert (error.line, error.column) == (3, "turn") and "the turn 'first'" in error.what
