"""Tests of the Task I experiment designs (Bouckaert 2005, Sections 2 and 4)."""

import zlib

import numpy as np
import pytest
from scipy import stats

from replicability.papers.bouckaert2005.histograms import outcome_histogram
from replicability.papers.bouckaert2005.task1 import (
    TASK1_DESIGNS,
    _cv_differences,
    _cv_draws,
    cv_outcomes,
    design_outcomes,
    mcnemar_outcomes,
    resampling_outcomes,
    simulate_task1,
)
from replicability.sources.counts import holdout_fold_counts, sample_task1_counts, task1_fold_statistics
from replicability.stats.contingency import mcnemar_test
from replicability.stats.decisions import decide
from replicability.stats.schemes import scheme_ttest
from replicability.stats.ttests import corrected_repeated_cv_ttest, corrected_resampled_ttest, kfold_cv_ttest


@pytest.fixture
def data():
    # 6 data sets of 1000 instances at gap 0.04 (q = 0.27), shape (2, 3, 4).
    return sample_task1_counts(1000, [0.27, 0.27], n_datasets=3, rng=11)


# --------------------------------------------------------------------------
# designs against direct computation with the package's counts and tests
# --------------------------------------------------------------------------
@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_equals_direct_computation(data, correction):
    # The three-colour urn (c00, c01, rest) makes the same two first
    # hypergeometric draws as the four-colour urn of holdout_fold_counts.
    out = mcnemar_outcomes(data, test_size=0.1, n_repeats=7, correction=correction, rng=5)
    test = holdout_fold_counts(data, n_test=100, n_runs=7, rng=5)
    s = task1_fold_statistics(test)
    b, c = s.correct_a - s.correct_both, s.correct_b - s.correct_both
    expected = decide(mcnemar_test(b, c, correction=correction), alpha=0.05)
    assert out.shape == (2, 3, 7)
    np.testing.assert_array_equal(out, expected)


def test_resampling_equals_direct_computation(data):
    out = resampling_outcomes(data, n_runs=10, n_repeats=4, alpha=0.1, rng=3)
    test = holdout_fold_counts(data, n_test=100, n_runs=40, rng=3)
    s = task1_fold_statistics(test)
    d = ((s.correct_a - s.correct_b) / s.n_test).reshape(2, 3, 4, 10)
    expected = decide(corrected_resampled_ttest(d, n_train=900, n_test=100), alpha=0.1)
    np.testing.assert_array_equal(out, expected)


def test_cv_folds_partition_the_data(data):
    c00, c01, sizes = _cv_draws(data, 10, 5, np.random.default_rng(0))
    assert sizes.tolist() == [100] * 10
    np.testing.assert_array_equal(c00.sum(axis=-1), np.broadcast_to(data[..., 0, None], (2, 3, 5)))
    np.testing.assert_array_equal(c01.sum(axis=-1), np.broadcast_to(data[..., 1, None], (2, 3, 5)))


def test_cv_fold_counts_are_hypergeometric():
    # Fold 4 of a shuffled 10-fold partition is a uniform random subset of
    # 100 instances: its count of cell (0, 0) is hypergeometric(1000, 300, 100).
    urn = np.array([[300, 200, 250, 250]])
    c00, c01, _ = _cv_draws(urn, 10, 20000, np.random.default_rng(1))
    x = c00[0, :, 4]
    dist = stats.hypergeom(1000, 300, 100)
    se = dist.std() / np.sqrt(x.size)
    assert abs(x.mean() - dist.mean()) < 4 * se
    # variance of the sample variance ~ 2 var^2 / N for a near-normal count
    assert abs(x.var(ddof=1) - dist.var()) < 4 * dist.var() * np.sqrt(2 / x.size)
    np.testing.assert_array_less(-1, c01)


def test_cv_outcomes_equal_tests_on_the_same_folds(data):
    d = _cv_differences(data, 3, 10, 4, np.random.default_rng(9))
    expected = decide(corrected_repeated_cv_ttest(d, n_train=9, n_test=1), alpha=0.05)
    np.testing.assert_array_equal(cv_outcomes(data, n_runs=3, n_repeats=4, rng=9), expected)
    # Sorted folds (Section 2.4, ERRATA: var / k): scheme "sorted_runs" of Bouckaert 2003.
    sorted_expected = decide(scheme_ttest(d, scheme="sorted_runs"), alpha=0.05)
    got = cv_outcomes(data, n_runs=3, sorted_folds=True, n_repeats=4, rng=9)
    np.testing.assert_array_equal(got, sorted_expected)


def test_sorted_cv_with_one_run_is_the_kfold_ttest(data):
    d = _cv_differences(data, 1, 10, 4, np.random.default_rng(2))[..., 0, :]
    expected = decide(kfold_cv_ttest(d), alpha=0.05)
    got = cv_outcomes(data, n_runs=1, sorted_folds=True, n_repeats=4, rng=2)
    np.testing.assert_array_equal(got, expected)


def test_design_outcomes_dispatch(data):
    for name, spec in TASK1_DESIGNS.items():
        if spec.cost > 100:
            continue
        out = design_outcomes(data, name, n_repeats=2, rng=4)
        assert out.shape == (2, 3, 2)
    np.testing.assert_array_equal(
        design_outcomes(data, "mcnemar_66_33", n_repeats=3, rng=4),
        mcnemar_outcomes(data, test_size=1 / 3, n_repeats=3, rng=4),
    )


def test_design_costs_match_the_paper():
    # Section 4.3: 10x resampling = 1x10 cv, 100x = 10x10 cv, 500x = 50x10 cv in effort.
    cost = {k: v.cost for k, v in TASK1_DESIGNS.items()}
    assert cost["resampling_10"] == cost["cv_1x10"] == 10
    assert cost["resampling_100"] == cost["cv_10x10"] == cost["sorted_cv_10x10"] == 100
    assert cost["resampling_500"] == cost["cv_50x10"] == 500
    assert cost["mcnemar_90_10"] == 1


def test_strong_gap_gives_b_better_and_null_gives_few_rejections():
    strong = sample_task1_counts(10_000, 0.35, n_datasets=20, rng=0)  # gap 0.2
    assert (mcnemar_outcomes(strong, test_size=0.1, rng=1) == -1).all()
    null = sample_task1_counts(10_000, 0.25, n_datasets=400, rng=0)
    out = mcnemar_outcomes(null, test_size=0.5, correction=False, rng=1)
    # 4000 tests at alpha = 5%: 99.99% binomial interval of the rejection rate.
    lo, hi = stats.binom.interval(0.9999, out.size, 0.05)
    assert lo <= np.count_nonzero(out) <= hi


def test_simulate_task1_equals_direct_computation():
    gaps = [0.0, 0.05]
    ds = simulate_task1(["mcnemar_90_10", "resampling_10"], 2000, gaps, n_datasets=30, seed=7)
    assert ds["histogram"].dtype == np.int32
    assert ds["histogram"].shape == (2, 2, 66)
    np.testing.assert_array_equal(ds["histogram"].sum("cell"), 30)
    alone = simulate_task1(["resampling_10"], 2000, gaps, n_datasets=30, seed=7)
    # a design's result does not depend on the designs simulated with it
    np.testing.assert_array_equal(alone["histogram"][0], ds["histogram"][1])
    # Seeding contract (simulate_task1 docstring): data sets from
    # default_rng([seed, n, g]); splits from default_rng([seed, n, g, family, chunk]).
    family = zlib.crc32(repr(("mcnemar", 1, 0.1)).encode())
    for g, gap in enumerate(gaps):
        data = sample_task1_counts(2000, 0.25 + gap / 2, n_datasets=30, rng=np.random.default_rng([7, 2000, g]))
        out = mcnemar_outcomes(data, test_size=0.1, rng=np.random.default_rng([7, 2000, g, family, 0]))
        np.testing.assert_array_equal(ds["histogram"].values[0, g], outcome_histogram(out))


def test_simulate_task1_is_deterministic_and_sorted_cv_shares_folds():
    a = simulate_task1(["cv_1x10", "sorted_cv_1x10"], 1000, [0.0, 0.1], n_datasets=20, seed=1)
    b = simulate_task1(["sorted_cv_1x10"], 1000, [0.0, 0.1], n_datasets=20, seed=1)
    np.testing.assert_array_equal(a["histogram"][1], b["histogram"][0])
    c = simulate_task1(["sorted_cv_1x10"], 1000, [0.0, 0.1], n_datasets=20, seed=1)
    np.testing.assert_array_equal(b["histogram"], c["histogram"])


# --------------------------------------------------------------------------
# validation: one test per rule
# --------------------------------------------------------------------------
def test_test_size_must_be_in_unit_interval(data):
    with pytest.raises(ValueError, match="`test_size`"):
        mcnemar_outcomes(data, test_size=1.5)


def test_test_size_must_leave_a_test_set():
    with pytest.raises(ValueError, match="`test_size`"):
        mcnemar_outcomes([[3, 3, 2, 2]], test_size=0.01)


def test_cell_counts_must_have_one_size():
    with pytest.raises(ValueError, match="`cell_counts`"):
        mcnemar_outcomes([[30, 20, 20, 30], [30, 20, 20, 31]], test_size=0.1)


def test_cell_counts_must_have_four_cells():
    with pytest.raises(ValueError, match="`cell_counts`"):
        mcnemar_outcomes([[30, 20, 20]], test_size=0.1)


def test_n_runs_at_least_two_for_resampling(data):
    with pytest.raises(ValueError, match="`n_runs`"):
        resampling_outcomes(data, n_runs=1)


def test_n_runs_positive_for_cv(data):
    with pytest.raises(ValueError, match="`n_runs`"):
        cv_outcomes(data, n_runs=0)


def test_n_folds_at_most_data_size():
    with pytest.raises(ValueError, match="`n_folds`"):
        cv_outcomes([[2, 2, 1, 1]], n_runs=1, n_folds=10)


def test_sorted_folds_must_be_bool(data):
    with pytest.raises(ValueError, match="`sorted_folds`"):
        cv_outcomes(data, n_runs=1, sorted_folds="yes")


def test_n_repeats_positive(data):
    with pytest.raises(ValueError, match="`n_repeats`"):
        mcnemar_outcomes(data, test_size=0.1, n_repeats=0)


def test_alpha_in_unit_interval(data):
    with pytest.raises(ValueError, match="`alpha`"):
        mcnemar_outcomes(data, test_size=0.1, alpha=1.0)


def test_design_must_be_known(data):
    with pytest.raises(ValueError, match="`design`"):
        design_outcomes(data, "mcnemar_80_20")


def test_gaps_must_lie_in_range():
    with pytest.raises(ValueError, match="`gaps`"):
        simulate_task1(["mcnemar_90_10"], 1000, [0.6], n_datasets=2)
