"""The Bouckaert (2003) page tests write nothing into the repository."""

import pytest


@pytest.fixture(autouse=True)
def _no_writes(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))
