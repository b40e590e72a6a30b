"""Tests of replicability.papers.reference.scorecard (the page reference/05_scorecard)."""

import pandas as pd

from replicability.papers.reference import scorecard_page
from replicability.papers.reference.scorecard import changed_verdicts
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, QUALIFIERS, scorecard, verdict_counts


def test_scorecard_page_counts_every_claim():
    page = scorecard_page()
    card = scorecard()
    counts = verdict_counts(card)
    assert repr(page.show("counts")) == repr(counts)
    assert page.values["scorecard_summary"] == (
        f"{len(card)} claims on {card['page'].nunique()} pages: {int(counts[HOLDS].sum())} hold, "
        f"{int(counts[INCONCLUSIVE].sum())} are inconclusive at this scale, "
        f"{int(counts[NOT_HOLDS].sum())} do not hold.")
    assert list(page.tables["qualifiers"].frame["qualifier"]) == list(QUALIFIERS)
    assert '<table class="scorecard">' in page.show("scorecard").data


def test_changed_verdicts_lists_old_and_new_with_the_reason():
    card = pd.DataFrame({"paper": ["p", "p", "p"], "page": ["01", "01", "02"], "key": ["a", "b", "c"],
                         "verdict": [HOLDS, INCONCLUSIVE, HOLDS], "rule": ["r1", "r2", "r3"],
                         "measured": ["m1", "m2", "m3"], "tolerance": ["t1", "t2", "t3"],
                         "to_decide": ["", "a design 4.0x as large would decide it", ""]})
    old = pd.DataFrame({"paper": ["p", "p"], "page": ["01", "01"], "key": ["a", "b"], "verdict": [HOLDS, HOLDS]})
    changed = changed_verdicts(card, old)
    assert changed["claim"].tolist() == ["p/01: b", "p/02: c"]
    assert changed[["old", "new"]].to_numpy().tolist() == [[HOLDS, INCONCLUSIVE], ["(new claim)", HOLDS]]
    assert changed["reason"].iloc[0] == "rule: r2; measured: m2; uncertainty t2; a design 4.0x as large would decide it"
