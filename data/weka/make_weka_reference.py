"""Produce the Weka 3.6 reference data of ``data/weka`` (see README.md there).

    python data/weka/make_weka_reference.py uci_resampling         # ~minutes, one JVM
    python data/weka/make_weka_reference.py synthetic [--n-datasets 1000] [--experiments t7,t2_p03,t2_p04]

``uci_resampling``: Weka's Experimenter splits (``RandomSplitResultProducer``, -P 90, runs 1..100,
called through ``tests/weka/WekaBatch.java``'s RSPLIT directive) on the 27 UCI data sets of
``REPLICABILITY_UCI_DIR``, Weka's NaiveBayes, J48 and IB1 trained and tested on each:
``uci_resampling.csv.gz`` (dataset, run, learner, n_train, n_test, correct).

``synthetic``: the data sets and 10 x 10 cv folds of the book's Bouckaert (2003) experiments
(``replicability.papers.bouckaert2003.weka_oracle.EXPERIMENTS``), drawn exactly as the runner
draws them (``weka_oracle.dataset_and_splits``), written as ARFF (row i = instance i) and run
through Weka: ``t7``, ``t2_p03``, ``t2_p04`` with RUN directives (training rows ascending, the
engine's order); ``t7_experimenter`` with SPLIT directives giving each training set in the
order the engine's ``rxk_cv`` scheme with ``train_order="experimenter"`` gives it. Learners per
experiment: ``SYNTHETIC``. Writes ``bouckaert2003_<experiment>.npz`` with int16 arrays
``n_test`` and ``correct_<key>`` (dataset, run, fold).

Needs java, javac and Weka 3.6 (``WEKA_JAR``, default ``/usr/share/java/weka.jar``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
DRIVER = ROOT / "tests" / "weka" / "WekaBatch.java"
WEKA_JAR = os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar")

#: key -> Weka classifier and options (Weka 3.6 defaults; TAN as the Explorer builds it).
WEKA_CLASSIFIERS = {
    "nb": "weka.classifiers.bayes.NaiveBayes",
    "j48": "weka.classifiers.trees.J48",
    "ib1": "weka.classifiers.lazy.IB1",
    "ibk1": "weka.classifiers.lazy.IBk -K 1",
    "tan": "weka.classifiers.bayes.BayesNet -D -Q weka.classifiers.bayes.net.search.local.TAN -- -S BAYES "
           "-E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5",
    "vp": "weka.classifiers.functions.VotedPerceptron",
}
UCI_LEARNERS = {"nb": "NaiveBayes", "j48": "J48", "ib1": "IB1"}


def run_weka(lines, work, *, predictions=False):
    """Compile the driver into ``work``, run the job lines in one JVM, return stdout."""
    subprocess.run(["javac", "-nowarn", "-cp", WEKA_JAR, "-d", str(work), str(DRIVER)], check=True,
                   capture_output=True)
    jobs = Path(work) / "jobs.tsv"
    jobs.write_text("\n".join(lines) + "\n")
    args = ["java", "-Xmx1g", "-cp", f"{WEKA_JAR}{os.pathsep}{work}", "WekaBatch"] + (["-p"] if predictions else [])
    proc = subprocess.run(args + [str(jobs)], check=True, capture_output=True, text=True)
    print(proc.stderr.strip().splitlines()[-1], file=sys.stderr)
    return proc.stdout


def clf_lines(keys):
    return [f"CLF\t{k}\t" + WEKA_CLASSIFIERS[k].replace(" ", "\t", 1) for k in keys]


def uci_resampling(runs=range(1, 101)):
    from replicability.sources.uci import list_uci

    directory = Path(os.environ["REPLICABILITY_UCI_DIR"])
    names = list(list_uci()["dataset"])
    lines = clf_lines(UCI_LEARNERS)
    lines += [f"RSPLIT\t{name}\t{directory / f'{name}.arff'}\t90\t{min(runs)}-{max(runs)}" for name in names]
    with tempfile.TemporaryDirectory() as work:
        out = run_weka(lines, work, predictions=True)
    sizes, rows = {}, []
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "I":
            sizes[f[1]] = (len(f[2].split(",")), len(f[3].split(",")) if f[3] else 0)
        elif f[0] == "F":
            name, run = f[1].rsplit("/", 1)
            n_train, n_test = sizes[f[1]]
            assert n_test == int(f[3])
            rows.append({"dataset": name, "run": int(run), "learner": UCI_LEARNERS[f[2]], "n_train": n_train,
                         "n_test": n_test, "correct": int(f[4])})
        elif f[0] == "E":
            raise RuntimeError(line)
    frame = pd.DataFrame(rows).sort_values(["dataset", "learner", "run"], kind="stable")
    frame.to_csv(HERE / "uci_resampling.csv.gz", index=False, compression={"method": "gzip", "mtime": 0})
    return frame


def write_arff(path, X, y):
    lines = ["@relation data", ""] + [f"@attribute a{j} {{0,1}}" for j in range(X.shape[1])]
    lines += ["@attribute class {0,1}", "", "@data"]
    lines += [",".join(map(str, row)) + f",{c}" for row, c in zip(X.tolist(), y.tolist())]
    Path(path).write_text("\n".join(lines) + "\n")


#: experiment -> Weka learners run on it
SYNTHETIC = {"t7": ["nb", "j48", "ib1", "ibk1", "tan", "vp"], "t7_experimenter": ["ib1", "vp"],
             "t2_p03": ["nb", "j48"], "t2_p04": ["nb", "j48"]}


def synthetic(name, n_datasets, chunk=100):
    """One experiment of ``weka_oracle.EXPERIMENTS``: every data set's 100 folds through Weka."""
    from replicability.papers.bouckaert2003.weka_oracle import dataset_and_splits, experiment_config

    config = experiment_config(name, n_datasets=n_datasets)
    keys = SYNTHETIC[name]
    shape = (n_datasets, 10, 10)
    n_test = np.zeros(shape, dtype=np.int16)
    correct = {k: np.full(shape, -1, dtype=np.int16) for k in keys}
    sorted_order = config.scheme_params.get("train_order", "sorted") == "sorted"
    for first in range(0, n_datasets, chunk):
        with tempfile.TemporaryDirectory() as work:
            lines = clf_lines(keys)
            for i in range(first, min(first + chunk, n_datasets)):
                X, y, splits = dataset_and_splits(config, i)
                arff = Path(work) / f"ds{i:04d}.arff"
                write_arff(arff, X, y)
                for r in range(10):
                    labels = np.full(len(y), -1)
                    for f in range(10):
                        train, test = splits[r * 10 + f]
                        labels[test] = f
                        n_test[i, r, f] = len(test)
                    for f in range(10):
                        train, test = splits[r * 10 + f]
                        if sorted_order:
                            # RUN rebuilds the split: test = rows labelled f, training = the rest, ascending
                            assert np.array_equal(train, np.flatnonzero(labels != f))
                        else:
                            lines.append(f"SPLIT\t{i}/{r}/{f}\t{arff}\t{','.join(map(str, train))}\t"
                                         f"{','.join(map(str, test))}")
                    if sorted_order:
                        lines.append(f"RUN\t{i}/{r}\t{arff}\t{','.join(map(str, labels))}\tasc")
            text = run_weka(lines, work)
        for line in text.splitlines():
            f = line.split("\t")
            if f[0] == "F":
                i, r, fold = map(int, f[1].split("/"))
                assert int(f[3]) == n_test[i, r, fold]
                correct[f[2]][i, r, fold] = int(f[4])
            elif f[0] == "E":
                raise RuntimeError(line)
    for k, v in correct.items():
        assert (v >= 0).all(), k
    np.savez_compressed(HERE / f"bouckaert2003_{name}.npz", n_test=n_test,
                        **{f"correct_{k}": v for k, v in correct.items()})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["uci_resampling", "synthetic"])
    ap.add_argument("--n-datasets", type=int, default=1000)
    ap.add_argument("--experiments", default="t7,t7_experimenter,t2_p03,t2_p04")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.what == "uci_resampling":
        uci_resampling()
    else:
        for name in args.experiments.split(","):
            synthetic(name, args.n_datasets)
    print(f"{args.what}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
