"""Tests of Weka's splits and random numbers behind the fidelity checks.

They test :mod:`replicability.papers.shared.uci_runs` (``weka_cv_splits``,
``weka_random_splits``, ``cv_correct``) and :mod:`replicability._weka_random`
(``JavaRandom``, ``prob_round``); they came from the tests of
``bouckaert_frank2004.fidelity`` and belong with the tests of those modules.
"""

import os
from pathlib import Path

import numpy as np
import pytest

from replicability._weka_random import JavaRandom, prob_round
from replicability.papers.shared.uci_runs import cv_correct, weka_cv_splits, weka_random_splits
from replicability.sources.uci import load_uci

ROOT = Path(__file__).resolve().parents[3]
UCI_DIR = Path(os.environ.get("REPLICABILITY_UCI_DIR") or ROOT.parent / "shared" / "data" / "uci")


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


def test_cv_correct_rejects_unknown_learner():
    ds = load_uci("iris", directory=UCI_DIR)
    with pytest.raises(ValueError, match="`learner`"):
        cv_correct(ds, "SMO", seeds=[1])


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
