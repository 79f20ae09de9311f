"""The anytime-valid comparison (sigcore.sequential): its confidence sequence equal to confseq's, the authors'
package (tests/data/confseq); the online Monitor equal to the whole-run function; under continuous monitoring the
sequence excludes a true δ at most α of the time, where peeking at a fixed-n t-test every 10 items does far more
often; its width against the fixed-n interval; the sentence agreeing with where it stopped."""

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sigcore import sequential
from sigcore.errors import InputError, SettingsError

REFERENCE = Path(__file__).resolve().parent / "data" / "confseq" / "reference.json.gz"


def test_the_sequence_is_confseq_s():
    cases = json.loads(gzip.decompress(REFERENCE.read_bytes()))
    assert len(cases) == 6
    for case in cases:
        low, high = sequential.bounds(case["x"], alpha=case["alpha"], low=0, high=1)
        assert np.max(np.abs(low - case["lower"])) < 1e-12, case["name"]
        assert np.max(np.abs(high - case["upper"])) < 1e-12, case["name"]


@pytest.mark.parametrize("seed", range(6))
def test_the_monitor_gives_the_run_s_numbers_item_by_item(seed):
    rng = np.random.default_rng(seed)
    n, low, high = int(rng.integers(20, 400)), *(((0.0, 1.0), (-2.0, 3.0))[seed % 2])
    a = rng.uniform(low, high, n) if seed % 2 else (rng.random(n) < 0.8).astype(float)
    b = rng.uniform(low, high, n) if seed % 2 else (rng.random(n) < 0.7).astype(float)
    monitor = sequential.Monitor(low=low, high=high, alpha=0.1, margin=0.05 * (seed % 3))
    seen = np.array([monitor.update(x, y)[:2] for x, y in zip(a, b)])
    whole = sequential.run(a, b, low=low, high=high, alpha=0.1, margin=0.05 * (seed % 3))
    assert np.allclose(seen[:, 0], whole.lower, atol=1e-12) and np.allclose(seen[:, 1], whole.upper, atol=1e-12)
    assert monitor.stopped == whole.stopped
    assert sequential.run(a, b, low=low, high=high, alpha=0.1).lower.tolist() == sequential.run(
        a, b, low=low, high=high, alpha=0.1).lower.tolist()  # the same order, the same numbers


def _null_runs(rng, sims, n, p=0.7):
    """Right/wrong items of two systems equally good: δ = 0."""
    return (rng.random((sims, n)) < p).astype(float), (rng.random((sims, n)) < p).astype(float)


@pytest.mark.slow
def test_watched_after_every_item_it_rejects_a_true_h0_at_most_alpha_and_peeking_at_t_far_more():
    rng = np.random.default_rng(0)
    sims, n = 1_000, 500
    a, b = _null_runs(rng, sims, n)
    ever = np.array([sequential.run(x, y).stopped is not None for x, y in zip(a, b)])
    d = a - b
    looks = np.arange(10, n + 1, 10)  # a fixed-n t-test after every 10 items, stopped at the first p < .05
    peeked = np.zeros(sims, dtype=bool)
    for t in looks:
        part = d[:, :t]
        se = part.std(axis=1, ddof=1) / math.sqrt(t)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = 2 * stats.t.sf(np.abs(part.mean(axis=1) / se), t - 1)
        peeked |= np.nan_to_num(p, nan=1.0) < 0.05
    se = math.sqrt(0.05 * 0.95 / sims)
    assert ever.mean() <= 0.05 + 2.5 * se, ever.mean()  # valid at every stopping time
    assert peeked.mean() > 0.15, peeked.mean()  # the pitfall it replaces: peeking inflates α threefold or more


@pytest.mark.slow
def test_it_covers_a_true_difference_at_every_item_and_stops_when_the_difference_is_real():
    rng = np.random.default_rng(1)
    sims, n = 500, 600
    a = (rng.random((sims, n)) < 0.8).astype(float)
    b = (rng.random((sims, n)) < 0.7).astype(float)
    runs = [sequential.run(x, y) for x, y in zip(a, b)]
    missed = np.mean([np.any((r.lower > 0.1) | (r.upper < 0.1)) for r in runs])  # the true δ = 0.1
    assert missed <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / sims), missed
    stopped = [r.stopped for r in runs if r.stopped]
    assert len(stopped) > 0.6 * sims and all(r.side == 1 for r in runs if r.stopped)  # A better, never B
    ratios = [r.width_ratio for r in runs]
    assert 1.2 < np.median(ratios) < 2.5  # wider than the fixed-n interval: the price of looking, said


def test_the_sentence_says_where_it_stopped_and_what_it_costs():
    rng = np.random.default_rng(5)
    a, b = (rng.random(800) < 0.85).astype(float), (rng.random(800) < 0.7).astype(float)
    r = sequential.run(a, b)
    text = sequential.sentence(r, "new", "old")
    assert r.stopped and r.side == 1 and text.startswith("new is better than old: the 95% confidence sequence")
    assert f"excludes 0 from item {r.stopped:,} of 800 on" in text
    assert r.lower[r.stopped - 1] > 0 >= r.lower[r.stopped - 2]  # the first item where it does
    assert f"{r.width_ratio:.1f}x as wide as the fixed-n 95% t interval" in text
    never = sequential.run(a[:30], b[:30])
    assert sequential.sentence(never).startswith("The 95% confidence sequence for δ = A − B never excluded 0")
    ni = sequential.run(a, b, margin=0.05)
    assert ni.stopped <= r.stopped and "no worse than" in sequential.sentence(ni)


def test_unbounded_or_out_of_range_scores_are_refused():
    with pytest.raises(InputError, match="item 2's difference 1.5 is outside"):
        sequential.run([1, 2.5], [0, 1], low=0, high=1)
    with pytest.raises(SettingsError, match="low < high"):
        sequential.run([1], [0], low=1, high=1)
    with pytest.raises(InputError, match="A has 2 items and B 1"):
        sequential.run([1, 0], [0])


def test_compare_sequential_on_the_command_line(tmp_path, capsys):
    from sigcore.__main__ import main

    rng = np.random.default_rng(9)
    a, b = (rng.random(600) < 0.85).astype(int), (rng.random(600) < 0.7).astype(int)
    table = tmp_path / "t.csv"
    table.write_text("gold,new,old\n" + "".join(f"1,{x},{y}\n" for x, y in zip(a, b)))
    assert main(["compare", str(table), "--sequential", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = sequential.run(a, b)
    assert (got["stopped"], got["side"], got["n_items"]) == (expected.stopped, 1, 600)
    assert got["sequence"]["lower"] == expected.lower.tolist() and got["range"] == [0.0, 1.0]
    assert main(["compare", str(table), "--sequential"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == sequential.sentence(expected, "new", "old")
    scores = tmp_path / "s.csv"
    scores.write_text("new,old\n" + "".join(f"{x / 2},{y / 3}\n" for x, y in zip(a, b)))
    assert main(["compare", str(scores), "--metric", "mean", "--sequential"]) == 2
    assert "needs the range the per-item scores can take" in capsys.readouterr().err
    assert main(["compare", str(scores), "--metric", "mean", "--sequential", "--score-range", "0", "1"]) == 0
    for extra, said in ((["--test", "t"], "--test is not taken with --sequential"),
                        (["--metric", "macro_f1"], "needs a mean of per-item values")):
        assert main(["compare", str(table), "--sequential", *extra]) == 2
        assert said in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(6))
def test_the_played_frames_grow_to_the_whole_figure_and_decide_where_the_sequence_does(seed):
    from sigcore.report.sequence_figure import frames, sequence

    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 4000))
    a, b = (rng.random(n) < 0.7).astype(float), (rng.random(n) < 0.7 - 0.1 * (seed % 2)).astype(float)
    r = sequential.run(a, b)
    fig, played = sequence(r).to_dict(), frames(r)
    counts = [int(f["count"].split()[1].replace(",", "")) for f in played]
    assert counts == sorted(set(counts)) and counts[-1] == n and (r.stopped is None or r.stopped in counts)
    x = fig["data"][0]["x"]
    for m, f in zip(counts, played):
        drawn = len(f["y"][1])
        assert x[drawn - 1] <= m and (drawn == len(x) or x[drawn] > m)  # the items up to m, no further
        decided = r.stopped is not None and m >= r.stopped
        assert (f["y"][5] != []) == decided and (", decided at item" in f["title"]) == decided
        low, high = (sequential.decimal(v[m - 1]) for v in (r.lower, r.upper))
        assert f"δ ∈ [{low}, {high}]" in f["title"]
    assert [list(y) for y in played[-1]["y"][:5]] == [list(t["y"]) for t in fig["data"][:5]]
    assert played[-1]["y"][6] == list(r.fixed)


def test_the_running_fixed_n_interval_is_scipys_t_interval_after_each_number_of_items():
    from scipy import stats

    rng = np.random.default_rng(11)
    a, b = rng.random(400), rng.random(400)
    r = sequential.run(a, b, alpha=0.1)
    d = a - b
    for m in (2, 3, 17, 250, 400):
        expected = stats.t.interval(0.9, m - 1, loc=d[:m].mean(), scale=stats.sem(d[:m]))
        assert (r.running[0][m - 1], r.running[1][m - 1]) == pytest.approx(expected, rel=1e-10, abs=1e-12)
    assert np.isnan(r.running[0][0]) and r.fixed == pytest.approx(expected, rel=1e-10)
