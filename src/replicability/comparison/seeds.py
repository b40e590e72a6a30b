"""The learners' own randomness in a comparison: which ``random_state`` is drawn from ``rng`` for every split.

A learner cloned for every split with ``random_state=None`` draws its randomness from
the global state: two identical calls of :func:`~replicability.comparison.run.compare`
then give different scores. Every such parameter, nested ones included (the steps of a
pipeline, the transformers of a column transformer, the estimator of a meta-estimator),
is set here from a stream of ``rng`` separate from the splits', anew for every split and
randomization, so the same ``rng`` gives the same scores, and the learner's randomness is
varied over the randomizations as the splits are. A ``random_state`` the user fixed is
kept, as scikit-learn users expect (the learner's own randomness is then not varied),
unless ``estimator_seeds="all"`` asks for every one to be drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone

from .._validation import check_choice

__all__ = ["ESTIMATOR_SEEDS", "SeedPlan", "seed_plan", "seed_text", "seeded_clone"]

#: Values of ``estimator_seeds``: draw the ``random_state`` parameters left at None, or all of them.
ESTIMATOR_SEEDS = ("unset", "all")
_SEED_BOUND = 2**31 - 1  # scikit-learn's random_state: an int in [0, 2**32); numpy's legacy seeding bound


@dataclass(frozen=True)
class SeedPlan:
    """Which ``random_state`` parameters of one learner are drawn per split, and which are kept.

    Attributes
    ----------
    drawn : tuple of str
        Parameter names (``get_params(deep=True)`` keys ending in ``random_state``) set
        from ``rng`` for every split, in sorted order.
    fixed : dict of str to object
        Parameters kept at the value the user gave (an int or a ``RandomState``).
    """

    drawn: tuple
    fixed: dict

    def draw(self, generator, n_splits):
        """Seeds for ``n_splits`` splits from ``generator``: an int array (n_splits, len(drawn))."""
        return generator.integers(_SEED_BOUND, size=(n_splits, len(self.drawn)))


def seed_plan(estimator, estimator_seeds="unset"):
    """The :class:`SeedPlan` of ``estimator``: its ``random_state`` parameters at None (or all) are drawn.

    Parameters
    ----------
    estimator : scikit-learn estimator
    estimator_seeds : {"unset", "all"}, default "unset"
        ``"unset"``: draw the parameters left at None and keep the others;
        ``"all"``: draw every one, fixed ones too.

    Returns
    -------
    SeedPlan

    Examples
    --------
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.decomposition import PCA
    >>> plan = seed_plan(make_pipeline(PCA(random_state=0), RandomForestClassifier()))
    >>> plan.drawn, plan.fixed
    (('randomforestclassifier__random_state',), {'pca__random_state': 0})
    """
    check_choice(estimator_seeds, "estimator_seeds", ESTIMATOR_SEEDS)
    params = estimator.get_params(deep=True)
    names = sorted(name for name in params if name == "random_state" or name.endswith("__random_state"))
    drawn = tuple(name for name in names if estimator_seeds == "all" or params[name] is None)
    return SeedPlan(drawn=drawn, fixed={name: params[name] for name in names if name not in drawn})


def seeded_clone(estimator, names, seeds):
    """A clone of ``estimator`` with parameters ``names`` set to ``seeds`` (plain ints)."""
    model = clone(estimator)
    if names:
        model.set_params(**{name: int(seed) for name, seed in zip(names, seeds)})
    return model


def _fixed_text(fixed):
    return ", ".join(f"{name}={value!r}" if isinstance(value, (int, np.integer)) else f"{name}={type(value).__name__}"
                     for name, value in fixed.items())


def seed_text(label, plan):
    """How learner ``label``'s own randomness was treated, in a few words for the summary."""
    if not plan.drawn and not plan.fixed:
        return f"{label} has no random_state"
    parts = []
    if plan.drawn:
        parts.append(f"{', '.join(plan.drawn)} drawn from rng for every split")
    if plan.fixed:
        parts.append(f"{_fixed_text(plan.fixed)} kept as given (that randomness not varied)")
    return f"{label}: " + "; ".join(parts)
