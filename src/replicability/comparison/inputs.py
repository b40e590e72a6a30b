"""A comparison's inputs as scikit-learn takes them: data kept as given, any splitter, fit parameters.

``X`` stays what the user passed (a DataFrame keeps its column names and dtypes for a
``ColumnTransformer`` or ``categorical_features="from_dtype"``; a sparse matrix stays
sparse); rows are taken with scikit-learn's ``_safe_indexing``, as ``cross_validate``
takes them. A splitter given as ``cv`` is repeated under every randomization with a
fresh ``random_state``; its splits are laid out as runs of folds when each run's test
sets partition the data (k-fold), else as independent splits (random subsampling).
"""

from __future__ import annotations

import copy

import numpy as np
from sklearn.utils import _safe_indexing
from sklearn.utils.validation import _num_samples

__all__ = ["as_data", "as_datasets", "check_cv", "cv_layout", "cv_splits", "fit_rows", "named_estimators",
           "randomizable"]


def _shape(obj):
    return getattr(obj, "shape", None) or np.shape(obj)


def as_data(X, y, groups):
    """``X`` and ``y`` kept as given (lists made arrays), ``groups`` an array; one row each, checked."""
    if not hasattr(X, "shape"):
        X = np.asarray(X)
    if not (hasattr(y, "shape") and hasattr(y, "iloc")):  # a pandas Series stays one
        y = np.asarray(y)
    if len(_shape(X)) != 2 or len(_shape(y)) != 1 or _shape(X)[0] != _shape(y)[0]:
        raise ValueError(f"`X` must be 2-d and `y` 1-d with one label per row; got shapes {tuple(_shape(X))} "
                         f"and {tuple(_shape(y))}.")
    if groups is not None:
        groups = np.asarray(groups)
        if groups.shape != (_shape(X)[0],):
            raise ValueError(f"`groups` must hold one label per row of `X` ({_shape(X)[0]}); got shape "
                             f"{groups.shape}.")
    return X, y, groups


def check_cv(cv):
    """Raise ``TypeError`` unless ``cv`` is None or a scikit-learn splitter (``split`` and ``get_n_splits``)."""
    if cv is not None and not (callable(getattr(cv, "split", None)) and callable(getattr(cv, "get_n_splits", None))):
        raise TypeError(f"`cv` must be a scikit-learn splitter (with split and get_n_splits); got {cv!r}.")
    return cv


def as_datasets(datasets):
    """``(name, X, y, groups)`` per data set of ``compare_many``: each checked by :func:`as_data`, named in errors.

    A data set is ``(X, y)``, ``(X, y, groups)`` or an object with attributes ``X``,
    ``y`` (and optionally ``groups``), in a dict by name or a sequence (named by
    their ``name`` attribute, else by position); at least two.
    """
    items = list(datasets.items()) if isinstance(datasets, dict) else [
        (getattr(d, "name", f"data set {i}"), d) for i, d in enumerate(datasets)]
    out = []
    for name, data in items:
        if hasattr(data, "X") and hasattr(data, "y"):
            X, y, groups = data.X, data.y, getattr(data, "groups", None)
        elif isinstance(data, tuple) and len(data) in (2, 3):
            X, y, groups = (*data, None)[:3]
        else:
            raise ValueError(f"data set {name!r} must be (X, y), (X, y, groups) or have attributes X and y; "
                             f"got {type(data).__name__}.")
        try:
            X, y, groups = as_data(X, y, groups)
        except ValueError as exc:
            raise ValueError(f"data set {name!r}: {exc}") from None
        out.append((str(name), X, y, groups))
    if len(out) < 2:
        raise ValueError(f"`datasets` must hold at least 2 data sets; got {len(out)}.")
    return out


def fit_rows(fit_params, n_samples, rows):
    """The fit parameters of a training set: those with one value per sample taken at ``rows``.

    As scikit-learn's ``cross_validate`` does with ``params``: a sample weight is
    indexed like ``X``, any other value is passed unchanged.
    """
    out = {}
    for name, value in fit_params.items():
        aligned = hasattr(value, "__len__") and not isinstance(value, (str, dict)) and _num_samples(value) == n_samples
        out[name] = _safe_indexing(value, rows) if aligned else value
    return out


def randomizable(cv):
    """Whether a splitter's splits change with its ``random_state`` (not with ``shuffle=False``)."""
    return hasattr(cv, "random_state") and getattr(cv, "shuffle", True) is not False


def cv_splits(cv, seed, X, y, groups):
    """Yield the splits of splitter ``cv`` with ``random_state=seed`` (a copy; ``cv`` is not changed), as drawn."""
    splitter = copy.deepcopy(cv)
    if randomizable(cv):
        splitter.random_state = seed
    for train, test in splitter.split(X, y, groups):
        yield np.asarray(train), np.asarray(test)


def cv_layout(cv, splits, n_samples):
    """``("cv", r, k)`` when each of ``r`` runs' ``k`` test sets partition the rows, else ``("resampling", m, 1)``.

    ``splits`` may be an iterator: it is read once, holding one run's count of each
    row's test memberships, not the splits. ``r`` is the splitter's ``n_repeats``
    (``RepeatedKFold``: its ``get_n_splits()`` then gives ``r k``), else 1.
    """
    r = getattr(cv, "n_repeats", 1)
    k = None
    if isinstance(r, int) and r > 1:
        try:
            m = cv.get_n_splits()
        except (TypeError, ValueError):  # a splitter that needs the data to count its splits
            m = None
        k = m // r if isinstance(m, int) and m % r == 0 and m > 0 else None
    counts, runs_partition, given = np.zeros(n_samples, dtype=np.int64), True, 0
    for given, (_, test) in enumerate(splits, start=1):
        counts += np.bincount(test, minlength=n_samples)
        if k is not None and given % k == 0:  # a run's test sets partition the rows: each row tested once
            runs_partition &= bool(np.all(counts == 1))
            counts[:] = 0
    if given < 2:
        raise ValueError(f"`cv` must give at least 2 splits; {cv!r} gives {given}.")
    if k is None:  # one run of all the splits
        r, k, runs_partition = 1, given, bool(np.all(counts == 1))
    elif given != r * k:  # not the runs it stated: independent splits
        r, k, runs_partition = 1, given, False
    return ("cv", r, k) if runs_partition and k >= 2 else ("resampling", given, 1)


def named_estimators(estimators):
    """``(name, estimator)`` pairs of a dict (by its names) or a list (by class name, made unique: ``SVC``, ``SVC 2``).

    At least two, each with a ``fit``; else ``ValueError``.
    """
    if isinstance(estimators, dict):
        items = [(str(name), est) for name, est in estimators.items()]
    else:
        items, seen = [], {}
        for est in estimators:
            base = type(est).__name__
            seen[base] = seen.get(base, 0) + 1
            items.append((base if seen[base] == 1 else f"{base} {seen[base]}", est))
    if len(items) < 2 or not all(hasattr(est, "fit") for _, est in items):
        raise ValueError(f"`estimators` must hold at least 2 scikit-learn estimators (a dict by name or a list); "
                         f"got {estimators!r}.")
    return items
