"""Result store: experiment results on disk, keyed by the hash of their configuration.

Each complete result is one netCDF file ``<config_hash>.nc`` (xarray + h5netcdf,
gzip-compressed integers, never pickles). While a run is in progress, every chunk
of data sets that finishes is written to ``<config_hash>.parts/``; a run that is
killed at any moment resumes from those parts and ends with exactly the arrays of
an uninterrupted run, because every data set's numbers depend only on the root seed
and the data set's index (see :mod:`replicability.engine.runner`).

Every write is atomic (temporary file in the same directory, ``fsync``,
``os.replace``), so a reader sees either the old file or the new one, never half a
file. Every file carries the configuration hash and a SHA-256 checksum of its arrays
in its attributes; a file that cannot be read, belongs to another configuration or
fails its checksum is reported with a :class:`CacheWarning`, deleted and recomputed,
never silently used.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import platform
import shutil
import subprocess
import tempfile
import time
import warnings
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

__all__ = [
    "CacheWarning",
    "ResultStore",
    "cached_result",
    "data_dir",
    "dataset_checksum",
    "default_cache_dir",
    "paper_results_dir",
    "provenance",
    "write_netcdf_atomic",
]

_ENV_VAR = "REPLICABILITY_CACHE"
_ENGINE = "h5netcdf"
# Provenance attributes listed by `ResultStore.list_results`, in this order.
_PROVENANCE = (
    "config_hash",
    "name",
    "source",
    "learner_a",
    "learner_b",
    "scheme",
    "n_datasets",
    "n_repeats",
    "seed",
    "package_version",
    "git_commit",
    "wall_time_s",
    "machine",
    "python",
    "created_utc",
)


class CacheWarning(UserWarning):
    """A cache file was unreadable, foreign or corrupted and will be recomputed."""


def default_cache_dir():
    """Return the default store directory.

    ``$REPLICABILITY_CACHE`` if it is set, else ``.cache/replicability`` inside the
    project checkout (the folder holding ``pyproject.toml`` above this module), else
    inside the current working directory. Never a hidden folder in ``$HOME``.

    Returns
    -------
    pathlib.Path
        The directory (not created).

    Examples
    --------
    >>> default_cache_dir().parts[-2:]
    ('.cache', 'replicability')
    """
    env = os.environ.get(_ENV_VAR)
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").is_file():
            return parent / ".cache" / "replicability"
    return Path.cwd() / ".cache" / "replicability"


def dataset_checksum(ds):
    """SHA-256 of the names, dimensions, dtypes, shapes and bytes of every variable.

    Attributes are not part of the checksum, so it can be stored among them.

    Parameters
    ----------
    ds : xarray.Dataset

    Returns
    -------
    str
        Hexadecimal digest.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> ds = xr.Dataset({"n_test": ("fold", np.array([5, 5], dtype=np.int32))})
    >>> dataset_checksum(ds) == dataset_checksum(ds.copy(deep=True))
    True
    """
    digest = hashlib.sha256()
    for name in sorted(map(str, ds.variables)):
        var = ds.variables[name]
        arr = np.ascontiguousarray(var.values)
        # The byte order is part of the dtype string, so the digest is portable.
        header = json.dumps([name, list(var.dims), arr.dtype.str, list(arr.shape)])
        digest.update(header.encode())
        digest.update(arr.tobytes())
    return digest.hexdigest()


def _fsync_dir(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # some platforms cannot open directories
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_netcdf_atomic(ds, path):
    """Write ``ds`` to ``path`` as compressed netCDF, atomically.

    The data go to a temporary file in the same directory, which is flushed to disk
    (``fsync``) and then renamed over ``path`` (``os.replace``), so a crash leaves
    either the previous file or the complete new one.

    Parameters
    ----------
    ds : xarray.Dataset
    path : str or os.PathLike

    Returns
    -------
    pathlib.Path
        The path written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    encoding = {
        name: {"compression": "gzip", "compression_opts": 4, "shuffle": True}
        for name, var in ds.data_vars.items()
        if np.issubdtype(var.dtype, np.integer)
    }
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        ds.to_netcdf(tmp, engine=_ENGINE, encoding=encoding)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    return path


def _config_hash(config):
    return config if isinstance(config, str) else config.config_hash


class ResultStore:
    """A directory of experiment results keyed by configuration hash.

    Parameters
    ----------
    path : str, os.PathLike or None
        The directory; ``None`` uses :func:`default_cache_dir`. Created on first
        write.

    Notes
    -----
    Layout: ``<path>/<config_hash>.nc`` for complete results and
    ``<path>/<config_hash>.parts/*.nc`` for the chunks of a run in progress. The
    ``config`` arguments below accept an
    :class:`~replicability.engine.runner.ExperimentConfig` or its hash string.

    Examples
    --------
    >>> import tempfile
    >>> store = ResultStore(tempfile.mkdtemp())
    >>> len(store.list_results())
    0
    """

    def __init__(self, path=None):
        self.path = Path(default_cache_dir() if path is None else path)

    def __repr__(self):
        return f"ResultStore({str(self.path)!r})"

    def result_path(self, config):
        """Path of the complete result for ``config``."""
        return self.path / f"{_config_hash(config)}.nc"

    def parts_dir(self, config):
        """Directory of the chunk files for ``config``."""
        return self.path / f"{_config_hash(config)}.parts"

    def __contains__(self, config):
        return self.result_path(config).is_file()

    # -- reading -----------------------------------------------------------------

    def _read_checked(self, path, expected_hash):
        """Read ``path`` fully; on any problem warn, delete it and return None."""
        try:
            with xr.open_dataset(path, engine=_ENGINE) as handle:
                ds = handle.load()
            stored_hash = ds.attrs.get("config_hash")
            if stored_hash != expected_hash:
                raise ValueError(f"it holds config hash {stored_hash!r}, expected {expected_hash!r}")
            stored_sum = ds.attrs.get("checksum")
            if stored_sum != dataset_checksum(ds):
                raise ValueError("its data do not match the checksum stored in its attributes")
        except Exception as exc:  # unreadable, truncated, garbage, foreign or tampered
            warnings.warn(
                f"Discarding cache file {path}: {exc}. It will be recomputed.",
                CacheWarning,
                stacklevel=3,
            )
            Path(path).unlink(missing_ok=True)
            return None
        return ds

    def load(self, config):
        """Return the stored complete result for ``config``, or None.

        A corrupted or foreign file is reported with a :class:`CacheWarning`,
        deleted, and None is returned so that the caller recomputes it.
        """
        path = self.result_path(config)
        if not path.is_file():
            return None
        return self._read_checked(path, _config_hash(config))

    def load_parts(self, config):
        """Return the valid chunk datasets stored for ``config`` (possibly empty)."""
        directory = self.parts_dir(config)
        if not directory.is_dir():
            return []
        expected = _config_hash(config)
        parts = []
        for path in sorted(directory.glob("*.nc")):
            ds = self._read_checked(path, expected)
            if ds is not None:
                parts.append(ds)
        return parts

    # -- writing -----------------------------------------------------------------

    def _stamp(self, config, ds):
        ds = ds.copy()
        ds.attrs = dict(ds.attrs)
        ds.attrs["config_hash"] = _config_hash(config)
        ds.attrs["checksum"] = dataset_checksum(ds)
        return ds

    def save(self, config, ds):
        """Store the complete result ``ds`` for ``config`` atomically; return its path."""
        return write_netcdf_atomic(self._stamp(config, ds), self.result_path(config))

    def save_part(self, config, ds):
        """Store one finished chunk of data sets for ``config``; return its path."""
        index = np.asarray(ds["dataset"].values)
        # Name by first/last index and a digest of all of them: chunks of a resumed
        # run may be non-contiguous, and equal names always mean equal contents.
        tag = hashlib.sha256(index.astype("<i8").tobytes()).hexdigest()[:12]
        name = f"datasets_{int(index.min()):07d}_{int(index.max()):07d}_{tag}.nc"
        return write_netcdf_atomic(self._stamp(config, ds), self.parts_dir(config) / name)

    def clear_parts(self, config):
        """Remove the chunk files of ``config`` (after its complete result is saved)."""
        shutil.rmtree(self.parts_dir(config), ignore_errors=True)

    def remove(self, config):
        """Delete the complete result and the chunks of ``config``."""
        self.result_path(config).unlink(missing_ok=True)
        self.clear_parts(config)

    # -- listing -----------------------------------------------------------------

    def list_results(self):
        """List the complete results with their provenance.

        Returns
        -------
        pandas.DataFrame
            One row per stored result, sorted by ``created_utc``: the configuration
            hash, the name (results of :func:`cached_result`), the source, learners
            and scheme, sizes, seed (results of experiments), package version, git
            commit, wall time, machine, Python version, creation time, the file name,
            and the full configuration or parameter JSON. Unreadable files are skipped with a
            :class:`CacheWarning` (they are not deleted here).
        """
        columns = [*_PROVENANCE, "file", "config", "params"]
        rows = []
        paths = sorted(self.path.glob("*.nc")) if self.path.is_dir() else []
        for path in paths:
            try:
                with xr.open_dataset(path, engine=_ENGINE) as handle:
                    attrs = dict(handle.attrs)
            except Exception as exc:
                warnings.warn(f"Skipping unreadable cache file {path}: {exc}.", CacheWarning, stacklevel=2)
                continue
            row = {key: attrs.get(key) for key in _PROVENANCE}
            row["file"] = path.name
            row["config"] = attrs.get("config")
            row["params"] = attrs.get("params")
            rows.append(row)
        table = pd.DataFrame(rows, columns=columns)
        if len(table):
            table = table.sort_values("created_utc", kind="stable").reset_index(drop=True)
        return table


# -- provenance and cached computations ----------------------------------------------


def _git_commit():
    root = Path(__file__).resolve().parent  # git finds the checkout from any folder in it
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root, capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return commit + ("-dirty" if dirty else "")


def provenance(wall_time):
    """Where and with what a result was computed: attributes stored with every result.

    Parameters
    ----------
    wall_time : float
        Seconds the computation took.

    Returns
    -------
    dict
        Package version, git commit (``-dirty`` when tracked files were modified),
        wall time, machine, Python version and UTC creation time.
    """
    try:
        package_version = version("replicability")
    except PackageNotFoundError:
        package_version = "0+unknown"
    return {
        "package_version": package_version,
        "git_commit": _git_commit(),
        "wall_time_s": float(wall_time),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "python": platform.python_version(),
        "created_utc": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def data_dir():
    """Return the compendium's ``data`` directory.

    Taken from the environment variable ``REPLICABILITY_DATA_DIR`` when set, else
    the first ``data`` folder holding ``published/`` in the working directory or
    one of its parents (notebooks run from ``notebooks/<paper>/``).

    Raises
    ------
    FileNotFoundError
        When no such directory exists.
    """
    if "REPLICABILITY_DATA_DIR" in os.environ:
        return Path(os.environ["REPLICABILITY_DATA_DIR"])
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "data" / "published").is_dir():
            return folder / "data"
    raise FileNotFoundError(
        "No `data/published` folder in the working directory or its parents; run from "
        "inside the compendium checkout or set REPLICABILITY_DATA_DIR."
    )


def paper_results_dir():
    """The committed store of paper-scale results, ``data/results`` of the compendium."""
    return data_dir() / "results"


def _must_recompute(ds):
    """Whether ``REPLICABILITY_RECOMPUTE`` asks to recompute the stored ``ds``."""
    flag = os.environ.get("REPLICABILITY_RECOMPUTE", "")
    if flag in ("", "0"):
        return False
    if flag == "1":
        return True
    # ISO-8601 UTC strings of one format compare in time order.
    return str(ds.attrs.get("created_utc", "")) < flag


def cached_result(name, params, compute, *, scale):
    """Return a computed :class:`xarray.Dataset`, from the store when it is there.

    The result is keyed by the SHA-256 of the canonical JSON of ``name`` and
    ``params``. At ``scale="paper"`` the store is :func:`paper_results_dir` (results
    committed with the compendium, recomputed by ``make reproduce``); at any other
    scale it is :func:`default_cache_dir`. The environment variable
    ``REPLICABILITY_RECOMPUTE=1`` forces recomputation; set to a UTC time
    (``2026-11-21T20:00:00Z``) it recomputes only results created before then, so
    that a run of many notebooks (``replicability reproduce``) recomputes a result
    that several notebooks share once. A computed result is stored
    with its name, parameters and :func:`provenance`.

    Parameters
    ----------
    name : str
        What is computed, e.g. ``"bouckaert2005/task1"``.
    params : dict
        Every parameter the result depends on (plain JSON values), including a
        ``version`` to bump when the code that computes it changes.
    compute : callable
        Called without arguments; returns an :class:`xarray.Dataset`.
    scale : str
        ``"smoke"``, ``"quick"`` or ``"paper"``.

    Returns
    -------
    xarray.Dataset

    Examples
    --------
    >>> import os, tempfile, xarray as xr
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> ds = cached_result("demo", {"n": 3}, lambda: xr.Dataset({"x": ("i", [1, 2, 3])}),
    ...                    scale="smoke")
    >>> int(ds["x"].sum()), ds.attrs["name"]
    (6, 'demo')
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    if scale not in ("smoke", "quick", "paper"):
        raise ValueError(f"`scale` must be 'smoke', 'quick' or 'paper'; got {scale!r}.")
    key_json = json.dumps({"name": name, "params": params}, sort_keys=True, separators=(",", ":"))
    key = hashlib.sha256(key_json.encode()).hexdigest()
    store = ResultStore(paper_results_dir() if scale == "paper" else None)
    ds = store.load(key)
    if ds is not None and not _must_recompute(ds):
        return ds
    start = time.perf_counter()
    ds = compute()
    ds.attrs.update({"name": name, "params": key_json, **provenance(time.perf_counter() - start)})
    store.save(key, ds)
    return store.load(key)
