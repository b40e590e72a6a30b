"""Batched naive Bayes and C4.5 on binary attributes, from (pattern, class) counts.

With ``p`` binary attributes there are only ``2**p`` distinct instances
("patterns"; 1024 for the 10 attributes of Bouckaert 2003/2004). A training
fold is then summarized by a count tensor of shape ``(2**p, n_classes)``, and a
fitted learner by its prediction for every pattern. The experiments need
millions of fits; these functions fit many folds in one compiled loop
(``replicability.learners._kernels``, numba) and agree exactly with
:class:`~replicability.learners.naive_bayes.NaiveBayes` and
:class:`~replicability.learners.c45.C45` fitted on the instances.

Pattern ``i`` has attribute ``j`` equal to bit ``p - 1 - j`` of ``i`` (the
first attribute is the most significant bit), so ``pattern_matrix(p)`` lists
the patterns in lexicographic order.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.special import ndtri

from .._patterns import pattern_matrix
from .._validation import check_positive_int
from . import _kernels
from ._tree import _check_confidence_factor, _log_func

__all__ = [
    "c45_patterns",
    "naive_bayes_patterns",
    "pattern_counts",
    "pattern_index",
    "pattern_matrix",
]


def _check_binary(X):
    X = np.asarray(X)
    if X.ndim < 1 or X.shape[-1] < 1:
        raise ValueError(f"`X` must have at least one attribute on its last axis; got shape {X.shape}.")
    if X.dtype.kind not in "iub" and not (X.dtype.kind == "f" and np.all(X == np.round(X))):
        raise ValueError(f"`X` must contain binary codes 0/1; got dtype {X.dtype}.")
    if X.size and (X.min() < 0 or X.max() > 1):
        raise ValueError(f"`X` must contain binary codes 0/1; got values in [{X.min()}, {X.max()}].")
    return X.astype(np.int64)


def pattern_index(X):
    """Index of each binary row of ``X`` in :func:`pattern_matrix`.

    Parameters
    ----------
    X : array-like of shape (..., n_attributes)
        Binary attribute codes.

    Returns
    -------
    ndarray of shape (...,), dtype int64

    Examples
    --------
    >>> from replicability.learners.fastpath import pattern_index
    >>> pattern_index([[0, 0, 1], [1, 1, 0]])
    array([1, 6])
    """
    X = _check_binary(X)
    shifts = np.arange(X.shape[-1] - 1, -1, -1)
    return (X << shifts).sum(axis=-1)


def pattern_counts(X, y, *, n_classes, weights=None):
    """Count tensor over (pattern, class) for one or many training sets.

    Parameters
    ----------
    X : array-like of shape (..., n_samples, n_attributes)
        Binary attribute codes.
    y : array-like of shape (..., n_samples)
        Integer class codes ``0..n_classes-1``.
    n_classes : int
        Number of classes.
    weights : array-like of shape (..., n_samples), optional
        Non-negative instance counts, e.g. a 0/1 training mask per fold
        (broadcast against ``y``), so many folds of one data set are counted
        in one call.

    Returns
    -------
    ndarray of shape (..., 2**n_attributes, n_classes), dtype float

    Examples
    --------
    >>> from replicability.learners.fastpath import pattern_counts
    >>> pattern_counts([[0, 1], [0, 1], [1, 1]], [0, 1, 1], n_classes=2)
    array([[0., 0.],
           [1., 1.],
           [0., 0.],
           [0., 1.]])
    """
    k = check_positive_int(n_classes, "n_classes")
    idx = pattern_index(X)
    y = np.asarray(y)
    if y.dtype.kind not in "iu" or (y.size and (y.min() < 0 or y.max() >= k)):
        raise ValueError(f"`y` must hold integer class codes in [0, n_classes); got {np.unique(y)!r}.")
    if y.shape != idx.shape:
        raise ValueError(f"`y` must have shape {idx.shape} to match `X`; got {y.shape}.")
    w = np.ones(idx.shape) if weights is None else np.asarray(weights, dtype=float)
    shape = np.broadcast_shapes(idx.shape, w.shape)
    if w.size and w.min() < 0:
        raise ValueError(f"`weights` must be non-negative; got {w.min()!r}.")
    idx, y, w = (np.broadcast_to(a, shape) for a in (idx, y, w))
    n_pat = 2 ** np.asarray(X).shape[-1]
    batch = shape[:-1]
    n_batch = int(np.prod(batch))
    cell = idx * k + y + (np.arange(n_batch).reshape(batch + (1,)) * (n_pat * k))
    out = np.bincount(cell.ravel(), weights=w.ravel(), minlength=n_batch * n_pat * k)
    return out.reshape(batch + (n_pat, k))


def _check_counts(counts):
    counts = np.asarray(counts, dtype=float)
    if counts.ndim < 2:
        raise ValueError(f"`counts` must have shape (..., n_patterns, n_classes); got {counts.shape}.")
    n_pat = counts.shape[-2]
    p = round(np.log2(n_pat)) if n_pat > 0 else -1
    if p < 1 or 2**p != n_pat:
        raise ValueError(f"`counts` must have a power of two (>= 2) patterns on axis -2; got shape {counts.shape}.")
    if not np.all(np.isfinite(counts)) or counts.min() < 0:
        raise ValueError("`counts` must contain non-negative finite counts.")
    return counts, p


def naive_bayes_patterns(counts):
    """Fit Weka's naive Bayes on every count tensor and predict every pattern.

    Same model and arithmetic as :class:`~replicability.learners.naive_bayes.NaiveBayes`
    with ``n_values=2`` and ``n_classes=counts.shape[-1]``: Laplace-smoothed prior
    ``(n_c + 1)/(n + K)`` and conditionals ``(n_cjv + 1)/(n_c + 2)``, product in
    attribute order, first class wins ties.

    Parameters
    ----------
    counts : array-like of shape (..., 2**n_attributes, n_classes)
        Training instances per (pattern, class), e.g. from :func:`pattern_counts`.

    Returns
    -------
    ndarray of shape (..., 2**n_attributes), dtype int64
        Predicted class code for each pattern of :func:`pattern_matrix`.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.learners.fastpath import naive_bayes_patterns, pattern_counts
    >>> X = np.array([[0, 1], [0, 0], [1, 1], [1, 1], [1, 0]])
    >>> y = np.array([0, 0, 1, 1, 0])
    >>> naive_bayes_patterns(pattern_counts(X, y, n_classes=2))
    array([0, 0, 0, 1])
    """
    counts, p = _check_counts(counts)
    flat = np.ascontiguousarray(counts.reshape(-1, 2**p, counts.shape[-1]))
    query = np.ascontiguousarray(np.broadcast_to(np.arange(2**p), flat.shape[:2]))
    bits = pattern_matrix(p).astype(np.int8)
    return _kernels.nb_predict_folds(bits, flat, query).reshape(counts.shape[:-1])


def _c45_args(confidence_factor, min_num_obj, n_max):
    """Validated J48 options as the kernels take them: ``(m, logt, cf, z)``.

    ``logt[i] = c45._log_func(i)`` for the integer counts ``0..n_max``
    (the same numpy logarithm as :class:`~replicability.learners.c45.C45`);
    ``cf`` is the confidence factor stored as a float, as Weka; ``z = ndtri(1 - cf)``.
    """
    confidence_factor = _check_confidence_factor(confidence_factor)
    m = float(check_positive_int(min_num_obj, "min_num_obj"))
    cf = float(np.float32(confidence_factor))  # Weka stores CF as a float
    return m, _log_table(int(n_max)), cf, _z(cf)


@functools.lru_cache(maxsize=16)
def _log_table(n_max):
    """``_log_func`` of ``0..n_max``, computed once per size (shared: the kernels only read it)."""
    return _log_func(np.arange(n_max + 1, dtype=float))


@functools.lru_cache(maxsize=16)
def _z(cf):
    return float(ndtri(1 - cf))


def c45_patterns(counts, *, confidence_factor=0.25, min_num_obj=2, subtree_raising=True):
    """Fit Weka's J48 on every count tensor and predict every pattern.

    Grows, collapses and prunes one tree per count tensor in a compiled loop
    (``replicability.learners._kernels``), which gives the same trees as
    :class:`~replicability.learners.c45.C45` with ``n_values=2`` and
    ``n_classes=counts.shape[-1]`` fitted on the instances.

    Parameters
    ----------
    counts : array-like of shape (..., 2**n_attributes, n_classes)
        Training instances per (pattern, class): non-negative integers.
    confidence_factor : float, default=0.25
        Pruning confidence factor (Weka ``-C``).
    min_num_obj : int, default=2
        Minimum instances per branch (Weka ``-M``).
    subtree_raising : bool, default=True
        Subtree raising during pruning.

    Returns
    -------
    ndarray of shape (..., 2**n_attributes), dtype int64
        Predicted class code for each pattern of :func:`pattern_matrix`.

    Notes
    -----
    The counts must be integers (numbers of instances, e.g. from 0/1 fold
    masks): the kernel takes ``num * log2(num)`` from a table over the integers
    and relies on integer sums being exact in any order, which makes its trees
    identical to ``C45``'s. A training set without instances predicts class 0,
    as Weka's empty tree.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.learners.fastpath import c45_patterns, pattern_counts
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, size=(60, 2))
    >>> c45_patterns(pattern_counts(X, X[:, 0], n_classes=2))
    array([0, 0, 1, 1])
    """
    counts, p = _check_counts(counts)
    if not np.all(counts == np.round(counts)):
        raise ValueError("`counts` must hold integer counts (numbers of instances) for C4.5.")
    k = counts.shape[-1]
    flat = np.ascontiguousarray(counts.reshape(-1, 2**p, k))
    n_max = flat.sum(axis=(1, 2)).max() if flat.shape[0] else 0
    m, logt, cf, z = _c45_args(confidence_factor, min_num_obj, n_max)
    query = np.ascontiguousarray(np.broadcast_to(np.arange(2**p), flat.shape[:2]))
    bits = pattern_matrix(p).astype(np.int8)
    out = _kernels.c45_predict_folds(bits, flat, query, m, logt, cf, z, bool(subtree_raising))
    return out.reshape(counts.shape[:-1])
