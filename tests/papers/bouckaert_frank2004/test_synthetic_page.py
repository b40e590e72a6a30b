"""Tests of replicability.papers.bouckaert_frank2004.synthetic_page: the page of Table 5."""

import filecmp

import pytest

from replicability.papers.bouckaert_frank2004.synthetic_page import table5_page


@pytest.mark.slow
def test_table5_page_reproduces_the_committed_table(tmp_path, monkeypatch, repo_root):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    page = table5_page()
    page.write()
    committed = repo_root / "data" / "reproduced" / "bouckaert_frank2004"
    assert filecmp.cmp(tmp_path / "bouckaert_frank2004" / "table5.csv", committed / "table5.csv", shallow=False)
    shown = page.show("table5").frame
    assert shown.loc[("5x2 cv", "ours"), "min"] == shown.loc[("5x2 cv", "ours"), "4"]  # the minimum is source 4
