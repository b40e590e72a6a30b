"""Tests of replicability.stats.planning: power and replicability of the corrected t-test by design size.

References: statsmodels' TTestPower (no correction), a simulation of the equicorrelated
model, and the committed Bouckaert (2004) experiment (naive Bayes against C4.5 on 1000
data sets per synthetic source, 10 randomizations of 10 x 10 cv).
"""

import numpy as np
import pytest

from replicability.papers.bouckaert2004.synthetic import TABLE1_SIZES
from replicability.papers.shared.synthetic_runs import fold_differences, synthetic_fold_counts
from replicability.stats.measures import replicability_r2
from replicability.stats.planning import corrected_power, corrected_replicability
from replicability.stats.ttests import corrected_repeated_cv_ttest


@pytest.mark.parametrize("effect,sd,runs,folds", [(0.02, 0.05, 1, 10), (0.01, 0.08, 3, 5), (-0.03, 0.04, 10, 10),
                                                   (0.0, 0.05, 2, 10)])
def test_without_the_correction_it_is_statsmodels_ttestpower(effect, sd, runs, folds):
    from statsmodels.stats.power import TTestPower

    n = runs * folds
    ours = corrected_power(effect, sd, n_runs=runs, n_folds=folds, test_ratio=0.0)
    theirs = TTestPower().power(effect_size=abs(effect) / sd, nobs=n, alpha=0.05, alternative="two-sided")
    assert ours == pytest.approx(theirs, abs=1e-10)


@pytest.mark.parametrize("rho", [None, 0.05, 0.2])
def test_the_statistic_is_noncentral_t_under_the_model(rho):
    # equicorrelated normal differences, the corrected test with n_test/n_train = 1/9: rejection rate
    # within 3 Monte Carlo standard errors of the planned power, also when rho is not the heuristic's 0.1
    rng = np.random.default_rng(7)
    n_sim, runs, folds, effect, sd, c = 20000, 2, 10, 0.02, 0.05, 1 / 9
    r = c / (1 + c) if rho is None else rho
    shared = rng.normal(0, np.sqrt(r), (n_sim, 1, 1))
    d = effect + sd * (shared + rng.normal(0, np.sqrt(1 - r), (n_sim, runs, folds)))
    rate = np.mean(corrected_repeated_cv_ttest(d, n_train=900, n_test=100).pvalue < 0.05)
    planned = corrected_power(effect, sd, n_runs=runs, n_folds=folds, test_ratio=c, correlation=rho)
    assert abs(rate - planned) < 3 * np.sqrt(planned * (1 - planned) / n_sim)


def test_replicability_under_the_model_by_simulation():
    # one shared draw per data set, ten randomizations adding independent noise: mean R2 matches the plan
    rng = np.random.default_rng(8)
    n_data, n_rep, runs, folds, effect, sd, c = 3000, 10, 1, 10, 0.02, 0.05, 1 / 9
    r = c / (1 + c)
    shared = rng.normal(0, np.sqrt(r), (n_data, 1, 1, 1))
    d = effect + sd * (shared + rng.normal(0, np.sqrt(1 - r), (n_data, n_rep, runs, folds)))
    res = corrected_repeated_cv_ttest(d, n_train=900, n_test=100)
    decisions = np.where(res.pvalue < 0.05, np.sign(res.statistic), 0)
    achieved = np.array([replicability_r2(x) for x in decisions])
    planned = corrected_replicability(effect, sd, n_runs=runs, n_folds=folds, test_ratio=c)
    assert abs(achieved.mean() - planned) < 3 * achieved.std(ddof=1) / np.sqrt(n_data) + 0.01


@pytest.mark.parametrize("shares,runs,effect", [((0.2, 0.6, 0.2), 1, 0.02), ((0.6, 0.1, 0.3), 2, 0.03),
                                                 ((0.3, 0.3, 0.4), 5, 0.015)])
@pytest.mark.parametrize("kept", ["splits", "seeds"])
def test_replicability_with_one_source_kept_by_simulation(shares, runs, effect, kept):
    # splits crossed with seeds: every split's difference is the data set's shared part plus a split, a seed and an
    # interaction effect (independent normals, variances sd^2 (1 - rho) times `shares`). Ten reruns keep the
    # splits (new seeds) or the seeds (new splits). Criterion fixed before looking: the mean R2 within 3 Monte
    # Carlo standard errors + 0.02 of the plan (0.02: the reruns' s^2 share the kept source's part, which the
    # formula takes as independent)
    rng = np.random.default_rng(9)
    n_data, n_rep, folds, sd, c = 3000, 10, 10, 0.05, 1 / 9
    rho = c / (1 + c)
    split, seed, interaction = (sd**2 * (1 - rho) * share for share in shares)

    def draws(var, varies):
        return rng.normal(0, np.sqrt(var), (n_data, n_rep if varies else 1, runs, folds))

    shared = rng.normal(0, sd * np.sqrt(rho), (n_data, 1, 1, 1))
    d = effect + shared + draws(split, kept == "seeds") + draws(seed, kept == "splits") + draws(interaction, True)
    res = corrected_repeated_cv_ttest(d, n_train=900, n_test=100)
    decisions = np.where(res.pvalue < 0.05, np.sign(res.statistic), 0)
    achieved = np.array([replicability_r2(x) for x in decisions])
    fixed, changing = (split, seed + interaction) if kept == "splits" else (seed, split + interaction)
    # a run's mean: each source's fold-level variance over the folds
    planned = corrected_replicability(effect, sd, n_runs=runs, n_folds=folds, test_ratio=c,
                                      randomization_var=changing / folds, fixed_var=fixed / folds)
    assert abs(achieved.mean() - planned) < 3 * achieved.std(ddof=1) / np.sqrt(n_data) + 0.02


@pytest.fixture(scope="module")
def bouckaert2004():
    """Per-fold differences of naive Bayes - C4.5, sources 2-4 of Bouckaert (2004), (dataset, repeat, run, fold)."""
    return {src: fold_differences(synthetic_fold_counts(src, scheme="rxk_cv", scheme_params={"n_runs": 10,
                                                                                           "n_folds": 10},
                                                        seed=0, scale="paper", **TABLE1_SIZES["paper"]))
            for src in ("source2", "source3", "source4")}


def _population(d):
    """The model's parameters from 1000 data sets: effect, sd, correlation (the between-data-set variance of their
    means, less its within-data-set noise, over the total variance), and the variance of a run's mean between
    randomizations of one data set."""
    within = d.reshape(d.shape[0], -1).var(axis=1, ddof=1).mean()
    between = d.mean(axis=(1, 2, 3)).var(ddof=1) - within / d[0].size
    randomization = d.mean(axis=3).reshape(d.shape[0], -1).var(axis=1, ddof=1).mean()
    return float(d.mean()), float(d.std()), float(between / d.var()), float(randomization)


def _achieved(d, runs):
    res = corrected_repeated_cv_ttest(d[:, :, :runs, :], n_train=270, n_test=30)
    decisions = np.where(res.pvalue < 0.05, np.sign(res.statistic), 0)
    return np.mean(decisions != 0), np.mean([replicability_r2(x) for x in decisions])


@pytest.mark.parametrize("source", ["source2", "source3", "source4"])
def test_planned_against_achieved_on_the_bouckaert_2004_experiment(bouckaert2004, source):
    # criterion fixed before looking: planned power and replicability within 5 points of the achieved ones for
    # 2, 5 and 10 runs. Measured beside it: replicability holds at 1 run too (within 2.1 points), power does not
    # (off by 6.4, 5.2 and 3.1 points on sources 2, 3 and 4), so 1 run is tested for replicability only
    d = bouckaert2004[source]
    effect, sd, rho, randomization = _population(d)
    for runs in (1, 2, 5, 10):
        power, replicability = _achieved(d, runs)
        options = {"n_runs": runs, "n_folds": 10, "test_ratio": 30 / 270, "correlation": rho}
        if runs > 1:
            assert corrected_power(effect, sd, **options) == pytest.approx(power, abs=0.05)
        assert corrected_replicability(effect, sd, randomization_var=randomization,
                                       **options) == pytest.approx(replicability, abs=0.05)
