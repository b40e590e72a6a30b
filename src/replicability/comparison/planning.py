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

from .._validation import as_generator, check_alpha, check_choice, check_positive_int
from ..plotting import pyplot
from ..stats.pairwise import pairwise_test
from ..stats.planning import corrected_power, corrected_replicability, power_cap
from ..stats.ranks import friedman_test
from .many_result import ManyComparison
from .result import Reported
from .sources import SourceVariance

__all__ = ["DATASET_COUNTS", "DatasetPlan", "Plan", "plan", "plan_datasets"]


@dataclass(frozen=True)
class Plan(Reported):
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

    def reaching(self, column, target):
        """The fewest runs at which ``column`` of ``table`` reaches ``target``; None if none does."""
        return _first_reaching(self.table, column, target)

    def summary(self):
        """The plan in a few plain lines."""
        lines = [f"Plan for the corrected repeated cv t-test, {self.n_folds}-fold cv: effect {self.effect:+.4g}, "
                 f"sd {self.sd:.4g}, correlation {self.correlation:.4g}, n_test/n_train {self.test_ratio:.4g}, "
                 f"randomization variance of a run's mean {self.randomization_var:.3g}, alpha {self.alpha:g}"]
        targets = {"power": self.power_target, "replicability": self.replicability_target}
        targets.update({column: self.replicability_target for column in self.table.columns[2:]})
        for column, target in targets.items():
            runs = self.reaching(column, target)
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

    def to_frame(self):
        """The ``table``, a copy (shown below the summary in a notebook)."""
        return self.table.copy()

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


def _first_reaching(table, column, target):
    reached = table.index[table[column] >= target]
    return int(reached[0]) if len(reached) else None


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
        Folds per run (default 10). A pilot's folds are its own: another number of
        folds changes the training-set size, and with it the spread and the
        randomization variance, so it is refused; to choose the folds, plan from a
        pilot at each and compare the fits (runs x folds) each plan needs.
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
        if n_folds is not None and n_folds != d.shape[-1]:
            raise ValueError(f"A pilot of {d.shape[-1]}-fold cv plans runs of {d.shape[-1]}-fold cv: its spread and "
                             f"randomization variance belong to its training-set size. For {n_folds} folds, plan "
                             f"from a pilot with {n_folds} folds and compare the fits each plan needs.")
        n_folds = d.shape[-1]
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
    both = table.assign(both=(table["power"] >= power) & (table["replicability"] >= replicability))
    return Plan(table=table, n_runs=_first_reaching(both, "both", True),
                power_cap=power_cap(effect, sd, test_ratio, rho, alpha), effect=float(effect), sd=float(sd),
                correlation=rho, test_ratio=float(test_ratio), n_folds=n_folds, alpha=alpha, power_target=power,
                replicability_target=replicability, randomization_var=float(randomization_var),
                source_vars=source_vars)


#: Numbers of data sets :func:`plan_datasets` considers by default.
DATASET_COUNTS = (5, 10, 15, 20, 30, 40, 50, 75, 100)


@dataclass(frozen=True)
class DatasetPlan(Reported):
    """Outcome of :func:`plan_datasets`: the decisions of a benchmark by its number of data sets.

    Attributes
    ----------
    table : pandas.DataFrame
        Index ``datasets``; columns ``power`` (the Friedman / Iman-Davenport test rejects),
        ``pairs decided`` (mean over pairs of the probability that the pair's Holm-adjusted
        test decides), ``replicability`` (mean over pairs of the probability that two
        benchmarks of as many data sets decide the pair alike) and the Monte Carlo standard
        error of each (``… se``; for the averages over pairs, the mean of the pairs' errors,
        which bounds the average's).
    pairs : pandas.DataFrame
        Per pair (rows ``A - B``) and number of data sets (columns): the probability that
        the pair is decided.
    n_datasets : int or None
        The fewest data sets of ``table`` reaching both targets; None when none does.
    learners : tuple of str
    n_pilot : int
        Data sets of the pilot.
    posthoc : str
        The pairs' test (``"signed_rank"`` or ``"sign"``).
    alpha, power_target, replicability_target : float
    n_resamples : int
    """

    table: object
    pairs: object
    n_datasets: int | None
    learners: tuple
    n_pilot: int
    posthoc: str
    alpha: float
    power_target: float
    replicability_target: float
    n_resamples: int

    def reaching(self, column, target):
        """The fewest data sets at which ``column`` of ``table`` reaches ``target``; None if none does."""
        return _first_reaching(self.table, column, target)

    def summary(self):
        """The plan in a few plain lines."""
        lines = [f"Plan for a benchmark of {len(self.learners)} learners (Friedman / Iman-Davenport, then every pair "
                 f"by the {self.posthoc.replace('_', '-')} test with Holm), alpha {self.alpha:g}: {self.n_resamples} "
                 f"benchmarks resampled from the pilot's {self.n_pilot} data sets per size"]
        for column, target in (("power", self.power_target), ("replicability", self.replicability_target)):
            size = self.reaching(column, target)
            lines.append(f"{column} {target:g}: " + (f"{size} data sets" if size else
                                                     f"not reached with {self.table.index[-1]} data sets"))
        if self.n_datasets is not None:
            row = self.table.loc[self.n_datasets]
            lines.append(f"both: {self.n_datasets} data sets (power {row['power']:.3f}, replicability "
                         f"{row['replicability']:.3f}, pairs decided {row['pairs decided']:.3f})")
        else:
            lines.append("both: not reached")
        lines.append("the pilot's data sets stand for the population: its effects are taken as true (a small pilot's "
                     "largest differences are overestimated, and so is the power)")
        return "\n".join(lines)

    def to_frame(self):
        """The ``table``, a copy (shown below the summary in a notebook)."""
        return self.table.copy()

    def to_dict(self):
        """Plain Python values (JSON-ready)."""
        return {"n_datasets": self.n_datasets, "learners": list(self.learners), "n_pilot": self.n_pilot,
                "posthoc": self.posthoc, "alpha": self.alpha, "power_target": self.power_target,
                "replicability_target": self.replicability_target, "n_resamples": self.n_resamples,
                "table": self.table.reset_index().to_dict(orient="records")}

    def plot(self, ax=None):
        """Power, pairs decided and replicability against the number of data sets, with the targets."""
        plt = pyplot()
        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 3.6), constrained_layout=True)
        sizes = self.table.index
        for column, style, color in (("power", "o-", "C0"), ("pairs decided", "^-", "C2"),
                                     ("replicability", "s-", "C1")):
            ax.errorbar(sizes, self.table[column], yerr=2 * self.table[f"{column} se"], fmt=style, ms=3,
                        color=color, label=column, capsize=2)
        ax.axhline(self.power_target, color="C0", ls=":", lw=1)
        ax.axhline(self.replicability_target, color="C1", ls=":", lw=1)
        if self.n_datasets is not None:
            ax.axvline(self.n_datasets, color="k", lw=0.8, label=f"{self.n_datasets} data sets")
        ax.set(xlabel="data sets", ylabel="probability", ylim=(0, 1.02))
        ax.legend(loc="lower right", fontsize="small")
        return ax


def _pilot_table(pilot):
    """(scores (n_repeats, N, k), learners, better, alpha, posthoc) of a ManyComparison or a score table."""
    if isinstance(pilot, ManyComparison):
        posthoc = "signed_rank" if pilot.posthoc == "nemenyi" else pilot.posthoc
        return np.asarray(pilot.scores, float), pilot.learners, pilot.better, pilot.alpha, posthoc
    import pandas as pd

    learners = tuple(str(c) for c in pilot.columns) if isinstance(pilot, pd.DataFrame) else None
    scores = np.asarray(pilot, dtype=float)
    if scores.ndim != 2:
        raise ValueError(f"A pilot score table has data sets in rows and learners in columns; got shape "
                         f"{scores.shape}.")
    learners = learners or tuple(f"learner {j}" for j in range(scores.shape[1]))
    return scores[None], learners, None, None, None


def plan_datasets(pilot, *, n_datasets=DATASET_COUNTS, power=0.8, replicability=0.9, better=None, alpha=None,
                  posthoc=None, n_resamples=1000, rng=None):
    """The data sets a benchmark of several learners needs for a power *and* a replicability of its decisions.

    Benchmarks of ``N`` data sets are drawn from the pilot's (with replacement; from a
    :func:`~replicability.comparison.many.compare_many` pilot, each drawn data set
    brings the scores of one of its randomizations, drawn too, so that a benchmark's
    own randomization noise is in it), and each is decided as
    :func:`~replicability.comparison.many.compare_many_scores` decides: Friedman's
    test with Iman and Davenport's F, and every pair by its paired test with Holm's
    correction. The power is the share of benchmarks whose Friedman test rejects; a
    pair's replicability is the probability that two independent benchmarks decide it
    alike (A better, B better, or no decision: ``sum_c p_c^2``, estimated without bias
    as ``sum_c n_c (n_c - 1) / (B (B - 1))``), averaged over the pairs.

    The pilot's data sets stand for the population of data sets (the plug-in
    principle): its differences are taken as true, so a pilot of few data sets
    overstates the largest differences and the power planned from them, and the plan
    cannot say anything about data sets unlike the pilot's. Even a pilot of 2000
    simulated data sets whose effects were off by 2.3 of their standard errors gave a
    power 6 points above the achieved at 25 data sets (``tests/comparison/test_planning.py``:
    with 20000 the plan is within 3 Monte Carlo standard errors + 0.02 of the achieved
    power, share decided and replicability on three designs; exact for two learners by
    enumeration of the binomial count of wins).

    Parameters
    ----------
    pilot : ManyComparison or pandas.DataFrame or array_like of shape (N, k)
        A :func:`~replicability.comparison.many.compare_many` (or ``compare_many_scores``)
        result, or a table of scores, data sets in rows and learners in columns, without
        missing cells.
    n_datasets : sequence of int, default :data:`DATASET_COUNTS`
        The benchmark sizes considered (at least 2 data sets each), increasing.
    power, replicability : float, default 0.8 and 0.9
        The targets.
    better, alpha, posthoc : optional
        As in :func:`~replicability.comparison.many.compare_many_scores`; default the
        pilot's (Nemenyi's pilots: the signed-rank test), for a table "higher", 0.05
        and "signed_rank".
    n_resamples : int, default 1000
        Benchmarks drawn per size; the Monte Carlo standard errors are in the table.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    DatasetPlan

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.comparison.planning import plan_datasets
    >>> rng = np.random.default_rng(0)
    >>> scores = rng.normal(0.8, 0.05, (30, 1)) + rng.normal([0.0, 0.01, 0.02], 0.02, (30, 3))
    >>> p = plan_datasets(scores, n_datasets=(10, 20, 40), n_resamples=200, rng=1)
    >>> p.table.index.tolist(), p.n_datasets
    ([10, 20, 40], 40)
    """
    import pandas as pd

    scores, learners, pilot_better, pilot_alpha, pilot_posthoc = _pilot_table(pilot)
    if np.isnan(scores).any():
        raise ValueError("The pilot has missing cells; plan from data sets where every learner has a score.")
    n_repeats, n_pilot, k = scores.shape
    if k < 2 or n_pilot < 2:
        raise ValueError(f"The pilot needs at least 2 learners and 2 data sets; got {k} and {n_pilot}.")
    power, replicability = _check_target(power, "power"), _check_target(replicability, "replicability")
    better = check_choice(better or pilot_better or "higher", "better", ("higher", "lower"))
    alpha = check_alpha(alpha if alpha is not None else pilot_alpha or 0.05)
    posthoc = check_choice(posthoc or pilot_posthoc or "signed_rank", "posthoc", ("signed_rank", "sign"))
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    sizes = [check_positive_int(n, "n_datasets", minimum=2) for n in np.atleast_1d(n_datasets).tolist()]
    if sizes != sorted(set(sizes)):
        raise ValueError(f"`n_datasets` must increase; got {list(n_datasets)}.")
    generator = as_generator(rng)
    first, second = np.triu_indices(k, 1)
    rows, decided = [], {}
    for n in sizes:
        drawn = generator.integers(n_pilot, size=(n_resamples, n))  # data sets, then their randomizations
        tables = scores[generator.integers(n_repeats, size=(n_resamples, n)), drawn]  # (B, n, k)
        rejects = friedman_test(tables, better=better).iman_davenport_pvalue < alpha
        pairs = pairwise_test(tables, better=better, test=posthoc)
        outcome = np.where(pairs.adjusted_pvalue < alpha, np.sign(pairs.statistic), 0)[:, first, second]
        counts = np.stack([(outcome == c).sum(axis=0) for c in (-1, 0, 1)])  # (3, pairs)
        agree = (counts * (counts - 1)).sum(axis=0) / (n_resamples * (n_resamples - 1))
        share = (outcome != 0).mean(axis=0)
        # Monte Carlo standard errors: binomial for the rates; for the agreement, that of sum_c p_c^2 (delta method)
        p = counts / n_resamples
        agree_se = np.sqrt(np.maximum((4 * (p**3).sum(axis=0) - 4 * agree**2) / n_resamples, 0.0))
        rate = rejects.mean()
        rows.append({"power": rate, "pairs decided": share.mean(), "replicability": agree.mean(),
                     "power se": np.sqrt(rate * (1 - rate) / n_resamples),
                     "pairs decided se": np.sqrt(share * (1 - share) / n_resamples).mean(),
                     "replicability se": agree_se.mean()})
        decided[n] = share
    table = pd.DataFrame(rows, index=pd.Index(sizes, name="datasets"))
    both = table.assign(both=(table["power"] >= power) & (table["replicability"] >= replicability))
    names = [f"{learners[i]} - {learners[j]}" for i, j in zip(first, second)]
    return DatasetPlan(table=table, pairs=pd.DataFrame(decided, index=pd.Index(names, name="pair")),
                       n_datasets=_first_reaching(both, "both", True), learners=tuple(learners), n_pilot=n_pilot,
                       posthoc=posthoc, alpha=alpha, power_target=power, replicability_target=replicability,
                       n_resamples=n_resamples)
