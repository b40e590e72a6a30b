"""Array jobs: slices of an experiment computed apart, then joined and verified.

A cluster's array job (SLURM's ``#SBATCH --array=0-9``, or any scheduler's) runs ``n``
tasks of one program; task ``i`` computes slice ``i`` of every experiment
(:func:`~replicability.engine.runner.run_experiment` with ``slice=(i, n)``: the
``i``-th of ``n`` contiguous shares of the data sets) into a store every task sees,
as chunks (``<config_hash>.parts/``). A task that is killed or fails is simply rerun:
it skips the data sets whose chunks are stored. The join (:func:`join_slices`)
computes nothing: it checks that every data set is there, from the same code, and
stores the complete result, bit for bit that of a serial run (every data set's
numbers depend only on the root seed and its index).

:func:`slices_command` carries out ``replicability reproduce --experiments FILE
--slice I/N`` and ``... --join``: ``FILE`` holds one experiment configuration
(:meth:`~replicability.engine.runner.ExperimentConfig.to_json`; the ``config``
attribute of a ``run_experiment`` result is one) or a JSON list of them, whose names must be
registered (:mod:`replicability.engine.registry`).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import warnings

import numpy as np
import xarray as xr

from .._validation import command_error
from .runner import ExperimentConfig, _as_store, _Chunk, _provenance, run_experiment
from .store import CacheWarning

__all__ = ["SliceJoin", "join_slices", "slices_command"]


@dataclasses.dataclass(frozen=True)
class SliceJoin:
    """What :func:`join_slices` assembled and checked.

    Attributes
    ----------
    result : xarray.Dataset
        The complete result, as :func:`~replicability.engine.runner.run_experiment` returns it.
    n_chunks : int
        Stored chunks joined (0: the complete result was stored already).
    package_version, git_commit : str
        Of the code that computed every chunk ("" when none was joined).
    machines : tuple of str
        The machines the chunks were computed on.
    """

    result: xr.Dataset
    n_chunks: int
    package_version: str
    git_commit: str
    machines: tuple


def _ranges(indices):
    """``[0, 1, 2, 5, 7, 8]`` -> ``"0-2, 5, 7-8"``."""
    groups = np.split(indices, np.flatnonzero(np.diff(indices) != 1) + 1)
    return ", ".join(f"{g[0]}-{g[-1]}" if g.size > 1 else f"{g[0]}" for g in groups)


def join_slices(config, store):
    """Assemble the complete result of ``config`` from the chunks its slices stored, after checking them.

    The join step of an array job (:func:`~replicability.engine.runner.run_experiment` with ``slice=``): it
    computes nothing. It checks that the chunks hold every data set, that a data
    set stored twice (a task rerun after it was killed) holds the same arrays both
    times, and that every chunk was computed by the same code (each chunk's
    ``ExperimentConfig.code_identity``, checked as the store reads it: a chunk of
    other code is quarantined with a ``CacheWarning``, its data sets then count as
    missing), the same package version and the same git commit; the machines may
    differ. Then it stores the complete result and removes the chunks, as the end
    of a whole run does, under the experiment's lock.

    Parameters
    ----------
    config : ExperimentConfig
    store : True, str, os.PathLike or ResultStore
        The store the slices wrote to (True: the default store).

    Returns
    -------
    SliceJoin
        The result, bit for bit that of a serial run, and what was joined.

    Raises
    ------
    ValueError
        A data set is missing (the message lists them: rerun their slices), stored
        twice with different arrays, or the chunks come from different package
        versions or commits.
    """
    if not isinstance(config, ExperimentConfig):
        raise TypeError(f"`config` must be an ExperimentConfig; got {type(config).__name__}.")
    store = _as_store(store)
    if store is None:
        raise ValueError("`store` must be True, a path or a ResultStore; got None.")
    versions, identity = config.code_versions, config.code_identity
    with store.lock(config):
        full = store.load(config, versions=versions)
        if full is not None:
            return SliceJoin(full, 0, "", "", ())
        parts = store.load_parts(config, versions=versions, identity=identity)
        what = f"{config.source} {config.config_hash[:12]}"
        done = np.unique(np.concatenate([p["dataset"].values for p in parts])) if parts else np.array([], int)
        missing = np.setdiff1d(np.arange(config.n_datasets), done)
        if missing.size:
            raise ValueError(f"`store` {store.path} lacks data sets {_ranges(missing)} of {what} "
                             f"({missing.size} of {config.n_datasets}): rerun the slices that hold them.")
        for name in ("package_version", "git_commit"):
            found = sorted({str(p.attrs.get(name, "unknown")) for p in parts})
            if len(found) != 1:
                raise ValueError(f"the chunks of {what} in {store.parts_dir(config)} come from different "
                                 f"{name.replace('_', ' ')}s {found}: rerun every slice from one checkout.")
        chunks = [_Chunk.of(p) for p in parts]
        joined = _Chunk.joined(chunks)
        differ = []  # data sets stored twice with other counts (a task of other code or a damaged chunk)
        for chunk in chunks:
            at = np.searchsorted(joined.dataset, chunk.dataset)
            same = [(joined.n_test[at] == chunk.n_test), (joined.correct_both[at] == chunk.correct_both)]
            differ += chunk.dataset[~np.all([s.reshape(len(at), -1).all(axis=1) for s in same], axis=0)].tolist()
        if differ:
            raise ValueError(f"the chunks of {what} in {store.parts_dir(config)} hold data sets "
                             f"{_ranges(np.unique(differ))} twice with different counts.")
        result = joined.to_dataset()
        result.attrs = _provenance(config, joined.compute_time_s)
        store.save(config, result, versions=versions)
        store.clear_parts(config)
    return SliceJoin(result, len(parts), str(parts[0].attrs.get("package_version")),
                     str(parts[0].attrs.get("git_commit")), tuple(sorted({str(p.attrs.get("machine")) for p in parts})))


def _read_configs(path):
    """The configurations in ``path`` (one JSON object or a list of them); ValueError naming the problem."""
    try:
        value = json.loads(path.read_text())
    except OSError as exc:
        raise ValueError(f"cannot read --experiments {path}: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise ValueError(f"--experiments {path} is not JSON: {exc}") from exc
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(item, dict) for item in items):
        raise ValueError(f"--experiments {path} must hold a configuration (a JSON object) or a list of them")
    try:
        return [ExperimentConfig(**item) for item in items]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"--experiments {path}: {exc}") from exc


def _parse_slice(text):
    """``"3/10"`` -> ``(3, 10)``; ValueError unless ``0 <= i < n``."""
    try:
        i, n = (int(part) for part in text.split("/"))
    except ValueError:
        i = n = -1
    if not 0 <= i < n:
        raise ValueError(f"--slice takes I/N with 0 <= I < N (e.g. 3/10); got {text!r}")
    return i, n


def slices_command(args):
    """Carry out ``replicability reproduce --experiments FILE (--slice I/N | --join)``; return the exit code.

    ``--slice I/N`` computes slice ``I`` of every experiment of ``FILE`` whose complete
    result is not stored (an experiment of fewer than ``N`` data sets gives data set
    ``I`` to task ``I``, nothing to the tasks after its last one). ``--join`` joins
    each experiment (:func:`join_slices`) and prints what it joined; a missing or
    mismatched chunk is one line, exit code 1. Bad input is one line, exit code 2.
    """
    try:
        share = _parse_slice(args.slice) if args.slice is not None else None
        configs = _read_configs(args.experiments)
        store = _as_store(args.store if args.store is not None else True)
    except ValueError as exc:
        return command_error(str(exc), "reproduce")
    failed = 0
    for config in configs:
        what = f"{config.source} {config.config_hash[:12]}"
        if share is None:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", CacheWarning)
                try:
                    joined = join_slices(config, store)
                except ValueError as exc:
                    failed += 1
                    for warning in caught:
                        print(f"replicability reproduce: {warning.message}", file=sys.stderr)
                    print(f"replicability reproduce: error: {exc}", file=sys.stderr)
                    continue
            if joined.n_chunks == 0:
                print(f"{what}: complete result already stored in {store.result_path(config)}")
            else:
                print(f"{what}: joined {config.n_datasets} data sets from {joined.n_chunks} chunks "
                      f"(package {joined.package_version}, commit {joined.git_commit}, "
                      f"machines: {'; '.join(joined.machines)}) -> {store.result_path(config)}")
            continue
        i, n = share
        if config in store:
            print(f"{what}: complete result already stored; nothing to compute")
            continue
        if i >= config.n_datasets:
            print(f"{what}: {config.n_datasets} data sets, none in slice {i}/{n}")
            continue
        part = run_experiment(config, store=store, slice=(i, min(n, config.n_datasets)),
                              backend=args.backend, n_jobs=args.n_jobs)
        print(f"{what}: slice {i}/{n} holds data sets {int(part['dataset'][0])}-{int(part['dataset'][-1])}, "
              f"stored in {store.parts_dir(config)}")
    return 1 if failed else 0
