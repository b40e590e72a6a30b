"""Tests of replicability.stats.equivalence (two one-sided tests)."""

import numpy as np
import pytest
from scipy import stats

from replicability.stats import tost
from replicability.stats.equivalence import noninferiority


def test_tost_pvalue_is_the_larger_one_sided_pvalue():
    # reference: the two one-sided z tests written out (Schuirmann 1987, eq. 3)
    d, se, margin = 0.7, 0.4, 1.5
    lower, upper = stats.norm.sf((d + margin) / se), stats.norm.sf((margin - d) / se)
    res = tost(d, se, margin=margin)
    assert res.pvalue == pytest.approx(max(lower, upper)) and res.statistic == pytest.approx((margin - d) / se)
    assert tost(d, se, margin=margin, df=9).pvalue == pytest.approx(stats.t.sf((margin - d) / se, 9))


def test_tost_is_symmetric_vectorized_and_exact_without_uncertainty():
    d = np.array([-1.0, -0.2, 0.0, 0.3, 2.0])
    res = tost(d, 0.3, margin=1.0)
    assert np.allclose(res.pvalue, tost(-d, 0.3, margin=1.0).pvalue)
    assert np.allclose(res.pvalue, [tost(x, 0.3, margin=1.0).pvalue for x in d])
    exact = tost([0.5, 1.0, 1.5], 0.0, margin=1.0)
    assert exact.pvalue.tolist() == [0.0, 1.0, 1.0]


@pytest.mark.parametrize("kwargs,match", [({"margin": 0.0}, "`margin`"), ({"margin": -1.0}, "`margin`"),
                                          ({"margin": True}, "`margin`"), ({"margin": 1.0, "se": -1.0}, "`se`")])
def test_tost_rejects_bad_input(kwargs, match):
    se = kwargs.pop("se", 1.0)
    with pytest.raises(ValueError, match=match):
        tost(0.0, se, **kwargs)


def test_noninferiority_is_the_lower_one_sided_test_of_tost():
    d = np.array([-2.0, -0.4, 0.0, 0.9, 1.6])
    lower = noninferiority(d, 0.5, margin=1.0, df=12)
    upper = noninferiority(-d, 0.5, margin=1.0, df=12)
    assert np.array_equal(lower.statistic, (d + 1.0) / 0.5)
    assert np.allclose(lower.pvalue, stats.t.sf((d + 1.0) / 0.5, 12), rtol=0, atol=1e-15)
    assert np.array_equal(tost(d, 0.5, margin=1.0, df=12).pvalue, np.maximum(lower.pvalue, upper.pvalue))
    assert noninferiority([-1.5, -0.5], 0.0, margin=1.0).pvalue.tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match="`margin`"):
        noninferiority(0.0, 1.0, margin=0.0)
