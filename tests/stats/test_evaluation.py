"""Tests for replicability.stats.evaluation (Raschka 2018, Sections 1-2)."""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.neighbors import KNeighborsClassifier

from replicability.stats.bootstrap import holdout_accuracy_interval
from replicability.stats.evaluation import (
    learning_curve_scores,
    normal_interval_coverage,
    random_split_deviation_probability,
    repeated_holdout_scores,
    simulate_interval_coverage,
    split_class_counts,
)

X_IRIS, Y_IRIS = load_iris(return_X_y=True)


def _seed_stream(seed):
    # The same int seeds the module draws for scikit-learn's splitters.
    gen = np.random.default_rng(seed)
    return lambda: int(gen.integers(2**31 - 1))


# ---------------------------------------------------------------- split_class_counts


def test_split_class_counts_partition_the_classes():
    train, test = split_class_counts(Y_IRIS, test_size=1 / 3, n_runs=20, rng=3)
    assert train.shape == test.shape == (20, 3)
    np.testing.assert_array_equal(train + test, np.full((20, 3), 50))
    np.testing.assert_array_equal(test.sum(axis=1), np.full(20, 50))


def test_split_class_counts_stratified_keeps_proportions():
    train, test = split_class_counts(
        Y_IRIS, test_size=1 / 3, n_runs=20, stratified=True, rng=3
    )
    # 50 test instances over 3 equal classes: 16 or 17 of each.
    assert np.all((test >= 16) & (test <= 17))
    assert np.all((train >= 33) & (train <= 34))


def test_split_class_counts_random_follows_hypergeometric_moments():
    train, _ = split_class_counts(Y_IRIS, test_size=50, n_runs=4000, rng=11)
    dist = stats.hypergeom(150, 50, 100)  # setosa count among 100 training instances
    mean, var = dist.mean(), dist.var()
    se = np.sqrt(var / 4000)
    assert abs(train[:, 0].mean() - mean) < 4 * se
    assert abs(train[:, 0].var(ddof=1) / var - 1) < 0.1


def test_split_class_counts_is_reproducible():
    a = split_class_counts(Y_IRIS, n_runs=5, rng=7)
    b = split_class_counts(Y_IRIS, n_runs=5, rng=7)
    np.testing.assert_array_equal(a[0], b[0])


@pytest.mark.parametrize("test_size", [0.0, 1.0, 0, -3, "half", True])
def test_split_class_counts_rejects_bad_test_size(test_size):
    with pytest.raises(ValueError, match="`test_size`"):
        split_class_counts(Y_IRIS, test_size=test_size)


def test_split_class_counts_rejects_bad_n_repeats():
    with pytest.raises(ValueError, match="`n_runs`"):
        split_class_counts(Y_IRIS, n_runs=0)


def test_split_class_counts_rejects_bad_y():
    with pytest.raises(ValueError, match="`y`"):
        split_class_counts(np.zeros((3, 2)))


# ------------------------------------------------- random_split_deviation_probability


def test_deviation_probability_two_classes_is_two_sided_hypergeometric():
    # 10 + 10 instances, 10 drawn: count of class 0 ~ Hypergeom(20, 10, 10), mean 5.
    # Observed 7 (deviation 2): P(N <= 3) + P(N >= 7).
    dist = stats.hypergeom(20, 10, 10)
    expected = dist.cdf(3) + dist.sf(6)
    got = random_split_deviation_probability([10, 10], [7, 3])
    assert got == pytest.approx(expected, rel=1e-12)


def test_deviation_probability_of_a_perfect_split_is_one():
    assert random_split_deviation_probability(
        [50, 50, 50], [30, 30, 30]
    ) == pytest.approx(1.0, rel=1e-12)


def test_deviation_probability_matches_simulated_splits():
    # Raschka's Figure 1 split: 38/28/34 training instances of each class.
    p = random_split_deviation_probability([50, 50, 50], [38, 28, 34])
    train, _ = split_class_counts(Y_IRIS, test_size=50, n_runs=4000, rng=5)
    share = np.mean(
        np.max(np.abs(train - 100 / 3), axis=1)
        >= np.max(np.abs(np.array([38, 28, 34]) - 100 / 3)) - 1e-9
    )
    assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / 4000)


@pytest.mark.parametrize("sizes", [[5], [5, 0], [2.5, 3]])
def test_deviation_probability_rejects_bad_class_sizes(sizes):
    with pytest.raises(ValueError, match="`class_sizes`"):
        random_split_deviation_probability(sizes, [1] * len(sizes))


@pytest.mark.parametrize("counts", [[6, 1], [1], [-1, 2]])
def test_deviation_probability_rejects_bad_train_counts(counts):
    with pytest.raises(ValueError, match="`train_counts`"):
        random_split_deviation_probability([5, 5], counts)


# ------------------------------------------------------------------------ coverage


def _brute_force_coverage(p, n, level=0.95):
    total = 0.0
    for k in range(n + 1):
        ci = holdout_accuracy_interval(k / n, n_test=n, confidence_level=level)
        if ci.low <= p <= ci.high:
            total += stats.binom.pmf(k, n, p)
    return total


@pytest.mark.parametrize(
    ("p", "n", "level"),
    [(0.5, 40, 0.95), (0.9, 100, 0.95), (0.97, 30, 0.9), (0.3, 7, 0.99)],
)
def test_coverage_equals_sum_over_outcomes(p, n, level):
    got = normal_interval_coverage(p, n, confidence_level=level)
    assert got == pytest.approx(_brute_force_coverage(p, n, level), rel=1e-12)


def test_coverage_vectorized_equals_loop():
    p = np.array([[0.6], [0.8], [0.95]])
    n = np.array([10, 50, 200])
    got = normal_interval_coverage(p, n)
    assert got.shape == (3, 3)
    for i in range(3):
        for j in range(3):
            assert got[i, j] == pytest.approx(
                normal_interval_coverage(p[i, 0], int(n[j])), rel=1e-12
            )


def test_coverage_at_the_boundaries_is_one():
    # X = n always when p = 1: the interval [1, 1] contains p.
    np.testing.assert_allclose(
        normal_interval_coverage([0.0, 1.0], 25), [1.0, 1.0], rtol=1e-12
    )


def test_coverage_collapses_near_one_for_small_n():
    # p = 0.99, n = 10: the interval covers p only when X <= 9 and its width reaches
    # 0.99; with X = 10 (probability 0.99^10) it is [1, 1]: coverage below 1 - 0.99^10.
    assert normal_interval_coverage(0.99, 10) < 1 - 0.99**10 + 1e-12


def test_simulated_coverage_matches_exact():
    p = np.array([0.5, 0.9, 0.99])
    n = np.array([20, 100, 1000])
    exact = normal_interval_coverage(p, n)
    sim = simulate_interval_coverage(p, n, n_datasets=20000, rng=2)
    se = np.sqrt(exact * (1 - exact) / 20000)
    assert np.all(np.abs(sim - exact) < 4 * se + 1e-12)


def test_simulated_coverage_is_reproducible():
    a = simulate_interval_coverage(0.8, 30, n_datasets=50, rng=9)
    b = simulate_interval_coverage(0.8, 30, n_datasets=50, rng=9)
    assert a == b


@pytest.mark.parametrize("p", [-0.1, 1.5, np.nan])
def test_coverage_rejects_bad_p(p):
    with pytest.raises(ValueError, match="`p`"):
        normal_interval_coverage(p, 10)


@pytest.mark.parametrize("n", [0, 2.5])
def test_coverage_rejects_bad_n_test(n):
    with pytest.raises(ValueError, match="`n_test`"):
        normal_interval_coverage(0.5, n)


def test_coverage_rejects_bad_confidence_level():
    with pytest.raises(ValueError, match="`confidence_level`"):
        normal_interval_coverage(0.5, 10, confidence_level=95)


def test_simulated_coverage_rejects_bad_n_repeats():
    with pytest.raises(ValueError, match="`n_datasets`"):
        simulate_interval_coverage(0.5, 10, n_datasets=0)


# ------------------------------------------------------------------ repeated holdout


def test_repeated_holdout_equals_manual_loop():
    seed = _seed_stream(4)()
    splits = StratifiedShuffleSplit(n_splits=8, test_size=15, random_state=seed).split(
        X_IRIS, Y_IRIS
    )
    expected = []
    for train, test in splits:
        model = KNeighborsClassifier(3).fit(X_IRIS[train], Y_IRIS[train])
        expected.append(np.mean(model.predict(X_IRIS[test]) == Y_IRIS[test]))
    got = repeated_holdout_scores(
        KNeighborsClassifier(3), X_IRIS, Y_IRIS, n_runs=8, test_size=15, rng=4
    )
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    # 15 test instances: every accuracy is a multiple of 1/15.
    np.testing.assert_allclose(got * 15, np.round(got * 15), atol=1e-9)


def test_repeated_holdout_rejects_mismatched_xy():
    with pytest.raises(ValueError, match="`X`"):
        repeated_holdout_scores(KNeighborsClassifier(3), X_IRIS[:10], Y_IRIS)


def test_repeated_holdout_rejects_bad_n_repeats():
    with pytest.raises(ValueError, match="`n_runs`"):
        repeated_holdout_scores(KNeighborsClassifier(3), X_IRIS, Y_IRIS, n_runs=-1)


# ------------------------------------------------------------------- learning curve


def test_learning_curve_full_size_and_subset_equal_manual_fits():
    X_tr, y_tr, X_te, y_te = X_IRIS[::2], Y_IRIS[::2], X_IRIS[1::2], Y_IRIS[1::2]
    curve = learning_curve_scores(
        KNeighborsClassifier(3), X_tr, y_tr, X_te, y_te, train_sizes=[30, 75], rng=6
    )
    seed = _seed_stream(6)()
    subset, _ = next(
        StratifiedShuffleSplit(n_splits=1, train_size=30, random_state=seed).split(
            X_tr, y_tr
        )
    )
    small = KNeighborsClassifier(3).fit(X_tr[subset], y_tr[subset])
    full = KNeighborsClassifier(3).fit(X_tr, y_tr)
    np.testing.assert_allclose(
        curve.test_scores,
        [np.mean(small.predict(X_te) == y_te), np.mean(full.predict(X_te) == y_te)],
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        curve.train_scores,
        [
            np.mean(small.predict(X_tr[subset]) == y_tr[subset]),
            np.mean(full.predict(X_tr) == y_tr),
        ],
        rtol=1e-12,
    )
    np.testing.assert_array_equal(curve.train_sizes, [30, 75])


def test_learning_curve_one_nn_resubstitution_is_perfect():
    curve = learning_curve_scores(
        KNeighborsClassifier(1),
        X_IRIS[::2],
        Y_IRIS[::2],
        X_IRIS[1::2],
        Y_IRIS[1::2],
        train_sizes=[10, 40],
        rng=0,
    )
    # Iris has duplicate points with different labels only across halves, not within these subsets.
    assert np.all(curve.train_scores >= 0.97)


@pytest.mark.parametrize("sizes", [[2], [76], [10.5], []])
def test_learning_curve_rejects_bad_train_sizes(sizes):
    with pytest.raises(ValueError, match="`train_sizes`"):
        learning_curve_scores(
            KNeighborsClassifier(1),
            X_IRIS[::2],
            Y_IRIS[::2],
            X_IRIS[1::2],
            Y_IRIS[1::2],
            train_sizes=sizes,
        )
