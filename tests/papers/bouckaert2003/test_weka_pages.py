"""Tests of replicability.papers.bouckaert2003.weka_pages.

The investigation pages built on the Weka 3.6 reference data of ``data/weka``.
"""

from replicability.papers.bouckaert2003.weka_pages import table2_investigation_page, table7_investigation_page


def test_investigation_pages():
    p7 = table7_investigation_page()
    assert list(p7.tables) == ["agreement", "oracle", "hypotheses"]
    assert p7.values["weka_t7_max_gap_experimenter"] < p7.values["weka_t7_max_gap_sorted"]
    assert len(p7.claims.frame()) == 0  # the investigation adds no claim to the page
    # naive Bayes, C4.5 and TAN do not depend on the training order (so Weka's ascending counts serve for both)
    assert "100000/100000, 100000/100000 and 100000/100000 folds" in p7.tables["hypotheses"].frame["result"].iloc[-1]
    p2 = table2_investigation_page()
    assert p2.values["weka_t2_same_rates"] is True
    assert p2.values["weka_t2_agree"] == "100000/100000"


def test_investigation_pages_read_committed_results_only(committed_only):
    # bouckaert2003/03 and /07 build these: on a fresh clone (empty cache) nothing is recomputed
    table7_investigation_page()
    table2_investigation_page()
    assert committed_only == []
