"""Tests of replicability.papers.bouckaert_frank2004.uci_pages: the pages of Tables 1 and 2.

The pages at paper scale read the committed results; their reproduced tables must be
byte-identical to the committed ``data/reproduced/bouckaert_frank2004`` files, and
their verdicts must follow from the claims' rule applied to independently recomputed
values.
"""

import numpy as np
import pytest

from replicability.papers.bouckaert_frank2004.uci_pages import table1_page, table2_page
from replicability.papers.shared.uci_outcomes import consistency_table, uci_test_outcomes
from replicability.papers.shared.uci_runs import uci_scheme_results
from replicability.report.uncertainty import rate_se

from ._checks import verdict_at_least


@pytest.mark.parametrize("make, files", [
    (table1_page, ["table1"]),
    (table2_page, ["table2", "table2_own_splits", "table2_stratified"]),
], ids=["table1", "table2"])
def test_reproduced_tables_equal_the_committed_files(make, files, written_as_committed):
    written_as_committed(make(), files)


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


def test_table1_draws_its_figure_and_refuses_unknown_tables():
    import matplotlib.pyplot as plt

    page = table1_page()
    fig = page.figures["figure"]()
    assert len(fig.axes) == 3 and np.allclose(fig.axes[0].get_xlim(), (-0.5, 10.5))
    plt.close(fig)
    with pytest.raises(KeyError, match="must be one of"):
        page.show("nope")
