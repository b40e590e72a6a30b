"""Holdout and repeated holdout evaluation, and learning curves (Raschka 2018, Sections 1-2).

The pieces the Raschka notebooks need beyond :mod:`replicability.stats.bootstrap`: the
class counts of random and stratified splits (Section 1.4, Figure 1), the exact and
simulated coverage of the normal-approximation interval of a holdout accuracy
(Section 1.7, Eq. 17), repeated holdout (Section 2.3, Eq. 21-22, Figure 6),
and learning curves on nested stratified subsets (Section 2.2, Figure 4).
Resampling (the bootstrap's inclusion probability, subsample moments, the study of
the bootstrap estimators) is in :mod:`replicability.stats.resampling`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats
from sklearn.base import clone
from sklearn.model_selection import (
    ShuffleSplit,
    StratifiedShuffleSplit,
)

from .._validation import check_fraction, check_positive_int, check_test_size, sklearn_seed
from .bootstrap import _accuracy, _check_xy

__all__ = [
    "LearningCurve",
    "learning_curve_scores",
    "normal_interval_coverage",
    "random_split_deviation_probability",
    "repeated_holdout_scores",
    "simulate_interval_coverage",
    "split_class_counts",
]


@dataclass(frozen=True)
class LearningCurve:
    """Training (resubstitution) and test accuracy per training-set size.

    Attributes
    ----------
    train_sizes : ndarray of int, shape (n_sizes,)
    train_scores : ndarray, shape (n_sizes,)
        Accuracy of each model on the subset it was fitted on.
    test_scores : ndarray, shape (n_sizes,)
        Accuracy of each model on the common test set.
    """

    train_sizes: np.ndarray
    train_scores: np.ndarray
    test_scores: np.ndarray


def _labels(y):
    y = np.asarray(y)
    if y.ndim != 1 or y.size < 2:
        raise ValueError(
            f"`y` must be a 1-d array of at least 2 labels; got shape {y.shape}."
        )
    return y


def _splitter(n_runs, test_size, stratified, gen):
    cls = StratifiedShuffleSplit if stratified else ShuffleSplit
    return cls(n_splits=n_runs, test_size=test_size, random_state=sklearn_seed(gen))


def split_class_counts(y, *, test_size=1 / 3, n_runs=1, stratified=False, rng=None):
    """Class counts in the training and test parts of random holdout splits.

    Each repeat splits the instances into a training and a test set, either
    completely at random (``ShuffleSplit``) or keeping the class proportions
    (``StratifiedShuffleSplit``), as in Raschka (2018, Section 1.4, Figure 1).

    Parameters
    ----------
    y : array_like, shape (n,)
        Class labels.
    test_size : float in (0, 1) or int, default 1/3
        Share or number of test instances.
    n_runs : int, default 1
    stratified : bool, default False
    rng : None, int or numpy Generator

    Returns
    -------
    train_counts, test_counts : ndarray of int, shape (n_runs, n_classes)
        Classes in the order of ``numpy.unique(y)``.

    Examples
    --------
    >>> from replicability.stats.evaluation import split_class_counts
    >>> train, test = split_class_counts([0] * 6 + [1] * 3, test_size=3, stratified=True, rng=0)
    >>> train.tolist(), test.tolist()
    ([[4, 2]], [[2, 1]])
    """
    y = _labels(y)
    test_size = check_test_size(test_size)
    n_runs = check_positive_int(n_runs, "n_runs")
    gen = np.random.default_rng(rng)
    classes, codes = np.unique(y, return_inverse=True)
    train_counts = np.empty((n_runs, classes.size), dtype=int)
    test_counts = np.empty((n_runs, classes.size), dtype=int)
    splits = _splitter(n_runs, test_size, stratified, gen).split(
        np.zeros((y.size, 1)), codes
    )
    for r, (train, test) in enumerate(splits):
        train_counts[r] = np.bincount(codes[train], minlength=classes.size)
        test_counts[r] = np.bincount(codes[test], minlength=classes.size)
    return train_counts, test_counts


def random_split_deviation_probability(class_sizes, train_counts):
    """Probability that a random split is at least as unbalanced as the one observed.

    Drawing ``m = Σ train_counts`` of the instances at random without
    replacement, the class counts of the training set follow the multivariate
    hypergeometric distribution. The deviation of a split is
    ``max_k |N_k − m·n_k/n|``, the largest departure of a class count from
    its expectation; the probability returned is ``P(deviation ≥ observed)``,
    computed exactly by enumerating every possible split of the counts.

    Parameters
    ----------
    class_sizes : array_like of int, shape (n_classes,)
        Instances of each class in the whole data set.
    train_counts : array_like of int, shape (n_classes,)
        Observed class counts of the training set.

    Returns
    -------
    float

    Examples
    --------
    >>> from replicability.stats.evaluation import random_split_deviation_probability
    >>> round(random_split_deviation_probability([50, 50, 50], [38, 28, 34]), 4)
    0.1581
    """
    sizes = np.asarray(class_sizes)
    observed = np.asarray(train_counts)
    if (
        sizes.ndim != 1
        or sizes.size < 2
        or not np.issubdtype(sizes.dtype, np.integer)
        or np.any(sizes < 1)
    ):
        raise ValueError(
            f"`class_sizes` must be at least 2 positive integers; got {class_sizes!r}."
        )
    if (
        observed.shape != sizes.shape
        or not np.issubdtype(observed.dtype, np.integer)
        or np.any((observed < 0) | (observed > sizes))
    ):
        raise ValueError(
            f"`train_counts` must be integers between 0 and `class_sizes`, one per class; got {train_counts!r}."
        )
    m = int(observed.sum())
    expected = m * sizes / sizes.sum()
    tol = (
        1e-9  # deviations are multiples of 1/n apart; ties count as "at least as large"
    )
    threshold = np.max(np.abs(observed - expected)) - tol
    # Enumerate the counts of all classes but the last; the last is m minus the rest.
    grids = np.meshgrid(*[np.arange(s + 1) for s in sizes[:-1]], indexing="ij")
    counts = np.stack([g.ravel() for g in grids], axis=-1)
    last = m - counts.sum(axis=-1)
    ok = (last >= 0) & (last <= sizes[-1])
    counts = np.column_stack([counts[ok], last[ok]])
    pmf = stats.multivariate_hypergeom.pmf(counts, m=sizes, n=m)
    extreme = np.max(np.abs(counts - expected), axis=-1) >= threshold
    return float(min(1.0, pmf[extreme].sum()))


def _coverage_inputs(p, n_test, confidence_level):
    p = np.asarray(p, dtype=float)
    if not np.all(np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(
            f"`p` must contain probabilities in [0, 1]; got {p.ravel()[:6]!r}."
        )
    n = np.asarray(n_test)
    if not np.issubdtype(n.dtype, np.integer) or np.any(n < 1):
        raise ValueError(
            f"`n_test` must contain positive integers; got {n.ravel()[:6]!r}."
        )
    level = check_fraction(confidence_level, "confidence_level")
    p, n = np.broadcast_arrays(p, n)
    return p, n, stats.norm.ppf((1 + level) / 2)


def _covers(k, n, p, z):
    # Eq. 17: ACC ± z sqrt(ACC (1 − ACC) / n); the bounds count as inside.
    acc = k / n
    half = z * np.sqrt(acc * (1 - acc) / n)
    return (acc - half <= p) & (p <= acc + half)


def normal_interval_coverage(p, n_test, *, confidence_level=0.95):
    """Exact coverage of the normal-approximation interval of a holdout accuracy.

    With ``X ~ Binomial(n_test, p)`` correct predictions (Raschka 2018, Eq. 11),
    the interval ``ACC ± z·sqrt(ACC(1 − ACC)/n_test)`` with ``ACC = X/n_test``
    (Eq. 17, :func:`~replicability.stats.bootstrap.holdout_accuracy_interval`) covers
    the true accuracy ``p`` with probability ``Σ_k P(X = k)·[p ∈ interval(k)]``,
    summed here over all ``k``. Nominal coverage is ``confidence_level``.

    Parameters
    ----------
    p : array_like
        True accuracies in ``[0, 1]``.
    n_test : array_like of int
        Test-set sizes; broadcast against ``p``.
    confidence_level : float, default 0.95

    Returns
    -------
    ndarray
        Coverage probability, shape of ``broadcast(p, n_test)``.

    Notes
    -----
    Bounds count as inside. When ``X = 0`` or ``X = n_test`` the interval has
    zero width, so for ``p`` close to 0 or 1 the coverage drops far below the
    nominal level (the interval is the Wald interval).

    References
    ----------
    L. D. Brown, T. T. Cai and A. DasGupta (2001). Interval estimation for a
    binomial proportion. Statistical Science 16(2), 101-133.
    doi:10.1214/ss/1009213286

    Examples
    --------
    >>> from replicability.stats.evaluation import normal_interval_coverage
    >>> print(round(float(normal_interval_coverage(0.5, 100)), 4))
    0.9431
    """
    p, n, z = _coverage_inputs(p, n_test, confidence_level)
    k = np.arange(int(n.max()) + 1 if n.size else 1)
    pb, nb = p[..., None], n[..., None]
    # The pmf is zero for k > n, so one k grid serves every n of the batch.
    pmf = stats.binom.pmf(k, nb, pb)
    inside = _covers(np.minimum(k, nb), nb, pb, z) & (k <= nb)
    return np.sum(pmf * inside, axis=-1)[()]


def simulate_interval_coverage(
    p, n_test, *, n_datasets=1000, confidence_level=0.95, rng=None
):
    """Share of simulated holdout intervals that cover the true accuracy.

    Draws ``n_datasets`` test sets per ``(p, n_test)``: the number of correct
    predictions is ``Binomial(n_test, p)`` (Raschka 2018, Eq. 11), and the
    interval of Eq. 17 is computed from each. The expected value of the result
    is :func:`normal_interval_coverage`.

    Parameters
    ----------
    p, n_test, confidence_level
        As in :func:`normal_interval_coverage`.
    n_datasets : int, default 1000
    rng : None, int or numpy Generator

    Returns
    -------
    ndarray
        Share of the ``n_datasets`` intervals that cover ``p``.

    Examples
    --------
    >>> from replicability.stats.evaluation import simulate_interval_coverage
    >>> print(round(float(simulate_interval_coverage(0.5, 100, n_datasets=4000, rng=1)), 2))
    0.94
    """
    p, n, z = _coverage_inputs(p, n_test, confidence_level)
    n_datasets = check_positive_int(n_datasets, "n_datasets")
    gen = np.random.default_rng(rng)
    pb, nb = p[..., None], n[..., None]
    k = gen.binomial(nb, pb, size=p.shape + (n_datasets,))
    return np.mean(_covers(k, nb, pb, z), axis=-1)[()]


def repeated_holdout_scores(
    estimator, X, y, *, n_runs=50, test_size=0.5, stratified=True, rng=None
):
    """Test accuracies of repeated holdout ("Monte Carlo cross-validation").

    Each of ``n_runs`` rounds splits the data at random (stratified by
    default), fits a clone of ``estimator`` on the training part and scores it
    on the test part (Raschka 2018, Section 2.3, Eq. 21-22; Figure 6 uses 50
    stratified splits). Their mean is ``ACC_avg`` of Eq. 21.

    Parameters
    ----------
    estimator : scikit-learn classifier
    X : array_like, shape (n, n_features)
    y : array_like, shape (n,)
    n_runs : int, default 50
    test_size : float in (0, 1) or int, default 0.5
    stratified : bool, default True
    rng : None, int or numpy Generator

    Returns
    -------
    ndarray, shape (n_runs,)

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from replicability.stats.evaluation import repeated_holdout_scores
    >>> X, y = load_iris(return_X_y=True)
    >>> acc = repeated_holdout_scores(KNeighborsClassifier(3), X, y, n_runs=10, rng=0)
    >>> acc.shape, bool(0.9 < acc.mean() <= 1)
    ((10,), True)
    """
    X, y = _check_xy(X, y)
    test_size = check_test_size(test_size)
    n_runs = check_positive_int(n_runs, "n_runs")
    gen = np.random.default_rng(rng)
    scores = np.empty(n_runs)
    for r, (train, test) in enumerate(
        _splitter(n_runs, test_size, stratified, gen).split(X, y)
    ):
        model = clone(estimator).fit(X[train], y[train])
        scores[r] = _accuracy(y[test], model.predict(X[test]))
    return scores


def learning_curve_scores(
    estimator, X_train, y_train, X_test, y_test, *, train_sizes, rng=None
):
    """Training and test accuracy of models fitted to stratified subsets of a training set.

    For each size, a stratified random subset of that many training instances is
    drawn (independently per size, so subsets may overlap), a clone of
    ``estimator`` is fitted on it and scored on the subset itself
    (resubstitution) and on the common test set, as for Raschka's (2018)
    Figure 4. A size equal to the whole training set uses all of it.

    Parameters
    ----------
    estimator : scikit-learn classifier
    X_train, y_train : array_like
        The pool the subsets are drawn from.
    X_test, y_test : array_like
        The common test set.
    train_sizes : sequence of int
        Each between the number of classes and ``len(y_train)``.
    rng : None, int or numpy Generator

    Returns
    -------
    LearningCurve

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from replicability.stats.evaluation import learning_curve_scores
    >>> X, y = load_iris(return_X_y=True)
    >>> curve = learning_curve_scores(KNeighborsClassifier(3), X[::2], y[::2], X[1::2], y[1::2],
    ...                               train_sizes=[15, 75], rng=0)
    >>> curve.test_scores.shape
    (2,)
    """
    X_train, y_train = _check_xy(X_train, y_train)
    X_test, y_test = _check_xy(X_test, y_test)
    sizes = np.asarray(train_sizes)
    n_classes = np.unique(y_train).size
    if (
        sizes.ndim != 1
        or sizes.size == 0
        or not np.issubdtype(sizes.dtype, np.integer)
        or np.any((sizes < n_classes) | (sizes > y_train.size))
    ):
        raise ValueError(
            f"`train_sizes` must be integers between the number of classes ({n_classes}) and "
            f"the training-set size ({y_train.size}); got {train_sizes!r}."
        )
    gen = np.random.default_rng(rng)
    train_scores = np.empty(sizes.size)
    test_scores = np.empty(sizes.size)
    for i, size in enumerate(sizes):
        if size == y_train.size:
            subset = np.arange(y_train.size)
        else:
            split = StratifiedShuffleSplit(
                n_splits=1, train_size=int(size), random_state=sklearn_seed(gen)
            )
            subset, _ = next(split.split(X_train, y_train))
        model = clone(estimator).fit(X_train[subset], y_train[subset])
        train_scores[i] = _accuracy(y_train[subset], model.predict(X_train[subset]))
        test_scores[i] = _accuracy(y_test, model.predict(X_test))
    return LearningCurve(
        train_sizes=sizes.astype(int),
        train_scores=train_scores,
        test_scores=test_scores,
    )
