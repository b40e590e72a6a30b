"""Array jobs (replicability.engine.slices): slices computed apart, killed and rerun, joined bit for bit."""

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from replicability.cli import main
from replicability.engine.runner import ExperimentConfig, run_experiment
from replicability.engine.slices import join_slices
from replicability.engine.store import CacheWarning, ResultStore, dataset_checksum

from ._store_components import BASE

CONFIG = ExperimentConfig(**{**BASE, "n_datasets": 8})


def _same_bytes(result, reference):
    """Equal arrays and coordinates, and equal checksums of the data (the provenance aside)."""
    xr.testing.assert_identical(result.drop_attrs(), reference.drop_attrs())
    assert dataset_checksum(result.drop_attrs()) == dataset_checksum(reference.drop_attrs())


@pytest.fixture(scope="module")
def serial():
    return run_experiment(CONFIG, progress=False)


def _slices(store, shares, n=4):
    for i in shares:
        run_experiment(CONFIG, store=store, slice=(i, n), chunk_size=1, progress=False)


def test_join_of_all_slices_equals_a_serial_run_and_replaces_the_chunks(serial, tmp_path):
    store = ResultStore(tmp_path)
    _slices(store, [2, 0, 3, 1])
    joined = join_slices(CONFIG, store)
    _same_bytes(joined.result, serial)
    _same_bytes(store.load(CONFIG, versions=CONFIG.code_versions), serial)
    assert joined.n_chunks == 8 and joined.package_version and joined.git_commit and len(joined.machines) == 1
    assert not store.parts_dir(CONFIG).exists()
    assert join_slices(CONFIG, store).n_chunks == 0  # joined already: the stored result
    # the ordinary next run reads the joined result without computing
    _same_bytes(run_experiment(CONFIG, store=store, backend="processes", n_jobs=2, progress=False), serial)


def test_join_names_the_missing_data_sets(tmp_path):
    _slices(tmp_path, [0, 2])
    with pytest.raises(ValueError, match=r"lacks data sets 2-3, 6-7 of store_binary \w{12} \(4 of 8\): rerun"):
        join_slices(CONFIG, tmp_path)
    assert CONFIG not in ResultStore(tmp_path)


def test_join_refuses_chunks_of_other_code(tmp_path):
    store = ResultStore(tmp_path)
    _slices(store, range(4))
    part = store.load_parts(CONFIG)[0]
    # the chunk of data set 0, rewritten as if computed by other code at the same versions
    store.save_part(CONFIG, part, versions=CONFIG.code_versions, identity={"learner:store_nb": [1, "0" * 64]})
    with pytest.warns(CacheWarning, match="was computed by other code"):
        with pytest.raises(ValueError, match=r"lacks data sets 0 of"):
            join_slices(CONFIG, store)


def test_join_refuses_chunks_of_another_commit(tmp_path):
    store = ResultStore(tmp_path)
    _slices(store, range(4))
    part = store.load_parts(CONFIG)[-1]
    part.attrs["git_commit"] = "0" * 40
    store.save_part(CONFIG, part, versions=CONFIG.code_versions, identity=CONFIG.code_identity)
    with pytest.raises(ValueError, match=r"come from different git commits \['0{40}', "):
        join_slices(CONFIG, store)


def test_join_refuses_a_data_set_stored_twice_with_other_counts(tmp_path):
    store = ResultStore(tmp_path)
    _slices(store, range(4))
    twice = xr.concat(store.load_parts(CONFIG)[:2], dim="dataset", combine_attrs="drop_conflicts")
    assert twice["dataset"].values.tolist() == [0, 1]
    twice["correct_both"][1, 0, 0, 0, 0, 0] += 1
    store.save_part(CONFIG, twice, versions=CONFIG.code_versions, identity=CONFIG.code_identity)
    with pytest.raises(ValueError, match=r"hold data sets 1 twice with different counts"):
        join_slices(CONFIG, store)


def test_join_rejects_a_store_of_none():
    with pytest.raises(ValueError, match="`store` must be True, a path or a ResultStore; got None"):
        join_slices(CONFIG, None)


# -- the array job on the command line: separate processes, some killed and rerun --------------

_TASK = """
import sys
sys.path.insert(0, {tests!r})
import _store_components
from replicability.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _task(tmp_path, *args):
    code = _TASK.format(tests=str(Path(__file__).parent))
    return subprocess.Popen([sys.executable, "-c", code, "reproduce", "--experiments", str(tmp_path / "exp.json"),
                             "--store", str(tmp_path / "store"), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_an_array_job_killed_in_part_rerun_and_joined_equals_a_serial_run(tmp_path, capsys):
    config = ExperimentConfig(**{**BASE, "n_datasets": 6, "source_params": {"delay": 0.5}})
    (tmp_path / "exp.json").write_text(json.dumps([json.loads(config.to_json())]))
    store = ResultStore(tmp_path / "store")
    join = ["reproduce", "--experiments", str(tmp_path / "exp.json"), "--store", str(store.path), "--join"]
    tasks = {i: _task(tmp_path, "--slice", f"{i}/3") for i in range(3)}
    tasks[2].send_signal(signal.SIGKILL)  # before it computed anything
    deadline = time.monotonic() + 120
    while not list(store.parts_dir(config).glob("datasets_0000002_*.nc")) and time.monotonic() < deadline:
        time.sleep(0.02)
    tasks[1].send_signal(signal.SIGKILL)  # after its first data set (2), before its second (3)
    outs = {i: task.communicate(timeout=120) for i, task in tasks.items()}
    assert tasks[0].returncode == 0, outs[0][1]
    assert "slice 0/3 holds data sets 0-1" in outs[0][0]
    assert tasks[1].returncode == tasks[2].returncode == -signal.SIGKILL
    # the join (here, in this process, which registered the same components) refuses the gap
    assert main(join) == 1
    err = capsys.readouterr().err
    assert "lacks data sets 3-5 of" in err and "rerun the slices that hold them" in err
    assert len(err.strip().splitlines()) == 1
    reruns = [_task(tmp_path, "--slice", f"{i}/3") for i in (1, 2)]
    for task in reruns:
        out, err = task.communicate(timeout=120)
        assert task.returncode == 0, err
    assert main(join) == 0
    assert "joined 6 data sets from 6 chunks" in capsys.readouterr().out
    joined = store.load(config, versions=config.code_versions)
    _same_bytes(joined, run_experiment(config, progress=False))
    assert np.array_equal(joined["dataset"].values, np.arange(6))


# -- command-line errors ----------------------------------------------------------------------


def test_a_slice_beyond_a_small_experiment_computes_nothing(tmp_path, capsys):
    (tmp_path / "exp.json").write_text(CONFIG.to_json())
    assert main(["reproduce", "--experiments", str(tmp_path / "exp.json"), "--store", str(tmp_path),
                 "--slice", "9/10"]) == 0
    assert "8 data sets, none in slice 9/10" in capsys.readouterr().out
    assert not ResultStore(tmp_path).parts_dir(CONFIG).exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--slice", "4/4"], r"--slice takes I/N with 0 <= I < N \(e.g. 3/10\); got '4/4'"),
    (["--slice", "a/b"], r"--slice takes I/N"),
    (["--join", "--experiments", "missing.json"], r"cannot read --experiments missing.json"),
    (["--join", "--experiments", "bad.json"], r"--experiments bad.json is not JSON"),
    (["--join", "--experiments", "list.json"], r"must hold a configuration \(a JSON object\) or a list of them"),
    (["--join", "--experiments", "unknown.json"], r"--experiments unknown.json: `n_datasets` must be"),
])
def test_command_errors_are_one_line(args, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.json").write_text(CONFIG.to_json())
    (tmp_path / "bad.json").write_text("{")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "unknown.json").write_text(json.dumps({**json.loads(CONFIG.to_json()), "n_datasets": 0}))
    if "--experiments" not in args:
        args = [*args, "--experiments", "ok.json"]
    assert main(["reproduce", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("replicability reproduce: error: ")
    assert re.search(message, err)


def test_experiments_goes_with_slice_or_join(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["reproduce", "--experiments", "x.json"])
    assert exited.value.code == 2
    assert "--experiments FILE goes with --slice I/N or --join" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [["--since", "2026-11-21T20:00:00Z"], ["--notebooks", "nb"],
                                   ["-p", "scale", "quick"]])
def test_experiments_do_not_take_the_notebooks_options(extra, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["reproduce", "--experiments", "x.json", "--join", *extra])
    assert exited.value.code == 2
    assert "--notebooks, --since and -p reproduce notebooks; --experiments computes experiments" \
        in capsys.readouterr().err

