"""Tests for replicability.learners.fastpath (batched NB and C4.5 on pattern counts)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replicability.learners.c45 import C45
from replicability.learners.fastpath import (
    c45_patterns,
    naive_bayes_patterns,
    pattern_counts,
    pattern_index,
    pattern_matrix,
)
from replicability.learners.naive_bayes import NaiveBayes


def _random_folds(seed, n_sets, n_samples, n_attributes, n_classes, n_folds=10):
    """Data sets with structure or none, and a 0/1 training mask per fold."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n_sets, n_samples, n_attributes)) < rng.uniform(0.2, 0.8, (n_sets, 1, n_attributes))).astype(int)
    signal = (X[..., 0] + X[..., 1 % n_attributes]) % n_classes
    y = np.where(rng.random((n_sets, n_samples)) < 0.4, rng.integers(0, n_classes, (n_sets, n_samples)), signal)
    fold = rng.permuted(np.broadcast_to(np.arange(n_samples) % n_folds, (n_sets, n_samples)), axis=1)
    train = (fold[:, None, :] != np.arange(n_folds)[None, :, None]).astype(float)  # (sets, folds, samples)
    return X, y, train


def test_pattern_index_inverts_pattern_matrix():
    B = pattern_matrix(5)
    assert B.shape == (32, 5)
    np.testing.assert_array_equal(pattern_index(B), np.arange(32))


def test_pattern_counts_with_fold_masks_equals_per_fold_counts():
    X, y, train = _random_folds(0, 2, 40, 4, 3, n_folds=5)
    counts = pattern_counts(X[:, None], y[:, None], n_classes=3, weights=train)
    assert counts.shape == (2, 5, 16, 3)
    for s in range(2):
        for k in range(5):
            m = train[s, k] == 1
            ref = np.zeros((16, 3))
            np.add.at(ref, (pattern_index(X[s][m]), y[s][m]), 1)
            np.testing.assert_array_equal(counts[s, k], ref)


@pytest.mark.parametrize("n_attributes, n_classes", [(10, 2), (6, 3), (4, 4)])
def test_naive_bayes_patterns_equal_estimator(n_attributes, n_classes):
    # Exact equality with NaiveBayes fitted on the instances, 100 random folds.
    X, y, train = _random_folds(1, 10, 300, n_attributes, n_classes)
    counts = pattern_counts(X[:, None], y[:, None], n_classes=n_classes, weights=train)
    fast = naive_bayes_patterns(counts)
    assert fast.shape == (10, 10, 2**n_attributes)
    B = pattern_matrix(n_attributes)
    for s in range(10):
        for k in range(10):
            m = train[s, k] == 1
            clf = NaiveBayes(n_values=2, n_classes=n_classes).fit(X[s][m], y[s][m])
            np.testing.assert_array_equal(fast[s, k], clf.predict(B))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(2, 3), st.integers(0, 30))
def test_naive_bayes_patterns_equal_estimator_property(seed, n_attributes, n_classes, n_samples):
    # Any counts, including empty training sets and constant attributes.
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n_samples, n_attributes))
    y = rng.integers(0, n_classes, size=n_samples)
    fast = naive_bayes_patterns(pattern_counts(X, y, n_classes=n_classes))
    clf = NaiveBayes(n_values=2, n_classes=n_classes).fit(X, y) if n_samples else None
    if clf is not None:
        np.testing.assert_array_equal(fast, clf.predict(pattern_matrix(n_attributes)))
    else:
        np.testing.assert_array_equal(fast, 0)  # uniform posterior: first class


@pytest.mark.parametrize("n_attributes, n_classes", [(10, 2), (5, 3)])
def test_c45_patterns_equal_estimator(n_attributes, n_classes):
    # Exact equality with C45 fitted on the instances, 20 random folds.
    X, y, train = _random_folds(2, 2, 300, n_attributes, n_classes)
    counts = pattern_counts(X[:, None], y[:, None], n_classes=n_classes, weights=train)
    fast = c45_patterns(counts)
    assert fast.shape == (2, 10, 2**n_attributes)
    B = pattern_matrix(n_attributes)
    for s in range(2):
        for k in range(10):
            m = train[s, k] == 1
            clf = C45(n_values=2, n_classes=n_classes).fit(X[s][m], y[s][m])
            np.testing.assert_array_equal(fast[s, k], clf.predict(B))


def _independent_folds(seed, n_sets, n_samples=300, n_attributes=10, n_folds=10):
    """The null-hypothesis data of Bouckaert (2003): no attribute is related to the class."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n_sets, n_samples, n_attributes))
    y = (rng.random((n_sets, n_samples)) < 0.5).astype(int)
    fold = rng.permuted(np.broadcast_to(np.arange(n_samples) % n_folds, (n_sets, n_samples)), axis=1)
    train = (fold[:, None, :] != np.arange(n_folds)[None, :, None]).astype(float)
    return X, y, train


def test_c45_patterns_equal_estimator_on_null_data():
    # The experiments' workload: 300 instances, 10 independent binary attributes.
    # Trees are large before pruning here, and subtree raising changes some of
    # them (checked below), so growing, collapsing, pruning and raising are all
    # compared with C45 fitted on the instances, 20 folds.
    X, y, train = _independent_folds(4, 2)
    counts = pattern_counts(X[:, None], y[:, None], n_classes=2, weights=train)
    fast = c45_patterns(counts)
    B = pattern_matrix(10)
    for s in range(2):
        for k in range(10):
            m = train[s, k] == 1
            np.testing.assert_array_equal(fast[s, k], C45(n_values=2, n_classes=2).fit(X[s][m], y[s][m]).predict(B))
    no_raising = c45_patterns(counts, subtree_raising=False)
    assert np.any(no_raising != fast)


def test_c45_patterns_leading_axes_do_not_change_results():
    X, y, train = _random_folds(5, 3, 120, 6, 2, n_folds=4)
    counts = pattern_counts(X[:, None], y[:, None], n_classes=2, weights=train)  # (3, 4, 64, 2)
    whole = c45_patterns(counts)
    for s in range(3):
        np.testing.assert_array_equal(c45_patterns(counts[s]), whole[s])
        np.testing.assert_array_equal(c45_patterns(counts[s, 1]), whole[s, 1])


def test_c45_patterns_empty_training_set_predicts_first_class():
    np.testing.assert_array_equal(c45_patterns(np.zeros((2, 8, 3))), np.zeros((2, 8), dtype=int))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(2, 3), st.integers(1, 60),
       st.sampled_from([0.25, 0.1, 0.5, 0.01]), st.integers(1, 3), st.booleans())
def test_c45_patterns_equal_estimator_property(seed, n_attributes, n_classes, n_samples, confidence_factor,
                                                min_num_obj, subtree_raising):
    # Any small data set, with or without structure, and any options.
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n_samples, n_attributes))
    noise = rng.random()
    y = np.where(rng.random(n_samples) < noise, rng.integers(0, n_classes, n_samples), X[:, 0] % n_classes)
    opts = {"confidence_factor": confidence_factor, "min_num_obj": min_num_obj, "subtree_raising": subtree_raising}
    fast = c45_patterns(pattern_counts(X, y, n_classes=n_classes), **opts)
    clf = C45(n_values=2, n_classes=n_classes, **opts).fit(X, y)
    np.testing.assert_array_equal(fast, clf.predict(pattern_matrix(n_attributes)))


def test_c45_patterns_collapse_shortcut_keeps_a_subtree_that_collapse_keeps():
    # Class 1 is 2 of 9 instances. With min_num_obj=3 the split on x0 makes a leaf
    # of 3 instances with class 1 the majority (2 of 3), so collapse keeps it:
    # 2 * 2 - 1 is not below min_num_obj, and the kernel must grow the root.
    X = np.array([[1, 1], [0, 1], [0, 1], [0, 0], [1, 1], [0, 0], [0, 1], [1, 0], [0, 0]])
    y = np.array([1, 0, 0, 0, 1, 0, 0, 0, 0])
    fast = c45_patterns(pattern_counts(X, y, n_classes=2), min_num_obj=3)
    assert C45(min_num_obj=3, n_values=2, prune=False).fit(X, y).n_leaves_ == 2
    clf = C45(min_num_obj=3, n_values=2).fit(X, y)
    np.testing.assert_array_equal(fast, [0, 0, 1, 1])
    np.testing.assert_array_equal(clf.predict(pattern_matrix(2)), fast)


def test_c45_patterns_collapse_shortcut_drops_a_subtree_that_collapse_drops():
    # One instance of class 1 among 9: Weka splits it off with one instance of
    # class 0 (gain > 0) and collapses the split again; the kernel grows a leaf.
    X = np.array([[1, 0], [1, 1], [0, 1], [0, 0], [0, 1], [0, 0], [0, 1], [0, 0], [0, 1]])
    y = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0])
    assert C45(n_values=2, collapse=False, prune=False).fit(X, y).n_leaves_ == 2
    assert C45(n_values=2, prune=False).fit(X, y).n_leaves_ == 1
    fast = c45_patterns(pattern_counts(X, y, n_classes=2))
    np.testing.assert_array_equal(fast, [0, 0, 0, 0])
    np.testing.assert_array_equal(C45(n_values=2).fit(X, y).predict(pattern_matrix(2)), fast)


def test_c45_patterns_options_are_passed_on():
    X, y, train = _random_folds(3, 1, 200, 6, 2, n_folds=3)
    counts = pattern_counts(X[:, None], y[:, None], n_classes=2, weights=train)[0]
    B = pattern_matrix(6)
    fast = c45_patterns(counts, confidence_factor=0.1, min_num_obj=5, subtree_raising=False)
    for k in range(3):
        m = train[0, k] == 1
        clf = C45(confidence_factor=0.1, min_num_obj=5, subtree_raising=False, n_values=2).fit(X[0][m], y[0][m])
        np.testing.assert_array_equal(fast[k], clf.predict(B))


def test_rejects_non_binary_x():
    with pytest.raises(ValueError, match="`X`"):
        pattern_index([[0, 2]])


def test_rejects_bad_n_attributes():
    with pytest.raises(ValueError, match="`n_attributes`"):
        pattern_matrix(0)


def test_rejects_bad_y():
    with pytest.raises(ValueError, match="`y`"):
        pattern_counts([[0], [1]], [0, 2], n_classes=2)
    with pytest.raises(ValueError, match="`y`"):
        pattern_counts([[0], [1]], [0, 1, 1], n_classes=2)


def test_rejects_bad_n_classes():
    with pytest.raises(ValueError, match="`n_classes`"):
        pattern_counts([[0], [1]], [0, 1], n_classes=0)


def test_rejects_negative_weights():
    with pytest.raises(ValueError, match="`weights`"):
        pattern_counts([[0], [1]], [0, 1], n_classes=2, weights=[1, -1])


def test_rejects_bad_counts():
    with pytest.raises(ValueError, match="`counts`"):
        naive_bayes_patterns(np.ones((3, 2)))
    with pytest.raises(ValueError, match="`counts`"):
        naive_bayes_patterns(-np.ones((4, 2)))


def test_rejects_bad_confidence():
    with pytest.raises(ValueError, match="`confidence_factor`"):
        c45_patterns(np.ones((4, 2)), confidence_factor=0.9)


def test_rejects_bad_min_num_obj():
    with pytest.raises(ValueError, match="`min_num_obj`"):
        c45_patterns(np.ones((4, 2)), min_num_obj=0)


def test_rejects_fractional_counts_for_c45():
    with pytest.raises(ValueError, match="`counts`"):
        c45_patterns(np.full((4, 2), 1.5))
