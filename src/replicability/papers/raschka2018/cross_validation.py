"""Raschka (2018), Section 3: the bias and variance of k-fold cv, Figures 17-18, nested cv (Section 4.14).

:func:`cross_validation_page` computes everything the notebook
``raschka2018/03_cross_validation`` shows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.datasets import make_circles
from sklearn.model_selection import StratifiedKFold, cross_val_score, train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from ...engine.store import cached_result
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table
from ...report.tables import read_published
from ...report.uncertainty import rate_se
from .holdout import published_beside_ours
from .studies import cv_bias_variance_study, one_standard_error_rule, tuning_bias_study

__all__ = ["CV_DATASETS", "cross_validation_page"]

#: Simulated data sets per scale: the bias-variance study (per learner) and the nested-cv study.
CV_DATASETS = {"smoke": (2, 2), "quick": (30, 15), "paper": (100, 60)}
_PAGE = "03_cross_validation"
#: Words for the keys of ``data/published/raschka2018/figure18.csv``.
_LABELS = {
    "n_samples": "cases", "n_per_class": "cases per class", "n_train": "training cases",
    "test_size": "test fraction", "n_folds": "cv folds", "accuracy_threshold": "accuracy threshold",
    "gamma_min_above_threshold": "smallest gamma with 80% or more",
    "gamma_max_above_threshold": "largest gamma with 80% or more", "gamma_too_simple": "gamma too simple",
    "gamma_complex": "gamma of the best model", "gamma_one_standard_error": "gamma of the one-SE rule",
}
_FIG18_SOURCE = "computed by SVC + StratifiedKFold + replicability.papers.raschka2018.one_standard_error_rule"


def _bias_variance_table(cv_studies, n_train):
    rows = []
    for name, ds in cv_studies.items():
        cv = ds["cv_correct"] / ds.attrs["n_train"]
        true = ds["true_correct"] / ds.attrs["n_true_test"]
        error = cv - true
        # Paired with leave-one-out on the same data set, the differences between k
        # values are far less noisy than the bias against the true accuracy.
        to_loo = cv - cv.sel(k=n_train)
        for k in ds["k"].values:
            e = error.sel(k=k)
            rows.append({
                "learner": name, "k": int(k), "LOOCV": int(k) == n_train,
                "mean cv accuracy": float(cv.sel(k=k).mean()),
                "mean true accuracy": float(true.mean()),
                "bias": float(e.mean()),
                "bias s.e.": float(e.std(ddof=1) / np.sqrt(e.size)),
                "minus LOOCV": float(to_loo.sel(k=k).mean()),
                "minus LOOCV s.e.": float(to_loo.sel(k=k).std(ddof=1) / np.sqrt(e.size)),
                "sd of estimate": float(cv.sel(k=k).std(ddof=1)),
                "rmse": float(np.sqrt((e**2).mean())),
                "models fit": int(k),
            })
    return pd.DataFrame(rows)


def _bias_variance_figure(bias_variance, ks, n_train):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), layout="constrained")
    for name, frame in bias_variance.groupby("learner", sort=False):
        axes[0].errorbar(frame["k"], frame["bias"], yerr=frame["bias s.e."], marker="o", capsize=3, label=name)
        axes[1].plot(frame["k"], frame["sd of estimate"], marker="o", label=name)
    axes[0].axhline(0, color="black", lw=1)
    for ax, title in zip(axes, ["bias (cv estimate - true accuracy)", "standard deviation of the cv estimate"]):
        ax.set_xscale("log")
        ax.set_xticks(ks, [str(k) if k != n_train else f"{k} (LOO)" for k in ks])
        ax.minorticks_off()
        ax.set_xlabel("k")
        ax.set_title(title)
    axes[0].legend()


def _figure17_18(X_train, y_train, gammas, mean, se, best, chosen, published):
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(11, 6.5), layout="constrained")
    grid = fig.add_gridspec(2, 3)
    ax = fig.add_subplot(grid[0, 0])
    for label, marker in [(0, "o"), (1, "s")]:
        ax.scatter(*X_train[y_train == label].T, marker=marker, s=14, label=f"class {label}")
    ax.set_title("Figure 17: training cases")
    ax.legend(loc="upper right", fontsize=8)
    ax = fig.add_subplot(grid[0, 1:])
    ax.errorbar(gammas, mean, yerr=se, marker="o", capsize=3)
    ax.axhline(mean[best] - se[best], color="grey", ls="--", lw=1, label="best - 1 s.e.")
    ax.scatter([gammas[chosen]], [mean[chosen]], s=120, facecolors="none", edgecolors="red", label="one-SE choice")
    ax.axvspan(published["gamma_min_above_threshold"], published["gamma_max_above_threshold"], color="tab:red",
               alpha=0.08, label="paper: 80% or more")
    ax.axhline(published["accuracy_threshold"], color="tab:red", ls=":", lw=1)
    ax.axvline(published["gamma_one_standard_error"], color="tab:red", ls="-.", lw=1, label="paper's one-SE choice")
    ax.set_xscale("log")
    ax.set_xlabel("gamma")
    ax.set_ylabel("10-fold cv accuracy")
    ax.set_title("Figure 18: cv accuracy against gamma")
    ax.legend(loc="lower center", fontsize=8)
    xx, yy = np.meshgrid(np.linspace(-1.6, 1.6, 200), np.linspace(-1.6, 1.6, 200))
    for j, g in enumerate([0.001, gammas[chosen], 10.0]):
        ax = fig.add_subplot(grid[1, j])
        model = SVC(gamma=g).fit(X_train, y_train)
        zz = model.predict(np.c_[xx.ravel(), yy.ravel()]).reshape(xx.shape)
        ax.contourf(xx, yy, zz, alpha=0.3, cmap="coolwarm")
        ax.scatter(*X_train.T, c=y_train, s=8, cmap="coolwarm")
        ax.set_title(f"gamma = {g:g}")
        ax.set_xticks([])
        ax.set_yticks([])


def _nested_figure(error):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
    ax.boxplot([error.sel(estimate="non_nested").values, error.sel(estimate="nested").values],
               tick_labels=["non-nested (best_score_)", "nested cv"], orientation="horizontal")
    ax.axvline(0, color="black", lw=1)
    ax.set_xlabel("estimate - true accuracy")


def _figure18(seed, gammas, circles_noise, circles_factor):
    """The data, cv scores and choices of Figures 17-18, and the reproduced table."""
    X, y = make_circles(n_samples=300, noise=circles_noise, factor=circles_factor, random_state=seed)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)
    cv = StratifiedKFold(10, shuffle=True, random_state=seed)
    fold_scores = np.array([cross_val_score(SVC(gamma=g), X_train, y_train, cv=cv) for g in gammas])
    mean = fold_scores.mean(axis=1)
    se = fold_scores.std(axis=1, ddof=1) / np.sqrt(fold_scores.shape[1])
    chosen = one_standard_error_rule(mean, se)
    best = int(np.argmax(mean))
    test_accuracy = SVC(gamma=gammas[chosen]).fit(X_train, y_train).score(X_test, y_test)
    above = [g for g, m in zip(gammas, mean) if m >= 0.8]
    reproduced = {
        "n_samples": len(X), "n_per_class": int(np.sum(y == 0)), "n_train": len(X_train),
        "test_size": len(X_test) / len(X), "n_folds": cv.get_n_splits(), "accuracy_threshold": 0.8,
        "gamma_min_above_threshold": min(above) if above else np.nan,
        "gamma_max_above_threshold": max(above) if above else np.nan,
        "gamma_too_simple": gammas[int(np.argmin(mean))],
        "gamma_complex": gammas[best],
        "gamma_one_standard_error": gammas[chosen],
    }
    return {"X_train": X_train, "y_train": y_train, "mean": mean, "se": se, "best": best, "chosen": chosen,
            "test_accuracy": test_accuracy, "reproduced": reproduced}


def cross_validation_page(*, scale="paper", seed=2018, n_train=40, n_folds=(2, 3, 5, 10, 20), delta=1.0,
                          circles_noise=0.2, circles_factor=0.5,
                          gammas=(0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0), n_train_nested=60, n_jobs=2):
    """Section 3 of Raschka (2018): everything the notebook ``03_cross_validation`` shows.

    The bias and variance of k-fold cv for naive Bayes and a decision tree
    (:func:`cv_bias_variance_study`, leave-one-out added as ``k = n_train``), Figures
    17-18 (an RBF-kernel SVM tuned on concentric circles with the one-standard-error
    rule) and nested against non-nested cv (:func:`tuning_bias_study`). At
    ``scale="paper"`` the two studies are read from ``data/results``.
    :meth:`~replicability.report.page.Page.write` writes ``section36_bias_variance``,
    ``figure18`` and ``section414_nested_cv`` under ``reproduced/raschka2018`` and the
    page's claims.

    Parameters
    ----------
    scale : {"smoke", "quick", "paper"}
        Data sets per study, ``CV_DATASETS``.
    seed : int
    n_train : int
        Cases per simulated data set of the bias-variance study.
    n_folds : sequence of int
        Values of k (leave-one-out is added).
    delta : float
        Distance between the class means.
    circles_noise, circles_factor : float
        ``make_circles`` options (not stated in the paper).
    gammas : sequence of float
        The SVM's ``gamma`` values, smallest (simplest) first.
    n_train_nested : int
        Cases per simulated data set of the nested-cv study.
    n_jobs : int
        Workers of the studies; results do not depend on it.

    Returns
    -------
    Page

    Examples
    --------
    >>> page = cross_validation_page()  # the stored studies of data/results
    >>> page.values["svm_best_gamma"], page.values["svm_chosen_gamma"], page.claims.verdicts()["fig18_one_se"]
    (10.0, 1.0, 'does not hold')
    """
    if scale not in CV_DATASETS:
        raise ValueError(f"`scale` must be one of {sorted(CV_DATASETS)}; got {scale!r}.")
    gammas = [float(g) for g in gammas]
    ks = [*n_folds, n_train]
    n_datasets, n_datasets_nested = CV_DATASETS[scale]
    cv_studies = _cv_studies(scale, seed, n_train, ks, n_datasets, delta, n_jobs)
    bias_variance = _bias_variance_table(cv_studies, n_train)
    f18 = _figure18(seed, gammas, circles_noise, circles_factor)
    figure18 = read_published("raschka2018", "figure18")
    out18 = figure18.copy()
    out18["value"] = figure18["quantity"].map(f18["reproduced"]).astype(float)
    out18["source"] = _FIG18_SOURCE
    error, nested_table = _nested(scale, seed, n_train_nested, n_datasets_nested, delta, n_jobs)
    claims = _claims(cv_studies, bias_variance, n_train, f18, figure18, gammas, nested_table, n_datasets)

    return Page(claims, summary=comparison_summary(figure18["value"], out18["value"], claims),
                tables=_tables(bias_variance, n_train, gammas, f18, figure18, out18, nested_table),
                figures={
                    "bias_variance": lambda: _bias_variance_figure(bias_variance, ks, n_train),
                    "figure17_18": lambda: _figure17_18(f18["X_train"], f18["y_train"], gammas, f18["mean"],
                                                        f18["se"], f18["best"], f18["chosen"],
                                                        figure18.set_index("quantity")["value"]),
                    "nested": lambda: _nested_figure(error),
                },
                values=_values(bias_variance, n_train, f18, gammas, nested_table, claims),
                reproduced={"section36_bias_variance": bias_variance, "figure18": out18,
                            "section414_nested_cv": nested_table.reset_index()})


def _cv_studies(scale, seed, n_train, ks, n_datasets, delta, n_jobs):
    """The bias-variance study of naive Bayes and a decision tree (stored at paper scale)."""
    learners = {"naive Bayes": GaussianNB(), "decision tree": DecisionTreeClassifier(random_state=seed)}
    cv_studies = {}
    for i, (name, learner) in enumerate(learners.items()):
        cv_studies[name] = cached_result(
            "raschka2018/cv_bias_variance",
            {"version": 1, "learner": repr(learner), "n_train": n_train, "n_folds": ks,
             "n_datasets": n_datasets, "delta": delta, "seed": seed},
            lambda learner=learner, i=i: cv_bias_variance_study(learner, n_train=n_train, n_folds=ks,
                                                                n_datasets=n_datasets, delta=delta, rng=[seed, i],
                                                                n_jobs=n_jobs),
            scale=scale,
        )
    return cv_studies


def _nested(scale, seed, n_train_nested, n_datasets_nested, delta, n_jobs):
    """Nested against non-nested cv of k-nearest neighbours (stored at paper scale): errors and their table."""
    grid = {"n_neighbors": [1, 3, 7, 15, 31]}
    nested = cached_result(
        "raschka2018/nested_cv",
        {"version": 1, "learner": "KNeighborsClassifier()", "grid": grid, "n_train": n_train_nested,
         "n_datasets": n_datasets_nested, "delta": delta, "seed": seed},
        lambda: tuning_bias_study(KNeighborsClassifier(), grid, n_train=n_train_nested,
                                  n_datasets=n_datasets_nested, delta=delta, rng=[seed, 2], n_jobs=n_jobs),
        scale=scale,
    )
    acc = nested["accuracy"]
    error = acc.sel(estimate=["non_nested", "nested"]) - acc.sel(estimate="true")
    nested_table = pd.DataFrame({
        "mean estimate": acc.sel(estimate=["non_nested", "nested"]).mean("dataset").to_series(),
        "mean true accuracy": float(acc.sel(estimate="true").mean()),
        "bias (estimate - true)": error.mean("dataset").to_series(),
        "bias s.e.": (error.std("dataset", ddof=1) / np.sqrt(acc.sizes["dataset"])).to_series(),
    })
    return error, nested_table


def _tables(bias_variance, n_train, gammas, f18, figure18, out18, nested_table):
    shown = bias_variance.drop(columns=["LOOCV"]).assign(k=[f"{k} (LOO)" if k == n_train else str(k)
                                                            for k in bias_variance["k"]])
    return {
        "bias": Table(shown[["learner", "k", "mean cv accuracy", "mean true accuracy", "bias", "bias s.e.",
                             "minus LOOCV", "minus LOOCV s.e."]], 4, index=False),
        "variance": Table(shown[["learner", "k", "sd of estimate", "rmse", "models fit"]], 4, index=False),
        "gamma": Table(pd.DataFrame({
            "gamma": gammas, "cv accuracy": f18["mean"], "standard error": f18["se"],
            "best": np.arange(len(gammas)) == f18["best"],
            "one-SE choice": np.arange(len(gammas)) == f18["chosen"]}), 4, index=False),
        "figure18": Table(published_beside_ours(figure18, out18, ["quantity"], 4, _LABELS)),
        "nested": Table(nested_table.rename(index={"non_nested": "non-nested (best_score_)", "nested": "nested cv"}),
                        4),
    }


def _values(bias_variance, n_train, f18, gammas, nested_table, claims):
    """The numbers and verdicts the page's text quotes, rounded as shown."""
    values = {}
    for name, frame in bias_variance.groupby("learner", sort=False):
        key, frame = name.replace(" ", "_"), frame.set_index("k")
        values.update({
            f"sd_k2_{key}": round(float(frame["sd of estimate"][2]), 4),
            f"sd_k10_{key}": round(float(frame["sd of estimate"][10]), 4),
            f"sd_loo_{key}": round(float(frame["sd of estimate"][n_train]), 4),
            f"loo_gap_k2_{key}": round(float(frame["minus LOOCV"][2]), 3),
            f"loo_gap_k3_{key}": round(float(frame["minus LOOCV"][3]), 3),
            f"loo_gap_k10_{key}": round(float(frame["minus LOOCV"][10]), 3),
        })
    values.update({
        "svm_test_accuracy": round(float(f18["test_accuracy"]), 3),
        "svm_best_gamma": gammas[f18["best"]], "svm_chosen_gamma": gammas[f18["chosen"]],
        "bias_non_nested": round(float(nested_table.loc["non_nested", "bias (estimate - true)"]), 3),
        "bias_nested": round(float(nested_table.loc["nested", "bias (estimate - true)"]), 3),
        "bias_non_nested_se": round(float(nested_table.loc["non_nested", "bias s.e."]), 3),
        "bias_nested_se": round(float(nested_table.loc["nested", "bias s.e."]), 3),
        **{f"verdict_{k}": v for k, v in claims.verdicts().items()},
    })
    return values


def _claims(cv_studies, bias_variance, n_train, f18, figure18, gammas, nested_table, n_datasets):
    """The page's claims; standard errors over the simulated data sets (see the page's text)."""
    claims = Claims("raschka2018", _PAGE)
    for name, ds in cv_studies.items():
        key = name.replace(" ", "_")
        cv = (ds["cv_correct"] / ds.attrs["n_train"]).values  # (dataset, k)
        # Trend 1, paired on each data set: the estimate rises (its pessimistic bias falls) from each k to the next.
        step = np.diff(cv, axis=1)
        claims.greater(f"trend1_bias_{key}", "when increasing k, the bias of the performance estimator decreases "
                       f"({name}: the mean estimate rises from each k to the next, paired on each data set)",
                       "Section 3.6, list of trends", larger=100 * step.mean(axis=0), smaller=np.zeros(step.shape[1]),
                       se=100 * step.std(axis=0, ddof=1) / np.sqrt(step.shape[0]), unit="points", digits=2)
        frame = bias_variance[bias_variance["learner"] == name].set_index("k")["sd of estimate"]
        # A standard deviation over n data sets has standard error sd / sqrt(2 (n - 1)).
        sd_se = frame / np.sqrt(2 * (cv.shape[0] - 1))
        claims.greater(f"trend2_variance_{key}", f"when increasing k, the variance of the performance estimator "
                       f"increases ({name}: sd over data sets, leave-one-out against k = 10)",
                       "Section 3.6, list of trends", larger=frame[n_train], smaller=frame[10],
                       se=float(np.hypot(sd_se[n_train], sd_se[10])), digits=4)
        claims.greater(f"trend4_small_k_{key}", "decreasing k to small values (2 or 3) also increases the variance "
                       f"on small datasets ({name}: sd at k = 2 against k = 10)", "Section 3.6, list of trends",
                       larger=frame[2], smaller=frame[10], se=float(np.hypot(sd_se[2], sd_se[10])), digits=4)
    fits = bias_variance.drop_duplicates("k")
    claims.exactly("trend3_cost", "when increasing k, the computational cost increases", "Section 3.6, list of "
                   "trends", condition=bool(np.all(np.diff(fits["models fit"]) > 0)),
                   measured=f"models fit: {', '.join(str(int(v)) for v in fits['models fit'])}",
                   rule="models fit increase with k")
    published = figure18.set_index("quantity")["value"]
    ours = f18["reproduced"]
    setup = ["n_samples", "n_per_class", "n_train", "test_size", "n_folds"]
    claims.exactly("fig18_setup", "300 examples, 150 per class, 210 for training (70/30), stratified 10-fold cv",
                   "Section 3.10, Figures 17-18", condition=all(float(ours[q]) == float(published[q]) for q in setup),
                   measured=", ".join(f"{ours[q]:g}" for q in setup), rule="equal")
    for key, quantity, text in [
        ("fig18_too_simple", "gamma_too_simple", "gamma = 0.001 resulted in a decision boundary that is too simple "
         "(the lowest cv accuracy)"),
        ("fig18_best", "gamma_complex", "the best performing model with gamma = 10"),
        ("fig18_one_se", "gamma_one_standard_error", "gamma = 0.1 falls within one standard error of the best "
         "performing model (the one-standard-error choice)"),
    ]:
        claims.exactly(key, text, "Section 3.10, after Figure 18", condition=float(ours[quantity]) ==
                       float(published[quantity]), measured=f"gamma = {ours[quantity]:g}",
                       rule=f"gamma = {published[quantity]:g}")
    inside = [i for i, g in enumerate(gammas) if published["gamma_min_above_threshold"] <= g
              <= published["gamma_max_above_threshold"]]
    mean = f18["mean"][inside]
    claims.at_least("fig18_range", "gamma values between 0.1 and 100 resulted in a prediction accuracy of 80% or "
                    "more", "Section 3.10, after Figure 18", value=100 * mean, bound=80.0,
                    se=100 * rate_se(np.clip(mean, 0, 1), int(published["n_train"])), unit="%", digits=1)
    bias, se = nested_table["bias (estimate - true)"], nested_table["bias s.e."]
    claims.greater("nested_optimistic", "tuning and evaluating on the same cv folds gives an optimistically biased "
                   "estimate", "Section 4.14 (after Varma and Simon, 2006)", larger=100 * bias["non_nested"],
                   smaller=0.0, se=100 * se["non_nested"], unit="points")
    claims.close_to("nested_unbiased", "a nested CV procedure provides an almost unbiased estimate of the true "
                    "error", "Section 4.14 (quoting Varma and Simon, 2006)", value=100 * bias["nested"],
                    published=0.0, se=100 * se["nested"], rounding=0.0, unit="points")
    return claims
