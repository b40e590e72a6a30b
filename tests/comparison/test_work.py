"""Tests of replicability.comparison.work: splits drawn as used, the data sent to workers once."""

import pickle
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.compose import make_column_transformer
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import check_scoring
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier

import replicability as rp
from replicability.comparison import work
from replicability.comparison.work import SharedData, SplitRecipe, run_repeat
from replicability.engine.splits import RandomSubsampling, RepeatedCV

X, Y = load_iris(return_X_y=True)


def _pairs(splits):
    return [(np.asarray(train), np.asarray(test)) for train, test in splits]


@pytest.mark.parametrize("y", [Y, np.r_[np.zeros(95), np.ones(5)].astype(int)[np.arange(100) * 37 % 100]])
@pytest.mark.parametrize("stratified", [True, False])
def test_the_recipe_draws_the_splits_of_the_engines_splitters(y, stratified):
    # RepeatedCV draws stratified folds in compiled code; the recipe draws scikit-learn's, as used: the same
    rows = np.zeros((y.size, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the class of 5 members: said once by compare, not here
        ours = _pairs(SplitRecipe("cv", 3, 10, stratified=stratified).splits(11, rows, y))
        ref = _pairs(RepeatedCV(3, 10, stratified=stratified, random_state=11).split(rows, y))
    assert len(ours) == len(ref) == 30
    for (a, b), (c, d) in zip(ours, ref, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    ours = _pairs(SplitRecipe("resampling", 7, 1, test_size=0.2, stratified=stratified).splits(5, rows, y))
    ref = _pairs(RandomSubsampling(7, test_size=0.2, stratified=stratified, random_state=5).split(rows, y))
    for (a, b), (c, d) in zip(ours, ref, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


def test_a_small_class_warning_is_left_out_only_when_quiet():
    y = np.r_[np.zeros(20), np.ones(3)].astype(int)
    rows = np.zeros((y.size, 1))
    with pytest.warns(UserWarning, match="least populated class"):
        list(SplitRecipe("cv", 1, 5, stratified=True).splits(0, rows, y))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(SplitRecipe("cv", 1, 5, stratified=True).splits(0, rows, y, quiet=True))
    # the filter is on only while the splitter runs: the same warning from elsewhere passes
    gen = SplitRecipe("cv", 1, 5, stratified=True).splits(0, rows, y, quiet=True)
    next(gen)
    with pytest.warns(UserWarning, match="least populated class"):
        warnings.warn("The least populated class in y has only 3 members", UserWarning, stacklevel=1)
    gen.close()


_LOG = []  # module-level: the splitter and the learner are copied (deepcopy, clone) before use


class _LoggedSplitter:
    """A splitter that logs every split it gives, to see when splits are drawn."""

    random_state = None

    def split(self, X, y=None, groups=None):
        for i, (train, test) in enumerate(GroupKFold(5).split(X, y, np.arange(len(y)) % 5)):
            _LOG.append(f"split {i}")
            yield train, test

    def get_n_splits(self, X=None, y=None, groups=None):
        return 5


class _LoggedLearner(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        _LOG.append("fit")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_splits_are_drawn_as_they_are_used():
    _LOG.clear()
    learner = _LoggedLearner()
    learners = [("A", learner, check_scoring(learner), ())]
    recipe = SplitRecipe("cv", 1, 5, cv=_LoggedSplitter())
    scores, problem, sizes, _ = run_repeat((recipe, 0, 0, [np.zeros((5, 0), dtype=int)], True), learners=learners,
                                        shared=SharedData(((X, Y, Y, None, {}),), share=False))
    assert problem is None and len(scores) == 5 and sizes.tolist() == [[120, 30]] * 5
    # one split drawn, then fitted, before the next is drawn: never all splits at once
    assert _LOG == [entry for i in range(5) for entry in (f"split {i}", "fit")]


def test_shared_data_pickle_the_files_name_not_the_data():
    big = np.random.default_rng(0).normal(size=(20_000, 50))  # 8 MB
    frame = pd.DataFrame({"x": np.arange(5.0), "colour": list("abcab")})
    data = (big, np.arange(20_000) % 2, None, None, {"sample_weight": np.ones(20_000)})
    with SharedData(data, share=True) as shared:
        path = Path(shared.path)
        assert path.is_file()
        sent = pickle.dumps(shared)
        assert len(sent) < 1_000  # the name only: X is 8 MB
        work._MAPPED.clear()  # as in a fresh worker process
        got = pickle.loads(sent).get()
        assert isinstance(got[0], np.memmap) and not got[0].flags.writeable
        np.testing.assert_array_equal(got[0], big)
        np.testing.assert_array_equal(got[4]["sample_weight"], data[4]["sample_weight"])
        assert pickle.loads(sent).get() is got  # mapped once per process
    assert not path.exists() and not path.parent.exists()  # removed on exit
    with SharedData((frame,), share=True) as shared:
        work._MAPPED.clear()
        pd.testing.assert_frame_equal(pickle.loads(pickle.dumps(shared)).get()[0], frame)
    # kept here, not shared: the objects themselves
    assert SharedData(data, share=False).get() is data


def test_workers_on_shared_frames_and_sparse_data_give_the_serial_result():
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    frame["colour"] = np.array(["red", "green", "blue"], dtype=object)[np.arange(150) % 3]
    encode = make_column_transformer((OneHotEncoder(), ["colour"]), remainder="passthrough")
    pipes = (make_pipeline(encode, LogisticRegression(max_iter=500)), make_pipeline(encode, DecisionTreeClassifier()))
    tree = DecisionTreeClassifier(max_depth=3)
    for data, (a, b) in ((frame, pipes), (sp.csr_matrix(X), (LogisticRegression(max_iter=500), tree))):
        serial = rp.compare(a, b, data, Y, scheme="2x5cv", n_repeats=3, rng=4)
        parallel = rp.compare(a, b, data, Y, scheme="2x5cv", n_repeats=3, rng=4, n_jobs=2)
        np.testing.assert_array_equal(parallel.scores_a, serial.scores_a)
        np.testing.assert_array_equal(parallel.scores_b, serial.scores_b)
    assert not list(work._MAPPED)  # nothing kept mapped in this process after the run
