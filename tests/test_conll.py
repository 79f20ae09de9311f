"""Tests of sigcore.io.conll: CoNLL-2000/2003 style column files."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sigcore.errors import InputError
from sigcore.io import conll

CONLL2003 = """-DOCSTART- -X- -X- O

EU NNP B-NP B-ORG
rejects VBZ B-VP O
German JJ B-NP B-MISC

Peter NNP B-NP B-PER
Blackburn NNP I-NP I-PER

-DOCSTART- -X- -X- O

BRUSSELS NNP B-NP B-LOC
"""


def test_conll2003_docstart_and_default_names_for_four_columns():
    frame, lines = conll.parse(CONLL2003, "train.txt")
    assert list(frame.columns) == ["tokens", "gold", "pred1", "pred2"]
    assert frame["tokens"].tolist() == [["EU", "rejects", "German"], ["Peter", "Blackburn"], ["BRUSSELS"]]
    assert frame["pred2"].tolist() == [["B-ORG", "O", "B-MISC"], ["B-PER", "I-PER"], ["B-LOC"]]
    assert lines.dtype == np.int64 and lines.tolist() == [3, 7, 12]


def test_crlf_tabs_and_spaces_mixed():
    text = "a\tO\r\nb  B-PER\r\n\r\n\r\n\r\nc \t I-PER\r\n"
    frame, lines = conll.parse(text, "f")
    assert frame["tags"].tolist() == [["O", "B-PER"], ["I-PER"]]
    assert frame["tokens"].tolist() == [["a", "b"], ["c"]]
    assert lines.tolist() == [1, 6]


@pytest.mark.parametrize("width, names", [
    (1, ["tags"]), (2, ["tokens", "tags"]), (3, ["tokens", "gold", "pred"]),
    (5, ["tokens", "gold", "pred1", "pred2", "pred3"])])
def test_default_names(width, names):
    frame, _ = conll.parse("\n".join(" ".join(f"x{j}" for j in range(width)) for _ in range(2)), "f")
    assert list(frame.columns) == names
    assert frame[names[-1]].tolist() == [[f"x{width - 1}"] * 2]


def test_header_names_the_columns():
    text = "# tokens gold A B\nJohn B-PER B-PER O\nruns O O O\n"
    frame, lines = conll.parse(text, "f")
    assert list(frame.columns) == ["tokens", "gold", "A", "B"]
    assert frame["A"].tolist() == [["B-PER", "O"]] and lines.tolist() == [2]


def test_header_after_blank_lines_and_before_docstart():
    frame, _ = conll.parse("\n\n#w t\n-DOCSTART- O\n\nx O\n", "f")
    assert list(frame.columns) == ["w", "t"]


@pytest.mark.parametrize("first", ["# produced by tagger v2", "# sent_id = 1", "# one"])
def test_first_comment_that_does_not_fit_is_a_comment(first):
    # 4 names, "=" metadata, 1 name: none names exactly the 3 columns
    frame, lines = conll.parse(f"{first}\nx O O\n", "f")
    assert list(frame.columns) == ["tokens", "gold", "pred"] and lines.tolist() == [2]


def test_comments_between_sentences_and_hashtags_inside_them():
    text = "# tokens tags\n# sent 1\na O\n#nlp B-TAG\n# O\n\n# sent 2\n# also a comment\nb O\n"
    frame, lines = conll.parse(text, "f")
    assert frame["tokens"].tolist() == [["a", "#nlp", "#"], ["b"]]
    assert lines.tolist() == [3, 9]


def test_unicode_spaces_stay_inside_tokens():
    frame, _ = conll.parse("New\u00a0York B-LOC\n", "f")
    assert frame["tokens"].tolist() == [["New\u00a0York"]]


def test_too_many_columns():
    with pytest.raises(InputError, match=r"found 3 columns, expected 2 as on line 1") as info:
        conll.parse("a O\nb O\n\nc O X\n", "sys.conll")
    error = info.value
    assert (error.file, error.line, error.column) == ("sys.conll", 4, 3)
    assert "same columns" in error.hint
    assert str(error).startswith("sys.conll, line 4, column 3: ")


def test_too_few_columns_names_the_first_missing_column():
    with pytest.raises(InputError, match=r"found 2 columns, expected 4 as on line 2") as info:
        conll.parse("\na B C D\nb C\n", "f")
    assert (info.value.line, info.value.column) == (3, 3)


def test_comment_inside_a_sentence_gets_a_hint():
    with pytest.raises(InputError, match=r"found 3 columns, expected 2") as info:
        conll.parse("a O\n# a comment\n", "f")
    assert info.value.line == 2 and "blank line" in info.value.hint


@pytest.mark.parametrize("text", ["", "\n\n\r\n", "# tokens tags\n", "-DOCSTART- O\n\n", "  \t \n"])
def test_no_tokens(text):
    with pytest.raises(InputError, match="the file has no tokens") as info:
        conll.parse(text, "empty.conll")
    assert info.value.file == "empty.conll" and info.value.hint


def test_header_with_a_repeated_name():
    with pytest.raises(InputError, match=r"the header names column 'A' twice") as info:
        conll.parse("# tokens A A\nx O O\n", "f")
    assert (info.value.line, info.value.column) == (1, 3)


def test_write_reads_back():
    frame = pd.DataFrame({"tokens": [["EU", "rejects"], ["Peter"]], "gold": [["B-ORG", "O"], ["B-PER"]]})
    text = conll.write(frame)
    assert text == "# tokens gold\nEU\tB-ORG\nrejects\tO\n\nPeter\tB-PER\n\n"
    back, lines = conll.parse(text, "f")
    pd.testing.assert_frame_equal(back, frame)
    assert lines.tolist() == [2, 5]


@pytest.mark.parametrize("frame, match", [
    (pd.DataFrame({"tokens": [["a", "b"]], "tags": [["O"]]}), "different lengths"),
    (pd.DataFrame({"tokens": [[]], "tags": [[]]}), "no tokens"),
    (pd.DataFrame({"tokens": [["a b"]], "tags": [["O"]]}), "cannot be written"),
    (pd.DataFrame({"tokens": [["#a"]], "tags": [["O"]]}), "cannot be written"),
    (pd.DataFrame({"tokens": [["-DOCSTART-"]], "tags": [["O"]]}), "cannot be written"),
    (pd.DataFrame({"my tokens": [["a"]]}), "cannot be written as a header"),
])
def test_write_refuses_what_would_not_read_back(frame, match):
    with pytest.raises(InputError, match=match):
        conll.write(frame)


# Any text without the column and line separators; no sentence may start with "#" or be -DOCSTART-.
_token = st.text(st.characters(exclude_characters=" \t\r\n", exclude_categories=("Cs",)), min_size=1, max_size=6)
_name = st.from_regex(r"[A-Za-z_][A-Za-z0-9_\-]{0,7}", fullmatch=True)


@st.composite
def _frames(draw):
    names = draw(st.lists(_name, min_size=1, max_size=5, unique=True))
    lengths = draw(st.lists(st.integers(1, 6), min_size=1, max_size=6))
    columns = {n: [draw(st.lists(_token, min_size=k, max_size=k)) for k in lengths] for n in names}
    for sentence in columns[names[0]]:
        sentence[0] = sentence[0].lstrip("#") or "x"
    for column in columns.values():
        for sentence in column:
            sentence[:] = ["x" if t == conll.DOCSTART else t for t in sentence]
    return pd.DataFrame(columns), lengths


@settings(max_examples=150, deadline=None)
@given(_frames())
def test_round_trip(case):
    frame, lengths = case
    back, lines = conll.parse(conll.write(frame), "f")
    pd.testing.assert_frame_equal(back, frame)
    # the header is line 1; each sentence takes its tokens plus one blank line
    assert lines.tolist() == (2 + np.cumsum([0] + [k + 1 for k in lengths[:-1]])).tolist()
