"""Which "replicability" and which x-axis give the in-text numbers of Bouckaert (2005), Section 4.1?

The paper defines replicability as "the probability that when performing the same
experiment twice, we get the same outcome" (Section 2.5) but prints values no
pairwise probability can take (86.5% Type I replicability, below the 90.5% bound
of its own Section 3; worst cases of 6-7%). :func:`replicability_readings`
computes every reading the paper and its predecessors allow from the stored Task I
histograms of McNemar 90%/10% (:func:`~replicability.papers.bouckaert2005.task1.cached_task1`,
1000 data sets x 10 repetitions; nothing is simulated anew) and sets each beside
the printed values:

* ``"all_agree"``: share of data sets on which all 10 repetitions give the same of
  three outcomes (A better, no difference, B better), Bouckaert & Frank (2004)'s
  "consistency";
* ``"all_agree_binary"``: the same with two outcomes, accept or reject
  (Bouckaert 2004, Section 3, counts only these);
* ``"r2"``: mean over data sets of R̂2, the share of equal pairs among the
  ``C(10, 2)`` pairs of repetitions (Bouckaert 2004; R̂1, which pairs the
  repetitions 1-2, 3-4, ..., has the same expectation, Lemma 3.1);
* ``"normalized_r2"``: ``2 R̂2 - 1``, Bouckaert (2004)'s "normalized
  replicability" (R̂2 "linearly scaled to the range 0% to 100%");
* ``"pooled"`` and ``"normalized_pooled"``: the probability that two experiments
  on two independently drawn data sets agree, ``sum_c p_c^2`` with ``p_c`` the
  share of outcome ``c`` over all experiments, and its normalized form (the
  reading "pooled over data sets" instead of "per data set").

The worst case is the minimum of a reading over the gap grid; its location is
read on three x-axes: the accuracy gap ``2q - 1/2`` the paper defines, ``4q - 1``
(twice the gap: the difference between the shares of "+" and "-" among the
discordant test cases, Section 3's sign-test view of McNemar's test) and
``q - 1/4`` (half the gap). :func:`replicability_readings_page` makes the page of this
investigation in notebook ``bouckaert2005/03_in_text_numbers``.

References:

Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338

Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._validation import check_choice, check_positive_int
from ...report.claims import Claims, se_multiple
from ...report.page import Page, Table
from ...report.tables import read_published
from .histograms import REPEATS_ATTR, histogram_measures, outcome_cells
from .task1 import SCALE_CAPS, cached_task1
from .theory import task1_worst_case_gap

__all__ = ["READINGS", "X_AXES", "Readings", "reading_values", "replicability_readings", "replicability_readings_page"]

#: The readings of "replicability", with the label shown on the page.
READINGS = {
    "all_agree": "all 10 agree (3 outcomes)",
    "all_agree_binary": "all 10 agree (accept / reject)",
    "r2": "R2 (pairwise)",
    "normalized_r2": "2 R2 - 1 (normalized)",
    "pooled": "pooled over data sets",
    "normalized_pooled": "pooled, normalized",
}
#: The readings of the x-axis: multiple of the accuracy gap 2q - 1/2.
X_AXES = {"gap 2q - 1/2": 1.0, "4q - 1": 2.0, "q - 1/4": 0.5}


def reading_values(histogram, *, n_repeats):
    """Every reading of :data:`READINGS` and its standard error, from outcome histograms.

    Parameters
    ----------
    histogram : array_like of int, shape (..., n_cells)
        Data sets per cell of :func:`~replicability.papers.bouckaert2005.histograms.outcome_cells`.
    n_repeats : int, keyword-only
        Repetitions per data set (at least 2).

    Returns
    -------
    dict of str to (ndarray, ndarray)
        ``{reading: (value, se)}``, shape ``(...)``: the value as a fraction and
        its standard error over the ``N`` independent data sets (``s / sqrt(N)``
        with ``s`` the standard deviation of the per-data-set values; for the
        pooled readings the delta method, ``p_c`` differentiated).

    Notes
    -----
    Per data set with counts ``n_c`` of the three outcomes among ``n``
    repetitions: all agree is ``[max_c n_c = n]``; R̂2 is
    ``sum_c n_c (n_c - 1) / (n (n - 1))``; normalized R̂2 is ``2 R̂2 - 1``.
    Pooled: ``p_c = sum_i n_{c,i} / (n N)`` and ``sum_c p_c^2``.

    Examples
    --------
    Two data sets, three repetitions: (B, B, B) and (none, B, none).

    >>> from replicability.papers.bouckaert2005.histograms import outcome_histogram
    >>> from replicability.papers.bouckaert2005.readings import reading_values
    >>> v = reading_values(outcome_histogram([[-1, -1, -1], [0, -1, 0]]), n_repeats=3)
    >>> [round(float(v[k][0]), 4) for k in ("all_agree", "r2", "normalized_r2", "pooled")]
    [0.5, 0.6667, 0.3333, 0.5556]
    """
    n = check_positive_int(n_repeats, "n_repeats", minimum=2)
    h = np.asarray(histogram)
    n_a, n_b = outcome_cells(n)
    if h.ndim < 1 or h.shape[-1] != n_a.size:
        raise ValueError(f"`histogram` must have {n_a.size} cells on its last axis; got shape {h.shape}.")
    if not np.issubdtype(h.dtype, np.integer) or np.any(h < 0):
        raise ValueError("`histogram` must hold non-negative integer counts.")
    h = h.astype(float)
    n_0 = n - n_a - n_b
    sets = h.sum(axis=-1)
    if np.any(sets < 2):
        raise ValueError("`histogram` must count at least two data sets on every row.")
    per_set = {
        "all_agree": ((n_a == n) | (n_b == n) | (n_0 == n)).astype(float),
        "all_agree_binary": ((n_0 == n) | (n_0 == 0)).astype(float),
    }
    out = {}
    for key, cell_value in per_set.items():
        mean = (h * cell_value).sum(axis=-1) / sets
        var = (h * (cell_value - mean[..., None]) ** 2).sum(axis=-1) / (sets - 1)
        out[key] = (mean, np.sqrt(var / sets))
    m = histogram_measures(histogram, n_repeats=n)  # R̂2 and 2 R̂2 - 1 are measured in one place
    out["r2"] = (m["r2"], m["r2_se"])
    out["normalized_r2"] = (m["normalized_r2"], m["normalized_r2_se"])
    shares = np.stack([n_a, n_b, n_0]) / n  # (3, n_cells): outcome shares of a data set in each cell
    p = np.stack([(h * s).sum(axis=-1) / sets for s in shares])  # (3, ...)
    pooled = (p**2).sum(axis=0)
    grad = 2 * np.einsum("c...,ck->...k", p, shares)  # d pooled / d (shares of one data set), per cell, times N
    g_mean = (h * grad).sum(axis=-1) / sets
    g_var = (h * (grad - g_mean[..., None]) ** 2).sum(axis=-1) / (sets - 1)
    pooled_se = np.sqrt(g_var / sets)
    out["pooled"] = (pooled, pooled_se)
    out["normalized_pooled"] = (2 * pooled - 1, 2 * pooled_se)
    return out


@dataclass
class Readings:
    """The readings set beside the printed numbers (see :func:`replicability_readings`).

    Attributes
    ----------
    type1 : pandas.DataFrame
        Per size (index ``n``) and reading: the value (percent), its standard error
        and the difference to the printed Type I replicability.
    worst : pandas.DataFrame
        Per size and reading: the minimum over the gap grid, its standard error,
        the location of the minimum on each x-axis, the range of locations where
        the reading lies within two standard errors of its minimum (gap axis), and
        the power there.
    fit : pandas.DataFrame
        Per reading: the largest difference and the largest ``|z|`` against the
        printed Type I and worst-case values, whether every printed value lies
        within the tolerance, and per x-axis whether every printed Δ lies in the
        near-minimum range.
    verdict : str
        The readings and x-axes that reproduce every printed value.
    n_datasets : int
    """

    type1: pd.DataFrame
    worst: pd.DataFrame
    fit: pd.DataFrame
    verdict: str
    n_datasets: int

    def table(self, name):
        """A table to show: ``"type1"`` or ``"worst"`` (one column per reading, percent), or ``"fit"``.

        ``"type1"``: per size, the printed value and each reading; ``"worst"``: per
        size, the printed worst case and Δ, each reading's minimum, and the location
        of the normalized reading's minimum on each x-axis; ``"fit"``: ``fit``
        with the readings' labels.
        """
        check_choice(name, "name", ("type1", "worst", "fit"))
        if name == "fit":
            return self.fit.rename(index=READINGS)
        frame = self.type1 if name == "type1" else self.worst
        column = "value %" if name == "type1" else "min %"
        wide = frame.pivot(index="n", columns="reading", values=column)[list(READINGS)].rename(columns=READINGS)
        wide.insert(0, "printed", frame.groupby("n")["published %"].first())
        if name == "worst":
            wide.insert(1, "printed Δ", frame.groupby("n")["published delta %"].first())
            at = frame[frame["reading"] == "normalized_r2"].set_index("n")
            for axis in X_AXES:
                wide[f"{axis} at min. of 2 R2 - 1"] = at[f"{axis} at min %"]
        return wide

    def glue_values(self):
        """Numbers the investigation's text quotes, keyed ``readings_*``."""
        n1 = self.type1[self.type1["reading"] == "normalized_r2"]
        nw = self.worst[self.worst["reading"] == "normalized_r2"]
        return {"readings_verdict": self.verdict,
                "readings_t1_maxdiff": round(float(n1["difference"].abs().max()), 1),
                "readings_wc_maxdiff": round(float(nw["difference"].abs().max()), 1),
                "readings_max_z": round(float(self.fit.loc["normalized_r2", "largest |z|"]), 1),
                "readings_n_readings": len(READINGS)}


def _tolerance(se, m, rounding=0.05):
    # Two simulations of N data sets each (the paper's and ours): the se of their difference is
    # sqrt(2) se; Bonferroni multiple of the claims facility for m values; half a printed digit.
    return se_multiple(m) * np.sqrt(2) * se + rounding


def replicability_readings(type1_sizes=(1000, 2000, 10000, 20000, 100000, 200000),
                           worst_sizes=(20000, 100000, 200000), *, n_datasets=1000, gap_steps=100, gap_span=4.0,
                           alpha=0.05, seed=2005, scale="paper"):
    """Every reading of replicability and of the x-axis, beside the printed Section 4.1 numbers.

    Reads the Task I simulations of McNemar 90%/10% that notebook
    ``bouckaert2005/03_in_text_numbers`` uses (gap 0 per size; the worst-case grid
    from 0 to ``gap_span`` times the gap where the mean statistic equals its
    threshold), so at paper scale nothing is recomputed.

    Parameters
    ----------
    type1_sizes, worst_sizes : sequence of int
        Data set sizes of the printed Type I and worst-case values.
    n_datasets, gap_steps, gap_span, alpha, seed, scale
        As in :func:`~replicability.papers.bouckaert2005.in_text.mcnemar_worst_case`.

    Returns
    -------
    Readings

    Notes
    -----
    A reading reproduces the printed values when every difference is within
    ``z_m sqrt(2) se + 0.05`` points: ``se`` the standard error of our value over
    the data sets, ``sqrt(2)`` because the printed value is itself a simulation of
    as many data sets, ``z_m`` the Bonferroni multiple of
    :func:`~replicability.report.claims.se_multiple` for the ``m`` printed values,
    0.05 half a printed digit. An x-axis reproduces the printed Δ (integers) when
    each lies within 0.5 point of the range of gaps where the reading is within
    ``2 sqrt(2) se`` of its minimum: a noisy curve is flat near its minimum, so
    the location of the minimum is known only to that range.

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> res = replicability_readings([1000], [20000], scale="smoke")
    >>> sorted(res.fit.index) == sorted(READINGS), res.n_datasets
    (True, 10)
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    check_choice(scale, "scale", tuple(SCALE_CAPS))
    max_steps, max_sets = SCALE_CAPS[scale]
    sets = min(check_positive_int(n_datasets, "n_datasets"), max_sets)
    pub1 = read_published("bouckaert2005", "type1_replicability").set_index("n")["replicability_pct"]
    pubw = read_published("bouckaert2005", "worst_case").set_index("n")
    rows = []
    for n in type1_sizes:
        ds = cached_task1(["mcnemar_90_10"], n, [0.0], n_datasets=sets, alpha=alpha, seed=seed, scale=scale)
        values = reading_values(ds["histogram"].values[0, 0], n_repeats=ds.attrs[REPEATS_ATTR])
        for key, (v, se) in values.items():
            rows.append({"n": n, "reading": key, "value %": 100 * float(v), "se %": 100 * float(se),
                         "published %": pub1.get(n, np.nan)})
    type1 = pd.DataFrame(rows)
    type1["difference"] = type1["value %"] - type1["published %"]
    rows = []
    for n in worst_sizes:
        top = gap_span * float(task1_worst_case_gap(n, 0.1, alpha=alpha))
        gaps = np.linspace(0, top, min(gap_steps, max_steps))
        ds = cached_task1(["mcnemar_90_10"], n, gaps, n_datasets=sets, alpha=alpha, seed=seed, scale=scale)
        h = ds["histogram"].values[0]
        n_rep = ds.attrs[REPEATS_ATTR]
        n_a, n_b = outcome_cells(n_rep)
        power = (h * n_b).sum(axis=-1) / (n_rep * h.sum(axis=-1))
        for key, (v, se) in reading_values(h, n_repeats=n_rep).items():
            i = int(np.argmin(v))
            near = np.flatnonzero(v <= v[i] + 2 * np.sqrt(2) * se[i])
            row = {"n": n, "reading": key, "min %": 100 * float(v[i]), "se %": 100 * float(se[i]),
                   "published %": pubw["replicability_pct"].get(n, np.nan),
                   "published delta %": pubw["delta_pct"].get(n, np.nan),
                   "power at min %": 100 * float(power[i]), "published power %": pubw["power_pct"].get(n, np.nan),
                   "near-min gap from %": 100 * float(gaps[near.min()]),
                   "near-min gap to %": 100 * float(gaps[near.max()])}
            for axis, factor in X_AXES.items():
                row[f"{axis} at min %"] = 100 * factor * float(gaps[i])
            rows.append(row)
    worst = pd.DataFrame(rows)
    worst["difference"] = worst["min %"] - worst["published %"]
    fit = _fit(type1, worst)
    good = [READINGS[k] for k in fit.index if fit.loc[k, "reproduces all"]]
    axes = [a for a in X_AXES if (fit["reproduces all"] & fit[f"Δ on {a}"]).any()]
    verdict = (f"readings that reproduce every printed value: {', '.join(good) if good else 'none'}; "
               f"x-axes on which the printed Δ fall where such a reading is near its minimum: "
               f"{', '.join(axes) if axes else 'none'}")
    return Readings(type1, worst, fit, verdict, sets)


def _fit(type1, worst):
    rows = {}
    t1 = type1.dropna(subset=["published %"])
    wc = worst.dropna(subset=["published %"])
    m = len(t1) // len(READINGS) + len(wc) // len(READINGS)
    for key in READINGS:
        a, b = t1[t1["reading"] == key], wc[wc["reading"] == key]
        z = np.r_[a["difference"] / (np.sqrt(2) * a["se %"]), b["difference"] / (np.sqrt(2) * b["se %"])]
        ok_1 = np.abs(a["difference"]) <= _tolerance(a["se %"], m)
        ok_w = np.abs(b["difference"]) <= _tolerance(b["se %"], m)
        row = {"largest |difference|, Type I": float(a["difference"].abs().max()),
               "largest |difference|, worst case": float(b["difference"].abs().max()),
               "largest |z|": float(np.max(np.abs(z))),
               "reproduces all": bool(np.all(ok_1) and np.all(ok_w))}
        for axis, factor in X_AXES.items():
            lo, hi = factor * b["near-min gap from %"], factor * b["near-min gap to %"]
            delta = b["published delta %"]
            row[f"Δ on {axis}"] = bool(np.all((delta >= lo - 0.5) & (delta <= hi + 0.5)))
        rows[key] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "reading"
    return frame


def replicability_readings_page(*, type1_sizes=(1000, 2000, 10000, 20000, 100000, 200000),
                                worst_sizes=(20000, 100000, 200000), n_datasets=1000, gap_steps=100, gap_span=4.0,
                                alpha=0.05, seed=2005, scale="paper"):
    """The investigation of notebook ``bouckaert2005/03_in_text_numbers``: which reading gives the printed numbers.

    Parameters are those of :func:`replicability_readings`.

    Returns
    -------
    Page
        No claims (nothing to write); the values the text quotes
        (:meth:`Readings.glue_values`, ``readings_*``) and the tables ``type1``,
        ``worst`` (transposed: one column per size) and ``fit`` (:meth:`Readings.table`).

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> page = replicability_readings_page(type1_sizes=[1000], worst_sizes=[20000], scale="smoke")
    >>> list(page.tables), page.values["readings_n_readings"]
    (['type1', 'worst', 'fit'], 6)
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    res = replicability_readings(type1_sizes, worst_sizes, n_datasets=n_datasets, gap_steps=gap_steps,
                                 gap_span=gap_span, alpha=alpha, seed=seed, scale=scale)
    tables = {
        "type1": Table(res.table("type1"), 1, caption="Type I replicability (%), printed and each reading"),
        "worst": Table(res.table("worst").T, 1,
                       caption="Worst case (%), printed and each reading's minimum; where 2 R2 - 1 is lowest"),
        "fit": Table(res.table("fit"), 2, caption="Each reading against the printed values"),
    }
    return Page(Claims("bouckaert2005", "03_in_text_numbers_readings"), res.glue_values(), tables=tables)
