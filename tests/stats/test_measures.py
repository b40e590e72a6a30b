"""Tests for replicability.stats.measures (Bouckaert 2004; Bouckaert & Frank 2004; Bouckaert 2005)."""

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replicability.stats.measures import (
    almost_consistency,
    almost_consistency_from_counts,
    consistency,
    consistency_from_counts,
    normalized_replicability,
    outcome_counts,
    r1_variance,
    r2_variance,
    replicability_from_probabilities,
    replicability_r1,
    replicability_r2,
    replicability_r2_from_counts,
    type1_replicability_bound,
)

VALUES3 = np.array([-1, 0, 1])


def _enumerate(p, n):
    """All outcome vectors of length n over len(p) values, with their probabilities."""
    values = VALUES3[: len(p)] if len(p) == 3 else np.array([0, 1])
    vecs = np.array(list(itertools.product(range(len(p)), repeat=n)))
    prob = np.prod(np.asarray(p)[vecs], axis=-1)
    return values[vecs], prob


PROBS = [[0.5, 0.5], [0.9, 0.1], [0.7, 0.3], [0.2, 0.3, 0.5], [0.6, 0.3, 0.1], [0.05, 0.9, 0.05]]


@pytest.mark.parametrize("p", PROBS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_r2_exact_mean_and_variance(p, n):
    outcomes, prob = _enumerate(p, n)
    est = replicability_r2(outcomes)  # vectorized over all enumerated vectors
    r = replicability_from_probabilities(p)
    mean = np.sum(prob * est)
    var = np.sum(prob * (est - mean) ** 2)
    assert mean == pytest.approx(r, rel=1e-12, abs=1e-14)  # unbiased (Theorem 3.1)
    assert var == pytest.approx(r2_variance(p, n), rel=1e-10, abs=1e-14)


@pytest.mark.parametrize("p", PROBS)
@pytest.mark.parametrize("n", [2, 4, 6])
def test_r1_exact_mean_and_variance(p, n):
    outcomes, prob = _enumerate(p, n)
    est = replicability_r1(outcomes)
    r = replicability_from_probabilities(p)
    mean = np.sum(prob * est)
    var = np.sum(prob * (est - mean) ** 2)
    assert mean == pytest.approx(r, rel=1e-12)  # unbiased (Lemma 3.1)
    assert var == pytest.approx(r1_variance(r, n), rel=1e-10, abs=1e-14)


@pytest.mark.parametrize("p", [0.5, 0.6, 0.8, 0.95])
@pytest.mark.parametrize("n", [4, 5, 10, 20])
def test_theorem_3_1_as_read_in_errata_two_values(p, n):
    # ERRATA: [2(n−2)(n−3)F4 + (4 − 2(n−3))(n−2)F3 + ((n−2)(n−3)+2)F2]/(n(n−1)) − r²
    F = lambda k: p**k + (1 - p) ** k  # noqa: E731
    r = F(2)
    printed = (
        2 * (n - 2) * (n - 3) * F(4) + (4 - 2 * (n - 3)) * (n - 2) * F(3) + ((n - 2) * (n - 3) + 2) * F(2)
    ) / (n * (n - 1)) - r**2
    assert r2_variance([p, 1 - p], n) == pytest.approx(printed, rel=1e-10, abs=1e-15)


def test_r2_variance_not_above_r1_variance():
    # Theorem 3.2: R̂2 has the least variance; equal only when r = 1.
    for p in PROBS:
        r = replicability_from_probabilities(p)
        for n in (4, 10, 20):
            assert r2_variance(p, n) < r1_variance(r, n)
    assert r2_variance([1.0, 0.0], 10) == pytest.approx(0.0, abs=1e-15)
    assert r1_variance(1.0, 10) == 0.0


@pytest.mark.parametrize("p", [[0.8, 0.2], [0.5, 0.3, 0.2]])
def test_monte_carlo_unbiased(p):
    rng = np.random.default_rng(20040704)
    n, m = 10, 20000
    outcomes = rng.choice(VALUES3[: len(p)] if len(p) == 3 else [0, 1], size=(m, n), p=p)
    r = replicability_from_probabilities(p)
    for est, var in (
        (replicability_r1(outcomes), r1_variance(r, n)),
        (replicability_r2(outcomes), r2_variance(p, n)),
    ):
        se = np.sqrt(var / m)
        assert abs(est.mean() - r) < 4 * se
        # sample variance within 10% of the closed form (m = 20000 draws)
        assert est.var(ddof=1) == pytest.approx(var, rel=0.1)


def test_reference_values_bouckaert_frank():
    # Bouckaert & Frank (2004) §2: R(k, n) = (k(k−1) + (n−k)(n−k−1)) / (n(n−1)).
    for k in range(11):
        expected = (k * (k - 1) + (10 - k) * (9 - k)) / 90
        assert replicability_r2_from_counts([k, 10 - k]) == pytest.approx(expected, rel=1e-15)
    # 9 of 10 agree: (72 + 0)/90 = 0.8
    assert replicability_r2([1] * 9 + [0]) == pytest.approx(0.8)


def test_r2_equals_pairwise_definition():
    rng = np.random.default_rng(1)
    outcomes = rng.integers(-1, 2, size=(50, 7))
    pairs = list(itertools.combinations(range(7), 2))
    direct = np.mean([outcomes[:, i] == outcomes[:, j] for i, j in pairs], axis=0)
    np.testing.assert_allclose(replicability_r2(outcomes), direct, rtol=1e-14)


def test_r1_consecutive_pairs():
    assert replicability_r1([1, 1, 0, 1]) == 0.5
    assert replicability_r1([1, 0, 0, 1]) == 0.0  # (e1,e2), (e3,e4) only


@given(st.lists(st.lists(st.sampled_from([-1, 0, 1]), min_size=6, max_size=6), min_size=1, max_size=5))
@settings(max_examples=50, deadline=None)
def test_vectorized_matches_loop(rows):
    arr = np.array(rows).reshape(len(rows), 1, 6)
    for fn in (replicability_r1, replicability_r2, consistency, almost_consistency):
        batch = fn(arr)
        assert batch.shape == (len(rows), 1)
        for i, row in enumerate(rows):
            assert batch[i, 0] == fn(row)


@given(st.lists(st.sampled_from([-1, 0, 1]), min_size=2, max_size=12))
@settings(max_examples=50, deadline=None)
def test_counts_forms_agree(row):
    counts = outcome_counts(row)
    assert counts.sum() == len(row)
    assert replicability_r2_from_counts(counts) == pytest.approx(replicability_r2(row), rel=1e-15)
    assert consistency_from_counts(counts) == consistency(row)
    assert almost_consistency_from_counts(counts) == almost_consistency(row)
    # swapping A and B (negating outcomes) leaves every measure unchanged
    neg = [-v for v in row]
    assert replicability_r2(neg) == replicability_r2(row)
    assert consistency(neg) == consistency(row)


def test_consistency_counts_as_in_bouckaert_frank():
    # "the number of 0's and 10's" (consistent), "0's, 1's, 9's and 10's" (almost).
    counts = np.array([[k, 10 - k] for k in range(11)])
    assert np.flatnonzero(consistency_from_counts(counts)).tolist() == [0, 10]
    assert np.flatnonzero(almost_consistency_from_counts(counts)).tolist() == [0, 1, 9, 10]
    # three values: 8 of one and one each of the other two is not almost consistent
    assert not almost_consistency([1] * 8 + [0, -1])
    assert almost_consistency([1] * 9 + [-1])


def test_normalized_replicability():
    # Bouckaert 2004 §3: normalized = 2(r − 1/2)
    np.testing.assert_allclose(normalized_replicability([0.5, 0.75, 1.0]), [0.0, 0.5, 1.0])


def test_type1_bound():
    # Bouckaert 2005 §3: 90.5% at α = 5%
    assert type1_replicability_bound(0.05) == pytest.approx(0.905, rel=1e-14)
    assert type1_replicability_bound(0.01) == pytest.approx(0.99**2 + 0.01**2, rel=1e-14)
    # under the null with independent runs, two-valued r = (1−α)² + α²
    assert replicability_from_probabilities([0.95, 0.05]) == pytest.approx(
        type1_replicability_bound(0.05), rel=1e-14
    )


def test_r1_from_binomial_formula():
    # Lemma 3.1 via the binomial sum of the proof
    r, n = 0.7, 10
    h = n // 2
    var = sum(comb(h, i) * r**i * (1 - r) ** (h - i) * (i / h) ** 2 for i in range(h + 1)) - r**2
    assert r1_variance(r, n) == pytest.approx(var, rel=1e-12)


# ----------------------------------------------------------------- validation
def test_outcomes_values_rejected():
    with pytest.raises(ValueError, match="`outcomes`"):
        replicability_r2([0, 2, 1])


def test_outcomes_too_short_rejected():
    with pytest.raises(ValueError, match="`outcomes`"):
        replicability_r2([1])


def test_outcomes_not_numeric_rejected():
    with pytest.raises(TypeError, match="`outcomes`"):
        consistency(["a", "b"])


def test_r1_odd_n_rejected():
    with pytest.raises(ValueError, match="`outcomes`"):
        replicability_r1([1, 0, 1])


def test_counts_negative_rejected():
    with pytest.raises(ValueError, match="`counts`"):
        replicability_r2_from_counts([-1, 5])


def test_counts_total_too_small_rejected():
    with pytest.raises(ValueError, match="`counts`"):
        consistency_from_counts([1, 0])


def test_variance_n_rejected():
    with pytest.raises(ValueError, match="`n`"):
        r2_variance([0.5, 0.5], 1)
    with pytest.raises(ValueError, match="`n`"):
        r1_variance(0.5, 5)


def test_probabilities_rejected():
    with pytest.raises(ValueError, match="`p`"):
        r2_variance([0.5, 0.6], 4)
    with pytest.raises(ValueError, match="`p`"):
        replicability_from_probabilities([1.2, -0.2])


def test_r_rejected():
    with pytest.raises(ValueError, match="`r`"):
        r1_variance(1.5, 4)
    with pytest.raises(ValueError, match="`r`"):
        normalized_replicability(-0.1)


def test_alpha_rejected():
    with pytest.raises(ValueError, match="`alpha`"):
        type1_replicability_bound(1.5)
