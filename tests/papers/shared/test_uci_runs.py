"""Tests for replicability.papers.shared.uci_runs: per-fold results of the three learners on UCI data."""

import os
from pathlib import Path

import numpy as np
import pytest

from replicability.papers.bouckaert_frank2004.fidelity import read_weka_cv
from replicability.papers.shared.uci_runs import (
    UCI_SCHEMES,
    cv_correct,
    uci_fold_hits,
    uci_scheme_results,
    weka_cv_splits,
    weka_random_splits,
)
from replicability.sources.uci import load_uci

from ..._weka_batch import NEEDS_WEKA, RANDOM_SPLIT_RUNS, RANDOM_SPLIT_SETS, compile_driver, random_split_runs

ROOT = Path(__file__).resolve().parents[3]
UCI_DIR = Path(os.environ.get("REPLICABILITY_UCI_DIR") or ROOT.parent / "shared" / "data" / "uci")


@pytest.fixture(scope="module")
def labor():
    if not (UCI_DIR / "labor.arff").is_file():
        pytest.skip(f"UCI files not in {UCI_DIR}: "
                    "get them with `replicability data fetch-uci DEST` and set REPLICABILITY_UCI_DIR=DEST")
    return load_uci("labor", directory=UCI_DIR)


def test_cv_repeat0_is_weka_10x10_cv(labor):
    # Repeat 0 of "cv" runs Weka's folds with seeds 1..10: per-run totals equal Weka 3.6.14's.
    hits = uci_fold_hits(labor, "cv", n_repeats=1)
    weka = read_weka_cv()["correct"].sel(dataset="labor", seed=range(1, 11))
    ours = hits["correct"].isel(repeat=0).sum("fold")
    for learner in ("NaiveBayes", "J48", "IB1"):
        np.testing.assert_array_equal(ours.sel(learner=learner).values, weka.sel(learner=learner).values)


@pytest.mark.parametrize("scheme", list(UCI_SCHEMES))
def test_counts_are_consistent(labor, scheme):
    hits = uci_fold_hits(labor, scheme, n_repeats=2)
    n_runs, n_folds = UCI_SCHEMES[scheme]
    assert dict(hits["correct"].sizes) == {"learner": 3, "repeat": 2, "run": n_runs, "fold": n_folds}
    assert ((hits.n_train + hits.n_test) == 57).all()
    for pair in hits["pair"].values:
        a, b = str(pair).split("-")
        both = hits["correct_both"].sel(pair=pair)
        assert (both <= np.minimum(hits["correct"].sel(learner=a), hits["correct"].sel(learner=b))).all()
        assert (both >= hits["correct"].sel(learner=a) + hits["correct"].sel(learner=b) - hits.n_test).all()
    if scheme in ("cv", "5x2"):  # every instance is tested once per run
        assert (hits.n_test.sum("fold") == 57).all()
    elif scheme == "resample":
        assert (hits.n_test == 6).all()  # ceil(0.1 * 57), as ShuffleSplit
    else:  # one fold of a stratified 10-fold partition: 5 or 6 of 57
        assert set(np.unique(hits.n_test).tolist()) <= {5, 6}
    # the repeats are different randomizations
    assert not (hits["correct"].isel(repeat=0) == hits["correct"].isel(repeat=1)).all()


def test_stratified_resampling_keeps_class_proportions(labor):
    from replicability.papers.shared.uci_runs import _splits

    y = labor.y[labor.y >= 0]
    share = np.mean(y == 1)
    for strat, bound in ((True, 1.0), (False, None)):
        tests = _splits(y, "resample_stratified" if strat else "resample", 0)
        deviation = [abs(np.sum(y[test] == 1) - share * len(test)) for _, test in tests]
        if bound is not None:
            assert max(deviation) <= bound
        else:  # unstratified test sets do deviate by more than one instance sometimes
            assert max(deviation) > 1.0


def test_stratified_resampling_with_singleton_classes():
    from replicability.papers.shared.uci_runs import _splits

    y = np.array([0] * 30 + [1] * 18 + [2])  # class 2 has one instance
    for train, test in _splits(y, "resample_stratified", 3):
        assert np.intersect1d(train, test).size == 0 and train.size + test.size == y.size
        assert np.sum(y[test] == 0) == 3 and np.sum(y[test] == 1) in (1, 2)


def test_scheme_results_smoke_and_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path))
    res = uci_scheme_results("5x2", scale="smoke", directory=UCI_DIR)
    assert list(res["dataset"].values) == ["iris", "labor", "zoo"]
    assert res["n_instances"].values.tolist() == [150, 57, 101]
    again = uci_scheme_results("5x2", scale="smoke", directory=UCI_DIR)  # from the cache
    np.testing.assert_array_equal(res["correct"].values, again["correct"].values)
    with pytest.raises(ValueError, match="scheme"):
        uci_scheme_results("10x10", scale="smoke")
    with pytest.raises(ValueError, match="scale"):
        uci_scheme_results("cv", scale="huge")
    with pytest.raises(ValueError, match="learners"):
        uci_fold_hits(load_uci("iris", directory=UCI_DIR), "cv", learners=["SMO"])


def test_resample_weka_repeat0_is_the_experimenters_runs_1_to_100(labor):
    # Repeat 0 of "resample_weka" = Weka's RandomSplitResultProducer runs 1..100 (data/weka/uci_resampling.csv.gz,
    # Weka 3.6.14): same test-set sizes and correct counts per run; repeat 1 starts at run 101.
    from replicability.papers.bouckaert_frank2004.weka_resampling import read_weka_resampling
    from replicability.papers.shared.uci_runs import _splits, weka_random_splits

    hits = uci_fold_hits(labor, "resample_weka", n_repeats=1)
    weka = read_weka_resampling().sel(dataset="labor")
    np.testing.assert_array_equal(hits["n_test"].values, weka["n_test"].values)
    np.testing.assert_array_equal(hits["correct"].values, weka["correct"].values)
    second = _splits(labor.y, "resample_weka", 1, len(labor.class_values))
    assert np.array_equal(second[0][1], weka_random_splits(labor.y, runs=[101], n_classes=2)[0][1])
    assert UCI_SCHEMES["resample_weka"] == (100, 1)


# -- Weka tier: the Experimenter's random splits from real Weka 3.6 (tests/_weka_batch.py) --------


@pytest.fixture(scope="module")
def weka_random(tmp_path_factory):
    """Weka's RandomSplitResultProducer (-P 90) runs 1..5: {(data set, run): (train, test, {learner: correct})}."""
    return random_split_runs(compile_driver(tmp_path_factory.mktemp("weka")))


@pytest.mark.weka
@NEEDS_WEKA
@pytest.mark.parametrize("name", RANDOM_SPLIT_SETS)
def test_random_splits_equal_weka_experimenter(weka_random, name):
    ds = load_uci(name, directory=os.environ["REPLICABILITY_UCI_DIR"])
    ours = weka_random_splits(ds.y, runs=RANDOM_SPLIT_RUNS, n_classes=len(ds.class_values))
    for run, (train, test) in zip(RANDOM_SPLIT_RUNS, ours):
        weka_train, weka_test, _ = weka_random[(name, run)]
        assert train.tolist() == weka_train, (name, run)
        assert test.tolist() == weka_test, (name, run)


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
