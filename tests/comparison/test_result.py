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
    margins = ["equivalence (TOST), margin 0.01", "non-inferiority of A, margin 0.01",
               "non-inferiority of B, margin 0.01"]
    assert list(frame.index) == [*res.tests, *margins, name]
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


def _noisy_pair(seed, shift, shape=(6, 10, 10)):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.85, 0.03, shape)
    return a, a - shift + rng.normal(0, 0.02, shape)


@pytest.mark.parametrize("seed,shift,margin", [(0, 0.0, 0.01), (1, 0.004, 0.02), (2, -0.01, 0.015), (3, 0.03, 0.01)])
def test_equivalence_without_the_correction_is_statsmodels_ttost_paired(seed, shift, margin):
    # n_test/n_train -> 0: the corrected variance becomes the paired t's, s^2 / n
    from statsmodels.stats.weightstats import ttost_paired

    a, b = _noisy_pair(seed, shift)
    res = rp.compare_scores(a, b, scheme="10x10cv", n_train=1e15, n_test=1e-3)
    for i in range(a.shape[0]):
        pvalue, lower, upper = ttost_paired(a[i].ravel(), b[i].ravel(), -margin, margin)
        assert res.equivalence(margin).pvalue[i] == pytest.approx(pvalue, abs=1e-10)
        # statsmodels' lower test is H0: delta <= -margin, the non-inferiority of A
        assert res.noninferiority(margin, of="A").pvalue[i] == pytest.approx(lower[1], abs=1e-10)
        assert res.noninferiority(margin, of="B").pvalue[i] == pytest.approx(upper[1], abs=1e-10)


@pytest.mark.parametrize("seed,shift", [(4, 0.0), (5, 0.006), (6, -0.012), (7, 0.03)])
def test_tost_one_sided_pvalues_are_the_bayesian_outer_probabilities(seed, shift):
    # same location, corrected scale and df: P(A better by > rope) is the p of "B not worse by rope"
    a, b = _noisy_pair(seed, shift)
    res = rp.compare_scores(a, b, scheme="10x10cv", n_train=900, n_test=100, rope=0.01)
    p_a, p_eq, p_b = (np.asarray(p) for p in res.bayesian)
    assert np.allclose(res.noninferiority(of="B").pvalue, p_a, rtol=0, atol=1e-12)
    assert np.allclose(res.noninferiority(of="A").pvalue, p_b, rtol=0, atol=1e-12)
    tost = np.asarray(res.equivalence().pvalue)
    assert np.allclose(tost, np.maximum(p_a, p_b), rtol=0, atol=1e-12)
    # agreement in direction: equivalence shown at alpha implies P(equivalent) > 1 - 2 alpha
    for alpha in (0.01, 0.05, 0.1):
        assert np.all(p_eq[tost < alpha] > 1 - 2 * alpha)


def test_equivalence_is_the_interval_inside_the_margin():
    # TOST at alpha rejects exactly when the 1 - 2 alpha interval lies inside (-margin, margin)
    for seed, shift in [(8, 0.0), (9, 0.005), (10, 0.009), (11, -0.02)]:
        a, b = _noisy_pair(seed, shift, (1, 10, 10))
        res = rp.compare_scores(a, b, scheme="10x10cv", n_train=900, n_test=100)
        low, high = res.confidence_interval(0.9)
        for margin in (0.005, 0.01, 0.02, 0.04):
            assert bool(res.equivalence(margin).pvalue[0] < 0.05) == (-margin < low and high < margin)


def test_noninferiority_has_its_level_at_the_margin():
    # per-split differences centred on -margin: the corrected test rejects about alpha of the time
    # (its exact level on equicorrelated normals with rho = n_test / (n_train + n_test))
    rng = np.random.default_rng(12)
    n_sim, n, rho, margin = 4000, 100, 0.1, 0.01
    shared = rng.normal(0, np.sqrt(rho), (n_sim, 1))
    d = -margin + 0.02 * (shared + rng.normal(0, np.sqrt(1 - rho), (n_sim, n)))
    res = rp.compare_scores(d.reshape(n_sim, 10, 10), np.zeros((n_sim, 10, 10)), scheme="10x10cv",
                            n_train=900, n_test=100)
    rate = np.mean(res.noninferiority(margin).pvalue < 0.05)
    assert abs(rate - 0.05) < 3 * np.sqrt(0.05 * 0.95 / n_sim)


def test_effect_size_is_dz_of_the_first_randomization():
    a, b = _noisy_pair(13, 0.01)
    res = rp.compare_scores(a, b, scheme="10x10cv", n_train=900, n_test=100)
    d = (a - b)[0].ravel()
    assert res.effect_size == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)
    frame = res.to_frame()
    assert frame.loc[res.recommended, "standardized effect"] == res.effect_size
    assert frame["standardized effect"].drop(res.recommended).isna().all()
    assert res.to_dict()["standardized_effect"] == res.effect_size
    flat = rp.compare_scores(np.full((2, 5), 0.9), np.full((2, 5), 0.88), scheme="2x5cv", n_train=80, n_test=20)
    assert flat.effect_size == np.inf


def test_equivalence_needs_a_positive_margin():
    a, b = _noisy_pair(14, 0.0, (2, 2, 5))
    res = rp.compare_scores(a, b, scheme="2x5cv", n_train=80, n_test=20)
    with pytest.raises(ValueError, match="No margin"):
        res.equivalence()
    with pytest.raises(ValueError, match="`margin`"):
        res.noninferiority(-0.01)
    with pytest.raises(ValueError, match="`of`"):
        res.noninferiority(0.01, of="C")
    zero = rp.compare_scores(a, b, scheme="2x5cv", n_train=80, n_test=20, rope=0)
    assert "equivalence (TOST)" not in " ".join(zero.to_frame().index)
    with pytest.raises(ValueError, match="No margin"):
        zero.equivalence()
