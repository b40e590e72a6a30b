"""Benchmark: every test of the statistics library on a paper-sized array.

The array has shape (4, 1000, 10, 10, 10): every source, data set, repeat, run and
fold of a 10 x 10 cv experiment in Bouckaert (2003, 2004). Each test is applied to
all 40,000 experiments in one call. For each test the benchmark records the best of
``REPEAT`` wall times and, separately, the best of ``REPEAT`` process CPU times
(``time.process_time``), with the load average when it was measured. Two totals
are reported: "the family" (each test of the package once) and the sampling-scheme
variants of :func:`replicability.stats.scheme_ttest` / :func:`replicability.scheme_test`.
Run ``python benchmarks/bench_statistics.py``.
"""


import numpy as np
from _common import best_times, load_average, write_results

import replicability as rp

SHAPE = (4, 1000, 10, 10, 10)
N_TEST, N_TRAIN = 30, 270  # 10-fold cv on 300 instances
REPEAT = 7

#: Each test of the package once: the figure the issue asks for.
FAMILY = (
    "paired t-test (100 values)",
    "resampled t-test (10 runs)",
    "corrected resampled t-test (10 runs)",
    "k-fold cv paired t-test (10 folds)",
    "corrected repeated cv t-test (10 x 10)",
    "Dietterich 5x2cv t-test",
    "Alpaydin 5x2cv F-test",
    "sign test (100 values)",
    "signed-rank test (100 values)",
    "McNemar test",
)

NOTE = (
    "Best of `repeat` calls after one warm-up, each test applied once to the whole "
    "array. `cpu_seconds` is process CPU time (time.process_time), `wall_seconds` "
    "elapsed time (time.perf_counter); the two minima are taken separately. The "
    "machine's cores were shared with other jobs while measuring (see "
    "`load_average`, 1/5/15 min, per test, against `machine.cpu_count` cores). "
    "That inflates wall time by the time spent waiting for a core; CPU time "
    "excludes the wait (it is still somewhat inflated by the shared caches), so "
    "CPU time is the fair figure. `seconds` repeats `cpu_seconds` and "
    "`total_seconds` is its sum over every row; `family_total` is each test once "
    "(the tests in `family`), `schemes_total` the sampling-scheme variants."
)


def workloads(rng):
    correct_a = rng.binomial(N_TEST, 0.8, size=SHAPE)
    correct_b = rng.binomial(N_TEST, 0.8, size=SHAPE)
    d = (correct_a - correct_b) / N_TEST
    flat = d.reshape(*SHAPE[:3], -1)
    five_by_two = d[..., :5, :2]
    b = rng.binomial(30, 0.5, size=SHAPE[:3])
    c = rng.binomial(30, 0.5, size=SHAPE[:3])
    jobs = {
        "paired t-test (100 values)": lambda: rp.paired_ttest(flat),
        "resampled t-test (10 runs)": lambda: rp.resampled_ttest(d[..., 0]),
        "corrected resampled t-test (10 runs)": lambda: rp.corrected_resampled_ttest(
            d[..., 0], n_train=N_TRAIN, n_test=N_TEST),
        "k-fold cv paired t-test (10 folds)": lambda: rp.kfold_cv_ttest(d[..., 0, :]),
        "corrected repeated cv t-test (10 x 10)": lambda: rp.corrected_repeated_cv_ttest(
            d, n_train=N_TRAIN, n_test=N_TEST),
        "Dietterich 5x2cv t-test": lambda: rp.dietterich_5x2cv_ttest(five_by_two),
        "Alpaydin 5x2cv F-test": lambda: rp.alpaydin_5x2cv_ftest(five_by_two),
        "sign test (100 values)": lambda: rp.sign_test(flat),
        "signed-rank test (100 values)": lambda: rp.signed_rank_test(flat),
        "McNemar test": lambda: rp.mcnemar_test(b, c),
    }
    assert tuple(jobs) == FAMILY
    for scheme in rp.SCHEMES:
        variants = ["plain"] if scheme == "all" else rp.stats.VARIANTS
        for variant in variants:
            jobs[f"scheme {scheme}, {variant} (t)"] = (
                lambda s=scheme, v=variant: rp.stats.scheme_ttest(d, scheme=s, variant=v))
        for test in ("sign", "signed_rank"):
            jobs[f"scheme {scheme} ({test.replace('_', '-')})"] = (
                lambda s=scheme, t=test: rp.scheme_test(d, scheme=s, test=t))
    return jobs


def _total(times, names):
    return {kind: sum(times[name][kind] for name in names) for kind in ("cpu", "wall")}


def main():
    rng = np.random.default_rng(2003)
    times, loads = {}, {}
    load_start = load_average()
    print(f"{'':45s} {'CPU ms':>8s} {'wall ms':>8s}  load (1 min)")
    for name, job in workloads(rng).items():
        times[name] = best_times(job, repeat=REPEAT)
        loads[name] = load_average()
        print(f"{name:45s} {times[name]['cpu'] * 1e3:8.1f} {times[name]['wall'] * 1e3:8.1f}"
              f"  {loads[name][0] if loads[name] else '-'}")
    schemes = [name for name in times if name not in FAMILY]
    family_total = _total(times, FAMILY)
    schemes_total = _total(times, schemes)
    for label, total in (("family total", family_total), ("schemes total", schemes_total)):
        print(f"{label:45s} {total['cpu'] * 1e3:8.1f} {total['wall'] * 1e3:8.1f}")
    cpu = {name: t["cpu"] for name, t in times.items()}
    results = {
        "shape": list(SHAPE),
        "repeat": REPEAT,
        "note": NOTE,
        "seconds": cpu,
        "total_seconds": sum(cpu.values()),
        "cpu_seconds": cpu,
        "wall_seconds": {name: t["wall"] for name, t in times.items()},
        "load_average": loads,
        "load_average_start": load_start,
        "load_average_end": load_average(),
        "family": list(FAMILY),
        "family_total": family_total,
        "schemes": schemes,
        "schemes_total": schemes_total,
    }
    path = write_results("statistics", results)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
