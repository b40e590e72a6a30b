"""Real Weka 3.6 for the Weka tier: the batch driver ``tests/weka/WekaBatch.java``, compiled and run.

One JVM fits Weka's classifiers on the jobs it is given (a tab-separated file) and prints
one line per fold. The tests that use it are marked ``weka`` and skipped, with the reason,
where Java or Weka is absent: ``make test`` installs Debian's ``weka`` and a JDK
(``--no-install-recommends``) when run as root.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

__all__ = ["DRIVER", "NEEDS_WEKA", "RANDOM_SPLIT_RUNS", "RANDOM_SPLIT_SETS", "WEKA", "WEKA_JAR", "WEKA_KEYS",
           "compile_driver", "random_split_runs", "run_driver"]

WEKA_JAR = Path(os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar"))
DRIVER = Path(__file__).resolve().parent / "weka" / "WekaBatch.java"

#: Skips a test, with the reason, where Java or Weka is absent (tests of the tier are also marked ``weka``).
NEEDS_WEKA = pytest.mark.skipif(not (shutil.which("java") and shutil.which("javac") and WEKA_JAR.is_file()),
                                reason=f"real Weka 3.6 is not installed (needs java, javac and {WEKA_JAR}): "
                                       "apt-get install --no-install-recommends weka default-jdk-headless")

#: Weka classifier per learner key: class and options (Weka 3.6 defaults; TAN as the Explorer's).
WEKA = {
    "naive_bayes": "weka.classifiers.bayes.NaiveBayes",
    "c45": "weka.classifiers.trees.J48",
    "ib1": "weka.classifiers.lazy.IB1",
    "tan": "weka.classifiers.bayes.BayesNet -D -Q weka.classifiers.bayes.net.search.local.TAN -- -S BAYES "
           "-E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5",
    "voted_perceptron": "weka.classifiers.functions.VotedPerceptron",
}

#: UCI data sets for the random splits: a declared class that never occurs (anneal), classes with a
#: single instance (audiology), 3 to 24 classes, 57 to 898 instances.
RANDOM_SPLIT_SETS = ["anneal", "audiology", "iris", "labor", "zoo"]
RANDOM_SPLIT_RUNS = range(1, 6)
WEKA_KEYS = {"NaiveBayes": "naive_bayes", "J48": "c45", "IB1": "ib1"}


def compile_driver(work):
    """Compile the driver into the directory ``work``; return it."""
    subprocess.run(["javac", "-nowarn", "-cp", str(WEKA_JAR), "-d", str(work), str(DRIVER)], check=True,
                   capture_output=True)
    return work


def run_driver(work, jobs, *options):
    (work / "jobs.tsv").write_text("\n".join(jobs) + "\n")
    return subprocess.run(["java", "-cp", f"{WEKA_JAR}{os.pathsep}{work}", "WekaBatch", *options,
                           str(work / "jobs.tsv")], check=True, capture_output=True, text=True, timeout=600).stdout


def random_split_runs(work):
    """Weka's RandomSplitResultProducer (-P 90) runs 1..5: {(data set, run): (train, test, {learner: correct})}."""
    directory = Path(os.environ["REPLICABILITY_UCI_DIR"])
    jobs = [f"CLF\t{key}\t" + WEKA[key] for key in WEKA_KEYS.values()]
    jobs += [f"RSPLIT\t{name}\t{directory / f'{name}.arff'}\t90\t1-{max(RANDOM_SPLIT_RUNS)}"
             for name in RANDOM_SPLIT_SETS]
    out = {}
    for line in run_driver(work, jobs, "-p").splitlines():
        f = line.split("\t")
        if f[0] == "I":
            name, run = f[1].rsplit("/", 1)
            out[(name, int(run))] = ([int(i) for i in f[2].split(",")], [int(i) for i in f[3].split(",")], {})
        elif f[0] == "F":
            name, run = f[1].rsplit("/", 1)
            out[(name, int(run))][2][f[2]] = int(f[4])
    return out
