"""sigcore.judgments.categories (issue 42 §2): each category's ratings are bradley_terry's on its own battles, the
correction over categories is statsmodels' multipletests on the same p-values, and categories too thin to say
anything are left out by name, with the reason."""

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from sigcore.errors import InputError, SettingsError
from sigcore.judgments import CategoryRatings, bradley_terry, by_category
from sigcore.judgments.battles import frame

STATSMODELS = {"holm": "holm", "bonferroni": "bonferroni", "hochberg": "simes-hochberg", "bh": "fdr_bh",
               "by": "fdr_by"}


def _battles(seed=0, categories=("writing", "math", "coding"), items=40, per_item=4, m=4, shift=None):
    """Battles from a Bradley–Terry model per category (``shift``: each category's strengths, else spread over 1.2
    log odds), items numbered within each category."""
    rng = np.random.default_rng(seed)
    names = np.array([f"m{k}" for k in range(m)], dtype=object)
    parts = []
    for c, category in enumerate(categories):
        strength = np.linspace(-0.6, 0.6, m) if shift is None else np.asarray(shift[c])
        n = items * per_item
        item = np.repeat(np.arange(items), per_item)
        a = rng.integers(0, m, n)
        b = (a + rng.integers(1, m, n)) % m
        p = 1 / (1 + np.exp(-(strength[a] - strength[b])))
        u = rng.random(n)
        outcome = np.where(u < 0.15, 0.5, (u < 0.15 + 0.85 * p).astype(float))
        parts.append(frame(item=np.char.add(f"{category}-", item.astype(str)).astype(object), model_a=names[a],
                           model_b=names[b], outcome=outcome, category=np.full(n, category, dtype=object),
                           file="sim", line=np.arange(n) + 1))
    return pd.concat(parts, ignore_index=True)


def test_each_category_s_ratings_are_bradley_terry_on_its_own_battles():
    battles = _battles(0)
    res = by_category(battles, n_resamples=200, seed=5, scale="log", prior=0.5)
    assert isinstance(res, CategoryRatings) and list(res.ratings) == ["writing", "math", "coding"]
    for category, rated in res.ratings.items():
        alone = bradley_terry(battles[battles["category"] == category], n_resamples=200, seed=5, scale="log",
                              prior=0.5)
        assert rated.models == alone.models
        for name in ("rating", "ci_low", "ci_high", "rank", "rank_low", "rank_high", "resampled"):
            np.testing.assert_array_equal(getattr(rated, name), getattr(alone, name))
        pd.testing.assert_frame_equal(rated.pairs, alone.pairs)
    assert res.omitted == {} and res.seed == 5


@pytest.mark.parametrize("correction", ["holm", "bonferroni", "hochberg", "bh", "by"])
def test_the_correction_over_categories_is_statsmodels_multipletests(correction):
    battles = _battles(1, categories=("a", "b", "c", "d"), items=20, m=3,
                       shift=[[0, 0.3, -0.3], [0, 0, 0], [0.9, 0, 0], [0, 0, 0.6]])
    b = 100
    res = by_category(battles, n_resamples=b, correction=correction)
    pairs = res.pairs
    assert len(pairs) == 4 * 3 and set(pairs["category"]) == {"a", "b", "c", "d"}
    seen = []
    for a, b_ in zip(battles["model_a"], battles["model_b"]):
        seen += [name for name in (a, b_) if name not in seen]
    for (model, other), rows in pairs.groupby(["model", "other"]):
        assert len(rows) == 4 and seen.index(model) < seen.index(other)  # named as they first appear
        p = np.maximum(rows["p_value"].to_numpy(), 1 / b)  # a count of 0 is p < 1/b: at its floor
        np.testing.assert_allclose(rows["p_corrected"], multipletests(p, method=STATSMODELS[correction])[1])
    every = by_category(battles, n_resamples=b, correction=correction, family="all")
    p = np.maximum(every.pairs["p_value"].to_numpy(), 1 / b)
    np.testing.assert_allclose(every.pairs["p_corrected"], multipletests(p, method=STATSMODELS[correction])[1])
    assert every.significant()["p_corrected"].le(every.alpha).all()


def test_a_pair_keeps_one_orientation_across_categories():
    battles = _battles(2, categories=("up", "down"), shift=[[0.8, 0, 0, 0], [-0.8, 0, 0, 0]])
    res = by_category(battles, n_resamples=200)
    m0_m1 = res.pairs[(res.pairs["model"] == "m0") & (res.pairs["other"] == "m1")].set_index("category")
    for category in ("up", "down"):
        rated = res.ratings[category]
        own = rated.rating[rated.models.index("m0")] - rated.rating[rated.models.index("m1")]
        assert m0_m1.loc[category, "delta"] == pytest.approx(own)
    assert m0_m1.loc["up", "delta"] > 0 > m0_m1.loc["down", "delta"]


def test_thin_categories_are_named_with_the_reason():
    good = _battles(3, categories=("writing",))
    few = _battles(4, categories=("roleplay",), items=6)
    apart = pd.DataFrame({"item": [f"s{k}" for k in range(12)], "model_a": ["m0", "m2"] * 6,
                          "model_b": ["m1", "m3"] * 6, "outcome": [1.0, 0.0, 0.0, 1.0] * 3})
    never = pd.DataFrame({"item": [f"n{k}" for k in range(12)], "model_a": ["m0", "m1", "m2"] * 4,
                          "model_b": ["m1", "m2", "m0"] * 4, "outcome": [1.0, 1.0, 0.0] * 4})
    extra = [frame(item=t["item"].to_numpy(object), model_a=t["model_a"].to_numpy(object),
                   model_b=t["model_b"].to_numpy(object), outcome=t["outcome"].to_numpy(), file="f",
                   category=np.full(12, name, dtype=object), line=np.arange(12) + 1)
             for t, name in ((apart, "stem"), (never, "math"))]
    blank = frame(item=np.array(["z1"], dtype=object), model_a=np.array(["m0"], dtype=object),
                  model_b=np.array(["m1"], dtype=object), outcome=[1.0], file="f", line=[1])
    battles = pd.concat([good, few, *extra, blank], ignore_index=True)
    res = by_category(battles, n_resamples=100)
    assert list(res.ratings) == ["writing"]
    assert res.omitted["roleplay"] == "only 6 items, fewer than min_items = 10"
    assert "fall into 2 groups that never meet" in res.omitted["stem"]
    assert "m0 never lost" in res.omitted["math"]
    assert any(n.startswith("left out, too thin to say anything: 'roleplay' (only 6 items") for n in res.notes)
    assert any("1 battle with no category takes no part" in n for n in res.notes)
    # min_items lowered: roleplay is rated (and cautioned), prior keeps math's ratings finite
    kept = by_category(battles, n_resamples=100, min_items=5, prior=1)
    assert set(kept.ratings) == {"writing", "roleplay", "math"} and list(kept.omitted) == ["stem"]
    assert any("only 6 items are resampled" in n for n in kept.ratings["roleplay"].notes)


def test_a_baseline_missing_from_a_category_leaves_it_out():
    battles = pd.concat([_battles(5, categories=("x",)), _battles(6, categories=("y",), m=3)], ignore_index=True)
    res = by_category(battles, baseline="m3", n_resamples=100)
    assert list(res.ratings) == ["x"] and res.omitted == {"y": "the baseline 'm3' has no battle in it"}
    with pytest.raises(SettingsError, match="the baseline 'm9' is not one of the models"):
        by_category(battles, baseline="m9")


def test_no_category_or_none_left_is_refused():
    battles = _battles(7, categories=("x",)).assign(category="")
    with pytest.raises(InputError, match="no battle has a category"):
        by_category(battles)
    with pytest.raises(InputError, match="no battle has a category"):
        by_category(battles.drop(columns="category"))
    with pytest.raises(InputError, match=r"no category can be rated: 'x': only 40 items, fewer than min_items = 50"):
        by_category(_battles(7, categories=("x",)), min_items=50)


def test_settings_are_checked_by_name():
    battles = _battles(8, categories=("x",))
    for kwargs, message in [({"min_items": 0}, "`min_items` must be a whole number from 1"),
                            ({"correction": "maxt"}, "unknown correction 'maxt'"),
                            ({"family": "pairs"}, "`family` must be one of categories, all"),
                            ({"alpha": 2}, "`alpha`"), ({"ties": "third"}, "`ties` must be one of")]:
        with pytest.raises(SettingsError, match=message):
            by_category(battles, **kwargs)
