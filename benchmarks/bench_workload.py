"""Benchmark: the whole synthetic workload at paper scale, recomputed and checked.

Recomputes every committed result of the synthetic experiments of Bouckaert
(2003, 2004) and Bouckaert & Frank (2004), the families ``synthetic`` and
``bouckaert2003`` of ``data/results``, from the parameters stored with it:

* each ``synthetic/fold_counts`` result with
  :func:`replicability.engine.runner.run_experiment` (``backend="processes"``,
  two workers, the machine's cores);
* the two calibrations of the 2003 paper with
  :func:`replicability.papers.bouckaert2003.rejection_counts` on the recomputed fold
  counts they were derived from.

Every recomputed result is compared with the committed one (all data variables,
exactly), so the run also shows that the committed results are reproducible.
Wall time and CPU time (this process and its worker processes) are recorded per
result and in all; the design target is 30 minutes of wall time on two cores.
Takes about half an hour. Run ``python benchmarks/bench_workload.py`` (``--quick``:
the first result only, written to a temporary folder).
"""

import json
import time

import numpy as np
import xarray as xr
from _common import QUICK, cpu_with_children, load_average, write_results

import replicability as rp
from replicability.engine.runner import ExperimentConfig, pair_counts, run_experiment
from replicability.papers.bouckaert2003 import rejection_counts
from replicability.papers.shared.synthetic_runs import fold_differences

N_JOBS = 2
FAMILIES = ("synthetic", "bouckaert2003")


def identical(committed, recomputed):
    return all(np.array_equal(committed[v].values, recomputed[v].values) for v in committed.data_vars)


def fold_counts(committed):
    """Recompute a committed fold-count result from the runner configuration it records.

    The resampling results record the scheme's ``test_size`` under its name of
    the time they were computed, ``test_fraction`` (the concepts page lists the old names).
    """
    spec = json.loads(committed.attrs["config"])
    if "test_fraction" in spec["scheme_params"]:
        spec["scheme_params"]["test_size"] = spec["scheme_params"].pop("test_fraction")
    config = ExperimentConfig.from_json(json.dumps(spec))
    return pair_counts(run_experiment(config, backend="processes", n_jobs=N_JOBS, progress=False))


def calibration(name, params, recomputed):
    """The calibration's rejection counts from the recomputed fold counts it names."""
    counts = recomputed[params["fold_counts"]]
    d = fold_differences(counts)
    if name == "bouckaert2003/null_calibration":
        d, df_values = d[:, 0], params["df_values"]
    else:  # calibration_set1: all repeats as runs of one data set
        d, df_values = d.reshape(d.shape[0], -1, d.shape[-1]), range(params["df"][0], params["df"][1] + 1)
    return rejection_counts(d, tests=params["tests"], n_runs=params["n_runs"], df_values=df_values,
                            alphas=params["alphas"])


def label(name, params):
    if name != "synthetic/fold_counts":
        return name
    c = params["config"]
    return (f"{c['learner_a']}-{c['learner_b']} {c['source']} {json.dumps(c['source_params'])} "
            f"{c['scheme']} {json.dumps(c['scheme_params'])} {c['n_datasets']}x{c['n_repeats']}")


if __name__ == "__main__":
    store = rp.ResultStore(rp.engine.paper_results_dir())
    listing = store.list_results()
    listing = listing[listing["name"].str.split("/").str[0].isin(FAMILIES)]
    # Fold counts first: the calibrations are computed from them.
    listing = listing.sort_values("name", key=lambda s: s != "synthetic/fold_counts", kind="stable")
    if QUICK:  # a check that it runs: the first result only
        listing = listing.iloc[:1]
    load_before = load_average()
    run_experiment(ExperimentConfig(source="independent_binary", learners=["naive_bayes", "c45"],
                                    scheme="rxk_cv", scheme_params={"n_runs": 2, "n_folds": 10},
                                    n_datasets=4, n_instances=300, n_repeats=1, seed=0),
                   backend="processes", n_jobs=N_JOBS, progress=False)  # start the workers, load the kernels
    recomputed, rows = {}, []
    cpu_start, wall_start = cpu_with_children(), time.perf_counter()
    for row in listing.itertuples():
        with xr.open_dataset(store.path / row.file) as ds:
            committed = ds.load()
        params = json.loads(committed.attrs["params"])["params"]
        cpu, wall = cpu_with_children(), time.perf_counter()
        if row.name == "synthetic/fold_counts":
            result = fold_counts(committed)
            recomputed[committed.attrs["params"]] = result
        else:
            result = calibration(row.name, params, recomputed)
        cpu, wall = cpu_with_children() - cpu, time.perf_counter() - wall
        fold_pairs = int(result["correct_a"].size) if "correct_a" in result else 0
        rows.append({"name": row.name, "label": label(row.name, params), "fold_pairs": fold_pairs,
                     "wall_s": wall, "cpu_s": cpu, "identical": identical(committed, result)})
        print(f"{wall:7.1f} s  {'identical' if rows[-1]['identical'] else 'DIFFERENT'}  {rows[-1]['label']}",
              flush=True)
    cpu, wall = cpu_with_children() - cpu_start, time.perf_counter() - wall_start
    n_identical = sum(r["identical"] for r in rows)
    print(f"{len(rows)} results ({n_identical} identical to the committed ones), "
          f"{sum(r['fold_pairs'] for r in rows):,} fold pairs: {wall / 60:.1f} min wall, {cpu / 60:.1f} min CPU")
    path = write_results("workload", {
        "workload": "every committed result of the families synthetic and bouckaert2003, recomputed",
        "n_jobs": N_JOBS,
        "n_results": len(rows),
        "n_identical": n_identical,
        "fold_pairs": sum(r["fold_pairs"] for r in rows),
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "results": rows,
        "load_average_before": load_before, "load_average_after": load_average(),
    })
    print(f"wrote {path}")
