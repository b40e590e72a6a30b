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
  (:func:`~replicability.papers.bouckaert_frank2004.fidelity.weka_cv_splits`) with seed
  ``1 + run + 10 * repeat``, so repeat 0 is the fidelity check's 10 x 10 cv against Weka;
* ``"5x2"``: 5 x 2-fold cv, Weka's stratified folds with seed ``1 + run + 5 * repeat``;
* ``"resample"``: 100 runs of random subsampling with 10% of the data for testing
  (:class:`~replicability.engine.splits.RandomSubsampling`, ``random_state=repeat``); the
  first ``m`` runs are the ``m``-run experiment;
* ``"resample_weka"``: the 100 runs of 90/10 random splits of Weka's Experimenter
  (:func:`~replicability.papers.bouckaert_frank2004.fidelity.weka_random_splits`,
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
"""

from __future__ import annotations

import itertools

import numpy as np
import xarray as xr

from ..._validation import check_choice, check_positive_int
from ...engine.registry import code_versions
from ...engine.runner import parallel_map
from ...engine.splits import RandomSubsampling
from ...engine.store import cached_result
from ...sources.uci import list_uci, load_uci
from .fidelity import LEARNER_VERSIONS, LEARNERS, fold_hits, weka_cv_splits, weka_random_splits

__all__ = ["PAPER", "UCI_PAIRS", "UCI_SCHEMES", "uci_fold_hits", "uci_scheme_results"]

#: Folder name of the paper under ``data/published`` and ``data/reproduced``.
PAPER = "bouckaert_frank2004"

#: Sampling scheme -> (runs, folds) of one repeat.
UCI_SCHEMES = {"cv": (10, 10), "5x2": (5, 2), "resample": (100, 1), "resample_stratified": (20, 1),
               "resample_weka": (100, 1)}

#: The pairs of learners in Bouckaert & Frank's tables, in their order.
UCI_PAIRS = (("NaiveBayes", "J48"), ("NaiveBayes", "IB1"), ("J48", "IB1"))

#: Data sets and repeats per scale of :func:`uci_scheme_results`.
_SCALES = {"paper": ("all", 10), "quick": ("all", 2), "smoke": (["iris", "labor", "zoo"], 2)}


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
        Drawn from :data:`~replicability.papers.bouckaert_frank2004.fidelity.LEARNERS` (Weka's names).

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
