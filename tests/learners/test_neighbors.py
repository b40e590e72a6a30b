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


# --- numeric attributes and missing values (attribute_types) -----------------------


def _weka_ib1_mixed_loop(X_train, y_train, X, numeric, update):
    """Transcription of Weka 3.6 IB1 (distance, norm, updateMinMax) with Python loops."""
    lo = [np.nan] * X.shape[1]
    hi = [np.nan] * X.shape[1]

    def update_range(row):
        for j, v in enumerate(row):
            if numeric[j] and not np.isnan(v):
                if np.isnan(lo[j]):
                    lo[j] = hi[j] = v
                elif v < lo[j]:
                    lo[j] = v
                elif v > hi[j]:
                    hi[j] = v

    def norm(v, j):
        return 0.0 if np.isnan(lo[j]) or abs(hi[j] - lo[j]) < 1e-6 else (v - lo[j]) / (hi[j] - lo[j])

    for row in X_train:
        update_range(row)
    out = []
    for q in X:
        if update:
            update_range(q)
        best, best_d = None, np.inf
        for i, t in enumerate(X_train):
            d = 0.0
            for j in range(X.shape[1]):
                a, b = q[j], t[j]
                if not numeric[j]:
                    d += 1.0 if (np.isnan(a) or np.isnan(b) or a != b) else 0.0
                    continue
                if np.isnan(a) and np.isnan(b):
                    diff = 1.0
                elif np.isnan(a) or np.isnan(b):
                    diff = norm(a if np.isnan(b) else b, j)
                    diff = 1.0 - diff if diff < 0.5 else diff
                else:
                    diff = norm(a, j) - norm(b, j)
                d += diff * diff
            if d < best_d:
                best, best_d = i, d
        out.append(y_train[best])
    return np.array(out)


def _mixed_sample(rng, n):
    X = np.column_stack([np.round(rng.normal(size=n), 1), rng.integers(0, 3, size=n), rng.uniform(size=n),
                         np.full(n, 2.0)])  # a constant numeric column: range 0, norm 0
    X[rng.random(X.shape) < 0.15] = np.nan
    return X


@pytest.mark.parametrize("update", [False, True])
def test_mixed_matches_weka_loop(update):
    rng = np.random.default_rng(7)
    X_train, X = _mixed_sample(rng, 50), _mixed_sample(rng, 30)
    X[3, 0] = 9.0  # outside the training range: widens it when `update`
    y_train = rng.integers(0, 3, size=50)
    numeric = [True, False, True, True]
    types = ["numeric" if t else "nominal" for t in numeric]
    got = IB1(attribute_types=types, weka_range_update=update).fit(X_train, y_train).predict(X)
    np.testing.assert_array_equal(got, _weka_ib1_mixed_loop(X_train, y_train, X, numeric, update))


def test_mixed_data_agrees_with_weka_ib1():
    # Weka 3.6.14 IB1 on tests/fixtures/weka_uci/mixed_train.arff / mixed_test.arff
    # (make_mixed.py): 150/150 predictions agree with the range update (147 without).
    from pathlib import Path

    import pandas as pd

    from replicability.sources.arff import load_arff

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "weka_uci"
    train, test = load_arff(folder / "mixed_train.arff"), load_arff(folder / "mixed_test.arff")
    weka = pd.read_csv(folder / "mixed_predictions.csv")["ib1"].to_numpy()
    clf = IB1(attribute_types=list(train.attribute_types), weka_range_update=True).fit(train.X, train.y)
    np.testing.assert_array_equal(clf.predict(test.X), weka)


def test_numeric_distance_is_range_scaled_euclidean():
    # No missing values, all numeric: squared Euclidean distance on min-max scaled data.
    rng = np.random.default_rng(8)
    X_train = rng.normal(size=(40, 3)) * [1, 10, 100]
    X = rng.normal(size=(25, 3)) * [1, 10, 100]
    y = rng.integers(0, 2, size=40)
    lo, hi = X_train.min(axis=0), X_train.max(axis=0)
    d = pairwise_distances((X - lo) / (hi - lo), (X_train - lo) / (hi - lo), metric="sqeuclidean")
    got = IB1(attribute_types=["numeric"] * 3).fit(X_train, y).predict(X)
    np.testing.assert_array_equal(got, y[np.argmin(d, axis=1)])


def test_missing_numeric_distance_rules():
    # One side missing: the other value's scaled distance to the far end of [0, 1];
    # both missing: 1. Training range of x is [0, 10].
    X_train = np.array([[0.0], [10.0], [np.nan]])
    clf = IB1(attribute_types=["numeric"]).fit(X_train, [0, 1, 2])
    lo, hi = clf._query_ranges(np.array([[np.nan], [2.0]]))
    d = clf._mixed_distances(np.array([[np.nan], [2.0]]), lo, hi)
    np.testing.assert_allclose(d, [[1.0, 1.0, 1.0], [0.04, 0.64, 0.64]], rtol=1e-14)


def test_nominal_attribute_types_match_the_default():
    rng = np.random.default_rng(9)
    X_train, X = rng.integers(0, 3, size=(60, 5)), rng.integers(0, 3, size=(30, 5))
    y = rng.integers(0, 2, size=60)
    a = IB1().fit(X_train, y).predict(X)
    b = IB1(attribute_types=["nominal"] * 5).fit(X_train.astype(float), y).predict(X.astype(float))
    np.testing.assert_array_equal(a, b)


def test_rejects_bad_attribute_types():
    with pytest.raises(ValueError, match="`attribute_types`"):
        IB1(attribute_types=["numeric", "text"]).fit(np.zeros((3, 2)), [0, 1, 0])


def test_rejects_bad_weka_range_update():
    with pytest.raises(ValueError, match="`weka_range_update`"):
        IB1(attribute_types=["numeric"], weka_range_update="yes").fit(np.zeros((3, 1)), [0, 1, 0])
