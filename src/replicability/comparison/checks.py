"""What a comparison refuses before any fit, and how it stratifies.

Learners are compared only when they can be: each must be a scikit-learn estimator that
predicts, and without a ``scoring`` both must be of one kind, since each would otherwise
be scored by its own ``score`` (accuracy against R²). With worker processes, each must
survive pickling. Classifiers' splits are stratified whenever scikit-learn can stratify
them; when a class is too small for the folds, one warning says what was done.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.utils import get_tags
from sklearn.utils.multiclass import type_of_target

__all__ = ["check_comparable", "check_estimator", "check_picklable", "stratify"]

#: What scikit-learn needs of an estimator to clone it and fit it.
_ESTIMATOR_METHODS = ("fit", "get_params", "set_params")
_PREDICT_METHODS = ("predict", "predict_proba", "decision_function")


def check_estimator(estimator, name):
    """Raise ``TypeError`` unless ``estimator`` is a scikit-learn estimator instance that predicts."""
    if isinstance(estimator, type):
        raise TypeError(f"`{name}` must be an estimator instance; got the class {estimator.__name__} "
                        f"(pass {estimator.__name__}()).")
    missing = [m for m in _ESTIMATOR_METHODS if not callable(getattr(estimator, m, None))]
    if missing:
        raise TypeError(f"`{name}` must be a scikit-learn estimator (with {', '.join(_ESTIMATOR_METHODS)}); "
                        f"got {type(estimator).__name__}, without {', '.join(missing)}.")
    if not any(callable(getattr(estimator, m, None)) for m in _PREDICT_METHODS):
        raise TypeError(f"`{name}` must predict (a classifier or regressor); {type(estimator).__name__} has none "
                        f"of {', '.join(_PREDICT_METHODS)}.")


def _estimator_type(estimator):
    """``"classifier"``, ``"regressor"``, ... from scikit-learn's tags; None for an estimator without tags."""
    try:
        return get_tags(estimator).estimator_type
    except AttributeError:  # not derived from BaseEstimator: scikit-learn cannot tell its kind
        return None


def check_comparable(estimators, scoring):
    """Raise ``ValueError`` if learners of different kinds would each be scored by their own ``score``.

    Parameters
    ----------
    estimators : dict of str to estimator
        The learners by argument name (``estimator_a``, ...), each checked by :func:`check_estimator`.
    scoring : str, callable, list, dict or None
        The comparison's scoring; None means each estimator's own ``score``.
    """
    for name, estimator in estimators.items():
        check_estimator(estimator, name)
    if scoring is not None:
        return
    kinds = {name: _estimator_type(estimator) for name, estimator in estimators.items()}
    for name, estimator in estimators.items():
        if kinds[name] is None or not callable(getattr(estimator, "score", None)):
            raise ValueError(f"`{name}` ({type(estimator).__name__}) has no estimator type with a default score; "
                             f"pass a `scoring` (e.g. 'accuracy' or 'r2').")
    if len(set(kinds.values())) > 1:
        said = " and ".join(f"`{name}` is a {kind}" for name, kind in kinds.items())
        raise ValueError(f"{said}: each would be scored by its own `score` (accuracy against R²), which are not "
                         f"comparable; pass a `scoring` both can compute.")


def check_picklable(objects, n_jobs, backend):
    """Raise ``ValueError`` if an object cannot be sent to worker processes (``n_jobs`` other than 1, or Dask)."""
    if n_jobs == 1 and backend == "processes":
        return
    from joblib.externals.loky.backend.reduction import dumps  # what the workers are sent with

    for name, obj in objects.items():
        try:
            dumps(obj)
        except Exception as exc:  # any pickling failure: the estimator's own __reduce__ may raise anything
            raise ValueError(f"`{name}` ({type(obj).__name__}) cannot be sent to worker processes "
                             f"(n_jobs={n_jobs}, backend {backend!r}): {type(exc).__name__}: {exc}; "
                             f"use n_jobs=1.") from exc


def stratify(classifiers, y, *, n_folds=None, test_size=None, where=""):
    """Whether to stratify the splits, as scikit-learn would; one warning when a class is too small.

    Parameters
    ----------
    classifiers : bool
        Whether every learner is a classifier (regressors' splits are not stratified).
    y : ndarray
        The targets.
    n_folds : int, optional
        Folds of r x k cv: stratified k-fold needs at least one class with ``n_folds``
        members (``StratifiedKFold``); a smaller class is spread over as many folds as
        it has members, and the other folds' test sets lack it.
    test_size : float, optional
        Test fraction of random subsampling: ``StratifiedShuffleSplit`` needs every
        class to have at least 2 members, and as many test and training rows as classes.
    where : str, optional
        Prefix of the warning (``"data set 'iris': "``).

    Returns
    -------
    bool
    """
    if not classifiers or type_of_target(y) not in ("binary", "multiclass"):
        return False
    labels, counts = np.unique(y, return_counts=True)
    small = labels[np.argmin(counts)].item()  # a plain Python value, shown as the user wrote it
    if n_folds is not None:
        if counts.min() >= n_folds:
            return True
        if counts.max() < n_folds:
            warnings.warn(f"{where}every class has fewer members than the {n_folds} folds (the largest "
                          f"{counts.max()}): the folds are not stratified.", UserWarning, stacklevel=3)
            return False
        warnings.warn(f"{where}class {small!r} has {counts.min()} members, fewer than the {n_folds} folds: the "
                      f"folds are stratified as far as possible (as StratifiedKFold does), so some test folds "
                      f"lack that class; a score that needs every class is then undefined there.", UserWarning,
                      stacklevel=3)
        return True
    n_test = int(np.ceil(test_size * y.size))
    if counts.min() >= 2 and n_test >= labels.size and y.size - n_test >= labels.size:
        return True
    warnings.warn(f"{where}class {small!r} has {counts.min()} members ({labels.size} classes, {n_test} test "
                  f"rows): too few to stratify random subsampling (StratifiedShuffleSplit); the splits are not "
                  f"stratified, so some test sets may lack a class.", UserWarning, stacklevel=3)
    return False
