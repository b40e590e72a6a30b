"""Fixtures of the Raschka (2018) page tests: a temporary folder for what a page writes."""

import pytest


@pytest.fixture
def reproduced_dir(tmp_path, monkeypatch):
    """``REPLICABILITY_REPRODUCED_DIR``: where :meth:`Page.write` writes, instead of data/reproduced."""
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    return tmp_path
