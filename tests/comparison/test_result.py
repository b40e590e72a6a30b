"""Tests of replicability.comparison.result: what a comparison reports.

The decision, the interval, replicability, the warning, the summary, the frames and the plot.
"""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import replicability as rp
from replicability.stats.measures import replicability_r2

X, Y = load_iris(return_X_y=True)
A, B = GaussianNB(), DecisionTreeClassifier(random_state=0)


@pytest.fixture(scope="module")
def cv_result():
    return rp.compare(A, B, X, Y, scheme="3x5cv", n_repeats=4, rng=7)


def test_replicability_is_r2_of_the_decisions(cv_result):
    outcomes = cv_result.decisions["corrected repeated cv t"]
    assert outcomes.shape == (4,)
    assert cv_result.replicability()["r2"] == float(replicability_r2(outcomes))
    assert cv_result.decision == int(outcomes[0])


def test_interval_excludes_zero_exactly_when_the_test_rejects():
    for rng in range(6):
        res = rp.compare_scores(np.random.default_rng(rng).normal(0.01, 0.02, (4, 5)), np.zeros((4, 5)),
                                scheme="4x5cv", n_train=80, n_test=20)
        low, high = res.confidence_interval(0.95)
        assert (low > 0 or high < 0) == (float(res.tests[res.recommended].pvalue) < 0.05)


def test_warning_names_the_disagreeing_randomizations():
    x = np.zeros((4, 2, 5))
    x[0] += 0.05  # one randomization strongly favours A, the others see nothing
    x[0, 0, 0] = 0.06
    res = rp.compare_scores(x, np.zeros_like(x), scheme="2x5cv", n_train=80, n_test=20)
    assert res.decisions[res.recommended].tolist() == [1, 0, 0, 0]
    assert "1 say A better" in res.warning and "3 say no difference" in res.warning
    assert "WARNING" in res.summary()


def test_summary_repr_and_frame_are_plain():
    res = rp.compare_scores(np.full(10, 0.9) + np.arange(10) / 1000, np.full(10, 0.9), scheme="2x5cv",
                            n_train=90, n_test=10)
    assert "np.float64" not in str(res) and "np.float64" not in repr(res)
    frame = res.to_frame()
    assert frame.loc[res.recommended, "decision"] == "A better"
    assert "<table" in res._repr_html_()


def test_scores_frame_labels_every_split(cv_result):
    frame = cv_result.scores_frame()
    assert len(frame) == 4 * 3 * 5
    row = frame.iloc[-1]
    assert (row["repeat"], row["run"], row["fold"]) == (3, 2, 4)
    assert row["A"] == cv_result.scores_a[3, 2, 4] and row["A - B"] == cv_result.differences[3, 2, 4]


def test_plot_draws_two_panels():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    res = rp.compare_scores(np.random.default_rng(0).normal(0, 0.01, (3, 2, 5)), np.zeros((3, 2, 5)),
                            scheme="2x5cv", n_train=90, n_test=10)
    axes = res.plot()
    assert axes.shape == (2,)
    import matplotlib.pyplot as plt

    plt.close("all")


def test_comparison_with_rope_shows_it_in_summary_frame_dict_and_html():
    import json

    rng = np.random.default_rng(3)
    a = rng.normal(0.85, 0.03, (5, 10, 10))
    b = a - 0.008 + rng.normal(0, 0.02, (5, 10, 10))
    res = rp.compare_scores(a, b, scheme="10x10cv", n_train=900, n_test=100, rope=0.01)
    name = "Bayesian correlated t, rope 0.01"
    assert res.bayesian_name == name
    p_a, p_eq, p_b = (float(p[0]) for p in res.bayesian)
    decisions = res.bayesian_decisions()
    assert decisions.shape == (5,)
    summary = res.summary()
    assert f"{name}: P(A better) {p_a:.3f}, P(equivalent) {p_eq:.3f}, P(B better) {p_b:.3f}" in summary
    assert f"-> {decisions[0]} (decides above 0.95)" in summary
    frame = res.to_frame()
    assert list(frame.index) == [*res.tests, name]
    row = frame.loc[name]
    assert (row["P(A better)"], row["P(equivalent)"], row["P(B better)"]) == (p_a, p_eq, p_b)
    assert row["decision"] == decisions[0] and np.isnan(row["pvalue"])
    assert frame.loc[res.recommended, ["P(A better)", "P(equivalent)", "P(B better)"]].isna().all()
    out = json.loads(json.dumps(res.to_dict()))
    assert out["rope"] == 0.01
    assert out["bayesian"]["decision"] == decisions[0] and out["bayesian"]["P(equivalent)"] == p_eq
    assert sum(out["bayesian"]["counts"].values()) == 5
    assert out["tests"][-1]["test"] == name and out["tests"][-1]["pvalue"] is None
    assert "P(equivalent)" in res._repr_html_() and name in res._repr_html_()


def test_comparison_without_rope_is_unchanged_and_says_so():
    res = rp.compare_scores(np.full((2, 5), 0.9), np.full((2, 5), 0.88), scheme="2x5cv", n_train=80, n_test=20)
    assert "Bayesian" not in res.summary()
    assert "P(A better)" not in res.to_frame().columns
    assert res.to_dict()["rope"] is None and res.to_dict()["bayesian"] is None
    with pytest.raises(ValueError, match="`rope` was not given"):
        res.bayesian_decisions()
