"""Fidelity of the package's learners to Weka 3.6 on the 27 UCI data sets.

Bouckaert & Frank (2004) run Weka's naive Bayes, J48 (C4.5) and IB1 on 27 UCI
data sets. This module runs :class:`~replicability.learners.NaiveBayes`,
:class:`~replicability.learners.C45` and :class:`~replicability.learners.IB1`
through the folds Weka's ``Evaluation.crossValidateModel`` draws for
``-x 10 -s <seed>`` (reproduced with ``java.util.Random``), and compares the
10 x 10 cv accuracies with those Weka 3.6.14 reports
(``weka_cv.csv``, package data; ``tests/fixtures/weka_uci/README.md`` says how it was made).
:func:`weka_random_splits` reproduces the random train/test splits of Weka's
Experimenter (``RandomSplitResultProducer``), used by the 100-run resampling experiments.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd
import xarray as xr

from ..._validation import check_choice, check_positive, check_positive_int
from ..._weka_random import JavaRandom, prob_round, randomize
from ...engine.registry import code_versions
from ...engine.runner import parallel_map
from ...engine.store import cached_result
from ...learners.c45 import C45
from ...learners.naive_bayes import NaiveBayes
from ...learners.neighbors import IB1
from ...sources.uci import list_uci, load_uci

__all__ = ["LEARNERS", "LEARNER_VERSIONS", "cv_correct", "fidelity_table", "fold_hits", "read_weka_cv",
           "uci_cv_correct", "uci_fidelity", "weka_cv_splits", "weka_random_splits"]

#: Weka class names of the three learners, in table order.
LEARNERS = ("NaiveBayes", "J48", "IB1")
#: The registry's code versions of the three learners (:data:`~replicability.engine.registry.VERSIONS`).
LEARNER_VERSIONS = ("learner:naive_bayes", "learner:c45", "learner:ib1")

_WEKA_CV = resources.files(__package__) / "weka_cv.csv"


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

    References
    ----------
    .. [1] Hall, M., Frank, E., et al. (2009). The WEKA data mining software:
       an update. SIGKDD Explorations 11(1), 10-18. doi:10.1145/1656274.1656278

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
    (``tests/test_weka_oracle.py``). Instances with a missing class are split too;
    Weka's evaluation then skips them.

    References
    ----------
    .. [1] Hall, M., Frank, E., et al. (2009). The WEKA data mining software:
       an update. SIGKDD Explorations 11(1), 10-18. doi:10.1145/1656274.1656278

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


def _one(name, learner, seeds, n_folds, directory):
    ds = load_uci(name, directory=directory)
    return cv_correct(ds, learner, seeds=seeds, n_folds=n_folds), int(np.sum(ds.y >= 0))


def uci_cv_correct(names=None, *, learners=LEARNERS, seeds=range(1, 11), n_folds=10, directory=None, n_jobs=1):
    """:func:`cv_correct` for several UCI data sets and learners, as an ``xarray.Dataset``.

    Parameters
    ----------
    names : list of str or None
        Keys of :func:`~replicability.sources.uci.list_uci`; ``None`` for all 27.
    learners : sequence of str
        Subset of :data:`LEARNERS`.
    seeds : iterable of int
    n_folds : int
    directory : path-like, optional
        Folder of the ARFF files (default: ``REPLICABILITY_UCI_DIR``).
    n_jobs : int, default 1
        Processes (joblib) running the (data set, learner) pairs in parallel.

    Returns
    -------
    xarray.Dataset
        ``correct`` (dataset, learner, seed) and ``n_instances`` (dataset).

    Examples
    --------
    >>> import os
    >>> ds = uci_cv_correct(["iris"], learners=["IB1"], seeds=[1],
    ...                     directory=os.environ.get("REPLICABILITY_UCI_DIR", "../shared/data/uci"))
    >>> int(ds["correct"].sel(dataset="iris", learner="IB1", seed=1))  # Weka 3.6.14: 143
    143
    """
    names = list(list_uci()["dataset"]) if names is None else list(names)
    seeds = [int(s) for s in seeds]
    n_jobs = check_positive_int(n_jobs, "n_jobs")
    for learner in learners:
        if learner not in LEARNERS:
            raise ValueError(f"`learners` must be drawn from {LEARNERS}; got {learner!r}.")
    tasks = [(name, learner) for name in names for learner in learners]
    results = list(parallel_map(lambda task: _one(*task, seeds, n_folds, directory), tasks,
                                backend="processes", n_jobs=n_jobs))
    correct = np.zeros((len(names), len(learners), len(seeds)), dtype=np.int64)
    sizes = np.zeros(len(names), dtype=np.int64)
    for (name, learner), (c, size) in zip(tasks, results):
        i, j = names.index(name), list(learners).index(learner)
        correct[i, j], sizes[i] = c, size
    return xr.Dataset(
        {"correct": (("dataset", "learner", "seed"), correct), "n_instances": ("dataset", sizes)},
        coords={"dataset": names, "learner": list(learners), "seed": seeds},
    )


def read_weka_cv(path=None):
    """Weka 3.6.14's cv results on the 27 UCI data sets (the test fixture).

    Parameters
    ----------
    path : path-like, optional
        CSV with columns ``dataset, learner, seed, correct, total``; default
        the package's ``weka_cv.csv`` (``tests/fixtures/weka_uci/README.md``
        gives the Weka command).

    Returns
    -------
    xarray.Dataset
        ``correct`` (dataset, learner, seed) and ``n_instances`` (dataset).

    Examples
    --------
    >>> weka = read_weka_cv()
    >>> int(weka["correct"].sel(dataset="iris", learner="NaiveBayes", seed=1))
    144
    """
    frame = pd.read_csv(_WEKA_CV if path is None else path)
    correct = frame.set_index(["dataset", "learner", "seed"])["correct"].to_xarray()
    sizes = frame.groupby("dataset")["total"].first().to_xarray()
    learners = [name for name in LEARNERS if name in set(frame["learner"])]
    return xr.Dataset({"correct": correct.astype(np.int64), "n_instances": sizes.astype(np.int64)}).sel(
        learner=learners)


def fidelity_table(ours, weka, *, tolerance=1.5):
    """Mean cv accuracy (%) of ours and Weka's per data set and learner.

    Parameters
    ----------
    ours, weka : xarray.Dataset
        As returned by :func:`uci_cv_correct` and :func:`read_weka_cv`; the
        table covers the data sets, learners and seeds of ``ours`` (Weka's
        runs with the same seeds).
    tolerance : float, default 1.5
        Percentage points within which a mean accuracy counts as matching.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``learner``, ``ours``, ``weka`` (mean accuracy
        over the runs, in %), ``difference`` (ours - weka, points) and
        ``within`` (``|difference| <= tolerance``).

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> a = xr.Dataset({"correct": (("dataset", "learner", "seed"), [[[90, 92]]]),
    ...                 "n_instances": ("dataset", [100])},
    ...                coords={"dataset": ["d"], "learner": ["J48"], "seed": [1, 2]})
    >>> b = a.copy(deep=True)
    >>> b["correct"][:] = [[[93, 93]]]
    >>> fidelity_table(a, b)[["ours", "weka", "difference", "within"]].values.tolist()
    [[91.0, 93.0, -2.0, False]]
    """
    tolerance = check_positive(tolerance, "tolerance")
    rows = []
    for name in ours["dataset"].values:
        for learner in ours["learner"].values:
            acc = []
            for src in (ours, weka):
                c = src["correct"].sel(dataset=name, learner=learner, seed=ours["seed"].values).values
                acc.append(100.0 * float(np.mean(c)) / float(src["n_instances"].sel(dataset=name)))
            rows.append({"dataset": str(name), "learner": str(learner), "ours": acc[0], "weka": acc[1],
                         "difference": acc[0] - acc[1], "within": bool(abs(acc[0] - acc[1]) <= tolerance)})
    return pd.DataFrame(rows)


#: Data sets and seeds per scale of :func:`uci_fidelity`.
_SCALES = {
    "paper": ("all", list(range(1, 11))),
    "quick": ("all", [1]),
    "smoke": (["iris", "labor", "zoo"], [1]),
}


def uci_fidelity(*, scale="paper", n_jobs=1, directory=None):
    """Our 10-fold cv results on the UCI data sets, through :func:`~replicability.engine.store.cached_result`.

    Parameters
    ----------
    scale : {"paper", "quick", "smoke"}
        ``"paper"``: all 27 data sets, seeds 1..10 (the committed result);
        ``"quick"``: all 27, seed 1; ``"smoke"``: iris, labor and zoo, seed 1.
    n_jobs : int, default 1
        Processes used when the result has to be computed.
    directory : path-like, optional
        Folder of the ARFF files, needed only when computing.

    Returns
    -------
    xarray.Dataset
        As :func:`uci_cv_correct`, for the three learners of :data:`LEARNERS`.

    Examples
    --------
    >>> ours = uci_fidelity()  # the committed paper-scale result
    >>> int(ours["correct"].sel(dataset="iris", learner="J48", seed=1))  # Weka 3.6.14: 144
    144
    """
    if scale not in _SCALES:
        raise ValueError(f"`scale` must be 'smoke', 'quick' or 'paper'; got {scale!r}.")
    names, seeds = _SCALES[scale]
    params = {"version": 1, "datasets": names, "learners": list(LEARNERS), "seeds": seeds, "n_folds": 10}
    return cached_result(
        "bouckaert_frank2004/uci_fidelity", params,
        lambda: uci_cv_correct(None if names == "all" else names, learners=LEARNERS, seeds=seeds, n_folds=10,
                               directory=directory, n_jobs=n_jobs),
        scale=scale, versions=code_versions(*LEARNER_VERSIONS, "source:uci", "scheme:weka_cv"))
