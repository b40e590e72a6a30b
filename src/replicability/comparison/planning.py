"""Plan a comparison: the runs of r x k cv at which the corrected t-test reaches a power and a replicability.

:func:`plan` takes a pilot :class:`~replicability.comparison.result.Comparison` (or the
model's parameters) and tabulates, by the number of runs, the power and the replicability
of :mod:`replicability.stats.planning`'s model, with the fewest runs reaching both and the
power no number of runs can pass. A pilot
:class:`~replicability.comparison.sources.SourceVariance` (splits crossed with learner
seeds) adds the replicability under new seeds only and under new splits only: the runs
(each with its own seeds) that make the decision stable against each source.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_alpha, check_positive_int
from ..plotting import pyplot
from ..stats.planning import corrected_power, corrected_replicability, power_cap
from .sources import SourceVariance

__all__ = ["Plan", "plan"]


@dataclass(frozen=True)
class Plan:
    """Outcome of :func:`plan`: power and replicability by the number of runs, and the runs needed.

    Attributes
    ----------
    table : pandas.DataFrame
        Index ``runs`` (1 to ``max_runs``), columns ``power`` and ``replicability``; from a
        :class:`~replicability.comparison.sources.SourceVariance` pilot also
        ``replicability, new seeds`` (the same splits, other learner seeds) and
        ``replicability, new splits`` (the same seeds, other splits).
    n_runs : int or None
        The fewest runs reaching both targets; None when ``max_runs`` do not.
    power_cap : float
        The power approached as the runs grow without bound.
    effect, sd, correlation, test_ratio, randomization_var : float
        The model's parameters, as used.
    source_vars : dict or None
        From a SourceVariance pilot: the split, seed and interaction variances of a run's
        mean difference (negative estimates as 0); ``randomization_var`` is their sum.
    n_folds : int
    alpha, power_target, replicability_target : float
    """

    table: object
    n_runs: int | None
    power_cap: float
    effect: float
    sd: float
    correlation: float
    test_ratio: float
    n_folds: int
    alpha: float
    power_target: float
    replicability_target: float
    randomization_var: float
    source_vars: dict | None = None

    def _runs_for(self, column, target):
        reached = self.table.index[self.table[column] >= target]
        return int(reached[0]) if len(reached) else None

    def summary(self):
        """The plan in a few plain lines."""
        lines = [f"Plan for the corrected repeated cv t-test, {self.n_folds}-fold cv: effect {self.effect:+.4g}, "
                 f"sd {self.sd:.4g}, correlation {self.correlation:.4g}, n_test/n_train {self.test_ratio:.4g}, "
                 f"randomization variance of a run's mean {self.randomization_var:.3g}, alpha {self.alpha:g}"]
        targets = {"power": self.power_target, "replicability": self.replicability_target}
        targets.update({column: self.replicability_target for column in self.table.columns[2:]})
        for column, target in targets.items():
            runs = self._runs_for(column, target)
            lines.append(f"{column} {target:g}: " + (f"{runs} run{'s' if runs > 1 else ''}" if runs else
                                                     f"not reached in {self.table.index[-1]} runs"))
        if self.n_runs is not None:
            row = self.table.loc[self.n_runs]
            lines.append(f"both: {self.n_runs} x {self.n_folds} cv (power {row['power']:.3f}, replicability "
                         f"{row['replicability']:.3f})")
        else:
            lines.append("both: not reached")
        if self.power_cap < self.power_target:
            lines.append(f"no number of runs reaches power {self.power_target:g}: it tends to {self.power_cap:.3f}; "
                         f"only more data (or a smaller test fraction) raises the cap")
        return "\n".join(lines)

    def __str__(self):
        return self.summary()

    def to_dict(self):
        """Plain Python values (JSON-ready)."""
        return {"n_runs": self.n_runs, "n_folds": self.n_folds, "power_cap": self.power_cap, "effect": self.effect,
                "sd": self.sd, "correlation": self.correlation, "test_ratio": self.test_ratio,
                "randomization_var": self.randomization_var, "source_vars": self.source_vars, "alpha": self.alpha,
                "power_target": self.power_target, "replicability_target": self.replicability_target,
                "table": self.table.reset_index().to_dict(orient="records")}

    def plot(self, ax=None):
        """Power and replicability against the runs, the targets, the power cap and the runs needed."""
        plt = pyplot()
        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 3.6), constrained_layout=True)
        runs = self.table.index
        ax.plot(runs, self.table["power"], "o-", ms=3, color="C0", label="power")
        ax.plot(runs, self.table["replicability"], "s-", ms=3, color="C1", label="replicability")
        for column, style in zip(self.table.columns[2:], ("--", ":")):
            ax.plot(runs, self.table[column], style, color="C1", lw=1, label=column)
        ax.axhline(self.power_target, color="C0", ls=":", lw=1)
        ax.axhline(self.replicability_target, color="C1", ls=":", lw=1)
        ax.axhline(self.power_cap, color="C0", ls="--", lw=1, label=f"power cap {self.power_cap:.2f}")
        if self.n_runs is not None:
            ax.axvline(self.n_runs, color="k", lw=0.8, label=f"{self.n_runs} runs")
        ax.set(xlabel=f"runs of {self.n_folds}-fold cv", ylabel="probability", ylim=(0, 1.02), xscale="log")
        ax.legend(loc="lower right", fontsize="small")
        return ax


def _check_target(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or not 0 < value < 1:
        raise ValueError(f"`{name}` must be a probability in (0, 1); got {value!r}.")
    return float(value)


def plan(pilot=None, *, effect=None, sd=None, correlation=None, test_ratio=None, randomization_var=None,
         n_folds=None, power=0.8, replicability=0.9, alpha=None, max_runs=100):
    """The runs of r x k cv needed for a power *and* a replicability of the corrected t-test's decision.

    Parameters
    ----------
    pilot : Comparison or SourceVariance, optional
        A pilot :func:`~replicability.comparison.run.compare` (or ``compare_scores``) of r x k
        cv: its mean difference (over every randomization) is the effect, its per-split
        variance ``s^2`` (averaged over randomizations) estimates ``sd^2 (1 - correlation)``,
        the variance of its runs' mean differences (over its randomizations and runs)
        ``randomization_var``, and its folds, ``n_test / n_train`` and ``alpha`` are taken
        unless given. One data
        set cannot tell the correlation between splits (it is a property of the data's
        distribution, Nadeau & Bengio 2003), so Nadeau and Bengio's heuristic is used
        unless ``correlation`` is given. A
        :func:`~replicability.comparison.sources.variance_by_source` pilot is read the same
        way (its cells as the randomizations), except that ``randomization_var`` is the sum
        of its split, seed and interaction components, and the plan adds the replicability
        when only the seeds change (the split component then joins the shared part,
        ``fixed_var`` of :func:`~replicability.stats.planning.corrected_replicability`;
        seed and interaction are the noise) and when only the splits change (seed shared;
        split and interaction noise).
    effect, sd, correlation, test_ratio : float, optional
        The model's parameters (see :func:`~replicability.stats.planning.corrected_power`), instead of a pilot.
    randomization_var : float, optional
        See :func:`~replicability.stats.planning.corrected_replicability`.
    n_folds : int, optional
        Folds per run (default: the pilot's, else 10).
    power, replicability : float, default 0.8 and 0.9
        The targets.
    alpha : float, optional
        Level of the test (default: the pilot's, else 0.05).
    max_runs : int, default 100
        The largest number of runs considered.

    Returns
    -------
    Plan

    Examples
    --------
    >>> from replicability.comparison.planning import plan
    >>> p = plan(effect=0.03, sd=0.05, test_ratio=1 / 9, power=0.3, replicability=0.85)
    >>> p.n_runs, round(p.power_cap, 3)
    (9, 0.475)
    """
    power, replicability = _check_target(power, "power"), _check_target(replicability, "replicability")
    max_runs = check_positive_int(max_runs, "max_runs", minimum=1)
    source_vars = None
    if isinstance(pilot, SourceVariance):
        # a cell's components, as those of one run's mean (a cell may hold several runs)
        runs_per_cell = np.shape(pilot.comparison.differences)[-2]
        source_vars = {name: float(value) * runs_per_cell for name, value in pilot.components.estimate.items()}
        if randomization_var is None:
            randomization_var = sum(source_vars.values())
        pilot = pilot.comparison
    if pilot is not None:
        if effect is not None or sd is not None:
            raise ValueError("Give a `pilot` or `effect` and `sd`, not both.")
        if pilot.recommended != "corrected repeated cv t":
            raise ValueError(f"The pilot must use r x k cv (the corrected repeated cv t-test); its scheme is "
                             f"{pilot.scheme!r}.")
        d = np.asarray(pilot.differences, dtype=float)
        test_ratio = pilot.n_test / pilot.n_train if test_ratio is None else test_ratio
        n_folds = d.shape[-1] if n_folds is None else n_folds
        alpha = pilot.alpha if alpha is None else alpha
    elif effect is None or sd is None or test_ratio is None:
        raise ValueError("Give a `pilot`, or `effect`, `sd` and `test_ratio`.")
    n_folds = 10 if n_folds is None else check_positive_int(n_folds, "n_folds", minimum=2)
    alpha = check_alpha(0.05 if alpha is None else alpha)
    rho = test_ratio / (1 + test_ratio) if correlation is None else float(correlation)
    if pilot is not None:
        effect = float(d.mean())
        within = float(np.mean(d.reshape(d.shape[0], -1).var(axis=1, ddof=1)))  # estimates sd^2 (1 - rho)
        sd = float(np.sqrt(within / (1 - rho)))
        run_means = d.mean(axis=-1).reshape(-1)
        if randomization_var is None and run_means.size >= 2:
            randomization_var = float(run_means.var(ddof=1))
    if randomization_var is None:  # corrected_replicability's default: a run's folds independent given the data
        randomization_var = sd**2 * (1 - rho) / n_folds
    runs = np.arange(1, max_runs + 1)
    options = {"n_folds": n_folds, "test_ratio": test_ratio, "correlation": rho, "alpha": alpha}
    import pandas as pd

    columns = {"power": corrected_power(effect, sd, n_runs=runs, **options),
               "replicability": corrected_replicability(effect, sd, n_runs=runs, randomization_var=randomization_var,
                                                        **options)}
    if source_vars is not None:
        split, seed, interaction = (source_vars[name] for name in ("split", "seed", "interaction"))
        for column, fixed, changing in (("replicability, new seeds", split, seed + interaction),
                                        ("replicability, new splits", seed, split + interaction)):
            # a source with no variance cannot change the decision
            columns[column] = (corrected_replicability(effect, sd, n_runs=runs, randomization_var=changing,
                                                       fixed_var=fixed, **options) if changing > 0
                               else np.ones(runs.size))
    table = pd.DataFrame(columns, index=pd.Index(runs, name="runs"))
    both = table.index[(table["power"] >= power) & (table["replicability"] >= replicability)]
    return Plan(table=table, n_runs=int(both[0]) if len(both) else None,
                power_cap=power_cap(effect, sd, test_ratio, rho, alpha), effect=float(effect), sd=float(sd),
                correlation=rho, test_ratio=float(test_ratio), n_folds=n_folds, alpha=alpha, power_target=power,
                replicability_target=replicability, randomization_var=float(randomization_var),
                source_vars=source_vars)
