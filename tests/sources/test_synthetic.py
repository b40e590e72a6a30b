"""Tests of the synthetic data sources (Task I; independent binary attributes)."""

import numpy as np
import pytest

from replicability.sources.synthetic import (
    TASK1_CELLS,
    sample_independent_binary,
    sample_task1,
    task1_probabilities,
)


def _within(observed, expected, se, k=4.0):
    """True where ``observed`` is within ``k`` standard errors of ``expected``."""
    return np.all(np.abs(np.asarray(observed) - np.asarray(expected)) <= k * np.asarray(se))


# ---------------------------------------------------------------- Task I probabilities


def test_task1_probabilities_values():
    # Bouckaert (2005), Section 4: P(0,0) = P(1,1) = q, P(0,1) = P(1,0) = 1/2 - q.
    np.testing.assert_allclose(task1_probabilities(0.3), [0.3, 0.2, 0.2, 0.3], rtol=0, atol=1e-15)
    np.testing.assert_allclose(task1_probabilities(0.25), [0.25] * 4, rtol=0, atol=1e-15)
    np.testing.assert_allclose(task1_probabilities(0.5), [0.5, 0, 0, 0.5], rtol=0, atol=1e-15)


def test_task1_probabilities_accuracy_gap():
    # Section 4: accuracy of A is P(y=1) = 1/2, of B is 2q, gap 2q - 1/2.
    q = np.linspace(0.25, 0.5, 101)
    p = task1_probabilities(q)
    assert p.shape == (101, 4)
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, rtol=1e-15)
    cells = np.array(TASK1_CELLS)
    acc_a = p[:, cells[:, 1] == 1].sum(axis=-1)
    acc_b = p[:, cells[:, 0] == cells[:, 1]].sum(axis=-1)
    np.testing.assert_allclose(acc_a, 0.5, rtol=1e-15)
    np.testing.assert_allclose(acc_b - acc_a, 2 * q - 0.5, rtol=0, atol=1e-15)


def test_task1_probabilities_batch_shape():
    q = np.full((3, 2), 0.4)
    assert task1_probabilities(q).shape == (3, 2, 4)


# ---------------------------------------------------------------- sample_task1


def test_sample_task1_shapes_and_values():
    X, y = sample_task1(500, 0.3, rng=0)
    assert X.shape == (500, 1) and y.shape == (500,)
    assert X.dtype.kind == "i" and y.dtype.kind == "i"
    assert set(np.unique(X)) <= {0, 1} and set(np.unique(y)) <= {0, 1}


def test_sample_task1_cell_frequencies():
    n, q = 200_000, 0.35
    X, y = sample_task1(n, q, rng=np.random.default_rng(1))
    freq = np.bincount(2 * X[:, 0] + y, minlength=4) / n
    p = task1_probabilities(q)
    assert _within(freq, p, np.sqrt(p * (1 - p) / n))


def test_sample_task1_q_half_means_x_equals_y():
    X, y = sample_task1(1000, 0.5, rng=2)
    assert np.array_equal(X[:, 0], y)


def test_sample_task1_reproducible():
    a = sample_task1(100, 0.3, rng=7)
    b = sample_task1(100, 0.3, rng=np.random.default_rng(7))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    c = sample_task1(100, 0.3, rng=8)
    assert not np.array_equal(a[1], c[1])


# ---------------------------------------------------------------- independent binary


def test_independent_binary_shapes():
    X, y = sample_independent_binary(300, rng=0)
    assert X.shape == (300, 10) and y.shape == (300,)
    assert set(np.unique(X)) <= {0, 1} and set(np.unique(y)) <= {0, 1}
    X, y = sample_independent_binary(50, n_attributes=3, n_classes=4, rng=0)
    assert X.shape == (50, 3) and set(np.unique(y)) <= {0, 1, 2, 3}


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({}, [0.5, 0.5]),
        ({"class_probability": 0.2}, [0.8, 0.2]),
        ({"class_probability": 0.05}, [0.95, 0.05]),
        ({"n_classes": 3}, [1 / 3] * 3),
        ({"n_classes": 4}, [0.25] * 4),
        ({"n_classes": 3, "class_probability": 0.5}, [0.25, 0.5, 0.25]),
        ({"n_classes": 3, "class_probability": [0.2, 0.3, 0.5]}, [0.2, 0.3, 0.5]),
    ],
)
def test_independent_binary_class_distribution(kwargs, expected):
    n = 100_000
    _, y = sample_independent_binary(n, n_attributes=1, rng=3, **kwargs)
    expected = np.array(expected)
    freq = np.bincount(y, minlength=len(expected)) / n
    assert len(freq) == len(expected)
    assert _within(freq, expected, np.sqrt(expected * (1 - expected) / n))


def test_independent_binary_attribute_probability():
    n = 100_000
    p = np.array([0.1, 0.5, 0.9])
    X, _ = sample_independent_binary(n, n_attributes=3, attribute_probability=p, rng=4)
    assert _within(X.mean(axis=0), p, np.sqrt(p * (1 - p) / n))
    X, _ = sample_independent_binary(n, n_attributes=2, attribute_probability=0.3, rng=4)
    assert _within(X.mean(axis=0), 0.3, np.sqrt(0.21 / n))


def test_independent_binary_attributes_independent_of_class():
    # Under independence the sample correlation has standard error ~ 1/sqrt(n).
    n = 50_000
    X, y = sample_independent_binary(n, n_attributes=5, class_probability=0.3, rng=5)
    r = np.array([np.corrcoef(X[:, j], y)[0, 1] for j in range(5)])
    assert _within(r, 0.0, 1 / np.sqrt(n))
    r_attr = np.corrcoef(X.T)[np.triu_indices(5, 1)]
    assert _within(r_attr, 0.0, 1 / np.sqrt(n))


def test_independent_binary_reproducible():
    a = sample_independent_binary(20, rng=9)
    b = sample_independent_binary(20, rng=np.random.default_rng(9))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize("q", [0.2, 0.51, np.nan, [0.3, 0.6]])
def test_task1_probabilities_rejects_bad_q(q):
    with pytest.raises(ValueError, match="`q`"):
        task1_probabilities(q)


def test_task1_probabilities_rejects_non_numeric_q():
    with pytest.raises(TypeError, match="`q`"):
        task1_probabilities("abc")


@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_sample_task1_rejects_bad_n(n):
    with pytest.raises(ValueError, match="`n`"):
        sample_task1(n, 0.3, rng=0)


def test_sample_task1_rejects_bad_q():
    with pytest.raises(ValueError, match="`q`"):
        sample_task1(10, 0.7, rng=0)


def test_sample_task1_rejects_array_q():
    with pytest.raises(ValueError, match="`q`"):
        sample_task1(10, [0.3, 0.4], rng=0)


@pytest.mark.parametrize("rng", [-1, "seed", 1.5, True])
def test_rejects_bad_rng(rng):
    with pytest.raises(ValueError, match="`rng`"):
        sample_task1(10, 0.3, rng=rng)


@pytest.mark.parametrize("n", [0, 1.0])
def test_independent_binary_rejects_bad_n(n):
    with pytest.raises(ValueError, match="`n`"):
        sample_independent_binary(n, rng=0)


def test_independent_binary_rejects_bad_n_attributes():
    with pytest.raises(ValueError, match="`n_attributes`"):
        sample_independent_binary(10, n_attributes=0, rng=0)


@pytest.mark.parametrize("n_classes", [1, 2.0])
def test_independent_binary_rejects_bad_n_classes(n_classes):
    with pytest.raises(ValueError, match="`n_classes`"):
        sample_independent_binary(10, n_classes=n_classes, rng=0)


@pytest.mark.parametrize("p", [-0.1, 1.5, np.nan, [0.5, 0.5, 0.0], [0.6, 0.6]])
def test_independent_binary_rejects_bad_class_probability(p):
    with pytest.raises(ValueError, match="`class_probability`"):
        sample_independent_binary(10, class_probability=p, rng=0)


@pytest.mark.parametrize("p", [1.2, [0.5, 0.5]])
def test_independent_binary_rejects_bad_attribute_probability(p):
    with pytest.raises(ValueError, match="`attribute_probability`"):
        sample_independent_binary(10, n_attributes=3, attribute_probability=p, rng=0)
