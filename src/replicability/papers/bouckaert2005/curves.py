"""Figures 1-4 of Bouckaert (2005): power and replicability curves of the Task I designs.

:func:`task1_curves` reads (at paper scale) or computes the Task I simulations of
:func:`~replicability.papers.bouckaert2005.task1.cached_task1` for groups of
designs that share their data sets, and returns one row per design, size and gap;
:func:`curve_summary` gives the quantities the text discusses per design and
size; :func:`curves_claims` holds the claims of Section 4 to the rules of
:mod:`replicability.report.claims`; :func:`task1_curves_page` makes the page, with
Figures 1-4.

Replicability is read as the paper reads it: the normalized replicability
``2 R̂2 - 1`` of Bouckaert (2004) against ``4q - 1``, twice the accuracy gap
``2q - 1/2`` of the source; they alone reproduce the numbers Section 4.1 prints
(:func:`~replicability.papers.bouckaert2005.readings.replicability_readings`).
The share of data sets on which all repetitions agree is kept beside it.

References
----------
Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338

Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_choice
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table, plain
from ...report.uncertainty import rate_se
from .histograms import stored_measures
from .readings import X_AXES
from .task1 import SCALE_CAPS, cached_task1

__all__ = ["FIGURES", "GROUPS", "SCALE_CAPS", "curve_summary", "curves_claims", "summary_tables", "task1_curves",
           "task1_curves_page"]

#: Design groups at paper scale: (designs, largest gap, gap steps, data sets); a group shares its data sets.
GROUPS = {
    "mcnemar": (["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"], 0.3, 100, 1000),
    "resampling": (["resampling_10", "resampling_100"], 0.2, 100, 1000),
    "cv": (["cv_1x10", "sorted_cv_1x10", "cv_10x10", "sorted_cv_10x10"], 0.2, 100, 1000),
    "resampling_500": (["resampling_500"], 0.2, 100, 1000),
    "cv_50": (["cv_50x10", "sorted_cv_50x10"], 0.2, 100, 1000),
}
#: The designs of each figure.
FIGURES = {
    "Figure 1 (McNemar)": ["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"],
    "Figure 2 (resampling)": ["resampling_10", "resampling_100", "resampling_500"],
    "Figure 3 (repeated 10-fold cv)": ["cv_1x10", "cv_10x10", "cv_50x10"],
    "Figure 4 (sorted 10-fold cv)": ["sorted_cv_1x10", "sorted_cv_10x10", "sorted_cv_50x10"],
}
_COLUMNS = ["design", "n", "gap", "n_datasets", "power", "rejection", "all_agree", "r2", "normalized_r2"]
#: The x-axis of the figures and the summary: ``4q - 1`` (twice the accuracy gap), the paper's reading.
X_AXIS = "4q - 1"
_NORMALIZED, _ALL = "2 R2 - 1", "all agree"  # the readings "normalized_r2" and "all_agree" of READINGS


def task1_curves(groups=None, sizes=(1000, 2000, 10000), *, alpha=0.05, seed=2005, scale="paper"):
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
        Caps of ``SCALE_CAPS`` on the gap steps and data sets; "paper" reads the committed results.

    Returns
    -------
    pandas.DataFrame
        One row per design, size and gap ``2q - 1/2``: ``n_datasets``, ``power``
        (share of correct decisions, B better), ``rejection``, ``all_agree``
        (share of data sets on which all repetitions agree), ``r2``,
        ``normalized_r2`` (``2 R̂2 - 1``, the paper's measure) and the standard
        errors ``r2_se``, ``normalized_r2_se``, all from
        :func:`~replicability.papers.bouckaert2005.histograms.histogram_measures`.

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> frame = task1_curves({"mcnemar": (["mcnemar_50_50"], 0.3, 100, 1000)}, [1000], scale="smoke")
    >>> len(frame), int(frame["n_datasets"].iloc[0]), float(frame["gap"].max())
    (6, 10, 0.3)
    >>> bool(((2 * frame["r2"] - 1 - frame["normalized_r2"]).abs() < 1e-12).all())
    True
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
                    "power": m["b_better"][i], "rejection": m["rejection"][i], "all_agree": m["consistency"][i],
                    "r2": m["r2"][i], "r2_se": m["r2_se"][i], "normalized_r2": m["normalized_r2"][i],
                    "normalized_r2_se": m["normalized_r2_se"][i]}))
    return pd.concat(frames, ignore_index=True)


def _one(sel):
    null = sel[sel["gap"] == 0].iloc[0]
    worst = sel.loc[sel["normalized_r2"].idxmin()]
    half = sel.loc[(sel["power"] - 0.5).abs().idxmin()]
    n_sets = int(sel["n_datasets"].iloc[0])
    # Mean power over the gaps: each gap has its own data sets, so the variances add.
    power_se = float(np.sqrt(np.sum(rate_se(sel["power"].to_numpy(), n_sets) ** 2)) / len(sel))
    return pd.Series({
        "data sets": n_sets, "type I error": null["rejection"], f"type I repl. ({_NORMALIZED})": null["normalized_r2"],
        "type I SE": null["normalized_r2_se"], f"worst repl. ({_NORMALIZED})": worst["normalized_r2"],
        "worst SE": worst["normalized_r2_se"], f"type I repl. ({_ALL})": null["all_agree"],
        f"worst repl. ({_ALL})": sel["all_agree"].min(), f"{X_AXIS} at worst": X_AXES[X_AXIS] * worst["gap"],
        "power at worst": worst["power"], "mean power": sel["power"].mean(), "mean power SE": power_se,
        "repl. at 50% power": half["normalized_r2"], "SE at 50% power": half["normalized_r2_se"],
        "power nearest 50%": half["power"],
    })


def curve_summary(curves, order=None):
    """Per design and size: Type I error and replicability, worst case, mean power (see :func:`task1_curves`).

    Replicability is the normalized ``2 R̂2 - 1`` with its standard error
    (``type I SE``, ``worst SE``, ``SE at 50% power``); the worst case is its
    minimum over the gap grid, located on the x-axis ``4q - 1`` (twice the gap)
    with the power there; ``repl. at 50% power`` is ``2 R̂2 - 1`` at the gap whose
    power is nearest 50%. "All agree" at gap 0 and its minimum over the grid
    are kept beside.

    Examples
    --------
    >>> import pandas as pd
    >>> curve = pd.DataFrame({"design": "d", "n": 1000, "gap": [0.0, 0.1, 0.2], "n_datasets": 100,
    ...                       "power": [0.05, 0.45, 0.9], "rejection": [0.05, 0.5, 0.9],
    ...                       "all_agree": [0.7, 0.2, 0.8], "normalized_r2": [0.8, 0.2, 0.7],
    ...                       "normalized_r2_se": [0.02, 0.03, 0.02]})
    >>> s = curve_summary(curve, order=["d"]).loc[("d", 1000)]
    >>> float(s["worst repl. (2 R2 - 1)"]), float(s["4q - 1 at worst"]), float(s["repl. at 50% power"])
    (0.2, 0.2, 0.2)
    """
    order = [d for ds in FIGURES.values() for d in ds] if order is None else order
    summary = curves.groupby(["design", "n"]).apply(_one, include_groups=False)
    return summary.reindex(order, level="design")


def summary_tables(summary):
    """:func:`curve_summary` as two narrow tables: Type I and worst case; where the worst case lies, and power."""
    first = ["data sets", "type I error", f"type I repl. ({_NORMALIZED})", "type I SE", f"worst repl. ({_NORMALIZED})",
             "worst SE", f"type I repl. ({_ALL})", f"worst repl. ({_ALL})"]
    return summary[first], summary.drop(columns=first)


def curves_claims(summary, page="02_task1_curves"):
    """The claims of Bouckaert (2005), Section 4, on Figures 1-4, held to :mod:`~replicability.report.claims`.

    Replicability is the normalized ``2 R̂2 - 1`` (the paper's reading), with its
    standard error over the independent data sets of a gap; mean power over the
    gaps has the standard error of a mean of independent rates. The paper prints
    no numbers for the figures, so every claim compares two of our estimates: two
    simulations, with the standard error of their difference
    ``sqrt(se_1^2 + se_2^2)`` (``sqrt(2)`` times one when they are alike, the
    rule of :mod:`~replicability.report.claims`).

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`curve_summary`.
    page : str

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
    type1, worst = f"type I repl. ({_NORMALIZED})", f"worst repl. ({_NORMALIZED})"
    lo, hi, se = [], [], []
    for d in designs:
        part = s.loc[d].reindex(sizes)
        v, e = part["mean power"].to_numpy(), part["mean power SE"].to_numpy()
        lo += list(v[:-1])
        hi += list(v[1:])
        se += list(np.hypot(e[:-1], e[1:]))
    c.greater("power_increases", "Power increases with the data set size (every design)", src, larger=hi, smaller=lo,
              se=se, digits=3)
    at_half, minimum = s["repl. at 50% power"].to_numpy(), s[worst].to_numpy()
    half_se = np.hypot(s["SE at 50% power"].to_numpy(), s["worst SE"].to_numpy())
    half_excess = np.abs(at_half - minimum) - 2 * half_se
    c.close_to("worst_at_half_power", "Replicability falls to its minimum where power is about 50% (2 R2 - 1 at the "
               "gap of power nearest 50% against its minimum over the grid)", src, value=at_half, published=minimum,
               se=half_se, rounding=0.0, digits=3)
    first = s.xs(sizes[0], level="n")
    others = s.drop(index=sizes[0], level="n")
    at_first = first.loc[others.index.get_level_values("design")]
    c.close_to("worst_free_of_n", "Worst-case replicability does not change with the data set size (2 R2 - 1, each "
               "size against the smallest)", src, value=others[worst].to_numpy(), published=at_first[worst].to_numpy(),
               se=np.hypot(others["worst SE"].to_numpy(), at_first["worst SE"].to_numpy()), rounding=0.0, digits=3)
    mc = ["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"]

    def by_split(column):  # (split, size)
        return np.array([[s.loc[(d, n), column] for n in sizes] for d in mc])

    pw, pw_se = by_split("mean power"), by_split("mean power SE")
    c.greater("mc_power_by_t", "McNemar: a larger test set increases power (90/10 < 66/33 < 50/50, every size)",
              "Section 4.1, Figure 1", larger=pw[1:].ravel(), smaller=pw[:-1].ravel(),
              se=np.hypot(pw_se[1:], pw_se[:-1]).ravel(), digits=3)
    wr, wr_se = by_split(worst), by_split("worst SE")
    c.greater("mc_worst_by_t", "McNemar: a larger test set increases worst-case replicability (2 R2 - 1)",
              "Section 4.1, Figure 1", larger=wr[1:].ravel(), smaller=wr[:-1].ravel(),
              se=np.hypot(wr_se[1:], wr_se[:-1]).ravel(), digits=3)
    t1, t1_se = by_split(type1), by_split("type I SE")
    c.close_to("mc_type1_same", "McNemar: ... but not Type I replicability (2 R2 - 1 at gap 0 the same for the three "
               "splits)", "Section 4.1, Figure 1", value=t1[1:].ravel(), published=np.tile(t1[0], 2),
               se=np.hypot(t1_se[1:].ravel(), np.tile(t1_se[0], 2)), rounding=0.0, digits=3)
    c.at_most("mc_worst_low", "Worst-case replicability of McNemar's test is low (2 R2 - 1 below 50%)",
              "Section 4.1, Figure 1", value=wr.ravel(), bound=0.5, se=wr_se.ravel(), digits=3)
    worst_range = s.groupby(level="design")[worst].agg(lambda v: v.max() - v.min())
    values = {**c.verdicts(), "worst_range_max": round(float(worst_range.max()), 3),
              "power_at_worst_lo": round(float(s["power at worst"].min()), 2),
              "power_at_worst_hi": round(float(s["power at worst"].max()), 2),
              "mc_worst_by_t_values": ", ".join(f"{v:.3f}" for v in wr.mean(axis=1)),
              "mc_type1_by_t": ", ".join(f"{v:.3f}" for v in t1.mean(axis=1)),
              "mc_type1_all_by_t": ", ".join(f"{v:.3f}" for v in by_split(f"type I repl. ({_ALL})").mean(axis=1)),
              "mc_worst_all_agree_hi": round(float(by_split(f"worst repl. ({_ALL})").max()), 3),
              "n_datasets": n_sets, "worst_se_lo": round(float(s["worst SE"].min()), 3),
              "worst_se_hi": round(float(s["worst SE"].max()), 3),
              "half_within": int(np.sum(half_excess <= 1e-12)), "half_cells": int(half_excess.size),
              "summary": comparison_summary([], [], c) + " (the paper prints no numbers in Figures 1-4)"}
    return c, plain(values)


def _curves_figure(curves, title, designs, sizes=None):
    """One of Figures 1-4: power and replicability ``2 R̂2 - 1`` against ``4q - 1``, per design, coloured by size.

    As the paper's figures: power (solid) and the normalized replicability
    ``2 R̂2 - 1`` (dashed), in percent, against ``4q - 1`` in percent (twice the
    accuracy gap); "all agree" is drawn beside as a thin, light dotted line.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    sizes = sorted(curves["n"].unique()) if sizes is None else sizes
    colours = dict(zip(sizes, ["tab:blue", "tab:orange", "tab:green", "tab:red"]))
    styles = {"power": {"ls": "-"}, _NORMALIZED: {"ls": "--"}, _ALL: {"ls": ":", "lw": 1.0, "alpha": 0.5}}
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.3), sharey=True, layout="constrained")
    for ax, design in zip(axes, designs):
        for n in sizes:
            sel = curves[(curves["design"] == design) & (curves["n"] == n)]
            x = 100 * X_AXES[X_AXIS] * sel["gap"]
            ax.plot(x, 100 * sel["power"], color=colours[n], label=f"n = {n:,}", **styles["power"])
            ax.plot(x, 100 * sel["normalized_r2"], color=colours[n], **styles[_NORMALIZED])
            ax.plot(x, 100 * sel["all_agree"], color=colours[n], **styles[_ALL])
        ax.set_title(design)
        ax.set_xlabel(f"{X_AXIS} = 2 x accuracy gap (%)")
    axes[0].set_ylabel("%")
    axes[0].legend(fontsize=8)
    axes[1].legend([Line2D([], [], color="k", **style) for style in styles.values()], list(styles), fontsize=8)
    fig.suptitle(title)
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def _curves_figures(curves):
    """Figures 1-4 as the page draws them: ``{"figure1": draw, ..., "figure4": draw}`` (see :data:`FIGURES`)."""
    return {f"figure{i}": partial(_curves_figure, curves, title, designs)
            for i, (title, designs) in enumerate(FIGURES.items(), start=1)}


def task1_curves_page(*, sizes=(1000, 2000, 10000), alpha=0.05, seed=2005, scale="paper"):
    """The page of notebook ``bouckaert2005/02_task1_curves``: Figures 1-4 and the claims of Section 4 on them.

    Parameters are those of :func:`task1_curves` (all of :data:`GROUPS`).

    Returns
    -------
    Page
        The claims and values of :func:`curves_claims` on :func:`curve_summary`; the
        tables ``type1_and_worst`` and ``power`` (:func:`summary_tables`); the figures
        ``figure1`` ... ``figure4`` (:data:`FIGURES`); the reproduced table
        ``figures1_4`` (the curves without their standard errors, rounded to 6 decimals).

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> page = task1_curves_page(sizes=(1000, 2000), scale="smoke")
    >>> list(page.tables), list(page.figures), list(page.reproduced)
    (['type1_and_worst', 'power'], ['figure1', 'figure2', 'figure3', 'figure4'], ['figures1_4'])
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    curves = task1_curves(sizes=sizes, alpha=alpha, seed=seed, scale=scale)
    summary = curve_summary(curves)
    claims, values = curves_claims(summary)
    type1_and_worst, power = summary_tables(summary)
    return Page(claims, values, tables={"type1_and_worst": Table(type1_and_worst, 3), "power": Table(power, 3)},
                reproduced={"figures1_4": curves[_COLUMNS].round(6)}, figures=_curves_figures(curves))
