"""The package's learners, sources, schemes and pair evaluators, registered with the runner.

Importing the engine fills the registries of :mod:`replicability.engine.runner`:

* learners ``"naive_bayes"``, ``"c45"``, ``"ib1"``, ``"tan"`` and
  ``"voted_perceptron"`` (the estimators of ``replicability.learners``);
* sources ``"independent_binary"``
  (:func:`~replicability.sources.synthetic.sample_independent_binary`) and
  ``"bayesnet"`` (:func:`~replicability.sources.bayesnet.bouckaert2003_source`);
* scheme ``"rxk_cv"`` (:func:`~replicability.engine.splits.rxk_cv_splits`, stratified
  r x k cv; the runner's own ``"cv"``, ``"resample"`` and ``"5x2"`` stay);
* pair evaluators for all 20 ordered pairs of the five learners, which fit both
  learners on all folds of a data set in compiled code when the attributes are
  binary (:mod:`replicability.learners.pairs`).
"""

from __future__ import annotations

import functools

from ..learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron
from ..learners.pairs import FAST_LEARNERS, evaluate_nb_c45, evaluate_pair_fast
from ..sources.bayesnet import bouckaert2003_source
from ..sources.synthetic import sample_independent_binary
from . import runner
from .splits import rxk_cv_splits

__all__ = ["register_all"]


def _evaluate_c45_nb(X, y, splits, *, params_a, params_b):
    # The same pair with A and B swapped: swap the two correct counts back.
    out = evaluate_nb_c45(X, y, splits, params_a=params_b, params_b=params_a)
    return out[:, [1, 0, 2]]


def _independent_binary(rng, *, n_instances, **params):
    return sample_independent_binary(n_instances, rng=rng, **params)


def _rxk_cv(*, n_runs=10, n_folds=10, stratified=True):
    """Stratified (by default) r x k cv from replicability.engine.splits, seeded per repeat."""

    def split(X, y, rng):
        seed = int(rng.integers(0, 2**32))
        flat, (r, k) = rxk_cv_splits(y, n_runs=n_runs, n_folds=n_folds, stratified=stratified,
                                     random_state=seed)
        return [flat[i * k:(i + 1) * k] for i in range(r)]

    return split


def register_all():
    """(Re)register every learner, source, scheme and pair evaluator of the package.

    Called when the engine is imported; call it again after replacing an entry by hand.
    """
    for name, factory in (("naive_bayes", NaiveBayes), ("c45", C45), ("ib1", IB1), ("tan", TAN),
                          ("voted_perceptron", VotedPerceptron)):
        runner.register_learner(name, factory)
    runner.register_source("independent_binary", _independent_binary)
    runner.register_source("bayesnet", bouckaert2003_source)
    runner.register_scheme("rxk_cv", _rxk_cv)
    for a in FAST_LEARNERS:
        for b in FAST_LEARNERS:
            if a != b:
                runner.register_pair_evaluator(
                    a, b, functools.partial(evaluate_pair_fast, learner_a=a, learner_b=b))
    # The fused naive Bayes / C4.5 kernel fits both learners in one pass: faster.
    runner.register_pair_evaluator("naive_bayes", "c45", evaluate_nb_c45)
    runner.register_pair_evaluator("c45", "naive_bayes", _evaluate_c45_nb)


register_all()
