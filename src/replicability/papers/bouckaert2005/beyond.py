"""Beyond Bouckaert (2005): Task I at a million instances, and an adaptive sorted-cv design.

:func:`million` compares the Task I designs at 1,000,000 instances with the same
designs at 10,000 (gaps rescaled by ``sqrt(n)``); :func:`adaptive_design` runs
the adaptive design of :func:`~replicability.papers.bouckaert2005.adaptive.simulate_adaptive`
through the result store and sets it beside the fixed sorted designs;
:func:`beyond_claims` holds both claims to the rules of
:mod:`replicability.papers.claims`.

References
----------
Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...engine.store import cached_result
from ..claims import Claims, rate_se
from ..page import plain
from .adaptive import simulate_adaptive
from .curves import GROUPS, SCALE_CAPS, task1_curves
from .histograms import stored_measures
from .task1 import TASK1_DESIGNS

__all__ = ["ADAPTIVE", "GROUPS_LARGE", "adaptive_design", "adaptive_figure", "beyond_claims", "key_numbers", "million",
           "million_figure"]

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


def key_numbers(frame):
    """Per design: Type I error and replicability, worst case ("all agree" and R̂2) and the power where it occurs.

    Examples
    --------
    >>> import pandas as pd
    >>> curve = pd.DataFrame({"design": "d", "gap": [0.0, 0.1, 0.2], "power": [0.05, 0.5, 0.9],
    ...                       "rejection": [0.05, 0.5, 0.9], "replicability": [0.7, 0.1, 0.8],
    ...                       "r2": [0.9, 0.55, 0.85]})
    >>> key_numbers(curve).loc["d"].round(2).tolist()
    [0.05, 0.7, 0.1, 0.55, 0.5]
    """
    def one(sel):
        null = sel[sel["gap"] == 0].iloc[0]
        worst = sel.loc[sel["replicability"].idxmin()]
        return pd.Series({"type I error": null["rejection"], "type I repl.": null["replicability"],
                          "worst repl.": worst["replicability"], "worst R2": sel["r2"].min(),
                          "power at worst": worst["power"]})
    return frame.groupby("design", sort=False).apply(one, include_groups=False)


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
        Per design: Type I error and replicability, worst case, mean power, cost.
    adapt : pandas.DataFrame
        The adaptive design's curve (gap, power, rejection, replicability, r2).
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
    adapt = pd.DataFrame({"design": "adaptive sorted cv", "n": n_ref, "gap": gaps, "power": m["b_better"],
                          "rejection": m["rejection"], "replicability": m["consistency"], "r2": m["r2"]})
    rows = []
    for design in _FIXED_SORTED + ["adaptive sorted cv"]:
        sel = adapt if design.startswith("adaptive") else ref[ref["design"] == design]
        sel = sel[sel["gap"] <= gap_max + 1e-12]
        fixed_cost = np.full(len(sel), TASK1_DESIGNS[design].cost) if design in TASK1_DESIGNS else None
        cost = ds["mean_cost"].values if design.startswith("adaptive") else fixed_cost
        rows.append({"design": design, "type I error": sel["rejection"].iloc[0],
                     "type I repl.": sel["replicability"].iloc[0], "worst repl.": sel["replicability"].min(),
                     "worst R2": sel["r2"].min(), "mean power": sel["power"].mean(),
                     "cost at gap 0": cost[0], "mean cost": cost.mean()})
    table = pd.DataFrame(rows).set_index("design")
    table.attrs["n_datasets"] = n_sets_adaptive
    return table, adapt, ds


def beyond_claims(compare, table, *, n_datasets=1000, alpha=0.05):
    """The two claims of this page, held to the rules of :mod:`~replicability.papers.claims`.

    "All agree" and Type I error are rates over the ``n_datasets`` independent
    data sets of a gap (``rate_se``); two independent estimates are compared with
    the two standard errors combined.

    Returns
    -------
    tuple of (Claims, dict)
    """
    c = Claims("bouckaert2005", "04_beyond")
    ref_key, large_key = compare.columns.get_level_values(0).unique()
    ref, large = compare[ref_key], compare[large_key]
    src = "Title and Section 5 (low replicability is not a small data set phenomenon)"
    for key, column, what in [("million_type1", "type I repl.", "Type I"), ("million_worst", "worst repl.",
                                                                              "Worst-case")]:
        a, b = large[column].to_numpy(), ref[column].to_numpy()
        c.close_to(key, f"{what} replicability at 1,000,000 instances equals that at 10,000 (every design, "
               "\"all agree\")", src, value=a, published=b,
                   se=np.hypot(rate_se(a, n_datasets), rate_se(b, n_datasets)), rounding=0.0, digits=3)
    n_sets = table.attrs.get("n_datasets", n_datasets)
    ad, fixed = table.loc["adaptive sorted cv"], table.loc["sorted_cv_50x10"]
    src = "Section 5 (an adaptive design: promising preliminary results with sorted cv)"
    c.greater("adaptive_cheaper", "The adaptive design costs a fraction of 50x10 sorted cv (mean cost over the grid)",
              src, larger=fixed["mean cost"], smaller=ad["mean cost"], digits=0)
    cols = ["type I repl.", "worst repl."]
    a, b = ad[cols].to_numpy(float), fixed[cols].to_numpy(float)
    c.close_to("adaptive_repl", "... with the Type I and worst-case replicability of 50x10 sorted cv", src,
               value=a, published=b, se=np.hypot(rate_se(a, n_sets), rate_se(b, n_sets)), rounding=0.0, digits=3)
    c.at_most("adaptive_level", "... and a Type I error at most the level, despite its repeated looks", src,
              value=ad["type I error"], bound=alpha, se=rate_se(alpha, n_sets), digits=3)
    diff = large - ref
    a, b = large["type I repl."].to_numpy(), ref["type I repl."].to_numpy()
    beyond = np.abs(a - b) > 2 * np.hypot(rate_se(a, n_datasets), rate_se(b, n_datasets))
    mcnemar = [d for d in diff.index if d.startswith("mcnemar")]
    values = {**c.verdicts(), "max_diff_type1": round(float(diff["type I repl."].abs().max()), 3),
              "max_diff_worst": round(float(diff["worst repl."].abs().max()), 3),
              "max_diff_mcnemar": round(float(diff.loc[mcnemar, ["type I repl.", "worst repl."]].abs().max().max()), 3),
              "adaptive_cost": round(float(ad["mean cost"]), 0), "adaptive_type1": round(float(ad["type I error"]), 3),
              "se_half": round(float(rate_se(0.5, n_datasets)), 3), "n_designs": int(a.size),
              "type1_beyond": int(beyond.sum()), "type1_beyond_designs": ", ".join(ref.index[beyond]),
              "type1_lower": int(np.sum(a < b)),
              "summary": f"0 cells compared (extensions beyond the paper); {c.summary()}"}
    return c, plain(values)


def million_figure(large, ref, n_large=1_000_000, n_ref=10_000):
    """Power (solid) and "all agree" (dashed) at both sizes, the gap rescaled by ``sqrt(n / n_ref)``."""
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
                x = sel["gap"] * np.sqrt(n / n_ref)
                ax.plot(x, 100 * sel["power"], "-", color=colour, label=f"n = {n:,}")
                ax.plot(x, 100 * sel["replicability"], "--", color=colour)
            ax.set_xlim(0, 0.2)
            ax.set_title(design, fontsize=9)
        row[0].set_ylabel("%")
    axes[-1, 1].set_xlabel(f"accuracy gap x sqrt(n / {n_ref:,})")
    axes[0, 0].legend(fontsize=8)
    return fig


def adaptive_figure(ref, adapt, ds):
    """Power and "all agree" of the fixed sorted designs and the adaptive one; the adaptive design's mean cost."""
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.4), layout="constrained")
    for design, colour in zip(_FIXED_SORTED, ["tab:blue", "tab:orange", "tab:green"]):
        sel = ref[ref["design"] == design]
        ax1.plot(sel["gap"], 100 * sel["power"], "-", color=colour, label=design)
        ax1.plot(sel["gap"], 100 * sel["replicability"], "--", color=colour)
    ax1.plot(adapt["gap"], 100 * adapt["power"], "-", color="k", label="adaptive")
    ax1.plot(adapt["gap"], 100 * adapt["replicability"], "--", color="k")
    ax1.set_xlabel("accuracy gap B - A")
    ax1.set_ylabel("%")
    ax1.legend(fontsize=8)
    ax2.plot(adapt["gap"], ds["mean_cost"].values, "k-")
    ax2.set_xlabel("accuracy gap B - A")
    ax2.set_ylabel("mean cost (train/test splits)")
    return fig
