"""Tests of replicability.comparison.sources: the crossed split x seed design of a comparison."""

import json

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import load_iris
from sklearn.dummy import DummyRegressor
from sklearn.ensemble import RandomForestClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier

import replicability as rp
from replicability.stats.variance_components import crossed_components

X, Y = load_iris(return_X_y=True)


class SeedValue(RegressorMixin, BaseEstimator):
    """Predicts a constant that depends on its random_state only."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y):
        self.value_ = float(np.random.default_rng(self.random_state).random())
        return self

    def predict(self, X):
        return np.full(len(X), self.value_)


def _prediction(estimator, X, y):
    return float(estimator.predict(X[:1])[0])


@pytest.fixture(scope="module")
def forest():
    return rp.variance_by_source(RandomForestClassifier(n_estimators=5), GaussianNB(), X, Y, scheme="1x5cv",
                                 n_repeats=4, n_seeds=3, rng=5)


def test_the_design_is_crossed_same_seed_set_in_every_randomization():
    # A's score is a function of its seed alone: every randomization of the splits gives the same column values
    res = rp.variance_by_source(SeedValue(), DummyRegressor(strategy="constant", constant=0.0), X, Y.astype(float),
                                scheme="1x5cv", n_repeats=4, n_seeds=3, scoring=_prediction, rng=2)
    d = res.differences
    assert np.all(d == d[0]) and len(np.unique(d[0])) == 3
    # zero up to rounding (1e-33 against a seed component near 1e-2)
    assert res.components.estimate["split"] < 1e-20 and res.components.estimate["interaction"] < 1e-20
    assert res.components.estimate["seed"] > 1e-4
    assert res.drawn == ["A: random_state"] and res.drawn_seeds["A"].shape == (3, 1, 5, 1)
    assert res.larger_source() in ("seed", "inconclusive at this scale")


def test_learners_without_randomness_have_no_seed_component():
    with pytest.warns(UserWarning, match="no random_state|Neither learner"):
        res = rp.variance_by_source(KNeighborsClassifier(), GaussianNB(), X, Y, scheme="1x5cv", n_repeats=3,
                                    n_seeds=2, rng=0)
    assert np.all(res.differences == res.differences[:, :1])
    assert res.components.estimate["seed"] == 0.0 and res.drawn == []
    assert res.replicability()["new seeds"]["r2"] == 1.0


def test_cells_decompose_and_decide_as_the_stats_say(forest):
    assert forest.differences.shape == (4, 3) == forest.decisions.shape
    again = crossed_components(forest.differences)
    assert again.raw == forest.components.raw
    whole = forest.comparison
    assert np.array_equal(forest.differences.ravel(), whole.differences.mean(axis=(1, 2)))
    assert np.array_equal(forest.decisions.ravel(), whole.decisions[whole.recommended])


def test_workers_do_not_change_the_result(forest):
    again = rp.variance_by_source(RandomForestClassifier(n_estimators=5), GaussianNB(), X, Y, scheme="1x5cv",
                                  n_repeats=4, n_seeds=3, rng=5, n_jobs=2)
    assert np.array_equal(again.differences, forest.differences) and again.to_dict() == forest.to_dict()


def test_replicability_by_source_reads_columns_and_rows():
    res = rp.variance_by_source(RandomForestClassifier(n_estimators=3), GaussianNB(), X, Y, scheme="1x5cv",
                                n_repeats=3, n_seeds=2, rng=1)
    object.__setattr__(res, "decisions", np.array([[1, 0], [1, 0], [1, 0]], dtype=np.int8))
    rep = res.replicability()
    assert rep["new splits"] == {"r2": 1.0, "min": 1.0, "max": 1.0}  # every column constant
    assert rep["new seeds"]["r2"] == 0.0  # every row disagrees


def test_frame_dict_summary_plot(forest):
    import matplotlib

    matplotlib.use("Agg")
    frame = forest.to_frame()
    assert list(frame.index) == ["split", "seed", "interaction"]
    assert frame["share"].sum() == pytest.approx(1.0)
    out = json.loads(json.dumps(forest.to_dict()))
    assert out["n_repeats"] == 4 and out["n_seeds"] == 3 and out["drawn"] == ["A: random_state"]
    assert "Variance by source: 4 randomizations of the splits x 3 seed sets" in str(forest)
    assert forest.plot().shape == (2,)
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.parametrize("kwargs,match", [({"n_seeds": 1}, "n_seeds"), ({"n_repeats": 1}, "n_repeats"),
                                          ({"scoring": ["accuracy", "f1_macro"]}, "one metric")])
def test_bad_designs_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rp.variance_by_source(GaussianNB(), KNeighborsClassifier(), X, Y, scheme="1x5cv", **kwargs)
