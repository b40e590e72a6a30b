"""The reference pages on the tests' and learners' conventions: degenerate inputs, agreement with Weka.

* ``reference/01_degenerate_cases`` -> :func:`degenerate_cases_page` (:func:`degenerate_cases`);
* ``reference/02_weka_agreement`` -> :func:`weka_agreement_page` (:func:`weka_agreement`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ... import stats as st
from ...engine.store import data_dir
from ...learners import C45, NaiveBayes
from ...report.claims import Claims
from ...report.page import Page
from ._frames import AsPandas

__all__ = ["degenerate_cases", "degenerate_cases_page", "weka_agreement", "weka_agreement_page"]


def degenerate_cases(alpha=0.05):
    """What every test returns on degenerate input (all differences zero, a constant, no discordant pairs).

    Parameters
    ----------
    alpha : float
        Significance level of the decision column.

    Returns
    -------
    pandas.DataFrame
        One row per test and input: statistic, p-value (6 decimals) and the outcome of
        :func:`~replicability.stats.decisions.decide`.

    Examples
    --------
    >>> table = degenerate_cases()
    >>> row = table.iloc[0]
    >>> row["test"], float(row["p-value"]), row["outcome"]
    ('paired t-test', 1.0, 'NO_DIFFERENCE')
    """
    zeros, constant = np.zeros(10), np.full(10, 0.02)
    zeros_rk, constant_rk = np.zeros((10, 10)), np.full((10, 10), 0.02)
    cases = [
        ("paired t-test", "10 zero differences", lambda: st.paired_ttest(zeros)),
        ("paired t-test", "10 differences of +0.02", lambda: st.paired_ttest(constant)),
        ("paired t-test", "10 differences of -0.02", lambda: st.paired_ttest(-constant)),
        ("corrected resampled t-test", "10 zero differences",
         lambda: st.corrected_resampled_ttest(zeros, n_train=9, n_test=1)),
        ("corrected resampled t-test", "10 differences of +0.02",
         lambda: st.corrected_resampled_ttest(constant, n_train=9, n_test=1)),
        ("corrected repeated cv t-test", "10 x 10 zero differences",
         lambda: st.corrected_repeated_cv_ttest(zeros_rk, n_train=270, n_test=30)),
        ("corrected repeated cv t-test", "10 x 10 differences of +0.02",
         lambda: st.corrected_repeated_cv_ttest(constant_rk, n_train=270, n_test=30)),
        ("calibrated 'use all data' (df = 10)", "10 x 10 differences of +0.02",
         lambda: st.scheme_ttest(constant_rk, scheme="all", df=10)),
        ("sorted runs, averaged T", "10 x 10 zero differences",
         lambda: st.scheme_ttest(zeros_rk, scheme="sorted_runs", variant="averaged_t")),
        ("Dietterich 5x2cv t-test", "5 x 2 zero differences", lambda: st.dietterich_5x2cv_ttest(np.zeros((5, 2)))),
        ("Alpaydin 5x2cv F-test", "5 x 2 zero differences", lambda: st.alpaydin_5x2cv_ftest(np.zeros((5, 2)))),
        ("sign test", "10 zero differences", lambda: st.sign_test(zeros)),
        ("sign test", "10 differences of +0.02", lambda: st.sign_test(constant)),
        ("signed-rank test", "10 zero differences", lambda: st.signed_rank_test(zeros)),
        ("McNemar (chi-square)", "b = c = 0", lambda: st.mcnemar_test(0, 0)),
        ("McNemar (exact)", "b = c = 0", lambda: st.mcnemar_test(0, 0, method="exact")),
        ("difference of proportions", "both accuracies 1", lambda: st.proportions_ztest(1.0, 1.0, n_test=100)),
        ("Cochran's Q", "every classifier right on every instance",
         lambda: st.cochran_q_test(np.ones((20, 3), dtype=int))),
        ("Looney's F", "every classifier right on every instance",
         lambda: st.looney_ftest(np.ones((20, 3), dtype=int))),
    ]
    # Alpaydin's F, Cochran's Q and Looney's F have no sign: decide needs the direction,
    # here the mean difference (zero in every case above).
    direction = {"Alpaydin 5x2cv F-test": 0.0, "Cochran's Q": 0.0, "Looney's F": 0.0}
    rows = []
    for test, data, run in cases:
        result = run()
        rows.append({"test": test, "input": data, "statistic": float(result.statistic),
                     "p-value": round(float(result.pvalue), 6),
                     "outcome": st.Outcome(st.decide(result, alpha=alpha, statistic=direction.get(test))).name})
    return pd.DataFrame(rows)


def weka_agreement(folder):
    """Agreement of :class:`~replicability.NaiveBayes` and :class:`~replicability.C45` with Weka 3.6.14.

    Our learners are trained on the folds of the committed fixtures (10-fold cv of
    data sets of 300 instances with binary attributes) and their predictions compared
    instance by instance with Weka's; each J48 tree's size and number of leaves are
    compared with Weka's tree on the same fold.

    Parameters
    ----------
    folder : path-like
        Folder holding ``data.csv``, ``predictions.csv`` and ``j48_trees.csv``
        (``tests/fixtures/weka_nominal``).

    Returns
    -------
    agreement : pandas.DataFrame
        Per data set: classes, test instances, agreement (%) of each learner.
    trees : pandas.DataFrame
        Per data set: folds whose tree has Weka's size, and Weka's number of leaves.

    Examples
    --------
    >>> from replicability.engine import data_dir
    >>> agreement, trees = weka_agreement(data_dir().parent / "tests" / "fixtures" / "weka_nominal")
    >>> bool(agreement["C4.5 agreement (%)"].min() >= 99), int(trees["folds"].sum())
    (True, 50)
    """
    folder = Path(folder)
    data = pd.read_csv(folder / "data.csv")
    weka = pd.read_csv(folder / "predictions.csv")
    weka_trees = pd.read_csv(folder / "j48_trees.csv")
    attributes = [c for c in data.columns if c.startswith("a")]
    rows, tree_rows = [], []
    for name, frame in data.groupby("dataset", sort=False):
        frame = frame.sort_values("row")
        X, y, folds = frame[attributes].to_numpy(), frame["cls"].to_numpy(), frame["fold"].to_numpy()
        n_classes = int(y.max()) + 1
        expected = weka[weka["dataset"] == name].sort_values("row")
        ours = {"nb": np.empty(len(y), int), "j48": np.empty(len(y), int)}
        for fold in np.unique(folds):
            train, test = folds != fold, folds == fold
            nb = NaiveBayes(n_values=2, n_classes=n_classes).fit(X[train], y[train])
            tree = C45(n_values=2, n_classes=n_classes).fit(X[train], y[train])
            ours["nb"][test] = nb.predict(X[test])
            ours["j48"][test] = tree.predict(X[test])
            weka_tree = weka_trees[(weka_trees["dataset"] == name) & (weka_trees["fold"] == fold)].iloc[0]
            tree_rows.append({"data set": name, "same size": tree.n_nodes_ == weka_tree.n_nodes,
                              "same leaves": tree.n_leaves_ == weka_tree.n_leaves})
        rows.append({
            "data set": name, "classes": n_classes, "test instances": len(y),
            "naive Bayes agreement (%)": round(100 * np.mean(ours["nb"] == expected["nb"].to_numpy()), 2),
            "C4.5 agreement (%)": round(100 * np.mean(ours["j48"] == expected["j48"].to_numpy()), 2),
        })
    trees = pd.DataFrame(tree_rows).groupby("data set", sort=False)[["same size", "same leaves"]].sum()
    trees.columns = ["folds with Weka's tree size", "folds with Weka's number of leaves"]
    trees["folds"] = pd.DataFrame(tree_rows).groupby("data set", sort=False).size()
    return pd.DataFrame(rows), trees


def degenerate_cases_page(alpha=0.05):
    """The page ``reference/01_degenerate_cases``: table ``cases`` (:func:`degenerate_cases`), as pandas shows it.

    Examples
    --------
    >>> page = degenerate_cases_page()
    >>> page.show("cases").frame.equals(degenerate_cases())
    True
    """
    return Page(Claims("reference", "01_degenerate_cases"), tables={"cases": AsPandas(degenerate_cases(alpha))})


def weka_agreement_page(fixtures="tests/fixtures/weka_nominal"):
    """The page ``reference/02_weka_agreement``: tables ``agreement`` and ``trees`` (:func:`weka_agreement`).

    Parameters
    ----------
    fixtures : path-like
        Folder of the Weka fixtures; a relative path is taken from the repository root
        (the folder above ``data``).

    Returns
    -------
    Page
        The two tables as pandas shows them; no claims, nothing written.
    """
    folder = Path(fixtures)
    agreement, trees = weka_agreement(folder if folder.is_absolute() else data_dir().parent / folder)
    return Page(Claims("reference", "02_weka_agreement"),
                tables={"agreement": AsPandas(agreement), "trees": AsPandas(trees)})
