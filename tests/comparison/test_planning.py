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
