"""Tests for the cv intervals (stats.cv_intervals, stats.nested_cv) and the Bates et al. simulation (papers.bates2024).

Oracles: scipy's normal and t quantiles by hand; the inversion of
``corrected_repeated_cv_ttest``; scikit-learn's ``cross_val_predict`` on the same
folds; a line-by-line transcription of the authors' R code (``nestedcv``,
``nested_cv_helper`` and ``nested_cv``, R/core.R); an exact case (a learner that
ignores its training data); closed-form OLS errors against Monte Carlo.
"""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import PredefinedSplit, cross_val_predict

from replicability.papers.beyond.cv_intervals import (
    coverage_table,
    ols_cv_terms,
    ols_expected_error,
    ols_prediction_error,
    simulate_coverage,
)
from replicability.stats.cv_intervals import (
    corrected_cv_interval,
    cv_fold_ids,
    cv_losses,
    naive_cv_interval,
)
from replicability.stats.nested_cv import NestedCVResult, nested_cv_from_terms, nested_cv_interval
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


# ------------------------------------------------------------------ OLS fast path and closed forms
@pytest.mark.parametrize("n", [40, 43])
def test_ols_fast_path_equals_generic_functions(n):
    X, y = _regression(n, 4, seed=n)
    res = cv_losses(LinearRegression(), X, y, n_folds=5, n_runs=3, rng=2)
    np.testing.assert_allclose(ols_cv_terms(X, y, res.folds, n_folds=5), res.losses, rtol=1e-9)
    generic = nested_cv_interval(LinearRegression(), X, y, n_folds=5, n_runs=4, rng=9, progress=False)
    gen = np.random.default_rng(9)
    nested_folds, bias_folds = cv_fold_ids(n, 5, 4, gen), cv_fold_ids(n, 5, 1, gen)
    terms = ols_cv_terms(X, y, nested_folds, n_folds=5, nested=True)
    fast = nested_cv_from_terms(terms["a"].ravel(), terms["b"].ravel(), terms["inner_mean"], terms["inner_sd"],
                                ols_cv_terms(X, y, bias_folds, n_folds=5).mean(), n_instances=n, n_folds=5)
    for name in ("estimate", "standard_error", "mse", "bias", "naive_standard_error"):
        assert getattr(fast, name) == pytest.approx(getattr(generic, name), rel=1e-9), name


def test_ols_prediction_error_matches_a_large_holdout():
    rng = np.random.default_rng(0)
    beta = np.array([1.0, -0.5, 0.0])
    b0, b = 0.2, np.array([0.8, -0.4, 0.3])
    X = rng.normal(size=(400_000, 3))
    loss = (X @ beta + rng.normal(size=400_000) - (b0 + X @ b)) ** 2
    se = loss.std() / math.sqrt(loss.size)
    assert abs(loss.mean() - ols_prediction_error(b0, b, beta)) < 4 * se


def test_ols_expected_error_matches_monte_carlo():
    rng = np.random.default_rng(1)
    n, p, reps = 25, 5, 4000
    X = rng.normal(size=(reps, n, p))
    y = rng.normal(size=(reps, n))  # beta = 0: OLS errors do not depend on beta
    Z = np.concatenate([np.ones((reps, n, 1)), X], axis=-1)
    coef = np.linalg.solve(np.einsum("rni,rnj->rij", Z, Z), np.einsum("rni,rn->ri", Z, y)[..., None])[..., 0]
    err_xy = ols_prediction_error(coef[:, 0], coef[:, 1:], np.zeros(p))
    se = err_xy.std(ddof=1) / math.sqrt(reps)
    assert abs(err_xy.mean() - ols_expected_error(n, p)) < 4 * se
    with pytest.raises(ValueError, match="`n`"):
        ols_expected_error(7, 5)


# ------------------------------------------------------------------ coverage
def test_small_coverage_simulation_naive_below_nested_near_nominal():
    # n = 60, p = 10, 10-fold cv, 600 data sets, 90% intervals, target Err_XY. Under coverage 0.9 the share
    # covered has binomial standard error sqrt(0.9 * 0.1 / 600) = 0.012; tolerance 3 of them (0.037).
    n_sets, level = 600, 0.9
    ds = simulate_coverage([60], p=10, n_folds=10, n_cv_runs=5, n_datasets=n_sets, n_nested_runs=10,
                           confidence_level=level, seed=7)
    tab = coverage_table(ds).set_index(["method", "target"])["coverage"]
    tol = 3 * math.sqrt(level * (1 - level) / n_sets)
    assert tab["naive", "Err_XY"] < level - tol
    assert abs(tab["nested", "Err_XY"] - level) < tol
    assert tab["nested", "Err_XY"] > tab["corrected", "Err_XY"] > tab["naive", "Err_XY"]


def test_simulation_is_reproducible_and_sliceable():
    kw = {"p": 3, "n_folds": 5, "n_cv_runs": 2, "n_nested_runs": 2, "seed": 3}
    full = simulate_coverage([30], n_datasets=4, **kw)
    again = simulate_coverage([30], n_datasets=2, **kw)
    np.testing.assert_array_equal(full["low"].values[..., :2], again["low"].values)
    np.testing.assert_array_equal(full["err_xy"].values[..., :2], again["err_xy"].values)


def test_simulation_rejects_small_n():
    with pytest.raises(ValueError, match="`ns`"):
        simulate_coverage([20], p=20, n_datasets=2)
