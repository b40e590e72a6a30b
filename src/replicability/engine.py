"""The real learners, sources and fast paths, registered with the experiment runner.

Importing this module fills the registries of :mod:`replicability.experiments`:

* learners ``"naive_bayes"``, ``"c45"``, ``"ib1"``, ``"tan"`` and
  ``"voted_perceptron"`` (the estimators of ``replicability.learners``);
* source ``"independent_binary"`` (:func:`~replicability.synthetic.sample_independent_binary`)
  and, when :mod:`replicability.bayesnet` provides it, ``"bayesnet"``;
* scheme ``"rxk_cv"`` (:func:`~replicability.splits.rxk_cv_splits`, stratified
  r x k cv; the runner's own ``"cv"``, ``"resample"`` and ``"5x2"`` stay);
* the pair evaluator of ``("naive_bayes", "c45")`` (and the swapped pair), which
  fits both learners on all folds of a data set in compiled code from
  (pattern, class) counts when the attributes are binary: :func:`evaluate_nb_c45`.

The evaluator gives exactly the counts of fitting the estimators fold by fold;
folds where the fast path's assumptions do not hold (a class or an attribute
value missing from the training fold, non-binary attributes, options the fast
path does not model) are evaluated by the estimators themselves.
"""

from __future__ import annotations

import numpy as np

from . import experiments
from .learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron
from .learners import _kernels
from .learners.fastpath import _c45_args
from .splits import rxk_cv_splits
from .synthetic import sample_independent_binary

__all__ = ["evaluate_nb_c45", "evaluate_pair_loop", "register_all"]

#: Options of C45 that the count-based path models (others force the loop).
_C45_FAST_OPTIONS = {"confidence", "min_num_obj", "subtree_raising"}
#: Largest number of binary attributes for the pattern path (patterns are int64 bit codes).
_MAX_PATTERN_ATTRIBUTES = 62


def evaluate_pair_loop(X, y, splits, *, learner_a, learner_b, params_a=None, params_b=None):
    """Fit and evaluate two estimators fold by fold (the reference path).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_attributes)
    y : array-like of shape (n_samples,)
    splits : sequence of (train, test) index arrays
    learner_a, learner_b : callable
        Factories ``factory(**params)`` of unfitted estimators.
    params_a, params_b : dict, optional
        Keyword arguments of the factories.

    Returns
    -------
    ndarray of shape (len(splits), 3), dtype int64
        ``correct_a, correct_b, correct_both`` per split.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.engine import evaluate_pair_loop
    >>> from replicability.learners import C45, NaiveBayes
    >>> X = np.array([[0, 1], [1, 1], [1, 0], [0, 0]] * 5)
    >>> y = X[:, 0]
    >>> splits = [(np.arange(10), np.arange(10, 20))]
    >>> evaluate_pair_loop(X, y, splits, learner_a=NaiveBayes, learner_b=C45)
    array([[10, 10, 10]])
    """
    X, y = np.asarray(X), np.asarray(y)
    params_a, params_b = params_a or {}, params_b or {}
    out = np.empty((len(splits), 3), dtype=np.int64)
    for i, (train, test) in enumerate(splits):
        hit_a = learner_a(**params_a).fit(X[train], y[train]).predict(X[test]) == y[test]
        hit_b = learner_b(**params_b).fit(X[train], y[train]).predict(X[test]) == y[test]
        out[i] = hit_a.sum(), hit_b.sum(), (hit_a & hit_b).sum()
    return out


def _check_splits(splits, n):
    """Every split is a (train, test) pair of integer indices in [0, n).

    Returns the train and test indices of all splits concatenated, with the
    number of indices of each split: ``(train, n_train, test, n_test)``.
    """
    for split in splits:
        if len(split) != 2:
            raise ValueError(f"`splits` must hold (train, test) pairs; got {split!r}.")
    out = []
    for which in (0, 1):
        parts = [np.asarray(split[which]) for split in splits]
        filled = [part.ravel() for part in parts if part.size]
        flat = np.concatenate(filled) if filled else np.zeros(0, dtype=np.int64)
        if flat.size and (flat.dtype.kind not in "iu" or flat.min() < 0 or flat.max() >= n):
            # Vectorized test above; name the first offending part only when one exists.
            for part in parts:
                if part.size and (part.dtype.kind not in "iu" or part.min() < 0 or part.max() >= n):
                    raise ValueError(f"`splits` must hold integer indices in [0, {n}); got {part!r}.")
        out += [flat.astype(np.int64), np.array([part.size for part in parts], dtype=np.int64)]
    return tuple(out)


def _nb_fast_ok(params):
    # NaiveBayes() and NaiveBayes(n_values=2) on binary data are the pattern
    # model once every value is seen in training (n_values = max + 1 = 2).
    return set(params) <= {"n_values", "n_classes"} and params.get("n_values") in (None, 2) \
        and params.get("n_classes") is None


def _c45_fast_ok(params):
    return set(params) <= _C45_FAST_OPTIONS | {"n_values", "n_classes"} and params.get("n_values") in (None, 2) \
        and params.get("n_classes") is None


def evaluate_nb_c45(X, y, splits, *, params_a=None, params_b=None):
    """Correct counts of naive Bayes (A) and C4.5 (B) on every split, all folds at once.

    Counts the training instances of every split per (distinct row, class) and
    fits Weka's naive Bayes and J48 on each split from these counts in one
    compiled loop (``replicability.learners._kernels``, numba), scoring
    each test set on the way. The counts are those of fitting
    ``NaiveBayes(**params_a)`` and ``C45(**params_b)`` on each training set and
    predicting its test set.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_attributes)
        Binary attributes (codes 0/1). Anything else is evaluated fold by fold.
    y : array-like of shape (n_samples,)
        Class labels.
    splits : sequence of (train, test) index arrays
        Every split of the data set (all repeats, runs and folds).
    params_a : dict, optional
        Options of :class:`~replicability.learners.NaiveBayes`.
    params_b : dict, optional
        Options of :class:`~replicability.learners.C45`.

    Returns
    -------
    ndarray of shape (len(splits), 3), dtype int64
        ``correct_a, correct_b, correct_both`` per split.

    Notes
    -----
    The estimators fix their classes and attribute values from each training
    fold; the pattern path assumes both values of every attribute and every
    class of ``y`` occur in it (and at most 62 attributes). Splits where this fails, and option values the
    pattern path does not model (``prune=False``, ``collapse=False``, explicit
    ``n_classes``), are evaluated by the estimators, so the result never
    depends on which path ran.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.engine import evaluate_nb_c45
    >>> from replicability.splits import rxk_cv_splits
    >>> from replicability.synthetic import sample_independent_binary
    >>> X, y = sample_independent_binary(300, rng=0)
    >>> splits, shape = rxk_cv_splits(y, n_runs=10, n_folds=10, random_state=0)
    >>> counts = evaluate_nb_c45(X, y, splits)
    >>> counts.shape
    (100, 3)
    >>> bool(np.all(counts[:, 2] <= counts[:, :2].min(axis=1)))
    True
    """
    X, y = np.asarray(X), np.asarray(y)
    params_a, params_b = dict(params_a or {}), dict(params_b or {})
    n_splits = len(splits)
    train, n_train, test, n_test = _check_splits(splits, len(y))
    binary = X.ndim == 2 and X.dtype.kind in "iub" and X.shape[1] <= _MAX_PATTERN_ATTRIBUTES \
        and X.size > 0 and X.min() >= 0 and X.max() <= 1
    if not (binary and _nb_fast_ok(params_a) and _c45_fast_ok(params_b)) or n_splits == 0:
        return evaluate_pair_loop(X, y, splits, learner_a=NaiveBayes, learner_b=C45,
                                  params_a=params_a, params_b=params_b)
    n, p = X.shape
    classes, codes = np.unique(y, return_inverse=True)
    codes = codes.ravel()
    k = classes.size
    # Distinct rows (patterns) of the data set: the kernels work on at most n of them.
    shifts = np.arange(p - 1, -1, -1, dtype=np.int64)
    uniq, row = np.unique((X.astype(np.int64) << shifts).sum(axis=1), return_inverse=True)
    row = row.ravel()
    bits = ((uniq[:, None] >> shifts) & 1).astype(np.int8)
    n_rows = uniq.size
    # Training counts per (split, pattern, class); repeated indices count twice.
    split_of = np.repeat(np.arange(n_splits), n_train)
    W = np.bincount(split_of * (n_rows * k) + row[train] * k + codes[train],
                    minlength=n_splits * n_rows * k).reshape(n_splits, n_rows, k).astype(float)
    # Folds the pattern path models: every class and both values of every attribute trained on.
    per_row = W.sum(axis=2)
    ones = per_row @ bits
    fast = (W.sum(axis=1) > 0).all(axis=1) & (ones > 0).all(axis=1) \
        & (ones < per_row.sum(axis=1, keepdims=True)).all(axis=1)
    out = np.zeros((n_splits, 3), dtype=np.int64)
    if fast.any():
        fast_idx = np.flatnonzero(fast)
        keep = np.repeat(fast, n_test)
        test_start = np.concatenate([[0], np.cumsum(n_test[fast_idx])])
        m, logt, cf, z = _c45_args(params_b.get("confidence", 0.25), params_b.get("min_num_obj", 2),
                                   n_train.max())
        out[fast_idx] = _kernels.evaluate_folds(
            bits, np.ascontiguousarray(W[fast_idx]), row[test[keep]], codes[test[keep]], test_start,
            m, logt, cf, z, bool(params_b.get("subtree_raising", True)))
    slow = np.flatnonzero(~fast)
    if slow.size:
        out[slow] = evaluate_pair_loop(X, y, [splits[i] for i in slow], learner_a=NaiveBayes,
                                       learner_b=C45, params_a=params_a, params_b=params_b)
    return out


def _evaluate_c45_nb(X, y, splits, *, params_a, params_b):
    # The same pair with A and B swapped: swap the two correct counts back.
    out = evaluate_nb_c45(X, y, splits, params_a=params_b, params_b=params_a)
    return out[:, [1, 0, 2]]


def _independent_binary(rng, *, n_instances, **params):
    return sample_independent_binary(n_instances, rng=rng, **params)


def _rxk_cv(*, n_runs=10, n_folds=10, stratified=True):
    """Stratified (by default) r x k cv from replicability.splits, seeded per repeat."""

    def split(X, y, rng):
        seed = int(rng.integers(0, 2**32))
        flat, (r, k) = rxk_cv_splits(y, n_runs=n_runs, n_folds=n_folds, stratified=stratified,
                                     random_state=seed)
        return [flat[i * k:(i + 1) * k] for i in range(r)]

    return split


def _register_bayesnet():
    """Register the Bayesian-network source of replicability.bayesnet, if present.

    The module is written separately; its runner-shaped factory is
    ``bouckaert2003_source(rng, *, n_instances, source)``. Until it exists the
    source is simply not registered.
    """
    try:
        from . import bayesnet
    except ImportError:  # pragma: no cover - depends on the other module's state
        return
    factory = getattr(bayesnet, "bouckaert2003_source", None)
    if factory is not None:
        experiments.register_source("bayesnet", factory)


def register_all():
    """(Re)register every learner, source, scheme and pair evaluator of this module.

    Called on import; call it again after replacing an entry by hand.
    """
    for name, factory in (("naive_bayes", NaiveBayes), ("c45", C45), ("ib1", IB1), ("tan", TAN),
                          ("voted_perceptron", VotedPerceptron)):
        experiments.register_learner(name, factory)
    experiments.register_source("independent_binary", _independent_binary)
    _register_bayesnet()
    experiments.register_scheme("rxk_cv", _rxk_cv)
    experiments.register_pair_evaluator("naive_bayes", "c45", evaluate_nb_c45)
    experiments.register_pair_evaluator("c45", "naive_bayes", _evaluate_c45_nb)


register_all()
