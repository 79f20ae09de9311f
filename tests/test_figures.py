"""Figures: bins, lines and the counted tail come from the same rules as the p-value."""

import numpy as np
import pytest

import sigcore
from sigcore import teaching
from sigcore.comparison import counted
from sigcore.report.figures import (
    delta_histogram,
    histogram_edges,
    live_edges,
    walkthrough_heights,
    walkthrough_histogram,
)

GOLD, A, B = [1] * 10, [1, 1, 1, 0, 1, 0, 1, 1, 0, 1], [1, 0, 1, 1, 0, 1, 0, 1, 0, 0]


def test_lattice_values_get_one_bar_each_centred_on_the_value():
    edges = histogram_edges(np.array([0.1, 0.2, 0.3 + 1e-16]), (0.2, 0.4))
    np.testing.assert_allclose(edges, [0.05, 0.15, 0.25, 0.35, 0.45])


def test_live_edges_cover_four_standard_deviations_and_the_marks():
    values = np.random.default_rng(0).normal(1.0, 0.5, size=200)
    edges = live_edges(values, (1.0, 2.0, 0.0))
    assert edges[0] <= values.mean() - 4 * values.std() and edges[-1] >= values.mean() + 4 * values.std()
    assert edges[0] <= 0.0 and len(edges) == 61


def test_histogram_bars_add_up_and_the_red_ones_are_what_p_counts():
    res = sigcore.compare(GOLD, A, B, n_resamples=2_000, test="bootstrap", alternative="greater")
    fig = delta_histogram(res)
    body, tail = (np.asarray(trace.y) for trace in fig.data)
    assert body.sum() + tail.sum() == 2_000
    assert tail.sum() == counted(res).sum() == round(res.p_value * 2_000)
    assert [shape.x0 for shape in fig.layout.shapes] == pytest.approx([res.delta, res.threshold])


def test_permutation_histogram_marks_delta_only_and_closed_form_has_none():
    res = sigcore.compare(GOLD, A, B, test="permutation", n_resamples=2_000, alternative="greater")
    assert [shape.x0 for shape in delta_histogram(res).layout.shapes] == pytest.approx([res.delta])
    with pytest.raises(ValueError, match="no resampled distribution"):
        delta_histogram(sigcore.compare(GOLD, A, B, test="t", alternative="greater"))


def test_values_outside_a_fixed_range_pile_up_in_the_end_bars():
    res = sigcore.compare(GOLD, A, B, n_resamples=1_000, test="bootstrap", alternative="greater")
    fig = delta_histogram(res, edges=np.array([0.05, 0.15, 0.25, 0.35]))
    assert sum(np.asarray(trace.y).sum() for trace in fig.data) == 1_000


def test_walkthrough_bars_count_the_drawn_test_sets_per_possible_value():
    draws = teaching.draw_test_sets([1] * 7 + [0] * 3, [1] * 4 + [0] * 3 + [1, 0, 0], 2_000, seed=1)
    body, tail = walkthrough_heights(draws.delta, draws.counted, 10)
    edges = (np.arange(-10, 12) - 0.5) / 10  # one bar per k/10, k = -10 ... 10
    assert np.array_equal(np.add(body, tail), np.histogram(draws.delta, bins=edges)[0])
    assert sum(tail) == draws.counted.sum() and not any(tail[:14]) and not any(body[14:])  # tail: δ ≥ 0.4


def test_walkthrough_histogram_and_its_shifted_twin():
    fig = walkthrough_histogram(10, 0.2)
    assert len(fig.data) == 2 and np.allclose(fig.data[0].x, np.arange(-10, 11) / 10)
    assert [s.x0 for s in fig.layout.shapes] == [0.2, 0.4]  # δ(x), 2·δ(x)
    assert fig.layout.yaxis.autorangeoptions.include == (5,)  # one test set is a bar of 1 on whole-number ticks
    fig = walkthrough_histogram(10, 0.2, shifted=True)
    assert len(fig.data) == 4 and [t.xaxis for t in fig.data] == ["x", "x", "x2", "x2"]
    assert np.allclose(fig.data[2].x, np.arange(-10, 11) / 10 - 0.2)
    assert [(s.xref, s.x0) for s in fig.layout.shapes[2:]] == [("x2", 0), ("x2", 0.2)]  # H0's 0; δ(x) the threshold
    assert fig.layout.xaxis.range == fig.layout.xaxis2.range == pytest.approx((-1.3, 1.1))  # the shift seen as one


@pytest.mark.parametrize("delta", [0.2, -0.2, 0.3, -0.5])
def test_walkthrough_labels_sit_in_rows_of_their_own_whatever_the_sign(delta):
    """B ahead put 'δ(x) = -.20' on top of '2·δ(x) = -.40' (and of 'H0: 0' in the shifted panel)."""
    for font in (13, 24):
        fig = walkthrough_histogram(10, delta, shifted=True, font=font)
        for inner, outer in (fig.layout.annotations[:2], fig.layout.annotations[2:]):  # one panel's two lines
            assert inner.xanchor == outer.xanchor == "center" and inner.font.size == outer.font.size == font
            assert outer.yshift - inner.yshift >= 1.2 * font  # a row apart: the labels cannot overlap
        assert fig.layout.margin.t >= 3 * 1.2 * font  # room for the legend's row and the two rows of labels
        shown = f"{abs(delta):.2f}".replace("0.", ".", 1)
        assert fig.layout.annotations[0].text == f"δ(x) = {'−' if delta < 0 else ''}{shown}"  # a minus, no hyphen
