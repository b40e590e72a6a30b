"""Tests for the result store: round trips, atomicity, corruption, resume after SIGKILL."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from replicability.engine import runner
from replicability.engine.runner import ExperimentConfig, run_experiment
from replicability.engine.store import (
    RecomputeRefusedError,
    ResultStore,
    cached_result,
    dataset_checksum,
    default_cache_dir,
    write_netcdf_atomic,
)

from ._store_components import BASE, data_only


@pytest.fixture(scope="module")
def config():
    return ExperimentConfig(**BASE)


@pytest.fixture(scope="module")
def reference(config):
    return run_experiment(config, progress=False)


def test_default_dir_env_var(monkeypatch, tmp_path):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    assert ResultStore().path == tmp_path / "c"


def test_default_dir_inside_checkout(monkeypatch):
    monkeypatch.delenv("REPLICABILITY_CACHE", raising=False)
    path = default_cache_dir()
    assert path.parts[-2:] == (".cache", "replicability")
    # Inside the project checkout, never in $HOME directly.
    assert (path.parent.parent / "pyproject.toml").is_file()


def test_round_trip_and_reuse(tmp_path, config, reference):
    store = ResultStore(tmp_path)
    first = run_experiment(config, store=store, progress=False, chunk_size=2)
    xr.testing.assert_identical(data_only(first), data_only(reference))
    assert config in store
    assert not store.parts_dir(config).exists()
    loaded = store.load(config)
    xr.testing.assert_identical(data_only(loaded), data_only(reference))
    assert loaded.n_test.dtype == reference.n_test.dtype
    assert loaded.attrs["checksum"] == dataset_checksum(loaded)
    assert loaded.attrs["config"] == config.to_json()
    # A second run reads the file (same provenance, including its creation time).
    again = run_experiment(config, store=store, progress=False)
    assert again.attrs["created_utc"] == loaded.attrs["created_utc"]
    sliced = run_experiment(config, store=store, progress=False, datasets=[1, 3])
    xr.testing.assert_identical(data_only(sliced), data_only(reference.sel(dataset=[1, 3])))


def test_file_is_compressed_netcdf_not_pickle(tmp_path, config, reference):
    store = ResultStore(tmp_path)
    store.save(config, reference)
    raw = store.result_path(config).read_bytes()
    assert raw[:8] == b"\x89HDF\r\n\x1a\n"  # HDF5 signature (netCDF-4)
    h5py = pytest.importorskip("h5py")
    with h5py.File(store.result_path(config), "r") as fh:
        for name in ("n_test", "correct_both"):
            assert fh[name].compression == "gzip" and fh[name].dtype == np.int32


def test_path_and_true_accepted(tmp_path, monkeypatch, config, reference):
    res = run_experiment(config, store=str(tmp_path / "a"), progress=False)
    assert (tmp_path / "a" / f"{config.config_hash}.nc").is_file()
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "b"))
    run_experiment(config, store=True, progress=False)
    assert (tmp_path / "b" / f"{config.config_hash}.nc").is_file()
    xr.testing.assert_identical(data_only(res), data_only(reference))


def test_atomic_write_leaves_no_temp_files_and_a_digest_of_the_bytes(tmp_path, reference):
    target = write_netcdf_atomic(reference, tmp_path / "x.nc")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.nc", "x.nc.sha256"]
    # The digest file checks with `sha256sum -c` run in the folder.
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    assert (tmp_path / "x.nc.sha256").read_text() == f"{digest}  x.nc\n"
    with xr.open_dataset(target, engine="h5netcdf") as ds:
        xr.testing.assert_identical(ds.load(), reference)


def test_failed_write_keeps_old_file(tmp_path, reference):
    target = write_netcdf_atomic(reference, tmp_path / "x.nc")
    before = target.read_bytes()
    bad = reference.assign(bad=("dataset", np.array([object()] * reference.sizes["dataset"])))
    with pytest.raises(ValueError):
        write_netcdf_atomic(bad, target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.nc", "x.nc.sha256"]


def test_checksum_sensitive_to_values_and_dtype(reference):
    base = dataset_checksum(reference)
    changed = reference.copy(deep=True)
    changed["correct_both"][0, 0, 0, 0, 0, 0] += 1
    assert dataset_checksum(changed) != base
    assert dataset_checksum(reference.assign(n_test=reference.n_test.astype(np.int64))) != base
    # Provenance is under the checksum too; only the stored digest itself is not.
    assert dataset_checksum(reference.assign_attrs(seed=reference.attrs["seed"] + 1)) != base
    assert dataset_checksum(reference.assign_attrs(checksum="x")) == base


def test_list_results_provenance(tmp_path, config):
    store = ResultStore(tmp_path)
    other = ExperimentConfig(**{**BASE, "n_datasets": 2})
    run_experiment(config, store=store, progress=False)
    run_experiment(other, store=store, progress=False)
    table = store.list_results()
    assert sorted(table.config_hash) == sorted([config.config_hash, other.config_hash])
    row = table.set_index("config_hash").loc[config.config_hash]
    assert row.config == config.to_json()
    assert row.source == "store_binary" and row.seed == 7 and row.n_datasets == 5
    for key in ("package_version", "git_commit", "machine", "created_utc"):
        assert isinstance(row[key], str) and row[key]
    assert row.wall_time_s > 0


def test_git_commit_is_heads_and_says_dirty_when_tracked_files_changed():
    # The provenance's one git call against the two plain ones it replaced.
    from replicability.engine.store import _git_commit

    root = Path(_git_commit.__code__.co_filename).parent
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True)
    if head.returncode != 0:
        pytest.skip("the package is not in a git checkout")
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert _git_commit() == head.stdout.strip() + ("-dirty" if dirty else "")


def test_resume_from_parts_in_process(tmp_path, config, reference, monkeypatch):
    store = ResultStore(tmp_path)
    # A previous run stored data sets 1 and 3 only.
    run_experiment(config, store=store, progress=False, datasets=[1, 3], chunk_size=1)
    assert config not in store and len(list(store.parts_dir(config).glob("*.nc"))) == 2
    drawn = []
    draw = runner._draw_dataset
    monkeypatch.setattr(runner, "_draw_dataset", lambda plan, index: drawn.append(index) or draw(plan, index))
    res = run_experiment(config, store=store, progress=False)
    assert sorted(drawn) == [0, 2, 4]  # only data sets 0, 2, 4 were recomputed
    xr.testing.assert_identical(data_only(res), data_only(reference))


_CHILD = """
import sys
sys.path.insert(0, {tests!r})
import _store_components
from replicability.engine.runner import ExperimentConfig, run_experiment
cfg = ExperimentConfig(**{{**_store_components.BASE, **{extra!r}}})
run_experiment(cfg, store={store!r}, progress=False, chunk_size=1)
"""


def test_resume_after_sigkill(tmp_path):
    # Slow data sets (delay does not change the data) so the kill lands mid-run.
    extra = {"n_datasets": 8, "source_params": {"delay": 0.25}}
    config = ExperimentConfig(**{**BASE, **extra})
    store_dir = tmp_path / "store"
    code = _CHILD.format(tests=str(Path(__file__).parent), extra=extra, store=str(store_dir))
    child = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
    parts = store_dir / f"{config.config_hash}.parts"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:
        if parts.is_dir() and len(list(parts.glob("*.nc"))) >= 3:
            break
        time.sleep(0.01)
    assert child.poll() is None, child.stderr.read().decode()
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stderr.close()
    n_parts = len(list(parts.glob("*.nc")))
    assert 3 <= n_parts < 8
    assert not (store_dir / f"{config.config_hash}.nc").exists()

    store = ResultStore(store_dir)
    resumed = run_experiment(config, store=store, progress=False, chunk_size=1)
    fresh = run_experiment(config, progress=False, chunk_size=3)
    xr.testing.assert_identical(data_only(resumed), data_only(fresh))
    assert resumed.n_test.dtype == fresh.n_test.dtype
    assert config in store and not parts.exists()
    xr.testing.assert_identical(data_only(store.load(config)), data_only(fresh))


def test_stored_result_loads_without_registered_components(tmp_path, reference):
    # A notebook can read a committed result without the learners being importable.
    config = ExperimentConfig(**{**BASE, "learners": ["store_nb", "never_registered"]})
    store = ResultStore(tmp_path)
    store.save(config, reference)
    res = run_experiment(config, store=store, progress=False)
    xr.testing.assert_identical(data_only(res), data_only(reference))
    with pytest.raises(ValueError, match="`learners`"):
        run_experiment(config, progress=False)


def _counting_compute(calls):
    def compute():
        calls.append(1)
        return xr.Dataset({"x": ("i", np.arange(3, dtype=np.int32))})

    return compute


def test_cached_result_recompute_flag(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path))
    calls = []
    compute = _counting_compute(calls)
    cached_result("t", {"a": 1}, compute, scale="smoke")
    cached_result("t", {"a": 1}, compute, scale="smoke")
    assert len(calls) == 1  # the second call reads the store
    monkeypatch.setenv("REPLICABILITY_RECOMPUTE", "1")
    cached_result("t", {"a": 1}, compute, scale="smoke")
    cached_result("t", {"a": 1}, compute, scale="smoke")
    assert len(calls) == 3  # "1": every call recomputes


def test_cached_result_recompute_since_time_recomputes_once(tmp_path, monkeypatch):
    # `replicability reproduce` sets the start time: results older than it are
    # recomputed, the fresh one is then shared by later notebooks.
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path))
    calls = []
    compute = _counting_compute(calls)
    old = cached_result("t", {"a": 1}, compute, scale="smoke")
    monkeypatch.setenv("REPLICABILITY_RECOMPUTE", "2999-01-01T00:00:00Z")
    cached_result("t", {"a": 1}, compute, scale="smoke")
    assert len(calls) == 2  # stored before the given time: recomputed
    monkeypatch.setenv("REPLICABILITY_RECOMPUTE", old.attrs["created_utc"])
    cached_result("t", {"a": 1}, compute, scale="smoke")
    assert len(calls) == 2  # created at (not before) the given time: reused


def test_cached_result_no_compute_refuses_a_miss_and_reads_a_hit(tmp_path, monkeypatch):
    # The notebook tests set REPLICABILITY_NO_COMPUTE on a clean cache: a miss raises before computing.
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path))
    calls = []
    compute = _counting_compute(calls)
    cached_result("t", {"a": 1}, compute, scale="smoke")
    monkeypatch.setenv("REPLICABILITY_NO_COMPUTE", "1")
    assert int(cached_result("t", {"a": 1}, compute, scale="smoke")["x"].sum()) == 3
    with pytest.raises(RecomputeRefusedError, match=r"^t \(smoke scale\) is in no store"):
        cached_result("t", {"a": 2}, compute, scale="smoke")
    assert len(calls) == 1 and len(list(tmp_path.glob("*.nc"))) == 1  # nothing computed nor written for the miss
    monkeypatch.setenv("REPLICABILITY_NO_COMPUTE", "0")
    cached_result("t", {"a": 2}, compute, scale="smoke")
    assert len(calls) == 2
