"""Tests for replicability.stats.enumeration (exact enumeration and simulation of outcome vectors)."""

import itertools

import numpy as np
import pytest
from scipy import stats

from replicability.stats.enumeration import (
    enumerate_outcomes,
    exact_moments,
    outcome_probabilities,
    sample_moments,
    simulate_outcomes,
)
from replicability.stats.measures import (
    r2_variance,
    replicability_from_probabilities,
    replicability_r2,
)


@pytest.mark.parametrize(("n_values", "values"), [(2, [0, 1]), (3, [-1, 0, 1])])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_enumerate_outcomes_equals_itertools_product(n_values, values, n):
    expected = np.array(list(itertools.product(values, repeat=n)))
    np.testing.assert_array_equal(enumerate_outcomes(n, n_values=n_values), expected)


@pytest.mark.parametrize("p", [[0.9, 0.1], [0.2, 0.3, 0.5]])
def test_outcome_probabilities_are_products_and_sum_to_one(p):
    values = [0, 1] if len(p) == 2 else [-1, 0, 1]
    e = enumerate_outcomes(4, n_values=len(p))
    prob = outcome_probabilities(e, p)
    expected = [np.prod([p[values.index(v)] for v in row]) for row in e]
    np.testing.assert_allclose(prob, expected, rtol=1e-14)
    assert prob.sum() == pytest.approx(1.0, rel=1e-14)


def test_outcome_probabilities_batch_over_distributions():
    e = enumerate_outcomes(3)
    p = np.array([[0.5, 0.5], [0.8, 0.2], [1.0, 0.0]])
    prob = outcome_probabilities(e, p)
    assert prob.shape == (3, 8)
    for k in range(3):
        np.testing.assert_allclose(prob[k], outcome_probabilities(e, p[k]), rtol=1e-14)
    assert prob[2, 0] == 1.0  # 0**0 = 1: with p = (1, 0) only the all-accept vector occurs


@pytest.mark.parametrize("p", [[0.7, 0.3], [0.6, 0.3, 0.1]])
@pytest.mark.parametrize("n", [3, 6])
def test_exact_moments_of_r2_give_theorem_3_1(p, n):
    e = enumerate_outcomes(n, n_values=len(p))
    m = exact_moments(replicability_r2(e), outcome_probabilities(e, p))
    assert m.mean == pytest.approx(replicability_from_probabilities(p), rel=1e-12)
    assert m.variance == pytest.approx(r2_variance(p, n), rel=1e-10)
    assert m.mean_se == 0 and m.variance_se == 0


def test_exact_moments_batch():
    m = exact_moments([0.0, 1.0], [[0.25, 0.75], [0.5, 0.5]])
    np.testing.assert_allclose(m.mean, [0.75, 0.5])
    np.testing.assert_allclose(m.variance, [0.1875, 0.25])


def test_simulate_outcomes_frequencies_and_determinism():
    p = np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    draws = simulate_outcomes(p, 5, n_sim=20_000, rng=3)
    assert draws.shape == (2, 20_000, 5)
    np.testing.assert_array_equal(draws, simulate_outcomes(p, 5, n_sim=20_000, rng=3))
    total = 100_000
    for k in range(2):
        for c, v in enumerate([-1, 0, 1]):
            count = int((draws[k] == v).sum())
            # 99.9% binomial interval for the count of value v
            lo, hi = stats.binom(total, p[k, c]).interval(0.999)
            assert lo <= count <= hi


def test_simulate_two_values_uses_zero_one():
    draws = simulate_outcomes([0.5, 0.5], 8, n_sim=50, rng=0)
    assert set(np.unique(draws).tolist()) == {0, 1}


def test_sample_moments_match_numpy():
    x = np.random.default_rng(5).normal(2.0, 3.0, size=(2, 40_000))
    m = sample_moments(x)
    np.testing.assert_allclose(m.mean, x.mean(axis=-1), rtol=1e-12)
    np.testing.assert_allclose(m.variance, x.var(axis=-1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(m.mean_se, np.sqrt(x.var(axis=-1, ddof=1) / 40_000), rtol=1e-12)
    # for normal data the standard error of s² is σ² √(2/N) = 9 √(2/40000)
    np.testing.assert_allclose(m.variance_se, 9 * np.sqrt(2 / 40_000), rtol=0.05)


# --------------------------------------------------------------------------- #
# validation: one test per rule
# --------------------------------------------------------------------------- #
def test_enumerate_n_positive():
    with pytest.raises(ValueError, match="`n`"):
        enumerate_outcomes(0)


def test_enumerate_n_values_two_or_three():
    with pytest.raises(ValueError, match="`n_values`"):
        enumerate_outcomes(3, n_values=4)


def test_enumerate_size_limited():
    with pytest.raises(ValueError, match="`n`"):
        enumerate_outcomes(23)


def test_probabilities_two_or_three_values():
    with pytest.raises(ValueError, match="`p`"):
        outcome_probabilities([[0, 1]], [0.25, 0.25, 0.25, 0.25])


def test_outcomes_must_use_the_values_of_p():
    with pytest.raises(ValueError, match="`outcomes`"):
        outcome_probabilities([[-1, 1]], [0.5, 0.5])


def test_n_sim_positive():
    with pytest.raises(ValueError, match="`n_sim`"):
        simulate_outcomes([0.5, 0.5], 3, n_sim=0)


def test_exact_moments_same_last_axis():
    with pytest.raises(ValueError, match="`values` and `probabilities`"):
        exact_moments([0.0, 1.0, 2.0], [0.5, 0.5])


def test_exact_moments_probabilities_sum_to_one():
    with pytest.raises(ValueError, match="`probabilities`"):
        exact_moments([0.0, 1.0], [0.5, 0.6])


def test_sample_moments_needs_two_draws():
    with pytest.raises(ValueError, match="`values`"):
        sample_moments([1.0])
