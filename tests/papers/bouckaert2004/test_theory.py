"""Tests of replicability.papers.bouckaert2004.theory: Section 3, Figure 2 and Lemma A.1 (notebook 01_estimators)."""

import pytest

from replicability.papers.bouckaert2004 import theory as section3
from replicability.report.claims import HOLDS, NOT_HOLDS
from replicability.report.page import Page


def test_section3_smoke_checks_and_example():
    res = section3.section3(scale="smoke", check_r=[0.5, 0.8, 1.0], check_n=[2, 4, 6], n_random_estimators=5)
    assert all(res.checks.values()), res.checks
    # Ten runs, six accepting: R1 = one equal pair of five, R2 = (C(6,2) + C(4,2)) / C(10,2) = 21/45.
    assert res.example.loc["R̂1"].tolist() == pytest.approx([0.2, 0.2])
    assert res.example.loc["R̂2"].tolist() == pytest.approx([21 / 45, 21 / 45])
    # var R1 = (r - r^2)/(n/2), Lemma 3.1, at r = 0.8, n = 4.
    cell = res.moments.query("estimator == 'R̂1' and r == 0.8 and n == 4").iloc[0]
    assert cell["variance (closed form)"] == pytest.approx(0.16 / 2)
    assert cell["exact variance"] == pytest.approx(0.16 / 2)
    c, values = section3.section3_claims(res)
    assert set(c.frame()["verdict"]) == {HOLDS}
    assert values["literal_negative"] > 0  # the printed Theorem 3.1 gives negative "variances"


def test_section3_claims_follow_the_checks():
    res = section3.section3(scale="smoke", check_r=[0.5, 1.0], check_n=[2, 4], n_random_estimators=5)
    res.checks["theorem32"] = False
    c, _ = section3.section3_claims(res)
    assert c.verdicts()["theorem32_holds"] == NOT_HOLDS


def test_section3_page_writes_figure2_only_when_asked(written):
    page = section3.section3_page(scale="smoke", check_r=[0.5, 1.0], check_n=[2, 4], n_random_estimators=5)
    assert isinstance(page, Page) and page.name == "01_estimators"
    assert written("figure2") is None  # nothing is written while the page is built
    page.write()
    assert written("figure2")["quantity"].tolist() == page.reproduced["figure2"]["quantity"].tolist()
    assert list(page.tables) == ["example", "lemma32", "moments_r1", "moments_r2", "literal", "three", "lemma33",
                                 "theorem32", "figure2", "lemma_a1"]
    assert page.show("moments_r2").caption == "R̂2" and page.show("lemma32").digits == 12
    assert set(page.figures) == {"theorem31", "figure2"}
