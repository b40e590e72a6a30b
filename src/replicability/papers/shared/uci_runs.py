"""Per-fold results of naive Bayes, C4.5 and 1-NN on the 27 UCI data sets.

Bouckaert & Frank (2004, Section 4) run each test ten times on every data set and
pair of learners, changing only the random partitioning; Bouckaert (2004, Table 2)
does the same with sorted 10 x 10 cv. This module computes, for one sampling scheme
and every data set, which test instances each learner classifies correctly, once:
every table that uses the scheme (and every pair of learners) is computed from the
same fits.

Schemes (``repeat`` is one of the ten randomizations, ``run`` and ``fold`` index
the splits inside it):

* ``"cv"``: 10 x 10-fold cv, Weka's stratified folds
  (:func:`~replicability.papers.shared.uci_runs.weka_cv_splits`) with seed
  ``1 + run + 10 * repeat``, so repeat 0 is the fidelity check's 10 x 10 cv against Weka;
* ``"5x2"``: 5 x 2-fold cv, Weka's stratified folds with seed ``1 + run + 5 * repeat``;
* ``"resample"``: 100 runs of random subsampling with 10% of the data for testing
  (:class:`~replicability.engine.splits.RandomSubsampling`, ``random_state=repeat``); the
  first ``m`` runs are the ``m``-run experiment;
* ``"resample_weka"``: the 100 runs of 90/10 random splits of Weka's Experimenter
  (:func:`~replicability.papers.shared.uci_runs.weka_random_splits`,
  ``RandomSplitResultProducer``) with run numbers ``1 + run + 100 * repeat``, so repeat 0
  is the Experimenter's runs 1..100, whose per-run counts ``data/weka`` holds from real Weka;
* ``"resample_stratified"``: the same with stratification (see
  ``_stratified_resampling``), 20 runs (the 10- and 20-run experiments).
  Bouckaert & Frank check Table 2 with stratified resampling for every number
  of runs; 100 stratified runs would double the cost of the resampling
  experiments, so the check here covers the first two columns.

.. rubric:: References

Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of significance
tests for comparing learning algorithms. PAKDD 2004, LNAI 3056, 3-12.

Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004.

Hall, M., Frank, E., et al. (2009). The WEKA data mining software: an update.
SIGKDD Explorations 11(1), 10-18. https://doi.org/10.1145/1656274.1656278
"""

from __future__ import annotations

import itertools

import numpy as np
import xarray as xr

from ..._validation import check_choice, check_positive, check_positive_int
from ..._weka_random import JavaRandom, prob_round, randomize
from ...engine.parallel import parallel_map
from ...engine.registry import code_versions
from ...engine.splits import RandomSubsampling
from ...engine.store import cached_result
from ...learners.c45 import C45
from ...learners.naive_bayes import NaiveBayes
from ...learners.neighbors import IB1
from ...sources.uci import list_uci, load_uci

__all__ = ["LEARNERS", "LEARNER_VERSIONS", "PAPER", "UCI_PAIRS", "UCI_SCHEMES", "cv_correct", "fold_hits",
           "uci_fold_hits", "uci_scheme_results", "weka_cv_splits", "weka_random_splits"]

#: Folder name of the paper under ``data/published`` and ``data/reproduced``.
PAPER = "bouckaert_frank2004"

#: Sampling scheme -> (runs, folds) of one repeat.
UCI_SCHEMES = {"cv": (10, 10), "5x2": (5, 2), "resample": (100, 1), "resample_stratified": (20, 1),
               "resample_weka": (100, 1)}

#: The pairs of learners in Bouckaert & Frank's tables, in their order.
UCI_PAIRS = (("NaiveBayes", "J48"), ("NaiveBayes", "IB1"), ("J48", "IB1"))

#: Data sets and repeats per scale of :func:`uci_scheme_results`.
_SCALES = {"paper": ("all", 10), "quick": ("all", 2), "smoke": (["iris", "labor", "zoo"], 2)}


#: Weka class names of the three learners, in table order.
LEARNERS = ("NaiveBayes", "J48", "IB1")
#: The registry's code versions of the three learners (:data:`~replicability.engine.registry.VERSIONS`).
LEARNER_VERSIONS = ("learner:naive_bayes", "learner:c45", "learner:ib1")

def _stratify(order, y, n_folds):
    """``Instances.stratify``: group by class (Weka's swap pass), then deal out in steps of ``n_folds``."""
    order = list(order)
    n = len(order)
    index = 1
    while index < n:
        first = y[order[index - 1]]
        for j in range(index, n):
            if y[order[j]] == first:
                order[index], order[j] = order[j], order[index]
                index += 1
        index += 1
    # stratStep: positions start, start + k, start + 2k, ... for start = 0, 1, ...
    return np.concatenate([np.asarray(order[s::n_folds], dtype=np.intp) for s in range(n_folds)])


def weka_cv_splits(y, *, n_folds=10, seed=1):
    """The train/test splits of Weka 3.6's ``crossValidateModel`` with ``new Random(seed)``.

    Weka shuffles the data (``Instances.randomize``), stratifies it
    (``Instances.stratify``: groups the classes, then deals the instances out
    in steps of ``n_folds``), takes fold ``i`` as a contiguous block
    (``testCV``) and shuffles each training set again with the same generator
    (``trainCV(folds, i, random)``). The training indices are returned in that
    shuffled order, which matters to learners whose ties depend on the order
    (IB1 keeps the first nearest neighbour).

    Parameters
    ----------
    y : array-like of int, shape (n,)
        Class codes, in the order of the ARFF file.
    n_folds : int, default 10
        Number of folds (Weka ``-x``).
    seed : int, default 1
        Seed of ``java.util.Random`` (Weka ``-s``).

    Returns
    -------
    list of (ndarray, ndarray)
        ``(train, test)`` row indices per fold, in Weka's order.

    Examples
    --------
    >>> import numpy as np
    >>> splits = weka_cv_splits(np.array([0, 0, 0, 1, 1, 1]), n_folds=3, seed=1)
    >>> [sorted(test.tolist()) for _, test in splits]
    [[1, 4], [2, 5], [0, 3]]
    """
    y = np.asarray(y)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    if y.ndim != 1 or len(y) < n_folds:
        raise ValueError(f"`y` must be one-dimensional with at least `n_folds` values; got shape {y.shape}.")
    rand = JavaRandom(int(seed))
    order = list(range(len(y)))
    randomize(order, rand)
    data = _stratify(order, y, n_folds)
    n = len(data)
    out = []
    for i in range(n_folds):
        size = n // n_folds + (1 if i < n % n_folds else 0)
        first = i * (n // n_folds) + min(i, n % n_folds)
        train = list(np.concatenate([data[:first], data[first + size:]]))
        randomize(train, rand)
        out.append((np.asarray(train, dtype=np.intp), data[first:first + size].copy()))
    return out


def weka_random_splits(y, *, runs, train_percent=90.0, n_classes=None):
    """The train/test splits of Weka 3.6's Experimenter, ``RandomSplitResultProducer``, for the given runs.

    For run ``r`` Weka draws ``java.util.Random(r)``, shuffles the data
    (``Instances.randomize``), splits it by class (class codes ``0 .. n_classes - 1``
    in the order of the ARFF header, then the instances with a missing class), and
    puts the first ``probRound(n_c * train_percent / 100)`` instances of each class
    in the training set and the rest in the test set: a stratified split whose
    per-class training share is rounded up with probability equal to its fractional
    part. Both sets are then shuffled again with the same generator. The Experimenter
    numbers runs from 1.

    Parameters
    ----------
    y : array-like of int, shape (n,)
        Class codes in the order of the ARFF file; a negative code is a missing class.
    runs : iterable of int
        Weka's run numbers (the seeds of ``java.util.Random``).
    train_percent : float, default 90.0
        Percentage of each class used for training (Weka ``-P``).
    n_classes : int, optional
        Number of class values *declared* in the header (default ``max(y) + 1``).
        A declared class without instances still draws one random number, so it
        changes the splits.

    Returns
    -------
    list of (ndarray, ndarray)
        ``(train, test)`` row indices per run, each in Weka's (shuffled) order,
        which matters to learners whose ties depend on the order (IB1).

    Notes
    -----
    Transcribed from ``weka.experiment.RandomSplitResultProducer.doRun`` (the
    bytecode of Weka 3.6.14 has the same calls as the 3.8 source) and checked
    against the real ``doRun`` in the Weka test tier
    (``tests/learners/test_weka_agreement.py``). Instances with a missing class are split too;
    Weka's evaluation then skips them.

    Examples
    --------
    >>> import numpy as np
    >>> train, test = weka_random_splits(np.array([0] * 10 + [1] * 10), runs=[1])[0]
    >>> len(train), len(test), np.bincount(np.array([0] * 10 + [1] * 10)[test]).tolist()
    (18, 2, [1, 1])
    """
    y = np.asarray(y)
    if y.ndim != 1 or len(y) == 0 or not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"`y` must be a non-empty one-dimensional array of class codes; got shape {y.shape}, "
                         f"dtype {y.dtype}.")
    train_percent = check_positive(train_percent, "train_percent")
    if train_percent > 100:
        raise ValueError(f"`train_percent` must be at most 100; got {train_percent!r}.")
    observed = int(y.max()) + 1 if (y >= 0).any() else 0
    n_classes = observed if n_classes is None else check_positive_int(n_classes, "n_classes")
    if n_classes < observed:
        raise ValueError(f"`n_classes` must be at least the largest class code + 1 ({observed}); got {n_classes}.")
    runs = [int(r) for r in runs]
    out = []
    for run in runs:
        rand = JavaRandom(run)
        order = list(range(len(y)))
        randomize(order, rand)
        codes = y[order]
        train, test = [], []
        for c in [*range(n_classes), -1]:
            members = [i for i, code in zip(order, codes) if (code == c if c >= 0 else code < 0)]
            size = prob_round(len(members) * train_percent / 100, rand)
            train += members[:size]
            test += members[size:]
        randomize(train, rand)
        randomize(test, rand)
        out.append((np.asarray(train, dtype=np.intp), np.asarray(test, dtype=np.intp)))
    return out


def _make(learner, dataset):
    """The package's counterpart of a Weka learner, configured from the ARFF header."""
    types = list(dataset.attribute_types)
    n_values = np.array([len(v) for v in dataset.nominal_values], dtype=np.int64)
    n_classes = len(dataset.class_values)
    if learner == "NaiveBayes":
        return NaiveBayes(attribute_types=types, n_values=n_values, n_classes=n_classes)
    if learner == "J48":
        return C45(attribute_types=types, n_values=n_values, n_classes=n_classes)
    if learner == "IB1":
        return IB1(attribute_types=types, weka_range_update=True)
    raise ValueError(f"`learner` must be one of {LEARNERS}; got {learner!r}.")


def cv_correct(dataset, learner, *, seeds=range(1, 11), n_folds=10):
    """Correctly classified instances per run of Weka-style stratified cv.

    Parameters
    ----------
    dataset : Dataset
        From :func:`~replicability.sources.uci.load_uci` (or ``load_arff``); the class is
        the last attribute, rows in file order.
    learner : {"NaiveBayes", "J48", "IB1"}
        The Weka learner to mimic (with Weka's default options).
    seeds : iterable of int, default 1..10
        One run of ``n_folds``-fold cv per seed (Weka ``-s``).
    n_folds : int, default 10

    Returns
    -------
    ndarray of int, shape (n_seeds,)
        Test instances classified correctly, summed over the folds, as Weka's
        "Correctly Classified Instances". As in Weka's ``Evaluation``, an
        instance whose predicted distribution is all zero (a J48 leaf emptied
        by subtree raising) is unclassified, hence not correct.

    Examples
    --------
    >>> import os
    >>> from replicability.sources.uci import load_uci
    >>> iris = load_uci("iris", directory=os.environ.get("REPLICABILITY_UCI_DIR", "../shared/data/uci"))
    >>> cv_correct(iris, "NaiveBayes", seeds=[1]).tolist()  # Weka 3.6.14: 144
    [144]
    """
    check_choice(learner, "learner", LEARNERS)
    known = dataset.y >= 0  # Weka drops instances with a missing class
    X, y = dataset.X[known], dataset.y[known]
    return np.array([sum(int(fold_hits(dataset, learner, X, y, train, test).sum())
                         for train, test in weka_cv_splits(y, n_folds=n_folds, seed=seed))
                     for seed in seeds], dtype=np.int64)


def fold_hits(dataset, learner, X, y, train, test):
    """Which test instances a learner, trained on ``train``, classifies correctly.

    Parameters
    ----------
    dataset : Dataset
        Supplies the attribute types and nominal values (the ARFF header).
    learner : {"NaiveBayes", "J48", "IB1"}
    X, y : ndarray
        The instances with a known class (rows of ``dataset``).
    train, test : ndarray of int
        Row indices into ``X`` and ``y``; the training order matters to IB1's ties.

    Returns
    -------
    ndarray of bool, shape (len(test),)
        As in Weka's ``Evaluation``, an instance whose predicted distribution is
        all zero (a J48 leaf emptied by subtree raising) is unclassified, hence
        not correct.

    Examples
    --------
    >>> import os
    >>> from replicability.sources.uci import load_uci
    >>> iris = load_uci("iris", directory=os.environ.get("REPLICABILITY_UCI_DIR", "../shared/data/uci"))
    >>> hits = fold_hits(iris, "NaiveBayes", iris.X, iris.y, np.arange(0, 150, 2), np.arange(1, 150, 2))
    >>> hits.shape, bool(hits.mean() > 0.9)
    ((75,), True)
    """
    model = _make(learner, dataset).fit(X[train], y[train])
    if learner == "IB1":
        pred, ok = model.predict(X[test]), True
    else:
        proba = model.predict_proba(X[test])
        pred, ok = model.classes_[np.argmax(proba, axis=1)], proba.max(axis=1) > 0
    return (pred == y[test]) & ok


def _splits(y, scheme, repeat, n_classes=None):
    """The (train, test) index pairs of one repeat, run-major."""
    n_runs, n_folds = UCI_SCHEMES[scheme]
    if scheme == "resample_weka":
        return weka_random_splits(y, runs=range(1 + n_runs * repeat, 1 + n_runs * (repeat + 1)), train_percent=90.0,
                                  n_classes=n_classes)
    if scheme in ("cv", "5x2"):
        return [fold for run in range(n_runs)
                for fold in weka_cv_splits(y, n_folds=n_folds, seed=1 + run + n_runs * repeat)]
    if scheme == "resample":
        return list(RandomSubsampling(n_runs, test_size=0.1, random_state=repeat).split(np.zeros((len(y), 1))))
    return _stratified_resampling(y, n_runs, np.random.default_rng(repeat))


def _stratified_resampling(y, n_runs, rng):
    """Stratified 90/10 splits that also work for classes with a single instance.

    Each test set is every tenth instance, from a random start, of a random order
    grouped by class: one fold of a fresh stratified 10-fold partition, dealt out
    as Weka deals stratified folds. Every class contributes the floor or the ceiling
    of a tenth of its instances (scikit-learn's ``StratifiedShuffleSplit`` refuses
    classes with one instance, which two of the data sets have).
    """
    n = len(y)
    out = []
    for _ in range(n_runs):
        grouped = np.lexsort((rng.random(n), y))
        test = np.sort(grouped[rng.integers(10)::10])
        train = rng.permutation(np.setdiff1d(np.arange(n), test))
        out.append((train, test))
    return out


def uci_fold_hits(dataset, scheme, *, n_repeats=10, learners=LEARNERS):
    """Correct test instances per fold of every learner and pair on one data set.

    Parameters
    ----------
    dataset : Dataset
        From :func:`~replicability.sources.uci.load_uci`; instances with a missing
        class are dropped, as Weka does.
    scheme : {"cv", "5x2", "resample", "resample_stratified", "resample_weka"}
        See the module description.
    n_repeats : int, default 10
        Randomizations of the splits.
    learners : sequence of str
        Drawn from :data:`~replicability.papers.shared.uci_runs.LEARNERS` (Weka's names).

    Returns
    -------
    xarray.Dataset
        ``n_train``, ``n_test`` (repeat, run, fold); ``correct`` (learner, repeat,
        run, fold); ``correct_both`` (pair, repeat, run, fold) for every pair of
        ``learners``, named ``"A-B"``.

    Examples
    --------
    >>> import os
    >>> from replicability.sources.uci import load_uci
    >>> iris = load_uci("iris", directory=os.environ.get("REPLICABILITY_UCI_DIR", "../shared/data/uci"))
    >>> hits = uci_fold_hits(iris, "cv", n_repeats=1, learners=["NaiveBayes"])
    >>> int(hits["correct"].sel(learner="NaiveBayes", run=0).sum())  # Weka 3.6.14, -s 1: 144
    144
    """
    scheme = check_choice(scheme, "scheme", tuple(UCI_SCHEMES))
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    learners = [check_choice(name, "learners", LEARNERS) for name in learners]
    known = dataset.y >= 0
    X, y = dataset.X[known], dataset.y[known]
    n_runs, n_folds = UCI_SCHEMES[scheme]
    shape = (n_repeats, n_runs, n_folds)
    pairs = list(itertools.combinations(range(len(learners)), 2))
    n_train, n_test = np.zeros(shape, np.int32), np.zeros(shape, np.int32)
    correct = np.zeros((len(learners), *shape), np.int32)
    both = np.zeros((len(pairs), *shape), np.int32)
    for repeat in range(n_repeats):
        for k, (train, test) in enumerate(_splits(y, scheme, repeat, len(dataset.class_values))):
            at = (repeat, *divmod(k, n_folds))
            hits = [fold_hits(dataset, name, X, y, train, test) for name in learners]
            n_train[at], n_test[at] = len(train), len(test)
            correct[(slice(None), *at)] = [h.sum() for h in hits]
            both[(slice(None), *at)] = [(hits[i] & hits[j]).sum() for i, j in pairs]
    dims = ("repeat", "run", "fold")
    return xr.Dataset(
        {"n_train": (dims, n_train), "n_test": (dims, n_test),
         "correct": (("learner", *dims), correct), "correct_both": (("pair", *dims), both)},
        coords={"learner": list(learners), "pair": [f"{learners[i]}-{learners[j]}" for i, j in pairs],
                "repeat": np.arange(n_repeats), "run": np.arange(n_runs), "fold": np.arange(n_folds)},
    )


def _one_dataset(name, scheme, n_repeats, directory, versions):
    # Each data set is cached on its own in the working cache (any scale but "paper"),
    # so an interrupted study resumes.
    params = {"dataset": name, "scheme": scheme, "runs_folds": list(UCI_SCHEMES[scheme]), "n_repeats": n_repeats,
              "version": 2 if scheme == "resample_stratified" else 1}  # its splits changed once
    return cached_result("uci_fold_hits", params,
                         lambda: uci_fold_hits(load_uci(name, directory=directory), scheme, n_repeats=n_repeats),
                         scale="quick", versions=versions)


def uci_scheme_results(scheme, *, scale="paper", n_jobs=1, directory=None):
    """:func:`uci_fold_hits` of the three learners on the UCI data sets, stacked on ``dataset``.

    Computed once through :func:`~replicability.engine.store.cached_result`; at
    ``scale="paper"`` the committed result is returned.

    Parameters
    ----------
    scheme : {"cv", "5x2", "resample", "resample_stratified", "resample_weka"}
    scale : {"paper", "quick", "smoke"}
        ``"paper"``: the 27 data sets, 10 repeats (the papers' design);
        ``"quick"``: 27 data sets, 2 repeats; ``"smoke"``: iris, labor and zoo,
        2 repeats.
    n_jobs : int, default 1
        Processes (joblib), one data set each, when computing.
    directory : path-like, optional
        Folder of the ARFF files, needed only when computing.

    Returns
    -------
    xarray.Dataset
        The variables of :func:`uci_fold_hits` with a leading ``dataset`` dimension
        (names as in :func:`~replicability.sources.uci.list_uci`), and
        ``n_instances`` (dataset).

    Examples
    --------
    >>> res = uci_scheme_results("cv")  # the committed paper-scale result
    >>> dict(res["correct"].sizes)
    {'dataset': 27, 'learner': 3, 'repeat': 10, 'run': 10, 'fold': 10}
    """
    scheme = check_choice(scheme, "scheme", tuple(UCI_SCHEMES))
    scale = check_choice(scale, "scale", tuple(_SCALES))
    n_jobs = check_positive_int(n_jobs, "n_jobs")
    names, n_repeats = _SCALES[scale]
    names = list(list_uci()["dataset"]) if names == "all" else names

    split_code = {"cv": "scheme:weka_cv", "5x2": "scheme:weka_cv",
                  "resample_weka": "scheme:weka_random_split"}.get(scheme, "scheme:random_subsampling")
    versions = code_versions(*LEARNER_VERSIONS, "source:uci", split_code)

    def compute():
        sizes = dict(zip(list_uci()["dataset"], list_uci()["instances"]))
        order = sorted(names, key=lambda n: -sizes[n])  # largest first, to balance the workers
        parts = parallel_map(lambda n: _one_dataset(n, scheme, n_repeats, directory, versions), order,
                             backend="processes", n_jobs=n_jobs)
        by_name = dict(zip(order, parts))
        stacked = xr.concat([by_name[n].drop_attrs() for n in names], dim="dataset")
        stacked = stacked.assign_coords(dataset=names)
        stacked["n_instances"] = (stacked["n_train"] + stacked["n_test"]).isel(repeat=0, run=0, fold=0).astype(np.int64)
        return stacked

    params = {"version": 1, "scheme": scheme, "runs_folds": list(UCI_SCHEMES[scheme]), "datasets": names,
              "n_repeats": n_repeats,
              "learners": list(LEARNERS)}
    return cached_result(f"uci/{scheme}", params, compute, scale=scale, versions=versions)
