"""Fidelity of the package's learners to Weka 3.6 on the 27 UCI data sets.

Bouckaert & Frank (2004) run Weka's naive Bayes, J48 (C4.5) and IB1 on 27 UCI
data sets. This module runs :class:`~replicability.learners.NaiveBayes`,
:class:`~replicability.learners.C45` and :class:`~replicability.learners.IB1`
through the folds Weka's ``Evaluation.crossValidateModel`` draws for
``-x 10 -s <seed>`` (reproduced with ``java.util.Random``), and compares the
10 x 10 cv accuracies with those Weka 3.6.14 reports
(``weka_cv.csv``, package data; ``tests/fixtures/weka_uci/README.md`` says how it was made).
:func:`~replicability.papers.shared.uci_runs.weka_random_splits` reproduces the random train/test splits of Weka's
Experimenter (``RandomSplitResultProducer``), used by the 100-run resampling experiments.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd
import xarray as xr

from ..._validation import check_positive, check_positive_int
from ...engine.parallel import parallel_map
from ...engine.registry import code_versions
from ...engine.store import cached_result
from ...sources.uci import list_uci, load_uci
from ..shared.uci_runs import LEARNER_VERSIONS, LEARNERS, cv_correct

__all__ = ["fidelity_table", "read_weka_cv", "uci_cv_correct", "uci_fidelity"]

_WEKA_CV = resources.files(__package__) / "weka_cv.csv"


def _one(name, learner, seeds, n_folds, directory):
    ds = load_uci(name, directory=directory)
    return cv_correct(ds, learner, seeds=seeds, n_folds=n_folds), int(np.sum(ds.y >= 0))


def uci_cv_correct(names=None, *, learners=LEARNERS, seeds=range(1, 11), n_folds=10, directory=None, n_jobs=1):
    """:func:`~replicability.papers.shared.uci_runs.cv_correct` for several UCI data sets and learners (a Dataset).

    Parameters
    ----------
    names : list of str or None
        Keys of :func:`~replicability.sources.uci.list_uci`; ``None`` for all 27.
    learners : sequence of str
        Subset of ``LEARNERS``.
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
        As :func:`uci_cv_correct` returns, from real Weka.

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
        As :func:`uci_cv_correct`, for the three learners of ``LEARNERS``.

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
