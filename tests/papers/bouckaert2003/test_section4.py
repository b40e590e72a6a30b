"""Tests of replicability.papers.bouckaert2003.section4: the pages of Figures 1 and 2.

The page builders at paper scale read the committed results under ``data/results``
(nothing is recomputed); their reproduced tables must equal, byte for byte, the
committed ``data/reproduced/bouckaert2003`` files, and their verdicts are re-derived
here from those files with the rule of :mod:`replicability.report.claims`.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from replicability.papers import bouckaert2003
from replicability.report.claims import HOLDS, NOT_HOLDS

from .committed import REPRODUCED, as_written, committed


def test_figure1_averages_and_claims():
    page = bouckaert2003.figure1_page()
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
    tests = bouckaert2003.figure1_page(alpha=0.05).tables["tests"].frame
    assert len(tests) == 10 and set(tests["outcome"]) == {"NO_DIFFERENCE"}
    assert tests.loc[0, "df"] == 8  # use all data: k r - 1


def test_figure1_is_a_pyplot_figure():
    # drawn through pyplot, so that the notebook's inline backend renders it as an image
    fig = bouckaert2003.figure1_page().figures["figure1"]()
    try:
        assert plt.fignum_exists(fig.number)
        assert len(fig.axes) == 2
    finally:
        plt.close(fig)


def test_figure2_reproduces_committed_table_and_rederived_verdicts():
    page = bouckaert2003.figure2_page(scale="paper")
    assert as_written(page.reproduced["figure2"]) == (REPRODUCED / "figure2.csv").read_text()
    fig2 = committed("figure2")
    at5 = fig2[np.isclose(fig2["alpha"], 0.05)].set_index(["test", "n_runs"])["df"]
    eleven = ["all", "folds_averaged_var", "folds_averaged_t", "runs_averaged_var", "runs_averaged_t", "sorted_runs"]
    off = (at5.loc[eleven] - 11).abs().max()  # "circa 11": half a unit of the last digit, 0.5
    assert page.claims.verdicts()["c_eleven"] == (HOLDS if off <= 0.5 else NOT_HOLDS)
    assert page.claims.verdicts()["c_folds"] == (HOLDS if at5.loc["folds"].max() <= 7 else NOT_HOLDS)
    assert page.values["df_all_10"] == at5.loc[("all", 10)]


def test_page_write_goes_to_the_reproduced_dir(tmp_path):
    bouckaert2003.figure1_page().write()
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.csv"))
    assert written == ["reproduced/bouckaert2003/figure1.csv",
                       "reproduced/claims/bouckaert2003/01_figure1_worked_example.csv"]
    claims = pd.read_csv(tmp_path / "reproduced" / "claims" / "bouckaert2003" / "01_figure1_worked_example.csv")
    assert claims["key"].tolist() == ["c_run_means", "c_fold_means", "c_sorted_means", "c_sorted"]
