"""Sampling schemes as scikit-learn splitters yielding ``(train, test)`` index arrays.

The papers compare learners A and B on the *same* splits (Bouckaert 2003,
Section 2): every scheme here is a deterministic function of ``random_state``,
so handing the same splitter to both learners gives identical partitions.

scikit-learn already provides k-fold (:class:`~sklearn.model_selection.KFold`,
:class:`~sklearn.model_selection.StratifiedKFold`) and its repeated form
(:class:`~sklearn.model_selection.RepeatedStratifiedKFold`); they are reused
rather than re-implemented. This module adds what is missing:

* :class:`RandomSubsampling` -- ``n_runs`` random train/test splits with a test
  fraction (e.g. 90/10), stratified or not (Bouckaert 2003, "resampling");
* :class:`RepeatedCV` and :func:`rxk_cv_splits` -- r x k-fold cross-validation
  with runs and folds kept as separate dimensions, in run-major order; the
  stratified splits are exactly those of ``RepeatedStratifiedKFold`` (same
  random draws), computed without its per-split overhead, which dominated the
  experiment engine's time;
* :class:`FiveByTwoCV` -- five repetitions of stratified 2-fold cv
  (Dietterich 1998);
* :func:`experimenter_training_order` -- the training rows of r x k cv shuffled per
  fold as Weka's Experimenter hands them to a learner (``Instances.trainCV``).
"""

from __future__ import annotations

import math
import operator
import threading
import warnings

import numpy as np
from sklearn.model_selection import (
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedShuffleSplit,
)
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import type_of_target

from .._validation import check_positive_int, check_test_size
from ._cv_kernels import (
    class_blocks,
    flat_splits,
    fold_sizes,
    java_shuffles,
    kfold_folds,
    shuffle_splits,
    stratified_folds,
)

__all__ = ["RandomSubsampling", "RepeatedCV", "FiveByTwoCV", "experimenter_training_order", "rxk_cv_splits"]

#: Per thread: the last class blocks (_class_blocks).
_LOCAL = threading.local()
#: No seeds (the compiled shuffles draw from the state they are given), and a seed before the first run only.
_NONE, _FIRST_RUN = np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64)


class RandomSubsampling:
    """Random subsampling: ``n_runs`` independent random train/test splits.

    Each run draws a fresh random partition with ``test_size`` of the data in
    the test set (Bouckaert 2003, Section 2.1: "resampling", 90% train / 10%
    test). With ``stratified=True`` every test set keeps the class proportions
    of ``y`` (to within one instance per class).

    Parameters
    ----------
    n_runs : int, default 10
        Number of train/test splits.
    test_size : float or int, default 0.1
        Fraction of the data (in (0, 1)) or number of instances in each test set.
    stratified : bool, default False
        Preserve class proportions in each split.
    random_state : int, numpy.random.RandomState or None
        Seed; one generator is derived from it in ``split`` and shared by
        all runs, so a given seed always yields the same sequence of splits.

    Notes
    -----
    A thin wrapper over :class:`~sklearn.model_selection.ShuffleSplit` and
    :class:`~sklearn.model_selection.StratifiedShuffleSplit` that names the
    repetition count ``n_runs`` as in the papers.

    References
    ----------
    Bouckaert, R. R. (2003). Choosing between two learning algorithms based on
    calibrated tests. ICML 2003, 51-58.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1] * 10)
    >>> cv = RandomSubsampling(n_runs=3, test_size=0.1, stratified=True, random_state=0)
    >>> [len(test) for _, test in cv.split(np.zeros((20, 1)), y)]
    [2, 2, 2]
    """

    def __init__(self, n_runs=10, *, test_size=0.1, stratified=False, random_state=None):
        self.n_runs = n_runs
        self.test_size = test_size
        self.stratified = stratified
        self.random_state = random_state

    def _splitter(self):
        n_runs = check_positive_int(self.n_runs, "n_runs")
        test_size = check_test_size(self.test_size)
        cls = StratifiedShuffleSplit if self.stratified else ShuffleSplit
        return cls(n_splits=n_runs, test_size=test_size, random_state=self.random_state)

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays, one pair per run."""
        yield from self._splitter().split(X, y, groups)

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return ``n_runs``."""
        return check_positive_int(self.n_runs, "n_runs")

    def __repr__(self):
        return (
            f"RandomSubsampling(n_runs={self.n_runs!r}, test_size={self.test_size!r}, "
            f"stratified={self.stratified!r}, random_state={self.random_state!r})"
        )


def _class_blocks(y, n_folds):
    """Every class's instances and unshuffled fold labels, classes in order of first appearance.

    The checks of ``StratifiedKFold._make_test_folds``, and its allocation
    (:func:`~replicability.engine._cv_kernels.class_blocks`), laid out for
    :func:`~replicability.engine._cv_kernels.stratified_folds`:
    ``(rows, labels, class_start)``, the instances of every class in turn, their
    fold labels (each class's allocation over the folds, round robin, unshuffled)
    and where each class starts. They depend only on ``y`` and ``n_folds``, which
    a runner's repeats share: the last result is kept per thread and reused for
    an equal ``y`` (compared byte for byte), unless the call warns.
    """
    key = (n_folds, y.dtype.str, y.shape, y.tobytes())
    cached = getattr(_LOCAL, "blocks", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    if n_folds > len(y):
        raise ValueError(f"Cannot have number of splits n_splits={n_folds} greater than the number of samples: "
                         f"n_samples={len(y)}.")
    # 1-d integer labels are always "binary" or "multiclass"; type_of_target costs ~0.3 ms.
    target = "multiclass" if y.ndim == 1 and y.dtype.kind in "iub" else type_of_target(y)
    if target not in ("binary", "multiclass"):
        raise ValueError(f"Supported target types are: ('binary', 'multiclass'). Got {target!r} instead.")
    # Small non-negative integer labels are their own codes; any other labels numpy orders, their ranks (the
    # blocks depend only on which labels are equal), also when the kernel's table cannot hold them (it says so).
    class_start = np.empty(0, np.int64)
    if y.ndim == 1 and (y.dtype.kind in "ib" or (y.dtype.kind == "u" and y.dtype.itemsize < 8)):
        rows, labels, class_start = class_blocks(y.astype(np.int64, copy=False), n_folds)
    if class_start.size == 0:
        ranks = np.unique(y, return_inverse=True)[1].ravel().astype(np.int64, copy=False)
        rows, labels, class_start = class_blocks(ranks, n_folds)
    counts = np.diff(class_start)
    if np.all(n_folds > counts):
        raise ValueError(f"n_splits={n_folds} cannot be greater than the number of members in each class.")
    if n_folds > counts.min():
        warnings.warn(
            f"The least populated class in y has only {counts.min()} members, which is less than n_splits={n_folds}.",
            UserWarning,
            stacklevel=4,
        )
    blocks = (rows, labels, class_start)
    if n_folds <= counts.min() and y.dtype.kind != "O":  # no warning: later calls may skip all this
        _LOCAL.blocks = (key, blocks)
    return blocks


def _stratified_splits(y, n_folds, *, seeds=None, n_runs=None, random_state=None):
    """Runs of stratified k-fold cv exactly as scikit-learn draws them, as :class:`_FlatRuns`.

    Mirrors ``StratifiedKFold._make_test_folds`` with ``shuffle=True`` (classes
    in order of first appearance, the round-robin allocation of each class over
    the folds, one ``RandomState.shuffle`` per class and run, the same checks
    and warning), so the splits are identical; ``tests/engine/test_splits.py`` and
    ``tests/engine/test_registry.py`` compare them. Either ``seeds``, one per run
    (one ``StratifiedKFold(random_state=seed)`` per run), or ``n_runs`` runs
    drawn in turn from ``random_state``: an integer seed in [0, 2**32), or a
    ``RandomState`` of MT19937, which is advanced as ``RepeatedStratifiedKFold``
    advances it. The shuffles are compiled
    (:func:`~replicability.engine._cv_kernels.stratified_folds`); from seeds
    they are left to when the folds are first read, so that the runner shuffles
    all repeats of a data set in one call (:meth:`_FlatRuns.join`).
    """
    blocks = _class_blocks(np.asarray(y), n_folds)
    if seeds is not None:
        seeds = np.asarray(seeds, dtype=np.int64)
        return _FlatRuns(n_folds, seeds.size, blocks, seeds, np.arange(seeds.size))
    if not isinstance(random_state, np.random.RandomState):
        return _FlatRuns(n_folds, n_runs, blocks, np.array([random_state], dtype=np.int64), _FIRST_RUN)
    state = random_state.get_state(legacy=False)
    key = np.array(state["state"]["key"], dtype=np.uint32)
    folds, pos = stratified_folds(key, state["state"]["pos"], _NONE, _NONE, n_runs, *blocks)
    state["state"]["key"], state["state"]["pos"] = key, pos
    random_state.set_state(state)  # the caller's generator goes on from where the draws left it
    runs = _FlatRuns(n_folds, n_runs, blocks, _NONE, _NONE)
    runs._folds = folds
    return runs


def _kfold_splits(n_samples, n_folds, seeds):
    """Runs of ``KFold(n_folds, shuffle=True, random_state=seed)``, one per seed, each a :class:`_FlatSplits`.

    The shuffles of all runs are one compiled call
    (:func:`~replicability.engine._cv_kernels.kfold_folds`); the splits are
    scikit-learn's (``tests/engine/test_splits.py`` compares them), and so is the error
    for more folds than instances.
    """
    if n_folds > n_samples:
        raise ValueError(f"Cannot have number of splits n_splits={n_folds} greater than the number of samples: "
                         f"n_samples={n_samples}.")
    folds = kfold_folds(np.asarray(seeds, dtype=np.int64), n_samples, n_folds)
    return [_FlatSplits.from_labels(folds[r:r + 1], n_folds) for r in range(folds.shape[0])]


def _shuffle_splits(n_samples, n_splits, test_size, seed):
    """The splits of ``ShuffleSplit(n_splits, test_size=test_size, random_state=seed)`` as one :class:`_FlatSplits`.

    ``test_size`` is a fraction: ``ceil(test_size * n_samples)`` test instances
    and the rest for training, as scikit-learn sizes them (the same error for an
    empty training set). The permutations are one compiled call
    (:func:`~replicability.engine._cv_kernels.shuffle_splits`); ``tests/engine/test_splits.py``
    compares the splits with scikit-learn's.
    """
    n_test = math.ceil(test_size * n_samples)
    n_train = n_samples - n_test
    if n_train <= 0:
        raise ValueError(f"With n_samples={n_samples}, test_size={test_size} and train_size=None, the resulting "
                         "train set will be empty. Adjust any of the aforementioned parameters.")
    train, test = shuffle_splits(seed, n_samples, n_train, n_test, n_splits)
    return _FlatSplits(train, np.full(n_splits, n_train, np.int64), test, np.full(n_splits, n_test, np.int64),
                       n_samples)


def _stratified_repeats(y, n_folds, n_runs, seeds):
    """The splits of ``_stratified_splits(y, n_folds, n_runs=n_runs, random_state=seed)`` for every seed in turn.

    The repeats of r x k cv of one data set (seeds in [0, 2**32)), as one
    :class:`_FlatSplits`: one :class:`_FlatRuns` of all their runs, re-seeded
    before the first run of every repeat, checked once and shuffled in one
    compiled call.
    """
    blocks = _class_blocks(np.asarray(y), n_folds)
    seeds = np.asarray(seeds, dtype=np.int64)
    return _FlatRuns(n_folds, n_runs * seeds.size, blocks, seeds, n_runs * np.arange(seeds.size)).splits


class _FlatSplits:
    """A sequence of ``(train, test)`` index pairs stored as the kernels take them.

    ``concatenated`` is ``(train, n_train, test, n_test)``: the training
    indices of every split concatenated, the number of each split's, then the
    same for the test indices (int64). Items are views into these arrays, so
    a consumer that reads ``concatenated`` (``learners.pairs``) neither builds
    nor re-concatenates one array per split.

    Splits of runs of k-fold cv (:meth:`from_labels`) also hold their fold
    labels, ``labels = (folds, n_folds)``, and build ``concatenated`` only when
    it is first read: a kernel that takes the labels
    (``learners._kernels.evaluate_runs``) needs no index arrays. Otherwise
    ``labels`` is None.
    """

    __slots__ = ("_concatenated", "n_samples", "n_train", "n_test", "labels", "_starts")

    def __init__(self, train, n_train, test, n_test, n_samples=None):
        self._concatenated = (train, n_train, test, n_test)
        self.n_train, self.n_test = n_train, n_test
        #: Every index is below ``n_samples`` when it is given (built from fold labels), so a consumer
        #: of a data set of that size need not check the indices.
        self.n_samples = n_samples
        self.labels = None
        self._starts = None

    @classmethod
    def from_labels(cls, folds, n_folds, n_test=None):
        """The run-major splits of fold labels ``folds`` (runs, instances), labels in ``[0, n_folds)``.

        Split ``r * n_folds + f`` tests the instances of run ``r`` labelled ``f`` and trains on the others.
        ``n_test``, the size of every split's test fold, is counted unless given.
        """
        n_test = fold_sizes(folds, n_folds) if n_test is None else n_test
        out = cls(None, folds.shape[1] - n_test, None, n_test, folds.shape[1])
        out._concatenated, out.labels = None, (folds, n_folds)
        return out

    @property
    def concatenated(self):
        """``(train, n_train, test, n_test)``, built from the fold labels on first use."""
        if self._concatenated is None:
            self._concatenated = flat_splits(*self.labels)
        return self._concatenated

    def __len__(self):
        return self.n_train.size

    def starts(self):
        """Start of every split's training and test indices, and the ends (two lists of ``len + 1``)."""
        if self._starts is None:
            self._starts = tuple([0, *np.cumsum(sizes).tolist()]
                                 for sizes in (self.n_train, self.n_test))
        return self._starts

    def __getitem__(self, index):
        train, n_train, test, n_test = self.concatenated
        (train_start, test_start), n = self.starts(), len(self)
        if isinstance(index, slice):
            a, b, step = index.indices(n)
            if step != 1 or b < a:
                return [self[i] for i in range(a, b, step)]
            return _FlatSplits(train[train_start[a]:train_start[b]], n_train[a:b], test[test_start[a]:test_start[b]],
                               n_test[a:b], self.n_samples)
        i = operator.index(index)
        if not -n <= i < n:
            raise IndexError(f"split index {index} out of range for {n} splits")
        i %= n
        return train[train_start[i]:train_start[i + 1]], test[test_start[i]:test_start[i + 1]]

    def __iter__(self):
        return (self[i] for i in range(len(self)))


class _FlatRuns:
    """The runs of stratified k-fold cv of one data set: a sequence of runs, each a :class:`_FlatSplits`.

    What a registered cv scheme returns per repeat. It holds the class blocks
    of :func:`_class_blocks` and the seeds of the shuffles (re-seed with
    ``seeds[k]`` before run ``reseed_at[k]``), and shuffles on first use
    (``folds``: the fold of every instance in every run); ``splits`` are all
    its splits, run-major. The runner instead shuffles all repeats of a data
    set and builds their splits in one pass (:meth:`join`).
    """

    __slots__ = ("n_folds", "n_runs", "blocks", "seeds", "reseed_at", "_folds", "_splits")

    def __init__(self, n_folds, n_runs, blocks, seeds, reseed_at):
        self.n_folds, self.n_runs, self.blocks = n_folds, n_runs, blocks
        self.seeds, self.reseed_at = seeds, reseed_at
        self._folds = self._splits = None

    @property
    def folds(self):
        """The fold of every instance in every run, ``(n_runs, n_samples)``."""
        if self._folds is None:
            self._folds, _ = stratified_folds(np.empty(624, dtype=np.uint32), 624, self.seeds, self.reseed_at,
                                              self.n_runs, *self.blocks)
        return self._folds

    @property
    def splits(self):
        """All splits, run-major, as one :class:`_FlatSplits`."""
        if self._splits is None:
            self._splits = self.join([self])
        return self._splits

    def __len__(self):
        return self.n_runs

    def __getitem__(self, index):
        n = len(self)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(n))]
        r = operator.index(index)
        if not -n <= r < n:
            raise IndexError(f"run index {index} out of range for {n} runs")
        r %= n
        return self.splits[r * self.n_folds:(r + 1) * self.n_folds]

    def __iter__(self):
        return (self[r] for r in range(len(self)))

    @staticmethod
    def join(parts):
        """The splits of the runs of ``parts`` (:class:`_FlatRuns` of one data set and ``n_folds``) in turn.

        Parts not yet shuffled that share their class blocks (the repeats of a
        runner's data set) are shuffled in one compiled call, each from its own
        seeds, as they would be one by one.

        Returns
        -------
        _FlatSplits
            Split ``r * n_folds + f`` tests the instances of run ``r`` (counted
            across ``parts``) labelled ``f``, indices ascending, as scikit-learn's.
        """
        first = parts[0]
        if any(part.blocks is not first.blocks for part in parts):
            return _FlatSplits.from_labels(np.concatenate([part.folds for part in parts]), first.n_folds)
        if len(parts) == 1:
            folds = first.folds
        elif any(part._folds is not None for part in parts):
            folds = np.concatenate([part.folds for part in parts])
        else:
            offsets = np.cumsum([0] + [part.n_runs for part in parts[:-1]])
            seeds = np.concatenate([part.seeds for part in parts])
            reseed_at = np.concatenate([part.reseed_at + offset for part, offset in zip(parts, offsets)])
            folds, _ = stratified_folds(np.empty(624, dtype=np.uint32), 624, seeds, reseed_at,
                                        int(offsets[-1] + parts[-1].n_runs), *first.blocks)
        # Shuffles move labels within a class: every run has the unshuffled allocation's fold sizes.
        run_sizes = np.bincount(first.blocks[1], minlength=first.n_folds)
        return _FlatSplits.from_labels(folds, first.n_folds, np.tile(run_sizes, folds.shape[0]))


class RepeatedCV:
    """r x k-fold cross-validation with runs and folds as separate dimensions.

    Run ``r`` shuffles the data with its own permutation and partitions it into
    ``n_folds`` folds (stratified by default, as in Weka's experimenter);
    ``split`` yields the ``n_runs * n_folds`` pairs in run-major order, so
    split ``i`` is run ``i // n_folds``, fold ``i % n_folds``, and per-split
    results reshape to :attr:`shape` ``(n_runs, n_folds)``.

    Parameters
    ----------
    n_runs : int, default 10
        Number of repetitions (r).
    n_folds : int, default 10
        Number of folds per repetition (k), at least 2.
    stratified : bool, default True
        Use stratified folds (class counts per fold differ by at most one).
    random_state : int, numpy.random.RandomState or None
        Seed; one generator is derived in ``split`` and shared by all runs.

    Notes
    -----
    Gives the splits of :class:`~sklearn.model_selection.RepeatedStratifiedKFold`
    (or :class:`~sklearn.model_selection.RepeatedKFold`), which already yields in
    run-major order; the stratified folds are computed here with the same random
    draws, at a fraction of the cost.

    References
    ----------
    Bouckaert, R. R. (2003). Choosing between two learning algorithms based on
    calibrated tests. ICML 2003, 51-58.

    Examples
    --------
    >>> import numpy as np
    >>> cv = RepeatedCV(n_runs=2, n_folds=5, random_state=0)
    >>> cv.shape
    (2, 5)
    >>> sum(1 for _ in cv.split(np.zeros((20, 1)), np.arange(20) % 2))
    10
    """

    def __init__(self, n_runs=10, n_folds=10, *, stratified=True, random_state=None):
        self.n_runs = n_runs
        self.n_folds = n_folds
        self.stratified = stratified
        self.random_state = random_state

    @property
    def shape(self):
        """``(n_runs, n_folds)``: the layout of per-split results."""
        return (
            check_positive_int(self.n_runs, "n_runs"),
            check_positive_int(self.n_folds, "n_folds", minimum=2),
        )

    def _splitter(self):
        n_runs, n_folds = self.shape
        cls = RepeatedStratifiedKFold if self.stratified else RepeatedKFold
        return cls(n_splits=n_folds, n_repeats=n_runs, random_state=self.random_state)

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays in run-major order."""
        if not self.stratified:
            yield from self._splitter().split(X, y, groups)
            return
        n_runs, n_folds = self.shape
        if y is None:
            raise ValueError("`y` is required for stratified folds.")
        random_state = check_random_state(self.random_state)
        if random_state.get_state(legacy=False)["bit_generator"] != "MT19937":
            # The compiled draws are MT19937's: scikit-learn itself for any other generator.
            yield from self._splitter().split(X, y, groups)
            return
        yield from _stratified_splits(y, n_folds, n_runs=n_runs, random_state=random_state).splits

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return ``n_runs * n_folds``."""
        n_runs, n_folds = self.shape
        return n_runs * n_folds

    def __repr__(self):
        return (
            f"{type(self).__name__}(n_runs={self.n_runs!r}, n_folds={self.n_folds!r}, "
            f"stratified={self.stratified!r}, random_state={self.random_state!r})"
        )


class FiveByTwoCV(RepeatedCV):
    """5x2 cross-validation: five repetitions of stratified 2-fold cv.

    The sampling scheme of Dietterich's 5x2cv paired t-test and Alpaydin's
    5x2cv F test; splits come in run-major order, shape ``(5, 2)``.

    Parameters
    ----------
    random_state : int, numpy.random.RandomState or None
        Seed; one generator is derived in ``split`` and shared by all runs.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing
    supervised classification learning algorithms. Neural Computation 10(7),
    1895-1923. https://doi.org/10.1162/089976698300017197

    Examples
    --------
    >>> import numpy as np
    >>> cv = FiveByTwoCV(random_state=1)
    >>> cv.shape, cv.get_n_splits()
    ((5, 2), 10)
    """

    def __init__(self, *, random_state=None):
        super().__init__(n_runs=5, n_folds=2, stratified=True, random_state=random_state)

    def __repr__(self):
        return f"FiveByTwoCV(random_state={self.random_state!r})"


def rxk_cv_splits(y, *, n_runs=10, n_folds=10, stratified=True, random_state=None):
    """Return the splits of r x k-fold cv as a run-major list and its shape.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels (used for stratification; only the length is used otherwise).
    n_runs : int, default 10
        Number of repetitions (r).
    n_folds : int, default 10
        Number of folds (k), at least 2.
    stratified : bool, default True
        Use stratified folds.
    random_state : int, numpy.random.RandomState or None
        Seed of the shuffles.

    Returns
    -------
    splits : list of (ndarray, ndarray)
        ``n_runs * n_folds`` pairs ``(train, test)``; entry ``r * n_folds + f`` is
        run ``r``, fold ``f``.
    shape : tuple of int
        ``(n_runs, n_folds)``.

    Examples
    --------
    >>> import numpy as np
    >>> splits, shape = rxk_cv_splits(np.arange(12) % 2, n_runs=3, n_folds=4, random_state=0)
    >>> len(splits), shape
    (12, (3, 4))
    """
    cv = RepeatedCV(n_runs, n_folds, stratified=stratified, random_state=random_state)
    shape = cv.shape
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"`y` must be one-dimensional; got shape {y.shape}.")
    if y.shape[0] < shape[1]:
        raise ValueError(
            f"`y` must have at least `n_folds` = {shape[1]} values; got {y.shape[0]}."
        )
    splits = list(cv.split(np.zeros((y.shape[0], 1)), y))
    return splits, shape



def experimenter_training_order(splits, *, n_folds, seeds):
    """The splits of r x k cv with each training set in the order Weka's Experimenter uses.

    Weka's ``CrossValidationResultProducer`` builds the training set of fold ``f``
    with ``Instances.trainCV(k, f, random)``, which shuffles it
    (``Instances.randomize``) with the run's ``java.util.Random``, one generator per
    run used for folds ``0, 1, ..., k - 1`` in turn. A learner that breaks ties by
    position (IB1 keeps the first of equally near neighbours; the voted perceptron
    shuffles the order it is given) sees a fresh random order in every fold. Here
    each run ``r`` draws ``java.util.Random(seeds[r])`` and shuffles the training
    rows of its folds, in ascending order, in turn. The test sets are unchanged.

    Parameters
    ----------
    splits : list of (ndarray, ndarray)
        Run-major ``(train, test)`` pairs, as :func:`rxk_cv_splits` returns them.
    n_folds : int
        Folds per run (k).
    seeds : sequence of int
        One ``java.util.Random`` seed per run.

    Returns
    -------
    list of (ndarray, ndarray)
        The same splits, training rows reordered.

    References
    ----------
    .. [1] Hall, M., Frank, E., et al. (2009). The WEKA data mining software:
       an update. SIGKDD Explorations 11(1), 10-18. doi:10.1145/1656274.1656278

    Examples
    --------
    >>> import numpy as np
    >>> splits, _ = rxk_cv_splits(np.arange(8) % 2, n_runs=1, n_folds=2, random_state=0)
    >>> shuffled = experimenter_training_order(splits, n_folds=2, seeds=[1])
    >>> [sorted(tr.tolist()) == sorted(s.tolist()) for (tr, _), (s, _) in zip(shuffled, splits)]
    [True, True]
    """
    return list(_experimenter_splits(splits, n_folds, seeds))


def _experimenter_splits(splits, n_folds, seeds):
    """:func:`experimenter_training_order` as one :class:`_FlatSplits`, shuffled in one compiled call."""
    n_folds = check_positive_int(n_folds, "n_folds")
    seeds = np.array([int(s) for s in seeds], dtype=np.int64)
    if len(splits) != n_folds * seeds.size:
        raise ValueError(f"`splits` must hold `n_folds` x len(`seeds`) = {n_folds * seeds.size} pairs; "
                         f"got {len(splits)}.")
    none = [np.empty(0, np.int64)]  # concatenated with the splits' arrays: no splits, no indices
    trains = [np.sort(np.asarray(train, dtype=np.int64)) for train, _ in splits]
    tests = [np.asarray(test, dtype=np.int64) for _, test in splits]
    n_train = np.array([t.size for t in trains], dtype=np.int64)
    n_test = np.array([t.size for t in tests], dtype=np.int64)
    train, test = np.concatenate(trains + none), np.concatenate(tests + none)
    java_shuffles(train, n_train, seeds, n_folds)
    return _FlatSplits(train, n_train, test, n_test)
