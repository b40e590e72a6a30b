"""Tests for replicability.stats.estimators (Bouckaert 2004, Sections 3.1-3.3 and Appendix)."""

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from replicability.stats.estimators import (
    binomial_power_sums,
    binomial_power_sums_closed_form,
    linear_estimator_variance,
    linear_replicability,
    minimum_variance_weights,
    pair_agreement,
    pair_covariance,
    pair_indices,
    probabilities_from_replicability,
    r1_weights,
    r2_variance_theorem31,
    r2_weights,
)
from replicability.stats.measures import (
    r1_variance,
    r2_variance,
    replicability_from_probabilities,
    replicability_r1,
    replicability_r2,
)

PROBS = [[0.5, 0.5], [0.9, 0.1], [0.7, 0.3], [0.2, 0.3, 0.5], [0.6, 0.3, 0.1], [0.05, 0.9, 0.05]]


def _enumerate(p, n):
    """Oracle independent of the package: all vectors via itertools, with probabilities."""
    values = np.array([-1, 0, 1]) if len(p) == 3 else np.array([0, 1])
    codes = np.array(list(itertools.product(range(len(p)), repeat=n)))
    return values[codes], np.prod(np.asarray(p)[codes], axis=-1)


def _pair_indicators_loop(e):
    return np.array([int(e[i] == e[j]) for i, j in itertools.combinations(range(len(e)), 2)])


outcome_vectors = st.integers(2, 9).flatmap(
    lambda n: st.lists(st.sampled_from([-1, 0, 1]), min_size=n, max_size=n)
)


# --------------------------------------------------------------------------- #
# the class R̂k
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_pair_indices_follow_itertools_combinations(n):
    i, j = pair_indices(n)
    assert list(zip(i.tolist(), j.tolist())) == list(itertools.combinations(range(n), 2))


@settings(max_examples=60, deadline=None)
@given(outcome_vectors)
def test_pair_agreement_matches_loop(e):
    np.testing.assert_array_equal(pair_agreement(e), _pair_indicators_loop(e))


@settings(max_examples=60, deadline=None)
@given(outcome_vectors)
def test_r2_weights_give_r2_lemma_3_2(e):
    # Eq. 1 (pairs) = Lemma 3.2 (counts), the latter computed by measures.replicability_r2
    assert linear_replicability(e, r2_weights(len(e))) == pytest.approx(replicability_r2(e), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4).flatmap(lambda h: st.lists(st.sampled_from([-1, 0, 1]), min_size=2 * h, max_size=2 * h)))
def test_r1_weights_give_r1(e):
    # Section 3.3: R̂1 is R̂k with k_{i,i+1} = 1/(n/2) for odd i
    assert linear_replicability(e, r1_weights(len(e))) == pytest.approx(replicability_r1(e), rel=1e-12)


def test_linear_replicability_vectorized_equals_loop():
    rng = np.random.default_rng(0)
    e = rng.integers(-1, 2, size=(3, 4, 6))
    w = rng.dirichlet(np.ones(15), size=(4,))
    batched = linear_replicability(e, w)
    assert batched.shape == (3, 4)
    for a, b in np.ndindex(3, 4):
        assert batched[a, b] == pytest.approx(w[b] @ _pair_indicators_loop(e[a, b]), rel=1e-12)


@pytest.mark.parametrize("n", [2, 4, 10])
def test_r1_and_r2_weights_sum_to_one(n):
    # Lemma 3.3: both estimators are unbiased because their weights sum to 1
    assert r1_weights(n).sum() == pytest.approx(1.0, rel=1e-14)
    assert r2_weights(n).sum() == pytest.approx(1.0, rel=1e-14)
    assert np.count_nonzero(r1_weights(n)) == n // 2


# --------------------------------------------------------------------------- #
# covariance of the pair indicators and the variance of R̂k
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("p", PROBS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_pair_covariance_equals_enumeration(p, n):
    outcomes, prob = _enumerate(p, n)
    agree = np.array([_pair_indicators_loop(e) for e in outcomes], dtype=float)
    mean = prob @ agree
    exact = (agree - mean).T @ ((agree - mean) * prob[:, None])
    np.testing.assert_allclose(pair_covariance(p, n), exact, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("p", PROBS)
@pytest.mark.parametrize("n", [3, 4, 5])
def test_linear_estimator_mean_and_variance_by_enumeration(p, n):
    # Lemma 3.3: E R̂k = r Σ k; the variance of any R̂k equals exact enumeration
    rng = np.random.default_rng(n)
    w = rng.normal(size=comb(n, 2))
    outcomes, prob = _enumerate(p, n)
    est = np.array([w @ _pair_indicators_loop(e) for e in outcomes])
    mean = prob @ est
    var = prob @ (est - mean) ** 2
    r = replicability_from_probabilities(p)
    assert mean == pytest.approx(r * w.sum(), rel=1e-12)
    assert linear_estimator_variance(w, p) == pytest.approx(var, rel=1e-10, abs=1e-14)
    assert linear_estimator_variance(w, p) == pytest.approx(w @ pair_covariance(p, n) @ w, rel=1e-10)


@pytest.mark.parametrize("p", PROBS)
@pytest.mark.parametrize("n", [2, 4, 10, 28])
def test_variance_of_r1_and_r2_weights_match_lemma_3_1_and_theorem_3_1(p, n):
    r = replicability_from_probabilities(p)
    assert linear_estimator_variance(r1_weights(n), p) == pytest.approx(r1_variance(r, n), rel=1e-10, abs=1e-15)
    assert linear_estimator_variance(r2_weights(n), p) == pytest.approx(r2_variance(p, n), rel=1e-10, abs=1e-15)


def test_linear_estimator_variance_broadcasts():
    p = np.array([[0.9, 0.1], [0.6, 0.4], [0.5, 0.5]])
    w = np.stack([r1_weights(6), r2_weights(6)])[:, None, :]
    got = linear_estimator_variance(w, p)
    assert got.shape == (2, 3)
    for a, b in np.ndindex(2, 3):
        assert got[a, b] == pytest.approx(linear_estimator_variance(w[a, 0], p[b]), rel=1e-14)


@pytest.mark.parametrize("p", PROBS)
@pytest.mark.parametrize("n", [4, 7])
def test_pair_covariance_eigenvalues(p, n):
    # c0, c0 + (n-2) c1, c0 + 2(n-1) c1 with c1 = F3 - r², c0 = r - r² - 2 c1
    p = np.asarray(p)
    r, f3 = (p**2).sum(), (p**3).sum()
    c1 = f3 - r**2
    c0 = r - r**2 - 2 * c1
    expected = np.sort(
        np.r_[np.full(comb(n, 2) - n, c0), np.full(n - 1, c0 + (n - 2) * c1), c0 + 2 * (n - 1) * c1]
    )
    np.testing.assert_allclose(np.linalg.eigvalsh(pair_covariance(p, n)), expected, rtol=1e-9, atol=1e-13)


# --------------------------------------------------------------------------- #
# Theorem 3.2: R̂2 has the least variance among unbiased linear estimators
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("p", PROBS)
@pytest.mark.parametrize("n", [3, 4, 8])
def test_minimum_variance_weights_are_r2(p, n):
    res = minimum_variance_weights(p, n, rng=1)
    assert res.success
    # oracle: the constrained minimum of wᵀCw with Σw = 1 is C⁻¹1 / 1ᵀC⁻¹1 (Lagrange)
    cov = pair_covariance(p, n)
    kkt = np.linalg.solve(cov, np.ones(comb(n, 2)))
    kkt /= kkt.sum()
    np.testing.assert_allclose(kkt, r2_weights(n), rtol=1e-10)
    np.testing.assert_allclose(res.weights, r2_weights(n), rtol=1e-6)
    assert res.variance == pytest.approx(r2_variance(p, n), rel=1e-10)


@settings(max_examples=40, deadline=None)
@given(
    st.floats(0.5, 0.999),
    st.integers(3, 10),
    st.integers(0, 2**32 - 1),
)
def test_unbiased_weights_never_beat_r2(q, n, seed):
    p = [q, 1 - q]
    w = np.random.default_rng(seed).normal(size=comb(n, 2))
    w = w / w.sum() if abs(w.sum()) > 1e-3 else np.full_like(w, 1 / w.size)
    assert linear_estimator_variance(w, p) >= r2_variance(p, n) * (1 - 1e-12)


def test_r2_variance_at_most_r1_variance_equal_only_at_r_1():
    r = np.linspace(0.5, 1.0, 11)
    for n in (4, 10, 28):
        gap = r1_variance(r, n) - linear_estimator_variance(r2_weights(n), probabilities_from_replicability(r))
        assert np.all(gap[:-1] > 0)
        assert gap[-1] == pytest.approx(0.0, abs=1e-15)


# --------------------------------------------------------------------------- #
# Theorem 3.1 as printed and read
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("r", [0.5, 0.6, 0.82, 0.95, 1.0])
def test_probabilities_from_replicability_round_trip(r):
    p = probabilities_from_replicability(r)
    assert p[0] >= 0.5
    assert replicability_from_probabilities(p) == pytest.approx(r, rel=1e-12)


@pytest.mark.parametrize("r", [0.5, 0.7, 0.82, 0.99, 1.0])
@pytest.mark.parametrize("n", [2, 3, 4, 10, 28])
def test_theorem_3_1_errata_reading_equals_r2_variance(r, n):
    expected = r2_variance(probabilities_from_replicability(r), n)
    assert r2_variance_theorem31(r, n) == pytest.approx(expected, rel=1e-10, abs=1e-15)


def test_theorem_3_1_literal_reading_is_wrong():
    # literal and corrected agree for n = 2 (every (n - 2) factor vanishes) ...
    assert r2_variance_theorem31(0.8, 2, reading="literal") == pytest.approx(r2_variance_theorem31(0.8, 2))
    # ... but the literal print is negative for n = 10, r = 0.82 (p = 0.9)
    assert r2_variance_theorem31(0.82, 10, reading="literal") < 0
    r = np.linspace(0.5, 0.99, 5)
    assert np.all(r2_variance_theorem31(r, 4, reading="literal") < 0)


def test_theorem_3_1_vectorized():
    r = np.array([[0.6, 0.7], [0.9, 1.0]])
    got = r2_variance_theorem31(r, 6)
    assert got.shape == (2, 2)
    for idx in np.ndindex(2, 2):
        assert got[idx] == pytest.approx(r2_variance_theorem31(float(r[idx]), 6), rel=1e-14)


# --------------------------------------------------------------------------- #
# Appendix, Lemma A.1
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("n", [1, 2, 5, 14])
def test_lemma_a1_against_scipy_binomial(n):
    p = np.array([0.0, 0.1, 0.5, 0.77, 1.0])
    direct = binomial_power_sums(p, n)
    dist = stats.binom(n, p)
    oracle = np.stack([np.ones_like(p), dist.mean(), dist.var() + dist.mean() ** 2], axis=-1)
    np.testing.assert_allclose(direct, oracle, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(binomial_power_sums_closed_form(p, n), oracle, rtol=1e-12, atol=1e-12)


def test_lemma_a1_gives_lemma_3_1():
    # proof of Lemma 3.1: var R̂1 = E[i²]/(n/2)² − r², i ~ Binomial(n/2, r)
    r = np.linspace(0.5, 1, 6)
    n = 10
    second = binomial_power_sums(r, n // 2)[..., 2]
    np.testing.assert_allclose(second / (n / 2) ** 2 - r**2, r1_variance(r, n), rtol=1e-10, atol=1e-15)


# --------------------------------------------------------------------------- #
# validation: one test per rule
# --------------------------------------------------------------------------- #
def test_pair_indices_rejects_n_below_2():
    with pytest.raises(ValueError, match="`n`"):
        pair_indices(1)


def test_weights_length_must_be_a_pair_count():
    with pytest.raises(ValueError, match="`weights`"):
        linear_estimator_variance([0.5, 0.25, 0.25, 0.0], [0.5, 0.5])


def test_weights_must_be_finite():
    with pytest.raises(ValueError, match="`weights`"):
        linear_replicability([0, 1, 1], [np.nan, 0.5, 0.5])


def test_weights_must_match_outcomes():
    with pytest.raises(ValueError, match="`weights`"):
        linear_replicability([0, 1, 1, 0], r2_weights(3))


def test_outcomes_values_checked():
    with pytest.raises(ValueError, match="`outcomes`"):
        pair_agreement([0, 2, 1])


def test_r1_weights_need_even_n():
    with pytest.raises(ValueError, match="`n`"):
        r1_weights(5)


def test_replicability_below_half_rejected():
    with pytest.raises(ValueError, match="`r`"):
        probabilities_from_replicability(0.4)


def test_replicability_above_one_rejected():
    with pytest.raises(ValueError, match="`r`"):
        r2_variance_theorem31(1.2, 4)


def test_probabilities_must_sum_to_one():
    with pytest.raises(ValueError, match="`p`"):
        pair_covariance([0.5, 0.6], 3)


def test_minimum_variance_needs_one_distribution():
    with pytest.raises(ValueError, match="`p`"):
        minimum_variance_weights([[0.5, 0.5], [0.9, 0.1]], 3)


def test_minimum_variance_needs_r_below_one():
    with pytest.raises(ValueError, match="`p`"):
        minimum_variance_weights([1.0, 0.0], 3)


def test_reading_must_be_known():
    with pytest.raises(ValueError, match="`reading`"):
        r2_variance_theorem31(0.8, 4, reading="printed")


def test_binomial_p_in_unit_interval():
    with pytest.raises(ValueError, match="`p`"):
        binomial_power_sums(1.5, 3)


def test_binomial_n_positive():
    with pytest.raises(ValueError, match="`n`"):
        binomial_power_sums_closed_form(0.5, 0)
