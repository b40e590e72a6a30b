"""Tests of the Bouckaert (2003) pages: replicability.papers.bouckaert2003.{compare, section4, section5, ...}.

The page functions at paper scale read the committed results under ``data/results``
(nothing is recomputed); their reproduced tables must equal, byte for byte, the
committed ``data/reproduced/bouckaert2003`` files, and their verdicts are re-derived
here from those files with the rule of :mod:`replicability.report.claims`.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from replicability.papers import bouckaert2003 as b03
from replicability.report.claims import HOLDS, NOT_HOLDS, SE_MULTIPLE, WITHIN
from replicability.report.uncertainty import rate_difference_se, rate_se

ROOT = Path(__file__).resolve().parents[1]
REPRODUCED = ROOT / "data" / "reproduced" / "bouckaert2003"


def committed(name):
    return pd.read_csv(REPRODUCED / f"{name}.csv")


def as_written(frame):
    """The CSV text write_reproduced writes for ``frame``."""
    return frame.to_csv(index=False, float_format="%.10g", lineterminator="\n")


# --- display helpers -------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [(11, 0.5), (90, 5.0), (10, 5.0), (33, 0.5), (0.3, 0.05),
                                                  (2.25, 0.005), (100, 50.0)])
def test_word_rounding_is_half_a_unit_of_the_last_significant_digit(value, expected):
    assert b03.word_rounding(value) == pytest.approx(expected)


def test_word_rounding_rejects_zero():
    with pytest.raises(ValueError, match="`value` must be non-zero"):
        b03.word_rounding(0)


def test_rate_difference_se_matches_the_binomial_formula():
    # one rate, two independent estimates on n trials each: sqrt(2 p (1 - p) / n)
    assert rate_difference_se(5.0, 1000) == pytest.approx(100 * np.sqrt(2 * 0.05 * 0.95 / 1000))
    # two rates: sqrt(p1 q1 / n1 + p2 q2 / n2)
    expected = 100 * np.sqrt(0.5 * 0.5 / 1000 + 0.4 * 0.6 / 500)
    assert rate_difference_se(50.0, 1000, 40.0, 500) == pytest.approx(expected)
    assert np.allclose(rate_difference_se([5.0, 50.0], 1000),
                       [rate_difference_se(5.0, 1000), rate_difference_se(50.0, 1000)])


def test_worst_first_orders_by_margin_and_broadcasts():
    values, se = b03.worst_first([2.0, -1.0, 0.5], [20, -10, 5], 0.3)
    assert values.tolist() == [-10.0, 5.0, 20.0]
    assert se.tolist() == [0.3, 0.3, 0.3]


def test_comparison_rows_stacks_paper_ours_difference():
    both = pd.DataFrame({"test": ["b", "b", "a", "a"], "level": [1, 2, 1, 2], "published": [1.0, 2.0, 3.0, 4.0],
                         "reproduced": [1.04, 1.0, 3.0, 4.26]})
    both["difference"] = both["reproduced"] - both["published"]
    rows = b03.comparison_rows(both, index="test", columns="level", labels={"a": "A", "b": "B"}, order=["b", "a"])
    assert rows.index.tolist() == [("B", "published"), ("B", "ours"), ("B", "difference"),
                                   ("A", "published"), ("A", "ours"), ("A", "difference")]
    assert rows[1].tolist() == ["1.0", "1.0", "0.0", "3.0", "3.0", "0.0"]  # 0.04 rounds to 0.0, never -0.0
    assert rows[2].tolist() == ["2.0", "1.0", "-1.0", "4.0", "4.3", "+0.3"]


# --- pages, against the committed results and tables ----------------------------------------


@pytest.fixture(autouse=True)
def _no_writes(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))


def test_figure1_averages_and_claims():
    page = b03.figure1()
    means = page.data["means"]
    assert np.allclose(means["run_mean"], [(3.33 + 10 - 6.66) / 3, (6.66 + 3.33) / 3, (6.66 - 10 - 3.33) / 3])
    assert np.allclose(means["fold_mean"], [(3.33 + 6.66 + 6.66) / 3, (10 + 3.33 - 10) / 3, (-6.66 - 3.33) / 3])
    assert np.allclose(means["sorted_fold_mean"], [(-6.66 + 0 - 10) / 3, (3.33 + 3.33 - 3.33) / 3,
                                                   (10 + 6.66 + 6.66) / 3])
    # the printed mean of run 3 lost its sign (ERRATA): only that claim fails
    assert page.claims.verdicts() == {"c_run_means": NOT_HOLDS, "c_fold_means": HOLDS, "c_sorted_means": HOLDS,
                                      "c_sorted": HOLDS}
    assert as_written(page.reproduced["figure1"]) == (REPRODUCED / "figure1.csv").read_text()
    assert page.summary.startswith("18 cells compared") and page.summary.endswith("claims held 3 of 4")


def test_figure1_tests_do_not_reject_on_three_by_three():
    tests = b03.figure1(alpha=0.05).tables["tests"].frame
    assert len(tests) == 10 and set(tests["outcome"]) == {"NO_DIFFERENCE"}
    assert tests.loc[0, "df"] == 8  # use all data: k r - 1


def test_figure2_reproduces_committed_table_and_rederived_verdicts():
    page = b03.figure2(scale="paper")
    assert as_written(page.reproduced["figure2"]) == (REPRODUCED / "figure2.csv").read_text()
    fig2 = committed("figure2")
    at5 = fig2[np.isclose(fig2["alpha"], 0.05)].set_index(["test", "n_runs"])["df"]
    eleven = ["all", "folds_averaged_var", "folds_averaged_t", "runs_averaged_var", "runs_averaged_t", "sorted_runs"]
    off = (at5.loc[eleven] - 11).abs().max()  # "circa 11": half a unit of the last digit, 0.5
    assert page.claims.verdicts()["c_eleven"] == (HOLDS if off <= 0.5 else NOT_HOLDS)
    assert page.claims.verdicts()["c_folds"] == (HOLDS if at5.loc["folds"].max() <= 7 else NOT_HOLDS)
    assert page.values["df_all_10"] == at5.loc[("all", 10)]


def test_table2_reproduces_committed_table_and_rederived_verdicts():
    page = b03.table2(scale="paper")
    assert as_written(page.reproduced["table2"]) == (REPRODUCED / "table2.csv").read_text()
    table = committed("table2")
    worst = table[~table["test"].str.endswith("averaged_t")]["value"].max()
    tolerance = SE_MULTIPLE * 100 * rate_se(0.05, 1000)
    expected = HOLDS if worst <= 5 else (WITHIN if worst <= 5 + tolerance else NOT_HOLDS)
    assert page.claims.verdicts()["c_level"] == expected
    assert page.tables["comparison"].frame.shape == (27, 6)


def test_table3_reproduces_committed_tables():
    page = b03.table3(scale="paper")
    for name in ("table3", "table3_exact"):
        assert as_written(page.reproduced[name]) == (REPRODUCED / f"{name}.csv").read_text()
    # 77.74 - 71.92 = 5.82, printed 5.83 (ERRATA)
    assert page.claims.verdicts()["c_difference_row"] == NOT_HOLDS
    assert page.values["table3_set3_implied"] == 5.82


def test_figure4_table4_reproduces_committed_tables_and_rederived_verdicts():
    page = b03.figure4_table4(scale="paper")
    for name in ("figure4", "table4", "table4_power"):
        assert as_written(page.reproduced[name]) == (REPRODUCED / f"{name}.csv").read_text()
    table4 = committed("table4")
    excess = table4["value"] - 100 * table4["alpha"]
    tolerance = SE_MULTIPLE * 100 * rate_se(table4["alpha"].to_numpy(), 1000)
    expected = HOLDS if (excess <= 0).all() else (WITHIN if (excess <= tolerance).all() else NOT_HOLDS)
    assert page.claims.verdicts()["c_table4_levels"] == expected
    assert page.values["n_above_level"] == int((excess > 0).sum())


def test_tables5_6_reproduce_committed_tables_and_rederived_verdicts():
    page = b03.tables5_6(scale="paper")
    for name in ("table5", "table6", "tables5_6_r2"):
        assert as_written(page.reproduced[name]) == (REPRODUCED / f"{name}.csv").read_text()
    mins = committed("table5").query("column == 'min'").set_index("test")["value"]
    margins = mins["all"] - mins.drop("all")
    se = 100 * np.sqrt(rate_se(mins["all"] / 100, 1000) ** 2 + rate_se(mins.drop("all").to_numpy() / 100, 1000) ** 2)
    expected = HOLDS if (margins > 0).all() else (WITHIN if (margins >= -SE_MULTIPLE * se).all() else NOT_HOLDS)
    assert page.claims.verdicts()["c_all_best"] == expected


def test_table7_reproduces_committed_table_and_rederived_verdicts():
    page = b03.table7(scale="paper")
    assert as_written(page.reproduced["table7"]) == (REPRODUCED / "table7.csv").read_text()
    worst = committed("table7")["value"].max()
    tolerance = SE_MULTIPLE * 100 * rate_se(0.05, 1000)
    expected = HOLDS if worst <= 5 else (WITHIN if worst <= 5 + tolerance else NOT_HOLDS)
    assert page.claims.verdicts()["c_acceptable"] == expected


def test_page_write_goes_to_the_reproduced_dir(tmp_path):
    names = b03.figure1().write()
    assert names == ["reproduced/bouckaert2003/figure1.csv",
                     "reproduced/claims/bouckaert2003/01_figure1_worked_example.csv"]
    claims = pd.read_csv(tmp_path / "reproduced" / "claims" / "bouckaert2003" / "01_figure1_worked_example.csv")
    assert claims["key"].tolist() == ["c_run_means", "c_fold_means", "c_sorted_means", "c_sorted"]


def test_scale_is_checked():
    with pytest.raises(ValueError, match="`scale` must be one of"):
        b03.n_jobs_for("huge")
