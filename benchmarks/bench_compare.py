"""Benchmark: ``rp.compare`` against the same work as a plain serial loop.

Two scikit-learn learners (a decision tree and 5-nearest neighbours) on a
classification data set of 500 rows and 20 features, 10 x 10 cv, 10 randomizations:
2,000 fits and scores per learner pair. Three commands are timed in turn, round
after round (interleaved, so that drift of the shared machine hits all three
alike): the plain loop (clone, fit, score over the same splits), ``compare`` with
``n_jobs=1`` and with ``n_jobs=2``. Reported: the median and range of the wall times
and of the per-round ratios, and that the three give identical scores.
Run ``python benchmarks/bench_compare.py``.
"""

import time

import numpy as np
from _common import load_average, write_results
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import replicability as rp
from replicability.engine.splits import RepeatedCV

ROUNDS = 5
N_REPEATS = 10
X, Y = make_classification(500, 20, n_informative=6, random_state=0)
A, B = DecisionTreeClassifier(random_state=0), KNeighborsClassifier(algorithm="kd_tree")


def plain_loop(seeds):
    """The work of compare, written as a user would: same splits, clone, fit, score."""
    scores = []
    for seed in seeds:
        for train, test in RepeatedCV(10, 10, stratified=True, random_state=seed).split(X, Y):
            scores.append([clone(m).fit(X[train], Y[train]).score(X[test], Y[test]) for m in (A, B)])
    return np.array(scores)


def timed(func):
    start = time.perf_counter()
    out = func()
    return time.perf_counter() - start, out


def main():
    reference = rp.compare(A, B, X, Y, n_repeats=N_REPEATS, rng=0, n_jobs=1)  # warm-up; gives the seeds
    loads = [load_average()]
    times = {"loop": [], "n_jobs=1": [], "n_jobs=2": []}
    identical = True
    for _ in range(ROUNDS):
        wall, scores = timed(lambda: plain_loop(reference.seeds))
        times["loop"].append(wall)
        identical &= np.array_equal(scores[:, 0], reference.scores_a.reshape(-1))
        for n_jobs in (1, 2):
            wall, res = timed(lambda n_jobs=n_jobs: rp.compare(A, B, X, Y, n_repeats=N_REPEATS, rng=0,
                                                                 n_jobs=n_jobs))
            times[f"n_jobs={n_jobs}"].append(wall)
            identical &= np.array_equal(res.scores_b, reference.scores_b)
        loads.append(load_average())
    loop = np.array(times["loop"])
    ratios = {"loop / n_jobs=1": loop / np.array(times["n_jobs=1"]),
              "loop / n_jobs=2": loop / np.array(times["n_jobs=2"])}
    results = {
        "workload": f"{N_REPEATS} randomizations of 10 x 10 cv, {len(X)} rows: "
                    f"{2 * N_REPEATS * 100} fits and scores",
        "rounds": ROUNDS,
        "wall_seconds": {k: {"median": float(np.median(v)), "min": float(np.min(v)), "max": float(np.max(v))}
                         for k, v in times.items()},
        "speedup": {k: {"median": float(np.median(v)), "min": float(np.min(v)), "max": float(np.max(v))}
                    for k, v in ratios.items()},
        "identical_scores": bool(identical),
        "load_average": loads,
    }
    path = write_results("compare", results)
    for k, v in results["speedup"].items():
        print(f"{k}: median {v['median']:.2f} [{v['min']:.2f}, {v['max']:.2f}]")
    print(f"identical scores: {identical}; written to {path}")


if __name__ == "__main__":
    main()
