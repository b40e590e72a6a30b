"""The page of Table 5 of Bouckaert & Frank (2004): five tests on four synthetic sources.

:func:`table5_page` runs (or, at paper scale, reads the committed) experiments of
:func:`~replicability.papers.shared.synthetic_runs.synthetic_fold_counts` on the four
Bayesian-network sources, applies the five tests, and returns the page: the
accuracy gaps, the consistencies beside the printed ones, the figure and the
claims of Section 4.4.

Standard errors (:mod:`replicability.report.uncertainty`). A consistency is a rate
over the ``n`` data sets of a source (1000 at paper scale): ``rate_se`` with that
``n``, in percentage points, at the measured value; a comparison of two
consistencies takes ``difference_se`` (``sqrt(se_1² + se_2²)``). The accuracy gap
averages over the training sets (its standard error over them,
``ExpectedAccuracy.difference_se``) and is measured on one test set of 20,000
instances, whose error is bounded by treating the two accuracies as independent
rates (``sqrt(2) rate_se(0.5, 20000)``); the gap's standard error combines the two
by ``difference_se``. The paper's gap has the same design, so the difference of the
two has ``sqrt(2)`` times that error. The printed gaps have two decimals (rounding
0.005 points).

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

from ..._validation import check_alpha, check_choice
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table, beside, format_number
from ...report.tables import read_published
from ...report.uncertainty import difference_se, rate_se
from ...sources.bayesnet import load_bouckaert2003_networks
from ...stats.decisions import decide
from ...stats.ttests import (
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    dietterich_5x2cv_ttest,
    kfold_cv_ttest,
)
from ..shared.network_search import expected_accuracies
from ..shared.readings import outcome_summary
from ..shared.synthetic_runs import fold_differences, synthetic_fold_counts
from ..shared.uci_runs import PAPER

__all__ = ["SYNTHETIC_SIZES", "TABLE5_LABELS", "accuracy_gaps", "n_jobs_for", "table5_page", "table5_tests"]

#: Data sets per source and randomizations per data set, by scale (1000 x 10 in the paper).
SYNTHETIC_SIZES = {
    "smoke": {"n_datasets": 3, "n_repeats": 4},
    "quick": {"n_datasets": 100, "n_repeats": 10},
    "paper": {"n_datasets": 1000, "n_repeats": 10},
}
#: Training sets of the accuracy gap, by scale.
_ACCURACY_SETS = {"smoke": 20, "quick": 200, "paper": 1000}
#: Resampling splits per randomization (100 in the paper; fewer only for the smoke test).
_RESAMPLING_RUNS = {"smoke": 20, "quick": 100, "paper": 100}
#: Rows of Table 5 and their labels.
TABLE5_LABELS = {"delta_accuracy": "Δ accuracy", "5x2cv": "5x2 cv", "resampling_10": "10 x resampling",
                 "resampling_100": "100 x resampling", "cv_10": "10-fold cv",
                 "corrected_10x10cv": "corrected 10x10 fold cv"}
SOURCES = [1, 2, 3, 4]
N_INSTANCES = 300
N_TEST = 20_000


def n_jobs_for(scale):
    """Worker processes for a synthetic experiment: 1 at smoke scale, else the runner's default."""
    return 1 if scale == "smoke" else None


def _experiments(scale):
    return {
        "rxk_cv": {"scheme": "rxk_cv", "scheme_params": {"n_runs": 10, "n_folds": 10}},
        "resample": {"scheme": "resample", "scheme_params": {"n_runs": _RESAMPLING_RUNS[scale], "test_size": 0.1}},
        "5x2": {"scheme": "5x2", "scheme_params": {"stratified": True}},
    }


def table5_tests(*, scale="paper", seed=0):
    """The five tests of Table 5 on every (source, data set, randomization).

    Parameters
    ----------
    scale : {"paper", "quick", "smoke"}, keyword-only
        Sizes of :data:`SYNTHETIC_SIZES` ("paper": the committed results).
    seed : int, keyword-only
        Root seed of every experiment (0 is the committed one).

    Returns
    -------
    dict of str to TestResult
        Keys of :data:`TABLE5_LABELS` but ``"delta_accuracy"``; each result has shape
        (source, data set, randomization).

    Examples
    --------
    >>> tests = table5_tests()  # the committed results
    >>> tests["corrected_10x10cv"].statistic.shape
    (4, 1000, 10)
    """
    scale = check_choice(scale, "scale", tuple(SYNTHETIC_SIZES))
    sizes = SYNTHETIC_SIZES[scale]
    counts = {(name, i): synthetic_fold_counts(f"source{i}", seed=seed, scale=scale, n_jobs=n_jobs_for(scale),
                                               **spec, **sizes)
              for name, spec in _experiments(scale).items() for i in SOURCES}
    # Accuracy differences A - B, stacked over sources: (source, dataset, repeat, run, fold).
    d = {name: np.stack([fold_differences(counts[name, i]) for i in SOURCES]) for name in _experiments(scale)}
    n_test = {name: int(counts[name, 1]["n_test"].values.max()) for name in d}
    n_train = {name: N_INSTANCES - n for name, n in n_test.items()}
    return {
        "5x2cv": dietterich_5x2cv_ttest(d["5x2"]),
        "resampling_10": corrected_resampled_ttest(d["resample"][..., :10, 0], n_train=n_train["resample"],
                                                   n_test=n_test["resample"]),
        "resampling_100": corrected_resampled_ttest(d["resample"][..., :, 0], n_train=n_train["resample"],
                                                    n_test=n_test["resample"]),
        "cv_10": kfold_cv_ttest(d["rxk_cv"][..., 0, :]),
        "corrected_10x10cv": corrected_repeated_cv_ttest(d["rxk_cv"], n_train=n_train["rxk_cv"],
                                                         n_test=n_test["rxk_cv"]),
    }


def accuracy_gaps(*, scale="paper", seed=0):
    """Δ accuracy per source: C4.5 minus naive Bayes (points), on a 20,000-instance test set and exactly.

    Returns
    -------
    pandas.DataFrame
        Index ``data_source`` ("1".."4"); columns ``test_set_gap_pct``,
        ``exact_gap_pct``, ``exact_gap_se_pct`` and ``test_set_gap_se_pct`` (the
        bound of the module description).

    Examples
    --------
    Source 1 has no arrows: every learner has accuracy 1/2, exactly; the gaps of the
    others grow from source 2 to 4 (printed 2.77, 5.83 and 11.27 points).

    >>> gaps = accuracy_gaps(scale="smoke")
    >>> float(gaps.loc["1", "exact_gap_pct"]), bool(gaps["exact_gap_pct"].is_monotonic_increasing)
    (0.0, True)
    """
    scale = check_choice(scale, "scale", tuple(SYNTHETIC_SIZES))
    networks, _ = load_bouckaert2003_networks()
    rows = []
    for i in SOURCES:
        acc = expected_accuracies(networks[i], n_train=N_INSTANCES, n_train_sets=_ACCURACY_SETS[scale], n_test=N_TEST,
                                  rng=seed + i)
        rows.append({"data_source": str(i), "test_set_gap_pct": 100 * (acc.test_c45 - acc.test_naive_bayes),
                     "exact_gap_pct": 100 * acc.difference, "exact_gap_se_pct": 100 * acc.difference_se,
                     "test_set_gap_se_pct": 100 * float(difference_se(acc.difference_se,
                                                                      np.sqrt(2) * rate_se(0.5, N_TEST)))})
    return pd.DataFrame(rows).set_index("data_source")


def _table5_reproduced(gaps, summaries, scale, seed):
    """Table 5 as written: the accuracy gaps, then each test's consistency per source and its minimum (%)."""
    records = [{"row": "delta_accuracy", "data_source": str(i), "value_pct": gaps.loc[str(i), "test_set_gap_pct"]}
               for i in SOURCES]
    for name, s in summaries.items():
        records += [{"row": name, "data_source": str(i), "value_pct": 100 * s["consistency"][k]}
                    for k, i in enumerate(SOURCES)]
        records.append({"row": name, "data_source": "min", "value_pct": 100 * s["consistency"].min()})
    reproduced = pd.DataFrame(records)
    reproduced["source"] = (f"computed by replicability (notebook bouckaert_frank2004/01_table5_synthetic, "
                            f"scale={scale}, seed={seed})")
    return reproduced


def _versus_published(reproduced):
    """Published and reproduced cells side by side, and both as (row label) x source tables."""
    published = read_published(PAPER, "table5")
    both = published.drop(columns="source").merge(reproduced.drop(columns="source"), on=["row", "data_source"],
                                                  suffixes=("_published", "_reproduced"), validate="one_to_one")
    both["difference"] = both["value_pct_reproduced"] - both["value_pct_published"]
    wide = []
    for column in ("value_pct_published", "value_pct_reproduced"):
        frame = both.pivot(index="row", columns="data_source", values=column).reindex(
            index=list(TABLE5_LABELS), columns=["1", "2", "3", "4", "min"])
        frame.index = frame.index.map(TABLE5_LABELS)
        frame.index.name = "row"
        wide.append(frame)
    return both, *wide


def _consistency_se(values, n):
    """Standard error (points) of consistencies in percent over ``n`` data sets."""
    return 100 * rate_se(np.clip(np.asarray(values, float) / 100, 0, 1), n)


def _consistency_claims(claims, cons, n):
    """The claims of Section 4.4 on the consistencies of Table 5."""
    def dse(a, b):
        return difference_se(_consistency_se(a, n), _consistency_se(b, n))

    low = ["5x2cv", "resampling_10", "cv_10"]
    best = min(cons["resampling_100"].min(), cons["corrected_10x10cv"].min())
    low_min = np.array([cons[name].min() for name in low])
    claims.greater("claim_low", "Again, 5x2 cross validation, 10 times resampling, and 10 fold cross validation "
                   "show rather low consistency. (Read: the minimum over the sources of each below the minimum of "
                   "100 x resampling and of corrected 10 x 10 cv.)", "Section 4.4, Table 5, column 'min.'",
                   larger=np.full(3, best), smaller=low_min, se=dse(np.full(3, best), low_min), unit="points", digits=1)
    def step(a, b):  # consistency of ``a`` and ``b`` on every source and in the minimum
        return np.r_[cons[b], cons[b].min()], np.r_[cons[a], cons[a].min()]

    larger, smaller = step("resampling_10", "resampling_100")
    claims.greater("claim_order", "Replicability increases dramatically with 100 times resampling ... (Read: "
                   "consistency of 100 x resampling above that of 10 x resampling by the minimum effect of "
                   "'dramatically', on every source and in the minimum.)", "Section 4.4, Table 5",
                   larger=larger, smaller=smaller, se=dse(larger, smaller), qualifier="dramatically", unit="points",
                   digits=1)
    larger, smaller = step("resampling_100", "corrected_10x10cv")
    claims.greater("claim_order_further", "... and increases even further when performing 10 times repeated 10 fold "
                   "cross validation. (Read: consistency of corrected 10 x 10 cv above that of 100 x resampling, on "
                   "every source and in the minimum.)", "Section 4.4, Table 5",
                   larger=larger, smaller=smaller, se=dse(larger, smaller), unit="points", digits=1)
    rest = [name for name in cons if name != "5x2cv"]
    easy = np.array([min(cons[name][0], cons[name][3]) for name in rest])
    hard = np.array([max(cons[name][1], cons[name][2]) for name in rest])
    claims.greater("claim_sources_1_4", "Table 5 shows that the tests have fewer problems with data sources 1 and 4 "
                   "(apart from the 5 x 2 cv test), where it is easy to decide whether the two schemes differ. (Read: "
                   "for each test but 5x2 cv, its consistency on sources 1 and 4 above that on sources 2 and 3.)",
                   "Section 4.4, Table 5", larger=easy, smaller=hard, se=dse(easy, hard), unit="points", digits=1)
    others = cons["5x2cv"][:3].min()
    claims.greater("claim_5x2_source4", "The 5 x 2 test has problems with data source 4 because it is a rather "
                   "conservative test. (Read: its consistency on source 4 below that on sources 1-3.)",
                   "Section 4.4, Table 5, row '5x2 cv'", larger=others, smaller=cons["5x2cv"][3],
                   se=dse(others, cons["5x2cv"][3]), unit="points", digits=1)


def _table5_claims(both, gaps, cons, n):
    """The claims of Section 4.4: the accuracy gaps, then the consistencies."""
    claims = Claims(PAPER, "01_table5_synthetic")
    printed = both[both["row"] == "delta_accuracy"].set_index("data_source").loc[[str(i) for i in SOURCES]]
    claims.close_to("claim_gap", "The average difference in accuracy is shown in Table 5 in the row marked Δ "
                    "accuracy, and it ranges from 0% to 11.27%. (Read: each source's gap equal to the printed one.)",
                    "Section 4.4, Table 5, row 'Δ accuracy'", value=gaps["test_set_gap_pct"].to_numpy(),
                    published=printed["value_pct_published"].to_numpy(),
                    se=np.sqrt(2) * gaps["test_set_gap_se_pct"].to_numpy(), rounding=0.005, unit="points")
    _consistency_claims(claims, cons, n)
    return claims


def _other_measures(summaries):
    """Almost consistency, normalized replicability and rejection rate (%) of each test per source, as shown."""
    labels = [TABLE5_LABELS[name] for name in summaries]
    return pd.concat({
        measure: pd.DataFrame({label: [format_number(100 * v, 1) for v in s[key]]
                               for label, s in zip(labels, summaries.values())},
                              index=pd.Index(SOURCES, name="source")).T
        for measure, key in [("almost consistency", "almost_consistency"),
                             ("normalized replicability", "normalized_r2"), ("rejection rate", "rejection")]
    }, axis=0)


def _table5_summary(both, claims):
    """The page's first line: consistencies and accuracy gaps compared, then the claims."""
    body = both[both["row"] != "delta_accuracy"]
    summary = comparison_summary(body["value_pct_published"], body["value_pct_reproduced"], digits=1)
    summary = summary.replace("cells compared", "consistencies compared") + " points"
    gap = both[both["row"] == "delta_accuracy"]
    gap_line = comparison_summary(gap["value_pct_published"], gap["value_pct_reproduced"]).replace(
        "cells compared", "sources compared")
    return f"{summary}; Δ accuracy: {gap_line} points; {claims.summary()}"


def _table5_figure(pub, rep, gaps, labels):
    """Consistency per source of each test, reproduced (filled) and published (hollow)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.8), layout="constrained")
    colours = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e"]
    for label, colour in zip(labels, colours):
        ax.plot(SOURCES, rep.loc[label, ["1", "2", "3", "4"]].to_numpy(float), "o-", color=colour, label=label)
        ax.plot(SOURCES, pub.loc[label, ["1", "2", "3", "4"]].to_numpy(float), "o--", color=colour, mfc="none",
                alpha=0.7)
    ax.plot([], [], "o-", color="black", label="reproduced")
    ax.plot([], [], "o--", color="black", mfc="none", alpha=0.7, label="published")
    ax.set_xticks(SOURCES, [f"{i}\nΔ {gaps.loc[str(i), 'test_set_gap_pct']:.2f}" for i in SOURCES])
    ax.set_xlabel("data source (Δ accuracy, C4.5 − naive Bayes, %)")
    ax.set_ylabel("consistency (%)")
    ax.set_ylim(0, 102)
    ax.legend(fontsize=8, loc="lower left")
    return fig


def table5_page(*, scale="paper", seed=0, alpha=0.05):
    """Table 5 of Bouckaert & Frank (2004): accuracy gaps, consistencies, claims of Section 4.4.

    Parameters
    ----------
    scale : {"paper", "quick", "smoke"}, keyword-only
    seed : int, keyword-only
        Root seed of every experiment (0: the committed one, shared with other notebooks).
    alpha : float, keyword-only
        Level of every test (5% in the paper).

    Returns
    -------
    Page
        Tables ``"gaps"``, ``"table5"``, ``"other_measures"``; reproduced ``table5``;
        claims ``claim_gap``, ``claim_low``, ``claim_order``, ``claim_sources_1_4``,
        ``claim_5x2_source4``.

    Examples
    --------
    >>> page = table5_page()  # the committed results
    >>> page.values["best_min"]
    73.3
    """
    alpha = check_alpha(alpha)
    gaps = accuracy_gaps(scale=scale, seed=seed)
    summaries = {name: outcome_summary(decide(res, alpha=alpha))
                 for name, res in table5_tests(scale=scale, seed=seed).items()}
    reproduced = _table5_reproduced(gaps, summaries, scale, seed)
    both, pub, rep = _versus_published(reproduced)
    cons = {name: 100 * np.asarray(s["consistency"], float) for name, s in summaries.items()}
    claims = _table5_claims(both, gaps, cons, SYNTHETIC_SIZES[scale]["n_datasets"])
    body = both[both["row"] != "delta_accuracy"]
    values = {"max_abs_difference": round(float(body["difference"].abs().max()), 1),
              "best_min": round(float(cons["corrected_10x10cv"].min()), 1)}
    digits = pd.Series([2] + [1] * 5, index=pub.index)
    tables = {"gaps": Table(gaps.apply(lambda col: col.map(lambda v: format_number(v, 2)))),
              "table5": Table(beside(pub, rep, digits=digits)), "other_measures": Table(_other_measures(summaries))}
    figure = partial(_table5_figure, pub, rep, gaps, [TABLE5_LABELS[name] for name in summaries])
    return Page(claims, values, _table5_summary(both, claims), tables, {"table5": reproduced}, {"figure": figure})
