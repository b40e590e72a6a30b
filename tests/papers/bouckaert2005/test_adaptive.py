"""Tests of the adaptive cv design (Bouckaert 2005, Conclusions)."""

import numpy as np
import pytest

from replicability.papers.bouckaert2005.adaptive import adaptive_cv_outcomes, simulate_adaptive
from replicability.papers.bouckaert2005.histograms import histogram_measures
from replicability.papers.bouckaert2005.task1 import cv_outcomes
from replicability.sources.counts import sample_task1_counts


@pytest.fixture
def data():
    return sample_task1_counts(1000, 0.26, n_datasets=8, rng=3)


@pytest.mark.parametrize("scheme", ["sorted_cv", "cv"])
def test_single_stage_is_the_fixed_design(data, scheme):
    out, cost = adaptive_cv_outcomes(data, stages=(10,), scheme=scheme, n_repeats=4, rng=5)
    fixed = cv_outcomes(data, n_runs=10, sorted_folds=scheme == "sorted_cv", n_repeats=4, rng=5)
    np.testing.assert_array_equal(out, fixed)
    assert np.all(cost == 100)


def test_without_early_stops_the_last_stage_decides(data):
    # thresholds that never stop early: the result is the fixed 5 x 10 design on the same runs
    out, cost = adaptive_cv_outcomes(
        data, stages=(2, 5), stop_reject=1e-300, stop_accept=1 - 1e-12, n_repeats=4, rng=7
    )
    np.testing.assert_array_equal(out, cv_outcomes(data, n_runs=5, sorted_folds=True, n_repeats=4, rng=7))
    assert np.all(cost == 50)


def test_early_stops_save_cost_when_the_gap_is_large():
    strong = sample_task1_counts(5000, 0.4, n_datasets=5, rng=0)  # gap 0.3
    out, cost = adaptive_cv_outcomes(strong, n_repeats=3, rng=1)
    assert np.all(out == -1)
    assert np.all(cost == 10)


def test_costs_are_stage_costs(data):
    _, cost = adaptive_cv_outcomes(data, stages=(1, 3, 6), n_repeats=10, rng=2)
    assert set(np.unique(cost).tolist()) <= {10, 30, 60}


def test_simulate_adaptive_counts_every_data_set_and_bounds_cost():
    ds = simulate_adaptive(1000, [0.0, 0.05], n_datasets=6, n_repeats=3, seed=4, stages=(1, 3))
    assert ds["histogram"].dtype == np.int32
    np.testing.assert_array_equal(ds["histogram"].sum("cell"), 6)
    m = histogram_measures(ds["histogram"].values, n_repeats=3)
    assert m["r2"].shape == (2,)
    assert np.all((ds["mean_cost"] >= 10) & (ds["mean_cost"] <= 30))


def test_stages_must_increase(data):
    with pytest.raises(ValueError, match="`stages`"):
        adaptive_cv_outcomes(data, stages=(10, 5))


def test_scheme_must_be_known(data):
    with pytest.raises(ValueError, match="`scheme`"):
        adaptive_cv_outcomes(data, scheme="resampling")


def test_stop_thresholds_must_be_ordered(data):
    with pytest.raises(ValueError, match="`stop_reject`"):
        adaptive_cv_outcomes(data, stop_reject=0.5, stop_accept=0.1)


def test_stop_accept_in_unit_interval(data):
    with pytest.raises(ValueError, match="`stop_accept`"):
        adaptive_cv_outcomes(data, stop_accept=1.0)


def test_gaps_must_lie_in_range():
    with pytest.raises(ValueError, match="`gaps`"):
        simulate_adaptive(1000, [-0.1], n_datasets=2)
