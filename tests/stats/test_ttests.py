"""Tests for replicability.stats.ttests."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from replicability.stats.ttests import (
    alpaydin_5x2cv_ftest,
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    dietterich_5x2cv_ttest,
    kfold_cv_ttest,
    paired_ttest,
    resampled_ttest,
)

ALTERNATIVES = ["two-sided", "less", "greater"]
RTOL = 1e-10


@pytest.fixture
def rng():
    return np.random.default_rng(20030101)


# ---------------------------------------------------------------- scipy equivalence
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_paired_ttest_equals_scipy_ttest_rel(rng, alternative):
    x = rng.normal(0.8, 0.05, size=(4, 3, 12))
    y = rng.normal(0.8, 0.05, size=(4, 3, 12))
    ours = paired_ttest(x, y, alternative=alternative)
    ref = stats.ttest_rel(x, y, axis=-1, alternative=alternative)
    np.testing.assert_allclose(ours.statistic, ref.statistic, rtol=RTOL)
    np.testing.assert_allclose(ours.pvalue, ref.pvalue, rtol=RTOL)
    assert ours.df == 11.0
    assert ours.alternative == alternative


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_paired_ttest_on_differences_equals_ttest_1samp(rng, alternative):
    d = rng.normal(0.01, 0.03, size=(5, 10))
    ours = paired_ttest(d, alternative=alternative)
    ref = stats.ttest_1samp(d, 0.0, axis=-1, alternative=alternative)
    np.testing.assert_allclose(ours.statistic, ref.statistic, rtol=RTOL)
    np.testing.assert_allclose(ours.pvalue, ref.pvalue, rtol=RTOL)


def test_scalar_result_for_1d_input_unpacks():
    stat, p = paired_ttest([0.1, 0.2, 0.05])
    assert np.ndim(stat) == 0 and np.ndim(p) == 0


def test_resampled_and_kfold_equal_scipy(rng):
    d = rng.normal(0.0, 0.02, size=(3, 10))
    ref = stats.ttest_1samp(d, 0.0, axis=-1)
    for fn in (resampled_ttest, kfold_cv_ttest):
        res = fn(d)
        np.testing.assert_allclose(res.statistic, ref.statistic, rtol=RTOL)
        np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=RTOL)


# ---------------------------------------------------------------- calibrated df
def test_calibrated_df_replaces_both_sample_size_and_t_df(rng):
    # ERRATA (Bouckaert 2003): t = m / sqrt(s^2/(df+1)) with t(df).
    d = rng.normal(0.01, 0.03, size=100)
    res = paired_ttest(d, df=10)
    t = d.mean() / np.sqrt(d.var(ddof=1) / 11)
    np.testing.assert_allclose(res.statistic, t, rtol=RTOL)
    np.testing.assert_allclose(res.pvalue, 2 * stats.t.sf(abs(t), 10), rtol=RTOL)
    assert res.df == 10.0


def test_calibrated_df_equal_to_default_changes_nothing(rng):
    d = rng.normal(size=(2, 8))
    a, b = kfold_cv_ttest(d), kfold_cv_ttest(d, df=7)
    np.testing.assert_array_equal(a.statistic, b.statistic)
    np.testing.assert_array_equal(a.pvalue, b.pvalue)


# ---------------------------------------------------------------- corrected tests
def test_corrected_resampled_formula(rng):
    # Nadeau & Bengio (2003): m / sqrt((1/n + n2/n1) s^2), t(n - 1).
    d = rng.normal(0.01, 0.03, size=30)
    res = corrected_resampled_ttest(d, n_train=900, n_test=100)
    t = d.mean() / np.sqrt((1 / 30 + 100 / 900) * d.var(ddof=1))
    np.testing.assert_allclose(res.statistic, t, rtol=RTOL)
    np.testing.assert_allclose(res.pvalue, 2 * stats.t.sf(abs(t), 29), rtol=RTOL)


def test_corrected_resampled_calibrated_df(rng):
    # ERRATA interpretation: m / sqrt((1/(df+1) + n2/n1) s^2) with t(df).
    d = rng.normal(0.01, 0.03, size=30)
    res = corrected_resampled_ttest(d, n_train=0.9, n_test=0.1, df=20, alternative="greater")
    t = d.mean() / np.sqrt((1 / 21 + 0.1 / 0.9) * d.var(ddof=1))
    np.testing.assert_allclose(res.statistic, t, rtol=RTOL)
    np.testing.assert_allclose(res.pvalue, stats.t.sf(t, 20), rtol=RTOL)


def test_corrected_resampled_tends_to_paired_when_no_test_data(rng):
    d = rng.normal(0.01, 0.03, size=(3, 15))
    a = corrected_resampled_ttest(d, n_train=1e15, n_test=1e-15)
    b = paired_ttest(d)
    np.testing.assert_allclose(a.statistic, b.statistic, rtol=1e-12)


def test_corrected_repeated_cv_formula(rng):
    # Bouckaert & Frank (2004): m / sqrt((1/(k r) + n2/n1) s^2), t(k r - 1).
    d = rng.normal(0.01, 0.03, size=(10, 10))
    res = corrected_repeated_cv_ttest(d, n_train=90, n_test=10)
    t = d.mean() / np.sqrt((1 / 100 + 10 / 90) * d.var(ddof=1))
    np.testing.assert_allclose(res.statistic, t, rtol=RTOL)
    np.testing.assert_allclose(res.pvalue, 2 * stats.t.sf(abs(t), 99), rtol=RTOL)
    assert res.df == 99.0


def test_corrected_repeated_cv_equals_corrected_resampled_on_flattened(rng):
    x = rng.normal(0.8, 0.05, size=(2, 3, 5, 10))
    y = rng.normal(0.8, 0.05, size=(2, 3, 5, 10))
    a = corrected_repeated_cv_ttest(x, y, n_train=9, n_test=1, df=10)
    b = corrected_resampled_ttest(
        x.reshape(2, 3, 50), y.reshape(2, 3, 50), n_train=9, n_test=1, df=10
    )
    np.testing.assert_allclose(a.statistic, b.statistic, rtol=RTOL)
    np.testing.assert_allclose(a.pvalue, b.pvalue, rtol=RTOL)


# ---------------------------------------------------------------- batch = loop
CALLS = {
    "paired": (lambda d: paired_ttest(d, df=4), 1),
    "resampled": (lambda d: resampled_ttest(d, alternative="less"), 1),
    "corrected_resampled": (lambda d: corrected_resampled_ttest(d, n_train=9, n_test=1), 1),
    "kfold": (lambda d: kfold_cv_ttest(d, alternative="greater"), 1),
    "corrected_repeated_cv": (
        lambda d: corrected_repeated_cv_ttest(d, n_train=9, n_test=1),
        2,
    ),
    "dietterich": (dietterich_5x2cv_ttest, 2),
    "alpaydin": (alpaydin_5x2cv_ftest, 2),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_batch_equals_loop_over_slices(rng, name):
    fn, core = CALLS[name]
    core_shape = (5, 2) if core == 2 else (10,)
    d = rng.normal(0.0, 0.03, size=(3, 4) + core_shape)
    d[1, 2] = 0.0  # a degenerate slice inside the batch
    batch = fn(d)
    assert np.shape(batch.statistic) == (3, 4)
    for idx in np.ndindex(3, 4):
        one = fn(d[idx])
        np.testing.assert_allclose(batch.statistic[idx], one.statistic, rtol=1e-12)
        np.testing.assert_allclose(batch.pvalue[idx], one.pvalue, rtol=1e-12)


# ---------------------------------------------------------------- degenerate data
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_all_zero_differences_give_p_one(alternative):
    res = paired_ttest(np.zeros(10), alternative=alternative)
    assert res.statistic == 0.0 and res.pvalue == 1.0


def test_constant_nonzero_differences_weka_convention():
    res = paired_ttest(np.full(10, 0.1))
    assert res.statistic == np.inf and res.pvalue == 0.0
    res = paired_ttest(np.full(10, -0.1))
    assert res.statistic == -np.inf and res.pvalue == 0.0
    res = paired_ttest(np.full(10, 0.1), alternative="less")
    assert res.pvalue == 1.0


def test_constant_equal_scores_corrected_repeated_cv():
    x = np.full((10, 10), 0.9)
    res = corrected_repeated_cv_ttest(x, x, n_train=90, n_test=10)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    res = corrected_repeated_cv_ttest(x, x - 0.01, n_train=90, n_test=10)
    assert (res.statistic, res.pvalue) == (np.inf, 0.0)


def test_5x2_degenerate():
    z = np.zeros((5, 2))
    assert tuple(dietterich_5x2cv_ttest(z)) == (0.0, 1.0)
    assert tuple(alpaydin_5x2cv_ftest(z)) == (0.0, 1.0)
    c = np.full((5, 2), 0.02)
    assert tuple(dietterich_5x2cv_ttest(c)) == (np.inf, 0.0)
    assert tuple(alpaydin_5x2cv_ftest(c)) == (np.inf, 0.0)


# ---------------------------------------------------------------- Hypothesis properties
finite = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)
samples = arrays(float, st.integers(2, 20), elements=finite)
# A subnormal float keeps fewer significant bits, so scaling one is not exact: the
# scaling properties hold to rounding for values whose scaled copies stay normal
# (|x| >= 1e-290 times c >= 1e-3 is far above the smallest normal, about 2.2e-308).
scalable = finite.filter(lambda x: x == 0.0 or abs(x) >= 1e-290)


def _nondegenerate(d):
    return np.ptp(d) > 1e-6


@settings(max_examples=60, deadline=None)
@given(x=samples, seed=st.integers(0, 2**32 - 1))
def test_swapping_a_and_b_flips_sign_keeps_p(x, seed):
    y = np.random.default_rng(seed).uniform(-1, 1, size=x.shape)
    ab = corrected_resampled_ttest(x, y, n_train=9, n_test=1)
    ba = corrected_resampled_ttest(y, x, n_train=9, n_test=1)
    np.testing.assert_allclose(ab.statistic, -ba.statistic, rtol=1e-12)
    np.testing.assert_allclose(ab.pvalue, ba.pvalue, rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(d=samples, alternative=st.sampled_from(ALTERNATIVES), df=st.floats(0.5, 200))
def test_pvalue_in_unit_interval(d, alternative, df):
    p = paired_ttest(d, alternative=alternative, df=df).pvalue
    assert 0.0 <= p <= 1.0


@settings(max_examples=60, deadline=None)
@given(d=arrays(float, st.integers(2, 20), elements=scalable), c=st.floats(1e-3, 1e3))
def test_statistic_invariant_to_scaling(d, c):
    if not _nondegenerate(d):
        return
    a = paired_ttest(d)
    b = paired_ttest(c * d)
    np.testing.assert_allclose(a.statistic, b.statistic, rtol=1e-9)


@settings(max_examples=40, deadline=None)
@given(d=arrays(float, (5, 2), elements=scalable), c=st.floats(1e-3, 1e3))
@example(d=np.array([[2.22507386e-313, 1.0]] + [[1.0, 1.0]] * 4), c=0.00390625).xfail(
    raises=AssertionError, reason="a subnormal difference loses bits when scaled")
def test_5x2_sign_and_scale_properties(d, c):
    if not np.any(d[:, 0] != d[:, 1]):
        return
    t, f = dietterich_5x2cv_ttest(d), alpaydin_5x2cv_ftest(d)
    np.testing.assert_allclose(dietterich_5x2cv_ttest(-d).statistic, -t.statistic, rtol=1e-12)
    np.testing.assert_allclose(alpaydin_5x2cv_ftest(-d).statistic, f.statistic, rtol=1e-12)
    np.testing.assert_allclose(dietterich_5x2cv_ttest(c * d).statistic, t.statistic, rtol=1e-9)
    assert 0.0 <= t.pvalue <= 1.0 and 0.0 <= f.pvalue <= 1.0


# ---------------------------------------------------------------- mlxtend oracle
def _five_by_two_scores(seed):
    """Per-split accuracies on mlxtend's own splits (mlxtend/evaluate/ttest.py)."""
    from sklearn.datasets import load_iris
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_iris(return_X_y=True)
    a = GaussianNB()
    b = DecisionTreeClassifier(random_state=1, max_depth=1)
    rs = np.random.RandomState(seed)
    acc = np.empty((2, 5, 2))
    for i in range(5):
        split = rs.randint(low=0, high=32767)
        X1, X2, y1, y2 = train_test_split(X, y, test_size=0.5, random_state=split)
        for j, (Xtr, Xte, ytr, yte) in enumerate([(X1, X2, y1, y2), (X2, X1, y2, y1)]):
            for e, est in enumerate((a, b)):
                acc[e, i, j] = est.fit(Xtr, ytr).score(Xte, yte)
    return acc, (a, b, X, y)


def test_5x2cv_tests_equal_mlxtend():
    from mlxtend.evaluate import combined_ftest_5x2cv, paired_ttest_5x2cv

    acc, (a, b, X, y) = _five_by_two_scores(seed=7)
    t_ref = paired_ttest_5x2cv(a, b, X, y, random_seed=7)
    f_ref = combined_ftest_5x2cv(a, b, X, y, random_seed=7)
    t = dietterich_5x2cv_ttest(acc[0], acc[1])
    f = alpaydin_5x2cv_ftest(acc[0], acc[1])
    np.testing.assert_allclose(tuple(t), t_ref, rtol=RTOL)
    np.testing.assert_allclose(tuple(f), f_ref, rtol=RTOL)
    assert t.df == 5.0 and f.df == (10.0, 5.0)


def test_5x2cv_formulas_by_hand():
    # Dietterich (1998) / Alpaydin (1999) formulas written out directly.
    d = np.array([[0.02, 0.01], [0.03, 0.00], [0.02, 0.01], [0.04, -0.01], [0.02, 0.01]])
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    t = d[0, 0] / np.sqrt(s2.sum() / 5)
    f = (d**2).sum() / (2 * s2.sum())
    np.testing.assert_allclose(dietterich_5x2cv_ttest(d).statistic, t, rtol=RTOL)
    np.testing.assert_allclose(alpaydin_5x2cv_ftest(d).pvalue, stats.f.sf(f, 10, 5), rtol=RTOL)


# ---------------------------------------------------------------- validation
def test_n_train_must_be_positive():
    with pytest.raises(ValueError, match="`n_train`"):
        corrected_resampled_ttest([0.1, 0.2], n_train=0, n_test=1)


def test_n_test_must_be_positive():
    with pytest.raises(ValueError, match="`n_test`"):
        corrected_repeated_cv_ttest([[0.1, 0.2]], n_train=9, n_test=-1)


def test_df_must_be_positive():
    with pytest.raises(ValueError, match="`df`"):
        paired_ttest([0.1, 0.2], df=0)


def test_fewer_than_two_values_raises():
    with pytest.raises(ValueError, match="`x`"):
        paired_ttest([0.1])


def test_corrected_repeated_cv_needs_two_values():
    with pytest.raises(ValueError, match="`x`"):
        corrected_repeated_cv_ttest([[0.1]], n_train=9, n_test=1)


def test_corrected_repeated_cv_flat_one_experiment_equals_runs_by_folds(rng):
    # Issue #19: a flat array of the k r values of one experiment is accepted, as
    # by corrected_resampled_ttest; only their number enters the statistic.
    d = rng.normal(0.01, 0.03, size=(10, 10))
    two = corrected_repeated_cv_ttest(d, n_train=90, n_test=10)
    flat = corrected_repeated_cv_ttest(d.ravel(), n_train=90, n_test=10)
    same = corrected_resampled_ttest(d.ravel(), n_train=90, n_test=10)
    assert flat == two == same


def test_corrected_repeated_cv_n_folds_reads_flat_batches(rng):
    d = rng.normal(0.01, 0.03, size=(3, 4, 50))  # 12 experiments of 5 runs x 10 folds, flat
    res = corrected_repeated_cv_ttest(d, n_train=90, n_test=10, n_folds=10)
    ref = corrected_repeated_cv_ttest(d.reshape(3, 4, 5, 10), n_train=90, n_test=10)
    np.testing.assert_array_equal(res.pvalue, ref.pvalue)
    assert res.df == 49.0
    with pytest.raises(ValueError, match="`n_folds` must divide"):
        corrected_repeated_cv_ttest(d, n_train=90, n_test=10, n_folds=7)
    with pytest.raises(ValueError, match="`n_folds`"):
        corrected_repeated_cv_ttest(d, n_train=90, n_test=10, n_folds=0)


def test_corrected_repeated_cv_one_value_says_what_to_pass():
    with pytest.raises(ValueError, match="n_folds=k"):
        corrected_repeated_cv_ttest([0.1], n_train=9, n_test=1)


@pytest.mark.parametrize("test", ["resampled", "repeated_cv"])
def test_corrected_tests_accept_the_same_array_sizes(rng, test):
    # One n_train / n_test per experiment, broadcast against the leading axes, in both tests.
    d = rng.normal(0.01, 0.03, size=(3, 2, 10, 10))
    n_train = np.array([[90.0, 80.0], [270.0, 60.0], [9.0, 45.0]])
    n_test = np.array([10.0, 20.0])  # broadcasts against the last leading axis
    if test == "resampled":
        res = corrected_resampled_ttest(d.reshape(3, 2, 100), n_train=n_train, n_test=n_test)
    else:
        res = corrected_repeated_cv_ttest(d, n_train=n_train, n_test=n_test)
    for i, j in np.ndindex(3, 2):
        one = corrected_resampled_ttest(d[i, j].ravel(), n_train=n_train[i, j], n_test=n_test[j])
        assert res.statistic[i, j] == one.statistic and res.pvalue[i, j] == one.pvalue


@pytest.mark.parametrize("fn", [corrected_resampled_ttest, corrected_repeated_cv_ttest])
def test_corrected_tests_name_bad_sizes(fn):
    d = np.random.default_rng(1).normal(size=(3, 10, 10))
    x = d.reshape(3, 100) if fn is corrected_resampled_ttest else d
    with pytest.raises(ValueError, match="`n_train` must be a number or an array with one value per test"):
        fn(x, n_train=np.ones(2), n_test=1)
    with pytest.raises(ValueError, match="`n_test` must be a number or an array"):
        fn(x, n_train=9, n_test=np.ones((3, 2)))  # would enlarge the batch
    with pytest.raises(TypeError, match="`n_train` must hold numbers, not strings"):
        fn(x, n_train="90", n_test=10)
    with pytest.raises(TypeError, match="`n_test` must hold numbers, not booleans"):
        fn(x, n_train=90, n_test=True)
    with pytest.raises(ValueError, match="`n_train`"):
        fn(x, n_train=[90.0, np.nan, 9.0], n_test=10)


# ---------------------------------------------------------------- results
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_confidence_interval_equals_scipy(rng, alternative, level):
    x, y = rng.normal(0.8, 0.05, size=(2, 3, 12))
    res = paired_ttest(x, y, alternative=alternative)
    ref = stats.ttest_rel(x, y, axis=-1, alternative=alternative).confidence_interval(level)
    ci = res.confidence_interval(confidence_level=level)
    np.testing.assert_allclose(ci.low, ref.low, rtol=1e-10)
    np.testing.assert_allclose(ci.high, ref.high, rtol=1e-10)
    one = paired_ttest(x[0], y[0], alternative=alternative).confidence_interval(level)
    assert isinstance(one.low, float) and isinstance(one.high, float)
    # Second oracle: statsmodels' t interval of the mean difference.
    from statsmodels.stats.weightstats import DescrStatsW

    sm_alt = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}[alternative]
    low, high = DescrStatsW(x[0] - y[0]).tconfint_mean(alpha=1 - level, alternative=sm_alt)
    np.testing.assert_allclose([one.low, one.high], [low, high], rtol=1e-10)


def test_corrected_confidence_interval_matches_the_test(rng):
    # The corrected interval (Nadeau & Bengio 2003 variance) excludes 0 exactly
    # when the test rejects; its half-width by hand: t_{0.975}(df) sqrt((1/n + n2/n1) s^2).
    d = rng.normal(0.01, 0.03, size=(200, 10, 10))
    res = corrected_repeated_cv_ttest(d, n_train=90, n_test=10)
    low, high = res.confidence_interval(0.95)
    flat = d.reshape(200, -1)
    half = stats.t.ppf(0.975, 99) * np.sqrt((1 / 100 + 10 / 90) * flat.var(axis=-1, ddof=1))
    np.testing.assert_allclose(low, flat.mean(axis=-1) - half, rtol=1e-10)
    np.testing.assert_array_equal((low > 0) | (high < 0), res.pvalue < 0.05)
    with pytest.raises(ValueError, match="`confidence_level`"):
        res.confidence_interval(95)


def test_result_repr_and_fields_are_plain():
    res = paired_ttest([0.81, 0.83, 0.80, 0.85], [0.78, 0.80, 0.81, 0.80])
    text = repr(res)
    assert "np.float64" not in text and text.startswith("TTestResult(statistic=1.98")
    fields = res._asdict()
    assert list(fields) == ["statistic", "pvalue", "df", "alternative", "estimate", "standard_error"]
    assert all(type(v) in (float, str) for v in fields.values())
    frame = res.to_frame()
    assert frame.shape == (1, 6) and frame.loc[0, "df"] == 3.0
    batch = paired_ttest(np.arange(12.0).reshape(2, 3, 2) ** 2).to_frame()
    assert batch.shape == (6, 6) and batch.index.nlevels == 2
    five = alpaydin_5x2cv_ftest(np.arange(10.0).reshape(5, 2)).to_frame()
    assert list(five.columns) == ["statistic", "pvalue", "df1", "df2", "alternative"]


def test_nan_raises():
    with pytest.raises(ValueError, match="`x`"):
        paired_ttest([0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="`y`"):
        paired_ttest([0.1, 0.2, 0.3], [0.1, np.nan, 0.3])


def test_shape_mismatch_raises():
    with pytest.raises(ValueError, match="`x` and `y`"):
        paired_ttest([0.1, 0.2, 0.3], [0.1, 0.2])


def test_alternative_must_be_known():
    with pytest.raises(ValueError, match="`alternative`"):
        paired_ttest([0.1, 0.2, 0.3], alternative="two_sided")


def test_5x2_shape_required():
    with pytest.raises(ValueError, match="`x`"):
        dietterich_5x2cv_ttest(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="`x`"):
        alpaydin_5x2cv_ftest(np.zeros((5, 3)))


# ---------------------------------------------------------------- Weka oracle
WEKA = Path(__file__).resolve().parents[1] / "fixtures" / "weka"


def _weka_cases():
    with open(WEKA / "inputs.csv") as fh:
        lines = fh.read().splitlines()[1:]
    with open(WEKA / "expected.csv") as fh:
        expected = {row[0]: row for row in (ln.split(",") for ln in fh.read().splitlines()[1:])}
    for line in lines:
        f = line.split(",")
        pairs = np.array(f[3:], dtype=float).reshape(-1, 2)
        exp = expected[f[0]]
        yield f[0], float(f[1]), float(f[2]), pairs[:, 0], pairs[:, 1], float(exp[1]), float(exp[2])


@pytest.mark.parametrize("case", list(_weka_cases()), ids=lambda c: c[0])
def test_corrected_repeated_cv_equals_weka(case):
    # Reference: Weka 3.6.14 PairedStatsCorrected (used by PairedCorrectedTTester);
    # see tests/fixtures/weka/README.md for the command that produced it.
    name, n_train, n_test, a, b, mean_ref, p_ref = case
    k = 3 if name == "r5_k3" else 10
    res = corrected_repeated_cv_ttest(
        a.reshape(-1, k), b.reshape(-1, k), n_train=n_train, n_test=n_test
    )
    np.testing.assert_allclose(np.mean(a - b), mean_ref, rtol=1e-12, atol=1e-15)
    # Weka evaluates the t tail with its own incomplete beta routine.
    np.testing.assert_allclose(res.pvalue, p_ref, rtol=1e-9, atol=1e-15)


def test_corrected_resampled_array_sizes_equal_one_call_per_row():
    rng = np.random.default_rng(7)
    d = rng.normal(0.01, 0.03, size=(3, 4, 15))
    n_train = np.array([[90.0], [80.0], [270.0]]) * np.ones((3, 4))
    n_test = np.array([[10.0], [20.0], [30.0]]) * np.ones((3, 4))
    res = corrected_resampled_ttest(d, n_train=n_train, n_test=n_test)
    for i in range(3):
        for j in range(4):
            one = corrected_resampled_ttest(d[i, j], n_train=n_train[i, j], n_test=n_test[i, j])
            assert res.statistic[i, j] == one.statistic and res.pvalue[i, j] == one.pvalue
    with pytest.raises(ValueError, match="`n_test`"):
        corrected_resampled_ttest(d, n_train=n_train, n_test=-n_test)
