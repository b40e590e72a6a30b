"""Tests of replicability.comparison.folds: one split fitted and scored, failures and undefined scores named."""

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import check_scoring, f1_score
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import SVC

from replicability.comparison.folds import gather, score_split, split_name

X = np.arange(40, dtype=float).reshape(20, 2)
Y = np.repeat([0, 1], 10)
TRAIN, TEST = np.arange(0, 20, 2), np.arange(1, 20, 2)


def _learner(label, estimator, scoring=None):
    return (label, estimator, check_scoring(estimator, scoring), ())


def test_score_split_scores_each_learner_as_sklearn_does():
    scores, problem = score_split([_learner("A", GaussianNB()), _learner("B", SVC())], X, Y, TRAIN, TEST,
                                  [np.array([]), np.array([])])
    assert problem is None
    assert scores == [GaussianNB().fit(X[TRAIN], Y[TRAIN]).score(X[TEST], Y[TEST]),
                      SVC().fit(X[TRAIN], Y[TRAIN]).score(X[TEST], Y[TEST])]


def test_a_failing_fit_is_named_with_the_learner_and_cause():
    scores, problem = score_split([_learner("A", GaussianNB()), _learner("B", SVC(C=-1.0))], X, Y, TRAIN, TEST,
                                  [np.array([]), np.array([])])
    assert len(scores) == 1
    assert problem.startswith("B (SVC) failed to fit: InvalidParameterError: The 'C' parameter of SVC must be")


def test_an_undefined_score_is_reported_not_turned_into_zero():
    test = np.arange(0, 10)  # no positive in the test set
    with pytest.warns(UndefinedMetricWarning, match="F-score is ill-defined"):  # what scikit-learn says, and scores 0
        assert f1_score(Y[test], GaussianNB().fit(X[TRAIN], Y[TRAIN]).predict(X[test])) == 0.0
    scores, problem = score_split([_learner("A", GaussianNB(), "f1")], X, Y, TRAIN, test, [np.array([])])
    assert scores == []
    assert problem.startswith("A (GaussianNB)'s score is undefined on this test set: UndefinedMetricWarning: "
                              "F-score is ill-defined")


def test_split_names_and_gather_raise_on_the_first_problem():
    assert split_name(0, 10, 10, "cv") == "randomization 0, run 0, fold 0"
    assert split_name(123, 10, 10, "cv") == "randomization 1, run 2, fold 3"
    assert split_name(17, 10, 1, "resampling") == "randomization 1, split 7"
    assert gather(iter([([1.0, 2.0], None), ([3.0, 4.0], None)]), str) == [[1.0, 2.0], [3.0, 4.0]]
    results = iter([([1.0, 2.0], None), ([], "A (X) failed to fit: ValueError: no"), ([5.0, 6.0], None)])
    with pytest.raises(ValueError, match=r"^on split 1: A \(X\) failed to fit: ValueError: no; nothing was tested\.$"):
        gather(results, lambda i: f"split {i}")
