"""Benchmark: exact count sampling costs the same for n = 1,000 and n = 200,000.

Run ``python benchmarks/bench_counts.py``. Times a Task I experiment at the
scale of Bouckaert (2005) per accuracy gap: 1000 data sets x 10 randomizations
of 10 x 10-fold cross validation and of a 90%/10% train/test split, and prints
the time ratio of n = 200,000 to n = 1,000 (the design target is <= 1.2).
"""

import time

import numpy as np
from _common import write_results

from replicability.counts import (
    cv_fold_counts,
    holdout_fold_counts,
    sample_task1_counts,
    task1_fold_statistics,
)


def run(n, *, n_datasets=1000, n_repeats=10, n_runs=10, n_folds=10, q=0.26, seed=0):
    rng = np.random.default_rng(seed)
    counts = sample_task1_counts(n, q, n_datasets=n_datasets, rng=rng)
    urns = np.broadcast_to(counts[:, None, :], (n_datasets, n_repeats, 4))
    cv = task1_fold_statistics(cv_fold_counts(urns, n_folds=n_folds, n_runs=n_runs, rng=rng))
    hold = task1_fold_statistics(holdout_fold_counts(urns, n_test=n // 10, n_runs=1, rng=rng))
    return cv, hold


def best_times(sizes, repeat=7):
    """Minimum wall time per size, interleaving sizes so machine load hits both alike."""
    times = {n: [] for n in sizes}
    for i in range(repeat):
        for n in sizes:
            start = time.perf_counter()
            run(n, seed=i)
            times[n].append(time.perf_counter() - start)
    return {n: min(t) for n, t in times.items()}


if __name__ == "__main__":
    run(1000)  # warm up
    best = best_times([1_000, 200_000])
    small, large = best[1_000], best[200_000]
    print(f"n =   1,000: {small:.3f} s")
    print(f"n = 200,000: {large:.3f} s")
    print(f"ratio: {large / small:.2f}")
    path = write_results("counts", {
        "workload": "Task I, 1000 data sets x 10 repeats: 10 x 10-fold cv and a 90/10 split",
        "seconds": {"n=1,000": small, "n=200,000": large},
        "ratio": large / small,
    })
    print(f"wrote {path}")
