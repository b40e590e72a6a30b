"""Tests of replicability.papers.bouckaert2003.replicability_tables: the pages of Tables 5-7.

At paper scale the builders read the committed results; their reproduced tables must
equal the committed ``data/reproduced/bouckaert2003`` files, and their verdicts are
re-derived here from those files.
"""

import numpy as np

from replicability.papers import bouckaert2003
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, se_multiple
from replicability.report.uncertainty import rate_se

from .committed import REPRODUCED, as_written, committed


def test_tables5_6_reproduce_committed_tables_and_rederived_verdicts():
    page = bouckaert2003.tables5_6_page(scale="paper")
    for name in ("table5", "table6", "tables5_6_r2"):
        assert as_written(page.reproduced[name]) == (REPRODUCED / f"{name}.csv").read_text()
    mins = committed("table5").query("column == 'min'").set_index("test")["value"]
    margins = mins["all"] - mins.drop("all")
    se = 100 * np.sqrt(rate_se(mins["all"] / 100, 1000) ** 2 + rate_se(mins.drop("all").to_numpy() / 100, 1000) ** 2)
    z = se_multiple(len(margins))  # an ordering holds only beyond its uncertainty
    expected = HOLDS if (margins > z * se).all() else (NOT_HOLDS if (margins < -z * se).any() else INCONCLUSIVE)
    assert page.claims.verdicts()["c_all_best"] == expected


def test_table7_reproduces_committed_table_and_rederived_verdicts():
    page = bouckaert2003.table7_page(scale="paper")
    assert as_written(page.reproduced["table7"]) == (REPRODUCED / "table7.csv").read_text()
    cells = committed("table7")["value"]
    worst = cells.max()
    # The claim is about all cells at once: the multiple grows with their number (report.claims).
    tolerance = se_multiple(cells.size) * 100 * rate_se(0.05, 1000)
    expected = HOLDS if worst <= 5 else (INCONCLUSIVE if worst <= 5 + tolerance else NOT_HOLDS)
    assert page.claims.verdicts()["c_acceptable"] == expected
