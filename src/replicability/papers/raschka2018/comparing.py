"""Raschka (2018), Section 4: comparing classifiers (Figures 20-21, Table 2) and algorithms (Section 4.8).

:func:`comparing_page` computes everything the notebook
``raschka2018/04_comparing_algorithms`` shows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from ... import stats as st
from ...engine.splits import FiveByTwoCV, RandomSubsampling
from ...engine.store import cached_result
from ...report.claims import HOLDS, INCONCLUSIVE, QUALIFIERS, Claims, comparison_summary
from ...report.page import Page, Table, beside, format_frame, format_number
from ...report.tables import read_published
from ...report.uncertainty import paired_rate_difference_se, rate_se
from .studies import algorithm_test_study, paired_split_scores

__all__ = ["TEST_LABELS", "comparing_page"]

#: Display names of :data:`~replicability.papers.raschka2018.ALGORITHM_TESTS`.
TEST_LABELS = {
    "mcnemar": "McNemar (Edwards)",
    "proportions_z": "difference of proportions",
    "resampled_t": "resampled paired t",
    "kfold_cv_t": "10-fold cv paired t",
    "5x2cv_t": "Dietterich 5x2cv t",
    "5x2cv_f": "Alpaydin 5x2cv F",
}
_PAGE = "04_comparing_algorithms"
#: Words for the keys of ``data/published/raschka2018/figure20.csv`` and ``table2.csv``.
_LABELS = {
    "accuracy_model1_percent": "Model 1 accuracy (%)", "accuracy_model2_percent": "Model 2 accuracy (%)",
    "chi2": "chi-squared", "pvalue": "p-value", "accuracy_percent_c1": "accuracy of C1 (%)",
    "accuracy_percent_c2": "accuracy of C2 (%)", "accuracy_percent_c3": "accuracy of C3 (%)",
    "total_correct_T": "T (correct predictions)", "sum_squared_classifiers_per_case": "sum of squared correct per case",
    "cochran_q": "Cochran's Q", "cochran_q_pvalue": "p-value of Q", "cochran_q_df": "degrees of freedom",
}
#: Simulated data sets per scenario and scale (Section 4.8).
_N_DATASETS = {"smoke": 2, "quick": 40, "paper": 200}


def _figure20(figure20):
    cells = figure20.pivot(index="panel", columns="quantity", values="value")
    n, a = cells["n"].to_numpy(), cells["cell_a"].to_numpy()
    b, c = cells["cell_b"].to_numpy(), cells["cell_c"].to_numpy()
    plain = st.mcnemar_test(b, c)
    reproduced = {"accuracy_model1_percent": 100 * (a + b) / n, "accuracy_model2_percent": 100 * (a + c) / n,
                  "chi2": np.asarray(plain.statistic), "pvalue": np.asarray(plain.pvalue)}
    out = figure20[["panel", "quantity"]].copy()
    values = {"n": n, "cell_a": a, "cell_b": b, "cell_c": c, **reproduced}
    panels = list(cells.index)
    out["value"] = [float(values[q][panels.index(p)]) for p, q in zip(out["panel"], out["quantity"])]
    out["source"] = "computed by replicability.mcnemar_test from the Figure 20 cell counts"
    rows = [{"panel": p, "quantity": q, "published": cells.loc[p, q], "ours": float(v[i])}
            for i, p in enumerate(panels) for q, v in reproduced.items()]
    edwards = st.mcnemar_test(b, c, correction=True)
    exact = st.mcnemar_test(b, c, method="exact")
    z = st.proportions_ztest((a + b) / n, (a + c) / n, n_test=int(n[0]))
    tables = {
        "cells": pd.DataFrame({"A": a, "B": b, "C": c, "D (derived)": n - a - b - c}, index=cells.index).astype(int),
        "variants": pd.DataFrame({"chi2": np.asarray(plain.statistic), "p (chi2)": np.asarray(plain.pvalue),
                                  "chi2 (Edwards)": np.asarray(edwards.statistic),
                                  "p (Edwards)": np.asarray(edwards.pvalue), "p (exact)": np.asarray(exact.pvalue)},
                                 index=cells.index),
        "ztest": pd.DataFrame({"z": np.asarray(z.statistic), "p (z-test)": np.asarray(z.pvalue),
                               "p (McNemar)": np.asarray(plain.pvalue)}, index=cells.index),
    }
    return pd.DataFrame(rows), tables, z, out


def _figure21(max_count):
    counts = np.arange(1, max_count + 1)
    B, C = np.meshgrid(counts, counts, indexing="ij")
    p_exact = st.mcnemar_test(B, C, method="exact").pvalue
    gaps = {"uncorrected": st.mcnemar_test(B, C).pvalue - p_exact,
            "Edwards-corrected": st.mcnemar_test(B, C, correction=True).pvalue - p_exact}
    large = (B > 50) & (C > 50)
    off = large & (B != C)

    def stat(g, mask, f):
        return f(np.abs(g)[mask]) if mask.any() else np.nan

    summary = pd.DataFrame({
        "max |gap|, all cells": [np.abs(g).max() for g in gaps.values()],
        "max |gap|, B and C > 50": [stat(g, large, np.max) for g in gaps.values()],
        "max |gap|, B and C > 50, B != C": [stat(g, off, np.max) for g in gaps.values()],
        "median |gap|, B and C > 50": [stat(g, large, np.median) for g in gaps.values()],
    }, index=list(gaps))
    return gaps, summary


def _figure21_plot(gaps, max_count):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained", sharey=True)
    for ax, (title, gap) in zip(axes, gaps.items()):
        image = ax.imshow(np.abs(gap).T, origin="lower", cmap="viridis", vmin=0, vmax=0.2,
                          extent=(0.5, max_count + 0.5, 0.5, max_count + 0.5))
        ax.set_title(f"|p(chi2, {title}) - p(exact)|")
        ax.set_xlabel("B")
        # The paper: almost identical when B and C are both above 50.
        ax.plot([50.5, max_count + 0.5, max_count + 0.5, 50.5, 50.5], [50.5, 50.5, max_count + 0.5,
                                                                       max_count + 0.5, 50.5],
                color="tab:red", lw=1, ls="--", label="paper: B, C > 50")
    axes[0].set_ylabel("C")
    axes[0].legend(loc="upper left", fontsize=8)
    fig.colorbar(image, ax=axes, label="absolute difference of p-values")


def _table2(table2, alpha):
    patterns = table2.query("quantity == 'occurrences'")
    correct = np.repeat(patterns[["c1", "c2", "c3"]].to_numpy(dtype=int), patterns["value"].to_numpy(dtype=int),
                        axis=0)
    q, f = st.cochran_q_test(correct), st.looney_ftest(correct)
    g, m_i = correct.sum(axis=0), correct.sum(axis=1)
    reproduced = {
        "accuracy_percent_c1": 100 * g[0] / len(correct), "accuracy_percent_c2": 100 * g[1] / len(correct),
        "accuracy_percent_c3": 100 * g[2] / len(correct), "total_correct_T": g.sum(),
        "sum_squared_classifiers_per_case": np.sum(m_i**2), "cochran_q": q.statistic,
        "cochran_q_pvalue": q.pvalue, "cochran_q_df": q.df,
    }
    out = table2.copy()
    stated = out["quantity"] != "occurrences"
    out.loc[stated, "value"] = [float(reproduced[qn]) for qn in out.loc[stated, "quantity"]]
    out["source"] = "computed by replicability.cochran_q_test from the Table 2 occurrences"
    published = table2[stated].set_index("quantity")["value"]
    comparison = pd.DataFrame({"quantity": published.index, "published": published.to_numpy(),
                               "ours": [float(reproduced[k]) for k in published.index]})
    omnibus = pd.DataFrame({"statistic": [float(q.statistic), float(f.statistic)], "df": [str(q.df), str(f.df)],
                            "p-value": [float(q.pvalue), float(f.pvalue)]}, index=["Cochran's Q", "Looney's F"])
    pairs = [(0, 1), (0, 2), (1, 2)]
    pb = np.array([np.sum(correct[:, i] & ~correct[:, j]) for i, j in pairs])
    pc = np.array([np.sum(~correct[:, i] & correct[:, j]) for i, j in pairs])
    post_chi2, post_exact = st.mcnemar_test(pb, pc), st.mcnemar_test(pb, pc, method="exact")
    posthoc = pd.DataFrame({
        "B": pb, "C": pc, "chi2": post_chi2.statistic, "p (chi2)": post_chi2.pvalue, "p (exact)": post_exact.pvalue,
        "Bonferroni p (exact)": st.bonferroni(post_exact.pvalue), "Holm p (exact)": st.holm(post_exact.pvalue),
    }, index=[f"C{i + 1} vs C{j + 1}" for i, j in pairs])
    posthoc["reject (Bonferroni)"] = posthoc["Bonferroni p (exact)"] < alpha
    return comparison, omnibus, posthoc, f, out


def _real_data(seed, alpha):
    X, y = load_breast_cancer(return_X_y=True)
    lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    tree = DecisionTreeClassifier(random_state=seed)
    holdout = paired_split_scores(lr, tree, X, y,
                                  StratifiedShuffleSplit(1, test_size=1 / 3, random_state=seed).split(X, y))
    resampled = paired_split_scores(lr, tree, X, y, RandomSubsampling(30, test_size=1 / 3, stratified=True,
                                                                     random_state=seed).split(X, y))
    kfold = paired_split_scores(lr, tree, X, y, StratifiedKFold(10, shuffle=True, random_state=seed).split(X, y))
    five = paired_split_scores(lr, tree, X, y, FiveByTwoCV(random_state=seed).split(X, y))
    hx, hy, hb, hc = holdout.x[0], holdout.y[0], holdout.b[0], holdout.c[0]
    results = {
        "McNemar (Edwards), holdout": (st.mcnemar_test(hb, hc, correction=True), hx - hy),
        "McNemar (exact), holdout": (st.mcnemar_test(hb, hc, method="exact"), hx - hy),
        "difference of proportions, holdout": (st.proportions_ztest(hx, hy, n_test=int(holdout.n_test[0])), hx - hy),
        "resampled paired t (30 x 2/3)": (st.resampled_ttest(resampled.x, resampled.y),
                                          np.mean(resampled.x - resampled.y)),
        "10-fold cv paired t": (st.kfold_cv_ttest(kfold.x, kfold.y), np.mean(kfold.x - kfold.y)),
        "Dietterich 5x2cv t": (st.dietterich_5x2cv_ttest(five.x.reshape(5, 2), five.y.reshape(5, 2)),
                               np.mean(five.x - five.y)),
        "Alpaydin 5x2cv F": (st.alpaydin_5x2cv_ftest(five.x.reshape(5, 2), five.y.reshape(5, 2)),
                             np.mean(five.x - five.y)),
    }
    real = pd.DataFrame({"mean accuracy difference (A - B)": {k: d for k, (_, d) in results.items()},
                         "statistic": {k: float(r.statistic) for k, (r, _) in results.items()},
                         "p-value": {k: float(r.pvalue) for k, (r, _) in results.items()}})
    real["reject at alpha"] = real["p-value"] < alpha
    return real


def _simulation(scale, seed, n_train, delta, alpha, n_jobs):
    n_datasets = _N_DATASETS[scale]
    learner_a, learner_b = GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=seed)
    studies = {}
    for i, (scenario, scenario_delta) in enumerate({"null": 0.0, "alternative": delta}.items()):
        studies[scenario] = cached_result(
            f"raschka2018/algorithm_tests/{scenario}",
            {"version": 1, "n_train": n_train, "n_datasets": n_datasets, "delta": scenario_delta,
             "seed": seed, "learner_a": repr(learner_a), "learner_b": repr(learner_b)},
            lambda scenario_delta=scenario_delta, i=i: algorithm_test_study(
                learner_a, learner_b, n_train=n_train, n_datasets=n_datasets, delta=scenario_delta, rng=[seed, i],
                n_jobs=n_jobs),
            scale=scale,
        )
    rates = {}
    for scenario, ds in studies.items():
        rejected = (ds["pvalue"] < alpha).sum("dataset").to_series()
        total = ds.sizes["dataset"]
        ci = [stats.binomtest(int(k), total).proportion_ci(0.95) for k in rejected]
        rates[(scenario, "rate %")] = 100 * rejected / total
        rates[(scenario, "95% CI low")] = 100 * pd.Series([lo.low for lo in ci], index=rejected.index)
        rates[(scenario, "95% CI high")] = 100 * pd.Series([hi.high for hi in ci], index=rejected.index)
    rate_table = pd.DataFrame(rates).rename(index=TEST_LABELS)
    out = rate_table.copy()
    out.columns = [f"{s}_{q.replace(' ', '_').replace('%', 'percent')}" for s, q in out.columns]
    return studies, rate_table, n_datasets, out.reset_index(names="test")


def _simulation_plot(rate_table, alpha):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), layout="constrained", sharey=True)
    for ax, scenario, title in zip(axes, ["null", "alternative"], ["Type I error (null)", "power (alternative)"]):
        r = rate_table[(scenario, "rate %")]
        err = np.vstack([r - rate_table[(scenario, "95% CI low")], rate_table[(scenario, "95% CI high")] - r])
        ax.barh(r.index, r, xerr=err, color="tab:blue" if scenario == "null" else "tab:orange")
        if scenario == "null":
            ax.axvline(100 * alpha, color="black", ls="--", lw=1, label="alpha")
            ax.legend(loc="lower right")
        ax.set_title(title)
        ax.set_xlabel("rejection rate (%)")
    axes[0].invert_yaxis()


def comparing_page(*, scale="paper", seed=2018, alpha=0.05, n_train=300, delta=1.0, max_count=100, n_jobs=2):
    """Section 4 of Raschka (2018): everything the notebook ``04_comparing_algorithms`` shows.

    Figure 20 (McNemar's test on two 2x2 tables) and the z-test on the same panels,
    Figure 21 (approximate against exact McNemar p-values for discordant counts up to
    ``max_count``), Table 2 (Cochran's Q, Looney's F, post hoc McNemar tests), the
    algorithm-comparison tests on breast cancer data, and the simulation of Dietterich's
    comparison (Section 4.8; :func:`algorithm_test_study`, read from ``data/results``
    at ``scale="paper"``). :meth:`~replicability.report.page.Page.write` writes
    ``figure20``, ``table2`` and ``section48_simulation`` under
    ``reproduced/raschka2018`` and the page's claims.

    Parameters
    ----------
    scale : {"smoke", "quick", "paper"}
        Data sets per scenario of the simulation (2, 40, 200).
    seed : int
    alpha : float
        Significance level.
    n_train : int
        Cases per simulated data set (Dietterich used 300).
    delta : float
        Distance between the class means under the alternative.
    max_count : int
        Largest discordant count of Figure 21.
    n_jobs : int
        Workers of the simulation; results do not depend on it.

    Returns
    -------
    Page

    Examples
    --------
    >>> page = comparing_page()  # the stored simulation of data/results
    >>> page.values["type1_resampled_t"], page.claims.verdicts()["s48_resampled"]
    (44.0, 'holds')
    """
    if scale not in _N_DATASETS:
        raise ValueError(f"`scale` must be one of {sorted(_N_DATASETS)}; got {scale!r}.")
    comparison20, tables20, z, out20 = _figure20(read_published("raschka2018", "figure20"))
    gaps, summary21 = _figure21(max_count)
    comparison2, omnibus, posthoc, looney, out2 = _table2(read_published("raschka2018", "table2"), alpha)
    real = _real_data(seed, alpha)
    studies, rate_table, n_datasets, out48 = _simulation(scale, seed, n_train, delta, alpha, n_jobs)
    claims = _claims(comparison20, z, summary21, comparison2, rate_table, alpha, n_datasets,
                     (studies["alternative"]["pvalue"] < alpha).transpose("test", "dataset"))

    tables = {name: _beside(frame) for name, frame in [("figure20", comparison20), ("table2", comparison2)]}
    tables.update({"cells": Table(tables20["cells"]), "variants": Table(tables20["variants"], 4),
                   "ztest": Table(tables20["ztest"], 4), "figure21": Table(summary21, 4),
                   "omnibus": Table(omnibus, 4), "posthoc": Table(posthoc, 4), "real": _real_table(real),
                   "simulation": _simulation_table(rate_table)})
    return Page(claims, summary=comparison_summary([*comparison20["published"], *comparison2["published"]],
                                                   [*comparison20["ours"], *comparison2["ours"]], claims),
                tables=tables,
                figures={"figure21": lambda: _figure21_plot(gaps, max_count),
                         "simulation": lambda: _simulation_plot(rate_table, alpha)},
                values=_values(summary21, looney, studies, rate_table, claims, alpha, comparison20, comparison2),
                reproduced={"figure20": out20, "table2": out2, "section48_simulation": out48})


def _beside(frame):
    """Published / ours / difference of a long table with the columns ``published`` and ``ours``."""
    index = pd.MultiIndex.from_frame(frame.drop(columns=["published", "ours"]).replace({"quantity": _LABELS}))
    return Table(beside(pd.Series(frame["published"].to_numpy(float), index=index),
                        pd.Series(frame["ours"].to_numpy(float), index=index), digits=4))


def _real_table(real):
    real_shown = format_frame(real, 4)
    # p-values below 0.0001 in two significant digits rather than a bare 0.
    real_shown["p-value"] = [f"{v:.2g}" if v < 1e-4 else format_number(v, 4) for v in real["p-value"]]
    return Table(real_shown)


def _simulation_table(rate_table):
    def interval(scenario):
        return [f"{format_number(lo, 1)} to {format_number(hi, 1)}" for lo, hi in
                zip(rate_table[(scenario, "95% CI low")], rate_table[(scenario, "95% CI high")])]

    return Table(pd.DataFrame({
        "Type I error (%)": rate_table[("null", "rate %")].map(lambda v: format_number(v, 1)),
        "95% CI (Type I)": interval("null"),
        "power (%)": rate_table[("alternative", "rate %")].map(lambda v: format_number(v, 1)),
        "95% CI (power)": interval("alternative"),
    }))


def _proportions_reading(rate, level, verdict):
    """Where the proportions test's Type I error lies, in words chosen by its claim's verdict ("high": twice the level).

    Examples
    --------
    >>> from replicability.report.claims import NOT_HOLDS
    >>> _proportions_reading(2.5, 5.0, NOT_HOLDS)
    '*below* the level, short of twice the level that "high" asks for by more than its uncertainty'
    >>> _proportions_reading(12.0, 5.0, HOLDS)
    'at least twice the level, as "high" asks, beyond its uncertainty'
    """
    if verdict == HOLDS:
        return 'at least twice the level, as "high" asks, beyond its uncertainty'
    if verdict == INCONCLUSIVE:
        return 'within its uncertainty of twice the level that "high" asks for'
    where = "*below* the level" if rate < level else "above the level" if rate > level else "at the level"
    return f'{where}, short of twice the level that "high" asks for by more than its uncertainty'


def _values(summary21, looney, studies, rate_table, claims, alpha, comparison20, comparison2):
    """The numbers and verdicts the page's text quotes, rounded as shown, and the sentences their verdicts choose."""
    f20, t2 = comparison20.set_index(["quantity", "panel"])["ours"], comparison2.set_index("quantity")["ours"]
    values = {"chi2_a": round(float(f20["chi2", "A"]), 2), "cochran_q_p": round(float(t2["cochran_q_pvalue"]), 4)}
    for name, key in [("uncorrected", "uncorrected"), ("Edwards-corrected", "corrected")]:
        for column, suffix in [("max |gap|, B and C > 50", "max"), ("max |gap|, B and C > 50, B != C", "offdiag"),
                               ("median |gap|, B and C > 50", "median")]:
            values[f"gap_{key}_{suffix}"] = round(float(summary21.loc[name, column]), 5)
    values.update({"looney_f": round(float(looney.statistic), 4), "looney_p": round(float(looney.pvalue), 4),
                   "alt_cv_difference": round(100 * float(studies["alternative"]["cv_difference"].mean()), 1)})
    for key, label in TEST_LABELS.items():
        values[f"type1_{key}"] = round(float(rate_table.loc[label, ("null", "rate %")]), 1)
        values[f"power_{key}"] = round(float(rate_table.loc[label, ("alternative", "rate %")]), 1)
    values.update({f"verdict_{k}": v for k, v in claims.verdicts().items()})
    values["proportions_reading"] = _proportions_reading(
        float(rate_table.loc[TEST_LABELS["proportions_z"], ("null", "rate %")]), 100 * alpha,
        claims.verdicts()["s48_proportions"])
    return values


def _claims(comparison20, z, summary21, comparison2, rate_table, alpha, n_datasets, power_rejected):
    """The page's claims: printed numbers to half a unit of their last digit, rates to 2 s.e. of n data sets.

    ``power_rejected`` (test, dataset): which test rejects on which data set of the
    alternative scenario; two tests' powers on the same data sets are paired.
    """
    claims = Claims("raschka2018", _PAGE)
    _table_claims(claims, comparison20, z, summary21, comparison2)
    _simulation_claims(claims, rate_table, alpha, n_datasets, power_rejected)
    return claims


def _table_claims(claims, comparison20, z, summary21, comparison2):
    """Figures 20-21 and Table 2: the printed numbers, to half a unit of their last digit."""
    f20 = comparison20.set_index(["quantity", "panel"])
    acc = f20.loc[["accuracy_model1_percent", "accuracy_model2_percent"]]
    claims.close_to("fig20_accuracy", "Model 1 accuracy 99.7%, Model 2 accuracy 99.6% (both subpanels)",
                    "Section 4.3, Figure 20", value=acc["ours"], published=acc["published"], se=0.0, rounding=0.05,
                    unit="%")
    chi2 = f20.loc["chi2"]
    claims.close_to("fig20_chi2", "chi2 = 8.3 (scenario A) and chi2 = 2.5 (scenario B)", "Section 4.3, Figure 20",
                    value=chi2["ours"], published=chi2["published"], se=0.0, rounding=0.05, digits=3)
    p = f20.loc["pvalue"]
    claims.close_to("fig20_pvalue", "p-value of 0.0039 (scenario A) and of 0.1138 (scenario B)",
                    "Section 4.3, Figure 20", value=p["ours"], published=p["published"], se=0.0, rounding=0.00005,
                    digits=5)
    zp = np.asarray(z.pvalue)
    claims.exactly("sec43_ztest", "[the difference of proportions] cannot tell the two subpanels apart: both have "
                   "99.7% against 99.6% accuracy", "Section 4.3, Figure 20", condition=bool(zp[0] == zp[1]),
                   measured=f"p = {zp[0]:.4f} and {zp[1]:.4f}", rule="equal p-values")
    for key, column, where in [("fig21_offdiag", "max |gap|, B and C > 50, B != C", "off the diagonal B = C"),
                               ("fig21_all", "max |gap|, B and C > 50", "every cell")]:
        claims.at_most(key, "the p-values from the continuity-corrected version of McNemar's test are almost "
                       f"identical to the p-values from a binomial test if both B and C are larger than 50 ({where}; "
                       "almost identical read as: equal to two decimals, |gap| <= 0.005)", "Section 4.4, Figure 21",
                       value=summary21.loc["Edwards-corrected", column], bound=0.005, digits=4)
    t2 = comparison2.set_index("quantity")
    counts = ["accuracy_percent_c1", "accuracy_percent_c2", "accuracy_percent_c3", "total_correct_T",
              "sum_squared_classifiers_per_case", "cochran_q_df"]
    claims.close_to("table2_counts", "accuracies 84%, 92%, 92%; T = 268; denominator 770; M - 1 = 2 degrees of "
                    "freedom", "Section 4.6, Table 2 and Eq. 51", value=t2.loc[counts, "ours"],
                    published=t2.loc[counts, "published"], se=0.0, rounding=0.0)
    claims.close_to("table2_q", "Q = 7.5294", "Section 4.6, Eq. 51", value=t2.loc["cochran_q", "ours"],
                    published=7.5294, se=0.0, rounding=0.00005, digits=5)
    claims.close_to("table2_p", "p ≈ 0.023", "Section 4.6, after Eq. 51", value=t2.loc["cochran_q_pvalue", "ours"],
                    published=0.023, se=0.0, rounding=0.0005, digits=4)


def _simulation_claims(claims, rate_table, alpha, n_datasets, power_rejected):
    """Section 4.8: rejection rates over n_datasets data sets per scenario, to 2 standard errors."""
    type1 = rate_table[("null", "rate %")]
    power = rate_table[("alternative", "rate %")]
    se0 = 100 * rate_se(alpha, n_datasets)
    level = 100 * alpha
    source = "Section 4.8 (after Dietterich, 1998)"
    claims.at_most("s48_mcnemar", "McNemar's test: low false positive rate", source,
                   value=type1[TEST_LABELS["mcnemar"]], bound=level, se=se0, unit="%", digits=1)
    high = QUALIFIERS["high"][0]
    for key, test, text, factor in [
            ("s48_proportions", "proportions_z", "difference of proportions test: high false positive rate", high),
            ("s48_resampled", "resampled_t", "resampled paired t-test: high false positive rate", high),
            ("s48_kfold", "kfold_cv_t", "k-fold cross-validated t-test: somewhat elevated false positive rate", 1.0)]:
        what = f"at least {factor:g} times the level" if factor != 1 else "above the level"
        claims.greater(key, f"{text} ({what})", source, larger=type1[TEST_LABELS[test]], smaller=factor * level,
                       se=100 * rate_se(min(factor * alpha, 1.0), n_datasets), unit="%", digits=1)
    claims.at_most("s48_5x2cv_t", "5x2cv paired t test: low false positive rate (similar to McNemar's test)",
                   source, value=type1[TEST_LABELS["5x2cv_t"]], bound=level, se=se0, unit="%", digits=1)
    p_t, p_m = power[TEST_LABELS["5x2cv_t"]], power[TEST_LABELS["mcnemar"]]
    # both tests on the same simulated data sets: the paired standard error
    claims.greater("s48_5x2cv_power", "5x2cv paired t test: slightly more powerful than McNemar's test", source,
                   larger=p_t, smaller=p_m, se=paired_rate_difference_se(power_rejected.sel(test="5x2cv_t").values,
                                                                         power_rejected.sel(test="mcnemar").values),
                   qualifier="slightly", unit="%", digits=1)
    f_t, t_t = type1[TEST_LABELS["5x2cv_f"]], type1[TEST_LABELS["5x2cv_t"]]
    claims.at_most("s412_f_robust", "the 5x2cv combined F-test [is] a more robust alternative to Dietterich's 5x2cv "
                   "paired t-test (its false positive rate no higher)", "Section 4.12", value=f_t, bound=t_t,
                   se=100 * float(np.hypot(rate_se(f_t / 100, n_datasets), rate_se(t_t / 100, n_datasets))),
                   unit="%", digits=1)
