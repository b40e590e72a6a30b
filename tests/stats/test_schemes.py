"""Tests for replicability.stats.schemes."""

import importlib.util

import numpy as np
import pytest
from scipy import stats

from replicability.stats.schemes import (
    SCHEMES,
    VARIANTS,
    SchemeMoments,
    scheme_moments,
    scheme_sample,
    scheme_test,
    scheme_ttest,
    scheme_ttest_from_moments,
)
from replicability.stats.ttests import paired_ttest

RTOL = 1e-10

# Bouckaert (2003), Figure 1: rows are runs, columns folds.
FIGURE1 = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])

COMBOS = [(s, v) for s in SCHEMES for v in VARIANTS if s != "all" or v == "plain"]


@pytest.fixture
def rng():
    return np.random.default_rng(2003)


# ---------------------------------------------------------------- Figure 1
def test_figure1_run_means():
    # Printed 2.22, 3.33, 2.22; ERRATA: run 3 is -2.22.
    np.testing.assert_array_equal(
        np.round(scheme_sample(FIGURE1, "folds"), 2), [2.22, 3.33, -2.22]
    )


def test_figure1_fold_means():
    np.testing.assert_array_equal(np.round(scheme_sample(FIGURE1, "runs"), 2), [5.55, 1.11, -3.33])


def test_figure1_sorted_means():
    np.testing.assert_array_equal(
        np.round(scheme_sample(FIGURE1, "sorted_runs"), 2), [-5.55, 1.11, 7.77]
    )


def test_all_sample_is_flattened():
    np.testing.assert_array_equal(scheme_sample(FIGURE1, "all"), FIGURE1.ravel())


# ---------------------------------------------------------------- Table 1 formulas
def test_all_plain_equals_paired_ttest_on_flattened(rng):
    d = rng.normal(0.0, 0.03, size=(4, 10, 10))
    for df in (None, 10):
        a = scheme_ttest(d, scheme="all", df=df)
        b = paired_ttest(d.reshape(4, 100), df=df)
        np.testing.assert_allclose(a.statistic, b.statistic, rtol=RTOL)
        np.testing.assert_allclose(a.pvalue, b.pvalue, rtol=RTOL)
    ref = stats.ttest_1samp(d.reshape(4, 100), 0.0, axis=-1)
    np.testing.assert_allclose(scheme_ttest(d, scheme="all").pvalue, ref.pvalue, rtol=RTOL)


@pytest.mark.parametrize("scheme", ["folds", "runs", "sorted_runs"])
def test_plain_equals_ttest_on_scheme_sample(rng, scheme):
    d = rng.normal(0.0, 0.03, size=(3, 5, 10))
    res = scheme_ttest(d, scheme=scheme)
    ref = stats.ttest_1samp(scheme_sample(d, scheme), 0.0, axis=-1)
    np.testing.assert_allclose(res.statistic, ref.statistic, rtol=RTOL)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=RTOL)
    assert res.df == (4.0 if scheme == "folds" else 9.0)


def _by_hand(d, scheme, variant, df=None):
    """Table 1 of Bouckaert (2003) written with explicit Python loops over i, j."""
    r, k = d.shape
    m = d.mean()
    x = np.sort(d, axis=1) if scheme == "sorted_runs" else d
    if scheme == "folds":
        groups = [x[j, :] for j in range(r)]  # sigma^2_.j over the k folds of run j
        default = (k - 1) if variant == "averaged_t" else (r - 1)
    else:
        groups = [x[:, i] for i in range(k)]  # sigma^2_i. over the r runs of fold i
        default = (r - 1) if variant == "averaged_t" else (k - 1)
    df = default if df is None else df
    if variant == "averaged_var":
        s2 = sum(np.var(g, ddof=1) for g in groups) / len(groups)
        z = m / np.sqrt(s2 / (df + 1))
    else:
        z = sum(g.mean() / np.sqrt(np.var(g, ddof=1) / (df + 1)) for g in groups) / len(groups)
    return z, 2 * stats.t.sf(abs(z), df), df


@pytest.mark.parametrize("scheme", ["folds", "runs", "sorted_runs"])
@pytest.mark.parametrize("variant", ["averaged_var", "averaged_t"])
@pytest.mark.parametrize("df", [None, 11])
def test_averaged_variants_match_table1(rng, scheme, variant, df):
    d = rng.normal(0.01, 0.03, size=(6, 4))
    res = scheme_ttest(d, scheme=scheme, variant=variant, df=df)
    z, p, dof = _by_hand(d, scheme, variant, df)
    np.testing.assert_allclose(res.statistic, z, rtol=RTOL)
    np.testing.assert_allclose(res.pvalue, p, rtol=RTOL)
    assert res.df == dof


# ---------------------------------------------------------------- invariances
@pytest.mark.parametrize("variant", VARIANTS)
def test_sorted_runs_invariant_to_permuting_folds_within_runs(rng, variant):
    d = rng.normal(0.0, 0.03, size=(10, 10))
    perm = np.array([rng.permutation(10) for _ in range(10)])
    shuffled = np.take_along_axis(d, perm, axis=1)
    a = scheme_ttest(d, scheme="sorted_runs", variant=variant)
    b = scheme_ttest(shuffled, scheme="sorted_runs", variant=variant)
    np.testing.assert_allclose(a.statistic, b.statistic, rtol=1e-12)
    np.testing.assert_allclose(a.pvalue, b.pvalue, rtol=1e-12)


@pytest.mark.parametrize("scheme,variant", COMBOS)
def test_batch_equals_loop(rng, scheme, variant):
    d = rng.normal(0.0, 0.03, size=(2, 3, 4, 5))
    d[1, 1] = 0.0  # a degenerate slice inside the batch
    batch = scheme_ttest(d, scheme=scheme, variant=variant, alternative="greater")
    assert np.shape(batch.pvalue) == (2, 3)
    for idx in np.ndindex(2, 3):
        one = scheme_ttest(d[idx], scheme=scheme, variant=variant, alternative="greater")
        np.testing.assert_allclose(batch.statistic[idx], one.statistic, rtol=1e-12)
        np.testing.assert_allclose(batch.pvalue[idx], one.pvalue, rtol=1e-12)
    np.testing.assert_allclose(
        scheme_sample(d, scheme)[1, 2], scheme_sample(d[1, 2], scheme), rtol=1e-12
    )


@pytest.mark.parametrize("scheme,variant", COMBOS)
def test_swapping_a_and_b_flips_sign(rng, scheme, variant):
    d = rng.normal(0.0, 0.03, size=(5, 4))
    a = scheme_ttest(d, scheme=scheme, variant=variant)
    b = scheme_ttest(-d, scheme=scheme, variant=variant)
    np.testing.assert_allclose(a.statistic, -b.statistic, rtol=1e-12)
    np.testing.assert_allclose(a.pvalue, b.pvalue, rtol=1e-12)


# ---------------------------------------------------------------- degenerate data
@pytest.mark.parametrize("scheme,variant", COMBOS)
def test_zero_differences_give_p_one(scheme, variant):
    res = scheme_ttest(np.zeros((4, 5)), scheme=scheme, variant=variant)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize("scheme,variant", COMBOS)
def test_constant_differences_give_p_zero(scheme, variant):
    res = scheme_ttest(np.full((4, 5), -0.02), scheme=scheme, variant=variant)
    assert (res.statistic, res.pvalue) == (-np.inf, 0.0)


# ---------------------------------------------------------------- scheme_test
def test_scheme_test_t_equals_scheme_ttest(rng):
    d = rng.normal(0.0, 0.03, size=(10, 10))
    a = scheme_test(d, scheme="runs", test="t", df=5)
    b = scheme_ttest(d, scheme="runs", df=5)
    assert tuple(a) == tuple(b)


@pytest.mark.skipif(
    importlib.util.find_spec("replicability.stats.nonparametric") is None,
    reason="replicability.stats.nonparametric not written yet",
)
@pytest.mark.parametrize("test", ["sign", "signed_rank"])
def test_scheme_test_nonparametric_on_scheme_sample(rng, test):
    from replicability.stats import nonparametric

    d = rng.normal(0.01, 0.03, size=(3, 10, 10))
    fn = nonparametric.sign_test if test == "sign" else nonparametric.signed_rank_test
    for scheme in SCHEMES:
        a = scheme_test(d, scheme=scheme, test=test, alternative="less")
        b = fn(scheme_sample(d, scheme), alternative="less")
        np.testing.assert_array_equal(a.statistic, b.statistic)
        np.testing.assert_array_equal(a.pvalue, b.pvalue)
        assert np.all((0 <= a.pvalue) & (a.pvalue <= 1))


# ---------------------------------------------------------------- from moments
@pytest.mark.parametrize("scheme,variant", COMBOS)
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_ttest_from_moments_is_scheme_ttest_bit_for_bit(rng, scheme, variant, alternative):
    # The moments computed once, the test applied at each df (a calibration grid): the same
    # numbers as scheme_ttest at that df, exactly, on N-d input with a degenerate slice.
    d = rng.normal(0.0, 0.03, size=(2, 3, 4, 5))
    d[1, 1] = 0.0
    d[0, 2] = -0.01
    moments = scheme_moments(d, scheme=scheme, variant=variant)
    assert isinstance(moments, SchemeMoments) and (moments.n_runs, moments.n_folds) == (4, 5)
    for df in (0.5, 1, 3, 10, 39.5, 1e6):
        got = scheme_ttest_from_moments(moments, df=df, alternative=alternative)
        want = scheme_ttest(d, scheme=scheme, variant=variant, df=df, alternative=alternative)
        np.testing.assert_array_equal(got.statistic, want.statistic, err_msg=f"df={df}")
        np.testing.assert_array_equal(got.pvalue, want.pvalue, err_msg=f"df={df}")
        np.testing.assert_array_equal(got.estimate, want.estimate)
        np.testing.assert_array_equal(got.standard_error, want.standard_error)
        assert got.df == want.df == float(df) and got.alternative == alternative


# ---------------------------------------------------------------- validation
def test_scheme_must_be_known():
    with pytest.raises(ValueError, match="`scheme`"):
        scheme_sample(FIGURE1, "sorted")


def test_variant_must_be_known():
    with pytest.raises(ValueError, match="`variant`"):
        scheme_ttest(FIGURE1, scheme="runs", variant="averaged")


def test_all_has_only_plain_variant():
    with pytest.raises(ValueError, match="`variant`"):
        scheme_ttest(FIGURE1, scheme="all", variant="averaged_var")


def test_test_must_be_known():
    with pytest.raises(ValueError, match="`test`"):
        scheme_test(FIGURE1, scheme="runs", test="wilcoxon")


def test_d_must_be_two_dimensional():
    with pytest.raises(ValueError, match="`d`"):
        scheme_sample([0.1, 0.2, 0.3], "all")


def test_d_needs_two_runs():
    with pytest.raises(ValueError, match="`d`"):
        scheme_ttest([[0.1, 0.2, 0.3]], scheme="runs")


def test_d_needs_two_folds():
    with pytest.raises(ValueError, match="`d`"):
        scheme_ttest([[0.1], [0.2]], scheme="folds")


def test_d_must_be_finite():
    with pytest.raises(ValueError, match="`d`"):
        scheme_ttest([[0.1, np.nan], [0.2, 0.3]], scheme="all")


def test_df_must_be_positive():
    with pytest.raises(ValueError, match="`df`"):
        scheme_ttest(FIGURE1, scheme="all", df=-1)


def test_alternative_must_be_known():
    with pytest.raises(ValueError, match="`alternative`"):
        scheme_ttest(FIGURE1, scheme="all", alternative="both")


@pytest.mark.parametrize("moments", [FIGURE1, (0.1, 0.2, None, None, None, 3, 3),
                                     scheme_ttest(FIGURE1, scheme="all")])
def test_moments_must_be_scheme_moments(moments):
    with pytest.raises(TypeError, match="`moments` must be a SchemeMoments"):
        scheme_ttest_from_moments(moments, df=10)


@pytest.mark.parametrize("df", [0, -1, -0.5, np.inf, np.nan, None, "10", True])
def test_from_moments_df_must_be_positive(df):
    with pytest.raises(ValueError, match="`df` must be a positive finite number"):
        scheme_ttest_from_moments(scheme_moments(FIGURE1, scheme="all"), df=df)


def test_from_moments_alternative_must_be_known():
    with pytest.raises(ValueError, match="`alternative`"):
        scheme_ttest_from_moments(scheme_moments(FIGURE1, scheme="all"), df=10, alternative="both")


@pytest.mark.parametrize("variant", ["averaged_var", "averaged_t"])
def test_moments_of_all_have_only_plain_variant(variant):
    with pytest.raises(ValueError, match="`variant` must be 'plain' for scheme 'all'"):
        scheme_moments(FIGURE1, scheme="all", variant=variant)


def test_moments_scheme_and_variant_must_be_known():
    with pytest.raises(ValueError, match="`scheme`"):
        scheme_moments(FIGURE1, scheme="sorted")
    with pytest.raises(ValueError, match="`variant`"):
        scheme_moments(FIGURE1, scheme="runs", variant="averaged")
