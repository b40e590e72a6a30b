"""Tests of replicability.stats.nested_cv: Bates, Hastie & Tibshirani's (2024) nested cv interval.

Oracles: a line-by-line transcription of the authors' R code (``nestedcv``,
``nested_cv_helper`` and ``nested_cv``, R/core.R); an exact case (a learner that ignores
its training data).
"""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression, LogisticRegression

from replicability.stats.cv_intervals import cv_fold_ids, cv_losses
from replicability.stats.nested_cv import NestedCVResult, nested_cv_from_terms, nested_cv_interval


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


# ------------------------------------------------------------------ nested cv
def _r_transcription(X, y, n_folds, nested_folds, bias_folds, alpha):
    """nestedcv::nested_cv and nested_cv_helper (R/core.R), loop for loop, with LinearRegression and squared error.

    Needs n divisible by n_folds (the R code then tests every point). R's folds are 1..K; here 0..K-1.
    """
    def fit_predict(train, test):
        return LinearRegression().fit(X[train], y[train]).predict(X[test])

    n = len(y)
    var_pivots, ho_errs = [], []
    for fold_id in nested_folds:
        m = n // n_folds
        ho_errors = np.zeros((n_folds, n_folds, m))  # [i, j]: errors on fold i when folds i and j are out
        for f1 in range(n_folds - 1):
            for f2 in range(f1 + 1, n_folds):
                test_idx = np.concatenate([np.flatnonzero(fold_id == f1), np.flatnonzero(fold_id == f2)])
                train = np.setdiff1d(np.arange(n), test_idx)
                fit = LinearRegression().fit(X[train], y[train])
                preds = fit.predict(X)
                ho_errors[f1, f2] = (preds[fold_id == f1] - y[fold_id == f1]) ** 2
                ho_errors[f2, f1] = (preds[fold_id == f2] - y[fold_id == f2]) ** 2
        out_mat = np.zeros((n_folds, 2))
        for f1 in range(n_folds):
            test_idx = np.flatnonzero(fold_id == f1)
            e_out = (fit_predict(np.setdiff1d(np.arange(n), test_idx), test_idx) - y[test_idx]) ** 2
            e_bar_t = np.concatenate([ho_errors[f2, f1] for f2 in range(n_folds) if f2 != f1])
            out_mat[f1] = [e_bar_t.mean() - e_out.mean(), np.var(e_out, ddof=1) / len(test_idx)]
        var_pivots.append(out_mat)
        ho_errs.append(np.concatenate([np.concatenate([ho_errors[f1, f2], ho_errors[f2, f1]])
                                       for f1 in range(n_folds - 1) for f2 in range(f1 + 1, n_folds)]))
    var_pivots, ho_errs = np.vstack(var_pivots), np.concatenate(ho_errs)
    n_sub = math.floor(n * (n_folds - 1) / n_folds)
    sd = np.std(ho_errs, ddof=1)
    infl = math.sqrt(max(0.0, np.mean(var_pivots[:, 0] ** 2 - var_pivots[:, 1]))) / (sd / math.sqrt(n_sub))
    infl = max(1.0, min(infl, math.sqrt(n_folds)))
    cv_means = []
    for fold_id in bias_folds:  # naive_cv
        errors = np.empty(n)
        for k in range(n_folds):
            test = np.flatnonzero(fold_id == k)
            errors[test] = (fit_predict(np.setdiff1d(np.arange(n), test), test) - y[test]) ** 2
        cv_means.append(errors.mean())
    bias_est = (ho_errs.mean() - np.mean(cv_means)) * (1 + ((n_folds - 2) / n_folds) ** 1.5)
    pred_est = ho_errs.mean() - bias_est
    q = stats.norm.ppf(1 - alpha / 2)
    return {"sd_infl": infl, "err_hat": pred_est, "bias_est": bias_est, "sd": sd,
            "ci_lo": pred_est - q * sd / math.sqrt(n) * infl, "ci_hi": pred_est + q * sd / math.sqrt(n) * infl}


@pytest.mark.parametrize(("n", "p", "n_folds", "n_runs"), [(30, 3, 5, 6), (24, 8, 4, 3)])
def test_nested_cv_equals_transcription_of_the_r_code(n, p, n_folds, n_runs):
    X, y = _regression(n, p, seed=n)
    res = nested_cv_interval(LinearRegression(), X, y, n_folds=n_folds, n_runs=n_runs, rng=11, progress=False)
    gen = np.random.default_rng(11)  # the draw order documented by nested_cv_interval
    nested_folds = cv_fold_ids(n, n_folds, n_runs, gen)
    bias_folds = cv_fold_ids(n, n_folds, math.ceil(n_runs / 5), gen)
    ref = _r_transcription(X, y, n_folds, nested_folds, bias_folds, alpha=0.1)
    assert res.estimate == pytest.approx(ref["err_hat"], rel=1e-10)
    assert res.bias == pytest.approx(ref["bias_est"], rel=1e-10)
    assert res.inflation == pytest.approx(ref["sd_infl"], rel=1e-10)
    assert tuple(res.confidence_interval(0.9)) == pytest.approx((ref["ci_lo"], ref["ci_hi"]), rel=1e-10)


@pytest.mark.parametrize(("n", "p", "n_folds", "n_runs", "clipped"), [(30, 3, 5, 6, False), (24, 8, 4, 3, True)])
def test_nested_cv_transcription_cases_inflate(n, p, n_folds, n_runs, clipped):
    # the comparison above is informative only if the cases widen the interval: one inside (1, sqrt(K)),
    # one clipped at sqrt(K)
    X, y = _regression(n, p, seed=n)
    res = nested_cv_interval(LinearRegression(), X, y, n_folds=n_folds, n_runs=n_runs, rng=11, progress=False)
    if clipped:
        assert res.inflation == pytest.approx(math.sqrt(n_folds))
    else:
        assert 1.0 < res.inflation < math.sqrt(n_folds)


def test_nested_cv_exact_case_fixed_predictor():
    # every loss is y_i^2 whatever the training set: the nested and cv means are mean(y^2), the bias 0,
    # and a_k = mean of y^2 outside fold k minus inside it
    X, y = _regression(20, seed=5)
    res = nested_cv_interval(ZeroPredictor(), X, y, n_folds=4, n_runs=2, rng=0, progress=False)
    e = y**2
    assert res.nested_mean == pytest.approx(e.mean(), rel=1e-12)
    assert res.cv_mean == pytest.approx(e.mean(), rel=1e-12) and res.bias == pytest.approx(0.0, abs=1e-12)
    assert res.estimate == pytest.approx(e.mean(), rel=1e-12)
    folds = cv_fold_ids(20, 4, 2, np.random.default_rng(0))
    a = [e[f != k].mean() - e[f == k].mean() for f in folds for k in range(4)]
    b = [e[f == k].var(ddof=1) / 5 for f in folds for k in range(4)]
    assert res.mse == pytest.approx(np.mean(np.square(a)) - np.mean(b), rel=1e-10)
    sd = np.std(np.tile(e, 2 * 3), ddof=1)  # each point is an inner loss K - 1 = 3 times per repeat
    assert res.naive_standard_error == pytest.approx(sd / math.sqrt(20), rel=1e-10)


def test_nested_cv_classification_with_zero_one_loss():
    # the classification analogue: losses are 0/1, so every average lies in [0, 1]
    X, y = _regression(40, seed=8)
    labels = (y > 0).astype(int)
    res = nested_cv_interval(LogisticRegression(), X, labels, loss="zero_one", n_folds=4, n_runs=2, rng=0,
                             progress=False)
    assert 0 <= res.nested_mean <= 1 and 0 <= res.cv_mean <= 1
    plain = cv_losses(LogisticRegression(), X, labels, loss="zero_one", n_folds=4, rng=1)
    assert set(np.unique(plain.losses)) <= {0.0, 1.0}


def test_nested_cv_without_bias_repeats():
    X, y = _regression(20)
    res = nested_cv_interval(LinearRegression(), X, y, n_folds=4, n_runs=2, n_bias_runs=0, rng=0,
                             progress=False)
    assert res.cv_mean is None and res.bias == 0 and res.estimate == res.nested_mean


def test_nested_cv_from_terms_batch_and_degenerate():
    rng = np.random.default_rng(0)
    a, b = rng.normal(0, 0.3, (4, 30)), rng.uniform(0, 0.02, (4, 30))
    mean, sd, cv = rng.uniform(1, 2, 4), rng.uniform(1, 2, 4), rng.uniform(1, 2, 4)
    batch = nested_cv_from_terms(a, b, mean, sd, cv, n_instances=60, n_folds=10)
    for i in range(4):
        one = nested_cv_from_terms(a[i], b[i], mean[i], sd[i], cv[i], n_instances=60, n_folds=10)
        assert batch.standard_error[i] == pytest.approx(one.standard_error)
        assert batch.estimate[i] == pytest.approx(one.estimate)
    assert np.all((batch.inflation >= 1) & (batch.inflation <= math.sqrt(10)))
    flat = nested_cv_from_terms(np.zeros(6), np.zeros(6), 1.0, 0.0, 1.0, n_instances=30, n_folds=3)
    assert flat.inflation == 1.0 and flat.standard_error == 0.0 and tuple(flat.confidence_interval()) == (1.0, 1.0)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"n_folds": 2}, "`n_folds`"), ({"n_folds": 11}, "at least 2 rows per fold"), ({"n_runs": 0}, "`n_runs`"),
    ({"n_bias_runs": -1}, "`n_bias_runs`"), ({"progress": "yes"}, "`progress`"), ({"loss": 3}, "`loss`"),
])
def test_nested_cv_rejects_bad_arguments(kwargs, match):
    X, y = _regression(20)
    with pytest.raises(ValueError, match=match):
        nested_cv_interval(LinearRegression(), X, y, **kwargs)


def test_nested_result_rejects_bad_level():
    res = NestedCVResult(1.0, 0.1, 0.01, 0.0, 1.0, None, 0.1, 1.0, 10, 1)
    with pytest.raises(ValueError, match="`confidence_level`"):
        res.confidence_interval(95)
