"""Benchmark: one small experiment on 1 and 2 workers, the ways the book's "Running at scale" page describes.

The workload: naive Bayes against C4.5 (the compiled kernel) on ``N_DATASETS``
data sets of 300 instances with 10 independent binary attributes, 10 x 10 cv, one
randomization each, through :func:`replicability.engine.runner.run_experiment`:

* ``joblib``: ``backend="joblib"`` under ``joblib.parallel_config(backend="loky",
  n_jobs=w)`` (loky's workers are kept from one call to the next; a warm-up call
  starts them before timing);
* ``dask``: ``backend="dask"`` on a ``dask.distributed.LocalCluster`` of ``w``
  single-threaded worker processes, started before timing;
* ``array job``: ``w`` slices as separate processes (``replicability reproduce
  --experiments FILE --slice i/w``) into a fresh store, then the join
  (``--join``): each process imports the package, so this counts the start-up of
  ``w + 1`` interpreters, as a cluster's array job pays it.

The six commands are timed in turn, round after round (interleaved, so that drift
of the shared machine hits all alike); reported are the median, fastest and slowest
wall time, with the 1-minute load average taken as each timing started (``load_1min``,
one per round, beside the figures it goes with), the load averages before and after,
and whether every result equals a serial run's bit for bit. Run
``python benchmarks/bench_at_scale.py``.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import joblib
import numpy as np
import xarray as xr
from _common import ROOT, load_average, write_results
from dask.distributed import Client, LocalCluster

from replicability.engine.runner import ExperimentConfig, run_experiment
from replicability.engine.store import ResultStore

ROUNDS = 3
N_DATASETS = 30
WORKERS = (1, 2)
CONFIG = ExperimentConfig(source="independent_binary", source_params={"n_attributes": 10, "class_probability": 0.5},
                          learners=["naive_bayes", "c45"], scheme="rxk_cv", scheme_params={"n_runs": 10, "n_folds": 10},
                          n_datasets=N_DATASETS, n_instances=300, n_repeats=1, seed=39)


def _cli(*args):
    subprocess.run([sys.executable, "-m", "replicability.cli", "reproduce", *map(str, args)], check=True,
                   capture_output=True, cwd=ROOT)


def array_job(n_slices, folder):
    """``n_slices`` slice processes at once, then the join; the joined result."""
    experiments, store = folder / "exp.json", folder / f"store{time.monotonic_ns()}"
    experiments.write_text(CONFIG.to_json())
    common = ["--experiments", experiments, "--store", store]
    tasks = [subprocess.Popen([sys.executable, "-m", "replicability.cli", "reproduce", *map(str, common),
                               "--slice", f"{i}/{n_slices}"], cwd=ROOT, stdout=subprocess.DEVNULL)
             for i in range(n_slices)]
    if any(task.wait() != 0 for task in tasks):
        raise RuntimeError("a slice failed")
    _cli(*common, "--join")
    return ResultStore(store).load(CONFIG, versions=CONFIG.code_versions)


def main():
    load_before = load_average()
    reference = run_experiment(CONFIG, progress=False)  # also loads the compiled kernels
    clusters = {w: LocalCluster(n_workers=w, threads_per_worker=1, processes=True, dashboard_address=":0")
                for w in WORKERS}
    clients = {w: Client(cluster, set_as_default=False) for w, cluster in clusters.items()}
    folder = Path(tempfile.mkdtemp(prefix="bench_at_scale-"))

    def joblib_run(w):
        with joblib.parallel_config(backend="loky", n_jobs=w):
            return run_experiment(CONFIG, backend="joblib", progress=False)

    commands = {}
    for w in WORKERS:
        commands[f"joblib (loky), {w} worker(s)"] = lambda w=w: joblib_run(w)
        commands[f"dask LocalCluster, {w} worker(s)"] = lambda w=w: run_experiment(
            CONFIG, backend="dask", client=clients[w], progress=False)
        commands[f"array job, {w} slice(s) + join"] = lambda w=w: array_job(w, folder)
    identical = {name: True for name in commands}
    for command in commands.values():  # warm-up: workers started, kernels loaded
        command()
    walls = {name: [] for name in commands}
    loads = {name: [] for name in commands}  # the 1-minute load average as each timing starts
    for _ in range(ROUNDS):
        for name, command in commands.items():
            loads[name].append(round(os.getloadavg()[0], 2))
            start = time.perf_counter()
            result = command()
            walls[name].append(time.perf_counter() - start)
            try:
                xr.testing.assert_identical(result.drop_attrs(), reference.drop_attrs())
            except AssertionError:
                identical[name] = False
    for client in clients.values():
        client.close()
    for cluster in clusters.values():
        cluster.close()
    rows = {name: {"median": float(np.median(w)), "min": float(min(w)), "max": float(max(w)),
                   "load_1min": loads[name]}
            for name, w in walls.items()}
    for name, row in rows.items():
        print(f"{name:36s} median {row['median']:6.2f} s  ({row['min']:.2f}-{row['max']:.2f})"
              f"  load {'/'.join(map(str, row['load_1min']))}  {'identical' if identical[name] else 'DIFFERENT'}")
    path = write_results("at_scale", {
        "workload": f"naive Bayes vs C4.5, {N_DATASETS} data sets x 10 x 10 cv, 300 instances",
        "config": json.loads(CONFIG.to_json()), "rounds": ROUNDS, "wall_seconds": rows,
        "identical_to_serial": identical,
        "load_average_before": load_before, "load_average_after": load_average(),
    })
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
