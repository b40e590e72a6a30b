"""Fault tests of the result store and the runner (issue 17): nothing lost, nothing stale served.

Each fault is injected deterministically (seeded data, chosen kill points); every test
asserts that no stored file was deleted (bad files are moved to the quarantine), that
no stale or corrupt result is served, and that the final result is bit-identical to an
uninterrupted run.
"""

import errno
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import psutil
import pytest
import xarray as xr

from replicability.engine import registry
from replicability.engine import store as store_module
from replicability.engine.runner import ExperimentConfig, run_experiment
from replicability.engine.store import (
    CacheWarning,
    ResultStore,
    ResultUnavailableError,
    cached_result,
    dataset_checksum,
    remove_stale_temporaries,
)

from ._store_components import BASE, data_only

TESTS = Path(__file__).parent
#: A stored result with one flipped bit on which libhdf5 never returns (see its README).
HANG = TESTS.parent / "fixtures" / "store_hang"


@pytest.fixture(scope="module")
def config():
    return ExperimentConfig(**BASE)


@pytest.fixture(scope="module")
def reference(config):
    return run_experiment(config, progress=False)


def _rewrite(path, edit):
    """Load ``path``, apply ``edit`` to the dataset, write it back without restamping.

    The digest file is rewritten too, as a forger would: the checks behind the digest
    (checksum, key, versions) must catch the edit.
    """
    with xr.open_dataset(path, engine="h5netcdf") as handle:
        ds = handle.load()
    edit(ds)
    path.unlink()
    ds.to_netcdf(path, engine="h5netcdf")
    _digest(path).write_text(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}\n")


def _digest(path):
    return path.with_name(path.name + ".sha256")


def _quarantined(store):
    """The data files in the quarantine (each has its digest file beside it)."""
    files = sorted(store.quarantine_dir.iterdir())
    data = [p for p in files if p.suffix != ".sha256"]
    assert sorted(map(_digest, data)) == sorted(set(files) - set(data))
    return data


def _restamped(edit):
    """An edit followed by a recomputed checksum: only the key checks can catch it."""

    def apply(ds):
        edit(ds)
        ds.attrs["checksum"] = dataset_checksum(ds)

    return apply


def _flip_byte(path, offset):
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))


def _data_offset(path, variable="correct_both"):
    """Byte offset of the middle of a variable's first stored chunk (compressed data)."""
    import h5py

    with h5py.File(path, "r") as f:
        info = f[variable].id.get_chunk_info(0)
    return info.byte_offset + info.size // 2


DAMAGES = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "garbage": lambda p: p.write_bytes(b"not a netCDF file at all" * 10),
    "flipped byte (superblock)": lambda p: _flip_byte(p, 20),
    "flipped byte (data chunk)": lambda p: _flip_byte(p, _data_offset(p)),
    "flipped byte (n_test chunk)": lambda p: _flip_byte(p, _data_offset(p, "n_test")),
    "array edited": lambda p: _rewrite(p, lambda ds: ds["correct_both"][0, 0, 0, 0, 1, 1].__iadd__(1)),
    "seed edited": lambda p: _rewrite(p, lambda ds: ds.attrs.update(seed=99)),
    "git commit edited": lambda p: _rewrite(p, lambda ds: ds.attrs.update(git_commit="0" * 40)),
    "config not JSON": lambda p: _rewrite(p, _restamped(lambda ds: ds.attrs.update(config="{not json"))),
    "config of another run": lambda p: _rewrite(
        p, _restamped(lambda ds: ds.attrs.update(config=ExperimentConfig(**{**BASE, "seed": 8}).to_json()))),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_damaged_result_is_quarantined_and_recomputed(tmp_path, config, reference, damage):
    store = ResultStore(tmp_path / "store")
    path = store.save(config, reference, versions=config.code_versions)
    DAMAGES[damage](path)
    damaged_bytes = path.read_bytes()
    with pytest.warns(CacheWarning, match="moved to .*quarantine") as record:
        res = run_experiment(config, store=store, progress=False)
    xr.testing.assert_identical(data_only(res), data_only(reference))
    # Nothing lost: the damaged file is kept, byte for byte, in the quarantine.
    kept = _quarantined(store)
    assert [p.read_bytes() for p in kept] == [damaged_bytes]
    assert str(kept[0]) in str(record[0].message)
    # The recomputed file is good and verified on the next read.
    xr.testing.assert_identical(data_only(store.load(config, versions=config.code_versions)), data_only(reference))


def test_damaged_chunk_is_quarantined_and_the_run_completes(tmp_path, config, reference):
    store = ResultStore(tmp_path / "store")
    for start in (0, 2):
        store.save_part(config, reference.isel(dataset=slice(start, start + 2)), versions=config.code_versions,
                        identity=config.code_identity)
    damaged = sorted(store.parts_dir(config).glob("*.nc"))[0]
    _flip_byte(damaged, _data_offset(damaged))
    with pytest.warns(CacheWarning, match="quarantine"):
        res = run_experiment(config, store=store, progress=False)
    xr.testing.assert_identical(data_only(res), data_only(reference))
    assert len(_quarantined(store)) == 1


_READ_IN_CHILD = """
import sys, warnings
from replicability.engine.store import ResultStore
warnings.simplefilter("ignore")
ds = ResultStore({store!r}, committed={committed!r}).load({key!r})
print("read" if ds is not None else "not used")
"""


@pytest.mark.parametrize("committed", [False, True])
def test_the_flipped_bit_that_hangs_libhdf5_is_refused_before_hdf5_opens_it(tmp_path, committed):
    store_dir = tmp_path / "store"
    shutil.copytree(HANG, store_dir)
    (path,) = store_dir.glob("*.nc")
    damaged = path.read_bytes()
    key = path.name.removesuffix(".nc")
    # In a child with a time limit: were the file handed to HDF5, the test would hang with it.
    code = _READ_IN_CHILD.format(store=str(store_dir), committed=committed, key=key)
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "not used"
    if committed:  # reported and left in place
        assert path.read_bytes() == damaged and not (tmp_path / "store.quarantine").exists()
    else:  # moved, byte for byte, with its digest file
        (kept,) = _quarantined(ResultStore(store_dir))
        assert kept.read_bytes() == damaged and not path.exists()
        with pytest.warns(CacheWarning, match="does not match its SHA-256 digest"):
            shutil.copy(kept, path)
            shutil.copy(_digest(kept), _digest(path))
            assert ResultStore(store_dir).load(key) is None


_EVERY_FLIP = """
import hashlib, json, time, warnings
import xarray as xr
from replicability.engine.store import ResultStore
warnings.simplefilter("ignore")
key_json = json.dumps({{"name": "flips", "params": {{}}}}, sort_keys=True, separators=(",", ":"))
key = hashlib.sha256(key_json.encode()).hexdigest()
store = ResultStore({store!r})
path = store.save(key, xr.Dataset(attrs={{"params": key_json}}))
digest_path = path.with_name(path.name + ".sha256")
good = store.load(key)
originals = {{path: path.read_bytes(), digest_path: digest_path.read_bytes()}}
counts = {{"read": 0, "not used": 0}}
start = time.perf_counter()
for target, original in originals.items():
    for bit in range(8 * len(original)):
        flipped = bytearray(original)
        flipped[bit // 8] ^= 1 << (bit % 8)
        for p, data in originals.items():
            p.write_bytes(bytes(flipped) if p == target else data)
        ds = store.load(key)
        if ds is None:
            counts["not used"] += 1
            assert not path.exists()  # quarantined: the file is moved away
            for kept in store.quarantine_dir.iterdir():
                kept.unlink()
        else:
            xr.testing.assert_identical(ds, good)
            counts["read"] += 1
print(json.dumps({{"bytes": len(originals[path]), "digest_bytes": len(originals[digest_path]), **counts,
                  "seconds": time.perf_counter() - start}}))
"""


def test_every_single_bit_flip_of_a_small_result_is_quarantined_or_read_correctly(tmp_path):
    # The smallest file the store writes (an empty result with its key: 4,840 bytes, of which HDF5's
    # global heap takes 4,096) and its digest file: 39,792 flips. In a child with a time limit, so that
    # a flip HDF5 would hang on fails the test instead of hanging it (the loop takes about 40 s on an
    # idle machine; the limit leaves room for a loaded one).
    code = _EVERY_FLIP.format(store=str(tmp_path / "store"))
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert child.returncode == 0, child.stderr
    counts = json.loads(child.stdout)
    assert counts["read"] + counts["not used"] == 8 * (counts["bytes"] + counts["digest_bytes"])
    # Every flip of the data file changes its bytes, so none of them reaches HDF5.
    assert counts["not used"] >= 8 * counts["bytes"]


def test_the_quarantine_keeps_the_newest_three_copies_of_a_file_and_nothing_else_is_removed(tmp_path, config,
                                                                                             reference):
    store = ResultStore(tmp_path / "store")
    store.quarantine_dir.mkdir(parents=True)
    (store.quarantine_dir / "notes.txt").write_text("a user's file")
    other = store.quarantine_dir / "other.nc.20260101T000000.000000.1"  # another file's copy
    other.write_bytes(b"x")
    damaged = []
    for copy in range(5):
        path = store.save(config, reference, versions=config.code_versions)
        DAMAGES["garbage"](path)
        damaged.append(path.read_bytes() + bytes([copy]))  # each copy told apart by its last byte
        path.write_bytes(damaged[-1])
        with pytest.warns(CacheWarning, match="quarantine"):
            assert store.load(config, versions=config.code_versions) is None
    kept = [p for p in store.quarantine_dir.iterdir() if p.name.startswith(path.name)]
    data = sorted(p for p in kept if p.suffix != ".sha256")
    assert [p.read_bytes() for p in data] == damaged[-3:]  # the newest three, in the order they came
    assert sorted(kept) == sorted([*data, *map(_digest, data)])
    assert (store.quarantine_dir / "notes.txt").read_text() == "a user's file" and other.exists()


def _hold_write_lock(path):
    code = f"import h5py, time; f = h5py.File({str(path)!r}, 'a'); print('locked', flush=True); time.sleep(120)"
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    return holder


def test_locked_file_raises_and_is_left_untouched(tmp_path, config, reference):
    store = ResultStore(tmp_path / "store")
    path = store.save(config, reference, versions=config.code_versions)
    saved = path.read_bytes()
    holder = _hold_write_lock(path)
    before = path.read_bytes()  # as the holder left it (opening for writing sets a superblock flag)
    try:
        with pytest.raises(ResultUnavailableError, match="another process holds it open for writing"):
            run_experiment(config, store=store, progress=False)
        assert path.read_bytes() == before and not store.quarantine_dir.exists()
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    # The killed holder left its mark in the file (the superblock's open-for-writing flag): the
    # bytes no longer match their digest, so the file is quarantined, kept, and recomputed.
    left = path.read_bytes()
    assert left != saved
    with pytest.warns(CacheWarning, match="digest"):
        res = run_experiment(config, store=store, progress=False)
    xr.testing.assert_identical(data_only(res), data_only(reference))
    assert [p.read_bytes() for p in _quarantined(store)] == [left]


def test_missing_h5netcdf_raises_and_never_touches_a_committed_result(tmp_path, monkeypatch):
    # A committed paper-scale result (data/results of a compendium) read without h5netcdf.
    data = tmp_path / "data"
    (data / "published").mkdir(parents=True)
    monkeypatch.setenv("REPLICABILITY_DATA_DIR", str(data))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    compute = lambda: xr.Dataset({"x": ("i", np.arange(3, dtype=np.int32))})  # noqa: E731
    monkeypatch.setenv("REPLICABILITY_RECOMPUTE", "1")  # a reproduction writes data/results
    cached_result("t", {"a": 1}, compute, scale="paper")
    monkeypatch.delenv("REPLICABILITY_RECOMPUTE")
    (path,) = (data / "results").glob("*.nc")
    before = path.read_bytes()
    monkeypatch.setitem(sys.modules, "h5netcdf", None)  # `import h5netcdf` now fails
    with pytest.raises(ResultUnavailableError, match="h5netcdf"):
        cached_result("t", {"a": 1}, compute, scale="paper")
    assert path.read_bytes() == before and not (data / "results.quarantine").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_unreadable_file_raises_and_is_left_untouched(tmp_path, config, reference):
    store = ResultStore(tmp_path / "store")
    path = store.save(config, reference)
    path.chmod(0)
    try:
        with pytest.raises(ResultUnavailableError):
            store.load(config)
        assert path.exists() and not store.quarantine_dir.exists()
    finally:
        path.chmod(0o644)


def test_bumped_learner_version_makes_results_and_chunks_stale(tmp_path, config, reference, monkeypatch):
    store = ResultStore(tmp_path / "store")
    run_experiment(config, store=store, progress=False)  # complete result, version 1
    old = ExperimentConfig(**{**BASE, "seed": 3})
    run_experiment(old, store=store, progress=False, datasets=[1, 3], chunk_size=1)  # two chunks, version 1
    monkeypatch.setitem(registry.VERSIONS, "learner:store_nb", 2)
    assert config.code_versions["learner:store_nb"] == 2
    with pytest.warns(CacheWarning, match="stale"):
        res = run_experiment(config, store=store, progress=False)
    xr.testing.assert_identical(data_only(res), data_only(reference))
    assert json.loads(store.load(config).attrs["code_versions"])["learner:store_nb"] == 2
    # Old chunks are never combined with new ones: all five data sets are recomputed.
    calls = []
    original = registry.SOURCES["store_binary"]
    monkeypatch.setitem(registry.SOURCES, "store_binary", lambda rng, **kw: calls.append(1) or original(rng, **kw))
    with pytest.warns(CacheWarning, match="stale"):
        run_experiment(old, store=store, progress=False)
    assert len(calls) == 5
    assert len(_quarantined(store)) == 3  # one result and two chunks, kept


def test_cached_result_reports_and_recomputes_a_stale_result(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    calls = []

    def compute():
        calls.append(1)
        return xr.Dataset({"x": ("i", np.arange(3, dtype=np.int32))})

    cached_result("t", {"a": 1}, compute, scale="smoke", versions={"learner:x": 1})
    cached_result("t", {"a": 1}, compute, scale="smoke", versions={"learner:x": 1})
    assert len(calls) == 1
    with pytest.warns(CacheWarning, match="stale"):
        ds = cached_result("t", {"a": 1}, compute, scale="smoke", versions={"learner:x": 2})
    assert len(calls) == 2 and json.loads(ds.attrs["code_versions"]) == {"learner:x": 2}


def test_only_the_stores_own_temporaries_of_dead_local_writers_are_removed(tmp_path, config, reference):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    host = socket.gethostname()
    parts = tmp_path / f"{config.config_hash}.parts"
    for folder in (parts, tmp_path / "notes", tmp_path / "mine.parts"):
        folder.mkdir()
    key = config.config_hash
    stale = [tmp_path / f".{key}.nc@{host}@{dead.pid}@abc123.replicability-tmp",
             parts / f".datasets_1.nc@{host}@{dead.pid}@k2u_0wx.replicability-tmp"]
    kept = [
        tmp_path / ".draft.tmp",  # a user's files beside the results
        tmp_path / "notes" / ".draft.tmp",
        tmp_path / f".r.nc.{dead.pid}.xyz.tmp",  # the pattern of the store's old temporaries, now a user's
        tmp_path / f".{key}.nc@{host}@{os.getpid()}@def456.replicability-tmp",  # a live writer
        tmp_path / f".{key}.nc@another-host.example@{dead.pid}@ghi789.replicability-tmp",  # alive or not: unknown
        tmp_path / "notes" / f".x.nc@{host}@{dead.pid}@abc123.replicability-tmp",  # not the store's folders
        tmp_path / "mine.parts" / f".x.nc@{host}@{dead.pid}@abc123.replicability-tmp",
    ]
    for p in stale + kept:
        p.write_bytes(b"half")
    assert sorted(remove_stale_temporaries(tmp_path)) == sorted(stale)
    assert all(p.exists() for p in kept)
    for p in stale:
        p.write_bytes(b"half")
    # Opening the store and running an experiment in it clean up the same way.
    res = run_experiment(config, store=ResultStore(tmp_path), progress=False)
    xr.testing.assert_identical(data_only(res), data_only(reference))
    assert all(p.exists() for p in kept) and not any(p.exists() for p in stale)


def test_a_writers_temporary_names_its_host_and_process(tmp_path, reference, monkeypatch):
    # The name a temporary really gets, seen by stopping the write before its rename.
    def fail(src, dst):
        raise OSError(errno.EIO, "stopped before the rename")

    names = []
    original = store_module._write_temporary

    def recording(data, path):
        tmp = original(data, path)
        names.append(tmp.name)
        return tmp

    monkeypatch.setattr(store_module, "_write_temporary", recording)
    monkeypatch.setattr(store_module.os, "replace", fail)
    with pytest.raises(OSError, match="stopped before the rename"):
        store_module.write_netcdf_atomic(reference, tmp_path / "x.nc")
    assert [n.split("@")[:3] for n in names] == [[".x.nc.sha256", socket.gethostname(), str(os.getpid())],
                                                [".x.nc", socket.gethostname(), str(os.getpid())]]
    assert all(n.endswith(".replicability-tmp") for n in names)
    assert list(tmp_path.iterdir()) == []  # and a failed write leaves none


_CHILD = """
import signal, sys
# As a run started from a shell: SIGINT raises KeyboardInterrupt, whatever this test's process
# passed on (a disposition of SIG_IGN, or a blocked SIGINT, is inherited across exec).
signal.pthread_sigmask(signal.SIG_UNBLOCK, {{signal.SIGINT}})
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, {tests!r})
import _store_components
from replicability.engine.runner import ExperimentConfig, run_experiment
cfg = ExperimentConfig(**{{**_store_components.BASE, **{extra!r}}})
run_experiment(cfg, store={store!r}, progress=False, chunk_size=1, backend={backend!r}, n_jobs=2)
"""


def _descendants(pid):
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _alive(processes):
    out = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


@pytest.mark.parametrize("backend,how", [("serial", "SIGKILL"), ("processes", "SIGKILL"),
                                         ("processes", "SIGTERM"), ("processes", "SIGINT")])
def test_killed_run_leaves_no_process_and_resumes_bit_identically(tmp_path, backend, how):
    extra = {"n_datasets": 10, "source_params": {"delay": 0.3}}
    config = ExperimentConfig(**{**BASE, **extra})
    store_dir = tmp_path / "store"
    code = _CHILD.format(tests=str(TESTS), extra=extra, store=str(store_dir), backend=backend)
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stderr=subprocess.PIPE)
    parts = store_dir / f"{config.config_hash}.parts"
    deadline = time.monotonic() + 120
    family = []
    while time.monotonic() < deadline and child.poll() is None:  # kill point: after the third chunk
        family = {p.pid: p for p in [*family, *_descendants(child.pid)]}.values()
        if parts.is_dir() and len(list(parts.glob("*.nc"))) >= 3:
            break
        time.sleep(0.02)
    family = list({p.pid: p for p in [*family, *_descendants(child.pid)]}.values())
    assert child.poll() is None, child.stderr.read().decode()
    if backend == "processes":
        assert family, "the run started no worker process"
    os.kill(child.pid, getattr(signal, how))
    child.wait(timeout=60)
    child.stderr.close()
    deadline = time.monotonic() + 15
    while _alive(family) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(family), f"left behind after {how}: {[p.cmdline() for p in _alive(family)]}"
    assert not (store_dir / f"{config.config_hash}.nc").exists()

    resumed = run_experiment(config, store=ResultStore(store_dir), progress=False, chunk_size=1)
    fresh = run_experiment(config, progress=False, chunk_size=4)
    xr.testing.assert_identical(data_only(resumed), data_only(fresh))
    assert not list(store_dir.rglob("*.tmp"))


@pytest.mark.parametrize("damage", ["flipped byte (data chunk)", "seed edited", "stale"])
def test_a_bad_committed_result_is_reported_left_in_place_and_recomputed_into_the_cache(tmp_path, monkeypatch,
                                                                                        damage):
    data = tmp_path / "data"
    (data / "published").mkdir(parents=True)
    monkeypatch.setenv("REPLICABILITY_DATA_DIR", str(data))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    calls = []

    def compute():
        calls.append(1)
        return xr.Dataset({"x": ("i", np.arange(3, dtype=np.int32))})

    monkeypatch.setenv("REPLICABILITY_RECOMPUTE", "1")
    cached_result("t", {"a": 1}, compute, scale="paper", versions={"learner:x": 1})
    monkeypatch.delenv("REPLICABILITY_RECOMPUTE")
    (path,) = (data / "results").glob("*.nc")
    versions = {"learner:x": 2 if damage == "stale" else 1}
    if damage == "seed edited":
        _rewrite(path, lambda ds: ds.attrs.update(seed=99))
    elif damage.startswith("flipped"):
        _flip_byte(path, _data_offset(path, "x"))
    before = path.read_bytes()
    with pytest.warns(CacheWarning, match="left in place"):
        ds = cached_result("t", {"a": 1}, compute, scale="paper", versions=versions)
    assert len(calls) == 2 and int(ds["x"].sum()) == 3
    assert path.read_bytes() == before and not (data / "results.quarantine").exists()
    assert list((tmp_path / "cache").glob("*.nc"))  # the recomputed result went to the working cache


def test_a_rerun_never_writes_the_committed_store(tmp_path, monkeypatch):
    data = tmp_path / "data"
    (data / "published").mkdir(parents=True)
    monkeypatch.setenv("REPLICABILITY_DATA_DIR", str(data))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    cached_result("t", {"a": 2}, lambda: xr.Dataset({"x": ("i", [1])}), scale="paper")
    assert not (data / "results").exists() and len(list((tmp_path / "cache").glob("*.nc"))) == 1


_FULL_DISK_CHILD = """
import json, os, resource, sys
sys.path.insert(0, {tests!r})
import _store_components
from replicability.engine.runner import ExperimentConfig, run_experiment
from replicability.engine.store import ResultStore, StoreFullError
store = ResultStore({store!r})
old = ExperimentConfig(**_store_components.BASE)
run_experiment(old, store=store, progress=False)  # stored before the disk fills
kept = store.load(old)
if {how!r} == "file size limit":
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))  # larger writes fail with EFBIG
else:  # fill the file system to its last block
    fd = os.open(os.path.join({store!r}, "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, bytes(4096))
    except OSError:
        pass
try:
    run_experiment(ExperimentConfig(**{{**_store_components.BASE, "seed": 8}}), store=store, progress=False)
except StoreFullError as exc:
    print(exc)
    again = store.load(old)
    print(json.dumps({{"old_result_kept": again is not None and again.identical(kept),
                      "temporaries": [p.name for p in store.path.rglob("*.replicability-tmp")]}}))
    sys.exit(3)
"""


@pytest.mark.parametrize("how", ["tmpfs", "file size limit"])
def test_a_full_disk_is_a_one_line_error_naming_the_folder(tmp_path, how):
    store = tmp_path / "store"
    store.mkdir()
    code = _FULL_DISK_CHILD.format(tests=str(TESTS), store=str(store), how=how)
    command = [sys.executable, "-c", code]
    if how == "tmpfs":  # a 256 KB file system of its own, mounted in a private mount namespace
        if not shutil.which("unshare") or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
            pytest.skip("no unprivileged mount namespace here (unshare -rm) to mount a small tmpfs in")
        command = ["unshare", "-rm", "sh", "-c", 'mount -t tmpfs -o size=256k tmpfs "$0" && exec "$@"', str(store),
                   *command]
    child = subprocess.run(command, capture_output=True, text=True, timeout=300)
    # Not a crash (a segmentation fault was exit 139): the error, caught as StoreFullError.
    assert child.returncode == 3, child.stderr
    message, checks = child.stdout.splitlines()
    assert message.startswith(f"Cannot store results in {store}") and "nothing was written" in message
    assert "No space left on device" in message if how == "tmpfs" else "File too large" in message
    assert json.loads(checks) == {"old_result_kept": True, "temporaries": []}
