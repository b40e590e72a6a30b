"""Compare many learners on many data sets: ranks, the Friedman test and its post-hoc tests.

:func:`compare_many` scores several learners on several data sets with the splits of
:func:`~replicability.comparison.run.compare` (r x k cv or random subsampling, under one
or more randomizations); :func:`compare_many_scores` takes a table of scores computed
elsewhere (data sets x learners). Both return a :class:`ManyComparison`: average ranks,
the Friedman test with Iman & Davenport's F, the Nemenyi test with its critical
difference and the groups of learners it does not separate, and a signed-rank (or
sign) test of a control learner against each other one with Holm's correction
(Demšar 2006; García & Herrera 2008). With several randomizations of the splits, it
also says how often the ranks, the Friedman decision and the groups stay the same.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_classifier
from sklearn.metrics import check_scoring
from sklearn.utils.validation import _num_samples

from .._validation import as_generator, check_alpha, check_choice, check_positive_int, check_rope, sklearn_seed
from ..engine.parallel import parallel_map
from ..plotting import critical_difference_diagram, multi_comparison_matrix
from ..stats.bayesian import bayesian_signed_rank_test
from ..stats.contingency import holm
from ..stats.control import ControlTestResult, control_test
from ..stats.incomplete import IncompleteBlockResult, durbin_test, is_balanced_incomplete, skillings_mack_test
from ..stats.measures import replicability_r2
from ..stats.pairwise import PairwiseResult, pairwise_test, significance_cliques
from ..stats.ranks import FriedmanResult, NemenyiResult, friedman_test, nemenyi_test, rank_cliques
from .checks import check_comparable, check_picklable, stratify
from .folds import gather, split_name
from .inputs import as_datasets, check_cv, cv_layout, cv_splits
from .run import _BACKENDS, _parse_scheme, _scheme_name, _scoring_name
from .seeds import seed_plan, seed_text
from .work import SharedData, SplitRecipe, run_repeat, split_results

__all__ = ["ManyComparison", "compare_many", "compare_many_scores"]

_TEST_NAMES = {"signed_rank": "Wilcoxon signed-rank", "sign": "sign", "mean_ranks": "z on mean ranks"}
_POSTHOC_NAMES = {"signed_rank": "Wilcoxon signed-rank tests with Holm", "sign": "sign tests with Holm",
                  "nemenyi": "Nemenyi"}


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class ManyComparison:
    """Several learners compared over several data sets, under one or more randomizations.

    The tests are computed on every randomization (leading axis of their arrays); the
    summary, the tables and the diagram show the first one, the experiment as one runs
    it once, and :meth:`replicability` how the others differ from it.

    Attributes
    ----------
    learners, datasets : tuple of str
        Names, in the order of ``scores``' last two axes.
    scores : ndarray, shape (n_repeats, N, k)
        Score of each learner on each data set (mean over its splits) per randomization.
    better : str
        ``"higher"`` or ``"lower"``: which scores are better.
    alpha : float
        Level of every decision.
    control : str
        Learner compared with each other one (the best average rank of the first
        randomization unless chosen).
    test : str
        The control test: ``"signed_rank"``, ``"sign"`` or ``"mean_ranks"``.
    friedman : FriedmanResult or None
        Friedman and Iman-Davenport, one value per randomization; None with missing cells.
    nemenyi : NemenyiResult or None
        Nemenyi p-values (n_repeats, k, k), average ranks (n_repeats, k) and CD; None
        with missing cells (its standard error assumes every cell).
    control_results : ControlTestResult
        Control against the others, (n_repeats, k - 1), with Holm-adjusted p-values.
    pairwise : PairwiseResult
        Every pair by the ``posthoc`` paired test (the signed-rank test for
        ``"nemenyi"``) with Holm over all pairs: the multi-comparison matrix.
    posthoc : str
        Test whose decisions draw the cliques: ``"signed_rank"``, ``"sign"`` or ``"nemenyi"``.
    incomplete : IncompleteBlockResult or None
        With missing cells, the omnibus test in place of Friedman's: Durbin's when the
        gaps form a balanced incomplete block design, else Skillings-Mack's.
    scoring : str
        Name of the score.
    scheme : str or None
        Sampling scheme of :func:`compare_many`; None for precomputed scores.
    seeds : list of list of int or None
        ``random_state`` of the splitter per randomization and data set.
    split_scores : ndarray or None
        Scores per split, (n_repeats, N, runs, folds, k), from :func:`compare_many`.
    rope : float or None
        Half-width of the region of practical equivalence of the Bayesian tests.
    bayesian : dict or None
        With a ``rope``: ``{(A, B): BayesianSignedRankResult}`` for every pair of
        learners (A before B in ``learners``), the Bayesian signed-rank test of A
        against B across the data sets, one value per randomization.
    seed_plans : tuple of SeedPlan or None
        Per learner, from :func:`compare_many`: which ``random_state`` parameters
        were drawn for every split and which kept as given
        (:class:`~replicability.comparison.seeds.SeedPlan`).
    """

    learners: tuple
    datasets: tuple
    scores: np.ndarray
    better: str
    alpha: float
    control: str
    test: str
    friedman: FriedmanResult
    nemenyi: NemenyiResult
    control_results: ControlTestResult
    pairwise: PairwiseResult
    posthoc: str = "signed_rank"
    incomplete: IncompleteBlockResult | None = None
    scoring: str = "score"
    scheme: str | None = None
    seeds: list | None = None
    split_scores: np.ndarray | None = None
    rope: float | None = None
    bayesian: dict | None = None
    seed_plans: tuple | None = None

    @property
    def n_repeats(self):
        return self.scores.shape[0]

    @property
    def critical_difference(self):
        """Nemenyi's critical difference of average ranks at ``alpha`` (complete tables only)."""
        if self.nemenyi is None:
            raise ValueError("There is no critical difference with missing cells: Nemenyi's standard error "
                             "assumes every cell; the cliques come from the pairwise tests.")
        return float(self.nemenyi.critical_difference)

    @property
    def omnibus(self):
        """Name of the test that decides whether any learner differs."""
        if self.incomplete is None:
            return "Iman-Davenport F"
        return "Durbin F" if self.incomplete.method == "durbin" else "Skillings-Mack"

    def omnibus_pvalue(self):
        """P-value of the omnibus decision, one per randomization."""
        if self.incomplete is None:
            return np.asarray(self.friedman.iman_davenport_pvalue)
        res = self.incomplete
        return np.atleast_1d(res.f_pvalue if res.method == "durbin" else res.pvalue)

    def _ranks(self, repeat):
        source = self.nemenyi if self.incomplete is None else self.incomplete
        return np.asarray(source.average_ranks)[repeat]

    def average_ranks(self, repeat=0):
        """Average rank of each learner (pandas Series, best first); with missing cells over its data sets."""
        import pandas as pd

        ranks = pd.Series(self._ranks(repeat), index=list(self.learners), name="average rank")
        return ranks.sort_values(kind="stable")

    def rejects(self, repeat=None):
        """Whether the omnibus test rejects "all learners alike" at ``alpha`` (all randomizations if None)."""
        p = self.omnibus_pvalue() < self.alpha
        return p if repeat is None else bool(p[repeat])

    def _clique_positions(self, repeat):
        if self.posthoc == "nemenyi":
            return rank_cliques(self._ranks(repeat), self.critical_difference)
        return significance_cliques(self._ranks(repeat), self.pairwise.significant(self.alpha)[repeat])

    def cliques(self, repeat=0):
        """Maximal groups of learners of which no pair differs by the ``posthoc`` test, best group first."""
        return [tuple(self.learners[i] for i in group) for group in self._clique_positions(repeat)]

    def to_frame(self, repeat=0):
        """One row per learner, best average rank first: mean score, average rank, wins, and the control test."""
        import pandas as pd

        scores = self.scores[repeat]
        ranks = self._ranks(repeat)
        best = np.nanmax(scores, axis=1) if self.better == "higher" else np.nanmin(scores, axis=1)
        control = self.learners.index(self.control)
        res = self.control_results
        rows = []
        for j, name in enumerate(self.learners):
            row = {"learner": name, f"mean {self.scoring}": float(np.nanmean(scores[:, j])),
                   "average rank": float(ranks[j]), "best on": int(np.sum(scores[:, j] == best))}
            if self.nemenyi is not None:
                row[f"Nemenyi p vs {self.control}"] = float(self.nemenyi.pvalue[repeat, j, control])
            else:
                row["missing"] = int(np.isnan(scores[:, j]).sum())
            if j == control:
                row.update({"statistic": np.nan, "pvalue": np.nan, "Holm pvalue": np.nan, "differs from control": ""})
            else:
                pos = res.learners.index(j)
                adjusted = float(res.adjusted_pvalue[repeat, pos])
                row.update({"statistic": float(res.statistic[repeat, pos]), "pvalue": float(res.pvalue[repeat, pos]),
                            "Holm pvalue": adjusted, "differs from control": "yes" if adjusted < self.alpha else "no"})
            rows.append(row)
        frame = pd.DataFrame(rows).set_index("learner")
        return frame.sort_values("average rank", kind="stable")

    def pairs_frame(self, repeat=0):
        """One row per pair of learners: rank difference, Nemenyi p-value, whether it reaches CD.

        With a ROPE, also the Bayesian signed-rank test's three probabilities and its
        decision at 0.95. Without Nemenyi (missing cells), the pairwise tests' columns
        (:meth:`multi_comparison`) take its place.
        """
        import pandas as pd

        if self.nemenyi is None:
            return self.multi_comparison(repeat)
        ranks = self.nemenyi.average_ranks[repeat]
        rows = []
        for i in range(len(self.learners)):
            for j in range(i + 1, len(self.learners)):
                row = {"learner A": self.learners[i], "learner B": self.learners[j],
                       "rank difference": float(ranks[j] - ranks[i]),
                       "Nemenyi pvalue": float(self.nemenyi.pvalue[repeat, i, j]),
                       "significant": bool(self.nemenyi.significant[repeat, i, j])}
                if self.bayesian is not None:
                    res = self.bayesian[(self.learners[i], self.learners[j])]
                    row.update({"P(A better)": float(np.ravel(res.p_a_better)[repeat]),
                                "P(equivalent)": float(np.ravel(res.p_equivalent)[repeat]),
                                "P(B better)": float(np.ravel(res.p_b_better)[repeat]),
                                "Bayesian decision": str(np.ravel(res.decision())[repeat])})
                rows.append(row)
        return pd.DataFrame(rows)

    def multi_comparison(self, repeat=0):
        """The multi-comparison matrix (Ismail-Fawaz et al. 2023): one row per pair of learners.

        Mean difference of scores (A - B), wins, ties and losses of A, the data sets
        both have, the paired test's Z and p, Holm's p over all pairs, and whether the
        pair differs at ``alpha`` (:class:`~replicability.stats.pairwise.PairwiseResult`).
        """
        res = self.pairwise
        one = PairwiseResult(**{name: (value[repeat] if isinstance(value, np.ndarray) else value)
                                for name, value in res.__dict__.items()})
        frame = one.to_frame(self.learners)
        frame["differs"] = frame["Holm pvalue"] < self.alpha
        return frame

    def plot_matrix(self, ax=None, *, repeat=0):
        """The multi-comparison matrix of a randomization as a figure
        (:func:`replicability.plotting.multi_comparison_matrix`).

        Returns
        -------
        matplotlib.axes.Axes
        """
        res = self.pairwise
        one = PairwiseResult(**{name: (value[repeat] if isinstance(value, np.ndarray) else value)
                                for name, value in res.__dict__.items()})
        return multi_comparison_matrix(one, names=list(self.learners), alpha=self.alpha, ax=ax)

    def replicability(self):
        """How the first randomization's conclusions fare in the others.

        Returns
        -------
        pandas.DataFrame
            One row per randomization: Iman-Davenport F and p, the decision, the best
            learner, the cliques, the learners that differ from the control after Holm,
            and the average rank of every learner.
        """
        import pandas as pd

        rows = []
        res = self.control_results
        for r in range(self.n_repeats):
            ranks = self._ranks(r)
            differ = [self.learners[j] for pos, j in enumerate(res.learners)
                      if res.adjusted_pvalue[r, pos] < self.alpha]
            statistic = (self.friedman.iman_davenport if self.incomplete is None else
                         self.incomplete.f_statistic if self.incomplete.method == "durbin" else
                         self.incomplete.statistic)
            row = {"randomization": r, "F_F" if self.incomplete is None else self.omnibus:
                   float(np.atleast_1d(statistic)[r]), "pvalue": float(self.omnibus_pvalue()[r]),
                   "rejects": self.rejects(r),
                   "best": " = ".join(self._best(r)),
                   "cliques": " | ".join(", ".join(c) for c in self.cliques(r)),
                   f"differ from {self.control}": ", ".join(differ)}
            row.update({f"rank {name}": float(ranks[j]) for j, name in enumerate(self.learners)})
            rows.append(row)
        return pd.DataFrame(rows).set_index("randomization")

    def _best(self, repeat):
        """The learners with the smallest average rank (several when tied)."""
        ranks = self._ranks(repeat)
        return [name for name, r in zip(self.learners, ranks) if r == ranks.min()]

    def agreement(self):
        """How many randomizations agree with the first: decision, cliques, rank order (ties included), best.

        Returns
        -------
        dict
            Counts out of ``n_repeats`` (the first agrees with itself) and ``decision_r2``,
            the replicability R̂2 of the Friedman decision (Bouckaert 2004).
        """
        from scipy.stats import rankdata

        groups = [frozenset(frozenset(c) for c in self.cliques(r)) for r in range(self.n_repeats)]
        orders = [tuple(rankdata(self._ranks(r))) for r in range(self.n_repeats)]
        best = [frozenset(self._best(r)) for r in range(self.n_repeats)]
        rejects = self.rejects().astype(int)
        return {"decision": int(np.sum(rejects == rejects[0])), "cliques": sum(g == groups[0] for g in groups),
                "order": sum(o == orders[0] for o in orders), "best": sum(b == best[0] for b in best),
                "decision_r2": float(replicability_r2(rejects)) if self.n_repeats > 1 else 1.0}

    def summary(self):
        """The comparison in a few plain lines (first randomization)."""
        f, inc = self.friedman, self.incomplete
        n_rep = self.n_repeats
        ranks = self.average_ranks()
        verdict = "the learners differ" if self.rejects(0) else "no difference between the learners is shown"
        lines = [
            f"{len(self.learners)} learners on {len(self.datasets)} data sets; score: {self.scoring} "
            f"({self.better} is better)" + (f"; {self.scheme}" if self.scheme else "")
            + (f"; {n_rep} randomizations" if n_rep > 1 else ""),
            "average ranks: " + ", ".join(f"{name} {r:.3f}" for name, r in ranks.items()),
        ]
        if inc is None:
            df1, df2 = f.iman_davenport_df
            lines += [f"Friedman chi2_F = {float(f.statistic[0]):.3f} (df {f.df}), p = {float(f.pvalue[0]):.4g}; "
                      f"Iman-Davenport F_F = {float(f.iman_davenport[0]):.3f} (df {df1}, {df2}), "
                      f"p = {float(f.iman_davenport_pvalue[0]):.4g} -> {verdict} at alpha = {self.alpha:g}",
                      f"Nemenyi CD = {self.critical_difference:.3f}"]
        else:
            missing = int(np.ravel(inc.n_missing)[0])
            lines += [f"{missing} missing cells; {int(np.ravel(inc.n_blocks)[0])} data sets with 2 or more scores "
                      f"used; {self.omnibus} test = "
                      f"{float(np.ravel(inc.f_statistic if inc.method == 'durbin' else inc.statistic)[0]):.3f}, "
                      f"p = {float(self.omnibus_pvalue()[0]):.4g} -> {verdict} at alpha = {self.alpha:g}"]
        lines.append(f"not significantly different ({_POSTHOC_NAMES[self.posthoc]}): "
                     + "; ".join("{" + ", ".join(c) + "}" for c in self.cliques()))
        res = self.control_results
        parts = [f"{self.learners[j]} p = {float(res.pvalue[0, pos]):.4g} "
                 f"(Holm {float(res.adjusted_pvalue[0, pos]):.4g})" for pos, j in enumerate(res.learners)]
        lines.append(f"control {self.control}, {_TEST_NAMES[self.test]} test with Holm: " + "; ".join(parts))
        if self.bayesian is not None:
            parts = []
            for (a, b), res in self.bayesian.items():
                pa, pe, pb = (float(np.ravel(p)[0]) for p in (res.p_a_better, res.p_equivalent, res.p_b_better))
                parts.append(f"{a} vs {b}: P(A better) {pa:.3f}, P(equivalent) {pe:.3f}, P(B better) {pb:.3f}")
            lines.append(f"Bayesian signed-rank, ROPE {self.rope:g}: " + "; ".join(parts))
        if self.seed_plans is not None:
            lines.append("learners' own randomness: "
                         + "; ".join(seed_text(name, plan) for name, plan in zip(self.learners, self.seed_plans)))
        if not self.rejects(0):
            lines.append(f"The {self.omnibus} test does not reject: the post-hoc tests are shown, not to be read "
                         "as findings.")
        if n_rep > 1:
            a = self.agreement()
            lines.append(f"over {n_rep} randomizations, as in the first: decision {a['decision']}, "
                         f"cliques {a['cliques']}, rank order {a['order']}, best learner {a['best']} "
                         f"(decision R2 = {a['decision_r2']:.3f})")
        return "\n".join(lines)

    def __str__(self):
        return self.summary()

    def __repr__(self):
        return (f"<ManyComparison {len(self.learners)} learners x {len(self.datasets)} data sets: "
                f"{self.omnibus} p = {float(self.omnibus_pvalue()[0]):.4g}, post hoc {self.posthoc}>")

    def _repr_html_(self):
        head = "<br>".join(_escape(line) for line in self.summary().splitlines())
        return f"<p>{head}</p>" + self.to_frame().to_html(float_format=lambda v: f"{v:.4g}", na_rep="")

    def plot(self, ax=None, *, repeat=0, best="left"):
        """Demšar's CD diagram of a randomization (:func:`replicability.plotting.critical_difference_diagram`).

        The bars are the cliques of ``posthoc``; the CD bar is drawn for Nemenyi only;
        a caveat is written on the figure when the omnibus test does not reject.

        Returns
        -------
        matplotlib.axes.Axes
        """
        caveat = None if self.rejects(repeat) else (
            f"{self.omnibus} p = {float(self.omnibus_pvalue()[repeat]):.3g} >= {self.alpha:g}: no difference shown")
        return critical_difference_diagram(
            self._ranks(repeat), len(self.datasets), names=list(self.learners), alpha=self.alpha, best=best,
            ax=ax, cliques=None if self.posthoc == "nemenyi" else self._clique_positions(repeat),
            test=_POSTHOC_NAMES[self.posthoc], caveat=caveat)


# --------------------------------------------------------------------------
# analysis of a score table
# --------------------------------------------------------------------------


def _names(names, count, what, default):
    if names is None:
        return tuple(f"{default} {i}" for i in range(count))
    names = tuple(str(n) for n in names)
    if len(names) != count:
        raise ValueError(f"`{what}` must name each of the {count} columns/rows; got {len(names)} names.")
    if len(set(names)) != len(names):
        raise ValueError(f"`{what}` must be distinct; got {list(names)!r}.")
    return names


def _incomplete(scores, better, posthoc, test, rope):
    """The omnibus test of a table with missing cells: Durbin on a balanced incomplete design, else Skillings-Mack."""
    if posthoc == "nemenyi" or test == "mean_ranks":
        raise ValueError("`scores` has missing cells: Nemenyi's and the mean-ranks tests assume every cell; use "
                         "posthoc='signed_rank' or 'sign' and test='signed_rank' or 'sign'.")
    if rope is not None:
        raise ValueError("`rope`: the Bayesian signed-rank test across data sets needs every cell; drop the "
                         "incomplete data sets or learners first.")
    if all(is_balanced_incomplete(table) for table in scores):
        return durbin_test(scores, better=better)
    return skillings_mack_test(scores, better=better)


def _control_from_pairs(pairs, control, test):
    """Control against each other learner from the pairwise tests: Z of the other learner, Holm over k - 1."""
    others = tuple(j for j in range(pairs.statistic.shape[-1]) if j != control)
    z, p = pairs.statistic[..., list(others), control], pairs.pvalue[..., list(others), control]
    return ControlTestResult(statistic=z, pvalue=p, adjusted_pvalue=holm(p), control=control, learners=others,
                             test=test)


def _analyse(scores, learners, datasets, *, better, alpha, control, test, method, tie_correction, scoring,
             posthoc="signed_rank", scheme=None, seeds=None, split_scores=None, rope=None, rng=None,
             seed_plans=None):
    incomplete = _incomplete(scores, better, posthoc, test, rope) if np.isnan(scores).any() else None
    friedman = nemenyi = None
    if incomplete is None:
        friedman = friedman_test(scores, better=better, tie_correction=tie_correction)
        nemenyi = nemenyi_test(scores, better=better, alpha=alpha)
    pairs = pairwise_test(scores, better=better, test="sign" if posthoc == "sign" else "signed_rank", method=method)
    ranks = (nemenyi if incomplete is None else incomplete).average_ranks
    if control is None:
        control = learners[int(np.argmin(ranks[0]))]
    elif control not in learners:
        raise ValueError(f"`control` must be one of the learners {list(learners)}; got {control!r}.")
    if incomplete is None:
        results = control_test(scores, control=learners.index(control), better=better, test=test, method=method)
    else:
        same = pairs if pairs.test == test else pairwise_test(scores, better=better, test=test, method=method)
        results = _control_from_pairs(same, learners.index(control), test)
    bayesian = None
    if rope is not None:
        # A better than B means a higher score, or a lower one when lower is better.
        sign = 1.0 if better == "higher" else -1.0
        generator = as_generator(rng)
        bayesian = {(learners[i], learners[j]): bayesian_signed_rank_test(sign * scores[..., i], sign * scores[..., j],
                                                                          rope=rope, rng=generator)
                    for i in range(len(learners)) for j in range(i + 1, len(learners))}
    return ManyComparison(learners=learners, datasets=datasets, scores=scores, better=better, alpha=alpha,
                          control=control, test=test, friedman=friedman, nemenyi=nemenyi, control_results=results,
                          pairwise=pairs, posthoc=posthoc, incomplete=incomplete, scoring=scoring, scheme=scheme,
                          seeds=seeds, split_scores=split_scores, rope=rope, bayesian=bayesian, seed_plans=seed_plans)


def compare_many_scores(scores, *, learners=None, datasets=None, better="higher", alpha=0.05, control=None,
                        test="signed_rank", posthoc="signed_rank", method="normal", tie_correction=True,
                        scoring="score", rope=None, rng=None):
    """Rank several learners over several data sets from a table of their scores.

    Null hypothesis of the Friedman test: all learners perform alike (every ranking
    of them on a data set equally likely). The table is analysed as Demšar (2006)
    recommends: average ranks, the Friedman test with Iman & Davenport's F (the
    decision), the Nemenyi test with its critical difference for all pairs, and a
    paired test of a control learner against each other one with Holm's correction.
    Every pair is also tested on its own two columns (signed-rank or sign test, Holm
    over all pairs: :func:`~replicability.stats.pairwise.pairwise_test`), and by
    default these pairwise decisions, not Nemenyi's, draw the cliques: a pair's
    mean-rank decision depends on which other learners are in the table (Benavoli,
    Corani & Mangili 2016).

    *Missing cells* (NaN: a learner failed or timed out on a data set) replace
    Friedman's test by Durbin's when the gaps form a balanced incomplete block design
    and by Skillings & Mack's otherwise
    (:mod:`~replicability.stats.incomplete`; ``incomplete`` names it); a data set
    with fewer than two scores is dropped; each paired test uses the data sets its two
    learners share; Nemenyi, the mean-ranks test and the Bayesian test, which need
    every cell, are refused. A table whose learners never meet on a data set is
    refused.

    Parameters
    ----------
    scores : pandas.DataFrame or array_like
        Data sets in rows, learners in columns: a DataFrame names both; an array has
        shape (N, k), or (n_repeats, N, k) for several randomizations of the
        experiment (the first is reported, the others measure replicability).
    learners, datasets : sequence of str, optional
        Names of the columns and rows of an array (default "learner 0", ...).
    better : {"higher", "lower"}, default "higher"
        Accuracy and AUC: higher; error rates and losses: lower.
    alpha : float, default 0.05
        Level of the Friedman decision, of the critical difference and of the
        Holm-corrected control tests.
    control : str, optional
        Learner to compare with each other one; default the best average rank of the
        first randomization (García & Herrera 2008). Choose it before seeing the data
        when the question is "is my learner better than the others".
    test : {"signed_rank", "sign", "mean_ranks"}, default "signed_rank"
        The control test (:func:`~replicability.stats.control.control_test`).
    posthoc : {"signed_rank", "sign", "nemenyi"}, default "signed_rank"
        Test whose decisions draw the cliques (:meth:`ManyComparison.cliques` and the
        diagram): Wilcoxon signed-rank or sign tests of every pair with Holm's
        correction, or Nemenyi's critical difference (Demšar 2006).
    method : {"normal", "exact"}, default "normal"
        P-value method of the signed-rank or sign test.
    tie_correction : bool, default True
        Tie-corrected Friedman statistic, as :func:`scipy.stats.friedmanchisquare`,
        R's ``friedman.test`` and autorank compute it; False gives the formula Demšar
        (2006) prints (see :func:`~replicability.stats.ranks.friedman_test`).
    scoring : str, default "score"
        Name of the score, for the summary.
    rope : float, optional
        Half-width of a region of practical equivalence on the scale of the scores
        (``0.01``: one accuracy point). Given, every pair of learners also gets the
        Bayesian signed-rank test across the data sets
        (:func:`~replicability.stats.bayesian.bayesian_signed_rank_test`, Benavoli
        et al. 2017), reported in :meth:`ManyComparison.pairs_frame` and the summary.
    rng : numpy.random.Generator, int or None
        Source of the Bayesian test's Monte Carlo draws (one stream, pairs in order).

    Returns
    -------
    ManyComparison

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. JMLR 7, 1-30. https://jmlr.org/papers/v7/demsar06a.html
    .. [2] García, S., & Herrera, F. (2008). An extension on "Statistical comparisons
       of classifiers over multiple data sets" for all pairwise comparisons. JMLR 9,
       2677-2694. https://jmlr.org/papers/v9/garcia08a.html

    Examples
    --------
    >>> import pandas as pd
    >>> from replicability.comparison import compare_many_scores
    >>> table = pd.DataFrame({"A": [0.81, 0.90, 0.66, 0.72, 0.95, 0.85],
    ...                       "B": [0.79, 0.91, 0.64, 0.70, 0.93, 0.80],
    ...                       "C": [0.75, 0.85, 0.60, 0.71, 0.92, 0.78]},
    ...                      index=[f"data {i}" for i in range(6)])
    >>> res = compare_many_scores(table, scoring="accuracy")
    >>> res.average_ranks().round(3).to_dict()
    {'A': 1.167, 'B': 2.0, 'C': 2.833}
    >>> res.rejects(0), round(res.critical_difference, 3), res.cliques()
    (True, 1.353, [('A', 'B', 'C')])
    >>> res.control
    'A'

    With a missing cell, Skillings & Mack's test decides:

    >>> table.loc["data 2", "B"] = float("nan")
    >>> res = compare_many_scores(table)
    >>> res.omnibus, round(float(res.omnibus_pvalue()[0]), 4)
    ('Skillings-Mack', 0.0248)
    """
    if hasattr(scores, "columns") and hasattr(scores, "index"):  # a DataFrame
        if learners is None:
            learners = list(scores.columns)
        if datasets is None:
            datasets = list(scores.index)
        scores = scores.to_numpy()
    arr = np.asarray(scores)
    if arr.dtype.kind in "bUSO":
        raise TypeError(f"`scores` must hold numbers; got an array of dtype {arr.dtype}.")
    arr = np.asarray(arr, dtype=float)
    if arr.ndim == 2:
        arr = arr[None]
    if arr.ndim != 3:
        raise ValueError(f"`scores` must have shape (N, k) or (n_repeats, N, k); got shape {arr.shape}.")
    alpha = check_alpha(alpha)
    test = check_choice(test, "test", tuple(_TEST_NAMES))
    posthoc = check_choice(posthoc, "posthoc", tuple(_POSTHOC_NAMES))
    learners = _names(learners, arr.shape[2], "learners", "learner")
    datasets = _names(datasets, arr.shape[1], "datasets", "data set")
    rope = None if rope is None else check_rope(rope)
    return _analyse(arr, learners, datasets, better=better, alpha=alpha, control=control, test=test, method=method,
                    tie_correction=tie_correction, scoring=str(scoring), posthoc=posthoc, rope=rope, rng=rng)


# --------------------------------------------------------------------------
# running the learners
# --------------------------------------------------------------------------


def _as_estimators(estimators):
    if isinstance(estimators, dict):
        items = [(str(name), est) for name, est in estimators.items()]
    else:
        items, seen = [], {}
        for est in estimators:
            base = type(est).__name__
            seen[base] = seen.get(base, 0) + 1
            items.append((base if seen[base] == 1 else f"{base} {seen[base]}", est))
    if len(items) < 2 or not all(hasattr(est, "fit") for _, est in items):
        raise ValueError(f"`estimators` must hold at least 2 scikit-learn estimators (a dict by name or a list); "
                         f"got {estimators!r}.")
    return items


def compare_many(estimators, datasets, *, scheme="10x10cv", n_runs=10, test_size=0.1, cv=None, scoring=None,
                 n_repeats=1, alpha=0.05, control=None, test="signed_rank", posthoc="signed_rank", method="normal",
                 tie_correction=True, rope=None, estimator_seeds="unset", n_jobs=1, backend="processes",
                 progress=None, rng=None):
    """Score several estimators on several data sets, then rank and test them (:func:`compare_many_scores`).

    Every estimator is fitted on the same training sets and scored on the same test
    sets of each data set, with the schemes of
    :func:`~replicability.comparison.run.compare`; a learner's score on a data set is
    its mean over the splits of a randomization. Demšar (2006) asks for reliable
    per-data-set scores and does not use their variance; with ``n_repeats >= 2`` the
    whole experiment is rerun with other random splits, and the result says whether
    the ranks and decisions survive.

    Parameters
    ----------
    estimators : dict of str to estimator, or list of estimators
        At least two; a list is named by class (``"GaussianNB"``).
    datasets : dict of str to (X, y) or (X, y, groups), or sequence of objects with ``name``, ``X``, ``y``
        At least two (e.g. :func:`~replicability.sources.uci.load_uci` data sets).
        ``X`` is passed to the estimators as given, as in
        :func:`~replicability.comparison.run.compare` (a DataFrame stays one, for a
        ``ColumnTransformer``; a sparse matrix stays sparse); ``groups`` (or an
        attribute ``groups``) go to a group-aware ``cv``.
    scheme, n_runs, test_size, cv, scoring : optional
        As in :func:`~replicability.comparison.run.compare`; higher scores are better.
        ``cv``, any scikit-learn splitter in place of ``scheme``, must give every data
        set the same layout (runs of folds, or independent splits).
    n_repeats : int, default 1
        Randomizations of the whole experiment.
    alpha, control, test, posthoc, method, tie_correction, rope : optional
        As in :func:`compare_many_scores`.
    estimator_seeds : {"unset", "all"}, default "unset"
        As in :func:`~replicability.comparison.run.compare`: the ``random_state``
        parameters left at None (``"all"``: every one) are drawn for every split and
        randomization from a stream of ``rng`` apart from the splits'; the others are
        kept, and that randomness is then not varied (``ManyComparison.seed_plans``).
    n_jobs : int, default 1
        Worker processes over randomizations of data sets (1: in this process); results
        do not depend on it. As in :func:`~replicability.comparison.run.compare`, the
        splits are drawn as they are used and the data sent to the workers once.
    backend : {"processes", "dask"}, default "processes"
        As in :func:`~replicability.comparison.run.compare`.
    progress : bool, optional
        Progress bar; default: when standard error is a terminal.
    rng : numpy.random.Generator, int or None
        Root of the randomizations: randomization ``i`` of data set ``d`` splits with a
        seed drawn from child ``d`` of child ``i`` of ``rng``, and draws the learners'
        ``random_state`` values from that child's own first child; child
        ``n_repeats`` draws the Bayesian test's samples.

    Returns
    -------
    ManyComparison
        With ``scheme``, ``seeds`` and the per-split ``split_scores``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris, load_wine, load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from replicability.comparison import compare_many
    >>> data = {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True),
    ...         "cancer": load_breast_cancer(return_X_y=True)}
    >>> res = compare_many([GaussianNB(), KNeighborsClassifier(), DecisionTreeClassifier(random_state=0)],
    ...                    data, scheme="2x5cv", rng=0)
    >>> res.learners, res.scores.shape
    (('GaussianNB', 'KNeighborsClassifier', 'DecisionTreeClassifier'), (1, 3, 3))
    """
    items = _as_estimators(estimators)
    data = as_datasets(datasets)
    kind, r, k = _parse_scheme(scheme, n_runs) if cv is None else (None, None, None)
    check_cv(cv)
    if cv is None and any(groups is not None for *_, groups in data):
        raise ValueError("`groups` need a group-aware `cv` (e.g. GroupKFold(n_splits=10, shuffle=True)); the "
                         f"scheme {scheme!r} ignores groups.")
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    alpha = check_alpha(alpha)
    rope = None if rope is None else check_rope(rope)
    test = check_choice(test, "test", tuple(_TEST_NAMES))
    posthoc = check_choice(posthoc, "posthoc", tuple(_POSTHOC_NAMES))
    if n_jobs != -1:
        n_jobs = check_positive_int(n_jobs, "n_jobs")
    check_choice(backend, "backend", _BACKENDS)
    if backend == "dask" and importlib.util.find_spec("distributed") is None:
        raise ImportError("`backend` 'dask' needs the [dask] extra: pip install 'replicability[dask]'.")
    if kind == "resampling" and not (isinstance(test_size, float) and 0 < test_size < 1):
        raise ValueError(f"`test_size` must be a number in (0, 1); got {test_size!r}.")
    names = tuple(name for name, _ in items)
    ests = [est for _, est in items]
    check_comparable({f"estimators[{name!r}]": est for name, est in items}, scoring)
    scorers = [check_scoring(est, scoring) for est in ests]
    check_picklable({**{f"estimators[{name!r}]": est for name, est in items}, "scoring": scoring}, n_jobs, backend)
    plans = tuple(seed_plan(est, estimator_seeds) for est in ests)
    learners = [(name, est, scorer, plan.drawn) for name, est, scorer, plan in zip(names, ests, scorers, plans)]
    classifiers = all(is_classifier(est) for est in ests)
    root = as_generator(rng)
    generators = [repeat.spawn(len(data)) for repeat in root.spawn(n_repeats)]
    seeds = [[sklearn_seed(g) for g in repeat] for repeat in generators]
    if cv is None:
        recipes = [SplitRecipe(kind, r, k, test_size=test_size, stratified=stratify(
            classifiers, np.asarray(y), where=f"data set {name!r}: ",
            **({"n_folds": k} if kind == "cv" else {"test_size": test_size}))) for name, _, y, _ in data]
        scheme = _scheme_name(kind, r, k)
    else:
        # each data set's layout from its first randomization's splits, read once as drawn
        layouts = {name: cv_layout(cv, cv_splits(cv, seeds[0][d], X, y, groups), _num_samples(X))
                   for d, (name, X, y, groups) in enumerate(data)}
        if len(set(layouts.values())) != 1:
            raise ValueError(f"`cv` {cv!r} must give every data set the same layout (runs x folds, or "
                             f"independent splits); got {layouts}.")
        kind, r, k = next(iter(layouts.values()))
        recipes, scheme = [SplitRecipe(kind, r, k, cv=cv)] * len(data), repr(cv)
    tasks = []
    for i in range(n_repeats):
        for d in range(len(data)):
            # the learners' seeds: a child stream of the unit's, apart from its splitter's seed
            stream = generators[i][d].spawn(1)[0]
            tasks.append((recipes[d], d, seeds[i][d], [plan.draw(stream, r * k) for plan in plans], True))
    # one unit per randomization of a data set, its splits drawn in the worker; the data sent to workers once
    share = backend == "processes" and n_jobs != 1
    with SharedData(tuple((X, y, np.asarray(y), groups, {}) for _, X, y, groups in data), share=share) as shared:
        repeats = parallel_map(functools.partial(run_repeat, learners=learners, shared=shared), tasks,
                               backend=backend, n_jobs=n_jobs)
        if sys.stderr.isatty() if progress is None else bool(progress):
            from tqdm.auto import tqdm

            repeats = tqdm(repeats, total=len(tasks), desc="randomizations of data sets", unit="unit")

        def name(index):
            unit, split = divmod(index, r * k)
            return (f"data set {data[unit % len(data)][0]!r}, "
                    + split_name(unit // len(data) * r * k + split, r, k, kind))

        split_scores = gather(split_results(repeats, r * k, []), name)
    split_scores = np.array(split_scores, dtype=float).reshape(n_repeats, len(data), r, k, len(ests))
    return _analyse(split_scores.mean(axis=(2, 3)), names, tuple(name for name, *_ in data), better="higher",
                    alpha=alpha, control=control, test=test, method=method, tie_correction=tie_correction,
                    posthoc=posthoc, scoring=_scoring_name(scoring, ests[0], ests[1]), scheme=scheme, seeds=seeds,
                    split_scores=split_scores, rope=rope, rng=root.spawn(1)[0], seed_plans=plans)
