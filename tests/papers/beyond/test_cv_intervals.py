"""Tests of replicability.papers.beyond.cv_intervals: the Bates, Hastie & Tibshirani (2024) simulation and its page.

Oracles: the generic cv and nested cv functions of replicability.stats on the same folds
(for the OLS fast path); closed-form OLS errors against Monte Carlo; the claims' rule
for the page's verdicts, and the coverage table for the values its text quotes.
"""

import math
from pathlib import Path

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression

from replicability.papers.beyond.cv_intervals import (
    cached_coverage,
    coverage_table,
    cv_intervals_page,
    ols_cv_terms,
    ols_expected_error,
    ols_prediction_error,
    simulate_coverage,
)
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, se_multiple
from replicability.report.page import format_number
from replicability.stats.cv_intervals import cv_fold_ids, cv_losses
from replicability.stats.nested_cv import nested_cv_from_terms, nested_cv_interval

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "data" / "reproduced"


def _same_as_committed(folder, name):
    """The file ``<name>.csv`` written under ``folder`` equals the committed ``data/reproduced/<name>.csv``."""
    written = (folder / f"{name}.csv").read_text()
    assert written == (COMMITTED / f"{name}.csv").read_text(), f"{name}.csv differs from the committed file"


def _regression(n, p=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X @ np.linspace(1, -1, p) + rng.normal(size=n)
    return X, y


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


def test_cv_intervals_page_quotes_the_coverage_table_and_writes_its_claims(reproduced_dir):
    page = cv_intervals_page()  # the committed paper-scale result
    assert not any(reproduced_dir.iterdir())  # nothing is written before page.write()
    page.write()
    _same_as_committed(reproduced_dir, "claims/beyond/03_cv_intervals")
    ds = cached_coverage([100, 200], scale="paper", seed=2024, p=20, confidence_level=0.9)
    cov = coverage_table(ds).set_index(["n", "method", "target"])
    for n in (100, 200):
        for method in ("naive", "corrected", "nested"):
            for target in ("Err_XY", "Err"):
                # the text quotes the number the coverage table shows
                shown = format_number(cov.loc[(n, method, target), "coverage"], 3)
                assert f"{page.values[f'cov_{method}_{target}_{n}']:.3f}" == shown
        sel = ds.sel(n=n)
        assert page.values[f"corr_{n}"] == round(float(np.corrcoef(sel["cv_estimate"], sel["err_xy"])[0, 1]), 3)
    assert page.values["n_sets"] == 2000 and page.values["level_pct"] == 90
    # 200 nested repetitions of 10 folds: 55 models per repetition, then 40 bias runs of 10
    assert page.values["nested_fits"] == "11,400" and page.values["cost_ratio"] == "1,140"
    assert page.summary == f"2000 data sets per n; nested cv with 200 repetitions; {page.claims.summary()}"


def _judge(margins, tolerance):
    if np.all(margins >= 0):
        return HOLDS
    return INCONCLUSIVE if np.all(margins >= -tolerance) else NOT_HOLDS


def test_cv_intervals_page_verdicts_follow_the_claims_rule_at_smoke_scale(reproduced_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    page = cv_intervals_page([30, 40], scale="smoke", p=3)
    cov = page.data["coverage"].set_index(["n", "method", "target"])
    z = se_multiple(2)
    naive = cov.loc[[(n, "naive", "Err_XY") for n in (30, 40)]]
    nested = cov.loc[[(n, "nested", "Err_XY") for n in (30, 40)]]
    assert page.values["verdict_naive"] == _judge(0.9 - naive["coverage"].to_numpy(), z * naive["mc_se"].to_numpy())
    assert page.values["verdict_nested_not_below"] == _judge(nested["coverage"].to_numpy() - 0.9,
                                                             z * nested["mc_se"].to_numpy())
    gap = np.abs(nested["coverage"].to_numpy() - 0.9)
    assert page.values["verdict_nested"] == _judge(-gap, z * nested["mc_se"].to_numpy())
    assert page.values["n_sets"] == 40 and page.values["tolerance_multiple"] == round(z, 2)
    assert set(page.figures) == {"coverage"} and set(page.tables) == {"coverage", "diagnostics"}


def test_cv_intervals_page_checks_its_parameters():
    for kwargs, name in [({"scale": "huge"}, "scale"), ({"confidence_level": 1.5}, "confidence_level"),
                         ({"p": 0}, "p"), ({"ns": [0]}, "ns")]:
        with pytest.raises(ValueError, match=f"`{name}`"):
            cv_intervals_page(**kwargs)
