"""Where δ's variance comes from (sigcore.statistics.variance), checked by simulation: on data drawn from known
components, the split's Var(δ) at the design's size, with twice the items and with twice the runs, averages to the
variance of δ over the simulated experiments at those sizes; its components average to the true ones; and the
design (seeds or epochs) is the user's to say, since reading epochs as seeds with few runs overstates the runs."""

import numpy as np
import pytest

from sigcore.errors import SettingsError
from sigcore.report import seeds as seeds_words
from sigcore.statistics.variance import split

SIMS = 6_000


def _tolerance(sims: int = SIMS) -> float:
    """Four standard errors of a variance estimated from ``sims`` normal draws, relative."""
    return 4 * np.sqrt(2 / (sims - 1))


def _experiments(rng, sims, n, runs, *, differ, run, error, binary=False):
    """``sims`` experiments: A and B on n shared items (difficulty shared, A's item effects differing from B's by
    ``differ``), each with ``runs`` runs shifting every item by N(0, run²) and each score by N(0, error²); or, with
    ``binary``, right/wrong draws (epochs) from each item's chance of a right answer."""
    shared = rng.normal(0, 1, (sims, n, 1))
    if binary:
        p_b = 1 / (1 + np.exp(-shared))
        p_a = 1 / (1 + np.exp(-(shared + 0.3 + rng.normal(0, differ, (sims, n, 1)))))
        return (rng.random((sims, n, runs)) < p_a).astype(float), (rng.random((sims, n, runs)) < p_b).astype(float)
    a = 0.3 + shared + rng.normal(0, differ, (sims, n, 1)) + rng.normal(0, run, (sims, 1, runs)) \
        + rng.normal(0, error, (sims, n, runs))
    b = shared + rng.normal(0, run, (sims, 1, runs)) + rng.normal(0, error, (sims, n, runs))
    return a, b


def _delta_variance(a, b) -> float:
    return float(np.var(a.mean(axis=(1, 2)) - b.mean(axis=(1, 2)), ddof=1))


@pytest.mark.slow  # simulated experiments per design
@pytest.mark.parametrize("design, n, runs, truth", [
    ("seeds", 80, 5, dict(differ=0.8, run=0.3, error=1.0)),
    ("seeds", 150, 3, dict(differ=0.9, run=0.2, error=1.5)),
    ("epochs", 100, 4, dict(differ=0.8, run=0.0, error=1.2)),
])
def test_the_split_predicts_delta_s_variance_with_more_items_and_more_runs(design, n, runs, truth):
    rng = np.random.default_rng(11)
    a, b = _experiments(rng, SIMS, n, runs, **truth)
    splits = [split(x, y, design) for x, y in zip(a, b)]
    for items, more in ((1, 1), (2, 1), (1, 2)):
        a2, b2 = (a, b) if (items, more) == (1, 1) else _experiments(rng, SIMS, n * items, runs * more, **truth)
        predicted = np.mean([s.variance(items, more) for s in splits])
        assert predicted == pytest.approx(_delta_variance(a2, b2), rel=_tolerance())
    # the components themselves, on average (unbiased but for the truncation at 0, far from it here)
    assert np.mean([s.items for s in splits]) == pytest.approx(truth["differ"] ** 2 / n, rel=0.05)
    assert np.mean([s.error for s in splits]) == pytest.approx(2 * truth["error"] ** 2 / (n * runs), rel=0.02)
    if design == "seeds":
        assert np.mean([s.runs for s in splits]) == pytest.approx(2 * truth["run"] ** 2 / runs, rel=0.1)
    else:
        assert all(s.runs == 0 for s in splits)


def test_right_wrong_epochs_as_inspect_and_lm_eval_repeats_give_them():
    rng = np.random.default_rng(4)
    a, b = _experiments(rng, SIMS, 120, 3, differ=0.7, run=0, error=0, binary=True)
    splits = [split(x, y, "epochs") for x, y in zip(a, b)]
    for items, more in ((1, 1), (2, 1), (1, 2)):
        a2, b2 = (a, b) if (items, more) == (1, 1) else _experiments(rng, SIMS, 120 * items, 3 * more, differ=0.7,
                                                                     run=0, error=0, binary=True)
        assert np.mean([s.variance(items, more) for s in splits]) == pytest.approx(_delta_variance(a2, b2),
                                                                                   rel=_tolerance())
    s = splits[0]
    assert 0 < s.items_share < 1
    assert s.narrowing(items=2) == pytest.approx(1 - np.sqrt(0.5))  # every term of Var(δ) has n in it
    assert 0 < s.narrowing(runs=2) < s.narrowing(items=2)


def test_epochs_read_as_seeds_overstate_the_runs():
    rng = np.random.default_rng(2)
    a, b = _experiments(rng, SIMS, 200, 3, differ=0.5, run=0.0, error=1.5)
    truth = _delta_variance(a, b)
    as_seeds = np.mean([split(x, y, "seeds").variance() for x, y in zip(a, b)])
    as_epochs = np.mean([split(x, y, "epochs").variance() for x, y in zip(a, b)])
    assert as_epochs == pytest.approx(truth, rel=_tolerance())
    assert as_seeds > truth * (1 + _tolerance())  # σ²_run's truncation at 0, with 3 runs


def test_one_run_each_is_all_items_and_bad_shapes_are_refused():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(50, 1)), rng.normal(size=(50, 1))
    s = split(a, b)
    assert s.items_share == 1 and s.narrowing(runs=2) == 0
    assert s.variance() == pytest.approx(np.var(a[:, 0] - b[:, 0], ddof=1) / 50)  # the paired t's squared SE
    with pytest.raises(SettingsError, match="'epochs' or 'seeds'"):
        split(a, b, "trials")
    with pytest.raises(SettingsError, match="on the same items"):
        split(a, b[:40])
    with pytest.raises(SettingsError, match="at least 2 items"):
        split(a[:1], b[:1])


def _tidy(rng, sizes: dict[str, int], runs: int):
    import pandas as pd

    rows = []
    for task, n in sizes.items():
        chance = 1 / (1 + np.exp(-rng.normal(0, 1, n)))
        for m, lift in (("a", 0.1), ("b", 0.0), ("c", -0.05)):
            right = rng.random((n, runs)) < np.clip(chance + lift, 0, 1)[:, None]
            rows += [(m, task, f"q{i}", r, float(right[i, r])) for i in range(n) for r in range(runs)]
    return pd.DataFrame(rows, columns=["model", "task", "item", "run", "score"])


def test_the_board_s_split_is_each_task_s_weighted_by_its_share_squared(tmp_path, capsys):
    from sigcore import leaderboard
    from sigcore.__main__ import main
    from sigcore.report import board as words
    from sigcore.statistics.variance import combine

    frame = _tidy(np.random.default_rng(8), {"t1": 60, "t2": 140}, runs=3)
    board = leaderboard.from_table(frame)
    res = leaderboard.bootstrap(board, n_resamples=200, weight="items")
    per_task = []
    for t in board.tasks:
        cube = {m: frame[(frame.task == t) & (frame.model == m)].pivot(index="item", columns="run", values="score")
                .loc[list(board.items[t])].to_numpy() for m in "ab"}
        reference = split(cube["a"], cube["b"], "epochs")
        board_split = res.variance("a", "b", task=t)  # from the board's sums of squares
        assert (board_split.items, board_split.error, board_split.runs) == pytest.approx(
            (reference.items, reference.error, reference.runs), rel=1e-12)
        per_task.append(reference)
    shares = np.array([60, 140]) / 200
    together = combine(per_task, shares)
    assert (res.variance("a", "b").items, res.variance("a", "b").error) == pytest.approx(
        (together.items, together.error), rel=1e-12)
    assert res.variance("a", "b").variance() == pytest.approx(
        sum(w ** 2 * s.variance() for w, s in zip(shares, per_task)))
    path = tmp_path / "scores.csv"  # the command line prints the same rows
    frame.to_csv(path, index=False)
    assert main(["many", str(path), "--baseline", "b", "--resamples", "200", "--weight", "items"]) == 0
    out = capsys.readouterr().out
    assert words.variance_heading(res, "b") in out
    for row in words.variance_rows(res, "b"):
        assert any(line.split() == row[:1] + [c for cell in row[1:] for c in cell.split()]
                   for line in out.splitlines())
    assert [int(r[1][:-1]) + int(r[2][:-1]) for r in words.variance_rows(res, "b")] == [100, 100]


def test_a_weighted_sum_of_tasks_varies_as_combine_says():
    from sigcore.statistics.variance import combine

    rng = np.random.default_rng(9)
    shares = np.array([0.3, 0.7])
    a1, b1 = _experiments(rng, SIMS, 40, 3, differ=0.8, run=0, error=1.0)
    a2, b2 = _experiments(rng, SIMS, 90, 2, differ=0.5, run=0, error=1.3)
    deltas = shares[0] * (a1.mean(axis=(1, 2)) - b1.mean(axis=(1, 2))) + shares[1] * (a2.mean(axis=(1, 2))
                                                                                         - b2.mean(axis=(1, 2)))
    predicted = np.mean([combine([split(x1, y1), split(x2, y2)], shares).variance()
                         for x1, y1, x2, y2 in zip(a1, b1, a2, b2)])
    assert predicted == pytest.approx(np.var(deltas, ddof=1), rel=_tolerance())


def test_compare_seeds_splits_a_mean_over_items_and_says_so():
    from pathlib import Path

    import pandas as pd

    from sigcore import compare_seeds

    runs = pd.read_csv(Path(__file__).resolve().parents[1] / "sample_data" / "seeds" / "digits_runs.csv")
    mlp, forest = ([runs[f"{s}_seed{i}"] for i in range(5)] for s in ("mlp", "forest"))
    res = compare_seeds(runs.gold, mlp, forest, n_resamples=500)
    right = {s: np.column_stack([runs[f"{s}_seed{i}"] == runs.gold for i in range(5)]).astype(float)
             for s in ("mlp", "forest")}
    reference = split(right["mlp"], right["forest"], "seeds")
    assert (res.variance.items, res.variance.runs, res.variance.error) == pytest.approx(
        (reference.items, reference.runs, reference.error), rel=1e-12)
    items = round(100 * reference.items_share)
    assert seeds_words.variance_sentence(res) == (
        f"Of δ's variance, {items}% comes from the items and {100 - items}% from the seeds: twice the items would "
        f"narrow its interval by {reference.narrowing(items=2):.0%}, twice the seeds by "
        f"{reference.narrowing(runs=2):.0%} (variance components, sigcore.statistics.variance).")
    # the two-level bootstrap resamples items and seeds; its spread is near the components' (it counts each
    # item's luck twice, once with the items and once with the runs: a little wider)
    spread = np.var(res.distribution)
    assert reference.variance() < spread < reference.variance() + 2 * reference.error
    f1 = compare_seeds(runs.gold, mlp, forest, metric="macro_f1", n_resamples=200)
    assert f1.variance is None and seeds_words.variance_sentence(f1) == ""  # not a mean over items: no split
    one = compare_seeds(runs.gold, mlp[:1], forest[:1], n_resamples=200)
    assert seeds_words.variance_sentence(one) == ""


def _clustered(rng, sims, sizes, runs, *, between, within, error, binary=False):
    """``sims`` experiments of A and B on items in clusters of ``sizes`` (a passage's questions): A's item effects
    differ from B's by a cluster's N(0, between²) and the item's own N(0, within²); each of ``runs`` runs (epochs)
    adds N(0, error²) to every score, or, with ``binary``, is a right/wrong draw from the item's chance."""
    cluster = np.repeat(np.arange(len(sizes)), sizes)
    n = len(cluster)
    shared = rng.normal(0, 1, (sims, n, 1))
    lift = 0.3 + rng.normal(0, between, (sims, len(sizes), 1))[:, cluster] + rng.normal(0, within, (sims, n, 1))
    if binary:
        p_a, p_b = 1 / (1 + np.exp(-(shared + lift))), 1 / (1 + np.exp(-shared))
        a = (rng.random((sims, n, runs)) < p_a).astype(float)
        return a, (rng.random((sims, n, runs)) < p_b).astype(float), cluster
    a = shared + lift + rng.normal(0, error, (sims, n, runs))
    return a, shared + rng.normal(0, error, (sims, n, runs)), cluster


@pytest.mark.parametrize("sizes, runs, truth", [
    (np.tile([2, 4, 6, 8], 6), 3, dict(between=0.5, within=0.8, error=1.0)),  # 24 passages of 2 to 8 questions
    (np.full(30, 3), 4, dict(between=0.4, within=0.6, error=1.2)),
])
def test_the_clustered_split_predicts_delta_s_variance_with_more_clusters_items_and_runs(sizes, runs, truth):
    rng = np.random.default_rng(12)
    a, b, cluster = _clustered(rng, SIMS, sizes, runs, **truth)
    splits = [split(x, y, "epochs", cluster) for x, y in zip(a, b)]
    for items, size, more in ((1, 1, 1), (2, 1, 1), (1, 2, 1), (1, 1, 2)):
        # twice the items in twice the clusters (as many of each size); twice the items in each cluster; twice the runs
        a2, b2, _ = (a, b, None) if items == size == more == 1 else _clustered(
            rng, SIMS, np.tile(sizes, items) * size, runs * more, **truth)
        predicted = np.mean([s.variance(items, more, size) for s in splits])
        assert predicted == pytest.approx(_delta_variance(a2, b2), rel=_tolerance())
    n = len(cluster)
    assert np.mean([s.clusters for s in splits]) == pytest.approx(
        truth["between"] ** 2 * np.sum(sizes ** 2) / n ** 2, rel=0.1)
    assert np.mean([s.items for s in splits]) == pytest.approx(truth["within"] ** 2 / n, rel=0.1)
    assert np.mean([s.error for s in splits]) == pytest.approx(2 * truth["error"] ** 2 / (n * runs), rel=0.02)
    # the items taken as independent understate it: the clusters' share is counted once for each item
    naive = np.mean([split(x, y, "epochs").variance() for x, y in zip(a, b)])
    assert naive < _delta_variance(a, b) * (1 - 2 * _tolerance())
    assert 0 < splits[0].clusters_share < splits[0].items_share < 1
    assert splits[0].narrowing(cluster_size=2) < splits[0].narrowing(items=2)  # the clusters' term stays


def test_right_wrong_epochs_in_clusters():
    rng = np.random.default_rng(5)
    sizes = np.tile([1, 3, 5], 10)
    a, b, cluster = _clustered(rng, SIMS, sizes, 3, between=1.2, within=1.2, error=0, binary=True)
    splits = [split(x, y, "epochs", cluster) for x, y in zip(a, b)]
    for items, size, more in ((1, 1, 1), (2, 1, 1), (1, 2, 1), (1, 1, 2)):
        a2, b2, _ = (a, b, None) if items == size == more == 1 else _clustered(
            rng, SIMS, np.tile(sizes, items) * size, 3 * more, between=1.2, within=1.2, error=0, binary=True)
        assert np.mean([s.variance(items, more, size) for s in splits]) == pytest.approx(_delta_variance(a2, b2),
                                                                                          rel=_tolerance())


def test_the_clustered_split_is_the_cluster_bootstrap_s_variance():
    """Clusters of one size: Var(δ) by the split is MS_between / n, and the cluster bootstrap's, b → ∞, the same
    times (G − 1) / G, on each data set (where no component is truncated at 0); the board's resampling of clusters
    (sigcore.leaderboard.task_resamples) gives it within Monte-Carlo error, data set after data set."""
    from sigcore.leaderboard import task_resamples

    rng = np.random.default_rng(3)
    b_, g = 2_000, 15
    a, b, cluster = _clustered(rng, 40, np.full(g, 4), 3, between=0.6, within=0.7, error=1.0)
    ratios = []
    for k, (x, y) in enumerate(zip(a, b)):
        s = split(x, y, "epochs", cluster)
        means = task_resamples(np.column_stack([x.mean(axis=1), y.mean(axis=1)]), b_,
                               np.random.SeedSequence(k), cluster)
        ratios.append(np.var(means[:, 0] - means[:, 1]) / (s.variance() * (g - 1) / g))
    # each ratio's Monte-Carlo error: a variance from b draws, √(2 / b) relative; 40 of them averaged
    assert np.mean(ratios) == pytest.approx(1, abs=4 * np.sqrt(2 / b_) / np.sqrt(len(ratios)))


def test_the_clustered_split_refuses_what_it_cannot_split():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(6, 2)), rng.normal(size=(6, 2))
    with pytest.raises(SettingsError, match="a cluster for each of the 6 items, not 5"):
        split(a, b, "epochs", [0, 0, 1, 1, 2])
    with pytest.raises(SettingsError, match="at least 2 clusters"):
        split(a, b, "epochs", ["p"] * 6)
    singles = split(a, b, "epochs", list("abcdef"))  # one item a cluster: the items' split, all of it the clusters'
    assert singles.items == 0 and singles.clusters == pytest.approx(split(a, b).items, rel=1e-12)
