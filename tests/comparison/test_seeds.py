"""Tests of replicability.comparison.seeds: which random_state parameters a comparison draws per split."""

import numpy as np
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.decomposition import PCA
from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from replicability.comparison.seeds import seed_plan, seed_text, seeded_clone


def _nested():
    columns = ColumnTransformer([("pca", PCA(n_components=2), [0, 1, 2]), ("scale", StandardScaler(), [3])])
    return make_pipeline(columns, BaggingClassifier(DecisionTreeClassifier(random_state=5), n_estimators=3))


def test_plan_finds_nested_random_states_and_keeps_fixed_ones():
    plan = seed_plan(_nested())
    # every get_params(deep=True) key ending in random_state, sorted; the one at 5 kept
    assert plan.drawn == ("baggingclassifier__random_state", "columntransformer__pca__random_state")
    assert plan.fixed == {"baggingclassifier__estimator__random_state": 5}


def test_plan_all_draws_fixed_seeds_too():
    plan = seed_plan(_nested(), "all")
    assert plan.drawn == ("baggingclassifier__estimator__random_state", "baggingclassifier__random_state",
                          "columntransformer__pca__random_state")
    assert plan.fixed == {}


def test_plan_of_a_learner_without_randomness_is_empty():
    plan = seed_plan(GaussianNB())
    assert plan.drawn == () and plan.fixed == {}
    assert seed_text("B", plan) == "B has no random_state"


def test_plan_rejects_an_unknown_policy():
    with pytest.raises(ValueError, match="`estimator_seeds` must be one of"):
        seed_plan(GaussianNB(), "fixed")


def test_seeded_clone_sets_the_drawn_parameters_and_leaves_the_original():
    estimator = _nested()
    plan = seed_plan(estimator)
    model = seeded_clone(estimator, plan.drawn, np.array([11, 12]))
    params = model.get_params(deep=True)
    assert [params[name] for name in plan.drawn] == [11, 12]
    assert params["baggingclassifier__estimator__random_state"] == 5
    assert all(estimator.get_params(deep=True)[name] is None for name in plan.drawn)


def test_draw_gives_one_seed_per_split_and_parameter_from_the_generator():
    plan = seed_plan(_nested())
    seeds = plan.draw(np.random.default_rng(3), 4)
    np.testing.assert_array_equal(seeds, np.random.default_rng(3).integers(2**31 - 1, size=(4, 2)))


def test_seed_text_says_what_was_drawn_and_what_kept():
    assert seed_text("A", seed_plan(RandomForestClassifier())) == "A: random_state drawn from rng for every split"
    text = seed_text("A", seed_plan(_nested()))
    assert text == ("A: baggingclassifier__random_state, columntransformer__pca__random_state drawn from rng for "
                    "every split; baggingclassifier__estimator__random_state=5 kept as given "
                    "(that randomness not varied)")
    kept = seed_plan(RandomForestClassifier(random_state=np.random.RandomState(0)))
    assert seed_text("B", kept) == "B: random_state=RandomState kept as given (that randomness not varied)"
