"""Tests for replicability.learners._kernels: rows packed into words and their distinct rows."""

import numpy as np
import pytest

from replicability.learners import _kernels, pairs


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint8, np.uint64, np.bool_])
@pytest.mark.parametrize("n_attributes", [1, 10, 62, 63, 124, 125, 256])
def test_packed_rows_and_distinct_rows_equal_numpy(dtype, n_attributes):
    rng = np.random.default_rng(n_attributes)
    X = rng.integers(0, 2, size=(40, n_attributes)).astype(dtype)
    X[20:] = X[:20]  # every row twice: distinct rows are shared
    words, binary = _kernels.pack_rows(np.asfortranarray(X), pairs._WORD_BITS)
    Xi = X.astype(np.int64)
    want = np.stack([(Xi[:, s:s + 62] << np.arange(min(62, n_attributes - s))).sum(axis=1)
                     for s in range(0, n_attributes, 62)], axis=1)
    assert binary
    np.testing.assert_array_equal(words, want)
    bits, row = _kernels.distinct_rows(words[:, 0], np.argsort(words[:, 0]), min(n_attributes, 62))
    distinct = np.unique(want[:, 0])
    np.testing.assert_array_equal(row, np.searchsorted(distinct, want[:, 0]))
    np.testing.assert_array_equal(bits, (distinct[:, None] >> np.arange(min(n_attributes, 62))) & 1)
    assert bits.dtype == np.int8


@pytest.mark.parametrize("value", [2, 3, -1])
def test_a_code_other_than_0_or_1_is_not_binary(value):
    X = np.zeros((5, 70), dtype=np.int64)
    X[4, 69] = value
    assert not _kernels.pack_rows(X, pairs._WORD_BITS)[1]
    assert pairs._binary_data(X, np.zeros(5, dtype=int), None) is None
