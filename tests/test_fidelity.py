"""Tests for replicability.papers.bouckaert_frank2004.fidelity.

Weka's cv folds and the learners' fidelity to Weka 3.6.
"""

import os
from pathlib import Path

import numpy as np
import pytest

from replicability._weka_random import JavaRandom, prob_round
from replicability.papers.bouckaert_frank2004.fidelity import (
    fidelity_table,
    read_weka_cv,
    uci_cv_correct,
    uci_fidelity,
)
from replicability.papers.shared.uci_runs import LEARNERS, cv_correct, weka_cv_splits, weka_random_splits
from replicability.sources.uci import load_uci

ROOT = Path(__file__).resolve().parents[1]
UCI_DIR = Path(os.environ.get("REPLICABILITY_UCI_DIR") or ROOT.parent / "shared" / "data" / "uci")


@pytest.fixture(scope="module")
def weka():
    return read_weka_cv()


def test_java_random_matches_java():
    # `new java.util.Random(42)`, then nextInt(10), nextInt(7), nextInt(16), nextInt(1000),
    # nextInt(3), nextInt(2147483647), printed by OpenJDK 17: 0 5 10 884 0 2023087525.
    rand = JavaRandom(42)
    assert [rand.next_int(b) for b in (10, 7, 16, 1000, 3, 2147483647)] == [0, 5, 10, 884, 0, 2023087525]


def test_weka_cv_splits_partition_and_stratify():
    y = np.repeat([0, 1, 2], [50, 61, 46])
    splits = weka_cv_splits(y, n_folds=10, seed=3)
    tests = np.concatenate([test for _, test in splits])
    np.testing.assert_array_equal(np.sort(tests), np.arange(len(y)))
    sizes = [len(test) for _, test in splits]
    assert sizes == [16] * 7 + [15] * 3  # Weka: the first n % k folds get one more
    for train, test in splits:
        np.testing.assert_array_equal(np.sort(train), np.setdiff1d(np.arange(len(y)), test))
        counts = np.array([np.bincount(y[test], minlength=3) for _, test in splits])
    assert np.all(counts.max(axis=0) - counts.min(axis=0) <= 1)


def test_weka_cv_splits_depend_on_seed_only():
    y = np.arange(40) % 2
    a, b = weka_cv_splits(y, seed=5), weka_cv_splits(y, seed=5)
    assert all(np.array_equal(p[0], q[0]) and np.array_equal(p[1], q[1]) for p, q in zip(a, b))
    c = weka_cv_splits(y, seed=6)
    assert any(not np.array_equal(p[1], q[1]) for p, q in zip(a, c))


def test_weka_cv_splits_rejects_bad_n_folds():
    with pytest.raises(ValueError, match="`n_folds`"):
        weka_cv_splits(np.zeros(10, int), n_folds=1)


def test_weka_cv_splits_rejects_bad_y():
    with pytest.raises(ValueError, match="`y`"):
        weka_cv_splits(np.zeros((10, 2), int))
    with pytest.raises(ValueError, match="`y`"):
        weka_cv_splits(np.zeros(5, int), n_folds=10)


@pytest.mark.parametrize("name, seeds", [("iris", [1, 2]), ("labor", [3]), ("zoo", [4]), ("hepatitis", [5])])
def test_runs_equal_weka_exactly(weka, name, seeds):
    # Same folds as Weka's -x 10 -s <seed>, so each run's correct count equals Weka's
    # (the package's weka_cv.csv): naive Bayes, J48 and IB1 on data with
    # numeric attributes (iris, labor, hepatitis), missing values (labor, hepatitis)
    # and a many-valued nominal attribute (zoo).
    ds = load_uci(name, directory=UCI_DIR)
    for learner in LEARNERS:
        ours = cv_correct(ds, learner, seeds=seeds)
        ref = weka["correct"].sel(dataset=name, learner=learner, seed=seeds).values
        np.testing.assert_array_equal(ours, ref, err_msg=f"{name} {learner}")


def test_fidelity_target_on_27_data_sets(weka):
    # The target: the mean accuracy of 10 x 10 cv is within 1.5 percentage
    # points of Weka 3.6.14's on at least 24 of the 27 data sets, for each learner.
    # Our results are the committed paper-scale result (data/results, recomputed by
    # `make reproduce`).
    table = fidelity_table(uci_fidelity(scale="paper"), weka)
    assert len(table) == 27 * 3
    within = table.groupby("learner")["within"].sum()
    for learner in LEARNERS:
        assert within[learner] >= 24, table[table.learner == learner]


def test_committed_result_equals_weka_run_by_run(weka):
    # Stronger than the target: of the 810 runs (27 data sets x 3 learners x 10 seeds)
    # all but one classify exactly as many instances correctly as Weka 3.6.14's summary.
    # The exception, primary-tumor / J48 / seed 8 (ours 144, Weka 143), agrees with
    # Weka's own per-instance predictions for that run: `J48 -t primary-tumor.arff -x 10
    # -s 8 -p 0` marks 144 of 339 predictions correct while the summary of the same
    # command without -p reports 143.
    ours = uci_fidelity(scale="paper")
    ref = weka["correct"].sel(dataset=ours["dataset"], learner=ours["learner"], seed=ours["seed"])
    differ = np.argwhere(ours["correct"].values != ref.values)
    runs = [(str(ours["dataset"][i].values), str(ours["learner"][j].values), int(ours["seed"][k]))
            for i, j, k in differ]
    assert runs == [("primary-tumor", "J48", 8)]
    i, j, k = differ[0]
    assert (int(ours["correct"][i, j, k]), int(ref[i, j, k])) == (144, 143)
    np.testing.assert_array_equal(ours["n_instances"].values, weka["n_instances"].sel(dataset=ours["dataset"]).values)


def test_uci_cv_correct_layout():
    ds = uci_cv_correct(["iris"], learners=["NaiveBayes"], seeds=[1, 2], directory=UCI_DIR)
    assert ds["correct"].dims == ("dataset", "learner", "seed")
    assert ds["correct"].shape == (1, 1, 2)
    assert int(ds["n_instances"].sel(dataset="iris")) == 150


def test_fidelity_table_columns(weka):
    table = fidelity_table(weka, weka)
    assert list(table.columns) == ["dataset", "learner", "ours", "weka", "difference", "within"]
    assert (table["difference"] == 0).all() and table["within"].all()
    # Weka's mean 10 x 10 cv accuracy of naive Bayes on anneal: 86.59 % (fixture).
    row = table[(table.dataset == "anneal") & (table.learner == "NaiveBayes")]
    assert round(float(row["weka"].iloc[0]), 2) == 86.59


def test_cv_correct_rejects_unknown_learner():
    ds = load_uci("iris", directory=UCI_DIR)
    with pytest.raises(ValueError, match="`learner`"):
        cv_correct(ds, "SMO", seeds=[1])


def test_uci_cv_correct_rejects_unknown_learner():
    with pytest.raises(ValueError, match="`learners`"):
        uci_cv_correct(["iris"], learners=["SMO"], seeds=[1], directory=UCI_DIR)


def test_uci_cv_correct_rejects_bad_n_jobs():
    with pytest.raises(ValueError, match="`n_jobs`"):
        uci_cv_correct(["iris"], seeds=[1], n_jobs=0, directory=UCI_DIR)


def test_fidelity_table_rejects_bad_tolerance(weka):
    with pytest.raises(ValueError, match="`tolerance`"):
        fidelity_table(weka, weka, tolerance=0)


def test_uci_fidelity_rejects_bad_scale():
    with pytest.raises(ValueError, match="`scale`"):
        uci_fidelity(scale="huge")


def test_java_next_double_and_prob_round_match_java():
    # OpenJDK 17: `new Random(42)` nextDouble() x 3 prints 0.7275636800328681 0.6832234717598454
    # 0.30871945533265976; with `new Random(7)`, weka.core.Utils.probRound (Weka 3.6.14) of
    # 13.5, 13.5, 13.5, 13.5, 0.0, 2.7, -2.7, 90.0 in turn prints 13 13 14 13 0 3 -3 90.
    rand = JavaRandom(42)
    assert [rand.next_double() for _ in range(3)] == [0.7275636800328681, 0.6832234717598454, 0.30871945533265976]
    rand = JavaRandom(7)
    assert [prob_round(v, rand) for v in (13.5, 13.5, 13.5, 13.5, 0.0, 2.7, -2.7, 90.0)] == [13, 13, 14, 13, 0, 3,
                                                                                                 -3, 90]


def test_weka_random_splits_match_weka_iris_run_1():
    # Weka 3.6.14, RandomSplitResultProducer -P 90, doRun(1) on iris.arff (tests/weka/WekaBatch.java,
    # RSPLIT directive): the first 20 training rows, and the 15 test rows, in Weka's order.
    iris = load_uci("iris", directory=UCI_DIR)
    train, test = weka_random_splits(iris.y, runs=[1], n_classes=3)[0]
    assert train[:20].tolist() == [71, 100, 95, 44, 124, 126, 144, 1, 54, 86, 77, 99, 39, 98, 40, 55, 149, 4, 131, 3]
    assert len(train) == 135 and len(test) == 15


def test_weka_random_splits_partition_and_stratify():
    y = np.repeat([0, 1, 2], [47, 3, 11])
    for train, test in weka_random_splits(y, runs=range(1, 21)):
        np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(len(y)))
        n_train = np.bincount(y[train], minlength=3)
        # probRound of 0.9 n_c: the floor or the ceiling of each class's share
        assert np.all((n_train == np.floor(0.9 * np.array([47, 3, 11]))) | (n_train == np.ceil(0.9 * np.array(
            [47, 3, 11]))))


def test_weka_random_splits_depend_on_run_and_declared_classes():
    y = np.arange(60) % 2
    a, b = weka_random_splits(y, runs=[3, 3])
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    c = weka_random_splits(y, runs=[4])[0]
    assert not np.array_equal(a[1], c[1])
    # a declared class without instances draws one more random number (Utils.probRound), so the split changes
    d = weka_random_splits(y, runs=[3], n_classes=3)[0]
    assert not (np.array_equal(a[0], d[0]) and np.array_equal(a[1], d[1]))


def test_weka_random_splits_missing_class_rows_are_split_too():
    y = np.array([0] * 20 + [1] * 20 + [-1] * 10)
    train, test = weka_random_splits(y, runs=[1])[0]
    assert (y[train] == -1).sum() + (y[test] == -1).sum() == 10 and (y[train] == -1).sum() == 9


@pytest.mark.parametrize("kwargs, match", [
    ({"y": np.zeros((3, 2), dtype=int), "runs": [1]}, "one-dimensional"),
    ({"y": np.array([0.5, 1.0]), "runs": [1]}, "class codes"),
    ({"y": np.array([0, 1]), "runs": [1], "train_percent": 0}, "train_percent"),
    ({"y": np.array([0, 1]), "runs": [1], "train_percent": 101}, "at most 100"),
    ({"y": np.array([0, 1, 2]), "runs": [1], "n_classes": 2}, "n_classes"),
])
def test_weka_random_splits_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        weka_random_splits(**kwargs)
