"""Tests of replicability.learners.tan (tree-augmented naive Bayes)."""

import numpy as np
import pytest
from scipy.sparse.csgraph import minimum_spanning_tree
from sklearn.metrics import mutual_info_score
from sklearn.naive_bayes import CategoricalNB
from sklearn.utils.estimator_checks import parametrize_with_checks

from replicability.learners.tan import (
    TAN,
    _conditional_mutual_information,
    _maximum_spanning_tree,
)


@parametrize_with_checks([TAN()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_conditional_mutual_information_matches_sklearn():
    # I(A;B|C) = sum_c P(c) I(A;B | C=c), each term from sklearn's mutual_info_score.
    rng = np.random.default_rng(0)
    n = 500
    c = rng.integers(0, 3, size=n)
    a = (c + rng.integers(0, 2, size=n)) % 4
    b = (a + rng.integers(0, 3, size=n) * (rng.random(n) < 0.3)) % 3
    expected = sum(
        np.mean(c == k) * mutual_info_score(a[c == k], b[c == k]) for k in range(3)
    )
    got = _conditional_mutual_information(a, b, c, 4, 3, 3)
    assert got == pytest.approx(expected, rel=1e-10)


def test_maximum_spanning_tree_matches_scipy():
    rng = np.random.default_rng(1)
    d = 8
    w = rng.random((d, d))
    w = np.triu(w, 1) + np.triu(w, 1).T  # distinct weights: a unique tree
    parent = _maximum_spanning_tree(w, root=0)
    ours = {frozenset((j, int(parent[j]))) for j in range(1, d)}
    assert parent[0] == -1
    # scipy's minimum spanning tree of (max - w) is the maximum tree of w.
    mst = minimum_spanning_tree(np.triu(w.max() + 1.0 - w, 1)).tocoo()
    theirs = {frozenset((int(i), int(j))) for i, j in zip(mst.row, mst.col)}
    assert ours == theirs


def test_ties_hang_every_node_from_root():
    # All weights equal: Prim from attribute 0 attaches each node to the root.
    parent = _maximum_spanning_tree(np.ones((5, 5)), root=0)
    assert parent.tolist() == [-1, 0, 0, 0, 0]


def test_tree_recovers_dependency():
    rng = np.random.default_rng(2)
    n = 400
    y = rng.integers(0, 2, size=n)
    x0 = rng.integers(0, 2, size=n)
    x2 = x0 ^ (rng.random(n) < 0.05)  # x2 is a noisy copy of x0
    x1 = y ^ (rng.random(n) < 0.2)
    x3 = x1 ^ (rng.random(n) < 0.05)  # x3 is a noisy copy of x1
    X = np.column_stack([x0, x1, x2, x3])
    clf = TAN().fit(X, y)
    edges = {frozenset((j, int(clf.parent_[j]))) for j in range(1, 4)}
    assert clf.parent_[0] == -1
    # The strong class-conditional links 0-2 and 1-3 are in the tree; the third
    # edge joins the two pairs through a near-zero weight.
    assert {frozenset((0, 2)), frozenset((1, 3))} <= edges


def test_single_attribute_equals_categorical_nb():
    # With one attribute TAN is naive Bayes; CategoricalNB smooths the same way,
    # (N + alpha) / (N_c + alpha r); its class prior is unsmoothed, equal here
    # because the classes are balanced.
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, size=(120, 1))
    y = np.repeat([0, 1], 60)
    tan = TAN(alpha=0.5).fit(X, y)
    nb = CategoricalNB(alpha=0.5).fit(X, y)
    np.testing.assert_allclose(
        tan.feature_log_prob_[0][:3, 0, :].T, nb.feature_log_prob_[0], rtol=1e-12
    )
    np.testing.assert_allclose(tan.predict_proba(X), nb.predict_proba(X), rtol=1e-10)


def _loop_log_joint(clf, X):
    """Literal evaluation of log P(c) + sum_j log P(x_j | x_pa(j), c) from counts."""
    Xtr, ytr, alpha = clf._Xtr, clf._ytr, clf.alpha
    out = np.zeros((X.shape[0], len(clf.classes_)))
    for r, x in enumerate(X):
        for k, cls in enumerate(clf.classes_):
            in_c = ytr == cls
            val = np.log((in_c.sum() + alpha) / (len(ytr) + alpha * len(clf.classes_)))
            for j in range(X.shape[1]):
                p = clf.parent_[j]
                r_j = len(np.unique(Xtr[:, j]))
                ctx = in_c if p < 0 else in_c & (Xtr[:, p] == x[p])
                hits = (ctx & (Xtr[:, j] == x[j])).sum()
                val += np.log((hits + alpha) / (ctx.sum() + alpha * r_j))
            out[r, k] = val
    return out


def test_probabilities_match_loop_over_counts():
    rng = np.random.default_rng(4)
    Xtr = rng.integers(0, 3, size=(80, 4))
    ytr = (Xtr[:, 0] + Xtr[:, 1] + rng.integers(0, 2, size=80)) % 3
    clf = TAN(alpha=1.0).fit(Xtr, ytr)
    clf._Xtr, clf._ytr = Xtr, ytr
    X = rng.integers(0, 3, size=(15, 4))
    jll = _loop_log_joint(clf, X)
    expected = np.exp(jll - jll.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(clf.predict_proba(X), expected, rtol=1e-10)


def test_unseen_value_gets_smoothed_probability():
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
    y = np.array([0, 0, 1, 1])
    proba = TAN().fit(X, y).predict_proba([[5, 7]])
    np.testing.assert_allclose(proba.sum(), 1.0)
    assert np.all(np.isfinite(proba))


def test_alpha_validation():
    with pytest.raises(ValueError, match="`alpha`"):
        TAN(alpha=0).fit([[0], [1]], [0, 1])
