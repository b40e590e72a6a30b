"""Tests of replicability.learners.perceptron (Weka's VotedPerceptron)."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from replicability.learners.perceptron import VotedPerceptron, _binarize
from replicability.learners.tan import _encode, _fit_categories

_CONTINUOUS = (
    "a nominal learner: every distinct float becomes its own binary indicator, so a "
    "single perceptron pass cannot reach the accuracy asked of continuous blobs"
)


@parametrize_with_checks(
    [VotedPerceptron()],
    expected_failed_checks=lambda est: {"check_classifiers_train": _CONTINUOUS},
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _reference_weight_vectors(Z, s):
    """Freund & Schapire (1999), Figure 1, with explicit vectors in the space [x, 1]."""
    Za = np.hstack([Z, np.ones((Z.shape[0], 1))])  # kernel 1 + <a, b> = bias feature
    vs, cs = [np.zeros(Za.shape[1])], [0]
    for x, si in zip(Za, s):
        pred = 1.0 if vs[-1] @ x >= 0 else -1.0
        if pred == si:
            cs[-1] += 1
        else:
            vs.append(vs[-1] + si * x)
            cs.append(1)
    return np.array(vs), np.array(cs, dtype=float)


def _reference_output(vs, cs, Z):
    Za = np.hstack([Z, np.ones((Z.shape[0], 1))])
    if len(vs) == 1:
        return np.zeros(Z.shape[0])
    return np.array([sum(c * (1.0 if v @ x >= 0 else -1.0) for v, c in zip(vs, cs)) for x in Za])


def _data(seed, n=120, d=6):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, d))
    y = (X[:, 0] + X[:, 1] + X[:, 2] + (rng.random(n) < 0.2) >= 2).astype(int)
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_explicit_weight_vectors(seed):
    X, y = _data(seed)
    clf = VotedPerceptron(random_state=seed).fit(X, y)
    order = np.random.RandomState(seed).permutation(len(y))  # the documented shuffle
    vs, cs = _reference_weight_vectors(X[order].astype(float), np.where(y[order] == 1, 1.0, -1.0))
    np.testing.assert_array_equal(clf.votes_, cs)
    assert len(clf.signs_) == len(vs) - 1
    X_new, _ = _data(seed + 10, n=50)
    np.testing.assert_allclose(
        clf.decision_function(X_new), _reference_output(vs, cs, X_new), rtol=1e-12
    )


def _reference_kernel(Z, s, exponent):
    """Kernel form of the training loop, one dual coefficient per mistake."""
    mist, cs = [], [0]
    for i in range(len(s)):
        score = sum(s[m] * (1.0 + Z[m] @ Z[i]) ** exponent for m in mist)
        if (1.0 if score >= 0 else -1.0) == s[i]:
            cs[-1] += 1
        else:
            mist.append(i)
            cs.append(1)
    return mist, np.array(cs, dtype=float)


def test_polynomial_kernel_matches_loop():
    X, y = _data(5, n=80)
    clf = VotedPerceptron(exponent=2.0, random_state=3).fit(X, y)
    order = np.random.RandomState(3).permutation(len(y))
    Z, s = X[order].astype(float), np.where(y[order] == 1, 1.0, -1.0)
    mist, cs = _reference_kernel(Z, s, 2.0)
    np.testing.assert_array_equal(clf.votes_, cs)
    np.testing.assert_array_equal(clf.support_vectors_, Z[mist])


def test_max_k_stops_training():
    X, y = _data(0)
    clf = VotedPerceptron(max_k=3).fit(X, y)
    assert len(clf.signs_) == 3
    assert len(clf.votes_) == 4


def test_more_iterations_make_more_passes():
    X, y = _data(0)
    one = VotedPerceptron(n_iter=1).fit(X, y)
    three = VotedPerceptron(n_iter=3).fit(X, y)
    # Every instance visited adds one vote (to the current or to a new perceptron).
    assert three.votes_.sum() == 3 * len(y)
    assert one.votes_.sum() == len(y)
    np.testing.assert_array_equal(three.votes_[: len(one.votes_) - 1], one.votes_[:-1])


def test_same_random_state_same_model_different_differs():
    X, y = _data(4)
    a = VotedPerceptron(random_state=7).fit(X, y)
    b = VotedPerceptron(random_state=7).fit(X, y)
    c = VotedPerceptron(random_state=8).fit(X, y)
    np.testing.assert_array_equal(a.votes_, b.votes_)
    assert not (a.votes_.shape == c.votes_.shape and np.array_equal(a.votes_, c.votes_))


def test_separable_data_learned():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 10)
    y = X[:, 1]
    assert VotedPerceptron(n_iter=3).fit(X, y).score(X, y) == 1.0


def test_predict_proba_is_logistic_of_output():
    X, y = _data(2)
    clf = VotedPerceptron().fit(X, y)
    out = clf.decision_function(X[:10])
    np.testing.assert_allclose(clf.predict_proba(X[:10])[:, 1], 1 / (1 + np.exp(-out)), rtol=1e-12)


def test_nominal_to_binary():
    X = np.array([[0, 5, 2], [1, 7, 0], [1, 5, 1]])
    cats = _fit_categories(X)
    Z = _binarize(_encode(X, cats), cats)
    # two-valued columns -> one 0/1 column; the three-valued column -> indicators
    np.testing.assert_array_equal(Z, [[0, 0, 0, 0, 1], [1, 1, 1, 0, 0], [1, 0, 0, 1, 0]])
    unseen = _binarize(_encode(np.array([[3, 5, 9]]), cats), cats)
    np.testing.assert_array_equal(unseen, [[0, 0, 0, 0, 0]])


def test_rejects_more_than_two_classes():
    with pytest.raises(ValueError, match="`y`"):
        VotedPerceptron().fit([[0], [1], [0]], [0, 1, 2])


@pytest.mark.parametrize("name, value", [("n_iter", 0), ("max_k", 0), ("exponent", -1.0)])
def test_parameter_validation(name, value):
    with pytest.raises(ValueError, match=f"`{name}`"):
        VotedPerceptron(**{name: value}).fit([[0], [1]], [0, 1])


def test_java_random_reference_values():
    from replicability._weka_random import JavaRandom

    # java.util.Random(42): nextInt() gives -1170105035, 234785527 and nextInt(10)
    # gives 0, 3, 8, 4, 0 (Java SE; values widely quoted, and they follow from the
    # LCG documented in the Random javadoc: multiplier 0x5DEECE66D, addend 0xB).
    r = JavaRandom(42)
    assert [r.next_bits(32), r.next_bits(32)] == [-1170105035, 234785527]
    r = JavaRandom(42)
    assert [r.next_int(10) for _ in range(5)] == [0, 3, 8, 4, 0]


def test_weka_shuffle_is_a_seeded_permutation_used_in_fit():
    from replicability.learners.perceptron import _weka_shuffle_order

    order = _weka_shuffle_order(50, 1)
    np.testing.assert_array_equal(np.sort(order), np.arange(50))
    np.testing.assert_array_equal(order, _weka_shuffle_order(50, 1))
    assert not np.array_equal(order, _weka_shuffle_order(50, 2))
    X, y = _data(6, n=50)
    clf = VotedPerceptron(weka_shuffle=True).fit(X, y)
    vs, cs = _reference_weight_vectors(X[order].astype(float), np.where(y[order] == 1, 1.0, -1.0))
    np.testing.assert_array_equal(clf.votes_, cs)


def test_weka_shuffle_needs_int_seed():
    with pytest.raises(ValueError, match="`random_state`"):
        VotedPerceptron(weka_shuffle=True, random_state=None).fit([[0], [1]], [0, 1])
