"""Experiment runner: evaluate k learners on the same splits of many data sets.

An experiment is declared by an :class:`ExperimentConfig` (plain values only, with a
canonical JSON form and a SHA-256 hash). :func:`run_experiment` draws
``n_datasets`` data sets from a registered source, splits each ``n_repeats`` times
with a registered sampling scheme, fits every learner once on every split and
records per fold ``n_test`` and, for every two learners, the test instances both
classify correctly (``correct_both``; its diagonal is each learner's ``correct``).
:func:`pair_counts` reads the papers' sufficient statistics of one pair from it,
``n_test, correct_a, correct_b, correct_both``, from which every test in the papers
can be computed.

Randomness (DESIGN.md, "Randomness"): data set ``i`` draws its data from
``SeedSequence(seed, spawn_key=(i, 0))`` and the splits of its repeat ``r`` from
``SeedSequence(seed, spawn_key=(i, 1, r))``. Nothing depends on the order of
execution, so every backend and every slice gives bit-identical arrays.

Array jobs (:mod:`replicability.engine.slices`): ``run_experiment(config, store=...,
slice=(i, n))`` computes the ``i``-th of ``n`` contiguous shares of the data sets into
the store's chunks, as task ``i`` of an array job does on any machine that sees the
store; :func:`~replicability.engine.slices.join_slices` assembles and checks them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import math
import operator
import os
import sys
import time
import typing

import numpy as np
import xarray as xr

from .._collector import paused
from .._validation import check_choice, check_positive_int
from ..learners.pairs import FAST_LEARNERS, evaluate_learners
from ._seed_kernels import repeat_seeds
from .parallel import BACKENDS, parallel_map
from .registry import LEARNERS, PAIR_EVALUATORS, SCHEMES, SOURCES, VERSIONS, code_fingerprint
from .splits import _FlatRuns, _FlatSplits
from .store import ResultStore, provenance

__all__ = ["ExperimentConfig", "pair_counts", "run_experiment", "slice_datasets", "stack_sources"]

DIMS = ("dataset", "repeat", "run", "fold")
#: Where the joint counts of a pair sit among ``correct_a, correct_b, correct_both``.
_JOINT = np.array([[0, 2], [2, 1]])
#: Data and splits drawn ahead of their evaluation, at most (_evaluate_datasets).
_GROUP_BYTES = 32 << 20
#: The provenance every stored chunk records: slices.join_slices requires the first two equal.
_ORIGIN = ("package_version", "git_commit", "machine")


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
    source : str
        A name in the registry's ``SOURCES``.
    learners : sequence of str
        Names in the registry's ``LEARNERS`` (at least one; a name may repeat with
        other options).
    scheme : str
        A name in the registry's ``SCHEMES``.
    source_params, scheme_params : dict
        Keyword arguments of the factories; plain JSON values only.
    learner_params : sequence of dict, optional
        Keyword arguments of each learner's factory (default: none).
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
    >>> cfg = ExperimentConfig(source="s", learners=["a", "b"],
    ...                        scheme_params={"n_runs": 2, "n_folds": 3})
    >>> cfg == ExperimentConfig.from_json(cfg.to_json())
    True
    >>> cfg.learners, len(cfg.config_hash)
    (('a', 'b'), 64)
    """

    source: str
    learners: tuple
    scheme: str = "cv"
    source_params: dict = dataclasses.field(default_factory=dict)
    learner_params: tuple = None
    scheme_params: dict = dataclasses.field(default_factory=dict)
    n_datasets: int = 1
    n_instances: int = 100
    n_repeats: int = 1
    seed: int = 0

    def __post_init__(self):
        for name in ("source", "scheme"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise ValueError(f"`{name}` must be a non-empty string; got {getattr(self, name)!r}.")
        learners = self.learners
        if isinstance(learners, str) or not all(isinstance(n, str) and n for n in learners) or not learners:
            raise ValueError(f"`learners` must be a non-empty sequence of learner names; got {learners!r}.")
        object.__setattr__(self, "learners", tuple(learners))
        params = self.learner_params if self.learner_params is not None else [{}] * len(self.learners)
        if isinstance(params, dict) or len(params) != len(self.learners):
            raise ValueError(f"`learner_params` must hold one dict per learner ({len(self.learners)}); "
                             f"got {self.learner_params!r}.")
        object.__setattr__(self, "learner_params", tuple(_plain(p, "learner_params") for p in params))
        for name in ("source_params", "scheme_params"):
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
    def code_versions(self):
        """Versions of the registered code this experiment runs, or None if some is not registered.

        Source, learners, scheme and, when a compiled kernel computes the counts, the
        kernel (:data:`~replicability.engine.registry.VERSIONS`).
        """
        names = [f"source:{self.source}", *(f"learner:{n}" for n in self.learners), f"scheme:{self.scheme}"]
        pair = tuple(self.learners) if len(self.learners) == 2 else None
        if pair and f"kernel:{pair[0]}/{pair[1]}" in VERSIONS:  # a user-registered pair evaluator
            names.append(f"kernel:{pair[0]}/{pair[1]}")
        elif (pair in PAIR_EVALUATORS) or any(n in FAST_LEARNERS for n in self.learners):
            names.append("kernel:pairs")
        if any(n not in VERSIONS for n in names):
            return None
        return {n: VERSIONS[n] for n in sorted(set(names))}

    @property
    def code_identity(self):
        """:attr:`code_versions` with a fingerprint of each component's registered code, or None.

        ``{component: [version, fingerprint]}``
        (:func:`~replicability.engine.registry.code_fingerprint`): what every stored
        chunk of a run records, so that a resumed run refuses chunks of other code
        even at the same version. A kernel is fingerprinted by the evaluator the
        runner calls for this pair.
        """
        versions = self.code_versions
        if versions is None:
            return None
        pair = tuple(self.learners) if len(self.learners) == 2 else None
        factories = {f"source:{self.source}": SOURCES.get(self.source),
                     f"scheme:{self.scheme}": SCHEMES.get(self.scheme),
                     **{f"learner:{name}": LEARNERS.get(name) for name in self.learners}}
        kernel = PAIR_EVALUATORS.get(pair, evaluate_learners)
        return {name: [version, code_fingerprint(factories.get(name, kernel))] for name, version in versions.items()}

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
    learners: tuple
    split: object
    pair_evaluator: object


def _resolve(config):
    def look_up(registry, name, what):
        if name not in registry:
            raise ValueError(f"`{what}` must be a registered name {sorted(registry)}; got {name!r}.")
        return registry[name]

    return _Plan(
        config=config,
        source=look_up(SOURCES, config.source, "source"),
        learners=tuple((name, look_up(LEARNERS, name, "learners")) for name in config.learners),
        split=look_up(SCHEMES, config.scheme, "scheme")(**config.scheme_params),
        pair_evaluator=PAIR_EVALUATORS.get(config.learners) if len(config.learners) == 2 else None,
    )


def _prepare_counts(plan, X, y, splits):
    """A callable giving the counts of every split: those of :func:`_joint_counts`, one data set.

    A registered pair evaluator with a ``prepare`` step does it now, so the
    counting left to the callable is the kernel's.
    """
    cfg = plan.config
    if plan.pair_evaluator is None:
        return functools.partial(evaluate_learners, X, y, splits, learners=plan.learners, params=cfg.learner_params)
    params_a, params_b = cfg.learner_params
    prepare = getattr(plan.pair_evaluator, "prepare", None)
    if prepare is not None:
        return prepare(X, y, splits, params_a=params_a, params_b=params_b)
    return functools.partial(plan.pair_evaluator, X, y, splits, params_a=params_a, params_b=params_b)


def _joint_counts(plan, counts):
    """The ``(..., n_splits, k, k)`` test instances learners i and j both get right, from the counts of data sets.

    ``counts`` stacks what the callables of :func:`_prepare_counts` give: those
    already, or a pair evaluator's (a fused kernel's) ``correct_a, correct_b,
    correct_both`` on the last axis, spread over the pair's 2 x 2 here, once for
    all the data sets.
    """
    return counts if plan.pair_evaluator is None else counts[..., _JOINT]


@paused
def _draw_dataset(plan, index):
    """Data set ``index`` and the splits of all its repeats: ``X, y, splits, n_test`` (n_repeats, n_runs, n_folds).

    The compiled samplers and splitters run with the garbage collector paused
    (:func:`replicability._collector.paused`), as the learners' kernels do.
    """
    cfg = plan.config
    data_rng = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(index, 0)))
    X, y = plan.source(data_rng, n_instances=cfg.n_instances, **cfg.source_params)
    X, y = np.asarray(X), np.asarray(y)
    # One stream per repeat, shared by every learner: all see the same splits.
    from_seeds = getattr(plan.split, "from_seeds", None)
    if from_seeds is not None:  # the scheme draws one seed per repeat: the splits of all repeats in one call
        splits, (n_runs, n_folds) = from_seeds(X, y, repeat_seeds(cfg.seed, (index, 1), cfg.n_repeats))
    else:
        repeats = [plan.split(X, y, np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(index, 1, r))))
                   for r in range(cfg.n_repeats)]
        # (runs, folds) of every repeat: the built-in cv schemes' runs know theirs without building the splits.
        shapes = {(len(runs), runs.n_folds) if isinstance(runs, _FlatRuns)
                  else (len(runs), *{len(run) for run in runs}) for runs in repeats}
        if len(shapes) != 1 or len(next(iter(shapes))) != 2:
            raise ValueError(f"`scheme` {cfg.scheme!r} must give the same number of runs and folds every time.")
        ((n_runs, n_folds),) = shapes
        if all(isinstance(runs, _FlatRuns) for runs in repeats):
            # The splits of all repeats at once, in the concatenated form the kernels read.
            splits = _FlatRuns.join(repeats)
        else:
            splits = [fold for runs in repeats for run in runs for fold in run]
    n_test = splits.n_test if isinstance(splits, _FlatSplits) else [len(test) for _, test in splits]
    return X, y, splits, np.asarray(n_test, dtype=np.int64).reshape(cfg.n_repeats, n_runs, n_folds)


def _evaluate_datasets(plan, indices):
    """``n_test`` (datasets, n_repeats, n_runs, n_folds) and joint counts (..., k, k) of the data sets ``indices``.

    Both int32, as a :class:`_Chunk` holds them.

    Data sets are drawn and prepared (:func:`_prepare_counts`) a few at a time,
    then counted in turn: the compiled kernels run back to back, and the Python
    code that draws data and splits and checks them runs warm in the caches
    instead of after each kernel (~0.4 ms a data set of 300 instances). A group
    holds up to ``_GROUP_BYTES`` of data and splits.
    """
    k = len(plan.config.learners)
    n_test, joint, group, size = [], [], [], 0
    for position, index in enumerate(indices):
        X, y, splits, n_test_ds = _draw_dataset(plan, int(index))
        group.append(_prepare_counts(plan, X, y, splits))
        n_test.append(n_test_ds)
        size += X.nbytes + y.nbytes + n_test_ds.size * y.size * 8  # at most n indices a split
        if size >= _GROUP_BYTES or position == len(indices) - 1:
            # Between two kernel calls only the next call: the counts are laid out once for the group.
            counts = _joint_counts(plan, np.asarray(np.stack([count() for count in group]), dtype=np.int64))
            joint.append(counts.reshape(len(group), *n_test_ds.shape, k, k))
            group, size = [], 0
    return np.stack(n_test, dtype=np.int32), np.concatenate(joint, dtype=np.int32)


class _Chunk(typing.NamedTuple):
    """The counts of some data sets: what a unit of work returns, as plain arrays.

    Chunks become labelled Datasets only to be stored, and the result once, from
    all of them: building and concatenating a Dataset per chunk cost about 1% of
    a serial run.
    """

    dataset: np.ndarray  # (datasets,) int64 indices
    n_test: np.ndarray  # (datasets, repeat, run, fold)
    correct_both: np.ndarray  # (datasets, repeat, run, fold, learner, other)
    compute_time_s: float

    @classmethod
    def of(cls, ds):
        """The chunk of a stored Dataset."""
        return cls(ds["dataset"].values, ds["n_test"].values, ds["correct_both"].values,
                   float(ds.attrs.get("compute_time_s", 0.0)))

    @classmethod
    def joined(cls, chunks):
        """One chunk of all data sets of ``chunks``, in ascending order, each once (the first found)."""
        dataset = np.concatenate([chunk.dataset for chunk in chunks])
        if np.all(dataset[1:] > dataset[:-1]):  # ascending already, each once (a serial run): nothing to copy
            first = slice(None)
        else:
            _, first = np.unique(dataset, return_index=True)
        return cls(dataset[first], np.concatenate([chunk.n_test for chunk in chunks])[first],
                   np.concatenate([chunk.correct_both for chunk in chunks])[first],
                   sum(chunk.compute_time_s for chunk in chunks))

    def to_dataset(self):
        """The labelled Dataset: ``n_test`` and ``correct_both`` with coordinates, and ``compute_time_s``."""
        _, n_rep, n_runs, n_folds, k, _ = self.correct_both.shape
        coords = {
            "dataset": np.asarray(self.dataset, dtype=np.int64),
            "repeat": np.arange(n_rep, dtype=np.int64),
            "run": np.arange(n_runs, dtype=np.int64),
            "fold": np.arange(n_folds, dtype=np.int64),
            "learner": np.arange(k, dtype=np.int64),
            "other": np.arange(k, dtype=np.int64),
        }
        return xr.Dataset({"n_test": (DIMS, self.n_test), "correct_both": ((*DIMS, "learner", "other"),
                                                                          self.correct_both)},
                          coords=coords, attrs={"compute_time_s": self.compute_time_s})


def _run_chunk(plan, indices):
    """Evaluate the data sets ``indices``; return their :class:`_Chunk`."""
    start = time.perf_counter()
    n_test, joint = _evaluate_datasets(plan, indices)
    return _Chunk(np.asarray(indices, dtype=np.int64), n_test, joint, time.perf_counter() - start)


def pair_counts(result, a=0, b=1):
    """The sufficient statistics of learners ``a`` and ``b`` of a :func:`run_experiment` result.

    Parameters
    ----------
    result : xarray.Dataset
        A result of :func:`run_experiment` (variables ``n_test`` and ``correct_both``).
    a, b : int
        Positions of learners A and B in the configuration's ``learners``.

    Returns
    -------
    xarray.Dataset
        ``n_test, correct_a, correct_b, correct_both`` on the dimensions of ``n_test``,
        with ``result``'s attributes.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> joint = np.array([[[8, 6], [6, 7]]])  # one fold; learners 0 and 1
    >>> res = xr.Dataset({"n_test": ("fold", [10]),
    ...                   "correct_both": (("fold", "learner", "other"), joint)})
    >>> [int(pair_counts(res)[v][0]) for v in ("n_test", "correct_a", "correct_b", "correct_both")]
    [10, 8, 7, 6]
    """
    both = result["correct_both"]
    k = both.sizes["learner"]
    for value, name in ((a, "a"), (b, "b")):
        if not isinstance(value, (int, np.integer)) or not 0 <= value < k:
            raise ValueError(f"`{name}` must be a learner position in [0, {k}); got {value!r}.")
    out = xr.Dataset({
        "n_test": result["n_test"],
        "correct_a": both.isel(learner=a, other=a, drop=True),
        "correct_b": both.isel(learner=b, other=b, drop=True),
        "correct_both": both.isel(learner=a, other=b, drop=True),
    })
    out.attrs = dict(result.attrs)
    return out


# -- provenance --------------------------------------------------------------------


def _provenance(config, wall_time):
    return {
        "config": config.to_json(),
        "code_versions": json.dumps(config.code_versions or {}, sort_keys=True, separators=(",", ":")),
        "config_hash": config.config_hash,
        "source": config.source,
        "learners": json.dumps(list(config.learners)),
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
    slice=None,
    chunk_size=None,
):
    """Evaluate every learner of ``config`` on every split of every data set.

    Parameters
    ----------
    config : ExperimentConfig
    backend : {"serial", "processes", "dask", "joblib"}
        How the chunks are mapped (:func:`~replicability.engine.parallel.parallel_map`): ``"processes"`` uses
        ``n_jobs`` local workers (loky); ``"dask"`` uses ``client`` (a
        ``dask.distributed.Client``), or the current client if None; ``"joblib"``
        uses ``joblib.Parallel`` under the caller's ``joblib.parallel_config``
        (joblib's loky, threading or multiprocessing backend, or one another package
        registers: Dask's, Ray's, Spark's).
    n_jobs : int or None
        Workers for ``"processes"`` (None: every CPU) and ``"joblib"`` (None: the
        ``parallel_config``'s).
    client : dask.distributed.Client or None
    store : None, True, str, os.PathLike or ResultStore
        Where to cache results (True: the default store). A complete stored result
        is returned without computing; otherwise finished chunks are saved as they
        come and an interrupted run resumes from them, from chunks of the same code
        only (:attr:`ExperimentConfig.code_identity`). A whole run (``datasets=None``)
        holds the experiment's lock (:meth:`~replicability.engine.store.ResultStore.lock`):
        a second run of the experiment, in another process, waits for it and then
        reads its result; runs of slices go side by side.
    progress : bool or None
        Show a tqdm bar; None shows one only if stderr is a terminal.
    datasets : array-like of int or None
        Compute only these data set indices (a slice of the full run, bit for bit).
    slice : tuple of two int or None
        ``(i, n)``: compute the ``i``-th (from 0) of ``n`` contiguous shares of the
        data sets (:func:`slice_datasets`), as task ``i`` of an array job of ``n``
        tasks does, into ``store`` (required), skipping the data sets whose chunks
        it holds; :func:`~replicability.engine.slices.join_slices` then assembles the complete result. Not with
        ``datasets``.
    chunk_size : int or None
        Data sets per unit of work (and per stored chunk); None picks about four
        chunks per worker, at most 50 data sets each. Never changes the results.

    Returns
    -------
    xarray.Dataset
        Integer variables ``n_test`` on dims ``(dataset, repeat, run, fold)`` and
        ``correct_both`` on ``(dataset, repeat, run, fold, learner, other)``: the test
        instances learners ``learner`` and ``other`` (positions in
        ``config.learners``) both classify correctly, each learner's own correct
        count on the diagonal (:func:`pair_counts` gives the four statistics of a
        pair). Every learner is fitted once per split, except that a pair with a
        registered pair evaluator (a fused kernel) is counted by it. Attributes
        hold the provenance: canonical config JSON and hash, code versions, seed,
        package version, git commit, wall time, machine.

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
    >>> from replicability.engine.registry import register_learner, register_source
    >>> _ = register_source("doc_coin", coin)
    >>> _ = register_learner("doc_majority", DummyClassifier)
    >>> cfg = ExperimentConfig(source="doc_coin", learners=["doc_majority", "doc_majority"],
    ...                        n_datasets=2, n_instances=30, scheme_params={"n_runs": 2, "n_folds": 3})
    >>> res = run_experiment(cfg, progress=False)
    >>> dict(res.sizes)
    {'dataset': 2, 'repeat': 1, 'run': 2, 'fold': 3, 'learner': 2, 'other': 2}
    >>> pair = pair_counts(res)
    >>> bool((pair.correct_a == pair.correct_both).all())
    True
    """
    if not isinstance(config, ExperimentConfig):
        raise TypeError(f"`config` must be an ExperimentConfig; got {type(config).__name__}.")
    check_choice(backend, "backend", BACKENDS)
    if n_jobs is not None and n_jobs != -1:
        check_positive_int(n_jobs, "n_jobs")
    if chunk_size is not None:
        check_positive_int(chunk_size, "chunk_size")
    store = _as_store(store)
    if slice is not None:
        if datasets is not None:
            raise ValueError(f"`datasets` and `slice` are exclusive; got both ({datasets!r}, {slice!r}).")
        if store is None:
            raise ValueError(f"`slice` {slice!r} needs a `store`: the slices are joined from its chunks.")
        datasets = slice_datasets(config, slice)
    indices = _check_datasets(datasets, config.n_datasets)
    run = functools.partial(_run, config, indices, store=store, whole=datasets is None, backend=backend,
                            n_jobs=n_jobs, client=client, progress=progress, chunk_size=chunk_size)
    if store is None or datasets is not None:  # a slice runs beside other slices, its chunks under short locks
        return run()

    def waiting(path):
        if _want_progress(progress):
            print(f"{config.source}: waiting for another run of this experiment (lock {path})", file=sys.stderr)

    # A whole run holds the experiment's lock: a second run waits, then reads the first's result.
    with store.lock(config, waiting=waiting):
        return run()


def _run(config, indices, *, store, whole, backend, n_jobs, client, progress, chunk_size):
    """The body of :func:`run_experiment`, its arguments checked; ``whole``: all data sets, saved as one result."""
    start = time.perf_counter()
    versions = config.code_versions
    if store is not None:
        # A stored result is returned even if its components are not registered here.
        full = store.load(config, versions=versions)
        if full is not None:
            return full if whole else full.sel(dataset=indices)
    plan = _resolve(config)
    identity = config.code_identity if store is not None else None
    pieces, reused_time = [], 0.0
    if store is not None:
        for part in store.load_parts(config, versions=versions, identity=identity):
            keep = np.intersect1d(part["dataset"].values, indices)
            if keep.size:
                pieces.append(_Chunk.of(part.sel(dataset=keep)))
                reused_time += pieces[-1].compute_time_s
    done = np.unique(np.concatenate([p.dataset for p in pieces])) if pieces else np.array([], int)
    missing = np.setdiff1d(indices, done)

    if chunk_size is None:
        workers = 1 if backend == "serial" else (n_jobs if n_jobs and n_jobs > 0 else os.cpu_count() or 1)
        chunk_size = max(1, min(50, math.ceil(missing.size / (4 * workers))))
    chunks = [missing[i : i + chunk_size] for i in range(0, missing.size, chunk_size)]

    # Each chunk records where it was computed, so that join_slices can check that all came from one checkout.
    origin = {} if store is None else {name: value for name, value in provenance(0.0).items() if name in _ORIGIN}
    bar = None
    if _want_progress(progress) and chunks:
        from tqdm.auto import tqdm

        bar = tqdm(total=int(missing.size), desc=f"{config.source}: data sets", unit="ds")
    try:
        run_chunk = functools.partial(_run_chunk, plan)
        # closing(): an interrupt while a chunk is being saved closes the map at once, which
        # stops its workers, instead of leaving them to finish the queue at interpreter exit.
        with contextlib.closing(parallel_map(run_chunk, chunks, backend=backend, n_jobs=n_jobs, client=client,
                                             ordered=False)) as done:
            for chunk in done:
                if store is not None:
                    part = chunk.to_dataset()
                    part.attrs.update(origin)
                    store.save_part(config, part, versions=versions, identity=identity)
                pieces.append(chunk)
                if bar is not None:
                    bar.update(chunk.dataset.size)
    finally:
        if bar is not None:
            bar.close()

    # Parts may come in any order (parallel) and overlap (a chunk rewritten after a crash).
    result = _Chunk.joined(pieces).to_dataset()
    result.attrs = _provenance(config, reused_time + time.perf_counter() - start)
    if store is not None and whole:
        store.save(config, result, versions=versions)
        store.clear_parts(config)
    return result


def slice_datasets(config, slice):
    """The data set indices of slice ``i`` of ``n``: the ``i``-th of ``n`` contiguous, near-equal shares.

    Parameters
    ----------
    config : ExperimentConfig
    slice : tuple of two int
        ``(i, n)`` with ``0 <= i < n <= config.n_datasets``.

    Returns
    -------
    numpy.ndarray
        Ascending int64 indices; the ``n`` slices partition ``range(config.n_datasets)``.

    Examples
    --------
    >>> cfg = ExperimentConfig(source="s", learners=["a"], n_datasets=10)
    >>> [slice_datasets(cfg, (i, 3)).tolist() for i in range(3)]
    [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    """
    n_datasets = config.n_datasets
    try:
        i, n = (operator.index(v) for v in slice)
    except (TypeError, ValueError):  # not a sequence of two integers
        i = n = None
    if i is None or not 0 <= i < n <= n_datasets:
        raise ValueError(f"`slice` must be (i, n) with 0 <= i < n <= n_datasets ({n_datasets}); got {slice!r}.")
    return np.array_split(np.arange(n_datasets, dtype=np.int64), n)[i]


def stack_sources(results, *, names=None):
    """Stack the results of several configurations on a leading ``source`` dim.

    Parameters
    ----------
    results : sequence of xarray.Dataset
        Outputs of :func:`run_experiment` (or of :func:`pair_counts`) with equal
        ``repeat, run, fold`` sizes.
    names : sequence of str or None
        Labels of the ``source`` coordinate; None uses ``"<source> <hash[:8]>"``
        from each result's provenance.

    Returns
    -------
    xarray.Dataset
        Dims ``(source, dataset, repeat, run, fold, ...)``; attribute ``configs`` holds
        the JSON list of the configurations, in order.
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
    stacked = stacked.assign_coords(source=names).transpose("source", *DIMS, ...)
    stacked.attrs["configs"] = configs
    return stacked
