"""Result store: experiment results on disk, keyed by the hash of their configuration.

Each complete result is one netCDF file ``<config_hash>.nc`` (xarray + h5netcdf,
gzip-compressed integers, never pickles) with a digest file ``<config_hash>.nc.sha256``
beside it (the SHA-256 of the file's raw bytes, in ``sha256sum`` format). While a run
is in progress, every chunk of data sets that finishes is written to
``<config_hash>.parts/`` the same way; a run that is killed at any moment resumes from
those parts and ends with exactly the arrays of an uninterrupted run, because every
data set's numbers depend only on the root seed and the data set's index (see
:mod:`replicability.engine.runner`).

**Bytes first.** libhdf5 can loop forever, in C code no signal interrupts, on some
damaged files (one flipped bit in an attribute's heap is enough). So HDF5 never sees a
stored file's bytes before they are checked: a read takes the whole file into memory,
compares its SHA-256 with the digest file and only then parses those same bytes from
memory. A write serializes the dataset in memory and writes plain bytes, so a full
disk is an ordinary :class:`OSError` (:class:`StoreFullError`, one line naming the
folder), never a failure inside libhdf5.

Every write is atomic (temporary file in the same directory, ``fsync``,
``os.replace``; the digest file first, then the data), so a reader sees either the old
file or the new one, never half a file. A temporary is named
``.<file>@<host>@<pid>@<random>.replicability-tmp``, a pattern no user file has; a
store removes only such files, only in its own folders (the store folder and its
``<hash>.parts/``), and only when their writer ran on this host and has died: the
temporary of a writer on another host is left alone. Readers and writers of one
configuration coordinate through a lock file (``fcntl.flock`` on
``.locks/<config_hash>.lock``): a write waits for the reads in progress and a read
for the write, and :func:`~replicability.engine.runner.run_experiment` holds the lock
for a whole run, so two runs of one experiment never interleave (the second waits,
then reads the first's result).

Every file carries its configuration (whose SHA-256 is its key), the versions of the
code that computed it, and a SHA-256 checksum of its arrays *and* attributes. A read
tells two failures apart:

* **cannot be read now** (file locked for writing by another process, ``h5netcdf`` not
  importable, no permission, an I/O error): :class:`ResultUnavailableError` is
  raised and nothing is touched;
* **verified bad**: the bytes do not match their digest (or have none), do not parse,
  the checksum fails, the stored configuration does not hash to the key, or the file
  was computed by other code (stale). The file and its digest are *moved* to the
  quarantine folder beside the store (``<store>.quarantine/``), a
  :class:`CacheWarning` says where, and the result is recomputed. A read never
  deletes a result; the quarantine keeps the newest three copies
  of each file (with their digests) and removes older copies of that file only.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import hashlib
import io
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import warnings
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .._validation import SCALES

__all__ = [
    "CacheWarning",
    "RecomputeRefusedError",
    "ResultStore",
    "ResultUnavailableError",
    "StoreFullError",
    "cached_result",
    "data_dir",
    "dataset_checksum",
    "default_cache_dir",
    "paper_results_dir",
    "provenance",
    "remove_stale_temporaries",
    "write_netcdf_atomic",
]

_ENV_VAR = "REPLICABILITY_CACHE"
_LOG_VAR = "REPLICABILITY_RESULT_LOG"  # where cached_result lists what it returned (array jobs)
_ENGINE = "h5netcdf"
#: Layout version of a stored file; files of another format are stale. Format 2 puts the
#: attributes under the checksum and records the code versions.
_FORMAT = 2
_DIGEST_SUFFIX = ".sha256"
_TMP_SUFFIX = ".replicability-tmp"
#: A temporary of `write_netcdf_atomic`: ``.<file>@<host>@<pid>@<random>.replicability-tmp``.
_TEMPORARY = re.compile(r"\.(?P<target>[^@/]+)@(?P<host>[A-Za-z0-9.-]+)@(?P<pid>[0-9]+)@[A-Za-z0-9_]+"
                        + re.escape(_TMP_SUFFIX))
#: A configuration hash: the stem of the store's own files and chunk folders.
_KEY = re.compile(r"[0-9a-f]{64}")
#: How many quarantined copies of one stored file are kept (newest first); older ones go.
_QUARANTINE_KEEP = 3
# Errors of a full file system (or a file size limit): one line naming the folder.
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
# Provenance attributes listed by `ResultStore.list_results`, in this order.
_PROVENANCE = (
    "config_hash",
    "name",
    "source",
    "learners",
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
    """A stored file was verified corrupt, foreign or stale: it was quarantined and is recomputed."""


class StoreFullError(OSError):
    """A result could not be written: the store's file system is full (or a file size limit was reached).

    Its message is one line naming the folder. Nothing was written: the previous file,
    if any, is kept whole, and no temporary file is left.
    """


class ResultUnavailableError(OSError):
    """A stored result exists but cannot be read now; the file was left untouched.

    Raised for a file locked by another process, a missing ``h5netcdf``, a denied
    permission or an I/O error: conditions under which the file may well be good.
    """


class RecomputeRefusedError(RuntimeError):
    """A result is missing from every store and ``REPLICABILITY_NO_COMPUTE`` forbids computing it.

    Raised by :func:`cached_result` before anything is computed, so that a build that
    must read committed results only (the notebook tests on a clean cache) fails at once,
    naming the result, instead of recomputing it for minutes.
    """


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


def _plain_attr(value):
    # Attributes come back from netCDF as numpy scalars and arrays: compare as plain values.
    return value if isinstance(value, str) else np.asarray(value).tolist()


def dataset_checksum(ds):
    """SHA-256 of every variable (name, dimensions, dtype, shape, bytes) and attribute.

    The variables' own attributes and the dataset's attributes are covered, except
    the dataset attribute ``checksum``, where the digest is stored.

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
    >>> dataset_checksum(ds) == dataset_checksum(ds.assign_attrs(seed=1))
    False
    """
    digest = hashlib.sha256()
    for name in sorted(map(str, ds.variables)):
        var = ds.variables[name]
        arr = np.ascontiguousarray(var.values)
        # The byte order is part of the dtype string, so the digest is portable.
        header = json.dumps([name, list(var.dims), arr.dtype.str, list(arr.shape)])
        digest.update(header.encode())
        digest.update(arr.tobytes())
        digest.update(_attrs_json(var.attrs).encode())
    digest.update(_attrs_json({k: v for k, v in ds.attrs.items() if k != "checksum"}).encode())
    return digest.hexdigest()


def _attrs_json(attrs):
    return json.dumps({str(k): _plain_attr(v) for k, v in attrs.items()}, sort_keys=True, separators=(",", ":"))


def _fsync_dir(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # some platforms cannot open directories
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _digest_path(path):
    """The digest file of a stored netCDF file: ``<file>.sha256``."""
    return path.with_name(path.name + _DIGEST_SUFFIX)


def _host():
    # A host name holds letters, digits, '-' and '.'; anything else would break the temporaries' pattern.
    return re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname()) or "unknown"


def _write_temporary(data, path):
    """Write ``data`` to a flushed temporary beside ``path`` (:data:`_TEMPORARY`); return its path."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}@{_host()}@{os.getpid()}@", suffix=_TMP_SUFFIX,
                               dir=path.parent)
    try:
        with open(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_netcdf_atomic(ds, path):
    """Write ``ds`` to ``path`` as compressed netCDF with its digest file, atomically.

    The file is serialized in memory (HDF5 never writes to disk, so a full disk is a
    Python :class:`OSError`, not a failure inside libhdf5), then written with its
    SHA-256 digest file ``<path>.sha256`` to temporaries in the same directory, flushed
    to disk (``fsync``) and renamed over the old files (``os.replace``), the digest
    first. A failure leaves the previous files and no temporary.

    Parameters
    ----------
    ds : xarray.Dataset
    path : str or os.PathLike

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    StoreFullError
        When the file system is full (or a file size limit is reached).
    """
    path = Path(path)
    encoding = {
        name: {"compression": "gzip", "compression_opts": 4, "shuffle": True}
        for name, var in ds.data_vars.items()
        if np.issubdtype(var.dtype, np.integer)
    }
    buffer = io.BytesIO()
    ds.to_netcdf(buffer, engine=_ENGINE, encoding=encoding)
    data = buffer.getvalue()
    digest = f"{hashlib.sha256(data).hexdigest()}  {path.name}\n".encode()
    written = []
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Both temporaries before either rename: a full disk leaves the old pair whole.
        for content, target in ((digest, _digest_path(path)), (data, path)):
            written.append((_write_temporary(content, target), target))
        for tmp, target in written:
            os.replace(tmp, target)
    except BaseException as exc:
        for tmp, _ in written:
            tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.errno in _FULL:
            raise StoreFullError(f"Cannot store results in {path.parent}: {os.strerror(exc.errno)}; nothing was "
                                 "written (free space there, or set REPLICABILITY_CACHE to another folder).") from exc
        raise
    _fsync_dir(path.parent)
    return path


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by someone else
        return True
    return True


def remove_stale_temporaries(directory):
    """Delete the temporaries of :func:`write_netcdf_atomic` whose writer died on this host.

    Only files named ``.<file>@<host>@<pid>@<random>.replicability-tmp`` are
    considered, and only in ``directory`` itself and its chunk folders
    ``<config_hash>.parts/``: a store's folder may hold the user's own files and
    folders, which are never looked into. A temporary is removed when ``host`` is this
    host and no process ``pid`` runs here; a temporary written on another host is
    kept, since whether its writer lives cannot be known from here.

    Parameters
    ----------
    directory : str or os.PathLike
        A store's folder.

    Returns
    -------
    list of pathlib.Path
        The files removed.
    """
    directory = Path(directory)
    if not directory.is_dir():
        return []
    folders = [directory, *(p for p in directory.glob("*.parts") if _KEY.fullmatch(p.name.removesuffix(".parts")))]
    host, removed = _host(), []
    for folder in folders:
        for tmp in folder.glob(f".*{_TMP_SUFFIX}"):
            match = _TEMPORARY.fullmatch(tmp.name)
            if match and match["host"] == host and not _pid_alive(int(match["pid"])):
                tmp.unlink(missing_ok=True)
                removed.append(tmp)
    return removed


def _config_hash(config):
    return config if isinstance(config, str) else config.config_hash


def _require_engine(path):
    try:
        import h5netcdf  # noqa: F401  (xarray's engine: without it nothing can be judged)
    except ImportError as exc:
        raise ResultUnavailableError(
            f"Cannot read {path}: the h5netcdf package is not importable ({exc}); the file was left untouched."
        ) from exc


def _read_verified(path):
    """The raw bytes of ``path`` and why they must not be parsed ('' when they match their digest).

    Nothing parses the bytes here. Raises :class:`FileNotFoundError` when the file is
    gone, :class:`ResultUnavailableError` when it cannot be read now.
    """
    try:
        with open(path, "rb") as fh:
            try:  # HDF5's lock: a process with the file open for writing holds flock(LOCK_EX)
                fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise ResultUnavailableError(
                    f"Cannot read {path} now: another process holds it open for writing (HDF5 file lock). "
                    "The file was left untouched.") from exc
            except OSError:  # a file system without flock: no lock to respect
                pass
            data = fh.read()
    except (FileNotFoundError, ResultUnavailableError):
        raise
    except OSError as exc:  # permission, I/O error: the file may be good
        raise ResultUnavailableError(f"Cannot read {path}: {exc}; the file was left untouched.") from exc
    try:
        recorded = _digest_path(path).read_bytes()
    except FileNotFoundError:
        return data, (f"has no digest file {_digest_path(path).name} (written before the store kept digests, "
                      "or by a writer that died between the two files)")
    except OSError as exc:
        raise ResultUnavailableError(f"Cannot read {_digest_path(path)}: {exc}; the file was left untouched.") from exc
    fields = recorded.split()
    if not fields or fields[0] != hashlib.sha256(data).hexdigest().encode():
        return data, "does not match its SHA-256 digest (its bytes were changed: damaged, truncated or rewritten)"
    return data, ""


def _parse(data):
    with xr.open_dataset(io.BytesIO(data), engine=_ENGINE) as handle:
        return handle.load()


def _verify(ds, expected_hash, versions, identity):
    """Why a parsed file must not be used, or '' when it may."""
    attrs = ds.attrs
    if attrs.get("store_format") != _FORMAT:
        return f"was written in store format {attrs.get('store_format', 1)!r}, not {_FORMAT} (stale)"
    if attrs.get("checksum") != dataset_checksum(ds):
        return "fails its checksum (its arrays or attributes were changed)"
    if attrs.get("config_hash") != expected_hash:
        return f"holds config hash {attrs.get('config_hash')!r}, expected {expected_hash!r} (foreign)"
    key_text = attrs.get("params", attrs.get("config"))
    try:
        json.loads(key_text)
    except (TypeError, ValueError):
        return "has no parseable configuration JSON"
    if hashlib.sha256(key_text.encode()).hexdigest() != expected_hash:
        return "stores a configuration that does not hash to its key"
    if versions is not None:
        stored = json.loads(attrs.get("code_versions", "{}"))
        if stored != versions:
            return f"was computed by code versions {stored}, the current ones are {versions} (stale)"
    if identity is not None:
        stored = json.loads(attrs.get("code_identity", "null"))
        current = json.loads(json.dumps(identity))
        if stored != current:
            return f"was computed by other code {stored}, the current code is {current} (stale)"
    return ""


# The locks this thread holds: lock file -> [fd, shared, depth] (ResultStore.lock is re-entrant).
_HELD = threading.local()


class ResultStore:
    """A directory of experiment results keyed by configuration hash.

    Parameters
    ----------
    path : str, os.PathLike or None
        The directory; ``None`` uses :func:`default_cache_dir`. Created on first
        write.
    committed : bool, default False
        The store holds committed files (``data/results``): a verified-bad file is
        reported and left where it is, never moved, nothing is cleaned up and no
        lock file is made (nothing writes a committed store but a reproduction,
        which opens it with ``committed=False``).

    Notes
    -----
    Layout: ``<path>/<config_hash>.nc`` for complete results and
    ``<path>/<config_hash>.parts/*.nc`` for the chunks of a run in progress, each
    with its digest file ``<file>.sha256``; ``<path>/.locks/<config_hash>.lock``
    for the locks (kept: removing a lock file others may wait on would break the
    lock). The ``config`` arguments below accept an
    :class:`~replicability.engine.runner.ExperimentConfig` or its hash string.

    Examples
    --------
    >>> import tempfile
    >>> store = ResultStore(tempfile.mkdtemp())
    >>> len(store.list_results())
    0
    """

    def __init__(self, path=None, *, committed=False):
        self.path = Path(default_cache_dir() if path is None else path)
        self.committed = bool(committed)
        if not self.committed:
            remove_stale_temporaries(self.path)

    def __repr__(self):
        return f"ResultStore({str(self.path)!r}{', committed=True' if self.committed else ''})"

    def result_path(self, config):
        """Path of the complete result for ``config``."""
        return self.path / f"{_config_hash(config)}.nc"

    def parts_dir(self, config):
        """Directory of the chunk files for ``config``."""
        return self.path / f"{_config_hash(config)}.parts"

    def __contains__(self, config):
        return self.result_path(config).is_file()

    @contextlib.contextmanager
    def lock(self, config, *, shared=False, waiting=None):
        """Hold the lock of ``config``'s files (``fcntl.flock``), re-entrant within a thread.

        Every read of ``config`` holds it shared and every write exclusive, so a
        reader never sees a file and a digest of two different writes;
        :func:`~replicability.engine.runner.run_experiment` holds it exclusive for a
        whole run, so a second run of the experiment waits for the first.

        Parameters
        ----------
        config : ExperimentConfig or str
        shared : bool, default False
            A shared (read) lock instead of an exclusive one.
        waiting : callable or None
            Called with the lock file's path before blocking, when another process
            holds the lock.

        Notes
        -----
        A committed store is not locked. A store whose folder cannot be written is
        read without a lock (no writer can lock it either); an exclusive lock there
        raises the :class:`OSError`. Inside an exclusive lock any lock of the same
        configuration is granted; an exclusive one inside a shared one is a
        :class:`RuntimeError` (converting a ``flock`` is not atomic).
        """
        if self.committed:
            yield
            return
        path = self.path / ".locks" / f"{_config_hash(config)}.lock"
        held = _HELD.__dict__.setdefault("locks", {})
        key = os.path.abspath(path)
        if key in held:
            entry = held[key]
            if entry[1] and not shared:
                raise RuntimeError(f"An exclusive lock of {path} was asked for inside a shared one.")
            entry[2] += 1
            try:
                yield
            finally:
                entry[2] -= 1
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            if not shared:
                raise
            fd = None  # a read-only store: read it unlocked
        try:
            if fd is not None:
                mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
                try:
                    fcntl.flock(fd, mode | fcntl.LOCK_NB)
                except BlockingIOError:
                    if waiting is not None:
                        waiting(path)
                    fcntl.flock(fd, mode)
                held[key] = [fd, shared, 1]
            yield
        finally:
            held.pop(key, None)
            if fd is not None:
                os.close(fd)  # releases the lock

    # -- reading -----------------------------------------------------------------

    @property
    def quarantine_dir(self):
        """Where verified-bad files are moved: ``<store>.quarantine`` beside the store."""
        return self.path.with_name(self.path.name + ".quarantine")

    def _quarantine(self, path, reason):
        if self.committed:
            warnings.warn(f"Committed result file {path} {reason}; left in place (`make reproduce` recomputes "
                          "it). It is not used.", CacheWarning, stacklevel=4)
            return
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S.%f")
        target = self.quarantine_dir / f"{path.name}.{stamp}.{os.getpid()}"
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(path, target)
        except FileNotFoundError:  # another reader moved it first
            return
        with contextlib.suppress(FileNotFoundError):
            os.replace(_digest_path(path), _digest_path(target))
        self._prune_quarantine(path.name)
        warnings.warn(f"Result file {path} {reason}; moved to {target}. It will be recomputed.",
                      CacheWarning, stacklevel=4)

    def _prune_quarantine(self, name):
        """Remove all but the newest ``_QUARANTINE_KEEP`` quarantined copies of file ``name``.

        Only names :meth:`_quarantine` writes (``<name>.<UTC stamp>.<pid>``, and their
        digests) are touched; the stamp orders them.
        """
        pattern = re.compile(re.escape(name) + r"\.(\d{8}T\d{6}\.\d{6})\.\d+")
        copies = sorted((match[1], entry) for entry in self.quarantine_dir.iterdir()
                        if (match := pattern.fullmatch(entry.name)))
        for _, old in copies[:-_QUARANTINE_KEEP]:
            for file in (old, _digest_path(old)):
                with contextlib.suppress(FileNotFoundError):
                    file.unlink()

    def _read_checked(self, path, expected_hash, versions, identity=None):
        """Read and verify ``path``, its bytes before HDF5 parses them; quarantine it and return None when bad.

        Returns None too when the file is gone. Raises :class:`ResultUnavailableError`,
        touching nothing, when it cannot be read now.
        """
        path = Path(path)
        _require_engine(path)
        try:
            data, problem = _read_verified(path)
        except FileNotFoundError:
            return None
        if not problem:
            try:
                ds = _parse(data)
            except Exception as exc:  # the bytes match their digest yet do not parse: written garbled
                problem = f"is not a readable netCDF file ({type(exc).__name__}: {exc})"
        problem = problem or _verify(ds, expected_hash, versions, identity)
        if problem:
            self._quarantine(path, problem)
            return None
        return ds

    def load(self, config, *, versions=None):
        """Return the stored complete result for ``config``, or None.

        Parameters
        ----------
        config : ExperimentConfig or str
            The configuration or its hash.
        versions : dict, optional
            The current code versions of the components that compute the result
            (:func:`~replicability.engine.registry.code_versions`); a file stored
            with other versions is stale.

        Returns
        -------
        xarray.Dataset or None
            None when there is no file, or when it was verified corrupt, foreign or
            stale (it is then quarantined with a :class:`CacheWarning`).

        Raises
        ------
        ResultUnavailableError
            When the file cannot be read now (lock, missing module, permission, I/O).
        """
        path = self.result_path(config)
        if not path.is_file():
            return None
        with self.lock(config, shared=True):
            return self._read_checked(path, _config_hash(config), versions)

    def load_parts(self, config, *, versions=None, identity=None):
        """Return the valid chunk datasets stored for ``config`` (possibly empty).

        Chunks that are corrupt, were computed by other code ``versions`` or, when
        ``identity`` is given, by other code (its stored ``code_identity`` differs,
        ``ExperimentConfig.code_identity`` of :mod:`replicability.engine.runner`) are quarantined, so
        chunks of different code are never combined.
        """
        directory = self.parts_dir(config)
        if not directory.is_dir():
            return []
        expected = _config_hash(config)
        parts = []
        with self.lock(config, shared=True):
            for path in sorted(directory.glob("*.nc")):
                ds = self._read_checked(path, expected, versions, identity)
                if ds is not None:
                    parts.append(ds)
        return parts

    # -- writing -----------------------------------------------------------------

    def _stamp(self, config, ds, versions, identity=None):
        ds = ds.copy()
        ds.attrs = dict(ds.attrs)
        if not isinstance(config, str):
            ds.attrs["config"] = config.to_json()
        ds.attrs["config_hash"] = _config_hash(config)
        ds.attrs["code_versions"] = json.dumps(versions or {}, sort_keys=True, separators=(",", ":"))
        if identity is not None:
            ds.attrs["code_identity"] = json.dumps(identity, sort_keys=True, separators=(",", ":"))
        ds.attrs["store_format"] = _FORMAT
        ds.attrs.pop("checksum", None)
        ds.attrs["checksum"] = dataset_checksum(ds)
        return ds

    def save(self, config, ds, *, versions=None):
        """Store the complete result ``ds`` for ``config`` atomically; return its path.

        ``versions`` (the code versions of the components that computed ``ds``) is
        stored under the checksum with the configuration.
        """
        with self.lock(config):
            return write_netcdf_atomic(self._stamp(config, ds, versions), self.result_path(config))

    def save_part(self, config, ds, *, versions=None, identity=None):
        """Store one finished chunk of data sets for ``config``; return its path.

        ``identity`` (the components' ``ExperimentConfig.code_identity``, from
        :mod:`replicability.engine.runner`) is stored with ``versions``, so that a resumed run can refuse
        chunks of other code. When the complete result is stored already (another
        run finished the experiment meanwhile), nothing is written and None is
        returned: such a chunk would never be read.
        """
        index = np.asarray(ds["dataset"].values)
        # Name by first/last index and a digest of all of them: chunks of a resumed
        # run may be non-contiguous, and equal names always mean equal data sets.
        tag = hashlib.sha256(index.astype("<i8").tobytes()).hexdigest()[:12]
        name = f"datasets_{int(index.min()):07d}_{int(index.max()):07d}_{tag}.nc"
        with self.lock(config):
            if config in self:
                return None
            return write_netcdf_atomic(self._stamp(config, ds, versions, identity), self.parts_dir(config) / name)

    def clear_parts(self, config):
        """Remove the chunk files of ``config`` (after its complete result is saved)."""
        with self.lock(config):
            shutil.rmtree(self.parts_dir(config), ignore_errors=True)

    def remove(self, config):
        """Delete the complete result, its digest and the chunks of ``config``."""
        with self.lock(config):
            self.result_path(config).unlink(missing_ok=True)
            _digest_path(self.result_path(config)).unlink(missing_ok=True)
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
            and the full configuration or parameter JSON. Files that cannot be read or
            do not match their digest are skipped with a :class:`CacheWarning` (they
            are not moved or deleted here; no lock is waited for).
        """
        columns = [*_PROVENANCE, "file", "config", "params"]
        rows = []
        paths = sorted(self.path.glob("*.nc")) if self.path.is_dir() else []
        for path in paths:
            try:
                data, problem = _read_verified(path)
                if not problem:
                    with xr.open_dataset(io.BytesIO(data), engine=_ENGINE) as handle:
                        attrs = dict(handle.attrs)
            except FileNotFoundError:  # removed meanwhile
                continue
            except Exception as exc:
                problem = str(exc)
            if problem:
                warnings.warn(f"Skipping unreadable cache file {path}: {problem}.", CacheWarning, stacklevel=2)
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
        # One call gives both the commit ("# branch.oid <sha>") and the modified tracked files.
        status = subprocess.run(
            ["git", "status", "--porcelain=v2", "--branch", "--untracked-files=no"],
            cwd=root, capture_output=True, text=True, timeout=10, check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = next((line.split()[2] for line in status if line.startswith("# branch.oid ")), "(initial)")
    if commit == "(initial)":  # no commit yet
        return "unknown"
    return commit + ("-dirty" if any(not line.startswith("#") for line in status) else "")


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


def cached_result(name, params, compute, *, scale, versions=None):
    """Return a computed :class:`xarray.Dataset`, from the store when it is there.

    The result is keyed by the SHA-256 of the canonical JSON of ``name`` and
    ``params``. At ``scale="paper"`` it is looked up in :func:`paper_results_dir`
    (results committed with the compendium), then in :func:`default_cache_dir`; at any
    other scale in :func:`default_cache_dir` only. A computed result is written to
    :func:`default_cache_dir`, except during a reproduction (``REPLICABILITY_RECOMPUTE``
    set, as ``make reproduce`` does), which writes paper-scale results to
    :func:`paper_results_dir`: a rerun with new parameters never touches a
    committed file, and a committed file found corrupt or stale is reported and
    left in place. With ``REPLICABILITY_NO_COMPUTE=1`` a result found in no store is
    not computed: :class:`RecomputeRefusedError` is raised (the notebook tests set it on
    a clean cache, so that building the book on a fresh clone provably recomputes
    nothing). The environment variable
    ``REPLICABILITY_RECOMPUTE=1`` forces recomputation; set to a UTC time
    (``2026-11-21T20:00:00Z``) it recomputes only results created before then, so
    that a run of many notebooks (``replicability reproduce``) recomputes a result
    that several notebooks share once. A computed result is stored
    with its name, parameters and :func:`provenance`. The store written holds the
    result's lock (:meth:`ResultStore.lock`) from the look-up to the write, so a
    second process asking for the same result waits and reads it.
    When ``REPLICABILITY_RESULT_LOG`` names a file, each result returned is listed in it
    (one JSON line: name, key, store, code versions, computed or read), which is how an
    array job's tasks tell their join what the notebooks read
    (``replicability reproduce --slice``).

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
    versions : dict, optional
        Versions of the code that computes the result
        (:func:`~replicability.engine.registry.code_versions` of its learners,
        sources, schemes and kernels). They are not part of the key: a stored result
        of other versions is stale, reported with a :class:`CacheWarning`, moved to
        the quarantine and recomputed.

    Returns
    -------
    xarray.Dataset

    Raises
    ------
    ResultUnavailableError
        When the stored result exists but cannot be read now (see :class:`ResultStore`).
    RecomputeRefusedError
        When ``REPLICABILITY_NO_COMPUTE`` is set and the result is in no store.

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
    if scale not in SCALES:
        raise ValueError(f"`scale` must be one of {SCALES}; got {scale!r}.")
    key_json = json.dumps({"name": name, "params": params}, sort_keys=True, separators=(",", ":"))
    key = hashlib.sha256(key_json.encode()).hexdigest()
    reproducing = os.environ.get("REPLICABILITY_RECOMPUTE", "") not in ("", "0")
    cache = ResultStore()
    # Paper scale reads the committed store first; only a reproduction writes it.
    stores = [ResultStore(paper_results_dir(), committed=not reproducing), cache] if scale == "paper" else [cache]
    target = stores[0] if reproducing else cache
    # Two processes asking for one result: the second waits for the first's and reads it.
    with target.lock(key):
        for store in stores:
            ds = store.load(key, versions=versions)
            if ds is not None and not _must_recompute(ds):
                _log_result(name, key, store, versions, computed=False)
                return ds
        if os.environ.get("REPLICABILITY_NO_COMPUTE", "") not in ("", "0"):
            raise RecomputeRefusedError(f"{name} ({scale} scale) is in no store and REPLICABILITY_NO_COMPUTE "
                                        f"forbids computing it; key {key}, parameters {key_json}.")
        start = time.perf_counter()
        ds = compute()
        ds.attrs.update({"name": name, "params": key_json, **provenance(time.perf_counter() - start)})
        target.save(key, ds, versions=versions)
        _log_result(name, key, target, versions, computed=True)
        return target.load(key, versions=versions)


def _log_result(name, key, store, versions, *, computed):
    """Append what :func:`cached_result` returned to the file ``REPLICABILITY_RESULT_LOG`` names, if set.

    One JSON line per result: its name, key, store folder, code versions and whether it
    was computed (else read). ``replicability reproduce --slice`` sets the variable for
    each notebook it executes, and its ``--join`` verifies every result listed
    (:mod:`replicability.report.book_slices`).
    """
    log = os.environ.get(_LOG_VAR)
    if log:
        line = json.dumps({"name": name, "key": key, "store": str(Path(store.path).resolve()),
                           "versions": versions or {}, "computed": computed}, sort_keys=True)
        with open(log, "a", encoding="utf-8") as file:
            file.write(line + "\n")
