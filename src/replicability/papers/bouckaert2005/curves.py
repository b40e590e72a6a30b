"""Figures 1-4 of Bouckaert (2005): power and replicability curves of the Task I designs.

:func:`task1_curves` reads (at paper scale) or computes the Task I simulations of
:func:`~replicability.papers.bouckaert2005.task1.cached_task1` for groups of
designs that share their data sets, and returns one row per design, size and gap;
:func:`curve_summary` gives the quantities the text discusses per design and
size; :func:`curves_claims` holds the claims of Section 4 to the rules of
:mod:`replicability.papers.claims`; :func:`curves_figures` draws Figures 1-4.

References
----------
Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import check_choice
from ..claims import Claims, comparison_summary, rate_se
from ..page import plain
from ..tables import write_reproduced
from .histograms import stored_measures
from .task1 import cached_task1

__all__ = ["FIGURES", "GROUPS", "SCALE_CAPS", "curve_summary", "curves_claims", "curves_figures", "summary_tables",
           "task1_curves"]

#: Design groups at paper scale: (designs, largest gap, gap steps, data sets); a group shares its data sets.
GROUPS = {
    "mcnemar": (["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"], 0.3, 100, 1000),
    "resampling": (["resampling_10", "resampling_100"], 0.2, 100, 1000),
    "cv": (["cv_1x10", "sorted_cv_1x10", "cv_10x10", "sorted_cv_10x10"], 0.2, 100, 1000),
    "resampling_500": (["resampling_500"], 0.2, 100, 1000),
    "cv_50": (["cv_50x10", "sorted_cv_50x10"], 0.2, 100, 1000),
}
#: Caps on (gap steps, data sets) per scale.
SCALE_CAPS = {"smoke": (6, 10), "quick": (25, 100), "paper": (100, 1000)}
#: The designs of each figure.
FIGURES = {
    "Figure 1 (McNemar)": ["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"],
    "Figure 2 (resampling)": ["resampling_10", "resampling_100", "resampling_500"],
    "Figure 3 (repeated 10-fold cv)": ["cv_1x10", "cv_10x10", "cv_50x10"],
    "Figure 4 (sorted 10-fold cv)": ["sorted_cv_1x10", "sorted_cv_10x10", "sorted_cv_50x10"],
}
_COLUMNS = ["design", "n", "gap", "n_datasets", "power", "rejection", "replicability", "r2"]


def task1_curves(groups=None, sizes=(1000, 2000, 10000), *, alpha=0.05, seed=2005, scale="paper", write_as=None):
    """Power and replicability of Task I designs against the accuracy gap.

    Parameters
    ----------
    groups : dict, optional
        ``{name: (designs, largest gap, gap steps, data sets)}``; default :data:`GROUPS`.
    sizes : sequence of int
        Data set sizes.
    alpha : float
    seed : int
    scale : {"smoke", "quick", "paper"}
        Caps of :data:`SCALE_CAPS` on the gap steps and data sets; "paper" reads the committed results.
    write_as : str, optional
        Write the curves (without ``r2_se``) to ``reproduced/bouckaert2005/<write_as>.csv``.

    Returns
    -------
    pandas.DataFrame
        One row per design, size and gap: ``n_datasets``, ``power`` (share of
        correct decisions, B better), ``rejection``, ``replicability`` (all
        repetitions agree), ``r2`` and its standard error ``r2_se``.

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> frame = task1_curves({"mcnemar": (["mcnemar_50_50"], 0.3, 100, 1000)}, [1000], scale="smoke")
    >>> len(frame), int(frame["n_datasets"].iloc[0]), float(frame["gap"].max())
    (6, 10, 0.3)
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    check_choice(scale, "scale", tuple(SCALE_CAPS))
    groups = GROUPS if groups is None else groups
    max_steps, max_sets = SCALE_CAPS[scale]
    frames = []
    for designs, gap_max, steps, n_sets in groups.values():
        for n in sizes:
            ds = cached_task1(designs, n, np.linspace(0, gap_max, min(steps, max_steps)),
                              n_datasets=min(n_sets, max_sets), alpha=alpha, seed=seed, scale=scale)
            m = stored_measures(ds)
            for i, design in enumerate(designs):
                frames.append(pd.DataFrame({
                    "design": design, "n": n, "gap": ds["gap"].values, "n_datasets": ds.attrs["n_datasets"],
                    "power": m["b_better"][i], "rejection": m["rejection"][i], "replicability": m["consistency"][i],
                    "r2": m["r2"][i], "r2_se": m["r2_se"][i]}))
    curves = pd.concat(frames, ignore_index=True)
    if write_as is not None:
        write_reproduced(curves[_COLUMNS].round(6), "bouckaert2005", write_as)
    return curves


def _one(sel):
    null = sel[sel["gap"] == 0].iloc[0]
    worst = sel.loc[sel["replicability"].idxmin()]
    half = sel.loc[(sel["power"] - 0.5).abs().idxmin()]
    n_sets = int(sel["n_datasets"].iloc[0])
    # Mean power over the gaps: each gap has its own data sets, so the variances add.
    power_se = float(np.sqrt(np.sum(rate_se(sel["power"].to_numpy(), n_sets) ** 2)) / len(sel))
    return pd.Series({
        "data sets": n_sets, "type I error": null["rejection"], "type I repl. (all agree)": null["replicability"],
        "type I R2": null["r2"], "worst repl. (all agree)": worst["replicability"], "worst R2": sel["r2"].min(),
        "gap at worst": worst["gap"], "power at worst": worst["power"], "mean power": sel["power"].mean(),
        "mean power SE": power_se, "repl. at 50% power": half["replicability"], "power nearest 50%": half["power"],
    })


def curve_summary(curves, order=None):
    """Per design and size: Type I error and replicability, worst case, mean power (see :func:`task1_curves`).

    The worst case is the minimum of "all agree" over the gap grid, with the gap
    and power where it occurs; ``repl. at 50% power`` is "all agree" at the gap
    whose power is nearest 50%.

    Examples
    --------
    >>> import pandas as pd
    >>> curve = pd.DataFrame({"design": "d", "n": 1000, "gap": [0.0, 0.1, 0.2], "n_datasets": 100,
    ...                       "power": [0.05, 0.45, 0.9], "rejection": [0.05, 0.5, 0.9],
    ...                       "replicability": [0.7, 0.2, 0.8], "r2": [0.9, 0.6, 0.85]})
    >>> s = curve_summary(curve, order=["d"]).loc[("d", 1000)]
    >>> float(s["worst repl. (all agree)"]), float(s["gap at worst"]), float(s["repl. at 50% power"])
    (0.2, 0.1, 0.2)
    """
    order = [d for ds in FIGURES.values() for d in ds] if order is None else order
    summary = curves.groupby(["design", "n"]).apply(_one, include_groups=False)
    return summary.reindex(order, level="design")


def summary_tables(summary):
    """:func:`curve_summary` as two narrow tables: Type I and worst case; power."""
    first = ["data sets", "type I error", "type I repl. (all agree)", "type I R2", "worst repl. (all agree)",
             "worst R2"]
    return summary[first], summary.drop(columns=first)


def curves_claims(curves, summary, page="02_task1_curves"):
    """The claims of Bouckaert (2005), Section 4, on Figures 1-4, held to :mod:`~replicability.papers.claims`.

    "All agree" is a rate over the ``n`` independent data sets of a gap, with
    ``rate_se(value, n)``; mean power over the gaps has the standard error of a
    mean of independent rates; R̂2 has its standard error over the data sets.
    Two independent estimates are compared with ``sqrt(se_1^2 + se_2^2)``.

    Returns
    -------
    tuple of (Claims, dict)
    """
    c = Claims("bouckaert2005", page)
    src = "Section 4, Figures 1-4"
    s = summary
    n_sets = int(s["data sets"].min())
    sizes = sorted(s.index.get_level_values("n").unique())
    designs = list(dict.fromkeys(s.index.get_level_values("design")))
    lo, hi, se = [], [], []
    for d in designs:
        part = s.loc[d].reindex(sizes)
        v, e = part["mean power"].to_numpy(), part["mean power SE"].to_numpy()
        lo += list(v[:-1])
        hi += list(v[1:])
        se += list(np.hypot(e[:-1], e[1:]))
    c.greater("power_increases", "Power increases with the data set size (every design)", src, larger=hi, smaller=lo,
              se=se, digits=3)
    at_half, minimum = s["repl. at 50% power"].to_numpy(), s["worst repl. (all agree)"].to_numpy()
    half_tol = 2 * np.hypot(rate_se(at_half, n_sets), rate_se(minimum, n_sets))
    half_excess = np.abs(at_half - minimum) - half_tol
    c.close_to("worst_at_half_power", "Replicability falls to its minimum where power is about 50% (\"all agree\" at "
               "the gap of power nearest 50% against the minimum over the grid)", src,
               value=s["repl. at 50% power"].to_numpy(), published=s["worst repl. (all agree)"].to_numpy(),
               se=np.hypot(rate_se(s["repl. at 50% power"].to_numpy(), n_sets),
                           rate_se(s["worst repl. (all agree)"].to_numpy(), n_sets)), rounding=0.0, digits=3)
    first = s.xs(sizes[0], level="n")
    others = s.drop(index=sizes[0], level="n")
    ref = first.loc[others.index.get_level_values("design"), "worst repl. (all agree)"].to_numpy()
    val = others["worst repl. (all agree)"].to_numpy()
    c.close_to("worst_free_of_n", "Worst-case replicability does not change with the data set size (\"all agree\", "
               "each size against the smallest)", src, value=val, published=ref,
               se=np.hypot(rate_se(val, n_sets), rate_se(ref, n_sets)), rounding=0.0, digits=3)
    mc = ["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"]
    pw = np.array([[s.loc[(d, n), "mean power"] for n in sizes] for d in mc])
    pw_se = np.array([[s.loc[(d, n), "mean power SE"] for n in sizes] for d in mc])
    c.greater("mc_power_by_t", "McNemar: a larger test set increases power (90/10 < 66/33 < 50/50, every size)",
              "Section 4.1, Figure 1", larger=pw[1:].ravel(), smaller=pw[:-1].ravel(),
              se=np.hypot(pw_se[1:], pw_se[:-1]).ravel(), digits=3)
    wr = np.array([[s.loc[(d, n), "worst R2"] for n in sizes] for d in mc])
    wr_se = np.array([[curves[(curves["design"] == d) & (curves["n"] == n)].sort_values("r2")["r2_se"].iloc[0]
                       for n in sizes] for d in mc])
    c.greater("mc_worst_by_t", "McNemar: a larger test set increases worst-case replicability (pairwise R̂2)",
              "Section 4.1, Figure 1", larger=wr[1:].ravel(), smaller=wr[:-1].ravel(),
              se=np.hypot(wr_se[1:], wr_se[:-1]).ravel(), digits=3)
    t1 = np.array([[s.loc[(d, n), "type I repl. (all agree)"] for n in sizes] for d in mc])
    c.close_to("mc_type1_same", "McNemar: ... but not Type I replicability (\"all agree\" at gap 0 the same for the "
               "three splits)", "Section 4.1, Figure 1", value=t1[1:].ravel(), published=np.tile(t1[0], 2),
               se=np.hypot(rate_se(t1[1:].ravel(), n_sets), rate_se(np.tile(t1[0], 2), n_sets)), rounding=0.0,
               digits=3)
    worst_mc = s.loc[mc, "worst repl. (all agree)"].to_numpy()
    c.at_most("mc_worst_low", "Worst-case replicability of McNemar's test is low (\"all agree\" below 50%)",
              "Section 4.1, Figure 1", value=worst_mc, bound=0.5, se=rate_se(0.5, n_sets), digits=3)
    worst_range = s.groupby(level="design")["worst repl. (all agree)"].agg(lambda v: v.max() - v.min())
    values = {**c.verdicts(), "worst_range_max": round(float(worst_range.max()), 3),
              "power_at_worst_lo": round(float(s["power at worst"].min()), 2),
              "power_at_worst_hi": round(float(s["power at worst"].max()), 2),
              "mc_worst_by_t_values": ", ".join(f"{v:.2f}" for v in wr.mean(axis=1)),
              "mc_type1_by_t": ", ".join(f"{v:.3f}" for v in t1.mean(axis=1)),
              "n_datasets": n_sets, "se_half": round(float(rate_se(0.5, n_sets)), 3),
              "half_within": int(np.sum(half_excess <= 1e-12)), "half_cells": int(half_excess.size),
              "half_worst_excess": round(float(half_excess.max()), 4),
              "summary": comparison_summary([], [], c) + " (the paper prints no numbers in Figures 1-4)"}
    return c, plain(values)


def curves_figures(curves, sizes=None):
    """Figures 1-4: power (solid), replicability "all agree" (dashed) and R̂2 (dotted) per design, coloured by size.

    Returns
    -------
    list of matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    sizes = sorted(curves["n"].unique()) if sizes is None else sizes
    colours = dict(zip(sizes, ["tab:blue", "tab:orange", "tab:green", "tab:red"]))
    figs = []
    for title, designs in FIGURES.items():
        fig, axes = plt.subplots(1, 3, figsize=(11, 3.3), sharey=True, layout="constrained")
        for ax, design in zip(axes, designs):
            for n in sizes:
                sel = curves[(curves["design"] == design) & (curves["n"] == n)]
                ax.plot(sel["gap"], 100 * sel["power"], "-", color=colours[n], label=f"n = {n:,}")
                ax.plot(sel["gap"], 100 * sel["replicability"], "--", color=colours[n])
                ax.plot(sel["gap"], 100 * sel["r2"], ":", color=colours[n])
            ax.set_title(design)
            ax.set_xlabel("accuracy gap B - A")
        axes[0].set_ylabel("%")
        axes[0].legend(fontsize=8)
        fig.suptitle(title)
        figs.append(fig)
    return figs
