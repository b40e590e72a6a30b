"""Confidence intervals for the prediction error from cross-validation scores.

Two intervals built from the losses of ordinary (repeated) k-fold cross-validation:

* :func:`naive_cv_interval`: the mean of the ``n`` per-point losses ± ``z`` times
  their standard deviation over ``√n``, as if the losses were independent. This is
  the "naive" interval of Bates, Hastie & Tibshirani (2024, Eq. 11), per-point
  losses and a normal quantile, as in their reference implementation;
* :func:`corrected_cv_interval`: the mean of the ``k r`` per-fold mean losses of
  ``r`` runs of k-fold cv with Nadeau & Bengio's variance correction
  ``1/(k r) + n_test/n_train`` and ``t(k r − 1)``; the interval that inverts
  :func:`~replicability.stats.ttests.corrected_repeated_cv_ttest`.

:func:`cv_losses` produces the per-point losses of repeated k-fold cv for either.
The nested cross-validation interval of Bates et al. refits the learner many times
and is in :mod:`replicability.stats.nested_cv`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special
from sklearn.base import clone

from .._results import ConfidenceInterval, unwrap_scalar
from .._validation import as_float_array, as_generator, check_fraction, check_positive_int
from .ttests import corrected_repeated_cv_ttest

__all__ = [
    "CVLosses",
    "ConfidenceInterval",
    "LOSSES",
    "corrected_cv_interval",
    "cv_fold_ids",
    "cv_losses",
    "naive_cv_interval",
]


def _squared_error(y_true, y_pred):
    return (np.asarray(y_true, dtype=float) - np.asarray(y_pred, dtype=float)) ** 2


def _zero_one(y_true, y_pred):
    return (np.asarray(y_true) != np.asarray(y_pred)).astype(float)


#: Per-point losses by name: ``loss(y_true, y_pred) -> ndarray`` of one loss per point.
LOSSES = {"squared_error": _squared_error, "zero_one": _zero_one}


def _loss_function(loss):
    """The per-point loss ``loss(y_true, y_pred) -> ndarray`` for a name in :data:`LOSSES` or a callable."""
    if callable(loss):
        return loss
    if isinstance(loss, str) and loss in LOSSES:
        return LOSSES[loss]
    raise ValueError(f"`loss` must be one of {tuple(LOSSES)} or a callable loss(y_true, y_pred); got {loss!r}.")


def _pointwise_losses(loss, y_true, y_pred):
    """``loss(y_true, y_pred)`` checked to give one finite loss per point."""
    out = np.asarray(loss(y_true, y_pred), dtype=float)
    if out.shape != np.shape(y_true) or not np.all(np.isfinite(out)):
        raise ValueError(
            f"`loss` must return one finite loss per point, shape {np.shape(y_true)}; got shape {out.shape}."
        )
    return out


def _check_xy(X, y, *, min_rows=2):
    """``X`` (2-d) and ``y`` (1-d, one value per row) as arrays, with at least ``min_rows`` rows."""
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2:
        raise ValueError(f"`X` must be a 2-d array (instances x features); got shape {X.shape}.")
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"`y` must be 1-d with one value per row of `X` ({X.shape[0]}); got shape {y.shape}.")
    if X.shape[0] < min_rows:
        raise ValueError(f"`X` must have at least {min_rows} rows; got {X.shape[0]}.")
    return X, y


def cv_fold_ids(n, n_folds, n_runs, rng):
    """Random fold labels, shape ``(n_runs, n)``: each row a permutation of ``arange(n) % n_folds``.

    Folds differ in size by at most one (as the R package ``nestedcv`` deals them,
    ``sample((1:n) %% K + 1)``). Each row uses one ``rng.permutation``, in order, so a
    caller that draws its folds through this function from the same generator
    reproduces those of :func:`cv_losses` and
    :func:`~replicability.stats.nested_cv.nested_cv_interval`.

    Parameters
    ----------
    n : int
        Number of points.
    n_folds : int
    n_runs : int
    rng : numpy Generator

    Returns
    -------
    ndarray of int, shape (n_runs, n)

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.cv_intervals import cv_fold_ids
    >>> folds = cv_fold_ids(7, 3, 2, np.random.default_rng(0))
    >>> folds.shape, np.bincount(folds[0]).tolist()
    ((2, 7), [3, 2, 2])
    """
    base = np.arange(n) % n_folds
    return np.stack([rng.permutation(base) for _ in range(n_runs)])


@dataclass(frozen=True)
class CVLosses:
    """Per-point losses of repeated k-fold cross-validation.

    Attributes
    ----------
    losses : ndarray, shape (n_runs, n)
        Loss of each point, predicted by the model fitted without its fold.
    folds : ndarray of int, shape (n_runs, n)
        Fold of each point in each repeat.
    n_folds : int
    """

    losses: np.ndarray
    folds: np.ndarray
    n_folds: int

    @property
    def fold_means(self):
        """Mean loss of each fold, shape ``(n_runs, n_folds)``: the scores of :func:`corrected_cv_interval`."""
        onehot = self.folds[..., None] == np.arange(self.n_folds)
        return np.einsum("rn,rnk->rk", self.losses, onehot) / onehot.sum(axis=-2)

    @property
    def n_test(self):
        """Mean number of points per fold, ``n / n_folds``."""
        return self.losses.shape[-1] / self.n_folds

    @property
    def n_train(self):
        """Mean number of training points per fold, ``n (n_folds − 1) / n_folds``."""
        return self.losses.shape[-1] - self.n_test


def cv_losses(estimator, X, y, *, loss="squared_error", n_folds=10, n_runs=1, rng=None):
    """Per-point losses of ``n_runs`` runs of k-fold cross-validation.

    In each run the ``n`` points are dealt at random into ``n_folds`` folds of
    near-equal size (sizes differ by at most one); a clone of ``estimator`` is fitted
    on all folds but one and predicts the held-out fold.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned for every fit; never fitted itself.
    X : array_like, shape (n, n_features)
    y : array_like, shape (n,)
    loss : {"squared_error", "zero_one"} or callable, default "squared_error"
        ``loss(y_true, y_pred)`` returning one loss per point.
    n_folds : int, default 10
        At least 2 and at most ``n``.
    n_runs : int, default 1
    rng : None, int or numpy Generator
        Source of the fold assignments.

    Returns
    -------
    CVLosses
        ``losses`` and ``folds`` of shape ``(n_runs, n)``; ``fold_means``,
        ``n_train`` and ``n_test`` for :func:`corrected_cv_interval`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from replicability.stats.cv_intervals import cv_losses
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> y = X @ [1.0, 0.0, -1.0] + rng.normal(size=40)
    >>> res = cv_losses(LinearRegression(), X, y, n_folds=5, n_runs=2, rng=1)
    >>> res.losses.shape, res.fold_means.shape, res.n_train, res.n_test
    ((2, 40), (2, 5), 32.0, 8.0)
    """
    X, y = _check_xy(X, y)
    loss = _loss_function(loss)
    n = X.shape[0]
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    if n_folds > n:
        raise ValueError(f"`n_folds` must be at most the number of rows of `X` ({n}); got {n_folds}.")
    n_runs = check_positive_int(n_runs, "n_runs")
    folds = cv_fold_ids(n, n_folds, n_runs, as_generator(rng))
    losses = np.empty((n_runs, n))
    for r in range(n_runs):
        for k in range(n_folds):
            test = folds[r] == k
            model = clone(estimator).fit(X[~test], y[~test])
            losses[r, test] = _pointwise_losses(loss, y[test], model.predict(X[test]))
    return CVLosses(losses=losses, folds=folds, n_folds=n_folds)


def naive_cv_interval(losses, *, confidence_level=0.95):
    """Naive cross-validation interval for the prediction error, from per-point losses.

    ``Err_hat ± z_{(1+level)/2} · sd(e) / √n``, with ``Err_hat`` the mean of the
    ``n`` per-point cv losses ``e_1 … e_n`` (each from the model fitted without the
    point's fold), ``sd`` their standard deviation (``ddof = 1``) and ``z`` the
    standard normal quantile: the interval that would be right if the ``n`` losses
    were independent (Bates, Hastie & Tibshirani 2024, Eq. 11). They are not —
    every point trains the models that test the others — and the interval is too
    narrow (:func:`~replicability.stats.nested_cv.nested_cv_interval` corrects it).

    Parameters
    ----------
    losses : array_like, shape (..., n)
        Per-point losses on the last axis (at least 2), e.g. one row of
        ``CVLosses.losses``; leading axes are a batch.
    confidence_level : float, default 0.95

    Returns
    -------
    ConfidenceInterval

    Notes
    -----
    Per-point, not per-fold: with per-fold mean losses the same formula on ``k``
    values would use a different standard error. Bates et al.'s reference code
    (R package ``nestedcv``, ``naive_cv``) uses per-point losses and ``qnorm``, as here.

    References
    ----------
    S. Bates, T. Hastie and R. Tibshirani (2024). Cross-validation: what does it
    estimate and how well does it do it? JASA 119(546), 1434-1445.
    doi:10.1080/01621459.2023.2197686

    Examples
    --------
    >>> from replicability.stats.cv_intervals import naive_cv_interval
    >>> ci = naive_cv_interval([0.5, 1.5, 1.0, 2.0, 0.0], confidence_level=0.9)
    >>> round(float(ci.low), 4), round(float(ci.high), 4)
    (0.4185, 1.5815)
    """
    arr = as_float_array(losses, "losses", min_last=2)
    level = check_fraction(confidence_level, "confidence_level")
    n = arr.shape[-1]
    mean = arr.mean(axis=-1)
    half = special.ndtri((1 + level) / 2) * arr.std(axis=-1, ddof=1) / np.sqrt(n)
    return ConfidenceInterval(low=unwrap_scalar(mean - half), high=unwrap_scalar(mean + half))


def corrected_cv_interval(scores, *, n_train, n_test, n_folds=None, confidence_level=0.95):
    """Corrected repeated cross-validation interval (Nadeau & Bengio 2003; Bouckaert & Frank 2004).

    For ``r`` runs of k-fold cv with per-fold scores ``x_ij`` (mean loss, or
    accuracy, of fold j of run i): ``m ± t_{(1+level)/2}(k r − 1) · sqrt((1/(k r) +
    n_test/n_train) s²)``, with ``m`` and ``s²`` the mean and unbiased variance of
    the ``k r`` scores. The term ``n_test/n_train`` is Nadeau & Bengio's allowance
    for the correlation between scores whose training sets overlap. It is the
    confidence interval of :func:`~replicability.stats.ttests.corrected_repeated_cv_ttest`
    on the scores, i.e. the set of values ``μ0`` that the test on ``x − μ0`` does not
    reject at ``1 − level``.

    Parameters
    ----------
    scores : array_like, shape (..., r, k), (r k,) or (..., r k)
        Per-fold scores, read as :func:`~replicability.stats.ttests.corrected_repeated_cv_ttest`
        reads ``x`` (e.g. :attr:`CVLosses.fold_means`).
    n_train, n_test : float or array_like
        Training and test set sizes of one fold (only their ratio is used).
    n_folds : int, optional
        Folds per run when the last axis holds all ``r k`` scores.
    confidence_level : float, default 0.95

    Returns
    -------
    ConfidenceInterval

    Notes
    -----
    The correction was derived for the variance of the difference of two learners'
    scores; applied to one learner's losses it targets the same kind of quantity,
    the expected score over training sets of size ``n_train`` (Bates et al.'s
    ``Err`` at that size), not the error of the model fitted on the data at hand.

    References
    ----------
    C. Nadeau and Y. Bengio (2003). Inference for the generalization error.
    Machine Learning 52(3), 239-281. doi:10.1023/A:1024068626366

    R. R. Bouckaert and E. Frank (2004). Evaluating the replicability of significance
    tests for comparing learning algorithms. PAKDD 2004, LNCS 3056, 3-12.
    doi:10.1007/978-3-540-24775-3_3

    Examples
    --------
    >>> from replicability.stats.cv_intervals import corrected_cv_interval
    >>> ci = corrected_cv_interval([[1.0, 1.2, 0.9], [1.1, 0.8, 1.0]], n_train=200, n_test=100)
    >>> round(float(ci.low), 4), round(float(ci.high), 4)
    (0.7032, 1.2968)
    """
    level = check_fraction(confidence_level, "confidence_level")
    res = corrected_repeated_cv_ttest(scores, n_train=n_train, n_test=n_test, n_folds=n_folds)
    return res.confidence_interval(level)
