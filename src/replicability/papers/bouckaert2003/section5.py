"""Tables 2-4 and Figure 4 of Bouckaert (2003): Type I error and power of the calibrated tests.

:func:`table2_page` measures the Type I error for six class probabilities (Section 5.1),
:func:`table3_page` re-measures the accuracies of the four Bayesian-network sources (Section
5.2), :func:`figure4_table4_page` the Type I error and power against the runs and the levels
(Sections 5.2-5.3). Each returns a :class:`~replicability.report.page.Page`
with its claims; ``plot_*`` draw its figures from the page's data, with the published
values where the paper prints numbers.

Standard errors: every rate here is a share of ``n`` independent data sets (1000 in the
paper). Table 4 averages the 10 randomizations of each data set, which are not
independent of each other, so its standard errors also count the data sets only (an
upper bound).
"""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pandas as pd

from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table
from ...report.tables import read_published
from ...report.uncertainty import paired_rate_difference_se, rate_difference_se, rate_se
from ...sources.bayesnet import load_bouckaert2003_networks
from ..shared.network_search import expected_accuracies
from ..shared.synthetic_runs import fold_differences, synthetic_fold_counts
from .compare import comparison_rows, worst_first
from .experiments import (
    LEVELS,
    NULL_DATASETS,
    SOURCE_SIZES,
    TRAIN_SETS,
    calibrated_df,
    n_jobs_for,
    section4_calibration,
    set1_calibration,
    source_counts,
    stacked_runs,
)
from .study import CALIBRATED_TESTS, TEST_LABELS, select_calibrated_df, study_outcomes

__all__ = ["figure4_table4_page", "plot_figure4", "plot_table2", "plot_table3", "plot_table4", "table2_page",
           "table3_page"]

_FIRST3 = ("resampling", "corrected_resampling", "kfold_cv")
#: "close" / "little variance" between rates, read on every page as within 5 points.
CLOSE_POINTS = 5.0


def _df_table(df):
    return pd.Series({TEST_LABELS[t]: int(v) for t, v in df.items()}, name="calibrated df (10 runs)").to_frame()


def table2_page(*, scale="paper", seed=1, calibration_seed=0, alpha=0.05,
                class_probabilities=(0.05, 0.1, 0.2, 0.3, 0.4, 0.5)):
    """Table 2: Type I error of the calibrated tests for six class probabilities (Section 5.1).

    Parameters
    ----------
    scale : {"smoke", "quick", "paper"}
        Data sets per class probability from
        :data:`~replicability.papers.bouckaert2003.experiments.NULL_DATASETS` (1000 in the paper).
    seed : int
        Root seed of the Table 2 data sets (1: fresh data, not the calibration's).
    calibration_seed : int
        Root seed of the Section 4 calibration whose 10-run df the tests use.
    alpha : float
        Level of the tests and of their calibration.
    class_probabilities : sequence of float

    Returns
    -------
    Page
        Tables ``"df"``, ``"comparison"`` (published, ours and difference per test), figure
        ``"table2"`` and the claims.

    Examples
    --------
    >>> page = table2_page()  # reads the stored paper-scale runs
    >>> page.claims.verdicts()["c_level"], page.tables["comparison"].frame.shape
    ('does not hold', (27, 6))
    """
    n_datasets = NULL_DATASETS[scale]
    tests = list(CALIBRATED_TESTS)
    df10 = calibrated_df(section4_calibration(scale=scale, seed=calibration_seed), alpha=alpha, tests=tests)
    table, gap = _table2_rates(df10, scale=scale, seed=seed, alpha=alpha, class_probabilities=class_probabilities)
    both = read_published("bouckaert2003", "table2")[["test", "class_probability", "value"]].rename(
        columns={"value": "published"}).merge(table, on=["test", "class_probability"], how="left",
                                              validate="one_to_one")
    both["difference"] = both["reproduced"] - both["published"]
    out = both[["test", "class_probability", "reproduced"]].rename(columns={"reproduced": "value"})
    out["value"] = out["value"].round(4)
    out["source"] = f"computed: replicability.papers.bouckaert2003, {n_datasets} null data sets per class probability"
    claims = _table2_claims(table, both, [t for t in tests if df10[t] > 0], alpha=alpha, n_datasets=n_datasets,
                            class_probabilities=class_probabilities)
    worst_p = float(table.groupby("class_probability")["reproduced"].mean().idxmax())
    data = {"both": both, "alpha": alpha}
    return Page(
        tables={"df": Table(_df_table(df10)),
                "comparison": Table(comparison_rows(both, index="test", columns="class_probability",
                                                    labels=TEST_LABELS, order=tests))},
        claims=claims,
        summary=comparison_summary(both["published"], both["reproduced"], claims, digits=1),
        values={"max_abs_diff": round(float(both["difference"].abs().max()), 1), "worst_p": round(worst_p, 1),
                "gap_worst_p": round(gap[worst_p][0], 2), "share_c45_worst_p": round(100 * gap[worst_p][1], 0)},
        data=data,
        reproduced={"table2": out},
        figures={"table2": partial(plot_table2, data)},
    )


def _table2_rates(df10, *, scale, seed, alpha, class_probabilities):
    """Type I error (%) per test and class probability; per probability the mean difference and C4.5's share.

    Returns the long table (every calibrated test, NaN where no df keeps the level) and
    ``{p: (100 x mean accuracy difference, share of use all data's rejections won by C4.5)}``.
    """
    tests = list(CALIBRATED_TESTS)
    usable = [t for t in tests if df10[t] > 0]
    rows, gap = [], {}
    for p in class_probabilities:
        with warnings.catch_warnings():
            # At class probability 0.05 a data set of 300 instances may hold fewer than 10
            # instances of the minority class, so stratified 10-fold cv cannot place one in
            # every fold; scikit-learn warns, Weka (the paper's tool) splits the same way silently.
            warnings.filterwarnings("ignore", message="The least populated class in y has only",
                                    category=UserWarning)
            counts = synthetic_fold_counts("null", scheme_params={"n_runs": 10, "n_folds": 10},
                                           source_params={"class_probability": p}, n_datasets=NULL_DATASETS[scale],
                                           n_repeats=1, seed=seed, scale=scale, n_jobs=n_jobs_for(scale))
        d = fold_differences(counts)[:, 0]  # (data set, run, fold)
        out = study_outcomes(d, tests=usable, alphas=[alpha], df=df10)
        rate = dict(zip(usable, 100 * (out[:, 0] != 0).mean(axis=-1)))
        rejected = out[usable.index("all"), 0]
        gap[p] = (100 * float(d.mean()), float((rejected == -1).sum() / max(1, (rejected != 0).sum())))
        rows += [{"test": t, "class_probability": p, "reproduced": rate.get(t, np.nan)} for t in tests]
    return pd.DataFrame(rows), gap


def _table2_claims(table, both, usable, *, alpha, n_datasets, class_probabilities):
    claims = Claims("bouckaert2003", "03_table2_class_probability")
    claims.close_to("c_cells", "The cells of Table 2", "Sec. 5.1, Table 2", value=both["reproduced"],
                    published=both["published"], se=rate_difference_se(both["published"], n_datasets), rounding=0.05,
                    unit="points", digits=1)
    not_t = table[~table["test"].str.endswith("averaged_t")]["reproduced"].dropna()
    claims.at_most("c_level", "\"Except for the averaged T tests, none of the tests have a Type I error exceeding "
                   "the expected level.\"", "Sec. 5.1, Table 2", value=np.sort(not_t)[::-1], bound=100 * alpha,
                   se=100 * rate_se(alpha, n_datasets), unit="%", digits=1)
    wide = table.pivot(index="test", columns="class_probability", values="reproduced").loc[usable]
    low = [p for p in class_probabilities if p <= 0.2]
    high = wide[max(class_probabilities)].to_numpy()[:, None].repeat(len(low), axis=1)
    high, lower, se = worst_first(high - wide[low].to_numpy(), high, wide[low].to_numpy(),
                                  rate_difference_se(high, n_datasets, wide[low].to_numpy(), n_datasets))
    claims.greater("c_low_p", "\"In fact, the Type I error tends to be considerably lower with the lower class "
                   f"probabilities.\" (each test at p <= 0.2 against p = {max(class_probabilities):g})",
                   "Sec. 5.1, Table 2", larger=high, smaller=lower, se=se, qualifier="considerably", unit="points",
                   digits=1)
    return claims


def plot_table2(data):
    """Type I error against the class probability: ours (colour) and published (grey, dashed)."""
    import matplotlib.pyplot as plt

    both, alpha = data["both"], data["alpha"]
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    for t in CALIBRATED_TESTS:
        sel = both[both["test"] == t].sort_values("class_probability")
        ax.plot(sel["class_probability"], sel["reproduced"], ":" if t in _FIRST3 else "-", marker="o", ms=3,
                label=TEST_LABELS[t])
        ax.plot(sel["class_probability"], sel["published"], "--", color="0.6", lw=0.8)
    ax.plot([], [], "--", color="0.6", lw=0.8, label="published (each test)")
    ax.axhline(100 * alpha, color="0.3", lw=0.8)
    ax.set_xlabel("class probability")
    ax.set_ylabel("Type I error (%)")
    ax.legend(fontsize=7, ncol=2)
    return fig


def table3_page(*, scale="paper", seed=2003, n_test=10_000):
    """Table 3: accuracy of naive Bayes and C4.5 on the four stored sources, on fresh training sets.

    Each source's models are scored on one sampled test set of ``n_test`` instances (the
    paper's procedure) and exactly, against the network's joint distribution
    (:func:`~replicability.papers.shared.network_search.expected_accuracies`).

    Returns
    -------
    Page
        Table ``"comparison"`` (published, test set, exact with its standard error,
        exact - published, z), figure ``"table3"`` and the claims.
    """
    n_train_sets = TRAIN_SETS[scale]
    published = read_published("bouckaert2003", "table3")
    table = published[["algorithm", "set", "value"]].rename(columns={"value": "published"}).merge(
        _table3_accuracies(n_train_sets=n_train_sets, seed=seed, n_test=n_test), on=["algorithm", "set"],
        validate="one_to_one")
    table["exact - published"] = table["exact"] - table["published"]
    table["z"] = np.where(table["exact_se"] > 0, table["exact - published"] / table["exact_se"].where(
        table["exact_se"] > 0), 0.0)
    reproduced = {}
    for name, column in (("table3", "test_set"), ("table3_exact", "exact")):
        out = table[["algorithm", "set", column]].rename(columns={column: "value"}).copy()
        out["value"] = out["value"].round(4)
        out["source"] = (f"computed: replicability.papers.shared.network_search.expected_accuracies, {n_train_sets} "
                         "training sets of 300, " + ("one test set of 10000 instances" if column == "test_set"
                                                     else "exact accuracy"))
        reproduced[name] = out
    claims = _table3_claims(table, published, n_test=n_test)
    pub = published.set_index(["algorithm", "set"])["value"]
    data = {"table": table}
    return Page(
        tables={"comparison": Table(*_table3_shown(table))},
        claims=claims,
        summary=comparison_summary(table["published"], table["exact"], claims),
        values={"table3_worst": round(float(table["exact - published"].abs().max()), 2),
                "table3_set3_printed": round(float(pub[("difference", 3)]), 2),
                "table3_set3_implied": round(float(pub[("c45", 3)] - pub[("naive_bayes", 3)]), 2)},
        data=data,
        reproduced=reproduced,
        figures={"table3": partial(plot_table3, data)},
    )


def _table3_accuracies(*, n_train_sets, seed, n_test):
    """Per learner (and their difference) and source: accuracy on one test set, exact, and its standard error (%)."""
    networks, _ = load_bouckaert2003_networks()
    rows = []
    for source, network in networks.items():
        res = expected_accuracies(network, n_train=300, n_train_sets=n_train_sets, n_test=n_test,
                                  rng=np.random.default_rng([seed, source]))
        sampled = {"naive_bayes": res.test_naive_bayes, "c45": res.test_c45,
                   "difference": res.test_c45 - res.test_naive_bayes}
        exact = {"naive_bayes": res.naive_bayes, "c45": res.c45, "difference": res.difference}
        se = {"naive_bayes": res.naive_bayes_se, "c45": res.c45_se, "difference": res.difference_se}
        for algorithm in ("naive_bayes", "c45", "difference"):
            rows.append({"algorithm": algorithm, "set": source, "test_set": 100 * sampled[algorithm],
                         "exact": 100 * exact[algorithm], "exact_se": 100 * se[algorithm]})
    return pd.DataFrame(rows)


def _table3_claims(table, published, *, n_test):
    claims = Claims("bouckaert2003", "04_table3_sources")
    acc = table[table["algorithm"] != "difference"]
    # The printed accuracies were measured on one test set of n_test instances: its
    # binomial error adds to the Monte Carlo error of our mean over training sets.
    se = np.sqrt(acc["exact_se"] ** 2 + (100 * rate_se(acc["published"].to_numpy() / 100, n_test)) ** 2)
    claims.close_to("c_table3", "The accuracies of naive Bayes and C4.5 on sets 1-4", "Sec. 5.2, Table 3",
                    value=acc["exact"], published=acc["published"], se=se, rounding=0.005, unit="points", digits=2)
    pub = published.set_index(["algorithm", "set"])["value"]
    implied = (pub["c45"] - pub["naive_bayes"]).round(2)
    bad = [s for s in implied.index if abs(pub[("difference", s)] - implied[s]) > 0.005]
    claims.exactly("c_difference_row", "The Difference row of Table 3 is C4.5 minus naive Bayes", "Sec. 5.2, Table 3",
                   condition=not bad, rule="printed difference = printed C4.5 - printed naive Bayes",
                   measured="; ".join(f"set {s}: printed {pub[('difference', s)]:.2f}, {pub[('c45', s)]:.2f} - "
                                      f"{pub[('naive_bayes', s)]:.2f} = {implied[s]:.2f}" for s in bad) or "all equal")
    set1 = table[(table["set"] == 1) & (table["algorithm"] != "difference")]["exact"]
    claims.exactly("c_set1_null", "Set 1 is the null source: both learners have accuracy 50.0", "Sec. 5.2, Table 3",
                   condition=bool(np.allclose(set1, 50.0, rtol=0, atol=1e-9)),
                   measured=", ".join(f"{v:.2f}" for v in set1), rule="exact accuracies equal to 50%")
    return claims


def _table3_shown(table):
    """The comparison as shown and its digits."""
    shown = table.copy()
    shown["set"] = shown["set"].astype(int)
    shown["algorithm"] = shown["algorithm"].map({"naive_bayes": "naive Bayes", "c45": "C4.5",
                                                 "difference": "difference"})
    shown = shown.round({"published": 2, "test_set": 2, "exact": 2, "exact_se": 2, "exact - published": 2, "z": 1})
    numeric = ["published", "test_set", "exact", "exact_se", "exact - published", "z"]
    shown[numeric] = shown[numeric] + 0.0  # a rounded -0.0 becomes 0.0
    return shown, {**dict.fromkeys(shown.columns, 2), "z": 1}


def plot_table3(data):
    """Published and exact accuracies per set, with two standard errors."""
    import matplotlib.pyplot as plt

    table = data["table"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
    x = np.arange(1, 5)
    for ax, algorithm, title in zip(axes, ("naive_bayes", "c45"), ("naive Bayes", "C4.5")):
        sel = table[table["algorithm"] == algorithm].sort_values("set")
        ax.bar(x - 0.19, sel["published"], 0.38, label="published", color="0.7")
        ax.bar(x + 0.19, sel["exact"], 0.38, yerr=2 * sel["exact_se"], label="reproduced (exact)", color="tab:blue")
        ax.set_xticks(x, [f"Set {s}" for s in x])
        ax.set_ylim(40, 100)
        ax.set_ylabel("accuracy (%)")
        ax.set_title(title)
    axes[0].legend(loc="upper left", fontsize=8)
    return fig


def figure4_table4_page(*, scale="paper", seed=0, alpha=0.05, alphas=LEVELS):
    """Figure 4 and Table 4: Type I error on set 1 and power on sets 2-4 of the calibrated tests.

    Parameters
    ----------
    scale : {"smoke", "quick", "paper"}
        Sizes of :data:`~replicability.papers.bouckaert2003.experiments.SOURCE_SIZES`.
    seed : int
        Root seed of the 10 x 10 cv runs on the sources (0: the stored runs shared with Tables 5 and 6).
    alpha : float
        Level of Figure 4 and of the calibration used at every level of Table 4.
    alphas : sequence of float
        Levels of Table 4.

    Returns
    -------
    Page
        Tables ``"df"`` (df calibrated on set 1), ``"comparison"`` (Table 4), ``"power"``
        (per set, one table each), figures ``"figure4"`` and ``"table4"``, and the claims.

    Examples
    --------
    >>> page = figure4_table4_page()  # reads the stored paper-scale runs
    >>> page.claims.verdicts()["c_table4_levels"], page.values["n_above_level"]
    ('inconclusive at this scale', 3)
    """
    n_datasets, n_repeats = SOURCE_SIZES[scale]
    tests = list(CALIBRATED_TESTS)
    counts = source_counts(scale=scale, seed=seed)
    d = {s: fold_differences(c) for s, c in counts.items()}  # (data set, repeat, run, fold), NB - C4.5
    calibration = set1_calibration(counts[1], scale=scale, tests=tests, alphas=list(alphas))
    calibrated = select_calibrated_df(calibration, alpha=alpha)
    figure4, rejected = _figure4_rates(d, calibrated, runs=[int(r) for r in calibration["n_runs"].values], alpha=alpha)
    rates = _table4_rates(d, calibrated_df(calibration, alpha=alpha, tests=tests), alphas=alphas)
    type1 = read_published("bouckaert2003", "table4")[["test", "alpha", "value"]].rename(
        columns={"value": "published"}).merge(
        rates[1].stack().rename("reproduced").rename_axis(["test", "alpha"]).reset_index(), on=["test", "alpha"],
        how="left", validate="one_to_one")
    type1["difference"] = type1["reproduced"] - type1["published"]
    power = pd.concat({f"Set {s}": rates[s] for s in (2, 3, 4)}, axis=1).loc[list(rates[1].index)]
    power.index = [TEST_LABELS[t] for t in rates[1].index]
    claims = Claims("bouckaert2003", "05_figure4_table4")
    drift = _figure4_claims(claims, figure4, rejected, alpha=alpha, n=n_datasets)
    _table4_claims(claims, type1, rates, alphas=list(alphas), n=n_datasets)
    df_table = calibrated["df"].to_pandas().loc[tests].astype(int)
    df_table.index = [TEST_LABELS[t] for t in tests]
    data = {"figure4": figure4, "type1": type1, "alpha": alpha}
    return Page(
        tables={"df": Table(df_table),
                "comparison": Table(comparison_rows(type1, index="test", columns="alpha", labels=TEST_LABELS,
                                                    order=tests)),
                "power": [Table(power[s].round(1), 1, caption=s) for s in ("Set 2", "Set 3", "Set 4")]},
        claims=claims,
        summary=comparison_summary(type1["published"], type1["reproduced"], claims, digits=1),
        values=_figure4_table4_values(figure4, type1, rates, drift),
        data=data,
        reproduced=_figure4_table4_reproduced(figure4, type1, power, alpha=alpha, n_datasets=n_datasets,
                                              n_repeats=n_repeats),
        figures={"figure4": partial(plot_figure4, data), "table4": partial(plot_table4, data)},
    )


def _figure4_rates(d, calibrated, *, runs, alpha):
    """Figure 4: rejection rate (%) per set, test and number of runs, with the df calibrated for those runs.

    Also returns ``{(set, test, runs): rejected per data set}``: the rates of one set come
    from the same data sets, so their differences have paired standard errors.
    """
    tests = list(CALIBRATED_TESTS)
    rows, rejected = [], {}
    for s in d:
        stacked = stacked_runs(d[s])
        for r in runs:
            dfs = {t: float(calibrated["df"].sel(test=t, n_runs=r)) for t in tests}
            usable = [t for t in tests if dfs[t] > 0]
            out = study_outcomes(stacked, tests=usable, alphas=[alpha], df=dfs, n_runs=r)
            rejects = out[:, 0] != 0
            rejected.update({(s, t, r): x for t, x in zip(usable, rejects)})
            rate = dict(zip(usable, 100 * rejects.mean(axis=-1)))
            rows += [{"set": s, "test": t, "n_runs": r, "df": dfs[t], "value": rate.get(t, np.nan)} for t in tests]
    return pd.DataFrame(rows), rejected


def _table4_rates(d, df10, *, alphas):
    """Table 4: ``{set: rejection rate (%), usable test x level}`` at 10 runs, over data sets and randomizations."""
    usable10 = [t for t in CALIBRATED_TESTS if df10[t] > 0]
    rates = {}
    for s in d:
        out = study_outcomes(d[s], tests=usable10, alphas=alphas, df=df10)  # (test, alpha, data set, repeat)
        rates[s] = pd.DataFrame(100 * (out != 0).mean(axis=(-2, -1)), index=usable10, columns=list(alphas))
    return rates


def _figure4_table4_reproduced(figure4, type1, power, *, alpha, n_datasets, n_repeats):
    fig4_out = figure4.copy()
    fig4_out["value"] = fig4_out["value"].round(4)
    fig4_out["source"] = f"computed: replicability.papers.bouckaert2003, {n_datasets} data sets, alpha {alpha}"
    t4_out = type1[["test", "alpha", "reproduced"]].rename(columns={"reproduced": "value"})
    t4_out["value"] = t4_out["value"].round(4)
    t4_out["source"] = (f"computed: replicability.papers.bouckaert2003, set 1, {n_datasets} data sets x {n_repeats} "
                        "repeats")
    long = power.stack(level=[0, 1], future_stack=True).rename("value").rename_axis(["test", "set", "alpha"])
    long = long.reset_index()
    long["test"] = long["test"].map({v: k for k, v in TEST_LABELS.items()})
    long["value"] = long["value"].round(4)
    long["source"] = f"computed: replicability.papers.bouckaert2003, {n_datasets} data sets x {n_repeats} repeats"
    return {"figure4": fig4_out, "table4": t4_out, "table4_power": long}


def _fig4_wide(figure4):
    """Figure 4 as a (set, test) x runs table."""
    return figure4.pivot_table(index=["set", "test"], columns="n_runs", values="value")


def _figure4_claims(claims, figure4, rejected, *, alpha, n):
    """The claims of Section 5.2 on Figure 4; returns the change of power from 10 runs to the most (cv tests).

    Power at two numbers of runs, or of two tests, is measured on the same data sets:
    the differences carry paired standard errors (``rejected``: per data set).
    """
    cv_tests = [t for t in CALIBRATED_TESTS if t not in _FIRST3]
    fig4 = _fig4_wide(figure4)
    set1 = fig4.loc[1].to_numpy().ravel()
    claims.at_most("c_type1_runs", "\"it comes as no surprise that the Type I error is close and below the targeted "
                   "[5%]\" (every test and number of runs)", "Sec. 5.2, Figure 4",
                   value=np.sort(set1[~np.isnan(set1)])[::-1],
                   bound=100 * alpha, se=100 * rate_se(alpha, n), unit="%", digits=1)
    flat = bool((fig4.loc[(slice(None), "kfold_cv"), :].nunique(axis=1) == 1).all())
    claims.exactly("c_kfold_flat", "\"the k-fold cv test does not vary with increasing numbers of runs\"",
                   "Sec. 5.2, Figure 4", condition=flat, measured="identical" if flat else "varies",
                   rule="identical rates over the runs on every set")
    first, last = int(fig4.columns[0]), int(fig4.columns[-1])

    def paired(cells):
        return np.array([paired_rate_difference_se(rejected[a], rejected[b]) for a, b in cells])

    gain = [((s, t, last), (s, t, first)) for s in (2, 3, 4) for t in _FIRST3[:2]]
    up = np.array([[fig4.loc[(s, t), r] for (s, t, r) in cell] for cell in gain])
    up_last, up_first, up_se = worst_first(up[:, 0] - up[:, 1], up[:, 0], up[:, 1], paired(gain))
    claims.greater("c_resampling_gain", "\"The power of resampling and corrected resampling tests increases with "
                   f"increasing the number of runs.\" ({last} against {first} runs, sets 2-4)", "Sec. 5.2, Figure 4",
                   larger=up_last, smaller=up_first, se=up_se, unit="points", digits=1)
    extremes = [((s, fig4.loc[(s, cv_tests), 10].idxmax(), 10), (s, fig4.loc[(s, cv_tests), 10].idxmin(), 10))
                for s in (2, 3, 4)]
    spread = np.array([fig4.loc[(s, t), 10] - fig4.loc[(s2, t2), 10] for (s, t, _), (s2, t2, _) in extremes])
    spread, spread_se = worst_first(-spread, spread, paired(extremes))
    claims.equivalent("c_power_close", "\"all other calibrated tests that use all data have a power that is rather "
                      f"close to the other tests\" (close: the spread at 10 runs within a margin of {CLOSE_POINTS:g} "
                      "points, fixed before looking, sets 2-4)", "Sec. 5.2, Figure 4", difference=spread,
                      se=spread_se, margin=CLOSE_POINTS, unit="points", digits=1)
    runs = [((s, t, last), (s, t, 10)) for s in (2, 3, 4) for t in cv_tests]
    drift = np.array([fig4.loc[(s, t), last] - fig4.loc[(s, t), 10] for (s, t, _), _ in runs])
    drift_se = paired(runs)
    abs_drift, abs_se = worst_first(-np.abs(drift), drift, drift_se)
    claims.equivalent("c_runs_insensitive", "\"Those tests show very little sensitivity to the number of runs\" "
                      f"(power at {last} runs minus at 10 runs within a margin of {CLOSE_POINTS:g} points, fixed "
                      "before looking, sets 2-4)", "Sec. 5.2, Figure 4", difference=abs_drift, se=abs_se,
                      margin=CLOSE_POINTS, unit="points", digits=1)
    up_drift, up_se = worst_first(-drift, drift, drift_se)
    claims.greater("c_power_decreases", "\"... though the power decreases slightly with increasing number of runs\" "
                   f"(power at 10 runs above power at {last} runs, sets 2-4)", "Sec. 5.2, Figure 4",
                   larger=np.zeros_like(up_drift), smaller=up_drift, se=up_se, qualifier="slightly", unit="points",
                   digits=1)
    return drift


def _table4_claims(claims, type1, rates, *, alphas, n):
    """The claims of Section 5.3 on Table 4 and on the power of the tests at 10 runs."""
    cv_tests = [t for t in CALIBRATED_TESTS if t not in _FIRST3]
    claims.close_to("c_table4_cells", "The Type I errors of Table 4", "Sec. 5.3, Table 4", value=type1["reproduced"],
                    published=type1["published"], se=rate_difference_se(type1["published"], n), rounding=0.05,
                    unit="points", digits=1)
    level = 100 * type1["alpha"].to_numpy()
    below, below_level = worst_first(level - type1["reproduced"].to_numpy(), type1["reproduced"], level)
    claims.at_most("c_table4_levels", "\"the Type I error is close and below the expected levels\" (below)",
                   "Sec. 5.3, Table 4", value=below, bound=below_level, se=100 * rate_se(below_level / 100, n),
                   unit="%", digits=1)
    claims.close_to("c_table4_close", "\"the Type I error is close and below the expected levels\" (close)",
                    "Sec. 5.3, Table 4", value=type1["reproduced"], published=level, se=100 * rate_se(level / 100, n),
                    rounding=0.0, unit="points", digits=1)
    gap = np.array([[rates[s].loc[[t for t in cv_tests if t in rates[s].index], a].min(),
                     rates[s].loc[list(_FIRST3), a].max()] for s in (2, 3, 4) for a in alphas])
    gap_cv, gap_first3, gap_se = worst_first(gap[:, 0] - gap[:, 1], gap[:, 0], gap[:, 1],
                                             rate_difference_se(gap[:, 0], n, gap[:, 1], n))
    claims.greater("c_gap", "\"There is a large gap between the resampled, corrected resampled and k-fold cv test on "
                   "the one hand and the other tests on the other hand.\" (every 10 x 10 cv test above each of the "
                   "three, sets 2-4, every level)", "Sec. 5.3", larger=gap_cv, smaller=gap_first3, se=gap_se,
                   qualifier="large", unit="points", digits=1)
    ranks = [rates[s][a].rank(ascending=False, method="min") for s in (2, 3, 4) for a in alphas]
    best = sum(int(r["runs_averaged_t"] == 1) for r in ranks)
    top3 = sum(int(r["runs_averaged_t"] <= 3) for r in ranks)
    top3_all = sum(int(r["all"] <= 3) for r in ranks)
    claims.exactly("c_rat_best", "\"The runs averaged T test is almost always best and always in the top 3 of the "
                   "tests listed.\"", "Sec. 5.3", condition=best >= 0.75 * len(ranks) and top3 == len(ranks),
                   measured=f"best in {best}, top 3 in {top3} of {len(ranks)} (set, level) cells",
                   rule="best in at least 3/4 of the (set, level) cells of sets 2-4, top 3 in all")
    claims.close_to("c_rat_type1_10", "\"it also has a slightly elevated Type I error at 10% significance level "
                    "(10.5%)\"", "Sec. 5.3, Table 4", value=_rat_type1_10(rates), published=10.5,
                    se=rate_difference_se(10.5, n), rounding=0.05, unit="%", digits=1)
    claims.exactly("c_all_top3", "\"The use all data test is always in the top 3 of the tests listed.\"", "Sec. 5.3",
                   condition=top3_all == len(ranks), measured=f"top 3 in {top3_all} of {len(ranks)}",
                   rule="top 3 in every (set, level) cell of sets 2-4")


def _rat_type1_10(rates):
    """Type I error of runs averaged T at the 10% level on set 1 (NaN without that level)."""
    return float(rates[1].loc["runs_averaged_t", 0.1]) if 0.1 in rates[1].columns else float("nan")


def _figure4_table4_values(figure4, type1, rates, drift):
    set1 = _fig4_wide(figure4).loc[1].to_numpy().ravel()
    level = 100 * type1["alpha"].to_numpy()
    return {"drift_min": round(float(drift.min()), 1), "drift_max": round(float(drift.max()), 1),
            "rat_type1_10": round(_rat_type1_10(rates), 1), "max_type1": round(float(np.nanmax(set1)), 1),
            "n_above_level": int((type1["reproduced"] > level).sum()),
            "max_above_level": round(float(np.max(type1["reproduced"] - level)), 1)}


def plot_figure4(data):
    """Figure 4: Type I error on set 1 and power on sets 2-4 against the runs (the paper prints no numbers)."""
    import matplotlib.pyplot as plt

    figure4, alpha = data["figure4"], data["alpha"]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.8), layout="constrained")
    markers = dict(zip(CALIBRATED_TESTS, "osD^v<>ph"))
    titles = {1: "Type I error on Set 1", 2: "Power on Set 2", 3: "Power on Set 3", 4: "Power on Set 4"}
    for ax, s in zip(axes.ravel(), (1, 2, 3, 4)):
        for t in CALIBRATED_TESTS:
            sel = figure4[(figure4["set"] == s) & (figure4["test"] == t)]
            ax.plot(sel["n_runs"], sel["value"], ":" if t in _FIRST3 else "-", marker=markers[t], ms=4,
                    label=TEST_LABELS[t])
        if s == 1:
            ax.axhline(100 * alpha, color="0.5", ls="--", lw=1)
        ax.set_title(titles[s])
        ax.set_xlabel("number of runs")
        ax.set_ylabel("%")
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center", ncol=5, fontsize=8)
    return fig


def plot_table4(data):
    """Table 4: Type I error on set 1 against the level, ours (colour) and published (grey, dashed)."""
    import matplotlib.pyplot as plt

    type1 = data["type1"]
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    for t in CALIBRATED_TESTS:
        sel = type1[type1["test"] == t].sort_values("alpha")
        ax.plot(100 * sel["alpha"], sel["reproduced"] - 100 * sel["alpha"], ":" if t in _FIRST3 else "-",
                marker="o", ms=3, label=TEST_LABELS[t])
        ax.plot(100 * sel["alpha"], sel["published"] - 100 * sel["alpha"], "--", color="0.6", lw=0.8)
    ax.plot([], [], "--", color="0.6", lw=0.8, label="published (each test)")
    ax.axhline(0, color="0.3", lw=0.8)
    ax.set_xlabel("significance level (%)")
    ax.set_ylabel("Type I error minus level (points)")
    ax.legend(fontsize=7, ncol=2)
    return fig
