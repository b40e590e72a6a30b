"""Raschka (2018), Section 2: learning curves, subsampling, repeated holdout and the bootstrap.

:func:`resampling_page` computes everything the notebook
``raschka2018/02_resampling_bootstrap`` shows (Figures 4, 5, 6, 8 and 9, the .632 and
.632+ estimates against the truth).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr
from scipy import stats
from sklearn.datasets import load_digits, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from ...engine.store import cached_result
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table
from ...report.tables import read_published
from ...report.uncertainty import rate_se
from ...stats.bootstrap import bootstrap_oob_scores, percentile_interval, standard_interval
from ...stats.evaluation import learning_curve_scores, repeated_holdout_scores
from ...stats.resampling import bootstrap_inclusion_probability, compare_accuracy_estimates, subsample_moments
from .holdout import published_beside_ours

__all__ = ["RESAMPLING_SIZES", "quantile_se", "resampling_page"]

#: Sizes per scale of the notebook ``02_resampling_bootstrap``.
RESAMPLING_SIZES = {
    "smoke": {"train_sizes": [100, 400, 1257], "n_boot": 10, "n_datasets": 2, "n_truth": 1000, "study_splits": 10},
    "quick": {"train_sizes": [50, 100, 200, 400, 800, 1257], "n_boot": 50, "n_datasets": 8, "n_truth": 5000,
              "study_splits": 50},
    "paper": {"train_sizes": [30, 50, 100, 150, 200, 300, 400, 600, 800, 1000, 1257], "n_boot": 200,
              "n_datasets": 30, "n_truth": 10000, "study_splits": 200},
}
_PAGE = "02_resampling_bootstrap"
_SOURCE = ("replicability.stats.evaluation and replicability.stats.bootstrap "
           "(notebook raschka2018/02_resampling_bootstrap)")
#: Words for the keys of ``data/published/raschka2018/section2_resampling.csv``.
_LABELS = {
    "repeated_holdout": "repeated holdout (Figure 6)", "n_runs": "repetitions",
    "test_size_50_50": "test flowers, 50/50", "test_size_90_10": "test flowers, 90/10",
    "mean_accuracy_50_50": "mean accuracy, 50/50", "mean_accuracy_90_10": "mean accuracy, 90/10",
    "t_quantile": "t quantile (Eq. 28)", "t95_n100": "t for 95%, n = 100", "normal_quantile": "normal quantile",
    "z_95": "z for 95%", "bootstrap_rounds": "bootstrap rounds (Efron and Tibshirani)",
    "recommended_min": "at least", "recommended_max": "at most", "bootstrap_share": "bootstrap shares (Eq. 32-33)",
    "not_chosen_limit": "P(not chosen), large n", "chosen_limit": "P(chosen), large n",
    "out_of_bag": "out-of-bag share", "in_bag": "in-bag share", "estimator_weight": ".632 weights (Eq. 34)",
    "b632_out_of_bag": "of the out-of-bag accuracy", "b632_resubstitution": "of the resubstitution accuracy",
    "learning_curve_design": "Figure 4 design (digits for MNIST)", "samples_per_class": "images per class",
    "n_train": "training images", "n_test": "test images",
}
_KINDS = ["oob", "b632", "b632_plus", "b632_plus_raschka", "cv"]
_KIND_LABELS = {"resubstitution": "resubstitution", "oob": "out-of-bag", "b632": ".632",
                "b632_plus": ".632+ (Efron-Tibshirani)", "b632_plus_raschka": ".632+ (Eq. 37 as printed)",
                "cv": "10-fold cv"}


def quantile_se(sd, n, q):
    """Monte Carlo standard error of the ``q`` quantile of ``n`` draws from a normal distribution.

    ``sqrt(q (1 - q) / n) / phi(z_q) * sd``, the asymptotic standard error of a sample
    quantile (the density at the quantile, here normal, in the denominator).

    Parameters
    ----------
    sd : float
        Standard deviation of the draws.
    n : int
        Number of draws.
    q : float
        Quantile level in (0, 1).

    Returns
    -------
    float

    Examples
    --------
    >>> round(quantile_se(1.0, 200, 0.025), 3)
    0.189
    """
    return float(np.sqrt(q * (1 - q) / n) / stats.norm.pdf(stats.norm.ppf(q)) * sd)


def _softmax():
    # Multinomial logistic ("softmax") regression, the paper's model for MNIST.
    return LogisticRegression(max_iter=2000)


def _oob_replicates(name, estimator, X, y, n_splits, seed, scale):
    def compute():
        res = bootstrap_oob_scores(estimator, X, y, n_splits=n_splits, rng=seed)
        return xr.Dataset({"oob": ("round", res.oob)})

    params = {"data": name, "n_splits": n_splits, "seed": seed, "version": 1}
    return cached_result("raschka2018/figure8", params, compute, scale=scale)["oob"].to_numpy()


def _bootstrap_632_study(sizes, seed, scale):
    learners = {
        "1-NN": lambda: KNeighborsClassifier(n_neighbors=1),
        "decision tree": lambda: DecisionTreeClassifier(random_state=0),
        "logistic regression": lambda: LogisticRegression(max_iter=2000),
    }
    data_params = {"n_features": 10, "n_informative": 4, "n_redundant": 2, "flip_y": 0.1}
    study = {}
    for i, (name, make) in enumerate(learners.items()):
        params = {"learner": name, "n_train": 100, "n_truth": sizes["n_truth"], "n_datasets": sizes["n_datasets"],
                  "n_splits": sizes["study_splits"], "n_folds": 10, "seed": seed + i, "data_params": data_params,
                  "version": 1}
        study[name] = cached_result(
            "raschka2018/bootstrap_632_study", params,
            lambda make=make, params=params: compare_accuracy_estimates(
                make(), n_train=100, n_truth=params["n_truth"], n_datasets=params["n_datasets"],
                n_splits=params["n_splits"], n_folds=10, rng=params["seed"], data_params=data_params),
            scale=scale)
    return study


def _figure4(curve):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.5), layout="constrained")
    ax.plot(curve.train_sizes, 100 * curve.train_scores, "o-", label="training set (resubstitution)")
    ax.plot(curve.train_sizes, 100 * curve.test_scores, "s-", label="test set")
    ax.set_xlabel("training-set size")
    ax.set_ylabel("accuracy (%)")
    ax.legend()


def _figure5(population, subsample_sizes, sd_of_mean, expected, seed):
    import matplotlib.pyplot as plt

    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 3.8))
    ax0.scatter(*population.T, s=4, color="0.8", label=f"sample (n = {len(population)})")
    small = subsample_sizes[0]
    for r, colour in zip(range(3), ["C0", "C1", "C2"]):
        rows = np.random.default_rng([seed, r]).choice(len(population), size=small, replace=False)
        ax0.scatter(*population[rows].T, s=14, color=colour, label=f"subsample {r + 1} (m = {small})")
    ax0.set(xlabel="$x_1$", ylabel="$x_2$", title="Random subsamples")
    ax0.legend(fontsize=7, loc="upper left")
    ax1.loglog(subsample_sizes, sd_of_mean, "o", label="observed")
    ax1.loglog(subsample_sizes, expected, "-", color="0.3", label=r"$s\sqrt{1/m - 1/n}$")
    ax1.set(xlabel="subsample size m", ylabel="sd of subsample mean", title="Drift of the mean")
    ax1.legend(fontsize=8)
    fig.tight_layout()


def _figure6(holdout, published_means):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True, layout="constrained")
    for ax, (label, title) in zip(axes, [("50_50", "50/50 split (75 test flowers)"),
                                         ("90_10", "90/10 split (15 test flowers)")]):
        acc = holdout[label]
        ax.plot(np.arange(1, acc.size + 1), 100 * acc, "o", ms=4)
        ax.axhline(100 * acc.mean(), color="black", ls="--", lw=1, label=f"our mean {100 * acc.mean():.1f}%")
        ax.axhline(100 * published_means[label], color="tab:red", ls=":", lw=1.5,
                   label=f"paper's mean {100 * published_means[label]:.0f}%")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("repetition")
        ax.legend(fontsize=8, loc="lower left")
    axes[0].set_ylabel("test accuracy (%)")


def _figure8(panels, alpha):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4), layout="constrained")
    for ax, (title, reps) in zip(axes, panels.items()):
        ax.hist(reps, bins=15, color="0.75", edgecolor="white")
        for ci, color, name in [(standard_interval(reps, confidence_level=1 - alpha), "tab:blue", "standard"),
                                (percentile_interval(reps, confidence_level=1 - alpha), "tab:red", "percentile")]:
            ax.axvline(ci.low, color=color, ls="--", label=name)
            ax.axvline(ci.high, color=color, ls="--")
        ax.axvline(reps.mean(), color="black", lw=1.5, label="mean")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("out-of-bag accuracy")
        ax.legend(fontsize=8)
    axes[0].set_ylabel("bootstrap rounds")


def _figure9():
    import matplotlib.pyplot as plt

    n = np.arange(1, 201)
    chosen = bootstrap_inclusion_probability(n)
    fig, ax = plt.subplots(figsize=(5.5, 3.4), layout="constrained")
    ax.plot(n, chosen, label="P(chosen) = 1 - (1 - 1/n)$^n$")
    ax.plot(n, 1 - chosen, label="P(not chosen) = (1 - 1/n)$^n$")
    ax.axhline(0.632, color="tab:red", ls="--", lw=0.8, label="paper: 0.632 and 0.368")
    ax.axhline(0.368, color="tab:red", ls="--", lw=0.8)
    ax.set_xlabel("data-set size n")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1.02)
    ax.legend()


def _figure632(study):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(11, 3.6), sharey=True, layout="constrained")
    for ax, (name, ds) in zip(axes, study.items()):
        error = (ds["estimate"] - ds["truth"]).sel(kind=_KINDS).to_numpy()
        # Errors beyond +-20 points (only the Eq. 37 variant) are drawn at the edge.
        ax.boxplot([100 * np.clip(error[:, j], -0.2, 0.2) for j in range(len(_KINDS))], showmeans=True)
        ax.set_xticks(range(1, len(_KINDS) + 1), ["oob", ".632", ".632+\n(E&T)", ".632+\n(Eq. 37)", "10-fold\ncv"],
                      fontsize=8)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_title(name, fontsize=10)
    axes[0].set_ylabel("estimate - true accuracy (points)")
    fig.suptitle("errors beyond ±20 points drawn at ±20", fontsize=9)


def resampling_page(*, seed=1, alpha=0.05, scale="paper", n_runs=50, gaussian_size=1000,
                    subsample_sizes=(10, 30, 100, 300)):
    """Figures 4, 5, 6, 8 and 9 of Raschka (2018) and the .632 / .632+ study: the notebook ``02_resampling_bootstrap``.

    Learning curves of softmax regression on scikit-learn's digits (for MNIST),
    subsamples of a two-dimensional Gaussian, repeated holdout of 3-nearest neighbours
    on Iris, standard and percentile bootstrap intervals, the inclusion probability of
    a bootstrap sample, and the out-of-bag, .632, .632+ and 10-fold cv estimates
    against the true accuracy. Draws come from ``numpy.random.default_rng(seed)`` in
    the order of the page (learning curves, then repeated holdout); Figure 5 and the
    stored studies have their own seeds. At ``scale="paper"`` the bootstrap
    replicates and the .632 study are read from ``data/results``. One BLAS thread
    throughout (faster on two cores for these small fits, and the same digits every
    run). :meth:`~replicability.report.page.Page.write` writes
    ``reproduced/raschka2018/section2_resampling.csv`` and the claims.

    Parameters
    ----------
    seed : int
    alpha : float
        1 - alpha is the confidence level of the bootstrap intervals.
    scale : {"smoke", "quick", "paper"}
        Sizes, ``RESAMPLING_SIZES``.
    n_runs : int
        Repetitions of the holdout split in Figure 6 (the paper uses 50).
    gaussian_size : int
        Size of the Gaussian sample of Figure 5.
    subsample_sizes : sequence of int
        Subsample sizes of Figure 5.

    Returns
    -------
    Page

    Examples
    --------
    >>> page = resampling_page()  # the stored replicates and study of data/results
    >>> page.values["mean_50_50"], page.values["mean_90_10"], page.claims.verdicts()["fig6_ordering"]
    (96.2, 95.6, 'inconclusive at this scale')
    """
    if scale not in RESAMPLING_SIZES:
        raise ValueError(f"`scale` must be one of {sorted(RESAMPLING_SIZES)}; got {scale!r}.")
    sizes = RESAMPLING_SIZES[scale]
    published = read_published("raschka2018", "section2_resampling")
    run = _compute(sizes, seed, scale, n_runs, gaussian_size, list(subsample_sizes))
    fig5 = _figure5_table(run)
    summary6 = _figure6_table(run["holdout"])
    intervals = _intervals(run["panels"], alpha)
    reproduced, numbers = _reproduced(published, run, n_runs, alpha)
    bias_table, errors = _bias632(run["study"])
    claims = _claims(run["curve"], run["n_test"], fig5["sd of subsample mean"].to_numpy(), run["holdout"], published,
                     run["panels"], alpha, numbers, errors, n_boot=sizes["n_boot"])

    compared = (published["quantity"] != "learning_curve_design").to_numpy()
    ours = [round(float(v), 3) for v in reproduced["value"][compared]]
    return Page(claims, summary=comparison_summary(published["value"][compared], ours, claims),
                tables=_tables(run, fig5, summary6, intervals, published, reproduced, bias_table),
                figures=_figures(run, fig5, alpha, seed),
                values=_values(fig5, summary6, intervals, run["holdout"], errors, claims),
                reproduced={"section2_resampling": reproduced})


def _compute(sizes, seed, scale, n_runs, gaussian_size, subsample_sizes):
    """The fits and draws of the page, on one BLAS thread, in the page's order of draws."""
    rng = np.random.default_rng(seed)
    X_iris, y_iris = load_iris(return_X_y=True)
    digits = load_digits()
    X_digits, y_digits = digits.data / 16, digits.target
    with threadpool_limits(1):
        # Figure 4: learning curves.
        Xd_train, Xd_test, yd_train, yd_test = train_test_split(
            X_digits, y_digits, test_size=0.3, stratify=y_digits, random_state=int(rng.integers(2**31 - 1)))
        curve = learning_curve_scores(_softmax(), Xd_train, yd_train, Xd_test, yd_test,
                                      train_sizes=sizes["train_sizes"], rng=rng)
        # Figure 5: subsamples of a two-dimensional Gaussian (own generator).
        population = np.random.default_rng(seed).multivariate_normal([0.0, 0.0], [[1.0, 0.6], [0.6, 1.0]],
                                                                     size=gaussian_size)
        moments = subsample_moments(population, subsample_sizes, n_runs=200, rng=seed)
        # Figure 6: repeated holdout.
        holdout = {label: repeated_holdout_scores(KNeighborsClassifier(n_neighbors=3), X_iris, y_iris,
                                                  n_runs=n_runs, test_size=n_test, rng=rng)
                   for label, n_test in [("50_50", 75), ("90_10", 15)]}
        # Figure 8: bootstrap replicates (stored at paper scale).
        panels = {
            "A: 3-NN on Iris": _oob_replicates("iris_3nn", KNeighborsClassifier(n_neighbors=3), X_iris, y_iris,
                                               sizes["n_boot"], seed, scale),
            "B: softmax on digits": _oob_replicates("digits_softmax", _softmax(), X_digits, y_digits,
                                                    sizes["n_boot"], seed, scale),
        }
        study = _bootstrap_632_study(sizes, seed, scale)
    return {"curve": curve, "n_train": len(yd_train), "n_test": len(yd_test), "population": population,
            "subsample_sizes": subsample_sizes, "moments": moments, "holdout": holdout, "panels": panels,
            "study": study}


def _figure5_table(run):
    """Figure 5: the spread of the subsample mean and correlation against the finite-population standard error."""
    population, subsample_sizes, moments = run["population"], run["subsample_sizes"], run["moments"]
    sd_of_mean = moments["mean"].std("repeat", ddof=1).mean("feature").values
    expected = np.sqrt(population.var(axis=0, ddof=1).mean()
                       * (1 / np.array(subsample_sizes) - 1 / len(population)))
    cov = moments["cov"].values
    corr = cov[..., 0, 1] / np.sqrt(cov[..., 0, 0] * cov[..., 1, 1])
    return pd.DataFrame({"subsample size": subsample_sizes, "sd of subsample mean": sd_of_mean,
                         "finite-population SE": expected, "sd of subsample correlation": corr.std(axis=1, ddof=1)})


def _figure6_table(holdout):
    """Figure 6: mean, sd, min and max of the repeated-holdout accuracies of each split."""
    summary6 = pd.DataFrame({label: {"mean": a.mean(), "sd": a.std(ddof=1), "min": a.min(), "max": a.max()}
                             for label, a in holdout.items()}).T
    summary6.index = ["50/50 (75 test flowers)", "90/10 (15 test flowers)"]
    return summary6


def _intervals(panels, alpha):
    """Figure 8: the standard and percentile bootstrap intervals of each panel, and the replicates' skewness."""
    rows = []
    for title, reps in panels.items():
        std_ci = standard_interval(reps, confidence_level=1 - alpha)
        pct_ci = percentile_interval(reps, confidence_level=1 - alpha)
        rows.append({"panel": title, "mean": reps.mean(), "standard low": float(std_ci.low),
                     "standard high": float(std_ci.high), "percentile low": float(pct_ci.low),
                     "percentile high": float(pct_ci.high), "skewness": stats.skew(reps)})
    return pd.DataFrame(rows).set_index("panel")


def _reproduced(published, run, n_runs, alpha):
    """Figure 9 and the section's printed numbers, in the layout of the published table."""
    holdout = run["holdout"]
    limit = float(bootstrap_inclusion_probability(10**9))
    numbers = {
        ("repeated_holdout", "n_runs"): n_runs,
        ("repeated_holdout", "test_size_50_50"): 75,
        ("repeated_holdout", "test_size_90_10"): 15,
        ("repeated_holdout", "mean_accuracy_50_50"): holdout["50_50"].mean(),
        ("repeated_holdout", "mean_accuracy_90_10"): holdout["90_10"].mean(),
        ("t_quantile", "t95_n100"): stats.t.ppf(1 - alpha / 2, 100 - 1),
        ("normal_quantile", "z_95"): stats.norm.ppf(1 - alpha / 2),
        ("bootstrap_rounds", "recommended_min"): 50,
        ("bootstrap_rounds", "recommended_max"): 200,
        ("bootstrap_share", "not_chosen_limit"): 1 - limit,
        ("bootstrap_share", "chosen_limit"): limit,
        ("bootstrap_share", "out_of_bag"): 1 - limit,
        ("bootstrap_share", "in_bag"): limit,
        ("estimator_weight", "b632_out_of_bag"): round(limit, 3),
        ("estimator_weight", "b632_resubstitution"): round(1 - limit, 3),
    }
    reproduced = published.copy()
    reproduced["value"] = [float(numbers.get((q, i), np.nan)) for q, i in zip(published["quantity"],
                                                                               published["item"])]
    reproduced["source"] = _SOURCE
    is_design = published["quantity"] == "learning_curve_design"
    reproduced.loc[is_design, "value"] = [180, run["n_train"], run["n_test"]]
    reproduced.loc[is_design, "source"] = ("scikit-learn digits in place of MNIST (about 180 images per digit, "
                                           "70/30 split)")
    return reproduced, numbers


def _bias632(study):
    """The .632 study: bias, its standard error, median error and rmse of each estimate, and the errors."""
    bias_rows = []
    errors = {}
    for name, ds in study.items():
        error = ds["estimate"] - ds["truth"]
        for kind in ds["kind"].values:
            e = error.sel(kind=kind).to_numpy()
            errors[(name, str(kind))] = e
            bias_rows.append({"learner": name, "estimate": _KIND_LABELS.get(str(kind), str(kind)),
                              "mean truth": float(ds["truth"].mean()), "bias": np.mean(e),
                              "bias s.e.": np.std(e, ddof=1) / np.sqrt(e.size), "median error": np.median(e),
                              "rmse": np.sqrt(np.mean(e**2))})
    return pd.DataFrame(bias_rows), errors


def _tables(run, fig5, summary6, intervals, published, reproduced, bias_table):
    curve = run["curve"]
    sizes = np.array([2, 5, 10, 20, 50, 100, 1000])
    return {
        "figure4": Table(pd.DataFrame({"training-set size": curve.train_sizes, "training accuracy": curve.train_scores,
                                       "test accuracy": curve.test_scores}), 4, index=False),
        "figure5": Table(fig5, 3, index=False),
        "figure6": Table(summary6, 4),
        "figure8": Table(intervals, 4),
        "inclusion": Table(pd.DataFrame({"n": [2, 5, 10, 20, 50, 100, 1000],
                                         "P(chosen)": bootstrap_inclusion_probability(sizes)}), 4, index=False),
        "comparison": Table(published_beside_ours(published, reproduced, ["quantity", "item"], 3, _LABELS)),
        "bias632": Table(bias_table, 3, index=False),
    }


def _figures(run, fig5, alpha, seed):
    population, subsample_sizes = run["population"], run["subsample_sizes"]
    sd_of_mean, expected = fig5["sd of subsample mean"].to_numpy(), fig5["finite-population SE"].to_numpy()
    return {
        "figure4": lambda: _figure4(run["curve"]),
        "figure5": lambda: _figure5(population, subsample_sizes, sd_of_mean, expected, seed),
        "figure6": lambda: _figure6(run["holdout"], {"50_50": 0.95, "90_10": 0.96}),
        "figure8": lambda: _figure8(run["panels"], alpha),
        "figure9": _figure9,
        "bias632": lambda: _figure632(run["study"]),
    }


def _values(fig5, summary6, intervals, holdout, errors, claims):
    """The numbers and verdicts the page's text quotes, rounded as shown."""
    sd_of_mean = fig5["sd of subsample mean"].to_numpy()
    se_diff = np.sqrt(sum(a.var(ddof=1) / a.size for a in holdout.values()))
    values = {
        "fig5_sd_small": round(float(sd_of_mean[0]), 3), "fig5_sd_large": round(float(sd_of_mean[-1]), 3),
        "sd_50_50": round(float(100 * summary6["sd"].iloc[0]), 1),
        "sd_90_10": round(float(100 * summary6["sd"].iloc[1]), 1),
        "skew_iris": round(float(intervals["skewness"].iloc[0]), 2),
        "std_high_iris": round(float(intervals["standard high"].iloc[0]), 4),
        "mean_50_50": round(float(100 * holdout["50_50"].mean()), 1),
        "mean_90_10": round(float(100 * holdout["90_10"].mean()), 1),
        "mean_diff": round(float(100 * (holdout["90_10"].mean() - holdout["50_50"].mean())), 1),
        "se_diff": round(float(100 * se_diff), 1),
    }
    for learner, key in [("1-NN", "nn"), ("decision tree", "tree"), ("logistic regression", "lr")]:
        for kind in _KINDS:
            e = errors[(learner, kind)]
            values[f"bias_{key}_{kind}"] = round(float(100 * np.mean(e)), 1)
            values[f"rmse_{key}_{kind}"] = round(float(100 * np.sqrt(np.mean(e**2))), 1)
    values.update({f"verdict_{k}": v for k, v in claims.verdicts().items()})
    return values


def _claims(curve, n_test, sd_of_mean, holdout, published, panels, alpha, numbers, errors, *, n_boot):
    """The claims of the page, each with the standard error of its design (see the page's text)."""
    claims = Claims("raschka2018", _PAGE)
    _resampling_claims(claims, curve, n_test, sd_of_mean, holdout, published)
    _bootstrap_claims(claims, panels, alpha, numbers)
    _estimator_claims(claims, errors)
    return claims


def _resampling_claims(claims, curve, n_test, sd_of_mean, holdout, published):
    """Figures 4, 5 and 6: learning curves, subsampling and repeated holdout."""
    value = published.set_index(["quantity", "item"])["value"]
    # Figure 4: accuracies at the smallest and the largest training set; the test accuracy is a rate over
    # the n_test test images, the resubstitution accuracy a rate over the training images.
    tr, te, m = np.asarray(curve.train_scores), np.asarray(curve.test_scores), np.asarray(curve.train_sizes)
    claims.greater("fig4_resubstitution", "the resubstitution accuracy (training set) declines as the number of "
                   "training samples grows", "Section 2.2, Figure 4", larger=100 * tr[0], smaller=100 * tr[-1],
                   se=100 * np.hypot(rate_se(tr[0], int(m[0])), rate_se(tr[-1], int(m[-1]))), unit="points")
    claims.greater("fig4_test", "an improving generalization accuracy (test set) with an increasing training set "
                   "size", "Section 2.2, Figure 4", larger=100 * te[-1], smaller=100 * te[0],
                   se=100 * np.hypot(rate_se(te[0], n_test), rate_se(te[-1], n_test)), unit="points")
    # Figure 5: sd of the subsample mean over 200 subsamples; its standard error is sd / sqrt(2 (200 - 1)).
    se_sd = sd_of_mean / np.sqrt(2 * (200 - 1))
    claims.greater("fig5_drift", "the change in the sample statistics becomes more pronounced with small datasets",
                   "Section 2.3, Figure 5", larger=sd_of_mean[0], smaller=sd_of_mean[-1],
                   se=float(np.hypot(se_sd[0], se_sd[-1])), digits=3)
    # Figure 6: means over n repetitions, standard error sd / sqrt(n); printed as whole percentages.
    mean = {k: 100 * a.mean() for k, a in holdout.items()}
    se = {k: 100 * a.std(ddof=1) / np.sqrt(a.size) for k, a in holdout.items()}
    sd = {k: 100 * a.std(ddof=1) for k, a in holdout.items()}
    for key, label in [("50_50", "50/50"), ("90_10", "90/10")]:
        claims.close_to(f"fig6_mean_{key}", f"the average accuracy of these 50 {label} splits was "
                        f"{100 * value[('repeated_holdout', f'mean_accuracy_{key}')]:.0f}%", "Section 2.3, Figure 6",
                        value=mean[key], published=100 * value[("repeated_holdout", f"mean_accuracy_{key}")],
                        se=se[key], rounding=0.5, unit="%", digits=1)
    claims.greater("fig6_variance", "the variance of our estimate increases as the size of the test set decreases",
                   "Section 2.3, Figure 6", larger=sd["90_10"], smaller=sd["50_50"],
                   se=float(np.hypot(*(s / np.sqrt(2 * (a.size - 1)) for s, a in zip(sd.values(),
                                                                                       holdout.values())))),
                   unit="points (sd)", digits=1)
    claims.greater("fig6_ordering", "a small increase in the pessimistic bias when we decrease the size of the "
                   "training set: the average over the 50/50 splits is slightly lower than over the 90/10 splits",
                   "Section 2.3, Figure 6", larger=mean["90_10"], smaller=mean["50_50"],
                   se=float(np.hypot(se["50_50"], se["90_10"])), unit="points", digits=1)


def _bootstrap_claims(claims, panels, alpha, numbers):
    """Figure 8 and the printed quantiles and shares of Eq. 28-33."""
    # Figure 8: on the roughly normal panel (digits), the standard and percentile bounds agree within the
    # Monte Carlo error of a 2.5% / 97.5% quantile of n_boot replicates.
    reps = panels["B: softmax on digits"]
    std_ci = standard_interval(reps, confidence_level=1 - alpha)
    pct_ci = percentile_interval(reps, confidence_level=1 - alpha)
    claims.close_to("fig8_agree", "if the data is (roughly) following a normal distribution, the standard "
                    "confidence interval and percentile method typically agree (softmax on digits for MNIST)",
                    "Section 2.4, Figure 8", value=[float(std_ci.low), float(std_ci.high)],
                    published=[float(pct_ci.low), float(pct_ci.high)],
                    se=quantile_se(float(np.std(reps, ddof=1)), len(reps), alpha / 2), rounding=0.0, digits=4)
    # Quantiles and shares printed to three decimals (half a unit: 0.0005).
    claims.close_to("eq28_t", "t95 = 1.984 for n = 100", "Section 2.4, after Eq. 28",
                    value=numbers[("t_quantile", "t95_n100")], published=1.984, se=0.0, rounding=0.0005, digits=4)
    claims.close_to("eq33_chosen", "P(chosen) = 1 - (1 - 1/n)^n ≈ 0.632, P(not chosen) ≈ 0.368",
                    "Section 2.4, Eq. 32-33", value=[numbers[("bootstrap_share", "chosen_limit")],
                                                     numbers[("bootstrap_share", "not_chosen_limit")]],
                    published=[0.632, 0.368], se=0.0, rounding=0.0005, digits=4)
    claims.close_to("eq33_out_of_bag", "reserve 0.382 × n out-of-bag examples for testing", "Section 2.4, after "
                    "Eq. 33", value=numbers[("bootstrap_share", "out_of_bag")], published=0.382, se=0.0,
                    rounding=0.0005, digits=4)


def _estimator_claims(claims, errors):
    """The .632 study: the mean error over n_datasets training sets, standard error sd / sqrt(n_datasets)."""
    def bias_se(*keys):
        return (100 * np.array([np.mean(errors[k]) for k in keys]),
                100 * np.array([np.std(errors[k], ddof=1) / np.sqrt(errors[k].size) for k in keys]))

    learners = ["1-NN", "decision tree", "logistic regression"]
    b, s = bias_se(*[(lr, "oob") for lr in learners])
    claims.at_most("oob_pessimistic", "the pessimistic bias in the classic (out-of-bag) bootstrap method",
                   "Section 2.4", value=b, bound=0.0, se=s, unit="points", digits=1)
    overfit = ["1-NN", "decision tree"]
    b, s = bias_se(*[(lr, "b632") for lr in overfit])
    claims.greater("b632_optimistic", "an optimistic bias [of the .632 estimate] may occur with models that tend "
                   "to overfit (1-NN and the unpruned tree)", "Section 2.4, after Eq. 34", larger=b,
                   smaller=np.zeros_like(b), se=s, unit="points", digits=1)
    gap = [np.abs(errors[(lr, "b632")]).mean() - np.abs(errors[(lr, "b632_plus")]).mean() for lr in overfit]
    gap_se = [np.std(np.abs(errors[(lr, "b632")]) - np.abs(errors[(lr, "b632_plus")]), ddof=1)
              / np.sqrt(errors[(lr, "b632")].size) for lr in overfit]
    claims.greater("b632_plus_reduces", "the .632+ bootstrap [Efron and Tibshirani] addresses that optimistic bias: "
                   "mean absolute error of .632 above that of .632+ (1-NN and the unpruned tree)",
                   "Section 2.4, Eq. 35-37", larger=100 * np.array(gap), smaller=np.zeros(2),
                   se=100 * np.array(gap_se), unit="points", digits=1)
