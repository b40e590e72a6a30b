"""Tests for the claims facility: one rule per kind of claim, verdicts at their boundaries."""

import numpy as np
import pytest

from replicability.report.claims import (
    HOLDS,
    NOT_HOLDS,
    SE_MULTIPLE,
    WITHIN,
    Claims,
    comparison_summary,
    scorecard,
    scorecard_html,
    se_multiple,
    verdict_counts,
)


@pytest.mark.parametrize("value,verdict", [(5.0, HOLDS), (4.0, HOLDS), (5.0 + SE_MULTIPLE * 0.5 + 0.05, WITHIN),
                                           (5.0 + SE_MULTIPLE * 0.5 + 0.06, NOT_HOLDS)])
def test_at_most_boundaries(value, verdict):
    c = Claims("p", "page")
    assert c.at_most("k", "s", "t", value=value, bound=5.0, se=0.5, rounding=0.05) == verdict


@pytest.mark.parametrize("value,verdict", [(5.0, HOLDS), (6.0, HOLDS), (4.0, WITHIN), (3.9, NOT_HOLDS)])
def test_at_least_boundaries(value, verdict):
    assert Claims("p", "page").at_least("k", "s", "t", value=value, bound=5.0, se=0.5) == verdict


def test_close_to_holds_when_equal_as_printed():
    c = Claims("p", "page")
    assert c.close_to("a", "s", "t", value=2.04, published=2.0, se=0.1, rounding=0.05) == HOLDS
    assert c.close_to("b", "s", "t", value=2.2, published=2.0, se=0.1, rounding=0.05) == WITHIN
    assert c.close_to("c", "s", "t", value=2.3, published=2.0, se=0.1, rounding=0.05) == NOT_HOLDS


def test_greater_is_strict_and_arrays_take_the_worst_verdict():
    c = Claims("p", "page")
    assert c.greater("a", "s", "t", larger=[3.0, 2.0], smaller=[1.0, 1.0]) == HOLDS
    assert c.greater("b", "s", "t", larger=[3.0, 1.0], smaller=[1.0, 1.0], se=0.1) == WITHIN  # a tie
    assert c.greater("c", "s", "t", larger=[3.0, 0.0], smaller=[1.0, 1.0], se=0.1) == NOT_HOLDS


def test_exactly_and_page_bookkeeping(tmp_path, monkeypatch):
    c = Claims("paper_x", "01_page")
    c.exactly("a", "identity", "eq. 3", condition=True, measured="equal", rule="bit-identical")
    c.exactly("b", "other", "eq. 4", condition=False, measured="differs", rule="bit-identical")
    with pytest.raises(ValueError, match="unique"):
        c.exactly("a", "again", "eq. 3", condition=True, measured="", rule="")
    with pytest.raises(TypeError, match="`condition`"):
        c.exactly("z", "s", "t", condition=1, measured="", rule="")
    assert c.verdicts() == {"a": HOLDS, "b": NOT_HOLDS}
    assert c.summary() == "claims held 1 of 2"
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    assert c.write() == "reproduced/claims/paper_x/01_page.csv"
    card = scorecard(tmp_path)
    assert list(card["key"]) == ["a", "b"] and list(card["verdict"]) == [HOLDS, NOT_HOLDS]


def test_comparison_summary():
    c = Claims("p", "page")
    c.at_most("k", "s", "t", value=1.0, bound=2.0)
    text = comparison_summary([1.0, np.nan, 3.0], [1.25, 2.0, 2.0], c)
    assert text == "2 cells compared; |published - ours|: mean 0.62, max 1.00; claims held 1 of 1"
    with pytest.raises(ValueError, match="same size"):
        comparison_summary([1.0], [1.0, 2.0])


def test_scorecard_html_links_every_claim_to_its_page_and_escapes_text(tmp_path, monkeypatch):
    c = Claims("paper_x", "02_page")
    c.at_most("k", 'The "rate" < 5%', "Table 2", value=4.0, bound=5.0)
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    c.write()
    html = scorecard_html(scorecard(tmp_path))
    assert '<a href="../paper_x/02_page.html">' in html
    assert "The &quot;rate&quot; &lt; 5%" in html and html.count("<tr>") == 2  # header and one claim
    assert '<span class="verdict" style="background: #1a7f37">holds</span>' in html
    assert "02_<wbr>page" in html and "overflow-wrap: normal" in html  # wraps between words, never inside one
    counts = verdict_counts(scorecard(tmp_path))
    assert counts.loc["paper_x", HOLDS] == 1 and counts.loc["paper_x", "total"] == 1


def test_claims_about_many_values_widen_the_multiple_by_bonferroni():
    from scipy import stats

    assert se_multiple(1) == pytest.approx(2.0)
    assert se_multiple(27) == pytest.approx(stats.norm.isf(stats.norm.sf(2.0) / 27))
    value = np.zeros(27)
    value[0] = 5.0 + 3.0 * 0.5  # one cell 3 SE above the bound: noise among 27 cells
    assert Claims("p", "x").at_most("k", "s", "t", value=value, bound=5.0, se=0.5) == WITHIN
    assert Claims("p", "x").at_most("k", "s", "t", value=value[:1], bound=5.0, se=0.5) == NOT_HOLDS
    value[0] = 5.0 + 3.3 * 0.5
    assert Claims("p", "x").at_most("k", "s", "t", value=value, bound=5.0, se=0.5) == NOT_HOLDS
    with pytest.raises(ValueError, match="`m`"):
        se_multiple(0)


def test_measured_arrays_of_any_shape_are_shown():
    c = Claims("p", "x")
    c.at_most("k", "s", "t", value=np.ones((2, 2)), bound=2.0)
    assert c.frame()["measured"].iloc[0] == "1.00, 1.00, 1.00, 1.00"
