"""The frames of the classroom walk-through: what the chart, the pseudo-code and the table show, step by step, at
each batch's pace."""

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from sigcore import teaching
from sigcore.errors import SettingsError
from sigcore.report.figures import walkthrough_heights
from sigcore.teaching.bootstrap import nearest_exact_p
from ui import walkthrough as w

A, B = w.PRESETS["Textbook: A .70, B .50"]
LINES = w.pace(1, 0.25)  # Draw x^(i), line by line
ONE_BY_ONE = w.Pace(False, 0.5, 100)  # a frame for each x^(i)
ROOT = Path(__file__).resolve().parents[1]


def frames_of(start, stop, pace, *, shifted=False):
    x = teaching.draw_test_sets(A, B, stop, seed=0)
    return x, *w.play(A, B, x, start, detailed=pace.detailed, max_frames=pace.max_frames, shifted=shifted)


def test_textbook_preset_is_the_sample_data_of_figure_4_11():
    assert teaching.accuracies(A, B) == pytest.approx((0.7, 0.5, 0.2))
    both, only_a = sum(a and b for a, b in zip(A, B)), sum(a and not b for a, b in zip(A, B))
    assert (both, only_a, sum(b and not a for a, b in zip(A, B))) == (3, 4, 2)


def test_first_draw_line_by_line_follows_figure_4_12():
    x, frames, drawn = frames_of(0, 1, LINES)
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
    _, later, _ = frames_of(1, 11, w.pace(10, 0.25))
    assert [f["texts"]["count"] for f in later] == [f"i = {i} of b = 11" for i in range(2, 12)] + ["b = 11"]


def test_a_batch_adds_to_the_histogram_and_fills_in_eq_4_48():
    x, frames, drawn = frames_of(1, 10_001, w.pace(10_000, 0.25))
    assert len(frames) <= w.BATCH_PACES[10_000].max_frames + 1 and drawn[-1] == 10_001 and np.all(np.diff(drawn) >= 0)
    body, tail = walkthrough_heights(x.delta, x.counted, w.N)
    last = frames[-1]
    assert last["y"] == [body, tail] and sum(tail) == x.counted.sum() and last["lines"] == (8, 8)
    s = int(x.counted.sum())
    assert f"s / b = {s:,} / 10,001 = {s / 10_001:.4f}" in last["texts"]["status"]
    assert f"exact p, over all 10¹⁰ equally likely x⁽ⁱ⁾ = {teaching.exact_bootstrap_p(A, B):.4f}" in \
        last["texts"]["status"]
    assert last["texts"]["count"] == "b = 10,001" and last["progress"] == 1
    # presenter mode's eq. 4.48, filled in: the sum with this x's threshold, then the counts
    assert last["texts"]["eq"] == (f"p-value(x) = (1/b) · Σᵢ 𝟙(δ(x⁽ⁱ⁾) ≥ 2·δ(x) = .40)\n"
                                   f"≈ s / b = {s:,} / 10,001 = {s / 10_001:.4f}   (eq. 4.48)")
    c = drawn[0]  # mid-batch: s over the x⁽ⁱ⁾ drawn so far, as the counters say
    so_far = int(x.counted[:c].sum())
    assert frames[0]["texts"]["eq"].endswith(f"≈ s / drawn = {so_far:,} / {c:,} = {so_far / c:.4f}   (eq. 4.48)")


def test_table_shows_x_then_the_last_test_sets_drawn():
    x, frames, _ = frames_of(0, 100, ONE_BY_ONE)
    rows = frames[-1]["rows"]
    assert rows[0]["cells"][0] == "x" and rows[0]["cells"][-4:] == [".70", ".50", ".20", ""]
    assert rows[1]["cells"] == ["⋮"]
    assert [r["cells"][0] for r in rows[2:]] == ["x⁽⁹⁶⁾", "x⁽⁹⁷⁾", "x⁽⁹⁸⁾", "x⁽⁹⁹⁾", "x⁽¹⁰⁰⁾"]
    for i, row in zip(range(95, 100), rows[2:]):
        assert row["marked"] == bool(x.counted[i]) and row["cells"][-1] == ("✓" if x.counted[i] else "")
        assert [c[1] for c in row["cells"][1:11]] == [w.book_cell(A[d], B[d])
                                                      for d in x.documents[i]]


@pytest.mark.parametrize("line_seconds", w.LINE_PACES)
def test_each_kind_of_batch_plays_at_its_own_pace_whatever_the_line_pace(line_seconds):
    """The lecture: x⁽¹⁾ narrated line by line, Draw 10 seen one x⁽ⁱ⁾ at a time, Draw 100 and 10,000 in seconds;
    the one setting (the line-by-line pace) changes Draw x⁽ⁱ⁾ alone (at "2 s a line" Draw 10 took 262 s)."""
    one = w.pace(1, line_seconds)
    _, frames, drawn = frames_of(20, 21, one)
    assert one.detailed and one.interval == line_seconds
    assert len(frames) == w.N + 4 and drawn == [20] * (w.N + 2) + [21, 21]  # Figure 4.12's loop, once
    ten = w.pace(10, line_seconds)
    _, frames, drawn = frames_of(21, 31, ten)
    assert not ten.detailed and drawn == list(range(22, 32)) + [31]  # each x⁽ⁱ⁾ joins in a frame of its own
    assert [f["rows"][-1]["cells"][0] for f in frames[:-1]] == [f"x⁽{w.sup(i)}⁾" for i in range(22, 32)]
    assert 3 <= ten.interval * len(frames) <= 8  # about 5 s: long enough to see each, short enough to go on
    for k, start in ((100, 31), (10_000, 131)):
        fast = w.pace(k, line_seconds)
        _, frames, drawn = frames_of(start, start + k, fast)
        assert not fast.detailed and drawn[-1] == start + k and fast.interval * len(frames) <= 4  # seconds
    assert w.pace(10, 0.25) == w.pace(10, 2.0) and w.pace(10_000, 0.25) == w.pace(10_000, 2.0)


def test_shifted_view_draws_the_same_bars_twice():
    _, frames, _ = frames_of(0, 50, w.pace(100, 1), shifted=True)
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
    x, frames, _ = frames_of(0, 1, LINES)
    for j in range(1, w.N + 1):
        rows = frames[2 + j]["rows"]  # "Select a member of x", the j-th document
        drawn = int(x.documents[0][j - 1])
        assert [k for k, cell in enumerate(rows[0]["cells"][1:11]) if len(cell) == 3] == [drawn]  # in x
        assert rows[-1]["cells"][j][2:] == ["now"] and all(len(c) == 2 for c in rows[-1]["cells"][1:j])
    assert all(len(c) == 2 for c in frames[w.N + 3]["rows"][0]["cells"][1:11])  # scored: no highlight


def test_the_bar_that_just_grew_is_named_in_every_panel():
    x, frames, drawn = frames_of(0, 3, ONE_BY_ONE, shifted=True)
    grown = [(f["grew"], c) for f, c in zip(frames, drawn) if f["grew"]]
    assert [c for _, c in grown] == [1, 2, 3, 3]  # each x⁽ⁱ⁾ as it joins, and the last one at the end
    for grew, c in grown:
        bar, trace = int(round(x.delta[c - 1] * w.N)) + w.N, int(x.counted[c - 1])
        assert grew == [[trace, bar], [trace + 2, bar]]  # the histogram and its shifted twin
        assert frames[drawn.index(c)]["y"][trace][bar] >= 1  # the outlined bar holds that x⁽ⁱ⁾


def test_b_names_the_batch_s_end_and_mid_batch_counts_say_drawn():
    """Figure 4.12's i runs to b: while x⁽²¹⁾ is drawn, 20 test sets are "drawn", not "b"; at the end they are b."""
    x, frames, drawn = frames_of(20, 21, LINES)
    for f, c in zip(frames, drawn):
        t = f["texts"]
        assert t["k-b"] == str(c) and (t["k-b-name"], t["k-sb-name"]) == (("b", "s / b") if c == 21 else
                                                                          ("drawn", "s / drawn"))
        assert ("s / b = " in t["status"]) == (c == 21)  # the book's s / b only once all b are drawn
        assert "of b = 21" in t["count"] or t["count"] == "b = 21"


def test_the_line_by_line_paces_read_short_and_apart():
    shown = [w.pace_label(seconds) for seconds in w.LINE_PACES]
    assert shown == ["0.25 s a line", "0.5 s a line", "1 s a line", "2 s a line"]  # 22 px in presenter mode's row
    assert w.LINE_PACE in w.LINE_PACES


def test_figure_4_12_hangs_its_continuation_and_keeps_its_comments_apart():
    """The book's pseudo-code, its long first line broken where a continuation starts (the page hangs it deeper than
    its statement); the comments, in the page's language, follow "   # " on the normal page and are dropped in
    presenter mode."""
    assert w.PRESENTER_CODE[0] == "function BOOTSTRAP(test set x, num of samples b)\nreturns p-value(x)"
    assert w.code()[1] == "  Calculate δ(x)   # how much better does A do than B on x"
    assert [line.split("   # ")[0] for line in w.code()] == w.PRESENTER_CODE
    assert w.PRESENTER_CODE[w.COUNT] == "    s ← s + 1 if δ(x⁽ⁱ⁾) ≥ 2·δ(x)"
    assert w.PRESENTER_CODE[w.P].strip() == "p-value(x) ≈ s / b"


def test_no_test_set_of_10_documents_has_the_books_p_and_the_caption_says_which_is_nearest():
    """SLP3's "47 of 10,000, p = .0047" by exact enumeration over every test set of 10 right/wrong documents (each
    count of both right, only A, only B, neither): no exact p lies within .001 of .0047; the nearest, .0060 = .6¹⁰
    (6 only A, 1 only B: A must win all 10 draws), is the preset "Rejected at .01", as the caption says."""
    seen = {}
    for both, only_a, only_b in itertools.product(range(11), repeat=3):
        neither = 10 - both - only_a - only_b
        if neither < 0:
            continue
        a = [True] * both + [True] * only_a + [False] * only_b + [False] * neither
        b = [True] * both + [False] * only_a + [True] * only_b + [False] * neither
        seen[(both, only_a, only_b)] = teaching.exact_bootstrap_p(a, b)
    assert len(seen) == 286 and not [k for k, p in seen.items() if abs(p - 0.0047) < 0.001]
    nearest = min(seen, key=lambda k: abs(seen[k] - 0.0047))
    assert nearest[1:] == (6, 1) and seen[nearest] == pytest.approx(0.6 ** 10, rel=1e-12)
    assert {p for k, p in seen.items() if k[1:] == (6, 1)} == {seen[nearest]}  # both / neither do not matter
    p, only_a, only_b = nearest_exact_p(0.0047, 10)
    assert (only_a, only_b) == (6, 1) and p == pytest.approx(0.6 ** 10, rel=1e-12)
    rejected = w.PRESETS["Rejected at .01: A .90, B .40"]
    assert (sum(a and not b for a, b in zip(*rejected)), sum(b and not a for a, b in zip(*rejected))) == (6, 1)
    said = w.book_example()
    assert "No test set of 10 documents gives p ≈ .0047" in said and "the nearest exact p is .0060, with 6 " in said
    assert '"Rejected at .01: A .90, B .40"' in said
    with pytest.raises(SettingsError, match="`n` must be a positive whole number of items, not 0"):
        nearest_exact_p(0.0047, 0)


def chart(at: AppTest) -> dict:
    return json.loads(next(c for c in at.get("component_instance") if "walk-chart" in c.proto.id).proto.json_args)


def test_the_page_plays_each_batch_at_its_pace_and_presenter_mode_gets_the_decision():
    """AppTest: the line-by-line pace the lecturer chose reaches Draw x⁽ⁱ⁾ alone, and travels in the link; presenter
    mode sends α and the book's conclusion for under the code, and keeps room for x and two x⁽ⁱ⁾ rows."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120).run()
    at.switch_page("app_pages/classroom.py")
    at.query_params["speed"] = "2"  # an older link's "Line by line, 2 s a step"
    at.run()
    assert at.selectbox(key="walk-pace").value == 2.0 and at.query_params["pace"] == "2"
    assert "speed" not in at.query_params
    at.selectbox(key="walk-pace").set_value(0.5).run()
    at.button(key="walk-draw-10").click().run()
    args = chart(at)
    assert args["interval"] == 500 and len(args["frames"]) == 11  # Draw 10's own pace, not the lines'
    at.button(key="walk-draw-1").click().run()
    args = chart(at)
    assert args["interval"] == 500 and len(args["frames"]) == w.N + 4  # x⁽¹¹⁾ at 0.5 s a line
    assert args["verdict"] is None and args["table_rows"] == 0 and at.query_params["pace"] == "0.5"
    at.toggle(key="presenter").set_value(True).run()
    args = chart(at)
    assert args["verdict"] == ("Threshold α = .05. **p ≈ .27 > .05: we cannot reject H0** that A is not better than "
                               "B; the difference is not statistically significant (which does not show that A and B "
                               "are equal).")
    assert args["table_rows"] == 3 and args["labels"]["finish"] == "Finish ▶▶"
    assert args["frames"][-1]["texts"]["eq"].startswith("p-value(x) = (1/b) · Σᵢ 𝟙(δ(x⁽ⁱ⁾) ≥ 2·δ(x) = .40)\n≈ s / b = ")


@pytest.mark.parametrize("delta, anchor", [(0.5, "right"), (-0.5, "left"), (0.2, "center")])
def test_a_line_near_the_end_of_the_range_is_labelled_towards_its_middle(delta, anchor):
    """With δ(x) = .50 ("Rejected at .01") the line 2·δ(x) = 1.00 stands at the axis' end: its label, centred on it,
    ran past the panel into the code beside it."""
    from sigcore.report.figures import walkthrough_histogram

    labels = {a.text: a.xanchor for a in walkthrough_histogram(w.N, delta, font=24, legend=False).layout.annotations}
    assert labels[f"2·δ(x) = {w.textbook_number(2 * delta)}"] == anchor
    assert labels[f"δ(x) = {w.textbook_number(delta)}"] == "center"
