"""Tests of replicability.papers.bouckaert_frank2004.uci_fidelity_page: Table 1's properties and Weka fidelity.

The page at paper scale reads the committed results; its reproduced tables must be
byte-identical to the committed ``data/reproduced/bouckaert_frank2004`` files, and its
verdicts must follow from independently recomputed values.
"""

from replicability.papers.bouckaert_frank2004 import uci_fidelity_page
from replicability.papers.bouckaert_frank2004.uci_fidelity_page import fidelity_page
from replicability.report.claims import HOLDS, NOT_HOLDS
from replicability.report.tables import read_published
from replicability.sources.uci import list_uci


def test_reproduced_tables_equal_the_committed_files(written_as_committed):
    written_as_committed(fidelity_page(), ["table1_properties", "uci_fidelity"])


def test_fidelity_claims_are_exact():
    published = read_published("bouckaert_frank2004", "table1_properties").set_index("dataset")
    files = list_uci().set_index("paper_name").loc[published.index]
    same = (files["instances"] == published["instances"]) & (files["observed_classes"] == published["classes"])
    page = fidelity_page()
    frame = page.claims.frame().set_index("key")
    assert frame.loc["claim_properties", "tolerance"] == "none"
    assert page.values["n_same_instances"] == int((files["instances"] == published["instances"]).sum())
    assert page.values["n_attr_differ"] == int((files["attributes"] != published["attributes"]).sum())
    assert page.claims.verdicts()["claim_properties"] == (HOLDS if same.all() else NOT_HOLDS)


def test_uci_folder_defaults_to_the_environment_then_the_shared_data(monkeypatch, repo_root):
    assert uci_fidelity_page._uci_directory("here") == "here"
    monkeypatch.setenv("REPLICABILITY_UCI_DIR", "/somewhere/uci")
    assert uci_fidelity_page._uci_directory(None) == "/somewhere/uci"
    monkeypatch.delenv("REPLICABILITY_UCI_DIR")
    monkeypatch.chdir(repo_root / "notebooks" / "bouckaert_frank2004")
    folder = uci_fidelity_page._uci_directory(None)
    assert folder.resolve() == (repo_root / "notebooks" / "bouckaert_frank2004" / "../../../shared/data/uci").resolve()
