"""Benchmark: a Task I configuration costs about the same for n = 1,000 and n = 200,000.

Run ``python benchmarks/bench_counts.py`` (``--quick``: one timing of each, written to a
temporary folder). Two workloads, each timed at both sizes
(process CPU time, sizes interleaved so that machine load hits both alike, minimum
over the repeats):

* the configuration: :func:`replicability.papers.bouckaert2005.task1.simulate_task1` with the twelve
  designs of Bouckaert (2005) (McNemar, resampling, plain and sorted cv) for one
  accuracy gap, 1000 data sets x 10 repetitions: drawing the data sets' cell
  counts, every test fold's counts, the tests and the outcome histograms. The
  papers' figures repeat this unit for every gap. Design target: time ratio of
  n = 200,000 to n = 1,000 at most 1.2;
* the count sampling alone: cell counts of 1000 data sets x 10 repeats of
  10 x 10-fold cv and a 90%/10% split (:mod:`replicability.sources.counts`), the part
  whose cost could depend on n. Exact sampling never touches the instances;
  numpy's hypergeometric sampler computes log-factorials above 125 and looks
  them up below, so it costs more for large populations; the package's compiled
  copy of it (:mod:`replicability.sources._hypergeometric`, the same draws) looks all of
  them up.
"""

import time

import numpy as np
from _common import QUICK, load_average, write_results

from replicability.papers.bouckaert2005.task1 import TASK1_DESIGNS, simulate_task1
from replicability.sources.counts import (
    cv_fold_counts,
    holdout_fold_counts,
    sample_task1_counts,
    task1_fold_statistics,
)

SIZES = (1_000, 200_000)


def configuration(n, seed):
    """One gap of every Task I design, at the paper's scale."""
    simulate_task1(list(TASK1_DESIGNS), n, [0.1], n_datasets=1000, n_repeats=10, seed=seed)


def count_sampling(n, seed, *, n_datasets=1000, n_repeats=10, q=0.3):
    rng = np.random.default_rng(seed)
    counts = sample_task1_counts(n, q, n_datasets=n_datasets, rng=rng)
    urns = np.broadcast_to(counts[:, None, :], (n_datasets, n_repeats, 4))
    task1_fold_statistics(cv_fold_counts(urns, n_folds=10, n_runs=10, rng=rng))
    task1_fold_statistics(holdout_fold_counts(urns, n_test=n // 10, n_runs=1, rng=rng))


def best_cpu(func, repeat):
    """Minimum process CPU time of ``func(n, seed)`` per size, sizes interleaved."""
    for n in SIZES:
        func(n, 0)  # warm-up
    times = {n: [] for n in SIZES}
    for i in range(repeat):
        for n in SIZES:
            start = time.process_time()
            func(n, i + 1)
            times[n].append(time.process_time() - start)
    return {f"n={n:,}": min(t) for n, t in times.items()}


if __name__ == "__main__":
    load_before = load_average()
    results = {}
    for name, func, repeat in (("configuration", configuration, 1 if QUICK else 3),
                                ("count_sampling", count_sampling, 1 if QUICK else 7)):
        seconds = best_cpu(func, repeat)
        small, large = seconds[f"n={SIZES[0]:,}"], seconds[f"n={SIZES[1]:,}"]
        results[name] = {"cpu_seconds": seconds, "ratio": large / small}
        print(f"{name:15s} n = 1,000: {small:.3f} s cpu  n = 200,000: {large:.3f} s cpu  ratio {large / small:.2f}")
    path = write_results("counts", {
        "configuration": "Task I, the 12 designs of Bouckaert (2005), one gap, 1000 data sets x 10 repetitions",
        "count_sampling": "Task I cell counts, 1000 data sets x 10 repeats: 10 x 10-fold cv and a 90/10 split",
        **results,
        "load_average_before": load_before, "load_average_after": load_average(),
    })
    print(f"wrote {path}")
