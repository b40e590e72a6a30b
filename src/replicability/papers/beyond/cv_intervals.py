"""Coverage of cross-validation intervals for the prediction error (Bates, Hastie & Tibshirani 2024).

Beyond the seed papers: Raschka (2018) recommends reporting intervals around cv
estimates, and Bouckaert's corrected tests rest on a variance correction for cv
scores. Bates et al. show that the naive cv interval (per-point losses treated as
independent) covers the prediction error less often than nominal and propose a
nested cv interval. This module reruns their ordinary-least-squares experiment
(authors' ``nestedcv_experiments/ols.R``): ``X ~ N(0, I_p)``, ``y = X β + ε``,
``ε ~ N(0, σ²)``, OLS with intercept, squared-error loss, 10-fold cv, 90% intervals.

Two targets have closed forms here:

* ``Err_XY = σ² + b̂_0² + ‖b̂ − β‖²``: the expected loss on a new point of the model
  fitted on this data set (intercept ``b̂_0``, slopes ``b̂``), the target of Bates et
  al.'s coverage experiments (their ``ho_err``, measured on 20,000 held-out points);
* ``Err = E[Err_XY] = σ² (1 + 1/n)(n − 2)/(n − p − 2)``, its expectation over data
  sets, the quantity Bates et al. prove cv estimates (their Section 2).

Every model here is OLS, so all the fits of a data set come from per-fold Gram
matrices: the model without folds ``S`` solves ``(G − Σ_{f∈S} G_f) b = c − Σ_{f∈S} c_f``.
:func:`ols_cv_terms` computes, for given fold assignments, exactly what
:func:`~replicability.stats.cv_intervals.cv_losses` and
:func:`~replicability.stats.nested_cv.nested_cv_interval` compute with
``LinearRegression`` (the tests check this), batched over repetitions.

:func:`cv_intervals_page` computes everything the notebook ``beyond/03_cv_intervals``
shows, with the claims of Bates et al.'s abstract held to the rules of
:mod:`replicability.report.claims`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import xarray as xr

from ..._validation import check_choice, check_fraction, check_positive, check_positive_int
from ...engine.store import cached_result
from ...report.claims import Claims, se_multiple
from ...report.page import Page, Table
from ...stats.cv_intervals import corrected_cv_interval, cv_fold_ids, naive_cv_interval
from ...stats.nested_cv import nested_cv_from_terms
from .bayesian import labelled

__all__ = [
    "METHODS",
    "SCALES",
    "cached_coverage",
    "coverage_table",
    "cv_intervals_page",
    "ols_cv_terms",
    "ols_expected_error",
    "ols_prediction_error",
    "simulate_coverage",
]

#: The three intervals, in display order.
METHODS = ("naive", "corrected", "nested")

#: Replications (data sets) per sample size, and nested cv repetitions, by scale.
SCALES = {"paper": (2000, 200), "quick": (300, 50), "smoke": (40, 10)}


def ols_expected_error(n, p, *, sigma=1.0):
    """``Err``: expected squared prediction error of OLS with intercept on Gaussian features.

    For ``x ~ N(0, I_p)``, ``y = x'β + ε``, ``ε ~ N(0, σ²)`` and OLS with intercept
    fitted on ``n`` points, the prediction error at a new point, averaged over
    training sets, is ``σ² (1 + 1/n)(n − 2)/(n − p − 2)``: the new point's
    centred features ``x₀ − x̄ ~ N(0, (1 + 1/n) I)`` are independent of the centred
    scatter matrix ``S ~ Wishart(I, n − 1)``, and ``E[S⁻¹] = I/(n − p − 2)``.
    It does not depend on ``β``.

    Parameters
    ----------
    n : int
        Training set size, ``n > p + 2``.
    p : int
        Number of features.
    sigma : float, default 1.0
        Noise standard deviation.

    Returns
    -------
    float

    Examples
    --------
    >>> from replicability.papers.beyond.cv_intervals import ols_expected_error
    >>> round(ols_expected_error(100, 20), 6)
    1.268974
    """
    n = check_positive_int(n, "n")
    p = check_positive_int(p, "p")
    sigma = check_positive(sigma, "sigma")
    if n <= p + 2:
        raise ValueError(f"`n` must exceed p + 2 = {p + 2} for a finite expected error; got {n}.")
    return sigma**2 * (1 + 1 / n) * (n - 2) / (n - p - 2)


def ols_prediction_error(intercept, coef, beta, *, sigma=1.0):
    """``Err_XY = σ² + b̂_0² + ‖b̂ − β‖²`` of a fitted linear model on ``x ~ N(0, I)``.

    Parameters
    ----------
    intercept : array_like, shape (...)
        Fitted intercepts ``b̂_0`` (the true intercept is 0).
    coef : array_like, shape (..., p)
        Fitted slopes ``b̂``.
    beta : array_like, shape (p,)
        True slopes.
    sigma : float, default 1.0

    Returns
    -------
    ndarray or float

    Examples
    --------
    >>> from replicability.papers.beyond.cv_intervals import ols_prediction_error
    >>> float(ols_prediction_error(0.1, [1.2, 0.0], [1.0, 0.0]))
    1.05
    """
    sigma = check_positive(sigma, "sigma")
    coef = np.asarray(coef, dtype=float)
    beta = np.asarray(beta, dtype=float)
    out = sigma**2 + np.asarray(intercept, dtype=float) ** 2 + np.sum((coef - beta) ** 2, axis=-1)
    return out[()]


def _fold_layout(folds, n_folds, n):
    """Indices of each fold's points, padded with ``n`` (a zero row) to a common size."""
    size = math.ceil(n / n_folds)
    order = np.argsort(folds, axis=-1, kind="stable")
    counts = np.stack([(folds == k).sum(axis=-1) for k in range(n_folds)], axis=-1)  # (R, K)
    starts = np.concatenate([np.zeros(counts.shape[:-1] + (1,), int), np.cumsum(counts, axis=-1)[..., :-1]], -1)
    slot = np.arange(size)
    pos = starts[..., None] + slot  # (R, K, size)
    valid = slot < counts[..., None]
    idx = np.take_along_axis(order, np.minimum(pos, n - 1).reshape(order.shape[0], -1), axis=-1)
    idx = np.where(valid, idx.reshape(pos.shape), n)
    return idx, valid


def _fold_losses(Z, y, folds, n_folds, *, pairs):
    """Squared errors ``L[r, k, j, s]`` on slot ``s`` of fold ``j`` of the model fitted without folds ``{j, k}``.

    ``j = k`` is the model without fold ``k`` alone. With ``pairs=False`` only the
    diagonal (plain cv) is computed, shape ``(R, K, size)``.
    """
    n, d = Z.shape
    Zp = np.vstack([Z, np.zeros((1, d))])
    yp = np.append(y, 0.0)
    idx, valid = _fold_layout(folds, n_folds, n)
    Zf, yf = Zp[idx], yp[idx]  # (R, K, size, d), (R, K, size)
    G_f = np.einsum("rksi,rksj->rkij", Zf, Zf)
    c_f = np.einsum("rksi,rks->rki", Zf, yf)
    G, c = Z.T @ Z, Z.T @ y
    if not pairs:
        coef = np.linalg.solve(G - G_f, (c - c_f)[..., None])[..., 0]  # (R, K, d)
        pred = np.einsum("rksd,rkd->rks", Zf, coef)
        return (yf - pred) ** 2, valid
    # one model per unordered pair {j, k} (without both folds) and per fold (j = k: without k alone)
    ju, ku = np.triu_indices(n_folds)
    same = (ju == ku).astype(float)
    A = G - G_f[:, ju] - G_f[:, ku] + same[:, None, None] * G_f[:, ku]
    rhs = c - c_f[:, ju] - c_f[:, ku] + same[:, None] * c_f[:, ku]
    sol = np.linalg.solve(A, rhs[..., None])[..., 0]
    coef = np.empty((folds.shape[0], n_folds, n_folds, d))  # symmetric in (k, j)
    coef[:, ju, ku] = sol
    coef[:, ku, ju] = sol
    pred = np.einsum("rjsd,rkjd->rkjs", Zf, coef)
    return (yf[:, None] - pred) ** 2, valid


def ols_cv_terms(X, y, folds, *, n_folds, nested=False):
    """Cross-validation losses of OLS with intercept, for given fold assignments, from Gram matrices.

    Parameters
    ----------
    X : ndarray, shape (n, p)
    y : ndarray, shape (n,)
    folds : ndarray of int, shape (R, n)
        Fold labels in ``0 … n_folds − 1`` (e.g. from
        :func:`~replicability.stats.cv_intervals.cv_fold_ids`).
    n_folds : int
    nested : bool, default False
        False: the per-point cv losses; True: the terms of nested cv.

    Returns
    -------
    ndarray or dict
        ``nested=False``: the per-point losses, shape ``(R, n)`` (as
        ``CVLosses.losses``).
        ``nested=True``: ``a`` and ``b`` of shape ``(R, K)``, and ``inner_mean``,
        ``inner_sd`` of the pooled inner losses, the inputs of
        :func:`~replicability.stats.nested_cv.nested_cv_from_terms`.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.papers.beyond.cv_intervals import ols_cv_terms
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(20, 2)), rng.normal(size=20)
    >>> folds = np.arange(20)[None, :] % 4
    >>> ols_cv_terms(X, y, folds, n_folds=4).shape
    (1, 20)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    folds = np.atleast_2d(np.asarray(folds))
    n = X.shape[0]
    Z = np.column_stack([np.ones(n), X])
    if not nested:
        L, valid = _fold_losses(Z, y, folds, n_folds, pairs=False)
        idx, _ = _fold_layout(folds, n_folds, n)
        out = np.empty(folds.shape)
        rows = np.broadcast_to(np.arange(folds.shape[0])[:, None, None], idx.shape)
        out[rows[valid], idx[valid]] = L[valid]
        return out
    L, valid = _fold_losses(Z, y, folds, n_folds, pairs=True)  # (R, K, K, size), valid (R, K, size)
    eye = np.eye(n_folds, dtype=bool)
    w_in = (~eye)[None, :, :, None] & valid[:, None, :, :]  # outer k, inner fold j != k
    w_out = valid  # fold k of the model without k
    e_out = np.einsum("rkks->rks", L)
    n_out = w_out.sum(-1)
    mean_out = (e_out * w_out).sum(-1) / n_out
    var_out = (((e_out - mean_out[..., None]) ** 2) * w_out).sum(-1) / (n_out - 1)
    mean_in = (L * w_in).sum((-2, -1)) / w_in.sum((-2, -1))
    pooled = L[np.broadcast_to(w_in, L.shape)]
    return {"a": mean_in - mean_out, "b": var_out / n_out, "inner_mean": pooled.mean(),
            "inner_sd": pooled.std(ddof=1)}


def _one_dataset(n, p, beta, sigma, n_folds, n_cv_runs, n_nested, n_bias, level, seed, index):
    """Intervals of the three methods and the targets for data set ``index`` at size ``n``."""
    data_rng, cv_rng, nested_rng = (np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(n, index, s)))
                                    for s in range(3))
    X = data_rng.normal(size=(n, p))
    y = X @ beta + sigma * data_rng.normal(size=n)
    Z = np.column_stack([np.ones(n), X])
    fit = np.linalg.lstsq(Z, y, rcond=None)[0]
    err_xy = ols_prediction_error(fit[0], fit[1:], beta, sigma=sigma)

    folds = cv_fold_ids(n, n_folds, n_cv_runs, cv_rng)
    losses = ols_cv_terms(X, y, folds, n_folds=n_folds)
    naive = naive_cv_interval(losses[0], confidence_level=level)
    onehot = folds[..., None] == np.arange(n_folds)
    fold_means = np.einsum("rn,rnk->rk", losses, onehot) / onehot.sum(axis=-2)
    n_test = n / n_folds
    corrected = corrected_cv_interval(fold_means, n_train=n - n_test, n_test=n_test, confidence_level=level)

    nested_folds = cv_fold_ids(n, n_folds, n_nested, nested_rng)
    bias_folds = cv_fold_ids(n, n_folds, n_bias, nested_rng)
    terms = ols_cv_terms(X, y, nested_folds, n_folds=n_folds, nested=True)
    cv_mean = ols_cv_terms(X, y, bias_folds, n_folds=n_folds).mean()
    res = nested_cv_from_terms(terms["a"].ravel(), terms["b"].ravel(), terms["inner_mean"], terms["inner_sd"],
                               cv_mean, n_instances=n, n_folds=n_folds, n_runs=n_nested)
    nested = res.confidence_interval(level)
    low = [naive.low, corrected.low, nested.low]
    high = [naive.high, corrected.high, nested.high]
    return err_xy, low, high, losses[0].mean(), res.inflation, res.bias


def simulate_coverage(ns=(100,), *, p=20, n_nonzero=4, sigma=1.0, n_folds=10, n_cv_runs=10, n_datasets=100,
                      n_nested_runs=50, n_bias_runs=None, confidence_level=0.9, seed=0, progress=False):
    """Intervals of the naive, corrected-t and nested cv methods on simulated OLS problems.

    For each sample size ``n`` and each of ``n_datasets`` data sets: draw
    ``X ~ N(0, I_p)``, ``y = X β + σ ε`` with ``β`` = ones on the first
    ``n_nonzero`` features; compute

    * ``naive``: :func:`~replicability.stats.cv_intervals.naive_cv_interval` on the
      per-point losses of one 10-fold cv run;
    * ``corrected``: :func:`~replicability.stats.cv_intervals.corrected_cv_interval`
      on the fold mean losses of ``n_cv_runs`` runs (the first is the naive run);
    * ``nested``: Bates et al.'s nested cv with ``n_nested_runs`` repetitions
      (:func:`~replicability.stats.nested_cv.nested_cv_from_terms` on
      :func:`ols_cv_terms`, equal to
      :func:`~replicability.stats.nested_cv.nested_cv_interval` with ``LinearRegression``);

    and the targets ``Err_XY`` (:func:`ols_prediction_error`) and ``Err``
    (:func:`ols_expected_error`).

    Parameters
    ----------
    ns : sequence of int
        Sample sizes, each ``> p + 2`` and ``>= 2 n_folds``.
    p, n_nonzero : int
        Features and how many have slope 1 (OLS errors do not depend on ``β``).
    sigma : float
    n_folds : int, default 10
    n_cv_runs : int, default 10
    n_datasets : int
    n_nested_runs : int
    n_bias_runs : int, optional
        Default ``ceil(n_nested_runs / 5)``.
    confidence_level : float, default 0.9
        Bates et al. use 90% (``alpha = 0.1``).
    seed : int
        Data set ``i`` at size ``n`` uses ``SeedSequence(seed, spawn_key=(n, i, s))``
        for its data (s = 0), cv folds (1) and nested folds (2).
    progress : bool
        A tqdm bar over data sets.

    Returns
    -------
    xarray.Dataset
        ``low``, ``high`` (n, interval, dataset), ``interval`` naming the method; ``err_xy``, ``cv_estimate``,
        ``inflation``, ``bias`` (n, dataset); ``err`` (n).

    Examples
    --------
    >>> from replicability.papers.beyond.cv_intervals import simulate_coverage
    >>> ds = simulate_coverage([30], p=3, n_folds=5, n_cv_runs=2, n_datasets=3, n_nested_runs=2)
    >>> dict(ds["low"].sizes)
    {'n': 1, 'interval': 3, 'dataset': 3}
    """
    ns = [check_positive_int(n, "ns") for n in np.atleast_1d(ns)]
    p = check_positive_int(p, "p")
    n_nonzero = check_positive_int(n_nonzero, "n_nonzero", minimum=0)
    sigma = check_positive(sigma, "sigma")
    n_folds = check_positive_int(n_folds, "n_folds", minimum=3)
    n_cv_runs = check_positive_int(n_cv_runs, "n_cv_runs", minimum=2)
    n_datasets = check_positive_int(n_datasets, "n_datasets")
    n_nested_runs = check_positive_int(n_nested_runs, "n_nested_runs")
    n_bias = math.ceil(n_nested_runs / 5) if n_bias_runs is None else n_bias_runs
    n_bias = check_positive_int(n_bias, "n_bias_runs")
    level = check_fraction(confidence_level, "confidence_level")
    for n in ns:
        if n <= p + 2 or n < 2 * n_folds:
            raise ValueError(f"`ns` must exceed p + 2 = {p + 2} and be at least 2 n_folds = {2 * n_folds}; got {n}.")
    beta = np.zeros(p)
    beta[: min(n_nonzero, p)] = 1.0
    shape = (len(ns), n_datasets)
    err_xy, cv_est, infl, bias = (np.empty(shape) for _ in range(4))
    low, high = np.empty((len(ns), len(METHODS), n_datasets)), np.empty((len(ns), len(METHODS), n_datasets))
    jobs = [(i, j) for i in range(len(ns)) for j in range(n_datasets)]
    if progress:
        from tqdm.auto import tqdm

        jobs = tqdm(jobs, desc="data sets", unit="ds")
    for i, j in jobs:
        out = _one_dataset(ns[i], p, beta, sigma, n_folds, n_cv_runs, n_nested_runs, n_bias, level, seed, j)
        err_xy[i, j], low[i, :, j], high[i, :, j], cv_est[i, j], infl[i, j], bias[i, j] = out
    return xr.Dataset(
        {"low": (("n", "interval", "dataset"), low), "high": (("n", "interval", "dataset"), high),
         "err_xy": (("n", "dataset"), err_xy), "cv_estimate": (("n", "dataset"), cv_est),
         "inflation": (("n", "dataset"), infl), "bias": (("n", "dataset"), bias),
         "err": (("n",), [ols_expected_error(n, p, sigma=sigma) for n in ns])},
        coords={"n": ns, "interval": list(METHODS), "dataset": np.arange(n_datasets)},
        # The attributes keep the names of the committed result (data/results), computed
        # before the package called the runs of a cv scheme ``n_*_runs``.
        attrs={"p": p, "n_nonzero": n_nonzero, "sigma": sigma, "n_folds": n_folds, "n_cv_repeats": n_cv_runs,
               "n_nested_repeats": n_nested_runs, "n_bias_repeats": n_bias, "confidence_level": level,
               "seed": seed},
    )


def cached_coverage(ns=(100, 200), *, scale="paper", seed=2024, progress=False, **options):
    """:func:`simulate_coverage` through :func:`~replicability.engine.store.cached_result`.

    ``scale`` sets the number of data sets and nested repetitions (``SCALES``):
    ``"paper"`` 2,000 data sets per ``n`` and 200 nested repetitions, as in Bates et
    al.'s experiments (committed under ``data/results``, recomputed by
    ``make reproduce``); ``"quick"`` 300 and 50; ``"smoke"`` 40 and 10.

    Parameters
    ----------
    ns : sequence of int, default (100, 200)
    scale : {"paper", "quick", "smoke"}
    seed : int, default 2024
    progress : bool
    **options
        Other keywords of :func:`simulate_coverage` (``p``, ``n_folds``, ``confidence_level``, ...).

    Returns
    -------
    xarray.Dataset

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> from replicability.papers.beyond.cv_intervals import cached_coverage
    >>> ds = cached_coverage([30], scale="smoke", p=3, n_folds=5, n_cv_runs=2)
    >>> ds.sizes["dataset"]
    40
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    scale = check_choice(scale, "scale", tuple(SCALES))
    n_datasets, n_nested = SCALES[scale]
    ns = [int(n) for n in np.atleast_1d(ns)]
    # "n_nested_repeats": the committed result's key name for n_nested_runs.
    params = {"ns": ns, "n_datasets": n_datasets, "n_nested_repeats": n_nested, "seed": int(seed), "version": 1,
              **{k: options[k] for k in sorted(options)}}
    return cached_result("bates2024/coverage", params,
                         lambda: simulate_coverage(ns, n_datasets=n_datasets, n_nested_runs=n_nested, seed=seed,
                                                   progress=progress, **options),
                         scale=scale)


def coverage_table(ds):
    """Coverage of each interval for ``Err_XY`` and ``Err``, with Monte Carlo standard errors.

    Parameters
    ----------
    ds : xarray.Dataset
        From :func:`simulate_coverage` or :func:`cached_coverage`.

    Returns
    -------
    pandas.DataFrame
        One row per ``n``, method and target: ``coverage`` (share of data sets whose
        interval contains the target), ``mc_se = sqrt(c (1 − c)/N)``, ``target_below``
        (the target lies below the interval), ``target_above``, ``mean_width``.

    Examples
    --------
    >>> from replicability.papers.beyond.cv_intervals import coverage_table, simulate_coverage
    >>> ds = simulate_coverage([30], p=3, n_folds=5, n_cv_runs=2, n_datasets=3, n_nested_runs=2)
    >>> list(coverage_table(ds).columns)
    ['n', 'method', 'target', 'coverage', 'mc_se', 'target_below', 'target_above', 'mean_width']
    """
    rows = []
    n_sets = ds.sizes["dataset"]
    for n in ds["n"].values:
        sel = ds.sel(n=n)
        targets = {"Err_XY": sel["err_xy"].values, "Err": np.full(n_sets, float(sel["err"]))}
        for method in ds["interval"].values:
            low = sel["low"].sel(interval=method).values
            high = sel["high"].sel(interval=method).values
            for target, value in targets.items():
                cover = np.mean((low <= value) & (value <= high))
                rows.append({"n": int(n), "method": str(method), "target": target, "coverage": cover,
                             "mc_se": math.sqrt(cover * (1 - cover) / n_sets),
                             "target_below": np.mean(value < low), "target_above": np.mean(value > high),
                             "mean_width": np.mean(high - low)})
    return pd.DataFrame(rows)


def _diagnostics(ds):
    """Per ``n``: interval widths relative to the naive one, mean inflation, corr(cv estimate, Err_XY), sd, Err."""
    rows = []
    for n in ds["n"].values:
        sel = ds.sel(n=n)
        width = (sel["high"] - sel["low"]).mean("dataset")
        rows.append({"n": int(n),
                     "corrected / naive width": float(width.sel(interval="corrected") / width.sel(interval="naive")),
                     "nested / naive width": float(width.sel(interval="nested") / width.sel(interval="naive")),
                     "mean inflation": float(sel["inflation"].mean()),
                     "corr(cv estimate, Err_XY)": float(np.corrcoef(sel["cv_estimate"], sel["err_xy"])[0, 1]),
                     "sd of Err_XY": float(sel["err_xy"].std(ddof=1)),
                     "Err": float(sel["err"])})
    return pd.DataFrame(rows)


def _coverage_figure(table, methods, ns, confidence_level):
    """Coverage of ``Err_XY`` and ``Err`` per method and ``n``, with ±2 Monte Carlo standard errors."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True, layout="constrained")
    for ax, target in zip(axes, ["Err_XY", "Err"]):
        for i, n in enumerate(ns):
            sel = table[(table["target"] == target) & (table["n"] == n)].set_index("method").loc[methods]
            x = np.arange(len(methods)) + (i - 0.5) * 0.2
            ax.errorbar(x, sel["coverage"], yerr=2 * sel["mc_se"], fmt="o", capsize=4, label=f"n = {n}")
        ax.axhline(confidence_level, color="black", lw=1, ls="--", label="nominal")
        ax.set_xticks(np.arange(len(methods)), methods)
        ax.set_title(f"coverage of {target}")
    axes[0].set_ylabel("coverage")
    axes[0].legend(fontsize=8)
    return fig


def _coverage_claims(cov, ns, level):
    """Bates et al.'s abstract on the coverage of ``Err_XY``, one value per ``n``, Monte Carlo s.e. over data sets."""
    claims = Claims("beyond", "03_cv_intervals")
    naive, nested = cov.loc[[(n, "naive", "Err_XY") for n in ns]], cov.loc[[(n, "nested", "Err_XY") for n in ns]]
    source = "Bates, Hastie & Tibshirani (2024), Abstract"
    claims.at_most("naive_below_nominal", "the standard confidence intervals for prediction error derived from "
                   "cross-validation may have coverage far below the desired level (the naive interval, coverage "
                   "of Err_XY)", source, value=naive["coverage"], bound=level, se=naive["mc_se"], digits=3)
    quote = "this modification leads to intervals with approximately correct coverage"
    claims.close_to("nested_nominal", f"{quote} (read two-sided: the nested interval's coverage of Err_XY equals "
                    "the nominal level)", source, value=nested["coverage"], published=level, se=nested["mc_se"],
                    rounding=0.0, digits=3)
    claims.at_least("nested_not_below", f"{quote} (read one-sided: the nested interval's coverage of Err_XY is not "
                    "below the nominal level)", source, value=nested["coverage"], bound=level, se=nested["mc_se"],
                    digits=3)
    return claims


def cv_intervals_page(ns=(100, 200), *, scale="paper", seed=2024, p=20, confidence_level=0.9):
    """Everything the notebook ``beyond/03_cv_intervals`` shows, as a page.

    The coverage of the naive, corrected-t and nested cv intervals
    (:func:`cached_coverage`, :func:`coverage_table`) with its figure, the
    diagnostics per ``n`` (widths relative to the naive interval, the nested
    interval's mean inflation, the correlation of the cv estimate with ``Err_XY``)
    and the claims of Bates et al.'s abstract on the coverage of ``Err_XY``:

    * ``naive_below_nominal``: coverage at most the nominal level (``at_most``);
    * ``nested_nominal``: coverage equal to the nominal level (``close_to``);
    * ``nested_not_below``: coverage at least the nominal level (``at_least``);

    each judged on the ``len(ns)`` sample sizes at once with the Monte Carlo
    standard error ``sqrt(c (1 - c) / N)`` over the ``N`` simulated data sets.
    :meth:`~replicability.report.page.Page.write` writes the claims
    (``reproduced/claims/beyond/03_cv_intervals.csv``).

    Parameters
    ----------
    ns : sequence of int, default (100, 200)
        Sample sizes.
    scale : {"paper", "quick", "smoke"}, default "paper"
        ``SCALES``; ``"paper"`` is the committed result.
    seed : int, default 2024
        Root seed of the simulation (part of the cached result's key).
    p : int, default 20
        Features.
    confidence_level : float, default 0.9
        Nominal level of the intervals.

    Returns
    -------
    Page
        Tables ``coverage`` and ``diagnostics``, figure ``coverage``, the values the
        text quotes (``cov_naive_Err_XY_100``, ``nested_width_100``, ``corr_100``,
        ``mcse_100``, ``level_pct``, ``nested_fits``, ``verdict_naive``,
        ``verdict_nested``, ...), the summary line (design and claims held) and
        ``data``: ``dataset`` (the simulation), ``coverage``, ``diagnostics``.

    Examples
    --------
    >>> from replicability.papers.beyond.cv_intervals import cv_intervals_page
    >>> page = cv_intervals_page()  # the committed paper-scale result
    >>> page.values["cov_naive_Err_XY_100"], page.values["verdict_naive"]
    (0.803, 'holds')
    """
    ns = [check_positive_int(n, "ns") for n in np.atleast_1d(ns)]
    scale = check_choice(scale, "scale", tuple(SCALES))
    p = check_positive_int(p, "p")
    confidence_level = check_fraction(confidence_level, "confidence_level")
    ds = cached_coverage(ns, scale=scale, seed=seed, p=p, confidence_level=confidence_level)
    table, diagnostics = coverage_table(ds), _diagnostics(ds)
    methods, n_sets = list(ds["interval"].values), ds.sizes["dataset"]
    cov = table.set_index(["n", "method", "target"])
    claims = _coverage_claims(cov, ns, confidence_level)
    page = Page(claims, summary=f"{n_sets} data sets per n; nested cv with {ds.attrs['n_nested_repeats']} "
                                f"repetitions; {claims.summary()}")
    page.tables.update({"coverage": Table(labelled(table), 3), "diagnostics": Table(diagnostics, 3)})
    page.figures["coverage"] = lambda: _coverage_figure(table, methods, ns, confidence_level)
    page.values.update(_values(ds, cov, diagnostics, claims, ns, methods, confidence_level))
    page.data.update({"dataset": ds, "coverage": table, "diagnostics": diagnostics})
    return page


def _values(ds, cov, diagnostics, claims, ns, methods, confidence_level):
    """The numbers and verdicts the page's text quotes, rounded as shown."""
    k, r, r_bias = ds.attrs["n_folds"], ds.attrs["n_nested_repeats"], ds.attrs["n_bias_repeats"]
    nested_fits = r * k * (k + 1) // 2 + r_bias * k  # pairs of folds and single folds, then the bias runs
    verdicts = claims.verdicts()
    values = {
        "verdict_naive": verdicts["naive_below_nominal"], "verdict_nested": verdicts["nested_nominal"],
        "verdict_nested_not_below": verdicts["nested_not_below"],
        "tolerance_multiple": round(se_multiple(len(ns)), 2),
        "nested_excess": round(float(max(cov.loc[(n, "nested", "Err_XY"), "coverage"] - confidence_level
                                         for n in ns)), 3),
        "n_sets": int(ds.sizes["dataset"]), "level_pct": int(round(100 * confidence_level)),
    }
    for n in ns:
        for method in methods:
            for target in ["Err_XY", "Err"]:
                values[f"cov_{method}_{target}_{n}"] = round(float(cov.loc[(n, method, target), "coverage"]), 3)
        values[f"mcse_{n}"] = round(float(cov.loc[(n, "nested", "Err_XY"), "mc_se"]), 3)
        d = diagnostics.set_index("n").loc[n]
        values[f"nested_width_{n}"] = round(float(d["nested / naive width"]), 2)
        values[f"corr_{n}"] = round(float(d["corr(cv estimate, Err_XY)"]), 3)
    values.update({"compute_minutes": round(float(ds.attrs["wall_time_s"] / 60), 1),
                   "nested_fits": f"{nested_fits:,}", "cost_ratio": f"{nested_fits // k:,}"})
    return values
