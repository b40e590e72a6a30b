"""Compiled cv splits: scikit-learn's shuffles drawn as numpy's legacy ``RandomState`` draws them, and Weka's.

``StratifiedKFold(shuffle=True)`` shuffles the fold labels of each class with
``RandomState.shuffle``; for the engine's thousands of splits per data set
these Python-level calls, and building the index arrays from the labels,
cost more than a quarter of the compiled learners' time. Here the shuffles of
all runs of all repeats of a data set are one compiled call, and their splits
another:

* :func:`seed_state` and the draws follow numpy's MT19937
  (``numpy/random/src/mt19937/mt19937.c``: ``mt19937_seed``, ``mt19937_gen``,
  ``mt19937_next``) as ``RandomState(seed)`` seeds it from an integer;
* a shuffle is numpy's legacy ``RandomState.shuffle`` of a 1-d array
  (``_shuffle_raw``: Fisher-Yates from the last element down, the swap
  partner drawn by ``random_interval``: 32-bit words masked to the smallest
  all-ones mask that covers the bound, redrawn while above it);
* :func:`stratified_folds` shuffles every class of every run in
  scikit-learn's order, and :func:`flat_splits` writes the splits of any
  number of runs (all repeats of a data set) as the pair kernels read them;
* :func:`kfold_folds` and :func:`shuffle_splits` are ``KFold(shuffle=True)``
  and ``ShuffleSplit`` with the same draws;
* :func:`java_shuffles` reorders training sets as Weka's Experimenter does,
  with ``java.util.Random`` (:func:`java_next_int`).

``tests/engine/test_splits.py`` checks the draws against ``RandomState`` and
``java.util.Random`` (``_weka_random``) over many seeds and sizes, and the
splits against scikit-learn's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["class_blocks", "flat_splits", "fold_sizes", "java_next_int", "java_shuffles", "kfold_folds",
           "seed_state", "shuffle_splits", "stratified_folds"]

#: MT19937's state length, shift and constants (Matsumoto & Nishimura 1998).
_N, _M = 624, 397
_MATRIX_A, _UPPER, _LOWER = 0x9908B0DF, 0x80000000, 0x7FFFFFFF
#: java.util.Random's 48-bit linear congruential generator (as ``_weka_random.JavaRandom``).
_JAVA_MULT, _JAVA_ADD, _JAVA_MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1


@njit(cache=True)
def seed_state(seed, key):
    """Seed the MT19937 state ``key`` (624 uint32) as ``RandomState(seed)`` does; return its position.

    ``init_genrand`` of the reference implementation (Knuth's multiplier
    1812433253); the position 624 makes the first draw regenerate the state.
    """
    s = np.int64(seed) & 0xFFFFFFFF
    for pos in range(_N):
        key[pos] = s
        s = (1812433253 * (s ^ (s >> 30)) + pos + 1) & 0xFFFFFFFF
    return _N


@njit(cache=True)
def _twist(key, i, j):
    # Word i of the next state from words i, i + 1 and j (mt19937_gen); int64 keeps every value below 2**32.
    y = (np.int64(key[i]) & _UPPER) | (np.int64(key[(i + 1) % _N]) & _LOWER)
    key[i] = np.int64(key[j]) ^ (y >> 1) ^ (-(y & 1) & _MATRIX_A)


@njit(cache=True)
def _regenerate(key):
    # mt19937_gen's three loops (one loop with indices modulo 624 took several times as long).
    for i in range(_N - _M):
        _twist(key, i, i + _M)
    for i in range(_N - _M, _N - 1):
        _twist(key, i, i + _M - _N)
    _twist(key, _N - 1, _M - 1)


@njit(cache=True)
def _bounded(key, pos, bound):
    """A draw of ``random_interval(bound)`` (0 <= value <= bound < 2**32) and the new position."""
    mask = bound
    for shift in (1, 2, 4, 8, 16):
        mask |= mask >> shift
    while True:
        if pos == _N:
            _regenerate(key)
            pos = 0
        y = np.int64(key[pos])
        pos += 1
        y ^= y >> 11  # tempering (mt19937_next)
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        value = y & mask
        if value <= bound:
            return value, pos


@njit(cache=True)
def class_blocks(codes, n_folds):
    """Every class's instances and unshuffled fold labels, as ``StratifiedKFold._make_test_folds`` lays them out.

    Classes (the distinct values of the integer codes ``codes``) in order of
    first appearance; each class's instances ascending; each class's fold
    labels round robin over its position in the labels sorted by class: fold
    ``f`` gets the positions ``p = f (mod n_folds)``, so a class in ``[start,
    end)`` has ``(end - 1 - f) // n_folds - (start - 1 - f) // n_folds`` of
    them, labelled ``f``, folds in turn. A counting sort, with loops rather
    than array assignments: numba's sorts and its array-assignment error
    messages took about 10 s to compile, a third of the engine's first call.

    The codes are counted in a table of ``max(codes) + 1`` entries; codes
    below 0 or above ``2 * n_samples + 64`` are not counted, and all three
    arrays are returned empty (then pass the codes' ranks).

    Returns
    -------
    rows, labels : ndarray of int64, shape (n_samples,)
    class_start : ndarray of int64, shape (n_classes + 1,)
    """
    n = codes.size
    lo, hi = 0, -1
    for i in range(n):
        lo, hi = min(lo, codes[i]), max(hi, codes[i])
    if lo < 0 or hi > 2 * n + 64:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.int64)
    n_values = hi + 1
    rank = np.empty(n_values, np.int64)  # each value's class (order of first appearance), -1 if absent
    for v in range(n_values):
        rank[v] = -1
    count = np.zeros(n_values, np.int64)  # per class
    n_classes = 0
    for i in range(n):
        if rank[codes[i]] < 0:
            rank[codes[i]] = n_classes
            n_classes += 1
        count[rank[codes[i]]] += 1
    class_start = np.zeros(n_classes + 1, np.int64)
    at = np.empty(n_classes, np.int64)
    for c in range(n_classes):
        at[c] = class_start[c]
        class_start[c + 1] = class_start[c] + count[c]
    rows, labels = np.empty(n, np.int64), np.empty(n, np.int64)
    for i in range(n):  # ascending: each class's instances in order
        c = rank[codes[i]]
        rows[at[c]] = i
        at[c] += 1
    for c in range(n_classes):
        start, end = class_start[c], class_start[c + 1]
        t = start
        for f in range(n_folds):
            for _ in range((end - 1 - f) // n_folds - (start - 1 - f) // n_folds):
                labels[t] = f
                t += 1
    return rows, labels, class_start


@njit(cache=True)
def stratified_folds(key, pos, seeds, reseed_at, n_runs, rows, labels, class_start):
    """The fold of every instance in ``n_runs`` runs of stratified k-fold cv, as ``StratifiedKFold(shuffle=True)``.

    Parameters
    ----------
    key : ndarray of uint32, shape (624,)
        MT19937 state; advanced in place.
    pos : int
        Position in ``key`` of the next word.
    seeds, reseed_at : ndarray of int64
        The state is re-seeded with ``seeds[k]`` before run ``reseed_at[k]``
        (ascending); the runs draw from it in turn. A seed before every run is
        one ``StratifiedKFold(random_state=seed)`` per run; one seed before the
        first, or none (the state as given), one ``RandomState`` for all runs,
        as ``RepeatedStratifiedKFold``; one before every ``r``-th, the repeats
        of r x k cv of a data set, each its own ``RepeatedStratifiedKFold``.
    n_runs : int
    rows : ndarray of int64, shape (n_samples,)
        The instances of every class in turn (classes in order of first appearance).
    labels : ndarray of int64, shape (n_samples,)
        Each class's unshuffled fold labels, in the same layout.
    class_start : ndarray of int64, shape (n_classes + 1,)
        Where each class starts in ``rows`` and ``labels``.

    Returns
    -------
    folds : ndarray of int64, shape (n_runs, n_samples)
    pos : int
        The state's new position.
    """
    folds = np.empty((n_runs, rows.size), np.int64)
    shuffled = np.empty(rows.size, np.int64)
    k = 0
    for r in range(n_runs):
        if k < seeds.size and reseed_at[k] == r:
            pos = seed_state(seeds[k], key)
            k += 1
        for i in range(rows.size):  # loops, not array assignments (see class_blocks)
            shuffled[i] = labels[i]
        for c in range(class_start.size - 1):
            start = class_start[c]
            for i in range(class_start[c + 1] - start - 1, 0, -1):
                j, pos = _bounded(key, pos, i)
                shuffled[start + i], shuffled[start + j] = shuffled[start + j], shuffled[start + i]
        for i in range(rows.size):
            folds[r, rows[i]] = shuffled[i]
    return folds, pos


@njit(cache=True)
def _shuffled_range(key, pos, order):
    """``order[:] = RandomState.permutation(order.size)``, drawn from ``key`` at ``pos``; returns the new position."""
    for i in range(order.size):
        order[i] = i
    for i in range(order.size - 1, 0, -1):
        j, pos = _bounded(key, pos, i)
        order[i], order[j] = order[j], order[i]
    return pos


@njit(cache=True)
def kfold_folds(seeds, n_samples, n_folds):
    """The fold of every instance in runs of ``KFold(n_folds, shuffle=True, random_state=seeds[r])``.

    ``KFold`` shuffles the indices ``0, ..., n - 1`` with ``RandomState(seed).shuffle``
    (the draws of :func:`stratified_folds`) and makes consecutive blocks of the
    shuffled indices the folds, the first ``n % n_folds`` one larger.

    Returns
    -------
    folds : ndarray of int64, shape (len(seeds), n_samples)
    """
    key = np.empty(_N, np.uint32)
    folds = np.empty((seeds.size, n_samples), np.int64)
    order = np.empty(n_samples, np.int64)
    for r in range(seeds.size):
        _shuffled_range(key, seed_state(seeds[r], key), order)
        at = 0
        for f in range(n_folds):
            for _ in range(n_samples // n_folds + (f < n_samples % n_folds)):
                folds[r, order[at]] = f
                at += 1
    return folds


@njit(cache=True)
def shuffle_splits(seed, n_samples, n_train, n_test, n_splits):
    """The training and test indices of ``ShuffleSplit(n_splits, random_state=seed)``, concatenated.

    One ``RandomState(seed)`` draws ``permutation(n_samples)`` for every split
    in turn (the shuffle of :func:`stratified_folds` on ``0, ..., n - 1``); a
    split tests the first ``n_test`` indices of its permutation and trains on
    the next ``n_train``, in the permutation's order.

    Returns
    -------
    train : ndarray of int64, shape (n_splits * n_train,)
    test : ndarray of int64, shape (n_splits * n_test,)
    """
    key = np.empty(_N, np.uint32)
    pos = seed_state(seed, key)
    order = np.empty(n_samples, np.int64)
    train = np.empty(n_splits * n_train, np.int64)
    test = np.empty(n_splits * n_test, np.int64)
    for s in range(n_splits):
        pos = _shuffled_range(key, pos, order)
        for i in range(n_test):  # loops, not array assignments (see class_blocks)
            test[s * n_test + i] = order[i]
        for i in range(n_train):
            train[s * n_train + i] = order[n_test + i]
    return train, test


@njit(cache=True)
def fold_sizes(folds, n_folds):
    """The number of instances of every run-major split's test fold: ``n_test[r * n_folds + f]``."""
    n_runs, n = folds.shape
    n_test = np.zeros(n_runs * n_folds, np.int64)
    for r in range(n_runs):
        for i in range(n):
            n_test[r * n_folds + folds[r, i]] += 1
    return n_test


@njit(cache=True)
def flat_splits(folds, n_folds):
    """``(train, n_train, test, n_test)`` of the run-major splits of fold labels ``folds`` (runs, instances).

    Split ``r * n_folds + f`` tests the instances of run ``r`` labelled ``f`` and
    trains on the others, each in ascending order: its indices concatenated after
    those of the splits before it, and their numbers.
    """
    n_runs, n = folds.shape
    n_test = fold_sizes(folds, n_folds)
    n_train = n - n_test
    test = np.empty(n_runs * n, np.int64)
    # One slot beyond the end: the last split's loop may write there (see below).
    train = np.empty(n_runs * (n_folds - 1) * n + 1, np.int64)
    test_at = np.empty(n_folds, np.int64)
    for r in range(n_runs):
        test_at[0] = r * n
        for f in range(1, n_folds):
            test_at[f] = test_at[f - 1] + n_test[r * n_folds + f - 1]
        for i in range(n):
            test[test_at[folds[r, i]]] = i
            test_at[folds[r, i]] += 1
        # Branch-free: write every instance, advance past the others' only. The place after a
        # split's last index is the next split's first, written after it; hence the spare slot.
        at = r * (n_folds - 1) * n
        for f in range(n_folds):
            for i in range(n):
                train[at] = i
                at += folds[r, i] != f
    return train[:-1], n_train, test, n_test


@njit(cache=True)
def java_next_int(state, bound):
    """``java.util.Random.nextInt(bound)`` on the generator's 48-bit seed ``state[0]``, advanced in place.

    As ``_weka_random.JavaRandom.next_int``: ``next(31)`` scaled for a power of
    two, else reduced modulo ``bound`` and redrawn by Java's rejection rule. The
    products wrap around in int64, which keeps their low 48 bits exact.
    """
    if bound & (bound - 1) == 0:
        state[0] = (state[0] * _JAVA_MULT + _JAVA_ADD) & _JAVA_MASK
        return (bound * (state[0] >> 17)) >> 31
    while True:
        state[0] = (state[0] * _JAVA_MULT + _JAVA_ADD) & _JAVA_MASK
        bits = state[0] >> 17
        val = bits % bound
        if bits - val + (bound - 1) < 1 << 31:  # Java's int32 overflow test
            return val


@njit(cache=True)
def java_shuffles(train, n_train, seeds, n_folds):
    """Shuffle the concatenated training indices of run-major splits as Weka's Experimenter does, in place.

    Run ``r`` seeds ``java.util.Random(seeds[r])`` and shuffles the training
    indices of its ``n_folds`` splits in turn (``Instances.randomize``:
    Fisher-Yates from the last index down, as ``_weka_random.randomize``);
    ``n_train`` holds every split's number of training indices.
    """
    state = np.empty(1, np.int64)
    at = 0
    for r in range(seeds.size):
        state[0] = (seeds[r] ^ _JAVA_MULT) & _JAVA_MASK
        for f in range(n_folds):
            n = n_train[r * n_folds + f]
            for j in range(n - 1, 0, -1):
                k = java_next_int(state, j + 1)
                train[at + j], train[at + k] = train[at + k], train[at + j]
            at += n
