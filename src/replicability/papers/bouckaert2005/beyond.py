"""Beyond Bouckaert (2005): Task I at a million instances, and an adaptive sorted-cv design.

:func:`million` compares the Task I designs at 1,000,000 instances with the same
designs at 10,000 (gaps rescaled by ``sqrt(n)``); :func:`adaptive_design` runs
the adaptive design of :func:`~replicability.papers.bouckaert2005.adaptive.simulate_adaptive`
through the result store and sets it beside the fixed sorted designs;
:func:`beyond_claims` holds both claims to the rules of
:mod:`replicability.report.claims`; :func:`beyond_page` makes the page of notebook
``bouckaert2005/04_beyond``.

References
----------
Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ...engine.store import cached_result
from ...report.claims import Claims
from ...report.page import Page, Table, plain
from ...report.uncertainty import rate_se
from .adaptive import simulate_adaptive
from .curves import _ALL, _NORMALIZED, GROUPS, SCALE_CAPS, X_AXIS, curve_summary, task1_curves
from .histograms import stored_measures
from .readings import X_AXES
from .task1 import TASK1_DESIGNS

__all__ = ["ADAPTIVE", "GROUPS_LARGE", "adaptive_design", "beyond_claims", "beyond_page", "key_numbers", "million"]

#: The design groups at a million instances: gaps a tenth of :data:`~replicability.papers.bouckaert2005.curves.GROUPS`'
#: since the gap at a given power scales as ``1 / sqrt(n)``.
GROUPS_LARGE = {
    "mcnemar": (["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"], 0.03, 100, 1000),
    "resampling": (["resampling_10", "resampling_100"], 0.02, 100, 1000),
    "cv": (["cv_1x10", "sorted_cv_1x10", "cv_10x10", "sorted_cv_10x10"], 0.02, 100, 1000),
    "resampling_500": (["resampling_500"], 0.02, 100, 1000),
    "cv_50": (["cv_50x10", "sorted_cv_50x10"], 0.02, 100, 1000),
}
#: The adaptive design: sorted 10-fold cv with 1, 10, then 50 runs, stopping at p < 0.001 or p > 0.5.
ADAPTIVE = {"stages": [1, 10, 50], "scheme": "sorted_cv", "stop_reject": 0.001, "stop_accept": 0.5}
_FIXED_SORTED = ["sorted_cv_1x10", "sorted_cv_10x10", "sorted_cv_50x10"]


def key_numbers(frame, order=None):
    """Per design: Type I error and replicability, worst case and the power where it occurs.

    Replicability is the normalized ``2 R̂2 - 1`` with its standard error, at gap 0
    and its minimum over the gap grid; "all agree" is kept beside: the columns of
    :func:`~replicability.papers.bouckaert2005.curves.curve_summary` (one size).

    Examples
    --------
    >>> import pandas as pd
    >>> curve = pd.DataFrame({"design": "d", "n": 1000, "gap": [0.0, 0.1, 0.2], "n_datasets": 100,
    ...                       "power": [0.05, 0.5, 0.9], "rejection": [0.05, 0.5, 0.9],
    ...                       "all_agree": [0.7, 0.1, 0.8], "normalized_r2": [0.9, 0.1, 0.85],
    ...                       "normalized_r2_se": [0.01, 0.02, 0.01]})
    >>> key_numbers(curve, order=["d"]).loc["d"].round(2).tolist()
    [0.05, 0.9, 0.01, 0.1, 0.02, 0.7, 0.1, 0.5]
    """
    columns = ["type I error", f"type I repl. ({_NORMALIZED})", "type I SE", f"worst repl. ({_NORMALIZED})",
               "worst SE", f"type I repl. ({_ALL})", f"worst repl. ({_ALL})", "power at worst"]
    return curve_summary(frame, order=order).droplevel("n")[columns]


def million(*, n_large=1_000_000, n_ref=10_000, groups_large=None, groups_ref=None, alpha=0.05, seed=2005,
            scale="paper"):
    """Task I designs at ``n_large`` and ``n_ref`` instances, and their key numbers side by side.

    Returns
    -------
    large, ref : pandas.DataFrame
        The curves (:func:`~replicability.papers.bouckaert2005.curves.task1_curves`).
    compare : pandas.DataFrame
        :func:`key_numbers` at both sizes (column blocks ``"n = ..."``).
    """
    large = task1_curves(GROUPS_LARGE if groups_large is None else groups_large, [n_large], alpha=alpha, seed=seed,
                         scale=scale)
    ref = task1_curves(GROUPS if groups_ref is None else groups_ref, [n_ref], alpha=alpha, seed=seed, scale=scale)
    compare = pd.concat({f"n = {n_ref:,}": key_numbers(ref), f"n = {n_large:,}": key_numbers(large)}, axis=1)
    return large, ref, compare


def adaptive_design(ref, *, n_ref=10_000, options=None, n_datasets=1000, alpha=0.05, seed=2005, scale="paper"):
    """The adaptive sorted-cv design at ``n_ref`` on the gap grid of the cv group, beside the fixed sorted designs.

    The simulation goes through :func:`~replicability.engine.store.cached_result`
    under the name ``"bouckaert2005/adaptive"`` (committed at paper scale).

    Parameters
    ----------
    ref : pandas.DataFrame
        The curves at ``n_ref`` (from :func:`million`), for the fixed designs.
    options : dict, optional
        The design (default :data:`ADAPTIVE`).

    Returns
    -------
    table : pandas.DataFrame
        Per design: Type I error, Type I and worst-case replicability (``2 R̂2 - 1``
        with its standard error; "all agree" beside), mean power, cost.
    adapt : pandas.DataFrame
        The adaptive design's curve, with the columns of
        :func:`~replicability.papers.bouckaert2005.curves.task1_curves`.
    ds : xarray.Dataset
        The stored simulation (``histogram``, ``mean_cost``).
    """
    options = dict(ADAPTIVE if options is None else options)
    _, gap_max, steps, n_sets = GROUPS["cv"]
    max_steps, max_sets = SCALE_CAPS[scale]
    gaps = np.linspace(0, gap_max, min(steps, max_steps))
    n_sets_adaptive = min(n_datasets, max_sets)
    params = {"n": n_ref, "gaps": [float(g) for g in gaps], "n_datasets": n_sets_adaptive, "alpha": alpha,
              "seed": seed, "options": options, "version": 1}
    ds = cached_result("bouckaert2005/adaptive", params,
                       lambda: simulate_adaptive(n_ref, gaps, n_datasets=n_sets_adaptive, alpha=alpha, seed=seed,
                                                 **{**options, "stages": tuple(options["stages"])}),
                       scale=scale)
    m = stored_measures(ds)
    adapt = pd.DataFrame({"design": "adaptive sorted cv", "n": n_ref, "gap": gaps, "n_datasets": n_sets_adaptive,
                          "power": m["b_better"], "rejection": m["rejection"], "all_agree": m["consistency"],
                          "r2": m["r2"], "r2_se": m["r2_se"], "normalized_r2": m["normalized_r2"],
                          "normalized_r2_se": m["normalized_r2_se"]})
    designs = _FIXED_SORTED + ["adaptive sorted cv"]
    curves = pd.concat([ref[ref["design"].isin(_FIXED_SORTED)], adapt], ignore_index=True)
    curves = curves[curves["gap"] <= gap_max + 1e-12]
    table = curve_summary(curves, order=designs).droplevel("n")
    table = table[["type I error", f"type I repl. ({_NORMALIZED})", "type I SE", f"worst repl. ({_NORMALIZED})",
                   "worst SE", f"type I repl. ({_ALL})", f"worst repl. ({_ALL})", "mean power"]].copy()
    costs = {d: np.full(len(gaps), float(TASK1_DESIGNS[d].cost)) for d in _FIXED_SORTED}
    costs["adaptive sorted cv"] = ds["mean_cost"].values
    table["cost at gap 0"] = [costs[d][0] for d in designs]
    table["mean cost"] = [costs[d].mean() for d in designs]
    table.attrs["n_datasets"] = n_sets_adaptive
    return table, adapt, ds


def beyond_claims(compare, table, *, n_datasets=1000, alpha=0.05):
    """The two claims of this page, held to the rules of :mod:`~replicability.report.claims`.

    Replicability is the normalized ``2 R̂2 - 1`` (the paper's reading) with its
    standard error over the independent data sets of a gap; two of our
    simulations are compared with the standard error of their difference
    ``sqrt(se_1^2 + se_2^2)``. The Type I error is a rate over the
    ``n_datasets`` data sets (``rate_se``).

    Parameters
    ----------
    compare : pandas.DataFrame
        :func:`key_numbers` at both sizes (from :func:`million`).
    table : pandas.DataFrame
        From :func:`adaptive_design`.

    Returns
    -------
    tuple of (Claims, dict)
    """
    c = Claims("bouckaert2005", "04_beyond")
    ref_key, large_key = compare.columns.get_level_values(0).unique()
    ref, large = compare[ref_key], compare[large_key]
    type1, worst = f"type I repl. ({_NORMALIZED})", f"worst repl. ({_NORMALIZED})"
    src = "Title and Section 5 (low replicability is not a small data set phenomenon)"
    for key, column, se, what in [("million_type1", type1, "type I SE", "Type I"),
                                  ("million_worst", worst, "worst SE", "Worst-case")]:
        c.close_to(key, f"{what} replicability at 1,000,000 instances equals that at 10,000 (every design, "
                   "2 R2 - 1)", src, value=large[column].to_numpy(), published=ref[column].to_numpy(),
                   se=np.hypot(large[se].to_numpy(), ref[se].to_numpy()), rounding=0.0, digits=3)
    n_sets = table.attrs.get("n_datasets", n_datasets)
    ad, fixed = table.loc["adaptive sorted cv"], table.loc["sorted_cv_50x10"]
    src = "Section 5 (an adaptive design: promising preliminary results with sorted cv)"
    c.greater("adaptive_cheaper", "The adaptive design costs a fraction of 50x10 sorted cv (mean cost over the grid)",
              src, larger=fixed["mean cost"], smaller=ad["mean cost"], digits=0)
    a, b = ad[[type1, worst]].to_numpy(float), fixed[[type1, worst]].to_numpy(float)
    ses = np.hypot(ad[["type I SE", "worst SE"]].to_numpy(float), fixed[["type I SE", "worst SE"]].to_numpy(float))
    c.close_to("adaptive_repl", "... with the Type I and worst-case replicability of 50x10 sorted cv (2 R2 - 1)", src,
               value=a, published=b, se=ses, rounding=0.0, digits=3)
    c.at_most("adaptive_level", "... and a Type I error at most the level, despite its repeated looks", src,
              value=ad["type I error"], bound=alpha, se=rate_se(alpha, n_sets), digits=3)
    diff = large - ref
    a, b = large[type1].to_numpy(), ref[type1].to_numpy()
    beyond = np.abs(a - b) > 2 * np.hypot(large["type I SE"].to_numpy(), ref["type I SE"].to_numpy())
    mcnemar = [d for d in diff.index if d.startswith("mcnemar")]
    se_all = np.r_[ref["type I SE"], ref["worst SE"], large["type I SE"], large["worst SE"]]
    values = {**c.verdicts(), "max_diff_type1": round(float(diff[type1].abs().max()), 3),
              "max_diff_worst": round(float(diff[worst].abs().max()), 3),
              "max_diff_mcnemar": round(float(diff.loc[mcnemar, [type1, worst]].abs().max().max()), 3),
              "adaptive_cost": round(float(ad["mean cost"]), 0), "adaptive_type1": round(float(ad["type I error"]), 3),
              "se_lo": round(float(se_all.min()), 3), "se_hi": round(float(se_all.max()), 3),
              "n_designs": int(a.size), "type1_beyond": int(beyond.sum()),
              "type1_beyond_designs": ", ".join(ref.index[beyond]) or "none", "type1_lower": int(np.sum(a < b)),
              "summary": f"0 cells compared (extensions beyond the paper); {c.summary()}"}
    return c, plain(values)


def _million_figure(large, ref, n_large=1_000_000, n_ref=10_000):
    """Power (solid), ``2 R̂2 - 1`` (dashed) and "all agree" (light, dotted) at both sizes against ``4q - 1``.

    ``4q - 1`` (twice the accuracy gap, the paper's x-axis) is rescaled by ``sqrt(n / n_ref)``.
    """
    import matplotlib.pyplot as plt

    figures = {"McNemar": ["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"],
               "resampling": ["resampling_10", "resampling_100", "resampling_500"],
               "repeated 10-fold cv": ["cv_1x10", "cv_10x10", "cv_50x10"],
               "sorted 10-fold cv": _FIXED_SORTED}
    fig, axes = plt.subplots(4, 3, figsize=(11, 11), sharey=True, layout="constrained")
    for row, designs in zip(axes, figures.values()):
        for ax, design in zip(row, designs):
            for frame, n, colour in [(ref, n_ref, "tab:green"), (large, n_large, "tab:red")]:
                sel = frame[frame["design"] == design]
                x = 100 * X_AXES[X_AXIS] * sel["gap"] * np.sqrt(n / n_ref)
                ax.plot(x, 100 * sel["power"], "-", color=colour, label=f"n = {n:,}")
                ax.plot(x, 100 * sel["normalized_r2"], "--", color=colour)
                ax.plot(x, 100 * sel["all_agree"], ":", color=colour, lw=1.0, alpha=0.5)
            ax.set_xlim(0, 40)
            ax.set_title(design, fontsize=9)
        row[0].set_ylabel("%")
    axes[-1, 1].set_xlabel(f"{X_AXIS} (%) x sqrt(n / {n_ref:,})")
    axes[0, 0].legend(fontsize=8)
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def _adaptive_figure(ref, adapt, ds):
    """Power (solid) and ``2 R̂2 - 1`` (dashed) of the fixed sorted designs and the adaptive one; its mean cost.

    Against ``4q - 1`` (twice the accuracy gap, the paper's x-axis), in percent.
    """
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.4), layout="constrained")
    for design, colour in zip(_FIXED_SORTED, ["tab:blue", "tab:orange", "tab:green"]):
        sel = ref[ref["design"] == design]
        x = 100 * X_AXES[X_AXIS] * sel["gap"]
        ax1.plot(x, 100 * sel["power"], "-", color=colour, label=design)
        ax1.plot(x, 100 * sel["normalized_r2"], "--", color=colour)
    x = 100 * X_AXES[X_AXIS] * adapt["gap"]
    ax1.plot(x, 100 * adapt["power"], "-", color="k", label="adaptive")
    ax1.plot(x, 100 * adapt["normalized_r2"], "--", color="k")
    ax1.set_xlabel(f"{X_AXIS} = 2 x accuracy gap (%)")
    ax1.set_ylabel("%")
    ax1.legend(fontsize=8)
    ax2.plot(x, ds["mean_cost"].values, "k-")
    ax2.set_xlabel(f"{X_AXIS} = 2 x accuracy gap (%)")
    ax2.set_ylabel("mean cost (train/test splits)")
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def beyond_page(*, n_large=1_000_000, n_ref=10_000, adaptive=None, adaptive_datasets=1000, alpha=0.05, seed=2005,
                scale="paper"):
    """The page of notebook ``bouckaert2005/04_beyond``: Task I at a million instances, and the adaptive design.

    Parameters
    ----------
    n_large, n_ref : int
        The large size and the reference size (:func:`million`).
    adaptive : dict, optional
        The adaptive design (default :data:`ADAPTIVE`), run at ``n_ref`` on
        ``adaptive_datasets`` data sets per gap (:func:`adaptive_design`).
    adaptive_datasets : int
    alpha, seed, scale
        As in :func:`~replicability.papers.bouckaert2005.curves.task1_curves`.

    Returns
    -------
    Page
        The claims and values of :func:`beyond_claims`; the tables ``key_numbers_ref``
        and ``key_numbers_large`` (:func:`key_numbers` at ``n_ref`` and ``n_large``) and
        ``adaptive`` (the adaptive design beside the fixed sorted ones); the figures
        ``million`` and ``adaptive``.

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> page = beyond_page(scale="smoke")
    >>> list(page.tables), list(page.figures), page.reproduced
    (['key_numbers_ref', 'key_numbers_large', 'adaptive'], ['million', 'adaptive'], {})
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    large, ref, compare = million(n_large=n_large, n_ref=n_ref, alpha=alpha, seed=seed, scale=scale)
    table, adapt, ds = adaptive_design(ref, n_ref=n_ref, options=adaptive, n_datasets=adaptive_datasets, alpha=alpha,
                                       seed=seed, scale=scale)
    claims, values = beyond_claims(compare, table, n_datasets=adaptive_datasets, alpha=alpha)
    ref_key, large_key = compare.columns.get_level_values(0).unique()
    tables = {"key_numbers_ref": Table(compare[[ref_key]], 3), "key_numbers_large": Table(compare[[large_key]], 3),
              "adaptive": Table(table, {"cost at gap 0": 1, "mean cost": 1})}
    return Page(claims, values, tables=tables,
                figures={"million": partial(_million_figure, large, ref, n_large=n_large, n_ref=n_ref),
                         "adaptive": partial(_adaptive_figure, ref, adapt, ds)})
