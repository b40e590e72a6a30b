"""A control learner against the others with Holm's correction (stats.control).

Reference values: Demšar (2006), JMLR 7:1-30, Section 3.2.2 and Table 6, transcribed in
data/published/demsar2006 (see its README for the provenance). Independent
implementations: scipy.stats (wilcoxon) and statsmodels (multipletests, Holm).
"""

import numpy as np
import pytest
from scipy import stats

from replicability.report import read_published
from replicability.stats import contingency, nonparametric
from replicability.stats.control import control_test

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


def test_demsar_holm_table_against_the_control():
    _, rank = _demsar_table6()
    res = control_test(rank.to_numpy(), control=0, better="lower", test="mean_ranks")
    assert res.learners == (1, 2, 3)
    printed_z = {LEARNERS[j]: _published("control_z", LEARNERS[j]) for j in res.learners}
    printed_p = {LEARNERS[j]: _published("control_p", LEARNERS[j]) for j in res.learners}
    for j, z, p in zip(res.learners, res.statistic, res.pvalue):
        # The paper divides rank differences rounded to 3 decimals by SE rounded to 0.488.
        assert abs(z - printed_z[LEARNERS[j]]) < 1e-3
        assert p == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-12)
    assert round(float(res.pvalue[2]), 3) == printed_p["C4.5+m+cf"]
    assert round(float(res.pvalue[0]), 3) == printed_p["C4.5+m"]
    # The paper prints 0.607 for z = 0.512, whose p is 0.6087 (see the errata).
    assert round(float(res.pvalue[1]), 3) == 0.608 and printed_p["C4.5+cf"] == 0.607
    # Holm rejects the first two hypotheses, not the third.
    assert (res.adjusted_pvalue < 0.05).tolist() == [True, False, True]


def test_holm_of_the_control_test_matches_statsmodels():
    from statsmodels.stats.multitest import multipletests

    for x in _tables(11):
        for test in ("signed_rank", "sign", "mean_ranks"):
            res = control_test(x, control=0, test=test)
            ref = multipletests(res.pvalue, alpha=0.05, method="holm")[1]
            np.testing.assert_allclose(res.adjusted_pvalue, ref, rtol=1e-12)


def test_control_test_is_the_package_tests_on_each_pair():
    for x in _tables(13):
        for j in range(1, x.shape[1]):
            for test, method, fn in (("signed_rank", "normal", nonparametric.signed_rank_test),
                                     ("signed_rank", "exact", nonparametric.signed_rank_test),
                                     ("sign", "exact", nonparametric.sign_test)):
                if method == "exact" and x.shape[0] > 200:
                    continue
                res = control_test(x, control=0, test=test, method=method)
                ref = fn(x[:, j], x[:, 0], method=method)
                assert res.statistic[j - 1] == ref.statistic and res.pvalue[j - 1] == ref.pvalue


def test_signed_rank_control_matches_scipy_wilcoxon_without_ties():
    for x in _tables(15):
        res = control_test(x, control=2)
        for pos, j in enumerate(res.learners):
            ref = stats.wilcoxon(x[:, j], x[:, 2], zero_method="wilcox", correction=False, method="approx")
            assert res.pvalue[pos] == pytest.approx(ref.pvalue, rel=1e-9)
            d = x[:, j] - x[:, 2]
            r_plus = stats.rankdata(np.abs(d))[d > 0].sum()  # positive: learner j better than the control
            assert np.sign(res.statistic[pos]) == np.sign(r_plus - d.size * (d.size + 1) / 4)


@pytest.mark.parametrize("control", [3, -4, True, 1.0, "A"])
def test_control_must_be_a_column(control):
    with pytest.raises(ValueError, match="`control` must be a column index"):
        control_test([[1, 2, 3], [3, 4, 5]], control=control)


def test_control_test_name_is_checked():
    with pytest.raises(ValueError, match="`test` must be one of"):
        control_test([[1, 2, 3], [3, 4, 5]], control=0, test="t")


def test_holm_is_the_one_of_the_package():
    # The control test reuses stats.contingency.holm rather than its own.
    p = np.array([0.01, 0.04, 0.03])
    np.testing.assert_array_equal(contingency.holm(p), [0.03, 0.06, 0.06])
