"""Array jobs over the notebooks (report/book_slices.py): slices as processes, killed and rerun, joined bit for bit."""

import json
import os
import signal
import subprocess
import sys
import time

import nbformat
import pytest

from replicability.cli import main
from replicability.engine.store import ResultStore

pytest.importorskip("papermill")

# Three small experiment notebooks of the book's kind: each reads results of the shared synthetic
# experiments (papers/shared/synthetic_runs.py) at its `scale`; the first two share one.
_SOURCES = {"a_first": ("source1", "null"), "b_second": ("source1", "source2"), "c_third": ("source3",)}
_CELL = """from replicability.papers.shared.synthetic_runs import synthetic_fold_counts
small = dict(scheme_params={{"n_runs": 2, "n_folds": 3}}, n_datasets=3, n_repeats=1, n_instances=40,
             n_jobs=1, scale=scale)
counts = [int(synthetic_fold_counts(source, **small)["correct_both"].sum()) for source in {sources!r}]
counts"""
_VOLATILE = {"wall_time_s", "created_utc", "machine", "python", "checksum"}  # provenance, and the checksum over it


def _book(folder):
    """Write the notebooks (default scale "paper", as `reproduce` wants) into ``folder/demo``."""
    demo = folder / "demo"
    demo.mkdir(parents=True)
    for name, sources in _SOURCES.items():
        parameters = nbformat.v4.new_code_cell('scale = "paper"', metadata={"tags": ["parameters"]})
        nb = nbformat.v4.new_notebook(cells=[parameters, nbformat.v4.new_code_cell(_CELL.format(sources=sources))])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, demo / f"{name}.ipynb")
    return demo


def _env(cache):
    return {**os.environ, "REPLICABILITY_CACHE": str(cache)}


def _task(cwd, cache, *args):
    """``replicability reproduce ... -p scale smoke`` as a process in a session of its own (killed with its kernel)."""
    return subprocess.Popen([sys.executable, "-m", "replicability.cli", "reproduce", "--notebooks", "demo",
                             "-p", "scale", "smoke", *args], cwd=cwd, env=_env(cache), start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _results(cache):
    """Every stored result in ``cache``: its arrays and the attributes that are not provenance (nor its checksum)."""
    store = ResultStore(cache)
    out = {}
    for path in sorted(cache.glob("*.nc")):
        ds = store.load(path.stem)
        kept = {k: v for k, v in ds.attrs.items() if k not in _VOLATILE}
        out[path.stem] = (ds.drop_attrs(), kept)
    return out


def test_slices_killed_rerun_and_joined_equal_a_serial_run_and_leave_nothing_to_recompute(tmp_path, monkeypatch,
                                                                                        capsys):
    serial_dir, job_dir = tmp_path / "serial", tmp_path / "job"
    _book(serial_dir), _book(job_dir)
    serial = _task(serial_dir, tmp_path / "serial-cache", "--slice", "0/1")
    out, err = serial.communicate(timeout=600)
    assert serial.returncode == 0, err
    assert "c_third.ipynb: 1 results, 1 computed" in out

    cache = tmp_path / "job-cache"
    tasks = {i: _task(job_dir, cache, "--slice", f"{i}/3") for i in range(3)}
    ledger = None
    deadline = time.monotonic() + 300
    while ledger is None and time.monotonic() < deadline:  # slice 2 has started its notebook: kill it and its kernel
        ledger = next(job_dir.glob("runs/reproduce-*/2-of-3"), None)
        time.sleep(0.05)
    os.killpg(tasks[2].pid, signal.SIGKILL)
    outs = {i: task.communicate(timeout=600) for i, task in tasks.items()}
    assert tasks[0].returncode == tasks[1].returncode == 0, (outs[0][1], outs[1][1])
    assert tasks[2].returncode == -signal.SIGKILL

    monkeypatch.chdir(job_dir)
    monkeypatch.setenv("REPLICABILITY_CACHE", str(cache))
    join = ["reproduce", "--notebooks", "demo", "-p", "scale", "smoke", "--join"]
    assert main(join) == 1
    err = capsys.readouterr().err
    assert err == f"replicability reproduce: error: slices not finished: 2/3 (demo{os.sep}c_third.ipynb): " \
                  "rerun them, then join\n"

    reruns = {i: _task(job_dir, cache, "--slice", f"{i}/3") for i in (0, 2)}
    outs = {i: task.communicate(timeout=600) for i, task in reruns.items()}
    assert all(task.returncode == 0 for task in reruns.values()), outs
    assert "a_first.ipynb: done by an earlier run of this slice" in outs[0][0]
    assert "c_third.ipynb: 1 results, 1 computed" in outs[2][0]

    assert main(join) == 0
    out = capsys.readouterr().out
    assert "joined 3 notebooks from 3 slices: 4 results verified (4 computed" in out
    joined, reference = _results(cache), _results(tmp_path / "serial-cache")
    assert sorted(joined) == sorted(reference) and len(joined) == 4
    for key, (ds, attrs) in joined.items():
        assert ds.identical(reference[key][0]), key
        assert attrs == reference[key][1], key
        for name in ds.data_vars:
            assert ds[name].values.tobytes() == reference[key][0][name].values.tobytes()

    # Afterwards the notebooks run from the store (as `make book` runs them): nothing is recomputed.
    stored = {p: p.stat().st_mtime_ns for p in cache.glob("*.nc")}
    notebooks = sorted(str(p.relative_to(job_dir)) for p in (job_dir / "demo").glob("*.ipynb"))
    assert main(["run", *notebooks, "-p", "scale", "smoke"]) == 0
    assert {p: p.stat().st_mtime_ns for p in cache.glob("*.nc")} == stored
    executed = sorted(job_dir.glob("runs/*/*.ipynb"))
    assert [p.name for p in executed] == ["a_first.ipynb", "b_second.ipynb", "c_third.ipynb"]
    assert all(json.loads(p.read_text())["cells"][-1]["outputs"] for p in executed)  # the counts, from the store


def test_join_before_any_slice_says_how_to_start(tmp_path, monkeypatch, capsys):
    _book(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", "--notebooks", "demo", "--join"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "no slice of this reproduction has run" in err and "run replicability reproduce --slice I/N first" in err


@pytest.mark.parametrize("share", ["2/2", "x", "1/0", "-1/3"])
def test_a_bad_slice_is_one_line(share, tmp_path, monkeypatch, capsys):
    _book(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", "--notebooks", "demo", f"--slice={share}"]) == 2
    err = capsys.readouterr().err
    assert err == f"replicability reproduce: error: --slice takes I/N with 0 <= I < N (e.g. 3/10); got {share!r}\n"
    assert not (tmp_path / "runs").exists()


def test_a_bad_since_is_one_line(tmp_path, monkeypatch, capsys):
    _book(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", "--notebooks", "demo", "--slice", "0/2", "--since", "yesterday"]) == 2
    assert capsys.readouterr().err == ("replicability reproduce: error: --since takes a UTC time like "
                                       "2026-11-21T20:00:00Z; got 'yesterday'\n")


def test_a_slice_stopped_by_sigterm_says_how_to_resume(tmp_path):
    _book(tmp_path)
    task = _task(tmp_path, tmp_path / "cache", "--slice", "0/1")
    deadline = time.monotonic() + 300
    while not list(tmp_path.glob("runs/reproduce-*/0-of-1")) and time.monotonic() < deadline:
        time.sleep(0.05)
    task.send_signal(signal.SIGTERM)
    out, err = task.communicate(timeout=300)
    assert task.returncode == 143, err
    assert err.strip().endswith("to resume: replicability reproduce --notebooks demo -p scale smoke --slice 0/1")
    assert not list(tmp_path.glob("runs/reproduce-*/0-of-1/*.json"))  # no notebook recorded as done
