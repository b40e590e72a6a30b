"""Section 3, Figure 2 and the Appendix of Bouckaert (2004): the estimators R̂1 and R̂2, checked.

:func:`section3_page` makes the page of notebook ``bouckaert2004/01_estimators``:
:func:`section3` recomputes every check (closed forms against exact enumeration and
simulation, the Theorem 3.2 search, the Figure 2 grid, Lemma A.1),
:func:`section3_claims` holds the paper's claims to the rules of
:mod:`replicability.report.claims`, and the page draws Theorem 3.1 and Figure 2.

References
----------
Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_choice
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table, plain
from ...report.tables import read_published
from ...stats.enumeration import (
    enumerate_outcomes,
    exact_moments,
    outcome_probabilities,
    sample_moments,
    simulate_outcomes,
)
from ...stats.estimators import (
    binomial_power_sums,
    binomial_power_sums_closed_form,
    linear_estimator_variance,
    linear_replicability,
    minimum_variance_weights,
    pair_covariance,
    probabilities_from_replicability,
    r1_weights,
    r2_variance_theorem31,
    r2_weights,
)
from ...stats.measures import (
    outcome_counts,
    r1_variance,
    r2_variance,
    replicability_from_probabilities,
    replicability_r1,
    replicability_r2,
    replicability_r2_from_counts,
)

__all__ = ["SECTION3_SIZES", "Section3", "section3", "section3_claims", "section3_page"]

#: Simulation size, largest n enumerated (two and three outcome values) and the n of the Theorem 3.2 search.
SECTION3_SIZES = {
    "smoke": {"n_sim": 2_000, "max_enumerated": 8, "max_enumerated_3": 6, "search_n": [3, 4, 6]},
    "quick": {"n_sim": 20_000, "max_enumerated": 12, "max_enumerated_3": 8, "search_n": [3, 4, 6, 10]},
    "paper": {"n_sim": 100_000, "max_enumerated": 16, "max_enumerated_3": 10, "search_n": [3, 4, 6, 10, 16]},
}
_EXACT = {"rtol": 1e-9, "atol": 1e-14}


@dataclass
class Section3:
    """The tables of the Section 3 checks (see :func:`section3`)."""

    example: pd.DataFrame
    lemma32: pd.DataFrame
    moments: pd.DataFrame
    literal: pd.DataFrame
    three: pd.DataFrame
    lemma33: pd.DataFrame
    theorem32: pd.DataFrame
    lemma_a1: pd.DataFrame
    figure2: pd.DataFrame
    reproduced: pd.DataFrame = field(repr=False)
    grid: dict = field(repr=False)
    checks: dict = field(default_factory=dict)

    @property
    def moments_wide(self):
        """Closed form, exact and simulated variances and ``z`` per (r, n), one column block per estimator."""
        return (self.moments.pivot_table(index=["r", "n"], columns="estimator",
                                         values=["variance (closed form)", "exact variance", "simulated variance",
                                                 "z"], dropna=False)
                .swaplevel(axis=1).sort_index(axis=1, level=0))


def _lemma32(sizes):
    rows = []
    for n_values, max_n in [(2, sizes["max_enumerated"]), (3, sizes["max_enumerated_3"])]:
        for n in range(2, max_n + 1, 2):
            e = enumerate_outcomes(n, n_values=n_values)
            pairwise = linear_replicability(e, r2_weights(n))
            by_counts = replicability_r2_from_counts(outcome_counts(e))
            rows.append({"outcome values": n_values, "n": n, "vectors": len(e),
                         "max |pairwise - counts|": np.abs(pairwise - by_counts).max()})
    return pd.DataFrame(rows)


def _moments(check_r, p_check, check_n, sizes, rng):
    rows = []
    for k, r in enumerate(check_r):
        p = p_check[k]
        for n in check_n:
            closed = {"R̂1": r1_variance(r, n), "R̂2": r2_variance(p, n)}
            exact = {}
            if n <= sizes["max_enumerated"]:
                e = enumerate_outcomes(n)
                prob = outcome_probabilities(e, p)
                exact = {"R̂1": exact_moments(replicability_r1(e), prob), "R̂2": exact_moments(replicability_r2(e), prob)}
            sims = simulate_outcomes(p, n, n_sim=sizes["n_sim"], rng=rng)
            simulated = {"R̂1": sample_moments(replicability_r1(sims)), "R̂2": sample_moments(replicability_r2(sims))}
            for name in ("R̂1", "R̂2"):
                sim = simulated[name]
                z = (sim.variance - closed[name]) / sim.variance_se if sim.variance_se > 0 else 0.0
                rows.append({
                    "estimator": name, "r": r, "n": n, "variance (closed form)": closed[name],
                    "Theorem 3.1, ERRATA reading": r2_variance_theorem31(r, n) if name == "R̂2" else np.nan,
                    "exact mean": exact[name].mean if exact else np.nan,
                    "exact variance": exact[name].variance if exact else np.nan,
                    "simulated mean": sim.mean, "simulated variance": sim.variance, "z": round(float(z), 2),
                })
    return pd.DataFrame(rows)


def _three(max_n):
    p_three = np.array([[0.9, 0.05, 0.05], [0.05, 0.9, 0.05], [0.2, 0.3, 0.5], [0.45, 0.1, 0.45]])
    rows = []
    for n in range(2, max_n + 1, 2):
        e = enumerate_outcomes(n, n_values=3)
        prob = outcome_probabilities(e, p_three)  # one row per distribution
        m1 = exact_moments(replicability_r1(e), prob)
        m2 = exact_moments(replicability_r2(e), prob)
        r3 = replicability_from_probabilities(p_three)
        for k, p in enumerate(p_three):
            rows.append({"p (B better, none, A better)": str(p.tolist()), "n": n, "r": r3[k],
                         "|exact mean R̂2 - r|": abs(m2.mean[k] - r3[k]),
                         "exact var R̂1": m1.variance[k], "Lemma 3.1": r1_variance(r3[k], n),
                         "exact var R̂2": m2.variance[k], "r2_variance": r2_variance(p, n)})
    return pd.DataFrame(rows)


def _lemma33(check_r, p_check, rng, n=6):
    e = enumerate_outcomes(n)
    prob = outcome_probabilities(e, p_check)
    rows = []
    for total in (0.5, 1.0, 1.5):
        w = rng.dirichlet(np.ones(n * (n - 1) // 2)) * total
        mean = exact_moments(linear_replicability(e, w), prob).mean
        for r, m in zip(check_r, mean):
            rows.append({"sum of weights": total, "r": r, "exact E R̂k": m, "r x sum": r * total})
    return pd.DataFrame(rows)


def _theorem32(check_r, p_check, search_n, n_random_estimators, rng):
    rows = []
    for k, r in enumerate(check_r):
        if r >= 1:
            continue  # every unbiased R̂k has variance 0 at r = 1: no unique minimum
        p = p_check[k]
        for n in search_n:
            n_pairs = n * (n - 1) // 2
            best = minimum_variance_weights(p, n, rng=rng)
            var_r2 = r2_variance(p, n)
            random_w = rng.dirichlet(np.ones(n_pairs), size=n_random_estimators)
            rows.append({
                "r": r, "n": n, "optimizer converged": best.success,
                # the optimizer's distance from equal weights is rounding noise that depends on the BLAS:
                # stored as the test it must pass
                "weights equal (to 1e-5)": bool(np.abs(best.weights * n_pairs - 1).max() < 1e-5),
                "optimum / var R̂2": best.variance / var_r2,
                "var R̂1 / var R̂2": r1_variance(r, n) / var_r2 if n % 2 == 0 else np.nan,
                "best random / var R̂2": linear_estimator_variance(random_w, p).min() / var_r2,
                "smallest eigenvalue of C": np.linalg.eigvalsh(pair_covariance(p, n)).min(),
            })
    return pd.DataFrame(rows)


def _example():
    """The paper's example e = 0010010010: R̂1, R̂2 and Lemma 3.2, by the package and by Eq. 2."""
    example = np.array([0, 0, 1, 0, 0, 1, 1, 0, 0, 1])
    return pd.DataFrame(
        {"measures (package)": [replicability_r1(example), replicability_r2(example),
                                replicability_r2_from_counts([6, 4])],
         "pairwise, Eq. 2": [linear_replicability(example, r1_weights(10)),
                             linear_replicability(example, r2_weights(10)),
                             linear_replicability(example, r2_weights(10))]},
        index=["R̂1", "R̂2", "R̂2(i = 6, n = 10), Lemma 3.2"])


def _figure2_grid(published, figure_r_points, figure_n_step):
    """The Figure 2 grid over the paper's axes, its quantities (the reproduced table) and them beside the published."""
    r_grid = np.linspace(published["r_min"], published["r_max"], figure_r_points)
    n_grid = np.arange(int(published["n_min"]), int(published["n_max"]) + 1, figure_n_step)
    var_r1 = np.array([r1_variance(r_grid, n) for n in n_grid])
    var_r2 = np.array([r2_variance(probabilities_from_replicability(r_grid), n) for n in n_grid])
    below_one = r_grid < 1
    figure2_values = pd.DataFrame({
        "quantity": ["r_min", "r_max", "n_min", "n_max", "var_r1_at_r_1", "var_r2_at_r_1"],
        "value": [r_grid.min(), r_grid.max(), n_grid.min(), n_grid.max(),
                  np.abs(var_r1[:, ~below_one]).max(), np.abs(var_r2[:, ~below_one]).max()],
    })
    figure2_values["source"] = ("computed by replicability.stats.measures (r1_variance, r2_variance) over the "
                                "Figure 2 grid (notebook bouckaert2004/01_estimators)")
    comparison = pd.DataFrame({"published": published, "reproduced": figure2_values.set_index("quantity")["value"]})
    comparison["difference"] = comparison["reproduced"] - comparison["published"]
    grid = {"r": r_grid, "n": n_grid, "var_r1": var_r1, "var_r2": var_r2}
    return grid, figure2_values, comparison


def _lemma_a1(grid):
    """Lemma A.1's sums directly and in closed form, and var(R̂1) through the lemma over the Figure 2 grid."""
    rows = []
    for n in [1, 2, 3, 5, 10, 28, 100]:
        p_lemma = np.linspace(0, 1, 11)
        direct, closed = binomial_power_sums(p_lemma, n), binomial_power_sums_closed_form(p_lemma, n)
        rows.append({"n": n, **{f"max |direct - closed|, i^{k}": np.abs(direct[:, k] - closed[:, k]).max()
                                for k in range(3)}})
    r_grid = grid["r"]
    via_lemma = np.array([binomial_power_sums(r_grid, n // 2)[:, 2] / (n / 2) ** 2 - r_grid**2 for n in grid["n"]])
    return pd.DataFrame(rows), via_lemma


def _checks(lemma32, moments, three, lemma33, theorem32, grid, lemma_a1, via_lemma):
    """Whether each check of the page holds (the conditions of :func:`section3_claims`)."""
    enumerated = moments.dropna(subset=["exact variance"])
    r2_rows = moments[moments["estimator"] == "R̂2"]
    gap, below_one = grid["var_r1"] - grid["var_r2"], grid["r"] < 1
    return {
        "lemma32": bool((lemma32["max |pairwise - counts|"] < 1e-12).all()),
        "unbiased": bool(np.allclose(enumerated["exact mean"], enumerated["r"], rtol=1e-12)
                         and np.allclose(three["|exact mean R̂2 - r|"], 0, atol=1e-12)),
        "closed_vs_exact": bool(
            np.allclose(enumerated["exact variance"], enumerated["variance (closed form)"], **_EXACT)
            and np.allclose(enumerated["exact mean"], enumerated["r"], rtol=1e-12)
            and np.allclose(r2_rows["Theorem 3.1, ERRATA reading"], r2_rows["variance (closed form)"],
                            rtol=1e-10, atol=1e-15)),
        "three": bool(np.allclose(three["exact var R̂1"], three["Lemma 3.1"], **_EXACT)
                      and np.allclose(three["exact var R̂2"], three["r2_variance"], **_EXACT)
                      and np.allclose(three["|exact mean R̂2 - r|"], 0, atol=1e-12)),
        "lemma33": bool(np.allclose(lemma33["exact E R̂k"], lemma33["r x sum"], rtol=1e-12)),
        "theorem32": bool(theorem32["optimizer converged"].all() and theorem32["weights equal (to 1e-5)"].all()
                          and np.allclose(theorem32["optimum / var R̂2"], 1, rtol=1e-8)
                          and (theorem32["best random / var R̂2"] >= 1).all()
                          and (theorem32["smallest eigenvalue of C"] > 0).all()),
        "figure2": bool(np.all(gap[:, below_one] > 0) and np.all(np.abs(gap[:, ~below_one]) < 1e-15)),
        "lemma_a1": bool((lemma_a1.drop(columns="n").to_numpy() < 1e-9).all()
                         and np.allclose(via_lemma, grid["var_r1"], **_EXACT)),
    }


def section3(*, seed=2004, scale="paper", check_r=(0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0), check_n=(2, 4, 6, 10, 16, 20),
             figure_r_points=26, figure_n_step=2, n_random_estimators=200):
    """Every check of Bouckaert (2004), Section 3, Figure 2 and Lemma A.1.

    One generator ``numpy.random.default_rng(seed)`` feeds, in this order, the
    simulated outcome vectors of the moments table, the random weights of the
    Lemma 3.3 check, and the optimizer starts and random estimators of the
    Theorem 3.2 search.

    Parameters
    ----------
    seed : int
        Root seed of every random draw.
    scale : {"smoke", "quick", "paper"}
        Sizes of ``SECTION3_SIZES``.
    check_r, check_n : sequence
        Replicabilities and numbers of experiments of the checks.
    figure_r_points, figure_n_step : int
        Resolution of the Figure 2 grid over the paper's axes.
    n_random_estimators : int
        Random unbiased linear estimators compared with R̂2 per (r, n) cell.

    Returns
    -------
    Section3
        Tables ``example``, ``lemma32``, ``moments``, ``literal``, ``three``,
        ``lemma33``, ``theorem32``, ``lemma_a1``, ``figure2`` (published beside
        reproduced), ``reproduced`` (the Figure 2 quantities, the page's
        ``figure2.csv``), the Figure 2 ``grid`` and the boolean ``checks``.

    Examples
    --------
    >>> res = section3(scale="smoke", check_r=[0.5, 1.0], check_n=[2, 4], n_random_estimators=5)
    >>> res.checks["lemma32"], res.checks["closed_vs_exact"]
    (True, True)
    """
    check_choice(scale, "scale", tuple(SECTION3_SIZES))
    sizes = SECTION3_SIZES[scale]
    rng = np.random.default_rng(seed)
    published = read_published("bouckaert2004", "figure2").set_index("quantity")["value"]
    check_r = np.asarray(check_r, dtype=float)
    p_check = probabilities_from_replicability(check_r)  # [p, 1 - p] per r, p >= 1/2

    lemma32 = _lemma32(sizes)
    moments = _moments(check_r, p_check, check_n, sizes, rng)
    literal = pd.DataFrame({f"n = {n}": r2_variance_theorem31(check_r, n, reading="literal") for n in check_n},
                           index=pd.Index(check_r, name="r"))
    three = _three(sizes["max_enumerated_3"])
    lemma33 = _lemma33(check_r, p_check, rng)
    theorem32 = _theorem32(check_r, p_check, sizes["search_n"], n_random_estimators, rng)
    grid, figure2_values, comparison = _figure2_grid(published, figure_r_points, figure_n_step)
    lemma_a1, via_lemma = _lemma_a1(grid)
    checks = _checks(lemma32, moments, three, lemma33, theorem32, grid, lemma_a1, via_lemma)
    return Section3(_example(), lemma32, moments, literal, three, lemma33, theorem32, lemma_a1, comparison,
                    reproduced=figure2_values, grid=grid, checks=checks)


def section3_claims(res):
    """The claims of Section 3, Figure 2 and the Appendix, held to the rules of :mod:`~replicability.report.claims`.

    Every claim here is a mathematical statement checked by exact enumeration or
    to floating-point precision, so each is an ``exactly`` claim (no tolerance);
    the simulation is a third, independent check, shown in the moments table
    (its ``z`` column) but not a claim: with many cells a few ``|z| > 2`` are
    expected by chance.

    Parameters
    ----------
    res : Section3

    Returns
    -------
    tuple of (Claims, dict)
        The claims and the values to glue into the page.
    """
    c = Claims("bouckaert2004", "01_estimators")
    m, ck = res.moments, res.checks
    enumerated = m.dropna(subset=["exact variance"])
    c.exactly("lemma32_holds", "R̂2 depends only on the number i of accepting runs: "
              "R̂2(i, n) = [i(i-1) + (n-i)(n-i-1)] / [n(n-1)]", "Section 3.2, Lemma 3.2", condition=ck["lemma32"],
              measured=f"max |pairwise - counts| < 1e-12 over {int(res.lemma32['vectors'].sum())} vectors",
              rule="equal on every vector (to 1e-12)")
    c.exactly("unbiased_holds", "R̂1 and R̂2 are unbiased estimators of r", "Section 3.1, Lemma 3.1; Section 3.2, "
              "Theorem 3.1", condition=ck["unbiased"], measured=f"exact mean = r on {len(enumerated)} cells "
              "(two values) and every three-value cell", rule="exact mean equals r (to 1e-12)")
    c.exactly("closed_vs_exact", "var(R̂1) = (r - r^2)/(n/2) and the variance of R̂2 of Theorem 3.1 (ERRATA reading)",
              "Section 3.1, Lemma 3.1; Section 3.2, Theorem 3.1", condition=ck["closed_vs_exact"],
              measured=f"closed forms = exact enumeration on {len(enumerated)} cells",
              rule="equal to exact enumeration (relative 1e-9)")
    c.exactly("three_holds", "Unbiasedness and both variance formulas with three outcome values (general F(p, x))",
              "Section 4 (three outcomes); ERRATA", condition=ck["three"],
              measured=f"{len(res.three)} enumerated cells", rule="equal to exact enumeration (relative 1e-9)")
    c.exactly("lemma33_holds", "R̂k is unbiased if and only if its weights sum to 1", "Section 3.3, Lemma 3.3",
              condition=ck["lemma33"], measured="exact E R̂k = r x sum of weights in every cell",
              rule="equal (relative 1e-12)")
    c.exactly("theorem32_holds", "R̂2 has the least variance among unbiased linear estimators",
              "Section 3.3, Theorem 3.2", condition=ck["theorem32"],
              measured=f"optimum at equal weights in {len(res.theorem32)} cells; best random / var R̂2 >= "
                       f"{res.theorem32['best random / var R̂2'].min():.4f}; C positive definite",
              rule="optimum = var R̂2 (relative 1e-8), no random estimator below it")
    gap = res.grid["var_r1"] - res.grid["var_r2"]
    below = res.grid["r"] < 1
    c.exactly("figure2_holds", "var(R̂2) lies below var(R̂1) for r < 1 and both are zero at r = 1",
              "Figure 2; Section 3.2", condition=ck["figure2"],
              measured=f"smallest gap for r < 1: {gap[:, below].min():.3g}; "
                       f"at r = 1: {np.abs(gap[:, ~below]).max():.1g}",
              rule="gap > 0 for r < 1, |gap| < 1e-15 at r = 1")
    c.exactly("lemma_a1_holds", "The binomial sums of Lemma A.1", "Appendix, Lemma A.1", condition=ck["lemma_a1"],
              measured="max |direct - closed| < 1e-9 for n = 1 ... 100",
              rule="equal (to 1e-9)")
    v = c.verdicts()
    values = {**v, "n_enumerated_cells": len(enumerated), "max_abs_z": round(float(m["z"].abs().max()), 2),
              "n_moment_cells": len(m), "literal_negative": int((res.literal.to_numpy() < 0).sum()),
              "literal_cells": int(res.literal.size), "min_gap_below_1": float(f"{gap[:, below].min():.3g}"),
              "max_gap_at_1": float(f"{np.abs(gap[:, ~below]).max():.3g}"),
              "ratio_at_half_n28": round(float(res.grid["var_r2"][-1, 0] / res.grid["var_r1"][-1, 0]), 4),
              "n_last": int(res.grid["n"][-1])}
    comp = res.figure2
    values["summary"] = comparison_summary(comp["published"], comp["reproduced"], c, digits=3)
    return c, plain(values)


def _theorem31_figure(res, n_lines=(4, 10, 20)):
    """Theorem 3.1 as corrected (solid) and as printed (dashed), with the exact enumeration (dots)."""
    import matplotlib.pyplot as plt

    r_line = np.linspace(0.5, 1.0, 101)
    enumerated = res.moments.dropna(subset=["exact variance"])
    fig, ax = plt.subplots(figsize=(8, 3.6), layout="constrained")
    for n, colour in zip(n_lines, ["#1b9e77", "#d95f02", "#7570b3"]):
        ax.plot(r_line, r2_variance_theorem31(r_line, n), color=colour, label=f"ERRATA reading, n = {n}")
        ax.plot(r_line, r2_variance_theorem31(r_line, n, reading="literal"), ls="--", color=colour,
                label=f"as printed, n = {n}")
        cells_n = enumerated[(enumerated["estimator"] == "R̂2") & (enumerated["n"] == n)]
        ax.plot(cells_n["r"], cells_n["exact variance"], "o", color=colour, ms=4)
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xlabel("replicability $r$")
    ax.set_ylabel(r"var($\hat R_2$)")
    ax.set_title("Theorem 3.1: corrected (solid), printed (dashed), enumeration (dots)", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def _figure2_figure(res):
    """Figure 2: the variance surfaces of R̂1 and R̂2 on the paper's axes, and their ratio."""
    import matplotlib.pyplot as plt

    g = res.grid
    fig = plt.figure(figsize=(10.5, 4.4), layout="constrained")
    grid = fig.add_gridspec(1, 2, width_ratios=[1.5, 1])
    ax = fig.add_subplot(grid[0], projection="3d")
    r_mesh, n_mesh = np.meshgrid(g["r"], g["n"])
    ax.plot_wireframe(r_mesh, n_mesh, g["var_r1"], color="#d62728", lw=0.6, label=r"var($\hat R_1$)")
    ax.plot_wireframe(r_mesh, n_mesh, g["var_r2"], color="#1f77b4", lw=0.6, label=r"var($\hat R_2$)")
    ax.set_xlabel("replicability $r$")
    ax.set_ylabel("number of tests $n$")
    ax.set_zlabel("variance", labelpad=6)
    ax.view_init(elev=22, azim=-50)
    ax.legend(fontsize=8, loc="upper left")
    ax2 = fig.add_subplot(grid[1])
    for n, colour in zip([4, 10, 28], ["#1b9e77", "#d95f02", "#7570b3"]):
        if n in g["n"]:
            row = int(np.flatnonzero(g["n"] == n)[0])
            ratio = np.divide(g["var_r2"][row], g["var_r1"][row], out=np.full_like(g["r"], np.nan),
                              where=g["var_r1"][row] > 0)
            ax2.plot(g["r"], ratio, color=colour, label=f"n = {n}")
    ax2.set_xlabel("replicability $r$")
    ax2.set_ylabel(r"var($\hat R_2$) / var($\hat R_1$)")
    ax2.set_ylim(0, 1)
    ax2.legend(fontsize=8)
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def _section3_tables(res):
    """The tables of the page, in the notebook's order, with the decimals each shows."""
    moments = res.moments_wide
    lemma33 = res.lemma33.pivot(index="r", columns="sum of weights", values="exact E R̂k")
    return {
        "example": Table(res.example, 4), "lemma32": Table(res.lemma32, 12),
        "moments_r1": Table(moments["R̂1"], 5, caption="R̂1"), "moments_r2": Table(moments["R̂2"], 5, caption="R̂2"),
        "literal": Table(res.literal, 5),
        "three": Table(res.three, {"r": 4, "|exact mean R̂2 - r|": 12, "exact var R̂1": 6, "Lemma 3.1": 6,
                                   "exact var R̂2": 6, "r2_variance": 6}),
        "lemma33": Table(lemma33, 4),
        "theorem32": Table(res.theorem32, {"r": 2, "optimum / var R̂2": 6, "var R̂1 / var R̂2": 4,
                                           "best random / var R̂2": 4, "smallest eigenvalue of C": 4}),
        "figure2": Table(res.figure2, 6), "lemma_a1": Table(res.lemma_a1, 9),
    }


def section3_page(*, seed=2004, scale="paper", check_r=(0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0),
                  check_n=(2, 4, 6, 10, 16, 20), figure_r_points=26, figure_n_step=2, n_random_estimators=200):
    """The page of notebook ``bouckaert2004/01_estimators``: Section 3, Figure 2 and Lemma A.1, checked.

    Parameters are those of :func:`section3`.

    Returns
    -------
    Page
        The claims of :func:`section3_claims` and the values the text quotes; tables
        ``example``, ``lemma32``, ``moments_r1``, ``moments_r2``, ``literal``, ``three``,
        ``lemma33``, ``theorem32``, ``figure2``, ``lemma_a1``; figures ``theorem31``
        (Theorem 3.1 as corrected and as printed) and ``figure2``; the reproduced
        table ``figure2`` (written by ``page.write()``).

    Examples
    --------
    >>> page = section3_page(scale="smoke", check_r=[0.5, 1.0], check_n=[2, 4], n_random_estimators=5)
    >>> page.name, sorted(page.figures), list(page.reproduced)
    ('01_estimators', ['figure2', 'theorem31'], ['figure2'])
    """
    res = section3(seed=seed, scale=scale, check_r=check_r, check_n=check_n, figure_r_points=figure_r_points,
                   figure_n_step=figure_n_step, n_random_estimators=n_random_estimators)
    claims, values = section3_claims(res)
    return Page(claims, values, tables=_section3_tables(res), reproduced={"figure2": res.reproduced},
                figures={"theorem31": partial(_theorem31_figure, res), "figure2": partial(_figure2_figure, res)})
