"""The in-text numbers of Bouckaert (2005), Section 4: McNemar 90/10 and the designs at equal cost.

:func:`mcnemar_type1` and :func:`mcnemar_worst_case` recompute the Type I and
worst-case replicability of McNemar's test on a 90%/10% split that Section 4.1
prints, beside the printed values; :func:`designs_at_equal_cost` summarizes the
Figures 1-4 simulations per design (Sections 4.2-4.3) and :func:`equal_cost_claims`
holds their orderings on one reading of replicability (:func:`equal_cost_readings`
sets ``2 R̂2 - 1`` and "all agree" side by side); :func:`in_text_claims` holds all
the claims to the rules of :mod:`replicability.report.claims`; :func:`in_text_page`
makes the page.

References
----------
Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_choice
from ...report.claims import NOT_HOLDS, Claims, comparison_summary
from ...report.page import Page, Table, plain
from ...report.tables import read_published
from ...report.uncertainty import rate_se
from .curves import _ALL, _NORMALIZED, GROUPS, SCALE_CAPS, curve_summary, task1_curves
from .histograms import stored_measures
from .task1 import TASK1_DESIGNS, cached_task1
from .theory import agreement_normal_model, task1_worst_case_gap

__all__ = ["designs_at_equal_cost", "equal_cost_claims", "equal_cost_readings", "in_text_claims", "in_text_page",
           "mcnemar_type1", "mcnemar_worst_case"]


def _measures(ds):
    return stored_measures(ds)


def _n_sets(n_datasets, scale):
    check_choice(scale, "scale", tuple(SCALE_CAPS))
    return min(n_datasets, SCALE_CAPS[scale][1])


def mcnemar_type1(sizes=(1000, 2000, 10000, 20000, 100000, 200000), *, n_datasets=1000, alpha=0.05, seed=2005,
                  scale="paper"):
    """Type I replicability of McNemar's test on a 90%/10% split (gap 0, continuity correction), per size.

    The paper's measure is the normalized replicability ``2 R̂2 - 1`` of Bouckaert
    (2004): :func:`~replicability.papers.bouckaert2005.readings.replicability_readings`
    shows that it, and no other reading, reproduces every printed value. "All 10
    agree" and R̂2 are kept beside it.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``n``: the published percentage, Type I error, normalized R̂2,
        "all agree" and R̂2 (percent), the standard error of normalized R̂2 over
        the data sets (``normalized R2 SE``, points), the differences, and the
        number of data sets (``attrs["n_datasets"]``).

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> t = mcnemar_type1([1000], scale="smoke")
    >>> float(t.loc[1000, "published %"]), t.attrs["n_datasets"]
    (86.5, 10)
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    sets = _n_sets(n_datasets, scale)
    rows = []
    for n in sizes:
        m = _measures(cached_task1(["mcnemar_90_10"], n, [0.0], n_datasets=sets, alpha=alpha, seed=seed, scale=scale))
        rows.append({"n": n, "type I error %": 100 * float(m["rejection"][0, 0]),
                     "normalized R2 %": 100 * float(m["normalized_r2"][0, 0]),
                     "all agree %": 100 * float(m["consistency"][0, 0]), "R2 %": 100 * float(m["r2"][0, 0]),
                     "normalized R2 SE": 100 * float(m["normalized_r2_se"][0, 0])})
    type1 = pd.DataFrame(rows).set_index("n")
    published = read_published("bouckaert2005", "type1_replicability").set_index("n")
    type1.insert(0, "published %", published["replicability_pct"])
    type1["difference (normalized R2)"] = type1["normalized R2 %"] - type1["published %"]
    type1["difference (all agree)"] = type1["all agree %"] - type1["published %"]
    type1["difference (R2)"] = type1["R2 %"] - type1["published %"]
    type1.attrs["n_datasets"] = sets
    return type1


def mcnemar_worst_case(sizes=(20000, 100000, 200000), *, n_datasets=1000, gap_steps=100, gap_span=4.0, alpha=0.05,
                       seed=2005, scale="paper"):
    """Worst-case replicability of McNemar 90%/10%: the minimum of ``2 R̂2 - 1`` over a grid of gaps, per size.

    The grid runs from 0 to ``gap_span`` times the gap where the mean McNemar
    statistic equals its threshold. The paper's measure is the normalized
    replicability and its Δ is ``4q - 1``, twice the accuracy gap ``2q - 1/2``
    (:func:`~replicability.papers.bouckaert2005.readings.replicability_readings`);
    the minimum of "all 10 agree" and where it lies are kept beside.

    Returns
    -------
    worst : pandas.DataFrame
        Indexed by ``n``: published and reproduced (normalized R̂2) worst case,
        published Δ and ``4q - 1`` at our worst case, published power and ours
        there (percent), the standard error of the normalized R̂2 at the minimum
        (points); then the minimum of "all agree", the gap where it lies, the power
        there, R̂2 at the normalized minimum and twice the "all agree" gap.
    grids : dict
        ``{n: DataFrame}`` of the curves (gap, power, all agree, R2, normalized R2).
    """
    sets = _n_sets(n_datasets, scale)
    rows, grids = [], {}
    for n in sizes:
        gaps = np.linspace(0, gap_span * float(task1_worst_case_gap(n, 0.1, alpha=alpha)),
                           min(gap_steps, SCALE_CAPS[scale][0]))
        m = _measures(cached_task1(["mcnemar_90_10"], n, gaps, n_datasets=sets, alpha=alpha, seed=seed, scale=scale))
        normalized = m["normalized_r2"][0]
        grids[n] = pd.DataFrame({"gap": gaps, "power": m["b_better"][0], "all agree": m["consistency"][0],
                                 "R2": m["r2"][0], "normalized R2": normalized})
        j = int(np.argmin(normalized))
        i = int(np.argmin(m["consistency"][0]))
        rows.append({"n": n, "normalized R2 %": 100 * float(normalized[j]), "4q - 1 %": 200 * gaps[j],
                     "power %": 100 * float(m["b_better"][0, j]),
                     "normalized R2 SE": 100 * float(m["normalized_r2_se"][0, j]),
                     "all agree %": 100 * float(m["consistency"][0, i]), "gap %": 100 * gaps[i],
                     "power (all agree) %": 100 * float(m["b_better"][0, i]), "min R2 %": 100 * float(m["r2"][0, j])})
    worst = pd.DataFrame(rows).set_index("n")
    pub = read_published("bouckaert2005", "worst_case").set_index("n")
    worst.insert(0, "published %", pub["replicability_pct"])
    worst.insert(2, "published delta %", pub["delta_pct"])
    worst.insert(4, "published power %", pub["power_pct"])
    worst["2 x gap %"] = 2 * worst["gap %"]
    worst.attrs["n_datasets"] = sets
    worst.attrs["gap_step"] = [float(g["gap"].iloc[1] - g["gap"].iloc[0]) for g in grids.values()]
    return worst, grids


def _reproduced(table, frame, columns, source):
    """``data/reproduced/bouckaert2005/<table>.csv``: the printed rows (design, n), with ours at the sizes simulated.

    ``columns`` maps each written column to the column of ``frame`` (indexed by ``n``); rounded to 2 decimals.
    """
    out = read_published("bouckaert2005", table)[["design", "n"]].copy()
    at = frame.reindex(out["n"])
    for name, column in columns.items():
        out[name] = at[column].to_numpy()
    out["source"] = source
    return out.round(2)


def _reproduced_tables(type1, worst):
    """The two tables of Section 4.1 the page writes: ``type1_replicability`` and ``worst_case``."""
    return {
        "type1_replicability": _reproduced(
            "type1_replicability", type1, {"replicability_pct": "normalized R2 %"},
            "replicability.papers.bouckaert2005.task1: 1000 data sets x 10 repetitions, normalized replicability "
            "2 R2 - 1 (the paper's measure, readings.replicability_readings)"),
        "worst_case": _reproduced(
            "worst_case", worst,
            {"replicability_pct": "normalized R2 %", "delta_pct": "4q - 1 %", "power_pct": "power %"},
            "replicability.papers.bouckaert2005.task1: 1000 data sets x 10 repetitions, minimum of the normalized "
            "replicability 2 R2 - 1 over the gap grid, located on the x-axis 4q - 1 (the paper's reading, "
            "readings.replicability_readings)"),
    }


def designs_at_equal_cost(sizes=(1000, 2000, 10000), *, alpha=0.05, seed=2005, scale="paper"):
    """Per design, averaged over the sizes: Type I error and replicability, worst case and mean power, by cost.

    Cost is the number of times A and B are trained and tested (Section 4.3).
    Replicability is the normalized ``2 R̂2 - 1`` (the paper's reading) at gap 0
    and its minimum over the gap grid, as in
    :func:`~replicability.papers.bouckaert2005.curves.curve_summary`; "all agree"
    is kept beside. Each ``... SE`` column is the standard error of the average
    over the ``k`` sizes, ``sqrt(sum_i se_i^2) / k``: the standard error over the
    independent data sets of a gap (``2 R̂2 - 1``: ``normalized_r2_se``; rates:
    :func:`~replicability.report.uncertainty.rate_se`; power: of its mean over the gaps).

    Returns
    -------
    pandas.DataFrame
        Indexed by (cost, design): ``type I error``, ``type I repl. (2 R2 - 1)``,
        ``worst repl. (2 R2 - 1)``, ``mean power``, ``type I repl. (all agree)``,
        ``worst repl. (all agree)``, each with its ``... SE``.
    """
    s = curve_summary(task1_curves(GROUPS, sizes, alpha=alpha, seed=seed, scale=scale))
    n_sets = s["data sets"].astype(int).to_numpy()
    t1, wc = f"type I repl. ({_NORMALIZED})", f"worst repl. ({_NORMALIZED})"
    t1_all, wc_all = f"type I repl. ({_ALL})", f"worst repl. ({_ALL})"
    columns = ["type I error", t1, wc, "mean power", t1_all, wc_all]
    se = {"type I error": [rate_se(v, k) for v, k in zip(s["type I error"], n_sets)], t1: s["type I SE"],
          wc: s["worst SE"], "mean power": s["mean power SE"],
          t1_all: [rate_se(v, k) for v, k in zip(s[t1_all], n_sets)],
          wc_all: [rate_se(v, k) for v, k in zip(s[wc_all], n_sets)]}
    frame = s[columns].astype(float).copy()
    for column in columns:
        frame[f"var {column}"] = np.asarray(se[column], dtype=float) ** 2
    designs = frame.index.get_level_values("design")
    frame.index = pd.MultiIndex.from_arrays([[TASK1_DESIGNS[d].cost for d in designs], designs],
                                            names=["cost", "design"])
    grouped = frame.groupby(["cost", "design"])
    table, k = grouped.mean(), grouped.size()
    for column in columns:  # the mean of k independent estimates
        table[f"{column} SE"] = np.sqrt(table.pop(f"var {column}") / k)
    return table


def in_text_claims(type1, worst, by_design, *, alpha=0.05):
    """The in-text claims of Bouckaert (2005), Section 4, held to the rules of :mod:`~replicability.report.claims`.

    The printed replicabilities are the normalized replicability ``2 R̂2 - 1`` and
    the printed Δ is ``4q - 1`` (:mod:`~replicability.papers.bouckaert2005.readings`).
    A printed replicability is compared within two standard errors of the
    difference of two simulations of as many data sets (``sqrt(2)`` times our
    standard error of the mean over the data sets) plus half a unit of the last
    printed digit; printed power as a rate over the data sets at the printed value;
    the printed Δ (whole percents) within half a unit plus one step of the gap grid
    (``se`` = half a step), where the minimum of a curve can only be located; two
    simulated estimates with the two standard errors combined.

    Returns
    -------
    tuple of (Claims, dict)
    """
    c = Claims("bouckaert2005", "03_in_text_numbers")
    nw = worst.attrs["n_datasets"]
    pub = type1["published %"].to_numpy()
    t1, t1_se = type1["normalized R2 %"].to_numpy(), type1["normalized R2 SE"].to_numpy()
    c.close_to("t1_values", "Type I replicability of McNemar 90%/10%: 86.5, 85.6, 84.4, 83.0, 80.5, 82.0% at 1, 2, 10, "
               "20, 100, 200 thousand instances (normalized replicability 2 R2 - 1)", "Section 4.1, paragraph 2",
               value=t1, published=pub, se=np.sqrt(2) * t1_se, rounding=0.05, unit="points", digits=1)
    c.greater("t1_decreases", "Type I replicability decreases with the data set size (smallest against largest)",
              "Section 4.1, paragraph 2", larger=t1[0], smaller=t1[-1], se=float(np.hypot(t1_se[0], t1_se[-1])),
              unit="points", digits=1)
    wpub = worst["published %"].to_numpy()
    w, w_se = worst["normalized R2 %"].to_numpy(), worst["normalized R2 SE"].to_numpy()
    c.close_to("wc_values", "Worst-case replicability of McNemar 90%/10%: 6.4, 7.0, 6.7% at 20, 100, 200 thousand "
               "(normalized replicability 2 R2 - 1)", "Section 4.1, paragraph 3", value=w, published=wpub,
               se=np.sqrt(2) * w_se, rounding=0.05, unit="points", digits=1)
    ppub = worst["published power %"].to_numpy()
    c.close_to("wc_power", "... where power is 46.2, 54.4, 51.8%", "Section 4.1, paragraph 3",
               value=worst["power %"].to_numpy(), published=ppub, se=100 * rate_se(ppub / 100, nw), rounding=0.05,
               unit="points", digits=1)
    step = np.array([200 * float(grids_step) for grids_step in worst.attrs["gap_step"]])  # on the 4q - 1 axis
    c.close_to("wc_delta", "... at an accuracy difference Δ of 6, 3, 2% (read on the x-axis 4q - 1)",
               "Section 4.1, paragraph 3", value=worst["4q - 1 %"].to_numpy(),
               published=worst["published delta %"].to_numpy(), se=step / 2, rounding=0.5, unit="points", digits=2)
    c.close_to("wc_free_of_n", "Worst-case replicability does not change with the data set size (each size against "
               "the smallest)", "Section 4.1, paragraph 3", value=w[1:], published=np.repeat(w[0], w.size - 1),
               se=np.hypot(w_se[1:], w_se[0]), rounding=0.0, unit="points", digits=2)
    d = by_design.droplevel("cost")
    diffs = equal_cost_claims(c, by_design, _NORMALIZED)
    rs = ["resampling_10", "resampling_100", "resampling_500"]
    e = np.array([d.loc[r, "type I error"] for r in rs])
    t1_rs = f"type I repl. ({_NORMALIZED})"

    def listed(values, fmt="+.3f"):
        return ", ".join(f"{v:{fmt}}" for v in values)

    def held(reading):  # the Section 4.2-4.3 claims on replicability held on one reading, and those that fail
        verdicts = readings[(reading, "verdict")]
        failed = ", ".join(verdicts.index[verdicts == NOT_HOLDS]) or "none"
        return f"{int((verdicts != NOT_HOLDS).sum())} of {len(verdicts)} (does not hold: {failed})"

    readings = equal_cost_readings(by_design)

    values = {**c.verdicts(),
              "t1_model_all": round(100 * float(agreement_normal_model(0.0, 0.1, alpha=alpha, n_repeats=10)), 1),
              "t1_model_r2": round(100 * float(agreement_normal_model(0.0, 0.1, alpha=alpha)), 1),
              "t1_all_lo": round(float(type1["all agree %"].min()), 1),
              "t1_all_hi": round(float(type1["all agree %"].max()), 1),
              "t1_r2_lo": round(float(type1["R2 %"].min()), 1), "t1_r2_hi": round(float(type1["R2 %"].max()), 1),
              "wc_model_all": round(100 * float(agreement_normal_model(1.959964, 0.1, alpha=alpha,
                                                                       n_repeats=10)), 1),
              "cv_minus_rs_power": listed(diffs["cv_power_slightly"]),
              "cv_minus_rs_worst": listed(diffs["cv_better_worst"]),
              "cv_minus_rs_type1": listed(diffs["cv_better_type1"]),
              "rs_power": listed([d.loc[r, "mean power"] for r in rs], ".3f"), "rs_type1err": listed(e, ".3f"),
              "rs_type1repl": listed([d.loc[r, t1_rs] for r in rs], ".3f"),
              "rs_worstrepl": listed([d.loc[r, f"worst repl. ({_NORMALIZED})"] for r in rs], ".3f"),
              "rs10_minus_mc90": listed(diffs["rs10_vs_mcnemar90"]),
              "equal_cost_held_norm": held(_NORMALIZED), "equal_cost_held_all": held(_ALL),
              "t1_norm_lo": round(float(t1.min()), 1), "t1_norm_hi": round(float(t1.max()), 1),
              "t1_norm_maxdiff": round(float(np.max(np.abs(t1 - pub))), 1),
              "wc_norm_maxdiff": round(float(np.max(np.abs(w - wpub))), 1),
              "wc_norm_delta": ", ".join(f"{v:.1f}%" for v in worst["4q - 1 %"]),
              "t1_norm_values": ", ".join(f"{v:.1f}%" for v in t1), "wc_norm_values": ", ".join(f"{v:.1f}%" for v in w),
              "wc_all_lo": round(float(worst["all agree %"].min()), 1),
              "wc_all_hi": round(float(worst["all agree %"].max()), 1),
              "summary": comparison_summary(np.concatenate([pub, wpub]), np.concatenate([t1, w]), c, digits=1)}
    return c, plain(values)


#: The Section 4.2-4.3 orderings: (key, statement, source, [(larger design, column)], [(smaller design, column)]),
#: with "repl." standing for the reading (``2 R2 - 1`` or ``all agree``) the claims are read on.
_CV_RS = [("cv_1x10", "resampling_10"), ("cv_10x10", "resampling_100"), ("cv_50x10", "resampling_500")]
_RS_STEPS = [("resampling_100", "resampling_10"), ("resampling_500", "resampling_100")]
_EQUAL_COST = [
    ("cv_better_type1", "Repeated cv has considerably better Type I replicability than resampling at equal cost "
     "(10, 100, 500)", "Section 4.3",
     [(a, "type I repl.") for a, _ in _CV_RS], [(b, "type I repl.") for _, b in _CV_RS]),
    ("cv_better_worst", "... and better worst-case replicability", "Section 4.3",
     [(a, "worst repl.") for a, _ in _CV_RS], [(b, "worst repl.") for _, b in _CV_RS]),
    ("cv_power_slightly", "... and slightly better power", "Section 4.3",
     [(a, "mean power") for a, _ in _CV_RS], [(b, "mean power") for _, b in _CV_RS]),
    ("rs_power_up", "10 → 100 → 500 resamples: power increases with the number of resamples", "Section 4.2",
     [(a, "mean power") for a, _ in _RS_STEPS], [(b, "mean power") for _, b in _RS_STEPS]),
    ("rs_repl_up", "... and so does Type I replicability", "Section 4.2",
     [(a, "type I repl.") for a, _ in _RS_STEPS], [(b, "type I repl.") for _, b in _RS_STEPS]),
    ("rs_worst_up", "... worst-case replicability is considerably better when taking more samples", "Section 4.2",
     [(a, "worst repl.") for a, _ in _RS_STEPS], [(b, "worst repl.") for _, b in _RS_STEPS]),
    ("rs10_vs_mcnemar90", "10x resampling against McNemar 90/10: power and worst-case replicability increase; "
     "Type I replicability decreases", "Section 4.2",
     [("resampling_10", "mean power"), ("resampling_10", "worst repl."), ("mcnemar_90_10", "type I repl.")],
     [("mcnemar_90_10", "mean power"), ("mcnemar_90_10", "worst repl."), ("resampling_10", "type I repl.")]),
    ("mcnemar_beats_rs10", "McNemar 50/50 beats 10x resampling in power, Type I and worst-case replicability",
     "Section 4.2", [("mcnemar_50_50", c) for c in ("mean power", "type I repl.", "worst repl.")],
     [("resampling_10", c) for c in ("mean power", "type I repl.", "worst repl.")]),
    ("sorted_vs_cv_1x10", "1x10 cv against sorted 1x10 cv: a lower Type I error, hence a higher Type I "
     "replicability; a lower worst-case replicability", "Section 4.3",
     [("sorted_cv_1x10", "type I error"), ("cv_1x10", "type I repl."), ("sorted_cv_1x10", "worst repl.")],
     [("cv_1x10", "type I error"), ("sorted_cv_1x10", "type I repl."), ("cv_1x10", "worst repl.")]),
]


def equal_cost_claims(claims, by_design, reading=_NORMALIZED):
    """Add the Section 4.2-4.3 claims on :func:`designs_at_equal_cost` to ``claims``, on one reading.

    Every claim is an ordering of two of our estimates (the paper prints no
    numbers there), held with the standard error of their difference
    ``sqrt(se_1^2 + se_2^2)`` (:meth:`~replicability.report.claims.Claims.greater`);
    "Type I error about the same" is a :meth:`~replicability.report.claims.Claims.close_to`
    of the three numbers of resamples against 10.

    Parameters
    ----------
    claims : replicability.report.claims.Claims
    by_design : pandas.DataFrame
        :func:`designs_at_equal_cost`.
    reading : {"2 R2 - 1", "all agree"}
        The reading of "replicability": the paper's, or "all 10 repetitions agree".

    Returns
    -------
    dict
        ``{key: larger - smaller}`` of each ordering.

    Examples
    --------
    >>> import pandas as pd
    >>> from replicability.report.claims import Claims
    >>> from replicability.papers.bouckaert2005.in_text import equal_cost_claims
    >>> designs = ["mcnemar_90_10", "mcnemar_50_50", "resampling_10", "resampling_100", "resampling_500",
    ...            "cv_1x10", "cv_10x10", "cv_50x10", "sorted_cv_1x10"]
    >>> cols = {"type I error": 0.05, "mean power": 0.8, "type I repl. (2 R2 - 1)": 0.9,
    ...         "worst repl. (2 R2 - 1)": 0.5}
    >>> index = pd.MultiIndex.from_product([[1], designs], names=["cost", "design"])
    >>> frame = pd.DataFrame({**cols, **{f"{k} SE": 0.01 for k in cols}}, index=index)
    >>> c = Claims("bouckaert2005", "03_in_text_numbers")
    >>> diffs = equal_cost_claims(c, frame)
    >>> c.verdicts()["rs_repl_up"], float(diffs["rs_repl_up"][0])  # equal, within 2 SE of the difference
    ('inconclusive at this scale', 0.0)
    """
    check_choice(reading, "reading", (_NORMALIZED, _ALL))
    d = by_design.droplevel("cost")

    def column(name):
        return f"{name} ({reading})" if name.endswith("repl.") else name

    def cells(pairs, suffix=""):
        return np.array([d.loc[design, column(name) + suffix] for design, name in pairs], dtype=float)

    diffs = {}
    for key, statement, source, larger, smaller in _EQUAL_COST:
        a, b = cells(larger), cells(smaller)
        claims.greater(key, f"{statement} ({reading})" if "repl" in statement else statement, source, larger=a,
                       smaller=b, se=np.hypot(cells(larger, " SE"), cells(smaller, " SE")), digits=3)
        diffs[key] = a - b
    rs = [("resampling_10", "type I error"), ("resampling_100", "type I error"), ("resampling_500", "type I error")]
    e, e_se = cells(rs), cells(rs, " SE")
    claims.close_to("rs_type1_same", "10, 100, 500 resamples: Type I error about the same", "Section 4.2",
                    value=e[1:], published=np.repeat(e[0], 2), se=np.hypot(e_se[1:], e_se[0]), rounding=0.0, digits=3)
    return diffs


def equal_cost_readings(by_design):
    """The Section 4.2-4.3 claims on replicability read on ``2 R2 - 1`` and on "all agree", side by side.

    The paper prints no numbers in Sections 4.2-4.3, so the two readings can only be
    told apart by the orderings it states (:func:`equal_cost_claims`).

    Returns
    -------
    pandas.DataFrame
        Indexed by claim key (those that quote replicability): per reading the
        measured differences and the verdict.
    """
    frames = {}
    for reading in (_NORMALIZED, _ALL):
        c = Claims("bouckaert2005", "03_in_text_numbers")
        equal_cost_claims(c, by_design, reading)
        frames[reading] = c.frame().set_index("key")[["measured", "verdict"]]
    table = pd.concat(frames, axis=1)
    quoted = [key for key, statement, *_ in _EQUAL_COST if "repl" in statement]
    return table.loc[quoted]


def _in_text_figure(type1, worst, grids):
    """Printed beside reproduced: Type I replicability against the size; the worst-case curves with the printed points.

    The first panel draws the printed Type I replicability of McNemar 90/10 (crosses)
    beside ours (normalized R̂2, "all agree" and R̂2); the others draw power,
    normalized R̂2 and "all agree" against ``4q - 1`` (twice the accuracy gap), with
    the printed worst case (Δ, replicability) and the printed power at Δ.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 1 + len(grids), figsize=(13, 3.2), layout="constrained")
    ax = axes[0]
    ax.plot(type1.index, type1["published %"], "kx", ms=8, label="printed")
    ax.plot(type1.index, type1["normalized R2 %"], "^-", label="2 R2 - 1")
    ax.plot(type1.index, type1["all agree %"], "o--", label="all 10 agree")
    ax.plot(type1.index, type1["R2 %"], "s:", label="R2")
    ax.set_xscale("log")
    ax.set_ylim(0, 100)
    ax.set_title("Type I replicability, McNemar 90/10", fontsize=9)
    ax.set_xlabel("data set size n")
    ax.set_ylabel("%")
    ax.legend(fontsize=7)
    for ax, (n, g) in zip(axes[1:], grids.items()):
        x = 200 * g["gap"]
        ax.plot(x, 100 * g["power"], "-", label="power")
        ax.plot(x, 100 * g["normalized R2"], "-", label="2 R2 - 1")
        ax.plot(x, 100 * g["all agree"], "--", label="all 10 agree")
        ax.plot(worst.loc[n, "published delta %"], worst.loc[n, "published %"], "kx", ms=8,
                label="printed worst case (Δ, repl.)")
        ax.plot(worst.loc[n, "published delta %"], worst.loc[n, "published power %"], "k+", ms=8,
                label="printed power at Δ")
        ax.set_ylim(0, 100)
        ax.set_title(f"Worst case, n = {n:,}", fontsize=9)
        ax.set_xlabel("4q - 1 = 2 x accuracy gap (%)")
    axes[1].legend(fontsize=7)
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def _tables(type1, worst, by_design):
    """The tables of the page; the Type I and worst-case tables transposed (one column per size) to fit the page."""
    se = [c for c in by_design.columns if c.endswith("SE")]
    caption = ("Sections 4.2-4.3: the claims on replicability read on 2 R2 - 1 and on all agree (differences larger "
               "minus smaller)")
    return {"type1": Table(type1.T, 1), "worst": Table(worst.T, 2), "by_design": Table(by_design.drop(columns=se), 3),
            "by_design_se": Table(by_design[se], 4),
            "equal_cost_readings": Table(equal_cost_readings(by_design), caption=caption)}


def in_text_page(*, type1_sizes=(1000, 2000, 10000, 20000, 100000, 200000), worst_sizes=(20000, 100000, 200000),
                 n_datasets=1000, gap_steps=100, gap_span=4.0, sizes=(1000, 2000, 10000), alpha=0.05, seed=2005,
                 scale="paper"):
    """The page of notebook ``bouckaert2005/03_in_text_numbers``: the in-text numbers of Section 4 and their claims.

    Parameters
    ----------
    type1_sizes, worst_sizes : sequence of int
        Sizes of :func:`mcnemar_type1` and :func:`mcnemar_worst_case`.
    n_datasets, gap_steps, gap_span : int, int, float
        As in :func:`mcnemar_worst_case`.
    sizes : sequence of int
        Sizes of :func:`designs_at_equal_cost` (those of notebook 02).
    alpha, seed, scale
        As in :func:`mcnemar_type1`.

    Returns
    -------
    Page
        The claims and values of :func:`in_text_claims`; the tables ``type1`` and
        ``worst`` (transposed), ``by_design`` and ``by_design_se`` (the standard errors),
        ``equal_cost_readings``; the figure ``in_text``; the reproduced tables
        ``type1_replicability`` and ``worst_case``.

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> page = in_text_page(type1_sizes=(1000, 2000), worst_sizes=(20000, 100000), sizes=(1000,), scale="smoke")
    >>> list(page.tables), list(page.reproduced)
    (['type1', 'worst', 'by_design', 'by_design_se', 'equal_cost_readings'], ['type1_replicability', 'worst_case'])
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    type1 = mcnemar_type1(type1_sizes, n_datasets=n_datasets, alpha=alpha, seed=seed, scale=scale)
    worst, grids = mcnemar_worst_case(worst_sizes, n_datasets=n_datasets, gap_steps=gap_steps, gap_span=gap_span,
                                      alpha=alpha, seed=seed, scale=scale)
    by_design = designs_at_equal_cost(sizes, alpha=alpha, seed=seed, scale=scale)
    claims, values = in_text_claims(type1, worst, by_design, alpha=alpha)
    return Page(claims, values, tables=_tables(type1, worst, by_design),
                reproduced=_reproduced_tables(type1, worst),
                figures={"in_text": partial(_in_text_figure, type1, worst, grids)})
