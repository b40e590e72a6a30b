"""Figures 1 and 2 of Bouckaert (2003): the worked example of Section 3 and the calibration of Section 4.

:func:`figure1_page` recomputes every average of the 3 x 3 example with
:func:`~replicability.stats.schemes.scheme_sample` and applies the ten schemes of Table 1 to it;
:func:`figure2_page` selects the calibrated df of every test from the stored Section 4
calibration and checks the observations the paper lists under Figure 2. Each returns a
:class:`~replicability.report.page.Page` whose figure :func:`plot_figure1` or
:func:`plot_figure2` draws.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table
from ...report.tables import read_published
from ...report.uncertainty import rate_se
from ...stats.decisions import Outcome, decide
from ...stats.schemes import scheme_sample, scheme_ttest
from .compare import word_rounding
from .experiments import NULL_DATASETS, section4_calibration
from .study import STUDY_TESTS, TEST_LABELS, select_calibrated_df

__all__ = ["figure1_page", "figure2_page", "plot_figure1", "plot_figure2"]

_SCHEMES = [("all", "plain"), ("folds", "plain"), ("folds", "averaged_var"), ("folds", "averaged_t"),
            ("runs", "plain"), ("runs", "averaged_var"), ("runs", "averaged_t"),
            ("sorted_runs", "plain"), ("sorted_runs", "averaged_var"), ("sorted_runs", "averaged_t")]


def figure1_page(*, alpha=0.05):
    """Figure 1: the averages of the worked example, printed beside computed, and the tests on it.

    Parameters
    ----------
    alpha : float
        Level of the ten tests applied to the example.

    Returns
    -------
    Page
        Tables ``"matrix"`` (the differences), ``"comparison"`` (every printed average
        and sorted cell beside ours) and ``"tests"``; figure ``"figure1"``; claims on the
        printed averages, which the paper computes from the printed, two-decimal
        differences (so they are compared with half a unit of the second decimal).

    Examples
    --------
    >>> page = figure1_page()
    >>> page.claims.verdicts()["c_fold_means"], page.claims.verdicts()["c_run_means"]
    ('holds', 'does not hold')
    """
    published = read_published("bouckaert2003", "figure1")
    d = published.query("quantity == 'difference'").pivot(index="run", columns="fold", values="value").to_numpy()
    data = {"d": d, "sorted_d": np.sort(d, axis=-1),
            "means": {"run_mean": scheme_sample(d, "folds"), "fold_mean": scheme_sample(d, "runs"),
                      "sorted_fold_mean": scheme_sample(d, "sorted_runs")},
            "published": published}
    reproduced, both = _figure1_reproduced(data)
    claims = _figure1_claims(both)
    matrix = pd.DataFrame(d, index=pd.Index([1, 2, 3], name="run"), columns=pd.Index([1, 2, 3], name="fold"))
    return Page(
        tables={"matrix": Table(matrix, 2), "comparison": Table(_figure1_comparison(both), 2),
                "tests": Table(_figure1_tests(d, alpha), 4)},
        claims=claims,
        summary=comparison_summary(both["published"], both["reproduced"].round(2), claims),
        data=data,
        reproduced={"figure1": reproduced},
        figures={"figure1": partial(plot_figure1, data)},
    )


def _figure1_reproduced(data):
    """Every printed cell recomputed (the reproduced table) and the printed ones beside ours (``both``)."""
    published, means = data["published"], data["means"]
    values = {"difference": data["d"], "sorted_difference": data["sorted_d"]}

    def ours(row):
        if row.quantity in values:
            return values[row.quantity][int(row.run) - 1, int(row.fold) - 1]
        return means[row.quantity][int(row.run if row.quantity == "run_mean" else row.fold) - 1]

    reproduced = published.copy()
    reproduced["value"] = reproduced.apply(ours, axis=1)
    reproduced["source"] = "computed by replicability.stats.scheme_sample from the Figure 1 differences"
    both = published.rename(columns={"value": "published"}).assign(reproduced=reproduced["value"])
    both = both[both["quantity"] != "difference"]
    both["difference"] = (both["reproduced"].round(2) - both["published"]).round(2) + 0.0
    return reproduced, both


def _figure1_comparison(both):
    comparison = both[["quantity", "run", "fold", "published", "reproduced", "difference"]].reset_index(drop=True)
    comparison[["run", "fold"]] = comparison[["run", "fold"]].astype("Int64")
    comparison["reproduced"] = comparison["reproduced"].round(2) + 0.0
    return comparison


def _figure1_claims(both):
    claims = Claims("bouckaert2003", "01_figure1_worked_example")
    source = "Sec. 3, Figure 1"
    for key, quantity, statement in (
            ("c_run_means", "run_mean", "The mean of each run, the x_i column of the Fold table"),
            ("c_fold_means", "fold_mean", "The mean of each fold over runs, the bottom row of the Fold table"),
            ("c_sorted_means", "sorted_fold_mean",
             "The means of the sorted positions, bottom row of the Sorted fold table")):
        sel = both[both["quantity"] == quantity]
        claims.close_to(key, statement, source, value=sel["reproduced"], published=sel["published"], se=0.0,
                        rounding=0.005, digits=3)
    sel = both[both["quantity"] == "sorted_difference"]
    claims.exactly("c_sorted", "The Sorted fold table: each run's folds sorted", source,
                   condition=bool(np.array_equal(sel["reproduced"].to_numpy(), sel["published"].to_numpy())),
                   measured=f"{int((sel['reproduced'] == sel['published']).sum())} of {len(sel)} cells equal",
                   rule="every cell equal to the printed one")
    return claims


def _figure1_tests(d, alpha):
    """The ten schemes of Table 1 applied to the example, one row each."""
    tests = []
    for scheme, variant in _SCHEMES:
        res = scheme_ttest(d, scheme=scheme, variant=variant)
        tests.append({"scheme": scheme, "variant": variant, "statistic": round(float(res.statistic), 4),
                      "df": int(res.df), "pvalue": round(float(res.pvalue), 4),
                      "outcome": Outcome(int(decide(res, alpha=alpha))).name})
    return pd.DataFrame(tests)


def plot_figure1(data):
    """The two matrices of Figure 1 with the averages; each printed average in grey under ours.

    ``data``: the page's data (``d``, ``sorted_d``, ``means``, ``published``).
    """
    import matplotlib.pyplot as plt

    d, sorted_d, means, printed = data["d"], data["sorted_d"], data["means"], data["published"]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6), layout="constrained")
    panels = [("Fold", d, "fold_mean", "run_mean"), ("Sorted fold", sorted_d, "sorted_fold_mean", None)]
    for ax, (title, matrix, bottom, right) in zip(axes, panels):
        extended = np.full((4, 4), np.nan)
        paper = np.full((4, 4), np.nan)
        extended[:3, :3] = matrix
        extended[3, :3] = means[bottom]
        paper[3, :3] = printed.query("quantity == @bottom").sort_values("fold")["value"]
        if right is not None:
            extended[:3, 3] = means[right]
            paper[:3, 3] = printed.query("quantity == @right").sort_values("run")["value"]
        ax.imshow(extended, cmap="RdBu", vmin=-10, vmax=10)
        for (i, j), value in np.ndenumerate(extended):
            if np.isnan(value):
                continue
            mean_cell = i == 3 or j == 3
            dark = abs(value) > 6  # dark cells of the colour map take white text
            ax.text(j, i - (0.12 if mean_cell else 0), f"{value:.2f}", ha="center", va="center", fontsize=9,
                    fontweight="bold" if mean_cell else "normal", color="white" if dark else "black")
            if mean_cell:
                ax.text(j, i + 0.25, f"paper {paper[i, j]:.2f}", ha="center", va="center", fontsize=7,
                        color="0.9" if dark else "0.3")
        ax.set_xticks(range(4), ["1", "2", "3", "$x_{j\\cdot}$" if right is not None else ""])
        ax.set_yticks(range(4), ["run 1", "run 2", "run 3", "mean"])
        ax.set_title(title)
        ax.axhline(2.5, color="black", lw=1)
        ax.axvline(2.5, color="black", lw=1)
    return fig


def figure2_page(*, scale="paper", seed=0, alpha=0.05):
    """Figure 2: calibrated df and Type I error of the thirteen tests, and the claims of Section 4.

    Parameters
    ----------
    scale : {"smoke", "quick", "paper"}
        Sizes of :data:`~replicability.papers.bouckaert2003.experiments.NULL_DATASETS`.
    seed : int
        Root seed of the null experiment (0: the stored paper-scale result).
    alpha : float
        The level of the figure (5% in the paper; 1% and 10% are also calibrated).

    Returns
    -------
    Page
        Tables ``"df"`` and ``"type1"`` (test x runs at ``alpha``), ``"df_other"`` (the
        other levels, one table each), figure ``"figure2"`` and the claims.

    Examples
    --------
    >>> page = figure2_page()  # reads the stored paper-scale calibration
    >>> page.claims.verdicts()["c_folds"], int(page.values["df_all_10"])
    ('holds', 11)
    """
    n_datasets = NULL_DATASETS[scale]
    calibration = section4_calibration(scale=scale, seed=seed)
    alphas = [float(a) for a in calibration["alpha"].values]
    figure = _figure2_long(calibration, alphas)
    out = figure[["test", "n_runs", "alpha", "df", "type1_error"]].round(4)
    out["source"] = f"computed: replicability.papers.bouckaert2003.null_calibration, {n_datasets} null data sets"
    claims = Claims("bouckaert2003", "02_calibration")
    _figure2_resampling_claims(claims, figure, alpha=alpha, n_datasets=n_datasets)
    _figure2_other_claims(claims, figure, alpha=alpha, n_datasets=n_datasets)
    df5 = _grid(figure, "df", alpha)
    labels = [TEST_LABELS[t] for t in STUDY_TESTS]
    other = {f"{100 * a:g}%": _grid(figure, "df", a).astype(int).set_axis(labels)
             for a in alphas if not np.isclose(a, alpha)}
    all_10 = float(df5.loc["all", 10]) if 10 in df5.columns else float("nan")
    data = {"figure2": figure, "alpha": alpha}
    return Page(
        tables={"df": Table(df5.astype(int).set_axis(labels), 2),
                "type1": Table(_grid(figure, "type1_error", alpha).round(1).set_axis(labels), 1),
                "df_other": [Table(t, caption=f"calibrated df at {level}") for level, t in other.items()]},
        claims=claims,
        summary=f"the paper prints no numbers for Figure 2; {claims.summary()}",
        values={"df_all_10": round(all_10, 0)},
        data=data,
        reproduced={"figure2": out},
        figures={"figure2": partial(plot_figure2, data)},
    )


def _figure2_long(calibration, alphas):
    """The calibrated df and its Type I error (%) per test, runs and level, one row each."""
    frames = []
    for a in alphas:
        frame = select_calibrated_df(calibration, alpha=a).to_dataframe().reset_index()
        frame["alpha"] = a
        frames.append(frame)
    figure = pd.concat(frames, ignore_index=True)
    figure["type1_error"] = 100 * figure["type1_error"]
    return figure


def _grid(figure, column, alpha):
    """``column`` of the long table at level ``alpha`` as a test x runs table, tests in the paper's order."""
    return figure[np.isclose(figure["alpha"], alpha)].pivot(index="test", columns="n_runs",
                                                           values=column).loc[list(STUDY_TESTS)]


def _spearman(x, y):
    return float(pd.Series(x, dtype=float).corr(pd.Series(y, dtype=float), method="spearman"))


_SRC = "Sec. 4, observations on Figure 2"


def _figure2_resampling_claims(claims, figure, *, alpha, n_datasets):
    """The observations on resampling, corrected resampling and k-fold cv."""
    df5 = _grid(figure, "df", alpha)
    runs = list(df5.columns)
    expected = pd.Series(runs, index=runs) - 1
    rises = {t: _spearman(df5.loc[t].values, runs) for t in STUDY_TESTS if df5.loc[t].nunique() > 1}
    rising = sorted(t for t, v in rises.items() if v >= 0.8 and df5.loc[t].iloc[-1] - df5.loc[t].iloc[0] >= 5)
    claims.exactly("c_rising", "\"The calibrated degrees of freedom for resampling and corrected resampling "
                   "consistently increases with increasing number of runs r, and they are the only tests doing so.\"",
                   _SRC, condition=rising == ["corrected_resampling", "resampling"],
                   measured="rising: " + (", ".join(TEST_LABELS[t] for t in rising) or "none"),
                   rule="Spearman correlation of df with runs >= 0.8 and a rise of at least 5 df, "
                        "for these two tests and no other")
    cut_resampling = 100 * float((1 - df5.loc["resampling"] / expected).max())
    cut_corrected = 100 * float((1 - df5.loc["corrected_resampling"] / expected).median())
    claims.close_to("c_reductions", "\"The df for resampling is up to 90% lower than the expected r - 1\" "
                    "(the largest reduction over the runs)", _SRC, value=cut_resampling, published=90, se=0.0,
                    rounding=word_rounding(90), unit="%", digits=0)
    claims.close_to("c_reductions_corrected", "\"the df for corrected resampling is circa 10% lower than the "
                    "expected r - 1\" (the median reduction over the runs)", _SRC, value=cut_corrected, published=10,
                    se=0.0, rounding=word_rounding(10), unit="%", digits=0)
    kfold = figure[figure["test"] == "kfold_cv"]
    constant = bool(kfold.groupby("alpha")["df"].nunique().eq(1).all())
    claims.exactly("c_kfold", "\"The df for 10 fold cross validation is constant over runs\"", _SRC,
                   condition=constant, measured=f"df {sorted(set(kfold['df'].astype(int)))} at the three levels",
                   rule="one df per level over all numbers of runs")
    cut_kfold = 100 * (1 - kfold.groupby("alpha")["df"].first() / 9)
    claims.close_to("c_kfold_33", "\"The calibrated df is consistently 33% lower than expected [k - 1 = 9] for the "
                    "various significance levels\"", _SRC, value=cut_kfold.values, published=33, se=0.0,
                    rounding=word_rounding(33), unit="%", digits=1)
    kfold_t1 = float(_grid(figure, "type1_error", alpha).loc["kfold_cv"].iloc[0])
    claims.close_to("c_kfold_mark", "\"... and the Type I error [of 10 fold cross validation] is close to the mark\" "
                    f"(at {100 * alpha:g}%)", _SRC, value=kfold_t1, published=100 * alpha,
                    se=100 * rate_se(alpha, n_datasets), rounding=0.0, unit="%", digits=2)


def _figure2_other_claims(claims, figure, *, alpha, n_datasets):
    """The observations on the ten tests on all the r x k cv differences."""
    df5 = _grid(figure, "df", alpha)
    others = [t for t in STUDY_TESTS if t not in ("resampling", "corrected_resampling", "kfold_cv")]
    spread = figure[figure["test"].isin(others)].groupby(["test", "n_runs"])["df"].agg(lambda v: v.max() - v.min())
    claims.at_least("c_levels", "\"Comparing results for 1%, 5% and 10% significance levels, the df for all other "
                    "tests are constant for different significance level (mostly within 1 difference)\" (mostly: "
                    "more than half of the (test, runs) cells)", _SRC, value=100 * float((spread <= 1).mean()),
                    bound=50, unit="% of cells", digits=0)
    claims.at_most("c_folds", "\"The df for mean folds is very low (at most 7)\"", _SRC,
                   value=float(df5.loc["folds"].max()), bound=7, digits=0)
    zeros = int((df5.loc["runs"] == 0).sum())
    claims.exactly("c_runs", "\"The mean runs is very low ... there are a few dfs found as zeros\"", _SRC,
                   condition=bool(df5.loc["runs"].median() <= 7 and zeros > 0),
                   measured=f"median df {df5.loc['runs'].median():.0f}, {zeros} zeros",
                   rule="median df at most 7 (very low: the paper's bound for mean folds) and at least one df 0")
    claims.at_most("c_sorted_low", "\"The df for sorted runs averaged var and average T is very low\" (very low: at "
                   "most 7, the paper's bound for mean folds; median over the runs)", _SRC,
                   value=df5.loc[["sorted_runs_averaged_var", "sorted_runs_averaged_t"]].median(axis=1).values,
                   bound=7, digits=0)
    eleven = ["all", "folds_averaged_var", "folds_averaged_t", "runs_averaged_var", "runs_averaged_t", "sorted_runs"]
    claims.close_to("c_eleven", "\"The df's for 'use all data', 'folds varT', 'folds meanT', 'runs varT', "
                    "'runs meanT', "
                    "and 'sorted runs' are all constantly circa 11\" (every number of runs)", _SRC,
                    value=df5.loc[eleven].values.ravel(), published=11, se=0.0, rounding=word_rounding(11), digits=1)
    t1 = _grid(figure, "type1_error", alpha).loc[eleven].values.ravel()
    t1 = t1[~np.isnan(t1)]
    se_level = 100 * rate_se(alpha, n_datasets)
    claims.at_least("c_on_mark", "\"For those tests, the Type I error is mostly on the mark\" (on the mark: within two "
                    f"standard errors, {2 * se_level:.2f} points, below the level; mostly: more than half)", _SRC,
                    value=100 * float((t1 >= 100 * alpha - 2 * se_level).mean()), bound=50, unit="% of cells",
                    digits=0)


def plot_figure2(data):
    """Figure 2: calibrated df (left) and Type I error at that df (right) against the runs.

    ``data``: the page's data (``figure2``, the long table, and ``alpha``).
    """
    import matplotlib.pyplot as plt

    figure, alpha = data["figure2"], data["alpha"]
    colours = {"resampling": "tab:red", "corrected_resampling": "tab:orange", "kfold_cv": "tab:brown",
               "all": "black", "folds": "tab:blue", "runs": "tab:green", "sorted_runs": "tab:purple"}
    fig, axes = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")
    for t in STUDY_TESTS:
        scheme = next(s for s in ("sorted_runs", "folds", "runs", "all", "resampling", "corrected_resampling",
                                  "kfold_cv") if t.startswith(s))
        style = ":" if t in ("resampling", "corrected_resampling", "kfold_cv") else (
            "--" if t.endswith("_var") else ("-." if t.endswith("_t") else "-"))
        sel = figure[(figure["test"] == t) & np.isclose(figure["alpha"], alpha)]
        axes[0].plot(sel["n_runs"], sel["df"], style, color=colours[scheme], marker=".", label=TEST_LABELS[t])
        axes[1].plot(sel["n_runs"], sel["type1_error"], style, color=colours[scheme], marker=".")
    axes[1].axhline(100 * alpha, color="0.5", lw=0.8)
    axes[0].set_ylabel("calibrated df")
    axes[1].set_ylabel("Type I error (%)")
    for ax in axes:
        ax.set_xlabel("number of runs")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=5, fontsize=8)
    return fig
