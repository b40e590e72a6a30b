"""Benchmark: reading an ARFF file takes time linear in its size, hostile files included.

Run ``python benchmarks/bench_arff.py``. Each workload is an ARFF text built at two sizes,
ten times apart, and parsed by :func:`replicability.sources.arff.parse_arff` (process CPU
time, sizes interleaved so that machine load hits both alike, minimum over the repeats):

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


def best_cpu(texts, repeat):
    """Minimum process CPU time of parsing each text, texts interleaved, after a warm-up."""
    for text in texts.values():
        parse(text)
    times = {n: [] for n in texts}
    for _ in range(repeat):
        for n, text in texts.items():
            start = time.process_time()
            parse(text)
            times[n].append(time.process_time() - start)
    return {n: min(t) for n, t in times.items()}


if __name__ == "__main__":
    print(machine(), "load", load_average())
    for name, (build, small, large) in WORKLOADS.items():
        texts = {small: build(small), large: build(large)}
        cpu = best_cpu(texts, repeat=5)
        print(f"{name}: {small:,} -> {cpu[small]:.4f} s ({len(texts[small]) / 1e6:.2f} MB), "
              f"{large:,} -> {cpu[large]:.4f} s ({len(texts[large]) / 1e6:.2f} MB), "
              f"ratio {cpu[large] / cpu[small]:.1f}")
