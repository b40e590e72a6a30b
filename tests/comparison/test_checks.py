"""Tests of replicability.comparison.checks: what a comparison refuses before any fit, and its stratification."""

import threading
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import StandardScaler

from replicability.comparison.checks import check_comparable, check_estimator, check_picklable, stratify
from replicability.engine.splits import RepeatedCV


class _Locked(ClassifierMixin, BaseEstimator):
    """A classifier that cannot be pickled (it holds a lock)."""

    def __init__(self, lock=None):
        self.lock = lock

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros(len(X))


@pytest.mark.parametrize(("estimator", "match"), [
    (GaussianNB, r"must be an estimator instance; got the class GaussianNB \(pass GaussianNB\(\)\)"),
    (threading.Thread(), "must be a scikit-learn estimator .* got Thread, without fit, get_params, set_params"),
    (StandardScaler(), "must predict .* StandardScaler has none of predict, predict_proba, decision_function"),
])
def test_check_estimator_refuses_what_is_not_a_predicting_estimator(estimator, match):
    with pytest.raises(TypeError, match=match):
        check_estimator(estimator, "estimator_a")


def test_learners_of_different_kinds_need_a_common_scoring():
    learners = {"estimator_a": GaussianNB(), "estimator_b": LinearRegression()}
    with pytest.raises(ValueError, match="`estimator_a` is a classifier and `estimator_b` is a regressor: each would "
                                         "be scored by its own `score`"):
        check_comparable(learners, None)
    check_comparable(learners, "neg_mean_squared_error")  # a scoring both compute: allowed
    check_comparable({"estimator_a": GaussianNB(), "estimator_b": GaussianNB()}, None)


class _Untyped:
    """Duck-typed: fits and predicts, but declares no estimator type (nor a score)."""

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros(len(X))

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self


def test_an_estimator_without_a_type_needs_a_scoring():
    with pytest.raises(ValueError, match=r"`estimator_b` \(_Untyped\) has no estimator type with a default score"):
        check_comparable({"estimator_a": GaussianNB(), "estimator_b": _Untyped()}, None)


def test_check_picklable_only_with_workers():
    locked = {"estimator_a": _Locked(threading.Lock())}
    check_picklable(locked, 1, "processes")
    with pytest.raises(ValueError, match=r"`estimator_a` \(_Locked\) cannot be sent to worker processes "
                                         r"\(n_jobs=2, backend 'processes'\): TypeError: .*; use n_jobs=1"):
        check_picklable(locked, 2, "processes")


def test_stratify_when_every_class_fills_every_fold_without_warning():
    y = np.repeat([0, 1], [10, 20])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert stratify(True, y, n_folds=10) is True
        assert stratify(False, y, n_folds=10) is False  # regressors' splits
        assert stratify(True, np.linspace(0, 1, 30), n_folds=5) is False  # a continuous target


def test_a_class_too_small_for_the_folds_is_stratified_as_stratified_kfold_with_one_warning():
    y = np.repeat([0, 1], [27, 3])
    with pytest.warns(UserWarning, match="class 1 has 3 members, fewer than the 5 folds: the folds are stratified as "
                                         "far as possible") as record:
        assert stratify(True, y, n_folds=5) is True
    assert len(record) == 1
    # the splits compare then uses are scikit-learn's StratifiedKFold's (reference)
    with pytest.warns(UserWarning, match="least populated class"):
        ours = [test for _, test in RepeatedCV(1, 5, stratified=True, random_state=4).split(np.zeros((30, 1)), y)]
    with pytest.warns(UserWarning, match="least populated class"):
        ref = [test for _, test in StratifiedKFold(5, shuffle=True, random_state=4).split(np.zeros((30, 1)), y)]
    for a, b in zip(ours, ref):
        np.testing.assert_array_equal(np.sort(a), np.sort(b))
    assert sum(np.any(y[test] == 1) for test in ours) == 3  # two test folds lack the small class


def test_no_class_fills_the_folds_or_random_subsampling_cannot_stratify():
    with pytest.warns(UserWarning, match="every class has fewer members than the 10 folds"):
        assert stratify(True, np.repeat([0, 1], 4), n_folds=10) is False
    with pytest.warns(UserWarning, match="class 1 has 1 members .* too few to stratify random subsampling"):
        assert stratify(True, np.repeat([0, 1], [19, 1]), test_size=0.2) is False
    assert stratify(True, np.repeat([0, 1], [18, 2]), test_size=0.2) is True
