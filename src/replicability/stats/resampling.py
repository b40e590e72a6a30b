"""Resampling: what a bootstrap sample holds, what subsampling does to a sample, and the bootstrap estimators.

Raschka (2018, Section 2): the probability that an instance enters a bootstrap
sample (Section 2.4, Eq. 32-33, Figure 9), the moments of random subsamples
(Section 2.2, Figure 5), and a study of the bootstrap estimators against a large
test set whose accuracy is taken as the truth (Section 2.4, Eq. 34-37).
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold

from .._validation import check_positive_int, sklearn_seed
from .bootstrap import _accuracy, _plus_weights, bootstrap_oob_scores

__all__ = ["bootstrap_inclusion_probability", "compare_accuracy_estimates", "subsample_moments"]


def bootstrap_inclusion_probability(n):
    """Probability that a given instance is drawn into a bootstrap sample of size ``n``.

    ``P(chosen) = 1 − (1 − 1/n)^n`` (Raschka 2018, Eq. 33), which falls to
    ``1 − 1/e ≈ 0.632`` as ``n → ∞``; ``1 − P(chosen)`` is the expected share of
    out-of-bag instances (Eq. 32; 0.368·n, ERRATA: printed 0.382·n).

    Parameters
    ----------
    n : array_like of int
        Data-set sizes (at least 1).

    Returns
    -------
    ndarray or float

    Examples
    --------
    >>> from replicability.stats.resampling import bootstrap_inclusion_probability
    >>> print(round(float(bootstrap_inclusion_probability(10)), 4))
    0.6513
    """
    arr = np.asarray(n)
    if not np.issubdtype(arr.dtype, np.integer) or np.any(arr < 1):
        raise ValueError(
            f"`n` must contain positive integers; got {arr.ravel()[:6]!r}."
        )
    # expm1/log1p keep the value accurate for huge n, where (1 − 1/n)^n loses digits.
    # n = 1 gives log1p(-1) = -inf and exp(-inf) = 0: probability 1, as it should be.
    with np.errstate(divide="ignore"):
        return (-np.expm1(arr * np.log1p(-1.0 / arr)))[()]


def subsample_moments(X, sizes, *, n_runs=100, rng=None):
    """Means and covariance matrices of random subsamples of a data set.

    Raschka (2018, Section 2.2, Figure 5) warns that every resampling changes the
    statistics of the sample along the feature axes, and more so for small
    samples. This draws ``n_runs`` subsamples without replacement of each size
    in ``sizes`` and returns their means and (``ddof=1``) covariance matrices, whose
    spread around the full data set's moments measures that change. Without
    replacement, the variance of a subsample mean of size ``m`` from ``n`` rows is
    ``s² (1/m − 1/n)`` per feature (finite-population correction).

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    sizes : sequence of int
        Subsample sizes, each in ``[2, n_samples]``.
    n_runs : int, default=100
        Subsamples per size.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    xarray.Dataset
        ``mean`` (size, repeat, feature) and ``cov`` (size, repeat, feature,
        feature_2) of each subsample.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.resampling import subsample_moments
    >>> X = np.random.default_rng(0).normal(size=(1000, 2))
    >>> ds = subsample_moments(X, [20, 500], n_runs=200, rng=1)
    >>> spread = ds["mean"].std(("repeat", "feature")).values
    >>> bool(spread[0] > 3 * spread[1])
    True
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or not np.all(np.isfinite(X)):
        raise ValueError(f"`X` must be a finite 2-D array; got shape {X.shape}.")
    check_positive_int(n_runs, "n_runs")
    sizes = np.asarray(sizes)
    if sizes.ndim != 1 or not np.issubdtype(sizes.dtype, np.integer) or np.any(sizes < 2) or np.any(
        sizes > X.shape[0]
    ):
        raise ValueError(f"`sizes` must be integers in [2, {X.shape[0]}]; got {sizes!r}.")
    gen = np.random.default_rng(rng)
    d = X.shape[1]
    means = np.empty((sizes.size, n_runs, d))
    covs = np.empty((sizes.size, n_runs, d, d))
    for i, m in enumerate(sizes):
        # One permutation per repeat, sorted keys: (n_runs, m) row indices.
        rows = np.argsort(gen.random((n_runs, X.shape[0])), axis=1)[:, :m]
        sub = X[rows]  # (n_runs, m, d)
        means[i] = sub.mean(axis=1)
        centred = sub - means[i][:, None, :]
        # summed over the subsample in a fixed order (einsum's SIMD loops are not)
        covs[i] = (centred[:, :, :, None] * centred[:, :, None, :]).sum(axis=1) / (m - 1)
    return xr.Dataset(
        {
            "mean": (("size", "repeat", "feature"), means),
            "cov": (("size", "repeat", "feature", "feature_2"), covs),
        },
        coords={"size": sizes.astype(int)},
    )


_ESTIMATES = (
    "resubstitution",
    "oob",
    "b632",
    "b632_plus",
    "b632_plus_raschka",
    "cv",
)


def compare_accuracy_estimates(
    estimator,
    *,
    n_train,
    n_truth,
    n_datasets,
    n_splits=200,
    n_folds=10,
    rng=None,
    data_params=None,
):
    """Bootstrap and cross-validation accuracy estimates beside the true accuracy.

    One call to ``sklearn.datasets.make_classification`` draws
    ``n_truth + n_datasets · n_train`` instances of one problem: the first
    ``n_truth`` form a large test set whose accuracy is taken as the truth, the
    rest ``n_datasets`` independent training sets. On each training set the
    function computes the resubstitution accuracy of a model fitted on all of
    it, the out-of-bag, .632 and .632+ bootstrap estimates (Raschka 2018,
    Eq. 34-37; .632+ in both variants of
    :func:`~replicability.stats.bootstrap.bootstrap_632_plus`, from the same
    ``n_splits`` bootstrap rounds), and stratified ``n_folds``-fold
    cross-validation; the truth is the accuracy of the model fitted on the whole
    training set, on the large test set.

    Parameters
    ----------
    estimator : scikit-learn classifier
    n_train : int
        Size of each training set.
    n_truth : int
        Size of the large test set.
    n_datasets : int
        Number of training sets.
    n_splits : int, default 200
        Bootstrap rounds per training set.
    n_folds : int, default 10
    rng : None, int or numpy Generator
    data_params : dict, optional
        Extra keyword arguments of ``make_classification`` (e.g. ``n_features``,
        ``flip_y``, ``class_sep``).

    Returns
    -------
    xarray.Dataset
        Variables ``truth`` and ``estimate`` (dimension ``kind`` holding
        resubstitution, oob, b632, b632_plus, b632_plus_raschka, cv), each per
        ``dataset``. The Raschka .632+ variant averages per-round values that
        can be infinite or NaN; it is stored as computed.

    Notes
    -----
    ``make_classification`` draws a fixed number of instances per cluster and
    shuffles them, so the training sets are random draws without replacement
    from one large balanced pool, close to independent draws for a large pool.

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from replicability.stats.resampling import compare_accuracy_estimates
    >>> ds = compare_accuracy_estimates(KNeighborsClassifier(1), n_train=40, n_truth=100,
    ...                                 n_datasets=2, n_splits=5, n_folds=5, rng=0)
    >>> ds["estimate"].shape
    (2, 6)
    >>> float(ds["estimate"].sel(kind="resubstitution")[0])
    1.0
    """
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    # Each class needs at least n_folds instances for stratified k-fold.
    n_train = check_positive_int(n_train, "n_train", minimum=2 * n_folds)
    n_truth = check_positive_int(n_truth, "n_truth")
    n_datasets = check_positive_int(n_datasets, "n_datasets")
    n_splits = check_positive_int(n_splits, "n_splits")
    params = {} if data_params is None else dict(data_params)
    if "n_samples" in params or "random_state" in params:
        raise ValueError(
            f"`data_params` must not set `n_samples` or `random_state` (they follow from the other "
            f"arguments); got {sorted(params)!r}."
        )
    gen = np.random.default_rng(rng)
    X, y = make_classification(
        n_samples=n_truth + n_datasets * n_train, random_state=sklearn_seed(gen), **params
    )
    X_truth, y_truth = X[:n_truth], y[:n_truth]
    truth = np.empty(n_datasets)
    estimates = np.empty((n_datasets, len(_ESTIMATES)))
    for d in range(n_datasets):
        rows = slice(n_truth + d * n_train, n_truth + (d + 1) * n_train)
        Xd, yd = X[rows], y[rows]
        full = clone(estimator).fit(Xd, yd)
        truth[d] = _accuracy(y_truth, full.predict(X_truth))
        boot = bootstrap_oob_scores(
            estimator, Xd, yd, n_splits=n_splits, rng=sklearn_seed(gen)
        )
        err_oob, err_resub = 1 - boot.oob, 1 - boot.resubstitution
        plus = {}
        for variant in ("efron-tibshirani", "raschka"):
            # The same rounds feed both variants (Eq. 35-37), as bootstrap_632_plus would.
            w, e_oob = _plus_weights(err_oob, err_resub, boot.no_information, variant)
            with np.errstate(invalid="ignore"):
                plus[variant] = np.mean(1 - (w * e_oob + (1 - w) * err_resub))
        folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=sklearn_seed(gen))
        correct = 0
        for train, test in folds.split(Xd, yd):
            model = clone(estimator).fit(Xd[train], yd[train])
            correct += int(np.sum(model.predict(Xd[test]) == yd[test]))
        estimates[d] = [
            _accuracy(yd, full.predict(Xd)),
            boot.oob.mean(),
            np.mean(0.632 * boot.oob + 0.368 * boot.resubstitution),  # Eq. 34
            plus["efron-tibshirani"],
            plus["raschka"],
            correct / n_train,  # pooled over folds: every instance tested once
        ]
    return xr.Dataset(
        {
            "truth": (("dataset",), truth),
            "estimate": (("dataset", "kind"), estimates),
        },
        coords={"dataset": np.arange(n_datasets), "kind": list(_ESTIMATES)},
    )
