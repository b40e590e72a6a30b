"""Tests of replicability.papers.raschka2018.studies (simulation loops of the Raschka 2018 notebooks)."""

import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from replicability.engine.splits import FiveByTwoCV
from replicability.papers.raschka2018 import (
    ALGORITHM_TESTS,
    algorithm_test_study,
    cv_bias_variance_study,
    one_standard_error_rule,
    paired_split_scores,
    tuning_bias_study,
)
from replicability.sources.gaussian import sample_gaussian_classes
from replicability.stats.contingency import mcnemar_test, proportions_ztest
from replicability.stats.ttests import alpaydin_5x2cv_ftest, dietterich_5x2cv_ttest, kfold_cv_ttest


# --------------------------------------------------------------------------
# paired_split_scores
# --------------------------------------------------------------------------
def _data(n=60, delta=1.0, seed=0):
    return sample_gaussian_classes(n, delta=delta, rng=seed)


def test_paired_split_scores_against_manual_loop():
    X, y = _data()
    splits = list(KFold(4, shuffle=True, random_state=0).split(X))
    a, b = GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0)
    s = paired_split_scores(a, b, X, y, splits)
    for i, (train, test) in enumerate(splits):
        ra = clone(a).fit(X[train], y[train]).predict(X[test]) == y[test]
        rb = clone(b).fit(X[train], y[train]).predict(X[test]) == y[test]
        assert s.x[i] == ra.mean() and s.y[i] == rb.mean()
        assert s.b[i] == np.sum(ra & ~rb) and s.c[i] == np.sum(~ra & rb)
        assert s.n_test[i] == len(test)
    # McNemar's b - c is the accuracy difference times the test size.
    np.testing.assert_allclose((s.b - s.c) / s.n_test, s.x - s.y, rtol=0, atol=1e-12)


def test_paired_split_scores_swap():
    X, y = _data()
    splits = list(KFold(3).split(X))
    a, b = GaussianNB(), DecisionTreeClassifier(random_state=0)
    s, t = paired_split_scores(a, b, X, y, splits), paired_split_scores(b, a, X, y, splits)
    np.testing.assert_array_equal(s.x, t.y)
    np.testing.assert_array_equal(s.b, t.c)


def test_paired_split_scores_validation():
    X, y = _data()
    with pytest.raises(ValueError, match="`X` and `y`"):
        paired_split_scores(GaussianNB(), GaussianNB(), X, y[:-1], KFold(2).split(X))
    with pytest.raises(ValueError, match="`splits`"):
        paired_split_scores(GaussianNB(), GaussianNB(), X, y, [])


# --------------------------------------------------------------------------
# one_standard_error_rule
# --------------------------------------------------------------------------
def test_one_standard_error_rule_examples():
    # best = index 3 (0.86); threshold 0.86 - 0.02 = 0.84: first model above is 2.
    assert one_standard_error_rule([0.5, 0.80, 0.85, 0.86], [0.03, 0.03, 0.02, 0.02]) == 2
    # With zero standard errors the rule picks the (first) best.
    assert one_standard_error_rule([0.1, 0.9, 0.9], [0, 0, 0]) == 1
    # A wide standard error of the best admits the simplest model.
    assert one_standard_error_rule([0.7, 0.8], [0.0, 0.2]) == 0


def test_one_standard_error_rule_never_worse_than_threshold():
    rng = np.random.default_rng(0)
    for _ in range(50):
        mean, se = rng.uniform(size=8), rng.uniform(0, 0.1, size=8)
        i = one_standard_error_rule(mean, se)
        best = np.argmax(mean)
        assert mean[i] >= mean[best] - se[best]
        assert i <= best
        assert np.all(mean[:i] < mean[best] - se[best])


@pytest.mark.parametrize(
    ("mean", "se", "name"),
    [([], [], "`mean`"), ([[0.5]], [[0.1]], "`mean`"), ([0.5, 0.6], [0.1], "`se`"),
     ([0.5, np.nan], [0.1, 0.1], "`mean` and `se`"), ([0.5, 0.6], [0.1, -0.1], "`se`")],
)
def test_one_standard_error_rule_validation(mean, se, name):
    with pytest.raises(ValueError, match=name):
        one_standard_error_rule(mean, se)


# --------------------------------------------------------------------------
# cv_bias_variance_study
# --------------------------------------------------------------------------
def test_cv_bias_variance_study_matches_sklearn():
    ds = cv_bias_variance_study(GaussianNB(), n_train=20, n_folds=[2, 5, 20], n_datasets=2,
                                n_true_test=500, rng=5)
    assert ds["cv_correct"].dtype == np.int64
    assert ds["cv_correct"].dims == ("dataset", "k")
    # Recompute data set 1 with the same spawned generator and scikit-learn.
    g = np.random.default_rng(5).spawn(2)[1]
    X, y = sample_gaussian_classes(20, n_features=2, delta=1.0, rng=g)
    X_new, y_new = sample_gaussian_classes(500, n_features=2, delta=1.0, rng=g)
    true = np.sum(GaussianNB().fit(X, y).predict(X_new) == y_new)
    assert ds["true_correct"].values[1] == true
    for j, k in enumerate([2, 5, 20]):
        cv = KFold(k, shuffle=True, random_state=int(g.integers(2**31 - 1)))
        scores = cross_val_score(GaussianNB(), X, y, cv=cv)
        assert ds["cv_correct"].values[1, j] == round(np.sum(scores * 20 / k))


def test_cv_bias_variance_study_loo_is_deterministic():
    # k = n_train is leave-one-out: whatever the shuffle, the same estimate.
    a = cv_bias_variance_study(GaussianNB(), n_train=15, n_folds=[15], n_datasets=3,
                               n_true_test=10, rng=1)
    X_seeds = np.random.default_rng(1).spawn(3)
    for i, g in enumerate(X_seeds):
        X, y = sample_gaussian_classes(15, rng=g)
        loo = cross_val_score(GaussianNB(), X, y, cv=KFold(15)).sum()
        assert a["cv_correct"].values[i, 0] == loo


@pytest.mark.slow
def test_cv_bias_variance_study_n_jobs_invariant():
    kwargs = dict(n_train=12, n_folds=[2, 3], n_datasets=3, n_true_test=50, rng=9)
    a = cv_bias_variance_study(GaussianNB(), **kwargs)
    b = cv_bias_variance_study(GaussianNB(), n_jobs=2, **kwargs)
    assert a.identical(b)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"n_train": 1}, "`n_train`"), ({"n_folds": [1]}, "`n_folds`"),
     ({"n_folds": [21]}, "`n_folds`"), ({"n_folds": [2.5]}, "`n_folds`"),
     ({"n_datasets": 0}, "`n_datasets`"), ({"n_true_test": 0}, "`n_true_test`"),
     ({"n_features": 0}, "`n_features`"), ({"delta": -1}, "`delta`")],
)
def test_cv_bias_variance_study_validation(kwargs, name):
    args = dict(n_train=20, n_folds=[2], n_datasets=1, n_true_test=10) | kwargs
    with pytest.raises(ValueError, match=name):
        cv_bias_variance_study(GaussianNB(), **args)


# --------------------------------------------------------------------------
# tuning_bias_study
# --------------------------------------------------------------------------
def test_tuning_bias_study_matches_sklearn_nested_cv():
    grid = {"n_neighbors": [1, 5]}
    ds = tuning_bias_study(KNeighborsClassifier(), grid, n_train=30, n_datasets=1, n_inner=3,
                           n_outer=3, n_true_test=200, rng=4)
    g = np.random.default_rng(4).spawn(1)[0]
    X, y = sample_gaussian_classes(30, rng=g)
    X_new, y_new = sample_gaussian_classes(200, rng=g)
    inner = StratifiedKFold(3, shuffle=True, random_state=int(g.integers(2**31 - 1)))
    outer = StratifiedKFold(3, shuffle=True, random_state=int(g.integers(2**31 - 1)))
    search = GridSearchCV(KNeighborsClassifier(), grid, cv=inner).fit(X, y)
    nested = cross_val_score(GridSearchCV(KNeighborsClassifier(), grid, cv=inner), X, y, cv=outer)
    acc = ds["accuracy"].sel(dataset=0)
    assert float(acc.sel(estimate="non_nested")) == pytest.approx(search.best_score_, rel=1e-12)
    assert float(acc.sel(estimate="nested")) == pytest.approx(nested.mean(), rel=1e-12)
    assert float(acc.sel(estimate="true")) == pytest.approx(search.score(X_new, y_new), rel=1e-12)


@pytest.mark.slow
def test_tuning_bias_non_nested_is_optimistic_under_null():
    # With delta = 0 every model has true accuracy 1/2; the best of several
    # cv scores is biased upwards (Varma & Simon 2006), on average.
    grid = {"n_neighbors": [1, 3, 5, 7, 9]}
    ds = tuning_bias_study(KNeighborsClassifier(), grid, n_train=30, n_datasets=8, n_inner=3,
                           n_outer=3, n_true_test=400, delta=0.0, rng=0)
    acc = ds["accuracy"]
    assert float(acc.sel(estimate="non_nested").mean()) > float(acc.sel(estimate="nested").mean())
    assert float(acc.sel(estimate="non_nested").mean()) > 0.5


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"n_train": 3}, "`n_train`"), ({"n_datasets": 0}, "`n_datasets`"),
     ({"n_inner": 1}, "`n_inner`"), ({"n_outer": 1}, "`n_outer`"),
     ({"n_true_test": 0}, "`n_true_test`"), ({"n_features": 0}, "`n_features`"),
     ({"delta": -1}, "`delta`")],
)
def test_tuning_bias_study_validation(kwargs, name):
    args = dict(n_train=20, n_datasets=1) | kwargs
    with pytest.raises(ValueError, match=name):
        tuning_bias_study(KNeighborsClassifier(), {"n_neighbors": [1]}, **args)


# --------------------------------------------------------------------------
# algorithm_test_study
# --------------------------------------------------------------------------
def test_algorithm_test_study_recomputes_from_splits():
    a, b = GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0)
    ds = algorithm_test_study(a, b, n_train=60, n_datasets=1, n_resamples=4, n_folds=5,
                              delta=1.0, rng=11)
    assert list(ds["test"].values) == list(ALGORITHM_TESTS)
    g = np.random.default_rng(11).spawn(1)[0]
    X, y = sample_gaussian_classes(60, rng=g)

    def seed():
        return int(g.integers(2**31 - 1))

    from sklearn.model_selection import StratifiedShuffleSplit

    from replicability.engine.splits import RandomSubsampling
    from replicability.stats.ttests import resampled_ttest

    h = paired_split_scores(a, b, X, y, StratifiedShuffleSplit(1, test_size=1 / 3,
                                                               random_state=seed()).split(X, y))
    r = paired_split_scores(a, b, X, y, RandomSubsampling(4, test_size=1 / 3, stratified=True,
                                                          random_state=seed()).split(X, y))
    k = paired_split_scores(a, b, X, y, StratifiedKFold(5, shuffle=True,
                                                        random_state=seed()).split(X, y))
    f = paired_split_scores(a, b, X, y, FiveByTwoCV(random_state=seed()).split(X, y))
    expected = [
        mcnemar_test(h.b[0], h.c[0], correction=True).pvalue,
        proportions_ztest(h.x[0], h.y[0], n_test=20).pvalue,
        resampled_ttest(r.x, r.y).pvalue,
        kfold_cv_ttest(k.x, k.y).pvalue,
        dietterich_5x2cv_ttest(f.x.reshape(5, 2), f.y.reshape(5, 2)).pvalue,
        alpaydin_5x2cv_ftest(f.x.reshape(5, 2), f.y.reshape(5, 2)).pvalue,
    ]
    np.testing.assert_allclose(ds["pvalue"].values[0], expected, rtol=1e-12)
    assert float(ds["cv_difference"][0]) == pytest.approx(np.mean(k.x - k.y), rel=1e-12)
    assert ds["direction"].values[0, 0] == np.sign(h.b[0] - h.c[0])


def test_algorithm_test_study_identical_learners_never_reject():
    # Two copies of one deterministic learner: every difference is zero, so
    # (Weka's convention, McNemar without discordant pairs) every p-value is 1.
    ds = algorithm_test_study(GaussianNB(), GaussianNB(), n_train=40, n_datasets=2,
                              n_resamples=3, n_folds=4, rng=0)
    np.testing.assert_array_equal(ds["pvalue"].values, 1.0)
    np.testing.assert_array_equal(ds["direction"].values, 0)


def test_algorithm_test_study_detects_a_useless_learner():
    # Naive Bayes against a constant predictor on well-separated classes.
    ds = algorithm_test_study(GaussianNB(), DummyClassifier(strategy="constant", constant=0),
                              n_train=90, n_datasets=1, n_resamples=5, n_folds=5, delta=4.0,
                              rng=1)
    assert np.all(ds["pvalue"].values < 0.05)
    assert np.all(ds["direction"].values == 1)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"n_train": 3}, "`n_train`"), ({"n_datasets": 0}, "`n_datasets`"),
     ({"test_size": 1.0}, "`test_size`"), ({"n_resamples": 1}, "`n_resamples`"),
     ({"n_folds": 1}, "`n_folds`"), ({"n_features": 0}, "`n_features`"),
     ({"delta": -0.1}, "`delta`")],
)
def test_algorithm_test_study_validation(kwargs, name):
    args = dict(n_train=40, n_datasets=1) | kwargs
    with pytest.raises(ValueError, match=name):
        algorithm_test_study(GaussianNB(), GaussianNB(), **args)


@pytest.mark.slow
def test_mcnemar_type1_error_under_null():
    # Under delta = 0 McNemar's rejection rate must not exceed alpha beyond
    # binomial noise (Dietterich 1998: McNemar has a low Type I error).
    n = 60
    ds = algorithm_test_study(GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0),
                              n_train=60, n_datasets=n, n_resamples=2, n_folds=2, delta=0.0,
                              rng=2)
    rejections = int(np.sum(ds["pvalue"].sel(test="mcnemar").values < 0.05))
    assert rejections <= stats.binom.ppf(0.999, n, 0.05)
