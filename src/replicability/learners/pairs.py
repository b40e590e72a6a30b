"""Correct counts of two (or k) learners on every split: fold by fold, or all folds at once in compiled code.

:func:`evaluate_pair_loop` fits the estimators split by split (the reference).
For binary attributes, :func:`evaluate_nb_c45` fits Weka's naive Bayes and J48
on every split from (pattern, class) counts in one fused kernel
(``replicability.learners._kernels``), and :func:`evaluate_pair_fast` takes the
per-instance hits of any two of the five learners on every fold
(``replicability.learners._kernels_more``) and combines them per split;
:func:`evaluate_learners` does the same for any number of learners, each fitted
once per split.

The fast paths give exactly the counts of fitting the estimators fold by fold;
folds where a fast path's assumptions do not hold (a class or an attribute value
missing from the training fold, for the learners whose model depends on it;
non-binary attributes; more than 62 attributes for IB1, TAN and the voted
perceptron; options the fast path does not model) are evaluated by the
estimators themselves.

The fast paths run with the garbage collector paused (the preparation and the
counting of :func:`evaluate_nb_c45` and :func:`evaluate_pair_fast`, all of
:func:`evaluate_learners`; ``replicability._collector``): no collection of the
Python heap falls inside a kernel call, and those due run after it.
"""

from __future__ import annotations

import functools
import numbers

import numpy as np
from sklearn.utils import check_random_state

from .._collector import paused
from . import _kernels, _kernels_more
from .c45 import C45
from .fastpath import _c45_args
from .naive_bayes import NaiveBayes
from .neighbors import IB1
from .perceptron import VotedPerceptron, _weka_shuffle_order
from .tan import TAN

__all__ = ["FAST_LEARNERS", "evaluate_learners", "evaluate_nb_c45", "evaluate_pair_fast", "evaluate_pair_loop"]

#: Options of C45 that the count-based path models (others force the loop).
_C45_FAST_OPTIONS = {"confidence_factor", "min_num_obj", "subtree_raising"}
#: Attributes per int64 word of a packed row (bits 0-61: shifts and masks stay positive).
_WORD_BITS = 62


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
    >>> from replicability.learners.pairs import evaluate_pair_loop
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


class _Splits:
    """Checked splits as the kernels read them.

    ``concatenated`` is ``(train, n_train, test, n_test)``: the train and test
    indices of all splits concatenated, with the number of indices of each
    split. ``labels`` is ``(folds, n_folds)`` when the splits are runs of
    k-fold cv given by fold labels (the engine's), else None; then
    ``concatenated`` is built only when read (a kernel that takes the labels
    needs no index arrays).
    """

    def __init__(self, n_train, n_test, concatenated=None, labelled=None):
        self.n_train, self.n_test = n_train, n_test
        self._concatenated, self._labelled = concatenated, labelled
        self.labels = labelled.labels if labelled is not None else None

    @functools.cached_property
    def concatenated(self):
        return self._concatenated if self._concatenated is not None else self._labelled.concatenated


def _check_splits(splits, n):
    """Every split is a (train, test) pair of integer indices in [0, n); as :class:`_Splits`.

    Splits that hold their concatenated indices as ``splits.concatenated`` (the
    engine's cv schemes) are only range-checked, and not even that when
    ``splits.n_samples`` says they were built for ``n`` instances; those built
    from fold labels keep them (``splits.labels``).
    """
    built_for_n = getattr(splits, "n_samples", None) == n  # then every index is in range
    if built_for_n and getattr(splits, "labels", None) is not None:  # not reading the index arrays builds none
        return _Splits(splits.n_train, splits.n_test, labelled=splits)
    flat = getattr(splits, "concatenated", None)
    if flat is not None:
        if built_for_n:
            return _Splits(flat[1], flat[3], flat)
        for part in (flat[0], flat[2]):
            if part.size and (part.min() < 0 or part.max() >= n):
                raise ValueError(f"`splits` must hold integer indices in [0, {n}); got values in "
                                 f"[{part.min()}, {part.max()}].")
        return _Splits(flat[1], flat[3], flat)
    for split in splits:
        if len(split) != 2:
            raise ValueError(f"`splits` must hold (train, test) pairs; got {split!r}.")
    out = []
    for parts in zip(*splits) if len(splits) else ((), ()):
        # One call for the usual integer arrays; an empty list among them makes the result float.
        flat = np.concatenate(parts, axis=None) if parts else np.zeros(0, dtype=np.int64)
        try:  # len is the size of the usual 1-d parts, and much cheaper than np.size
            sizes = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
        except TypeError:  # a scalar index
            sizes = None
        if sizes is None or sizes.sum() != flat.size:
            sizes = np.array([np.size(part) for part in parts], dtype=np.int64)
        if flat.dtype.kind not in "iu":
            filled = [np.ravel(part) for part in parts if np.size(part)]
            flat = np.concatenate(filled) if filled else np.zeros(0, dtype=np.int64)
        if flat.size and (flat.dtype.kind not in "iu" or flat.min() < 0 or flat.max() >= n):
            # Vectorized test above; name the first offending part only when one exists.
            for part in map(np.asarray, parts):
                if part.size and (part.dtype.kind not in "iu" or part.min() < 0 or part.max() >= n):
                    raise ValueError(f"`splits` must hold integer indices in [0, {n}); got {part!r}.")
        out += [flat.astype(np.int64, copy=False), sizes]
    return _Splits(out[1], out[3], tuple(out))


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
    class of ``y`` occur in it (any number of attributes). Splits where this
    fails, and option values the pattern path does not model (``prune=False``, ``collapse=False``, explicit
    ``n_classes``), are evaluated by the estimators, so the result never
    depends on which path ran.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.learners.pairs import evaluate_nb_c45
    >>> from replicability.engine.splits import rxk_cv_splits
    >>> from replicability.sources.synthetic import sample_independent_binary
    >>> X, y = sample_independent_binary(300, rng=0)
    >>> splits, shape = rxk_cv_splits(y, n_runs=10, n_folds=10, random_state=0)
    >>> counts = evaluate_nb_c45(X, y, splits)
    >>> counts.shape
    (100, 3)
    >>> bool(np.all(counts[:, 2] <= counts[:, :2].min(axis=1)))
    True
    """
    return _prepare_nb_c45(X, y, splits, params_a=params_a, params_b=params_b)()


def _prepare_nb_c45(X, y, splits, *, params_a=None, params_b=None):
    # Every split goes to the kernel, which tells from each tree's root counts
    # whether the split is one it models ("complete"), in the same pass.
    return _prepare_paths(X, y, splits, (NaiveBayes, C45), (params_a, params_b), (_nb_fast_ok, _c45_fast_ok), (),
                          _counts_nb_c45)


evaluate_nb_c45.prepare = _prepare_nb_c45


def _counts_nb_c45(data, folds, params_a, params_b):
    # The kernel's arguments now: between two kernel calls of a runner's group, only the call and its results.
    c45 = (*_c45_args(params_b.get("confidence_factor", 0.25), params_b.get("min_num_obj", 2), data.n_train.max()),
           bool(params_b.get("subtree_raising", True)))
    if folds.labels is not None:  # runs of k-fold cv: the kernel reads the fold labels
        evaluate = functools.partial(_kernels.evaluate_runs, *data.patterns(None), *folds.labels, *c45)
    else:
        evaluate = functools.partial(_kernels.evaluate_folds, *data.patterns(folds), *c45)

    def count():
        out = evaluate()
        return out[:, :3], out[:, 3] != 0

    return count


@paused
def _prepare_paths(X, y, splits, learners, params, fast_ok, fast_splits, fast_counts):
    """Correct counts from the compiled path where it applies, from :func:`evaluate_pair_loop` elsewhere.

    In two steps: the checks and the summaries of the data and splits now, and
    a callable (of no arguments) that counts. ``fast_ok`` holds one check of the
    options per learner; ``fast_splits`` names the :class:`_BinaryData` masks of
    the splits the kernels model; and ``fast_counts(data, folds, params_a,
    params_b)``, called now, returns a callable that counts the splits of
    ``folds`` and says which of them it modelled (the others go to the loop too).
    Both steps run with the garbage collector paused.
    """
    X, y = np.asarray(X), np.asarray(y)
    params_a, params_b = (dict(p or {}) for p in params)
    n_splits = len(splits)
    checked = _check_splits(splits, len(y))
    data = _binary_data(X, y, checked) if n_splits and fast_ok[0](params_a) and fast_ok[1](params_b) else None
    loop = functools.partial(evaluate_pair_loop, X, y, learner_a=learners[0], learner_b=learners[1],
                             params_a=params_a, params_b=params_b)
    if data is None:
        return functools.partial(loop, splits)
    fast = np.ones(n_splits, dtype=bool)
    for name in fast_splits:
        fast &= getattr(data, name)
    every, counts = bool(fast.all()), fast_counts(data, data.folds(fast), params_a, params_b)

    @paused
    def count():
        if every:  # the usual case: every split to the kernels, no masks to apply
            out, modelled = counts()
        else:
            out, modelled = np.zeros((n_splits, 3), dtype=np.int64), fast.copy()
            if fast.any():
                out[fast], modelled[fast] = counts()
        if not modelled.all():
            slow = np.flatnonzero(~modelled)
            out[slow] = loop([splits[i] for i in slow])
        return out

    return count


def _distinct(a):
    """``np.unique(a)`` of a 1-d array; for integers from a sort, a third of the cost of numpy 2's hashing."""
    if a.dtype.kind not in "iub" or a.size == 0:
        return np.unique(a)
    ordered = np.sort(a)
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def _binary_data(X, y, splits):
    """:class:`_BinaryData` of ``X``, ``y`` and the checked ``splits`` if the kernels can take ``X`` (0/1 integer
    codes), else None."""
    if not (X.ndim == 2 and X.dtype.kind in "iub" and X.size > 0 and y.ndim == 1 and y.shape[0] == X.shape[0]):
        return None
    words, binary = _kernels.pack_rows(X, _WORD_BITS)
    return _BinaryData(X, y, splits, words) if binary else None


class _Folds:
    """A batch of splits as the kernels take them: indices concatenated, with starts (built when first read).

    ``labels`` are the fold labels when the batch is all of a :class:`_Splits` that has them, else None.
    """

    def __init__(self, splits, keep):
        self._splits, self._keep = splits, None if keep.all() else keep  # the usual case keeps all: no copies
        self.labels = splits.labels if self._keep is None else None
        self.n_train = splits.n_train if self._keep is None else splits.n_train[keep]

    @functools.cached_property
    def _arrays(self):
        train, n_train, test, n_test = self._splits.concatenated
        keep = self._keep
        if keep is not None:
            train, test, n_test = train[np.repeat(keep, n_train)], test[np.repeat(keep, n_test)], n_test[keep]
        return train, _starts(self.n_train), test, _starts(n_test)

    train = property(lambda self: self._arrays[0])
    train_start = property(lambda self: self._arrays[1])
    test = property(lambda self: self._arrays[2])
    test_start = property(lambda self: self._arrays[3])


class _BinaryData:
    """One data set of binary attributes and its splits, with what the fast paths check per split.

    ``complete[i]``: every class of ``y`` and both values of every attribute
    occur in the training set of split ``i`` (the estimators then fix the same
    classes and categories as the kernels); ``two_classes[i]``: ``y`` has two
    classes and both occur in it; ``narrow[i]``: a row fits one int64 word
    (at most 62 attributes), as the kernels of IB1, TAN and the voted
    perceptron take it.

    A row is packed into ``words`` (n, ceil(p / 62)) of int64: attribute
    ``j`` is bit ``j % 62`` of word ``j // 62``; ``packed`` is the first word.
    """

    def __init__(self, X, y, splits, words):
        self.X = X
        classes = _distinct(y)
        # The inverse of np.unique, at a fraction of its cost: classes is sorted and holds every label.
        self.codes = np.searchsorted(classes, y).astype(np.int64)
        self.n_classes = classes.size
        self.n_attributes = X.shape[1]
        self.words = words
        self.packed = words[:, 0]
        self.splits = splits
        self.n_train = splits.n_train

    @property
    def any_train(self):
        return self.n_train > 0

    @property
    def narrow(self):
        return np.full(self.n_train.size, self.words.shape[1] == 1)

    @functools.cached_property
    def _summary(self):
        """Per split: the classes present in training, the AND and the OR of its packed rows."""
        return _kernels_more.fold_summary(self.words, self.codes, self.n_classes, self.splits.concatenated[0],
                                          _starts(self.n_train))

    @property
    def complete(self):
        present, all_on, any_on = self._summary
        width = np.minimum(_WORD_BITS, self.n_attributes - np.arange(0, self.n_attributes, _WORD_BITS))
        full = (np.int64(1) << width) - 1
        return present.all(axis=1) & ((all_on & full) == 0).all(axis=1) & (any_on == full).all(axis=1)

    @property
    def two_classes(self):
        return self._summary[0].all(axis=1) & (self.n_classes == 2)

    def folds(self, keep):
        return _Folds(self.splits, keep)

    @functools.cached_property
    def _distinct_rows(self):
        """Distinct rows ``bits`` (U, p), in ascending order of their words, and the distinct row of every instance."""
        if self.words.shape[1] > 1:
            _, first, row = np.unique(self.words, axis=0, return_index=True, return_inverse=True)
            return np.ascontiguousarray(self.X[first], dtype=np.int8), row.ravel()
        # One word: the distinct words are the rows (bit j is attribute j), much faster to find than rows.
        return _kernels.distinct_rows(self.packed, np.argsort(self.packed), self.n_attributes)

    def patterns(self, folds):
        """The pattern kernels' view of ``folds``.

        Distinct rows ``bits`` (U, p), the distinct row and the class code of
        every instance, the number of classes, and the training indices with
        the start of each fold, then the same for the test indices; with
        ``folds=None``, the first four only.
        """
        bits, row = self._distinct_rows
        if folds is None:
            return bits, row, self.codes, self.n_classes
        return (bits, row, self.codes, self.n_classes, folds.train, folds.train_start, folds.test,
                folds.test_start)


def _hits_nb(data, folds, params):
    return _kernels_more.nb_hits(*data.patterns(folds))


def _hits_c45(data, folds, params):
    m, logt, cf, z = _c45_args(params.get("confidence_factor", 0.25), params.get("min_num_obj", 2),
                               max(1, int(folds.n_train.max(initial=0))))
    return _kernels_more.c45_hits(*data.patterns(folds), m, logt, cf, z,
                                  bool(params.get("subtree_raising", True)))


def _hits_ib1(data, folds, params):
    return _kernels_more.ib1_hits(data.packed, data.codes, folds.train, folds.train_start, folds.test,
                                  folds.test_start)


def _hits_tan(data, folds, params):
    return _kernels_more.tan_hits(data.packed, data.n_attributes, data.n_classes, data.codes, folds.train,
                                  folds.train_start, folds.test, folds.test_start, float(params.get("alpha", 0.5)))


def _hits_vp(data, folds, params):
    seed = params.get("random_state", 1)
    weka = params.get("weka_shuffle", False)
    # The estimator's training order depends only on the training-set size and the seed.
    sizes, which = np.unique(folds.n_train, return_inverse=True)
    orders = [_weka_shuffle_order(int(n), seed) if weka else check_random_state(seed).permutation(int(n))
              for n in sizes]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    perm = np.concatenate(orders).astype(np.int64) if orders else np.zeros(0, dtype=np.int64)
    return _kernels_more.vp_hits(data.packed, data.n_attributes, data.codes, folds.train, folds.train_start,
                                 folds.test, folds.test_start, perm, starts[which.ravel()],
                                 int(params.get("n_iter", 1)), int(params.get("max_k", 10000)))


def _is_int(value, low=1):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= low


def _ib1_fast_ok(params):
    return set(params) <= {"attribute_types", "weka_range_update"} and params.get("attribute_types") is None \
        and isinstance(params.get("weka_range_update", False), (bool, np.bool_))


def _tan_fast_ok(params):
    alpha = params.get("alpha", 0.5)
    return set(params) <= {"alpha"} and isinstance(alpha, numbers.Real) and not isinstance(alpha, bool) \
        and 0 < alpha < np.inf


def _vp_fast_ok(params):
    # Integer seeds only: a RandomState or None would draw a new order per fit.
    seed, exponent = params.get("random_state", 1), params.get("exponent", 1.0)
    return set(params) <= {"n_iter", "exponent", "max_k", "random_state", "weka_shuffle"} \
        and _is_int(params.get("n_iter", 1)) and _is_int(params.get("max_k", 10000)) \
        and _is_int(seed, low=0) and seed < 2**32 and params.get("weka_shuffle", False) in (False, True) \
        and isinstance(exponent, numbers.Real) and not isinstance(exponent, bool) and exponent == 1.0


#: Per learner: the estimator, its options the kernels model, the splits they
#: handle (attributes of _BinaryData, all true) and the batched hits function.
_FAST_LEARNERS = {
    "naive_bayes": (NaiveBayes, _nb_fast_ok, ("complete",), _hits_nb),
    "c45": (C45, _c45_fast_ok, ("complete",), _hits_c45),
    "ib1": (IB1, _ib1_fast_ok, ("any_train", "narrow"), _hits_ib1),
    "tan": (TAN, _tan_fast_ok, ("complete", "narrow"), _hits_tan),
    "voted_perceptron": (VotedPerceptron, _vp_fast_ok, ("two_classes", "narrow"), _hits_vp),
}
#: Names of the learners :func:`evaluate_pair_fast` takes.
FAST_LEARNERS = tuple(_FAST_LEARNERS)


def evaluate_pair_fast(X, y, splits, *, learner_a, learner_b, params_a=None, params_b=None):
    """Correct counts of two of the five learners on every split, from compiled per-instance hits.

    For binary attributes, each learner is fitted on every training set and
    scores every test instance in one compiled loop per learner
    (``replicability.learners._kernels_more``, numba); the hits of the two
    learners are then counted per split. The counts are those of
    :func:`evaluate_pair_loop` with the estimators.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_attributes)
        Binary attributes (codes 0/1). Anything else is evaluated fold by fold.
    y : array-like of shape (n_samples,)
        Class labels.
    splits : sequence of (train, test) index arrays
        Every split of the data set (all repeats, runs and folds).
    learner_a, learner_b : {"naive_bayes", "c45", "ib1", "tan", "voted_perceptron"}
        Registered names of the two learners.
    params_a, params_b : dict, optional
        Options of the two estimators.

    Returns
    -------
    ndarray of shape (len(splits), 3), dtype int64
        ``correct_a, correct_b, correct_both`` per split.

    Notes
    -----
    The fast path models: ``NaiveBayes`` and ``C45`` as :func:`evaluate_nb_c45`;
    ``IB1`` without ``attribute_types``; ``TAN`` with any ``alpha``;
    ``VotedPerceptron`` with ``exponent=1`` and an integer ``random_state``.
    Other options, non-binary attributes and, for IB1, TAN and the voted
    perceptron, more than 62 attributes send every split to
    :func:`evaluate_pair_loop`; so do single splits the kernels
    do not model: for naive Bayes, C4.5 and TAN a class of ``y`` or a value of
    an attribute missing from the training set (the estimators then fix other
    classes or categories); for the voted perceptron anything but two classes,
    both in the training set (the estimator raises on more than two); for IB1
    an empty training set. The result never depends on which path ran.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.learners.pairs import evaluate_pair_fast
    >>> from replicability.engine.splits import rxk_cv_splits
    >>> from replicability.sources.synthetic import sample_independent_binary
    >>> X, y = sample_independent_binary(300, rng=0)
    >>> splits, shape = rxk_cv_splits(y, n_runs=10, n_folds=10, random_state=0)
    >>> counts = evaluate_pair_fast(X, y, splits, learner_a="ib1", learner_b="tan")
    >>> counts.shape
    (100, 3)
    >>> bool(np.all(counts[:, 2] <= counts[:, :2].min(axis=1)))
    True
    """
    return _prepare_pair_fast(X, y, splits, learner_a=learner_a, learner_b=learner_b, params_a=params_a,
                              params_b=params_b)()


def _prepare_pair_fast(X, y, splits, *, learner_a, learner_b, params_a=None, params_b=None):
    for name, which in ((learner_a, "learner_a"), (learner_b, "learner_b")):
        if name not in _FAST_LEARNERS:
            raise ValueError(f"`{which}` must be one of {sorted(_FAST_LEARNERS)}; got {name!r}.")
    est_a, ok_a, folds_a, hits_a = _FAST_LEARNERS[learner_a]
    est_b, ok_b, folds_b, hits_b = _FAST_LEARNERS[learner_b]
    return _prepare_paths(X, y, splits, (est_a, est_b), (params_a, params_b), (ok_a, ok_b), folds_a + folds_b,
                          lambda data, folds, params_a, params_b: functools.partial(
                              _counts_from_hits, hits_a, hits_b, data, folds, params_a, params_b))


evaluate_pair_fast.prepare = _prepare_pair_fast


def _counts_from_hits(hits_a, hits_b, data, folds, params_a, params_b):
    """Per split of ``folds``: the test instances A, B and both get right, from per-instance hits.

    Every split of ``folds`` is modelled (the second value, all true).
    """
    a = hits_a(data, folds, params_a)
    b = hits_b(data, folds, params_b)
    n_splits = folds.n_train.size
    split_of = np.repeat(np.arange(n_splits), np.diff(folds.test_start))
    counts = np.stack([np.bincount(split_of, weights=hit, minlength=n_splits) for hit in (a, b, a & b)], axis=-1)
    return counts.astype(np.int64), np.ones(n_splits, dtype=bool)


@paused
def evaluate_learners(X, y, splits, *, learners, params=None):
    """Joint correct counts of k learners on every split, each learner fitted once per split.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_attributes)
    y : array-like of shape (n_samples,)
    splits : sequence of (train, test) index arrays
        Every split of the data set (all repeats, runs and folds).
    learners : sequence of (name, factory)
        The learners: ``factory(**params)`` returns an unfitted estimator. A learner
        whose name is in :data:`FAST_LEARNERS` and whose factory is the package's
        estimator of that name is evaluated by its compiled kernel where the kernel
        models the split (as in :func:`evaluate_pair_fast`), by fitting elsewhere.
    params : sequence of dict, optional
        Options of each learner.

    Returns
    -------
    ndarray of shape (len(splits), k, k), dtype int64
        ``[s, i, j]``: test instances of split ``s`` that learners ``i`` and ``j``
        both classify correctly; the diagonal is each learner's correct count.

    Notes
    -----
    Runs with the garbage collector paused (``replicability._collector``): no
    collection of the Python heap falls inside a kernel call.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.learners import C45, IB1, NaiveBayes
    >>> from replicability.engine.splits import rxk_cv_splits
    >>> from replicability.sources.synthetic import sample_independent_binary
    >>> X, y = sample_independent_binary(200, rng=0)
    >>> splits, _ = rxk_cv_splits(y, n_runs=2, n_folds=5, random_state=0)
    >>> learners = [("naive_bayes", NaiveBayes), ("c45", C45), ("ib1", IB1)]
    >>> counts = evaluate_learners(X, y, splits, learners=learners)
    >>> counts.shape
    (10, 3, 3)
    >>> pair = evaluate_pair_fast(X, y, splits, learner_a="c45", learner_b="ib1")
    >>> bool((counts[:, [1, 2, 1], [1, 2, 2]] == pair).all())
    True
    """
    X, y = np.asarray(X), np.asarray(y)
    learners = list(learners)
    if not learners:
        raise ValueError("`learners` must name at least one learner; got none.")
    params = [dict(p or {}) for p in (params if params is not None else [{}] * len(learners))]
    if len(params) != len(learners):
        raise ValueError(f"`params` must hold one dict per learner ({len(learners)}); got {len(params)}.")
    n_splits = len(splits)
    checked = _check_splits(splits, len(y))
    train, n_train, test, n_test = checked.concatenated
    train_start, test_start = _starts(n_train), _starts(n_test)
    data = _binary_data(X, y, checked) if n_splits else None
    hits = np.zeros((len(learners), test.size), dtype=bool)
    for i, ((name, factory), options) in enumerate(zip(learners, params)):
        fast = np.zeros(n_splits, dtype=bool)
        spec = _FAST_LEARNERS.get(name)
        if data is not None and spec is not None and factory is spec[0] and spec[1](options):
            fast[:] = True
            for mask in spec[2]:
                fast &= getattr(data, mask)
            if fast.any():
                hits[i, np.repeat(fast, n_test)] = spec[3](data, data.folds(fast), options)
        for s in np.flatnonzero(~fast):  # the splits no kernel models: fit the estimator
            tr, te = train[train_start[s]:train_start[s + 1]], test[test_start[s]:test_start[s + 1]]
            hits[i, test_start[s]:test_start[s + 1]] = factory(**options).fit(X[tr], y[tr]).predict(X[te]) == y[te]
    split_of = np.repeat(np.arange(n_splits), n_test)
    k = len(learners)
    out = np.empty((n_splits, k, k), dtype=np.int64)
    for i in range(k):
        for j in range(i, k):
            both = np.bincount(split_of, weights=hits[i] & hits[j], minlength=n_splits).astype(np.int64)
            out[:, i, j] = out[:, j, i] = both
    return out


def _starts(sizes):
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
