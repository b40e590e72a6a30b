"""Tests of replicability.comparison.inputs, and of rp.compare on every input cross_validate takes.

Each input is checked against scikit-learn's ``cross_validate`` on the same splits.
"""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.compose import make_column_selector, make_column_transformer
from sklearn.datasets import load_iris
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    LeaveOneGroupOut,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB, MultinomialNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeClassifier

import replicability as rp
from replicability.comparison.inputs import as_data, cv_layout, cv_splits, fit_rows, randomizable
from replicability.engine.splits import RepeatedCV
from replicability.stats.ttests import corrected_repeated_cv_ttest

X, Y = load_iris(return_X_y=True)
TREE = DecisionTreeClassifier(max_depth=2, random_state=0)


def _frame():
    """Iris as a frame with a categorical column, groups of 10 rows."""
    frame = pd.DataFrame(X, columns=["sl", "sw", "pl", "pw"])
    frame["colour"] = pd.Categorical(np.array(["red", "green", "blue"])[np.arange(150) % 3])
    return frame, np.arange(150) // 10


def test_a_dataframe_pipeline_with_groups_equals_cross_validate_on_the_same_splits():
    frame, groups = _frame()
    columns = make_column_transformer((StandardScaler(), ["sl", "sw", "pl", "pw"]),
                                      (OneHotEncoder(), make_column_selector(dtype_include="category")))
    a = make_pipeline(columns, LogisticRegression(max_iter=500))
    b = HistGradientBoostingClassifier(categorical_features="from_dtype", max_iter=10, random_state=0)
    cv = GroupKFold(n_splits=5, shuffle=True)
    res = rp.compare(a, b, frame, Y, cv=cv, groups=groups, n_repeats=2, rng=0)
    assert res.scheme == repr(cv) and res.scores_a.shape == (2, 1, 5)
    for i, seed in enumerate(res.seeds):
        splits = list(GroupKFold(n_splits=5, shuffle=True, random_state=seed).split(frame, Y, groups))
        for train, test in splits:  # groups kept whole
            assert not set(groups[train]) & set(groups[test])
        ref_a = cross_validate(a, frame, Y, cv=splits)["test_score"]
        ref_b = cross_validate(b, frame, Y, cv=splits)["test_score"]
        np.testing.assert_array_equal(res.scores_a[i].ravel(), ref_a)
        np.testing.assert_array_equal(res.scores_b[i].ravel(), ref_b)
    assert res.seeds[0] != res.seeds[1]


def test_fit_params_are_taken_at_the_training_rows_as_cross_validate_params():
    weights = np.where(np.arange(150) % 4 == 0, 5.0, 1.0)
    res = rp.compare(GaussianNB(), TREE, X, Y, scheme="1x5cv", n_repeats=2, fit_params={"sample_weight": weights},
                     rng=1)
    splits = list(RepeatedCV(1, 5, stratified=True, random_state=res.seeds[0]).split(X, Y))
    for est, got in ((GaussianNB(), res.scores_a[0]), (TREE, res.scores_b[0])):
        ref = cross_validate(est, X, Y, cv=splits, params={"sample_weight": weights})["test_score"]
        np.testing.assert_array_equal(got.ravel(), ref)
    unweighted = rp.compare(GaussianNB(), TREE, X, Y, scheme="1x5cv", n_repeats=2, rng=1)
    assert not np.array_equal(unweighted.scores_b, res.scores_b)  # the weights were used


def test_one_sided_alternative_is_every_tests_alternative():
    two = rp.compare(GaussianNB(), TREE, X, Y, scheme="2x5cv", n_repeats=2, rng=2)
    for alternative in ("greater", "less"):
        res = rp.compare(GaussianNB(), TREE, X, Y, scheme="2x5cv", n_repeats=2, rng=2, alternative=alternative)
        np.testing.assert_array_equal(res.scores_a, two.scores_a)
        want = corrected_repeated_cv_ttest(res.scores_a[0], res.scores_b[0], n_train=120, n_test=30,
                                           alternative=alternative)
        assert float(res.tests[res.recommended].pvalue) == float(want.pvalue)
        assert set(res.decisions[res.recommended]) <= {0, 1 if alternative == "greater" else -1}
        assert f"one-sided, alternative '{alternative}'" in res.summary()
    five = rp.compare(GaussianNB(), TREE, X, Y, scheme="5x2cv", n_repeats=2, rng=2, alternative="greater")
    assert "5x2cv t" in five.tests and "5x2cv F" not in five.tests


def test_several_metrics_give_one_comparison_each_equal_to_cross_validate():
    res = rp.compare(GaussianNB(), TREE, X, Y, scheme="1x5cv", n_repeats=2, scoring=["accuracy", "f1_macro"], rng=3)
    assert list(res) == ["accuracy", "f1_macro"]
    splits = list(RepeatedCV(1, 5, stratified=True, random_state=res["accuracy"].seeds[0]).split(X, Y))
    ref = cross_validate(TREE, X, Y, cv=splits, scoring=["accuracy", "f1_macro"])
    for metric in ("accuracy", "f1_macro"):
        assert res[metric].scoring == metric
        np.testing.assert_array_equal(res[metric].scores_b[0].ravel(), ref[f"test_{metric}"])


def test_sparse_x_stays_sparse_and_equals_cross_validate():
    counts = sp.csr_matrix(np.round(X * 2).astype(float))
    a, b = MultinomialNB(), LogisticRegression(max_iter=1000)
    res = rp.compare(a, b, counts, Y, cv=ShuffleSplit(4, test_size=0.2), n_repeats=2, rng=4)
    assert (res.scores_a.shape, res.recommended) == ((2, 4, 1), "corrected resampled t")
    splits = list(ShuffleSplit(4, test_size=0.2, random_state=res.seeds[1]).split(counts))
    np.testing.assert_array_equal(res.scores_b[1].ravel(), cross_validate(b, counts, Y, cv=splits)["test_score"])


def test_a_repeated_splitter_is_laid_out_in_runs_and_reseeded_per_randomization():
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=99)
    res = rp.compare(GaussianNB(), TREE, X, Y, cv=cv, n_repeats=2, rng=5)
    assert res.scores_a.shape == (2, 2, 3) and res.recommended == "corrected repeated cv t"
    splits = list(RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=res.seeds[1]).split(X, Y))
    np.testing.assert_array_equal(res.scores_a[1].ravel(), cross_validate(GaussianNB(), X, Y, cv=splits)["test_score"])
    assert cv.random_state == 99  # the user's splitter is not changed


def test_a_splitter_without_randomness_warns_that_every_randomization_is_the_same():
    groups = np.arange(150) // 50
    with pytest.warns(UserWarning, match="has no random_state to vary"):
        res = rp.compare(GaussianNB(), TREE, X, Y, cv=LeaveOneGroupOut(), groups=groups, n_repeats=2, rng=0)
    np.testing.assert_array_equal(res.scores_a[0], res.scores_a[1])


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"groups": np.zeros(150)}, ValueError, "`groups` needs a group-aware `cv`"),
    ({"cv": 5}, TypeError, "`cv` must be a scikit-learn splitter"),
    ({"cv": KFold(5), "groups": np.zeros(3)}, ValueError, "`groups` must hold one label per row"),
    ({"fit_params": [1.0]}, TypeError, "`fit_params` must be a dict"),
    ({"alternative": "bigger"}, ValueError, "`alternative` must be one of"),
])
def test_bad_inputs_are_refused_before_any_fit(kwargs, error, match):
    with pytest.raises(error, match=match):
        rp.compare(GaussianNB(), TREE, X, Y, n_repeats=2, **kwargs)


def test_as_data_keeps_frames_and_sparse_and_checks_shapes():
    frame, _ = _frame()
    out = as_data(frame, pd.Series(Y), None)
    assert out[0] is frame and isinstance(out[1], pd.Series) and out[2] is None
    matrix = sp.csr_matrix(X)
    assert as_data(matrix, list(Y), None)[0] is matrix
    with pytest.raises(ValueError, match="`X` must be 2-d"):
        as_data(X[:, 0], Y, None)


def test_fit_rows_indexes_per_sample_values_only():
    out = fit_rows({"sample_weight": np.arange(5.0), "classes": [0, 1], "name": "abcde"}, 5, np.array([1, 3]))
    np.testing.assert_array_equal(out["sample_weight"], [1.0, 3.0])
    assert out["classes"] == [0, 1] and out["name"] == "abcde"


def test_cv_layout_and_randomizable():
    assert randomizable(KFold(5, shuffle=True)) and not randomizable(KFold(5)) and not randomizable(LeaveOneGroupOut())
    assert cv_layout(KFold(5), cv_splits(KFold(5), 0, X, Y, None), 150) == ("cv", 1, 5)
    shuffle = ShuffleSplit(3, test_size=0.5)
    assert cv_layout(shuffle, cv_splits(shuffle, 0, X, Y, None), 150) == ("resampling", 3, 1)
    with pytest.raises(ValueError, match="`cv` must give at least 2 splits"):
        cv_layout(ShuffleSplit(1), cv_splits(ShuffleSplit(1), 0, X, Y, None), 150)
