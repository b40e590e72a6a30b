"""Tests for replicability.stats.nonparametric (sign test, Wilcoxon signed-rank)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from replicability.stats.nonparametric import sign_test, signed_rank_test

ALTS = ["two-sided", "greater", "less"]


def _tie_free(rng, shape):
    # Continuous draws: no zeros and no tied |d| with probability one.
    return rng.normal(0.3, 1.0, size=shape)


# --------------------------------------------------------------------------
# sign test
# --------------------------------------------------------------------------


@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("n", [1, 5, 12, 30])
def test_sign_exact_equals_binomtest_without_zeros(alternative, n):
    rng = np.random.default_rng(n)
    d = _tie_free(rng, n)
    res = sign_test(d, method="exact", alternative=alternative)
    k = int(np.sum(d > 0))
    ref = stats.binomtest(k, n, 0.5, alternative=alternative).pvalue
    np.testing.assert_allclose(res.pvalue, ref, rtol=1e-10)
    assert res.n_plus == k


@pytest.mark.parametrize("alternative", ALTS)
def test_sign_exact_odd_zeros_is_mean_of_neighbours(alternative):
    # 3 plus, 1 minus, 1 zero: n_plus = 3.5 -> mean of binomtest at 3 and 4 of 5.
    d = [1.0, 2.0, 3.0, -1.0, 0.0]
    res = sign_test(d, method="exact", alternative=alternative)
    ref = 0.5 * (
        stats.binomtest(3, 5, 0.5, alternative=alternative).pvalue
        + stats.binomtest(4, 5, 0.5, alternative=alternative).pvalue
    )
    assert res.n_plus == 3.5
    np.testing.assert_allclose(res.pvalue, ref, rtol=1e-12)


def test_sign_exact_even_zeros_split_evenly():
    # 4 plus, 0 minus, 2 zeros: n_plus = 5 of 6.
    d = [1.0, 1.0, 2.0, 3.0, 0.0, 0.0]
    res = sign_test(d, method="exact")
    np.testing.assert_allclose(res.pvalue, stats.binomtest(5, 6, 0.5).pvalue, rtol=1e-12)


@pytest.mark.parametrize("alternative", ALTS)
def test_sign_normal_is_standardized_half_count(alternative):
    d = np.array([0.1, 0.2, 0.0, -0.3, 0.4, 0.0, 0.5, 0.0])
    res = sign_test(d, alternative=alternative)
    n_plus = 4 + 3 / 2  # Bouckaert (2004): zeros count half a plus
    z = (n_plus - 8 / 2) / np.sqrt(8 / 4)  # binomial mean n/2, variance n/4
    np.testing.assert_allclose(res.statistic, z, rtol=1e-12)
    ref = {"two-sided": 2 * stats.norm.sf(abs(z)), "greater": stats.norm.sf(z), "less": stats.norm.cdf(z)}
    np.testing.assert_allclose(res.pvalue, ref[alternative], rtol=1e-12)


def test_sign_y_argument_equals_differences():
    rng = np.random.default_rng(1)
    x, y = rng.random((2, 4, 10))
    a = sign_test(x, y, method="exact")
    b = sign_test(x - y, method="exact")
    np.testing.assert_array_equal(a.pvalue, b.pvalue)
    np.testing.assert_array_equal(a.statistic, b.statistic)


@pytest.mark.parametrize("method", ["normal", "exact"])
def test_sign_nd_equals_loop(method):
    rng = np.random.default_rng(2)
    d = rng.integers(-2, 3, size=(3, 4, 9)).astype(float)  # many zeros
    res = sign_test(d, method=method)
    assert res.pvalue.shape == (3, 4)
    for idx in np.ndindex(3, 4):
        r = sign_test(d[idx], method=method)
        assert res.pvalue[idx] == r.pvalue
        assert res.statistic[idx] == r.statistic
        assert res.n_plus[idx] == r.n_plus


@pytest.mark.parametrize("method", ["normal", "exact"])
def test_sign_all_zero_is_p_one(method):
    for n in (1, 4, 7):
        res = sign_test(np.zeros(n), method=method)
        assert res.statistic == 0.0
        assert res.pvalue == 1.0


def test_sign_constant_nonzero_is_extreme_binomial():
    # Not Weka's p = 0: a sign test is well defined on constant differences.
    res = sign_test(np.full(6, 0.02), method="exact")
    np.testing.assert_allclose(res.pvalue, 2.0**-5, rtol=1e-12)
    assert res.statistic > 0


# --------------------------------------------------------------------------
# signed-rank test
# --------------------------------------------------------------------------


@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("n", [5, 10, 40])
def test_signed_rank_normal_equals_scipy_tie_free(alternative, n):
    rng = np.random.default_rng(10 + n)
    d = _tie_free(rng, n)
    res = signed_rank_test(d, alternative=alternative)
    ref = stats.wilcoxon(d, zero_method="wilcox", correction=False, method="approx", alternative=alternative)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=1e-10)
    np.testing.assert_allclose(res.r_plus, np.sum(stats.rankdata(np.abs(d))[d > 0]), rtol=1e-12)


@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("n", [1, 4, 9, 15])
def test_signed_rank_exact_equals_scipy_tie_free(alternative, n):
    rng = np.random.default_rng(20 + n)
    d = _tie_free(rng, n)
    res = signed_rank_test(d, method="exact", alternative=alternative)
    ref = stats.wilcoxon(d, method="exact", alternative=alternative)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=1e-10)


def test_signed_rank_removes_zeros():
    rng = np.random.default_rng(3)
    d = _tie_free(rng, 12)
    with_zeros = np.concatenate([d[:5], [0.0, 0.0], d[5:], [0.0]])
    a = signed_rank_test(with_zeros)
    b = signed_rank_test(d)
    assert a.n_nonzero == 12
    np.testing.assert_allclose(a.pvalue, b.pvalue, rtol=1e-12)
    np.testing.assert_allclose(a.r_plus, b.r_plus, rtol=1e-12)
    # scipy's zero_method="wilcox" also drops zeros.
    ref = stats.wilcoxon(with_zeros, zero_method="wilcox", correction=False, method="approx")
    np.testing.assert_allclose(a.pvalue, ref.pvalue, rtol=1e-10)


def test_signed_rank_paper_formula_with_ties():
    # Hand computation, Bouckaert (2004) formula without tie correction:
    # d = [1, -1, 2, 2, 3, 0]: zeros removed, n' = 5; |d| ranks 1.5, 1.5, 3.5, 3.5, 5;
    # r = 1.5 + 3.5 + 3.5 + 5 = 13.5; mean 5*6/4 = 7.5; var 5*6*11/24 = 13.75.
    res = signed_rank_test([1.0, -1.0, 2.0, 2.0, 3.0, 0.0])
    assert res.r_plus == 13.5
    z = (13.5 - 7.5) / np.sqrt(13.75)
    np.testing.assert_allclose(res.statistic, z, rtol=1e-12)
    np.testing.assert_allclose(res.pvalue, 2 * stats.norm.sf(z), rtol=1e-12)
    # scipy's tie-corrected variance is smaller, so its p-value is smaller.
    ref = stats.wilcoxon([1.0, -1.0, 2.0, 2.0, 3.0, 0.0], correction=False, method="approx")
    assert ref.pvalue < res.pvalue


def _paper_pvalue(d_exact):
    """Bouckaert (2004) normal p-value from exact differences: scipy ranks, untied variance."""
    d = d_exact[d_exact != 0]
    n = d.size
    r_plus = np.sum(stats.rankdata(np.abs(d))[d > 0])
    z = (r_plus - n * (n + 1) / 4) / np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    return r_plus, 2 * stats.norm.sf(abs(z))


def test_signed_rank_ties_of_accuracies_are_exact():
    # Accuracies that are multiples of 1/30 (Bouckaert 2004's 30-case test folds).
    # In floating point 25/30 - 24/30 != 29/30 - 28/30, so ranking x - y as
    # computed splits ties; the test must rank the exact differences (a - b)/30.
    rng = np.random.default_rng(2004)
    a = rng.integers(18, 31, size=(300, 10))
    b = rng.integers(18, 31, size=(300, 10))
    x, y = a / 30, b / 30
    d_float = x - y
    broken = [np.unique(np.abs(r)).size != np.unique(np.abs(r0)).size for r, r0 in zip(d_float, a - b, strict=True)]
    assert np.mean(broken) > 0.5  # the defect shows up in most rows
    res = signed_rank_test(x, y)
    # Oracle 1: scipy.stats.wilcoxon on the integer differences (exact ties);
    # its one-sided "greater" statistic is r_plus.
    ref = stats.wilcoxon(a - b, axis=-1, zero_method="wilcox", correction=False, method="approx",
                         alternative="greater")
    np.testing.assert_array_equal(res.r_plus, ref.statistic)
    # Oracle 2: ranks from scipy.stats.rankdata and the paper's untied variance.
    for i in range(a.shape[0]):
        r_plus, p = _paper_pvalue((a[i] - b[i]).astype(float))
        assert res.r_plus[i] == r_plus
        np.testing.assert_allclose(res.pvalue[i], p, rtol=1e-12)
    # The same with the differences alone (the scale is then max |d|).
    np.testing.assert_array_equal(signed_rank_test(d_float).pvalue, res.pvalue)


def test_signed_rank_ties_of_means_are_exact():
    # Means of fold differences (the "runs" sampling scheme) depend on the
    # summation order; equal exact means must tie and exact zeros must be zero.
    rng = np.random.default_rng(7)
    c = rng.integers(-4, 5, size=(200, 10, 10))  # correct_a - correct_b per fold
    c[:, 0, :] = 0
    c[:, 0, :2] = (3, -3)  # a run whose exact mean is zero
    means = np.mean(c / 30, axis=-1)  # one mean per run, as computed
    res = signed_rank_test(means)
    exact = c.sum(axis=-1).astype(float)  # 300 * exact mean, exact in floating point
    ref = stats.wilcoxon(exact, axis=-1, zero_method="wilcox", correction=False, method="approx",
                         alternative="greater")
    np.testing.assert_array_equal(res.r_plus, ref.statistic)
    np.testing.assert_array_equal(res.n_nonzero, np.count_nonzero(exact, axis=-1))
    np.testing.assert_array_equal(res.pvalue, signed_rank_test(exact).pvalue)


@pytest.mark.parametrize("method", ["normal", "exact"])
def test_sign_test_zeros_of_means_are_exact(method):
    # Means of fold differences that are zero in exact arithmetic can come out as
    # +-1e-18; they are zeros (half a plus), as in the exact integer sums.
    rng = np.random.default_rng(11)
    c = rng.integers(-3, 4, size=(300, 10, 10))  # correct_a - correct_b per fold
    c[:, :4, :] = 0
    c[:, :4, :2] = (2, -2)  # runs whose exact mean is zero
    means = np.mean(c / 30, axis=-1)
    exact = c.sum(axis=-1).astype(float)
    assert np.any((means != 0) & (exact == 0))  # the rounding residue the test must see through
    res = sign_test(means, method=method)
    ref = sign_test(exact, method=method)
    np.testing.assert_array_equal(res.n_plus, ref.n_plus)
    np.testing.assert_array_equal(res.pvalue, ref.pvalue)
    # Oracle: scipy.stats.binomtest on the integer count when the zeros split evenly.
    n_pos = np.count_nonzero(exact > 0, axis=-1)
    n_zero = np.count_nonzero(exact == 0, axis=-1)
    if method == "exact":
        for i in np.flatnonzero(n_zero % 2 == 0)[:50]:
            k = int(n_pos[i] + n_zero[i] // 2)
            np.testing.assert_allclose(res.pvalue[i], stats.binomtest(k, 10, 0.5).pvalue, rtol=1e-10)


def test_signed_rank_distinct_values_stay_distinct():
    # Values that differ by more than the tie tolerance are never merged.
    d = np.array([0.1, 0.1 + 1e-6, -0.2, 0.3, 0.3 * (1 + 1e-12), 1e-12])
    res = signed_rank_test(d)
    r_plus, p = _paper_pvalue(np.array([0.1, 0.1 + 1e-6, -0.2, 0.3, 0.3, 0.0]))
    assert res.r_plus == r_plus and res.n_nonzero == 5
    np.testing.assert_allclose(res.pvalue, p, rtol=1e-12)


@pytest.mark.parametrize("method", ["normal", "exact"])
def test_signed_rank_nd_equals_loop(method):
    rng = np.random.default_rng(4)
    d = rng.integers(-3, 4, size=(2, 5, 8)).astype(float)  # zeros and ties
    res = signed_rank_test(d, method=method)
    assert res.pvalue.shape == (2, 5)
    for idx in np.ndindex(2, 5):
        r = signed_rank_test(d[idx], method=method)
        np.testing.assert_allclose(res.pvalue[idx], r.pvalue, rtol=1e-14)
        np.testing.assert_allclose(res.statistic[idx], r.statistic, rtol=1e-14)
        assert res.n_nonzero[idx] == r.n_nonzero


@pytest.mark.parametrize("method", ["normal", "exact"])
def test_signed_rank_all_zero_is_p_one(method):
    res = signed_rank_test(np.zeros((2, 6)), method=method)
    np.testing.assert_array_equal(res.statistic, 0.0)
    np.testing.assert_array_equal(res.pvalue, 1.0)


def test_signed_rank_constant_nonzero_is_extreme():
    res = signed_rank_test(np.full(6, -0.01), method="exact", alternative="less")
    np.testing.assert_allclose(res.pvalue, 2.0**-6, rtol=1e-12)
    assert res.statistic < 0


def test_signed_rank_exact_size_limit():
    assert signed_rank_test(np.ones(200), method="exact").pvalue < 1e-50
    with pytest.raises(ValueError, match="`method`"):
        signed_rank_test(np.ones(201), method="exact")


# --------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------

_diffs = arrays(
    float,
    st.integers(1, 12),
    elements=st.integers(-4, 4).map(float),  # small integers: zeros and ties
)


@settings(max_examples=60, deadline=None)
@given(d=_diffs, method=st.sampled_from(["normal", "exact"]))
def test_swap_flips_sign_keeps_p(d, method):
    for test in (sign_test, signed_rank_test):
        a = test(d, method=method)
        b = test(-d, method=method)
        assert 0.0 <= a.pvalue <= 1.0
        np.testing.assert_allclose(b.statistic, -a.statistic, atol=1e-12)
        np.testing.assert_allclose(b.pvalue, a.pvalue, rtol=1e-12)
        ga = test(d, method=method, alternative="greater")
        lb = test(-d, method=method, alternative="less")
        np.testing.assert_allclose(ga.pvalue, lb.pvalue, rtol=1e-12)
        assert 0.0 <= ga.pvalue <= 1.0


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------


@pytest.mark.parametrize("test", [sign_test, signed_rank_test])
class TestValidation:
    def test_nan(self, test):
        with pytest.raises(ValueError, match="`x`"):
            test([1.0, np.nan])

    def test_inf_in_y(self, test):
        with pytest.raises(ValueError, match="`y`"):
            test([1.0, 2.0], [0.0, np.inf])

    def test_empty(self, test):
        with pytest.raises(ValueError, match="`x`"):
            test([])

    def test_scalar(self, test):
        with pytest.raises(ValueError, match="`x`"):
            test(1.0)

    def test_shape_mismatch(self, test):
        with pytest.raises(ValueError, match="`x` and `y`"):
            test([1.0, 2.0], [1.0, 2.0, 3.0])

    def test_alternative(self, test):
        with pytest.raises(ValueError, match="`alternative`"):
            test([1.0, 2.0], alternative="both")

    def test_method(self, test):
        with pytest.raises(ValueError, match="`method`"):
            test([1.0, 2.0], method="approx")

    def test_non_numeric(self, test):
        with pytest.raises(TypeError, match="`x`"):
            test(["a", "b"])
