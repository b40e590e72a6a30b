"""Tests of the page functions of replicability.papers.bouckaert_frank2004 (uci_pages, cv_pages,
synthetic_page, fidelity_page).

The pages at paper scale read the committed results; their reproduced tables must be
byte-identical to the committed ``data/reproduced/bouckaert_frank2004`` files, and
their verdicts must follow from the claims' rule applied to independently recomputed
values.
"""

import filecmp
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from replicability.papers.bouckaert_frank2004.cv_pages import table3_page, table4_page
from replicability.papers.bouckaert_frank2004.uci_fidelity_page import fidelity_page
from replicability.papers.bouckaert_frank2004.uci_pages import table1_page, table2_page
from replicability.papers.shared.uci_outcomes import consistency_table, uci_test_outcomes
from replicability.papers.shared.uci_runs import uci_scheme_results
from replicability.report.claims import HOLDS, NOT_HOLDS, SE_MULTIPLE, WITHIN
from replicability.report.uncertainty import rate_se

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "data" / "reproduced" / "bouckaert_frank2004"


# --------------------------------------------------------------------------- #
# the pages reproduce the committed tables exactly
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("make, files", [
    (fidelity_page, ["table1_properties", "uci_fidelity"]),
    (table1_page, ["table1"]),
    (table2_page, ["table2", "table2_own_splits", "table2_stratified"]),
    (table3_page, ["table3", "section4_3"]),
    (table4_page, ["table4"]),
], ids=["fidelity", "table1", "table2", "table3", "table4"])
def test_reproduced_tables_equal_the_committed_files(make, files, tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    page = make()
    written = page.write()
    assert written[:-1] == [f"reproduced/bouckaert_frank2004/{name}.csv" for name in files]
    assert written[-1] == f"reproduced/claims/bouckaert_frank2004/{page.name}.csv"
    for name in files:
        assert filecmp.cmp(tmp_path / "bouckaert_frank2004" / f"{name}.csv", COMMITTED / f"{name}.csv", shallow=False)
    claims = pd.read_csv(tmp_path / "claims" / "bouckaert_frank2004" / f"{page.name}.csv")
    assert set(claims["verdict"]) <= {HOLDS, WITHIN, NOT_HOLDS}
    assert claims["key"].tolist() == list(page.claims.verdicts())


# --------------------------------------------------------------------------- #
# verdicts follow from the rule on independently recomputed values
# --------------------------------------------------------------------------- #
def verdict_at_least(value, bound, se):
    value, bound = np.asarray(value, float), np.asarray(bound, float)
    if np.all(value >= bound):
        return HOLDS
    return WITHIN if np.all(value >= bound - SE_MULTIPLE * np.asarray(se)) else NOT_HOLDS


def test_table4_r90_verdict_from_the_outcomes():
    cv = uci_scheme_results("cv")
    r = np.array([consistency_table(uci_test_outcomes(cv, "corrected_repeated_cv", alpha=a))["R"].to_numpy()
                  for a in (0.01, 0.025, 0.05, 0.1)]).ravel()
    expected = HOLDS if np.all(r > 0.9) else verdict_at_least(r, 0.9, rate_se(0.9, 27))
    page = table4_page()
    assert page.claims.verdicts()["claim_r90"] == expected
    assert page.values["n_r90"] == int((r > 0.9).sum())
    assert page.values["r_min"] == round(float(r.min()), 3)


def test_table1_count_claims_from_the_outcomes():
    res = uci_scheme_results("5x2")
    table = consistency_table(uci_test_outcomes(res, "5x2cv"))
    page = table1_page()
    verdicts = page.claims.verdicts()
    cons = 100 * table["consistent"].to_numpy() / 27
    assert verdicts["claim_consistent_half"] == verdict_at_least(50, cons, 100 * rate_se(0.5, 27))
    almost = 100 * table["almost_consistent"].to_numpy() / 27
    assert verdicts["claim_almost_66"] == verdict_at_least(66, almost, 100 * rate_se(0.66, 27))
    # the summary counts the 81 body cells and the 6 bottom counts of Table 1
    assert page.summary.startswith("87 counts compared")


def test_table2_claim_100_r_from_the_outcomes():
    res = uci_scheme_results("resample_weka")
    r = consistency_table(uci_test_outcomes(res, "corrected_resampled", n_runs=100))["R"].to_numpy()
    page = table2_page()
    assert page.claims.verdicts()["claim_100_r"] == verdict_at_least(r, 0.9, rate_se(0.9, 27))
    assert page.values["r_last_min"] == round(float(r.min()), 3)


def test_table3_type1_claim_and_shown_tables():
    page = table3_page()
    type1 = page.values["type1_uncorrected"]
    assert page.claims.verdicts()["claim_uncorrected_type1"] == verdict_at_least(type1, 10.0,
                                                                                100 * rate_se(0.1, 1000))
    shown = page.show("effort").frame
    # difference row = r x 10 cv - 10 r resampling, as the page says
    cell = {row: int(shown.loc[("NB vs C4.5", "consistent", row), 1])
            for row in ("r x 10 cv", "10 r resampling", "difference")}
    assert cell["difference"] == cell["r x 10 cv"] - cell["10 r resampling"]
    with pytest.raises(KeyError, match="must be one of"):
        page.show("nope")


def test_fidelity_claims_are_exact():
    from replicability.report.tables import read_published
    from replicability.sources.uci import list_uci

    published = read_published("bouckaert_frank2004", "table1_properties").set_index("dataset")
    files = list_uci().set_index("paper_name").loc[published.index]
    same = (files["instances"] == published["instances"]) & (files["observed_classes"] == published["classes"])
    page = fidelity_page()
    frame = page.claims.frame().set_index("key")
    assert frame.loc["claim_properties", "tolerance"] == "none"
    assert page.values["n_same_instances"] == int((files["instances"] == published["instances"]).sum())
    assert page.values["n_attr_differ"] == int((files["attributes"] != published["attributes"]).sum())
    assert page.claims.verdicts()["claim_properties"] == (HOLDS if same.all() else NOT_HOLDS)


@pytest.mark.slow
def test_table5_page_reproduces_the_committed_table(tmp_path, monkeypatch):
    from replicability.papers.bouckaert_frank2004.synthetic_page import table5_page

    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    page = table5_page()
    page.write()
    assert filecmp.cmp(tmp_path / "bouckaert_frank2004" / "table5.csv", COMMITTED / "table5.csv", shallow=False)
    shown = page.show("table5").frame
    assert shown.loc[("5x2 cv", "ours"), "min"] == shown.loc[("5x2 cv", "ours"), "4"]  # the minimum is source 4
