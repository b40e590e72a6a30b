"""Benchmark: ``rp.compare`` on large data: its peak memory, and two workers against one.

Peak memory. Each configuration runs in a fresh process on ``n`` rows of 20 float64
features (``X`` is 15.3 MiB at 100k rows, 153 MiB at 1M), naive Bayes against a
constant predictor (the fits cost little, so what is measured is what ``compare``
holds). After a warm-up call the process's peak resident set is reset (Linux:
``/proc/self/clear_refs``), and the peak of the measured call (``VmHWM``) less the
resident set before it is the memory ``compare`` added, stated as a multiple of
``X``'s size. ``--old SRC`` also measures another copy of the package (e.g. the code
before splits were drawn as used) at 100k rows, and times the two serially in fresh
processes, alternately (``--old-rounds`` pairs, 10 x 10 cv under 2 randomizations).

Workers. On 100k rows a decision tree (depth 8) against naive Bayes, 1 x 10 cv under 4
randomizations (80 fits), with ``n_jobs=1`` and ``n_jobs=2`` in alternating rounds
(drift of a shared machine hits both alike); reported: the median and range of the
per-round ratios serial / parallel, the load average around every round, and that both
give identical scores. The speed-up cannot exceed the cores that are free: on a machine
shared with other work, read it with the load average.

Run ``python benchmarks/bench_compare_memory.py [--rounds 3] [--old SRC] [--src SRC]``; the figures
go to ``data/benchmarks/compare_memory.json`` through the common write path (quiet or
loaded, as ``_common.write_results`` decides), each also with the load average after it. The
code before splits were drawn as used is the parent of commit 0b78e5e:
``git archive 0b78e5e^ src | tar -x -C /tmp/old`` gives ``--old /tmp/old/src``.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from _common import write_results

ROOT = Path(__file__).resolve().parents[1]
N_FEATURES = 20


def _data(n):
    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, N_FEATURES))
    y = (X[:, :4].sum(axis=1) + rng.standard_normal(n) > 0).astype(np.int64)
    return X, y


def _status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def measure_memory(n, scheme, n_repeats):
    """In this process: the memory one ``compare`` call adds at ``n`` rows (bytes), and X's size."""
    import gc

    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB

    import replicability as rp

    X, y = _data(n)
    a, b = GaussianNB(), DummyClassifier(strategy="prior")
    rp.compare(a, b, X[:2000], y[:2000], scheme="2x2cv", n_repeats=2, rng=0)  # imports, caches
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak resident set (VmHWM) to the current one
    before = _status("VmRSS")
    start = time.perf_counter()
    res = rp.compare(a, b, X, y, scheme=scheme, n_repeats=n_repeats, rng=0)
    wall = time.perf_counter() - start
    peak = _status("VmHWM")
    return {"rows": n, "scheme": scheme, "n_repeats": n_repeats, "fits": 2 * res.scores_a.size,
            "x_mib": X.nbytes / 2**20, "before_mib": before / 2**20, "peak_mib": peak / 2**20,
            "added_mib": (peak - before) / 2**20, "added_over_x": (peak - before) / X.nbytes, "wall_s": wall}


def _in_child(n, scheme, n_repeats, src):
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, __file__, "--child", str(n), scheme, str(n_repeats)], env=env,
                         capture_output=True, text=True, check=True)
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "package": str(src), "load_average_after": _load()}


def _load():
    return [round(x, 2) for x in os.getloadavg()]


def measure_workers(rounds):
    import numpy as np
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    import replicability as rp

    X, y = _data(100_000)
    a, b = DecisionTreeClassifier(max_depth=8), GaussianNB()
    options = {"scheme": "1x10cv", "n_repeats": 4, "rng": 0}
    rp.compare(a, b, X[:2000], y[:2000], scheme="2x2cv", n_repeats=2, rng=0, n_jobs=2)  # starts the workers
    times, loads, identical, reference = {1: [], 2: []}, [_load()], True, None
    for _ in range(rounds):
        for n_jobs in (1, 2):
            start = time.perf_counter()
            res = rp.compare(a, b, X, y, n_jobs=n_jobs, **options)
            times[n_jobs].append(time.perf_counter() - start)
            reference = res if reference is None else reference
            identical &= np.array_equal(res.scores_a, reference.scores_a) and np.array_equal(
                res.scores_b, reference.scores_b)
            loads.append(_load())
    ratios = np.array(times[1]) / np.array(times[2])
    summary = {k: {"median": float(np.median(v)), "min": float(np.min(v)), "max": float(np.max(v))}
               for k, v in (("n_jobs=1 wall_s", times[1]), ("n_jobs=2 wall_s", times[2]),
                            ("speedup n_jobs=2", ratios))}
    return {"workload": "100000 rows x 20 features, decision tree (max_depth=8) vs GaussianNB, 1x10cv, "
                        "4 randomizations: 80 fits", "rounds": rounds, **summary,
            "per_round_speedup": ratios.tolist(), "identical_scores": bool(identical), "load_average": loads,
            "cpu_count": os.cpu_count()}


def main():
    import numpy as np

    parser = argparse.ArgumentParser()
    parser.add_argument("--child", nargs=3, metavar=("ROWS", "SCHEME", "REPEATS"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--old", type=Path, help="another copy of the package's src/ to measure at 100k rows")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the package's src/ to measure (default: this)")
    parser.add_argument("--old-rounds", type=int, default=0, help="alternate serial timings of --src and --old")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-workers", action="store_true")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure_memory(int(args.child[0]), args.child[1], int(args.child[2]))))
        return
    src, memory = args.src, []
    if not args.skip_memory:
        memory = [_in_child(100_000, "10x10cv", 10, src), _in_child(100_000, "10x10cv", 2, src),
                  _in_child(1_000_000, "10x10cv", 2, src)]
        if args.old is not None:
            memory.append(_in_child(100_000, "10x10cv", 10, args.old))
    for row in memory:
        print(f"{row['rows']} rows, {row['scheme']} x {row['n_repeats']} ({row['package']}): added "
              f"{row['added_mib']:.0f} MiB = {row['added_over_x']:.2f} x X ({row['x_mib']:.1f} MiB), "
              f"{row['wall_s']:.0f} s", flush=True)
    results = {"memory": memory}
    if args.old is not None and args.old_rounds:
        walls, loads = {"src": [], "old": []}, [_load()]
        for _ in range(args.old_rounds):
            for which, path in (("src", src), ("old", args.old)):
                walls[which].append(_in_child(100_000, "10x10cv", 2, path)["wall_s"])
            loads.append(_load())
        ratios = np.array(walls["old"]) / np.array(walls["src"])
        results["serial_old_vs_src"] = {"wall_s": walls, "old_over_src": ratios.tolist(),
                                        "median_old_over_src": float(np.median(ratios)), "load_average": loads}
        print(f"serial wall, old / this: median {np.median(ratios):.2f} {ratios.round(2).tolist()}; load {loads}")
    if not args.skip_workers:
        results["workers"] = measure_workers(args.rounds)
        w = results["workers"]
        print(f"n_jobs=2 / serial: median {w['speedup n_jobs=2']['median']:.2f} "
              f"[{w['speedup n_jobs=2']['min']:.2f}, {w['speedup n_jobs=2']['max']:.2f}]; identical "
              f"{w['identical_scores']}; load {w['load_average']}")
    path = write_results("compare_memory", results)
    print(f"written to {path}")


if __name__ == "__main__":
    main()
