"""The pages of Tables 3 and 4 of Bouckaert & Frank (2004): tests on r x 10 cv of 27 UCI data sets.

Table 3 (the corrected r x 10 cv test), the uncorrected t-tests of Section 4.3
(with their Type I error on the synthetic null source) and Table 4 (the corrected
10 x 10 cv test at four levels). The standard errors follow the rule of the pages of
Tables 1 and 2 (:mod:`~replicability.papers.bouckaert_frank2004.uci_pages`), from
:mod:`replicability.report.uncertainty`; the Type I error is a rate over the null
source's independent data sets (1000 at paper scale), its standard error
:func:`~replicability.report.uncertainty.rate_se` at the bound.

References
----------
Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of significance
tests for comparing learning algorithms. PAKDD 2004, LNAI 3056, 3-12.
https://doi.org/10.1007/978-3-540-24775-3_3
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_alpha, check_choice, check_positive_int
from ...report.claims import Claims
from ...report.page import Page, Table, beside, format_frame, format_number
from ...report.tables import read_published
from ...report.uncertainty import difference_se, percent_se, rate_se
from ...stats.decisions import decide
from ...stats.ttests import corrected_repeated_cv_ttest, kfold_cv_ttest, paired_ttest
from ..shared.synthetic_runs import fold_differences, synthetic_fold_counts
from ..shared.uci_outcomes import PAIR_LABELS, consistency_table, uci_test_outcomes
from ..shared.uci_runs import PAPER, uci_scheme_results
from ._uci_common import (
    MEASURES,
    PAIRS,
    SOURCE,
    claim_increase,
    largest_differences,
    long_measures,
    r_figure,
    r_series,
    shown_grid,
    steps,
    summary_line,
    versus,
)
from .synthetic_page import SYNTHETIC_SIZES, n_jobs_for

__all__ = ["table3_page", "table4_page"]


# --------------------------------------------------------------------------- #
# Table 3 and Section 4.3: tests on r x 10 cv
# --------------------------------------------------------------------------- #
def _null_type1(scale, seed, alpha):
    """Rejection rates (%) on synthetic source 1 (no difference) of the three tests on 10 x 10 cv."""
    sizes = SYNTHETIC_SIZES[scale]
    counts = synthetic_fold_counts("source1", seed=seed, scale=scale, n_jobs=n_jobs_for(scale), scheme="rxk_cv",
                                   scheme_params={"n_runs": 10, "n_folds": 10}, n_datasets=sizes["n_datasets"],
                                   n_repeats=sizes["n_repeats"])
    d = fold_differences(counts)  # (data set, repeat, run, fold)
    n_test = int(counts["n_test"].values.max())
    tests = {
        "uncorrected 10 x 10 cv (df 99)": paired_ttest(d.reshape(d.shape[:-2] + (-1,))),
        "corrected 10 x 10 cv": corrected_repeated_cv_ttest(d, n_train=300 - n_test, n_test=n_test),
        "10-fold cv (df 9)": kfold_cv_ttest(d[..., 0, :]),
    }
    rates = pd.Series({name: 100 * float((decide(res, alpha=alpha) != 0).mean()) for name, res in tests.items()},
                      name="Type I error (%)")
    return rates, sizes["n_datasets"]


def _table3_long(cv, resample, runs, alpha):
    """Table 3's measures, and those of corrected resampling with the same effort (10 r train/test splits)."""
    table3 = long_measures([uci_test_outcomes(cv, "corrected_repeated_cv", n_runs=r, alpha=alpha) for r in runs],
                           "n_runs", runs)
    same_effort = long_measures([uci_test_outcomes(resample, "corrected_resampled", n_runs=10 * r, alpha=alpha)
                                 for r in runs], "n_runs", runs)
    return table3, same_effort


def _section4_3(cv, alpha):
    """The measures of the uncorrected tests of Section 4.3 per pair, and their consistent counts as written."""
    in_text = {name: consistency_table(uci_test_outcomes(cv, name, alpha=alpha)).rename(index=PAIR_LABELS)
               for name in ("cv_ttest", "repeated_cv_ttest")}
    section = pd.DataFrame([{"test": name, "pair": pair, "measure": "consistent",
                             "value": int(t.loc[pair, "consistent"])} for name, t in in_text.items() for pair in PAIRS])
    return in_text, section


def _cells(table3, same_effort, runs):
    """Consistent and R of r x 10 cv and of 10 r resampling in every (pair, r) cell."""
    rep = table3.set_index(["measure", "pair", "n_runs"])["value"]
    res_eq = same_effort.set_index(["measure", "pair", "n_runs"])["value"]
    cells = [(p, r) for p in PAIRS for r in runs]
    return (np.array([rep["consistent", p, r] for p, r in cells], dtype=float),
            np.array([res_eq["consistent", p, r] for p, r in cells], dtype=float),
            np.array([rep["R", p, r] for p, r in cells]), np.array([res_eq["R", p, r] for p, r in cells]))


def _in_text_claims(claims, cons, same_effort, type1, n_null, runs, m, alpha):
    """The claims of Section 4.3 on one 10-fold cv, 10 x 10 cv uncorrected and resampling."""
    res_eq = same_effort.set_index(["measure", "pair", "n_runs"])["value"]
    res10 = np.array([res_eq["consistent", p, runs[0]] for p in PAIRS], dtype=float)
    res100 = np.array([res_eq["consistent", p, runs[-1]] for p in PAIRS], dtype=float)
    src, pct = "Section 4.3", 100 / m
    claims.at_least("claim_cv_vs_res10", "Contrasting this [the standard t-test on a single run of 10-fold cv] with "
                    "corrected resampling with 10 runs, which takes the same computational effort, we see that "
                    "10-fold cross validation is at least as consistent.", f"{src} (text)",
                    value=pct * cons["cv_ttest"], bound=pct * res10,
                    se=difference_se(percent_se(cons["cv_ttest"], m), percent_se(res10, m)), unit="% of data sets",
                    digits=1)
    claims.greater("claim_cv_vs_res100", "However, it is substantially less consistent than (corrected) resampling "
                   "at 100 runs.", f"{src} (text)", larger=pct * res100, smaller=pct * cons["cv_ttest"],
                   se=difference_se(percent_se(res100, m), percent_se(cons["cv_ttest"], m)),
                   qualifier="substantially", unit="% of data sets", digits=1)
    mean_rep, means = cons["repeated_cv_ttest"].mean(), np.array([res100.mean(), cons["cv_ttest"].mean()])
    claims.at_least("claim_uncorrected_consistent", "[The standard t-test on the 100 differences of 10 x 10 cv] "
                    "produced consistent results for 25, 24, and 18 datasets ... This looks impressive compared to "
                    "any of the tests we have evaluated so far. (Read: mean consistency over the pairs at least that "
                    "of corrected resampling with 100 runs and of the t-test on one 10-fold cv.)", f"{src} (text)",
                    value=np.full(2, pct * mean_rep), bound=pct * means,
                    se=difference_se(100 * rate_se(mean_rep / m, 3 * m), 100 * rate_se(means / m, 3 * m)),
                    unit="% of data sets", digits=1)
    claims.at_least("claim_uncorrected_type1", "However, the Type I error of this test is very high (because of "
                    "the overlapping training and test sets). (Read: more than twice the level, on synthetic source "
                    f"1, where the learners do not differ; n = {n_null} independent data sets.)", f"{src} (text)",
                    value=type1.iloc[0], bound=200 * alpha, se=100 * rate_se(2 * alpha, n_null), unit="%", digits=1)


def _table3_claims(table3, same_effort, cons, type1, n_null, runs, m, alpha):
    """The claims of Section 4.3 on the uncorrected tests and on Table 3 against Table 2."""
    claims = Claims(PAPER, "04_table3_repeated_cv")
    _in_text_claims(claims, cons, same_effort, type1, n_null, runs, m, alpha)
    cv_c, rs_c, cv_r, rs_r = _cells(table3, same_effort, runs)
    src = "Section 4.3, Tables 2 and 3"
    claims.at_least("claim_cv_vs_resampling", "Comparing this to Table 2 (for corrected resampling) the consistency "
                    "is almost everywhere as good and often better (assuming the same computational effort in both "
                    "cases). (Read: consistent of r x 10 cv at least that of 10 r resampling in every cell.)",
                    src, value=100 / m * cv_c, bound=100 / m * rs_c,
                    se=difference_se(percent_se(cv_c, m), percent_se(rs_c, m)), unit="% of data sets", digits=1)
    claims.at_least("claim_cv_vs_resampling_r", "The same can be said about the replicability measure R. (Read: R of "
                    "r x 10 cv at least that of 10 r resampling in every cell.)", src,
                    value=cv_r, bound=rs_r,
                    se=difference_se(rate_se(np.clip(cv_r, 0, 1), m), rate_se(np.clip(rs_r, 0, 1), m)), digits=3)
    claim_increase(claims, "claim_increase", "(Table 3, as Table 2 in Section 4.2: 'The replicability increases "
                   "with the number of runs'.) Read: R at each number of runs at least R at the previous one.",
                   "Section 4.3, Table 3", table3, "n_runs", runs, m)
    return claims


def _table3_values(both, both43, table3, same_effort, cons, type1, runs):
    """The numbers the text of the Table 3 page quotes."""
    cv_c, rs_c, cv_r, rs_r = _cells(table3, same_effort, runs)
    values = {"type1_uncorrected": round(float(type1.iloc[0]), 1), "type1_corrected": round(float(type1.iloc[1]), 1),
              "n_as_good": int(np.sum(np.r_[cv_c >= rs_c, cv_r >= rs_r])),
              "n_better": int(np.sum(np.r_[cv_c > rs_c, cv_r > rs_r])), "n_cells": 2 * len(cv_c),
              "n_decreases": int(sum(s[5] < s[4] for s in steps(table3, "n_runs", runs, MEASURES))),
              **largest_differences(both),
              "max_abs_d43": int(both43["difference"].abs().max())}
    for name in ("cv_ttest", "repeated_cv_ttest"):
        values[f"cons_{name}"] = ", ".join(str(int(v)) for v in cons[name])
    return values


def _table3_tables(both, both43, table3, same_effort, in_text, type1, runs):
    """Table 3 beside the published one, the equal-effort comparison, Section 4.3's tests, the Type I errors."""
    in_text_measures = pd.concat({name: t[MEASURES] for name, t in in_text.items()}, axis=0)
    shown43 = both43.pivot(index="pair", columns="test", values=["value_published", "value_reproduced"]).reindex(PAIRS)
    shown43 = beside(shown43["value_published"].T, shown43["value_reproduced"].T, digits=0)
    return {"table3": shown_grid(both.rename(columns={"value_published": "value"}),
                                 both.rename(columns={"value_reproduced": "value"}), "n_runs", runs),
            "effort": shown_grid(same_effort, table3, "n_runs", runs,
                                 labels=("10 r resampling", "r x 10 cv", "difference")),
            "section4_3": Table(shown43), "in_text_measures": Table(format_frame(in_text_measures, {"R": 3})),
            "type1": Table(type1.map(lambda v: format_number(v, 1)).to_frame())}


def _table3_figure(both, same_effort, runs):
    """R against r: published, reproduced, and resampling with the same effort."""
    return r_figure({"published": r_series(both, "value_published", "n_runs"),
                     "reproduced": r_series(both, "value_reproduced", "n_runs"),
                     "resampling, 10 r runs": r_series(same_effort, "value", "n_runs")},
                    runs, "runs of 10-fold cv (r)")


def table3_page(*, scale="paper", alpha=0.05, runs=(1, 2, 5, 10), seed=0, resampling="resample_weka"):
    """Table 3 (corrected r x 10 cv test), the uncorrected tests of Section 4.3 and their claims.

    Parameters
    ----------
    scale : {"paper", "quick", "smoke"}, keyword-only
    alpha : float, keyword-only
    runs : sequence of int, keyword-only
        Runs of 10-fold cv (the columns of Table 3).
    seed : int, keyword-only
        Root seed of the synthetic null experiment (0: the committed one).
    resampling : {"resample_weka", "resample"}, keyword-only
        The resampling results compared at equal effort (Table 2's splits: Weka's
        Experimenter's by default, or our own random splits).

    Returns
    -------
    Page
        Tables ``"table3"``, ``"effort"``, ``"section4_3"``, ``"in_text_measures"``,
        ``"type1"``; reproduced ``table3`` and ``section4_3``; claims
        ``claim_cv_vs_res10``, ``claim_cv_vs_res100``, ``claim_uncorrected_consistent``,
        ``claim_uncorrected_type1``, ``claim_cv_vs_resampling``,
        ``claim_cv_vs_resampling_r``, ``claim_increase``.

    Examples
    --------
    >>> page = table3_page()  # the committed results
    >>> page.values["type1_uncorrected"], page.values["type1_corrected"]
    (56.1, 3.9)
    """
    alpha = check_alpha(alpha)
    runs = [check_positive_int(r, "runs") for r in runs]
    cv = uci_scheme_results("cv", scale=scale)
    resample = uci_scheme_results(check_choice(resampling, "resampling", ("resample_weka", "resample")), scale=scale)
    m = int(cv.sizes["dataset"])
    table3, same_effort = _table3_long(cv, resample, runs, alpha)
    in_text, section = _section4_3(cv, alpha)
    source = SOURCE.format(page="04_table3_repeated_cv", params=f"scale={scale}, alpha={alpha}")
    reproduced = {"table3": table3.assign(source=source), "section4_3": section.assign(source=source)}
    both = versus(read_published(PAPER, "table3"), table3, ["measure", "pair", "n_runs"])
    both43 = versus(read_published(PAPER, "section4_3"), section, ["test", "pair", "measure"])
    type1, n_null = _null_type1(scale, seed, alpha)
    cons = {name: t["consistent"].reindex(PAIRS).to_numpy(dtype=float) for name, t in in_text.items()}
    claims = _table3_claims(table3, same_effort, cons, type1, n_null, runs, m, alpha)
    values = _table3_values(both, both43, table3, same_effort, cons, type1, runs)
    tables = _table3_tables(both, both43, table3, same_effort, in_text, type1, runs)
    all_both = pd.concat([both[["measure", "value_published", "value_reproduced"]],
                          both43[["measure", "value_published", "value_reproduced"]]])
    figure = partial(_table3_figure, both, same_effort, runs)
    return Page(claims, values, summary_line(all_both, claims), tables, reproduced, {"figure": figure})


# --------------------------------------------------------------------------- #
# Table 4: significance levels
# --------------------------------------------------------------------------- #
def _table4_claims(table4, alphas, m):
    """The claims of Section 4.3 on Table 4: the level changes little, R above 0.9 everywhere."""
    rep = table4.set_index(["measure", "pair", "alpha"])["value"]
    cells = [(p, a) for p in PAIRS for a in alphas if a != 0.05]
    claims = Claims(PAPER, "05_table4_significance")
    statement = ("The results, shown in Table 4, demonstrate that the significance level does not have a major "
                 "impact on consistency or the replicability measure R.")
    r_at = np.array([rep["R", p, a] for p, a in cells])
    r_5 = np.array([rep["R", p, 0.05] for p, _ in cells])
    claims.close_to("claim_level", statement + " (Read: R at 1%, 2.5% and 10% equal to R at 5%, within the standard "
                    "error of the difference.)", "Section 4.3, Table 4", value=r_at, published=r_5,
                    se=difference_se(rate_se(np.clip(r_at, 0, 1), m), rate_se(np.clip(r_5, 0, 1), m)), rounding=0.0,
                    digits=3)
    c_at = np.array([rep["consistent", p, a] for p, a in cells], dtype=float)
    c_5 = np.array([rep["consistent", p, 0.05] for p, _ in cells], dtype=float)
    claims.close_to("claim_level_consistent", statement + " (Read: consistent at 1%, 2.5% and 10% equal to "
                    "consistent at 5%, within the standard error of the difference.)", "Section 4.3, Table 4",
                    value=100 * c_at / m, published=100 * c_5 / m,
                    se=difference_se(percent_se(c_at, m), percent_se(c_5, m)),
                    rounding=0.0, unit="% of data sets", digits=1)
    r_all = np.array([rep["R", p, a] for p in PAIRS for a in alphas])
    claims.greater("claim_r90", "Note that the latter [R] is greater than 0.9 in every single case, indicating very "
                   "good replicability for this test.", "Section 4.3, Table 4", larger=r_all,
                   smaller=np.full(r_all.shape, 0.9), se=rate_se(np.clip(0.9, 0, 1), m), digits=3)
    return claims


def _widest_range(frame, measure, column):
    """The largest range over the levels of ``measure`` among the pairs."""
    rows = frame[frame["measure"] == measure]
    return max(float(np.ptp(rows[rows["pair"] == p][column].to_numpy(dtype=float))) for p in PAIRS)


def _table4_values(table4, both, alphas):
    """The numbers the text of the Table 4 page quotes."""
    rep = table4.set_index(["measure", "pair", "alpha"])["value"]
    r_all = np.array([rep["R", p, a] for p in PAIRS for a in alphas])
    return {"r_range_max": round(_widest_range(table4, "R", "value"), 3),
            "c_range_max": int(_widest_range(table4, "consistent", "value")),
            "pub_r_range": round(_widest_range(both, "R", "value_published"), 3),
            "pub_c_range": int(_widest_range(both, "consistent", "value_published")),
            "r_min": round(float(r_all.min()), 3), "n_r90": int((r_all > 0.9).sum()), "n_cells": len(r_all),
            **largest_differences(both)}


def _table4_figure(both, alphas):
    """R against the level: published and reproduced, with the line at 0.9."""
    return r_figure({"published": r_series(both, "value_published", "alpha"),
                     "reproduced": r_series(both, "value_reproduced", "alpha")},
                    alphas, "significance level", line=0.9)


def table4_page(*, scale="paper", alphas=(0.01, 0.025, 0.05, 0.1), n_runs=10):
    """Table 4 (the corrected 10 x 10 cv test at four levels) and its claims.

    Parameters
    ----------
    scale : {"paper", "quick", "smoke"}, keyword-only
    alphas : sequence of float, keyword-only
        Significance levels (the columns of Table 4); the claims compare each with 5%,
        which must be among them.
    n_runs : int, keyword-only
        Runs of 10-fold cv (10 in the paper).

    Returns
    -------
    Page
        Table ``"table4"``; reproduced ``table4``; claims ``claim_level``,
        ``claim_level_consistent``, ``claim_r90``.

    Examples
    --------
    >>> page = table4_page()  # the committed results
    >>> page.values["r_min"], page.values["n_r90"]
    (0.896, 11)
    """
    alphas = [check_alpha(a) for a in alphas]
    if 0.05 not in alphas:
        raise ValueError(f"`alphas` must contain 0.05, the level the claims compare with; got {alphas}.")
    n_runs = check_positive_int(n_runs, "n_runs")
    cv = uci_scheme_results("cv", scale=scale)
    m = int(cv.sizes["dataset"])
    table4 = long_measures([uci_test_outcomes(cv, "corrected_repeated_cv", n_runs=n_runs, alpha=a) for a in alphas],
                           "alpha", alphas)
    source = SOURCE.format(page="05_table4_significance", params=f"scale={scale}, n_runs={n_runs}")
    both = versus(read_published(PAPER, "table4"), table4, ["measure", "pair", "alpha"])
    claims = _table4_claims(table4, alphas, m)
    tables = {"table4": shown_grid(both.rename(columns={"value_published": "value"}),
                                   both.rename(columns={"value_reproduced": "value"}), "alpha", alphas)}
    return Page(claims, _table4_values(table4, both, alphas), summary_line(both, claims), tables,
                {"table4": table4.assign(source=source)}, {"figure": partial(_table4_figure, both, alphas)})
