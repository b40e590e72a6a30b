"""Tests of replicability._validation: one policy for strings across the whole API (refused, as scipy does)."""

import numpy as np
import pytest
from scipy import stats

import replicability as rp
from replicability._validation import as_numbers

TEXT = ["0.1", "0.2", "0.3", "0.25", "0.4", "0.15"]
NUMBERS = [0.1, 0.2, 0.3, 0.25, 0.4, 0.15]


def test_scipy_refuses_numeric_strings():
    # the reference for the policy: scipy.stats' t-tests do not read numbers from strings
    with pytest.raises(TypeError):  # numpy's UFuncTypeError
        stats.ttest_rel(TEXT, NUMBERS)
    with pytest.raises(TypeError):  # numpy's DTypePromotionError
        stats.ttest_1samp(TEXT, 0)


@pytest.mark.parametrize("call", [
    lambda x: rp.paired_ttest(x, NUMBERS),
    lambda x: rp.sign_test(x, NUMBERS),
    lambda x: rp.signed_rank_test(x, NUMBERS),
    lambda x: rp.stats.bayesian_signed_rank_test(x, NUMBERS, rope=0.01, rng=0),
    lambda x: rp.stats.naive_cv_interval(x),
    lambda x: rp.compare_scores(x, NUMBERS, scheme="2x3cv", n_train=8, n_test=4),
    lambda x: rp.mcnemar_test(x[:2], [1, 2]),
    lambda x: rp.stats.friedman_test(np.array(x).reshape(3, 2)),
    lambda x: rp.compare_many_scores(np.array(x).reshape(3, 2)),
], ids=["paired_ttest", "sign_test", "signed_rank_test", "bayesian_signed_rank_test", "naive_cv_interval",
        "compare_scores", "mcnemar_test", "friedman_test", "compare_many_scores"])
def test_every_entry_point_refuses_numeric_strings(call):
    with pytest.raises(TypeError, match="must hold numbers"):
        call(TEXT)


def test_as_numbers_refuses_strings_and_keeps_numbers():
    np.testing.assert_array_equal(as_numbers(NUMBERS, "x"), np.array(NUMBERS))
    arr = np.arange(3.0)
    assert as_numbers(arr, "x") is arr
    with pytest.raises(TypeError, match=r"`x` must hold numbers, not strings; got \['1', 2\]"):
        as_numbers(np.array(["1", 2], dtype=object).tolist(), "x")
    with pytest.raises(TypeError, match="`x` must hold numbers, not strings"):
        as_numbers(np.array([1.0, "2"], dtype=object), "x")
    with pytest.raises(TypeError, match="`x` must be array-like of numbers; got dict"):
        as_numbers({"a": 1}, "x")
