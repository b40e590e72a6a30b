"""Batched naive Bayes and C4.5 on binary attributes, from (pattern, class) counts.

With ``p`` binary attributes there are only ``2**p`` distinct instances
("patterns"; 1024 for the 10 attributes of Bouckaert 2003/2004). A training
fold is then summarized by a count tensor of shape ``(2**p, n_classes)``, and a
fitted learner by its prediction for every pattern. The experiments need
millions of fits; these functions fit many folds at once and agree exactly
with :class:`~replicability.learners.naive_bayes.NaiveBayes` and
:class:`~replicability.learners.c45.C45` fitted on the instances.

Pattern ``i`` has attribute ``j`` equal to bit ``p - 1 - j`` of ``i`` (the
first attribute is the most significant bit), so ``pattern_matrix(p)`` lists
the patterns in lexicographic order.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_positive_int
from .fast_c45 import fit_predict as _c45_fit_predict
from .naive_bayes import _weka_nb_proba

__all__ = [
    "c45_patterns",
    "naive_bayes_patterns",
    "pattern_counts",
    "pattern_index",
    "pattern_matrix",
]


def pattern_matrix(n_attributes):
    """All ``2**n_attributes`` binary patterns, in lexicographic order.

    Parameters
    ----------
    n_attributes : int
        Number of binary attributes.

    Returns
    -------
    ndarray of shape (2**n_attributes, n_attributes), dtype int64

    Examples
    --------
    >>> from replicability.learners.fastpath import pattern_matrix
    >>> pattern_matrix(2)
    array([[0, 0],
           [0, 1],
           [1, 0],
           [1, 1]])
    """
    p = check_positive_int(n_attributes, "n_attributes")
    shifts = np.arange(p - 1, -1, -1)
    return (np.arange(2**p)[:, None] >> shifts) & 1


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
    flat = counts.reshape(-1, 2**p, counts.shape[-1])
    query = np.broadcast_to(np.arange(2**p), flat.shape[:2])
    return _naive_bayes_predict(flat, query).reshape(counts.shape[:-1])


def _naive_bayes_predict(counts, query):
    """Naive Bayes fitted on each count tensor (F, 2**p, K), predicting patterns ``query`` (F, T)."""
    k = counts.shape[-1]
    p = round(np.log2(counts.shape[-2]))
    class_count = counts.sum(axis=-2)  # (F, K)
    B = pattern_matrix(p)
    ones = np.matmul(B.T.astype(float), counts)  # (F, p, K): value-1 counts (exact: integer sums)
    n = class_count.sum(axis=-1, keepdims=True)
    shape = query.shape + (k,)
    prior = np.broadcast_to(((class_count + 1.0) / (n + k))[:, None, :], shape)
    denom = class_count + 2
    bits = B[query]  # (F, T, p)
    cond = []
    for j in range(p):
        p1 = (ones[:, j, :] + 1.0) / denom
        p0 = ((class_count - ones[:, j, :]) + 1.0) / denom
        cond.append(np.where(bits[..., j, None] == 1, p1[:, None, :], p0[:, None, :]))
    return np.argmax(_weka_nb_proba(prior, cond), axis=-1)


#: Training sets per batch of the C4.5 fast path (bounds the memory of one batch).
_C45_BATCH = 1000


def c45_patterns(counts, *, confidence=0.25, min_num_obj=2, subtree_raising=True):
    """Fit Weka's J48 on every count tensor and predict every pattern.

    Grows, collapses and prunes the trees of all count tensors together (see
    :mod:`~replicability.learners.fast_c45`), which gives the same trees as
    :class:`~replicability.learners.c45.C45` with ``n_values=2`` and
    ``n_classes=counts.shape[-1]`` fitted on the instances.

    Parameters
    ----------
    counts : array-like of shape (..., 2**n_attributes, n_classes)
        Training instances per (pattern, class).
    confidence : float, default=0.25
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
    Identical predictions to ``C45`` require the counts to be integers (numbers
    of instances, e.g. from 0/1 fold masks), because ``C45`` and this path add
    the same counts in different orders; with fractional weights the trees may
    differ where two candidate splits tie to rounding error. A training set
    without instances predicts class 0, as Weka's empty tree.

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
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence <= 0.5:
        raise ValueError(f"`confidence` must be a number in (0, 0.5]; got {confidence!r}.")
    check_positive_int(min_num_obj, "min_num_obj")
    k = counts.shape[-1]
    flat = counts.reshape(-1, 2**p, k)
    query = np.broadcast_to(np.arange(2**p), flat.shape[:2])
    out = _c45_predict(flat, query, confidence=confidence, min_num_obj=min_num_obj,
                       subtree_raising=subtree_raising)
    return out.reshape(counts.shape[:-1])


def _c45_predict(counts, query, *, confidence=0.25, min_num_obj=2, subtree_raising=True):
    """J48 fitted on each count tensor (F, 2**p, K), predicting patterns ``query`` (F, T).

    No validation (callers validate); batches of ``_C45_BATCH`` training sets.
    """
    p = round(np.log2(counts.shape[-2]))
    out = np.empty(query.shape, dtype=np.int64)
    for start in range(0, counts.shape[0], _C45_BATCH):
        stop = start + _C45_BATCH
        out[start:stop] = _c45_fit_predict(counts[start:stop], p, confidence=confidence,
                                           min_num_obj=min_num_obj, subtree_raising=subtree_raising,
                                           query=query[start:stop])
    return out
