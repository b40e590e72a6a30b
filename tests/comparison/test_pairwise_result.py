"""Tests of replicability.comparison.pairwise_result: adjusted decisions, ranking and its replicability."""

import json

import numpy as np
import pytest

import replicability as rp
from replicability.stats.contingency import holm


def _scores(seed, means, shape=(5, 2, 5)):
    rng = np.random.default_rng(seed)
    base = rng.normal(0, 0.02, shape)
    return {name: m + base + rng.normal(0, 0.01, shape) for name, m in means.items()}


def test_decisions_follow_the_adjusted_pvalues_of_each_randomization():
    scores = _scores(0, {"a": 0.90, "b": 0.88, "c": 0.80, "d": 0.905})
    res = rp.compare_scores(scores, scheme="2x5cv", n_train=80, n_test=20)
    raw = np.stack([p.pvalues[p.recommended] for p in res.pairs.values()], axis=-1)
    assert np.array_equal(res.adjusted, holm(raw))
    signs = np.stack([np.sign(p.differences.mean(axis=(1, 2))) for p in res.pairs.values()], axis=-1)
    assert np.array_equal(res.decisions, (signs * (res.adjusted < 0.05)).astype(np.int8))
    assert res.decisions.shape == (5, 6) and np.any(res.decisions != 0) and np.any(res.decisions == 0)
    # Holm never adjusts less than the raw p-value, Bonferroni never less than Holm
    bonf = rp.compare_scores(scores, scheme="2x5cv", n_train=80, n_test=20, correction="bonferroni")
    assert np.all(res.adjusted >= raw) and np.all(bonf.adjusted >= res.adjusted)


def test_ranking_and_its_replicability():
    # c is always last; a and b swap between randomizations: every winner is a or b
    scores = _scores(1, {"a": 0.9, "b": 0.9, "c": 0.7})
    res = rp.compare_scores(scores, scheme="2x5cv", n_train=80, n_test=20)
    ranks = res.ranks()
    means = np.stack([s.mean(axis=(1, 2)) for s in scores.values()], axis=-1)
    assert np.array_equal(ranks, np.argsort(np.argsort(-means, axis=1), axis=1) + 1)
    assert np.all(ranks[:, 2] == 3)
    first_a = ranks[:, 0] == 1
    same = np.mean([first_a[i] == first_a[j] for i in range(5) for j in range(i + 1, 5)])
    rep = res.ranking_replicability()
    assert rep["same ranking"] == pytest.approx(same) and rep["same winner"] == pytest.approx(same)
    frame = res.ranking()
    assert list(frame.index)[-1] == "c" and frame.loc["c", "share rank 3"] == 1.0
    assert frame[[f"share rank {r}" for r in (1, 2, 3)]].sum(axis=1).tolist() == [1.0, 1.0, 1.0]


def test_frame_dict_summary_and_pair_lookup():
    res = rp.compare_scores(_scores(2, {"x": 0.9, "y": 0.85, "z": 0.86}), scheme="2x5cv", n_train=80, n_test=20,
                            rope=0.01)
    frame = res.to_frame()
    assert list(frame.index) == [("x", "y"), ("x", "z"), ("y", "z")]
    assert {"pvalue holm", "P(first better)", "P(equivalent)", "Bayesian decision"} <= set(frame.columns)
    out = json.loads(json.dumps(res.to_dict()))
    assert out["learners"] == ["x", "y", "z"] and len(out["pairs"]) == 3 and out["correction"] == "holm"
    assert "Comparison of 3 learners" in res.summary() and "x - y" in str(res)
    assert res.pair("x", "y") is res.pairs["x", "y"]
    with pytest.raises(KeyError, match="pair\\('x', 'y'\\)"):
        res.pair("y", "x")
    with pytest.raises(KeyError, match="learners are"):
        res.pair("x", "w")
    assert "<table" in res._repr_html_()


def test_plot_draws_the_matrix_and_the_ranks():
    import matplotlib

    matplotlib.use("Agg")
    res = rp.compare_scores(_scores(3, {"p": 0.9, "q": 0.8, "r": 0.85, "s": 0.84}), scheme="2x5cv", n_train=80,
                            n_test=20)
    axes = res.plot()
    assert axes.shape == (2,)
    assert len(axes[0].texts) == 12  # both halves of the 4 x 4 matrix
    assert len(axes[1].patches) == 16  # 4 learners x 4 ranks
    import matplotlib.pyplot as plt

    plt.close("all")
