"""Tests of replicability.engine.splits: invariants of the sampling schemes."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import KFold, RepeatedStratifiedKFold, ShuffleSplit

from replicability._weka_random import JavaRandom, randomize
from replicability.engine.splits import (
    FiveByTwoCV,
    RandomSubsampling,
    RepeatedCV,
    _kfold_splits,
    _shuffle_splits,
    experimenter_training_order,
    rxk_cv_splits,
)


def _labels(n=103, seed=0, p=0.3):
    return (np.random.default_rng(seed).random(n) < p).astype(int)


def _assert_stratified(test, y):
    # Each class's count in the test set is within 1 of its proportional share.
    for cls in np.unique(y):
        share = np.mean(y == cls) * len(test)
        assert abs(np.sum(y[test] == cls) - share) <= 1


@pytest.mark.parametrize("stratified", [False, True])
def test_random_subsampling_sizes_disjoint_covering(stratified):
    y = _labels()
    X = np.zeros((len(y), 1))
    cv = RandomSubsampling(n_runs=7, test_size=0.1, stratified=stratified, random_state=0)
    splits = list(cv.split(X, y))
    assert len(splits) == cv.get_n_splits() == 7
    for train, test in splits:
        assert len(test) == 11  # ceil(0.1 * 103), as ShuffleSplit rounds the test set up
        assert len(train) == 92
        assert np.intersect1d(train, test).size == 0
        np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(103))
        if stratified:
            _assert_stratified(test, y)
    # The runs are different random partitions.
    assert len({tuple(np.sort(t)) for _, t in splits}) == 7


@pytest.mark.parametrize("stratified", [False, True])
def test_repeated_cv_folds_partition_each_run(stratified):
    y = _labels()
    cv = RepeatedCV(n_runs=3, n_folds=10, stratified=stratified, random_state=1)
    splits = list(cv.split(np.zeros((len(y), 1)), y))
    assert cv.shape == (3, 10) and len(splits) == cv.get_n_splits() == 30
    for r in range(3):
        run = splits[r * 10 : (r + 1) * 10]  # run-major order
        tests = np.concatenate([t for _, t in run])
        np.testing.assert_array_equal(np.sort(tests), np.arange(len(y)))  # disjoint + covering
        for train, test in run:
            assert np.intersect1d(train, test).size == 0
            assert len(train) + len(test) == len(y)
            assert len(test) in (10, 11)
            if stratified:
                _assert_stratified(test, y)
    # Different runs shuffle differently.
    assert not np.array_equal(splits[0][1], splits[10][1])


def test_repeated_cv_equals_sklearn_repeated_stratified_kfold():
    y = _labels(50)
    ours = list(RepeatedCV(n_runs=2, n_folds=5, random_state=4).split(np.zeros((50, 1)), y))
    ref = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=4)
    ref = ref.split(np.zeros((50, 1)), y)
    for (a, b), (c, d) in zip(ours, ref, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


@pytest.mark.parametrize("seed", range(12))
def test_stratified_splits_identical_to_sklearn_on_varied_labels(seed):
    # The vectorized folds must be scikit-learn's, draw for draw: string and
    # integer labels, 2-4 classes in any order of appearance, skewed and tiny
    # classes, a RandomState instance shared across calls.
    gen = np.random.default_rng(seed)
    n = int(gen.integers(12, 320))
    n_classes = int(gen.integers(2, 5))
    y = gen.choice(n_classes, size=n, p=gen.dirichlet(np.ones(n_classes)))
    y[: n_classes] = np.arange(n_classes)[::-1]  # every class present, in reverse order
    if seed % 3 == 0:
        y = np.array(["b", "a", "c", "d"])[y]
    elif seed % 4 == 1:  # integers the blocks' table cannot index: negative and far beyond the sample size
        y = np.array([-3, 10**9, 7, -10**12])[y]
    elif seed % 4 == 2:
        y = y.astype(np.uint16)
    n_folds = int(gen.choice([2, 3, 5, 10]))
    n_runs = int(gen.integers(1, 4))
    ours_rs, ref_rs = np.random.RandomState(seed), np.random.RandomState(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # tiny classes: both warn
        for _ in range(2):  # the shared generator advances identically
            ours = list(RepeatedCV(n_runs, n_folds, random_state=ours_rs).split(np.zeros((n, 1)), y))
            ref = list(RepeatedStratifiedKFold(n_splits=n_folds, n_repeats=n_runs,
                                               random_state=ref_rs).split(np.zeros((n, 1)), y))
            assert len(ours) == len(ref)
            for (a, b), (c, d) in zip(ours, ref, strict=True):
                np.testing.assert_array_equal(a, c)
                np.testing.assert_array_equal(b, d)


def test_stratified_splits_warn_and_fail_like_sklearn():
    y = np.array([0] * 20 + [1] * 3)
    with pytest.warns(UserWarning, match="least populated class in y has only 3 members"):
        list(RepeatedCV(1, 5, random_state=0).split(np.zeros((23, 1)), y))
    with pytest.raises(ValueError, match="cannot be greater than the number of members in each class"):
        list(RepeatedCV(1, 5, random_state=0).split(np.zeros((6, 1)), np.array([0, 0, 0, 1, 1, 1])))
    with pytest.raises(ValueError, match="Supported target types"):
        list(RepeatedCV(1, 2, random_state=0).split(np.zeros((4, 1)), np.array([0.5, 1.5, 2.5, 3.5])))


def test_rxk_cv_splits_is_run_major_list():
    y = _labels(40)
    splits, shape = rxk_cv_splits(y, n_runs=3, n_folds=4, random_state=2)
    assert shape == (3, 4) and len(splits) == 12
    ref = list(RepeatedCV(3, 4, random_state=2).split(np.zeros((40, 1)), y))
    for (a, b), (c, d) in zip(splits, ref, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


def test_five_by_two():
    y = _labels(31)
    cv = FiveByTwoCV(random_state=0)
    splits = list(cv.split(np.zeros((31, 1)), y))
    assert cv.shape == (5, 2) and len(splits) == 10
    for r in range(5):
        (tr0, te0), (tr1, te1) = splits[2 * r], splits[2 * r + 1]
        # The two folds of a run swap roles: train of one is test of the other.
        np.testing.assert_array_equal(np.sort(tr0), np.sort(te1))
        np.testing.assert_array_equal(np.sort(tr1), np.sort(te0))
        _assert_stratified(te0, y)


@pytest.mark.parametrize(
    "make",
    [
        lambda s: RandomSubsampling(n_runs=4, random_state=s),
        lambda s: RandomSubsampling(n_runs=4, stratified=True, random_state=s),
        lambda s: RepeatedCV(n_runs=2, n_folds=5, random_state=s),
        lambda s: FiveByTwoCV(random_state=s),
    ],
)
def test_same_seed_same_splits_different_seed_different(make):
    y = _labels(60)
    X = np.zeros((60, 1))

    def tests(cv):
        return np.concatenate([t for _, t in cv.split(X, y)])

    np.testing.assert_array_equal(tests(make(5)), tests(make(5)))
    assert not np.array_equal(tests(make(5)), tests(make(6)))


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(10, 60),
    n_folds=st.integers(2, 5),
    p=st.floats(0.2, 0.8),
    seed=st.integers(0, 2**16),
)
def test_stratified_folds_property(n, n_folds, p, seed):
    y = np.zeros(n, dtype=int)
    y[: max(n_folds, int(round(p * n)))] = 1
    y[-n_folds:] = 0  # each class has at least n_folds members
    splits, shape = rxk_cv_splits(y, n_runs=2, n_folds=n_folds, random_state=seed)
    for r in range(shape[0]):
        tests = np.concatenate([t for _, t in splits[r * n_folds : (r + 1) * n_folds]])
        np.testing.assert_array_equal(np.sort(tests), np.arange(n))
        for _, test in splits[r * n_folds : (r + 1) * n_folds]:
            _assert_stratified(test, y)


@pytest.mark.parametrize("value", [0, -1, 1.5, True])
def test_n_runs_validation(value):
    with pytest.raises(ValueError, match="`n_runs`"):
        RandomSubsampling(n_runs=value).get_n_splits()
    with pytest.raises(ValueError, match="`n_runs`"):
        RepeatedCV(n_runs=value).get_n_splits()


@pytest.mark.parametrize("value", [1, 0, 2.0])
def test_n_folds_validation(value):
    with pytest.raises(ValueError, match="`n_folds`"):
        _ = RepeatedCV(n_folds=value).shape


@pytest.mark.parametrize("value", [0.0, 1.0, 0, -3, "0.1", True])
def test_test_size_validation(value):
    with pytest.raises(ValueError, match="`test_size`"):
        next(RandomSubsampling(test_size=value).split(np.zeros((10, 1))))


def test_rxk_y_must_be_one_dimensional():
    with pytest.raises(ValueError, match="`y`"):
        rxk_cv_splits(np.zeros((4, 2)), n_folds=2)


def test_rxk_y_must_have_n_folds_values():
    with pytest.raises(ValueError, match="`y`"):
        rxk_cv_splits(np.arange(3), n_folds=4)


def test_experimenter_training_order_matches_weka_randomize():
    # Weka 3.6.14: Instances.randomize(new Random(1)) turns rows 0, 1, 2, 3 into 3, 0, 1, 2.
    splits = [(np.array([0, 1, 2, 3]), np.array([4, 5])), (np.array([2, 3, 4, 5]), np.array([0, 1]))]
    shuffled = experimenter_training_order(splits, n_folds=2, seeds=[1])
    assert shuffled[0][0].tolist() == [3, 0, 1, 2]
    # the run's generator goes on to the next fold: not the same permutation again
    assert sorted(shuffled[1][0].tolist()) == [2, 3, 4, 5]
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(shuffled, splits))


def test_experimenter_training_order_keeps_the_rows_and_depends_on_the_seeds():
    splits, (r, k) = rxk_cv_splits(np.arange(40) % 2, n_runs=2, n_folds=5, random_state=0)
    a = experimenter_training_order(splits, n_folds=k, seeds=[5, 6])
    b = experimenter_training_order(splits, n_folds=k, seeds=[5, 7])
    for (tr, te), (tr0, te0) in zip(a, splits):
        np.testing.assert_array_equal(np.sort(tr), np.sort(tr0))
        np.testing.assert_array_equal(te, te0)
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(a[:k], b[:k]))  # run 0: same seed
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a[k:], b[k:]))
    with pytest.raises(ValueError, match="n_folds"):
        experimenter_training_order(splits, n_folds=k, seeds=[5])


def test_experimenter_training_order_equals_weka_randomize_run_by_run():
    # The compiled shuffles against Instances.randomize in Python, one java.util.Random per run.
    y = np.random.default_rng(0).integers(0, 3, size=157)
    splits, (r, k) = rxk_cv_splits(y, n_runs=4, n_folds=7, random_state=3)
    seeds = [0, 12345, 2**31 - 1, 99]
    shuffled = experimenter_training_order(splits, n_folds=k, seeds=seeds)
    for run, seed in enumerate(seeds):
        rand = JavaRandom(seed)
        for (train, test), (train0, test0) in zip(shuffled[run * k:(run + 1) * k], splits[run * k:(run + 1) * k]):
            order = np.sort(train0).tolist()
            randomize(order, rand)
            assert train.tolist() == order
            np.testing.assert_array_equal(test, test0)


@pytest.mark.parametrize("n, k", [(2, 2), (7, 3), (11, 2), (57, 5), (300, 10)])
def test_unshuffled_kfold_runs_are_scikit_learns(n, k):
    # The engine's unstratified cv ("cv", "5x2"): compiled shuffles, scikit-learn's splits.
    seeds = [int(s) for s in np.random.default_rng(n * k).integers(0, 2**32, size=4)] + [0, 2**32 - 1]
    runs = _kfold_splits(n, k, seeds)
    assert len(runs) == len(seeds)
    for run, seed in zip(runs, seeds):
        expected = list(KFold(k, shuffle=True, random_state=seed).split(np.zeros((n, 1))))
        assert len(run) == k
        for (train, test), (train0, test0) in zip(run, expected):
            np.testing.assert_array_equal(train, train0)
            np.testing.assert_array_equal(test, test0)
    with pytest.raises(ValueError, match="n_splits=4"):
        _kfold_splits(3, 4, [0])


@pytest.mark.parametrize("n, test_size", [(3, 0.5), (10, 0.1), (57, 1 / 3), (300, 0.1), (301, 0.25)])
def test_shuffle_splits_are_scikit_learns(n, test_size):
    # The engine's unstratified random subsampling ("resample"): compiled permutations, scikit-learn's splits.
    for seed in [0, 2**32 - 1, *np.random.default_rng(n).integers(0, 2**32, size=3).tolist()]:
        splits = _shuffle_splits(n, 7, test_size, seed)
        expected = list(ShuffleSplit(7, test_size=test_size, random_state=seed).split(np.zeros((n, 1))))
        assert len(splits) == 7
        for (train, test), (train0, test0) in zip(splits, expected):
            np.testing.assert_array_equal(train, train0)  # in the permutation's order
            np.testing.assert_array_equal(test, test0)
    with pytest.raises(ValueError, match="train set will be empty"):
        _shuffle_splits(1, 2, 0.5, 0)


# -- the engine's concatenated splits (issue 22) -------------------------------------


def test_class_blocks_follow_labels_changed_in_place():
    from replicability.engine.splits import _stratified_splits

    y = _labels(60, seed=2)
    first = _stratified_splits(y, 5, seeds=[7]).splits
    y[:10] = 1 - y[:10]  # same array, other labels: the cached blocks must not be reused
    again = _stratified_splits(y, 5, seeds=[7]).splits
    expected = RepeatedCV(1, 5, random_state=7).split(np.zeros((60, 1)), y)
    for (train, test), (train_sk, test_sk) in zip(again, expected, strict=True):
        np.testing.assert_array_equal(train, train_sk)
        np.testing.assert_array_equal(test, test_sk)
    assert not np.array_equal(first.concatenated[2], again.concatenated[2])


def test_small_class_warns_on_every_call():
    y = np.array([0] * 20 + [1] * 3)
    for _ in range(2):
        with pytest.warns(UserWarning, match="least populated class"):
            list(RepeatedCV(1, 5, random_state=0).split(np.zeros((23, 1)), y))


def test_flat_splits_are_the_sequence_of_their_pairs():
    from replicability.engine.splits import _FlatRuns, _stratified_splits

    y = _labels(41, seed=4)
    runs = _stratified_splits(y, 4, seeds=[1, 2, 3])
    flat = runs.splits
    pairs = rxk_cv_splits(y, n_runs=1, n_folds=4, random_state=1)[0]
    assert len(flat) == 12 and flat.n_samples == 41
    for (a, b), (c, d) in zip(flat[:4], pairs, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    np.testing.assert_array_equal(flat[-1][1], list(flat)[11][1])
    np.testing.assert_array_equal(flat[::5][1][0], flat[5][0])  # a strided slice is a list of pairs
    with pytest.raises(IndexError):
        flat[12]
    # The runs: a sequence of three runs of four folds, each a slice of the flat splits.
    assert len(runs) == 3 and [len(run) for run in runs] == [4, 4, 4] and len(runs[1:]) == 2
    for (a, b), (c, d) in zip(runs[-1], flat[8:], strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    with pytest.raises(IndexError):
        runs[3]
    # The splits of several repeats built at once are those of each in turn.
    more = _stratified_splits(y, 4, seeds=[4, 5])
    joined = _FlatRuns.join([runs, more])
    for part, first, second in zip(joined.concatenated, flat.concatenated, more.splits.concatenated, strict=True):
        np.testing.assert_array_equal(part, np.concatenate([first, second]))
    assert len(joined) == 20 and joined.n_samples == 41
    np.testing.assert_array_equal(joined.n_test, [len(test) for _, test in joined])


@settings(max_examples=40, deadline=None)
@given(seeds=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=5), n=st.integers(4, 400),
       n_folds=st.integers(2, 4), n_classes=st.integers(2, 4), layout=st.integers(0, 2**16))
def test_one_seed_per_run_is_stratified_kfold(seeds, n, n_folds, n_classes, layout):
    # The cv scheme's case: StratifiedKFold(shuffle=True, random_state=seed) for each run.
    from sklearn.model_selection import StratifiedKFold

    from replicability.engine.splits import _stratified_splits

    n = max(n, n_classes * n_folds)
    y = np.random.default_rng(layout).integers(0, n_classes, size=n)
    y[:n_classes * n_folds] = np.repeat(np.arange(n_classes)[::-1], n_folds)  # every class has n_folds members
    X = np.zeros((n, 1))
    runs = _stratified_splits(y, n_folds, seeds=seeds)
    assert len(runs) == len(seeds)
    for run, seed in zip(runs, seeds, strict=True):
        expected = StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(X, y)
        for (train, test), (train_sk, test_sk) in zip(run, expected, strict=True):
            np.testing.assert_array_equal(train, train_sk)
            np.testing.assert_array_equal(test, test_sk)


def test_repeated_cv_leaves_a_random_state_where_scikit_learn_leaves_it():
    # A RandomState handed in goes on from the compiled draws, its cached Gaussian kept.
    y = _labels(97, seed=8)
    ours, ref = np.random.RandomState(3), np.random.RandomState(3)
    for rs in (ours, ref):
        rs.standard_normal()  # caches the second Gaussian of the pair
    list(RepeatedCV(4, 5, random_state=ours).split(np.zeros((97, 1)), y))
    list(RepeatedStratifiedKFold(n_splits=5, n_repeats=4, random_state=ref).split(np.zeros((97, 1)), y))
    for a, b in zip(ours.get_state(), ref.get_state(), strict=True):
        np.testing.assert_array_equal(a, b)
    assert ours.standard_normal() == ref.standard_normal() and ours.randint(2**31) == ref.randint(2**31)


def test_repeated_cv_with_another_bit_generator_is_scikit_learns():
    y = _labels(50, seed=1)
    ours = list(RepeatedCV(2, 5, random_state=np.random.RandomState(np.random.PCG64(4))).split(np.zeros((50, 1)), y))
    ref = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=np.random.RandomState(np.random.PCG64(4)))
    for (a, b), (c, d) in zip(ours, ref.split(np.zeros((50, 1)), y), strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


@pytest.mark.parametrize("scheme", ["rxk_cv", "cv"])
def test_repeats_shuffled_together_are_the_repeats_shuffled_alone(scheme):
    # The runner's join shuffles the repeats of a data set in one call, each from its own seeds.
    from replicability.engine.registry import SCHEMES
    from replicability.engine.splits import _FlatRuns

    y = _labels(83, seed=6)
    X = np.zeros((83, 1))
    split = SCHEMES[scheme](n_runs=3, n_folds=4, **({"stratified": True} if scheme == "cv" else {}))

    def repeats():
        return [split(X, y, np.random.default_rng(r)) for r in range(4)]

    together = _FlatRuns.join(repeats())
    alone = [pair for runs in repeats() for run in runs for pair in run]
    assert len(together) == len(alone) == 48
    np.testing.assert_array_equal(together.n_test, [len(test) for _, test in alone])
    np.testing.assert_array_equal(together.n_train, [len(train) for train, _ in alone])
    for (a, b), (c, d) in zip(together, alone, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    mixed = repeats()
    assert mixed[1].folds.shape == (3, 83)  # one repeat shuffled already: joined by concatenation
    for part, whole in zip(_FlatRuns.join(mixed).concatenated, together.concatenated, strict=True):
        np.testing.assert_array_equal(part, whole)
