"""Tests for replicability.stats.calibration."""

import functools

import numpy as np
import pytest
from scipy import stats

from replicability.stats.calibration import CalibrationResult, calibrate_df, rejection_rate
from replicability.stats.schemes import scheme_ttest
from replicability.stats.ttests import paired_ttest


def _rates_by_hand(d, alpha, df_values):
    """Rejection rates written with scipy's t distribution, one data set at a time."""
    out = []
    for v in df_values:
        rejected = 0
        for row in d:
            t = row.mean() / np.sqrt(row.var(ddof=1) / (v + 1))
            rejected += 2 * stats.t.sf(abs(t), v) < alpha
        out.append(rejected / len(d))
    return np.array(out)


def test_exact_small_example():
    d = np.random.default_rng(5).normal(size=(40, 4))
    df_values = [1, 2, 3, 4, 6, 9]
    res = calibrate_df(paired_ttest, d, alpha=0.1, df_range=df_values)
    expected = _rates_by_hand(d, 0.1, df_values)
    np.testing.assert_array_equal(res.rejection_rates, expected)
    ok = expected <= 0.1
    best = expected[ok].max()
    assert res.type1_error == best
    assert res.df == max(v for v, r in zip(df_values, expected) if r == best)
    assert isinstance(res, CalibrationResult) and res.alpha == 0.1


def test_rates_grow_with_df_on_null_data():
    d = np.random.default_rng(6).normal(size=(2000, 5))
    res = calibrate_df(paired_ttest, d, alpha=0.05, df_range=range(2, 30))
    assert np.all(np.diff(res.rejection_rates) >= 0)


def test_independent_normal_null_calibrates_to_n_minus_one():
    # Independent N(0, 1) differences: the plain t-test with df = n - 1 is exact,
    # so the calibrated df sits at n - 1 up to Monte Carlo error.
    n = 10
    d = np.random.default_rng(7).normal(size=(20000, n))
    res = calibrate_df(paired_ttest, d, alpha=0.05, df_range=range(2, 31))
    assert abs(res.df - (n - 1)) <= 2
    assert res.type1_error <= 0.05
    # and that rate is within a 99.9% binomial interval around alpha
    lo, hi = stats.binom.interval(0.999, 20000, 0.05)
    assert lo / 20000 <= res.type1_error <= hi / 20000


def test_use_all_data_on_correlated_null_calibrates_low():
    # 10 x 10 "cv" with a shared per-run effect: the observations are dependent,
    # so calibration must pick a df far below k r - 1 = 99 (Bouckaert 2003, Sec. 4).
    rng = np.random.default_rng(8)
    d = rng.normal(size=(3000, 10, 1)) + rng.normal(size=(3000, 10, 10))
    test = functools.partial(scheme_ttest, scheme="all")
    res = calibrate_df(test, d, alpha=0.05, df_range=range(2, 101))
    assert res.df < 40
    assert res.type1_error <= 0.05


def test_no_df_qualifies_returns_zero():
    d = np.tile([1.0, 1.1, 0.9], (20, 1))  # every data set rejects at every df
    res = calibrate_df(paired_ttest, d, alpha=0.05, df_range=range(2, 6))
    assert res.df == 0.0 and np.isnan(res.type1_error)
    np.testing.assert_array_equal(res.rejection_rates, np.ones(4))


def test_rejection_rate_matches_loop():
    d = np.random.default_rng(9).normal(size=(50, 6))
    rate = rejection_rate(paired_ttest, d, alpha=0.2, df=3)
    assert rate == _rates_by_hand(d, 0.2, [3])[0]


def test_alpha_must_be_in_unit_interval():
    with pytest.raises(ValueError, match="`alpha`"):
        calibrate_df(paired_ttest, np.zeros((3, 4)), alpha=1.5)


def test_df_range_must_be_positive():
    with pytest.raises(ValueError, match="`df_range`"):
        calibrate_df(paired_ttest, np.zeros((3, 4)), alpha=0.05, df_range=[0, 1])


def test_df_range_must_not_be_empty():
    with pytest.raises(ValueError, match="`df_range`"):
        calibrate_df(paired_ttest, np.zeros((3, 4)), alpha=0.05, df_range=[])
