"""Benchmark: reading an ARFF file takes time linear in its size, hostile files included.

Run ``python benchmarks/bench_arff.py``. Each workload is an ARFF text built at two sizes,
ten times apart, and parsed by :func:`replicability.sources.arff.parse_arff`. Each round
parses both sizes in turn (so machine load hits them alike) and takes the ratio of their
process CPU times; the figure printed is the median over the rounds. As in :mod:`timeit`,
Python's cyclic garbage collector is held off while a parse is timed (after a full
collection): a collection's cost depends on everything else alive in the process, not on
the file, and it made single ratios swing between 6 and 13:

* ``attributes``: 4,000 and 40,000 ``@attribute`` lines (0.1 and 1.1 MB) and one data row;
  the duplicate-name check made the 40,000 take 68 s. Design target (issue 44): time ratio
  of 40,000 to 4,000 at most 12;
* ``nominal_labels``: one nominal attribute declaring 8,000 and 80,000 labels;
* ``range_blanks``: ``integer [1,`` followed by 8,000 and 80,000 blanks, a malformed range
  (an error); the old range pattern backtracked in cubic time (4,000 blanks: 440 s).

Linear time means a ratio near 10. The figures are printed, not written to
``data/benchmarks/``: the book's performance page shows every file there, and its stored
output stays as it is.
"""

import gc
import statistics
import time

from _common import load_average, machine

from replicability.sources.arff import ArffError, parse_arff


def attributes(n):
    header = "".join(f"@attribute attribute_{i:05d} numeric\n" for i in range(n))
    return f"@relation wide\n{header}@attribute class {{a,b}}\n@data\n" + "1," * n + "a\n"


def nominal_labels(n):
    labels = ",".join(f"v{i}" for i in range(n))
    return f"@relation labels\n@attribute x {{{labels}}}\n@attribute class {{a,b}}\n@data\nv1,a\n"


def range_blanks(n):
    return "@relation r\n@attribute x integer [1," + " " * n + "\n@attribute class {a,b}\n@data\n1,a\n"


WORKLOADS = {"attributes": (attributes, 4_000, 40_000),
             "nominal_labels": (nominal_labels, 8_000, 80_000),
             "range_blanks": (range_blanks, 8_000, 80_000)}


def parse(text):
    try:
        parse_arff(text)
    except ArffError:
        pass  # the malformed range: the time to the error is what is measured


def cpu_time(text):
    """Process CPU time of one parse of ``text``, garbage collector held off."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        parse(text)
        return time.process_time() - start
    finally:
        gc.enable()


def median_ratio(small, large, rounds):
    """Median times and median ratio large/small over interleaved rounds, after a warm-up."""
    parse(small)
    parse(large)
    pairs = [(cpu_time(small), cpu_time(large)) for _ in range(rounds)]
    return (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs),
            statistics.median(p[1] / p[0] for p in pairs if p[0] > 0))


if __name__ == "__main__":
    print(machine(), "load", load_average())
    for name, (build, small, large) in WORKLOADS.items():
        small_text, large_text = build(small), build(large)
        small_cpu, large_cpu, ratio = median_ratio(small_text, large_text, rounds=11)
        print(f"{name}: {small:,} -> {small_cpu:.4f} s ({len(small_text) / 1e6:.2f} MB), "
              f"{large:,} -> {large_cpu:.4f} s ({len(large_text) / 1e6:.2f} MB), "
              f"median ratio of 11 rounds {ratio:.1f}")
