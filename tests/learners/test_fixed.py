"""Tests of replicability.learners.fixed (Task I of Bouckaert 2005)."""

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from replicability.learners.fixed import AlwaysPredict, CopyAttribute

_IGNORES_DATA = "a fixed predictor ignores the training data by design (Task I)"
_COPIES_X = (
    "predicts an attribute's value, which is continuous in the generic checks; "
    "by design it is neither a label of y nor learned"
)


def _expected_failures(est):
    if isinstance(est, AlwaysPredict):
        return {"check_classifiers_train": _IGNORES_DATA}
    return {
        "check_classifiers_train": _COPIES_X,
        "check_fit_score_takes_y": _COPIES_X,
        "check_pipeline_consistency": _COPIES_X,
        "check_classifiers_one_label": _COPIES_X,
    }


@parametrize_with_checks(
    [AlwaysPredict(), CopyAttribute()], expected_failed_checks=_expected_failures
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _task_one(n, q, seed):
    """Task I (Bouckaert 2005, Section 3): P(x=y=0) = P(x=y=1) = q, P(y=1) = 1/2."""
    rng = np.random.default_rng(seed)
    cell = rng.choice(4, size=n, p=[q, 0.5 - q, 0.5 - q, q])  # (x, y) = 00, 01, 10, 11
    x, y = cell // 2, cell % 2
    return x[:, None], y


def test_task_one_accuracies():
    X, y = _task_one(20000, 0.3, seed=0)
    acc_a = AlwaysPredict(value=1).fit(X, y).score(X, y)
    acc_b = CopyAttribute(attribute=0).fit(X, y).score(X, y)
    assert acc_a == np.mean(y == 1)
    assert acc_b == np.mean(y == X[:, 0])
    # Expected accuracies 1/2 and 2q = 0.6 (Section 3); 5 standard errors.
    assert abs(acc_a - 0.5) < 5 * np.sqrt(0.25 / 20000)
    assert abs(acc_b - 0.6) < 5 * np.sqrt(0.24 / 20000)


def test_always_predict_equals_dummy_constant():
    X, y = _task_one(50, 0.25, seed=1)
    dummy = DummyClassifier(strategy="constant", constant=1).fit(X, y)
    np.testing.assert_array_equal(AlwaysPredict(value=1).fit(X, y).predict(X), dummy.predict(X))


def test_always_predict_value_absent_from_training():
    pred = AlwaysPredict(value=1).fit([[0], [1]], [0, 0]).predict([[0], [1], [1]])
    assert pred.tolist() == [1, 1, 1]


def test_copy_attribute_ignores_training_labels():
    X = np.array([[0, 1], [1, 1], [1, 0]])
    a = CopyAttribute(attribute=1).fit(X, [0, 0, 0]).predict(X)
    b = CopyAttribute(attribute=1).fit(X, [1, 0, 1]).predict(X)
    np.testing.assert_array_equal(a, X[:, 1])
    np.testing.assert_array_equal(b, X[:, 1])


@pytest.mark.parametrize("attribute", [-1, 2, 1.0, True])
def test_copy_attribute_validation(attribute):
    with pytest.raises(ValueError, match="`attribute`"):
        CopyAttribute(attribute=attribute).fit([[0, 1]], [0])
