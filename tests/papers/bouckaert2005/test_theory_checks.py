"""Tests of replicability.papers.bouckaert2005.theory_checks: Section 3 and the Appendix beside simulation."""

import numpy as np
import pytest

from replicability.papers.bouckaert2005 import theory_checks as section3
from replicability.report.claims import HOLDS, NOT_HOLDS


def test_half_unit_of_the_last_printed_digit():
    assert section3._half_unit("90.5") == pytest.approx(0.05)
    assert section3._half_unit("3.841459") == pytest.approx(5e-7)
    assert section3._half_unit("2") == pytest.approx(0.5)


def test_section3_constants_and_claims_small_simulation():
    res = section3.section3(n_datasets=60, sizes=(10_000, 20_000), test_sizes=(0.1, 0.5))
    assert res.constants.loc["type1_replicability_bound_pct", "reproduced"] == pytest.approx(90.5)
    assert res.constants.loc["chi2_threshold", "reproduced"] == pytest.approx(3.841459, abs=5e-7)
    c, values = section3.section3_claims(res)
    v = c.verdicts()
    assert v["bound_holds"] == v["chi2_holds"] == v["z_holds"] == v["tail_above_z"] == HOLDS
    # 0.97 z + 0.33 at z = 1.96 is 2.231; the tail mean is 2.338: off by more than the printed rounding.
    assert values["tail_gap"] == pytest.approx(0.107, abs=0.001) and v["tail_linear"] == NOT_HOLDS
    pairwise, agree = res.split("type1")
    assert list(agree.columns) == ["all agree simulated", "all agree normal model"]
    assert "R2 SE" in pairwise.columns and len(pairwise) == 4
    with pytest.raises(ValueError, match="at least 2 values"):
        section3.section3(n_datasets=20, sizes=(10_000,))


def test_section3_page_writes_the_committed_constants(written, committed):
    page = section3.section3_page(n_datasets=20, sizes=(10_000, 20_000), test_sizes=(0.1, 0.5))
    assert written("section3") is None  # nothing is written while the page is built
    page.write()
    assert np.allclose(written("section3")["value"], committed("section3")["value"])
    assert list(page.tables) == ["constants", "epsilon", "type1_pairwise", "type1_all_agree", "worst_pairwise",
                                 "worst_all_agree"]
    assert page.show("epsilon").digits == 5 and page.show("type1_all_agree").digits == 3
    assert list(page.figures) == ["tail_mean", "worst_case"]
