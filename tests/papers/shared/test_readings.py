"""Tests of replicability.papers.shared.readings: the readings of r x k cv that several papers share.

Bouckaert (2004) Table 1, Bouckaert & Frank (2004) Table 5.
"""

import itertools

import numpy as np
import pytest
from scipy import stats

from replicability.papers.shared.readings import (
    EXPERIMENT_PARTS,
    EXPERIMENT_SCHEMES,
    EXPERIMENT_TESTS,
    experiment_outcomes,
    experiment_sample,
    interval_of_mean,
    monotone_within,
    outcome_summary,
)
from replicability.stats.decisions import decide
from replicability.stats.nonparametric import sign_test
from replicability.stats.scheme_grammar import check_sample, parse_scheme
from replicability.stats.schemes import scheme_sample, scheme_test

# Bouckaert (2003), Figure 1 (rows are runs, columns folds), with run 3's sign fixed (ERRATA).
FIGURE1 = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])


# Sorted runs spread the sample like order statistics: it needs a larger shift to reject.
SHIFT = {"sorted_runs": 0.025}


def _differences(shape, seed, loc=0.0, scale=0.05):
    # Continuous differences: no ties or zeros, so every test has a unique answer.
    return np.random.default_rng(seed).normal(loc, scale, size=shape)


# ----------------------------------------------------------------------------- samples


def test_resampling_is_first_fold_of_every_run():
    # Bouckaert (2004), Sec. 2.1: "for resampling, essentially only the first column is required".
    np.testing.assert_array_equal(experiment_sample(FIGURE1, "resampling"), [3.33, 6.66, 6.66])


def test_cv_is_first_run():
    # "Cross validation uses only the first run, that is, the first row".
    np.testing.assert_array_equal(experiment_sample(FIGURE1, "cv"), [3.33, 10, -6.66])


@pytest.mark.parametrize("scheme", ["all", "folds", "runs", "sorted_runs"])
def test_matrix_schemes_are_scheme_sample(scheme):
    d = _differences((3, 4, 10, 10), 1)
    np.testing.assert_array_equal(experiment_sample(d, scheme), scheme_sample(d, scheme))


def test_sample_shapes_batched():
    d = _differences((2, 3, 7, 5), 2)
    sizes = {"resampling": 7, "cv": 5, "all": 35, "folds": 7, "runs": 5, "sorted_runs": 5}
    for scheme in EXPERIMENT_SCHEMES:
        assert experiment_sample(d, scheme).shape == (2, 3, sizes[scheme])
    np.testing.assert_array_equal(experiment_sample(d, "resampling")[1, 2], d[1, 2, :, 0])


def test_experiment_schemes_are_split_schemes_and_samples_of_the_one_grammar():
    # Bouckaert (2004, Section 2.1): resampling takes r random splits, k-fold cv one run of k folds
    d = _differences((2, 7, 5), 3)
    averaged = {"folds": 7, "runs": 5, "sorted_runs": 5}
    for name, (split, sample) in EXPERIMENT_PARTS.items():
        splits = parse_scheme(split, n_runs=7, n_folds=5)
        assert check_sample(sample) == sample
        n = splits.n_splits if sample == "all" else averaged[sample]
        assert experiment_sample(d, name).shape == (2, n)
    assert [parse_scheme(EXPERIMENT_PARTS[name][0], n_runs=7, n_folds=5).name for name in EXPERIMENT_SCHEMES] == [
        "resampling", "1x5cv", "7x5cv", "7x5cv", "7x5cv", "7x5cv"]
    np.testing.assert_array_equal(experiment_sample(d, "cv"), d[:, 0, :])


def test_sample_rejects_unknown_scheme():
    with pytest.raises(ValueError, match="`scheme`"):
        experiment_sample(FIGURE1, "bootstrap")


def test_sample_rejects_single_run():
    with pytest.raises(ValueError, match="`d`"):
        experiment_sample(np.zeros((1, 10)), "cv")


# ----------------------------------------------------------------------------- outcomes


@pytest.mark.parametrize("scheme", ["all", "folds", "runs", "sorted_runs"])
def test_t_outcomes_equal_scheme_ttest(scheme):
    # The plain scheme t-test of Bouckaert (2003, Table 1) is the paired t-test on the sample.
    d = _differences((300, 10, 10), 3, loc=SHIFT.get(scheme, 0.004))
    expected = decide(scheme_test(d, scheme=scheme, test="t"), alpha=0.05)
    got = experiment_outcomes(d, scheme=scheme, test="t", alpha=0.05)
    np.testing.assert_array_equal(got, expected)
    assert len(np.unique(got)) >= 2  # the comparison is not vacuous


@pytest.mark.parametrize("scheme", EXPERIMENT_SCHEMES)
def test_t_outcomes_equal_scipy_ttest(scheme):
    d = _differences((200, 10, 10), 4, loc=SHIFT.get(scheme, 0.01))
    sample = experiment_sample(d, scheme)
    res = stats.ttest_1samp(sample, 0.0, axis=-1)
    expected = np.where(res.pvalue < 0.05, np.sign(res.statistic), 0)
    np.testing.assert_array_equal(experiment_outcomes(d, scheme=scheme, test="t", alpha=0.05), expected)


@pytest.mark.parametrize("scheme", EXPERIMENT_SCHEMES)
def test_signed_rank_outcomes_equal_scipy_wilcoxon(scheme):
    # Bouckaert (2004) "rank sum test" = Wilcoxon signed-rank, normal approximation (ERRATA).
    d = _differences((200, 10, 10), 5, loc=SHIFT.get(scheme, 0.012))
    sample = experiment_sample(d, scheme)
    res = stats.wilcoxon(sample, axis=-1, zero_method="wilcox", correction=False, method="approx")
    # Direction: sign of the signed rank sum (positive ranks outweigh negative ones: A better).
    direction = np.sign((stats.rankdata(np.abs(sample), axis=-1) * np.sign(sample)).sum(axis=-1))
    expected = np.where(res.pvalue < 0.05, direction, 0)
    got = experiment_outcomes(d, scheme=scheme, test="signed_rank", alpha=0.05)
    np.testing.assert_array_equal(got, expected)
    assert np.any(got != 0) and np.any(got == 0)


def test_sign_outcomes_use_exact_binomial():
    # Bouckaert (2004), Sec. 2.2: P(Z) = sum_i C(n, i) (1/2)^n, the exact binomial test.
    d = _differences((300, 10, 10), 6, loc=0.01)
    sample = experiment_sample(d, "cv")
    n_plus = (sample > 0).sum(axis=-1)
    p = np.array([stats.binomtest(int(k), 10, 0.5).pvalue for k in n_plus])
    expected = np.where(p < 0.05, np.sign(2 * n_plus - 10), 0)
    np.testing.assert_array_equal(experiment_outcomes(d, scheme="cv", test="sign", alpha=0.05), expected)
    np.testing.assert_array_equal(
        experiment_outcomes(d, scheme="cv", test="sign", alpha=0.05),
        decide(sign_test(sample, method="exact"), alpha=0.05),
    )


@pytest.mark.parametrize("scheme,test", list(itertools.product(EXPERIMENT_SCHEMES, EXPERIMENT_TESTS)))
def test_outcomes_vectorized_equal_loop_and_flip_with_sign(scheme, test):
    d = _differences((3, 4, 10, 10), 7, loc=0.01)
    batch = experiment_outcomes(d, scheme=scheme, test=test, alpha=0.1)
    assert batch.shape == (3, 4) and batch.dtype == np.int8
    for i, j in np.ndindex(3, 4):
        assert batch[i, j] == experiment_outcomes(d[i, j], scheme=scheme, test=test, alpha=0.1)
    np.testing.assert_array_equal(experiment_outcomes(-d, scheme=scheme, test=test, alpha=0.1), -batch)


def test_outcomes_all_zero_differences_accept():
    d = np.zeros((2, 10, 10))
    for scheme, test in itertools.product(EXPERIMENT_SCHEMES, EXPERIMENT_TESTS):
        np.testing.assert_array_equal(experiment_outcomes(d, scheme=scheme, test=test, alpha=0.05), [0, 0])


def test_outcomes_reject_unknown_test():
    with pytest.raises(ValueError, match="`test`"):
        experiment_outcomes(FIGURE1, scheme="cv", test="mcnemar", alpha=0.05)


def test_outcomes_reject_unknown_scheme():
    with pytest.raises(ValueError, match="`scheme`"):
        experiment_outcomes(FIGURE1, scheme="5x2", test="t", alpha=0.05)


def test_outcomes_reject_bad_alpha():
    with pytest.raises(ValueError, match="`alpha`"):
        experiment_outcomes(FIGURE1, scheme="cv", test="t", alpha=1.5)


# ----------------------------------------------------------------------------- intervals


def test_interval_of_mean_equals_scipy_t_interval():
    values = _differences((5, 12), 8)
    mean, half = interval_of_mean(values, confidence_level=0.9)
    for row, m, h in zip(values, mean, half):
        lo, hi = stats.t.interval(0.9, row.size - 1, loc=row.mean(), scale=stats.sem(row))
        np.testing.assert_allclose([m - h, m + h], [lo, hi], rtol=1e-12)


def test_interval_of_mean_axis():
    values = _differences((12, 5), 9)
    m0, h0 = interval_of_mean(values, axis=0)
    m1, h1 = interval_of_mean(values.T, axis=-1)
    np.testing.assert_allclose(m0, m1, rtol=1e-14)
    np.testing.assert_allclose(h0, h1, rtol=1e-14)


def test_interval_of_mean_rejects_bad_confidence():
    with pytest.raises(ValueError, match="`confidence_level`"):
        interval_of_mean([1.0, 2.0], confidence_level=95)


def test_interval_of_mean_rejects_single_value():
    with pytest.raises(ValueError, match="`values`"):
        interval_of_mean([1.0])


# ----------------------------------------------------------------------------- summaries


def test_summary_hand_example():
    # Three data sets, four repeats. Rejections: 0, 3 and 0 of 4 -> 3/12.
    outcomes = np.array([[0, 0, 0, 0], [1, 1, 0, 1], [0, 0, 0, 0]])
    s = outcome_summary(outcomes)
    assert s["rejection"] == pytest.approx(0.25, rel=1e-14)
    assert s["a_better"] == pytest.approx(0.25, rel=1e-14) and s["b_better"] == 0
    # Per-repeat rates (1/3, 1/3, 0, 1/3): t interval with 3 df.
    rates = np.array([1, 1, 0, 1]) / 3
    assert s["rejection_halfwidth"] == pytest.approx(stats.t.ppf(0.975, 3) * stats.sem(rates), rel=1e-12)
    # R̂2 per data set: 1, (3*2 + 0)/(4*3) = 1/2, 1 -> normalized 1, 0, 1.
    assert s["r2"] == pytest.approx(2.5 / 3, rel=1e-14)
    assert s["normalized_r2"] == pytest.approx(2 / 3, rel=1e-14)
    assert s["normalized_r2_halfwidth"] == pytest.approx(stats.t.ppf(0.975, 2) * stats.sem([1, 0, 1]), rel=1e-12)
    assert s["consistency"] == pytest.approx(2 / 3, rel=1e-14)
    assert s["almost_consistency"] == pytest.approx(1.0, rel=1e-14)


def test_summary_r2_equals_pairwise_definition_three_values():
    # R̂2 = share of equal pairs among the C(n, 2) pairs (Bouckaert 2004, Eq. 1; ERRATA for 3 values).
    outcomes = np.random.default_rng(10).integers(-1, 2, size=(50, 10))
    pairs = list(itertools.combinations(range(10), 2))
    r2 = np.array([np.mean([row[i] == row[j] for i, j in pairs]) for row in outcomes])
    s = outcome_summary(outcomes)
    assert s["r2"] == pytest.approx(r2.mean(), rel=1e-12)
    assert s["normalized_r2"] == pytest.approx((2 * r2 - 1).mean(), rel=1e-12)
    all_equal = np.array([len(set(row)) == 1 for row in outcomes])
    assert s["consistency"] == pytest.approx(all_equal.mean(), abs=0)


def test_summary_batched_equals_loop():
    outcomes = np.random.default_rng(11).choice([-1, 0, 0, 1], size=(3, 40, 10))
    batch = outcome_summary(outcomes)
    for i in range(3):
        one = outcome_summary(outcomes[i])
        for key, value in one.items():
            assert batch[key][i] == pytest.approx(float(value), rel=1e-12), key


def test_summary_rejects_bad_values():
    with pytest.raises(ValueError, match="`outcomes`"):
        outcome_summary([[0, 2], [0, 0]])


def test_summary_rejects_one_repeat():
    with pytest.raises(ValueError, match="`outcomes`"):
        outcome_summary([[0], [1]])


def test_summary_rejects_one_dataset():
    with pytest.raises(ValueError, match="`outcomes`"):
        outcome_summary([[0, 1, 0]])


def test_summary_rejects_bad_confidence():
    with pytest.raises(ValueError, match="`confidence_level`"):
        outcome_summary([[0, 1], [0, 0]], confidence_level=0)


# ----------------------------------------------------------------------------- trends


def test_monotone_within_exact_and_tolerant():
    assert monotone_within([0.1, 0.2, 0.2, 0.3])
    assert not monotone_within([0.1, 0.2, 0.19, 0.3])
    assert monotone_within([0.1, 0.2, 0.19, 0.3], [0.005, 0.005, 0.006, 0.0])
    assert not monotone_within([0.1, 0.2, 0.18, 0.3], [0.005, 0.005, 0.005, 0.0])


def test_monotone_within_decreasing_and_batched():
    values = np.array([[0.9, 0.8, 0.7], [0.9, 0.95, 0.7]])
    np.testing.assert_array_equal(monotone_within(values, increasing=False), [True, False])
    np.testing.assert_array_equal(monotone_within(values[:, ::-1]), [True, False])


def test_monotone_within_rejects_short_values():
    with pytest.raises(ValueError, match="`values`"):
        monotone_within([0.5])


def test_monotone_within_rejects_negative_halfwidths():
    with pytest.raises(ValueError, match="`halfwidths`"):
        monotone_within([0.5, 0.6], [-0.1, 0.1])
