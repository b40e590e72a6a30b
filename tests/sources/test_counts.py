"""Tests of exact count sampling for learners that ignore the training data.

The oracle is instance-level simulation: draw instances with ``sample_task1``,
split them with scikit-learn's ``ShuffleSplit`` / ``KFold``, and compute the
four per-fold statistics from the predictions of Task I's learners.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.model_selection import KFold, ShuffleSplit

from replicability.sources.counts import (
    FoldStatistics,
    cv_fold_counts,
    holdout_fold_counts,
    sample_task1_counts,
    task1_fold_statistics,
)
from replicability.sources.synthetic import sample_task1, task1_probabilities


def _within(observed, expected, se, k=4.0):
    return np.all(np.abs(np.asarray(observed) - np.asarray(expected)) <= k * np.asarray(se))


def _instance_statistics(X, y, test_index):
    """Statistics of A = "always 1" and B = "predict x" computed on instances."""
    pred_a = np.ones_like(y[test_index])
    pred_b = X[test_index, 0]
    right_a = pred_a == y[test_index]
    right_b = pred_b == y[test_index]
    return (len(test_index), right_a.sum(), right_b.sum(), (right_a & right_b).sum())


def _mcnemar_reject(stat, alpha=0.05):
    """Uncorrected McNemar chi-square on the discordant counts b, c (no pairs: accept)."""
    n_test, ca, cb, both = (np.asarray(s) for s in stat)
    b, c = ca - both, cb - both
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = np.where(b + c > 0, (b - c) ** 2 / np.maximum(b + c, 1), 0.0)
    return chi2 > stats.chi2.ppf(1 - alpha, 1)


def _t_reject(diff, alpha=0.05):
    """Two-sided one-sample t-test on the last axis; zero variance follows Weka's convention."""
    k = diff.shape[-1]
    mean = diff.mean(axis=-1)
    sd = diff.std(axis=-1, ddof=1)
    const = sd == 0
    t = np.divide(mean, sd / np.sqrt(k), out=np.zeros_like(mean), where=~const)
    return np.where(const, mean != 0, np.abs(t) > stats.t.ppf(1 - alpha / 2, k - 1))


def _agree_with_rate_se(r1, r2):
    """Difference of two rejection rates, and its standard error."""
    m1, m2 = len(r1), len(r2)
    p1, p2 = r1.mean(), r2.mean()
    return abs(p1 - p2), np.sqrt(p1 * (1 - p1) / m1 + p2 * (1 - p2) / m2)


# ---------------------------------------------------------------- sample_task1_counts


def test_sample_task1_counts_shape_sum_and_mean():
    n, m = 1000, 4000
    q = np.array([0.25, 0.4])
    counts = sample_task1_counts(n, q, n_datasets=m, rng=0)
    assert counts.shape == (2, m, 4) and counts.dtype == np.int64
    assert np.all(counts.sum(axis=-1) == n)
    p = task1_probabilities(q)
    # Multinomial: mean n p, variance n p (1 - p) per cell.
    assert _within(counts.mean(axis=1), n * p, np.sqrt(n * p * (1 - p) / m))
    assert _within(counts.var(axis=1, ddof=1), n * p * (1 - p), n * p * (1 - p) * np.sqrt(2 / (m - 1)))


def test_sample_task1_counts_matches_instances():
    # Cell counts of sample_task1 instances have the same distribution.
    n, q, m = 50, 0.3, 3000
    rng = np.random.default_rng(1)
    inst = np.array([np.bincount(2 * X[:, 0] + y, minlength=4) for X, y in
                     (sample_task1(n, q, rng=rng) for _ in range(m))])
    cnt = sample_task1_counts(n, q, n_datasets=m, rng=2)
    sd = np.sqrt(inst.var(axis=0) / m + cnt.var(axis=0) / m)
    assert _within(inst.mean(axis=0), cnt.mean(axis=0), sd)


# ---------------------------------------------------------------- holdout_fold_counts


def test_holdout_exact_small_case_pmf():
    # Exact oracle: scipy.stats.multivariate_hypergeometric; chi-square goodness of fit.
    urn, n_test, m = np.array([2, 1, 3, 2]), 3, 40_000
    draws = holdout_fold_counts(urn, n_test=n_test, n_runs=m, rng=3)
    outcomes, observed = np.unique(draws, axis=0, return_counts=True)
    pmf = stats.multivariate_hypergeom.pmf(outcomes, m=urn, n=n_test)
    # every observed outcome is possible, and the possible ones are all observed
    assert np.all(pmf > 0)
    np.testing.assert_allclose(pmf.sum(), 1.0, rtol=1e-12)
    chi2 = ((observed - m * pmf) ** 2 / (m * pmf)).sum()
    assert stats.chi2.sf(chi2, len(pmf) - 1) > 1e-4


def test_holdout_mean_is_n_test_times_share():
    urn = np.array([[400, 100, 250, 250], [10, 20, 30, 140]])
    n_test, m = 100, 20_000
    draws = holdout_fold_counts(urn, n_test=n_test, n_runs=m, rng=4)
    assert draws.shape == (2, m, 4)
    assert np.all(draws.sum(axis=-1) == n_test)
    assert np.all((draws >= 0) & (draws <= urn[:, None, :]))
    N = urn.sum(axis=-1, keepdims=True)
    share = urn / N
    mean = n_test * share
    var = n_test * share * (1 - share) * (N - n_test) / (N - 1)  # hypergeometric variance
    assert _within(draws.mean(axis=1), mean, np.sqrt(var / m))


def test_holdout_takes_all_when_cell_empty():
    draws = holdout_fold_counts([0, 5, 0, 5], n_test=9, n_runs=50, rng=5)
    assert np.all(draws[:, [0, 2]] == 0)
    assert np.all(draws[:, [1, 3]] >= 4)


@pytest.mark.slow
def test_holdout_matches_shuffle_split_on_instances():
    # McNemar rejection rate, and the rate that two runs on the same data set
    # agree (the papers' replicability), count path vs instance path.
    n, q, n_test, m = 200, 0.33, 50, 3000
    rng = np.random.default_rng(6)
    inst = []
    for i in range(m):
        X, y = sample_task1(n, q, rng=rng)
        splitter = ShuffleSplit(n_splits=2, test_size=n_test, random_state=i)
        inst.append([_instance_statistics(X, y, test) for _, test in splitter.split(X)])
    inst = np.moveaxis(np.array(inst), -1, 0)  # (4, m, 2)
    counts = sample_task1_counts(n, q, n_datasets=m, rng=7)
    cnt = task1_fold_statistics(holdout_fold_counts(counts, n_test=n_test, n_runs=2, rng=8))
    rej_inst, rej_cnt = _mcnemar_reject(inst), _mcnemar_reject(cnt)
    assert 0.2 < rej_cnt.mean() < 0.8  # a rate where the comparison has power
    diff, se = _agree_with_rate_se(rej_inst[:, 0], rej_cnt[:, 0])
    assert diff <= 4 * se
    agree_inst = rej_inst[:, 0] == rej_inst[:, 1]
    agree_cnt = rej_cnt[:, 0] == rej_cnt[:, 1]
    diff, se = _agree_with_rate_se(agree_inst, agree_cnt)
    assert diff <= 4 * se


# ---------------------------------------------------------------- cv_fold_counts


@pytest.mark.parametrize("total, n_folds", [(100, 10), (103, 10), (7, 2), (10, 10), (31, 5)])
def test_cv_fold_sizes_as_kfold(total, n_folds):
    urn = np.array([total // 4, total // 4, total // 4, total - 3 * (total // 4)])
    folds = cv_fold_counts(urn, n_folds=n_folds, n_runs=3, rng=0)
    sizes = [len(test) for _, test in KFold(n_folds).split(np.zeros(total))]
    assert folds.shape == (3, n_folds, 4)
    assert np.array_equal(folds.sum(axis=-1), np.broadcast_to(sizes, (3, n_folds)))
    assert np.array_equal(folds.sum(axis=-2), np.broadcast_to(urn, (3, 4)))


def test_cv_batch_with_different_totals():
    urn = np.array([[[5, 5, 5, 5]], [[30, 0, 1, 2]]])  # shape (2, 1, 4), totals 20 and 33
    folds = cv_fold_counts(urn, n_folds=4, n_runs=2, rng=1)
    assert folds.shape == (2, 1, 2, 4, 4)
    np.testing.assert_array_equal(folds.sum(axis=-1)[0, 0], [[5] * 4] * 2)
    np.testing.assert_array_equal(folds.sum(axis=-1)[1, 0], [[9, 8, 8, 8]] * 2)
    np.testing.assert_array_equal(folds.sum(axis=-2), np.broadcast_to(urn[:, :, None, :], (2, 1, 2, 4)))


def test_cv_every_fold_has_hypergeometric_mean():
    urn, m = np.array([12, 30, 8, 53]), 20_000
    folds = cv_fold_counts(urn, n_folds=10, n_runs=m, rng=2)
    N = urn.sum()
    size = folds.sum(axis=-1)[0]  # [11, 11, 11, 10, ...]
    share = urn / N
    mean = size[:, None] * share
    var = size[:, None] * share * (1 - share) * (N - size[:, None]) / (N - 1)
    assert _within(folds.mean(axis=0), mean, np.sqrt(var / m))


@pytest.mark.slow
def test_cv_matches_kfold_on_instances():
    # Per-run t-test on the 10 fold accuracy differences (depends on the joint
    # distribution of the folds), McNemar on the smallest fold, and agreement of
    # two runs: count path vs instance path.
    n, q, k, m = 103, 0.34, 10, 2000
    rng = np.random.default_rng(9)
    inst = []
    for i in range(m):
        X, y = sample_task1(n, q, rng=rng)
        runs = []
        for r in range(2):
            cv = KFold(k, shuffle=True, random_state=2 * i + r)
            runs.append([_instance_statistics(X, y, test) for _, test in cv.split(X)])
        inst.append(runs)
    inst = np.moveaxis(np.array(inst), -1, 0)  # (4, m, 2, k)
    counts = sample_task1_counts(n, q, n_datasets=m, rng=10)
    cnt = np.array(task1_fold_statistics(cv_fold_counts(counts, n_folds=k, n_runs=2, rng=11)))
    assert cnt.shape == inst.shape
    np.testing.assert_array_equal(cnt[0], inst[0])  # fold sizes identical to KFold

    def t_rej(s):
        return _t_reject((s[1] - s[2]) / s[0])

    rej_inst, rej_cnt = t_rej(inst), t_rej(cnt)
    assert 0.2 < rej_cnt[:, 0].mean() < 0.8
    diff, se = _agree_with_rate_se(rej_inst[:, 0], rej_cnt[:, 0])
    assert diff <= 4 * se
    diff, se = _agree_with_rate_se(rej_inst[:, 0] == rej_inst[:, 1], rej_cnt[:, 0] == rej_cnt[:, 1])
    assert diff <= 4 * se
    mc_inst, mc_cnt = _mcnemar_reject(inst[..., -1]), _mcnemar_reject(cnt[..., -1])
    diff, se = _agree_with_rate_se(mc_inst[:, 0], mc_cnt[:, 0])
    assert diff <= 4 * se
    # variance of the accuracy difference across folds, averaged over data sets
    v_inst = ((inst[1] - inst[2]) / inst[0]).var(axis=-1, ddof=1)[:, 0]
    v_cnt = ((cnt[1] - cnt[2]) / cnt[0]).var(axis=-1, ddof=1)[:, 0]
    assert abs(v_inst.mean() - v_cnt.mean()) <= 4 * np.sqrt(v_inst.var() / m + v_cnt.var() / m)


@settings(max_examples=60, deadline=None)
@given(
    urn=st.lists(st.integers(0, 60), min_size=4, max_size=4).filter(lambda c: sum(c) >= 2),
    n_folds=st.integers(2, 12),
    seed=st.integers(0, 2**32 - 1),
)
def test_cv_partition_property(urn, n_folds, seed):
    urn = np.array(urn)
    total = int(urn.sum())
    n_folds = min(n_folds, total)
    folds = cv_fold_counts(urn, n_folds=n_folds, n_runs=2, rng=seed)
    sizes = [len(test) for _, test in KFold(n_folds).split(np.zeros(total))]
    assert np.all(folds >= 0)
    assert np.array_equal(folds.sum(axis=-2), np.broadcast_to(urn, (2, 4)))
    assert np.array_equal(folds.sum(axis=-1), np.broadcast_to(sizes, (2, n_folds)))


@settings(max_examples=60, deadline=None)
@given(
    urn=st.lists(st.integers(0, 60), min_size=4, max_size=4).filter(lambda c: sum(c) >= 2),
    frac=st.floats(0, 1),
    seed=st.integers(0, 2**32 - 1),
)
def test_holdout_property(urn, frac, seed):
    urn = np.array(urn)
    n_test = 1 + int(frac * (urn.sum() - 2))
    draws = holdout_fold_counts(urn, n_test=n_test, n_runs=3, rng=seed)
    assert np.all((draws >= 0) & (draws <= urn))
    assert np.all(draws.sum(axis=-1) == n_test)


def test_reproducible_with_seed():
    urn = np.array([[10, 20, 30, 40], [5, 5, 5, 5]])
    a = cv_fold_counts(urn, n_folds=5, n_runs=3, rng=12)
    b = cv_fold_counts(urn, n_folds=5, n_runs=3, rng=np.random.default_rng(12))
    assert np.array_equal(a, b)
    a = holdout_fold_counts(urn, n_test=4, n_runs=3, rng=12)
    b = holdout_fold_counts(urn, n_test=4, n_runs=3, rng=np.random.default_rng(12))
    assert np.array_equal(a, b)


# ---------------------------------------------------------------- task1_fold_statistics


def test_fold_statistics_equal_instance_statistics():
    # Exact: statistics from cell counts of a test set = statistics from predictions.
    X, y = sample_task1(500, 0.3, rng=13)
    for seed in range(5):
        _, test = next(ShuffleSplit(1, test_size=0.3, random_state=seed).split(X))
        cells = np.bincount(2 * X[test, 0] + y[test], minlength=4)
        got = task1_fold_statistics(cells)
        assert isinstance(got, FoldStatistics)
        assert tuple(int(v) for v in got) == tuple(int(v) for v in _instance_statistics(X, y, test))


def test_fold_statistics_vectorized():
    c = np.arange(24).reshape(2, 3, 4)
    got = task1_fold_statistics(c)
    assert got.n_test.shape == (2, 3)
    for idx in np.ndindex(2, 3):
        one = task1_fold_statistics(c[idx])
        assert tuple(int(v) for v in one) == tuple(int(v[idx]) for v in got)
    np.testing.assert_array_equal(got.correct_both, c[..., 3])


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize("n", [0, 1.5])
def test_sample_task1_counts_rejects_bad_n(n):
    with pytest.raises(ValueError, match="`n`"):
        sample_task1_counts(n, 0.3, rng=0)


def test_sample_task1_counts_rejects_bad_q():
    with pytest.raises(ValueError, match="`q`"):
        sample_task1_counts(10, 0.6, rng=0)


def test_sample_task1_counts_rejects_bad_n_datasets():
    with pytest.raises(ValueError, match="`n_datasets`"):
        sample_task1_counts(10, 0.3, n_datasets=0, rng=0)


def test_rejects_bad_rng():
    with pytest.raises(ValueError, match="`rng`"):
        holdout_fold_counts([1, 2, 3, 4], n_test=2, rng="x")


@pytest.mark.parametrize("counts", [[1, 2, 3], [1, -2, 3, 4], [1.5, 2, 3, 4], [np.nan, 1, 1, 1], 5])
def test_rejects_bad_cell_counts(counts):
    with pytest.raises(ValueError, match="`cell_counts`"):
        holdout_fold_counts(counts, n_test=1, rng=0)
    with pytest.raises(ValueError, match="`cell_counts`"):
        cv_fold_counts(counts, n_folds=2, rng=0)


def test_rejects_non_numeric_cell_counts():
    with pytest.raises(TypeError, match="`cell_counts`"):
        holdout_fold_counts(["a", "b", "c", "d"], n_test=1, rng=0)


@pytest.mark.parametrize("counts", [["1", "2", "3", "4"], [True, False, True, True], np.ones(4, dtype=bool)])
def test_rejects_cell_counts_given_as_strings_or_bools(counts):
    # Issue #19: numpy would read "1" and True as the number 1.
    with pytest.raises(TypeError, match="`cell_counts` must hold numbers, not"):
        holdout_fold_counts(counts, n_test=1, rng=0)


@pytest.mark.parametrize("n_test", [0, 10, 11, 2.0])
def test_holdout_rejects_bad_n_test(n_test):
    with pytest.raises(ValueError, match="`n_test`"):
        holdout_fold_counts([1, 2, 3, 4], n_test=n_test, rng=0)


def test_holdout_rejects_bad_n_runs():
    with pytest.raises(ValueError, match="`n_runs`"):
        holdout_fold_counts([1, 2, 3, 4], n_test=2, n_runs=0, rng=0)


@pytest.mark.parametrize("n_folds", [1, 11, 3.0])
def test_cv_rejects_bad_n_folds(n_folds):
    with pytest.raises(ValueError, match="`n_folds`"):
        cv_fold_counts([1, 2, 3, 4], n_folds=n_folds, rng=0)


def test_cv_rejects_bad_n_runs():
    with pytest.raises(ValueError, match="`n_runs`"):
        cv_fold_counts([1, 2, 3, 4], n_folds=2, n_runs=-1, rng=0)


@pytest.mark.parametrize("counts", [[1, 2], [1, 2, -1, 0]])
def test_fold_statistics_rejects_bad_counts(counts):
    with pytest.raises(ValueError, match="`test_cell_counts`"):
        task1_fold_statistics(counts)
