"""Tests of replicability.learners.tan (tree-augmented naive Bayes as Weka 3.6 builds it)."""

import math

import numpy as np
import pytest
from scipy.special import gammaln
from sklearn.naive_bayes import CategoricalNB
from sklearn.utils.estimator_checks import parametrize_with_checks

from replicability.learners.tan import TAN, _bayes_score, _ln_gamma, _weka_tan_parents


@parametrize_with_checks([TAN()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_ln_gamma_reference_values():
    # Gamma(n) = (n - 1)!, Gamma(1/2) = sqrt(pi), Gamma(n + 1/2) = (2n)! sqrt(pi) / (4^n n!):
    # every argument of the BAYES score with pseudo-count 0.5 is of these two kinds.
    for n in (1, 2, 3, 7, 12, 13, 14, 60, 171):
        assert _ln_gamma(float(n)) == pytest.approx(math.log(math.factorial(n - 1)), rel=1e-14, abs=1e-15)
    for n in (0, 1, 5, 12, 13, 100, 999, 1000, 5000):
        exact = math.log(math.factorial(2 * n)) + 0.5 * math.log(math.pi) - n * math.log(4) - math.log(
            math.factorial(n))
        assert _ln_gamma(n + 0.5) == pytest.approx(exact, rel=1e-14, abs=1e-15)


def test_ln_gamma_equals_cephes_lgam_of_scipy():
    # Weka's Statistics.lnGamma is Cephes' lgam, as scipy.special.gammaln; both branches
    # (below and above 13) and the asymptotic series above 1000.
    x = np.concatenate([np.arange(300) + 0.5, np.arange(1, 300) + 1.0, [1234.5, 2e8]])
    np.testing.assert_allclose([_ln_gamma(v) for v in x], gammaln(x), rtol=1e-15, atol=0)


def test_bayes_score_equals_cooper_herskovits_formula():
    # sum_q [lG(r a) - lG(N_q + r a) + sum_v (lG(N_qv + a) - lG(a))], a = 0.5 (Weka's BAYES score).
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 40, size=(6, 3))
    a, r = 0.5, counts.shape[1]
    expected = sum(gammaln(r * a) - gammaln(row.sum() + r * a) + sum(gammaln(n + a) - gammaln(a) for n in row)
                   for row in counts)
    assert _bayes_score(counts) == pytest.approx(expected, rel=1e-13)


def test_equal_gains_link_every_attribute_to_the_first():
    # Ties keep the first pair (head, then tail ascending): links (0, 1), (0, 2), ...
    parent = _weka_tan_parents(np.zeros(5), np.ones((5, 5)))
    assert parent.tolist() == [-1, 0, 0, 0, 0]


def test_links_are_directed_in_the_order_found_and_the_root_moves():
    # Gains score[h, t] - base[h]: the strongest link is (h=1, t=0), so 1 becomes the
    # parent of 0; the next is (h=2, t=1): 1 has no parent yet, so 2 becomes its
    # parent and the root (Weka's TAN.buildStructure, step 3).
    gain = np.array([[0.0, 1.0, 1.0],
                     [5.0, 0.0, 1.0],
                     [1.0, 4.0, 0.0]])
    assert _weka_tan_parents(np.zeros(3), gain).tolist() == [1, 2, -1]
    # The next link, if the unlinked attribute is the tail, hangs it below the head.
    gain[2, 1], gain[0, 2] = 1.0, 4.0
    assert _weka_tan_parents(np.zeros(3), gain).tolist() == [1, -1, 0]


def test_gain_is_taken_in_the_direction_weka_scores_it():
    # base[h] is subtracted from score[h, t]: the first link is (h=2, t=1) of gain 3, not
    # (1, 2) of the largest score 11 (gain 1); then (h=0, t=1) of gain 2, and 1 has a
    # parent already, so 0 hangs below 1.
    base = np.array([0.0, 10.0, 0.0])
    score = np.array([[0.0, 2.0, 1.0],
                      [10.5, 0.0, 11.0],
                      [1.0, 3.0, 0.0]])
    assert _weka_tan_parents(base, score).tolist() == [1, 2, -1]


def test_random_gains_give_a_tree():
    rng = np.random.default_rng(1)
    for d in range(1, 9):
        parent = _weka_tan_parents(rng.normal(size=d), rng.normal(size=(d, d)))
        assert (parent < 0).sum() == 1
        for j in range(d):  # every attribute reaches the root without a cycle
            node, steps = j, 0
            while parent[node] >= 0 and steps <= d:
                node, steps = parent[node], steps + 1
            assert steps < d


def test_tree_and_probabilities_equal_weka():
    # Reference: Weka 3.6.14, BayesNet -D -Q ...search.local.TAN -- -S BAYES -E ...SimpleEstimator
    # -- -A 0.5, trained and tested on these data (tests/weka/WekaBatch.java -s -p; class = last
    # attribute, so "node:8,6" reads "parents: the class, attribute 6"): the parents of every
    # attribute and P(class 1) of the first three instances.
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(200, 3))
    clf = TAN().fit(X, X[:, 1] ^ X[:, 2])  # Weka: 0:3,1 1:3 2:3,1
    assert clf.parent_.tolist() == [1, -1, 1]
    np.testing.assert_array_equal(clf.predict_proba(X[:3])[:, 1],
                                  [0.007668734353520862, 0.008295202019274785, 0.008295202019274785])
    # Duplicated and complementary columns: exactly tied gains.
    rng = np.random.default_rng(5)
    base = rng.integers(0, 2, size=(60, 3))
    X = np.column_stack([base, base[:, ::-1], 1 - base[:, :2]])
    y = np.where(rng.random(60) < 0.3, rng.integers(0, 2, 60), base[:, 0] ^ base[:, 1])
    clf = TAN().fit(X, y)  # Weka: 0:8,6 1:8 2:8,0 3:8,2 4:8,1 5:8,0 6:8,1 7:8,1
    assert clf.parent_.tolist() == [6, -1, 0, 2, 1, 0, 1, 1]
    np.testing.assert_array_equal(clf.predict_proba(X[:3])[:, 1],
                                  [0.10601585706713502, 0.7928664871606592, 0.7928664871606592])
    assert int((clf.predict(X) == y).sum()) == 52  # Weka: 52 of 60


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
    edges = {frozenset((j, int(clf.parent_[j]))) for j in range(4) if clf.parent_[j] >= 0}
    assert (clf.parent_ < 0).sum() == 1
    # The strong class-conditional links 0-2 and 1-3 are in the tree; the third
    # edge joins the two pairs through a near-zero gain.
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
    np.testing.assert_allclose(clf.predict_log_proba(X), np.log(expected), rtol=1e-10)


def test_unseen_value_gets_smoothed_probability():
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
    y = np.array([0, 0, 1, 1])
    proba = TAN().fit(X, y).predict_proba([[5, 7]])
    np.testing.assert_allclose(proba.sum(), 1.0)
    assert np.all(np.isfinite(proba))


def test_alpha_validation():
    with pytest.raises(ValueError, match="`alpha`"):
        TAN(alpha=0).fit([[0], [1]], [0, 1])
