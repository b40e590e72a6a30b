"""Tests of replicability.papers.shared.uci_outcomes on hand-made per-fold results."""

import numpy as np
import pytest
import xarray as xr
from scipy import stats

from replicability.papers.shared.uci_outcomes import (
    PAIR_LABELS,
    UCI_TESTS,
    consistency_table,
    draw_counts,
    fold_accuracy_differences,
    uci_test_outcomes,
)
from replicability.stats.ttests import corrected_resampled_ttest

LEARNERS = ["NaiveBayes", "J48", "IB1"]


def make_results(correct, n_test, n_train):
    """A uci_scheme_results-like Dataset from correct counts (dataset, learner, repeat, run, fold)."""
    correct = np.asarray(correct)
    n_datasets, n_learners, n_repeats, n_runs, n_folds = correct.shape
    shape = (n_datasets, n_repeats, n_runs, n_folds)
    dims = ("dataset", "repeat", "run", "fold")
    return xr.Dataset(
        {"correct": (("dataset", "learner", *dims[1:]), correct),
         "n_test": (dims, np.broadcast_to(np.asarray(n_test)[:, None, None, None], shape)),
         "n_train": (dims, np.broadcast_to(np.asarray(n_train)[:, None, None, None], shape))},
        coords={"dataset": [f"d{i}" for i in range(n_datasets)], "learner": LEARNERS[:n_learners],
                "repeat": np.arange(n_repeats), "run": np.arange(n_runs), "fold": np.arange(n_folds)},
    )


def random_results(seed, *, n_runs=10, n_folds=10, n_datasets=4, n_repeats=3):
    rng = np.random.default_rng(seed)
    n_test = rng.integers(10, 60, size=n_datasets)
    n_train = 9 * n_test + rng.integers(0, 5, size=n_datasets)
    p = rng.uniform(0.6, 0.9, size=(n_datasets, 3, 1, 1, 1))
    correct = rng.binomial(n_test[:, None, None, None, None], p, size=(n_datasets, 3, n_repeats, n_runs, n_folds))
    return make_results(correct, n_test, n_train)


def scipy_decision(pvalue, statistic, alpha=0.05):
    return np.where(pvalue < alpha, np.sign(statistic), 0)


# --------------------------------------------------------------------------- #
# differences
# --------------------------------------------------------------------------- #
def test_fold_accuracy_differences_values_and_sign():
    res = random_results(0)
    d = fold_accuracy_differences(res)
    assert d.dims == ("dataset", "pair", "repeat", "run", "fold")
    assert list(d["pair"].values) == list(PAIR_LABELS)
    acc = res["correct"] / res["n_test"]
    expected = acc.sel(learner="NaiveBayes") - acc.sel(learner="IB1")
    np.testing.assert_allclose(d.sel(pair="NaiveBayes-IB1").values, expected.values, rtol=1e-12, atol=1e-15)
    swapped = fold_accuracy_differences(res, pairs=["IB1-NaiveBayes"])
    np.testing.assert_array_equal(swapped.sel(pair="IB1-NaiveBayes").values, -d.sel(pair="NaiveBayes-IB1").values)


def test_fold_accuracy_differences_exact_zero_on_ties():
    res = random_results(1)
    res["correct"].loc[{"learner": "J48"}] = res["correct"].sel(learner="NaiveBayes")
    assert np.all(fold_accuracy_differences(res).sel(pair="NaiveBayes-J48").values == 0.0)


# --------------------------------------------------------------------------- #
# outcomes against independent implementations
# --------------------------------------------------------------------------- #
def test_repeated_cv_ttest_matches_scipy_ttest_rel():
    res = random_results(2)
    out = uci_test_outcomes(res, "repeated_cv_ttest", n_runs=5)
    acc = (res["correct"] / res["n_test"]).values[..., :5, :]
    a = acc[:, [0, 0, 1]].reshape(4, 3, 3, -1)
    b = acc[:, [1, 2, 2]].reshape(4, 3, 3, -1)
    ref = stats.ttest_rel(a, b, axis=-1)
    np.testing.assert_array_equal(out.values, scipy_decision(ref.pvalue, ref.statistic))
    assert out.dims == ("dataset", "pair", "repeat")


def test_cv_ttest_is_ttest_rel_on_run_zero():
    res = random_results(3)
    out = uci_test_outcomes(res, "cv_ttest", n_runs=10)
    acc = (res["correct"] / res["n_test"]).values[..., 0, :]
    ref = stats.ttest_rel(acc[:, [0, 0, 1]], acc[:, [1, 2, 2]], axis=-1)
    np.testing.assert_array_equal(out.values, scipy_decision(ref.pvalue, ref.statistic))


def test_sorted_runs_t_is_ttest_1samp_on_sorted_means():
    res = random_results(4)
    out = uci_test_outcomes(res, "sorted_runs_t", alpha=0.1)
    d = fold_accuracy_differences(res).values
    sample = np.sort(d, axis=-1).mean(axis=-2)  # Bouckaert (2004): sort each run, average over runs
    ref = stats.ttest_1samp(sample, 0.0, axis=-1)
    np.testing.assert_array_equal(out.values, scipy_decision(ref.pvalue, ref.statistic, alpha=0.1))


def test_corrected_tests_with_dataset_ratios_equal_a_loop_over_datasets():
    res = random_results(5)
    for test in ("corrected_repeated_cv", "corrected_resampled"):
        out = uci_test_outcomes(res, test, n_runs=4, alpha=0.2)
        d = fold_accuracy_differences(res).values[..., :4, :]
        for i in range(4):
            n_test = float(res["n_test"].values[i, 0, :4].sum())
            n_train = float(res["n_train"].values[i, 0, :4].sum())
            ref = corrected_resampled_ttest(d[i].reshape(3, 3, -1), n_train=n_train, n_test=n_test)
            np.testing.assert_array_equal(out.values[i], scipy_decision(ref.pvalue, ref.statistic, alpha=0.2))


def test_corrected_statistic_by_hand():
    # Nadeau & Bengio (2003): t = m / sqrt((1/n + n2/n1) s^2), t(n - 1).
    res = random_results(6, n_runs=20, n_folds=1, n_datasets=1, n_repeats=1)
    d = fold_accuracy_differences(res).values[0, 0, 0, :, 0]
    ratio = float(res["n_test"][0, 0, 0, 0] / res["n_train"][0, 0, 0, 0])
    t = d.mean() / np.sqrt((1 / 20 + ratio) * d.var(ddof=1))
    p = 2 * stats.t.sf(abs(t), 19)
    for alpha in (p * 0.999, p * 1.001):
        out = uci_test_outcomes(res, "corrected_resampled", alpha=alpha)
        assert int(out.values[0, 0, 0]) == (int(np.sign(t)) if p < alpha else 0)


def test_5x2cv_matches_dietterich_formula():
    res = random_results(7, n_runs=5, n_folds=2)
    out = uci_test_outcomes(res, "5x2cv", alpha=0.3)
    d = fold_accuracy_differences(res).values
    s2 = ((d - d.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)  # Dietterich (1998), Eq. 9
    t = d[..., 0, 0] / np.sqrt(s2.mean(axis=-1))
    p = 2 * stats.t.sf(np.abs(t), 5)
    np.testing.assert_array_equal(out.values, scipy_decision(p, t, alpha=0.3))


def test_known_outcomes_constant_and_tied_differences():
    # NB always one case better than J48: a non-zero constant -> p = 0 (Weka), A better;
    # J48 and IB1 tied everywhere -> p = 1, draw; NB vs IB1 then also A better.
    correct = np.stack([np.full((1, 2, 10, 10), 9), np.full((1, 2, 10, 10), 8), np.full((1, 2, 10, 10), 8)], axis=1)
    res = make_results(correct, [10], [90])
    for test in ("corrected_repeated_cv", "cv_ttest", "repeated_cv_ttest", "sorted_runs_t",
                 "sorted_runs_sign", "sorted_runs_signed_rank"):
        out = uci_test_outcomes(res, test)
        np.testing.assert_array_equal(out.sel(pair="NaiveBayes-J48").values, [[1, 1]])
        np.testing.assert_array_equal(out.sel(pair="J48-IB1").values, [[0, 0]])
    flipped = uci_test_outcomes(res, "corrected_repeated_cv", pairs=["J48-NaiveBayes"])
    np.testing.assert_array_equal(flipped.values, [[[-1, -1]]])


def test_printed_sign_rule_is_asymmetric():
    # Bouckaert (2004), Section 2.3 as printed: P(Z) = binomial cdf at Z pluses, reject for B if
    # P < alpha/2 and for A if P > 1 - alpha/2. For n = 10: P(1) = 11/1024 < 0.025, P(2) = 56/1024;
    # P(7) = 968/1024 < 0.975, P(8) = 1013/1024 > 0.975.
    expected = {0: -1, 1: -1, 2: 0, 7: 0, 8: 1, 10: 1}
    rng = np.random.default_rng(9)
    for n_plus, outcome in expected.items():
        # Sorted runs of 10 x 10 cv: fold k of every run has the same difference, so the sample is
        # the ten (sorted) fold differences; n_plus positive and the rest negative.
        d = np.where(np.arange(10) < n_plus, 1, -1) * rng.integers(1, 3, size=10)
        correct = np.stack([np.broadcast_to(10 + d, (1, 1, 10, 10)), np.full((1, 1, 10, 10), 10)], axis=1)
        res = make_results(correct, [20], [180])
        out = uci_test_outcomes(res, "sorted_runs_sign_printed", pairs=["NaiveBayes-J48"])
        assert int(out.values[0, 0, 0]) == outcome, n_plus
    # A zero counts half a plus, and the half-integer count is rounded down: 1.5 pluses -> B better.
    d = np.array([0, 1] + [-1] * 8)
    correct = np.stack([np.broadcast_to(10 + d, (1, 1, 10, 10)), np.full((1, 1, 10, 10), 10)], axis=1)
    out = uci_test_outcomes(make_results(correct, [20], [180]), "sorted_runs_sign_printed", pairs=["NaiveBayes-J48"])
    assert int(out.values[0, 0, 0]) == -1


def test_printed_sign_rule_counts_exact_zeros_as_half():
    # Three runs whose fold differences are 0.1, 0.2 and -0.3 (n_test = 10): every sorted position
    # sums to zero in exact arithmetic but to 5.6e-17 in floating point. Exactly, Z = 5 of 10 pluses,
    # P(5) = 638/1024: a draw (the float sum made it ten pluses, "A better").
    assert np.mean([0.1, 0.2, -0.3]) != 0
    d = np.broadcast_to(np.array([1, 2, -3])[:, None], (3, 10))
    correct = np.stack([np.broadcast_to(10 + d, (1, 1, 3, 10)), np.full((1, 1, 3, 10), 10)], axis=1)
    out = uci_test_outcomes(make_results(correct, [10], [90]), "sorted_runs_sign_printed", pairs=["NaiveBayes-J48"])
    assert int(out.values[0, 0, 0]) == 0


def test_sorted_runs_sums_are_exact_multiples_of_the_fraction_means():
    # Varying test-set sizes within a data set: the integer sums equal, as fractions, L times the sums
    # over runs of the sorted fold differences (c_A - c_B) / n_test.
    from fractions import Fraction

    from replicability.papers.shared.uci_outcomes import _sorted_runs_sums

    res = random_results(11, n_runs=4, n_datasets=2, n_repeats=2)
    rng = np.random.default_rng(3)
    n_test = rng.choice([14, 15, 21], size=res["n_test"].shape)
    res["n_test"] = (res["n_test"].dims, n_test)
    sums = _sorted_runs_sums(res, ["NaiveBayes-IB1"], 4)
    assert sums.dtype == np.int64 and sums.shape == (2, 1, 2, 10)
    c = res["correct"].values
    for i in range(2):
        lcm = np.lcm.reduce(np.unique(n_test[i]))
        for rep in range(2):
            runs = [sorted(Fraction(int(c[i, 0, rep, r, f] - c[i, 2, rep, r, f]), int(n_test[i, rep, r, f]))
                           for f in range(10)) for r in range(4)]
            expected = [sum(run[k] for run in runs) * lcm for k in range(10)]
            assert [Fraction(int(v)) for v in sums[i, 0, rep]] == expected


def test_n_runs_selects_the_first_runs():
    res = random_results(8)
    first = res.isel(run=slice(0, 3))
    np.testing.assert_array_equal(uci_test_outcomes(res, "corrected_repeated_cv", n_runs=3).values,
                                  uci_test_outcomes(first, "corrected_repeated_cv").values)


def test_every_test_has_a_scheme():
    assert {scheme for scheme, _ in UCI_TESTS.values()} == {"5x2", "resample", "cv"}


# --------------------------------------------------------------------------- #
# consistency table
# --------------------------------------------------------------------------- #
# Bouckaert & Frank (2004), Table 1, column "NB vs C4.5" (draws out of 10) and its
# bottom rows: consistent 9, almost consistent 14, R 0.737.
TABLE1_NB_C45 = [4, 9, 5, 10, 1, 10, 6, 7, 9, 6, 4, 9, 8, 10, 10, 10, 8, 9, 10, 7, 10, 8, 0, 4, 4, 8, 10]


def outcomes_from_draws(draws, n=10, reject=1):
    o = np.full((len(draws), n), reject, dtype=np.int8)
    for i, k in enumerate(draws):
        o[i, :k] = 0
    return xr.DataArray(o[:, None], dims=("dataset", "pair", "repeat"), coords={"pair": ["NaiveBayes-J48"]})


def test_consistency_table_reproduces_bouckaert_frank_table1_column():
    table = consistency_table(outcomes_from_draws(TABLE1_NB_C45))
    row = table.loc["NaiveBayes-J48"]
    assert int(row["consistent"]) == 9
    assert int(row["almost_consistent"]) == 14
    assert round(float(row["R"]), 3) == 0.737
    assert float(row["normalized_R"]) == pytest.approx(2 * float(row["R"]) - 1, rel=1e-12)
    assert int(row["n_datasets"]) == 27


def test_draw_counts_recover_the_column():
    np.testing.assert_array_equal(draw_counts(outcomes_from_draws(TABLE1_NB_C45)).values[:, 0], TABLE1_NB_C45)


def test_directional_outcomes_split_mixed_rejections():
    o = np.array([[1] * 5 + [-1] * 5, [1] * 10])[:, None]
    outcomes = xr.DataArray(o, dims=("dataset", "pair", "repeat"))
    two = consistency_table(outcomes)
    three = consistency_table(outcomes, directional=True)
    assert int(two["consistent"].iloc[0]) == 2
    assert int(three["consistent"].iloc[0]) == 1
    # R̂2 of 5 +1 and 5 -1: 2 C(5,2) / C(10,2) = 20/45.
    assert float(three["R"].iloc[0]) == pytest.approx((20 / 45 + 1) / 2, rel=1e-12)


def test_consistency_table_keeps_extra_dimensions():
    a = outcomes_from_draws(TABLE1_NB_C45)
    b = outcomes_from_draws([10] * 27)
    table = consistency_table(xr.concat([a, b], dim="n_runs").assign_coords(n_runs=[10, 100]))
    assert table.index.names == ["n_runs", "pair"]
    assert table.loc[(100, "NaiveBayes-J48"), "consistent"] == 27
    assert table.loc[(10, "NaiveBayes-J48"), "consistent"] == 9


# --------------------------------------------------------------------------- #
# validation
# --------------------------------------------------------------------------- #
def test_rejects_unknown_test():
    with pytest.raises(ValueError, match="`test`"):
        uci_test_outcomes(random_results(0), "mcnemar")


def test_rejects_too_many_runs():
    with pytest.raises(ValueError, match="`n_runs`"):
        uci_test_outcomes(random_results(0), "corrected_repeated_cv", n_runs=11)


def test_rejects_non_positive_runs():
    with pytest.raises(ValueError, match="`n_runs`"):
        uci_test_outcomes(random_results(0), "corrected_repeated_cv", n_runs=0)


def test_rejects_bad_alpha():
    with pytest.raises(ValueError, match="`alpha`"):
        uci_test_outcomes(random_results(0), "cv_ttest", alpha=1.5)


def test_rejects_results_that_are_not_a_dataset():
    with pytest.raises(TypeError, match="`results`"):
        uci_test_outcomes(np.zeros((3, 3)), "cv_ttest")


def test_rejects_unknown_pair():
    with pytest.raises(ValueError, match="`pairs`"):
        fold_accuracy_differences(random_results(0), pairs=["NaiveBayes-SMO"])


def test_rejects_5x2_on_other_shapes():
    with pytest.raises(ValueError, match="`results`"):
        uci_test_outcomes(random_results(0), "5x2cv")


def test_rejects_outcomes_without_repeat_dimension():
    with pytest.raises(TypeError, match="`outcomes`"):
        consistency_table(np.zeros((3, 10)))
    with pytest.raises(TypeError, match="`outcomes`"):
        draw_counts(xr.DataArray(np.zeros((3, 10)), dims=("dataset", "run")))
