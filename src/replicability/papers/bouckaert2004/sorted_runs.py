"""The sorted-runs sweep of Bouckaert (2004), Section 4: level, runs, class probability, cardinality, learners.

:func:`sweep_page` makes the page of notebook ``bouckaert2004/03_sweep``:
:func:`sweep` recomputes every factor from the fold counts of
:func:`~replicability.papers.shared.synthetic_runs.synthetic_fold_counts`
(committed under ``data/results`` at paper scale), :func:`sweep_claims` holds the
three claims of the paper to the rules of :mod:`replicability.report.claims`, and
the page draws the trends over the number of runs and the class probability.

References
----------
Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import check_choice
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table, plain
from ...report.tables import read_published
from ...report.uncertainty import rate_se
from ...stats.measures import normalized_replicability, replicability_r2
from ..shared.readings import experiment_outcomes, outcome_summary
from ..shared.synthetic_runs import fold_differences, synthetic_fold_counts

__all__ = ["SWEEP_LEARNER_PAIRS", "SWEEP_SIZES", "SWEEP_TESTS", "Sweep", "sweep", "sweep_claims", "sweep_page"]

#: Data sets and randomizations per scale: the level, class-probability and cardinality factors ("main"), the
#: run sweep ("runs", up to "max_runs" runs) and the learner pairs other than naive Bayes and C4.5.
SWEEP_SIZES = {
    "smoke": {"main": {"n_datasets": 3, "n_repeats": 3}, "runs": {"n_datasets": 3, "n_repeats": 3},
              "max_runs": 20, "pairs": {"n_datasets": 2, "n_repeats": 2}, "pair_runs": 2},
    "quick": {"main": {"n_datasets": 100, "n_repeats": 10}, "runs": {"n_datasets": 20, "n_repeats": 10},
              "max_runs": 100, "pairs": {"n_datasets": 100, "n_repeats": 10}, "pair_runs": 10},
    "paper": {"main": {"n_datasets": 1000, "n_repeats": 10}, "runs": {"n_datasets": 200, "n_repeats": 10},
              "max_runs": 100, "pairs": {"n_datasets": 1000, "n_repeats": 10}, "pair_runs": 10},
}
#: The three tests, in the order of the tables.
SWEEP_TESTS = ("t", "sign", "signed_rank")
#: Learner pairs of the learner factor (the paper's stump and SVM are not in the package).
SWEEP_LEARNER_PAIRS = (("naive_bayes", "c45"), ("naive_bayes", "ib1"), ("c45", "ib1"), ("naive_bayes", "tan"),
                       ("naive_bayes", "voted_perceptron"))
_LABEL = {"t": "t-test", "sign": "sign test", "signed_rank": "rank test"}
_FACTORS = ("alpha", "runs", "class_probability", "n_classes", "learner")


@dataclass
class Sweep:
    """The sweep reproduced (see :func:`sweep`): one long frame per factor and the derived tables."""

    by_factor: dict
    tables: dict
    frame: pd.DataFrame
    excess: pd.DataFrame
    cost: pd.DataFrame
    n_datasets: dict
    alpha: float
    runs_per_dataset: dict


def _summarize(d, level, per_dataset=None, **labels):
    rows = []
    for test in SWEEP_TESTS:
        outcomes = experiment_outcomes(d, scheme="sorted_runs", test=test, alpha=level)
        s = outcome_summary(outcomes)
        if per_dataset is not None:  # 2 R2 - 1 per data set, for paired comparisons between settings
            per_dataset[labels["data_source"], test, labels["setting"]] = normalized_replicability(
                replicability_r2(outcomes))
        rows.append({**labels, "test": test, "rejection_pct": 100 * s["rejection"],
                     "rejection_hw_pct": 100 * s["rejection_halfwidth"],
                     "norm_r2_pct": 100 * s["normalized_r2"], "norm_r2_hw_pct": 100 * s["normalized_r2_halfwidth"]})
    return rows


def _factor_table(frame, type1_source=None):
    # Type I error on the null source and the minimum replicability over the sources, per setting and test.
    null = frame if type1_source is None else frame[frame["data_source"] == type1_source]
    t1 = null.pivot(index="setting", columns="test", values="rejection_pct")
    worst = frame.groupby(["setting", "test"])["norm_r2_pct"].min().unstack("test")
    tests = list(SWEEP_TESTS)
    return pd.concat({"Type I error (%)": t1[tests], "min. norm. replicability (%)": worst[tests]},
                     axis=1).rename(columns=_LABEL, level=1)


def _fold_count(size, n_runs, n_settings=1):
    return size["n_datasets"] * size["n_repeats"] * n_runs * 10 * n_settings


def _differences(source, n_runs, size, *, seed, scale, **options):
    """Fold accuracy differences of ``n_runs`` x 10 cv on one source (committed at paper scale)."""
    counts = synthetic_fold_counts(source, seed=seed, scale=scale, n_jobs=1 if scale == "smoke" else None,
                                   scheme="rxk_cv", scheme_params={"n_runs": n_runs, "n_folds": 10}, **size, **options)
    return fold_differences(counts)


def _by_factor(differences, grid, sizes, alpha, learner_pairs):
    """One frame per factor (a row per setting, data source and test), and 2 R̂2 - 1 per data set of the run sweep."""
    shared = {i: differences(f"source{i}", 10, sizes["main"]) for i in [1, 2, 3, 4]}
    rows = [row for level in grid["alpha"] for i in [1, 2, 3, 4]
            for row in _summarize(shared[i], float(level), setting=level, data_source=i)]
    by = {"alpha": pd.DataFrame(rows)}
    runs_grid = [int(r) for r in grid["runs"] if int(r) <= sizes["max_runs"]]
    many = {i: differences(f"source{i}", sizes["max_runs"], sizes["runs"]) for i in [1, 2, 3, 4]}
    runs_per_dataset = {}
    by["runs"] = pd.DataFrame([row for r in runs_grid for i in [1, 2, 3, 4]
                               for row in _summarize(many[i][..., :r, :], alpha, runs_per_dataset, setting=r,
                                                     data_source=i)])
    rows = []
    for p in grid["class_probability"]:
        d_p = differences("null", 10, sizes["main"], source_params={"class_probability": float(p)})
        rows += _summarize(d_p, alpha, setting=p, data_source="null")
    by["class_probability"] = pd.DataFrame(rows)
    rows = []
    for c in grid["n_classes"]:
        options = {"class_probability": 0.5} if int(c) == 2 else {"class_probability": None, "n_classes": int(c)}
        rows += _summarize(differences("null", 10, sizes["main"], source_params=options), alpha, setting=c,
                           data_source="null")
    by["n_classes"] = pd.DataFrame(rows)
    rows = []
    for a, b in learner_pairs:
        fast = (a, b) == ("naive_bayes", "c45")
        size, n_runs = (sizes["main"], 10) if fast else (sizes["pairs"], sizes["pair_runs"])
        rows += _summarize(differences("null", n_runs, size, learners=(a, b)), alpha, setting=f"{a} vs {b}",
                           data_source="null")
    by["learner"] = pd.DataFrame(rows)
    return by, runs_per_dataset


def _tables(by, grid):
    """Type I error and minimum normalized replicability per factor; the level's largest excess over it."""
    tables = {"alpha": _factor_table(by["alpha"], type1_source=1), "runs": _factor_table(by["runs"], type1_source=1),
              "class_probability": _factor_table(by["class_probability"]),
              "n_classes": _factor_table(by["n_classes"]), "learner": _factor_table(by["learner"])}
    levels = 100 * np.asarray(grid["alpha"], dtype=float)[:, None]
    excess_level = tables["alpha"]["Type I error (%)"].to_numpy() - levels
    tables["alpha"].insert(3, ("max. excess over the level", "points"), excess_level.max(axis=1))
    return tables


def _frame(null_frames, alpha):
    """The reproduced table: Type I error and its excess over the level where the learners cannot differ."""
    out = []
    for factor, frame in null_frames.items():
        level = frame["setting"].map(float if factor == "alpha" else (lambda s: alpha)).astype(float)
        out.append(pd.DataFrame({"factor": factor, "setting": frame["setting"].astype(str), "test": frame["test"],
                                 "type1_excess_pct": frame["rejection_pct"] - 100 * level,
                                 "type1_error_pct": frame["rejection_pct"],
                                 "type1_halfwidth_pct": frame["rejection_hw_pct"],
                                 "normalized_replicability_pct": frame["norm_r2_pct"]}))
    return pd.concat(out, ignore_index=True)


def _cost(sizes, grid, learner_pairs):
    """Folds evaluated per experiment of the sweep."""
    n_other = sum(tuple(p) != ("naive_bayes", "c45") for p in learner_pairs)
    return pd.DataFrame([
        {"experiment": "10 x 10 cv, sources 1-4 (shared with Table 1)", "folds": _fold_count(sizes["main"], 10, 4)},
        {"experiment": f"{sizes['max_runs']} x 10 cv, sources 1-4",
         "folds": _fold_count(sizes["runs"], sizes["max_runs"], 4)},
        {"experiment": "10 x 10 cv, null data, class probabilities",
         "folds": _fold_count(sizes["main"], 10, len(grid["class_probability"]))},
        {"experiment": "10 x 10 cv, null data, 3 and 4 classes", "folds": _fold_count(sizes["main"], 10, 2)},
        {"experiment": "learner pairs other than naive Bayes and C4.5",
         "folds": _fold_count(sizes["pairs"], sizes["pair_runs"], n_other)},
    ])


def sweep(*, seed=0, alpha=0.05, scale="paper", learner_pairs=SWEEP_LEARNER_PAIRS):
    """The sorted-runs sweep of Bouckaert (2004), Section 4, with the three tests.

    Type I error is measured where the learners cannot differ: source 1 for the
    level and the number of runs, the independent binary source ``"null"`` for
    the class probability, the cardinality and the learner pairs. The level sweep
    reuses the shared 10 x 10 cv experiment of Table 1; the run sweep tests the
    first ``r`` of ``max_runs`` runs, so every ``r`` sees the same data sets.

    Parameters
    ----------
    seed : int
        Root seed of every experiment.
    alpha : float
        Significance level for every factor but the level itself.
    scale : {"smoke", "quick", "paper"}
        Sizes of ``SWEEP_SIZES``; "paper" reads the committed results.
    learner_pairs : sequence of (str, str)
        Runner names of the pairs of the learner factor.

    Returns
    -------
    Sweep
        ``by_factor`` (one row per setting, data source and test), ``tables``
        (Type I error and minimum normalized replicability per factor),
        ``frame`` (the page's ``section4_sweep.csv``), ``excess`` (largest excess over the level
        per factor and test, beside the paper's bound) and ``cost`` (folds
        evaluated).
    """
    check_choice(scale, "scale", tuple(SWEEP_SIZES))
    sizes = SWEEP_SIZES[scale]
    published = read_published("bouckaert2004", "section4_sweep")
    grid = {factor: group["setting"].tolist() for factor, group in published.groupby("factor", sort=False)}
    differences = partial(_differences, seed=seed, scale=scale)
    by, runs_per_dataset = _by_factor(differences, grid, sizes, alpha, learner_pairs)
    null_frames = {"alpha": by["alpha"][by["alpha"]["data_source"] == 1],
                   "runs": by["runs"][by["runs"]["data_source"] == 1], "class_probability": by["class_probability"],
                   "n_classes": by["n_classes"], "learner": by["learner"]}
    frame = _frame(null_frames, alpha)
    frame["source"] = f"computed by replicability (notebook bouckaert2004/03_sweep, scale={scale}, seed={seed})"
    excess = frame.pivot_table(index="factor", columns="test", values="type1_excess_pct", aggfunc="max", sort=False)
    excess = excess[list(SWEEP_TESTS)].rename(columns=_LABEL)
    bound = published.groupby("factor", sort=False)["type1_excess_pct"].max()
    excess.insert(0, "published bound", bound.reindex(excess.index).to_numpy())
    n_datasets = {"alpha": sizes["main"]["n_datasets"], "runs": sizes["runs"]["n_datasets"],
                  "class_probability": sizes["main"]["n_datasets"], "n_classes": sizes["main"]["n_datasets"],
                  "learner": sizes["pairs"]["n_datasets"]}
    return Sweep({**null_frames, "runs_all": by["runs"], "alpha_all": by["alpha"]}, _tables(by, grid), frame, excess,
                 _cost(sizes, grid, learner_pairs), n_datasets, float(alpha), runs_per_dataset)


def _mean_se(halfwidth_pct, n):
    """Standard error of a mean over ``n`` data sets from its 95% t half-width."""
    return np.asarray(halfwidth_pct, dtype=float) / stats.t.ppf(0.975, n - 1)


def sweep_claims(res):
    """The three claims of Bouckaert (2004), Section 4, on the sweep, held to :mod:`~replicability.report.claims`.

    * Type I error at most the level plus one point, per factor: ``at_most`` with
      ``rate_se(level + 1%, n)`` over the ``n`` data sets of the factor (the
      randomizations of a data set are not independent). The learner pairs other
      than naive Bayes and C4.5 use the smaller ``n`` of their size when it differs.
    * Replicability rises with the number of runs: ``greater`` on every step of
      every source-test series, with the standard error of the mean step over the
      data sets of the run sweep (paired: every number of runs sees the same data
      sets).
    * Replicability rises as the class probability falls: ``greater`` on every step
      of every test's series on null data.

    Returns
    -------
    tuple of (Claims, dict)
    """
    c = Claims("bouckaert2004", "03_sweep")
    src = "Section 4, list of further experiments with sorted runs"
    frame = res.frame
    for factor in _FACTORS:
        part = frame[frame["factor"] == factor]
        level = part["type1_error_pct"] - part["type1_excess_pct"]
        n = min(res.n_datasets[factor], res.n_datasets["alpha"])
        c.at_most(f"type1_{factor}", f"Type I error did not exceed the significance level by more than 1% "
                  f"(factor: {factor.replace('_', ' ')}; all three tests)", src,
                  value=part["type1_error_pct"].to_numpy(), bound=(level + 1.0).to_numpy(),
                  se=100 * rate_se(np.clip((level + 1.0).to_numpy() / 100, 0, 1), n), unit="%", digits=2)
    runs = res.by_factor["runs_all"].sort_values(["data_source", "test", "setting"])
    lo, hi, se = [], [], []
    for (source, test), part in runs.groupby(["data_source", "test"]):
        v, settings = part["norm_r2_pct"].to_numpy(), part["setting"].to_numpy()
        lo += list(v[:-1])
        hi += list(v[1:])
        for a, b in zip(settings[:-1], settings[1:]):  # paired over the same data sets
            step = 100 * (res.runs_per_dataset[source, test, b] - res.runs_per_dataset[source, test, a])
            se.append(float(np.std(step, ddof=1) / np.sqrt(step.size)))
    c.greater("runs_rise", "Increasing the number of runs consistently increased replicability", src,
              larger=hi, smaller=lo, se=se, unit="points", digits=2)
    prob = res.by_factor["class_probability"]
    lo, hi, se = [], [], []
    for _, part in prob.groupby("test"):
        part = part.sort_values("setting", key=lambda s: s.astype(float))
        v = part["norm_r2_pct"].to_numpy()
        s = _mean_se(part["norm_r2_hw_pct"].to_numpy(), res.n_datasets["class_probability"])
        hi += list(v[:-1])  # the smaller class probability should have the higher replicability
        lo += list(v[1:])
        se += list(np.hypot(s[:-1], s[1:]))
    c.greater("prob_falls", "Decreasing the class probability increased replicability", src,
              larger=hi, smaller=lo, se=se, unit="points", digits=2)
    steps = [bool(x) for x in np.asarray(hi) > np.asarray(lo)]
    strict = [bool(np.all(np.diff(p.sort_values("setting")["norm_r2_pct"].to_numpy()) > 0))
              for _, p in runs.groupby(["data_source", "test"])]
    values = {**c.verdicts(), "type1_max_excess": round(float(frame["type1_excess_pct"].max()), 2),
              "runs_rise_strict": sum(strict), "runs_rise_cases": len(strict),
              "prob_steps_up": sum(steps), "prob_steps": len(steps),
              "summary": comparison_summary([], [], c) + " (the paper prints no numbers for the sweep)"}
    return c, plain(values)


def _runs_figure(res):
    """Normalized replicability per source against the number of runs, one panel per test (95% intervals)."""
    import matplotlib.pyplot as plt

    by_runs = res.by_factor["runs_all"]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), sharey=True, layout="constrained")
    for ax, test in zip(axes, SWEEP_TESTS):
        for i, colour in zip([1, 2, 3, 4], ["#7f7f7f", "#1b9e77", "#d95f02", "#7570b3"]):
            part = by_runs[(by_runs["test"] == test) & (by_runs["data_source"] == i)]
            ax.errorbar(part["setting"], part["norm_r2_pct"], yerr=part["norm_r2_hw_pct"], fmt="o-", ms=3,
                        color=colour, label=f"source {i}")
        ax.set_title(_LABEL[test])
        ax.set_xlabel("runs")
    axes[0].set_ylabel("normalized replicability (%)")
    axes[0].legend(fontsize=8)
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def _class_probability_figure(res):
    """Normalized replicability on null data against the class probability, per test (95% intervals)."""
    import matplotlib.pyplot as plt

    by_prob = res.by_factor["class_probability"]
    fig, ax = plt.subplots(figsize=(5, 3.4), layout="constrained")
    for test, colour in zip(SWEEP_TESTS, ["#1f77b4", "#ff7f0e", "#2ca02c"]):
        part = by_prob[by_prob["test"] == test]
        ax.errorbar(part["setting"].astype(float), part["norm_r2_pct"], yerr=part["norm_r2_hw_pct"], fmt="o-",
                    color=colour, label=_LABEL[test])
    ax.set_xlabel("class probability $p$")
    ax.set_ylabel("normalized replicability (%)")
    ax.legend(fontsize=8)
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


def sweep_page(*, seed=0, alpha=0.05, scale="paper", learner_pairs=SWEEP_LEARNER_PAIRS):
    """The page of notebook ``bouckaert2004/03_sweep``: the sorted-runs sweep and its three claims.

    Parameters are those of :func:`sweep` (a learner pair may be any two-item sequence).

    Returns
    -------
    Page
        The claims of :func:`sweep_claims` and the values the text quotes; tables
        ``alpha``, ``runs``, ``class_probability``, ``n_classes``, ``learner`` (Type I
        error and minimum normalized replicability per setting), ``excess`` and
        ``cost``; figures ``runs`` and ``class_probability``; the reproduced table
        ``section4_sweep``.
    """
    res = sweep(seed=seed, alpha=alpha, scale=scale, learner_pairs=[tuple(p) for p in learner_pairs])
    claims, values = sweep_claims(res)
    tables = {factor: Table(res.tables[factor], 2) for factor in _FACTORS}
    tables.update(excess=Table(res.excess, 2), cost=Table(res.cost))
    return Page(claims, values, tables=tables, reproduced={"section4_sweep": res.frame},
                figures={"runs": partial(_runs_figure, res),
                         "class_probability": partial(_class_probability_figure, res)})
