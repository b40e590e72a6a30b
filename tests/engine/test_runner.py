"""Tests for the experiment runner (replicability.engine.runner): configs, seeding, backends, slices."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from sklearn.naive_bayes import CategoricalNB
from sklearn.tree import DecisionTreeClassifier

from replicability.engine import registry
from replicability.engine.registry import (
    PAIR_EVALUATORS,
    register_learner,
    register_pair_evaluator,
    register_scheme,
    register_source,
)
from replicability.engine.runner import (
    ExperimentConfig,
    pair_counts,
    run_experiment,
    slice_datasets,
    stack_sources,
)
from replicability.engine.store import ResultStore, dataset_checksum

from ._store_components import BASE


def binary_source(rng, *, n_instances, n_attributes=5, p_class=0.5, delay=0.0):
    """Independent binary attributes; the class copies attribute 0 with 80% probability."""
    if delay:
        import time

        time.sleep(delay)
    X = (rng.random((n_instances, n_attributes)) < 0.5).astype(np.int64)
    noise = rng.random(n_instances) < 0.2
    y = np.where(noise, (rng.random(n_instances) < p_class).astype(np.int64), X[:, 0])
    return X, y


def naive_bayes(**params):
    return CategoricalNB(min_categories=2, **params)


def tree(**params):
    return DecisionTreeClassifier(random_state=0, **params)


register_source("test_binary", binary_source)
register_learner("test_nb", naive_bayes)
register_learner("test_tree", tree)

CV = dict(
    source="test_binary",
    learners=["test_nb", "test_tree"],
    scheme="cv",
    scheme_params={"n_runs": 1, "n_folds": 3},
    n_datasets=6,
    n_instances=40,
    n_repeats=2,
    seed=2005,
)


@pytest.fixture(scope="module")
def config():
    return ExperimentConfig(**CV)


@pytest.fixture(scope="module")
def raw(config):
    return run_experiment(config, progress=False)


@pytest.fixture(scope="module")
def serial(raw):
    return pair_counts(raw)


# -- configuration and hash ------------------------------------------------------------


def test_config_hash_independent_of_dict_order():
    a = ExperimentConfig(**{**CV, "source_params": {"n_attributes": 5, "p_class": 0.3}})
    b = ExperimentConfig(**{**CV, "source_params": {"p_class": 0.3, "n_attributes": 5}})
    assert a.config_hash == b.config_hash
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1


def test_config_hash_changes_with_any_field(config):
    other = ExperimentConfig(**{**CV, "seed": 2006})
    assert other.config_hash != config.config_hash
    other = ExperimentConfig(**{**CV, "scheme_params": {"n_runs": 1, "n_folds": 4}})
    assert other.config_hash != config.config_hash


def test_config_hash_stable_across_processes(config):
    # A fresh interpreter with its own hash randomization must give the same digest.
    code = (
        "from replicability.engine.runner import ExperimentConfig;"
        f"print(ExperimentConfig(**{CV!r}).config_hash)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": "12345"}
    )
    assert out.stdout.strip() == config.config_hash


def test_config_json_round_trip_and_canonical(config):
    text = config.to_json()
    assert json.loads(text)["scheme_params"] == {"n_folds": 3, "n_runs": 1}
    assert " " not in text
    assert ExperimentConfig.from_json(text) == config


def test_config_tuples_canonicalized_to_lists():
    a = ExperimentConfig(**{**CV, "source_params": {"sizes": (1, 2)}})
    b = ExperimentConfig(**{**CV, "source_params": {"sizes": [1, 2]}})
    assert a.config_hash == b.config_hash


# -- results -----------------------------------------------------------------------------


def test_result_layout(raw, serial):
    assert raw.sizes == {"dataset": 6, "repeat": 2, "run": 1, "fold": 3, "learner": 2, "other": 2}
    assert raw.correct_both.dims == ("dataset", "repeat", "run", "fold", "learner", "other")
    xr.testing.assert_equal(raw.correct_both, raw.correct_both.transpose(..., "other", "learner")
                            .rename(other="learner", learner="other"))  # symmetric
    assert serial.sizes == {"dataset": 6, "repeat": 2, "run": 1, "fold": 3}
    for name in ("n_test", "correct_a", "correct_b", "correct_both"):
        assert serial[name].dims == ("dataset", "repeat", "run", "fold")
        assert np.issubdtype(serial[name].dtype, np.integer)
    # 3-fold cv of 40 instances: folds of 14, 13, 13 cover every instance once per run.
    np.testing.assert_array_equal(serial.n_test.sum("fold"), 40)
    assert sorted(serial.n_test.isel(dataset=0, repeat=0, run=0).values.tolist()) == [13, 13, 14]
    assert (serial.correct_both <= np.minimum(serial.correct_a, serial.correct_b)).all()
    assert (serial.correct_a + serial.correct_b - serial.correct_both <= serial.n_test).all()


def test_provenance_attrs(serial, config):
    attrs = serial.attrs
    assert attrs["config"] == config.to_json()
    assert attrs["config_hash"] == config.config_hash
    assert attrs["seed"] == 2005
    for key in ("package_version", "git_commit", "machine", "python", "created_utc"):
        assert isinstance(attrs[key], str) and attrs[key]
    assert attrs["wall_time_s"] > 0


def test_matches_direct_fit_predict(serial, config):
    # Recompute data set 4, repeat 1, run 0 by hand from the documented seed derivation.
    from sklearn.model_selection import KFold

    data_rng = np.random.default_rng(np.random.SeedSequence(config.seed, spawn_key=(4, 0)))
    X, y = binary_source(data_rng, n_instances=40)
    split_rng = np.random.default_rng(np.random.SeedSequence(config.seed, spawn_key=(4, 1, 1)))
    seed = int(split_rng.integers(0, 2**32, size=1)[0])
    for k, (train, test) in enumerate(KFold(3, shuffle=True, random_state=seed).split(X)):
        hit_a = naive_bayes().fit(X[train], y[train]).predict(X[test]) == y[test]
        hit_b = tree().fit(X[train], y[train]).predict(X[test]) == y[test]
        cell = serial.isel(dataset=4, repeat=1, run=0, fold=k)
        assert int(cell.n_test) == len(test)
        assert int(cell.correct_a) == hit_a.sum()
        assert int(cell.correct_b) == hit_b.sum()
        assert int(cell.correct_both) == (hit_a & hit_b).sum()


def test_same_seed_same_result_different_seed_differs(raw, serial, config):
    again = run_experiment(config, progress=False, chunk_size=1)
    xr.testing.assert_identical(again.drop_attrs(), raw.drop_attrs())
    other = pair_counts(run_experiment(ExperimentConfig(**{**CV, "seed": 1}), progress=False))
    assert not np.array_equal(other.correct_a.values, serial.correct_a.values)


def test_repeats_differ(serial):
    # Different randomizations of the splits give different folds.
    assert not np.array_equal(serial.correct_a.isel(repeat=0).values, serial.correct_a.isel(repeat=1).values)


def test_slice_equals_slice_of_full_run(raw, config):
    part = run_experiment(config, progress=False, datasets=range(3, 6))
    xr.testing.assert_identical(part.drop_attrs(), raw.isel(dataset=slice(3, 6)).drop_attrs())
    single = run_experiment(config, progress=False, datasets=[5, 1])
    xr.testing.assert_identical(single.drop_attrs(), raw.sel(dataset=[1, 5]).drop_attrs())


def test_processes_backend_bit_identical(raw, config):
    par = run_experiment(config, backend="processes", n_jobs=2, chunk_size=2, progress=False)
    xr.testing.assert_identical(par.drop_attrs(), raw.drop_attrs())


def test_dask_backend_bit_identical(raw, config):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, processes=False, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        res = run_experiment(config, backend="dask", client=client, chunk_size=1, progress=False)
    xr.testing.assert_identical(res.drop_attrs(), raw.drop_attrs())


def _same_bytes(result, reference):
    """Equal arrays and coordinates, and equal checksums of the data (the provenance aside)."""
    xr.testing.assert_identical(result.drop_attrs(), reference.drop_attrs())
    assert dataset_checksum(result.drop_attrs()) == dataset_checksum(reference.drop_attrs())


@pytest.mark.parametrize("joblib_backend", ["loky", "threading", "multiprocessing"])
def test_joblib_backend_bit_identical_under_each_of_joblibs_backends(raw, config, joblib_backend, tmp_path):
    import joblib

    with joblib.parallel_config(backend=joblib_backend, n_jobs=2):
        res = run_experiment(config, backend="joblib", chunk_size=1, progress=False)
        stored = run_experiment(config, backend="joblib", chunk_size=2, store=tmp_path, progress=False)
    _same_bytes(res, raw)
    _same_bytes(ResultStore(tmp_path).load(config, versions=config.code_versions), raw)
    assert stored.attrs["config_hash"] == config.config_hash


def test_joblib_backend_bit_identical_on_dasks_joblib_backend(raw, config):
    import joblib

    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, processes=False, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster), joblib.parallel_config(backend="dask"):
        res = run_experiment(config, backend="joblib", chunk_size=1, progress=False)
    _same_bytes(res, raw)


# -- slices of an array job ------------------------------------------------------------------


def test_slices_partition_the_data_sets_and_each_equals_its_part_of_the_full_run(raw, config, tmp_path):
    shares = [slice_datasets(config, (i, 4)) for i in range(4)]
    assert np.array_equal(np.concatenate(shares), np.arange(config.n_datasets))
    assert [len(s) for s in shares] == [2, 2, 1, 1]
    for i in (3, 0):
        part = run_experiment(config, store=tmp_path, slice=(i, 4), progress=False)
        _same_bytes(part, raw.sel(dataset=shares[i]))
    assert config not in ResultStore(tmp_path)  # a slice stores chunks only
    stored = np.concatenate([p["dataset"].values for p in ResultStore(tmp_path).load_parts(config)])
    assert sorted(stored) == [0, 1, 5]


@pytest.mark.parametrize("bad", [(4, 4), (-1, 4), (0, 7), (0, 0), (1.0, 2), "0/2", (1, 2, 3)])
def test_bad_slice(config, bad, tmp_path):
    with pytest.raises(ValueError, match=r"`slice` must be \(i, n\) with 0 <= i < n <= n_datasets \(6\)"):
        run_experiment(config, store=tmp_path, slice=bad, progress=False)


def test_slice_needs_a_store_and_excludes_datasets(config, tmp_path):
    with pytest.raises(ValueError, match="`slice` \\(0, 2\\) needs a `store`"):
        run_experiment(config, slice=(0, 2), progress=False)
    with pytest.raises(ValueError, match="`datasets` and `slice` are exclusive"):
        run_experiment(config, store=tmp_path, slice=(0, 2), datasets=[1], progress=False)


# -- schemes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scheme", "params", "sizes", "n_test"),
    [
        ("resample", {"n_runs": 3, "test_size": 0.25}, (3, 1), 10),
        ("5x2", {}, (5, 2), 20),
        ("cv", {"n_runs": 1, "n_folds": 4, "stratified": True}, (1, 4), 10),
    ],
)
def test_builtin_schemes(scheme, params, sizes, n_test):
    cfg = ExperimentConfig(**{**CV, "scheme": scheme, "scheme_params": params, "n_datasets": 2})
    res = run_experiment(cfg, progress=False)
    assert (res.sizes["run"], res.sizes["fold"]) == sizes
    np.testing.assert_array_equal(res.n_test, n_test)


def test_stratified_cv_keeps_class_proportions():
    # A scheme registered here records the class counts of each test fold.
    def source(rng, *, n_instances):
        return np.zeros((n_instances, 1), dtype=int), np.repeat([0, 1], [30, 10])

    register_source("test_skewed", source)
    cfg = ExperimentConfig(
        **{**CV, "source": "test_skewed", "n_datasets": 1,
           "scheme_params": {"n_runs": 1, "n_folds": 5, "stratified": True}}
    )
    res = run_experiment(cfg, progress=False)
    np.testing.assert_array_equal(res.n_test, 8)
    # Naive Bayes on a constant attribute predicts the majority: 6 of 8 per fold.
    np.testing.assert_array_equal(pair_counts(res).correct_a, 6)


def test_custom_scheme_registration():
    def halves(**params):
        def split(X, y, rng):
            perm = rng.permutation(len(y))
            return [[(perm[: len(y) // 2], perm[len(y) // 2 :])]]

        return split

    register_scheme("test_halves", halves)
    res = run_experiment(ExperimentConfig(**{**CV, "scheme": "test_halves", "scheme_params": {}}), progress=False)
    assert res.sizes["run"] == 1 and res.sizes["fold"] == 1
    np.testing.assert_array_equal(res.n_test, 20)


@pytest.mark.parametrize("uneven", ["folds", "repeats"])
def test_scheme_must_give_the_same_runs_and_folds(uneven):
    def ragged(**params):
        def split(X, y, rng):
            half = (np.arange(len(y) // 2), np.arange(len(y) // 2, len(y)))
            if uneven == "folds":  # the second run has one fold more
                return [[half], [half, half[::-1]]]
            return [[half]] * int(rng.integers(1, 3))  # one or two runs, by repeat

        return split

    register_scheme(f"test_ragged_{uneven}", ragged)
    cfg = ExperimentConfig(**{**CV, "scheme": f"test_ragged_{uneven}", "scheme_params": {}, "n_repeats": 6})
    with pytest.raises(ValueError, match="same number of runs and folds"):
        run_experiment(cfg, progress=False)


# -- pair evaluator fast path ----------------------------------------------------------------


def test_pair_evaluator_used_and_equal_to_fallback(raw):
    calls = []

    def fast(X, y, splits, *, params_a, params_b):
        calls.append(len(splits))
        out = []
        for train, test in splits:
            # Independent of the fallback's code: predict the tree's and NB's labels
            # through one vectorized comparison per split.
            pa = naive_bayes(**params_a).fit(X[train], y[train]).predict(X[test])
            pb = tree(**params_b).fit(X[train], y[train]).predict(X[test])
            hits = np.stack([pa, pb]) == y[test]
            out.append([hits[0].sum(), hits[1].sum(), hits.all(axis=0).sum()])
        return np.array(out)

    register_pair_evaluator("test_nb", "test_tree", fast)
    try:
        res = run_experiment(ExperimentConfig(**CV), progress=False)
    finally:
        del PAIR_EVALUATORS[("test_nb", "test_tree")]
    # One call per data set, with all 2 repeats x 1 run x 3 folds at once.
    assert calls == [6] * 6
    xr.testing.assert_identical(res.drop_attrs(), raw.drop_attrs())


# -- stacking -------------------------------------------------------------------------------


def test_stack_sources(raw, config):
    other_cfg = ExperimentConfig(**{**CV, "source_params": {"p_class": 0.2}})
    other = run_experiment(other_cfg, progress=False)
    stacked = stack_sources([raw, other], names=["even", "skewed"])
    assert stacked.n_test.dims == ("source", "dataset", "repeat", "run", "fold")
    assert list(stacked.source.values) == ["even", "skewed"]
    xr.testing.assert_identical(stacked.sel(source="skewed", drop=True).drop_attrs(), other.drop_attrs())
    assert [c["source_params"] for c in json.loads(stacked.attrs["configs"])] == [{}, {"p_class": 0.2}]
    default = stack_sources([raw, other])
    assert default.source.values[0] == f"test_binary {config.config_hash[:8]}"


# -- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["n_datasets", "n_instances", "n_repeats"])
def test_config_rejects_nonpositive_counts(field):
    with pytest.raises(ValueError, match=f"`{field}`"):
        ExperimentConfig(**{**CV, field: 0})


def test_config_rejects_negative_seed():
    with pytest.raises(ValueError, match="`seed`"):
        ExperimentConfig(**{**CV, "seed": -1})


def test_config_rejects_empty_name():
    with pytest.raises(ValueError, match="`learners`"):
        ExperimentConfig(**{**CV, "learners": ["test_nb", ""]})
    with pytest.raises(ValueError, match="`learners`"):
        ExperimentConfig(**{**CV, "learners": "test_nb"})
    with pytest.raises(ValueError, match="`learner_params`"):
        ExperimentConfig(**{**CV, "learner_params": [{}]})


def test_config_rejects_non_plain_params():
    with pytest.raises(TypeError, match="`source_params`"):
        ExperimentConfig(**{**CV, "source_params": {"rng": np.random.default_rng(0)}})


def test_unregistered_name():
    with pytest.raises(ValueError, match="`source`"):
        run_experiment(ExperimentConfig(**{**CV, "source": "nope"}), progress=False)


def test_bad_backend(config):
    with pytest.raises(ValueError, match="`backend`"):
        run_experiment(config, backend="threads")


def test_bad_datasets(config):
    with pytest.raises(ValueError, match="`datasets`"):
        run_experiment(config, datasets=[6])


def test_bad_chunk_size(config):
    with pytest.raises(ValueError, match="`chunk_size`"):
        run_experiment(config, chunk_size=0)


def test_bad_n_jobs(config):
    with pytest.raises(ValueError, match="`n_jobs`"):
        run_experiment(config, backend="processes", n_jobs=0)


def test_bad_config_type():
    with pytest.raises(TypeError, match="`config`"):
        run_experiment(CV)


def test_bad_scheme_params():
    with pytest.raises(ValueError, match="`n_folds`"):
        run_experiment(ExperimentConfig(**{**CV, "scheme_params": {"n_folds": 1}}))


def test_bad_store_type(config):
    with pytest.raises(TypeError, match="`store`"):
        run_experiment(config, store=3)


# -- k learners ---------------------------------------------------------------------------------


def test_k_learners_fitted_once_per_split_equal_the_pairwise_runs():
    # Three learners at once: every pair's statistics equal those of the pair's own run,
    # and each learner is fitted once per split, not once per pair.
    fits = []

    def counting_tree(**params):
        fits.append(1)
        return tree(**params)

    register_learner("test_tree_counted", counting_tree)
    three = ExperimentConfig(**{**CV, "learners": ["test_nb", "test_tree_counted", "test_nb"],
                                "learner_params": [{}, {}, {"alpha": 5.0}]})
    res = run_experiment(three, progress=False)
    assert res.sizes["learner"] == 3
    assert len(fits) == 6 * 2 * 3  # data sets x repeats x folds
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        names = [three.learners[a], three.learners[b]]
        alone = run_experiment(ExperimentConfig(**{**CV, "learners": names,
                                                   "learner_params": [three.learner_params[a],
                                                                      three.learner_params[b]]}), progress=False)
        xr.testing.assert_identical(pair_counts(res, a, b).drop_attrs(), pair_counts(alone).drop_attrs())
    with pytest.raises(ValueError, match="`b`"):
        pair_counts(res, 0, 3)


# -- seeds of the rxk cv scheme -----------------------------------------------------------------


def test_runner_draws_the_rxk_cv_seeds_as_the_repeats_generators_do(monkeypatch):
    # The runner draws every repeat's seed in one compiled call (from_seeds); the scheme called
    # with each repeat's generator, as for any scheme, gives the same splits.
    cfg = ExperimentConfig(source="bayesnet", source_params={"source": 2}, learners=["naive_bayes", "c45"],
                           scheme="rxk_cv", scheme_params={"n_runs": 2, "n_folds": 5}, n_datasets=3,
                           n_instances=80, n_repeats=3, seed=5)
    assert hasattr(registry.SCHEMES["rxk_cv"](), "from_seeds")
    seeded = run_experiment(cfg, progress=False)
    factory = registry.SCHEMES["rxk_cv"]
    monkeypatch.setitem(registry.SCHEMES, "rxk_cv",
                        lambda **params: (lambda X, y, rng: factory(**params)(X, y, rng)))  # no from_seeds
    drawn = run_experiment(cfg, progress=False)
    for name in ("n_test", "correct_both"):
        np.testing.assert_array_equal(seeded[name].values, drawn[name].values)


# -- prepared pair evaluators -------------------------------------------------------------------


def test_the_runner_prepares_a_group_of_data_sets_before_counting_them(monkeypatch):
    calls = []
    real = registry.PAIR_EVALUATORS[("naive_bayes", "c45")]

    def prepare(X, y, splits, **params):
        calls.append("prepare")
        count = real.prepare(X, y, splits, **params)
        return lambda: calls.append("count") or count()

    def evaluate(X, y, splits, **params):
        return prepare(X, y, splits, **params)()

    evaluate.prepare = prepare
    cfg = ExperimentConfig(source="independent_binary", learners=["naive_bayes", "c45"], scheme="rxk_cv",
                           scheme_params={"n_runs": 2, "n_folds": 5}, n_datasets=3, n_instances=60, seed=2)
    want = run_experiment(cfg, progress=False)
    monkeypatch.setitem(registry.PAIR_EVALUATORS, ("naive_bayes", "c45"), evaluate)
    got = run_experiment(cfg, progress=False, chunk_size=3)
    assert calls == ["prepare"] * 3 + ["count"] * 3
    for name in ("n_test", "correct_both"):
        np.testing.assert_array_equal(got[name].values, want[name].values)


# -- a resumed run and the code of its chunks -------------------------------------------------

_CODE = {
    "old": "def depth_tree(**params):\n    return DecisionTreeClassifier(max_depth=1, random_state=0, **params)\n",
    "new": "def depth_tree(**params):\n    return DecisionTreeClassifier(max_depth=2, random_state=0, **params)\n",
}

_RESUME_CHILD = """
import json, sys, warnings
sys.path[:0] = [{folder!r}, {tests!r}]
import _store_components
from sklearn.tree import DecisionTreeClassifier
import depth_tree_module
from replicability.engine import runner
from replicability.engine.registry import register_learner
register_learner("depth_tree", depth_tree_module.depth_tree)  # version 1, whatever the code
drawn = []
draw = runner._draw_dataset
runner._draw_dataset = lambda plan, index: drawn.append(index) or draw(plan, index)
cfg = runner.ExperimentConfig(**{{**_store_components.BASE, "learners": ["store_nb", "depth_tree"]}})
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    res = runner.run_experiment(cfg, store={store!r}, progress=False, datasets={datasets!r}, chunk_size=1)
print(json.dumps({{"drawn": sorted(drawn), "warnings": [str(w.message) for w in caught],
                  "correct": res["correct_both"].values.tolist()}}))
"""


def _run_with_code(tmp_path, code, store, datasets=None):
    """Run the experiment in a new process whose learner ``depth_tree`` has the source ``code``."""
    folder = tmp_path / code
    folder.mkdir(exist_ok=True)
    (folder / "depth_tree_module.py").write_text("from sklearn.tree import DecisionTreeClassifier\n\n\n" + _CODE[code])
    script = _RESUME_CHILD.format(folder=str(folder), tests=str(Path(__file__).parent), store=str(store),
                                  datasets=datasets)
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr
    return json.loads(child.stdout)


def test_a_resumed_run_refuses_chunks_of_other_code_at_the_same_version(tmp_path):
    # A run killed after data sets 1 and 3; the learner's code then changes, its version does not.
    _run_with_code(tmp_path, "old", tmp_path / "store", datasets=[1, 3])
    new = _run_with_code(tmp_path, "new", tmp_path / "store")
    assert new["drawn"] == [0, 1, 2, 3, 4]  # nothing of the old code's chunks is joined
    assert sum("was computed by other code" in w for w in new["warnings"]) == 2
    assert new == {**_run_with_code(tmp_path, "new", tmp_path / "fresh"), "warnings": new["warnings"]}
    # The same code in another process does resume from its chunks.
    _run_with_code(tmp_path, "old", tmp_path / "again", datasets=[1, 3])
    resumed = _run_with_code(tmp_path, "old", tmp_path / "again")
    assert resumed["drawn"] == [0, 2, 4] and resumed["warnings"] == []
    assert resumed["correct"] == _run_with_code(tmp_path, "old", tmp_path / "fresh_old")["correct"]
    assert resumed["correct"] != new["correct"]  # the two codes do give other counts


# -- two runs of one experiment at once ---------------------------------------------------------

_CONCURRENT_CHILD = """
import json, sys
sys.path.insert(0, {tests!r})
import _store_components
from replicability.engine import runner
drawn = []
draw = runner._draw_dataset
runner._draw_dataset = lambda plan, index: drawn.append(index) or draw(plan, index)
cfg = runner.ExperimentConfig(**{{**_store_components.BASE, **{extra!r}}})
print("started", flush=True)
sys.stdin.readline()  # both start together
res = runner.run_experiment(cfg, store={store!r}, progress=False, chunk_size=1)
print(json.dumps({{"drawn": sorted(drawn), "correct": res["correct_both"].values.tolist()}}))
"""


def test_two_runs_of_one_experiment_at_once_one_waits_and_reads_the_others_result(tmp_path):
    tests = Path(__file__).parent
    extra = {"n_datasets": 8, "source_params": {"delay": 0.05}}
    config = ExperimentConfig(**{**BASE, **extra})
    expected = run_experiment(config, progress=False)["correct_both"].values.tolist()
    for trial in range(6):
        store = tmp_path / f"store{trial}"
        # A previous run left chunks of data sets 2 and 5: both runs would resume from them.
        run_experiment(config, store=ResultStore(store), progress=False, datasets=[2, 5], chunk_size=1)
        code = _CONCURRENT_CHILD.format(tests=str(tests), extra=extra, store=str(store))
        children = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True) for _ in range(2)]
        for child in children:
            assert child.stdout.readline().strip() == "started"
        for child in children:
            child.stdin.write("go\n")
            child.stdin.flush()
        outs = []
        for child in children:
            out, err = child.communicate(timeout=300)
            assert child.returncode == 0, err
            outs.append(json.loads(out))
        assert all(out["correct"] == expected for out in outs)
        # One run computed the six missing data sets; the other waited and read its result.
        assert sorted(len(out["drawn"]) for out in outs) == [0, 6]
        assert config in ResultStore(store) and not ResultStore(store).parts_dir(config).exists()
