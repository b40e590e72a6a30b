"""Beyond the papers: Bayesian comparisons with a ROPE on the seed papers' UCI experiments.

The committed 10 x 10 cv results of naive Bayes, C4.5 (J48) and 1-NN (IB1) on the 27
UCI data sets, ten randomizations each
(:func:`~replicability.papers.shared.uci_runs.uci_scheme_results`), are
analysed with the Bayesian tests of Benavoli, Corani, Demšar & Zaffalon (2017):

* :func:`uci_correlated_comparisons`: per data set, pair and randomization, the
  Bayesian correlated t-test (Corani & Benavoli 2015) beside the corrected repeated
  cv t-test's decision (Bouckaert & Frank 2004);
* :func:`agreement_table`: how the two decisions cross, for one randomization;
* :func:`decision_stability`: how often each method's decision changes over the ten
  randomizations of the same experiment (Bouckaert's replicability);
* :func:`uci_signed_rank`: across the 27 data sets, the Bayesian signed-rank test
  per pair and randomization, with the frequentist Wilcoxon test beside it, and
  :func:`plot_simplex` to show its posterior draws in the probability triangle;
* :func:`bayesian_page`: everything the notebook ``beyond/01_bayesian_comparisons``
  shows, as a :class:`~replicability.report.page.Page`.

Accuracies are fractions, so a ROPE of one accuracy point is ``rope=0.01``.

.. rubric:: References

Benavoli, A., Corani, G., Demšar, J., & Zaffalon, M. (2017). Time for a change: a
tutorial for comparing multiple classifiers through Bayesian analysis. JMLR 18(77),
1-36. https://jmlr.org/papers/v18/16-305.html

Corani, G., & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated
algorithms on multiple data sets. Machine Learning 100, 285-304.
https://doi.org/10.1007/s10994-015-5486-z

Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of significance
tests for comparing learning algorithms. PAKDD 2004, LNAI 3056, 3-12.
https://doi.org/10.1007/978-3-540-24775-3_3
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ..._validation import check_alpha, check_positive_int, check_rope
from ...report.claims import Claims
from ...report.page import Page, Table
from ...stats.bayesian import BAYESIAN_DECISIONS, bayesian_correlated_ttest, bayesian_signed_rank_test
from ...stats.decisions import decide
from ...stats.measures import replicability_r2_from_counts
from ...stats.nonparametric import signed_rank_test
from ..shared.uci_outcomes import PAIR_LABELS, fold_accuracy_differences, uci_test_outcomes
from ..shared.uci_runs import uci_scheme_results

__all__ = [
    "COLUMN_LABELS",
    "FREQUENTIST_DECISIONS",
    "agreement_table",
    "bayesian_page",
    "decision_stability",
    "labelled",
    "plot_simplex",
    "signed_rank_spread",
    "uci_correlated_comparisons",
    "uci_signed_rank",
]

#: Readable names of the columns of :func:`uci_correlated_comparisons`, :func:`uci_signed_rank`,
#: :func:`signed_rank_spread` and :func:`~replicability.papers.beyond.cv_intervals.coverage_table`, for the pages.
COLUMN_LABELS = {
    "mean_difference": "mean difference A - B", "p_a_better": "P(A better)", "p_equivalent": "P(equivalent)",
    "p_b_better": "P(B better)", "bayesian": "Bayesian decision", "ttest": "corrected t-test decision",
    "wilcoxon_p": "Wilcoxon p", "wilcoxon": "Wilcoxon decision", "mc_se": "Monte Carlo s.e.",
    "target_below": "target below interval", "target_above": "target above interval", "mean_width": "mean width",
}


def labelled(frame):
    """``frame`` with readable column names: ``COLUMN_LABELS``, also as prefixes (``p_a_better min``).

    Examples
    --------
    >>> import pandas as pd
    >>> list(labelled(pd.DataFrame(columns=["p_a_better", "p_b_better max", "n"])).columns)
    ['P(A better)', 'P(B better) max', 'n']
    """
    def label(column):
        head, _, tail = str(column).partition(" ")
        return " ".join(p for p in (COLUMN_LABELS.get(head, head), tail) if p)

    return frame.rename(columns=label)


#: Labels of the frequentist decisions (-1, 0, +1 of :func:`~replicability.stats.decisions.decide`).
FREQUENTIST_DECISIONS = {1: "A better", 0: "no difference", -1: "B better"}


def _check_threshold(threshold):
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.5 <= threshold < 1:
        raise ValueError(f"`threshold` must be a number in [0.5, 1); got {threshold!r}.")
    return float(threshold)


def _uci_results(results, scale="paper"):
    if results is None:
        return uci_scheme_results("cv", scale=scale)
    return results


def uci_correlated_comparisons(results=None, *, rope=0.01, alpha=0.05, threshold=0.95):
    """Bayesian correlated t-test and corrected repeated cv t-test per data set, pair and randomization.

    Both use all ``r k`` = 100 accuracy differences A - B of one randomization
    and the same ratio ``n_test / n_train`` (total test over total training
    cases of its splits, Weka's corrected tester): the Bayesian posterior is
    Student t(99) with the corrected t-test's estimate and standard error
    (:func:`~replicability.stats.bayesian.bayesian_correlated_ttest`).

    Parameters
    ----------
    results : xarray.Dataset, optional
        From :func:`~replicability.papers.shared.uci_runs.uci_scheme_results`
        with scheme ``"cv"``; default the committed paper-scale result.
    rope : float, default 0.01
        ROPE on the accuracy scale (0.01 = one accuracy point).
    alpha : float, default 0.05
        Level of the two-sided corrected t-test.
    threshold : float, default 0.95
        Posterior probability above which the Bayesian test decides.

    Returns
    -------
    pandas.DataFrame
        One row per ``(dataset, pair, repeat)`` (index), columns ``p_a_better``,
        ``p_equivalent``, ``p_b_better``, ``bayesian`` (decision label),
        ``ttest`` (the corrected t-test's label: "A better", "no difference",
        "B better") and ``mean_difference``. Pairs are ``"A-B"`` as in the results
        (``"NaiveBayes-J48"``: A is naive Bayes).

    Examples
    --------
    >>> from replicability.papers.beyond import uci_correlated_comparisons
    >>> frame = uci_correlated_comparisons()
    >>> frame.shape, frame.index.names
    ((810, 6), FrozenList(['dataset', 'pair', 'repeat']))
    """
    rope, alpha, threshold = check_rope(rope), check_alpha(alpha), _check_threshold(threshold)
    results = _uci_results(results)
    d = fold_accuracy_differences(results)  # (dataset, pair, repeat, run, fold)
    totals = [results[name].sum(("run", "fold")).transpose("dataset", "repeat").values[:, None, :]
              for name in ("n_train", "n_test")]
    bayes = bayesian_correlated_ttest(d.values, rope=rope, n_train=totals[0], n_test=totals[1])
    ttest = uci_test_outcomes(results, "corrected_repeated_cv", alpha=alpha).transpose("dataset", "pair", "repeat")
    index = pd.MultiIndex.from_product([d["dataset"].values, d["pair"].values, d["repeat"].values],
                                       names=["dataset", "pair", "repeat"])
    return pd.DataFrame({
        "p_a_better": np.ravel(bayes.p_a_better), "p_equivalent": np.ravel(bayes.p_equivalent),
        "p_b_better": np.ravel(bayes.p_b_better), "bayesian": np.ravel(bayes.decision(threshold)),
        "ttest": [FREQUENTIST_DECISIONS[int(v)] for v in ttest.values.ravel()],
        "mean_difference": np.ravel(bayes.estimate),
    }, index=index)


def agreement_table(comparisons, *, repeat=0):
    """Counts of (Bayesian decision, corrected t-test decision) over data sets and pairs of one randomization.

    Parameters
    ----------
    comparisons : pandas.DataFrame
        From :func:`uci_correlated_comparisons`.
    repeat : int, default 0
        The randomization (0 is the first, the headline).

    Returns
    -------
    pandas.DataFrame
        Rows: the Bayesian decisions (``BAYESIAN_DECISIONS`` order), columns: the
        t-test's ("A better", "no difference", "B better"), with row and column
        totals ("all").

    Examples
    --------
    >>> from replicability.papers.beyond import agreement_table, uci_correlated_comparisons
    >>> table = agreement_table(uci_correlated_comparisons())
    >>> int(table.loc["all", "all"])
    81
    """
    one = _one_repeat(comparisons, repeat)
    table = pd.crosstab(pd.Categorical(one["bayesian"], categories=BAYESIAN_DECISIONS),
                        pd.Categorical(one["ttest"], categories=list(FREQUENTIST_DECISIONS.values())),
                        rownames=["Bayesian correlated t"], colnames=["corrected t-test"], dropna=False,
                        margins=True, margins_name="all")
    return table


def _one_repeat(comparisons, repeat):
    if not isinstance(comparisons, pd.DataFrame) or "repeat" not in comparisons.index.names:
        raise TypeError(f"`comparisons` must be the DataFrame of uci_correlated_comparisons; got "
                        f"{type(comparisons).__name__}.")
    repeats = comparisons.index.get_level_values("repeat")
    if repeat not in set(repeats):
        raise ValueError(f"`repeat` must be one of the randomizations {sorted(set(repeats))}; got {repeat!r}.")
    return comparisons[repeats == repeat]


def decision_stability(comparisons):
    """How each method's decision varies over the randomizations, per data set and pair, and in sum.

    Parameters
    ----------
    comparisons : pandas.DataFrame
        From :func:`uci_correlated_comparisons` (several randomizations).

    Returns
    -------
    pandas.DataFrame
        One row per method (``"Bayesian correlated t"``, ``"corrected t-test"``):
        ``consistent`` (data set-pairs whose decision is the same in every
        randomization), ``changes`` (the others), ``mean R2`` (Bouckaert's replicability R̂2,
        the share of agreeing pairs of randomizations, averaged over data
        set-pairs) and ``n`` (data set-pairs).

    Examples
    --------
    >>> from replicability.papers.beyond import decision_stability, uci_correlated_comparisons
    >>> table = decision_stability(uci_correlated_comparisons())
    >>> table["n"].tolist()
    [81, 81]
    """
    rows = {}
    for method, column, labels in (("Bayesian correlated t", "bayesian", BAYESIAN_DECISIONS),
                                   ("corrected t-test", "ttest", tuple(FREQUENTIST_DECISIONS.values()))):
        counts = (comparisons[column].groupby(level=["dataset", "pair"]).value_counts()
                  .unstack(fill_value=0).reindex(columns=list(labels), fill_value=0))
        consistent = int((counts.max(axis=1) == counts.sum(axis=1)).sum())
        r2 = replicability_r2_from_counts(counts.to_numpy())
        rows[method] = {"consistent": consistent, "changes": len(counts) - consistent,
                        "mean R2": float(np.mean(r2)), "n": len(counts)}
    return pd.DataFrame(rows).T.astype({"consistent": int, "changes": int, "n": int})


def uci_signed_rank(results=None, *, rope=0.01, prior=0.5, n_draws=50000, threshold=0.95, alpha=0.05, rng=0):
    """Bayesian signed-rank test across the 27 data sets, per pair and randomization.

    The input of each test is, per data set, the mean accuracy difference A - B
    over the 100 splits of one randomization. All pairs and randomizations use
    the same Monte Carlo draws of the Dirichlet weights (``rng``). Beside it, the
    frequentist Wilcoxon signed-rank test (normal approximation, zeros removed;
    Demšar 2006's recommendation) on the same 27 differences.

    Parameters
    ----------
    results : xarray.Dataset, optional
        As in :func:`uci_correlated_comparisons`.
    rope : float, default 0.01
        ROPE on the accuracy scale.
    prior : float, default 0.5
        Strength of the Dirichlet process prior (pseudo-observation at 0).
    n_draws : int, default 50000
        Monte Carlo draws.
    threshold : float, default 0.95
        Posterior probability above which the Bayesian test decides.
    alpha : float, default 0.05
        Level of the Wilcoxon test's decision.
    rng : numpy.random.Generator, int or None, default 0
        Seed of the draws.

    Returns
    -------
    frame : pandas.DataFrame
        One row per ``(pair, repeat)``: ``p_a_better``, ``p_equivalent``,
        ``p_b_better``, ``bayesian`` (decision), ``wilcoxon_p``, ``wilcoxon``
        (decision label), ``mean_difference`` (over data sets).
    samples : xarray.DataArray
        Posterior draws ``(pair, repeat, sample, region)`` with ``region`` in
        ``("A better", "equivalent", "B better")``, for the simplex plot.

    Examples
    --------
    >>> from replicability.papers.beyond import uci_signed_rank
    >>> frame, samples = uci_signed_rank(n_draws=2000)
    >>> frame.shape, dict(samples.sizes)
    ((30, 7), {'pair': 3, 'repeat': 10, 'sample': 2000, 'region': 3})
    """
    rope, alpha, threshold = check_rope(rope), check_alpha(alpha), _check_threshold(threshold)
    n_draws = check_positive_int(n_draws, "n_draws")
    results = _uci_results(results)
    means = fold_accuracy_differences(results).mean(("run", "fold")).transpose("pair", "repeat", "dataset")
    res = bayesian_signed_rank_test(means.values, rope=rope, prior=prior, n_draws=n_draws, rng=rng)
    wilcoxon = signed_rank_test(means.values)
    index = pd.MultiIndex.from_product([means["pair"].values, means["repeat"].values], names=["pair", "repeat"])
    frame = pd.DataFrame({
        "p_a_better": np.ravel(res.p_a_better), "p_equivalent": np.ravel(res.p_equivalent),
        "p_b_better": np.ravel(res.p_b_better), "bayesian": np.ravel(res.decision(threshold)),
        "wilcoxon_p": np.ravel(wilcoxon.pvalue),
        "wilcoxon": [FREQUENTIST_DECISIONS[int(v)] for v in np.ravel(decide(wilcoxon, alpha=alpha))],
        "mean_difference": np.ravel(means.mean("dataset").values),
    }, index=index)
    samples = xr.DataArray(res.samples, dims=("pair", "repeat", "sample", "region"),
                           coords={"pair": means["pair"].values, "repeat": means["repeat"].values,
                                   "region": list(BAYESIAN_DECISIONS[:3])})
    return frame, samples


def signed_rank_spread(frame):
    """Range of the signed-rank probabilities and the decisions over the randomizations, per pair.

    Parameters
    ----------
    frame : pandas.DataFrame
        The first value of :func:`uci_signed_rank`.

    Returns
    -------
    pandas.DataFrame
        One row per pair (in the order of ``frame``): the minimum and maximum of
        ``p_a_better``, ``p_equivalent``, ``p_b_better`` (columns ``"<name> min"``,
        ``"<name> max"``), ``largest range`` (of the three), and the counts of the
        Bayesian and the Wilcoxon decisions (``"undecided 10"``).

    Examples
    --------
    >>> from replicability.papers.beyond import signed_rank_spread, uci_signed_rank
    >>> spread = signed_rank_spread(uci_signed_rank(n_draws=1000)[0])
    >>> spread.shape
    (3, 9)
    """
    if not isinstance(frame, pd.DataFrame) or "pair" not in frame.index.names:
        raise TypeError(f"`frame` must be the DataFrame of uci_signed_rank; got {type(frame).__name__}.")
    groups = frame.groupby(level="pair", sort=False)
    columns = {}
    for name in ("p_a_better", "p_equivalent", "p_b_better"):
        columns[f"{name} min"] = groups[name].min()
        columns[f"{name} max"] = groups[name].max()
    out = pd.DataFrame(columns)
    out["largest range"] = pd.concat([out[f"{n} max"] - out[f"{n} min"]
                                      for n in ("p_a_better", "p_equivalent", "p_b_better")], axis=1).max(axis=1)
    for method in ("bayesian", "wilcoxon"):
        out[f"{method} decisions"] = groups[method].agg(
            lambda s: ", ".join(f"{label} {count}" for label, count in s.value_counts().items()))
    return out


def plot_simplex(samples, *, ax=None, names=("A", "B"), max_points=5000, title=None):
    """Draws of ``(theta_a, theta_rope, theta_b)`` in the probability triangle (Benavoli et al. 2017, Fig. 5).

    A draw is placed by its barycentric coordinates: the vertex "A better" at
    bottom left, "B better" at bottom right, "equivalent" at the top. The three
    segments from the centre to the edges' midpoints bound the regions in which
    one theta is the largest; the share of draws in each region is the
    probability the test reports.

    Parameters
    ----------
    samples : array_like, shape (n, 3)
        Posterior draws, columns in the order A better, equivalent, B better.
    ax : matplotlib.axes.Axes, optional
    names : tuple of str
        Names of learners A and B for the vertex labels.
    max_points : int, default 5000
        Plot the first ``max_points`` draws only.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    samples = np.asarray(samples, dtype=float)
    if samples.ndim != 2 or samples.shape[1] != 3:
        raise ValueError(f"`samples` must have shape (n, 3); got {samples.shape}.")
    max_points = check_positive_int(max_points, "max_points")
    if ax is None:
        _, ax = plt.subplots(figsize=(4, 3.8))
    height = np.sqrt(3) / 2

    def project(p):
        p = np.atleast_2d(p)
        return p[:, 2] + p[:, 1] / 2, p[:, 1] * height

    ax.plot([0, 1, 0.5, 0], [0, 0, height, 0], color="0.3", lw=1)
    centre = project([1 / 3, 1 / 3, 1 / 3])
    for mid in ([0.5, 0, 0.5], [0.5, 0.5, 0], [0, 0.5, 0.5]):
        edge = project(mid)
        ax.plot([centre[0][0], edge[0][0]], [centre[1][0], edge[1][0]], color="0.6", lw=0.8, ls="--")
    x, y = project(samples[:max_points])
    ax.scatter(x, y, s=2, alpha=0.15, color="C0", linewidths=0, rasterized=True)
    is_max = samples == samples.max(axis=1, keepdims=True)
    shares = (is_max / is_max.sum(axis=1, keepdims=True)).mean(axis=0)  # a tie splits its draw, as the test does
    ax.text(0, -0.05, f"{names[0]} better\n{shares[0]:.3f}", ha="center", va="top", fontsize="small")
    ax.text(1, -0.05, f"{names[1]} better\n{shares[2]:.3f}", ha="center", va="top", fontsize="small")
    ax.text(0.5, height + 0.03, f"equivalent {shares[1]:.3f}", ha="center", va="bottom", fontsize="small")
    ax.set(xlim=(-0.15, 1.15), ylim=(-0.22, height + 0.12), aspect="equal")
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize="medium")
    return ax


def _simplex_figure(draws, headline, rope):
    """The headline randomization's signed-rank posterior draws, one triangle per pair."""
    import matplotlib.pyplot as plt

    pairs = draws["pair"].values
    fig, axes = plt.subplots(1, len(pairs), figsize=(12, 3.9), constrained_layout=True, squeeze=False)
    for ax, pair in zip(axes[0], pairs):
        label = PAIR_LABELS.get(str(pair), str(pair))
        a, _, b = label.partition(" vs ")
        plot_simplex(draws.sel(pair=pair, repeat=headline).values, ax=ax, names=(a, b),
                     title=f"{label} (rope {rope:g})")
    return fig


def _agreement_values(agreement):
    """The counts of :func:`agreement_table` that the page's text quotes."""
    cell = agreement.loc
    return {
        "n_pairs": int(cell["all", "all"]),
        "same_direction": int(cell["A better", "A better"] + cell["B better", "B better"]),
        "both_a": int(cell["A better", "A better"]), "both_b": int(cell["B better", "B better"]),
        "undecided_nodiff": int(cell["undecided", "no difference"]),
        "equivalent_all": int(cell["equivalent", "all"]),
        "t_only": int(cell["undecided", "A better"] + cell["undecided", "B better"]),
        "bayes_only": int(cell["A better", "no difference"] + cell["B better", "no difference"]),
        "opposite": int(cell["A better", "B better"] + cell["B better", "A better"]),
    }


def _stability_values(stability):
    """Consistent and changed decisions and the mean R̂2 of both methods, as the text quotes them."""
    out = {}
    for key, method in (("bayes", "Bayesian correlated t"), ("t", "corrected t-test")):
        out[f"{key}_consistent"] = int(stability.loc[method, "consistent"])
        out[f"{key}_changes"] = int(stability.loc[method, "changes"])
        out[f"{key}_r2"] = round(float(stability.loc[method, "mean R2"]), 3)
    return out


def _signed_rank_values(headline_sr, spread, signed_rank):
    """The headline signed-rank probabilities per pair (``sr_NB_vs_C45_p_a_better``) and their spread."""
    out = {}
    for pair, row in headline_sr.iterrows():
        key = pair.replace(" ", "_").replace(".", "")
        for column in ("p_a_better", "p_equivalent", "p_b_better"):
            out[f"sr_{key}_{column}"] = round(float(row[column]), 3)
        out[f"sr_{key}_decision"] = row["bayesian"]
    out["sr_max_range"] = round(float(spread["largest range"].max()), 3)
    out["sr_decided_all"] = int(sum(d != "undecided" for d in signed_rank["bayesian"]))
    out["sr_n_tests"] = len(signed_rank)
    return out


def _undecided_top(comparisons):
    """The largest posterior probability of an undecided comparison, rounded as shown (0 if none is undecided)."""
    undecided = comparisons[comparisons["bayesian"] == "undecided"]
    top = undecided[["p_a_better", "p_equivalent", "p_b_better"]].to_numpy().max(initial=0.0)
    return round(float(top), 3)


def bayesian_page(results=None, *, scale="paper", rope=0.01, alpha=0.05, threshold=0.95, prior=0.5,
                  n_draws=50000, rng=0, headline=0):
    """Everything the notebook ``beyond/01_bayesian_comparisons`` shows, as a page.

    Per data set and pair, the Bayesian correlated t-test beside the corrected
    repeated cv t-test (:func:`uci_correlated_comparisons`), how their decisions
    cross in the headline randomization (:func:`agreement_table`) and how they vary
    over the randomizations (:func:`decision_stability`); across the data sets, the
    Bayesian signed-rank test beside Wilcoxon's (:func:`uci_signed_rank`), its
    posterior draws in the probability triangle and its spread over the
    randomizations (:func:`signed_rank_spread`). The page checks no published
    claim (its claims are empty) and writes nothing.

    Parameters
    ----------
    results : xarray.Dataset, optional
        :func:`~replicability.papers.shared.uci_runs.uci_scheme_results`
        of scheme ``"cv"``; default that of ``scale``.
    scale : {"paper", "quick", "smoke"}, default "paper"
        Scale of the default ``results`` ("paper": the committed 27 data sets x 10
        randomizations).
    rope : float, default 0.01
        ROPE on the accuracy scale (0.01 = one accuracy point).
    alpha : float, default 0.05
        Level of the corrected t-test and of the Wilcoxon test.
    threshold : float, default 0.95
        Posterior probability above which a Bayesian test decides.
    prior : float, default 0.5
        Strength of the signed-rank test's Dirichlet process prior.
    n_draws : int, default 50000
        Monte Carlo draws of the signed-rank test.
    rng : int or numpy.random.Generator, default 0
        Seed of the draws (an int is shown on the page as ``seed_shown``).
    headline : int, default 0
        The randomization the tables of one experiment show.

    Returns
    -------
    Page
        Tables ``sizes`` (of the results), ``comparisons`` (headline, per data set and pair),
        ``agreement``, ``stability``, ``signed_rank`` (headline, per pair) and ``spread``; figure
        ``simplex``; the values the text quotes (``n_pairs``, ``same_direction``,
        ``bayes_consistent``, ``sr_NB_vs_C45_p_b_better``, ``sr_max_range``, ...);
        ``data``: ``comparisons``, ``signed_rank``, ``draws`` and ``sizes`` (of the
        results).

    Examples
    --------
    >>> from replicability.papers.beyond import bayesian_page
    >>> page = bayesian_page(n_draws=2000)  # the committed paper-scale results
    >>> page.values["n_pairs"], page.values["bayes_consistent"], page.values["t_consistent"]
    (81, 71, 70)
    """
    results = _uci_results(results, scale)
    repeats = [int(r) for r in results["repeat"].values]
    if isinstance(headline, bool) or not isinstance(headline, (int, np.integer)) or headline not in repeats:
        raise ValueError(f"`headline` must be one of the randomizations {repeats}; got {headline!r}.")
    comparisons = uci_correlated_comparisons(results, rope=rope, alpha=alpha, threshold=threshold)
    signed_rank, draws = uci_signed_rank(results, rope=rope, prior=prior, n_draws=n_draws,
                                         threshold=threshold, alpha=alpha, rng=rng)
    agreement = agreement_table(comparisons, repeat=headline)
    stability = decision_stability(comparisons)
    first = comparisons.xs(headline, level="repeat").rename(index=PAIR_LABELS, level="pair")
    headline_sr = signed_rank.xs(headline, level="repeat").rename(index=PAIR_LABELS)
    spread = signed_rank_spread(signed_rank).rename(index=PAIR_LABELS)

    page = Page(Claims("beyond", "01_bayesian_comparisons"))
    sizes = dict(results["correct"].sizes)
    page.tables.update({
        "sizes": Table(pd.DataFrame(sizes, index=["size"]).rename_axis(columns="dimension")),
        "comparisons": Table(labelled(first[["mean_difference", "p_a_better", "p_equivalent", "p_b_better",
                                             "bayesian", "ttest"]]), 3),
        "agreement": Table(agreement), "stability": Table(stability, 3),
        "signed_rank": Table(labelled(headline_sr), 3), "spread": Table(labelled(spread).T, 3),
    })
    page.figures["simplex"] = lambda: _simplex_figure(draws, headline, rope)
    page.values.update({**_agreement_values(agreement), "rope_shown": rope, **_stability_values(stability),
                        "prior_shown": prior, "n_draws_shown": n_draws,
                        "seed_shown": rng if isinstance(rng, (int, np.integer)) else "a Generator",
                        **_signed_rank_values(headline_sr, spread, signed_rank),
                        "undecided_top": _undecided_top(first)})
    page.data.update({"comparisons": comparisons, "signed_rank": signed_rank, "draws": draws,
                      "sizes": sizes})
    return page
