"""Tests for replicability.report.uncertainty: the standard errors that claims use."""

import numpy as np
import pytest

from replicability.report.uncertainty import (
    difference_se,
    paired_rate_difference_se,
    percent_se,
    rate_difference_se,
    rate_se,
)


def test_rate_se_is_the_binomial_standard_error():
    assert rate_se(0.05, 1000) == pytest.approx(np.sqrt(0.05 * 0.95 / 1000))
    np.testing.assert_allclose(rate_se([0.5, 0.1], 100), [0.05, 0.03])
    with pytest.raises(ValueError, match="`rate`"):
        rate_se(1.5, 10)
    with pytest.raises(ValueError, match="`n`"):
        rate_se(0.5, 0)


@pytest.mark.parametrize("n", [1, 7, 100, 1000])
def test_percent_se_is_100_rate_se_of_the_share(n):
    for count in range(n + 1):
        assert percent_se(count, n) == 100 * rate_se(count / n, n)
    counts = np.arange(n + 1)
    np.testing.assert_array_equal(percent_se(counts, n), [100 * rate_se(c / n, n) for c in counts])
    assert percent_se(n // 2, n) <= 50 / np.sqrt(n)  # the binomial standard error is largest at p = 1/2


def test_percent_se_clips_the_share_to_the_unit_interval():
    assert percent_se(-3, 10) == percent_se(0, 10) == 0.0
    assert percent_se(12, 10) == percent_se(10, 10) == 0.0
    np.testing.assert_array_equal(percent_se([-1, 5, 11], 10), [0.0, 100 * rate_se(0.5, 10), 0.0])


@pytest.mark.parametrize("rate", [0.0, 1.0, 5.0, 37.5, 50.0, 99.0, 100.0])
@pytest.mark.parametrize("n", [10, 1000])
def test_rate_difference_se_of_one_rate_is_sqrt_2_rate_se(rate, n):
    # Ours and the paper's estimate of the same rate, each on n trials.
    want = np.sqrt(2) * 100 * rate_se(rate / 100, n)
    assert float(rate_difference_se(rate, n)) == pytest.approx(want, rel=1e-15, abs=0)


@pytest.mark.parametrize("n_2", [None, 250])
def test_rate_difference_se_of_two_rates_adds_the_variances(n_2):
    se_1 = 100 * rate_se(0.5, 1000)
    se_2 = 100 * rate_se(0.4, n_2 or 1000)  # n_2 defaults to n_1
    got = float(rate_difference_se(50.0, 1000, 40.0, n_2))
    assert got == pytest.approx(np.sqrt(se_1**2 + se_2**2), rel=1e-15)
    assert got == pytest.approx(np.hypot(se_1, se_2), rel=1e-15)
    assert float(rate_difference_se(40.0, 1000, 40.0, 1000)) == pytest.approx(float(rate_difference_se(40.0, 1000)),
                                                                               rel=1e-15)


def test_rate_difference_se_clips_rates_to_0_to_100_percent():
    assert float(rate_difference_se(-2.0, 50)) == float(rate_difference_se(0.0, 50)) == 0.0
    assert float(rate_difference_se(104.0, 50, 100.0)) == 0.0
    assert float(rate_difference_se(104.0, 50, 50.0)) == float(rate_difference_se(100.0, 50, 50.0))


def test_rate_difference_se_vectorized_equals_a_loop():
    rng = np.random.default_rng(35)
    ours, theirs = rng.uniform(0, 100, (2, 3, 4))
    one = rate_difference_se(ours, 300)
    two = rate_difference_se(ours, 300, theirs, 120)
    assert one.shape == two.shape == (3, 4)
    for idx in np.ndindex(3, 4):
        assert one[idx] == rate_difference_se(float(ours[idx]), 300)
        assert two[idx] == rate_difference_se(float(ours[idx]), 300, float(theirs[idx]), 120)


def test_rate_difference_se_checks_n():
    with pytest.raises(ValueError, match="`n`"):
        rate_difference_se(5.0, 0)
    with pytest.raises(ValueError, match="`n`"):
        rate_difference_se(5.0, 100, 4.0, 2.5)


def test_difference_se_is_the_hypotenuse():
    assert float(difference_se(3.0, 4.0)) == 5.0
    assert float(difference_se(0.0, 0.25)) == 0.25
    rng = np.random.default_rng(4)
    se_1, se_2 = rng.uniform(0, 2, (2, 50))
    np.testing.assert_allclose(difference_se(se_1, se_2), np.hypot(se_1, se_2), rtol=1e-15, atol=0)
    np.testing.assert_allclose(difference_se(se_1[:, None], se_2[None, :5]),  # broadcast
                               np.hypot(se_1[:, None], se_2[None, :5]), rtol=1e-15, atol=0)
    assert float(difference_se(-3.0, 4.0)) == 5.0  # a standard error enters squared


def test_rate_difference_se_matches_the_binomial_formula():
    # one rate, two independent estimates on n trials each: sqrt(2 p (1 - p) / n)
    assert rate_difference_se(5.0, 1000) == pytest.approx(100 * np.sqrt(2 * 0.05 * 0.95 / 1000))
    # two rates: sqrt(p1 q1 / n1 + p2 q2 / n2)
    expected = 100 * np.sqrt(0.5 * 0.5 / 1000 + 0.4 * 0.6 / 500)
    assert rate_difference_se(50.0, 1000, 40.0, 500) == pytest.approx(expected)
    assert np.allclose(rate_difference_se([5.0, 50.0], 1000),
                       [rate_difference_se(5.0, 1000), rate_difference_se(50.0, 1000)])


def test_paired_se_is_the_standard_error_of_the_mean_per_trial_difference():
    rng = np.random.default_rng(0)
    x = rng.random((3, 500)) < 0.6
    y = x ^ (rng.random((3, 500)) < 0.1)  # the same trials: strongly correlated events
    d = x.astype(float) - y
    expected = 100 * d.std(axis=-1) / np.sqrt(500)  # sqrt(var(d) / n), var with ddof 0
    np.testing.assert_allclose(paired_rate_difference_se(x, y), expected)
    assert paired_rate_difference_se(x[0], y[0]) == pytest.approx(expected[0])
    # correlated rates: the paired standard error is well below the independent one
    independent = rate_difference_se(100 * x.mean(-1), 500, 100 * y.mean(-1), 500)
    assert np.all(paired_rate_difference_se(x, y) < 0.6 * independent)
    with pytest.raises(ValueError, match="`events_1`"):
        paired_rate_difference_se(x.astype(int), y)


def test_paired_se_over_repeated_trials_is_that_of_the_per_trial_rate_differences():
    rng = np.random.default_rng(1)
    x = rng.random((2, 400, 10)) < 0.5  # (cell, trial, repetition)
    y = x ^ (rng.random((2, 400, 10)) < 0.2)
    d = x.mean(-1) - y.mean(-1)  # per-trial difference of the two rates over the repetitions
    expected = 100 * d.std(axis=-1) / np.sqrt(400)
    np.testing.assert_allclose(paired_rate_difference_se(x, y, axis=1, repeat_axis=2), expected)
    np.testing.assert_allclose(paired_rate_difference_se(x.swapaxes(1, 2), y.swapaxes(1, 2), axis=2, repeat_axis=1),
                               expected)
    # one repetition: the unrepeated formula
    np.testing.assert_allclose(paired_rate_difference_se(x[..., :1], y[..., :1], axis=1, repeat_axis=2),
                               paired_rate_difference_se(x[..., 0], y[..., 0]))
    with pytest.raises(ValueError, match="`repeat_axis`"):
        paired_rate_difference_se(x, y, axis=1, repeat_axis=-2)
