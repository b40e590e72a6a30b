"""Benchmark: naive Bayes vs C4.5 under 10 x 10 cv on 300-instance synthetic data.

The workload of Bouckaert (2003, 2004) and Bouckaert & Frank (2004): data sets of
300 instances with 10 independent binary attributes, both learners evaluated on
every fold of 10 randomizations of 10 x 10 cv (1000 folds per data set). Three
ways to get the per-fold counts are timed:

* the engine: :func:`replicability.engine.evaluate_nb_c45`, all 1000 folds of a
  data set at once from (pattern, class) counts;
* (a) the straightforward loop through our own estimators (``NaiveBayes``,
  ``C45``), fold by fold: the reference the engine must equal;
* (b) the loop most users would write with scikit-learn: ``CategoricalNB`` and
  ``DecisionTreeClassifier(criterion="entropy")`` over ``RepeatedStratifiedKFold``.

The loops are timed on a subset of folds and reported per fold. The full
synthetic workload is extrapolated from the engine's time per data set.
Run ``python benchmarks/bench_engine.py``.
"""

import os
import time

import numpy as np
from _common import best_time, write_results
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.naive_bayes import CategoricalNB
from sklearn.tree import DecisionTreeClassifier

from replicability.engine import evaluate_nb_c45, evaluate_pair_loop
from replicability.learners import C45, NaiveBayes
from replicability.splits import rxk_cv_splits
from replicability.synthetic import sample_independent_binary

N_INSTANCES, N_ATTRIBUTES = 300, 10
N_REPEATS, N_RUNS, N_FOLDS = 10, 10, 10
N_DATASETS = 1000  # per configuration (Bouckaert 2003, 2004)
#: Configurations of the synthetic studies, for the workload estimate: Bouckaert
#: (2003) and (2004) sweep class probabilities and schemes, Bouckaert & Frank
#: (2004) four sources; we budget 20 configurations of 1000 data sets each.
N_CONFIGS = 20
LOOP_FOLDS = 50  # folds timed for the loops


def _splits(y, seed):
    out = []
    for r in range(N_REPEATS):
        flat, _ = rxk_cv_splits(y, n_runs=N_RUNS, n_folds=N_FOLDS, random_state=seed * 100 + r)
        out.extend(flat)
    return out


def sklearn_loop(X, y, splits):
    """What most users would write: fit and score both learners fold by fold."""
    out = np.empty((len(splits), 3), dtype=np.int64)
    for i, (train, test) in enumerate(splits):
        a = CategoricalNB(min_categories=2).fit(X[train], y[train]).predict(X[test]) == y[test]
        b = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X[train], y[train]).predict(
            X[test]) == y[test]
        out[i] = a.sum(), b.sum(), (a & b).sum()
    return out


def main():
    X, y = sample_independent_binary(N_INSTANCES, n_attributes=N_ATTRIBUTES, rng=2003)
    splits = _splits(y, 1)
    n = len(splits)
    engine_s = best_time(lambda: evaluate_nb_c45(X, y, splits), repeat=3)
    cpu0 = time.process_time()
    evaluate_nb_c45(X, y, splits)
    engine_cpu = time.process_time() - cpu0

    sub = splits[:LOOP_FOLDS]
    own_s = best_time(lambda: evaluate_pair_loop(X, y, sub, learner_a=NaiveBayes, learner_b=C45), repeat=1)
    # (b) exactly as a user would: RepeatedStratifiedKFold over the data set.
    rskf = RepeatedStratifiedKFold(n_splits=N_FOLDS, n_repeats=N_RUNS, random_state=0)
    sk_splits = list(rskf.split(X, y))[:LOOP_FOLDS]
    sk_s = best_time(lambda: sklearn_loop(X, y, sk_splits), repeat=1)

    per_fold = {"engine": engine_s / n, "own_estimators_loop": own_s / LOOP_FOLDS,
                "sklearn_loop": sk_s / LOOP_FOLDS}
    speedup = {"vs_own_estimators_loop": per_fold["own_estimators_loop"] / per_fold["engine"],
               "vs_sklearn_loop": per_fold["sklearn_loop"] / per_fold["engine"]}
    per_config = engine_s * N_DATASETS
    workload = {"configurations": N_CONFIGS, "datasets_per_configuration": N_DATASETS,
                "folds_per_dataset": n, "serial_hours": per_config * N_CONFIGS / 3600,
                "two_workers_hours": per_config * N_CONFIGS / 2 / 3600}
    print(f"folds per data set: {n} ({N_REPEATS} repeats x {N_RUNS} x {N_FOLDS} cv)")
    print(f"engine, one data set (all folds): {engine_s:8.3f} s wall, {engine_cpu:8.3f} s cpu")
    for name, t in per_fold.items():
        print(f"{name:24s} {t * 1e3:9.3f} ms per fold (NB + C4.5, fit and score)")
    for name, s in speedup.items():
        print(f"speed-up {name:24s} {s:9.1f} x")
    print(f"one configuration ({N_DATASETS} data sets): {per_config / 60:.1f} min serial")
    print(f"full synthetic workload ({N_CONFIGS} configurations): {workload['serial_hours']:.2f} h serial, "
          f"{workload['two_workers_hours']:.2f} h on 2 workers")
    path = write_results("engine", {
        "n_instances": N_INSTANCES, "n_attributes": N_ATTRIBUTES, "folds_per_dataset": n,
        "loop_folds_timed": LOOP_FOLDS, "engine_seconds_per_dataset": engine_s,
        "engine_cpu_seconds_per_dataset": engine_cpu, "seconds_per_fold": per_fold,
        "speedup": speedup, "workload_estimate": workload,
        # Other jobs on the machine inflate the wall times of all three alike.
        "load_average_1min": os.getloadavg()[0],
    })
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
