"""Table 1 of Bouckaert (2004): Type I error, power and replicability of six sampling schemes and three tests.

:func:`table1_page` makes the page of notebook ``bouckaert2004/02_table1``:
:func:`table1` computes the table from the shared 10 x 10 cv experiment on the
four Bayesian-network sources (the fold counts of
:func:`~replicability.papers.shared.synthetic_runs.synthetic_fold_counts`, committed under
``data/results`` at paper scale), :func:`table1_claims` holds the claims of
Section 4 to the rules of :mod:`replicability.report.claims`, and the page's
figure draws the printed values beside ours.

References
----------
Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import check_choice
from ...report.claims import QUALIFIERS, Claims, comparison_summary
from ...report.page import Page, Table, plain
from ...report.tables import read_published
from ...report.uncertainty import paired_rate_difference_se, rate_difference_se, rate_se
from ..shared.readings import experiment_outcomes, outcome_summary
from ..shared.synthetic_runs import fold_differences, synthetic_fold_counts

__all__ = ["TABLE1_COLUMNS", "TABLE1_LABELS", "TABLE1_ROWS", "TABLE1_SIZES", "Table1", "table1", "table1_claims",
           "table1_differences", "table1_page"]

#: Data sets and randomizations per scale.
TABLE1_SIZES = {
    "smoke": {"n_datasets": 3, "n_repeats": 4},
    "quick": {"n_datasets": 100, "n_repeats": 10},
    "paper": {"n_datasets": 1000, "n_repeats": 10},
}
#: The rows of Table 1, (test, sampling scheme), in the paper's order.
TABLE1_ROWS = (("signed_rank", "resampling"), ("signed_rank", "cv"), ("signed_rank", "all"),
               ("signed_rank", "folds"), ("signed_rank", "runs"), ("signed_rank", "sorted_runs"),
               ("sign", "sorted_runs"), ("t", "sorted_runs"))
#: Printed names of the tests and schemes.
TABLE1_LABELS = {"resampling": "Resampling", "cv": "k-fold cv", "all": "Use all data", "folds": "Average over folds",
                 "runs": "Average over runs", "sorted_runs": "Average sorted runs", "signed_rank": "Rank sum test",
                 "sign": "Sign test", "t": "T-test"}
#: The columns of Table 1.
TABLE1_COLUMNS = ("source 1 Type I", "source 2 power", "source 3 power", "source 4 power", "min. norm. replicability")
_SOURCES = (1, 2, 3, 4)


@dataclass
class Table1:
    """Table 1 reproduced (see :func:`table1`)."""

    reproduced: pd.DataFrame
    both: pd.DataFrame
    summaries: dict
    n_datasets: int
    alpha: float
    outcomes: dict

    @property
    def order(self):
        """Row labels "test / scheme" in the paper's order."""
        return [f"{TABLE1_LABELS[t]} / {TABLE1_LABELS[s]}" for t, s in TABLE1_ROWS]

    def side_by_side(self, column):
        """Published, reproduced, our 95% half-width and the difference (percent) for one column of Table 1."""
        part = self.both[self.both["column"] == column].set_index("row").reindex(self.order)
        frame = pd.DataFrame({"published": part["value_pct_published"], "published ±": part["halfwidth_pct_published"],
                              "reproduced": part["value_pct_reproduced"], "±": part["halfwidth_pct_reproduced"],
                              "difference": part["difference"]})
        frame.columns = pd.MultiIndex.from_product([[column], frame.columns])
        return frame


def table1_differences(*, seed=0, scale="paper"):
    """Accuracy differences A - B (naive Bayes minus C4.5) of the shared 10 x 10 cv experiment.

    Returns
    -------
    ndarray, shape (4, n_datasets, n_repeats, 10, 10)
        (source, data set, randomization, run, fold).
    """
    check_choice(scale, "scale", tuple(TABLE1_SIZES))
    sizes = TABLE1_SIZES[scale]
    counts = [synthetic_fold_counts(f"source{i}", scheme="rxk_cv", scheme_params={"n_runs": 10, "n_folds": 10},
                                    seed=seed, scale=scale, n_jobs=1 if scale == "smoke" else None, **sizes)
              for i in _SOURCES]
    return np.stack([fold_differences(c) for c in counts])


def table1(*, seed=0, alpha=0.05, scale="paper"):
    """Table 1 of Bouckaert (2004) reproduced, beside the published values.

    Each row is a (test, sampling scheme) pair (``TABLE1_ROWS``):
    :func:`~replicability.papers.shared.readings.experiment_outcomes` on every 10 x 10
    cv matrix, :func:`~replicability.papers.shared.readings.outcome_summary` over data
    sets and randomizations, per source: the rejection rate (Type I error on source
    1, power on sources 2-4) and the minimum over the sources of the mean
    normalized replicability ``2 R̂2 - 1``, each with a 95% half-width.

    Parameters
    ----------
    seed : int
        Root seed of the shared experiment (0: the run shared with the 2003 notebooks).
    alpha : float
        Significance level of every test.
    scale : {"smoke", "quick", "paper"}
        Sizes of ``TABLE1_SIZES``; "paper" reads the committed results.

    Returns
    -------
    Table1
        ``reproduced`` is the page's ``table1.csv``; ``both`` sets it beside the published table.
    """
    d = table1_differences(seed=seed, scale=scale)
    summaries, outcomes, records = {}, {}, []
    for test, scheme in TABLE1_ROWS:
        outcomes[test, scheme] = experiment_outcomes(d, scheme=scheme, test=test, alpha=alpha)
        s = outcome_summary(outcomes[test, scheme])  # (source,)
        summaries[test, scheme] = s
        for k, i in enumerate(_SOURCES):
            records.append({"test": test, "scheme": scheme, "measure": "type1_error" if i == 1 else "power",
                            "data_source": str(i), "value_pct": 100 * s["rejection"][k],
                            "halfwidth_pct": 100 * s["rejection_halfwidth"][k]})
        worst = int(np.argmin(s["normalized_r2"]))
        records.append({"test": test, "scheme": scheme, "measure": "min_normalized_replicability",
                        "data_source": "min", "value_pct": 100 * s["normalized_r2"][worst],
                        "halfwidth_pct": 100 * s["normalized_r2_halfwidth"][worst]})
    reproduced = pd.DataFrame(records)
    reproduced["source"] = (f"computed by replicability.papers.bouckaert2004 (notebook bouckaert2004/02_table1, "
                            f"scale={scale}, seed={seed})")
    keys = ["test", "scheme", "measure", "data_source"]
    both = read_published("bouckaert2004", "table1").drop(columns="source").merge(
        reproduced.drop(columns="source"), on=keys, suffixes=("_published", "_reproduced"), validate="one_to_one")
    both["difference"] = both["value_pct_reproduced"] - both["value_pct_published"]
    both["column"] = np.where(both["data_source"] == "min", "min. norm. replicability",
                              np.where(both["data_source"] == "1", "source 1 Type I",
                                       "source " + both["data_source"] + " power"))
    both["row"] = both["test"].map(TABLE1_LABELS) + " / " + both["scheme"].map(TABLE1_LABELS)
    return Table1(reproduced, both, summaries, int(d.shape[1]), float(alpha), outcomes)


def _nr2(res, test, scheme):
    """Minimum normalized replicability over the sources (percent) and its standard error (from the 95% t interval)."""
    s = res.summaries[test, scheme]
    worst = int(np.argmin(s["normalized_r2"]))
    quantile = stats.t.ppf(0.975, res.n_datasets - 1)
    return 100 * float(s["normalized_r2"][worst]), 100 * float(s["normalized_r2_halfwidth"][worst]) / quantile


def table1_claims(res):
    """The claims of Bouckaert (2004), Section 4, on Table 1, held to the rules of :mod:`~replicability.report.claims`.

    Standard errors: a rejection rate over ``n`` data sets (the independent units;
    the ten randomizations of one data set share it) has
    ``rate_se(rate, n)``, at the claim's bound for a bound and at the measured
    rates for a comparison of two rates (``sqrt(se_1^2 + se_2^2)``); two schemes'
    rates on the same source, from the same data sets and randomizations, have the
    paired standard error of the per-data-set differences of their rejection rates
    over the randomizations; a mean
    normalized replicability has the standard error of its mean over the ``n``
    data sets (its 95% t half-width divided by ``t_{0.975}(n - 1)``).

    Parameters
    ----------
    res : Table1

    Returns
    -------
    tuple of (Claims, dict)
        The claims and the values to glue into the page (verdicts under the claim
        keys, the quoted numbers, and ``summary``).
    """
    n, alpha = res.n_datasets, res.alpha
    rate = {k: 100 * np.asarray(s["rejection"], dtype=float) for k, s in res.summaries.items()}
    rank = "signed_rank"
    type1 = {s: rate[rank, s][0] for _, s in TABLE1_ROWS[:6]}
    se_alpha = 100 * rate_se(alpha, n)
    c = Claims("bouckaert2004", "02_table1")
    src = "Section 4, Table 1"
    over = ["all", "folds", "runs"]
    c.at_least("claim_over_half", "Use all data, average over folds and average over runs: Type I error over 50%",
               src, value=[type1[s] for s in over], bound=50.0, se=100 * rate_se(0.5, n), unit="%", digits=1)
    c.greater("claim_elevated", "Resampling and 10-fold cv have an elevated Type I error", src,
              larger=[type1["resampling"], type1["cv"]], smaller=100 * alpha, se=se_alpha, unit="points", digits=1)
    c.at_most("claim_only_sorted", "Only sorted runs has an appropriate Type I error (at most the level)", src,
              value=type1["sorted_runs"], bound=100 * alpha, se=se_alpha, unit="%", digits=2)
    others = [s for s in type1 if s != "sorted_runs"]
    c.greater("claim_only_sorted_others", "... the other five schemes exceed the level", src,
              larger=[type1[s] for s in others], smaller=100 * alpha, se=se_alpha, unit="points", digits=1)

    sorted_power = rate[rank, "sorted_runs"][1:3]  # sources 2 and 3
    gaps = {s: np.min(rate[rank, s][1:3] - sorted_power) for s in others}
    most = sorted(others, key=lambda s: -gaps[s])[:3]  # "most": three of the five other schemes
    larger = np.array([rate[rank, s][1:3] for s in most]).ravel()  # claims judge flat arrays
    sorted_power = np.tile(sorted_power, len(most))
    rejects = {s: res.outcomes[rank, s][1:3] != 0 for s in [*most, "sorted_runs"]}  # (source, data set, repeat)
    power_se = np.concatenate([paired_rate_difference_se(rejects[s], rejects["sorted_runs"], axis=-2, repeat_axis=-1)
                               for s in most])
    c.greater("claim_power_cost", "Sorted runs pays with less power than most other schemes (here: three of five, "
              "on sources 2 and 3)", src, larger=larger, smaller=sorted_power,
              se=power_se, unit="points", digits=1)
    nr2 = {k: _nr2(res, *k) for k in res.summaries}
    low, high = ["resampling", "cv"], ["all", "folds", "runs", "sorted_runs"]
    c.at_most("claim_replicability", "Resampling and 10-fold cv have a normalized replicability below 50%", src,
              value=[nr2[rank, s][0] for s in low], bound=50.0, se=[nr2[rank, s][1] for s in low], unit="%", digits=1)
    c.at_least("claim_replicability_above", "... the repeated cv schemes above 50%", src,
               value=[nr2[rank, s][0] for s in high], bound=50.0, se=[nr2[rank, s][1] for s in high], unit="%",
               digits=1)
    c.at_least("claim_sorted_80", "Sorted runs has a normalized replicability over 80%", src,
               value=nr2[rank, "sorted_runs"][0], bound=80.0, se=nr2[rank, "sorted_runs"][1], unit="%", digits=1)
    close = np.concatenate([rate[t, "sorted_runs"] for t in ("sign", "t")])
    base = np.tile(rate[rank, "sorted_runs"], 2)
    margin = QUALIFIERS["close"][0]
    c.equivalent("claim_tests_close", "Sign and t-test on sorted runs: Type I error and power close to the rank test's "
                 f"(all four sources; close: within an equivalence margin of {margin:g} points)", src,
                 difference=close - base, se=rate_difference_se(close, n, base, n), margin=margin, unit="points",
                 digits=1)
    pair_se = np.hypot(nr2[rank, "sorted_runs"][1], nr2["sign", "sorted_runs"][1])
    c.greater("claim_test_order", "On sorted runs the sign test is considerably less replicable than the rank test",
              src, larger=nr2[rank, "sorted_runs"][0], smaller=nr2["sign", "sorted_runs"][0], se=pair_se,
              qualifier="considerably", unit="points", digits=2)
    c.greater("claim_t_above_rank", "... and the t-test slightly more", src, larger=nr2["t", "sorted_runs"][0],
              smaller=nr2[rank, "sorted_runs"][0], se=np.hypot(nr2[rank, "sorted_runs"][1], nr2["t", "sorted_runs"][1]),
              qualifier="slightly", unit="points", digits=2)
    values = {**c.verdicts(), "sorted_type1": round(float(type1["sorted_runs"]), 1),
              "sorted_min_nr2": round(nr2[rank, "sorted_runs"][0], 1),
              "sign_min_nr2": round(nr2["sign", "sorted_runs"][0], 1),
              "t_min_nr2": round(nr2["t", "sorted_runs"][0], 1),
              "runs_type1": round(float(type1["runs"]), 1), "n_datasets": n, "se_half": round(100 * rate_se(0.5, n), 2),
              "max_abs_difference": round(float(res.both["difference"].abs().max()), 1),
              "summary": comparison_summary(res.both["value_pct_published"], res.both["value_pct_reproduced"], c,
                                            digits=1)}
    return c, plain(values)


def _table1_figure(res):
    """The printed and the reproduced values of Table 1 side by side, one panel per column."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 5, figsize=(13, 3.6), sharey=True, layout="constrained")
    y = np.arange(len(res.order))[::-1]
    for ax, column in zip(axes, TABLE1_COLUMNS):
        part = res.side_by_side(column)[column]
        ax.scatter(part["published"], y + 0.12, marker="s", color="#7f7f7f", label="published", zorder=3)
        ax.errorbar(part["reproduced"], y - 0.12, xerr=part["±"], fmt="o", color="#1f77b4", label="reproduced",
                    zorder=3)
        ax.set_title(column, fontsize=9)
        ax.set_xlim(-5, 105)
        ax.grid(axis="x", alpha=0.3)
        if column == "source 1 Type I":
            ax.axvline(100 * res.alpha, color="#d62728", lw=0.8, ls="--")
    axes[0].set_yticks(y, res.order, fontsize=8)
    axes[0].legend(fontsize=8, loc="lower right")
    fig.supxlabel("percent")
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


#: The page's table names of the columns of Table 1.
_COLUMN_TABLES = dict(zip(("type1_source1", "power_source2", "power_source3", "power_source4", "min_replicability"),
                          TABLE1_COLUMNS))


def table1_page(*, seed=0, alpha=0.05, scale="paper"):
    """The page of notebook ``bouckaert2004/02_table1``: Table 1 beside the published values, and its claims.

    Parameters are those of :func:`table1`.

    Returns
    -------
    Page
        The claims of :func:`table1_claims` and the values the text quotes; one table
        per column of Table 1 (``type1_source1``, ``power_source2``, ``power_source3``,
        ``power_source4``, ``min_replicability``: published, reproduced, half-widths and
        difference, percent); the figure ``table1``; the reproduced table ``table1``.
    """
    res = table1(seed=seed, alpha=alpha, scale=scale)
    claims, values = table1_claims(res)
    tables = {name: Table(res.side_by_side(column), 1) for name, column in _COLUMN_TABLES.items()}
    return Page(claims, values, tables=tables, reproduced={"table1": res.reproduced},
                figures={"table1": partial(_table1_figure, res)})
