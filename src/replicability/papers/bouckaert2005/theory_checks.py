"""Section 3 and the Appendix of Bouckaert (2005), recomputed and checked against simulation of Task I.

:func:`section3` computes the tables of notebook ``bouckaert2005/01_theory`` (the
printed constants beside ours, the epsilon of Section 3.1 under the paper's and
the normal model, and the Type I and worst-case replicability simulated at
three data set sizes); :func:`section3_claims` holds the claims to the rules of
:mod:`replicability.report.claims`; :func:`section3_page` makes the page, with its
two figures (the tail mean of footnote 1, the worst case).

References
----------
Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from scipy import stats

from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table, plain
from ...report.tables import read_published
from ...report.uncertainty import rate_se
from ...sources.counts import sample_task1_counts
from ...stats.measures import type1_replicability_bound
from .histograms import histogram_measures, outcome_histogram
from .task1 import mcnemar_outcomes
from .theory import (
    agreement_normal_model,
    mcnemar_epsilon,
    mcnemar_type1_replicability,
    normal_tail_mean,
    normal_tail_mean_linear,
    task1_worst_case_gap,
    worst_case_replicability_appendix,
)

__all__ = ["Section3", "section3", "section3_claims", "section3_page"]


@dataclass
class Section3:
    """The tables of the Section 3 checks (see :func:`section3`)."""

    constants: pd.DataFrame
    epsilon: pd.DataFrame
    type1: pd.DataFrame
    worst: pd.DataFrame
    alpha: float
    n_datasets: int
    n_repeats: int
    reproduced: pd.DataFrame

    def split(self, name):
        """``type1`` or ``worst`` as two narrow tables indexed by (n, t): pairwise R̂2, and "all agree"."""
        frame = getattr(self, name).set_index(["n", "t"])
        agree = [c for c in frame.columns if c.startswith("all agree")]
        return frame.drop(columns=agree), frame[agree]


def _constants(alpha):
    """The printed constants of Section 3 beside ours, and the table ``section3`` written to ``data/reproduced``."""
    published = read_published("bouckaert2005", "section3").set_index("quantity")
    rows = [("type1_replicability_bound_pct", 100 * type1_replicability_bound(alpha)),
            ("chi2_threshold", stats.chi2.isf(alpha, 1)), ("z_threshold", stats.norm.isf(alpha / 2)),
            ("tail_mean_linear_slope", 0.97), ("tail_mean_linear_intercept", 0.33)]
    constants = pd.DataFrame(rows, columns=["quantity", "reproduced"]).set_index("quantity")
    constants.insert(0, "published", published["value"])
    constants["difference"] = constants["reproduced"] - constants["published"]
    reproduced = published.reset_index()[["quantity", "alpha"]].copy()
    reproduced["value"] = constants["reproduced"].to_numpy()
    reproduced["source"] = "computed by replicability (measures.type1_replicability_bound, scipy.stats)"
    return constants, reproduced


def _epsilon(test_sizes, alpha):
    """The epsilon of Section 3.1 per test fraction: the paper's model at four sizes and the normal model."""
    rows = []
    for t in test_sizes:
        row = {"t": round(t, 3)}
        for n in [100, 1_000, 10_000, 100_000]:
            row[f"paper, n={n}"] = float(mcnemar_epsilon(t, n, alpha=alpha))
        row["normal (any n)"] = float(mcnemar_epsilon(t, alpha=alpha, model="normal"))
        row["R pairwise, normal"] = float(mcnemar_type1_replicability(t, alpha=alpha, model="normal"))
        rows.append(row)
    return pd.DataFrame(rows).set_index("t")


def _simulated(data, t, rep_rng, *, n_repeats, alpha):
    """Measures of McNemar's test (no continuity correction) repeated on the data sets ``data`` at test fraction t."""
    out = mcnemar_outcomes(data, test_size=t, n_repeats=n_repeats, alpha=alpha, correction=False,
                           rng=np.random.default_rng(rep_rng))
    return histogram_measures(outcome_histogram(out), n_repeats=n_repeats)


def _type1(sizes, test_sizes, *, seed, alpha, n_datasets, n_repeats):
    """Task I at gap 0 beside the paper's and the normal model; one data set draw per size."""
    rows = []
    for n in sizes:
        data = sample_task1_counts(n, 0.25, n_datasets=n_datasets, rng=np.random.default_rng([seed, n]))
        for j, t in enumerate(test_sizes):
            m = _simulated(data, t, [seed, n, j], n_repeats=n_repeats, alpha=alpha)
            rows.append({"n": n, "t": round(t, 3), "type I error": float(m["rejection"]),
                         "R2 simulated": float(m["r2"]), "R2 SE": float(m["r2_se"]),
                         "R2 paper model": float(mcnemar_type1_replicability(t, n, alpha=alpha)),
                         "R2 normal model": float(agreement_normal_model(0.0, t, alpha=alpha)),
                         "all agree simulated": float(m["consistency"]),
                         "all agree normal model": float(agreement_normal_model(0.0, t, alpha=alpha,
                                                                              n_repeats=n_repeats))})
    return pd.DataFrame(rows)


def _worst(sizes, test_sizes, *, seed, alpha, n_datasets, n_repeats):
    """Task I at the worst-case gap (power 50%) beside the Appendix and the normal model; one draw per cell."""
    z = stats.norm.isf(alpha / 2)
    rows = []
    for n in sizes:
        for j, t in enumerate(test_sizes):
            gap = float(task1_worst_case_gap(n, t, alpha=alpha))
            data = sample_task1_counts(n, 0.25 + gap / 2, n_datasets=n_datasets,
                                       rng=np.random.default_rng([seed, n, j, 1]))
            m = _simulated(data, t, [seed, n, j, 2], n_repeats=n_repeats, alpha=alpha)
            rows.append({"n": n, "t": round(t, 3), "gap": gap, "power": float(m["b_better"]),
                         "R2 simulated": float(m["r2"]), "R2 SE": float(m["r2_se"]),
                         "Appendix": float(worst_case_replicability_appendix(t)),
                         "normal model": float(agreement_normal_model(z, t, alpha=alpha)),
                         "all agree simulated": float(m["consistency"]),
                         "all agree normal model": float(agreement_normal_model(z, t, alpha=alpha,
                                                                              n_repeats=n_repeats))})
    return pd.DataFrame(rows)


def section3(*, seed=2005, alpha=0.05, n_datasets=2000, n_repeats=10, sizes=(10_000, 100_000, 1_000_000),
             test_sizes=(0.1, 1 / 3, 0.5)):
    """The theory of Bouckaert (2005), Section 3 and Appendix, beside simulation of Task I.

    Task I is simulated at gap 0 (Type I) and at the gap where the mean McNemar
    statistic equals its threshold (:func:`~replicability.papers.bouckaert2005.theory.task1_worst_case_gap`,
    power 50%), McNemar's test without continuity correction as in the analysis.
    Each cell draws its data sets from ``default_rng([seed, n])`` (Type I) or
    ``default_rng([seed, n, j, 1])`` (worst case) and its repetitions from
    ``default_rng([seed, n, j])`` or ``default_rng([seed, n, j, 2])``, ``j`` the
    index of the test fraction.

    Parameters
    ----------
    seed : int
    alpha : float
    n_datasets, n_repeats : int
        Data sets per cell and repetitions per data set.
    sizes : sequence of int
        Data set sizes ``n`` (at least two).
    test_sizes : sequence of float
        Test fractions ``t`` (at least two).

    Returns
    -------
    Section3
        ``constants`` (published beside reproduced), ``epsilon`` (paper's and
        normal model), ``type1`` and ``worst`` (simulated beside the models, with
        the standard errors of the simulated R̂2 and "all agree"), and ``reproduced``
        (the constants as ``data/reproduced/bouckaert2005/section3.csv`` holds them).
    """
    if len(sizes) < 2 or len(test_sizes) < 2:
        raise ValueError(f"`sizes` and `test_sizes` must each hold at least 2 values (the claims compare them); "
                         f"got {list(sizes)!r} and {list(test_sizes)!r}.")
    constants, reproduced = _constants(alpha)
    kw = {"seed": seed, "alpha": alpha, "n_datasets": n_datasets, "n_repeats": n_repeats}
    return Section3(constants, _epsilon(test_sizes, alpha), _type1(sizes, test_sizes, **kw),
                    _worst(sizes, test_sizes, **kw), float(alpha), int(n_datasets), int(n_repeats), reproduced)


def _half_unit(text):
    """Half a unit of the last printed digit of a number as printed, e.g. ``"3.841459"`` -> ``5e-07``."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10.0**-decimals


def section3_claims(res):
    """The claims of Bouckaert (2005), Section 3 and Appendix, held to the rules of :mod:`~replicability.report.claims`.

    Printed constants are compared within half a unit of their last printed
    digit. Simulated R̂2 has the standard error of its mean over the data sets
    (``R2 SE``, exact from the outcome histogram); two cells are compared with
    ``sqrt(se_1^2 + se_2^2)`` (their repetitions are drawn independently).

    Returns
    -------
    tuple of (Claims, dict)
    """
    c = Claims("bouckaert2005", "01_theory")
    k, alpha = res.constants, res.alpha
    for key, quantity, statement, src, printed in [
        ("bound_holds", "type1_replicability_bound_pct",
         "The lower bound on Type I replicability, 1 - 2α + 2α², is 90.5% at α = 5% (independent experiments)",
         "Section 3", "90.5"),
        ("chi2_holds", "chi2_threshold", "The McNemar threshold is 3.841459 (chi-squared, 1 df, 95%)", "Section 2.1",
         "3.841459"),
        ("z_holds", "z_threshold", "Z_α/2 = 1.96", "Section 3", "1.96"),
    ]:
        c.close_to(key, statement, src, value=k.loc[quantity, "reproduced"], published=k.loc[quantity, "published"],
                   se=0.0, rounding=_half_unit(printed), digits=6)
    z = stats.norm.isf(alpha / 2)
    c.greater("tail_above_z", "E[x | x > Z_α/2] is approximately Z_α/2 (actually, slightly higher)", "Section 3.1",
              larger=float(normal_tail_mean(z)), smaller=z, qualifier="slightly", digits=3)
    # The line's coefficients are printed with two decimals: at z its value is uncertain by 0.005 z + 0.005.
    c.close_to("tail_linear", "E[x | x > z] is approximated by 0.97 z + 0.33 (at z = Z_α/2)", "Section 3.1, footnote 1",
               value=float(normal_tail_mean(z)), published=float(normal_tail_mean_linear(z)), se=0.0,
               rounding=0.005 * z + 0.005, digits=3)
    t1 = res.type1
    lo, hi, se = [], [], []
    for _, part in t1.groupby("n"):
        part = part.sort_values("t")
        v, s = part["R2 simulated"].to_numpy(), part["R2 SE"].to_numpy()
        lo += list(v[:-1])
        hi += list(v[1:])
        se += list(np.hypot(s[:-1], s[1:]))
    c.greater("epsilon_grows_t", "ε (and with it Type I replicability) grows with the test fraction t", "Section 3.1",
              larger=hi, smaller=lo, se=se, digits=3)
    largest = t1[t1["n"] == t1["n"].max()]
    c.close_to("epsilon_vanishes", "ε vanishes as n grows, so Type I replicability tends to 1 - (2 - ε)α + 2α² with "
               "ε → 0 (here at the largest n, per t)", "Section 3.1",
               value=largest["R2 simulated"].to_numpy(), published=largest["R2 paper model"].to_numpy(),
               se=largest["R2 SE"].to_numpy(), rounding=0.0, digits=3)
    w = res.worst
    first = w[w["n"] == w["n"].min()].set_index("t")
    rest = w[w["n"] != w["n"].min()]
    ref, ref_se = first.loc[rest["t"], "R2 simulated"].to_numpy(), first.loc[rest["t"], "R2 SE"].to_numpy()
    c.close_to("worst_free_of_n", "Worst-case replicability does not depend on the data set size", "Appendix",
               value=rest["R2 simulated"].to_numpy(), published=ref, se=np.hypot(rest["R2 SE"].to_numpy(), ref_se),
               rounding=0.0, digits=3)
    spread = w.groupby("t")["R2 simulated"].agg(lambda s: s.max() - s.min())
    worst_excess = (np.abs(rest["R2 simulated"].to_numpy() - ref)
                    - 2 * np.hypot(rest["R2 SE"].to_numpy(), ref_se))
    z_largest = (largest["R2 simulated"] - largest["R2 paper model"]) / largest["R2 SE"]
    values = {**c.verdicts(), "bound_three_outcomes": round(100 * (1 - 2 * alpha + 1.5 * alpha**2), 2),
              "tail_mean_z": round(float(normal_tail_mean(z)), 3),
              "tail_linear_z": round(float(normal_tail_mean_linear(z)), 3),
              "worst_spread": round(float(spread.max()), 3), "worst_se": round(float(w["R2 SE"].max()), 4),
              "binomial_se": round(float(rate_se(0.5, res.n_datasets)), 3), "n_datasets": res.n_datasets,
              "tail_gap": round(float(normal_tail_mean(z) - normal_tail_mean_linear(z)), 3),
              "tail_rounding": round(0.005 * z + 0.005, 3),
              "worst_beyond": int(np.sum(worst_excess > 0)), "worst_comparisons": int(worst_excess.size),
              "worst_excess": round(float(worst_excess.max()), 4),
              "z_half": round(float(z_largest.iloc[-1]), 1),
              "summary": comparison_summary(k["published"], k["reproduced"], c, digits=4)}
    return c, plain(values)


def _tail_mean_figure():
    """``E[x | x > z]`` of a standard normal, ``z`` and the line ``0.97 z + 0.33`` of footnote 1."""
    import matplotlib.pyplot as plt

    zz = np.linspace(0, 8, 161)
    fig, ax = plt.subplots(figsize=(5, 3.4), layout="constrained")
    ax.plot(zz, normal_tail_mean(zz), label=r"$E[x \mid x > z]$")
    ax.plot(zz, zz, ":", label="$z$")
    ax.plot(zz, normal_tail_mean_linear(zz), "--", label="$0.97z + 0.33$ (printed)")
    ax.set_xlabel("$z$")
    ax.legend()
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def _worst_case_figure(res):
    """Worst-case pairwise replicability: the Appendix, the normal model and the simulation per size."""
    import matplotlib.pyplot as plt

    z = stats.norm.isf(res.alpha / 2)
    tt = np.linspace(0, 0.6, 61)
    fig, ax = plt.subplots(figsize=(5, 3.4), layout="constrained")
    ax.plot(tt, worst_case_replicability_appendix(tt), label=r"Appendix $\Phi(t\sqrt{2/\pi})$")
    ax.plot(tt, agreement_normal_model(z, tt, alpha=res.alpha), "--", label="normal model, pairwise")
    for n, marker in zip(sorted(res.worst["n"].unique()), "os^"):
        sel = res.worst[res.worst["n"] == n]
        ax.errorbar(sel["t"], sel["R2 simulated"], yerr=2 * sel["R2 SE"], fmt=marker, label=f"simulated, n = {n:,}")
    ax.set_xlabel("test fraction $t$")
    ax.set_ylabel("worst-case replicability (pairwise)")
    ax.legend(fontsize=8)
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def _tables(res):
    """The tables of the page: the constants, epsilon, and the Type I and worst-case checks (pairwise, all agree)."""
    tables = {"constants": Table(res.constants, 6), "epsilon": Table(res.epsilon, 5)}
    for name in ("type1", "worst"):
        pairwise, all_agree = res.split(name)
        tables[f"{name}_pairwise"], tables[f"{name}_all_agree"] = Table(pairwise, 4), Table(all_agree, 3)
    return tables


def section3_page(*, seed=2005, alpha=0.05, n_datasets=2000, n_repeats=10, sizes=(10_000, 100_000, 1_000_000),
                  test_sizes=(0.1, 1 / 3, 0.5)):
    """The page of notebook ``bouckaert2005/01_theory``: Section 3 and the Appendix beside simulation of Task I.

    Parameters are those of :func:`section3`.

    Returns
    -------
    Page
        The claims and values of :func:`section3_claims`; the tables ``constants``
        (printed beside ours), ``epsilon``, ``type1_pairwise``, ``type1_all_agree``,
        ``worst_pairwise`` and ``worst_all_agree`` (:meth:`Section3.split`); the figures
        ``tail_mean`` (footnote 1) and ``worst_case``; the reproduced table ``section3``.

    Examples
    --------
    >>> page = section3_page(n_datasets=20, sizes=(10_000, 20_000), test_sizes=(0.1, 0.5))
    >>> list(page.tables)[:3], list(page.figures), list(page.reproduced)
    (['constants', 'epsilon', 'type1_pairwise'], ['tail_mean', 'worst_case'], ['section3'])
    """
    res = section3(seed=seed, alpha=alpha, n_datasets=n_datasets, n_repeats=n_repeats, sizes=sizes,
                   test_sizes=test_sizes)
    claims, values = section3_claims(res)
    return Page(claims, values, tables=_tables(res), reproduced={"section3": res.reproduced},
                figures={"tail_mean": _tail_mean_figure, "worst_case": partial(_worst_case_figure, res)})
