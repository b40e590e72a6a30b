"""Tests of replicability.papers.bouckaert_frank2004.cv_pages: the pages of Tables 3 and 4.

The pages at paper scale read the committed results; their reproduced tables must be
byte-identical to the committed ``data/reproduced/bouckaert_frank2004`` files, and
their verdicts must follow from the claims' rule applied to independently recomputed
values.
"""

import numpy as np
import pytest

from replicability.papers.bouckaert_frank2004.cv_pages import table3_page, table4_page
from replicability.papers.shared.uci_outcomes import consistency_table, uci_test_outcomes
from replicability.papers.shared.uci_runs import uci_scheme_results
from replicability.report.claims import HOLDS
from replicability.report.uncertainty import rate_se

from ._checks import verdict_at_least


@pytest.mark.parametrize("make, files", [
    (table3_page, ["table3", "section4_3"]),
    (table4_page, ["table4"]),
], ids=["table3", "table4"])
def test_reproduced_tables_equal_the_committed_files(make, files, written_as_committed):
    written_as_committed(make(), files)


def test_table4_r90_verdict_from_the_outcomes():
    cv = uci_scheme_results("cv")
    r = np.array([consistency_table(uci_test_outcomes(cv, "corrected_repeated_cv", alpha=a))["R"].to_numpy()
                  for a in (0.01, 0.025, 0.05, 0.1)]).ravel()
    expected = HOLDS if np.all(r > 0.9) else verdict_at_least(r, 0.9, rate_se(0.9, 27))
    page = table4_page()
    assert page.claims.verdicts()["claim_r90"] == expected
    assert page.values["n_r90"] == int((r > 0.9).sum())
    assert page.values["r_min"] == round(float(r.min()), 3)


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


def test_table4_needs_the_five_percent_level():
    with pytest.raises(ValueError, match="`alphas` must contain 0.05"):
        table4_page(alphas=(0.01, 0.1))
