"""The frames of the classroom walk-through: what the chart, the pseudo-code and the table show, step by step."""

import numpy as np
import pytest

from sigcore import teaching
from sigcore.report.figures import walkthrough_heights
from ui import walkthrough as w

A, B = w.PRESETS["Textbook: A .70, B .50"]


def frames_of(start, stop, speed, *, shifted=False):
    x = teaching.draw_test_sets(A, B, stop, seed=0)
    detailed, _, max_frames = w.SPEEDS[speed]
    return x, *w.play(A, B, x, start, detailed=detailed, max_frames=max_frames, shifted=shifted)


def test_textbook_preset_is_the_sample_data_of_figure_4_11():
    assert teaching.accuracies(A, B) == pytest.approx((0.7, 0.5, 0.2))
    both, only_a = sum(a and b for a, b in zip(A, B)), sum(a and not b for a, b in zip(A, B))
    assert (both, only_a, sum(b and not a for a, b in zip(A, B))) == (3, 4, 2)


def test_first_draw_line_by_line_follows_figure_4_12():
    x, frames, drawn = frames_of(0, 1, "Line by line (Figure 4.12)")
    n = w.N
    assert [f["lines"] for f in frames] == ([(1, 1), (2, 2), (3, 3)] + [(4, 5)] * n + [(6, 6), (7, 7), (8, 8)])
    assert drawn == [0] * (n + 4) + [1, 1]
    for j in range(1, n + 1):  # x^(1) fills one document at a time
        row = frames[2 + j]["rows"][-1]["cells"]
        assert [cell[0] for cell in row[1:1 + j]] == [f"d{d + 1}" for d in x.documents[0][:j]]
        assert row[1 + j:] == [""] * (n - j + 4)
    scored = frames[n + 3]["rows"][-1]["cells"]  # "Calculate δ(x^(i))": its scores appear
    assert scored[-4:-1] == [w.textbook_number(v) for v in (x.score_a[0], x.score_b[0], x.delta[0])]
    assert sum(map(sum, frames[n + 3]["y"])) == 0 and sum(map(sum, frames[n + 4]["y"])) == 1  # counted at line 7
    # Figure 4.12's counters: b is how many test sets are asked for, i runs from 1 to b, j from 1 to n
    assert [f["texts"]["count"] for f in frames[:4]] == ["b = 1 · δ(x) = .20", "b = 1 · s = 0", "i = 1 of b = 1",
                                                         "i = 1 of b = 1, j = 1"]
    assert frames[-1]["texts"]["count"] == "b = 1"
    _, later, _ = frames_of(1, 11, "One x⁽ⁱ⁾ per frame")
    assert [f["texts"]["count"] for f in later] == [f"i = {i} of b = 11" for i in range(2, 12)] + ["b = 11"]


def test_a_batch_adds_to_the_histogram_and_fills_in_eq_4_48():
    x, frames, drawn = frames_of(1, 10_001, "Fast")
    assert len(frames) <= w.SPEEDS["Fast"][2] + 1 and drawn[-1] == 10_001 and np.all(np.diff(drawn) >= 0)
    body, tail = walkthrough_heights(x.delta, x.counted, w.N)
    last = frames[-1]
    assert last["y"] == [body, tail] and sum(tail) == x.counted.sum() and last["lines"] == (8, 8)
    s = int(x.counted.sum())
    assert f"s / b = {s:,} / 10,001 = {s / 10_001:.4f}" in last["texts"]["status"]
    assert f"exact p, over all 10¹⁰ equally likely x⁽ⁱ⁾ = {teaching.exact_bootstrap_p(A, B):.4f}" in \
        last["texts"]["status"]
    assert last["texts"]["count"] == "b = 10,001" and last["progress"] == 1


def test_table_shows_x_then_the_last_test_sets_drawn():
    x, frames, _ = frames_of(0, 100, "One x⁽ⁱ⁾ per frame")
    rows = frames[-1]["rows"]
    assert rows[0]["cells"][0] == "x" and rows[0]["cells"][-4:] == [".70", ".50", ".20", ""]
    assert rows[1]["cells"] == ["⋮"]
    assert [r["cells"][0] for r in rows[2:]] == ["x⁽⁹⁶⁾", "x⁽⁹⁷⁾", "x⁽⁹⁸⁾", "x⁽⁹⁹⁾", "x⁽¹⁰⁰⁾"]
    for i, row in zip(range(95, 100), rows[2:]):
        assert row["marked"] == bool(x.counted[i]) and row["cells"][-1] == ("✓" if x.counted[i] else "")
        assert [c[1] for c in row["cells"][1:11]] == [w.book_cell(A[d], B[d])
                                                      for d in x.documents[i]]


def test_slow_speeds_play_each_test_set_and_cap_the_frames():
    _, frames, drawn = frames_of(0, 100, "One x⁽ⁱ⁾ per frame")
    assert drawn == list(range(1, 101)) + [100]
    _, frames, _ = frames_of(5, 15, "Line by line (Figure 4.12)")
    assert len(frames) == 10 * (w.N + 3) + 1  # ten short enough to show line by line
    _, frames, drawn = frames_of(5, 10_005, "Line by line (Figure 4.12)")
    assert len(frames) <= (w.N + 3) + w.SPEEDS["Line by line (Figure 4.12)"][2] + 1 and drawn[-1] == 10_005


def test_shifted_view_draws_the_same_bars_twice():
    _, frames, _ = frames_of(0, 50, "Fast", shifted=True)
    assert frames[-1]["y"][:2] == frames[-1]["y"][2:]


def test_textbook_numbers():
    assert [w.textbook_number(v) for v in (0.7, -0.2, 0.0, 1.0)] == [".70", "−.20", ".00", "1.00"]
    assert w.sup(102) == "¹⁰²"


def test_the_textbook_x_reads_as_the_book_s_row():
    """SLP3 Figure 4.11, row x, documents 1 to 10 (a slash: that system got it wrong)."""
    a, b = w.PRESETS["Textbook: A .70, B .50"]
    assert [w.book_cell(*cell) for cell in zip(a, b)] == [
        "AB", "AB̸", "AB", "A̸B", "AB̸", "A̸B", "AB̸", "AB", "A̸B̸", "AB̸"]


@pytest.mark.parametrize("delta, says", [(0.2, "centre on δ(x) = .20."), (0.0, "Here δ(x) = 0"),
                                         (-0.2, "Here B is ahead on x")])
def test_why_twice_delta_reads_right_whatever_the_sign_of_delta(delta, says):
    text = w.why_twice(delta)
    assert says in text
    assert ("2·δ(x) = " + w.textbook_number(2 * delta) in text) == (delta != 0)
    assert ("centre on δ(x)" in text) == (delta != 0)  # with δ(x) = 0 they already centre on 0


def test_the_document_just_drawn_is_highlighted_in_x_and_in_its_row():
    x, frames, _ = frames_of(0, 1, "Line by line (Figure 4.12)")
    for j in range(1, w.N + 1):
        rows = frames[2 + j]["rows"]  # "Select a member of x", the j-th document
        drawn = int(x.documents[0][j - 1])
        assert [k for k, cell in enumerate(rows[0]["cells"][1:11]) if len(cell) == 3] == [drawn]  # in x
        assert rows[-1]["cells"][j][2:] == ["now"] and all(len(c) == 2 for c in rows[-1]["cells"][1:j])
    assert all(len(c) == 2 for c in frames[w.N + 3]["rows"][0]["cells"][1:11])  # scored: no highlight


def test_the_bar_that_just_grew_is_named_in_every_panel():
    x, frames, drawn = frames_of(0, 3, "One x⁽ⁱ⁾ per frame", shifted=True)
    grown = [(f["grew"], c) for f, c in zip(frames, drawn) if f["grew"]]
    assert [c for _, c in grown] == [1, 2, 3, 3]  # each x⁽ⁱ⁾ as it joins, and the last one at the end
    for grew, c in grown:
        bar, trace = int(round(x.delta[c - 1] * w.N)) + w.N, int(x.counted[c - 1])
        assert grew == [[trace, bar], [trace + 2, bar]]  # the histogram and its shifted twin
        assert frames[drawn.index(c)]["y"][trace][bar] >= 1  # the outlined bar holds that x⁽ⁱ⁾


def test_b_names_the_batch_s_end_and_mid_batch_counts_say_drawn():
    """Figure 4.12's i runs to b: while x⁽²¹⁾ is drawn, 20 test sets are "drawn", not "b"; at the end they are b."""
    x, frames, drawn = frames_of(20, 21, "Line by line (Figure 4.12)")
    for f, c in zip(frames, drawn):
        t = f["texts"]
        assert t["k-b"] == str(c) and (t["k-b-name"], t["k-sb-name"]) == (("b", "s / b") if c == 21 else
                                                                          ("drawn", "s / drawn"))
        assert ("s / b = " in t["status"]) == (c == 21)  # the book's s / b only once all b are drawn
        assert "of b = 21" in t["count"] or t["count"] == "b = 21"


def test_presenter_speeds_are_short_and_tell_every_speed_apart():
    shown = [w.short_speed(name) for name in w.SPEEDS]
    assert len(set(shown)) == len(w.SPEEDS) and max(map(len, shown)) <= 13, shown
    assert shown[:3] == ["Lines, 0.25 s", "Lines, 1 s", "Lines, 2 s"] and shown[-1] == "Fast"
