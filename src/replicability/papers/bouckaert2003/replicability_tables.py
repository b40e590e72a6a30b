"""Tables 5-7 of Bouckaert (2003): replicability of the calibrated tests, and other pairs of learners.

:func:`tables5_6_page` counts, per source and level, the share of data sets on which ten
randomizations of the splits give the same outcome (Section 5.4), with the pairwise
replicability of Bouckaert (2004) beside it; :func:`table7_page` measures the Type I error of
the calibrated 10 x 10 cv tests for other pairs of learners on set 1 (Section 5.5). Each
returns a :class:`~replicability.report.page.Page` with its claims.

Standard errors: a replicability or a Type I error is a share of ``n`` independent data
sets (:func:`~replicability.report.uncertainty.rate_se`); the difference of two tests' Type I
errors on the same data sets has the paired standard error
``sqrt((b + c - (b - c)^2) / n)``, with ``b`` and ``c`` the shares of data sets on
which only one of the two rejects.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_choice
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table
from ...report.tables import read_published
from ...report.uncertainty import paired_rate_difference_se, rate_difference_se, rate_se
from ...stats.decisions import decide
from ...stats.ttests import dietterich_5x2cv_ttest
from ..shared.synthetic_runs import fold_differences, synthetic_fold_counts
from .compare import comparison_rows, worst_first
from .experiments import (
    LEVELS,
    PAIR_DATASETS,
    SOURCE_SIZES,
    calibrated_df,
    n_jobs_for,
    section4_calibration,
    set1_calibration,
    source_counts,
)
from .study import (
    CALIBRATED_TESTS,
    TEST_LABELS,
    rejection_counts,
    replicability_summary,
    select_calibrated_df,
    study_outcomes,
)
from .weka_oracle import TABLE7_SETUPS

__all__ = ["plot_table7", "plot_tables5_6", "table7_page", "tables5_6_page"]

_FIRST3 = ("resampling", "corrected_resampling", "kfold_cv")
_LABELS = {**TEST_LABELS, "5x2cv": "5 x 2 cv"}
#: "little variance" / "no major impact": within 5 points; "considerably affected": at least twice that.
CLOSE_POINTS = 5.0
FAR_POINTS = 10.0


def tables5_6_page(*, scale="paper", seed=0, alpha=0.05, alphas=LEVELS):
    """Tables 5 and 6: replicability per source at ``alpha`` and its minimum over sources per level.

    Parameters
    ----------
    scale : {"smoke", "quick", "paper"}
        Sizes of :data:`~replicability.papers.bouckaert2003.experiments.SOURCE_SIZES`.
    seed : int
        Root seed of the runs (0: the stored 10 x 10 cv and 5 x 2 cv runs).
    alpha : float
        Level of Table 5 and of the calibration (10 runs, on set 1).
    alphas : sequence of float
        Levels of Table 6.

    Returns
    -------
    Page
        Tables ``"df"``, ``"table5"``, ``"table6"`` (published, ours and difference), ``"r2_5"``,
        ``"r2_6"``, figure ``"tables5_6"`` and the claims.

    Examples
    --------
    >>> page = tables5_6_page()  # reads the stored paper-scale runs
    >>> page.claims.verdicts()["c_5x2"], page.tables["table5"].frame.shape
    ('holds', (30, 5))
    """
    n_datasets, n_repeats = SOURCE_SIZES[scale]
    tests = list(CALIBRATED_TESTS)
    counts = source_counts(scale=scale, seed=seed)
    calibration = set1_calibration(counts[1], scale=scale, tests=tests, alphas=list(alphas))
    df10 = calibrated_df(calibration, alpha=alpha, tests=tests)
    usable = [t for t in tests if df10[t] > 0]
    measures = _replicability_measures(counts, source_counts(scale=scale, seed=seed, scheme="5x2"), df10,
                                       alphas=alphas)
    order = tests[:3] + ["5x2cv"] + tests[3:]
    at = measures[np.isclose(measures["alpha"], alpha)]
    table5, rep5, both5 = _table5(at)
    both6 = _table6(measures)
    claims = Claims("bouckaert2003", "06_tables5_6_replicability")
    _cells_and_gap_claims(claims, table5, both5, both6, usable, n=n_datasets)
    _level_and_set_claims(claims, table5, both6, usable, n=n_datasets)
    both = pd.concat([both5, both6.rename(columns={"alpha": "column"})])
    data = {"at": at, "both6": both6, "order": order}
    return Page(
        tables={"df": pd.Series({TEST_LABELS[t]: int(v) for t, v in df10.items()},
                                name="calibrated df (10 runs)").to_frame(),
                "table5": Table(comparison_rows(both5, index="test", columns="column", labels=_LABELS, order=order)),
                "table6": Table(comparison_rows(both6, index="test", columns="alpha", labels=_LABELS, order=tests)),
                **_r2_tables(measures, at, order)},
        claims=claims,
        summary=comparison_summary(both["published"], both["reproduced"], claims, digits=1),
        values={"max_abs_diff5": round(float(both5["difference"].abs().max()), 1),
                "max_abs_diff6": round(float(both6["difference"].abs().max()), 1)},
        data=data,
        reproduced=_tables5_6_reproduced(measures, rep5, both6, n_datasets=n_datasets, n_repeats=n_repeats),
        figures={"tables5_6": partial(plot_tables5_6, data)},
    )


def _replicability_measures(counts, counts_5x2, df10, *, alphas):
    """Consistency and R2 (%, with its standard error) per test, source and level; 5 x 2 cv as test ``"5x2cv"``."""
    usable = [t for t in CALIBRATED_TESTS if df10[t] > 0]
    rows = []
    for s in counts:
        outcomes = study_outcomes(fold_differences(counts[s]), tests=usable, alphas=alphas, df=df10)
        result_5x2 = dietterich_5x2cv_ttest(fold_differences(counts_5x2[s]))  # (data set, repeat)
        outcomes_5x2 = np.stack([decide(result_5x2, alpha=a) for a in alphas])[None]
        for names, out in ((usable, outcomes), (["5x2cv"], outcomes_5x2)):
            summary = replicability_summary(out)
            for i, t in enumerate(names):
                for j, a in enumerate(alphas):
                    rows.append({"test": t, "set": s, "alpha": a, "consistency": 100 * summary["consistency"][i, j],
                                 "r2": 100 * summary["r2"][i, j], "r2_se": 100 * summary["r2_se"][i, j]})
    return pd.DataFrame(rows)


def _table5(at):
    """Table 5 (test x set, with the minimum over sets), the same long, and the printed cells beside ours."""
    table5 = at.pivot(index="test", columns="set", values="consistency")
    table5.columns = [f"set{s}" for s in table5.columns]
    table5["min"] = table5.min(axis=1)
    rep5 = table5.stack().rename("reproduced").rename_axis(["test", "column"]).reset_index()
    both5 = read_published("bouckaert2003", "table5")[["test", "column", "value"]].rename(
        columns={"value": "published"}).merge(rep5, on=["test", "column"], how="left", validate="one_to_one")
    both5["difference"] = both5["reproduced"] - both5["published"]
    return table5, rep5, both5


def _table6(measures):
    """Table 6 (minimum over sets per test and level), printed beside ours (long)."""
    table6 = measures.groupby(["test", "alpha"])["consistency"].min().rename("reproduced").reset_index()
    both6 = read_published("bouckaert2003", "table6")[["test", "alpha", "value"]].rename(
        columns={"value": "published"}).merge(table6, on=["test", "alpha"], how="left", validate="one_to_one")
    both6["difference"] = both6["reproduced"] - both6["published"]
    return both6


def _r2_tables(measures, at, order):
    """R2 +- its standard error at ``alpha`` per set (``"r2_5"``) and at its worst set per level (``"r2_6"``)."""
    cell = lambda f: f["r2"].round(1).astype(str) + " ± " + f["r2_se"].round(1).astype(str)  # noqa: E731
    r2_5 = at.assign(cell=cell(at)).pivot(index="test", columns="set", values="cell").loc[order]
    r2_5.columns = [f"set{s}" for s in r2_5.columns]
    worst = measures.loc[measures.groupby(["test", "alpha"])["r2"].idxmin()]
    r2_6 = worst.assign(cell=cell(worst)).pivot(index="test", columns="alpha", values="cell").loc[order]
    r2_5.index = r2_6.index = [_LABELS[t] for t in order]
    return {"r2_5": Table(r2_5, 2, caption="R2 at alpha, per set"),
            "r2_6": Table(r2_6, 2, caption="R2, minimum over sets, per level")}


def _tables5_6_reproduced(measures, rep5, both6, *, n_datasets, n_repeats):
    source = f"computed: replicability.papers.bouckaert2003, {n_datasets} data sets x {n_repeats} randomizations"
    out5 = rep5.rename(columns={"reproduced": "value"})
    out5["value"] = out5["value"].round(4)
    out5["source"] = source
    out6 = both6[["test", "alpha", "reproduced"]].rename(columns={"reproduced": "value"})
    out6["value"] = out6["value"].round(4)
    out6["source"] = source
    out_r2 = measures.round(4)
    out_r2["source"] = source
    return {"table5": out5, "table6": out6, "tables5_6_r2": out_r2}


def _cells_and_gap_claims(claims, table5, both5, both6, usable, *, n):
    """The cells of Tables 5 and 6 and the claims on the last column of Table 5."""
    first3 = list(_FIRST3)
    cv_tests = [t for t in usable if t not in first3]
    min5 = table5["min"]
    claims.close_to("c_cells5", "The cells of Table 5", "Sec. 5.4, Table 5", value=both5["reproduced"],
                    published=both5["published"], se=rate_difference_se(both5["published"], n), rounding=0.05,
                    unit="points", digits=1)
    claims.close_to("c_cells6", "The cells of Table 6", "Sec. 5.4, Table 6", value=both6["reproduced"],
                    published=both6["published"], se=rate_difference_se(both6["published"], n), rounding=0.05,
                    unit="points", digits=1)
    lo, hi = float(min5[cv_tests].min()), float(min5[first3].max())
    claims.greater("c_gap", "\"there is a big difference between the first three tests and the rest. The tests using "
                   "all data from the 10x10 folds show better replicability overall.\" (the smallest minimum of the "
                   "10 x 10 cv tests against the largest of the first three)", "Sec. 5.4, Table 5", larger=lo,
                   smaller=hi, se=rate_difference_se(lo, n, hi, n), unit="points", digits=1)
    rivals = min5[[t for t in min5.index if t != "all"]].to_numpy()
    best, rivals, best_se = worst_first(min5["all"] - rivals, min5["all"], rivals, rate_difference_se(min5["all"], n,
                                                                                                      rivals, n))
    claims.greater("c_all_best", "\"Judging from the last column of Table 5, use all data has highest replicability "
                   "overall.\" (use all data against each other test)", "Sec. 5.4, Table 5",
                   larger=best, smaller=rivals, se=best_se, unit="points", digits=1)
    claims.at_most("c_close", "\"There is little variance between the replicability of the tests that use all data "
                   f"from the 10x10 folds.\" (little: a spread of their minimum of at most {CLOSE_POINTS:g} points)",
                   "Sec. 5.4, Table 5", value=float(min5[cv_tests].max() - min5[cv_tests].min()), bound=CLOSE_POINTS,
                   se=rate_difference_se(min5[cv_tests].max(), n, min5[cv_tests].min(), n), unit="points", digits=1)


def _level_and_set_claims(claims, table5, both6, usable, *, n):
    """The claims on the levels (Table 6) and on the set where each test is least replicable (Table 5)."""
    first3 = list(_FIRST3)
    cv_tests = [t for t in usable if t not in first3]
    t6 = both6.pivot(index="test", columns="alpha", values="reproduced")
    hi6, lo6 = t6.max(axis=1), t6.min(axis=1)
    ranges = {group: worst_first(-(hi6 - lo6)[list(group)].to_numpy() * sign, (hi6 - lo6)[list(group)].to_numpy(),
                                 rate_difference_se(hi6[list(group)].to_numpy(), n, lo6[list(group)].to_numpy(), n))
              for group, sign in ((tuple(cv_tests), 1), (tuple(first3), -1))}
    claims.at_most("c_levels", "\"the significance level does not have a major impact on the replicability of tests "
                   f"that use all data of the 10x10 folds\" (range over the levels at most {CLOSE_POINTS:g} points)",
                   "Sec. 5.4, Table 6", value=ranges[tuple(cv_tests)][0], bound=CLOSE_POINTS,
                   se=ranges[tuple(cv_tests)][1], unit="points", digits=1)
    claims.at_least("c_levels_first3", "\"... while the first three tests are considerably affected\" (range over "
                    f"the levels at least {FAR_POINTS:g} points, twice the reading of 'no major impact')",
                    "Sec. 5.4, Table 6", value=ranges[tuple(first3)][0], bound=FAR_POINTS,
                    se=ranges[tuple(first3)][1], unit="points", digits=1)
    low_set4, lowest = table5["set4"].idxmin(), table5["min"].idxmin()
    claims.exactly("c_5x2", "\"The 5x2 cv test has a particular low replicability, which appears clearly for set "
                   "4.\"", "Sec. 5.4, Table 5", condition=bool(low_set4 == "5x2cv" and lowest == "5x2cv"),
                   measured=f"lowest on set 4: {_LABELS[low_set4]}; lowest minimum: {_LABELS[lowest]}",
                   rule="5 x 2 cv has the lowest set-4 value and the lowest minimum of all tests")
    sets = ["set1", "set2", "set3", "set4"]
    named = [(t, "set3") for t in cv_tests] + [("5x2cv", "set4")]
    own = np.array([table5.loc[t, s] for t, s in named])
    rest = np.array([table5.loc[t, [x for x in sets if x != s]].min() for t, s in named])
    rest, own, own_se = worst_first(rest - own, rest, own, rate_difference_se(rest, n, own, n))
    claims.greater("c_worst_sets", "\"The conservative nature of the test makes set 4 the set on which the outcome is "
                   "not always clear (unlike the more powerful tests where set 3 has this role).\" (the named set "
                   "lowest: set 3 for every 10 x 10 cv test, set 4 for 5 x 2 cv)", "Sec. 5.4, Table 5",
                   larger=rest, smaller=own, se=own_se, unit="points", digits=1)


def plot_tables5_6(data):
    """Left: Table 5 per source, ours; right: Table 6, ours (colour) and published (grey, dashed).

    ``data``: the page's data (``at``, the measures at the level; ``both6``; ``order``, of the tests).
    """
    import matplotlib.pyplot as plt

    at, both6, order = data["at"], data["both6"], data["order"]
    published5 = read_published("bouckaert2003", "table5")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    for t in order:
        sel = at[at["test"] == t].sort_values("set")
        line, = axes[0].plot(sel["set"], sel["consistency"], "s:" if t in _FIRST3 or t == "5x2cv" else "o-",
                             label=_LABELS[t])
        pub = published5[(published5["test"] == t) & (published5["column"] != "min")]
        axes[0].plot(pub["column"].str[-1].astype(int), pub["value"], "--", color="0.6", lw=0.8)
    axes[0].plot([], [], "--", color="0.6", lw=0.8, label="published")
    axes[0].set_xticks([1, 2, 3, 4], [f"Set {s}" for s in (1, 2, 3, 4)])
    axes[0].set_ylabel("replicability (%)")
    axes[0].set_title(f"Table 5 (level {100 * at['alpha'].iloc[0]:g}%)")
    axes[0].legend(fontsize=7, ncol=2)
    for t in CALIBRATED_TESTS:
        sel = both6[both6["test"] == t].sort_values("alpha")
        axes[1].plot(sel["alpha"] * 100, sel["reproduced"], "s:" if t in _FIRST3 else "o-", label=TEST_LABELS[t])
        axes[1].plot(sel["alpha"] * 100, sel["published"], "--", color="0.6", lw=0.8)
    axes[1].set_xlabel("significance level (%)")
    axes[1].set_ylabel("minimum replicability (%)")
    axes[1].set_title("Table 6: ours (colour), published (grey)")
    return fig


_SHORT = {"c45": "C4.5", "naive_bayes": "nb", "ib1": "nn", "tan": "tan", "voted_perceptron": "voted perceptron"}


def table7_page(*, scale="paper", seed=0, calibration_seed=0, alpha=0.05,
                learners=("c45", "naive_bayes", "ib1", "tan", "voted_perceptron"), train_order="experimenter"):
    """Table 7: Type I error on set 1 of the calibrated 10 x 10 cv tests for every pair of ``learners``.

    Parameters
    ----------
    scale : {"smoke", "quick", "paper"}
        Data sets per pair from :data:`~replicability.papers.bouckaert2003.experiments.PAIR_DATASETS`.
    seed : int
        Root seed of the set-1 runs.
    calibration_seed : int
        Root seed of the Section 4 calibration whose 10-run df the tests use.
    alpha : float
    learners : sequence of str
        Runner learner names, in the order of the paper's columns.
    train_order : {"experimenter", "sorted"}
        ``"experimenter"`` (the paper's set-up): each training set shuffled as Weka's
        Experimenter hands it to a learner (``Instances.trainCV``), and the voted
        perceptron shuffling as Weka's does; ``"sorted"``: training rows ascending and
        the voted perceptron's NumPy shuffle (the book's first reproduction). IB1 keeps
        the first of equally near neighbours, so its predictions depend on the order
        (:mod:`~replicability.papers.bouckaert2003.weka_oracle`).

    Returns
    -------
    Page
        Tables ``"df"``, ``"comparison"`` (use all data: published, ours, difference per pair),
        ``"per_test"``, figure ``"table7"`` and the claims.

    Examples
    --------
    >>> page = table7_page()  # reads the stored paper-scale runs
    >>> page.claims.verdicts()["c_acceptable"], len(page.tables["comparison"].frame)
    ('inconclusive at this scale', 10)
    """
    n_datasets = PAIR_DATASETS[scale]
    check_choice(train_order, "train_order", tuple(TABLE7_SETUPS))
    cv_tests = list(CALIBRATED_TESTS[3:])
    df10 = calibrated_df(section4_calibration(scale=scale, seed=calibration_seed), alpha=alpha, tests=cv_tests)
    usable = [t for t in cv_tests if df10[t] > 0]
    rates, per_pair = _pair_rates(list(learners), df10, scale=scale, seed=seed, alpha=alpha, train_order=train_order)
    rates["pair"] = rates["learner_a"].map(_SHORT) + " vs " + rates["learner_b"].map(_SHORT)
    both = read_published("bouckaert2003", "table7")[["learner_a", "learner_b", "value"]].rename(
        columns={"value": "published"}).merge(rates[rates["test"] == "all"][["learner_a", "learner_b", "reproduced"]],
                                              on=["learner_a", "learner_b"], how="left", validate="one_to_one")
    both["difference"] = both["reproduced"] - both["published"]
    out = both[["learner_a", "learner_b", "reproduced"]].rename(columns={"reproduced": "value"})
    out["value"] = out["value"].round(4)
    out["source"] = (f"computed: replicability.papers.bouckaert2003, set 1, {n_datasets} data sets, "
                     f"training order {train_order}")
    claims = _table7_claims(both, rates, alpha=alpha, n_datasets=n_datasets)
    data = {"both": both, "alpha": alpha}
    return Page(
        tables={"df": pd.Series({TEST_LABELS[t]: int(v) for t, v in df10.items()},
                                name="calibrated df (10 runs)").to_frame(),
                **_table7_tables(both, rates, usable)},
        claims=claims,
        summary=comparison_summary(both["published"], both["reproduced"], claims, digits=1),
        values={"max_abs_diff": round(float(both["difference"].abs().max()), 1), **_per_pair_values(per_pair),
                "nn_pairs": ", ".join(f"{v:.1f}" for v in both.loc[(both[["learner_a", "learner_b"]] == "ib1").any(
                    axis=1), "reproduced"])},
        data=data,
        reproduced={"table7": out},
        figures={"table7": partial(plot_table7, data)},
    )


def _table7_tables(both, rates, usable):
    """Use all data per pair (published, ours, difference) and every usable test per pair."""
    shown = both.assign(pair=both["learner_a"].map(_SHORT) + " vs " + both["learner_b"].map(_SHORT)).set_index("pair")
    shown = shown[["published", "reproduced", "difference"]].round(1) + 0.0
    per_test = rates.pivot(index="pair", columns="test", values="reproduced")[usable].round(1)
    per_test.columns = [TEST_LABELS[t] for t in usable]
    return {"comparison": Table(shown, 1), "per_test": Table(per_test, 1)}


def _per_pair_values(per_pair):
    """The range of use all data's df calibrated per pair, and its worst Type I error at the recommended df = 10."""
    low, high, worst = (per_pair.index[f(per_pair[c])] for f, c in ((np.argmin, "df"), (np.argmax, "df"),
                                                                    (np.argmax, "type1_df10")))
    return {"pair_df_min": int(per_pair.loc[low, "df"]), "pair_df_min_pair": low,
            "pair_df_max": int(per_pair.loc[high, "df"]), "pair_df_max_pair": high,
            "pair_df10_worst": round(float(per_pair.loc[worst, "type1_df10"]), 1), "pair_df10_worst_pair": worst}


def _pair_rates(learners, df10, *, scale, seed, alpha, train_order):
    """Type I error (%) of every usable test per pair of learners, with its paired standard error against use all data.

    The difference of two tests' Type I errors on the same data sets has the paired
    standard error (:func:`~replicability.report.uncertainty.paired_rate_difference_se`).
    Also, per pair (index "a vs b"), use all data's df calibrated on the pair's own null
    data (10 runs) and its Type I error (%) at the recommended df = 10.
    """
    n_datasets = PAIR_DATASETS[scale]
    scheme_params, options = TABLE7_SETUPS[train_order]
    usable = [t for t in CALIBRATED_TESTS[3:] if df10[t] > 0]
    rows, per_pair = [], {}
    for i, b in enumerate(learners):
        for a in learners[i + 1:]:
            counts = synthetic_fold_counts("source1", learners=(a, b), scheme_params=scheme_params,
                                           learner_params=(options.get(a, {}), options.get(b, {})),
                                           n_datasets=n_datasets, n_repeats=1, seed=seed, scale=scale,
                                           n_jobs=n_jobs_for(scale))
            d = fold_differences(counts)[:, 0]
            out = study_outcomes(d, tests=usable, alphas=[alpha], df=df10)
            own = rejection_counts(d, tests=["all"], n_runs=[d.shape[1]], df_values=range(2, 101), alphas=[alpha])
            per_pair[f"{_SHORT[a]} vs {_SHORT[b]}"] = {
                "df": int(select_calibrated_df(own, alpha=alpha)["df"].sel(test="all").item()),
                "type1_df10": 100 * float(own["rejections"].sel(test="all", df=10).item()) / int(own["n_datasets"])}
            rejected = out[:, 0] != 0  # (test, data set)
            paired = paired_rate_difference_se(rejected, np.broadcast_to(rejected[usable.index("all")],
                                                                         rejected.shape))
            for t, r, se in zip(usable, rejected, paired):
                rows.append({"learner_a": a, "learner_b": b, "test": t, "reproduced": 100 * float(r.mean()),
                             "paired_se": float(se)})
    return pd.DataFrame(rows), pd.DataFrame.from_dict(per_pair, orient="index")


def _table7_claims(both, rates, *, alpha, n_datasets):
    claims = Claims("bouckaert2003", "07_table7_learner_pairs")
    claims.close_to("c_cells", "The cells of Table 7", "Sec. 5.5, Table 7", value=both["reproduced"],
                    published=both["published"], se=rate_difference_se(both["published"], n_datasets), rounding=0.05,
                    unit="points", digits=1)
    claims.at_most("c_acceptable", "\"Overall, the Type 1 errors are acceptable\" (acceptable: at most the level)",
                   "Sec. 5.5, Table 7", value=np.sort(both["reproduced"].to_numpy())[::-1], bound=100 * alpha,
                   se=100 * rate_se(alpha, n_datasets), unit="%", digits=1)
    base = rates[rates["test"] == "all"].set_index("pair")["reproduced"]
    others = rates[rates["test"] != "all"]
    gaps = np.abs(others["reproduced"].to_numpy() - base.loc[others["pair"]].to_numpy())
    gaps, gaps_se = worst_first(-gaps, gaps, others["paired_se"].to_numpy())
    claims.at_most("c_representative", "\"these tests have a Type 1 error that differs less than 1% in absolute value "
                   "from that in Table 7\"", "Sec. 5.5", value=gaps, bound=1.0, se=gaps_se, unit="points", digits=1)
    return claims


def plot_table7(data):
    """Use all data per pair: published (grey) and ours (blue), with the level (``data``: the page's data)."""
    import matplotlib.pyplot as plt

    both, alpha = data["both"], data["alpha"]
    fig, ax = plt.subplots(figsize=(8, 3.5), layout="constrained")
    x = np.arange(len(both))
    ax.bar(x - 0.2, both["published"], 0.4, color="0.7", label="published")
    ax.bar(x + 0.2, both["reproduced"], 0.4, color="tab:blue", label="reproduced")
    ax.axhline(100 * alpha, color="0.3", lw=0.8)
    labels = [f"{_SHORT[a]}\nvs {_SHORT[b]}".replace("voted perceptron", "voted\nperceptron")  # fit the width
              for a, b in zip(both["learner_a"], both["learner_b"])]
    ax.set_xticks(x, labels, fontsize=7)
    ax.set_ylabel("Type I error (%)")
    ax.legend(fontsize=8)
    return fig
