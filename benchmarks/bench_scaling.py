"""Benchmark: the engine's cost per fold pair as the data grow, in instances and in attributes.

Naive Bayes vs C4.5 through :func:`replicability.learners.pairs.evaluate_nb_c45` on
null data (independent binary attributes, the largest trees), 10-fold cv:

* in the number of instances ``n``, from 50 to 20,000 at 10 attributes, with
  the training-set sizes around 2048 (n = 2275: folds of 2047 and 2048
  training instances) where the J48 kernel once switched memo tables;
* in the number of attributes ``p``, from 2 to 256 at 300 instances, with
  62, 63 and 64 on either side of the one-word packing of a row.

Per point: CPU time per fold pair (``time.process_time``), median of
``ROUNDS`` calls after a warm-up, the points timed in turn round by round so
that drifts of the machine's speed spread over all of them. A cliff is a
point more than 1.3 times above the log-log line through its two neighbours
(``excess``); the results are also checked against the estimators fitted fold
by fold on a few folds of every point. Run ``python benchmarks/bench_scaling.py``
(``--quick``: four points of each grid, two rounds, written to a temporary folder).
"""

import time

import numpy as np
from _common import QUICK, load_average, write_results

from replicability.engine.splits import rxk_cv_splits
from replicability.learners import C45, NaiveBayes
from replicability.learners.pairs import evaluate_nb_c45, evaluate_pair_loop
from replicability.sources.synthetic import sample_independent_binary

N_GRID = [50, 100, 200, 400, 800, 1600, 2200, 2275, 2400, 3200, 5000, 10000, 20000]
P_GRID = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 48, 62, 63, 64, 96, 128, 192, 256]
ROUNDS = 2 if QUICK else 5
if QUICK:  # a check that it runs
    N_GRID, P_GRID = N_GRID[:4], P_GRID[:4]
CHECKED_FOLDS = 2  # folds per point compared with the estimators
CLIFF = 1.3


def _point(n, p, seed):
    X, y = sample_independent_binary(n, n_attributes=p, rng=seed)
    splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=10, random_state=seed)
    # Small data sets: more runs, so that every call takes a measurable time.
    runs = max(1, 2000 // n)
    if runs > 1:
        splits, _ = rxk_cv_splits(y, n_runs=runs, n_folds=10, random_state=seed)
    return X, y, splits


def _excess(x, t):
    """Each interior point's time over the log-log interpolation of its two neighbours."""
    lx, lt = np.log(x), np.log(t)
    out = [None]
    for i in range(1, len(x) - 1):
        w = (lx[i] - lx[i - 1]) / (lx[i + 1] - lx[i - 1])
        out.append(float(np.exp(lt[i] - ((1 - w) * lt[i - 1] + w * lt[i + 1]))))
    return out + [None]


def sweep(points):
    """CPU seconds per fold pair of every point (median over rounds) and the equality check."""
    data = [_point(n, p, seed) for seed, (n, p) in enumerate(points)]
    identical = []
    for X, y, splits in data:
        sub = splits[:CHECKED_FOLDS]
        identical.append(bool(np.array_equal(
            evaluate_nb_c45(X, y, sub), evaluate_pair_loop(X, y, sub, learner_a=NaiveBayes, learner_b=C45))))
    times = np.empty((ROUNDS, len(points)))
    for r in range(ROUNDS):
        for i, (X, y, splits) in enumerate(data):
            cpu = time.process_time()
            evaluate_nb_c45(X, y, splits)
            times[r, i] = (time.process_time() - cpu) / len(splits)
    return np.median(times, axis=0), times.min(axis=0), times.max(axis=0), identical


def report(name, grid, points):
    med, lo, hi, identical = sweep(points)
    excess = _excess(np.array(grid, float), med)
    rows = [{name: g, "cpu_s_per_fold_pair": float(m), "min": float(a), "max": float(b), "excess": e,
             "identical": ok} for g, m, a, b, e, ok in zip(grid, med, lo, hi, excess, identical)]
    for row in rows:
        e = row["excess"]
        print(f"{name} = {row[name]:6d}: {row['cpu_s_per_fold_pair'] * 1e6:9.1f} us cpu per fold pair"
              f"  excess {'   -' if e is None else f'{e:4.2f}'}  {'identical' if row['identical'] else 'DIFFERENT'}")
    worst = max(e for e in excess if e is not None)
    print(f"largest excess over the neighbours' line: {worst:.2f} (cliff above {CLIFF})")
    return {"points": rows, "largest_excess": worst, "cliff": worst > CLIFF}


def main():
    load_before = load_average()
    # Compile (or load) the kernels before timing.
    X, y, splits = _point(100, 4, 0)
    evaluate_nb_c45(X, y, splits)
    by_n = report("n_instances", N_GRID, [(n, 10) for n in N_GRID])
    by_p = report("n_attributes", P_GRID, [(300, p) for p in P_GRID])
    path = write_results("scaling", {
        "learners": "naive_bayes-c45", "data": "independent binary attributes (null)", "cv": "10-fold",
        "rounds": ROUNDS, "cliff_threshold": CLIFF,
        "by_n_instances": {"n_attributes": 10, **by_n},
        "by_n_attributes": {"n_instances": 300, **by_p},
        "load_average_before": load_before, "load_average_after": load_average(),
    })
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
