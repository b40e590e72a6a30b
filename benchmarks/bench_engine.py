"""Benchmark: naive Bayes vs C4.5 under 10 x 10 cv on 300-instance synthetic data.

The workload of Bouckaert (2003, 2004) and Bouckaert & Frank (2004): data sets of
300 instances with 10 binary attributes, both learners evaluated on every fold
of 10 randomizations of 10 x 10 cv (1000 folds per data set). Timed per fold
pair (both learners, fit and score the test fold), CPU (``time.process_time``)
beside wall time, because other jobs share the machine:

* the engine: :func:`replicability.learners.pairs.evaluate_nb_c45`, the numba kernels
  of :mod:`replicability.learners._kernels` over all 1000 folds of a data set,
  on the null data (independent attributes: the largest trees) and on
  Bayesian-network source 4 of Bouckaert (2003);
* (a) the straightforward loop through our own estimators (``NaiveBayes``,
  ``C45``), fold by fold: the reference the engine must equal;
* (b) the loop most users would write with scikit-learn: ``CategoricalNB`` and
  ``DecisionTreeClassifier(criterion="entropy")`` over ``RepeatedStratifiedKFold``,
  on both kinds of data;
* the engine's speed-up over (b), also from alternating CPU timings of the two
  (``paired_speedup``): the machine's speed drifts over minutes, which moves
  a ratio of best-of timings taken minutes apart, not one of timings taken in turn;
* every other pair of the five learners (naive Bayes, C4.5, IB1, TAN, voted
  perceptron) through :func:`replicability.learners.pairs.evaluate_pair_fast` on the
  same source-4 data set (CPU and wall per fold pair);
* the first-call compile time of the kernels (fresh process, empty numba cache)
  and the time to load them from the cache (fresh process, warm cache);
* a measured run of :func:`replicability.engine.runner.run_experiment` (200 data
  sets x 10 repeats x 10 x 10 cv on source 4, ``backend="processes"``, with
  one and with two workers: data generation, splitting and evaluation; wall
  time and the CPU time of the parent and the worker processes), the
  two-worker run extrapolated to the synthetic workload of about 30 million
  fold pairs.

The loops are timed on a subset of folds. What is timed is also checked: the
engine's counts on the loops' folds equal those of the estimators fitted fold
by fold (``identical``), for the naive Bayes-C4.5 engine on both data sets and
for every pair of the fast paths. Run ``python benchmarks/bench_engine.py``
(``--quick``: a check that it runs, few folds and rounds, no compilation timings,
written to a temporary folder).
"""

import itertools
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from _common import (
    QUICK,
    best_times,
    cpu_snapshot,
    cpu_with_children,
    load_1min,
    load_average,
    other_load,
    write_results,
)
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.naive_bayes import CategoricalNB
from sklearn.tree import DecisionTreeClassifier

from replicability.engine.runner import ExperimentConfig, pair_counts, run_experiment
from replicability.engine.splits import _FlatRuns, _stratified_splits, rxk_cv_splits
from replicability.learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron, _kernels
from replicability.learners.fastpath import _c45_args
from replicability.learners.pairs import (
    FAST_LEARNERS,
    _binary_data,
    _check_splits,
    evaluate_nb_c45,
    evaluate_pair_fast,
    evaluate_pair_loop,
)
from replicability.sources.bayesnet import bouckaert2003_source
from replicability.sources.synthetic import sample_independent_binary

N_INSTANCES, N_ATTRIBUTES = 300, 10
N_REPEATS, N_RUNS, N_FOLDS = 10, 10, 10
#: Fold pairs of the full synthetic workload (Bouckaert 2003, 2004; Bouckaert &
#: Frank 2004): about 30 configurations of 1000 data sets of 1000 folds.
WORKLOAD_FOLD_PAIRS = 30_000_000
LOOP_FOLDS = 50  # folds timed for the loops
LOOP_REPEATS = 5  # best of, after a warm-up: a single timing of the loops varies by 20%
PAIRED_ROUNDS = 15  # alternating timings of the engine and the scikit-learn loop (at least 11, issue 36)
RUN_DATASETS = 200  # data sets of the measured run_experiment (seconds: long enough to compare 1 and 2 workers)
if QUICK:  # a check that it runs: few folds and rounds, no compilation in fresh processes
    N_REPEATS, LOOP_FOLDS, LOOP_REPEATS, PAIRED_ROUNDS, RUN_DATASETS = 1, 5, 1, 3, 4
ESTIMATORS = {"naive_bayes": NaiveBayes, "c45": C45, "ib1": IB1, "tan": TAN, "voted_perceptron": VotedPerceptron}

_COMPILE_SNIPPET = """
import time
c0, w0 = time.process_time(), time.perf_counter()
import numpy as np
from replicability.learners.pairs import evaluate_nb_c45
from replicability.engine.splits import rxk_cv_splits
from replicability.sources.synthetic import sample_independent_binary
c1, w1 = time.process_time(), time.perf_counter()
X, y = sample_independent_binary(300, rng=0)
splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=10, random_state=0)
evaluate_nb_c45(X, y, splits)
print(time.process_time() - c1, time.perf_counter() - w1, c1 - c0, w1 - w0)
"""


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


def compile_times():
    """First call in a fresh process: with an empty numba cache, then with the cache filled."""
    out = {}
    if QUICK:
        return out
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for name in ("cold_cache", "warm_cache"):
            res = subprocess.run([sys.executable, "-c", _COMPILE_SNIPPET], env=env, capture_output=True,
                                 text=True, check=True)
            cpu, wall, import_cpu, import_wall = map(float, res.stdout.split())
            out[name] = {"first_call_cpu_s": cpu, "first_call_wall_s": wall,
                         "import_cpu_s": import_cpu, "import_wall_s": import_wall}
    return out


def paired_speedup(engine, n_engine, loop, n_loop, rounds=PAIRED_ROUNDS):
    """CPU time per fold pair of ``loop()`` over that of ``engine()``, timed in turn.

    After one warm-up call of each, ``rounds`` times: time the engine, then the
    loop, and take the ratio of the two. Returns the median, smallest and largest ratio,
    the larger 1-minute load average of before and after the rounds, and the cores
    other processes kept busy meanwhile (``other_load``).
    """
    before, since = load_1min(), cpu_snapshot()
    engine()
    loop()
    ratios = []
    for _ in range(rounds):
        cpu = time.process_time()
        engine()
        cpu_engine = (time.process_time() - cpu) / n_engine
        cpu = time.process_time()
        loop()
        ratios.append((time.process_time() - cpu) / n_loop / cpu_engine)
    after = load_1min()
    return {"median": float(np.median(ratios)), "min": min(ratios), "max": max(ratios), "rounds": rounds,
            "load_1min": None if before is None else max(before, after), "other_load": round(other_load(since), 2)}


def _same(a, b):
    return bool(np.array_equal(a, b))


def per_fold(func, n_folds, repeat):
    t = best_times(func, repeat=repeat)
    return {"wall": t["wall"] / n_folds, "cpu": t["cpu"] / n_folds}


def measured_run(n_jobs):
    """run_experiment on source 4 with ``n_jobs`` worker processes (after a warm-up run)."""
    cfg = ExperimentConfig(source="bayesnet", source_params={"source": 4}, learners=["naive_bayes", "c45"],
                           scheme="rxk_cv",
                           scheme_params={"n_runs": N_RUNS, "n_folds": N_FOLDS},
                           n_datasets=RUN_DATASETS, n_instances=N_INSTANCES, n_repeats=N_REPEATS, seed=2003)
    # Warm-up: starts the loky workers and loads the compiled kernels in them.
    warm = time.perf_counter()
    run_experiment(cfg, backend="processes", n_jobs=n_jobs, progress=False, datasets=[0, 1])
    warm = time.perf_counter() - warm
    # CPU time of this process and of the worker processes, ended ones included (cpu_with_children).
    cpu, wall = cpu_with_children(), time.perf_counter()
    res = pair_counts(run_experiment(cfg, backend="processes", n_jobs=n_jobs, progress=False))
    cpu, wall = cpu_with_children() - cpu, time.perf_counter() - wall
    n_pairs = int(res["correct_a"].size)
    return {"n_datasets": RUN_DATASETS, "n_repeats": N_REPEATS, "cv": f"{N_RUNS}x{N_FOLDS}",
            "source": "bayesnet 4", "backend": "processes", "n_jobs": n_jobs, "fold_pairs": n_pairs,
            "warmup_wall_s": warm, "wall_s": wall, "wall_per_fold_pair_s": wall / n_pairs,
            "cpu_s_parent_and_workers": cpu, "cpu_per_fold_pair_s": cpu / n_pairs,
            "mean_accuracy": {"naive_bayes": float(res["correct_a"].sum() / res["n_test"].sum()),
                              "c45": float(res["correct_b"].sum() / res["n_test"].sum())}}


def python_side(X, y, seed, rounds=PAIRED_ROUNDS):
    """Share of an ``evaluate_nb_c45`` call spent outside the compiled kernel, in CPU time.

    The splits of :func:`_splits` (seed ``seed``) in two forms: as a list of
    ``(train, test)`` arrays (as a user passes them; the kernel
    ``_kernels.evaluate_folds`` reads training and test indices) and in the
    engine's form (as ``run_experiment`` passes them: fold labels, read by
    ``_kernels.evaluate_runs``). Four calls timed in turn, ``rounds`` times:
    ``evaluate_nb_c45`` with either form, and either kernel alone on the
    prepared arguments. The four results are checked equal. Returns the median
    CPU seconds of each and the shares ``1 - kernel / call``.
    """
    splits = _splits(y, seed)
    runs = _FlatRuns.join([_stratified_splits(y, N_FOLDS, n_runs=N_RUNS, random_state=seed * 100 + r)
                           for r in range(N_REPEATS)])
    indices = _binary_data(X, y, _check_splits(splits, len(y)))
    labels = _binary_data(X, y, _check_splits(runs, len(y)))
    c45 = (*_c45_args(0.25, 2, runs.n_train.max()), True)
    by_indices = (*indices.patterns(indices.folds(np.ones(len(splits), dtype=bool))), *c45)
    by_labels = (*labels.patterns(None), *runs.labels, *c45)
    calls = {"list": lambda: evaluate_nb_c45(X, y, splits), "engine": lambda: evaluate_nb_c45(X, y, runs),
             "kernel_indices": lambda: _kernels.evaluate_folds(*by_indices)[:, :3],
             "kernel_labels": lambda: _kernels.evaluate_runs(*by_labels)[:, :3]}
    results = [call() for call in calls.values()]
    same = all(_same(results[0], other) for other in results[1:])
    times = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            cpu = time.process_time()
            call()
            times[name].append(time.process_time() - cpu)
    med = {name: float(np.median(t)) for name, t in times.items()}
    return {"cpu_s": med, "identical": bool(same),
            "python_share_list": 1 - med["kernel_indices"] / med["list"],
            "python_share_engine_splits": 1 - med["kernel_labels"] / med["engine"]}


def serial_run_share(n_datasets=RUN_DATASETS, rounds=5):
    """Share of a serial ``run_experiment`` (source 4) spent in Python, outside every compiled call, in CPU time.

    The profiler: every numba kernel the package's modules hold (each module
    attribute that is a numba dispatcher, wherever it was imported) is wrapped
    to sum its CPU time (``time.process_time``) per kernel; kernels called from
    compiled code are inside their caller's time. After a warm-up run,
    ``rounds`` runs; the median share and its range, the CPU time of each
    kernel, and the share outside the learners' kernel alone
    (``_kernels.evaluate_runs``/``evaluate_folds``, as issue 36 measured it).
    The share grows with the load of other processes (they evict the caches the
    Python between two kernel calls runs in), so the larger 1-minute load average
    of before and after the rounds and the cores the others kept busy
    meanwhile (``other_load``) are recorded beside it.
    """
    from numba.core.dispatcher import Dispatcher

    cfg = ExperimentConfig(source="bayesnet", source_params={"source": 4}, learners=["naive_bayes", "c45"],
                           scheme="rxk_cv", scheme_params={"n_runs": N_RUNS, "n_folds": N_FOLDS},
                           n_datasets=n_datasets, n_instances=N_INSTANCES, n_repeats=N_REPEATS, seed=2003)
    run_experiment(cfg, backend="serial", progress=False)  # loads every kernel the run calls
    spent = {}

    def timed(kernel):
        def call(*args, **kwargs):
            cpu = time.process_time()
            out = kernel(*args, **kwargs)
            spent[kernel.__name__] = spent.get(kernel.__name__, 0.0) + time.process_time() - cpu
            return out
        return call

    wrapped = [(module, name, value) for module_name, module in list(sys.modules.items())
               if module_name.startswith("replicability") for name, value in list(vars(module).items())
               if isinstance(value, Dispatcher)]
    for module, name, kernel in wrapped:
        setattr(module, name, timed(kernel))
    before, since = load_1min(), cpu_snapshot()
    try:
        cpu, compiled, learner = [], [], []
        for _ in range(rounds):
            spent.clear()
            start = time.process_time()
            res = run_experiment(cfg, backend="serial", progress=False)
            cpu.append(time.process_time() - start)
            compiled.append(sum(spent.values()))
            learner.append(spent.get("evaluate_runs", 0.0) + spent.get("evaluate_folds", 0.0))
    finally:
        for module, name, kernel in wrapped:
            setattr(module, name, kernel)
    after = load_1min()
    shares = [1 - k / c for k, c in zip(compiled, cpu, strict=True)]
    learner_shares = [1 - k / c for k, c in zip(learner, cpu, strict=True)]
    n_pairs = int(res["n_test"].size)
    return {"n_datasets": n_datasets, "fold_pairs": n_pairs, "rounds": rounds, "cpu_s": float(np.median(cpu)),
            "compiled_cpu_s": float(np.median(compiled)), "cpu_per_fold_pair_s": float(np.median(cpu)) / n_pairs,
            "kernel_cpu_s_last_round": dict(spent),
            "python_share": float(np.median(shares)), "python_share_min": min(shares),
            "python_share_max": max(shares),
            "outside_learner_kernel_share": float(np.median(learner_shares)),
            "load_1min": None if before is None else max(before, after), "other_load": round(other_load(since), 2)}


def main():
    load_before = load_average()
    compiled = compile_times()
    X, y = sample_independent_binary(N_INSTANCES, n_attributes=N_ATTRIBUTES, rng=2003)
    splits = _splits(y, 1)
    n = len(splits)
    X4, y4 = bouckaert2003_source(np.random.default_rng(2003), n_instances=N_INSTANCES, source=4)
    splits4 = _splits(y4, 2)
    engine = per_fold(lambda: evaluate_nb_c45(X, y, splits), n, repeat=5)
    engine4 = per_fold(lambda: evaluate_nb_c45(X4, y4, splits4), n, repeat=5)

    pairs = {}
    for a, b in itertools.combinations(FAST_LEARNERS, 2):
        evaluate_pair_fast(X4, y4, splits4[:3], learner_a=a, learner_b=b)  # load the compiled kernels
        pairs[f"{a}-{b}"] = per_fold(lambda a=a, b=b: evaluate_pair_fast(X4, y4, splits4, learner_a=a, learner_b=b),
                                     n, repeat=3)

    sub = splits[:LOOP_FOLDS]
    own = per_fold(lambda: evaluate_pair_loop(X, y, sub, learner_a=NaiveBayes, learner_b=C45), LOOP_FOLDS,
                   repeat=LOOP_REPEATS)
    # (b) exactly as a user would: RepeatedStratifiedKFold over the data set.
    rskf = RepeatedStratifiedKFold(n_splits=N_FOLDS, n_repeats=N_RUNS, random_state=0)
    sk_splits = list(rskf.split(X, y))[:LOOP_FOLDS]
    sk = per_fold(lambda: sklearn_loop(X, y, sk_splits), LOOP_FOLDS, repeat=LOOP_REPEATS)
    sk4_splits = list(rskf.split(X4, y4))[:LOOP_FOLDS]
    sk4 = per_fold(lambda: sklearn_loop(X4, y4, sk4_splits), LOOP_FOLDS, repeat=LOOP_REPEATS)
    identical = {
        "engine_null_data": _same(evaluate_nb_c45(X, y, sub), evaluate_pair_loop(X, y, sub, learner_a=NaiveBayes,
                                                                                  learner_b=C45)),
        "engine_bayesnet_source_4": _same(evaluate_nb_c45(X4, y4, splits4[:LOOP_FOLDS]),
                                          evaluate_pair_loop(X4, y4, splits4[:LOOP_FOLDS], learner_a=NaiveBayes,
                                                             learner_b=C45)),
        **{f"pair_{a}-{b}": _same(evaluate_pair_fast(X4, y4, splits4[:3], learner_a=a, learner_b=b),
                                  evaluate_pair_loop(X4, y4, splits4[:3], learner_a=ESTIMATORS[a],
                                                     learner_b=ESTIMATORS[b]))
           for a, b in itertools.combinations(FAST_LEARNERS, 2)},
    }

    speedup = {f"vs_{name}_{kind}": loop[kind] / engine[kind]
               for name, loop in (("own_estimators_loop", own), ("sklearn_loop", sk)) for kind in ("cpu", "wall")}
    speedup_source4 = {f"vs_sklearn_loop_{kind}": sk4[kind] / engine4[kind] for kind in ("cpu", "wall")}
    paired = {"null_data": paired_speedup(lambda: evaluate_nb_c45(X, y, splits), n,
                                          lambda: sklearn_loop(X, y, sk_splits), LOOP_FOLDS),
              "bayesnet_source_4": paired_speedup(lambda: evaluate_nb_c45(X4, y4, splits4), n,
                                                  lambda: sklearn_loop(X4, y4, sk4_splits), LOOP_FOLDS)}
    python = {"null_data": python_side(X, y, 1), "bayesnet_source_4": python_side(X4, y4, 2),
              "serial_run_bayesnet_source_4": serial_run_share()}
    runs = {n_jobs: measured_run(n_jobs) for n_jobs in (1, 2)}
    run = runs[2]
    workload = {"fold_pairs": WORKLOAD_FOLD_PAIRS,
                "hours_on_2_workers_from_measured_run_wall": run["wall_per_fold_pair_s"] * WORKLOAD_FOLD_PAIRS
                / 3600,
                "hours_on_2_workers_from_measured_run_cpu": run["cpu_per_fold_pair_s"] * WORKLOAD_FOLD_PAIRS
                / 2 / 3600,
                "hours_on_2_workers_from_engine_cpu": engine4["cpu"] * WORKLOAD_FOLD_PAIRS / 2 / 3600}

    print(f"folds per data set: {n} ({N_REPEATS} repeats x {N_RUNS} x {N_FOLDS} cv)")
    for name, d in compiled.items():
        print(f"first call, {name:10s}: {d['first_call_cpu_s']:7.2f} s cpu, {d['first_call_wall_s']:7.2f} s wall")
    for name, t in (("engine (null data)", engine), ("engine (source 4)", engine4),
                    ("own estimators loop", own), ("sklearn loop", sk), ("sklearn loop (source 4)", sk4)):
        print(f"{name:22s} {t['cpu'] * 1e6:10.1f} us cpu {t['wall'] * 1e6:10.1f} us wall per fold pair")
    for name, t in pairs.items():
        print(f"pair {name:32s} {t['cpu'] * 1e6:10.1f} us cpu {t['wall'] * 1e6:10.1f} us wall per fold pair")
    for name, s in speedup.items():
        print(f"speed-up {name:32s} {s:9.1f} x")
    for name, s in speedup_source4.items():
        print(f"speed-up (source 4) {name:21s} {s:9.1f} x")
    for name, s in paired.items():
        print(f"speed-up vs sklearn loop, cpu, timed in turn ({name}): median {s['median']:.1f} x "
              f"(range {s['min']:.1f}-{s['max']:.1f} x over {s['rounds']} rounds)")
    for n_jobs, r in runs.items():
        print(f"run_experiment: {r['fold_pairs']} fold pairs in {r['wall_s']:.2f} s wall, "
              f"{r['cpu_s_parent_and_workers']:.2f} s cpu on {n_jobs} worker(s) "
              f"({r['wall_per_fold_pair_s'] * 1e6:.1f} us wall, {r['cpu_per_fold_pair_s'] * 1e6:.1f} us cpu "
              f"per fold pair)")
    print(f"2 workers vs 1: {runs[1]['wall_s'] / runs[2]['wall_s']:.2f} x the speed (wall)")
    for name in ("null_data", "bayesnet_source_4"):
        x = python[name]
        print(f"python side of evaluate_nb_c45 ({name}): {x['python_share_list']:.0%} with list splits, "
              f"{x['python_share_engine_splits']:.0%} with the engine's splits (fold labels)")
    serial = python["serial_run_bayesnet_source_4"]
    print(f"python side of a serial run_experiment (source 4), outside every compiled call: "
          f"{serial['python_share']:.1%} (median of {serial['rounds']} runs, range {serial['python_share_min']:.1%}-"
          f"{serial['python_share_max']:.1%}); outside the learners' kernel: "
          f"{serial['outside_learner_kernel_share']:.1%} (1-minute load {serial['load_1min']}, other processes "
          f"{serial['other_load']} cores)")
    print("identical to the estimators fold by fold: "
          + ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in identical.items()))
    print(f"workload of {WORKLOAD_FOLD_PAIRS:,} fold pairs on 2 workers: "
          f"{workload['hours_on_2_workers_from_measured_run_wall']:.2f} h (measured run, wall), "
          f"{workload['hours_on_2_workers_from_measured_run_cpu']:.2f} h (measured run, cpu), "
          f"{workload['hours_on_2_workers_from_engine_cpu']:.2f} h (engine cpu only)")
    path = write_results("engine", {
        "n_instances": N_INSTANCES, "n_attributes": N_ATTRIBUTES, "folds_per_dataset": n,
        "loop_folds_timed": LOOP_FOLDS,
        "seconds_per_fold_pair": {"engine_null_data": engine, "engine_bayesnet_source_4": engine4,
                                  "own_estimators_loop": own, "sklearn_loop": sk,
                                  "sklearn_loop_bayesnet_source_4": sk4},
        "speedup_null_data": speedup, "speedup_bayesnet_source_4": speedup_source4,
        "speedup_vs_sklearn_loop_cpu_paired": paired,
        "pairs_bayesnet_source_4": pairs,
        "compile": compiled, "run_experiment": run, "workload": workload,
        "run_experiment_by_workers": {str(n_jobs): r for n_jobs, r in runs.items()},
        "identical": {**identical, **{f"python_side_{name}": python[name]["identical"]
                                      for name in ("null_data", "bayesnet_source_4")}},
        "python_side": python,
        # The kernels are compiled without numba's parallel=True: they start no threads, so
        # no numba threading layer is loaded; parallelism is one process per worker.
        "threads": {"numba_parallel_kernels": False, "processes_per_worker": 1},
        # Other jobs on the machine inflate wall times (and, less so, CPU times).
        "load_average_before": load_before, "load_average_after": load_average(),
    })
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
