"""Tests of replicability.papers.bouckaert2003.study (the test battery of Bouckaert 2003)."""

import functools

import numpy as np
import pytest
from scipy import stats

from replicability.papers.bouckaert2003 import (
    CALIBRATED_TESTS,
    STUDY_TESTS,
    TEST_LABELS,
    null_calibration,
    rejection_counts,
    replicability_summary,
    select_calibrated_df,
    study_outcomes,
    study_test,
)
from replicability.papers.shared.synthetic_runs import fold_differences, synthetic_fold_counts
from replicability.stats.calibration import calibrate_df
from replicability.stats.decisions import decide
from replicability.stats.schemes import scheme_ttest

RNG = np.random.default_rng(20030)
# 40 data sets x 6 runs x 5 folds of differences with a small positive shift.
D = RNG.normal(0.01, 0.05, size=(40, 6, 5))
# Figure 1 of Bouckaert (2003), runs x folds.
FIG1 = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])


def test_names():
    assert len(STUDY_TESTS) == 13
    assert set(CALIBRATED_TESTS) <= set(STUDY_TESTS)
    assert len(CALIBRATED_TESTS) == 9
    # Row labels of Table 4 of Bouckaert (2003).
    assert [TEST_LABELS[t] for t in CALIBRATED_TESTS] == [
        "Resampling", "Cor-resampling", "k-fold cv", "Use all data", "folds averaged var",
        "folds averaged T", "runs averaged var", "runs averaged T", "sorted runs"]


def test_all_matches_scipy_one_sample_t():
    # Default df = k r - 1: the plain one-sample t-test on the flattened prefix.
    res = study_test(D, "all", n_runs=4)
    ref = stats.ttest_1samp(D[:, :4].reshape(40, -1), 0.0, axis=-1)
    np.testing.assert_allclose(res.statistic, ref.statistic, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=1e-10)
    assert res.df == 19.0


def test_resampling_uses_first_fold_of_each_run():
    res = study_test(D, "resampling", n_runs=5)
    ref = stats.ttest_1samp(D[:, :5, 0], 0.0, axis=-1)
    np.testing.assert_allclose(res.statistic, ref.statistic, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=1e-10)


def test_kfold_cv_uses_first_run_only():
    res = study_test(D, "kfold_cv", n_runs=3)
    ref = stats.ttest_1samp(D[:, 0, :], 0.0, axis=-1)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=1e-10)
    # A calibrated df enters both sqrt(df + 1) and t(df) (ERRATA, Bouckaert 2003).
    res = study_test(D, "kfold_cv", df=2.5)
    x = D[:, 0, :]
    t = x.mean(-1) / np.sqrt(x.var(-1, ddof=1) / 3.5)
    np.testing.assert_allclose(res.pvalue, 2 * stats.t.sf(np.abs(t), 2.5), rtol=1e-10)


def test_corrected_resampling_is_nadeau_bengio():
    # Nadeau & Bengio (2003): t = m / sqrt((1/n + n2/n1) s^2), t(n - 1), n2/n1 = 1/(k-1) = 1/4.
    x = D[:, :, 0]
    t = x.mean(-1) / np.sqrt((1 / 6 + 1 / 4) * x.var(-1, ddof=1))
    res = study_test(D, "corrected_resampling")
    np.testing.assert_allclose(res.statistic, t, rtol=1e-10)
    np.testing.assert_allclose(res.pvalue, 2 * stats.t.sf(np.abs(t), 5), rtol=1e-10)
    # Calibrated: 1/n becomes 1/(df + 1) (ERRATA interpretation).
    t7 = x.mean(-1) / np.sqrt((1 / 8 + 1 / 4) * x.var(-1, ddof=1))
    np.testing.assert_allclose(study_test(D, "corrected_resampling", df=7).statistic, t7, rtol=1e-10)


@pytest.mark.parametrize("test", [t for t in STUDY_TESTS if t not in ("resampling", "corrected_resampling",
                                                                        "kfold_cv")])
def test_scheme_tests_delegate_to_scheme_ttest(test):
    scheme, _, variant = test.partition("_averaged_")
    variant = {"": "plain", "var": "averaged_var", "t": "averaged_t"}[variant]
    res = study_test(D, test, n_runs=4, df=9)
    ref = scheme_ttest(D[:, :4], scheme=scheme, variant=variant, df=9)
    np.testing.assert_allclose(res.statistic, ref.statistic, rtol=1e-12)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=1e-12)


@pytest.mark.parametrize("test", STUDY_TESTS)
def test_vectorized_equals_loop_and_swap_flips_sign(test):
    batch = D.reshape(4, 10, 6, 5)
    res = study_test(batch, test, n_runs=5)
    for i in range(4):
        for j in range(10):
            one = study_test(batch[i, j], test, n_runs=5)
            np.testing.assert_allclose(res.pvalue[i, j], one.pvalue, rtol=1e-12)
    swapped = study_test(-D, test, n_runs=5)
    np.testing.assert_allclose(swapped.statistic, -study_test(D, test, n_runs=5).statistic, rtol=1e-12)


def test_weka_convention_for_constant_differences():
    zero = np.zeros((6, 5))
    const = np.full((6, 5), 0.02)
    for test in STUDY_TESTS:
        assert float(study_test(zero, test).pvalue) == 1.0
        assert float(study_test(const, test).pvalue) == 0.0


def test_figure1_resampling_value():
    # First column of Figure 1: 3.33, 6.66, 6.66; mean 5.55, sd 1.9226 -> t = 5.0 with 2 df.
    res = study_test(FIG1, "resampling")
    assert round(float(res.statistic), 4) == 5.0
    np.testing.assert_allclose(res.pvalue, stats.ttest_1samp([3.33, 6.66, 6.66], 0).pvalue, rtol=1e-10)


def test_rejection_counts_match_calibration_module():
    null = np.random.default_rng(1).normal(size=(300, 8, 4))
    tests = ["all", "folds_averaged_t", "corrected_resampling"]
    counts = rejection_counts(null, tests=tests, n_runs=[3, 8], df_values=[2, 5, 11, 40],
                              alphas=[0.01, 0.05])
    assert counts["rejections"].dims == ("test", "n_runs", "df", "alpha")
    assert int(counts["n_datasets"]) == 300
    for test in tests:
        for r in (3, 8):
            fn = functools.partial(study_test, test=test, n_runs=r)
            for alpha in (0.01, 0.05):
                ref = calibrate_df(fn, null, alpha=alpha, df_range=[2, 5, 11, 40])
                got = counts["rejections"].sel(test=test, n_runs=r, alpha=alpha).values / 300
                np.testing.assert_array_equal(got, ref.rejection_rates)
                cal = select_calibrated_df(counts, alpha=alpha).sel(test=test, n_runs=r)
                assert float(cal["df"]) == ref.df
                if ref.df == 0:
                    assert np.isnan(float(cal["type1_error"]))
                else:
                    assert float(cal["type1_error"]) == ref.type1_error


def test_rejection_counts_of_every_test_equal_study_test_at_each_df():
    # The grid computes a scheme's df-free part once; the counts equal study_test's at every df,
    # also on data sets with zero variances (all zero; a constant non-zero difference; one run constant).
    d = np.random.default_rng(2).normal(0.2, 1.0, size=(60, 5, 4))
    d[0], d[1], d[2, 0] = 0.0, 0.5, 0.25
    df_values, alphas = [2.0, 3.5, 9.0, 30.0], np.array([0.01, 0.05, 0.2])
    counts = rejection_counts(d, tests=STUDY_TESTS, n_runs=[2, 5], df_values=df_values, alphas=alphas, n_jobs=1)
    for test in STUDY_TESTS:
        for r in (2, 5):
            for df in df_values:
                p = np.asarray(study_test(d, test, n_runs=r, df=df).pvalue)
                expected = (p[:, None] < alphas).sum(axis=0)
                got = counts["rejections"].sel(test=test, n_runs=r, df=df).values
                np.testing.assert_array_equal(got, expected, err_msg=f"{test}, {r} runs, df {df}")


def test_select_calibrated_df_rule():
    # Hand-made counts: rates 0.02, 0.04, 0.04, 0.07 at df 2, 5, 8, 20 -> df 8 (tie to the larger df).
    import xarray as xr

    counts = xr.Dataset(
        {"rejections": (("test", "n_runs", "df", "alpha"), np.array([2, 4, 4, 7]).reshape(1, 1, 4, 1)),
         "n_datasets": ((), np.int64(100))},
        coords={"test": ["all"], "n_runs": [10], "df": [2.0, 5.0, 8.0, 20.0], "alpha": [0.05]},
    )
    cal = select_calibrated_df(counts, alpha=0.05)
    assert float(cal["df"].item()) == 8.0 and float(cal["type1_error"].item()) == 0.04
    # Every rate above 1%: the paper's df 0.
    counts = counts.assign_coords(alpha=[0.01])
    cal = select_calibrated_df(counts, alpha=0.01)
    assert float(cal["df"].item()) == 0.0 and np.isnan(float(cal["type1_error"].item()))


def test_study_outcomes_match_decide():
    df = {"all": 11.0, "runs_averaged_t": 9.0}
    out = study_outcomes(D, tests=["all", "runs_averaged_t", "kfold_cv"], alphas=[0.05, 0.2], df=df)
    assert out.shape == (3, 2, 40) and out.dtype == np.int8
    for i, test in enumerate(["all", "runs_averaged_t", "kfold_cv"]):
        for j, alpha in enumerate([0.05, 0.2]):
            np.testing.assert_array_equal(out[i, j], decide(study_test(D, test, df=df.get(test)), alpha=alpha))
    # The shift favours A: some +1, never more rejections at the smaller level.
    assert (out == 1).any()
    assert (np.abs(out[:, 0]) <= np.abs(out[:, 1])).all()
    np.testing.assert_array_equal(study_outcomes(-D, tests=["all"], alphas=[0.2]),
                                  -study_outcomes(D, tests=["all"], alphas=[0.2]))


def test_replicability_summary():
    outcomes = np.array([[0, 0, 0, 0], [1, 1, 1, 0], [1, -1, 1, -1]])
    s = replicability_summary(outcomes)
    # R2 per data set: 1, C(3,2)/C(4,2) = 0.5, 2/6 (Bouckaert 2004, Eq. 1).
    r2 = np.array([1.0, 0.5, 2 / 6])
    assert float(s["consistency"]) == pytest.approx(1 / 3, rel=1e-12)
    assert float(s["r2"]) == pytest.approx(r2.mean(), rel=1e-12)
    assert float(s["r2_se"]) == pytest.approx(r2.std(ddof=1) / np.sqrt(3), rel=1e-12)
    batched = replicability_summary(np.stack([outcomes, outcomes * 0]))
    np.testing.assert_allclose(batched["consistency"], [1 / 3, 1.0])


def test_validation():
    with pytest.raises(ValueError, match="`test`"):
        study_test(D, "mcnemar")
    with pytest.raises(ValueError, match="`n_runs`"):
        study_test(D, "all", n_runs=7)
    with pytest.raises(ValueError, match="`n_runs`"):
        study_test(D, "all", n_runs=1)
    with pytest.raises(ValueError, match="`d`"):
        study_test(D[:, :1], "all")
    with pytest.raises(ValueError, match="`df`"):
        study_test(D, "all", df=0)
    with pytest.raises(ValueError, match="`tests`"):
        study_outcomes(D, tests=["all", "nope"], alphas=[0.05])
    with pytest.raises(ValueError, match="`tests`"):
        study_outcomes(D, tests=[], alphas=[0.05])
    with pytest.raises(ValueError, match="`alphas`"):
        study_outcomes(D, tests=["all"], alphas=[1.5])
    with pytest.raises(ValueError, match="`d`"):
        rejection_counts(D[0], tests=["all"], n_runs=[2], df_values=[3], alphas=[0.05])
    with pytest.raises(ValueError, match="`df_values`"):
        rejection_counts(D, tests=["all"], n_runs=[2], df_values=[-1], alphas=[0.05])
    counts = rejection_counts(D, tests=["all"], n_runs=[2], df_values=[3], alphas=[0.05])
    with pytest.raises(ValueError, match="`alpha`"):
        select_calibrated_df(counts, alpha=0.01)
    with pytest.raises(ValueError, match="`outcomes`"):
        replicability_summary([[0, 1, 1]])


def test_null_calibration_matches_direct_counts(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path))
    kwargs = dict(n_datasets=4, seed=5, scale="smoke")
    ds = null_calibration(**kwargs, n_runs=[2, 4], n_folds=3, tests=["all", "kfold_cv"],
                          df_values=[2, 8], alphas=[0.05, 0.1], n_jobs=1)
    counts = synthetic_fold_counts("null", scheme_params={"n_runs": 4, "n_folds": 3}, n_repeats=1,
                                   n_jobs=1, **kwargs)
    assert dict(counts.sizes) == {"dataset": 4, "repeat": 1, "run": 4, "fold": 3}
    direct = rejection_counts(fold_differences(counts)[:, 0], tests=["all", "kfold_cv"], n_runs=[2, 4],
                              df_values=[2, 8], alphas=[0.05, 0.1])
    np.testing.assert_array_equal(ds["rejections"].values, direct["rejections"].values)
    with pytest.raises(ValueError, match="`n_runs`"):
        null_calibration(**kwargs, n_runs=[1])
    with pytest.raises(ValueError, match="`n_folds`"):
        null_calibration(**kwargs, n_folds=1)


def test_rejection_counts_same_with_worker_processes():
    d = np.random.default_rng(5).normal(0.01, 0.05, size=(60, 6, 5))
    grid = {"tests": ["all", "sorted_runs", "resampling", "kfold_cv"], "n_runs": [2, 6], "df_values": [2, 7.5, 30],
            "alphas": [0.05, 0.1]}
    serial = rejection_counts(d, n_jobs=1, **grid)
    parallel = rejection_counts(d, n_jobs=2, **grid)
    assert serial.identical(parallel)
    assert serial["rejections"].sum() > 0
