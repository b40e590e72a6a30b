"""Tests of replicability.stats.cv_intervals: the naive and corrected cv intervals, cv folds and losses.

Oracles: scipy's normal and t quantiles by hand; the inversion of
``corrected_repeated_cv_ttest``; scikit-learn's ``cross_val_predict`` on the same folds.
"""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import PredefinedSplit, cross_val_predict

from replicability.stats.cv_intervals import (
    corrected_cv_interval,
    cv_fold_ids,
    cv_losses,
    naive_cv_interval,
)
from replicability.stats.ttests import corrected_repeated_cv_ttest


def _regression(n, p=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X @ np.linspace(1, -1, p) + rng.normal(size=n)
    return X, y


class ZeroPredictor(RegressorMixin, BaseEstimator):
    """Predicts 0 whatever it was fitted on: every loss is y², so nested cv has exact answers."""

    def fit(self, X, y):
        self.fitted_ = True
        return self

    def predict(self, X):
        return np.zeros(len(X))


# ------------------------------------------------------------------ naive interval
def test_naive_interval_is_mean_plus_minus_z_sd_over_sqrt_n():
    losses = np.random.default_rng(1).exponential(size=50)
    ci = naive_cv_interval(losses, confidence_level=0.9)
    half = stats.norm.ppf(0.95) * np.std(losses, ddof=1) / np.sqrt(50)
    assert ci.low == pytest.approx(losses.mean() - half, rel=1e-12)
    assert ci.high == pytest.approx(losses.mean() + half, rel=1e-12)


def test_naive_interval_batch_equals_loop():
    losses = np.random.default_rng(2).exponential(size=(3, 4, 20))
    ci = naive_cv_interval(losses)
    for idx in np.ndindex(3, 4):
        one = naive_cv_interval(losses[idx])
        assert ci.low[idx] == pytest.approx(one.low) and ci.high[idx] == pytest.approx(one.high)


@pytest.mark.parametrize("bad", [[1.0], [1.0, np.nan]])
def test_naive_interval_rejects_bad_losses(bad):
    with pytest.raises(ValueError, match="`losses`"):
        naive_cv_interval(bad)


@pytest.mark.parametrize("level", [0, 1, 1.5, True])
def test_intervals_reject_bad_level(level):
    with pytest.raises(ValueError, match="`confidence_level`"):
        naive_cv_interval([1.0, 2.0], confidence_level=level)
    with pytest.raises(ValueError, match="`confidence_level`"):
        corrected_cv_interval([[1.0, 2.0], [2.0, 3.0]], n_train=9, n_test=1, confidence_level=level)

# ------------------------------------------------------------------ corrected interval
def test_corrected_interval_by_hand():
    scores = np.random.default_rng(3).normal(1.0, 0.1, size=(10, 10))
    ci = corrected_cv_interval(scores, n_train=90, n_test=10, confidence_level=0.9)
    m, s2 = scores.mean(), scores.var(ddof=1)
    half = stats.t.ppf(0.95, 99) * math.sqrt((1 / 100 + 10 / 90) * s2)  # Nadeau & Bengio's factor
    assert (ci.low, ci.high) == pytest.approx((m - half, m + half), rel=1e-12)


def test_corrected_interval_inverts_the_corrected_test():
    scores = np.random.default_rng(4).normal(1.0, 0.2, size=(5, 10))
    level = 0.95
    ci = corrected_cv_interval(scores, n_train=90, n_test=10, confidence_level=level)
    # at each bound the test of mean = bound has p = 1 - level; inside p > 1 - level; outside p < 1 - level
    for bound in ci:
        p = corrected_repeated_cv_ttest(scores - bound, n_train=90, n_test=10).pvalue
        assert p == pytest.approx(1 - level, rel=1e-8)
    for mu0, inside in [((ci.low + ci.high) / 2, True), (ci.low - 0.01, False), (ci.high + 0.01, False)]:
        p = corrected_repeated_cv_ttest(scores - mu0, n_train=90, n_test=10).pvalue
        assert (p > 1 - level) == inside

# ------------------------------------------------------------------ cv losses and folds
def test_cv_fold_ids_are_balanced_permutations():
    folds = cv_fold_ids(23, 5, 4, np.random.default_rng(0))
    assert folds.shape == (4, 23)
    for row in folds:
        counts = np.bincount(row, minlength=5)
        assert counts.max() - counts.min() <= 1 and counts.sum() == 23
        assert sorted(row) == sorted(np.arange(23) % 5)
    assert not np.array_equal(folds[0], folds[1])


def test_cv_losses_match_cross_val_predict_on_the_same_folds():
    X, y = _regression(37)
    res = cv_losses(LinearRegression(), X, y, n_folds=5, n_runs=2, rng=3)
    for r in range(2):
        pred = cross_val_predict(LinearRegression(), X, y, cv=PredefinedSplit(res.folds[r]))
        np.testing.assert_allclose(res.losses[r], (y - pred) ** 2, rtol=1e-10)
    means = np.array([[res.losses[r][res.folds[r] == k].mean() for k in range(5)] for r in range(2)])
    np.testing.assert_allclose(res.fold_means, means)
    assert res.n_test == 37 / 5 and res.n_train == 37 - 37 / 5


def test_cv_losses_zero_one_loss():
    X, y = _regression(30)
    res = cv_losses(ZeroPredictor(), X, (y > 0).astype(int), loss="zero_one", n_folds=3, rng=0)
    np.testing.assert_array_equal(res.losses[0], (y > 0).astype(float))


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"n_folds": 1}, "`n_folds`"), ({"n_folds": 50}, "`n_folds`"), ({"n_runs": 0}, "`n_runs`"),
    ({"loss": "absolute"}, "`loss`"), ({"rng": -1}, "`rng`"),
])
def test_cv_losses_rejects_bad_arguments(kwargs, match):
    X, y = _regression(20)
    with pytest.raises(ValueError, match=match):
        cv_losses(LinearRegression(), X, y, **kwargs)


def test_cv_losses_rejects_bad_shapes_and_losses():
    X, y = _regression(20)
    with pytest.raises(ValueError, match="`X`"):
        cv_losses(LinearRegression(), y, y)
    with pytest.raises(ValueError, match="`y`"):
        cv_losses(LinearRegression(), X, y[:-1])
    with pytest.raises(ValueError, match="`loss`"):
        cv_losses(LinearRegression(), X, y, loss=lambda t, p: np.mean((t - p) ** 2))
