"""Tests for the claims facility: one rule per kind of claim, verdicts at their boundaries.

Each rule has a value that must fail it and one that must pass (issue 40).
"""

import numpy as np
import pytest

from replicability.report.claims import (
    ALPHA,
    HOLDS,
    INCONCLUSIVE,
    NOT_HOLDS,
    QUALIFIERS,
    SE_MULTIPLE,
    Claims,
    comparison_summary,
    scorecard,
    scorecard_html,
    se_multiple,
    verdict_counts,
)


@pytest.mark.parametrize("value,verdict", [(5.0, HOLDS), (4.0, HOLDS), (5.0 + SE_MULTIPLE * 0.5 + 0.05, INCONCLUSIVE),
                                           (5.0 + SE_MULTIPLE * 0.5 + 0.06, NOT_HOLDS)])
def test_at_most_boundaries(value, verdict):
    c = Claims("p", "page")
    assert c.at_most("k", "s", "t", value=value, bound=5.0, se=0.5, rounding=0.05) == verdict


@pytest.mark.parametrize("value,verdict", [(5.0, HOLDS), (6.0, HOLDS), (4.0, INCONCLUSIVE), (3.9, NOT_HOLDS)])
def test_at_least_boundaries(value, verdict):
    assert Claims("p", "page").at_least("k", "s", "t", value=value, bound=5.0, se=0.5) == verdict


def test_close_to_holds_when_equal_as_printed():
    c = Claims("p", "page")
    assert c.close_to("a", "s", "t", value=2.04, published=2.0, se=0.1, rounding=0.05) == HOLDS
    assert c.close_to("b", "s", "t", value=2.2, published=2.0, se=0.1, rounding=0.05) == INCONCLUSIVE
    assert c.close_to("c", "s", "t", value=2.3, published=2.0, se=0.1, rounding=0.05) == NOT_HOLDS


def test_greater_needs_a_difference_beyond_its_uncertainty():
    c = Claims("p", "page")
    assert c.greater("a", "s", "t", larger=[3.0, 2.0], smaller=[1.0, 1.0]) == HOLDS  # exact: the sign decides
    assert c.greater("b", "s", "t", larger=[3.0, 1.0], smaller=[1.0, 1.0]) == NOT_HOLDS  # an exact tie
    z = SE_MULTIPLE
    assert c.greater("c", "s", "t", larger=1.0 + z * 0.5 + 0.01, smaller=1.0, se=0.5) == HOLDS
    # the right sign within the uncertainty is never "holds" (the rule that failed: sign alone)
    assert c.greater("d", "s", "t", larger=1.0 + z * 0.5 - 0.01, smaller=1.0, se=0.5) == INCONCLUSIVE
    assert c.greater("e", "s", "t", larger=0.9, smaller=1.0, se=0.5) == INCONCLUSIVE  # reversed, within
    assert c.greater("f", "s", "t", larger=1.0 - z * 0.5 - 0.01, smaller=1.0, se=0.5) == NOT_HOLDS  # reversed beyond
    assert c.greater("g", "s", "t", larger=[3.0, 0.0], smaller=[1.0, 1.0], se=0.1) == NOT_HOLDS  # worst cell


def test_an_inconclusive_verdict_states_the_design_that_would_decide_it():
    c = Claims("p", "page")
    c.greater("a", "s", "t", larger=1.5, smaller=1.0, se=0.5)  # 0.5 against 2 SE = 1.0: (1.0 / 0.5)^2 = 4x
    c.greater("b", "s", "t", larger=1.0, smaller=1.0, se=0.5)
    assert list(c.frame()["to_decide"]) == ["a design 4.0x as large would decide it",
                                            "no design size: the estimate sits on the boundary"]
    assert c.summary() == "claims held 0 of 2, 2 inconclusive at this scale"


def test_a_claim_below_the_papers_design_is_not_compared():
    c = Claims("p", "page")
    assert c.not_at_this_scale("a", "s", "t", design="2 randomizations", needs="10 randomizations") == INCONCLUSIVE
    row = c.frame().iloc[0]
    assert row["measured"] == "not compared: 2 randomizations"
    assert row["rule"] == "compared only at the paper's design (10 randomizations)"
    assert c.summary() == "claims held 0 of 1, 1 inconclusive at this scale"


def test_qualifiers_set_stated_minimum_effects():
    c = Claims("p", "page")
    much = QUALIFIERS["much"][0]
    # 3.3 points beyond 2 SE is an ordering, but not "much" (the rule that failed: a qualifier without a threshold)
    assert c.greater("a", "s", "t", larger=3.3, smaller=0.0, se=0.5) == HOLDS
    assert c.greater("b", "s", "t", larger=3.3, smaller=0.0, se=0.5, qualifier="much") == NOT_HOLDS
    assert c.greater("c", "s", "t", larger=much + 1.5, smaller=0.0, se=0.5, qualifier="much") == HOLDS
    assert c.greater("d", "s", "t", larger=much + 0.5, smaller=0.0, se=0.5, qualifier="much") == INCONCLUSIVE
    assert c.frame()["rule"].iloc[1] == "first - second > 10 beyond the uncertainty (much)"
    assert QUALIFIERS["slightly"][0] == 0.0 and QUALIFIERS["considerably"][0] < much
    with pytest.raises(ValueError, match="`qualifier`"):
        c.greater("e", "s", "t", larger=1.0, smaller=0.0, qualifier="high")


@pytest.mark.parametrize("qualifier, minimum", [("substantially", 5.0), ("dramatically", 10.0), ("large", 10.0)])
def test_every_qualifier_of_the_papers_orderings_has_a_minimum_effect(qualifier, minimum):
    # the words the claims quote ("substantially less consistent", "increases dramatically", "a large gap")
    c = Claims("p", "page")
    assert QUALIFIERS[qualifier][0] == minimum
    assert c.greater("plain", "s", "t", larger=minimum - 1.5, smaller=0.0, se=0.5) == HOLDS
    assert c.greater("short", "s", "t", larger=minimum - 1.5, smaller=0.0, se=0.5, qualifier=qualifier) == NOT_HOLDS
    assert c.greater("beyond", "s", "t", larger=minimum + 1.5, smaller=0.0, se=0.5, qualifier=qualifier) == HOLDS


def test_equivalence_needs_both_one_sided_tests():
    c = Claims("p", "page")
    z = SE_MULTIPLE
    assert c.equivalent("a", "s", "t", difference=0.5, se=0.5, margin=0.5 + z * 0.5 + 0.01) == HOLDS
    # inside the margin but not by its uncertainty: TOST does not reject (the rule that failed: a bound on |d|)
    assert c.equivalent("b", "s", "t", difference=0.5, se=0.5, margin=1.0) == INCONCLUSIVE
    assert c.equivalent("c", "s", "t", difference=-3.0, se=0.5, margin=1.0) == NOT_HOLDS
    assert c.equivalent("d", "s", "t", difference=[0.0, 0.1], se=0.0, margin=1.0) == HOLDS
    assert "|difference| < 1 (margin)" in c.frame()["rule"].iloc[1]


def test_agreement_is_judged_beside_the_trivial_table():
    c = Claims("p", "page")
    trivial = np.array([True] * 205 + [False] * 38)
    ours = trivial.copy()
    ours[205:208] = True  # 208/243 against an all-dot 205/243: no better than all dots
    assert c.agreement("a", "s", "t", agree=ours, baseline_agree=trivial, baseline="an all-dot table") == INCONCLUSIVE
    assert c.frame()["measured"].iloc[0] == "208/243 cells agree; an all-dot table: 205/243"
    ours[205:] = True
    assert c.agreement("b", "s", "t", agree=ours, baseline_agree=trivial, baseline="an all-dot table") == HOLDS
    worse = trivial.copy()
    worse[:30] = False
    assert c.agreement("c", "s", "t", agree=worse, baseline_agree=trivial, baseline="an all-dot table") == NOT_HOLDS


def test_the_level_is_one_sided_two_standard_errors():
    from scipy import stats

    assert ALPHA == pytest.approx(stats.norm.sf(2.0)) and ALPHA == pytest.approx(0.02275, abs=1e-5)


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
    assert Claims("p", "x").at_most("k", "s", "t", value=value, bound=5.0, se=0.5) == INCONCLUSIVE
    assert Claims("p", "x").at_most("k", "s", "t", value=value[:1], bound=5.0, se=0.5) == NOT_HOLDS
    value[0] = 5.0 + 3.3 * 0.5
    assert Claims("p", "x").at_most("k", "s", "t", value=value, bound=5.0, se=0.5) == NOT_HOLDS
    with pytest.raises(ValueError, match="`m`"):
        se_multiple(0)


def test_measured_arrays_of_any_shape_are_shown():
    c = Claims("p", "x")
    c.at_most("k", "s", "t", value=np.ones((2, 2)), bound=2.0)
    assert c.frame()["measured"].iloc[0] == "1.00, 1.00, 1.00, 1.00"
