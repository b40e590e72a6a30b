"""Tests for replicability.engine.registry: the registered learners, sources, schemes and pair evaluators."""

import numpy as np
import pytest
from sklearn.model_selection import RepeatedStratifiedKFold

from replicability.engine import registry
from replicability.engine.registry import SCHEMES
from replicability.engine.runner import ExperimentConfig
from replicability.engine.splits import rxk_cv_splits
from replicability.learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron
from replicability.learners.pairs import evaluate_nb_c45
from replicability.sources.synthetic import sample_independent_binary


@pytest.mark.parametrize(("scheme", "params"), [("cv", {"n_runs": 3, "n_folds": 4, "stratified": True}),
                                               ("5x2", {"stratified": True})])
@pytest.mark.parametrize("labels", [[0, 1], ["b", "a", "c"]])
def test_stratified_schemes_give_scikit_learns_splits(scheme, params, labels):
    # One StratifiedKFold(shuffle=True, random_state=seed) per run, seeds from the repeat's stream.
    from sklearn.model_selection import StratifiedKFold

    y = np.random.default_rng(3).choice(labels, size=37)  # uneven class counts
    y[:2] = labels[:2]
    X = np.zeros((y.size, 1))
    split = SCHEMES[scheme](**params)
    runs = split(X, y, np.random.default_rng(11))
    seeds = np.random.default_rng(11).integers(0, 2**32, size=len(runs))
    for run, seed in zip(runs, seeds):
        n_folds = len(run)
        expected = StratifiedKFold(n_folds, shuffle=True, random_state=int(seed)).split(X, y)
        for (train, test), (train_sk, test_sk) in zip(run, expected, strict=True):
            np.testing.assert_array_equal(train, train_sk)
            np.testing.assert_array_equal(test, test_sk)


def test_swapped_pair_swaps_the_counts():
    X, y = sample_independent_binary(100, n_attributes=5, rng=2)
    splits, _ = rxk_cv_splits(y, n_runs=1, n_folds=5, random_state=0)
    ab = registry.PAIR_EVALUATORS[("naive_bayes", "c45")](X, y, splits, params_a={}, params_b={})
    ba = registry.PAIR_EVALUATORS[("c45", "naive_bayes")](X, y, splits, params_a={}, params_b={})
    np.testing.assert_array_equal(ba, ab[:, [1, 0, 2]])


def test_registrations():
    assert registry.LEARNERS["naive_bayes"] is NaiveBayes
    assert registry.LEARNERS["c45"] is C45
    assert registry.LEARNERS["ib1"] is IB1
    assert registry.LEARNERS["tan"] is TAN
    assert registry.LEARNERS["voted_perceptron"] is VotedPerceptron
    assert {"independent_binary", "cv", "resample", "5x2", "rxk_cv"} <= set(registry.SOURCES) | set(
        registry.SCHEMES)
    assert registry.PAIR_EVALUATORS[("naive_bayes", "c45")] is evaluate_nb_c45
    # Every built-in component the runner can name has a declared code version.
    for kind, table in (("learner", registry.LEARNERS), ("source", registry.SOURCES), ("scheme", registry.SCHEMES)):
        assert all(f"{kind}:{name}" in registry.VERSIONS for name in table)
    cfg = ExperimentConfig(source="bayesnet", learners=["naive_bayes", "c45"], scheme="rxk_cv")
    assert cfg.code_versions == registry.code_versions(
        "source:bayesnet", "learner:naive_bayes", "learner:c45", "scheme:rxk_cv", "kernel:pairs")
    with pytest.raises(KeyError, match="No code version"):
        registry.code_versions("learner:nonexistent")


def test_independent_binary_source_uses_the_runner_generator():
    source = registry.SOURCES["independent_binary"]
    X1, y1 = source(np.random.default_rng(3), n_instances=50, class_probability=0.2)
    X2, y2 = sample_independent_binary(50, class_probability=0.2, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)


def test_rxk_cv_scheme_is_run_major_and_covers_every_instance_once_per_run():
    split = registry.SCHEMES["rxk_cv"](n_runs=3, n_folds=4)
    y = np.arange(40) % 2
    runs = split(np.zeros((40, 1)), y, np.random.default_rng(0))
    assert len(runs) == 3 and all(len(run) == 4 for run in runs)
    for run in runs:
        np.testing.assert_array_equal(np.sort(np.concatenate([test for _, test in run])), np.arange(40))
    again = split(np.zeros((40, 1)), y, np.random.default_rng(0))
    np.testing.assert_array_equal(runs[2][1][1], again[2][1][1])


def test_rxk_cv_experimenter_order_keeps_the_folds_and_ib1_fast_path_follows_the_order():
    # train_order="experimenter" only reorders the training rows; the pair kernel of IB1 (first of
    # equally near neighbours) must count as the estimator fitted on the rows in that order.
    from replicability.learners import IB1
    y = np.arange(60) % 2
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(60, 4))
    sorted_runs = registry.SCHEMES["rxk_cv"](n_runs=2, n_folds=5)(X, y, np.random.default_rng(7))
    shuffled_runs = registry.SCHEMES["rxk_cv"](n_runs=2, n_folds=5, train_order="experimenter")(
        X, y, np.random.default_rng(7))
    flat = [fold for run in shuffled_runs for fold in run]
    for (tr, te), (tr0, te0) in zip(flat, [fold for run in sorted_runs for fold in run]):
        assert np.array_equal(np.sort(tr), tr0) and np.array_equal(te, te0)
    assert any(not np.array_equal(tr, np.sort(tr)) for tr, _ in flat)
    counts = registry.PAIR_EVALUATORS[("ib1", "c45")](X, y, flat, params_a={}, params_b={})
    ours = [int((IB1().fit(X[tr], y[tr]).predict(X[te]) == y[te]).sum()) for tr, te in flat]
    assert counts[:, 0].tolist() == ours
    # ... and the order matters here (ties between equally near neighbours of different classes)
    assert ours != [int((IB1().fit(X[np.sort(tr)], y[np.sort(tr)]).predict(X[te]) == y[te]).sum()) for tr, te in flat]
    with pytest.raises(ValueError, match="train_order"):
        registry.SCHEMES["rxk_cv"](train_order="weka")



@pytest.mark.parametrize("labels", [[0, 1], ["b", "a", "c"]])
def test_rxk_cv_scheme_gives_repeated_stratified_kfolds_splits(labels):
    from replicability.engine.registry import SCHEMES

    y = np.random.default_rng(5).choice(labels, size=53)
    y[:len(labels)] = labels
    X = np.zeros((y.size, 1))
    for repeat in range(3):  # later repeats reuse the class blocks of the same y
        runs = SCHEMES["rxk_cv"](n_runs=3, n_folds=4)(X, y, np.random.default_rng(repeat))
        seed = int(np.random.default_rng(repeat).integers(0, 2**32))
        expected = RepeatedStratifiedKFold(n_splits=4, n_repeats=3, random_state=seed).split(X, y)
        ours = [pair for run in runs for pair in run]
        for (train, test), (train_sk, test_sk) in zip(ours, expected, strict=True):
            np.testing.assert_array_equal(train, train_sk)
            np.testing.assert_array_equal(test, test_sk)


def _factory_a():
    return NaiveBayes()


def _factory_b():
    return C45()


@pytest.mark.parametrize("register", [registry.register_learner, registry.register_source,
                                      registry.register_scheme])
def test_a_version_names_one_factory(register):
    name = f"reg_{register.__name__}"
    table = {registry.register_learner: registry.LEARNERS, registry.register_source: registry.SOURCES,
             registry.register_scheme: registry.SCHEMES}[register]
    kind = register.__name__.removeprefix("register_")
    assert register(name, _factory_a) is _factory_a
    assert register(name, _factory_a) is _factory_a  # the same factory again
    with pytest.raises(ValueError, match=f"`{kind}:{name}` version 1 is registered already"):
        register(name, _factory_b)
    assert table[name] is _factory_a and registry.VERSIONS[f"{kind}:{name}"] == 1  # nothing changed
    register(name, _factory_b, version=2)
    assert table[name] is _factory_b and registry.VERSIONS[f"{kind}:{name}"] == 2
    with pytest.raises(ValueError, match="version 2 is registered already"):
        register(name, _factory_a, version=2)
    register(name, _factory_a)  # back to version 1's own factory
    assert table[name] is _factory_a and registry.VERSIONS[f"{kind}:{name}"] == 1


def test_a_built_in_learner_cannot_be_replaced_at_its_version():
    # The case: register_learner("c45", other_factory) at the default version 1.
    with pytest.raises(ValueError, match="`learner:c45` version 1 is registered already"):
        registry.register_learner("c45", _factory_a)
    assert registry.LEARNERS["c45"] is C45 and registry.VERSIONS["learner:c45"] == 1


def test_a_pair_evaluator_version_names_one_evaluator():
    def first(X, y, splits, *, params_a, params_b):
        return np.zeros((len(splits), 3), dtype=int)

    def second(X, y, splits, *, params_a, params_b):
        return np.ones((len(splits), 3), dtype=int)

    try:
        registry.register_pair_evaluator("reg_a", "reg_b", first)
        with pytest.raises(ValueError, match="`kernel:reg_a/reg_b` version 1 is registered already"):
            registry.register_pair_evaluator("reg_a", "reg_b", second)
        assert registry.PAIR_EVALUATORS[("reg_a", "reg_b")] is first
    finally:
        registry.PAIR_EVALUATORS.pop(("reg_a", "reg_b"), None)


def test_code_fingerprint_follows_the_source_not_the_object():
    import functools
    import types

    fingerprint = registry.code_fingerprint
    assert fingerprint(_factory_a) != fingerprint(_factory_b)
    # The same source compiled twice, under two module names (no source file: the bytecode is used).
    source = "def f(**params):\n    return dict(depth=3, **params)\n"
    one, two, other = (types.ModuleType(n) for n in ("one", "two", "other"))
    exec(compile(source, "<one>", "exec"), one.__dict__)
    exec(compile(source, "<two>", "exec"), two.__dict__)
    exec(compile(source.replace("3", "4"), "<other>", "exec"), other.__dict__)
    assert fingerprint(one.f) == fingerprint(two.f) != fingerprint(other.f)
    # A partial by its function and arguments.
    assert fingerprint(functools.partial(one.f, a=1)) == fingerprint(functools.partial(two.f, a=1))
    assert fingerprint(functools.partial(one.f, a=1)) != fingerprint(functools.partial(one.f, a=2))
    assert len(fingerprint(C45)) == 16


def test_registry_names_are_spellings_of_the_one_grammar():
    from replicability.stats.scheme_grammar import SCHEME_ALIASES, parse_scheme

    # every built-in scheme is a name of the grammar, so the grammar parses what the registry runs
    built_in = ("cv", "resample", "5x2", "rxk_cv")
    assert set(built_in) <= set(SCHEMES) and set(built_in) <= set(SCHEME_ALIASES)
    assert parse_scheme("5x2").name == "5x2cv"
    assert parse_scheme("rxk_cv", n_runs=2, n_folds=3).name == "2x3cv"


def test_resolve_scheme_keeps_registered_names_and_maps_the_grammar():
    # registered spellings unchanged: the stored results' keys hash the configuration as written
    assert registry.resolve_scheme("rxk_cv", {"n_runs": 10, "n_folds": 10}) == ("rxk_cv", {"n_runs": 10, "n_folds": 10})
    assert registry.resolve_scheme("5x2", {"stratified": False}) == ("5x2", {"stratified": False})
    assert registry.resolve_scheme("10x10cv") == ("rxk_cv", {"n_runs": 10, "n_folds": 10})
    assert registry.resolve_scheme("resampling", {"n_runs": 30}) == ("resample", {"n_runs": 30})
    with pytest.raises(ValueError, match="`scheme` must be 'RxKcv'"):
        registry.resolve_scheme("10-fold")
    # the grammar's 10 x 10 cv is the registry's rxk_cv: the same splits from the same generator
    y = np.arange(40) % 2
    name, params = registry.resolve_scheme("2x4cv")
    ours = SCHEMES[name](**params)(None, y, np.random.default_rng(3))
    ref = SCHEMES["rxk_cv"](n_runs=2, n_folds=4)(None, y, np.random.default_rng(3))
    for run_a, run_b in zip(ours, ref, strict=True):
        for (tr_a, te_a), (tr_b, te_b) in zip(run_a, run_b, strict=True):
            np.testing.assert_array_equal(tr_a, tr_b)
            np.testing.assert_array_equal(te_a, te_b)


def test_a_grammar_spelling_cannot_be_registered_as_another_scheme():
    with pytest.raises(ValueError, match="spelling of the scheme grammar"):
        registry.register_scheme("10x10cv", SCHEMES["cv"])
    assert "10x10cv" not in SCHEMES


def test_every_committed_result_keeps_its_key_and_its_scheme_parses():
    # A stored result is found by the SHA-256 of its key's JSON (cached_result: name and parameters;
    # run_experiment: the configuration): every committed one must still hash to its file name, and
    # its scheme must be a registered name the grammar parses, resolved to itself (key unchanged).
    import hashlib
    from pathlib import Path

    import h5py

    from replicability.stats.scheme_grammar import parse_scheme

    def text(attrs, name):
        value = attrs.get(name)
        return value.decode() if isinstance(value, bytes) else (None if value is None else str(value))

    files = sorted((Path(__file__).parents[2] / "data" / "results").glob("*.nc"))
    assert len(files) >= 100
    schemes = set()
    for path in files:
        with h5py.File(path, "r") as handle:
            key_json, config, scheme = (text(handle.attrs, n) for n in ("params", "config", "scheme"))
        if key_json:
            key = hashlib.sha256(key_json.encode()).hexdigest()
        else:
            key = ExperimentConfig.from_json(config).config_hash
        assert key == path.stem, path.name
        if scheme is not None:
            schemes.add(scheme)
    assert schemes
    for scheme in schemes:
        assert scheme in SCHEMES
        assert parse_scheme(scheme, n_runs=10, n_folds=10).kind in ("cv", "resampling")
        assert registry.resolve_scheme(scheme, {"n_runs": 10}) == (scheme, {"n_runs": 10})
