"""Skillings–Mack and Durbin tests for tables with missing cells (stats.incomplete).

Reference values: Hollander & Wolfe (1999, Chapter 7; Brady's 1969 data) as computed by
R's PMCMRplus ``skillingsMackTest`` (its help page's example: SM = 13.28095, p =
0.001306405, df 2; also recorded in tlsfuzzer's ``tests/test_tlsfuzzer_utils_stats.py``,
with a second, five-learner example SM = 12.53551, p = 0.01378318, df 4); Conover (1999,
Sec. 5.8, p. 391), the ice creams: T1 = 12.00, T2 = 8.00. Independent implementations:
scipy.stats.friedmanchisquare (complete tables), scikit-posthocs 0.17.1 ``test_durbin``.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from replicability.stats.incomplete import durbin_test, is_balanced_incomplete, skillings_mack_test
from replicability.stats.ranks import friedman_test

nan = np.nan

# Hollander & Wolfe (1999), Brady (1969): rows subjects, columns R, A, B; A missing for subject 4.
BRADY = np.array([[3, 5, 15], [1, 3, 18], [5, 4, 21], [2, nan, 6], [0, 2, 17], [0, 2, 10], [0, 3, 8], [0, 2, 13]])

# Conover (1999), p. 391: ranks of 3 of 7 ice creams (columns) by 7 judges (rows), 1 = best.
ICE_CREAM = np.array([[2, 3, nan, 1, nan, nan, nan], [nan, 3, 1, nan, 2, nan, nan], [nan, nan, 2, 1, nan, 3, nan],
                      [nan, nan, nan, 1, 2, nan, 3], [3, nan, nan, nan, 1, 2, nan], [nan, 3, nan, nan, nan, 1, 2],
                      [3, nan, 1, nan, nan, nan, 2]])


def test_skillings_mack_hollander_wolfe_example():
    res = skillings_mack_test(BRADY)
    assert res.statistic == pytest.approx(13.28095, abs=5e-6)  # PMCMRplus
    assert res.pvalue == pytest.approx(0.001306405, rel=1e-6)
    assert res.df == 2 and res.n_missing == 1 and res.n_blocks == 8 and res.method == "skillings-mack"


def test_skillings_mack_five_learners_many_gaps():
    # tlsfuzzer's example (values from R): learner 5 only on data set 1, learner 4 on data sets 3 and 7.
    cells = {(1, 1): 3, (1, 2): 5, (1, 3): 15, (1, 5): 4, (2, 1): 1, (2, 2): 3, (3, 1): 5, (3, 2): 4, (3, 3): 21,
             (3, 4): 5, (4, 1): 2, (4, 3): 6, (5, 1): 0, (5, 2): 2, (5, 3): 17, (6, 1): 0, (6, 2): 2, (6, 3): 10,
             (7, 1): 0, (7, 2): 3, (7, 4): 5, (8, 1): 0, (8, 2): 2, (8, 3): 13}
    table = np.full((8, 5), nan)
    for (block, learner), value in cells.items():
        table[block - 1, learner - 1] = value
    res = skillings_mack_test(table)
    assert res.statistic == pytest.approx(12.53551, abs=5e-6)
    assert res.pvalue == pytest.approx(0.01378318, rel=1e-6)
    assert res.df == 4


def test_durbin_conover_ice_creams():
    res = durbin_test(ICE_CREAM, better="lower")
    assert res.statistic == pytest.approx(12.00, abs=1e-12)  # Conover's T1
    assert res.f_statistic == pytest.approx(8.00, abs=1e-12)  # Conover's T2
    assert res.df == 6 and res.f_df == (6, 8) and res.method == "durbin"
    assert res.pvalue == pytest.approx(stats.chi2.sf(12.0, 6), rel=1e-12)
    assert res.f_pvalue == pytest.approx(stats.f.sf(8.0, 6, 8), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_durbin_equals_scikit_posthocs_with_ties(seed):
    import scikit_posthocs as sp

    rng = np.random.default_rng(seed)
    table = np.where(np.isnan(ICE_CREAM), nan, np.round(rng.normal(size=ICE_CREAM.shape), 0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas deprecations inside scikit-posthocs
        pvalue, statistic, _ = sp.test_durbin(pd.DataFrame(table))
    res = durbin_test(table)
    assert res.statistic == pytest.approx(statistic, rel=1e-12, abs=1e-12)
    assert res.pvalue == pytest.approx(pvalue, rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_skillings_mack_is_durbin_on_balanced_design_without_ties(seed):
    rng = np.random.default_rng(seed)
    table = np.where(np.isnan(ICE_CREAM), nan, rng.normal(size=ICE_CREAM.shape))
    assert skillings_mack_test(table).statistic == pytest.approx(durbin_test(table).statistic, rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_skillings_mack_is_friedman_on_complete_tables(seed):
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(12, 5)) + np.arange(5) * 0.3
    res = skillings_mack_test(table)
    assert res.statistic == pytest.approx(float(friedman_test(table).statistic), rel=1e-12)
    assert res.statistic == pytest.approx(stats.friedmanchisquare(*table.T).statistic, rel=1e-12)
    assert res.df == 4 and res.n_missing == 0


def test_vectorized_equals_loop():
    rng = np.random.default_rng(3)
    tables = rng.normal(size=(2, 3, 15, 4))
    tables[rng.random(tables.shape) < 0.2] = nan
    res = skillings_mack_test(tables, better="lower")
    for at in np.ndindex(2, 3):
        one = skillings_mack_test(tables[at], better="lower")
        assert res.statistic[at] == one.statistic and res.pvalue[at] == one.pvalue
        np.testing.assert_array_equal(res.average_ranks[at], one.average_ranks)


def test_average_ranks_over_present_learners():
    res = skillings_mack_test(BRADY, better="lower")
    np.testing.assert_allclose(res.average_ranks, [9 / 8, 13 / 7, 23 / 8])


def test_blocks_with_one_score_are_dropped():
    with_single = np.vstack([BRADY, [[7, nan, nan]]])
    res = skillings_mack_test(with_single)
    assert res.n_blocks == 8 and res.statistic == skillings_mack_test(BRADY).statistic


def test_is_balanced_incomplete():
    assert is_balanced_incomplete(ICE_CREAM)
    assert not is_balanced_incomplete(BRADY)
    assert not is_balanced_incomplete(np.ones((4, 3)))  # complete: not incomplete
    with pytest.raises(ValueError, match="2-d"):
        is_balanced_incomplete(np.ones(3))


def test_durbin_degenerate_all_tied():
    res = durbin_test(np.where(np.isnan(ICE_CREAM), nan, 1.0))
    assert (res.statistic, res.pvalue, res.f_statistic, res.f_pvalue) == (0.0, 1.0, 0.0, 1.0)


# --------------------------------------------------------------------------
# validation: one test per rule
# --------------------------------------------------------------------------


def test_refuses_learners_that_never_meet():
    table = np.array([[1, 2, nan, nan], [2, 1, nan, nan], [nan, nan, 1, 2], [nan, nan, 2, 1.0]])
    with pytest.raises(ValueError, match="never meet"):
        skillings_mack_test(table)


def test_refuses_learner_without_shared_data_set():
    table = np.array([[1, 2, nan], [2, 1, nan], [3, 1, nan], [nan, nan, 4.0]])
    with pytest.raises(ValueError, match=r"learners \[2\]"):
        skillings_mack_test(table)


def test_refuses_fewer_than_two_usable_data_sets():
    with pytest.raises(ValueError, match="at least 2 data sets"):
        skillings_mack_test([[1, 2, 3], [1, nan, nan]])


def test_refuses_infinite_scores():
    with pytest.raises(ValueError, match="infinite"):
        skillings_mack_test([[1, 2], [np.inf, 1], [2, 1]])


def test_refuses_text_and_small_tables():
    with pytest.raises(TypeError):
        skillings_mack_test([["a", "b"], ["c", "d"]])
    with pytest.raises(ValueError, match="shape"):
        skillings_mack_test([[1.0, 2.0]])
    with pytest.raises(ValueError, match="`better`"):
        skillings_mack_test(BRADY, better="up")


def test_durbin_refuses_unbalanced_design():
    with pytest.raises(ValueError, match="balanced incomplete block design"):
        durbin_test(BRADY)


# --------------------------------------------------------------------------
# calibration under the null: random gaps in a table of 27 data sets x 5 learners
# --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("fraction", [0.1, 0.2, 0.3])
def test_skillings_mack_type_one_error_with_random_gaps(fraction):
    rng = np.random.default_rng(int(fraction * 100))
    n_sim, rejections = 2000, 0
    for _ in range(n_sim):
        table = rng.normal(size=(27, 5))
        table[rng.random(table.shape) < fraction] = nan
        rejections += bool(skillings_mack_test(table).pvalue < 0.05)
    # the level must lie in the 99% Clopper-Pearson interval of the rejection rate
    ci = stats.binomtest(rejections, n_sim).proportion_ci(confidence_level=0.99)
    assert ci.low <= 0.05 <= ci.high, (fraction, rejections / n_sim)
