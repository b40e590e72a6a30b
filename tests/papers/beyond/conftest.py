"""Fixtures of the tests of "Beyond the papers": the committed UCI results, a folder for what a page writes."""

import pytest

from replicability.papers.shared.uci_runs import uci_scheme_results


@pytest.fixture(scope="module")
def results():
    """The committed paper-scale 10 x 10 cv results of naive Bayes, J48 and IB1 on the 27 UCI data sets."""
    return uci_scheme_results("cv")


@pytest.fixture
def reproduced_dir(tmp_path, monkeypatch):
    """``REPLICABILITY_REPRODUCED_DIR``: where :meth:`Page.write` writes, instead of data/reproduced."""
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    return tmp_path
