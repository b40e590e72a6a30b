"""Raschka (2018), Section 1: holdout splits (Figure 1) and the normal-approximation interval (Eq. 10-17).

:func:`holdout_page` computes everything the notebook ``raschka2018/01_holdout`` shows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier

from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table, beside
from ...report.tables import read_published
from ...report.uncertainty import rate_se
from ...stats.bootstrap import holdout_accuracy_interval
from ...stats.evaluation import (
    normal_interval_coverage,
    random_split_deviation_probability,
    simulate_interval_coverage,
    split_class_counts,
)

__all__ = ["HOLDOUT_SIZES", "holdout_page", "published_beside_ours"]

#: Simulation sizes per scale of the notebook ``01_holdout``.
HOLDOUT_SIZES = {
    "smoke": {"n_split_runs": 200, "n_coverage_datasets": 200, "p_grid": [0.5, 0.9, 0.99], "n_grid": [10, 100]},
    "quick": {"n_split_runs": 2000, "n_coverage_datasets": 2000,
              "p_grid": [0.5, 0.7, 0.8, 0.9, 0.95, 0.99], "n_grid": [10, 20, 50, 100, 200, 500, 1000]},
    "paper": {"n_split_runs": 10000, "n_coverage_datasets": 10000,
              "p_grid": [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.975, 0.99],
              "n_grid": [10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000, 2000]},
}
_PAGE = "01_holdout"
#: Words for the keys of ``data/published/raschka2018/section1_holdout.csv``.
_LABELS = {
    "class_count_whole": "class count, all flowers", "class_percent_whole": "class share (%), all flowers",
    "split_size": "split size", "class_count_random_train": "class count, random split, training",
    "class_count_random_test": "class count, random split, test",
    "class_percent_random_train": "class share (%), random split, training",
    "class_percent_random_test": "class share (%), random split, test",
    "binomial_example": "binomial example (Eq. 13-14)", "normal_quantile": "normal quantile (Eq. 17)",
    "standard_deviation": "standard deviation", "z_95": "z for 95%",
}
_SOURCE = "replicability.stats.evaluation.split_class_counts and scipy.stats (notebook raschka2018/01_holdout)"


def _figure1(class_names, whole, random_parts, strat_parts, paper_parts):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(9, 5), sharey=True, layout="constrained")
    rows = [("random", [whole, *random_parts], [None, *paper_parts]),
            ("stratified", [whole, *strat_parts], [None, None, None])]
    colors = ["#1b9e77", "#d95f02", "#7570b3"]
    for axrow, (kind, counts_list, paper_list) in zip(axes, rows):
        for ax, part, counts, paper in zip(axrow, ["all data", "training", "test"], counts_list, paper_list):
            ax.bar(class_names, 100 * counts / counts.sum(), color=colors, label="ours")
            if paper is not None:
                ax.plot(class_names, 100 * paper / paper.sum(), "kx", ms=8, label="paper's split")
                ax.legend(fontsize=7, loc="lower right")
            ax.axhline(100 / 3, color="black", lw=0.8, ls="--")
            ax.set_title(f"{kind} split: {part}" if part != "all data" else "all data (n = 150)", fontsize=10)
            ax.tick_params(axis="x", labelsize=8)
        axrow[0].set_ylabel("class share (%)")


def _split_histogram(many_random, many_strat, paper_setosa):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 2.8), layout="constrained")
    bins = np.arange(20.5, 47.5)
    ax.hist(many_random[:, 0], bins=bins, color="#d95f02", alpha=0.7, label="random split")
    ax.hist(many_strat[:, 0], bins=bins, color="#1b9e77", alpha=0.9, label="stratified split")
    ax.axvline(paper_setosa, color="black", ls=":", label="paper's split (setosa)")
    ax.set_xlabel("setosa flowers among the 100 training flowers")
    ax.set_ylabel("splits")
    ax.legend(fontsize=8)


def _coverage_figure(p_grid, n_grid, simulated, exact, alpha):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), layout="constrained")
    for i, p in enumerate(p_grid):
        line, = axes[0].plot(n_grid, 100 * simulated[i], "o", ms=3)
        axes[0].plot(n_grid, 100 * exact[i], "-", lw=1, color=line.get_color(), label=f"p = {p:g}")
    axes[0].axhline(100 * (1 - alpha), color="black", ls="--", lw=1)
    axes[0].set_xscale("log")
    axes[0].set_xlabel("test-set size n")
    axes[0].set_ylabel("coverage (%)")
    axes[0].set_ylim(0, 101)
    axes[0].legend(fontsize=7, ncol=2)
    axes[0].set_title("points: simulated; lines: exact", fontsize=9)
    npq = n_grid[None, :] * p_grid[:, None] * (1 - p_grid[:, None])
    axes[1].scatter(npq.ravel(), 100 * simulated.ravel(), s=10)
    axes[1].axhline(100 * (1 - alpha), color="black", ls="--", lw=1)
    axes[1].set_xscale("log")
    axes[1].set_xlabel("n p (1 - p)")
    axes[1].set_ylabel("coverage (%)")
    axes[1].set_ylim(0, 101)


def published_beside_ours(published, reproduced, keys, digits, labels):
    """Published / ours / difference (:func:`~replicability.report.page.beside`) of long tables.

    Both tables have the columns ``keys`` and ``value``.

    ``labels`` maps the keys of the transcription to the words shown; ``digits``: decimals per row.
    """
    index = pd.MultiIndex.from_frame(published[keys].replace(labels))
    return beside(pd.Series(published["value"].to_numpy(float), index=index),
                  pd.Series(reproduced["value"].to_numpy(float), index=index), digits=digits)


def holdout_page(*, seed=1, alpha=0.05, scale="paper", n_test=50):
    """Figure 1 and Equations 10-17 of Raschka (2018): everything the notebook ``01_holdout`` shows.

    One random and one stratified 2/3-1/3 split of Iris (Figure 1), the exact
    probability that a random split is as unbalanced as the paper's, many splits of
    each kind, the worked numbers of Eq. 13-17, a 3-nearest-neighbour holdout
    interval, and the coverage of the interval of Eq. 17 by simulation
    (:func:`~replicability.stats.evaluation.simulate_interval_coverage`) and exactly.
    All draws come, in this order, from ``numpy.random.default_rng(seed)``.
    :meth:`~replicability.report.page.Page.write` writes
    ``reproduced/raschka2018/section1_holdout.csv`` and the page's claims.

    Parameters
    ----------
    seed : int
        Root seed of every draw.
    alpha : float
        1 - alpha is the confidence level of the intervals.
    scale : {"smoke", "quick", "paper"}
        Simulation sizes, ``HOLDOUT_SIZES``.
    n_test : int
        Flowers held out in Figure 1.

    Returns
    -------
    Page
        Tables ``stratified``, ``comparison``, ``interval``, ``coverage``; figures
        ``figure1``, ``splits``, ``coverage``; glued values; claims; reproduced
        ``section1_holdout``.

    Examples
    --------
    >>> page = holdout_page(scale="smoke")
    >>> page.values["p_as_unbalanced"], page.claims.verdicts()["eq13_binomial"]
    (0.158, 'holds')
    """
    if scale not in HOLDOUT_SIZES:
        raise ValueError(f"`scale` must be one of {sorted(HOLDOUT_SIZES)}; got {scale!r}.")
    sizes = HOLDOUT_SIZES[scale]
    rng = np.random.default_rng(seed)
    published = read_published("raschka2018", "section1_holdout")
    iris = load_iris()
    splits = _splits(iris.target, list(iris.target_names), published, sizes, n_test, rng)
    reproduced, numbers = _reproduced(published, splits, alpha)
    interval = _knn_interval(iris, n_test, alpha, rng)
    coverage = _coverage(sizes, alpha, rng)
    claims = _claims(splits, numbers, coverage, sizes, alpha)

    # Percentages are printed with one decimal, other values with at most two.
    decimals = np.where(published["quantity"].str.contains("percent"), 1, 2)
    ours = [round(v, int(d)) for v, d in zip(reproduced["value"], decimals)]
    return Page(claims, summary=comparison_summary(published["value"], ours, claims),
                tables=_tables(published, reproduced, decimals, splits, interval, coverage),
                figures=_figures(splits, coverage, alpha), values=_values(splits, coverage, claims, alpha, sizes),
                reproduced={"section1_holdout": reproduced})


def _splits(y, class_names, published, sizes, n_test, rng):
    """Figure 1: one random and one stratified split of Iris, then many of each (draws from ``rng``, in this order)."""
    random_train, random_test = split_class_counts(y, test_size=n_test, rng=rng)
    strat_train, strat_test = split_class_counts(y, test_size=n_test, stratified=True, rng=rng)
    whole = np.bincount(y)

    def published_counts(quantity):
        return published.query("quantity == @quantity")["value"].to_numpy().astype(int)

    paper_train, paper_test = published_counts("class_count_random_train"), published_counts("class_count_random_test")
    p_as_unbalanced = float(random_split_deviation_probability(whole, paper_train))
    many_random, _ = split_class_counts(y, test_size=n_test, n_runs=sizes["n_split_runs"], rng=rng)
    many_strat, _ = split_class_counts(y, test_size=n_test, n_runs=sizes["n_split_runs"], stratified=True,
                                       rng=rng)
    return {"class_names": class_names, "whole": whole, "random": (random_train[0], random_test[0]),
            "stratified": (strat_train[0], strat_test[0]), "paper": (paper_train, paper_test),
            "p_as_unbalanced": p_as_unbalanced, "many_random": many_random, "many_strat": many_strat}


def _reproduced(published, splits, alpha):
    """Equations 13-17 and the class counts of Figure 1, in the layout of the published table."""
    binomial = stats.binom(40, 0.5)
    (random_train, random_test), whole = splits["random"], splits["whole"]
    numbers = {
        ("split_size", "train"): int(random_train.sum()), ("split_size", "test"): int(random_test.sum()),
        ("binomial_example", "n"): 40, ("binomial_example", "p"): 0.5,
        ("binomial_example", "mean"): binomial.mean(), ("binomial_example", "variance"): binomial.var(),
        ("binomial_example", "standard_deviation"): binomial.std(),
        ("normal_quantile", "z_95"): stats.norm.ppf(1 - alpha / 2),
    }
    counts = {"class_count_whole": whole, "class_count_random_train": random_train,
              "class_count_random_test": random_test, "class_percent_whole": 100 * whole / whole.sum(),
              "class_percent_random_train": 100 * random_train / random_train.sum(),
              "class_percent_random_test": 100 * random_test / random_test.sum()}
    for quantity, values in counts.items():
        for name, value in zip(splits["class_names"], values):
            numbers[(quantity, name)] = value
    reproduced = published.copy()
    reproduced["value"] = [float(numbers[(q, i)]) for q, i in zip(published["quantity"], published["item"])]
    reproduced["source"] = _SOURCE
    return reproduced, numbers


def _knn_interval(iris, n_test, alpha, rng):
    """A 3-nearest-neighbour holdout accuracy and its normal-approximation interval (one draw from ``rng``)."""
    X_train, X_test, y_train, y_test = train_test_split(
        iris.data, iris.target, test_size=n_test, stratify=iris.target, random_state=int(rng.integers(2**31 - 1)))
    acc = np.mean(KNeighborsClassifier(n_neighbors=3).fit(X_train, y_train).predict(X_test) == y_test)
    ci = holdout_accuracy_interval(acc, n_test=y_test.size, confidence_level=1 - alpha)
    return pd.DataFrame({"test flowers": [y_test.size], "accuracy": [acc], "low": [float(ci.low)],
                         "high": [float(ci.high)]})


def _coverage(sizes, alpha, rng):
    """Coverage of the interval of Eq. 17, simulated and exact, over the grid of accuracies and test-set sizes."""
    p_grid, n_grid = np.array(sizes["p_grid"]), np.array(sizes["n_grid"])
    simulated = simulate_interval_coverage(p_grid[:, None], n_grid[None, :], n_datasets=sizes["n_coverage_datasets"],
                                           confidence_level=1 - alpha, rng=rng)
    exact = normal_interval_coverage(p_grid[:, None], n_grid[None, :], confidence_level=1 - alpha)
    table = pd.DataFrame(100 * simulated, index=pd.Index(p_grid, name="true accuracy p"),
                         columns=pd.Index(n_grid, name="test-set size n"))
    npq = (n_grid[None, :] * p_grid[:, None] * (1 - p_grid[:, None])).ravel()
    return {"p_grid": p_grid, "n_grid": n_grid, "simulated": simulated, "exact": exact, "table": table,
            "large": npq >= 10}


def _claims(splits, numbers, coverage, sizes, alpha):
    """The page's claims: printed numbers to half a unit of their last digit, coverage to 2 s.e. of its design."""
    claims = Claims("raschka2018", _PAGE)
    whole, many_strat = splits["whole"], splits["many_strat"]
    strat_ok = bool(np.all((many_strat >= 33) & (many_strat <= 34)))
    claims.exactly("fig1_whole", "Iris has 50 flowers per class; 2/3 (100) go to training, 1/3 (50) to testing",
                   "Section 1.4", condition=bool(np.all(whole == 50) and numbers[("split_size", "train")] == 100),
                   measured=f"classes {whole.tolist()}, split {numbers[('split_size', 'train')]}/"
                            f"{numbers[('split_size', 'test')]}", rule="counts equal")
    claims.close_to("fig1_percent_whole", "33.3% Setosa, 33.3% Versicolor, 33.3% Virginica", "Section 1.4",
                    value=100 * whole / whole.sum(), published=33.3, se=0.0, rounding=0.05, unit="%", digits=3)
    claims.at_least("fig1_random_split", "random subsampling gives a training set of 38 Setosa, 28 Versicolor, "
                    "34 Virginica: a random split changes the class proportions", "Section 1.4, Figure 1",
                    value=splits["p_as_unbalanced"], bound=alpha, digits=3)
    claims.exactly("fig1_stratified", "stratification keeps the class proportions of the whole in the training "
                   "set", "Section 1.4, Figure 1", condition=strat_ok,
                   measured=f"training counts {many_strat.min()} to {many_strat.max()} in "
                            f"{sizes['n_split_runs']} stratified splits", rule="every class count 33 or 34")
    binomial = stats.binom(40, 0.5)
    claims.close_to("eq13_binomial", "we expect 20 out of 40 predictions correct; variance 10", "Section 1.7, Eq. 13",
                    value=[binomial.mean(), binomial.var()], published=[20, 10], se=0.0, rounding=0.0)
    claims.close_to("eq14_sd", "standard deviation 3.16", "Section 1.7, Eq. 14", value=binomial.std(),
                    published=3.16, se=0.0, rounding=0.005, digits=4)
    claims.close_to("eq17_z", "z = 1.96 for alpha = 0.05", "Section 1.7, after Eq. 17",
                    value=stats.norm.ppf(1 - alpha / 2), published=1.96, se=0.0, rounding=0.005, digits=4)
    claims.at_least("eq17_coverage_large", "ACC ± z SE (Eq. 17) is a 95% confidence interval under the normal "
                    "approximation; judged where n p (1 - p) >= 10, the usual condition for that approximation",
                    "Section 1.7, Eq. 17", value=100 * coverage["simulated"].ravel()[coverage["large"]],
                    bound=100 * (1 - alpha), se=_coverage_se(alpha, sizes), unit="%", digits=1)
    return claims


def _coverage_se(alpha, sizes):
    """Standard error (points) of a simulated coverage of 1 - alpha over the simulated data sets."""
    return 100 * rate_se(1 - alpha, sizes["n_coverage_datasets"])


def _values(splits, coverage, claims, alpha, sizes):
    """The numbers and verdicts the page's text quotes, rounded as shown."""
    sim_flat, large = coverage["simulated"].ravel(), coverage["large"]
    return {
        "p_as_unbalanced": round(splits["p_as_unbalanced"], 3),
        "cov_min_large": round(float(100 * sim_flat[large].min()), 1),
        "cov_max_large": round(float(100 * sim_flat[large].max()), 1),
        "cov_min_small": round(float(100 * sim_flat[~large].min()), 1),
        "max_abs_sim_exact": round(float(100 * np.abs(coverage["simulated"] - coverage["exact"]).max()), 2),
        "nominal": round(float(100 * (1 - alpha)), 0),
        "cov_tolerance": round(float(2 * _coverage_se(alpha, sizes)), 2),
        **{f"verdict_{k}": v for k, v in claims.verdicts().items()},
    }


def _tables(published, reproduced, decimals, splits, interval, coverage):
    strat_train, strat_test = splits["stratified"]
    return {
        "stratified": Table(pd.DataFrame({"train": strat_train, "test": strat_test},
                                         index=pd.Index(splits["class_names"], name="stratified split"))),
        "comparison": Table(published_beside_ours(published, reproduced, ["quantity", "item"], decimals, _LABELS)),
        "interval": Table(interval, 4, index=False),
        "coverage": Table(coverage["table"], 1),
    }


def _figures(splits, coverage, alpha):
    return {
        "figure1": lambda: _figure1(splits["class_names"], splits["whole"], splits["random"], splits["stratified"],
                                    splits["paper"]),
        "splits": lambda: _split_histogram(splits["many_random"], splits["many_strat"], splits["paper"][0][0]),
        "coverage": lambda: _coverage_figure(coverage["p_grid"], coverage["n_grid"], coverage["simulated"],
                                             coverage["exact"], alpha),
    }
