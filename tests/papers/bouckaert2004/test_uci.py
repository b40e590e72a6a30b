"""Tests of replicability.papers.bouckaert2004.uci: Table 2 on the UCI data sets (notebook 04_table2_uci)."""

import numpy as np
import pytest

from replicability.papers.bouckaert2004 import uci as table2
from replicability.report import read_published
from replicability.stats.measures import replicability_r2


def test_table2_reproduces_the_committed_table_and_its_means(committed):
    res = table2.table2()
    assert res.reproduced["value"].tolist() == pytest.approx(committed("table2")["value"].tolist())
    c, values = table2.table2_claims(res)
    # The per-cell route of the claims and consistency_table's route give the same means.
    overall = res.norm.set_index(["test", "pair"])["normalized"]
    for test in table2.TABLE2_TESTS:
        assert values[f"overall_{test}"] == pytest.approx(round(overall[test, "all"], 1))
    # R2 of one cell from its draws k: [k(k-1) + (10-k)(9-k)] / 90, as replicability_r2 on the outcomes.
    k = 3
    outcomes = np.array([0] * k + [1] * (10 - k))
    assert table2.normalized((k * (k - 1) + (10 - k) * (9 - k)) / 90) == pytest.approx(
        100 * (2 * replicability_r2(outcomes) - 1))
    published = read_published("bouckaert2004", "table2")
    assert values["cells_total"] == published.query("row != 'mean_normalized_r2_pct'")["row"].nunique() * 9


def test_table2_page_splits_the_sign_block_and_writes_only_when_asked(written):
    page = table2.table2_page()
    assert written("table2") is None  # nothing is written while the page is built
    assert list(page.tables) == ["norm", "check", "layout", "rule", "rule_counts"]
    assert page.show("rule").frame.columns.tolist() == ["published", "symmetric exact", "rule as printed"]
    assert "cells equal (as printed)" in page.show("rule_counts").frame.columns
    page.write()
    assert written("table2")["value"].tolist() == pytest.approx(page.reproduced["table2"]["value"].tolist())
    assert list(page.figures) == ["table2"]


def test_the_folds_sentence_follows_the_agreement_verdict():
    # 208/243 against an all-dot 205/243 cannot tell the folds apart; a table agreeing on every cell can
    from dataclasses import replace

    from replicability.report.claims import HOLDS, INCONCLUSIVE

    res = table2.table2()
    c, values = table2.table2_claims(res)
    assert (int(res.agree.sum()), values["dots_equal"]) == (values["cells_equal"], int(res.dots_agree.sum()))
    assert c.verdicts()["claim_weka_folds"] == INCONCLUSIVE
    assert values["agreement_reading"].startswith("the agreement is no better than that of a table of all dots")
    c, values = table2.table2_claims(replace(res, agree=np.ones_like(res.agree)))
    assert c.verdicts()["claim_weka_folds"] == HOLDS
    assert values["agreement_reading"].startswith("so many cells agree beyond what a table of all dots reaches")


def test_below_the_papers_ten_runs_the_folds_sentence_says_the_cells_are_not_comparable():
    from dataclasses import replace

    from replicability.report.claims import INCONCLUSIVE

    c, values = table2.table2_claims(replace(table2.table2(), n_repeats=2))  # as at smoke scale: 2 runs
    assert c.verdicts()["claim_weka_folds"] == INCONCLUSIVE
    assert c.frame().set_index("key").loc["claim_weka_folds", "measured"] == "not compared: 2 runs per data set"
    assert values["agreement_reading"].startswith("at this scale our marks count draws out of 2 runs, the printed "
                                                  "ones out of 10: the cells are not comparable")
