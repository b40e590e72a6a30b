"""Tests for replicability.stats.contingency (McNemar, proportions, Cochran, Looney, adjustments)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlxtend.evaluate import cochrans_q as mlx_cochrans_q
from mlxtend.evaluate import ftest as mlx_ftest
from mlxtend.evaluate import mcnemar as mlx_mcnemar
from scipy import stats
from statsmodels.stats.contingency_tables import cochrans_q as sm_cochrans_q
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest as sm_proportions_ztest

from replicability.stats.contingency import (
    bonferroni,
    cochran_q_test,
    holm,
    looney_ftest,
    mcnemar_test,
    proportions_ztest,
)

# Raschka (2018) Table 2 (from Kuncheva 2004): patterns of (C1, C2, C3) correct
# and their occurrences; accuracies 84%, 92%, 92%.
PATTERNS = np.array([(1, 1, 1), (1, 1, 0), (1, 0, 1), (1, 0, 0), (0, 1, 1), (0, 1, 0), (0, 0, 1), (0, 0, 0)])
COUNTS = [80, 2, 0, 2, 9, 1, 3, 3]
TABLE2 = np.repeat(PATTERNS, COUNTS, axis=0)

COUNT_PAIRS = [(0, 1), (1, 0), (3, 3), (11, 1), (25, 15), (7, 2), (40, 60), (100, 61)]


# --------------------------------------------------------------------------
# McNemar
# --------------------------------------------------------------------------


def test_mcnemar_raschka_figure20():
    # Raschka (2018) Sec. 4.3, Figure 20, uncorrected statistic (b - c)^2 / (b + c):
    # panel A (b = 11, c = 1): chi2 = 8.3, p = 0.0039; panel B (25, 15): chi2 = 2.5, p = 0.1138.
    a = mcnemar_test(11, 1)
    assert round(float(a.statistic), 2) == 8.33
    assert round(float(a.pvalue), 4) == 0.0039
    b = mcnemar_test(25, 15)
    assert float(b.statistic) == 2.5
    assert round(float(b.pvalue), 4) == 0.1138
    assert a.difference == 10 and b.difference == 10


@pytest.mark.parametrize("b,c", COUNT_PAIRS)
@pytest.mark.parametrize("correction", [False, True])
def test_mcnemar_chi2_equals_statsmodels_and_mlxtend(b, c, correction):
    res = mcnemar_test(b, c, correction=correction)
    table = np.array([[50, b], [c, 50]])
    sm = sm_mcnemar(table, exact=False, correction=correction)
    mlx_stat, mlx_p = mlx_mcnemar(table, corrected=correction)
    np.testing.assert_allclose(res.statistic, sm.statistic, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, sm.pvalue, rtol=1e-10)
    np.testing.assert_allclose(res.statistic, mlx_stat, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, mlx_p, rtol=1e-10)


@pytest.mark.parametrize("b,c", COUNT_PAIRS)
def test_mcnemar_exact_equals_statsmodels_and_mlxtend(b, c):
    res = mcnemar_test(b, c, method="exact")
    table = np.array([[50, b], [c, 50]])
    np.testing.assert_allclose(res.pvalue, sm_mcnemar(table, exact=True).pvalue, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, mlx_mcnemar(table, exact=True)[1], rtol=1e-10)


def test_mcnemar_exact_is_binomtest():
    # ERRATA (Raschka 4.4): min(1, 2 P(X >= max(b, c))), X ~ Bin(b + c, 1/2).
    for b, c in [(2, 9), (9, 2), (5, 5), (0, 4)]:
        ref = stats.binomtest(b, b + c, 0.5).pvalue
        np.testing.assert_allclose(mcnemar_test(b, c, method="exact").pvalue, ref, rtol=1e-10)


def test_mcnemar_corrected_formula():
    # Edwards (1948): (|b - c| - 1)^2 / (b + c); (|25 - 15| - 1)^2 / 40 = 81/40.
    res = mcnemar_test(25, 15, correction=True)
    assert res.statistic == 81 / 40
    np.testing.assert_allclose(res.pvalue, stats.chi2.sf(81 / 40, 1), rtol=1e-12)


@pytest.mark.parametrize("method", ["chi2", "exact"])
@pytest.mark.parametrize("correction", [False, True])
def test_mcnemar_no_discordant_pairs(method, correction):
    res = mcnemar_test([0, 0], [0, 0], method=method, correction=correction)
    np.testing.assert_array_equal(res.statistic, 0.0)
    np.testing.assert_array_equal(res.pvalue, 1.0)


@pytest.mark.parametrize("method", ["chi2", "exact"])
def test_mcnemar_nd_equals_loop(method):
    rng = np.random.default_rng(0)
    b = rng.integers(0, 30, size=(3, 4))
    c = rng.integers(0, 30, size=(3, 4))
    res = mcnemar_test(b, c, method=method, correction=True)
    for idx in np.ndindex(3, 4):
        r = mcnemar_test(b[idx], c[idx], method=method, correction=True)
        assert res.pvalue[idx] == r.pvalue
        assert res.statistic[idx] == r.statistic
        assert res.difference[idx] == b[idx] - c[idx]


@settings(max_examples=60, deadline=None)
@given(
    b=st.integers(0, 300),
    c=st.integers(0, 300),
    method=st.sampled_from(["chi2", "exact"]),
    correction=st.booleans(),
)
def test_mcnemar_swap_keeps_p_flips_direction(b, c, method, correction):
    r1 = mcnemar_test(b, c, method=method, correction=correction)
    r2 = mcnemar_test(c, b, method=method, correction=correction)
    assert 0.0 <= r1.pvalue <= 1.0
    assert r1.pvalue == r2.pvalue
    assert r1.statistic == r2.statistic
    assert r1.difference == -r2.difference


class TestMcNemarValidation:
    def test_negative(self):
        with pytest.raises(ValueError, match="`b`"):
            mcnemar_test(-1, 3)

    def test_non_integer(self):
        with pytest.raises(ValueError, match="`c`"):
            mcnemar_test(1, 2.5)

    def test_nan(self):
        with pytest.raises(ValueError, match="`b`"):
            mcnemar_test(np.nan, 2)

    def test_inf(self):
        with pytest.raises(ValueError, match="`c`"):
            mcnemar_test(2, np.inf)

    def test_empty(self):
        with pytest.raises(ValueError, match="`b`"):
            mcnemar_test([], [])

    def test_shape_mismatch(self):
        with pytest.raises(ValueError, match="`b` and `c`"):
            mcnemar_test([1, 2], [1, 2, 3])

    def test_method(self):
        with pytest.raises(ValueError, match="`method`"):
            mcnemar_test(1, 2, method="binomial")

    def test_correction(self):
        with pytest.raises(ValueError, match="`correction`"):
            mcnemar_test(1, 2, correction="yes")


# --------------------------------------------------------------------------
# difference of proportions
# --------------------------------------------------------------------------


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("ka,kb,n", [(170, 160, 200), (9970, 9960, 10000), (3, 9, 20)])
def test_proportions_equals_statsmodels(alternative, ka, kb, n):
    res = proportions_ztest(ka / n, kb / n, n_test=n, alternative=alternative)
    sm_alt = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}[alternative]
    z, p = sm_proportions_ztest([ka, kb], [n, n], alternative=sm_alt)
    np.testing.assert_allclose(res.statistic, z, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, p, rtol=1e-10)


def test_proportions_nd_and_swap():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 101, size=(2, 3)) / 100
    b = rng.integers(0, 101, size=(2, 3)) / 100
    res = proportions_ztest(a, b, n_test=100)
    swapped = proportions_ztest(b, a, n_test=100)
    np.testing.assert_allclose(swapped.statistic, -res.statistic, rtol=1e-12)
    np.testing.assert_allclose(swapped.pvalue, res.pvalue, rtol=1e-12)
    for idx in np.ndindex(2, 3):
        assert proportions_ztest(a[idx], b[idx], n_test=100).pvalue == res.pvalue[idx]


@pytest.mark.parametrize("acc", [0.0, 1.0])
def test_proportions_degenerate(acc):
    res = proportions_ztest(acc, acc, n_test=50)
    assert res.statistic == 0.0 and res.pvalue == 1.0


class TestProportionsValidation:
    def test_n_test_zero(self):
        with pytest.raises(ValueError, match="`n_test`"):
            proportions_ztest(0.5, 0.6, n_test=0)

    def test_n_test_float(self):
        with pytest.raises(ValueError, match="`n_test`"):
            proportions_ztest(0.5, 0.6, n_test=10.5)

    def test_acc_out_of_range(self):
        with pytest.raises(ValueError, match="`acc_b`"):
            proportions_ztest(0.5, 1.2, n_test=10)

    def test_nan(self):
        with pytest.raises(ValueError, match="`acc_a`"):
            proportions_ztest(np.nan, 0.5, n_test=10)

    def test_shape(self):
        with pytest.raises(ValueError, match="`acc_a` and `acc_b`"):
            proportions_ztest([0.5, 0.6], [0.5], n_test=10)

    def test_alternative(self):
        with pytest.raises(ValueError, match="`alternative`"):
            proportions_ztest(0.5, 0.6, n_test=10, alternative="up")


# --------------------------------------------------------------------------
# Cochran's Q and Looney's F
# --------------------------------------------------------------------------


def test_cochran_raschka_table2():
    # Raschka (2018) Eq. 51: Q = 7.5294, p ~= 0.023 with 2 df.
    res = cochran_q_test(TABLE2)
    assert round(float(res.statistic), 4) == 7.5294
    assert round(float(res.pvalue), 3) == 0.023
    assert res.df == 2
    np.testing.assert_allclose(TABLE2.mean(axis=0), [0.84, 0.92, 0.92])


def _random_correct(rng, n, m, p=0.8):
    return (rng.random((n, m)) < p).astype(int)


@pytest.mark.parametrize("seed,n,m", [(0, 30, 2), (1, 50, 3), (2, 100, 5), (3, 7, 4)])
def test_cochran_equals_statsmodels_and_mlxtend(seed, n, m):
    x = _random_correct(np.random.default_rng(seed), n, m)
    res = cochran_q_test(x)
    sm = sm_cochrans_q(x)
    np.testing.assert_allclose(res.statistic, sm.statistic, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, sm.pvalue, rtol=1e-10)
    y_true = np.zeros(n, dtype=int)
    preds = [1 - x[:, j] for j in range(m)]  # correct = prediction equals 0
    q, p = mlx_cochrans_q(y_true, *preds)
    np.testing.assert_allclose(res.statistic, q, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, p, rtol=1e-10)


def test_cochran_two_columns_equals_uncorrected_mcnemar():
    rng = np.random.default_rng(5)
    x = _random_correct(rng, 60, 2, 0.6)
    b = int(np.sum((x[:, 0] == 1) & (x[:, 1] == 0)))
    c = int(np.sum((x[:, 0] == 0) & (x[:, 1] == 1)))
    q = cochran_q_test(x)
    mc = mcnemar_test(b, c)
    np.testing.assert_allclose(q.statistic, mc.statistic, rtol=1e-12)
    np.testing.assert_allclose(q.pvalue, mc.pvalue, rtol=1e-12)


def test_looney_statistic_equals_mlxtend_pvalue_uses_errata_df():
    n, m = TABLE2.shape
    y_true = np.zeros(n, dtype=int)
    preds = [1 - TABLE2[:, j] for j in range(m)]
    f_mlx, p_mlx = mlx_ftest(y_true, *preds)
    res = looney_ftest(TABLE2)
    np.testing.assert_allclose(res.statistic, f_mlx, rtol=1e-10)
    # ERRATA (Raschka 4.7): second df (M - 1)(n - 1); mlxtend uses (M - 1) n.
    assert res.df == (2, 2 * 99)
    np.testing.assert_allclose(res.pvalue, stats.f.sf(f_mlx, 2, 2 * 99), rtol=1e-10)
    np.testing.assert_allclose(p_mlx, stats.f.sf(f_mlx, 2, 2 * 100), rtol=1e-10)


@pytest.mark.parametrize("seed,n,m", [(0, 30, 2), (1, 50, 3), (2, 100, 5)])
def test_looney_equals_two_way_anova(seed, n, m):
    # Independent oracle: two-way ANOVA without replication on the 0/1 matrix,
    # F = MS(classifier) / MS(residual).
    x = _random_correct(np.random.default_rng(seed), n, m).astype(float)
    grand = x.mean()
    ss_a = n * np.sum((x.mean(axis=0) - grand) ** 2)
    resid = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + grand
    ss_ab = np.sum(resid**2)
    f = (ss_a / (m - 1)) / (ss_ab / ((m - 1) * (n - 1)))
    res = looney_ftest(x)
    np.testing.assert_allclose(res.statistic, f, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, stats.f.sf(f, m - 1, (m - 1) * (n - 1)), rtol=1e-10)


@pytest.mark.parametrize("test", [cochran_q_test, looney_ftest])
def test_omnibus_nd_equals_loop(test):
    x = (np.random.default_rng(7).random((2, 3, 40, 4)) < 0.7).astype(int)
    res = test(x)
    assert res.pvalue.shape == (2, 3)
    for idx in np.ndindex(2, 3):
        r = test(x[idx])
        np.testing.assert_allclose(res.statistic[idx], r.statistic, rtol=1e-14)
        np.testing.assert_allclose(res.pvalue[idx], r.pvalue, rtol=1e-14)


def test_omnibus_degenerate():
    # Every case right by all or none: no information, statistic 0, p = 1.
    x = np.array([[1, 1, 1], [0, 0, 0], [1, 1, 1]])
    for test in (cochran_q_test, looney_ftest):
        res = test(x)
        assert res.statistic == 0.0 and res.pvalue == 1.0
    # Classifier 1 always right, 2 always wrong: F = inf, p = 0 (Weka convention).
    y = np.array([[1, 0], [1, 0], [1, 0]])
    res = looney_ftest(y)
    assert res.statistic == np.inf and res.pvalue == 0.0


@settings(max_examples=40, deadline=None)
@given(
    x=st.integers(2, 20).flatmap(
        lambda n: st.integers(2, 4).flatmap(
            lambda m: st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)
        )
    )
)
def test_omnibus_column_permutation_invariant_and_p_in_range(x):
    x = np.array(x)
    for test in (cochran_q_test, looney_ftest):
        a = test(x)
        b = test(x[:, ::-1])
        assert 0.0 <= a.pvalue <= 1.0
        np.testing.assert_allclose(a.pvalue, b.pvalue, rtol=1e-12)


class TestOmnibusValidation:
    @pytest.mark.parametrize("test", [cochran_q_test, looney_ftest])
    def test_not_binary(self, test):
        with pytest.raises(ValueError, match="`correct`"):
            test([[1, 2], [0, 1]])

    @pytest.mark.parametrize("test", [cochran_q_test, looney_ftest])
    def test_one_column(self, test):
        with pytest.raises(ValueError, match="`correct`"):
            test([[1], [0]])

    @pytest.mark.parametrize("test", [cochran_q_test, looney_ftest])
    def test_one_dimensional(self, test):
        with pytest.raises(ValueError, match="`correct`"):
            test([1, 0, 1])

    @pytest.mark.parametrize("test", [cochran_q_test, looney_ftest])
    def test_nan(self, test):
        with pytest.raises(ValueError, match="`correct`"):
            test([[1, np.nan], [0, 1]])

    @pytest.mark.parametrize("test", [cochran_q_test, looney_ftest])
    def test_no_rows(self, test):
        with pytest.raises(ValueError, match="`correct`"):
            test(np.zeros((0, 3)))

    def test_looney_one_row(self):
        with pytest.raises(ValueError, match="`correct`"):
            looney_ftest([[1, 0, 1]])


# --------------------------------------------------------------------------
# Bonferroni and Holm
# --------------------------------------------------------------------------


@pytest.mark.parametrize("method,func", [("bonferroni", bonferroni), ("holm", holm)])
def test_adjustments_equal_statsmodels(method, func):
    rng = np.random.default_rng(8)
    p = rng.random((4, 6)) ** 3
    p[0, :2] = p[0, 2]  # ties
    adj = func(p)
    for i in range(4):
        ref = multipletests(p[i], method=method)[1]
        np.testing.assert_allclose(adj[i], ref, rtol=1e-12)


def test_adjustments_reference_values():
    # Holm (1979) by hand: sorted 0.01, 0.02, 0.4 -> 3*0.01, max(0.03, 2*0.02), max(0.04, 0.4).
    np.testing.assert_allclose(holm([0.4, 0.01, 0.02]), [0.4, 0.03, 0.04], rtol=1e-12)
    np.testing.assert_allclose(bonferroni([0.4, 0.01, 0.02]), [1.0, 0.03, 0.06], rtol=1e-12)


@pytest.mark.parametrize("func", [bonferroni, holm])
class TestAdjustmentValidation:
    def test_out_of_range(self, func):
        with pytest.raises(ValueError, match="`pvalues`"):
            func([0.5, 1.5])

    def test_nan(self, func):
        with pytest.raises(ValueError, match="`pvalues`"):
            func([0.5, np.nan])

    def test_empty(self, func):
        with pytest.raises(ValueError, match="`pvalues`"):
            func([])


# ---------------------------------------------------------------- issue #19: 2x2 tables, counts as numbers
@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("method", ["chi2", "exact"])
def test_mcnemar_table_equals_statsmodels_and_mlxtend(correction, method):
    rng = np.random.default_rng(19)
    tables = rng.integers(0, 40, size=(6, 2, 2))
    res = mcnemar_test(tables, correction=correction, method=method)
    for i, table in enumerate(tables):
        one = mcnemar_test(table[0, 1], table[1, 0], correction=correction, method=method)
        assert res.pvalue[i] == one.pvalue and res.difference[i] == table[0, 1] - table[1, 0]
        sm = sm_mcnemar(table, exact=method == "exact", correction=correction)
        np.testing.assert_allclose(res.pvalue[i], sm.pvalue, rtol=1e-10)
        if method == "chi2":
            chi2, p = mlx_mcnemar(table, corrected=correction)
            np.testing.assert_allclose(res.pvalue[i], p, rtol=1e-10)


def test_mcnemar_table_must_be_2x2():
    with pytest.raises(ValueError, match="`b` must be a 2x2 contingency table"):
        mcnemar_test([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError, match="`b` must be a 2x2"):
        mcnemar_test(5)


@pytest.mark.parametrize("bad", ["11", True, [True, False], ["3", "4"], np.array([1, 0], dtype=bool)])
def test_mcnemar_rejects_strings_and_bools(bad):
    with pytest.raises(TypeError, match="`b` must hold numbers, not"):
        mcnemar_test(bad, np.ones(np.shape(bad)))
    with pytest.raises(TypeError, match="`c` must hold numbers, not"):
        mcnemar_test(np.ones(np.shape(bad)), bad)


def test_mcnemar_table_equals_mlxtend_and_feeds_mcnemar_test():
    from mlxtend.evaluate import mcnemar_table as mlx_table

    from replicability.stats.contingency import mcnemar_table

    rng = np.random.default_rng(43)
    y = rng.integers(0, 3, 200)
    pred_a = np.where(rng.random(200) < 0.8, y, (y + 1) % 3)
    pred_b = np.where(rng.random(200) < 0.7, y, (y + 2) % 3)
    table = mcnemar_table(y, pred_a, pred_b)
    np.testing.assert_array_equal(table, mlx_table(y_target=y, y_model1=pred_a, y_model2=pred_b))
    assert table.dtype == np.int64 and table.sum() == 200
    res = mcnemar_test(table)
    sm = sm_mcnemar(table, exact=False, correction=False)
    np.testing.assert_allclose(res.pvalue, sm.pvalue, rtol=1e-10)
    labels = np.array(["cat", "dog", "dog"])
    np.testing.assert_array_equal(mcnemar_table(labels, ["cat", "dog", "cat"], ["dog", "dog", "dog"]),
                                  [[1, 1], [1, 0]])


def test_mcnemar_table_checks_its_arrays():
    from replicability.stats.contingency import mcnemar_table

    with pytest.raises(ValueError, match="`y`, `pred_a` and `pred_b` must have the same length; got 3, 3, 2"):
        mcnemar_table([0, 1, 1], [0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="`pred_a` must be a non-empty 1-d array of labels"):
        mcnemar_table([0, 1], [[0, 1]], [0, 1])
