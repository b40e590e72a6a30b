"""Experiment runner: evaluate two learners on the same splits of many data sets.

An experiment is declared by an :class:`ExperimentConfig` (plain values only, with a
canonical JSON form and a SHA-256 hash). :func:`run_experiment` draws
``n_datasets`` data sets from a registered source, splits each ``n_repeats`` times
with a registered sampling scheme, evaluates learners A and B on every split and
records the per-fold sufficient statistics ``n_test, correct_a, correct_b,
correct_both``, from which every test in the papers can be computed.

Randomness (DESIGN.md, "Randomness"): data set ``i`` draws its data from
``SeedSequence(seed, spawn_key=(i, 0))`` and the splits of its repeat ``r`` from
``SeedSequence(seed, spawn_key=(i, 1, r))``. Nothing depends on the order of
execution, so every backend and every slice gives bit-identical arrays.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import sys
import time

import numpy as np
import xarray as xr
from sklearn.model_selection import KFold

from .._validation import check_choice, check_fraction, check_positive_int
from .splits import _seeded, _splits_from_folds, _stratified_test_folds
from .store import ResultStore, provenance

# The registries (SOURCES, LEARNERS, SCHEMES, PAIR_EVALUATORS) are read through this
# module; they are not exported at the package top level, where `SCHEMES` names
# Bouckaert's averaging schemes (replicability.stats.schemes).
__all__ = [
    "ExperimentConfig",
    "register_learner",
    "register_pair_evaluator",
    "register_scheme",
    "register_source",
    "run_experiment",
    "stack_sources",
]

VARIABLES = ("n_test", "correct_a", "correct_b", "correct_both")
DIMS = ("dataset", "repeat", "run", "fold")
_BACKENDS = ("serial", "processes", "dask")

#: name -> ``factory(rng, *, n_instances, **params) -> (X, y)``
SOURCES = {}
#: name -> ``factory(**params) -> estimator`` with ``fit`` / ``predict``
LEARNERS = {}
#: name -> ``factory(**params) -> split(X, y, rng)`` returning runs of (train, test) folds
SCHEMES = {}
#: (learner_a, learner_b) -> ``evaluate(X, y, splits, *, params_a, params_b)``
PAIR_EVALUATORS = {}


def _check_name(value, name):
    if not isinstance(value, str) or not value:
        raise ValueError(f"`{name}` must be a non-empty string; got {value!r}.")
    return value


def _check_callable(value, name):
    if not callable(value):
        raise TypeError(f"`{name}` must be callable; got {type(value).__name__}.")
    return value


def register_source(name, factory):
    """Register a data source ``factory(rng, *, n_instances, **params) -> (X, y)``.

    ``rng`` is a :class:`numpy.random.Generator`; the source must draw all its
    randomness from it. Returns ``factory`` so it can be used as a decorator helper.
    """
    SOURCES[_check_name(name, "name")] = _check_callable(factory, "factory")
    return factory


def register_learner(name, factory):
    """Register a learner ``factory(**params)`` returning a fresh unfitted estimator.

    Learner randomness must be fixed through its parameters (``random_state``).
    """
    LEARNERS[_check_name(name, "name")] = _check_callable(factory, "factory")
    return factory


def register_scheme(name, factory):
    """Register a sampling scheme ``factory(**params) -> split``.

    ``split(X, y, rng)`` returns a list of runs, each a list of ``(train, test)``
    index arrays, the same number of folds in every run.
    """
    SCHEMES[_check_name(name, "name")] = _check_callable(factory, "factory")
    return factory


def register_pair_evaluator(learner_a, learner_b, evaluate):
    """Register a fast path for the pair of learners ``(learner_a, learner_b)``.

    ``evaluate(X, y, splits, *, params_a, params_b)`` receives every split of a
    data set (all repeats, runs and folds, flattened) and returns an integer array
    of shape ``(len(splits), 3)``: ``correct_a, correct_b, correct_both`` per split.
    It must give the same numbers as fitting and predicting the two estimators.
    """
    key = (_check_name(learner_a, "learner_a"), _check_name(learner_b, "learner_b"))
    PAIR_EVALUATORS[key] = _check_callable(evaluate, "evaluate")
    return evaluate


# -- built-in sampling schemes -----------------------------------------------------


def _int_seeds(rng, n):
    # scikit-learn splitters take integer seeds; draw them from the repeat's stream.
    return [int(s) for s in rng.integers(0, 2**32, size=n)]


def _cv(*, n_runs=10, n_folds=10, stratified=False):
    n_runs = check_positive_int(n_runs, "n_runs")
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)

    def split(X, y, rng):
        seeds = _int_seeds(rng, n_runs)
        if not stratified:
            return [list(KFold(n_folds, shuffle=True, random_state=seed).split(X, y)) for seed in seeds]
        # StratifiedKFold(n_folds, shuffle=True, random_state=seed) per run, computed
        # without scikit-learn's per-call input checks (the same splits, tested).
        folds = _stratified_test_folds(y, _seeded(seeds), n_folds)
        flat = _splits_from_folds(folds, n_folds)
        return [flat[r * n_folds:(r + 1) * n_folds] for r in range(n_runs)]

    return split


def _resample(*, n_runs=10, test_fraction=1 / 3, stratified=False):
    from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit

    n_runs = check_positive_int(n_runs, "n_runs")
    check_fraction(test_fraction, "test_fraction")
    splitter = StratifiedShuffleSplit if stratified else ShuffleSplit

    def split(X, y, rng):
        seed = _int_seeds(rng, 1)[0]
        sss = splitter(n_splits=n_runs, test_size=test_fraction, random_state=seed)
        return [[fold] for fold in sss.split(X, y)]

    return split


def _five_by_two(*, stratified=False):
    # Dietterich's 5x2 cv: five runs of two-fold cross-validation.
    return _cv(n_runs=5, n_folds=2, stratified=stratified)


register_scheme("cv", _cv)
register_scheme("resample", _resample)
register_scheme("5x2", _five_by_two)


# -- configuration -----------------------------------------------------------------


def _plain(value, name):
    """Round-trip through JSON: rejects non-plain values, turns tuples into lists."""
    if not isinstance(value, dict):
        raise TypeError(f"`{name}` must be a dict; got {type(value).__name__}.")
    try:
        text = json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"`{name}` must hold only plain JSON values (str, int, float, bool, None, "
            f"lists, dicts with str keys); got {value!r}."
        ) from exc
    return json.loads(text)


@dataclasses.dataclass(frozen=True, kw_only=True)
class ExperimentConfig:
    """Declarative, hashable description of one experiment (one source).

    Parameters
    ----------
    source, learner_a, learner_b, scheme : str
        Names in the registries ``SOURCES``, ``LEARNERS`` and ``SCHEMES`` of this module.
    source_params, learner_a_params, learner_b_params, scheme_params : dict
        Keyword arguments of the factories; plain JSON values only.
    n_datasets : int
        Number of data sets drawn from the source.
    n_instances : int
        Instances per data set.
    n_repeats : int
        Randomizations of the splits per data set.
    seed : int
        Root seed (non-negative).

    Notes
    -----
    :meth:`to_json` is canonical (sorted keys, no whitespace), so
    :attr:`config_hash`, its SHA-256, does not depend on dict ordering, the Python
    process or the platform. Equality and ``hash()`` follow the canonical form.

    Examples
    --------
    >>> cfg = ExperimentConfig(source="s", learner_a="a", learner_b="b",
    ...                        scheme_params={"n_runs": 2, "n_folds": 3})
    >>> cfg == ExperimentConfig.from_json(cfg.to_json())
    True
    >>> len(cfg.config_hash)
    64
    """

    source: str
    learner_a: str
    learner_b: str
    scheme: str = "cv"
    source_params: dict = dataclasses.field(default_factory=dict)
    learner_a_params: dict = dataclasses.field(default_factory=dict)
    learner_b_params: dict = dataclasses.field(default_factory=dict)
    scheme_params: dict = dataclasses.field(default_factory=dict)
    n_datasets: int = 1
    n_instances: int = 100
    n_repeats: int = 1
    seed: int = 0

    def __post_init__(self):
        for name in ("source", "learner_a", "learner_b", "scheme"):
            _check_name(getattr(self, name), name)
        for name in ("source_params", "learner_a_params", "learner_b_params", "scheme_params"):
            object.__setattr__(self, name, _plain(getattr(self, name), name))
        for name in ("n_datasets", "n_instances", "n_repeats"):
            check_positive_int(getattr(self, name), name)
        check_positive_int(self.seed, "seed", minimum=0)

    def to_json(self):
        """Canonical JSON: sorted keys, compact separators."""
        return json.dumps(dataclasses.asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text):
        """Rebuild a configuration from :meth:`to_json` output."""
        return cls(**json.loads(text))

    @property
    def config_hash(self):
        """SHA-256 hex digest of :meth:`to_json`."""
        return hashlib.sha256(self.to_json().encode()).hexdigest()

    def __eq__(self, other):
        if not isinstance(other, ExperimentConfig):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __hash__(self):
        return int(self.config_hash[:16], 16)


# -- evaluation of one chunk of data sets ------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Plan:
    """A configuration with its factories resolved (shipped to the workers)."""

    config: ExperimentConfig
    source: object
    learner_a: object
    learner_b: object
    split: object
    evaluator: object


def _resolve(config):
    def look_up(registry, name, what):
        if name not in registry:
            raise ValueError(f"`{what}` must be a registered name {sorted(registry)}; got {name!r}.")
        return registry[name]

    return _Plan(
        config=config,
        source=look_up(SOURCES, config.source, "source"),
        learner_a=look_up(LEARNERS, config.learner_a, "learner_a"),
        learner_b=look_up(LEARNERS, config.learner_b, "learner_b"),
        split=look_up(SCHEMES, config.scheme, "scheme")(**config.scheme_params),
        evaluator=PAIR_EVALUATORS.get((config.learner_a, config.learner_b)),
    )


def _fit_predict(plan, X, y, splits):
    cfg = plan.config
    out = np.empty((len(splits), 3), dtype=np.int64)
    for i, (train, test) in enumerate(splits):
        hit_a = plan.learner_a(**cfg.learner_a_params).fit(X[train], y[train]).predict(X[test]) == y[test]
        hit_b = plan.learner_b(**cfg.learner_b_params).fit(X[train], y[train]).predict(X[test]) == y[test]
        out[i] = hit_a.sum(), hit_b.sum(), (hit_a & hit_b).sum()
    return out


def _evaluate_dataset(plan, index):
    """Counts of shape (4, n_repeats, n_runs, n_folds) for data set ``index``."""
    cfg = plan.config
    data_rng = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(index, 0)))
    X, y = plan.source(data_rng, n_instances=cfg.n_instances, **cfg.source_params)
    X, y = np.asarray(X), np.asarray(y)
    splits, n_runs, n_folds = [], None, None
    for repeat in range(cfg.n_repeats):
        # One stream per repeat, shared by A and B: both see the same splits.
        split_rng = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(index, 1, repeat)))
        runs = plan.split(X, y, split_rng)
        if n_runs is None:
            n_runs, n_folds = len(runs), len(runs[0])
        if len(runs) != n_runs or any(len(run) != n_folds for run in runs):
            raise ValueError(f"`scheme` {cfg.scheme!r} must give the same number of runs and folds every time.")
        splits.extend(fold for run in runs for fold in run)
    if plan.evaluator is not None:
        counts = np.asarray(
            plan.evaluator(X, y, splits, params_a=cfg.learner_a_params, params_b=cfg.learner_b_params),
            dtype=np.int64,
        )
    else:
        counts = _fit_predict(plan, X, y, splits)
    n_test = np.array([len(test) for _, test in splits], dtype=np.int64)
    stats = np.column_stack([n_test, counts]).T
    return stats.reshape(4, cfg.n_repeats, n_runs, n_folds)


def _run_chunk(plan, indices):
    """Evaluate the data sets ``indices``; return a labeled Dataset and the compute time."""
    start = time.perf_counter()
    stats = np.stack([_evaluate_dataset(plan, int(i)) for i in indices], axis=1)
    _, n_ds, n_rep, n_runs, n_folds = stats.shape
    coords = {
        "dataset": np.asarray(indices, dtype=np.int64),
        "repeat": np.arange(n_rep, dtype=np.int64),
        "run": np.arange(n_runs, dtype=np.int64),
        "fold": np.arange(n_folds, dtype=np.int64),
    }
    ds = xr.Dataset({name: (DIMS, stats[k].astype(np.int32)) for k, name in enumerate(VARIABLES)}, coords=coords)
    ds.attrs["compute_time_s"] = time.perf_counter() - start
    return ds


# -- backends ----------------------------------------------------------------------


def _iter_serial(plan, chunks, n_jobs, client):
    for chunk in chunks:
        yield _run_chunk(plan, chunk)


def _iter_processes(plan, chunks, n_jobs, client):
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=n_jobs or -1, return_as="generator_unordered")
    yield from parallel(delayed(_run_chunk)(plan, chunk) for chunk in chunks)


def _iter_dask(plan, chunks, n_jobs, client):
    try:
        from dask.distributed import as_completed, get_client
    except ImportError as exc:
        raise ImportError(
            "`backend` 'dask' needs the [dask] extra: pip install 'replicability[dask]'."
        ) from exc

    client = client if client is not None else get_client()
    plan_future = client.scatter(plan, broadcast=True)
    futures = client.map(_run_chunk, [plan_future] * len(chunks), chunks, pure=False)
    for future in as_completed(futures):
        yield future.result()


_ITERATORS = {"serial": _iter_serial, "processes": _iter_processes, "dask": _iter_dask}


# -- provenance --------------------------------------------------------------------


def _provenance(config, wall_time):
    return {
        "config": config.to_json(),
        "config_hash": config.config_hash,
        "source": config.source,
        "learner_a": config.learner_a,
        "learner_b": config.learner_b,
        "scheme": config.scheme,
        "n_datasets": config.n_datasets,
        "n_repeats": config.n_repeats,
        "seed": config.seed,
        **provenance(wall_time),
    }


def _check_datasets(datasets, n_datasets):
    if datasets is None:
        return np.arange(n_datasets, dtype=np.int64)
    arr = np.unique(np.asarray(datasets).ravel())
    if arr.size == 0 or not np.issubdtype(arr.dtype, np.integer) or arr[0] < 0 or arr[-1] >= n_datasets:
        raise ValueError(f"`datasets` must be integer indices in [0, {n_datasets}); got {datasets!r}.")
    return arr.astype(np.int64)


def _as_store(store):
    if store is None or store is False:
        return None
    if store is True:
        return ResultStore()
    if isinstance(store, ResultStore):
        return store
    if isinstance(store, (str, os.PathLike)):
        return ResultStore(store)
    raise TypeError(f"`store` must be None, True, a path or a ResultStore; got {type(store).__name__}.")


def _want_progress(progress):
    if progress is None:
        # Only on an interactive terminal: never in notebook outputs or logs.
        return bool(getattr(sys.stderr, "isatty", lambda: False)())
    return bool(progress)


def run_experiment(
    config,
    *,
    backend="serial",
    n_jobs=None,
    client=None,
    store=None,
    progress=None,
    datasets=None,
    chunk_size=None,
):
    """Evaluate learners A and B on every split of every data set of ``config``.

    Parameters
    ----------
    config : ExperimentConfig
    backend : {"serial", "processes", "dask"}
        ``"processes"`` uses joblib (loky) with ``n_jobs`` workers; ``"dask"`` uses
        ``client`` (a ``dask.distributed.Client``), or the current client if None.
    n_jobs : int or None
        Workers for ``"processes"``; None uses every CPU.
    client : dask.distributed.Client or None
    store : None, True, str, os.PathLike or ResultStore
        Where to cache results (True: the default store). A complete stored result
        is returned without computing; otherwise finished chunks are saved as they
        come and an interrupted run resumes from them.
    progress : bool or None
        Show a tqdm bar; None shows one only if stderr is a terminal.
    datasets : array-like of int or None
        Compute only these data set indices (a slice of the full run, bit for bit).
    chunk_size : int or None
        Data sets per unit of work (and per stored chunk); None picks about four
        chunks per worker, at most 50 data sets each. Never changes the results.

    Returns
    -------
    xarray.Dataset
        Integer variables ``n_test, correct_a, correct_b, correct_both`` on dims
        ``(dataset, repeat, run, fold)``; attributes hold the provenance: canonical
        config JSON and hash, seed, package version, git commit, wall time, machine.

    Notes
    -----
    Data set ``i`` uses ``SeedSequence(seed, spawn_key=(i, 0))`` for its data and
    ``SeedSequence(seed, spawn_key=(i, 1, r))`` for the splits of repeat ``r``, so the
    arrays do not depend on the backend, the number of workers, the chunking or
    which data sets are computed together. ``wall_time_s`` sums the compute time of
    the chunks reused from the store and the time of this call.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.dummy import DummyClassifier
    >>> def coin(rng, *, n_instances):
    ...     return rng.integers(0, 2, (n_instances, 3)), rng.integers(0, 2, n_instances)
    >>> _ = register_source("doc_coin", coin)
    >>> _ = register_learner("doc_majority", DummyClassifier)
    >>> cfg = ExperimentConfig(source="doc_coin", learner_a="doc_majority",
    ...                        learner_b="doc_majority", n_datasets=2, n_instances=30,
    ...                        scheme_params={"n_runs": 2, "n_folds": 3})
    >>> res = run_experiment(cfg, progress=False)
    >>> dict(res.sizes)
    {'dataset': 2, 'repeat': 1, 'run': 2, 'fold': 3}
    >>> bool((res.correct_a == res.correct_both).all())
    True
    """
    if not isinstance(config, ExperimentConfig):
        raise TypeError(f"`config` must be an ExperimentConfig; got {type(config).__name__}.")
    check_choice(backend, "backend", _BACKENDS)
    if n_jobs is not None and n_jobs != -1:
        check_positive_int(n_jobs, "n_jobs")
    if chunk_size is not None:
        check_positive_int(chunk_size, "chunk_size")
    indices = _check_datasets(datasets, config.n_datasets)
    store = _as_store(store)
    start = time.perf_counter()

    if store is not None:
        # A stored result is returned even if its components are not registered here.
        full = store.load(config)
        if full is not None:
            return full if datasets is None else full.sel(dataset=indices)
    plan = _resolve(config)
    pieces, reused_time = [], 0.0
    if store is not None:
        for part in store.load_parts(config):
            keep = np.intersect1d(part["dataset"].values, indices)
            if keep.size:
                pieces.append(part.sel(dataset=keep))
                reused_time += float(part.attrs.get("compute_time_s", 0.0))
    done = np.unique(np.concatenate([p["dataset"].values for p in pieces])) if pieces else np.array([], int)
    missing = np.setdiff1d(indices, done)

    if chunk_size is None:
        workers = 1 if backend == "serial" else (n_jobs if n_jobs and n_jobs > 0 else os.cpu_count() or 1)
        chunk_size = max(1, min(50, math.ceil(missing.size / (4 * workers))))
    chunks = [missing[i : i + chunk_size] for i in range(0, missing.size, chunk_size)]

    bar = None
    if _want_progress(progress) and chunks:
        from tqdm.auto import tqdm

        bar = tqdm(total=int(missing.size), desc=f"{config.source}: data sets", unit="ds")
    try:
        for chunk_ds in _ITERATORS[backend](plan, chunks, n_jobs, client):
            if store is not None:
                store.save_part(config, chunk_ds)
            pieces.append(chunk_ds)
            if bar is not None:
                bar.update(chunk_ds.sizes["dataset"])
    finally:
        if bar is not None:
            bar.close()

    # Parts may overlap (a chunk rewritten after a crash); keep each data set once.
    result = xr.concat(pieces, dim="dataset", combine_attrs="drop").sortby("dataset")
    _, first = np.unique(result["dataset"].values, return_index=True)
    result = result.isel(dataset=first)
    result.attrs = _provenance(config, reused_time + time.perf_counter() - start)
    if store is not None and datasets is None:
        store.save(config, result)
        store.clear_parts(config)
    return result


def stack_sources(results, *, names=None):
    """Stack the results of several configurations on a leading ``source`` dim.

    Parameters
    ----------
    results : sequence of xarray.Dataset
        Outputs of :func:`run_experiment` with equal ``repeat, run, fold`` sizes.
    names : sequence of str or None
        Labels of the ``source`` coordinate; None uses ``"<source> <hash[:8]>"``
        from each result's provenance.

    Returns
    -------
    xarray.Dataset
        Dims ``(source, dataset, repeat, run, fold)``; attribute ``configs`` holds the
        JSON list of the configurations, in order.
    """
    results = list(results)
    if not results:
        raise ValueError("`results` must hold at least one dataset; got an empty sequence.")
    if names is None:
        names = [f"{r.attrs.get('source', '?')} {str(r.attrs.get('config_hash', ''))[:8]}" for r in results]
    names = [str(n) for n in names]
    if len(names) != len(results) or len(set(names)) != len(names):
        raise ValueError(f"`names` must be {len(results)} distinct labels; got {names!r}.")
    configs = json.dumps([json.loads(r.attrs["config"]) if "config" in r.attrs else None for r in results])
    stacked = xr.concat([r.drop_attrs() for r in results], dim="source", join="exact")
    stacked = stacked.assign_coords(source=names).transpose("source", *DIMS)
    stacked.attrs["configs"] = configs
    return stacked
