"""Clusters on the board of many tasks: an Inspect sample's metadata (metadata.passage) read as a column, the items
resampled in their clusters, whole, as sigcore.compare's cluster bootstrap resamples documents (Field & Welsh
2007), checked against it; every item in one cluster, said otherwise."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sigcore
from sigcore import leaderboard
from sigcore.__main__ import main
from sigcore.errors import InputError, SettingsError
from sigcore.logs import tidy

LOGS = Path(__file__).resolve().parent / "data" / "inspect"
B = 20_000


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return tidy.from_logs([LOGS / "alpha.eval", LOGS / "beta.json.gz"])


def test_an_inspect_sample_s_metadata_is_a_column_of_the_tidy_table(table):
    assert "metadata.passage" in table.columns and table["metadata.passage"].nunique() == 10
    assert (table.groupby("item")["metadata.passage"].nunique() == 1).all()  # each item in one passage
    assert list(table[table.item == "1"]["metadata.passage"].unique()) == ["p0"]  # make_logs.py: items 1-4, p0


def test_the_clustered_board_is_compare_s_cluster_bootstrap(table):
    board = leaderboard.from_table(table, metric="match", cluster="metadata.passage")
    res = leaderboard.bootstrap(board, n_resamples=B, seed=1)
    d, low, high, p = res.delta("mockllm/beta", "mockllm/alpha")
    scores = board.scores["arith"]  # items x models, epochs averaged
    passage = table.drop_duplicates("item").set_index("item")["metadata.passage"].loc[list(board.items["arith"])]
    a, b = board.models.index("mockllm/beta"), board.models.index("mockllm/alpha")
    ref = sigcore.compare(None, scores[:, a], scores[:, b], metric="mean", groups=list(passage), n_resamples=B,
                          seed=2, test="bootstrap")
    assert d == pytest.approx(ref.delta)
    spread = np.std(res.resampled[:, a] - res.resampled[:, b])
    assert spread == pytest.approx(np.std(ref.distribution), rel=4 / np.sqrt(2 * B) * np.sqrt(2))
    # the same p: #{|δ_i − δ| ≥ |δ|} / b, within Monte-Carlo error of the two independent runs
    assert abs(p - ref.p_value) < 4 * np.sqrt(2 * p * (1 - p) / B)
    plain = leaderboard.bootstrap(leaderboard.from_table(table, metric="match"), n_resamples=B, seed=1)
    assert spread > np.std(plain.resampled[:, a] - plain.resampled[:, b])  # passages share their luck: wider


def test_clusters_are_checked_and_the_command_line_says_them(table, capsys, tmp_path):
    with pytest.raises(SettingsError, match="no column 'chapter' to cluster by"):
        leaderboard.from_table(table, metric="match", cluster="chapter")
    split = table.copy()
    split.loc[(split.item == "1") & (split.model == "mockllm/beta"), "metadata.passage"] = "p9"
    with pytest.raises(InputError, match="item '1' of task 'arith' is in two metadata.passages, 'p0' and 'p9'"):
        leaderboard.from_table(split, metric="match", cluster="metadata.passage")
    one = table.assign(**{"metadata.passage": "p0"})
    with pytest.raises(InputError, match="has its items in one metadata.passage only"):
        leaderboard.from_table(one, metric="match", cluster="metadata.passage")
    lacking = table.copy()
    lacking.loc[lacking.item == "3", "metadata.passage"] = None
    with pytest.raises(InputError, match="item '3' of task 'arith' has no metadata.passage"):
        leaderboard.from_table(lacking, metric="match", cluster="metadata.passage")
    args = ["many", str(LOGS / "alpha.eval"), str(LOGS / "beta.eval"), "--metric", "match", "--resamples", "500"]
    assert main([*args, "--cluster", "metadata.passage"]) == 0
    out, err = capsys.readouterr()
    assert "its items in 10 clusters by metadata.passage resampled whole" in out
    assert "note: task arith: only 10 clusters (metadata.passage) are resampled: a cluster bootstrap over fewer " \
           "than 30 gives intervals too narrow" in err
    systems = sorted(str(p) for p in (Path(__file__).resolve().parents[1] / "sample_data" / "mt").iterdir())
    assert main(["many", *systems, "--cluster", "doc"]) == 2
    assert "--cluster is for models on many tasks" in capsys.readouterr().err


def test_the_clustered_board_splits_delta_s_variance_into_clusters_items_and_runs(table, capsys):
    from sigcore.report import board as words
    from sigcore.statistics.variance import split

    board = leaderboard.from_table(table, metric="match", cluster="metadata.passage")
    res = leaderboard.bootstrap(board, n_resamples=500, seed=1)
    beta, alpha = "mockllm/beta", "mockllm/alpha"
    rows = table[table.metric == "match"]
    cube = {m: rows[rows.model == m].pivot(index="item", columns="run", values="score").loc[list(board.items["arith"])]
            .to_numpy() for m in (beta, alpha)}
    passage = rows.drop_duplicates("item").set_index("item")["metadata.passage"].loc[list(board.items["arith"])]
    reference = split(cube[beta], cube[alpha], "epochs", passage.to_numpy())  # from the items x epochs, by the module
    ours = res.variance(beta, alpha)  # from the board's sums of squares and its clusters
    assert (ours.clusters, ours.items, ours.error, ours.runs) == pytest.approx(
        (reference.clusters, reference.items, reference.error, reference.runs), rel=1e-12)
    assert ours.clusters > 0 and ours.variance() > split(cube[beta], cube[alpha], "epochs").variance()
    args = ["many", str(LOGS / "alpha.eval"), str(LOGS / "beta.eval"), "--metric", "match", "--resamples", "500",
            "--seed", "1", "--cluster", "metadata.passage"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert words.variance_heading(res, alpha) in out and "the clusters (by metadata.passage" in out
    assert " ".join(words.variance_header(res)) in " ".join(out.split())
    (row,) = words.variance_rows(res, alpha)
    assert row[0] == beta and sum(int(c[:-1]) for c in row[1:4]) == 100
    assert " ".join(row) in " ".join(out.split())
    assert row[4] == f"{reference.narrowing(items=2):.0%}" and row[5] == f"{reference.narrowing(cluster_size=2):.0%}"


def test_few_clusters_are_said_by_one_rule_on_boards_and_pairs():
    """A cluster bootstrap over fewer than 30 clusters gives intervals too narrow: the board's notes and a pair's
    warnings say so with the same words, and from 30 on say nothing."""
    import sigcore
    from sigcore.statistics.resampling import FEW_CLUSTERS, few_clusters

    rng = np.random.default_rng(0)
    for k in (8, FEW_CLUSTERS - 1, FEW_CLUSTERS):
        groups = np.repeat(np.arange(k), 4)
        a, b = rng.random(len(groups)), rng.random(len(groups))
        res = sigcore.compare(None, a, b, metric="mean", groups=groups, test="bootstrap", n_resamples=200)
        said = [w for w in res.warnings if "cluster bootstrap" in w]
        assert said == ([] if k >= FEW_CLUSTERS else [few_clusters(k, "groups")])
        assert (f"only {k} groups are resampled" in sigcore.report.verdict(res)) == (k < FEW_CLUSTERS)
