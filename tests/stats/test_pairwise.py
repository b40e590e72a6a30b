"""Every pair of learners with Holm's correction, and the cliques of a post-hoc test (stats.pairwise).

Independent implementations: scipy.stats (wilcoxon, binomtest), statsmodels
(multipletests, Holm), aeon 1.6.0 (``aeon.benchmarking.stats.wilcoxon_test``, one-sided
exact p-values; the test is skipped where aeon is not installed: its wheel pins
numba < 0.64, below the locked numba).
"""

import warnings

import numpy as np
import pytest
from scipy import stats

from replicability.stats.pairwise import pairwise_test, significance_cliques
from replicability.stats.ranks import average_ranks, critical_difference, rank_cliques


def _table(seed, n=20, k=5, gaps=0.0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) + np.linspace(0, 1, k)
    x[rng.random(x.shape) < gaps] = np.nan
    return x


@pytest.mark.parametrize("seed", range(5))
def test_signed_rank_pairs_match_scipy_and_statsmodels_holm(seed):
    from statsmodels.stats.multitest import multipletests

    x = _table(seed)
    res = pairwise_test(x)
    first, second = np.triu_indices(x.shape[1], 1)
    ref = np.array([stats.wilcoxon(x[:, i], x[:, j], zero_method="wilcox", correction=False,
                                   method="approx").pvalue for i, j in zip(first, second)])
    np.testing.assert_allclose(res.pvalue[first, second], ref, rtol=1e-12)
    np.testing.assert_allclose(res.adjusted_pvalue[first, second], multipletests(ref, method="holm")[1], rtol=1e-12)
    np.testing.assert_array_equal(res.adjusted_pvalue, res.adjusted_pvalue.T)
    np.testing.assert_array_equal(res.statistic, -res.statistic.T)


@pytest.mark.parametrize("seed", range(3))
def test_exact_sign_pairs_match_scipy_binomtest(seed):
    x = _table(seed, n=15, k=4)
    res = pairwise_test(x, test="sign", method="exact")
    for i, j in zip(*np.triu_indices(4, 1)):
        wins = int(np.sum(x[:, i] > x[:, j]))
        assert res.pvalue[i, j] == pytest.approx(stats.binomtest(wins, 15).pvalue, rel=1e-12)
        assert (res.wins[i, j], res.losses[i, j], res.ties[i, j]) == (wins, 15 - wins, 0)


def test_lower_is_better_flips_wins_and_statistic():
    x = _table(1)
    high, low = pairwise_test(x), pairwise_test(-x, better="lower")
    np.testing.assert_allclose(high.statistic, low.statistic, rtol=1e-12)
    np.testing.assert_array_equal(high.wins, low.wins)
    np.testing.assert_allclose(high.mean_difference, -low.mean_difference, rtol=1e-12)


def test_missing_cells_drop_the_data_set_from_that_learner_pairs_only():
    x = _table(2, gaps=0.2)
    res = pairwise_test(x)
    for i, j in zip(*np.triu_indices(x.shape[1], 1)):
        both = ~np.isnan(x[:, i]) & ~np.isnan(x[:, j])
        one = pairwise_test(x[both][:, [i, j]])
        assert res.pvalue[i, j] == one.pvalue[0, 1] and res.n_datasets[i, j] == both.sum()
        assert res.mean_difference[i, j] == pytest.approx(np.mean(x[both, i] - x[both, j]), rel=1e-12)


def test_vectorized_equals_loop():
    x = np.stack([_table(s, gaps=0.1) for s in range(3)])
    res = pairwise_test(x)
    for r in range(3):
        np.testing.assert_array_equal(res.adjusted_pvalue[r], pairwise_test(x[r]).adjusted_pvalue)


def test_multi_comparison_frame():
    res = pairwise_test(_table(3, k=3))
    frame = res.to_frame(["A", "B", "C"])
    assert list(frame["learner A"]) == ["A", "A", "B"] and list(frame["learner B"]) == ["B", "C", "C"]
    assert (frame["wins"] + frame["ties"] + frame["losses"] == frame["n_datasets"]).all()
    with pytest.raises(ValueError, match="one table"):
        pairwise_test(np.stack([_table(0), _table(1)])).to_frame()


@pytest.mark.parametrize("seed", range(20))
def test_cliques_of_nemenyi_decisions_are_rank_cliques(seed):
    x = np.round(_table(seed, n=12, k=int(3 + seed % 8)), 1)
    ranks = average_ranks(x)
    cd = critical_difference(x.shape[1], x.shape[0])
    differ = np.abs(ranks[:, None] - ranks[None, :]) >= cd
    assert significance_cliques(ranks, differ) == rank_cliques(ranks, cd)


def test_cliques_check_every_pair_inside_a_run():
    # 0 and 2 differ, 1 differs from neither: two runs, never one bar over 0..2
    differ = np.zeros((3, 3), dtype=bool)
    differ[0, 2] = differ[2, 0] = True
    assert significance_cliques([1.0, 2.0, 3.0], differ) == [(0, 1), (1, 2)]
    assert significance_cliques([1.0, 2.0, 3.0], np.ones((3, 3), dtype=bool)) == [(0,), (1,), (2,)]


def test_validation():
    with pytest.raises(ValueError, match="`test`"):
        pairwise_test(_table(0), test="nemenyi")
    with pytest.raises(ValueError, match="`method`"):
        pairwise_test(_table(0), method="bootstrap")
    with pytest.raises(ValueError, match="symmetric boolean"):
        significance_cliques([1.0, 2.0], np.array([[0, 1], [0, 0]], dtype=bool))
    with pytest.raises(ValueError, match="1-d"):
        significance_cliques([[1.0, 2.0]], np.zeros((2, 2), dtype=bool))


@pytest.mark.parametrize("seed", range(5))
def test_exact_signed_rank_matches_aeon_one_sided(seed):
    aeon_stats = pytest.importorskip("aeon.benchmarking.stats")
    x = _table(seed, n=25, k=5)
    order = np.argsort(average_ranks(x), kind="stable")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one_sided = aeon_stats.wilcoxon_test(x[:, order], [str(j) for j in order])
    ours = pairwise_test(x, method="exact").pvalue[np.ix_(order, order)]
    checked = 0
    for i, j in zip(*np.triu_indices(5, 1)):
        # aeon tests "the better-ranked learner is better"; where that tail is the smaller one, the exact
        # two-sided p-value is twice it
        if one_sided[i, j] < 0.5:
            assert ours[i, j] == pytest.approx(2 * one_sided[i, j], rel=1e-9, abs=1e-12)
            checked += 1
    assert checked >= 5
