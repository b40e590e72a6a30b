"""Tests for replicability.learners.pairs: the (naive Bayes, C4.5) fast path against fitting fold by fold."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replicability.engine import registry
from replicability.engine.runner import ExperimentConfig, run_experiment
from replicability.engine.splits import _FlatSplits, rxk_cv_splits
from replicability.learners import C45, NaiveBayes, pairs
from replicability.learners.pairs import evaluate_nb_c45, evaluate_pair_fast, evaluate_pair_loop
from replicability.sources.bayesnet import bouckaert2003_source
from replicability.sources.synthetic import sample_independent_binary


def _loop(X, y, splits, params_a=None, params_b=None):
    return evaluate_pair_loop(X, y, splits, learner_a=NaiveBayes, learner_b=C45,
                              params_a=params_a, params_b=params_b)


def test_fast_path_equals_fitting_the_estimators_fold_by_fold():
    # 2 x 10-fold cv on the null data of Bouckaert (2003): 20 folds.
    X, y = sample_independent_binary(300, rng=7)
    splits, _ = rxk_cv_splits(y, n_runs=2, n_folds=10, random_state=1)
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits), _loop(X, y, splits))


def test_fast_path_equals_loop_with_structure_three_classes_and_labels():
    # Class labels that are not codes, three classes, class related to the attributes.
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(150, 6))
    y = np.where(rng.random(150) < 0.3, rng.integers(0, 3, 150), (X[:, 0] + X[:, 2]) % 3)
    labels = np.array(["a", "b", "c"])[y]
    splits, _ = rxk_cv_splits(y, n_runs=2, n_folds=5, random_state=2)
    np.testing.assert_array_equal(evaluate_nb_c45(X, labels, splits), _loop(X, labels, splits))


def _diverse_data(kind, rng):
    """Data sets that stress the fast path: the experiments' sources and corner cases."""
    if kind == "bayesnet":  # the four Bayesian-network sources of Bouckaert (2003)
        return bouckaert2003_source(rng, n_instances=300, source=int(rng.integers(1, 5)))
    if kind == "skewed":  # rare class, attributes weakly related to it
        y = (rng.random(300) < rng.uniform(0.03, 0.15)).astype(int)
        X = (rng.random((300, 10)) < np.where(y[:, None] == 1, 0.65, 0.35)).astype(int)
        return X, y
    if kind == "many_classes":  # 3-4 classes, skewed class probabilities
        k = int(rng.integers(3, 5))
        X = (rng.random((300, 10)) < rng.uniform(0.2, 0.8, 10)).astype(int)
        noise = rng.choice(k, 300, p=rng.dirichlet(np.ones(k)))
        return X, np.where(rng.random(300) < 0.5, noise, (X[:, 0] + X[:, 1] + X[:, 2]) % k)
    if kind == "constant":  # constant and almost constant attributes (fold by fold fall-back)
        X = rng.integers(0, 2, size=(300, 10))
        X[:, 3] = 1
        X[:, 7] = 0
        X[rng.integers(0, 300, 2), 7] = 1
        return X, (rng.random(300) < 0.5).astype(int)
    if kind == "ties":  # duplicated and complementary columns: exactly tied gain ratios
        X = rng.integers(0, 2, size=(300, 5))
        X = np.column_stack([X, X[:, ::-1], 1 - X[:, :2]])
        return X, np.where(rng.random(300) < 0.3, rng.integers(0, 2, 300), X[:, 0] ^ X[:, 1])
    if kind == "tiny":  # small data sets: tiny trees, folds without a class or value
        n = int(rng.integers(8, 40))
        X = rng.integers(0, 2, size=(n, 4))
        return X, np.where(rng.random(n) < 0.3, rng.integers(0, 2, n), X[:, 0])
    raise AssertionError(kind)


def _diverse_splits(n, rng):
    """10-fold cv (fewer folds below 10 instances), 2 x 2 cv, random 90/10 and 2/3-1/3 subsampling."""
    splits = []
    perm = rng.permutation(n)
    for part in np.array_split(perm, min(10, n)):
        splits.append((np.setdiff1d(perm, part), part))
    for _ in range(2):
        perm = rng.permutation(n)
        half = n // 2
        splits += [(perm[:half], perm[half:]), (perm[half:], perm[:half])]
    for frac in (0.9, 2 / 3):
        perm = rng.permutation(n)
        cut = int(round(frac * n))
        splits.append((perm[:cut], perm[cut:]))
    return splits


def _labelled_splits(n, rng, n_runs=3):
    """Runs of k-fold cv (k = 2, 3, ..., at most 10 and n) given by fold labels, as the runner passes them."""
    n_folds = int(rng.integers(2, min(10, n) + 1))
    folds = np.stack([rng.permutation(np.arange(n) % n_folds) for _ in range(n_runs)])
    return _FlatSplits.from_labels(folds, n_folds)


@pytest.mark.parametrize("kind, seed", [("bayesnet", 1), ("skewed", 2), ("many_classes", 3),
                                        ("constant", 4), ("ties", 5), ("tiny", 6)])
def test_fast_path_equals_loop_on_diverse_data(kind, seed):
    # 4 data sets x 16 splits per kind, each compared with NaiveBayes and C45
    # fitted fold by fold on the instances (the reference implementations).
    rng = np.random.default_rng(seed)
    for _ in range(4):
        X, y = _diverse_data(kind, rng)
        splits = _diverse_splits(len(y), rng)
        np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits), _loop(X, y, splits))
        # The kernel that reads fold labels (training counts: the run's minus the test fold's).
        labelled = _labelled_splits(len(y), rng)
        np.testing.assert_array_equal(evaluate_nb_c45(X, y, labelled), _loop(X, y, list(labelled)))


@pytest.mark.slow
def test_fast_path_equals_loop_on_many_diverse_data_sets():
    # 8 more data sets of each kind x 16 splits (768 fold pairs).
    rng = np.random.default_rng(2024)
    for kind in ["bayesnet", "skewed", "many_classes", "constant", "ties", "tiny"]:
        for _ in range(8):
            X, y = _diverse_data(kind, rng)
            splits = _diverse_splits(len(y), rng)
            np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits), _loop(X, y, splits))


def test_folds_missing_a_class_or_value_fall_back_and_still_agree():
    # Attribute 0 is 1 only in instance 0 and class 1 occurs only in instances
    # 1 and 2: folds without them change the estimators' n_values / classes.
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(40, 4))
    X[:, 0] = 0
    X[0, 0] = 1
    y = np.zeros(40, dtype=int)
    y[[1, 2]] = 1
    splits = [(np.setdiff1d(np.arange(40), t), t) for t in (np.array([0, 5, 9]), np.array([1, 2, 30]),
                                                          np.array([10, 11, 12]))]
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits), _loop(X, y, splits))


def test_repeated_indices_count_as_often_as_they_occur():
    # Bootstrap-style splits: an index drawn twice is trained on / scored twice.
    X, y = sample_independent_binary(80, n_attributes=5, rng=4)
    rng = np.random.default_rng(5)
    splits = [(rng.integers(0, 80, 80), rng.integers(0, 80, 30)) for _ in range(4)]
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits), _loop(X, y, splits))


@pytest.mark.parametrize("params_b", [{"confidence_factor": 0.1, "min_num_obj": 4, "subtree_raising": False},
                                      {"prune": False}, {"n_classes": 2}])
def test_options_are_honoured(params_b):
    # Modelled options go to the pattern path; the others (prune, n_classes) to the loop.
    X, y = sample_independent_binary(120, n_attributes=6, rng=8)
    splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=4, random_state=0)
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits, params_b=params_b),
                                  _loop(X, y, splits, params_b=params_b))


def test_non_binary_attributes_use_the_loop():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=3, random_state=0)
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits), _loop(X, y, splits))


def _no_loop(monkeypatch):
    """Make the estimator loop fail inside evaluate_nb_c45 / evaluate_pair_fast (the fast path must run)."""
    def fail(*args, **kwargs):
        raise AssertionError("the estimator loop ran")

    monkeypatch.setattr(pairs, "evaluate_pair_loop", fail)


@pytest.mark.parametrize("n_attributes", [2, 62, 63, 64, 128, 256])
def test_fast_path_takes_any_width_and_equals_the_loop(n_attributes, monkeypatch):
    # Rows fill one, two or five int64 words; the class depends on the first
    # and the last attribute, so the trees split on both sides of a word boundary.
    rng = np.random.default_rng(n_attributes)
    X = rng.integers(0, 2, size=(90, n_attributes))
    y = np.where(rng.random(90) < 0.2, rng.integers(0, 2, 90), X[:, 0] | X[:, -1])
    splits, _ = rxk_cv_splits(y, n_runs=2, n_folds=5, random_state=0)
    labelled = _labelled_splits(90, rng)
    want, want_labelled = _loop(X, y, splits), _loop(X, y, list(labelled))
    _no_loop(monkeypatch)
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits), want)
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, labelled), want_labelled)
    for a, b in (("naive_bayes", "c45"), ("c45", "naive_bayes")):
        got = evaluate_pair_fast(X, y, splits, learner_a=a, learner_b=b)
        np.testing.assert_array_equal(got, want if a == "naive_bayes" else want[:, [1, 0, 2]])


@pytest.mark.parametrize("n_train", [2047, 2048, 2049])
def test_fast_path_equals_the_loop_around_2048_training_instances(n_train, monkeypatch):
    # Where the pruning estimates' memo once changed form; a Bayesian-network
    # source gives trees that pruning and subtree raising reshape.
    X, y = bouckaert2003_source(np.random.default_rng(n_train), n_instances=2200, source=1)
    perm = np.random.default_rng(0).permutation(2200)
    splits = [(perm[:n_train], perm[n_train:]), (perm[-n_train:], perm[:-n_train])]
    # Two-fold cv of 2 * n_train instances given by fold labels: both training sets have n_train.
    X2, y2 = bouckaert2003_source(np.random.default_rng(n_train), n_instances=2 * n_train, source=1)
    labelled = _FlatSplits.from_labels(np.random.default_rng(1).permutation(np.arange(2 * n_train) % 2)[None], 2)
    want, want_labelled = _loop(X, y, splits), _loop(X2, y2, list(labelled))
    assert labelled.n_train.tolist() == [n_train, n_train]
    _no_loop(monkeypatch)
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits), want)
    np.testing.assert_array_equal(evaluate_nb_c45(X2, y2, labelled), want_labelled)


def test_runner_results_do_not_depend_on_the_fast_path(monkeypatch):
    cfg = ExperimentConfig(source="independent_binary", learners=["naive_bayes", "c45"],
                           source_params={"n_attributes": 6}, scheme="cv",
                           scheme_params={"n_runs": 2, "n_folds": 5}, n_datasets=2, n_instances=100,
                           n_repeats=2, seed=11)
    fast = run_experiment(cfg, progress=False)
    monkeypatch.delitem(registry.PAIR_EVALUATORS, ("naive_bayes", "c45"))
    slow = run_experiment(cfg, progress=False)
    for name in ("n_test", "correct_both"):
        np.testing.assert_array_equal(fast[name].values, slow[name].values)
    assert fast["correct_both"].shape == (2, 2, 2, 5, 2, 2)


def test_rejects_split_indices_out_of_range():
    X, y = sample_independent_binary(20, n_attributes=3, rng=0)
    with pytest.raises(ValueError, match="`splits`"):
        evaluate_nb_c45(X, y, [(np.arange(10), np.array([25]))])


def test_rejects_split_indices_that_are_not_integers():
    X, y = sample_independent_binary(20, n_attributes=3, rng=0)
    with pytest.raises(ValueError, match="`splits`"):
        evaluate_nb_c45(X, y, [(np.arange(10) * 1.0, np.array([15]))])


def test_evaluators_take_concatenated_splits():
    from replicability.engine.splits import _FlatSplits
    from replicability.learners import C45, NaiveBayes
    from replicability.learners.pairs import evaluate_learners, evaluate_nb_c45
    from replicability.sources.synthetic import sample_independent_binary

    X, y = sample_independent_binary(120, n_attributes=6, rng=3)
    pairs = rxk_cv_splits(y, n_runs=2, n_folds=5, random_state=3)[0]
    train, test = (np.concatenate(part) for part in zip(*pairs))
    sizes = [np.array([len(p[i]) for p in pairs]) for i in (0, 1)]
    flat = _FlatSplits(train, sizes[0], test, sizes[1])
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, flat), evaluate_nb_c45(X, y, pairs))
    learners = [("naive_bayes", NaiveBayes), ("c45", C45)]
    np.testing.assert_array_equal(evaluate_learners(X, y, flat, learners=learners),
                                  evaluate_learners(X, y, pairs, learners=learners))
    bad = _FlatSplits(train + 200, sizes[0], test, sizes[1])  # indices out of range, not built for n
    with pytest.raises(ValueError, match="integer indices in"):
        evaluate_nb_c45(X, y, bad)



@pytest.mark.parametrize("path", ["nb_c45", "pair_fast", "learners", "runner_draw"])
def test_every_compiled_call_runs_with_the_collector_paused(path, monkeypatch):
    # A collection of the Python heap inside a kernel call was once charged to it (issue 36): every
    # numba kernel the path calls (list-of-splits input, as users pass it) must find the collector off.
    import gc
    import sys

    from numba.core.dispatcher import Dispatcher

    from replicability.engine import runner
    from replicability.learners import IB1

    X, y = sample_independent_binary(120, rng=5)
    splits = [tuple(part) for part in rxk_cv_splits(y, n_runs=2, n_folds=5, random_state=3)[0]]
    cfg = ExperimentConfig(source="bayesnet", source_params={"source": 4}, learners=["naive_bayes", "c45"],
                           scheme="rxk_cv", scheme_params={"n_runs": 2, "n_folds": 5}, n_datasets=1,
                           n_instances=60, n_repeats=2, seed=1)
    calls = {"nb_c45": lambda: evaluate_nb_c45(X, y, splits),
             "pair_fast": lambda: evaluate_pair_fast(X, y, splits, learner_a="c45", learner_b="ib1"),
             "learners": lambda: pairs.evaluate_learners(X, y, splits, learners=[("c45", C45), ("ib1", IB1)]),
             "runner_draw": lambda: runner._draw_dataset(runner._resolve(cfg), 0)}
    seen = []

    def watched(kernel):
        def call(*args, **kwargs):
            seen.append((kernel.__name__, gc.isenabled()))
            return kernel(*args, **kwargs)
        return call

    for module in [m for name, m in sys.modules.items() if name.startswith("replicability")]:
        for name, value in list(vars(module).items()):
            if isinstance(value, Dispatcher):
                monkeypatch.setattr(module, name, watched(value))
    assert gc.isenabled()
    calls[path]()
    assert seen, "the path called no compiled kernel"
    assert [name for name, enabled in seen if enabled] == []
    assert gc.isenabled()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(15, 90), st.integers(1, 12), st.integers(2, 3), st.integers(2, 5),
       st.sampled_from([0.25, 0.1, 0.5]), st.integers(1, 3), st.booleans())
def test_fast_path_equals_the_estimators_property(seed, n_samples, n_attributes, n_classes, n_folds,
                                                  confidence_factor, min_num_obj, subtree_raising):
    # Issue 36: any random binary data set, with or without structure, any options the kernel models, the
    # splits in the engine's form (fold labels: _kernels.evaluate_runs) and as a list (evaluate_folds).
    rng = np.random.default_rng(seed)
    X = (rng.random((n_samples, n_attributes)) < rng.uniform(0.1, 0.9, n_attributes)).astype(np.int64)
    noise = rng.random()
    y = np.where(rng.random(n_samples) < noise, rng.integers(0, n_classes, n_samples), X[:, 0] % n_classes)
    y[:n_classes * n_folds] = np.repeat(np.arange(n_classes), n_folds)  # stratified cv: n_folds of every class
    splits, _ = rxk_cv_splits(y, n_runs=2, n_folds=n_folds, random_state=seed % 1000)
    params_b = {"confidence_factor": confidence_factor, "min_num_obj": min_num_obj,
                "subtree_raising": subtree_raising}
    expected = _loop(X, y, splits, params_b=params_b)
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, splits, params_b=params_b), expected)
    as_list = [(np.asarray(train), np.asarray(test)) for train, test in splits]
    np.testing.assert_array_equal(evaluate_nb_c45(X, y, as_list, params_b=params_b), expected)
