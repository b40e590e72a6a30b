"""Average ranks, the Friedman test and its post-hoc tests (stats.ranks).

Reference values: Demšar (2006), JMLR 7:1-30, Section 3.2.2 and Tables 5-6, transcribed in
data/published/demsar2006 (see its README for the provenance). Independent
implementations: scipy.stats (friedmanchisquare, wilcoxon, studentized_range),
scikit-posthocs 0.17.1 (posthoc_nemenyi_friedman; test_durbin, which on complete
blocks is the tie-corrected Friedman test), autorank 1.3.0 (mean ranks, CD) and
statsmodels (multipletests, Holm).
"""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from replicability.report import read_published
from replicability.stats.control import control_test
from replicability.stats.ranks import (
    average_ranks,
    critical_difference,
    critical_value,
    friedman_test,
    nemenyi_test,
    rank_cliques,
    rank_scores,
)

LEARNERS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]


def _demsar_table6():
    table = read_published("demsar2006", "table6")
    auc = table.pivot(index="dataset", columns="learner", values="auc")[LEARNERS]
    rank = table.pivot(index="dataset", columns="learner", values="rank")[LEARNERS]
    return auc, rank


def _published(quantity, learner=None, alpha=None):
    ex = read_published("demsar2006", "worked_example")
    rows = ex[ex["quantity"] == quantity]
    if learner is not None:
        rows = rows[rows["learner"] == learner]
    if alpha is not None:
        rows = rows[np.isclose(rows["alpha"], alpha)]
    assert len(rows) == 1, (quantity, learner, alpha)
    return float(rows["value"].iloc[0])


def _tables(seed, n_tables=6, ties=False):
    """Random score tables (N data sets x k learners) of several sizes, with ties if asked."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_tables):
        n, k = int(rng.integers(5, 30)), int(rng.integers(3, 9))
        x = rng.normal(size=(n, k)) + rng.normal(size=k)  # learners differ a little
        out.append(np.round(x, 0) if ties else x)
    return out


# --------------------------------------------------------------------------
# Demšar (2006): the worked example of Section 3.2.2
# --------------------------------------------------------------------------


def test_printed_ranks_follow_the_printed_auc_except_the_rounded_voting_row():
    auc, rank = _demsar_table6()
    ours = pd.DataFrame(rank_scores(auc.to_numpy()), index=auc.index, columns=LEARNERS)
    differ = ours.index[(ours != rank).any(axis=1)].tolist()
    # Voting prints 0.975 twice, ranked 2 and 3: the unrounded AUCs differ (the text
    # lists iris, lung cancer, mushroom and primary tumor as the rows with ties).
    assert differ == ["voting"]
    assert rank.loc["voting"].tolist() == [4, 1, 2, 3]
    assert ours.loc["voting"].tolist() == [4, 1, 2.5, 2.5]


def test_demsar_average_ranks_friedman_and_iman_davenport():
    _, rank = _demsar_table6()
    res = friedman_test(rank.to_numpy(), better="lower")
    for learner, r in zip(LEARNERS, res.average_ranks):
        assert round(float(r), 3) == _published("average_rank", learner)
    assert round(float(res.statistic), 2) == _published("friedman_chi2")
    assert round(float(res.iman_davenport), 2) == _published("iman_davenport_f")
    assert res.df == 3 and res.iman_davenport_df == (3, 39)
    assert round(float(stats.f.ppf(0.95, *res.iman_davenport_df)), 2) == _published("f_critical_value", alpha=0.05)
    assert res.iman_davenport_pvalue < 0.05  # "so we reject the null-hypothesis"
    # From the printed AUC, with voting's rounded values tied, the numbers differ.
    auc, _ = _demsar_table6()
    assert round(float(friedman_test(auc.to_numpy()).statistic), 2) != _published("friedman_chi2")


def test_demsar_critical_differences():
    assert round(critical_value(4), 3) == _published("nemenyi_critical_value", alpha=0.05)
    assert round(critical_difference(4, 14), 2) == _published("nemenyi_cd", alpha=0.05)
    assert round(critical_difference(4, 14, alpha=0.10), 2) == _published("nemenyi_cd", alpha=0.10)
    q_dunn = critical_value(4, test="bonferroni-dunn")
    assert round(q_dunn, 3) == _published("bonferroni_dunn_critical_value", alpha=0.05)
    assert round(float(np.sqrt(4 * 5 / (6 * 14))), 3) == _published("standard_error")
    # The paper prints CD = 1.16 for 2.394 * 0.48795 = 1.168 (truncated, see the errata);
    # its three decisions hold with either value.
    cd = critical_difference(4, 14, test="bonferroni-dunn")
    assert round(cd, 3) == 1.168 and _published("bonferroni_dunn_cd", alpha=0.05) == 1.16
    ranks = friedman_test(_demsar_table6()[1].to_numpy(), better="lower").average_ranks
    assert ranks[0] - ranks[3] > cd and ranks[0] - ranks[1] < cd and ranks[0] - ranks[2] < cd


def test_demsar_figure1a_cliques_and_nemenyi_decisions():
    _, rank = _demsar_table6()
    at10 = nemenyi_test(rank.to_numpy(), better="lower", alpha=0.10)
    # Figure 1(a): C4.5 differs from C4.5+m and C4.5+m+cf; C4.5+cf joins both groups.
    assert [{LEARNERS[i] for i in c} for c in at10.cliques()] == [
        {"C4.5+m+cf", "C4.5+m", "C4.5+cf"}, {"C4.5+cf", "C4.5"}]
    pairs = {(LEARNERS[i], LEARNERS[j]) for i, j in zip(*np.nonzero(np.triu(at10.significant)))}
    assert pairs == {("C4.5", "C4.5+m"), ("C4.5", "C4.5+m+cf")}
    # At 0.05 "even the difference between the best and the worst ... is smaller" than CD.
    at05 = nemenyi_test(rank.to_numpy(), better="lower")
    assert at05.cliques() == [(3, 1, 2, 0)] and not at05.significant.any()
    assert np.all(at05.pvalue > 0.05) and np.sum(at10.pvalue < 0.10) == 4  # two pairs, both orders


def test_demsar_table5_critical_values():
    table = read_published("demsar2006", "table5")
    off = []
    for row in table.itertuples():
        ours = critical_value(int(row.n_learners), alpha=float(row.alpha), test=row.test)
        if abs(ours - row.value) >= 1e-3:
            off.append((row.test, row.alpha, row.n_learners, round(ours, 4), row.value))
    # Every printed value is within 1e-3 of the quantile (the print neither rounds nor
    # truncates consistently: 2.343 for 2.3437, 2.949 for 2.9483) but one typo.
    assert off == [("bonferroni-dunn", 0.05, 9, 2.7344, 2.724)]


# --------------------------------------------------------------------------
# independent implementations
# --------------------------------------------------------------------------


@pytest.mark.parametrize("ties", [False, True])
def test_friedman_matches_scipy_and_scikit_posthocs(ties):
    import scikit_posthocs as sp

    for x in _tables(1 + ties, ties=ties):
        ref = stats.friedmanchisquare(*x.T)
        ours = friedman_test(x, tie_correction=True)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        pvalue, statistic, _ = sp.test_durbin(x)  # Durbin's test on complete blocks
        assert ours.statistic == pytest.approx(statistic, rel=1e-12)
        plain = friedman_test(x)
        if not ties:  # no ties: the correction is 1
            assert plain.statistic == pytest.approx(ref.statistic, rel=1e-12)
        else:
            assert plain.statistic < ours.statistic


@pytest.mark.parametrize("ties", [False, True])
def test_iman_davenport_is_the_anova_f_on_ranks_with_the_tie_correction(ties):
    for x in _tables(3 + ties, ties=ties):
        n, k = x.shape
        r = stats.rankdata(x, axis=1)
        ss_learners = n * np.sum((r.mean(axis=0) - r.mean()) ** 2)
        ss_error = np.sum((r - r.mean(axis=0) - r.mean(axis=1, keepdims=True) + r.mean()) ** 2)
        f = (ss_learners / (k - 1)) / (ss_error / ((k - 1) * (n - 1)))
        res = friedman_test(x, tie_correction=True)
        assert res.iman_davenport == pytest.approx(f, rel=1e-10)
        assert res.iman_davenport_pvalue == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rel=1e-8)
        plain = friedman_test(x)
        chi2 = float(plain.statistic)
        assert plain.iman_davenport == pytest.approx((n - 1) * chi2 / (n * (k - 1) - chi2), rel=1e-12)


@pytest.mark.parametrize("ties", [False, True])
def test_nemenyi_pvalues_match_scikit_posthocs(ties):
    import scikit_posthocs as sp

    for x in _tables(5 + ties, ties=ties):
        ref = sp.posthoc_nemenyi_friedman(x).to_numpy()
        ours = nemenyi_test(x)
        np.testing.assert_allclose(ours.pvalue, ref, rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(ours.statistic, -ours.statistic.T)


@pytest.mark.parametrize("ties", [False, True])
def test_average_ranks_and_cd_match_autorank(ties):
    import autorank

    for x in _tables(7 + ties, ties=ties):
        if x.shape[0] < 5:  # autorank needs five rows
            continue
        frame = pd.DataFrame(x, columns=[f"L{j}" for j in range(x.shape[1])])
        with warnings.catch_warnings():  # autorank's own deprecation notices are not ours to test
            warnings.simplefilter("ignore")
            ref = autorank.autorank(frame, alpha=0.05, order="descending", force_mode="nonparametric")
        means = ref.rankdf["meanrank"].reindex(frame.columns).to_numpy(dtype=float)
        np.testing.assert_allclose(average_ranks(x), means, rtol=0, atol=1e-12)
        # autorank's CD uses statsmodels' qsturng, an interpolation of tabulated quantiles.
        assert critical_difference(x.shape[1], x.shape[0]) == pytest.approx(ref.cd, rel=1e-4)
        assert ref.pvalue == pytest.approx(friedman_test(x, tie_correction=True).pvalue, rel=1e-9)


def test_critical_value_is_the_studentized_range_quantile():
    for k in (2, 3, 7, 15):
        for alpha in (0.01, 0.05, 0.1):
            q = critical_value(k, alpha=alpha)
            assert stats.studentized_range.sf(q * np.sqrt(2), k, np.inf) == pytest.approx(alpha, rel=1e-6)
    assert critical_value(2) == pytest.approx(stats.norm.ppf(0.975), rel=1e-9)  # the range of two is |z| sqrt 2


def test_nemenyi_significance_agrees_with_its_pvalues():
    for x in _tables(9):
        res = nemenyi_test(x, alpha=0.1)
        assert np.array_equal(res.significant, res.pvalue <= 0.1)


# --------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------


def test_lower_is_better_is_higher_is_better_of_the_negated_scores():
    for x in _tables(17, ties=True):
        np.testing.assert_array_equal(average_ranks(x, better="lower"), average_ranks(-x))
        a, b = control_test(x, control=1, better="lower"), control_test(-x, control=1)
        np.testing.assert_array_equal(a.statistic, b.statistic)
        np.testing.assert_array_equal(a.pvalue, b.pvalue)
        np.testing.assert_array_equal(nemenyi_test(x, better="lower").pvalue, nemenyi_test(-x).pvalue)


def test_average_ranks_sum_to_k_k_plus_1_over_2():
    for x in _tables(19, ties=True):
        k = x.shape[1]
        assert average_ranks(x).sum() == pytest.approx(k * (k + 1) / 2, rel=1e-12)


def test_vectorized_is_a_loop_over_slices():
    rng = np.random.default_rng(21)
    x = np.round(rng.normal(size=(2, 3, 12, 5)), 1)
    fr, ne = friedman_test(x), nemenyi_test(x)
    ct = control_test(x, control=4, test="sign", method="exact")
    for idx in np.ndindex(x.shape[:-2]):
        one = friedman_test(x[idx])
        assert fr.statistic[idx] == one.statistic and fr.iman_davenport_pvalue[idx] == one.iman_davenport_pvalue
        np.testing.assert_array_equal(fr.average_ranks[idx], one.average_ranks)
        np.testing.assert_array_equal(ne.pvalue[idx], nemenyi_test(x[idx]).pvalue)
        np.testing.assert_array_equal(ct.adjusted_pvalue[idx],
                                      control_test(x[idx], control=4, test="sign", method="exact").adjusted_pvalue)


def _check_cliques(ranks, cd, cliques):
    """The CD-diagram rules: no bar joins learners CD or more apart, every pair within CD shares a bar, maximal."""
    k = len(ranks)
    for c in cliques:
        for i, j in itertools.combinations(c, 2):
            assert abs(ranks[i] - ranks[j]) < cd, f"clique {c} joins {i} and {j}: {abs(ranks[i] - ranks[j])} >= {cd}"
    for i, j in itertools.combinations(range(k), 2):
        if abs(ranks[i] - ranks[j]) < cd:
            assert any(i in c and j in c for c in cliques), f"{i} and {j} within CD share no clique"
    assert set().union(*map(set, cliques)) == set(range(k))
    for c in cliques:
        assert not any(set(c) < set(d) for d in cliques)
        for extra in set(range(k)) - set(c):
            assert any(abs(ranks[extra] - ranks[i]) >= cd for i in c), f"{c} is not maximal: {extra} fits"
        assert list(c) == sorted(c, key=lambda i: (ranks[i], i))


def test_cliques_follow_the_critical_difference_on_random_ranks():
    rng = np.random.default_rng(23)
    for _ in range(300):
        k = int(rng.integers(2, 12))
        ranks = np.round(rng.uniform(1, k, size=k) * 4) / 4  # with ties
        cd = float(rng.uniform(0.1, k / 2))
        _check_cliques(ranks, cd, rank_cliques(ranks, cd))


def test_cliques_of_nemenyi_results_on_tables():
    for x in _tables(25, ties=True):
        for alpha in (0.01, 0.05, 0.2):
            res = nemenyi_test(x, alpha=alpha)
            _check_cliques(res.average_ranks, res.critical_difference, res.cliques())


def test_clique_at_exactly_the_critical_difference_is_split():
    # "Significantly different if the average ranks differ by at least CD".
    assert rank_cliques([1.0, 2.0, 3.0], 1.0) == [(0,), (1,), (2,)]
    assert rank_cliques([1.0, 2.0, 3.0], 1.0 + 1e-12) == [(0, 1), (1, 2)]
    assert rank_cliques([2.0, 1.0, 2.0], 0.5) == [(1,), (0, 2)]


# --------------------------------------------------------------------------
# degenerate data
# --------------------------------------------------------------------------


def test_all_learners_tied_everywhere():
    x = np.ones((6, 4))
    for corrected in (False, True):
        res = friedman_test(x, tie_correction=corrected)
        assert (res.statistic, res.pvalue, res.iman_davenport, res.iman_davenport_pvalue) == (0.0, 1.0, 0.0, 1.0)
    nem = nemenyi_test(x)
    assert np.all(nem.pvalue == 1.0) and nem.cliques() == [(0, 1, 2, 3)]
    ct = control_test(x, control=0)
    assert np.all(ct.pvalue == 1.0) and np.all(ct.adjusted_pvalue == 1.0)


def test_every_data_set_ranks_the_learners_alike():
    x = np.tile([0.9, 0.8, 0.7], (8, 1)) + np.arange(8)[:, None] * 0.001
    res = friedman_test(x)
    assert res.statistic == pytest.approx(8 * 2) and res.iman_davenport == np.inf
    assert res.iman_davenport_pvalue == 0.0 and 0 < res.pvalue < 1e-3


# --------------------------------------------------------------------------
# validation: one test per rule
# --------------------------------------------------------------------------


@pytest.mark.parametrize("bad, match", [
    ([0.1, 0.2, 0.3], "at least 2 dimension"),
    ([[0.1, 0.2, 0.3]], "at least 2 data sets"),
    ([[0.1], [0.2]], "at least 2 value"),
    ([[0.1, np.nan], [0.2, 0.3]], "finite"),
])
def test_scores_shape_and_values_are_checked(bad, match):
    with pytest.raises(ValueError, match=match):
        friedman_test(bad)


@pytest.mark.parametrize("bad", [[["a", "b"], ["c", "d"]], [[True, False], [False, True]]])
def test_scores_of_text_or_booleans_are_refused(bad):
    with pytest.raises(TypeError, match="`scores` must hold numbers"):
        nemenyi_test(bad)


def test_rank_scores_refuses_booleans():
    with pytest.raises(TypeError, match="`scores` must hold numbers"):
        rank_scores(np.array([[True, False]]))


def test_better_must_be_higher_or_lower():
    with pytest.raises(ValueError, match="`better` must be one of"):
        average_ranks([[1, 2], [3, 4]], better="max")


def test_tie_correction_must_be_a_bool():
    with pytest.raises(ValueError, match="`tie_correction` must be True or False"):
        friedman_test([[1, 2], [3, 4]], tie_correction="yes")


def test_alpha_is_checked():
    with pytest.raises(ValueError, match="`alpha` must be a number in"):
        nemenyi_test([[1, 2], [3, 4]], alpha=1.5)
    with pytest.raises(ValueError, match="`alpha` must be a number in"):
        critical_difference(3, 10, alpha=0)


def test_critical_difference_sizes_are_checked():
    with pytest.raises(ValueError, match="`n_learners` must be an integer >= 2"):
        critical_difference(1, 10)
    with pytest.raises(ValueError, match="`n_datasets` must be an integer >= 1"):
        critical_difference(3, 0)
    with pytest.raises(ValueError, match="`test` must be one of"):
        critical_value(3, test="tukey")


@pytest.mark.parametrize("ranks, cd, match", [
    ([[1.0, 2.0]], 1.0, "1-d"),
    ([1.0, 2.0], 0.0, "positive finite"),
    ([1.0, 2.0], [1.0], "positive finite"),
    ([1.0, np.inf], 1.0, "finite"),
])
def test_rank_cliques_arguments_are_checked(ranks, cd, match):
    with pytest.raises(ValueError, match=match):
        rank_cliques(ranks, cd)


def test_result_frames_have_one_row_per_test_or_pair():
    x = np.round(np.random.default_rng(27).normal(size=(2, 9, 4)), 2)
    fr = friedman_test(x).to_frame()
    assert len(fr) == 2 and fr["average_rank_3"].tolist() == friedman_test(x).average_ranks[:, 3].tolist()
    ne = nemenyi_test(x).to_frame()
    assert len(ne) == 2 * 6 and ne[["learner_i", "learner_j"]].drop_duplicates().shape[0] == 6
    one = nemenyi_test(x[1])
    row = one.to_frame().query("learner_i == 0 and learner_j == 3").iloc[0]
    assert row["pvalue"] == one.pvalue[0, 3] and row["significant"] == one.significant[0, 3]
    ct = control_test(x[0], control=2).to_frame()
    assert ct["learner"].tolist() == [0, 1, 3] and ct["adjusted_pvalue"].tolist() == list(
        control_test(x[0], control=2).adjusted_pvalue)
