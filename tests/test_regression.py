"""Regression outputs (issue 39, §8): scored by their errors (MAE, MSE, RMSE), lower is better, the winner the
lower-error model in every view; a direction for per-item scores; a custom metric of one's own.

The trial a new user ran: scikit-learn's diabetes data, Ridge against gradient boosting and a constant (mean)
predictor, 133 test items, one file per model (id, y_true, y_pred). Every number is checked against scikit-learn's
metrics and scipy's paired tests on the per-item errors.
"""

import csv
import functools
import json
import re
import shlex

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn import metrics as skm

import sigcore
from sigcore import Metric, report
from sigcore.__main__ import main
from sigcore.errors import InputError, SettingsError
from sigcore.io import metric_fit
from sigcore.io.aligned import Aligned
from sigcore.io.loading import load
from sigcore.io.metric_fit import engine_inputs, reading
from sigcore.io.roles import regression_reason
from sigcore.report import export, family, records
from sigcore.report import seeds as seeds_words
from sigcore.report.figures import delta_histogram, figure
from sigcore.result import better_side, delta_alternative


@functools.cache
def diabetes() -> dict[str, np.ndarray]:
    """y_true and each model's predictions on the 133 test items (30% of 442, split with seed 0)."""
    from sklearn.datasets import load_diabetes
    from sklearn.ensemble import GradientBoostingRegressor
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import train_test_split

    x, y = load_diabetes(return_X_y=True)
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.3, random_state=0)
    return {"y": y_test, "ridge": Ridge().fit(x_train, y_train).predict(x_test),
            "gbr": GradientBoostingRegressor(random_state=0).fit(x_train, y_train).predict(x_test),
            "const": np.full(len(y_test), y_train.mean())}


def write(folder, name: str) -> str:
    d = diabetes()
    path = folder / f"{name}.csv"
    rows = enumerate(zip(d["y"].tolist(), d[name].tolist()))
    path.write_text("id,y_true,y_pred\n" + "".join(f"{i},{t!r},{p!r}\n" for i, (t, p) in rows))
    return str(path)


def errors(name: str, power: int = 1) -> np.ndarray:
    d = diabetes()
    return np.abs(d[name] - d["y"]) ** power


# ---------------------------------------------------------------- the metrics against scikit-learn


@pytest.mark.parametrize("name", ["ridge", "gbr", "const"])
def test_mae_mse_rmse_equal_scikit_learn_on_the_full_set(name):
    d = diabetes()
    for metric, reference in (("mae", skm.mean_absolute_error), ("mse", skm.mean_squared_error),
                              ("rmse", skm.root_mean_squared_error)):
        res = sigcore.compare(d["y"], d[name], d["ridge"], metric=metric, test="bootstrap", n_resamples=100)
        assert res.score_a == pytest.approx(reference(d["y"], d[name]), rel=1e-12)
        assert res.higher_is_better is False


def test_rmse_is_the_root_of_the_summed_squared_errors_on_every_resample():
    """RMSE is not a mean of per-item values: its row is [e², 1] and each resample's score √(Σ w e² / Σ w), as
    scikit-learn weighs it; so only resampling tests fit it, while MAE and MSE take the per-item tests too."""
    d = diabetes()
    stats_, score, _ = sigcore.metrics.prepare("rmse", d["y"], [d["ridge"], d["gbr"]])
    weights = np.random.default_rng(0).multinomial(133, np.full(133, 1 / 133), size=20)
    for w in weights:
        assert score(w @ stats_[0]) == pytest.approx(skm.root_mean_squared_error(d["y"], d["ridge"], sample_weight=w),
                                                     rel=1e-12)
    assert sigcore.tests_for("rmse") == ["bootstrap", "permutation"]
    assert sigcore.tests_for("mae") == sigcore.tests_for("mse") == ["bootstrap", "permutation", "t", "z", "wilcoxon",
                                                                    "sign"]


# ---------------------------------------------------------------- paired tests on the errors against scipy

SCIPY_SIDE = {"greater": "less", "less": "greater", "two-sided": "two-sided"}  # A better = A's error lower


@pytest.mark.parametrize("metric, power", [("mae", 1), ("mse", 2)])
@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
@pytest.mark.parametrize("a, b", [("ridge", "const"), ("const", "ridge"), ("ridge", "gbr")])
def test_paired_tests_on_the_errors_equal_scipy_with_the_lower_error_the_winner(metric, power, alternative, a, b):
    d = diabetes()
    ea, eb = errors(a, power), errors(b, power)
    side = SCIPY_SIDE[alternative]
    references = {"t": stats.ttest_rel(ea, eb, alternative=side).pvalue,
                  "wilcoxon": stats.wilcoxon(ea, eb, alternative=side, method="exact").pvalue,
                  "sign": stats.binomtest(int((ea < eb).sum()), int((ea != eb).sum()),
                                          alternative={"less": "less", "greater": "greater"}.get(alternative,
                                                                                                 "two-sided")).pvalue}
    lower = "A" if ea.mean() < eb.mean() else "B"
    for test, p in references.items():
        res = sigcore.compare(d["y"], d[a], d[b], metric=metric, test=test, alternative=alternative)
        assert res.p_value == pytest.approx(p, rel=1e-9), test
        assert res.delta == pytest.approx(ea.mean() - eb.mean(), rel=1e-12)  # δ keeps its sign: A − B
        if res.significant:
            assert res.winner == lower, test
    t = sigcore.compare(d["y"], d[a], d[b], metric=metric, test="t", alternative=alternative)
    low, high = stats.ttest_rel(ea, eb, alternative=side).confidence_interval(0.95)
    assert (t.ci_low, t.ci_high) == pytest.approx((low, high), rel=1e-9)  # the interval of A − B, its H1's side


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "bootstrap", "permutation", "z"])
def test_the_constant_predictor_loses_to_ridge(test):
    """A constant mean predictor (MAE 59.5) against Ridge (MAE 45.8): Ridge beats it, whichever test, whichever side
    the pair is given in; "greater" (A better) is significant only where A is Ridge."""
    d = diabetes()
    for a, b, winner in (("const", "ridge", "B"), ("ridge", "const", "A")):
        res = sigcore.compare(d["y"], d[a], d[b], metric="mae", test=test)
        assert res.winner == winner and res.significant and res.p_value < 1e-3
        assert (res.delta > 0) == (a == "const")
        greater = sigcore.compare(d["y"], d[a], d[b], metric="mae", test=test, alternative="greater")
        assert greater.significant == (a == "ridge")


def test_every_view_names_the_same_winner():
    """The sentence, the summary, the JSON, the LaTeX sentence and table, the Markdown and the figures: Ridge, with
    the lower MAE, beats the constant predictor, and each view says that lower is better."""
    d = diabetes()
    res = sigcore.compare(d["y"], d["const"], d["ridge"], metric="mae", test="bootstrap", n_resamples=2_000)
    assert res.winner == "B" and res.side == -1 and res.delta > 0
    sentence = report.verdict(res, a="const", b="ridge")
    assert sentence.startswith("ridge beats const by 13.72 MAE (lower is better; 95% CI 9.")
    assert "ridge beats const" in export.sentence_latex(res, a="const", b="ridge")
    assert "ridge beats const" in export.verdict_markdown(res, a="const", b="ridge")
    assert "| System | MAE ↓ |" in export.verdict_markdown(res, a="const", b="ridge")
    table = export.verdict_latex(res, a="const", b="ridge")
    assert r"System & MAE ($\downarrow$) &" in table and "MAE (lower is better) of const and ridge" in table
    saved = json.loads(records.dumps(records.pair(res, a_name="const", b_name="ridge")))
    assert saved["winner"] == "B" and saved["higher_is_better"] is False and saved["delta"] > 0
    again = sigcore.Result.from_dict(saved)
    assert again.winner == "B" and again.ci_side == res.ci_side
    assert report.summary(res, a="const", b="ridge").startswith("MAE (lower is better): const = 59.53")
    assert "better:lower" in res.signature.split("|")
    assert "below 0: A better" in delta_histogram(res).layout.xaxis.title.text
    assert "below 0: const better" in figure(res, a="const", b="ridge").layout.xaxis.title.text
    rows = list(csv.DictReader(export.scores_csv(res, a="const", b="ridge").decode().splitlines()))
    assert {(r["metric"], r["higher_is_better"]) for r in rows} == {("mae", "False")}
    table = export.scores_table(res, a="const", b="ridge")
    assert table.loc["const − ridge", "score"] == pytest.approx(res.delta)  # δ itself is not flipped


def test_a_one_sided_bound_is_on_the_side_where_a_is_better():
    """H1 "greater" is A better: for an error, δ < 0, so the interval of δ is an upper bound, and the winner's
    margin reads as "at least" a positive number, as for accuracy."""
    d = diabetes()
    res = sigcore.compare(d["y"], d["ridge"], d["const"], metric="mae", test="t", alternative="greater")
    assert res.significant and res.ci_side == "upper" and res.ci_low == -np.inf and res.ci_high < 0
    assert res.delta_alternative == "less"
    assert "one-sided 95% bound: at least 9.88)" in report.verdict(res, a="ridge", b="const")
    assert "bound: δ ≥" in report.verdict(sigcore.compare(d["y"], d["ridge"], d["const"], metric="mae", test="t",
                                                          alternative="less"))


# ---------------------------------------------------------------- the direction of per-item scores


def test_per_item_errors_are_read_the_way_the_user_says():
    """The trial's third case: per-item absolute errors given as scores. Read as higher-is-better, the constant
    predictor "beats" Ridge; with higher_is_better=False, Ridge does. δ and the two-sided p are the same."""
    ea, eb = errors("const"), errors("ridge")
    higher = sigcore.compare(None, ea, eb, metric="mean", test="t")
    lower = sigcore.compare(None, ea, eb, metric="mean", test="t", higher_is_better=False)
    assert higher.winner == "A" and lower.winner == "B"
    assert (lower.delta, lower.p_value, lower.ci_low, lower.ci_high) == (higher.delta, higher.p_value, higher.ci_low,
                                                                        higher.ci_high)


@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.tuples(st.integers(-40, 40), st.integers(-40, 40)), min_size=3, max_size=30),
       test=st.sampled_from(["t", "wilcoxon", "sign", "bootstrap", "permutation"]),
       alternative=st.sampled_from(["greater", "less", "two-sided"]))
def test_lower_is_better_is_higher_is_better_on_the_negated_scores(values, test, alternative):
    """The direction's contract, for every test and side: scores x where lower is better give the p, decision and
    winner that −x gives where higher is better, with δ and its interval negated (a share of items won is the
    same share); a tenth's grid: decimal scores."""
    a, b = (np.array(v, dtype=float) / 10 for v in zip(*values))
    if test == "t" and np.ptp(a - b) == 0:
        return  # no spread: the t-test's p is a limit
    lower = sigcore.compare(None, a, b, metric="mean", test=test, alternative=alternative, higher_is_better=False,
                            n_resamples=500)
    higher = sigcore.compare(None, -a, -b, metric="mean", test=test, alternative=alternative, n_resamples=500)
    assert lower.p_value == pytest.approx(higher.p_value, rel=1e-9, abs=1e-12)
    assert (lower.side, lower.significant, lower.winner) == (higher.side, higher.significant, higher.winner)
    assert lower.delta == pytest.approx(-higher.delta, abs=1e-12)
    assert (lower.wins, lower.losses) == (higher.wins, higher.losses)  # what A and B each win: lower scores
    if lower.estimand == "share_won":  # A's share of the items it wins: the same share
        assert (lower.ci_low, lower.ci_high) == pytest.approx((higher.ci_low, higher.ci_high), abs=1e-12)
    else:  # an interval of A − B (or of its pseudo-median): negated
        assert (lower.ci_low, lower.ci_high) == pytest.approx((-higher.ci_high, -higher.ci_low), abs=1e-9)
        assert lower.estimate == pytest.approx(-higher.estimate, abs=1e-12)


def test_better_side_and_delta_alternative_are_the_one_place():
    assert [better_side(x, True) for x in (2.0, 0.0, -2.0)] == [1, 0, -1]
    assert [better_side(x, False) for x in (2.0, 0.0, -2.0)] == [-1, 0, 1]
    assert [delta_alternative(h, False) for h in ("greater", "less", "two-sided")] == ["less", "greater", "two-sided"]
    assert [delta_alternative(h, True) for h in ("greater", "less", "two-sided")] == ["greater", "less", "two-sided"]


def test_a_direction_against_the_metrics_own_is_refused():
    d = diabetes()
    with pytest.raises(SettingsError, match="accuracy is a metric on which higher is better"):
        sigcore.compare([1, 0, 1], [1, 0, 0], [1, 1, 1], metric="accuracy", higher_is_better=False)
    with pytest.raises(SettingsError, match="mae is a metric on which lower is better"):
        sigcore.compare(d["y"], d["ridge"], d["gbr"], metric="mae", higher_is_better=True)
    with pytest.raises(SettingsError, match="must be True, False or None"):
        sigcore.compare(None, [1.0, 2.0], [2.0, 1.0], metric="mean", higher_is_better="lower")
    assert sigcore.compare(d["y"], d["ridge"], d["gbr"], metric="mae", higher_is_better=False).higher_is_better is False


def test_a_family_ranks_the_lowest_error_first():
    d = diabetes()
    many = sigcore.compare_many(d["y"], {n: d[n] for n in ("const", "gbr", "ridge")}, metric="mae", all_pairs=True,
                                n_resamples=2_000)
    ranking = many.ranking()
    assert list(ranking["system"]) == ["ridge", "gbr", "const"]
    assert many.better("ridge", "const") and many.better("gbr", "const") and not many.better("const", "ridge")
    assert list(ranking["rank_low"]) == [1, 1, 3]
    assert family.heading(many).startswith("MAE (lower is better): ")
    assert "systems by MAE, best first (the lowest; δ below 0: the row better)." in family.heatmap_caption(many)


def test_non_inferiority_on_an_error_is_refused_and_equivalence_holds_either_way():
    from sigcore import claims

    d = diabetes()
    with pytest.raises(SettingsError, match=r"non-inferiority \(H0 δ ≤ −Δ\) reads δ > 0 as A better, and on mae lower"):
        claims.claim(d["y"], d["ridge"], d["gbr"], kind="non-inferior", margin=5.0, metric="mae")
    c = claims.claim(d["y"], d["ridge"], d["gbr"], kind="equivalent", margin=30.0, metric="mae", n_resamples=2_000)
    assert c.shown and c.bound_low > -30 and c.bound_high < 30


# ---------------------------------------------------------------- a metric of one's own


def _squares(gold, predictions):
    e = np.subtract(predictions, gold, dtype=float)
    return np.column_stack([e * e, np.ones(len(e))])


MY_MAE = Metric.custom("my_mae", lambda g, p: np.column_stack([np.abs(np.subtract(p, g, dtype=float)),
                                                               np.ones(len(g))]),
                       lambda t: t[..., 0] / t[..., 1], higher_is_better=False, decomposable=True)
MY_RMSE = Metric.custom("my_rmse", _squares, lambda t: np.sqrt(t[..., 0] / t[..., 1]), higher_is_better=False)


@pytest.mark.parametrize("mine, builtin, tests", [
    (MY_MAE, "mae", ["t", "wilcoxon", "sign", "bootstrap", "permutation"]),
    (MY_RMSE, "rmse", ["bootstrap", "permutation"])])
def test_a_custom_metric_equals_the_built_in_one_defined_the_same_way(mine, builtin, tests):
    d = diabetes()
    assert sigcore.tests_for(mine) == sigcore.tests_for(builtin)
    for test in tests:
        for alternative in ("greater", "two-sided"):
            ours = sigcore.compare(d["y"], d["ridge"], d["gbr"], metric=mine, test=test, alternative=alternative,
                                   n_resamples=1_000)
            theirs = sigcore.compare(d["y"], d["ridge"], d["gbr"], metric=builtin, test=test, alternative=alternative,
                                     n_resamples=1_000)
            assert ours.metric == mine.name and ours.higher_is_better is False
            for field in ("score_a", "score_b", "delta", "p_value", "ci_low", "ci_high", "side"):
                assert getattr(ours, field) == pytest.approx(getattr(theirs, field), rel=1e-12), (test, field)
    auto = sigcore.compare(d["y"], d["ridge"], d["gbr"], metric=mine)
    assert auto.test == sigcore.compare(d["y"], d["ridge"], d["gbr"], metric=builtin).test
    assert "my_" in report.verdict(auto)  # named as defined


def test_a_custom_metric_is_checked_where_it_is_defined_and_used():
    with pytest.raises(SettingsError, match="built-in metric's name"):
        Metric.custom("mae", _squares, np.sum)
    with pytest.raises(SettingsError, match="binary metric counts right"):
        Metric.custom("errs", _squares, np.sum, binary=True, decomposable=True, higher_is_better=False)
    with pytest.raises(SettingsError, match="my_mae is a metric on which lower is better"):
        sigcore.compare([1.0, 2.0], [1.5, 2.0], [1.0, 2.5], metric=MY_MAE, higher_is_better=True)
    broken = Metric.custom("broken", lambda g, p: np.ones((len(p) + 1, 2)), lambda t: t[..., 0])
    with pytest.raises(InputError, match="broken's statistics for system 1 have shape"):
        sigcore.compare([1.0, 2.0], [1.5, 2.0], [1.0, 2.5], metric=broken)
    with pytest.raises(SettingsError, match="unknown metric 'maee'"):
        sigcore.compare([1.0], [1.0], [1.0], metric="maee")


# ---------------------------------------------------------------- the front door: roles, defaults, refusals


def test_real_valued_gold_and_predictions_read_as_regression():
    d = diabetes()
    assert regression_reason(d["y"], [d["ridge"], d["gbr"]]) == (
        "gold and predictions are real numbers, not all whole, and no system's predictions equal gold on more than 0 "
        "of 133 items, under a tenth")
    assert regression_reason([1, 2, 3, 1] * 10, [[1, 2, 2, 1] * 10]) is None  # few whole numbers: class ids
    answers = list(range(100, 160))  # numeric answers (GSM8K): matched exactly on most items
    assert regression_reason(answers, [answers[:40] + [0] * 20]) is None
    assert "63 distinct whole values" in regression_reason(answers, [[a + 3 for a in answers]])
    assert regression_reason(["pos", "neg"] * 20, [["pos"] * 40]) is None
    aligned = Aligned(list(d["y"]), list(d["ridge"]), list(d["gbr"]), "ridge", "gbr")
    assert metric_fit.suggest_metrics(aligned) == ["mae", "mse", "rmse"]
    ratings = Aligned([1, 2, 3, 4, 5] * 8, [1, 2, 3, 5, 5] * 8, [2, 2, 3, 4, 4] * 8, "a", "b")
    suggested = metric_fit.suggest_metrics(ratings)
    assert suggested[0] == "accuracy" and suggested[-3:] == ["mae", "mse", "rmse"]


def test_the_command_line_scores_regression_files_by_their_errors(tmp_path, capsys):
    files = [write(tmp_path, "const"), write(tmp_path, "ridge")]
    assert main(["compare", *files]) == 0
    out = capsys.readouterr().out
    assert ("metric: mae (MAE, lower is better), the first that fits these data, whose numbers read as regression "
            "outputs; choose another with --metric (mse, rmse)") in out
    assert ("roles: numbers = regression outputs, scored by their errors (MAE, MSE, RMSE) (gold and predictions are "
            "real numbers, not all whole, and no system's predictions equal gold on more than 0 of 133 items, under a "
            "tenth)") in out
    assert "B (ridge) beats A (const) by 13.72 MAE (lower is better;" in out
    line = next(x for x in out.splitlines() if x.startswith("reproduce: "))
    assert "--metric mae" in line and "--lower-is-better" in line
    signature = out.strip().splitlines()[-1].removeprefix("signature: ")
    assert main([*shlex.split(line.removeprefix("reproduce: "))[3:], "--json"]) == 0
    saved = json.loads(capsys.readouterr().out)
    assert saved["signature"] == signature and saved["winner"] == "B" and saved["higher_is_better"] is False
    assert main(["compare", *files, "--latex"]) == 0
    assert capsys.readouterr().out.startswith("ridge beats const by 13.72 MAE (lower is better;")


def test_the_advisor_never_says_the_models_agree_when_they_differ_on_every_item(tmp_path, capsys):
    files = [write(tmp_path, "ridge"), write(tmp_path, "gbr")]
    assert main(["advise", *files]) == 0
    out = capsys.readouterr().out
    assert "metric: mae (MAE, lower is better)" in out and "A and B agree" not in out  # (the gold columns agree)
    assert "133 differences" in out  # the advice is on the per-item errors, which all differ
    advice = sigcore.advisor.advise("accuracy", a_scores=[0] * 133, b_scores=[0] * 133)  # both always wrong
    assert "agree" not in advice.text() and "right on the same items and wrong on the same items" in advice.text()


@pytest.mark.parametrize("metric, said", [
    ("mean", "the mean of the predictions would ignore gold. Choose a metric that scores the predictions against "
             "gold: mae, mse, rmse."),
    ("accuracy", "these read as regression outputs (gold and predictions are real numbers"),
    ("exact_match", "Choose a metric of the errors: mae, mse, rmse (lower is better).")])
def test_a_mean_of_predictions_or_exact_matches_of_real_numbers_are_refused(tmp_path, capsys, metric, said):
    files = [write(tmp_path, "ridge"), write(tmp_path, "gbr")]
    assert main(["compare", *files, "--metric", metric]) == 2
    assert said in capsys.readouterr().err


def test_the_api_refuses_a_mean_of_predictions_given_with_their_gold():
    d = diabetes()
    with pytest.raises(SettingsError, match="the mean of the predictions would ignore it") as caught:
        sigcore.compare(d["y"], d["ridge"], d["gbr"], metric="mean")
    assert "mae, mse or rmse" in caught.value.hint


def test_the_command_line_takes_the_direction_of_per_item_scores(tmp_path, capsys):
    path = tmp_path / "errors.csv"
    ea, eb = errors("const"), errors("ridge")
    rows = zip(ea.tolist(), eb.tolist())
    path.write_text("const_error,ridge_error\n" + "".join(f"{a!r},{b!r}\n" for a, b in rows))
    assert main(["compare", str(path), "--metric", "mean", "--test", "t", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == "A"  # read as scores, higher is better: as told
    assert main(["compare", str(path), "--test", "t"]) == 0  # and said so, with the way to turn it
    assert "higher is better (--lower-is-better for errors, losses or ranks)" in capsys.readouterr().out
    assert main(["compare", str(path), "--test", "t", "--lower-is-better"]) == 0
    assert "choose another with --metric; lower is better (--lower-is-better)" in capsys.readouterr().out
    assert main(["compare", str(path), "--metric", "mean", "--test", "t", "--lower-is-better"]) == 0
    out = capsys.readouterr().out
    assert "metric: mean (given), lower is better (--lower-is-better)" in out
    assert "B (ridge_error) beats A (const_error)" in out and "--lower-is-better" in out
    assert main(["compare", str(path), "--metric", "accuracy", "--lower-is-better"]) == 2
    assert "accuracy is a metric on which higher is better" in capsys.readouterr().err


# ---------------------------------------------------------------- the app


def page():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    root = Path(__file__).resolve().parents[1]
    return AppTest.from_file(str(root / "dashboard.py"), default_timeout=60).run()


def uploaded(at, *files):
    at.radio[0].set_value("Upload").run()
    at.file_uploader[0].set_value([(name, data, "text/csv") for name, data in files]).run()
    return at


def box(at, label: str):
    return next(s for s in at.selectbox if s.label == label)


def ran(at):
    return next(b for b in at.button if b.label == "Run").click().run()


def shown_verdict(at) -> str:
    shown = [e.value for e in at.success] + [e.value for e in at.info if "significant" in e.value]
    assert len(shown) == 1, shown
    return shown[0]


def test_the_app_scores_uploaded_regression_files_by_mae_and_says_what_the_engine_says(tmp_path):
    from ui.safe import md

    files = [(f"{n}.csv", open(write(tmp_path, n), "rb").read()) for n in ("const", "ridge")]
    at = uploaded(page(), *files)
    assert box(at, "Metric").options == ["mae", "mse", "rmse"] and box(at, "Metric").value == "mae"
    better = box(at, "Better")  # MAE knows its direction: shown, and fixed
    assert better.value == "Lower is better" and better.options == ["Lower is better"] and better.disabled
    assert "non-inferior" not in box(at, "Claim").options  # H0 δ ≤ −Δ reads δ > 0 as A better
    ran(at)
    assert not at.exception and not at.error
    d = diabetes()
    res = sigcore.compare(d["y"], d["const"], d["ridge"], metric="mae", test=box(at, "Test").value)
    assert res.winner == "B"
    assert shown_verdict(at) == md(report.verdict(res, a="A (const)", b="B (ridge)"))
    assert at.code[0].value == res.signature
    assert any("--lower-is-better" in c.value for c in at.code)
    box(at, "Metric").set_value("rmse").run()
    ran(at)
    res = sigcore.compare(d["y"], d["const"], d["ridge"], metric="rmse", test=box(at, "Test").value)
    assert res.test == "bootstrap" and shown_verdict(at) == md(report.verdict(res, a="A (const)", b="B (ridge)"))


def test_the_app_asks_which_way_per_item_scores_are_better():
    from ui.safe import md

    ea, eb = errors("const"), errors("ridge")
    table = ("const_error,ridge_error\n" + "".join(f"{a!r},{b!r}\n" for a, b in zip(ea.tolist(), eb.tolist())))
    at = uploaded(page(), ("errors.csv", table.encode()))
    assert box(at, "Metric").value == "mean" and box(at, "Better").value == "Higher is better"
    box(at, "Better").set_value("Lower is better").run()
    box(at, "Test").set_value("t").run()
    ran(at)
    res = sigcore.compare(None, ea, eb, metric="mean", test="t", higher_is_better=False)
    assert res.winner == "B"
    assert shown_verdict(at) == md(report.verdict(res, a="A (const_error)", b="B (ridge_error)"))


# ---------------------------------------------------------------- numbers: regression outputs or answers (one rule)


def answers_table(right_a: float = 0.9, right_b: float = 0.4, n: int = 60) -> str:
    """A maths QA task scored by exact match (GSM8K-style): decimal answers such as "3.5", "12", "0.25"; A right on
    ``right_a`` of the items, B on ``right_b``, a wrong answer off by one."""
    gold = [f"{(k % 30) * 0.25 + (k // 30) * 40 + 0.25:g}" for k in range(n)]  # 0.25, 0.5, ... 7.5, 40.25, ...
    a = [g if k < right_a * n else f"{float(g) + 1:g}" for k, g in enumerate(gold)]
    b = [g if (k + n // 3) % n < right_b * n else f"{float(g) + 1:g}" for k, g in enumerate(gold)]
    return "id,answer,model_a,model_b\n" + "".join(f"{k},{g},{x},{y}\n" for k, (g, x, y) in enumerate(zip(gold, a, b)))


def regression_table() -> str:
    d = diabetes()
    rows = zip(d["y"].tolist(), d["ridge"].tolist(), d["gbr"].tolist())
    return "id,y_true,ridge,gbr\n" + "".join(f"{k},{t!r},{a!r},{b!r}\n" for k, (t, a, b) in enumerate(rows))


def test_numbers_read_as_answers_when_matched_often_and_as_regression_outputs_when_seldom():
    """One rule for real and whole numbers alike: a system whose predictions equal gold on a tenth of the items or
    more gives answers; under a tenth, regression outputs. Class ids (few whole numbers) are neither."""
    from sigcore.io.roles import ANSWERS, number_reading

    gold = ["3.5", "12", "0.25", "7.75"] * 10
    assert number_reading(gold, [gold, ["3.5"] * 40])[0] == "answers"  # A exactly right on every item
    assert number_reading(gold, [[f"{float(g) + 0.5}" for g in gold]] * 2)[0] == "regression"  # never equal
    assert ANSWERS == 0.1
    hit = ["3.5", "12", "0.25", "7.75"] + [f"{float(g) + 0.5}" for g in gold[4:]]  # right on 4 of 40: a tenth
    assert number_reading(gold, [hit])[0] == "answers"
    assert number_reading(gold, [hit[:3] + [f"{float(g) + 0.5}" for g in gold[3:]]])[0] == "regression"  # 3 of 40
    whole = list(range(100, 160))
    assert number_reading(whole, [whole[:6] + [w + 1 for w in whole[6:]]])[0] == "answers"  # the same rule
    assert number_reading(whole, [whole[:5] + [w + 1 for w in whole[5:]]])[0] == "regression"
    assert number_reading([1, 2, 3] * 10, [[1, 2, 2] * 10]) == (None, "")  # class ids
    kind, why = number_reading(gold, [["3.5"] * 40, gold])
    assert why == ("gold and predictions are real numbers, not all whole, and a system's predictions equal gold on 40 "
                   "of 40 items, a tenth or more")


def test_decimal_answers_are_scored_by_exact_match_through_the_front_door(tmp_path, capsys):
    """The API (suggest_metrics, fitting), the command line (compare, advise, many) and the refusal share the rule."""
    from sigcore.io.inputs import read

    path = tmp_path / "gsm.csv"
    path.write_text(answers_table())
    data = load([read(str(path))])
    assert metric_fit.suggest_metrics(data)[0] == "accuracy" and reading(data).role == "numbers"
    assert engine_inputs(data, "accuracy")[3] == "accuracy"  # not refused
    assert sigcore.compare(*engine_inputs(data, "accuracy")[:3], metric="accuracy").score_a == pytest.approx(0.9)
    assert main(["compare", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("roles: numbers = answers, right or wrong, scored by exact match (accuracy) (gold and predictions are "
            "real numbers, not all whole, and a system's predictions equal gold on 54 of 60 items, "
            "a tenth or more)") in out
    assert "metric: accuracy, the first that fits these data, whose numbers read as answers" in out
    assert "A (model_a) beats B (model_b) on the items only one of them gets right, 36 to 6" in out
    assert "|metric:accuracy|" in out
    assert main(["advise", str(path)]) == 0
    assert "McNemar" in capsys.readouterr().out.split("Recommended:")[1].splitlines()[0]
    assert main(["many", str(path)]) == 0
    assert "roles: numbers = answers" in capsys.readouterr().out
    regression = tmp_path / "diabetes.csv"
    regression.write_text(regression_table())
    assert metric_fit.suggest_metrics(load([read(str(regression))])) == ["mae", "mse", "rmse"]
    for command in ("compare", "advise", "many"):
        assert main([command, str(regression)]) == 0
        out = capsys.readouterr().out
        assert "roles: numbers = regression outputs" in out and "metric: mae (MAE, lower is better)" in out
        assert main([command, str(regression), "--metric", "accuracy"]) == 2
        assert "accuracy counts predictions equal to gold, and these read as regression outputs" in \
               capsys.readouterr().err


def test_the_app_offers_accuracy_for_decimal_answers_and_mae_for_regression_outputs():
    at = uploaded(page(), ("gsm.csv", answers_table().encode()))
    assert box(at, "Metric").value == "accuracy" and "mae" in box(at, "Metric").options
    assert any("numbers = answers, right or wrong" in c.value and "54 of 60 items" in c.value for c in at.caption)
    ran(at)
    assert not at.exception and not at.error and "beats" in shown_verdict(at)
    at = uploaded(page(), ("diabetes.csv", regression_table().encode()))
    assert box(at, "Metric").options == ["mae", "mse", "rmse"]
    assert any("numbers = regression outputs" in c.value for c in at.caption)


# ---------------------------------------------------------------- a custom metric on every path


MY_ACC = Metric.custom("my_acc", lambda g, p: np.column_stack([np.equal(g, p).astype(float), np.ones(len(g))]),
                       lambda t: t[..., 0] / t[..., 1], decomposable=True, binary=True)


@pytest.mark.parametrize("mine, builtin", [(MY_ACC, "accuracy"), (MY_MAE, "mae")])
def test_a_custom_metric_goes_through_every_view_of_a_pair(mine, builtin):
    """A significant result on 4 differing items leads with the resolution (it counts the items that differ, which
    looked the metric up by name); the summary, JSON, LaTeX and Markdown name the custom metric and its direction."""
    gold = np.zeros(400)
    a, b = gold.copy(), gold.copy()
    b[:4] = 1.0 if builtin == "accuracy" else 5.0  # B wrong (or off by 5) on 4 items: A better
    res = sigcore.compare(gold, a, b, metric=mine, test="t", alternative="greater")
    same = sigcore.compare(gold, a, b, metric=builtin, test="t", alternative="greater")
    assert res.significant and res.winner == "A" and res.p_value == pytest.approx(same.p_value, rel=1e-12)
    text = report.verdict(res)
    assert text.startswith("Too few items differ to support this decision: on only 4 items where the two systems "
                           "differ, no exact test can give p below 0.0625")
    assert f"A beats B by 0.0{'1' if builtin == 'accuracy' else '5'}" in text and mine.name in text
    assert ("lower is better" in text) == (builtin == "mae")
    assert "(400 items, 4 differ" in report.summary(res)
    saved = json.loads(records.dumps(records.pair(res)))
    assert saved["metric"] == mine.name and saved["higher_is_better"] == (builtin == "accuracy")
    assert sigcore.Result.from_dict(saved).winner == "A" and "Too few items" in report.verdict(
        sigcore.Result.from_dict(saved))  # read back: the name only, and still no KeyError
    assert latex_escape_name(mine.name) in export.verdict_latex(res) and mine.name in export.verdict_markdown(res)


def latex_escape_name(name: str) -> str:
    return name.replace("_", r"\_")


@pytest.mark.parametrize("mine, builtin", [(MY_ACC, "accuracy"), (MY_MAE, "mae")])
def test_a_custom_metric_goes_through_a_family_and_its_views(mine, builtin):
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 3, 300) if builtin == "accuracy" else rng.normal(size=300)
    noise = {"good": 0.1, "fair": 0.5, "poor": 1.0}
    if builtin == "accuracy":
        systems = {k: np.where(rng.random(300) < v, (gold + 1) % 3, gold) for k, v in noise.items()}
    else:
        systems = {k: gold + rng.normal(scale=v, size=300) for k, v in noise.items()}
    ours = sigcore.compare_many(gold, systems, metric=mine, all_pairs=True, n_resamples=1_000)
    theirs = sigcore.compare_many(gold, systems, metric=builtin, all_pairs=True, n_resamples=1_000)
    assert ours.metric == mine.name and list(ours.ranking()["system"]) == ["good", "fair", "poor"]
    assert ours.adjusted == pytest.approx(theirs.adjusted)
    assert family.text(ours).startswith(mine.name) and mine.name in family.sentence(ours)
    assert latex_escape_name(mine.name) in family.latex([ours])
    from sigcore.report import family_figures
    assert family_figures.heatmap_order(ours) == ["good", "fair", "poor"]
    saved = sigcore.Many.from_dict(json.loads(json.dumps(ours.to_dict())))
    assert family.text(saved) == family.text(ours)


@pytest.mark.parametrize("mine, builtin", [(MY_ACC, "accuracy"), (MY_MAE, "mae")])
def test_a_custom_metric_goes_through_the_runs_over_seeds(mine, builtin):
    from sigcore.report import records
    from sigcore.report import seeds as seeds_report

    rng = np.random.default_rng(2)
    gold = rng.integers(0, 2, 200) if builtin == "accuracy" else rng.normal(size=200)

    def run(scale):
        if builtin == "accuracy":
            return np.where(rng.random(200) < scale, 1 - gold, gold)
        return gold + rng.normal(scale=scale, size=200)
    runs_a, runs_b = [run(0.1) for _ in range(3)], [run(0.4) for _ in range(3)]
    ours = sigcore.compare_seeds(gold, runs_a, runs_b, metric=mine, n_resamples=2_000)
    theirs = sigcore.compare_seeds(gold, runs_a, runs_b, metric=builtin, n_resamples=2_000)
    assert ours.metric == mine.name and ours.higher_is_better == (builtin == "accuracy")
    for f in ("delta", "p_value", "ci_low", "ci_high", "ci_items"):
        assert getattr(ours, f) == pytest.approx(getattr(theirs, f), rel=1e-12), f
    assert ours.significant and ours.side == 1  # A's runs err less (or are right more): A better
    assert seeds_words.sentence(ours, a="A", b="B").startswith("A beats B by ")
    assert ours.variance is not None  # a mean over items: the items × seeds split
    assert records.seeds(ours, a="A", b="B")["metric"] == mine.name
    assert latex_escape_name(mine.name) in seeds_report.table_latex(ours, a="A", b="B")


def test_runs_over_seeds_honour_lower_is_better():
    """compare_seeds on per-item errors given as scores: with higher_is_better=False, the runs with the lower errors
    win, p and the interval are those of the negated scores with higher is better (δ negated), and every view says
    that lower is better."""
    from sigcore.report import records
    from sigcore.report import seeds as seeds_report

    rng = np.random.default_rng(3)
    runs_a = [np.abs(rng.normal(scale=1.0, size=150)) for _ in range(3)]
    runs_b = [np.abs(rng.normal(scale=1.3, size=150)) for _ in range(3)]
    for alternative in ("greater", "less", "two-sided"):
        lower = sigcore.compare_seeds(None, runs_a, runs_b, metric="mean", higher_is_better=False,
                                      alternative=alternative, n_resamples=2_000)
        higher = sigcore.compare_seeds(None, [-r for r in runs_a], [-r for r in runs_b], metric="mean",
                                       alternative=alternative, n_resamples=2_000)
        assert lower.p_value == pytest.approx(higher.p_value) and lower.delta == pytest.approx(-higher.delta)
        assert (lower.ci_low, lower.ci_high) == pytest.approx((-higher.ci_high, -higher.ci_low))
        assert (lower.side, lower.significant) == (higher.side, higher.significant)
    res = sigcore.compare_seeds(None, runs_a, runs_b, metric="mean", higher_is_better=False, alternative="greater",
                                n_resamples=2_000)
    assert res.significant and res.side == 1 and res.delta < 0
    text = seeds_words.sentence(res, a="small", b="large")
    assert text.startswith("small beats large by ") and "(lower is better; one-sided 95% bound: at least " in text
    assert "better:lower" in res.signature and records.seeds(res, a="a", b="b")[
        "higher_is_better"] is False
    assert r"Score ($\downarrow$)" in seeds_report.table_latex(res, a="small", b="large")
    with pytest.raises(SettingsError, match="accuracy is a metric on which higher is better"):
        sigcore.compare_seeds([1, 0] * 5, [[1, 0] * 5], [[0, 0] * 5], metric="accuracy", higher_is_better=False)
    d = diabetes()
    mae = sigcore.compare_seeds(d["y"], [d["ridge"]], [d["const"]], metric="mae", n_resamples=2_000)
    one = sigcore.compare(d["y"], d["ridge"], d["const"], metric="mae", test="bootstrap", n_resamples=2_000)
    assert mae.side == 1 and mae.significant and mae.delta == pytest.approx(one.delta)


# ---------------------------------------------------------------- one refusal where lower is better


REFUSED = "reads δ > 0 as A better, and on {} lower is better"


def test_a_one_sided_power_plan_where_lower_is_better_is_refused_in_one_wording(tmp_path, capsys):
    from sigcore import claims, power

    ea, eb = errors("ridge"), errors("const")
    two = power.plan(ea, eb, test="t", higher_is_better=False)
    assert two.current.power == power.plan(ea, eb, test="t").current.power  # two-sided: the same either way
    for plan in (lambda: power.plan(ea, eb, test="t", alternative="greater", higher_is_better=False),
                 lambda: power.power_at(ea, eb, 50, test="t", alternative="less", higher_is_better=False)):
        with pytest.raises(SettingsError, match="a one-sided power plan " + REFUSED.format("these scores")):
            plan()
    with pytest.raises(SettingsError, match=r"non-inferiority \(H0 δ ≤ −Δ\) " + REFUSED.format("these scores")):
        claims.plan("non-inferior", 1.0, delta=0.5, sd=2.0, higher_is_better=False)
    assert claims.plan("equivalent", 1.0, delta=0.1, sd=2.0, higher_is_better=False).n_needed
    path = tmp_path / "errors.csv"
    path.write_text("ridge_error,const_error\n" + "".join(f"{a!r},{b!r}\n" for a, b in zip(ea.tolist(), eb.tolist())))
    assert main(["power", str(path), "--metric", "mean", "--lower-is-better", "--test", "t", "--sims", "50"]) == 0
    assert "Paired t-test, H1: A and B differ" in capsys.readouterr().out
    for extra, what in ((["--alternative", "greater"], "a one-sided power plan"),
                        (["--non-inferior", "1"], r"non-inferiority \(H0 δ ≤ −Δ\)")):
        assert main(["power", str(path), "--metric", "mean", "--lower-is-better", "--test", "t", *extra]) == 2
        err = capsys.readouterr().err
        assert re.search(what + " " + REFUSED.format("these scores"), err), err
    assert main(["power", "--n", "500", "--accuracy-a", "0.8", "--accuracy-b", "0.7", "--agreement", "0.8",
                 "--lower-is-better"]) == 2
    assert "accuracy is a metric on which higher is better" in capsys.readouterr().err
    files = [write(tmp_path, "ridge"), write(tmp_path, "const")]
    assert main(["compare", *files, "--sequential"]) == 2
    assert "the confidence sequence (--sequential) " + REFUSED.format("mae") in capsys.readouterr().err


# ---------------------------------------------------------------- a family's views where lower is better


@functools.cache
def mae_family(all_pairs: bool = False):
    d = diabetes()
    return sigcore.compare_many(d["y"], {n: d[n] for n in ("const", "gbr", "ridge")}, metric="mae",
                                all_pairs=all_pairs, n_resamples=2_000)


def test_the_forest_plot_puts_the_lowest_error_on_top_and_says_which_side_is_better():
    """Against the constant predictor, ridge (MAE 45.8) and gbr (48.2) are both better: δ < 0, ridge's the more
    negative. The best is drawn on top (Plotly's last row), as the largest δ is where higher is better."""
    from sigcore.report import family_figures
    from sigcore.report.style import PAPER

    many = mae_family()
    assert family_figures.forest_order(many) == ["gbr", "ridge"]  # bottom to top: ridge, the best, on top
    fig = family_figures.forest(many)
    assert list(fig.layout.yaxis.ticktext) == ["gbr", "ridge"] and list(fig.layout.yaxis.tickvals) == [0, 1]
    assert fig.layout.xaxis.title.text == ("δ = MAE(system) − MAE(const), with its 95% interval; lower is better, "
                                           "below 0: system better")
    printed = family_figures.forest(many, style=PAPER)
    assert "lower is better, below 0: system better" in printed.layout.xaxis.title.text.replace("<br>", " ")
    caption = family.forest_caption(many)
    assert "MAE is lower-is-better: δ below 0 is a system better than const, and the best is drawn on top." in caption
    assert r"MAE is lower-is-better: $\delta$ below 0 is a system better than const" in family.forest_caption(
        many, latex=True)
    accuracy = sigcore.compare_many([0, 1] * 50, {"base": [0, 1] * 50, "x": [0] * 100, "y": [0, 1] * 40 + [1, 0] * 10},
                                    metric="accuracy", n_resamples=500)
    assert family_figures.forest_order(accuracy) == ["x", "y"]  # the largest δ (the best) on top, as before
    assert "lower-is-better" not in family.forest_caption(accuracy)
    assert "below 0" not in family_figures.forest(accuracy).layout.xaxis.title.text


def test_a_family_of_errors_reads_lower_is_better_in_its_table_settings_sentence_and_heatmap():
    from sigcore.report import family_figures

    many = mae_family()
    text = family.text(many)
    assert text.startswith("MAE (lower is better): paired t-test, two-sided, Holm over 2 comparisons, α = 0.05")
    assert text.endswith("δ = score(system) − score(against); lower is better: δ below 0, the system better.")
    assert family.sentence(many).endswith("gbr and ridge are significantly better than const.")
    table = family.latex([many])
    assert r"MAE ($\downarrow$)" in table
    assert re.search(r"ridge & 45\.81\$\^\\dagger\$ & \\textminus\{\}13\.72", table)  # † better, though δ < 0
    assert "significantly better/worse than the baseline, const" in table
    pairs = mae_family(all_pairs=True)
    assert "best first (the lowest; δ below 0: the row better)" in family.heatmap_caption(pairs)
    heat = family_figures.heatmap(pairs)
    assert family_figures.heatmap_order(pairs) == ["ridge", "gbr", "const"]
    assert "lower is better, below 0: row better" in heat.layout.title.subtitle.text
    scale = dict(heat.data[0].colorscale)
    z = heat.data[0].z
    assert z[0][2] < 0 and z[2][0] > 0  # ridge − const < 0: ridge, the row, better
    # the better side is blue whichever way is better: the lowest δ here, the highest for accuracy
    assert scale[0.0] == "#2166ac" and scale[1.0] == "#b2182b"
    accuracy = sigcore.compare_many([0, 1] * 50, {"base": [0, 1] * 50, "x": [0] * 100}, metric="accuracy",
                                    all_pairs=True, n_resamples=500)
    assert dict(family_figures.heatmap(accuracy).data[0].colorscale)[1.0] == "#2166ac"


def test_the_three_tests_figure_shades_the_tail_on_the_side_h1_names():
    """H1 "A better" on an error is δ < 0: the t panel's tail lies below t, not above it."""
    from sigcore.teaching.lesson_figures import three_tests

    d = diabetes()
    runs = [sigcore.compare(d["y"], d["ridge"], d["const"], metric="mae", test=t, alternative="greater",
                            n_resamples=500) for t in ("bootstrap", "permutation", "t")]
    t = runs[2]
    assert t.statistic < 0 and t.significant
    tails = [trace for trace in three_tests(*runs).data if trace.name == "tail area = p"]
    assert len(tails) == 1 and max(tails[0].x) == pytest.approx(t.statistic) and min(tails[0].x) < t.statistic


def brier_logs(tmp_path) -> list[tuple[str, bytes]]:
    """Two lm-eval sample logs whose per-sample metric is a Brier score (lower is better), a field no built-in
    metric is named after: the app resolves it to the mean of per-item scores."""
    import json as json_

    rng = np.random.default_rng(4)
    out = []
    for model, spread in (("a", 0.1), ("b", 0.3)):
        records = [{"doc_id": i, "doc": {"question": "q"}, "target": "yes", "arguments": {}, "resps": [["yes"]],
                    "filtered_resps": ["yes"], "filter": "none", "metrics": ["brier_score"],
                    "brier_score": float(abs(rng.normal(scale=spread)))} for i in range(60)]
        out.append((f"samples_boolq_{model}.jsonl", "".join(json_.dumps(r) + "\n" for r in records).encode()))
    return out


def test_the_better_box_follows_the_metric_as_resolved(tmp_path):
    """A score field of the logs (brier_score) is averaged as per-item scores: the Better box lets the user say lower
    is better, and the verdict follows it; RMSE shows lower, fixed; accuracy shows no box."""
    from ui.safe import md

    at = uploaded(page(), *brier_logs(tmp_path))
    box(at, "Metric").set_value("brier_score").run()
    better = box(at, "Better")
    assert better.options == ["Higher is better", "Lower is better"] and not better.disabled
    better.set_value("Lower is better").run()
    box(at, "Test").set_value("t").run()
    ran(at)
    assert not at.exception and not at.error
    scores = [[json.loads(line)["brier_score"] for line in data.decode().splitlines()] for _, data in
              brier_logs(tmp_path)]
    res = sigcore.compare(None, *scores, metric="mean", test="t", higher_is_better=False)
    assert res.winner == "A"  # A's Brier scores are the lower
    assert shown_verdict(at) == md(report.verdict(res, a="A (samples_boolq_a)", b="B (samples_boolq_b)"))
    files = [(f"{n}.csv", open(write(tmp_path, n), "rb").read()) for n in ("const", "ridge")]
    at = uploaded(page(), *files)
    box(at, "Metric").set_value("rmse").run()
    assert box(at, "Better").disabled and box(at, "Better").value == "Lower is better"
    at = uploaded(page(), ("gsm.csv", answers_table().encode()))
    assert box(at, "Metric").value == "accuracy" and not [s for s in at.selectbox if s.label == "Better"]
