"""Tests of the batched per-instance kernels (learners._kernels_more) through learners.pairs.evaluate_pair_fast.

The oracle is always the estimators fitted fold by fold: ``evaluate_pair_loop``
itself, or the same fits (``estimator(**params).fit(X[train], y[train])
.predict(X[test]) == y[test]``) done once per learner and split and combined
into the counts of every pair, so that all 10 pairs can be checked on the
same folds without refitting.
"""

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from replicability.engine import registry
from replicability.engine.runner import ExperimentConfig, run_experiment
from replicability.engine.splits import rxk_cv_splits
from replicability.learners import TAN, _kernels_more, pairs
from replicability.learners.pairs import FAST_LEARNERS, evaluate_pair_fast, evaluate_pair_loop
from replicability.sources.bayesnet import bouckaert2003_source
from replicability.sources.synthetic import sample_independent_binary

NAMES = list(FAST_LEARNERS)
PAIRS = list(itertools.combinations(NAMES, 2))


def _reference_hits(X, y, splits, names=NAMES, params=None):
    """Per learner, the estimator's hits on every split (what evaluate_pair_loop computes)."""
    params = params or {}
    out = {}
    for name in names:
        est = registry.LEARNERS[name]
        out[name] = [est(**params.get(name, {})).fit(X[tr], y[tr]).predict(X[te]) == y[te]
                     for tr, te in splits]
    return out


def _pair_counts(hits, a, b):
    return np.array([[ha.sum(), hb.sum(), (ha & hb).sum()] for ha, hb in zip(hits[a], hits[b])],
                    dtype=np.int64)


def _check_all_pairs(X, y, splits, names=NAMES, params=None):
    params = params or {}
    hits = _reference_hits(X, y, splits, names, params)
    for a, b in itertools.combinations(names, 2):
        for first, second in ((a, b), (b, a)):
            got = evaluate_pair_fast(X, y, splits, learner_a=first, learner_b=second,
                                     params_a=params.get(first), params_b=params.get(second))
            np.testing.assert_array_equal(got, _pair_counts(hits, first, second), err_msg=f"{first}, {second}")


@pytest.fixture
def loop_calls(monkeypatch):
    """Record the splits sent to evaluate_pair_loop (the fall-back) by evaluate_pair_fast."""
    calls = []
    real = pairs.evaluate_pair_loop

    def spy(X, y, splits, **kwargs):
        calls.append(len(splits))
        return real(X, y, splits, **kwargs)

    monkeypatch.setattr(pairs, "evaluate_pair_loop", spy)
    return calls


def _mixed_splits(y, rng):
    """Stratified 2 x 5 cv (rxk_cv_splits), random 2/3 and 90% subsampling, one bootstrap split."""
    n = len(y)
    flat, _ = rxk_cv_splits(y, n_runs=2, n_folds=5, random_state=int(rng.integers(1000)))
    splits = list(flat)
    for frac in (2 / 3, 0.9):
        perm = rng.permutation(n)
        cut = round(frac * n)
        splits.append((perm[:cut], perm[cut:]))
    splits.append((rng.integers(0, n, n), rng.integers(0, n, n // 3)))  # repeated indices
    return splits


# --------------------------------------------------------------------------- every pair vs the loop
@pytest.mark.parametrize("a, b", PAIRS + [("voted_perceptron", "ib1")])
def test_every_pair_equals_the_loop_with_the_estimators(a, b):
    # evaluate_pair_loop itself as the oracle, on 2 x 5 cv plus subsampling.
    X, y = sample_independent_binary(80, n_attributes=6, class_probability=0.3, rng=len(a) + 7 * len(b))
    rng = np.random.default_rng(1)
    splits = _mixed_splits(y, rng)
    est_a, est_b = registry.LEARNERS[a], registry.LEARNERS[b]
    np.testing.assert_array_equal(evaluate_pair_fast(X, y, splits, learner_a=a, learner_b=b),
                                  evaluate_pair_loop(X, y, splits, learner_a=est_a, learner_b=est_b))


@pytest.mark.parametrize("seed, class_probability", [(0, 0.5), (1, 0.1), (2, 0.5), (3, 0.1)])
def test_all_pairs_on_independent_binary_data(seed, class_probability, loop_calls):
    X, y = sample_independent_binary(120, n_attributes=10, class_probability=class_probability, rng=seed)
    _check_all_pairs(X, y, _mixed_splits(y, np.random.default_rng(seed)))
    assert loop_calls == []  # every fold went the compiled way


@pytest.mark.parametrize("source", [1, 2, 3, 4])
def test_all_pairs_on_bayesnet_sources(source, loop_calls):
    # The four Bayesian-network sources of Bouckaert (2003): 300 instances, 10 attributes.
    rng = np.random.default_rng(10 + source)
    X, y = bouckaert2003_source(rng, n_instances=300, source=source)
    flat, _ = rxk_cv_splits(y, n_runs=1, n_folds=10, random_state=source)
    _check_all_pairs(X, y, list(flat[:4]))
    assert loop_calls == []


def test_all_pairs_with_duplicated_rows_and_columns():
    # Three attributes plus copies and complements: few distinct rows, exact IB1
    # distance ties, tied mutual information (TAN tree) and tied gain ratios.
    rng = np.random.default_rng(5)
    base = rng.integers(0, 2, size=(90, 3))
    X = np.column_stack([base, base[:, ::-1], 1 - base[:, :2]])
    y = np.where(rng.random(90) < 0.3, rng.integers(0, 2, 90), base[:, 0] ^ base[:, 1])
    _check_all_pairs(X, y, _mixed_splits(y, rng))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_pairs_on_tiny_data_with_folds_missing_a_class_or_value(seed, loop_calls):
    # n = 20: training sets without a class (VP: one class -> the loop raises,
    # so the class is kept in every training set) or without a value of an attribute.
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(20, 4))
    X[:, 3] = 0
    X[seed, 3] = 1  # attribute 3 is 1 once: the folds without that row miss a value
    y = np.zeros(20, dtype=int)
    y[[1, 2, 3, 19]] = 1
    y[[4, 5, 6]] = 2  # class 2 only in three rows
    splits = [(np.setdiff1d(np.arange(20), te), te) for te in
              (np.array([0, 1, 7]), np.array([4, 5, 6, 8]), np.array([9, 10, 11]), np.array([seed, 12]),
               np.array([2, 13, 14, 15]))]
    _check_all_pairs(X, y, splits, names=[n for n in NAMES if n != "voted_perceptron"])
    y2 = np.where(y == 2, 0, y)  # two classes for the perceptron
    _check_all_pairs(X, y2, splits)
    # Some folds fell back (missing class or value), not all of them (IB1 pairs).
    assert loop_calls and min(loop_calls) < len(splits)


def test_constant_attribute_in_training_is_binarized_as_the_perceptron_does(loop_calls):
    # An attribute always 1 in the training set and 0 in a test row: the
    # estimator's encoding turns it into an unseen value (binarized 1).
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(60, 5))
    X[:, 1] = 1
    X[[0, 1], 1] = 0
    X[:, 4] = 0
    X[2, 4] = 1
    y = (rng.random(60) < 0.5).astype(int)
    splits = [(np.arange(3, 60), np.arange(0, 10)), (np.arange(10, 60), np.arange(0, 10)),
              (np.arange(0, 40), np.arange(40, 60))]
    _check_all_pairs(X, y, splits)
    before = len(loop_calls)
    evaluate_pair_fast(X, y, splits, learner_a="ib1", learner_b="voted_perceptron")
    assert len(loop_calls) == before  # IB1 and VP need no fall-back for constant attributes


def test_three_classes():
    # Naive Bayes, C4.5, IB1 and TAN with three classes (and string labels).
    rng = np.random.default_rng(7)
    X = rng.integers(0, 2, size=(120, 6))
    codes = np.where(rng.random(120) < 0.4, rng.integers(0, 3, 120), (X[:, 0] + X[:, 2]) % 3)
    y = np.array(["a", "b", "c"])[codes]
    _check_all_pairs(X, y, _mixed_splits(codes, rng), names=[n for n in NAMES if n != "voted_perceptron"])


def test_voted_perceptron_with_three_classes_raises_like_the_estimator():
    rng = np.random.default_rng(8)
    X = rng.integers(0, 2, size=(60, 4))
    y = rng.integers(0, 3, 60)
    splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=3, random_state=0)
    with pytest.raises(ValueError, match="binary classification"):
        evaluate_pair_loop(X, y, splits, learner_a=registry.LEARNERS["ib1"],
                           learner_b=registry.LEARNERS["voted_perceptron"])
    with pytest.raises(ValueError, match="binary classification"):
        evaluate_pair_fast(X, y, splits, learner_a="ib1", learner_b="voted_perceptron")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 9), st.integers(2, 3), st.integers(12, 120),
       st.sampled_from([0.5, 1.0, 0.25, 2.0]), st.booleans())
def test_tan_kernel_equals_estimator_property(seed, n_attributes, n_classes, n_samples, alpha, copies):
    # Any small binary data set, with or without copied and complemented columns (exactly
    # tied BAYES gains), whose training set holds both values of every attribute and
    # every class (the folds the kernel takes): the kernel's hits are the estimator's.
    rng = np.random.default_rng(seed)
    X = (rng.random((n_samples, n_attributes)) < rng.uniform(0.1, 0.9, n_attributes)).astype(np.int64)
    if copies and n_attributes > 1:
        X[:, -1] = 1 - X[:, 0]
        X[:, n_attributes // 2] = X[:, 0]
    y = np.where(rng.random(n_samples) < 0.4, rng.integers(0, n_classes, n_samples), X[:, 0] % n_classes)
    perm = rng.permutation(n_samples)
    cut = int(rng.integers(n_samples // 2, n_samples - 1))
    train, test = perm[:cut], perm[cut:]
    assume(np.unique(y[train]).size == n_classes == np.unique(y).size)
    assume(all(np.unique(X[train, j]).size == 2 for j in range(n_attributes)))
    packed = (X << np.arange(n_attributes)).sum(axis=1).astype(np.int64)
    hits = _kernels_more.tan_hits(packed, n_attributes, n_classes, y.astype(np.int64), train.astype(np.int64),
                                  np.array([0, train.size]), test.astype(np.int64), np.array([0, test.size]),
                                  alpha)
    want = TAN(alpha=alpha).fit(X[train], y[train]).predict(X[test]) == y[test]
    np.testing.assert_array_equal(hits, want)


# --------------------------------------------------------------------------- options
def test_modelled_options_are_honoured():
    X, y = sample_independent_binary(90, n_attributes=7, class_probability=0.4, rng=12)
    splits = _mixed_splits(y, np.random.default_rng(12))
    params = {"tan": {"alpha": 1.0}, "c45": {"confidence_factor": 0.1, "min_num_obj": 3},
              "voted_perceptron": {"n_iter": 3, "random_state": 5, "weka_shuffle": True},
              "ib1": {"weka_range_update": True}, "naive_bayes": {"n_values": 2}}
    _check_all_pairs(X, y, splits, params=params)


def test_perceptron_stops_at_max_k_mistakes():
    X, y = sample_independent_binary(80, n_attributes=6, rng=13)
    splits = _mixed_splits(y, np.random.default_rng(13))
    params = {"voted_perceptron": {"max_k": 4, "n_iter": 2, "random_state": 0}}
    _check_all_pairs(X, y, splits, names=["ib1", "voted_perceptron"], params=params)


@pytest.mark.parametrize("params", [{"attribute_types": ["nominal"] * 4}, {"exponent": 2.0},
                                    {"random_state": None}])
def test_options_the_kernels_do_not_model_use_the_loop(params):
    # IB1 with attribute_types / VP with exponent 2 or random_state None: the loop
    # (with random_state=None the perceptron is random, so only shapes and the
    # deterministic learner's counts are compared).
    X, y = sample_independent_binary(60, n_attributes=4, rng=14)
    splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=3, random_state=0)
    name = "ib1" if "attribute_types" in params else "voted_perceptron"
    got = evaluate_pair_fast(X, y, splits, learner_a="tan", learner_b=name, params_b=params)
    want = evaluate_pair_loop(X, y, splits, learner_a=registry.LEARNERS["tan"],
                              learner_b=registry.LEARNERS[name], params_b=params)
    if params.get("random_state", 1) is None:
        np.testing.assert_array_equal(got[:, 0], want[:, 0])
    else:
        np.testing.assert_array_equal(got, want)


def test_non_binary_attributes_use_the_loop():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=3, random_state=0)
    np.testing.assert_array_equal(
        evaluate_pair_fast(X, y, splits, learner_a="ib1", learner_b="voted_perceptron"),
        evaluate_pair_loop(X, y, splits, learner_a=registry.LEARNERS["ib1"],
                           learner_b=registry.LEARNERS["voted_perceptron"]))


def test_rejects_unknown_learner():
    X, y = sample_independent_binary(20, n_attributes=3, rng=0)
    with pytest.raises(ValueError, match="`learner_b`"):
        evaluate_pair_fast(X, y, [(np.arange(10), np.arange(10, 20))], learner_a="ib1", learner_b="svm")


def test_rejects_split_indices_out_of_range():
    X, y = sample_independent_binary(20, n_attributes=3, rng=0)
    with pytest.raises(ValueError, match="`splits`"):
        evaluate_pair_fast(X, y, [(np.arange(10), np.array([25]))], learner_a="ib1", learner_b="tan")


# --------------------------------------------------------------------------- registration and the runner
def test_every_ordered_pair_has_an_evaluator():
    for a, b in itertools.permutations(NAMES, 2):
        assert (a, b) in registry.PAIR_EVALUATORS
    X, y = sample_independent_binary(60, n_attributes=5, rng=3)
    splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=3, random_state=0)
    ab = registry.PAIR_EVALUATORS[("tan", "voted_perceptron")](X, y, splits, params_a={}, params_b={})
    ba = registry.PAIR_EVALUATORS[("voted_perceptron", "tan")](X, y, splits, params_a={}, params_b={})
    np.testing.assert_array_equal(ba, ab[:, [1, 0, 2]])


@pytest.mark.parametrize("pair", sorted(registry.PAIR_EVALUATORS))
def test_a_prepared_pair_evaluator_counts_as_the_evaluator(pair, loop_calls):
    # prepare(...) checks and summarizes now; the callable it returns counts, as often as called.
    evaluate = registry.PAIR_EVALUATORS[pair]
    X, y = sample_independent_binary(24, n_attributes=4, rng=8)
    X[:, 0] = 0
    X[5, 0] = 1  # the split testing instance 5 trains without value 1 of attribute 0
    splits, _ = rxk_cv_splits(y, n_runs=2, n_folds=3, random_state=1)
    for data in (X, X * 2):  # binary codes; codes 0/2: no kernel
        count = evaluate.prepare(data, y, splits, params_a={}, params_b={})
        want = evaluate(data, y, splits, params_a={}, params_b={})
        np.testing.assert_array_equal(count(), want)
        np.testing.assert_array_equal(count(), want)
        np.testing.assert_array_equal(want, _pair_counts(_reference_hits(data, y, splits, list(pair)), *pair))
    assert loop_calls[-3:] == [6, 6, 6]  # codes 0/2: every split to the loop
    # Binary codes: the loop fits the two splits of a learner that needs every value in training, if any.
    assert loop_calls[:-3] in ([], [2, 2, 2])
    if "naive_bayes" in pair:
        assert loop_calls[:-3] == [2, 2, 2]


def test_runner_results_do_not_depend_on_the_fast_path(monkeypatch):
    # The pair evaluator, the per-learner kernels (evaluate_learners) and plain fitting
    # (learners registered under other names, whose factories no kernel models) agree.
    base = dict(source="independent_binary", source_params={"n_attributes": 6}, scheme="rxk_cv",
                scheme_params={"n_runs": 2, "n_folds": 5}, n_datasets=2, n_instances=60, n_repeats=1, seed=11)
    pair = run_experiment(ExperimentConfig(learners=["ib1", "tan"], **base), progress=False)
    monkeypatch.delitem(registry.PAIR_EVALUATORS, ("ib1", "tan"))
    kernels = run_experiment(ExperimentConfig(learners=["ib1", "tan"], **base), progress=False)
    for name in ("ib1", "tan"):
        monkeypatch.setitem(registry.LEARNERS, f"{name}_fitted", lambda name=name, **p: registry.LEARNERS[name](**p))
    fitted = run_experiment(ExperimentConfig(learners=["ib1_fitted", "tan_fitted"], **base), progress=False)
    for name in ("n_test", "correct_both"):
        np.testing.assert_array_equal(pair[name].values, kernels[name].values)
        np.testing.assert_array_equal(pair[name].values, fitted[name].values)
    assert pair["correct_both"].shape == (2, 1, 2, 5, 2, 2)


@pytest.mark.parametrize("n_attributes,binary", [(6, True), (70, True), (4, False)])
def test_evaluate_learners_equals_the_pairwise_loop_for_all_five(n_attributes, binary):
    # Five learners at once, kernels where they apply (not beyond 62 attributes for IB1,
    # TAN and the voted perceptron, not on non-binary data), fitting elsewhere.
    X, y = sample_independent_binary(80, n_attributes=n_attributes, rng=5)
    if not binary:
        X = X + np.random.default_rng(0).integers(0, 2, X.shape)  # values 0..2
    splits, _ = rxk_cv_splits(y, n_runs=2, n_folds=4, random_state=3)
    learners = [(name, registry.LEARNERS[name]) for name in NAMES]
    joint = pairs.evaluate_learners(X, y, splits, learners=learners)
    for (i, (_, est_a)), (j, (_, est_b)) in itertools.combinations(enumerate(learners), 2):
        want = evaluate_pair_loop(X, y, splits, learner_a=est_a, learner_b=est_b)
        np.testing.assert_array_equal(joint[:, [i, j, i], [i, j, j]], want)


def test_exact_ties_go_to_the_first_class():
    # Every row once with each class: the training counts of the two classes are
    # equal, so naive Bayes, TAN and C4.5 tie exactly (first class wins) and IB1
    # picks the first of two instances at distance 0.
    rng = np.random.default_rng(21)
    rows = rng.integers(0, 2, size=(30, 5))
    X = np.repeat(rows, 2, axis=0)
    y = np.tile([1, 0], 30)
    idx = np.arange(60)
    splits = [(idx[:40], idx[40:]), (idx[20:], idx[:20]), (idx[::-1][:44], idx[::-1][44:])]
    _check_all_pairs(X, y, splits)
    got = evaluate_pair_fast(X, y, splits, learner_a="tan", learner_b="naive_bayes")
    np.testing.assert_array_equal(got[:, 0], [10, 10, 8])  # class 0 predicted for every test row


def test_more_than_62_attributes_use_the_loop(loop_calls):
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, size=(30, 63))
    y = (rng.random(30) < 0.5).astype(int)
    splits = [(np.arange(10, 30), np.arange(10)), (np.arange(20), np.arange(20, 30))]
    got = evaluate_pair_fast(X, y, splits, learner_a="ib1", learner_b="naive_bayes")
    assert loop_calls == [2]
    np.testing.assert_array_equal(got, _pair_counts(_reference_hits(X, y, splits, ["ib1", "naive_bayes"]),
                                                    "ib1", "naive_bayes"))
