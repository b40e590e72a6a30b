"""The pages of Tables 1 and 2 of Bouckaert & Frank (2004): 5x2 cv and corrected resampling on 27 UCI data sets.

Each ``table*_page`` function computes one notebook page from the committed
per-fold results (:func:`~replicability.papers.shared.uci_runs.uci_scheme_results`):
the reproduced table, the published one beside it, the figure and the claims of
the paper's text, judged by the rules of :mod:`replicability.report.claims`.

Standard errors: the bounds on the bottom rows of Table 1 and on Table 2's 100-run
column are about these 27 data sets, and take the randomizations' standard error with the
data sets fixed (``_uci_common.randomization_se``).
Otherwise one rule for the claims of the pages of Tables 1-4 (module ``_uci_common``).
A count of data sets (consistent, almost consistent) is a rate over
the ``m`` data sets (27 at paper scale), its standard error
:func:`~replicability.report.uncertainty.percent_se`; the replicability ``R``, a mean
over the data sets of values in [0, 1], has a standard error bounded by
:func:`~replicability.report.uncertainty.rate_se` ``(R, m)``; a claim against a fixed
bound takes the standard error at the bound, a comparison of two measured values
:func:`~replicability.report.uncertainty.difference_se` of the two.

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

from ..._validation import check_alpha, check_positive_int
from ...report.claims import HOLDS, Claims
from ...report.page import Page, Table, beside, format_number
from ...report.tables import read_published
from ...report.uncertainty import difference_se, percent_se, rate_se
from ...sources.uci import list_uci
from ..shared.uci_outcomes import PAIR_LABELS, consistency_table, draw_counts, uci_test_outcomes
from ..shared.uci_runs import PAPER, uci_scheme_results
from ._uci_common import (
    DIGITS,
    MEASURES,
    PAIRS,
    SOURCE,
    claim_increase,
    largest_differences,
    long_measures,
    r_figure,
    r_series,
    randomization_se,
    shown_grid,
    steps,
    summary_line,
    versus,
)
from .weka_resampling import read_weka_resampling, resampling_agreement

__all__ = ["table1_page", "table2_page"]

#: Randomizations per data set and pair behind Table 1: its draws are out of ten.
PAPER_RANDOMIZATIONS = 10
#: The reading of "pretty low" replicability R (claim_r_low): between the printed 0.737-0.816 and the 0.9
#: that Section 4.3 calls very good replicability.
_R_LOW = 0.85

# --------------------------------------------------------------------------- #
# Table 1: 5x2cv
# --------------------------------------------------------------------------- #
def _table1_outcomes(manifest, scale, alpha):
    """The 5x2 cv test's outcomes, the randomizations and the draws per data set (paper names) and pair."""
    results = uci_scheme_results("5x2", scale=scale)
    outcomes = uci_test_outcomes(results, "5x2cv", alpha=alpha)
    draws = draw_counts(outcomes).to_pandas().rename(columns=PAIR_LABELS)
    draws.index = manifest.loc[draws.index, "paper_name"].to_numpy()
    return outcomes, int(results.sizes["repeat"]), draws


def _table1_reproduced(draws, table, scale, alpha):
    """Table 1 as written: the draws, then consistent, almost consistent and R, per pair."""
    records = [{"row": name, "pair": pair, "value": int(draws.loc[name, pair])}
               for pair in PAIRS for name in draws.index]
    records += [{"row": measure, "pair": pair, "value": table.loc[pair, measure]}
                for measure in MEASURES for pair in PAIRS]
    reproduced = pd.DataFrame(records)
    reproduced["source"] = SOURCE.format(page="02_table1_5x2cv", params=f"scale={scale}, alpha={alpha}")
    return reproduced


def _table1_grids(published, both):
    """Table 1's body (draws, in the published order of the data sets) and bottom rows, published and ours."""
    def wide(rows, column, index):
        return rows.pivot(index="row", columns="pair", values=column).reindex(index=index, columns=PAIRS)

    body, bottom = both[~both["row"].isin(MEASURES)], both[both["row"].isin(MEASURES)]
    order = [name for name in published["row"].unique() if name in set(body["row"])]
    return (body, order, (wide(body, "value_published", order), wide(body, "value_reproduced", order)),
            (wide(bottom, "value_published", MEASURES), wide(bottom, "value_reproduced", MEASURES)))


def _other_measures(outcomes, table):
    """Normalized R, R and consistency of the three outcomes, data sets, per pair (as shown)."""
    three = consistency_table(outcomes, directional=True).rename(index=PAIR_LABELS)
    return pd.DataFrame({"normalized R": table["normalized_R"].map(format_number),
                         "R (3 outcomes)": three["R"].map(format_number),
                         "consistent (3 outcomes)": three["consistent"].map(lambda v: format_number(v, 0)),
                         "data sets": table["n_datasets"].map(lambda v: format_number(v, 0))})


def _properties(manifest):
    """Table 1's data set properties beside our files', and the number of data sets where all three agree."""
    props = read_published(PAPER, "table1_properties").drop(columns="source").set_index("dataset")
    ours = manifest.reset_index().set_index("paper_name")
    props = pd.DataFrame({"instances": props["instances"], "instances (ours)": ours["instances"],
                          "attributes": props["attributes"], "attributes (ours)": ours["attributes"],
                          "classes": props["classes"], "classes (ours)": ours["observed_classes"]}).loc[props.index]
    n_equal = int(((props["instances"] == props["instances (ours)"])
                   & (props["attributes"] == props["attributes (ours)"])
                   & (props["classes"] == props["classes (ours)"])).sum())
    return props, n_equal


def _directions(outcomes, draws, n_repeats):
    """Data sets with only draws, where both directions occur, and the draws there."""
    has_both = (outcomes == 1).any("repeat") & (outcomes == -1).any("repeat")
    mixed = draw_counts(outcomes).where(has_both).values
    always_draw = [name for name in draws.index if (draws.loc[name] == n_repeats).all()]
    return always_draw, has_both, mixed[~np.isnan(mixed)]


def _not_comparable(claims, key, statement, source, n_repeats):
    """A claim on counts out of the paper's ten randomizations, run with another number: not compared."""
    return claims.not_at_this_scale(key, statement, source, design=f"{n_repeats} randomizations per data set",
                                    needs=f"{PAPER_RANDOMIZATIONS} randomizations per data set")


def _table1_claims(table, draws, n_repeats, always_draw, mixed):
    """The claims of Section 4.1 on Table 1.

    Consistency, almost consistency and "all but 2 or 3 runs" are counts out of the
    paper's ten randomizations: with another number (``scale="quick"`` or ``"smoke"``)
    they mean something else, and those claims are not compared (inconclusive at this
    scale). R estimates the same agreement probability with any number and is judged.
    """
    m = len(draws)
    nb_c45 = draws["NB vs C4.5"]
    never = ["iris", "Hungarian heart disease"]
    claims = Claims(PAPER, "02_table1_5x2cv")
    src = "Section 4.1, Table 1"
    comparable = n_repeats == PAPER_RANDOMIZATIONS
    # the uncertainty of the randomizations on these data sets (not of a sample of data sets)
    se = randomization_se(draws[list(table.index)].to_numpy(), n_repeats)
    consistent = ("claim_consistent_half", "For any of the compared schemes, less than 50% of the results turn out "
                  "to be consistent.", f"{src}, row 'consistent'")
    almost = ("claim_almost_66", "The 5x2 cross validation test is almost consistent in fewer than 66% of the "
              "cases.", f"{src}, row 'almost consistent'")
    if comparable:
        claims.at_most(*consistent, value=100 * table["consistent"] / m, bound=50, se=se["consistent"],
                       unit="% of data sets", digits=1)
        claims.at_most(*almost, value=100 * table["almost_consistent"] / m, bound=66, se=se["almost_consistent"],
                       unit="% of data sets", digits=1)
    else:
        _not_comparable(claims, *consistent, n_repeats)
        _not_comparable(claims, *almost, n_repeats)
    claims.at_most("claim_r_low", "The replicability values are pretty low considering that R cannot be smaller "
                   f"than 0.5. (Read: R below {_R_LOW:g}, between the printed 0.737-0.816 and the 0.9 the paper calls "
                   "very good replicability in Section 4.3.)", f"{src}, row 'replicability (R)'",
                   value=table["R"], bound=_R_LOW, se=se["R"], digits=3)
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
    mixed_claim = ("claim_mixed", "It is possible that ... sometimes A is preferred and sometimes B ... this only "
                   "happens when the null hypothesis is accepted most of the time, except for 2 or 3 runs.", src)
    if not comparable:
        _not_comparable(claims, *mixed_claim, n_repeats)
        return claims
    claims.exactly(*mixed_claim, condition=bool(np.all(mixed >= n_repeats - 3)),
                   measured=f"{len(mixed)} data set and pair combinations with both directions; their draws: "
                            + (", ".join(format_number(v, 0) for v in sorted(mixed)) or "none"),
                   rule=f"draws >= {n_repeats - 3} wherever both directions occur")
    return claims


def _folds_reading(claims, body, n_repeats):
    """The cells equal to the printed ones beside a table of all draws, and the sentence their verdict chooses.

    With other than the paper's ten randomizations our draws are out of another number:
    the cells are not compared, and the sentence says so.
    """
    trivial = body["value_published"].to_numpy() == PAPER_RANDOMIZATIONS
    claim = ("claim_weka_folds", "Our draws agree with the printed ones because we use Weka's stratified folds "
             "(this book's reading of the agreement, not a claim of the paper)", "Section 4.1, Table 1")
    if n_repeats != PAPER_RANDOMIZATIONS:
        _not_comparable(claims, *claim, n_repeats)
        reading = (f"At this scale our draws are out of {n_repeats} randomizations, the printed ones out of "
                   f"{PAPER_RANDOMIZATIONS}: the cells are not comparable, so they cannot tell which folds the paper "
                   "used (ours are Weka's stratified folds with consecutive seeds; rerun at paper scale)")
        return {"dots_equal": int(trivial.sum()), "agreement_reading": reading}
    verdict = claims.agreement(*claim, agree=body["difference"].to_numpy() == 0, baseline_agree=trivial,
                               baseline=f"a table of {n_repeats} draws everywhere")
    reading = ("So close an agreement, beyond that of a table of draws everywhere, suggests that the paper, too, "
               "used Weka's stratified folds with consecutive seeds"
               if verdict == HOLDS else
               "This agreement is not beyond that of a table of draws everywhere, so it cannot tell which folds the "
               "paper used (ours are Weka's stratified folds with consecutive seeds)")
    return {"dots_equal": int(trivial.sum()), "agreement_reading": reading}


def _table1_values(n_props_equal, draws, table, body, always_draw, has_both, n_repeats):
    """The numbers the text of the Table 1 page quotes."""
    values = {
        "n_props_equal": n_props_equal, "n_nb_c45_reject": int((draws["NB vs C4.5"] < n_repeats).sum()),
        "always_draw": ", ".join(always_draw) or "none", "n_mixed": int(has_both.sum()),
        "body_exact": int((body["difference"] == 0).sum()), "body_within1": int((body["difference"].abs() <= 1).sum()),
        "body_cells": len(body), "body_mad": round(float(body["difference"].abs().mean()), 2), "r_low": _R_LOW,
    }
    for pair, key in zip(PAIRS, ["nbc45", "nbnn", "c45nn"]):
        values[f"cons_{key}"] = int(table.loc[pair, "consistent"])
        values[f"r_{key}"] = round(float(table.loc[pair, "R"]), 3)
    return values


def _draws_figure(body_pub, body_rep, order, n_repeats):
    """Draws per data set and pair, published (hollow) and reproduced."""
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
    outcomes, n_repeats, draws = _table1_outcomes(manifest, scale, alpha)
    table = consistency_table(outcomes).rename(index=PAIR_LABELS)
    reproduced = _table1_reproduced(draws, table, scale, alpha)
    published = read_published(PAPER, "table1")
    both = versus(published, reproduced.drop(columns="source"), ["row", "pair"])
    body, order, (body_pub, body_rep), (bottom_pub, bottom_rep) = _table1_grids(published, both)
    props, n_props_equal = _properties(manifest)
    always_draw, has_both, mixed = _directions(outcomes, draws, n_repeats)
    claims = _table1_claims(table, draws, n_repeats, always_draw, mixed)
    values = {**_table1_values(n_props_equal, draws, table, body, always_draw, has_both, n_repeats),
              **_folds_reading(claims, body, n_repeats)}
    values["alpha_percent"] = round(100 * alpha, 10)  # the prose states the level a run used, glued
    shown_body = beside(body_pub[PAIRS], body_rep[PAIRS], digits=0)
    shown_body.index.name = "dataset"
    tables = {"properties": Table(props), "draws": Table(shown_body),
              "bottom": Table(beside(bottom_pub, bottom_rep, digits=DIGITS)),
              "other_measures": Table(_other_measures(outcomes, table))}
    figure = partial(_draws_figure, body_pub, body_rep, order, n_repeats)
    summary = summary_line(both, claims, key="row")
    if n_repeats != PAPER_RANDOMIZATIONS:
        summary = (f"not comparable with the paper at this scale: our draws are out of {n_repeats} randomizations, "
                   f"the printed ones out of {PAPER_RANDOMIZATIONS}; {summary}")
    return Page(claims, values, summary, tables, {"table1": reproduced}, {"figure": figure})


# --------------------------------------------------------------------------- #
# Table 2: corrected resampled t-test
# --------------------------------------------------------------------------- #
def _resampling_long(scheme, runs, scale, alpha):
    """Table 2's measures of the corrected resampled t-test on ``scheme``'s splits, and the number of data sets."""
    results = uci_scheme_results(scheme, scale=scale)
    usable = [m for m in runs if m <= results.sizes["run"]]
    outcomes = [uci_test_outcomes(results, "corrected_resampled", n_runs=m, alpha=alpha) for m in usable]
    return long_measures(outcomes, "n_runs", usable), int(results.sizes["dataset"])


def _last_column_se(scheme, runs, scale, alpha):
    """The randomizations' standard errors (:func:`randomization_se`) of the bottom rows at the most runs."""
    results = uci_scheme_results(scheme, scale=scale)
    last = max(m for m in runs if m <= results.sizes["run"])
    draws = draw_counts(uci_test_outcomes(results, "corrected_resampled", n_runs=last, alpha=alpha))
    draws = draws.sel(pair=list(PAIR_LABELS)).transpose("dataset", "pair")  # the order of PAIRS
    return randomization_se(draws.values, results.sizes["repeat"])


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


def _last_column(plain, runs):
    """Almost consistent and R per pair at the largest number of runs."""
    rep = plain.set_index(["measure", "pair", "n_runs"])["value"]
    return (np.array([rep["almost_consistent", p, runs[-1]] for p in PAIRS]),
            np.array([rep["R", p, runs[-1]] for p in PAIRS]))


def _table2_claims(plain, own, stratified, runs, m, last_se):
    """The claims of Sections 4.2 and 4.3 on Table 2 and the stratified check."""
    claims = Claims(PAPER, "03_table2_resampling")
    claim_increase(claims, "claim_increase", "The replicability increases with the number of runs almost "
                   "everywhere. (Read: R at each number of runs at least R at the previous one.)",
                   "Section 4.2, Table 2", plain, "n_runs", runs, m)
    last = runs[-1]
    almost_last, r_last = _last_column(plain, runs)
    claims.at_least("claim_100", "Overall, the replicability becomes reasonably acceptable when the number of runs "
                    "is 100. In this case 80% of the results are 'almost consistent' (read: for every pair)",
                    f"Section 4.2, Table 2, column {last}", value=100 * almost_last / m, bound=80,
                    se=last_se["almost_consistent"], unit="% of data sets", digits=1)
    claims.at_least("claim_100_r", "... and the value of the replicability measure R is approximately 0.9 or "
                    "above.", f"Section 4.2, Table 2, column {last}", value=r_last, bound=0.9,
                    se=last_se["R"], digits=3)
    strat_runs = sorted(stratified["n_runs"].unique())
    _stratification_claim(claims, "claim_stratified", own, plain, m, runs, "Weka's Experimenter splits")
    _stratification_claim(claims, "claim_stratified_ours", own[own["n_runs"].isin(strat_runs)], stratified, m,
                          strat_runs, "our own stratified splits")
    return claims


def _decreases(plain, runs):
    """The steps between consecutive numbers of runs where a measure decreases, and the number of steps."""
    all_steps = steps(plain, "n_runs", runs, MEASURES)
    frame = pd.DataFrame([s[:4] for s in all_steps if s[5] < s[4]], columns=["measure", "pair", "from runs", "to runs"])
    return frame, len(all_steps)


def _table2_values(both, plain, own, runs, m):
    """The numbers the text of the Table 2 page quotes (Weka's agreement apart)."""
    decreases, n_steps = _decreases(plain, runs)
    almost_last, r_last = _last_column(plain, runs)
    versus_own = plain.merge(own, on=["measure", "pair", "n_runs"], suffixes=("_weka", "_own"))
    d_own = versus_own["value_weka"] - versus_own["value_own"]
    return {"n_decreases": len(decreases), "n_steps": n_steps,
            "almost_last_pct": round(float(100 * almost_last.mean() / m), 0),
            "r_last_min": round(float(r_last.min()), 3),
            "strat_max_dr": round(float(d_own[versus_own["measure"] == "R"].abs().max()), 3),
            "strat_max_dc": int(d_own[versus_own["measure"] != "R"].abs().max()),
            **largest_differences(both)}


def _table2_tables(both, plain, own, stratified, runs):
    """Table 2 beside the published one, the two stratification checks and the decreases."""
    strat_runs = sorted(stratified["n_runs"].unique())
    return {"table2": shown_grid(both.rename(columns={"value_published": "value"}),
                                 both.rename(columns={"value_reproduced": "value"}), "n_runs", runs),
            "stratified": shown_grid(own, plain, "n_runs", runs,
                                     labels=("own splits (unstratified)", "Weka's splits (stratified)", "difference")),
            "stratified_ours": shown_grid(own, stratified, "n_runs", strat_runs,
                                          labels=("own splits (unstratified)", "own splits (stratified)",
                                                  "difference")),
            "decreases": Table(_decreases(plain, runs)[0])}


def _weka_agreement(scale, alpha):
    """Weka's runs 1..100 against repeat 0, on the data sets of this scale: the table and the quoted counts."""
    weka = read_weka_resampling()
    parts, values = {}, {}
    for name, key, label in (("resample_weka", "after", "Weka's Experimenter splits"),
                             ("resample", "before", "own random splits")):
        part = resampling_agreement(uci_scheme_results(name, scale=scale), weka, alpha=alpha).set_index("what")
        for what, short in (("runs, all learners", "runs"), ("decisions, all pairs", "decisions")):
            values[f"weka_{short}_{key}"] = f"{part.loc[what, 'equal']}/{part.loc[what, 'total']}"
        parts[label] = part["equal"].astype(str) + "/" + part["total"].astype(str)
    return Table(pd.DataFrame(parts).rename_axis("equal to Weka 3.6, repeat 0")), values


def _split_fit(published, plain, own):
    """R per pair and number of runs: printed, on Weka's stratified splits and on unstratified splits."""
    def r(frame):
        return frame[frame["measure"] == "R"].set_index(["pair", "n_runs"])["value"]

    fit = pd.DataFrame({"printed": r(published), "Weka's stratified splits": r(plain),
                        "unstratified splits": r(own)}).dropna()
    fit["|Δ| stratified"] = (fit["Weka's stratified splits"] - fit["printed"]).abs()
    fit["|Δ| unstratified"] = (fit["unstratified splits"] - fit["printed"]).abs()
    return fit


def _split_claim(claims, fit):
    """Which splits fit the printed R: the paper says Table 2 did not stratify (Section 4.3)."""
    gap = fit["|Δ| stratified"] - fit["|Δ| unstratified"]  # paired: the same cells
    se = float(gap.std(ddof=1) / np.sqrt(len(gap))) if len(gap) > 1 else 0.0
    claims.greater(
        "claim_unstratified_fit", "\"We performed an experiment where resampling was done with stratification\": "
        "Table 2 itself was not stratified. (Read: the printed R is fitted better by unstratified splits than by "
        "Weka 3.6's Experimenter splits, which stratify; mean |R - printed| over the cells, paired.)", "Section 4.3",
        larger=float(fit["|Δ| stratified"].mean()), smaller=float(fit["|Δ| unstratified"].mean()), se=se, digits=3)
    better = "unstratified" if gap.mean() > 0 else "Weka's stratified"
    return {"fit_stratified": round(float(fit["|Δ| stratified"].mean()), 3),
            "fit_unstratified": round(float(fit["|Δ| unstratified"].mean()), 3),
            "fit_better": better}


def _table2_figure(both, own, runs):
    """R against the number of runs: published, reproduced on Weka's splits, and on our own splits."""
    return r_figure({"published": r_series(both, "value_published", "n_runs"),
                     "reproduced": r_series(both, "value_reproduced", "n_runs"),
                     "own splits": r_series(own, "value", "n_runs")}, runs, "runs of resampling")


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
        sets of the scale) and ``"split_fit"`` (the printed R beside R on Weka's stratified
        and on unstratified splits); reproduced ``table2``, ``table2_own_splits`` and
        ``table2_stratified``; claims ``claim_increase``, ``claim_100``, ``claim_100_r``,
        ``claim_stratified``, ``claim_stratified_ours``, ``claim_unstratified_fit``.

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
    source = SOURCE.format(page="03_table2_resampling", params=f"scale={scale}, alpha={alpha}")
    reproduced = {"table2": plain.assign(source=source + ", Weka's Experimenter splits"),
                  "table2_own_splits": own.assign(source=source + ", our own unstratified random splits"),
                  "table2_stratified": stratified.assign(source=source + ", our own stratified splits")}
    both = versus(read_published(PAPER, "table2"), plain, ["measure", "pair", "n_runs"])
    claims = _table2_claims(plain, own, stratified, runs, m, _last_column_se("resample_weka", runs, scale, alpha))
    fit = _split_fit(read_published(PAPER, "table2"), plain, own)
    fit_values = _split_claim(claims, fit)
    agreement, weka_values = _weka_agreement(scale, alpha)
    values = {**_table2_values(both, plain, own, runs, m), **weka_values, **fit_values}
    tables = {**_table2_tables(both, plain, own, stratified, runs), "weka_agreement": agreement,
              "split_fit": Table(fit.round(3), 3)}
    figure = partial(_table2_figure, both, own, runs)
    return Page(claims, values, summary_line(both, claims), tables, reproduced, {"figure": figure})
