"""Tests of replicability.papers.reference.scorecard (the page reference/05_scorecard)."""

from replicability.papers.reference import scorecard_page
from replicability.report.claims import HOLDS, NOT_HOLDS, WITHIN, scorecard, verdict_counts


def test_scorecard_page_counts_every_claim():
    page = scorecard_page()
    card = scorecard()
    counts = verdict_counts(card)
    assert repr(page.show("counts")) == repr(counts)
    held = int(counts[[HOLDS, WITHIN]].to_numpy().sum())
    assert page.values["scorecard_summary"] == (
        f"{len(card)} claims on {card['page'].nunique()} pages: {held} hold (within tolerance for "
        f"{int(counts[WITHIN].sum())}), {int(counts[NOT_HOLDS].sum())} do not.")
    assert list(page.glue_values()) == ["scorecard_summary"]
    assert '<table class="scorecard">' in page.show("scorecard").data
