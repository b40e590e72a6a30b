"""Weka tier: a sample of synthetic and UCI folds through real Weka 3.6, compared fold by fold.

One JVM (``tests/weka/WekaBatch.java``, compiled and run by ``tests/_weka_batch.py``) fits
Weka's NaiveBayes, J48, IB1, BayesNet with TAN search and VotedPerceptron on

* 4 data sets of Bouckaert (2003) source 1 (Table 7's source), one run of the engine's
  stratified 10-fold cv, the training rows in the order our learners see them;
* iris, labor and zoo with Weka's own 10-fold cross-validation (seed 1),

and our learners must classify exactly as many test instances correctly on every fold.
On the Experimenter's random 90/10 splits (Weka's own ``RandomSplitResultProducer.doRun``)
of five UCI data sets, our learners must score as Weka's (that the splits themselves are
Weka's is checked in ``tests/papers/shared/test_uci_runs.py``).
For TAN the tree itself is compared too: the parents Weka's BayesNet prints for every
attribute must be ours.

Skipped, with the reason, where Java or Weka is absent: ``make test`` installs Debian's
``weka`` and a JDK (``--no-install-recommends``) when run as root.
"""

import os
from pathlib import Path

import numpy as np
import pytest

from replicability.engine.registry import SOURCES
from replicability.engine.splits import rxk_cv_splits
from replicability.learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron
from replicability.papers.shared.synthetic_runs import SYNTHETIC_SOURCES
from replicability.papers.shared.uci_runs import cv_correct, fold_hits
from replicability.sources.uci import load_uci

from .._weka_batch import (
    NEEDS_WEKA,
    RANDOM_SPLIT_RUNS,
    RANDOM_SPLIT_SETS,
    WEKA,
    WEKA_KEYS,
    compile_driver,
    random_split_runs,
    run_driver,
)

pytestmark = [pytest.mark.weka, NEEDS_WEKA]

#: Our estimators; the voted perceptron shuffles as Weka does with its seed 1.
OURS = {
    "naive_bayes": NaiveBayes, "c45": C45, "ib1": IB1, "tan": TAN,
    "voted_perceptron": lambda: VotedPerceptron(weka_shuffle=True, random_state=1),
}
UCI = {"iris": "IB1", "labor": "J48", "zoo": "NaiveBayes"}  # one Weka learner name per data set is enough
N_SYNTHETIC = 4


def _write_arff(path, X, y):
    lines = ["@relation sample"] + [f"@attribute a{j} {{0,1}}" for j in range(X.shape[1])]
    lines += ["@attribute class {0,1}", "@data"] + [",".join(map(str, row)) + f",{c}" for row, c in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")


def _synthetic_samples():
    source, params = SYNTHETIC_SOURCES["source1"]
    for index in range(N_SYNTHETIC):
        X, y = SOURCES[source](np.random.default_rng([0, index]), n_instances=300, **params)
        splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=10, random_state=index)
        yield index, np.asarray(X), np.asarray(y), splits


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    """The compiled driver's directory."""
    return compile_driver(tmp_path_factory.mktemp("weka"))


@pytest.fixture(scope="module")
def weka(driver):
    """Run every job in one JVM; return {(job, learner): correct}."""
    work = driver
    jobs = [f"CLF\t{key}\t" + spec.replace(" ", "\t", 1) for key, spec in WEKA.items()]
    for index, X, y, splits in _synthetic_samples():
        arff = work / f"synthetic{index}.arff"
        _write_arff(arff, X, y)
        jobs += [f"SPLIT\tsyn{index}/{f}\t{arff}\t{','.join(map(str, tr))}\t{','.join(map(str, te))}"
                 for f, (tr, te) in enumerate(splits)]
    directory = Path(os.environ["REPLICABILITY_UCI_DIR"])
    jobs += [f"CV\tuci_{name}\t{directory / f'{name}.arff'}\t10\t1" for name in UCI]
    out = run_driver(work, jobs)
    return {(f[1], f[2]): int(f[4]) for f in (line.split("\t") for line in out.splitlines()) if f[0] == "F"}


@pytest.mark.parametrize("learner", list(OURS))
def test_synthetic_folds_equal_weka(weka, learner):
    differ = []
    for index, X, y, splits in _synthetic_samples():
        for f, (train, test) in enumerate(splits):
            ours = int((OURS[learner]().fit(X[train], y[train]).predict(X[test]) == y[test]).sum())
            if ours != weka[(f"syn{index}/{f}", learner)]:
                differ.append((index, f, ours, weka[(f"syn{index}/{f}", learner)]))
    assert not differ, f"{len(differ)} of {N_SYNTHETIC * 10} folds differ (data set, fold, ours, Weka): {differ}"


@pytest.fixture(scope="module")
def weka_tan_trees(driver):
    """Weka's TAN network on every synthetic fold: {(data set, fold): parents per node, as printed}."""
    jobs = ["CLF\ttan\t" + WEKA["tan"].replace(" ", "\t", 1)]
    for index, X, y, splits in _synthetic_samples():
        arff = driver / f"synthetic{index}.arff"
        _write_arff(arff, X, y)
        jobs += [f"SPLIT\tsyn{index}/{f}\t{arff}\t{','.join(map(str, tr))}\t{','.join(map(str, te))}"
                 for f, (tr, te) in enumerate(splits)]
    return {tuple(map(int, f[1][3:].split("/"))): f[3] for f in
            (line.split("\t") for line in run_driver(driver, jobs, "-s").splitlines()) if f[0] == "T"}


def test_tan_tree_equals_weka(weka_tan_trees):
    # Weka prints "node:parents" with the class (node d) first, then the attribute parent.
    differ = []
    for index, X, y, splits in _synthetic_samples():
        d = X.shape[1]
        for f, (train, _) in enumerate(splits):
            parent = TAN().fit(X[train], y[train]).parent_
            ours = " ".join([f"{j}:{d}" + (f",{parent[j]}" if parent[j] >= 0 else "") for j in range(d)] + [f"{d}:"])
            if ours != weka_tan_trees[(index, f)]:
                differ.append((index, f, ours, weka_tan_trees[(index, f)]))
    assert len(weka_tan_trees) == N_SYNTHETIC * 10
    assert not differ, f"(data set, fold, ours, Weka): {differ}"


@pytest.mark.parametrize("name", list(UCI))
def test_uci_cross_validation_equals_weka(weka, name):
    learner = UCI[name]
    key = {"NaiveBayes": "naive_bayes", "J48": "c45", "IB1": "ib1"}[learner]
    directory = os.environ["REPLICABILITY_UCI_DIR"]
    ours = int(cv_correct(load_uci(name, directory=directory), learner, seeds=[1])[0])
    assert ours == sum(weka[(f"uci_{name}/{i}", key)] for i in range(10))


@pytest.fixture(scope="module")
def weka_random(driver):
    """Weka's RandomSplitResultProducer (-P 90) runs 1..5: {(data set, run): (train, test, {learner: correct})}."""
    return random_split_runs(driver)


@pytest.mark.parametrize("learner", list(WEKA_KEYS))
def test_learners_on_random_splits_equal_weka(weka_random, learner):
    differ = []
    for name in RANDOM_SPLIT_SETS:
        ds = load_uci(name, directory=os.environ["REPLICABILITY_UCI_DIR"])
        for run in RANDOM_SPLIT_RUNS:
            train, test, correct = weka_random[(name, run)]
            ours = int(fold_hits(ds, learner, ds.X, ds.y, np.array(train), np.array(test)).sum())
            if ours != correct[WEKA_KEYS[learner]]:
                differ.append((name, run, ours, correct[WEKA_KEYS[learner]]))
    assert not differ, f"(data set, run, ours, Weka): {differ}"
