"""Simulation studies of cross-validation and of algorithm comparison tests.

The reusable loops behind the Raschka (2018) notebooks on Sections 3 and 4, on the
Gaussian source of :mod:`replicability.sources.gaussian` (whose Bayes accuracy is known,
so that the *true* accuracy of a trained model can be measured on fresh cases):

* :func:`paired_split_scores` -- fit learners A and B on the same splits and
  record their accuracies and McNemar's discordant counts;
* :func:`one_standard_error_rule` -- Breiman et al.'s (1984) rule for picking
  the simplest model within one standard error of the best;
* :func:`cv_bias_variance_study` -- k-fold cv estimates for several k (and
  LOOCV) against the true accuracy, over many simulated data sets;
* :func:`tuning_bias_study` -- non-nested tuning-and-evaluation against nested
  cross-validation, against the true accuracy of the tuned model;
* :func:`algorithm_test_study` -- Dietterich's (1998) comparison: every test of
  Raschka Sec. 4.8 applied to A and B on many simulated data sets.

Every study derives one generator per data set from ``rng`` with
:meth:`numpy.random.Generator.spawn`, so results do not depend on ``n_jobs``.
Studies return :class:`xarray.Dataset` objects with integer counts where
possible, ready for :func:`replicability.engine.store.cached_result`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import xarray as xr
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, StratifiedShuffleSplit

from ..._validation import check_fraction, check_nonnegative, check_positive_int, check_same_shape, sklearn_seed
from ...engine.parallel import parallel_map
from ...engine.splits import FiveByTwoCV, RandomSubsampling
from ...sources.gaussian import sample_gaussian_classes
from ...stats.contingency import mcnemar_test, proportions_ztest
from ...stats.ttests import alpaydin_5x2cv_ftest, dietterich_5x2cv_ttest, kfold_cv_ttest, resampled_ttest

__all__ = [
    "ALGORITHM_TESTS",
    "PairedScores",
    "paired_split_scores",
    "one_standard_error_rule",
    "cv_bias_variance_study",
    "tuning_bias_study",
    "algorithm_test_study",
]

#: The tests of :func:`algorithm_test_study`, in the order of Raschka Sec. 4.8.
ALGORITHM_TESTS = (
    "mcnemar",
    "proportions_z",
    "resampled_t",
    "kfold_cv_t",
    "5x2cv_t",
    "5x2cv_f",
)


# --------------------------------------------------------------------------
# validation helpers (private)
# --------------------------------------------------------------------------
def _generators(rng, n):
    """One independent generator per unit of work (DESIGN.md, Randomness)."""
    return np.random.default_rng(rng).spawn(n)


def _source(n_features, delta):
    """Options of :func:`~replicability.sources.gaussian.sample_gaussian_classes`, checked."""
    return {"n_features": check_positive_int(n_features, "n_features"), "delta": check_nonnegative(delta, "delta")}


def _run(function, generators, n_jobs, **kwargs):
    """Apply ``function(rng=g, **kwargs)`` to every generator, in order."""
    return list(parallel_map(lambda g: function(rng=g, **kwargs), generators, backend="processes", n_jobs=n_jobs or 1))


# --------------------------------------------------------------------------
# scores of two learners on shared splits
# --------------------------------------------------------------------------
class PairedScores(NamedTuple):
    """Per-split results of learners A and B on the same splits.

    Attributes
    ----------
    x, y : ndarray of float, shape (n_splits,)
        Test accuracies of A and B.
    b, c : ndarray of int, shape (n_splits,)
        Test cases right by A and wrong by B (``b``) and the reverse (``c``);
        McNemar's discordant counts (Raschka 2018, Figure 19).
    n_test : ndarray of int, shape (n_splits,)
        Size of each test set.
    """

    x: np.ndarray
    y: np.ndarray
    b: np.ndarray
    c: np.ndarray
    n_test: np.ndarray


def paired_split_scores(estimator_a, estimator_b, X, y, splits):
    """Fit A and B on each training set and score both on the same test set.

    Parameters
    ----------
    estimator_a, estimator_b : scikit-learn classifiers
        Cloned (unfitted) for every split.
    X : array_like, shape (n, n_features)
    y : array_like, shape (n,)
    splits : iterable of (train, test) index arrays
        E.g. ``cv.split(X, y)`` of any splitter in :mod:`replicability.engine.splits`.

    Returns
    -------
    PairedScores
        Accuracies and discordant counts per split, in the order of ``splits``.

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.model_selection import KFold
    >>> import numpy as np
    >>> X, y = np.zeros((6, 1)), np.array([0, 1, 0, 0, 1, 0])
    >>> s = paired_split_scores(DummyClassifier(strategy="constant", constant=0),
    ...                         DummyClassifier(strategy="constant", constant=1),
    ...                         X, y, KFold(2).split(X))
    >>> s.b.tolist(), s.c.tolist()
    ([2, 2], [1, 1])
    """
    X = np.asarray(X)
    y = np.asarray(y)
    if y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError(
            f"`X` and `y` must have the same number of cases; got shapes {X.shape} and {y.shape}."
        )
    x_acc, y_acc, b, c, n_test = [], [], [], [], []
    for train, test in splits:
        right_a = clone(estimator_a).fit(X[train], y[train]).predict(X[test]) == y[test]
        right_b = clone(estimator_b).fit(X[train], y[train]).predict(X[test]) == y[test]
        x_acc.append(right_a.mean())
        y_acc.append(right_b.mean())
        b.append(int(np.sum(right_a & ~right_b)))
        c.append(int(np.sum(~right_a & right_b)))
        n_test.append(len(test))
    if not n_test:
        raise ValueError("`splits` must yield at least one (train, test) pair; got none.")
    return PairedScores(
        np.array(x_acc), np.array(y_acc), np.array(b), np.array(c), np.array(n_test)
    )


# --------------------------------------------------------------------------
# model selection
# --------------------------------------------------------------------------
def one_standard_error_rule(mean, se):
    """Index of the simplest model within one standard error of the best.

    Breiman et al.'s (1984) rule as stated by Raschka (2018, Sec. 3.10): find
    the model with the best (largest) mean score, then choose the *first*
    model, in the given order, whose mean is at least ``best - se[best]``.
    Order the candidates from simplest to most complex (for an RBF-kernel SVM:
    increasing ``gamma``).

    Parameters
    ----------
    mean : array_like, shape (n_models,)
        Mean cross-validation score of each model (larger is better).
    se : array_like, shape (n_models,)
        Standard error of each mean, >= 0.

    Returns
    -------
    int
        Index of the chosen model.

    References
    ----------
    .. [1] Breiman, L., Friedman, J., Stone, C. J. and Olshen, R. A. (1984).
       Classification and Regression Trees. Wadsworth.

    Examples
    --------
    >>> from replicability.papers.raschka2018 import one_standard_error_rule
    >>> one_standard_error_rule([0.5, 0.80, 0.85, 0.86], [0.03, 0.03, 0.02, 0.02])
    2
    """
    mean = np.asarray(mean, dtype=float)
    se = np.asarray(se, dtype=float)
    if mean.ndim != 1 or mean.size == 0:
        raise ValueError(f"`mean` must be a non-empty one-dimensional array; got shape {mean.shape}.")
    check_same_shape(mean, se, ("mean", "se"))
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(se))):
        raise ValueError("`mean` and `se` must contain only finite values; got NaN or infinity.")
    if np.any(se < 0):
        raise ValueError(f"`se` must be non-negative; got {se.tolist()!r}.")
    best = int(np.argmax(mean))
    return int(np.flatnonzero(mean >= mean[best] - se[best])[0])


def _check_n_folds(n_folds, n_train):
    ks = np.atleast_1d(np.asarray(n_folds))
    if ks.ndim != 1 or ks.size == 0 or not np.issubdtype(ks.dtype, np.integer):
        raise ValueError(f"`n_folds` must be a non-empty list of integers; got {n_folds!r}.")
    if np.any(ks < 2) or np.any(ks > n_train):
        raise ValueError(f"`n_folds` must lie between 2 and `n_train` = {n_train}; got {n_folds!r}.")
    return [int(k) for k in ks]


def _cv_bias_variance_one(estimator, *, n_train, n_folds, n_true_test, source, rng):
    X, y = sample_gaussian_classes(n_train, rng=rng, **source)
    X_new, y_new = sample_gaussian_classes(n_true_test, rng=rng, **source)
    true_correct = int(np.sum(clone(estimator).fit(X, y).predict(X_new) == y_new))
    cv_correct = []
    for k in n_folds:
        # Unstratified shuffled k-fold for every k, so that k = n_train is
        # exactly leave-one-out; the estimate pools the n_train test cases.
        folds = KFold(n_splits=k, shuffle=True, random_state=sklearn_seed(rng)).split(X)
        correct = 0
        for train, test in folds:
            correct += int(np.sum(clone(estimator).fit(X[train], y[train]).predict(X[test]) == y[test]))
        cv_correct.append(correct)
    return cv_correct, true_correct


def cv_bias_variance_study(
    estimator,
    *,
    n_train,
    n_folds,
    n_datasets,
    n_true_test=10_000,
    n_features=2,
    delta=1.0,
    rng=None,
    n_jobs=None,
):
    """k-fold cross-validation estimates against the true accuracy (Raschka Sec. 3.6).

    For each of ``n_datasets`` data sets of ``n_train`` cases from
    :func:`~replicability.sources.gaussian.sample_gaussian_classes`, estimate the accuracy of ``estimator`` by
    k-fold cv for every ``k`` in ``n_folds`` (``k = n_train`` is LOOCV) and
    measure the *true* accuracy of the model fit to all ``n_train`` cases on
    ``n_true_test`` fresh cases. Bias of the k-fold estimate is then the mean
    of ``cv_correct / n_train - true_correct / n_true_test`` and its variance
    the variance of ``cv_correct / n_train`` over data sets.

    Parameters
    ----------
    estimator : scikit-learn classifier
    n_train : int
        Cases per data set.
    n_folds : sequence of int
        Values of k, each between 2 and ``n_train``.
    n_datasets : int
        Number of simulated data sets.
    n_true_test : int, optional
        Fresh cases on which the true accuracy is measured.
    n_features : int, optional
        Features of the source (all informative).
    delta : float, optional
        Distance between class means; Bayes accuracy ``Phi(delta / 2)``.
    rng : numpy.random.Generator or int, optional
        Root of the per-data-set generators.
    n_jobs : int, optional
        joblib workers; results do not depend on it.

    Returns
    -------
    xarray.Dataset
        ``cv_correct`` (dataset, k) and ``true_correct`` (dataset), integer
        counts; attributes ``n_train`` and ``n_true_test``.

    Examples
    --------
    >>> from sklearn.naive_bayes import GaussianNB
    >>> ds = cv_bias_variance_study(GaussianNB(), n_train=20, n_folds=[2, 20],
    ...                             n_datasets=3, n_true_test=100, rng=0)
    >>> ds["cv_correct"].shape
    (3, 2)
    """
    n_train = check_positive_int(n_train, "n_train", minimum=2)
    n_folds = _check_n_folds(n_folds, n_train)
    n_datasets = check_positive_int(n_datasets, "n_datasets")
    n_true_test = check_positive_int(n_true_test, "n_true_test")
    source = _source(n_features, delta)
    out = _run(
        _cv_bias_variance_one, _generators(rng, n_datasets), n_jobs,
        estimator=estimator, n_train=n_train, n_folds=n_folds,
        n_true_test=n_true_test, source=source,
    )
    return xr.Dataset(
        {
            "cv_correct": (("dataset", "k"), np.array([o[0] for o in out], dtype=np.int64)),
            "true_correct": ("dataset", np.array([o[1] for o in out], dtype=np.int64)),
        },
        coords={"dataset": np.arange(n_datasets), "k": n_folds},
        attrs={"n_train": n_train, "n_true_test": n_true_test},
    )


def _tuning_bias_one(estimator, param_grid, *, n_train, n_inner, n_outer, n_true_test, source, rng):
    X, y = sample_gaussian_classes(n_train, rng=rng, **source)
    X_new, y_new = sample_gaussian_classes(n_true_test, rng=rng, **source)
    inner = StratifiedKFold(n_inner, shuffle=True, random_state=sklearn_seed(rng))
    outer = StratifiedKFold(n_outer, shuffle=True, random_state=sklearn_seed(rng))
    search = GridSearchCV(clone(estimator), param_grid, cv=inner).fit(X, y)
    # Non-nested: the best mean inner-cv score is reused as the estimate of the
    # tuned model's accuracy (the bias Varma & Simon 2006 describe).
    non_nested = float(search.best_score_)
    true = float(np.mean(search.predict(X_new) == y_new))
    outer_scores = []
    for train, test in outer.split(X, y):
        fold_search = GridSearchCV(clone(estimator), param_grid, cv=inner).fit(X[train], y[train])
        outer_scores.append(np.mean(fold_search.predict(X[test]) == y[test]))
    return non_nested, float(np.mean(outer_scores)), true


def tuning_bias_study(
    estimator,
    param_grid,
    *,
    n_train,
    n_datasets,
    n_inner=5,
    n_outer=5,
    n_true_test=10_000,
    n_features=2,
    delta=1.0,
    rng=None,
    n_jobs=None,
):
    """Non-nested against nested cross-validation of a tuned learner (Raschka Sec. 4.14).

    For each simulated data set, grid search with stratified ``n_inner``-fold
    cv tunes ``estimator`` on all ``n_train`` cases. Three accuracies are
    recorded: the *non-nested* estimate (the best mean inner-cv score, i.e.
    tuning and evaluation on the same folds), the *nested* estimate (the mean
    over ``n_outer`` outer folds of a grid search rerun on each outer
    training set and scored on the outer test fold) and the *true* accuracy of
    the tuned model on ``n_true_test`` fresh cases.

    Parameters
    ----------
    estimator : scikit-learn classifier
    param_grid : dict or list of dict
        Passed to :class:`sklearn.model_selection.GridSearchCV`.
    n_train, n_datasets : int
        Cases per data set and number of data sets.
    n_inner, n_outer : int, optional
        Folds of the inner (tuning) and outer (evaluation) loops.
    n_true_test : int, optional
        Fresh cases for the true accuracy.
    n_features : int, optional
        Features of the source (all informative).
    delta : float, optional
        Distance between class means; ``0`` makes every model a coin flip.
    rng : numpy.random.Generator or int, optional
    n_jobs : int, optional
        joblib workers; results do not depend on it.

    Returns
    -------
    xarray.Dataset
        ``accuracy`` (dataset, estimate) with estimates ``"non_nested"``,
        ``"nested"`` and ``"true"``.

    References
    ----------
    .. [1] Varma, S. and Simon, R. (2006). Bias in error estimation when using
       cross-validation for model selection. BMC Bioinformatics 7, 91.
       https://doi.org/10.1186/1471-2105-7-91

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> ds = tuning_bias_study(KNeighborsClassifier(), {"n_neighbors": [1, 5]},
    ...                        n_train=30, n_datasets=2, n_inner=3, n_outer=3,
    ...                        n_true_test=200, rng=0)
    >>> ds["accuracy"].sel(estimate="nested").shape
    (2,)
    """
    n_train = check_positive_int(n_train, "n_train", minimum=4)
    n_datasets = check_positive_int(n_datasets, "n_datasets")
    n_inner = check_positive_int(n_inner, "n_inner", minimum=2)
    n_outer = check_positive_int(n_outer, "n_outer", minimum=2)
    n_true_test = check_positive_int(n_true_test, "n_true_test")
    source = _source(n_features, delta)
    out = _run(
        _tuning_bias_one, _generators(rng, n_datasets), n_jobs,
        estimator=estimator, param_grid=param_grid, n_train=n_train, n_inner=n_inner,
        n_outer=n_outer, n_true_test=n_true_test, source=source,
    )
    return xr.Dataset(
        {"accuracy": (("dataset", "estimate"), np.array(out, dtype=float))},
        coords={"dataset": np.arange(n_datasets), "estimate": ["non_nested", "nested", "true"]},
        attrs={"n_train": n_train, "n_inner": n_inner, "n_outer": n_outer},
    )


# --------------------------------------------------------------------------
# Dietterich's (1998) comparison of tests
# --------------------------------------------------------------------------
def _algorithm_tests_one(estimator_a, estimator_b, *, n_train, test_size, n_resamples, n_folds,
                         source, rng):
    X, y = sample_gaussian_classes(n_train, rng=rng, **source)
    # One stratified holdout split for the tests on a single test set.
    holdout = StratifiedShuffleSplit(1, test_size=test_size, random_state=sklearn_seed(rng))
    h = paired_split_scores(estimator_a, estimator_b, X, y, holdout.split(X, y))
    resampling = RandomSubsampling(n_resamples, test_size=test_size, stratified=True,
                                   random_state=sklearn_seed(rng))
    r = paired_split_scores(estimator_a, estimator_b, X, y, resampling.split(X, y))
    kfold = StratifiedKFold(n_folds, shuffle=True, random_state=sklearn_seed(rng))
    k = paired_split_scores(estimator_a, estimator_b, X, y, kfold.split(X, y))
    five = paired_split_scores(estimator_a, estimator_b, X, y,
                               FiveByTwoCV(random_state=sklearn_seed(rng)).split(X, y))
    results = [
        # Dietterich (1998) used McNemar with the continuity correction.
        mcnemar_test(h.b[0], h.c[0], correction=True),
        proportions_ztest(h.x[0], h.y[0], n_test=int(h.n_test[0])),
        resampled_ttest(r.x, r.y),
        kfold_cv_ttest(k.x, k.y),
        dietterich_5x2cv_ttest(five.x.reshape(5, 2), five.y.reshape(5, 2)),
        alpaydin_5x2cv_ftest(five.x.reshape(5, 2), five.y.reshape(5, 2)),
    ]
    # The direction of each test (positive favours A): McNemar's b - c, the
    # signed statistics of the t and z tests, the mean 5x2 difference for F.
    direction = [
        h.b[0] - h.c[0], results[1].statistic, results[2].statistic, results[3].statistic,
        results[4].statistic, np.mean(five.x - five.y),
    ]
    return ([float(res.pvalue) for res in results], [float(np.sign(v)) for v in direction],
            float(np.mean(k.x - k.y)))


def algorithm_test_study(
    estimator_a,
    estimator_b,
    *,
    n_train,
    n_datasets,
    test_size=1 / 3,
    n_resamples=30,
    n_folds=10,
    n_features=2,
    delta=1.0,
    rng=None,
    n_jobs=None,
):
    """Apply every test of Raschka Sec. 4.8 to learners A and B on simulated data.

    Dietterich's (1998) experimental design: for each of ``n_datasets`` data
    sets of ``n_train`` cases from :func:`~replicability.sources.gaussian.sample_gaussian_classes`,

    * ``"mcnemar"`` -- McNemar's test with Edwards' correction and
      ``"proportions_z"`` -- the difference-of-proportions z-test, both on one
      stratified holdout split (``test_size`` of the cases for testing);
    * ``"resampled_t"`` -- the resampled paired t-test on ``n_resamples``
      stratified random splits with the same ``test_size``;
    * ``"kfold_cv_t"`` -- the paired t-test on stratified ``n_folds``-fold cv;
    * ``"5x2cv_t"`` and ``"5x2cv_f"`` -- Dietterich's 5x2cv t-test and
      Alpaydin's 5x2cv F-test on the same 5x2 splits.

    With ``delta = 0`` the class is independent of the features, both
    learners have true accuracy 1/2 on every training set and each test's
    rejection rate is its Type I error; with ``delta > 0`` and learners of
    different accuracy it is its power.

    Parameters
    ----------
    estimator_a, estimator_b : scikit-learn classifiers
    n_train, n_datasets : int
        Cases per data set and number of data sets.
    test_size : float, optional
        Test fraction of the holdout and resampling splits (2/3 train, 1/3 test).
    n_resamples : int, optional
        Splits of the resampled t-test (Dietterich used 30).
    n_folds : int, optional
        Folds of the k-fold cv t-test.
    n_features : int, optional
        Features of the source (all informative).
    delta : float, optional
        Distance between class means.
    rng : numpy.random.Generator or int, optional
    n_jobs : int, optional
        joblib workers; results do not depend on it.

    Returns
    -------
    xarray.Dataset
        ``pvalue`` and ``direction`` (sign of the evidence, +1 favours A), both
        (dataset, test) with tests ``ALGORITHM_TESTS``, and
        ``cv_difference`` (dataset): the mean k-fold accuracy difference A - B.

    References
    ----------
    .. [1] Dietterich, T. G. (1998). Approximate statistical tests for comparing
       supervised classification learning algorithms. Neural Computation 10(7),
       1895-1923. https://doi.org/10.1162/089976698300017197

    Examples
    --------
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> ds = algorithm_test_study(GaussianNB(), DecisionTreeClassifier(random_state=0),
    ...                           n_train=60, n_datasets=2, n_resamples=5, n_folds=5,
    ...                           delta=0.0, rng=0)
    >>> ds["pvalue"].shape
    (2, 6)
    """
    n_train = check_positive_int(n_train, "n_train", minimum=4)
    n_datasets = check_positive_int(n_datasets, "n_datasets")
    test_size = check_fraction(test_size, "test_size")
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    source = _source(n_features, delta)
    out = _run(
        _algorithm_tests_one, _generators(rng, n_datasets), n_jobs,
        estimator_a=estimator_a, estimator_b=estimator_b, n_train=n_train,
        test_size=test_size, n_resamples=n_resamples, n_folds=n_folds, source=source,
    )
    return xr.Dataset(
        {
            "pvalue": (("dataset", "test"), np.array([o[0] for o in out])),
            "direction": (("dataset", "test"), np.array([o[1] for o in out], dtype=np.int8)),
            "cv_difference": ("dataset", np.array([o[2] for o in out])),
        },
        coords={"dataset": np.arange(n_datasets), "test": list(ALGORITHM_TESTS)},
        attrs={"n_train": n_train, "test_size": test_size, "n_resamples": n_resamples,
               "n_folds": n_folds},
    )


