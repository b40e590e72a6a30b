"""The pages of Tables 1-4 of Bouckaert & Frank (2004): the tests on 27 UCI data sets.

Each ``table*_page`` function computes one notebook page from the committed
per-fold results (:func:`~replicability.papers.shared.uci_runs.uci_scheme_results`):
the reproduced table, the published one beside it, the figure and the claims of
the paper's text, judged by the rules of :mod:`replicability.report.claims`.

Standard errors (one rule for every claim of these pages). A count of data sets
(consistent, almost consistent) is a rate over the ``m`` data sets (27 at paper
scale): its standard error is :func:`~replicability.report.uncertainty.rate_se` with
``n = m``, in percent of the data sets. The replicability ``R`` is a mean over
the ``m`` data sets of values in [0, 1] whose variance is at most ``R (1 - R)``,
so ``rate_se(R, m)`` bounds its standard error. A claim against a fixed bound
takes the standard error at the bound; a comparison of two measured values takes
the standard error of their difference, ``sqrt(se_1² + se_2²)``, each at its
measured value (the two are treated as independent, which overstates the error
when they share data sets and splits). Printed values are compared with the
rounding of :func:`~replicability.report.claims.comparison_summary` (none: the
tables print counts and three decimals of ``R``, and the claims quote no number
of the tables).

References
----------
Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of significance
tests for comparing learning algorithms. PAKDD 2004, LNAI 3056, 3-12.
https://doi.org/10.1007/978-3-540-24775-3_3
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ..._validation import check_alpha, check_positive_int
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table, beside, format_number
from ...report.tables import read_published
from ...report.uncertainty import difference_se, percent_se, rate_se
from ...sources.uci import list_uci
from ..shared.uci_outcomes import PAIR_LABELS, consistency_table, draw_counts, uci_test_outcomes
from ..shared.uci_runs import PAPER, uci_scheme_results
from .weka_resampling import read_weka_resampling, resampling_agreement

__all__ = ["table1_page", "table2_page"]

PAIRS = list(PAIR_LABELS.values())
MEASURES = ["consistent", "almost_consistent", "R"]
_DIGITS = pd.Series({"consistent": 0, "almost_consistent": 0, "R": 3})
_SOURCE = "computed by replicability (notebook bouckaert_frank2004/{page}, {params})"


def _long(outcomes, dim, values):
    """Consistent, almost consistent and R per pair and ``dim`` value, as rows (measure, pair, dim, value)."""
    table = consistency_table(xr.concat(outcomes, dim=pd.Index(values, name=dim)))
    table = table.rename(index=PAIR_LABELS, level="pair")
    long = table[MEASURES].reset_index().melt(id_vars=[dim, "pair"], var_name="measure", value_name="value")
    return long[["measure", "pair", dim, "value"]]


def _versus(published, reproduced, keys):
    both = published.drop(columns="source").merge(reproduced, on=keys, suffixes=("_published", "_reproduced"),
                                                  validate="one_to_one")
    both["difference"] = both["value_reproduced"] - both["value_published"]
    return both


def _grid(long, column, dim, values):
    """A (pair, measure) x ``dim`` table of ``column`` from a long table."""
    wide = long.pivot(index=["pair", "measure"], columns=dim, values=column)
    index = pd.MultiIndex.from_product([[p for p in PAIRS if p in set(long["pair"])], MEASURES],
                                       names=["pair", "measure"])
    return wide.reindex(index=index, columns=list(values))


def _shown_grid(published, ours, dim, values, labels=("published", "ours", "difference")):
    pub, rep = _grid(published, "value", dim, values), _grid(ours, "value", dim, values)
    digits = pd.Series([_DIGITS[m] for _, m in pub.index], index=pub.index)
    return Table(beside(pub, rep, digits=digits, labels=labels))


def _summary(both, claims, key="measure"):
    """Counts and R compared separately (different units), then the claims."""
    counts, r = both[both[key] != "R"], both[both[key] == "R"]
    text = comparison_summary(counts["value_published"], counts["value_reproduced"], digits=2)
    text = text.replace("cells compared", "counts compared") + " data sets"
    if len(r):
        text += "; " + comparison_summary(r["value_published"], r["value_reproduced"], digits=3).replace(
            "cells compared", "values of R compared")
    return f"{text}; {claims.summary()}"


def _r_figure(series, xvalues, xlabel, *, log=True, line=None):
    """R against ``xvalues`` per pair: published (hollow, dashed) beside the reproduced series."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(10, 3.4), sharey=True, layout="constrained")
    styles = [dict(marker="o", ls="--", mfc="none", color="black"), dict(marker="o", ls="-", color="#d95f02"),
              dict(marker="x", ls=":", color="#7570b3")]
    for ax, pair in zip(axes, PAIRS):
        for (label, values), style in zip(series.items(), styles):
            y = values.get(pair)
            if y is not None:
                ax.plot(list(y.index), y.to_numpy(dtype=float), label=label, **style)
        if line is not None:
            ax.axhline(line, color="grey", lw=0.8)
        if log:
            ax.set_xscale("log")
        ax.set_xticks(list(xvalues), [str(v) for v in xvalues])
        ax.set_title(pair)
        ax.set_xlabel(xlabel)
    axes[0].set_ylabel("replicability R")
    axes[0].legend(fontsize=8)
    return fig


def _r_series(long, column, dim):
    rows = long[long["measure"] == "R"]
    return {pair: rows[rows["pair"] == pair].set_index(dim)[column].sort_index() for pair in PAIRS}


# --------------------------------------------------------------------------- #
# Table 1: 5x2cv
# --------------------------------------------------------------------------- #
def table1_page(*, scale="paper", alpha=0.05):
    """Table 1 (5x2cv paired t-test on 27 UCI data sets): draws, bottom rows, claims of Section 4.1.

    Parameters
    ----------
    scale : {"paper", "quick", "smoke"}, keyword-only
        Of :func:`~replicability.papers.shared.uci_runs.uci_scheme_results` ("paper": the
        committed 27 data sets x 10 randomizations).
    alpha : float, keyword-only
        Level of the test (5% in the paper).

    Returns
    -------
    Page
        Tables ``"properties"``, ``"draws"``, ``"bottom"``, ``"other_measures"``;
        reproduced ``table1``; claims ``claim_consistent_half``, ``claim_almost_66``,
        ``claim_r_low``, ``claim_vehicle``, ``claim_iris_hungarian``, ``claim_mixed``.

    Examples
    --------
    >>> page = table1_page()  # the committed results
    >>> page.values["body_exact"], page.values["body_cells"]
    (55, 81)
    """
    alpha = check_alpha(alpha)
    manifest = list_uci().set_index("dataset")
    results = uci_scheme_results("5x2", scale=scale)
    outcomes = uci_test_outcomes(results, "5x2cv", alpha=alpha)
    n_repeats = int(results.sizes["repeat"])
    draws = draw_counts(outcomes).to_pandas().rename(columns=PAIR_LABELS)
    draws.index = manifest.loc[draws.index, "paper_name"].to_numpy()
    table = consistency_table(outcomes).rename(index=PAIR_LABELS)
    records = [{"row": name, "pair": pair, "value": int(draws.loc[name, pair])}
               for pair in PAIRS for name in draws.index]
    records += [{"row": measure, "pair": pair, "value": table.loc[pair, measure]}
                for measure in MEASURES for pair in PAIRS]
    reproduced = pd.DataFrame(records)
    reproduced["source"] = _SOURCE.format(page="02_table1_5x2cv", params=f"scale={scale}, alpha={alpha}")
    published = read_published(PAPER, "table1")
    both = _versus(published, reproduced.drop(columns="source"), ["row", "pair"])
    body = both[~both["row"].isin(MEASURES)]

    order = [name for name in published["row"].unique() if name in set(body["row"])]
    body_pub = body.pivot(index="row", columns="pair", values="value_published").reindex(index=order, columns=PAIRS)
    body_rep = body.pivot(index="row", columns="pair", values="value_reproduced").reindex(index=order, columns=PAIRS)
    shown_body = beside(body_pub[PAIRS], body_rep[PAIRS], digits=0)
    shown_body.index.name = "dataset"
    bottom = both[both["row"].isin(MEASURES)]
    bottom_pub = bottom.pivot(index="row", columns="pair", values="value_published").reindex(index=MEASURES,
                                                                                            columns=PAIRS)
    bottom_rep = bottom.pivot(index="row", columns="pair", values="value_reproduced").reindex(index=MEASURES,
                                                                                             columns=PAIRS)
    three = consistency_table(outcomes, directional=True).rename(index=PAIR_LABELS)
    other = pd.DataFrame({"normalized R": table["normalized_R"].map(format_number),
                          "R (3 outcomes)": three["R"].map(format_number),
                          "consistent (3 outcomes)": three["consistent"].map(lambda v: format_number(v, 0)),
                          "data sets": table["n_datasets"].map(lambda v: format_number(v, 0))})

    props = read_published(PAPER, "table1_properties").drop(columns="source").set_index("dataset")
    ours = manifest.reset_index().set_index("paper_name")
    props = pd.DataFrame({"instances": props["instances"], "instances (ours)": ours["instances"],
                          "attributes": props["attributes"], "attributes (ours)": ours["attributes"],
                          "classes": props["classes"], "classes (ours)": ours["observed_classes"]}).loc[props.index]
    n_props_equal = int(((props["instances"] == props["instances (ours)"])
                         & (props["attributes"] == props["attributes (ours)"])
                         & (props["classes"] == props["classes (ours)"])).sum())

    m = len(draws)
    nb_c45 = draws["NB vs C4.5"]
    has_both = (outcomes == 1).any("repeat") & (outcomes == -1).any("repeat")
    mixed = draw_counts(outcomes).where(has_both).values
    mixed = mixed[~np.isnan(mixed)]
    always_draw = [name for name in draws.index if (draws.loc[name] == n_repeats).all()]
    never = ["iris", "Hungarian heart disease"]
    claims = Claims(PAPER, "02_table1_5x2cv")
    src = "Section 4.1, Table 1"
    claims.at_most("claim_consistent_half", "For any of the compared schemes, less than 50% of the results turn "
                   "out to be consistent.", f"{src}, row 'consistent'", value=100 * table["consistent"] / m,
                   bound=50, se=percent_se(m / 2, m), unit="% of data sets", digits=1)
    claims.at_most("claim_almost_66", "The 5x2 cross validation test is almost consistent in fewer than 66% of "
                   "the cases.", f"{src}, row 'almost consistent'", value=100 * table["almost_consistent"] / m,
                   bound=66, se=percent_se(0.66 * m, m), unit="% of data sets", digits=1)
    claims.at_most("claim_r_low", "The replicability values are pretty low considering that R cannot be smaller "
                   "than 0.5. (Read: R below 0.85, between the printed 0.737-0.816 and the 0.9 the paper calls "
                   "very good replicability in Section 4.3.)", f"{src}, row 'replicability (R)'",
                   value=table["R"], bound=0.85, se=rate_se(np.clip(0.85, 0, 1), m), digits=3)
    claims.exactly("claim_vehicle", "This test could be used to justify the claim that the two [NB and C4.5] "
                   "perform the same for all datasets except the vehicle dataset just by choosing appropriate "
                   "random number seeds.", f"{src}, column 'NB vs C4.5'",
                   condition=bool("vehicle" in nb_c45.index and nb_c45.get("vehicle") == 0
                                  and (nb_c45.drop("vehicle", errors="ignore") > 0).all()),
                   measured=f"vehicle: {format_number(nb_c45.get('vehicle', np.nan), 0)} draws; other data sets "
                            f"with 0 draws: {int((nb_c45.drop('vehicle', errors='ignore') == 0).sum())}",
                   rule="0 draws on vehicle, at least 1 on every other data set")
    claims.exactly("claim_iris_hungarian", "For some rows, the test consistently indicates no difference between "
                   "any two of the three schemes, in particular for the iris and Hungarian heart disease "
                   "datasets.", f"{src}, rows 'iris' and 'Hungarian heart disease'",
                   condition=all(name in always_draw for name in never),
                   measured="rows with 10 draws for every pair: " + (", ".join(always_draw) or "none"),
                   rule="iris and Hungarian heart disease have 10 draws for every pair")
    claims.exactly("claim_mixed", "It is possible that ... sometimes A is preferred and sometimes B ... this only "
                   "happens when the null hypothesis is accepted most of the time, except for 2 or 3 runs.",
                   src, condition=bool(np.all(mixed >= n_repeats - 3)),
                   measured=f"{len(mixed)} data set and pair combinations with both directions; their draws: "
                            + (", ".join(format_number(v, 0) for v in sorted(mixed)) or "none"),
                   rule=f"draws >= {n_repeats - 3} wherever both directions occur")

    def plot():
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 3, figsize=(10, 5.5), sharey=True, layout="constrained")
        ypos = np.arange(len(order))[::-1]
        for ax, pair in zip(axes, PAIRS):
            ax.plot(body_pub[pair], ypos, "o", mfc="none", color="black", label="published")
            ax.plot(body_rep[pair], ypos, "o", color="#d95f02", alpha=0.8, label="reproduced")
            ax.set_title(pair)
            ax.set_xlim(-0.5, n_repeats + 0.5)
            ax.set_xlabel(f"draws out of {n_repeats}")
            ax.grid(axis="x", alpha=0.3)
        axes[0].set_yticks(ypos, order, fontsize=8)
        axes[0].legend(fontsize=8, loc="lower left")
        return fig

    values = {
        "n_props_equal": n_props_equal, "n_nb_c45_reject": int((nb_c45 < n_repeats).sum()),
        "always_draw": ", ".join(always_draw) or "none", "n_mixed": int(has_both.sum()),
        "body_exact": int((body["difference"] == 0).sum()), "body_within1": int((body["difference"].abs() <= 1).sum()),
        "body_cells": len(body), "body_mad": round(float(body["difference"].abs().mean()), 2),
    }
    for pair, key in zip(PAIRS, ["nbc45", "nbnn", "c45nn"]):
        values[f"cons_{key}"] = int(table.loc[pair, "consistent"])
        values[f"r_{key}"] = round(float(table.loc[pair, "R"]), 3)
    tables = {"properties": Table(props), "draws": Table(shown_body),
              "bottom": Table(beside(bottom_pub, bottom_rep, digits=_DIGITS)),
              "other_measures": Table(other)}
    return Page(claims, values, _summary(both, claims, key="row"), tables, {"table1": reproduced},
                {"figure": plot})


# --------------------------------------------------------------------------- #
# Table 2: corrected resampled t-test
# --------------------------------------------------------------------------- #
def _resampling_long(scheme, runs, scale, alpha):
    results = uci_scheme_results(scheme, scale=scale)
    usable = [m for m in runs if m <= results.sizes["run"]]
    outcomes = [uci_test_outcomes(results, "corrected_resampled", n_runs=m, alpha=alpha) for m in usable]
    return _long(outcomes, "n_runs", usable), int(results.sizes["dataset"])


def _steps(long, dim, values, measures):
    rep = long.set_index(["measure", "pair", dim])["value"]
    pairs = [p for p in PAIRS if p in set(long["pair"])]
    return [(measure, pair, a, b, rep[measure, pair, a], rep[measure, pair, b])
            for measure in measures for pair in pairs for a, b in zip(values, values[1:])]


def _claim_increase(claims, key, statement, source, long, dim, values, m):
    """R at each column at least R at the previous one, within the standard error of the step."""
    steps = _steps(long, dim, values, ["R"])
    before, after = np.array([s[4] for s in steps]), np.array([s[5] for s in steps])
    return claims.at_least(key, statement, source, value=after, bound=before,
                           se=difference_se(rate_se(np.clip(before, 0, 1), m), rate_se(np.clip(after, 0, 1), m)),
                           digits=3)


def _stratification_claim(claims, key, unstrat, strat, m, runs, what):
    """Consistent, almost consistent (fractions of the data sets) and R equal with and without stratification."""
    s = unstrat.merge(strat, on=["measure", "pair", "n_runs"], suffixes=("_plain", "_stratified")).set_index(
        ["measure", "pair", "n_runs"])
    is_r = s.index.get_level_values("measure") == "R"
    frac = np.where(is_r, 1.0, 1.0 / m)
    se = np.where(is_r, difference_se(rate_se(np.clip(s["value_plain"], 0, 1), m),
                                      rate_se(np.clip(s["value_stratified"], 0, 1), m)),
                  difference_se(percent_se(s["value_plain"], m), percent_se(s["value_stratified"], m)) / 100)
    return claims.close_to(key, "We performed an experiment where resampling was done with stratification. The "
                           "replicability scores differed only very slightly from the ones shown in Table 2. (Read: "
                           "consistent and almost consistent, as fractions of the data sets, and R of stratified "
                           f"resampling ({what}) equal to unstratified resampling for {', '.join(map(str, runs))} "
                           "runs, within the standard error of their difference.)", "Section 4.3",
                           value=s["value_stratified"].to_numpy() * frac, published=s["value_plain"].to_numpy() * frac,
                           se=se, rounding=0.0, digits=3)


def table2_page(*, scale="paper", alpha=0.05, runs=(10, 20, 50, 100)):
    """Table 2 (corrected resampled t-test) on Weka's Experimenter splits, and the stratified check of Section 4.3.

    The table is computed on the splits of Weka's Experimenter (``"resample_weka"``:
    ``RandomSplitResultProducer``, which stratifies each 90/10 split); our own unstratified
    random splits (``"resample"``) are a second randomization and the unstratified side of
    the stratification check, which thus covers every number of runs; our own stratified
    splits (``"resample_stratified"``, 20 runs) are a second stratified check.

    Parameters
    ----------
    scale : {"paper", "quick", "smoke"}, keyword-only
    alpha : float, keyword-only
    runs : sequence of int, keyword-only
        Numbers of resampling runs (the columns of Table 2).

    Returns
    -------
    Page
        Tables ``"table2"``, ``"stratified"`` (Weka's stratified splits against our
        unstratified ones), ``"stratified_ours"`` (our stratified splits against our
        unstratified ones), ``"decreases"`` and ``"weka_agreement"`` (per-run counts and
        test decisions against real Weka's, repeat 0, both kinds of splits, on the data
        sets of the scale); reproduced ``table2``, ``table2_own_splits`` and ``table2_stratified``;
        claims ``claim_increase``, ``claim_100``, ``claim_100_r``, ``claim_stratified``,
        ``claim_stratified_ours``.

    Examples
    --------
    >>> page = table2_page()  # the committed results
    >>> page.values["weka_runs_before"], page.values["weka_decisions_before"]
    ('1336/8100', '78/81')
    """
    alpha = check_alpha(alpha)
    runs = [check_positive_int(r, "runs") for r in runs]
    plain, m = _resampling_long("resample_weka", runs, scale, alpha)
    own, _ = _resampling_long("resample", runs, scale, alpha)
    stratified, _ = _resampling_long("resample_stratified", runs, scale, alpha)
    source = _SOURCE.format(page="03_table2_resampling", params=f"scale={scale}, alpha={alpha}")
    reproduced = {"table2": plain.assign(source=source + ", Weka's Experimenter splits"),
                  "table2_own_splits": own.assign(source=source + ", our own unstratified random splits"),
                  "table2_stratified": stratified.assign(source=source + ", our own stratified splits")}
    both = _versus(read_published(PAPER, "table2"), plain, ["measure", "pair", "n_runs"])
    strat_runs = sorted(stratified["n_runs"].unique())
    steps = _steps(plain, "n_runs", runs, MEASURES)
    decreases = pd.DataFrame([s[:4] for s in steps if s[5] < s[4]],
                             columns=["measure", "pair", "from runs", "to runs"])

    claims = Claims(PAPER, "03_table2_resampling")
    _claim_increase(claims, "claim_increase", "The replicability increases with the number of runs almost "
                    "everywhere. (Read: R at each number of runs at least R at the previous one.)",
                    "Section 4.2, Table 2", plain, "n_runs", runs, m)
    rep = plain.set_index(["measure", "pair", "n_runs"])["value"]
    last = runs[-1]
    almost_last = np.array([rep["almost_consistent", p, last] for p in PAIRS])
    r_last = np.array([rep["R", p, last] for p in PAIRS])
    claims.at_least("claim_100", "Overall, the replicability becomes reasonably acceptable when the number of runs "
                    "is 100. In this case 80% of the results are 'almost consistent' (read: for every pair)",
                    f"Section 4.2, Table 2, column {last}", value=100 * almost_last / m, bound=80,
                    se=percent_se(0.8 * m, m), unit="% of data sets", digits=1)
    claims.at_least("claim_100_r", "... and the value of the replicability measure R is approximately 0.9 or "
                    "above.", f"Section 4.2, Table 2, column {last}", value=r_last, bound=0.9,
                    se=rate_se(np.clip(0.9, 0, 1), m), digits=3)
    _stratification_claim(claims, "claim_stratified", own, plain, m, runs, "Weka's Experimenter splits")
    _stratification_claim(claims, "claim_stratified_ours", own[own["n_runs"].isin(strat_runs)], stratified, m,
                          strat_runs, "our own stratified splits")

    def plot():
        return _r_figure({"published": _r_series(both, "value_published", "n_runs"),
                          "reproduced": _r_series(both, "value_reproduced", "n_runs"),
                          "own splits": _r_series(own, "value", "n_runs")}, runs, "runs of resampling")

    versus_own = plain.merge(own, on=["measure", "pair", "n_runs"], suffixes=("_weka", "_own"))
    d_own = versus_own["value_weka"] - versus_own["value_own"]
    values = {"n_decreases": len(decreases), "n_steps": len(steps),
              "almost_last_pct": round(float(100 * almost_last.mean() / m), 0),
              "r_last_min": round(float(r_last.min()), 3),
              "strat_max_dr": round(float(d_own[versus_own["measure"] == "R"].abs().max()), 3),
              "strat_max_dc": int(d_own[versus_own["measure"] != "R"].abs().max()),
              "max_abs_dr": round(float(both.query("measure == 'R'")["difference"].abs().max()), 3),
              "max_abs_dc": int(both.query("measure != 'R'")["difference"].abs().max())}
    tables = {"table2": _shown_grid(both.rename(columns={"value_published": "value"}),
                                    both.rename(columns={"value_reproduced": "value"}), "n_runs", runs),
              "stratified": _shown_grid(own, plain, "n_runs", runs,
                                        labels=("own splits (unstratified)", "Weka's splits (stratified)",
                                                "difference")),
              "stratified_ours": _shown_grid(own, stratified, "n_runs", strat_runs,
                                             labels=("own splits (unstratified)", "own splits (stratified)",
                                                     "difference")),
              "decreases": Table(decreases)}
    # Weka's runs 1..100 against repeat 0, on the data sets of this scale
    weka = read_weka_resampling()
    parts = {}
    for name, key, label in (("resample_weka", "after", "Weka's Experimenter splits"),
                             ("resample", "before", "own random splits")):
        part = resampling_agreement(uci_scheme_results(name, scale=scale), weka, alpha=alpha).set_index("what")
        for what, short in (("runs, all learners", "runs"), ("decisions, all pairs", "decisions")):
            values[f"weka_{short}_{key}"] = f"{part.loc[what, 'equal']}/{part.loc[what, 'total']}"
        parts[label] = part["equal"].astype(str) + "/" + part["total"].astype(str)
    tables["weka_agreement"] = Table(pd.DataFrame(parts).rename_axis("equal to Weka 3.6, repeat 0"))
    return Page(claims, values, _summary(both, claims), tables, reproduced, {"figure": plot})
