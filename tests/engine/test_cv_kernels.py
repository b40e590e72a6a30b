"""Tests for replicability.engine._cv_kernels: the compiled draws, draw for draw.

The draws are java.util.Random's and numpy's RandomState's.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replicability._weka_random import JavaRandom
from replicability.engine._cv_kernels import java_next_int


def test_compiled_java_random_draws_as_java_random():
    # Bounds near 2**31 reach Java's rejection rule; powers of two take the scaled branch.
    for seed in (0, 1, 42, 2**31 - 1, -7, 2**47 + 3):
        for bound in (1, 2, 7, 64, 300, 2**30, 2**31 - 1, 1_500_000_000):
            state = np.array([(seed ^ 0x5DEECE66D) & ((1 << 48) - 1)], dtype=np.int64)
            java = JavaRandom(seed)
            assert [java_next_int(state, bound) for _ in range(200)] == [java.next_int(bound) for _ in range(200)]


# -- the compiled shuffles: numpy's legacy RandomState, draw for draw (issue 22) --------


@pytest.mark.parametrize("seed", [0, 1, 5489, 2**31 - 1, 2**31, 2**32 - 1])
def test_seeded_state_is_random_states(seed):
    from replicability.engine._cv_kernels import seed_state

    key = np.empty(624, dtype=np.uint32)
    pos = seed_state(seed, key)
    _, ref_key, ref_pos, *_ = np.random.RandomState(seed).get_state()
    np.testing.assert_array_equal(key, ref_key)
    assert pos == ref_pos


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), sizes=st.lists(st.integers(1, 700), min_size=1, max_size=6),
       n_runs=st.integers(1, 4), n_folds=st.integers(2, 12))
def test_compiled_shuffles_are_random_state_shuffles(seed, sizes, n_runs, n_folds):
    # Every class's fold labels shuffled by RandomState.shuffle, class after class and run
    # after run from one generator: the labels, and the generator's state after them (the
    # sizes run past the 624 words of a state, so the twist is exercised too).
    from replicability.engine._cv_kernels import flat_splits, stratified_folds

    labels = np.concatenate([np.arange(size) % n_folds for size in sizes]).astype(np.int64)
    class_start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    rows = np.random.default_rng(seed).permutation(labels.size).astype(np.int64)
    rs = np.random.RandomState(seed)
    _, key, pos, *_ = rs.get_state()
    none = np.zeros(0, dtype=np.int64)
    folds, pos = stratified_folds(key, pos, none, none, n_runs, rows, labels, class_start)
    train, n_train, test, n_test = flat_splits(folds, n_folds)
    for r in range(n_runs):
        fold = np.empty(labels.size, dtype=np.int64)
        for a, b in zip(class_start[:-1], class_start[1:]):
            block = labels[a:b].copy()
            rs.shuffle(block)
            fold[rows[a:b]] = block
        np.testing.assert_array_equal(folds[r], fold)
        run = slice(r * n_folds, (r + 1) * n_folds)
        np.testing.assert_array_equal(n_test[run], np.bincount(fold, minlength=n_folds))
        expected_test = np.concatenate([np.flatnonzero(fold == f) for f in range(n_folds)])
        np.testing.assert_array_equal(test[r * labels.size:(r + 1) * labels.size], expected_test)
        per_run = (n_folds - 1) * labels.size
        expected_train = np.concatenate([np.flatnonzero(fold != f) for f in range(n_folds)])
        np.testing.assert_array_equal(train[r * per_run:(r + 1) * per_run], expected_train)
    np.testing.assert_array_equal(n_train, labels.size - n_test)
    assert train.size == n_train.sum() and test.size == n_test.sum()
    _, ref_key, ref_pos, *_ = rs.get_state()
    np.testing.assert_array_equal(key, ref_key)
    assert pos == ref_pos
