"""The shared synthetic experiments of Bouckaert (2003, 2004) and Bouckaert & Frank (2004).

The three papers draw their data sets from the same sources (independent binary
attributes where the null hypothesis holds, and the four Bayesian-network
sources of :mod:`replicability.sources.bayesnet`) and evaluate naive Bayes against C4.5
on the same kinds of splits. :func:`synthetic_fold_counts` runs one such
experiment through :func:`~replicability.engine.runner.run_experiment` and keeps
the per-fold counts in the result store (:func:`~replicability.engine.store.cached_result`),
so every table that shares an experiment in the papers reads the same result
here: one 10 x 10 cv run on sources 1-4 serves Tables 4-6 and Figure 4 of the
2003 paper, Table 1 of the 2004 paper and Table 5 of Bouckaert & Frank.

:func:`fold_differences` turns the counts into the accuracy differences the
tests of :mod:`replicability.stats.ttests`, :mod:`replicability.stats.schemes` and
:mod:`replicability.stats.nonparametric` take.
"""

from __future__ import annotations

import json

import numpy as np

from ...engine.runner import ExperimentConfig, pair_counts, run_experiment
from ...engine.store import cached_result

__all__ = ["SYNTHETIC_SOURCES", "fold_differences", "synthetic_fold_counts"]

#: Named sources: ``(runner source, source parameters)``. ``"null"`` is the
#: 2003 paper's null source (10 independent binary attributes, class probability
#: 0.5; other probabilities through ``source_params``); ``"source1"``-``"source4"``
#: are the Bayesian networks matching Table 3 of Bouckaert (2003).
SYNTHETIC_SOURCES = {
    "null": ("independent_binary", {"n_attributes": 10, "class_probability": 0.5}),
    **{f"source{i}": ("bayesnet", {"source": i}) for i in range(1, 5)},
}

#: Bump when a change of the engine or learners changes the stored counts.
_VERSION = 1


def synthetic_fold_counts(
    source,
    *,
    scheme="rxk_cv",
    scheme_params=None,
    n_datasets=1000,
    n_repeats=10,
    n_instances=300,
    learners=("naive_bayes", "c45"),
    learner_params=None,
    source_params=None,
    seed=0,
    scale="paper",
    n_jobs=None,
):
    """Per-fold counts of two learners on data sets from a synthetic source (cached).

    Parameters
    ----------
    source : str
        A key of :data:`SYNTHETIC_SOURCES`.
    scheme : str
        A runner scheme: ``"rxk_cv"`` (stratified r x k cv), ``"cv"``,
        ``"resample"`` or ``"5x2"``.
    scheme_params : dict, optional
        Options of the scheme, e.g. ``{"n_runs": 10, "n_folds": 10}`` or
        ``{"n_runs": 100, "test_size": 0.1}``.
    n_datasets, n_repeats, n_instances : int
        Data sets drawn, randomizations of the splits per data set, and instances
        per data set (300 in the papers).
    learners : tuple of str
        Runner learner names of A and B.
    learner_params : tuple of two dicts, optional
        Options of A's and B's factories (e.g. ``({}, {"weka_shuffle": True})``); default none.
    source_params : dict, optional
        Overrides of the source's parameters (e.g. ``{"class_probability": 0.1}``).
    seed : int
        Root seed of the experiment.
    scale : {"smoke", "quick", "paper"}
        Where the result is cached (see :func:`~replicability.engine.store.cached_result`).
    n_jobs : int, optional
        Local worker processes when the result must be computed (None: all CPUs).
        Never changes the result.

    Returns
    -------
    xarray.Dataset
        ``n_test, correct_a, correct_b, correct_both`` on dims
        ``(dataset, repeat, run, fold)`` with the run's provenance in ``attrs``.

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> ds = synthetic_fold_counts("source4", scheme_params={"n_runs": 2, "n_folds": 5},
    ...                            n_datasets=2, n_repeats=1, scale="smoke", n_jobs=1)
    >>> dict(ds.sizes)
    {'dataset': 2, 'repeat': 1, 'run': 2, 'fold': 5}
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    if source not in SYNTHETIC_SOURCES:
        raise ValueError(f"`source` must be one of {sorted(SYNTHETIC_SOURCES)}; got {source!r}.")
    if len(learners) != 2:
        raise ValueError(f"`learners` must name two learners; got {learners!r}.")
    runner_source, params = SYNTHETIC_SOURCES[source]
    config = ExperimentConfig(
        source=runner_source,
        source_params={**params, **(source_params or {})},
        learners=learners,
        learner_params=learner_params,
        scheme=scheme,
        scheme_params=scheme_params or {},
        n_datasets=n_datasets,
        n_instances=n_instances,
        n_repeats=n_repeats,
        seed=seed,
    )
    return cached_result(
        "synthetic/fold_counts",
        {"config": _pair_config_key(config), "version": _VERSION},
        lambda: pair_counts(run_experiment(config, backend="processes", n_jobs=n_jobs)),
        scale=scale,
        versions=config.code_versions,
    )


def _pair_config_key(config):
    """The configuration as the results were keyed when the runner took two learners, A and B.

    Kept so that the committed results (``data/results``) are found under their keys;
    it holds the same information as ``config.to_json()``. Two names of that time
    survive here only: ``learner_a``/``learner_b`` (and their params) for ``learners``,
    and the resampling scheme's ``test_fraction`` for ``test_size``.
    """
    key = json.loads(config.to_json())
    (key["learner_a"], key["learner_b"]), (key["learner_a_params"], key["learner_b_params"]) = (
        key.pop("learners"), key.pop("learner_params"))
    if "test_size" in key["scheme_params"]:
        key["scheme_params"]["test_fraction"] = key["scheme_params"].pop("test_size")
    return key


def fold_differences(counts):
    """Accuracy of A minus accuracy of B on every fold.

    Parameters
    ----------
    counts : xarray.Dataset
        A result of :func:`synthetic_fold_counts` (or of ``run_experiment``).

    Returns
    -------
    ndarray of float64, shape ``(dataset, repeat, run, fold)``
        Positive values favour A, the convention of the tests.

    Examples
    --------
    >>> import xarray as xr
    >>> ds = xr.Dataset({"n_test": ("fold", [30, 30]), "correct_a": ("fold", [27, 24]),
    ...                  "correct_b": ("fold", [24, 24])})
    >>> fold_differences(ds)
    array([0.1, 0. ])
    """
    n_test = counts["n_test"].values.astype(np.float64)
    return (counts["correct_a"].values - counts["correct_b"].values) / n_test
