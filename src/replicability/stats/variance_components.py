"""Variance components of a crossed two-way design: how much each source of randomness moves a result.

A comparison run under ``r`` randomizations of the splits crossed with ``s`` sets of
learner seeds gives one value per cell, ``x[i, j]`` (e.g. the mean difference A - B
under split randomization ``i`` and seed set ``j``). The random-effects model

.. math:: x_{ij} = \\mu + a_i + b_j + e_{ij}, \\quad
          a_i \\sim (0, \\sigma^2_\\text{split}),\\ b_j \\sim (0, \\sigma^2_\\text{seed}),\\
          e_{ij} \\sim (0, \\sigma^2_\\text{interaction})

is estimated by the ANOVA (method-of-moments) estimators of a two-way table without
replication (Searle, Casella & McCulloch 1992, Section 4.5 [1]_): with the mean squares of
rows, columns and residual, ``MS_R``, ``MS_C``, ``MS_E`` on ``r - 1``, ``s - 1`` and
``(r - 1)(s - 1)`` degrees of freedom,

.. math:: \\hat\\sigma^2_\\text{split} = (MS_R - MS_E)/s, \\quad
          \\hat\\sigma^2_\\text{seed} = (MS_C - MS_E)/r, \\quad
          \\hat\\sigma^2_\\text{interaction} = MS_E.

With one value per cell the interaction of split and seed cannot be told from the
rest of a cell's noise: the "interaction" component holds both (for a whole cv run it
is mostly how a seed's effect depends on the split). The estimators are unbiased;
a negative estimate (a component smaller than its noise) is reported as 0 with a
flag, the raw value kept. Under normality ``MS / E[MS]`` is ``chi^2_df / df``, so
``Var(MS) = 2 E[MS]^2 / df``, estimated without bias by ``2 MS^2 / (df + 2)``; a
component's variance is the sum of its two mean squares' variances over the divisor
squared (Searle et al. 1992, Section 4.5e). The standard error measures the spread of
the estimator (its square is unbiased); it does not make ``estimate ± 2 se`` an
interval: with few levels a mean square is skewed, and the plug-in error is small
exactly when the estimate is. Bouthillier et al. (2021) [2]_ measure the
same split of variance in machine-learning benchmarks.

References
----------
.. [1] Searle, S. R., Casella, G., & McCulloch, C. E. (1992). *Variance Components*.
   Wiley. https://doi.org/10.1002/9780470316856
.. [2] Bouthillier, X., Delaunay, P., Bronzi, M., et al. (2021). Accounting for variance
   in machine learning benchmarks. MLSys 2021. https://arxiv.org/abs/2103.03098
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["COMPONENTS", "VarianceComponents", "crossed_components"]

#: The components of a crossed split x seed design, in the order they are reported.
COMPONENTS = ("split", "seed", "interaction")


@dataclass(frozen=True)
class VarianceComponents:
    """Outcome of :func:`crossed_components`.

    Attributes
    ----------
    estimate : dict of str to float
        Each component of :data:`COMPONENTS`, negative estimates set to 0.
    raw : dict of str to float
        The unbiased estimates as computed (may be negative).
    standard_error : dict of str to float
        Each component's standard error (``sqrt`` of the unbiased variance estimate).
    mean_squares, df : dict of str to float
        Mean squares and degrees of freedom of ``"rows"``, ``"columns"`` and ``"residual"``.
    mean : float
        The grand mean.
    shape : tuple of int
        ``(r, s)``.
    """

    estimate: dict
    raw: dict
    standard_error: dict
    mean_squares: dict
    df: dict
    mean: float
    shape: tuple

    @property
    def truncated(self):
        """Names of the components whose raw estimate was negative (reported as 0)."""
        return [name for name in COMPONENTS if self.raw[name] < 0]

    @property
    def total(self):
        """Variance of one cell's value: the sum of the (truncated) components."""
        return sum(self.estimate.values())

    def share(self):
        """Each component's share of :attr:`total` (NaN when the total is 0)."""
        total = self.total
        return {name: (v / total if total > 0 else np.nan) for name, v in self.estimate.items()}


def crossed_components(table):
    """ANOVA estimates of the split, seed and interaction variance of a crossed ``(r, s)`` table.

    Parameters
    ----------
    table : array_like, shape (r, s)
        One value per cell: rows are randomizations of the splits, columns sets of
        learner seeds; ``r, s >= 2``, finite.

    Returns
    -------
    VarianceComponents

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.variance_components import crossed_components
    >>> rows, cols = np.array([0.0, 1.0, 2.0]), np.array([0.0, 0.5])
    >>> res = crossed_components(rows[:, None] + cols[None, :])  # additive: no interaction
    >>> res.estimate["split"], res.estimate["seed"], res.estimate["interaction"]
    (1.0, 0.125, 0.0)
    """
    x = np.asarray(table, dtype=float)
    if x.ndim != 2 or min(x.shape) < 2:
        raise ValueError(f"`table` must be 2-d with at least 2 rows and 2 columns; got shape {x.shape}.")
    if not np.all(np.isfinite(x)):
        raise ValueError("`table` must hold finite values; got NaN or infinity.")
    r, s = x.shape
    mean = x.mean()
    rows, cols = x.mean(axis=1), x.mean(axis=0)
    residual = x - rows[:, None] - cols[None, :] + mean
    df = {"rows": r - 1, "columns": s - 1, "residual": (r - 1) * (s - 1)}
    ms = {"rows": s * np.sum((rows - mean) ** 2) / df["rows"],
          "columns": r * np.sum((cols - mean) ** 2) / df["columns"],
          "residual": np.sum(residual ** 2) / df["residual"]}
    raw = {"split": (ms["rows"] - ms["residual"]) / s, "seed": (ms["columns"] - ms["residual"]) / r,
           "interaction": ms["residual"]}

    def var(name):  # unbiased estimate of Var(MS) = 2 E[MS]^2 / df
        return 2 * ms[name] ** 2 / (df[name] + 2)

    se = {"split": np.sqrt(var("rows") + var("residual")) / s, "seed": np.sqrt(var("columns") + var("residual")) / r,
          "interaction": np.sqrt(var("residual"))}
    floats = {name: {k: float(v) for k, v in d.items()} for name, d in (("raw", raw), ("se", se), ("ms", ms))}
    return VarianceComponents(estimate={k: max(v, 0.0) for k, v in floats["raw"].items()}, raw=floats["raw"],
                              standard_error=floats["se"], mean_squares=floats["ms"], df=df, mean=float(mean),
                              shape=(r, s))
