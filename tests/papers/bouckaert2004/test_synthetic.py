"""Tests of replicability.papers.bouckaert2004.synthetic: Table 1 (notebook 02_table1)."""

import numpy as np
import pandas as pd
import pytest

from replicability.papers.bouckaert2004 import synthetic as table1
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS


def test_table1_reproduces_the_committed_table(committed):
    res = table1.table1()
    pd.testing.assert_frame_equal(res.reproduced.drop(columns="source"), committed("table1").drop(columns="source"),
                                  check_exact=False, rtol=1e-8, check_dtype=False)
    part = res.side_by_side("source 1 Type I")["source 1 Type I"]
    assert list(part.index) == res.order
    assert np.allclose(part["difference"], part["reproduced"] - part["published"])


def _fake_table1(type1_runs, nr2_sorted=0.85, n=1000, sign_gap=-0.12):
    """A Table1 whose every scheme meets its claim, with chosen values for two of them."""
    summaries, outcomes = {}, {}
    type1 = {"resampling": 0.15, "cv": 0.11, "all": 0.55, "folds": 0.59, "runs": type1_runs, "sorted_runs": 0.04}
    power = {"resampling": 0.5, "cv": 0.5, "all": 0.9, "folds": 0.9, "runs": 0.9, "sorted_runs": 0.3}
    nr2 = {"resampling": 0.3, "cv": 0.4, "all": 0.6, "folds": 0.6, "runs": 0.6, "sorted_runs": nr2_sorted}
    for test, scheme in table1.TABLE1_ROWS:
        rate = np.array([type1[scheme], power[scheme], power[scheme], 1.0])
        if test != "signed_rank":
            rate = np.minimum(rate + (0.001 if test == "t" else 0.0), 1.0)
        value = nr2[scheme] + {"signed_rank": 0.0, "sign": sign_gap, "t": 0.04}[test]
        summaries[test, scheme] = {"rejection": rate, "normalized_r2": np.full(4, value),
                                   "normalized_r2_halfwidth": np.full(4, 0.02), "rejection_halfwidth": np.zeros(4)}
        # the first round(rate n) data sets reject in all ten randomizations
        outcomes[test, scheme] = np.repeat((np.arange(n) < np.round(rate * n)[:, None])[..., None], 10, axis=-1)
    both = pd.DataFrame({"value_pct_published": [1.0], "value_pct_reproduced": [2.0], "difference": [1.0]})
    return table1.Table1(pd.DataFrame(), both, summaries, n, 0.05, outcomes)


def test_table1_claims_apply_the_binomial_tolerance():
    # 2 SE of a rate at 50% over 1000 data sets: 2 * sqrt(0.25 / 1000) = 3.16 points.
    assert table1.table1_claims(_fake_table1(0.52))[0].verdicts()["claim_over_half"] == HOLDS
    assert table1.table1_claims(_fake_table1(0.485))[0].verdicts()["claim_over_half"] == INCONCLUSIVE
    assert table1.table1_claims(_fake_table1(0.46))[0].verdicts()["claim_over_half"] == NOT_HOLDS
    # The normalized replicability's SE is its 95% half-width over t_{0.975}(999): 2 / 1.962 points.
    verdicts = table1.table1_claims(_fake_table1(0.52, nr2_sorted=0.79))[0].verdicts()
    assert verdicts["claim_sorted_80"] == INCONCLUSIVE
    assert table1.table1_claims(_fake_table1(0.52, nr2_sorted=0.77))[0].verdicts()["claim_sorted_80"] == NOT_HOLDS
    assert verdicts["claim_test_order"] == HOLDS and verdicts["claim_t_above_rank"] == HOLDS


def test_considerably_needs_its_minimum_effect_beyond_the_uncertainty():
    # sign below rank by 12, 6 and 1 points; "considerably" is at least 5 points (QUALIFIERS), and the
    # difference's uncertainty is 2 * sqrt(2) * 2 / 1.962 = 2.9 points
    verdicts = [table1.table1_claims(_fake_table1(0.52, sign_gap=g))[0].verdicts()["claim_test_order"]
                for g in (-0.12, -0.06, -0.01)]
    assert verdicts == [HOLDS, INCONCLUSIVE, NOT_HOLDS]


def test_table1_page_shows_one_table_per_column_and_writes_only_when_asked(written):
    page = table1.table1_page(scale="smoke")
    assert written("table1") is None  # nothing is written while the page is built
    assert list(page.tables) == ["type1_source1", "power_source2", "power_source3", "power_source4",
                                 "min_replicability"]
    shown = page.show("power_source3")
    assert shown.digits == 1 and shown.frame.columns.get_level_values(0).unique().tolist() == ["source 3 power"]
    page.write()
    assert written("table1")["value_pct"].tolist() == pytest.approx(page.reproduced["table1"]["value_pct"].tolist())
    assert list(page.figures) == ["table1"]
