"""Tests for replicability.stats.decisions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replicability._results import TestResult
from replicability.stats.contingency import mcnemar_test
from replicability.stats.decisions import Outcome, decide
from replicability.stats.nonparametric import sign_test


def test_outcome_values():
    assert [int(o) for o in Outcome] == [-1, 0, 1]
    assert Outcome.A_BETTER == 1 and Outcome.B_BETTER == -1 and Outcome.NO_DIFFERENCE == 0


def test_decide_pvalues_with_statistic():
    out = decide([0.01, 0.2, 0.03, 0.05], alpha=0.05, statistic=[2.9, 1.3, -2.2, 3.0])
    # p = alpha is not a rejection (reject where p < alpha).
    np.testing.assert_array_equal(out, [1, 0, -1, 0])
    assert out.dtype == np.int8


def test_decide_scalar_returns_scalar():
    out = decide(0.001, alpha=0.01, statistic=-1.0)
    assert np.ndim(out) == 0 and out == Outcome.B_BETTER


def test_decide_reads_result_statistic():
    res = TestResult(statistic=np.array([[2.0, -2.0], [0.5, -3.0]]), pvalue=np.array([[0.01, 0.02], [0.5, 0.001]]))
    np.testing.assert_array_equal(decide(res, alpha=0.05), [[1, -1], [0, -1]])


def test_decide_mcnemar_uses_difference():
    # Raschka Figure 20 panel A: b = 11, c = 1, p = 0.0039 -> A better; swapped -> B better.
    assert decide(mcnemar_test(11, 1), alpha=0.05) == Outcome.A_BETTER
    assert decide(mcnemar_test(1, 11), alpha=0.05) == Outcome.B_BETTER
    assert decide(mcnemar_test(25, 15), alpha=0.05) == Outcome.NO_DIFFERENCE


def test_decide_statistic_overrides_result():
    res = TestResult(statistic=2.0, pvalue=0.01)
    assert decide(res, alpha=0.05, statistic=-1.0) == Outcome.B_BETTER


def test_decide_degenerate_results():
    # Weka convention: all-zero differences p = 1 -> no difference;
    # constant non-zero differences statistic +-inf, p = 0 -> a winner.
    res = TestResult(statistic=np.array([0.0, np.inf, -np.inf]), pvalue=np.array([1.0, 0.0, 0.0]))
    np.testing.assert_array_equal(decide(res, alpha=0.05), [0, 1, -1])
    assert decide(sign_test(np.zeros(10)), alpha=0.05) == 0


def test_decide_broadcasts_statistic():
    out = decide(np.array([[0.01, 0.9], [0.02, 0.01]]), alpha=0.05, statistic=np.array([1.0, -1.0]))
    np.testing.assert_array_equal(out, [[1, 0], [1, -1]])


@settings(max_examples=100, deadline=None)
@given(
    p=st.floats(0, 1),
    stat=st.floats(-10, 10, allow_nan=False),
    alpha=st.floats(0.001, 0.999),
)
def test_decide_swap_flips_outcome(p, stat, alpha):
    a = decide(p, alpha=alpha, statistic=stat)
    b = decide(p, alpha=alpha, statistic=-stat)
    assert a == -b
    assert a in (-1, 0, 1)
    assert (a != 0) == (p < alpha and stat != 0)


class TestValidation:
    @pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5, np.nan])
    def test_alpha_outside_unit_interval(self, alpha):
        with pytest.raises(ValueError, match="`alpha`"):
            decide(0.01, alpha=alpha, statistic=1.0)

    def test_missing_statistic(self):
        with pytest.raises(ValueError, match="`statistic`"):
            decide(0.01, alpha=0.05)

    def test_pvalue_nan(self):
        with pytest.raises(ValueError, match="`result_or_pvalue`"):
            decide([0.01, np.nan], alpha=0.05, statistic=[1.0, 1.0])

    def test_pvalue_out_of_range(self):
        with pytest.raises(ValueError, match="`result_or_pvalue`"):
            decide(1.5, alpha=0.05, statistic=1.0)

    def test_result_pvalue_nan(self):
        with pytest.raises(ValueError, match="`pvalue`"):
            decide(TestResult(statistic=1.0, pvalue=np.nan), alpha=0.05)

    def test_statistic_nan(self):
        with pytest.raises(ValueError, match="`statistic`"):
            decide(0.01, alpha=0.05, statistic=np.nan)

    def test_shape_mismatch(self):
        with pytest.raises(ValueError, match="`statistic`"):
            decide([0.01, 0.02], alpha=0.05, statistic=[1.0, 2.0, 3.0])

    def test_empty(self):
        with pytest.raises(ValueError, match="`result_or_pvalue`"):
            decide([], alpha=0.05, statistic=[])


# ---------------------------------------------------------------- issue #19: plain values, unsigned statistics
def test_decide_scalar_is_a_plain_int_arrays_stay_arrays():
    from replicability.stats.ttests import paired_ttest

    out = decide(paired_ttest([0.05, 0.06, 0.04, 0.05]), alpha=0.05)
    assert type(out) is int and out == 1
    assert type(decide(0.5, alpha=0.05, statistic=1.0)) is int
    many = decide([0.01, 0.5], alpha=0.05, statistic=[-1.0, 1.0])
    assert isinstance(many, np.ndarray) and many.dtype == np.int8 and many.tolist() == [-1, 0]


def test_decide_refuses_a_direction_for_unsigned_statistics():
    from replicability.stats.contingency import cochran_q_test, looney_ftest
    from replicability.stats.ttests import alpaydin_5x2cv_ftest

    d = np.array([[0.05, 0.03], [0.04, 0.06], [0.05, 0.05], [0.07, 0.02], [0.03, 0.04]])
    correct = np.repeat([[1, 1, 0], [1, 0, 0], [0, 1, 1], [1, 1, 1]], [30, 40, 5, 25], axis=0)
    for res in (alpaydin_5x2cv_ftest(d), cochran_q_test(correct), looney_ftest(correct)):
        with pytest.raises(ValueError, match="has no sign.*pass `statistic`"):
            decide(res, alpha=0.05)
    # With the direction supplied (here the mean difference A - B) it decides.
    assert decide(alpaydin_5x2cv_ftest(d), alpha=0.05, statistic=d.mean()) == 1


def test_every_result_type_reprs_plain_numbers():
    from replicability.stats.nonparametric import signed_rank_test

    for res in (mcnemar_test(11, 1), sign_test([0.1, 0.2, -0.1]), signed_rank_test([0.1, 0.2, -0.1])):
        text = repr(res)
        assert "np." not in text and text.startswith(type(res).__name__ + "(statistic=")
        assert set(res._asdict()) == {f for f in res.__dataclass_fields__}
