"""Tests for replicability.stats.resampling (Raschka 2018, Section 2).

Bootstrap inclusion, the accuracy estimates compared, subsamples.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from replicability.stats.bootstrap import bootstrap_632, bootstrap_632_plus
from replicability.stats.resampling import (
    bootstrap_inclusion_probability,
    compare_accuracy_estimates,
    subsample_moments,
)


def _seed_stream(seed):
    # The same int seeds the module draws for scikit-learn's splitters.
    gen = np.random.default_rng(seed)
    return lambda: int(gen.integers(2**31 - 1))


# ------------------------------------------------------------- inclusion probability


def test_inclusion_probability_small_n_by_hand():
    # n = 1: always drawn; n = 2: 1 - (1/2)^2 = 0.75; n = 3: 1 - (2/3)^3 = 19/27.
    np.testing.assert_allclose(
        bootstrap_inclusion_probability([1, 2, 3]), [1.0, 0.75, 19 / 27], rtol=1e-14
    )


def test_inclusion_probability_limit_is_one_minus_inverse_e():
    # Raschka 2018 Eq. 33: approximately 0.632 for large n.
    assert bootstrap_inclusion_probability(10**9) == pytest.approx(
        1 - np.exp(-1), rel=1e-9
    )
    assert round(float(bootstrap_inclusion_probability(10**6)), 3) == 0.632


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1, max_value=10**6))
def test_inclusion_probability_equals_direct_formula(n):
    assert bootstrap_inclusion_probability(n) == pytest.approx(
        1 - (1 - 1 / n) ** n, rel=1e-10
    )


def test_inclusion_probability_decreases_with_n():
    p = bootstrap_inclusion_probability(np.arange(1, 500))
    assert np.all(np.diff(p) < 0)


def test_inclusion_probability_matches_simulated_unique_share():
    gen = np.random.default_rng(0)
    n = 20
    draws = gen.integers(n, size=(5000, n))
    unique_share = np.mean([np.unique(row).size / n for row in draws])
    assert unique_share == pytest.approx(bootstrap_inclusion_probability(n), abs=0.005)


@pytest.mark.parametrize("n", [0, 2.0, -5])
def test_inclusion_probability_rejects_bad_n(n):
    with pytest.raises(ValueError, match="`n`"):
        bootstrap_inclusion_probability(n)


# ------------------------------------------------------------- estimator comparison


def test_compare_estimates_equal_package_estimators():
    est = DecisionTreeClassifier(random_state=0)
    ds = compare_accuracy_estimates(
        est,
        n_train=40,
        n_truth=300,
        n_datasets=2,
        n_splits=15,
        n_folds=5,
        rng=8,
        data_params={"n_features": 5},
    )
    seeds = _seed_stream(8)
    X, y = make_classification(
        n_samples=300 + 2 * 40, random_state=seeds(), n_features=5
    )
    for d in range(2):
        Xd, yd = (
            X[300 + 40 * d : 300 + 40 * (d + 1)],
            y[300 + 40 * d : 300 + 40 * (d + 1)],
        )
        full = DecisionTreeClassifier(random_state=0).fit(Xd, yd)
        assert float(ds["truth"][d]) == pytest.approx(
            np.mean(full.predict(X[:300]) == y[:300]), rel=1e-12
        )
        boot_seed, cv_seed = seeds(), seeds()
        row = ds["estimate"].sel(dataset=d)
        assert float(row.sel(kind="b632")) == pytest.approx(
            bootstrap_632(est, Xd, yd, n_splits=15, rng=boot_seed).mean(), rel=1e-12
        )
        assert float(row.sel(kind="b632_plus")) == pytest.approx(
            bootstrap_632_plus(est, Xd, yd, n_splits=15, rng=boot_seed).mean(),
            rel=1e-12,
        )
        with np.errstate(divide="ignore", invalid="ignore"):
            raschka = bootstrap_632_plus(
                est, Xd, yd, n_splits=15, rng=boot_seed, variant="raschka"
            ).mean()
        np.testing.assert_allclose(
            float(row.sel(kind="b632_plus_raschka")), raschka, rtol=1e-12
        )
        pred = cross_val_predict(
            est, Xd, yd, cv=StratifiedKFold(5, shuffle=True, random_state=cv_seed)
        )
        assert float(row.sel(kind="cv")) == pytest.approx(
            np.mean(pred == yd), rel=1e-12
        )
        assert float(row.sel(kind="resubstitution")) == pytest.approx(
            np.mean(full.predict(Xd) == yd), rel=1e-12
        )


def test_compare_estimates_one_nn_orders_the_estimates():
    ds = compare_accuracy_estimates(
        KNeighborsClassifier(1),
        n_train=30,
        n_truth=100,
        n_datasets=2,
        n_splits=10,
        n_folds=3,
        rng=1,
    )
    est = ds["estimate"]
    np.testing.assert_array_equal(est.sel(kind="resubstitution"), np.ones(2))
    # 1-NN classifies its own training instances correctly, so each round's accuracy on
    # the whole data set is at least its out-of-bag accuracy: .632 (Eq. 34) >= oob.
    assert np.all(est.sel(kind="b632") >= est.sel(kind="oob"))
    assert np.all(est.sel(kind="b632") < 1)


def test_compare_estimates_rejects_small_n_train():
    with pytest.raises(ValueError, match="`n_train`"):
        compare_accuracy_estimates(
            KNeighborsClassifier(1), n_train=10, n_truth=50, n_datasets=1, n_folds=10
        )


def test_compare_estimates_rejects_bad_n_folds():
    with pytest.raises(ValueError, match="`n_folds`"):
        compare_accuracy_estimates(
            KNeighborsClassifier(1), n_train=30, n_truth=50, n_datasets=1, n_folds=1
        )


def test_compare_estimates_rejects_bad_n_truth():
    with pytest.raises(ValueError, match="`n_truth`"):
        compare_accuracy_estimates(
            KNeighborsClassifier(1), n_train=30, n_truth=0, n_datasets=1
        )


def test_compare_estimates_rejects_bad_n_datasets():
    with pytest.raises(ValueError, match="`n_datasets`"):
        compare_accuracy_estimates(
            KNeighborsClassifier(1), n_train=30, n_truth=50, n_datasets=0
        )


def test_compare_estimates_rejects_bad_n_splits():
    with pytest.raises(ValueError, match="`n_splits`"):
        compare_accuracy_estimates(
            KNeighborsClassifier(1), n_train=30, n_truth=50, n_datasets=1, n_splits=0
        )


def test_compare_estimates_rejects_data_params_that_clash():
    with pytest.raises(ValueError, match="`data_params`"):
        compare_accuracy_estimates(
            KNeighborsClassifier(1),
            n_train=30,
            n_truth=50,
            n_datasets=1,
            data_params={"n_samples": 10},
        )


# ---------------------------------------------------------------- subsample_moments


def test_subsample_moments_match_numpy_on_each_subsample():
    X = np.random.default_rng(3).normal(size=(50, 3))
    ds = subsample_moments(X, [5, 50], n_runs=4, rng=0)
    # The full-size subsample is a permutation of X: its moments are X's.
    np.testing.assert_allclose(ds["mean"].values[1], np.broadcast_to(X.mean(0), (4, 3)), rtol=1e-12)
    np.testing.assert_allclose(ds["cov"].values[1], np.broadcast_to(np.cov(X.T), (4, 3, 3)), rtol=1e-12)
    assert ds["cov"].shape == (2, 4, 3, 3)


def test_subsample_mean_variance_follows_finite_population_formula():
    # Var(mean of m of n without replacement) = s^2 (1/m - 1/n), s^2 with ddof=1.
    X = np.random.default_rng(4).normal(size=(200, 1))
    m, n = 20, 200
    ds = subsample_moments(X, [m], n_runs=20000, rng=5)
    expected = X.var(ddof=1) * (1 / m - 1 / n)
    observed = float(ds["mean"].values.var())
    # Monte Carlo: the variance estimate has relative sd ~ sqrt(2 / 20000) = 1%.
    assert observed == pytest.approx(expected, rel=0.05)


@pytest.mark.parametrize("sizes", [[1], [201], [2.5]])
def test_subsample_moments_rejects_bad_sizes(sizes):
    with pytest.raises(ValueError, match="`sizes`"):
        subsample_moments(np.zeros((200, 2)), sizes)


def test_subsample_moments_rejects_non_2d():
    with pytest.raises(ValueError, match="`X`"):
        subsample_moments(np.zeros(5), [2])
