"""Tests of replicability.stats.variance_components: the crossed split x seed decomposition.

Checked against statsmodels (two-way ANOVA mean squares; REML variance components of a
crossed MixedLM) and by simulation with known components.
"""

import numpy as np
import pytest

from replicability.stats.variance_components import crossed_components


def _simulate(rng, r, s, split, seed, interaction, size=()):
    a = rng.normal(0, np.sqrt(split), (*size, r, 1))
    b = rng.normal(0, np.sqrt(seed), (*size, 1, s))
    return 0.01 + a + b + rng.normal(0, np.sqrt(interaction), (*size, r, s))


def _long(table):
    import pandas as pd

    r, s = table.shape
    split, seed = np.indices((r, s)).reshape(2, -1)
    return pd.DataFrame({"d": table.ravel(), "split": split, "seed": seed})


@pytest.mark.parametrize("r,s,seed", [(5, 4, 0), (10, 10, 1), (3, 7, 2)])
def test_mean_squares_are_statsmodels_two_way_anova(r, s, seed):
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    table = _simulate(np.random.default_rng(seed), r, s, 4e-4, 1e-4, 2e-4)
    anova = sm.stats.anova_lm(ols("d ~ C(split) + C(seed)", data=_long(table)).fit())
    res = crossed_components(table)
    assert res.mean_squares["rows"] == pytest.approx(anova.loc["C(split)", "mean_sq"], rel=1e-10)
    assert res.mean_squares["columns"] == pytest.approx(anova.loc["C(seed)", "mean_sq"], rel=1e-10)
    assert res.mean_squares["residual"] == pytest.approx(anova.loc["Residual", "mean_sq"], rel=1e-10)
    assert (res.df["rows"], res.df["columns"], res.df["residual"]) == tuple(anova["df"].astype(int))


@pytest.mark.filterwarnings("ignore:The MLE may be on the boundary")  # statsmodels' check at a small scale
def test_positive_estimates_are_the_reml_components_of_a_crossed_mixedlm():
    # balanced data: REML equals the ANOVA estimators when these are positive; the tolerance is the optimizer's
    # (lbfgs agrees to 5e-5 relative here)
    import statsmodels.formula.api as smf

    table = _simulate(np.random.default_rng(3), 8, 6, 4e-4, 2e-4, 1e-4)
    res = crossed_components(table)
    assert min(res.raw.values()) > 0
    data = _long(table).assign(group=1)
    fit = smf.mixedlm("d ~ 1", data, groups="group", re_formula="0",
                      vc_formula={"seed": "0 + C(seed)", "split": "0 + C(split)"}).fit(reml=True)
    seed_vc, split_vc = fit.vcomp  # in the order of the sorted vc_formula names
    assert split_vc == pytest.approx(res.estimate["split"], rel=1e-3)
    assert seed_vc == pytest.approx(res.estimate["seed"], rel=1e-3)
    assert fit.scale == pytest.approx(res.estimate["interaction"], rel=1e-3)


@pytest.mark.parametrize("r,s,truth", [
    (10, 10, {"split": 4e-4, "seed": 1e-4, "interaction": 2e-4}),
    (5, 20, {"split": 1e-4, "seed": 3e-4, "interaction": 1e-4}),
    (12, 6, {"split": 2e-4, "seed": 0.0, "interaction": 3e-4}),
])
def test_known_components_are_recovered_within_their_standard_errors(r, s, truth):
    # over 4000 simulated tables the mean raw estimate is within 4 Monte Carlo standard errors of the truth
    # (unbiased) and the mean estimated variance within 10% of the estimates' empirical variance (the squared
    # standard error is unbiased). Not claimed: that estimate +- 3 se covers the truth in 95% of tables; with
    # few levels a mean square is skewed and the plug-in se small when the estimate is (84-93% measured here)
    rng = np.random.default_rng(r * 100 + s)
    n = 4000
    tables = _simulate(rng, r, s, truth["split"], truth["seed"], truth["interaction"], size=(n,))
    fits = [crossed_components(t) for t in tables]
    for name, value in truth.items():
        raw = np.array([f.raw[name] for f in fits])
        se = np.array([f.standard_error[name] for f in fits])
        assert abs(raw.mean() - value) < 4 * raw.std(ddof=1) / np.sqrt(n)
        assert np.mean(se ** 2) == pytest.approx(raw.var(ddof=1), rel=0.10)


def test_negative_estimates_are_reported_as_zero_and_flagged():
    # columns identical up to noise smaller than the residual: a negative seed estimate
    table = np.array([[0.0, 0.1], [1.0, 0.9], [2.0, 2.1], [3.0, 2.9]])
    res = crossed_components(table)
    assert res.raw["seed"] < 0 and res.estimate["seed"] == 0.0 and res.truncated == ["seed"]
    assert res.total == pytest.approx(res.estimate["split"] + res.estimate["interaction"])
    assert sum(res.share().values()) == pytest.approx(1.0)


@pytest.mark.parametrize("table,match", [(np.ones(4), "2-d"), (np.ones((1, 5)), "at least 2"),
                                         (np.array([[1.0, np.nan], [1.0, 2.0]]), "finite")])
def test_bad_tables_are_refused(table, match):
    with pytest.raises(ValueError, match=match):
        crossed_components(table)
