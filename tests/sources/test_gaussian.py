"""Tests of replicability.sources.gaussian: two Gaussian classes and their Bayes accuracy."""

import numpy as np
import pytest

from replicability.sources.gaussian import bayes_accuracy, sample_gaussian_classes


def test_sample_shapes_and_reproducible():
    X, y = sample_gaussian_classes(50, n_features=4, n_informative=2, rng=3)
    X2, y2 = sample_gaussian_classes(50, n_features=4, n_informative=2, rng=3)
    assert X.shape == (50, 4) and y.shape == (50,)
    assert set(np.unique(y)) <= {0, 1}
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


def test_sample_class_means_are_delta_apart():
    # Means (2y - 1) delta / (2 sqrt(n_informative)) on informative features.
    X, y = sample_gaussian_classes(200_000, n_features=3, n_informative=2, delta=2.0, rng=0)
    gap = X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)
    np.testing.assert_allclose(gap, [np.sqrt(2), np.sqrt(2), 0.0], atol=0.02)
    np.testing.assert_allclose(X[y == 1].std(axis=0), 1.0, atol=0.01)


def test_bayes_rule_attains_bayes_accuracy():
    # The Bayes rule predicts 1 when the sum of informative features is > 0;
    # its accuracy is Phi(delta / 2) (0.8413 for delta = 2, normal tables).
    n = 100_000
    X, y = sample_gaussian_classes(n, n_features=3, n_informative=3, delta=2.0, rng=1)
    acc = np.mean((X.sum(axis=1) > 0) == y)
    assert bayes_accuracy(2.0) == pytest.approx(0.841344746, rel=1e-8)
    se = np.sqrt(0.8413 * 0.1587 / n)
    assert abs(acc - bayes_accuracy(2.0)) < 4 * se


def test_bayes_accuracy_null():
    assert bayes_accuracy(0.0) == 0.5


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"n": 0}, "`n`"), ({"n": 5, "n_features": 0}, "`n_features`"),
     ({"n": 5, "n_features": 2, "n_informative": 3}, "`n_informative`"),
     ({"n": 5, "delta": -1.0}, "`delta`")],
)
def test_sample_validation(kwargs, name):
    with pytest.raises(ValueError, match=name):
        sample_gaussian_classes(**kwargs)


def test_bayes_accuracy_validation():
    with pytest.raises(ValueError, match="`delta`"):
        bayes_accuracy(-0.5)
