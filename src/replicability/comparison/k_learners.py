"""k learners on one data set: every pair on the same splits, with multiplicity control.

``compare(estimators, X, y)`` with a list or dict of estimators fits all of them on
the same splits of every randomization (one pass through the runner of
:func:`~replicability.comparison.run.compare`) and analyses every pair as
:func:`~replicability.comparison.run.compare` analyses two learners; ``compare_scores(scores)`` with a dict of
score arrays does the same for scores computed elsewhere. The family of k(k-1)/2
pairwise tests is then adjusted by Holm's procedure (Holm 1979) or Bonferroni's
(:class:`~replicability.comparison.pairwise_result.PairwiseComparison`).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_choice
from .analysis import analyse_pair, fit_and_score, pair_scores, scoring_name
from .inputs import named_estimators
from .pairwise_result import CORRECTIONS, PairwiseComparison

__all__ = ["compare_learners", "compare_scores_of"]


def compare_learners(estimators, X, y, *, correction="holm", df=None, **options):
    """:func:`~replicability.comparison.run.compare` for a list or dict of estimators (its k-learner form)."""
    learners = dict(named_estimators(estimators))
    check_choice(correction, "correction", CORRECTIONS)
    if not isinstance(options["scoring"], (str, type(None))) and not callable(options["scoring"]):
        raise ValueError("Several metrics in `scoring` are supported for two learners only; compare k learners on "
                         "one metric at a time.")
    arguments = {label: f"estimators[{label!r}]" for label in learners}
    run = fit_and_score(learners, arguments, X, y, **options)
    labels = list(learners)

    def analyse(i, j):
        return analyse_pair(run.scores[..., i], run.scores[..., j], run.kind, run.n_train, run.n_test, alpha=run.alpha,
                        df=df, scheme=run.scheme, scoring=_score_name(options["scoring"], learners), seeds=run.seeds,
                        rope=run.rope, alternative=run.alternative, quick=options["quick"],
                        seed_plans={"A": run.seed_plans[labels[i]], "B": run.seed_plans[labels[j]]},
                        drawn_seeds={"A": run.drawn_seeds[labels[i]], "B": run.drawn_seeds[labels[j]]})

    return PairwiseComparison.from_pairs(labels, run.scores, analyse, correction=correction)


def _score_name(scoring, learners):
    estimators = list(learners.values())
    names = {scoring_name(scoring, a, b) for a, b in zip(estimators, estimators[1:])}
    return names.pop() if len(names) == 1 else "score"


def compare_scores_of(scores, *, scheme, n_train, n_test, alpha, df, rope, scoring, correction):
    """:func:`~replicability.comparison.run.compare_scores` for a dict of score arrays (its k-learner form)."""
    if len(scores) < 2 or not all(isinstance(name, str) and name for name in scores):
        raise ValueError("compare_scores(scores) takes a dict of at least 2 score arrays by learner name.")
    check_choice(correction, "correction", CORRECTIONS)
    labels = list(scores)

    def analyse(i, j):
        return pair_scores(scores[labels[i]], scores[labels[j]], scheme=scheme, n_train=n_train, n_test=n_test,
                           alpha=alpha, df=df, rope=rope, scoring=scoring)

    first = analyse(0, 1)  # checks the first two arrays and gives the common (repeats, runs, folds)
    for label in labels[2:]:
        if np.asarray(scores[label]).size != first.scores_a.size:
            raise ValueError(f"The scores of {label!r} have shape {np.shape(scores[label])}; those of "
                             f"{labels[0]!r} have {np.shape(scores[labels[0]])}: give every learner the same splits.")
    stacked = np.stack([np.asarray(scores[label], dtype=float).reshape(first.scores_a.shape) for label in labels],
                       axis=-1)
    return PairwiseComparison.from_pairs(labels, stacked, lambda i, j: first if (i, j) == (0, 1) else analyse(i, j),
                                         correction=correction)
