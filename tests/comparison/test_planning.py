"""Tests of replicability.comparison.planning: the runs a comparison needs for a power and a replicability."""

import numpy as np
import pytest

import replicability as rp
from replicability.comparison.planning import plan
from replicability.stats.planning import corrected_power


def test_the_fewest_runs_agree_with_statsmodels_solve_power():
    from statsmodels.stats.power import TTestPower

    nobs = TTestPower().solve_power(effect_size=0.4, alpha=0.05, power=0.8, alternative="two-sided")
    p = plan(effect=0.02, sd=0.05, test_ratio=0.0, correlation=0.0, n_folds=2, power=0.8, replicability=0.01)
    assert p.n_runs == int(np.ceil(np.ceil(nobs) / 2))


def test_a_cap_no_number_of_runs_can_pass():
    p = plan(effect=0.02, sd=0.05, test_ratio=1 / 9, power=0.8, replicability=0.5)
    assert p.power_cap < 0.8 and p.n_runs is None
    assert p.table["power"].max() < p.power_cap
    assert "no number of runs reaches power 0.8" in p.summary()
    assert corrected_power(0.02, 0.05, n_runs=100000, test_ratio=1 / 9) == pytest.approx(p.power_cap, abs=1e-3)


def test_plan_from_a_pilot_reads_its_effect_spread_and_design():
    rng = np.random.default_rng(9)
    a = 0.9 + rng.normal(0, 0.03, (4, 2, 10))
    pilot = rp.compare_scores(a, a - 0.01 + rng.normal(0, 0.02, a.shape), scheme="2x10cv", n_train=90, n_test=10)
    p = plan(pilot, power=0.5, replicability=0.8)
    d = pilot.differences
    assert p.effect == pytest.approx(d.mean()) and p.n_folds == 10 and p.test_ratio == pytest.approx(1 / 9)
    within = d.reshape(4, -1).var(axis=1, ddof=1).mean()
    assert p.sd == pytest.approx(np.sqrt(within / (1 - 0.1)))
    assert p.randomization_var == pytest.approx(d.mean(axis=2).var(ddof=1))
    assert p.to_dict()["n_runs"] == p.n_runs
    assert rp.plan(pilot, power=0.5, replicability=0.8).to_dict() == p.to_dict()


def test_plan_from_a_crossed_pilot_plans_each_source():
    from sklearn.datasets import load_iris
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier

    X, y = load_iris(return_X_y=True)
    crossed = rp.variance_by_source(RandomForestClassifier(n_estimators=5), GaussianNB(), X, y, scheme="2x5cv",
                                    n_repeats=4, n_seeds=3, rng=5)
    p = plan(crossed, power=0.5, replicability=0.8, max_runs=20)
    # a cell holds 2 runs: its components, twice, are a run's mean's
    assert p.source_vars == pytest.approx({k: 2 * v for k, v in crossed.components.estimate.items()})
    assert p.randomization_var == pytest.approx(sum(p.source_vars.values()))
    assert list(p.table.columns) == ["power", "replicability", "replicability, new seeds",
                                     "replicability, new splits"]
    # the same numbers as the pilot's comparison, with the components' randomization variance
    same = plan(crossed.comparison, randomization_var=p.randomization_var, power=0.5, replicability=0.8,
                max_runs=20)
    assert same.table["replicability"].equals(p.table["replicability"]) and same.sd == p.sd
    assert "replicability, new seeds 0.8" in p.summary() and p.to_dict()["source_vars"] == p.source_vars
    # learners without seeds: new seeds cannot change the decision
    with pytest.warns(UserWarning):
        fixed = rp.variance_by_source(KNeighborsClassifier(), GaussianNB(), X, y, scheme="1x5cv", n_repeats=3,
                                      n_seeds=2, rng=0)
    assert np.all(plan(fixed, max_runs=5).table["replicability, new seeds"] == 1.0)


@pytest.mark.parametrize("kwargs,match", [
    ({"effect": 0.01, "sd": 0.05, "test_ratio": 0.1, "power": 1.0}, "`power`"),
    ({"effect": 0.01, "sd": 0.05, "test_ratio": 0.1, "replicability": 0}, "`replicability`"),
    ({"effect": 0.01, "sd": -1.0, "test_ratio": 0.1}, "`sd`"),
    ({"effect": 0.01, "sd": 0.05, "test_ratio": -0.1}, "`test_ratio`"),
    ({"effect": 0.01, "sd": 0.05, "test_ratio": 0.1, "correlation": 1.0}, "`correlation`"),
    ({"effect": 0.01, "sd": 0.05}, "test_ratio"),
    ({"effect": 0.01, "sd": 0.05, "test_ratio": 0.1, "randomization_var": 0.0}, "`randomization_var`"),
])
def test_bad_plans_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        plan(**kwargs)
