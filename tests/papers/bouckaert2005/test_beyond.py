"""Tests of replicability.papers.bouckaert2005.beyond: a million instances and an adaptive design."""

import numpy as np
import pandas as pd
import pytest

from replicability.papers.bouckaert2005 import beyond
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, se_multiple


def _fake_compare(delta, se=0.01):
    designs = ["mcnemar_90_10", "cv_10x10"]
    block = pd.DataFrame({"type I error": [0.05, 0.04], "type I repl. (2 R2 - 1)": [0.8, 0.95], "type I SE": se,
                          "worst repl. (2 R2 - 1)": [0.06, 0.85], "worst SE": se,
                          "type I repl. (all agree)": [0.6, 0.9], "worst repl. (all agree)": [0.01, 0.8],
                          "power at worst": [0.5, 0.5]}, index=designs)
    large = block.copy()
    large["type I repl. (2 R2 - 1)"] += delta
    return pd.concat({"n = 10,000": block, "n = 1,000,000": large}, axis=1)


def _fake_table(cost=70.0, repl=0.98, type1=0.03):
    table = pd.DataFrame({"type I error": [0.03, type1], "type I repl. (2 R2 - 1)": [0.98, repl],
                          "type I SE": 0.005, "worst repl. (2 R2 - 1)": [0.9, 0.9], "worst SE": 0.01,
                          "mean cost": [500.0, cost]}, index=["sorted_cv_50x10", "adaptive sorted cv"])
    table.attrs["n_datasets"] = 1000
    return table


def test_beyond_claims_rules():
    # Two designs, SE 0.01 at each size: tolerance z_2 sqrt(2) 0.01 = 0.032 on 2 R2 - 1.
    tol = se_multiple(2) * np.hypot(0.01, 0.01)
    assert beyond.beyond_claims(_fake_compare(0.0), _fake_table())[0].verdicts()["million_type1"] == HOLDS
    assert beyond.beyond_claims(_fake_compare(0.9 * tol), _fake_table())[0].verdicts()["million_type1"] == INCONCLUSIVE
    assert beyond.beyond_claims(_fake_compare(1.1 * tol), _fake_table())[0].verdicts()["million_type1"] == NOT_HOLDS
    # The same difference is inconclusive only with the larger SE: the SE is read, not a binomial one.
    verdicts = beyond.beyond_claims(_fake_compare(0.05, se=0.02), _fake_table())[0].verdicts()
    assert verdicts["million_type1"] == INCONCLUSIVE
    assert beyond.beyond_claims(_fake_compare(0.0), _fake_table(repl=0.95))[0].verdicts()["adaptive_repl"] == NOT_HOLDS
    v = beyond.beyond_claims(_fake_compare(0.0), _fake_table(cost=600.0, type1=0.08))[0].verdicts()
    assert v["adaptive_cheaper"] == NOT_HOLDS and v["adaptive_level"] == NOT_HOLDS


def test_adaptive_design_smoke():
    large, ref, compare = beyond.million(scale="smoke")
    table, adapt, ds = beyond.adaptive_design(ref, scale="smoke")
    assert list(table.index)[-1] == "adaptive sorted cv" and len(adapt) == 6
    assert table.loc["sorted_cv_10x10", "mean cost"] == 100
    assert table.loc["adaptive sorted cv", "mean cost"] == pytest.approx(float(ds["mean_cost"].mean()))
    assert compare.columns.get_level_values(0).unique().tolist() == ["n = 10,000", "n = 1,000,000"]
    # The adaptive design is read as the fixed ones: 2 R2 - 1 at gap 0 and its minimum, "all agree" beside.
    assert adapt["normalized_r2"].iloc[0] == pytest.approx(table.loc["adaptive sorted cv", "type I repl. (2 R2 - 1)"])
    assert adapt["normalized_r2"].min() == pytest.approx(table.loc["adaptive sorted cv", "worst repl. (2 R2 - 1)"])
    assert adapt["all_agree"].min() == pytest.approx(table.loc["adaptive sorted cv", "worst repl. (all agree)"])
    ref_cv = ref[ref["design"] == "sorted_cv_10x10"]
    assert table.loc["sorted_cv_10x10", "worst SE"] == pytest.approx(
        ref_cv.loc[ref_cv["normalized_r2"].idxmin(), "normalized_r2_se"])


def test_beyond_page_shows_both_sizes_and_writes_only_its_claims():
    page = beyond.beyond_page(scale="smoke")
    assert page.reproduced == {}
    assert list(page.tables) == ["key_numbers_ref", "key_numbers_large", "adaptive"]
    assert page.show("key_numbers_ref").frame.columns.get_level_values(0).unique().tolist() == ["n = 10,000"]
    assert page.show("adaptive").digits == {"cost at gap 0": 1, "mean cost": 1}
    assert list(page.figures) == ["million", "adaptive"]
