"""The result of comparing many learners on many data sets: :class:`ManyComparison`.

Built by :func:`~replicability.comparison.many.compare_many` and
:func:`~replicability.comparison.many.compare_many_scores`: average ranks, the omnibus
test, the post hoc tests and their groups, the control tests, and how stable all of
it is across randomizations, with a summary, tables and the figures (the
critical-difference diagram and the multi-comparison matrix).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..plotting import critical_difference_diagram, multi_comparison_matrix
from ..stats.control import ControlTestResult
from ..stats.incomplete import IncompleteBlockResult
from ..stats.measures import replicability_r2
from ..stats.pairwise import PairwiseResult, significance_cliques
from ..stats.ranks import FriedmanResult, NemenyiResult, rank_cliques
from .result import Reported
from .seeds import seed_text

__all__ = ["ManyComparison"]

_TEST_NAMES = {"signed_rank": "Wilcoxon signed-rank", "sign": "sign", "mean_ranks": "z on mean ranks"}
_POSTHOC_NAMES = {"signed_rank": "Wilcoxon signed-rank tests with Holm", "sign": "sign tests with Holm",
                  "nemenyi": "Nemenyi"}


@dataclass(frozen=True)
class ManyComparison(Reported):
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
        Sampling scheme of :func:`~replicability.comparison.many.compare_many`; None for precomputed scores.
    seeds : list of list of int or None
        ``random_state`` of the splitter per randomization and data set.
    split_scores : ndarray or None
        Scores per split, (n_repeats, N, runs, folds, k), from :func:`~replicability.comparison.many.compare_many`.
    rope : float or None
        Half-width of the region of practical equivalence of the Bayesian tests.
    bayesian : dict or None
        With a ``rope``: ``{(A, B): BayesianSignedRankResult}`` for every pair of
        learners (A before B in ``learners``), the Bayesian signed-rank test of A
        against B across the data sets, one value per randomization.
    seed_plans : tuple of SeedPlan or None
        Per learner, from :func:`~replicability.comparison.many.compare_many`: which ``random_state`` parameters
        were drawn for every split and which kept as given
        (:class:`~replicability.comparison.seeds.SeedPlan`).
    failures : dict or None
        With ``compare_many(..., error_score=np.nan)``: ``{(learner, data set): first failure}``
        of every cell left missing because the learner failed there.
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
    failures: dict | None = None

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
        if self.failures:
            lines.append("failed, so missing (error_score=nan): " + "; ".join(
                f"{learner} on {dataset}: {message}" for (learner, dataset), message in self.failures.items()))
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


    def __repr__(self):
        return (f"<ManyComparison {len(self.learners)} learners x {len(self.datasets)} data sets: "
                f"{self.omnibus} p = {float(self.omnibus_pvalue()[0]):.4g}, post hoc {self.posthoc}>")


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
