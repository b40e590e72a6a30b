"""The steps the pages of Tables 1-4 share: long tables, published beside ours, summaries, R figures.

Standard errors (one rule for every claim of these pages). A count of data sets
(consistent, almost consistent) is a rate over the ``m`` data sets (27 at paper
scale): its standard error is :func:`~replicability.report.uncertainty.rate_se` with
``n = m``, in percent of the data sets
(:func:`~replicability.report.uncertainty.percent_se`). The replicability ``R`` is a
mean over the ``m`` data sets of values in [0, 1] whose variance is at most
``R (1 - R)``, so ``rate_se(R, m)`` bounds its standard error. A claim against a
fixed bound takes the standard error at the bound; a comparison of two measured
values takes the standard error of their difference,
:func:`~replicability.report.uncertainty.difference_se` (``sqrt(se_1² + se_2²)``),
each at its measured value (the two are treated as independent, which overstates
the error when they share data sets and splits). Printed values are compared with
the rounding of :func:`~replicability.report.claims.comparison_summary` (none: the
tables print counts and three decimals of ``R``, and the claims quote no number of
the tables).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ...report.claims import comparison_summary
from ...report.page import Table, beside
from ...report.uncertainty import difference_se, rate_se
from ..shared.uci_outcomes import PAIR_LABELS, consistency_table

__all__ = ["DIGITS", "MEASURES", "PAIRS", "SOURCE", "claim_increase", "largest_differences", "long_measures",
           "r_figure", "r_series", "randomization_se", "shown_grid", "steps", "summary_line", "versus"]

PAIRS = list(PAIR_LABELS.values())
MEASURES = ["consistent", "almost_consistent", "R"]
#: Decimals of each measure as shown.
DIGITS = pd.Series({"consistent": 0, "almost_consistent": 0, "R": 3})
#: The ``source`` column of a reproduced table.
SOURCE = "computed by replicability (notebook bouckaert_frank2004/{page}, {params})"


def long_measures(outcomes, dim, values):
    """Consistent, almost consistent and R per pair and ``dim`` value, as rows (measure, pair, dim, value)."""
    table = consistency_table(xr.concat(outcomes, dim=pd.Index(values, name=dim)))
    table = table.rename(index=PAIR_LABELS, level="pair")
    long = table[MEASURES].reset_index().melt(id_vars=[dim, "pair"], var_name="measure", value_name="value")
    return long[["measure", "pair", dim, "value"]]


def versus(published, reproduced, keys):
    """Published and reproduced values side by side on ``keys``, with their difference."""
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


def largest_differences(both):
    """``max_abs_dr`` and ``max_abs_dc``: the largest difference of R (3 decimals) and of a count, ours - published."""
    return {"max_abs_dr": round(float(both.query("measure == 'R'")["difference"].abs().max()), 3),
            "max_abs_dc": int(both.query("measure != 'R'")["difference"].abs().max())}


def shown_grid(published, ours, dim, values, labels=("published", "ours", "difference")):
    """Two long tables beside each other as a (pair, measure, version) x ``dim`` Table."""
    pub, rep = _grid(published, "value", dim, values), _grid(ours, "value", dim, values)
    digits = pd.Series([DIGITS[m] for _, m in pub.index], index=pub.index)
    return Table(beside(pub, rep, digits=digits, labels=labels))


def summary_line(both, claims, key="measure"):
    """Counts and R compared separately (different units), then the claims."""
    counts, r = both[both[key] != "R"], both[both[key] == "R"]
    text = comparison_summary(counts["value_published"], counts["value_reproduced"], digits=2)
    text = text.replace("cells compared", "counts compared") + " data sets"
    if len(r):
        text += "; " + comparison_summary(r["value_published"], r["value_reproduced"], digits=3).replace(
            "cells compared", "values of R compared")
    return f"{text}; {claims.summary()}"


def r_figure(series, xvalues, xlabel, *, log=True, line=None):
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


def r_series(long, column, dim):
    """R per pair as a series over ``dim``, from a long table."""
    rows = long[long["measure"] == "R"]
    return {pair: rows[rows["pair"] == pair].set_index(dim)[column].sort_index() for pair in PAIRS}


def steps(long, dim, values, measures):
    """Every step between consecutive ``values``: (measure, pair, from, to, value before, value after)."""
    rep = long.set_index(["measure", "pair", dim])["value"]
    pairs = [p for p in PAIRS if p in set(long["pair"])]
    return [(measure, pair, a, b, rep[measure, pair, a], rep[measure, pair, b])
            for measure in measures for pair in pairs for a, b in zip(values, values[1:])]


def claim_increase(claims, key, statement, source, long, dim, values, m):
    """R at each column at least R at the previous one, within the standard error of the step."""
    rows = steps(long, dim, values, ["R"])
    before, after = np.array([s[4] for s in rows]), np.array([s[5] for s in rows])
    return claims.at_least(key, statement, source, value=after, bound=before,
                           se=difference_se(rate_se(np.clip(before, 0, 1), m), rate_se(np.clip(after, 0, 1), m)),
                           digits=3)


def randomization_se(draws, n_repeats):
    """Standard errors of a table's bottom rows over the randomizations, the data sets fixed.

    The claims of Section 4 are about these ``m`` data sets (the paper's 27, ours the
    same), not about a population of data sets: what varies from one reproduction to the
    next is the randomization of the splits. A data set whose test draws ``k`` of ``n``
    times has outcomes binomial in ``n`` with a draw probability ``q``, estimated as
    ``(k + 1/2) / (n + 1)`` (so that a data set with 0 or ``n`` draws still varies);
    its consistency (``k`` in {0, n}), almost consistency (``k`` in {0, 1, n-1, n}) and
    ``R(k, n)`` have exact variances under that binomial, and the table's rows, sums
    over independent data sets, have the square root of the summed variances.

    Parameters
    ----------
    draws : array_like of int
        Draws per data set (rows) and pair (columns), out of ``n_repeats``.
    n_repeats : int

    Returns
    -------
    dict of str to ndarray
        ``"consistent"`` and ``"almost_consistent"`` (percent of the data sets) and
        ``"R"``, one standard error per column.

    Examples
    --------
    >>> se = randomization_se([[10], [0], [5]], 10)
    >>> bool(se["consistent"][0] < 100 * (0.5 / 3) ** 0.5 / 3 ** 0.5)
    True
    """
    from scipy import stats

    k = np.asarray(draws, float)
    n, m = int(n_repeats), k.shape[0]
    q = (k + 0.5) / (n + 1)
    j = np.arange(n + 1).reshape(-1, *([1] * k.ndim))
    pmf = stats.binom.pmf(j, n, q[None])

    def se(f):
        mean = (pmf * f).sum(axis=0)
        return np.sqrt(np.clip((pmf * f ** 2).sum(axis=0) - mean ** 2, 0, None).sum(axis=0)) / m

    r = (j * (j - 1) + (n - j) * (n - j - 1)) / (n * (n - 1))
    return {"consistent": 100 * se(np.isin(j, [0, n]).astype(float)),
            "almost_consistent": 100 * se(np.isin(j, [0, 1, n - 1, n]).astype(float)), "R": se(r)}
