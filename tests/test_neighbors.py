"""Tests of replicability.learners.neighbors (Weka's IB1)."""

import numpy as np
import pytest
from sklearn.metrics import pairwise_distances
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from replicability.learners import neighbors
from replicability.learners.neighbors import IB1


@parametrize_with_checks([IB1()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _weka_ib1_loop(X_train, y_train, X):
    """Literal transcription of Weka's IB1.classifyInstance (strict < keeps the first)."""
    out = []
    for q in X:
        best, best_d = None, np.inf
        for i, t in enumerate(X_train):
            d = int(np.sum(q != t))
            if d < best_d:
                best, best_d = i, d
        out.append(y_train[best])
    return np.array(out)


def test_matches_weka_loop_with_many_ties():
    rng = np.random.default_rng(0)
    X_train = rng.integers(0, 2, size=(60, 4))  # 16 patterns: many exact ties
    y_train = rng.integers(0, 3, size=60)
    X = rng.integers(0, 2, size=(40, 4))
    got = IB1().fit(X_train, y_train).predict(X)
    np.testing.assert_array_equal(got, _weka_ib1_loop(X_train, y_train, X))


def test_ties_go_to_first_training_instance():
    X_train = np.array([[0, 1], [1, 0], [0, 1]])
    y_train = np.array(["b", "a", "c"])
    # [0, 0] is at distance 1 from all three: the first one wins.
    assert IB1().fit(X_train, y_train).predict([[0, 0]]).tolist() == ["b"]
    # An exact duplicate: the first copy (label "b", not "c") wins.
    assert IB1().fit(X_train, y_train).predict([[0, 1]]).tolist() == ["b"]


def test_overlap_distance_equals_scaled_hamming():
    # sklearn's Hamming distance is the fraction of differing attributes.
    rng = np.random.default_rng(1)
    X_train = rng.integers(0, 3, size=(30, 5))
    X = rng.integers(0, 3, size=(10, 5))
    clf = IB1().fit(X_train, rng.integers(0, 2, size=30))
    overlap = clf._attribute_distances(X).sum(axis=2)
    ham = pairwise_distances(X, X_train, metric="hamming") * X.shape[1]
    np.testing.assert_allclose(overlap, ham, rtol=1e-12, atol=1e-12)


def test_agrees_with_sklearn_when_nearest_is_unique():
    rng = np.random.default_rng(2)
    X_train = rng.integers(0, 5, size=(25, 12))
    y_train = rng.integers(0, 2, size=25)
    X = rng.integers(0, 5, size=(200, 12))
    dist = pairwise_distances(X, X_train, metric="hamming")
    srt = np.sort(dist, axis=1)
    unique = srt[:, 0] < srt[:, 1]
    assert unique.sum() > 50
    knn = KNeighborsClassifier(n_neighbors=1, metric="hamming", algorithm="brute")
    expected = knn.fit(X_train, y_train).predict(X[unique])
    np.testing.assert_array_equal(IB1().fit(X_train, y_train).predict(X[unique]), expected)


def test_chunking_gives_same_result(monkeypatch):
    rng = np.random.default_rng(3)
    X_train = rng.integers(0, 2, size=(50, 3))
    y_train = rng.integers(0, 2, size=50)
    X = rng.integers(0, 2, size=(37, 3))
    full = IB1().fit(X_train, y_train).predict(X)
    monkeypatch.setattr(neighbors, "_CHUNK_ELEMENTS", 7)  # one row per chunk
    np.testing.assert_array_equal(IB1().fit(X_train, y_train).predict(X), full)


def test_training_accuracy_one_without_conflicting_duplicates():
    X = np.array([[0, 0, 1], [1, 0, 0], [1, 1, 1], [0, 1, 0]])
    y = np.array([0, 1, 1, 0])
    assert IB1().fit(X, y).score(X, y) == 1.0


def test_rejects_wrong_number_of_features():
    clf = IB1().fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="features"):
        clf.predict([[0, 1, 1]])
