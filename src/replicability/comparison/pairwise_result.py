"""The result of comparing k learners on one data set: every pair, adjusted for multiplicity, and a ranking."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
from scipy import stats

from ..plotting import pyplot
from ..stats.contingency import bonferroni, holm
from ..stats.measures import replicability_r2
from .result import Reported

__all__ = ["CORRECTIONS", "PairwiseComparison"]

#: Family-wise corrections of the k(k-1)/2 pairwise p-values.
CORRECTIONS = {"holm": holm, "bonferroni": bonferroni}


def _share_of_agreeing_pairs(rows):
    """Share of pairs of randomizations (rows) that are identical: R̂2's agreement for any outcome."""
    n = len(rows)
    same = sum(np.array_equal(rows[i], rows[j]) for i, j in combinations(range(n), 2))
    return same / (n * (n - 1) / 2)


@dataclass(frozen=True)
class PairwiseComparison(Reported):
    """k learners compared on the same splits of one data set, every pair, under several randomizations.

    Every pair is analysed as :func:`~replicability.comparison.run.compare` analyses
    two learners (differences first minus second, in the order the learners were
    given); the recommended test's p-values of the k(k-1)/2 pairs are adjusted
    together, within each randomization, by Holm's step-down procedure (default;
    Holm 1979) or Bonferroni's, and a pair is decided at ``alpha`` on its adjusted
    p-value. The replicability of each adjusted decision, and of the ranking by
    mean score, is measured over the randomizations (Bouckaert 2004).

    Attributes
    ----------
    learners : list of str
        The learners' names, in the order given.
    scores : ndarray, shape (n_repeats, n_runs, n_folds, n_learners)
        Every learner's score on every test set.
    pairs : dict of (str, str) to Comparison
        The two-learner analysis of every pair ``(first, second)``, first before second
        in ``learners``.
    correction : {"holm", "bonferroni"}
        The family-wise correction.
    adjusted : ndarray, shape (n_repeats, n_pairs)
        Adjusted p-values of the recommended test, pairs in the order of ``pairs``.
    decisions : ndarray of int8, shape (n_repeats, n_pairs)
        +1 first better, -1 second better, 0 no difference, on the adjusted p-values.
    """

    learners: list
    scores: np.ndarray
    pairs: dict
    correction: str
    adjusted: np.ndarray
    decisions: np.ndarray

    @classmethod
    def from_pairs(cls, learners, scores, analyse, *, correction="holm"):
        """Analyse every pair with ``analyse(i, j)`` (a Comparison) and adjust the family's p-values."""
        pairs = {(learners[i], learners[j]): analyse(i, j) for i, j in combinations(range(len(learners)), 2)}
        first = next(iter(pairs.values()))
        raw = np.stack([res.pvalues[res.recommended] for res in pairs.values()], axis=-1)
        adjusted = CORRECTIONS[correction](raw)
        signs = np.stack([res.decisions[res.recommended] for res in pairs.values()], axis=-1)
        decisions = (signs * (adjusted < first.alpha)).astype(np.int8)
        return cls(list(learners), scores, pairs, correction, adjusted, decisions)

    @property
    def alpha(self):
        return next(iter(self.pairs.values())).alpha

    @property
    def n_repeats(self):
        return self.scores.shape[0]

    @property
    def rope(self):
        return next(iter(self.pairs.values())).rope

    def pair(self, first, second):
        """The two-learner :class:`~replicability.comparison.result.Comparison` of ``first`` against ``second``."""
        if (first, second) in self.pairs:
            return self.pairs[first, second]
        if (second, first) in self.pairs:
            raise KeyError(f"The pair is analysed as ({second!r}, {first!r}), differences {second} - {first}; "
                           f"ask for pair({second!r}, {first!r}).")
        raise KeyError(f"No pair ({first!r}, {second!r}); the learners are {self.learners}.")

    def mean_scores(self):
        """Mean score of every learner in every randomization, shape (n_repeats, n_learners)."""
        return self.scores.mean(axis=(1, 2))

    def ranks(self):
        """Rank of every learner by mean score in every randomization (1 = highest; ties share the mean rank)."""
        return stats.rankdata(-self.mean_scores(), axis=1)

    def ranking_replicability(self):
        """How often two randomizations rank the learners alike (None with one randomization).

        Returns
        -------
        dict
            ``same ranking``: the share of pairs of randomizations giving the same
            ranking by mean score; ``same winner``: the same learner (or tie) first.
        """
        if self.n_repeats < 2:
            return None
        ranks = self.ranks()
        winners = [tuple(np.flatnonzero(r == r.min())) for r in ranks]
        return {"same ranking": _share_of_agreeing_pairs(list(ranks)),
                "same winner": _share_of_agreeing_pairs([np.array(w) for w in winners])}

    def ranking(self):
        """One row per learner: mean score and rank of the first randomization, and each rank's share over all."""
        import pandas as pd

        ranks = self.ranks()
        frame = pd.DataFrame({"mean score": self.mean_scores()[0], "rank": ranks[0]}, index=self.learners)
        for rank in range(1, len(self.learners) + 1):
            frame[f"share rank {rank}"] = (ranks == rank).mean(axis=0)
        return frame.rename_axis("learner").sort_values(["rank", "mean score"], ascending=[True, False])

    def to_frame(self):
        """One row per pair: the first randomization's difference, test, raw and adjusted p-value and decision,
        and the adjusted decision's replicability over all randomizations (with a ROPE, the Bayesian test's
        probabilities)."""
        import pandas as pd

        rows = []
        for index, ((a, b), res) in enumerate(self.pairs.items()):
            test = res.tests[res.recommended]
            decisions = self.decisions[:, index]
            label = {1: f"{a} better", 0: "no difference", -1: f"{b} better"}
            row = {"first": a, "second": b, "mean difference": res.mean_difference,
                   "statistic": float(test.statistic), "pvalue": float(test.pvalue),
                   f"pvalue {self.correction}": float(self.adjusted[0, index]),
                   "decision": label[int(decisions[0])],
                   "replicability R2": float(replicability_r2(decisions)) if self.n_repeats >= 2 else np.nan}
            if res.bayesian is not None:
                probs = [float(np.atleast_1d(p)[0]) for p in res.bayesian]
                row.update({"P(first better)": probs[0], "P(equivalent)": probs[1],
                            "P(second better)": probs[2], "Bayesian decision": str(res.bayesian_decisions()[0])})
            rows.append(row)
        return pd.DataFrame(rows).set_index(["first", "second"])

    def to_dict(self):
        """Plain Python values (JSON-ready): the pairs, the ranking and their replicability."""
        first = next(iter(self.pairs.values()))
        frame = self.to_frame().reset_index()
        return {"learners": self.learners, "scheme": first.scheme, "scoring": first.scoring, "alpha": self.alpha,
                "correction": self.correction, "n_repeats": self.n_repeats, "rope": self.rope,
                "pairs": [{k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}
                          for row in frame.to_dict(orient="records")],
                "ranking": self.ranking().reset_index().to_dict(orient="records"),
                "ranking_replicability": self.ranking_replicability()}

    def summary(self):
        """The comparison in a few plain lines."""
        first = next(iter(self.pairs.values()))
        n_repeats, n_runs, n_folds, k = self.scores.shape
        lines = [f"Comparison of {k} learners: {first.scheme}, {n_runs * n_folds} splits per randomization, "
                 f"{n_repeats} randomization{'s' if n_repeats > 1 else ''}; score: {first.scoring}; "
                 f"{len(self.pairs)} pairs, {first.recommended} with {self.correction.capitalize()}'s correction "
                 f"at alpha = {self.alpha:g}"]
        ranking = self.ranking()
        lines.append("ranking by mean score: " + ", ".join(
            f"{name} {row['mean score']:.4f}" for name, row in ranking.iterrows()))
        agree = self.ranking_replicability()
        if agree is not None:
            lines.append(f"over randomizations: same ranking in {agree['same ranking']:.0%} of pairs of "
                         f"randomizations, same winner in {agree['same winner']:.0%}")
        frame = self.to_frame()
        for (a, b), row in frame.iterrows():
            lines.append(f"  {a} - {b}: {row['mean difference']:+.4f}, p {self.correction} "
                         f"{row[f'pvalue {self.correction}']:.4g} -> {row['decision']}"
                         + (f" (R2 {row['replicability R2']:.2f})" if n_repeats >= 2 else ""))
        return "\n".join(lines)


    def __repr__(self):
        return f"<PairwiseComparison of {len(self.learners)} learners, {len(self.pairs)} pairs>"


    def plot(self, ax=None):
        """The pairs' adjusted p-values and decisions as a matrix, and each learner's ranks over randomizations.

        Returns
        -------
        numpy.ndarray of matplotlib.axes.Axes
            The two panels.
        """
        plt = pyplot()
        k = len(self.learners)
        if ax is None:
            _, ax = plt.subplots(1, 2, figsize=(4 + 1.2 * k, 1.2 + 0.6 * k), constrained_layout=True)
        colours = np.full((k, k, 3), 1.0)
        for index, (a, b) in enumerate(self.pairs):
            i, j = self.learners.index(a), self.learners.index(b)
            d = int(self.decisions[0, index])
            colours[i, j] = colours[j, i] = (0.85, 0.85, 0.85) if d == 0 else (0.6, 0.8, 1.0)
            for row, col, sign in ((i, j, d), (j, i, -d)):
                mark = {1: "better", -1: "worse", 0: ""}[sign]
                ax[0].text(col, row, f"{self.adjusted[0, index]:.2g}\n{mark}", ha="center", va="center",
                           fontsize="small")
        ax[0].imshow(colours)
        ax[0].set_xticks(range(k), self.learners, rotation=30, ha="right")
        ax[0].set_yticks(range(k), self.learners)
        ax[0].set_title(f"row vs column: p ({self.correction}), first randomization", fontsize="small")
        ranks = self.ranks()
        left = np.zeros(k)
        for rank in range(1, k + 1):
            share = (ranks == rank).mean(axis=0)  # a tie's shared mean rank counts in no bar
            colour = plt.cm.viridis((rank - 1) / max(k - 1, 1))
            ax[1].barh(range(k), share, left=left, label=f"rank {rank}", color=colour)
            left += share
        ax[1].set_yticks(range(k), self.learners)
        ax[1].invert_yaxis()
        ax[1].set(xlabel=f"share of {self.n_repeats} randomizations", xlim=(0, 1))
        ax[1].legend(loc="lower right", fontsize="small", ncol=min(k, 4))
        return np.asarray(ax)
