"""Bayesian comparisons with a ROPE: checked against baycomp 1.0.3, exact moments and simulation."""

import numpy as np
import pytest

from replicability.stats.bayesian import (
    BAYESIAN_DECISIONS,
    BayesianSignedRankResult,
    BayesianTTestResult,
    bayesian_correlated_ttest,
    bayesian_signed_rank_test,
)
from replicability.stats.ttests import corrected_repeated_cv_ttest

baycomp = pytest.importorskip("baycomp")


def _cv_scores(seed, runs, folds, shift):
    """Accuracy-like scores of A and B on runs x folds, A - B about ``shift`` on average."""
    rng = np.random.default_rng(seed)
    common = rng.normal(0.8, 0.03, size=(runs, folds))
    a = common + shift + rng.normal(0, 0.02, size=(runs, folds))
    b = common + rng.normal(0, 0.02, size=(runs, folds))
    return a, b


# --------------------------------------------------------------------------
# Bayesian correlated t-test
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seed", "runs", "folds", "shift", "rope"),
    [
        (0, 10, 10, 0.01, 0.01),  # the UCI design, one accuracy point
        (1, 10, 10, 0.01, 0.0),  # no ROPE
        (2, 10, 10, -0.02, 0.01),  # B better: the order of the probabilities must not flip
        (3, 3, 5, -0.005, 0.0),  # negative, no ROPE
        (4, 1, 10, 0.003, 0.005),  # one run of 10-fold cv
        (5, 5, 2, 0.0, 0.02),  # 5 x 2 cv, wide ROPE
    ],
)
def test_correlated_ttest_equals_baycomp(seed, runs, folds, shift, rope):
    a, b = _cv_scores(seed, runs, folds, shift)
    # per fold: n_test = N / k, n_train = N (k - 1) / k, so n_test / n_train = 1 / (k - 1) as in baycomp
    res = bayesian_correlated_ttest(a, b, rope=rope, n_train=100 * (folds - 1), n_test=100)
    posterior = baycomp.CorrelatedTTest(a.ravel(), b.ravel(), rope=rope, runs=runs)
    # baycomp's differences are y - x: its mean is minus ours, its variance is our scale squared
    assert float(res.estimate) == pytest.approx(-posterior.mean, abs=1e-15)
    assert float(res.scale) ** 2 == pytest.approx(posterior.var, rel=1e-12)
    assert res.df == posterior.df == runs * folds - 1
    probs = posterior.probs()
    if rope > 0:
        assert tuple(map(float, res)) == pytest.approx(probs, abs=1e-12)
    else:  # baycomp returns (p_left, p_right) without a ROPE
        assert (float(res.p_a_better), float(res.p_b_better)) == pytest.approx(probs, abs=1e-12)
        assert float(res.p_equivalent) == 0.0
    assert float(res.p_a_better + res.p_equivalent + res.p_b_better) == pytest.approx(1.0, abs=1e-12)
    assert res.rope == rope
    if shift < -0.01:
        assert res.p_b_better > 0.5 > res.p_a_better


def test_correlated_ttest_posterior_is_the_corrected_ttest():
    a, b = _cv_scores(7, 10, 10, 0.01)
    bayes = bayesian_correlated_ttest(a, b, rope=0.01, n_train=900, n_test=100)
    freq = corrected_repeated_cv_ttest(a, b, n_train=900, n_test=100)
    assert bayes.estimate == freq.estimate
    assert bayes.scale == freq.standard_error
    assert bayes.df == freq.df
    # rope = 0: P(B better) is the one-sided p-value of the corrected t-test for "A better"
    zero = bayesian_correlated_ttest(a, b, rope=0, n_train=900, n_test=100)
    one_sided = corrected_repeated_cv_ttest(a, b, n_train=900, n_test=100, alternative="greater")
    assert float(zero.p_b_better) == pytest.approx(float(one_sided.pvalue), rel=1e-12)


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01])
def test_correlated_ttest_probabilities_match_a_posterior_simulation(rope):
    a, b = _cv_scores(8, 10, 10, 0.006)
    res = bayesian_correlated_ttest(a, b, rope=rope, n_train=900, n_test=100)
    n = 400_000
    rng = np.random.default_rng(123)
    draws = float(res.estimate) + float(res.scale) * rng.standard_t(res.df, size=n)
    simulated = [np.mean(draws > rope), np.mean(np.abs(draws) <= rope), np.mean(draws < -rope)]
    for p, q in zip(res, simulated):
        assert abs(float(p) - q) <= 4 * np.sqrt(max(float(p) * (1 - float(p)), 1e-12) / n)
    # the result's own sampler draws the same distribution
    own = res.sample(n, rng=5)
    assert own.shape == (n,)
    assert abs(np.mean(own > rope) - float(res.p_a_better)) <= 4 * np.sqrt(0.25 / n)


def test_correlated_ttest_swapping_a_and_b_swaps_the_probabilities():
    a, b = _cv_scores(9, 10, 10, 0.008)
    ab = bayesian_correlated_ttest(a, b, rope=0.01, n_train=900, n_test=100)
    ba = bayesian_correlated_ttest(b, a, rope=0.01, n_train=900, n_test=100)
    assert ab.p_a_better == ba.p_b_better
    assert ab.p_b_better == ba.p_a_better
    assert ab.p_equivalent == pytest.approx(ba.p_equivalent, abs=1e-15)
    assert ab.estimate == -ba.estimate


def test_correlated_ttest_batch_equals_loop_over_slices():
    rng = np.random.default_rng(10)
    d = rng.normal(0.005, 0.02, size=(4, 3, 10, 10))
    n_test = rng.integers(20, 80, size=(4, 3)).astype(float)
    res = bayesian_correlated_ttest(d, rope=0.01, n_train=9 * n_test, n_test=n_test)
    assert res.p_a_better.shape == (4, 3)
    for i in range(4):
        for j in range(3):
            one = bayesian_correlated_ttest(d[i, j], rope=0.01, n_train=9 * n_test[i, j], n_test=n_test[i, j])
            assert tuple(map(float, one)) == (res.p_a_better[i, j], res.p_equivalent[i, j], res.p_b_better[i, j])
    # flat experiments with n_folds read as runs x folds
    flat = bayesian_correlated_ttest(d.reshape(4, 3, 100), rope=0.01, n_train=9 * n_test, n_test=n_test,
                                     n_folds=10)
    np.testing.assert_array_equal(flat.p_a_better, res.p_a_better)


@pytest.mark.parametrize(("value", "rope", "expected"), [
    (0.0, 0.01, (0.0, 1.0, 0.0)),
    (0.01, 0.01, (0.0, 1.0, 0.0)),  # on the boundary: inside the closed ROPE
    (0.02, 0.01, (1.0, 0.0, 0.0)),
    (-0.02, 0.01, (0.0, 0.0, 1.0)),
    (0.02, 0.0, (1.0, 0.0, 0.0)),
    (-0.02, 0.0, (0.0, 0.0, 1.0)),
])
def test_correlated_ttest_zero_variance_is_a_point_mass(value, rope, expected):
    d = np.full((10, 10), value)
    res = bayesian_correlated_ttest(d, rope=rope, n_train=900, n_test=100)
    assert tuple(map(float, res)) == expected
    assert float(res.scale) == 0.0
    if rope > 0 and abs(value) != rope:  # baycomp's rule for rope > 0 is the same
        # (on the boundary baycomp's np.var leaves a rounding residue and it sees no point mass)
        assert tuple(map(float, baycomp.CorrelatedTTest(d.ravel(), np.zeros(100), rope=rope, runs=10).probs())) \
            == pytest.approx(expected)


def test_correlated_ttest_all_differences_zero_without_rope_is_equivalence():
    # documented deviation from baycomp, which splits this case 1/2 - 1/2
    res = bayesian_correlated_ttest(np.zeros((10, 10)), rope=0, n_train=900, n_test=100)
    assert tuple(map(float, res)) == (0.0, 1.0, 0.0)
    assert res.decision() == "equivalent"
    assert baycomp.CorrelatedTTest(np.zeros(100), np.zeros(100), rope=0, runs=10).probs() == (0.5, 0.5)


def test_correlated_ttest_one_dimensional_input_is_one_experiment():
    a, b = _cv_scores(11, 1, 30, 0.004)  # e.g. 30 random subsamples
    flat = bayesian_correlated_ttest(a.ravel(), b.ravel(), rope=0.01, n_train=90, n_test=10)
    posterior = baycomp.CorrelatedTTest(a.ravel(), b.ravel(), rope=0.01, runs=3)  # 10 "folds": ratio 1/9
    assert tuple(map(float, flat)) == pytest.approx(posterior.probs(), abs=1e-12)


def test_correlated_ttest_result_repr_and_frame_show_the_rope():
    res = bayesian_correlated_ttest([[0.02, 0.01, 0.03], [0.00, 0.02, 0.01]], rope=0, n_train=200, n_test=100)
    assert isinstance(res, BayesianTTestResult)
    assert "rope=0.0" in repr(res)
    assert repr(res).startswith("BayesianTTestResult(p_a_better=")
    frame = res.to_frame()
    assert list(frame.columns) == ["p_a_better", "p_equivalent", "p_b_better", "rope", "estimate", "scale", "df"]
    assert frame["rope"].tolist() == [0.0]
    p_a, p_eq, p_b = res
    assert len(res) == 3 and p_eq == 0.0 and p_a + p_b == pytest.approx(1.0)


@pytest.mark.parametrize(("probs", "expected"), [
    ((0.96, 0.04, 0.0), "A better"),
    ((0.0, 0.97, 0.03), "equivalent"),
    ((0.01, 0.03, 0.96), "B better"),
    ((0.6, 0.3, 0.1), "undecided"),
    ((0.95, 0.05, 0.0), "undecided"),  # "exceeds": strictly above the threshold
])
def test_decision(probs, expected):
    res = BayesianTTestResult(*probs, 0.01)
    assert res.decision() == expected
    assert expected in BAYESIAN_DECISIONS


def test_decision_is_vectorized_and_threshold_is_checked():
    res = BayesianTTestResult(np.array([0.99, 0.5]), np.array([0.01, 0.2]), np.array([0.0, 0.3]), 0.01)
    assert res.decision().tolist() == ["A better", "undecided"]
    assert res.decision(threshold=0.5).tolist() == ["A better", "undecided"]
    for bad in (0.4, 1.0, True, "0.9"):
        with pytest.raises(ValueError, match="`threshold` must be a number in"):
            res.decision(threshold=bad)


# --------------------------------------------------------------------------
# Bayesian signed-rank test
# --------------------------------------------------------------------------
def _dataset_means(seed, n, shift, spread=0.015):
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.7, 0.95, size=n)
    return b + shift + rng.normal(0, spread, size=n), b


def _within_monte_carlo_error(p, q, n1, n2):
    """|p - q| within 4 binomial standard errors of the difference of two independent estimates."""
    pooled = (p * n1 + q * n2) / (n1 + n2)
    return abs(p - q) <= 4 * np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))


@pytest.mark.parametrize(
    ("seed", "n", "shift", "rope", "prior"),
    [
        (0, 27, 0.01, 0.01, 0.5),
        (1, 27, 0.005, 0.01, 1.0),
        (2, 15, -0.012, 0.01, 0.5),
        (3, 20, 0.004, 0.0, 0.5),
        (4, 10, -0.003, 0.0, 1.0),
        (5, 27, 0.0, 0.02, 0.5),
    ],
)
def test_signed_rank_test_agrees_with_baycomp_within_monte_carlo_error(seed, n, shift, rope, prior):
    x, y = _dataset_means(seed, n, shift)
    n_draws = 20_000
    res = bayesian_signed_rank_test(x, y, rope=rope, prior=prior, n_draws=n_draws, rng=seed)
    theirs = baycomp.SignedRankTest.probs(x, y, rope=rope, prior=prior, nsamples=n_draws, random_state=seed)
    if rope == 0:
        theirs = (theirs[0], 0.0, theirs[1])
    for p, q in zip(map(float, res), theirs):
        assert _within_monte_carlo_error(p, q, n_draws, n_draws), (tuple(map(float, res)), theirs)
    assert float(res.p_a_better + res.p_equivalent + res.p_b_better) == pytest.approx(1.0)


def test_signed_rank_posterior_mean_of_theta_is_exact():
    # E[w_i w_j] of Dirichlet(alpha), alpha_0 = sum alpha: alpha_i alpha_j / (alpha_0 (alpha_0 + 1)),
    # plus alpha_i / (alpha_0 (alpha_0 + 1)) on the diagonal; E[theta] = sum_ij E[w_i w_j] H_ij.
    x, y = _dataset_means(6, 12, 0.006)
    rope, prior = 0.01, 0.5
    res = bayesian_signed_rank_test(x, y, rope=rope, prior=prior, n_draws=40_000, rng=1)
    z = np.concatenate(([0.0], x - y))
    alpha = np.concatenate(([prior], np.ones(z.size - 1)))
    a0 = alpha.sum()
    moments = (np.outer(alpha, alpha) + np.diag(alpha)) / (a0 * (a0 + 1))
    expected = {0: 0.0, 2: 0.0}
    for i in range(z.size):  # an explicit double loop: independent of the vectorized code
        for j in range(z.size):
            walsh = (z[i] + z[j]) / 2
            expected[0] += moments[i, j] * (1.0 if walsh > rope else 0.5 if walsh == rope else 0.0)
            expected[2] += moments[i, j] * (1.0 if walsh < -rope else 0.5 if walsh == -rope else 0.0)
    for column in (0, 2):
        draws = res.samples[:, column]
        se = draws.std(ddof=1) / np.sqrt(draws.size)
        assert abs(draws.mean() - expected[column]) <= 4 * se
    np.testing.assert_allclose(res.samples.sum(axis=-1), 1.0, atol=1e-12)


def test_signed_rank_test_is_reproducible_with_a_seed():
    x, y = _dataset_means(7, 27, 0.008)
    one = bayesian_signed_rank_test(x, y, rope=0.01, n_draws=5000, rng=42)
    two = bayesian_signed_rank_test(x, y, rope=0.01, n_draws=5000, rng=np.random.default_rng(42))
    other = bayesian_signed_rank_test(x, y, rope=0.01, n_draws=5000, rng=43)
    assert tuple(one) == tuple(two)
    np.testing.assert_array_equal(one.samples, two.samples)
    assert not np.array_equal(one.samples, other.samples)


def test_signed_rank_swapping_a_and_b_swaps_the_probabilities_exactly():
    x, y = _dataset_means(8, 27, 0.009)
    ab = bayesian_signed_rank_test(x, y, rope=0.01, n_draws=5000, rng=3)
    ba = bayesian_signed_rank_test(y, x, rope=0.01, n_draws=5000, rng=3)
    assert (ab.p_a_better, ab.p_equivalent, ab.p_b_better) == (ba.p_b_better, ba.p_equivalent, ba.p_a_better)
    np.testing.assert_array_equal(ab.samples[:, ::-1], ba.samples)


def test_signed_rank_batch_equals_loop_over_slices():
    rng = np.random.default_rng(9)
    d = rng.normal(0.004, 0.015, size=(2, 3, 12))
    res = bayesian_signed_rank_test(d, rope=0.01, n_draws=3000, rng=11)
    assert res.p_a_better.shape == (2, 3) and res.samples.shape == (2, 3, 3000, 3)
    for i in range(2):
        for j in range(3):
            one = bayesian_signed_rank_test(d[i, j], rope=0.01, n_draws=3000, rng=11)
            assert tuple(map(float, one)) == (res.p_a_better[i, j], res.p_equivalent[i, j], res.p_b_better[i, j])


def test_signed_rank_all_zero_differences():
    zero = np.zeros(10)
    no_rope = bayesian_signed_rank_test(zero, rope=0, n_draws=2000, rng=0)
    assert tuple(map(float, no_rope)) == (0.5, 0.0, 0.5)  # every draw ties: split, not given to A
    with_rope = bayesian_signed_rank_test(zero, rope=0.01, n_draws=2000, rng=0)
    assert tuple(map(float, with_rope)) == (0.0, 1.0, 0.0)
    assert with_rope.decision() == "equivalent"


def test_signed_rank_clear_cases_decide():
    x, y = _dataset_means(10, 27, 0.05, spread=0.005)
    assert bayesian_signed_rank_test(x, y, rope=0.01, n_draws=5000, rng=0).decision() == "A better"
    assert bayesian_signed_rank_test(y, x, rope=0.01, n_draws=5000, rng=0).decision() == "B better"
    near = bayesian_signed_rank_test(np.linspace(-0.002, 0.002, 27), rope=0.01, n_draws=5000, rng=0)
    assert near.decision() == "equivalent"


def test_signed_rank_result_repr_leaves_out_the_samples():
    res = bayesian_signed_rank_test([0.01, 0.02, -0.005, 0.015], rope=0, n_draws=100, rng=0)
    assert isinstance(res, BayesianSignedRankResult)
    text = repr(res)
    assert "rope=0.0" in text and "prior=0.5" in text and "n_draws=100" in text and ", samples=" not in text
    assert "samples" not in res.to_frame().columns


# --------------------------------------------------------------------------
# input checks
# --------------------------------------------------------------------------
@pytest.mark.parametrize("func", ["t", "sr"])
@pytest.mark.parametrize("rope", [-0.01, np.inf, np.nan, "0.01", True, [0.01]])
def test_rope_is_checked(func, rope):
    with pytest.raises(ValueError, match="`rope` must be a non-negative finite number"):
        if func == "t":
            bayesian_correlated_ttest(np.ones((2, 3)), rope=rope, n_train=2, n_test=1)
        else:
            bayesian_signed_rank_test(np.ones(5), rope=rope)


def test_rope_has_no_default():
    with pytest.raises(TypeError, match="rope"):
        bayesian_correlated_ttest(np.ones((2, 3)), n_train=2, n_test=1)
    with pytest.raises(TypeError, match="rope"):
        bayesian_signed_rank_test(np.ones(5))


def test_correlated_ttest_input_errors():
    with pytest.raises(ValueError, match="`x` and `y` must have the same shape"):
        bayesian_correlated_ttest(np.ones((2, 3)), np.ones((2, 4)), rope=0.01, n_train=2, n_test=1)
    with pytest.raises(ValueError, match="`n_test` must be a positive finite number"):
        bayesian_correlated_ttest(np.ones((2, 3)), rope=0.01, n_train=2, n_test=0)
    with pytest.raises(ValueError, match="finite"):
        bayesian_correlated_ttest([[0.1, np.nan], [0.0, 0.1]], rope=0.01, n_train=2, n_test=1)
    with pytest.raises(TypeError, match="`x` must hold numbers, not strings"):
        bayesian_correlated_ttest("abc", rope=0.01, n_train=2, n_test=1)
    with pytest.raises(ValueError, match="`n_folds` must divide"):
        bayesian_correlated_ttest(np.ones(10), rope=0.01, n_train=2, n_test=1, n_folds=3)


def test_signed_rank_input_errors():
    with pytest.raises(ValueError, match="`prior` must be a positive finite number"):
        bayesian_signed_rank_test(np.ones(5), rope=0.01, prior=0)
    with pytest.raises(ValueError, match="`prior` must be a non-negative finite number"):
        bayesian_signed_rank_test(np.ones(5), rope=0.01, prior=-1)
    with pytest.raises(ValueError, match="`n_draws` must be an integer >= 1"):
        bayesian_signed_rank_test(np.ones(5), rope=0.01, n_draws=0)
    with pytest.raises(ValueError, match="`n_draws` must be an integer >= 1"):
        bayesian_signed_rank_test(np.ones(5), rope=0.01, n_draws=10.5)
    with pytest.raises(ValueError, match="at least 2 value"):
        bayesian_signed_rank_test([0.01], rope=0.01)
    with pytest.raises(ValueError, match="`x` and `y` must have the same shape"):
        bayesian_signed_rank_test(np.ones(5), np.ones(6), rope=0.01)
    with pytest.raises(ValueError, match="`rng` must be a numpy Generator"):
        bayesian_signed_rank_test(np.ones(5), rope=0.01, rng="seed")
