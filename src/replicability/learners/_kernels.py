"""Compiled (numba) naive Bayes and J48 on binary attributes, fold by fold.

The private engine behind :func:`~replicability.learners.fastpath.c45_patterns`,
:func:`~replicability.learners.fastpath.naive_bayes_patterns` and
:func:`~replicability.learners.pairs.evaluate_nb_c45`. A data set is summarized by its
distinct rows ("patterns"; at most 300 for 300 instances), their binary
attribute values ``bits`` of shape (U, p) (any number of attributes), and per
training set (fold) the class counts of every pattern, of shape (U, K): rows
of ``W`` (F, U, K) for the fast-path API, or counted per fold from the fold's
training patterns and classes (``evaluate_folds``), or, for runs of k-fold cv
given by fold labels, from the run's counts less the test fold's
(``evaluate_runs``: no training indices). Each kernel loops over the
folds; a fold grows, collapses and prunes one tree on the rows with a non-zero
count (:mod:`~replicability.learners._j48`, which says how it stays identical
to :class:`~replicability.learners.c45.C45`), then predicts.

The helpers that only read and write their arguments are compiled without
numba's reference counting (``_nrt=False``), as in ``_j48``. Numba's cache
does not notice edits of the helpers imported from ``_j48``: clear
``__pycache__`` after changing them, or change this module too (its cache is keyed
on this file), as a merge of such a change does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._j48 import _c45_predict, _est_table, _fit_c45, _workspace

__all__: list[str] = []  # private; the public entry points are in fastpath and pairs

_TINY = 1e-75  # Weka's NaiveBayes floor, as naive_bayes._TINY


# --------------------------------------------------------------------------- rows
@njit(cache=True)
def pack_rows(X, word_bits):
    """Rows of integer codes packed into int64 words, and whether every code is 0 or 1.

    Attribute ``j`` is bit ``j % word_bits`` of word ``j // word_bits`` (the
    words of :class:`~replicability.learners.pairs._BinaryData`), checked and
    packed in one pass over ``X`` (n, p).

    Returns
    -------
    words : ndarray of int64, shape (n, ceil(p / word_bits))
        Meaningful only when ``binary``.
    binary : bool
    """
    n, p = X.shape
    words = np.zeros((n, (p + word_bits - 1) // word_bits), np.int64)
    binary = True
    for i in range(n):
        for j in range(p):
            v = X[i, j]
            binary &= (v == 0) | (v == 1)
            words[i, j // word_bits] |= np.int64(v & 1) << (j % word_bits)
    return words, binary


@njit(cache=True)
def distinct_rows(packed, order, n_attributes):
    """Distinct rows of one-word packed rows, in ascending order of their words, and each row's distinct row.

    ``order`` sorts ``packed`` (``np.argsort(packed)``, in numpy: numba's sort
    took about 2 s to compile on the engine's first call).

    Returns
    -------
    bits : ndarray of int8, shape (U, n_attributes)
        Attribute ``j`` of distinct row ``u`` is bit ``j`` of its word.
    row : ndarray of int64, shape (n,)
        ``np.searchsorted(distinct, packed)``: the position of each row's word among the distinct words.
    """
    row = np.empty(packed.size, np.int64)
    distinct = np.empty(packed.size, np.int64)
    n_distinct = 0
    for t in range(packed.size):
        word = packed[order[t]]
        if n_distinct == 0 or word != distinct[n_distinct - 1]:
            distinct[n_distinct] = word
            n_distinct += 1
        row[order[t]] = n_distinct - 1
    bits = np.empty((n_distinct, n_attributes), np.int8)
    for u in range(n_distinct):
        for j in range(n_attributes):
            bits[u, j] = (distinct[u] >> j) & 1
    return bits, row


# --------------------------------------------------------------------------- naive Bayes
@njit(cache=True)
def _nb_fit(bits, Wf, prior, cond):
    """Weka's NaiveBayes on one training set: class prior and per-value conditionals.

    ``prior[k] = (n_k + 1) / (n + K)``; ``cond[v, j, k] = (n_kjv + 1) / (n_k + 2)``
    floored at 1e-75 as Weka multiplies them (naive_bayes._weka_nb_proba).
    """
    U, p = bits.shape
    K = Wf.shape[1]
    class_count = np.zeros(K)
    ones = np.zeros((K, p))
    for u in range(U):
        for k in range(K):
            w = Wf[u, k]
            if w != 0.0:
                class_count[k] += w
                for j in range(p):
                    ones[k, j] += w * bits[u, j]
    _nb_from_counts(class_count, ones, prior, cond)


@njit(cache=True, _nrt=False)
def _nb_from_counts(class_count, ones, prior, cond):
    """``_nb_fit`` from the class counts and ``ones[k, j]``, the class-``k`` count of value 1 of ``j``.

    ``evaluate_folds`` passes the J48 root's counts: integers, so equal to
    ``_nb_fit``'s whatever order they were summed in.
    """
    K, p = ones.shape
    n = 0.0
    for k in range(K):
        n += class_count[k]
    for k in range(K):
        prior[k] = (class_count[k] + 1.0) / (n + K)
        denom = class_count[k] + 2
        for j in range(p):
            cond[1, j, k] = max(_TINY, (ones[k, j] + 1.0) / denom)
            cond[0, j, k] = max(_TINY, ((class_count[k] - ones[k, j]) + 1.0) / denom)


@njit(cache=True, _nrt=False, forceinline=True)
def _nb_predict(bits, u, prior, cond, probs):
    """Weka's NaiveBayes.distributionForInstance for pattern ``u``; first class wins ties.

    The product runs in attribute order with Weka's 1e75 rescaling of tiny
    products, then is normalized by the sequential sum (naive_bayes._weka_nb_proba).
    """
    K = prior.size
    p = bits.shape[1]
    for k in range(K):
        probs[k] = prior[k]
    for j in range(p):
        v = bits[u, j]
        mx = -np.inf
        for k in range(K):
            probs[k] *= cond[v, j, k]
            mx = max(mx, probs[k])
        if mx > 0 and mx < _TINY:
            for k in range(K):
                probs[k] *= 1e75
    total = 0.0
    for k in range(K):
        total = total + probs[k]
    best, arg = -np.inf, 0
    for k in range(K):
        v = probs[k] / total
        if v > best:
            best, arg = v, k
    return arg


@njit(cache=True)
def nb_predict_folds(bits, W, query):
    """Naive Bayes fitted on each ``W[f]`` (U, K); predicted class of rows ``query[f]``."""
    F, U, K = W.shape
    p = bits.shape[1]
    out = np.zeros(query.shape, dtype=np.int64)
    prior = np.empty(K)
    cond = np.empty((2, p, K))
    probs = np.empty(K)
    for f in range(F):
        _nb_fit(bits, W[f], prior, cond)
        for t in range(query.shape[1]):
            out[f, t] = _nb_predict(bits, query[f, t], prior, cond, probs)
    return out


@njit(cache=True, _nrt=False)
def _fold_counts(row, codes, train, start, end, Wf):
    """``Wf[u, k]``: instances ``train[start:end]`` of pattern ``u`` (``row``) and class ``k`` (``codes``)."""
    Wf[:, :] = 0.0
    for t in range(start, end):
        i = train[t]
        Wf[row[i], codes[i]] += 1.0


@njit(cache=True, _nrt=False)
def _complete(class_count, ones):
    """Whether every class and both values of every attribute occur in the counts (integers)."""
    n = 0.0
    for k in range(class_count.size):
        if class_count[k] == 0:
            return False
        n += class_count[k]
    for j in range(ones.shape[1]):
        n_one = 0.0
        for k in range(ones.shape[0]):
            n_one += ones[k, j]
        if n_one == 0 or n_one == n:
            return False
    return True


@njit(cache=True)
def c45_predict_folds(bits, W, query, m, logt, cf, z, raising):
    """J48 fitted on each ``W[f]`` (U, K); predicted class of rows ``query[f]``."""
    F, U, K = W.shape
    out = np.zeros(query.shape, dtype=np.int64)
    work = _workspace(U, bits.shape[1], K)
    attr, child, ndist = work[1], work[2], work[4]
    tab = _est_table()
    fbits = bits.astype(np.float64)
    for f in range(F):
        _fit_c45(bits, fbits, W[f], m, logt, cf, z, tab, raising, work)
        for t in range(query.shape[1]):
            out[f, t] = _c45_predict(bits, query[f, t], attr, child, ndist)
    return out


@njit(cache=True, _nrt=False, inline="always")
def _score_fold(bits, fbits, Wf, row, codes, test, start, end, m, logt, cf, z, tab, raising, work, prior, cond,
                probs, out):
    """Fit both learners on the counts ``Wf``; count their hits on instances ``test[start:end]`` into ``out``.

    ``out`` is the fold's row of ``evaluate_folds``: correct counts of naive
    Bayes, J48 and both, and whether the fold is modelled.
    """
    attr, child, ndist, root_ones = work[1], work[2], work[4], work[5][0]
    _fit_c45(bits, fbits, Wf, m, logt, cf, z, tab, raising, work)
    _nb_from_counts(ndist[0], root_ones, prior, cond)  # the training set's counts: the root's
    out[3] = _complete(ndist[0], root_ones)
    for t in range(start, end):
        u, c = row[test[t]], codes[test[t]]
        hit_a = _nb_predict(bits, u, prior, cond, probs) == c
        hit_b = _c45_predict(bits, u, attr, child, ndist) == c
        out[0] += hit_a
        out[1] += hit_b
        out[2] += hit_a and hit_b


@njit(cache=True)
def evaluate_folds(bits, row, codes, n_classes, train, train_start, test, test_start, m, logt, cf, z, raising):
    """Correct counts (naive Bayes, J48, both) of every fold on its test instances, and whether it is modelled.

    Instance ``i`` is pattern ``row[i]`` (a row of ``bits``) of class
    ``codes[i]`` (below ``n_classes``). Fold ``f`` trains on the instances
    ``train[train_start[f]:train_start[f + 1]]`` and tests the instances
    ``test[test_start[f]:test_start[f + 1]]``. Column 3 is 1 when every class
    and both values of every attribute occur in the fold's training set (then
    the estimators fix the classes and categories the kernel assumes), read
    from the root's counts; the counts of the other folds are not the estimators'.
    """
    U, p = bits.shape
    K, F = n_classes, train_start.size - 1
    out = np.zeros((F, 4), dtype=np.int64)
    work = _workspace(U, p, K)
    tab = _est_table()
    fbits = bits.astype(np.float64)
    Wf = np.empty((U, K))
    prior, cond, probs = np.empty(K), np.empty((2, p, K)), np.empty(K)
    for f in range(F):
        _fold_counts(row, codes, train, train_start[f], train_start[f + 1], Wf)
        _score_fold(bits, fbits, Wf, row, codes, test, test_start[f], test_start[f + 1], m, logt, cf, z, tab,
                    raising, work, prior, cond, probs, out[f])
    return out


@njit(cache=True)
def evaluate_runs(bits, row, codes, n_classes, folds, n_folds, m, logt, cf, z, raising):
    """``evaluate_folds`` of runs of k-fold cv given by fold labels: ``folds[r, i]`` is the fold of instance ``i``.

    Split ``r * n_folds + f`` tests the instances of run ``r`` labelled ``f``
    and trains on the others (labels in ``[0, n_folds)``). A training set's
    counts are the run's minus its test fold's: integers, so equal to counting
    its instances; no training indices are written.
    """
    U, p = bits.shape
    K = n_classes
    n_runs, n = folds.shape
    out = np.zeros((n_runs * n_folds, 4), dtype=np.int64)
    work = _workspace(U, p, K)
    tab = _est_table()
    fbits = bits.astype(np.float64)
    Wrun, Wf = np.empty((U, K)), np.empty((U, K))
    prior, cond, probs = np.empty(K), np.empty((2, p, K)), np.empty(K)
    order = np.empty(n, np.int64)  # the run's instances by fold (each fold ascending)
    start = np.empty(n_folds + 1, np.int64)
    at = np.empty(n_folds, np.int64)
    for r in range(n_runs):
        start[:] = 0
        for i in range(n):
            start[folds[r, i] + 1] += 1
        for f in range(n_folds):
            start[f + 1] += start[f]
            at[f] = start[f]
        for i in range(n):
            order[at[folds[r, i]]] = i
            at[folds[r, i]] += 1
        _fold_counts(row, codes, order, 0, n, Wrun)
        for f in range(n_folds):
            for u in range(U):  # loops, not an array assignment: its error message is slow to compile
                for k in range(K):
                    Wf[u, k] = Wrun[u, k]
            for t in range(start[f], start[f + 1]):
                Wf[row[order[t]], codes[order[t]]] -= 1.0
            _score_fold(bits, fbits, Wf, row, codes, order, start[f], start[f + 1], m, logt, cf, z, tab,
                        raising, work, prior, cond, probs, out[r * n_folds + f])
    return out
