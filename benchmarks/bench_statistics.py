"""Benchmark: every test of the statistics library on a paper-sized array.

The array has shape (4, 1000, 10, 10, 10): every source, data set, repeat, run and
fold of a 10 x 10 cv experiment in Bouckaert (2003, 2004). Each test is applied to
all 40,000 experiments in one call; the figure is the best of five wall times.
Run ``python benchmarks/bench_statistics.py``.
"""

import numpy as np

import replicability as rp
from _common import best_time, write_results

SHAPE = (4, 1000, 10, 10, 10)
N_TEST, N_TRAIN = 30, 270  # 10-fold cv on 300 instances


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
    for scheme in rp.SCHEMES:
        variants = ["plain"] if scheme == "all" else rp.VARIANTS
        for variant in variants:
            jobs[f"scheme {scheme}, {variant} (t)"] = (
                lambda s=scheme, v=variant: rp.scheme_ttest(d, scheme=s, variant=v))
        for test in ("sign", "signed_rank"):
            jobs[f"scheme {scheme} ({test.replace('_', '-')})"] = (
                lambda s=scheme, t=test: rp.scheme_test(d, scheme=s, test=t))
    return jobs


def main():
    rng = np.random.default_rng(2003)
    results = {}
    for name, job in workloads(rng).items():
        results[name] = best_time(job)
        print(f"{name:45s} {results[name] * 1e3:8.1f} ms")
    total = sum(results.values())
    print(f"{'total':45s} {total * 1e3:8.1f} ms")
    path = write_results("statistics", {"shape": list(SHAPE), "seconds": results, "total_seconds": total})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
