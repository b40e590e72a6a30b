"""Compiled (numba) per-instance hits of the five learners on binary data, all folds at once.

The private engine behind :func:`~replicability.learners.pairs.evaluate_pair_fast`. Each
kernel takes one data set and a batch of folds (training and test indices,
concatenated, with the start of every fold) and returns, for every test index
of every fold, whether the learner fitted on that fold's training instances
predicts its class (a boolean "hit"). Two learners' hits on the same folds give
``correct_a, correct_b, correct_both``.

For IB1, TAN and the voted perceptron an instance is a row of binary
attributes bit-packed into an int64, ``packed = sum_j x_j 2**j`` (at most 62
attributes); naive Bayes and C4.5 take distinct rows of any width. A class is
a code ``0..K-1``. The kernels reproduce the estimators exactly:

* :class:`~replicability.learners.neighbors.IB1`: overlap distance
  ``popcount(a XOR b)``, the first training instance (in the fold's order) at
  minimal distance; integers, so exact.
* :class:`~replicability.learners.tan.TAN`: counts per (attribute pair, class), then
  Weka's BAYES scores, tree search, estimates and class distribution by the
  estimator's own compiled helpers (``tan._bayes_score``, ``tan._weka_tan_parents``,
  ``tan._log_q``, ``tan._weka_distribution_row``), summed in the estimator's order.
* :class:`~replicability.learners.perceptron.VotedPerceptron` with
  ``exponent=1``: ``v_k . x = sum_m s_m (1 + <z_m, x>)`` is an integer, kept as
  a bias and an integer weight per attribute while training; the training order
  is the estimator's permutation, passed in.
* :class:`~replicability.learners.naive_bayes.NaiveBayes` and
  :class:`~replicability.learners.c45.C45`: the fits and predictions of
  :mod:`~replicability.learners._kernels` on distinct rows (patterns), from
  each fold's training patterns and classes, scored per test instance.

Numba's cache does not notice edits of the helpers imported from ``_kernels``,
``_j48`` and ``tan``: clear ``__pycache__`` after changing them, or change this module
too (its cache is keyed on this file), as a merge of such a change does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._j48 import _c45_predict, _est_table, _fit_c45, _workspace
from ._kernels import _fold_counts, _nb_fit, _nb_predict
from .tan import _bayes_score, _log_q, _weka_distribution_row, _weka_tan_parents

__all__: list[str] = []  # private; the public entry point is replicability.learners.pairs


@njit(cache=True)
def _popcount(x):
    """Number of set bits of a non-negative int64 (SWAR; LLVM emits ``popcnt``)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    # The top byte of the (wrapping) product is the count, at most 62.
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def fold_summary(words, codes, n_classes, train, train_start):
    """Per fold: classes present, and per word the AND and OR of the packed training rows.

    ``words`` (n, W) holds each row packed into int64 words. An attribute
    takes both values in a fold's training set exactly when its bit is 0 in
    the AND and 1 in the OR.
    """
    F, W = train_start.size - 1, words.shape[1]
    present = np.zeros((F, n_classes), dtype=np.bool_)
    all_on = np.full((F, W), -1, dtype=np.int64)
    any_on = np.zeros((F, W), dtype=np.int64)
    for f in range(F):
        for i in range(train_start[f], train_start[f + 1]):
            r = train[i]
            present[f, codes[r]] = True
            for w in range(W):
                all_on[f, w] &= words[r, w]
                any_on[f, w] |= words[r, w]
    return present, all_on, any_on


# --------------------------------------------------------------------------- naive Bayes, C4.5
@njit(cache=True)
def nb_hits(bits, row, codes, n_classes, train, train_start, test, test_start):
    """Naive Bayes fitted on each fold; hit of each test instance.

    Instance ``i`` is pattern ``row[i]`` of class ``codes[i]``; fold ``f``
    trains on ``train[train_start[f]:train_start[f + 1]]`` and tests
    ``test[test_start[f]:test_start[f + 1]]`` (as ``_kernels.evaluate_folds``).
    """
    U, p = bits.shape
    K = n_classes
    hits = np.zeros(test.size, dtype=np.bool_)
    Wf = np.empty((U, K))
    prior = np.empty(K)
    cond = np.empty((2, p, K))
    probs = np.empty(K)
    for f in range(train_start.size - 1):
        _fold_counts(row, codes, train, train_start[f], train_start[f + 1], Wf)
        _nb_fit(bits, Wf, prior, cond)
        for t in range(test_start[f], test_start[f + 1]):
            hits[t] = _nb_predict(bits, row[test[t]], prior, cond, probs) == codes[test[t]]
    return hits


@njit(cache=True)
def c45_hits(bits, row, codes, n_classes, train, train_start, test, test_start, m, logt, cf, z, raising):
    """J48 fitted on each fold; hit of each test instance (see :func:`nb_hits`)."""
    U, p = bits.shape
    hits = np.zeros(test.size, dtype=np.bool_)
    work = _workspace(U, p, n_classes)
    attr, child, ndist = work[1], work[2], work[4]
    tab = _est_table()
    fbits = bits.astype(np.float64)
    Wf = np.empty((U, n_classes))
    for f in range(train_start.size - 1):
        _fold_counts(row, codes, train, train_start[f], train_start[f + 1], Wf)
        _fit_c45(bits, fbits, Wf, m, logt, cf, z, tab, raising, work)
        for t in range(test_start[f], test_start[f + 1]):
            hits[t] = _c45_predict(bits, row[test[t]], attr, child, ndist) == codes[test[t]]
    return hits


# --------------------------------------------------------------------------- IB1
@njit(cache=True)
def ib1_hits(packed, codes, train, train_start, test, test_start):
    """IB1 (overlap distance, first nearest training instance) hit of every test index.

    Every fold needs at least one training index.
    """
    hits = np.zeros(test.size, dtype=np.bool_)
    for f in range(train_start.size - 1):
        s, e = train_start[f], train_start[f + 1]
        for t in range(test_start[f], test_start[f + 1]):
            q = packed[test[t]]
            best, arg = 64, train[s]
            for i in range(s, e):
                d = _popcount(q ^ packed[train[i]])
                if d < best:  # strict: the first instance at the minimal distance wins
                    best, arg = d, train[i]
                    if d == 0:
                        break
            hits[t] = codes[arg] == codes[test[t]]
    return hits


# --------------------------------------------------------------------------- voted perceptron
@njit(cache=True)
def vp_hits(packed, n_attributes, codes, train, train_start, test, test_start, perm, perm_start,
            n_iter, max_k):
    """Voted perceptron (linear kernel, Weka's rules) hit of every test index.

    Classes are codes 0/1 and both occur in every training fold. Fold ``f``
    visits its training indices in the order
    ``train[s + perm[perm_start[f] + i]]``, ``i = 0..n_train-1`` (the
    estimator's permutation), ``n_iter`` times or until ``max_k`` mistakes.
    A constant attribute of the training fold is binarized as the estimator
    does (``tan._encode`` then ``perceptron._binarize``): value 1 of an
    attribute that is always 1 in training becomes 0 and value 0 becomes 1,
    i.e. ``z = x XOR mask`` with ``mask`` the bits set in every training row.
    """
    p = n_attributes
    hits = np.zeros(test.size, dtype=np.bool_)
    F = train_start.size - 1
    longest = 0
    for f in range(F):
        longest = max(longest, train_start[f + 1] - train_start[f])
    cap = min(max_k, longest * n_iter) + 1
    mz = np.empty(cap, dtype=np.int64)  # binarized instance of each mistake
    ms = np.empty(cap, dtype=np.int64)  # its sign s_m
    votes = np.empty(cap + 1, dtype=np.int64)
    w = np.empty(p, dtype=np.int64)
    full = (np.int64(1) << p) - 1
    for f in range(F):
        s, e = train_start[f], train_start[f + 1]
        mask = full
        for i in range(s, e):
            mask &= packed[train[i]]
        w[:] = 0
        bias, n_mis = 0, 0
        votes[0] = 0
        done = False
        for _ in range(n_iter):
            for i in range(e - s):
                idx = train[s + perm[perm_start[f] + i]]
                z = packed[idx] ^ mask
                sign = 1 if codes[idx] == 1 else -1
                # v_k . z = sum_m s_m (1 + <z_m, z>) = bias + <w, z>, integers.
                score = bias
                for j in range(p):
                    if (z >> j) & 1:
                        score += w[j]
                if (score >= 0) == (sign > 0):  # Weka predicts class 1 when the score is >= 0
                    votes[n_mis] += 1
                else:
                    mz[n_mis], ms[n_mis] = z, sign
                    n_mis += 1
                    votes[n_mis] = 1
                    bias += sign
                    for j in range(p):
                        if (z >> j) & 1:
                            w[j] += sign
                if n_mis == max_k:
                    done = True
                    break
            if done:
                break
        for t in range(test_start[f], test_start[f + 1]):
            z = packed[test[t]] ^ mask
            out = 0
            if n_mis > 0:  # without perceptrons Weka's output is 0 (class 0)
                # sum_k c_k sign(v_k . z), sign(0) = +1, v_0 = 0.
                out, partial = votes[0], 0
                for k in range(n_mis):
                    partial += ms[k] * (1 + _popcount(mz[k] & z))
                    out += votes[k + 1] if partial >= 0 else -votes[k + 1]
            hits[t] = (1 if out > 0 else 0) == codes[test[t]]
    return hits


# --------------------------------------------------------------------------- TAN
@njit(cache=True)
def tan_hits(packed, n_attributes, n_classes, codes, train, train_start, test, test_start, alpha):
    """TAN hit of every test index; both values of every attribute and every class in training.

    Weka's BAYES scores of every attribute with the class (``base``) and with the
    class and one other attribute (``score``) from the 2 x 2 x K counts, in the
    estimator's cell order, then the estimator's compiled tree search, estimates and
    class distribution (``tan._bayes_score``, ``tan._weka_tan_parents``,
    ``tan._log_q``, ``tan._weka_distribution_row``).
    """
    p, K = n_attributes, n_classes
    hits = np.zeros(test.size, dtype=np.bool_)
    nk = np.zeros(K, dtype=np.int64)
    n1 = np.zeros((p, K), dtype=np.int64)  # N(x_j = 1, c)
    n11 = np.zeros((p, p, K), dtype=np.int64)  # N(x_i = 1, x_j = 1, c), i < j
    cells = np.zeros((K, 2), dtype=np.int64)  # [c, x_h]
    pair_cells = np.zeros((2 * K, 2), dtype=np.int64)  # [2 c + x_t, x_h]
    base = np.zeros(p)
    score = np.zeros((p, p))
    table = np.empty((p, 2, 2, K))  # log P(x_j | x_parent, c), [j, x_j, x_parent, c]
    prior = np.empty(K)
    on = np.empty(p, dtype=np.int64)
    jll = np.empty(K)
    dist = np.empty(K)
    for f in range(train_start.size - 1):
        s, e = train_start[f], train_start[f + 1]
        nk[:] = 0
        n1[:, :] = 0
        n11[:, :, :] = 0
        for i in range(s, e):
            x, c = packed[train[i]], codes[train[i]]
            nk[c] += 1
            n_on = 0
            for j in range(p):
                if (x >> j) & 1:
                    on[n_on] = j
                    n_on += 1
                    n1[j, c] += 1
            for a in range(n_on):
                for b in range(a + 1, n_on):
                    n11[on[a], on[b], c] += 1
        for h in range(p):
            for c in range(K):
                cells[c, 0], cells[c, 1] = nk[c] - n1[h, c], n1[h, c]
            base[h] = _bayes_score(cells)
            for t in range(p):
                if t == h:
                    continue
                for c in range(K):
                    both = n11[min(h, t), max(h, t), c]
                    pair_cells[2 * c + 1, 1] = both
                    pair_cells[2 * c + 1, 0] = n1[t, c] - both
                    pair_cells[2 * c, 1] = n1[h, c] - both
                    pair_cells[2 * c, 0] = nk[c] - n1[h, c] - n1[t, c] + both
                score[h, t] = _bayes_score(pair_cells)
        parent = _weka_tan_parents(base, score)
        n = e - s
        for c in range(K):
            prior[c] = _log_q(nk[c] + alpha, n + alpha * K)
        for j in range(p):
            q = parent[j]
            for c in range(K):
                if q < 0:  # the root: P(x_j | c)
                    table[j, 1, 0, c] = _log_q(n1[j, c] + alpha, nk[c] + alpha * 2)
                    table[j, 0, 0, c] = _log_q(nk[c] - n1[j, c] + alpha, nk[c] + alpha * 2)
                    continue
                both = n11[min(j, q), max(j, q), c]
                pa1, pa0 = n1[q, c], nk[c] - n1[q, c]
                table[j, 1, 1, c] = _log_q(both + alpha, pa1 + alpha * 2)
                table[j, 0, 1, c] = _log_q(pa1 - both + alpha, pa1 + alpha * 2)
                table[j, 1, 0, c] = _log_q(n1[j, c] - both + alpha, pa0 + alpha * 2)
                table[j, 0, 0, c] = _log_q(pa0 - (n1[j, c] - both) + alpha, pa0 + alpha * 2)
        for t in range(test_start[f], test_start[f + 1]):
            x = packed[test[t]]
            jll[:] = 0.0
            for j in range(p):  # attribute order, then the class, as the estimator and Weka
                xj = (x >> j) & 1
                q = parent[j]
                pa = (x >> q) & 1 if q >= 0 else 0
                for c in range(K):
                    jll[c] += table[j, xj, pa, c]
            for c in range(K):
                jll[c] += prior[c]
            _weka_distribution_row(jll, dist)
            best, arg = dist[0], 0
            for c in range(1, K):  # first maximum, as np.argmax and Weka's Utils.maxIndex
                if dist[c] > best:
                    best, arg = dist[c], c
            hits[t] = arg == codes[test[t]]
    return hits
