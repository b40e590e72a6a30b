"""Many learners on many data sets (Demšar 2006): his worked example, then the seed papers' UCI results.

:func:`many_learners_page` computes everything the notebook ``beyond/02_many_learners``
shows: Demšar's Section 3.2.2 worked example reproduced from the ranks of his Table 6
(:func:`demsar_worked_example`, the page's reproduced ``demsar2006/worked_example``),
then naive Bayes, J48 and IB1 on the 27 UCI data sets ranked by their mean accuracy
over the 100 folds of each randomization of 10 x 10 cv
(:func:`~replicability.comparison.many.compare_many_scores`: Friedman with Iman &
Davenport's F, Nemenyi's critical difference, a control learner against the others
with Holm), over the ten randomizations, and beside the seed papers' per-data-set
corrected t-tests (:func:`per_pair_tests`).

.. rubric:: References

Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
JMLR 7, 1-30. https://jmlr.org/papers/v7/demsar06a.html

Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of significance
tests for comparing learning algorithms. PAKDD 2004, LNAI 3056, 3-12.
https://doi.org/10.1007/978-3-540-24775-3_3
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import check_alpha, check_choice
from ...comparison.many import compare_many_scores
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table
from ...report.tables import read_published
from ...stats.hierarchical import hierarchical_test
from ...stats.nonparametric import signed_rank_test
from ...stats.ranks import critical_difference, critical_value, rank_scores
from ..shared.uci_outcomes import PAIR_LABELS, uci_test_outcomes
from .bayesian import _uci_results

__all__ = ["DEMSAR_LEARNERS", "demsar_worked_example", "many_learners_page", "per_pair_tests", "uci_accuracies"]

#: Share of the 81 cells of randomization 0 removed at random to show the incomplete case, and its seed.
_MISSING_FRACTION, _MISSING_SEED = 0.15, 38
#: ROPE of the hierarchical test on the accuracy scale (one point), as on the Bayesian page, and the R-hat
#: below which its chains count as converged.
_ROPE, _RHAT_LIMIT = 0.01, 1.05
#: The four variants of C4.5 of Demšar's Table 6, in his order (the first is the control).
DEMSAR_LEARNERS = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
_PAGE = "02_many_learners"
_KEYS = ["quantity", "learner", "alpha"]


def _demsar_fits():
    """Demšar's example through ``compare_many_scores`` on the printed ranks, at alpha 0.10 and 0.05."""
    table6 = read_published("demsar2006", "table6")
    learners = list(DEMSAR_LEARNERS)
    ranks = table6.pivot(index="dataset", columns="learner", values="rank")[learners]
    # Demšar's formula has no tie correction (his ranks tie), and his groups are Nemenyi's.
    fixed = {"better": "lower", "test": "mean_ranks", "control": learners[0], "posthoc": "nemenyi",
             "tie_correction": False}
    at10 = compare_many_scores(ranks, alpha=0.10, **fixed)
    at05 = compare_many_scores(ranks, alpha=0.05, **fixed)
    return at10, at05


def _demsar_errata_values(at10):
    """The numbers of the errata page's Demšar (2006) items, computed from his printed Table 6 and by the package."""
    table6 = read_published("demsar2006", "table6")
    learners = list(DEMSAR_LEARNERS)
    aucs = table6.pivot(index="dataset", columns="learner", values="auc")[learners]
    on_aucs = compare_many_scores(aucs, alpha=0.10, better="higher", test="mean_ranks", control=learners[0],
                                  posthoc="nemenyi", tie_correction=False)  # the printed AUCs ranked, ties shared
    holm = at10.control_results
    holm_p = {learners[j]: float(holm.pvalue[0, i]) for i, j in enumerate(holm.learners)}
    k, n = len(learners), len(aucs)
    return {"demsar_chi2_exact": round(float(at10.friedman.statistic[0]), 4),
            "demsar_chi2_aucs": round(float(on_aucs.friedman.statistic[0]), 2),
            "demsar_bd_cd": round(critical_difference(k, n, alpha=0.05, test="bonferroni-dunn"), 3),
            "demsar_holm_p_cf": round(holm_p["C4.5+cf"], 3),
            "demsar_bd_q9": round(critical_value(9, alpha=0.05, test="bonferroni-dunn"), 3),
            "demsar_q3": round(critical_value(3, alpha=0.05), 4), "demsar_q7": round(critical_value(7, alpha=0.05), 4)}


def _worked_example(at10, at05):
    learners = list(DEMSAR_LEARNERS)
    holm = at10.control_results
    rows = [("average_rank", name, None, r) for name, r in zip(learners, at10.nemenyi.average_ranks[0])]
    rows += [("friedman_chi2", None, None, at10.friedman.statistic[0]),
             ("iman_davenport_f", None, None, at10.friedman.iman_davenport[0]),
             ("nemenyi_cd", None, 0.05, at05.critical_difference), ("nemenyi_cd", None, 0.10, at10.critical_difference)]
    rows += [("control_z", learners[j], None, holm.statistic[0, i]) for i, j in enumerate(holm.learners)]
    rows += [("control_p", learners[j], None, holm.pvalue[0, i]) for i, j in enumerate(holm.learners)]
    reproduced = pd.DataFrame(rows, columns=[*_KEYS, "value"]).astype({"value": float})
    reproduced["value"] = reproduced["value"].round(4)
    return reproduced


def demsar_worked_example():
    """Demšar's (2006) Section 3.2.2 worked example, computed from the ranks of his Table 6.

    Average ranks, Friedman's chi2_F, Iman & Davenport's F_F, the Nemenyi critical
    difference at alpha 0.05 and 0.10, and the z and p of each variant against the
    control C4.5 (mean-ranks test), rounded to 4 decimals as written to
    ``reproduced/demsar2006/worked_example.csv``.

    Returns
    -------
    pandas.DataFrame
        Columns ``quantity``, ``learner``, ``alpha``, ``value``, rows as in
        ``data/published/demsar2006/worked_example.csv`` (of its quantities).

    Examples
    --------
    >>> from replicability.papers.beyond import demsar_worked_example
    >>> example = demsar_worked_example().set_index("quantity")
    >>> example.loc["friedman_chi2", "value"], example.loc["iman_davenport_f", "value"]
    (np.float64(9.2786), np.float64(3.6863))
    """
    return _worked_example(*_demsar_fits())


def _published_beside_ours(printed, reproduced):
    """Printed and reproduced values of the worked example, matched on quantity, learner and alpha."""
    blank = {"learner": "", "alpha": 0.0}
    both = printed.fillna(blank).merge(reproduced.fillna(blank), on=_KEYS, suffixes=(" published", " reproduced"))
    both["difference"] = (both["value reproduced"] - both["value published"]).round(4)
    return both.drop(columns="source").replace({"alpha": {0.0: ""}})


def uci_accuracies(results=None, *, scale="paper"):
    """Mean accuracy over the folds of each learner on each UCI data set, per randomization: a benchmark table.

    Parameters
    ----------
    results : xarray.Dataset, optional
        :func:`~replicability.papers.shared.uci_runs.uci_scheme_results` of scheme
        ``"cv"``; default the committed results of ``scale``.
    scale : {"paper", "quick", "smoke"}, default "paper"

    Returns
    -------
    xarray.DataArray
        Dimensions (repeat, dataset, learner), rounded to 12 decimals so that accuracies
        equal in exact arithmetic tie whatever the summation order.

    Examples
    --------
    >>> from replicability.papers.beyond.many_learners import uci_accuracies
    >>> uci_accuracies().sizes
    Frozen({'repeat': 10, 'dataset': 27, 'learner': 3})
    """
    results = _uci_results(results, scale)
    accuracy = (results["correct"] / results["n_test"]).mean(("run", "fold")).transpose("repeat", "dataset", "learner")
    return accuracy.round(12)


def _accuracy_scores(results):
    """:func:`uci_accuracies` as an array, and the learner and data set names."""
    accuracy = uci_accuracies(results)
    return accuracy.values, [str(n) for n in accuracy["learner"].values], [str(n) for n in accuracy["dataset"].values]


def per_pair_tests(results=None, *, alpha=0.05, repeat=0):
    """Per pair: the seed papers' per-data-set decisions beside the signed-rank test over the data sets.

    For each pair A-B of the UCI results: on how many data sets the corrected
    repeated cv t-test (Bouckaert & Frank 2004) finds A better, B better or no
    difference in randomization ``repeat``, on how many all randomizations agree
    with it, and Wilcoxon's signed-rank test (normal approximation) on the 27 mean
    accuracies of A and B in that randomization.

    Parameters
    ----------
    results : xarray.Dataset, optional
        :func:`~replicability.papers.shared.uci_runs.uci_scheme_results`
        of scheme ``"cv"``; default the committed paper-scale result.
    alpha : float, default 0.05
        Level of the corrected t-test.
    repeat : int, default 0
        The randomization.

    Returns
    -------
    pandas.DataFrame
        One row per pair (``"NB vs C4.5"``, ...): ``A better (data sets)``,
        ``B better (data sets)``, ``no difference (data sets)``, ``consistent over
        randomizations``, ``signed rank over data sets: Z`` and ``p`` (rounded to 3
        decimals).

    Examples
    --------
    >>> from replicability.papers.beyond import per_pair_tests
    >>> per_pair_tests().loc["NB vs C4.5", ["A better (data sets)", "B better (data sets)"]].tolist()
    [5, 9]
    """
    alpha = check_alpha(alpha)
    results = _uci_results(results)
    scores, learners, _ = _accuracy_scores(results)
    if not isinstance(repeat, (int, np.integer)) or not 0 <= repeat < scores.shape[0]:
        raise ValueError(f"`repeat` must be an integer in [0, {scores.shape[0]}); got {repeat!r}.")
    outcomes = uci_test_outcomes(results, "corrected_repeated_cv", alpha=alpha)
    rows = []
    for pair, label in PAIR_LABELS.items():
        first, second = pair.split("-")
        o = outcomes.sel(pair=pair)
        chosen = o.isel(repeat=repeat)
        over_datasets = signed_rank_test(scores[repeat][:, learners.index(first)],
                                         scores[repeat][:, learners.index(second)])
        rows.append({"pair": label, "A better (data sets)": int((chosen == 1).sum()),
                     "B better (data sets)": int((chosen == -1).sum()),
                     "no difference (data sets)": int((chosen == 0).sum()),
                     "consistent over randomizations": int((o == chosen).all("repeat").sum()),
                     "signed rank over data sets: Z": round(float(over_datasets.statistic), 3),
                     "p": round(float(over_datasets.pvalue), 3)})
    return pd.DataFrame(rows).set_index("pair")


def _demsar_claims(printed, at10, at05):
    """The worked example's printed statistics, equal as printed (half a unit of the second decimal)."""
    claims = Claims("beyond", _PAGE)
    cells = printed.fillna({"alpha": 0.0}).set_index(["quantity", "alpha"])["value"]
    published = [float(cells[key]) for key in [("friedman_chi2", 0.0), ("iman_davenport_f", 0.0),
                                               ("nemenyi_cd", 0.05), ("nemenyi_cd", 0.1)]]
    ours = [at10.friedman.statistic[0], at10.friedman.iman_davenport[0], at05.critical_difference,
            at10.critical_difference]
    claims.close_to("demsar_statistics", "chi2_F = 9.28, F_F = 3.69, CD = 1.25 at alpha = 0.05 and 1.12 at "
                    "alpha = 0.10 (Demšar's worked example on the four variants of C4.5)", "Demšar (2006), Section "
                    "3.2.2", value=ours, published=published, se=0.0, rounding=0.005, digits=4)
    return claims


def _uci_values(many, per_pair):
    """The numbers and words the page's text quotes about the UCI analysis."""
    f, control, ranks = many.friedman, many.control_results, many.average_ranks()
    over, agree = many.replicability(), many.agreement()
    learners = list(many.learners)
    spread = over[[f"rank {name}" for name in learners]].agg(["min", "max"]).T.round(3)
    nb_c45 = per_pair.loc["NB vs C4.5"]
    return {
        "n_datasets": len(many.datasets), "chi2": round(float(f.statistic[0]), 3),
        "chi2_p": round(float(f.pvalue[0]), 3), "ff": round(float(f.iman_davenport[0]), 3),
        "ff_df2": int(f.iman_davenport_df[1]), "ff_p": round(float(f.iman_davenport_pvalue[0]), 3),
        "decision": "rejects" if many.rejects(0) else "does not reject", "cd": round(many.critical_difference, 3),
        "ranks": ", ".join(f"{name} {r:.3f}" for name, r in ranks.items()),
        "rank_span": round(float(ranks.max() - ranks.min()), 3),
        "cliques": "; ".join("{" + ", ".join(c) + "}" for c in many.cliques()), "control": many.control,
        "holm_min": round(float(control.adjusted_pvalue[0].min()), 3),
        "wins": ", ".join(f"{name} {int(n)}" for name, n in many.to_frame()["best on"].items()),
        "n_repeats": many.n_repeats, "agree_decision": agree["decision"], "agree_cliques": agree["cliques"],
        "agree_order": agree["order"], "agree_best": agree["best"], "n_rejects": int(over["rejects"].sum()),
        "p_min": round(float(over["pvalue"].min()), 3), "p_max": round(float(over["pvalue"].max()), 3),
        "rank_range": "; ".join(f"{name} {spread.loc[f'rank {name}', 'min']:.3f} to "
                                f"{spread.loc[f'rank {name}', 'max']:.3f}" for name in learners),
        "nbc45_a": int(nb_c45["A better (data sets)"]), "nbc45_b": int(nb_c45["B better (data sets)"]),
        "nbc45_p": float(nb_c45["p"]),
        "n_significant": int(per_pair[["A better (data sets)", "B better (data sets)"]].to_numpy().sum()),
        "n_nemenyi": int(np.triu(many.nemenyi.significant[0]).sum()),
    }, over, spread


def many_learners_page(results=None, *, scale="paper", alpha=0.05, test="signed_rank"):
    """Everything the notebook ``beyond/02_many_learners`` shows, as a page.

    Demšar's worked example (:func:`demsar_worked_example`) beside his printed
    values, with the claim that chi2_F, F_F and the two CDs are reproduced as
    printed; then the three learners on the UCI data sets: the accuracies and ranks
    of the first randomization, the Friedman / Nemenyi / Holm analysis and its CD
    diagram, the same analysis over every randomization, and :func:`per_pair_tests`.
    :meth:`~replicability.report.page.Page.write` writes
    ``reproduced/demsar2006/worked_example.csv`` (the reproduced table
    ``demsar2006/worked_example``: Demšar's, not this page's, folder) and the page's
    claims (``reproduced/claims/beyond/02_many_learners.csv``).

    Beyond Nemenyi, on randomization 0: every pair by the signed-rank test with Holm
    (the multi-comparison matrix and its CD diagram), the table with 15% of its cells
    removed at random (Skillings-Mack), and the hierarchical Bayesian test on the
    folds of each pair (:func:`~replicability.stats.hierarchical.hierarchical_test`,
    ROPE of one accuracy point).

    Parameters
    ----------
    results : xarray.Dataset, optional
        :func:`~replicability.papers.shared.uci_runs.uci_scheme_results`
        of scheme ``"cv"``; default that of ``scale``.
    scale : {"paper", "quick", "smoke"}, default "paper"
        Scale of the default ``results``.
    alpha : float, default 0.05
        Family-wise level of the Friedman decision, the CD and the Holm-corrected tests.
    test : {"signed_rank", "sign", "mean_ranks"}, default "signed_rank"
        Test of the control learner against each other one.

    Returns
    -------
    Page
        Tables ``worked_example``, ``accuracies``, ``learners``, ``over``,
        ``rank_spread``, ``per_pair``, ``multi_comparison``, ``incomplete_learners``,
        ``hierarchical``; figures ``cd_diagram``, ``matrix``, ``cd_pairwise``,
        ``cd_incomplete``; the values the text quotes (``demsar_chi2``, ``chi2``,
        ``ff``, ``cd``, ``agree_decision``, ``inc_p``, ...); ``data["comparison"]``:
        the :class:`~replicability.comparison.many_result.ManyComparison`;
        ``data["hierarchical"]``: the hierarchical results by pair.

    Examples
    --------
    >>> from replicability.papers.beyond import many_learners_page
    >>> page = many_learners_page()  # the committed paper-scale results
    >>> page.values["demsar_chi2"], page.values["decision"], page.claims.verdicts()["demsar_statistics"]
    (9.28, 'does not reject', 'holds')
    """
    alpha = check_alpha(alpha)
    test = check_choice(test, "test", ("signed_rank", "sign", "mean_ranks"))
    at10, at05 = _demsar_fits()
    reproduced = _worked_example(at10, at05)
    printed = read_published("demsar2006", "worked_example")
    both = _published_beside_ours(printed, reproduced)
    claims = _demsar_claims(printed, at10, at05)
    results = _uci_results(results, scale)
    many, per_pair, tables = _uci_analysis(results, alpha, test)
    values, over, spread = _uci_values(many, per_pair)

    page = Page(claims, summary=comparison_summary(both["value published"], both["value reproduced"], claims,
                                                   digits=4),
                reproduced={"demsar2006/worked_example": reproduced.assign(
                    source="this compendium: replicability.stats.ranks")})
    page.tables.update({"worked_example": Table(both, 4), **tables, "over": Table(over, 4),
                        "rank_spread": Table(spread, 3)})
    page.figures["cd_diagram"] = lambda: many.plot().figure
    page.values.update({
        "demsar_chi2": round(float(at10.friedman.statistic[0]), 2),
        "demsar_ff": round(float(at10.friedman.iman_davenport[0]), 2),
        "demsar_cd05": round(at05.critical_difference, 2), "demsar_cd10": round(at10.critical_difference, 2),
        "demsar_cliques": " and ".join("{" + ", ".join(c) + "}" for c in at10.cliques()), **values,
        "alpha": alpha, **_demsar_errata_values(at10),
    })
    page.data["comparison"] = many
    beyond_tables, beyond_figures, beyond_values, page.data["hierarchical"] = _beyond_nemenyi(results, alpha)
    page.tables.update(beyond_tables)
    page.figures.update(beyond_figures)
    page.values.update(beyond_values)
    return page


def _groups(comparison):
    return "; ".join("{" + ", ".join(c) + "}" for c in comparison.cliques())


def _beyond_nemenyi(results, alpha):
    """Randomization 0 by pairwise tests with Holm, with cells removed, and by the hierarchical model on its folds."""
    scores, learners, datasets = _accuracy_scores(results)
    pairwise = compare_many_scores(scores[0], learners=learners, datasets=datasets, alpha=alpha, scoring="accuracy")
    gappy = scores[0].copy()
    gappy[np.random.default_rng(_MISSING_SEED).random(gappy.shape) < _MISSING_FRACTION] = np.nan
    incomplete = compare_many_scores(gappy, learners=learners, datasets=datasets, alpha=alpha, scoring="accuracy")
    inc = incomplete.incomplete
    accuracy = (results["correct"] / results["n_test"]).isel(repeat=0).transpose("dataset", "run", "fold", "learner")
    folds = accuracy.values.reshape(len(datasets), -1, len(learners))
    rows = []
    for k, pair in enumerate(PAIR_LABELS):
        first, second = (learners.index(name) for name in pair.split("-"))
        res = hierarchical_test(folds[..., first], folds[..., second], rope=_ROPE, n_folds=accuracy.sizes["fold"],
                                n_draws=2000, n_warmup=1000, rng=k)
        # Only the decision and convergence are shown: a Markov chain's draws are not bit-portable across CPUs,
        # and the stored outputs must be (DESIGN.md); the probabilities are in page.data["hierarchical"].
        rows.append({"pair": PAIR_LABELS[pair], "decision": res.decision(),
                     "converged": "yes" if max(res.rhat.values()) < _RHAT_LIMIT else "no", "result": res})
    hierarchical = pd.DataFrame(rows).set_index("pair")
    multi = pairwise.multi_comparison()
    # Narrow enough for the text column: wins/ties/losses in one column; the z statistic and
    # the number of data sets (all of them here) are in ``multi``, not shown.
    shown = multi.assign(**{"wins/ties/losses": [f"{w}/{t}/{lo}" for w, t, lo in
                                                 zip(multi["wins"], multi["ties"], multi["losses"])]})
    shown = shown[["learner A", "learner B", "mean difference", "wins/ties/losses", "pvalue", "Holm pvalue", "differs"]]
    tables = {"multi_comparison": Table(shown, 3), "incomplete_learners": Table(incomplete.to_frame(), 4),
              "hierarchical": Table(hierarchical.drop(columns="result"), 3)}
    figures = {"matrix": lambda: pairwise.plot_matrix().figure, "cd_pairwise": lambda: pairwise.plot().figure,
               "cd_incomplete": lambda: incomplete.plot().figure}
    values = {
        "pairwise_cliques": _groups(pairwise), "n_pairwise_differ": int(multi["differs"].sum()),
        "holm_pair_min": round(float(multi["Holm pvalue"].min()), 3),
        "missing_percent": round(100 * _MISSING_FRACTION), "n_removed": int(np.isnan(gappy).sum()),
        "n_cells": int(gappy.size), "inc_test": incomplete.omnibus,
        "inc_statistic": round(float(np.ravel(inc.statistic)[0]), 3),
        "inc_p": round(float(incomplete.omnibus_pvalue()[0]), 3),
        "inc_decision": "rejects" if incomplete.rejects(0) else "does not reject",
        "inc_cliques": _groups(incomplete), "rope": _ROPE, "rhat_limit": _RHAT_LIMIT, "threshold": 0.95,
        "hier_converged": "all" if (hierarchical["converged"] == "yes").all() else "not all",
        "hier_decisions": "; ".join(f"{pair}: {d}" for pair, d in hierarchical["decision"].items()),
    }
    return tables, figures, values, hierarchical["result"].to_dict()


def _uci_analysis(results, alpha, test):
    """The three learners on the UCI data sets: the many-learner comparison, the per-pair tests and their tables."""
    scores, learners, datasets = _accuracy_scores(results)
    many = compare_many_scores(scores, learners=learners, datasets=datasets, alpha=alpha, test=test,
                               posthoc="nemenyi", scoring="accuracy")
    per_pair = per_pair_tests(results, alpha=alpha)
    per_dataset = pd.DataFrame(scores[0], index=datasets, columns=learners).round(4)
    ranks0 = pd.DataFrame(rank_scores(scores[0]), index=datasets, columns=[f"rank {n}" for n in learners])
    tables = {"accuracies": Table(pd.concat([per_dataset, ranks0], axis=1), 4), "learners": Table(many.to_frame(), 4),
              "per_pair": Table(per_pair, 3)}
    return many, per_pair, tables
